// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 1.0 ABI of the plan and scheduler calls (issue 23):
 *  - tile ids given with flags are logical by default; IPUXCOM_PLAN_PHYSICAL
 *    takes physical ones; IPUXCOM_PLAN_LOGICAL says the default; both are
 *    E_FLAGS naming the field;
 *  - every caller-allocated struct that may grow carries its size (man
 *    libipuxcom(3) "Structs that grow"): an older caller's struct is
 *    filled up to its size and never past it, a newer one's unknown tail
 *    is zeroed (outputs) or must be zero (inputs, else -E2BIG), size 0 or
 *    below the _SIZE_MIN is -EINVAL, all as E_SIZE naming "<arg>.size".
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "ipuxcom_plan.h"
#include "ipuxcom_xsim.h"
#include "kselftest_harness.h"

#define BOTH	(IPUXCOM_PLAN_LOGICAL | IPUXCOM_PLAN_PHYSICAL)

static uint32_t phys(uint32_t logical)
{
	uint32_t p = UINT32_MAX;

	ipuxcom_tile_physical(logical, &p);
	return p;
}

/* ------------------------------------------------------ default numbering */

/* A p2p plan between logical ids is the plan between their physical ids. */
TEST(p2p_default_is_logical)
{
	static const uint32_t pairs[][2] = { { 0, 4 }, { 1, 1286 }, { 700, 3 }, { 1471, 0 } };

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		struct ipuxcom_p2p_plan dflt = IPUXCOM_P2P_PLAN_INIT, lg = IPUXCOM_P2P_PLAN_INIT;
		struct ipuxcom_p2p_plan ph = IPUXCOM_P2P_PLAN_INIT;
		uint32_t s = pairs[i][0], r = pairs[i][1];

		ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, s, r, 100, 0, &dflt, NULL));
		ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, s, r, 100, IPUXCOM_PLAN_LOGICAL, &lg, NULL));
		ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, phys(s), phys(r), 100, IPUXCOM_PLAN_PHYSICAL,
					      &ph, NULL));
		EXPECT_EQ(0, memcmp(&dflt, &ph, sizeof(ph))) TH_LOG("logical %u -> %u", s, r);
		EXPECT_EQ(0, memcmp(&dflt, &lg, sizeof(lg))) TH_LOG("logical %u -> %u", s, r);
		/* rows carry physical ids */
		EXPECT_EQ(phys(s), dflt.send.tile);
		EXPECT_EQ(phys(r), dflt.recv.tile);
	}
	/* ids that differ under the two numberings give different plans */
	{
		struct ipuxcom_p2p_plan a = IPUXCOM_P2P_PLAN_INIT, b = IPUXCOM_P2P_PLAN_INIT;

		ASSERT_NE(phys(2), 2u);
		ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 0, 2, 100, 0, &a, NULL));
		ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 0, 2, 100, IPUXCOM_PLAN_PHYSICAL, &b, NULL));
		EXPECT_NE(a.recv.tile, b.recv.tile);
	}
}

TEST(other_calls_default_to_logical)
{
	uint32_t r[3] = { 4, 9, 1000 }, pr[3], dst[3] = { 0x50000, 0x50400, 0x50800 };
	struct ipuxcom_fanout_req ql = IPUXCOM_FANOUT_REQ_INIT, qp;
	struct ipuxcom_plan_row rl[4], rp[4], idle;
	struct ipuxcom_relay_step sl[3], sp[3];
	struct ipuxcom_p2p_plan wl = IPUXCOM_P2P_PLAN_INIT, wp = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_tile t;

	for (int i = 0; i < 3; i++)
		pr[i] = phys(r[i]);
	ql.sender = 7;
	ql.count = 16;
	ql.nrecv = 3;
	ql.receivers = r;
	ql.src_addr = 0x80000;
	ql.dst_addr = dst;
	qp = ql;
	qp.sender = phys(7);
	qp.receivers = pr;
	qp.flags = IPUXCOM_PLAN_PHYSICAL;
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &ql, rl, 4, NULL, NULL));
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &qp, rp, 4, NULL, NULL));
	EXPECT_EQ(0, memcmp(rl, rp, sizeof(rl)));
	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &ql, rl, 4, NULL, NULL));
	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &qp, rp, 4, NULL, NULL));
	EXPECT_EQ(0, memcmp(rl, rp, sizeof(rl)));
	ASSERT_EQ(0, ipuxcom_plan_relay(&ql, sl, 3, NULL, NULL));
	ASSERT_EQ(0, ipuxcom_plan_relay(&qp, sp, 3, NULL, NULL));
	EXPECT_EQ(0, memcmp(sl, sp, sizeof(sl)));
	EXPECT_EQ(phys(7), sl[0].sender);

	ASSERT_EQ(0, ipuxcom_plan_p2p_wide(NULL, 0, 4, 64, 0x80000, 0x50000, IPUXCOM_PLAN_WIDE,
					   &wl, NULL, NULL));
	ASSERT_EQ(0, ipuxcom_plan_p2p_wide(NULL, phys(0), phys(4), 64, 0x80000, 0x50000,
					   IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL, &wp, NULL,
					   NULL));
	EXPECT_EQ(0, memcmp(&wl, &wp, sizeof(wp)));

	ASSERT_EQ(0, ipuxcom_tile_info(2, 0, &t, NULL));
	EXPECT_EQ(2, t.logical);
	EXPECT_EQ(phys(2), t.physical);
	ASSERT_EQ(0, ipuxcom_tile_info(2, IPUXCOM_PLAN_PHYSICAL, &t, NULL));
	EXPECT_EQ(2, t.physical);
	ASSERT_EQ(0, ipuxcom_plan_idle(2, 0, &idle, NULL));
	EXPECT_EQ(phys(2), idle.tile);
}

