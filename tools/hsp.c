// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom hsp ...: host-sync manifests (.ipuhsp, docs/ipuhsp-format.md).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom.h>

#include "image_cli.h"
#include "json.h"
#include "outfile.h"
#include "input.h"

static int load(const struct cli_call *call, const char *path, struct ipuxcom_hsp_manifest *m)
{
	struct ipuxcom_errmsg em;

	if (cli_input_hsp(path, m, &em)) {
		cli_err(call->what, "%s", em.msg);
		return CLI_EXIT_ERR;
	}
	return 0;
}

static const char *dir_name(uint32_t dir)
{
	return dir == IPUXCOM_HSP_INPUT ? "input" : "output";
}

static void show_json(const struct cli_call *call, const char *path,
		      const struct ipuxcom_hsp_manifest *m)
{
	struct json_writer w;

	json_init_call(&w, stdout, call);
	json_begin_object(&w);
	json_kv_string(&w, "file", path);
	json_kv_uint(&w, "version", IPUXCOM_HSP_VERSION);
	json_key(&w, "pages");
	json_begin_array(&w);
	for (uint32_t i = 0; i < m->npages; i++)
		json_uint(&w, m->page_size[i]);
	json_end_array(&w);
	json_key(&w, "attach_order");
	json_begin_array(&w);
	for (uint32_t i = 0; i < m->npages; i++)
		json_uint(&w, m->attach_order[i]);
	json_end_array(&w);
	json_key(&w, "command");
	json_begin_object(&w);
	json_kv_uint(&w, "page", m->command_page);
	json_kv_uint(&w, "offset", m->command_offset);
	json_end_object(&w);
	json_key(&w, "calls");
	json_begin_array(&w);
	for (uint32_t i = 0; i < m->ncalls; i++) {
		json_begin_object(&w);
		json_kv_string(&w, "name", m->calls[i].name);
		json_kv_uint(&w, "id", m->calls[i].id);
		json_kv_uint(&w, "phases", m->calls[i].phases);
		json_key(&w, "slices");
		json_begin_array(&w);
		for (uint32_t j = 0; j < m->nslices; j++) {
			const struct ipuxcom_hsp_slice *s = &m->slices[j];

			if (s->call != i)
				continue;
			json_begin_object(&w);
			json_kv_string(&w, "dir", dir_name(s->dir));
			json_kv_uint(&w, "page", s->page);
			json_kv_uint(&w, "offset", s->offset);
			json_kv_uint(&w, "size", s->size);
			json_end_object(&w);
		}
		json_end_array(&w);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
}

static int hsp_show_run(struct cli_call *call, int argc, char **argv)
{
	struct ipuxcom_hsp_manifest m;
	struct ipuxcom_errmsg em;
	char *text;
	size_t len;
	char *pos[1];
	int npos, rc;

	rc = cli_parse(call, argc, argv, NULL, 0, true, pos, 1, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos < 1)
		return cli_usage_err(call, "expected FILE");
	rc = load(call, pos[0], &m);
	if (rc)
		return rc;
	if (call->json) {
		show_json(call, pos[0], &m);
		return CLI_EXIT_OK;
	}
	if (ipuxcom_hsp_format(&m, &text, &len, &em)) {
		cli_err(call->what, "%s: %s", cli_input_name(pos[0]), em.msg);
		return CLI_EXIT_ERR;
	}
	fwrite(text, 1, len, stdout);
	free(text);
	return CLI_EXIT_OK;
}

static int hsp_check_run(struct cli_call *call, int argc, char **argv)
{
	struct ipuxcom_hsp_manifest m;
	char *pos[1];
	int npos, rc;

	rc = cli_parse(call, argc, argv, NULL, 0, true, pos, 1, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos < 1)
		return cli_usage_err(call, "expected FILE");
	rc = load(call, pos[0], &m);
	if (rc)
		return rc;
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "file", pos[0]);
		json_key(&w, "ok");
		json_bool(&w, true);
		json_kv_uint(&w, "pages", m.npages);
		json_key(&w, "calls");
		json_begin_array(&w);
		for (uint32_t i = 0; i < m.ncalls; i++) {
			json_begin_object(&w);
			json_kv_string(&w, "name", m.calls[i].name);
			json_kv_uint(&w, "phases", m.calls[i].phases);
			json_end_object(&w);
		}
		json_end_array(&w);
		json_kv_uint(&w, "slices", m.nslices);
		json_end_object(&w);
		return CLI_EXIT_OK;
	}
	printf("%s: ok: %" PRIu32 " pages, %" PRIu32 " calls (", cli_input_name(pos[0]), m.npages,
	       m.ncalls);
	for (uint32_t i = 0; i < m.ncalls; i++)
		printf("%s%s %" PRIu32 " phases", i ? ", " : "", m.calls[i].name,
		       m.calls[i].phases);
	printf("), %" PRIu32 " slices\n", m.nslices);
	return CLI_EXIT_OK;
}

