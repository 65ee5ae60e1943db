// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Phase scheduler: pack point-to-point and multicast transfers into one
 * exchange phase, each as early as its constraints allow, instead of the
 * notes' fixed scheduleOffset steps [S "One-Codelet Matrix Multiply"].
 *
 * A transfer X (sender s, n words, receivers d_i) placed at start event
 * sigma sends during [sigma, sigma + n); its first word reaches d_i's mux at
 * a_i = sigma + T(s, d_i) and its words are written from a_i + L_i on,
 * L_i = 52 + 2 * row(d_i) [RE]. Constraints (all modelled on the event
 * model, the same one the simulator implements):
 *  - sender: one outgoing word per event, so its sends are disjoint; after
 *    X it stays silent for pad(X) events (see below), since a word carries
 *    no destination and X's receivers still listen; no mux or PIC action
 *    of the sender while it sends (one instruction stream);
 *  - receiver d_i: its mux selects s during [a_i, a_i + n + pad_i), windows
 *    on one tile are disjoint (a close and the next open may share their
 *    event: one delayxpic switches the source); its PIC is set at some
 *    event p with (last write of its previous window) < p <= a_i + L_i, the
 *    latest free one; one mux or PIC action per tile per event, none while
 *    the tile sends;
 *  - a_i >= 0; every event, including the br $m10 seven events after the
 *    last write (the notes' rows' margin), below the phase bound.
 * pad_i = 2 * row(d_i) at n >= 52 (the notes' receive window, kept by
 * default because it is what hardware ran [S]; HW-OPEN-MUX-WINDOW),
 * 0 with IPUXCOM_SCHEDULE_EXACT_WINDOW. pad(X) = max_i pad_i.
 *
 * Transfers are placed in the order given (list scheduling): candidate
 * start events rise from max(0, -min T) and each conflict says how far to
 * jump. The result is one program per tile: sync 3, the actions in event
 * order with delay/delayxpic/delaypic fields sized to their gaps (delay
 * words where a gap exceeds a field), br $m10. Programs address SRAM
 * absolutely: send carries src/4 (A7 = 0), every receive the flagged
 * multicast delaypic form [S] (modelled for single-receiver transfers).
 *
 * Without IPUXCOM_SCHEDULE_LEGACY (the default scheduler, issue 16):
 *  - a tile's mux and PIC actions may fall inside its own send, except at
 *    the send's first event: the send is cut there and the piece from the
 *    action on is a sendpic carrying it, which continues the stream and
 *    applies its control at its first send event (HW-MERGED
 *    [RE]); one control per event as before;
 *  - a transfer may take a 64-bit paired route (ixc_sched_wide_ok():
 *    count / 2 events, each receiver at its pair's time [RE]) when its
 *    last write comes earlier; the pair resources and the different
 *    arrival offsets of 32- and 64-bit streams add constraints (modelled
 *    as the verifier does);
 *  - ipuxcom_schedule_build() builds the legacy packing too whenever the
 *    default used either, or found no room, and keeps the shorter phase,
 *    so the default is never longer than today's packing;
 *  - issue 25: it then places the set in other orders (schedule_order.c,
 *    then the latest-writing transfers first) and splits transfers:
 *    52..300 words to receivers above row 0 into pieces of at most 50
 *    words (no notes' window), odd or 4-off ones into head/tail words
 *    and a 64-bit body (p2p) or owner groups (multicast), multicasts
 *    into 64-bit owner and 32-bit groups; keeping a strictly shorter
 *    phase; then each multicast's owner split undone in turn, kept
 *    undone where the phase shortens (the split chosen per multicast);
 *    ufirst maps pieces to the caller's transfers;
 *  - issue 34: then each multicast piece's receivers halved, the same
 *    words sent once per group, kept where the phase shortens
 *    (ixc_sched_rsplit()).
 * The objective is the phase length (the last event of any tile); each
 * transfer still goes as early as it can, in the order given.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "xsim_internal.h"

/* The notes' rows end 7 events after their last write (delay(count + 4) / delay(56) [S]). */
#define IXC_SCHED_END_MARGIN	7

struct ixc_swin {
	int32_t a, c;		/* mux selects src during [a, c) */
	int32_t pic;		/* event of its PIC */
	int32_t last_write;
	uint32_t src;
	uint32_t xfer, recv;
	bool wide;		/* takes 64-bit items (pair resources of tile ^ 2) */
};

struct ixc_ssend {
	int32_t s0, s1;		/* sends during [s0, s1) */
	int32_t pad;		/* then silent until s1 + pad */
	uint32_t xfer;
	bool wide;		/* 64-bit items */
};

struct ixc_stile {
	uint32_t id;		/* physical tile */
	int32_t rem, rem_from;	/* a trial's windows still to come here (ixc_sctx_eval()) */
	int32_t rem_min;	/* the shortest of them */
	struct ixc_swin *win;	/* sorted by a */
	size_t nwin, cap_win;
	struct ixc_ssend *snd;	/* sorted by s0 */
	size_t nsnd, cap_snd;
};

/*
 * ixc_arrive()'s memo, per tile of a schedule: the offset at which a
 * 32-bit stream of sender from[0] - 1 reaches it in t[0] (from 0: none
 * yet), a 64-bit one of from[1] - 1 in t[1]. Kept apart from struct
 * ixc_stile, which the searches walk and which fits a cache line.
 */
struct ixc_sarrive {
	uint32_t from[2];
	int32_t t[2];
};

struct ixc_sx {
	uint32_t sender, count, nrecv, src, dir;
	uint32_t *recv, *dst;	/* into ixc_sched.ids */
	int32_t *t;		/* TimeToMux per receiver */
	int32_t *pic;		/* chosen PIC events */
	int32_t start, pad;
	int32_t *tpair;		/* per receiver: its pair's TimeToMux (64-bit route) */
	int32_t *pic_save;	/* per receiver: the 32-bit placement's PIC events */
	bool wide_ok;		/* even count, 8-byte aligned, every receiver owns its pair */
	uint32_t why;		/* enum ipuxcom_wide_why: why not wide_ok (USED if it is) */
	bool wide;		/* placed as 64-bit items: count / 2 events at tpair[i] */
	uint8_t width;		/* IXC_WIDTH_*: the exact reference's forced width */
};

/* How ixc_place() picks a width: the one that writes earlier, or forced (ixc_sched_exact()). */
enum { IXC_WIDTH_EARLIER, IXC_WIDTH_32, IXC_WIDTH_64 };

struct ixc_sprog {
	uint32_t tile;
	size_t off;
	uint32_t n;
};

struct ipuxcom_schedule {
	const struct ipuxcom_timing *tm;
	uint32_t flags, max_events;
	struct ixc_sx *x;
	size_t n;
	uint32_t *ids;		/* receivers and destinations of every transfer */
	int32_t *ints;		/* T, PIC, pair time, saved PIC of every transfer's receivers */
	/*
	 * The tiles the transfers send from or write to, in a dense array
	 * (issue 34: a build and every trial context allocated, cleared and
	 * walked all IPUXCOM_TILES): tix[t] is t's index, 0 for a tile no
	 * transfer touches (tiles[0] stays empty).
	 */
	uint16_t *tix;			/* IPUXCOM_TILES */
	struct ixc_stile *tiles;	/* ntiles */
	size_t ntiles, cap_tiles;
	struct ipuxcom_schedule_slot *slots;
	struct ixc_sprog *progs;
	size_t nprogs;
	uint32_t *words;
	size_t nwords, cap_words;
	uint32_t events;
	bool departs;		/* used a 64-bit route or a merged control */
	/* Split transfers (issue 25): caller's transfer u is x[ufirst[u] .. ufirst[u + 1]). */
	uint32_t *ufirst;
	size_t nuser;
	struct ixc_sarrive *arrive;	/* per tile, made when first asked: ixc_arrive() */
	size_t narrive;			/* its entries (tiles may still come while placing) */
	struct ixc_scross *cross;	/* the search's scratch: ixc_cross() */
	size_t ncross, cap_cross;
	/*
	 * Search effort so far, the unit of a build's budget (issue 34): a
	 * start tried, a receiver checked there (ixc_try()), a receiver of
	 * either side of a send the sender's other sends rule starts out by
	 * (ixc_cross_send()), a piece's tiles taken out again
	 * (ixc_unplace()).
	 */
	size_t work;
};

/* Tile @t (< IPUXCOM_TILES)'s sends and windows: none when no transfer of @s touches it. */
static inline const struct ixc_stile *ixc_tile(const struct ipuxcom_schedule *s, uint32_t t)
{
	return &s->tiles[s->tix[t]];
}

/* The same, writable: only for a tile some transfer of @s touches. */
static inline struct ixc_stile *ixc_tile_w(struct ipuxcom_schedule *s, uint32_t t)
{
	return &s->tiles[s->tix[t]];
}

/* ---------------------------------------------------------------- checks */

static int ixc_sched_check(const struct ipuxcom_schedule_opts *o, const struct ipuxcom_schedule_xfer *xs,
			   size_t n, struct ipuxcom_plan_error *err)
{
	const uint32_t known = IXC_SCHED_FLAGS_KNOWN;
	bool logical;
	int ret;

	if (!xs && n)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "xfers", "xfers is NULL");
	if (o && (o->flags & ~known))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", o->flags, o->flags & ~known);
	if (o && (ret = ixc_numbering(o->flags, &logical, "flags", err)))
		return ret;
	if (o && o->max_events > IXC_XSIM_EVENT_CAP)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FIELD, "max_events",
				     "max_events %u above the limit %u", o->max_events,
				     IXC_XSIM_EVENT_CAP);
	if (n > IPUXCOM_TILES * 64u)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NRECV, "n",
				     "n %zu transfers: more than %u", n, IPUXCOM_TILES * 64u);
	return 0;
}

/*
 * May @x take a 64-bit route? HW-WIDE [RE]: the pair
 * {d, d ^ 2} is reached at max(TimeToMux(s, d), TimeToMux(s, d ^ 2)) and
 * only its owner (the smaller TimeToMux; a tie: the lower id, modelled as
 * in the verifier) takes the items through its XPIC stream, two
 * consecutive words per event, so the count is even and every buffer
 * 8-byte aligned. For every receiver d: d owns its pair, d ^ 2 is neither
 * the sender (no pair timing) nor another receiver (its window would take
 * nothing). @seen: the receivers' bitmap.
 */
static void ixc_sched_wide_ok(const struct ipuxcom_schedule *s, struct ixc_sx *x,
			      const uint32_t *seen)
{
	if (x->count & 1) {
		x->why = IPUXCOM_WIDE_ODD_COUNT;
		return;
	}
	if (x->src & 7) {
		x->why = IPUXCOM_WIDE_ALIGN;
		return;
	}
	for (uint32_t i = 0; i < x->nrecv; i++) {
		uint32_t d = x->recv[i], e = d ^ 2;
		unsigned int dir2 = 0;
		int t2 = 0;

		x->why = (x->dst[i] & 7) ? IPUXCOM_WIDE_ALIGN :
			 e == x->sender ? IPUXCOM_WIDE_PARTNER_SENDER :
			 e >= IPUXCOM_TILES || (seen[e / 32] >> (e % 32) & 1) ?
			 IPUXCOM_WIDE_PARTNER_LISTED : IPUXCOM_WIDE_USED;
		if (x->why != IPUXCOM_WIDE_USED)
			return;
		/* no pair timing, or the partner owns the pair's XPIC stream */
		if (ixc_timing_pair(s->tm, x->sender, e, &t2, &dir2, NULL, "") ||
		    ixc_wide_owner(x->sender, d, x->t[i], t2) != d) {
			x->why = IPUXCOM_WIDE_NOT_OWNER;
			return;
		}
		x->tpair[i] = t2 > x->t[i] ? t2 : x->t[i];
	}
	x->wide_ok = true;
}

/*
 * The field name "xfers[i].NAME" (or "xfers[i].NAME[k]", @k >= 0) into
 * @buf: formatted only when a check fails, since a build checks every
 * transfer and the scheduler's passes build many times.
 */
static const char *ixc_sched_field(char *buf, size_t len, size_t i, const char *name, int k)
{
	if (k < 0)
		snprintf(buf, len, "xfers[%u].%s", (unsigned int)i, name);
	else
		snprintf(buf, len, "xfers[%u].%s[%d]", (unsigned int)i, name, k);
	return buf;
}

/*
 * Validate transfer @i like ipuxcom_plan_multicast() does, with field
 * names "xfers[i]...", and resolve ids into @x.
 */
static int ixc_sched_xfer(struct ipuxcom_schedule *s, size_t i, const struct ipuxcom_schedule_xfer *in,
			  struct ixc_sx *x, struct ipuxcom_plan_error *err)
{
	uint32_t seen[(IPUXCOM_TILES + 31) / 32] = { 0 };
	bool logical = !(s->flags & IPUXCOM_SCHEDULE_PHYSICAL);
	char f[64];
	unsigned int dir = 0;
	int t = 0;

	if (in->count < 1 || in->count > IPUXCOM_PLAN_MAX_COUNT) {
		ixc_sched_field(f, sizeof(f), i, "count", -1);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_COUNT, f, "%s %u out of range 1..%u",
				     f, in->count, IPUXCOM_PLAN_MAX_COUNT);
	}
	if (in->nrecv < 1 || in->nrecv > IPUXCOM_TILES - 1) {
		ixc_sched_field(f, sizeof(f), i, "nrecv", -1);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NRECV, f, "%s %u out of range 1..%u",
				     f, in->nrecv, IPUXCOM_TILES - 1);
	}
	if (!in->receivers || !in->dst_addr) {
		ixc_sched_field(f, sizeof(f), i, in->receivers ? "dst_addr" : "receivers", -1);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, f, "%s is NULL", f);
	}
	if (ixc_tile_resolve(in->sender, logical, &x->sender, NULL, ""))
		return ixc_tile_resolve(in->sender, logical, &x->sender, err,
					ixc_sched_field(f, sizeof(f), i, "sender", -1));
	if (ixc_check_sram(in->src_addr, in->count, false, NULL, ""))
		return ixc_check_sram(in->src_addr, in->count, false, err,
				      ixc_sched_field(f, sizeof(f), i, "src_addr", -1));
	if (in->src_addr / 4 > 0x3ffff) {
		ixc_sched_field(f, sizeof(f), i, "src_addr", -1);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FIELD, f,
				     "%s 0x%x: word address does not fit send's 18 bits", f,
				     in->src_addr);
	}
	x->count = in->count;
	x->nrecv = in->nrecv;
	x->src = in->src_addr;
	for (uint32_t k = 0; k < in->nrecv; k++) {
		uint32_t r = 0;

		if (ixc_tile_resolve(in->receivers[k], logical, &r, NULL, ""))
			return ixc_tile_resolve(in->receivers[k], logical, &r, err,
						ixc_sched_field(f, sizeof(f), i, "receivers",
								(int)k));
		if (r == x->sender || (seen[r / 32] >> (r % 32) & 1)) {
			ixc_sched_field(f, sizeof(f), i, "receivers", (int)k);
			return r == x->sender ?
				ixc_plan_fail(err, IPUXCOM_PLAN_E_SELF, f, "%s %u is the sender",
					      f, in->receivers[k]) :
				ixc_plan_fail(err, IPUXCOM_PLAN_E_DUP, f, "%s %u is listed twice",
					      f, in->receivers[k]);
		}
		seen[r / 32] |= 1u << (r % 32);
		if (ixc_timing_pair(s->tm, x->sender, r, &t, &dir, NULL, ""))
			return ixc_timing_pair(s->tm, x->sender, r, &t, &dir, err,
					       ixc_sched_field(f, sizeof(f), i, "receivers",
							       (int)k));
		if (ixc_check_sram(in->dst_addr[k], in->count, true, NULL, ""))
			return ixc_check_sram(in->dst_addr[k], in->count, true, err,
					      ixc_sched_field(f, sizeof(f), i, "dst_addr",
							      (int)k));
		x->recv[k] = r;
		x->dst[k] = in->dst_addr[k];
		x->t[k] = t;
	}
	/* One receiver: its route's direction; several: BROADCAST [DW]. */
	x->dir = in->nrecv == 1 ? dir : IPUXCOM_DIR_BROADCAST;
	x->wide_ok = false;
	x->why = IPUXCOM_WIDE_LEGACY;
	if (!(s->flags & IPUXCOM_SCHEDULE_LEGACY))
		ixc_sched_wide_ok(s, x, seen);
	return 0;
}

/* ------------------------------------------------------------- placement */

static int32_t ixc_pad(const struct ipuxcom_schedule *s, uint32_t count, uint32_t tile)
{
	if (s->flags & IPUXCOM_SCHEDULE_EXACT_WINDOW)
		return 0;
	return (int32_t)ixc_xsim_pad(count, ixc_phys_row(tile));
}

static int32_t ixc_latency(uint32_t tile)
{
	return (int32_t)(IPUXCOM_XSIM_WRITE_LATENCY + 2 * ixc_phys_row(tile));
}

/* Is @e an action event (mux or PIC) on @t other than a close at @e that may merge? */
static bool ixc_busy_action(const struct ixc_stile *t, int32_t e, bool open_ok_if_close,
			    bool close_ok_if_open)
{
	for (size_t k = 0; k < t->nwin; k++) {
		const struct ixc_swin *w = &t->win[k];

		if (w->pic == e)
			return true;
		if (w->a == e && !close_ok_if_open)
			return true;
		if (w->c == e && !open_ok_if_close)
			return true;
	}
	return false;
}

/*
 * The send of @t that keeps a control action off event @e, or NULL. Legacy:
 * any send running at @e. Default: only a send starting at @e; inside a
 * send a control rides on a sendpic that continues the stream from @e on
 * (HW-MERGED [RE]: applied at its first
 * send event).
 */
