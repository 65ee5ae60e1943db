// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom plan ...: exchange plans from libipuxcom (ipuxcom_plan.h), printed
 * as hex words with their disassembly, or as JSON. Pure computation: no
 * device is opened.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ipuxcom_plan.h>
#include <ipuxcom_xsim.h>

#include "cli.h"
#include "json.h"
#include "outfile.h"
#include "json_fmt.h"
#include "input.h"
#include "words.h"
#include "trace_json.h"

/* Positional arguments a command takes at most: SRC COUNT and every other tile. */
#define PLAN_MAX_POS	(IPUXCOM_TILES + 2)

/* Options shared by the plan commands. */
struct plan_opts {
	bool physical;
	bool raw;
	bool directions;
	bool wide;
	const char *timing;
	const char *src_addr;
	const char *dst_addr;
	const char *offset;
	const char *method;
	const char *export_path;
};

/*
 * The plan error codes that mean a value given on the command line is out
 * of its range or contradicts another: a usage error (exit 2), as the
 * same value refused by the command's own parsing is.
 */
static bool plan_err_is_usage(int code)
{
	switch (code) {
	case IPUXCOM_PLAN_E_TILE:
	case IPUXCOM_PLAN_E_COUNT:
	case IPUXCOM_PLAN_E_SELF:
	case IPUXCOM_PLAN_E_DUP:
	case IPUXCOM_PLAN_E_NRECV:
	case IPUXCOM_PLAN_E_ALIGN:
	case IPUXCOM_PLAN_E_ADDR:
	case IPUXCOM_PLAN_E_ADDR_FLAG:
	case IPUXCOM_PLAN_E_METHOD:
		return true;
	default:
		return false;
	}
}

static int plan_lib_err(const struct cli_call *call, const struct ipuxcom_plan_error *e)
{
	const char *msg = e->msg[0] ? e->msg : ipuxcom_strerror(IPUXCOM_ERRC(e->code));

	/* A receive cycle pushed out of 12 bits by --offset: the offset given is too large. */
	if (plan_err_is_usage(e->code) ||
	    (e->code == IPUXCOM_PLAN_E_SCHEDULE && !strcmp(e->field, "schedule_offset")))
		return cli_usage_err(call, "%s", msg);
	cli_err(call->what, "%s", msg);
	return CLI_EXIT_ERR;
}

/* --timing FILE, or the default model. *owned is what to free. */
static int plan_timing(const struct cli_call *call, const struct plan_opts *o,
		       const struct ipuxcom_timing **tm, struct ipuxcom_timing **owned)
{
	int rc;

	*owned = NULL;
	*tm = ipuxcom_timing_default();
	if (!o->timing)
		return 0;
	rc = cli_input_timing(call, o->timing, owned);
	if (rc)
		return rc;
	*tm = *owned;
	return 0;
}

/* Tile ids from the command line (logical unless --physical; both 0..1471). */
static int plan_tiles(const struct cli_call *call, char **args, int n, const char *what,
		      uint32_t *ids)
{
	for (int i = 0; i < n; i++)
		if (!cli_parse_u32(args[i], &ids[i]) || ids[i] >= IPUXCOM_TILES)
			return cli_usage_err(call, "invalid %s '%s': a decimal number 0..%u",
					     what, args[i], IPUXCOM_TILES - 1);
	return 0;
}

/*
 * A KEY=VALUE among the positional arguments (a transfer list's src=/dst=,
 * or a typo of them): named as a key, with the option that means it,
 * rather than taken for a tile id or a surplus argument.
 */
static int plan_key_args(const struct cli_call *call, char **args, int n)
{
	for (int i = 0; i < n; i++) {
		const char *eq = strchr(args[i], '=');
		int klen = eq ? (int)(eq - args[i]) : 0;
		const char *opt;

		if (!eq)
			continue;
		opt = !strncmp(args[i], "src", 3) ? "--src-addr" :
		      !strncmp(args[i], "dst", 3) ? "--dst-addr" : NULL;
		if (opt && klen == 3)
			return cli_usage_err(call, "'%s': KEY=VALUE is the transfer list's form; "
					     "here it is %s %s", args[i], opt, eq + 1);
		return cli_usage_err(call, "unknown key \"%.*s\" in '%s'%s%s%s (the plan "
				     "commands take --src-addr ADDR and --dst-addr ADDR)",
				     klen > 40 ? 40 : klen, args[i], args[i],
				     opt ? ": did you mean " : "", opt ? opt : "", opt ? "?" : "");
	}
	return 0;
}

/* A word count from the command line, 1..@max. */
static int plan_count_max(const struct cli_call *call, const char *arg, uint32_t max,
			  uint32_t *count)
{
	if (!cli_parse_u32(arg, count) || !*count || *count > max)
		return cli_usage_err(call, "invalid count '%s': a decimal number 1..%u", arg, max);
	return 0;
}

/* A word count from the command line, in the range every plan accepts. */
static int plan_count(const struct cli_call *call, const char *arg, uint32_t *count)
{
	return plan_count_max(call, arg, IPUXCOM_PLAN_MAX_COUNT, count);
}

/* --wide's choice: "64-bit" and, for a 32-bit plan, why (JSON "route", "why"). */
static void wide_json(struct json_writer *w, bool asked, uint32_t sctl, uint32_t items,
		      uint32_t why)
{
	json_kv_uint(w, "sctl", sctl);
	json_kv_uint(w, "items", items);
	json_kv_string(w, "route", sctl & IPUXCOM_SCTL_WIDE ? "64-bit" : "32-bit");
	json_key(w, "why");
	if (asked && why != IPUXCOM_WIDE_USED)
		json_string(w, ipuxcom_plan_wide_str(why));
	else
		json_null(w);
}

static void wide_text(bool asked, uint32_t sctl, uint32_t items, uint32_t why)
{
	if (sctl & IPUXCOM_SCTL_WIDE)
		printf("64-bit route: sctl %u, %u item%s (two words per event)\n", sctl, items,
		       cli_s(items));
	else if (asked)
		printf("32-bit route (no 64-bit route: %s): sctl %u, %u word%s\n",
		       ipuxcom_plan_wide_str(why), sctl, items, cli_s(items));
}

static const char *role_name(uint8_t role)
{
	switch (role) {
	case IPUXCOM_ROLE_SEND: return "send";
	case IPUXCOM_ROLE_RECV: return "recv";
	case IPUXCOM_ROLE_IDLE: return "idle";
	default: return "?";
	}
}

static void row_json(struct json_writer *w, const struct ipuxcom_plan_row *row)
{
	struct ipuxcom_tile t;
	char buf[96];

	ipuxcom_tile_info(row->tile, IPUXCOM_PLAN_PHYSICAL, &t, NULL);
	json_begin_object(w);
	json_kv_string(w, "role", role_name(row->role));
	json_kv_uint(w, "physical", t.physical);
	json_kv_uint(w, "logical", t.logical);
	json_kv_uint(w, "row", t.row);
	json_kv_int(w, "event", row->event);
	json_kv_uint(w, "nwords", row->nwords);
	json_key(w, "patch");
	if (row->patch >= 0)
		json_uint(w, (uint64_t)row->patch);
	else
		json_null(w);
	/* The index in "words" of the word that holds the SRAM address (as "patch"). */
	json_key(w, "addr_word");
	if (row->addr >= 0)
		json_uint(w, (uint32_t)row->addr);
	else
		json_null(w);
	json_key(w, "words");
	json_begin_array(w);
	for (unsigned int i = 0; i < IPUXCOM_ROW_WORDS; i++)
		json_hex32(w, row->words[i]);
	json_end_array(w);
	json_key(w, "asm");
	json_begin_array(w);
	for (unsigned int i = 0; i < IPUXCOM_ROW_WORDS; i++) {
		ipuxcom_plan_row_disasm(row, i, buf, sizeof(buf));
		json_asm(w, buf);
	}
	json_end_array(w);
	/* Each word's comment, or null, at the same index as "asm". */
	json_key(w, "comment");
	json_begin_array(w);
	for (unsigned int i = 0; i < IPUXCOM_ROW_WORDS; i++) {
		ipuxcom_plan_row_disasm(row, i, buf, sizeof(buf));
		json_asm_comment(w, buf);
	}
	json_end_array(w);
	json_end_object(w);
}

