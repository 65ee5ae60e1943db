// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exchange simulator on the merged send/control instructions and the
 * 64-bit exchange (HW-MERGED, HW-WIDE [RE]), on hand-written rows:
 *  - sendpic applies its control at its first send event and continues
 *    the outgoing stream; sendpicp applies both, restarts the stream at
 *    its absolute source address, or (sctl 0) only lets events pass; it
 *    must start on an 8-byte boundary;
 *  - sctl bit 2: 64-bit items, two words per event, reaching the XOR-2
 *    pair at max(TimeToMux(s, d), TimeToMux(s, d^2)) through the XPIC of
 *    the member with the smaller TimeToMux; the pair's resources used
 *    twice (modelled) is a pair conflict;
 *  - 16 KiB memory elements: writes or sends on the code's element are an
 *    error ([S] elem(data/result) != elem(planBuf)); a send read and a
 *    write on one element in one event a note (modelled).
 */
#include "kselftest_harness.h"
#include "ixt_xsim.h"

#include <errno.h>
#include <string.h>

#include <ipuxcom_xsim.h>

/* Reference encoders: the notes' formulas [S] and HW-MERGED's [RE]. */
#define DELAY(n)		(0x40a00000u | (n))
#define DELAYPIC(a, c)		(0x60000000u | (uint32_t)(a) << 19 | (c))
#define DELAYXPIC(a, c)		(0x64000000u | (uint32_t)(a) << 14 | (c))
#define SEND(a, b, d)		(0x78000000u | (uint32_t)(a) << 21 | (uint32_t)(b) << 3 | (d))
#define SENDPIC(a, sel, v)	(0x70100000u | (uint32_t)(a) << 21 | (uint32_t)(sel) << 18 | (v))
#define SENDPICP0(ps, a, src, sctl) \
	(0xf0000000u | (uint32_t)(ps) << 27 | (uint32_t)(a) << 21 | (uint32_t)(src) << 3 | (sctl))
#define SENDPICP1(xpic, pic)	((uint32_t)(xpic) << 18 | (pic))
#define SYNC3			0x41800003u
#define BR10			0x43a00000u
#define OFF			0x640u
#define WIDE			4u

static struct ipuxcom_xsim *mksim(void)
{
	struct ipuxcom_xsim_config cfg = { .size = sizeof(struct ipuxcom_xsim_config),
		.flags = IPUXCOM_XSIM_LOG_WRITES };
	struct ipuxcom_xsim *sim = NULL;

	ipuxcom_xsim_create(&cfg, &sim, NULL);
	return sim;
}

static uint32_t row_of(uint32_t t)
{
	return t / 64;
}

static uint32_t lat(uint32_t t)
{
	return 52 + 2 * row_of(t);
}

/* A sender row: @n events of `send` with @sctl from A7 = @a7 at event @start (>= 1). */
static void sender(struct ipuxcom_xsim *sim, uint32_t s, uint32_t start, uint32_t n,
		   uint32_t sctl, uint32_t a7)
{
	uint32_t w[4] = { SYNC3, DELAY(start - 1), SEND(n - 1, 0, sctl), BR10 };

	ixt_xsim_add(sim, s, w, 4, 0, a7);
}

/*
 * A receiver row: the mux selects @s during events [open, open + n)
 * (open >= 0), PIC (A4-relative 0) at @pic, after the close.
 */
static int receiver(struct ipuxcom_xsim *sim, uint32_t d, uint32_t s, uint32_t open, uint32_t n,
		    uint32_t pic, uint32_t a4)
{
	uint32_t w[6] = { SYNC3, DELAYXPIC(open, s), DELAYXPIC(n - 1, OFF),
			  DELAYPIC(pic - (open + n) - 1, 0), DELAY(200), BR10 };

	return ixt_xsim_add(sim, d, w, 6, a4, 0);
}

static const struct ipuxcom_xsim_hazard *first(const struct ipuxcom_xsim *sim, uint32_t kind)
{
	size_t n;
	const struct ipuxcom_xsim_hazard *h = ipuxcom_xsim_hazards(sim, &n);

	for (size_t i = 0; i < n; i++)
		if (h[i].kind == kind)
			return &h[i];
	return NULL;
}

