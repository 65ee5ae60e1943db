// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator as a judge of whole loads, driven at register level with
 * the hardware records' own orders rather than through the module:
 *
 *  - the order of the stack whose loader completed full 1472-tile loads on
 *    a C600 (HW-LOAD steps 2-8): HSP
 *    marks cleared, autoloader with a read-back every 32 words, HEXOPT
 *    before the buffer is attached, all 16 DCXCR armed then the 8
 *    primaries back to 0x2, 23 batches each on a zeroed buffer, the 0xff
 *    release and the start mark 23;
 *  - the seed's order ([S "Secondary Loader Frames"]): all 16
 *    controls armed, the config's marks replayed;
 *  - HSP marks written bare (the peer, the capture) or read-modify-write,
 *    over GS registers whose bits above MARK are set;
 *
 * both load every tile. What both records say fails (secondary controls not
 * armed, no descriptor table) and what the model refuses (a one-frame
 * application, counts below the 17 the records used) do not.
 */
#include "kselftest_harness.h"

#include "c600_sim.h"
#include "frames_testlib.h"
#include "c600_record.h"
#include "sim_drive.h"

#define BUF_BUS		0x100000000ull
#define FRAMES		17	/* 0x4134 bytes, the peer's minimum payload */
#define BATCH_BYTES	IXT_BATCH_BYTES(FRAMES)

FIXTURE(load) {
	struct c600_sim *sim;
	uint8_t *buf;
};

FIXTURE_SETUP(load)
{
	self->sim = c600_sim_create();
	ASSERT_NE(NULL, self->sim);
	self->buf = calloc(1, BATCH_BYTES);
	ASSERT_NE(NULL, self->buf);
	ASSERT_EQ(0, c600_sim_host_map(self->sim, BUF_BUS, self->buf, BATCH_BYTES));
}

FIXTURE_TEARDOWN(load)
{
	c600_sim_destroy(self->sim);
	free(self->buf);
}

enum order { PEER, SEED };

/*
 * How a mark is written: the bare mark, the whole register (the peer's
 * write_sync_mark and the capture's own GS records [RE]), or read-modify-
 * write of MARK alone. Set per test (each runs in its own process).
 */
static bool rmw_marks;

/* GS @off mark @m in the test's form, read back, then wait for MARK 0. */
static bool post(struct c600_sim *sim, uint32_t off, uint32_t m)
{
	wr(sim, off, rmw_marks ? (rd(sim, off) & ~0xffffu) | m : m);
	rd(sim, off);
	return wait_clear(sim, off, 0xffff);
}

/* Steps 4-5: HEXOPT, attach, controls, CCSR. */
static bool prepare(struct c600_sim *sim, enum order o)
{
	uint32_t saved;

	wr(sim, REC_EXCHWINDOWBASER, 0x800);
	rd(sim, REC_EXCHWINDOWBASER);
	if (c600_sim_buffer_attach(sim, 0, BUF_BUS, BATCH_BYTES))
		return false;
	saved = rd(sim, REC_CCSR);
	for (int i = 0; i < 8; i++) {
		wr(sim, REC_DCXCR_PRI(i), REC_DCXCR_LOADING);
		wr(sim, REC_DCXCR_SEC(i), REC_DCXCR_LOADING);
	}
	wr(sim, REC_CCSR, saved & ~0x402u);
	rd(sim, REC_CCSR);
	if (o == PEER)
		for (int i = 0; i < 8; i++)
			wr(sim, REC_DCXCR_PRI(i), 0x2);
	return true;
}

/* Step 6: the 23 batches; 0, or 1 + the batch that did not complete. */
static int load_batches(struct c600_sim *sim, uint8_t *buf, enum order o, uint32_t frames)
{
	if (!prepare(sim, o))
		return -1;
	for (uint32_t b = 0; b < 23; b++) {
		ixt_write_batch(buf, b, frames);
		if (!post(sim, REC_GS1, 1))
			return (int)b + 1;
	}
	return 0;
}

/* Steps 7-8: 0xff release, start mark 23, operational controls back. */
static bool release_and_start(struct c600_sim *sim, uint8_t *buf)
{
	memset(buf, 0xff, BATCH_BYTES);
	if (!wait_clear(sim, REC_GS1, 0xffff) || !post(sim, REC_GS1, 1) ||
	    !post(sim, REC_GS1, 23))
		return false;
	for (int i = 0; i < 8; i++) {
		wr(sim, REC_DCXCR_PRI(i), 0x2);
		wr(sim, REC_DCXCR_SEC(i), 0x0020820a);
	}
	return !c600_sim_buffer_detach(sim, 0);
}