static void row_text(const struct ipuxcom_plan_row *row, const char *title)
{
	struct ipuxcom_tile t;
	char buf[96];

	ipuxcom_tile_info(row->tile, IPUXCOM_PLAN_PHYSICAL, &t, NULL);
	printf("%s: physical %u (logical %u, row %u)", title, t.physical, t.logical, t.row);
	if (row->role == IPUXCOM_ROLE_SEND)
		printf(", first send at event %" PRId32 "\n", row->event);
	else if (row->role == IPUXCOM_ROLE_RECV)
		printf(", mux opens at event %" PRId32 "\n", row->event);
	else
		putchar('\n');
	for (unsigned int i = 0; i < IPUXCOM_ROW_WORDS; i++) {
		ipuxcom_plan_row_disasm(row, i, buf, sizeof(buf));
		printf("  %u  0x%08" PRIx32 "  %s\n", i, row->words[i], buf);
	}
}

static void rows_text(const struct ipuxcom_plan_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char title[32];

		if (rows[i].role == IPUXCOM_ROLE_SEND)
			snprintf(title, sizeof(title), "sender");
		else
			snprintf(title, sizeof(title), "receiver %zu", i - 1);
		row_text(&rows[i], title);
	}
}

static void rows_json(struct json_writer *w, const struct ipuxcom_plan_row *rows, size_t n)
{
	json_key(w, "rows");
	json_begin_array(w);
	for (size_t i = 0; i < n; i++)
		row_json(w, &rows[i]);
	json_end_array(w);
}

#define OPT_PHYSICAL(o) { "physical", 0, NULL, "tile ids are physical (default: logical)", \
			  &(o).physical, NULL }
#define OPT_TIMING(o) { "timing", 't', "FILE", "measured timing table (default: the " \
			"reconstruction)", NULL, &(o).timing }

/* ---------------------------------------------------------------- p2p */

#define OPT_WIDE(o) { "wide", 0, NULL, "use a 64-bit route when the transfer allows it, " \
			"else the 32-bit plan", &(o).wide, NULL }

static int p2p_run(struct cli_call *call, int argc, char **argv)
{
	struct plan_opts o = { 0 };
	const struct cli_opt opts[] = {
		OPT_PHYSICAL(o), OPT_TIMING(o), OPT_WIDE(o),
		{ "src-addr", 0, "ADDR", "with --wide: the sender's buffer (A7 base; default "
		  "0x50000)", NULL, &o.src_addr },
		{ "dst-addr", 0, "ADDR", "with --wide: the receiver's buffer (A4 base; default "
		  "0x50000)", NULL, &o.dst_addr },
	};
	const struct ipuxcom_timing *tm;
	struct ipuxcom_timing *owned;
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_p2p_wide_info wi = IPUXCOM_P2P_WIDE_INFO_INIT;
	struct ipuxcom_plan_error e;
	uint32_t ids[3], src = IPUXCOM_MCAST_DST_BASE, dst = IPUXCOM_MCAST_DST_BASE;
	uint32_t flags;
	char *pos[PLAN_MAX_POS];
	int npos, rc;

	rc = cli_parse(call, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), true, pos,
		       PLAN_MAX_POS, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if ((rc = plan_key_args(call, pos, npos)))
		return rc;
	if (npos > 3)
		return cli_usage_err(call, "unexpected argument '%s' (need SRC DST COUNT)", pos[3]);
	if (npos != 3)
		return cli_usage_err(call, "need SRC DST COUNT");
	if ((o.src_addr || o.dst_addr) && !o.wide)
		return cli_usage_err(call, "--src-addr and --dst-addr need --wide (32-bit p2p "
				     "plans address relative to the vertices' bases)");
	if ((rc = plan_tiles(call, pos, 2, "tile", ids)) ||
	    (rc = plan_count_max(call, pos[2], o.wide ? IPUXCOM_PLAN_MAX_WIDE_COUNT :
				 IPUXCOM_PLAN_MAX_COUNT, &ids[2])))
		return rc;
	if (o.src_addr && !cli_parse_u32_num(o.src_addr, &src))
		return cli_usage_err(call, "invalid --src-addr '%s'", o.src_addr);
	if (o.dst_addr && !cli_parse_u32_num(o.dst_addr, &dst))
		return cli_usage_err(call, "invalid --dst-addr '%s'", o.dst_addr);
	rc = plan_timing(call, &o, &tm, &owned);
	if (rc)
		return rc;
	flags = o.physical ? IPUXCOM_PLAN_PHYSICAL : IPUXCOM_PLAN_LOGICAL;
	rc = o.wide ? ipuxcom_plan_p2p_wide(tm, ids[0], ids[1], ids[2], src, dst,
					    flags | IPUXCOM_PLAN_WIDE, &p, &wi, &e) :
		      ipuxcom_plan_p2p(tm, ids[0], ids[1], ids[2], flags, &p, &e);
	if (rc && o.wide && e.code == IPUXCOM_PLAN_E_COUNT && ids[2] > IPUXCOM_PLAN_MAX_COUNT) {
		/* 64-bit refused, the 32-bit answer too long: say both, and why the first. */
		uint32_t why = IPUXCOM_WIDE_ODD_COUNT;

		if (!(ids[2] & 1) && !ipuxcom_plan_p2p_wide(tm, ids[0], ids[1], 2, src, dst,
							   flags | IPUXCOM_PLAN_WIDE, &p, &wi, &e))
			why = wi.wide;
		ipuxcom_timing_free(owned);
		return cli_usage_err(call, "invalid count '%s' with --wide: no 64-bit route (%s), "
				     "and a 32-bit p2p carries 1..%u words (64-bit: up to %u, "
				     "an even count to a receiver that owns its pair)", pos[2],
				     ipuxcom_plan_wide_str(why), IPUXCOM_PLAN_MAX_COUNT,
				     IPUXCOM_PLAN_MAX_WIDE_COUNT);
	}
	if (rc) {
		ipuxcom_timing_free(owned);
		return plan_lib_err(call, &e);
	}
	ipuxcom_timing_free(owned);
	if (!o.wide) {
		wi.sctl = p.direction;
		wi.items = p.count;
	}
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "kind", "p2p");
		json_kv_string(&w, "timing_model", p.timing_model);
		json_kv_uint(&w, "count", p.count);
		json_kv_int(&w, "time_to_mux", p.time_to_mux);
		json_kv_uint(&w, "direction", p.direction);
		json_key(&w, "sync_boundary");
		json_bool(&w, p.sync_boundary);
		wide_json(&w, o.wide, wi.sctl, wi.items, wi.wide);
		if (o.wide) {
			json_kv_uint(&w, "partner", wi.partner);
			json_kv_int(&w, "partner_time_to_mux", wi.partner_time_to_mux);
			json_kv_uint(&w, "xpic_owner", wi.xpic_owner);
		}
		json_key(&w, "rows");
		json_begin_array(&w);
		row_json(&w, &p.send);
		row_json(&w, &p.recv);
		json_end_array(&w);
		json_end_object(&w);
		return CLI_EXIT_OK;
	}
	printf("p2p: %u word%s, timing %s: TimeToMux %" PRId32 ", direction %u%s\n", p.count,
	       cli_s(p.count), p.timing_model, p.time_to_mux, p.direction,
	       p.sync_boundary ? " (sync boundary: leading delay omitted)" : "");
	wide_text(o.wide, wi.sctl, wi.items, wi.wide);
	if (o.wide && (wi.sctl & IPUXCOM_SCTL_WIDE))
		printf("pair: receiver TimeToMux %" PRId32 ", partner %u TimeToMux %" PRId32
		       ", XPIC owner %u (the pair's second mux is the vertex's, modelled)\n",
		       wi.time_to_mux, wi.partner, wi.partner_time_to_mux, wi.xpic_owner);
	row_text(&p.send, "sender");
	row_text(&p.recv, "receiver");
	return CLI_EXIT_OK;
}

/* ----------------------------------------------------- multicast, fanout */

/* SRC COUNT DST... and the address options into @req (ids into @ids). */
static int fanout_args(struct cli_call *call, const struct plan_opts *o, char **pos, int npos,
		       struct ipuxcom_fanout_req *req, uint32_t *ids, uint32_t *dst)
{
	uint32_t n;
	int rc;

