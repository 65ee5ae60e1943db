// SPDX-License-Identifier: GPL-2.0
/*
 * ipuxcom tdi ...: the debug interface of one tile -- its registers, and
 * its SRAM read and written through injected loads and stores on the
 * stopped supervisor context.
 */
#include <inttypes.h>
#include <stdlib.h>

#include <ipuxcom.h>

#include "cli.h"
#include "explain.h"
#include "json.h"

/* Largest COUNT of one `tdi read`, as the module's limit. */
#define TDI_MAX_WORDS	IPUXCOM_TDI_SRAM_MAX_WORDS

static const char *dev_arg;

static const struct cli_opt tdi_opts[] = {
	{ .lname = "dev", .arg = "ID", .help = "device id (default 0)", .value = &dev_arg },
};

#define NOPTS (sizeof(tdi_opts) / sizeof(tdi_opts[0]))

static int parse_tile(const struct cli_call *call, const char *s, uint32_t *tile)
{
	if (!cli_parse_u32(s, tile) || *tile >= 1472)
		return cli_usage_err(call, "invalid physical tile '%s' (0..1471)", s);
	return CLI_CONTINUE;
}

static int tdi_dump_run(struct cli_call *call, int argc, char **argv)
{
	uint32_t tile, regs[IPUXCOM_TDI_NREGS];
	struct ipuxcom *ipu;
	char why[256];
	char *pos[1];
	int npos, rc, err;

	dev_arg = NULL;
	rc = cli_parse(call, argc, argv, tdi_opts, NOPTS, true, pos, 1, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos != 1)
		return cli_usage_err(call, "expected TILE");
	rc = parse_tile(call, pos[0], &tile);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_open_attached(call, dev_arg, &ipu);
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
		json_kv_uint(&w, "tile", tile);
		json_key(&w, "registers");
		json_begin_object(&w);
		for (uint32_t r = 0; r < IPUXCOM_TDI_NREGS; r++)
			json_kv_uint(&w, ipuxcom_tdi_reg_name(r), regs[r]);
		json_end_object(&w);
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
	uint32_t tile, addr, count = 1, done = 0, *words;
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
	if (!cli_parse_u32_num(pos[1], &addr) || addr & 3)
		return cli_usage_err(call, "invalid address '%s' (4-byte aligned tile SRAM address)",
				     pos[1]);
	if (npos == 3 && (!cli_parse_u32_num(pos[2], &count) || !count || count > TDI_MAX_WORDS))
		return cli_usage_err(call, "invalid word count '%s' (1..%u)", pos[2], TDI_MAX_WORDS);
	words = calloc(count, sizeof(*words));
	if (!words) {
		cli_err(call->what, "out of memory");
		return CLI_EXIT_ERR;
	}
	rc = cli_open_attached(call, dev_arg, &ipu);
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

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_uint(&w, "tile", tile);
		json_kv_uint(&w, "addr", addr);
		json_key(&w, "words");
		json_begin_array(&w);
		for (uint32_t i = 0; i < done; i++)
			json_uint(&w, words[i]);
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
	uint32_t tile, addr, done = 0, words[64];
	struct ipuxcom *ipu;
	char why[256];
	char *pos[2 + 64];
	int npos, rc, err;

	dev_arg = NULL;
	rc = cli_parse(call, argc, argv, tdi_opts, NOPTS, false, pos, 2 + 64, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos < 3)
		return cli_usage_err(call, "expected TILE ADDR WORD...");
	rc = parse_tile(call, pos[0], &tile);
	if (rc != CLI_CONTINUE)
		return rc;
	if (!cli_parse_u32_num(pos[1], &addr) || addr & 3)
		return cli_usage_err(call, "invalid address '%s' (4-byte aligned tile SRAM address)",
				     pos[1]);
	for (int i = 2; i < npos; i++)
		if (!cli_parse_u32_num(pos[i], &words[i - 2]))
			return cli_usage_err(call, "invalid word '%s'", pos[i]);
	rc = cli_open_attached(call, dev_arg, &ipu);
	if (rc)
		return rc;
	err = ipuxcom_tdi_write_sram(ipu, tile, addr, words, (uint32_t)(npos - 2), &done);
	if (err)
		cli_err(call->what, "tile %" PRIu32 " at 0x%" PRIx32 ": %s (%" PRIu32 " of %d words "
			"written)", tile, addr, cli_tdi_strerror(ipu, err, why, sizeof(why)), done,
			npos - 2);
	ipuxcom_close(ipu);
	return err ? CLI_EXIT_ERR : CLI_EXIT_OK;
}

static const struct cli_cmd tdi_cmds[] = {
	{
		.name = "dump",
		.args = "TILE [--dev ID] [-j|--json]",
		.summary = "show the TDI registers of physical tile TILE",
		.description =
			"Read the 13 TDI registers of physical tile TILE (0..1471) and decode\n"
			"TDI_STS. Reading does not stop the tile.",
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
		.args = "TILE ADDR WORD... [--dev ID]",
		.summary = "write words to tile SRAM through TDI (CAP_SYS_RAWIO)",
		.description =
			"Write up to 64 WORDs (decimal or 0x hex) to physical tile TILE's SRAM\n"
			"from byte address ADDR by injecting stores. Needs CAP_SYS_RAWIO.",
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
