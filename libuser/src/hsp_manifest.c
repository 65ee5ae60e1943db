// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Host-sync manifests (.ipuhsp).
 *
 * The notes [S "Host Tensor Exchange"] say what a manifest holds: the
 * executable-specific host-exchange values, "arbitrary page sizes, attach
 * order, command location, phase counts, and multiple input/output
 * slices"; for the minimal oracle two 4 KiB pages, the 64-byte tensor at
 * page 0 + 0x40, the callable id (0 run, 1 read, 2 write) at page 1 +
 * 0x00, and write/run/read taking 4/2/4 GS2 phases. They do not give its
 * syntax: the strict line format here is this project's definition,
 * documented in docs/ipuhsp-format.md (grammar, order, limits, rules).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_internal.h"

#define IXC_HSP_MAX_FILE	(1u << 20)
#define IXC_HSP_MAX_LINE	256
#define IXC_HSP_MAX_TOKENS	10

static const char *const ixc_dir_names[] = { "input", "output" };

/* ------------------------------------------------------------ item rules */

static bool ixc_hsp_name_ok(const char *s)
{
	size_t n = strnlen(s, IPUXCOM_HSP_NAME_LEN);

	if (n == 0 || n >= IPUXCOM_HSP_NAME_LEN || s[0] < 'a' || s[0] > 'z')
		return false;
	for (size_t i = 1; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

static int ixc_hsp_check_page(const char *where, uint32_t size, struct ipuxcom_errmsg *em)
{
	if (size < IPUXCOM_HSP_PAGE_UNIT || size > IPUXCOM_HSP_MAX_PAGE_SIZE ||
	    size % IPUXCOM_HSP_PAGE_UNIT)
		return ixc_err(em, -EBADMSG,
			       "%s: page size %" PRIu32 " is not a multiple of %u in %u..%u", where,
			       size, IPUXCOM_HSP_PAGE_UNIT, IPUXCOM_HSP_PAGE_UNIT,
			       IPUXCOM_HSP_MAX_PAGE_SIZE);
	return 0;
}

static int ixc_hsp_check_command(const struct ipuxcom_hsp_manifest *m, const char *where,
				 struct ipuxcom_errmsg *em)
{
	if (m->command_page >= m->npages)
		return ixc_err(em, -EBADMSG, "%s: command page %" PRIu32 " does not exist (%" PRIu32
			       " pages)", where, m->command_page, m->npages);
	if (m->command_offset & 3 ||
	    (uint64_t)m->command_offset + 4 > m->page_size[m->command_page])
		return ixc_err(em, -EBADMSG,
			       "%s: command word at offset 0x%" PRIx32
			       " is not a 4-aligned word of page %" PRIu32 " (%" PRIu32 " bytes)",
			       where, m->command_offset,
			       m->command_page, m->page_size[m->command_page]);
	return 0;
}

static int ixc_hsp_check_call(const struct ipuxcom_hsp_manifest *m, uint32_t i,
			      const char *where, struct ipuxcom_errmsg *em)
{
	const struct ipuxcom_hsp_call *c = &m->calls[i];

	if (!ixc_hsp_name_ok(c->name))
		return ixc_err(em, -EBADMSG,
			       "%s: bad call name (1-%u characters of a-z, 0-9, _, starting with a "
			       "letter)", where, IPUXCOM_HSP_NAME_LEN - 1);
	if (c->phases < 1 || c->phases > IPUXCOM_HSP_MAX_PHASES)
		return ixc_err(em, -EBADMSG, "%s: call '%s' has %" PRIu32 " phases (1..%u)", where,
			       c->name, c->phases, IPUXCOM_HSP_MAX_PHASES);
	for (uint32_t j = 0; j < i; j++) {
		if (!strcmp(m->calls[j].name, c->name))
			return ixc_err(em, -EBADMSG, "%s: call '%s' defined twice", where, c->name);
		if (m->calls[j].id == c->id)
			return ixc_err(em, -EBADMSG,
				       "%s: call '%s' has id %" PRIu32 ", already the id of '%s'",
				       where, c->name, c->id, m->calls[j].name);
	}
	return 0;
}

static int ixc_hsp_check_slice(const struct ipuxcom_hsp_manifest *m, uint32_t i,
			       const char *where, struct ipuxcom_errmsg *em)
{
	const struct ipuxcom_hsp_slice *s = &m->slices[i];
	const char *call;

	if (s->call >= m->ncalls)
		return ixc_err(em, -EBADMSG, "%s: slice of undefined call %" PRIu32, where,
			       s->call);
	call = m->calls[s->call].name;
	if (s->dir > IPUXCOM_HSP_OUTPUT)
		return ixc_err(em, -EBADMSG, "%s: bad direction %" PRIu32, where, s->dir);
	if (s->page >= m->npages)
		return ixc_err(em, -EBADMSG, "%s: %s slice of '%s' on page %" PRIu32
			       ", which does not exist (%" PRIu32 " pages)", where,
			       ixc_dir_names[s->dir], call, s->page, m->npages);
	if (!s->size || s->size & 3 || s->offset & 3)
		return ixc_err(em, -EBADMSG,
			       "%s: %s slice of '%s' at 0x%" PRIx32 "+%" PRIu32 " is not whole "
			       "4-aligned words (and not empty)", where, ixc_dir_names[s->dir],
			       call, s->offset, s->size);
	if ((uint64_t)s->offset + s->size > m->page_size[s->page])
		return ixc_err(em, -EBADMSG,
			       "%s: %s slice of '%s' at 0x%" PRIx32 "+%" PRIu32 " exceeds page %"
			       PRIu32 " (%" PRIu32 " bytes)", where, ixc_dir_names[s->dir], call,
			       s->offset, s->size, s->page, m->page_size[s->page]);
	if (s->page == m->command_page && s->offset < m->command_offset + 4 &&
	    m->command_offset < s->offset + s->size)
		return ixc_err(em, -EBADMSG,
			       "%s: %s slice of '%s' at 0x%" PRIx32 "+%" PRIu32
			       " overlaps the command word at page %" PRIu32 " + 0x%" PRIx32, where,
			       ixc_dir_names[s->dir], call, s->offset, s->size, m->command_page,
			       m->command_offset);
	for (uint32_t j = 0; j < i; j++) {
		const struct ipuxcom_hsp_slice *o = &m->slices[j];

		if (o->call == s->call && o->dir == s->dir && o->page == s->page &&
		    s->offset < o->offset + o->size && o->offset < s->offset + s->size)
			return ixc_err(em, -EBADMSG,
				       "%s: %s slice of '%s' at 0x%" PRIx32 "+%" PRIu32
				       " overlaps its slice %" PRIu32 " at 0x%" PRIx32 "+%" PRIu32,
				       where, ixc_dir_names[s->dir], call, s->offset, s->size, j,
				       o->offset, o->size);
	}
	return 0;
}

int ipuxcom_hsp_validate(const struct ipuxcom_hsp_manifest *m, struct ipuxcom_errmsg *em)
{
	uint32_t seen = 0;
	char where[48];
	int err;

	ixc_err_clear(em);
	if (!m)
		return ixc_err(em, -EINVAL, "no manifest");
	if (m->npages < 1 || m->npages > IPUXCOM_HSP_MAX_PAGES)
		return ixc_err(em, -EBADMSG, "%" PRIu32 " pages (1..%u)", m->npages,
			       IPUXCOM_HSP_MAX_PAGES);
	for (uint32_t i = 0; i < m->npages; i++) {
		snprintf(where, sizeof(where), "page %" PRIu32, i);
		err = ixc_hsp_check_page(where, m->page_size[i], em);
		if (err)
			return err;
	}
	for (uint32_t i = 0; i < m->npages; i++) {
		uint32_t p = m->attach_order[i];

		if (p >= m->npages || seen & (1u << p))
			return ixc_err(em, -EBADMSG,
				       "attach order: entry %" PRIu32 " is page %" PRIu32
				       "; the order must name each of the %" PRIu32 " pages once",
				       i, p, m->npages);
		seen |= 1u << p;
	}
	err = ixc_hsp_check_command(m, "command", em);
	if (err)
		return err;
	if (m->ncalls < 1 || m->ncalls > IPUXCOM_HSP_MAX_CALLS)
		return ixc_err(em, -EBADMSG, "%" PRIu32 " calls (1..%u)", m->ncalls,
			       IPUXCOM_HSP_MAX_CALLS);
	for (uint32_t i = 0; i < m->ncalls; i++) {
		snprintf(where, sizeof(where), "call %" PRIu32, i);
		err = ixc_hsp_check_call(m, i, where, em);
		if (err)
			return err;
	}
	if (m->nslices > IPUXCOM_HSP_MAX_SLICES)
		return ixc_err(em, -EBADMSG, "%" PRIu32 " slices (at most %u)", m->nslices,
			       IPUXCOM_HSP_MAX_SLICES);
	for (uint32_t i = 0; i < m->nslices; i++) {
		snprintf(where, sizeof(where), "slice %" PRIu32, i);
		err = ixc_hsp_check_slice(m, i, where, em);
		if (err)
			return err;
	}
	return 0;
}

int ipuxcom_hsp_find_call(const struct ipuxcom_hsp_manifest *m, const char *name)
{
	if (!m || !name)
		return -EINVAL;
	for (uint32_t i = 0; i < m->ncalls && i < IPUXCOM_HSP_MAX_CALLS; i++)
		if (!strncmp(m->calls[i].name, name, IPUXCOM_HSP_NAME_LEN))
			return (int)i;
	return -ENOENT;
}

/* ----------------------------------------------------------------- parser */

enum ixc_hsp_stage {
	IXC_ST_HEADER,		/* expecting "ipuhsp 1" */
	IXC_ST_PAGES,		/* "page" lines, then "attach" */
	IXC_ST_COMMAND,		/* "command" */
	IXC_ST_CALLS,		/* "call" lines */
	IXC_ST_SLICES,		/* "input"/"output" lines, then "end" */
	IXC_ST_END,		/* after "end": only blank lines and comments */
};

struct ixc_hsp_parser {
	struct ipuxcom_hsp_manifest *m;
	struct ipuxcom_errmsg *em;
	unsigned int line;
	char where[24];
	char *tok[IXC_HSP_MAX_TOKENS];
	int ntok;
};

__attribute__((format(printf, 2, 3)))
static int ixc_perr(struct ixc_hsp_parser *p, const char *fmt, ...)
{
	char msg[IPUXCOM_ERRMSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ixc_err(p->em, -EBADMSG, "line %u: %s", p->line, msg);
}

/* Decimal without leading zeros, or 0x and 1-8 hex digits. */
static int ixc_pnum(struct ixc_hsp_parser *p, int i, const char *what, uint32_t *out)
{
	const char *s = p->tok[i];
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		size_t n = strlen(s + 2);

		if (n < 1 || n > 8)
			goto bad;
		for (const char *c = s + 2; *c; c++) {
			int d = *c >= '0' && *c <= '9' ? *c - '0' :
				*c >= 'a' && *c <= 'f' ? *c - 'a' + 10 :
				*c >= 'A' && *c <= 'F' ? *c - 'A' + 10 : -1;

			if (d < 0)
				goto bad;
			v = v << 4 | (uint64_t)d;
		}
	} else {
		if (!*s || (s[0] == '0' && s[1]) || strlen(s) > 10)
			goto bad;
		for (const char *c = s; *c; c++) {
			if (*c < '0' || *c > '9')
				goto bad;
			v = v * 10 + (uint64_t)(*c - '0');
		}
		if (v > UINT32_MAX)
			goto bad;
	}
	*out = (uint32_t)v;
	return 0;
bad:
	return ixc_perr(p, "bad %s '%s' (a 32-bit number: decimal without leading zeros, "
			"or 0x and 1-8 hex digits)", what, s);
}

/* Tokens must be: keyword @kw, then pairs "key value" given in @keys. */
static int ixc_pexpect(struct ixc_hsp_parser *p, int ntok, const char *form)
{
	if (p->ntok != ntok)
		return ixc_perr(p, "'%s' takes the form '%s'", p->tok[0], form);
	return 0;
}

static int ixc_pkey(struct ixc_hsp_parser *p, int i, const char *key, const char *form)
{
	if (strcmp(p->tok[i], key))
		return ixc_perr(p, "expected '%s', got '%s' (form: '%s')", key, p->tok[i], form);
	return 0;
}

static int ixc_hsp_line(struct ixc_hsp_parser *p, enum ixc_hsp_stage *st)
{
	struct ipuxcom_hsp_manifest *m = p->m;
	const char *kw = p->tok[0];
	uint32_t v;
	int err;

	if (*st == IXC_ST_HEADER) {
		static const char form[] = "ipuhsp 1";

		if (strcmp(kw, "ipuhsp"))
			return ixc_perr(p, "expected the header '%s', got '%s'", form, kw);
		err = ixc_pexpect(p, 2, form);
		if (!err)
			err = ixc_pnum(p, 1, "version", &v);
		if (err)
			return err;
		if (v != IPUXCOM_HSP_VERSION)
			return ixc_perr(p, "version %" PRIu32 " (this library reads version %u)", v,
					IPUXCOM_HSP_VERSION);
		*st = IXC_ST_PAGES;
		return 0;
	}
	if (*st == IXC_ST_PAGES && !strcmp(kw, "page")) {
		static const char form[] = "page INDEX size BYTES";
		uint32_t idx, size;

		err = ixc_pexpect(p, 4, form);
		if (!err)
			err = ixc_pnum(p, 1, "page index", &idx);
		if (!err)
			err = ixc_pkey(p, 2, "size", form);
		if (!err)
			err = ixc_pnum(p, 3, "page size", &size);
		if (err)
			return err;
		if (idx != m->npages)
			return ixc_perr(p, "page %" PRIu32 " out of order (expected page %"
					PRIu32 ")", idx, m->npages);
		if (m->npages >= IPUXCOM_HSP_MAX_PAGES)
			return ixc_perr(p, "more than %u pages", IPUXCOM_HSP_MAX_PAGES);
		err = ixc_hsp_check_page(p->where, size, p->em);
		if (err)
			return err;
		m->page_size[m->npages++] = size;
		return 0;
	}
	if (*st == IXC_ST_PAGES && !strcmp(kw, "attach")) {
		uint32_t seen = 0;

		if (!m->npages)
			return ixc_perr(p, "'attach' before any 'page'");
		if ((uint32_t)p->ntok != m->npages + 1)
			return ixc_perr(p, "'attach' lists %d pages; it must list each of the %"
					PRIu32 " pages once, in attach order", p->ntok - 1,
					m->npages);
		for (int i = 1; i < p->ntok; i++) {
			err = ixc_pnum(p, i, "page index", &v);
			if (err)
				return err;
			if (v >= m->npages || seen & (1u << v))
				return ixc_perr(p, "'attach' names page %" PRIu32 " %s", v,
						v >= m->npages ? "which does not exist" : "twice");
			seen |= 1u << v;
			m->attach_order[i - 1] = v;
		}
		*st = IXC_ST_COMMAND;
		return 0;
	}
	if (*st == IXC_ST_COMMAND && !strcmp(kw, "command")) {
		static const char form[] = "command page INDEX offset BYTES";

		err = ixc_pexpect(p, 5, form);
		if (!err)
			err = ixc_pkey(p, 1, "page", form);
		if (!err)
			err = ixc_pnum(p, 2, "page index", &m->command_page);
		if (!err)
			err = ixc_pkey(p, 3, "offset", form);
		if (!err)
			err = ixc_pnum(p, 4, "offset", &m->command_offset);
		if (!err)
			err = ixc_hsp_check_command(m, p->where, p->em);
		if (err)
			return err;
		*st = IXC_ST_CALLS;
		return 0;
	}
	if (*st == IXC_ST_CALLS && !strcmp(kw, "call")) {
		static const char form[] = "call NAME id ID phases N";
		struct ipuxcom_hsp_call *c;

		if (m->ncalls >= IPUXCOM_HSP_MAX_CALLS)
			return ixc_perr(p, "more than %u calls", IPUXCOM_HSP_MAX_CALLS);
		c = &m->calls[m->ncalls];
		err = ixc_pexpect(p, 6, form);
		if (err)
			return err;
		if (strlen(p->tok[1]) >= IPUXCOM_HSP_NAME_LEN || !ixc_hsp_name_ok(p->tok[1]))
			return ixc_perr(p, "bad call name '%s' (1-%u characters of a-z, 0-9, _, "
					"starting with a letter)", p->tok[1],
					IPUXCOM_HSP_NAME_LEN - 1);
		snprintf(c->name, sizeof(c->name), "%s", p->tok[1]);
		err = ixc_pkey(p, 2, "id", form);
		if (!err)
			err = ixc_pnum(p, 3, "call id", &c->id);
		if (!err)
			err = ixc_pkey(p, 4, "phases", form);
		if (!err)
			err = ixc_pnum(p, 5, "phase count", &c->phases);
		if (!err)
			err = ixc_hsp_check_call(m, m->ncalls, p->where, p->em);
		if (err)
			return err;
		m->ncalls++;
		return 0;
	}
	if ((*st == IXC_ST_CALLS || *st == IXC_ST_SLICES) &&
	    (!strcmp(kw, "input") || !strcmp(kw, "output"))) {
		static const char form[] = "input|output CALL page INDEX offset BYTES size BYTES";
		struct ipuxcom_hsp_slice *s;
		int call;

		if (!m->ncalls)
			return ixc_perr(p, "'%s' before any 'call'", kw);
		if (m->nslices >= IPUXCOM_HSP_MAX_SLICES)
			return ixc_perr(p, "more than %u slices", IPUXCOM_HSP_MAX_SLICES);
		s = &m->slices[m->nslices];
		err = ixc_pexpect(p, 8, form);
		if (err)
			return err;
		call = ipuxcom_hsp_find_call(m, p->tok[1]);
		if (call < 0)
			return ixc_perr(p, "'%s' slice of undefined call '%s'", kw, p->tok[1]);
		s->call = (uint32_t)call;
		s->dir = kw[0] == 'i' ? IPUXCOM_HSP_INPUT : IPUXCOM_HSP_OUTPUT;
		err = ixc_pkey(p, 2, "page", form);
		if (!err)
			err = ixc_pnum(p, 3, "page index", &s->page);
		if (!err)
			err = ixc_pkey(p, 4, "offset", form);
		if (!err)
			err = ixc_pnum(p, 5, "offset", &s->offset);
		if (!err)
			err = ixc_pkey(p, 6, "size", form);
		if (!err)
			err = ixc_pnum(p, 7, "size", &s->size);
		if (!err)
			err = ixc_hsp_check_slice(m, m->nslices, p->where, p->em);
		if (err)
			return err;
		m->nslices++;
		*st = IXC_ST_SLICES;
		return 0;
	}
	if ((*st == IXC_ST_CALLS || *st == IXC_ST_SLICES) && !strcmp(kw, "end")) {
		if (!m->ncalls)
			return ixc_perr(p, "'end' before any 'call'");
		err = ixc_pexpect(p, 1, "end");
		if (err)
			return err;
		*st = IXC_ST_END;
		return 0;
	}
	switch (*st) {
	case IXC_ST_PAGES:
		return ixc_perr(p, "expected 'page' or 'attach', got '%s'", kw);
	case IXC_ST_COMMAND:
		return ixc_perr(p, "expected 'command', got '%s'", kw);
	case IXC_ST_CALLS:
		return ixc_perr(p, "expected 'call', 'input', 'output' or 'end', got '%s'", kw);
	case IXC_ST_SLICES:
		return ixc_perr(p, "expected 'input', 'output' or 'end', got '%s'", kw);
	default:
		return ixc_perr(p, "'%s' after 'end'", kw);
	}
}

int ipuxcom_hsp_parse(const char *text, size_t len, struct ipuxcom_hsp_manifest *m,
		      struct ipuxcom_errmsg *em)
{
	static const char *const missing[] = {
		[IXC_ST_HEADER] = "the header 'ipuhsp 1'",
		[IXC_ST_PAGES] = "'page' and 'attach' lines",
		[IXC_ST_COMMAND] = "the 'command' line",
		[IXC_ST_CALLS] = "'call' lines and 'end'",
		[IXC_ST_SLICES] = "the final 'end' line",
	};
	struct ixc_hsp_parser p = { .m = m, .em = em };
	enum ixc_hsp_stage st = IXC_ST_HEADER;
	char line[IXC_HSP_MAX_LINE + 1];
	size_t pos = 0;
	int err;

	ixc_err_clear(em);
	if (!m || (!text && len))
		return ixc_err(em, -EINVAL, "no text or no manifest");
	memset(m, 0, sizeof(*m));
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		bool comment = false;
		char *s, *save = NULL;

		p.line++;
		snprintf(p.where, sizeof(p.where), "line %u", p.line);
		if (!nl)
			return ixc_err(em, -EBADMSG, "line %u: no newline at the end of the file "
				       "(truncated?)", p.line);
		if (n > IXC_HSP_MAX_LINE)
			return ixc_err(em, -EBADMSG, "line %u: longer than %d bytes", p.line,
				       IXC_HSP_MAX_LINE);
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + 1;
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)line[i];

			if (c == '#' && !comment) {
				/* A comment is a whole line: only blanks before it. */
				for (size_t j = 0; j < i; j++)
					if (line[j] != ' ' && line[j] != '\t')
						return ixc_err(em, -EBADMSG,
							       "line %u: '#' after text (comments "
							       "take whole lines)", p.line);
				comment = true;
			}
			if ((c < 0x20 && c != '\t') || c == 0x7f || (c >= 0x80 && !comment))
				return ixc_err(em, -EBADMSG,
					       "line %u, column %zu: byte 0x%02x is not allowed "
					       "(printable ASCII, spaces and tabs only)",
					       p.line, i + 1, c);
		}
		if (comment)
			continue;
		p.ntok = 0;
		for (s = strtok_r(line, " \t", &save); s; s = strtok_r(NULL, " \t", &save)) {
			if (p.ntok == IXC_HSP_MAX_TOKENS)
				return ixc_err(em, -EBADMSG, "line %u: more than %d words", p.line,
					       IXC_HSP_MAX_TOKENS);
			p.tok[p.ntok++] = s;
		}
		if (!p.ntok)
			continue;
		err = ixc_hsp_line(&p, &st);
		if (err)
			return err;
	}
	if (st != IXC_ST_END)
		return ixc_err(em, -EBADMSG, "end of file after line %u: missing %s", p.line,
			       missing[st]);
	err = ipuxcom_hsp_validate(m, em);
	if (err)
		return err;
	return 0;
}