	if ((rc = plan_key_args(call, pos, npos)))
		return rc;
	if (npos < 3)
		return cli_usage_err(call, "need SRC COUNT DST...");
	if ((rc = plan_tiles(call, pos, 1, "tile", &req->sender)))
		return rc;
	if (o->wide && (!cli_parse_u32(pos[1], &req->count) || !req->count ||
			req->count > IPUXCOM_PLAN_MAX_COUNT))
		return cli_usage_err(call, "invalid count '%s': a decimal number 1..%u (with "
				     "--wide too: the 32-bit multicast is planned first, and is the answer when "
				     "there is no 64-bit route; p2p --wide takes up to %u)",
				     pos[1], IPUXCOM_PLAN_MAX_COUNT, IPUXCOM_PLAN_MAX_WIDE_COUNT);
	if ((rc = plan_count(call, pos[1], &req->count)))
		return rc;
	n = (uint32_t)(npos - 2);
	if ((rc = plan_tiles(call, pos + 2, (int)n, "tile", ids)))
		return rc;
	req->nrecv = n;
	req->receivers = ids;
	req->flags = o->physical ? IPUXCOM_PLAN_PHYSICAL : IPUXCOM_PLAN_LOGICAL;
	req->src_addr = IPUXCOM_MCAST_DST_BASE;
	if (o->src_addr && !cli_parse_u32_num(o->src_addr, &req->src_addr))
		return cli_usage_err(call, "invalid --src-addr '%s'", o->src_addr);
	if (o->offset && !cli_parse_u32_num(o->offset, &req->schedule_offset))
		return cli_usage_err(call, "invalid --offset '%s'", o->offset);
	for (uint32_t i = 0; i < n; i++)
		dst[i] = IPUXCOM_MCAST_DST_BASE;
	if (o->dst_addr) {
		char *copy = strdup(o->dst_addr), *save = NULL, *tok;
		uint32_t k = 0;

		if (!copy) {
			cli_err(call->what, "out of memory");
			return CLI_EXIT_ERR;
		}
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (k >= n) {
				free(copy);
				return cli_usage_err(call, "--dst-addr has more than %u addresses", n);
			}
			if (!cli_parse_u32_num(tok, &dst[k])) {
				rc = cli_usage_err(call, "invalid --dst-addr address '%.32s'", tok);
				free(copy);
				return rc;
			}
			k++;
		}
		free(copy);
		if (k == 1)
			for (uint32_t i = 1; i < n; i++)
				dst[i] = dst[0];
		else if (k != n)
			return cli_usage_err(call, "--dst-addr has %u addresses for %u receivers "
					     "(give one, or one per receiver)", k, n);
	}
	req->dst_addr = dst;
	return 0;
}

struct fanout_buf {
	uint32_t ids[IPUXCOM_TILES];
	uint32_t dst[IPUXCOM_TILES];
	struct ipuxcom_plan_row rows[IPUXCOM_TILES + 1];
	struct ipuxcom_relay_step steps[IPUXCOM_TILES];
};

static void mcast_info_out(struct json_writer *w, const struct ipuxcom_multicast_info *mi)
{
	if (w) {
		json_kv_string(w, "timing_model", mi->timing_model);
		json_kv_int(w, "min_time_to_mux", mi->min_t);
		json_kv_int(w, "max_time_to_mux", mi->max_t);
		json_kv_uint(w, "start", mi->start);
		json_kv_int(w, "send_delay", mi->send_delay);
		json_kv_uint(w, "max_recv_time", mi->max_recv_time);
		return;
	}
	printf("timing %s: TimeToMux %" PRId32 "..%" PRId32 ", start %u, send delay %" PRId32
	       "%s, last receive cycle %u\n", mi->timing_model, mi->min_t, mi->max_t, mi->start,
	       mi->send_delay, mi->send_delay < 0 ? " (omitted)" : "", mi->max_recv_time);
}

#define OPTS_ADDR(o)								\
	{ "src-addr", 0, "ADDR", "source byte address in the sender's SRAM "	\
	  "(default 0x50000)", NULL, &(o).src_addr },				\
	{ "dst-addr", 0, "ADDR[,ADDR...]", "destination byte address(es) "	\
	  "(default 0x50000)", NULL, &(o).dst_addr },				\
	{ "offset", 0, "N", "multicast schedule offset in events", NULL, &(o).offset }

static int multicast_run(struct cli_call *call, int argc, char **argv)
{
	struct plan_opts o = { 0 };
	struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL };
	struct ipuxcom_multicast_info mi = IPUXCOM_MULTICAST_INFO_INIT;
	struct ipuxcom_plan_error e;
	const struct ipuxcom_timing *tm;
	struct ipuxcom_timing *owned;
	struct fanout_buf *b;
	const struct cli_opt opts[] = { OPT_PHYSICAL(o), OPT_TIMING(o), OPTS_ADDR(o), OPT_WIDE(o) };
	char *pos[PLAN_MAX_POS];
	int npos, rc;

	rc = cli_parse(call, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), true, pos,
		       PLAN_MAX_POS, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	b = calloc(1, sizeof(*b));
	if (!b) {
		cli_err(call->what, "out of memory");
		return CLI_EXIT_ERR;
	}
	rc = fanout_args(call, &o, pos, npos, &req, b->ids, b->dst);
	if (!rc)
		rc = plan_timing(call, &o, &tm, &owned);
	if (rc) {
		free(b);
		return rc;
	}
	if (o.wide)
		req.flags |= IPUXCOM_PLAN_WIDE;
	if (ipuxcom_plan_multicast(tm, &req, b->rows, req.nrecv + 1, &mi, &e)) {
		rc = plan_lib_err(call, &e);
	} else if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "kind", "multicast");
		json_kv_uint(&w, "count", req.count);
		mcast_info_out(&w, &mi);
		wide_json(&w, o.wide, mi.sctl, mi.items, mi.wide);
		if (o.wide) {
			json_key(&w, "why_receiver");
			if (mi.wide != IPUXCOM_WIDE_USED && mi.wide_recv != UINT32_MAX)
				json_uint(&w, mi.wide_recv);
			else
				json_null(&w);
		}
		rows_json(&w, b->rows, req.nrecv + 1);
		json_end_object(&w);
	} else {
		printf("multicast: %u word%s to %u receiver%s\n", req.count, cli_s(req.count),
		       req.nrecv, cli_s(req.nrecv));
		mcast_info_out(NULL, &mi);
		wide_text(o.wide, mi.sctl, mi.items, mi.wide);
		if (o.wide && mi.wide != IPUXCOM_WIDE_USED && mi.wide_recv != UINT32_MAX)
			printf("  (receiver %u: physical %u)\n", mi.wide_recv,
			       b->rows[1 + mi.wide_recv].tile);
		rows_text(b->rows, req.nrecv + 1);
	}
	ipuxcom_timing_free(owned);
	free(b);
	return rc;
}

static uint32_t method_bits(const char *m)
{
	if (!m || !strcmp(m, "auto"))
		return IPUXCOM_FANOUT_ALL;
	if (!strcmp(m, "multicast"))
		return IPUXCOM_FANOUT_MULTICAST;
	if (!strcmp(m, "serialized"))
		return IPUXCOM_FANOUT_SERIALIZED;
	if (!strcmp(m, "relay"))
		return IPUXCOM_FANOUT_RELAY;
	return 0;
}

static void dispatch_out(struct json_writer *w, const struct ipuxcom_dispatch *d)
{
	if (!w) {
		for (int i = 0; i < 3; i++)
			printf("  %-10s %s\n", ipuxcom_fanout_method_name(d->cand[i].method),
			       d->cand[i].why);
		if (d->chosen)
			printf("chosen: %s\n", d->reason);
		return;
	}
	json_key(w, "candidates");
	json_begin_array(w);
	for (int i = 0; i < 3; i++) {
		const struct ipuxcom_fanout_cost *c = &d->cand[i];

		json_begin_object(w);
		json_kv_string(w, "method", ipuxcom_fanout_method_name(c->method));
		json_key(w, "feasible");
		json_bool(w, !c->reject);
		if (!c->reject) {
			json_kv_uint(w, "launches", c->launches);
			json_kv_uint(w, "copies", c->copies);
			json_kv_uint(w, "cycles", c->cycles);
			json_kv_uint(w, "total", c->total);
		}
		json_kv_string(w, "why", c->why);
		json_end_object(w);
	}
	json_end_array(w);
	json_key(w, "chosen");
	if (d->chosen)
		json_string(w, ipuxcom_fanout_method_name(d->chosen));
	else
		json_null(w);
	json_kv_string(w, "reason", d->reason);
}

