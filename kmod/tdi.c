// SPDX-License-Identifier: GPL-2.0-only
/*
 * TDI debug access [S "Debug Readback Pivot"]: register dumps, instruction
 * injection on a stopped context, and tile SRAM read/write through
 * injected loads and stores.
 *
 * Every command is one session that leaves the tile as it found it
 * ([S]: "restore the thread state"; HW-TDI-READ), in the way the
 * hardware-proven peer stops and releases a context (HW-TDI-CTXT):
 *
 *   begin:  read DBG_RBRK, DBG_IOWNER and CTXT_STS. The context's state is
 *           (CTXT_STS >> 2*context) & 3; 2 or 3 is stopped [RE]. A context
 *           found stopped is used as it is and left stopped. An inactive
 *           context (modelled state 0) is used the same way, as the peer
 *           does to read SRAM through an inactive worker context [RE],
 *           unless the whole tile is reset-idle (every context inactive),
 *           where [S] found that nothing can execute: -ENOEXEC, and
 *           nothing is written then or at the end. Otherwise DBG_RBRK |=
 *           the context bit and CTXT_STS is polled (up to the command's
 *           timeout, 100 ms by default as the peer) until the state is 2
 *           or 3.
 *           SRAM transfers also save DBG_DATA and then $m0 and $m1 with
 *           put $DBG_DATA,$m0 / put $DBG_DATA,$m1 (the latter INFERRED,
 *           see c600_regs.h).
 *   inject: the peer's three writes [RE], each injection: TDI_CLR = 0x6
 *           (invalid | double issue: the sticky error bits), DBG_IOWNER =
 *           context ([S]: "writes the instruction owner and instruction"),
 *           DBG_IEXEC; then wait for TDI_STS busy to clear and interpret
 *           the error bits (not-quiescent, invalid, double issue).
 *   end:    on every path, whatever was read at begin is written back:
 *           $m0/$m1 with get $m0/$m1,$DBG_DATA (unless an injection never
 *           completed: another would be a double issue, and the device is
 *           already NEEDS_RESET), DBG_DATA, DBG_IOWNER; TDI_CLR = 0x6
 *           again. If this session broke the context: DBG_RBRK restored,
 *           then, if the context's bit was not set in it before, DBG_ECLR
 *           (register 6) = the context bit [RE]. Nothing read is nothing
 *           written: a failed first read of DBG_RBRK writes nothing back.
 *
 * The first error is returned; a failed restore does not mask it but
 * marks the device NEEDS_RESET. TDI_EXEC is the user's raw injection: its
 * effect on $m registers and DBG_DATA is the point and is kept, so it
 * does not save them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipuxcom_internal.h"
#include "ipuxcom_trace.h"
#include "c600_regs.h"

#define TDI_DEFAULT_TIMEOUT_NS	C600_CTXT_STOP_WAIT_NS
/* Words of an SRAM transfer between two cond_resched(). */
#define TDI_CHUNK_WORDS		256
#define TDI_STS_ERRORS		(IPUXCOM_TDI_STS_NOT_QUIESCENT | \
				 IPUXCOM_TDI_STS_INVALID | \
				 IPUXCOM_TDI_STS_DOUBLE_ISSUE)
/*
 * The TDI_CLR word: 0x6, invalid | double issue, as the hardware-proven
 * peer writes it before every injection [RE]. Not-quiescent (bit 0) is
 * not in it: the peer never writes bit 0 and reads it after each
 * injection as that injection's failure.
 */
#define TDI_CLR_WORD		(IPUXCOM_TDI_STS_INVALID | IPUXCOM_TDI_STS_DOUBLE_ISSUE)

struct tdi_session {
	struct ipuxcom_device *dev;
	u32 tile;
	u32 context;
	u64 timeout_ns;
	u32 sts;		/* TDI_STS after the last injection */
	bool save_m;		/* save/restore $m0, $m1 and DBG_DATA */
	bool stuck;		/* an injection never completed */
	/* Found at begin; each is written back only if it was read. */
	bool have_rbrk, have_owner, have_data, have_m;
	bool broke;		/* this session set the context's run-break */
	bool wrote;		/* this session wrote a register */
	u32 rbrk, owner, data, m0, m1;
};

static u32 tdi_reg(u32 tile, u32 reg)
{
	return C600_TDI_BASE + tile * C600_TDI_TILE_STRIDE + reg * 4;
}

static int tdi_rd(struct tdi_session *s, u32 reg, u32 *value)
{
	return ipuxcom_rd(s->dev, tdi_reg(s->tile, reg), value);
}

