// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exchange simulator's action list (ipuxcom_xsim_nactions(),
 * ipuxcom_xsim_action(), ipuxcom_xsim_tile_end()): what a run of a p2p
 * plan did, action by action, as the command's --trace shows it; nothing
 * before a run or after a reset; argument errors. And the demos' watcher
 * (ipuxcom_demo_sum_watch(), ipuxcom_demo_matmul_watch()): called once per
 * phase with the running simulator. Both structs carry their size, as
 * struct ipuxcom_event and struct ipuxcom_load_params do (issue 15, 7).
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <stddef.h>

#include <ipuxcom_xsim.h>

#define SRC	0x60000u
#define DST	0x70000u

/* Physical sender and receiver on different rows, count 7. */
#define S	5u
#define R	200u
#define COUNT	7u

FIXTURE(act) {
	struct ipuxcom_xsim *sim;
	struct ipuxcom_xsim_result res;
};

FIXTURE_SETUP(act)
{
	struct ipuxcom_xsim_config cfg = { .size = sizeof(struct ipuxcom_xsim_config),
		.flags = IPUXCOM_XSIM_LOG_WRITES };
	struct ipuxcom_plan_error e;
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;

	self->res = (struct ipuxcom_xsim_result)IPUXCOM_XSIM_RESULT_INIT;
	ASSERT_EQ(0, ipuxcom_xsim_create(&cfg, &self->sim, &e)) TH_LOG("%s", e.msg);
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, S, R, COUNT, IPUXCOM_PLAN_PHYSICAL, &p,
				      &e)) TH_LOG("%s", e.msg);
	ASSERT_EQ(0, ipuxcom_xsim_add_p2p(self->sim, &p, SRC, DST, &e)) TH_LOG("%s", e.msg);
}

FIXTURE_TEARDOWN(act)
{
	ipuxcom_xsim_free(self->sim);
}

TEST_F(act, none_before_a_run)
{
	struct ipuxcom_xsim_action a = IPUXCOM_XSIM_ACTION_INIT;

	EXPECT_EQ(0, ipuxcom_xsim_nactions(self->sim));
	EXPECT_EQ(-ERANGE, ipuxcom_xsim_action(self->sim, 0, &a));
	EXPECT_EQ(-1, ipuxcom_xsim_tile_end(self->sim, S));
}

TEST_F(act, p2p_run_sends_selects_and_sets_pic)
{
	struct ipuxcom_xsim_action a = IPUXCOM_XSIM_ACTION_INIT;
	size_t n, sends = 0, mux = 0, pic = 0, nw;
	const struct ipuxcom_xsim_write *w;
	int32_t select = -1, off = -1, last_event = -1;
	uint32_t last_kind = 0;

	ASSERT_EQ(0, ipuxcom_xsim_run(self->sim, &self->res, NULL));
	ASSERT_EQ(0, self->res.errors);
	n = ipuxcom_xsim_nactions(self->sim);
	ASSERT_GE(n, 3);
	for (size_t i = 0; i < n; i++) {
		ASSERT_EQ(0, ipuxcom_xsim_action(self->sim, i, &a));
		/* sends, then mux, then PIC; in event order within a kind (one tile each) */
		ASSERT_GE(a.kind, last_kind);
		if (a.kind == last_kind)
			EXPECT_GE(a.event, last_event);
		last_kind = a.kind;
		last_event = a.event;
		EXPECT_GE(a.program, 0);
		EXPECT_GE(a.word, 0);
		switch (a.kind) {
		case IPUXCOM_XSIM_A_SEND:
			sends++;
			EXPECT_EQ(S, a.tile);
			EXPECT_EQ(COUNT, a.words);
			EXPECT_EQ(SRC, a.value);
			EXPECT_TRUE(a.dir == 1 || a.dir == 2);
			break;
		case IPUXCOM_XSIM_A_MUX:
			mux++;
			EXPECT_EQ(R, a.tile);
			EXPECT_EQ(0, a.words);
			if (a.value == S)
				select = a.event;
			else if (a.value == IPUXCOM_XSIM_MUX_OFF)
				off = a.event;
			else
				EXPECT_TRUE(false) TH_LOG("mux selects %u", a.value);
			break;
		case IPUXCOM_XSIM_A_PIC:
			pic++;
			EXPECT_EQ(R, a.tile);
			EXPECT_EQ(DST, a.value);
			break;
		default:
			EXPECT_TRUE(false) TH_LOG("action kind %u", a.kind);
		}
	}
	EXPECT_EQ(1, sends);
	EXPECT_EQ(2, mux);	/* select the sender, then back to 0x640 */
	EXPECT_EQ(1, pic);
	EXPECT_LE(0, select);
	EXPECT_LT(select, off);
	/* the mux window holds the words the receiver wrote */
	w = ipuxcom_xsim_writes(self->sim, &nw);
	ASSERT_EQ(COUNT, nw);
	EXPECT_EQ(select + (int32_t)IPUXCOM_XSIM_WRITE_LATENCY + 2 * (int32_t)(R / 64), w[0].event);
	/* each tile ends its row after its actions */
	EXPECT_GT(ipuxcom_xsim_tile_end(self->sim, R), off);
	EXPECT_GT(ipuxcom_xsim_tile_end(self->sim, S), 0);
	EXPECT_EQ(-1, ipuxcom_xsim_tile_end(self->sim, 0));
	EXPECT_EQ(-1, ipuxcom_xsim_tile_end(self->sim, IPUXCOM_TILES));
	EXPECT_EQ(-ERANGE, ipuxcom_xsim_action(self->sim, n, &a));
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_action(self->sim, 0, NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_action(NULL, 0, &a));
	EXPECT_EQ(0, ipuxcom_xsim_nactions(NULL));
	/* a reset forgets the run */
	ASSERT_EQ(0, ipuxcom_xsim_reset(self->sim, 0, NULL));
	EXPECT_EQ(0, ipuxcom_xsim_nactions(self->sim));
}

