// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
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
 * IPUXCOM_IOC_ATTACH, with IPUXCOM_ATTACH_F_IPU_FD when @ipu_fd >= 0;
 * explains ATTACH's errors (without the device id, which the caller has).
 */
static int ixc_attach_ioctl(struct ipuxcom *ipu, uint32_t dev_id, int ipu_fd)
{
	struct ipuxcom_ioc_attach ioc = { .size = sizeof(ioc), .dev_id = dev_id };
	int err;

	if (ipu_fd >= 0) {
		ioc.flags = IPUXCOM_ATTACH_F_IPU_FD;
		ioc.ipu_fd = ipu_fd;
	}
	err = ixc_ioctl(ipu, IPUXCOM_IOC_ATTACH, &ioc);
	switch (err) {
	case -EBUSY:
		return ixc_fail(ipu, err, "attached by another open file of the ipuxcom node");
	case -EACCES:
		return ixc_fail(ipu, err, "held through ipu_driver: ATTACH needs an open /dev/ipuN "
				"of it (IPUXCOM_ATTACH_F_IPU_FD)");
	case -EXDEV:
		return ixc_fail(ipu, err, "the ipu_driver descriptor is not this device's /dev/ipuN "
				"(another card, or not ipu_driver's node)");
	case -EBADF:
		return ixc_fail(ipu, err, "the ipu_driver descriptor is not open read-write");
	case -EINVAL:
		if (ipu_fd >= 0)
			return ixc_fail(ipu, err, "not held through ipu_driver: attach it without "
					"a /dev/ipuN (ipuxcom_attach)");
		break;
	default:
		break;
	}
	return err;
}

/*
 * A device held through ipu_driver: name its node from netlink, open it
 * and take the ipu_driver session, then ATTACH with it.
 */
static int ixc_attach_ipu_driver(struct ipuxcom *ipu, uint32_t dev_id)
{
	struct ipuxcom_device_info di;
	struct ipuxcom_nl *nl;
	int err, fd;

	err = ipuxcom_nl_open(&nl);
	if (!err) {
		err = ipuxcom_nl_dev_get(nl, dev_id, &di);
		ipuxcom_nl_close(nl);
	}
	if (err)
		return ixc_fail(ipu, err, "held through ipu_driver, and netlink DEV_GET, which "
				"names its /dev/ipuN, failed: %s", ipuxcom_strerror(err));
	if (!(di.capabilities & IPUXCOM_CAP_IPU_DRIVER) || !di.ipu_node[0])
		return ixc_fail(ipu, -EPROTO, "a plain ATTACH was refused as for a device held "
				"through ipu_driver, but netlink names no ipu_driver node for it");
	err = ixc_ipudrv_open(di.ipu_node, &fd);
	if (err == -ENOENT)
		return ixc_fail(ipu, err, "/dev/%s: no such node (is ipu_driver loaded, and udev "
				"done?)", di.ipu_node);
	if (err == -EACCES)
		return ixc_fail(ipu, err, "/dev/%s: permission denied (ipu_driver's node must be "
				"opened read-write)", di.ipu_node);
	if (err == -EINVAL)
		return ixc_fail(ipu, err, "netlink names the ipu_driver node '%s', which is not "
				"a /dev name", di.ipu_node);
	if (err)
		return ixc_fail(ipu, err, "/dev/%s: %s", di.ipu_node, strerror(-err));
	err = ixc_ipudrv_user_attach(fd);
	if (err == -EBUSY) {
		ixc_fail(ipu, err, "/dev/%s: USER_ATTACH: card held by another ipu_driver user "
			 "(Poplar? another ipuxcom session?)", di.ipu_node);
		goto close;
	}
	if (err) {
		ixc_fail(ipu, err, "/dev/%s: USER_ATTACH: %s", di.ipu_node, strerror(-err));
		goto close;
	}
	/* [RE] gives 0 for its one card; which id another card takes is modelled. */
	err = ixc_ipudrv_set_ipu_id(fd, 0);
	if (err) {
		ixc_fail(ipu, err, "/dev/%s: SET_IPU_ID 0: %s", di.ipu_node, strerror(-err));
		goto close;
	}
	err = ixc_attach_ioctl(ipu, dev_id, fd);
	if (err)
		goto close;
	ipu->ipu_fd = fd;
	ipu->ipu_fd_owned = true;
	memcpy(ipu->ipu_node, di.ipu_node, sizeof(ipu->ipu_node));
	return 0;
close:
	close(fd);
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
	err = ixc_attach_ioctl(ipu, dev_id, -1);
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
	err = ixc_attach_ioctl(ipu, dev_id, ipu_fd);
	if (err)
		return err;
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
		 * whole initialisation (FACTS.md "ipu_driver as the peer drives
		 * it"), after the buffers are detached.
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
