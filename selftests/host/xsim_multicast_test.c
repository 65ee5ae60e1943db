// SPDX-License-Identifier: GPL-2.0-only
/*
 * Plan proofs for one source and many receivers in the exchange simulator:
 * proper multicast (ipuxcom_plan_multicast()) as in the notes' hardware
 * runs [S "Proper Multicast"] (64 receivers at 64 words, eight receivers
 * spread across the chip at 1024 words, the formerly incompatible logical
 * receivers 274 and 1286, the count boundaries 3, 52, 64/65, 512, 1024 and
 * 4148, three iterations with shifted source and destination offsets),
 * streams at different schedule offsets, serialized fan-out (the notes'
 * hardware cases, and the gap the verifier found necessary) and the relay
 * tree (one phase per round). Every delivery must equal the source, with
 * guards untouched and the source unchanged.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ipuxcom_xsim.h>

#define GUARD	8u
#define MAXC	IPUXCOM_PLAN_MAX_COUNT

struct bufs {
	uint32_t src[MAXC];
	uint32_t tmp[MAXC + 2 * GUARD];
};

static uint32_t pat(uint32_t iter, uint32_t k)
{
	uint32_t v = iter * 0x9e3779b9u ^ k * 0xc2b2ae35u;

	return v ^ (v >> 13);
}

static uint32_t guard(uint32_t tile, uint32_t k)
{
	return 0xbb67ae85u ^ tile << 8 ^ k;
}

/* Source pattern on @s; guards around, and poison in, every destination. */
static void setup(struct ipuxcom_xsim *sim, struct bufs *b, uint32_t iter, uint32_t s,
		  uint32_t src, uint32_t count, const uint32_t *r, const uint32_t *dst, uint32_t n)
{
	for (uint32_t k = 0; k < count; k++)
		b->src[k] = pat(iter, k);
	ipuxcom_xsim_sram_write(sim, s, src, b->src, count, NULL);
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t k = 0; k < count + 2 * GUARD; k++)
			b->tmp[k] = k < GUARD || k >= GUARD + count ? guard(r[i], k) : ~b->src[k - GUARD];
		ipuxcom_xsim_sram_write(sim, r[i], dst[i] - 4 * GUARD, b->tmp, count + 2 * GUARD, NULL);
	}
}

/* Every destination equals the source, guards untouched, source unchanged. */
static bool check(struct __test_metadata *_metadata, struct ipuxcom_xsim *sim, struct bufs *b,
		  uint32_t s, uint32_t src, uint32_t count, const uint32_t *r, const uint32_t *dst,
		  uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		ipuxcom_xsim_sram_read(sim, r[i], dst[i] - 4 * GUARD, b->tmp, count + 2 * GUARD, NULL);
		for (uint32_t k = 0; k < count + 2 * GUARD; k++) {
			bool g = k < GUARD || k >= GUARD + count;
			uint32_t want = g ? guard(r[i], k) : b->src[k - GUARD];

			if (b->tmp[k] != want) {
				TH_LOG("receiver %u (physical %u): %s word %d is 0x%08x, want 0x%08x", i,
				       r[i], g ? "guard" : "destination", (int)k - (int)GUARD,
				       b->tmp[k], want);
				return false;
			}
		}
	}
	ipuxcom_xsim_sram_read(sim, s, src, b->tmp, count, NULL);
	if (memcmp(b->tmp, b->src, count * 4)) {
		TH_LOG("the source changed");
		return false;
	}
	return true;
}

static bool clean(struct __test_metadata *_metadata, struct ipuxcom_xsim *sim,
		  const struct ipuxcom_xsim_result *res, uint32_t n)
{
	if (res->errors || res->delivered != n || res->declared != n) {
		const struct ipuxcom_xsim_hazard *h = ipuxcom_xsim_hazards(sim, NULL);
		char buf[400] = "";

		if (h)
			ipuxcom_xsim_hazard_format(h, buf, sizeof(buf));
		TH_LOG("%u errors, %u of %u delivered: %s", res->errors, res->delivered, n, buf);
		return false;
	}
	return true;
}

/*
 * Multicast @count words from @s (physical) to @r[0..n) at @dst, source at
 * @src; the notes per receiver on a physical row > 0 at count >= 52 are
 * counted too (the model's view of the open question).
 */
