// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Proper multicast [S "Proper Multicast", assembleMulticast]: one mode-3
 * (BROADCAST [DW]) source stream and one receive row per destination.
 *
 *   t[i]        = TimeToMux(s, r[i])
 *   start       = max(0, -min t[i])
 *   sendDelay   = start - 1            (-1: delay omitted, send at event 0;
 *                                       no trailing delay at short counts:
 *                                       docs/exchange-plans.md "Short sender rows")
 *   recvTime[i] = start + t[i]
 * scheduleOffset adds the same number of events to the send and to every
 * receive time, so streams placed at different offsets do not overlap [S
 * "One-Codelet Matrix Multiply"]. The sender uses the normal send/sendoff
 * split above 64 words; each receiver starts with
 * delayxpic(recvTime[i], 0, s) and continues with the p2p receive schedule
 * whose delaypic word is ORed with 0x00014000 and carries
 * (dst - 0x50000) / 4 in its low field; send carries src / 4.
 *
 * Destination range (inferred): 0x14000 = 0x50000 / 4, so flag | offset
 * equals the absolute word address dst / 4 whenever the offset has neither
 * flag bit (14, 16) set. The notes do not say which reading the hardware
 * uses ("flag ORed with an offset" or "absolute word address"); the two
 * agree exactly when (offset & 0x14000) == 0, i.e. dst in 0x50000..0x5ffff,
 * 0x70000..0x7ffff or 0xd0000..0xdffff. Only those are accepted; the
 * notes' own examples (0x50120, 0x50130) lie in the first window.
 *
 * Row layout (modelled on the p2p rows): the sender row is code from word
 * 0; a receiver row keeps the p2p layout with word 0 holding the index (from
 * the code start) of the address word, so one vertex shape patches both.
 * The notes say CSR A6 (INCOMING_DCOUNT, 0xa6 [RE]) must stay 1 until the
 * exchange completes: that is the vertex's job, not a plan word.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "plan_internal.h"

#define IXC_RECV_FIELD_MAX	0xfffu		/* delayxpic delay: 12 bits [S] */

int ixc_check_sram(uint32_t addr, uint32_t count, bool dst, struct ipuxcom_plan_error *err,
		   const char *field)
{
	uint32_t off;

	if (addr & 3)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ALIGN, field,
				     "%s 0x%x not 4-byte aligned", field, addr);
	/* Tile SRAM 0x4c000 + 624 KiB [RE]. */
	if (addr < IPUXCOM_SRAM_BASE || addr >= IPUXCOM_SRAM_END ||
	    count > (IPUXCOM_SRAM_END - addr) / 4)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ADDR, field,
				     "%s 0x%x + %u words not inside tile SRAM 0x%x..0x%x", field,
				     addr, count, IPUXCOM_SRAM_BASE, IPUXCOM_SRAM_END - 1);
	if (!dst)
		return 0;
	if (addr < IPUXCOM_MCAST_DST_BASE)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ADDR_FLAG, field,
				     "%s 0x%x below the multicast destination base 0x%x", field,
				     addr, IPUXCOM_MCAST_DST_BASE);
	off = (addr - IPUXCOM_MCAST_DST_BASE) / 4;
	if (off & IPUXCOM_MCAST_FLAG)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ADDR_FLAG, field,
				     "%s 0x%x: word offset 0x%x overlaps the multicast flag 0x%x "
				     "(inferred; use 0x50000-0x5ffff, 0x70000-0x7ffff, "
				     "0xd0000-0xdffff)", field, addr, off, IPUXCOM_MCAST_FLAG);
	return 0;
}

/*
 * Check every destination and put TimeToMux(s, receivers[i]) in
 * rows[1 + i].event (scratch), with the min, the max and where the max is.
 * @recon: @tm is the default model, called inline (a constant at each call
 * site, so the test leaves the loop).
 */
