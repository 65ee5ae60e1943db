// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's TDI registers (sim/c600_sim.c), driven register by
 * register: what the model does that lets a device test prove a TDI read
 * is non-destructive. A run-break stop takes sim->latency reads of
 * CTXT_STS (modelled), an injection before the stop is not-quiescent
 * (reported per injection), invalid and double issue are sticky until
 * TDI_CLR, a faulting injection raises the context's DBG_ECSR bit and
 * DBG_ECLR clears it (modelled), the inferred put $DBG_DATA,$m1 saves
 * $m1, and the ctx_no_stop / tdi_fail_at faults.
 *
 * Where the records differ or are silent the model takes every form a
 * record shows working: TDI_CLR = 0x6 (the peer's word [RE]) and 0x7;
 * DBG_IOWNER written once for several injections and before each (the
 * peer, and [S] "writes the instruction owner and instruction"); an
 * inactive worker context on a tile whose supervisor is active (the
 * peer's hardware-proven SRAM reads), while an inactive context of a
 * reset-idle tile cannot execute [S].
 */
#include "kselftest_harness.h"

#include "c600_sim.h"

#define TILE		5	/* physical */
#define CTX		0
#define STS_RUNNING	1u	/* CTXT_STS field values (modelled) */
#define STS_STOPPED	2u
#define ERRS		(SIM_TDI_STS_NOT_QUIESCENT | SIM_TDI_STS_INVALID | \
			 SIM_TDI_STS_DOUBLE_ISSUE)

static u32 rd(struct c600_sim *sim, u32 reg)
{
	u32 v = 0xdeadbeef;

	if (c600_sim_bar_read(sim, SIM_TDI_BASE + TILE * SIM_TDI_TILE_STRIDE + reg * 4, &v))
		return 0xdeadbeef;
	return v;
}

static void wr(struct c600_sim *sim, u32 reg, u32 value)
{
	c600_sim_bar_write(sim, SIM_TDI_BASE + TILE * SIM_TDI_TILE_STRIDE + reg * 4, value);
}

static u32 ctx_field(struct c600_sim *sim, unsigned int ctx)
{
	return (rd(sim, SIM_TDI_CTXT_STS) >> SIM_CTXT_STS_SHIFT(ctx)) & 3;
}

/* Inject and wait for BUSY to clear; TDI_STS without BUSY, or ~0 if stuck. */
static u32 inject(struct c600_sim *sim, u32 insn)
{
	u32 sts;

	wr(sim, SIM_TDI_DBG_IEXEC, insn);
	for (int i = 0; i < 100; i++) {
		sts = rd(sim, SIM_TDI_TDI_STS);
		if (!(sts & SIM_TDI_STS_BUSY))
			return sts;
	}
	return ~0u;
}

/* Stop CTX and poll CTXT_STS as the module does; reads until stopped, -1 if never. */
static int stop_and_wait(struct c600_sim *sim, u32 rbrk)
{
	wr(sim, SIM_TDI_DBG_RBRK, rbrk | 1u << CTX);
	for (int i = 1; i <= 100; i++)
		if (ctx_field(sim, CTX) != STS_RUNNING)
			return i;
	return -1;
}

static u32 get_m(struct c600_sim *sim, u32 put_insn)
{
	if (inject(sim, put_insn))
		return 0xbad0bad0;
	return rd(sim, SIM_TDI_DBG_DATA);
}

static u32 set_m(struct c600_sim *sim, u32 get_insn, u32 value)
{
	wr(sim, SIM_TDI_DBG_DATA, value);
	return inject(sim, get_insn);
}

FIXTURE(tdi) {
	struct c600_sim *sim;
};

FIXTURE_SETUP(tdi)
{
	self->sim = c600_sim_create();
	ASSERT_NE(NULL, self->sim);
	/* The secondary loader's context is active [S]: a running supervisor. */
	self->sim->ts[TILE].ctx[CTX] = C600_CTX_RUNNING;
	self->sim->ts[TILE].m[CTX][0] = 0x12345678;
	self->sim->ts[TILE].m[CTX][1] = 0x9abcdef0;
}

FIXTURE_TEARDOWN(tdi)
{
	c600_sim_destroy(self->sim);
}

TEST_F(tdi, stop_takes_latency_reads_of_ctxt_sts)
{
	EXPECT_EQ(STS_RUNNING, ctx_field(self->sim, CTX));
	wr(self->sim, SIM_TDI_DBG_RBRK, 1u << CTX);
	for (u32 i = 0; i < self->sim->latency; i++) {
		EXPECT_EQ(STS_RUNNING, ctx_field(self->sim, CTX)) TH_LOG("read %u", i);
	}
	EXPECT_EQ(STS_STOPPED, ctx_field(self->sim, CTX));
	/* the other contexts are inactive and stay so */
	EXPECT_EQ(STS_STOPPED, rd(self->sim, SIM_TDI_CTXT_STS));
	/* clearing the run-break releases it at once */
	wr(self->sim, SIM_TDI_DBG_RBRK, 0);
	EXPECT_EQ(STS_RUNNING, ctx_field(self->sim, CTX));
}

TEST_F(tdi, zero_latency_stops_at_once)
{
	self->sim->latency = 0;
	wr(self->sim, SIM_TDI_DBG_RBRK, 1u << CTX);
	EXPECT_EQ(0, inject(self->sim, SIM_INSN_NOP));
}

/*
 * A module that does not wait for the stop fails. Not-quiescent is that
 * injection's own (modelled): the next injection, on the stopped context,
 * reports 0 without a TDI_CLR of bit 0, as the peer's sequence needs (it
 * clears 0x6 only and reads bit 0 after each injection as a failure [RE]).
 * Earlier the model kept bit 0 until a TDI_CLR with bit 0, which no
 * record writes.
 */
TEST_F(tdi, not_quiescent_is_reported_per_injection)
{
	u32 sts;

	wr(self->sim, SIM_TDI_DBG_RBRK, 1u << CTX);
	wr(self->sim, SIM_TDI_DBG_IOWNER, CTX);
	sts = inject(self->sim, SIM_INSN_PUT_DBG_DATA_M0);
	EXPECT_EQ(SIM_TDI_STS_NOT_QUIESCENT, sts);
	EXPECT_EQ(0, rd(self->sim, SIM_TDI_DBG_DATA));	/* not executed */
	/* still reported until the next injection */
	EXPECT_EQ(SIM_TDI_STS_NOT_QUIESCENT, rd(self->sim, SIM_TDI_TDI_STS));
	/* wait for the stop this time */
	ASSERT_LT(0, stop_and_wait(self->sim, 0));
	sts = inject(self->sim, SIM_INSN_PUT_DBG_DATA_M0);
	EXPECT_EQ(0, sts);
	EXPECT_EQ(0x12345678, rd(self->sim, SIM_TDI_DBG_DATA));
	EXPECT_EQ(0, inject(self->sim, SIM_INSN_NOP));
}

/*
 * TDI_CLR as the peer writes it, 0x6 (invalid | double issue [S bits],
 * before every injection [RE]), and as 0x7: both clear a sticky invalid,
 * and with either the next injection reports exactly 0. The word each
 * sequence writes is the register value a card would see.
 */
TEST_F(tdi, tdi_clr_0x6_and_0x7_both_clear_the_sticky_errors)
{
	static const u32 words[] = { 0x6, 0x7 };

	ASSERT_LT(0, stop_and_wait(self->sim, 0));
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		/* invalid, sticky */
		wr(self->sim, SIM_TDI_TDI_CLR, words[i]);
		wr(self->sim, SIM_TDI_DBG_IOWNER, CTX);
		EXPECT_EQ(SIM_TDI_STS_INVALID, inject(self->sim, 0xdeadbeef));
		EXPECT_EQ(SIM_TDI_STS_INVALID, rd(self->sim, SIM_TDI_TDI_STS));
		wr(self->sim, SIM_TDI_DBG_ECLR, 1u << CTX);	/* the fault's exception */
		/* the clear word, then the peer's order: owner, instruction */
		wr(self->sim, SIM_TDI_TDI_CLR, words[i]);
		EXPECT_EQ(0, rd(self->sim, SIM_TDI_TDI_STS)) TH_LOG("TDI_CLR 0x%x", words[i]);
		wr(self->sim, SIM_TDI_DBG_IOWNER, CTX);
		EXPECT_EQ(0, set_m(self->sim, SIM_INSN_GET_M0_DBG_DATA, 0x600d0000 + words[i]));
		EXPECT_EQ(0x600d0000 + words[i], self->sim->ts[TILE].m[CTX][0]);
		EXPECT_EQ(0, rd(self->sim, SIM_TDI_TDI_STS));
		/* a not-quiescent injection, then either word: the next one is clean */
		wr(self->sim, SIM_TDI_DBG_IOWNER, CTX + 1);	/* made running: not quiescent */
		self->sim->ts[TILE].ctx[CTX + 1] = C600_CTX_RUNNING;
		EXPECT_EQ(SIM_TDI_STS_NOT_QUIESCENT, inject(self->sim, SIM_INSN_NOP));
		self->sim->ts[TILE].ctx[CTX + 1] = C600_CTX_INACTIVE;
		wr(self->sim, SIM_TDI_TDI_CLR, words[i]);
		wr(self->sim, SIM_TDI_DBG_IOWNER, CTX);
		EXPECT_EQ(0, inject(self->sim, SIM_INSN_NOP)) TH_LOG("TDI_CLR 0x%x", words[i]);
	}
}

