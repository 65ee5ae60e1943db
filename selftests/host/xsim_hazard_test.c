// SPDX-License-Identifier: GPL-2.0-only
/*
 * Negative tests of the exchange simulator: hand-broken rows must each be
 * reported as the right hazard. A shifted XPIC (in time: missed and
 * misplaced words, or the tail of another stream, i.e. a wrong source; in
 * its source field: a wrong source), an overlapping second stream (mux
 * overlap; the notes' serialized fan-out without the gap the verifier
 * found), a missing restore to 0x640 (mux open at the end, then the next
 * stream taken), a write before PIC, writes outside the buffer or SRAM, two
 * sends in one event, two mux settings in one event, rows without br
 * $m10, undecodable and unsupported words, no sync, a phase longer than
 * the fields encode, a send outside SRAM, a row ending before its writes,
 * and the hazard list's merging, cap and order.
 */
#include "kselftest_harness.h"
#include "ixt_xsim.h"

#include <errno.h>
#include <string.h>

#include <ipuxcom_xsim.h>

#define DELAY(n)		(0x40a00000u | (n))
#define DELAYPIC(a, c)		(0x60000000u | (uint32_t)(a) << 19 | (c))
#define DELAYXPIC(a, c)		(0x64000000u | (uint32_t)(a) << 14 | (c))
#define SEND(a, b, d)		(0x78000000u | (uint32_t)(a) << 21 | (uint32_t)(b) << 3 | (d))
#define SYNC3			0x41800003u
#define BR10			0x43a00000u
#define OFF			0x640u

#define SRC	0x60000u
#define DST	0x70000u

static struct ipuxcom_xsim *mksim(uint32_t max_events, uint32_t max_hazards)
{
	struct ipuxcom_xsim_config cfg = { .size = sizeof(struct ipuxcom_xsim_config),
		.max_events = max_events, .max_hazards = max_hazards };
	struct ipuxcom_xsim *sim = NULL;

	ipuxcom_xsim_create(&cfg, &sim, NULL);
	return sim;
}

static bool has(const struct ipuxcom_xsim *sim, uint32_t kind)
{
	return ipuxcom_xsim_count(sim, kind) > 0;
}

/* The first hazard of @kind, or NULL. */
static const struct ipuxcom_xsim_hazard *first(const struct ipuxcom_xsim *sim, uint32_t kind)
{
	size_t n;
	const struct ipuxcom_xsim_hazard *h = ipuxcom_xsim_hazards(sim, &n);

	for (size_t i = 0; i < n; i++)
		if (h[i].kind == kind)
			return &h[i];
	return NULL;
}

static void fill(struct ipuxcom_xsim *sim, uint32_t tile, uint32_t addr, uint32_t n,
		 uint32_t seed)
{
	for (uint32_t k = 0; k < n; k++) {
		uint32_t v = seed * 0x10000 + k + 1;

		ipuxcom_xsim_sram_write(sim, tile, addr + 4 * k, &v, 1, NULL);
	}
}

static void dump(struct __test_metadata *_metadata, const struct ipuxcom_xsim *sim)
{
	size_t n;
	const struct ipuxcom_xsim_hazard *h = ipuxcom_xsim_hazards(sim, &n);
	char buf[400];

	for (size_t i = 0; i < n; i++) {
		ipuxcom_xsim_hazard_format(&h[i], buf, sizeof(buf));
		TH_LOG("%s", buf);
	}
}

/* A p2p plan whose receiver row @edit changes, run with its declaration. */
static struct ipuxcom_xsim_result p2p_edit(struct ipuxcom_xsim *sim, uint32_t s, uint32_t r,
					   uint32_t count, void (*edit)(uint32_t *w, uint32_t c))
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;

	ipuxcom_xsim_reset(sim, 0, NULL);
	fill(sim, s, SRC, count, 1);
	if (ipuxcom_plan_p2p(NULL, s, r, count, IPUXCOM_PLAN_PHYSICAL, &p, NULL))
		return res;
	if (edit)
		edit(p.recv.words, count);
	ipuxcom_xsim_add_p2p(sim, &p, SRC, DST, NULL);
	ipuxcom_xsim_run(sim, &res, NULL);
	return res;
}