static int fanout_run(struct cli_call *call, int argc, char **argv)
{
	struct plan_opts o = { 0 };
	struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL };
	struct ipuxcom_plan_error e;
	struct ipuxcom_dispatch d = IPUXCOM_DISPATCH_INIT;
	const struct ipuxcom_timing *tm;
	struct ipuxcom_timing *owned;
	struct json_writer w;
	struct fanout_buf *b;
	const struct cli_opt opts[] = {
		OPT_PHYSICAL(o), OPT_TIMING(o), OPTS_ADDR(o),
		{ "method", 'm', "METHOD", "auto (default), multicast, serialized or relay",
		  NULL, &o.method },
	};
	char *pos[PLAN_MAX_POS];
	size_t nrows = 0;
	uint32_t methods, rounds = 0;
	int npos, rc;

	rc = cli_parse(call, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), true, pos,
		       PLAN_MAX_POS, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	methods = method_bits(o.method);
	if (!methods)
		return cli_usage_err(call, "invalid --method '%s' (auto, multicast, serialized "
				     "or relay)", o.method);
	b = calloc(1, sizeof(*b));
	if (!b) {
		cli_err(call->what, "out of memory");
		return CLI_EXIT_ERR;
	}
	rc = fanout_args(call, &o, pos, npos, &req, b->ids, b->dst);
	if (!rc)
		rc = plan_timing(call, &o, &tm, &owned);
	if (rc) {
		free(b);
		return rc;
	}
	if (ipuxcom_plan_dispatch(tm, &req, methods, &d, &e)) {
		/* Infeasible: each method's reason, then the library's message. */
		if (e.code == IPUXCOM_PLAN_E_INFEASIBLE && !call->json)
			dispatch_out(NULL, &d);
		rc = plan_lib_err(call, &e);
		goto out;
	}
	switch (d.chosen) {
	case IPUXCOM_FANOUT_MULTICAST:
		rc = ipuxcom_plan_multicast(tm, &req, b->rows, req.nrecv + 1, NULL, &e);
		nrows = req.nrecv + 1;
		break;
	case IPUXCOM_FANOUT_SERIALIZED:
		rc = ipuxcom_plan_serialized(tm, &req, b->rows, req.nrecv + 1, NULL, &e);
		nrows = req.nrecv + 1;
		break;
	default:
		rc = ipuxcom_plan_relay(&req, b->steps, req.nrecv, &rounds, &e);
		break;
	}
	if (rc) {
		rc = plan_lib_err(call, &e);
		goto out;
	}
	if (call->json) {
		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "kind", "fanout");
		json_kv_string(&w, "timing_model", ipuxcom_timing_name(tm));
		json_kv_uint(&w, "count", req.count);
		dispatch_out(&w, &d);
		if (nrows) {
			rows_json(&w, b->rows, nrows);
		} else {
			json_kv_uint(&w, "rounds", rounds);
			json_key(&w, "steps");
			json_begin_array(&w);
			for (uint32_t i = 0; i < req.nrecv; i++) {
				json_begin_object(&w);
				json_kv_uint(&w, "round", b->steps[i].round);
				json_kv_uint(&w, "sender", b->steps[i].sender);
				json_kv_uint(&w, "receiver", b->steps[i].receiver);
				json_end_object(&w);
			}
			json_end_array(&w);
		}
		json_end_object(&w);
	} else {
		printf("fanout: %u word%s to %u receiver%s, timing %s\n", req.count, cli_s(req.count),
		       req.nrecv, cli_s(req.nrecv),
		       ipuxcom_timing_name(tm));
		dispatch_out(NULL, &d);
		if (nrows) {
			rows_text(b->rows, nrows);
		} else {
			printf("relay tree: %u round%s; each step is "
			       "'" CLI_PROG " plan p2p SENDER RECEIVER %u --physical'\n", rounds,
			       cli_s(rounds), req.count);
			for (uint32_t i = 0; i < req.nrecv; i++)
				printf("  round %u: physical %u -> physical %u\n", b->steps[i].round,
				       b->steps[i].sender, b->steps[i].receiver);
		}
	}
	rc = CLI_EXIT_OK;
out:
	ipuxcom_timing_free(owned);
	free(b);
	return rc;
}

/* -------------------------------------------------------------- decode */

/* Largest input `plan decode` reads: a whole tile's SRAM as text, with room to spare. */
#define DECODE_MAX_FILE	(16u << 20)

/* The words to decode: WORD arguments, else FILE (default '-': stdin). */
static int decode_words(struct cli_call *call, char **pos, int npos, const char *file,
			bool binary, uint32_t **words, size_t *n)
{
	char *data;
	size_t len;
	int rc;

	/* "decode -": FILE '-', as every command that reads a file takes it. */
	if (npos == 1 && !strcmp(pos[0], "-")) {
		if (file)
			return cli_usage_err(call, "give '-' or --file FILE, not both");
		file = pos[0];
		npos = 0;
	}
	if (npos && file)
		return cli_usage_err(call, "give WORDs or --file FILE, not both");
	if (npos && binary)
		return cli_usage_err(call, "--binary is for --file FILE or standard input");
	if (npos) {
		*words = malloc((size_t)npos * sizeof(**words));
		if (!*words) {
			cli_err(call->what, "out of memory");
			return CLI_EXIT_ERR;
		}
		for (int i = 0; i < npos; i++) {
			if (!cli_parse_word(pos[i], strlen(pos[i]), &(*words)[i])) {
				free(*words);
				return cli_usage_err(call, "invalid word '%s' (" CLI_WORD_GRAMMAR ")",
						     pos[i]);
			}
		}
		*n = (size_t)npos;
		return 0;
	}
	/* Nobody types words at a terminal: that is a forgotten argument. */
	if (!file && isatty(STDIN_FILENO))
		return cli_usage_err(call, "need WORD... (or words on standard input)");
	if (!file)
		file = "-";
	rc = cli_read_input(call, file, DECODE_MAX_FILE, &data, &len);
	if (rc)
		return rc;
	rc = cli_words_parse(call, cli_input_name(file), data, len, binary, words, n);
	free(data);
	return rc;
}

