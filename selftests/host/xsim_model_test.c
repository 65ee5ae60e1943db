// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exchange simulator's event model (libuser/src/xsim_run.c) on
 * hand-written rows, checked against the semantics of HW-EVENT-MODEL
 * ([RE]) rather than against the assembler: fields hold
 * events - 1, effects at the last event, one outgoing word per event,
 * arrival at send + TimeToMux, write 52 + 2 * row later through the
 * auto-incrementing PIC pointer; plus the modelled parts (direction reach,
 * A4/A7 and absolute addressing, sendoff continuation, snapshot reads,
 * non-participation rows) and the API's argument checks.
 */
#include "kselftest_harness.h"
#include "ixt_xsim.h"

#include <errno.h>
#include <string.h>

#include <ipuxcom_xsim.h>

/* Reference encoders: the notes' formulas [S]. */
#define DELAY(n)		(0x40a00000u | (n))
#define DELAYPIC(a, c)		(0x60000000u | (uint32_t)(a) << 19 | (c))
#define DELAYXPIC(a, c)		(0x64000000u | (uint32_t)(a) << 14 | (c))
#define SEND(a, b, d)		(0x78000000u | (uint32_t)(a) << 21 | (uint32_t)(b) << 3 | (d))
#define SENDOFF(a, b, d)	(0x70000000u | ((uint32_t)(a) & 0x3f) << 21 | \
				 ((uint32_t)(a) >> 6) << 14 | (uint32_t)(b) << 3 | (d))
#define SYNC3			0x41800003u
#define BR10			0x43a00000u
#define OFF			0x640u

static struct ipuxcom_xsim *mksim(uint32_t flags)
{
	struct ipuxcom_xsim_config cfg = { .size = sizeof(struct ipuxcom_xsim_config),
		.flags = flags | IPUXCOM_XSIM_LOG_WRITES };
	struct ipuxcom_xsim *sim = NULL;

	ipuxcom_xsim_create(&cfg, &sim, NULL);
	return sim;
}

/*
 * Sender @s: word(s) from 0x60000 at event @e (a delay of e events first);
 * receiver @d opens its mux at @open for @n events and sets PIC (A4-relative
 * 0) at @pic, then waits long enough. Returns the run's result.
 */
static struct ipuxcom_xsim_result one(struct ipuxcom_xsim *sim, uint32_t s, uint32_t d,
				      uint32_t e, uint32_t n, uint32_t open, uint32_t pic,
				      uint32_t dir)
{
	uint32_t sw[5], rw[6], k = 0;
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;

	ipuxcom_xsim_reset(sim, 0, NULL);
	sw[k++] = SYNC3;
	if (e)
		sw[k++] = DELAY(e - 1);
	sw[k++] = SEND(n - 1, 0, dir);
	sw[k++] = BR10;
	ixt_xsim_add(sim, s, sw, k, 0, 0x60000);
	rw[0] = SYNC3;
	rw[1] = DELAYXPIC(open, s);
	rw[2] = DELAYXPIC(n - 1, OFF);			/* closes at open + n */
	rw[3] = DELAYPIC(pic - (open + n) - 1, 0);	/* pic after the close */
	rw[4] = DELAY(200);
	rw[5] = BR10;
	ixt_xsim_add(sim, d, rw, 6, 0x70000, 0);
	ipuxcom_xsim_run(sim, &r, NULL);
	return r;
}

/* ------------------------------------------------------- event semantics */

/*
 * HW-EVENT-MODEL [RE]: "each delay/count field holds events - 1"; "a send takes
 * one event per word"; the word is at the mux TimeToMux later; "written
 * 52 + 2*row(receiver) events later".
 */
