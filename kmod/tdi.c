// SPDX-License-Identifier: GPL-2.0
/*
 * TDI debug access [S "Debug Readback Pivot"]: register dumps, instruction
 * injection on a stopped context, and tile SRAM read/write through
 * injected loads and stores.
 *
 * Injection, as the notes' direct implementation does it: stop the
 * context through DBG_RBRK, write the instruction owner and the
 * instruction, wait for TDI completion (TDI_STS busy clear), and restore
 * the run-break state found. Only TDI_STS bits are interpreted; CTXT_STS
 * encoding is not documented and is not relied on.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipuxcom_internal.h"
#include "ipuxcom_trace.h"
#include "c600_regs.h"

#define TDI_DEFAULT_TIMEOUT_NS	(100ULL * NSEC_PER_MSEC)
/* Words per user copy in SRAM transfers. */
#define TDI_CHUNK_WORDS		256
#define TDI_STS_ERRORS		(IPUXCOM_TDI_STS_NOT_QUIESCENT | \
				 IPUXCOM_TDI_STS_INVALID | \
				 IPUXCOM_TDI_STS_DOUBLE_ISSUE)

struct tdi_session {
	struct ipuxcom_device *dev;
	u32 tile;
	u32 context;
	u32 saved_rbrk;
	u64 timeout_ns;
	u32 sts;
};

static u32 tdi_reg(u32 tile, u32 reg)
{
	return C600_TDI_BASE + tile * C600_TDI_TILE_STRIDE + reg * 4;
}

/*
 * TDI is the debugger's path: it works in every state, including
 * NEEDS_RESET, where it is the way to look at what went wrong.
 */
static int tdi_check_target(struct ipuxcom_device *dev, u32 tile, u32 context)
{
	if (tile >= dev->tile_count || context >= IPUXCOM_TDI_CONTEXTS)
		return -EINVAL;
	return 0;
}

static int tdi_begin(struct tdi_session *s)
{
	struct ipuxcom_device *dev = s->dev;
	int ret;

	ret = ipuxcom_rd(dev, tdi_reg(s->tile, IPUXCOM_TDI_DBG_RBRK), &s->saved_rbrk);
	if (!ret)
		ret = ipuxcom_wr(dev, tdi_reg(s->tile, IPUXCOM_TDI_DBG_RBRK),
				 s->saved_rbrk | BIT(s->context));
	if (!ret)
		ret = ipuxcom_wr(dev, tdi_reg(s->tile, IPUXCOM_TDI_DBG_IOWNER), s->context);
	return ret;
}

/* Restore the run-break state; keeps the first error of the session. */
static int tdi_end(struct tdi_session *s, int ret)
{
	int r = ipuxcom_wr(s->dev, tdi_reg(s->tile, IPUXCOM_TDI_DBG_RBRK), s->saved_rbrk);

	return ret ?: r;
}

static int tdi_set_data(struct tdi_session *s, u32 value)
{
	return ipuxcom_wr(s->dev, tdi_reg(s->tile, IPUXCOM_TDI_DBG_DATA), value);
}

static int tdi_get_data(struct tdi_session *s, u32 *value)
{
	return ipuxcom_rd(s->dev, tdi_reg(s->tile, IPUXCOM_TDI_DBG_DATA), value);
}

static int tdi_inject(struct tdi_session *s, u32 insn)
{
	struct ipuxcom_device *dev = s->dev;
	u32 sts_reg = tdi_reg(s->tile, IPUXCOM_TDI_TDI_STS);
	int ret;

	ret = ipuxcom_wr(dev, tdi_reg(s->tile, IPUXCOM_TDI_DBG_IEXEC), insn);
	if (ret)
		return ret;
	ret = ipuxcom_poll(dev, sts_reg, IPUXCOM_TDI_STS_BUSY, 0, s->timeout_ns, &s->sts);
	trace_ipuxcom_tdi_inject(dev->id, s->tile, s->context, insn, s->sts);
	if (ret)
		return ret;
	if (!(s->sts & TDI_STS_ERRORS))
		return 0;
	/* Clear the sticky error bits so the next injection starts clean. */
	ret = ipuxcom_wr(dev, tdi_reg(s->tile, IPUXCOM_TDI_TDI_CLR), s->sts & TDI_STS_ERRORS);
	if (ret)
		return ret;
	return s->sts & IPUXCOM_TDI_STS_NOT_QUIESCENT ? -ENOEXEC : -EILSEQ;
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
	ret = tdi_begin(&s);
	if (ret)
		return ret;
	if (te->flags & IPUXCOM_TDI_F_SET_DATA)
		ret = tdi_set_data(&s, te->data_in);
	if (!ret)
		ret = tdi_inject(&s, te->insn);
	if (!ret)
		ret = tdi_get_data(&s, &te->data_out);
	te->tdi_sts = s.sts;
	return tdi_end(&s, ret);
}

