// SPDX-License-Identifier: GPL-2.0
/*
 * Exchange phases as Chrome trace JSON; see trace_json.h and
 * docs/pictures.md.
 *
 * Layout: process 0 holds one slice per phase; physical tile t is process
 * t + 1 with up to three threads (send, mux, receive). Threads rather than
 * one track per tile because a tile's sends, mux windows and incoming
 * writes overlap in time without nesting, and trace viewers drop or
 * misdraw slices that overlap on one thread. Thread ids are unique over
 * the whole trace (Perfetto keys threads by tid alone).
 */
#include <inttypes.h>
#include <string.h>

#include "trace_json.h"

enum trace_thread { TRACE_SEND = 1, TRACE_MUX = 2, TRACE_RECV = 3 };

static const char *const trace_thread_name[] = { NULL, "send", "mux", "receive" };

static uint32_t trace_pid(uint32_t tile)
{
	return tile + 1;
}

static uint32_t trace_tid(uint32_t tile, enum trace_thread th)
{
	return trace_pid(tile) * 4 + th;
}

/* Tile-local @event as a timestamp of the current phase (events before sync do not occur). */
static uint64_t trace_ts(const struct trace_writer *t, int32_t event)
{
	return t->offset + (event > 0 ? (uint64_t)event : 0);
}

static void trace_hex(struct json_writer *w, const char *key, uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%" PRIx32, v);
	json_kv_string(w, key, buf);
}

static void trace_meta(struct trace_writer *t, const char *what, uint32_t pid, uint32_t tid,
		       const char *key, const char *name, uint64_t sort)
{
	struct json_writer *w = &t->w;

	json_begin_object(w);
	json_kv_string(w, "name", what);
	json_kv_string(w, "ph", "M");
	json_kv_uint(w, "pid", pid);
	json_kv_uint(w, "tid", tid);
	json_key(w, "args");
	json_begin_object(w);
	if (name)
		json_kv_string(w, key, name);
	else
		json_kv_uint(w, key, sort);
	json_end_object(w);
	json_end_object(w);
}

/* Name @tile's process and its thread @th the first time either is used. */
static void trace_track(struct trace_writer *t, uint32_t tile, enum trace_thread th)
{
	char name[64];
	uint32_t lg = 0;

	if (!(t->named[tile] & 1)) {
		ipuxcom_tile_logical(tile, &lg);
		snprintf(name, sizeof(name), "tile %u (logical %u, row %u)", tile, lg,
			 tile / IPUXCOM_PHYS_COLS);
		trace_meta(t, "process_name", trace_pid(tile), 0, "name", name, 0);
		trace_meta(t, "process_sort_index", trace_pid(tile), 0, "sort_index", NULL,
			   trace_pid(tile));
		t->named[tile] |= 1;
	}
	if (th && !(t->named[tile] & (1u << th))) {
		trace_meta(t, "thread_name", trace_pid(tile), trace_tid(tile, th), "name",
			   trace_thread_name[th], 0);
		trace_meta(t, "thread_sort_index", trace_pid(tile), trace_tid(tile, th),
			   "sort_index", NULL, th);
		t->named[tile] |= 1u << th;
	}
}

/* The common head of an event; the caller adds its fields and args, then closes it. */
static void trace_event(struct trace_writer *t, const char *name, const char *ph, uint32_t tile,
			enum trace_thread th, int32_t event)
{
	struct json_writer *w = &t->w;

	trace_track(t, tile, th);
	json_begin_object(w);
	json_kv_string(w, "name", name);
	json_kv_string(w, "cat", "exchange");
	json_kv_string(w, "ph", ph);
	json_kv_uint(w, "pid", trace_pid(tile));
	json_kv_uint(w, "tid", th ? trace_tid(tile, th) : 0);
	json_kv_uint(w, "ts", trace_ts(t, event));
}

/* The program word an action came from, then the end of its args and of the event. */
static void trace_origin_end(struct json_writer *w, const struct ipuxcom_xsim_action *a)
{
	json_kv_uint(w, "program", (uint32_t)a->program);
	json_kv_uint(w, "word", (uint32_t)a->word);
	json_end_object(w);
	json_end_object(w);
}