/* The scheduler: NULL options and options without a numbering flag are logical. */
TEST(schedule_default_is_logical)
{
	uint32_t rl = 4, rp = phys(4), dst = 0x50000;
	struct ipuxcom_schedule_xfer xl = { .sender = 0, .count = 100, .nrecv = 1,
					    .receivers = &rl, .src_addr = 0x80000,
					    .dst_addr = &dst };
	struct ipuxcom_schedule_xfer xp = xl;
	struct ipuxcom_schedule_opts po = { .size = sizeof(struct ipuxcom_schedule_opts),
		.flags = IPUXCOM_SCHEDULE_PHYSICAL };
	struct ipuxcom_schedule_slot a = IPUXCOM_SCHEDULE_SLOT_INIT, b = IPUXCOM_SCHEDULE_SLOT_INIT;
	struct ipuxcom_schedule *s, *p;
	struct ipuxcom_xsim_program pa, pb;

	xp.sender = phys(0);
	xp.receivers = &rp;
	ASSERT_EQ(0, ipuxcom_schedule_build(NULL, &xl, 1, &s, NULL));
	ASSERT_EQ(0, ipuxcom_schedule_build(&po, &xp, 1, &p, NULL));
	EXPECT_EQ(ipuxcom_schedule_events(s), ipuxcom_schedule_events(p));
	ASSERT_EQ(0, ipuxcom_schedule_slot(s, 0, &a));
	ASSERT_EQ(0, ipuxcom_schedule_slot(p, 0, &b));
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	ASSERT_EQ(ipuxcom_schedule_nprograms(s), ipuxcom_schedule_nprograms(p));
	for (size_t i = 0; i < ipuxcom_schedule_nprograms(s); i++) {
		ASSERT_EQ(0, ipuxcom_schedule_program(s, i, &pa));
		ASSERT_EQ(0, ipuxcom_schedule_program(p, i, &pb));
		EXPECT_EQ(pa.tile, pb.tile);
		ASSERT_EQ(pa.nwords, pb.nwords);
		EXPECT_EQ(0, memcmp(pa.words, pb.words, pa.nwords * sizeof(uint32_t)));
	}
	ipuxcom_schedule_free(s);
	ipuxcom_schedule_free(p);
}

static void both_refused(struct __test_metadata *_metadata, int ret,
			 const struct ipuxcom_plan_error *e, const char *field, const char *what)
{
	EXPECT_EQ(-EINVAL, ret) TH_LOG("%s", what);
	EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e->code) TH_LOG("%s", what);
	EXPECT_STREQ(field, e->field);
	EXPECT_NE(NULL, strstr(e->msg, "both IPUXCOM_PLAN_LOGICAL and IPUXCOM_PLAN_PHYSICAL"))
		TH_LOG("%s: %s", what, e->msg);
}

