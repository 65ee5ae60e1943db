// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Names for device states and ipuxcom-specific meanings of errno values.
 *
 * The module reuses errno values with a precise meaning (uapi/linux/
 * ipuxcom.h documents them); strerror()'s generic text ("Device or
 * resource busy") would hide what actually went wrong.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "ipuxcom.h"

#include "internal.h"

static const char *const ixc_state_names[] = {
	[IPUXCOM_DEV_STATE_IDLE] = "idle",
	[IPUXCOM_DEV_STATE_BOOTLOADER] = "bootloader",
	[IPUXCOM_DEV_STATE_LOADING] = "loading",
	[IPUXCOM_DEV_STATE_RUNNING] = "running",
	[IPUXCOM_DEV_STATE_NEEDS_RESET] = "needs-reset",
	[IPUXCOM_DEV_STATE_GONE] = "gone",
};

const char *ipuxcom_dev_state_name(uint32_t state)
{
	/* A newer module may report a state this build does not know yet. */
	if (state >= sizeof(ixc_state_names) / sizeof(ixc_state_names[0]) ||
	    !ixc_state_names[state])
		return "unknown";
	return ixc_state_names[state];
}

static const char *const ixc_errors[] = {
	[EBUSY] = "device attached by another open file",
	[ENOTCONN] = "not attached to a device",
	[ENODEV] = "no such device or device removed",
	[EALREADY] = "this file is already attached",
	[E2BIG] = "struct has unknown non-zero tail (header newer than module)",
	[ENOTTY] = "unknown ioctl (module older than header, or not an ipuxcom device)",
	[EPERM] = "needs CAP_SYS_RAWIO",
	[EINVAL] = "invalid argument (bad value, flag or non-zero reserved member)",
	[ENOENT] = "ipuxcom module not loaded (no device node or netlink family)",
	[EACCES] = "permission denied on the ipuxcom device node",
	[EPROTO] = "malformed reply from the ipuxcom module",
	[EBADMSG] = "malformed netlink message",
	[ERANGE] = "value out of the range the module accepts",
	[EINTR] = "interrupted (device list changed during the dump, or a signal)",
	[EXDEV] = "not this device's ipu_driver node (/dev/ipuN)",
};

const char *ipuxcom_strerror(int err)
{
	/* -INT_MIN does not exist; no errno is anywhere near it. */
	if (err == INT_MIN)
		return "unknown error";
	if (err < 0)
		err = -err;
	if (err == 0)
		return "success";
	if ((size_t)err < sizeof(ixc_errors) / sizeof(ixc_errors[0]) && ixc_errors[err])
		return ixc_errors[err];
	return strerror(err);
}

#define IXC_ATTR_NAME(a) [a] = #a

static const char *const ixc_attr_names[] = {
	IXC_ATTR_NAME(IPUXCOM_A_DEV_ID),
	IXC_ATTR_NAME(IPUXCOM_A_DEV_BACKEND),
	IXC_ATTR_NAME(IPUXCOM_A_DEV_STATE),
	IXC_ATTR_NAME(IPUXCOM_A_DEV_ATTACHED_PID),
	IXC_ATTR_NAME(IPUXCOM_A_DEV_TILE_COUNT),
	IXC_ATTR_NAME(IPUXCOM_A_PAD),
	IXC_ATTR_NAME(IPUXCOM_A_DEV_CAPABILITIES),
	IXC_ATTR_NAME(IPUXCOM_A_OLD_STATE),
	IXC_ATTR_NAME(IPUXCOM_A_BATCH),
	IXC_ATTR_NAME(IPUXCOM_A_BATCHES),
	IXC_ATTR_NAME(IPUXCOM_A_BYTES),
	IXC_ATTR_NAME(IPUXCOM_A_REG),
	IXC_ATTR_NAME(IPUXCOM_A_VALUE),
	IXC_ATTR_NAME(IPUXCOM_A_ERROR),
	IXC_ATTR_NAME(IPUXCOM_A_DEV_IPU_NODE),
	IXC_ATTR_NAME(IPUXCOM_A_DEV_ATTACHED),
};

const char *ixc_nl_attr_name(unsigned int type)
{
	if (type >= sizeof(ixc_attr_names) / sizeof(ixc_attr_names[0]))
		return NULL;
	return ixc_attr_names[type];
}
