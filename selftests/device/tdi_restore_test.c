// SPDX-License-Identifier: GPL-2.0-only
/*
 * TDI sessions leave the tile as they found it ([S "Debug Readback Pivot"]:
 * "restore the thread state"; HW-TDI-READ): a TDI SRAM read
 * or write keeps $m0, $m1, DBG_RBRK, CTXT_STS, DBG_DATA, DBG_IOWNER,
 * DBG_ECSR and TDI_STS as found, and so does every failure path the
 * simulator's fault knobs reach (a context that never stops, an injection
 * that fails mid-transfer, a restore that fails, TDI stuck busy).
 *
 * The words a card sees (config-BAR writes at the ipuxcom_bar_write
 * tracepoint, through `ipuxcom cfg capture`): every injection is the
 * peer's TDI_CLR = 0x6, DBG_IOWNER = context, DBG_IEXEC [RE]; an inactive
 * worker context of a loaded tile is used as found, without a run-break
 * (the peer's SRAM reads [RE]); a reset-idle tile is refused before
 * anything is written [S]. Under the model's stricter readings
 * (iowner_per_insn, inactive_no_exec) the sessions still work or fail
 * cleanly. Simulator only: skipped on hardware.
 */
#include "kselftest_harness.h"

#include "ipuxcom_test.h"
#include "image_testlib.h"

#define BOOT_BYTES	948
#define SRAM_BASE	0x4c000u
#define ADDR		0x52000u
#define TILE		9
#define CTX		0
#define SHORT_NS	(20ULL * 1000 * 1000)
/* TDI register r of physical tile t [S "Debug Readback Pivot"]. */
#define TDI_REG(t, r)	(0x30000u + (t) * 0x40u + (r) * 4u)

/* Injectable instructions [S, HW-TDI-INSNS]. */
#define GET_M0_DBG_DATA	0x41000070u
#define GET_M1_DBG_DATA	0x41010070u
#define PUT_DBG_DATA_M0	0x43008070u
/* put $DBG_DATA,$m1: INFERRED encoding (kmod/c600_regs.h), not recorded. */
#define PUT_DBG_DATA_M1	0x43108070u
#define NOP		0x44f0f3f1u

#define M0		0x12345678u
#define M1		0x0badcafeu
/* A found run-break: ATOV (bit 30 [S]) and inactive context 3 stopped. */
#define RBRK_FOUND	0x40000008u

static int do_autoload(int fd, const void *img, uint32_t len)
{
	struct ipuxcom_ioc_autoload al = {
		.size = sizeof(al), .image = (uintptr_t)img, .image_size = len,
	};

	return ixt_ioctl(fd, IPUXCOM_IOC_AUTOLOAD, &al);
}

static int sram_io_ctx(int fd, unsigned long cmd, uint32_t ctx, uint32_t addr, uint32_t *words,
		       uint32_t count, struct ipuxcom_ioc_tdi_sram *out)
{
	struct ipuxcom_ioc_tdi_sram ts = {
		.size = sizeof(ts), .tile = TILE, .context = ctx, .addr = addr,
		.count = count, .data = (uintptr_t)words, .timeout_ns = ixt_scaled_ns(SHORT_NS),
	};
	int ret = ixt_ioctl(fd, cmd, &ts);

	if (out)
		*out = ts;
	return ret;
}

static int sram_io(int fd, unsigned long cmd, uint32_t addr, uint32_t *words, uint32_t count,
		   struct ipuxcom_ioc_tdi_sram *out)
{
	return sram_io_ctx(fd, cmd, CTX, addr, words, count, out);
}

static int exec(int fd, uint32_t insn, int set_data, uint32_t data_in,
		struct ipuxcom_ioc_tdi_exec *out)
{
	struct ipuxcom_ioc_tdi_exec te = {
		.size = sizeof(te), .tile = TILE, .context = CTX, .insn = insn,
		.flags = set_data ? IPUXCOM_TDI_F_SET_DATA : 0, .data_in = data_in,
		.timeout_ns = ixt_scaled_ns(SHORT_NS),
	};
	int ret = ixt_ioctl(fd, IPUXCOM_IOC_TDI_EXEC, &te);

	if (out)
		*out = te;
	return ret;
}

/* $mN read out with put $DBG_DATA,$mN; 0xffffffff if the exec failed. */
static uint32_t read_m(int fd, uint32_t put_insn)
{
	struct ipuxcom_ioc_tdi_exec te;

	return exec(fd, put_insn, 0, 0, &te) ? 0xffffffffu : te.data_out;
}

