// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Exchange verifier: the simulator object, its sparse tile SRAM, programs,
 * transfer declarations, the hazard list and the public entry points. The
 * event model itself is in xsim_run.c; docs/exchange-verifier.md lists
 * every modelling assumption.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "xsim_internal.h"

/* -------------------------------------------------------------- helpers */

bool ixc_xgrow(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return true;
	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			return false;
		n *= 2;
	}
	p = realloc(*arr, n * size);
	if (!p)
		return false;
	*arr = p;
	*cap = n;
	return true;
}

static int ixc_xnomem(struct ipuxcom_plan_error *err, const char *field)
{
	return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, field, "%s: out of memory", field);
}

/* ----------------------------------------------------------------- names */

static const struct {
	const char *name;
	uint32_t severity;
} ixc_xkinds[IPUXCOM_XSIM_KIND_MAX] = {
	[IPUXCOM_XSIM_H_WRONG_SOURCE] = { "wrong-source", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_MUX_OVERLAP] = { "mux-overlap", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_MUX_OPEN_AT_END] = { "mux-open-at-end", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_MISSED] = { "missed", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_WRITE_NO_PIC] = { "write-before-pic", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_WRITE_OUTSIDE] = { "write-outside", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_MISPLACED] = { "misplaced", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_WRITE_AFTER_END] = { "write-after-end", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_SEND_CONFLICT] = { "send-conflict", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_ACTION_CONFLICT] = { "action-conflict", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_SEND_OUTSIDE] = { "send-outside", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_NO_BR] = { "no-br", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_UNDECODABLE] = { "undecodable", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_UNSUPPORTED] = { "unsupported", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_NO_SYNC] = { "no-sync", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_NO_ROW] = { "no-row", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_PHASE_LENGTH] = { "phase-length", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_N_IDLE_WINDOW] = { "idle-window", IPUXCOM_XSIM_NOTE },
	[IPUXCOM_XSIM_N_PIC_EARLY] = { "pic-early", IPUXCOM_XSIM_NOTE },
	[IPUXCOM_XSIM_H_IN_FLIGHT_AT_SYNC] = { "in-flight-at-sync", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_MISALIGNED] = { "misaligned", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_PAIR_CONFLICT] = { "pair-conflict", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_H_SRAM_FETCH] = { "sram-fetch", IPUXCOM_XSIM_ERROR },
	[IPUXCOM_XSIM_N_SRAM_CONTENTION] = { "sram-contention", IPUXCOM_XSIM_NOTE },
};

const char *ipuxcom_xsim_kind_name(uint32_t kind)
{
	if (kind == IPUXCOM_XSIM_H_NONE || kind >= IPUXCOM_XSIM_KIND_MAX)
		return "?";
	return ixc_xkinds[kind].name;
}

uint32_t ipuxcom_xsim_kind_severity(uint32_t kind)
{
	if (kind == IPUXCOM_XSIM_H_NONE || kind >= IPUXCOM_XSIM_KIND_MAX)
		return 0;
	return ixc_xkinds[kind].severity;
}

/* --------------------------------------------------------------- hazards */

static size_t ixc_xhash(uint32_t kind, uint32_t tile, int32_t prog)
{
	uint64_t h = ((uint64_t)kind << 48) ^ ((uint64_t)tile << 24) ^ (uint32_t)prog;

	h *= 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 20);
}

void ixc_xhazard(struct ipuxcom_xsim *sim, uint32_t kind, uint32_t tile, uint32_t other,
		 int32_t event, int32_t prog, int32_t word, const char *fmt, ...)
{
	/* Tiles without a row are one entry for the whole chip. */
	uint32_t key_tile = kind == IPUXCOM_XSIM_H_NO_ROW ? UINT32_MAX : tile;
	size_t mask = sim->nhslots - 1, i = ixc_xhash(kind, key_tile, prog) & mask;
	struct ipuxcom_xsim_hazard *h;
	va_list ap;

	for (;; i = (i + 1) & mask) {
		struct ixc_xhslot *s = &sim->hslots[i];

		if (s->index < 0)
			break;
		if (s->key_kind == kind && s->key_tile == key_tile && s->key_prog == prog) {
			h = &sim->haz[s->index];
			h->occurrences++;
			if (event < h->event)
				h->event = event;
			return;
		}
	}
	if (sim->nhaz >= sim->max_hazards) {
		sim->res.dropped++;
		return;
	}
	sim->hslots[i] = (struct ixc_xhslot){ kind, key_tile, prog, (int32_t)sim->nhaz };
	h = &sim->haz[sim->nhaz++];
	*h = (struct ipuxcom_xsim_hazard){
		.kind = kind, .severity = ixc_xkinds[kind].severity, .tile = tile,
		.other = other, .event = event, .program = prog, .word = word, .occurrences = 1,
	};
	va_start(ap, fmt);
	vsnprintf(h->msg, sizeof(h->msg), fmt, ap);
	va_end(ap);
}