static bool prove_mcast(struct __test_metadata *_metadata, struct ipuxcom_xsim *sim,
			struct bufs *b, uint32_t iter, uint32_t s, uint32_t count,
			const uint32_t *r, const uint32_t *dst, uint32_t n, uint32_t src,
			uint32_t offset)
{
	struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = s, .count = count, .nrecv = n, .receivers = r,
					  .src_addr = src, .dst_addr = dst,
					  .schedule_offset = offset };
	struct ipuxcom_plan_row rows[IPUXCOM_TILES];
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_plan_error e;
	size_t idle = 0;

	ipuxcom_xsim_reset(sim, 0, NULL);
	setup(sim, b, iter, s, src, count, r, dst, n);
	if (ipuxcom_plan_multicast(NULL, &req, rows, n + 1, NULL, &e) ||
	    ipuxcom_xsim_add_multicast(sim, &req, rows, n + 1, &e) ||
	    ipuxcom_xsim_run(sim, &res, &e)) {
		TH_LOG("%s", e.msg);
		return false;
	}
	if (!clean(_metadata, sim, &res, n))
		return false;
	for (uint32_t i = 0; i < n; i++)
		idle += count >= 52 && r[i] >= IPUXCOM_PHYS_COLS;
	if (ipuxcom_xsim_count(sim, IPUXCOM_XSIM_N_IDLE_WINDOW) != idle) {
		TH_LOG("idle-window notes %zu, want %zu", ipuxcom_xsim_count(sim,
		       IPUXCOM_XSIM_N_IDLE_WINDOW), idle);
		return false;
	}
	if (res.words_sent != count || res.words_written != (uint64_t)count * n) {
		TH_LOG("sent %llu written %llu", (unsigned long long)res.words_sent,
		       (unsigned long long)res.words_written);
		return false;
	}
	return check(_metadata, sim, b, s, src, count, r, dst, n);
}

FIXTURE(mc)
{
	struct ipuxcom_xsim *sim;
	struct bufs *b;
};

FIXTURE_SETUP(mc)
{
	self->b = calloc(1, sizeof(*self->b));
	ASSERT_NE(NULL, self->b);
	ASSERT_EQ(0, ipuxcom_xsim_create(NULL, &self->sim, NULL));
}

FIXTURE_TEARDOWN(mc)
{
	ipuxcom_xsim_free(self->sim);
	free(self->b);
}

static void logical_to_physical(uint32_t *ids, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		ipuxcom_tile_physical(ids[i], &ids[i]);
}

/* "64 receivers in one stream at 64 words, three iterations" [S]. */
TEST_F(mc, sixty_four_receivers_at_64_words)
{
	uint32_t r[64], dst[64], s = 700;

	for (uint32_t i = 0; i < 64; i++) {
		r[i] = (i * 23 + 5) % IPUXCOM_TILES;	/* every physical row, all columns */
		if (r[i] == s)
			r[i] = 1471;
	}
	for (uint32_t it = 0; it < 3; it++) {
		for (uint32_t i = 0; i < 64; i++)
			dst[i] = 0x50040 + 0x400 * (i % 8) + 16 * it;
		ASSERT_TRUE(prove_mcast(_metadata, self->sim, self->b, it, s, 64, r, dst, 64,
					0x80000 + 16 * it, 0));
	}
}

/*
 * "eight receivers spread across the device at 1024 words, three
 * iterations" and the notes' command `proper_multicast 736 1024 0 2 100 274
 * 700 900 1000 1286` [S].
 */
TEST_F(mc, eight_spread_receivers_at_1024_words)
{
	uint32_t r[8] = { 0, 2, 100, 274, 700, 900, 1000, 1286 }, dst[8], s = 736;
	uint32_t rows = 0;

	logical_to_physical(r, 8);
	logical_to_physical(&s, 1);
	for (uint32_t i = 0; i < 8; i++)
		rows |= 1u << (r[i] / 64);
	EXPECT_GT(__builtin_popcount(rows), 3);	/* spread over several physical rows */
	for (uint32_t it = 0; it < 3; it++) {
		for (uint32_t i = 0; i < 8; i++)
			dst[i] = 0x50000 + 0x1000 * i + 4 * it;
		ASSERT_TRUE(prove_mcast(_metadata, self->sim, self->b, 10 + it, s, 1024, r, dst, 8,
					0x90000 - 8 * it, 0));
	}
}

/* "the formerly incompatible logical receivers 274 and 1286" [S], at several counts. */
TEST_F(mc, receivers_274_and_1286_together)
{
	static const uint32_t counts[] = { 1, 3, 51, 52, 53, 64, 65, 1024, 4148 };
	uint32_t r[2] = { 274, 1286 }, dst[2] = { 0x50000, 0x70000 }, senders[3] = { 0, 736, 1471 };

	logical_to_physical(r, 2);
	logical_to_physical(senders, 3);
	for (int k = 0; k < 3; k++) {
		for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
			ASSERT_TRUE(prove_mcast(_metadata, self->sim, self->b, 20 + (uint32_t)c,
						senders[k], counts[c], r, dst, 2, 0x90000, 0))
				TH_LOG("sender %u count %u", senders[k], counts[c]);
		}
	}
}

