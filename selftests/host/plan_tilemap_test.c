// SPDX-License-Identifier: GPL-2.0-only
/*
 * libipuxcom tile map (libuser/src/tilemap.c): logical <-> physical for all
 * 1472 tiles, rows and columns, the XOR-2 pairing, the notes' fixed points,
 * agreement with the simulator's independent copy of the formula, and
 * rejection of out-of-range ids.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <string.h>

#include <ipuxcom_plan.h>

#include "c600_sim.h"

TEST(logical_to_physical_is_a_permutation)
{
	static unsigned char seen[IPUXCOM_TILES];

	memset(seen, 0, sizeof(seen));
	for (uint32_t l = 0; l < IPUXCOM_TILES; l++) {
		uint32_t p = ~0u;

		ASSERT_EQ(0, ipuxcom_tile_physical(l, &p));
		ASSERT_LT(p, IPUXCOM_TILES) TH_LOG("logical %u -> %u", l, p);
		ASSERT_EQ(0, seen[p]) TH_LOG("physical %u hit twice", p);
		seen[p] = 1;
	}
}

TEST(physical_to_logical_inverts_it)
{
	for (uint32_t l = 0; l < IPUXCOM_TILES; l++) {
		uint32_t p, back;

		ASSERT_EQ(0, ipuxcom_tile_physical(l, &p));
		ASSERT_EQ(0, ipuxcom_tile_logical(p, &back));
		ASSERT_EQ(l, back);
	}
	for (uint32_t p = 0; p < IPUXCOM_TILES; p++) {
		uint32_t l, back;

		ASSERT_EQ(0, ipuxcom_tile_logical(p, &l));
		ASSERT_EQ(0, ipuxcom_tile_physical(l, &back));
		ASSERT_EQ(p, back);
	}
}

/* Points fixed by the seed notes and the record (HW-TILE-MAP). */
TEST(fixed_points)
{
	static const struct { uint32_t l, p; } pts[] = {
		{ 0, 0 }, { 1, 2 }, { 2, 64 },
		/* HW-TILE-MAP-EXAMPLE: the formula gives logical 21 -> 642 and 20 -> 640 (row 10),
		 * not the seed's "682 -> 680"; the formula stands. */
		{ 20, 640 }, { 21, 642 },
		{ 46, 22 * 64 + 1 },	/* block 1 runs bottom-up in column 1 */
		{ 736, 32 }, { 1286, 53 }, { 274, 9 },
		{ 1471, 63 },		/* block 31, row 0, column 61 + lane 2 */
	};

	for (size_t i = 0; i < sizeof(pts) / sizeof(pts[0]); i++) {
		uint32_t p;

		ASSERT_EQ(0, ipuxcom_tile_physical(pts[i].l, &p));
		EXPECT_EQ(pts[i].p, p) TH_LOG("logical %u", pts[i].l);
	}
}

/* The simulator keeps its own copy of the formula; both must agree. */
TEST(matches_the_simulator)
{
	for (uint32_t l = 0; l < IPUXCOM_TILES; l++) {
		uint32_t p;

		ASSERT_EQ(0, ipuxcom_tile_physical(l, &p));
		ASSERT_EQ(c600_logical_to_physical((u16)l), p) TH_LOG("logical %u", l);
	}
}

TEST(rows_columns_and_xor2_pairs)
{
	unsigned int per_row[IPUXCOM_PHYS_ROWS] = { 0 };

	for (uint32_t l = 0; l < IPUXCOM_TILES; l++) {
		struct ipuxcom_tile t, pair;
		struct ipuxcom_plan_error e;

		ASSERT_EQ(0, ipuxcom_tile_info(l, IPUXCOM_PLAN_LOGICAL, &t, &e));
		ASSERT_EQ(IPUXCOM_PLAN_OK, e.code);
		ASSERT_EQ(l, t.logical);
		ASSERT_EQ(t.physical / 64, t.row);
		ASSERT_EQ(t.physical % 64, t.column);
		ASSERT_LT(t.row, IPUXCOM_PHYS_ROWS);
		per_row[t.row]++;
		/* The two lanes of a logical pair are physical ids XOR 2 [RE]. */
		ASSERT_EQ(t.physical ^ 2, t.pair_physical);
		ASSERT_EQ(l ^ 1, t.pair_logical);
		ASSERT_EQ(0, ipuxcom_tile_info(t.pair_physical, IPUXCOM_PLAN_PHYSICAL, &pair,
					       NULL));
		ASSERT_EQ(t.pair_logical, pair.logical);
		ASSERT_EQ(t.row, pair.row);
	}
	/* The harness's EXPECT_* with TH_LOG needs braces around it in a loop. */
	for (unsigned int row = 0; row < IPUXCOM_PHYS_ROWS; row++) {
		EXPECT_EQ(IPUXCOM_PHYS_COLS, per_row[row]) TH_LOG("row %u", row);
	}
}

TEST(rejects_out_of_range_ids)
{
	struct ipuxcom_plan_error e;
	struct ipuxcom_tile t;
	uint32_t v = 7;

	EXPECT_EQ(-ERANGE, ipuxcom_tile_physical(IPUXCOM_TILES, &v));
	EXPECT_EQ(-ERANGE, ipuxcom_tile_logical(IPUXCOM_TILES, &v));
	EXPECT_EQ(-ERANGE, ipuxcom_tile_logical(UINT32_MAX, &v));
	EXPECT_EQ(7, v);
	EXPECT_EQ(-EINVAL, ipuxcom_tile_physical(0, NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_tile_logical(0, NULL));

	EXPECT_EQ(-ERANGE, ipuxcom_tile_info(1472, IPUXCOM_PLAN_PHYSICAL, &t, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_TILE, e.code);
	EXPECT_EQ(-ERANGE, e.err);
	EXPECT_STREQ("tile", e.field);
	EXPECT_STREQ("tile 1472 out of range 0..1471 (physical)", e.msg);
	EXPECT_EQ(-ERANGE, ipuxcom_tile_info(5000, IPUXCOM_PLAN_LOGICAL, &t, &e));
	EXPECT_STREQ("tile 5000 out of range 0..1471 (logical)", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_tile_info(0, 0x80, &t, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e.code);
	EXPECT_STREQ("flags", e.field);
	EXPECT_EQ(-EINVAL, ipuxcom_tile_info(0, IPUXCOM_PLAN_PHYSICAL, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
	/* err may be NULL */
	EXPECT_EQ(-ERANGE, ipuxcom_tile_info(1472, IPUXCOM_PLAN_PHYSICAL, &t, NULL));
}

TEST_HARNESS_MAIN
