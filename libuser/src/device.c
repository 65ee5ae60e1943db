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
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <sys/mman.h>

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
		return err;
	}
	ipu->fd = fd;
	*out = ipu;
	return 0;
}

void ipuxcom_close(struct ipuxcom *ipu)
{
	if (!ipu)
		return;
	if (ipu->xbuf)
		munmap(ipu->xbuf, ipu->xbuf_size);
	for (uint32_t i = 0; i < ipu->hpages; i++)
		munmap(ipu->hpage[i], ipu->hpage_size[i]);
	/*
	 * Not retried on EINTR: on Linux the descriptor is released even
	 * then, and retrying could close a descriptor another thread got.
	 */
	close(ipu->fd);
	free(ipu);
}

int ipuxcom_fd(const struct ipuxcom *ipu)
{
	return ipu ? ipu->fd : -EINVAL;
}

int ixc_ioctl(const struct ipuxcom *ipu, unsigned long req, void *arg)
{
	return ioctl(ipu->fd, req, arg) < 0 ? -errno : 0;
}

int ipuxcom_get_info(struct ipuxcom *ipu, struct ipuxcom_info *info)
{
	struct ipuxcom_ioc_info ioc = { .size = sizeof(ioc) };
	int err;

	if (!ipu || !info)
		return -EINVAL;
	err = ixc_ioctl(ipu, IPUXCOM_IOC_INFO, &ioc);
	if (err)
		return err;
	*info = (struct ipuxcom_info) {
		.uapi_version = ioc.uapi_version,
		.device_count = ioc.device_count,
		.max_config_bar = ioc.max_config_bar,
		.capabilities = ioc.capabilities,
	};
	return 0;
}

int ipuxcom_attach(struct ipuxcom *ipu, uint32_t dev_id)
{
	struct ipuxcom_ioc_attach ioc = { .size = sizeof(ioc), .dev_id = dev_id };

	if (!ipu)
		return -EINVAL;
	return ixc_ioctl(ipu, IPUXCOM_IOC_ATTACH, &ioc);
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
	/* The module NUL-terminates it; callers printing it rely on that. */
	memcpy(dev->backend, ioc.backend, sizeof(dev->backend));
	dev->backend[sizeof(dev->backend) - 1] = '\0';
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

int ipuxcom_reset(struct ipuxcom *ipu, uint32_t *state_out)
{
	struct ipuxcom_ioc_reset ioc = { .size = sizeof(ioc) };
	int err;

	if (!ipu)
		return -EINVAL;
	err = ixc_ioctl(ipu, IPUXCOM_IOC_RESET, &ioc);
	if (err)
		return err;
	if (state_out)
		*state_out = ioc.state;
	return 0;
}
