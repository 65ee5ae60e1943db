/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Exchange phases as a Chrome trace / Perfetto JSON timeline
 * ({"traceEvents":[...]}, the Trace Event Format), for `plan schedule
 * --trace` and the demos' --trace. docs/pictures.md describes the layout:
 * one process per physical tile involved, with "send", "mux" and
 * "receive" threads; hazards as instants on the tile, errors in red.
 * Timestamps are exchange events as microseconds (the format's unit: 1 us
 * = 1 event); the phases of one trace follow each other. Complete events
 * on one thread never overlap (the format's rule: they nest or are
 * disjoint): a run of receives is one slice, a 64-bit item inside one,
 * and overlapping sends (a send conflict) go to a second "send" thread.
 */
#ifndef IPUXCOM_TOOLS_TRACE_JSON_H
#define IPUXCOM_TOOLS_TRACE_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "ipuxcom_xsim.h"
#include "json.h"

struct trace_writer {
	struct json_writer w;
	uint64_t offset;		/* timestamp where the next phase starts */
	uint32_t phases;
	/* Per tile: bit 0 its process is named, bit trace_slot() its threads. */
	uint64_t named[IPUXCOM_TILES];
};

void trace_begin(struct trace_writer *t, FILE *out);
/*
 * The last run of @sim (its result @res) as one phase called @name.
 * Receives are shown only when @sim logs its writes
 * (IPUXCOM_XSIM_LOG_WRITES).
 */
void trace_phase(struct trace_writer *t, const struct ipuxcom_xsim *sim,
		 const struct ipuxcom_xsim_result *res, const char *name);
/* Close the document (the caller checks the stream for errors). */
void trace_end(struct trace_writer *t);

#endif /* IPUXCOM_TOOLS_TRACE_JSON_H */