static const struct ixc_ssend *ixc_sending(const struct ipuxcom_schedule *s,
					   const struct ixc_stile *t, int32_t e)
{
	bool merge = !(s->flags & IPUXCOM_SCHEDULE_LEGACY);

	for (size_t k = 0; k < t->nsnd; k++)
		if (merge ? e == t->snd[k].s0 : (e >= t->snd[k].s0 && e < t->snd[k].s1))
			return &t->snd[k];
	return NULL;
}

/* Events @x's stream takes: one per word, or one per 64-bit item. */
static int32_t ixc_events(const struct ixc_sx *x)
{
	return (int32_t)(x->wide ? x->count / 2 : x->count);
}

/* When @x's first item reaches receiver @i's mux after its start. */
static int32_t ixc_t(const struct ixc_sx *x, uint32_t i)
{
	return x->wide ? x->tpair[i] : x->t[i];
}

/*
 * When a 64-bit item of @snd reaches tile @r's mux after it is sent: the
 * pair's time, max(TimeToMux(snd, r), TimeToMux(snd, r ^ 2)) [RE], or
 * TimeToMux(snd, r) when r ^ 2 is the sender (the verifier's rule).
 */
static int32_t ixc_wide_t(const struct ipuxcom_schedule *s, uint32_t snd, uint32_t r, int32_t t)
{
	unsigned int dir = 0;
	int t2 = 0;

	if ((r ^ 2) == snd || (r ^ 2) >= IPUXCOM_TILES ||
	    ixc_timing_pair(s->tm, snd, r ^ 2, &t2, &dir, NULL, ""))
		return t;
	return t2 > t ? t2 : t;
}

/*
 * When transfer @y's stream reaches tile @r. For one of its receivers
 * this is ixc_t() (t and tpair come from the same lookups), so no search
 * of its receivers: issue 34 measured that search at a sixth of a build.
 */
static int32_t ixc_arrive_lookup(const struct ipuxcom_schedule *s, const struct ixc_sx *y,
				 uint32_t r)
{
	unsigned int dir = 0;
	int t = 0;

	if (ixc_timing_pair(s->tm, y->sender, r, &t, &dir, NULL, ""))
		return 0;
	return y->wide ? ixc_wide_t(s, y->sender, r, t) : t;
}

/*
 * ixc_arrive_lookup(), kept in @r's tile: the offset depends on the
 * sender, the width and the tile only, and a search asks for the same
 * sender's again and again (ixc_cross_send(); issue 34: the lookups were
 * an eighth of the suite's build instructions).
 */
/* s->arrive for every tile of @s so far; false when out of memory. */
static bool ixc_arrive_grow(struct ipuxcom_schedule *s)
{
	struct ixc_sarrive *a = realloc(s->arrive, s->cap_tiles * sizeof(*a));

	if (!a)
		return false;
	memset(a + s->narrive, 0, (s->cap_tiles - s->narrive) * sizeof(*a));
	s->arrive = a;
	s->narrive = s->cap_tiles;
	return true;
}

static inline int32_t ixc_arrive(struct ipuxcom_schedule *s, const struct ixc_sx *y, uint32_t r)
{
	struct ixc_sarrive *m;
	int w = y->wide;

	/* a tile no transfer touches has no entry; out of memory, no memo */
	if (!s->tix[r] || (s->tix[r] >= s->narrive && !ixc_arrive_grow(s)))
		return ixc_arrive_lookup(s, y, r);
	m = &s->arrive[s->tix[r]];
	if (m->from[w] != y->sender + 1) {
		m->from[w] = y->sender + 1;
		m->t[w] = ixc_arrive_lookup(s, y, r);
	}
	return m->t[w];
}

/*
 * A sender's 32-bit streams reach each tile at one offset, so disjoint
 * sends never meet in a receiver's window; a 64-bit stream reaches it at
 * the pair's time instead. With one of them wide: @x's stream stays out
 * of the windows of the sender's other transfers, and theirs out of
 * @x's. Each such pair of stream and window rules out the starts
 * [lo, hi) of @x, whatever else is placed, so a search computes them once
 * per send into s->cross (issue 34: they were recomputed, with their
 * timing lookups, at every start tried), and only for the sends near
 * the starts it tries: arrival offsets lie in
 * [-IPUXCOM_WORST_SEND_DELAY, IPUXCOM_WORST_RECV_DELAY] (ixc_timing_pair()
 * checks every model's), so a send further than that from a start rules
 * it out through no receiver.
 */
#define IXC_SCHED_REACH	(IPUXCOM_WORST_SEND_DELAY + IPUXCOM_WORST_RECV_DELAY)

struct ixc_scross {
	int32_t lo, hi;		/* no start in [lo, hi): hi is the next worth trying */
};

/* One search's state (ixc_search(), ixc_try()). */
struct ixc_ssearch {
	uint32_t hot;		/* the receiver that ruled out the last start tried */
	size_t next_snd;	/* the sender's sends before it are in s->cross (or too early) */
};

static bool ixc_cross_add(struct ipuxcom_schedule *s, int64_t lo, int64_t hi)
{
	if (lo >= hi)
		return true;
	if (s->ncross == s->cap_cross &&
	    !ixc_xgrow((void **)&s->cross, &s->cap_cross, s->ncross + 1, sizeof(*s->cross)))
		return false;
	s->cross[s->ncross++] = (struct ixc_scross){
		(int32_t)(lo < INT32_MIN ? INT32_MIN : lo), (int32_t)hi };
	return true;
}

/* The starts send @o of @x's sender rules out, into s->cross; false: out of memory. */
static bool ixc_cross_send(struct ipuxcom_schedule *s, const struct ixc_sx *x,
			   const struct ixc_ssend *o)
{
	const struct ixc_sx *y = &s->x[o->xfer];
	int32_t n = ixc_events(x), len = o->s1 - o->s0;

	s->work += x->nrecv + y->nrecv;

	/* x's stream at y's receiver j during [sigma + tx, + n) against y's window [ya, yc) */
	for (uint32_t j = 0; j < y->nrecv; j++) {
		int32_t ya = o->s0 + ixc_t(y, j);
		int32_t yc = ya + len + ixc_pad(s, (uint32_t)len, y->recv[j]);
		int32_t tx = ixc_arrive(s, x, y->recv[j]);

		if (!ixc_cross_add(s, (int64_t)ya - tx - n + 1, (int64_t)yc - tx))
			return false;
	}
	/* y's stream at x's receiver i during [s0 + ty, + len) against x's window */
	for (uint32_t i = 0; i < x->nrecv; i++) {
		int32_t ty = ixc_arrive(s, y, x->recv[i]), ti = ixc_t(x, i);
		int32_t pad = ixc_pad(s, (uint32_t)n, x->recv[i]);

		if (!ixc_cross_add(s, (int64_t)o->s0 + ty - ti - n - pad + 1,
				   (int64_t)o->s0 + ty + len - ti))
			return false;
	}
	return true;
}

/*
 * 0, or the next start worth trying after @sigma by the sender's other
 * streams; -ENOMEM. The sends that start before @sigma's reach join
 * s->cross first (starts only rise during a search).
 */
static int64_t ixc_cross(struct ipuxcom_schedule *s, const struct ixc_sx *x, int32_t sigma,
			 struct ixc_ssearch *q)
{
	const struct ixc_stile *st = ixc_tile(s, x->sender);
	int64_t reach = (int64_t)sigma + ixc_events(x) + x->pad + IXC_SCHED_REACH;

	for (; q->next_snd < st->nsnd && st->snd[q->next_snd].s0 < reach; q->next_snd++) {
		const struct ixc_ssend *o = &st->snd[q->next_snd];

		if ((!x->wide && !o->wide) ||
		    (int64_t)sigma >= (int64_t)o->s1 + o->pad + IXC_SCHED_REACH)
			continue;
		if (!ixc_cross_send(s, x, o))
			return -ENOMEM;
	}
	for (size_t k = 0; k < s->ncross; k++)
		if (sigma >= s->cross[k].lo && sigma < s->cross[k].hi)
			return s->cross[k].hi;
	return 0;
}

/*
 * The events a receiver's PIC might take, the 64 below and at @top (bit b:
 * event top - b), marked where an action of the tile or the new window
 * already is (issue 34: one pass over the tile's windows and sends
 * instead of a pass per event tried; below those 64, event by event).
 */
struct ixc_spic {
	uint64_t used;
	int32_t top;
};

/* Mark event @e. */
static inline void ixc_pic_mark1(struct ixc_spic *m, int32_t e)
{
	uint32_t b = (uint32_t)(m->top - e);

	if (b < 64)
		m->used |= 1ull << b;
}

/* Mark events @e0..@e1. */
static inline void ixc_pic_mark(struct ixc_spic *m, int32_t e0, int32_t e1)
{
	int64_t b0 = (int64_t)m->top - e1, b1 = (int64_t)m->top - e0;

	if (b1 < 0 || b0 > 63)
		return;
	b0 = b0 < 0 ? 0 : b0;
	b1 = b1 > 63 ? 63 : b1;
	m->used |= (~0ull >> (63 - (b1 - b0))) << b0;
}

/*
 * The latest event in (@floor, top] not marked: INT32_MAX if there is
 * none (the latest unmarked one is at or below @floor), INT32_MIN if all
 * 64 are marked (look below them).
 */
static inline int32_t ixc_pic_free(const struct ixc_spic *m, int32_t floor)
{
	int32_t e;

	if (!~m->used)
		return INT32_MIN;
	e = m->top - __builtin_ctzll(~m->used);
	return e > floor ? e : INT32_MAX;
}

/* The first window of @t whose last write is at or after @e. */
static size_t ixc_win_from(const struct ixc_stile *t, int32_t e)
{
	size_t lo = 0, hi = t->nwin;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->win[mid].last_write < e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Can @x start at @sigma? 0: yes, PIC events in x->pic. > 0: the next
 * start worth trying. -1: never (the phase bound); -ENOMEM. The
 * receivers are checked from q->hot on, and q->hot becomes the one that
 * ruled @sigma out: the next start tried is likely ruled out by the same
 * one (issue 34; any receiver's conflict says how far to jump, so the
 * start found is the same).
 */
static int64_t ixc_try(struct ipuxcom_schedule *s, struct ixc_sx *x, int32_t sigma,
		       struct ixc_ssearch *q)
{
	const struct ixc_stile *st = ixc_tile(s, x->sender);
	bool merge = !(s->flags & IPUXCOM_SCHEDULE_LEGACY);
	int32_t n = ixc_events(x);

	s->work++;
	if ((int64_t)sigma + n > (int64_t)s->max_events)
		return -1;
	/*
	 * The sender's sends with their silences are disjoint and sorted, so
	 * one pass finds the first start at or after @sigma clear of all of
	 * them (issue 34: a try per send it ran into before).
	 */
	{
		int64_t at = sigma;

		for (size_t k = 0; k < st->nsnd; k++) {
			const struct ixc_ssend *o = &st->snd[k];

			if (!(at + n + x->pad <= o->s0 || at >= o->s1 + o->pad))
				at = (int64_t)o->s1 + o->pad;
		}
		if (at != sigma)
			return at;
	}
	/*
	 * The pair's double-width outgoing resources carry one stream at a
	 * time (modelled, as the verifier's pair-conflict): no send of the
	 * partner during a 64-bit send, and the reverse.
	 */
	if ((x->sender ^ 2) < IPUXCOM_TILES) {
		const struct ixc_stile *sp = ixc_tile(s, x->sender ^ 2);

		for (size_t k = 0; k < sp->nsnd; k++) {
			const struct ixc_ssend *o = &sp->snd[k];

			if ((x->wide || o->wide) && sigma < o->s1 && o->s0 < sigma + n)
				return (int64_t)o->s1;
		}
	}
	{
		int64_t r = ixc_cross(s, x, sigma, q);

		if (r)
			return r;
	}
	/*
	 * No action of the sender while it sends (legacy), or only none at the
	 * send's first event (default: later ones ride on a sendpic).
	 */
	for (size_t k = 0; k < st->nwin; k++) {
		const struct ixc_swin *w = &st->win[k];
		int32_t ev[3] = { w->a, w->c, w->pic };

		for (int j = 0; j < 3; j++)
			if (merge ? ev[j] == sigma : (ev[j] >= sigma && ev[j] < sigma + n))
				return (int64_t)ev[j] + 1;
	}
	for (uint32_t j = 0, i = q->hot; j < x->nrecv; j++, i = i + 1 < x->nrecv ? i + 1 : 0) {
		const struct ixc_stile *rt = ixc_tile(s, x->recv[i]);
		int32_t ti = ixc_t(x, i), a = sigma + ti, pad = ixc_pad(s, (uint32_t)n, x->recv[i]);
		int32_t c = a + n + pad, L = ixc_latency(x->recv[i]);
		int32_t lw = a + n - 1 + L, prev_lw = -1, p;
		const struct ixc_ssend *busy_a = NULL, *busy_c = NULL;
		struct ixc_spic m = { .top = a + L };
		bool act_a = false, act_c = false;
		size_t k0;

		q->hot = i;
		s->work++;
		if (a < 0)
			return (int64_t)sigma - a;
		if ((int64_t)lw + IXC_SCHED_END_MARGIN >= (int64_t)s->max_events)
			return -1;
		/*
		 * Every event of a window (open, close, PIC) comes at or before
		 * its last write, and the last writes rise with the windows, so
		 * the windows that write before both a and the PIC span ask
		 * nothing but prev_lw: the last of them gives it (issue 34).
		 */
		k0 = ixc_win_from(rt, a < m.top - 63 ? a : m.top - 63);
		if (k0)
			prev_lw = rt->win[k0 - 1].last_write;
		for (size_t k = k0; k < rt->nwin; k++) {
			const struct ixc_swin *w = &rt->win[k];

			/* opens and PICs rise along the tile: none from here on is at or before lw */
			if (w->a > lw && w->pic > lw)
				break;
			if (!(c <= w->a || a >= w->c)) {
				/* the tile's windows are disjoint and sorted: the next gap @x fits */
				int64_t na = w->c;

				while (++k < rt->nwin && na + (c - a) > rt->win[k].a)
					na = rt->win[k].c;
				return na - ti;
			}
			if (w->c <= a && w->last_write > prev_lw)
				prev_lw = w->last_write;
			/* A later window's PIC must come after this window's writes. */
			if (w->a >= c && w->pic <= lw)
				return (int64_t)w->c - ti;
			/* an open at a may share its event with a close, and a close at c with an open */
			act_a |= w->pic == a || w->a == a;
			act_c |= w->pic == c || w->c == c;
			ixc_pic_mark1(&m, w->a);
			ixc_pic_mark1(&m, w->c);
			ixc_pic_mark1(&m, w->pic);
		}
		/*
		 * A pair owner's 64-bit reception and its partner taking words
		 * share the pair's incoming resources (modelled, as the
		 * verifier's pair-conflict): their windows stay disjoint.
		 */
		if ((x->recv[i] ^ 2) < IPUXCOM_TILES) {
			const struct ixc_stile *rp = ixc_tile(s, x->recv[i] ^ 2);

			for (size_t k = 0; k < rp->nwin; k++) {
				const struct ixc_swin *w = &rp->win[k];

				if ((x->wide || w->wide) && a < w->c && w->a < c)
					return (int64_t)w->c - ti;
			}
		}
		/*
		 * The tile's sends keep a control off an event (ixc_sending()):
		 * legacy, any event a send runs at; default, a send's first.
		 */
		for (size_t k = 0; k < rt->nsnd; k++) {
			const struct ixc_ssend *o = &rt->snd[k];
			int32_t e1 = merge ? o->s0 : o->s1 - 1;

			if (!busy_a && a >= o->s0 && a <= e1)
				busy_a = o;
			if (!busy_c && c >= o->s0 && c <= e1)
				busy_c = o;
			if (e1 == o->s0)
				ixc_pic_mark1(&m, e1);
			else
				ixc_pic_mark(&m, o->s0, e1);
		}
		if (busy_a)
			return merge ? (int64_t)sigma + 1 : (int64_t)busy_a->s1 - ti;
		if (busy_c)
			return merge ? (int64_t)sigma + 1 : (int64_t)sigma + (busy_c->s1 - c);
		if (act_a || act_c)
			return (int64_t)sigma + 1;
		/* The latest free PIC event in (prev_lw, a + L]. */
		ixc_pic_mark1(&m, a);
		ixc_pic_mark1(&m, c);
		p = ixc_pic_free(&m, prev_lw < 0 ? -1 : prev_lw);
		if (p == INT32_MIN) {
			/* the whole span taken: on below it, event by event */
			for (p = m.top - 64; p > prev_lw && p >= 0; p--)
				if (p != a && p != c && !ixc_busy_action(rt, p, false, false) &&
				    !ixc_sending(s, rt, p))
					break;
			if (p <= prev_lw || p < 0)
				return (int64_t)sigma + 1;
		} else if (p == INT32_MAX) {
			return (int64_t)sigma + 1;
		}
		x->pic[i] = p;
	}
	return 0;
}

static bool ixc_win_insert(struct ixc_stile *t, const struct ixc_swin *w)
{
	size_t k;

	if (t->nwin == t->cap_win &&
	    !ixc_xgrow((void **)&t->win, &t->cap_win, t->nwin + 1, sizeof(*t->win)))
		return false;
	for (k = t->nwin; k > 0 && t->win[k - 1].a > w->a; k--)
		t->win[k] = t->win[k - 1];
	t->win[k] = *w;
	t->nwin++;
	return true;
}

static bool ixc_send_insert(struct ixc_stile *t, const struct ixc_ssend *sd)
{
	size_t k;

	if (t->nsnd == t->cap_snd &&
	    !ixc_xgrow((void **)&t->snd, &t->cap_snd, t->nsnd + 1, sizeof(*t->snd)))
		return false;
	for (k = t->nsnd; k > 0 && t->snd[k - 1].s0 > sd->s0; k--)
		t->snd[k] = t->snd[k - 1];
	t->snd[k] = *sd;
	t->nsnd++;
	return true;
}

/* The first start of @x in its current width: max(0, -min t[i]) [S]. */
static int32_t ixc_first_start(const struct ixc_sx *x)
{
	int32_t sigma = 0;

	for (uint32_t i = 0; i < x->nrecv; i++)
		if (-ixc_t(x, i) > sigma)
			sigma = -ixc_t(x, i);
	return sigma;
}

/* Last write of @x started at @sigma, over its receivers. */
static int32_t ixc_last_write(const struct ixc_sx *x, int32_t sigma)
{
	int32_t lw = INT32_MIN;

	for (uint32_t i = 0; i < x->nrecv; i++) {
		int32_t w = sigma + ixc_t(x, i) + ixc_events(x) - 1 + ixc_latency(x->recv[i]);

		if (w > lw)
			lw = w;
	}
	return lw;
}

/* x->pad: the longest of its receivers' pads in its current width. */
static void ixc_set_pad(const struct ipuxcom_schedule *s, struct ixc_sx *x)
{
	int32_t n = ixc_events(x);

	x->pad = 0;
	for (uint32_t i = 0; i < x->nrecv; i++) {
		int32_t pad = ixc_pad(s, (uint32_t)n, x->recv[i]);

		if (pad > x->pad)
			x->pad = pad;
	}
}

/*
 * The earliest start of @x in its current width (x->wide), PIC events in
 * x->pic; -1 if it does not fit the phase bound, INT32_MIN out of memory.
 */
static int32_t ixc_search(struct ipuxcom_schedule *s, struct ixc_sx *x)
{
	int32_t sigma = ixc_first_start(x);
	struct ixc_ssearch q = { 0, 0 };
	int64_t r;

	ixc_set_pad(s, x);
	s->ncross = 0;
	for (;;) {
		r = ixc_try(s, x, sigma, &q);
		if (r == 0)
			return sigma;
		if (r == -ENOMEM)
			return INT32_MIN;
		if (r < 0 || r > (int64_t)s->max_events)
			return -1;
		sigma = r > sigma ? (int32_t)r : sigma + 1;
	}
}

static int ixc_commit(struct ipuxcom_schedule *s, size_t xi, int32_t sigma,
		      struct ipuxcom_plan_error *err);

static int ixc_place(struct ipuxcom_schedule *s, size_t xi, struct ipuxcom_plan_error *err)
{
	struct ixc_sx *x = &s->x[xi];
	int32_t sigma;

	x->wide = false;
	sigma = x->width == IXC_WIDTH_64 && x->wide_ok ? -1 : ixc_search(s, x);
	if (sigma == INT32_MIN)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "xfers", "out of memory");
	/*
	 * Default scheduler: a transfer that may take a 64-bit route takes it
	 * when its last write comes earlier than the 32-bit placement's (the
	 * pair resources it then holds are the price; ipuxcom_schedule_build()
	 * keeps the legacy packing when the phase comes out longer).
	 */
	if (x->wide_ok && x->width == IXC_WIDTH_32) {
		x->why = IPUXCOM_WIDE_NOT_EARLIER;
	} else if (x->wide_ok) {
		int32_t pad32 = x->pad, sw;
		int32_t lw32 = sigma >= 0 ? ixc_last_write(x, sigma) : INT32_MAX;

		memcpy(x->pic_save, x->pic, x->nrecv * sizeof(*x->pic));
		x->wide = true;
		/* its earliest start writes no earlier: no search (issue 34) */
		sw = ixc_last_write(x, ixc_first_start(x)) >= lw32 ? -1 : ixc_search(s, x);
		if (sw == INT32_MIN)
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "xfers", "out of memory");
		if (sw < 0 || ixc_last_write(x, sw) >= lw32) {
			x->wide = false;
			x->why = IPUXCOM_WIDE_NOT_EARLIER;
			memcpy(x->pic, x->pic_save, x->nrecv * sizeof(*x->pic));
			x->pad = pad32;
		} else {
			sigma = sw;
		}
	}
	if (sigma < 0)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SCHEDULE, "xfers",
				     "xfers[%zu] (%u words from physical %u to %u "
				     "receiver%s) does not fit the phase bound of %u events "
				     "after the transfers before it", xi, x->count, x->sender,
				     x->nrecv, x->nrecv == 1 ? "" : "s", s->max_events);
	return ixc_commit(s, xi, sigma, err);
}

