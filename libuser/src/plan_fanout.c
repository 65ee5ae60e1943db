// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * One source, many receivers without multicast: serialized fan-out and the
 * relay tree, kept as fallbacks [S "Serialized Fan-Out", "Relay-Tree
 * Fan-Out"], and the dispatcher that picks a method by an explicit cost
 * model [S "Proper Multicast": dispatchFanOut].
 *
 * Serialized fan-out (modelled schedule; the notes give its shape, not its
 * arithmetic): one sender row "sync 3; [delay]; send_0 [sendoff_0]; send_1
 * ...; br $m10" whose sends run back to back (but for the gaps below), so
 * send i starts at S + off[i], off[i] = i * count + the gaps before it, and
 * p2p receive rows whose first delayxpic is "retimed to the actual arrival
 * cycle" A[i] = S + off[i] + T[i]. S keeps the p2p
 * timing of the first receiver (S = 112 - T[0], arrival 112) unless a later
 * receiver would need a negative arrival cycle. With one receiver the plan
 * is the p2p plan. Each send uses direction(s, r[i]), switching east/west
 * between sends [S]. Nine words hold 6 receivers at count <= 64 and 3 with
 * sendoff [S]; every A[i] must fit delayxpic's 12 bits [S].
 *
 * Gap after a receiver on a physical row r > 0 at count >= 52 (fix found
 * by the exchange verifier, docs/exchange-verifier.md): the notes' receive
 * row keeps that receiver's mux open 2r events after its count words
 * (HW-OPEN-MUX-WINDOW), and under the event model [RE] it would take
 * the first 2r words of the next back-to-back send and write them past its
 * buffer. The sender therefore waits 2r events (one delay word) before the
 * next send: right under either reading of the open question. Every
 * serialized run in the notes used physical-row-0 receivers, where no gap
 * is needed and the rows are unchanged. A row whose gaps do not fit the
 * nine words is rejected (E_NRECV).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "plan_internal.h"

int ixc_fanout_check(const struct ipuxcom_fanout_req *req, uint32_t max_recv,
		     const char *limit_note, uint32_t *s, uint16_t *phys,
		     struct ipuxcom_plan_error *err)
{
	uint32_t seen[(IPUXCOM_TILES + 31) / 32] = { 0 }, sender;
	bool logical = true;
	char field[32];
	int ret;

	if (!req)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "req", "req is NULL");
	if (req->flags & ~IXC_NUMBERING)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", req->flags,
				     req->flags & ~IXC_NUMBERING);
	if ((ret = ixc_numbering(req->flags, &logical, "flags", err)))
		return ret;
	if (req->count < 1 || req->count > IPUXCOM_PLAN_MAX_COUNT)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_COUNT, "count",
				     "count %u out of range 1..%u", req->count,
				     IPUXCOM_PLAN_MAX_COUNT);
	if (req->nrecv < 1 || req->nrecv > max_recv)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NRECV, "nrecv",
				     "nrecv %u out of range 1..%u %s", req->nrecv, max_recv,
				     limit_note);
	if (!req->receivers)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "receivers", "receivers is NULL");
	ret = ixc_tile_resolve(req->sender, logical, s, err, "sender");
	if (ret)
		return ret;
	/* The sender marked seen: one test finds it and duplicates alike. */
	sender = *s;
	seen[sender / 32] |= 1u << (sender % 32);
	for (uint32_t i = 0; i < req->nrecv; i++) {
		uint32_t p = 0, id = req->receivers[i], bit;

		if (__builtin_expect(id >= IPUXCOM_TILES, 0)) {
			snprintf(field, sizeof(field), "receivers[%u]", i);
			return ixc_tile_resolve(id, logical, &p, err, field);
		}
		p = logical ? ixc_l2p(id) : id;
		bit = 1u << (p % 32);
		if (__builtin_expect(seen[p / 32] & bit, 0)) {
			snprintf(field, sizeof(field), "receivers[%u]", i);
			if (p == sender)
				return ixc_plan_fail(err, IPUXCOM_PLAN_E_SELF, field,
						     "%s %u is the sender", field, id);
			for (uint32_t j = 0; j < i; j++)
				if (phys[j] == p)
					return ixc_plan_fail(err, IPUXCOM_PLAN_E_DUP, field,
							     "%s %u duplicates receivers[%u]",
							     field, id, j);
		}
		seen[p / 32] |= bit;
		phys[i] = (uint16_t)p;
	}
	return 0;
}

