// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom demo sum|matmul: the notes' two exchange demos run in the
 * library's exchange simulator (ipuxcom_xsim.h), with the tile compute
 * modelled in C. Pure computation: no device is opened.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom_xsim.h>

#include "cli.h"
#include "json_fmt.h"
#include "json.h"
#include "input.h"
#include "outfile.h"
#include "trace_json.h"

struct demo_opts {
	const char *timing;
	const char *trace;
	bool packed;
};

#define OPT_DEMO_TIMING(o) { "timing", 't', "FILE", "measured timing table (default: the " \
			     "reconstruction)", NULL, &(o).timing }
#define OPT_DEMO_TRACE(o) { "trace", 0, "FILE", "write every exchange phase as a Chrome " \
			    "trace JSON timeline ('-': stdout; docs/pictures.md)", NULL, \
			    &(o).trace }

/* --trace: the writer the demo's watcher feeds, phase after phase. */
struct demo_trace {
	struct trace_writer *t;
	struct outfile *o;
	struct ipuxcom_demo_watch watch;
};

static void demo_trace_phase(void *ctx, const struct ipuxcom_xsim *sim,
			     const struct ipuxcom_xsim_result *res, const char *name)
{
	trace_phase(ctx, sim, res, name);
}

/* Open the trace before the demo runs; *@watch is NULL without --trace. */
static int demo_trace_open(const struct cli_call *call, const struct demo_opts *o,
			   struct demo_trace *dt, const struct ipuxcom_demo_watch **watch)
{
	memset(dt, 0, sizeof(*dt));
	*watch = NULL;
	if (!o->trace)
		return 0;
	/* --trace -: the trace on stdout, the demo's report on stderr. */
	if (outfile_claim_stdout(call, o->trace))
		return CLI_EXIT_ERR;
	dt->t = malloc(sizeof(*dt->t));
	if (!dt->t) {
		cli_err(call->what, "%s: out of memory", o->trace);
		return CLI_EXIT_ERR;
	}
	if (outfile_open(call, o->trace, &dt->o)) {
		free(dt->t);
		return CLI_EXIT_ERR;
	}
	trace_begin(dt->t, outfile_stream(dt->o));
	dt->watch = (struct ipuxcom_demo_watch){ .size = sizeof(dt->watch),
						 .phase = demo_trace_phase, .ctx = dt->t,
						 .sim_flags = IPUXCOM_XSIM_LOG_WRITES };
	*watch = &dt->watch;
	return 0;
}

/* Finish the trace (if any); @rc, or CLI_EXIT_ERR when the file could not be written. */
static int demo_trace_close(const struct cli_call *call, const struct demo_opts *o,
			    struct demo_trace *dt, int rc)
{
	if (!dt->o)
		return rc;
	trace_end(dt->t);
	free(dt->t);
	if (outfile_close(dt->o, true))
		return CLI_EXIT_ERR;
	return rc;
}

static int demo_lib_err(const struct cli_call *call, const struct ipuxcom_plan_error *e)
{
	cli_err(call->what, "%s", e->msg[0] ? e->msg : ipuxcom_strerror(IPUXCOM_ERRC(e->code)));
	return CLI_EXIT_ERR;
}

static int demo_timing(const struct cli_call *call, const struct demo_opts *o,
		       struct ipuxcom_timing **owned)
{
	*owned = NULL;
	return o->timing ? cli_input_timing(call, o->timing, owned) : 0;
}

/* ------------------------------------------------------------------ sum */

