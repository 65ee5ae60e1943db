/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * libipuxcom exchange plans: the instruction rows that move words between
 * tiles of a C600 (IPU21) without Poplar's exchange compiler.
 *
 * Pure computation: nothing here touches a device. See
 * docs/exchange-plans.md for the plan shapes, the sources of every
 * constant and what is inferred rather than documented.
 *
 * Sources, cited next to every hardware constant (docs/hardware-record.md
 * gives each, and the facts by their ids):
 *   [S]  the JDL exchange note
 *   [RE] osmarks/ipu-stack
 *   [DW] DWARF of Graphcore's xcom.hpp constants
 * Anything marked "modelled" or "inferred" is this library's reading of
 * the notes, not a documented fact.
 *
 * Conventions:
 *  - Tile ids given to a function with a `flags` argument (or member) are
 *    logical, the numbering of the command and of the notes' vertices,
 *    unless the flags say IPUXCOM_PLAN_PHYSICAL (since 1.0; before, the
 *    default was physical). IPUXCOM_PLAN_LOGICAL says the default
 *    explicitly; both together are E_FLAGS. Functions without flags
 *    (ipuxcom_time_to_mux(), ipuxcom_route_direction(), the simulator's
 *    SRAM and program calls) take physical ids, as their names say.
 *    Results always carry physical ids: plan rows, relay steps, info
 *    members (ipuxcom_tile_logical() maps them back).
 *  - A caller-allocated struct that may grow carries its size in its first
 *    member `size`: start it from the struct's _INIT macro (e.g.
 *    IPUXCOM_P2P_PLAN_INIT). The library takes any size from the struct's
 *    _SIZE_MIN up: members past a smaller size are zero when read and not
 *    written; a bigger input whose members unknown to the library are not
 *    all zero is -E2BIG; size 0 or below _SIZE_MIN is -EINVAL; both are
 *    E_SIZE with field "<argument>.size". Structs without a size member
 *    say why they are fixed.
 *  - Functions return 0 or a negative errno value. Those that take a
 *    `struct ipuxcom_plan_error *err` (which may be NULL) also fill it with
 *    a distinct code (enum ipuxcom_plan_errc) and a message naming the
 *    offending field and value, e.g. "count 4149 out of range 1..4148".
 *  - Results go to caller-owned structs; only timing models allocate. On
 *    failure their contents are unspecified, except that the patch helpers
 *    never write on failure.
 *  - The library never prints and never exits. Thread-safe: no hidden
 *    state; a timing model may be shared by threads once created.
 */
#ifndef IPUXCOM_PLAN_H
#define IPUXCOM_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef IPUXCOM_API
#define IPUXCOM_API __attribute__((visibility("default")))
#endif

/* ---------------------------------------------------------------- constants */

/* 1472 tiles in 23 physical rows x 64 physical columns [S, RE]. */
#define IPUXCOM_TILES			1472
#define IPUXCOM_PHYS_ROWS		23
#define IPUXCOM_PHYS_COLS		64
/* Tile SRAM: 624 KiB from 0x4c000 [RE]. */
#define IPUXCOM_SRAM_BASE		0x4c000u
#define IPUXCOM_SRAM_SIZE		(624u * 1024u)
#define IPUXCOM_SRAM_END		(IPUXCOM_SRAM_BASE + IPUXCOM_SRAM_SIZE)
/* Words per point-to-point plan: 1..4148 [S "Point-To-Point Limits"]. */
#define IPUXCOM_PLAN_MAX_COUNT		4148
/* Largest TimeToMux magnitudes: WORSTSENDDELAY 78, WORSTRECVDELAY 112 [DW]. */
#define IPUXCOM_WORST_SEND_DELAY	78
#define IPUXCOM_WORST_RECV_DELAY	112
/* Incoming-mux values: DISABLEMUX 1600 [DW]; host mux 0x600 [DW]. */
#define IPUXCOM_MUX_DISABLE		0x640u
#define IPUXCOM_MUX_HOST		0x600u
/* send direction 3 = BROADCAST [DW], the multicast mode [S]. */
#define IPUXCOM_DIR_BROADCAST		3u
/* Multicast delaypic flag and destination base [S "Proper Multicast"]. */
#define IPUXCOM_MCAST_FLAG		0x00014000u
#define IPUXCOM_MCAST_DST_BASE		0x50000u
/* JDLRecv restores the patched delayxpic with `andc 0x1fff` [S]. */
#define IPUXCOM_PATCH_MASK		0x1fffu

/*
 * Flags of plan requests and tile lookups: the tile ids given are logical
 * (the default since 1.0: the flag says it explicitly) or physical.
 * Setting both is E_FLAGS.
 */
#define IPUXCOM_PLAN_LOGICAL		(1u << 0)
#define IPUXCOM_PLAN_PHYSICAL		(1u << 3)
/*
 * Flag of ipuxcom_plan_p2p_wide() and ipuxcom_plan_multicast() requests
 * (issue 16): use a 64-bit route when the transfer allows it, else the
 * 32-bit plan. Opt-in: the seeds' recorded rows are 32-bit, and how the
 * receiving pair's second mux is set is not known (docs/exchange-plans.md
 * "64-bit plans"). (Bit 1 is IPUXCOM_IDLE_RAW.)
 */
#define IPUXCOM_PLAN_WIDE		(1u << 2)

/* Words of every plan row: the notes' "fixed nine-word sender row" [S]. */
#define IPUXCOM_ROW_WORDS		9

/* Fixed words [RE, HW-INSN-FIXED; S for the nonparticipation pair, HW-NOBLOB]. */
#define IPUXCOM_WORD_SANS		0x40c00000u	/* sans (non-participation sync) */
#define IPUXCOM_WORD_SYNC_SUPERVISOR	0x41800003u	/* sync 3 */
#define IPUXCOM_WORD_SYNC_IDLE		0x41800001u	/* sync 1, second nonparticipation word [S] */
#define IPUXCOM_WORD_BR_M10		0x43a00000u	/* br $m10, the end of every plan row [S] */
#define IPUXCOM_SYNC_ZONE_SUPERVISOR	3u
#define IPUXCOM_SYNC_ZONE_ALL		7u
#define IPUXCOM_SYNC_ZONE_HOST		15u

/* Cost model of the fan-out dispatcher (see ipuxcom_plan_dispatch()). */
#define IPUXCOM_COST_MCAST_BASE		156u	/* multicast: 156 + count cycles [S] */
#define IPUXCOM_COST_LAUNCH		600u	/* a global sync ~600 cycles [RE]; modelled per launch */

/* ------------------------------------------------------------------- errors */

/*
 * Every rejection has its own code; the return value is the errno given
 * here (negated). ipuxcom_strerror() (<ipuxcom.h>) explains both: the
 * return value after the call, and a code as IPUXCOM_ERRC(code).
 */
