// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software C600 register model. See c600_sim.h for what is modelled;
 * every behaviour below cites the note it follows or says "modelled".
 */
#include "c600_sim.h"

/*
 * Logical -> physical tile id of IPU21, as the seed notes give it
 * ([S "No-Blob Replacement Status"], [S "Compact Physical Image"];
 * HW-TILE-MAP): tiles pair up in serpentine blocks of 23 rows.
 */
u16 c600_logical_to_physical(u16 logical)
{
	unsigned int pair = logical / 2;
	unsigned int lane = logical & 1;
	unsigned int block = pair / C600_PHYS_ROWS;
	unsigned int row = pair % C600_PHYS_ROWS;
	unsigned int column;

	if (block & 1)
		row = C600_PHYS_ROWS - 1 - row;
	column = (block / 2) * 4 + (block & 1);
	return (u16)(row * C600_PHYS_COLS + column + lane * 2);
}

/*
 * One event at fault site @site: whether the fault hook, if any, fails it
 * (c600_sim_faults.should_fail; what the fault does is the site's, see
 * enum c600_sim_site). Asked exactly once per event, fault or not, so the
 * number of questions a command asks does not depend on the answers.
 */
static bool sim_fault(struct c600_sim *sim, enum c600_sim_site site)
{
	struct c600_sim_faults *f = &sim->faults;

	if (!f->should_fail)
		return false;
	f->asked[site]++;
	if (!f->should_fail(f->should_fail_ctx, site))
		return false;
	f->injected[site]++;
	return true;
}

/* Every tile's SRAM back to zeros; the caller clears the page tables. */
static void sim_free_sram(struct c600_sim *sim)
{
	c600_sram_free_all(&sim->sram);
	sim->stats.sram_pages = 0;
	sim->stats.sram_bytes = 0;
}

struct c600_sim *c600_sim_create(void)
{
	struct c600_sim *sim;
	unsigned int t;

	sim = sim_zalloc(sizeof(*sim));
	if (!sim)
		return NULL;
	sim->bar = sim_zalloc(C600_CONFIG_BAR_SIZE);
	sim->ts = sim_zalloc(sizeof(*sim->ts) * C600_TILES);
	if (!sim->bar || !sim->ts) {
		sim_free(sim->bar);
		sim_free(sim->ts);
		sim_free(sim);
		return NULL;
	}
	for (t = 0; t < C600_TILES; t++) {
		u16 phys = c600_logical_to_physical((u16)t);

		sim->tile[t].logical = (u16)t;
		sim->tile[t].physical = phys;
		sim->tile[t].row = (u8)(phys / C600_PHYS_COLS);
		sim->tile[t].column = (u8)(phys % C600_PHYS_COLS);
		sim->logical_of[phys] = (u16)t;
	}
	sim->latency = C600_SIM_DEFAULT_LATENCY;
	c600_sim_hostx_oracle(&sim->hostx);
	return sim;
}

void c600_sim_destroy(struct c600_sim *sim)
{
	if (!sim)
		return;
	sim_free_sram(sim);
	sim_free(sim->ts);
	sim_free(sim->bar);
	sim_free(sim);
}

/*
 * Power-on state: registers zero (modelled), tiles empty and inactive,
 * buffer attachments dropped. Host memory belongs to the host and stays
 * mapped; fault knobs stay as the test set them.
 */
void c600_sim_reset(struct c600_sim *sim)
{
	memset(sim->bar, 0, C600_CONFIG_BAR_SIZE);
	sim_free_sram(sim);
	memset(sim->ts, 0, sizeof(*sim->ts) * C600_TILES);
	memset(sim->slot, 0, sizeof(sim->slot));
	memset(&sim->stats, 0, sizeof(sim->stats));
	memset(sim->gs, 0, sizeof(sim->gs));
	sim->phase = C600_PHASE_RESET;
	sim->next_batch = 0;
	sim->autold_fifo_len = 0;
	sim->autold_image_len = 0;
	sim->go_clear_after = 0;
	sim->hostx_stage = C600_HX_IDLE;
	sim->hostx_call = NULL;
	sim->hostx_phase = 0;
}

/* ------------------------------------------------------------ host memory */

static bool c600_ranges_overlap(u64 a, size_t alen, u64 b, size_t blen)
{
	return a < b + blen && b < a + alen;
}

int c600_sim_host_map(struct c600_sim *sim, u64 bus, void *vaddr, size_t size)
{
	struct c600_host_region *free_slot = NULL;
	unsigned int i;

	if (!vaddr || !size || bus + size < bus)
		return -EINVAL;
	for (i = 0; i < C600_SIM_MAX_HOST_REGIONS; i++) {
		struct c600_host_region *r = &sim->host[i];

		if (!r->size) {
			if (!free_slot)
				free_slot = r;
			continue;
		}
		if (c600_ranges_overlap(bus, size, r->bus, r->size))
			return -EEXIST;
	}
	if (!free_slot)
		return -ENOSPC;
	free_slot->bus = bus;
	free_slot->vaddr = vaddr;
	free_slot->size = size;
	return 0;
}

int c600_sim_host_unmap(struct c600_sim *sim, u64 bus)
{
	unsigned int i;

	for (i = 0; i < C600_SIM_MAX_HOST_REGIONS; i++) {
		if (sim->host[i].size && sim->host[i].bus == bus) {
			memset(&sim->host[i], 0, sizeof(sim->host[i]));
			return 0;
		}
	}
	return -ENOENT;
}