TEST(send_arrival_and_write_events)
{
	struct ipuxcom_xsim *sim = mksim(0);
	const uint32_t s = 1000, d = 10 * 64 + 5;
	const struct ipuxcom_xsim_write *w;
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
	int t = ixt_ttm(s, d);
	uint32_t src[3] = { 11, 22, 33 }, e = 150 - t;	/* arrival at 150 */
	size_t n;

	ASSERT_NE(NULL, sim);
	ipuxcom_xsim_sram_write(sim, s, 0x60000, src, 3, NULL);
	r = one(sim, s, d, e, 3, 150, 150 + 52 + 20, ixt_dir_of(s, d));
	EXPECT_EQ(0u, r.errors);
	EXPECT_EQ(3u, r.words_sent);
	EXPECT_EQ(3u, r.words_captured);
	w = ipuxcom_xsim_writes(sim, &n);
	ASSERT_EQ(3u, n);
	for (uint32_t k = 0; k < 3; k++) {
		EXPECT_EQ((int32_t)(e + k), w[k].send_event);
		/* taken at 150 + k, written 52 + 2 * 10 later */
		EXPECT_EQ((int32_t)(150 + k + 52 + 20), w[k].event);
		EXPECT_EQ(0x70000u + 4 * k, w[k].addr);	/* PIC auto-increments */
		EXPECT_EQ(src[k], w[k].value);
		EXPECT_EQ(s, w[k].src_tile);
		EXPECT_EQ(0x60000u + 4 * k, w[k].src_addr);
	}
	ipuxcom_xsim_free(sim);
}

/* "a delaypic / delayxpic effect happens at its last event" [RE]. */
TEST(mux_effect_at_the_last_event)
{
	struct ipuxcom_xsim *sim = mksim(0);
	const uint32_t s = 300, d = 5;
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
	int t = ixt_ttm(s, d);

	ASSERT_NE(NULL, sim);
	/* Opening at the first word's event takes it ... */
	r = one(sim, s, d, 150 - t, 4, 150, 150 + 52, ixt_dir_of(s, d));
	EXPECT_EQ(4u, r.words_captured);
	EXPECT_EQ(0u, r.errors);
	/* ... one event later misses it (and the window takes 3 of the 4 words). */
	r = one(sim, s, d, 149 - t, 4, 150, 149 + 52, ixt_dir_of(s, d));
	EXPECT_EQ(3u, r.words_captured);
	EXPECT_EQ(1u, ipuxcom_xsim_count(sim, IPUXCOM_XSIM_H_MISSED));
	ipuxcom_xsim_free(sim);
}

/* The extremes of the timing model: TimeToMux -78 and 112 [RE, DW]. */
TEST(arrival_at_send_plus_time_to_mux_extremes)
{
	struct ipuxcom_xsim *sim = mksim(0);
	int want[2] = { -IPUXCOM_WORST_SEND_DELAY, IPUXCOM_WORST_RECV_DELAY };

	ASSERT_NE(NULL, sim);
	for (int k = 0; k < 2; k++) {
		uint32_t s = 0, d = 0;
		bool found = false;

		for (s = 0; s < IPUXCOM_TILES && !found; s += 1)
			for (d = 0; d < IPUXCOM_TILES && !found; d += 1)
				if (s != d && ixt_ttm(s, d) == want[k])
					found = true;
		ASSERT_TRUE(found);
		s--;
		d--;
		{
			uint32_t open = 200, row = d / 64;
			struct ipuxcom_xsim_result r = one(sim, s, d, (uint32_t)(open - want[k]), 2,
							   open, open + 52 + 2 * row, ixt_dir_of(s, d));

			EXPECT_EQ(2u, r.words_captured) TH_LOG("%u -> %u T %d", s, d, want[k]);
			EXPECT_EQ(0u, r.errors);
		}
	}
	ipuxcom_xsim_free(sim);
}

/* Write latency 52 + 2 * row [RE] on physical rows 0, 11 and 22. */
TEST(write_latency_follows_the_receiver_row)
{
	struct ipuxcom_xsim *sim = mksim(0);
	const uint32_t rows[3] = { 0, 11, 22 };

	ASSERT_NE(NULL, sim);
	for (int k = 0; k < 3; k++) {
		uint32_t d = rows[k] * 64 + 33, s = 700;
		const struct ipuxcom_xsim_write *w;
		struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
		size_t n;

		r = one(sim, s, d, 200 - ixt_ttm(s, d), 1, 200, 200 + 52 + 2 * rows[k], ixt_dir_of(s, d));
		EXPECT_EQ(0u, r.errors);
		w = ipuxcom_xsim_writes(sim, &n);
		ASSERT_EQ(1u, n);
		EXPECT_EQ((int32_t)(252 + 2 * rows[k]), w[0].event);
		/* A PIC one event too late: the write has no address. */
		r = one(sim, s, d, 200 - ixt_ttm(s, d), 1, 200, 201 + 52 + 2 * rows[k], ixt_dir_of(s, d));
		EXPECT_EQ(1u, ipuxcom_xsim_count(sim, IPUXCOM_XSIM_H_WRITE_NO_PIC));
		EXPECT_EQ(0u, r.words_written);
	}
	ipuxcom_xsim_free(sim);
}

