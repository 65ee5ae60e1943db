// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom tdi ...: the debug interface of one tile -- its registers, and
 * its SRAM read and written through injected loads and stores on the
 * stopped supervisor context.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom.h>

#include "cli.h"
#include "explain.h"
#include "json.h"
#include "json_fmt.h"
#include "sram_arg.h"
#include "words.h"
#include "heatmap.h"
#include "json.h"
#include "outfile.h"

/* Largest COUNT of one `tdi read`, as the module's limit. */
#define TDI_MAX_WORDS	IPUXCOM_TDI_SRAM_MAX_WORDS

static const char *dev_arg;

static const struct cli_opt tdi_opts[] = {
	{ .lname = "dev", .arg = "ID", .help = "device id (default: the lowest registered)", .value = &dev_arg },
};

#define NOPTS (sizeof(tdi_opts) / sizeof(tdi_opts[0]))

static int parse_tile(const struct cli_call *call, const char *s, uint32_t *tile)
{
	if (!cli_parse_u32(s, tile) || *tile >= 1472)
		return cli_usage_err(call, "invalid physical tile '%s': a decimal number 0..1471", s);
	return CLI_CONTINUE;
}

/* ADDR of a read or write of @count words, checked before the device is opened. */
static int parse_addr(const struct cli_call *call, const char *s, uint32_t count,
		      uint32_t *addr)
{
	if (!cli_parse_u32_num(s, addr))
		return cli_usage_err(call, "invalid address '%s' (4-byte aligned tile SRAM "
				     "address)", s);
	return cli_check_sram_addr(call, s, NULL, *addr, (uint64_t)count * 4, true);
}

static void regs_json(struct json_writer *w, const uint32_t regs[IPUXCOM_TDI_NREGS])
{
	json_key(w, "registers");
	json_begin_object(w);
	for (uint32_t r = 0; r < IPUXCOM_TDI_NREGS; r++)
		json_kv_hex32(w, ipuxcom_tdi_reg_name(r), regs[r]);
	json_end_object(w);
}

/* Every tile's registers: read what can be, then print, picture, report the first error. */
/* The start of tdi read's and write's JSON object: {"dev","tile","addr", */
static void sram_json_begin(struct json_writer *w, const struct cli_call *call, uint32_t dev,
			    uint32_t tile, uint32_t addr)
{
	json_init_call(w, stdout, call);
	json_begin_object(w);
	json_kv_uint(w, "dev", dev);
	json_kv_uint(w, "tile", tile);
	json_kv_hex32(w, "addr", addr);
}