static int tdi_check_sram(struct ipuxcom_ioc_tdi_sram *ts)
{
	if (!IS_ALIGNED(ts->addr, 4) || !ts->count ||
	    ts->count > IPUXCOM_TDI_SRAM_MAX_WORDS || ts->addr < C600_SRAM_BASE ||
	    (u64)ts->addr + (u64)ts->count * 4 > (u64)C600_SRAM_BASE + C600_SRAM_SIZE)
		return -EINVAL;
	return 0;
}

/* One word through the stopped context: ld32 (read) or st32 (write). */
static int tdi_word(struct tdi_session *s, u32 addr, u32 *value, bool write)
{
	int ret;

	ret = tdi_set_data(s, addr);
	if (!ret)
		ret = tdi_inject(s, C600_INSN_GET_M1_DBG_DATA);
	if (ret)
		return ret;
	if (write) {
		ret = tdi_set_data(s, *value);
		if (!ret)
			ret = tdi_inject(s, C600_INSN_GET_M0_DBG_DATA);
		if (!ret)
			ret = tdi_inject(s, C600_INSN_ST32_M0_AT_M1);
		return ret;
	}
	ret = tdi_inject(s, C600_INSN_LD32_M0_M15_M1);
	if (!ret)
		ret = tdi_inject(s, C600_INSN_PUT_DBG_DATA_M0);
	if (!ret)
		ret = tdi_get_data(s, value);
	return ret;
}

static int tdi_sram(struct ipuxcom_device *dev, struct ipuxcom_ioc_tdi_sram *ts,
		    bool write)
{
	struct tdi_session s = {
		.dev = dev, .tile = ts->tile, .context = ts->context,
		.timeout_ns = ipuxcom_timeout(ts->timeout_ns, TDI_DEFAULT_TIMEOUT_NS),
	};
	u32 __user *udata = u64_to_user_ptr(ts->data);
	u32 *words, i, n;
	int ret;

	ts->done = 0;
	ts->tdi_sts = 0;
	if (ts->flags)
		return -EINVAL;
	ret = tdi_check_target(dev, ts->tile, ts->context);
	if (!ret)
		ret = tdi_check_sram(ts);
	if (ret)
		return ret;
	words = kmalloc_array(TDI_CHUNK_WORDS, sizeof(*words), GFP_KERNEL);
	if (!words)
		return -ENOMEM;
	ret = tdi_begin(&s);
	while (!ret && ts->done < ts->count) {
		n = min_t(u32, TDI_CHUNK_WORDS, ts->count - ts->done);
		if (write && copy_from_user(words, udata + ts->done, n * 4)) {
			ret = -EFAULT;
			break;
		}
		for (i = 0; i < n; i++) {
			ret = tdi_word(&s, ts->addr + (ts->done + i) * 4, &words[i], write);
			if (ret)
				break;
		}
		/* Report exactly the words that went through, even on error. */
		if (!write && i && copy_to_user(udata + ts->done, words, i * 4))
			ret = -EFAULT;
		else
			ts->done += i;
	}
	ts->tdi_sts = s.sts;
	kfree(words);
	return tdi_end(&s, ret);
}

int ipuxcom_cmd_tdi_read_sram(struct ipuxcom_device *dev, void *arg)
{
	return tdi_sram(dev, arg, false);
}

int ipuxcom_cmd_tdi_write_sram(struct ipuxcom_device *dev, void *arg)
{
	return tdi_sram(dev, arg, true);
}