/* send + sendoff: one stream, the pointer continues (inferred) [S: the split above 64]. */
TEST(sendoff_continues_the_stream)
{
	struct ipuxcom_xsim *sim = mksim(0);
	const uint32_t s = 64, d = 1, n = 100;
	uint32_t src[100], dst[100], sw[6], rw[7];
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
	int t = ixt_ttm(s, d);

	ASSERT_NE(NULL, sim);
	for (uint32_t k = 0; k < n; k++)
		src[k] = 0x1000 + k;
	ipuxcom_xsim_sram_write(sim, s, 0x60000, src, n, NULL);
	sw[0] = SYNC3;
	sw[1] = DELAY(150 - t - 1);
	sw[2] = SEND(63, 0, ixt_dir_of(s, d));
	sw[3] = SENDOFF(n - 65, 0, ixt_dir_of(s, d));
	sw[4] = BR10;
	ixt_xsim_add(sim, s, sw, 5, 0, 0x60000);
	rw[0] = SYNC3;
	rw[1] = DELAYXPIC(150, s);
	rw[2] = DELAYPIC(51, 0);		/* PIC at 202 = first write */
	rw[3] = DELAYXPIC(n - 53, OFF);	/* close at 150 + n */
	rw[4] = DELAY(56);
	rw[5] = BR10;
	ixt_xsim_add(sim, d, rw, 6, 0x70000, 0);
	ipuxcom_xsim_run(sim, &r, NULL);
	EXPECT_EQ(0u, r.errors);
	EXPECT_EQ(1u, r.streams);
	EXPECT_EQ(n, r.words_written);
	ipuxcom_xsim_sram_read(sim, d, 0x70000, dst, n, NULL);
	EXPECT_EQ(0, memcmp(src, dst, sizeof(src)));
	ipuxcom_xsim_free(sim);
}

/* Absolute addressing [S multicast]: A7 = 0 and a flagged delaypic (4 * field). */
TEST(absolute_and_relative_addressing)
{
	struct ipuxcom_xsim *sim = mksim(0);
	const uint32_t s = 500, d = 900;
	const struct ipuxcom_xsim_write *w;
	uint32_t sw[4], rw[6], v = 0xabcdef01, got = 0;
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
	size_t n;
	int t = ixt_ttm(s, d);

	ASSERT_NE(NULL, sim);
	ipuxcom_xsim_sram_write(sim, s, 0x81230, &v, 1, NULL);
	sw[0] = SYNC3;
	sw[1] = DELAY(150 - t - 1);
	sw[2] = SEND(0, 0x81230 / 4, 3);	/* BROADCAST, absolute source word address */
	sw[3] = BR10;
	ixt_xsim_add(sim, s, sw, 4, 0, 0);
	rw[0] = SYNC3;
	rw[1] = DELAYXPIC(150, s);
	rw[2] = DELAYXPIC(0, OFF);
	/* 0x14000 | (0x50120 - 0x50000) / 4: the notes' example destination [S] */
	rw[3] = DELAYPIC(52 + 2 * (d / 64) - 2, 0x14048);
	rw[4] = DELAY(20);
	rw[5] = BR10;
	ixt_xsim_add(sim, d, rw, 6, 0x60000, 0);		/* A4 ignored by the flagged form */
	ipuxcom_xsim_run(sim, &r, NULL);
	EXPECT_EQ(0u, r.errors);
	w = ipuxcom_xsim_writes(sim, &n);
	ASSERT_EQ(1u, n);
	EXPECT_EQ(0x50120u, w[0].addr);
	ipuxcom_xsim_sram_read(sim, d, 0x50120, &got, 1, NULL);
	EXPECT_EQ(v, got);
	/* Unflagged: A4 + 4 * field. */
	ipuxcom_xsim_reset(sim, 0, NULL);
	ixt_xsim_add(sim, s, sw, 4, 0, 0);
	rw[3] = DELAYPIC(52 + 2 * (d / 64) - 2, 5);
	ixt_xsim_add(sim, d, rw, 6, 0x60000, 0);
	ipuxcom_xsim_run(sim, &r, NULL);
	w = ipuxcom_xsim_writes(sim, &n);
	ASSERT_EQ(1u, n);
	EXPECT_EQ(0x60014u, w[0].addr);
	ipuxcom_xsim_free(sim);
}