/*
 * Transfer @xi placed at @sigma in its width (x->wide, x->pad, x->pic
 * chosen): its slot, send and windows.
 */
static int ixc_commit(struct ipuxcom_schedule *s, size_t xi, int32_t sigma,
		      struct ipuxcom_plan_error *err)
{
	struct ixc_sx *x = &s->x[xi];
	struct ipuxcom_schedule_slot *slot = &s->slots[xi];
	int32_t n = ixc_events(x);

	x->start = sigma;
	*slot = (struct ipuxcom_schedule_slot){
		.size = sizeof(*slot), .start = sigma, .first_arrival = INT32_MAX,
		.last_write = -1, .gap = (uint32_t)x->pad,
		.sctl = x->dir | (x->wide ? IPUXCOM_SCTL_WIDE : 0), .items = (uint32_t)n,
		.wide = x->wide ? IPUXCOM_WIDE_USED : x->why,
	};
	if (!ixc_send_insert(ixc_tile_w(s, x->sender), &(struct ixc_ssend){
		    sigma, sigma + n, x->pad, (uint32_t)xi, x->wide }))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "xfers", "out of memory");
	for (uint32_t i = 0; i < x->nrecv; i++) {
		int32_t a = sigma + ixc_t(x, i);
		struct ixc_swin w = {
			.a = a, .c = a + n + ixc_pad(s, (uint32_t)n, x->recv[i]),
			.pic = x->pic[i],
			.last_write = a + n - 1 + ixc_latency(x->recv[i]),
			.src = x->sender, .xfer = (uint32_t)xi, .recv = i, .wide = x->wide,
		};

		if (!ixc_win_insert(ixc_tile_w(s, x->recv[i]), &w))
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "xfers", "out of memory");
		if (a < slot->first_arrival)
			slot->first_arrival = a;
		if (w.last_write > slot->last_write)
			slot->last_write = w.last_write;
	}
	return 0;
}

static int ixc_sched_new(const struct ipuxcom_schedule_opts *opts,
			 const struct ipuxcom_schedule_xfer *xfers, size_t n, bool place,
			 struct ipuxcom_schedule **out, struct ipuxcom_plan_error *err);

/* Take transfer @xi's send and windows out of @s again (the reverse of ixc_place()). */
static void ixc_unplace(struct ipuxcom_schedule *s, size_t xi)
{
	const struct ixc_sx *x = &s->x[xi];
	struct ixc_stile *t = ixc_tile_w(s, x->sender);

	for (size_t k = 0; k < t->nsnd; k++) {
		if (t->snd[k].xfer != xi)
			continue;
		memmove(&t->snd[k], &t->snd[k + 1], (t->nsnd - k - 1) * sizeof(*t->snd));
		t->nsnd--;
		break;
	}
	s->work += 1 + x->nrecv;
	for (uint32_t i = 0; i < x->nrecv; i++) {
		t = ixc_tile_w(s, x->recv[i]);
		for (size_t k = 0; k < t->nwin; k++) {
			if (t->win[k].xfer != xi)
				continue;
			memmove(&t->win[k], &t->win[k + 1], (t->nwin - k - 1) * sizeof(*t->win));
			t->nwin--;
			break;
		}
	}
}

/*
 * The phase a placed transfer @xi asks for: its tiles' programs end after
 * its last send and IXC_SCHED_END_MARGIN events after its last write
 * (ixc_build_program(): every action of a window comes before its last
 * write), and the phase is the last event + 1.
 */
static uint32_t ixc_placed_phase(const struct ipuxcom_schedule *s, size_t xi)
{
	const struct ixc_sx *x = &s->x[xi];
	int32_t end = x->start + ixc_events(x), lw = s->slots[xi].last_write;

	if (lw + IXC_SCHED_END_MARGIN > end)
		end = lw + IXC_SCHED_END_MARGIN;
	return (uint32_t)end + 1;
}

/*
 * Issue 34: the scheduler's passes (placement orders, splits, the owner
 * split per multicast) try many placements of closely related sets. A
 * trial context holds every piece any of them uses, checked and resolved
 * once (the pool), and the sequence of pool entries placed now; a trial
 * is a sequence, placed without programs: what the last trial placed
 * with the same first entries stays, only the rest is taken out and
 * placed again, and a trial stops as soon as its phase reaches the one it
 * must beat. The kept trial is built in full once at the end.
 */
/*
 * Where a trial placed each pool entry (start, width, PIC events at the
 * entry's place in the pool's ints), so that the kept trial is built
 * without searching its placements again (issue 34).
 */
struct ixc_ssnap {
	int32_t *start;
	uint8_t *wide;
	int32_t *ints;
};

struct ixc_sctx {
	struct ipuxcom_schedule *s;	/* the pool, placed as seq says */
	uint32_t *seq;			/* pool entries placed, in order */
	uint32_t *ph;			/* ph[k]: the phase of seq[0..k] */
	size_t nseq, cap;
	size_t *budget;			/* work (s->work) left to every trial of the build */
	size_t w0;			/* s->work already charged to it */
	bool broken;			/* out of memory while placing: state unknown */
	struct ixc_ssnap won;		/* the last trial an order search kept (ixc_sset_try()) */
	struct ixc_ssnap kept;		/* the one a pass keeps (ixc_sctx_keep()) */
	size_t nints;
};

static void ixc_ssnap_free(struct ixc_ssnap *p)
{
	free(p->start);
	free(p->wide);
	free(p->ints);
}

static bool ixc_ssnap_alloc(struct ixc_ssnap *p, size_t n, size_t nints)
{
	p->start = malloc((n ? n : 1) * sizeof(*p->start));
	p->wide = malloc(n ? n : 1);
	p->ints = malloc(nints * sizeof(*p->ints));
	return p->start && p->wide && p->ints;
}

/* Pool entries @seq[0..n) as placed now into @p. */
static void ixc_ssnap_take(struct ixc_ssnap *p, const struct ipuxcom_schedule *s,
			   const uint32_t *seq, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const struct ixc_sx *x = &s->x[seq[k]];

		p->start[seq[k]] = x->start;
		p->wide[seq[k]] = x->wide;
		memcpy(p->ints + (x->pic - s->ints), x->pic, x->nrecv * sizeof(*x->pic));
	}
}

static void ixc_sctx_free(struct ixc_sctx *c)
{
	ixc_ssnap_free(&c->won);
	ixc_ssnap_free(&c->kept);
	ipuxcom_schedule_free(c->s);
	free(c->seq);
	free(c->ph);
	memset(c, 0, sizeof(*c));
}

/* The pool of @n transfers, none placed; false if they do not check or out of memory. */
static bool ixc_sctx_init(struct ixc_sctx *c, const struct ipuxcom_schedule_opts *opts,
			  const struct ipuxcom_schedule_xfer *xfers, size_t n, size_t *budget)
{
	memset(c, 0, sizeof(*c));
	c->budget = budget;
	if (ixc_sched_new(opts, xfers, n, false, &c->s, NULL))
		return false;
	c->w0 = c->s->work;
	c->cap = n ? n : 1;
	c->seq = malloc(c->cap * sizeof(*c->seq));
	c->ph = malloc(c->cap * sizeof(*c->ph));
	c->nints = 1;
	for (size_t k = 0; k < n; k++)
		c->nints += 4 * c->s->x[k].nrecv;
	if (!c->seq || !c->ph || !ixc_ssnap_alloc(&c->won, n, c->nints) ||
	    !ixc_ssnap_alloc(&c->kept, n, c->nints)) {
		ixc_sctx_free(c);
		return false;
	}
	return true;
}

/*
 * A lower bound on the phase of a trial once its entries still to come
 * are placed too (issue 34): on tile @t their windows, t->rem events at
 * least (count / 2 where a 64-bit route may serve it, count otherwise),
 * none before t->rem_from (a window opens at max(0, TimeToMux) or
 * later), stay out of the windows placed and of each other, so the last
 * of them still takes its last word at or after the event where the
 * free events from rem_from on first add up to rem; its write follows
 * ixc_latency() later and the phase ends at least IXC_SCHED_END_MARGIN
 * + 1 after that (ixc_placed_phase()).
 */
static int64_t ixc_tile_bound(const struct ixc_stile *t)
{
	int64_t need = t->rem, at = t->rem_from;

	for (size_t k = 0; k < t->nwin; k++) {
		const struct ixc_swin *w = &t->win[k];

		if (w->c <= at)
			continue;
		/* a gap shorter than every window to come takes none */
		if (w->a - at >= t->rem_min) {
			if (w->a - at >= need)
				break;
			need -= w->a - at;
		}
		at = w->c;
	}
	return at + need - 1 + ixc_latency(t->id) + IXC_SCHED_END_MARGIN + 1;
}

/* The fewest events transfer @x's stream takes: a 64-bit route's where it may take one. */
static int32_t ixc_min_events(const struct ixc_sx *x)
{
	return (int32_t)(x->wide_ok ? x->count / 2 : x->count);
}

/*
 * The windows of @seq[0..n) to come on every tile, into rem and
 * rem_from; true if some tile's bound already reaches @cutoff.
 */
static bool ixc_sctx_ahead(struct ixc_sctx *c, const uint32_t *seq, size_t n, uint32_t cutoff)
{
	struct ipuxcom_schedule *s = c->s;

	for (size_t k = 1; k < s->ntiles; k++) {
		s->tiles[k].rem = 0;
		s->tiles[k].rem_from = INT32_MAX;
		s->tiles[k].rem_min = INT32_MAX;
	}
	for (size_t k = 0; k < n; k++) {
		const struct ixc_sx *x = &s->x[seq[k]];

		for (uint32_t i = 0; i < x->nrecv; i++) {
			struct ixc_stile *t = ixc_tile_w(s, x->recv[i]);

			t->rem += ixc_min_events(x);
			if (ixc_min_events(x) < t->rem_min)
				t->rem_min = ixc_min_events(x);
			if ((x->t[i] > 0 ? x->t[i] : 0) < t->rem_from)
				t->rem_from = x->t[i] > 0 ? x->t[i] : 0;
		}
	}
	for (size_t k = 1; k < s->ntiles; k++)
		if (s->tiles[k].rem && ixc_tile_bound(&s->tiles[k]) >= cutoff)
			return true;
	return false;
}

/* The search work done since the last charge taken from the budget; false once it is spent. */
static bool ixc_sctx_charge(struct ixc_sctx *c)
{
	size_t d = c->s->work - c->w0;

	*c->budget = d >= *c->budget ? 0 : *c->budget - d;
	c->w0 = c->s->work;
	return *c->budget != 0;
}

/*
 * Place pool entries @seq[0..n) (each at most once) in that order. The
 * phase, if every entry fits and the phase stays below @cutoff; else
 * UINT32_MAX (the entries placed so far stay, for the next trial). A
 * trial stops as soon as its phase must reach @cutoff: the phase of the
 * entries placed, or a tile's bound on the windows still to come
 * (ixc_tile_bound(); issue 34: a trial that loses used to run to the
 * entry that made it lose, near its end).
 */
static uint32_t ixc_sctx_eval(struct ixc_sctx *c, const uint32_t *seq, size_t n,
			      uint32_t cutoff)
{
	size_t k = 0;

	if (c->broken || n > c->cap)
		return UINT32_MAX;
	ixc_sctx_charge(c);
	while (k < c->nseq && k < n && c->seq[k] == seq[k] && c->ph[k] < cutoff)
		k++;
	if (k && c->ph[k - 1] >= cutoff)
		return UINT32_MAX;
	while (c->nseq > k)
		ixc_unplace(c->s, c->seq[--c->nseq]);
	if (cutoff != UINT32_MAX && k < n && ixc_sctx_ahead(c, seq + k, n - k, cutoff))
		return UINT32_MAX;
	for (; k < n; k++) {
		const struct ixc_sx *x = &c->s->x[seq[k]];
		uint32_t p;
		int ret;

		if (!ixc_sctx_charge(c))
			return UINT32_MAX;
		ret = ixc_place(c->s, seq[k], NULL);

		if (ret) {
			/* no room places nothing; out of memory may leave a part */
			c->broken = ret == -ENOMEM;
			return UINT32_MAX;
		}
		p = ixc_placed_phase(c->s, seq[k]);
		if (k && c->ph[k - 1] > p)
			p = c->ph[k - 1];
		c->seq[k] = seq[k];
		c->ph[k] = p;
		c->nseq = k + 1;
		if (p >= cutoff)
			return UINT32_MAX;
		for (uint32_t i = 0; cutoff != UINT32_MAX && i < x->nrecv; i++) {
			struct ixc_stile *t = ixc_tile_w(c->s, x->recv[i]);

			t->rem -= ixc_min_events(x);
			if (t->rem && ixc_tile_bound(t) >= cutoff)
				return UINT32_MAX;
		}
	}
	return n ? c->ph[n - 1] : 0;
}

/* -------------------------------------------------------------- programs */

enum { IXC_A_SEND = 1, IXC_A_XPIC, IXC_A_PIC };