enum ipuxcom_plan_errc {
	IPUXCOM_PLAN_OK = 0,
	IPUXCOM_PLAN_E_NULL,		/* EINVAL: a required pointer is NULL */
	IPUXCOM_PLAN_E_FLAGS,		/* EINVAL: unknown flag bits */
	IPUXCOM_PLAN_E_TILE,		/* ERANGE: tile id not in 0..1471 */
	IPUXCOM_PLAN_E_COUNT,		/* ERANGE: word count not in 1..4148 */
	IPUXCOM_PLAN_E_SELF,		/* EINVAL: a receiver is the sender */
	IPUXCOM_PLAN_E_DUP,		/* EINVAL: a receiver is listed twice */
	IPUXCOM_PLAN_E_NRECV,		/* ERANGE: too few or too many receivers */
	IPUXCOM_PLAN_E_FIELD,		/* ERANGE: an instruction field does not fit */
	IPUXCOM_PLAN_E_SCHEDULE,	/* ERANGE: a receive cycle does not fit 12 bits */
	IPUXCOM_PLAN_E_ALIGN,		/* EINVAL: SRAM address not 4-byte aligned */
	IPUXCOM_PLAN_E_ADDR,		/* ERANGE: buffer not inside tile SRAM */
	IPUXCOM_PLAN_E_ADDR_FLAG,	/* ERANGE: multicast destination ambiguous with the flag (inferred) */
	IPUXCOM_PLAN_E_TIMING,		/* ERANGE: timing value outside -78..112 or direction not 1/2 */
	IPUXCOM_PLAN_E_FORMAT,		/* EBADMSG: malformed timing table file */
	IPUXCOM_PLAN_E_IO,		/* the errno of open/read/write: a file cannot be used */
	IPUXCOM_PLAN_E_NOMEM,		/* ENOMEM */
	IPUXCOM_PLAN_E_SPACE,		/* ENOSPC: caller's output array too small */
	IPUXCOM_PLAN_E_WORD,		/* EINVAL: a row word is not what the operation expects */
	IPUXCOM_PLAN_E_METHOD,		/* EINVAL: no or unknown fan-out method bits */
	IPUXCOM_PLAN_E_INFEASIBLE,	/* EOPNOTSUPP: no allowed fan-out method fits the request */
	IPUXCOM_PLAN_E_NAME,		/* EINVAL: invalid timing model name */
	IPUXCOM_PLAN_E_INTERNAL,	/* EFAULT: an emitted field overflowed: a library bug */
	IPUXCOM_PLAN_E_SIZE,		/* EINVAL (E2BIG): a struct's size member does not fit */
	IPUXCOM_PLAN_E_MAX
};

/*
 * Fixed: a diagnostic record whose text members are bounded strings; new
 * detail goes into the message, never into new members.
 */
struct ipuxcom_plan_error {
	enum ipuxcom_plan_errc code;	/* not an errno: ipuxcom_strerror(IPUXCOM_ERRC(code)) */
	int err;		/* the (negative) value the function returned */
	char field[32];		/* the offending input, e.g. "count", "receivers[3]" */
	char msg[160];		/* e.g. "count 4149 out of range 1..4148" */
};

/*
 * The one explainer of every error (declared in <ipuxcom.h> too, where it
 * is described): after a failed call here, ipuxcom_strerror(->err) is the
 * code's text; a code itself is explained as IPUXCOM_ERRC(code), a value
 * above the errno range.
 */
#ifndef IPUXCOM_ERRC_BASE
#define IPUXCOM_ERRC_BASE	4096
#define IPUXCOM_ERRC(code)	(-(IPUXCOM_ERRC_BASE + (int)(code)))
#endif
/* (<ipuxcom.h> declares it with its export attribute.) */
const char *ipuxcom_strerror(int err);

/*
 * Deprecated: what a code means ("word count not in 1..4148"), never
 * NULL; it calls the one explainer, ipuxcom_strerror(IPUXCOM_ERRC(code))
 * (<ipuxcom.h>), which also explains ->err and the function's return.
 */
IPUXCOM_API const char *ipuxcom_plan_errc_str(enum ipuxcom_plan_errc code)
	__attribute__((deprecated("use ipuxcom_strerror(IPUXCOM_ERRC(code))")));

/*
 * The same, under its first name, which read like a strerror() and took
 * an int: kept for binaries linked against it. A negative argument (an
 * errno passed by mistake) is answered as such.
 */
IPUXCOM_API const char *ipuxcom_plan_strerror(int code)
	__attribute__((deprecated("use ipuxcom_strerror(IPUXCOM_ERRC(code))")));

/* ----------------------------------------------------------------- tile map */

/*
 * A tile under both numberings [S "No-Blob Replacement Status"]. Fixed:
 * the chip's tile geometry, complete.
 */
struct ipuxcom_tile {
	uint16_t logical;
	uint16_t physical;
	uint16_t row;		/* physical / 64 */
	uint16_t column;	/* physical % 64 */
	uint16_t pair_physical;	/* physical ^ 2: shares 64-bit exchange resources [RE] */
	uint16_t pair_logical;	/* logical ^ 1, the same tile as pair_physical */
};

/* Logical -> physical and back; -ERANGE for an id >= 1472, -EINVAL for NULL. */
IPUXCOM_API int ipuxcom_tile_physical(uint32_t logical, uint32_t *physical);
IPUXCOM_API int ipuxcom_tile_logical(uint32_t physical, uint32_t *logical);

/* Describe tile @id: logical, or physical with IPUXCOM_PLAN_PHYSICAL in @flags. */
IPUXCOM_API int ipuxcom_tile_info(uint32_t id, uint32_t flags, struct ipuxcom_tile *out,
				  struct ipuxcom_plan_error *err);

/* ------------------------------------------------------------- timing model */

/*
 * TimeToMux(s, d): signed events from a send on physical tile s to the
 * word at the incoming mux of physical tile d; direction(s, d): the send
 * direction, 1 or 2. A model is one of:
 *  - the public reconstruction HW-TIMETOMUX [RE] (ipuxcom_timing_default());
 *    its range over all ordered pairs is exactly [-78, 112];
 *  - a table of measured values, from a file (ipuxcom_timing_load(), format
 *    in docs/exchange-plans.md) or from memory (ipuxcom_timing_from_table()).
 * Every plan function takes a model (NULL: the default) and reports which
 * one it used.
 */
struct ipuxcom_timing;

enum ipuxcom_timing_kind {
	IPUXCOM_TIMING_RECONSTRUCTION = 1,	/* HW-TIMETOMUX [RE] */
	IPUXCOM_TIMING_TABLE = 2,		/* measured table */
};

/* Longest model name, NUL included; names match [A-Za-z0-9._:+-]{1,31}. */
#define IPUXCOM_TIMING_NAME_LEN		32

/* The reconstruction, named "reconstruction": static, never NULL, not to be freed. */
IPUXCOM_API const struct ipuxcom_timing *ipuxcom_timing_default(void);

/*
 * A table model from memory: @time_to_mux[s * 1472 + d] for physical s, d
 * (diagonal ignored), each in -78..112; @direction likewise 1 or 2, or
 * NULL to take directions from the reconstruction. @name (NULL: "table")
 * is reported as "table:NAME". The values are copied.
 */
