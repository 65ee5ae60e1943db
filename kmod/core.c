// SPDX-License-Identifier: GPL-2.0
/*
 * ipuxcom core: the /dev/ipuxcom misc device, per-open-file state and the
 * ioctl dispatch table.
 *
 * Dispatch follows drivers/fwctl/main.c: every command is _IO(magic, nr)
 * and its struct announces its own size in its first member, so structs can
 * grow. The table gives each command its struct size, the minimum size any
 * caller may pass, and the flags it accepts; the dispatcher does all size,
 * tail and flag checks once, and handlers see a zero-extended kernel copy.
 */
#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipuxcom_abi_layout.h"
#include "ipuxcom_internal.h"

/* Config BAR of a C600: mmap(/dev/ipuN, 0, 0x80000) [RE], FACTS.md. */
#define IPUXCOM_MAX_CONFIG_BAR	0x80000

/**
 * struct ipuxcom_file - state of one open file description
 * @lock: serialises ATTACH against itself
 * @dev: attached device (holds a reference), or NULL; set once, then
 *	stable until release, so handlers read it without @lock
 */
struct ipuxcom_file {
	struct mutex lock; /* serialises ATTACH on this file */
	struct ipuxcom_device *dev;
};

struct ipuxcom_ioc_header {
	__u32 size;
	__u32 flags;
};

union ipuxcom_ioc_any {
	struct ipuxcom_ioc_header hdr;
	struct ipuxcom_ioc_info info;
	struct ipuxcom_ioc_attach attach;
	struct ipuxcom_ioc_dev_query dev_query;
	struct ipuxcom_ioc_reg reg;
	struct ipuxcom_ioc_reset reset;
};

struct ipuxcom_ioctl_op {
	u32 size;
	u32 min_size;
	u32 valid_flags;
	int (*handler)(struct ipuxcom_file *f, union ipuxcom_ioc_any *arg);
};

static struct ipuxcom_device *ipuxcom_file_dev(struct ipuxcom_file *f)
{
	/* Pairs with smp_store_release() in ipuxcom_ioc_attach(). */
	return smp_load_acquire(&f->dev);
}

static u64 ipuxcom_capabilities(void)
{
	return IPUXCOM_CAP_ATTACH | IPUXCOM_CAP_REG | IPUXCOM_CAP_RESET |
	       IPUXCOM_CAP_NETLINK;
}

static int ipuxcom_ioc_info(struct ipuxcom_file *f, union ipuxcom_ioc_any *arg)
{
	struct ipuxcom_ioc_info *info = &arg->info;

	/* Every member after flags is an output: overwrite all of them. */
	info->uapi_version = IPUXCOM_UAPI_VERSION;
	info->device_count = ipuxcom_device_count();
	info->capabilities = ipuxcom_capabilities();
	info->max_config_bar = IPUXCOM_MAX_CONFIG_BAR;
	info->reserved = 0;
	return 0;
}

static int ipuxcom_ioc_attach(struct ipuxcom_file *f, union ipuxcom_ioc_any *arg)
{
	struct ipuxcom_ioc_attach *at = &arg->attach;
	struct ipuxcom_device *dev;
	int ret = 0;

	if (at->reserved)
		return -EINVAL;

	mutex_lock(&f->lock);
	if (f->dev) {
		ret = -EALREADY;
		goto out_unlock_file;
	}
	dev = ipuxcom_device_get_by_id(at->dev_id);
	if (!dev) {
		ret = -ENODEV;
		goto out_unlock_file;
	}
	mutex_lock(&dev->lock);
	if (dev->state == IPUXCOM_DEV_STATE_GONE)
		ret = -ENODEV;
	else if (dev->owner)
		ret = -EBUSY;
	if (ret) {
		mutex_unlock(&dev->lock);
		ipuxcom_device_put(dev);
		goto out_unlock_file;
	}
	dev->owner = f;
	put_pid(dev->owner_pid);
	dev->owner_pid = get_task_pid(current, PIDTYPE_TGID);
	mutex_unlock(&dev->lock);
	/* The file keeps the lookup's reference until it is released. */
	smp_store_release(&f->dev, dev);
out_unlock_file:
	mutex_unlock(&f->lock);
	return ret;
}

/* Returns the attached device, or NULL with *err set. */
static struct ipuxcom_device *ipuxcom_attached(struct ipuxcom_file *f, int *err)
{
	struct ipuxcom_device *dev = ipuxcom_file_dev(f);