struct ixc_saction {
	int32_t event;
	int kind;
	uint32_t a, b, c;	/* send: n, src, dir; xpic: mux; pic: field */
};

/*
 * @act[0..n) by event. An insertion sort: a tile's actions come as its
 * sends and its windows' opens, closes and PICs, each nearly in event
 * order already (issue 34: qsort's merge sort, with its allocation, was
 * a sixth of a point-to-point set's build).
 */
static void ixc_saction_sort(struct ixc_saction *act, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct ixc_saction v = act[i];
		size_t j = i;

		for (; j > 0 && act[j - 1].event > v.event; j--)
			act[j] = act[j - 1];
		act[j] = v;
	}
}

static bool ixc_emit(struct ipuxcom_schedule *s, uint32_t w)
{
	if (!ixc_xgrow((void **)&s->words, &s->cap_words, s->nwords + 1, sizeof(*s->words)))
		return false;
	s->words[s->nwords++] = w;
	return true;
}

/* Words that take @gap >= 1 events: delay words (19-bit fields [S]). */
static bool ixc_emit_wait(struct ipuxcom_schedule *s, int32_t gap, uint32_t *bad)
{
	while (gap > 0) {
		int32_t k = gap > 0x80000 ? 0x80000 : gap;

		if (!ixc_emit(s, ixc_delay((uint32_t)k - 1, bad)))
			return false;
		gap -= k;
	}
	return true;
}

static int ixc_build_program(struct ipuxcom_schedule *s, uint32_t tile, struct ixc_saction *act,
			     size_t *nact_out, struct ipuxcom_plan_error *err)
{
	const struct ixc_stile *t = ixc_tile(s, tile);
	size_t na = 0;
	int32_t cur = 0, end = 0;
	uint32_t bad = 0;
	struct ixc_sprog *pr = &s->progs[s->nprogs];

	for (size_t k = 0; k < t->nsnd; k++) {
		const struct ixc_sx *x = &s->x[t->snd[k].xfer];

		act[na++] = (struct ixc_saction){
			t->snd[k].s0, IXC_A_SEND, (uint32_t)ixc_events(x), x->src,
			x->dir | (x->wide ? IPUXCOM_SCTL_WIDE : 0u),
		};
		if (t->snd[k].s1 > end)
			end = t->snd[k].s1;
	}
	for (size_t k = 0; k < t->nwin; k++) {
		const struct ixc_swin *w = &t->win[k];
		const struct ixc_sx *x = &s->x[w->xfer];

		act[na++] = (struct ixc_saction){ w->a, IXC_A_XPIC, w->src, 0, 0 };
		if (k + 1 >= t->nwin || t->win[k + 1].a != w->c)
			act[na++] = (struct ixc_saction){ w->c, IXC_A_XPIC, IPUXCOM_MUX_DISABLE, 0, 0 };
		act[na++] = (struct ixc_saction){
			w->pic, IXC_A_PIC,
			IPUXCOM_MCAST_FLAG | (x->dst[w->recv] - IPUXCOM_MCAST_DST_BASE) / 4, 0, 0,
		};
		if (w->last_write + IXC_SCHED_END_MARGIN > end)
			end = w->last_write + IXC_SCHED_END_MARGIN;
	}
	ixc_saction_sort(act, na);
	pr->tile = tile;
	pr->off = s->nwords;
	if (!ixc_emit(s, IXC_SYNC3))
		goto nomem;
	for (size_t k = 0; k < na; k++) {
		const struct ixc_saction *a = &act[k];
		int32_t gap = a->event - cur;

		if (gap < 0 || (k && a->event == act[k - 1].event))
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_INTERNAL, "tile",
					     "internal: tile %u has two actions at event %d", tile,
					     a->event);
		switch (a->kind) {
		case IXC_A_SEND: {
			/*
			 * Controls during the send (default scheduler only) split it:
			 * each rides on a sendpic that continues the stream from its
			 * event on [RE]; the first piece is a plain send.
			 */
			int32_t s_end = a->event + (int32_t)a->a, from = a->event;
			size_t j = k + 1;

			if (!ixc_emit_wait(s, gap, &bad))
				goto nomem;
			for (;; j++) {
				int32_t to = j < na && act[j].event < s_end ? act[j].event : s_end;
				uint32_t len = (uint32_t)(to - from), first = (len < 64 ? len : 64) - 1, w;

				if (to <= from || (j < na && act[j].kind == IXC_A_SEND && to < s_end))
					return ixc_plan_fail(err, IPUXCOM_PLAN_E_INTERNAL, "tile",
							     "internal: tile %u has two actions at "
							     "event %d", tile, to);
				if (from == a->event) {
					w = ixc_send(first, a->b / 4, a->c, &bad);
				} else {
					/* the action at @from: a mux setting or a PIC */
					w = ixc_sendpic(first, act[j - 1].kind == IXC_A_XPIC ?
							IPUXCOM_SENDPIC_XPIC0 : IPUXCOM_SENDPIC_PIC0,
							act[j - 1].a, &bad);
					s->departs = true;
				}
				if (!ixc_emit(s, w) ||
				    (len > 64 && !ixc_emit(s, ixc_sendoff(len - 65, 0, a->c, &bad))))
					goto nomem;
				if (to == s_end)
					break;
				from = to;
			}
			k = j - 1;
			cur = s_end;
			break;
		}
		case IXC_A_XPIC:
			/* delayxpic's delay is 12 bits [S]: longer gaps start with a delay. */
			if ((gap > 0xfff && !ixc_emit_wait(s, gap - 0xfff, &bad)) ||
			    !ixc_emit(s, ixc_delayxpic((uint32_t)(gap > 0xfff ? 0xfff : gap), 0, a->a,
						       &bad)))
				goto nomem;
			cur = a->event + 1;
			break;
		default:
			/* delaypic's delay is 7 bits [S]. */
			if ((gap > 0x7f && !ixc_emit_wait(s, gap - 0x7f, &bad)) ||
			    !ixc_emit(s, ixc_delaypic((uint32_t)(gap > 0x7f ? 0x7f : gap), 0, a->a,
						      &bad)))
				goto nomem;
			cur = a->event + 1;
			break;
		}
	}
	if (end > cur && !ixc_emit_wait(s, end - cur, &bad))
		goto nomem;
	if (end < cur)
		end = cur;
	if (!ixc_emit(s, IPUXCOM_WORD_BR_M10))
		goto nomem;
	if (bad)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_INTERNAL, "tile",
				     "internal: a field overflowed in tile %u's program", tile);
	pr->n = (uint32_t)(s->nwords - pr->off);
	if ((uint32_t)end + 1 > s->events)
		s->events = (uint32_t)end + 1;
	s->nprogs++;
	*nact_out = na;
	return 0;
nomem:
	return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "tile", "out of memory");
}

/* ------------------------------------------------------------------- API */

void ipuxcom_schedule_free(struct ipuxcom_schedule *s)
{
	if (!s)
		return;
	for (size_t k = 1; s->tiles && k < s->ntiles; k++) {
		free(s->tiles[k].win);
		free(s->tiles[k].snd);
	}
	free(s->tiles);
	free(s->tix);
	free(s->x);
	free(s->ids);
	free(s->ints);
	free(s->slots);
	free(s->progs);
	free(s->words);
	free(s->ufirst);
	free(s->arrive);
	free(s->cross);
	free(s);
}

static int ixc_schedule_build(const struct ipuxcom_schedule_opts *opts,
			      const struct ipuxcom_schedule_xfer *xfers, size_t n,
			      const uint32_t *order, bool programs, struct ipuxcom_schedule **out,
			      struct ipuxcom_plan_error *err);

/* The trial an order search kept last (c->won) becomes the one the pass keeps. */
static void ixc_sctx_keep(struct ixc_sctx *c)
{
	size_t n = c->s->n;

	memcpy(c->kept.start, c->won.start, n * sizeof(*c->won.start));
	memcpy(c->kept.wide, c->won.wide, n);
	memcpy(c->kept.ints, c->won.ints, c->nints * sizeof(*c->won.ints));
}

static int ixc_sched_programs(struct ipuxcom_schedule *s, struct ipuxcom_plan_error *err);

/*
 * s->events of a schedule whose programs are not built: the latest end
 * of its transfers' sends and write margins (ixc_placed_phase()), which
 * is where ixc_build_program() ends the longest program (every action
 * of a window comes at or before its last write). Issue 34: the
 * candidates the passes compare are built without programs; only the
 * one returned gets them (ixc_sched_finish()).
 */
static void ixc_sched_phase(struct ipuxcom_schedule *s)
{
	s->events = 0;
	for (size_t i = 0; i < s->n; i++)
		if (ixc_placed_phase(s, i) > s->events)
			s->events = ixc_placed_phase(s, i);
}

/*
 * The programs of *@out if it has none yet. Their phase must be the one
 * ixc_sched_phase() gave, which every comparison used: E_INTERNAL if not.
 * On failure *@out is freed and NULL.
 */
static int ixc_sched_finish(struct ipuxcom_schedule **out, struct ipuxcom_plan_error *err)
{
	struct ipuxcom_schedule *s = *out;
	uint32_t phase = s->events;
	int ret;

	if (s->progs)
		return 0;
	s->events = 0;
	if (!(ret = ixc_sched_programs(s, err)) && s->events != phase)
		ret = ixc_plan_fail(err, IPUXCOM_PLAN_E_INTERNAL, "out",
				    "internal: the programs take %u events, the placements %u",
				    s->events, phase);
	if (ret) {
		ipuxcom_schedule_free(s);
		*out = NULL;
	}
	return ret;
}

/*
 * Transfer @e of @s placed as recorded, without a search: at @start, in
 * width @wide, with PIC events @pic. 0, or -errno.
 */
static int ixc_put(struct ipuxcom_schedule *s, size_t e, int32_t start, bool wide,
		   const int32_t *pic)
{
	struct ixc_sx *x = &s->x[e];

	x->wide = wide;
	ixc_set_pad(s, x);
	memcpy(x->pic, pic, x->nrecv * sizeof(*x->pic));
	return ixc_commit(s, e, start, NULL);
}

/*
 * A trial of @c built in full without searching again: @xfers[0..n) are
 * its pool entries map[k] (NULL: k), placed in @order where @p says
 * (issue 34: the kept trial's placements were searched a second time).
 * -EINVAL if a transfer is not its pool entry; then build it the long way.
 */
static int ixc_schedule_rebuild(const struct ipuxcom_schedule_opts *opts,
				const struct ipuxcom_schedule_xfer *xfers, size_t n,
				const uint32_t *order, const struct ixc_sctx *c,
				const struct ixc_ssnap *p, const uint32_t *map,
				struct ipuxcom_schedule **out)
{
	struct ipuxcom_schedule *s;
	int ret;

	*out = NULL;
	if ((ret = ixc_sched_new(opts, xfers, n, false, &s, NULL)))
		return ret;
	for (size_t k = 0; k < n; k++) {
		size_t xi = order[k], e = map ? map[xi] : xi;
		struct ixc_sx *x = &s->x[xi];
		const struct ixc_sx *px = &c->s->x[e];

		if (e >= c->s->n || px->sender != x->sender || px->nrecv != x->nrecv ||
		    px->count != x->count || px->src != x->src) {
			ipuxcom_schedule_free(s);
			return -EINVAL;
		}
		if (x->wide_ok && !p->wide[e])
			x->why = IPUXCOM_WIDE_NOT_EARLIER;
		ret = ixc_put(s, xi, p->start[e], p->wide[e], p->ints + (px->pic - c->s->ints));
		if (ret) {
			ipuxcom_schedule_free(s);
			return ret;
		}
		s->departs |= x->wide;
	}
	ixc_sched_phase(s);
	*out = s;
	return 0;
}

/*
 * Issue 25: place the set again in each order of ixc_sched_order() and
 * keep a shorter phase (ties: the one in hand), so the result is never
 * longer than the caller's order gave. Then, from the best order, move
 * each of the IXC_SCHED_CRITICAL transfers that write last to the front
 * (it waited for others; placed first it waits for none) and keep the
 * move while the phase shortens, at most IXC_SCHED_MOVES trials.
 * Issue 34: each order is a trial of a context (struct ixc_sctx), not a
 * build.
 */
#define IXC_SCHED_CRITICAL	4
#define IXC_SCHED_MOVES		8

/* A set of pool entries whose best order is searched. */
struct ixc_sset {
	const struct ipuxcom_schedule_xfer *xf;	/* its transfers, for ixc_sched_order() */
	const uint32_t *map;	/* set index -> pool entry; NULL: the same index */
	size_t n;
	uint32_t phase;		/* the phase in hand (order, lw); UINT32_MAX: none yet */
	uint32_t *order;	/* the order in hand (set indices) */
	int32_t *lw;		/* per set index: its last write in the phase in hand */
	uint32_t *seq, *cur;	/* scratch */
};

static bool ixc_sset_alloc(struct ixc_sset *st, size_t n)
{
	size_t k = n ? n : 1;

	memset(st, 0, sizeof(*st));
	st->order = malloc(k * sizeof(*st->order));
	st->lw = malloc(k * sizeof(*st->lw));
	st->seq = malloc(k * sizeof(*st->seq));
	st->cur = malloc(k * sizeof(*st->cur));
	st->phase = UINT32_MAX;
	return st->order && st->lw && st->seq && st->cur;
}

static void ixc_sset_free(struct ixc_sset *st)
{
	free(st->order);
	free(st->lw);
	free(st->seq);
	free(st->cur);
	memset(st, 0, sizeof(*st));
}

/* Place @st in @order (set indices); it becomes the one in hand if its phase is shorter. */
static bool ixc_sset_try(struct ixc_sctx *c, struct ixc_sset *st, const uint32_t *order)
{
	uint32_t p;

	for (size_t i = 0; i < st->n; i++)
		st->seq[i] = st->map ? st->map[order[i]] : order[i];
	p = ixc_sctx_eval(c, st->seq, st->n, st->phase);
	if (p == UINT32_MAX)
		return false;
	st->phase = p;
	ixc_ssnap_take(&c->won, c->s, st->seq, st->n);
	if (order != st->order)
		memcpy(st->order, order, st->n * sizeof(*order));
	for (size_t i = 0; i < st->n; i++)
		st->lw[i] = c->s->slots[st->map ? st->map[i] : i].last_write;
	return true;
}

/*
 * The best order of @st: the one in hand (st->order placed first when
 * there is no phase in hand), the orders of ixc_sched_order() when @orders, then
 * the moves of the transfers that write last.
 */
static void ixc_sset_search(struct ixc_sctx *c, struct ixc_sset *st, bool logical, bool orders)
{
	uint32_t *order = st->order, *cur = st->cur;
	size_t n = st->n;
	unsigned int moves = 0;
	bool again = true;

	if (st->phase == UINT32_MAX && !ixc_sset_try(c, st, order))
		return;
	if (!orders || n < 2)
		return;
	for (unsigned int k = 1; k <= IXC_SCHED_ORDERS; k++)
		if (ixc_sched_order(st->xf, n, logical, k, cur))
			ixc_sset_try(c, st, cur);
	while (again && moves < IXC_SCHED_MOVES) {
		uint32_t crit[IXC_SCHED_CRITICAL];
		size_t nc = 0;

		/* The transfers that write last in the best phase, latest first. */
		for (size_t i = 0; i < n; i++) {
			size_t j = nc < IXC_SCHED_CRITICAL ? nc++ : IXC_SCHED_CRITICAL;

			while (j > 0 && st->lw[crit[j - 1]] < st->lw[i]) {
				if (j < IXC_SCHED_CRITICAL)
					crit[j] = crit[j - 1];
				j--;
			}
			if (j < IXC_SCHED_CRITICAL)
				crit[j] = (uint32_t)i;
		}
		again = false;
		for (size_t k = 0; k < nc && moves < IXC_SCHED_MOVES; k++) {
			size_t at = 0;

			while (order[at] != crit[k])
				at++;
			if (at == 0)
				continue;
			cur[0] = crit[k];
			memcpy(cur + 1, order, at * sizeof(*order));
			memcpy(cur + at + 1, order + at + 1, (n - at - 1) * sizeof(*order));
			moves++;
			if (ixc_sset_try(c, st, cur)) {
				again = true;
				break;
			}
		}
	}
}

/*
 * The caller's set in other orders (issue 25), from its schedule *@best
 * (the default's or the legacy packing's): *@best becomes the build of a
 * shorter order.
 */
static void ixc_sched_reorder(const struct ipuxcom_schedule_opts *opts,
			      const struct ipuxcom_schedule_xfer *xfers, size_t n,
			      struct ipuxcom_schedule **best, size_t *budget)
{
	bool logical = !(opts && (opts->flags & IPUXCOM_SCHEDULE_PHYSICAL));
	struct ixc_sctx c;
	struct ixc_sset st;
	struct ipuxcom_schedule *s = NULL;

	/* no budget: every trial would stop at its first entry (ixc_sctx_eval()) */
	if (n < 2 || !*budget)
		return;
	if (!ixc_sset_alloc(&st, n) || !ixc_sctx_init(&c, opts, xfers, n, budget)) {
		ixc_sset_free(&st);
		return;
	}
	st.xf = xfers;
	st.n = n;
	st.phase = (*best)->events;
	for (size_t i = 0; i < n; i++) {
		st.order[i] = (uint32_t)i;
		st.lw[i] = (*best)->slots[i].last_write;
	}
	ixc_sset_search(&c, &st, logical, true);
	if (st.phase < (*best)->events &&
	    (!ixc_schedule_rebuild(opts, xfers, n, st.order, &c, &c.won, NULL, &s) ||
	     !ixc_schedule_build(opts, xfers, n, st.order, false, &s, NULL))) {
		ipuxcom_schedule_free(*best);
		*best = s;
	}
	ixc_sctx_free(&c);
	ixc_sset_free(&st);
}

