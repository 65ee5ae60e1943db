// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fallback fan-outs and the dispatcher (libuser/src/plan_fanout.c):
 * serialized fan-out (nine-word sender row, 6 / 3 receiver limits, the
 * 12-bit receive cycle, east/west switching, one receiver == p2p, timing
 * through the event model), the relay tree (ceil(log2(N + 1)) rounds,
 * every receiver informed once by an informed tile), and dispatch by the
 * explicit cost model (multicast: one launch, 156 + count cycles [S]).
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <string.h>

#include <ipuxcom_plan.h>

#include "../../libuser/src/plan_internal.h"

static struct ipuxcom_fanout_req req_of(uint32_t s, uint32_t count, const uint32_t *r,
					uint32_t n)
{
	return (struct ipuxcom_fanout_req){ .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = s, .count = count, .nrecv = n,
					    .receivers = r };
}

/* ------------------------------------------------------------ serialized */

TEST(one_receiver_reproduces_the_p2p_plan)
{
	static const uint32_t counts[] = { 1, 3, 51, 52, 53, 64, 65, 1024, 4148 };
	static const uint32_t pairs[][2] = { { 0, 53 }, { 1440, 0 }, { 700, 1471 }, { 63, 1400 } };

	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		for (size_t k = 0; k < 4; k++) {
			struct ipuxcom_fanout_req req = req_of(pairs[k][0], counts[c], &pairs[k][1], 1);
			struct ipuxcom_plan_row rows[2];
			struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;

			ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &req, rows, 2, NULL, NULL));
			ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, pairs[k][0], pairs[k][1], counts[c],
						      IPUXCOM_PLAN_PHYSICAL, &p,
						      NULL));
			EXPECT_EQ(0, memcmp(&p.send, &rows[0], sizeof(rows[0])))
				TH_LOG("%u -> %u count %u", pairs[k][0], pairs[k][1], counts[c]);
			EXPECT_EQ(0, memcmp(&p.recv, &rows[1], sizeof(rows[1])))
				TH_LOG("%u -> %u count %u", pairs[k][0], pairs[k][1], counts[c]);
		}
	}
}

/*
 * The gap the sender leaves after receiver @i: 2 * row at counts >= 52 on
 * a physical row > 0, unless it is the last (the notes' receive window
 * stays open 2 * row events; found by the exchange verifier).
 */
static uint32_t gap_after(const struct ipuxcom_fanout_req *req, uint32_t i)
{
	uint32_t row = req->receivers[i] / 64;

	return req->count >= 52 && i + 1 < req->nrecv ? 2 * row : 0;
}

/*
 * Back-to-back sends in one row, but for the gaps; each receiver's mux
 * opens exactly when its transfer's first word arrives (event model,
 * modelled).
 */
static void check_serialized(struct __test_metadata *_metadata,
			     const struct ipuxcom_fanout_req *req,
			     const struct ipuxcom_plan_row *rows)
{
	uint32_t per = req->count > 64 ? 2 : 1, off = 0;
	struct ixc_walk sw;

	ixc_walk_row(rows[0].words, rows[0].nwords, false, &sw);
	ASSERT_TRUE(sw.ok);
	ASSERT_EQ(req->nrecv * per, sw.nsends);
	ASSERT_LE(rows[0].nwords, IPUXCOM_ROW_WORDS);
	for (uint32_t i = 0; i < req->nrecv; i++) {
		struct ixc_walk rw;
		unsigned int dir;
		int t;

		ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, req->sender, req->receivers[i], &t, NULL));
		ASSERT_EQ(0, ipuxcom_route_direction(NULL, req->sender, req->receivers[i], &dir,
						     NULL));
		EXPECT_EQ(sw.send_start[0] + (int32_t)off, sw.send_start[i * per]);
		off += req->count + gap_after(req, i);
		EXPECT_EQ(dir, sw.send_dir[i * per]) TH_LOG("receiver %u", i);
		ixc_walk_row(rows[1 + i].words, rows[1 + i].nwords, true, &rw);
		ASSERT_TRUE(rw.ok);
		EXPECT_EQ(sw.send_start[i * per] + t, rw.mux_open) TH_LOG("receiver %u", i);
		EXPECT_EQ(rw.mux_open, rows[1 + i].event);
		EXPECT_EQ(1u, rows[1 + i].words[0]);	/* patched like p2p */
		EXPECT_EQ(2, rows[1 + i].patch);
		EXPECT_EQ(0u, rows[1 + i].words[2] & 0x1fff);
	}
}

