// SPDX-License-Identifier: GPL-2.0
/*
 * The software C600 register model. See c600_sim.h for what is modelled.
 */
#include "c600_sim.h"

/*
 * Logical -> physical tile id of IPU21, as the seed notes give it
 * (seeds/000 "No-Blob Replacement Status", seeds/003 "Compact Physical
 * Image"): tiles pair up in serpentine blocks of 23 rows.
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

struct c600_sim *c600_sim_create(void)
{
	struct c600_sim *sim;
	unsigned int t;

	sim = sim_zalloc(sizeof(*sim));
	if (!sim)
		return NULL;
	sim->bar = sim_zalloc(C600_CONFIG_BAR_SIZE);
	if (!sim->bar) {
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
	return sim;
}

void c600_sim_destroy(struct c600_sim *sim)
{
	if (!sim)
		return;
	sim_free(sim->bar);
	sim_free(sim);
}

/* Power-on state: registers zero. Host memory belongs to the host and stays. */
void c600_sim_reset(struct c600_sim *sim)
{
	memset(sim->bar, 0, C600_CONFIG_BAR_SIZE);
}

static bool c600_bar_offset_ok(u32 offset)
{
	return !(offset & 3) && offset <= C600_CONFIG_BAR_SIZE - 4;
}

int c600_sim_bar_read(const struct c600_sim *sim, u32 offset, u32 *value)
{
	if (!c600_bar_offset_ok(offset))
		return -EINVAL;
	*value = sim->bar[offset / 4];
	return 0;
}

int c600_sim_bar_write(struct c600_sim *sim, u32 offset, u32 value)
{
	if (!c600_bar_offset_ok(offset))
		return -EINVAL;
	sim->bar[offset / 4] = value;
	return 0;
}

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

/*
 * A device read of host memory: the whole range must lie in one mapped
 * region, else the transfer faults (-EFAULT), as an unmapped IOVA would.
 */
int c600_sim_dma_read(const struct c600_sim *sim, u64 bus, void *dst, size_t len)
{
	unsigned int i;

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
