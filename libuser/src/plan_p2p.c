// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Point-to-point plans, non-participation rows and row disassembly.
 *
 * The shapes are the notes' [S "Recovered Plan Shape"]:
 *   sender:   sync 3; delay(111 - T); send(min(count,64)-1, 0, dir);
 *             sendoff(count-65, 0, dir) [count > 64]; br $m10; padding
 *   receiver: 1; sync 3; delayxpic(112, 0, 0) = 0x641c0000; schedule; br $m10; padding
 * with T = TimeToMux(sender, receiver) and the receive schedule of
 * ixc_recv_schedule(). Sync-boundary case [S]: T == 112 makes the delay
 * 111 - T = -1, i.e. zero events: the delay is omitted and the send is the
 * first event after sync, so the first word still reaches the receiver's
 * mux at event 112. The notes add that such routes "may add a short
 * trailing delay" without saying when. None is emitted, here or for the
 * other short rows (T >= 107 + count, where the peer stack pads the row to
 * six events): the last word has left when br $m10 issues (one event per
 * word [RE]), and the phase ends with the receiver's row, 7 events after
 * its last write, never with the sender's; the verifier's phase-boundary
 * check agrees (xsim_tail_test; docs/exchange-plans.md "Short sender rows").
 *
 * Rows are nine words: the notes' "fixed nine-word sender row" [S "Serialized
 * Fan-Out"] and their sender listing (sync, delay, send, br, five zeros);
 * their receiver listing is nine words too (index, sync, three delay
 * words, delay, br, 0, 0).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "plan_internal.h"

/*
 * The out-of-line paths of ipuxcom_plan_p2p() take its arguments in its
 * order, so that jumping to them moves no register; GCC's noipa keeps it
 * from cloning them with fewer arguments (which would move them again).
 */
#if defined(__GNUC__) && !defined(__clang__)
#define IXC_OUT_OF_LINE	__attribute__((noipa))
#else
#define IXC_OUT_OF_LINE	__attribute__((noinline))
#endif

int ixc_p2p_ends(uint32_t sender, uint32_t receiver, uint32_t flags, const void *out,
		 uint32_t *s, uint32_t *r, struct ipuxcom_plan_error *err)
{
	bool logical = true;
	int ret;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	if ((ret = ixc_sized_out_check(out, IPUXCOM_P2P_PLAN_SIZE_MIN, "out.size",
				       "IPUXCOM_P2P_PLAN_INIT", err)))
		return ret;
	if (flags & ~IXC_NUMBERING)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", flags,
				     flags & ~IXC_NUMBERING);
	if ((ret = ixc_numbering(flags, &logical, "flags", err)))
		return ret;
	if ((ret = ixc_tile_resolve(sender, logical, s, err, "sender")) ||
	    (ret = ixc_tile_resolve(receiver, logical, r, err, "receiver")))
		return ret;
	return 0;
}

/* Every rejection of ipuxcom_plan_p2p(), in a fixed order, out of the fast path. */
IXC_OUT_OF_LINE __attribute__((cold))
static int ixc_p2p_bad(const struct ipuxcom_timing *tm, uint32_t sender, uint32_t receiver,
		       uint32_t count, uint32_t flags, const void *out,
		       struct ipuxcom_plan_error *err)
{
	uint32_t s = 0, r = 0;
	int ret;

	(void)tm;
	if ((ret = ixc_p2p_ends(sender, receiver, flags, out, &s, &r, err)))
		return ret;
	if (count < 1 || count > IPUXCOM_PLAN_MAX_COUNT)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_COUNT, "count",
				     "count %u out of range 1..%u", count, IPUXCOM_PLAN_MAX_COUNT);
	if (s == r)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SELF, "receiver",
				     "receiver %u is the sender (physical %u)", receiver, s);
	/* A caller built with another size of the plan: planned into a copy. */
	struct ipuxcom_p2p_plan tmp = IPUXCOM_P2P_PLAN_INIT;

	ret = ipuxcom_plan_p2p(tm, s, r, count, IPUXCOM_PLAN_PHYSICAL, &tmp, err);
	if (!ret)
		ixc_struct_out((void *)out, ixc_sized(out), &tmp, sizeof(tmp));
	return ret;
}

