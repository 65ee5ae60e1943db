// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Caller-allocated structs that carry their size (the first member), so
 * that a struct can grow without breaking programs built against an older
 * or a newer header: the rules of the module's ioctl structs and of the
 * kernel's copy_struct_from_user(), applied between caller and library.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "plan_internal.h"

int ixc_struct_in(void *dst, size_t lib_size, const void *src, size_t caller_size,
		  size_t min_size)
{
	const unsigned char *tail = (const unsigned char *)src + lib_size;
	size_t i;

	if (!caller_size || caller_size < min_size)
		return -EINVAL;
	if (caller_size <= lib_size) {
		/* An older caller: what it cannot know about stays zero. */
		memcpy(dst, src, caller_size);
		memset((unsigned char *)dst + caller_size, 0, lib_size - caller_size);
		return 0;
	}
	/* A newer caller: fine as long as it uses nothing this library lacks. */
	for (i = 0; i < caller_size - lib_size; i++)
		if (tail[i])
			return -E2BIG;
	memcpy(dst, src, lib_size);
	return 0;
}

int ixc_struct_out_check(size_t caller_size, size_t min_size)
{
	return !caller_size || caller_size < min_size ? -EINVAL : 0;
}

void ixc_struct_out(void *dst, size_t caller_size, const void *src, size_t lib_size)
{
	size_t n = caller_size < lib_size ? caller_size : lib_size;

	/* The caller's size member stays what the caller set. */
	memcpy((unsigned char *)dst + sizeof(uint32_t), (const unsigned char *)src +
	       sizeof(uint32_t), n - sizeof(uint32_t));
	if (caller_size > lib_size)
		memset((unsigned char *)dst + lib_size, 0, caller_size - lib_size);
}

/* ------------------------------------------ the device and file functions' structs */

__attribute__((format(printf, 5, 6)))
static int ixc_size_fail(uint32_t domain, int err, char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ixc_err_vnote(domain, err, 0, fmt, ap);
	va_end(ap);
	if (msg && len)
		snprintf(msg, len, "%s", ixc_err_last_msg());
	return err;
}

int ixc_size_in(void *copy, size_t lib_size, const void *in, size_t min, uint32_t domain,
		const char *field, const char *init, char *msg, size_t len)
{
	uint32_t size = ixc_sized(in);
	int ret = ixc_struct_in(copy, lib_size, in, size, min);

	if (ret == -E2BIG)
		return ixc_size_fail(domain, ret, msg, len, "%s %u is bigger than this library's "
				     "%zu and sets members it does not know", field, size,
				     lib_size);
	if (ret)
		return ixc_size_fail(domain, ret, msg, len, "%s %u is below %zu (start the "
				     "struct from %s)", field, size, min, init);
	return 0;
}

int ixc_size_out_check(const void *out, size_t min, uint32_t domain, const char *field,
		       const char *init, char *msg, size_t len)
{
	uint32_t size = ixc_sized(out);

	if (ixc_struct_out_check(size, min))
		return ixc_size_fail(domain, -EINVAL, msg, len, "%s %u is below %zu (start the "
				     "struct from %s)", field, size, min, init);
	return 0;
}

/* ------------------------------------------------- the plan functions' structs */

int ixc_sized_in(void *copy, size_t lib_size, const void *in, size_t min, const char *field,
		 const char *init, struct ipuxcom_plan_error *err)
{
	uint32_t size = ixc_sized(in);
	int ret = ixc_struct_in(copy, lib_size, in, size, min);

	if (ret == -E2BIG)
		return ixc_plan_fail_ret(err, IPUXCOM_PLAN_E_SIZE, ret, field,
					 "%s %u is bigger than this library's %zu and sets "
					 "members it does not know", field, size, lib_size);
	if (ret)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SIZE, field,
				     "%s %u is below %zu (start the struct from %s)", field,
				     size, min, init);
	return 0;
}

int ixc_sized_out_check(const void *out, size_t min, const char *field, const char *init,
			struct ipuxcom_plan_error *err)
{
	uint32_t size = ixc_sized(out);

	if (ixc_struct_out_check(size, min))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SIZE, field,
				     "%s %u is below %zu (start the struct from %s)", field,
				     size, min, init);
	return 0;
}

int ixc_req_in(const struct ipuxcom_fanout_req *req, struct ipuxcom_fanout_req *copy,
	       struct ipuxcom_plan_error *err)
{
	int ret = ixc_sized_in(copy, sizeof(*copy), req, IPUXCOM_FANOUT_REQ_SIZE_MIN, "req.size",
			       "IPUXCOM_FANOUT_REQ_INIT", err);

	copy->size = sizeof(*copy);	/* the copy is this library's version */
	return ret;
}

int ixc_fanout_in(const struct ipuxcom_fanout_req *req, const void *rows,
		  struct ipuxcom_fanout_req *copy, const void *info, size_t info_min,
		  const char *info_init, struct ipuxcom_plan_error *err)
{
	int ret;

	if (!rows)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "rows", "rows is NULL");
	if (!req)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "req", "req is NULL");
	ret = ixc_req_in(req, copy, err);
	if (!ret && info)
		ret = ixc_sized_out_check(info, info_min, "info.size", info_init, err);
	return ret;
}
