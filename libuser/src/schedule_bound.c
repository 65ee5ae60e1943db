// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A lower bound on the phase length of a set of transfers (issue 25),
 * argued from the verifier's own event model (xsim_run.c; the terms and
 * their arguments in docs/exchange-verifier.md "A lower bound on the
 * phase"). Every fact used:
 *
 *  (a) events count from 0, the one after the tile's sync; no action acts
 *      before event 0; a send at event e puts an item at d's mux at
 *      e + TimeToMux(s, d), a 64-bit item at the pair's time, which is
 *      never smaller [RE];
 *  (b) a mux takes at most one item per event, from the one source it
 *      selects: one word, or two on a 64-bit pair, and a 64-bit item only
 *      through the pair's owner (xsim_run.c ixc_xpair()) and only when its
 *      first word lands 8-byte aligned (H_MISALIGNED);
 *  (c) a word taken at x is written at x + 52 + 2 * row(d) [RE], and the
 *      write must come before d's br $m10 and before the phase end (the
 *      last br $m10): phase length = that br's event + 1 >= write + 2;
 *  (d) a tile sends at most one item per event (its outgoing port), a
 *      word of transfer X is only useful to X's receivers (H_WRONG_SOURCE
 *      otherwise), and a sending row's br comes after its last send.
 * Nothing here depends on the scheduler: the bound holds for any programs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "xsim_internal.h"

/* Senders with more transfer groups than this get the tail sweep only (cost). */
#define IXC_BOUND_RQ	64

/* One (transfer, receiver) of one tile, for the receive term. */
struct ixc_brx {
	uint32_t tile;
	int32_t r;		/* earliest capture: max(0, TimeToMux) */
	int32_t p;		/* fewest items that carry the transfer's words */
};

/* One transfer of one sender, for the send term. */
struct ixc_bsx {
	uint32_t tile;
	uint32_t src, words;	/* source bytes [src, src + 4 * words) */
	int32_t r;		/* the earliest useful send: min over receivers of max(0, -TimeToMux) */
	int32_t q;		/* the shortest send-to-write time over its receivers */
	bool wide;		/* some receiver can take 64-bit items from it */
};

static int ixc_brx_cmp(const void *a, const void *b)
{
	const struct ixc_brx *x = a, *y = b;

	if (x->tile != y->tile)
		return x->tile < y->tile ? -1 : 1;
	return x->r > y->r ? -1 : x->r < y->r;	/* latest release first */
}

static int ixc_bsx_cmp(const void *a, const void *b)
{
	const struct ixc_bsx *x = a, *y = b;

	if (x->tile != y->tile)
		return x->tile < y->tile ? -1 : 1;
	return x->src < y->src ? -1 : x->src > y->src;
}

static int ixc_bsx_qcmp(const void *a, const void *b)
{
	const struct ixc_bsx *x = a, *y = b;

	return x->q > y->q ? -1 : x->q < y->q;	/* longest tail first */
}

static int32_t ixc_max32(int32_t a, int32_t b)
{
	return a > b ? a : b;
}

/*
 * The route of @n words from @s to @d (TimeToMux @t) alone: the earliest
 * event of the last capture, and in *@items the fewest items (b). With w
 * 64-bit items (pair time @tw, first word aligned unless @dst is not) and
 * n - 2w single words, all at distinct events: the last capture is at
 * least max(max(0, t) + (n - w) - 1, max(0, tw) + w - 1).
 */
static int32_t ixc_bound_route(uint32_t n, int32_t t, bool wide, int32_t tw, uint32_t dst,
			       int32_t *items)
{
	int32_t r = ixc_max32(0, t), best = r + (int32_t)n - 1;
	int32_t A = r + (int32_t)n - 1, B = ixc_max32(0, tw) - 1, wmax, cand[2];

	*items = (int32_t)n;
	if (!wide)
		return best;
	wmax = (int32_t)((n - ((dst & 7) ? 1u : 0u)) / 2);
	if (wmax < 1)
		return best;
	*items = (int32_t)n - wmax;
	/* max(A - w, B + w) is smallest near w = (A - B) / 2. */
	cand[0] = (A - B) / 2;
	cand[1] = cand[0] + 1;
	for (int k = 0; k < 2; k++) {
		int32_t w = cand[k] < 1 ? 1 : cand[k] > wmax ? wmax : cand[k];
		int32_t v = ixc_max32(A - w, B + w);

		if (v < best)
			best = v;
	}
	return best;
}

/* Can @d take 64-bit items from @s (b)? Its pair's time in *@tw. */
static bool ixc_bound_wide(const struct ipuxcom_timing *tm, uint32_t s, uint32_t d, int t,
			   int32_t *tw)
{
	unsigned int dir = 0;
	uint32_t e = d ^ 2;
	int t2 = 0;

	*tw = t;
	if (e >= IPUXCOM_TILES)
		return false;
	if (e == s)
		return true;	/* d owns the pair at TimeToMux(s, d) (the verifier's rule) */
	if (ixc_timing_pair(tm, s, e, &t2, &dir, NULL, ""))
		return false;
	*tw = t2 > t ? t2 : t;
	return ixc_wide_owner(s, d, t, t2) == d;
}