/* One SRAM word read through context @ctx; @owner_each: DBG_IOWNER before each injection. */
static u32 read_word(struct c600_sim *sim, u32 ctx, u32 addr, bool owner_each)
{
	static const u32 insns[] = {
		SIM_INSN_GET_M1_DBG_DATA, SIM_INSN_LD32_M0_M15_M1, SIM_INSN_PUT_DBG_DATA_M0,
	};

	wr(sim, SIM_TDI_DBG_IOWNER, ctx);
	wr(sim, SIM_TDI_DBG_DATA, addr);
	for (size_t i = 0; i < sizeof(insns) / sizeof(insns[0]); i++) {
		wr(sim, SIM_TDI_TDI_CLR, 0x6);
		if (owner_each)
			wr(sim, SIM_TDI_DBG_IOWNER, ctx);
		if (inject(sim, insns[i]))
			return 0xbad0bad0;
	}
	return rd(sim, SIM_TDI_DBG_DATA);
}

/* A word stored at @addr of TILE through the stopped CTX; false if that failed. */
static bool store_word(struct c600_sim *sim, u32 addr, u32 word)
{
	wr(sim, SIM_TDI_DBG_IOWNER, CTX);
	return !set_m(sim, SIM_INSN_GET_M1_DBG_DATA, addr) &&
	       !set_m(sim, SIM_INSN_GET_M0_DBG_DATA, word) &&
	       !inject(sim, SIM_INSN_ST32_M0_AT_M1);
}