struct seen {
	unsigned int phases;
	size_t sends, writes;
	uint32_t errors;
	char names[512];
};

static void watch_phase(void *ctx, const struct ipuxcom_xsim *sim,
			const struct ipuxcom_xsim_result *res, const char *name)
{
	struct seen *s = ctx;
	struct ipuxcom_xsim_action a = IPUXCOM_XSIM_ACTION_INIT;
	size_t nw = 0;

	s->phases++;
	s->errors += res->errors;
	for (size_t i = 0; i < ipuxcom_xsim_nactions(sim); i++)
		if (!ipuxcom_xsim_action(sim, i, &a) && a.kind == IPUXCOM_XSIM_A_SEND)
			s->sends++;
	ipuxcom_xsim_writes(sim, &nw);
	s->writes += nw;
	snprintf(s->names + strlen(s->names), sizeof(s->names) - strlen(s->names), "%s;", name);
}

TEST(demo_watchers_see_every_phase)
{
	struct seen s = { 0 };
	struct ipuxcom_demo_watch w = { .size = sizeof(w), .phase = watch_phase, .ctx = &s,
					.sim_flags = IPUXCOM_XSIM_LOG_WRITES };
	struct ipuxcom_demo_sum sum = IPUXCOM_DEMO_SUM_INIT;
	struct ipuxcom_demo_matmul mm = IPUXCOM_DEMO_MATMUL_INIT;
	struct ipuxcom_plan_error e;

	ASSERT_EQ(0, ipuxcom_demo_sum_watch(NULL, &w, &sum, &e)) TH_LOG("%s", e.msg);
	EXPECT_TRUE(sum.pass);
	EXPECT_EQ(IPUXCOM_DEMO_SUM_ROUNDS, s.phases);
	EXPECT_EQ(IPUXCOM_TILES - 1, s.sends);	/* 736 + 368 + ... + 1 one-word transfers */
	EXPECT_EQ(IPUXCOM_TILES - 1, s.writes);
	EXPECT_EQ(0, strncmp(s.names, "round 1;round 2;", 16));
	EXPECT_NE(NULL, strstr(s.names, ";round 11;"));
	memset(&s, 0, sizeof(s));
	ASSERT_EQ(0, ipuxcom_demo_matmul_watch(NULL, IPUXCOM_DEMO_PACKED, &w, &mm, &e));
	EXPECT_TRUE(mm.pass);
	EXPECT_EQ(2, s.phases);
	EXPECT_STREQ("packed schedule;stagger (256 events per transfer);", s.names);
	EXPECT_EQ(2 * 8 * 4 * 4, s.writes);	/* 8 streams x 4 words x 4 receivers, twice */
	/* without LOG_WRITES the watcher sees no writes; other flags are refused */
	memset(&s, 0, sizeof(s));
	w.sim_flags = 0;
	ASSERT_EQ(0, ipuxcom_demo_matmul_watch(NULL, 0, &w, &mm, &e));
	EXPECT_EQ(2, s.phases);
	EXPECT_EQ(0, s.writes);
	w.sim_flags = IPUXCOM_XSIM_ALL_TILES;
	EXPECT_GT(0, ipuxcom_demo_sum_watch(NULL, &w, &sum, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e.code);
	EXPECT_NE(NULL, strstr(e.msg, "watch.sim_flags 0x2")) TH_LOG("%s", e.msg);
	/* NULL: the plain demo */
	ASSERT_EQ(0, ipuxcom_demo_sum_watch(NULL, NULL, &sum, &e));
	EXPECT_TRUE(sum.pass);
}

/* An action reaches callers of each size: never past their size, @size kept. */
TEST_F(act, action_fills_the_callers_size)
{
	struct {
		struct ipuxcom_xsim_action a;
		unsigned char tail[16];
	} b;
	struct ipuxcom_xsim_action full = IPUXCOM_XSIM_ACTION_INIT;
	const unsigned char *p = (const unsigned char *)&b;

	EXPECT_EQ(sizeof(full), full.size);
	ASSERT_EQ(0, ipuxcom_xsim_run(self->sim, &self->res, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_action(self->sim, 0, &full));
	EXPECT_EQ(sizeof(full), full.size);
	EXPECT_EQ(IPUXCOM_XSIM_A_SEND, full.kind);
	EXPECT_EQ(S, full.tile);
	EXPECT_EQ(COUNT, full.words);

	/* an older caller: the members it knows, nothing past them */
	memset(&b, 0xa5, sizeof(b));
	b.a.size = IPUXCOM_XSIM_ACTION_SIZE_MIN;
	ASSERT_EQ(0, ipuxcom_xsim_action(self->sim, 0, &b.a));
	EXPECT_EQ(IPUXCOM_XSIM_ACTION_SIZE_MIN, b.a.size);
	EXPECT_EQ(IPUXCOM_XSIM_A_SEND, b.a.kind);
	EXPECT_EQ(S, b.a.tile);
	EXPECT_EQ(full.event, b.a.event);
	for (size_t i = IPUXCOM_XSIM_ACTION_SIZE_MIN; i < sizeof(b); i++) {
		ASSERT_EQ(0xa5, p[i]) TH_LOG("byte %zu written", i);
	}

	/* a newer caller: what this library does not know is zeroed */
	memset(&b, 0xa5, sizeof(b));
	b.a.size = sizeof(b);
	ASSERT_EQ(0, ipuxcom_xsim_action(self->sim, 0, &b.a));
	EXPECT_EQ(sizeof(b), b.a.size);
	EXPECT_EQ(0, memcmp((const unsigned char *)&full + sizeof(uint32_t),
			    p + sizeof(uint32_t), sizeof(full) - sizeof(uint32_t)));
	for (size_t i = sizeof(full); i < sizeof(b); i++) {
		ASSERT_EQ(0, p[i]) TH_LOG("byte %zu not cleared", i);
	}

	/* size 0 or too small */
	b.a.size = 0;
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_action(self->sim, 0, &b.a));
	b.a.size = IPUXCOM_XSIM_ACTION_SIZE_MIN - 1;
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_action(self->sim, 0, &b.a));
}