/*
 * Issue 25: a single-receiver transfer whose count is odd or whose buffers
 * sit 4 bytes off an 8-byte boundary (source and destination alike) cannot
 * take a 64-bit route whole, but its aligned even middle can: split it
 * into a one-word head (when misaligned), that body, and a one-word tail
 * (when one word is left), schedule the split set the same way (orders
 * included) and keep it when its phase is shorter. The caller still sees
 * its own transfers: slots merge their pieces, _load() declares each
 * whole (the verifier matches words by source address, whichever stream
 * carries them).
 */
#define IXC_SCHED_SPLIT_ORDERS_MAX	256

static bool ixc_sched_splittable(const struct ipuxcom_schedule_xfer *x)
{
	uint32_t head = (x->dst_addr && (x->dst_addr[0] & 7)) ? 1 : 0;

	return x->nrecv == 1 && x->dst_addr && x->count >= 2 + head &&
	       (x->src_addr & 7) == (x->dst_addr[0] & 7) && ((x->count - head) & 1 || head);
}

/*
 * A multicast with an even count and 8-byte aligned source whose
 * receivers are partly pair owners that could take its 64-bit items
 * (ixc_sched_wide_ok()'s rules, per receiver) and partly not: the two
 * groups as two transfers of the same words in @out[0] (owners) and
 * @out[1], their receivers and destinations in @rb (2 * nrecv). The
 * sender pays both sends; the split is kept only if the phase shortens.
 */
static bool ixc_sched_owners(const struct ipuxcom_schedule_opts *opts,
			     const struct ipuxcom_schedule_xfer *x, uint32_t *rb,
			     struct ipuxcom_schedule_xfer *out)
{
	const struct ipuxcom_timing *tm = ixc_timing(opts ? opts->timing : NULL);
	bool logical = !(opts && (opts->flags & IPUXCOM_SCHEDULE_PHYSICAL));
	uint32_t *ro = rb, *rn = rb + x->nrecv, no = 0, nn = 0, s = 0;

	if ((x->count & 1) || (x->src_addr & 7) || !x->receivers || !x->dst_addr ||
	    ixc_tile_resolve(x->sender, logical, &s, NULL, ""))
		return false;
	for (uint32_t k = 0; k < x->nrecv; k++) {
		uint32_t d = 0, e;
		unsigned int dir = 0;
		int t = 0, t2 = 0;
		bool own = !(x->dst_addr[k] & 7);

		if (ixc_tile_resolve(x->receivers[k], logical, &d, NULL, ""))
			return false;
		e = d ^ 2;
		own = own && e != s && e < IPUXCOM_TILES &&
		      !ixc_timing_pair(tm, s, d, &t, &dir, NULL, "") &&
		      !ixc_timing_pair(tm, s, e, &t2, &dir, NULL, "") &&
		      ixc_wide_owner(s, d, t, t2) == d;
		for (uint32_t j = 0; own && j < x->nrecv; j++) {
			uint32_t o = 0;

			own = !ixc_tile_resolve(x->receivers[j], logical, &o, NULL, "") && o != e;
		}
		if (own)
			ro[no++] = k;
		else
			rn[nn++] = k;
	}
	if (!no || !nn)
		return false;
	/* Indices into the caller's arrays become the pieces' own arrays. */
	{
		uint32_t tmp[2][IPUXCOM_TILES];

		for (uint32_t k = 0; k < no; k++) {
			tmp[0][k] = x->receivers[ro[k]];
			tmp[1][k] = x->dst_addr[ro[k]];
		}
		for (uint32_t k = 0; k < nn; k++) {
			tmp[0][no + k] = x->receivers[rn[k]];
			tmp[1][no + k] = x->dst_addr[rn[k]];
		}
		memcpy(rb, tmp[0], x->nrecv * sizeof(*rb));
		memcpy(rb + x->nrecv, tmp[1], x->nrecv * sizeof(*rb));
	}
	out[0] = *x;
	out[0].nrecv = no;
	out[0].receivers = rb;
	out[0].dst_addr = rb + x->nrecv;
	out[1] = *x;
	out[1].nrecv = nn;
	out[1].receivers = rb + no;
	out[1].dst_addr = rb + x->nrecv + no;
	return true;
}

/*
 * Issue 25: the notes' receive window keeps a receiver's mux open, and
 * its sender silent, 2 * row events after a stream of 52 words or more
 * (ixc_pad()); streams of fewer words have exact windows in the notes'
 * rows too [S]. So a transfer of 52 words or more to a receiver above row
 * 0 may go as pieces of at most IXC_SCHED_PIECE words (consecutive words,
 * each piece its own send and windows: no extra window), at most
 * IXC_SCHED_PIECES_MAX pieces. The boundaries fall where the source is
 * 8-byte aligned, so every piece but the first keeps 64-bit routes open.
 */
#define IXC_SCHED_PIECE		50
#define IXC_SCHED_PIECES_MAX	6

static uint32_t ixc_sched_npieces(const struct ipuxcom_schedule_opts *opts,
				  const struct ipuxcom_schedule_xfer *x)
{
	bool logical = !(opts && (opts->flags & IPUXCOM_SCHEDULE_PHYSICAL));
	bool high = false;

	if ((opts && (opts->flags & IPUXCOM_SCHEDULE_EXACT_WINDOW)) || !x->receivers ||
	    !x->dst_addr || ixc_xsim_pad(x->count, 1) == 0 ||
	    x->count > IXC_SCHED_PIECE * IXC_SCHED_PIECES_MAX)
		return 1;
	for (uint32_t k = 0; k < x->nrecv && !high; k++) {
		uint32_t d = 0;

		if (ixc_tile_resolve(x->receivers[k], logical, &d, NULL, ""))
			return 1;
		high = ixc_phys_row(d) > 0;
	}
	return high ? (x->count + IXC_SCHED_PIECE - 1) / IXC_SCHED_PIECE : 1;
}

/* A split set (issue 25): the pieces of the caller's transfers. */
struct ixc_sexp {
	struct ipuxcom_schedule_xfer *ex;
	uint32_t *dst, *first, *rb, *pd;
	size_t m;
	uint8_t *owned;		/* per caller transfer: some piece took the owner split */
};

static void ixc_sexp_free(struct ixc_sexp *e)
{
	free(e->ex);
	free(e->dst);
	free(e->first);
	free(e->rb);
	free(e->pd);
	free(e->owned);
	memset(e, 0, sizeof(*e));
}

/*
 * The split set of @xfers into @e: pieces where @np says (per transfer),
 * p2p head/body/tail, and the owner split of each multicast (and of each
 * piece) whose @own is set (NULL: all). False when out of memory.
 */
static bool ixc_sched_expand(const struct ipuxcom_schedule_opts *opts,
			     const struct ipuxcom_schedule_xfer *xfers, size_t n,
			     const uint32_t *np, const uint8_t *own, struct ixc_sexp *e)
{
	struct ipuxcom_schedule_xfer *ex;
	uint32_t *dst, *first, *rb, *pd;
	size_t nex = 0, m = 0, nrb = 0, npd = 0, nrbcap = 0, npdcap = 0;

	memset(e, 0, sizeof(*e));
	for (size_t i = 0; i < n; i++) {
		/* head, body, tail; or head, two receiver groups, tail */
		nex += 4 * (size_t)np[i];
		nrbcap += 2 * (size_t)np[i] * xfers[i].nrecv;
		npdcap += (size_t)np[i] * xfers[i].nrecv * (np[i] > 1 ? 3 : 2);
	}
	e->ex = ex = malloc((nex ? nex : 1) * sizeof(*ex));
	e->dst = dst = malloc((nex ? nex : 1) * sizeof(*dst));	/* indexed like ex */
	e->first = first = malloc((n + 1) * sizeof(*first));
	e->rb = rb = malloc((nrbcap ? nrbcap : 1) * sizeof(*rb));
	e->pd = pd = malloc((npdcap ? npdcap : 1) * sizeof(*pd));
	e->owned = calloc(n ? n : 1, sizeof(*e->owned));
	if (!ex || !dst || !first || !rb || !pd || !e->owned) {
		ixc_sexp_free(e);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t off = 0;
		bool mayown = !own || own[i];

		first[i] = (uint32_t)m;
		for (uint32_t p = 0; p < np[i]; p++) {
			struct ipuxcom_schedule_xfer x = xfers[i];
			uint32_t a, src, c, body;

			if (np[i] > 1) {
				/* Even shares; later boundaries where the source is 8-byte aligned. */
				uint32_t rest = x.count - off, end = off + (rest + np[i] - p - 1) /
								   (np[i] - p);

				if (p + 1 < np[i] && ((x.src_addr + 4 * end) & 7))
					end++;
				x.count = end - off;
				x.src_addr += 4 * off;
				for (uint32_t k = 0; k < x.nrecv; k++)
					pd[npd + k] = xfers[i].dst_addr[k] + 4 * off;
				x.dst_addr = &pd[npd];
				npd += x.nrecv;
				off = end;
			}
			if (mayown && x.nrecv > 1 && ((x.count & 1) || (x.src_addr & 7)) &&
			    x.count >= 3) {
				/*
				 * A multicast with an odd count or a source 4 bytes
				 * off: a one-word head and/or tail to every receiver,
				 * the even aligned body split into owner groups.
				 */
				uint32_t h = (x.src_addr & 7) ? 1 : 0, hb = (x.count - h) & ~1u;
				struct ipuxcom_schedule_xfer y = x;

				y.count = hb;
				y.src_addr += 4 * h;
				for (uint32_t k = 0; k < x.nrecv; k++)
					pd[npd + k] = x.dst_addr[k] + 4 * h;
				y.dst_addr = &pd[npd];
				if (ixc_sched_owners(opts, &y, &rb[nrb], &ex[m + h])) {
					e->owned[i] = 1;
					npd += x.nrecv;
					nrb += 2 * x.nrecv;
					if (h) {
						ex[m] = x;
						ex[m].count = 1;
					}
					m += h + 2;
					if (x.count > h + hb) {
						for (uint32_t k = 0; k < x.nrecv; k++)
							pd[npd + k] = x.dst_addr[k] + 4 * (h + hb);
						ex[m] = x;
						ex[m].count = 1;
						ex[m].src_addr += 4 * (h + hb);
						ex[m].dst_addr = &pd[npd];
						npd += x.nrecv;
						m++;
					}
					continue;
				}
			}
			if (mayown && x.nrecv > 1 && ixc_sched_owners(opts, &x, &rb[nrb], &ex[m])) {
				/* A multicast: its pair owners (64-bit) and the others, two sends. */
				e->owned[i] = 1;
				nrb += 2 * x.nrecv;
				m += 2;
				continue;
			}
			if (!ixc_sched_splittable(&x)) {
				ex[m++] = x;
				continue;
			}
			a = x.dst_addr[0];
			src = x.src_addr;
			c = x.count;
			if (a & 7) {
				dst[m] = a;
				ex[m] = x;
				ex[m].count = 1;
				ex[m].dst_addr = &dst[m];
				m++;
				a += 4;
				src += 4;
				c--;
			}
			body = c & ~1u;
			dst[m] = a;
			ex[m] = x;
			ex[m].count = body;
			ex[m].src_addr = src;
			ex[m].dst_addr = &dst[m];
			m++;
			if (c > body) {
				dst[m] = a + 4 * body;
				ex[m] = x;
				ex[m].count = 1;
				ex[m].src_addr = src + 4 * body;
				ex[m].dst_addr = &dst[m];
				m++;
			}
		}
	}
	first[n] = (uint32_t)m;
	e->m = m;
	return true;
}

/*
 * Schedule the split set (its orders included) and keep it in *@best when
 * its phase is shorter. Then choose the owner split per multicast
 * (issue 25: one split for all of a set's multicasts left tiles whose
 * senders' ports the owner groups crowd): in the caller's order, each
 * multicast that took it goes whole (its head/tail words and pieces
 * stay) in the split set, scheduled the same way, and the choice is
 * kept only if that set's phase gets strictly shorter; *@best takes any
 * phase shorter than its own. One pass, a trial and its orders per
 * multicast: issue 34, each a trial of one context holding the pieces of
 * both splits, so the pass places again only what follows the multicast
 * it changes and stops a trial at the phase it must beat. False only
 * when @pieces cuts no transfer (the set without pieces is the caller's
 * to try) or out of memory for the counts.
 */
/*
 * The pieces of the split set whose caller transfers @own says take the
 * owner split (@a: every one that can, @b: none) into @st's map and
 * @xf, as ixc_sched_expand() with @own would cut them; @b's entries
 * follow @a's in the pool.
 */
static void ixc_sched_gather(const struct ixc_sexp *a, const struct ixc_sexp *b,
			     const uint8_t *own, size_t n, struct ipuxcom_schedule_xfer *xf,
			     uint32_t *map, size_t *m)
{
	*m = 0;
	for (size_t j = 0; j < n; j++) {
		const struct ixc_sexp *e = own[j] || !a->owned[j] ? a : b;
		uint32_t base = e == a ? 0 : (uint32_t)a->m;

		for (uint32_t k = e->first[j]; k < e->first[j + 1]; k++) {
			xf[*m] = e->ex[k];
			map[(*m)++] = base + k;
		}
	}
}

/*
 * Issue 34: sets of at most this many pieces search the orders of every
 * multicast's trial in the owner pass (issue 25's pass, a few
 * microseconds per trial there); larger ones take the incremental pass.
 */
#define IXC_SCHED_OWNER_FULL_MAX	48

static bool ixc_sched_split(const struct ipuxcom_schedule_opts *opts,
			    const struct ipuxcom_schedule_xfer *xfers, size_t n,
			    struct ipuxcom_schedule **best, bool pieces, size_t *budget)
{
	bool logical = !(opts && (opts->flags & IPUXCOM_SCHEDULE_PHYSICAL));
	struct ixc_sexp e = { 0 }, f = { 0 }, g = { 0 };
	struct ipuxcom_schedule_xfer *pool = NULL, *xf = NULL;
	struct ipuxcom_schedule *s = NULL;
	struct ixc_sctx c = { 0 };
	struct ixc_sset st = { 0 };
	uint32_t *np = NULL, *map = NULL, *kept = NULL, cur, won = UINT32_MAX;
	uint32_t *pseq = NULL, *tseq = NULL, *inv = NULL;
	uint8_t *own = NULL, *kept_own = NULL;
	bool cut = false, any = false, changed = false;
	size_t mp, m, plen;