/*
 * DBG_IOWNER written once for a whole sequence (the module before issue
 * 31) and before every injection (the peer [RE]; [S] "writes the
 * instruction owner and instruction"): both read the word. With the
 * iowner_per_insn knob (the owner does not outlast an injection,
 * modelled) only the per-injection form does.
 */
TEST_F(tdi, iowner_once_or_per_injection_both_read)
{
	ASSERT_LT(0, stop_and_wait(self->sim, 0));
	ASSERT_TRUE(store_word(self->sim, 0x52000, 0xc0ffee01));
	EXPECT_EQ(0xc0ffee01, read_word(self->sim, CTX, 0x52000, false));
	EXPECT_EQ(0xc0ffee01, read_word(self->sim, CTX, 0x52000, true));
	EXPECT_EQ(CTX, rd(self->sim, SIM_TDI_DBG_IOWNER));

	self->sim->faults.iowner_per_insn = true;
	EXPECT_EQ(0xc0ffee01, read_word(self->sim, CTX, 0x52000, true));
	EXPECT_EQ(SIM_IOWNER_NONE, rd(self->sim, SIM_TDI_DBG_IOWNER));
	EXPECT_EQ(0xbad0bad0, read_word(self->sim, CTX, 0x52000, false));
	EXPECT_EQ(SIM_TDI_STS_NOT_QUIESCENT, rd(self->sim, SIM_TDI_TDI_STS));
}