IPUXCOM_API int ipuxcom_timing_from_table(const int16_t *time_to_mux, const uint8_t *direction,
					  const char *name, struct ipuxcom_timing **out,
					  struct ipuxcom_plan_error *err);

/* Load a table file (docs/exchange-plans.md "Timing table files"). */
IPUXCOM_API int ipuxcom_timing_load(const char *path, struct ipuxcom_timing **out,
				    struct ipuxcom_plan_error *err);

/*
 * Write @tm (NULL: the default) as a table file with its directions; a
 * model round-trips through save and load. @flags must be 0.
 */
IPUXCOM_API int ipuxcom_timing_save(const struct ipuxcom_timing *tm, const char *path,
				    uint32_t flags, struct ipuxcom_plan_error *err);

/*
 * The same on an open stream (a pipe, a file the caller places itself),
 * flushed but not closed. A write error (flush included) returns the
 * errno of the call that failed, E_IO, and a message naming the stream's
 * file descriptor and the error.
 */
IPUXCOM_API int ipuxcom_timing_write(const struct ipuxcom_timing *tm, FILE *f, uint32_t flags,
				     struct ipuxcom_plan_error *err);

/* Free a model from _from_table() or _load(); NULL is a no-op. */
IPUXCOM_API void ipuxcom_timing_free(struct ipuxcom_timing *tm);

/* "reconstruction" or "table:NAME"; enum ipuxcom_timing_kind. NULL: the default. */
IPUXCOM_API const char *ipuxcom_timing_name(const struct ipuxcom_timing *tm);
IPUXCOM_API int ipuxcom_timing_kind(const struct ipuxcom_timing *tm);

/* Physical @src != @dst. -ERANGE/E_TILE, -EINVAL/E_SELF for src == dst. */
IPUXCOM_API int ipuxcom_time_to_mux(const struct ipuxcom_timing *tm, uint32_t src, uint32_t dst,
				    int *out, struct ipuxcom_plan_error *err);
IPUXCOM_API int ipuxcom_route_direction(const struct ipuxcom_timing *tm, uint32_t src,
					uint32_t dst, unsigned int *out,
					struct ipuxcom_plan_error *err);

/* --------------------------------------------------- encoders and decoder */

/*
 * Instruction words as the notes give them [S "Recovered Instruction
 * Encodings"; RE for sync/sans/br/setzi/put]. Each encoder rejects a field
 * that does not fit (-ERANGE, IPUXCOM_PLAN_E_FIELD, "delaypic delay 130 does
 * not fit 7 bits") instead of masking it.
 *
 *   op          fields (a, b, c)                        word
 *   delay       n: 19 bits                              0x40a00000 | n
 *   delaypic    delay 7, flag 1, pic 18                 0x60000000 | a<<19 | b<<18 | c
 *   delayxpic   delay 12, flag 1, mux 13                0x64000000 | a<<14 | b<<13 | c
 *   send        count-1 6, address 18, dir 3            0x78000000 | a<<21 | b<<3 | dir
 *   sendoff     count-1 12 (split 6+6), offset 11, dir  0x70000000 | a[5:0]<<21 | a[11:6]<<14 | b<<3 | dir
 *   sync        zone 4 (width modelled)                 0x41800000 | zone
 *   sans        -                                       0x40c00000
 *   br $mN      N 4                                     0x43000000 | N<<20
 *   setzi $mN   N 4, imm 20                             0x19000000 | N<<20 | imm
 *   put $csr,$m0  csr 8 (width modelled)                0x43008000 | csr
 *   sendpic     count-1 6, sel 2, value 18 (13 if sel<2) 0x70100000 | a<<21 | b<<18 | c
 *   sendpicp    (two words; see struct ipuxcom_decoded)  0xf0000000 | picsel<<27 | a<<21
 *                                                        | src<<3 | sctl;  xpic<<18 | pic
 * Delay fields hold "events - 1" [RE]. The low 3 bits of send, sendoff and
 * sendpicp are `sctl` [RE, HW-MERGED]:
 * bits 0-1 enable the two directions (0: advance the outgoing stream
 * without transmitting), bit 2 selects 64-bit items.
 */
enum ipuxcom_op {
	IPUXCOM_OP_WORD = 0,	/* not a word this library knows: ".word 0x..." */
	IPUXCOM_OP_DELAY,
	IPUXCOM_OP_DELAYPIC,
	IPUXCOM_OP_DELAYXPIC,
	IPUXCOM_OP_SEND,
	IPUXCOM_OP_SENDOFF,
	IPUXCOM_OP_SYNC,
	IPUXCOM_OP_SANS,
	IPUXCOM_OP_BR,
	IPUXCOM_OP_SETZI,
	IPUXCOM_OP_PUT,
	IPUXCOM_OP_FIXED,	/* a documented debug injectable [RE, S]; a = the word */
	IPUXCOM_OP_SENDPIC,	/* a = count-1, b = sel, c = value */
	/*
	 * The aligned two-word sendpicp. Through the one-word API (struct
	 * ipuxcom_insn) only its first word: a = count-1, b = source word
	 * address, c = sctl | picsel << 3; ipuxcom_decode_insn() and
	 * ipuxcom_encode_insn() handle both words.
	 */
	IPUXCOM_OP_SENDPICP,
	IPUXCOM_OP_MAX
};

/*
 * A decoded word; unused fields are 0. For send/sendoff c is the
 * direction. Fixed: an instruction's fields; struct ipuxcom_decoded is the
 * form with what the instruction does.
 */
struct ipuxcom_insn {
	uint32_t op;		/* enum ipuxcom_op */
	uint32_t a, b, c;
};

IPUXCOM_API int ipuxcom_enc_delay(uint32_t n, uint32_t *word, struct ipuxcom_plan_error *err);
IPUXCOM_API int ipuxcom_enc_delaypic(uint32_t delay, uint32_t flag, uint32_t pic, uint32_t *word,
				     struct ipuxcom_plan_error *err);
IPUXCOM_API int ipuxcom_enc_delayxpic(uint32_t delay, uint32_t flag, uint32_t mux, uint32_t *word,
				      struct ipuxcom_plan_error *err);
IPUXCOM_API int ipuxcom_enc_send(uint32_t count_m1, uint32_t addr, uint32_t dir, uint32_t *word,
				 struct ipuxcom_plan_error *err);
IPUXCOM_API int ipuxcom_enc_sendoff(uint32_t count_m1, uint32_t offset, uint32_t dir,
				    uint32_t *word, struct ipuxcom_plan_error *err);
IPUXCOM_API int ipuxcom_enc_sync(uint32_t zone, uint32_t *word, struct ipuxcom_plan_error *err);
IPUXCOM_API int ipuxcom_enc_br(uint32_t reg, uint32_t *word, struct ipuxcom_plan_error *err);
IPUXCOM_API int ipuxcom_enc_setzi(uint32_t reg, uint32_t imm, uint32_t *word,
				  struct ipuxcom_plan_error *err);