static int regs(int fd, struct ipuxcom_ioc_tdi_regs *r)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->tile = TILE;
	return ixt_ioctl(fd, IPUXCOM_IOC_TDI_READ_REGS, r);
}

/* The registers a session must leave as found (TDI_READ_REGS works in NEEDS_RESET). */
#define EXPECT_REGS_AS_FOUND(before, after) do {					\
	static const int _keep[] = {							\
		IPUXCOM_TDI_CTXT_STS, IPUXCOM_TDI_DBG_RBRK, IPUXCOM_TDI_DBG_IOWNER,	\
		IPUXCOM_TDI_DBG_ECSR, IPUXCOM_TDI_DBG_DATA, IPUXCOM_TDI_TDI_STS,	\
	};										\
	for (size_t _i = 0; _i < sizeof(_keep) / sizeof(_keep[0]); _i++) {		\
		EXPECT_EQ((before).regs[_keep[_i]], (after).regs[_keep[_i]])		\
			TH_LOG("TDI register %d changed", _keep[_i]);			\
	}										\
} while (0)

FIXTURE(tr) {
	int fd;
	uint32_t dev;
	uint8_t boot[BOOT_BYTES];
	struct ipuxcom_ioc_tdi_regs before;
};

/* Loaded tiles (context 0 running), $m0/$m1 set, a non-zero run-break found. */
FIXTURE_SETUP(tr)
{
	self->fd = -1;
	IXT_SETUP_IDLE_SIM(self->fd, self->dev);
	for (size_t i = 0; i < sizeof(self->boot); i++)
		self->boot[i] = (uint8_t)(i * 29 + 3);
	ASSERT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES));
	ASSERT_EQ(0, exec(self->fd, GET_M0_DBG_DATA, 1, M0, NULL));
	ASSERT_EQ(0, exec(self->fd, GET_M1_DBG_DATA, 1, M1, NULL));
	ASSERT_EQ(M0, read_m(self->fd, PUT_DBG_DATA_M0));
	ASSERT_EQ(M1, read_m(self->fd, PUT_DBG_DATA_M1));
	ASSERT_EQ(0, ixt_reg_write(self->fd, TDI_REG(TILE, IPUXCOM_TDI_DBG_RBRK),
				   RBRK_FOUND));
	ASSERT_EQ(0, ixt_reg_write(self->fd, TDI_REG(TILE, IPUXCOM_TDI_DBG_DATA),
				   0x5eed5eed));
	ASSERT_EQ(0, regs(self->fd, &self->before));
	ASSERT_EQ(RBRK_FOUND, self->before.regs[IPUXCOM_TDI_DBG_RBRK]);
	/* context 0 running: the modelled CTXT_STS field 1 */
	ASSERT_EQ(1, self->before.regs[IPUXCOM_TDI_CTXT_STS] & 3);
}

FIXTURE_TEARDOWN(tr)
{
	if (self->fd < 0)
		return;
	ixt_sim_clear_faults(self->dev);
	ixt_reset(self->fd);
	close(self->fd);
}

/* The issue's case: $m0 = 0x12345678, TDI_READ_SRAM, $m0 still 0x12345678. */
TEST_F(tr, read_leaves_m_registers_and_state_unchanged)
{
	struct ipuxcom_ioc_tdi_regs after;
	struct ipuxcom_ioc_tdi_sram ts;
	uint32_t w[8];

	ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, SRAM_BASE, w, 8, &ts));
	EXPECT_EQ(8, ts.done);
	EXPECT_EQ(0, memcmp(w, self->boot, sizeof(w)));
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_REGS_AS_FOUND(self->before, after);
	EXPECT_EQ(M0, read_m(self->fd, PUT_DBG_DATA_M0));
	EXPECT_EQ(M1, read_m(self->fd, PUT_DBG_DATA_M1));
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(self->fd));
}

TEST_F(tr, write_leaves_m_registers_and_state_unchanged)
{
	struct ipuxcom_ioc_tdi_regs after;
	uint32_t out[3] = { 0x11111111, 0x22222222, 0x33333333 }, in[3] = { 0 };

	ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_WRITE_SRAM, ADDR, out, 3, NULL));
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_REGS_AS_FOUND(self->before, after);
	ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, ADDR, in, 3, NULL));
	EXPECT_EQ(0, memcmp(in, out, sizeof(in)));
	EXPECT_EQ(M0, read_m(self->fd, PUT_DBG_DATA_M0));
	EXPECT_EQ(M1, read_m(self->fd, PUT_DBG_DATA_M1));
}

