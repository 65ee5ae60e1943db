// SPDX-License-Identifier: GPL-2.0-only
/*
 * Exchange phases as Chrome trace JSON; see trace_json.h and
 * docs/pictures.md.
 *
 * Layout: process 0 holds one slice per phase; physical tile t is process
 * t + 1 with its threads (send, mux, receive). Threads rather than one
 * track per tile because a tile's sends, mux windows and incoming writes
 * overlap in time without nesting, and trace viewers drop or misdraw
 * complete events that overlap on one thread: the format wants those of
 * one thread nested or disjoint. So each thread's slices are disjoint: a
 * run of receives (a 64-bit item's two words included) is one slice, a
 * send overlapping an earlier one of its tile (a send conflict) goes to
 * the next "send" thread, a mux setting replaced at its own event is an
 * instant. Thread ids are unique over the whole trace (Perfetto keys
 * threads by tid alone).
 */
#include <inttypes.h>
#include <string.h>

#include <ipuxcom_plan.h>

#include "trace_json.h"

enum trace_thread { TRACE_SEND = 1, TRACE_MUX = 2, TRACE_RECV = 3 };

/* Send threads per tile: the most sends of one tile that overlap, shown apart. */
#define TRACE_SEND_LANES	8

/* A thread's number inside its tile's process: send lanes, then mux, then receive (1..10). */
static uint32_t trace_slot(enum trace_thread th, uint32_t lane)
{
	if (th == TRACE_SEND)
		return 1 + (lane < TRACE_SEND_LANES ? lane : TRACE_SEND_LANES - 1);
	return th == TRACE_MUX ? 1 + TRACE_SEND_LANES : 2 + TRACE_SEND_LANES;
}

static uint32_t trace_pid(uint32_t tile)
{
	return tile + 1;
}

static uint32_t trace_tid(uint32_t tile, uint32_t slot)
{
	return trace_pid(tile) * 16 + slot;
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

/* Name @tile's process and its thread @slot (0: none) the first time either is used. */
static void trace_track(struct trace_writer *t, uint32_t tile, uint32_t slot)
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
	if (slot && !(t->named[tile] & (1ull << slot))) {
		if (slot == trace_slot(TRACE_MUX, 0))
			snprintf(name, sizeof(name), "mux");
		else if (slot == trace_slot(TRACE_RECV, 0))
			snprintf(name, sizeof(name), "receive");
		else if (slot == trace_slot(TRACE_SEND, 0))
			snprintf(name, sizeof(name), "send");
		else
			snprintf(name, sizeof(name), "send %u (overlapping)", slot);
		trace_meta(t, "thread_name", trace_pid(tile), trace_tid(tile, slot), "name", name,
			   0);
		trace_meta(t, "thread_sort_index", trace_pid(tile), trace_tid(tile, slot),
			   "sort_index", NULL, slot);
		t->named[tile] |= 1ull << slot;
	}
}

