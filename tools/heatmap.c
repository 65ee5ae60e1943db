// SPDX-License-Identifier: GPL-2.0-only
/*
 * SVG heatmaps of the physical tile grid; see heatmap.h.
 */
#include <inttypes.h>
#include <string.h>

#include "heatmap.h"

/* Layout in SVG user units: a square per tile and a gap, margins for labels. */
#define HM_CELL		14
#define HM_PITCH	16
#define HM_LEFT		44
#define HM_TOP		72
#define HM_GRID_W	(IPUXCOM_PHYS_COLS * HM_PITCH)
#define HM_GRID_H	(IPUXCOM_PHYS_ROWS * HM_PITCH)
#define HM_WIDTH	(HM_LEFT + HM_GRID_W + 24)
#define HM_SCALE_STEPS	16

/* Colours: a pale-to-dark ramp for quantities, fixed ones for states. */
static const uint8_t hm_ramp[][3] = {
	{ 255, 244, 200 }, { 250, 180, 60 }, { 220, 80, 30 }, { 120, 20, 20 },
};
#define HM_ZERO		"#d9e2ec"	/* a quantity of 0 */
#define HM_ABSENT	"#ffffff"	/* a tile without data */

static const char *const hm_state_fill[HEATMAP_NSTATES] = {
	[HEATMAP_IDLE] = "#c8c8c8",
	[HEATMAP_RUNNING] = "#2e9d4a",
	[HEATMAP_STOPPED] = "#e0a020",
	[HEATMAP_ERROR] = "#d62728",
	[HEATMAP_UNREAD] = "#5a5a5a",
};

static const char *const hm_state_name[HEATMAP_NSTATES] = {
	[HEATMAP_IDLE] = "idle",
	[HEATMAP_RUNNING] = "running",
	[HEATMAP_STOPPED] = "stopped",
	[HEATMAP_ERROR] = "error",
	[HEATMAP_UNREAD] = "unread",
};

static const char *const hm_state_text[HEATMAP_NSTATES] = {
	[HEATMAP_IDLE] = "idle: every context inactive",
	[HEATMAP_RUNNING] = "running: a context runs",
	[HEATMAP_STOPPED] = "stopped: contexts stopped by debug",
	[HEATMAP_ERROR] = "error: debug exception or TDI error",
	[HEATMAP_UNREAD] = "unread: the registers could not be read",
};

/* @s with XML's special characters escaped (text and attribute values alike). */
static void hm_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			/* XML 1.0 allows no control characters but tab and newline. */
			fputc((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' ? '?' : *s, out);
		}
	}
}

