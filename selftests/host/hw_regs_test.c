// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hardware backend's register plumbing (kmod/hw/hw_regs.c, compiled
 * unchanged) against a fake config BAR: the MMIO read/write primitives
 * that are readl()/writel() in ipuxcom_hw.ko are, here, calls into the
 * C600 simulator (sim/c600_sim.c), with every access logged. Checks the
 * offset rules (nothing touches MMIO for a bad offset), the notes'
 * posted-write flush (EXCHWINDOWBASER read back after each write, nothing
 * else), the gone-device rule, and the notes' autoloader sequence driven
 * through the accessors into the model.
 *
 * This is not a test of a card: it shows the accessor logic, which is the
 * only part of the hardware path that differs from the simulator path.
 */
#include "kselftest_harness.h"

#include "c600_sim.h"
#include "hw/hw_regs.h"

#define BAR	HW_CONFIG_BAR_SIZE
#define MAXLOG	2048

struct access {
	char op;	/* 'R' or 'W' */
	u32 off;
	u32 val;
};

/* The fake BAR: addresses inside @window map to simulator offsets. */
static struct {
	struct c600_sim *sim;
	unsigned char *window;
	struct access log[MAXLOG];
	unsigned int n;
	bool all_ones;		/* reads complete with all bits set */
	bool present;		/* what the presence check answers */
	unsigned int present_calls;
} fb;

static u32 fake_offset(const void *addr)
{
	ptrdiff_t off = (const unsigned char *)addr - fb.window;

	/* hw_regs.c must never form an address outside its mapping */
	if (off < 0 || off > (ptrdiff_t)BAR - 4 || off % 4)
		abort();
	return (u32)off;
}

static void fake_log(char op, u32 off, u32 val)
{
	if (fb.n < MAXLOG)
		fb.log[fb.n] = (struct access){ op, off, val };
	fb.n++;
}

u32 hw_mmio_read32(const void *addr)
{
	u32 off = fake_offset(addr), v = 0;

	if (c600_sim_bar_read(fb.sim, off, &v))
		abort();
	if (fb.all_ones)
		v = 0xffffffffu;
	fake_log('R', off, v);
	return v;
}

void hw_mmio_write32(u32 value, void *addr)
{
	u32 off = fake_offset(addr);

	fake_log('W', off, value);
	if (c600_sim_bar_write(fb.sim, off, value))
		abort();
}

static bool fake_present(void *ctx)
{
	fb.present_calls++;
	return fb.present;
}

FIXTURE(regs) {
	struct hw_regs r;
};

FIXTURE_SETUP(regs)
{
	memset(&fb, 0, sizeof(fb));
	fb.sim = c600_sim_create();
	ASSERT_NE(NULL, fb.sim);
	fb.sim->latency = 0;
	fb.window = calloc(1, BAR);	/* only its addresses are used */
	ASSERT_NE(NULL, fb.window);
	fb.present = true;
	self->r = (struct hw_regs){
		.base = fb.window, .size = BAR, .present = fake_present,
	};
}

FIXTURE_TEARDOWN(regs)
{
	c600_sim_destroy(fb.sim);
	free(fb.window);
}

TEST_F(regs, bad_offsets_touch_nothing)
{
	static const u32 bad[] = { 1, 2, 3, 0x7fffd, BAR, BAR + 4, 0xfffffffcu, 0xffffffffu };
	u32 v;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 0x5a5a5a5a;
		EXPECT_EQ(-EINVAL, hw_regs_read(&self->r, bad[i], &v)) TH_LOG("read 0x%x", bad[i]);
		EXPECT_EQ(0, v) TH_LOG("value not cleared for 0x%x", bad[i]);
		EXPECT_EQ(-EINVAL, hw_regs_write(&self->r, bad[i], 1)) TH_LOG("write 0x%x", bad[i]);
		EXPECT_EQ(-EINVAL, hw_regs_check(&self->r, bad[i]));
	}
	EXPECT_EQ(0, fb.n);
	/* first and last register of the 512 KiB BAR */
	EXPECT_EQ(0, hw_regs_write(&self->r, 0, 7));
	EXPECT_EQ(0, hw_regs_write(&self->r, BAR - 4, 0x12345678));
	EXPECT_EQ(0, hw_regs_read(&self->r, BAR - 4, &v));
	EXPECT_EQ(0x12345678, v);
	EXPECT_EQ(3, fb.n);
}

/* A mapping smaller than one register accepts nothing. */
TEST_F(regs, tiny_mapping_accepts_nothing)
{
	u32 v;

	self->r.size = 2;
	EXPECT_EQ(-EINVAL, hw_regs_read(&self->r, 0, &v));
	self->r.size = 0;
	EXPECT_EQ(-EINVAL, hw_regs_write(&self->r, 0, 1));
	EXPECT_EQ(0, fb.n);
}