void c600_sim_set_dma_port(struct c600_sim *sim, const struct c600_sim_dma_port *port)
{
	if (port && port->read && port->write)
		sim->dma_port = *port;
	else
		memset(&sim->dma_port, 0, sizeof(sim->dma_port));
}

/*
 * A device read of host memory: through the DMA port if one is set, else
 * the whole range must lie in one mapped region, else the transfer faults
 * (-EFAULT), as an unmapped IOVA would.
 */
int c600_sim_dma_read(const struct c600_sim *sim, u64 bus, void *dst, size_t len)
{
	unsigned int i;

	if (sim->faults.dma_error)
		return -EIO;
	if (sim->dma_port.read)
		return sim->dma_port.read(sim->dma_port.ctx, bus, dst, len);
	for (i = 0; i < C600_SIM_MAX_HOST_REGIONS; i++) {
		const struct c600_host_region *r = &sim->host[i];

		if (r->size && bus >= r->bus && len <= r->size &&
		    bus - r->bus <= r->size - len) {
			memcpy(dst, (const u8 *)r->vaddr + (bus - r->bus), len);
			return 0;
		}
	}
	return -EFAULT;
}

int c600_sim_dma_write(const struct c600_sim *sim, u64 bus, const void *src, size_t len)
{
	unsigned int i;

	if (sim->faults.dma_error)
		return -EIO;
	if (sim->dma_port.write)
		return sim->dma_port.write(sim->dma_port.ctx, bus, src, len);
	for (i = 0; i < C600_SIM_MAX_HOST_REGIONS; i++) {
		const struct c600_host_region *r = &sim->host[i];

		if (r->size && bus >= r->bus && len <= r->size &&
		    bus - r->bus <= r->size - len) {
			memcpy((u8 *)r->vaddr + (bus - r->bus), src, len);
			return 0;
		}
	}
	return -EFAULT;
}

int c600_sim_buffer_attach(struct c600_sim *sim, u32 slot, u64 bus, u64 size)
{
	if (slot >= C600_SIM_BUFFER_SLOTS || !size || bus + size < bus)
		return -EINVAL;
	if (slot == C600_SIM_LOADER_SLOT)
		sim->stats.loader_attach_window = sim->bar[SIM_EXCHWINDOWBASER / 4];
	sim->slot[slot].bus = bus;
	sim->slot[slot].size = size;
	sim->slot[slot].attached = true;
	return 0;
}

int c600_sim_buffer_detach(struct c600_sim *sim, u32 slot)
{
	if (slot >= C600_SIM_BUFFER_SLOTS)
		return -EINVAL;
	if (!sim->slot[slot].attached)
		return -ENOENT;
	memset(&sim->slot[slot], 0, sizeof(sim->slot[slot]));
	return 0;
}

/* Device read at @off of the buffer in @slot. */
static int sim_slot_read(const struct c600_sim *sim, u32 slot, u64 off,
			 void *dst, size_t len)
{
	const struct c600_buffer_slot *s = &sim->slot[slot];

	if (slot >= C600_SIM_BUFFER_SLOTS || !s->attached || off > s->size ||
	    len > s->size - off)
		return -EFAULT;
	return c600_sim_dma_read(sim, s->bus + off, dst, len);
}

static int sim_slot_write(const struct c600_sim *sim, u32 slot, u64 off,
			  const void *src, size_t len)
{
	const struct c600_buffer_slot *s = &sim->slot[slot];

	if (slot >= C600_SIM_BUFFER_SLOTS || !s->attached || off > s->size ||
	    len > s->size - off)
		return -EFAULT;
	return c600_sim_dma_write(sim, s->bus + off, src, len);
}

/* ---------------------------------------------------------------- tile SRAM */

static bool sim_sram_range_ok(u32 addr, size_t len)
{
	return addr >= SIM_SRAM_BASE && len <= SIM_SRAM_SIZE &&
	       addr - SIM_SRAM_BASE <= SIM_SRAM_SIZE - len;
}

static void sim_sram_stats(struct c600_sim *sim)
{
	sim->stats.sram_pages = sim->sram.pages;
	sim->stats.sram_bytes = c600_sram_bytes(&sim->sram);
}

static int sim_sram_write(struct c600_sim *sim, u16 phys, u32 addr,
			  const void *src, size_t len)
{
	int ret;

	if (!sim_sram_range_ok(addr, len))
		return -EFAULT;
	ret = c600_sram_write(&sim->sram, sim->ts[phys].page, addr - SIM_SRAM_BASE, src, len);
	sim_sram_stats(sim);
	return ret;
}

/* A tile's bulk load is done: share its pages with equal ones. */
static void sim_sram_seal(struct c600_sim *sim)
{
	c600_sram_seal(&sim->sram);
	sim_sram_stats(sim);
}

int c600_sim_sram_read(const struct c600_sim *sim, u16 phys, u32 addr,
		       void *dst, size_t len)
{
	if (phys >= C600_TILES || !sim_sram_range_ok(addr, len))
		return -EFAULT;
	c600_sram_read(sim->ts[phys].page, addr - SIM_SRAM_BASE, dst, len);
	return 0;
}