/*
 * The peer reads SRAM through an inactive worker context without a
 * run-break, on loaded tiles whose supervisor is active [RE,
 * hardware-proven]: the model executes there, with the supervisor
 * running or stopped, and leaves the supervisor as it was. The
 * inactive_no_exec knob reads the seed's sentence for every tile.
 */
TEST_F(tdi, inactive_worker_context_of_an_active_tile_executes)
{
	const u32 worker = 1;

	ASSERT_LT(0, stop_and_wait(self->sim, 0));
	ASSERT_TRUE(store_word(self->sim, 0x52004, 0x5eed0001));
	/* the supervisor's $m0/$m1 as the fixture set them: the read must not touch them */
	self->sim->ts[TILE].m[CTX][0] = 0x12345678;
	self->sim->ts[TILE].m[CTX][1] = 0x9abcdef0;
	wr(self->sim, SIM_TDI_DBG_RBRK, 0);
	ASSERT_EQ(STS_RUNNING, ctx_field(self->sim, CTX));
	ASSERT_EQ(0, ctx_field(self->sim, worker));

	/* supervisor running: nothing of DBG_RBRK is written */
	EXPECT_EQ(0x5eed0001, read_word(self->sim, worker, 0x52004, true));
	EXPECT_EQ(STS_RUNNING, ctx_field(self->sim, CTX));
	EXPECT_EQ(0, ctx_field(self->sim, worker));
	EXPECT_EQ(0, rd(self->sim, SIM_TDI_DBG_RBRK));
	/* supervisor stopped (the peer's breakpoint case) */
	ASSERT_LT(0, stop_and_wait(self->sim, 0));
	EXPECT_EQ(0x5eed0001, read_word(self->sim, worker, 0x52004, true));
	/* the worker's own $m registers were used, not the supervisor's */
	EXPECT_EQ(0x12345678, self->sim->ts[TILE].m[CTX][0]);
	EXPECT_EQ(0x9abcdef0, self->sim->ts[TILE].m[CTX][1]);
	EXPECT_EQ(0x52004, self->sim->ts[TILE].m[worker][1]);
	EXPECT_EQ(0x5eed0001, self->sim->ts[TILE].m[worker][0]);

	self->sim->faults.inactive_no_exec = true;
	EXPECT_EQ(0xbad0bad0, read_word(self->sim, worker, 0x52004, true));
	EXPECT_EQ(SIM_TDI_STS_NOT_QUIESCENT, rd(self->sim, SIM_TDI_TDI_STS));
	/* a stopped context still executes */
	EXPECT_EQ(0x5eed0001, read_word(self->sim, CTX, 0x52004, true));
}

