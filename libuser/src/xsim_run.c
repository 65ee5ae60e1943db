// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * The event model of one exchange phase, written from the hardware record
 * (HW-EVENT-MODEL [RE]) and the seed notes [S], not from the assembler:
 *
 *  - Events count per tile from the one after its sync. A delay, delaypic
 *    or delayxpic whose field holds n takes n + 1 events; a delaypic or
 *    delayxpic acts at its last event [RE]. A send or sendoff of n words
 *    takes n events, one outgoing word per event [RE].
 *  - A word sent by tile s at event e is at the incoming mux of tile d at
 *    event e + TimeToMux(s, d) (timing model interface [RE]). It carries no
 *    destination: whoever selects s at that event takes it [RE].
 *  - delayxpic selects the source the mux listens to from its acting event
 *    on; 0x640 (DISABLEMUX [DW]) selects none [RE, DW].
 *  - A word taken at event x is written at event x + 52 + 2 * row(d) [RE]
 *    through the incoming write pointer, which delaypic sets and every
 *    write advances by one word [RE]. A write at event w uses the last PIC
 *    set at an event <= w (modelled: the notes' rows set it exactly at the
 *    first write, which therefore must use it).
 *
 * Modelled or inferred here (docs/exchange-verifier.md):
 *  - a word sent in direction D reaches d only if D & direction(s, d)
 *    (BROADCAST 3 reaches all), unless IPUXCOM_XSIM_ANY_DIRECTION;
 *  - send addresses are A7 + 4 * field (A7 = 0: absolute [S multicast]);
 *    a sendoff continues after the words already sent, plus 4 * its
 *    offset field;
 *  - a delaypic field with both flag bits 0x14000 set is the absolute word
 *    address (multicast [S]); otherwise A4 + 4 * field;
 *  - sends read the SRAM as it was at the start of the phase; the phase's
 *    writes are applied after every word has moved;
 *  - words of non-exchange instructions take one event and are reported;
 *  - rows of one tile are overlaid (see ipuxcom_xsim.h);
 *  - the phase ends at the last br $m10 of any tile: a word taken in the
 *    phase must be written before it (in-flight-at-sync), whichever tile's
 *    row is the last; words no tile takes are dropped and not checked.
 *
 * Merged send/control instructions and 64-bit items (HW-MERGED, HW-WIDE [RE];
 * docs/exchange-verifier.md lists what is modelled): sendpic/sendpicp
 * controls act at their first send event; sendpic continues the stream
 * under its current sctl (modelled); a transmitting sendpicp restarts it
 * at its absolute address, sctl 0 only lets events pass; sendpicp starts
 * 8-byte aligned. sctl bit 2 moves two words per event to the XOR-2 pair
 * at the larger TimeToMux, taken through the owner's XPIC (the smaller).
 * Pair resources once per event (modelled); SRAM elements: code element
 * error [S], same-event send/write note (modelled).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xsim_internal.h"

#define H(kind)	IPUXCOM_XSIM_##kind

/* ----------------------------------------------------------- parsing rows */

struct ixc_xparse {
	struct ipuxcom_xsim *sim;
	const struct ixc_xprog *p;
	int32_t prog;
	int32_t ev;
	uint32_t out_ptr;	/* outgoing pointer after the last send word */
	int32_t send_end;	/* event after the last send word, -1 */
	uint32_t stream;	/* stream of the last send */
	uint32_t sctl;		/* the outgoing stream's current control (sendpic uses it) */
	bool failed;		/* out of memory */
};

static bool ixc_xbound(struct ixc_xparse *x, int32_t event, int32_t word)
{
	struct ipuxcom_xsim *sim = x->sim;

	if (event < (int32_t)sim->max_events)
		return true;
	ixc_xhazard(sim, H(H_PHASE_LENGTH), x->p->tile, UINT32_MAX, event, x->prog, word,
		    "row reaches event %d: beyond the phase bound %u (the longest phase the "
		    "notes' row fields encode is %u events)", event, sim->max_events,
		    IPUXCOM_XSIM_MAX_EVENTS);
	return false;
}

static void ixc_xact_push(struct ixc_xparse *x, bool pic, int32_t event, uint32_t value,
			  uint32_t addr, int32_t word)
{
	struct ipuxcom_xsim *sim = x->sim;
	struct ixc_xact **arr = pic ? &sim->pic : &sim->mux;
	size_t *n = pic ? &sim->npic : &sim->nmux, *cap = pic ? &sim->cap_pic : &sim->cap_mux;

	if (!ixc_xbound(x, event, word))
		return;
	if (!ixc_xgrow((void **)arr, cap, *n + 1, sizeof(**arr))) {
		x->failed = true;
		return;
	}
	(*arr)[(*n)++] = (struct ixc_xact){ .event = event, .value = value, .addr = addr,
					    .prog = x->prog, .word = word,
					    .tile = (uint16_t)x->p->tile };
}

/*
 * @n send events from @addr under control @sctl: bits 0-1 the directions,
 * bit 2 64-bit items (two words per event) [RE].
 */
static void ixc_xsend_push(struct ixc_xparse *x, uint32_t n, uint32_t addr, uint32_t sctl,
			   bool cont, int32_t word)
{
	struct ipuxcom_xsim *sim = x->sim;
	uint32_t tile = x->p->tile, dir = sctl & IPUXCOM_SCTL_DIRS;
	uint32_t wide = (sctl & IPUXCOM_SCTL_WIDE) ? 1 : 0, per = 1 + wide;
	int32_t start = x->ev;

	x->sctl = sctl;
	x->out_ptr = addr + 4 * per * n;
	x->send_end = start + (int32_t)n;
	if (!ixc_xbound(x, start, word))
		return;
	if (start + (int32_t)n > (int32_t)sim->max_events) {
		ixc_xbound(x, start + (int32_t)n, word);
		n = sim->max_events - (uint32_t)start;
	}
	if (dir == 0)
		ixc_xhazard(sim, H(H_UNSUPPORTED), tile, UINT32_MAX, start, x->prog, word,
			    "send direction 0 (sctl %u): its %u words reach no tile; only "
			    "sendpicp's receiver-only form (sctl 0) is modelled as advancing "
			    "without transmitting (reverse-engineered)", sctl, n);
	if (wide && (addr & 7))
		ixc_xhazard(sim, H(H_MISALIGNED), tile, UINT32_MAX, start, x->prog, word,
			    "64-bit send from 0x%x: not 8-byte aligned (modelled: an item is "
			    "two consecutive words)", addr);
	if (!ixc_xin_sram(addr, (uint64_t)n * 4 * per))
		ixc_xhazard(sim, H(H_SEND_OUTSIDE), tile, UINT32_MAX, start, x->prog, word,
			    "send of %u words from 0x%x reads outside tile SRAM 0x%x..0x%x "
			    "(words outside are taken as 0)", n * per, addr, IPUXCOM_SRAM_BASE,
			    IPUXCOM_SRAM_END - 1);
	if (!cont) {
		if (!ixc_xgrow((void **)&sim->stream_words, &sim->cap_streams, sim->nstreams + 1,
			       sizeof(*sim->stream_words))) {
			x->failed = true;
			return;
		}
		x->stream = sim->nstreams++;
		sim->stream_words[x->stream] = 0;
	}
	sim->stream_words[x->stream] += n * per;
	if (!ixc_xgrow((void **)&sim->sends, &sim->cap_sends, sim->nsends + 1,
		       sizeof(*sim->sends))) {
		x->failed = true;
		return;
	}
	sim->sends[sim->nsends++] = (struct ixc_xsend){
		.start = start, .n = n, .addr = addr, .stream = x->stream, .prog = x->prog,
		.word = word, .tile = (uint16_t)tile, .dir = (uint8_t)dir, .wide = (uint8_t)wide,
	};
	sim->res.words_sent += (uint64_t)n * per;
}