/* The common head of an event on thread @slot (0: the whole process); the caller adds the rest. */
static void trace_event(struct trace_writer *t, const char *name, const char *ph, uint32_t tile,
			uint32_t slot, int32_t event)
{
	struct json_writer *w = &t->w;

	trace_track(t, tile, slot);
	json_begin_object(w);
	json_kv_string(w, "name", name);
	json_kv_string(w, "cat", "exchange");
	json_kv_string(w, "ph", ph);
	json_kv_uint(w, "pid", trace_pid(tile));
	json_kv_uint(w, "tid", slot ? trace_tid(tile, slot) : 0);
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
	/* ts and dur are microseconds whatever this says (it only picks the display unit,
	 * "ms" or "ns"); "ms", the format's default: "ns" would show event 32 as 32,000 ns. */
	json_kv_string(&t->w, "displayTimeUnit", "ms");
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

/* A send on send thread @lane: @a->words events, two words each for 64-bit items. */
static void trace_send(struct trace_writer *t, const struct ipuxcom_xsim_action *a, uint32_t lane)
{
	struct json_writer *w = &t->w;
	bool wide = a->dir & IPUXCOM_SCTL_WIDE;
	uint32_t words = wide ? 2 * a->words : a->words;
	char name[48];

	snprintf(name, sizeof(name), "send %u word%s%s", words, words == 1 ? "" : "s",
		 wide ? " (64-bit)" : "");
	trace_event(t, name, "X", a->tile, trace_slot(TRACE_SEND, lane), a->event);
	json_kv_uint(w, "dur", a->words ? a->words : 1);
	json_key(w, "args");
	json_begin_object(w);
	json_kv_uint(w, "words", words);
	json_kv_uint(w, "events", a->words);
	json_key(w, "wide");
	json_bool(w, wide);
	trace_hex(w, "src_addr", a->value);
	json_kv_uint(w, "direction", a->dir & ~IPUXCOM_SCTL_WIDE);
	json_kv_uint(w, "stream", a->stream);
	trace_origin_end(w, a);
}

/*
 * The window in which @a's mux selects its source, up to event @end
 * (exclusive); an instant when the next setting replaces it at its own event.
 */
static void trace_mux(struct trace_writer *t, const struct ipuxcom_xsim_action *a, int32_t end)
{
	struct json_writer *w = &t->w;
	char name[48];

	snprintf(name, sizeof(name), "mux <- tile %u", a->value);
	trace_event(t, name, end > a->event ? "X" : "i", a->tile, trace_slot(TRACE_MUX, 0),
		    a->event);
	if (end > a->event)
		json_kv_uint(w, "dur", (uint32_t)(end - a->event));
	else
		json_kv_string(w, "s", "t");
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
	trace_event(t, name, "i", a->tile, trace_slot(TRACE_RECV, 0), a->event);
	json_kv_string(w, "s", "t");
	json_key(w, "args");
	json_begin_object(w);
	trace_hex(w, "addr", a->value);
	trace_origin_end(w, a);
}

/*
 * Sends as slices (an overlapping one on the next free send thread), mux
 * windows as slices from each selection to the next mux action (or the
 * tile's br $m10), PIC settings as instants. Each kind comes in (tile,
 * event) order.
 */
static void trace_actions(struct trace_writer *t, const struct ipuxcom_xsim *sim)
{
	struct ipuxcom_xsim_action a = IPUXCOM_XSIM_ACTION_INIT, open = IPUXCOM_XSIM_ACTION_INIT;
	int64_t lane_end[TRACE_SEND_LANES];
	uint32_t lane_tile = UINT32_MAX;
	bool is_open = false;
	size_t n = ipuxcom_xsim_nactions(sim);

	for (size_t i = 0; i < n; i++) {
		ipuxcom_xsim_action(sim, i, &a);
		if (is_open && (a.kind != IPUXCOM_XSIM_A_MUX || a.tile != open.tile)) {
			trace_mux(t, &open, ipuxcom_xsim_tile_end(sim, open.tile) + 1);
			is_open = false;
		}
		if (a.kind == IPUXCOM_XSIM_A_SEND) {
			uint32_t lane = 0;

			if (a.tile != lane_tile) {
				lane_tile = a.tile;
				for (uint32_t k = 0; k < TRACE_SEND_LANES; k++)
					lane_end[k] = INT64_MIN;
			}
			while (lane < TRACE_SEND_LANES - 1 && lane_end[lane] > a.event)
				lane++;
			lane_end[lane] = (int64_t)a.event + (a.words ? a.words : 1);
			trace_send(t, &a, lane);
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

/*
 * Word @c continues the run of receives that word @p ended (@src its
 * source): the same event (the second word of a 64-bit item, or anything
 * else landing then: one slice, so the thread's slices stay disjoint), or
 * the next event with the next address from the same source.
 */
static bool trace_run_goes_on(const struct ipuxcom_xsim_write *p,
			      const struct ipuxcom_xsim_write *c, uint32_t src)
{
	if (c->tile != p->tile)
		return false;
	if (c->event == p->event)
		return true;
	return c->event == p->event + 1 && c->src_tile == src && p->src_tile == src &&
	       c->addr == p->addr + 4;
}

/* Each run of receives on a tile as one slice (see trace_run_goes_on()). */
static void trace_receives(struct trace_writer *t, const struct ipuxcom_xsim *sim)
{
	struct json_writer *w = &t->w;
	const struct ipuxcom_xsim_write *wr;
	size_t n;

	wr = ipuxcom_xsim_writes(sim, &n);
	for (size_t i = 0, j; i < n; i = j) {
		uint32_t items64 = 0, events;
		bool one_source = true;
		char name[80];

		for (j = i + 1; j < n && trace_run_goes_on(&wr[j - 1], &wr[j], wr[i].src_tile);
		     j++) {
			items64 += wr[j].event == wr[j - 1].event;
			one_source = one_source && wr[j].src_tile == wr[i].src_tile;
		}
		events = (uint32_t)(wr[j - 1].event - wr[i].event) + 1;
		if (one_source)
			snprintf(name, sizeof(name), "receive %zu word%s from tile %u", j - i,
				 j - i == 1 ? "" : "s", wr[i].src_tile);
		else
			snprintf(name, sizeof(name), "receive %zu words from several tiles", j - i);
		trace_event(t, name, "X", wr[i].tile, trace_slot(TRACE_RECV, 0), wr[i].event);
		json_kv_uint(w, "dur", events);
		json_key(w, "args");
		json_begin_object(w);
		json_kv_uint(w, "words", j - i);
		json_kv_uint(w, "events", events);
		json_kv_uint(w, "items64", items64);
		if (one_source)
			json_kv_uint(w, "source", wr[i].src_tile);
		else
			json_kv_uint(w, "first_source", wr[i].src_tile);
		trace_hex(w, "addr", wr[i].addr);
		trace_hex(w, "last_addr", wr[j - 1].addr);
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
