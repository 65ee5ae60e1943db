// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Transfer lists for the phase scheduler (docs/exchange-verifier.md,
 * "Transfer lists"): plain text, one transfer per line.
 *
 *   # a comment, to the end of the line
 *   physical                                   ids on later lines are physical
 *   p2p SRC DST COUNT [src=ADDR] [dst=ADDR]
 *   multicast SRC COUNT DST... [src=ADDR] [dst=ADDR[,ADDR...]]
 *
 * Ids are logical by default, decimal. Addresses are byte addresses,
 * decimal or 0x-hex. Without src= a sender's transfers take consecutive
 * buffers from 0x80000 (up to 0xd0000); without dst= a receiver's take
 * consecutive buffers from 0x50000 inside the multicast destination
 * windows 0x50000-0x5ffff, 0x70000-0x7ffff, 0xd0000-0xdffff (inferred,
 * docs/exchange-plans.md). The parsed list holds physical ids.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xsim_internal.h"

#define IXC_SRC_BASE	0x80000u
#define IXC_SRC_END	0xd0000u
#define IXC_MAX_TOKENS	(IPUXCOM_TILES + 8)

struct ixc_slist {
	struct ipuxcom_schedule_list pub;
	size_t cap, cap_line;
	uint32_t *pool;		/* receivers and destinations */
	size_t npool, cap_pool;
	uint32_t src_next[IPUXCOM_TILES];
	uint32_t dst_next[IPUXCOM_TILES];
	char *tok[IXC_MAX_TOKENS];
};

/* The multicast destination windows (inferred, docs/exchange-plans.md). */
static const uint32_t ixc_dwin[3][2] = {
	{ 0x50000, 0x60000 }, { 0x70000, 0x80000 }, { 0xd0000, 0xe0000 },
};