/* The write pointer a PIC field sets: both flag bits absolute [S multicast], else A4. */
static uint32_t ixc_xpic_addr(const struct ixc_xprog *p, uint32_t field)
{
	if ((field & IPUXCOM_MCAST_FLAG) == IPUXCOM_MCAST_FLAG)
		return 4 * field;
	return p->a4 + 4 * field;
}

/* Push an XPIC setting of mux field @v at event @at (0x640: none; no tile: reported). */
static void ixc_xmux_push(struct ixc_xparse *x, uint32_t v, int32_t at, int32_t word)
{
	uint32_t tile = x->p->tile;

	if (v == IPUXCOM_MUX_DISABLE) {
		v = IXC_XMUX_OFF;
	} else if (v >= IPUXCOM_TILES || v == tile) {
		ixc_xhazard(x->sim, H(H_UNSUPPORTED), tile, v, at, x->prog, word,
			    "mux value 0x%x is %s: the mux takes no tile's words "
			    "(modelled)", v,
			    v == IPUXCOM_MUX_HOST ? "the host mux 0x600 (host "
			    "traffic is not simulated)" : v == tile ? "the tile "
			    "itself" : "neither a tile nor 0x640");
		v = IXC_XMUX_OFF;
	}
	ixc_xact_push(x, false, at, v, 0, word);
}

/*
 * sendpic and sendpicp [RE, HW-MERGED]:
 * their controls apply at the first send event, the instruction's first
 * event. Returns false when the row cannot go on (a misaligned sendpicp).
 */
static bool ixc_xsendpic(struct ixc_xparse *x, const struct ipuxcom_decoded *dc, uint32_t i)
{
	struct ipuxcom_xsim *sim = x->sim;
	const struct ixc_xprog *p = x->p;
	uint32_t tile = p->tile, n = dc->events;
	int32_t word = (int32_t)i;

	if (dc->op == IPUXCOM_OP_SENDPIC) {
		/* sel 0-1: XPIC (13 bits), 2-3: PIC (18 bits); the two forms of each
		 * act alike (modelled: what tells them apart is not documented). */
		if (dc->f[1] < IPUXCOM_SENDPIC_PIC0)
			ixc_xmux_push(x, dc->f[2], x->ev, word);
		else
			ixc_xact_push(x, true, x->ev, dc->f[2], ixc_xpic_addr(p, dc->f[2]), word);
		/* Continues the current outgoing stream under its current control. */
		if (x->send_end < 0)
			ixc_xhazard(sim, H(H_UNSUPPORTED), tile, UINT32_MAX, x->ev, x->prog, word,
				    "sendpic with no earlier send in the row: it continues the "
				    "outgoing stream, whose control is unknown here (modelled: "
				    "%u events, nothing sent)", n);
		else if (x->sctl & IPUXCOM_SCTL_DIRS)
			ixc_xsend_push(x, n, x->out_ptr, x->sctl, x->send_end == x->ev, word);
		x->ev += (int32_t)n;
		return true;
	}
	/* sendpicp: two words, on an 8-byte boundary (the PC advances 8) [RE]. */
	{
		uint32_t at = (p->code_addr ? p->code_addr : 0) + 4 * i;
		uint32_t xpic = dc->f[4], sctl = dc->f[3];

		if (at & 7) {
			ixc_xhazard(sim, H(H_MISALIGNED), tile, UINT32_MAX, x->ev, x->prog, word,
				    "sendpicp at word %u (%s 0x%x) is not on an 8-byte boundary: "
				    "it must be (reverse-engineered); the notes' aligned bundle copied to another "
				    "alignment raised TEXCPT_INVALID_INSTR (recorded on a C600); the row is not "
				    "simulated further", i, p->code_addr ? "address" : "offset",
				    at);
			return false;
		}
		if (xpic & 0x2000)
			ixc_xhazard(sim, H(H_UNSUPPORTED), tile, UINT32_MAX, x->ev, x->prog, word,
				    "sendpicp XPIC bit 13 set (0x%x): like delayxpic's flag bit "
				    "13, its meaning is not documented (ignored)", xpic);
		ixc_xmux_push(x, xpic & 0x1fff, x->ev, word);
		ixc_xact_push(x, true, x->ev, dc->f[5], ixc_xpic_addr(p, dc->f[5]), word);
		if (sctl & IPUXCOM_SCTL_DIRS)
			/* Restarts the outgoing stream at its absolute source address. */
			ixc_xsend_push(x, n, 4 * dc->f[2], sctl, false, word);
		else
			x->sctl = sctl;	/* receiver-only: events pass, nothing leaves */
		x->ev += (int32_t)n;
		return true;
	}
}