/* The action of @kind on @tile number @nth (0-based); false if none. */
static bool action(const struct ipuxcom_xsim *sim, uint32_t kind, uint32_t tile, int nth,
		   struct ipuxcom_xsim_action *out)
{
	for (size_t i = 0; i < ipuxcom_xsim_nactions(sim); i++) {
		out->size = sizeof(*out);
		if (ipuxcom_xsim_action(sim, i, out))
			return false;
		if (out->kind == kind && out->tile == tile && nth-- == 0)
			return true;
	}
	return false;
}

static size_t nactions_of(const struct ipuxcom_xsim *sim, uint32_t kind, uint32_t tile)
{
	struct ipuxcom_xsim_action a = IPUXCOM_XSIM_ACTION_INIT;
	size_t k = 0;

	for (size_t i = 0; i < ipuxcom_xsim_nactions(sim); i++) {
		if (ipuxcom_xsim_action(sim, i, &a))
			break;
		k += a.kind == kind && a.tile == tile;
	}
	return k;
}

/* --------------------------------------------------------------- sendpicp */

/*
 * The SDK receiver row of HW-MERGED: f6600000 03014048 = 52 events, XPIC
 * 192, PIC 0x14048 (both flag bits: absolute 0x50120), sctl 0: nothing
 * leaves. Both controls at its first event; 192's 52 words arriving from
 * that event on are written from 0x50120.
 */
TEST(sdk_receiver_only_sendpicp)
{
	struct ipuxcom_xsim *sim = mksim();
	const uint32_t s = 192, d = 5;	/* d on physical row 0 */
	const uint32_t open = 120;	/* sendpicp at word 2, event 120 */
	uint32_t rw[7] = { SYNC3, DELAY(open - 1), 0xf6600000u, 0x03014048u,
			   DELAYXPIC(0, OFF), DELAY(60), BR10 };
	uint32_t src[52];
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_xsim_action a = IPUXCOM_XSIM_ACTION_INIT;
	const struct ipuxcom_xsim_write *w;
	size_t n;

	ASSERT_NE(NULL, sim);
	for (uint32_t k = 0; k < 52; k++)
		src[k] = 0x1000 + k;
	ipuxcom_xsim_sram_write(sim, s, 0x60000, src, 52, NULL);
	sender(sim, s, (uint32_t)((int)open - ixt_ttm(s, d)), 52, ixt_dir_of(s, d), 0x60000);
	ixt_xsim_add(sim, d, rw, 7, 0, 0);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	EXPECT_EQ(0u, r.errors);
	/* controls at the sendpicp's first event */
	ASSERT_TRUE(action(sim, IPUXCOM_XSIM_A_MUX, d, 0, &a));
	EXPECT_EQ((int32_t)open, a.event);
	EXPECT_EQ(s, a.value);
	EXPECT_EQ(2, a.word);
	ASSERT_TRUE(action(sim, IPUXCOM_XSIM_A_PIC, d, 0, &a));
	EXPECT_EQ((int32_t)open, a.event);
	EXPECT_EQ(0x50120u, a.value);
	/* 52 events, then the delayxpic closes at open + 52 */
	ASSERT_TRUE(action(sim, IPUXCOM_XSIM_A_MUX, d, 1, &a));
	EXPECT_EQ((int32_t)(open + 52), a.event);
	/* the receiver-only form sends nothing */
	EXPECT_EQ(0u, nactions_of(sim, IPUXCOM_XSIM_A_SEND, d));
	EXPECT_EQ(52u, r.words_sent);
	w = ipuxcom_xsim_writes(sim, &n);
	ASSERT_EQ(52u, n);
	for (uint32_t k = 0; k < 52; k++) {
		EXPECT_EQ(0x50120u + 4 * k, w[k].addr);
		EXPECT_EQ(src[k], w[k].value);
		EXPECT_EQ((int32_t)(open + k + lat(d)), w[k].event);
	}
	/* the PIC was set 52 events before the first write: the model's note */
	EXPECT_NE(NULL, first(sim, IPUXCOM_XSIM_N_PIC_EARLY));
	ipuxcom_xsim_free(sim);
}

/*
 * A transmitting sendpicp restarts the outgoing stream at its absolute
 * source address: a window over both takes two streams (mux overlap) and
 * the words of both addresses, in order.
 */