	*err = dev ? 0 : -ENOTCONN;
	return dev;
}

static int ipuxcom_ioc_dev_query(struct ipuxcom_file *f, union ipuxcom_ioc_any *arg)
{
	struct ipuxcom_ioc_dev_query *q = &arg->dev_query;
	struct ipuxcom_dev_snapshot snap;
	struct ipuxcom_device *dev;
	int ret;

	dev = ipuxcom_attached(f, &ret);
	if (!dev)
		return ret;
	ipuxcom_device_snapshot(dev, &snap);
	if (snap.state == IPUXCOM_DEV_STATE_GONE)
		return -ENODEV;
	q->dev_id = snap.id;
	q->state = snap.state;
	q->tile_count = snap.tile_count;
	q->config_bar_size = snap.config_bar_size;
	/* snapshot zero-filled the whole name buffer: no stale bytes leak */
	memcpy(q->backend, snap.backend, sizeof(q->backend));
	return 0;
}

static int ipuxcom_check_reg(struct ipuxcom_device *dev, u32 offset)
{
	if (!IS_ALIGNED(offset, 4) || offset > dev->config_bar_size - 4)
		return -EINVAL;
	return 0;
}

static int ipuxcom_ioc_reg_read(struct ipuxcom_file *f, union ipuxcom_ioc_any *arg)
{
	struct ipuxcom_ioc_reg *reg = &arg->reg;
	struct ipuxcom_device *dev;
	u32 value = 0;
	int ret;

	dev = ipuxcom_attached(f, &ret);
	if (!dev)
		return ret;
	ret = ipuxcom_check_reg(dev, reg->offset);
	if (ret)
		return ret;
	ret = ipuxcom_device_enter(dev);
	if (ret)
		return ret;
	ret = dev->ops->bar_read(dev->priv, reg->offset, &value);
	ipuxcom_device_exit(dev);
	reg->value = value;
	return ret;
}

static int ipuxcom_ioc_reg_write(struct ipuxcom_file *f, union ipuxcom_ioc_any *arg)
{
	struct ipuxcom_ioc_reg *reg = &arg->reg;
	struct ipuxcom_device *dev;
	int ret;

	/* Raw writes bypass every sequence the module enforces. */
	if (!capable(CAP_SYS_RAWIO))
		return -EPERM;
	dev = ipuxcom_attached(f, &ret);
	if (!dev)
		return ret;
	ret = ipuxcom_check_reg(dev, reg->offset);
	if (ret)
		return ret;
	ret = ipuxcom_device_enter(dev);
	if (ret)
		return ret;
	ret = dev->ops->bar_write(dev->priv, reg->offset, reg->value);
	ipuxcom_device_exit(dev);
	return ret;
}

static int ipuxcom_ioc_reset(struct ipuxcom_file *f, union ipuxcom_ioc_any *arg)
{
	struct ipuxcom_ioc_reset *rs = &arg->reset;
	struct ipuxcom_device *dev;
	int ret;

	dev = ipuxcom_attached(f, &ret);
	if (!dev)
		return ret;
	ret = ipuxcom_device_enter(dev);
	if (ret)
		return ret;
	ret = dev->ops->reset(dev->priv);
	mutex_lock(&dev->lock);
	dev->state = ret ? IPUXCOM_DEV_STATE_NEEDS_RESET : IPUXCOM_DEV_STATE_IDLE;
	rs->state = dev->state;
	mutex_unlock(&dev->lock);
	ipuxcom_device_exit(dev);
	rs->reserved = 0;
	return ret;
}

