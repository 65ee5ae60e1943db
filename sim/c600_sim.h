/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The software C600: a register-level model of one Graphcore C600 (IPU21),
 * written from the hardware record (docs/hardware-record.md), not from
 * the module's code.
 *
 * Plain C shared by the kernel backend (ipuxcom_sim.ko) and userspace
 * tests. It does no locking: its user serialises calls per instance.
 *
 * Modelled: the 512 KiB config-BAR register file; the tile identity map;
 * host memory the device reads by bus address; the hardware autoloader;
 * the secondary loaders consuming 64-tile batches of frames on HSP GS1
 * mark-1 transactions, the 0xff release transaction and the start mark;
 * XB.DCXCR arming; per-tile TDI registers, seven contexts, M registers and
 * exactly the documented injectable instructions; tile SRAM (4 KiB pages
 * shared between tiles by content, copied on write: c600_sram.h).
 * Not modelled: real tile execution (a started tile just runs), the
 * notes' HSP "proxy" distinction, register reset values (zero here).
 */
#ifndef C600_SIM_H
#define C600_SIM_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#endif
/* Also the allocation port, sim_zalloc()/sim_free(), kernel or userspace. */
#include "c600_sram.h"

/* 1,472 tiles [S "All-Tile Parallel Sum"; HW-TILES]. */
#define C600_TILES		1472
/* 23 physical rows x 64 physical columns [HW-TILES]. */
#define C600_PHYS_ROWS		23
#define C600_PHYS_COLS		64
/* mmap(/dev/ipuN, offset 0, 0x80000) maps the config BAR [RE, HW-CFG-MAP]. */
#define C600_CONFIG_BAR_SIZE	0x80000

#include "c600_sim_regs.h"

/* 4 KiB pages of one tile's SRAM, in the page store (c600_sram.h). */
#define C600_SIM_SRAM_PAGES	(SIM_SRAM_SIZE / C600_SRAM_PAGE_SIZE)

/* Host buffers one simulated device can have mapped at once (modelled). */
#define C600_SIM_MAX_HOST_REGIONS	24
/* Device-visible buffer slots, as ipu_driver's BUFFER_ATTACH index (modelled). */
#define C600_SIM_BUFFER_SLOTS		17
/* Slot the secondary loader reads its transport buffer from (modelled). */
#define C600_SIM_LOADER_SLOT		0
/* Contexts per tile: DBG_RBRK selects seven [S]. */
#define C600_SIM_CONTEXTS		7
/*
 * Register reads before a GO bit, mark or TDI busy bit clears once the
 * model has finished its work (modelled): the module must poll, not
 * assume completion on the write.
 */
#define C600_SIM_DEFAULT_LATENCY	2

struct c600_tile {
	u16 logical;
	u16 physical;
	u8 row;
	u8 column;
};

struct c600_host_region {
	u64 bus;
	void *vaddr;
	size_t size;
};

/*
 * Where the model's reads and writes of host memory go (modelled): unset,
 * they use the host-region table (c600_sim_host_map()); set, every
 * c600_sim_dma_read()/c600_sim_dma_write() calls @read/@write instead, with
 * @ctx, the bus address and the length. The QEMU device uses it to turn
 * the model's accesses into PCI DMA. A callback returns 0 or a negative
 * errno, which the model's access returns.
 */
struct c600_sim_dma_port {
	int (*read)(void *ctx, u64 bus, void *dst, size_t len);
	int (*write)(void *ctx, u64 bus, const void *src, size_t len);
	void *ctx;
};

struct c600_buffer_slot {
	u64 bus;
	u64 size;
	bool attached;
};

/* Modelled context states, as CTXT_STS reports them (2 bits each). */
enum c600_ctx_state {
	C600_CTX_INACTIVE = 0,
	C600_CTX_RUNNING = 1,
	C600_CTX_STOPPED = 2,
};

