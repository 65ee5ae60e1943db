/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The size rules of the library's device and file structs that carry
 * their size (man libipuxcom(3) "Structs that grow"), for any call: the
 * plan calls' version with its error struct is plan_abi_test.c's
 * out_sizes(). These calls report through the thread's record, so a
 * refusal is checked in ipuxcom_errmsg(NULL), which must name the field.
 */
#ifndef IXT_SIZED_H
#define IXT_SIZED_H

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <ipuxcom.h>

#include "kselftest_harness.h"

/* Bytes past this library's struct that a "newer caller" has. */
#define IXT_SIZED_TAIL	24

/* One call filling a sized output at @out (ctx: the test's). */
typedef int (*ixt_fill_fn)(void *out, void *ctx);
/* After a successful fill: free what it allocated, clear what differs per call. */
typedef void (*ixt_settle_fn)(void *out);

/* ipuxcom_errmsg(NULL) names @field and says @what. */
#define IXT_EXPECT_SIZE_MSG(field, what)					\
	do {									\
		const char *_m = ipuxcom_errmsg(NULL);				\
		EXPECT_NE(NULL, strstr(_m, field)) TH_LOG("%s", _m);		\
		EXPECT_NE(NULL, strstr(_m, what)) TH_LOG("%s", _m);		\
	} while (0)

/*
 * The rules for an output struct of this library's size @full, at least
 * @min: full, older (@min: nothing past it written), newer (@full + tail:
 * the tail zeroed), 0 and @min - 1 refused with -EINVAL naming @field.
 */
static inline void ixt_out_sizes(struct __test_metadata *_metadata, ixt_fill_fn f, void *ctx,
				 ixt_settle_fn settle, size_t full, size_t min,
				 const char *field)
{
	static unsigned char ref[4096], b[4096];
	uint32_t size;

	ASSERT_LT(full + IXT_SIZED_TAIL, sizeof(b));
	ASSERT_LT(min, full + 1);
	ASSERT_LT(4, min);
	memset(ref, 0, sizeof(ref));
	size = (uint32_t)full;
	memcpy(ref, &size, 4);
	ASSERT_EQ(0, f(ref, ctx)) TH_LOG("%s", ipuxcom_errmsg(NULL));
	if (settle)
		settle(ref);
	memcpy(&size, ref, 4);
	EXPECT_EQ(full, size);

	/* an older caller: the members it knows, nothing past them */
	memset(b, 0xa5, sizeof(b));
	size = (uint32_t)min;
	memcpy(b, &size, 4);
	ASSERT_EQ(0, f(b, ctx)) TH_LOG("%s", ipuxcom_errmsg(NULL));
	if (settle)
		settle(b);
	memcpy(&size, b, 4);
	EXPECT_EQ(min, size);
	EXPECT_EQ(0, memcmp(ref + 4, b + 4, min - 4));
	for (size_t i = min; i < full + IXT_SIZED_TAIL; i++) {
		ASSERT_EQ(0xa5, b[i]) TH_LOG("byte %zu written past size %zu", i, min);
	}

	/* a newer caller: what this library does not know is zeroed */
	memset(b, 0xa5, sizeof(b));
	size = (uint32_t)(full + IXT_SIZED_TAIL);
	memcpy(b, &size, 4);
	ASSERT_EQ(0, f(b, ctx)) TH_LOG("%s", ipuxcom_errmsg(NULL));
	if (settle)
		settle(b);
	memcpy(&size, b, 4);
	EXPECT_EQ(full + IXT_SIZED_TAIL, size);
	EXPECT_EQ(0, memcmp(ref + 4, b + 4, full - 4));
	for (size_t i = full; i < full + IXT_SIZED_TAIL; i++) {
		ASSERT_EQ(0, b[i]) TH_LOG("byte %zu not cleared", i);
	}
	for (size_t i = full + IXT_SIZED_TAIL; i < full + 2 * IXT_SIZED_TAIL; i++) {
		ASSERT_EQ(0xa5, b[i]) TH_LOG("byte %zu written past size %zu", i,
					     full + IXT_SIZED_TAIL);
	}

	/* size 0, or below the minimum: refused, and nothing written */
	for (int k = 0; k < 2; k++) {
		memset(b, 0xa5, sizeof(b));
		size = k ? (uint32_t)min - 1 : 0;
		memcpy(b, &size, 4);
		EXPECT_EQ(-EINVAL, f(b, ctx)) TH_LOG("size %u", size);
		IXT_EXPECT_SIZE_MSG(field, "is below");
		for (size_t i = 4; i < full + IXT_SIZED_TAIL; i++) {
			ASSERT_EQ(0xa5, b[i]) TH_LOG("byte %zu written with size %u", i, size);
		}
	}
}

/* One call taking a sized input at @in. */
typedef int (*ixt_take_fn)(const void *in, void *ctx);

/*
 * The rules for an input struct of this library's size @full, at least
 * @min, given a valid @valid: bigger with a zero tail taken, with a
 * non-zero byte in it -E2BIG; @min taken without reading past it; 0 and
 * @min - 1 refused with -EINVAL; both refusals name @field.
 */
static inline void ixt_in_sizes(struct __test_metadata *_metadata, ixt_take_fn f, void *ctx,
				const void *valid, size_t full, size_t min, const char *field)
{
	static unsigned char b[4096];
	uint32_t size;

	ASSERT_LT(full + IXT_SIZED_TAIL, sizeof(b));
	ASSERT_LT(4, min);
	memset(b, 0, sizeof(b));
	memcpy(b, valid, full);
	size = (uint32_t)(full + IXT_SIZED_TAIL);
	memcpy(b, &size, 4);
	ASSERT_EQ(0, f(b, ctx)) TH_LOG("%s", ipuxcom_errmsg(NULL));
	b[full + IXT_SIZED_TAIL - 1] = 1;
	EXPECT_EQ(-E2BIG, f(b, ctx));
	IXT_EXPECT_SIZE_MSG(field, "sets members it does not know");

	/* an older caller: nothing past its size is read */
	memset(b, 0xa5, sizeof(b));
	memcpy(b, valid, min);
	size = (uint32_t)min;
	memcpy(b, &size, 4);
	ASSERT_EQ(0, f(b, ctx)) TH_LOG("%s", ipuxcom_errmsg(NULL));

	for (int k = 0; k < 2; k++) {
		size = k ? (uint32_t)min - 1 : 0;
		memcpy(b, &size, 4);
		EXPECT_EQ(-EINVAL, f(b, ctx)) TH_LOG("size %u", size);
		IXT_EXPECT_SIZE_MSG(field, "is below");
	}
}

#endif /* IXT_SIZED_H */