/* ------------------------------------------------------------- shifted XPIC */

static void xpic_later_by_2(uint32_t *w, uint32_t count)
{
	w[2] = DELAYXPIC(112 + 2, 0);
}

static void xpic_earlier_by_2(uint32_t *w, uint32_t count)
{
	w[2] = DELAYXPIC(112 - 2, 0);
}

/* Shifted in time in a plain p2p plan: the words it misses and where the rest lands. */
TEST(shifted_xpic_misses_and_misplaces)
{
	struct ipuxcom_xsim *sim = mksim(0, 0);
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;

	ASSERT_NE(NULL, sim);
	r = p2p_edit(sim, 1000, 53, 10, NULL);
	ASSERT_EQ(0u, r.errors);
	/* Two events late: words 0 and 1 pass before the mux opens; word 2 lands at DST. */
	r = p2p_edit(sim, 1000, 53, 10, xpic_later_by_2);
	EXPECT_EQ(8u, r.words_captured);
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_MISPLACED));
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_MISSED));
	EXPECT_NE(NULL, strstr(first(sim, IPUXCOM_XSIM_H_MISSED)->msg, "0 of 10 words"));
	EXPECT_EQ(0u, r.delivered);
	/* Two events early: the last two words pass after the close. */
	r = p2p_edit(sim, 1000, 53, 10, xpic_earlier_by_2);
	EXPECT_EQ(8u, r.words_captured);
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_MISSED));
	EXPECT_NE(NULL, strstr(first(sim, IPUXCOM_XSIM_H_MISSED)->msg, "8 of 10 words"));
	EXPECT_FALSE(has(sim, IPUXCOM_XSIM_H_MISPLACED));
	ipuxcom_xsim_free(sim);
}

/* Index in @w of the first delayxpic that selects @src. */
static int xpic_of(const uint32_t *w, uint32_t n, uint32_t src)
{
	for (uint32_t i = 0; i < n; i++)
		if ((w[i] & 0xfc000000u) == 0x64000000u && (w[i] & 0x1fff) == src)
			return (int)i;
	return -1;
}

/*
 * Shifted in time next to another stream: sender S sends to R1 and then,
 * back to back, to R2 (a packed schedule); R2's XPIC two events early
 * takes the tail of R1's stream: a wrong source, in a window of two streams.
 */