void ixc_xsim_clear_run(struct ipuxcom_xsim *sim)
{
	sim->nhaz = 0;
	for (size_t i = 0; i < sim->nhslots; i++)
		sim->hslots[i].index = -1;
	sim->nwlog = 0;
	sim->nsends = sim->nmux = sim->npic = 0;
	sim->nspans = 0;
	sim->nstreams = 0;
	memset(&sim->res, 0, sizeof(sim->res));
	sim->ran = false;
}

const struct ipuxcom_xsim_hazard *ipuxcom_xsim_hazards(const struct ipuxcom_xsim *sim, size_t *n)
{
	if (n)
		*n = sim ? sim->nhaz : 0;
	return sim && sim->nhaz ? sim->haz : NULL;
}

size_t ipuxcom_xsim_count(const struct ipuxcom_xsim *sim, uint32_t kind)
{
	size_t k = 0;

	if (!sim)
		return 0;
	for (size_t i = 0; i < sim->nhaz; i++)
		k += sim->haz[i].kind == kind;
	return k;
}

const struct ipuxcom_xsim_write *ipuxcom_xsim_writes(const struct ipuxcom_xsim *sim, size_t *n)
{
	bool on = sim && (sim->cfg.flags & IPUXCOM_XSIM_LOG_WRITES) && sim->nwlog;

	if (n)
		*n = on ? sim->nwlog : 0;
	return on ? sim->wlog : NULL;
}

int ipuxcom_xsim_hazard_format(const struct ipuxcom_xsim_hazard *h, char *buf, size_t len)
{
	char where[64] = "", occ[24] = "";

	if (!h || (!buf && len))
		return -EINVAL;
	if (h->occurrences > 1)
		snprintf(occ, sizeof(occ), " (x%u)", h->occurrences);
	if (h->program >= 0 && h->word >= 0)
		snprintf(where, sizeof(where), " (program %d, word %d)", h->program, h->word);
	else if (h->program >= 0)
		snprintf(where, sizeof(where), " (program %d)", h->program);
	return snprintf(buf, len, "%s %s tile %u%s event %d%s: %s",
			h->severity == IPUXCOM_XSIM_NOTE ? "note" : "error",
			ipuxcom_xsim_kind_name(h->kind), h->tile, where, h->event, occ, h->msg);
}

/* -------------------------------------------------------------- lifetime */

int ipuxcom_xsim_create(const struct ipuxcom_xsim_config *cfg, struct ipuxcom_xsim **out,
			struct ipuxcom_plan_error *err)
{
	const uint32_t known = IPUXCOM_XSIM_ANY_DIRECTION | IPUXCOM_XSIM_ALL_TILES |
			       IPUXCOM_XSIM_LOG_WRITES;
	struct ipuxcom_xsim_config c = IPUXCOM_XSIM_CONFIG_INIT;
	struct ipuxcom_xsim *sim;
	int ret;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	*out = NULL;
	if (cfg && (ret = ixc_sized_in(&c, sizeof(c), cfg, IPUXCOM_XSIM_CONFIG_SIZE_MIN,
				       "cfg.size", "IPUXCOM_XSIM_CONFIG_INIT", err)))
		return ret;
	if (c.flags & ~known)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", c.flags, c.flags & ~known);
	if (c.max_events > IXC_XSIM_EVENT_CAP)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FIELD, "max_events",
				     "max_events %u above the limit %u", c.max_events,
				     IXC_XSIM_EVENT_CAP);
	if (c.max_hazards > (1u << 20))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FIELD, "max_hazards",
				     "max_hazards %u above the limit %u", c.max_hazards, 1u << 20);
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		return ixc_xnomem(err, "sim");
	sim->cfg = c;
	sim->tm = ixc_timing(c.timing);
	sim->max_events = c.max_events ? c.max_events : IPUXCOM_XSIM_MAX_EVENTS;
	sim->max_hazards = c.max_hazards ? c.max_hazards : IPUXCOM_XSIM_DEFAULT_MAX_HAZARDS;
	sim->haz = calloc(sim->max_hazards, sizeof(*sim->haz));
	sim->haz_tmp = calloc(sim->max_hazards, sizeof(*sim->haz_tmp));
	sim->nhslots = 16;
	while (sim->nhslots < 2 * (size_t)sim->max_hazards)
		sim->nhslots *= 2;
	sim->hslots = calloc(sim->nhslots, sizeof(*sim->hslots));
	if (!sim->haz || !sim->haz_tmp || !sim->hslots) {
		ipuxcom_xsim_free(sim);
		return ixc_xnomem(err, "sim");
	}
	ixc_xsim_clear_run(sim);
	*out = sim;
	ixc_plan_ok(err);
	return 0;
}