/* [S "Experimental Tile SRAM Writes"]: read EXCHWINDOWBASER back after writing it. */
TEST_F(regs, exchwindowbaser_write_is_read_back)
{
	u32 v;

	ASSERT_EQ(0, hw_regs_write(&self->r, 0x3044, 21));
	ASSERT_EQ(2, fb.n);
	EXPECT_EQ('W', fb.log[0].op);
	EXPECT_EQ(0x3044, fb.log[0].off);
	EXPECT_EQ(21, fb.log[0].val);
	EXPECT_EQ('R', fb.log[1].op);
	EXPECT_EQ(0x3044, fb.log[1].off);
	ASSERT_EQ(0, hw_regs_read(&self->r, 0x3044, &v));
	EXPECT_EQ(21, v);
}

/* Every other register: one posted write, no read (the mechanisms poll). */
TEST_F(regs, other_writes_are_not_read_back)
{
	static const u32 regs[] = {
		0x2000, 0x2068, 0x206c, 0x2070, 0x302c, 0x3030, 0x3054,
		0x5404, 0x1b804 + 7 * 0x400, 0x30000 + 1471 * 0x40 + 12 * 4, 0x0100,
	};

	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		fb.n = 0;
		ASSERT_EQ(0, hw_regs_write(&self->r, regs[i], 0));
		EXPECT_EQ(1, fb.n) TH_LOG("0x%x", regs[i]);
		EXPECT_EQ('W', fb.log[0].op);
	}
}

TEST_F(regs, flush_table_is_exactly_exchwindowbaser)
{
	unsigned int n = 0;

	for (u32 off = 0; off < BAR; off += 4)
		n += hw_regs_flush_after_write(off);
	EXPECT_EQ(1, n);
	EXPECT_TRUE(hw_regs_flush_after_write(0x3044));
}

/* All ones from a device that still answers is just a value. */
TEST_F(regs, all_ones_from_a_present_device_is_a_value)
{
	u32 v = 0;

	fb.all_ones = true;
	EXPECT_EQ(0, hw_regs_read(&self->r, 0x2000, &v));
	EXPECT_EQ(0xffffffffu, v);
	EXPECT_EQ(1, fb.present_calls);
	EXPECT_FALSE(self->r.dead);
	/* ordinary values never ask */
	fb.all_ones = false;
	EXPECT_EQ(0, hw_regs_read(&self->r, 0x2000, &v));
	EXPECT_EQ(1, fb.present_calls);
	/* without a presence check, all ones is a value too */
	self->r.present = NULL;
	fb.all_ones = true;
	EXPECT_EQ(0, hw_regs_read(&self->r, 0x2000, &v));
	EXPECT_FALSE(self->r.dead);
}

/* All ones from a gone device: -EIO, and no MMIO ever again. */
TEST_F(regs, gone_device_is_eio_and_final)
{
	u32 v = 0;

	fb.all_ones = true;
	fb.present = false;
	EXPECT_EQ(-EIO, hw_regs_read(&self->r, 0x302c, &v));
	EXPECT_TRUE(self->r.dead);
	fb.n = 0;
	EXPECT_EQ(-EIO, hw_regs_read(&self->r, 0x302c, &v));
	EXPECT_EQ(-EIO, hw_regs_write(&self->r, 0x302c, 1));
	EXPECT_EQ(-EIO, hw_regs_write(&self->r, 0x3044, 1));
	EXPECT_EQ(0, fb.n);
	/* offsets are still checked first */
	EXPECT_EQ(-EINVAL, hw_regs_read(&self->r, 2, &v));
}

/* The flush read is where a write finds out the device went away. */
TEST_F(regs, gone_device_seen_by_the_flush)
{
	fb.all_ones = true;
	fb.present = false;
	EXPECT_EQ(0, hw_regs_write(&self->r, 0x2000, 1));	/* posted: no news */
	EXPECT_FALSE(self->r.dead);
	EXPECT_EQ(-EIO, hw_regs_write(&self->r, 0x3044, 1));
	EXPECT_TRUE(self->r.dead);
}

/* Wait for @mask of @off to clear, as ipuxcom_poll() does; reads done or -1. */
static int poll_clear(struct hw_regs *r, u32 off, u32 mask)
{
	u32 v;

	for (int i = 1; i <= 1000; i++) {
		if (hw_regs_read(r, off, &v))
			return -1;
		if (!(v & mask))
			return i;
	}
	return -1;
}

/*
 * 3 KiB by the peer's named fields [RE; hardware-checked only at 1 KiB]:
 * TRGTR 0x02000c00 / CSR 0x0010013f, then TRGTR 0x0209c003 / CSR
 * 0x000b7f3f; the model (which follows the record) installs it. The old
 * modelled 16-byte-unit CSR (0x001001bf) is not the record: refused.
 */
