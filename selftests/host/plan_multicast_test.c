// SPDX-License-Identifier: GPL-2.0-only
/*
 * Proper multicast (libuser/src/plan_multicast.c) against the seed notes'
 * "Proper Multicast": the placement-differential golden words (a moved
 * destination changes only its delaypic word, 0x61814048 -> 0x6181404c; a
 * moved source adds four to the send's word address), the t/start/
 * sendDelay/recvTime rules, scheduleOffset, the p2p receive schedule with
 * the 0x14000 flag, the notes' hardware-validated receiver sets, and every
 * rejection with its own code and a message naming the field.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <string.h>

#include <ipuxcom_plan.h>

#include "../../libuser/src/plan_internal.h"

#define MAXR IPUXCOM_TILES

struct mc {
	uint32_t recv[MAXR], dst[MAXR];
	struct ipuxcom_plan_row rows[MAXR + 1];
	struct ipuxcom_multicast_info info;
	struct ipuxcom_plan_error e;
	struct ipuxcom_fanout_req req;
};

static struct mc *mc_new(uint32_t sender, uint32_t count, uint32_t src)
{
	struct mc *m = calloc(1, sizeof(*m));

	if (m) {
		m->info = (struct ipuxcom_multicast_info)IPUXCOM_MULTICAST_INFO_INIT;
		m->req = (struct ipuxcom_fanout_req){ .size = sizeof(struct ipuxcom_fanout_req),
			.flags = IPUXCOM_PLAN_PHYSICAL, .sender = sender, .count = count,
			.receivers = m->recv, .dst_addr = m->dst, .src_addr = src };
	}
	return m;
}

static void mc_add(struct mc *m, uint32_t r, uint32_t dst)
{
	m->recv[m->req.nrecv] = r;
	m->dst[m->req.nrecv++] = dst;
}

static int mc_plan(struct mc *m)
{
	return ipuxcom_plan_multicast(NULL, &m->req, m->rows, m->req.nrecv + 1, &m->info, &m->e);
}

/* ------------------------------------------------------------ golden [S] */

/* A 3-word multicast into a physical-row-0 receiver at 0x50120, then 0x50130. */
TEST(moving_a_destination_changes_only_its_delaypic_word)
{
	struct mc *a = mc_new(1000, 3, 0x60000), *b = mc_new(1000, 3, 0x60000);

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	mc_add(a, 700, 0x50200);
	mc_add(a, 5, 0x50120);		/* physical 5: row 0 */
	mc_add(b, 700, 0x50200);
	mc_add(b, 5, 0x50130);
	ASSERT_EQ(0, mc_plan(a)) TH_LOG("%s", a->e.msg);
	ASSERT_EQ(0, mc_plan(b)) TH_LOG("%s", b->e.msg);
	EXPECT_EQ(4, a->rows[2].addr);
	EXPECT_EQ(0x61814048u, a->rows[2].words[4]);
	EXPECT_EQ(0x6181404cu, b->rows[2].words[4]);
	for (unsigned int r = 0; r < 3; r++) {
		for (unsigned int i = 0; i < IPUXCOM_ROW_WORDS; i++) {
			if (r == 2 && i == 4)
				continue;
			EXPECT_EQ(a->rows[r].words[i], b->rows[r].words[i]) TH_LOG("row %u word %u", r, i);
		}
	}
	free(a);
	free(b);
}

TEST(moving_the_source_adds_four_to_its_word_address)
{
	struct mc *a = mc_new(1000, 3, 0x60000), *b = mc_new(1000, 3, 0x60010);
	struct ipuxcom_insn x, y;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	mc_add(a, 5, 0x50120);
	mc_add(b, 5, 0x50120);
	ASSERT_EQ(0, mc_plan(a));
	ASSERT_EQ(0, mc_plan(b));
	ASSERT_GE(a->rows[0].addr, 1);
	ipuxcom_decode(a->rows[0].words[a->rows[0].addr], &x);
	ipuxcom_decode(b->rows[0].words[b->rows[0].addr], &y);
	ASSERT_EQ(IPUXCOM_OP_SEND, x.op);
	EXPECT_EQ(0x60000u / 4, x.b);		/* source field = byte address / 4 */
	EXPECT_EQ(x.b + 4, y.b);
	EXPECT_EQ(x.a, y.a);
	EXPECT_EQ(3u, x.c);			/* mode 3 */
	/* ...and nothing else: route timing does not change [S]. */
	for (unsigned int r = 0; r < 2; r++) {
		for (unsigned int i = 0; i < IPUXCOM_ROW_WORDS; i++) {
			if (r == 0 && (int)i == a->rows[0].addr)
				continue;
			EXPECT_EQ(a->rows[r].words[i], b->rows[r].words[i]);
		}
	}
	free(a);
	free(b);
}