__attribute__((always_inline))
static inline int ixc_mcast_times(const struct ipuxcom_timing *tm, bool recon,
				  const struct ipuxcom_fanout_req *req, uint32_t s,
				  const uint16_t *phys, uint32_t dst_mask, uint32_t dst_lim,
				  struct ipuxcom_plan_row *rows, int32_t *min_t, int32_t *max_t,
				  uint32_t *arg_max, struct ipuxcom_plan_error *err)
{
	int32_t lo = *min_t, hi = *max_t;
	char field[32];

	for (uint32_t i = 0; i < req->nrecv; i++) {
		uint32_t off = req->dst_addr[i] - IPUXCOM_MCAST_DST_BASE;
		unsigned int dir = 0;
		int t = 0;

		/* ixc_check_sram() reports a failure. */
		if (__builtin_expect((off & dst_mask) != 0 || off > dst_lim, 0)) {
			snprintf(field, sizeof(field), "dst_addr[%u]", i);
			return ixc_check_sram(req->dst_addr[i], req->count, true, err, field);
		}
		/* ixc_timing_pair(), with its checks, the model's branch taken outside */
		t = recon ? ixc_recon_pair_inline(s, phys[i], &dir) :
			    tm->ops->pair(tm, s, phys[i], &dir);
		if (__builtin_expect(t < -IPUXCOM_WORST_SEND_DELAY || t > IPUXCOM_WORST_RECV_DELAY ||
				     dir - 1 > 1, 0)) {
			snprintf(field, sizeof(field), "receivers[%u]", i);
			return ixc_timing_bad(tm, s, phys[i], t, dir, err, field);
		}
		rows[1 + i].event = t;
		if (t < lo)
			lo = t;
		if (t > hi) {
			hi = t;
			*arg_max = i;
		}
	}
	*min_t = lo;
	*max_t = hi;
	return 0;
}

int ipuxcom_plan_multicast(const struct ipuxcom_timing *tm, const struct ipuxcom_fanout_req *req,
			   struct ipuxcom_plan_row *rows, size_t nrows,
			   struct ipuxcom_multicast_info *info, struct ipuxcom_plan_error *err)
{
	struct ipuxcom_multicast_info mi = IPUXCOM_MULTICAST_INFO_INIT;
	struct ipuxcom_fanout_req q;
	int ret;

	if ((ret = ixc_fanout_in(req, rows, &q, info, IPUXCOM_MULTICAST_INFO_SIZE_MIN,
				 "IPUXCOM_MULTICAST_INFO_INIT", err)))
		return ret;
	/* 64-bit when allowed (plan_multicast_wide.c): opt-in, off the fast path. */
	ret = q.flags & IPUXCOM_PLAN_WIDE ?
	      ixc_mcast_wide(tm, &q, rows, nrows, info ? &mi : NULL, err) :
	      ixc_mcast32(tm, &q, rows, nrows, info ? &mi : NULL, err);
	if (!ret && info)
		ixc_struct_out(info, info->size, &mi, sizeof(mi));
	return ret;
}

int ixc_mcast32(const struct ipuxcom_timing *tm, const struct ipuxcom_fanout_req *req,
		struct ipuxcom_plan_row *rows, size_t nrows, struct ipuxcom_multicast_info *info,
		struct ipuxcom_plan_error *err)
{
	uint16_t phys[IPUXCOM_TILES];
	uint32_t s = 0, bad = 0, count, *w;
	int32_t min_t = 1000, max_t = -1000;
	uint32_t arg_max = 0;
	uint64_t base, recv_max;
	unsigned int n = 0;
	int ret;

