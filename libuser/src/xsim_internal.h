/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Internals of the exchange verifier (ipuxcom_xsim.h): the simulator
 * object shared by xsim.c (API, SRAM, hazards), xsim_run.c (the event
 * model), xsim_plan.c (loading plans), schedule*.c and demo_*.c. Every
 * name is ixc_*: the version script exports ipuxcom_* only.
 */
#ifndef IPUXCOM_XSIM_INTERNAL_H
#define IPUXCOM_XSIM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipuxcom_xsim.h"
#include "plan_internal.h"

/* Sparse SRAM: 4 KiB pages, allocated on first write. */
#define IXC_XPAGE_WORDS		1024u
#define IXC_XPAGES		(IPUXCOM_SRAM_SIZE / (IXC_XPAGE_WORDS * 4u))

/* Programs are at most this many words. */
#define IXC_XPROG_MAX_WORDS	4096u

/* A bound on max_events so that no event arithmetic can overflow int32. */
#define IXC_XSIM_EVENT_CAP	(1u << 24)

struct ixc_xprog {
	uint32_t tile;
	uint32_t flags;
	uint32_t a4, a7;
	size_t off;		/* first word in sim->words */
	uint32_t n;
	uint32_t code_addr;	/* byte address of word 0 in SRAM; 0: unknown (word 0 8-aligned) */
};

/* One (transfer, receiver) of a declaration. */
struct ixc_xdecl {
	uint32_t xfer;		/* declaration number */
	uint32_t recv;		/* receiver index in it */
	uint32_t sender, src, count;
	uint32_t tile, dst;
	size_t bits;		/* first bit in sim->bits */
	uint32_t delivered;
};

/* A send or sendoff of one program: @n words from @addr, events [start, start + n). */
struct ixc_xsend {
	int32_t start;
	uint32_t n;
	uint32_t addr;
	uint32_t stream;
	int32_t prog;
	int32_t word;
	uint16_t tile;
	uint8_t dir;
	uint8_t wide;		/* sctl bit 2: 64-bit items, two words per event [RE] */
};

/* 64-bit items a pair owner's mux took during capture events [x0, x1). */
struct ixc_xspan {
	int32_t x0, x1;
	int32_t prog, word;
	uint16_t tile, src;
};

/* The 16 KiB memory element of an SRAM byte address [RE]. */
#define IXC_XELEM_BYTES		(16u * 1024u)
static inline uint32_t ixc_xelem(uint32_t addr)
{
	return (addr - IPUXCOM_SRAM_BASE) / IXC_XELEM_BYTES;
}

/* A mux or PIC setting, effective from @event on. */
struct ixc_xact {
	int32_t event;
	uint32_t value;		/* mux: source tile, or IXC_XMUX_OFF; pic: the field */
	uint32_t addr;		/* pic: the byte address the write pointer gets */
	int32_t prog;
	int32_t word;
	uint16_t tile;
};

#define IXC_XMUX_OFF	IPUXCOM_XSIM_MUX_OFF

struct ixc_xhslot {
	uint32_t key_kind, key_tile;
	int32_t key_prog;
	int32_t index;		/* into sim->haz; -1 empty */
};

struct ipuxcom_xsim {
	struct ipuxcom_xsim_config cfg;
	const struct ipuxcom_timing *tm;
	uint32_t max_events;
	uint32_t max_hazards;

	uint32_t **pages[IPUXCOM_TILES];	/* per tile: IXC_XPAGES page pointers, lazily */

	struct ixc_xprog *progs;
	size_t nprogs, cap_progs;
	uint32_t *words;
	size_t nwords, cap_words;
	uint16_t tile_nprogs[IPUXCOM_TILES];

	struct ixc_xdecl *decls;
	size_t ndecls, cap_decls;
	uint32_t ndeclared;		/* declarations made */
	size_t nbits;			/* total declared words */

	/* ---- the last run ---- */
	struct ixc_xsend *sends;
	size_t nsends, cap_sends;
	struct ixc_xact *mux, *pic;
	size_t nmux, cap_mux, npic, cap_pic;
	uint32_t *stream_words;		/* words per stream id */
	size_t cap_streams;
	uint32_t nstreams;
	int32_t tile_end[IPUXCOM_TILES];	/* event of the tile's last br, -1: no program */
	uint32_t send_first[IPUXCOM_TILES + 1];
	uint32_t mux_first[IPUXCOM_TILES + 1];
	uint32_t pic_first[IPUXCOM_TILES + 1];
	uint32_t decl_first[IPUXCOM_TILES + 1];
	uint32_t *decl_order;		/* decl indices by receiver tile */
	size_t cap_decl_order;
	uint64_t *bits;			/* delivered words of each declaration */
	size_t cap_bits;		/* in uint64_t */

	struct ipuxcom_xsim_hazard *haz, *haz_tmp;
	size_t nhaz;
	struct ixc_xhslot *hslots;
	size_t nhslots;			/* power of two */

