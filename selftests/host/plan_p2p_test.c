// SPDX-License-Identifier: GPL-2.0-only
/*
 * Point-to-point plans (libuser/src/plan_p2p.c) against the seed notes'
 * "Recovered Plan Shape": the golden delaypic delays 50/70/72 for one-word
 * receives on physical rows 0/10/11, the shapes at counts 1, 51, 52, 53, 64,
 * 65 and 4148, rejection of 4149, 0 and sender == receiver, the
 * sync-boundary case, the fixed nine-word layout, and, over every ordered
 * pair, the schedule walked through the event model (modelled).
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom_plan.h>

#include "../../libuser/src/plan_internal.h"

/* Reference encoders: the notes' formulas [S]. */
#define DELAY(n)		(0x40a00000u | (n))
#define DELAYPIC(a, b, c)	(0x60000000u | (uint32_t)(a) << 19 | (uint32_t)(b) << 18 | (c))
#define DELAYXPIC(a, b, c)	(0x64000000u | (uint32_t)(a) << 14 | (uint32_t)(b) << 13 | (c))
#define SEND(a, b, d)		(0x78000000u | (uint32_t)(a) << 21 | (uint32_t)(b) << 3 | (d))
#define SENDOFF(a, b, d)	(0x70000000u | ((uint32_t)(a) & 0x3f) << 21 | \
				 ((uint32_t)(a) >> 6) << 14 | (uint32_t)(b) << 3 | (d))
#define SYNC3			0x41800003u
#define BR10			0x43a00000u

/* A receiver on physical row @row; sender physical 1000 (row 15). */
#define SENDER	1000u
static uint32_t on_row(uint32_t row)
{
	return row * 64 + 5;
}

static int plan(uint32_t s, uint32_t r, uint32_t count, struct ipuxcom_p2p_plan *p)
{
	return ipuxcom_plan_p2p(NULL, s, r, count, IPUXCOM_PLAN_PHYSICAL, p, NULL);
}

/* ------------------------------------------------------ golden values [S] */

TEST(one_word_receive_on_physical_row_0_delaypic_50)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;

	ASSERT_EQ(0, plan(SENDER, on_row(0), 1, &p));
	EXPECT_EQ(DELAYPIC(50, 0, 0), p.recv.words[4]);
	EXPECT_EQ(0x61900000u, p.recv.words[4]);
}

TEST(one_word_receive_on_physical_row_10_delaypic_70)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;

	ASSERT_EQ(0, plan(SENDER, on_row(10), 1, &p));
	EXPECT_EQ(DELAYPIC(70, 0, 0), p.recv.words[4]);
	EXPECT_EQ(0x62300000u, p.recv.words[4]);
	/* logical 21 -> 20 of the notes' validation is physical 642 -> 640, row 10 */
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 21, 20, 1, IPUXCOM_PLAN_LOGICAL, &p, NULL));
	EXPECT_EQ(640, p.recv.tile);
	EXPECT_EQ(DELAYPIC(70, 0, 0), p.recv.words[4]);
}

TEST(one_word_receive_on_physical_row_11_delaypic_72)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;

	ASSERT_EQ(0, plan(SENDER, on_row(11), 1, &p));
	EXPECT_EQ(DELAYPIC(72, 0, 0), p.recv.words[4]);
	EXPECT_EQ(0x62400000u, p.recv.words[4]);
}

/* ------------------------------------------------------------ counts [S] */

/* The receiver row around its schedule: index 1, sync 3, 0x641c0000 ... br, 0, 0. */
static void check_frame(struct __test_metadata *_metadata, const struct ipuxcom_p2p_plan *p)
{
	EXPECT_EQ(1u, p->recv.words[0]);
	EXPECT_EQ(SYNC3, p->recv.words[1]);
	EXPECT_EQ(0x641c0000u, p->recv.words[2]);
	EXPECT_EQ(BR10, p->recv.words[6]);
	EXPECT_EQ(0u, p->recv.words[7]);
	EXPECT_EQ(0u, p->recv.words[8]);
	EXPECT_EQ(7, p->recv.nwords);
	EXPECT_EQ(2, p->recv.patch);
	EXPECT_EQ(SYNC3, p->send.words[0]);
}