/* A word sent in one direction does not reach a tile the other way (modelled). */
TEST(direction_reach_is_modelled_and_can_be_relaxed)
{
	struct ipuxcom_xsim *sim = mksim(0);
	const uint32_t s = 700, d = 20;
	unsigned int dir = ixt_dir_of(s, d);
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
	size_t n;
	const struct ipuxcom_xsim_hazard *h;

	ASSERT_NE(NULL, sim);
	r = one(sim, s, d, 150 - ixt_ttm(s, d), 2, 150, 202 + 2 * (d / 64), 3 - dir);
	EXPECT_EQ(0u, r.words_captured);
	h = ipuxcom_xsim_hazards(sim, &n);
	ASSERT_GE(n, 1u);
	EXPECT_EQ(IPUXCOM_XSIM_H_MISSED, h[0].kind);
	EXPECT_NE(NULL, strstr(h[0].msg, "does not reach this tile"));
	/* BROADCAST reaches it. */
	r = one(sim, s, d, 150 - ixt_ttm(s, d), 2, 150, 202 + 2 * (d / 64), 3);
	EXPECT_EQ(2u, r.words_captured);
	EXPECT_EQ(0u, r.errors);
	ipuxcom_xsim_free(sim);
	sim = mksim(IPUXCOM_XSIM_ANY_DIRECTION);
	r = one(sim, s, d, 150 - ixt_ttm(s, d), 2, 150, 202 + 2 * (d / 64), 3 - dir);
	EXPECT_EQ(2u, r.words_captured);
	EXPECT_EQ(0u, r.errors);
	ipuxcom_xsim_free(sim);
}

/* Sends read the SRAM as the phase started (modelled): a tile sending what it receives. */
TEST(sends_read_the_sram_of_the_phase_start)
{
	struct ipuxcom_xsim *sim = mksim(0);
	struct ipuxcom_p2p_plan ab = IPUXCOM_P2P_PLAN_INIT, bc = IPUXCOM_P2P_PLAN_INIT;
	uint32_t a = 100, b = 200, c = 300, v, got;

	ASSERT_NE(NULL, sim);
	/* a -> b into 0x70000, and b -> c from that same 0x70000, in one phase */
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, a, b, 1, IPUXCOM_PLAN_PHYSICAL, &ab, NULL));
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, b, c, 1, IPUXCOM_PLAN_PHYSICAL, &bc, NULL));
	v = 111;
	ipuxcom_xsim_sram_write(sim, a, 0x60000, &v, 1, NULL);
	v = 222;
	ipuxcom_xsim_sram_write(sim, b, 0x70000, &v, 1, NULL);
	ASSERT_EQ(0, ipuxcom_xsim_add_p2p(sim, &ab, 0x60000, 0x70000, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_p2p(sim, &bc, 0x70000, 0x70000, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, NULL, NULL));
	ipuxcom_xsim_sram_read(sim, c, 0x70000, &got, 1, NULL);
	EXPECT_EQ(222u, got);		/* the old value */
	ipuxcom_xsim_sram_read(sim, b, 0x70000, &got, 1, NULL);
	EXPECT_EQ(111u, got);
	ipuxcom_xsim_free(sim);
}