/* Decode program @pi and push its actions; returns its end event (its br's event). */
static int32_t ixc_xparse_prog(struct ipuxcom_xsim *sim, int32_t pi, bool *failed)
{
	const struct ixc_xprog *p = &sim->progs[pi];
	const uint32_t *w = &sim->words[p->off];
	uint32_t tile = p->tile, i = (p->flags & IPUXCOM_XSIM_PROG_DATA0) ? 1 : 0;
	struct ixc_xparse x = { .sim = sim, .p = p, .prog = pi, .send_end = -1 };
	struct ipuxcom_decoded dc;
	struct ipuxcom_insn in;

	if (i >= p->n) {
		ixc_xhazard(sim, H(H_NO_SYNC), tile, UINT32_MAX, 0, pi, -1,
			    "program has no code word (only its data word 0)");
		return 0;
	}
	ipuxcom_decode(w[i], &in);
	if (in.op == IPUXCOM_OP_SANS) {
		/* Non-participation: sans; sync [S] (raw, or with br $m10). */
		ipuxcom_decode(i + 1 < p->n ? w[i + 1] : 0, &in);
		if (i + 1 >= p->n || in.op != IPUXCOM_OP_SYNC) {
			ixc_xhazard(sim, H(H_NO_SYNC), tile, UINT32_MAX, 0, pi, (int32_t)i + 1,
				    "sans not followed by sync: not the non-participation "
				    "sequence sans; sync 1 (recorded on a C600)");
			return 0;
		}
		i += 2;
		if (i >= p->n)
			return 0;	/* the notes' two raw words [S]: inline vertex code */
	} else if (in.op == IPUXCOM_OP_SYNC) {
		i++;
	} else {
		char text[48];

		ipuxcom_disasm(w[i], text, sizeof(text));
		ixc_xhazard(sim, H(H_NO_SYNC), tile, UINT32_MAX, 0, pi, (int32_t)i,
			    "first code word 0x%08x (%s) is not sync: a participating row starts "
			    "with sync 3 (recorded on a C600)", w[i], text);
		return 0;
	}
	for (; i < p->n; i++) {
		int32_t word = (int32_t)i;
		char text[48];

		if (x.failed)
			break;
		if (!ixc_xbound(&x, x.ev, word))
			break;
		ipuxcom_decode_insn(&w[i], p->n - i, &dc);
		in = (struct ipuxcom_insn){ .op = dc.op, .a = dc.f[0], .b = dc.f[1], .c = dc.f[2] };
		switch (in.op) {
		case IPUXCOM_OP_DELAY:
			x.ev += (int32_t)in.a + 1;
			break;
		case IPUXCOM_OP_DELAYPIC: {
			uint32_t addr;

			if (in.b)
				ixc_xhazard(sim, H(H_UNSUPPORTED), tile, UINT32_MAX,
					    x.ev + (int32_t)in.a, pi, word,
					    "delaypic flag bit 18 set: its meaning is not documented "
					    "(ignored)");
			/* Both flag bits: absolute word address [S multicast]; else A4-relative. */
			addr = ixc_xpic_addr(p, in.c);
			ixc_xact_push(&x, true, x.ev + (int32_t)in.a, in.c, addr, word);
			x.ev += (int32_t)in.a + 1;
			break;
		}
		case IPUXCOM_OP_DELAYXPIC: {
			uint32_t v = in.c, at = (uint32_t)(x.ev + (int32_t)in.a);

			if (in.b)
				ixc_xhazard(sim, H(H_UNSUPPORTED), tile, UINT32_MAX, (int32_t)at, pi,
					    word, "delayxpic flag bit 13 set: its meaning is not "
					    "documented (ignored)");
			ixc_xmux_push(&x, v, (int32_t)at, word);
			x.ev += (int32_t)in.a + 1;
			break;
		}
		case IPUXCOM_OP_SEND:
			ixc_xsend_push(&x, in.a + 1, p->a7 + 4 * in.b, in.c, false, word);
			x.ev += (int32_t)in.a + 1;
			break;
		case IPUXCOM_OP_SENDOFF:
			/* Continues the outgoing pointer (inferred); the same stream when it
			 * follows a send directly. */
			ixc_xsend_push(&x, in.a + 1, (x.send_end >= 0 ? x.out_ptr : p->a7) + 4 * in.b,
				       in.c, x.send_end == x.ev, word);
			x.ev += (int32_t)in.a + 1;
			break;
		case IPUXCOM_OP_SENDPIC:
		case IPUXCOM_OP_SENDPICP:
			if (!ixc_xsendpic(&x, &dc, i)) {
				*failed = x.failed;
				return x.ev;
			}
			i += dc.nwords - 1;
			break;
		case IPUXCOM_OP_BR:
			if (in.a != 10)
				ixc_xhazard(sim, H(H_NO_BR), tile, UINT32_MAX, x.ev, pi, word,
					    "row ends in br $m%u, not br $m10 (the vertex's resume "
					    "register (recorded on a C600))", in.a);
			*failed = x.failed;
			return x.ev;
		case IPUXCOM_OP_WORD:
			if (w[i] == 0)
				ixc_xhazard(sim, H(H_NO_BR), tile, UINT32_MAX, x.ev, pi, word,
					    "row runs into zero padding at word %u without br $m10",
					    i);
			else
				ixc_xhazard(sim, H(H_UNDECODABLE), tile, UINT32_MAX, x.ev, pi, word,
					    "word %u 0x%08x does not decode: TEXCPT_INVALID_INSTR on "
					    "hardware (recorded on a C600)", i, w[i]);
			*failed = x.failed;
			return x.ev;
		case IPUXCOM_OP_SYNC:
		case IPUXCOM_OP_SANS:
			ipuxcom_disasm(w[i], text, sizeof(text));
			ixc_xhazard(sim, H(H_UNSUPPORTED), tile, UINT32_MAX, x.ev, pi, word,
				    "%s inside the row: a second sync starts another phase; the "
				    "row is not simulated further", text);
			*failed = x.failed;
			return x.ev;
		default:
			ipuxcom_disasm(w[i], text, sizeof(text));
			ixc_xhazard(sim, H(H_UNSUPPORTED), tile, UINT32_MAX, x.ev, pi, word,
				    "%s is not an exchange instruction: modelled as one event "
				    "with no exchange effect", text);
			x.ev++;
			break;
		}
	}
	if (!x.failed && i >= p->n)
		ixc_xhazard(sim, H(H_NO_BR), tile, UINT32_MAX, x.ev, pi, (int32_t)p->n - 1,
			    "row runs off its last word (%u words) without br $m10", p->n);
	*failed = x.failed;
	return x.ev < (int32_t)sim->max_events ? x.ev : (int32_t)sim->max_events;
}

/* ------------------------------------------------------------ sorting */

static int ixc_xsend_cmp(const void *a, const void *b)
{
	const struct ixc_xsend *x = a, *y = b;

	if (x->tile != y->tile)
		return x->tile < y->tile ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->prog < y->prog ? -1 : x->prog > y->prog;
}

static int ixc_xact_cmp(const void *a, const void *b)
{
	const struct ixc_xact *x = a, *y = b;

	if (x->tile != y->tile)
		return x->tile < y->tile ? -1 : 1;
	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	if (x->prog != y->prog)
		return x->prog < y->prog ? -1 : 1;
	return x->word < y->word ? -1 : x->word > y->word;
}

/* first[t] = index of the first element of tile t, first[1472] = n. */
#define IXC_XINDEX(first, arr, n)						\
	do {									\
		size_t k_ = 0;							\
		for (uint32_t t_ = 0; t_ <= IPUXCOM_TILES; t_++) {		\
			while (k_ < (n) && (arr)[k_].tile < t_)			\
				k_++;						\
			(first)[t_] = (uint32_t)k_;				\
		}								\
	} while (0)

/* --------------------------------------------------------- receiving */