IPUXCOM_API int ipuxcom_enc_put(uint32_t csr, uint32_t *word, struct ipuxcom_plan_error *err);

/* Encode any op from its fields (same checks); OP_WORD/OP_FIXED take a = the word. */
IPUXCOM_API int ipuxcom_encode(const struct ipuxcom_insn *insn, uint32_t *word,
			       struct ipuxcom_plan_error *err);

/*
 * Decode @word. Strict: only words an encoder above produces (or a fixed
 * word) decode; anything else is IPUXCOM_OP_WORD with a = @word. For every
 * encodable insn, decode(encode(insn)) == insn. -EINVAL only for NULL.
 */
IPUXCOM_API int ipuxcom_decode(uint32_t word, struct ipuxcom_insn *out);

/*
 * Disassemble @word into @buf: "delayxpic 0, 0, 0x640", "send 63, 0x0, 1",
 * "br $m10", ".word 0x12345678". Returns the length (like snprintf; the
 * text is truncated when @len is too small) or -EINVAL.
 */
IPUXCOM_API int ipuxcom_disasm(uint32_t word, char *buf, size_t len);

/* "delay", "delaypic", ..., ".word"; "?" for an unknown op. */
IPUXCOM_API const char *ipuxcom_op_name(uint32_t op);

/* ------------------------------------- merged send/control instructions */

/*
 * HW-MERGED and HW-WIDE [RE],
 * checked there against the SDK's own encoder and SDK-generated rows:
 *
 *   sendpic(count-1, sel, value)
 *     = 0x70100000 | (count-1)<<21 [6 bits] | sel<<18 [2] | value [18]
 *     continues the current outgoing stream for count events and applies
 *     one incoming control at its first send event: sel 0-1 are the two
 *     XPIC forms (value: 13 bits), 2-3 the two PIC forms (18 bits). What
 *     distinguishes the two forms of each is not documented. It has no
 *     sctl field (modelled: the stream's current control applies).
 *   sendpicp(picsel, count-1, src_word, sctl, xpic, pic)
 *     word 0 = 0xf0000000 | picsel<<27 [1] | (count-1)<<21 [6]
 *              | src_word<<3 [18] | sctl [3]
 *     word 1 = xpic<<18 [14] | pic [18]
 *     must start on an 8-byte boundary (the PC advances 8). Both controls
 *     apply at its first send event; with a direction in sctl it restarts
 *     the outgoing stream at the absolute source word address; sctl = 0 is
 *     the receiver-only form (SDK receiver row: f6600000 03014048 = 52
 *     events, XPIC 192, PIC 0x14048).
 * PIC, XPIC, delay and send all issue in the supervisor pipeline and never
 * dual-issue [RE].
 */
#define IPUXCOM_SCTL_DIRS		0x3u	/* sctl bits 0-1: the two directions [RE] */
#define IPUXCOM_SCTL_WIDE		0x4u	/* sctl bit 2: 64-bit items [RE] */
#define IPUXCOM_SENDPIC_XPIC0		0u	/* sendpic selectors [RE] */
#define IPUXCOM_SENDPIC_XPIC1		1u
#define IPUXCOM_SENDPIC_PIC0		2u
#define IPUXCOM_SENDPIC_PIC1		3u

/* sendpic: count-1 0..63, sel 0..3, value 0..8191 (sel < 2) or 0..262143. */
IPUXCOM_API int ipuxcom_enc_sendpic(uint32_t count_m1, uint32_t sel, uint32_t value,
				    uint32_t *word, struct ipuxcom_plan_error *err);

/*
 * sendpicp into @words[0..1]: picsel 0..1, count-1 0..63, src_word
 * 0..262143, sctl 0..7, xpic 0..16383, pic 0..262143. The caller places
 * words[0] on an 8-byte boundary.
 */
IPUXCOM_API int ipuxcom_enc_sendpicp(uint32_t picsel, uint32_t count_m1, uint32_t src_word,
				     uint32_t sctl, uint32_t xpic, uint32_t pic,
				     uint32_t words[2], struct ipuxcom_plan_error *err);

/* An incoming control an instruction applies. */
enum ipuxcom_ctl_kind {
	IPUXCOM_CTL_XPIC = 1,		/* the incoming mux (which source it listens to) */
	IPUXCOM_CTL_PIC = 2,		/* the incoming write pointer */
};

enum ipuxcom_ctl_when {
	IPUXCOM_CTL_AT_LAST_EVENT = 1,	/* delaypic / delayxpic [RE] */
	IPUXCOM_CTL_AT_FIRST_SEND = 2,	/* sendpic / sendpicp [RE] */
};

/*
 * An incoming control of a decoded instruction. Fixed: an array element
 * stored inside struct ipuxcom_decoded (which is fixed itself: an
 * instruction's decoding).
 */
struct ipuxcom_ctl {
	uint8_t kind;		/* enum ipuxcom_ctl_kind */
	uint8_t when;		/* enum ipuxcom_ctl_when */
	uint8_t form;		/* delaypic/delayxpic: the flag bit; sendpic: sel & 1;
				   sendpicp: picsel for the PIC, 0 for the XPIC */
	uint8_t reserved;	/* 0 */
	uint32_t value;		/* mux (XPIC) or pointer field (PIC) */
};

/* struct ipuxcom_decoded.flags */
#define IPUXCOM_DEC_SEND	(1u << 0)	/* takes send events of the outgoing stream */
#define IPUXCOM_DEC_TRANSMIT	(1u << 1)	/* sctl enables a direction: words leave */
#define IPUXCOM_DEC_WIDE	(1u << 2)	/* sctl bit 2: 64-bit items */
#define IPUXCOM_DEC_RESTART	(1u << 3)	/* transmitting sendpicp: stream restarts at src_word */
#define IPUXCOM_DEC_NO_SCTL	(1u << 4)	/* sendpic: no sctl field of its own */
#define IPUXCOM_DEC_ALIGN8	(1u << 5)	/* must start on an 8-byte boundary */

/*
 * A decoded instruction of one or two words, with what it does. Unused
 * fields are 0. Fixed (also as the input of ipuxcom_encode_insn()): an
 * instruction set's decoding; a new instruction form is a new op value.
 */
struct ipuxcom_decoded {
	uint32_t op;		/* enum ipuxcom_op */
	uint32_t nwords;	/* words it occupies: 1, or 2 for sendpicp */
	/*
	 * The encoder's arguments in order: for one-word ops f[0..2] are
	 * struct ipuxcom_insn's a, b, c (the word itself for OP_WORD/FIXED);
	 * sendpicp: picsel, count-1, src_word, sctl, xpic, pic.
	 */
	uint32_t f[6];
	uint32_t flags;		/* IPUXCOM_DEC_* */
	uint32_t sctl;		/* send, sendoff, sendpicp: the low 3 bits */
	uint32_t events;	/* events it takes: delay fields + 1, send forms count-1 + 1 [RE] */
	uint32_t src_word;	/* send, sendpicp: the source word address field */
	uint32_t nctl;		/* controls in ctl[] */
	struct ipuxcom_ctl ctl[2];	/* sendpicp: XPIC then PIC */
};