int c600_sim_exch_write(struct c600_sim *sim, u32 offset, const void *data, size_t len)
{
	u32 win = sim->bar[SIM_EXCHWINDOWBASER / 4];
	u32 logical = win & SIM_EXCHWINDOW_TILE_MASK, rel;
	int ret;

	if (offset < SIM_EXCH_WINDOW || !len || len > SIM_SRAM_SIZE ||
	    offset - SIM_EXCH_WINDOW > SIM_SRAM_SIZE - len)
		return -EINVAL;
	if (win & SIM_EXCHWINDOW_HEXOPT || logical >= C600_TILES)
		return 0;
	rel = offset - SIM_EXCH_WINDOW;
	ret = sim_sram_write(sim, sim->tile[logical].physical, SIM_SRAM_BASE + rel, data, len);
	if (ret)
		return ret;
	sim->bar[SIM_TILEUPDR / 4] = logical << SIM_TILEUPDR_TILE_SHIFT |
				     (((rel + (u32)len - 1) >> 3) & SIM_TILEUPDR_ADDR_MASK);
	return 0;
}

/* ------------------------------------------------------------- autoloader */

/*
 * One GO transaction, checked against the record's named fields (see
 * c600_sim_regs.h). Returns true when the modelled transfer completes
 * (GO will clear); a malformed transaction never completes, which is what
 * the module's bounded wait must catch.
 */
static bool sim_autoload_go(struct c600_sim *sim, u32 csr)
{
	u32 trgtr = sim->bar[SIM_AUTOLDTRGTR / 4];
	u32 zone = trgtr & ~((SIM_AUTOLD_TRGTR_FIELD_MASK << SIM_AUTOLD_TRGTR_ADDR_SHIFT) |
			     SIM_AUTOLD_TRGTR_FIELD_MASK);
	u32 address = (trgtr >> SIM_AUTOLD_TRGTR_ADDR_SHIFT) & SIM_AUTOLD_TRGTR_FIELD_MASK;
	u32 low = trgtr & SIM_AUTOLD_TRGTR_FIELD_MASK;
	u32 ptr = csr & SIM_AUTOLD_CSR_LOAD_PTR_MASK;
	u32 tiles = ((csr >> SIM_AUTOLD_CSR_TILES_SHIFT) & SIM_AUTOLD_CSR_TILES_MASK) + 1;
	u32 bytes, t;

	sim->stats.autoload_transactions++;
	/* Only words the named fields can make (bits 6-7, 21-31 are none). */
	if (zone != SIM_AUTOLD_TRGTR_ZONE ||
	    csr & ~(SIM_AUTOLD_CSR_DATA_PRESENT | SIM_AUTOLD_GO | SIM_AUTOLD_CSR_LOAD_PTR_MASK |
		    SIM_AUTOLD_CSR_TILES_MASK << SIM_AUTOLD_CSR_TILES_SHIFT))
		return false;
	if (csr & SIM_AUTOLD_CSR_DATA_PRESENT) {
		/* Stage: address = the data's KiB, low bits 0, no tile count. */
		bytes = address * 1024;
		if (low || tiles != 1 || !bytes || bytes > SIM_AUTOLD_MAX_BYTES ||
		    sim->autold_fifo_len * 4 != bytes ||
		    ptr != ((bytes / 4 - 1) & SIM_AUTOLD_CSR_LOAD_PTR_MASK))
			return false;
		memcpy(sim->autold_image, sim->autold_fifo, bytes);
		sim->autold_image_len = bytes;
		sim->autold_fifo_len = 0;
		return true;
	}
	/* Deliver: address = tile memory, low bits = KiB, to tiles 0..tiles-1. */
	bytes = low * 1024;
	if (address != SIM_AUTOLD_TILE_MEM_KIB || !sim->autold_image_len ||
	    bytes != sim->autold_image_len || tiles > C600_TILES ||
	    ptr != ((bytes / 4 - 1) & SIM_AUTOLD_CSR_LOAD_PTR_MASK))
		return false;
	for (t = 0; t < tiles; t++) {
		if (sim_sram_write(sim, (u16)t, SIM_SRAM_BASE, sim->autold_image,
				   sim->autold_image_len))
			return false;
		sim_sram_seal(sim);
		/* The secondary loader's context is active [S "Debug Readback Pivot"]. */
		sim->ts[t].ctx[0] = C600_CTX_RUNNING;
		sim->ts[t].pc[0] = SIM_SRAM_BASE;
	}
	if (tiles == C600_TILES) {
		sim->phase = C600_PHASE_LOADER;
		sim->next_batch = 0;
	}
	return true;
}

static void sim_autoldcsr_write(struct c600_sim *sim, u32 value)
{
	bool stuck;

	sim->bar[SIM_AUTOLDCSR / 4] = value;
	if (!(value & SIM_AUTOLD_GO)) {
		/* The sequence starts with CSR = 0: a fresh data FIFO (modelled). */
		sim->autold_fifo_len = 0;
		sim->go_clear_after = 0;
		return;
	}
	/* Fault site GO: the transfer happens, GO never clears (modelled). */
	stuck = sim_fault(sim, C600_SIM_SITE_GO);
	if (sim->faults.stuck_go)
		stuck = true;
	if (sim_autoload_go(sim, value) && !stuck)
		sim->go_clear_after = sim->latency + 1;
	else
		sim->go_clear_after = 0;	/* GO stays set */
}

/* ---------------------------------------------------- secondary loaders */

/*
 * Whether the exchange-buffer controls let the loaders read the transport
 * buffer. Both records arm the eight secondary controls with 0x07fffffa,
 * and omitting them fails [S]. The primaries: the seed's SDK trace arms
 * them too [S]; the hardware-proven peer arms them and then puts them
 * back to request id 0 (0x2) before batch 0 [RE, HW-LOAD step 5]. Both
 * load on hardware, so both are accepted, each primary on its own. Any
 * other primary value is not recorded and is refused (modelled).
 */
