/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Internals of the exchange-plan part of libipuxcom (ipuxcom_plan.h),
 * shared by tilemap.c, timing.c, isa.c and plan_*.c, and reachable by the
 * host tests through the static archive. Every name is ixc_*: the version
 * script exports ipuxcom_* only.
 */
#ifndef IPUXCOM_PLAN_INTERNAL_H
#define IPUXCOM_PLAN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ipuxcom_plan.h"

/* ------------------------------------------------------------------ errors */

/*
 * Fill @err (may be NULL) with @code, @field and the formatted message,
 * and return the negative errno belonging to @code (for E_IO: -@io_errno
 * given through ixc_plan_fail_io()).
 */
__attribute__((format(printf, 4, 5)))
int ixc_plan_fail(struct ipuxcom_plan_error *err, int code, const char *field,
		  const char *fmt, ...);
/* The same with the negative errno @ret instead of @code's (E_SIZE's -E2BIG). */
__attribute__((format(printf, 5, 6)))
int ixc_plan_fail_ret(struct ipuxcom_plan_error *err, int code, int ret, const char *field,
		      const char *fmt, ...);
__attribute__((format(printf, 4, 5)))
int ixc_plan_fail_io(struct ipuxcom_plan_error *err, int io_errno, const char *field,
		     const char *fmt, ...);

/* The negative errno of @code. */
int ixc_plan_errno(int code);

static inline void ixc_plan_ok(struct ipuxcom_plan_error *err)
{
	if (err) {
		err->code = IPUXCOM_PLAN_OK;
		err->err = 0;
		err->field[0] = '\0';
		err->msg[0] = '\0';
	}
}

/* ------------------------------------------------------- sized structs, ids */

/*
 * An input struct of @lib_size bytes whose first member is its size: copy
 * it into @copy (members past a smaller size zero), or fail with E_SIZE
 * naming @field (-EINVAL for 0 or below @min, -E2BIG for a bigger
 * one with unknown members set). @field is "name.size", @init the macro
 * to use. @in must not be NULL.
 */
int ixc_sized_in(void *copy, size_t lib_size, const void *in, size_t min, const char *field,
		 const char *init, struct ipuxcom_plan_error *err);
/* An output struct's size: E_SIZE @field (-EINVAL) for 0 or below @min. */
int ixc_sized_out_check(const void *out, size_t min, const char *field, const char *init,
			struct ipuxcom_plan_error *err);
/* The caller's size member of a sized struct. */
static inline uint32_t ixc_sized(const void *p)
{
	uint32_t size;

	memcpy(&size, p, sizeof(size));
	return size;
}

/*
 * The fan-out request @req (not NULL) into @copy: ixc_sized_in() as
 * "req.size"; the copy's size is this library's.
 */
int ixc_req_in(const struct ipuxcom_fanout_req *req, struct ipuxcom_fanout_req *copy,
	       struct ipuxcom_plan_error *err);

/*
 * The common entry of the row-writing fan-out planners: @rows and @req not
 * NULL (E_NULL), @req into @copy (ixc_req_in()), and @info, if any, of at
 * least @info_min bytes ("info.size", its initialiser @info_init).
 */
int ixc_fanout_in(const struct ipuxcom_fanout_req *req, const void *rows,
		  struct ipuxcom_fanout_req *copy, const void *info, size_t info_min,
		  const char *info_init, struct ipuxcom_plan_error *err);

/*
 * Tile numbering of @flags (the member or argument named @field): logical
 * unless IPUXCOM_PLAN_PHYSICAL; both it and IPUXCOM_PLAN_LOGICAL are
 * E_FLAGS. Unknown bits are the caller's to check.
 */
static inline int ixc_numbering(uint32_t flags, bool *logical, const char *field,
				struct ipuxcom_plan_error *err)
{
	if (__builtin_expect((flags & (IPUXCOM_PLAN_LOGICAL | IPUXCOM_PLAN_PHYSICAL)) ==
			     (IPUXCOM_PLAN_LOGICAL | IPUXCOM_PLAN_PHYSICAL), 0))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, field,
				     "%s 0x%x sets both IPUXCOM_PLAN_LOGICAL and "
				     "IPUXCOM_PLAN_PHYSICAL", field, flags);
	*logical = !(flags & IPUXCOM_PLAN_PHYSICAL);
	return 0;
}

