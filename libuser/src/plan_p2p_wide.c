// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * 64-bit point-to-point plans (issue 16; HW-MERGED, HW-WIDE [RE]):
 *  - tiles whose physical ids differ by XOR 2 share 64-bit exchange
 *    resources; sctl bit 2 (IPUXCOM_SCTL_WIDE) selects 64-bit items, so a
 *    send moves two words per event;
 *  - send control = direction(s, d) | 4;
 *  - the pair's receive timing is max(TimeToMux(s, d), TimeToMux(s, d ^ 2));
 *  - the member with the smaller TimeToMux owns the pair's XPIC stream.
 * The rows are the seed's p2p shapes [S "Recovered Plan Shape"] with items
 * (count / 2) for words and the pair's timing for T (modelled: no SDK row
 * of a 64-bit p2p transfer is recorded). Addressing stays relative (A7/A4,
 * offset 0), so the alignment that 64-bit items need (8 bytes) is a
 * property of the vertices' bases, which the caller passes to be checked.
 * With IPUXCOM_PLAN_WIDE (opt-in: the seeds' recorded rows are 32-bit)
 * a transfer without a 64-bit route gets the 32-bit p2p plan instead of a
 * refusal. The verifier (xsim_run.c) simulates these rows: plan_wide_test
 * checks them field by field, plan_wide_sim_test delivers them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "plan_internal.h"

static const char *const ixc_wide_names[IPUXCOM_WIDE_MAX] = {
	[IPUXCOM_WIDE_USED] = "64-bit route",
	[IPUXCOM_WIDE_ODD_COUNT] = "odd count",
	[IPUXCOM_WIDE_ALIGN] = "buffer not 8-byte aligned",
	[IPUXCOM_WIDE_PARTNER_SENDER] = "the receiver's pair partner is the sender",
	[IPUXCOM_WIDE_NOT_OWNER] = "the receiver's pair partner owns the pair's XPIC stream",
	[IPUXCOM_WIDE_PARTNER_LISTED] = "the receiver's pair partner is a receiver too",
	[IPUXCOM_WIDE_SCHEDULE] = "a pair's receive cycle does not fit 12 bits",
	[IPUXCOM_WIDE_NOT_ASKED] = "64-bit routes not asked for",
	[IPUXCOM_WIDE_LEGACY] = "legacy scheduler: 32-bit streams only",
	[IPUXCOM_WIDE_NOT_EARLIER] = "the 32-bit route ends no later",
	[IPUXCOM_WIDE_PHASE] = "the all-32-bit packing was kept (shorter phase, or the only fit)",
};
_Static_assert(sizeof(ixc_wide_names) / sizeof(ixc_wide_names[0]) == IPUXCOM_WIDE_MAX,
	       "a name for every enum ipuxcom_wide_why");

const char *ipuxcom_plan_wide_str(uint32_t why)
{
	return why < IPUXCOM_WIDE_MAX ? ixc_wide_names[why] : "?";
}

static int ixc_wide_addr(uint32_t addr, uint32_t count, struct ipuxcom_plan_error *err,
			 const char *field)
{
	if (addr & 7)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ALIGN, field,
				     "%s 0x%x not 8-byte aligned (64-bit items)", field, addr);
	return ixc_check_sram(addr, count, false, err, field);
}

/*
 * IPUXCOM_PLAN_WIDE found no 64-bit route (@why): the 32-bit plan of
 * ipuxcom_plan_p2p(), and @info says so.
 */
static int ixc_wide_fallback(const struct ipuxcom_timing *tm, uint32_t s, uint32_t r,
			     uint32_t count, uint32_t why, int t, int tp, unsigned int dir,
			     struct ipuxcom_p2p_plan *out, struct ipuxcom_p2p_wide_info *info,
			     struct ipuxcom_plan_error *err)
{
	int ret = ipuxcom_plan_p2p(tm, s, r, count, IPUXCOM_PLAN_PHYSICAL, out, err);

