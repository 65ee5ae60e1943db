// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
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
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ipuxcom.h"
#include "ipuxcom_plan.h"

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
 * One explainer for every error of every call (issue 23). The same errno
 * means different things by the kind of call that returned it (-ENOENT is
 * "module not loaded" from ipuxcom_open() and the netlink calls, "no such
 * file" from a file parser or a timing-table load), so every failure path
 * of the library records, in the calling thread, the domain of the call,
 * the value it returned and its message (ixc_err_note()). ipuxcom_strerror()
 * gives the domain's text when the value is the one the thread's last
 * failure returned, and otherwise a text that holds whatever call returned
 * the value: its own only for codes with one meaning in the whole library,
 * else strerror()'s. Plan error codes (enum ipuxcom_plan_errc) have their
 * own space above the errno range, IPUXCOM_ERRC(code), so that they cannot
 * be mistaken for an errno either.
 *
 * Every code the headers and libipuxcom(3) document for a domain has its
 * text in the domain's table; only undocumented ones fall back.
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

/*
 * Codes with one meaning across every call of the library: their text
 * holds without knowing the call. Every other code falls back to
 * strerror() when the thread's last failure is not the one asked about.
 */
static const struct ixc_errtext ixc_any_errors[] = {
	{ ENOTCONN, "not attached to a device" },
	{ EALREADY, "this file is already attached" },
	{ EBADFD, "the device's state does not allow this command (see its state)" },
	{ ENOEXEC, "the tile context cannot execute: inactive (nothing running) "
		   "or not quiescent" },
	{ EILSEQ, "the tile rejected the injected instruction or its address" },
	{ EMEDIUMTYPE, "host buffer memory is neither anonymous nor shmem (memfd, tmpfs): "
		       "a shared mapping of a regular file is not pinned" },
	{ EXDEV, "not this device's ipu_driver node (/dev/ipuN)" },
};

#define IXC_NERR(t) (sizeof(t) / sizeof((t)[0]))

/* The calling thread's last failure (ixc_err_note()). */
struct ixc_last_error {
	int err;		/* positive: the value returned, negated; 0: none */
	uint32_t domain;	/* enum ipuxcom_err_domain */
	int code;		/* IPUXCOM_ERR_PLAN: the enum ipuxcom_plan_errc */
	char msg[IXC_ERRMSG_BYTES];
};

static _Thread_local struct ixc_last_error ixc_last;

static int ixc_abs_err(int err)
{
	return err < 0 ? -err : err;
}

void ixc_err_vnote(uint32_t domain, int err, int code, const char *fmt, va_list ap)
{
	if (err == 0 || err == INT_MIN)
		return;
	ixc_last.err = ixc_abs_err(err);
	ixc_last.domain = domain;
	ixc_last.code = code;
	vsnprintf(ixc_last.msg, sizeof(ixc_last.msg), fmt, ap);
}

int ixc_err_note(uint32_t domain, int err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ixc_err_vnote(domain, err, code, fmt, ap);
	va_end(ap);
	return err;
}

void ixc_err_note_msg(uint32_t domain, int err, int code, const char *msg)
{
	if (err == 0 || err == INT_MIN)
		return;
	ixc_last.err = ixc_abs_err(err);
	ixc_last.domain = domain;
	ixc_last.code = code;
	/* @msg may be the record's own message (ixc_err_last_msg()). */
	if (msg != ixc_last.msg)
		snprintf(ixc_last.msg, sizeof(ixc_last.msg), "%s", msg ? msg : "");
}

const char *ixc_err_last_msg(void)
{
	return ixc_last.err ? ixc_last.msg : "";
}

int ipuxcom_last_error(uint32_t *domain)
{
	if (domain)
		*domain = ixc_last.err ? ixc_last.domain : IPUXCOM_ERR_NONE;
	return -ixc_last.err;
}

static const char *ixc_lookup(const struct ixc_errtext *t, size_t n, int err)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].err == err)
			return t[i].text;
	return NULL;
}

static const char *ixc_domain_text(uint32_t domain, int code, int err)
{
	const char *s = NULL;

	switch (domain) {
	case IPUXCOM_ERR_DEVICE:
		s = ixc_lookup(ixc_dev_errors, IXC_NERR(ixc_dev_errors), err);
		break;
	case IPUXCOM_ERR_NETLINK:
		s = ixc_lookup(ixc_nl_errors, IXC_NERR(ixc_nl_errors), err);
		break;
	case IPUXCOM_ERR_FILE:
		s = ixc_lookup(ixc_file_errors, IXC_NERR(ixc_file_errors), err);
		break;
	case IPUXCOM_ERR_PLAN:
		/* A file the plan call read or wrote: the system's words for it. */
		if (code == IPUXCOM_PLAN_E_IO)
			s = ixc_lookup(ixc_file_errors, IXC_NERR(ixc_file_errors), err);
		else if (code > IPUXCOM_PLAN_OK && code < IPUXCOM_PLAN_E_MAX)
			s = ixc_plan_code_text(code);
		break;
	}
	return s;
}

/*
 * The one explainer; @hint is the domain to assume when the thread's last
 * failure is not @err (the deprecated per-domain names pass theirs, so
 * that binaries built against them keep their answers).
 */
static const char *ixc_explain(int err, uint32_t hint)
{
	const char *s;

	/* -INT_MIN does not exist; no errno is anywhere near it. */
	if (err == INT_MIN)
		return "unknown error";
	err = ixc_abs_err(err);
	if (err == 0)
		return "success";
	if (err >= IPUXCOM_ERRC_BASE && err < IPUXCOM_ERRC_BASE + IPUXCOM_PLAN_E_MAX)
		return ixc_plan_code_text(err - IPUXCOM_ERRC_BASE);
	if (err >= IPUXCOM_ERRC_BASE)
		return "unknown error";
	if (ixc_last.err == err) {
		s = ixc_domain_text(ixc_last.domain, ixc_last.code, err);
		if (s)
			return s;
	} else if (hint != IPUXCOM_ERR_NONE) {
		s = ixc_domain_text(hint, IPUXCOM_PLAN_OK, err);
		if (s)
			return s;
	}
	s = ixc_lookup(ixc_any_errors, IXC_NERR(ixc_any_errors), err);
	return s ? s : strerror(err);
}

const char *ipuxcom_strerror(int err)
{
	return ixc_explain(err, IPUXCOM_ERR_NONE);
}

const char *ipuxcom_nl_strerror(int err)
{
	return ixc_explain(err, IPUXCOM_ERR_NETLINK);
}

const char *ipuxcom_image_strerror(int err)
{
	return ixc_explain(err, IPUXCOM_ERR_FILE);
}

const char *ipuxcom_err_domain_name(uint32_t domain)
{
	switch (domain) {
	case IPUXCOM_ERR_NONE:
		return "none";
	case IPUXCOM_ERR_DEVICE:
		return "device";
	case IPUXCOM_ERR_NETLINK:
		return "netlink";
	case IPUXCOM_ERR_FILE:
		return "file";
	case IPUXCOM_ERR_PLAN:
		return "plan";
	}
	return "unknown";
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