static bool sim_dcxcr_armed(struct c600_sim *sim)
{
	bool operational = false;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		u32 v = sim->bar[(SIM_DCXCR_SECONDARY + i * SIM_DCXCR_STRIDE) / 4];

		if (v != SIM_DCXCR_LOADING)
			return false;
	}
	for (i = 0; i < 8; i++) {
		u32 v = sim->bar[(SIM_DCXCR_PRIMARY + i * SIM_DCXCR_STRIDE) / 4];

		if (v == SIM_DCXCR_PRIMARY_OPERATIONAL)
			operational = true;
		else if (v != SIM_DCXCR_LOADING)
			return false;
	}
	sim->stats.primaries_operational = operational;
	return true;
}

static u32 sim_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

/*
 * Read and check frame @k of @tile at @off; leaves it in sim->frame.
 * Layout [S "Secondary Loader Frames"]: chunk index, physical tile id,
 * flags (byte 11 = 8 on the final frame), reserved zero, 992 payload
 * bytes, 16 bytes of 0xff.
 */
static bool sim_read_frame(struct c600_sim *sim, u64 off, u32 tile, u32 k, u32 n)
{
	u32 i;

	if (sim_slot_read(sim, C600_SIM_LOADER_SLOT, off, sim->frame, SIM_FRAME_SIZE))
		return false;
	if (sim_le32(sim->frame) != k || sim_le32(sim->frame + 4) != tile ||
	    sim_le32(sim->frame + 8) != (k == n - 1 ? SIM_FRAME_FINAL_FLAGS : 0) ||
	    sim_le32(sim->frame + 12) != 0)
		return false;
	for (i = SIM_FRAME_SIZE - SIM_FRAME_TRAILER; i < SIM_FRAME_SIZE; i++)
		if (sim->frame[i] != 0xff)
			return false;
	return true;
}

/*
 * One mark-1 transaction while the loaders wait for data: the loaders of
 * the next 64 physical tiles read the descriptor table and their frames.
 * The collective response (mark back to zero) comes only when every frame
 * of the batch is valid; anything else leaves the mark set, as the notes
 * say the hardware does. The model checks the whole batch before
 * installing anything (modelled: the real loaders' partial progress is not
 * observable here).
 */
static bool sim_loader_batch(struct c600_sim *sim)
{
	u8 *desc = sim->desc;
	u32 base_tile = sim->next_batch * SIM_BATCH_TILES;
	u32 i, k;

	if (!sim_dcxcr_armed(sim))
		return false;
	/* Fault site DMA: the batch's reads fail, as with dma_error (modelled). */
	if (sim_fault(sim, C600_SIM_SITE_DMA) ||
	    sim_slot_read(sim, C600_SIM_LOADER_SLOT, 0, desc, SIM_DESC_AREA))
		return false;
	/* Unused descriptor bytes through 0x1000 are zero [S]. */
	for (i = SIM_BATCH_TILES * 8; i < SIM_DESC_AREA; i++)
		if (desc[i])
			return false;
	for (i = 0; i < SIM_BATCH_TILES; i++) {
		u32 off = sim_le32(desc + i * 8), n = sim_le32(desc + i * 8 + 4);

		/* A one-frame application is not acknowledged [RE, HW-LOADER-LIMITS]. */
		if (n < SIM_MIN_FRAMES || n > SIM_MAX_FRAMES || off < SIM_DESC_AREA)
			return false;
		for (k = 0; k < n; k++)
			if (!sim_read_frame(sim, (u64)off + (u64)k * SIM_FRAME_SIZE,
					    base_tile + i, k, n))
				return false;
	}
	for (i = 0; i < SIM_BATCH_TILES; i++) {
		u32 off = sim_le32(desc + i * 8), n = sim_le32(desc + i * 8 + 4);

		for (k = 0; k < n; k++) {
			if (sim_slot_read(sim, C600_SIM_LOADER_SLOT,
					  (u64)off + (u64)k * SIM_FRAME_SIZE,
					  sim->frame, SIM_FRAME_SIZE))
				return false;
			if (sim_sram_write(sim, (u16)(base_tile + i),
					   SIM_PAYLOAD_BASE + k * SIM_FRAME_PAYLOAD,
					   sim->frame + SIM_FRAME_HDR, SIM_FRAME_PAYLOAD))
				return false;
		}
		sim_sram_seal(sim);
	}
	sim->next_batch++;
	sim->stats.load_batches++;
	return true;
}

/*
 * After the 23 batches the SDK fills the transport buffer with 0xff and
 * performs one more mark-1 transaction; the loaders see the descriptor
 * word 0xffffffff [S "Debug Readback Pivot"]. Modelled: the whole
 * descriptor area must read 0xff.
 */
static bool sim_loader_release(struct c600_sim *sim)
{
	u32 i;

	if (!sim_dcxcr_armed(sim) || sim_fault(sim, C600_SIM_SITE_DMA) ||
	    sim_slot_read(sim, C600_SIM_LOADER_SLOT, 0, sim->desc, SIM_DESC_AREA))
		return false;
	for (i = 0; i < SIM_DESC_AREA; i++)
		if (sim->desc[i] != 0xff)
			return false;
	sim->phase = C600_PHASE_RELEASED;
	return true;
}

/*
 * Mark 23 starts all 1,472 images [S]: supervisor context 0 runs. The
 * started program preloads a GS2 mark that it releases once the host has
 * posted GS1 mark 1 [S "Host Tensor Exchange"].
 */