static int decode_run(struct cli_call *call, int argc, char **argv)
{
	const char *file = NULL;
	bool binary = false;
	const struct cli_opt opts[] = {
		{ "file", 'f', "FILE", "read the words from FILE ('-': stdin, the default "
		  "without WORDs)", NULL, &file },
		{ "binary", 'b', NULL, "the input is little-endian binary words (default: "
		  "binary unless it is all text)", &binary, NULL },
	};
	char *pos[256];
	uint32_t *words;
	struct json_writer w;
	char buf[64];
	size_t n, used = 1;
	int npos, rc;

	rc = cli_parse(call, argc, argv, opts, 2, true, pos, 256, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = decode_words(call, pos, npos, file, binary, &words, &n);
	if (rc)
		return rc;
	if (call->json) {
		json_init_call(&w, stdout, call);
		json_begin_array(&w);
	}
	for (size_t i = 0; i < n; i += used) {
		struct ipuxcom_decoded d;
		uint32_t nargs;
		char hex[16];

		/* A sendpicp takes two words: shown as one instruction. */
		ipuxcom_disasm_insn(&words[i], n - i, buf, sizeof(buf), &used);
		if (!call->json) {
			if (used == 2)
				printf("0x%08" PRIx32 " 0x%08" PRIx32 "  %s\n", words[i],
				       words[i + 1], buf);
			else
				printf("0x%08" PRIx32 "  %s\n", words[i], buf);
			continue;
		}
		/* The whole instruction's fields (half a sendpicp is a .word). */
		ipuxcom_decode_insn(&words[i], used, &d);
		json_begin_object(&w);
		snprintf(hex, sizeof(hex), "0x%08" PRIx32, words[i]);
		json_kv_string(&w, "word", hex);
		if (used == 2) {
			snprintf(hex, sizeof(hex), "0x%08" PRIx32, words[i + 1]);
			json_kv_string(&w, "word2", hex);
		}
		json_kv_string(&w, "op", ipuxcom_op_name(d.op));
		json_key(&w, "asm");
		json_asm(&w, buf);
		json_key(&w, "comment");
		json_asm_comment(&w, buf);
		json_kv_uint(&w, "nwords", d.nwords);
		if (d.op != IPUXCOM_OP_WORD && d.op != IPUXCOM_OP_FIXED) {
			/* The encoder's arguments, in the asm text's order. */
			nargs = d.op == IPUXCOM_OP_SENDPICP ? 6 : 3;
			json_key(&w, "args");
			json_begin_array(&w);
			for (uint32_t k = 0; k < nargs; k++)
				json_uint(&w, d.f[k]);
			json_end_array(&w);
			if (d.op != IPUXCOM_OP_SENDPICP) {
				/* struct ipuxcom_insn's names for one-word instructions */
				json_kv_uint(&w, "a", d.f[0]);
				json_kv_uint(&w, "b", d.f[1]);
				json_kv_uint(&w, "c", d.f[2]);
			}
		}
		json_end_object(&w);
	}
	if (call->json)
		json_end_array(&w);
	free(words);
	return CLI_EXIT_OK;
}

/* ---------------------------------------------------------------- tile */

static int tile_run(struct cli_call *call, int argc, char **argv)
{
	struct plan_opts o = { 0 };
	const struct cli_opt opts[] = { OPT_PHYSICAL(o) };
	struct ipuxcom_tile t[16];
	struct ipuxcom_plan_error e;
	struct json_writer w;
	char *pos[16];
	uint32_t id;
	int npos, rc;

	rc = cli_parse(call, argc, argv, opts, 1, true, pos, 16, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (!npos)
		return cli_usage_err(call, "need ID...");
	for (int i = 0; i < npos; i++) {
		if ((rc = plan_tiles(call, &pos[i], 1, "tile", &id)))
			return rc;
		if (ipuxcom_tile_info(id, o.physical ? IPUXCOM_PLAN_PHYSICAL : IPUXCOM_PLAN_LOGICAL,
				      &t[i], &e))
			return plan_lib_err(call, &e);
	}
	if (call->json) {
		json_init_call(&w, stdout, call);
		json_begin_array(&w);
	}
	for (int i = 0; i < npos; i++) {
		if (!call->json) {
			printf("logical %u physical %u row %u column %u pair physical %u "
			       "(logical %u)\n", t[i].logical, t[i].physical, t[i].row, t[i].column,
			       t[i].pair_physical, t[i].pair_logical);
			continue;
		}
		json_begin_object(&w);
		json_kv_uint(&w, "logical", t[i].logical);
		json_kv_uint(&w, "physical", t[i].physical);
		json_kv_uint(&w, "row", t[i].row);
		json_kv_uint(&w, "column", t[i].column);
		json_kv_uint(&w, "pair_physical", t[i].pair_physical);
		json_kv_uint(&w, "pair_logical", t[i].pair_logical);
		json_end_object(&w);
	}
	if (call->json)
		json_end_array(&w);
	return CLI_EXIT_OK;
}

/* ---------------------------------------------------------------- idle */

static int idle_run(struct cli_call *call, int argc, char **argv)
{
	struct plan_opts o = { 0 };
	const struct cli_opt opts[] = {
		OPT_PHYSICAL(o),
		{ "raw", 0, NULL, "only the two nonparticipation words, no br $m10", &o.raw, NULL },
	};
	struct ipuxcom_plan_row row;
	struct ipuxcom_plan_error e;
	uint32_t id;
	char *pos[1];
	int npos, rc;

	rc = cli_parse(call, argc, argv, opts, 2, true, pos, 1, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos != 1)
		return cli_usage_err(call, "need TILE");
	if ((rc = plan_tiles(call, pos, 1, "tile", &id)))
		return rc;
	if (ipuxcom_plan_idle(id, (o.physical ? IPUXCOM_PLAN_PHYSICAL : IPUXCOM_PLAN_LOGICAL) |
			      (o.raw ? IPUXCOM_IDLE_RAW : 0), &row, &e))
		return plan_lib_err(call, &e);
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "kind", "idle");
		rows_json(&w, &row, 1);
		json_end_object(&w);
	} else {
		row_text(&row, "idle");
	}
	return CLI_EXIT_OK;
}

/* -------------------------------------------------------------- timing */

static int timing_run(struct cli_call *call, int argc, char **argv)
{
	struct plan_opts o = { 0 };
	const struct cli_opt opts[] = {
		OPT_PHYSICAL(o), OPT_TIMING(o),
		{ "export", 'o', "FILE", "write the model as a timing table file", NULL,
		  &o.export_path },
	};
	const struct ipuxcom_timing *tm;
	struct ipuxcom_timing *owned;
	struct ipuxcom_plan_error e;
	uint32_t ids[2], s, d;
	unsigned int dir;
	char *pos[2];
	int npos, rc, t;

	rc = cli_parse(call, argc, argv, opts, 3, true, pos, 2, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos != 2 && !(npos == 0 && o.export_path))
		return cli_usage_err(call, "need SRC DST (or --export FILE)");
	/* --export -: the table on stdout, the SRC DST line on stderr. */
	if ((rc = outfile_claim_stdout(call, o.export_path)))
		return rc;
	if ((rc = plan_tiles(call, pos, npos, "tile", ids)))
		return rc;
	rc = plan_timing(call, &o, &tm, &owned);
	if (rc)
		return rc;
	if (o.export_path) {
		struct outfile *out;

		rc = outfile_open(call, o.export_path, &out);
		if (rc) {
			ipuxcom_timing_free(owned);
			return rc;
		}
		if (ipuxcom_timing_write(tm, outfile_stream(out), 0, &e)) {
			outfile_close(out, false);
			ipuxcom_timing_free(owned);
			if (e.code != IPUXCOM_PLAN_E_IO)
				return plan_lib_err(call, &e);
			/* The library says "write error": the file and the errno too. */
			cli_err(call->what, "%s: write error: %s", cli_input_name(o.export_path),
				cli_write_strerror(-e.err));
			return CLI_EXIT_ERR;
		}
		rc = outfile_close(out, true);
		if (rc) {
			ipuxcom_timing_free(owned);
			return rc;
		}
		if (!npos) {
			ipuxcom_timing_free(owned);
			return CLI_EXIT_OK;
		}
	}
	for (int i = 0; i < 2; i++) {
		struct ipuxcom_tile ti;

		if (ipuxcom_tile_info(ids[i],
				      o.physical ? IPUXCOM_PLAN_PHYSICAL : IPUXCOM_PLAN_LOGICAL, &ti, &e)) {
			ipuxcom_timing_free(owned);
			return plan_lib_err(call, &e);
		}
		ids[i] = ti.physical;
	}
	s = ids[0];
	d = ids[1];
	rc = ipuxcom_time_to_mux(tm, s, d, &t, &e);
	if (!rc)
		rc = ipuxcom_route_direction(tm, s, d, &dir, &e);
	if (rc) {
		ipuxcom_timing_free(owned);
		return plan_lib_err(call, &e);
	}
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "timing_model", ipuxcom_timing_name(tm));
		json_kv_uint(&w, "src_physical", s);
		json_kv_uint(&w, "dst_physical", d);
		json_kv_int(&w, "time_to_mux", t);
		json_kv_uint(&w, "direction", dir);
		json_end_object(&w);
	} else {
		printf("timing %s: physical %u -> %u: TimeToMux %d, direction %u\n",
		       ipuxcom_timing_name(tm), s, d, t, dir);
	}
	ipuxcom_timing_free(owned);
	return CLI_EXIT_OK;
}

/* ------------------------------------------------------------ schedule */

/* Largest transfer list read. */
#define SCHED_MAX_FILE	(16u << 20)

/* A recognisable source word: tile and address mixed. */
static uint32_t sched_pattern(uint32_t tile, uint32_t addr)
{
	return (tile + 1) * 0x9e3779b9u ^ addr ^ (addr >> 7);
}

struct sched_check {
	bool ran;
	int rc;				/* library error, or 0 */
	struct ipuxcom_plan_error e;
	struct ipuxcom_xsim_result res;
	uint32_t mismatches;		/* destination words differing from their source */
};

/*
 * Simulate @list's transfers, by @s (packed) or by the stagger of @step
 * events: source buffers get a pattern, then every destination is compared
 * with its source. The simulator stays in *@simp for the hazard list.
 */
static void sched_verify(const struct ipuxcom_timing *tm, const struct ipuxcom_sched_list *list,
			 const struct ipuxcom_schedule *s, const struct ipuxcom_sched_opts *so,
			 uint32_t step, uint32_t sim_flags, struct ipuxcom_xsim **simp,
			 struct sched_check *c)
{
	struct ipuxcom_xsim_config cfg = { .size = sizeof(struct ipuxcom_xsim_config), .timing = tm,
		.flags = sim_flags };
	struct ipuxcom_xsim *sim;