/* TDI_EXEC's effect on $m0 is the point and persists; the run-break does not. */
TEST_F(tr, exec_keeps_its_effect_and_restores_run_break)
{
	struct ipuxcom_ioc_tdi_regs after;

	ASSERT_EQ(0, exec(self->fd, GET_M0_DBG_DATA, 1, 0xfeedf00d, NULL));
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_EQ(RBRK_FOUND, after.regs[IPUXCOM_TDI_DBG_RBRK]);
	EXPECT_EQ(self->before.regs[IPUXCOM_TDI_CTXT_STS], after.regs[IPUXCOM_TDI_CTXT_STS]);
	EXPECT_EQ(0xfeedf00d, read_m(self->fd, PUT_DBG_DATA_M0));
	EXPECT_EQ(M1, read_m(self->fd, PUT_DBG_DATA_M1));
}

/* A faulting injection: -EILSEQ, and the exception it raised is cleared. */
TEST_F(tr, exec_error_restores_run_break_and_clears_its_exception)
{
	struct ipuxcom_ioc_tdi_regs after;
	struct ipuxcom_ioc_tdi_exec te;

	EXPECT_EQ(-EILSEQ, exec(self->fd, 0xdeadbeef, 0, 0, &te));
	EXPECT_NE(0, te.tdi_sts & IPUXCOM_TDI_STS_INVALID);
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_EQ(RBRK_FOUND, after.regs[IPUXCOM_TDI_DBG_RBRK]);
	EXPECT_EQ(self->before.regs[IPUXCOM_TDI_CTXT_STS], after.regs[IPUXCOM_TDI_CTXT_STS]);
	EXPECT_EQ(0, after.regs[IPUXCOM_TDI_DBG_ECSR] & (1u << CTX));
	EXPECT_EQ(0, after.regs[IPUXCOM_TDI_TDI_STS]);
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(self->fd));
	/* the sticky error does not leak into the next injection */
	EXPECT_EQ(0, exec(self->fd, NOP, 0, 0, &te));
	EXPECT_EQ(0, te.tdi_sts);
}

/* Poll CTXT_STS (TDI_READ_REGS) until context CTX's state is @want. */
static int wait_ctx_state(int fd, uint32_t want, struct ipuxcom_ioc_tdi_regs *r)
{
	for (int i = 0; i < 1000; i++) {
		if (regs(fd, r))
			return -1;
		if ((r->regs[IPUXCOM_TDI_CTXT_STS] >> (2 * CTX) & 3) == want)
			return 0;
	}
	return -1;
}

/*
 * A context found stopped (state 2 or 3 [RE]) is used as it is and left
 * stopped: no run-break write, no DBG_ECLR. The model reports 3 for one
 * stopped with an exception raised; a session on it works too.
 */
TEST_F(tr, context_found_stopped_is_used_and_left_stopped)
{
	struct ipuxcom_ioc_tdi_regs b, after;
	struct ipuxcom_ioc_tdi_sram ts;
	struct ipuxcom_ioc_tdi_exec te;
	uint32_t w[2] = { 0 };

	ASSERT_EQ(0, ixt_reg_write(self->fd, TDI_REG(TILE, IPUXCOM_TDI_DBG_RBRK),
				   RBRK_FOUND | (1u << CTX)));
	ASSERT_EQ(0, wait_ctx_state(self->fd, 2, &b));
	/* state 2: a read works and leaves every register as found */
	ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, SRAM_BASE, w, 2, &ts));
	EXPECT_EQ(2, ts.done);
	EXPECT_EQ(0, memcmp(w, self->boot, sizeof(w)));
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_REGS_AS_FOUND(b, after);
	/* a faulting injection: its exception stays (no DBG_ECLR), state 3 */
	EXPECT_EQ(-EILSEQ, exec(self->fd, 0xdeadbeef, 0, 0, &te));
	ASSERT_EQ(0, regs(self->fd, &b));
	EXPECT_EQ(3, b.regs[IPUXCOM_TDI_CTXT_STS] >> (2 * CTX) & 3);
	EXPECT_EQ(1u << CTX, b.regs[IPUXCOM_TDI_DBG_ECSR] & (1u << CTX));
	EXPECT_EQ(RBRK_FOUND | (1u << CTX), b.regs[IPUXCOM_TDI_DBG_RBRK]);
	/* state 3 counts as stopped: a read works there and leaves it so */
	ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, SRAM_BASE, w, 2, &ts));
	EXPECT_EQ(0, memcmp(w, self->boot, sizeof(w)));
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_REGS_AS_FOUND(b, after);
	EXPECT_EQ(M0, read_m(self->fd, PUT_DBG_DATA_M0));
	EXPECT_NE(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(self->fd));
	/* released the peer's way: run-break restored, then DBG_ECLR = bit */
	ASSERT_EQ(0, ixt_reg_write(self->fd, TDI_REG(TILE, IPUXCOM_TDI_DBG_RBRK), RBRK_FOUND));
	ASSERT_EQ(0, ixt_reg_write(self->fd, TDI_REG(TILE, IPUXCOM_TDI_DBG_ECLR), 1u << CTX));
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_EQ(1, after.regs[IPUXCOM_TDI_CTXT_STS] >> (2 * CTX) & 3);
	EXPECT_EQ(0, after.regs[IPUXCOM_TDI_DBG_ECSR] & (1u << CTX));
}