/* The numbering flags every call with tile ids accepts. */
#define IXC_NUMBERING	(IPUXCOM_PLAN_LOGICAL | IPUXCOM_PLAN_PHYSICAL)

/* ---------------------------------------------------------------- tile map */

/* [S "No-Blob Replacement Status"]: the logical -> physical formula. */
static inline uint32_t ixc_l2p(uint32_t logical)
{
	uint32_t pair = logical / 2, lane = logical & 1;
	uint32_t block = pair / IPUXCOM_PHYS_ROWS, row = pair % IPUXCOM_PHYS_ROWS;

	if (block & 1)
		row = IPUXCOM_PHYS_ROWS - 1 - row;
	return row * IPUXCOM_PHYS_COLS + (block / 2) * 4 + (block & 1) + lane * 2;
}

/* The formula's inverse, derived in tilemap.c. */
uint32_t ixc_p2l(uint32_t physical);

static inline uint32_t ixc_phys_row(uint32_t physical)
{
	return physical / IPUXCOM_PHYS_COLS;
}

/* The E_TILE failure of ixc_tile_resolve(), out of line. */
int ixc_tile_bad(uint32_t id, bool logical, struct ipuxcom_plan_error *err, const char *field);

/*
 * Resolve @id (logical when @logical) into a physical id, failing with
 * E_TILE naming @field ("sender", "receivers[3]", ...).
 */
static inline int ixc_tile_resolve(uint32_t id, bool logical, uint32_t *physical,
				   struct ipuxcom_plan_error *err, const char *field)
{
	if (__builtin_expect(id >= IPUXCOM_TILES, 0))
		return ixc_tile_bad(id, logical, err, field);
	*physical = logical ? ixc_l2p(id) : id;
	return 0;
}

/* ------------------------------------------------------------ timing model */

/* ------------------------------------------- TimeToMux reconstruction [RE] */

/*
 * HW-TIMETOMUX of the hardware record, transcribed verbatim: the public
 * reconstruction from osmarks/ipu-stack [RE]. Over all ordered pairs of
 * distinct physical tiles its range is exactly [-78, 112] [DW].
 *
 * HW-TIMETOMUX [RE]: c(x) = (x >> 2) & 15; fold(v) = v ^ 15 when v > 7, else v;
 * edge(v) = (4v) ^ 60 when v > 7, else 4v;
 * disp(s, d) = 6*(fold(c(d)) - fold(c(s)) - ((c(s) >> 3) ^ (s & 1))) + k,
 *   lane = d & 3, half = c(d) >> 3:
 *   lane > 1:  k = 2 if half == (d & 1) else 4
 *   lane <= 1: k = 1 if half == lane    else 5
 * In both cases the comparison is half == (d & 1), since lane & 1 == d & 1
 * and lane == lane & 1 when lane <= 1; then k = 1 + hi when equal, 5 - hi
 * otherwise, with hi = (lane > 1) (IXC_TERM_K below).
 * TimeToMux(s, d) = crossing + edge(c(s)) + turn - edge(c(d)) + group + |disp| - 34,
 *   low = (s >> 2) & 7,
 *   crossing = (((s >> 2) & 8) | ((s >> 3) & 3)) - c(d) + ((low >> 1) ^ 3),
 *   turn = low + 1 if ((s ^ d) & 0x20) == 0 else 16 - low,
 *   group = 2 * (((s >> 6) & 31) - ((d >> 6) & 31)).
 */

/* direction(s, d) = 2 if disp(s, d) < 1 else 1 [RE] */
static inline unsigned int ixc_dir_of_disp(int disp)
{
	return disp < 1 ? 2 : 1;
}