static bool ixc_num(const char *s, uint32_t *out, bool hex_ok)
{
	unsigned long long v;
	char *end;
	int base = 10;

	if (!s || !*s)
		return false;
	if (hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!*s)
			return false;
	}
	for (const char *p = s; *p; p++)
		if (!((*p >= '0' && *p <= '9') ||
		      (base == 16 && ((*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')))))
			return false;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static int ixc_lfail(struct ipuxcom_plan_error *err, uint32_t line, const char *what,
		     const char *tok)
{
	return ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "line", "line %u: %s '%.40s'", line, what,
			     tok ? tok : "");
}

static int ixc_tile_tok(const char *tok, bool physical, uint32_t line, uint32_t *out,
			struct ipuxcom_plan_error *err)
{
	uint32_t v;

	if (!ixc_num(tok, &v, false))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "line",
				     "line %u: invalid tile id '%.40s': a decimal number 0..%u", line,
				     tok, IPUXCOM_TILES - 1);
	if (v >= IPUXCOM_TILES)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "line",
				     "line %u: tile %u out of range 0..%u (%s)", line, v,
				     IPUXCOM_TILES - 1, physical ? "physical" : "logical");
	*out = physical ? v : ixc_l2p(v);
	return 0;
}

/* The next default destination of @count words on @tile, or 0. */
static uint32_t ixc_dst_alloc(struct ixc_slist *l, uint32_t tile, uint32_t count)
{
	uint32_t a = l->dst_next[tile] ? l->dst_next[tile] : ixc_dwin[0][0];

	for (int k = 0; k < 3; k++) {
		if (a < ixc_dwin[k][0])
			a = ixc_dwin[k][0];
		if (a >= ixc_dwin[k][1])
			continue;
		if ((uint64_t)a + 4ull * count <= ixc_dwin[k][1]) {
			l->dst_next[tile] = a + 4 * count;
			return a;
		}
	}
	return 0;
}

/* Split @line (modified) into whitespace-separated tokens. */
static int ixc_split(char *line, char **tok, int max)
{
	int n = 0;

	for (char *p = line; *p;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			*p++ = '\0';
		if (!*p)
			break;
		if (n == max)
			return -1;
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
	}
	return n;
}

static int ixc_parse_line(struct ixc_slist *l, char **tok, int nt, uint32_t line, bool physical,
			  struct ipuxcom_plan_error *err)
{
	struct ipuxcom_schedule_xfer *x;
	const char *src_opt = NULL, *dst_opt = NULL;
	bool mcast = !strcmp(tok[0], "multicast");
	uint32_t s = 0, count = 0, nrecv, *recv, *dst;
	int npos = 0, ret;

	if (!mcast && strcmp(tok[0], "p2p"))
		return ixc_lfail(err, line, "unknown keyword (p2p, multicast, physical)", tok[0]);
	for (int i = 1; i < nt; i++) {
		if (!strncmp(tok[i], "src=", 4)) {
			if (src_opt)
				return ixc_lfail(err, line, "src= given twice", tok[i]);
			src_opt = tok[i] + 4;
		} else if (!strncmp(tok[i], "dst=", 4)) {
			if (dst_opt)
				return ixc_lfail(err, line, "dst= given twice", tok[i]);
			dst_opt = tok[i] + 4;
		} else if (strchr(tok[i], '=')) {
			/* "srcaddr=0x60000": name the key (not a missing COUNT), and the near one. */
			size_t klen = (size_t)(strchr(tok[i], '=') - tok[i]);
			const char *near = !strncmp(tok[i], "src", 3) ? ": did you mean src=?" :
					   !strncmp(tok[i], "dst", 3) ? ": did you mean dst=?" : "";

			return ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "line",
					     "line %u: unknown key \"%.*s\"%s (the keys are src= "
					     "and dst=)", line, klen > 40 ? 40 : (int)klen, tok[i], near);
		} else if (src_opt || dst_opt) {
			return ixc_lfail(err, line, "options must come last", tok[i]);
		} else {
			tok[1 + npos++] = tok[i];
		}
	}
	if (mcast ? npos < 3 : npos != 3)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "line",
				     "line %u: %s needs %s", line, tok[0],
				     mcast ? "SRC COUNT DST..." : "SRC DST COUNT");
	if ((ret = ixc_tile_tok(tok[1], physical, line, &s, err)))
		return ret;
	if (!ixc_num(mcast ? tok[2] : tok[3], &count, false))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "line",
				     "line %u: invalid count '%.40s': a decimal number 1..%u", line,
				     mcast ? tok[2] : tok[3], IPUXCOM_PLAN_MAX_COUNT);
	if (count < 1 || count > IPUXCOM_PLAN_MAX_COUNT)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "line",
				     "line %u: count %u out of range 1..%u", line, count,
				     IPUXCOM_PLAN_MAX_COUNT);
	nrecv = mcast ? (uint32_t)npos - 2 : 1;
	if (!ixc_xgrow((void **)&l->pool, &l->cap_pool, l->npool + 2 * nrecv, sizeof(*l->pool)) ||
	    !ixc_xgrow((void **)&l->pub.xfers, &l->cap, l->pub.n + 1, sizeof(*l->pub.xfers)) ||
	    !ixc_xgrow((void **)&l->pub.line, &l->cap_line, l->pub.n + 1, sizeof(*l->pub.line)))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "line", "out of memory");
	recv = &l->pool[l->npool];
	dst = recv + nrecv;
	for (uint32_t i = 0; i < nrecv; i++) {
		const char *t = mcast ? tok[3 + i] : tok[2];

		if ((ret = ixc_tile_tok(t, physical, line, &recv[i], err)))
			return ret;
		if (recv[i] == s)
			return ixc_lfail(err, line, "receiver is the sender", t);
		for (uint32_t j = 0; j < i; j++)
			if (recv[j] == recv[i])
				return ixc_lfail(err, line, "receiver listed twice", t);
	}
	x = &l->pub.xfers[l->pub.n];
	*x = (struct ipuxcom_schedule_xfer){ .sender = s, .count = count, .nrecv = nrecv };
	if (src_opt) {
		if (!ixc_num(src_opt, &x->src_addr, true))
			return ixc_lfail(err, line, "invalid src= address", src_opt);
	} else {
		uint32_t a = l->src_next[s] ? l->src_next[s] : IXC_SRC_BASE;

		if ((uint64_t)a + 4ull * count > IXC_SRC_END)
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "line",
					     "line %u: default source buffers of tile %u exhausted "
					     "(0x%x..0x%x): give src=", line, s, IXC_SRC_BASE,
					     IXC_SRC_END - 1);
		x->src_addr = a;
		l->src_next[s] = a + 4 * count;
	}
	if (dst_opt) {
		char *p = (char *)dst_opt, *comma;
		uint32_t k = 0;

		for (;;) {
			comma = strchr(p, ',');
			if (comma)
				*comma = '\0';
			if (k >= nrecv)
				return ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "line",
						     "line %u: dst= has more than %u addresses",
						     line, nrecv);
			if (!ixc_num(p, &dst[k], true))
				return ixc_lfail(err, line, "invalid dst= address", p);
			k++;
			if (!comma)
				break;
			p = comma + 1;
		}
		if (k == 1)
			for (uint32_t i = 1; i < nrecv; i++)
				dst[i] = dst[0];
		else if (k != nrecv)
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "line",
					     "line %u: dst= has %u addresses for %u receivers (give "
					     "one, or one per receiver)", line, k, nrecv);
	} else {
		for (uint32_t i = 0; i < nrecv; i++) {
			dst[i] = ixc_dst_alloc(l, recv[i], count);
			if (!dst[i])
				return ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "line",
						     "line %u: default destination buffers of tile "
						     "%u exhausted: give dst=", line, recv[i]);
		}
	}
	l->npool += 2 * nrecv;
	l->pub.line[l->pub.n] = line;
	l->pub.n++;
	return 0;
}