static void ixc_xsram_free(struct ipuxcom_xsim *sim)
{
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
		if (!sim->pages[t])
			continue;
		for (uint32_t p = 0; p < IXC_XPAGES; p++)
			free(sim->pages[t][p]);
		free(sim->pages[t]);
		sim->pages[t] = NULL;
	}
}

void ipuxcom_xsim_free(struct ipuxcom_xsim *sim)
{
	if (!sim)
		return;
	ixc_xsram_free(sim);
	free(sim->progs);
	free(sim->words);
	free(sim->decls);
	free(sim->sends);
	free(sim->mux);
	free(sim->pic);
	free(sim->stream_words);
	free(sim->decl_order);
	free(sim->bits);
	free(sim->haz);
	free(sim->haz_tmp);
	free(sim->hslots);
	free(sim->wlog);
	free(sim->spans);
	free(sim);
}

int ipuxcom_xsim_reset(struct ipuxcom_xsim *sim, uint32_t flags, struct ipuxcom_plan_error *err)
{
	if (!sim)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "sim", "sim is NULL");
	if (flags & ~IPUXCOM_XSIM_RESET_SRAM)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", flags,
				     flags & ~IPUXCOM_XSIM_RESET_SRAM);
	if (flags & IPUXCOM_XSIM_RESET_SRAM)
		ixc_xsram_free(sim);
	sim->nprogs = 0;
	sim->nwords = 0;
	memset(sim->tile_nprogs, 0, sizeof(sim->tile_nprogs));
	sim->ndecls = 0;
	sim->ndeclared = 0;
	sim->nbits = 0;
	ixc_xsim_clear_run(sim);
	ixc_plan_ok(err);
	return 0;
}

/* ------------------------------------------------------------------ SRAM */

int ixc_xsram_put(struct ipuxcom_xsim *sim, uint32_t tile, uint32_t addr, uint32_t value)
{
	uint32_t w = (addr - IPUXCOM_SRAM_BASE) / 4;
	uint32_t **p = sim->pages[tile];

	if (!p) {
		p = calloc(IXC_XPAGES, sizeof(*p));
		if (!p)
			return -ENOMEM;
		sim->pages[tile] = p;
	}
	if (!p[w / IXC_XPAGE_WORDS]) {
		if (!value)
			return 0;	/* an absent page reads 0 already */
		p[w / IXC_XPAGE_WORDS] = calloc(IXC_XPAGE_WORDS, sizeof(uint32_t));
		if (!p[w / IXC_XPAGE_WORDS])
			return -ENOMEM;
	}
	p[w / IXC_XPAGE_WORDS][w % IXC_XPAGE_WORDS] = value;
	return 0;
}

static int ixc_xsram_check(const struct ipuxcom_xsim *sim, uint32_t tile, uint32_t addr,
			   size_t n, const void *buf, struct ipuxcom_plan_error *err)
{
	if (!sim)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "sim", "sim is NULL");
	if (!buf && n)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "words", "words is NULL");
	if (tile >= IPUXCOM_TILES)
		return ixc_tile_bad(tile, false, err, "tile");
	if (addr & 3)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ALIGN, "addr",
				     "addr 0x%x not 4-byte aligned", addr);
	if (!ixc_xin_sram(addr, (uint64_t)n * 4))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ADDR, "addr",
				     "addr 0x%x + %zu words not inside tile SRAM 0x%x..0x%x", addr,
				     n, IPUXCOM_SRAM_BASE, IPUXCOM_SRAM_END - 1);
	return 0;
}

int ipuxcom_xsim_sram_write(struct ipuxcom_xsim *sim, uint32_t tile, uint32_t addr,
			    const uint32_t *words, size_t n, struct ipuxcom_plan_error *err)
{
	int ret = ixc_xsram_check(sim, tile, addr, n, words, err);

	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++)
		if (ixc_xsram_put(sim, tile, addr + 4 * (uint32_t)i, words[i]))
			return ixc_xnomem(err, "words");
	ixc_plan_ok(err);
	return 0;
}