/* The watcher's size: older, newer, refused, as ipuxcom_load_params's. */
TEST(demo_watch_carries_its_size)
{
	struct seen s = { 0 };
	struct {
		struct ipuxcom_demo_watch w;
		uint64_t tail;
	} b;
	struct ipuxcom_demo_watch init = IPUXCOM_DEMO_WATCH_INIT;
	struct ipuxcom_demo_matmul mm = IPUXCOM_DEMO_MATMUL_INIT;
	struct ipuxcom_demo_sum sum = IPUXCOM_DEMO_SUM_INIT;
	struct ipuxcom_plan_error e;

	EXPECT_EQ(sizeof(init), init.size);
	EXPECT_EQ(NULL, init.phase);
	/* an older caller without sim_flags: taken as 0 */
	memset(&b, 0xa5, sizeof(b));
	b.w.size = IPUXCOM_DEMO_WATCH_SIZE_MIN;
	b.w.phase = watch_phase;
	b.w.ctx = &s;
	ASSERT_EQ(0, ipuxcom_demo_sum_watch(NULL, &b.w, &sum, &e)) TH_LOG("%s", e.msg);
	EXPECT_TRUE(sum.pass);
	EXPECT_EQ(IPUXCOM_DEMO_SUM_ROUNDS, s.phases);
	EXPECT_EQ(0, s.writes);		/* no LOG_WRITES: the 0xa5 past its size unread */
	/* a newer caller: zero unknown members are fine, others -E2BIG */
	memset(&b, 0, sizeof(b));
	b.w = (struct ipuxcom_demo_watch){ .size = sizeof(b), .phase = watch_phase, .ctx = &s };
	ASSERT_EQ(0, ipuxcom_demo_sum_watch(NULL, &b.w, &sum, &e)) TH_LOG("%s", e.msg);
	b.tail = 1;
	EXPECT_EQ(-E2BIG, ipuxcom_demo_sum_watch(NULL, &b.w, &sum, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SIZE, e.code);
	EXPECT_STREQ("watch.size", e.field);
	/* size 0 or too small */
	b.w.size = 0;
	EXPECT_EQ(-EINVAL, ipuxcom_demo_matmul_watch(NULL, 0, &b.w, &mm, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SIZE, e.code);
	EXPECT_NE(NULL, strstr(e.msg, "watch.size 0 is below")) TH_LOG("%s", e.msg);
	b.w.size = IPUXCOM_DEMO_WATCH_SIZE_MIN - 1;
	EXPECT_EQ(-EINVAL, ipuxcom_demo_sum_watch(NULL, &b.w, &sum, &e));
}

TEST_HARNESS_MAIN
