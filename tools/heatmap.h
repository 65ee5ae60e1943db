/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The chip's 23 x 64 physical tile grid as an SVG picture, one square per
 * physical tile (row = id / 64, column = id % 64), each with a colour and
 * a tooltip (<title>), plus a title and a legend. Used by `image inspect
 * --heatmap` (patch bytes per tile) and `tdi dump --all --heatmap` (tile
 * state); docs/pictures.md.
 */
#ifndef IPUXCOM_TOOLS_HEATMAP_H
#define IPUXCOM_TOOLS_HEATMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <ipuxcom.h>
#include <ipuxcom_plan.h>

#define HEATMAP_TIP_LEN		160
#define HEATMAP_MAX_LEGEND	8

struct heatmap {
	char title[160];
	char fill[IPUXCOM_TILES][8];			/* "#rrggbb" */
	char tip[IPUXCOM_TILES][HEATMAP_TIP_LEN];	/* tooltip after the tile's ids */
	/* Swatches below the grid. */
	unsigned int nlegend;
	char legend_fill[HEATMAP_MAX_LEGEND][8];
	char legend_text[HEATMAP_MAX_LEGEND][64];
	/* A colour scale from 0 to scale_max (not drawn when scale_max is 0). */
	uint64_t scale_max;
	char scale_label[64];
};

void heatmap_write(FILE *out, const struct heatmap *h);

/* Colour of @v on the scale 0..@max (1..max pale to dark; 0 has its own swatch). */
void heatmap_scale_colour(uint64_t v, uint64_t max, char fill[8]);

/* Patch bytes per physical tile (@ntiles of them; the others are not in the image). */
void heatmap_patch_bytes(struct heatmap *h, const char *file, const uint32_t *bytes,
			 uint32_t ntiles);

/* What the TDI registers say about a tile (the CTXT_STS / DBG_ECSR fields are modelled). */
enum heatmap_tile_state {
	HEATMAP_IDLE,		/* every context inactive */
	HEATMAP_RUNNING,	/* a context running */
	HEATMAP_STOPPED,	/* contexts stopped (debug), none running */
	HEATMAP_ERROR,		/* a debug exception or a TDI error bit */
	HEATMAP_UNREAD,		/* the registers could not be read */
	HEATMAP_NSTATES
};

enum heatmap_tile_state heatmap_tdi_state(const uint32_t regs[IPUXCOM_TDI_NREGS]);
const char *heatmap_state_name(enum heatmap_tile_state s);

/* Tile state from every tile's TDI registers; @ok[t] false: tile t's read failed. */
void heatmap_tdi(struct heatmap *h, const char *device, const uint32_t (*regs)[IPUXCOM_TDI_NREGS],
		 const bool *ok);

#endif /* IPUXCOM_TOOLS_HEATMAP_H */