	memset(c, 0, sizeof(*c));
	c->res.size = sizeof(c->res);
	*simp = NULL;
	if ((c->rc = ipuxcom_xsim_create(&cfg, &sim, &c->e)))
		return;
	*simp = sim;
	for (size_t i = 0; i < list->n; i++) {
		const struct ipuxcom_sched_xfer *x = &list->xfers[i];

		for (uint32_t k = 0; k < x->count; k++) {
			uint32_t a = x->src_addr + 4 * k;

			if ((c->rc = ipuxcom_xsim_sram_fill(sim, x->sender, a,
							    sched_pattern(x->sender, a), 1, &c->e)))
				return;
		}
	}
	if (s)
		c->rc = ipuxcom_schedule_load(s, sim, 0, &c->e);
	else
		c->rc = ipuxcom_schedule_stagger(so, list->xfers, list->n, step, sim, 0, &c->e);
	if (c->rc || (c->rc = ipuxcom_xsim_run(sim, &c->res, &c->e)))
		return;
	c->ran = true;
	for (size_t i = 0; i < list->n; i++) {
		const struct ipuxcom_sched_xfer *x = &list->xfers[i];

		for (uint32_t r = 0; r < x->nrecv; r++) {
			for (uint32_t k = 0; k < x->count; k++) {
				uint32_t v = 0;

				ipuxcom_xsim_sram_read(sim, x->receivers[r], x->dst_addr[r] + 4 * k,
						       &v, 1, NULL);
				c->mismatches += v != sched_pattern(x->sender, x->src_addr + 4 * k);
			}
		}
	}
}

static void sched_hazards_text(const struct ipuxcom_xsim *sim, size_t max)
{
	const struct ipuxcom_xsim_hazard *h;
	char buf[400];
	size_t n;

	h = ipuxcom_xsim_hazards(sim, &n);
	for (size_t i = 0; i < n && i < max; i++) {
		ipuxcom_xsim_hazard_format(&h[i], buf, sizeof(buf));
		printf("  %s\n", buf);
	}
	if (n > max)
		printf("  ... %zu more\n", n - max);
}

static void sched_check_json(struct json_writer *w, const char *key, const struct ipuxcom_xsim *sim,
			     const struct sched_check *c)
{
	const struct ipuxcom_xsim_hazard *h;
	char buf[400];
	size_t n;

	json_key(w, key);
	json_begin_object(w);
	json_key(w, "ran");
	json_bool(w, c->ran);
	if (!c->ran) {
		json_kv_string(w, "error", c->e.msg);
		json_end_object(w);
		return;
	}
	json_kv_uint(w, "events", c->res.events);
	json_kv_uint(w, "errors", c->res.errors);
	json_kv_uint(w, "notes", c->res.notes);
	json_kv_uint(w, "declared", c->res.declared);
	json_kv_uint(w, "delivered", c->res.delivered);
	json_kv_uint(w, "mismatched_words", c->mismatches);
	json_key(w, "hazards");
	json_begin_array(w);
	h = ipuxcom_xsim_hazards(sim, &n);
	for (size_t i = 0; i < n; i++) {
		ipuxcom_xsim_hazard_format(&h[i], buf, sizeof(buf));
		json_string(w, buf);
	}
	json_end_array(w);
	json_end_object(w);
}

static bool sched_clean(const struct sched_check *c)
{
	return c->ran && !c->res.errors && c->res.delivered == c->res.declared && !c->mismatches;
}

/* "xfers[3].receivers[1]" -> 3, or -1. */
static long sched_xfer_of(const char *field)
{
	char *end;
	long i;

	if (strncmp(field, "xfers[", 6))
		return -1;
	i = strtol(field + 6, &end, 10);
	return *end == ']' ? i : -1;
}

/*
 * The packed phase (@packed names it: the default's or --legacy's), then
 * (with @step) the stagger's, as a Chrome trace in @path.
 */
static int sched_trace(const struct cli_call *call, const char *path, const char *packed,
		       const struct ipuxcom_xsim *sim, const struct sched_check *pc,
		       const struct ipuxcom_xsim *ssim, const struct sched_check *sc, uint32_t step)
{
	struct trace_writer *t;
	char name[64];
	struct outfile *o;

	if (!pc->ran && !(ssim && sc->ran)) {
		cli_err(call->what, "%s: no phase was simulated to trace: %s", path, pc->e.msg);
		return CLI_EXIT_ERR;
	}
	t = malloc(sizeof(*t));
	if (!t) {
		cli_err(call->what, "%s: out of memory", path);
		return CLI_EXIT_ERR;
	}
	if (outfile_open(call, path, &o)) {
		free(t);
		return CLI_EXIT_ERR;
	}
	trace_begin(t, outfile_stream(o));
	if (pc->ran)
		trace_phase(t, sim, &pc->res, packed);
	if (ssim && sc->ran) {
		snprintf(name, sizeof(name), "stagger (%u event%s per transfer)", step, cli_s(step));
		trace_phase(t, ssim, &sc->res, name);
	}
	trace_end(t);
	free(t);
	return outfile_close(o, true);
}

/* The route width a scheduled transfer got, and why not 64-bit: "32-bit (odd count)". */
static void sched_route_text(const struct ipuxcom_schedule_slot *sl, char *buf, size_t len)
{
	if (sl->sctl & IPUXCOM_SCTL_WIDE)
		snprintf(buf, len, "64-bit");
	else
		snprintf(buf, len, "32-bit (%s)", ipuxcom_plan_wide_str(sl->wide));
}