static int tdi_dump_all(const struct cli_call *call, const char *heatmap_path)
{
	uint32_t (*regs)[IPUXCOM_TDI_NREGS] = calloc(IPUXCOM_TILES, sizeof(*regs));
	bool *ok = calloc(IPUXCOM_TILES, sizeof(*ok));
	struct heatmap *h = malloc(sizeof(*h));
	uint32_t failed = 0, first_tile = 0;
	int first_err = 0, rc = CLI_EXIT_OK;
	struct ipuxcom *ipu = NULL;
	struct outfile *o = NULL;
	uint32_t dev = 0;
	char device[32];

	if (!regs || !ok || !h) {
		cli_err(call->what, "out of memory");
		rc = CLI_EXIT_ERR;
		goto out;
	}
	/*
	 * An output that cannot be written is found before the device is read;
	 * --heatmap -: the SVG on stdout, the report on stderr.
	 */
	if (heatmap_path && (outfile_claim_stdout(call, heatmap_path) ||
			     outfile_open(call, heatmap_path, &o))) {
		rc = CLI_EXIT_ERR;
		goto out;
	}
	rc = cli_open_attached_id(call, dev_arg, &ipu, &dev);
	if (rc)
		goto out;
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
		int err = ipuxcom_tdi_read_regs(ipu, t, regs[t]);

		ok[t] = !err;
		if (err && !failed++) {
			first_err = err;
			first_tile = t;
		}
	}
	ipuxcom_close(ipu);
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_uint(&w, "dev", dev);
		json_key(&w, "tiles");
		json_begin_array(&w);
		for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
			json_begin_object(&w);
			json_kv_uint(&w, "tile", t);
			json_kv_string(&w, "state", heatmap_state_name(ok[t] ?
					heatmap_tdi_state(regs[t]) : HEATMAP_UNREAD));
			if (ok[t])
				regs_json(&w, regs[t]);
			json_end_object(&w);
		}
		json_end_array(&w);
		json_end_object(&w);
	} else {
		printf("%-5s %-8s %-10s %-8s %s\n", "tile", "state", "CTXT_STS", "TDI_STS",
		       "DBG_ECSR");
		for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
			if (!ok[t]) {
				printf("%-5" PRIu32 " %s\n", t, heatmap_state_name(HEATMAP_UNREAD));
				continue;
			}
			printf("%-5" PRIu32 " %-8s 0x%08" PRIx32 " 0x%-6" PRIx32 " 0x%" PRIx32 "\n",
			       t, heatmap_state_name(heatmap_tdi_state(regs[t])),
			       regs[t][IPUXCOM_TDI_CTXT_STS], regs[t][IPUXCOM_TDI_TDI_STS],
			       regs[t][IPUXCOM_TDI_DBG_ECSR]);
		}
	}
	if (o) {
		snprintf(device, sizeof(device), "device %" PRIu32, dev);
		heatmap_tdi(h, device, (const uint32_t (*)[IPUXCOM_TDI_NREGS])regs, ok);
		heatmap_write(outfile_stream(o), h);
		rc = outfile_close(o, true);
		o = NULL;
	}
	if (failed) {
		cli_err(call->what, "tile %" PRIu32 ": %s (%" PRIu32 " of %u tiles unread)",
			first_tile, ipuxcom_strerror(first_err), failed, IPUXCOM_TILES);
		rc = CLI_EXIT_ERR;
	}
out:
	if (o)
		outfile_close(o, false);	/* no partial picture */
	free(regs);
	free(ok);
	free(h);
	return rc;
}

static int tdi_dump_run(struct cli_call *call, int argc, char **argv)
{
	uint32_t tile, dev = 0, regs[IPUXCOM_TDI_NREGS];
	const char *heatmap = NULL;
	bool all = false;
	const struct cli_opt opts[] = {
		tdi_opts[0],
		{ "all", 'a', NULL, "every tile: its state, CTXT_STS, TDI_STS and DBG_ECSR",
		  &all, NULL },
		{ "heatmap", 0, "FILE", "with --all: the tiles' states as an SVG picture of the "
		  "tile grid ('-': stdout)", NULL, &heatmap },
	};
	struct ipuxcom *ipu;
	char why[256];
	char *pos[1];
	int npos, rc, err;

	dev_arg = NULL;
	rc = cli_parse(call, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), true, pos, 1,
		       &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (heatmap && !all)
		return cli_usage_err(call, "--heatmap needs --all");
	if (all && npos)
		return cli_usage_err(call, "--all takes no TILE (got '%s')", pos[0]);
	if (all)
		return tdi_dump_all(call, heatmap);
	if (npos != 1)
		return cli_usage_err(call, "expected TILE (or --all)");
	rc = parse_tile(call, pos[0], &tile);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_open_attached_id(call, dev_arg, &ipu, &dev);
	if (rc)
		return rc;
	err = ipuxcom_tdi_read_regs(ipu, tile, regs);
	if (err)
		cli_err(call->what, "tile %" PRIu32 ": %s", tile,
			cli_tdi_strerror(ipu, err, why, sizeof(why)));
	ipuxcom_close(ipu);
	if (err)
		return CLI_EXIT_ERR;
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_uint(&w, "dev", dev);
		json_kv_uint(&w, "tile", tile);
		regs_json(&w, regs);
		json_end_object(&w);
		return CLI_EXIT_OK;
	}
	printf("tile %" PRIu32 "\n", tile);
	for (uint32_t r = 0; r < IPUXCOM_TDI_NREGS; r++)
		printf("  %2" PRIu32 " %-16s 0x%08" PRIx32 "\n", r, ipuxcom_tdi_reg_name(r), regs[r]);
	printf("  TDI_STS:%s%s%s%s\n",
	       regs[IPUXCOM_TDI_TDI_STS] & IPUXCOM_TDI_STS_NOT_QUIESCENT ? " context-not-quiescent" : "",
	       regs[IPUXCOM_TDI_TDI_STS] & IPUXCOM_TDI_STS_INVALID ? " invalid-instruction" : "",
	       regs[IPUXCOM_TDI_TDI_STS] & IPUXCOM_TDI_STS_DOUBLE_ISSUE ? " double-issue" : "",
	       regs[IPUXCOM_TDI_TDI_STS] & IPUXCOM_TDI_STS_BUSY ? " busy" :
	       (regs[IPUXCOM_TDI_TDI_STS] & 0xf) ? "" : " idle");
	return CLI_EXIT_OK;
}