int ipuxcom_xsim_sram_fill(struct ipuxcom_xsim *sim, uint32_t tile, uint32_t addr,
			   uint32_t value, size_t n, struct ipuxcom_plan_error *err)
{
	int ret = ixc_xsram_check(sim, tile, addr, n, &value, err);

	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++)
		if (ixc_xsram_put(sim, tile, addr + 4 * (uint32_t)i, value))
			return ixc_xnomem(err, "words");
	ixc_plan_ok(err);
	return 0;
}

int ipuxcom_xsim_sram_read(const struct ipuxcom_xsim *sim, uint32_t tile, uint32_t addr,
			   uint32_t *words, size_t n, struct ipuxcom_plan_error *err)
{
	int ret = ixc_xsram_check(sim, tile, addr, n, words, err);

	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++)
		words[i] = ixc_xsram_get(sim, tile, addr + 4 * (uint32_t)i);
	ixc_plan_ok(err);
	return 0;
}

/* -------------------------------------------------------------- programs */

int ixc_xsim_add(struct ipuxcom_xsim *sim, const struct ipuxcom_xsim_program *p,
		 struct ipuxcom_plan_error *err)
{
	struct ixc_xprog *x;

	if (!ixc_xgrow((void **)&sim->progs, &sim->cap_progs, sim->nprogs + 1, sizeof(*sim->progs)) ||
	    !ixc_xgrow((void **)&sim->words, &sim->cap_words, sim->nwords + p->nwords,
		       sizeof(*sim->words)))
		return ixc_xnomem(err, "prog");
	if (sim->nprogs >= INT32_MAX || sim->tile_nprogs[p->tile] == UINT16_MAX)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SPACE, "prog", "too many programs");
	x = &sim->progs[sim->nprogs];
	*x = (struct ixc_xprog){ .tile = p->tile, .flags = p->flags, .a4 = p->incoming_base,
				 .a7 = p->outgoing_base, .off = sim->nwords, .n = p->nwords };
	memcpy(&sim->words[sim->nwords], p->words, p->nwords * sizeof(uint32_t));
	sim->nwords += p->nwords;
	sim->tile_nprogs[p->tile]++;
	ixc_plan_ok(err);
	return (int)sim->nprogs++;
}

static int ixc_xbase_check(uint32_t base, const char *field, struct ipuxcom_plan_error *err)
{
	if (base & 3)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ALIGN, field,
				     "%s 0x%x not 4-byte aligned", field, base);
	if (base && !ixc_xin_sram(base, 0))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ADDR, field,
				     "%s 0x%x neither 0 (absolute) nor inside tile SRAM 0x%x..0x%x",
				     field, base, IPUXCOM_SRAM_BASE, IPUXCOM_SRAM_END - 1);
	return 0;
}

int ipuxcom_xsim_add_program(struct ipuxcom_xsim *sim, const struct ipuxcom_xsim_program *prog,
			     struct ipuxcom_plan_error *err)
{
	int ret;

	if (!sim)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "sim", "sim is NULL");
	if (!prog)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "prog", "prog is NULL");
	if (!prog->words)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "words", "words is NULL");
	if (prog->tile >= IPUXCOM_TILES)
		return ixc_tile_bad(prog->tile, false, err, "tile");
	if (prog->flags & ~IPUXCOM_XSIM_PROG_DATA0)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", prog->flags,
				     prog->flags & ~IPUXCOM_XSIM_PROG_DATA0);
	if (prog->nwords < 1 || prog->nwords > IXC_XPROG_MAX_WORDS)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_COUNT, "nwords",
				     "nwords %u out of range 1..%u", prog->nwords,
				     IXC_XPROG_MAX_WORDS);
	if ((ret = ixc_xbase_check(prog->incoming_base, "incoming_base", err)) ||
	    (ret = ixc_xbase_check(prog->outgoing_base, "outgoing_base", err)))
		return ret;
	return ixc_xsim_add(sim, prog, err);
}

int ipuxcom_xsim_set_code_addr(struct ipuxcom_xsim *sim, int prog, uint32_t addr,
			       struct ipuxcom_plan_error *err)
{
	struct ixc_xprog *x;

	if (!sim)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "sim", "sim is NULL");
	if (prog < 0 || (size_t)prog >= sim->nprogs)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FIELD, "prog",
				     "program %d does not exist (%zu added)", prog, sim->nprogs);
	x = &sim->progs[prog];
	if (addr & 3)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ALIGN, "addr",
				     "code address 0x%x not 4-byte aligned", addr);
	if (!ixc_xin_sram(addr, (uint64_t)x->n * 4))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ADDR, "addr",
				     "code of %u words at 0x%x not inside tile SRAM 0x%x..0x%x",
				     x->n, addr, IPUXCOM_SRAM_BASE, IPUXCOM_SRAM_END - 1);
	x->code_addr = addr;
	ixc_plan_ok(err);
	return 0;
}

