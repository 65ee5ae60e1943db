/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The software C600: a register-level model of one Graphcore C600 (IPU21),
 * written from the seed notes and FACTS.md, not from the module's code.
 *
 * Plain C shared by the kernel backend (ipuxcom_sim.ko) and userspace
 * tests. It does no locking: its user serialises calls per instance.
 *
 * Modelled so far: the 512 KiB config-BAR register file, the tile identity
 * map (logical <-> physical), and host memory the device may read by bus
 * address. Register side effects (autoloader, HSP marks, TDI) come with the
 * mechanisms that use them.
 */
#ifndef C600_SIM_H
#define C600_SIM_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/vmalloc.h>
#define sim_zalloc(n)	vzalloc(n)
#define sim_free(p)	vfree(p)
#else
#include "user/sim_user_port.h"
#endif

/* 1,472 tiles [S: seeds/000, "All-Tile Parallel Sum"]. */
#define C600_TILES		1472
/* 23 physical rows x 64 physical columns [FACTS.md, Tiles and memory]. */
#define C600_PHYS_ROWS		23
#define C600_PHYS_COLS		64
/* mmap(/dev/ipuN, offset 0, 0x80000) maps the config BAR [RE, FACTS.md]. */
#define C600_CONFIG_BAR_SIZE	0x80000

/* Host buffers one simulated device can have mapped at once (modelled). */
#define C600_SIM_MAX_HOST_REGIONS	8

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

struct c600_sim {
	/*
	 * Config-BAR register file, one u32 per 4 bytes. Every register reads
	 * back what was written and resets to zero: the real reset values are
	 * not documented (modelled).
	 */
	u32 *bar;
	struct c600_tile tile[C600_TILES];	/* indexed by logical id */
	u16 logical_of[C600_TILES];		/* indexed by physical id */
	struct c600_host_region host[C600_SIM_MAX_HOST_REGIONS];
};

u16 c600_logical_to_physical(u16 logical);

struct c600_sim *c600_sim_create(void);
void c600_sim_destroy(struct c600_sim *sim);
void c600_sim_reset(struct c600_sim *sim);

int c600_sim_bar_read(const struct c600_sim *sim, u32 offset, u32 *value);
int c600_sim_bar_write(struct c600_sim *sim, u32 offset, u32 value);

int c600_sim_host_map(struct c600_sim *sim, u64 bus, void *vaddr, size_t size);
int c600_sim_host_unmap(struct c600_sim *sim, u64 bus);
int c600_sim_dma_read(const struct c600_sim *sim, u64 bus, void *dst, size_t len);

#endif /* C600_SIM_H */