/* @extra_mark1: mark-1 posts on GS1 outside the load (a replayed capture's). */
static void expect_loaded(struct __test_metadata *_metadata, struct c600_sim *sim,
			  uint32_t extra_mark1)
{
	static const uint16_t tiles[] = { 0, 63, 64, 700, 1409, 1471 };

	EXPECT_EQ(C600_PHASE_RUNNING, sim->phase);
	EXPECT_EQ(23, sim->stats.load_batches);
	EXPECT_EQ(24 + extra_mark1, sim->stats.mark1_transactions);
	EXPECT_EQ(1, sim->stats.start_marks);
	for (size_t t = 0; t < sizeof(tiles) / sizeof(tiles[0]); t++) {
		for (uint32_t i = 0; i < FRAMES * 248; i += 97) {
			uint8_t w[4];

			ASSERT_EQ(0, c600_sim_sram_read(sim, tiles[t], 0x4c010 + i * 4, w, 4));
			ASSERT_EQ(ixt_payload_word(tiles[t], i),
				  (uint32_t)w[0] | w[1] << 8 | w[2] << 16 | (uint32_t)w[3] << 24)
				TH_LOG("tile %u word %u", tiles[t], i);
		}
	}
}

/* HW-LOAD steps 2-8, end to end. */
TEST_F(load, peer_order_loads_every_tile)
{
	/* step 2: the capture without its HSP records, then both marks cleared */
	wr(self->sim, REC_GS1, 0);
	wr(self->sim, REC_GS2, 0);
	ASSERT_EQ(0, rd(self->sim, REC_GS1) & 0xffff);
	ASSERT_EQ(0, rd(self->sim, REC_GS2) & 0xffff);
	ASSERT_TRUE(autoload_as_recorded(self->sim));
	ASSERT_EQ(C600_PHASE_LOADER, self->sim->phase);
	ASSERT_EQ(0, load_batches(self->sim, self->buf, PEER, FRAMES));
	EXPECT_EQ(1, self->sim->stats.primaries_operational);
	EXPECT_EQ(0x800, self->sim->stats.loader_attach_window);
	ASSERT_TRUE(release_and_start(self->sim, self->buf));
	expect_loaded(_metadata, self->sim, 0);
	EXPECT_EQ(0, self->sim->stats.rejected_batches);
	EXPECT_EQ(32, self->sim->stats.autold_max_unflushed);
}

/*
 * HSP marks in both forms, over GS registers whose bits above MARK read
 * non-zero: the whole load, then the host-exchange handoff of [S "Host
 * Tensor Exchange"] (GS1 mark 1 releases the preloaded GS2 mark, GS2 = 1
 * posts load completion). MARK is bits 0-15 [S]; the bits above it are not
 * recorded: the model keeps them as written. Bare writes zero them (the
 * exact words a card then sees: 0x00000001, 0x00000017), read-modify-write
 * keeps them; both are answered.
 */
TEST_F(load, marks_bare_or_read_modify_write_both_load_and_hand_off)
{
	for (int form = 0; form < 2; form++) {
		const uint32_t hi1 = 0xa5a50000u, hi2 = 0x5a5a0000u;

		rmw_marks = form;
		if (form) {
			c600_sim_destroy(self->sim);
			self->sim = c600_sim_create();
			ASSERT_NE(NULL, self->sim);
			ASSERT_EQ(0, c600_sim_host_map(self->sim, BUF_BUS, self->buf,
						       BATCH_BYTES));
		}
		wr(self->sim, REC_GS1, hi1);
		wr(self->sim, REC_GS2, hi2);
		ASSERT_EQ(hi1, rd(self->sim, REC_GS1));
		ASSERT_TRUE(autoload_as_recorded(self->sim));
		ASSERT_EQ(0, load_batches(self->sim, self->buf, PEER, FRAMES))
			TH_LOG("form %s", form ? "rmw" : "bare");
		ASSERT_TRUE(release_and_start(self->sim, self->buf));
		expect_loaded(_metadata, self->sim, 0);
		EXPECT_EQ(form ? hi1 : 0, rd(self->sim, REC_GS1));
		/* the start preloads GS2's mark; GS1 mark 1 releases it */
		EXPECT_EQ(1, rd(self->sim, REC_GS2) & 0xffff);
		EXPECT_TRUE(post(self->sim, REC_GS1, 1));
		EXPECT_TRUE(wait_clear(self->sim, REC_GS2, 0xffff));
		EXPECT_EQ(hi2, rd(self->sim, REC_GS2));
		/* the load-completion mark on GS2 is answered too */
		EXPECT_TRUE(post(self->sim, REC_GS2, 1));
		EXPECT_EQ(C600_HX_CALLS, self->sim->hostx_stage);
		EXPECT_EQ(form ? hi2 : 0, rd(self->sim, REC_GS2));
	}
}

/* The seed's order: every control armed for the whole load, marks replayed. */
TEST_F(load, seed_order_loads_every_tile)
{
	/* the capture's last two records [HW-CFG-CAPTURE] */
	wr(self->sim, REC_GS2, 1);
	wr(self->sim, REC_GS1, 1);
	ASSERT_TRUE(autoload_as_recorded(self->sim));
	/* a GS1 mark left by the replay is still pending: nothing consumed it */
	ASSERT_EQ(1, rd(self->sim, REC_GS1) & 0xffff);
	wr(self->sim, REC_GS1, 0);
	ASSERT_EQ(0, load_batches(self->sim, self->buf, SEED, FRAMES));
	EXPECT_EQ(0, self->sim->stats.primaries_operational);
	ASSERT_TRUE(release_and_start(self->sim, self->buf));
	expect_loaded(_metadata, self->sim, 1);
	EXPECT_EQ(0, self->sim->stats.gs1_pending_at_batch);
}