/*
 * The formula split into per-tile terms, so the assemblers' inner loops do
 * a few loads and adds (no new fact: an algebraic rearrangement of it).
 * disp(s, d) = 6*fold(c(d)) + k(d) - 6*(fold(c(s)) + ((c(s) >> 3) ^ (s & 1)))
 *            = dd(d) - ss(s), and
 * TimeToMux(s, d) = a(s, bit 5 of s ^ d) + b(d) + |dd(d) - ss(s)|, with
 *   a(s, x) = crossing's source part + edge(c(s)) + turn(s, x) + 2*row(s) - 34
 *   b(d)    = -c(d) - edge(c(d)) - 2*row(d)
 * where row(t) = (t >> 6) & 31. Every term fits an int8. The table
 * ixc_tile_terms[] is a compile-time constant (timing.c); plan_timing_test
 * checks every ordered pair against its own transcription of HW-TIMETOMUX.
 */
#define IXC_C(x)		((int)(((x) >> 2) & 15))
#define IXC_FOLD(v)		((v) > 7 ? (v) ^ 15 : (v))
#define IXC_EDGE(v)		((v) > 7 ? (4 * (v)) ^ 60 : 4 * (v))
#define IXC_LOW(s)		((int)(((s) >> 2) & 7))
#define IXC_TROW(t)		((int)(((t) >> 6) & 31))
#define IXC_TERM_A(s, turn)	((int)((((s) >> 2) & 8) | (((s) >> 3) & 3)) +			\
				 ((IXC_LOW(s) >> 1) ^ 3) + IXC_EDGE(IXC_C(s)) + (turn) +	\
				 2 * IXC_TROW(s) - 34)
#define IXC_TERM_A0(s)		IXC_TERM_A(s, IXC_LOW(s) + 1)
#define IXC_TERM_A1(s)		IXC_TERM_A(s, 16 - IXC_LOW(s))
#define IXC_TERM_SS(s)		(6 * (IXC_FOLD(IXC_C(s)) + ((IXC_C(s) >> 3) ^ (int)((s) & 1))))
#define IXC_TERM_K(d)		((IXC_C(d) >> 3) == (int)((d) & 1) ?				\
				 1 + (int)(((d) >> 1) & 1) : 5 - (int)(((d) >> 1) & 1))
#define IXC_TERM_DD(d)		(6 * IXC_FOLD(IXC_C(d)) + IXC_TERM_K(d))
#define IXC_TERM_B(d)		(-IXC_C(d) - IXC_EDGE(IXC_C(d)) - 2 * IXC_TROW(d))

struct ixc_tile_term {
	int8_t a[2];	/* a(t, 0), a(t, 1): t as the source */
	int8_t ss;	/* ss(t): t as the source */
	int8_t b;	/* b(t): t as the destination */
	int8_t dd;	/* dd(t): t as the destination */
	int8_t pad[3];
};

extern const struct ixc_tile_term ixc_tile_terms[IPUXCOM_TILES];

/* TimeToMux(s, d) and, in *dir, direction(s, d) [RE], through the per-tile terms. */
static inline int ixc_recon_pair_inline(uint32_t s, uint32_t d, unsigned int *dir)
{
	const struct ixc_tile_term *ts = &ixc_tile_terms[s], *td = &ixc_tile_terms[d];
	int disp = td->dd - ts->ss;

	*dir = ixc_dir_of_disp(disp);
	return ts->a[((s ^ d) >> 5) & 1] + td->b + (disp < 0 ? -disp : disp);
}

/*
 * The same reconstruction for the p2p planner, one load per pair: every
 * term of the formula but group reads only bits 0..5 of s and d (c(), low,
 * s & 1, d & 3 and bit 5 of s ^ d), and group = 2 * (row(s) - row(d)), so
 *   TimeToMux(s, d) = ixc_ttm64[s & 63][d & 63].f + 2 * (row(s) - row(d)),
 *   direction(s, d) = ixc_ttm64[s & 63][d & 63].dir
 * (an algebraic rearrangement again, no new fact; .f is within -34..68).
 * A compile-time table of 8 KiB (timing.c); plan_p2p_test compares the
 * plans of every ordered pair with ipuxcom_time_to_mux() and
 * ipuxcom_route_direction().
 */
struct ixc_ttm64 {
	int8_t f;	/* TimeToMux(s, d) - 2 * (row(s) - row(d)) */
	uint8_t dir;	/* direction(s, d), 1 or 2 */
};

extern const struct ixc_ttm64 ixc_ttm64[64][64];