static bool sim_start_tiles(struct c600_sim *sim)
{
	u32 t;

	for (t = 0; t < C600_TILES; t++) {
		sim->ts[t].ctx[0] = C600_CTX_RUNNING;
		sim->ts[t].pc[0] = SIM_PAYLOAD_BASE;
	}
	sim->phase = C600_PHASE_RUNNING;
	sim->stats.start_marks++;
	sim->gs[1].value = (sim->gs[1].value & ~SIM_HSP_MARK_MASK) | 1;
	sim->gs[1].clear_after = 0;
	sim->hostx_stage = C600_HX_PRELOADED;
	return true;
}

/*
 * The notes' minimal oracle: 64 bytes in, tile 0 -> tile 1, 64 bytes out,
 * reading the seed's layout: "attached page 1 + 0x00 callable ID",
 * "attached page 0 + 0x40" the payload [S]. A tile program finds a host
 * page by its BUFFER_ATTACH index, which is the page's own number
 * (HW-BUF-INDEX): slot = page.
 */
void c600_sim_hostx_oracle(struct c600_hostx_program *prog)
{
	/* tile 0 and 1 are logical in the notes; physical 0 and 2 (modelled) */
	static const struct c600_hostx_program oracle = {
		.cmd_slot = 1, .cmd_offset = 0,	/* page 1 + 0x00 */
		.ncalls = 3,
		.call = {
			{ .id = 2, .phases = 4, .action_phase = 1, .action = C600_HX_IN,
			  .slot = 0, .offset = 0x40, .tile_a = 0, .addr = 0x52000, .len = 64 },
			{ .id = 0, .phases = 2, .action_phase = 0, .action = C600_HX_COPY,
			  .tile_a = 0, .tile_b = 2, .addr = 0x52000, .len = 64 },
			{ .id = 1, .phases = 4, .action_phase = 2, .action = C600_HX_OUT,
			  .slot = 0, .offset = 0x40, .tile_a = 2, .addr = 0x52000, .len = 64 },
		},
	};

	*prog = oracle;
}

static bool sim_hostx_action(struct c600_sim *sim, const struct c600_hostx_call *c)
{
	u8 buf[256];

	if (c->len > sizeof(buf))
		return false;
	/* Fault site DMA, for the calls that move host data (modelled). */
	if ((c->action == C600_HX_IN || c->action == C600_HX_OUT) &&
	    sim_fault(sim, C600_SIM_SITE_DMA))
		return false;
	switch (c->action) {
	case C600_HX_IN:
		return !sim_slot_read(sim, c->slot, c->offset, buf, c->len) &&
		       !sim_sram_write(sim, c->tile_a, c->addr, buf, c->len);
	case C600_HX_COPY:
		return !c600_sim_sram_read(sim, c->tile_a, c->addr, buf, c->len) &&
		       !sim_sram_write(sim, c->tile_b, c->addr, buf, c->len);
	case C600_HX_OUT:
		return !c600_sim_sram_read(sim, c->tile_a, c->addr, buf, c->len) &&
		       !sim_slot_write(sim, c->slot, c->offset, buf, c->len);
	default:
		return true;
	}
}

/*
 * One GS2 handoff of a named call. The first handoff of a call reads the
 * callable id; an id the program does not know is never answered, so the
 * host's bounded wait reports it.
 */
static bool sim_hostx_phase(struct c600_sim *sim)
{
	const struct c600_hostx_program *p = &sim->hostx;
	const struct c600_hostx_call *c = sim->hostx_call;
	u8 idw[4];
	u32 i;

	if (sim->hostx_phase == 0) {
		if (sim_fault(sim, C600_SIM_SITE_DMA) ||
		    sim_slot_read(sim, p->cmd_slot, p->cmd_offset, idw, 4))
			return false;
		c = NULL;
		for (i = 0; i < p->ncalls && i < C600_SIM_HOSTX_MAX_CALLS; i++)
			if (p->call[i].id == sim_le32(idw))
				c = &p->call[i];
		if (!c || !c->phases)
			return false;
		sim->hostx_call = c;
	}
	if (c->action_phase == sim->hostx_phase && !sim_hostx_action(sim, c))
		return false;
	if (++sim->hostx_phase == c->phases)
		sim->hostx_phase = 0;
	return true;
}

/* Whether the tiles answer a mark posted on GS1 (@gs == 0) or GS2. */
static bool sim_hsp_collective(struct c600_sim *sim, unsigned int gs, u32 mark)
{
	if (gs == 0 && mark == 1)
		sim->stats.mark1_transactions++;
	switch (sim->phase) {
	case C600_PHASE_LOADER:
		if (gs != 0 || mark != 1)
			return false;
		if (sim->next_batch < SIM_LOAD_BATCHES) {
			if (sim_loader_batch(sim))
				return true;
			sim->stats.rejected_batches++;
			return false;
		}
		return sim_loader_release(sim);
	case C600_PHASE_RELEASED:
		return gs == 0 && mark == SIM_START_MARK && sim_start_tiles(sim);
	case C600_PHASE_RUNNING:
		if (gs == 0) {
			/* GS1 mark 1 releases the preloaded GS2 mark [S]. */
			if (sim->hostx_stage == C600_HX_PRELOADED) {
				sim->gs[1].clear_after = sim->latency + 1;
				sim->hostx_stage = C600_HX_AWAIT_COMPLETION;
			}
			return true;
		}
		if (sim->hostx_stage == C600_HX_AWAIT_COMPLETION) {
			sim->hostx_stage = C600_HX_CALLS;	/* the load-completion mark */
			return true;
		}
		return sim->hostx_stage == C600_HX_CALLS && mark == 1 &&
		       sim_hostx_phase(sim);
	default:
		return false;	/* nothing on the tiles to answer */
	}
}