	struct ipuxcom_xsim_write *wlog;
	size_t nwlog, cap_wlog;
	struct ixc_xspan *spans;	/* 64-bit receptions of the last run */
	size_t nspans, cap_spans;

	struct ipuxcom_xsim_result res;
	bool ran;
};

/* Grow *@arr (elements of @size) to hold @need; false on overflow or ENOMEM. */
bool ixc_xgrow(void **arr, size_t *cap, size_t need, size_t size);

/* SRAM word at byte @addr (aligned, inside SRAM) of @tile; 0 if never written. */
static inline uint32_t ixc_xsram_get(const struct ipuxcom_xsim *sim, uint32_t tile, uint32_t addr)
{
	uint32_t w = (addr - IPUXCOM_SRAM_BASE) / 4;
	uint32_t **p = sim->pages[tile];

	if (!p || !p[w / IXC_XPAGE_WORDS])
		return 0;
	return p[w / IXC_XPAGE_WORDS][w % IXC_XPAGE_WORDS];
}

/* Store; -ENOMEM when a page cannot be allocated. */
int ixc_xsram_put(struct ipuxcom_xsim *sim, uint32_t tile, uint32_t addr, uint32_t value);

static inline bool ixc_xin_sram(uint32_t addr, uint64_t bytes)
{
	return addr >= IPUXCOM_SRAM_BASE && addr < IPUXCOM_SRAM_END &&
	       bytes <= (uint64_t)(IPUXCOM_SRAM_END - addr);
}

/*
 * Record a hazard: merged with an existing entry of the same kind, tile
 * and program (occurrences + 1), else a new entry unless the list is full
 * (res.dropped + 1). The message is formatted only for a new entry.
 */
__attribute__((format(printf, 8, 9)))
void ixc_xhazard(struct ipuxcom_xsim *sim, uint32_t kind, uint32_t tile, uint32_t other,
		 int32_t event, int32_t prog, int32_t word, const char *fmt, ...);

/* Clear the last run's results (hazards, writes, counters). */
void ixc_xsim_clear_run(struct ipuxcom_xsim *sim);

/* The simulation proper (xsim_run.c). */
int ixc_xsim_run(struct ipuxcom_xsim *sim, struct ipuxcom_plan_error *err);

/* Add a program without copying checks of the public API (words already validated). */
int ixc_xsim_add(struct ipuxcom_xsim *sim, const struct ipuxcom_xsim_program *p,
		 struct ipuxcom_plan_error *err);

/* The events in which the notes' receive row keeps the mux open beyond @count (modelled). */
static inline uint32_t ixc_xsim_pad(uint32_t count, uint32_t row)
{
	return count >= 52 ? 2 * row : 0;
}

/*
 * The caller's demo watcher (ipuxcom_demo_watch, @watch may be NULL) into
 * @copy, its size checked (E_SIZE), and the simulator flags it adds to
 * *@flags: only IPUXCOM_XSIM_LOG_WRITES is accepted (E_FLAGS otherwise).
 */
int ixc_demo_watch_in(const struct ipuxcom_demo_watch *watch, struct ipuxcom_demo_watch *copy,
		      uint32_t *flags, struct ipuxcom_plan_error *err);

/* The flags ipuxcom_schedule_build() and ipuxcom_schedule_bound() take. */
#define IXC_SCHED_FLAGS_KNOWN	(IPUXCOM_SCHEDULE_LOGICAL | IPUXCOM_SCHEDULE_PHYSICAL |	\
				 IPUXCOM_SCHEDULE_EXACT_WINDOW | IPUXCOM_SCHEDULE_LEGACY |	\
				 IPUXCOM_SCHEDULE_QUICK)

/*
 * Placement order @which (1..IXC_SCHED_ORDERS) of @n transfers into @order
 * (schedule_order.c); false when there is none (n < 2, out of memory).
 */
#define IXC_SCHED_ORDERS	3
bool ixc_sched_order(const struct ipuxcom_schedule_xfer *xfers, size_t n, bool logical,
		     unsigned int which, uint32_t *order);

/*
 * For the benchmarks' exact reference (issue 34, bench/sched_exact_bench.c):
 * the shortest phase over every placement order of @n transfers, each
 * placed as early as it fits in each width it may take (32-bit, and
 * 64-bit where ixc_sched_wide_ok() allows), by depth-first branch and
 * bound on one trial context, or of the pieces @s was built from when
 * @pieces. Below @cutoff only (UINT32_MAX if none is); *@proven false
 * when @limit placements ran out first. The shortest found built in
 * full into *@out (if @out; NULL when none is below @cutoff), for the
 * verifier. -ENOMEM, or -EINVAL (the set does not check, or more than
 * 16 entries).
 */
int ixc_sched_exact(const struct ipuxcom_schedule_opts *opts,
		    const struct ipuxcom_schedule_xfer *xfers, size_t n,
		    const struct ipuxcom_schedule *s, bool pieces, uint32_t cutoff,
		    uint64_t limit, uint32_t *phase, bool *proven,
		    struct ipuxcom_schedule **out);

#endif /* IPUXCOM_XSIM_INTERNAL_H */