static int tdi_read_run(struct cli_call *call, int argc, char **argv)
{
	uint32_t tile, addr, count = 1, done = 0, dev = 0, *words;
	struct ipuxcom *ipu;
	char why[256];
	char *pos[3];
	int npos, rc, err;

	dev_arg = NULL;
	rc = cli_parse(call, argc, argv, tdi_opts, NOPTS, true, pos, 3, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos < 2)
		return cli_usage_err(call, "expected TILE ADDR [COUNT]");
	rc = parse_tile(call, pos[0], &tile);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos == 3 && (!cli_parse_u32(pos[2], &count) || !count || count > TDI_MAX_WORDS))
		return cli_usage_err(call, "invalid word count '%s': a decimal number 1..%u", pos[2],
				     TDI_MAX_WORDS);
	rc = parse_addr(call, pos[1], count, &addr);
	if (rc != CLI_CONTINUE)
		return rc;
	words = calloc(count, sizeof(*words));
	if (!words) {
		cli_err(call->what, "out of memory");
		return CLI_EXIT_ERR;
	}
	rc = cli_open_attached_id(call, dev_arg, &ipu, &dev);
	if (rc) {
		free(words);
		return rc;
	}
	err = ipuxcom_tdi_read_sram(ipu, tile, addr, words, count, &done);
	if (err)
		cli_err(call->what, "tile %" PRIu32 " at 0x%" PRIx32 ": %s (%" PRIu32 " of %" PRIu32
			" words read)", tile, addr, cli_tdi_strerror(ipu, err, why, sizeof(why)),
			done, count);
	ipuxcom_close(ipu);
	if (call->json) {
		struct json_writer w;

		sram_json_begin(&w, call, dev, tile, addr);
		json_key(&w, "words");
		json_begin_array(&w);
		for (uint32_t i = 0; i < done; i++)
			json_hex32(&w, words[i]);
		json_end_array(&w);
		json_end_object(&w);
	} else {
		for (uint32_t i = 0; i < done; i++) {
			if (i % 4 == 0)
				printf("%s%08" PRIx32 ":", i ? "\n" : "", addr + i * 4);
			printf(" %08" PRIx32, words[i]);
		}
		if (done)
			putchar('\n');
	}
	free(words);
	return err ? CLI_EXIT_ERR : CLI_EXIT_OK;
}