TEST(shifted_xpic_takes_a_wrong_source)
{
	const uint32_t s = 1000, r1 = 53, d1 = 0x50000, d2 = 0x50100;
	uint32_t r2 = 20;
	struct ipuxcom_schedule_xfer x[2] = {
		{ .sender = s, .count = 20, .nrecv = 1, .receivers = &r1, .src_addr = 0x80000,
		  .dst_addr = &d1 },
		{ .sender = s, .count = 20, .nrecv = 1, .receivers = &r2, .src_addr = 0x80100,
		  .dst_addr = &d2 },
	};
	struct ipuxcom_schedule_opts o = { .size = sizeof(struct ipuxcom_schedule_opts),
		.flags = IPUXCOM_SCHEDULE_EXACT_WINDOW | IPUXCOM_SCHEDULE_PHYSICAL };
	struct ipuxcom_schedule_slot s0 = IPUXCOM_SCHEDULE_SLOT_INIT, s1 = IPUXCOM_SCHEDULE_SLOT_INIT;
	struct ipuxcom_schedule *sc;
	struct ipuxcom_xsim *sim = mksim(0, 0);
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
	uint32_t words[64];

	ASSERT_NE(NULL, sim);
	/* R2 in the direction of R1's stream, so that its words reach R2 (modelled) */
	while (ixt_dir_of(s, r2) != ixt_dir_of(s, r1))
		r2++;
	ASSERT_EQ(0, ipuxcom_schedule_build(&o, x, 2, &sc, NULL));
	ipuxcom_schedule_slot(sc, 0, &s0);
	ipuxcom_schedule_slot(sc, 1, &s1);
	ASSERT_EQ(s0.start + 20, s1.start);	/* back to back */
	fill(sim, s, 0x80000, 20, 1);
	fill(sim, s, 0x80100, 20, 2);
	ASSERT_EQ(0, ipuxcom_schedule_load(sc, sim, 0, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	ASSERT_EQ(0u, r.errors);
	/* Break R2's program: its mux opens two events early. */
	ipuxcom_xsim_reset(sim, 0, NULL);
	for (size_t i = 0; i < ipuxcom_schedule_nprograms(sc); i++) {
		struct ipuxcom_xsim_program p;
		int k;

		ipuxcom_schedule_program(sc, i, &p);
		memcpy(words, p.words, p.nwords * 4);
		if (p.tile == r2) {
			k = xpic_of(words, p.nwords, s);
			ASSERT_GE(k, 1);
			ASSERT_GE((words[k] >> 14) & 0xfff, 2u);
			words[k] -= 2u << 14;
			words[k + 1] += 2u << 14;	/* the close stays put */
		}
		p.words = words;
		ASSERT_LE(0, ipuxcom_xsim_add_program(sim, &p, NULL));
	}
	ipuxcom_xsim_declare(sim,
			     &(struct ipuxcom_xsim_xfer){ .size = sizeof(struct ipuxcom_xsim_xfer),
				.flags = IPUXCOM_PLAN_PHYSICAL, .sender = s, .src_addr = 0x80000,
			     .count = 20, .nrecv = 1, .receivers = &r1, .dst_addr = &d1 }, NULL);
	ipuxcom_xsim_declare(sim,
			     &(struct ipuxcom_xsim_xfer){ .size = sizeof(struct ipuxcom_xsim_xfer),
				.flags = IPUXCOM_PLAN_PHYSICAL, .sender = s, .src_addr = 0x80100,
			     .count = 20, .nrecv = 1, .receivers = &r2, .dst_addr = &d2 }, NULL);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	dump(_metadata, sim);
	/* The two words arrive before R2's PIC: taken, then without a write address. */
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_WRITE_NO_PIC));
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_WRONG_SOURCE));
	EXPECT_EQ(r2, first(sim, IPUXCOM_XSIM_H_WRONG_SOURCE)->tile);
	EXPECT_EQ(2u, first(sim, IPUXCOM_XSIM_H_WRONG_SOURCE)->occurrences);
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_MUX_OVERLAP));
	ipuxcom_schedule_free(sc);
	ipuxcom_xsim_free(sim);
}

/*
 * A wrong XPIC source field in a full-chip phase (parallel-sum round 1 at
 * 64 words: every odd logical tile sends to its even neighbour): receiver
 * logical 10 is patched with another sender W's id instead of logical 11's
 * and takes W's words (W chosen so that its stream reaches logical 10 while
 * the window is open, modelled direction included).
 */