/* The notes' count boundaries 3, 52, 64/65, 512, 1024 and 4148 [S], rows 0..22. */
TEST_F(mc, count_boundaries_on_every_row)
{
	static const uint32_t counts[] = { 1, 3, 51, 52, 53, 64, 65, 512, 1024, 4148 };
	uint32_t r[23], dst[23];

	for (uint32_t i = 0; i < 23; i++) {
		r[i] = i * 64 + (i * 7) % 64;
		dst[i] = i & 1 ? 0xd0000 : 0x50000;
	}
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		ASSERT_TRUE(prove_mcast(_metadata, self->sim, self->b, 40 + (uint32_t)c, 1000,
					counts[c], r, dst, 23, 0x80000, 0))
			TH_LOG("count %u", counts[c]);
	}
}

/* The notes' matmul streams are 256 events apart [S]; so are these two. */
TEST_F(mc, streams_at_schedule_offsets_coexist)
{
	uint32_t r1[2] = { 10, 700 }, r2[2] = { 11, 701 }, dst[2] = { 0x50000, 0x50100 };
	struct ipuxcom_fanout_req q1 = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = 5, .count = 100, .nrecv = 2, .receivers = r1,
					 .src_addr = 0x80000, .dst_addr = dst };
	struct ipuxcom_fanout_req q2 = q1;
	struct ipuxcom_plan_row a[3], b[3];
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;

	q2.receivers = r2;
	q2.schedule_offset = 256;
	setup(self->sim, self->b, 60, 5, 0x80000, 100, r1, dst, 2);
	setup(self->sim, self->b, 60, 5, 0x80000, 100, r2, dst, 2);
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &q1, a, 3, NULL, NULL));
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &q2, b, 3, NULL, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_multicast(self->sim, &q1, a, 3, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_multicast(self->sim, &q2, b, 3, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(self->sim, &res, NULL));
	/* one sender, two rows overlaid: the streams 256 events apart do not clash */
	ASSERT_TRUE(clean(_metadata, self->sim, &res, 4));
	ASSERT_TRUE(check(_metadata, self->sim, self->b, 5, 0x80000, 100, r1, dst, 2));
	ASSERT_TRUE(check(_metadata, self->sim, self->b, 5, 0x80000, 100, r2, dst, 2));
	/* 50 events apart they do: the sender's two rows send in the same events */
	ipuxcom_xsim_reset(self->sim, 0, NULL);
	q2.schedule_offset = 50;
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &q2, b, 3, NULL, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_multicast(self->sim, &q1, a, 3, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_multicast(self->sim, &q2, b, 3, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(self->sim, &res, NULL));
	EXPECT_GT(ipuxcom_xsim_count(self->sim, IPUXCOM_XSIM_H_SEND_CONFLICT), 0u);
}

/* ------------------------------------------------------------ serialized */

static bool prove_serialized(struct __test_metadata *_metadata, struct ipuxcom_xsim *sim,
			     struct bufs *b, uint32_t iter, uint32_t s, uint32_t count,
			     const uint32_t *r, uint32_t n)
{
	struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = s, .count = count, .nrecv = n, .receivers = r };
	uint32_t dst[IPUXCOM_SERIAL_MAX_RECV];
	struct ipuxcom_plan_row rows[IPUXCOM_SERIAL_MAX_RECV + 1];
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_plan_error e;

	for (uint32_t i = 0; i < n; i++)
		dst[i] = 0x60000 + 0x40 * i;
	ipuxcom_xsim_reset(sim, 0, NULL);
	setup(sim, b, iter, s, 0x80000, count, r, dst, n);
	if (ipuxcom_plan_serialized(NULL, &req, rows, n + 1, NULL, &e) ||
	    ipuxcom_xsim_add_serialized(sim, &req, rows, n + 1, 0x80000, dst, &e) ||
	    ipuxcom_xsim_run(sim, &res, &e)) {
		TH_LOG("%s", e.msg);
		return false;
	}
	return clean(_metadata, sim, &res, n) &&
	       check(_metadata, sim, b, s, 0x80000, count, r, dst, n);
}

/* The notes' serialized hardware cases [S "Serialized Fan-Out"] (all on physical row 0). */
TEST_F(mc, serialized_notes_cases)
{
	static const struct { uint32_t s, count, r[2]; } cases[] = {
		{ 0, 3, { 274, 1286 } }, { 0, 65, { 274, 1286 } },
		{ 0, 1024, { 736, 1286 } }, { 1286, 1024, { 736, 1471 } },
		{ 0, 52, { 1, 1471 } }, { 0, 1024, { 1, 1471 } },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t r[2] = { cases[i].r[0], cases[i].r[1] }, s = cases[i].s;

		logical_to_physical(r, 2);
		logical_to_physical(&s, 1);
		EXPECT_EQ(0u, r[0] / 64);
		EXPECT_EQ(0u, r[1] / 64);
		ASSERT_TRUE(prove_serialized(_metadata, self->sim, self->b, 70 + (uint32_t)i, s,
					     cases[i].count, r, 2)) TH_LOG("case %zu", i);
	}
}