struct c600_tile_state {
	/* page table into sim->sram; NULL pages read as zeros */
	struct c600_sram_page *page[C600_SIM_SRAM_PAGES];
	u32 tdi[SIM_TDI_NREGS];
	u32 tdi_busy_reads;		/* reads of TDI_STS until BUSY clears */
	u8 ctx[C600_SIM_CONTEXTS];	/* enum c600_ctx_state */
	/*
	 * Reads of CTXT_STS until a run-break stop takes effect (modelled):
	 * a stopping context still reports running and cannot execute.
	 */
	u32 stop_reads[C600_SIM_CONTEXTS];
	u32 m[C600_SIM_CONTEXTS][16];
	u32 pc[C600_SIM_CONTEXTS];
	/* Contexts whose pending stop never takes effect (C600_SIM_SITE_CTX_STOP). */
	u8 stop_lost;
};

/* Where the device is in the load sequence the notes describe. */
enum c600_phase {
	C600_PHASE_RESET = 0,		/* no bootloader on the tiles */
	C600_PHASE_LOADER,		/* secondary loaders wait for batches */
	C600_PHASE_RELEASED,		/* 0xff transaction done, awaiting start */
	C600_PHASE_RUNNING,		/* applications started */
};

/*
 * The device-side host-exchange program (modelled: real tile code is not
 * executed). Each call is recognised by the callable id the host writes
 * at the command word, takes @phases GS2 handoffs, and does one data
 * movement at handoff @action_phase (0-based).
 */
/* @slot: the BUFFER_ATTACH index, which is the host page number [S, RE]. */
enum c600_hostx_action {
	C600_HX_NONE = 0,
	C600_HX_IN,	/* host slot @slot + @offset -> tile @tile_a SRAM @addr */
	C600_HX_COPY,	/* tile @tile_a @addr -> tile @tile_b @addr */
	C600_HX_OUT,	/* tile @tile_a @addr -> host slot @slot + @offset */
};

struct c600_hostx_call {
	u32 id;
	u32 phases;
	u32 action_phase;
	u32 action;		/* enum c600_hostx_action */
	u32 slot;
	u32 offset;
	u16 tile_a;		/* physical */
	u16 tile_b;		/* physical */
	u32 addr;
	u32 len;
};

#define C600_SIM_HOSTX_MAX_CALLS	8

struct c600_hostx_program {
	u32 cmd_slot;
	u32 cmd_offset;
	u32 ncalls;
	struct c600_hostx_call call[C600_SIM_HOSTX_MAX_CALLS];
};

enum c600_hostx_stage {
	C600_HX_IDLE = 0,
	C600_HX_PRELOADED,	/* GS2 mark preloaded at start */
	C600_HX_AWAIT_COMPLETION,	/* GS1 answered; waiting for the load-completion mark */
	C600_HX_CALLS,		/* named calls */
};

/*
 * The model's fault sites: the places where it can be told to fail one
 * event, each asked once per event (never per register read, so a whole
 * load asks a few dozen times; see c600_sim_faults.should_fail). What an
 * injected fault does is the behaviour of the site's knob below. From the
 * hardware record: the signals each fault acts through (GO bit 8 clears
 * when a transaction is done [S]; a mark drops to zero on the tiles'
 * collective response and stays set when a loader batch is not taken
 * [S]; TDI_STS bit 1, invalid instruction [S]; CTXT_STS 2 or 3 is
 * stopped [RE]). Modelled: that the event fails at all, and how (the
 * record names no failure of GO, of a mark on valid data, of a host
 * transfer, of an injection or of a run-break).
 */