/* TimeToMux(s, d) and, in *dir, direction(s, d) [RE], through ixc_ttm64[][]. */
static inline int ixc_recon_pair64(uint32_t s, uint32_t d, unsigned int *dir)
{
	const struct ixc_ttm64 *e = &ixc_ttm64[s & 63][d & 63];

	*dir = e->dir & 3u;	/* & 3: what the encoders' direction field holds, so no check is left to run */
	return e->f + 2 * ((int)(s >> 6) - (int)(d >> 6));
}

/* The one interface every timing model implements. */
struct ixc_timing_ops {
	/*
	 * TimeToMux(@s, @d) as the return value and direction(@s, @d) in
	 * *@dir, for physical @s != @d, both < 1472 (checked by the caller).
	 */
	int (*pair)(const struct ipuxcom_timing *tm, uint32_t s, uint32_t d, unsigned int *dir);
};

struct ipuxcom_timing {
	const struct ixc_timing_ops *ops;
	int kind;				/* enum ipuxcom_timing_kind */
	char name[IPUXCOM_TIMING_NAME_LEN];	/* "reconstruction", "table:NAME" */
	int8_t *tmux;				/* table: [s * 1472 + d] */
	uint8_t *dir;				/* table directions, or NULL */
};

extern const struct ipuxcom_timing ixc_default_timing;
extern const struct ixc_timing_ops ixc_recon_ops;
/* The ops of ipuxcom_timing_from_table() / _load() models (timing.c). */
extern const struct ixc_timing_ops ixc_table_ops;

/*
 * A table model's pair (ixc_table_ops), inline for the p2p planner: its
 * TimeToMux, and its direction or, without a direction table, the
 * reconstruction's.
 */
static inline int ixc_table_pair_inline(const struct ipuxcom_timing *tm, uint32_t s, uint32_t d,
					unsigned int *dir)
{
	size_t i = (size_t)s * IPUXCOM_TILES + d;

	if (tm->dir)
		*dir = tm->dir[i];
	else
		ixc_recon_pair64(s, d, dir);
	return tm->tmux[i];
}

/* The HW-TIMETOMUX reconstruction [RE], for physical s != d. */
int ixc_ttm_reconstruction(uint32_t s, uint32_t d);
unsigned int ixc_dir_reconstruction(uint32_t s, uint32_t d);

/* @tm or the default; never NULL. */
static inline const struct ipuxcom_timing *ixc_timing(const struct ipuxcom_timing *tm)
{
	return tm ? tm : &ixc_default_timing;
}

/* The E_TIMING failure of ixc_timing_pair(), out of line. */
int ixc_timing_bad(const struct ipuxcom_timing *tm, uint32_t s, uint32_t d, int t,
		   unsigned int dir, struct ipuxcom_plan_error *err, const char *field);

/*
 * TimeToMux and direction through the model, checked against -78..112
 * [DW] and {1, 2} (E_TIMING naming @field) so that no model can produce
 * a row the shapes do not cover.
 */
__attribute__((always_inline))
static inline int ixc_timing_pair(const struct ipuxcom_timing *tm, uint32_t s, uint32_t d,
				  int *t, unsigned int *dir, struct ipuxcom_plan_error *err,
				  const char *field)
{
	unsigned int r;
	/* The default model called directly: the same function, no indirect call. */
	int v = tm->ops == &ixc_recon_ops ? ixc_recon_pair_inline(s, d, &r) :
					    tm->ops->pair(tm, s, d, &r);

	if (__builtin_expect(v < -IPUXCOM_WORST_SEND_DELAY || v > IPUXCOM_WORST_RECV_DELAY ||
			     r - 1 > 1, 0))
		return ixc_timing_bad(tm, s, d, v, r, err, field);
	*t = v;
	*dir = r;
	return 0;
}

/* Copy the model's kind and name into a plan. */
static inline void ixc_timing_report(const struct ipuxcom_timing *tm, uint16_t *kind,
				     char name[IPUXCOM_TIMING_NAME_LEN])
{
	*kind = (uint16_t)tm->kind;
	memcpy(name, tm->name, IPUXCOM_TIMING_NAME_LEN);
}

/* ----------------------------------------------------------------- encoders */