	if (ret)
		return ret;
	if (info)
		*info = (struct ipuxcom_p2p_wide_info){
			.size = sizeof(*info), .items = count, .partner = r ^ 2, .time_to_mux = t,
			.partner_time_to_mux = tp, .pair_time = t,
			.xpic_owner = ixc_wide_owner(s, r, t, tp), .sctl = dir, .wide = why,
		};
	return 0;
}

/* ipuxcom_plan_p2p_wide() into this library's structs (@out not NULL, @info may be). */
static int ixc_p2p_wide(const struct ipuxcom_timing *tm, uint32_t sender, uint32_t receiver,
			uint32_t count, uint32_t src_addr, uint32_t dst_addr, uint32_t flags,
			struct ipuxcom_p2p_plan *out, struct ipuxcom_p2p_wide_info *info,
			struct ipuxcom_plan_error *err)
{
	uint32_t s = 0, r = 0, p, items, bad = 0, sched[3], sctl, w[4], why = IPUXCOM_WIDE_USED;
	bool fall = flags & IPUXCOM_PLAN_WIDE;
	unsigned int dir = 0, pdir = 0, n = 0;
	int t = 0, tp = 0, tpair, ret;

	if ((ret = ixc_p2p_ends(sender, receiver, flags & ~IPUXCOM_PLAN_WIDE, out, &s, &r, err)))
		return ret;
	if (count < (fall ? 1u : 2u) || count > IPUXCOM_PLAN_MAX_WIDE_COUNT || (!fall && (count & 1)))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_COUNT, "count",
				     "count %u: 64-bit items need an even count in 2..%u", count,
				     IPUXCOM_PLAN_MAX_WIDE_COUNT);
	p = r ^ 2;	/* the pair partner [RE] */
	if (s == r)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SELF, "receiver",
				     "receiver %u is the sender (physical %u)", receiver, s);
	if (s == p && !fall)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SELF, "receiver",
				     "receiver %u: its pair partner (physical %u) is the sender, "
				     "so the pair has no timing", receiver, p);
	if (fall) {
		/* The buffers must exist; only their 8-byte alignment is the route's. */
		if ((ret = ixc_check_sram(src_addr, count, false, err, "src_addr")) ||
		    (ret = ixc_check_sram(dst_addr, count, false, err, "dst_addr")))
			return ret;
	} else if ((ret = ixc_wide_addr(src_addr, count, err, "src_addr")) ||
		   (ret = ixc_wide_addr(dst_addr, count, err, "dst_addr"))) {
		return ret;
	}
	tm = ixc_timing(tm);
	if ((ret = ixc_timing_pair(tm, s, r, &t, &dir, err, "receiver")))
		return ret;
	if (s != p && (ret = ixc_timing_pair(tm, s, p, &tp, &pdir, err, "receiver")))
		return ret;
	if (fall) {
		if (count & 1)
			why = IPUXCOM_WIDE_ODD_COUNT;
		else if ((src_addr | dst_addr) & 7)
			why = IPUXCOM_WIDE_ALIGN;
		else if (s == p)
			why = IPUXCOM_WIDE_PARTNER_SENDER;
		else if (ixc_wide_owner(s, r, t, tp) != r)
			why = IPUXCOM_WIDE_NOT_OWNER;
		if (why != IPUXCOM_WIDE_USED)
			return ixc_wide_fallback(tm, s, r, count, why, t, s == p ? 0 : tp, dir,
						 out, info, err);
	}
	/* Only the owner's window takes the items [RE]: a plan to the other member delivers nothing. */
	if (ixc_wide_owner(s, r, t, tp) != r)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_INFEASIBLE, "receiver",
				     "receiver %u does not own its pair's 64-bit items from %u: "
				     "its partner, physical %u, does (TimeToMux %d against %d); "
				     "IPUXCOM_PLAN_WIDE falls back to the 32-bit plan", receiver,
				     sender, p, tp, t);
	tpair = t > tp ? t : tp;
	items = count / 2;
	sctl = dir | IPUXCOM_SCTL_WIDE;

	/* sync 3; [delay(111 - Tpair)]; send; [sendoff]; br $m10; zeros */
	if (tpair < IXC_P2P_ARRIVAL)
		w[n++] = ixc_delay((uint32_t)(IXC_P2P_ARRIVAL - 1 - tpair), &bad);
	w[n++] = ixc_send((items > 64 ? 64 : items) - 1, 0, sctl, &bad);
	if (items > 64)
		w[n++] = ixc_sendoff(items - 65, 0, sctl, &bad);
	w[n++] = IPUXCOM_WORD_BR_M10;
	while (n < 4)
		w[n++] = 0;
	ixc_row_store(&out->send, IXC_SYNC3, w[0], w[1], w[2], w[3], 0, 0, 0, 0, s,
		      IPUXCOM_ROLE_SEND, 3 + (tpair < IXC_P2P_ARRIVAL) + (items > 64), -1, -1,
		      IXC_P2P_ARRIVAL - tpair);

	/* 1; sync 3; delayxpic(112, 0, 0) (patched); schedule of items events; br $m10; 0; 0 */
	ixc_recv_schedule(items, ixc_phys_row(r), 0, sched, &bad);
	ixc_row_store(&out->recv, 1, IXC_SYNC3, IXC_P2P_RECV_XPIC, sched[0], sched[1], sched[2],
		      IPUXCOM_WORD_BR_M10, 0, 0, r, IPUXCOM_ROLE_RECV, 7, 2, -1, IXC_P2P_ARRIVAL);
	out->count = count;
	out->time_to_mux = tpair;
	out->direction = (uint8_t)dir;
	out->sync_boundary = tpair >= IXC_P2P_ARRIVAL;
	ixc_timing_report(tm, &out->timing_kind, out->timing_model);
	if (info)
		*info = (struct ipuxcom_p2p_wide_info){
			.size = sizeof(*info), .items = items, .partner = p, .time_to_mux = t, .partner_time_to_mux = tp,
			.pair_time = tpair, .xpic_owner = ixc_wide_owner(s, r, t, tp), .sctl = sctl,
			.wide = IPUXCOM_WIDE_USED,
		};
	if (bad)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_INTERNAL, "count",
				     "internal: a field overflowed for count %u, %u -> %u", count, s,
				     r);
	ixc_plan_ok(err);
	return 0;
}