enum c600_sim_site {
	/* an AUTOLDCSR write with GO set: GO never clears (stuck_go) */
	C600_SIM_SITE_GO = 0,
	/* an HSP mark posted (MARK != 0): it never returns to zero (stuck_mark) */
	C600_SIM_SITE_MARK,
	/*
	 * an instruction injected through DBG_IEXEC into a stopped context:
	 * it fails with TDI_STS invalid instruction and does nothing
	 * (tdi_fail_at's fault, which ends the command at once, rather than
	 * tdi_busy's BUSY that never clears and only times out)
	 */
	C600_SIM_SITE_TDI,
	/*
	 * one device transfer of host memory: a loader batch, the loaders'
	 * 0xff release read, a host-exchange call's id read or data
	 * movement: its first access fails as with dma_error, so the mark
	 * that asked for it is never answered
	 */
	C600_SIM_SITE_DMA,
	/* a DBG_RBRK stop of a running context: it never takes effect (ctx_no_stop) */
	C600_SIM_SITE_CTX_STOP,
	C600_SIM_NSITES
};

/* Faults a test can inject; each makes a documented wait never finish. */
struct c600_sim_faults {
	bool stuck_go;		/* AUTOLDCSR GO never clears */
	bool stuck_mark;	/* HSP marks never return to zero */
	bool tdi_busy;		/* TDI_STS BUSY never clears */
	bool dma_error;		/* device reads of host memory fail */
	bool ctx_no_stop;	/* a DBG_RBRK stop never takes effect */
	/*
	 * One-shot: the Nth injected instruction from now fails with TDI_STS
	 * invalid instruction and does nothing; counts down, 0 = off.
	 */
	u32 tdi_fail_at;
	/*
	 * Readings of what the record leaves open, not faults; each makes
	 * the model stricter, never more lenient. inactive_no_exec: no
	 * inactive context executes an injected instruction, on any tile
	 * (the seed's sentence read for every tile; by default only a
	 * reset-idle tile's cannot, as the peer's hardware-proven reads
	 * through an inactive worker context need). iowner_per_insn:
	 * DBG_IOWNER names no context once an injection has been issued,
	 * so each injection needs its own owner write (as both records do).
	 */
	bool inactive_no_exec;
	bool iowner_per_insn;
	/*
	 * Optional: asked at each fault site (enum c600_sim_site) whether
	 * this event fails; true injects the site's fault for that event
	 * alone. NULL (userspace, or a kernel without fault injection):
	 * never asked. The kernel backend answers with should_fail().
	 */
	bool (*should_fail)(void *ctx, enum c600_sim_site site);
	void *should_fail_ctx;
	/*
	 * Per site, since the model was created: events that asked the hook
	 * (with a hook set), and faults it injected.
	 */
	u32 asked[C600_SIM_NSITES];
	u32 injected[C600_SIM_NSITES];
};

struct c600_hsp_state {
	u32 value;		/* the register as last written */
	u32 clear_after;	/* reads until MARK drops to 0; 0 = never */
};

/*
 * Counters and observations tests use to check the sequence the module
 * drove against the hardware record. None of them changes what the model
 * accepts.
 */
struct c600_sim_stats {
	u32 autoload_transactions;
	u32 load_batches;		/* mark-1 transactions that loaded tiles */
	u32 mark1_transactions;		/* every mark-1 post on GS1 */
	u32 start_marks;		/* mark 23 posts that started the tiles */
	u32 rejected_batches;
	/* AUTOLDDATAR writes since the last AUTOLDCSR read, and their maximum */
	u32 autold_unflushed;
	u32 autold_max_unflushed;
	/* EXCHWINDOWBASER when the loader slot was last attached */
	u32 loader_attach_window;
	/* EXCHWINDOWBASER when batch 0's mark was posted */
	u32 batch0_window;
	/* GS1 MARK found pending when a loader batch mark was posted */
	u32 gs1_pending_at_batch;
	/* 1 when the last batch ran with the primaries at request id 0 */
	u32 primaries_operational;
	/*
	 * Tile SRAM footprint: distinct 4 KiB pages the page store holds
	 * (shared by content across tiles), and bytes of page data allocated.
	 */
	u32 sram_pages;
	u32 sram_bytes;
};