	if (!*budget)
		return true;	/* no trial could place an entry, with pieces or without */
	np = malloc((n ? n : 1) * sizeof(*np));
	own = calloc(n ? n : 1, sizeof(*own));
	kept_own = calloc(n ? n : 1, sizeof(*kept_own));
	if (!np || !own || !kept_own)
		goto out;
	for (size_t i = 0; i < n; i++) {
		np[i] = pieces ? ixc_sched_npieces(opts, &xfers[i]) : 1;
		cut |= np[i] > 1;
	}
	if (pieces && !cut) {
		free(np);
		free(own);
		free(kept_own);
		return false;	/* nothing to cut: the same set as without pieces */
	}
	if (!ixc_sched_expand(opts, xfers, n, np, NULL, &e) || e.m == n)
		goto out;
	for (size_t i = 0; i < n; i++)
		any |= e.owned[i];
	/* The pool: the set's pieces, then those of no owner split (own is all 0 here). */
	if (any && !ixc_sched_expand(opts, xfers, n, np, own, &f))
		goto out;
	mp = e.m + f.m;
	pool = malloc(mp * sizeof(*pool));
	xf = malloc(mp * sizeof(*xf));
	map = malloc(mp * sizeof(*map));
	kept = malloc(mp * sizeof(*kept));
	pseq = malloc(3 * mp * sizeof(*pseq));
	tseq = pseq + mp;
	inv = tseq + mp;
	if (!pool || !xf || !map || !kept || !pseq || !ixc_sset_alloc(&st, mp))
		goto out;
	memcpy(pool, e.ex, e.m * sizeof(*pool));
	if (f.m)
		memcpy(pool + e.m, f.ex, f.m * sizeof(*pool));
	if (!ixc_sctx_init(&c, opts, pool, mp, budget))
		goto out;
	memcpy(own, e.owned, n);
	ixc_sched_gather(&e, &f, own, n, xf, map, &m);
	st.xf = xf;
	st.map = map;
	st.n = m;
	for (size_t k = 0; k < m; k++)
		st.order[k] = (uint32_t)k;
	/* The orders cost a trial each: only where one is cheap (time budget, issue 25). */
	ixc_sset_search(&c, &st, logical, m <= IXC_SCHED_SPLIT_ORDERS_MAX);
	if (st.phase == UINT32_MAX)
		goto out;
	cur = st.phase;
	if (cur < (*best)->events) {
		won = cur;
		memcpy(kept, st.order, m * sizeof(*kept));
		memcpy(kept_own, own, n);
		ixc_sctx_keep(&c);
	}
	if (!any)
		goto keep;
	if (m <= IXC_SCHED_OWNER_FULL_MAX) {
		/* A small set: each multicast's trial with its own orders. */
		for (size_t i = 0; i < n; i++) {
			if (!own[i])
				continue;
			own[i] = 0;
			ixc_sched_gather(&e, &f, own, n, xf, map, &m);
			st.n = m;
			st.phase = UINT32_MAX;
			for (size_t k = 0; k < m; k++)
				st.order[k] = (uint32_t)k;
			ixc_sset_search(&c, &st, logical, true);
			if (st.phase >= cur) {
				own[i] = 1;
				continue;
			}
			cur = st.phase;
			if (cur < won && cur < (*best)->events) {
				won = cur;
				memcpy(kept, st.order, m * sizeof(*kept));
				memcpy(kept_own, own, n);
				ixc_sctx_keep(&c);
			}
		}
		goto keep;
	}
	/*
	 * Issue 34: in a larger set, each multicast's trial is the order in
	 * hand with its owner groups' pieces replaced, where its first one
	 * stood, by its pieces without the split: the entries before it stay
	 * placed. The orders are searched again once, for the split chosen.
	 */
	for (size_t k = 0; k < m; k++)
		pseq[k] = map[st.order[k]];
	plen = m;
	for (size_t i = 0; i < n; i++) {
		size_t q = 0;
		bool put = false;
		uint32_t p;

		if (!own[i])
			continue;
		for (size_t k = 0; k < plen; k++) {
			if (pseq[k] < e.first[i] || pseq[k] >= e.first[i + 1]) {
				tseq[q++] = pseq[k];
				continue;
			}
			for (uint32_t b = f.first[i]; !put && b < f.first[i + 1]; b++)
				tseq[q++] = (uint32_t)e.m + b;
			put = true;
		}
		p = ixc_sctx_eval(&c, tseq, q, cur);
		if (p == UINT32_MAX)
			continue;
		own[i] = 0;
		changed = true;
		cur = p;
		memcpy(pseq, tseq, q * sizeof(*tseq));
		plen = q;
	}
	if (!changed)
		goto keep;
	/* The split chosen, in the order in hand (set indices), then its other orders. */
	ixc_sched_gather(&e, &f, own, n, xf, map, &m);
	for (size_t k = 0; k < m; k++)
		inv[map[k]] = (uint32_t)k;
	for (size_t k = 0; k < m; k++)
		st.order[k] = inv[pseq[k]];
	st.n = m;
	st.phase = UINT32_MAX;
	ixc_sset_search(&c, &st, logical, m <= IXC_SCHED_SPLIT_ORDERS_MAX);
	if (st.phase < won && st.phase < (*best)->events) {
		won = st.phase;
		memcpy(kept, st.order, m * sizeof(*kept));
		memcpy(kept_own, own, n);
		ixc_sctx_keep(&c);
	}
keep:
	/*
	 * The best trial built in full: the same placements, so the same
	 * phase. Its pieces are the pool entries the gather of kept_own maps
	 * them to.
	 */
	if (won != UINT32_MAX)
		ixc_sched_gather(&e, &f, kept_own, n, xf, map, &m);
	if (won != UINT32_MAX && ixc_sched_expand(opts, xfers, n, np, kept_own, &g) &&
	    (g.m == m ? !ixc_schedule_rebuild(opts, g.ex, g.m, kept, &c, &c.kept, map, &s) ||
			!ixc_schedule_build(opts, g.ex, g.m, kept, false, &s, NULL) :
			!ixc_schedule_build(opts, g.ex, g.m, kept, false, &s, NULL)) &&
	    s->events < (*best)->events) {
		s->ufirst = g.first;
		s->nuser = n;
		g.first = NULL;
		ipuxcom_schedule_free(*best);
		*best = s;
		s = NULL;
	}
out:
	ipuxcom_schedule_free(s);
	ixc_sctx_free(&c);
	ixc_sset_free(&st);
	ixc_sexp_free(&e);
	ixc_sexp_free(&f);
	ixc_sexp_free(&g);
	free(pool);
	free(xf);
	free(map);
	free(kept);
	free(pseq);
	free(np);
	free(own);
	free(kept_own);
	return true;
}

/*
 * Issue 34: does the split pass place @xfers[0..n) as pieces in orders of
 * its own? True for a set of point-to-point transfers of which some are
 * cut into pieces (ixc_sched_npieces()) and whose split set is small
 * enough for its orders to be searched (IXC_SCHED_SPLIT_ORDERS_MAX).
 * Then ixc_sched_reorder() is not run: the split pass searches the same
 * orders of ixc_sched_order(), and the moves, over the pieces, and on
 * bench/sched_suite.h the reorder of the whole transfers made no such
 * set's phase shorter (its 100 point-to-point and 12 large sets gave the
 * same 253 phases without it) while it took a fifth of their build time
 * (docs/exchange-verifier.md, "Fewer passes over point-to-point sets").
 * A set with a multicast keeps it: its split pass searches owner splits
 * too, and measured without the reorder one such set came out longer.
 */
static bool ixc_sched_split_orders(const struct ipuxcom_schedule_opts *opts,
				   const struct ipuxcom_schedule_xfer *xfers, size_t n)
{
	struct ixc_sexp e;
	uint32_t *np;
	bool cut = false, ordered = false;

	for (size_t i = 0; i < n; i++)
		if (xfers[i].nrecv != 1)
			return false;
	np = malloc((n ? n : 1) * sizeof(*np));
	if (!np)
		return false;
	for (size_t i = 0; i < n; i++) {
		np[i] = ixc_sched_npieces(opts, &xfers[i]);
		cut |= np[i] > 1;
	}
	if (cut && ixc_sched_expand(opts, xfers, n, np, NULL, &e)) {
		ordered = e.m <= IXC_SCHED_SPLIT_ORDERS_MAX;
		ixc_sexp_free(&e);
	}
	free(np);
	return ordered;
}

/*
 * Issue 34: where the reorder did not run (ixc_sched_split_orders()),
 * the caller's whole transfers placed once in the order the split
 * schedule *@best starts them (by each one's first piece), kept when no
 * longer: at equal phases the whole transfers win, as the reorder's
 * schedule did over the split one (fewer sends, each transfer's own
 * route).
 */
static void ixc_sched_unsplit(const struct ipuxcom_schedule_opts *opts,
			      const struct ipuxcom_schedule_xfer *xfers, size_t n,
			      struct ipuxcom_schedule **best)
{
	const struct ipuxcom_schedule *s = *best;
	struct ipuxcom_schedule *u = NULL;
	uint32_t *order;

	if (!s->ufirst || s->nuser != n || n < 2)
		return;
	order = malloc(n * sizeof(*order));
	if (!order)
		return;
	/* by first start, ties in the caller's order (insertion: n <= IXC_SCHED_SPLIT_ORDERS_MAX) */
	for (size_t i = 0; i < n; i++) {
		int32_t st = s->x[s->ufirst[i]].start;
		size_t j = i;

		while (j > 0 && s->x[s->ufirst[order[j - 1]]].start > st) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = (uint32_t)i;
	}
	if (!ixc_schedule_build(opts, xfers, n, order, false, &u, NULL) &&
	    u->events <= s->events) {
		ipuxcom_schedule_free(*best);
		*best = u;
		u = NULL;
	}
	ipuxcom_schedule_free(u);
	free(order);
}

/*
 * Issue 34: a multicast's sender may send the same words again, at
 * another time, for another group of its receivers (the verifier takes a
 * word from whichever send its tile selects), and one send to every
 * receiver waits for the latest of them: a crowded receiver holds back
 * the others. bench/sched_split_bench found receiver splits removing
 * about half the multicast family's gap to the bound. So, on the schedule
 * the passes kept, two stages, each a share of the build's budget:
 *  - trials: its pieces placed again in the order of their starts, then
 *    each piece with two or more receivers, latest first, tries its
 *    halvings (IXC_SCHED_RSPLIT_WAYS) as two pieces where it stood, the
 *    entries before it staying placed and the ones after placed again
 *    (also with the second half sent after every other piece); each
 *    trial is cut at the phase in hand and by the tiles' bounds
 *    (ixc_sctx_eval()), and the shortest halving is kept when the phase
 *    shortens;
 *  - rip-up (ixc_rsplit_rip()): with every piece where the trials left
 *    it, a piece that ends the phase is taken out and each halving placed
 *    into the room the others leave; the shortest is kept when that piece
 *    then ends earlier. Nothing else moves, so a try costs two placements
 *    instead of the rest of the order (on 64 multicasts to 587 receivers
 *    the trials' cost grows with the square of the pieces, the rip-up's
 *    does not).
 * The result is kept only when shorter than the schedule in hand.
 * Halvings: receivers alternating; the nearer half by TimeToMux and the
 * farther; the first half and the second in the piece's order; four
 * fixed shuffles; and three by where each receiver could take the words
 * alone with the other pieces where they are (ixc_rsplit_free()): split
 * at the widest gap between those starts, the latest receiver alone, and
 * the earlier half and the later.
 */
#define IXC_SCHED_RSPLIT_WAYS		10
#define IXC_SCHED_RSPLIT_SHUFFLES	4	/* ways 3..6 */
#define IXC_SCHED_RSPLIT_LATE		2	/* each way also with its second half last */
/* The rip-up's share of what the pass has, in percent (the trials take the rest first). */
#define IXC_SCHED_RSPLIT_RIP_SHARE	30

/* The pass's scratch. */
struct ixc_rsplit {
	const struct ipuxcom_schedule *s;	/* the schedule in hand */
	uint32_t *hb;		/* per piece of s with two or more receivers: its first halving's pool entry */
	int32_t *free_at;	/* per receiver of one piece: ixc_rsplit_free() */
	int32_t *pic;		/* per receiver of one piece: its PIC events, to put it back */
	uint8_t *tried;		/* per piece of s: ripped up already */
	/*
	 * Per piece of s with two or more receivers and per way: 1 where an
	 * earlier way gave the same two groups in the same order. Its
	 * placements, and so its phase, are the earlier way's (the order of
	 * receivers within a group changes no placement), so it is not tried
	 * again (issue 34: a piece of two receivers has two distinct ways of
	 * its ten, of three at most six).
	 */
	uint8_t *dup;
};

/*
 * Mark in @r->dup the ways of piece @k (pool entries @pool[@hb + 2w],
 * @pool[@hb + 2w + 1]) whose first group holds the same receivers as an
 * earlier way's; @mark (IPUXCOM_TILES) is scratch, @stamp its last value.
 */
static void ixc_rsplit_dups(struct ixc_rsplit *r, uint32_t k,
			    const struct ipuxcom_schedule_xfer *pool, uint32_t hb, uint32_t *mark,
			    uint32_t *stamp)
{
	uint8_t *dup = &r->dup[(size_t)k * IXC_SCHED_RSPLIT_WAYS];

	for (int w = 0; w < IXC_SCHED_RSPLIT_WAYS; w++) {
		const struct ipuxcom_schedule_xfer *a = &pool[hb + 2 * (uint32_t)w];

		dup[w] = 0;
		for (int v = 0; v < w && !dup[w]; v++) {
			const struct ipuxcom_schedule_xfer *b = &pool[hb + 2 * (uint32_t)v];
			uint32_t j = 0;

			if (dup[v] || b->nrecv != a->nrecv)
				continue;
			++*stamp;
			for (uint32_t i = 0; i < b->nrecv; i++)
				mark[b->receivers[i]] = *stamp;
			while (j < a->nrecv && mark[a->receivers[j]] == *stamp)
				j++;
			dup[w] = j == a->nrecv;
		}
	}
}

/*
 * The earliest start of piece @k of @s at which its receiver @i could
 * take its words alone, the other pieces where @s has them (their
 * windows only: a guide for grouping, not a placement).
 */
static int32_t ixc_rsplit_free(const struct ipuxcom_schedule *s, uint32_t k, uint32_t i)
{
	const struct ixc_sx *x = &s->x[k];
	const struct ixc_stile *t = ixc_tile(s, x->recv[i]);
	int32_t len = (int32_t)x->count + ixc_pad(s, x->count, x->recv[i]);
	int32_t at = ixc_first_start(x) + x->t[i];

	for (size_t j = 0; j < t->nwin; j++) {
		const struct ixc_swin *w = &t->win[j];

		if (w->xfer == k || w->c <= at)
			continue;
		if (w->a >= at + len)
			break;
		at = w->c;
	}
	return at - x->t[i];
}

/* Insertion sort of receiver indices @ix[0..n) by @key (a multicast has few receivers). */
static void ixc_rsplit_sort(uint32_t *ix, uint32_t n, const int32_t *key)
{
	for (uint32_t j = 1; j < n; j++) {
		uint32_t v = ix[j], q = j;

		while (q && key[ix[q - 1]] > key[v]) {
			ix[q] = ix[q - 1];
			q--;
		}
		ix[q] = v;
	}
}

/*
 * Receiver index lists of way @w for piece @k of r->s into @ix (first
 * group, then second); the first group's size.
 */
static uint32_t ixc_rsplit_way(struct ixc_rsplit *r, uint32_t k, int w, uint32_t *ix)
{
	const struct ixc_sx *x = &r->s->x[k];
	uint32_t n = x->nrecv, h = n / 2, q = 0;
	int32_t gap = -1;

	if (w == 0) {
		for (uint32_t j = 0; j < n; j += 2)
			ix[q++] = j;
		for (uint32_t j = 1; j < n; j += 2)
			ix[q++] = j;
		return (n + 1) / 2;
	}
	for (uint32_t j = 0; j < n; j++)
		ix[j] = j;
	if (w == 1) {
		ixc_rsplit_sort(ix, n, x->t);
	} else if (w >= 3 && w < 3 + IXC_SCHED_RSPLIT_SHUFFLES) {
		/* xorshift32 with fixed seeds: the same schedule every build */
		uint32_t st = 0x9e3779b9u * (uint32_t)w ^ n;

		for (uint32_t j = n - 1; j > 0; j--) {
			uint32_t v, p;

			st ^= st << 13;
			st ^= st >> 17;
			st ^= st << 5;
			p = st % (j + 1);
			v = ix[j];
			ix[j] = ix[p];
			ix[p] = v;
		}
	} else if (w >= 3 + IXC_SCHED_RSPLIT_SHUFFLES) {
		int v = w - (3 + IXC_SCHED_RSPLIT_SHUFFLES);

		for (uint32_t j = 0; j < n; j++)
			r->free_at[j] = ixc_rsplit_free(r->s, k, j);
		ixc_rsplit_sort(ix, n, r->free_at);
		if (v == 1)
			return n - 1;
		if (v == 2)
			return h;
		for (uint32_t j = 1; j < n; j++) {
			if (r->free_at[ix[j]] - r->free_at[ix[j - 1]] > gap) {
				gap = r->free_at[ix[j]] - r->free_at[ix[j - 1]];
				h = j;
			}
		}
	}
	return h;
}

/* The phase of the pool entries @in[0..n) as placed. */
static uint32_t ixc_rsplit_phase(const struct ipuxcom_schedule *s, const uint32_t *in, size_t n)
{
	uint32_t p = 0;

	for (size_t k = 0; k < n; k++) {
		uint32_t q = ixc_placed_phase(s, in[k]);

		p = q > p ? q : p;
	}
	return p;
}

/*
 * The rip-up stage: @in[0..*@len) placed in @c; a piece of r->s that
 * ends the phase is taken out and its halvings tried in the room left,
 * the best kept (its two halves join @in) when it then ends earlier, and
 * so on while the budget lasts. The phase; UINT32_MAX if a piece could
 * not be put back (out of memory).
 */
static uint32_t ixc_rsplit_rip(struct ixc_rsplit *r, struct ixc_sctx *c, uint32_t *in,
			       size_t *len)
{
	size_t n = *len;
	uint32_t cur = ixc_rsplit_phase(c->s, in, n);

	memset(r->tried, 0, r->s->n);
	c->w0 = c->s->work;
	for (;;) {
		size_t at = n;
		uint32_t best = UINT32_MAX, bw = 0, e;
		struct ixc_sx *x;
		int32_t start;
		bool wide;

		for (size_t k = 0; k < n && at == n; k++)
			if (in[k] < r->s->n && r->s->x[in[k]].nrecv > 1 && !r->tried[in[k]] &&
			    ixc_placed_phase(c->s, in[k]) == cur)
				at = k;
		if (at == n || !ixc_sctx_charge(c))
			break;
		e = in[at];
		x = &c->s->x[e];
		r->tried[e] = 1;
		start = x->start;
		wide = x->wide;
		memcpy(r->pic, x->pic, x->nrecv * sizeof(*x->pic));
		ixc_unplace(c->s, e);
		for (int w = 0; w < IXC_SCHED_RSPLIT_WAYS && ixc_sctx_charge(c); w++) {
			uint32_t a = r->hb[e] + 2 * (uint32_t)w, p;
			int ret;

			if (r->dup[(size_t)e * IXC_SCHED_RSPLIT_WAYS + (size_t)w])
				continue;
			ret = ixc_place(c->s, a, NULL);

			/* out of memory may leave a part placed: the caller drops it all */
			if (ret == -ENOMEM)
				return UINT32_MAX;
			if (ret)
				continue;
			ret = ixc_place(c->s, a + 1, NULL);
			if (ret == -ENOMEM)
				return UINT32_MAX;
			if (ret) {
				ixc_unplace(c->s, a);
				continue;
			}
			p = ixc_placed_phase(c->s, a);
			if (ixc_placed_phase(c->s, a + 1) > p)
				p = ixc_placed_phase(c->s, a + 1);
			if (p < best) {
				best = p;
				bw = a;
			}
			ixc_unplace(c->s, a + 1);
			ixc_unplace(c->s, a);
		}
		/* the same state, so the same placements as in the try */
		if (best < cur) {
			int ret = ixc_place(c->s, bw, NULL);

			if (!ret)
				ret = ixc_place(c->s, bw + 1, NULL);
			if (ret)
				return UINT32_MAX;	/* out of memory: no other cause here */
			in[at] = bw;
			in[n++] = bw + 1;
			cur = ixc_rsplit_phase(c->s, in, n);
			continue;
		}
		if (ixc_put(c->s, e, start, wide, r->pic))
			return UINT32_MAX;
	}
	*len = n;
	return cur;
}