/*
 * Decode the instruction at @words[0] (@n words available; a sendpicp
 * needs two, else its first word is OP_WORD). Returns the words it
 * occupies (1 or 2), -EINVAL for NULL or @n == 0. Strict like
 * ipuxcom_decode(); encode_insn(decode_insn(x)) reproduces the words.
 */
IPUXCOM_API int ipuxcom_decode_insn(const uint32_t *words, size_t n,
				    struct ipuxcom_decoded *out);

/*
 * Encode @in->op from @in->f[] (other members ignored) into @words with
 * the checks of the per-op encoders. Returns the number of words (1 or 2)
 * or a negative errno.
 */
IPUXCOM_API int ipuxcom_encode_insn(const struct ipuxcom_decoded *in, uint32_t words[2],
				    struct ipuxcom_plan_error *err);

/*
 * Disassemble the instruction at @words[0] (@n available) like
 * ipuxcom_disasm(): "sendpicp 0, 51, 0x0, 0, 192, 0x14048". *@used (may
 * be NULL) gets the words it occupies. Returns the length or -EINVAL.
 */
IPUXCOM_API int ipuxcom_disasm_insn(const uint32_t *words, size_t n, char *buf, size_t len,
				    size_t *used);

/* -------------------------------------------------------------------- rows */

enum ipuxcom_row_role {
	IPUXCOM_ROLE_SEND = 1,
	IPUXCOM_ROLE_RECV = 2,
	IPUXCOM_ROLE_IDLE = 3,
};

/*
 * One tile's part of an exchange: IPUXCOM_ROW_WORDS words, the first
 * @nwords meaningful, the rest zero padding. Fixed: a hardware-shaped
 * record (the nine-word plan row [S]), stored in arrays and inside the
 * plan structs; its @tile is always the physical id.
 *
 * Sender rows are code from word 0 (JDLSend branches to planBuf[0] [S]).
 * Receiver rows start with a data word, the patch index, and their code
 * from word 1 (JDLRecv reads planBuf[0] [S]); the patched word is
 * words[1 + words[0]] (index counted from the code start: inferred, the
 * only reading that lands on the delayxpic).
 */
struct ipuxcom_plan_row {
	uint32_t words[IPUXCOM_ROW_WORDS];
	uint16_t tile;		/* physical id */
	uint8_t role;		/* enum ipuxcom_row_role */
	uint8_t nwords;		/* words before the zero padding */
	int8_t patch;		/* receiver: index in words[] of the run-time patched word, else -1 */
	int8_t addr;		/* multicast: index of the SRAM address word (send / delaypic), else -1 */
	uint16_t reserved;	/* 0 */
	/*
	 * Event model [RE], counted from the event after sync (modelled):
	 * sender: the event of its first send; receiver: the event its mux
	 * selects the source, i.e. the arrival of the first word.
	 */
	int32_t event;
};

/*
 * Disassemble words[@index] of @row with what it means in the row, e.g.
 * "delayxpic 112, 0, 0x0  ; mux <- sender (patched at run time)",
 * ".word 0x00000001  ; patch index: word 2", ".word 0x00000000  ; padding".
 * Returns the length like snprintf, or -EINVAL (NULL, index >= 9).
 */
IPUXCOM_API int ipuxcom_plan_row_disasm(const struct ipuxcom_plan_row *row, unsigned int index,
					char *buf, size_t len);

/* ------------------------------------------------------------ point-to-point */

/*
 * A point-to-point plan [S "Recovered Plan Shape"]. Grows at its end: start
 * from IPUXCOM_P2P_PLAN_INIT (as an input, to ipuxcom_xsim_add_p2p(), its
 * size says the same).
 */
struct ipuxcom_p2p_plan {
	uint32_t size;		/* sizeof(struct ipuxcom_p2p_plan), set by the caller */
	uint32_t reserved;	/* 0 (keeps the rows 8-byte aligned) */
	struct ipuxcom_plan_row send, recv;
	uint32_t count;
	int32_t time_to_mux;	/* TimeToMux(sender, receiver) */
	uint8_t direction;	/* 1 or 2 */
	uint8_t sync_boundary;	/* 1: TimeToMux == 112, the leading delay is omitted */
	uint16_t timing_kind;	/* enum ipuxcom_timing_kind of the model used */
	char timing_model[IPUXCOM_TIMING_NAME_LEN];	/* its name */
};

#define IPUXCOM_P2P_PLAN_INIT { .size = sizeof(struct ipuxcom_p2p_plan) }
/* The two rows and the count. */
#define IPUXCOM_P2P_PLAN_SIZE_MIN						\
	(offsetof(struct ipuxcom_p2p_plan, count) + sizeof(uint32_t))

/*
 * Plan @count words (1..4148) from @sender to @receiver (logical, or
 * physical with IPUXCOM_PLAN_PHYSICAL; the rows carry physical ids).
 * @out->size as IPUXCOM_P2P_PLAN_INIT sets it. Sender row:
 *   sync 3; delay(111 - T) [omitted when T == 112]; send(min(count,64)-1, 0, dir);
 *   sendoff(count-65, 0, dir) [count > 64]; br $m10; zero padding
 * Receiver row (r = receiver's physical row):
 *   1 (patch index); sync 3; delayxpic(112, 0, 0) [mux patched at run time];
 *   count <= 51: delayxpic(count-1, 0, 0x640); delaypic(51-count+2r, 0, 0); delay(count+4)
 *   count == 52: delaypic(50+2r, 0, 0); delayxpic(0, 0, 0x640); delay(56)
 *   count >= 53: delaypic(51+2r, 0, 0); delayxpic(count-53, 0, 0x640); delay(56)
 *   br $m10; zero padding
 * Errors: E_NULL, E_SIZE ("out.size"), E_FLAGS, E_TILE, E_COUNT, E_SELF,
 * E_TIMING.
 */
IPUXCOM_API int ipuxcom_plan_p2p(const struct ipuxcom_timing *tm, uint32_t sender,
				 uint32_t receiver, uint32_t count, uint32_t flags,
				 struct ipuxcom_p2p_plan *out, struct ipuxcom_plan_error *err);

