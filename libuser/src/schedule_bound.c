// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
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
 *      otherwise), and a sending row's br comes after its last send;
 *  (e) from (b), (d): a receiver that does not own its pair for X's
 *      sender takes X's words as 32-bit items only, one word per send
 *      event; so if some of X's receivers can take 64-bit items and some
 *      cannot, X's sender sends n 32-bit items and, for the owners to
 *      take w 64-bit items, w more send events (a 64-bit item is one
 *      send of its own);
 *  (f) the XOR-2 pair {d, d ^ 2} (one physical row, so one write latency)
 *      shares its double-width incoming resources (xsim_run.c
 *      ixc_xpair_receives(), pair-conflict): no capture of one member in
 *      an event where the other takes a 64-bit item.
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
	int32_t p;		/* items if it takes no 64-bit ones: the transfer's words */
	int32_t wmax;		/* 64-bit items it can take (b) */
	int32_t s;		/* (e): it takes w only if the phase is >= s + w; INT32_MIN: no limit */
	uint32_t snd;		/* the sender, for its port's limit (e) */
};

/* One transfer of one sender, for the send term. */
struct ixc_bsx {
	uint32_t tile;
	uint32_t src, words;	/* source bytes [src, src + 4 * words) */
	int32_t r;		/* the earliest useful send: min over receivers of max(0, -TimeToMux) */
	int32_t rw;		/* the same for 64-bit items of a transfer of (e), else r */
	int32_t q;		/* the shortest send-to-write time over its receivers */
	bool wide;		/* every receiver can take 64-bit items from it (e) */
	bool mixed;		/* some can, some cannot (e) */
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

/* The fewest of max(@A - w, @B + w) over 1 <= w <= @wcap, and @A (w = 0). */
static int32_t ixc_bound_split(int32_t A, int32_t B, int32_t wcap)
{
	int32_t best = A, c0 = (A - B) / 2;

	for (int32_t c = c0; wcap >= 1 && c <= c0 + 1; c++) {
		int32_t w = c < 1 ? 1 : c > wcap ? wcap : c;
		int32_t v = ixc_max32(A - w, B + w);

		if (v < best)
			best = v;
	}
	return best;
}

/* One receiver of the transfer being read, for the mixed-width route (e). */
struct ixc_brt {
	uint32_t tile;
	int32_t A, B;		/* last 32-bit capture if all 32-bit; pair time - 1 */
	int32_t wmax;		/* 64-bit items it can take (0: none, it does not own its pair) */
	int32_t L;
	int32_t rw;		/* earliest useful 64-bit send: max(0, -tw) */
};

/*
 * (e) A transfer some of whose receivers cannot take 64-bit items (not
 * pair owners for its sender): each of its n words reaches those as a
 * 32-bit item of the sender, so the sender sends n items, and w more if
 * the owners take w 64-bit items (a 64-bit item is one send event, apart
 * from the 32-bit ones). For each w: the owners' routes with at most w
 * 64-bit items, the others' 32-bit routes, and the sender's n + w sends
 * from the earliest useful one (@rho, @rw) with the write @q after the
 * last; the phase is at least the smallest over w of the largest. The
 * last write's event is returned (+ 2 by the caller), its receiver in
 * *@tile.
 */
static int32_t ixc_bound_mixed(const struct ixc_brt *rt, uint32_t nr, uint32_t n, int32_t rho,
			       int32_t q, uint32_t *tile)
{
	int32_t fixed = -1, wall = 0, rw = rho, best = INT32_MAX;
	uint32_t ft = rt[0].tile;

	for (uint32_t k = 0; k < nr; k++) {
		if (!rt[k].wmax && rt[k].A + rt[k].L > fixed) {
			fixed = rt[k].A + rt[k].L;
			ft = rt[k].tile;
		}
		wall = ixc_max32(wall, rt[k].wmax);
		rw = rt[k].wmax && rt[k].rw < rw ? rt[k].rw : rw;
	}
	for (int32_t w = 0; w <= wall; w++) {
		int32_t v = ixc_max32(fixed, (w ? rw : rho) + (int32_t)n + w - 1 + q);
		uint32_t vt = ft;

		if (v >= best)
			break;	/* the send part only grows with w */
		for (uint32_t k = 0; k < nr; k++) {
			int32_t o;

			if (!rt[k].wmax)
				continue;
			o = ixc_bound_split(rt[k].A, rt[k].B, w < rt[k].wmax ? w : rt[k].wmax) +
			    rt[k].L;
			if (o > v) {
				v = o;
				vt = rt[k].tile;
			}
		}
		if (v < best) {
			best = v;
			*tile = vt;
		}
	}
	return best;
}

/*
 * Receive (b), (c): a receiver's items of all its transfers take distinct
 * events; those released at r or later (r folded with L) end no earlier
 * than r + their items - 1. Each (transfer, receiver) takes its 64-bit
 * items: all it can if @P is INT64_MAX, none if INT64_MIN, else at most
 * P - max(s, @ss[sender]) (e). The largest last write, its tile in *@tile.
 */
static int64_t ixc_bound_recv(const struct ixc_brx *rx, size_t nrx, const int32_t *ss, int64_t P,
			      uint32_t *tile)
{
	int64_t best = -1;

	for (size_t i = 0; i < nrx;) {
		size_t j = i;
		int64_t sum = 0;

		for (; j < nrx && rx[j].tile == rx[i].tile; j++) {
			int64_t w = rx[j].wmax, v;

			if (P == INT64_MIN)
				w = 0;
			else if (P != INT64_MAX && rx[j].s != INT32_MIN) {
				int64_t c = P - (rx[j].s > ss[rx[j].snd] ? rx[j].s : ss[rx[j].snd]);

				w = c < w ? (c < 0 ? 0 : c) : w;
			}
			sum += rx[j].p - w;
			v = (int64_t)rx[j].r + sum - 1;
			if (v > best) {
				best = v;
				if (tile)
					*tile = rx[i].tile;
			}
		}
		i = j;
	}
	return best;
}

/*
 * The fewest capture events of a pair (f) whose members take @A and @B
 * words, at most @WA and @WB of them as 64-bit items: a member's items
 * take events no capture of the other shares, its single words may share
 * events with the other's single words, so wa + wb + max(A - 2 wa,
 * B - 2 wb) events at least, the smallest over the choices.
 */
static int64_t ixc_bound_pair_events(int64_t A, int64_t B, int64_t WA, int64_t WB)
{
	int64_t best = INT64_MAX;

	for (int64_t wa = 0; wa <= WA; wa++) {
		int64_t m = A - 2 * wa, wb = (B - m + 1) / 2, v;

		wb = wb < 0 ? 0 : wb > WB ? WB : wb;
		v = wa + wb + (m > B - 2 * wb ? m : B - 2 * wb);
		if (v < best)
			best = v;
		if (m <= B - 2 * WB)
			break;	/* more items of the first member only add events */
	}
	return best;
}

/*
 * Receive, pairs (f): over release thresholds r of both members' (transfer,
 * receiver) entries (@rx sorted by tile, latest release first; r folded
 * with the pair's one latency), the captures of both at >= r take at least
 * ixc_bound_pair_events() events, the last at r + that - 1. Each entry
 * may take all the 64-bit items (b) allows (a weaker count than the
 * receive term's (e) limit, still a bound). The largest last write, its
 * tile in *@tile.
 */
static int64_t ixc_bound_pairs(const struct ixc_brx *rx, size_t nrx, uint32_t *tile)
{
	int64_t best = -1;

	for (size_t i = 0; i < nrx;) {
		size_t j = i, p, q, pe;
		uint32_t d = rx[i].tile, e = d ^ 2;
		int64_t A = 0, B = 0, WA = 0, WB = 0;

		while (j < nrx && rx[j].tile == d)
			j++;
		if (e < d || e >= IPUXCOM_TILES) {
			i = j;
			continue;
		}
		/* e's entries: tiles are sorted, so they follow d's (e > d). */
		for (p = j; p < nrx && rx[p].tile < e; p++)
			;
		for (pe = p; pe < nrx && rx[pe].tile == e; pe++)
			;
		if (p == pe) {
			i = j;
			continue;
		}
		/* Merge both lists, latest release first. */
		for (q = i; q < j || p < pe;) {
			bool first = p == pe || (q < j && rx[q].r >= rx[p].r);
			const struct ixc_brx *x = first ? &rx[q++] : &rx[p++];
			int64_t v;

			*(first ? &A : &B) += x->p;
			*(first ? &WA : &WB) += x->wmax;
			v = (int64_t)x->r + ixc_bound_pair_events(A, B, WA, WB) - 1;
			if (v > best) {
				best = v;
				*tile = d;
			}
		}
		i = j;
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
	const uint32_t known = IXC_SCHED_FLAGS_KNOWN;
	struct ipuxcom_schedule_opts o = IPUXCOM_SCHEDULE_OPTS_INIT;
	const struct ipuxcom_timing *tm;
	bool logical = true;	/* the default numbering, as the scheduler's */
	struct ipuxcom_schedule_bound b = { .size = sizeof(b) };
	struct ixc_brx *rx = NULL;
	struct ixc_bsx *sx = NULL;
	struct ixc_brt *rt = NULL;
	int32_t *ss = NULL;
	size_t nrx = 0, nsx = 0, cap = 0, rcap = 1;
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
	for (size_t i = 0; i < n; i++) {
		uint32_t nr = xfers[i].nrecv <= IPUXCOM_TILES ? xfers[i].nrecv : 0;

		cap += nr;
		rcap = nr > rcap ? nr : rcap;
	}
	rx = malloc((cap ? cap : 1) * sizeof(*rx));
	sx = malloc((n ? n : 1) * sizeof(*sx));
	rt = malloc(rcap * sizeof(*rt));
	ss = malloc(IPUXCOM_TILES * sizeof(*ss));
	if (!rx || !sx || !rt || !ss) {
		ret = ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "bound", "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct ipuxcom_schedule_xfer *x = &xfers[i];
		struct ixc_bsx *g = &sx[nsx++];
		uint32_t s = 0;

		if ((ret = ixc_bound_check(x, i, logical, &s, err)))
			goto out;
		uint32_t nwide = 0;

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
			/* (b): an item's words land where they are declared only if src = dst (mod 8). */
			wide = ixc_bound_wide(tm, s, d, t, &tw) && !((x->src_addr ^ x->dst_addr[k]) & 7);
			/* Route (a)-(c): the last capture, then its write. */
			last = ixc_bound_route(x->count, t, wide, tw, x->dst_addr[k], &items) + L;
			rt[k] = (struct ixc_brt){ .tile = d, .A = ixc_max32(0, t) + (int32_t)x->count - 1,
						  .B = ixc_max32(0, tw) - 1, .wmax = (int32_t)x->count - items,
						  .L = L, .rw = ixc_max32(0, -tw) };
			nwide += rt[k].wmax > 0;
			if (last > route) {
				route = last;
				b.route_xfer = (uint32_t)i;
				b.route_tile = d;
			}
			rx[nrx++] = (struct ixc_brx){ d, ixc_max32(0, t) + L, (int32_t)x->count,
						      (int32_t)x->count - items, INT32_MIN, s };
			/* A send at e reaches a write no earlier than e + t + L (a), (c). */
			if (t + L < g->q)
				g->q = t + L;
			/* No capture before event 0 (a): a send useful to d is at >= -t. */
			if (ixc_max32(0, -t) < g->r)
				g->r = ixc_max32(0, -t);
			g->wide = (k ? g->wide : true) && rt[k].wmax > 0;
		}
		g->rw = g->r;
		/* (e): some receivers take 64-bit items, some cannot. */
		if (nwide && nwide < x->nrecv) {
			int32_t rw = g->r;
			uint32_t mt = 0;

			for (uint32_t k = 0; k < x->nrecv; k++)
				rw = rt[k].wmax && rt[k].rw < rw ? rt[k].rw : rw;
			g->rw = rw;
			g->mixed = true;
			for (uint32_t k = 0; k < x->nrecv; k++)
				rx[nrx - x->nrecv + k].s = rw + (int32_t)x->count - 1 +
							   ixc_max32(g->q, 0) + 2;
			int32_t last = ixc_bound_mixed(rt, x->nrecv, x->count, g->r,
						       ixc_max32(g->q, 0), &mt);

			if (last > route) {
				route = last;
				b.route_xfer = (uint32_t)i;
				b.route_tile = mt;
			}
		}
	}
	/*
	 * Receive (b), (c): a receiver's items of all its transfers take
	 * distinct events; those released at r or later (r folded with L
	 * above) end no earlier than r + their items - 1.
	 */
	/*
	 * Send (d): a sender's transfers whose source words overlap are one
	 * group (a word sent once may serve both), its tail the smaller. A
	 * send event carries one word, or two of a group with a transfer all
	 * of whose receivers can take 64-bit items (else each word goes to
	 * some receiver as a 32-bit item, (e)); the groups with releases >= rho and tails >=
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
				g->rw = sx[i].rw < g->rw ? sx[i].rw : g->rw;
				g->mixed |= sx[i].mixed;
				g->wide |= sx[i].wide;
			} else {
				sx[m++] = sx[i];
			}
		}
		nsx = m;
	}
	/*
	 * (e): a sender's port sends every group's items (as in the send
	 * term, from its earliest release, the write after the last at the
	 * smallest tail): ss[s] + w is a phase for w more 64-bit items.
	 */
	for (size_t i = 0; i < nsx;) {
		size_t j = i;
		int64_t ev = 0;
		int32_t r = INT32_MAX, q = INT32_MAX;
		bool shared = false;

		for (; j < nsx && sx[j].tile == sx[i].tile; j++) {
			/* a 64-bit group's items may be the ones (e) adds */
			shared |= sx[j].wide && sx[j].mixed;
			ev += sx[j].wide ? (sx[j].words + 1) / 2 : sx[j].words;
			r = sx[j].rw < r ? sx[j].rw : r;
			q = ixc_max32(sx[j].q, 0) < q ? ixc_max32(sx[j].q, 0) : q;
		}
		ss[sx[i].tile] = shared ? INT32_MIN : (int32_t)(r + ev - 1 + q + 2);
		i = j;
	}
	qsort(rx, nrx, sizeof(*rx), ixc_brx_cmp);
	{
		/*
		 * (e): the smallest phase P that is at least the receive term
		 * with each receiver's 64-bit items limited by P (the limit
		 * only loosens as P grows: a search between all 64-bit and
		 * none).
		 */
		int64_t lo = ixc_bound_recv(rx, nrx, ss, INT64_MAX, NULL) + 2;
		int64_t hi = ixc_bound_recv(rx, nrx, ss, INT64_MIN, NULL) + 2;

		while (lo < hi) {
			int64_t mid = lo + (hi - lo) / 2;

			if (ixc_bound_recv(rx, nrx, ss, mid, NULL) + 2 <= mid)
				hi = mid;
			else
				lo = mid + 1;
		}
		recv = (int32_t)(lo - 2);
		(void)ixc_bound_recv(rx, nrx, ss, lo - 1, &b.receive_tile);
	}
	{
		uint32_t pt = 0;
		int64_t v = ixc_bound_pairs(rx, nrx, &pt);

		if (v > recv) {
			recv = (int32_t)v;
			b.receive_tile = pt;
		}
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
	free(rt);
	free(ss);
	return ret;
}
