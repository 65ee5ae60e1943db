// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom cfg ...: IPUCFG1 config-BAR write sequences (the notes'
 * c600-init.ipucfg): what they touch, record by record or by block.
 */
#include <inttypes.h>
#include <stdlib.h>

#include <ipuxcom.h>

#include "cfg_capture.h"
#include "image_cli.h"
#include "json_fmt.h"
#include "input.h"

static int load(const struct cli_call *call, const char *path, struct ipuxcom_cfg_record **recs,
		uint32_t *count)
{
	struct ipuxcom_errmsg em;

	if (cli_input_cfg(path, recs, count, &em)) {
		cli_err(call->what, "%s", em.msg);
		return CLI_EXIT_ERR;
	}
	return 0;
}

static int cfg_inspect_run(struct cli_call *call, int argc, char **argv)
{
	struct ipuxcom_cfg_record *recs;
	struct ipuxcom_cfg_block *blocks;
	uint32_t count, registers = 0;
	size_t nblocks;
	char *pos[1];
	int npos, rc, err;

	rc = cli_parse(call, argc, argv, NULL, 0, true, pos, 1, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos < 1)
		return cli_usage_err(call, "expected FILE");
	rc = load(call, pos[0], &recs, &count);
	if (rc)
		return rc;
	err = ipuxcom_cfg_summarize(recs, count, &blocks, &nblocks);
	free(recs);
	if (err) {
		cli_err(call->what, "%s: cannot summarise: %s", cli_input_name(pos[0]), ipuxcom_strerror(err));
		return CLI_EXIT_ERR;
	}
	for (size_t i = 0; i < nblocks; i++)
		registers += blocks[i].registers;
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "file", pos[0]);
		json_kv_string(&w, "format", "IPUCFG1");
		json_kv_uint(&w, "records", count);
		json_kv_uint(&w, "registers", registers);
		json_key(&w, "blocks");
		json_begin_array(&w);
		for (size_t i = 0; i < nblocks; i++) {
			const struct ipuxcom_cfg_block *b = &blocks[i];

			json_begin_object(&w);
			json_kv_string(&w, "name", b->name);
			json_key(&w, "named");
			json_bool(&w, b->named);
			json_kv_hex32(&w, "first", b->first);
			json_kv_hex32(&w, "last", b->last);
			json_kv_uint(&w, "writes", b->writes);
			json_kv_uint(&w, "registers", b->registers);
			json_kv_uint(&w, "units", b->units);
			json_end_object(&w);
		}
		json_end_array(&w);
		json_end_object(&w);
	} else {
		printf("%s: IPUCFG1, %" PRIu32 " records writing %" PRIu32 " registers in %zu "
		       "blocks\n", cli_input_name(pos[0]), count, registers, nblocks);
		printf("records %" PRIu32 "\n", count);
		printf("%-20s %-9s %-9s %8s %9s %6s\n", "block", "first", "last", "writes",
		       "registers", "units");
		for (size_t i = 0; i < nblocks; i++) {
			const struct ipuxcom_cfg_block *b = &blocks[i];

			printf("%-20s 0x%05" PRIx32 "   0x%05" PRIx32 "   %8" PRIu32 " %9" PRIu32
			       " %6" PRIu32 "\n", b->name, b->first, b->last, b->writes,
			       b->registers, b->units);
		}
		printf("(units: tiles for TDI, instances for XB.DCXCR, else registers; "
		       "'page' blocks are none of the documented registers: docs/hardware.md)\n");
	}
	free(blocks);
	return CLI_EXIT_OK;
}

static int cfg_dump_run(struct cli_call *call, int argc, char **argv)
{
	struct ipuxcom_cfg_record *recs;
	uint32_t count;
	char name[48];
	char *pos[1];
	int npos, rc;

	rc = cli_parse(call, argc, argv, NULL, 0, true, pos, 1, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos < 1)
		return cli_usage_err(call, "expected FILE");
	rc = load(call, pos[0], &recs, &count);
	if (rc)
		return rc;
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_array(&w);
		for (uint32_t i = 0; i < count; i++) {
			json_begin_object(&w);
			json_kv_hex32(&w, "offset", recs[i].offset);
			json_kv_hex32(&w, "value", recs[i].value);
			json_kv_string(&w, "register",
				       ipuxcom_cfg_reg_name(recs[i].offset, name, sizeof(name)));
			json_end_object(&w);
		}
		json_end_array(&w);
	} else {
		for (uint32_t i = 0; i < count; i++) {
			ipuxcom_cfg_reg_name(recs[i].offset, name, sizeof(name));
			printf("%5" PRIu32 " 0x%05" PRIx32 " = 0x%08" PRIx32 "%s%s\n", i,
			       recs[i].offset, recs[i].value, name[0] ? " " : "", name);
		}
	}
	free(recs);
	return CLI_EXIT_OK;
}

static const struct cli_cmd cfg_cmds[] = {
	{
		.name = "inspect",
		.args = "FILE [-j|--json]",
		.summary = "check an IPUCFG1 file and summarise the register blocks it writes",
		.description =
			"Check FILE (magic, exact size, 4-aligned offsets inside the 512 KiB\n"
			"config BAR) and print its record count and, per register block, the\n"
			"lowest and highest offset, writes, distinct registers and units (TDI:\n"
			"tiles; XB.DCXCR: instances). Blocks are named after the documented\n"
			"registers (docs/hardware.md, \"Safety rules\"); other offsets are grouped\n"
			"by 4 KiB page.",
		.run = cfg_inspect_run,
	},
	{
		.name = "dump",
		.args = "FILE [-j|--json]",
		.summary = "list every record, with register names",
		.description =
			"Print every record of FILE in order: index, config offset, value, and\n"
			"the register's name when it is a documented one (docs/hardware.md).",
		.run = cfg_dump_run,
	},
	CFG_CAPTURE_CMD,
};

const struct cli_object cli_obj_cfg = {
	.name = "cfg",
	.summary = "IPUCFG1 ordered config-BAR writes",
	.cmds = cfg_cmds,
	.ncmds = sizeof(cfg_cmds) / sizeof(cfg_cmds[0]),
};