void ipuxcom_schedule_list_free(struct ipuxcom_schedule_list *pub)
{
	struct ixc_slist *l = (struct ixc_slist *)pub;

	if (!l)
		return;
	free(l->pub.xfers);
	free(l->pub.line);
	free(l->pool);
	free(l);
}

int ipuxcom_schedule_list_parse(const char *text, size_t len, uint32_t flags,
			     struct ipuxcom_schedule_list **out, struct ipuxcom_plan_error *err)
{
	struct ixc_slist *l;
	bool physical = flags & IPUXCOM_SCHEDULE_LIST_PHYSICAL;
	uint32_t lineno = 0;
	size_t pos = 0;
	char *buf;
	int ret = 0;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	*out = NULL;
	if (!text && len)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "text", "text is NULL");
	if (flags & ~IPUXCOM_SCHEDULE_LIST_PHYSICAL)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", flags,
				     flags & ~IPUXCOM_SCHEDULE_LIST_PHYSICAL);
	l = calloc(1, sizeof(*l));
	buf = malloc(len + 1);
	if (!l || !buf) {
		free(l);
		free(buf);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "text", "out of memory");
	}
	if (len)
		memcpy(buf, text, len);
	buf[len] = '\0';
	while (pos <= len && !ret) {
		char *line = buf + pos, *nl = memchr(line, '\n', len - pos), *hash;
		int nt;

		lineno++;
		if (nl)
			*nl = '\0';
		pos = nl ? (size_t)(nl - buf) + 1 : len + 1;
		if (strlen(line) != (size_t)((nl ? nl : buf + len) - line)) {
			ret = ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "line",
					    "line %u: NUL byte in the text", lineno);
			break;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		nt = ixc_split(line, l->tok, IXC_MAX_TOKENS);
		if (nt < 0) {
			ret = ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "line",
					    "line %u: more than %d words", lineno, IXC_MAX_TOKENS);
			break;
		}
		if (!nt)
			continue;
		if (!strcmp(l->tok[0], "physical")) {
			if (nt != 1)
				ret = ixc_lfail(err, lineno, "physical takes no argument", l->tok[1]);
			physical = true;
			continue;
		}
		ret = ixc_parse_line(l, l->tok, nt, lineno, physical, err);
	}
	free(buf);
	if (ret) {
		ipuxcom_schedule_list_free(&l->pub);
		return ret;
	}
	/* Pointers into the pool are fixed only now that it no longer grows. */
	for (size_t i = 0, k = 0; i < l->pub.n; i++) {
		struct ipuxcom_schedule_xfer *x = &l->pub.xfers[i];

		x->receivers = &l->pool[k];
		x->dst_addr = &l->pool[k + x->nrecv];
		k += 2 * (size_t)x->nrecv;
	}
	*out = &l->pub;
	ixc_plan_ok(err);
	return 0;
}

/* The deprecated names (issue 23: one prefix per family). */

void ipuxcom_sched_list_free(struct ipuxcom_schedule_list *pub)
{
	ipuxcom_schedule_list_free(pub);
}

int ipuxcom_sched_list_parse(const char *text, size_t len, uint32_t flags,
			     struct ipuxcom_schedule_list **out, struct ipuxcom_plan_error *err)
{
	return ipuxcom_schedule_list_parse(text, len, flags, out, err);
}