/*
 * A reset-idle tile, every context inactive, cannot execute [S]: -ENOEXEC
 * before anything is written or injected.
 */
TEST_F(tr, inactive_context_fails_before_injecting)
{
	struct ipuxcom_ioc_tdi_regs b, after;
	struct ipuxcom_ioc_tdi_sram ts;
	struct ipuxcom_ioc_tdi_exec te;
	uint32_t w[2];

	ASSERT_EQ(0, ixt_reset(self->fd));
	ASSERT_EQ(0, ixt_reg_write(self->fd, TDI_REG(TILE, IPUXCOM_TDI_DBG_RBRK),
				   RBRK_FOUND));
	ASSERT_EQ(0, regs(self->fd, &b));
	EXPECT_EQ(-ENOEXEC, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, SRAM_BASE, w, 2, &ts));
	EXPECT_EQ(0, ts.done);
	EXPECT_EQ(0, ts.tdi_sts);
	EXPECT_EQ(-ENOEXEC, exec(self->fd, NOP, 0, 0, &te));
	EXPECT_EQ(0, te.tdi_sts);
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_REGS_AS_FOUND(b, after);
	/* nothing was injected */
	EXPECT_EQ(b.regs[IPUXCOM_TDI_DBG_IEXEC], after.regs[IPUXCOM_TDI_DBG_IEXEC]);
	EXPECT_NE(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(self->fd));
}

/* Fault: the context never stops -> -ETIMEDOUT, nothing injected, all restored. */
TEST_F(tr, context_never_stops_restores_run_break)
{
	struct ipuxcom_ioc_tdi_regs after;
	struct ipuxcom_ioc_tdi_sram ts;
	uint32_t w[2];

	ASSERT_EQ(0, ixt_sim_knob(self->dev, "ctx_no_stop", 1));
	EXPECT_EQ(-ETIMEDOUT, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, SRAM_BASE, w, 2, &ts));
	EXPECT_EQ(0, ts.done);
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(self->fd));
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_REGS_AS_FOUND(self->before, after);
	EXPECT_EQ(self->before.regs[IPUXCOM_TDI_DBG_IEXEC], after.regs[IPUXCOM_TDI_DBG_IEXEC]);
	EXPECT_EQ(-ETIMEDOUT, exec(self->fd, NOP, 0, 0, NULL));
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_REGS_AS_FOUND(self->before, after);
	/* TDI works in NEEDS_RESET: the registers were never touched */
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "ctx_no_stop", 0));
	EXPECT_EQ(M0, read_m(self->fd, PUT_DBG_DATA_M0));
	EXPECT_EQ(M1, read_m(self->fd, PUT_DBG_DATA_M1));
}

/*
 * Fault: an injection fails mid-read. Injections of a read: save $m0 (1),
 * save $m1 (2), then per word k: get $m1 (3+3k), ld32 (4+3k), put (5+3k).
 * The ld32 of word 2 is injection 10.
 */
