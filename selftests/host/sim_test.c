// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software C600 (sim/c600_sim.c) in userspace: the tile identity map
 * against the notes' formula and fixed points, the config-BAR register file,
 * and device reads of host memory. Also compiles the frozen uapi layout.
 */
#include "kselftest_harness.h"

#include "c600_sim.h"
#include "ipuxcom_abi_layout.h"

TEST(tile_map_is_a_permutation)
{
	static unsigned char seen[C600_TILES];

	memset(seen, 0, sizeof(seen));
	for (unsigned int t = 0; t < C600_TILES; t++) {
		unsigned int p = c600_logical_to_physical((u16)t);

		ASSERT_LT(p, C600_TILES) TH_LOG("logical %u -> %u", t, p);
		ASSERT_EQ(0, seen[p]) TH_LOG("physical %u hit twice", p);
		seen[p] = 1;
	}
}

/* Fixed points from the seed notes and the record (HW-TILE-MAP). */
TEST(tile_map_fixed_points)
{
	EXPECT_EQ(0, c600_logical_to_physical(0));
	EXPECT_EQ(2, c600_logical_to_physical(1));	/* lane 1: +2 */
	EXPECT_EQ(64, c600_logical_to_physical(2));	/* next row */
	/* HW-TILE-MAP-EXAMPLE: the formula gives logical 21 -> 642 and 20 -> 640, row 10 */
	EXPECT_EQ(642, c600_logical_to_physical(21));
	EXPECT_EQ(640, c600_logical_to_physical(20));
	/* block 1 runs bottom-up in column 1 */
	EXPECT_EQ(22 * 64 + 1, c600_logical_to_physical(46));
	EXPECT_EQ(1, c600_logical_to_physical(90));
	/* last logical tile: block 31, row reversed to 0, column 61 + lane 2 */
	EXPECT_EQ(63, c600_logical_to_physical(1471));
}

/* The two lanes of a pair share 64-bit exchange resources: ids XOR 2. */
TEST(tile_map_lane_pairs_xor_2)
{
	for (unsigned int t = 0; t < C600_TILES; t += 2)
		ASSERT_EQ(c600_logical_to_physical((u16)t) ^ 2,
			  c600_logical_to_physical((u16)(t + 1)));
}

FIXTURE(sim) {
	struct c600_sim *sim;
};

FIXTURE_SETUP(sim)
{
	self->sim = c600_sim_create();
	ASSERT_NE(NULL, self->sim);
}

FIXTURE_TEARDOWN(sim)
{
	c600_sim_destroy(self->sim);
}

TEST_F(sim, tiles_have_identity)
{
	for (unsigned int t = 0; t < C600_TILES; t++) {
		const struct c600_tile *tile = &self->sim->tile[t];

		ASSERT_EQ(t, tile->logical);
		ASSERT_EQ(tile->physical, tile->row * C600_PHYS_COLS + tile->column);
		ASSERT_LT(tile->row, C600_PHYS_ROWS);
		ASSERT_EQ(t, self->sim->logical_of[tile->physical]);
	}
}

TEST_F(sim, bar_reads_back_and_resets)
{
	u32 v = 1;

	ASSERT_EQ(0, c600_sim_bar_read(self->sim, 0x2068, &v));
	EXPECT_EQ(0, v);
	ASSERT_EQ(0, c600_sim_bar_write(self->sim, 0x2068, 0xabcd));
	ASSERT_EQ(0, c600_sim_bar_write(self->sim, 0x7fffc, 7));
	ASSERT_EQ(0, c600_sim_bar_read(self->sim, 0x2068, &v));
	EXPECT_EQ(0xabcd, v);
	ASSERT_EQ(0, c600_sim_bar_read(self->sim, 0x7fffc, &v));
	EXPECT_EQ(7, v);
	c600_sim_reset(self->sim);
	ASSERT_EQ(0, c600_sim_bar_read(self->sim, 0x2068, &v));
	EXPECT_EQ(0, v);
}

TEST_F(sim, bar_rejects_bad_offsets)
{
	static const u32 bad[] = { 1, 2, 3, 0x7fffe, 0x80000, 0xfffffffc };
	u32 v = 0x1234;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, c600_sim_bar_read(self->sim, bad[i], &v));
		EXPECT_EQ(-EINVAL, c600_sim_bar_write(self->sim, bad[i], 1));
	}
	EXPECT_EQ(0x1234, v);
}