TEST(both_numbering_flags_refused)
{
	uint32_t r[2] = { 4, 9 }, dst[2] = { 0x50000, 0x50400 };
	struct ipuxcom_fanout_req q = { .size = sizeof(q), .sender = 7, .count = 16,
					.flags = BOTH, .nrecv = 2, .receivers = r,
					.src_addr = 0x80000, .dst_addr = dst };
	struct ipuxcom_xsim_xfer x = { .size = sizeof(struct ipuxcom_xsim_xfer), .sender = 7,
		.src_addr = 0x80000, .count = 16,
				       .flags = BOTH, .nrecv = 2, .receivers = r, .dst_addr = dst };
	struct ipuxcom_schedule_xfer sx = { .sender = 7, .count = 16, .nrecv = 2, .receivers = r,
					    .src_addr = 0x80000, .dst_addr = dst };
	struct ipuxcom_schedule_opts so = { .size = sizeof(struct ipuxcom_schedule_opts),
		.flags = BOTH };
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_dispatch d = IPUXCOM_DISPATCH_INIT;
	struct ipuxcom_plan_row rows[3];
	struct ipuxcom_relay_step steps[2];
	struct ipuxcom_schedule *s = NULL;
	struct ipuxcom_xsim *sim;
	struct ipuxcom_plan_error e;
	struct ipuxcom_tile t;

	both_refused(_metadata, ipuxcom_plan_p2p(NULL, 0, 4, 10, BOTH, &p, &e), &e, "flags",
		     "p2p");
	both_refused(_metadata, ipuxcom_plan_p2p_wide(NULL, 0, 4, 10, 0x80000, 0x50000,
						      BOTH | IPUXCOM_PLAN_WIDE, &p, NULL, &e),
		     &e, "flags", "p2p_wide");
	both_refused(_metadata, ipuxcom_plan_idle(0, BOTH, rows, &e), &e, "flags", "idle");
	both_refused(_metadata, ipuxcom_tile_info(0, BOTH, &t, &e), &e, "flags", "tile_info");
	both_refused(_metadata, ipuxcom_plan_multicast(NULL, &q, rows, 3, NULL, &e), &e, "flags",
		     "multicast");
	both_refused(_metadata, ipuxcom_plan_serialized(NULL, &q, rows, 3, NULL, &e), &e,
		     "flags", "serialized");
	both_refused(_metadata, ipuxcom_plan_relay(&q, steps, 2, NULL, &e), &e, "flags", "relay");
	both_refused(_metadata, ipuxcom_plan_dispatch(NULL, &q, IPUXCOM_FANOUT_ALL, &d, &e), &e,
		     "flags", "dispatch");
	ASSERT_EQ(0, ipuxcom_xsim_create(NULL, &sim, NULL));
	both_refused(_metadata, ipuxcom_xsim_declare(sim, &x, &e), &e, "flags", "declare");
	ipuxcom_xsim_free(sim);
	both_refused(_metadata, ipuxcom_schedule_build(&so, &sx, 1, &s, &e), &e, "flags",
		     "schedule");
	EXPECT_EQ(NULL, s);
}

/* ---------------------------------------------------------- sized outputs */

/* One call filling a sized output struct at @out. */
typedef int (*fill_fn)(void *out, struct ipuxcom_plan_error *e);

#define TAIL	24

/*
 * The rules for an output struct of this library's size @full, at least
 * @min: full, older (@min: nothing past it written), newer (@full + TAIL:
 * the tail zeroed), 0 and @min - 1 refused (E_SIZE naming @field, unless
 * @field is NULL: calls without an error struct).
 */