static int tdi_write_run(struct cli_call *call, int argc, char **argv)
{
	uint32_t tile, addr, done = 0, dev = 0, words[64];
	struct ipuxcom *ipu;
	char why[256];
	char *pos[2 + 64];
	int npos, rc, err;

	dev_arg = NULL;
	rc = cli_parse(call, argc, argv, tdi_opts, NOPTS, true, pos, 2 + 64, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos < 3)
		return cli_usage_err(call, "expected TILE ADDR WORD...");
	rc = parse_tile(call, pos[0], &tile);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = parse_addr(call, pos[1], (uint32_t)(npos - 2), &addr);
	if (rc != CLI_CONTINUE)
		return rc;
	for (int i = 2; i < npos; i++)
		if (!cli_parse_word(pos[i], strlen(pos[i]), &words[i - 2]))
			return cli_usage_err(call, "invalid word '%s' (" CLI_WORD_GRAMMAR ")", pos[i]);
	rc = cli_open_attached_id(call, dev_arg, &ipu, &dev);
	if (rc)
		return rc;
	err = ipuxcom_tdi_write_sram(ipu, tile, addr, words, (uint32_t)(npos - 2), &done);
	if (err)
		cli_err(call->what, "tile %" PRIu32 " at 0x%" PRIx32 ": %s (%" PRIu32 " of %d words "
			"written)", tile, addr, cli_tdi_strerror(ipu, err, why, sizeof(why)), done,
			npos - 2);
	ipuxcom_close(ipu);
	if (call->json) {
		struct json_writer w;

		/* The words written before a failure, as tdi read's. */
		sram_json_begin(&w, call, dev, tile, addr);
		json_kv_uint(&w, "written", done);
		json_kv_uint(&w, "count", (uint32_t)(npos - 2));
		json_end_object(&w);
	}
	return err ? CLI_EXIT_ERR : CLI_EXIT_OK;
}

static const struct cli_cmd tdi_cmds[] = {
	{
		.name = "dump",
		.args = "TILE | --all [--heatmap FILE] [--dev ID] [-j|--json]",
		.summary = "show the TDI registers of physical tile TILE (or of all)",
		.description =
			"Read the 13 TDI registers of physical tile TILE (0..1471) and decode\n"
			"TDI_STS. Reading does not stop the tile. --all reads every tile and\n"
			"prints its state (running, stopped, idle, error: from CTXT_STS, TDI_STS\n"
			"and DBG_ECSR, whose fields are modelled); --heatmap FILE draws the\n"
			"states on the 23 x 64 physical tile grid as SVG (docs/pictures.md).",
		.run = tdi_dump_run,
		.takes_dev = true,
	},
	{
		.name = "read",
		.args = "TILE ADDR [COUNT] [--dev ID] [-j|--json]",
		.summary = "read COUNT words of tile SRAM through TDI",
		.description =
			"Read COUNT (default 1, at most 65536) 32-bit words of physical tile\n"
			"TILE's SRAM from byte address ADDR (decimal or 0x hex, 4-byte aligned,\n"
			"inside 0x4c000..0xe8000) by injecting loads into its stopped supervisor\n"
			"context, which is then let run again. The context must be active (a\n"
			"loaded or bootloaded tile).",
		.run = tdi_read_run,
		.takes_dev = true,
	},
	{
		.name = "write",
		.args = "TILE ADDR WORD... [--dev ID] [-j|--json]",
		.summary = "write words to tile SRAM through TDI (CAP_SYS_RAWIO)",
		.description =
			"Write up to 64 WORDs (decimal or 0x hex) to physical tile TILE's SRAM\n"
			"from byte address ADDR by injecting stores. Needs CAP_SYS_RAWIO.\n"
			"Prints nothing on success; with --json {\"dev\",\"tile\",\"addr\",\n"
			"\"written\",\"count\"} (written: the words stored, also after a failure).",
		.run = tdi_write_run,
		.takes_dev = true,
	},
};

const struct cli_object cli_obj_tdi = {
	.name = "tdi",
	.summary = "tile debug interface: registers and SRAM",
	.cmds = tdi_cmds,
	.ncmds = sizeof(tdi_cmds) / sizeof(tdi_cmds[0]),
	.default_cmd = NULL,
};