/* Sender words after sync (and delay): send [sendoff] br, then zeros. */
static void check_sender(struct __test_metadata *_metadata, const struct ipuxcom_p2p_plan *p,
			 uint32_t count)
{
	unsigned int i = p->sync_boundary ? 1 : 2;

	EXPECT_EQ(DELAY((uint32_t)(111 - p->time_to_mux)), p->sync_boundary ? 0 : p->send.words[1]);
	EXPECT_EQ(SEND((count < 64 ? count : 64) - 1, 0, p->direction), p->send.words[i++]);
	if (count > 64)
		EXPECT_EQ(SENDOFF(count - 65, 0, p->direction), p->send.words[i++]);
	EXPECT_EQ(BR10, p->send.words[i++]);
	EXPECT_EQ(i, p->send.nwords);
	for (; i < IPUXCOM_ROW_WORDS; i++)
		EXPECT_EQ(0u, p->send.words[i]);
}

TEST(count_1_keeps_the_delayxpic)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	uint32_t r = 7;

	ASSERT_EQ(0, plan(SENDER, on_row(r), 1, &p));
	check_frame(_metadata, &p);
	check_sender(_metadata, &p, 1);
	/* Its zero delay still advances one event and restores the 0x640 mux [S]. */
	EXPECT_EQ(DELAYXPIC(0, 0, 0x640), p.recv.words[3]);
	EXPECT_EQ(0x64000640u, p.recv.words[3]);
	EXPECT_EQ(DELAYPIC(50 + 2 * r, 0, 0), p.recv.words[4]);
	EXPECT_EQ(DELAY(5), p.recv.words[5]);
}

TEST(count_51_last_short_shape)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	uint32_t r = 3;

	ASSERT_EQ(0, plan(SENDER, on_row(r), 51, &p));
	check_frame(_metadata, &p);
	check_sender(_metadata, &p, 51);
	EXPECT_EQ(DELAYXPIC(50, 0, 0x640), p.recv.words[3]);
	EXPECT_EQ(DELAYPIC(0 + 2 * r, 0, 0), p.recv.words[4]);
	EXPECT_EQ(DELAY(55), p.recv.words[5]);
}

TEST(count_52_address_independent_sequence)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	uint32_t r = 4;

	ASSERT_EQ(0, plan(SENDER, on_row(r), 52, &p));
	check_frame(_metadata, &p);
	check_sender(_metadata, &p, 52);
	/* delaypic(50 + 2r); delayxpic(0, 0, 0x640) instead of the SDK's bundle [S] */
	EXPECT_EQ(DELAYPIC(50 + 2 * r, 0, 0), p.recv.words[3]);
	EXPECT_EQ(DELAYXPIC(0, 0, 0x640), p.recv.words[4]);
	EXPECT_EQ(DELAY(56), p.recv.words[5]);
}

TEST(count_53_reordered_shape)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	uint32_t r = 22;

	ASSERT_EQ(0, plan(SENDER, on_row(r), 53, &p));
	check_frame(_metadata, &p);
	check_sender(_metadata, &p, 53);
	EXPECT_EQ(DELAYPIC(51 + 2 * r, 0, 0), p.recv.words[3]);
	EXPECT_EQ(DELAYXPIC(0, 0, 0x640), p.recv.words[4]);
	EXPECT_EQ(DELAY(56), p.recv.words[5]);
}

TEST(count_64_single_send)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;

	ASSERT_EQ(0, plan(SENDER, on_row(0), 64, &p));
	check_frame(_metadata, &p);
	check_sender(_metadata, &p, 64);
	EXPECT_EQ(SEND(63, 0, p.direction), p.send.words[2]);
	EXPECT_EQ(BR10, p.send.words[3]);
	EXPECT_EQ(DELAYPIC(51, 0, 0), p.recv.words[3]);
	EXPECT_EQ(DELAYXPIC(11, 0, 0x640), p.recv.words[4]);
}