	ret = ixc_fanout_check(req, IPUXCOM_TILES - 1, "(multicast)", &s, phys, err);
	if (ret)
		return ret;
	if (!req->dst_addr)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "dst_addr",
				     "dst_addr is NULL: multicast needs a destination per receiver");
	if (nrows < (size_t)req->nrecv + 1)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SPACE, "nrows",
				     "nrows %zu too small: need nrecv + 1 = %u", nrows,
				     req->nrecv + 1);
	count = req->count;
	ret = ixc_check_sram(req->src_addr, count, false, err, "src_addr");
	if (ret)
		return ret;
	tm = ixc_timing(tm);
	/*
	 * The rules of ixc_check_sram() for destinations, as one mask and one
	 * comparison on off = dst - 0x50000 (unsigned: below the base wraps
	 * above any limit): aligned and clear of the flag bits when
	 * (off & (3 | flag << 2)) == 0; count words inside SRAM when
	 * off <= SRAM_END - 0x50000 - 4 * count (count <= 4148 keeps it positive).
	 */
	const uint32_t dst_mask = 3u | IPUXCOM_MCAST_FLAG << 2;
	const uint32_t dst_lim = IPUXCOM_SRAM_END - IPUXCOM_MCAST_DST_BASE - 4 * count;

	ret = tm->ops == &ixc_recon_ops ?
	      ixc_mcast_times(tm, true, req, s, phys, dst_mask, dst_lim, rows, &min_t, &max_t,
			      &arg_max, err) :
	      ixc_mcast_times(tm, false, req, s, phys, dst_mask, dst_lim, rows, &min_t, &max_t,
			      &arg_max, err);
	if (ret)
		return ret;
	/* start = max(0, -min t[i]) [S]; the whole stream shifted by the offset. */
	base = (uint64_t)(min_t < 0 ? -min_t : 0) + req->schedule_offset;
	recv_max = base + (uint64_t)(int64_t)max_t;
	if (recv_max > IXC_RECV_FIELD_MAX)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SCHEDULE, "schedule_offset",
				     "receivers[%u] (physical %u): receive cycle %llu = start %d + "
				     "TimeToMux %d + schedule_offset %u does not fit delayxpic's 12 "
				     "bits (max %u)", arg_max, phys[arg_max],
				     (unsigned long long)recv_max, min_t < 0 ? -min_t : 0, max_t,
				     req->schedule_offset, IXC_RECV_FIELD_MAX);

	ixc_row_init(&rows[0], s, IPUXCOM_ROLE_SEND);
	w = rows[0].words;
	w[n++] = IXC_SYNC3;
	if (base > 0)
		w[n++] = ixc_delay((uint32_t)(base - 1), &bad);
	rows[0].addr = (int8_t)n;
	w[n++] = ixc_send((count < 64 ? count : 64) - 1, req->src_addr / 4,
			  IPUXCOM_DIR_BROADCAST, &bad);
	if (count > 64)
		w[n++] = ixc_sendoff(count - 65, 0, IPUXCOM_DIR_BROADCAST, &bad);
	w[n++] = IPUXCOM_WORD_BR_M10;
	rows[0].nwords = (uint8_t)n;
	rows[0].event = (int32_t)base;

	/*
	 * Every receiver row is the same but for its tile, its receive time
	 * (first delayxpic), its row term 2r and its address (both in the
	 * delaypic word). The schedule is built once for row 0 and pic 0;
	 * each receiver adds its own fields to the delaypic word, checked like
	 * the encoders: 2r + the delay must fit 7 bits and pic 18 (*bad). The
	 * words are stored one by one (a row copied from a template on the
	 * stack stalls on store forwarding).
	 */
	{
		uint32_t sched[3], pic_delay, k, xpic = ixc_delayxpic(0, 0, s, &bad);
		const uint32_t *dst = req->dst_addr;

		k = ixc_recv_schedule(count, 0, 0, sched, &bad);
		pic_delay = (sched[k] >> 19) & 0x7f;
		/*
		 * The receivers' fields checked at their bounds, once: receive
		 * times <= recv_max, rows <= 22, word offsets <= dst_lim / 4.
		 */
		bad |= ((uint32_t)recv_max >> 12) |
		       ((pic_delay + 2 * (IPUXCOM_PHYS_ROWS - 1)) >> 7) |
		       ((IPUXCOM_MCAST_FLAG | dst_lim / 4) >> 18);
		for (uint32_t i = 0; i < req->nrecv; i++) {
			struct ipuxcom_plan_row *row = &rows[1 + i];
			uint32_t recv = (uint32_t)(base + (uint64_t)(int64_t)row->event);
			uint32_t pic = IPUXCOM_MCAST_FLAG | (dst[i] - IPUXCOM_MCAST_DST_BASE) / 4;
			uint32_t two_r = 2 * ixc_phys_row(phys[i]);
			uint32_t pw = (sched[k] + (two_r << 19)) | pic;

			/* index of the address word (from the code start); sync 3; ... */
			ixc_row_store(row, 2 + k, IXC_SYNC3, xpic | recv << 14, k ? sched[0] : pw,
				      k ? pw : sched[1], sched[2], IPUXCOM_WORD_BR_M10, 0, 0, phys[i],
				      IPUXCOM_ROLE_RECV, 7, -1, (int8_t)(3 + k), (int32_t)recv);
		}
	}
	if (info) {
		info->min_t = min_t;
		info->max_t = max_t;
		info->start = (uint32_t)(min_t < 0 ? -min_t : 0);
		info->send_delay = (int32_t)base - 1;
		info->max_recv_time = (uint32_t)recv_max;
		ixc_timing_report(tm, &info->timing_kind, info->timing_model);
		info->sctl = IPUXCOM_DIR_BROADCAST;
		info->items = count;
		info->wide = IPUXCOM_WIDE_NOT_ASKED;
		info->wide_recv = UINT32_MAX;
	}
	if (bad)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_INTERNAL, "count",
				     "internal: a field overflowed (count %u)", count);
	ixc_plan_ok(err);
	return 0;
}
