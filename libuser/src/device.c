// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * The /dev/ipuxcom file and its ioctls.
 *
 * Every ioctl struct is passed with .size = sizeof() of the struct this
 * library was built with, and zero-initialised so that flags and reserved
 * members are zero: the module rejects anything else with -EINVAL, and
 * uses .size to stay compatible with older and newer builds.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ipuxcom.h"
#include "internal.h"

int ipuxcom_open(const char *path, struct ipuxcom **out)
{
	struct ipuxcom *ipu;
	int fd;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!path)
		path = IPUXCOM_DEVICE_PATH;
	/* open("") fails with ENOENT, which would read as "module not loaded". */
	if (!*path)
		return -EINVAL;

	ipu = calloc(1, sizeof(*ipu));
	if (!ipu)
		return -ENOMEM;
	/*
	 * O_CLOEXEC: an attached file held open by an exec'd child would keep
	 * the device attached after the parent closes it.
	 */
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;

		free(ipu);
		return ixc_err_note(IPUXCOM_ERR_DEVICE, err, 0, "%s: %s", path,
				    err == -ENOENT ? "no such device node (ipuxcom module not loaded?)"
						   : strerror(-err));
	}
	ipu->fd = fd;
	ipu->ipu_fd = -1;
	*out = ipu;
	return 0;
}

void ipuxcom_close(struct ipuxcom *ipu)
{
	if (!ipu)
		return;
	/*
	 * The ipuxcom file first: the module drops its pins and its reference
	 * to the ipu_driver file. Not retried on EINTR: on Linux the
	 * descriptor is released even then, and retrying could close a
	 * descriptor another thread got.
	 */
	close(ipu->fd);
	if (ipu->ipu_fd >= 0) {
		if (ipu->ipu_fd_owned) {
			/* Ends the ipu_driver session, with its buffer attachments. */
			close(ipu->ipu_fd);
		} else {
			/* The caller's session goes on: take back what the library gave it. */
			for (uint32_t i = 0; i < IPUXCOM_BUF_SLOTS; i++)
				if (ipu->drv_bufs & (1u << i))
					ixc_ipudrv_buffer_detach(ipu->ipu_fd, i);
		}
	}
	if (ipu->exch)
		munmap(ipu->exch, ipu->exch_size);
	if (ipu->cfg_map)
		munmap(ipu->cfg_map, IPUXCOM_IPU_CFG_MAP_BYTES);
	if (ipu->xbuf)
		munmap(ipu->xbuf, ipu->xbuf_size);
	for (uint32_t i = 0; i < ipu->hpages; i++)
		munmap(ipu->hpage[i], ipu->hpage_size[i]);
	free(ipu);
}

int ipuxcom_fd(const struct ipuxcom *ipu)
{
	return ipu ? ipu->fd : -EINVAL;
}

int ipuxcom_ipu_fd(const struct ipuxcom *ipu)
{
	if (!ipu)
		return -EINVAL;
	return ipu->ipu_fd >= 0 ? ipu->ipu_fd : -ENODEV;
}

const char *ipuxcom_errmsg(const struct ipuxcom *ipu)
{
	return ipu ? ipu->errmsg : ixc_err_last_msg();
}

int ixc_fail(struct ipuxcom *ipu, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ipu->errmsg, sizeof(ipu->errmsg), fmt, ap);
	va_end(ap);
	ixc_err_note_msg(IPUXCOM_ERR_DEVICE, err, 0, ipu->errmsg);
	return err;
}

int ixc_ioctl(const struct ipuxcom *ipu, unsigned long req, void *arg)
{
	if (ioctl(ipu->fd, req, arg) < 0)
		{
		int err = -errno;

		ixc_err_note_msg(IPUXCOM_ERR_DEVICE, err, 0, NULL);
		return err;
	}
	return 0;
}