TEST_F(tr, injection_error_mid_read_restores_everything)
{
	struct ipuxcom_ioc_tdi_regs after;
	struct ipuxcom_ioc_tdi_sram ts;
	uint32_t w[4] = { 0 };

	ASSERT_EQ(0, ixt_sim_knob(self->dev, "tdi_fail_at", 10));
	EXPECT_EQ(-EILSEQ, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, SRAM_BASE, w, 4, &ts));
	EXPECT_EQ(2, ts.done);
	EXPECT_NE(0, ts.tdi_sts & IPUXCOM_TDI_STS_INVALID);
	EXPECT_EQ(0, memcmp(w, self->boot, 8));
	ASSERT_EQ(0, regs(self->fd, &after));
	/* the exception the failed ld32 raised is cleared with the rest */
	EXPECT_REGS_AS_FOUND(self->before, after);
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(self->fd));
	EXPECT_EQ(M0, read_m(self->fd, PUT_DBG_DATA_M0));
	EXPECT_EQ(M1, read_m(self->fd, PUT_DBG_DATA_M1));
}

/* Per word k of a write: get $m1 (3+3k), get $m0 (4+3k), st32 (5+3k). */
TEST_F(tr, injection_error_mid_write_restores_everything)
{
	struct ipuxcom_ioc_tdi_regs after;
	struct ipuxcom_ioc_tdi_sram ts;
	uint32_t out[3] = { 0xa1, 0xa2, 0xa3 };

	ASSERT_EQ(0, ixt_sim_knob(self->dev, "tdi_fail_at", 8));
	EXPECT_EQ(-EILSEQ, sram_io(self->fd, IPUXCOM_IOC_TDI_WRITE_SRAM, ADDR, out, 3, &ts));
	EXPECT_EQ(1, ts.done);
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_REGS_AS_FOUND(self->before, after);
	EXPECT_EQ(M0, read_m(self->fd, PUT_DBG_DATA_M0));
	EXPECT_EQ(M1, read_m(self->fd, PUT_DBG_DATA_M1));
}

/* A failure while saving $m0 (injection 1): nothing clobbered, nothing to restore. */
TEST_F(tr, injection_error_while_saving)
{
	struct ipuxcom_ioc_tdi_regs after;
	struct ipuxcom_ioc_tdi_sram ts;
	uint32_t w[1];

	ASSERT_EQ(0, ixt_sim_knob(self->dev, "tdi_fail_at", 1));
	EXPECT_EQ(-EILSEQ, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, SRAM_BASE, w, 1, &ts));
	EXPECT_EQ(0, ts.done);
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_REGS_AS_FOUND(self->before, after);
	EXPECT_EQ(M0, read_m(self->fd, PUT_DBG_DATA_M0));
	EXPECT_EQ(M1, read_m(self->fd, PUT_DBG_DATA_M1));
}

/*
 * A restore that fails (injection 6: get $m0 of the restore after a
 * one-word read) is visible: the command fails, the device is
 * NEEDS_RESET, and everything else is still restored.
 */
TEST_F(tr, failed_restore_marks_needs_reset)
{
	struct ipuxcom_ioc_tdi_regs after;
	struct ipuxcom_ioc_tdi_sram ts;
	uint32_t w[1];

	ASSERT_EQ(0, ixt_sim_knob(self->dev, "tdi_fail_at", 6));
	EXPECT_EQ(-EILSEQ, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, SRAM_BASE, w, 1, &ts));
	EXPECT_EQ(1, ts.done);
	EXPECT_EQ(0, memcmp(w, self->boot, 4));
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(self->fd));
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_REGS_AS_FOUND(self->before, after);
	/* $m0 could not be put back (it holds the word read); $m1 was */
	EXPECT_EQ(w[0], read_m(self->fd, PUT_DBG_DATA_M0));
	EXPECT_EQ(M1, read_m(self->fd, PUT_DBG_DATA_M1));
}

/*
 * Fault: TDI stays busy. The first injection (saving $m0) never completes:
 * -ETIMEDOUT, NEEDS_RESET, no further injection (it would be a double
 * issue); DBG_RBRK and CTXT_STS are restored, read back with TDI_READ_REGS
 * (which works in NEEDS_RESET). $m0/$m1 cannot be observed while TDI is
 * stuck (every injection needs it), and nothing had clobbered them: the
 * only instruction issued was the save, which reads $m0.
 */