TEST_F(tdi, tdi_clr_does_not_clear_busy_and_second_issue_is_double)
{
	ASSERT_LT(0, stop_and_wait(self->sim, 0));
	wr(self->sim, SIM_TDI_DBG_IOWNER, CTX);
	wr(self->sim, SIM_TDI_DBG_IEXEC, SIM_INSN_NOP);
	wr(self->sim, SIM_TDI_TDI_CLR, ~0u);
	EXPECT_NE(0, rd(self->sim, SIM_TDI_TDI_STS) & SIM_TDI_STS_BUSY);
	wr(self->sim, SIM_TDI_DBG_DATA, 0x55);
	wr(self->sim, SIM_TDI_DBG_IEXEC, SIM_INSN_GET_M0_DBG_DATA);
	EXPECT_EQ(SIM_TDI_STS_DOUBLE_ISSUE, inject(self->sim, SIM_INSN_NOP) & ERRS);
	/* the double-issued instruction did not run */
	EXPECT_EQ(0x12345678, self->sim->ts[TILE].m[CTX][0]);
}

/* put $DBG_DATA,$m1 (inferred 0x43108070) reads $m1 into DBG_DATA. */
TEST_F(tdi, put_dbg_data_m1_saves_m1)
{
	ASSERT_EQ(0x43108070u, SIM_INSN_PUT_DBG_DATA_M1);
	ASSERT_LT(0, stop_and_wait(self->sim, 0));
	wr(self->sim, SIM_TDI_DBG_IOWNER, CTX);
	EXPECT_EQ(0x9abcdef0, get_m(self->sim, SIM_INSN_PUT_DBG_DATA_M1));
	EXPECT_EQ(0x12345678, get_m(self->sim, SIM_INSN_PUT_DBG_DATA_M0));
}

TEST_F(tdi, faulting_injection_raises_ecsr_and_eclr_clears_it)
{
	ASSERT_LT(0, stop_and_wait(self->sim, 0));
	wr(self->sim, SIM_TDI_DBG_IOWNER, CTX);
	EXPECT_EQ(0, rd(self->sim, SIM_TDI_DBG_ECSR));
	EXPECT_EQ(SIM_TDI_STS_INVALID, inject(self->sim, 0xdeadbeef));
	EXPECT_EQ(1u << CTX, rd(self->sim, SIM_TDI_DBG_ECSR));
	/* DBG_ECSR is read-only; DBG_ECLR clears only the bits written, reads 0 */
	wr(self->sim, SIM_TDI_DBG_ECSR, 0);
	EXPECT_EQ(1u << CTX, rd(self->sim, SIM_TDI_DBG_ECSR));
	wr(self->sim, SIM_TDI_DBG_ECLR, 1u << (CTX + 1));
	EXPECT_EQ(1u << CTX, rd(self->sim, SIM_TDI_DBG_ECSR));
	wr(self->sim, SIM_TDI_DBG_ECLR, 1u << CTX);
	EXPECT_EQ(0, rd(self->sim, SIM_TDI_DBG_ECSR));
	EXPECT_EQ(0, rd(self->sim, SIM_TDI_DBG_ECLR));
	/* not-quiescent is not an executed fault: no exception */
	wr(self->sim, SIM_TDI_DBG_RBRK, 0);
	wr(self->sim, SIM_TDI_TDI_CLR, ERRS);
	EXPECT_EQ(SIM_TDI_STS_NOT_QUIESCENT, inject(self->sim, 0xdeadbeef));
	EXPECT_EQ(0, rd(self->sim, SIM_TDI_DBG_ECSR));
}

/*
 * 2 or 3 is stopped [RE]; the model reports 3 for a context stopped with
 * its exception bit set, holds it on a cleared run-break, and the peer's
 * DBG_ECLR = context bit releases it.
 */