static int tdi_wr(struct tdi_session *s, u32 reg, u32 value)
{
	s->wrote = true;
	return ipuxcom_wr(s->dev, tdi_reg(s->tile, reg), value);
}

/*
 * TDI is the debugger's path: it works in every state, including
 * NEEDS_RESET, where it is the way to look at what went wrong. A tile
 * that passed is then clamped with array_index_nospec() by the caller:
 * a backend (the simulator) indexes its tiles by the register offset.
 */
static int tdi_check_target(struct ipuxcom_device *dev, u32 tile, u32 context)
{
	if (tile >= dev->tile_count || context >= IPUXCOM_TDI_CONTEXTS)
		return -EINVAL;
	return 0;
}

static int tdi_inject(struct tdi_session *s, u32 insn)
{
	struct ipuxcom_device *dev = s->dev;
	int ret;

	/*
	 * The peer's order [RE]: clear the sticky error bits so TDI_STS
	 * reports this instruction, name the owner, inject.
	 */
	ret = tdi_wr(s, IPUXCOM_TDI_TDI_CLR, TDI_CLR_WORD);
	if (!ret)
		ret = tdi_wr(s, IPUXCOM_TDI_DBG_IOWNER, s->context);
	if (!ret)
		ret = tdi_wr(s, IPUXCOM_TDI_DBG_IEXEC, insn);
	if (ret)
		return ret;
	ret = ipuxcom_poll(dev, tdi_reg(s->tile, IPUXCOM_TDI_TDI_STS), IPUXCOM_TDI_STS_BUSY, 0,
			   s->timeout_ns, &s->sts);
	trace_ipuxcom_tdi_inject(dev->id, s->tile, s->context, insn, s->sts);
	if (ret) {
		s->stuck = true;
		return ret;
	}
	if (!(s->sts & TDI_STS_ERRORS))
		return 0;
	return s->sts & IPUXCOM_TDI_STS_NOT_QUIESCENT ? -ENOEXEC : -EILSEQ;
}

/* Inject put $DBG_DATA,$mN and read the value out. */
static int tdi_get_m(struct tdi_session *s, u32 insn, u32 *value)
{
	int ret = tdi_inject(s, insn);

	return ret ?: tdi_rd(s, IPUXCOM_TDI_DBG_DATA, value);
}

/* DBG_DATA = @value, then inject get $mN,$DBG_DATA. */
static int tdi_set_m(struct tdi_session *s, u32 insn, u32 value)
{
	int ret = tdi_wr(s, IPUXCOM_TDI_DBG_DATA, value);

	return ret ?: tdi_inject(s, insn);
}

/*
 * Stop the context [RE]: a context in state 2 or 3 is stopped already and
 * is used as it is; so is an inactive one, unless every context of the
 * tile is inactive; otherwise DBG_RBRK |= its bit and CTXT_STS is polled
 * until it reads 2 or 3.
 */
static int tdi_stop(struct tdi_session *s)
{
	u32 ctx = s->context, reg = tdi_reg(s->tile, IPUXCOM_TDI_CTXT_STS), sts, state;
	int ret;

	ret = tdi_rd(s, IPUXCOM_TDI_CTXT_STS, &sts);
	if (ret)
		return ret;
	state = C600_CTXT_STATE(sts, ctx);
	if (C600_CTXT_IS_STOPPED(state))
		return 0;
	/*
	 * Inactive: the peer reads SRAM of a loaded tile through an inactive
	 * worker context as a quiescent one, without a run-break [RE]; on a
	 * reset-idle tile (every context inactive) nothing can execute [S],
	 * so nothing is written there. The injection's TDI_STS has the last
	 * word.
	 */
	if (state == C600_CTXT_INACTIVE)
		return sts & C600_CTXT_STS_ALL ? 0 : -ENOEXEC;
	ret = tdi_wr(s, IPUXCOM_TDI_DBG_RBRK, s->rbrk | C600_DBG_RBRK_CTX(ctx));
	if (ret)
		return ret;
	s->broke = true;
	/* Any state but running ends the wait: 2|3 stopped, 0 went inactive. */
	ret = ipuxcom_poll_ne(s->dev, reg, 3u << C600_CTXT_STS_SHIFT(ctx),
			      C600_CTXT_RUNNING << C600_CTXT_STS_SHIFT(ctx), s->timeout_ns, &sts);
	if (ret)
		return ret;
	return C600_CTXT_IS_STOPPED(C600_CTXT_STATE(sts, ctx)) ? 0 : -ENOEXEC;
}