int ipuxcom_get_info(struct ipuxcom *ipu, struct ipuxcom_info *info)
{
	struct ipuxcom_ioc_info ioc = { .size = sizeof(ioc) };
	struct ipuxcom_info out;
	int err;

	if (!ipu || !info)
		return -EINVAL;
	err = ixc_size_out_check(info, IPUXCOM_INFO_SIZE_MIN, IPUXCOM_ERR_DEVICE, "info.size",
				 "IPUXCOM_INFO_INIT", ipu->errmsg, sizeof(ipu->errmsg));
	if (err)
		return err;
	err = ixc_ioctl(ipu, IPUXCOM_IOC_INFO, &ioc);
	if (err)
		return err;
	out = (struct ipuxcom_info) {
		.size = sizeof(out),
		.uapi_version = ioc.uapi_version,
		.device_count = ioc.device_count,
		.max_config_bar = ioc.max_config_bar,
		.capabilities = ioc.capabilities,
	};
	ixc_struct_out(info, info->size, &out, sizeof(out));
	return 0;
}

/*
 * A card's ipu_driver nodes as a session holds them: /dev/ipuN open
 * read-write with its config registers mapped (offset 0,
 * IPUXCOM_IPU_CFG_MAP_BYTES, shared), and /dev/ipuN_ex mapped when it
 * can be. fd < 0: a device not held through ipu_driver.
 */
struct ixc_ipu_session {
	int fd;
	void *cfg;
	int ex_fd;
	void *ex;
	size_t ex_size;
};

#define IXC_NO_IPU_SESSION	((struct ixc_ipu_session){ .fd = -1, .ex_fd = -1 })

static void ixc_ipu_session_drop(struct ixc_ipu_session *s, bool close_fd)
{
	if (s->cfg)
		munmap(s->cfg, IPUXCOM_IPU_CFG_MAP_BYTES);
	if (s->ex)
		munmap(s->ex, s->ex_size);
	if (s->ex_fd >= 0)
		close(s->ex_fd);
	if (close_fd && s->fd >= 0)
		close(s->fd);
	*s = IXC_NO_IPU_SESSION;
}

/*
 * IPUXCOM_IOC_ATTACH, with the session's descriptors and mappings when
 * @s->fd >= 0 (@extra: IPUXCOM_ATTACH_F_PROBE or 0); explains ATTACH's
 * errors (without the device id, which the caller has). A probe's -EXDEV
 * is the caller's to explain.
 */
static int ixc_attach_ioctl(struct ipuxcom *ipu, uint32_t dev_id,
			    const struct ixc_ipu_session *s, uint32_t extra)
{
	struct ipuxcom_ioc_attach ioc = { .size = sizeof(ioc), .dev_id = dev_id };
	int err;

	if (s->fd >= 0) {
		ioc.flags = IPUXCOM_ATTACH_F_IPU_FD | extra;
		ioc.ipu_fd = s->fd;
		ioc.cfg_map = (uintptr_t)s->cfg;
		if (s->ex && s->ex_fd >= 0) {
			ioc.flags |= IPUXCOM_ATTACH_F_EX_FD;
			ioc.ex_fd = s->ex_fd;
			ioc.ex_map = (uintptr_t)s->ex;
			ioc.ex_map_len = s->ex_size;
		}
	}
	err = ixc_ioctl(ipu, IPUXCOM_IOC_ATTACH, &ioc);
	if (extra & IPUXCOM_ATTACH_F_PROBE)
		return err;
	switch (err) {
	case -EBUSY:
		return ixc_fail(ipu, err, "attached by another open file of the ipuxcom node");
	case -EACCES:
		if (s->fd >= 0)
			return ixc_fail(ipu, err, "the mapping of the ipu_driver node is not shared "
					"and read-write");
		return ixc_fail(ipu, err, "held through ipu_driver: ATTACH needs an open /dev/ipuN "
				"of it and its mapping (IPUXCOM_ATTACH_F_IPU_FD)");
	case -EXDEV:
		return ixc_fail(ipu, err, "the ipu_driver descriptor's mapping does not reach this "
				"device's registers (another card, or not ipu_driver's node)");
	case -EBADF:
		return ixc_fail(ipu, err, "the ipu_driver descriptor is not open read-write");
	case -EOPNOTSUPP:
		if (s->fd >= 0)
			return ixc_fail(ipu, err, "ipu_driver's mapping of its node is not a PFN "
					"map of device memory: the module cannot tell which "
					"registers it reaches (how ipu_driver maps is not in "
					"the record; please report it)");
		break;
	case -EINVAL:
		if (s->fd >= 0)
			return ixc_fail(ipu, err, "not held through ipu_driver: attach it without "
					"a /dev/ipuN (ipuxcom_attach)");
		break;
	default:
		break;
	}
	return err;
}