/*
 * Rows above 0 at counts >= 52: with the gap (the fix) every receiver gets
 * exactly its words; six receivers on any row at count 51; three with
 * sendoff, the row-22 one last.
 */
TEST_F(mc, serialized_with_receivers_above_row_0)
{
	uint32_t r2[2] = { 10 * 64 + 5, 53 }, r6[6] = { 100, 300, 645, 900, 1200, 1413 };
	uint32_t r3[3] = { 5, 60, 22 * 64 + 7 };

	ASSERT_TRUE(prove_serialized(_metadata, self->sim, self->b, 80, 1000, 100, r2, 2));
	ASSERT_TRUE(prove_serialized(_metadata, self->sim, self->b, 81, 1000, 52, r2, 2));
	ASSERT_TRUE(prove_serialized(_metadata, self->sim, self->b, 82, 1000, 51, r6, 6));
	ASSERT_TRUE(prove_serialized(_metadata, self->sim, self->b, 83, 1000, 2000, r3, 3));
}

/* Six receivers above row 0 at count 64: the gaps do not fit the nine-word row. */
TEST(serialized_gaps_that_do_not_fit_are_rejected)
{
	uint32_t r6[6] = { 100, 300, 645, 900, 1200, 1413 };
	struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = 1000, .count = 64, .nrecv = 6, .receivers = r6 };
	struct ipuxcom_plan_row rows[7];
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-ERANGE, ipuxcom_plan_serialized(NULL, &req, rows, 7, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NRECV, e.code);
}

/* ------------------------------------------------------------------ relay */

/* Relay tree [S]: one phase per round, each step a p2p plan; relays send what they got. */
TEST_F(mc, relay_tree_one_phase_per_round)
{
	uint32_t r[10] = { 3, 100, 645, 900, 1413, 1471, 64, 70, 1300, 555 }, rounds = 0;
	struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = 1000, .count = 100, .nrecv = 10, .receivers = r };
	struct ipuxcom_relay_step steps[10];
	uint32_t dst[10];
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	size_t k = 0;

	for (int i = 0; i < 10; i++)
		dst[i] = 0x60000;
	setup(self->sim, self->b, 90, 1000, 0x60000, 100, r, dst, 10);
	ASSERT_EQ(0, ipuxcom_plan_relay(&req, steps, 10, &rounds, NULL));
	EXPECT_EQ(4u, rounds);	/* ceil(log2(11)) */
	for (uint32_t round = 1; round <= rounds; round++) {
		uint32_t n = 0;

		ipuxcom_xsim_reset(self->sim, 0, NULL);
		for (; k < 10 && steps[k].round == round; k++, n++) {
			struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;

			/* everyone keeps the data at 0x60000: the sender's source, the relays' copy */
			ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, steps[k].sender, steps[k].receiver, 100,
						      IPUXCOM_PLAN_PHYSICAL,
						      &p, NULL));
			ASSERT_EQ(0, ipuxcom_xsim_add_p2p(self->sim, &p, 0x60000, 0x60000, NULL));
		}
		ASSERT_EQ(0, ipuxcom_xsim_run(self->sim, &res, NULL));
		ASSERT_TRUE(clean(_metadata, self->sim, &res, n)) TH_LOG("round %u", round);
	}
	ASSERT_TRUE(check(_metadata, self->sim, self->b, 1000, 0x60000, 100, r, dst, 10));
}

/* Whatever the dispatcher picks for a request, the simulator confirms it. */
TEST_F(mc, dispatched_multicast_verified)
{
	uint32_t r[4] = { 1, 500, 1000, 1400 }, dst[4] = { 0x50000, 0x50000, 0x70000, 0xd0000 };
	struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = 7, .count = 300, .nrecv = 4, .receivers = r,
					  .src_addr = 0x80000, .dst_addr = dst };
	struct ipuxcom_dispatch d = IPUXCOM_DISPATCH_INIT;

	ASSERT_EQ(0, ipuxcom_plan_dispatch(NULL, &req, IPUXCOM_FANOUT_ALL, &d, NULL));
	ASSERT_EQ(IPUXCOM_FANOUT_MULTICAST, d.chosen);
	ASSERT_TRUE(prove_mcast(_metadata, self->sim, self->b, 99, 7, 300, r, dst, 4, 0x80000, 0));
}

TEST_HARNESS_MAIN