/* A field overflowed: an assembler bug, reported, never a wrong word. */
__attribute__((noinline, cold))
static int ixc_p2p_internal(uint32_t count, uint32_t s, uint32_t r,
			    struct ipuxcom_plan_error *err)
{
	return ixc_plan_fail(err, IPUXCOM_PLAN_E_INTERNAL, "count",
			     "internal: a field overflowed for count %u, %u -> %u", count, s, r);
}

/*
 * Eight bytes of a plan holding the 32-bit members @lo then @hi, as one
 * integer in memory order.
 */
static inline uint64_t ixc_q(uint32_t lo, uint32_t hi)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (uint64_t)lo + ((uint64_t)hi << 32);
#else
	return (uint64_t)lo << 32 | hi;
#endif
}

/*
 * @q with @v added to its second member, modulo 2^32 (the first member
 * unchanged). Little-endian: one 64-bit add of v << 32, shared by the
 * callers of one v.
 */
static inline uint64_t ixc_q_add_hi(uint64_t q, int32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return q + ((uint64_t)(int64_t)v << 32);
#else
	return (q & ~(uint64_t)0xffffffffu) | (uint32_t)((uint32_t)q + (uint32_t)v);
#endif
}

static inline uint64_t ixc_q_sub_hi(uint64_t q, int32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return q - ((uint64_t)(int64_t)v << 32);
#else
	return (q & ~(uint64_t)0xffffffffu) | (uint32_t)((uint32_t)q - (uint32_t)v);
#endif
}

static inline void ixc_st(void *plan, size_t off, uint64_t q)
{
	memcpy((char *)plan + off, &q, sizeof(q));
}

static inline void ixc_st4(void *plan, size_t off, uint32_t v)
{
	memcpy((char *)plan + off, &v, sizeof(v));
}

/* direction, sync_boundary and timing_kind of a plan as one 4-byte unit */
static inline uint32_t ixc_dsk(uint32_t dir, uint32_t sync_boundary, uint32_t kind)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return dir + (sync_boundary << 8) + (kind << 16);	/* +: a lea */
#else
	return dir << 24 | sync_boundary << 16 | kind;
#endif
}

/* Where the plan's rows start: after its size and reserved members. */
#define IXC_P2P_BASE	8

/* The row members after words[8], as the second half of an 8-byte unit (ixc_row_store()). */
#define IXC_META(tile, role, n)	((uint32_t)(tile) | (uint32_t)(role) << 16 | (uint32_t)(n) << 24)
/* patch -1, addr -1, reserved 0 (the sender row's) */
#define IXC_P2P_SEND_PA		0xffffu
/* patch 2 (the delayxpic), addr -1, reserved 0 */
#define IXC_P2P_RECV_PA		0xff02u

/*
 * The plan of checked physical @s and @r with TimeToMux @t and direction
 * @dir, checked by the caller (-78..112, 1 or 2), under model @tm
 * (@is_default: ixc_default_timing, whose kind is then a constant). Each
 * 8 bytes are composed in one register from constants of the row's shape
 * and the few values of the pair, and stored once, none read back. Every
 * word still comes from the encoders, which add any overflowing bit to
 * `bad`, but the delay word and the event: those are the words of T = 0
 * minus T (ixc_q_sub_hi(): ixc_delay()'s field lies below its opcode bits,
 * so for 111 - T within it, which ixc_delay() checks, OR and subtraction
 * agree), which the compiler would not find. No call but the failure tail
 * calls.
 */
__attribute__((always_inline))
static inline int ixc_p2p_store(const struct ipuxcom_timing *tm, bool is_default, uint32_t s,
				uint32_t r, uint32_t count, int t, unsigned int dir,
				struct ipuxcom_p2p_plan *out, struct ipuxcom_plan_error *err)
{
	uint32_t bad = 0, sched[3], kind = is_default ? IPUXCOM_TIMING_RECONSTRUCTION :
							(uint32_t)(uint16_t)tm->kind;
	/* from the rows on: the caller's size member stays */
	char *p = (char *)out + IXC_P2P_BASE;