/*
 * Fast encoders for the assemblers: the word, with every bit of a field
 * that does not fit ORed into *@bad instead of being masked away, so an
 * assembler bug surfaces as E_INTERNAL, never as a wrong word. Formulas
 * [S "Recovered Instruction Encodings"]. delaypic, delayxpic, send and
 * sendoff add their fields rather than OR them: the same word whenever
 * *@bad stays clear, and the compiler can then fold the opcode bits into
 * other constants and use lea (p2p plans: 98 instructions, not 102; delay
 * keeps its OR, which multicast's code is faster with).
 */
static inline uint32_t ixc_delay(uint32_t n, uint32_t *bad)
{
	*bad |= n >> 19;
	return 0x40a00000u | n;
}

static inline uint32_t ixc_delaypic(uint32_t a, uint32_t b, uint32_t c, uint32_t *bad)
{
	*bad |= (a >> 7) | (b >> 1) | (c >> 18);
	return 0x60000000u + (a << 19) + (b << 18) + c;
}

static inline uint32_t ixc_delayxpic(uint32_t a, uint32_t b, uint32_t c, uint32_t *bad)
{
	*bad |= (a >> 12) | (b >> 1) | (c >> 13);
	return 0x64000000u + (a << 14) + (b << 13) + c;
}

static inline uint32_t ixc_send(uint32_t a, uint32_t b, uint32_t dir, uint32_t *bad)
{
	*bad |= (a >> 6) | (b >> 18) | (dir >> 3);
	return 0x78000000u + (a << 21) + (b << 3) + dir;
}

static inline uint32_t ixc_sendoff(uint32_t a, uint32_t b, uint32_t dir, uint32_t *bad)
{
	*bad |= (a >> 12) | (b >> 11) | (dir >> 3);
	/* (a & 0x3f) << 21 | (a >> 6) << 14: one multiply puts a at bits 8 and 21 */
	return 0x70000000u + ((a * 0x200100u) & 0x7efc000u) + (b << 3) + dir;
}

/*
 * sendpic and the two words of sendpicp [RE, HW-MERGED], same contract.
 * sendpic's value is 13 bits for the XPIC
 * selectors 0-1: the excess bits of a PIC-width value go to *@bad then.
 */
static inline uint32_t ixc_sendpic(uint32_t a, uint32_t sel, uint32_t value, uint32_t *bad)
{
	*bad |= (a >> 6) | (sel >> 2) | (value >> (sel < 2 ? 13 : 18));
	return 0x70100000u | (a << 21) | (sel << 18) | value;
}

static inline void ixc_sendpicp(uint32_t picsel, uint32_t a, uint32_t src, uint32_t sctl,
				uint32_t xpic, uint32_t pic, uint32_t out[2], uint32_t *bad)
{
	*bad |= (picsel >> 1) | (a >> 6) | (src >> 18) | (sctl >> 3) | (xpic >> 14) | (pic >> 18);
	out[0] = 0xf0000000u | (picsel << 27) | (a << 21) | (src << 3) | sctl;
	out[1] = (xpic << 18) | pic;
}

/* sync 3, the first code word of every participating row [S]. */
#define IXC_SYNC3	IPUXCOM_WORD_SYNC_SUPERVISOR
/* delayxpic(112, 0, 0): the p2p receiver's patched word [S]. */
#define IXC_P2P_RECV_XPIC	0x641c0000u
/* The p2p receiver selects its source 112 events after sync [S], WORSTRECVDELAY [DW]. */
#define IXC_P2P_ARRIVAL	112

/*
 * The receive schedule after the first delayxpic [S "Recovered Plan
 * Shape"], three words into @out; @pic is the delaypic low field (0 for
 * p2p; flag | offset for multicast). Returns the index in @out of the
 * delaypic word.
 */