TEST(count_65_send_plus_sendoff)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;

	ASSERT_EQ(0, plan(SENDER, on_row(1), 65, &p));
	check_frame(_metadata, &p);
	check_sender(_metadata, &p, 65);
	EXPECT_EQ(SEND(63, 0, p.direction), p.send.words[2]);
	EXPECT_EQ(SENDOFF(0, 0, p.direction), p.send.words[3]);
	EXPECT_EQ(DELAYXPIC(12, 0, 0x640), p.recv.words[4]);
}

TEST(count_4148_maximum)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;

	ASSERT_EQ(0, plan(SENDER, on_row(22), 4148, &p));
	check_frame(_metadata, &p);
	check_sender(_metadata, &p, 4148);
	EXPECT_EQ(SENDOFF(4083, 0, p.direction), p.send.words[3]);
	/* count - 53 = 4095: the 12-bit delayxpic field is what bounds the count */
	EXPECT_EQ(DELAYXPIC(4095, 0, 0x640), p.recv.words[4]);
	EXPECT_EQ(DELAYPIC(51 + 44, 0, 0), p.recv.words[3]);
}

TEST(count_4149_rejected)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-ERANGE, ipuxcom_plan_p2p(NULL, SENDER, 5, 4149, IPUXCOM_PLAN_PHYSICAL, &p, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_COUNT, e.code);
	EXPECT_EQ(-ERANGE, e.err);
	EXPECT_STREQ("count", e.field);
	EXPECT_STREQ("count 4149 out of range 1..4148", e.msg);
}

TEST(count_0_rejected)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-ERANGE, ipuxcom_plan_p2p(NULL, SENDER, 5, 0, IPUXCOM_PLAN_PHYSICAL, &p, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_COUNT, e.code);
	EXPECT_STREQ("count 0 out of range 1..4148", e.msg);
}

TEST(sender_equal_to_receiver_rejected)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-EINVAL, ipuxcom_plan_p2p(NULL, 5, 5, 3, IPUXCOM_PLAN_PHYSICAL, &p, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SELF, e.code);
	EXPECT_STREQ("receiver", e.field);
	EXPECT_STREQ("receiver 5 is the sender (physical 5)", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_p2p(NULL, 1286, 1286, 3, IPUXCOM_PLAN_LOGICAL, &p, &e));
	EXPECT_STREQ("receiver 1286 is the sender (physical 53)", e.msg);
}

TEST(other_rejections_name_their_field)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-ERANGE, ipuxcom_plan_p2p(NULL, 1472, 5, 3, IPUXCOM_PLAN_PHYSICAL, &p, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_TILE, e.code);
	EXPECT_STREQ("sender 1472 out of range 0..1471 (physical)", e.msg);
	EXPECT_EQ(-ERANGE, ipuxcom_plan_p2p(NULL, 5, 9999, 3, IPUXCOM_PLAN_LOGICAL, &p, &e));
	EXPECT_STREQ("receiver", e.field);
	EXPECT_STREQ("receiver 9999 out of range 0..1471 (logical)", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_p2p(NULL, 0, 5, 3, 2, &p, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e.code);
	EXPECT_STREQ("flags 0x2 has unknown bits 0x2", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_p2p(NULL, 0, 5, 3, IPUXCOM_PLAN_PHYSICAL, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_p2p(NULL, 0, 5, 3, IPUXCOM_PLAN_PHYSICAL, NULL, NULL));
}

/* ------------------------------------------------------ sync boundary [S] */

TEST(sync_boundary_omits_the_leading_delay)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ixc_walk sw, rw;

	/* TimeToMux(1440, 0) = 112: the send is the first event after sync. */
	ASSERT_EQ(0, plan(1440, 0, 100, &p));
	EXPECT_EQ(112, p.time_to_mux);
	EXPECT_EQ(1, p.sync_boundary);
	EXPECT_EQ(SYNC3, p.send.words[0]);
	EXPECT_EQ(SEND(63, 0, p.direction), p.send.words[1]);
	EXPECT_EQ(SENDOFF(35, 0, p.direction), p.send.words[2]);
	EXPECT_EQ(BR10, p.send.words[3]);
	EXPECT_EQ(4, p.send.nwords);
	EXPECT_EQ(0, p.send.event);
	/* Arrival timing kept: first word at the receiver's mux at event 112. */
	ixc_walk_row(p.send.words, p.send.nwords, false, &sw);
	ixc_walk_row(p.recv.words, p.recv.nwords, true, &rw);
	ASSERT_TRUE(sw.ok);
	EXPECT_EQ(0, sw.send_start[0]);
	EXPECT_EQ(112, sw.send_start[0] + p.time_to_mux);
	EXPECT_EQ(112, rw.mux_open);
	/* Any other route keeps its delay. */
	ASSERT_EQ(0, plan(1441, 0, 100, &p));
	EXPECT_EQ(0, p.sync_boundary);
	EXPECT_EQ(DELAY((uint32_t)(111 - p.time_to_mux)), p.send.words[1]);
}