/*
 * Open /dev/@node and map its config registers into @s; 0, or -errno
 * with @why set to what failed.
 */
static int ixc_ipu_node_open(const char *node, struct ixc_ipu_session *s, const char **why)
{
	int err = ixc_ipudrv_open(node, &s->fd);

	if (err) {
		*why = err == -EACCES ? "permission denied (ipu_driver's node is opened "
					"read-write)" : strerror(-err);
		return err;
	}
	err = ixc_ipudrv_map_config(s->fd, &s->cfg);
	if (err) {
		*why = "mmap of the config registers (offset 0, 512 KiB) failed";
		ixc_ipu_session_drop(s, true);
	}
	return err;
}

/*
 * Which /dev/ipuN is device @dev_id's: each one in turn is opened and
 * mapped, and the module says whether the mapping reaches this device's
 * registers (ATTACH's probe: nothing is attached or touched, and
 * ipu_driver is asked nothing). No sysfs layout is assumed.
 */
static int ixc_ipu_node_find(struct ipuxcom *ipu, uint32_t dev_id, struct ixc_ipu_session *s,
			     char node[IPUXCOM_IPU_NODE_LEN])
{
	char names[64][IPUXCOM_IPU_NODE_LEN];
	char first[160] = "";
	int n, err = -ENODEV;

	n = ixc_ipudrv_list(names, 64);
	if (n < 0)
		return ixc_fail(ipu, n, "%s: %s", ixc_ipudrv_dev_dir, strerror(-n));
	for (int i = 0; i < n; i++) {
		const char *why = NULL;
		int e = ixc_ipu_node_open(names[i], s, &why);

		if (!e) {
			e = ixc_attach_ioctl(ipu, dev_id, s, IPUXCOM_ATTACH_F_PROBE);
			if (!e) {
				memcpy(node, names[i], IPUXCOM_IPU_NODE_LEN);
				return 0;
			}
			why = e == -EXDEV ? NULL :
			      e == -EOPNOTSUPP ? "its mapping is not a PFN map of device memory, "
						 "which the module cannot resolve (please report)" :
			      strerror(-e);
			ixc_ipu_session_drop(s, true);
		}
		/* remember the first failure that was not "another card's" */
		if (why && !first[0]) {
			snprintf(first, sizeof(first), "; %.48s/%.15s: %.80s", ixc_ipudrv_dev_dir, names[i],
				 why);
			err = e;
		}
	}
	if (!n)
		return ixc_fail(ipu, -ENODEV, "held through ipu_driver, but %s has no ipu<N> node "
				"(is ipu_driver loaded, and udev done?)", ixc_ipudrv_dev_dir);
	return ixc_fail(ipu, err, "held through ipu_driver, but none of the %d ipu<N> node(s) "
			"in %s maps its registers%s", n, ixc_ipudrv_dev_dir, first);
}

/*
 * A device held through ipu_driver: find its /dev/ipuN, take the
 * ipu_driver session there as the record does (USER_ATTACH, SET_IPU_ID),
 * map /dev/ipuN_ex if it can be, then ATTACH with the descriptors and
 * mappings.
 */