static void ixc_sched_rsplit(const struct ipuxcom_schedule_opts *opts,
			     struct ipuxcom_schedule **best, size_t *budget)
{
	const struct ipuxcom_schedule *s = *best;
	struct ipuxcom_schedule_opts po = *opts;
	struct ipuxcom_schedule_xfer *pool = NULL, *g = NULL;
	struct ipuxcom_schedule *ns = NULL;
	struct ixc_sctx c = { 0 };
	struct ixc_rsplit r = { .s = s };
	uint32_t *user = NULL, *ids = NULL, *seq = NULL, *tseq = NULL, *bseq = NULL;
	uint32_t *order = NULL, *map = NULL, *ufirst = NULL, *ix = NULL, *fin = NULL;
	uint32_t *cand, *mark = NULL, stamp = 0;
	size_t m = s->n, nm = 0, nids = 0, mp, len = m, nuser = s->ufirst ? s->nuser : s->n;
	size_t hold, k, q;
	uint32_t cur, maxr = 0;

	for (k = 0; k < m; k++) {
		if (s->x[k].nrecv > 1) {
			nm++;
			nids += s->x[k].nrecv;
		}
		maxr = s->x[k].nrecv > maxr ? s->x[k].nrecv : maxr;
	}
	if (!nm || (s->flags & IPUXCOM_SCHEDULE_LEGACY) || !*budget)
		return;
	po.flags = (po.flags & ~IPUXCOM_SCHEDULE_LOGICAL) | IPUXCOM_SCHEDULE_PHYSICAL;
	mp = m + 2 * IXC_SCHED_RSPLIT_WAYS * nm;
	pool = malloc(mp * sizeof(*pool));
	g = malloc(mp * sizeof(*g));
	user = malloc(mp * sizeof(*user));
	ids = malloc(2 * IXC_SCHED_RSPLIT_WAYS * nids * sizeof(*ids) + 1);
	seq = malloc(7 * mp * sizeof(*seq));
	r.hb = malloc(m * sizeof(*r.hb));
	r.free_at = malloc(maxr * sizeof(*r.free_at));
	r.pic = malloc(maxr * sizeof(*r.pic));
	r.tried = malloc(m);
	r.dup = malloc(m * IXC_SCHED_RSPLIT_WAYS);
	mark = calloc(IPUXCOM_TILES, sizeof(*mark));
	ufirst = malloc((nuser + 1) * sizeof(*ufirst));
	ix = malloc(maxr * sizeof(*ix));
	if (!pool || !g || !user || !ids || !seq || !ufirst || !ix || !r.hb || !r.free_at ||
	    !r.pic || !r.tried || !r.dup || !mark)
		goto out;
	tseq = seq + mp;
	bseq = tseq + mp;
	order = bseq + mp;
	map = order + mp;
	fin = map + mp;
	cand = fin + mp;
	/* The pieces in hand, then per multicast piece its halvings (pairs of entries). */
	for (k = 0; k < nuser; k++)
		for (size_t j = s->ufirst ? s->ufirst[k] : k; j < (s->ufirst ? s->ufirst[k + 1] : k + 1); j++)
			user[j] = (uint32_t)k;
	for (k = 0; k < m; k++) {
		const struct ixc_sx *x = &s->x[k];

		pool[k] = (struct ipuxcom_schedule_xfer){
			.sender = x->sender, .count = x->count, .nrecv = x->nrecv,
			.receivers = x->recv, .src_addr = x->src, .dst_addr = x->dst,
		};
	}
	for (k = 0, q = m, nids = 0; k < m; k++) {
		const struct ixc_sx *x = &s->x[k];

		if (x->nrecv < 2)
			continue;
		r.hb[k] = (uint32_t)q;
		for (int w = 0; w < IXC_SCHED_RSPLIT_WAYS; w++) {
			uint32_t h = ixc_rsplit_way(&r, (uint32_t)k, w, ix);
			uint32_t *rv = &ids[nids], *d = rv + x->nrecv;

			for (uint32_t j = 0; j < x->nrecv; j++) {
				rv[j] = x->recv[ix[j]];
				d[j] = x->dst[ix[j]];
			}
			nids += 2 * x->nrecv;
			pool[q] = pool[k];
			pool[q].nrecv = h;
			pool[q].receivers = rv;
			pool[q].dst_addr = d;
			pool[q + 1] = pool[q];
			pool[q + 1].nrecv = x->nrecv - h;
			pool[q + 1].receivers = rv + h;
			pool[q + 1].dst_addr = d + h;
			user[q] = user[q + 1] = user[k];
			q += 2;
		}
		ixc_rsplit_dups(&r, (uint32_t)k, pool, r.hb[k], mark, &stamp);
	}
	/* The trials take what the rip-up leaves them first. */
	hold = *budget / 100 * IXC_SCHED_RSPLIT_RIP_SHARE;
	*budget -= hold;
	if (!ixc_sctx_init(&c, &po, pool, mp, budget)) {
		*budget += hold;
		goto out;
	}
	/* The pieces in the order of their starts (ties: index). */
	for (k = 0; k < m; k++) {
		uint32_t v = (uint32_t)k;

		q = k;
		while (q && (s->x[seq[q - 1]].start > s->x[v].start))
			seq[q] = seq[q - 1], q--;
		seq[q] = v;
	}
	memcpy(cand, seq, m * sizeof(*seq));
	cur = ixc_sctx_eval(&c, seq, m, UINT32_MAX);
	if (cur != UINT32_MAX)
		ixc_ssnap_take(&c.kept, c.s, seq, len);
	for (size_t ci = m; cur != UINT32_MAX && ci-- > 0 && *budget;) {
		size_t at = 0, best_len = 0;
		uint32_t won = cur;

		k = cand[ci];
		if (s->x[k].nrecv < 2)
			continue;
		while (at < len && seq[at] != k)
			at++;
		if (at == len)
			continue;	/* split already */
		for (int w = 0; w < IXC_SCHED_RSPLIT_WAYS * IXC_SCHED_RSPLIT_LATE; w++) {
			uint32_t p, e = r.hb[k] + 2 * (uint32_t)(w % IXC_SCHED_RSPLIT_WAYS);

			if (r.dup[k * IXC_SCHED_RSPLIT_WAYS + (size_t)(w % IXC_SCHED_RSPLIT_WAYS)])
				continue;
			memcpy(tseq, seq, at * sizeof(*seq));
			tseq[at] = e;
			if (w < IXC_SCHED_RSPLIT_WAYS) {
				tseq[at + 1] = e + 1;
				memcpy(tseq + at + 2, seq + at + 1, (len - at - 1) * sizeof(*seq));
			} else {
				/* the second group sent after every other piece */
				memcpy(tseq + at + 1, seq + at + 1, (len - at - 1) * sizeof(*seq));
				tseq[len] = e + 1;
			}
			p = ixc_sctx_eval(&c, tseq, len + 1, won);
			if (p == UINT32_MAX)
				continue;
			won = p;
			best_len = len + 1;
			memcpy(bseq, tseq, best_len * sizeof(*seq));
			ixc_ssnap_take(&c.kept, c.s, tseq, best_len);
		}
		if (!best_len)
			continue;
		cur = won;
		len = best_len;
		memcpy(seq, bseq, len * sizeof(*seq));
	}
	*budget += hold;
	if (cur == UINT32_MAX)
		goto out;
	/* The kept trial where it was placed, then the rip-up from there. */
	while (c.nseq)
		ixc_unplace(c.s, c.seq[--c.nseq]);
	for (k = 0; k < len; k++) {
		const struct ixc_sx *x = &c.s->x[seq[k]];

		if (ixc_put(c.s, seq[k], c.kept.start[seq[k]], c.kept.wide[seq[k]],
			    c.kept.ints + (x->pic - c.s->ints)))
			goto out;
	}
	cur = ixc_rsplit_rip(&r, &c, seq, &len);
	if (cur == UINT32_MAX || cur >= s->events)
		goto out;
	ixc_ssnap_take(&c.kept, c.s, seq, len);
	/*
	 * The kept pieces grouped by caller transfer (ufirst): each piece in
	 * hand, or the halves that replaced it.
	 */
	for (k = 0; k < mp; k++)
		fin[k] = UINT32_MAX;
	for (k = 0; k < len; k++)
		fin[seq[k]] = 0;
	for (k = 0, q = 0; k < m; k++) {
		size_t u = user[k];

		if (!s->ufirst || s->ufirst[u] == k)
			ufirst[u] = (uint32_t)q;
		for (size_t w = 0; w <= 2 * IXC_SCHED_RSPLIT_WAYS; w++) {
			size_t j = w ? r.hb[k] + w - 1 : k;

			if (w && s->x[k].nrecv < 2)
				break;
			if (fin[j] == UINT32_MAX)
				continue;
			fin[j] = (uint32_t)q;
			g[q] = pool[j];
			map[q++] = (uint32_t)j;
		}
	}
	ufirst[nuser] = (uint32_t)q;
	for (k = 0; k < len; k++)
		order[k] = fin[seq[k]];
	if (ixc_schedule_rebuild(&po, g, len, order, &c, &c.kept, map, &ns) || !ns ||
	    ns->events >= s->events) {
		ipuxcom_schedule_free(ns);
		goto out;
	}
	ns->ufirst = ufirst;
	ns->nuser = nuser;
	ufirst = NULL;
	ipuxcom_schedule_free(*best);
	*best = ns;
out:
	/* what the rip-up placed by hand is not in c.seq: ixc_sctx_free() takes all */
	ixc_sctx_free(&c);
	free(pool);
	free(g);
	free(user);
	free(ids);
	free(seq);
	free(ufirst);
	free(ix);
	free(r.hb);
	free(r.free_at);
	free(r.pic);
	free(r.tried);
	free(r.dup);
	free(mark);
}

/*
 * The default scheduler never returns a phase longer than today's packing
 * (issue 16): when it placed a 64-bit route or merged a control into a
 * send, or found no room, the legacy packing of the same transfers is
 * built too and the shorter phase kept (ties: the default's).
 */
/*
 * The legacy packing kept in place of the default's (shorter, or the only
 * one that fitted): its slots say why they are 32-bit.
 */
static void ixc_sched_why_phase(struct ipuxcom_schedule *s)
{
	for (size_t i = 0; i < s->n; i++)
		s->slots[i].wide = IPUXCOM_WIDE_PHASE;
}

/* The caller's options (not NULL) into @copy: E_SIZE "opts.size". */
static int ixc_sched_opts_in(const struct ipuxcom_schedule_opts *opts,
			     struct ipuxcom_schedule_opts *copy, struct ipuxcom_plan_error *err)
{
	int ret = ixc_sized_in(copy, sizeof(*copy), opts, IPUXCOM_SCHEDULE_OPTS_SIZE_MIN,
			       "opts.size", "IPUXCOM_SCHEDULE_OPTS_INIT", err);

	copy->size = sizeof(*copy);
	return ret;
}

/*
 * Issue 34: the search work (the schedule's work count, charged by
 * ixc_sctx_charge()) all the passes' trials of one build may do, so that
 * a build's cost is bounded however the passes would branch:
 * IXC_SCHED_BUDGET_PER per transfer and per receiver, at least
 * IXC_SCHED_BUDGET_MIN. A pass out of budget keeps what it found; the
 * receiver-split pass has IXC_SCHED_RSPLIT_SHARE percent set aside, and
 * what the others leave. It counts work, not placements: a multicast's
 * placement checks each receiver at each start it tries, so placements
 * cost very different amounts (callgrind: about 9000 instructions each
 * on the 64-multicast sets of bench/sched_scale.h, whose builds a budget
 * of 3072 placements let run to 35 M instructions). The figures were
 * chosen on bench/sched_suite.h (docs/exchange-verifier.md, "A budget
 * of work, and a rip-up stage"): with them no suite set's phase is
 * longer than issue 25's (bench/sched_suite_phases.txt), which a minimum
 * of 98304 broke for 3 multicast sets, or a share of 35 for 2.
 * A caller's opts.effort replaces the fixed budget by effort times the
 * work of the build's first placement: the search then costs in
 * proportion to what placing this set costs (sched_bench's effort table).
 */
#define IXC_SCHED_BUDGET_MIN		131072
#define IXC_SCHED_BUDGET_PER		64
#define IXC_SCHED_RSPLIT_SHARE		20

/*
 * The budget of a build of @xfers[0..n) with search effort @effort
 * (opts.effort), whose first placement did @first units of work.
 */
static size_t ixc_sched_budget(const struct ipuxcom_schedule_xfer *xfers, size_t n,
			       uint32_t effort, size_t first)
{
	size_t u = n;

	if (effort) {
		first = first ? first : 1;
		return first > SIZE_MAX / effort ? SIZE_MAX : first * effort;
	}

	for (size_t i = 0; i < n; i++)
		u += xfers[i].nrecv;
	u *= IXC_SCHED_BUDGET_PER;
	return u > IXC_SCHED_BUDGET_MIN ? u : IXC_SCHED_BUDGET_MIN;
}

int ipuxcom_schedule_build(const struct ipuxcom_schedule_opts *opts,
			   const struct ipuxcom_schedule_xfer *xfers, size_t n,
			   struct ipuxcom_schedule **out, struct ipuxcom_plan_error *err)
{
	struct ipuxcom_schedule_opts o = IPUXCOM_SCHEDULE_OPTS_INIT, lo;
	struct ipuxcom_schedule *legacy = NULL;
	size_t budget, held, first;
	struct ipuxcom_plan_error e0 = { 0 };
	bool pieces_ordered;
	int ret;

	if (opts && (ret = ixc_sched_opts_in(opts, &o, err)))
		return ret;
	if (o.effort > IPUXCOM_SCHEDULE_EFFORT_MAX)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FIELD, "effort",
				     "effort %u above the limit %u", o.effort,
				     IPUXCOM_SCHEDULE_EFFORT_MAX);
	if (o.effort && (o.flags & (IPUXCOM_SCHEDULE_QUICK | IPUXCOM_SCHEDULE_LEGACY)))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FIELD, "effort",
				     "effort %u with %s, which does no search", o.effort,
				     o.flags & IPUXCOM_SCHEDULE_LEGACY ? "LEGACY" : "QUICK");
	opts = &o;
	lo = o;
	lo.effort = 0;
	if (lo.flags & IPUXCOM_SCHEDULE_LEGACY)
		return ixc_schedule_build(opts, xfers, n, NULL, true, out, err);
	ret = ixc_schedule_build(opts, xfers, n, NULL, true, out, &e0);
	lo.flags |= IPUXCOM_SCHEDULE_LEGACY;
	if (ret && e0.code == IPUXCOM_PLAN_E_SCHEDULE &&
	    ixc_schedule_build(&lo, xfers, n, NULL, true, out, NULL) == 0) {
		ixc_sched_why_phase(*out);
		ixc_plan_ok(err);
		return 0;
	}
	if (ret && err)
		*err = e0;
	if (ret)
		return ret;
	first = (*out)->work;
	if ((*out)->departs) {
		if (ixc_schedule_build(&lo, xfers, n, NULL, false, &legacy, NULL) == 0 &&
		    legacy->events < (*out)->events) {
			ipuxcom_schedule_free(*out);
			*out = legacy;
			ixc_sched_why_phase(legacy);
		} else {
			ipuxcom_schedule_free(legacy);
		}
	}
	if (o.flags & IPUXCOM_SCHEDULE_QUICK)
		goto done;	/* no search: the first placement, or legacy's */
	budget = ixc_sched_budget(xfers, n, o.effort, first);
	held = budget / 100 * IXC_SCHED_RSPLIT_SHARE;
	budget -= held;
	pieces_ordered = ixc_sched_split_orders(opts, xfers, n);
	if (!pieces_ordered)
		ixc_sched_reorder(opts, xfers, n, out, &budget);
	/*
	 * The pieces' set holds the other splits too; without pieces, those
	 * alone (measured: with pieces, the set without them rarely wins and
	 * its builds cost a third of the time budget).
	 */
	if (!ixc_sched_split(opts, xfers, n, out, true, &budget))
		ixc_sched_split(opts, xfers, n, out, false, &budget);
	if (pieces_ordered)
		ixc_sched_unsplit(opts, xfers, n, out);
	budget += held;
	ixc_sched_rsplit(opts, out, &budget);
done:
	if ((ret = ixc_sched_finish(out, err)))
		return ret;
	ixc_plan_ok(err);
	return 0;
}

/* Transfer @x's sender and receivers get their entries in s->tiles. */
static int ixc_sched_tiles(struct ipuxcom_schedule *s, const struct ixc_sx *x,
			   struct ipuxcom_plan_error *err)
{
	for (uint32_t i = 0; i <= x->nrecv; i++) {
		uint32_t t = i < x->nrecv ? x->recv[i] : x->sender;

		if (s->tix[t])
			continue;
		if (!ixc_xgrow((void **)&s->tiles, &s->cap_tiles, s->ntiles + 1, sizeof(*s->tiles)))
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "out", "out of memory");
		memset(&s->tiles[s->ntiles], 0, sizeof(*s->tiles));
		s->tiles[s->ntiles].id = t;
		s->tix[t] = (uint16_t)s->ntiles++;
	}
	return 0;
}

/*
 * A schedule of @n transfers, each checked and resolved, none placed
 * unless @place (then each is placed in the caller's order as it is
 * checked, so a transfer that does not fit is reported before a later
 * one that is invalid). No programs yet.
 */