/* One receiving tile while its windows are processed in event order. */
struct ixc_xrx {
	struct ipuxcom_xsim *sim;
	uint32_t d;
	int32_t latency;		/* 52 + 2 * row [RE] */
	const struct ixc_xact *pics;
	size_t npics;
	size_t pj;			/* PIC in effect + 1 (0: none yet) */
	uint32_t pk;			/* writes through it so far */
	uint32_t decl0, decl1;		/* its declarations in decl_order */
	int32_t phase_end;		/* the last br $m10 of any tile (modelled) */
	bool failed;
};

/* Does @dc carry the word of @s at @src? */
static bool ixc_xdecl_carries(const struct ixc_xdecl *dc, uint32_t s, uint32_t src)
{
	return dc->sender == s && src >= dc->src && (src - dc->src) / 4 < dc->count;
}

static const struct ixc_xdecl *ixc_xdecl_of(const struct ixc_xrx *rx, uint32_t s, uint32_t src)
{
	const struct ipuxcom_xsim *sim = rx->sim;

	for (uint32_t k = rx->decl0; k < rx->decl1; k++) {
		const struct ixc_xdecl *dc = &sim->decls[sim->decl_order[k]];

		if (ixc_xdecl_carries(dc, s, src))
			return dc;
	}
	return NULL;
}

/*
 * Of the declarations on this tile that carry the word of @s at @src and
 * expect it at @addr, the first that has not had it yet, else the first;
 * NULL if none expects it there. A sender may send the same words to a
 * tile twice: to two destinations (two transfers, or a multicast's
 * groups), where the first declaration carrying the word is not the one
 * the write serves, or twice to one (a transfer listed twice), where each
 * copy serves one declaration.
 */
static const struct ixc_xdecl *ixc_xdecl_at(const struct ixc_xrx *rx, uint32_t s, uint32_t src,
					    uint32_t addr)
{
	const struct ipuxcom_xsim *sim = rx->sim;
	const struct ixc_xdecl *first = NULL;

	for (uint32_t k = rx->decl0; k < rx->decl1; k++) {
		const struct ixc_xdecl *dc = &sim->decls[sim->decl_order[k]];
		uint32_t i = (src - dc->src) / 4;

		if (!ixc_xdecl_carries(dc, s, src) || addr != dc->dst + 4 * i)
			continue;
		if (!(sim->bits[(dc->bits + i) / 64] & 1ull << ((dc->bits + i) % 64)))
			return dc;
		first = first ? first : dc;
	}
	return first;
}

static bool ixc_xin_declared(const struct ixc_xrx *rx, uint32_t addr)
{
	const struct ipuxcom_xsim *sim = rx->sim;

	for (uint32_t k = rx->decl0; k < rx->decl1; k++) {
		const struct ixc_xdecl *dc = &sim->decls[sim->decl_order[k]];

		if (addr >= dc->dst && (addr - dc->dst) / 4 < dc->count)
			return true;
	}
	return false;
}

/*
 * The word of @s sent at @send_event from @src, taken by rx->d at @event;
 * @item 1 for the first word of a 64-bit item (its write must be 8-byte
 * aligned), 0 otherwise.
 */
static void ixc_xcapture(struct ixc_xrx *rx, uint32_t s, int32_t event, int32_t send_event,
			 uint32_t src, int32_t wprog, int32_t wword, int item)
{
	struct ipuxcom_xsim *sim = rx->sim;
	const struct ixc_xact *pic;
	uint32_t d = rx->d, addr, value;
	int32_t w = event + rx->latency;
	const struct ixc_xdecl *dc;

	sim->res.words_captured++;
	value = ixc_xin_sram(src, 4) ? ixc_xsram_get(sim, s, src) : 0;
	/* The source first: what was taken, whether or not it can be written. */
	dc = rx->decl1 > rx->decl0 ? ixc_xdecl_of(rx, s, src) : NULL;
	if (rx->decl1 > rx->decl0 && !dc)
		ixc_xhazard(sim, H(H_WRONG_SOURCE), d, s, event, wprog, wword,
			    "took the word of physical %u at 0x%x (sent at event %d), which no "
			    "transfer declared for this tile carries", s, src, send_event);
	while (rx->pj < rx->npics && rx->pics[rx->pj].event <= w) {
		rx->pj++;
		rx->pk = 0;
	}
	if (rx->pj == 0) {
		ixc_xhazard(sim, H(H_WRITE_NO_PIC), d, s, w, wprog, wword,
			    "word taken at event %d from physical %u lands at event %d before any "
			    "PIC is set: it has no write address (dropped)", event, s, w);
		return;
	}
	pic = &rx->pics[rx->pj - 1];
	addr = pic->addr + 4 * rx->pk;
	if (item && (addr & 7))
		ixc_xhazard(sim, H(H_MISALIGNED), d, s, w, pic->prog, pic->word,
			    "64-bit item of physical %u written at 0x%x: not 8-byte aligned "
			    "(modelled: an item is two consecutive words)", s, addr);
	if (rx->pk++ == 0 && pic->event < w)
		ixc_xhazard(sim, H(N_PIC_EARLY), d, s, pic->event, pic->prog, pic->word,
			    "PIC set at event %d, %d event%s before the first write it serves (event "
			    "%d); harmless under the model as no other write lands between",
			    pic->event, w - pic->event, w - pic->event == 1 ? "" : "s", w);
	if (w >= (int32_t)sim->max_events) {
		ixc_xhazard(sim, H(H_PHASE_LENGTH), d, s, w, wprog, wword,
			    "write at event %d: beyond the phase bound %u", w, sim->max_events);
		return;
	}
	if (w >= sim->tile_end[d])
		ixc_xhazard(sim, H(H_WRITE_AFTER_END), d, s, w, wprog, wword,
			    "write at event %d, at or after the tile's br $m10 (event %d): the row "
			    "returned before its data landed (inferred hazard)", w, sim->tile_end[d]);
	/*
	 * The phase boundary (modelled): the phase ends when its last row
	 * returns; from then on every tile may be at the next sync, so a word
	 * still moving to its write could meet the next phase. Which tile's
	 * row is the last one does not matter: a sender that returns early is
	 * covered by any later row (docs/exchange-plans.md "trailing delay").
	 */
	if (w >= rx->phase_end)
		ixc_xhazard(sim, H(H_IN_FLIGHT_AT_SYNC), d, s, w, wprog, wword,
			    "word of physical %u (sent at event %d) taken at event %d, written at "
			    "event %d: at or after the phase end, the last br $m10 of any tile "
			    "(event %d); the next phase could overlap it (modelled)", s, send_event,
			    event, w, rx->phase_end);
	if (!ixc_xin_sram(addr, 4)) {
		ixc_xhazard(sim, H(H_WRITE_OUTSIDE), d, s, w, pic->prog, pic->word,
			    "write to 0x%x (PIC set at event %d + %u words) outside tile SRAM "
			    "0x%x..0x%x (dropped)", addr, pic->event, rx->pk - 1, IPUXCOM_SRAM_BASE,
			    IPUXCOM_SRAM_END - 1);
		return;
	}
	if (rx->decl1 > rx->decl0) {
		if (!dc) {
			if (!ixc_xin_declared(rx, addr))
				ixc_xhazard(sim, H(H_WRITE_OUTSIDE), d, s, w, pic->prog, pic->word,
					    "write to 0x%x is outside every receive buffer declared "
					    "on this tile", addr);
		} else {
			const struct ixc_xdecl *at = ixc_xdecl_at(rx, s, src, addr);
			uint32_t k;
			uint64_t *b, m;

			dc = at ? at : dc;
			k = (src - dc->src) / 4;
			b = &sim->bits[(dc->bits + k) / 64];
			m = 1ull << ((dc->bits + k) % 64);

			if (addr != dc->dst + 4 * k) {
				if (ixc_xin_declared(rx, addr))
					ixc_xhazard(sim, H(H_MISPLACED), d, s, w, pic->prog, pic->word,
						    "word %u of the transfer from physical %u written "
						    "to 0x%x, expected 0x%x", k, s, addr,
						    dc->dst + 4 * k);
				else
					ixc_xhazard(sim, H(H_WRITE_OUTSIDE), d, s, w, pic->prog,
						    pic->word, "write to 0x%x (word %u of the "
						    "transfer from physical %u) is outside every "
						    "receive buffer declared on this tile", addr, k, s);
			} else if (*b & m) {
				ixc_xhazard(sim, H(H_WRONG_SOURCE), d, s, event, wprog, wword,
					    "took word %u of the transfer from physical %u a second "
					    "time (from another stream, sent at event %d)", k, s,
					    send_event);
			} else {
				*b |= m;
				sim->decls[dc - sim->decls].delivered++;
			}
		}
	}
	if (!ixc_xgrow((void **)&sim->wlog, &sim->cap_wlog, sim->nwlog + 1, sizeof(*sim->wlog))) {
		rx->failed = true;
		return;
	}
	sim->wlog[sim->nwlog++] = (struct ipuxcom_xsim_write){
		.event = w, .send_event = send_event, .tile = (uint16_t)d, .src_tile = (uint16_t)s,
		.addr = addr, .src_addr = src, .value = value,
	};
}

