// SPDX-License-Identifier: GPL-2.0-only
/*
 * The library's own ABI rules, on the build host without the module: the
 * run-time version calls, and the caller-allocated structs that carry
 * their size (struct ipuxcom_load_params in, struct ipuxcom_load_result
 * and struct ipuxcom_event out):
 * an older caller's smaller struct works and nothing past its size is
 * touched, a newer caller's bigger struct works when the members this
 * library does not know are zero, a non-zero unknown tail is -E2BIG,
 * size 0 is -EINVAL.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ipuxcom.h>
#include <ipuxcom_datapath.h>
#include <ipuxcom_events.h>

/* The size helpers themselves, reachable through the static archive. */
#include "../../libuser/src/internal.h"

/* Offset of the first byte of @buf from @from on that is not @v, or @len. */
static size_t first_not(const void *buf, size_t len, size_t from, unsigned char v)
{
	const unsigned char *p = buf;

	while (from < len && p[from] == v)
		from++;
	return from;
}

TEST(version_matches_header)
{
	unsigned int major, minor, patch;
	char tail;

	ASSERT_NE(NULL, ipuxcom_version());
	EXPECT_STREQ(IPUXCOM_LIB_VERSION, ipuxcom_version());
	ASSERT_EQ(3, sscanf(ipuxcom_version(), "%u.%u.%u%c", &major, &minor, &patch, &tail));
	EXPECT_EQ(IPUXCOM_LIB_VERSION_MAJOR, major);
	EXPECT_EQ(IPUXCOM_LIB_VERSION_MINOR, minor);
	EXPECT_EQ(IPUXCOM_LIB_VERSION_PATCH, patch);
	EXPECT_EQ(major << 16 | minor << 8 | patch, ipuxcom_version_number());
	EXPECT_EQ(IPUXCOM_LIB_VERSION_NUMBER, ipuxcom_version_number());
}

/* ------------------------------------------------- load parameters */

/*
 * A caller's parameter block of @size bytes (at most sizeof(buf)) holding
 * a valid-looking load, with @tail_byte in its last byte when it is
 * bigger than this library's struct. ipuxcom_load() with no device then
 * shows which check stopped it: the size rules come first.
 */
struct big_params {
	struct ipuxcom_load_params p;
	unsigned char more[32];
};

static int load_with_size(uint32_t size, unsigned char tail_byte,
			  struct ipuxcom_load_result *res)
{
	static const unsigned char boot[16];
	struct big_params b;

	memset(&b, 0, sizeof(b));
	b.p.size = size;
	b.p.image = (const struct ipuxcom_image *)&b;	/* never read: no device */
	b.p.bootloader = boot;
	b.p.bootloader_size = sizeof(boot);
	if (size > sizeof(b.p))
		((unsigned char *)&b)[size - 1] = tail_byte;
	return ipuxcom_load(NULL, &b.p, res);
}