static int ixc_sched_new(const struct ipuxcom_schedule_opts *opts,
			 const struct ipuxcom_schedule_xfer *xfers, size_t n, bool place,
			 struct ipuxcom_schedule **out, struct ipuxcom_plan_error *err)
{
	struct ipuxcom_schedule *s;
	size_t nids = 0;
	int ret;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	*out = NULL;
	if ((ret = ixc_sched_check(opts, xfers, n, err)))
		return ret;
	for (size_t i = 0; i < n; i++) {
		if (xfers[i].nrecv > IPUXCOM_TILES - 1) {
			char field[64];

			snprintf(field, sizeof(field), "xfers[%u].nrecv", (unsigned int)i);
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_NRECV, field,
					     "%s %u out of range 1..%u", field, xfers[i].nrecv,
					     IPUXCOM_TILES - 1);
		}
		nids += xfers[i].nrecv;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "out", "out of memory");
	s->tm = ixc_timing(opts ? opts->timing : NULL);
	s->flags = opts ? opts->flags : 0;
	s->max_events = opts && opts->max_events ? opts->max_events : IPUXCOM_XSIM_MAX_EVENTS;
	s->n = n;
	s->x = calloc(n ? n : 1, sizeof(*s->x));
	s->ids = calloc(2 * nids + 1, sizeof(*s->ids));
	s->ints = calloc(4 * nids + 1, sizeof(*s->ints));
	s->slots = calloc(n ? n : 1, sizeof(*s->slots));
	s->tix = calloc(IPUXCOM_TILES, sizeof(*s->tix));
	s->tiles = calloc(1, sizeof(*s->tiles));	/* tiles[0]: none */
	s->ntiles = s->cap_tiles = 1;
	if (!s->x || !s->ids || !s->ints || !s->slots || !s->tix || !s->tiles) {
		ipuxcom_schedule_free(s);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "out", "out of memory");
	}
	nids = 0;
	for (size_t i = 0; i < n; i++) {
		struct ixc_sx *x = &s->x[i];

		x->recv = &s->ids[2 * nids];
		x->dst = &s->ids[2 * nids + xfers[i].nrecv];
		x->t = &s->ints[4 * nids];
		x->pic = &s->ints[4 * nids + xfers[i].nrecv];
		x->tpair = &s->ints[4 * nids + 2 * xfers[i].nrecv];
		x->pic_save = &s->ints[4 * nids + 3 * xfers[i].nrecv];
		nids += xfers[i].nrecv;
		if ((ret = ixc_sched_xfer(s, i, &xfers[i], x, err)) ||
		    (ret = ixc_sched_tiles(s, x, err)) ||
		    (place && (ret = ixc_place(s, i, err)))) {
			ipuxcom_schedule_free(s);
			return ret;
		}
		s->departs |= place && x->wide;
	}
	*out = s;
	return 0;
}

/* Every tile's program from the placed transfers of @s; the phase length in s->events. */
static int ixc_sched_programs(struct ipuxcom_schedule *s, struct ipuxcom_plan_error *err)
{
	struct ixc_saction *act;
	size_t maxact = 1, done;
	int ret;

	for (size_t k = 1; k < s->ntiles; k++) {
		size_t na = s->tiles[k].nsnd + 3 * s->tiles[k].nwin;

		if (na > maxact)
			maxact = na;
	}
	act = malloc(maxact * sizeof(*act));
	s->progs = calloc(s->ntiles ? s->ntiles : 1, sizeof(*s->progs));
	if (!act || !s->progs) {
		free(act);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "out", "out of memory");
	}
	/* In tile order, as the programs always came. */
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
		const struct ixc_stile *st = ixc_tile(s, t);

		if (!st->nsnd && !st->nwin)
			continue;
		if ((ret = ixc_build_program(s, t, act, &done, err))) {
			free(act);
			return ret;
		}
	}
	free(act);
	return 0;
}

static int ixc_schedule_build(const struct ipuxcom_schedule_opts *opts,
			      const struct ipuxcom_schedule_xfer *xfers, size_t n,
			      const uint32_t *order, bool programs, struct ipuxcom_schedule **out,
			      struct ipuxcom_plan_error *err)
{
	struct ipuxcom_schedule *s;
	int ret;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	*out = NULL;
	if ((ret = ixc_sched_new(opts, xfers, n, !order, &s, err)))
		return ret;
	/* Another placement order (issue 25): every transfer checked first. */
	for (size_t k = 0; order && k < n; k++) {
		if ((ret = ixc_place(s, order[k], err))) {
			ipuxcom_schedule_free(s);
			return ret;
		}
		s->departs |= s->x[order[k]].wide;
	}
	if (programs && (ret = ixc_sched_programs(s, err))) {
		ipuxcom_schedule_free(s);
		return ret;
	}
	if (!programs)
		ixc_sched_phase(s);
	*out = s;
	ixc_plan_ok(err);
	return 0;
}

uint32_t ipuxcom_schedule_events(const struct ipuxcom_schedule *s)
{
	return s ? s->events : 0;
}

size_t ipuxcom_schedule_nxfers(const struct ipuxcom_schedule *s)
{
	return s ? (s->ufirst ? s->nuser : s->n) : 0;
}

int ipuxcom_schedule_slot(const struct ipuxcom_schedule *s, size_t i,
			  struct ipuxcom_schedule_slot *out)
{
	const struct ipuxcom_schedule_slot *big;
	struct ipuxcom_schedule_slot sl;

	if (!s || !out || ixc_struct_out_check(out->size, IPUXCOM_SCHEDULE_SLOT_SIZE_MIN))
		return -EINVAL;
	if (i >= ipuxcom_schedule_nxfers(s))
		return -ERANGE;
	if (!s->ufirst) {
		ixc_struct_out(out, out->size, &s->slots[i], sizeof(s->slots[i]));
		return 0;
	}
	/*
	 * A split transfer: its pieces' span; its route is that of the piece
	 * that moves the most (a 64-bit body between 32-bit head and tail
	 * words), its items all the pieces' send events.
	 */
	sl = s->slots[s->ufirst[i]];
	big = &s->slots[s->ufirst[i]];
	for (uint32_t k = s->ufirst[i] + 1; k < s->ufirst[i + 1]; k++) {
		const struct ipuxcom_schedule_slot *p = &s->slots[k];

		sl.start = p->start < sl.start ? p->start : sl.start;
		sl.first_arrival = p->first_arrival < sl.first_arrival ? p->first_arrival :
									 sl.first_arrival;
		sl.last_write = p->last_write > sl.last_write ? p->last_write : sl.last_write;
		sl.gap = p->gap > sl.gap ? p->gap : sl.gap;
		sl.items += p->items;
		if (p->items > big->items)
			big = p;
	}
	sl.sctl = big->sctl;
	sl.wide = big->wide;
	ixc_struct_out(out, out->size, &sl, sizeof(sl));
	return 0;
}

size_t ipuxcom_schedule_nprograms(const struct ipuxcom_schedule *s)
{
	return s ? s->nprogs : 0;
}

int ipuxcom_schedule_program(const struct ipuxcom_schedule *s, size_t i,
			     struct ipuxcom_xsim_program *out)
{
	if (!s || !out)
		return -EINVAL;
	if (i >= s->nprogs)
		return -ERANGE;
	*out = (struct ipuxcom_xsim_program){
		.tile = s->progs[i].tile, .words = &s->words[s->progs[i].off],
		.nwords = s->progs[i].n,
	};
	return 0;
}

int ipuxcom_schedule_load(const struct ipuxcom_schedule *s, struct ipuxcom_xsim *sim,
			  uint32_t flags, struct ipuxcom_plan_error *err)
{
	uint32_t *ur = NULL;	/* a split transfer's receivers, then their destinations */
	int ret;

	if (!s)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "schedule", "schedule is NULL");
	if (!sim)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "sim", "sim is NULL");
	if (flags & ~IPUXCOM_SCHEDULE_LOAD_IDLE)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", flags,
				     flags & ~IPUXCOM_SCHEDULE_LOAD_IDLE);
	for (size_t i = 0; i < s->nprogs; i++) {
		struct ipuxcom_xsim_program p;

		ipuxcom_schedule_program(s, i, &p);
		ret = ipuxcom_xsim_add_program(sim, &p, err);
		if (ret < 0)
			return ret;
	}
	for (size_t i = 0; i < ipuxcom_schedule_nxfers(s); i++) {
		size_t k0 = s->ufirst ? s->ufirst[i] : i, k1 = s->ufirst ? s->ufirst[i + 1] : i + 1;
		const struct ixc_sx *x = &s->x[k0];
		struct ipuxcom_xsim_xfer d = {
			.size = sizeof(d), .sender = x->sender, .src_addr = x->src, .count = x->count,
			.flags = IPUXCOM_PLAN_PHYSICAL, .nrecv = x->nrecv, .receivers = x->recv, .dst_addr = x->dst,
		};

		/*
		 * A split transfer is declared whole, as the caller gave it: its
		 * pieces (consecutive words, receiver groups, or both) cover the
		 * words from the lowest source address to the highest, and every
		 * receiver once, its destination moved back by its piece's offset
		 * (the verifier matches words by sender and source address,
		 * whichever stream carries them).
		 */
		if (k1 > k0 + 1) {
			uint32_t lo = x->src, hi = x->src + 4 * x->count, nr = 0;

			for (size_t k = k0 + 1; k < k1; k++) {
				lo = s->x[k].src < lo ? s->x[k].src : lo;
				hi = s->x[k].src + 4 * s->x[k].count > hi ?
					     s->x[k].src + 4 * s->x[k].count : hi;
			}
			if (!ur && !(ur = malloc(2 * IPUXCOM_TILES * sizeof(*ur))))
				return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "schedule",
						     "out of memory");
			for (size_t k = k0; k < k1; k++) {
				for (uint32_t j = 0; j < s->x[k].nrecv; j++) {
					uint32_t r = s->x[k].recv[j], q = 0;

					while (q < nr && ur[q] != r)
						q++;
					if (q < nr)
						continue;
					ur[nr] = r;
					ur[IPUXCOM_TILES + nr++] = s->x[k].dst[j] - (s->x[k].src - lo);
				}
			}
			d.src_addr = lo;
			d.count = (hi - lo) / 4;
			d.nrecv = nr;
			d.receivers = ur;
			d.dst_addr = ur + IPUXCOM_TILES;
		}
		if ((ret = ipuxcom_xsim_declare(sim, &d, err))) {
			free(ur);
			return ret;
		}
	}
	free(ur);
	if (flags & IPUXCOM_SCHEDULE_LOAD_IDLE)
		return ipuxcom_xsim_fill_idle(sim, err);
	ixc_plan_ok(err);
	return 0;
}

int ipuxcom_schedule_stagger(const struct ipuxcom_schedule_opts *opts,
			     const struct ipuxcom_schedule_xfer *xfers, size_t n, uint32_t step,
			     struct ipuxcom_xsim *sim, uint32_t flags,
			     struct ipuxcom_plan_error *err)
{
	struct ipuxcom_schedule_opts o = IPUXCOM_SCHEDULE_OPTS_INIT;
	struct ipuxcom_plan_row *rows = NULL;
	const struct ipuxcom_timing *tm;
	size_t cap = 0;
	int ret;

	if (opts && (ret = ixc_sched_opts_in(opts, &o, err)))
		return ret;
	opts = &o;
	if ((ret = ixc_sched_check(opts, xfers, n, err)))
		return ret;
	if (!sim)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "sim", "sim is NULL");
	if (flags & ~IPUXCOM_SCHEDULE_LOAD_IDLE)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", flags,
				     flags & ~IPUXCOM_SCHEDULE_LOAD_IDLE);
	tm = ixc_timing(opts ? opts->timing : NULL);
	for (size_t i = 0; i < n; i++) {
		struct ipuxcom_fanout_req req = {
			.size = sizeof(req), .sender = xfers[i].sender, .count = xfers[i].count,
			.flags = opts ? opts->flags & IXC_NUMBERING : 0,
			.nrecv = xfers[i].nrecv, .receivers = xfers[i].receivers,
			.src_addr = xfers[i].src_addr, .dst_addr = xfers[i].dst_addr,
		};

		if ((uint64_t)step * i > UINT32_MAX)
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_SCHEDULE, "step",
					     "step %u x transfer %zu overflows", step, i);
		req.schedule_offset = step * (uint32_t)i;
		if (!ixc_xgrow((void **)&rows, &cap, (size_t)req.nrecv + 1, sizeof(*rows))) {
			free(rows);
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "xfers", "out of memory");
		}
		if ((ret = ipuxcom_plan_multicast(tm, &req, rows, cap, NULL, err)) ||
		    (ret = ipuxcom_xsim_add_multicast(sim, &req, rows, cap, err))) {
			free(rows);
			return ret;
		}
	}
	free(rows);
	if (flags & IPUXCOM_SCHEDULE_LOAD_IDLE)
		return ipuxcom_xsim_fill_idle(sim, err);
	ixc_plan_ok(err);
	return 0;
}

/* ------------------------------------------- exact reference (issue 34) */

struct ixc_sexact {
	/*
	 * The pool: the transfers (j: the width that writes earlier, as
	 * the scheduler places), then each forced 32-bit (n + j), then
	 * forced 64-bit (2n + j).
	 */
	struct ixc_sctx c;
	uint32_t seq[16];
	size_t n;
	bool two[16];		/* transfer j may take a 64-bit route */
	uint32_t best, best_seq[16];
	uint64_t left;
	bool cut;	/* the placement limit stopped the search */
};

/*
 * Every order of the transfers not in @used after seq[0..k), each in
 * every width it may take, below x->best; the best one's placements in
 * x->c.won. The width that writes earlier first (the scheduler's
 * choice, so the search meets its schedules first), then the other.
 */
static void ixc_sexact_dfs(struct ixc_sexact *x, size_t k, uint32_t used)
{
	for (uint32_t j = 0; j < x->n; j++) {
		bool wide_first = false;

		if (used >> j & 1)
			continue;
		for (uint32_t v = 0; v <= (uint32_t)x->two[j]; v++) {
			uint32_t p;

			if (!x->left) {
				x->cut = true;
				return;
			}
			x->left--;
			/* the other width: forced, the one the first did not take */
			x->seq[k] = !v ? j : (uint32_t)((wide_first ? 1 : 2) * x->n) + j;
			p = ixc_sctx_eval(&x->c, x->seq, k + 1, x->best);
			if (!v)
				wide_first = x->c.nseq > k && x->c.seq[k] == j && x->c.s->x[j].wide;
			if (p == UINT32_MAX)
				continue;
			if (k + 1 < x->n) {
				ixc_sexact_dfs(x, k + 1, used | 1u << j);
				continue;
			}
			x->best = p;
			memcpy(x->best_seq, x->seq, x->n * sizeof(*x->seq));
			ixc_ssnap_take(&x->c.won, x->c.s, x->seq, x->n);
		}
	}
}

int ixc_sched_exact(const struct ipuxcom_schedule_opts *opts,
		    const struct ipuxcom_schedule_xfer *xfers, size_t n,
		    const struct ipuxcom_schedule *s, bool pieces, uint32_t cutoff,
		    uint64_t limit, uint32_t *phase, bool *proven,
		    struct ipuxcom_schedule **out)
{
	struct ipuxcom_schedule_opts o = opts ? *opts : (struct ipuxcom_schedule_opts)
		IPUXCOM_SCHEDULE_OPTS_INIT;
	struct ipuxcom_schedule_xfer px[48];
	struct ixc_sexact *x;
	size_t budget = SIZE_MAX;
	int ret = 0;

	if (out)
		*out = NULL;
	if (pieces) {
		if (!s || s->n > 16)
			return -EINVAL;
		/* The pieces as resolved: physical ids, their own addresses. */
		o.flags = (o.flags & ~IXC_NUMBERING) | IPUXCOM_SCHEDULE_PHYSICAL;
		for (size_t i = 0; i < s->n; i++)
			px[i] = (struct ipuxcom_schedule_xfer){
				.sender = s->x[i].sender, .count = s->x[i].count,
				.nrecv = s->x[i].nrecv, .receivers = s->x[i].recv,
				.src_addr = s->x[i].src, .dst_addr = s->x[i].dst,
			};
		n = s->n;
	} else {
		if (n > 16)
			return -EINVAL;
		memcpy(px, xfers, n * sizeof(*px));
	}
	if (n > 16)
		return -EINVAL;
	/* each transfer three times: either width, forced 32-bit, forced 64-bit */
	memcpy(px + n, px, n * sizeof(*px));
	memcpy(px + 2 * n, px, n * sizeof(*px));
	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	o.flags &= ~IPUXCOM_SCHEDULE_LEGACY;
	if (!ixc_sctx_init(&x->c, &o, px, 3 * n, &budget)) {
		free(x);
		return -EINVAL;
	}
	for (size_t j = 0; j < n; j++) {
		x->two[j] = x->c.s->x[j].wide_ok;
		x->c.s->x[n + j].width = IXC_WIDTH_32;
		x->c.s->x[2 * n + j].width = IXC_WIDTH_64;
	}
	x->n = n;
	x->best = cutoff;
	x->left = limit;
	ixc_sexact_dfs(x, 0, 0);
	*phase = x->best == cutoff ? UINT32_MAX : x->best;
	*proven = !x->cut && !x->c.broken;
	/* The best one built in full from its placements, for the verifier. */
	if (out && *phase != UINT32_MAX) {
		uint32_t order[16], map[16];

		for (size_t k = 0; k < n; k++) {
			uint32_t e = x->best_seq[k], j = e % (uint32_t)n;

			order[k] = j;
			map[j] = e;
		}
		ret = ixc_schedule_rebuild(&o, px, n, order, &x->c, &x->c.won, map, out);
		if (!ret)
			ret = ixc_sched_finish(out, NULL);
	}
	ixc_sctx_free(&x->c);
	free(x);
	return ret;
}
