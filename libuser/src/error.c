// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Names for device states and ipuxcom-specific meanings of errno values,
 * by the domain of the call that returned them.
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

/*
 * One table per domain: the same errno means different things from a
 * device ioctl, a netlink request and a file parser (-ENOENT is "module
 * not loaded" for the first two and "no such file" for the third).
 * Every code the headers and libipuxcom(3) document for a domain has its
 * text here; only undocumented ones fall back to strerror().
 */
struct ixc_errtext {
	int err;		/* positive errno */
	const char *text;
};

static const struct ixc_errtext ixc_dev_errors[] = {
	{ ENOENT, "ipuxcom module not loaded (no device node); from a buffer detach: "
		  "nothing attached in that slot" },
	{ EACCES, "permission denied on the ipuxcom device node" },
	{ EBUSY, "device attached by another open file, or busy with a pending mark or "
		 "an exchange-window write (EXCH_WRITE SELECT without its COMPLETE)" },
	{ ENOTCONN, "not attached to a device" },
	{ ENODEV, "no such device or device removed" },
	{ EALREADY, "this file is already attached" },
	{ E2BIG, "struct has unknown non-zero tail (header newer than module)" },
	{ ENOTTY, "unknown ioctl (module older than header, or not an ipuxcom device)" },
	{ EPERM, "needs CAP_SYS_RAWIO" },
	{ EINVAL, "invalid argument (bad value, flag or non-zero reserved member)" },
	{ ERANGE, "value out of the range the module accepts" },
	{ EBADFD, "the device's state does not allow this command (see its state)" },
	{ ETIMEDOUT, "the device did not finish in time; it needs a reset" },
	{ EOPNOTSUPP, "the device's backend lacks this capability" },
	{ ENOEXEC, "the tile context cannot execute: inactive (nothing running) "
		   "or not quiescent" },
	{ EILSEQ, "the tile rejected the injected instruction or its address" },
	{ ENOBUFS, "a host buffer the command needs is not attached" },
	{ EEXIST, "host buffer slot already in use" },
	{ EFAULT, "bad memory address in the request" },
	{ EMEDIUMTYPE, "host buffer memory is neither anonymous nor shmem (memfd, tmpfs): "
		       "a shared mapping of a regular file is not pinned" },
	{ ENOMEM, "out of memory (or RLIMIT_MEMLOCK reached)" },
	{ EXDEV, "not this device's ipu_driver node (/dev/ipuN)" },
	{ EBADF, "the /dev/ipuN descriptor is not open read-write" },
	{ EINTR, "interrupted by a signal" },
	{ EBADMSG, "malformed or corrupt data for the device" },
	{ EPROTO, "malformed reply from the ipuxcom module" },
	{ EIO, "device I/O error" },
};

static const struct ixc_errtext ixc_nl_errors[] = {
	{ ENOENT, "ipuxcom module not loaded (no generic netlink family)" },
	{ ENODEV, "no such device" },
	{ ERANGE, "device id beyond what the module supports" },
	{ EPROTO, "malformed reply from the ipuxcom module" },
	{ EBADMSG, "malformed netlink message" },
	{ EMSGSIZE, "netlink message too large" },
	{ EINTR, "the device list changed during the dump (or a signal): retry" },
	{ EINVAL, "invalid argument" },
	{ EPERM, "operation not permitted on the ipuxcom netlink family (listening "
		 "to the events group needs CAP_SYS_ADMIN)" },
	{ ENOMEM, "out of memory" },
	{ ENOBUFS, "netlink receive buffer overrun: events were lost" },
	{ EOPNOTSUPP, "the ipuxcom module has no events group (older than this library)" },
	{ EAGAIN, "no event within the timeout" },
};

static const struct ixc_errtext ixc_file_errors[] = {
	{ EBADMSG, "malformed or corrupt data (structure or checksum)" },
	{ EINVAL, "invalid argument" },
	{ EFBIG, "a size limit of the format is exceeded" },
	{ ENOMEM, "out of memory" },
	{ ENOENT, "no such file or directory" },
	{ EACCES, "permission denied" },
	{ EISDIR, "is a directory" },
	{ ERANGE, "a value is out of range for the format" },
};

#define IXC_NERR(t) (sizeof(t) / sizeof((t)[0]))

static const char *ixc_explain(const struct ixc_errtext *t, size_t n, int err)
{
	/* -INT_MIN does not exist; no errno is anywhere near it. */
	if (err == INT_MIN)
		return "unknown error";
	if (err < 0)
		err = -err;
	if (err == 0)
		return "success";
	for (size_t i = 0; i < n; i++)
		if (t[i].err == err)
			return t[i].text;
	return strerror(err);
}

const char *ipuxcom_strerror(int err)
{
	return ixc_explain(ixc_dev_errors, IXC_NERR(ixc_dev_errors), err);
}

const char *ipuxcom_nl_strerror(int err)
{
	return ixc_explain(ixc_nl_errors, IXC_NERR(ixc_nl_errors), err);
}

const char *ipuxcom_image_strerror(int err)
{
	return ixc_explain(ixc_file_errors, IXC_NERR(ixc_file_errors), err);
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