void trace_begin(struct trace_writer *t, FILE *out)
{
	memset(t, 0, sizeof(*t));
	json_init(&t->w, out);
	json_begin_object(&t->w);
	json_kv_string(&t->w, "displayTimeUnit", "ns");
	json_key(&t->w, "otherData");
	json_begin_object(&t->w);
	json_kv_string(&t->w, "generator", "ipuxcom exchange verifier (modelled, not measured)");
	json_kv_string(&t->w, "time_unit", "1 us = 1 exchange event");
	json_end_object(&t->w);
	json_key(&t->w, "traceEvents");
	json_begin_array(&t->w);
	trace_meta(t, "process_name", 0, 0, "name", "exchange phases", 0);
	trace_meta(t, "process_sort_index", 0, 0, "sort_index", NULL, 0);
}

static void trace_send(struct trace_writer *t, const struct ipuxcom_xsim_action *a)
{
	struct json_writer *w = &t->w;
	char name[48];

	snprintf(name, sizeof(name), "send %u word%s", a->words, a->words == 1 ? "" : "s");
	trace_event(t, name, "X", a->tile, TRACE_SEND, a->event);
	json_kv_uint(w, "dur", a->words);
	json_key(w, "args");
	json_begin_object(w);
	json_kv_uint(w, "words", a->words);
	trace_hex(w, "src_addr", a->value);
	json_kv_uint(w, "direction", a->dir);
	json_kv_uint(w, "stream", a->stream);
	trace_origin_end(w, a);
}

/* The window in which @a's mux selects its source, up to event @end (exclusive). */
static void trace_mux(struct trace_writer *t, const struct ipuxcom_xsim_action *a, int32_t end)
{
	struct json_writer *w = &t->w;
	char name[48];

	snprintf(name, sizeof(name), "mux <- tile %u", a->value);
	trace_event(t, name, "X", a->tile, TRACE_MUX, a->event);
	json_kv_uint(w, "dur", end > a->event ? (uint32_t)(end - a->event) : 1);
	json_key(w, "args");
	json_begin_object(w);
	json_kv_uint(w, "source", a->value);
	trace_origin_end(w, a);
}

static void trace_pic(struct trace_writer *t, const struct ipuxcom_xsim_action *a)
{
	struct json_writer *w = &t->w;
	char name[48];

	snprintf(name, sizeof(name), "pic 0x%" PRIx32, a->value);
	trace_event(t, name, "i", a->tile, TRACE_RECV, a->event);
	json_kv_string(w, "s", "t");
	json_key(w, "args");
	json_begin_object(w);
	trace_hex(w, "addr", a->value);
	trace_origin_end(w, a);
}

/*
 * Sends as slices, mux windows as slices from each selection to the next
 * mux action (or the tile's br $m10), PIC settings as instants.
 */
static void trace_actions(struct trace_writer *t, const struct ipuxcom_xsim *sim)
{
	struct ipuxcom_xsim_action a = IPUXCOM_XSIM_ACTION_INIT, open = IPUXCOM_XSIM_ACTION_INIT;
	bool is_open = false;
	size_t n = ipuxcom_xsim_nactions(sim);

	for (size_t i = 0; i < n; i++) {
		ipuxcom_xsim_action(sim, i, &a);
		if (is_open && (a.kind != IPUXCOM_XSIM_A_MUX || a.tile != open.tile)) {
			trace_mux(t, &open, ipuxcom_xsim_tile_end(sim, open.tile) + 1);
			is_open = false;
		}
		if (a.kind == IPUXCOM_XSIM_A_SEND) {
			trace_send(t, &a);
		} else if (a.kind == IPUXCOM_XSIM_A_PIC) {
			trace_pic(t, &a);
		} else {
			if (is_open)
				trace_mux(t, &open, a.event);
			open = a;
			is_open = a.value != IPUXCOM_XSIM_MUX_OFF;
		}
	}
	if (is_open)
		trace_mux(t, &open, ipuxcom_xsim_tile_end(sim, open.tile) + 1);
}