static int schedule_run(struct cli_call *call, int argc, char **argv)
{
	struct plan_opts o = { 0 };
	bool exact = false, rows = false, legacy = false, quick = false;
	const char *step_arg = NULL, *trace_arg = NULL, *effort_arg = NULL;
	const struct cli_opt opts[] = {
		OPT_PHYSICAL(o), OPT_TIMING(o),
		{ "exact-window", 0, NULL, "close each mux right after its words (modelled; "
		  "default: the notes' window, 2 x row longer at counts >= 52)", &exact, NULL },
		{ "legacy", 0, NULL, "today's packing, for comparison: 32-bit streams only, no "
		  "merged controls", &legacy, NULL },
		{ "quick", 0, NULL, "no search: the transfers placed once in their order (a few "
		  "times legacy's build time, for schedules built at run time; the phase is "
		  "still never longer than --legacy's)", &quick, NULL },
		{ "effort", 0, "N", "search at most N times the first placement's work "
		  "(1..65536; default: a fixed budget): low for run-time builds, high for "
		  "the shortest phases", NULL, &effort_arg },
		{ "stagger", 0, "STEP", "compare with the notes' fixed stagger of STEP events per "
		  "transfer (default 256, 0: no comparison)", NULL, &step_arg },
		{ "rows", 'r', NULL, "print every tile's program", &rows, NULL },
		{ "trace", 0, "FILE", "write the simulated phase (then the stagger's) as a Chrome "
		  "trace JSON timeline ('-': stdout; docs/pictures.md)", NULL, &trace_arg },
	};
	const struct ipuxcom_timing *tm;
	struct ipuxcom_timing *owned = NULL;
	struct ipuxcom_sched_list *list = NULL;
	struct ipuxcom_schedule *s = NULL;
	struct ipuxcom_xsim *sim = NULL, *ssim = NULL;
	struct sched_check pc, sc;
	struct ipuxcom_sched_opts so = IPUXCOM_SCHEDULE_OPTS_INIT;
	struct ipuxcom_schedule_bound bound = IPUXCOM_SCHEDULE_BOUND_INIT;
	struct ipuxcom_plan_error e;
	uint32_t step = 256, longest = 0, sim_flags, effort = 0;
	char route[96], *pos[1], *text = NULL;
	size_t len = 0;
	int npos, rc;

	rc = cli_parse(call, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), true, pos, 1,
		       &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos != 1)
		return cli_usage_err(call, "need FILE (a transfer list; '-' for stdin)");
	if (step_arg && !cli_parse_u32_num(step_arg, &step))
		return cli_usage_err(call, "invalid --stagger '%s'", step_arg);
	if (effort_arg && (!cli_parse_u32_num(effort_arg, &effort) || !effort ||
			   effort > IPUXCOM_SCHEDULE_EFFORT_MAX))
		return cli_usage_err(call, "invalid --effort '%s' (1..%u)", effort_arg,
				     IPUXCOM_SCHEDULE_EFFORT_MAX);
	if (effort_arg && (quick || legacy))
		return cli_usage_err(call, "--effort with --%s, which does no search",
				     legacy ? "legacy" : "quick");
	/* --trace -: the trace on stdout, the schedule's report on stderr. */
	if ((rc = outfile_claim_stdout(call, trace_arg)))
		return rc;
	if ((rc = plan_timing(call, &o, &tm, &owned)))
		return rc;
	/* The trace shows receives: the writes the run otherwise forgets. */
	sim_flags = trace_arg ? IPUXCOM_XSIM_LOG_WRITES : 0;
	if ((rc = cli_read_input(call, pos[0], SCHED_MAX_FILE, &text, &len)))
		goto out;
	if (ipuxcom_schedule_list_parse(text, len, o.physical ? IPUXCOM_SCHED_LIST_PHYSICAL : 0,
				     &list, &e)) {
		char msg[PATH_MAX + sizeof(e.msg)];

		cli_file_msg(pos[0], e.msg, msg, sizeof(msg));
		cli_err(call->what, "%s", msg);
		rc = CLI_EXIT_ERR;
		goto out;
	}
	so = (struct ipuxcom_sched_opts){ .size = sizeof(struct ipuxcom_sched_opts), .timing = tm,
					  /* the list holds physical ids */
					  .flags = IPUXCOM_SCHEDULE_PHYSICAL |
						   (exact ? IPUXCOM_SCHED_EXACT_WINDOW : 0) |
						   (legacy ? IPUXCOM_SCHED_LEGACY : 0) |
						   (quick ? IPUXCOM_SCHEDULE_QUICK : 0),
					  .effort = effort };
	if (ipuxcom_schedule_build(&so, list->xfers, list->n, &s, &e)) {
		long i = sched_xfer_of(e.field);

		if (i >= 0 && (size_t)i < list->n)
			cli_err(call->what, "%s:%u: %s", pos[0], list->line[i], e.msg);
		else
			cli_err(call->what, "%s: %s", pos[0], e.msg);
		rc = CLI_EXIT_ERR;
		goto out;
	}
	/* The lower bound (issue 25): the same transfers, ids and timing as the build. */
	if (ipuxcom_schedule_bound(&so, list->xfers, list->n, &bound, &e)) {
		cli_err(call->what, "%s: bound: %s", pos[0], e.msg);
		rc = CLI_EXIT_ERR;
		goto out;
	}
	sched_verify(tm, list, s, NULL, 0, sim_flags, &sim, &pc);
	if (step)
		sched_verify(tm, list, NULL, &(struct ipuxcom_sched_opts){
				.size = sizeof(struct ipuxcom_sched_opts), .timing = tm,
				.flags = IPUXCOM_SCHEDULE_PHYSICAL }, step, sim_flags, &ssim, &sc);
	if (trace_arg && (rc = sched_trace(call, trace_arg,
					   legacy ? "packed schedule (legacy)" :
					   quick ? "packed schedule (quick)" : "packed schedule",
					   sim, &pc, step ? ssim : NULL, &sc, step)))
		goto out;
	for (size_t i = 0; i < ipuxcom_schedule_nprograms(s); i++) {
		struct ipuxcom_xsim_program p;

		ipuxcom_schedule_program(s, i, &p);
		if (p.nwords > longest)
			longest = p.nwords;
	}
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "kind", "schedule");
		json_kv_string(&w, "timing_model", ipuxcom_timing_name(tm));
		json_kv_string(&w, "window", exact ? "exact" : "notes");
		json_kv_string(&w, "scheduler", legacy ? "legacy" : quick ? "quick" : "default");
		if (effort)
			json_kv_uint(&w, "effort", effort);
		json_kv_uint(&w, "events", ipuxcom_schedule_events(s));
		/* issue 25: no schedule the verifier accepts is shorter than bound.events */
		json_key(&w, "bound");
		json_begin_object(&w);
		json_kv_uint(&w, "events", bound.events);
		json_kv_uint(&w, "route", bound.route);
		json_kv_uint(&w, "route_xfer", bound.route_xfer);
		json_kv_uint(&w, "route_tile", bound.route_tile);
		json_kv_uint(&w, "receive", bound.receive);
		json_kv_uint(&w, "receive_tile", bound.receive_tile);
		json_kv_uint(&w, "send", bound.send);
		json_kv_uint(&w, "send_tile", bound.send_tile);
		json_end_object(&w);
		json_key(&w, "events_over_bound");
		if (bound.events)
			json_fixed(&w, (double)ipuxcom_schedule_events(s) / bound.events, 3);
		else
			json_null(&w);
		/* sender, receivers and programs' tiles: physical ids, whatever the list used */
		json_kv_string(&w, "tile_ids", "physical");
		json_key(&w, "transfers");
		json_begin_array(&w);
		for (size_t i = 0; i < list->n; i++) {
			const struct ipuxcom_sched_xfer *x = &list->xfers[i];
			struct ipuxcom_sched_slot sl = IPUXCOM_SCHEDULE_SLOT_INIT;

			ipuxcom_schedule_slot(s, i, &sl);
			json_begin_object(&w);
			json_kv_uint(&w, "line", list->line[i]);
			json_kv_uint(&w, "sender", x->sender);
			json_kv_uint(&w, "count", x->count);
			json_key(&w, "receivers");
			json_begin_array(&w);
			for (uint32_t r = 0; r < x->nrecv; r++)
				json_uint(&w, x->receivers[r]);
			json_end_array(&w);
			json_kv_hex32(&w, "src_addr", x->src_addr);
			/* each receiver's destination, at the index of "receivers" */
			json_key(&w, "dst_addrs");
			json_begin_array(&w);
			for (uint32_t r = 0; r < x->nrecv; r++)
				json_hex32(&w, x->dst_addr[r]);
			json_end_array(&w);
			/* the route width it got: sctl, items, route, why (null: 64-bit) */
			wide_json(&w, true, sl.sctl, sl.items, sl.wide);
			json_kv_int(&w, "start", sl.start);
			json_kv_int(&w, "first_arrival", sl.first_arrival);
			json_kv_int(&w, "last_write", sl.last_write);
			json_kv_uint(&w, "gap", sl.gap);
			json_end_object(&w);
		}
		json_end_array(&w);
		if (rows) {
			json_key(&w, "programs");
			json_begin_array(&w);
			for (size_t i = 0; i < ipuxcom_schedule_nprograms(s); i++) {
				struct ipuxcom_xsim_program p;

				ipuxcom_schedule_program(s, i, &p);
				json_begin_object(&w);
				json_kv_uint(&w, "physical", p.tile);
				json_key(&w, "words");
				json_begin_array(&w);
				for (uint32_t k = 0; k < p.nwords; k++)
					json_hex32(&w, p.words[k]);
				json_end_array(&w);
				json_end_object(&w);
			}
			json_end_array(&w);
		}
		sched_check_json(&w, "simulated", sim, &pc);
		if (step) {
			json_kv_uint(&w, "stagger_step", step);
			sched_check_json(&w, "stagger", ssim, &sc);
		}
		json_end_object(&w);
	} else {
		printf("schedule: %zu transfer%s from %s, timing %s, %s receive window%s\n",
		       list->n, list->n == 1 ? "" : "s", pos[0], ipuxcom_timing_name(tm),
		       exact ? "exact (modelled)" : "the notes'",
		       legacy ? ", legacy scheduler (32-bit streams, no merged controls)" :
		       quick ? ", quick scheduler (no search)" : "");
		if (effort)
			printf("  search effort %u: at most %u x the first placement's work\n",
			       effort, effort);
		/* Tile ids physical, labelled so; the route width each transfer got. */
		printf("  #  line kind      physical-sender words recv  start arrive lastwr gap "
		       "route\n");
		for (size_t i = 0; i < list->n; i++) {
			const struct ipuxcom_sched_xfer *x = &list->xfers[i];
			struct ipuxcom_sched_slot sl = IPUXCOM_SCHEDULE_SLOT_INIT;

			ipuxcom_schedule_slot(s, i, &sl);
			sched_route_text(&sl, route, sizeof(route));
			printf("%3zu %5u %-9s %15u %5u %4u %6d %6d %6d %3u %s\n", i, list->line[i],
			       x->nrecv == 1 ? "p2p" : "multicast", x->sender, x->count, x->nrecv,
			       sl.start, sl.first_arrival, sl.last_write, sl.gap, route);
		}
		printf("phase: %u event%s; programs on %zu tile%s (longest %u word%s)\n",
		       ipuxcom_schedule_events(s), cli_s(ipuxcom_schedule_events(s)),
		       ipuxcom_schedule_nprograms(s), cli_s(ipuxcom_schedule_nprograms(s)), longest,
		       cli_s(longest));
		if (bound.events)
			printf("bound: %u events (route %u, receive %u at tile %u, send %u at tile %u; "
			       "no schedule the verifier accepts is shorter); phase / bound = %.3f\n",
			       bound.events, bound.route, bound.receive, bound.receive_tile, bound.send,
			       bound.send_tile, (double)ipuxcom_schedule_events(s) / bound.events);
		if (rows) {
			for (size_t i = 0; i < ipuxcom_schedule_nprograms(s); i++) {
				struct ipuxcom_xsim_program p;
				uint32_t lg = 0;
				char buf[64];

				ipuxcom_schedule_program(s, i, &p);
				ipuxcom_tile_logical(p.tile, &lg);
				printf("tile: physical %u (logical %u, row %u), %u words\n", p.tile, lg,
				       p.tile / IPUXCOM_PHYS_COLS, p.nwords);
				for (uint32_t k = 0; k < p.nwords; k++) {
					size_t used = 1;

					ipuxcom_disasm_insn(&p.words[k], p.nwords - k, buf,
							    sizeof(buf), &used);
					printf("  %2u  0x%08" PRIx32 "  %s\n", k, p.words[k], buf);
					if (used == 2) {
						k++;
						printf("  %2u  0x%08" PRIx32 "  (sendpicp word 2)\n",
						       k, p.words[k]);
					}
				}
			}
		}
		if (pc.ran) {
			printf("simulated: %u of %u deliveries complete and in place, %u word%s "
			       "differ%s from their source; %u error%s, %u note%s\n",
			       pc.res.delivered, pc.res.declared, pc.mismatches, cli_s(pc.mismatches),
			       pc.mismatches == 1 ? "s" : "", pc.res.errors, cli_s(pc.res.errors),
			       pc.res.notes, cli_s(pc.res.notes));
			sched_hazards_text(sim, 20);
		} else {
			printf("simulated: failed: %s\n", pc.e.msg);
		}
		if (step && sc.ran) {
			printf("stagger (%u event%s per transfer, the notes' rows overlaid): %u event%s, "
			       "%u error%s, %u note%s%s\n", step, cli_s(step), sc.res.events,
			       cli_s(sc.res.events), sc.res.errors, cli_s(sc.res.errors),
			       sc.res.notes, cli_s(sc.res.notes), sched_clean(&sc) ? "" : " (not clean)");
			if (sc.res.events)
				printf("packed / stagger = %.1f%%\n",
				       100.0 * ipuxcom_schedule_events(s) / sc.res.events);
		} else if (step) {
			printf("stagger (%u event%s per transfer): not assembled: %s\n", step, cli_s(step),
			       sc.e.msg);
		}
	}
	rc = sched_clean(&pc) ? CLI_EXIT_OK : CLI_EXIT_ERR;
	if (rc)
		cli_err(call->what, "the simulator does not confirm the schedule");