static int tdi_begin(struct tdi_session *s)
{
	int ret;

	ret = tdi_rd(s, IPUXCOM_TDI_DBG_RBRK, &s->rbrk);
	if (ret)
		return ret;
	s->have_rbrk = true;
	ret = tdi_rd(s, IPUXCOM_TDI_DBG_IOWNER, &s->owner);
	if (ret)
		return ret;
	s->have_owner = true;
	ret = tdi_stop(s);
	if (ret || !s->save_m)
		return ret;
	ret = tdi_rd(s, IPUXCOM_TDI_DBG_DATA, &s->data);
	if (ret)
		return ret;
	s->have_data = true;
	/* Saving reads the registers only: a failure here leaves them as they were. */
	ret = tdi_get_m(s, C600_INSN_PUT_DBG_DATA_M0, &s->m0);
	if (!ret)
		ret = tdi_get_m(s, C600_INSN_PUT_DBG_DATA_M1, &s->m1);
	if (!ret)
		s->have_m = true;
	return ret;
}

static void tdi_keep_first(int *first, int ret)
{
	if (!*first)
		*first = ret;
}

/*
 * Put back what tdi_begin() found, on every path; returns the first error.
 * A session that wrote nothing (refused on what it read) has nothing to
 * put back and writes nothing.
 */
static int tdi_end(struct tdi_session *s, int ret)
{
	u32 bit = C600_DBG_RBRK_CTX(s->context), sts = s->sts;
	int r = 0, e;

	if (!s->wrote)
		return ret;
	if (s->have_m && !s->stuck) {
		e = tdi_set_m(s, C600_INSN_GET_M0_DBG_DATA, s->m0);
		tdi_keep_first(&r, e);
		e = tdi_set_m(s, C600_INSN_GET_M1_DBG_DATA, s->m1);
		tdi_keep_first(&r, e);
		s->sts = sts;	/* report the transfer's status, not the restore's */
	}
	if (s->have_data)
		tdi_keep_first(&r, tdi_wr(s, IPUXCOM_TDI_DBG_DATA, s->data));
	if (s->have_owner)
		tdi_keep_first(&r, tdi_wr(s, IPUXCOM_TDI_DBG_IOWNER, s->owner));
	if (s->have_rbrk)
		tdi_keep_first(&r, tdi_wr(s, IPUXCOM_TDI_TDI_CLR, TDI_CLR_WORD));
	/*
	 * A context this session broke: DBG_RBRK as found, then, if the
	 * context was not broken before, DBG_ECLR = its bit [RE]. One found
	 * stopped is left stopped, and nothing of its run-break is written.
	 */
	if (s->broke) {
		tdi_keep_first(&r, tdi_wr(s, IPUXCOM_TDI_DBG_RBRK, s->rbrk));
		if (!(s->rbrk & bit))
			tdi_keep_first(&r, tdi_wr(s, IPUXCOM_TDI_DBG_ECLR,
						  C600_DBG_ECLR_CTX(s->context)));
	}
	if (r) {
		pr_warn_ratelimited("device %u: tile %u context %u: TDI state not restored (%d)\n",
				    s->dev->id, s->tile, s->context, r);
		ipuxcom_set_state(s->dev, IPUXCOM_DEV_STATE_NEEDS_RESET);
	}
	return ret ?: r;
}

int ipuxcom_cmd_tdi_read_regs(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_tdi_regs *tr = arg;
	u32 r;
	int ret;

	memset(tr->regs, 0, sizeof(tr->regs));
	tr->count = 0;
	ret = tdi_check_target(dev, tr->tile, 0);
	if (ret)
		return ret;
	tr->tile = array_index_nospec(tr->tile, dev->tile_count);
	for (r = 0; r < IPUXCOM_TDI_NREGS; r++) {
		ret = ipuxcom_rd(dev, tdi_reg(tr->tile, r), &tr->regs[r]);
		if (ret)
			return ret;
	}
	tr->count = IPUXCOM_TDI_NREGS;
	return 0;
}

int ipuxcom_cmd_tdi_exec(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_tdi_exec *te = arg;
	struct tdi_session s = {
		.dev = dev, .tile = te->tile, .context = te->context,
		.timeout_ns = ipuxcom_timeout(te->timeout_ns, TDI_DEFAULT_TIMEOUT_NS),
	};
	int ret;

	te->data_out = 0;
	te->tdi_sts = 0;
	ret = tdi_check_target(dev, te->tile, te->context);
	if (ret)
		return ret;
	s.tile = array_index_nospec(s.tile, dev->tile_count);
	ret = tdi_begin(&s);
	if (!ret && (te->flags & IPUXCOM_TDI_F_SET_DATA))
		ret = tdi_wr(&s, IPUXCOM_TDI_DBG_DATA, te->data_in);
	if (!ret)
		ret = tdi_inject(&s, te->insn);
	if (!ret)
		ret = tdi_rd(&s, IPUXCOM_TDI_DBG_DATA, &te->data_out);
	ret = tdi_end(&s, ret);
	te->tdi_sts = s.sts;
	return ret;
}