static void out_sizes(struct __test_metadata *_metadata, fill_fn f, size_t full, size_t min,
		      const char *field)
{
	static unsigned char ref[4096], b[4096];
	struct ipuxcom_plan_error e;
	uint32_t size;

	ASSERT_LT(full + TAIL, sizeof(b));
	ASSERT_LT(min, full + 1);
	memset(ref, 0, sizeof(ref));
	size = (uint32_t)full;
	memcpy(ref, &size, 4);
	ASSERT_EQ(0, f(ref, &e)) TH_LOG("%s", e.msg);
	memcpy(&size, ref, 4);
	EXPECT_EQ(full, size);

	/* an older caller: the members it knows, nothing past them */
	memset(b, 0xa5, sizeof(b));
	size = (uint32_t)min;
	memcpy(b, &size, 4);
	ASSERT_EQ(0, f(b, &e)) TH_LOG("%s", e.msg);
	memcpy(&size, b, 4);
	EXPECT_EQ(min, size);
	EXPECT_EQ(0, memcmp(ref + 4, b + 4, min - 4));
	for (size_t i = min; i < full + TAIL; i++) {
		ASSERT_EQ(0xa5, b[i]) TH_LOG("byte %zu written past size %zu", i, min);
	}

	/* a newer caller: what this library does not know is zeroed */
	memset(b, 0xa5, sizeof(b));
	size = (uint32_t)(full + TAIL);
	memcpy(b, &size, 4);
	ASSERT_EQ(0, f(b, &e)) TH_LOG("%s", e.msg);
	memcpy(&size, b, 4);
	EXPECT_EQ(full + TAIL, size);
	EXPECT_EQ(0, memcmp(ref + 4, b + 4, full - 4));
	for (size_t i = full; i < full + TAIL; i++) {
		ASSERT_EQ(0, b[i]) TH_LOG("byte %zu not cleared", i);
	}

	/* size 0, or below the minimum */
	for (int k = 0; k < 2; k++) {
		size = k ? (uint32_t)min - 1 : 0;
		memcpy(b, &size, 4);
		memset(&e, 0, sizeof(e));
		EXPECT_EQ(-EINVAL, f(b, &e)) TH_LOG("size %u", size);
		if (field) {
			EXPECT_EQ(IPUXCOM_PLAN_E_SIZE, e.code);
			EXPECT_STREQ(field, e.field);
			EXPECT_NE(NULL, strstr(e.msg, "is below")) TH_LOG("%s", e.msg);
		}
	}
}

static uint32_t g_r[3] = { 4, 9, 1000 }, g_dst[3] = { 0x50000, 0x50400, 0x50800 };

static struct ipuxcom_fanout_req req3(uint32_t flags)
{
	return (struct ipuxcom_fanout_req){ .size = sizeof(struct ipuxcom_fanout_req),
					    .sender = 7, .count = 16, .flags = flags, .nrecv = 3,
					    .receivers = g_r, .src_addr = 0x80000,
					    .dst_addr = g_dst };
}

static int fill_p2p(void *out, struct ipuxcom_plan_error *e)
{
	return ipuxcom_plan_p2p(NULL, 0, 4, 100, 0, out, e);
}

static int fill_p2p_table(void *out, struct ipuxcom_plan_error *e)
{
	static struct ipuxcom_timing *tm;
	static int16_t ttm[IPUXCOM_TILES * IPUXCOM_TILES];

	if (!tm && ipuxcom_timing_from_table(ttm, NULL, "zeros", &tm, e))
		return -1;
	return ipuxcom_plan_p2p(tm, 0, 4, 100, 0, out, e);
}

static int fill_wide_plan(void *out, struct ipuxcom_plan_error *e)
{
	return ipuxcom_plan_p2p_wide(NULL, 0, 4, 64, 0x80000, 0x50000, IPUXCOM_PLAN_WIDE, out,
				     NULL, e);
}

static int fill_wide_info(void *out, struct ipuxcom_plan_error *e)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;

	return ipuxcom_plan_p2p_wide(NULL, 0, 4, 64, 0x80000, 0x50000, IPUXCOM_PLAN_WIDE, &p, out,
				     e);
}

static int fill_mcast_info(void *out, struct ipuxcom_plan_error *e)
{
	struct ipuxcom_fanout_req q = req3(0);
	struct ipuxcom_plan_row rows[4];

	return ipuxcom_plan_multicast(NULL, &q, rows, 4, out, e);
}

static int fill_mcast_wide_info(void *out, struct ipuxcom_plan_error *e)
{
	struct ipuxcom_fanout_req q = req3(IPUXCOM_PLAN_WIDE);
	struct ipuxcom_plan_row rows[4];

	return ipuxcom_plan_multicast(NULL, &q, rows, 4, out, e);
}

static int fill_serial_info(void *out, struct ipuxcom_plan_error *e)
{
	struct ipuxcom_fanout_req q = req3(0);
	struct ipuxcom_plan_row rows[4];

	return ipuxcom_plan_serialized(NULL, &q, rows, 4, out, e);
}

static int fill_dispatch(void *out, struct ipuxcom_plan_error *e)
{
	struct ipuxcom_fanout_req q = req3(0);

	return ipuxcom_plan_dispatch(NULL, &q, IPUXCOM_FANOUT_ALL, out, e);
}

static struct ipuxcom_schedule *g_sched;

static int fill_slot(void *out, struct ipuxcom_plan_error *e)
{
	(void)e;
	return ipuxcom_schedule_slot(g_sched, 0, out);
}

