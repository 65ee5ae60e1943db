/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * libipuxcom exchange verifier: an event-level simulator of one exchange
 * phase, a phase scheduler that packs transfers, and the notes' two demos
 * (all-tile parallel sum, 4x4 matrix multiply) run in the simulator.
 *
 * Pure computation: nothing here touches a device, and nothing here has
 * run against a C600. The simulator is written from the event semantics of
 * the hardware record (HW-EVENT-MODEL [RE]) and the seed notes [S]; everything
 * it adds is labelled "modelled" or "inferred" here and in
 * docs/exchange-verifier.md, which lists every assumption.
 *
 * Conventions are those of ipuxcom_plan.h: tile ids given with flags are
 * logical unless they say IPUXCOM_PLAN_PHYSICAL (ipuxcom_xsim_declare(),
 * the scheduler's options, the fan-out requests); the simulator's own
 * calls without flags (SRAM, programs, rows, tile ends) and every result
 * (hazards, writes, actions, programs) use physical ids, as their members
 * say; sized structs as there; functions return 0 or a negative errno
 * and fill a struct ipuxcom_plan_error (may be NULL) with a code of enum
 * ipuxcom_plan_errc and a message naming the field and value; the library
 * never prints and never exits. A simulator or schedule object is not
 * thread-safe; distinct objects may be used by distinct threads.
 */
#ifndef IPUXCOM_XSIM_H
#define IPUXCOM_XSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipuxcom_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- constants */

/* A word selected at event x is written 52 + 2 * row(receiver) events later [RE]. */
#define IPUXCOM_XSIM_WRITE_LATENCY	52u

/*
 * The longest phase the notes' row shapes can encode (modelled bound):
 * a receive row opens its mux at most at event 4095 (the first delayxpic's
 * 12-bit field [S]), keeps it open for at most 4148 + 2 * 22 events
 * (largest count [S], row term on physical row 22) and ends 57 events
 * later (delay(56) [S]) with br $m10 at the next event:
 * 4095 + 4148 + 44 + 57 + 1 = 8345. Any activity at or beyond the
 * configured bound is IPUXCOM_XSIM_H_PHASE_LENGTH and is not simulated.
 */
#define IPUXCOM_XSIM_MAX_EVENTS		8345u

/* Hazard entries a run records by default (further ones are counted as dropped). */
#define IPUXCOM_XSIM_DEFAULT_MAX_HAZARDS	1024u

/* ---------------------------------------------------------------- hazards */

/*
 * What a run reports. Errors first, notes (IPUXCOM_XSIM_N_*) last: a note
 * is what the model says about a plan that is not wrong under it.
 */
enum ipuxcom_xsim_kind {
	IPUXCOM_XSIM_H_NONE = 0,
	/* A receiver captured a word that no transfer declared for it carries
	 * (another tile, or the declared sender outside the declared source
	 * range, or a declared word a second time). Needs declarations. */
	IPUXCOM_XSIM_H_WRONG_SOURCE,
	/* One mux window captured words of two or more streams: the mux was
	 * left open while another stream of its source passed. */
	IPUXCOM_XSIM_H_MUX_OVERLAP,
	/* The tile's rows ended with the incoming mux still selecting a source
	 * (no restore to 0x640): a later phase can consume unrelated traffic [S]. */
	IPUXCOM_XSIM_H_MUX_OPEN_AT_END,
	/* Words a receiver should have captured did not arrive in a mux window:
	 * a declared transfer delivered short, a window that captured nothing,
	 * or (without declarations) a stream only partly inside the window. */
	IPUXCOM_XSIM_H_MISSED,
	/* A captured word reached its write event before any PIC was set. */
	IPUXCOM_XSIM_H_WRITE_NO_PIC,
	/* A write outside tile SRAM, or outside every receive buffer declared
	 * on that tile. */
	IPUXCOM_XSIM_H_WRITE_OUTSIDE,
	/* A declared word written inside a declared buffer but at the wrong offset. */
	IPUXCOM_XSIM_H_MISPLACED,
	/* A write landing at or after the event of the tile's br $m10 (inferred:
	 * the notes' rows end 6-7 events after their last write). */
	IPUXCOM_XSIM_H_WRITE_AFTER_END,
	/* A tile sending two words in one event (rows of one tile overlaid). */
	IPUXCOM_XSIM_H_SEND_CONFLICT,
	/* Two mux (or two PIC) settings of one tile in one event (overlaid rows). */
	IPUXCOM_XSIM_H_ACTION_CONFLICT,
	/* A send reading outside tile SRAM (the word sent is taken as 0). */
	IPUXCOM_XSIM_H_SEND_OUTSIDE,
	/* A row that does not end in br $m10: it runs off its last word, into
	 * zero padding, or ends in br $mN with N != 10. */
	IPUXCOM_XSIM_H_NO_BR,
	/* A code word that does not decode (TEXCPT_INVALID_INSTR on hardware [S]). */
	IPUXCOM_XSIM_H_UNDECODABLE,
	/* A word that decodes but has no exchange semantics in the model: a
	 * non-exchange instruction, a second sync, a delaypic/delayxpic flag
	 * bit 18/13 set, a send direction not 1..3, a mux value that is no tile
	 * (or the host mux 0x600, or the tile itself). */
	IPUXCOM_XSIM_H_UNSUPPORTED,
	/* A participating row whose first code word is not sync (or sans). */
	IPUXCOM_XSIM_H_NO_SYNC,
	/* With IPUXCOM_XSIM_ALL_TILES: a tile that runs no row. Every tile must
	 * run its role or the non-participation row in every pass [S]. */
	IPUXCOM_XSIM_H_NO_ROW,
	/* Activity at or beyond the phase bound (IPUXCOM_XSIM_MAX_EVENTS by
	 * default): longer than the notes' encodable row fields reach. */
	IPUXCOM_XSIM_H_PHASE_LENGTH,
	/* -- notes -- */
	/* A mux window stayed open with nothing arriving before its first or
	 * after its last captured word. At counts >= 52 on physical rows > 0
	 * the notes' rows keep the mux open 2 * row events after the stream
	 * (HW-OPEN-MUX-WINDOW); the model says that is harmless unless
	 * the source sends again within those events. */
	IPUXCOM_XSIM_N_IDLE_WINDOW,
	/* A PIC set before the first write that uses it (count 52: one event
	 * early); harmless under the model when no other write lands between. */
	IPUXCOM_XSIM_N_PIC_EARLY,
	/* -- errors added later (kept after the notes so that no value moves) -- */
	/* A word taken in this phase is taken or written at or after the phase
	 * end: the last br $m10 of any tile of the phase. Past it every tile
	 * can reach the next sync, so the next phase could overlap the word
	 * (modelled: the phase ends when its last row returns). Words that no
	 * tile takes are not checked: they are dropped (docs/exchange-verifier.md). */
	IPUXCOM_XSIM_H_IN_FLIGHT_AT_SYNC,
	/* -- merged send/control instructions and 64-bit exchange (issue 16) -- */
	/* A sendpicp that does not start on an 8-byte boundary [RE: "must start
	 * on an 8-byte boundary"; the program's code address, or word 0 taken
	 * as aligned], or a 64-bit item read or written at an address that is
	 * not 8-byte aligned (modelled: an item is two consecutive words). */
	IPUXCOM_XSIM_H_MISALIGNED,
	/* The double-width resources of a tile pair (physical ids XOR 2 [RE])
	 * used twice in one event (modelled): a 64-bit send while the partner
	 * sends, or a 64-bit item taken while the partner takes a word. */
	IPUXCOM_XSIM_H_PAIR_CONFLICT,
	/* A send read or an incoming write on a 16 KiB memory element that
	 * holds the row's own code (needs ipuxcom_xsim_set_code_addr()): the
	 * notes require elem(data/result) != elem(planBuf) [S]; instruction
	 * fetch contends with them [RE]. */
	IPUXCOM_XSIM_H_SRAM_FETCH,
	/* -- notes -- */
	/* A send read and an incoming write on the same 16 KiB memory element
	 * in the same event: they can contend [RE]; what one event's contention
	 * does is not known (modelled as a note). */
	IPUXCOM_XSIM_N_SRAM_CONTENTION,
	IPUXCOM_XSIM_KIND_MAX
};

enum ipuxcom_xsim_severity {
	IPUXCOM_XSIM_ERROR = 1,
	IPUXCOM_XSIM_NOTE = 2,
};

/*
 * One reported hazard. Repeats of one kind on one tile from one program
 * are merged: @occurrences counts them, @event is the earliest. NO_ROW is
 * one entry for the whole chip (@tile the first such tile). Not
 * caller-allocated: ipuxcom_xsim_hazards() returns the library's array, so
 * a new member would come with a new accessor, not a size.
 */
struct ipuxcom_xsim_hazard {
	uint32_t kind;		/* enum ipuxcom_xsim_kind */
	uint32_t severity;	/* enum ipuxcom_xsim_severity */
	uint32_t tile;		/* physical tile where it was observed */
	uint32_t other;		/* the other tile involved (a source), or UINT32_MAX */
	int32_t event;		/* first event (tile-local, counted from the event after sync) */
	int32_t program;	/* index of the program (in adding order), or -1 */
	int32_t word;		/* index of the word in that program, or -1 */
	uint32_t occurrences;
	char msg[256];
};

/* "wrong-source", "mux-overlap", ..., "idle-window"; "?" for others. */
IPUXCOM_API const char *ipuxcom_xsim_kind_name(uint32_t kind);
/* IPUXCOM_XSIM_ERROR or IPUXCOM_XSIM_NOTE; 0 for an unknown kind. */
IPUXCOM_API uint32_t ipuxcom_xsim_kind_severity(uint32_t kind);

/* -------------------------------------------------------------- simulator */

struct ipuxcom_xsim;

/* Configuration flags. */
/* Every word reaches every tile whose mux selects its source, whatever its
 * send direction (conservative). Default (inferred): a word sent in
 * direction D reaches tile d only when D & direction(s, d) != 0 (D = 3,
 * BROADCAST [DW], reaches every tile). */
#define IPUXCOM_XSIM_ANY_DIRECTION	(1u << 0)
/* Every one of the 1472 tiles must run a row (IPUXCOM_XSIM_H_NO_ROW). */
#define IPUXCOM_XSIM_ALL_TILES		(1u << 1)
/* Keep the list of SRAM writes for ipuxcom_xsim_writes(). */
#define IPUXCOM_XSIM_LOG_WRITES		(1u << 2)

/* Grows at its end: start from IPUXCOM_XSIM_CONFIG_INIT (E_SIZE "cfg.size"). */
struct ipuxcom_xsim_config {
	uint32_t size;				/* sizeof(struct ipuxcom_xsim_config) */
	const struct ipuxcom_timing *timing;	/* NULL: ipuxcom_timing_default() */
	uint32_t flags;				/* IPUXCOM_XSIM_* above */
	uint32_t max_events;			/* 0: IPUXCOM_XSIM_MAX_EVENTS */
	uint32_t max_hazards;			/* 0: IPUXCOM_XSIM_DEFAULT_MAX_HAZARDS */
};

#define IPUXCOM_XSIM_CONFIG_INIT { .size = sizeof(struct ipuxcom_xsim_config) }
/* Enough for @timing and @flags. */
#define IPUXCOM_XSIM_CONFIG_SIZE_MIN						\
	(offsetof(struct ipuxcom_xsim_config, flags) + sizeof(uint32_t))

/*
 * Create a simulator: empty SRAM (every word reads 0), no programs. @cfg
 * may be NULL (all defaults). The timing model must outlive the simulator.
 * Errors: E_NULL (out), E_FLAGS, E_NOMEM.
 */
IPUXCOM_API int ipuxcom_xsim_create(const struct ipuxcom_xsim_config *cfg,
				    struct ipuxcom_xsim **out, struct ipuxcom_plan_error *err);
IPUXCOM_API void ipuxcom_xsim_free(struct ipuxcom_xsim *sim);

/* Drop programs, declarations and the last run's results; SRAM too with this flag. */
#define IPUXCOM_XSIM_RESET_SRAM		(1u << 0)
IPUXCOM_API int ipuxcom_xsim_reset(struct ipuxcom_xsim *sim, uint32_t flags,
				   struct ipuxcom_plan_error *err);

/*
 * Tile SRAM (sparse; 0x4c000 + 624 KiB [RE]): @n words at byte address
 * @addr of physical @tile. Aligned (E_ALIGN), inside SRAM (E_ADDR),
 * E_TILE, E_NULL. _fill writes @value @n times.
 */
IPUXCOM_API int ipuxcom_xsim_sram_write(struct ipuxcom_xsim *sim, uint32_t tile, uint32_t addr,
					const uint32_t *words, size_t n,
					struct ipuxcom_plan_error *err);
IPUXCOM_API int ipuxcom_xsim_sram_fill(struct ipuxcom_xsim *sim, uint32_t tile, uint32_t addr,
				       uint32_t value, size_t n, struct ipuxcom_plan_error *err);
IPUXCOM_API int ipuxcom_xsim_sram_read(const struct ipuxcom_xsim *sim, uint32_t tile,
				       uint32_t addr, uint32_t *words, size_t n,
				       struct ipuxcom_plan_error *err);

/* words[0] of the program is data (the receiver rows' patch index), code from words[1]. */
#define IPUXCOM_XSIM_PROG_DATA0		(1u << 0)

/*
 * One tile's code for the phase, as it would run (already patched). Code
 * starts with sync (or sans, sync for non-participation) and ends in
 * br $m10. Addressing (modelled after the notes' vertices [S]):
 *  - send/sendoff read from @outgoing_base + 4 * address field (A7, CSR
 *    0xa7: JDLSend's data + elementSelector * 4); 0 means absolute
 *    addressing, the multicast convention (source word address in send);
 *  - a delaypic whose low field has both multicast flag bits (0x14000) set
 *    points the write pointer at 4 * field (absolute [S]); otherwise at
 *    @incoming_base + 4 * field (A4, CSR 0xa4: JDLRecv's result buffer).
 * A tile may have several programs: they are overlaid, each counting
 * events from the same sync, sharing the tile's mux, PIC and outgoing
 * port (modelled: how the notes combine streams in one program is not
 * documented); resource clashes are hazards.
 * Fixed: the description of a program as the hardware runs it (tile,
 * words, the two address registers); where it lies in SRAM is set by its
 * own call, ipuxcom_xsim_set_code_addr(), and so would any addition.
 */
struct ipuxcom_xsim_program {
	uint32_t tile;		/* physical */
	uint32_t flags;		/* IPUXCOM_XSIM_PROG_* */
	const uint32_t *words;	/* copied */
	uint32_t nwords;	/* 1..4096 */
	uint32_t incoming_base;	/* A4 byte address */
	uint32_t outgoing_base;	/* A7 byte address, or 0: absolute */
};

/* Add a program; returns its index (>= 0) or a negative errno (E_TILE, E_NULL, E_COUNT...). */
IPUXCOM_API int ipuxcom_xsim_add_program(struct ipuxcom_xsim *sim,
					 const struct ipuxcom_xsim_program *prog,
					 struct ipuxcom_plan_error *err);

/*
 * Where program @prog (an index ipuxcom_xsim_add_program() returned) lies
 * in its tile's SRAM: @addr is the byte address of words[0] (4-byte
 * aligned, the whole program inside SRAM). With it a run checks a
 * sendpicp's 8-byte alignment at its real address and reports sends and
 * writes on the memory elements of the code (IPUXCOM_XSIM_H_SRAM_FETCH).
 * Without it (the default, 0) words[0] is taken as 8-byte aligned
 * (modelled: plan buffers are) and the code's elements are not checked.
 * Errors: E_NULL, E_FIELD (no such program), E_ALIGN, E_ADDR.
 */
IPUXCOM_API int ipuxcom_xsim_set_code_addr(struct ipuxcom_xsim *sim, int prog, uint32_t addr,
					   struct ipuxcom_plan_error *err);

/*
 * Declare what a transfer means: @count words from @src_addr on @sender
 * to @dst_addr[i] on @receivers[i] (logical; IPUXCOM_PLAN_PHYSICAL in
 * @flags for physical). Declarations are the receivers' intent: with them
 * a run reports wrong-source captures, misplaced and missing words, and
 * writes outside the declared buffers. Validation as the multicast
 * planner's: E_TILE, E_SELF, E_DUP, E_COUNT, E_ALIGN, E_ADDR (any
 * aligned SRAM buffer is accepted here), E_NRECV, E_NULL.
 */
/* Grows at its end: start from IPUXCOM_XSIM_XFER_INIT (E_SIZE "xfer.size"). */
struct ipuxcom_xsim_xfer {
	uint32_t size;		/* sizeof(struct ipuxcom_xsim_xfer) */
	uint32_t sender;
	uint32_t src_addr;
	uint32_t count;
	uint32_t flags;
	uint32_t nrecv;
	const uint32_t *receivers;
	const uint32_t *dst_addr;
};

#define IPUXCOM_XSIM_XFER_INIT { .size = sizeof(struct ipuxcom_xsim_xfer) }
#define IPUXCOM_XSIM_XFER_SIZE_MIN						\
	(offsetof(struct ipuxcom_xsim_xfer, dst_addr) + sizeof(const uint32_t *))

IPUXCOM_API int ipuxcom_xsim_declare(struct ipuxcom_xsim *sim, const struct ipuxcom_xsim_xfer *x,
				     struct ipuxcom_plan_error *err);

/*
 * ---- loading plans of ipuxcom_plan.h (each also declares the transfer) ----
 * On failure part of a plan may already have been added: reset the
 * simulator before running it.
 */

/*
 * A row as it lives in a plan buffer (all nine words): a sender row with
 * A7 = @base, a receiver row (word 0 data) with A4 = @base, an idle row.
 */
IPUXCOM_API int ipuxcom_xsim_add_row(struct ipuxcom_xsim *sim, const struct ipuxcom_plan_row *row,
				     uint32_t base, struct ipuxcom_plan_error *err);

/*
 * A p2p plan as JDLSend/JDLRecv run it [S]: the receiver row patched with
 * the sender (ipuxcom_patch_recv()), A7 = @src_addr, A4 = @dst_addr, and
 * the transfer declared. Also a 64-bit plan of ipuxcom_plan_p2p_wide():
 * its count (up to 2 * 4148 words) is declared in consecutive parts of at
 * most 4148 words.
 */
IPUXCOM_API int ipuxcom_xsim_add_p2p(struct ipuxcom_xsim *sim, const struct ipuxcom_p2p_plan *plan,
				     uint32_t src_addr, uint32_t dst_addr,
				     struct ipuxcom_plan_error *err);

/*
 * Multicast rows from ipuxcom_plan_multicast(@req): absolute addressing
 * (the addresses are in the words); the transfer is declared from @req.
 */
IPUXCOM_API int ipuxcom_xsim_add_multicast(struct ipuxcom_xsim *sim,
					   const struct ipuxcom_fanout_req *req,
					   const struct ipuxcom_plan_row *rows, size_t nrows,
					   struct ipuxcom_plan_error *err);

/*
 * Serialized fan-out rows from ipuxcom_plan_serialized(@req): relative
 * addressing like p2p, sender A7 = @src_addr, receiver i patched with the
 * sender and A4 = @dst_addr[i]; the transfer is declared.
 */
IPUXCOM_API int ipuxcom_xsim_add_serialized(struct ipuxcom_xsim *sim,
					    const struct ipuxcom_fanout_req *req,
					    const struct ipuxcom_plan_row *rows, size_t nrows,
					    uint32_t src_addr, const uint32_t *dst_addr,
					    struct ipuxcom_plan_error *err);

/* The non-participation row (ipuxcom_plan_idle()) on every tile that has no program. */
IPUXCOM_API int ipuxcom_xsim_fill_idle(struct ipuxcom_xsim *sim, struct ipuxcom_plan_error *err);

/* ------------------------------------------------------------------- run */

/* Grows at its end: start from IPUXCOM_XSIM_RESULT_INIT (E_SIZE "res.size"). */
struct ipuxcom_xsim_result {
	uint32_t size;			/* sizeof(struct ipuxcom_xsim_result), set by the caller */
	uint32_t events;		/* phase length: after the last br, write or send */
	uint32_t programs;		/* programs simulated */
	uint32_t tiles;			/* tiles with at least one program */
	uint32_t active_tiles;		/* tiles that send or select a source */
	uint32_t errors;		/* error entries (occurrences merged) */
	uint32_t notes;			/* note entries */
	uint32_t dropped;		/* occurrences not recorded: the list was full */
	uint32_t streams;		/* send streams (a send and the sendoff right after it) */
	uint64_t words_sent;
	uint64_t words_captured;	/* words taken by some mux */
	uint64_t words_written;		/* writes that reached SRAM */
	uint64_t tile_events;		/* sum over tiles of their events up to br $m10 */
	uint32_t declared;		/* declared (transfer, receiver) pairs */
	uint32_t delivered;		/* of those, delivered completely and in place */
	uint16_t timing_kind;
	char timing_model[IPUXCOM_TIMING_NAME_LEN];
};

#define IPUXCOM_XSIM_RESULT_INIT { .size = sizeof(struct ipuxcom_xsim_result) }
/* Enough for the counts up to @notes. */
#define IPUXCOM_XSIM_RESULT_SIZE_MIN						\
	(offsetof(struct ipuxcom_xsim_result, notes) + sizeof(uint32_t))

/*
 * Simulate the phase: decode every program, move words, apply the writes
 * to SRAM, check declarations. Sends read the SRAM as it was when the run
 * started (modelled: a phase's writes feed the next phase). May be run
 * again after more programs are added; each run replaces the last one's
 * results and applies its writes again on top of the current SRAM.
 * @res may be NULL. Returns 0 whatever the hazards (they are results);
 * errors: E_NULL, E_NOMEM.
 */
IPUXCOM_API int ipuxcom_xsim_run(struct ipuxcom_xsim *sim, struct ipuxcom_xsim_result *res,
				 struct ipuxcom_plan_error *err);

/* The last run's hazards, errors first then notes, each in order of discovery. */
IPUXCOM_API const struct ipuxcom_xsim_hazard *ipuxcom_xsim_hazards(const struct ipuxcom_xsim *sim,
								   size_t *n);

/* Number of hazard entries of @kind in the last run (0 for none or an unknown kind). */
IPUXCOM_API size_t ipuxcom_xsim_count(const struct ipuxcom_xsim *sim, uint32_t kind);

/*
 * One SRAM write of the last run (IPUXCOM_XSIM_LOG_WRITES). Not
 * caller-allocated: ipuxcom_xsim_writes() returns the library's array.
 */
struct ipuxcom_xsim_write {
	int32_t event;		/* receiver-local write event */
	int32_t send_event;	/* sender-local event the word left */
	uint16_t tile;		/* receiver (physical) */
	uint16_t src_tile;
	uint32_t addr;		/* byte address written */
	uint32_t src_addr;	/* byte address read on the sender */
	uint32_t value;
};

/* The last run's writes in (receiver, event) order; NULL and 0 without the flag. */
IPUXCOM_API const struct ipuxcom_xsim_write *ipuxcom_xsim_writes(const struct ipuxcom_xsim *sim,
								 size_t *n);

/*
 * The last run's actions, for pictures and tools that show a phase (the
 * command's `plan schedule --trace`): every send, mux setting and PIC
 * setting the programs made, as the simulator decoded them. Reading them
 * costs nothing: the run keeps them anyway. Index order: sends, then mux
 * settings, then PIC settings, each in (tile, event) order. Received
 * words are the writes of ipuxcom_xsim_writes() (IPUXCOM_XSIM_LOG_WRITES).
 */
enum ipuxcom_xsim_action_kind {
	IPUXCOM_XSIM_A_SEND = 1,	/* @words words from byte address @value */
	IPUXCOM_XSIM_A_MUX = 2,		/* the incoming mux selects @value (or MUX_OFF) */
	IPUXCOM_XSIM_A_PIC = 3,		/* the write pointer is set to byte address @value */
};

/* A mux action's @value when the mux stops selecting any source. */
#define IPUXCOM_XSIM_MUX_OFF	UINT32_MAX

struct ipuxcom_xsim_action {
	uint32_t size;		/* set by the caller; kept by the library */
	uint32_t kind;		/* enum ipuxcom_xsim_action_kind */
	uint32_t tile;		/* physical tile acting */
	int32_t event;		/* tile-local event it takes effect (a send's first word) */
	uint32_t words;		/* send: words, one per event; 0 otherwise */
	uint32_t value;		/* see the kinds */
	uint32_t dir;		/* send: direction 1..3 (0: none it can take), with
				   IPUXCOM_SCTL_WIDE (4) for 64-bit items: two words
				   per event, @words counts events; 0 otherwise */
	uint32_t stream;	/* send: stream number (a send and the sendoff right after it) */
	int32_t program;	/* program index (adding order) */
	int32_t word;		/* word index in that program */
};

/*
 * The struct grows at its end, like struct ipuxcom_event: the caller sets
 * @size (IPUXCOM_XSIM_ACTION_INIT), at least IPUXCOM_XSIM_ACTION_SIZE_MIN,
 * and the library fills exactly that many bytes, members it does not know
 * zero, keeping @size.
 */
#define IPUXCOM_XSIM_ACTION_INIT { .size = sizeof(struct ipuxcom_xsim_action) }
/* Enough for @kind, @tile and @event. */
#define IPUXCOM_XSIM_ACTION_SIZE_MIN						\
	(offsetof(struct ipuxcom_xsim_action, event) + sizeof(int32_t))

/* Actions of the last run (0 before a run or after a failed one). */
IPUXCOM_API size_t ipuxcom_xsim_nactions(const struct ipuxcom_xsim *sim);
/*
 * Action @i into @out (its @size set): 0, -EINVAL (NULL, or @out->size 0
 * or below IPUXCOM_XSIM_ACTION_SIZE_MIN), -ERANGE (i >= ipuxcom_xsim_nactions()).
 */
IPUXCOM_API int ipuxcom_xsim_action(const struct ipuxcom_xsim *sim, size_t i,
				    struct ipuxcom_xsim_action *out);
/* Event of physical @tile's last br $m10 in the last run; -1 if it ran no program. */
IPUXCOM_API int32_t ipuxcom_xsim_tile_end(const struct ipuxcom_xsim *sim, uint32_t tile);

/* "error mux-overlap tile 53 (program 1, word 3) event 140: ..." Like snprintf. */
IPUXCOM_API int ipuxcom_xsim_hazard_format(const struct ipuxcom_xsim_hazard *h, char *buf,
					   size_t len);

/* --------------------------------------------------------------- scheduler */

/*
 * A transfer to schedule: @count words from @src_addr on @sender to
 * @dst_addr[i] on @receivers[i]. Scheduled programs address absolutely:
 * send carries src/4 (A7 = 0) and every receive uses the notes' flagged
 * multicast delaypic form (modelled for single-receiver transfers), so
 * destinations must lie in 0x50000-0x5ffff, 0x70000-0x7ffff or
 * 0xd0000-0xdffff (see docs/exchange-plans.md).
 * Fixed: an array element (ipuxcom_schedule_build() takes an array, and a
 * transfer list holds one); a new member would change the stride every
 * caller allocates, so it would come with a new call.
 */
struct ipuxcom_schedule_xfer {
	uint32_t sender;
	uint32_t count;			/* 1..4148 */
	uint32_t nrecv;			/* 1..1471 */
	const uint32_t *receivers;
	uint32_t src_addr;
	const uint32_t *dst_addr;
};

/*
 * Ids are logical (the default since 1.0; the plan flag) or physical.
 * Both: E_FLAGS.
 */
#define IPUXCOM_SCHEDULE_LOGICAL		IPUXCOM_PLAN_LOGICAL
#define IPUXCOM_SCHEDULE_PHYSICAL		IPUXCOM_PLAN_PHYSICAL
/* Close each mux exactly after its count words (modelled). Default: keep
 * the notes' window, count + 2 * row events at counts >= 52, and keep the
 * source silent for those extra events. */
#define IPUXCOM_SCHEDULE_EXACT_WINDOW	(1u << 1)
/*
 * Today's packing, kept reachable (issue 16): the list scheduler of issue 4
 * (one 32-bit stream per transfer, separate mux and PIC settings), so that
 * later scheduling improvements are measured against it in the same run
 * (bench/sched_bench). Without this flag the default algorithm is used:
 * it also places single-receiver transfers as 64-bit items on paired
 * routes (even count, 8-byte aligned buffers, the receiver owns its pair's
 * XPIC stream [RE]) where that ends them earlier, and never returns a
 * phase longer than this flag's (docs/exchange-verifier.md).
 */
#define IPUXCOM_SCHEDULE_LEGACY		(1u << 2)
/*
 * No search (issue 34): the default algorithm places the transfers once,
 * in the caller's order, and keeps the legacy packing where that is
 * shorter, so the phase is still never longer than LEGACY's. For a
 * program that builds a schedule at run time (a new routing per step):
 * on bench/sched_bench's suite such a build takes a median 1.5x the
 * legacy packing's time where the default's takes 14x (up to ~400x on
 * multicast sets), for phases on average 1.38x the lower bound instead
 * of 1.08x (docs/exchange-verifier.md, "The quick build"). With LEGACY
 * it changes nothing.
 */
#define IPUXCOM_SCHEDULE_QUICK		(1u << 4)	/* bit 3 is PHYSICAL */

/*
 * Grows at its end: start from IPUXCOM_SCHEDULE_OPTS_INIT (E_SIZE
 * "opts.size"). NULL options: all defaults (logical ids).
 */
struct ipuxcom_schedule_opts {
	uint32_t size;				/* sizeof(struct ipuxcom_schedule_opts) */
	const struct ipuxcom_timing *timing;	/* NULL: the default */
	uint32_t flags;				/* IPUXCOM_SCHEDULE_* */
	uint32_t max_events;			/* 0: IPUXCOM_XSIM_MAX_EVENTS */
	/*
	 * Search effort (issue 34). 0: the default budget, a
	 * fixed amount of search work per build (64 units per transfer and
	 * receiver, at least 131072). 1..IPUXCOM_SCHEDULE_EFFORT_MAX: at most
	 * @effort times the work of the build's first placement, so the
	 * search's cost follows the set's own placement cost: low values for
	 * a schedule built at run time, high ones for the shortest phases
	 * (docs/exchange-verifier.md, "Search effort", measures phase and
	 * build time against it). With QUICK or LEGACY, which search
	 * nothing: E_FIELD "effort". ipuxcom_schedule_bound() ignores it.
	 */
	uint32_t effort;
};

#define IPUXCOM_SCHEDULE_EFFORT_MAX	65536

#define IPUXCOM_SCHEDULE_OPTS_INIT { .size = sizeof(struct ipuxcom_schedule_opts) }
/* Enough for @timing and @flags. */
#define IPUXCOM_SCHEDULE_OPTS_SIZE_MIN						\
	(offsetof(struct ipuxcom_schedule_opts, flags) + sizeof(uint32_t))

/* Where one transfer was placed. Grows at its end: start from IPUXCOM_SCHEDULE_SLOT_INIT. */
struct ipuxcom_schedule_slot {
	uint32_t size;		/* sizeof(struct ipuxcom_schedule_slot), set by the caller */
	int32_t start;		/* event of the first send */
	int32_t first_arrival;	/* earliest mux-open event over its receivers */
	int32_t last_write;	/* latest write event over its receivers */
	uint32_t gap;		/* events its sender stays silent after it (the extra window) */
	/* The route width it got (since 1.0): */
	uint32_t sctl;		/* its send's: direction (3: BROADCAST) | IPUXCOM_SCTL_WIDE if 64-bit */
	uint32_t items;		/* send events: count / 2 on a 64-bit route, else count */
	uint32_t wide;		/* enum ipuxcom_wide_why: IPUXCOM_WIDE_USED, or why 32-bit */
};

#define IPUXCOM_SCHEDULE_SLOT_INIT { .size = sizeof(struct ipuxcom_schedule_slot) }
/* Enough for @start, @first_arrival and @last_write. */
#define IPUXCOM_SCHEDULE_SLOT_SIZE_MIN						\
	(offsetof(struct ipuxcom_schedule_slot, last_write) + sizeof(int32_t))

struct ipuxcom_schedule;

/*
 * Pack @n transfers into one phase, each as early as its constraints
 * allow, in the order given (list scheduling); the default scheduler
 * then also tries other placement orders and splits transfers for 64-bit
 * routes, keeping a shorter phase (issue 25, docs/exchange-verifier.md
 * "Placement orders and split transfers"); slots and declarations stay
 * per caller's transfer. Constraints (modelled):
 * one outgoing word per sender per event and no other action of the
 * sender while it sends; per receiver one mux window at a time (count
 * words, plus the notes' extra window unless EXACT_WINDOW), PIC set after
 * the previous stream's last write and no later than this stream's first
 * write, one mux or PIC action per tile per event; arrival >= 0; every
 * event below the phase bound. Transfers with one receiver are sent in
 * direction(s, d), others in BROADCAST (3).
 * Errors: E_NULL, E_FLAGS, E_COUNT, E_NRECV, E_TILE, E_SELF, E_DUP,
 * E_ALIGN, E_ADDR, E_ADDR_FLAG, E_TIMING, E_SCHEDULE (does not fit the
 * phase bound), E_NOMEM. Field names are "xfers[i].receivers[j]" etc.
 */
IPUXCOM_API int ipuxcom_schedule_build(const struct ipuxcom_schedule_opts *opts,
				       const struct ipuxcom_schedule_xfer *xfers, size_t n,
				       struct ipuxcom_schedule **out, struct ipuxcom_plan_error *err);
IPUXCOM_API void ipuxcom_schedule_free(struct ipuxcom_schedule *s);

/* Phase length in events: the event of the last program's br $m10 + 1. */
IPUXCOM_API uint32_t ipuxcom_schedule_events(const struct ipuxcom_schedule *s);
IPUXCOM_API size_t ipuxcom_schedule_nxfers(const struct ipuxcom_schedule *s);
/*
 * Slot @i into @out (its @size set): 0, -EINVAL (NULL, or @out->size 0 or
 * below IPUXCOM_SCHEDULE_SLOT_SIZE_MIN), -ERANGE (i >= _nxfers()).
 */
IPUXCOM_API int ipuxcom_schedule_slot(const struct ipuxcom_schedule *s, size_t i,
				      struct ipuxcom_schedule_slot *out);

/* Programs: one per tile taking part, in tile order. Words belong to @s. */
IPUXCOM_API size_t ipuxcom_schedule_nprograms(const struct ipuxcom_schedule *s);
IPUXCOM_API int ipuxcom_schedule_program(const struct ipuxcom_schedule *s, size_t i,
					 struct ipuxcom_xsim_program *out);

/* With it, _load() also adds the non-participation row on every other tile. */
#define IPUXCOM_SCHEDULE_LOAD_IDLE		(1u << 0)

/* Add the programs and declare the transfers in @sim (its timing must be the schedule's). */
IPUXCOM_API int ipuxcom_schedule_load(const struct ipuxcom_schedule *s, struct ipuxcom_xsim *sim,
				      uint32_t flags, struct ipuxcom_plan_error *err);

/*
 * The notes' fixed stagger for comparison [S "One-Codelet Matrix
 * Multiply"]: transfer i as ipuxcom_plan_multicast() with scheduleOffset
 * @step * i, rows overlaid per tile; loads rows and declarations into
 * @sim (flags as _load()). Run @sim for its phase length and hazards.
 */
IPUXCOM_API int ipuxcom_schedule_stagger(const struct ipuxcom_schedule_opts *opts,
					 const struct ipuxcom_schedule_xfer *xfers, size_t n,
					 uint32_t step, struct ipuxcom_xsim *sim, uint32_t flags,
					 struct ipuxcom_plan_error *err);

/*
 * A lower bound on the phase length of a set of transfers (issue 25),
 * under the verifier's own event model (docs/exchange-verifier.md "A lower
 * bound on the phase"): no set of programs the simulator runs without an
 * error and with every declared delivery complete has a shorter phase
 * (the last br $m10 + 1), whatever the scheduler. Each term is the phase
 * length it alone forces; @events is the largest. Tiles are physical.
 */
struct ipuxcom_schedule_bound {
	uint32_t size;		/* set by the caller (IPUXCOM_SCHEDULE_BOUND_INIT); kept */
	uint32_t events;	/* the bound: max of the terms below (0 for no transfer) */
	uint32_t route;		/* one transfer's routes (one receiver, or mixed widths), alone */
	uint32_t route_xfer;	/* the transfer and receiver tile of the largest route term */
	uint32_t route_tile;
	uint32_t receive;	/* one receiver's mux: one item per event over its transfers, */
	uint32_t receive_tile;	/* or an XOR-2 pair's shared 64-bit resources (its lower id) */
	uint32_t send;		/* one sender's port: one item per event over its words */
	uint32_t send_tile;
};

#define IPUXCOM_SCHEDULE_BOUND_INIT { .size = sizeof(struct ipuxcom_schedule_bound) }
/* Enough for @events. */
#define IPUXCOM_SCHEDULE_BOUND_SIZE_MIN						\
	(offsetof(struct ipuxcom_schedule_bound, events) + sizeof(uint32_t))

/*
 * The bound of @n transfers (checked as ipuxcom_schedule_build() checks
 * ids, counts and timing; opts->flags: IPUXCOM_SCHEDULE_LOGICAL matters,
 * the other scheduler flags are accepted and change nothing, since the
 * bound holds for every schedule) into @out, which the library fills up to
 * @out->size. Errors: E_NULL, E_SIZE ("bound.size"), E_FLAGS, E_COUNT,
 * E_NRECV, E_TILE, E_SELF, E_TIMING, E_FIELD.
 */
IPUXCOM_API int ipuxcom_schedule_bound(const struct ipuxcom_schedule_opts *opts,
				       const struct ipuxcom_schedule_xfer *xfers, size_t n,
				       struct ipuxcom_schedule_bound *out,
				       struct ipuxcom_plan_error *err);

/*
 * Transfer lists (docs/exchange-verifier.md "Transfer lists"), one
 * transfer per line, '#' comments:
 *   p2p SRC DST COUNT [src=ADDR] [dst=ADDR]
 *   multicast SRC COUNT DST... [src=ADDR] [dst=ADDR[,ADDR...]]
 *   physical          (a line on its own: ids below are physical)
 * Ids are logical by default. Addresses default to consecutive buffers:
 * sources from 0x80000 per sender, destinations from 0x50000 per receiver
 * (then 0x70000, 0xd0000). The list holds physical ids: build it with
 * IPUXCOM_SCHEDULE_PHYSICAL. Not caller-allocated (the parser allocates
 * it), so it has no size.
 */
struct ipuxcom_schedule_list {
	size_t n;
	struct ipuxcom_schedule_xfer *xfers;
	uint32_t *line;		/* source line of each transfer */
};

/* Ids are physical from the first line on (as if the text began with "physical"). */
#define IPUXCOM_SCHEDULE_LIST_PHYSICAL	(1u << 0)

/* Parse @len bytes of @text. E_FORMAT ("line 3: ..."), E_FLAGS, E_NOMEM, E_NULL. */
IPUXCOM_API int ipuxcom_schedule_list_parse(const char *text, size_t len, uint32_t flags,
					 struct ipuxcom_schedule_list **out,
					 struct ipuxcom_plan_error *err);
IPUXCOM_API void ipuxcom_schedule_list_free(struct ipuxcom_schedule_list *l);

/*
 * The scheduler's first names (issue 23: one prefix per family, that of
 * struct ipuxcom_schedule). The functions remain for existing binaries and
 * are deprecated; the types and flags are aliases (define
 * IPUXCOM_NO_DEPRECATED_NAMES to leave them out).
 */
IPUXCOM_API int ipuxcom_sched_list_parse(const char *text, size_t len, uint32_t flags,
					 struct ipuxcom_schedule_list **out,
					 struct ipuxcom_plan_error *err)
	__attribute__((deprecated("use ipuxcom_schedule_list_parse()")));
IPUXCOM_API void ipuxcom_sched_list_free(struct ipuxcom_schedule_list *l)
	__attribute__((deprecated("use ipuxcom_schedule_list_free()")));
#ifndef IPUXCOM_NO_DEPRECATED_NAMES
#define ipuxcom_sched_xfer		ipuxcom_schedule_xfer
#define ipuxcom_sched_opts		ipuxcom_schedule_opts
#define ipuxcom_sched_slot		ipuxcom_schedule_slot
#define ipuxcom_sched_list		ipuxcom_schedule_list
#define IPUXCOM_SCHED_LOGICAL		IPUXCOM_SCHEDULE_LOGICAL
#define IPUXCOM_SCHED_EXACT_WINDOW	IPUXCOM_SCHEDULE_EXACT_WINDOW
#define IPUXCOM_SCHED_LEGACY		IPUXCOM_SCHEDULE_LEGACY
#define IPUXCOM_SCHED_LOAD_IDLE		IPUXCOM_SCHEDULE_LOAD_IDLE
#define IPUXCOM_SCHED_LIST_PHYSICAL	IPUXCOM_SCHEDULE_LIST_PHYSICAL
#endif

/* ------------------------------------------------------------------ demos */

#define IPUXCOM_DEMO_SUM_ROUNDS		11u
#define IPUXCOM_DEMO_SUM_EXPECTED	1084128u	/* 1472 * 1473 / 2 [S] */

/*
 * All-tile parallel sum [S "All-Tile Parallel Sum"]: logical tile t holds
 * t + 1; round k (1..11) sends, in one phase of one-word p2p plans, from
 * every logical t with t % 2^k == 2^(k-1) to t - 2^(k-1), which adds the
 * word (tile compute modelled in C); every other tile runs the
 * non-participation row. Round 1 is 736 simultaneous transfers.
 */
/* Grows at its end: start from IPUXCOM_DEMO_SUM_INIT (E_SIZE "out.size"). */
struct ipuxcom_demo_sum {
	uint32_t size;		/* sizeof(struct ipuxcom_demo_sum), set by the caller */
	uint32_t tiles;
	uint32_t rounds;
	uint32_t transfers[IPUXCOM_DEMO_SUM_ROUNDS];	/* per round */
	uint32_t events[IPUXCOM_DEMO_SUM_ROUNDS];	/* phase length per round */
	uint64_t sum;					/* logical tile 0 at the end */
	uint64_t expected;
	uint32_t errors, notes;				/* over all rounds */
	bool pass;	/* sum == expected, no error, every transfer delivered */
	char timing_model[IPUXCOM_TIMING_NAME_LEN];
};

#define IPUXCOM_DEMO_SUM_INIT { .size = sizeof(struct ipuxcom_demo_sum) }
/* Enough for every member but the timing model's name. */
#define IPUXCOM_DEMO_SUM_SIZE_MIN	offsetof(struct ipuxcom_demo_sum, timing_model)

IPUXCOM_API int ipuxcom_demo_sum(const struct ipuxcom_timing *tm, struct ipuxcom_demo_sum *out,
				 struct ipuxcom_plan_error *err);

/*
 * 4x4 signed integer matrix multiply on 24 active logical tiles [S
 * "One-Codelet Matrix Multiply"]: tiles 0..3 own the rows of A, 4..7 the
 * columns of B, tile 8 + 4i + j computes C[i][j]; eight multicast streams
 * of four words, all in one phase; the other 1448 tiles run the
 * non-participation row. Inputs: the notes give only C; A and B here are
 * derived (docs/exchange-verifier.md) and C is checked against a direct
 * multiplication and against the notes' C.
 */
/* Exchange by the notes' fixed 256-event stagger (default) or by the scheduler. */
#define IPUXCOM_DEMO_PACKED		(1u << 0)

/* Grows at its end: start from IPUXCOM_DEMO_MATMUL_INIT (E_SIZE "out.size"). */
struct ipuxcom_demo_matmul {
	uint32_t size;			/* sizeof(struct ipuxcom_demo_matmul), set by the caller */
	int32_t a[4][4], b[4][4];
	int32_t c[4][4];		/* read back from the output tiles' SRAM */
	int32_t expected[4][4];		/* direct multiplication on the host */
	uint32_t active_tiles, streams, words_per_stream;
	uint32_t events;		/* phase length of the exchange used */
	uint32_t stagger_events;	/* the 256-event stagger's phase length */
	uint32_t packed_events;		/* the scheduler's */
	uint32_t errors, notes;
	bool matches_notes;		/* C equals the notes' printed C */
	bool pass;			/* C == expected, no error, all delivered */
	char timing_model[IPUXCOM_TIMING_NAME_LEN];
};

#define IPUXCOM_DEMO_MATMUL_INIT { .size = sizeof(struct ipuxcom_demo_matmul) }
/* Enough for every member but the timing model's name. */
#define IPUXCOM_DEMO_MATMUL_SIZE_MIN	offsetof(struct ipuxcom_demo_matmul, timing_model)

IPUXCOM_API int ipuxcom_demo_matmul(const struct ipuxcom_timing *tm, uint32_t flags,
				    struct ipuxcom_demo_matmul *out,
				    struct ipuxcom_plan_error *err);

/*
 * Watching a demo's exchange phases (the command's `demo --trace`): after
 * each simulated phase @phase gets the simulator (valid only during the
 * call: read its actions, writes and hazards), the run's result and a
 * name ("round 3", "packed schedule", "stagger (256 events per
 * transfer)"). @sim_flags are added to the demo simulator's flags
 * (IPUXCOM_XSIM_LOG_WRITES to see the writes). The _watch variants with
 * @watch NULL are the functions above.
 * The struct grows at its end; @size says which version the caller was
 * built with, as struct ipuxcom_load_params's: start from
 * IPUXCOM_DEMO_WATCH_INIT. Any size from IPUXCOM_DEMO_WATCH_SIZE_MIN up is
 * taken, members past a smaller size are zero; a bigger struct whose
 * members unknown to the library are not all zero fails with -E2BIG, and
 * size 0 or too small with -EINVAL (both IPUXCOM_PLAN_E_SIZE, field
 * "watch.size").
 */
struct ipuxcom_demo_watch {
	uint32_t size;		/* sizeof(struct ipuxcom_demo_watch) */
	void (*phase)(void *ctx, const struct ipuxcom_xsim *sim,
		      const struct ipuxcom_xsim_result *res, const char *name);
	void *ctx;
	uint32_t sim_flags;	/* IPUXCOM_XSIM_LOG_WRITES only */
};

#define IPUXCOM_DEMO_WATCH_INIT { .size = sizeof(struct ipuxcom_demo_watch) }
/* The members every watcher needs: size, phase, ctx. */
#define IPUXCOM_DEMO_WATCH_SIZE_MIN						\
	(offsetof(struct ipuxcom_demo_watch, ctx) + sizeof(void *))

IPUXCOM_API int ipuxcom_demo_sum_watch(const struct ipuxcom_timing *tm,
				       const struct ipuxcom_demo_watch *watch,
				       struct ipuxcom_demo_sum *out,
				       struct ipuxcom_plan_error *err);
IPUXCOM_API int ipuxcom_demo_matmul_watch(const struct ipuxcom_timing *tm, uint32_t flags,
					  const struct ipuxcom_demo_watch *watch,
					  struct ipuxcom_demo_matmul *out,
					  struct ipuxcom_plan_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IPUXCOM_XSIM_H */