/*
 * The paired route of 64-bit items from @s to receiver @d [RE,
 * HW-WIDE]: tiles whose physical ids differ by XOR 2 share the
 * double-width resources; the pair {d, d^2} is reached at
 * max(TimeToMux(s, d), TimeToMux(s, d^2)), and the member with the smaller
 * TimeToMux owns the pair's XPIC stream. Modelled: on a tie the lower id
 * owns it; when d^2 is the sender itself the pair's timing is
 * TimeToMux(s, d) and d owns it.
 */
struct ixc_xpairt {
	bool known;
	int t;
	uint32_t owner;
};

static bool ixc_xpair(const struct ipuxcom_xsim *sim, uint32_t s, uint32_t d, int t,
		      struct ixc_xpairt *out)
{
	uint32_t e = d ^ 2;
	unsigned int dir2 = 0;
	int t2 = 0;

	out->known = true;
	out->t = t;
	out->owner = d;
	if (e == s || e >= IPUXCOM_TILES)
		return true;
	if (ixc_timing_pair(sim->tm, s, e, &t2, &dir2, NULL, ""))
		return false;	/* a table model validated at load cannot get here */
	out->t = t2 > t ? t2 : t;
	if (t2 < t || (t2 == t && e < d))
		out->owner = e;
	return true;
}

/*
 * 64-bit items of @sg taken by rx->d (the pair's owner) during capture
 * events [lo, hi): two consecutive words per event, written in the same
 * event through the write pointer (modelled: it advances two words).
 */
static void ixc_xwide(struct ixc_xrx *rx, const struct ixc_xsend *sg, uint32_t s, int32_t a0,
		      int32_t lo, int32_t hi, int32_t wprog, int32_t wword)
{
	struct ipuxcom_xsim *sim = rx->sim;

	for (int32_t e = lo; e < hi; e++) {
		uint32_t src = sg->addr + 8 * (uint32_t)(e - a0);

		ixc_xcapture(rx, s, e, sg->start + (e - a0), src, wprog, wword, 1);
		ixc_xcapture(rx, s, e, sg->start + (e - a0), src + 4, wprog, wword, 0);
	}
	if (!ixc_xgrow((void **)&sim->spans, &sim->cap_spans, sim->nspans + 1,
		       sizeof(*sim->spans))) {
		rx->failed = true;
		return;
	}
	sim->spans[sim->nspans++] = (struct ixc_xspan){
		.x0 = lo, .x1 = hi, .prog = wprog, .word = wword, .tile = (uint16_t)rx->d,
		.src = (uint16_t)s,
	};
}

/*
 * The mux of rx->d selects @s during events [w0, w1) (@closed: a later
 * action ends the window; otherwise the phase does).
 */