TEST(sized_outputs)
{
	uint32_t r = 4, dst = 0x50000;
	struct ipuxcom_schedule_xfer x = { .sender = 0, .count = 100, .nrecv = 1, .receivers = &r,
					   .src_addr = 0x80000, .dst_addr = &dst };

	out_sizes(_metadata, fill_p2p, sizeof(struct ipuxcom_p2p_plan),
		  IPUXCOM_P2P_PLAN_SIZE_MIN, "out.size");
	out_sizes(_metadata, fill_p2p_table, sizeof(struct ipuxcom_p2p_plan),
		  IPUXCOM_P2P_PLAN_SIZE_MIN, "out.size");
	out_sizes(_metadata, fill_wide_plan, sizeof(struct ipuxcom_p2p_plan),
		  IPUXCOM_P2P_PLAN_SIZE_MIN, "out.size");
	out_sizes(_metadata, fill_wide_info, sizeof(struct ipuxcom_p2p_wide_info),
		  IPUXCOM_P2P_WIDE_INFO_SIZE_MIN, "info.size");
	out_sizes(_metadata, fill_mcast_info, sizeof(struct ipuxcom_multicast_info),
		  IPUXCOM_MULTICAST_INFO_SIZE_MIN, "info.size");
	out_sizes(_metadata, fill_mcast_wide_info, sizeof(struct ipuxcom_multicast_info),
		  IPUXCOM_MULTICAST_INFO_SIZE_MIN, "info.size");
	out_sizes(_metadata, fill_serial_info, sizeof(struct ipuxcom_serialized_info),
		  IPUXCOM_SERIALIZED_INFO_SIZE_MIN, "info.size");
	out_sizes(_metadata, fill_dispatch, sizeof(struct ipuxcom_dispatch),
		  IPUXCOM_DISPATCH_SIZE_MIN, "out.size");
	ASSERT_EQ(0, ipuxcom_schedule_build(NULL, &x, 1, &g_sched, NULL));
	out_sizes(_metadata, fill_slot, sizeof(struct ipuxcom_schedule_slot),
		  IPUXCOM_SCHEDULE_SLOT_SIZE_MIN, NULL);
	ipuxcom_schedule_free(g_sched);
}

static struct ipuxcom_xsim *g_sim;

static int fill_xsim_result(void *out, struct ipuxcom_plan_error *e)
{
	return ipuxcom_xsim_run(g_sim, out, e);
}

static int fill_demo_sum(void *out, struct ipuxcom_plan_error *e)
{
	return ipuxcom_demo_sum(NULL, out, e);
}

TEST(sized_simulator_outputs)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_demo_sum sum = IPUXCOM_DEMO_SUM_INIT;

	ASSERT_EQ(0, ipuxcom_xsim_create(NULL, &g_sim, NULL));
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 0, 4, 10, 0, &p, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_p2p(g_sim, &p, 0x80000, 0x50000, NULL));
	out_sizes(_metadata, fill_xsim_result, sizeof(struct ipuxcom_xsim_result),
		  IPUXCOM_XSIM_RESULT_SIZE_MIN, "res.size");
	ipuxcom_xsim_free(g_sim);
	out_sizes(_metadata, fill_demo_sum, sizeof(struct ipuxcom_demo_sum),
		  IPUXCOM_DEMO_SUM_SIZE_MIN, "out.size");
	ASSERT_EQ(0, ipuxcom_demo_sum(NULL, &sum, NULL));
	EXPECT_TRUE(sum.pass);
}