TEST(wrong_xpic_source_takes_a_wrong_source)
{
	struct ipuxcom_xsim *sim = mksim(0, 0);
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
	uint32_t p10, pw = 0, w = 0;

	ASSERT_NE(NULL, sim);
	ipuxcom_tile_physical(10, &p10);
	for (uint32_t t = 13; t < IPUXCOM_TILES && !w; t += 2) {
		uint32_t ps, pr;
		int shift;

		ipuxcom_tile_physical(t, &ps);
		ipuxcom_tile_physical(t - 1, &pr);
		shift = ixt_ttm(ps, p10) - ixt_ttm(ps, pr);	/* W's arrival at 10 vs at 112 */
		if (ixt_dir_of(ps, pr) == ixt_dir_of(ps, p10) && shift > -32 && shift < 32) {
			w = t;
			pw = ps;
		}
	}
	ASSERT_NE(0u, w);
	for (uint32_t t = 1; t < IPUXCOM_TILES; t += 2) {
		struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;

		ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, t, t - 1, 64, IPUXCOM_PLAN_LOGICAL, &p, NULL));
		fill(sim, p.send.tile, SRC, 64, t);
		if (t != 11) {
			ASSERT_EQ(0, ipuxcom_xsim_add_p2p(sim, &p, SRC, DST, NULL));
			continue;
		}
		/* add the rows by hand, the receiver patched with W */
		ASSERT_EQ(0, ipuxcom_patch_recv(p.recv.words, 9, w, NULL));
		ASSERT_EQ(0, ipuxcom_xsim_add_row(sim, &p.send, SRC, NULL));
		ASSERT_EQ(0, ipuxcom_xsim_add_row(sim, &p.recv, DST, NULL));
		ASSERT_EQ(0, ipuxcom_xsim_declare(sim, &(struct ipuxcom_xsim_xfer){
				.size = sizeof(struct ipuxcom_xsim_xfer),
				.flags = IPUXCOM_PLAN_PHYSICAL, .sender = p.send.tile, .src_addr = SRC, .count = 64, .nrecv = 1,
				.receivers = &p10, .dst_addr = (uint32_t[]){ DST } }, NULL));
	}
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	EXPECT_EQ(736u, r.declared);
	EXPECT_EQ(735u, r.delivered);
	ASSERT_TRUE(has(sim, IPUXCOM_XSIM_H_WRONG_SOURCE));
	EXPECT_EQ(1u, ipuxcom_xsim_count(sim, IPUXCOM_XSIM_H_WRONG_SOURCE));
	EXPECT_EQ(pw, first(sim, IPUXCOM_XSIM_H_WRONG_SOURCE)->other);
	EXPECT_EQ(p10, first(sim, IPUXCOM_XSIM_H_WRONG_SOURCE)->tile);
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_MISSED));
	ipuxcom_xsim_free(sim);
}

/* ------------------------------------------------------ overlapping stream */

/*
 * The notes' serialized fan-out shape without the gap (what the assembler
 * emitted before the verifier's fix): receiver 0 on physical row 10 at
 * count 100 keeps its mux open 20 events past its words while the next
 * send follows at once: it takes 20 words of the second stream and writes
 * them past its buffer.
 */