/* A batch posted over the replay's pending GS1 mark is seen by the judge. */
TEST_F(load, pending_gs1_mark_at_batch_is_recorded)
{
	wr(self->sim, REC_GS1, 1);
	ASSERT_TRUE(autoload_as_recorded(self->sim));
	ASSERT_EQ(0, load_batches(self->sim, self->buf, SEED, FRAMES));
	EXPECT_EQ(1, self->sim->stats.gs1_pending_at_batch);
}

/* [S]: omitting the secondary controls gives incomplete synchronization. */
TEST_F(load, secondary_controls_not_armed_stall_batch_0)
{
	ASSERT_TRUE(autoload_as_recorded(self->sim));
	wr(self->sim, REC_EXCHWINDOWBASER, 0x800);
	ASSERT_EQ(0, c600_sim_buffer_attach(self->sim, 0, BUF_BUS, BATCH_BYTES));
	for (int i = 0; i < 8; i++)
		wr(self->sim, REC_DCXCR_PRI(i), REC_DCXCR_LOADING);
	ixt_write_batch(self->buf, 0, FRAMES);
	EXPECT_FALSE(mark(self->sim, 1));
	EXPECT_EQ(0, self->sim->stats.load_batches);
	/* one secondary missing is enough */
	for (int i = 0; i < 7; i++)
		wr(self->sim, REC_DCXCR_SEC(i), REC_DCXCR_LOADING);
	wr(self->sim, REC_GS1, 0);
	EXPECT_FALSE(mark(self->sim, 1));
	wr(self->sim, REC_DCXCR_SEC(7), REC_DCXCR_LOADING);
	wr(self->sim, REC_GS1, 0);
	EXPECT_TRUE(mark(self->sim, 1));
	EXPECT_EQ(1, self->sim->stats.load_batches);
}

/* [S]: omitting the descriptor table does not complete either. */
TEST_F(load, no_descriptor_table_stalls)
{
	ASSERT_TRUE(autoload_as_recorded(self->sim));
	ASSERT_TRUE(prepare(self->sim, PEER));
	ixt_write_batch(self->buf, 0, FRAMES);
	memset(self->buf, 0, 0x1000);
	EXPECT_FALSE(mark(self->sim, 1));
	EXPECT_EQ(0, self->sim->stats.load_batches);
	/* the same batch with its table loads */
	ixt_write_batch(self->buf, 0, FRAMES);
	wr(self->sim, REC_GS1, 0);
	EXPECT_TRUE(mark(self->sim, 1));
}

/* Primaries at a value neither record used are refused (modelled). */
TEST_F(load, unrecorded_primary_value_refused)
{
	ASSERT_TRUE(autoload_as_recorded(self->sim));
	ASSERT_EQ(0, c600_sim_buffer_attach(self->sim, 0, BUF_BUS, BATCH_BYTES));
	for (int i = 0; i < 8; i++) {
		wr(self->sim, REC_DCXCR_PRI(i), REC_DCXCR_LOADING);
		wr(self->sim, REC_DCXCR_SEC(i), REC_DCXCR_LOADING);
	}
	wr(self->sim, REC_DCXCR_PRI(3), 0x0020820a);	/* the secondary's operational word */
	ixt_write_batch(self->buf, 0, FRAMES);
	EXPECT_FALSE(mark(self->sim, 1));
}

/* 17..643 frames: 16 is below what any record used; 17 loads. */
TEST_F(load, frame_count_floor_is_17)
{
	ASSERT_TRUE(autoload_as_recorded(self->sim));
	EXPECT_EQ(1, load_batches(self->sim, self->buf, SEED, FRAMES - 1));
	EXPECT_EQ(1, self->sim->stats.rejected_batches);
	wr(self->sim, REC_GS1, 0);
	ixt_write_batch(self->buf, 0, FRAMES);
	EXPECT_TRUE(mark(self->sim, 1));
	EXPECT_EQ(1, self->sim->stats.load_batches);
}

/* The seed's words with a 948-byte image padded only to 16 bytes do not match. */
TEST_F(load, autoloader_staging_needs_the_recorded_length)
{
	wr(self->sim, REC_AUTOLDCSR, 0);
	for (uint32_t i = 0; i < 240; i++)
		wr(self->sim, REC_AUTOLDDATAR, i);
	wr(self->sim, REC_AUTOLDTRGTR, 0x02000400);
	wr(self->sim, REC_AUTOLDCSR, 0x0010013f);
	EXPECT_FALSE(wait_clear(self->sim, REC_AUTOLDCSR, 1u << 8));
	EXPECT_EQ(C600_PHASE_RESET, self->sim->phase);
}

TEST_HARNESS_MAIN