void heatmap_scale_colour(uint64_t v, uint64_t max, char fill[8])
{
	const unsigned int last = sizeof(hm_ramp) / sizeof(hm_ramp[0]) - 1;
	double x, f;
	unsigned int i;
	uint8_t c[3];

	if (!v || !max) {
		memcpy(fill, HM_ZERO, 8);
		return;
	}
	x = (double)(v > max ? max : v) / (double)max * last;
	i = x >= last ? last - 1 : (unsigned int)x;
	f = x - i;
	for (int k = 0; k < 3; k++)
		c[k] = (uint8_t)(hm_ramp[i][k] + (hm_ramp[i + 1][k] - hm_ramp[i][k]) * f + 0.5);
	snprintf(fill, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static void hm_legend_item(FILE *out, int x, int y, const char *fill, const char *text)
{
	fprintf(out, "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"%s\" stroke=\"#888888\" stroke-width=\"0.5\"/>\n", x, y, HM_CELL, HM_CELL,
		fill);
	fprintf(out, "<text x=\"%d\" y=\"%d\">", x + HM_CELL + 6, y + HM_CELL - 3);
	hm_text(out, text);
	fputs("</text>\n", out);
}

void heatmap_write(FILE *out, const struct heatmap *h)
{
	int y = HM_TOP + HM_GRID_H + 24;
	int height = y + (int)h->nlegend * 20 + (h->scale_max ? 48 : 0) + 8;

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n",
		HM_WIDTH, height, HM_WIDTH, height);
	fputs("<title>", out);
	hm_text(out, h->title);
	fputs("</title>\n", out);
	fprintf(out, "<rect class=\"background\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
		HM_WIDTH, height);
	fprintf(out, "<text x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">", HM_LEFT);
	hm_text(out, h->title);
	fputs("</text>\n", out);
	fprintf(out, "<text x=\"%d\" y=\"42\" fill=\"#555555\">physical tiles: row = id / 64 "
		"(down), column = id %% 64 (right); hover a tile for its ids and value</text>\n",
		HM_LEFT);
	for (int c = 0; c < IPUXCOM_PHYS_COLS; c += 8)
		fprintf(out, "<text x=\"%d\" y=\"%d\">%d</text>\n", HM_LEFT + c * HM_PITCH,
			HM_TOP - 6, c);
	for (int r = 0; r < IPUXCOM_PHYS_ROWS; r++)
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>\n", HM_LEFT - 6,
			HM_TOP + r * HM_PITCH + HM_CELL - 3, r);
	fputs("<g class=\"tiles\">\n", out);
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
		uint32_t row = t / IPUXCOM_PHYS_COLS, col = t % IPUXCOM_PHYS_COLS, lg = 0;

		ipuxcom_tile_logical(t, &lg);
		fprintf(out, "<rect class=\"tile\" id=\"t%" PRIu32 "\" x=\"%" PRIu32 "\" y=\"%"
			PRIu32 "\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>physical %" PRIu32
			" (logical %" PRIu32 ", row %" PRIu32 ", column %" PRIu32 "): ", t,
			HM_LEFT + col * HM_PITCH, HM_TOP + row * HM_PITCH, HM_CELL, HM_CELL,
			h->fill[t][0] ? h->fill[t] : HM_ABSENT, t, lg, row, col);
		hm_text(out, h->tip[t]);
		fputs("</title></rect>\n", out);
	}
	fputs("</g>\n", out);
	for (unsigned int i = 0; i < h->nlegend && i < HEATMAP_MAX_LEGEND; i++, y += 20)
		hm_legend_item(out, HM_LEFT, y, h->legend_fill[i], h->legend_text[i]);
	if (h->scale_max) {
		char fill[8];
		int w = 20;

		fprintf(out, "<text x=\"%d\" y=\"%d\">", HM_LEFT, y + 10);
		hm_text(out, h->scale_label);
		fputs("</text>\n", out);
		for (int i = 0; i < HM_SCALE_STEPS; i++) {
			heatmap_scale_colour(h->scale_max * (uint64_t)(i + 1) / HM_SCALE_STEPS,
					     h->scale_max, fill);
			fprintf(out, "<rect class=\"scale\" x=\"%d\" y=\"%d\" width=\"%d\" "
				"height=\"%d\" fill=\"%s\"/>\n", HM_LEFT + i * w, y + 16, w, HM_CELL,
				fill);
		}
		fprintf(out, "<text x=\"%d\" y=\"%d\">1</text>\n", HM_LEFT, y + 42);
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%" PRIu64 "</text>\n",
			HM_LEFT + HM_SCALE_STEPS * w, y + 42, h->scale_max);
	}
	fputs("</svg>\n", out);
}

