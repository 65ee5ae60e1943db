// SPDX-License-Identifier: GPL-2.0
/*
 * Ownership of a card driven by ipu_driver: ipuxcom acts on it only for a
 * caller that holds it there, i.e. that passes an open /dev/ipuN of the
 * same card at ATTACH on which ipu_driver's exclusive USER_ATTACH
 * succeeds: the library takes it first, and the module takes it again on
 * that file itself (ipuxcom_ipu_file_hold()), so a descriptor of a card
 * someone else holds is refused. Only public interfaces are used: the
 * file's own ioctl entry for USER_ATTACH; to check the node, that the
 * file is a char device whose dev_t is that of a device named "ipu<N>"
 * [S "Below Poplar": /dev/ipu0, /dev/ipu0_ex, /dev/ipu0_mem, /dev/ipu0_p2p]
 * somewhere below the card's device (the PCI function) in the device
 * tree. Where ipu_driver puts its nodes in sysfs is not in any record
 * (FACTS.md "ipu_driver as the peer drives it"): the node may be a child
 * of the PCI function or sit further down, below a class device or
 * another device of the driver's. The search walks the function's
 * descendants, at most IPUNODE_MAX_DEPTH levels down; a node elsewhere
 * fails ATTACH with -EXDEV and nothing is touched (docs/hardware.md).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/security.h>
#include <linux/string.h>

#include <linux/ipuxcom_ipu_driver.h>

#include "ipuxcom_internal.h"

/* Levels below the PCI function searched for the node (modelled bound). */
#define IPUNODE_MAX_DEPTH	4

struct ipunode_match {
	dev_t devt;		/* 0: the first node will do */
	unsigned int depth;	/* of the devices being visited, 1 = children */
	struct device *found;
};

/* "ipu" followed by decimal digits only: not ipuN_ex, _mem or _p2p. */
static bool ipunode_is_config_node(const char *name)
{
	if (strncmp(name, "ipu", 3) || !name[3])
		return false;
	for (name += 3; *name; name++)
		if (!isdigit(*name))
			return false;
	return true;
}

/* @child, or a device below it, is the node: depth first, bounded. */
static int ipunode_match(struct device *child, void *data)
{
	struct ipunode_match *m = data;

	if (child->devt && ipunode_is_config_node(dev_name(child)) &&
	    (!m->devt || child->devt == m->devt)) {
		m->found = get_device(child);
		return 1;
	}
	if (m->depth >= IPUNODE_MAX_DEPTH)
		return 0;
	m->depth++;
	device_for_each_child(child, m, ipunode_match);
	m->depth--;
	return m->found ? 1 : 0;
}

/* The /dev/ipuN device below @dev's parent (a reference), or NULL. */
static struct device *ipunode_find(struct ipuxcom_device *dev, dev_t devt)
{
	struct ipunode_match m = { .devt = devt, .depth = 1 };

	if (!dev->ipu_driver || !dev->parent)
		return NULL;
	device_for_each_child(dev->parent, &m, ipunode_match);
	return m.found;
}

/*
 * Name of the device's ipu_driver node into @name ("" if none). Inside
 * ipuxcom_device_enter(): the parent is valid while the backend is.
 */
int ipuxcom_ipu_node_name(struct ipuxcom_device *dev, char *name, size_t len)
{
	struct device *node = ipunode_find(dev, 0);

	name[0] = '\0';
	if (!node)
		return -ENOENT;
	strscpy(name, dev_name(node), len);
	put_device(node);
	return 0;
}

/*
 * Is @file the /dev/ipuN of @dev, open for reading and writing? Inside
 * ipuxcom_device_enter(). -EBADF: not open read-write; -EXDEV: another file.
 */
int ipuxcom_ipu_file_check(struct ipuxcom_device *dev, struct file *file)
{
	struct inode *inode = file_inode(file);
	struct device *node;

	if ((file->f_mode & (FMODE_READ | FMODE_WRITE)) != (FMODE_READ | FMODE_WRITE))
		return -EBADF;
	if (!S_ISCHR(inode->i_mode))
		return -EXDEV;
	node = ipunode_find(dev, inode->i_rdev);
	if (!node)
		return -EXDEV;
	put_device(node);
	return 0;
}

/*
 * Take ipu_driver's USER_ATTACH on @file, a /dev/ipuN that
 * ipuxcom_ipu_file_check() accepted, exactly as its holder does from
 * userspace (FACTS.md: USER_ATTACH by value 0; the ioctl number is
 * ipu_driver's, uapi/linux/ipuxcom_ipu_driver.h), through the file's own
 * ioctl entry and the security hook the syscall would pass. No lock of
 * the module may be held: this runs ipu_driver's code.
 *
 * What this proves rests on ipu_driver's USER_ATTACH being exclusive per
 * card: it succeeds on the file that holds the card (or takes a card
 * nobody holds for @file) and fails on any other file while the card is
 * held. 0, or the error ipu_driver answered (-EBUSY: another file holds
 * the card).
 */
int ipuxcom_ipu_file_hold(struct file *file)
{
	long ret;

	ret = security_file_ioctl(file, IPU_DRV_USER_ATTACH, 0);
	if (!ret)
		ret = vfs_ioctl(file, IPU_DRV_USER_ATTACH, 0);
	return ret < 0 ? (int)ret : 0;
}