/* ---------------------------------------------------------- declarations */

int ipuxcom_xsim_declare(struct ipuxcom_xsim *sim, const struct ipuxcom_xsim_xfer *x_in,
			 struct ipuxcom_plan_error *err)
{
	struct ipuxcom_xsim_xfer copy, *x = &copy;
	uint32_t seen[(IPUXCOM_TILES + 31) / 32] = { 0 };
	bool logical = true;
	uint32_t s = 0;
	char field[32];
	int ret;

	if (!sim)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "sim", "sim is NULL");
	if (!x_in)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "xfer", "xfer is NULL");
	if ((ret = ixc_sized_in(&copy, sizeof(copy), x_in, IPUXCOM_XSIM_XFER_SIZE_MIN,
				"xfer.size", "IPUXCOM_XSIM_XFER_INIT", err)))
		return ret;
	if (x->flags & ~IXC_NUMBERING)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", x->flags,
				     x->flags & ~IXC_NUMBERING);
	if ((ret = ixc_numbering(x->flags, &logical, "flags", err)))
		return ret;
	if (x->count < 1 || x->count > IPUXCOM_PLAN_MAX_COUNT)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_COUNT, "count",
				     "count %u out of range 1..%u", x->count,
				     IPUXCOM_PLAN_MAX_COUNT);
	if (x->nrecv < 1 || x->nrecv > IPUXCOM_TILES - 1)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NRECV, "nrecv",
				     "nrecv %u out of range 1..%u", x->nrecv, IPUXCOM_TILES - 1);
	if (!x->receivers)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "receivers", "receivers is NULL");
	if (!x->dst_addr)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "dst_addr", "dst_addr is NULL");
	if ((ret = ixc_tile_resolve(x->sender, logical, &s, err, "sender")) ||
	    (ret = ixc_check_sram(x->src_addr, x->count, false, err, "src_addr")))
		return ret;
	for (uint32_t i = 0; i < x->nrecv; i++) {
		uint32_t r = 0;

		snprintf(field, sizeof(field), "receivers[%u]", i);
		if ((ret = ixc_tile_resolve(x->receivers[i], logical, &r, err, field)))
			return ret;
		if (r == s)
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_SELF, field, "%s %u is the sender",
					     field, x->receivers[i]);
		if (seen[r / 32] >> (r % 32) & 1)
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_DUP, field,
					     "%s %u is listed twice", field, x->receivers[i]);
		seen[r / 32] |= 1u << (r % 32);
		snprintf(field, sizeof(field), "dst_addr[%u]", i);
		if ((ret = ixc_check_sram(x->dst_addr[i], x->count, false, err, field)))
			return ret;
	}
	if (!ixc_xgrow((void **)&sim->decls, &sim->cap_decls, sim->ndecls + x->nrecv,
		       sizeof(*sim->decls)))
		return ixc_xnomem(err, "xfer");
	for (uint32_t i = 0; i < x->nrecv; i++) {
		sim->decls[sim->ndecls++] = (struct ixc_xdecl){
			.xfer = sim->ndeclared, .recv = i, .sender = s, .src = x->src_addr,
			.count = x->count,
			.tile = logical ? ixc_l2p(x->receivers[i]) : x->receivers[i],
			.dst = x->dst_addr[i], .bits = sim->nbits,
		};
		sim->nbits += x->count;
	}
	sim->ndeclared++;
	ixc_plan_ok(err);
	return 0;
}

/* ------------------------------------------------------------------- run */

int ipuxcom_xsim_run(struct ipuxcom_xsim *sim, struct ipuxcom_xsim_result *res,
		     struct ipuxcom_plan_error *err)
{
	int ret;

	if (!sim)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "sim", "sim is NULL");
	if (res && (ret = ixc_sized_out_check(res, IPUXCOM_XSIM_RESULT_SIZE_MIN, "res.size",
					      "IPUXCOM_XSIM_RESULT_INIT", err)))
		return ret;
	ret = ixc_xsim_run(sim, err);
	if (ret)
		return ret;
	sim->res.size = sizeof(sim->res);
	if (res)
		ixc_struct_out(res, res->size, &sim->res, sizeof(sim->res));
	ixc_plan_ok(err);
	return 0;
}