/* Non-participation [S]: raw sans; sync 1, or with br $m10; every tile with ALL_TILES. */
TEST(non_participation_rows)
{
	struct ipuxcom_xsim_config cfg = { .size = sizeof(struct ipuxcom_xsim_config),
		.flags = IPUXCOM_XSIM_ALL_TILES };
	const uint32_t raw[2] = { 0x40c00000u, 0x41800001u };
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_xsim *sim;

	ASSERT_EQ(0, ipuxcom_xsim_create(&cfg, &sim, NULL));
	ASSERT_EQ(0, ixt_xsim_add(sim, 7, raw, 2, 0, 0));
	ASSERT_EQ(0, ipuxcom_xsim_fill_idle(sim, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	EXPECT_EQ(0u, r.errors);
	EXPECT_EQ(1472u, r.programs);
	EXPECT_EQ(1472u, r.tiles);
	EXPECT_EQ(0u, r.active_tiles);
	/* A missing tile is reported. */
	ipuxcom_xsim_reset(sim, 0, NULL);
	ASSERT_EQ(0, ixt_xsim_add(sim, 7, raw, 2, 0, 0));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	EXPECT_EQ(1u, ipuxcom_xsim_count(sim, IPUXCOM_XSIM_H_NO_ROW));
	EXPECT_EQ(1u, r.errors);
	EXPECT_EQ(1471u, ipuxcom_xsim_hazards(sim, NULL)[0].occurrences);
	ipuxcom_xsim_free(sim);
}

/* ------------------------------------------------------------------ API */

TEST(sram_is_sparse_and_checked)
{
	struct ipuxcom_xsim *sim = mksim(0);
	struct ipuxcom_plan_error e;
	uint32_t v[2] = { 1, 2 }, got[2] = { 9, 9 };

	ASSERT_NE(NULL, sim);
	EXPECT_EQ(0, ipuxcom_xsim_sram_read(sim, 5, 0x4c000, got, 2, &e));
	EXPECT_EQ(0u, got[0]);
	EXPECT_EQ(0, ipuxcom_xsim_sram_write(sim, 1471, 0xe7ff8, v, 2, &e));
	EXPECT_EQ(0, ipuxcom_xsim_sram_read(sim, 1471, 0xe7ff8, got, 2, &e));
	EXPECT_EQ(2u, got[1]);
	EXPECT_EQ(-ERANGE, ipuxcom_xsim_sram_write(sim, 1471, 0xe7ffc, v, 2, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ADDR, e.code);
	EXPECT_STREQ("addr 0xe7ffc + 2 words not inside tile SRAM 0x4c000..0xe7fff", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_sram_write(sim, 3, 0x50002, v, 1, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ALIGN, e.code);
	EXPECT_EQ(-ERANGE, ipuxcom_xsim_sram_fill(sim, 1472, 0x50000, 0, 1, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_TILE, e.code);
	EXPECT_STREQ("tile 1472 out of range 0..1471 (physical)", e.msg);
	/* reset keeps SRAM unless asked */
	ipuxcom_xsim_reset(sim, 0, NULL);
	ipuxcom_xsim_sram_read(sim, 1471, 0xe7ff8, got, 2, NULL);
	EXPECT_EQ(1u, got[0]);
	ipuxcom_xsim_reset(sim, IPUXCOM_XSIM_RESET_SRAM, NULL);
	ipuxcom_xsim_sram_read(sim, 1471, 0xe7ff8, got, 2, NULL);
	EXPECT_EQ(0u, got[0]);
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_reset(sim, 4, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e.code);
	ipuxcom_xsim_free(sim);
}

TEST(argument_checks_name_the_field)
{
	struct ipuxcom_xsim_config cfg = { .size = sizeof(struct ipuxcom_xsim_config),
		.flags = 0x80 };
	struct ipuxcom_xsim *sim;
	struct ipuxcom_plan_error e;
	struct ipuxcom_xsim_program p = { .tile = 3, .words = (uint32_t[]){ SYNC3, BR10 },
					  .nwords = 2 };
	uint32_t r[2] = { 5, 5 }, d[2] = { 0x50000, 0x50000 };
	struct ipuxcom_xsim_xfer x = { .size = sizeof(struct ipuxcom_xsim_xfer),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = 4, .src_addr = 0x60000, .count = 3, .nrecv = 2,
				       .receivers = r, .dst_addr = d };

	EXPECT_EQ(-EINVAL, ipuxcom_xsim_create(&cfg, &sim, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e.code);
	EXPECT_STREQ("flags 0x80 has unknown bits 0x80", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_create(NULL, NULL, &e));
	ASSERT_EQ(0, ipuxcom_xsim_create(NULL, &sim, &e));
	EXPECT_EQ(0, ipuxcom_xsim_add_program(sim, &p, &e));
	EXPECT_EQ(1, ipuxcom_xsim_add_program(sim, &p, &e));	/* its index */
	p.nwords = 0;
	EXPECT_EQ(-ERANGE, ipuxcom_xsim_add_program(sim, &p, &e));
	EXPECT_STREQ("nwords 0 out of range 1..4096", e.msg);
	p.nwords = 2;
	p.incoming_base = 0x1000;
	EXPECT_EQ(-ERANGE, ipuxcom_xsim_add_program(sim, &p, &e));
	EXPECT_STREQ("incoming_base", e.field);
	p.incoming_base = 0;
	p.outgoing_base = 0x50001;
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_add_program(sim, &p, &e));
	EXPECT_STREQ("outgoing_base 0x50001 not 4-byte aligned", e.msg);
	p.outgoing_base = 0;
	p.tile = 1472;
	EXPECT_EQ(-ERANGE, ipuxcom_xsim_add_program(sim, &p, &e));
	EXPECT_STREQ("tile", e.field);
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_declare(sim, &x, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_DUP, e.code);
	EXPECT_STREQ("receivers[1] 5 is listed twice", e.msg);
	r[1] = 4;
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_declare(sim, &x, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SELF, e.code);
	r[1] = 6;
	x.count = 0;
	EXPECT_EQ(-ERANGE, ipuxcom_xsim_declare(sim, &x, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_COUNT, e.code);
	x.count = 3;
	d[1] = 0xe7ffc;
	EXPECT_EQ(-ERANGE, ipuxcom_xsim_declare(sim, &x, &e));
	EXPECT_STREQ("dst_addr[1]", e.field);
	d[1] = 0x50000;
	EXPECT_EQ(0, ipuxcom_xsim_declare(sim, &x, &e));
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_run(NULL, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
	ipuxcom_xsim_free(sim);
	ipuxcom_xsim_free(NULL);
}

TEST(kind_names_and_severities)
{
	struct ipuxcom_xsim_hazard h = { .kind = IPUXCOM_XSIM_H_MUX_OVERLAP,
					 .severity = IPUXCOM_XSIM_ERROR, .tile = 53, .program = 1,
					 .word = 3, .event = 140, .occurrences = 2 };
	char buf[128];

	EXPECT_STREQ("wrong-source", ipuxcom_xsim_kind_name(IPUXCOM_XSIM_H_WRONG_SOURCE));
	EXPECT_STREQ("mux-overlap", ipuxcom_xsim_kind_name(IPUXCOM_XSIM_H_MUX_OVERLAP));
	EXPECT_STREQ("mux-open-at-end", ipuxcom_xsim_kind_name(IPUXCOM_XSIM_H_MUX_OPEN_AT_END));
	EXPECT_STREQ("idle-window", ipuxcom_xsim_kind_name(IPUXCOM_XSIM_N_IDLE_WINDOW));
	EXPECT_STREQ("?", ipuxcom_xsim_kind_name(IPUXCOM_XSIM_KIND_MAX));
	EXPECT_STREQ("?", ipuxcom_xsim_kind_name(0));
	for (uint32_t k = 1; k < IPUXCOM_XSIM_KIND_MAX; k++)
		EXPECT_EQ(k == IPUXCOM_XSIM_N_IDLE_WINDOW || k == IPUXCOM_XSIM_N_PIC_EARLY ||
			  k == IPUXCOM_XSIM_N_SRAM_CONTENTION ?
			  IPUXCOM_XSIM_NOTE : IPUXCOM_XSIM_ERROR, ipuxcom_xsim_kind_severity(k));
	/* Added after the notes so that no existing value moves; an error. */
	EXPECT_STREQ("in-flight-at-sync", ipuxcom_xsim_kind_name(IPUXCOM_XSIM_H_IN_FLIGHT_AT_SYNC));
	EXPECT_EQ(0u, ipuxcom_xsim_kind_severity(99));
	strcpy(h.msg, "x");
	ipuxcom_xsim_hazard_format(&h, buf, sizeof(buf));
	EXPECT_STREQ("error mux-overlap tile 53 (program 1, word 3) event 140 (x2): x", buf);
}

TEST_HARNESS_MAIN