/* Sized inputs of the simulator and scheduler: zero tail taken, others refused. */
TEST(sized_simulator_inputs)
{
	uint32_t r = 4, dst = 0x50000;
	struct ipuxcom_schedule_xfer x = { .sender = 0, .count = 10, .nrecv = 1, .receivers = &r,
					   .src_addr = 0x80000, .dst_addr = &dst };
	struct {
		struct ipuxcom_xsim_config c;
		uint64_t tail;
	} cfg;
	struct {
		struct ipuxcom_schedule_opts o;
		uint64_t tail;
	} opts;
	struct {
		struct ipuxcom_xsim_xfer x;
		uint64_t tail;
	} xf;
	struct ipuxcom_schedule *s = NULL;
	struct ipuxcom_xsim *sim = NULL;
	struct ipuxcom_plan_error e;

	memset(&cfg, 0, sizeof(cfg));
	cfg.c.size = sizeof(cfg);
	ASSERT_EQ(0, ipuxcom_xsim_create(&cfg.c, &sim, &e)) TH_LOG("%s", e.msg);
	ipuxcom_xsim_free(sim);
	cfg.tail = 1;
	EXPECT_EQ(-E2BIG, ipuxcom_xsim_create(&cfg.c, &sim, &e));
	EXPECT_STREQ("cfg.size", e.field);
	cfg.c.size = 0;
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_create(&cfg.c, &sim, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SIZE, e.code);
	/* an older caller: max_events, max_hazards unread (0: the defaults) */
	memset(&cfg, 0xa5, sizeof(cfg));
	cfg.c.size = IPUXCOM_XSIM_CONFIG_SIZE_MIN;
	cfg.c.timing = NULL;
	cfg.c.flags = 0;
	ASSERT_EQ(0, ipuxcom_xsim_create(&cfg.c, &sim, &e)) TH_LOG("%s", e.msg);

	memset(&xf, 0, sizeof(xf));
	xf.x = (struct ipuxcom_xsim_xfer){ .size = sizeof(xf), .sender = 0, .src_addr = 0x80000,
					   .count = 10, .nrecv = 1, .receivers = &r,
					   .dst_addr = &dst };
	ASSERT_EQ(0, ipuxcom_xsim_declare(sim, &xf.x, &e)) TH_LOG("%s", e.msg);
	xf.tail = 1;
	EXPECT_EQ(-E2BIG, ipuxcom_xsim_declare(sim, &xf.x, &e));
	EXPECT_STREQ("xfer.size", e.field);
	xf.x.size = IPUXCOM_XSIM_XFER_SIZE_MIN - 1;
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_declare(sim, &xf.x, &e));
	EXPECT_STREQ("xfer.size", e.field);
	ipuxcom_xsim_free(sim);

	memset(&opts, 0, sizeof(opts));
	opts.o.size = sizeof(opts);
	ASSERT_EQ(0, ipuxcom_schedule_build(&opts.o, &x, 1, &s, &e)) TH_LOG("%s", e.msg);
	ipuxcom_schedule_free(s);
	opts.tail = 1;
	EXPECT_EQ(-E2BIG, ipuxcom_schedule_build(&opts.o, &x, 1, &s, &e));
	EXPECT_STREQ("opts.size", e.field);
	opts.o.size = 0;
	EXPECT_EQ(-EINVAL, ipuxcom_schedule_build(&opts.o, &x, 1, &s, &e));
	EXPECT_STREQ("opts.size", e.field);
	ASSERT_EQ(0, ipuxcom_xsim_create(NULL, &sim, NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_schedule_stagger(&opts.o, &x, 1, 256, sim, 0, &e));
	EXPECT_STREQ("opts.size", e.field);
	ipuxcom_xsim_free(sim);
}

/* The multicast info's width members, written whatever the flags. */
TEST(multicast_info_always_says_its_width)
{
	struct ipuxcom_multicast_info i = IPUXCOM_MULTICAST_INFO_INIT;

	memset((char *)&i + 4, 0xa5, sizeof(i) - 4);
	ASSERT_EQ(0, fill_mcast_info(&i, NULL));
	EXPECT_EQ(IPUXCOM_DIR_BROADCAST, i.sctl);
	EXPECT_EQ(16, i.items);
	EXPECT_EQ(IPUXCOM_WIDE_NOT_ASKED, i.wide);
	EXPECT_EQ(UINT32_MAX, i.wide_recv);
	EXPECT_STREQ("64-bit routes not asked for", ipuxcom_plan_wide_str(i.wide));
}