static int ixc_attach_ipu_driver(struct ipuxcom *ipu, uint32_t dev_id)
{
	struct ixc_ipu_session s = IXC_NO_IPU_SESSION;
	char node[IPUXCOM_IPU_NODE_LEN];
	int err;

	err = ixc_ipu_node_find(ipu, dev_id, &s, node);
	if (err)
		return err;
	err = ixc_ipudrv_user_attach(s.fd);
	if (err == -EBUSY) {
		ixc_fail(ipu, err, "/dev/%s: USER_ATTACH: card held by another ipu_driver user "
			 "(Poplar? another ipuxcom session?)", node);
		goto drop;
	}
	if (err) {
		ixc_fail(ipu, err, "/dev/%s: USER_ATTACH: %s", node, strerror(-err));
		goto drop;
	}
	/* [RE] gives 0 for its one card; which id another card takes is modelled. */
	err = ixc_ipudrv_set_ipu_id(s.fd, 0);
	if (err) {
		ixc_fail(ipu, err, "/dev/%s: SET_IPU_ID 0: %s", node, strerror(-err));
		goto drop;
	}
	/* without /dev/ipuN_ex only the exchange-window writes are missing */
	if (ixc_ipudrv_map_exchange(node, &s.ex, &s.ex_size, &s.ex_fd))
		s.ex = NULL;
	err = ixc_attach_ioctl(ipu, dev_id, &s, 0);
	if (err)
		goto drop;
	ipu->ipu_fd = s.fd;
	ipu->ipu_fd_owned = true;
	ipu->cfg_map = s.cfg;
	ipu->exch = s.ex;
	ipu->exch_size = s.ex_size;
	/* the mappings keep what they map; the exchange node's descriptor can go */
	if (s.ex_fd >= 0)
		close(s.ex_fd);
	memcpy(ipu->ipu_node, node, sizeof(ipu->ipu_node));
	return 0;
drop:
	ixc_ipu_session_drop(&s, true);
	return err;
}

int ipuxcom_attach(struct ipuxcom *ipu, uint32_t dev_id)
{
	int err;

	if (!ipu)
		return -EINVAL;
	ipu->errmsg[0] = '\0';
	/*
	 * A plain ATTACH first: it is all a device not held through
	 * ipu_driver needs, and is refused with -EACCES, doing nothing, for
	 * one that is (uapi version 4).
	 */
	err = ixc_attach_ioctl(ipu, dev_id, &IXC_NO_IPU_SESSION, 0);
	if (err != -EACCES)
		return err;
	ipu->errmsg[0] = '\0';
	return ixc_attach_ipu_driver(ipu, dev_id);
}

int ipuxcom_attach_ipu_fd(struct ipuxcom *ipu, uint32_t dev_id, int ipu_fd)
{
	int err;

	if (!ipu)
		return -EINVAL;
	ipu->errmsg[0] = '\0';
	if (ipu_fd < 0)
		return ixc_fail(ipu, -EBADF, "no ipu_driver descriptor");
	/* the caller opened it: the driver's signals must not kill us from now */
	ixc_driver_signals_guard();
	{
		struct ixc_ipu_session s = IXC_NO_IPU_SESSION;

		s.fd = ipu_fd;
		err = ixc_ipudrv_map_config(ipu_fd, &s.cfg);
		if (err)
			return ixc_fail(ipu, err, "mmap of the ipu_driver descriptor's config "
					"registers (offset 0, 512 KiB, shared, read-write): %s",
					strerror(-err));
		err = ixc_attach_ioctl(ipu, dev_id, &s, 0);
		if (err) {
			ixc_ipu_session_drop(&s, false);
			return err;
		}
		ipu->cfg_map = s.cfg;
	}
	ipu->ipu_fd = ipu_fd;
	ipu->ipu_fd_owned = false;
	return 0;
}