TEST(load_params_size_rules)
{
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	const uint32_t full = sizeof(struct ipuxcom_load_params);

	/* size 0 (a caller that never set it) and below the minimum: refused */
	EXPECT_EQ(-EINVAL, load_with_size(0, 0, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_CHECK, res.step);
	EXPECT_NE(NULL, strstr(res.msg, "size 0"));
	EXPECT_EQ(-EINVAL, load_with_size(IPUXCOM_LOAD_PARAMS_SIZE_MIN - 1, 0, &res));
	EXPECT_NE(NULL, strstr(res.msg, "load parameters: size"));

	/* this library's size, an older smaller one, a newer zero-tailed one:
	 * accepted, so the next check (the device) is what stops the call */
	EXPECT_EQ(-EINVAL, load_with_size(full, 0, &res));
	EXPECT_EQ(0, strncmp(res.msg, "no device:", 10)) TH_LOG("%s", res.msg);
	EXPECT_EQ(-EINVAL, load_with_size(IPUXCOM_LOAD_PARAMS_SIZE_MIN, 0, &res));
	EXPECT_EQ(NULL, strstr(res.msg, "load parameters")) TH_LOG("%s", res.msg);
	EXPECT_EQ(-EINVAL, load_with_size(full + 32, 0, &res));
	EXPECT_EQ(NULL, strstr(res.msg, "load parameters")) TH_LOG("%s", res.msg);

	/* a newer caller using a member this library does not know */
	EXPECT_EQ(-E2BIG, load_with_size(full + 32, 1, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_CHECK, res.step);
	EXPECT_NE(NULL, strstr(res.msg, "load parameters: size")) TH_LOG("%s", res.msg);
	EXPECT_EQ(-E2BIG, load_with_size(full + 1, 0xff, &res));
}

TEST(load_params_init_macro)
{
	struct ipuxcom_load_params p = IPUXCOM_LOAD_PARAMS_INIT;

	EXPECT_EQ(sizeof(p), p.size);
	EXPECT_EQ(NULL, p.image);
}

/* A caller's result storage with guard bytes past the struct. */
struct result_buf {
	struct ipuxcom_load_result r;
	unsigned char guard[32];
};

TEST(load_result_size_rules)
{
	const uint32_t full = sizeof(struct ipuxcom_load_params);
	struct result_buf b;

	/* size 0 or too small: refused before anything, nothing written */
	memset(&b, 0xa5, sizeof(b));
	b.r.size = 0;
	EXPECT_EQ(-EINVAL, load_with_size(full, 0, &b.r));
	EXPECT_EQ(0xa5a5a5a5u, b.r.step);
	b.r.size = IPUXCOM_LOAD_RESULT_SIZE_MIN - 1;
	EXPECT_EQ(-EINVAL, load_with_size(full, 0, &b.r));
	EXPECT_EQ(0xa5a5a5a5u, b.r.step);

	/* an older caller's smaller result: its members filled, nothing past it */
	b.r.size = IPUXCOM_LOAD_RESULT_SIZE_MIN;
	EXPECT_EQ(-EINVAL, load_with_size(full, 0, &b.r));	/* no device */
	EXPECT_EQ(IPUXCOM_LOAD_RESULT_SIZE_MIN, b.r.size);
	EXPECT_EQ(IPUXCOM_LOAD_STEP_CHECK, b.r.step);
	EXPECT_EQ(sizeof(b), first_not(&b, sizeof(b), IPUXCOM_LOAD_RESULT_SIZE_MIN, 0xa5));

	/* a newer caller's bigger result: the message, and a zero tail */
	memset(&b, 0xa5, sizeof(b));
	b.r.size = sizeof(b);
	EXPECT_EQ(-E2BIG, load_with_size(full + 1, 1, &b.r));
	EXPECT_EQ(sizeof(b), b.r.size);
	EXPECT_EQ(IPUXCOM_LOAD_STEP_CHECK, b.r.step);
	EXPECT_NE(NULL, strstr(b.r.msg, "load parameters: size"));
	EXPECT_EQ(sizeof(b), first_not(&b, sizeof(b), sizeof(b.r), 0));

	/* no result at all is still allowed */
	EXPECT_EQ(-E2BIG, load_with_size(full + 1, 1, NULL));
}

/* The helper's zero-extension of an older caller's struct. */
TEST(struct_in_zero_extends)
{
	struct ipuxcom_load_params in, out;

	memset(&in, 0xa5, sizeof(in));
	in.size = IPUXCOM_LOAD_PARAMS_SIZE_MIN;
	memset(&out, 0x5a, sizeof(out));
	ASSERT_EQ(0, ixc_struct_in(&out, sizeof(out), &in, in.size, IPUXCOM_LOAD_PARAMS_SIZE_MIN));
	EXPECT_EQ(0, memcmp(&out, &in, IPUXCOM_LOAD_PARAMS_SIZE_MIN));
	EXPECT_EQ(NULL, out.cfg);
	EXPECT_EQ(0, out.timeout_ns);
	EXPECT_EQ(NULL, out.progress);
	EXPECT_EQ(NULL, out.ctx);
}

/* ------------------------------------------------------ events out */

/* A caller's event storage with guard bytes past the struct. */
struct event_buf {
	struct ipuxcom_event ev;
	unsigned char guard[32];
};

TEST(event_size_rules)
{
	struct event_buf b;

	/* size 0: refused, and nothing written */
	memset(&b, 0xa5, sizeof(b));
	b.ev.size = 0;
	EXPECT_EQ(-EINVAL, ipuxcom_monitor_next(NULL, &b.ev, 0));
	EXPECT_EQ(0xa5a5a5a5u, b.ev.type);
	b.ev.size = IPUXCOM_EVENT_SIZE_MIN - 1;
	EXPECT_EQ(-EINVAL, ipuxcom_monitor_next(NULL, &b.ev, 0));
	EXPECT_EQ(0xa5a5a5a5u, b.ev.type);

	/* an older caller's smaller struct: cleared up to its size, not past it */
	memset(&b, 0xa5, sizeof(b));
	b.ev.size = IPUXCOM_EVENT_SIZE_MIN;
	EXPECT_EQ(-EINVAL, ipuxcom_monitor_next(NULL, &b.ev, 0));	/* no monitor */
	EXPECT_EQ(IPUXCOM_EVENT_SIZE_MIN, b.ev.size);
	EXPECT_EQ(0, b.ev.type);
	EXPECT_EQ(0, b.ev.dev_id);
	/* nothing written past the caller's size */
	EXPECT_EQ(sizeof(b), first_not(&b, sizeof(b), IPUXCOM_EVENT_SIZE_MIN, 0xa5));

	/* a newer caller's bigger struct: its tail is cleared too */
	memset(&b, 0xa5, sizeof(b));
	b.ev.size = sizeof(b);
	EXPECT_EQ(-EINVAL, ipuxcom_monitor_next(NULL, &b.ev, 0));
	EXPECT_EQ(sizeof(b), b.ev.size);
	EXPECT_EQ(sizeof(b), first_not(&b, sizeof(b), sizeof(b.ev.size), 0));
}

/* How a decoded event reaches callers of each size. */
TEST(event_out_fills_callers_size)
{
	struct ipuxcom_event lib = { .size = 0, .type = 3, .dev_id = 7, .state = 2, .error = -5 };
	struct event_buf b;

	memset(&b, 0xa5, sizeof(b));
	b.ev.size = IPUXCOM_EVENT_SIZE_MIN;
	ixc_struct_out(&b.ev, b.ev.size, &lib, sizeof(lib));
	EXPECT_EQ(IPUXCOM_EVENT_SIZE_MIN, b.ev.size);	/* the caller's, kept */
	EXPECT_EQ(3, b.ev.type);
	EXPECT_EQ(7, b.ev.dev_id);
	/* nothing written past the caller's size */
	EXPECT_EQ(sizeof(b), first_not(&b, sizeof(b), IPUXCOM_EVENT_SIZE_MIN, 0xa5));

	memset(&b, 0xa5, sizeof(b));
	b.ev.size = sizeof(b);
	ixc_struct_out(&b.ev, b.ev.size, &lib, sizeof(lib));
	EXPECT_EQ(sizeof(b), b.ev.size);
	EXPECT_EQ(2, b.ev.state);
	EXPECT_EQ(-5, b.ev.error);
	EXPECT_EQ(sizeof(b), first_not(&b, sizeof(b), sizeof(b.ev), 0));
}

TEST(event_init_macro)
{
	struct ipuxcom_event ev = IPUXCOM_EVENT_INIT;

	EXPECT_EQ(sizeof(ev), ev.size);
	EXPECT_EQ(0, ev.type);
}

TEST_HARNESS_MAIN