/* --------------------------------------------------------- schedule [S] */

/* t[i], start, sendDelay and recvTime[i] recomputed from TimeToMux. */
static void check_rules(struct __test_metadata *_metadata, const struct mc *m, uint32_t offset)
{
	int min_t = 1000, max_t = -1000, start, t;
	struct ixc_walk sw;

	for (uint32_t i = 0; i < m->req.nrecv; i++) {
		ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, m->req.sender, m->recv[i], &t, NULL));
		min_t = t < min_t ? t : min_t;
		max_t = t > max_t ? t : max_t;
	}
	start = min_t < 0 ? -min_t : 0;
	EXPECT_EQ(min_t, m->info.min_t);
	EXPECT_EQ(max_t, m->info.max_t);
	EXPECT_EQ((uint32_t)start, m->info.start);
	EXPECT_EQ(start + (int)offset - 1, m->info.send_delay);
	EXPECT_EQ((uint32_t)(start + (int)offset + max_t), m->info.max_recv_time);
	/* sender: sync 3; [delay(sendDelay)]; send(.., src/4, 3); [sendoff(.., 0, 3)]; br $m10 */
	EXPECT_EQ(0x41800003u, m->rows[0].words[0]);
	if (m->info.send_delay >= 0) {
		EXPECT_EQ(0x40a00000u | (uint32_t)m->info.send_delay, m->rows[0].words[1]);
		EXPECT_EQ(2, m->rows[0].addr);
	} else {
		EXPECT_EQ(1, m->rows[0].addr);
	}
	ixc_walk_row(m->rows[0].words, m->rows[0].nwords, false, &sw);
	ASSERT_TRUE(sw.ok);
	EXPECT_EQ(start + (int)offset, sw.send_start[0]);
	EXPECT_EQ(m->req.count > 64 ? 2u : 1u, sw.nsends);
	for (uint32_t k = 0; k < sw.nsends; k++)
		EXPECT_EQ(3u, sw.send_dir[k]);
	for (uint32_t i = 0; i < m->req.nrecv; i++) {
		const struct ipuxcom_plan_row *row = &m->rows[1 + i];
		struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
		struct ixc_walk rw;
		uint32_t recv_time, off = (m->dst[i] - 0x50000) / 4;

		ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, m->req.sender, m->recv[i], &t, NULL));
		recv_time = (uint32_t)(start + (int)offset + t);
		EXPECT_EQ(m->recv[i], row->tile);
		EXPECT_EQ((int32_t)recv_time, row->event);
		/* delayxpic(recvTime[i], 0, sourcePhysical) [S] */
		EXPECT_EQ(0x64000000u | recv_time << 14 | m->req.sender, row->words[2]);
		/* the p2p schedule, delaypic | 0x14000 | (dst - 0x50000) / 4 [S] */
		ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, m->req.sender, m->recv[i], m->req.count,
					      IPUXCOM_PLAN_PHYSICAL, &p,
					      NULL));
		for (unsigned int w = 3; w < IPUXCOM_ROW_WORDS; w++) {
			uint32_t want = p.recv.words[w];

			if ((int)w == row->addr)
				want |= IPUXCOM_MCAST_FLAG | off;
			EXPECT_EQ(want, row->words[w]) TH_LOG("receiver %u word %u", i, w);
		}
		EXPECT_EQ(0x41800003u, row->words[1]);
		EXPECT_EQ((uint32_t)row->addr - 1, row->words[0]);
		/* event model: the word sent at start + offset reaches this mux at recvTime */
		ixc_walk_row(row->words, row->nwords, true, &rw);
		ASSERT_TRUE(rw.ok);
		EXPECT_EQ(sw.send_start[0] + t, rw.mux_open);
		EXPECT_EQ(m->req.sender, rw.mux_src);
		EXPECT_EQ(IPUXCOM_MCAST_FLAG | off, rw.pic);
	}
}