static int sum_run(struct cli_call *call, int argc, char **argv)
{
	struct demo_opts o = { 0 };
	const struct cli_opt opts[] = { OPT_DEMO_TIMING(o), OPT_DEMO_TRACE(o) };
	const struct ipuxcom_demo_watch *watch;
	struct ipuxcom_timing *tm;
	struct ipuxcom_demo_sum r = IPUXCOM_DEMO_SUM_INIT;
	struct ipuxcom_plan_error e;
	struct demo_trace dt;
	char *pos[1];
	int npos, rc;

	rc = cli_parse(call, argc, argv, opts, 2, true, pos, 0, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if ((rc = demo_timing(call, &o, &tm)))
		return rc;
	if ((rc = demo_trace_open(call, &o, &dt, &watch))) {
		ipuxcom_timing_free(tm);
		return rc;
	}
	rc = ipuxcom_demo_sum_watch(tm, watch, &r, &e);
	ipuxcom_timing_free(tm);
	if ((rc = demo_trace_close(call, &o, &dt, rc ? demo_lib_err(call, &e) : 0)))
		return rc;
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "demo", "sum");
		json_kv_string(&w, "timing_model", r.timing_model);
		json_kv_uint(&w, "tiles", r.tiles);
		json_kv_uint(&w, "rounds", r.rounds);
		json_key(&w, "transfers");
		json_begin_array(&w);
		for (uint32_t k = 0; k < r.rounds; k++)
			json_uint(&w, r.transfers[k]);
		json_end_array(&w);
		json_key(&w, "events");
		json_begin_array(&w);
		for (uint32_t k = 0; k < r.rounds; k++)
			json_uint(&w, r.events[k]);
		json_end_array(&w);
		json_kv_uint(&w, "sum", r.sum);
		json_kv_uint(&w, "expected", r.expected);
		json_kv_uint(&w, "errors", r.errors);
		json_kv_uint(&w, "notes", r.notes);
		json_key(&w, "pass");
		json_bool(&w, r.pass);
		json_end_object(&w);
	} else {
		printf("parallel sum in the exchange simulator (timing %s): logical tile t "
		       "holds t + 1\n", r.timing_model);
		for (uint32_t k = 0; k < r.rounds; k++)
			printf("round %2u: %3u transfer%s in one phase of %u event%s\n", k + 1,
			       r.transfers[k], cli_s(r.transfers[k]), r.events[k], cli_s(r.events[k]));
		printf("hazards: %u error%s, %u note%s\n", r.errors, cli_s(r.errors), r.notes,
		       cli_s(r.notes));
		printf("tiles=%u rounds=%u sum=%" PRIu64 " expected=%" PRIu64 " %s\n", r.tiles,
		       r.rounds, r.sum, r.expected, r.pass ? "PASS" : "FAIL");
	}
	return r.pass ? CLI_EXIT_OK : CLI_EXIT_ERR;
}

/* --------------------------------------------------------------- matmul */

static void matrix_text(const char *name, const int32_t m[4][4])
{
	printf("%s =\n", name);
	for (int i = 0; i < 4; i++)
		printf("  %4" PRId32 " %4" PRId32 " %4" PRId32 " %4" PRId32 "\n", m[i][0], m[i][1],
		       m[i][2], m[i][3]);
}

static void matrix_json(struct json_writer *w, const char *key, const int32_t m[4][4])
{
	json_key(w, key);
	json_begin_array(w);
	for (int i = 0; i < 4; i++) {
		json_begin_array(w);
		for (int j = 0; j < 4; j++)
			json_int(w, m[i][j]);
		json_end_array(w);
	}
	json_end_array(w);
}