/* min_size: the struct as uapi version 1 defined it */
static const struct ipuxcom_ioctl_op ipuxcom_ioctl_ops[] = {
	[IPUXCOM_CMD_INFO] = {
		.size = sizeof(struct ipuxcom_ioc_info),
		.min_size = offsetofend(struct ipuxcom_ioc_info, reserved),
		.handler = ipuxcom_ioc_info,
	},
	[IPUXCOM_CMD_ATTACH] = {
		.size = sizeof(struct ipuxcom_ioc_attach),
		.min_size = offsetofend(struct ipuxcom_ioc_attach, reserved),
		.handler = ipuxcom_ioc_attach,
	},
	[IPUXCOM_CMD_DEV_QUERY] = {
		.size = sizeof(struct ipuxcom_ioc_dev_query),
		.min_size = offsetofend(struct ipuxcom_ioc_dev_query, backend),
		.handler = ipuxcom_ioc_dev_query,
	},
	[IPUXCOM_CMD_REG_READ] = {
		.size = sizeof(struct ipuxcom_ioc_reg),
		.min_size = offsetofend(struct ipuxcom_ioc_reg, value),
		.handler = ipuxcom_ioc_reg_read,
	},
	[IPUXCOM_CMD_REG_WRITE] = {
		.size = sizeof(struct ipuxcom_ioc_reg),
		.min_size = offsetofend(struct ipuxcom_ioc_reg, value),
		.handler = ipuxcom_ioc_reg_write,
	},
	[IPUXCOM_CMD_RESET] = {
		.size = sizeof(struct ipuxcom_ioc_reset),
		.min_size = offsetofend(struct ipuxcom_ioc_reset, reserved),
		.handler = ipuxcom_ioc_reset,
	},
};

static long ipuxcom_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct ipuxcom_file *f = filp->private_data;
	void __user *uarg = (void __user *)arg;
	const struct ipuxcom_ioctl_op *op;
	union ipuxcom_ioc_any buf;
	unsigned int nr;
	u32 usize;
	int ret;

	if (_IOC_TYPE(cmd) != IPUXCOM_IOC_MAGIC || _IOC_DIR(cmd) != _IOC_NONE ||
	    _IOC_SIZE(cmd) != 0)
		return -ENOTTY;
	nr = _IOC_NR(cmd);
	if (nr >= ARRAY_SIZE(ipuxcom_ioctl_ops))
		return -ENOTTY;
	op = &ipuxcom_ioctl_ops[array_index_nospec(nr, ARRAY_SIZE(ipuxcom_ioctl_ops))];
	if (!op->handler)
		return -ENOTTY;

	if (get_user(usize, (u32 __user *)uarg))
		return -EFAULT;
	if (usize < op->min_size)
		return -EINVAL;
	/* Zero-extends a shorter struct, -E2BIG for a non-zero unknown tail. */
	ret = copy_struct_from_user(&buf, op->size, uarg, usize);
	if (ret)
		return ret;
	if (buf.hdr.flags & ~op->valid_flags)
		return -EINVAL;

	ret = op->handler(f, &buf);
	if (ret)
		return ret;
	if (copy_to_user(uarg, &buf, min_t(u32, usize, op->size)))
		return -EFAULT;
	return 0;
}

static int ipuxcom_open(struct inode *inode, struct file *filp)
{
	struct ipuxcom_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	filp->private_data = f;
	return nonseekable_open(inode, filp);
}

static int ipuxcom_release(struct inode *inode, struct file *filp)
{
	struct ipuxcom_file *f = filp->private_data;
	struct ipuxcom_device *dev = f->dev;

	if (dev) {
		mutex_lock(&dev->lock);
		dev->owner = NULL;
		put_pid(dev->owner_pid);
		dev->owner_pid = NULL;
		mutex_unlock(&dev->lock);
		ipuxcom_device_put(dev);
	}
	mutex_destroy(&f->lock);
	kfree(f);
	return 0;
}

static const struct file_operations ipuxcom_fops = {
	.owner = THIS_MODULE,
	.open = ipuxcom_open,
	.release = ipuxcom_release,
	.unlocked_ioctl = ipuxcom_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = no_llseek,
};

static struct miscdevice ipuxcom_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "ipuxcom",
	.fops = &ipuxcom_fops,
	.mode = 0600,
};

static int __init ipuxcom_init(void)
{
	int ret;

	ret = misc_register(&ipuxcom_misc);
	if (ret)
		return ret;
	ret = ipuxcom_netlink_init();
	if (ret) {
		misc_deregister(&ipuxcom_misc);
		return ret;
	}
	pr_info("ipuxcom: uapi version %u loaded\n", IPUXCOM_UAPI_VERSION);
	return 0;
}

static void __exit ipuxcom_exit(void)
{
	ipuxcom_netlink_exit();
	misc_deregister(&ipuxcom_misc);
	/* Backends depend on our symbols, so they are all gone by now. */
	WARN_ON(!ipuxcom_registry_empty());
}

module_init(ipuxcom_init);
module_exit(ipuxcom_exit);

MODULE_DESCRIPTION("Direct control of Graphcore C600 (IPU21) devices");
MODULE_LICENSE("GPL");