/* ---------------------------------------------------------------- layout */

TEST(logical_and_physical_ids_give_the_same_plan)
{
	struct ipuxcom_p2p_plan a = IPUXCOM_P2P_PLAN_INIT, b = IPUXCOM_P2P_PLAN_INIT;

	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 0, 1286, 3, IPUXCOM_PLAN_LOGICAL, &a, NULL));
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 0, 53, 3, IPUXCOM_PLAN_PHYSICAL, &b, NULL));
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	EXPECT_EQ(53, a.recv.tile);
	EXPECT_EQ(0, a.send.tile);
	EXPECT_EQ(IPUXCOM_ROLE_SEND, a.send.role);
	EXPECT_EQ(IPUXCOM_ROLE_RECV, a.recv.role);
	EXPECT_EQ(-1, a.send.patch);
	EXPECT_EQ(-1, a.send.addr);
	EXPECT_EQ(-1, a.recv.addr);
}

/*
 * Every ordered pair, with counts cycling through 1..4148: each word is the
 * notes' shape, every emitted word decodes, and the event model (modelled,
 * [RE]) agrees: the first word sent at event 112 - T reaches the mux that
 * opens at event 112; the mux stays open count events, plus 2 * row at
 * counts >= 52 (the notes' open question); the write pointer is set at the
 * first write, 52 + 2 * row events after the mux opened, one event earlier
 * at count 52.
 */
TEST(all_pairs_follow_the_shape_and_the_event_model)
{
	uint32_t k = 0;

	for (uint32_t s = 0; s < IPUXCOM_TILES; s++) {
		for (uint32_t r = 0; r < IPUXCOM_TILES; r++) {
			struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
			struct ixc_walk sw, rw;
			uint32_t count, row = r / 64, sent = 0;
			int32_t open_for;

			if (s == r)
				continue;
			count = 1 + (k++ * 7919) % IPUXCOM_PLAN_MAX_COUNT;
			ASSERT_EQ(0, plan(s, r, count, &p));
			ixc_walk_row(p.send.words, p.send.nwords, false, &sw);
			ixc_walk_row(p.recv.words, p.recv.nwords, true, &rw);
			ASSERT_TRUE(sw.ok && rw.ok) TH_LOG("%u -> %u", s, r);
			for (uint32_t i = 0; i < sw.nsends; i++) {
				sent += sw.send_words[i];
				ASSERT_EQ(p.direction, sw.send_dir[i]);
				ASSERT_EQ(sw.send_start[0] + (int32_t)(sent - sw.send_words[i]),
					  sw.send_start[i]);
			}
			ASSERT_EQ(count, sent);
			ASSERT_EQ(112, rw.mux_open);
			ASSERT_EQ(112, sw.send_start[0] + p.time_to_mux) TH_LOG("%u -> %u", s, r);
			ASSERT_EQ(p.send.event, sw.send_start[0]);
			ASSERT_EQ(p.recv.event, rw.mux_open);
			open_for = rw.mux_close - rw.mux_open;
			ASSERT_EQ((int32_t)count + (count >= 52 ? 2 * (int32_t)row : 0), open_for)
				TH_LOG("%u -> %u count %u", s, r, count);
			ASSERT_EQ(rw.mux_open + 52 + 2 * (int32_t)row - (count == 52),
				  rw.pic_event) TH_LOG("%u -> %u count %u", s, r, count);
			ASSERT_EQ(0u, rw.pic);
			for (unsigned int i = 1; i < p.recv.nwords; i++) {
				struct ipuxcom_insn in;

				ipuxcom_decode(p.recv.words[i], &in);
				ASSERT_NE(IPUXCOM_OP_WORD, in.op);
			}
			for (unsigned int i = p.send.nwords; i < IPUXCOM_ROW_WORDS; i++) {
				ASSERT_EQ(0u, p.send.words[i]);
			}
		}
	}
}