struct c600_sim {
	u32 *bar;
	struct c600_tile tile[C600_TILES];	/* indexed by logical id */
	u16 logical_of[C600_TILES];		/* indexed by physical id */
	struct c600_tile_state *ts;		/* indexed by physical id */
	struct c600_host_region host[C600_SIM_MAX_HOST_REGIONS];
	struct c600_sim_dma_port dma_port;	/* .read NULL: unset */
	struct c600_buffer_slot slot[C600_SIM_BUFFER_SLOTS];
	struct c600_sram sram;			/* every tile's SRAM pages */

	u32 latency;
	struct c600_sim_faults faults;
	struct c600_sim_stats stats;

	enum c600_phase phase;
	u32 next_batch;

	u32 autold_fifo[SIM_AUTOLD_MAX_BYTES / 4];
	u32 autold_fifo_len;
	u8 autold_image[SIM_AUTOLD_MAX_BYTES];
	u32 autold_image_len;
	u32 go_clear_after;		/* reads of AUTOLDCSR until GO clears */

	struct c600_hsp_state gs[2];	/* GS1, GS2 */

	struct c600_hostx_program hostx;
	u32 hostx_stage;		/* enum c600_hostx_stage */
	const struct c600_hostx_call *hostx_call;
	u32 hostx_phase;		/* handoffs done in the current call */
	/* Scratch for the loader model's reads (too big for a kernel stack). */
	u8 desc[SIM_DESC_AREA];
	u8 frame[SIM_FRAME_SIZE];
};

u16 c600_logical_to_physical(u16 logical);

struct c600_sim *c600_sim_create(void);
void c600_sim_destroy(struct c600_sim *sim);
void c600_sim_reset(struct c600_sim *sim);

int c600_sim_bar_read(struct c600_sim *sim, u32 offset, u32 *value);
int c600_sim_bar_write(struct c600_sim *sim, u32 offset, u32 value);
/*
 * Whether @value, read at @offset, shows work the device has not finished:
 * GO still set, a posted HSP mark not yet answered, a TDI injection still
 * busy. The model's own rule, for backends that act on a read in progress
 * (the kernel backend's stall_pending_ms knob).
 */
bool c600_sim_read_pending(u32 offset, u32 value);

int c600_sim_host_map(struct c600_sim *sim, u64 bus, void *vaddr, size_t size);
int c600_sim_host_unmap(struct c600_sim *sim, u64 bus);
/* Route host-memory accesses through @port; NULL: back to the table. */
void c600_sim_set_dma_port(struct c600_sim *sim, const struct c600_sim_dma_port *port);
int c600_sim_dma_read(const struct c600_sim *sim, u64 bus, void *dst, size_t len);

int c600_sim_dma_write(const struct c600_sim *sim, u64 bus, const void *src, size_t len);

int c600_sim_buffer_attach(struct c600_sim *sim, u32 slot, u64 bus, u64 size);
int c600_sim_buffer_detach(struct c600_sim *sim, u32 slot);

/*
 * A store of @len bytes through the exchange BAR at @offset [S
 * "Experimental Tile SRAM Writes"]: lands in the SRAM of the logical tile
 * EXCHWINDOWBASER selects, and TILEUPDR reports the tile and the last
 * address written. With HEXOPT selected the window is not the tile
 * window, and the store has no effect here (modelled).
 */
int c600_sim_exch_write(struct c600_sim *sim, u32 offset, const void *data, size_t len);

/* The notes' host-exchange oracle program (write 4, run 2, read 4 phases). */
void c600_sim_hostx_oracle(struct c600_hostx_program *prog);

/* Backdoor for tests: tile SRAM as the model holds it, bypassing TDI. */
int c600_sim_sram_read(const struct c600_sim *sim, u16 physical, u32 addr,
		       void *dst, size_t len);

#endif /* C600_SIM_H */
