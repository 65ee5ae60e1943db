// SPDX-License-Identifier: GPL-2.0-only
/*
 * The notes' two demos in the exchange simulator (libuser/src/demo_*.c):
 * the all-tile parallel sum's exact result, 1084128 after 11 rounds with
 * 736 simultaneous transfers in round 1 [S], and the 4x4 matrix multiply's
 * C on 24 active tiles with 8 multicast streams of 4 words, equal to the
 * notes' printed C and to a direct multiplication, by the notes' stagger
 * and by the scheduler; every inactive tile runs the non-participation row
 * (the runs require a row on every tile). Also with a measured-table timing
 * model, to show the demos go through the timing interface.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom_xsim.h>

TEST(parallel_sum_is_1084128)
{
	static const uint32_t per_round[11] = { 736, 368, 184, 92, 46, 23, 11, 6, 3, 1, 1 };
	struct ipuxcom_demo_sum r = IPUXCOM_DEMO_SUM_INIT;
	struct ipuxcom_plan_error e;
	uint32_t total = 0;

	ASSERT_EQ(0, ipuxcom_demo_sum(NULL, &r, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(1472u, r.tiles);
	EXPECT_EQ(11u, r.rounds);
	EXPECT_EQ(1084128u, r.sum);
	EXPECT_EQ(1084128u, r.expected);
	EXPECT_EQ(1472ull * 1473 / 2, r.sum);
	for (int k = 0; k < 11; k++) {
		EXPECT_EQ(per_round[k], r.transfers[k]) TH_LOG("round %d", k + 1);
		EXPECT_GT(r.events[k], 112u);
		total += r.transfers[k];
	}
	EXPECT_EQ(1471u, total);	/* every tile but 0 sends once */
	EXPECT_EQ(0u, r.errors);
	EXPECT_EQ(0u, r.notes);		/* one-word plans: no extra window, no early PIC */
	EXPECT_TRUE(r.pass);
	EXPECT_STREQ("reconstruction", r.timing_model);
}

TEST(matmul_reproduces_the_notes_c)
{
	static const int32_t notes_c[4][4] = {
		{ 4, 24, 9, 14 }, { 20, 48, 25, 38 }, { -12, 14, 3, 0 }, { 22, 10, 8, 31 },
	};
	struct ipuxcom_demo_matmul m = IPUXCOM_DEMO_MATMUL_INIT, p = IPUXCOM_DEMO_MATMUL_INIT;
	struct ipuxcom_plan_error e;
	int32_t direct[4][4] = { { 0 } };

	ASSERT_EQ(0, ipuxcom_demo_matmul(NULL, 0, &m, &e)) TH_LOG("%s", e.msg);
	/* C by direct multiplication of the inputs used */
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			for (int k = 0; k < 4; k++)
				direct[i][j] += m.a[i][k] * m.b[k][j];
	EXPECT_EQ(0, memcmp(direct, notes_c, sizeof(direct)));
	EXPECT_EQ(0, memcmp(m.expected, notes_c, sizeof(notes_c)));
	EXPECT_EQ(0, memcmp(m.c, notes_c, sizeof(notes_c)));
	EXPECT_TRUE(m.matches_notes);
	EXPECT_TRUE(m.pass);
	EXPECT_EQ(0u, m.errors);
	EXPECT_EQ(24u, m.active_tiles);
	EXPECT_EQ(8u, m.streams);
	EXPECT_EQ(4u, m.words_per_stream);
	EXPECT_EQ(m.stagger_events, m.events);
	/* the notes' stagger: 7 x 256 events before the last stream */
	EXPECT_GT(m.stagger_events, 7u * 256);
	/* the scheduler's phase: the target is at most half the stagger */
	EXPECT_LE(2 * m.packed_events, m.stagger_events);
	ASSERT_EQ(0, ipuxcom_demo_matmul(NULL, IPUXCOM_DEMO_PACKED, &p, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(0, memcmp(p.c, notes_c, sizeof(notes_c)));
	EXPECT_EQ(p.packed_events, p.events);
	EXPECT_EQ(m.packed_events, p.packed_events);
	EXPECT_TRUE(p.pass);
	TH_LOG("phase: stagger %u events, packed %u (%.1f%%)", m.stagger_events, m.packed_events,
	       100.0 * m.packed_events / m.stagger_events);
	EXPECT_EQ(-EINVAL, ipuxcom_demo_matmul(NULL, 4, &p, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e.code);
	EXPECT_EQ(-EINVAL, ipuxcom_demo_sum(NULL, NULL, &e));
}

/* The demos through a table model equal to the reconstruction: same results, its name. */
TEST(demos_use_the_timing_model_interface)
{
	int16_t *t = malloc(sizeof(*t) * IPUXCOM_TILES * IPUXCOM_TILES);
	struct ipuxcom_timing *tm = NULL;
	struct ipuxcom_demo_sum s = IPUXCOM_DEMO_SUM_INIT;
	struct ipuxcom_demo_matmul m = IPUXCOM_DEMO_MATMUL_INIT;

	ASSERT_NE(NULL, t);
	for (uint32_t a = 0; a < IPUXCOM_TILES; a++)
		for (uint32_t b = 0; b < IPUXCOM_TILES; b++) {
			int v = 0;

			if (a != b)
				ipuxcom_time_to_mux(NULL, a, b, &v, NULL);
			t[a * IPUXCOM_TILES + b] = (int16_t)v;
		}
	ASSERT_EQ(0, ipuxcom_timing_from_table(t, NULL, "copy", &tm, NULL));
	free(t);
	ASSERT_EQ(0, ipuxcom_demo_sum(tm, &s, NULL));
	EXPECT_EQ(1084128u, s.sum);
	EXPECT_TRUE(s.pass);
	EXPECT_STREQ("table:copy", s.timing_model);
	ASSERT_EQ(0, ipuxcom_demo_matmul(tm, 0, &m, NULL));
	EXPECT_TRUE(m.pass);
	EXPECT_STREQ("table:copy", m.timing_model);
	ipuxcom_timing_free(tm);
}

TEST_HARNESS_MAIN