/*
 * The default model's plan is assembled by its own path (ixc_p2p_default(),
 * TimeToMux through ixc_ttm64[][]); any other model's by ixc_p2p_rows().
 * Over every ordered pair, at counts covering each shape (1, 51, 52, 53,
 * 64, 65, 4148 and others), both give the same bytes but the model's kind
 * and name, with TimeToMux and direction those of ipuxcom_time_to_mux()
 * and ipuxcom_route_direction(), and the error struct cleared.
 */
TEST(default_path_equals_the_generic_path_for_every_pair)
{
	static const uint32_t counts[] = { 1, 51, 52, 53, 64, 65, 4148, 7, 200, 1024 };
	const size_t meta = offsetof(struct ipuxcom_p2p_plan, timing_kind);
	int16_t *m = malloc(sizeof(*m) * IPUXCOM_TILES * IPUXCOM_TILES);
	struct ipuxcom_timing *tm = NULL;
	uint32_t k = 0;

	ASSERT_NE(NULL, m);
	for (uint32_t s = 0; s < IPUXCOM_TILES; s++) {
		for (uint32_t r = 0; r < IPUXCOM_TILES; r++) {
			int t = 0;

			if (s != r)
				ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, s, r, &t, NULL));
			m[s * IPUXCOM_TILES + r] = (int16_t)t;
		}
	}
	ASSERT_EQ(0, ipuxcom_timing_from_table(m, NULL, "same", &tm, NULL));
	free(m);
	for (uint32_t s = 0; s < IPUXCOM_TILES; s++) {
		for (uint32_t r = 0; r < IPUXCOM_TILES; r++) {
			struct ipuxcom_p2p_plan a = IPUXCOM_P2P_PLAN_INIT, b = IPUXCOM_P2P_PLAN_INIT;
			struct ipuxcom_plan_error e;
			uint32_t count = counts[k++ % (sizeof(counts) / sizeof(counts[0]))];
			unsigned int dir = 0;
			int t = 0;

			if (s == r)
				continue;
			memset(&a, 0xa5, sizeof(a));
			memset(&b, 0x5a, sizeof(b));
			a.size = b.size = sizeof(a);
			memset(&e, 0x77, sizeof(e));
			ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, s, r, count, IPUXCOM_PLAN_PHYSICAL, &a,
						      &e));
			ASSERT_EQ(0, e.code);
			ASSERT_EQ(0, e.err);
			ASSERT_EQ(0, e.field[0]);
			ASSERT_EQ(0, e.msg[0]);
			ASSERT_EQ(0, ipuxcom_plan_p2p(tm, s, r, count, IPUXCOM_PLAN_PHYSICAL, &b,
						      NULL));
			ASSERT_EQ(0, memcmp(&a, &b, meta)) TH_LOG("%u -> %u count %u", s, r, count);
			ASSERT_EQ(IPUXCOM_TIMING_RECONSTRUCTION, a.timing_kind);
			ASSERT_STREQ("reconstruction", a.timing_model);
			ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, s, r, &t, NULL));
			ASSERT_EQ(0, ipuxcom_route_direction(NULL, s, r, &dir, NULL));
			ASSERT_EQ(t, a.time_to_mux) TH_LOG("%u -> %u", s, r);
			ASSERT_EQ(dir, a.direction) TH_LOG("%u -> %u", s, r);
		}
	}
	ipuxcom_timing_free(tm);
}

TEST_HARNESS_MAIN