static void sim_hsp_write(struct c600_sim *sim, unsigned int gs, u32 value)
{
	struct c600_hsp_state *h = &sim->gs[gs];
	u32 mark = value & SIM_HSP_MARK_MASK;
	/* Fault site MARK: the tiles act, the mark never clears (modelled). */
	bool lost = mark && sim_fault(sim, C600_SIM_SITE_MARK);

	if (gs == 0 && mark && sim->phase == C600_PHASE_LOADER) {
		if (h->value & SIM_HSP_MARK_MASK)
			sim->stats.gs1_pending_at_batch++;
		if (sim->next_batch == 0)
			sim->stats.batch0_window = sim->bar[SIM_EXCHWINDOWBASER / 4];
	}

	h->value = value;
	h->clear_after = 0;
	if (mark && sim_hsp_collective(sim, gs, mark) && !sim->faults.stuck_mark && !lost)
		h->clear_after = sim->latency + 1;
}

static u32 sim_hsp_read(struct c600_sim *sim, unsigned int gs)
{
	struct c600_hsp_state *h = &sim->gs[gs];

	if (h->clear_after && --h->clear_after == 0)
		h->value &= ~SIM_HSP_MARK_MASK;
	return h->value;
}

/* -------------------------------------------------------------------- TDI */

/*
 * CTXT_STS, 2 bits per context: 2 or 3 is stopped [RE,
 * HW-TDI-CTXT]; 3 is reported here for a context
 * stopped with its DBG_ECSR bit set, 0 inactive and 1 running (all three
 * modelled). A run-break stop takes
 * effect over time (modelled): the context keeps reporting running for
 * sim->latency reads of this register and only then reports stopped, so a
 * module must wait for the stop before it injects. With the ctx_no_stop
 * fault, or for a stop the fault site CTX_STOP lost, the stop never takes
 * effect.
 */
static u32 sim_ctxt_sts(struct c600_sim *sim, struct c600_tile_state *ts)
{
	u32 v = 0;
	unsigned int c;

	for (c = 0; c < C600_SIM_CONTEXTS; c++) {
		u32 state;

		if (ts->stop_reads[c] && !sim->faults.ctx_no_stop &&
		    !(ts->stop_lost & (1u << c)) && --ts->stop_reads[c] == 0)
			ts->ctx[c] = C600_CTX_STOPPED;
		state = ts->ctx[c];
		if (state == C600_CTX_STOPPED && (ts->tdi[SIM_TDI_DBG_ECSR] & (1u << c)))
			state = SIM_CTXT_STOPPED_EXC;
		v |= state << SIM_CTXT_STS_SHIFT(c);
	}
	return v;
}

/*
 * DBG_RBRK context bits [S] stop running contexts (after a modelled delay,
 * see sim_ctxt_sts()) and release stopped or stopping ones at once
 * (modelled), except a context stopped with its DBG_ECSR bit set (state
 * 3), which DBG_ECLR releases (sim_eclr_write()). Inactive contexts stay
 * inactive.
 */
static void sim_rbrk_write(struct c600_sim *sim, struct c600_tile_state *ts, u32 value)
{
	unsigned int c;

	ts->tdi[SIM_TDI_DBG_RBRK] = value;
	for (c = 0; c < C600_SIM_CONTEXTS; c++) {
		bool stop = value & (1u << c);

		if (!stop) {
			ts->stop_reads[c] = 0;
			ts->stop_lost &= (u8)~(1u << c);
			if (ts->ctx[c] == C600_CTX_STOPPED &&
			    !(ts->tdi[SIM_TDI_DBG_ECSR] & (1u << c)))
				ts->ctx[c] = C600_CTX_RUNNING;
		} else if (ts->ctx[c] == C600_CTX_RUNNING && !ts->stop_reads[c]) {
			/* Fault site CTX_STOP: this stop is lost (modelled). */
			if (sim_fault(sim, C600_SIM_SITE_CTX_STOP))
				ts->stop_lost |= (u8)(1u << c);
			if (!sim->latency && !sim->faults.ctx_no_stop &&
			    !(ts->stop_lost & (1u << c)))
				ts->ctx[c] = C600_CTX_STOPPED;
			else
				ts->stop_reads[c] = sim->latency + 1;
		}
	}
}

/*
 * DBG_ECLR: the peer writes the context bit here after restoring DBG_RBRK,
 * for a context it broke [RE, HW-TDI-CTXT]; so writes are accepted with any
 * context bits. Modelled: each bit clears that context's DBG_ECSR bit, and
 * a stopped context whose run-break is clear resumes.
 */
static void sim_eclr_write(struct c600_tile_state *ts, u32 value)
{
	unsigned int c;

	ts->tdi[SIM_TDI_DBG_ECSR] &= ~(value & SIM_DBG_EXC_CTX_MASK);
	for (c = 0; c < C600_SIM_CONTEXTS; c++)
		if ((value & (1u << c)) && ts->ctx[c] == C600_CTX_STOPPED &&
		    !(ts->tdi[SIM_TDI_DBG_RBRK] & (1u << c)))
			ts->ctx[c] = C600_CTX_RUNNING;
}