int ipuxcom_dev_query(struct ipuxcom *ipu, struct ipuxcom_device_info *dev)
{
	struct ipuxcom_ioc_dev_query ioc = { .size = sizeof(ioc) };
	int err;

	if (!ipu || !dev)
		return -EINVAL;
	err = ixc_ioctl(ipu, IPUXCOM_IOC_DEV_QUERY, &ioc);
	if (err)
		return err;
	*dev = (struct ipuxcom_device_info) {
		.dev_id = ioc.dev_id,
		.state = ioc.state,
		.tile_count = ioc.tile_count,
		.config_bar_size = ioc.config_bar_size,
		.capabilities = ioc.capabilities,
	};
	/* The module NUL-terminates them; callers printing them rely on that. */
	memcpy(dev->backend, ioc.backend, sizeof(dev->backend));
	dev->backend[sizeof(dev->backend) - 1] = '\0';
	memcpy(dev->ipu_node, ioc.ipu_node, sizeof(dev->ipu_node));
	dev->ipu_node[sizeof(dev->ipu_node) - 1] = '\0';
	if (ipu->ipu_fd >= 0 && !ipu->ipu_node[0])
		memcpy(ipu->ipu_node, dev->ipu_node, sizeof(ipu->ipu_node));
	return 0;
}

int ipuxcom_reg_read(struct ipuxcom *ipu, uint32_t offset, uint32_t *value)
{
	struct ipuxcom_ioc_reg ioc = { .size = sizeof(ioc), .offset = offset };
	int err;

	if (!ipu || !value || offset % sizeof(uint32_t))
		return -EINVAL;
	err = ixc_ioctl(ipu, IPUXCOM_IOC_REG_READ, &ioc);
	if (err)
		return err;
	*value = ioc.value;
	return 0;
}

int ipuxcom_reg_write(struct ipuxcom *ipu, uint32_t offset, uint32_t value)
{
	struct ipuxcom_ioc_reg ioc = {
		.size = sizeof(ioc),
		.offset = offset,
		.value = value,
	};

	if (!ipu || offset % sizeof(uint32_t))
		return -EINVAL;
	return ixc_ioctl(ipu, IPUXCOM_IOC_REG_WRITE, &ioc);
}

int ixc_module_reset(struct ipuxcom *ipu, uint32_t *state_out)
{
	struct ipuxcom_ioc_reset ioc = { .size = sizeof(ioc) };
	int err;

	if (ipu->ipu_fd >= 0)
		ioc.flags = IPUXCOM_RESET_F_DRIVER_RESET;
	err = ixc_ioctl(ipu, IPUXCOM_IOC_RESET, &ioc);
	if (err)
		return err;
	/* The module detached and unpinned every host buffer. */
	ixc_forget_buffers(ipu);
	if (state_out)
		*state_out = ioc.state;
	return 0;
}

int ipuxcom_reset(struct ipuxcom *ipu, uint32_t *state_out)
{
	int err;

	if (!ipu)
		return -EINVAL;
	ipu->errmsg[0] = '\0';
	if (ipu->ipu_fd >= 0) {
		struct ipuxcom_init_report rep = IPUXCOM_INIT_REPORT_INIT;

		/*
		 * RESET_DEVICE alone is what the peer calls a notify: the card
		 * is reset by the ICU mailbox message. A reset is therefore the
		 * whole initialisation (HW-DRV-INIT), after the buffers are detached.
		 */
		err = ixc_ipudrv_buffer_detach_all(ipu->ipu_fd);
		if (err)
			return ixc_fail(ipu, err, "ipu_driver BUFFER_DETACH_ALL: %s", strerror(-err));
		ipu->drv_bufs = 0;
		err = ipuxcom_dev_init(ipu, &rep);
		if (state_out)
			*state_out = rep.state;
		return err;
	}
	err = ixc_module_reset(ipu, state_out);
	if (err == -EOPNOTSUPP)
		return ixc_fail(ipu, err, "the device is reset through ipu_driver, but this handle "
				"does not hold it there");
	return err;
}