/* --------------------------------------------------------------- serialized */

static int ixc_serialized(const struct ipuxcom_timing *tm, const struct ipuxcom_fanout_req *req,
			  struct ipuxcom_plan_row *rows, size_t nrows,
			  struct ipuxcom_serialized_info *info, struct ipuxcom_plan_error *err);

int ipuxcom_plan_serialized(const struct ipuxcom_timing *tm,
			    const struct ipuxcom_fanout_req *req, struct ipuxcom_plan_row *rows,
			    size_t nrows, struct ipuxcom_serialized_info *info,
			    struct ipuxcom_plan_error *err)
{
	struct ipuxcom_serialized_info si = IPUXCOM_SERIALIZED_INFO_INIT;
	struct ipuxcom_fanout_req q;
	int ret;

	if ((ret = ixc_fanout_in(req, rows, &q, info, IPUXCOM_SERIALIZED_INFO_SIZE_MIN,
				 "IPUXCOM_SERIALIZED_INFO_INIT", err)))
		return ret;
	ret = ixc_serialized(tm, &q, rows, nrows, info ? &si : NULL, err);
	if (!ret && info)
		ixc_struct_out(info, info->size, &si, sizeof(si));
	return ret;
}

static int ixc_serialized(const struct ipuxcom_timing *tm, const struct ipuxcom_fanout_req *req,
			  struct ipuxcom_plan_row *rows, size_t nrows,
			  struct ipuxcom_serialized_info *info, struct ipuxcom_plan_error *err)
{
	uint16_t phys[IPUXCOM_SERIAL_MAX_RECV];
	int t[IPUXCOM_SERIAL_MAX_RECV] = { 0 };
	unsigned int dir[IPUXCOM_SERIAL_MAX_RECV];
	uint32_t s = 0, bad = 0, count, max_recv, *w, ngaps = 0, need;
	uint32_t gap[IPUXCOM_SERIAL_MAX_RECV] = { 0 };
	int64_t start, off[IPUXCOM_SERIAL_MAX_RECV], arrival[IPUXCOM_SERIAL_MAX_RECV], amax = 0;
	unsigned int n = 0;
	char field[32];
	int ret;