TEST(transmitting_sendpicp_restarts_the_stream)
{
	struct ipuxcom_xsim *sim = mksim();
	const uint32_t s = 1000, d = 7;
	unsigned int dir = ixt_dir_of(s, d);
	/* send 2 words from A7 (0x60000) at 1..2, a pause, sendpicp (word 4) 2 words at 4..5 */
	uint32_t sw[7] = { SYNC3, DELAY(0), SEND(1, 0, dir), DELAY(0), 0, 0, BR10 };
	uint32_t a0[2] = { 1, 2 }, b0[2] = { 3, 4 };
	uint32_t open = (uint32_t)(1 + ixt_ttm(s, d));
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_xsim_action a, b;
	const struct ipuxcom_xsim_write *w;
	size_t n;

	ASSERT_NE(NULL, sim);
	ASSERT_GE(1 + ixt_ttm(s, d), 0);
	ASSERT_EQ(0, ipuxcom_enc_sendpicp(0, 1, 0x70000 / 4, dir, OFF, 0, &sw[4], NULL));
	/* the library's encoder and HW-MERGED's formula agree */
	EXPECT_EQ(SENDPICP0(0, 1, 0x70000 / 4, dir), sw[4]);
	EXPECT_EQ(SENDPICP1(OFF, 0), sw[5]);
	ipuxcom_xsim_sram_write(sim, s, 0x60000, a0, 2, NULL);
	ipuxcom_xsim_sram_write(sim, s, 0x70000, b0, 2, NULL);
	ixt_xsim_add(sim, s, sw, 7, 0, 0x60000);
	receiver(sim, d, s, open, 5, open + lat(d), 0x50000);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	ASSERT_TRUE(action(sim, IPUXCOM_XSIM_A_SEND, s, 0, &a));
	ASSERT_TRUE(action(sim, IPUXCOM_XSIM_A_SEND, s, 1, &b));
	EXPECT_EQ(1, a.event);
	EXPECT_EQ(0x60000u, a.value);
	EXPECT_EQ(4, b.event);
	EXPECT_EQ(0x70000u, b.value);	/* absolute, not A7-relative */
	EXPECT_EQ(2u, b.words);
	EXPECT_NE(a.stream, b.stream);
	EXPECT_EQ(2u, r.streams);
	EXPECT_NE(NULL, first(sim, IPUXCOM_XSIM_H_MUX_OVERLAP));
	w = ipuxcom_xsim_writes(sim, &n);
	ASSERT_EQ(4u, n);
	EXPECT_EQ(1u, w[0].value);
	EXPECT_EQ(2u, w[1].value);
	EXPECT_EQ(3u, w[2].value);
	EXPECT_EQ(4u, w[3].value);
	EXPECT_EQ((int32_t)(open + 3 + lat(d)), w[2].event);	/* the pause */
	ipuxcom_xsim_free(sim);
}