static void ixc_xwindow(struct ixc_xrx *rx, uint32_t s, int32_t w0, int32_t w1, bool closed,
			int32_t wprog, int32_t wword)
{
	struct ipuxcom_xsim *sim = rx->sim;
	uint32_t d = rx->d, nstreams = 0, last_stream = UINT32_MAX, first_stream = 0;
	uint32_t taken = 0, blocked = 0, stream_taken = 0, blocked_dir = 0;
	int32_t first = 0, last = 0, stream_start = 0, first_start = 0;
	bool partial = false, any = (sim->cfg.flags & IPUXCOM_XSIM_ANY_DIRECTION) != 0;
	unsigned int rdir = 0;
	uint32_t not_owner = 0;
	struct ixc_xpairt pair = { 0 };
	int t = 0;

	if (ixc_timing_pair(sim->tm, s, d, &t, &rdir, NULL, ""))
		return;		/* a table model validated at load cannot get here */
	for (uint32_t k = sim->send_first[s]; k < sim->send_first[s + 1]; k++) {
		const struct ixc_xsend *sg = &sim->sends[k];
		int32_t a0 = sg->start + t, a1, lo, hi;

		if (sg->wide) {
			if (!pair.known && !ixc_xpair(sim, s, d, t, &pair))
				return;
			a0 = sg->start + pair.t;
		}
		a1 = a0 + (int32_t)sg->n;
		lo = a0 > w0 ? a0 : w0;
		hi = a1 < w1 ? a1 : w1;
		if (lo >= hi)
			continue;
		if (!any && !(sg->dir & rdir)) {
			blocked += (uint32_t)(hi - lo);
			blocked_dir = sg->dir;
			continue;
		}
		if (sg->wide && pair.owner != d) {
			not_owner += (uint32_t)(hi - lo);
			continue;
		}
		if (sg->stream != last_stream) {
			if (last_stream != UINT32_MAX && stream_taken < sim->stream_words[last_stream])
				partial = true;
			if (!nstreams) {
				first_stream = sg->stream;
				first_start = sg->start;
			}
			nstreams++;
			last_stream = sg->stream;
			stream_taken = 0;
			stream_start = sg->start;
		}
		stream_taken += (1u + sg->wide) * (uint32_t)(hi - lo);
		if (!taken)
			first = lo;
		last = hi - 1;
		taken += (1u + sg->wide) * (uint32_t)(hi - lo);
		if (sg->wide)
			ixc_xwide(rx, sg, s, a0, lo, hi, wprog, wword);
		else
			for (int32_t e = lo; e < hi; e++)
				ixc_xcapture(rx, s, e, sg->start + (e - a0),
					     sg->addr + 4 * (uint32_t)(e - a0), wprog, wword, 0);
	}
	if (last_stream != UINT32_MAX && stream_taken < sim->stream_words[last_stream])
		partial = true;
	if (!taken) {
		if (not_owner)
			ixc_xhazard(sim, H(H_MISSED), d, s, w0, wprog, wword,
				    "mux selected physical %u during events %d..%d: nothing taken; "
				    "%u 64-bit item%s passed, which the pair {%u, %u} takes through "
				    "the XPIC stream of its owner, physical %u (the smaller "
				    "TimeToMux (reverse-engineered))", s, w0, w1 - 1, not_owner,
				    not_owner == 1 ? "" : "s", d < (d ^ 2) ? d : d ^ 2,
				    d < (d ^ 2) ? d ^ 2 : d, pair.owner);
		else if (blocked)
			ixc_xhazard(sim, H(H_MISSED), d, s, w0, wprog, wword,
				    "mux selected physical %u during events %d..%d: nothing reached "
				    "it; %u word%s passed in direction %u, which does not reach this "
				    "tile (direction(%u, %u) = %u, modelled)", s, w0, w1 - 1, blocked,
				    blocked == 1 ? "" : "s", blocked_dir, s, d, rdir);
		else
			ixc_xhazard(sim, H(H_MISSED), d, s, w0, wprog, wword,
				    "mux selected physical %u during events %d..%d: nothing arrived "
				    "(TimeToMux %d)", s, w0, w1 - 1, t);
		return;
	}
	if (nstreams >= 2)
		ixc_xhazard(sim, H(H_MUX_OVERLAP), d, s, w0, wprog, wword,
			    "mux open on physical %u during events %d..%d took words of %u "
			    "streams: another stream of the source passed while it was open "
			    "(first stream sent at event %d, %u words)", s, w0, w1 - 1, nstreams,
			    first_start, sim->stream_words[first_stream]);
	else if (partial && rx->decl1 == rx->decl0)
		ixc_xhazard(sim, H(H_MISSED), d, s, w0, wprog, wword,
			    "mux open on physical %u during events %d..%d took %u of the %u words "
			    "of the stream sent at event %d", s, w0, w1 - 1, taken,
			    sim->stream_words[last_stream], stream_start);
	if (closed && (first > w0 || last < w1 - 1))
		ixc_xhazard(sim, H(N_IDLE_WINDOW), d, s, w0, wprog, wword,
			    "mux open on physical %u during events %d..%d: nothing arrived for %d "
			    "event%s before and %d after its %u words (%d..%d); physical row %u: "
			    "harmless unless the source sends again then (modelled: the exact window "
			    "above row 0 is not known)",
			    s, w0, w1 - 1, first - w0, first - w0 == 1 ? "" : "s", w1 - 1 - last,
			    taken, first, last, ixc_phys_row(d));
}

/* Walk the mux settings of tile @d. */
static void ixc_xreceive(struct ipuxcom_xsim *sim, uint32_t d, int32_t horizon,
			 int32_t phase_end, bool *failed)
{
	struct ixc_xrx rx = {
		.sim = sim, .d = d, .phase_end = phase_end,
		.latency = (int32_t)(IPUXCOM_XSIM_WRITE_LATENCY + 2 * ixc_phys_row(d)),
		.pics = &sim->pic[sim->pic_first[d]],
		.npics = sim->pic_first[d + 1] - sim->pic_first[d],
		.decl0 = sim->decl_first[d], .decl1 = sim->decl_first[d + 1],
	};
	const struct ixc_xact *m = &sim->mux[sim->mux_first[d]];
	size_t n = sim->mux_first[d + 1] - sim->mux_first[d];
	uint32_t src = IXC_XMUX_OFF;
	int32_t w0 = 0, wprog = -1, wword = -1;

	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && m[i + 1].event == m[i].event)
			ixc_xhazard(sim, H(H_ACTION_CONFLICT), d, m[i + 1].value, m[i].event,
				    m[i + 1].prog, m[i + 1].word,
				    "two mux settings at event %d (programs %d and %d): the later "
				    "program's is taken (modelled)", m[i].event, m[i].prog,
				    m[i + 1].prog);
		if (src != IXC_XMUX_OFF && m[i].event > w0)
			ixc_xwindow(&rx, src, w0, m[i].event, true, wprog, wword);
		src = m[i].value;
		w0 = m[i].event;
		wprog = m[i].prog;
		wword = m[i].word;
	}
	if (src != IXC_XMUX_OFF) {
		int32_t w1 = w0 + 1;

		/* Open to the end: up to the last word the source can still deliver. */
		for (uint32_t k = sim->send_first[src]; k < sim->send_first[src + 1]; k++) {
			int32_t e = sim->sends[k].start + (int32_t)sim->sends[k].n +
				    IPUXCOM_WORST_RECV_DELAY;

			if (e > w1)
				w1 = e;
		}
		if (w1 > horizon)
			w1 = horizon > w0 ? horizon : w0 + 1;
		ixc_xhazard(sim, H(H_MUX_OPEN_AT_END), d, src, w0, wprog, wword,
			    "mux still selects physical %u when the tile's rows end (br $m10 at "
			    "event %d): no restore to 0x640; a later phase can take unrelated "
			    "traffic (recorded on a C600)", src, sim->tile_end[d]);
		ixc_xwindow(&rx, src, w0, w1, false, wprog, wword);
	}
	*failed |= rx.failed;
}

/* ------------------------------------------------- pairs and SRAM elements */

/*
 * A 64-bit send of tile @t while its pair partner sends (modelled: the
 * pair's double-width outgoing resources carry one of them [RE]).
 */
static void ixc_xpair_sends(struct ipuxcom_xsim *sim, uint32_t t)
{
	uint32_t e = t ^ 2;

	if (e >= IPUXCOM_TILES)
		return;
	for (uint32_t k = sim->send_first[t]; k < sim->send_first[t + 1]; k++) {
		const struct ixc_xsend *a = &sim->sends[k];

		if (!a->wide)
			continue;
		for (uint32_t j = sim->send_first[e]; j < sim->send_first[e + 1]; j++) {
			const struct ixc_xsend *b = &sim->sends[j];
			int32_t lo = a->start > b->start ? a->start : b->start;
			int32_t ae = a->start + (int32_t)a->n, be = b->start + (int32_t)b->n;

			if (lo < (ae < be ? ae : be))
				ixc_xhazard(sim, H(H_PAIR_CONFLICT), t, e, lo, a->prog, a->word,
					    "64-bit send at events %d..%d while the pair partner, "
					    "physical %u, sends at %d..%d: the pair's double-width "
					    "resources (reverse-engineered) carry one stream at a time (modelled)",
					    a->start, ae - 1, e, b->start, be - 1);
		}
	}
}