/* Reset-idle: all seven contexts of the tile inactive [S]. */
static bool sim_tile_reset_idle(const struct c600_tile_state *ts)
{
	unsigned int c;

	for (c = 0; c < C600_SIM_CONTEXTS; c++)
		if (ts->ctx[c] != C600_CTX_INACTIVE)
			return false;
	return true;
}

/*
 * Whether the owner context can execute an injected instruction. Stopped
 * (2|3 [RE]): yes. Running, or still stopping: no. Inactive: the records
 * differ. [S]: "Reset-idle tiles have all seven contexts inactive ...; an
 * inactive context cannot execute an injected instruction". [RE]: the
 * peer's driver reads tile SRAM by injecting into an inactive worker
 * context, without a run-break, on loaded tiles whose supervisor is
 * active or stopped (hardware-proven). So an inactive context executes
 * unless its tile is reset-idle, or the inactive_no_exec knob reads the
 * seed's sentence for every tile (where the line lies is modelled).
 */
static bool sim_tdi_owner_quiescent(const struct c600_sim *sim,
				    const struct c600_tile_state *ts, u32 owner)
{
	if (owner >= C600_SIM_CONTEXTS)
		return false;
	switch (ts->ctx[owner]) {
	case C600_CTX_STOPPED:
		return true;
	case C600_CTX_INACTIVE:
		return !sim->faults.inactive_no_exec && !sim_tile_reset_idle(ts);
	default:
		return false;
	}
}

/* Execute one injected instruction on the owner context, if it can. */
static u32 sim_tdi_execute(struct c600_sim *sim, u16 phys, u32 insn)
{
	struct c600_tile_state *ts = &sim->ts[phys];
	u32 owner = ts->tdi[SIM_TDI_DBG_IOWNER];
	u32 *m, *data = &ts->tdi[SIM_TDI_DBG_DATA];
	u8 word[4];
	bool fail;

	/* One that cannot reports not-quiescent (the bit [S]; that it is this one: modelled). */
	if (!sim_tdi_owner_quiescent(sim, ts, owner))
		return SIM_TDI_STS_NOT_QUIESCENT;
	/*
	 * Fault site TDI, and the tdi_fail_at fault: this injection fails
	 * and does nothing (modelled).
	 */
	fail = sim_fault(sim, C600_SIM_SITE_TDI);
	if (sim->faults.tdi_fail_at && --sim->faults.tdi_fail_at == 0)
		fail = true;
	if (fail)
		return SIM_TDI_STS_INVALID;
	m = ts->m[owner];
	switch (insn) {
	case SIM_INSN_GET_M0_PC:
		m[0] = ts->pc[owner];
		break;
	case SIM_INSN_GET_M0_DBG_DATA:
		m[0] = *data;
		break;
	case SIM_INSN_GET_M1_DBG_DATA:
		m[1] = *data;
		break;
	case SIM_INSN_LD32_M0_M15_M1:
		/* A bad address is a memory fault; reported as invalid (modelled). */
		if ((m[15] + m[1]) & 3 ||
		    c600_sim_sram_read(sim, phys, m[15] + m[1], word, 4))
			return SIM_TDI_STS_INVALID;
		m[0] = sim_le32(word);
		break;
	case SIM_INSN_ST32_M0_AT_M1:
		word[0] = (u8)m[0];
		word[1] = (u8)(m[0] >> 8);
		word[2] = (u8)(m[0] >> 16);
		word[3] = (u8)(m[0] >> 24);
		if (m[1] & 3 || sim_sram_write(sim, phys, m[1], word, 4))
			return SIM_TDI_STS_INVALID;
		break;
	case SIM_INSN_PUT_DBG_DATA_M0:
		*data = m[0];
		break;
	case SIM_INSN_PUT_DBG_DATA_M1:	/* inferred encoding, see c600_sim_regs.h */
		*data = m[1];
		break;
	case SIM_INSN_NOP:
		m[15] = 0;
		break;
	default:
		return SIM_TDI_STS_INVALID;
	}
	return 0;
}

static void sim_tdi_write(struct c600_sim *sim, u16 phys, u32 reg, u32 value)
{
	struct c600_tile_state *ts = &sim->ts[phys];

	u32 owner = ts->tdi[SIM_TDI_DBG_IOWNER], sts;

	switch (reg) {
	case SIM_TDI_CTXT_STS:
	case SIM_TDI_TDI_STS:
	case SIM_TDI_DBG_ECSR:
		return;		/* status registers: writes ignored (modelled) */
	case SIM_TDI_DBG_RBRK:
		sim_rbrk_write(sim, ts, value);
		return;
	case SIM_TDI_DBG_ECLR:
		/* Reads 0 (modelled). */
		sim_eclr_write(ts, value);
		return;
	case SIM_TDI_TDI_CLR:
		/*
		 * Invalid and double issue are sticky until cleared here
		 * (modelled); any word clears the bits it has, busy excepted.
		 * The peer writes 0x6 before every injection [RE]; 0x7 clears
		 * not-quiescent too, which each injection reports afresh.
		 */
		ts->tdi[SIM_TDI_TDI_STS] &= ~(value & ~SIM_TDI_STS_BUSY);
		return;
	case SIM_TDI_DBG_IEXEC:
		ts->tdi[reg] = value;
		/* A second instruction while one is in flight (modelled). */
		if (ts->tdi[SIM_TDI_TDI_STS] & SIM_TDI_STS_BUSY) {
			ts->tdi[SIM_TDI_TDI_STS] |= SIM_TDI_STS_DOUBLE_ISSUE;
			return;
		}
		sts = sim_tdi_execute(sim, phys, value);
		/* A faulting instruction raises the context's debug exception (modelled). */
		if ((sts & SIM_TDI_STS_INVALID) && owner < C600_SIM_CONTEXTS)
			ts->tdi[SIM_TDI_DBG_ECSR] |= 1u << owner;
		/*
		 * Not-quiescent is this injection's, set or cleared by each one
		 * (modelled): the peer clears 0x6 only, never bit 0, and reads
		 * bit 0 after every injection as that injection's failure [RE].
		 */
		ts->tdi[SIM_TDI_TDI_STS] &= ~SIM_TDI_STS_NOT_QUIESCENT;
		ts->tdi[SIM_TDI_TDI_STS] |= sts | SIM_TDI_STS_BUSY;
		ts->tdi_busy_reads = sim->faults.tdi_busy ? 0 : sim->latency + 1;
		/*
		 * iowner_per_insn: the owner does not outlast the injection
		 * (modelled; unrecorded: the peer and [S] both write DBG_IOWNER
		 * before every injection). It then names no context.
		 */
		if (sim->faults.iowner_per_insn)
			ts->tdi[SIM_TDI_DBG_IOWNER] = SIM_IOWNER_NONE;
		return;
	default:
		ts->tdi[reg] = value;
	}
}