/* Count 51: no receive window is longer than its count, so no gap words. */
TEST(six_receivers_fill_the_nine_word_row)
{
	uint32_t r[6] = { 5, 100, 274, 736, 1000, 1471 };
	struct ipuxcom_fanout_req req = req_of(1286, 51, r, 6);
	struct ipuxcom_plan_row rows[7];
	struct ipuxcom_serialized_info info = IPUXCOM_SERIALIZED_INFO_INIT;
	struct ipuxcom_plan_error e;

	req.flags = IPUXCOM_PLAN_LOGICAL;
	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &req, rows, 7, &info, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(9, rows[0].nwords);	/* sync, delay, 6 sends, br */
	EXPECT_EQ(0x43a00000u, rows[0].words[8]);
	EXPECT_STREQ("reconstruction", info.timing_model);
	for (uint32_t i = 0; i < 6; i++) {
		uint32_t p;

		ipuxcom_tile_physical(r[i], &p);
		r[i] = p;
	}
	ipuxcom_tile_physical(1286, &req.sender);
	req.flags = 0;
	check_serialized(_metadata, &req, rows);
}

/*
 * At count >= 52 a receiver on physical row r > 0 keeps its mux open 2r
 * events past its words (the notes' rows); the sender waits 2r events
 * before the next send (one delay word), except after the last receiver.
 */
TEST(gap_after_a_receiver_above_row_0_at_count_52_and_more)
{
	uint32_t r[6] = { 10 * 64 + 5, 53, 22 * 64 + 7, 9, 32, 63 };
	struct ipuxcom_fanout_req req = req_of(1000, 100, r, 2);
	struct ipuxcom_plan_row rows[7];
	struct ipuxcom_plan_error e;
	struct ipuxcom_insn in;

	/* row 10 first: send, sendoff, delay(19), send, sendoff */
	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &req, rows, 3, NULL, &e)) TH_LOG("%s", e.msg);
	ipuxcom_decode(rows[0].words[4], &in);
	EXPECT_EQ(IPUXCOM_OP_DELAY, in.op);
	EXPECT_EQ(19u, in.a);
	EXPECT_EQ(8, rows[0].nwords);
	check_serialized(_metadata, &req, rows);
	/* row 10 last: no gap */
	r[0] = 53;
	r[1] = 10 * 64 + 5;
	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &req, rows, 3, NULL, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(7, rows[0].nwords);
	check_serialized(_metadata, &req, rows);
	/* count 51: never a gap */
	r[0] = 10 * 64 + 5;
	r[1] = 53;
	req.count = 51;
	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &req, rows, 3, NULL, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(5, rows[0].nwords);
	check_serialized(_metadata, &req, rows);
	/* count 52: 6 receivers, two gaps do not fit nine words */
	req.count = 52;
	req.nrecv = 6;
	EXPECT_EQ(-ERANGE, ipuxcom_plan_serialized(NULL, &req, rows, 7, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NRECV, e.code);
	EXPECT_EQ(0, strncmp(e.msg, "nrecv 6: receivers[0] (physical 645, row 10) at count 52 "
			     ">= 52 needs a 20-event gap", 82)) TH_LOG("%s", e.msg);
	/* the same six on physical row 0 but the last: fits */
	r[0] = 53;
	r[1] = 2;
	r[2] = 12;
	r[5] = 22 * 64 + 7;
	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &req, rows, 7, NULL, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(9, rows[0].nwords);
	check_serialized(_metadata, &req, rows);
}

TEST(seven_receivers_rejected)
{
	uint32_t r[7] = { 1, 2, 3, 4, 5, 6, 7 };
	struct ipuxcom_fanout_req req = req_of(100, 64, r, 7);
	struct ipuxcom_plan_row rows[8];
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-ERANGE, ipuxcom_plan_serialized(NULL, &req, rows, 8, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NRECV, e.code);
	EXPECT_STREQ("nrecv 7 out of range 1..6 (serialized fan-out, count <= 64)", e.msg);
}