TEST(start_and_send_delay_with_negative_times)
{
	struct mc *m = mc_new(0, 3, 0x50000);

	ASSERT_NE(NULL, m);
	/* TimeToMux(0, 9) and (0, 53) are negative: start = -min t > 0 */
	mc_add(m, 9, 0x50000);
	mc_add(m, 53, 0x50100);
	mc_add(m, 1400, 0x70000);
	ASSERT_EQ(0, mc_plan(m)) TH_LOG("%s", m->e.msg);
	ASSERT_LT(m->info.min_t, 0);
	check_rules(_metadata, m, 0);
	free(m);
}

TEST(all_nonnegative_times_send_at_event_0)
{
	struct mc *m = mc_new(32, 1024, 0x50000);	/* the notes' sender 736 */

	ASSERT_NE(NULL, m);
	mc_add(m, 0, 0x50000);
	mc_add(m, 64, 0x50000);
	ASSERT_EQ(0, mc_plan(m));
	ASSERT_GE(m->info.min_t, 0);
	EXPECT_EQ(-1, m->info.send_delay);	/* delay omitted */
	EXPECT_EQ(0x7fe00003u | (0x50000u / 4) << 3, m->rows[0].words[1]);
	check_rules(_metadata, m, 0);
	free(m);
}

TEST(schedule_offset_shifts_the_whole_stream)
{
	struct mc *a = mc_new(0, 4, 0x50000), *b = mc_new(0, 4, 0x50000);

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	for (uint32_t r = 100; r < 108; r++) {
		mc_add(a, r, 0x50000 + 16 * r);
		mc_add(b, r, 0x50000 + 16 * r);
	}
	b->req.schedule_offset = 256;	/* the notes' matmul interval */
	ASSERT_EQ(0, mc_plan(a));
	ASSERT_EQ(0, mc_plan(b));
	check_rules(_metadata, b, 256);
	EXPECT_EQ(a->info.send_delay + 256, b->info.send_delay);
	for (uint32_t i = 1; i <= 8; i++) {
		EXPECT_EQ(a->rows[i].event + 256, b->rows[i].event);
		for (unsigned int w = 3; w < IPUXCOM_ROW_WORDS; w++)
			EXPECT_EQ(a->rows[i].words[w], b->rows[i].words[w]);
	}
	free(a);
	free(b);
}

TEST(receive_rows_for_every_count_class)
{
	static const uint32_t counts[] = { 1, 3, 51, 52, 53, 64, 65, 512, 1024, 4148 };

	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		struct mc *m = mc_new(700, counts[c], 0x50000);

		ASSERT_NE(NULL, m);
		mc_add(m, 5, 0x50000);			/* row 0 */
		mc_add(m, 22 * 64 + 9, 0x70000);	/* row 22 */
		mc_add(m, 11 * 64, 0xd0000);		/* row 11 */
		ASSERT_EQ(0, mc_plan(m)) TH_LOG("count %u: %s", counts[c], m->e.msg);
		check_rules(_metadata, m, 0);
		free(m);
	}
}

/* The notes' hardware-validated sets [S]. */
TEST(notes_validated_receiver_sets)
{
	static const uint32_t logical[] = { 0, 2, 100, 274, 700, 900, 1000, 1286 };
	struct mc *m = mc_new(736, 1024, 0x50000);
	struct mc *big = mc_new(1471, 64, 0x50000);

	ASSERT_NE(NULL, m);
	ASSERT_NE(NULL, big);
	/* ./proper_multicast 736 1024 0 2 100 274 700 900 1000 1286 */
	m->req.flags = IPUXCOM_PLAN_LOGICAL;
	for (size_t i = 0; i < 8; i++)
		mc_add(m, logical[i], 0x50000);
	ASSERT_EQ(0, mc_plan(m)) TH_LOG("%s", m->e.msg);
	EXPECT_EQ(32, m->rows[0].tile);
	EXPECT_EQ(53, m->rows[8].tile);
	/* 64 receivers in one stream at 64 words */
	for (uint32_t r = 0; r < 64; r++)
		mc_add(big, r * 23, 0x50000);
	ASSERT_EQ(0, mc_plan(big)) TH_LOG("%s", big->e.msg);
	check_rules(_metadata, big, 0);
	free(m);
	free(big);
}

TEST(every_other_tile_receives)
{
	struct mc *m = mc_new(700, 16, 0x50000);

	ASSERT_NE(NULL, m);
	for (uint32_t r = 0; r < IPUXCOM_TILES; r++)
		if (r != 700)
			mc_add(m, r, 0x50000);
	ASSERT_EQ(1471, m->req.nrecv);
	ASSERT_EQ(0, mc_plan(m)) TH_LOG("%s", m->e.msg);
	EXPECT_LE(m->info.max_recv_time, 78 + 112);
	check_rules(_metadata, m, 0);
	free(m);
}

