// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_demo: the part of libipuxcom that needs no card, as an example
 * (libipuxcom(3) EXAMPLES; `make check-host` runs it through
 * selftests/host/examples_test.c).
 *
 *   plan_demo [COUNT]
 *
 * Plans a point-to-point transfer of COUNT words (default 100) from
 * logical tile 0 to logical tile 4, decodes every instruction of both
 * rows, simulates the exchange phase with the event-level simulator and
 * reads the receiver's SRAM back: prints the rows, the run's numbers and
 * PASS, or what went wrong (exit 1).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <ipuxcom.h>

#define SRC_ADDR	0x80000u	/* buffers in tile SRAM (0x4c000..0xe7fff) */
#define DST_ADDR	0x90000u

static void show_row(const char *what, const struct ipuxcom_plan_row *row)
{
	char text[160];

	printf("%s row, physical tile %u:\n", what, row->tile);
	for (unsigned int i = 0; i < row->nwords; i++) {
		/* decode, then print the word with what it does in the row */
		struct ipuxcom_insn insn;

		ipuxcom_decode(row->words[i], &insn);
		ipuxcom_plan_row_disasm(row, i, text, sizeof(text));
		printf("  %08" PRIx32 "  %-9s  %s\n", row->words[i], ipuxcom_op_name(insn.op),
		       text);
	}
}

static int fail(const char *what, int err)
{
	/* The one explainer, and the failing call's own message. */
	fprintf(stderr, "plan_demo: %s: %s (%s)\n", what, ipuxcom_strerror(err),
		ipuxcom_errmsg(NULL));
	return 1;
}

int main(int argc, char **argv)
{
	uint32_t count = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 100;
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_p2p_plan plan = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_xsim *sim;
	uint32_t *data, *back;
	size_t nhazards;
	int err, bad = 0;

	/* 1. Plan: ids are logical, as in the ipuxcom command. */
	err = ipuxcom_plan_p2p(NULL, 0, 4, count, IPUXCOM_PLAN_LOGICAL, &plan, NULL);
	if (err)
		return fail("plan", err);
	printf("p2p plan: %" PRIu32 " words, TimeToMux %" PRId32 ", direction %u, model %s\n",
	       plan.count, plan.time_to_mux, plan.direction, plan.timing_model);
	show_row("sender", &plan.send);
	show_row("receiver", &plan.recv);

	/* 2. Simulate: the sender's buffer holds a pattern, the receiver's zeros. */
	data = calloc(count, sizeof(*data));
	back = calloc(count, sizeof(*back));
	if (!data || !back)
		return fail("memory", -12);
	for (uint32_t i = 0; i < count; i++)
		data[i] = 0xa5000000u | i;
	err = ipuxcom_xsim_create(NULL, &sim, NULL);
	if (err)
		return fail("simulator", err);
	if ((err = ipuxcom_xsim_sram_write(sim, plan.send.tile, SRC_ADDR, data, count, NULL)) ||
	    (err = ipuxcom_xsim_add_p2p(sim, &plan, SRC_ADDR, DST_ADDR, NULL)) ||
	    (err = ipuxcom_xsim_run(sim, &res, NULL))) {
		ipuxcom_xsim_free(sim);
		return fail("simulate", err);
	}
	ipuxcom_xsim_hazards(sim, &nhazards);
	printf("simulated: %" PRIu32 " events, %" PRIu64 " words sent, %" PRIu64
	       " written, %" PRIu32 "/%" PRIu32 " delivered, %zu hazards\n",
	       res.events, res.words_sent, res.words_written, res.delivered, res.declared,
	       nhazards);

	/* 3. Read the receiver's buffer back. */
	err = ipuxcom_xsim_sram_read(sim, plan.recv.tile, DST_ADDR, back, count, NULL);
	ipuxcom_xsim_free(sim);
	if (err)
		return fail("read back", err);
	for (uint32_t i = 0; i < count && !bad; i++)
		if (back[i] != data[i]) {
			printf("word %" PRIu32 ": 0x%08" PRIx32 ", expected 0x%08" PRIx32 "\n", i,
			       back[i], data[i]);
			bad = 1;
		}
	if (res.errors || res.delivered != res.declared)
		bad = 1;
	free(data);
	free(back);
	printf("%s\n", bad ? "FAIL" : "PASS");
	return bad;
}