TEST(three_receivers_with_sendoff_and_four_rejected)
{
	uint32_t r[4] = { 1, 2, 3, 4 };
	struct ipuxcom_fanout_req req = req_of(100, 65, r, 3);
	struct ipuxcom_plan_row rows[5];
	struct ipuxcom_plan_error e;

	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &req, rows, 5, NULL, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(9, rows[0].nwords);	/* sync, delay, 3 x (send, sendoff), br */
	check_serialized(_metadata, &req, rows);
	req.nrecv = 4;
	EXPECT_EQ(-ERANGE, ipuxcom_plan_serialized(NULL, &req, rows, 5, NULL, &e));
	EXPECT_STREQ("nrecv 4 out of range 1..3 (serialized fan-out with sendoff, count > 64)",
		     e.msg);
}

/* The notes' hardware cases [S "Serialized Fan-Out"]. */
TEST(notes_hardware_cases)
{
	static const struct { uint32_t s, count, r[2]; } cases[] = {
		{ 0, 3, { 274, 1286 } }, { 0, 65, { 274, 1286 } },
		{ 0, 1024, { 736, 1286 } }, { 1286, 1024, { 736, 1471 } },
		{ 0, 52, { 1, 1471 } }, { 0, 1024, { 1, 1471 } },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ipuxcom_fanout_req req = req_of(cases[i].s, cases[i].count, cases[i].r, 2);
		struct ipuxcom_plan_row rows[3];
		struct ipuxcom_plan_error e;
		uint32_t phys[2];

		req.flags = IPUXCOM_PLAN_LOGICAL;
		ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &req, rows, 3, NULL, &e))
			TH_LOG("case %zu: %s", i, e.msg);
		ipuxcom_tile_physical(cases[i].r[0], &phys[0]);
		ipuxcom_tile_physical(cases[i].r[1], &phys[1]);
		ipuxcom_tile_physical(cases[i].s, &req.sender);
		req.receivers = phys;
		req.flags = 0;
		check_serialized(_metadata, &req, rows);
	}
}

/* "sender 1286 to receivers 736 and 1471 with different directions" [S] */
TEST(switches_direction_between_sends)
{
	const uint32_t r[2] = { 736, 1471 };
	struct ipuxcom_fanout_req req = req_of(1286, 1024, r, 2);
	struct ipuxcom_plan_row rows[3];
	struct ipuxcom_insn a, b;

	req.flags = IPUXCOM_PLAN_LOGICAL;
	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &req, rows, 3, NULL, NULL));
	ipuxcom_decode(rows[0].words[2], &a);
	ipuxcom_decode(rows[0].words[4], &b);
	ASSERT_EQ(IPUXCOM_OP_SEND, a.op);
	ASSERT_EQ(IPUXCOM_OP_SEND, b.op);
	EXPECT_NE(a.c, b.c);
}

/*
 * The 12-bit receive cycle [S]: with two 2000-word transfers before it,
 * the third arrival fits when the slowest route goes first and overflows
 * when it goes last.
 */
TEST(receive_cycle_limit_depends_on_order)
{
	struct ipuxcom_plan_row rows[4];
	struct ipuxcom_plan_error e;
	uint32_t hi = 0, lo = 0, mid = 0, r[3];
	int thi = -1000, tlo = 1000, t;
	const uint32_t s = 700;
	struct ipuxcom_fanout_req req = req_of(s, 2000, r, 3);

	/*
	 * Physical row 0 only: with sendoff, three receivers leave no room for
	 * the gap a receiver above row 0 needs at count >= 52.
	 */
	for (uint32_t d = 0; d < IPUXCOM_PHYS_COLS; d++) {
		if (d == s)
			continue;
		ipuxcom_time_to_mux(NULL, s, d, &t, NULL);
		if (t > thi) {
			thi = t;
			hi = d;
		}
		if (t < tlo) {
			tlo = t;
			lo = d;
		}
	}
	mid = hi == 1 || lo == 1 ? 2 : 1;
	ASSERT_GE(thi - tlo, 17);
	/* high first: S = 112 - thi, third arrival 112 - thi + 4000 + tlo <= 4095 */
	r[0] = hi;
	r[1] = mid;
	r[2] = lo;
	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &req, rows, 4, NULL, &e)) TH_LOG("%s", e.msg);
	check_serialized(_metadata, &req, rows);
	/* low first: the third arrival 112 - tlo + 4000 + thi > 4095 */
	r[0] = lo;
	r[2] = hi;
	EXPECT_EQ(-ERANGE, ipuxcom_plan_serialized(NULL, &req, rows, 4, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SCHEDULE, e.code);
	EXPECT_EQ(0, strncmp(e.msg, "receivers[2] (physical", 22)) TH_LOG("%s", e.msg);
	EXPECT_NE(NULL, strstr(e.msg, "does not fit delayxpic's 12 bits (max 4095)"));
}

