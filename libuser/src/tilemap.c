// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * The C600 (IPU21) tile map: logical <-> physical ids, physical row and
 * column, and the XOR-2 lane pairing.
 *
 * Forward map [S "No-Blob Replacement Status"]:
 *   pair = logical / 2; lane = logical & 1; block = pair / 23;
 *   row = pair % 23, reversed (22 - row) in odd blocks;
 *   col = (block / 2) * 4 + (block & 1); physical = row * 64 + col + lane * 2
 * 23 rows x 64 columns [RE]. Physical ids that differ by XOR 2 (the two
 * lanes of a logical pair) share 64-bit exchange resources [RE].
 *
 * Written independently of the simulator's copy (sim/c600_sim.c), which
 * must stay independent; plan_tilemap_test compares the two.
 */
#include <errno.h>

#include "plan_internal.h"

/*
 * The inverse, derived from the formula: a physical column c (0..63) is
 * 4 * (block / 2) + (block & 1) + 2 * lane, so lane = bit 1 of c, the
 * block's low bit = bit 0 of c, block / 2 = c / 4; the row un-reverses
 * in odd blocks.
 */
uint32_t ixc_p2l(uint32_t physical)
{
	uint32_t row = physical / IPUXCOM_PHYS_COLS, col = physical % IPUXCOM_PHYS_COLS;
	uint32_t lane = (col >> 1) & 1;
	uint32_t block = (col >> 2) * 2 + (col & 1);

	if (block & 1)
		row = IPUXCOM_PHYS_ROWS - 1 - row;
	return (block * IPUXCOM_PHYS_ROWS + row) * 2 + lane;
}

int ipuxcom_tile_physical(uint32_t logical, uint32_t *physical)
{
	if (!physical)
		return -EINVAL;
	if (logical >= IPUXCOM_TILES)
		return -ERANGE;
	*physical = ixc_l2p(logical);
	return 0;
}

int ipuxcom_tile_logical(uint32_t physical, uint32_t *logical)
{
	if (!logical)
		return -EINVAL;
	if (physical >= IPUXCOM_TILES)
		return -ERANGE;
	*logical = ixc_p2l(physical);
	return 0;
}

int ixc_tile_bad(uint32_t id, bool logical, struct ipuxcom_plan_error *err, const char *field)
{
	return ixc_plan_fail(err, IPUXCOM_PLAN_E_TILE, field, "%s %u out of range 0..%u (%s)",
			     field, id, IPUXCOM_TILES - 1, logical ? "logical" : "physical");
}

int ipuxcom_tile_info(uint32_t id, uint32_t flags, struct ipuxcom_tile *out,
		      struct ipuxcom_plan_error *err)
{
	uint32_t phys = 0;
	bool logical = true;
	int ret;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	if (flags & ~IXC_NUMBERING)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", flags,
				     flags & ~IXC_NUMBERING);
	if ((ret = ixc_numbering(flags, &logical, "flags", err)))
		return ret;
	ret = ixc_tile_resolve(id, logical, &phys, err, "tile");
	if (ret)
		return ret;
	out->physical = (uint16_t)phys;
	out->logical = (uint16_t)ixc_p2l(phys);
	out->row = (uint16_t)(phys / IPUXCOM_PHYS_COLS);
	out->column = (uint16_t)(phys % IPUXCOM_PHYS_COLS);
	out->pair_physical = (uint16_t)(phys ^ 2);
	out->pair_logical = (uint16_t)(out->logical ^ 1);
	ixc_plan_ok(err);
	return 0;
}