TEST(overlapping_second_stream_is_a_mux_overlap)
{
	uint32_t r[2] = { 10 * 64 + 5, 53 }, dst[2] = { DST, DST };
	struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = 1000, .count = 100, .nrecv = 2, .receivers = r };
	struct ipuxcom_plan_row rows[3];
	struct ipuxcom_xsim *sim = mksim(0, 0);
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	const struct ipuxcom_xsim_hazard *h;

	ASSERT_NE(NULL, sim);
	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &req, rows, 3, NULL, NULL));
	fill(sim, 1000, SRC, 100, 3);
	/* As assembled (with the gap): clean. */
	ASSERT_EQ(0, ipuxcom_xsim_add_serialized(sim, &req, rows, 3, SRC, dst, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
	EXPECT_EQ(0u, res.errors);
	dump(_metadata, sim);
	/* Without it: drop the delay(19) word, and receive 20 events earlier at receiver 1. */
	ASSERT_EQ(0x40a00000u | 19, rows[0].words[4]);
	memmove(&rows[0].words[4], &rows[0].words[5], 4 * 4);
	rows[0].words[8] = 0;
	rows[0].nwords--;
	rows[2].words[2] -= 20u << 14;
	ipuxcom_xsim_reset(sim, 0, NULL);
	ASSERT_EQ(0, ipuxcom_xsim_add_serialized(sim, &req, rows, 3, SRC, dst, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
	h = first(sim, IPUXCOM_XSIM_H_MUX_OVERLAP);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(r[0], h->tile);
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_WRITE_OUTSIDE));
	EXPECT_EQ(20u, first(sim, IPUXCOM_XSIM_H_WRITE_OUTSIDE)->occurrences);
	EXPECT_EQ(2u, res.delivered);	/* both got their words; receiver 0 got 20 more */
	EXPECT_EQ(220u, res.words_written);
	ipuxcom_xsim_free(sim);
}

/*
 * Two multicast streams into one receiver, the second opening its mux two
 * events after the first (rows overlaid): the second XPIC cuts the first
 * stream, whose remaining words are lost.
 */
TEST(overlapping_streams_at_one_receiver)
{
	uint32_t r = 53, d1 = 0x50000, d2 = 0x50100, s1 = 1000, s2 = 900;
	struct ipuxcom_fanout_req q1 = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = s1, .count = 10, .nrecv = 1, .receivers = &r,
					 .src_addr = 0x80000, .dst_addr = &d1 };
	struct ipuxcom_fanout_req q2 = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = s2, .count = 10, .nrecv = 1, .receivers = &r,
					 .src_addr = 0x80000, .dst_addr = &d2 };
	struct ipuxcom_multicast_info i1 = IPUXCOM_MULTICAST_INFO_INIT, i2 = IPUXCOM_MULTICAST_INFO_INIT;
	struct ipuxcom_plan_row a[2], b[2];
	struct ipuxcom_xsim *sim = mksim(0, 0);
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;

	ASSERT_NE(NULL, sim);
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &q1, a, 2, &i1, NULL));
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &q2, b, 2, &i2, NULL));
	/* offsets so that the second stream arrives 2 events after the first */
	if (b[1].event < a[1].event + 2)
		q2.schedule_offset = (uint32_t)(a[1].event + 2 - b[1].event);
	else
		q1.schedule_offset = (uint32_t)(b[1].event - 2 - a[1].event);
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &q1, a, 2, NULL, NULL));
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &q2, b, 2, NULL, NULL));
	ASSERT_EQ(a[1].event + 2, b[1].event);
	ASSERT_EQ(0, ipuxcom_xsim_add_multicast(sim, &q1, a, 2, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_multicast(sim, &q2, b, 2, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
	/* ... and the first row's close at +10 cuts the second stream too. */
	EXPECT_EQ(2u, first(sim, IPUXCOM_XSIM_H_MISSED)->occurrences);
	EXPECT_NE(NULL, strstr(first(sim, IPUXCOM_XSIM_H_MISSED)->msg, "2 of 10 words"));
	EXPECT_EQ(0u, res.delivered);
	ipuxcom_xsim_free(sim);
}

/* --------------------------------------------------------- missing restore */

static void no_restore(uint32_t *w, uint32_t count)
{
	w[3] = DELAY(count - 1);	/* same events, no 0x640 */
}

TEST(missing_restore_to_0x640)
{
	struct ipuxcom_xsim *sim = mksim(0, 0);
	uint32_t r[2] = { 53, 9 }, dst[2] = { DST, DST };
	struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = 1000, .count = 10, .nrecv = 2, .receivers = r };
	struct ipuxcom_plan_row rows[3];
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	const struct ipuxcom_xsim_hazard *h;

	ASSERT_NE(NULL, sim);
	/* Alone: the words are right, the mux is left open [S]. */
	res = p2p_edit(sim, 1000, 53, 10, no_restore);
	EXPECT_EQ(1u, res.delivered);
	h = first(sim, IPUXCOM_XSIM_H_MUX_OPEN_AT_END);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(53u, h->tile);
	EXPECT_EQ(1000u, h->other);
	EXPECT_EQ(1u, res.errors);
	/* With another stream of the source in the phase: it is taken too. */
	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &req, rows, 3, NULL, NULL));
	no_restore(rows[1].words, 10);
	ipuxcom_xsim_reset(sim, 0, NULL);
	ASSERT_EQ(0, ipuxcom_xsim_add_serialized(sim, &req, rows, 3, SRC, dst, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_MUX_OPEN_AT_END));
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_MUX_OVERLAP));
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_WRITE_OUTSIDE));
	EXPECT_EQ(30u, res.words_written);
	ipuxcom_xsim_free(sim);
}

/* ---------------------------------------------------------- PIC and writes */

static void pic_late(uint32_t *w, uint32_t count)
{
	w[4] += 1u << 19;	/* delaypic one event later */
	w[5] -= 1;		/* keep the row's length */
}

static void no_tail(uint32_t *w, uint32_t count)
{
	w[5] = DELAY(0);
}