	ixc_st4(out, offsetof(struct ipuxcom_p2p_plan, reserved), 0);
	/* sync 3; [delay(111 - T)]; send; [sendoff]; br $m10; zeros */
	ixc_st(p, 40, ixc_q_sub_hi(ixc_q(IXC_P2P_SEND_PA, IXC_P2P_ARRIVAL), t));
	ixc_st(p, 96, ixc_q_add_hi(ixc_q(count, 0), t));
	ixc_st(p, 24, 0);
	if (__builtin_expect(t < IXC_P2P_ARRIVAL, 1)) {
		ixc_st4(p, 104, ixc_dsk(dir, 0, kind));
		ixc_st(p, 0, ixc_q_sub_hi(ixc_q(IXC_SYNC3, ixc_delay(IXC_P2P_ARRIVAL - 1, &bad)), t));
		ixc_delay((uint32_t)(IXC_P2P_ARRIVAL - 1 - t), &bad);
		if (count > 64) {
			ixc_st(p, 8, ixc_q(ixc_send(63, 0, dir, &bad),
					   ixc_sendoff(count - 65, 0, dir, &bad)));
			ixc_st(p, 16, ixc_q(IPUXCOM_WORD_BR_M10, 0));
			ixc_st(p, 32, ixc_q(0, IXC_META(s, IPUXCOM_ROLE_SEND, 5)));
		} else {
			ixc_st(p, 8, ixc_q(ixc_send(count - 1, 0, dir, &bad), IPUXCOM_WORD_BR_M10));
			ixc_st(p, 16, 0);
			ixc_st(p, 32, ixc_q(0, IXC_META(s, IPUXCOM_ROLE_SEND, 4)));
		}
	} else {
		/* T == 112: the send is the first event after sync, no delay [S] */
		ixc_st4(p, 104, ixc_dsk(dir, 1, kind));
		ixc_st(p, 16, 0);
		if (count > 64) {
			ixc_st(p, 0, ixc_q(IXC_SYNC3, ixc_send(63, 0, dir, &bad)));
			ixc_st(p, 8, ixc_q(ixc_sendoff(count - 65, 0, dir, &bad),
					   IPUXCOM_WORD_BR_M10));
			ixc_st(p, 32, ixc_q(0, IXC_META(s, IPUXCOM_ROLE_SEND, 4)));
		} else {
			ixc_st(p, 0, ixc_q(IXC_SYNC3, ixc_send(count - 1, 0, dir, &bad)));
			ixc_st(p, 8, ixc_q(IPUXCOM_WORD_BR_M10, 0));
			ixc_st(p, 32, ixc_q(0, IXC_META(s, IPUXCOM_ROLE_SEND, 3)));
		}
	}

	/* 1 (patch index: the delayxpic, code word 1 [S]); sync 3; delayxpic(112, 0, 0);
	   schedule; br $m10; 0; 0 */
	ixc_recv_schedule(count, ixc_phys_row(r), 0, sched, &bad);
	ixc_st(p, 48, ixc_q(1, IXC_SYNC3));
	ixc_st(p, 56, ixc_q(IXC_P2P_RECV_XPIC, sched[0]));
	ixc_st(p, 64, ixc_q(sched[1], sched[2]));
	ixc_st(p, 72, ixc_q(IPUXCOM_WORD_BR_M10, 0));
	ixc_st(p, 80, ixc_q(0, IXC_META(r, IPUXCOM_ROLE_RECV, 7)));
	ixc_st(p, 88, ixc_q(IXC_P2P_RECV_PA, IXC_P2P_ARRIVAL));

	/* the model's name (its kind: with the direction above) */
	memcpy(out->timing_model, tm->name, IPUXCOM_TIMING_NAME_LEN);
	if (__builtin_expect(bad != 0, 0))
		return ixc_p2p_internal(count, s, r, err);
	ixc_plan_ok(err);
	return 0;
}

/* The default model: TimeToMux through ixc_ttm64[][], checked as ixc_timing_pair() checks any model's. */
__attribute__((always_inline))
static inline int ixc_p2p_default(uint32_t s, uint32_t r, uint32_t count,
				  struct ipuxcom_p2p_plan *out, struct ipuxcom_plan_error *err)
{
	unsigned int dir;
	int t = ixc_recon_pair64(s, r, &dir);