static int ixc_bound_check(const struct ipuxcom_schedule_xfer *x, size_t i, bool logical,
			   uint32_t *sender, struct ipuxcom_plan_error *err)
{
	char field[64];
	int ret;

	if (x->count < 1 || x->count > IPUXCOM_PLAN_MAX_COUNT) {
		snprintf(field, sizeof(field), "xfers[%zu].count", i);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_COUNT, field, "%s %u out of range 1..%u",
				     field, x->count, IPUXCOM_PLAN_MAX_COUNT);
	}
	if (x->nrecv < 1 || x->nrecv > IPUXCOM_TILES - 1) {
		snprintf(field, sizeof(field), "xfers[%zu].nrecv", i);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NRECV, field, "%s %u out of range 1..%u",
				     field, x->nrecv, IPUXCOM_TILES - 1);
	}
	if (!x->receivers || !x->dst_addr) {
		snprintf(field, sizeof(field), "xfers[%zu].%s", i,
			 x->receivers ? "dst_addr" : "receivers");
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, field, "%s is NULL", field);
	}
	if (x->src_addr & 3) {
		snprintf(field, sizeof(field), "xfers[%zu].src_addr", i);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FIELD, field,
				     "%s 0x%x is not word aligned", field, x->src_addr);
	}
	snprintf(field, sizeof(field), "xfers[%zu].sender", i);
	if ((ret = ixc_tile_resolve(x->sender, logical, sender, err, field)))
		return ret;
	return 0;
}