static int matmul_run(struct cli_call *call, int argc, char **argv)
{
	struct demo_opts o = { 0 };
	const struct cli_opt opts[] = {
		OPT_DEMO_TIMING(o),
		{ "packed", 0, NULL, "show the scheduler's packed exchange (default: the notes' "
		  "256-event stagger); both are run and checked", &o.packed, NULL },
		OPT_DEMO_TRACE(o),
	};
	const struct ipuxcom_demo_watch *watch;
	struct ipuxcom_timing *tm;
	struct ipuxcom_demo_matmul r = IPUXCOM_DEMO_MATMUL_INIT;
	struct ipuxcom_plan_error e;
	struct demo_trace dt;
	char *pos[1];
	int npos, rc;

	rc = cli_parse(call, argc, argv, opts, 3, true, pos, 0, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if ((rc = demo_timing(call, &o, &tm)))
		return rc;
	if ((rc = demo_trace_open(call, &o, &dt, &watch))) {
		ipuxcom_timing_free(tm);
		return rc;
	}
	rc = ipuxcom_demo_matmul_watch(tm, o.packed ? IPUXCOM_DEMO_PACKED : 0, watch, &r, &e);
	ipuxcom_timing_free(tm);
	if ((rc = demo_trace_close(call, &o, &dt, rc ? demo_lib_err(call, &e) : 0)))
		return rc;
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "demo", "matmul");
		json_kv_string(&w, "timing_model", r.timing_model);
		json_kv_string(&w, "exchange", o.packed ? "packed" : "stagger");
		matrix_json(&w, "a", r.a);
		matrix_json(&w, "b", r.b);
		matrix_json(&w, "c", r.c);
		json_kv_uint(&w, "active_tiles", r.active_tiles);
		json_kv_uint(&w, "streams", r.streams);
		json_kv_uint(&w, "words_per_stream", r.words_per_stream);
		json_kv_uint(&w, "stagger_events", r.stagger_events);
		json_kv_uint(&w, "packed_events", r.packed_events);
		json_kv_uint(&w, "errors", r.errors);
		json_kv_uint(&w, "notes", r.notes);
		json_key(&w, "matches_notes");
		json_bool(&w, r.matches_notes);
		json_key(&w, "pass");
		json_bool(&w, r.pass);
		json_end_object(&w);
	} else {
		printf("4x4 matrix multiply in the exchange simulator (timing %s)\n",
		       r.timing_model);
		matrix_text("A", r.a);
		matrix_text("B", r.b);
		matrix_text("C", r.c);
		printf("%u active tiles, %u non-participating; %u multicast streams of %u words "
		       "in one phase\n", r.active_tiles, IPUXCOM_TILES - r.active_tiles, r.streams,
		       r.words_per_stream);
		printf("exchange shown: %s; phase: 256-event stagger %u events, packed %u events "
		       "(%.1f%%)\n", o.packed ? "packed by the scheduler" : "the notes' stagger",
		       r.stagger_events, r.packed_events,
		       r.stagger_events ? 100.0 * r.packed_events / r.stagger_events : 0.0);
		printf("hazards: %u error%s, %u note%s; C %s the notes' hardware output\n", r.errors,
		       cli_s(r.errors), r.notes, cli_s(r.notes), r.matches_notes ? "equals" : "differs from");
		printf("%s\n", r.pass ? "PASS" : "FAIL");
	}
	return r.pass ? CLI_EXIT_OK : CLI_EXIT_ERR;
}

static const struct cli_cmd demo_cmds[] = {
	{
		.name = "sum",
		.args = "[OPTIONS]",
		.summary = "all-tile parallel sum: 11 rounds of p2p exchange, 1084128",
		.description =
			"Run the notes' all-tile parallel sum in the exchange simulator: logical tile\n"
			"t holds t + 1; 11 rounds of binary reduction, each one exchange phase of\n"
			"one-word p2p plans (736 transfers in round 1), every other tile running\n"
			"the non-participation row; the adds are modelled in C. Exit 1 unless PASS.",
		.run = sum_run,
	},
	{
		.name = "matmul",
		.args = "[OPTIONS]",
		.summary = "4x4 signed matrix multiply on 24 tiles with 8 multicast streams",
		.description =
			"Run the notes' 4x4 signed integer matrix multiply in the exchange\n"
			"simulator: tiles 0..3 own A's rows, 4..7 B's columns, tile 8 + 4i + j\n"
			"computes C[i][j]; 8 multicast streams of 4 words in one phase, once with\n"
			"the notes' 256-event stagger and once packed by the scheduler (both\n"
			"checked). Prints A, B, C and PASS; exit 1 unless PASS.",
		.run = matmul_run,
	},
};

const struct cli_object cli_obj_demo = {
	.name = "demo",
	.summary = "the notes' exchange demos (parallel sum, matmul) in the simulator",
	.cmds = demo_cmds,
	.ncmds = sizeof(demo_cmds) / sizeof(demo_cmds[0]),
	.default_cmd = NULL,
};