/*
 * 64-bit point-to-point plans (issue 16). Physical ids that differ by XOR 2
 * share 64-bit exchange resources [RE]: a send with sctl = direction(s, d)
 * | IPUXCOM_SCTL_WIDE moves 64-bit items, two words per event, and the
 * route's receive timing is the pair's, max(TimeToMux(s, d),
 * TimeToMux(s, d ^ 2)); the member of {d, d ^ 2} with the smaller
 * TimeToMux owns the pair's XPIC stream [RE]. So @count (even) words take
 * count / 2 events. Rows (the p2p shapes with items for words, modelled):
 *   sender:   sync 3; delay(111 - Tpair) [omitted at 112];
 *             send(min(items,64)-1, 0, dir | 4); sendoff(items-65, 0, dir | 4)
 *             [items > 64]; br $m10
 *   receiver: 1; sync 3; delayxpic(112, 0, 0); the p2p receive schedule of
 *             items events; br $m10
 * Addressing is relative as in p2p (the vertices' A7/A4 bases); @src_addr
 * and @dst_addr are those bases, which must be 8-byte aligned and hold
 * @count words in tile SRAM. How the receiving pair's second mux
 * (INCOMING_MUXPAIR, CSR 0xa1 [RE]) is set is not known: the plan leaves
 * it to the vertex (modelled), and reports the owner in @info.
 * Errors: those of ipuxcom_plan_p2p(); E_COUNT (odd, or above 2 * 4148);
 * E_SELF (the receiver or its pair partner is the sender: no pair timing);
 * E_ALIGN (not 8-byte aligned); E_ADDR; E_INFEASIBLE (-EOPNOTSUPP: the
 * receiver does not own its pair's items, its partner does, so its window
 * would take nothing [RE]).
 *
 * With IPUXCOM_PLAN_WIDE in @flags the function does not refuse a
 * transfer that has no 64-bit route: when the count is odd, an address is
 * not 8-byte aligned, the partner is the sender or the receiver does not
 * own its pair's XPIC stream (the partner's TimeToMux is smaller, or equal
 * with a lower id: the verifier's rule), @out gets exactly the 32-bit plan
 * of ipuxcom_plan_p2p() and @info says so (sctl without the WIDE bit,
 * items == count, wide = the reason). Addresses must still be 4-byte
 * aligned buffers inside SRAM (E_ALIGN, E_ADDR), the count 1..2 * 4148
 * (and 1..4148 for the 32-bit plan).
 */
#define IPUXCOM_PLAN_MAX_WIDE_COUNT	(2u * IPUXCOM_PLAN_MAX_COUNT)

/*
 * Why a plan asked for with IPUXCOM_PLAN_WIDE is (or is not) a 64-bit one;
 * ipuxcom_plan_wide_str() describes a value.
 */
enum ipuxcom_wide_why {
	IPUXCOM_WIDE_USED = 0,		/* 64-bit items on the paired route */
	IPUXCOM_WIDE_ODD_COUNT,		/* the count is odd */
	IPUXCOM_WIDE_ALIGN,		/* a buffer is not 8-byte aligned */
	IPUXCOM_WIDE_PARTNER_SENDER,	/* a receiver's pair partner (id ^ 2) is the sender */
	IPUXCOM_WIDE_NOT_OWNER,		/* a receiver's partner owns the pair's XPIC stream */
	IPUXCOM_WIDE_PARTNER_LISTED,	/* a receiver's partner is a receiver too */
	IPUXCOM_WIDE_SCHEDULE,		/* multicast: a pair's receive cycle does not fit 12 bits */
	/* Since 1.0: */
	IPUXCOM_WIDE_NOT_ASKED,		/* no IPUXCOM_PLAN_WIDE in the request */
	/* the scheduler's (struct ipuxcom_schedule_slot): */
	IPUXCOM_WIDE_LEGACY,		/* IPUXCOM_SCHEDULE_LEGACY: 32-bit streams only */
	IPUXCOM_WIDE_NOT_EARLIER,	/* the 32-bit placement's last write came no later */
	IPUXCOM_WIDE_PHASE,		/* the all-32-bit packing was kept: shorter phase, or the only fit */
	IPUXCOM_WIDE_MAX
};

/* "64-bit route", "odd count", ...; "?" for an unknown value. Never NULL. */
IPUXCOM_API const char *ipuxcom_plan_wide_str(uint32_t why);

/* Grows at its end: start from IPUXCOM_P2P_WIDE_INFO_INIT. */
struct ipuxcom_p2p_wide_info {
	uint32_t size;			/* sizeof(struct ipuxcom_p2p_wide_info), set by the caller */
	uint32_t items;			/* events the stream takes: count / 2 (count: 32-bit plan) */
	uint32_t partner;		/* receiver ^ 2 (physical) */
	int32_t time_to_mux;		/* TimeToMux(sender, receiver) */
	int32_t partner_time_to_mux;	/* TimeToMux(sender, partner); 0 if the partner is the sender */
	int32_t pair_time;		/* the plan's time_to_mux: the max of the two (32-bit: the first) */
	/*
	 * The member with the smaller time; a tie: the lower id (modelled, as
	 * the verifier); the receiver when the partner is the sender.
	 */
	uint32_t xpic_owner;
	uint32_t sctl;			/* direction(sender, receiver) | IPUXCOM_SCTL_WIDE (32-bit: without) */
	uint32_t wide;			/* enum ipuxcom_wide_why: IPUXCOM_WIDE_USED, or why not */
};

#define IPUXCOM_P2P_WIDE_INFO_INIT { .size = sizeof(struct ipuxcom_p2p_wide_info) }
/* Enough for @items. */
#define IPUXCOM_P2P_WIDE_INFO_SIZE_MIN						\
	(offsetof(struct ipuxcom_p2p_wide_info, items) + sizeof(uint32_t))

/* @out and @info (may be NULL) sized as their _INIT macros set them. */
IPUXCOM_API int ipuxcom_plan_p2p_wide(const struct ipuxcom_timing *tm, uint32_t sender,
				      uint32_t receiver, uint32_t count, uint32_t src_addr,
				      uint32_t dst_addr, uint32_t flags,
				      struct ipuxcom_p2p_plan *out,
				      struct ipuxcom_p2p_wide_info *info,
				      struct ipuxcom_plan_error *err);

/* ---------------------------------------------- one source, many receivers */

/*
 * A request for multicast, serialized fan-out, relay tree or dispatch.
 * Grows at its end: start from IPUXCOM_FANOUT_REQ_INIT (E_SIZE, field
 * "req.size").
 */
struct ipuxcom_fanout_req {
	uint32_t size;			/* sizeof(struct ipuxcom_fanout_req), set by the caller */
	uint32_t sender;
	uint32_t count;			/* words, 1..4148 */
	/* ids logical unless IPUXCOM_PLAN_PHYSICAL; multicast: IPUXCOM_PLAN_WIDE */
	uint32_t flags;
	uint32_t nrecv;
	const uint32_t *receivers;	/* nrecv distinct tiles, none the sender */
	/* Multicast only (absolute tile SRAM byte addresses [S]); ignored otherwise: */
	uint32_t src_addr;		/* source buffer on the sender */
	uint32_t schedule_offset;	/* events added to the whole stream */
	const uint32_t *dst_addr;	/* nrecv destination buffers, one per receiver */
};

#define IPUXCOM_FANOUT_REQ_INIT { .size = sizeof(struct ipuxcom_fanout_req) }
/* What every fan-out needs: sender, count, flags, nrecv, receivers. */
#define IPUXCOM_FANOUT_REQ_SIZE_MIN						\
	(offsetof(struct ipuxcom_fanout_req, receivers) + sizeof(const uint32_t *))