static inline unsigned int ixc_recv_schedule(uint32_t count, uint32_t row, uint32_t pic,
					     uint32_t out[3], uint32_t *bad)
{
	if (count <= 51) {
		out[0] = ixc_delayxpic(count - 1, 0, IPUXCOM_MUX_DISABLE, bad);
		out[1] = ixc_delaypic(51 - count + 2 * row, 0, pic, bad);
		out[2] = ixc_delay(count + 4, bad);
		return 1;
	}
	if (count == 52) {
		/* The address-independent replacement of the SDK's dual-issue bundle [S]. */
		out[0] = ixc_delaypic(50 + 2 * row, 0, pic, bad);
		out[1] = ixc_delayxpic(0, 0, IPUXCOM_MUX_DISABLE, bad);
	} else {
		out[0] = ixc_delaypic(51 + 2 * row, 0, pic, bad);
		out[1] = ixc_delayxpic(count - 53, 0, IPUXCOM_MUX_DISABLE, bad);
	}
	/* 56 = count + 4 at count 52; the notes give 56 for count >= 53 [S]. */
	out[2] = ixc_delay(56, bad);
	return 0;
}

/*
 * Write a whole row, every byte of it, from values in registers: @w0..@w8
 * are its words, the other arguments its members. Little-endian hosts
 * compose two 4-byte members in one register (six 8-byte stores a row);
 * others store them one by one. The assemblers use it instead of copying
 * a template row and patching it (a row copied from the stack and then
 * patched stalls on store forwarding: 2.7x slower multicasts), and it
 * beats nine word stores (multicast to 64 receivers 4.5x memcpy, not 4.9x).
 */
_Static_assert(sizeof(struct ipuxcom_plan_row) == 48 &&
	       offsetof(struct ipuxcom_plan_row, tile) == 36 &&
	       offsetof(struct ipuxcom_plan_row, role) == 38 &&
	       offsetof(struct ipuxcom_plan_row, nwords) == 39 &&
	       offsetof(struct ipuxcom_plan_row, patch) == 40 &&
	       offsetof(struct ipuxcom_plan_row, addr) == 41 &&
	       offsetof(struct ipuxcom_plan_row, reserved) == 42 &&
	       offsetof(struct ipuxcom_plan_row, event) == 44, "row layout");

static inline void ixc_put2(void *p, uint32_t lo, uint32_t hi)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t v = (uint64_t)lo | (uint64_t)hi << 32;

	memcpy(p, &v, sizeof(v));
#else
	memcpy(p, &lo, sizeof(lo));
	memcpy((char *)p + 4, &hi, sizeof(hi));
#endif
}

__attribute__((always_inline))
static inline void ixc_row_store(struct ipuxcom_plan_row *row, uint32_t w0, uint32_t w1,
				 uint32_t w2, uint32_t w3, uint32_t w4, uint32_t w5, uint32_t w6,
				 uint32_t w7, uint32_t w8, uint32_t tile, uint8_t role,
				 uint32_t nwords, int8_t patch, int8_t addr, int32_t event)
{
	char *p = (char *)row;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t meta = (tile & 0xffff) | (uint32_t)role << 16 | (nwords & 0xff) << 24;
	uint32_t pa = (uint32_t)(uint8_t)patch | (uint32_t)(uint8_t)addr << 8;
#endif

	ixc_put2(p, w0, w1);
	ixc_put2(p + 8, w2, w3);
	ixc_put2(p + 16, w4, w5);
	ixc_put2(p + 24, w6, w7);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	ixc_put2(p + 32, w8, meta);
	ixc_put2(p + 40, pa, (uint32_t)event);
#else
	row->words[8] = w8;
	row->tile = (uint16_t)tile;
	row->role = role;
	row->nwords = (uint8_t)nwords;
	row->patch = patch;
	row->addr = addr;
	row->reserved = 0;
	row->event = event;
#endif
}

/* An all-zero row of @tile and @role, without patch or address word. */
static inline void ixc_row_init(struct ipuxcom_plan_row *row, uint32_t tile, uint8_t role)
{
	*row = (struct ipuxcom_plan_row){ .tile = (uint16_t)tile, .role = role,
					  .patch = -1, .addr = -1 };
}

/*
 * The member of the pair {@r, @r ^ 2} that owns its XPIC stream for 64-bit
 * items from @s [RE, HW-WIDE]: the smaller TimeToMux
 * (@t to @r, @tp to the partner); a tie goes to the lower id (modelled,
 * the verifier's rule, xsim_run.c); @r when the partner is @s itself.
 */
static inline uint32_t ixc_wide_owner(uint32_t s, uint32_t r, int t, int tp)
{
	uint32_t p = r ^ 2;

	if (p == s)
		return r;
	return tp < t || (tp == t && p < r) ? p : r;
}

