// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Errors of the exchange-plan API: one code per rejection, each with its
 * errno and a description; messages name the offending field and value.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ipuxcom.h"
#include "internal.h"
#include "plan_internal.h"

struct ixc_errc {
	int err;		/* positive errno */
	const char *what;
};

static const struct ixc_errc ixc_errcs[IPUXCOM_PLAN_E_MAX] = {
	[IPUXCOM_PLAN_OK] = { 0, "success" },
	[IPUXCOM_PLAN_E_NULL] = { EINVAL, "a required pointer argument is NULL" },
	[IPUXCOM_PLAN_E_FLAGS] = { EINVAL, "unknown flag bits" },
	[IPUXCOM_PLAN_E_TILE] = { ERANGE, "tile id not in 0..1471" },
	[IPUXCOM_PLAN_E_COUNT] = { ERANGE, "word count not in 1..4148" },
	[IPUXCOM_PLAN_E_SELF] = { EINVAL, "a receiver is the sender" },
	[IPUXCOM_PLAN_E_DUP] = { EINVAL, "a receiver is listed twice" },
	[IPUXCOM_PLAN_E_NRECV] = { ERANGE, "number of receivers out of range for this plan" },
	[IPUXCOM_PLAN_E_FIELD] = { ERANGE, "an instruction field does not fit its width" },
	[IPUXCOM_PLAN_E_SCHEDULE] = { ERANGE,
		"a receive cycle does not fit delayxpic's 12-bit delay field" },
	[IPUXCOM_PLAN_E_ALIGN] = { EINVAL, "tile SRAM address not 4-byte aligned" },
	[IPUXCOM_PLAN_E_ADDR] = { ERANGE, "buffer not inside tile SRAM 0x4c000..0xe7fff" },
	[IPUXCOM_PLAN_E_ADDR_FLAG] = { ERANGE,
		"multicast destination whose word offset overlaps the 0x14000 flag (inferred)" },
	[IPUXCOM_PLAN_E_TIMING] = { ERANGE,
		"timing model value outside -78..112 or direction not 1 or 2" },
	[IPUXCOM_PLAN_E_FORMAT] = { EBADMSG, "malformed timing table file or transfer list" },
	[IPUXCOM_PLAN_E_IO] = { EIO, "a file (timing table) cannot be read or written" },
	[IPUXCOM_PLAN_E_NOMEM] = { ENOMEM, "out of memory" },
	[IPUXCOM_PLAN_E_SPACE] = { ENOSPC, "output array too small" },
	[IPUXCOM_PLAN_E_WORD] = { EINVAL, "a row word is not the instruction expected" },
	[IPUXCOM_PLAN_E_METHOD] = { EINVAL, "no or unknown fan-out method bits" },
	[IPUXCOM_PLAN_E_INFEASIBLE] = { EOPNOTSUPP, "no allowed fan-out method fits the request" },
	[IPUXCOM_PLAN_E_NAME] = { EINVAL, "invalid timing model name" },
	[IPUXCOM_PLAN_E_INTERNAL] = { EFAULT, "internal error: an emitted field overflowed" },
	[IPUXCOM_PLAN_E_SIZE] = { EINVAL, "a struct's size member is 0 or too small, or the "
		"struct is bigger with members unknown to this library set (E2BIG)" },
};

const char *ixc_plan_code_text(int code)
{
	if (code < 0 || code >= IPUXCOM_PLAN_E_MAX)
		return NULL;
	return ixc_errcs[code].what;
}

/* Deprecated names: thin wrappers of the one explainer, ipuxcom_strerror(). */
const char *ipuxcom_plan_errc_str(enum ipuxcom_plan_errc code)
{
	/* Compared as unsigned: an enum may be either, and a cast-in -5 is huge. */
	if ((unsigned int)code >= IPUXCOM_PLAN_E_MAX)
		return "unknown plan error code";
	return ipuxcom_strerror(IPUXCOM_ERRC(code));
}

const char *ipuxcom_plan_strerror(int code)
{
	if (code < 0)
		return "not a plan error code (a negative errno? see ipuxcom_strerror())";
	if (code >= IPUXCOM_PLAN_E_MAX)
		return "unknown plan error code";
	return ipuxcom_strerror(IPUXCOM_ERRC(code));
}

int ixc_plan_errno(int code)
{
	if (code <= 0 || code >= IPUXCOM_PLAN_E_MAX)
		return -EINVAL;
	return -ixc_errcs[code].err;
}

__attribute__((format(printf, 5, 0)))
static int ixc_vfail(struct ipuxcom_plan_error *err, int code, int ret, const char *field,
		     const char *fmt, va_list ap)
{
	va_list ap2;

	va_copy(ap2, ap);
	ixc_err_vnote(IPUXCOM_ERR_PLAN, ret, code, fmt, ap2);
	va_end(ap2);
	if (err) {
		err->code = code;
		err->err = ret;
		snprintf(err->field, sizeof(err->field), "%s", field ? field : "");
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	return ret;
}

int ixc_plan_fail(struct ipuxcom_plan_error *err, int code, const char *field,
		  const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = ixc_vfail(err, code, ixc_plan_errno(code), field, fmt, ap);
	va_end(ap);
	return ret;
}

int ixc_plan_fail_ret(struct ipuxcom_plan_error *err, int code, int ret, const char *field,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ret = ixc_vfail(err, code, ret, field, fmt, ap);
	va_end(ap);
	return ret;
}

int ixc_plan_fail_io(struct ipuxcom_plan_error *err, int io_errno, const char *field,
		     const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = ixc_vfail(err, IPUXCOM_PLAN_E_IO, io_errno > 0 ? -io_errno : -EIO, field, fmt, ap);
	va_end(ap);
	return ret;
}