TEST(write_before_pic_and_after_the_row_ends)
{
	struct ipuxcom_xsim *sim = mksim(0, 0);
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;

	ASSERT_NE(NULL, sim);
	res = p2p_edit(sim, 1000, 53, 5, pic_late);
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_WRITE_NO_PIC));
	EXPECT_EQ(1u, first(sim, IPUXCOM_XSIM_H_WRITE_NO_PIC)->occurrences);
	EXPECT_EQ(4u, res.words_written);
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_MISPLACED));
	res = p2p_edit(sim, 1000, 53, 5, no_tail);
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_WRITE_AFTER_END));
	EXPECT_EQ(5u, res.words_written);
	EXPECT_EQ(1u, res.delivered);
	ipuxcom_xsim_free(sim);
}

TEST(write_outside_the_buffer_and_sram)
{
	struct ipuxcom_xsim *sim = mksim(0, 0);
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	uint32_t r = 53, dst = DST, lg = 0;

	ASSERT_NE(NULL, sim);
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 1000, 53, 3, IPUXCOM_PLAN_PHYSICAL, &p, NULL));
	/* A4 two words past the declared buffer: the last two words outside. */
	ipuxcom_tile_logical(1000, &lg);
	ASSERT_EQ(0, ipuxcom_patch_recv(p.recv.words, 9, lg, NULL));
	ipuxcom_xsim_add_row(sim, &p.send, SRC, NULL);
	ipuxcom_xsim_add_row(sim, &p.recv, DST + 8, NULL);
	ipuxcom_xsim_declare(sim,
			     &(struct ipuxcom_xsim_xfer){ .size = sizeof(struct ipuxcom_xsim_xfer),
				.flags = IPUXCOM_PLAN_PHYSICAL, .sender = 1000, .src_addr = SRC,
			     .count = 3, .nrecv = 1, .receivers = &r, .dst_addr = &dst }, NULL);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
	EXPECT_EQ(2u, first(sim, IPUXCOM_XSIM_H_WRITE_OUTSIDE)->occurrences);
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_MISPLACED));
	/* Past the end of SRAM: dropped. */
	ipuxcom_xsim_reset(sim, 0, NULL);
	ipuxcom_xsim_add_row(sim, &p.send, SRC, NULL);
	ipuxcom_xsim_add_row(sim, &p.recv, 0xe7ff8, NULL);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
	EXPECT_EQ(1u, first(sim, IPUXCOM_XSIM_H_WRITE_OUTSIDE)->occurrences);
	EXPECT_NE(NULL, strstr(first(sim, IPUXCOM_XSIM_H_WRITE_OUTSIDE)->msg, "outside tile SRAM"));
	EXPECT_EQ(2u, res.words_written);
	ipuxcom_xsim_free(sim);
}

/* ---------------------------------------------------------- resource clashes */

/* Two p2p sender rows of one tile overlaid: both send around event 112 - T. */
TEST(two_sends_in_one_event)
{
	struct ipuxcom_xsim *sim = mksim(0, 0);
	struct ipuxcom_p2p_plan a = IPUXCOM_P2P_PLAN_INIT, b = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;

	ASSERT_NE(NULL, sim);
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 1000, 53, 64, IPUXCOM_PLAN_PHYSICAL, &a, NULL));
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 1000, 54, 64, IPUXCOM_PLAN_PHYSICAL, &b, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_p2p(sim, &a, SRC, DST, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_p2p(sim, &b, SRC, DST, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
	ASSERT_TRUE(has(sim, IPUXCOM_XSIM_H_SEND_CONFLICT));
	EXPECT_EQ(1000u, first(sim, IPUXCOM_XSIM_H_SEND_CONFLICT)->tile);
	ipuxcom_xsim_free(sim);
}

/* Two p2p receive rows of one tile overlaid: two mux settings at event 112. */
TEST(two_mux_settings_in_one_event)
{
	struct ipuxcom_xsim *sim = mksim(0, 0);
	struct ipuxcom_p2p_plan a = IPUXCOM_P2P_PLAN_INIT, b = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;

	ASSERT_NE(NULL, sim);
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 1000, 53, 4, IPUXCOM_PLAN_PHYSICAL, &a, NULL));
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 900, 53, 4, IPUXCOM_PLAN_PHYSICAL, &b, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_p2p(sim, &a, SRC, DST, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_p2p(sim, &b, SRC, DST + 64, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_ACTION_CONFLICT));
	EXPECT_EQ(53u, first(sim, IPUXCOM_XSIM_H_ACTION_CONFLICT)->tile);
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_MISSED));
	ipuxcom_xsim_free(sim);
}