/* Accepted destination windows: where flag | offset == absolute word address. */
TEST(destination_windows)
{
	static const struct { uint32_t dst; int ok; } cases[] = {
		{ 0x50000, 1 }, { 0x5fffc, 1 }, { 0x60000, 0 }, { 0x6fffc, 0 },
		{ 0x70000, 1 }, { 0x7fffc, 1 }, { 0x80000, 0 }, { 0xcfffc, 0 },
		{ 0xd0000, 1 }, { 0xdfffc, 1 }, { 0xe0000, 0 }, { 0x4c000, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mc *m = mc_new(0, 1, 0x50000);

		ASSERT_NE(NULL, m);
		mc_add(m, 5, cases[i].dst);
		EXPECT_EQ(cases[i].ok ? 0 : -ERANGE, mc_plan(m)) TH_LOG("0x%x", cases[i].dst);
		if (cases[i].ok) {
			/* flag | offset is the absolute word address in the windows */
			EXPECT_EQ(cases[i].dst / 4, m->rows[1].words[m->rows[1].addr] & 0x3ffff);
		} else {
			EXPECT_EQ(IPUXCOM_PLAN_E_ADDR_FLAG, m->e.code);
		}
		free(m);
	}
}

/* ------------------------------------------------------------ rejections */

struct reject {
	const char *what;
	int err, code;
	const char *field, *msg;
};

static void expect_reject(struct __test_metadata *_metadata, struct mc *m,
			  const struct reject *r)
{
	EXPECT_EQ(r->err, mc_plan(m)) TH_LOG("%s", r->what);
	EXPECT_EQ(r->code, m->e.code) TH_LOG("%s", r->what);
	EXPECT_EQ(r->err, m->e.err);
	EXPECT_STREQ(r->field, m->e.field);
	EXPECT_STREQ(r->msg, m->e.msg);
}

#define REJECT_TEST(name, setup, ...)						\
TEST(name)									\
{										\
	static const struct reject r = { #name, __VA_ARGS__ };			\
	struct mc *m = mc_new(0, 3, 0x50000);					\
										\
	ASSERT_NE(NULL, m);							\
	mc_add(m, 5, 0x50000);							\
	mc_add(m, 6, 0x50000);							\
	setup;									\
	expect_reject(_metadata, m, &r);					\
	free(m);								\
}

REJECT_TEST(rejects_duplicate_receivers, mc_add(m, 5, 0x50000),
	    -EINVAL, IPUXCOM_PLAN_E_DUP, "receivers[2]", "receivers[2] 5 duplicates receivers[0]")
REJECT_TEST(rejects_the_sender_among_receivers, mc_add(m, 0, 0x50000),
	    -EINVAL, IPUXCOM_PLAN_E_SELF, "receivers[2]", "receivers[2] 0 is the sender")
REJECT_TEST(rejects_unaligned_source, m->req.src_addr = 0x50002,
	    -EINVAL, IPUXCOM_PLAN_E_ALIGN, "src_addr", "src_addr 0x50002 not 4-byte aligned")
REJECT_TEST(rejects_unaligned_destination, m->dst[1] = 0x50001,
	    -EINVAL, IPUXCOM_PLAN_E_ALIGN, "dst_addr[1]", "dst_addr[1] 0x50001 not 4-byte aligned")
REJECT_TEST(rejects_source_outside_sram, m->req.src_addr = 0x40000,
	    -ERANGE, IPUXCOM_PLAN_E_ADDR, "src_addr",
	    "src_addr 0x40000 + 3 words not inside tile SRAM 0x4c000..0xe7fff")
REJECT_TEST(rejects_source_running_past_sram, m->req.src_addr = 0xe7ff8,
	    -ERANGE, IPUXCOM_PLAN_E_ADDR, "src_addr",
	    "src_addr 0xe7ff8 + 3 words not inside tile SRAM 0x4c000..0xe7fff")
/* (A buffer starting in an accepted window always ends inside SRAM.) */
REJECT_TEST(rejects_destination_outside_sram, m->dst[0] = 0xf0000,
	    -ERANGE, IPUXCOM_PLAN_E_ADDR, "dst_addr[0]",
	    "dst_addr[0] 0xf0000 + 3 words not inside tile SRAM 0x4c000..0xe7fff")
REJECT_TEST(rejects_destination_below_the_base, m->dst[0] = 0x4c010,
	    -ERANGE, IPUXCOM_PLAN_E_ADDR_FLAG, "dst_addr[0]",
	    "dst_addr[0] 0x4c010 below the multicast destination base 0x50000")
REJECT_TEST(rejects_destination_overlapping_the_flag, m->dst[1] = 0x60000,
	    -ERANGE, IPUXCOM_PLAN_E_ADDR_FLAG, "dst_addr[1]",
	    "dst_addr[1] 0x60000: word offset 0x4000 overlaps the multicast flag 0x14000 "
	    "(inferred; use 0x50000-0x5ffff, 0x70000-0x7ffff, 0xd0000-0xdffff)")
/* TimeToMux(0, 5) = -24, (0, 6) = -27: start 27, latest receiver 5 at 3 + offset. */
REJECT_TEST(rejects_receive_cycle_overflowing_12_bits, m->req.schedule_offset = 4093,
	    -ERANGE, IPUXCOM_PLAN_E_SCHEDULE, "schedule_offset",
	    "receivers[0] (physical 5): receive cycle 4096 = start 27 + TimeToMux -24 + "
	    "schedule_offset 4093 does not fit delayxpic's 12 bits (max 4095)")

TEST(largest_schedule_offset_fits)
{
	struct mc *m = mc_new(0, 3, 0x50000);

	ASSERT_NE(NULL, m);
	mc_add(m, 5, 0x50000);
	mc_add(m, 6, 0x50000);
	m->req.schedule_offset = 4092;
	ASSERT_EQ(0, mc_plan(m)) TH_LOG("%s", m->e.msg);
	EXPECT_EQ(4095u, m->info.max_recv_time);
	EXPECT_EQ(0x67ffc000u, m->rows[1].words[2] & ~0x1fffu);	/* delayxpic 4095 */
	check_rules(_metadata, m, 4092);
	free(m);
}
REJECT_TEST(rejects_no_receivers, m->req.nrecv = 0,
	    -ERANGE, IPUXCOM_PLAN_E_NRECV, "nrecv", "nrecv 0 out of range 1..1471 (multicast)")
REJECT_TEST(rejects_too_many_receivers, m->req.nrecv = 1472,
	    -ERANGE, IPUXCOM_PLAN_E_NRECV, "nrecv", "nrecv 1472 out of range 1..1471 (multicast)")
REJECT_TEST(rejects_count_4149, m->req.count = 4149,
	    -ERANGE, IPUXCOM_PLAN_E_COUNT, "count", "count 4149 out of range 1..4148")
REJECT_TEST(rejects_receiver_out_of_range, m->recv[1] = 1472,
	    -ERANGE, IPUXCOM_PLAN_E_TILE, "receivers[1]",
	    "receivers[1] 1472 out of range 0..1471 (physical)")
REJECT_TEST(rejects_sender_out_of_range, (m->req.sender = 3000, m->req.flags = 1),
	    -ERANGE, IPUXCOM_PLAN_E_TILE, "sender", "sender 3000 out of range 0..1471 (logical)")
REJECT_TEST(rejects_unknown_flags, m->req.flags = 0x10,
	    -EINVAL, IPUXCOM_PLAN_E_FLAGS, "flags", "flags 0x10 has unknown bits 0x10")
REJECT_TEST(rejects_missing_destinations, m->req.dst_addr = NULL,
	    -EINVAL, IPUXCOM_PLAN_E_NULL, "dst_addr",
	    "dst_addr is NULL: multicast needs a destination per receiver")
REJECT_TEST(rejects_missing_receivers, m->req.receivers = NULL,
	    -EINVAL, IPUXCOM_PLAN_E_NULL, "receivers", "receivers is NULL")

TEST(rejects_a_short_row_array)
{
	struct mc *m = mc_new(0, 3, 0x50000);

	ASSERT_NE(NULL, m);
	mc_add(m, 5, 0x50000);
	mc_add(m, 6, 0x50000);
	EXPECT_EQ(-ENOSPC, ipuxcom_plan_multicast(NULL, &m->req, m->rows, 2, NULL, &m->e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SPACE, m->e.code);
	EXPECT_STREQ("nrows 2 too small: need nrecv + 1 = 3", m->e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_multicast(NULL, &m->req, NULL, 3, NULL, &m->e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, m->e.code);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_multicast(NULL, NULL, m->rows, 3, NULL, &m->e));
	EXPECT_STREQ("req", m->e.field);
	free(m);
}

TEST_HARNESS_MAIN