	if (!rows)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "rows", "rows is NULL");
	if (!req)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "req", "req is NULL");
	/* Nine words: sync, delay, sends, br [S]. */
	max_recv = req->count > 64 ? IPUXCOM_SERIAL_MAX_RECV_SENDOFF : IPUXCOM_SERIAL_MAX_RECV;
	ret = ixc_fanout_check(req, max_recv, req->count > 64 ?
			       "(serialized fan-out with sendoff, count > 64)" :
			       "(serialized fan-out, count <= 64)", &s, phys, err);
	if (ret)
		return ret;
	if (nrows < (size_t)req->nrecv + 1)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SPACE, "nrows",
				     "nrows %zu too small: need nrecv + 1 = %u", nrows,
				     req->nrecv + 1);
	count = req->count;
	tm = ixc_timing(tm);
	for (uint32_t i = 0; i < req->nrecv; i++) {
		snprintf(field, sizeof(field), "receivers[%u]", i);
		ret = ixc_timing_pair(tm, s, phys[i], &t[i], &dir[i], err, field);
		if (ret)
			return ret;
		/* The notes' receive window's extra 2r events (see above); none after the last. */
		if (count >= 52 && i + 1 < req->nrecv && ixc_phys_row(phys[i]) > 0) {
			gap[i] = 2 * ixc_phys_row(phys[i]);
			ngaps++;
		}
		off[i] = i ? off[i - 1] + count + gap[i - 1] : 0;
	}
	/* Modelled: keep the p2p arrival (112) of the first receiver when possible. */
	start = IXC_P2P_ARRIVAL - t[0];
	for (uint32_t i = 0; i < req->nrecv; i++)
		if (-(t[i] + off[i]) > start)
			start = -(t[i] + off[i]);
	need = 2 + (start > 0) + req->nrecv * (count > 64 ? 2 : 1) + ngaps;
	if (need > IPUXCOM_ROW_WORDS)
		for (uint32_t i = 0; i < req->nrecv; i++)
			if (gap[i])
				return ixc_plan_fail(err, IPUXCOM_PLAN_E_NRECV, "nrecv",
						     "nrecv %u: receivers[%u] (physical %u, row %u) "
						     "at count %u >= 52 needs a %u-event gap before the "
						     "next send (the notes' receive window stays open 2 "
						     "x row events, modelled); %u gap word%s do not fit "
						     "the nine-word row: order it last or use fewer "
						     "receivers", req->nrecv, i, phys[i],
						     ixc_phys_row(phys[i]), count, gap[i], ngaps,
						     ngaps == 1 ? "" : "s");
	for (uint32_t i = 0; i < req->nrecv; i++) {
		arrival[i] = start + off[i] + t[i];
		if (arrival[i] > 0xfff)
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_SCHEDULE, "receivers",
					     "receivers[%u] (physical %u): receive cycle %lld = start "
					     "%lld + %lld (earlier transfers and gaps) + TimeToMux %d "
					     "does not fit delayxpic's 12 bits (max 4095); fewer "
					     "receivers, a smaller count or another order may fit", i,
					     phys[i], (long long)arrival[i], (long long)start,
					     (long long)off[i], t[i]);
		if (arrival[i] > amax)
			amax = arrival[i];
	}

	ixc_row_init(&rows[0], s, IPUXCOM_ROLE_SEND);
	w = rows[0].words;
	w[n++] = IXC_SYNC3;
	if (start > 0)
		w[n++] = ixc_delay((uint32_t)(start - 1), &bad);
	for (uint32_t i = 0; i < req->nrecv; i++) {
		w[n++] = ixc_send((count < 64 ? count : 64) - 1, 0, dir[i], &bad);
		if (count > 64)
			w[n++] = ixc_sendoff(count - 65, 0, dir[i], &bad);
		if (gap[i])
			w[n++] = ixc_delay(gap[i] - 1, &bad);
	}
	w[n++] = IPUXCOM_WORD_BR_M10;
	rows[0].nwords = (uint8_t)n;
	rows[0].event = (int32_t)start;

	for (uint32_t i = 0; i < req->nrecv; i++) {
		struct ipuxcom_plan_row *row = &rows[1 + i];

		ixc_row_init(row, phys[i], IPUXCOM_ROLE_RECV);
		w = row->words;
		w[0] = 1;
		w[1] = IXC_SYNC3;
		w[2] = ixc_delayxpic((uint32_t)arrival[i], 0, 0, &bad);
		ixc_recv_schedule(count, ixc_phys_row(phys[i]), 0, &w[3], &bad);
		w[6] = IPUXCOM_WORD_BR_M10;
		row->nwords = 7;
		row->patch = 2;
		row->event = (int32_t)arrival[i];
	}
	if (info) {
		info->first_send = (uint32_t)start;
		info->max_recv_time = (uint32_t)amax;
		ixc_timing_report(tm, &info->timing_kind, info->timing_model);
	}
	if (bad)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_INTERNAL, "count",
				     "internal: a field overflowed (count %u)", count);
	ixc_plan_ok(err);
	return 0;
}

/* -------------------------------------------------------------- relay tree */

int ipuxcom_plan_relay(const struct ipuxcom_fanout_req *req_in, struct ipuxcom_relay_step *steps,
		       size_t nsteps, uint32_t *rounds, struct ipuxcom_plan_error *err)
{
	uint16_t phys[IPUXCOM_TILES], informed[IPUXCOM_TILES];
	uint32_t s = 0, ninformed = 1, next = 0, round = 0, k = 0;
	struct ipuxcom_fanout_req q, *req = &q;
	int ret;

	if (!steps)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "steps", "steps is NULL");
	if (!req_in)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "req", "req is NULL");
	if ((ret = ixc_req_in(req_in, &q, err)))
		return ret;
	ret = ixc_fanout_check(req, IPUXCOM_TILES - 1, "(relay tree)", &s, phys, err);
	if (ret)
		return ret;
	if (nsteps < req->nrecv)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SPACE, "nsteps",
				     "nsteps %zu too small: need nrecv = %u", nsteps, req->nrecv);
	informed[0] = (uint16_t)s;
	while (next < req->nrecv) {
		uint32_t m = ninformed;

		round++;
		/* Every tile informed before this round sends to one new receiver [S]. */
		for (uint32_t j = 0; j < m && next < req->nrecv; j++) {
			steps[k++] = (struct ipuxcom_relay_step){
				.round = (uint16_t)round, .sender = informed[j],
				.receiver = phys[next],
			};
			informed[ninformed++] = phys[next++];
		}
	}
	if (rounds)
		*rounds = round;
	ixc_plan_ok(err);
	return 0;
}