/* A schedule slot says which width each transfer got, and why not 64-bit. */
TEST(schedule_slot_gives_the_route_width)
{
	uint32_t r[3] = { 4, 1, 9 }, dst[3] = { 0x50000, 0x50400, 0x50800 };
	struct ipuxcom_schedule_xfer x[3] = {
		{ .sender = 0, .count = 100, .nrecv = 1, .receivers = &r[0], .src_addr = 0x80000,
		  .dst_addr = &dst[0] },
		/* logical 1 is physical 2: the sender's pair partner */
		{ .sender = 0, .count = 100, .nrecv = 1, .receivers = &r[1], .src_addr = 0x80400,
		  .dst_addr = &dst[1] },
		{ .sender = 2, .count = 3, .nrecv = 1, .receivers = &r[2], .src_addr = 0x80000,
		  .dst_addr = &dst[2] },
	};
	struct ipuxcom_schedule_opts legacy = { .size = sizeof(struct ipuxcom_schedule_opts),
		.flags = IPUXCOM_SCHEDULE_LEGACY };
	struct ipuxcom_schedule_slot sl = IPUXCOM_SCHEDULE_SLOT_INIT;
	struct ipuxcom_schedule *s;

	ASSERT_EQ(0, ipuxcom_schedule_build(NULL, x, 3, &s, NULL));
	ASSERT_EQ(0, ipuxcom_schedule_slot(s, 0, &sl));
	EXPECT_EQ(IPUXCOM_WIDE_USED, sl.wide);
	EXPECT_TRUE(sl.sctl & IPUXCOM_SCTL_WIDE);
	EXPECT_EQ(50, sl.items);
	ASSERT_EQ(0, ipuxcom_schedule_slot(s, 1, &sl));
	EXPECT_EQ(IPUXCOM_WIDE_PARTNER_SENDER, sl.wide);
	EXPECT_FALSE(sl.sctl & IPUXCOM_SCTL_WIDE);
	EXPECT_EQ(100, sl.items);
	ASSERT_EQ(0, ipuxcom_schedule_slot(s, 2, &sl));
	EXPECT_EQ(IPUXCOM_WIDE_ODD_COUNT, sl.wide);
	EXPECT_EQ(3, sl.items);
	ipuxcom_schedule_free(s);

	ASSERT_EQ(0, ipuxcom_schedule_build(&legacy, x, 3, &s, NULL));
	for (size_t i = 0; i < 3; i++) {
		ASSERT_EQ(0, ipuxcom_schedule_slot(s, i, &sl));
		EXPECT_EQ(IPUXCOM_WIDE_LEGACY, sl.wide);
		EXPECT_FALSE(sl.sctl & IPUXCOM_SCTL_WIDE);
		EXPECT_EQ(x[i].count, sl.items);
	}
	ipuxcom_schedule_free(s);
}

/* ----------------------------------------------------------- sized inputs */

TEST(fanout_req_sizes)
{
	struct {
		struct ipuxcom_fanout_req q;
		uint64_t tail;
	} b;
	struct ipuxcom_plan_row rows[4], ref[4];
	struct ipuxcom_relay_step steps[3];
	struct ipuxcom_dispatch d = IPUXCOM_DISPATCH_INIT;
	struct ipuxcom_plan_error e;

	b.q = req3(0);
	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &b.q, ref, 4, NULL, &e)) TH_LOG("%s", e.msg);

	/* an older caller: members past its size are not read (taken as zero) */
	memset(&b, 0xa5, sizeof(b));
	b.q = req3(0);
	memset((char *)&b.q + IPUXCOM_FANOUT_REQ_SIZE_MIN, 0xa5,
	       sizeof(b) - IPUXCOM_FANOUT_REQ_SIZE_MIN);
	b.q.size = IPUXCOM_FANOUT_REQ_SIZE_MIN;
	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &b.q, rows, 4, NULL, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(0, memcmp(ref, rows, sizeof(ref)));
	ASSERT_EQ(0, ipuxcom_plan_relay(&b.q, steps, 3, NULL, &e)) TH_LOG("%s", e.msg);
	/* multicast needs dst_addr, which this caller cannot give */
	EXPECT_EQ(-EINVAL, ipuxcom_plan_multicast(NULL, &b.q, rows, 4, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
	EXPECT_STREQ("dst_addr", e.field);

	/* a newer caller: zero unknown members are fine, others -E2BIG */
	memset(&b, 0, sizeof(b));
	b.q = req3(0);
	b.q.size = sizeof(b);
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &b.q, rows, 4, NULL, &e)) TH_LOG("%s", e.msg);
	b.tail = 1;
	EXPECT_EQ(-E2BIG, ipuxcom_plan_multicast(NULL, &b.q, rows, 4, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SIZE, e.code);
	EXPECT_STREQ("req.size", e.field);
	EXPECT_NE(NULL, strstr(e.msg, "sets members it does not know")) TH_LOG("%s", e.msg);
	EXPECT_EQ(-E2BIG, ipuxcom_plan_serialized(NULL, &b.q, rows, 4, NULL, &e));
	EXPECT_EQ(-E2BIG, ipuxcom_plan_relay(&b.q, steps, 3, NULL, &e));

	/* size 0 or too small */
	for (int k = 0; k < 2; k++) {
		b.q.size = k ? IPUXCOM_FANOUT_REQ_SIZE_MIN - 1 : 0;
		EXPECT_EQ(-EINVAL, ipuxcom_plan_multicast(NULL, &b.q, rows, 4, NULL, &e));
		EXPECT_EQ(IPUXCOM_PLAN_E_SIZE, e.code);
		EXPECT_STREQ("req.size", e.field);
		EXPECT_EQ(-EINVAL, ipuxcom_plan_serialized(NULL, &b.q, rows, 4, NULL, &e));
		EXPECT_EQ(IPUXCOM_PLAN_E_SIZE, e.code);
		EXPECT_EQ(-EINVAL, ipuxcom_plan_relay(&b.q, steps, 3, NULL, &e));
		EXPECT_EQ(IPUXCOM_PLAN_E_SIZE, e.code);
		EXPECT_EQ(-EINVAL, ipuxcom_plan_dispatch(NULL, &b.q, IPUXCOM_FANOUT_ALL, &d, &e));
		EXPECT_EQ(IPUXCOM_PLAN_E_SIZE, e.code);
	}
}