/* Contiguous writes from one source (consecutive events and addresses) as one slice. */
static void trace_receives(struct trace_writer *t, const struct ipuxcom_xsim *sim)
{
	struct json_writer *w = &t->w;
	const struct ipuxcom_xsim_write *wr;
	size_t n;

	wr = ipuxcom_xsim_writes(sim, &n);
	for (size_t i = 0, j; i < n; i = j) {
		char name[64];

		for (j = i + 1; j < n && wr[j].tile == wr[i].tile &&
				wr[j].src_tile == wr[i].src_tile &&
				wr[j].event == wr[j - 1].event + 1 &&
				wr[j].addr == wr[j - 1].addr + 4; j++)
			;
		snprintf(name, sizeof(name), "receive %zu word%s from tile %u", j - i,
			 j - i == 1 ? "" : "s", wr[i].src_tile);
		trace_event(t, name, "X", wr[i].tile, TRACE_RECV, wr[i].event);
		json_kv_uint(w, "dur", j - i);
		json_key(w, "args");
		json_begin_object(w);
		json_kv_uint(w, "words", j - i);
		json_kv_uint(w, "source", wr[i].src_tile);
		trace_hex(w, "addr", wr[i].addr);
		trace_hex(w, "src_addr", wr[i].src_addr);
		json_kv_uint(w, "send_event", wr[i].send_event > 0 ? (uint32_t)wr[i].send_event : 0);
		json_end_object(w);
		json_end_object(w);
	}
}

/* Hazards as instants over the tile's whole process: errors red, notes yellow. */
static void trace_hazards(struct trace_writer *t, const struct ipuxcom_xsim *sim)
{
	struct json_writer *w = &t->w;
	const struct ipuxcom_xsim_hazard *h;
	char msg[400];
	size_t n;

	h = ipuxcom_xsim_hazards(sim, &n);
	for (size_t i = 0; i < n; i++) {
		bool error = h[i].severity != IPUXCOM_XSIM_NOTE;

		if (h[i].tile >= IPUXCOM_TILES)
			continue;
		trace_event(t, ipuxcom_xsim_kind_name(h[i].kind), "i", h[i].tile, 0, h[i].event);
		json_kv_string(w, "s", "p");
		json_kv_string(w, "cname", error ? "terrible" : "yellow");
		json_key(w, "args");
		json_begin_object(w);
		json_kv_string(w, "severity", error ? "error" : "note");
		ipuxcom_xsim_hazard_format(&h[i], msg, sizeof(msg));
		json_kv_string(w, "hazard", msg);
		if (h[i].other < IPUXCOM_TILES)
			json_kv_uint(w, "other_tile", h[i].other);
		json_kv_uint(w, "occurrences", h[i].occurrences);
		json_end_object(w);
		json_end_object(w);
	}
}

void trace_phase(struct trace_writer *t, const struct ipuxcom_xsim *sim,
		 const struct ipuxcom_xsim_result *res, const char *name)
{
	struct json_writer *w = &t->w;

	json_begin_object(w);
	json_kv_string(w, "name", name);
	json_kv_string(w, "cat", "phase");
	json_kv_string(w, "ph", "X");
	json_kv_uint(w, "pid", 0);
	json_kv_uint(w, "tid", 0);
	json_kv_uint(w, "ts", t->offset);
	json_kv_uint(w, "dur", res->events ? res->events : 1);
	if (res->errors)
		json_kv_string(w, "cname", "terrible");
	json_key(w, "args");
	json_begin_object(w);
	json_kv_uint(w, "events", res->events);
	json_kv_uint(w, "errors", res->errors);
	json_kv_uint(w, "notes", res->notes);
	json_kv_uint(w, "streams", res->streams);
	json_kv_uint(w, "words_sent", res->words_sent);
	json_kv_string(w, "timing_model", res->timing_model);
	json_end_object(w);
	json_end_object(w);
	trace_actions(t, sim);
	trace_receives(t, sim);
	trace_hazards(t, sim);
	t->offset += res->events ? res->events : 1;
	t->phases++;
}

void trace_end(struct trace_writer *t)
{
	json_end_array(&t->w);
	json_end_object(&t->w);
}