int ipuxcom_plan_p2p_wide(const struct ipuxcom_timing *tm, uint32_t sender, uint32_t receiver,
			  uint32_t count, uint32_t src_addr, uint32_t dst_addr, uint32_t flags,
			  struct ipuxcom_p2p_plan *out, struct ipuxcom_p2p_wide_info *info,
			  struct ipuxcom_plan_error *err)
{
	struct ipuxcom_p2p_plan plan = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_p2p_wide_info wi = IPUXCOM_P2P_WIDE_INFO_INIT;
	int ret;

	/* The callers' sizes: @out's (NULL: E_NULL below), then @info's. */
	if ((out && (ret = ixc_sized_out_check(out, IPUXCOM_P2P_PLAN_SIZE_MIN, "out.size",
					       "IPUXCOM_P2P_PLAN_INIT", err))) ||
	    (info && (ret = ixc_sized_out_check(info, IPUXCOM_P2P_WIDE_INFO_SIZE_MIN, "info.size",
						"IPUXCOM_P2P_WIDE_INFO_INIT", err))))
		return ret;
	ret = ixc_p2p_wide(tm, sender, receiver, count, src_addr, dst_addr, flags,
			   out ? &plan : NULL, info ? &wi : NULL, err);
	if (ret)
		return ret;
	ixc_struct_out(out, out->size, &plan, sizeof(plan));
	if (info)
		ixc_struct_out(info, info->size, &wi, sizeof(wi));
	return 0;
}