TEST_F(tr, tdi_busy_timeout_restores_run_break)
{
	struct ipuxcom_ioc_tdi_regs after;
	struct ipuxcom_ioc_tdi_sram ts;
	uint32_t w[2], v;

	ASSERT_EQ(0, ixt_sim_knob(self->dev, "tdi_busy", 1));
	EXPECT_EQ(-ETIMEDOUT, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, SRAM_BASE, w, 2, &ts));
	EXPECT_EQ(0, ts.done);
	EXPECT_NE(0, ts.tdi_sts & IPUXCOM_TDI_STS_BUSY);
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(self->fd));
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_EQ(RBRK_FOUND, after.regs[IPUXCOM_TDI_DBG_RBRK]);
	EXPECT_EQ(self->before.regs[IPUXCOM_TDI_CTXT_STS], after.regs[IPUXCOM_TDI_CTXT_STS]);
	EXPECT_EQ(self->before.regs[IPUXCOM_TDI_DBG_IOWNER], after.regs[IPUXCOM_TDI_DBG_IOWNER]);
	EXPECT_EQ(self->before.regs[IPUXCOM_TDI_DBG_DATA], after.regs[IPUXCOM_TDI_DBG_DATA]);
	/* exactly one instruction issued: no double issue from a restore attempt */
	EXPECT_EQ(0, after.regs[IPUXCOM_TDI_TDI_STS] & IPUXCOM_TDI_STS_DOUBLE_ISSUE);
	ASSERT_EQ(0, ixt_reg_read(self->fd, TDI_REG(TILE, IPUXCOM_TDI_DBG_RBRK),
				  &v));
	EXPECT_EQ(RBRK_FOUND, v);
}

/*
 * The peer reads SRAM of a loaded tile through an inactive worker context
 * as a quiescent one [RE, hardware-proven]: the supervisor (context 0)
 * keeps running, never broken; the worker's context is used as found; the
 * supervisor's $m0/$m1 and every register end as found.
 */
TEST_F(tr, inactive_worker_context_of_a_loaded_tile_is_used_as_found)
{
	struct ipuxcom_ioc_tdi_regs after;
	struct ipuxcom_ioc_tdi_sram ts;
	uint32_t w[4] = { 0 }, out[2] = { 0x77777777, 0x88888888 }, in[2] = { 0 };

	ASSERT_EQ(0, self->before.regs[IPUXCOM_TDI_CTXT_STS] >> 2 & 3);	/* context 1 inactive */
	ASSERT_EQ(0, sram_io_ctx(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 1, SRAM_BASE, w, 4, &ts));
	EXPECT_EQ(4, ts.done);
	EXPECT_EQ(0, ts.tdi_sts);
	EXPECT_EQ(0, memcmp(w, self->boot, sizeof(w)));
	ASSERT_EQ(0, sram_io_ctx(self->fd, IPUXCOM_IOC_TDI_WRITE_SRAM, 1, ADDR, out, 2, NULL));
	ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, ADDR, in, 2, NULL));
	EXPECT_EQ(0, memcmp(in, out, sizeof(in)));
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_REGS_AS_FOUND(self->before, after);
	EXPECT_EQ(M0, read_m(self->fd, PUT_DBG_DATA_M0));
	EXPECT_EQ(M1, read_m(self->fd, PUT_DBG_DATA_M1));
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(self->fd));
}

/*
 * The model's stricter readings of what the record leaves open. With
 * inactive_no_exec (the seed's sentence for every tile) the inactive
 * worker's first injection reports not-quiescent: -ENOEXEC, nothing read,
 * everything restored, no NEEDS_RESET. With iowner_per_insn (the owner
 * does not outlast an injection) a read works, since the module names the
 * owner before every injection, and DBG_IOWNER ends as found.
 */