/* ----------------------------------------------------------------- dispatch */

const char *ipuxcom_fanout_method_name(uint32_t method)
{
	switch (method) {
	case IPUXCOM_FANOUT_MULTICAST: return "multicast";
	case IPUXCOM_FANOUT_SERIALIZED: return "serialized";
	case IPUXCOM_FANOUT_RELAY: return "relay";
	default: return "?";
	}
}

/* Append to @buf (NUL-terminated, @len bytes), truncating. */
__attribute__((format(printf, 3, 4)))
static void ixc_catf(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/*
 * @methods by name for messages: "multicast|relay"; bits that name no
 * method in hex ("multicast|0x8"); "none" for 0.
 */
static const char *ixc_method_names(uint32_t methods, char *buf, size_t len)
{
	uint32_t unknown = methods & ~(uint32_t)IPUXCOM_FANOUT_ALL;

	buf[0] = '\0';
	for (uint32_t bit = IPUXCOM_FANOUT_MULTICAST; bit <= IPUXCOM_FANOUT_RELAY; bit <<= 1)
		if (methods & bit)
			ixc_catf(buf, len, "%s%s", buf[0] ? "|" : "",
				 ipuxcom_fanout_method_name(bit));
	if (unknown)
		ixc_catf(buf, len, "%s0x%x", buf[0] ? "|" : "", unknown);
	if (!buf[0])
		ixc_catf(buf, len, "none");
	return buf;
}

static void ixc_cost(struct ipuxcom_fanout_cost *c, uint32_t launches, uint32_t copies,
		     uint64_t cycles, const char *formula)
{
	c->launches = launches;
	c->copies = copies;
	c->cycles = cycles;
	c->total = cycles + (uint64_t)launches * IPUXCOM_COST_LAUNCH;
	c->why[0] = '\0';
	ixc_catf(c->why, sizeof(c->why), "%u launch%s, %u cop%s, %s = %llu cycles; total %llu + "
		 "%u x %u = %llu", launches, launches == 1 ? "" : "es", copies,
		 copies == 1 ? "y" : "ies", formula, (unsigned long long)cycles,
		 (unsigned long long)cycles, launches, IPUXCOM_COST_LAUNCH,
		 (unsigned long long)c->total);
}

static void ixc_reject(struct ipuxcom_fanout_cost *c, const struct ipuxcom_plan_error *e)
{
	c->reject = e->code ? e->code : IPUXCOM_PLAN_E_INTERNAL;
	c->why[0] = '\0';
	ixc_catf(c->why, sizeof(c->why), "rejected: %s", e->msg);
}

static int ixc_dispatch(const struct ipuxcom_timing *tm, const struct ipuxcom_fanout_req *req,
			uint32_t methods, struct ipuxcom_dispatch *out,
			struct ipuxcom_plan_error *err);

int ipuxcom_plan_dispatch(const struct ipuxcom_timing *tm, const struct ipuxcom_fanout_req *req,
			  uint32_t methods, struct ipuxcom_dispatch *out,
			  struct ipuxcom_plan_error *err)
{
	struct ipuxcom_dispatch d = IPUXCOM_DISPATCH_INIT;
	struct ipuxcom_fanout_req q;
	int ret;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	if ((ret = ixc_sized_out_check(out, IPUXCOM_DISPATCH_SIZE_MIN, "out.size",
				       "IPUXCOM_DISPATCH_INIT", err)))
		return ret;
	ixc_struct_out(out, out->size, &d, sizeof(d));		/* all zero but its size */
	if (req && (ret = ixc_req_in(req, &q, err)))
		return ret;
	ret = ixc_dispatch(tm, req ? &q : NULL, methods, &d, err);
	/* Also when no method fits: each candidate says why. */
	ixc_struct_out(out, out->size, &d, sizeof(d));
	return ret;
}

static int ixc_dispatch(const struct ipuxcom_timing *tm, const struct ipuxcom_fanout_req *req,
			uint32_t methods, struct ipuxcom_dispatch *out,
			struct ipuxcom_plan_error *err)
{
	struct ipuxcom_plan_error e;
	struct ipuxcom_plan_row *rows;
	struct ipuxcom_relay_step *steps;
	uint16_t phys[IPUXCOM_TILES];
	const struct ipuxcom_fanout_cost *best = NULL;
	uint32_t s = 0, n, count;
	char formula[64], names[48];
	int ret;

	ixc_method_names(methods, names, sizeof(names));
	if (!methods || (methods & ~IPUXCOM_FANOUT_ALL))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_METHOD, "methods",
				     "methods %s: need one or more of multicast, serialized and "
				     "relay, and nothing else", names);
	/* A request every method rejects is the caller's error, not a choice. */
	ret = ixc_fanout_check(req, IPUXCOM_TILES - 1, "", &s, phys, err);
	if (ret)
		return ret;
	n = req->nrecv;
	count = req->count;
	rows = malloc(sizeof(*rows) * (n + 1));
	steps = malloc(sizeof(*steps) * n);
	if (!rows || !steps) {
		free(rows);
		free(steps);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "req", "out of memory");
	}
	for (int i = 0; i < 3; i++) {
		struct ipuxcom_fanout_cost *c = &out->cand[i];
		uint32_t r;

		c->method = 1u << i;
		if (!(methods & c->method)) {
			c->reject = IPUXCOM_PLAN_E_METHOD;
			snprintf(c->why, sizeof(c->why), "not among the allowed methods (%s)",
				 names);
			continue;
		}
		switch (c->method) {
		case IPUXCOM_FANOUT_MULTICAST:
			if (ipuxcom_plan_multicast(tm, req, rows, n + 1, NULL, &e)) {
				ixc_reject(c, &e);
				break;
			}
			snprintf(formula, sizeof(formula), "156 + %u", count);
			ixc_cost(c, 1, 1, IPUXCOM_COST_MCAST_BASE + (uint64_t)count, formula);
			break;
		case IPUXCOM_FANOUT_SERIALIZED:
			if (ipuxcom_plan_serialized(tm, req, rows, n + 1, NULL, &e)) {
				ixc_reject(c, &e);
				break;
			}
			snprintf(formula, sizeof(formula), "156 + %u x %u", n, count);
			ixc_cost(c, 1, n, IPUXCOM_COST_MCAST_BASE + (uint64_t)n * count, formula);
			break;
		default:
			if (ipuxcom_plan_relay(req, steps, n, &r, &e)) {
				ixc_reject(c, &e);
				break;
			}
			snprintf(formula, sizeof(formula), "%u x (156 + %u)", r, count);
			ixc_cost(c, r, n, (uint64_t)r * (IPUXCOM_COST_MCAST_BASE + count), formula);
			break;
		}
	}
	free(rows);
	free(steps);
	for (int i = 0; i < 3; i++) {
		const struct ipuxcom_fanout_cost *c = &out->cand[i];

		if (c->reject)
			continue;
		if (!best || c->total < best->total ||
		    (c->total == best->total && c->copies < best->copies))
			best = c;
	}
	if (!best) {
		ixc_catf(out->reason, sizeof(out->reason), "no allowed method fits");
		for (int i = 0; i < 3; i++)
			ixc_catf(out->reason, sizeof(out->reason), "; %s %s",
				 ipuxcom_fanout_method_name(out->cand[i].method),
				 out->cand[i].why);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_INFEASIBLE, "methods",
				     "none of the allowed methods (%s) can carry %u words to %u "
				     "receivers", names, count, n);
	}
	out->chosen = best->method;
	ixc_catf(out->reason, sizeof(out->reason), "%s: lowest estimated total %llu cycles (%s)",
		 ipuxcom_fanout_method_name(best->method), (unsigned long long)best->total,
		 best->why);
	for (int i = 0; i < 3; i++) {
		const struct ipuxcom_fanout_cost *c = &out->cand[i];

		if (c == best)
			continue;
		if (c->reject)
			ixc_catf(out->reason, sizeof(out->reason), "; %s %s",
				 ipuxcom_fanout_method_name(c->method),
				 c->reject == IPUXCOM_PLAN_E_METHOD ? "not allowed" : "infeasible");
		else
			ixc_catf(out->reason, sizeof(out->reason), "; %s %llu",
				 ipuxcom_fanout_method_name(c->method),
				 (unsigned long long)c->total);
	}
	ixc_plan_ok(err);
	return 0;
}