	if (__builtin_expect(t < -IPUXCOM_WORST_SEND_DELAY || t > IPUXCOM_WORST_RECV_DELAY, 0))
		return ixc_timing_bad(&ixc_default_timing, s, r, t, dir, err, "receiver");
	return ixc_p2p_store(&ixc_default_timing, true, s, r, count, t, dir, out, err);
}

/*
 * The offsets ixc_p2p_store() stores at, from IXC_P2P_BASE (rows:
 * ixc_row_store()'s assertion).
 */
_Static_assert(offsetof(struct ipuxcom_p2p_plan, reserved) == 4 &&
	       offsetof(struct ipuxcom_p2p_plan, send) == IXC_P2P_BASE + 0 &&
	       offsetof(struct ipuxcom_p2p_plan, recv) == IXC_P2P_BASE + 48 &&
	       offsetof(struct ipuxcom_p2p_plan, count) == IXC_P2P_BASE + 96 &&
	       offsetof(struct ipuxcom_p2p_plan, time_to_mux) == IXC_P2P_BASE + 100 &&
	       offsetof(struct ipuxcom_p2p_plan, direction) == IXC_P2P_BASE + 104 &&
	       offsetof(struct ipuxcom_p2p_plan, sync_boundary) == IXC_P2P_BASE + 105 &&
	       offsetof(struct ipuxcom_p2p_plan, timing_kind) == IXC_P2P_BASE + 106,
	       "p2p plan layout");

/*
 * A model given by pointer, for checked physical @s and @r: the default
 * (ipuxcom_timing_default()) as for NULL, a table inline, any other
 * through its indirect call.
 */
IXC_OUT_OF_LINE
static int ixc_p2p_model(const struct ipuxcom_timing *tm, uint32_t s, uint32_t r,
			 uint32_t count, uint32_t flags, struct ipuxcom_p2p_plan *out,
			 struct ipuxcom_plan_error *err)
{
	unsigned int dir = 0;
	int t = 0, ret;

	(void)flags;
	if (tm == &ixc_default_timing)
		return ixc_p2p_default(s, r, count, out, err);
	if (tm->ops != &ixc_table_ops) {
		ret = ixc_timing_pair(tm, s, r, &t, &dir, err, "receiver");
		if (ret)
			return ret;
		return ixc_p2p_store(tm, false, s, r, count, t, dir, out, err);
	}
	/* A table: its lookup inline, with the checks of ixc_timing_pair(). */
	t = ixc_table_pair_inline(tm, s, r, &dir);
	if (__builtin_expect(t < -IPUXCOM_WORST_SEND_DELAY || t > IPUXCOM_WORST_RECV_DELAY ||
			     dir - 1 > 1, 0))
		return ixc_timing_bad(tm, s, r, t, dir, err, "receiver");
	return ixc_p2p_store(tm, false, s, r, count, t, dir, out, err);
}

/*
 * The plan of checked physical @s and @r: a NULL model (the default)
 * inline, any given model out of line (ixc_p2p_model()). Only
 * ixc_default_timing has the reconstruction's ops (timing.c), so testing
 * the object is testing the model, and its kind and name are its own.
 */
__attribute__((always_inline))
static inline int ixc_p2p_phys(const struct ipuxcom_timing *tm, uint32_t s, uint32_t r,
			       uint32_t count, uint32_t flags, struct ipuxcom_p2p_plan *out,
			       struct ipuxcom_plan_error *err)
{
	if (__builtin_expect(tm != NULL, 0))
		return ixc_p2p_model(tm, s, r, count, flags, out, err);
	return ixc_p2p_default(s, r, count, out, err);
}

