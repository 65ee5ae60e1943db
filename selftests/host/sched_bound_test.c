// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lower bound on a phase (ipuxcom_schedule_bound(), issue 25,
 * docs/exchange-verifier.md "A lower bound on the phase"):
 *  - exhaustive search on small sets: every schedule of a family the test
 *    enumerates (each transfer one send at every start event from its
 *    earliest to WINDOW later, 32- or 64-bit items, each receiver's mux
 *    open exactly while the items pass, its PIC at the first write, every
 *    row's br $m10 at the last write + 1 and one event earlier) runs in
 *    the verifier; none it accepts (no error, every delivery complete) is
 *    shorter than the bound, some are accepted, and on the single
 *    transfers the best one is exactly the bound (the bound is tight);
 *  - the scheduler's phase is never below the bound on the fixed suite's
 *    sets (bench/sched_suite.h), legacy and default;
 *  - nor with every multicast of a suite set sent twice, to alternate
 *    receivers (a schedule the scheduler's own pieces never give), run
 *    in the verifier;
 *  - each term where it binds: a route, a receiver taking several
 *    transfers, a sender sending several, 64-bit items;
 *  - the size rules of struct ipuxcom_schedule_bound and the rejections.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ipuxcom_xsim.h>

#include "../../bench/sched_suite.h"

#define WINDOW	8	/* start events tried per transfer after its earliest */
#define MAXX	3

/* The sets here are in physical ids (the simulator's programs are). */
static const struct ipuxcom_schedule_opts phys = {
	.size = sizeof(phys), .flags = IPUXCOM_SCHEDULE_PHYSICAL,
};

static uint32_t pat(uint32_t tile, uint32_t addr)
{
	return (tile + 1) * 0x9e3779b9u ^ addr;
}

static int32_t ttm(uint32_t s, uint32_t d)
{
	int t = 0;

	return ipuxcom_time_to_mux(NULL, s, d, &t, NULL) ? 0 : t;
}

static uint32_t row(uint32_t d)
{
	return d / IPUXCOM_PHYS_COLS;
}

struct prog {
	uint32_t w[16];
	uint32_t n;
	bool bad;
};

static void put(struct prog *p, int ret, uint32_t word)
{
	if (ret || p->n >= 16)
		p->bad = true;
	else
		p->w[p->n++] = word;
}

/* Words that take @ev >= 0 events. */
static void wait_ev(struct prog *p, int32_t ev)
{
	uint32_t w = 0;

	if (ev > 0) {
		int ret = ipuxcom_enc_delay((uint32_t)ev - 1, &w, NULL);

		put(p, ret, w);
	} else if (ev < 0) {
		p->bad = true;
	}
}

/* sync 3; send @items from @src at @sigma; br $m10 at @end. */
static void prog_send(struct prog *p, int32_t sigma, uint32_t items, uint32_t src,
		      uint32_t sctl, int32_t end)
{
	uint32_t w = 0;
	int ret;

	p->n = 0;
	p->bad = false;
	put(p, 0, IPUXCOM_WORD_SYNC_SUPERVISOR);
	wait_ev(p, sigma);
	ret = ipuxcom_enc_send(items - 1, src / 4, sctl, &w, NULL);
	put(p, ret, w);
	wait_ev(p, end - (sigma + (int32_t)items));
	put(p, 0, IPUXCOM_WORD_BR_M10);
}

/* sync 3; mux to @s at @a, off at @a + @items; PIC @dst at @pic; br $m10 at @end. */
static void prog_recv(struct prog *p, uint32_t s, int32_t a, uint32_t items, int32_t pic,
		      uint32_t dst, int32_t end)
{
	int32_t c = a + (int32_t)items;
	uint32_t w = 0;
	int ret;

	p->n = 0;
	p->bad = a < 0 || pic <= c || pic - c - 1 > 0x7f;
	put(p, 0, IPUXCOM_WORD_SYNC_SUPERVISOR);
	ret = ipuxcom_enc_delayxpic((uint32_t)a, 0, s, &w, NULL);
	put(p, ret, w);
	ret = ipuxcom_enc_delayxpic(items - 1, 0, IPUXCOM_MUX_DISABLE, &w, NULL);
	put(p, ret, w);
	ret = ipuxcom_enc_delaypic((uint32_t)(pic - c - 1), 0,
				   IPUXCOM_MCAST_FLAG | (dst - IPUXCOM_MCAST_DST_BASE) / 4, &w, NULL);
	put(p, ret, w);
	wait_ev(p, end - (pic + 1));
	put(p, 0, IPUXCOM_WORD_BR_M10);
}

struct search {
	const struct ipuxcom_schedule_xfer *x;
	size_t n;
	int32_t sigma[MAXX];
	bool wide[MAXX];
	struct ipuxcom_xsim *sim;
	uint32_t bound;
	uint32_t best;			/* shortest accepted phase */
	size_t tried, accepted, below;	/* below: accepted and shorter than the bound */
};

/* When @x's items from a send at 0 reach receiver @k's mux. */
static int32_t arrive(const struct ipuxcom_schedule_xfer *x, uint32_t k, bool wide)
{
	uint32_t d = x->receivers[k], e = d ^ 2;
	int32_t t = ttm(x->sender, d), t2;

	if (!wide || e == x->sender || e >= IPUXCOM_TILES)
		return t;
	t2 = ttm(x->sender, e);
	return t2 > t ? t2 : t;
}

/* Load the current choice with every br $m10 at @end and run it: accepted? */
static bool run_one(struct search *S, int32_t end, uint32_t *phase)
{
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	bool ok = true;

	ipuxcom_xsim_reset(S->sim, 0, NULL);
	for (size_t i = 0; ok && i < S->n; i++) {
		const struct ipuxcom_schedule_xfer *x = &S->x[i];
		uint32_t items = S->wide[i] ? x->count / 2 : x->count;
		unsigned int dir = IPUXCOM_DIR_BROADCAST;
		struct ipuxcom_xsim_xfer dc = {
			.size = sizeof(dc), .flags = IPUXCOM_PLAN_PHYSICAL, .sender = x->sender, .src_addr = x->src_addr, .count = x->count,
			.nrecv = x->nrecv, .receivers = x->receivers, .dst_addr = x->dst_addr,
		};
		struct prog p;

		if (x->nrecv == 1)
			ipuxcom_route_direction(NULL, x->sender, x->receivers[0], &dir, NULL);
		prog_send(&p, S->sigma[i], items, x->src_addr,
			  dir | (S->wide[i] ? IPUXCOM_SCTL_WIDE : 0), end);
		ok = !p.bad && ipuxcom_xsim_add_program(S->sim, &(struct ipuxcom_xsim_program){
			.tile = x->sender, .words = p.w, .nwords = p.n }, NULL) >= 0;
		for (uint32_t k = 0; ok && k < x->nrecv; k++) {
			uint32_t d = x->receivers[k];
			int32_t a = S->sigma[i] + arrive(x, k, S->wide[i]);

			prog_recv(&p, x->sender, a, items, a + 52 + 2 * (int32_t)row(d),
				  x->dst_addr[k], end);
			ok = !p.bad && ipuxcom_xsim_add_program(S->sim, &(struct ipuxcom_xsim_program){
				.tile = d, .words = p.w, .nwords = p.n }, NULL) >= 0;
		}
		ok = ok && !ipuxcom_xsim_declare(S->sim, &dc, NULL);
	}
	if (!ok)
		return false;	/* not expressible this way (a field, an event before 0) */
	S->tried++;
	if (ipuxcom_xsim_run(S->sim, &res, NULL) || res.errors || res.delivered != res.declared)
		return false;
	*phase = res.events;
	return true;
}

/* Every choice of start and width for transfers @i.. */
static void enumerate(struct search *S, size_t i)
{
	if (i == S->n) {
		int32_t lw = -1;

		for (size_t j = 0; j < S->n; j++) {
			const struct ipuxcom_schedule_xfer *x = &S->x[j];
			uint32_t items = S->wide[j] ? x->count / 2 : x->count;

			for (uint32_t k = 0; k < x->nrecv; k++) {
				int32_t w = S->sigma[j] + arrive(x, k, S->wide[j]) + (int32_t)items -
					    1 + 52 + 2 * (int32_t)row(x->receivers[k]);

				lw = w > lw ? w : lw;
			}
		}
		/* br at the last write + 1 (the verifier's minimum) and one earlier. */
		for (int32_t end = lw; end <= lw + 1; end++) {
			uint32_t phase = 0;

			if (!run_one(S, end, &phase))
				continue;
			S->accepted++;
			S->best = phase < S->best ? phase : S->best;
			S->below += phase < S->bound;
		}
		return;
	}
	{
		const struct ipuxcom_schedule_xfer *x = &S->x[i];
		/* 64-bit items whenever they fill the count: the verifier judges alignment. */
		bool can_wide = !(x->count & 1);

		for (int wide = 0; wide <= (int)can_wide; wide++) {
			int32_t lo = 0;

			/* From the earliest start at which every item arrives at event >= 0. */
			for (uint32_t k = 0; k < x->nrecv; k++)
				lo = -arrive(x, k, wide) > lo ? -arrive(x, k, wide) : lo;
			for (int32_t sg = lo; sg < lo + WINDOW; sg++) {
				S->sigma[i] = sg;
				S->wide[i] = wide;
				enumerate(S, i + 1);
			}
		}
	}
}

static uint32_t bound_of(const struct ipuxcom_schedule_xfer *x, size_t n,
			 struct ipuxcom_schedule_bound *b)
{
	struct ipuxcom_plan_error e;

	*b = (struct ipuxcom_schedule_bound)IPUXCOM_SCHEDULE_BOUND_INIT;
	if (ipuxcom_schedule_bound(&phys, x, n, b, &e))
		return 0;
	return b->events;
}

/* A receiver of @s that owns its pair for 64-bit items from @s, near @from. */
static uint32_t owner_near(uint32_t s, uint32_t from)
{
	for (uint32_t d = from; d < IPUXCOM_TILES; d++) {
		uint32_t e = d ^ 2;

		if (d == s || e == s || e >= IPUXCOM_TILES)
			continue;
		if (ttm(s, d) < ttm(s, e) || (ttm(s, d) == ttm(s, e) && d < e))
			return d;	/* d owns the pair (the verifier's rule) */
	}
	return from;
}

FIXTURE(small) {
	struct ipuxcom_xsim *sim;
};

FIXTURE_SETUP(small)
{
	ASSERT_EQ(0, ipuxcom_xsim_create(NULL, &self->sim, NULL));
	/* Sources hold a pattern on every tile the sets use. */
	for (uint32_t t = 0; t < 64; t++)
		ipuxcom_xsim_sram_fill(self->sim, t, 0x80000, pat(t, 0), 16, NULL);
}

FIXTURE_TEARDOWN(small)
{
	ipuxcom_xsim_free(self->sim);
}

static void search_set(struct __test_metadata *_metadata, struct ipuxcom_xsim *sim,
		       const char *name, const struct ipuxcom_schedule_xfer *x, size_t n,
		       bool tight)
{
	struct ipuxcom_schedule_bound b;
	struct search S = { .x = x, .n = n, .sim = sim, .best = UINT32_MAX };

	S.bound = bound_of(x, n, &b);
	ASSERT_NE(0u, S.bound);
	enumerate(&S, 0);
	TH_LOG("%s: bound %u (route %u receive %u send %u); %zu schedules run, %zu accepted, "
	       "shortest %u", name, S.bound, b.route, b.receive, b.send, S.tried, S.accepted,
	       S.best);
	ASSERT_GT(S.accepted, 0u);
	EXPECT_EQ(0u, S.below);
	EXPECT_GE(S.best, S.bound);
	if (tight)
		EXPECT_EQ(S.bound, S.best);
}

static const uint32_t src0 = 0x80000;

TEST_F(small, one_p2p_transfer_the_bound_is_tight)
{
	static const uint32_t cnt[] = { 1, 2, 3, 4 };

	for (size_t c = 0; c < sizeof(cnt) / sizeof(cnt[0]); c++) {
		uint32_t r[1] = { 5 }, dst[1] = { 0x50000 };
		struct ipuxcom_schedule_xfer x = { .sender = 0, .count = cnt[c], .nrecv = 1,
			.receivers = r, .src_addr = src0, .dst_addr = dst };
		char name[32];

		snprintf(name, sizeof(name), "0->5 x%u", cnt[c]);
		search_set(_metadata, self->sim, name, &x, 1, true);
	}
}

TEST_F(small, wide_route_the_bound_counts_items)
{
	uint32_t d = owner_near(0, 4), r[1] = { d }, dst[1] = { 0x50000 };
	struct ipuxcom_schedule_xfer x = { .sender = 0, .count = 4, .nrecv = 1, .receivers = r,
		.src_addr = src0, .dst_addr = dst };
	struct ipuxcom_schedule_bound b;
	uint32_t narrow;

	search_set(_metadata, self->sim, "wide 0->owner x4", &x, 1, true);
	/* An odd destination word: no aligned pair for the first word, one more item. */
	bound_of(&x, 1, &b);
	narrow = b.events;
	dst[0] = 0x50004;
	bound_of(&x, 1, &b);
	EXPECT_GE(b.events, narrow);
}

/*
 * 64-bit items only where source and destination agree modulo 8 (b): an
 * item's two words come from an 8-byte aligned source address and land
 * on an 8-byte aligned destination, each word where it is declared. A
 * source 4 bytes off with an aligned destination (an owner's): no item
 * can deliver, the 64-bit schedules are rejected (misaligned), and the
 * bound is the 32-bit route's, exactly; before the rule it was the
 * 64-bit route's, 2 events lower.
 */
TEST_F(small, wide_route_needs_source_and_destination_alike)
{
	uint32_t d = owner_near(0, 4), r[1] = { d }, dst[1] = { 0x50000 };
	struct ipuxcom_schedule_xfer x = { .sender = 0, .count = 4, .nrecv = 1, .receivers = r,
		.src_addr = src0 + 4, .dst_addr = dst };
	struct ipuxcom_schedule_bound b;
	uint32_t wide, off;

	search_set(_metadata, self->sim, "0->owner x4 from src 4 off", &x, 1, true);
	off = bound_of(&x, 1, &b);
	x.src_addr = src0;
	wide = bound_of(&x, 1, &b);
	EXPECT_EQ(wide + 2, off);
	/* Both 4 off: the first word alone, then an item: below the 32-bit route. */
	x.src_addr = src0 + 4;
	dst[0] = 0x50004;
	EXPECT_LT(bound_of(&x, 1, &b), off);
}

TEST_F(small, one_sender_two_transfers)
{
	uint32_t r0[1] = { 5 }, r1[1] = { 9 }, dst[1] = { 0x50000 };
	struct ipuxcom_schedule_xfer x[2] = {
		{ .sender = 0, .count = 3, .nrecv = 1, .receivers = r0, .src_addr = src0,
		  .dst_addr = dst },
		{ .sender = 0, .count = 3, .nrecv = 1, .receivers = r1, .src_addr = src0 + 12,
		  .dst_addr = dst },
	};

	search_set(_metadata, self->sim, "0->5, 0->9 x3", x, 2, false);
}

TEST_F(small, two_senders_one_receiver)
{
	uint32_t r[1] = { 5 }, d0[1] = { 0x50000 }, d1[1] = { 0x50010 };
	struct ipuxcom_schedule_xfer x[2] = {
		{ .sender = 0, .count = 3, .nrecv = 1, .receivers = r, .src_addr = src0,
		  .dst_addr = d0 },
		{ .sender = 8, .count = 3, .nrecv = 1, .receivers = r, .src_addr = src0,
		  .dst_addr = d1 },
	};

	search_set(_metadata, self->sim, "0->5, 8->5 x3", x, 2, false);
}

TEST_F(small, multicast_and_a_tile_that_receives_and_sends)
{
	uint32_t r0[2] = { 5, 9 }, r1[1] = { 13 }, dst[2] = { 0x50000, 0x50000 };
	struct ipuxcom_schedule_xfer x[2] = {
		{ .sender = 0, .count = 2, .nrecv = 2, .receivers = r0, .src_addr = src0,
		  .dst_addr = dst },
		{ .sender = 5, .count = 2, .nrecv = 1, .receivers = r1, .src_addr = src0,
		  .dst_addr = dst },
	};

	search_set(_metadata, self->sim, "0->{5,9} x2, 5->13 x2", x, 2, false);
}

TEST_F(small, three_transfers_through_one_tile)
{
	uint32_t r[1] = { 5 }, r2[1] = { 9 }, d0[1] = { 0x50000 }, d1[1] = { 0x50010 };
	struct ipuxcom_schedule_xfer x[3] = {
		{ .sender = 0, .count = 2, .nrecv = 1, .receivers = r, .src_addr = src0,
		  .dst_addr = d0 },
		{ .sender = 8, .count = 2, .nrecv = 1, .receivers = r, .src_addr = src0,
		  .dst_addr = d1 },
		{ .sender = 0, .count = 2, .nrecv = 1, .receivers = r2, .src_addr = src0 + 8,
		  .dst_addr = d0 },
	};

	search_set(_metadata, self->sim, "0->5, 8->5, 0->9 x2", x, 3, false);
}

/*
 * A multicast to a pair owner (3, for sender 0) and a tile that is not
 * (14): 64-bit items reach 3 only if 0 sends its 4 words twice (32-bit to
 * 14, 64-bit to 3), and 3 also receives from 8. The bound before the
 * mixed-width limit (docs "A lower bound on the phase", (e)) let 3 take
 * 2 items of the multicast for free: 57 events; 0's port makes it 58.
 */
TEST_F(small, multicast_to_an_owner_and_a_non_owner)
{
	uint32_t r0[2] = { 3, 14 }, r1[1] = { 3 }, d0[2] = { 0x50000, 0x50000 },
		 d1[1] = { 0x50100 };
	struct ipuxcom_schedule_xfer x[2] = {
		{ .sender = 0, .count = 4, .nrecv = 2, .receivers = r0, .src_addr = src0,
		  .dst_addr = d0 },
		{ .sender = 8, .count = 2, .nrecv = 1, .receivers = r1, .src_addr = src0,
		  .dst_addr = d1 },
	};
	struct ipuxcom_schedule_bound b;

	search_set(_metadata, self->sim, "0->{3,14} x4, 8->3 x2", x, 2, false);
	/* 3 owns its pair for 0, 14 does not; the receive term binds at 3. */
	EXPECT_EQ(3u, owner_near(0, 3));
	EXPECT_EQ(58u, bound_of(x, 2, &b));
	EXPECT_EQ(b.receive, b.events);
	EXPECT_EQ(3u, b.receive_tile);
}

/*
 * The pair term (f): 0 sends 4 words to the owner d of {d, d ^ 2} (64-bit
 * items possible) while 8 sends 4 to the partner d ^ 2. d's items and
 * any word the partner takes need distinct events (pair-conflict), so
 * the pair takes at least 4 capture events whatever the widths: the
 * bound is the pair's, above every single route and receiver. Also with
 * the partner's 4 words from 8 as 64-bit items where 8's timing lets the
 * partner own them.
 */
TEST_F(small, pair_partners_share_their_incoming_resources)
{
	uint32_t d = owner_near(0, 4), r0[1] = { d }, r1[1] = { d ^ 2 }, dst[1] = { 0x50000 };
	struct ipuxcom_schedule_xfer x[2] = {
		{ .sender = 0, .count = 4, .nrecv = 1, .receivers = r0, .src_addr = src0,
		  .dst_addr = dst },
		{ .sender = 8, .count = 4, .nrecv = 1, .receivers = r1, .src_addr = src0,
		  .dst_addr = dst },
	};
	struct ipuxcom_schedule_bound b;

	search_set(_metadata, self->sim, "0->owner, 8->partner x4", x, 2, true);
	bound_of(x, 2, &b);
	EXPECT_GT(b.receive, b.route);
	EXPECT_EQ(b.receive, b.events);
	EXPECT_TRUE(b.receive_tile == d || b.receive_tile == (d ^ 2));
}

/* Each term binds where the argument says it must. */
TEST(terms)
{
	uint32_t r[1] = { 5 }, dst[1] = { 0x50000 }, d1[1] = { 0x50100 };
	struct ipuxcom_schedule_xfer one = { .sender = 0, .count = 100, .nrecv = 1,
		.receivers = r, .src_addr = src0, .dst_addr = dst };
	struct ipuxcom_schedule_xfer two[2] = { one, one };
	struct ipuxcom_schedule_bound b;
	int32_t t = ttm(0, 5);
	uint32_t L = 52 + 2 * row(5);

	/* Route: max(0, T) + n - 1 + L, + 2 (the write before the br, the br's event). */
	ASSERT_EQ((uint32_t)((t > 0 ? t : 0) + 99 + (int32_t)L + 2), bound_of(&one, 1, &b));
	EXPECT_EQ(b.route, b.events);
	EXPECT_EQ(5u, b.route_tile);
	EXPECT_EQ(0u, b.route_xfer);
	/* Two transfers into one receiver: its mux takes 200 items. */
	two[1].sender = 8;
	two[1].dst_addr = d1;
	bound_of(two, 2, &b);
	EXPECT_EQ(b.receive, b.events);
	EXPECT_EQ(5u, b.receive_tile);
	/* 64-bit items allowed (0x50000, 0x50100 aligned): at least 2 x 50 items. */
	EXPECT_GE(b.events, b.route + 49);
	/* One sender, two receivers: its port sends 200 words. */
	two[1] = one;
	two[1].receivers = (const uint32_t[]){ 9 };
	two[1].src_addr = src0 + 400;
	bound_of(two, 2, &b);
	EXPECT_EQ(b.send, b.events);
	EXPECT_EQ(0u, b.send_tile);
	/* The same source words to both: one send may serve both, no send term beyond the route. */
	two[1].src_addr = src0;
	bound_of(two, 2, &b);
	EXPECT_LT(b.send, b.route + 50);
}

/* The scheduler never beats the bound on the fixed suite. */
TEST(suite_phases_are_not_below_the_bound)
{
	static char text[SUITE_TEXT_MAX];
	size_t below = 0, sets = 0;

	for (uint32_t i = 0; i < SUITE_NSETS; i++) {
		struct ipuxcom_schedule_list *l = NULL;
		struct ipuxcom_schedule_bound b = IPUXCOM_SCHEDULE_BOUND_INIT;
		struct ipuxcom_plan_error e;

		ASSERT_LE(0, suite_set(i, text, sizeof(text)));
		ASSERT_EQ(0, ipuxcom_schedule_list_parse(text, strlen(text), 0, &l, &e));
		ASSERT_EQ(0, ipuxcom_schedule_bound(&phys, l->xfers, l->n, &b, &e)) TH_LOG("%s", e.msg);
		ASSERT_GT(b.events, 0u);
		for (int legacy = 0; legacy < 2; legacy++) {
			struct ipuxcom_schedule_opts o = {
				.size = sizeof(o), .flags = IPUXCOM_SCHEDULE_PHYSICAL |
					(legacy ? IPUXCOM_SCHEDULE_LEGACY : 0) };
			struct ipuxcom_schedule *s = NULL;

			ASSERT_EQ(0, ipuxcom_schedule_build(&o, l->xfers, l->n, &s, &e));
			if (ipuxcom_schedule_events(s) < b.events) {
				TH_LOG("set %u: phase %u below the bound %u", i,
				       ipuxcom_schedule_events(s), b.events);
				below++;
			}
			ipuxcom_schedule_free(s);
		}
		sets++;
		ipuxcom_schedule_list_free(l);
	}
	EXPECT_EQ(0u, below);
	EXPECT_EQ((size_t)SUITE_NSETS, sets);
}

/*
 * Issue 34: schedules outside the scheduler's own space do not beat the
 * bound either. Every suite multicast is sent as two transfers of the
 * same source words, its receivers alternating between them (so the
 * sender sends its words twice, at times chosen for each half, which
 * no placement order of the scheduler's pieces does), the set built,
 * run in the simulator (no error, every delivery complete, its length
 * the schedule's) and held to the unsplit set's bound.
 */
TEST(split_multicast_schedules_are_not_below_the_bound)
{
	static char text[SUITE_TEXT_MAX];
	static struct ipuxcom_schedule_xfer u[2 * 64];
	static uint32_t rcv[2 * IPUXCOM_TILES], dst[2 * IPUXCOM_TILES];
	size_t below = 0, sets = 0, expected = 0;

	for (uint32_t i = 0; i < SUITE_NSETS; i++) {
		struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
		struct ipuxcom_schedule_list *l = NULL;
		struct ipuxcom_schedule *s = NULL;
		struct ipuxcom_plan_error e;
		struct ipuxcom_xsim *sim = NULL;
		struct ipuxcom_schedule_bound b;
		size_t m = 0, p = 0, nr = 0;
		bool mcast = false;
		uint32_t bound;

		ASSERT_LE(0, suite_set(i, text, sizeof(text)));
		ASSERT_EQ(0, ipuxcom_schedule_list_parse(text, strlen(text), 0, &l, &e));
		for (size_t k = 0; k < l->n; k++) {
			mcast |= l->xfers[k].nrecv > 1;
			nr += l->xfers[k].nrecv;
		}
		if (!mcast || l->n > 64 || nr > 2 * IPUXCOM_TILES) {
			ipuxcom_schedule_list_free(l);
			continue;
		}
		expected++;
		for (size_t k = 0; k < l->n; k++) {
			const struct ipuxcom_schedule_xfer *x = &l->xfers[k];
			uint32_t halves = x->nrecv > 1 ? 2 : 1;

			for (uint32_t h = 0; h < halves; h++) {
				u[m] = *x;
				u[m].nrecv = 0;
				u[m].receivers = &rcv[p];
				u[m].dst_addr = &dst[p];
				for (uint32_t j = h; j < x->nrecv; j += halves) {
					rcv[p] = x->receivers[j];
					dst[p++] = x->dst_addr[j];
					u[m].nrecv++;
				}
				m++;
			}
		}
		bound = bound_of(l->xfers, l->n, &b);
		ASSERT_GT(bound, 0u);
		ASSERT_EQ(0, ipuxcom_schedule_build(&phys, u, m, &s, &e)) TH_LOG("set %u: %s", i, e.msg);
		ASSERT_EQ(0, ipuxcom_xsim_create(NULL, &sim, &e));
		ASSERT_EQ(0, ipuxcom_schedule_load(s, sim, 0, &e)) TH_LOG("set %u: %s", i, e.msg);
		ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, &e));
		EXPECT_EQ(0u, res.errors) TH_LOG("set %u", i);
		EXPECT_EQ(res.declared, res.delivered) TH_LOG("set %u", i);
		EXPECT_EQ(ipuxcom_schedule_events(s), res.events) TH_LOG("set %u", i);
		if (res.events < bound) {
			TH_LOG("set %u: split phase %u below the bound %u", i, res.events, bound);
			below++;
		}
		sets++;
		ipuxcom_xsim_free(sim);
		ipuxcom_schedule_free(s);
		ipuxcom_schedule_list_free(l);
	}
	TH_LOG("%zu sets with multicasts, split and verified; %zu below the bound", sets, below);
	EXPECT_EQ(0u, below);
	EXPECT_EQ(expected, sets);
	/* The suite's multicast family (100 sets) is all multicasts. */
	EXPECT_LE(100u, sets);
}