TEST_F(regs, autoload_3_kib_by_named_fields)
{
	static u32 words[768], back[768];

	for (u32 i = 0; i < 768; i++)
		words[i] = 0x01000193u * (i + 7);
	for (int old = 1; old >= 0; old--) {
		ASSERT_EQ(0, hw_regs_write(&self->r, 0x2068, 0));
		for (u32 i = 0; i < 768; i++)
			ASSERT_EQ(0, hw_regs_write(&self->r, 0x2070, words[i]));
		ASSERT_EQ(0, hw_regs_write(&self->r, 0x206c, 0x02000c00));
		ASSERT_EQ(0, hw_regs_write(&self->r, 0x2068, old ? 0x001001bf : 0x0010013f));
		if (old) {
			EXPECT_EQ(-1, poll_clear(&self->r, 0x2068, 1u << 8));
			continue;
		}
		EXPECT_LT(0, poll_clear(&self->r, 0x2068, 1u << 8));
	}
	ASSERT_EQ(0, hw_regs_write(&self->r, 0x206c, 0x0209c003));
	ASSERT_EQ(0, hw_regs_write(&self->r, 0x2068, 0x000b7f3f));
	EXPECT_LT(0, poll_clear(&self->r, 0x2068, 1u << 8));
	EXPECT_EQ(C600_PHASE_LOADER, fb.sim->phase);
	ASSERT_EQ(0, c600_sim_sram_read(fb.sim, 1471, 0x4c000, back, sizeof(back)));
	EXPECT_EQ(0, memcmp(words, back, sizeof(back)));
}

/*
 * The notes' autoloader sequence [S "Direct Attach And Autoloader"]
 * through the accessors: the model installs the image on every tile.
 */
TEST_F(regs, autoload_sequence_reaches_the_model)
{
	u32 words[256], back[256];

	fb.sim->latency = 3;	/* GO clears only after a few reads */
	for (u32 i = 0; i < 256; i++)
		words[i] = i < 237 ? 0x9e3779b9u * (i + 1) : 0;	/* 948 bytes, padded */
	ASSERT_EQ(0, hw_regs_write(&self->r, 0x2068, 0));
	for (u32 i = 0; i < 256; i++)
		ASSERT_EQ(0, hw_regs_write(&self->r, 0x2070, words[i]));
	ASSERT_EQ(0, hw_regs_write(&self->r, 0x206c, 0x02000400));
	ASSERT_EQ(0, hw_regs_write(&self->r, 0x2068, 0x0010013f));
	EXPECT_LT(1, poll_clear(&self->r, 0x2068, 1u << 8));
	ASSERT_EQ(0, hw_regs_write(&self->r, 0x206c, 0x0209c001));
	ASSERT_EQ(0, hw_regs_write(&self->r, 0x2068, 0x000b7f3f));
	EXPECT_LT(1, poll_clear(&self->r, 0x2068, 1u << 8));

	EXPECT_EQ(2, fb.sim->stats.autoload_transactions);
	EXPECT_EQ(C600_PHASE_LOADER, fb.sim->phase);
	for (u16 t = 0; t < C600_TILES; t += 1471) {
		ASSERT_EQ(0, c600_sim_sram_read(fb.sim, t, 0x4c000, back, sizeof(back)));
		EXPECT_EQ(0, memcmp(words, back, sizeof(back))) TH_LOG("tile %u", t);
	}
	/* no flush read was added anywhere in this sequence */
	for (unsigned int i = 0; i < fb.n && i < MAXLOG; i++)
		if (fb.log[i].op == 'R')
			EXPECT_EQ(0x2068, fb.log[i].off);
}

/* XB.DCXCR loading values [S, RE] round-trip through the accessors. */
TEST_F(regs, dcxcr_values_round_trip)
{
	for (u32 i = 0; i < 16; i++) {
		u32 off = i < 8 ? 0x5404 + i * 0x400 : 0x1b804 + (i - 8) * 0x400, v = 0;

		ASSERT_EQ(0, hw_regs_write(&self->r, off, 0x07fffffa));
		ASSERT_EQ(0, hw_regs_read(&self->r, off, &v));
		EXPECT_EQ(0x07fffffa, v) TH_LOG("instance %u", i);
	}
}

/*
 * The capability set the hardware backend declares: everything, for a
 * card held through ipu_driver (uapi version 4; the caller does the
 * ipu_driver half of buffers, reset and the exchange window).
 */
TEST(hw_capabilities)
{
	const uint64_t all = IPUXCOM_CAP_ATTACH | IPUXCOM_CAP_REG | IPUXCOM_CAP_RESET |
			     IPUXCOM_CAP_NETLINK | IPUXCOM_CAP_CFG | IPUXCOM_CAP_AUTOLOAD |
			     IPUXCOM_CAP_LOADER | IPUXCOM_CAP_HSP | IPUXCOM_CAP_TDI |
			     IPUXCOM_CAP_HOSTX | IPUXCOM_CAP_EXCH_WINDOW |
			     IPUXCOM_CAP_IPU_DRIVER;

	EXPECT_EQ(all, HW_CAPABILITIES);
}

TEST_HARNESS_MAIN