static u32 sim_tdi_read(struct c600_sim *sim, u16 phys, u32 reg)
{
	struct c600_tile_state *ts = &sim->ts[phys];

	switch (reg) {
	case SIM_TDI_CTXT_STS:
		return sim_ctxt_sts(sim, ts);
	case SIM_TDI_TDI_STS:
		if (ts->tdi_busy_reads && --ts->tdi_busy_reads == 0)
			ts->tdi[reg] &= ~SIM_TDI_STS_BUSY;
		return ts->tdi[reg];
	default:
		return ts->tdi[reg];
	}
}

/* Decode a TDI offset into tile and register; false if not a TDI register. */
static bool sim_tdi_decode(u32 offset, u16 *phys, u32 *reg)
{
	u32 rel;

	if (offset < SIM_TDI_BASE ||
	    offset >= SIM_TDI_BASE + C600_TILES * SIM_TDI_TILE_STRIDE)
		return false;
	rel = offset - SIM_TDI_BASE;
	*phys = (u16)(rel / SIM_TDI_TILE_STRIDE);
	*reg = (rel % SIM_TDI_TILE_STRIDE) / 4;
	return *reg < SIM_TDI_NREGS;
}

/* ------------------------------------------------------------ BAR access */

static bool c600_bar_offset_ok(u32 offset)
{
	return !(offset & 3) && offset <= C600_CONFIG_BAR_SIZE - 4;
}

int c600_sim_bar_read(struct c600_sim *sim, u32 offset, u32 *value)
{
	u16 phys;
	u32 reg;

	if (!c600_bar_offset_ok(offset))
		return -EINVAL;
	switch (offset) {
	case SIM_AUTOLDCSR:
		sim->stats.autold_unflushed = 0;
		if (sim->go_clear_after && --sim->go_clear_after == 0)
			sim->bar[offset / 4] &= ~SIM_AUTOLD_GO;
		break;
	case SIM_HSP_GS1:
		*value = sim_hsp_read(sim, 0);
		return 0;
	case SIM_HSP_GS2:
		*value = sim_hsp_read(sim, 1);
		return 0;
	default:
		if (sim_tdi_decode(offset, &phys, &reg)) {
			*value = sim_tdi_read(sim, phys, reg);
			return 0;
		}
	}
	*value = sim->bar[offset / 4];
	return 0;
}

bool c600_sim_read_pending(u32 offset, u32 value)
{
	u16 phys;
	u32 reg;

	switch (offset) {
	case SIM_AUTOLDCSR:
		return value & SIM_AUTOLD_GO;
	case SIM_HSP_GS1:
	case SIM_HSP_GS2:
		return value & SIM_HSP_MARK_MASK;
	default:
		return sim_tdi_decode(offset, &phys, &reg) && reg == SIM_TDI_TDI_STS &&
		       (value & SIM_TDI_STS_BUSY);
	}
}

int c600_sim_bar_write(struct c600_sim *sim, u32 offset, u32 value)
{
	u16 phys;
	u32 reg;

	if (!c600_bar_offset_ok(offset))
		return -EINVAL;
	switch (offset) {
	case SIM_AUTOLDCSR:
		sim_autoldcsr_write(sim, value);
		return 0;
	case SIM_AUTOLDDATAR:
		/* A data FIFO: words beyond the largest image are dropped (modelled). */
		if (sim->autold_fifo_len < SIM_AUTOLD_MAX_BYTES / 4)
			sim->autold_fifo[sim->autold_fifo_len++] = value;
		if (++sim->stats.autold_unflushed > sim->stats.autold_max_unflushed)
			sim->stats.autold_max_unflushed = sim->stats.autold_unflushed;
		sim->bar[offset / 4] = value;
		return 0;
	case SIM_HSP_GS1:
		sim_hsp_write(sim, 0, value);
		return 0;
	case SIM_HSP_GS2:
		sim_hsp_write(sim, 1, value);
		return 0;
	default:
		if (sim_tdi_decode(offset, &phys, &reg)) {
			sim_tdi_write(sim, phys, reg, value);
			return 0;
		}
	}
	sim->bar[offset / 4] = value;
	return 0;
}