/*
 * ipuxcom_plan_multicast() with IPUXCOM_PLAN_WIDE in req->flags
 * (plan_multicast_wide.c): the 64-bit multicast, or the 32-bit one.
 */
/* The 32-bit multicast of a checked-size @req into this library's @info (may be NULL). */
int ixc_mcast32(const struct ipuxcom_timing *tm, const struct ipuxcom_fanout_req *req,
		struct ipuxcom_plan_row *rows, size_t nrows, struct ipuxcom_multicast_info *info,
		struct ipuxcom_plan_error *err);
int ixc_mcast_wide(const struct ipuxcom_timing *tm, const struct ipuxcom_fanout_req *req,
		   struct ipuxcom_plan_row *rows, size_t nrows, struct ipuxcom_multicast_info *info,
		   struct ipuxcom_plan_error *err);

/* ----------------------------------------------------- row parsing (patch) */

/* What a row this library emitted says about itself, read back from its words. */
struct ixc_row_shape {
	uint32_t count;		/* words sent / received */
	int send_index;		/* sender: index of the (first) send word */
	int pic_index;		/* receiver: index of the delaypic word */
	int xpic_index;		/* receiver: index of the first delayxpic */
};

/*
 * Recognise a sender row (sync 3; [delay]; send [sendoff]; ...) or a
 * receiver row (index; sync 3; delayxpic; schedule of count) from raw
 * words; E_WORD naming the mismatch otherwise.
 */
int ixc_parse_send_row(const uint32_t *w, size_t n, struct ixc_row_shape *shape,
		       struct ipuxcom_plan_error *err);
int ixc_parse_recv_row(const uint32_t *w, size_t n, struct ixc_row_shape *shape,
		       struct ipuxcom_plan_error *err);

/*
 * Check a multicast source (@dst false) or destination buffer of @count
 * words at byte address @addr; @field names it in the error.
 */
int ixc_check_sram(uint32_t addr, uint32_t count, bool dst, struct ipuxcom_plan_error *err,
		   const char *field);

/*
 * The checks every p2p plan starts with, in this order: @out not NULL,
 * its size, flags (the numbering ones only), @sender and @receiver in range;
 * their physical ids to *@s and *@r.
 */
int ixc_p2p_ends(uint32_t sender, uint32_t receiver, uint32_t flags, const void *out,
		 uint32_t *s, uint32_t *r, struct ipuxcom_plan_error *err);

/*
 * The part of a fan-out request every method checks: @req not NULL, flags,
 * count 1..4148, nrecv 1..@max_recv (the E_NRECV message ends with
 * @limit_note), receivers not NULL, in range, distinct, not the sender.
 * Physical ids go to *@s and @phys[0..nrecv).
 */
int ixc_fanout_check(const struct ipuxcom_fanout_req *req, uint32_t max_recv,
		     const char *limit_note, uint32_t *s, uint16_t *phys,
		     struct ipuxcom_plan_error *err);

/* ------------------------------------------------------------ event model */

/*
 * Walk a row's code through the event model [RE] (modelled): each delay /
 * count field takes field+1 events; a delaypic/delayxpic acts at its last
 * event; a send emits one word per event. Events count from the one after
 * the first sync. For the tests and the CLI.
 */
#define IXC_WALK_MAX_SENDS	8
struct ixc_walk {
	int32_t events;			/* events up to br $m10 */
	uint32_t nsends;
	int32_t send_start[IXC_WALK_MAX_SENDS];	/* first event of each send/sendoff */
	uint32_t send_words[IXC_WALK_MAX_SENDS];
	uint32_t send_dir[IXC_WALK_MAX_SENDS];
	int32_t mux_open;		/* event the mux selected a source, -1 */
	uint32_t mux_src;
	int32_t mux_close;		/* event it was set to 0x640 after that, -1 */
	int32_t pic_event;		/* event of the (first) delaypic's effect, -1 */
	uint32_t pic;
	bool ok;			/* only known words before br $m10 */
};
void ixc_walk_row(const uint32_t *words, size_t n, bool has_index, struct ixc_walk *out);

#endif /* IPUXCOM_PLAN_INTERNAL_H */
