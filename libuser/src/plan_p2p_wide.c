// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * 64-bit point-to-point plans (issue 16; FACTS.md "Merged send/control
 * instructions and 64-bit exchange" [RE]):
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
 * The exchange verifier models 64-bit deliveries separately (issue 16's
 * verifier part); these rows are checked field by field in plan_wide_test.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plan_internal.h"

static int ixc_wide_addr(uint32_t addr, uint32_t count, struct ipuxcom_plan_error *err,
			 const char *field)
{
	if (addr & 7)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ALIGN, field,
				     "%s 0x%x not 8-byte aligned (64-bit items)", field, addr);
	return ixc_check_sram(addr, count, false, err, field);
}

int ipuxcom_plan_p2p_wide(const struct ipuxcom_timing *tm, uint32_t sender, uint32_t receiver,
			  uint32_t count, uint32_t src_addr, uint32_t dst_addr, uint32_t flags,
			  struct ipuxcom_p2p_plan *out, struct ipuxcom_p2p_wide_info *info,
			  struct ipuxcom_plan_error *err)
{
	uint32_t s = 0, r = 0, p, items, bad = 0, sched[3], sctl, w[4];
	unsigned int dir = 0, pdir = 0, n = 0;
	int t = 0, tp = 0, tpair, ret;

	if ((ret = ixc_p2p_ends(sender, receiver, flags, out, &s, &r, err)))
		return ret;
	if (count < 2 || count > IPUXCOM_PLAN_MAX_WIDE_COUNT || (count & 1))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_COUNT, "count",
				     "count %u: 64-bit items need an even count in 2..%u", count,
				     IPUXCOM_PLAN_MAX_WIDE_COUNT);
	p = r ^ 2;	/* the pair partner [RE] */
	if (s == r)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SELF, "receiver",
				     "receiver %u is the sender (physical %u)", receiver, s);
	if (s == p)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SELF, "receiver",
				     "receiver %u: its pair partner (physical %u) is the sender, "
				     "so the pair has no timing", receiver, p);
	if ((ret = ixc_wide_addr(src_addr, count, err, "src_addr")) ||
	    (ret = ixc_wide_addr(dst_addr, count, err, "dst_addr")))
		return ret;
	tm = ixc_timing(tm);
	if ((ret = ixc_timing_pair(tm, s, r, &t, &dir, err, "receiver")) ||
	    (ret = ixc_timing_pair(tm, s, p, &tp, &pdir, err, "receiver")))
		return ret;
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
			.items = items, .partner = p, .time_to_mux = t, .partner_time_to_mux = tp,
			.pair_time = tpair, .xpic_owner = tp < t ? p : r, .sctl = sctl,
		};
	if (bad)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_INTERNAL, "count",
				     "internal: a field overflowed for count %u, %u -> %u", count, s,
				     r);
	ixc_plan_ok(err);
	return 0;
}