/* first[t]: first write of tile t in the write log (written in tile order). */
static void ixc_xwlog_index(const struct ipuxcom_xsim *sim, uint32_t *first)
{
	IXC_XINDEX(first, sim->wlog, sim->nwlog);
}

/*
 * A pair owner's 64-bit reception while its partner takes words
 * (modelled: the item uses the pair's double-width incoming resources).
 * Partners are on one physical row, so capture events compare as writes.
 */
static void ixc_xpair_receives(struct ipuxcom_xsim *sim, const uint32_t *wfirst)
{
	for (size_t i = 0; i < sim->nspans; i++) {
		const struct ixc_xspan *sp = &sim->spans[i];
		uint32_t e = (uint32_t)sp->tile ^ 2;
		int32_t lat = (int32_t)(IPUXCOM_XSIM_WRITE_LATENCY + 2 * ixc_phys_row(sp->tile));

		if (e >= IPUXCOM_TILES)
			continue;
		for (uint32_t k = wfirst[e]; k < wfirst[e + 1]; k++) {
			const struct ipuxcom_xsim_write *w = &sim->wlog[k];
			int32_t x = w->event - lat;

			if (x >= sp->x0 && x < sp->x1)
				ixc_xhazard(sim, H(H_PAIR_CONFLICT), e, sp->src, x, -1, -1,
					    "took a word of physical %u at event %d while its pair "
					    "partner, physical %u, takes 64-bit items of physical %u "
					    "(events %d..%d) on the pair's double-width resources "
					    "(reverse-engineered, modelled)", w->src_tile, x, sp->tile, sp->src,
					    sp->x0, sp->x1 - 1);
		}
	}
}

/* Bit mask of the memory elements [RE] of @bytes bytes from @addr (inside SRAM). */
static uint64_t ixc_xelems(uint32_t addr, uint64_t bytes)
{
	uint32_t a, b;

	if (!bytes || !ixc_xin_sram(addr, bytes))
		return 0;
	a = ixc_xelem(addr);
	b = ixc_xelem(addr + (uint32_t)bytes - 1);
	return (b >= 63 ? ~0ull : (2ull << b) - 1) & ~((1ull << a) - 1);
}

/*
 * SRAM elements (16 KiB [RE]). Error: a send read or an incoming write on
 * an element holding the tile's code (programs with a code address): the
 * notes require elem(data/result) != elem(planBuf) [S], and instruction
 * fetch contends with both [RE]. Note: a send read and an incoming write
 * on one element in one event: they can contend [RE]; the effect of one
 * event's contention is not known (modelled).
 */
static void ixc_xsram_elements(struct ipuxcom_xsim *sim, const uint32_t *wfirst)
{
	uint64_t codes[IPUXCOM_TILES] = { 0 };

	for (size_t i = 0; i < sim->nprogs; i++)
		if (sim->progs[i].code_addr)
			codes[sim->progs[i].tile] |= ixc_xelems(sim->progs[i].code_addr,
								(uint64_t)sim->progs[i].n * 4);
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
		uint32_t s0 = sim->send_first[t], s1 = sim->send_first[t + 1];
		uint64_t code = codes[t];

		for (uint32_t k = s0; code && k < s1; k++) {
			const struct ixc_xsend *sg = &sim->sends[k];
			uint64_t m = ixc_xelems(sg->addr, (uint64_t)sg->n * 4 * (1u + sg->wide));

			if (m & code)
				ixc_xhazard(sim, H(H_SRAM_FETCH), t, UINT32_MAX, sg->start, sg->prog,
					    sg->word, "send reads 0x%x..: a 16 KiB memory element "
					    "that holds the tile's code (the notes require "
					    "elem(data) != elem(planBuf) (recorded on a C600); fetch contends (reverse-engineered))",
					    sg->addr);
		}
		for (uint32_t k = wfirst[t]; k < wfirst[t + 1]; k++) {
			const struct ipuxcom_xsim_write *w = &sim->wlog[k];
			uint32_t el = ixc_xelem(w->addr);

			if (code & (1ull << el))
				ixc_xhazard(sim, H(H_SRAM_FETCH), t, w->src_tile, w->event, -1, -1,
					    "write to 0x%x: a 16 KiB memory element that holds the "
					    "tile's code (the notes require elem(result) != "
					    "elem(planBuf) (recorded on a C600); fetch contends (reverse-engineered))", w->addr);
			for (uint32_t j = s0; j < s1; j++) {
				const struct ixc_xsend *sg = &sim->sends[j];
				int32_t off = w->event - sg->start;
				uint32_t rd;

				if (off < 0 || off >= (int32_t)sg->n || !sg->dir)
					continue;
				rd = sg->addr + 4 * (1u + sg->wide) * (uint32_t)off;
				if (ixc_xin_sram(rd, 4) && ixc_xelem(rd) == el)
					ixc_xhazard(sim, H(N_SRAM_CONTENTION), t, w->src_tile,
						    w->event, sg->prog, sg->word,
						    "event %d: the send reads 0x%x and a word of "
						    "physical %u is written to 0x%x, both in memory "
						    "element %u (16 KiB): they can contend (reverse-engineered); what "
						    "that does in one event is not known (modelled)",
						    w->event, rd, w->src_tile, w->addr, el);
			}
		}
	}
}

/* ------------------------------------------------------------------ run */

static bool ixc_xprepare(struct ipuxcom_xsim *sim)
{
	size_t words = (sim->nbits + 63) / 64;

	if (!ixc_xgrow((void **)&sim->bits, &sim->cap_bits, words ? words : 1, sizeof(*sim->bits)) ||
	    !ixc_xgrow((void **)&sim->decl_order, &sim->cap_decl_order,
		       sim->ndecls ? sim->ndecls : 1, sizeof(*sim->decl_order)))
		return false;
	memset(sim->bits, 0, (words ? words : 1) * sizeof(*sim->bits));
	for (size_t i = 0; i < sim->ndecls; i++)
		sim->decls[i].delivered = 0;
	/* Declarations by receiver tile (counting sort, stable). */
	memset(sim->decl_first, 0, sizeof(sim->decl_first));
	for (size_t i = 0; i < sim->ndecls; i++)
		sim->decl_first[sim->decls[i].tile + 1]++;
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++)
		sim->decl_first[t + 1] += sim->decl_first[t];
	{
		uint32_t pos[IPUXCOM_TILES];

		memcpy(pos, sim->decl_first, sizeof(pos));
		for (size_t i = 0; i < sim->ndecls; i++)
			sim->decl_order[pos[sim->decls[i].tile]++] = (uint32_t)i;
	}
	return true;
}