/* Grows at its end: start from IPUXCOM_MULTICAST_INFO_INIT. */
struct ipuxcom_multicast_info {
	uint32_t size;			/* sizeof(struct ipuxcom_multicast_info), set by the caller */
	int32_t min_t, max_t;		/* min and max TimeToMux(sender, receivers[i]) */
	uint32_t start;			/* max(0, -min_t) */
	int32_t send_delay;		/* start + schedule_offset - 1; -1: delay omitted */
	uint32_t max_recv_time;		/* largest delayxpic receive cycle */
	uint16_t timing_kind;
	char timing_model[IPUXCOM_TIMING_NAME_LEN];
	/*
	 * The stream's width, written whatever the flags (since 1.0): a
	 * request without IPUXCOM_PLAN_WIDE gets sctl 3, items = count, wide
	 * IPUXCOM_WIDE_NOT_ASKED and wide_recv UINT32_MAX.
	 */
	uint32_t sctl;			/* the send's: 3 | IPUXCOM_SCTL_WIDE, or 3 */
	uint32_t items;			/* send events of the stream: count / 2, or count */
	uint32_t wide;			/* enum ipuxcom_wide_why: IPUXCOM_WIDE_USED, or why not */
	uint32_t wide_recv;		/* index of the receiver that ruled it out, or UINT32_MAX */
};

#define IPUXCOM_MULTICAST_INFO_INIT { .size = sizeof(struct ipuxcom_multicast_info) }
/* Enough for the schedule members, up to @max_recv_time. */
#define IPUXCOM_MULTICAST_INFO_SIZE_MIN						\
	(offsetof(struct ipuxcom_multicast_info, max_recv_time) + sizeof(uint32_t))

/*
 * Multicast [S "Proper Multicast", assembleMulticast]: one mode-3 source
 * stream, one receive row per destination. rows[0] is the sender's,
 * rows[1 + i] receivers[i]'s; @nrows >= nrecv + 1 (E_SPACE).
 *   t[i] = TimeToMux(s, r[i]); start = max(0, -min t[i]);
 *   send at event start + offset (delay start + offset - 1, omitted at -1);
 *   recvTime[i] = start + offset + t[i]   (12-bit field: E_SCHEDULE)
 * Sender: sync 3; [delay]; send(min(count,64)-1, src_addr/4, 3);
 *   [sendoff(count-65, 0, 3)]; br $m10; padding.
 * Receiver i: patch index of the address word (this library's convention,
 *   modelled on the p2p row); sync 3; delayxpic(recvTime[i], 0, sender);
 *   the p2p receive schedule with the delaypic word ORed with 0x14000 and
 *   its low field (dst_addr[i] - 0x50000) / 4; br $m10; padding.
 * Addresses: 4-byte aligned (E_ALIGN), buffers of count words inside tile
 * SRAM (E_ADDR); a destination's word offset must not have the flag bits
 * 0x14000 set (E_ADDR_FLAG, inferred), i.e. dst in 0x50000..0x5ffff,
 * 0x70000..0x7ffff or 0xd0000..0xdffff.
 * nrecv 1..1471 (E_NRECV); also E_NULL, E_FLAGS, E_TILE, E_COUNT, E_SELF,
 * E_DUP, E_TIMING. @info may be NULL.
 *
 * 64-bit multicast (req->flags & IPUXCOM_PLAN_WIDE, issue 16): when the
 * count is even, src_addr and every dst_addr are 8-byte aligned, and
 * every receiver owns its pair for this sender (its partner r ^ 2 is not
 * the sender and not a receiver, and TimeToMux(s, r) is smaller than the
 * partner's, or equal with r the lower id [RE; the tie is modelled as in
 * the verifier]), the stream moves 64-bit items: send sctl 3 | 4, count / 2
 * send events, t[i] above is the pair's time max(TimeToMux(s, r),
 * TimeToMux(s, r ^ 2)) and each receiver's schedule is that of count / 2
 * events. Otherwise (or when a pair's receive cycle does not fit 12 bits)
 * the rows are exactly the 32-bit multicast's. @info's sctl, items, wide
 * and wide_recv say which and why. Same errors.
 */
IPUXCOM_API int ipuxcom_plan_multicast(const struct ipuxcom_timing *tm,
				       const struct ipuxcom_fanout_req *req,
				       struct ipuxcom_plan_row *rows, size_t nrows,
				       struct ipuxcom_multicast_info *info,
				       struct ipuxcom_plan_error *err);

/* Receivers one serialized sender row holds [S "Serialized Fan-Out"]. */
#define IPUXCOM_SERIAL_MAX_RECV		6	/* count <= 64 */
#define IPUXCOM_SERIAL_MAX_RECV_SENDOFF	3	/* count > 64 */

/* Grows at its end: start from IPUXCOM_SERIALIZED_INFO_INIT. */
struct ipuxcom_serialized_info {
	uint32_t size;			/* sizeof(struct ipuxcom_serialized_info), set by the caller */
	uint32_t first_send;		/* event of the first send */
	uint32_t max_recv_time;
	uint16_t timing_kind;
	char timing_model[IPUXCOM_TIMING_NAME_LEN];
};

#define IPUXCOM_SERIALIZED_INFO_INIT { .size = sizeof(struct ipuxcom_serialized_info) }
/* Enough for @first_send. */
#define IPUXCOM_SERIALIZED_INFO_SIZE_MIN					\
	(offsetof(struct ipuxcom_serialized_info, first_send) + sizeof(uint32_t))

/*
 * Serialized fan-out [S assembleSerializedFanOut]: back-to-back p2p sends
 * in one nine-word sender row, each in its own direction, and p2p receive
 * rows whose first delayxpic is retimed to the actual arrival. Modelled
 * schedule: send i (0-based) starts at S + off[i], off[i] = i*count + the
 * gaps before it, with
 *   S = max(112 - T[0], max_i(-(T[i] + off[i])))
 * so a single receiver reproduces the p2p plan word for word. At count
 * >= 52 a receiver on physical row r > 0 that is not the last is followed
 * by a delay of 2r events (one word): the notes' receive window stays open
 * 2r events past its count, and the event model says it would otherwise
 * take the next send's first words (docs/exchange-verifier.md). Receive
 * cycles must fit 12 bits (E_SCHEDULE): receiver order matters.
 * nrecv 1..6 for count <= 64, 1..3 above, and the gaps must fit the nine
 * words (E_NRECV). Addresses and
 * schedule_offset are ignored (relative A7/A4 addressing, as p2p).
 * rows[0] sender, rows[1 + i] receivers; @info may be NULL.
 */
IPUXCOM_API int ipuxcom_plan_serialized(const struct ipuxcom_timing *tm,
					const struct ipuxcom_fanout_req *req,
					struct ipuxcom_plan_row *rows, size_t nrows,
					struct ipuxcom_serialized_info *info,
					struct ipuxcom_plan_error *err);

/*
 * One relay transfer: a p2p plan of req->count words in launch @round
 * (1-based). Fixed: an array element (a new member would change the
 * stride every caller allocates), and the step is complete.
 */
struct ipuxcom_relay_step {
	uint16_t round;
	uint16_t sender;	/* physical */
	uint16_t receiver;	/* physical */
	uint16_t reserved;
};