out:
	ipuxcom_xsim_free(sim);
	ipuxcom_xsim_free(ssim);
	ipuxcom_schedule_free(s);
	ipuxcom_schedule_list_free(list);
	free(text);
	ipuxcom_timing_free(owned);
	return rc;
}

static const struct cli_cmd plan_cmds[] = {
	{
		.name = "p2p",
		.args = "SRC DST COUNT [OPTIONS]",
		.summary = "point-to-point plan: sender and receiver rows",
		.description =
			"Plan COUNT words (1..4148) from tile SRC to tile DST (logical ids unless\n"
			"--physical) and print both nine-word rows as hex with disassembly.\n"
			"--wide: a 64-bit route (sctl bit 2, two words per event on the XOR-2 pair)\n"
			"when COUNT is even (up to 8296), --src-addr/--dst-addr are 8-byte aligned\n"
			"and DST owns its pair's XPIC stream; else the 32-bit plan, and why.",
		.run = p2p_run,
	},
	{
		.name = "multicast",
		.args = "SRC COUNT DST... [OPTIONS]",
		.summary = "one mode-3 stream to many receivers",
		.description =
			"Plan a proper multicast of COUNT words from SRC to every DST. Addresses are\n"
			"absolute tile SRAM byte addresses (default 0x50000, placeholders that the\n"
			"vertices patch at run time); destinations must lie in 0x50000-0x5ffff,\n"
			"0x70000-0x7ffff or 0xd0000-0xdffff (inferred, see docs/exchange-plans.md).\n"
			"--wide: 64-bit items (sctl 7, COUNT / 2 events) when COUNT is even, every\n"
			"address 8-byte aligned and every DST owns its XOR-2 pair for SRC (its\n"
			"partner not SRC, not a DST, and reached later); else the 32-bit plan, and why.",
		.run = multicast_run,
	},
	{
		.name = "fanout",
		.args = "SRC COUNT DST... [OPTIONS]",
		.summary = "choose multicast, serialized fan-out or relay tree by cost",
		.description =
			"Cost every allowed fan-out method (multicast: 1 launch, 156 + COUNT cycles;\n"
			"serialized and relay: modelled), print the candidates, the choice and why,\n"
			"then the chosen plan (rows, or relay steps).",
		.run = fanout_run,
	},
	{
		.name = "decode",
		.args = "[WORD...|-f FILE|-] [-b] [-j]",
		.summary = "disassemble instruction words",
		.description =
			"Disassemble each WORD (hexadecimal, 1..8 digits, 0x optional). Words this\n"
			"library does not know print as '.word 0x...'. Without WORDs (or given '-'),\n"
			"the words are read from FILE or standard input: little-endian 32-bit words\n"
			"when the input is binary (or with --binary), else text: words separated by\n"
			"white space or commas, in the same grammar as WORD; 'ADDR:' labels and\n"
			"'#' or ';' comments are skipped. So the output of\n"
			"'" CLI_PROG " tdi read TILE ADDR COUNT' decodes through a pipe.\n"
			"With --json: [{\"word\",\"word2\" (a two-word sendpicp),\"op\",\"asm\",\n"
			"\"comment\",\"nwords\",\"args\" (the encoder's arguments in the asm's order,\n"
			"numbers: 3, or 6 for sendpicp), \"a\",\"b\",\"c\" (one-word instructions:\n"
			"args' three)}...]; a .word has no args.",
		.run = decode_run,
	},
	{
		.name = "tile",
		.args = "ID... [OPTIONS]",
		.summary = "logical/physical ids, row, column, XOR-2 pair",
		.description =
			"Describe each tile ID (logical unless --physical): both ids, physical row\n"
			"and column, and its XOR-2 partner (the other lane of the logical pair).",
		.run = tile_run,
	},
	{
		.name = "idle",
		.args = "TILE [OPTIONS]",
		.summary = "non-participation row for an inactive tile",
		.description =
			"The row an inactive tile runs in an exchange pass: sans, sync 1 (the\n"
			"notes' two raw words), then br $m10 unless --raw.",
		.run = idle_run,
	},
	{
		.name = "schedule",
		.args = "FILE [OPTIONS]",
		.summary = "pack a transfer list into one phase and verify it in the simulator",
		.description =
			"Read a transfer list (docs/exchange-verifier.md; '-' for stdin), one per line:\n"
			"  p2p SRC DST COUNT [src=ADDR] [dst=ADDR]\n"
			"  multicast SRC COUNT DST... [src=ADDR] [dst=ADDR[,ADDR...]]\n"
			"  physical        (ids on later lines are physical; logical by default)\n"
			"pack them into one exchange phase, each as early as its constraints allow,\n"
			"run the phase in the exchange simulator, and compare with the notes' fixed\n"
			"stagger. Exit 1 unless the simulator confirms every delivery. The default\n"
			"scheduler also takes 64-bit routes and merges receive controls into sends,\n"
			"never giving a longer phase than --legacy (today's packing) would; --quick\n"
			"skips its search (for schedules built at run time) and --effort N bounds\n"
			"it. It also prints the lower bound on the phase under the simulator's model\n"
			"(no schedule it accepts is shorter) and the phase / bound ratio.",
		.run = schedule_run,
	},
	{
		.name = "timing",
		.args = "[SRC DST] [OPTIONS]",
		.summary = "TimeToMux and direction of a pair; export a timing table",
		.description =
			"Print TimeToMux(SRC, DST) and the send direction under the timing model\n"
			"(the default reconstruction of the hardware notes' timing, described in\n"
			"docs/exchange-plans.md, or --timing FILE). --export FILE writes the\n"
			"model as a timing table file (format: docs/exchange-plans.md); SRC DST\n"
			"may then be omitted.",
		.run = timing_run,
	},
};

const struct cli_object cli_obj_plan = {
	.name = "plan",
	.summary = "exchange plans: p2p, multicast, fan-out, decode (no device needed)",
	.cmds = plan_cmds,
	.ncmds = sizeof(plan_cmds) / sizeof(plan_cmds[0]),
	.default_cmd = NULL,
};