static int tdi_check_sram(struct ipuxcom_ioc_tdi_sram *ts)
{
	if (!IS_ALIGNED(ts->addr, 4) || !ts->count ||
	    ts->count > IPUXCOM_TDI_SRAM_MAX_WORDS || ts->addr < C600_SRAM_BASE ||
	    (u64)ts->addr + (u64)ts->count * 4 > (u64)C600_SRAM_BASE + C600_SRAM_SIZE)
		return -EINVAL;
	return 0;
}

/*
 * One word through the stopped context [S, HW-TDI-READ]: get $m1,$DBG_DATA
 * (address), then ld32 + put $DBG_DATA,$m0 (read) or get $m0,$DBG_DATA +
 * st32 (write). Clobbers $m0/$m1; tdi_end() restores them.
 */
static int tdi_word(struct tdi_session *s, u32 addr, u32 *value, bool write)
{
	int ret;

	ret = tdi_set_m(s, C600_INSN_GET_M1_DBG_DATA, addr);
	if (ret)
		return ret;
	if (write) {
		ret = tdi_set_m(s, C600_INSN_GET_M0_DBG_DATA, *value);
		return ret ?: tdi_inject(s, C600_INSN_ST32_M0_AT_M1);
	}
	ret = tdi_inject(s, C600_INSN_LD32_M0_M15_M1);
	return ret ?: tdi_get_m(s, C600_INSN_PUT_DBG_DATA_M0, value);
}

/*
 * The words, staged before any lock (core.c): a write's come in, a read's
 * go out afterwards, and done then counts the words that reached the
 * caller's buffer, on every return.
 */
static int tdi_payload(void *arg, struct ipuxcom_payload *pl, bool write)
{
	struct ipuxcom_ioc_tdi_sram *ts = arg;
	int ret;

	ts->done = 0;
	ts->tdi_sts = 0;
	ret = tdi_check_sram(ts);
	if (ret)
		return ret;
	pl->uptr = u64_to_user_ptr(ts->data);
	pl->len = (size_t)ts->count * 4;
	if (write) {
		pl->copy_in = pl->len;
	} else {
		pl->out = true;
		pl->progress = &ts->done;
		pl->unit = 4;
	}
	return 0;
}

int ipuxcom_tdi_read_payload(void *arg, struct ipuxcom_payload *pl)
{
	return tdi_payload(arg, pl, false);
}

int ipuxcom_tdi_write_payload(void *arg, struct ipuxcom_payload *pl)
{
	return tdi_payload(arg, pl, true);
}

static int tdi_sram(struct ipuxcom_device *dev, struct ipuxcom_ioc_tdi_sram *ts,
		    struct ipuxcom_payload *pl, bool write)
{
	struct tdi_session s = {
		.dev = dev, .tile = ts->tile, .context = ts->context, .save_m = true,
		.timeout_ns = ipuxcom_timeout(ts->timeout_ns, TDI_DEFAULT_TIMEOUT_NS),
	};
	u32 *words = pl->kbuf;
	int ret;

	ret = tdi_check_target(dev, ts->tile, ts->context);
	if (ret)
		return ret;
	s.tile = array_index_nospec(s.tile, dev->tile_count);
	ret = tdi_begin(&s);
	/* Exactly the words that went through count, even on error. */
	while (!ret && ts->done < ts->count) {
		ret = tdi_word(&s, ts->addr + ts->done * 4, &words[ts->done], write);
		if (!ret)
			ts->done++;
		if (!(ts->done % TDI_CHUNK_WORDS))
			cond_resched();
	}
	pl->done = (size_t)ts->done * 4;
	ret = tdi_end(&s, ret);
	ts->tdi_sts = s.sts;
	return ret;
}

int ipuxcom_cmd_tdi_read_sram(struct ipuxcom_device *dev, void *arg, struct ipuxcom_payload *pl)
{
	return tdi_sram(dev, arg, pl, false);
}

int ipuxcom_cmd_tdi_write_sram(struct ipuxcom_device *dev, void *arg, struct ipuxcom_payload *pl)
{
	return tdi_sram(dev, arg, pl, true);
}