TEST_F(tdi, state_3_and_eclr_with_the_context_bit)
{
	ASSERT_LT(0, stop_and_wait(self->sim, 0));
	EXPECT_EQ(STS_STOPPED, ctx_field(self->sim, CTX));
	wr(self->sim, SIM_TDI_DBG_IOWNER, CTX);
	EXPECT_EQ(SIM_TDI_STS_INVALID, inject(self->sim, 0xdeadbeef));
	EXPECT_EQ(3, ctx_field(self->sim, CTX));
	/* still stopped: an injection executes there */
	wr(self->sim, SIM_TDI_TDI_CLR, ERRS);
	EXPECT_EQ(0, inject(self->sim, SIM_INSN_NOP));
	/* the run-break restored (clear): held by the exception */
	wr(self->sim, SIM_TDI_DBG_RBRK, 0);
	EXPECT_EQ(3, ctx_field(self->sim, CTX));
	/* DBG_ECLR = the context bit, as the peer writes it: running again */
	wr(self->sim, SIM_TDI_DBG_ECLR, 1u << CTX);
	EXPECT_EQ(0, rd(self->sim, SIM_TDI_DBG_ECSR));
	EXPECT_EQ(STS_RUNNING, ctx_field(self->sim, CTX));
	/* on a context that was only broken, ECLR after the release is harmless */
	ASSERT_LT(0, stop_and_wait(self->sim, 0));
	wr(self->sim, SIM_TDI_DBG_RBRK, 0);
	wr(self->sim, SIM_TDI_DBG_ECLR, 1u << CTX);
	EXPECT_EQ(STS_RUNNING, ctx_field(self->sim, CTX));
	/* with the run-break still set, ECLR does not release */
	ASSERT_LT(0, stop_and_wait(self->sim, 0));
	wr(self->sim, SIM_TDI_DBG_ECLR, 1u << CTX);
	EXPECT_EQ(STS_STOPPED, ctx_field(self->sim, CTX));
}

/* A reset-idle tile: all seven contexts inactive, none can execute [S]. */
TEST_F(tdi, inactive_context_never_stops_nor_executes)
{
	self->sim->ts[TILE].ctx[CTX] = C600_CTX_INACTIVE;
	for (unsigned int c = 0; c < C600_SIM_CONTEXTS; c++)
		ASSERT_EQ(C600_CTX_INACTIVE, self->sim->ts[TILE].ctx[c]);
	EXPECT_EQ(1, stop_and_wait(self->sim, 0));
	EXPECT_EQ(0, ctx_field(self->sim, CTX));
	wr(self->sim, SIM_TDI_DBG_IOWNER, CTX);
	EXPECT_EQ(SIM_TDI_STS_NOT_QUIESCENT, inject(self->sim, SIM_INSN_NOP));
}

TEST_F(tdi, ctx_no_stop_fault)
{
	self->sim->faults.ctx_no_stop = true;
	EXPECT_EQ(-1, stop_and_wait(self->sim, 0));
	wr(self->sim, SIM_TDI_DBG_IOWNER, CTX);
	EXPECT_EQ(SIM_TDI_STS_NOT_QUIESCENT, inject(self->sim, SIM_INSN_NOP));
	/* released, it is running as before */
	wr(self->sim, SIM_TDI_DBG_RBRK, 0);
	EXPECT_EQ(STS_RUNNING, ctx_field(self->sim, CTX));
	/* with the fault cleared, a stop completes again */
	self->sim->faults.ctx_no_stop = false;
	EXPECT_LT(0, stop_and_wait(self->sim, 0));
}

TEST_F(tdi, tdi_fail_at_fails_the_nth_injection_once)
{
	ASSERT_LT(0, stop_and_wait(self->sim, 0));
	wr(self->sim, SIM_TDI_DBG_IOWNER, CTX);
	self->sim->faults.tdi_fail_at = 2;
	EXPECT_EQ(0, set_m(self->sim, SIM_INSN_GET_M0_DBG_DATA, 0x1111));
	EXPECT_EQ(SIM_TDI_STS_INVALID, set_m(self->sim, SIM_INSN_GET_M0_DBG_DATA, 0x2222));
	EXPECT_EQ(0x1111, self->sim->ts[TILE].m[CTX][0]);	/* the failed one did nothing */
	EXPECT_EQ(0, self->sim->faults.tdi_fail_at);
	wr(self->sim, SIM_TDI_TDI_CLR, ERRS);
	EXPECT_EQ(0, set_m(self->sim, SIM_INSN_GET_M0_DBG_DATA, 0x3333));
	EXPECT_EQ(0x3333, self->sim->ts[TILE].m[CTX][0]);
}