/* ---------------------------------------------------------- row structure */

static void run_row(struct ipuxcom_xsim *sim, const uint32_t *w, uint32_t n)
{
	struct ipuxcom_xsim_program p = { .tile = 7, .words = w, .nwords = n };

	ipuxcom_xsim_reset(sim, 0, NULL);
	ipuxcom_xsim_add_program(sim, &p, NULL);
	ipuxcom_xsim_run(sim, NULL, NULL);
}

TEST(rows_without_br_m10)
{
	struct ipuxcom_xsim *sim = mksim(0, 0);
	const uint32_t runs_off[3] = { SYNC3, DELAY(3), DELAY(4) };
	const uint32_t padding[4] = { SYNC3, DELAY(3), 0, 0 };
	const uint32_t other_br[3] = { SYNC3, DELAY(3), 0x43300000u };
	const struct ipuxcom_xsim_hazard *h;

	ASSERT_NE(NULL, sim);
	run_row(sim, runs_off, 3);
	h = first(sim, IPUXCOM_XSIM_H_NO_BR);
	ASSERT_NE(NULL, h);
	EXPECT_NE(NULL, strstr(h->msg, "runs off its last word"));
	run_row(sim, padding, 4);
	h = first(sim, IPUXCOM_XSIM_H_NO_BR);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(2, h->word);
	EXPECT_NE(NULL, strstr(h->msg, "zero padding"));
	run_row(sim, other_br, 3);
	h = first(sim, IPUXCOM_XSIM_H_NO_BR);
	ASSERT_NE(NULL, h);
	EXPECT_NE(NULL, strstr(h->msg, "br $m3"));
	ipuxcom_xsim_free(sim);
}

TEST(undecodable_unsupported_and_no_sync)
{
	struct ipuxcom_xsim *sim = mksim(0, 0);
	const uint32_t bad[4] = { SYNC3, DELAY(3), 0x12345678u, BR10 };
	const uint32_t setzi[3] = { SYNC3, 0x19a00010u, BR10 };
	const uint32_t flag[3] = { SYNC3, DELAYXPIC(5, 0x2000 | 9), BR10 };
	const uint32_t dir0[3] = { SYNC3, SEND(0, 0x14000, 0), BR10 };
	const uint32_t host[3] = { SYNC3, DELAYXPIC(5, 0x600), BR10 };
	const uint32_t sync2[4] = { SYNC3, DELAY(1), SYNC3, BR10 };
	const uint32_t nosync[2] = { DELAY(1), BR10 };
	const struct ipuxcom_xsim_hazard *h;

	ASSERT_NE(NULL, sim);
	run_row(sim, bad, 4);
	h = first(sim, IPUXCOM_XSIM_H_UNDECODABLE);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(2, h->word);
	EXPECT_EQ(4, h->event);
	EXPECT_NE(NULL, strstr(h->msg, "0x12345678"));
	run_row(sim, setzi, 3);
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_UNSUPPORTED));
	EXPECT_NE(NULL, strstr(first(sim, IPUXCOM_XSIM_H_UNSUPPORTED)->msg, "setzi $m10"));
	run_row(sim, flag, 3);
	EXPECT_NE(NULL, strstr(first(sim, IPUXCOM_XSIM_H_UNSUPPORTED)->msg, "flag bit 13"));
	run_row(sim, dir0, 3);
	EXPECT_NE(NULL, strstr(first(sim, IPUXCOM_XSIM_H_UNSUPPORTED)->msg, "direction 0"));
	run_row(sim, host, 3);
	EXPECT_NE(NULL, strstr(first(sim, IPUXCOM_XSIM_H_UNSUPPORTED)->msg, "host mux"));
	run_row(sim, sync2, 4);
	EXPECT_NE(NULL, strstr(first(sim, IPUXCOM_XSIM_H_UNSUPPORTED)->msg, "second sync"));
	run_row(sim, nosync, 2);
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_NO_SYNC));
	ipuxcom_xsim_free(sim);
}