/* Logical ids: mapped, then the physical path (out of line: the mapping needs registers). */
IXC_OUT_OF_LINE
static int ixc_p2p_logical(const struct ipuxcom_timing *tm, uint32_t sender, uint32_t receiver,
			   uint32_t count, uint32_t flags, struct ipuxcom_p2p_plan *out,
			   struct ipuxcom_plan_error *err)
{
	return ixc_p2p_phys(tm, ixc_l2p(sender), ixc_l2p(receiver), count, flags, out, err);
}
int ipuxcom_plan_p2p(const struct ipuxcom_timing *tm, uint32_t sender, uint32_t receiver,
		     uint32_t count, uint32_t flags, struct ipuxcom_p2p_plan *out,
		     struct ipuxcom_plan_error *err)
{
	if (__builtin_expect(!out || out->size != sizeof(*out) ||
			     (flags & ~IXC_NUMBERING) || flags == IXC_NUMBERING ||
			     sender >= IPUXCOM_TILES || receiver >= IPUXCOM_TILES ||
			     count - 1 >= IPUXCOM_PLAN_MAX_COUNT || sender == receiver, 0))
		return ixc_p2p_bad(tm, sender, receiver, count, flags, out, err);
	if (flags & IPUXCOM_PLAN_PHYSICAL)
		return ixc_p2p_phys(tm, sender, receiver, count, flags, out, err);
	return ixc_p2p_logical(tm, sender, receiver, count, flags, out, err);
}

int ipuxcom_plan_idle(uint32_t tile, uint32_t flags, struct ipuxcom_plan_row *row,
		      struct ipuxcom_plan_error *err)
{
	const uint32_t known = IXC_NUMBERING | IPUXCOM_IDLE_RAW;
	uint32_t phys = 0;
	bool logical = true;
	int ret;

	if (!row)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "row", "row is NULL");
	if (flags & ~known)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", flags, flags & ~known);
	if ((ret = ixc_numbering(flags, &logical, "flags", err)))
		return ret;
	ret = ixc_tile_resolve(tile, logical, &phys, err, "tile");
	if (ret)
		return ret;
	ixc_row_init(row, phys, IPUXCOM_ROLE_IDLE);
	/* The two raw nonparticipation opcodes [S "No-Blob Replacement Status"]. */
	row->words[0] = IPUXCOM_WORD_SANS;
	row->words[1] = IPUXCOM_WORD_SYNC_IDLE;
	row->nwords = 2;
	if (!(flags & IPUXCOM_IDLE_RAW))
		row->words[row->nwords++] = IPUXCOM_WORD_BR_M10;
	row->event = -1;
	ixc_plan_ok(err);
	return 0;
}

/* What words[@i] means in @row, or NULL. @buf holds formatted notes. */
static const char *ixc_row_note(const struct ipuxcom_plan_row *row, unsigned int i,
				const struct ipuxcom_insn *in, char *buf, size_t len)
{
	if (i >= row->nwords)
		return "padding";
	if (i == 0 && row->role == IPUXCOM_ROLE_RECV) {
		snprintf(buf, len, "patch index: word %u", 1 + row->words[0]);
		return buf;
	}
	switch (in->op) {
	case IPUXCOM_OP_SYNC:
		switch (in->a) {
		case IPUXCOM_SYNC_ZONE_SUPERVISOR: return "supervisor sync";
		case IPUXCOM_SYNC_ZONE_ALL: return "sync all";
		case IPUXCOM_SYNC_ZONE_HOST: return "host sync";
		case 1: return row->role == IPUXCOM_ROLE_IDLE ? "nonparticipation" : NULL;
		default: return NULL;
		}
	case IPUXCOM_OP_SANS:
		return "nonparticipation";
	case IPUXCOM_OP_BR:
		return in->a == 10 ? "return to the vertex" : NULL;
	case IPUXCOM_OP_DELAYXPIC:
		if (in->c == IPUXCOM_MUX_DISABLE)
			return "mux off (0x640)";
		if ((int)i == row->patch && in->c == 0)
			return "mux <- sender, patched at run time";
		snprintf(buf, len, "mux <- physical %u", in->c);
		return buf;
	case IPUXCOM_OP_DELAYPIC:
		if ((int)i == row->addr) {
			snprintf(buf, len, "multicast write pointer <- 0x%x",
				 IPUXCOM_MCAST_DST_BASE + (in->c & ~IPUXCOM_MCAST_FLAG) * 4);
			return buf;
		}
		return "write pointer <- A4 base";
	case IPUXCOM_OP_SEND:
	case IPUXCOM_OP_SENDOFF: {
		/* sctl bit 2: 64-bit items, two words per event [RE]. */
		unsigned int dir = in->c & IPUXCOM_SCTL_DIRS, n = in->a + 1;
		bool wide = in->c & IPUXCOM_SCTL_WIDE;
		const char *unit = wide ? (n > 1 ? " 64-bit items" : " 64-bit item") :
				   (n > 1 ? " words" : " word");

		if ((int)i == row->addr)
			snprintf(buf, len, "%u%s%s from 0x%x, broadcast", n, unit,
				 wide ? " (2 words each)" : "", in->b * 4);
		else
			snprintf(buf, len, "%u%s%s, direction %u%s", n, unit,
				 wide ? " (2 words each)" : "", dir,
				 dir == IPUXCOM_DIR_BROADCAST ? " (broadcast)" : "");
		return buf;
	}
	default:
		return NULL;
	}
}

