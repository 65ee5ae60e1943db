// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Host buffers (uapi version 4): the loader transport buffer and the
 * host-exchange pages are the library's own anonymous memory, handed to
 * the module with BUF_ATTACH (which selects HEXOPT and pins them, charged
 * to this user's RLIMIT_MEMLOCK budget, shared by all its processes,
 * unless it has CAP_IPC_LOCK) and, on a
 * device held through ipu_driver, to ipu_driver with BUFFER_ATTACH at the
 * same index, address and size [RE, HW-LOAD steps 4 and 9].
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ipuxcom.h"
#include "internal.h"

int ipuxcom_xbuf_map(struct ipuxcom *ipu, size_t bytes, void **addr, size_t *size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *map;

	if (!ipu || !addr || !size || bytes > IPUXCOM_XBUF_MAX_SIZE)
		return -EINVAL;
	if (ipu->xbuf) {
		*addr = ipu->xbuf;
		*size = ipu->xbuf_size;
		return bytes && bytes > ipu->xbuf_size ? -EEXIST : 0;
	}
	if (!bytes)
		bytes = IPUXCOM_XBUF_DEFAULT_SIZE;
	/* Page multiples: BUF_ATTACH and the pin take whole pages. */
	bytes = (bytes + page - 1) / page * page;
	/* Zero-filled, as the loaders expect a fresh buffer [RE step 4]. */
	map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return -errno;
	ipu->xbuf = map;
	ipu->xbuf_size = bytes;
	*addr = map;
	*size = bytes;
	return 0;
}

/* The module's words for BUF_ATTACH's errors (uapi/linux/ipuxcom.h). */
static int ixc_buf_attach_fail(struct ipuxcom *ipu, int err, uint32_t index, size_t bytes)
{
	const char *why;

	switch (err) {
	case -ENOMEM:
		why = "cannot pin it: pins are charged to this user's RLIMIT_MEMLOCK "
		      "(ulimit -l; every process of the user together): raise it, free "
		      "other pins, or run with CAP_IPC_LOCK";
		break;
	case -EEXIST:
		why = "the slot already holds a buffer";
		break;
	case -EFAULT:
		why = "not writable memory of this process";
		break;
	case -EMEDIUMTYPE:
		why = "not anonymous or shmem memory (memfd, tmpfs): the module does not pin "
		      "a shared mapping of a regular file";
		break;
	case -EBADFD:
		why = "the device's state does not allow it";
		break;
	case -EINVAL:
		why = "index, alignment, size or attach order refused";
		break;
	default:
		why = ipuxcom_strerror(err);
		break;
	}
	return ixc_fail(ipu, err, "BUF_ATTACH slot %" PRIu32 " (%zu bytes): %s", index, bytes, why);
}

int ixc_buf_attach(struct ipuxcom *ipu, uint32_t index, void *addr, size_t bytes,
		   uint32_t *syscalls)
{
	struct ipuxcom_ioc_buf b = {
		.size = sizeof(b), .index = index, .addr = (uintptr_t)addr, .bytes = bytes,
	};
	int err;

	if (syscalls)
		(*syscalls)++;
	err = ixc_ioctl(ipu, IPUXCOM_IOC_BUF_ATTACH, &b);
	if (err)
		return ixc_buf_attach_fail(ipu, err, index, bytes);
	if (ipu->ipu_fd < 0)
		return 0;
	/* The module cannot reach ipu_driver's BUFFER_ATTACH: the holder issues it. */
	if (syscalls)
		(*syscalls)++;
	err = ixc_ipudrv_buffer_attach(ipu->ipu_fd, index, addr, bytes);
	if (err) {
		struct ipuxcom_ioc_buf d = { .size = sizeof(d), .index = index };

		ixc_ioctl(ipu, IPUXCOM_IOC_BUF_DETACH, &d);
		return ixc_fail(ipu, err, "ipu_driver BUFFER_ATTACH index %" PRIu32
				" (%zu bytes): %s", index, bytes, strerror(-err));
	}
	ipu->drv_bufs |= 1u << index;
	return 0;
}

int ixc_buf_detach(struct ipuxcom *ipu, uint32_t index)
{
	struct ipuxcom_ioc_buf d = { .size = sizeof(d), .index = index };
	int err = ixc_ioctl(ipu, IPUXCOM_IOC_BUF_DETACH, &d), err2 = 0;

	if (ipu->ipu_fd >= 0 && (ipu->drv_bufs & (1u << index))) {
		err2 = ixc_ipudrv_buffer_detach(ipu->ipu_fd, index);
		if (!err2)
			ipu->drv_bufs &= ~(1u << index);
	}
	return err ? err : err2;
}

void ixc_forget_buffers(struct ipuxcom *ipu)
{
	for (uint32_t i = 0; i < ipu->hpages; i++) {
		munmap(ipu->hpage[i], ipu->hpage_size[i]);
		ipu->hpage[i] = NULL;
		ipu->hpage_size[i] = 0;
	}
	ipu->hpages = 0;
	ipu->xbuf_attached = false;
	ipu->drv_bufs = 0;
}

int ixc_xbuf_attach(struct ipuxcom *ipu, uint32_t *syscalls)
{
	int err = ixc_buf_attach(ipu, IPUXCOM_BUF_SLOT_LOADER, ipu->xbuf, ipu->xbuf_size,
				 syscalls);

	if (!err)
		ipu->xbuf_attached = true;
	return err;
}

int ixc_xbuf_finished(struct ipuxcom *ipu)
{
	int err;

	/* LOAD_FINISH unpinned slot 0 and detached it from the device. */
	ipu->xbuf_attached = false;
	if (ipu->ipu_fd < 0 || !(ipu->drv_bufs & (1u << IPUXCOM_BUF_SLOT_LOADER)))
		return 0;
	/* [RE] step 8 ends with BUFFER_DETACH 0. */
	err = ixc_ipudrv_buffer_detach(ipu->ipu_fd, IPUXCOM_BUF_SLOT_LOADER);
	if (err)
		return ixc_fail(ipu, err, "ipu_driver BUFFER_DETACH index 0 after the start: %s",
				strerror(-err));
	ipu->drv_bufs &= ~(1u << IPUXCOM_BUF_SLOT_LOADER);
	return 0;
}