/*
 * Relay tree [S buildRelayTree]: in each round every informed tile
 * (sender first, then receivers in the order they were informed) sends to
 * the next uninformed receiver, so N receivers take ceil(log2(N + 1))
 * rounds. @steps gets nrecv entries (E_SPACE), ordered by round; each is
 * planned with ipuxcom_plan_p2p(). @rounds may be NULL. Addresses ignored.
 */
IPUXCOM_API int ipuxcom_plan_relay(const struct ipuxcom_fanout_req *req,
				   struct ipuxcom_relay_step *steps, size_t nsteps,
				   uint32_t *rounds, struct ipuxcom_plan_error *err);

/* Fan-out methods, as bits for ipuxcom_plan_dispatch(). */
#define IPUXCOM_FANOUT_MULTICAST	(1u << 0)
#define IPUXCOM_FANOUT_SERIALIZED	(1u << 1)
#define IPUXCOM_FANOUT_RELAY		(1u << 2)
#define IPUXCOM_FANOUT_ALL		0x7u

/* Fixed: stored inside struct ipuxcom_dispatch, which grows at its end instead. */
struct ipuxcom_fanout_cost {
	uint32_t method;	/* one IPUXCOM_FANOUT_* bit */
	int32_t reject;		/* 0: feasible; else the enum ipuxcom_plan_errc why not */
	uint32_t launches;	/* exchange launches (syncs) */
	uint32_t copies;	/* payload copies crossing the fabric */
	uint64_t cycles;	/* estimated exchange cycles */
	uint64_t total;		/* cycles + launches * IPUXCOM_COST_LAUNCH */
	char why[200];		/* the arithmetic, or "rejected: " + the assembler's message */
};

/* Grows at its end: start from IPUXCOM_DISPATCH_INIT (E_SIZE, "out.size"). */
struct ipuxcom_dispatch {
	uint32_t size;		/* sizeof(struct ipuxcom_dispatch), set by the caller */
	uint32_t chosen;	/* one IPUXCOM_FANOUT_* bit */
	/* [0] multicast, [1] serialized, [2] relay; reject E_METHOD if not allowed */
	struct ipuxcom_fanout_cost cand[3];
	char reason[400];	/* why @chosen won, and the others' totals */
};

#define IPUXCOM_DISPATCH_INIT { .size = sizeof(struct ipuxcom_dispatch) }
/* Enough for @chosen. */
#define IPUXCOM_DISPATCH_SIZE_MIN						\
	(offsetof(struct ipuxcom_dispatch, chosen) + sizeof(uint32_t))

/*
 * Pick the cheapest allowed method (@methods: IPUXCOM_FANOUT_* bits) for
 * @req by an explicit cost model:
 *   multicast:  1 launch, 1 copy, 156 + count cycles [S]
 *   serialized: 1 launch, N copies, 156 + N*count cycles (modelled)
 *   relay:      R = ceil(log2(N+1)) launches, N copies, R*(156 + count) (modelled)
 *   total = cycles + 600 * launches (sync cost [RE], modelled)
 * Ties go to fewer copies, then the order above. Each candidate is first
 * checked by its assembler; a rejected one records why. E_INFEASIBLE when
 * none is feasible (out still describes each), E_METHOD for bad @methods.
 */
IPUXCOM_API int ipuxcom_plan_dispatch(const struct ipuxcom_timing *tm,
				      const struct ipuxcom_fanout_req *req, uint32_t methods,
				      struct ipuxcom_dispatch *out, struct ipuxcom_plan_error *err);

/* "multicast", "serialized", "relay" or "?". */
IPUXCOM_API const char *ipuxcom_fanout_method_name(uint32_t method);

/* ------------------------------------------------------ non-participation */

#define IPUXCOM_IDLE_RAW	(1u << 1)	/* only the two raw words, no br $m10 */

/*
 * The row of a tile that takes no part in an exchange pass: sans
 * (0x40c00000), sync 1 (0x41800001) [S], then br $m10 so it can be
 * branched into like any plan row (this library's addition; omitted with
 * IPUXCOM_IDLE_RAW). Flags: IPUXCOM_PLAN_PHYSICAL (or _LOGICAL, the
 * default), IPUXCOM_IDLE_RAW.
 */
IPUXCOM_API int ipuxcom_plan_idle(uint32_t tile, uint32_t flags, struct ipuxcom_plan_row *row,
				  struct ipuxcom_plan_error *err);

/* -------------------------------------------------- run-time patch helpers */

/*
 * What the notes' vertices do to plan words at run time [S "Runtime Vertex
 * Behavior", "Proper Multicast"], for tile code that does it itself or for
 * the host to pre-patch. They work on raw words (a row as stored on the
 * tile), check that each touched word is the instruction expected, and
 * never write on failure.
 */

/* The index of the receiver's patched word: 1 + words[0] (see struct ipuxcom_plan_row). */
IPUXCOM_API int ipuxcom_patch_index(const uint32_t *words, size_t nwords, size_t *index,
				    struct ipuxcom_plan_error *err);

/*
 * JDLRecv: put the physical id of logical @tile_selector (the sender)
 * into the low 13 bits of the delayxpic at the patch index.
 */
IPUXCOM_API int ipuxcom_patch_recv(uint32_t *words, size_t nwords, uint32_t tile_selector,
				   struct ipuxcom_plan_error *err);

/* JDLRecv's restore: `andc 0x1fff` on the patched delayxpic. */
IPUXCOM_API int ipuxcom_patch_recv_restore(uint32_t *words, size_t nwords,
					   struct ipuxcom_plan_error *err);

/*
 * JDLSend: CSR 0xa7 (OUTGOING_BASE) = @data + @element_selector * 4, an
 * aligned address inside tile SRAM.
 */
IPUXCOM_API int ipuxcom_patch_send_base(uint32_t data, uint32_t element_selector,
					uint32_t *outgoing_base, struct ipuxcom_plan_error *err);

/*
 * NoBlobMulticastSend: set the sender row's send address to @src_addr / 4
 * (the row's own count bounds the buffer). A 64-bit multicast's row (send
 * sctl 3 | IPUXCOM_SCTL_WIDE) sends two words per event and needs an
 * 8-byte aligned @src_addr (E_ALIGN).
 */
IPUXCOM_API int ipuxcom_patch_mcast_src(uint32_t *words, size_t nwords, uint32_t src_addr,
					struct ipuxcom_plan_error *err);

/*
 * NoBlobMulticastRecv: set a multicast receive row's delaypic low field to
 * (@dst_addr - 0x50000) / 4, keeping the 0x14000 flag; same address rules
 * as ipuxcom_plan_multicast(). A receive row does not say whether its
 * events carry 64-bit items: for a 64-bit multicast's row the buffer is
 * checked for one word per event, and 8-byte alignment is the caller's.
 */
IPUXCOM_API int ipuxcom_patch_mcast_dst(uint32_t *words, size_t nwords, uint32_t dst_addr,
					struct ipuxcom_plan_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IPUXCOM_PLAN_H */
