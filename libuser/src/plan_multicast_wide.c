// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * 64-bit multicast (issue 16; HW-MERGED, HW-WIDE [RE]): ipuxcom_plan_multicast() with
 * IPUXCOM_PLAN_WIDE. A BROADCAST send with sctl 3 | 4 moves 64-bit items,
 * two words per event; each receiver's pair {r, r ^ 2} is reached at
 * max(TimeToMux(s, r), TimeToMux(s, r ^ 2)) and only the member with the
 * smaller TimeToMux (a tie: the lower id, modelled as the verifier does)
 * takes them, through its XPIC stream. So a multicast goes 64-bit when the
 * count is even, every buffer is 8-byte aligned, and every receiver owns
 * its pair (its partner neither the sender, which leaves no pair timing,
 * nor another receiver, which could not take the items).
 *
 * The rows are the multicast shapes of plan_multicast.c [S "Proper
 * Multicast"] with the pair times for t[i] and count / 2 events for count
 * (modelled: no SDK row of a 64-bit multicast is recorded). How the
 * receiving pair's second mux (INCOMING_MUXPAIR, CSR 0xa1 [RE]) is set is
 * not known: left to the vertex, like the p2p plan's.
 *
 * The 32-bit multicast is assembled first: it validates the request with
 * every check and message of the 32-bit path, and it is the answer when
 * the transfer has no 64-bit route. This path is not the fast one.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plan_internal.h"

#define IXC_RECV_FIELD_MAX	0xfffu		/* delayxpic delay: 12 bits [S] */

/*
 * Why @req (valid: the 32-bit plan succeeded) has no 64-bit route, or
 * IPUXCOM_WIDE_USED with the pair time of receiver i in tpair[i]; *@which
 * gets the receiver that ruled it out.
 */
static uint32_t ixc_mcast_wide_why(const struct ipuxcom_timing *tm,
				   const struct ipuxcom_fanout_req *req, uint32_t s,
				   const struct ipuxcom_plan_row *rows, int16_t *tpair,
				   uint32_t *which)
{
	uint32_t listed[(IPUXCOM_TILES + 31) / 32] = { 0 };

	*which = UINT32_MAX;
	if (req->count & 1)
		return IPUXCOM_WIDE_ODD_COUNT;
	if (req->src_addr & 7)
		return IPUXCOM_WIDE_ALIGN;
	for (uint32_t i = 0; i < req->nrecv; i++) {
		uint32_t r = rows[1 + i].tile;

		listed[r / 32] |= 1u << (r % 32);
	}
	for (uint32_t i = 0; i < req->nrecv; i++) {
		uint32_t r = rows[1 + i].tile, p = r ^ 2;
		unsigned int dir = 0;
		int t = 0, tp = 0;

		*which = i;
		if (req->dst_addr[i] & 7)
			return IPUXCOM_WIDE_ALIGN;
		if (p == s)
			return IPUXCOM_WIDE_PARTNER_SENDER;
		if (listed[p / 32] & (1u << (p % 32)))
			return IPUXCOM_WIDE_PARTNER_LISTED;
		/* Both checked by the 32-bit plan or, for the partner, as a model value. */
		if (ixc_timing_pair(tm, s, r, &t, &dir, NULL, "") ||
		    ixc_timing_pair(tm, s, p, &tp, &dir, NULL, ""))
			return IPUXCOM_WIDE_NOT_OWNER;
		if (ixc_wide_owner(s, r, t, tp) != r)
			return IPUXCOM_WIDE_NOT_OWNER;
		tpair[i] = (int16_t)(t > tp ? t : tp);
	}
	*which = UINT32_MAX;
	return IPUXCOM_WIDE_USED;
}

int ixc_mcast_wide(const struct ipuxcom_timing *tm, const struct ipuxcom_fanout_req *req,
		   struct ipuxcom_plan_row *rows, size_t nrows, struct ipuxcom_multicast_info *info,
		   struct ipuxcom_plan_error *err)
{
	struct ipuxcom_fanout_req q = *req;
	struct ipuxcom_multicast_info mi = IPUXCOM_MULTICAST_INFO_INIT;
	int16_t tpair[IPUXCOM_TILES];
	uint32_t s, which, why, items, bad = 0, n = 0, *w, sched[3], k;
	int32_t min_t = 1000, max_t = -1000;
	uint64_t base, recv_max;
	int ret;

	q.flags &= ~IPUXCOM_PLAN_WIDE;
	ret = ixc_mcast32(tm, &q, rows, nrows, &mi, err);
	if (ret)
		return ret;
	tm = ixc_timing(tm);
	s = rows[0].tile;
	why = ixc_mcast_wide_why(tm, &q, s, rows, tpair, &which);
	if (why == IPUXCOM_WIDE_USED) {
		for (uint32_t i = 0; i < q.nrecv; i++) {
			if (tpair[i] < min_t)
				min_t = tpair[i];
			if (tpair[i] > max_t) {
				max_t = tpair[i];
				which = i;
			}
		}
		base = (uint64_t)(min_t < 0 ? -min_t : 0) + q.schedule_offset;
		recv_max = base + (uint64_t)(int64_t)max_t;
		if (recv_max > IXC_RECV_FIELD_MAX)
			why = IPUXCOM_WIDE_SCHEDULE;
		else
			which = UINT32_MAX;
	}
	if (why != IPUXCOM_WIDE_USED) {
		if (info) {
			*info = mi;
			info->sctl = IPUXCOM_DIR_BROADCAST;
			info->items = q.count;
			info->wide = why;
			info->wide_recv = which;
		}
		return 0;
	}

	/* sync 3; [delay(base - 1)]; send(items, src / 4, 3 | 4); [sendoff]; br $m10 */
	items = q.count / 2;
	ixc_row_init(&rows[0], s, IPUXCOM_ROLE_SEND);
	w = rows[0].words;
	w[n++] = IXC_SYNC3;
	if (base > 0)
		w[n++] = ixc_delay((uint32_t)(base - 1), &bad);
	rows[0].addr = (int8_t)n;
	w[n++] = ixc_send((items < 64 ? items : 64) - 1, q.src_addr / 4,
			  IPUXCOM_DIR_BROADCAST | IPUXCOM_SCTL_WIDE, &bad);
	if (items > 64)
		w[n++] = ixc_sendoff(items - 65, 0, IPUXCOM_DIR_BROADCAST | IPUXCOM_SCTL_WIDE, &bad);
	w[n++] = IPUXCOM_WORD_BR_M10;
	rows[0].nwords = (uint8_t)n;
	rows[0].event = (int32_t)base;

	/* Receivers: the 32-bit rows' layout with the pair time and items events. */
	for (uint32_t i = 0; i < q.nrecv; i++) {
		struct ipuxcom_plan_row *row = &rows[1 + i];
		uint32_t r = row->tile, recv = (uint32_t)(base + (uint64_t)(int64_t)tpair[i]);
		uint32_t pic = IPUXCOM_MCAST_FLAG | (q.dst_addr[i] - IPUXCOM_MCAST_DST_BASE) / 4;

		k = ixc_recv_schedule(items, ixc_phys_row(r), pic, sched, &bad);
		ixc_row_store(row, 2 + k, IXC_SYNC3, ixc_delayxpic(recv, 0, s, &bad), sched[0],
			      sched[1], sched[2], IPUXCOM_WORD_BR_M10, 0, 0, r, IPUXCOM_ROLE_RECV, 7,
			      -1, (int8_t)(3 + k), (int32_t)recv);
	}
	if (info) {
		*info = mi;
		info->min_t = min_t;
		info->max_t = max_t;
		info->start = (uint32_t)(min_t < 0 ? -min_t : 0);
		info->send_delay = (int32_t)base - 1;
		info->max_recv_time = (uint32_t)recv_max;
		info->sctl = IPUXCOM_DIR_BROADCAST | IPUXCOM_SCTL_WIDE;
		info->items = items;
		info->wide = IPUXCOM_WIDE_USED;
		info->wide_recv = UINT32_MAX;
	}
	if (bad)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_INTERNAL, "count",
				     "internal: a field overflowed (64-bit, count %u)", q.count);
	ixc_plan_ok(err);
	return 0;
}