/* ------------------------------------------------------------- phase length */

TEST(phase_longer_than_the_fields_encode)
{
	struct ipuxcom_xsim *sim = mksim(0, 0);
	const uint32_t longrow[4] = { SYNC3, DELAY(0x7ffff), SEND(0, 0x14000, 1), BR10 };
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;

	ASSERT_NE(NULL, sim);
	run_row(sim, longrow, 4);
	ASSERT_TRUE(has(sim, IPUXCOM_XSIM_H_PHASE_LENGTH));
	EXPECT_NE(NULL, strstr(first(sim, IPUXCOM_XSIM_H_PHASE_LENGTH)->msg, "8345"));
	ipuxcom_xsim_free(sim);
	/* A tighter bound: a p2p plan of 100 words (phase 283 events) does not fit 200. */
	sim = mksim(200, 0);
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 1000, 53, 100, IPUXCOM_PLAN_PHYSICAL, &p, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_p2p(sim, &p, SRC, DST, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_PHASE_LENGTH));
	EXPECT_LE(res.events, 200u);
	ipuxcom_xsim_free(sim);
}

TEST(send_outside_sram)
{
	struct ipuxcom_xsim *sim = mksim(0, 0);
	const uint32_t w[4] = { SYNC3, SEND(3, 0x39ffe, 1), BR10 };	/* 0xe7ff8: 2 words in */

	ASSERT_NE(NULL, sim);
	run_row(sim, w, 3);
	EXPECT_TRUE(has(sim, IPUXCOM_XSIM_H_SEND_OUTSIDE));
	ipuxcom_xsim_free(sim);
}

/* ------------------------------------------------------------- the list */

TEST(hazards_merge_cap_and_order)
{
	struct ipuxcom_xsim *sim = mksim(0, 2);
	const uint32_t bad[3] = { SYNC3, 0x12345678u, BR10 };
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	const struct ipuxcom_xsim_hazard *h;
	size_t n;

	ASSERT_NE(NULL, sim);
	for (uint32_t t = 0; t < 5; t++) {
		struct ipuxcom_xsim_program p = { .tile = t, .words = bad, .nwords = 3 };

		ipuxcom_xsim_add_program(sim, &p, NULL);
		ipuxcom_xsim_add_program(sim, &p, NULL);
	}
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
	h = ipuxcom_xsim_hazards(sim, &n);
	EXPECT_EQ(2u, n);
	EXPECT_EQ(8u, res.dropped);
	EXPECT_EQ(2u, res.errors);
	EXPECT_EQ(0u, h[0].tile);
	/* Errors before notes: a count-52 p2p on row 10 gives two notes, a bad row one error. */
	ipuxcom_xsim_free(sim);
	sim = mksim(0, 0);
	{
		struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
		struct ipuxcom_xsim_program q = { .tile = 7, .words = bad, .nwords = 3 };

		ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 1000, 10 * 64 + 5, 52, IPUXCOM_PLAN_PHYSICAL,
					      &p, NULL));
		ASSERT_EQ(0, ipuxcom_xsim_add_p2p(sim, &p, SRC, DST, NULL));
		ipuxcom_xsim_add_program(sim, &q, NULL);
		ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
		h = ipuxcom_xsim_hazards(sim, &n);
		ASSERT_EQ(3u, n);
		EXPECT_EQ(1u, res.errors);
		EXPECT_EQ(2u, res.notes);
		EXPECT_EQ(IPUXCOM_XSIM_H_UNDECODABLE, h[0].kind);
		EXPECT_EQ(IPUXCOM_XSIM_NOTE, h[1].severity);
		EXPECT_EQ(IPUXCOM_XSIM_NOTE, h[2].severity);
	}
	ipuxcom_xsim_free(sim);
}

TEST_HARNESS_MAIN