void heatmap_patch_bytes(struct heatmap *h, const char *file, const uint32_t *bytes,
			 uint32_t ntiles)
{
	uint64_t max = 0, sum = 0;

	memset(h, 0, sizeof(*h));
	for (uint32_t t = 0; t < ntiles && t < IPUXCOM_TILES; t++) {
		if (bytes[t] > max)
			max = bytes[t];
		sum += bytes[t];
	}
	snprintf(h->title, sizeof(h->title), "%s: patch bytes per physical tile (%" PRIu64
		 " in all, at most %" PRIu64 ")", file, sum, max);
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
		if (t >= ntiles) {
			snprintf(h->tip[t], sizeof(h->tip[t]), "not in the image");
			continue;
		}
		heatmap_scale_colour(bytes[t], max, h->fill[t]);
		snprintf(h->tip[t], sizeof(h->tip[t]), "%" PRIu32 " patch bytes%s", bytes[t],
			 bytes[t] ? "" : " (equal to the template)");
	}
	h->nlegend = 1;
	memcpy(h->legend_fill[0], HM_ZERO, sizeof(HM_ZERO));
	snprintf(h->legend_text[0], sizeof(h->legend_text[0]),
		 "0 bytes: the tile equals the template");
	if (ntiles < IPUXCOM_TILES) {
		memcpy(h->legend_fill[h->nlegend], HM_ABSENT, sizeof(HM_ABSENT));
		snprintf(h->legend_text[h->nlegend++], sizeof(h->legend_text[0]),
			 "not in the image");
	}
	h->scale_max = max;
	snprintf(h->scale_label, sizeof(h->scale_label), "patch bytes per tile (linear)");
}

enum heatmap_tile_state heatmap_tdi_state(const uint32_t regs[IPUXCOM_TDI_NREGS])
{
	const uint32_t sts_err = IPUXCOM_TDI_STS_INVALID | IPUXCOM_TDI_STS_DOUBLE_ISSUE;
	bool running = false, stopped = false;

	if (regs[IPUXCOM_TDI_DBG_ECSR] || (regs[IPUXCOM_TDI_TDI_STS] & sts_err))
		return HEATMAP_ERROR;
	/* CTXT_STS: 2 bits per context, 0 inactive, 1 running, 2 stopped (modelled, uapi). */
	for (uint32_t c = 0; c < IPUXCOM_TDI_CONTEXTS; c++) {
		uint32_t f = (regs[IPUXCOM_TDI_CTXT_STS] >> (2 * c)) & 3;

		running |= f == 1;
		stopped |= f == 2;
	}
	return running ? HEATMAP_RUNNING : stopped ? HEATMAP_STOPPED : HEATMAP_IDLE;
}

const char *heatmap_state_name(enum heatmap_tile_state s)
{
	return s < HEATMAP_NSTATES ? hm_state_name[s] : "?";
}

void heatmap_tdi(struct heatmap *h, const char *device, const uint32_t (*regs)[IPUXCOM_TDI_NREGS],
		 const bool *ok)
{
	uint32_t count[HEATMAP_NSTATES] = { 0 };

	memset(h, 0, sizeof(*h));
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
		enum heatmap_tile_state s = ok[t] ? heatmap_tdi_state(regs[t]) : HEATMAP_UNREAD;

		count[s]++;
		memcpy(h->fill[t], hm_state_fill[s], 8);
		if (ok[t])
			snprintf(h->tip[t], sizeof(h->tip[t]), "%s; CTXT_STS 0x%08" PRIx32
				 ", TDI_STS 0x%" PRIx32 ", DBG_ECSR 0x%" PRIx32, hm_state_name[s],
				 regs[t][IPUXCOM_TDI_CTXT_STS], regs[t][IPUXCOM_TDI_TDI_STS],
				 regs[t][IPUXCOM_TDI_DBG_ECSR]);
		else
			snprintf(h->tip[t], sizeof(h->tip[t]), "unread");
	}
	snprintf(h->title, sizeof(h->title), "%s: tile state from TDI (%" PRIu32 " running, %"
		 PRIu32 " idle, %" PRIu32 " stopped, %" PRIu32 " error, %" PRIu32 " unread)",
		 device, count[HEATMAP_RUNNING], count[HEATMAP_IDLE], count[HEATMAP_STOPPED],
		 count[HEATMAP_ERROR], count[HEATMAP_UNREAD]);
	for (int s = 0; s < HEATMAP_NSTATES; s++) {
		memcpy(h->legend_fill[s], hm_state_fill[s], 8);
		snprintf(h->legend_text[s], sizeof(h->legend_text[s]), "%s (%" PRIu32 ")",
			 hm_state_text[s], count[s]);
	}
	h->nlegend = HEATMAP_NSTATES;
}