int ixc_xsim_run(struct ipuxcom_xsim *sim, struct ipuxcom_plan_error *err)
{
	struct ipuxcom_xsim_result *res = &sim->res;
	bool failed = false;
	int32_t horizon = (int32_t)sim->max_events, last = 0, phase_end = 0;

	ixc_xsim_clear_run(sim);
	if (!ixc_xprepare(sim))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "sim", "sim: out of memory");
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++)
		sim->tile_end[t] = -1;
	for (size_t i = 0; i < sim->nprogs; i++) {
		int32_t end = ixc_xparse_prog(sim, (int32_t)i, &failed);
		uint32_t t = sim->progs[i].tile;

		if (end > sim->tile_end[t])
			sim->tile_end[t] = end;
		if (end > phase_end)
			phase_end = end;
	}
	if (failed)
		goto nomem;
	if (sim->nsends)
		qsort(sim->sends, sim->nsends, sizeof(*sim->sends), ixc_xsend_cmp);
	if (sim->nmux)
		qsort(sim->mux, sim->nmux, sizeof(*sim->mux), ixc_xact_cmp);
	if (sim->npic)
		qsort(sim->pic, sim->npic, sizeof(*sim->pic), ixc_xact_cmp);
	IXC_XINDEX(sim->send_first, sim->sends, sim->nsends);
	IXC_XINDEX(sim->mux_first, sim->mux, sim->nmux);
	IXC_XINDEX(sim->pic_first, sim->pic, sim->npic);

	/* One outgoing word per tile per event [RE]; one PIC setting per event. */
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
		for (uint32_t k = sim->send_first[t] + 1; k < sim->send_first[t + 1]; k++) {
			const struct ixc_xsend *a = &sim->sends[k - 1], *b = &sim->sends[k];

			if (b->start < a->start + (int32_t)a->n)
				ixc_xhazard(sim, H(H_SEND_CONFLICT), t, UINT32_MAX, b->start, b->prog,
					    b->word, "sends of programs %d and %d overlap at events "
					    "%d..%d: two outgoing words in one event", a->prog,
					    b->prog, b->start, a->start + (int32_t)a->n - 1);
		}
		ixc_xpair_sends(sim, t);
		for (uint32_t k = sim->pic_first[t] + 1; k < sim->pic_first[t + 1]; k++)
			if (sim->pic[k].event == sim->pic[k - 1].event)
				ixc_xhazard(sim, H(H_ACTION_CONFLICT), t, UINT32_MAX, sim->pic[k].event,
					    sim->pic[k].prog, sim->pic[k].word,
					    "two PIC settings at event %d (programs %d and %d): the later "
					    "program's is taken (modelled)", sim->pic[k].event,
					    sim->pic[k - 1].prog, sim->pic[k].prog);
	}
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
		if (sim->mux_first[t + 1] > sim->mux_first[t])
			ixc_xreceive(sim, t, horizon, phase_end, &failed);
		if (sim->send_first[t + 1] > sim->send_first[t] ||
		    sim->mux_first[t + 1] > sim->mux_first[t])
			res->active_tiles++;
		if (sim->tile_end[t] >= 0) {
			res->tiles++;
			res->tile_events += (uint64_t)sim->tile_end[t] + 1;
			if (sim->tile_end[t] + 1 > last)
				last = sim->tile_end[t] + 1;
		} else if (sim->cfg.flags & IPUXCOM_XSIM_ALL_TILES) {
			ixc_xhazard(sim, H(H_NO_ROW), t, UINT32_MAX, 0, -1, -1,
				    "tile %u (the first; occurrences: all) runs no row: every tile "
				    "must run its role or the non-participation row sans; sync 1 in "
				    "every pass (recorded on a C600)", t);
		}
	}
	if (failed)
		goto nomem;
	{
		uint32_t wfirst[IPUXCOM_TILES + 1];

		ixc_xwlog_index(sim, wfirst);
		ixc_xpair_receives(sim, wfirst);
		ixc_xsram_elements(sim, wfirst);
	}
	/* Declared transfers delivered in full. */
	for (size_t i = 0; i < sim->ndecls; i++) {
		const struct ixc_xdecl *dc = &sim->decls[i];

		if (dc->delivered == dc->count) {
			res->delivered++;
			continue;
		}
		ixc_xhazard(sim, H(H_MISSED), dc->tile, dc->sender, 0, -1, -1,
			    "declared transfer %u: %u of %u words from physical %u (0x%x) reached "
			    "0x%x%s", dc->xfer, dc->delivered, dc->count, dc->sender, dc->src,
			    dc->dst, sim->tile_nprogs[dc->tile] ? "" : " (the tile runs no row)");
	}
	for (uint32_t k = 0; k < sim->nsends; k++) {
		int32_t e = sim->sends[k].start + (int32_t)sim->sends[k].n;

		if (e > last)
			last = e;
	}
	/* The phase's writes land (modelled: after every word has moved). */
	for (size_t i = 0; i < sim->nwlog; i++) {
		const struct ipuxcom_xsim_write *w = &sim->wlog[i];

		if (ixc_xsram_put(sim, w->tile, w->addr, w->value))
			goto nomem;
		if (w->event + 1 > last)
			last = w->event + 1;
	}
	if (last > (int32_t)sim->max_events)
		last = (int32_t)sim->max_events;	/* nothing is simulated beyond the bound */
	res->words_written = sim->nwlog;
	if (!(sim->cfg.flags & IPUXCOM_XSIM_LOG_WRITES))
		sim->nwlog = 0;
	res->events = (uint32_t)last;
	res->programs = (uint32_t)sim->nprogs;
	res->streams = sim->nstreams;
	res->declared = (uint32_t)sim->ndecls;
	ixc_timing_report(sim->tm, &res->timing_kind, res->timing_model);

	/* Errors first, then notes, each in order of discovery. */
	{
		size_t n = sim->nhaz, k = 0;

		for (size_t i = 0; i < n; i++)
			if (sim->haz[i].severity != IPUXCOM_XSIM_NOTE)
				sim->haz_tmp[k++] = sim->haz[i];
		res->errors = (uint32_t)k;
		for (size_t i = 0; i < n; i++)
			if (sim->haz[i].severity == IPUXCOM_XSIM_NOTE)
				sim->haz_tmp[k++] = sim->haz[i];
		res->notes = (uint32_t)(n - res->errors);
		memcpy(sim->haz, sim->haz_tmp, n * sizeof(*sim->haz));
	}
	sim->ran = true;
	return 0;
nomem:
	return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "sim", "sim: out of memory");
}