TEST_F(sim, dma_reads_mapped_host_memory_only)
{
	static unsigned char host[8192], other[4096];
	unsigned char out[16];
	const u64 bus = 0x100000000ULL;

	for (size_t i = 0; i < sizeof(host); i++)
		host[i] = (unsigned char)(i * 7);
	ASSERT_EQ(0, c600_sim_host_map(self->sim, bus, host, sizeof(host)));
	ASSERT_EQ(0, c600_sim_dma_read(self->sim, bus + 100, out, sizeof(out)));
	EXPECT_EQ(0, memcmp(out, host + 100, sizeof(out)));
	/* the last byte is in, one past it is not */
	EXPECT_EQ(0, c600_sim_dma_read(self->sim, bus + sizeof(host) - 16, out, 16));
	EXPECT_EQ(-EFAULT, c600_sim_dma_read(self->sim, bus + sizeof(host) - 15, out, 16));
	EXPECT_EQ(-EFAULT, c600_sim_dma_read(self->sim, bus - 1, out, 1));
	EXPECT_EQ(-EFAULT, c600_sim_dma_read(self->sim, 0, out, 1));
	/* overlapping mappings are refused, adjacent ones accepted */
	EXPECT_EQ(-EEXIST, c600_sim_host_map(self->sim, bus + 4096, other, sizeof(other)));
	EXPECT_EQ(0, c600_sim_host_map(self->sim, bus + sizeof(host), other, sizeof(other)));
	EXPECT_EQ(-EINVAL, c600_sim_host_map(self->sim, ~0ULL - 10, other, sizeof(other)));
	EXPECT_EQ(0, c600_sim_host_unmap(self->sim, bus));
	EXPECT_EQ(-ENOENT, c600_sim_host_unmap(self->sim, bus));
	EXPECT_EQ(-EFAULT, c600_sim_dma_read(self->sim, bus, out, 1));
}

TEST_F(sim, host_map_capacity)
{
	static unsigned char page[4096];
	int i;

	for (i = 0; i < C600_SIM_MAX_HOST_REGIONS; i++)
		ASSERT_EQ(0, c600_sim_host_map(self->sim, (u64)i << 20, page, sizeof(page)));
	EXPECT_EQ(-ENOSPC, c600_sim_host_map(self->sim, (u64)i << 20, page, sizeof(page)));
}

/*
 * Commands are _IO(magic, nr), distinct, with no size or direction bits;
 * nr 0x08 (XBUF_ALLOC until uapi 3) is not reused.
 */
TEST(ioctl_numbers_follow_the_rules)
{
	static const struct { unsigned long cmd; unsigned int nr; } cmds[] = {
		{ IPUXCOM_IOC_INFO, 0x00 }, { IPUXCOM_IOC_ATTACH, 0x01 },
		{ IPUXCOM_IOC_DEV_QUERY, 0x02 }, { IPUXCOM_IOC_REG_READ, 0x03 },
		{ IPUXCOM_IOC_REG_WRITE, 0x04 }, { IPUXCOM_IOC_RESET, 0x05 },
		{ IPUXCOM_IOC_CFG_APPLY, 0x06 }, { IPUXCOM_IOC_AUTOLOAD, 0x07 },
		{ IPUXCOM_IOC_LOAD_BATCH, 0x09 }, { IPUXCOM_IOC_LOAD_FINISH, 0x0a },
		{ IPUXCOM_IOC_HSP_MARK, 0x0b }, { IPUXCOM_IOC_TDI_READ_REGS, 0x0c },
		{ IPUXCOM_IOC_TDI_EXEC, 0x0d }, { IPUXCOM_IOC_TDI_READ_SRAM, 0x0e },
		{ IPUXCOM_IOC_TDI_WRITE_SRAM, 0x0f }, { IPUXCOM_IOC_HOSTX_SETUP, 0x10 },
		{ IPUXCOM_IOC_HOSTX_CALL, 0x11 }, { IPUXCOM_IOC_EXCH_WRITE, 0x12 },
		{ IPUXCOM_IOC_BUF_ATTACH, 0x13 }, { IPUXCOM_IOC_BUF_DETACH, 0x14 },
	};
	const size_t n = sizeof(cmds) / sizeof(cmds[0]);

	for (size_t i = 0; i < n; i++) {
		EXPECT_EQ(IPUXCOM_IOC_MAGIC, _IOC_TYPE(cmds[i].cmd));
		EXPECT_EQ(_IOC_NONE, _IOC_DIR(cmds[i].cmd));
		EXPECT_EQ(0, _IOC_SIZE(cmds[i].cmd));
		EXPECT_EQ(cmds[i].nr, _IOC_NR(cmds[i].cmd));
		EXPECT_NE(0x08, _IOC_NR(cmds[i].cmd));
	}
}

TEST_HARNESS_MAIN
