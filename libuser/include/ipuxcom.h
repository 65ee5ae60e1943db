/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * libipuxcom: userspace access to the ipuxcom kernel module.
 *
 * Two independent handles:
 *  - struct ipuxcom: an open file of /dev/ipuxcom, for the ioctls. A file
 *    attaches to at most one device and holds it until ipuxcom_close().
 *  - struct ipuxcom_nl: a generic netlink socket for the "ipuxcom" family,
 *    for listing devices without opening (let alone attaching) them.
 *
 * Conventions (as in libbpf and libmnl):
 *  - Every function that can fail returns 0 or a negative errno value and
 *    leaves errno unspecified; ipuxcom_strerror() explains what a value
 *    means for this module.
 *  - Handles are opaque. A handle may be used by one thread at a time.
 *  - The library never prints and never exits.
 *
 * The ABI constants (IPUXCOM_DEVICE_PATH, IPUXCOM_CAP_*, enum
 * ipuxcom_dev_state, IPUXCOM_BACKEND_NAME_LEN, ...) come from the uapi
 * header <linux/ipuxcom.h>, included here so that users need only this one.
 */
#ifndef IPUXCOM_H
#define IPUXCOM_H

#include <stddef.h>
#include <stdint.h>

#include <linux/ipuxcom.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef IPUXCOM_API
#define IPUXCOM_API __attribute__((visibility("default")))
#endif

/* Version of this library; the Makefile reads IPUXCOM_LIB_VERSION from here. */
#define IPUXCOM_LIB_VERSION_MAJOR	0
#define IPUXCOM_LIB_VERSION_MINOR	1
#define IPUXCOM_LIB_VERSION_PATCH	0
#define IPUXCOM_LIB_VERSION		"0.1.0"

struct ipuxcom;
struct ipuxcom_nl;

/* ------------------------------------------------------------- device file */

/*
 * Open the device node @path (NULL: IPUXCOM_DEVICE_PATH) read-write and
 * close-on-exec. On success *out is a new handle; on failure *out is NULL.
 * -ENOENT: no such node (module not loaded).
 */
IPUXCOM_API int ipuxcom_open(const char *path, struct ipuxcom **out);

/* Close the file; this releases the attached device, if any. NULL is a no-op. */
IPUXCOM_API void ipuxcom_close(struct ipuxcom *ipu);

/* The file descriptor (owned by the handle), or -EINVAL for NULL. */
IPUXCOM_API int ipuxcom_fd(const struct ipuxcom *ipu);

struct ipuxcom_info {
	uint32_t uapi_version;		/* IPUXCOM_UAPI_VERSION of the module */
	uint32_t device_count;		/* devices registered right now */
	uint32_t max_config_bar;	/* config-BAR size in bytes */
	uint64_t capabilities;		/* IPUXCOM_CAP_* bits */
};

/* IPUXCOM_IOC_INFO: module version and capabilities; needs no attach. */
IPUXCOM_API int ipuxcom_get_info(struct ipuxcom *ipu, struct ipuxcom_info *info);

/*
 * IPUXCOM_IOC_ATTACH: bind this file to device @dev_id until it is closed.
 * -EBUSY: another file holds it; -EALREADY: this file is already attached;
 * -ENODEV: no such device.
 */
IPUXCOM_API int ipuxcom_attach(struct ipuxcom *ipu, uint32_t dev_id);

struct ipuxcom_device_info {
	uint32_t dev_id;
	uint32_t state;			/* enum ipuxcom_dev_state */
	uint32_t tile_count;
	uint32_t config_bar_size;	/* bytes; 0 when read over netlink */
	uint32_t attached_pid;		/* 0: not attached; always 0 from ipuxcom_dev_query() */
	uint64_t capabilities;		/* IPUXCOM_CAP_* the device supports; 0 if unreported */
	char backend[IPUXCOM_BACKEND_NAME_LEN];	/* NUL-terminated */
};

/* IPUXCOM_IOC_DEV_QUERY: describe the attached device (-ENOTCONN if none). */
IPUXCOM_API int ipuxcom_dev_query(struct ipuxcom *ipu, struct ipuxcom_device_info *dev);

/*
 * One 32-bit access to the attached device's config BAR. @offset must be
 * 4-byte aligned (-EINVAL otherwise, checked before any ioctl). Writing
 * needs CAP_SYS_RAWIO (-EPERM).
 */
IPUXCOM_API int ipuxcom_reg_read(struct ipuxcom *ipu, uint32_t offset, uint32_t *value);
IPUXCOM_API int ipuxcom_reg_write(struct ipuxcom *ipu, uint32_t offset, uint32_t value);

/* Reset the attached device; *state_out (if not NULL) gets the new state. */
IPUXCOM_API int ipuxcom_reset(struct ipuxcom *ipu, uint32_t *state_out);

/* ------------------------------------------------------------------ errors */

/*
 * "idle", "bootloader", "loading", "running", "needs-reset", "gone", or
 * "unknown" for a value this library does not know. Never NULL.
 */
IPUXCOM_API const char *ipuxcom_dev_state_name(uint32_t state);

/*
 * What an error returned by this library means for ipuxcom (e.g. -EBUSY:
 * "device attached by another open file"), else strerror(). Accepts -E and
 * +E alike. Never NULL; the string must not be modified.
 */
IPUXCOM_API const char *ipuxcom_strerror(int err);

/* ----------------------------------------------------------------- netlink */

/*
 * Open a generic netlink socket and resolve the IPUXCOM_GENL_NAME family.
 * -ENOENT: the family is not registered, i.e. the module is not loaded.
 * On failure *out is NULL.
 */
IPUXCOM_API int ipuxcom_nl_open(struct ipuxcom_nl **out);

/* NULL is a no-op. */
IPUXCOM_API void ipuxcom_nl_close(struct ipuxcom_nl *nl);

/*
 * IPUXCOM_GENL_CMD_DEV_GET for one device. -ENODEV: no such device;
 * -ERANGE: an id beyond what the module supports; ipuxcom_nl_errmsg()
 * then has the kernel's explanation. -EPROTO: a malformed reply.
 * out->config_bar_size is 0: netlink does not report it.
 */
IPUXCOM_API int ipuxcom_nl_dev_get(struct ipuxcom_nl *nl, uint32_t dev_id,
				   struct ipuxcom_device_info *out);

/*
 * Dump every device. On success *devs is a malloc'ed array of *count
 * entries (NULL when there are none), to be released with
 * ipuxcom_nl_dev_list_free(). On failure *devs is NULL and *count 0.
 */
IPUXCOM_API int ipuxcom_nl_dev_list(struct ipuxcom_nl *nl,
				    struct ipuxcom_device_info **devs, size_t *count);
IPUXCOM_API void ipuxcom_nl_dev_list_free(struct ipuxcom_device_info *devs);

/*
 * The extended-ack text the kernel attached to the last reply on @nl, e.g.
 * "missing attribute IPUXCOM_A_DEV_ID", or "" when there was none. Valid
 * until the next call on @nl. Never NULL.
 */
IPUXCOM_API const char *ipuxcom_nl_errmsg(const struct ipuxcom_nl *nl);

#ifdef __cplusplus
}
#endif

#include "ipuxcom_datapath.h"
#include "ipuxcom_events.h"
#include "ipuxcom_image.h"
#include "ipuxcom_plan.h"
#include "ipuxcom_xsim.h"

#endif /* IPUXCOM_H */