static int hsp_format_run(struct cli_call *call, int argc, char **argv)
{
	const char *out = NULL;
	const struct cli_opt opts[] = {
		{ "output", 'o', "FILE", "where to write ('-': stdout, the default)", NULL, &out },
	};
	struct ipuxcom_hsp_manifest m;
	struct ipuxcom_errmsg em;
	char *text;
	size_t len;
	char *pos[1];
	int npos, rc;

	rc = cli_parse(call, argc, argv, opts, 1, true, pos, 1, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos < 1)
		return cli_usage_err(call, "expected FILE");
	if (!out)
		out = "-";
	/* To stdout (the default), the canonical text is the output and the report goes to stderr. */
	rc = outfile_claim_stdout(call, out);
	if (!rc)
		rc = load(call, pos[0], &m);
	if (rc)
		return rc;
	if (ipuxcom_hsp_format(&m, &text, &len, &em)) {
		cli_err(call->what, "%s: %s", cli_input_name(pos[0]), em.msg);
		return CLI_EXIT_ERR;
	}
	rc = outfile_write_all(call, out, text, len);
	free(text);
	if (!rc && call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "file", pos[0]);
		json_kv_string(&w, "output", out);
		json_kv_uint(&w, "calls", m.ncalls);
		json_kv_uint(&w, "bytes", len);
		json_end_object(&w);
	}
	return rc;
}

static const struct cli_cmd hsp_cmds[] = {
	{
		.name = "check",
		.args = "FILE [-j|--json]",
		.summary = "validate a host-sync manifest",
		.description =
			"Read FILE strictly (docs/ipuhsp-format.md) and check every rule: pages,\n"
			"attach order, command word, calls and their input/output slices. Prints\n"
			"a one-line summary; exit status 1 with the offending line otherwise.\n"
			"With --json: {\"file\",\"ok\":true,\"pages\",\"calls\":[{\"name\",\"phases\"}],\n"
			"\"slices\"}.",
		.run = hsp_check_run,
	},
	{
		.name = "show",
		.args = "FILE [-j|--json]",
		.summary = "validate and print a manifest (canonical text or JSON)",
		.description =
			"Validate FILE and print it in canonical form, or with --json as an\n"
			"object with pages, attach_order, command and calls (each with its\n"
			"phases and slices).",
		.run = hsp_show_run,
	},
	{
		.name = "format",
		.args = "FILE [-o OUT] [-j|--json]",
		.summary = "rewrite a manifest in canonical form",
		.description =
			"Validate FILE and write its canonical text to OUT (default stdout).\n"
			"With --json and -o OUT: {\"file\",\"output\",\"calls\",\"bytes\"} (nothing\n"
			"without -o or with -o -, where standard output is the manifest).",
		.run = hsp_format_run,
	},
};

const struct cli_object cli_obj_hsp = {
	.name = "hsp",
	.summary = "host-sync manifests (.ipuhsp)",
	.cmds = hsp_cmds,
	.ncmds = sizeof(hsp_cmds) / sizeof(hsp_cmds[0]),
	.default_cmd = "show",
};