TEST_F(tr, stricter_readings_fail_cleanly_or_work)
{
	struct ipuxcom_ioc_tdi_regs after;
	struct ipuxcom_ioc_tdi_sram ts;
	uint32_t w[2] = { 0 };

	ASSERT_EQ(0, ixt_sim_knob(self->dev, "inactive_no_exec", 1));
	EXPECT_EQ(-ENOEXEC, sram_io_ctx(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 1, SRAM_BASE, w, 2,
					&ts));
	EXPECT_EQ(0, ts.done);
	EXPECT_EQ(IPUXCOM_TDI_STS_NOT_QUIESCENT, ts.tdi_sts);
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(self->fd));
	ASSERT_EQ(0, regs(self->fd, &after));
	/* not-quiescent is the last injection's own (modelled); the rest as found */
	EXPECT_EQ(IPUXCOM_TDI_STS_NOT_QUIESCENT, after.regs[IPUXCOM_TDI_TDI_STS]);
	after.regs[IPUXCOM_TDI_TDI_STS] = self->before.regs[IPUXCOM_TDI_TDI_STS];
	EXPECT_REGS_AS_FOUND(self->before, after);
	/* the supervisor, stopped by the module, still reads */
	ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, SRAM_BASE, w, 2, &ts));
	EXPECT_EQ(0, memcmp(w, self->boot, sizeof(w)));
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "inactive_no_exec", 0));

	ASSERT_EQ(0, ixt_sim_knob(self->dev, "iowner_per_insn", 1));
	memset(w, 0, sizeof(w));
	ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, SRAM_BASE, w, 2, &ts));
	EXPECT_EQ(0, memcmp(w, self->boot, sizeof(w)));
	ASSERT_EQ(0, sram_io_ctx(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 1, SRAM_BASE, w, 2, &ts));
	EXPECT_EQ(0, memcmp(w, self->boot, sizeof(w)));
	ASSERT_EQ(0, regs(self->fd, &after));
	EXPECT_REGS_AS_FOUND(self->before, after);
	EXPECT_EQ(M0, read_m(self->fd, PUT_DBG_DATA_M0));
	EXPECT_EQ(M1, read_m(self->fd, PUT_DBG_DATA_M1));
}

/* ------------------------------------- the words at the tracepoint */

/* `ipuxcom cfg capture start|stop`, the tool from $IPUXCOM_TOOL or PATH. */
static int capture(const char *verb, uint32_t dev, const char *out)
{
	const char *env = getenv("IPUXCOM_TOOL");
	char *tool = env && *env ? (char *)env : "ipuxcom", d[16];
	struct ixt_run *r = malloc(sizeof(*r));
	int ret;

	if (!r)
		return -1;
	snprintf(d, sizeof(d), "%u", dev);
	if (!strcmp(verb, "start")) {
		char *const argv[] = { tool, "cfg", "capture", "start", "--dev", d, NULL };

		ret = ixt_run(argv, r);
	} else {
		char *const argv[] = { tool, "cfg", "capture", "stop", "-o", (char *)out, NULL };

		ret = ixt_run(argv, r);
	}
	if (!ret && r->status)
		fprintf(stderr, "# cfg capture %s: %s%s", verb, r->out, r->err);
	ret = ret ? ret : r->status;
	free(r);
	return ret;
}

static bool have_tracefs(void)
{
	return !access("/sys/kernel/tracing/events/ipuxcom", F_OK) ||
	       !access("/sys/kernel/debug/tracing/events/ipuxcom", F_OK);
}

struct word {
	uint32_t reg, value;
};

/* Append the peer's three writes of one injection [RE] to @w. */
static size_t injection(struct word *w, size_t n, uint32_t ctx, uint32_t insn)
{
	w[n++] = (struct word){ IPUXCOM_TDI_TDI_CLR, 0x6 };
	w[n++] = (struct word){ IPUXCOM_TDI_DBG_IOWNER, ctx };
	w[n++] = (struct word){ IPUXCOM_TDI_DBG_IEXEC, insn };
	return n;
}

/*
 * The exact config-BAR writes of a one-word TDI_READ_SRAM through @ctx,
 * after tdi.c's session: [stop: DBG_RBRK] save $m0, $m1; the word (DBG_DATA
 * = address, get $m1, ld32, put); restore $m0, $m1, DBG_DATA, DBG_IOWNER,
 * TDI_CLR; [release: DBG_RBRK as found, DBG_ECLR = bit]. @broke: the
 * session had to stop the context.
 */