int ipuxcom_hsp_load(const char *path, struct ipuxcom_hsp_manifest *m,
		     struct ipuxcom_errmsg *em)
{
	uint8_t *data;
	size_t len;
	int err;

	ixc_err_clear(em);
	if (!m)
		return ixc_err(em, -EINVAL, "no manifest");
	err = ixc_read_file(path, IXC_HSP_MAX_FILE, "host-sync manifest", &data, &len, em);
	if (err)
		return err;
	err = ipuxcom_hsp_parse((const char *)data, len, m, em);
	free(data);
	if (err)
		return ixc_err_prefix(em, err, "%s", path);
	return 0;
}

/* ----------------------------------------------------------------- writer */

int ipuxcom_hsp_format(const struct ipuxcom_hsp_manifest *m, char **text, size_t *len,
		       struct ipuxcom_errmsg *em)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f;
	int err;

	ixc_err_clear(em);
	if (!text || !len)
		return ixc_err(em, -EINVAL, "no output");
	*text = NULL;
	*len = 0;
	err = ipuxcom_hsp_validate(m, em);
	if (err)
		return err == -EBADMSG ? -EINVAL : err;
	f = open_memstream(&buf, &size);
	if (!f)
		return ixc_err(em, -ENOMEM, "no memory");
	fprintf(f, "# ipuxcom host-sync manifest (docs/ipuhsp-format.md)\nipuhsp %u\n",
		IPUXCOM_HSP_VERSION);
	for (uint32_t i = 0; i < m->npages; i++)
		fprintf(f, "page %" PRIu32 " size %" PRIu32 "\n", i, m->page_size[i]);
	fputs("attach", f);
	for (uint32_t i = 0; i < m->npages; i++)
		fprintf(f, " %" PRIu32, m->attach_order[i]);
	fprintf(f, "\ncommand page %" PRIu32 " offset 0x%" PRIx32 "\n", m->command_page,
		m->command_offset);
	for (uint32_t i = 0; i < m->ncalls; i++)
		fprintf(f, "call %s id %" PRIu32 " phases %" PRIu32 "\n", m->calls[i].name,
			m->calls[i].id, m->calls[i].phases);
	for (uint32_t i = 0; i < m->nslices; i++) {
		const struct ipuxcom_hsp_slice *s = &m->slices[i];

		fprintf(f, "%s %s page %" PRIu32 " offset 0x%" PRIx32 " size %" PRIu32 "\n",
			ixc_dir_names[s->dir], m->calls[s->call].name, s->page, s->offset,
			s->size);
	}
	fputs("end\n", f);
	if (fclose(f) || !buf) {
		free(buf);
		return ixc_err(em, -ENOMEM, "no memory");
	}
	*text = buf;
	*len = size;
	return 0;
}