/* ipuxcom_xsim_add_p2p() reads a plan: its size, as an input's. */
TEST(p2p_plan_as_input)
{
	struct {
		struct ipuxcom_p2p_plan p;
		uint64_t tail;
	} b;
	struct ipuxcom_xsim *sim;
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_plan_error e;

	memset(&b, 0, sizeof(b));
	b.p.size = sizeof(b);
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 0, 4, 10, 0, &b.p, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(sizeof(b), b.p.size);
	EXPECT_EQ(0, b.tail);
	ASSERT_EQ(0, ipuxcom_xsim_create(NULL, &sim, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_p2p(sim, &b.p, 0x80000, 0x50000, &e)) TH_LOG("%s", e.msg);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
	EXPECT_EQ(1, res.declared);
	EXPECT_EQ(1, res.delivered);
	EXPECT_EQ(0, res.errors);
	ASSERT_EQ(0, ipuxcom_xsim_reset(sim, 0, NULL));
	b.tail = 1;
	EXPECT_EQ(-E2BIG, ipuxcom_xsim_add_p2p(sim, &b.p, 0x80000, 0x50000, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SIZE, e.code);
	EXPECT_STREQ("plan.size", e.field);
	b.p.size = 0;
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_add_p2p(sim, &b.p, 0x80000, 0x50000, &e));
	EXPECT_STREQ("plan.size", e.field);
	ipuxcom_xsim_free(sim);
}

TEST(init_macros_set_the_size)
{
	struct ipuxcom_fanout_req q = IPUXCOM_FANOUT_REQ_INIT;
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_p2p_wide_info w = IPUXCOM_P2P_WIDE_INFO_INIT;
	struct ipuxcom_multicast_info m = IPUXCOM_MULTICAST_INFO_INIT;
	struct ipuxcom_serialized_info s = IPUXCOM_SERIALIZED_INFO_INIT;
	struct ipuxcom_dispatch d = IPUXCOM_DISPATCH_INIT;
	struct ipuxcom_schedule_slot sl = IPUXCOM_SCHEDULE_SLOT_INIT;

	EXPECT_EQ(sizeof(q), q.size);
	EXPECT_EQ(0, q.flags);		/* logical ids */
	EXPECT_EQ(sizeof(p), p.size);
	EXPECT_EQ(sizeof(w), w.size);
	EXPECT_EQ(sizeof(m), m.size);
	EXPECT_EQ(sizeof(s), s.size);
	EXPECT_EQ(sizeof(d), d.size);
	EXPECT_EQ(sizeof(sl), sl.size);
	/* every _SIZE_MIN below the whole struct: there is an older size to test */
	EXPECT_LT(IPUXCOM_FANOUT_REQ_SIZE_MIN, sizeof(q));
	EXPECT_LT(IPUXCOM_P2P_PLAN_SIZE_MIN, sizeof(p));
	EXPECT_LT(IPUXCOM_P2P_WIDE_INFO_SIZE_MIN, sizeof(w));
	EXPECT_LT(IPUXCOM_MULTICAST_INFO_SIZE_MIN, sizeof(m));
	EXPECT_LT(IPUXCOM_SERIALIZED_INFO_SIZE_MIN, sizeof(s));
	EXPECT_LT(IPUXCOM_DISPATCH_SIZE_MIN, sizeof(d));
	EXPECT_LT(IPUXCOM_SCHEDULE_SLOT_SIZE_MIN, sizeof(sl));
}

TEST_HARNESS_MAIN