static size_t expected_read(struct word *w, uint32_t ctx, bool broke, uint32_t addr,
			    uint32_t m0, uint32_t m1, uint32_t data, uint32_t owner)
{
	size_t n = 0;

	if (broke)
		w[n++] = (struct word){ IPUXCOM_TDI_DBG_RBRK, RBRK_FOUND | 1u << ctx };
	n = injection(w, n, ctx, PUT_DBG_DATA_M0);
	n = injection(w, n, ctx, PUT_DBG_DATA_M1);
	w[n++] = (struct word){ IPUXCOM_TDI_DBG_DATA, addr };
	n = injection(w, n, ctx, GET_M1_DBG_DATA);
	n = injection(w, n, ctx, 0x01f01000u);	/* ld32 $m0,$m15,$m1,0 */
	n = injection(w, n, ctx, PUT_DBG_DATA_M0);
	w[n++] = (struct word){ IPUXCOM_TDI_DBG_DATA, m0 };
	n = injection(w, n, ctx, GET_M0_DBG_DATA);
	w[n++] = (struct word){ IPUXCOM_TDI_DBG_DATA, m1 };
	n = injection(w, n, ctx, GET_M1_DBG_DATA);
	w[n++] = (struct word){ IPUXCOM_TDI_DBG_DATA, data };
	w[n++] = (struct word){ IPUXCOM_TDI_DBG_IOWNER, owner };
	w[n++] = (struct word){ IPUXCOM_TDI_TDI_CLR, 0x6 };
	if (broke) {
		w[n++] = (struct word){ IPUXCOM_TDI_DBG_RBRK, RBRK_FOUND };
		w[n++] = (struct word){ IPUXCOM_TDI_DBG_ECLR, 1u << ctx };
	}
	return n;
}

static void expect_words(struct __test_metadata *_metadata, const char *path,
			 const struct word *w, size_t n)
{
	struct ipuxcom_cfg_record *r = NULL;
	struct ipuxcom_errmsg em;
	uint32_t count = 0;

	ASSERT_EQ(0, ipuxcom_cfg_load(path, &r, &count, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(n, count);
	for (size_t i = 0; i < n && i < count; i++) {
		EXPECT_EQ(TDI_REG(TILE, w[i].reg), r[i].offset)
			TH_LOG("write %zu: offset 0x%x, expected TDI register %u", i,
			       r[i].offset, w[i].reg);
		EXPECT_EQ(w[i].value, r[i].value)
			TH_LOG("write %zu (TDI register %u): 0x%x, expected 0x%x", i, w[i].reg,
			       r[i].value, w[i].value);
	}
	free(r);
}

/*
 * Through the running supervisor (broken and released) and through the
 * inactive worker context 1 (used as found: no DBG_RBRK, no DBG_ECLR),
 * every word as a card would see it; and nothing at all for a reset-idle
 * tile.
 */
TEST_F(tr, words_at_the_tracepoint)
{
	struct ipuxcom_ioc_tdi_sram ts;
	struct word want[64];
	char path[64];
	uint32_t w[1];
	int stopped;
	size_t n;

	if (!have_tracefs())
		SKIP(return, "no tracefs with the ipuxcom tracepoints (or not root)");
	snprintf(path, sizeof(path), "/tmp/tdi_restore.%d.ipucfg", (int)getpid());
	for (uint32_t ctx = 0; ctx < 2; ctx++) {
		ASSERT_EQ(0, capture("start", self->dev, NULL));
		EXPECT_EQ(0, sram_io_ctx(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, ctx, SRAM_BASE, w, 1,
					 &ts));
		ASSERT_EQ(0, capture("stop", self->dev, path));
		EXPECT_EQ(0, memcmp(w, self->boot, sizeof(w)));
		/* context 1's $m0/$m1 are zero (never set); context 0's the fixture's */
		n = expected_read(want, ctx, ctx == 0, SRAM_BASE, ctx ? 0 : M0, ctx ? 0 : M1,
				  0x5eed5eed, self->before.regs[IPUXCOM_TDI_DBG_IOWNER]);
		expect_words(_metadata, path, want, n);
		unlink(path);
	}
	/* a reset-idle tile: refused before anything is written */
	ASSERT_EQ(0, ixt_reset(self->fd));
	ASSERT_EQ(0, capture("start", self->dev, NULL));
	EXPECT_EQ(-ENOEXEC, sram_io_ctx(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 1, SRAM_BASE, w, 1,
					&ts));
	/* "no config writes captured": the stop fails and writes no file */
	stopped = capture("stop", self->dev, path);
	EXPECT_NE(0, stopped) TH_LOG("a refused session wrote config registers");
	if (!stopped) {
		struct ipuxcom_cfg_record *r = NULL;
		struct ipuxcom_errmsg em;
		uint32_t count = 0;

		if (!ipuxcom_cfg_load(path, &r, &count, &em))
			for (uint32_t i = 0; i < count; i++)
				TH_LOG("write %u: 0x%x = 0x%x", i, r[i].offset, r[i].value);
		free(r);
	}
	EXPECT_NE(0, access(path, F_OK));
	unlink(path);
}

TEST_HARNESS_MAIN