/*
 * The start of the instruction words[@index] belongs to: a sendpicp takes
 * two words, so boundaries are found by decoding from the code start
 * (word 1 of a receiver row, else word 0) up to the row's end.
 */
static unsigned int ixc_row_insn_start(const struct ipuxcom_plan_row *row, unsigned int index)
{
	unsigned int i = row->role == IPUXCOM_ROLE_RECV ? 1 : 0;
	unsigned int n = row->nwords <= IPUXCOM_ROW_WORDS ? row->nwords : IPUXCOM_ROW_WORDS;

	while (i < n && i < index) {
		struct ipuxcom_decoded d;
		unsigned int next = i + (unsigned int)ipuxcom_decode_insn(&row->words[i], n - i, &d);

		if (next > index)
			return i;
		i = next;
	}
	return index;
}

/* What a sendpicp does, for the row disassembly [RE]. */
static void ixc_sendpicp_note(const uint32_t *w, char *buf, size_t len)
{
	struct ipuxcom_decoded d;

	ipuxcom_decode_insn(w, 2, &d);
	if (d.flags & IPUXCOM_DEC_TRANSMIT)
		snprintf(buf, len, "%u %s item%s from word 0x%x, xpic <- %u, pic <- 0x%x",
			 d.events, d.flags & IPUXCOM_DEC_WIDE ? "64-bit" : "32-bit",
			 d.events == 1 ? "" : "s", d.src_word, d.f[4], d.f[5]);
	else
		snprintf(buf, len, "receive only, %u events: xpic <- %u, pic <- 0x%x", d.events,
			 d.f[4], d.f[5]);
}

int ipuxcom_plan_row_disasm(const struct ipuxcom_plan_row *row, unsigned int index, char *buf,
			    size_t len)
{
	struct ipuxcom_insn in;
	char text[48], note[64];
	const char *what;
	unsigned int start;

	if (!row || index >= IPUXCOM_ROW_WORDS || (!buf && len))
		return -EINVAL;
	ipuxcom_decode(row->words[index], &in);
	start = index < row->nwords ? ixc_row_insn_start(row, index) : index;
	if (start != index) {
		/* The second word of a sendpicp: data of the instruction before it. */
		snprintf(text, sizeof(text), ".word 0x%08x", row->words[index]);
		return snprintf(buf, len, "%-26s ; sendpicp word 2: xpic %u, pic 0x%x", text,
				row->words[index] >> 18, row->words[index] & 0x3ffff);
	}
	if (in.op == IPUXCOM_OP_SENDPICP && index + 1 < row->nwords) {
		ipuxcom_disasm_insn(&row->words[index], 2, text, sizeof(text), NULL);
		ixc_sendpicp_note(&row->words[index], note, sizeof(note));
		return snprintf(buf, len, "%-26s ; %s", text, note);
	}
	ipuxcom_disasm(row->words[index], text, sizeof(text));
	what = ixc_row_note(row, index, &in, note, sizeof(note));
	if (!what)
		return snprintf(buf, len, "%s", text);
	return snprintf(buf, len, "%-26s ; %s", text, what);
}