int ipuxcom_schedule_bound(const struct ipuxcom_schedule_opts *opts,
			   const struct ipuxcom_schedule_xfer *xfers, size_t n,
			   struct ipuxcom_schedule_bound *out, struct ipuxcom_plan_error *err)
{
	const uint32_t known = IPUXCOM_SCHEDULE_LOGICAL | IPUXCOM_SCHEDULE_PHYSICAL |
			       IPUXCOM_SCHEDULE_EXACT_WINDOW | IPUXCOM_SCHEDULE_LEGACY;
	struct ipuxcom_schedule_opts o = IPUXCOM_SCHEDULE_OPTS_INIT;
	const struct ipuxcom_timing *tm;
	bool logical = true;	/* the default numbering, as the scheduler's */
	struct ipuxcom_schedule_bound b = { .size = sizeof(b) };
	struct ixc_brx *rx = NULL;
	struct ixc_bsx *sx = NULL;
	size_t nrx = 0, nsx = 0, cap = 0;
	int32_t route = -1, recv = -1, send = -1;
	int ret = 0;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "bound", "bound is NULL");
	if (ixc_struct_out_check(out->size, IPUXCOM_SCHEDULE_BOUND_SIZE_MIN))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SIZE, "bound.size",
				     "bound.size %u below the minimum %zu", out->size,
				     (size_t)IPUXCOM_SCHEDULE_BOUND_SIZE_MIN);
	if (!xfers && n)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "xfers", "xfers is NULL");
	if (opts && (ret = ixc_sized_in(&o, sizeof(o), opts, IPUXCOM_SCHEDULE_OPTS_SIZE_MIN,
					"opts.size", "IPUXCOM_SCHEDULE_OPTS_INIT", err)))
		return ret;
	if (o.flags & ~known)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", o.flags, o.flags & ~known);
	if ((ret = ixc_numbering(o.flags, &logical, "flags", err)))
		return ret;
	tm = ixc_timing(o.timing);
	if (n > IPUXCOM_TILES * 64u)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NRECV, "n",
				     "n %zu transfers: more than %u", n, IPUXCOM_TILES * 64u);
	for (size_t i = 0; i < n; i++)
		cap += xfers[i].nrecv <= IPUXCOM_TILES ? xfers[i].nrecv : 0;
	rx = malloc((cap ? cap : 1) * sizeof(*rx));
	sx = malloc((n ? n : 1) * sizeof(*sx));
	if (!rx || !sx) {
		ret = ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "bound", "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct ipuxcom_schedule_xfer *x = &xfers[i];
		struct ixc_bsx *g = &sx[nsx++];
		uint32_t s = 0;

		if ((ret = ixc_bound_check(x, i, logical, &s, err)))
			goto out;
		*g = (struct ixc_bsx){ .tile = s, .src = x->src_addr, .words = x->count,
				       .r = INT32_MAX, .q = INT32_MAX };
		for (uint32_t k = 0; k < x->nrecv; k++) {
			char field[64];
			unsigned int dir = 0;
			uint32_t d = 0;
			int32_t tw = 0, items = 0, last, L;
			int t = 0;
			bool wide;

			snprintf(field, sizeof(field), "xfers[%zu].receivers[%u]", i, k);
			if ((ret = ixc_tile_resolve(x->receivers[k], logical, &d, err, field)))
				goto out;
			if (d == s) {
				ret = ixc_plan_fail(err, IPUXCOM_PLAN_E_SELF, field,
						    "%s %u is the sender", field, x->receivers[k]);
				goto out;
			}
			if ((ret = ixc_timing_pair(tm, s, d, &t, &dir, err, field)))
				goto out;
			L = (int32_t)(IPUXCOM_XSIM_WRITE_LATENCY + 2 * ixc_phys_row(d));
			wide = ixc_bound_wide(tm, s, d, t, &tw);
			/* Route (a)-(c): the last capture, then its write. */
			last = ixc_bound_route(x->count, t, wide, tw, x->dst_addr[k], &items) + L;
			if (last > route) {
				route = last;
				b.route_xfer = (uint32_t)i;
				b.route_tile = d;
			}
			rx[nrx++] = (struct ixc_brx){ d, ixc_max32(0, t) + L, items };
			/* A send at e reaches a write no earlier than e + t + L (a), (c). */
			if (t + L < g->q)
				g->q = t + L;
			/* No capture before event 0 (a): a send useful to d is at >= -t. */
			if (ixc_max32(0, -t) < g->r)
				g->r = ixc_max32(0, -t);
			g->wide |= wide;
		}
	}
	/*
	 * Receive (b), (c): a receiver's items of all its transfers take
	 * distinct events; those released at r or later (r folded with L
	 * above) end no earlier than r + their items - 1.
	 */
	qsort(rx, nrx, sizeof(*rx), ixc_brx_cmp);
	for (size_t i = 0; i < nrx;) {
		size_t j = i;
		int64_t sum = 0;

		for (; j < nrx && rx[j].tile == rx[i].tile; j++) {
			int64_t v;

			sum += rx[j].p;
			v = (int64_t)rx[j].r + sum - 1;
			if (v > recv) {
				recv = (int32_t)v;
				b.receive_tile = rx[i].tile;
			}
		}
		i = j;
	}
	/*
	 * Send (d): a sender's transfers whose source words overlap are one
	 * group (a word sent once may serve both), its tail the smaller. A
	 * send event carries one word, or two of a group some receiver can
	 * take 64-bit items of; the groups with releases >= rho and tails >=
	 * theta need N + ceil(W/2) events from rho on, the last at
	 * rho + that - 1 and its write theta later; and the row's br follows
	 * its last send.
	 */
	qsort(sx, nsx, sizeof(*sx), ixc_bsx_cmp);
	{
		size_t m = 0;

		for (size_t i = 0; i < nsx; i++) {
			struct ixc_bsx *g = m ? &sx[m - 1] : NULL;
			uint64_t gend = g ? (uint64_t)g->src + 4ull * g->words : 0;

			if (g && g->tile == sx[i].tile && sx[i].src < gend) {
				uint64_t end = (uint64_t)sx[i].src + 4ull * sx[i].words;

				if (end > gend)
					g->words = (uint32_t)((end - g->src) / 4);
				g->q = sx[i].q < g->q ? sx[i].q : g->q;
				g->r = sx[i].r < g->r ? sx[i].r : g->r;
				g->wide |= sx[i].wide;
			} else {
				sx[m++] = sx[i];
			}
		}
		nsx = m;
	}
	for (size_t i = 0; i < nsx;) {
		size_t j = i;

		while (j < nsx && sx[j].tile == sx[i].tile)
			j++;
		qsort(&sx[i], j - i, sizeof(*sx), ixc_bsx_qcmp);
		/*
		 * Every release threshold rho (all of them for up to
		 * IXC_BOUND_RQ groups, else rho = 0 only) and tail threshold
		 * (the sweep): the groups with r >= rho and q >= theta.
		 */
		for (size_t h = i; h < j; h++) {
			int32_t rho = j - i <= IXC_BOUND_RQ ? sx[h].r : 0;
			int64_t narrow = 0, wide = 0;

			for (size_t k = i; k < j; k++) {
				int64_t ev, v;

				if (sx[k].r < rho)
					continue;
				*(sx[k].wide ? &wide : &narrow) += sx[k].words;
				ev = narrow + (wide + 1) / 2;
				v = rho + ev - 1 + ixc_max32(sx[k].q, 0);
				if (v > send) {
					send = (int32_t)v;
					b.send_tile = sx[i].tile;
				}
			}
			if (j - i > IXC_BOUND_RQ)
				break;
		}
		i = j;
	}
	/* (c): phase length >= the event that must precede the br, + 2. */
	b.route = route >= 0 ? (uint32_t)route + 2 : 0;
	b.receive = recv >= 0 ? (uint32_t)recv + 2 : 0;
	b.send = send >= 0 ? (uint32_t)send + 2 : 0;
	b.events = b.route > b.receive ? b.route : b.receive;
	if (b.send > b.events)
		b.events = b.send;
	ixc_struct_out(out, out->size, &b, sizeof(b));
	ixc_plan_ok(err);
out:
	free(rx);
	free(sx);
	return ret;
}