TEST(size_rules_and_rejections)
{
	uint32_t r[1] = { 5 }, dst[1] = { 0x50000 };
	struct ipuxcom_schedule_xfer x = { .sender = 0, .count = 4, .nrecv = 1, .receivers = r,
		.src_addr = src0, .dst_addr = dst };
	struct ipuxcom_schedule_bound b = IPUXCOM_SCHEDULE_BOUND_INIT, full;
	struct ipuxcom_plan_error e;
	struct {
		struct ipuxcom_schedule_bound b;
		uint32_t extra;
	} big = { .b = { .size = sizeof(big) }, .extra = 0xdead };

	ASSERT_EQ(0, ipuxcom_schedule_bound(&phys, &x, 1, &b, &e));
	full = b;
	EXPECT_EQ(sizeof(b), b.size);
	/* Older caller: only @events. */
	b = (struct ipuxcom_schedule_bound){ .size = IPUXCOM_SCHEDULE_BOUND_SIZE_MIN,
					     .route = 77 };
	ASSERT_EQ(0, ipuxcom_schedule_bound(&phys, &x, 1, &b, &e));
	EXPECT_EQ(full.events, b.events);
	EXPECT_EQ(77u, b.route);
	/* Newer caller: the unknown tail is zeroed. */
	ASSERT_EQ(0, ipuxcom_schedule_bound(&phys, &x, 1, &big.b, &e));
	EXPECT_EQ(full.events, big.b.events);
	EXPECT_EQ(0u, big.extra);
	EXPECT_EQ((uint32_t)sizeof(big), big.b.size);
	/* Too small, NULL, flags, fields. */
	b.size = 2;
	EXPECT_NE(0, ipuxcom_schedule_bound(&phys, &x, 1, &b, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SIZE, e.code);
	EXPECT_STREQ("bound.size", e.field);
	b.size = sizeof(b);
	EXPECT_NE(0, ipuxcom_schedule_bound(&phys, &x, 1, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
	EXPECT_NE(0, ipuxcom_schedule_bound(&(struct ipuxcom_schedule_opts){ .size = sizeof(phys), .flags = 1u << 9 },
					    &x, 1, &b, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e.code);
	x.count = 0;
	EXPECT_NE(0, ipuxcom_schedule_bound(&phys, &x, 1, &b, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_COUNT, e.code);
	EXPECT_STREQ("xfers[0].count", e.field);
	x.count = 4;
	r[0] = 0;
	EXPECT_NE(0, ipuxcom_schedule_bound(&phys, &x, 1, &b, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SELF, e.code);
	EXPECT_STREQ("xfers[0].receivers[0]", e.field);
	r[0] = IPUXCOM_TILES;
	EXPECT_NE(0, ipuxcom_schedule_bound(&phys, &x, 1, &b, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_TILE, e.code);
	/* No transfer: 0. */
	ASSERT_EQ(0, ipuxcom_schedule_bound(&phys, NULL, 0, &b, &e));
	EXPECT_EQ(0u, b.events);
}

TEST_HARNESS_MAIN