/* "must start on an 8-byte boundary" [RE]: word index, or the code address given. */
TEST(sendpicp_alignment)
{
	struct ipuxcom_xsim *sim = mksim();
	const uint32_t odd[5] = { SYNC3, 0xf6600000u, 0x03014048u, DELAYXPIC(0, OFF), BR10 };
	const uint32_t even[6] = { SYNC3, DELAY(0), 0xf6600000u, 0x03014048u, DELAYXPIC(0, OFF),
				   BR10 };
	const struct ipuxcom_xsim_hazard *h;
	struct ipuxcom_plan_error e;
	int p;

	ASSERT_NE(NULL, sim);
	ixt_xsim_add(sim, 5, odd, 5, 0, 0);
	ipuxcom_xsim_run(sim, NULL, NULL);
	h = first(sim, IPUXCOM_XSIM_H_MISALIGNED);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(1, h->word);
	EXPECT_STREQ("misaligned", ipuxcom_xsim_kind_name(h->kind));
	EXPECT_EQ(0u, ipuxcom_xsim_nactions(sim));	/* the row stops there */
	/* word 1 is aligned when word 0 lies at 4 mod 8 */
	ipuxcom_xsim_reset(sim, 0, NULL);
	p = ixt_xsim_add(sim, 5, odd, 5, 0, 0);
	ASSERT_EQ(0, ipuxcom_xsim_set_code_addr(sim, p, 0x54004, NULL));
	ipuxcom_xsim_run(sim, NULL, NULL);
	EXPECT_EQ(NULL, first(sim, IPUXCOM_XSIM_H_MISALIGNED));
	EXPECT_EQ(3u, ipuxcom_xsim_nactions(sim));	/* mux, PIC, close */
	/* and word 2 is not */
	ipuxcom_xsim_reset(sim, 0, NULL);
	p = ixt_xsim_add(sim, 5, even, 6, 0, 0);
	ipuxcom_xsim_run(sim, NULL, NULL);
	EXPECT_EQ(NULL, first(sim, IPUXCOM_XSIM_H_MISALIGNED));
	ipuxcom_xsim_reset(sim, 0, NULL);
	p = ixt_xsim_add(sim, 5, even, 6, 0, 0);
	ASSERT_EQ(0, ipuxcom_xsim_set_code_addr(sim, p, 0x54004, NULL));
	ipuxcom_xsim_run(sim, NULL, NULL);
	EXPECT_NE(NULL, first(sim, IPUXCOM_XSIM_H_MISALIGNED));
	/* the two-word instruction cut at the end of the row does not decode */
	ipuxcom_xsim_reset(sim, 0, NULL);
	ixt_xsim_add(sim, 5, even, 3, 0, 0);
	ipuxcom_xsim_run(sim, NULL, NULL);
	EXPECT_NE(NULL, first(sim, IPUXCOM_XSIM_H_UNDECODABLE));
	/* argument checks */
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_set_code_addr(NULL, 0, 0x54000, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
	EXPECT_EQ(-ERANGE, ipuxcom_xsim_set_code_addr(sim, 1, 0x54000, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_FIELD, e.code);
	EXPECT_EQ(-ERANGE, ipuxcom_xsim_set_code_addr(sim, -1, 0x54000, &e));
	EXPECT_EQ(-EINVAL, ipuxcom_xsim_set_code_addr(sim, 0, 0x54002, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ALIGN, e.code);
	EXPECT_EQ(-ERANGE, ipuxcom_xsim_set_code_addr(sim, 0, 0x40000, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ADDR, e.code);
	EXPECT_EQ(-ERANGE, ipuxcom_xsim_set_code_addr(sim, 0, IPUXCOM_SRAM_END - 8, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ADDR, e.code);
	ipuxcom_xsim_free(sim);
}

/* ---------------------------------------------------------------- sendpic */

/*
 * sendpic continues the outgoing stream (one stream: a window over it has
 * no overlap) and applies its XPIC at its first send event: the tile
 * takes a word arriving then, and none arriving one event earlier.
 */
TEST(sendpic_control_at_first_send_event)
{
	struct ipuxcom_xsim *sim = mksim();
	const uint32_t a = 1000, r = 7, s2 = 1300;
	unsigned int dir = ixt_dir_of(a, r);
	/* a: send 4 words (events 1..4), sendpic 4 more (5..8) opening its mux on s2 at 5 */
	uint32_t aw[8] = { SYNC3, DELAY(0), SEND(3, 0, dir), SENDPIC(3, 0, s2),
			   DELAYXPIC(1, OFF), 0, DELAY(40), BR10 };
	uint32_t data[8] = { 10, 11, 12, 13, 14, 15, 16, 17 }, two[2] = { 90, 91 };
	uint32_t open = (uint32_t)(1 + ixt_ttm(a, r)), s2start;
	uint32_t recvs[1] = { r }, dst[1] = { 0x50000 };
	struct ipuxcom_xsim_xfer x = { .size = sizeof(struct ipuxcom_xsim_xfer),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = a, .src_addr = 0x60000, .count = 8, .nrecv = 1,
				       .receivers = recvs, .dst_addr = dst };
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_xsim_action act, act2;
	const struct ipuxcom_xsim_write *w;
	size_t n, got = 0;

	ASSERT_NE(NULL, sim);
	ASSERT_GE(1 + ixt_ttm(a, r), 0);
	/* s2's two words arrive at a's mux at events 4 and 5 */
	ASSERT_GE(4 - ixt_ttm(s2, a), 1);
	s2start = (uint32_t)(4 - ixt_ttm(s2, a));
	/* a's PIC at the first write of the word taken at 5 (the mux closes at 10) */
	aw[5] = DELAYPIC(5 + lat(a) - 11, 0);
	ipuxcom_xsim_sram_write(sim, a, 0x60000, data, 8, NULL);
	ipuxcom_xsim_sram_write(sim, s2, 0x60000, two, 2, NULL);
	ixt_xsim_add(sim, a, aw, 8, 0x58000, 0x60000);
	sender(sim, s2, s2start, 2, ixt_dir_of(s2, a), 0x60000);
	receiver(sim, r, a, open, 8, open + lat(r), 0x50000);
	ASSERT_EQ(0, ipuxcom_xsim_declare(sim, &x, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
	/* r: one stream of 8 words, delivered in place */
	EXPECT_EQ(1u, res.delivered);
	EXPECT_EQ(NULL, first(sim, IPUXCOM_XSIM_H_MUX_OVERLAP));
	ASSERT_TRUE(action(sim, IPUXCOM_XSIM_A_SEND, a, 0, &act));
	ASSERT_TRUE(action(sim, IPUXCOM_XSIM_A_SEND, a, 1, &act2));
	EXPECT_EQ(act.stream, act2.stream);
	EXPECT_EQ(5, act2.event);
	EXPECT_EQ(0x60010u, act2.value);
	EXPECT_EQ(dir, act2.dir);	/* the stream's control */
	/* a's mux from event 5 on: s2's word at 4 is not taken, the one at 5 is */
	ASSERT_TRUE(action(sim, IPUXCOM_XSIM_A_MUX, a, 0, &act));
	EXPECT_EQ(5, act.event);
	EXPECT_EQ(3, act.word);
	w = ipuxcom_xsim_writes(sim, &n);
	for (size_t k = 0; k < n; k++) {
		if (w[k].tile != a)
			continue;
		got++;
		EXPECT_EQ(91u, w[k].value);
		EXPECT_EQ((int32_t)(5 + lat(a)), w[k].event);
		EXPECT_EQ(0x58000u, w[k].addr);
	}
	EXPECT_EQ(1u, got);
	ipuxcom_xsim_free(sim);
}

/* A sendpic with no stream before it in the row: reported, nothing sent. */
TEST(sendpic_without_a_stream)
{
	struct ipuxcom_xsim *sim = mksim();
	const uint32_t row[4] = { SYNC3, SENDPIC(3, 2, 0x14048), DELAY(80), BR10 };
	struct ipuxcom_xsim_action a = IPUXCOM_XSIM_ACTION_INIT;

	ASSERT_NE(NULL, sim);
	ixt_xsim_add(sim, 9, row, 4, 0, 0);
	ipuxcom_xsim_run(sim, NULL, NULL);
	ASSERT_NE(NULL, first(sim, IPUXCOM_XSIM_H_UNSUPPORTED));
	EXPECT_NE(NULL, strstr(first(sim, IPUXCOM_XSIM_H_UNSUPPORTED)->msg, "no earlier send"));
	EXPECT_EQ(0u, nactions_of(sim, IPUXCOM_XSIM_A_SEND, 9));
	/* its PIC (selector 2) still applies, at its first event */
	ASSERT_TRUE(action(sim, IPUXCOM_XSIM_A_PIC, 9, 0, &a));
	EXPECT_EQ(0, a.event);
	EXPECT_EQ(0x50120u, a.value);
	EXPECT_EQ(4 + 80 + 1, ipuxcom_xsim_tile_end(sim, 9));
	ipuxcom_xsim_free(sim);
}

/* ----------------------------------------------------------------- 64-bit */

struct pairx {
	uint32_t s, owner, other;
	int t, tother;
};

/* A receiver pair on physical row 0 whose two TimeToMux from @s differ. */
static struct pairx find_pair(uint32_t s)
{
	struct pairx p = { .s = s };

	for (uint32_t d = 0; d < 64; d++) {
		int a = ixt_ttm(s, d), b = ixt_ttm(s, d ^ 2);

		if ((d ^ 2) == s || d == s || a >= b || ixt_dir_of(s, d) != ixt_dir_of(s, d ^ 2))
			continue;
		p.owner = d;
		p.other = d ^ 2;
		p.t = a;
		p.tother = b;
		break;
	}
	return p;
}

/*
 * 64-bit items: two words per event, at the pair's timing (the larger
 * TimeToMux), through the owner's XPIC (the smaller); 2n words delivered
 * in place by n events.
 */
TEST(wide_items_on_the_paired_route)
{
	struct ipuxcom_xsim *sim = mksim();
	struct pairx p = find_pair(1000);
	const uint32_t n = 8, start = 120;
	uint32_t data[16], open, recvs[1], dst[1] = { 0x50000 };
	struct ipuxcom_xsim_xfer x = { .size = sizeof(struct ipuxcom_xsim_xfer),
		.flags = IPUXCOM_PLAN_PHYSICAL, .src_addr = 0x60000, .count = 16, .nrecv = 1,
				       .receivers = recvs, .dst_addr = dst };
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_xsim_action a = IPUXCOM_XSIM_ACTION_INIT;
	const struct ipuxcom_xsim_write *w;
	size_t nw;

	ASSERT_NE(NULL, sim);
	ASSERT_NE(p.owner, p.other);
	x.sender = p.s;
	recvs[0] = p.owner;
	open = start + (uint32_t)p.tother;	/* max of the two */
	for (uint32_t k = 0; k < 16; k++)
		data[k] = 0x500 + k;
	ipuxcom_xsim_sram_write(sim, p.s, 0x60000, data, 16, NULL);
	sender(sim, p.s, start, n, ixt_dir_of(p.s, p.owner) | WIDE, 0x60000);
	receiver(sim, p.owner, p.s, open, n, open + lat(p.owner), 0x50000);
	ASSERT_EQ(0, ipuxcom_xsim_declare(sim, &x, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	EXPECT_EQ(0u, r.errors);
	EXPECT_EQ(1u, r.delivered);
	EXPECT_EQ(16u, r.words_sent);
	EXPECT_EQ(16u, r.words_written);
	w = ipuxcom_xsim_writes(sim, &nw);
	ASSERT_EQ(16u, nw);
	for (uint32_t k = 0; k < 16; k++) {
		EXPECT_EQ(0x50000u + 4 * k, w[k].addr);
		EXPECT_EQ(data[k], w[k].value);
		EXPECT_EQ((int32_t)(open + k / 2 + lat(p.owner)), w[k].event);
		EXPECT_EQ((int32_t)(start + k / 2), w[k].send_event);
	}
	ASSERT_TRUE(action(sim, IPUXCOM_XSIM_A_SEND, p.s, 0, &a));
	EXPECT_EQ(n, a.words);				/* events */
	EXPECT_EQ(ixt_dir_of(p.s, p.owner) | WIDE, a.dir);	/* the sctl */
	ipuxcom_xsim_free(sim);
}

/* At the owner's own TimeToMux the window is early: its last item is missed. */
TEST(wide_items_take_the_pairs_timing)
{
	struct ipuxcom_xsim *sim = mksim();
	struct pairx p = find_pair(1000);
	const uint32_t n = 8, start = 120;
	uint32_t open = start + (uint32_t)p.t;	/* the owner's own, smaller */
	uint32_t recvs[1], dst[1] = { 0x50000 };
	struct ipuxcom_xsim_xfer x = { .size = sizeof(struct ipuxcom_xsim_xfer),
		.flags = IPUXCOM_PLAN_PHYSICAL, .src_addr = 0x60000, .count = 16, .nrecv = 1,
				       .receivers = recvs, .dst_addr = dst };
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;

	ASSERT_NE(NULL, sim);
	x.sender = p.s;
	recvs[0] = p.owner;
	sender(sim, p.s, start, n, ixt_dir_of(p.s, p.owner) | WIDE, 0x60000);
	receiver(sim, p.owner, p.s, open, n, start + (uint32_t)p.tother + lat(p.owner), 0x50000);
	ASSERT_EQ(0, ipuxcom_xsim_declare(sim, &x, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	EXPECT_EQ(0u, r.delivered);
	ASSERT_NE(NULL, first(sim, IPUXCOM_XSIM_H_MISSED));
	EXPECT_EQ((uint64_t)(2 * (n - (uint32_t)(p.tother - p.t))), r.words_written);
	ipuxcom_xsim_free(sim);
}

/* The other member's XPIC does not take the pair's 64-bit items. */
TEST(wide_items_go_through_the_owners_xpic)
{
	struct ipuxcom_xsim *sim = mksim();
	struct pairx p = find_pair(1000);
	const uint32_t n = 8, start = 120, open = start + (uint32_t)p.tother;
	const struct ipuxcom_xsim_hazard *h;
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;

	ASSERT_NE(NULL, sim);
	sender(sim, p.s, start, n, ixt_dir_of(p.s, p.other) | WIDE, 0x60000);
	receiver(sim, p.other, p.s, open, n, open + lat(p.other), 0x50000);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	EXPECT_EQ(0u, r.words_written);
	h = first(sim, IPUXCOM_XSIM_H_MISSED);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(p.other, h->tile);
	EXPECT_NE(NULL, strstr(h->msg, "owner"));
	ipuxcom_xsim_free(sim);
}

/*
 * The pair's double-width resources once per event (modelled): the
 * partner taking a word while the owner takes items, or sending while a
 * member sends 64-bit items, is a pair conflict; misaligned items are
 * reported.
 */
TEST(wide_pair_conflicts_and_alignment)
{
	struct ipuxcom_xsim *sim = mksim();
	struct pairx p = find_pair(1000);
	const uint32_t n = 8, start = 120, open = start + (uint32_t)p.tother;
	const uint32_t s2 = 1300;
	uint32_t open2 = open + 2;
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
	const struct ipuxcom_xsim_hazard *h;

	ASSERT_NE(NULL, sim);
	/* partner takes a 32-bit word of s2 at open + 2, inside the items' events */
	ASSERT_GE((int)open2 - ixt_ttm(s2, p.other), 1);
	sender(sim, p.s, start, n, ixt_dir_of(p.s, p.owner) | WIDE, 0x60000);
	receiver(sim, p.owner, p.s, open, n, open + lat(p.owner), 0x50000);
	sender(sim, s2, open2 - (uint32_t)ixt_ttm(s2, p.other), 1, ixt_dir_of(s2, p.other), 0x60000);
	receiver(sim, p.other, s2, open2, 1, open2 + lat(p.other), 0x50000);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	h = first(sim, IPUXCOM_XSIM_H_PAIR_CONFLICT);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(p.other, h->tile);
	EXPECT_EQ((int32_t)open2, h->event);
	/* after the items: no conflict */
	ipuxcom_xsim_reset(sim, 0, NULL);
	open2 = open + n;
	sender(sim, p.s, start, n, ixt_dir_of(p.s, p.owner) | WIDE, 0x60000);
	receiver(sim, p.owner, p.s, open, n, open + lat(p.owner), 0x50000);
	sender(sim, s2, open2 - (uint32_t)ixt_ttm(s2, p.other), 1, ixt_dir_of(s2, p.other), 0x60000);
	receiver(sim, p.other, s2, open2, 1, open2 + lat(p.other), 0x50000);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	EXPECT_EQ(NULL, first(sim, IPUXCOM_XSIM_H_PAIR_CONFLICT));
	EXPECT_EQ(0u, r.errors);
	/* the sender's partner sending during the 64-bit send */
	ipuxcom_xsim_reset(sim, 0, NULL);
	sender(sim, p.s, start, n, 3 | WIDE, 0x60000);
	sender(sim, p.s ^ 2, start + n - 1, 4, 3, 0x60000);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	h = first(sim, IPUXCOM_XSIM_H_PAIR_CONFLICT);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(p.s, h->tile);
	EXPECT_EQ((int32_t)(start + n - 1), h->event);
	ipuxcom_xsim_reset(sim, 0, NULL);
	sender(sim, p.s, start, n, 3 | WIDE, 0x60000);
	sender(sim, p.s ^ 2, start + n, 4, 3, 0x60000);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	EXPECT_EQ(NULL, first(sim, IPUXCOM_XSIM_H_PAIR_CONFLICT));
	/* misaligned: the source, then the write pointer */
	ipuxcom_xsim_reset(sim, 0, NULL);
	sender(sim, p.s, start, n, ixt_dir_of(p.s, p.owner) | WIDE, 0x60004);
	receiver(sim, p.owner, p.s, open, n, open + lat(p.owner), 0x50000);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	h = first(sim, IPUXCOM_XSIM_H_MISALIGNED);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(p.s, h->tile);
	ipuxcom_xsim_reset(sim, 0, NULL);
	sender(sim, p.s, start, n, ixt_dir_of(p.s, p.owner) | WIDE, 0x60000);
	receiver(sim, p.owner, p.s, open, n, open + lat(p.owner), 0x50004);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
	h = first(sim, IPUXCOM_XSIM_H_MISALIGNED);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(p.owner, h->tile);
	ipuxcom_xsim_free(sim);
}

/* --------------------------------------------------------- SRAM elements */

/*
 * Tile a sends 8 words from 0x60000 while its own receive writes land:
 * in the send's memory element in the same events a note; in another
 * element nothing. Writes into the element of the tile's code (address
 * given) are an error; into another element not.
 */
TEST(sram_element_contention)
{
	struct ipuxcom_xsim *sim = mksim();
	const uint32_t a = 1000, s2 = 1300;
	/* a sends at 1..8 and its mux takes s2's words so that they are written at 1..8 */
	uint32_t open = 1 + 200, wr = open + lat(a);
	uint32_t aw[7];
	struct ipuxcom_xsim_result r = IPUXCOM_XSIM_RESULT_INIT;
	const struct ipuxcom_xsim_hazard *h;
	int p;

	ASSERT_NE(NULL, sim);
	ASSERT_GE((int)open - ixt_ttm(s2, a), 1);
	/* a: send 8 words at 200 + lat .. (lines up with its writes) */
	for (int round = 0; round < 4; round++) {
		uint32_t base = round == 1 ? 0x70000 : 0x60100;	/* element 5 vs 9 */

		ipuxcom_xsim_reset(sim, 0, NULL);
		aw[0] = SYNC3;
		aw[1] = DELAYXPIC(open, s2);
		aw[2] = DELAYXPIC(7, OFF);			/* window [open, open + 8) */
		aw[3] = DELAYPIC(wr - (open + 8) - 1, 0);	/* PIC at wr */
		aw[4] = SEND(7, 0, 3);				/* events wr + 1 .. */
		aw[5] = DELAY(20);
		aw[6] = BR10;
		p = ixt_xsim_add(sim, a, aw, 7, base, 0x60000);
		sender(sim, s2, open - (uint32_t)ixt_ttm(s2, a), 8, ixt_dir_of(s2, a), 0x60000);
		if (round >= 2)
			ASSERT_EQ(0, ipuxcom_xsim_set_code_addr(sim, p, round == 2 ? 0x60800 : 0x54000,
								NULL));
		ASSERT_EQ(0, ipuxcom_xsim_run(sim, &r, NULL));
		EXPECT_EQ(8u, r.words_written);
		h = first(sim, IPUXCOM_XSIM_N_SRAM_CONTENTION);
		if (round == 1) {
			EXPECT_EQ(NULL, h);
		} else {
			ASSERT_NE(NULL, h);
			EXPECT_EQ(IPUXCOM_XSIM_NOTE, h->severity);
			EXPECT_EQ(a, h->tile);
			EXPECT_EQ((int32_t)(wr + 1), h->event);
			EXPECT_EQ(7u, h->occurrences);	/* events wr + 1 .. wr + 7 */
		}
		h = first(sim, IPUXCOM_XSIM_H_SRAM_FETCH);
		if (round == 2) {
			/* code at 0x60800: the element of the writes and of the send */
			ASSERT_NE(NULL, h);
			EXPECT_EQ(IPUXCOM_XSIM_ERROR, h->severity);
			EXPECT_EQ(2u, ipuxcom_xsim_count(sim, IPUXCOM_XSIM_H_SRAM_FETCH));
		} else {
			EXPECT_EQ(NULL, h);
		}
	}
	EXPECT_STREQ("sram-contention", ipuxcom_xsim_kind_name(IPUXCOM_XSIM_N_SRAM_CONTENTION));
	EXPECT_STREQ("sram-fetch", ipuxcom_xsim_kind_name(IPUXCOM_XSIM_H_SRAM_FETCH));
	EXPECT_STREQ("pair-conflict", ipuxcom_xsim_kind_name(IPUXCOM_XSIM_H_PAIR_CONFLICT));
	ipuxcom_xsim_free(sim);
}

TEST_HARNESS_MAIN