TEST(serialized_rejections)
{
	uint32_t r[3] = { 1, 2, 1 };
	struct ipuxcom_fanout_req req = req_of(100, 3, r, 3);
	struct ipuxcom_plan_row rows[4];
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-EINVAL, ipuxcom_plan_serialized(NULL, &req, rows, 4, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_DUP, e.code);
	EXPECT_STREQ("receivers[2] 1 duplicates receivers[0]", e.msg);
	r[2] = 100;
	EXPECT_EQ(-EINVAL, ipuxcom_plan_serialized(NULL, &req, rows, 4, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SELF, e.code);
	r[2] = 3;
	EXPECT_EQ(-ENOSPC, ipuxcom_plan_serialized(NULL, &req, rows, 3, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SPACE, e.code);
	req.count = 0;
	EXPECT_EQ(-ERANGE, ipuxcom_plan_serialized(NULL, &req, rows, 4, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_COUNT, e.code);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_serialized(NULL, NULL, rows, 4, NULL, &e));
	EXPECT_EQ(-EINVAL, ipuxcom_plan_serialized(NULL, &req, NULL, 4, NULL, &e));
}

/* ------------------------------------------------------------ relay tree */

static uint32_t ceil_log2_n1(uint32_t n)
{
	uint32_t r = 0;

	while ((1u << r) < n + 1)
		r++;
	return r;
}

TEST(relay_tree_rounds_and_informed_senders)
{
	static uint32_t r[IPUXCOM_TILES];
	static struct ipuxcom_relay_step steps[IPUXCOM_TILES];
	const uint32_t s = 700;
	uint32_t n = 0;

	/* (d * 389) % 1472 is a permutation; skip the sender wherever it lands */
	for (uint32_t d = 0; d < IPUXCOM_TILES; d++) {
		uint32_t p = (d * 389) % IPUXCOM_TILES;

		if (p != s)
			r[n++] = p;
	}
	ASSERT_EQ(1471, n);
	for (uint32_t len = 1; len <= n; len += (len < 70 ? 1 : 97)) {
		struct ipuxcom_fanout_req req = req_of(s, 16, r, len);
		uint32_t informed_round[IPUXCOM_TILES], rounds = 0, last = 0;
		unsigned char sent_in[IPUXCOM_TILES];

		memset(informed_round, 0xff, sizeof(informed_round));
		informed_round[s] = 0;
		ASSERT_EQ(0, ipuxcom_plan_relay(&req, steps, len, &rounds, NULL));
		EXPECT_EQ(ceil_log2_n1(len), rounds) TH_LOG("N = %u", len);
		memset(sent_in, 0, sizeof(sent_in));
		for (uint32_t k = 0; k < len; k++) {
			const struct ipuxcom_relay_step *st = &steps[k];

			ASSERT_GE(st->round, last);	/* ordered by round */
			if (st->round != last)
				memset(sent_in, 0, sizeof(sent_in));
			last = st->round;
			/* informed in an earlier round, sends once per round */
			ASSERT_LT(informed_round[st->sender], st->round);
			ASSERT_EQ(0, sent_in[st->sender]);
			sent_in[st->sender] = 1;
			/* each receiver informed exactly once, in request order */
			ASSERT_EQ(r[k], st->receiver);
			ASSERT_EQ(0xffffffffu, informed_round[st->receiver]);
			informed_round[st->receiver] = st->round;
		}
		ASSERT_EQ(rounds, last);
	}
}

TEST(relay_rejections)
{
	uint32_t r[2] = { 5, 5 };
	struct ipuxcom_fanout_req req = req_of(0, 3, r, 2);
	struct ipuxcom_relay_step steps[2];
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-EINVAL, ipuxcom_plan_relay(&req, steps, 2, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_DUP, e.code);
	r[1] = 6;
	EXPECT_EQ(-ENOSPC, ipuxcom_plan_relay(&req, steps, 1, NULL, &e));
	EXPECT_STREQ("nsteps 1 too small: need nrecv = 2", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_relay(&req, NULL, 2, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
	req.count = 5000;
	EXPECT_EQ(-ERANGE, ipuxcom_plan_relay(&req, steps, 2, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_COUNT, e.code);
}

/* -------------------------------------------------------------- dispatch */

struct dreq {
	uint32_t r[8], dst[8];
	struct ipuxcom_fanout_req req;
};

static void dreq_init(struct dreq *d, uint32_t count, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		d->r[i] = 100 + 37 * i;
		d->dst[i] = 0x50000;
	}
	d->req = (struct ipuxcom_fanout_req){ .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = 0, .count = count, .nrecv = n,
		.receivers = d->r, .src_addr = 0x50000, .dst_addr = d->dst };
}

TEST(dispatch_picks_multicast_at_156_plus_count)
{
	struct ipuxcom_dispatch out = IPUXCOM_DISPATCH_INIT;
	struct ipuxcom_plan_error e;
	struct dreq d;

	dreq_init(&d, 1024, 2);
	ASSERT_EQ(0, ipuxcom_plan_dispatch(NULL, &d.req, IPUXCOM_FANOUT_ALL, &out, &e))
		TH_LOG("%s", e.msg);
	EXPECT_EQ(IPUXCOM_FANOUT_MULTICAST, out.chosen);
	EXPECT_EQ(IPUXCOM_FANOUT_MULTICAST, out.cand[0].method);
	EXPECT_EQ(0, out.cand[0].reject);
	EXPECT_EQ(1, out.cand[0].launches);
	EXPECT_EQ(1, out.cand[0].copies);
	EXPECT_EQ(156u + 1024, out.cand[0].cycles);
	EXPECT_EQ(156u + 1024 + 600, out.cand[0].total);
	/* serialized: 1 launch, 2 copies, 156 + 2 x 1024 (modelled) */
	EXPECT_EQ(0, out.cand[1].reject);
	EXPECT_EQ(156u + 2048, out.cand[1].cycles);
	EXPECT_EQ(2, out.cand[1].copies);
	/* relay: ceil(log2(3)) = 2 launches of 156 + 1024 (modelled) */
	EXPECT_EQ(2, out.cand[2].launches);
	EXPECT_EQ(2u * (156 + 1024), out.cand[2].cycles);
	EXPECT_EQ(2u * (156 + 1024) + 1200, out.cand[2].total);
	EXPECT_STREQ("multicast: lowest estimated total 1780 cycles (1 launch, 1 copy, "
		     "156 + 1024 = 1180 cycles; total 1180 + 1 x 600 = 1780); serialized 2804; "
		     "relay 3560", out.reason);
}

TEST(dispatch_falls_back_when_multicast_is_not_allowed_or_infeasible)
{
	struct ipuxcom_dispatch out = IPUXCOM_DISPATCH_INIT;
	struct ipuxcom_plan_error e;
	struct dreq d;

	dreq_init(&d, 64, 2);
	ASSERT_EQ(0, ipuxcom_plan_dispatch(NULL, &d.req, IPUXCOM_FANOUT_SERIALIZED |
					   IPUXCOM_FANOUT_RELAY, &out, &e));
	EXPECT_EQ(IPUXCOM_FANOUT_SERIALIZED, out.chosen);
	EXPECT_EQ(IPUXCOM_PLAN_E_METHOD, out.cand[0].reject);
	/* an ambiguous destination makes multicast infeasible: serialized wins */
	d.dst[1] = 0x60000;
	ASSERT_EQ(0, ipuxcom_plan_dispatch(NULL, &d.req, IPUXCOM_FANOUT_ALL, &out, &e));
	EXPECT_EQ(IPUXCOM_FANOUT_SERIALIZED, out.chosen);
	EXPECT_EQ(IPUXCOM_PLAN_E_ADDR_FLAG, out.cand[0].reject);
	EXPECT_EQ(0, strncmp(out.cand[0].why, "rejected: dst_addr[1] 0x60000", 29));
	EXPECT_NE(NULL, strstr(out.reason, "multicast infeasible"));
	/* four receivers at 1024 words: neither multicast (above) nor serialized */
	dreq_init(&d, 1024, 4);
	d.dst[0] = 0x60000;
	ASSERT_EQ(0, ipuxcom_plan_dispatch(NULL, &d.req, IPUXCOM_FANOUT_ALL, &out, &e));
	EXPECT_EQ(IPUXCOM_FANOUT_RELAY, out.chosen);
	EXPECT_EQ(IPUXCOM_PLAN_E_NRECV, out.cand[1].reject);
	EXPECT_EQ(3, out.cand[2].launches);
}

TEST(dispatch_errors)
{
	struct ipuxcom_dispatch out = IPUXCOM_DISPATCH_INIT;
	struct ipuxcom_plan_error e;
	struct dreq d;

	dreq_init(&d, 1024, 4);
	EXPECT_EQ(-EOPNOTSUPP, ipuxcom_plan_dispatch(NULL, &d.req, IPUXCOM_FANOUT_SERIALIZED, &out,
						     &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_INFEASIBLE, e.code);
	/* methods by name, never as a bit set ("methods 0x2") */
	EXPECT_STREQ("none of the allowed methods (serialized) can carry 1024 words to 4 "
		     "receivers", e.msg);
	EXPECT_EQ(0u, out.chosen);
	EXPECT_STREQ("not among the allowed methods (serialized)", out.cand[0].why);
	EXPECT_STREQ("not among the allowed methods (serialized)", out.cand[2].why);
	EXPECT_EQ(0, strncmp(out.reason, "no allowed method fits; multicast not among the allowed "
			     "methods (serialized); serialized rejected: nrecv 4 out of range "
			     "1..3", 124)) TH_LOG("%s", out.reason);
	d.dst[0] = 0x60000;	/* an ambiguous destination: no multicast either */
	EXPECT_EQ(-EOPNOTSUPP, ipuxcom_plan_dispatch(NULL, &d.req, IPUXCOM_FANOUT_MULTICAST |
						     IPUXCOM_FANOUT_SERIALIZED, &out, &e));
	EXPECT_STREQ("none of the allowed methods (multicast|serialized) can carry 1024 words to 4 "
		     "receivers", e.msg);
	EXPECT_STREQ("not among the allowed methods (multicast|serialized)", out.cand[2].why);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_dispatch(NULL, &d.req, 0, &out, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_METHOD, e.code);
	EXPECT_STREQ("methods none: need one or more of multicast, serialized and relay, and "
		     "nothing else", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_dispatch(NULL, &d.req, 8 | IPUXCOM_FANOUT_RELAY, &out,
						 &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_METHOD, e.code);
	EXPECT_STREQ("methods relay|0x8: need one or more of multicast, serialized and relay, "
		     "and nothing else", e.msg);
	/* a request every method rejects is reported as itself */
	d.req.count = 0;
	EXPECT_EQ(-ERANGE, ipuxcom_plan_dispatch(NULL, &d.req, IPUXCOM_FANOUT_ALL, &out, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_COUNT, e.code);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_dispatch(NULL, &d.req, IPUXCOM_FANOUT_ALL, NULL, &e));
	EXPECT_STREQ("multicast", ipuxcom_fanout_method_name(IPUXCOM_FANOUT_MULTICAST));
	EXPECT_STREQ("relay", ipuxcom_fanout_method_name(IPUXCOM_FANOUT_RELAY));
	EXPECT_STREQ("?", ipuxcom_fanout_method_name(3));
}

TEST_HARNESS_MAIN