/*
 * The read sequence of HW-TDI-READ against the model: wait
 * for the stop, save $m0/$m1, read a word, restore. The word is read and
 * $m0, $m1, DBG_RBRK and CTXT_STS end as they were. Without the restore
 * the read is destructive, which is what the device tests guard against.
 */
TEST_F(tdi, careful_read_is_non_destructive)
{
	const u32 word = 0xa5a5c3c3, addr = 0x52000;
	u32 rbrk0, ctxt0, m0, m1, got;
	u8 back[4];

	/* put the word in place through the store instruction itself */
	ASSERT_LT(0, stop_and_wait(self->sim, 0));
	wr(self->sim, SIM_TDI_DBG_IOWNER, CTX);
	ASSERT_EQ(0, set_m(self->sim, SIM_INSN_GET_M1_DBG_DATA, addr));
	ASSERT_EQ(0, set_m(self->sim, SIM_INSN_GET_M0_DBG_DATA, word));
	ASSERT_EQ(0, inject(self->sim, SIM_INSN_ST32_M0_AT_M1));
	ASSERT_EQ(0, set_m(self->sim, SIM_INSN_GET_M0_DBG_DATA, 0x12345678));
	ASSERT_EQ(0, set_m(self->sim, SIM_INSN_GET_M1_DBG_DATA, 0x9abcdef0));
	wr(self->sim, SIM_TDI_DBG_RBRK, 0);
	ASSERT_EQ(0, c600_sim_sram_read(self->sim, TILE, addr, back, 4));
	ASSERT_EQ(0xc3, back[0]);
	ASSERT_EQ(0xa5, back[3]);

	rbrk0 = rd(self->sim, SIM_TDI_DBG_RBRK);
	ctxt0 = rd(self->sim, SIM_TDI_CTXT_STS);
	ASSERT_LT(0, stop_and_wait(self->sim, rbrk0));
	wr(self->sim, SIM_TDI_DBG_IOWNER, CTX);
	m0 = get_m(self->sim, SIM_INSN_PUT_DBG_DATA_M0);
	m1 = get_m(self->sim, SIM_INSN_PUT_DBG_DATA_M1);
	ASSERT_EQ(0, set_m(self->sim, SIM_INSN_GET_M1_DBG_DATA, addr));
	ASSERT_EQ(0, inject(self->sim, SIM_INSN_LD32_M0_M15_M1));
	got = get_m(self->sim, SIM_INSN_PUT_DBG_DATA_M0);
	EXPECT_EQ(word, got);
	/* without restoring, the read is destructive */
	EXPECT_EQ(word, self->sim->ts[TILE].m[CTX][0]);
	EXPECT_EQ(addr, self->sim->ts[TILE].m[CTX][1]);
	ASSERT_EQ(0, set_m(self->sim, SIM_INSN_GET_M0_DBG_DATA, m0));
	ASSERT_EQ(0, set_m(self->sim, SIM_INSN_GET_M1_DBG_DATA, m1));
	wr(self->sim, SIM_TDI_DBG_RBRK, rbrk0);
	EXPECT_EQ(0x12345678, self->sim->ts[TILE].m[CTX][0]);
	EXPECT_EQ(0x9abcdef0, self->sim->ts[TILE].m[CTX][1]);
	EXPECT_EQ(rbrk0, rd(self->sim, SIM_TDI_DBG_RBRK));
	EXPECT_EQ(ctxt0, rd(self->sim, SIM_TDI_CTXT_STS));
}

TEST_HARNESS_MAIN
