// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Timing models: TimeToMux(s, d) and direction(s, d) behind one interface
 * (struct ixc_timing_ops), so that a measured table can replace the public
 * reconstruction.
 *
 * The reconstruction is HW-TIMETOMUX [RE], verbatim
 * (plan_internal.h, inline so the assemblers can skip the indirect call).
 * Its range over all ordered pairs of distinct physical tiles is exactly
 * [-78, 112] = [-WORSTSENDDELAY, WORSTRECVDELAY] [DW] (plan_timing_test
 * checks it); it is still a reconstruction, not Graphcore's code.
 *
 * Table files are text (docs/exchange-plans.md, "Timing table files"):
 *   ipuxcom-timing 1
 *   # comments, header only
 *   tiles 1472
 *   name NAME                 (optional)
 *   directions table|model
 *   data
 *   1472 lines of 1472 signed decimals: line s holds TimeToMux(s, d), d = 0..1471
 *   with "directions table": 1472 more lines of 1 or 2 (0 on the diagonal)
 * Diagonal TimeToMux values must be 0; every other value must lie in
 * -78..112 [DW] (the p2p receiver listens at event 112 [S], so a larger
 * value has no schedule).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_internal.h"

#define N IPUXCOM_TILES
#define TT_MIN (-IPUXCOM_WORST_SEND_DELAY)
#define TT_MAX IPUXCOM_WORST_RECV_DELAY

/* ------------------------------------------------------------ reconstruction */

/* The per-tile terms of the reconstruction (plan_internal.h), at compile time. */
#define T1(t)	{ { IXC_TERM_A0(t), IXC_TERM_A1(t) }, IXC_TERM_SS(t), IXC_TERM_B(t),	\
		  IXC_TERM_DD(t), { 0, 0, 0 } }
#define T4(t)	T1((t)), T1((t) + 1), T1((t) + 2), T1((t) + 3)
#define T16(t)	T4((t)), T4((t) + 4), T4((t) + 8), T4((t) + 12)
#define T64(t)	T16((t)), T16((t) + 16), T16((t) + 32), T16((t) + 48)

const struct ixc_tile_term ixc_tile_terms[IPUXCOM_TILES] = {
	T64(0u), T64(64u), T64(128u), T64(192u), T64(256u), T64(320u), T64(384u), T64(448u),
	T64(512u), T64(576u), T64(640u), T64(704u), T64(768u), T64(832u), T64(896u),
	T64(960u), T64(1024u), T64(1088u), T64(1152u), T64(1216u), T64(1280u), T64(1344u),
	T64(1408u),
};

#undef T1
#undef T4
#undef T16
#undef T64

/* ixc_ttm64[a][b] (plan_internal.h): the formula's terms for tiles a, b < 64 (row 0). */
#define DISP64(a, b)	(IXC_TERM_DD(b) - IXC_TERM_SS(a))
#define E1(a, b)	{ (int8_t)((((a) ^ (b)) & 0x20 ? IXC_TERM_A1(a) : IXC_TERM_A0(a)) +	\
				   IXC_TERM_B(b) + (DISP64(a, b) < 0 ? -DISP64(a, b) :		\
						    DISP64(a, b))),				\
			  (uint8_t)(DISP64(a, b) < 1 ? 2 : 1) }	/* ixc_dir_of_disp() */
#define E4(a, b)	E1(a, b), E1(a, (b) + 1), E1(a, (b) + 2), E1(a, (b) + 3)
#define E16(a, b)	E4(a, b), E4(a, (b) + 4), E4(a, (b) + 8), E4(a, (b) + 12)
#define ROW(a)		{ E16(a, 0u), E16(a, 16u), E16(a, 32u), E16(a, 48u) }
#define ROW4(a)		ROW(a), ROW((a) + 1), ROW((a) + 2), ROW((a) + 3)
#define ROW16(a)	ROW4(a), ROW4((a) + 4), ROW4((a) + 8), ROW4((a) + 12)

const struct ixc_ttm64 ixc_ttm64[64][64] = {
	ROW16(0u), ROW16(16u), ROW16(32u), ROW16(48u),
};

#undef DISP64
#undef E1
#undef E4
#undef E16
#undef ROW
#undef ROW4
#undef ROW16

unsigned int ixc_dir_reconstruction(uint32_t s, uint32_t d)
{
	unsigned int dir;

	ixc_recon_pair_inline(s, d, &dir);
	return dir;
}

int ixc_ttm_reconstruction(uint32_t s, uint32_t d)
{
	unsigned int dir;

	return ixc_recon_pair_inline(s, d, &dir);
}

static int ixc_recon_pair(const struct ipuxcom_timing *tm, uint32_t s, uint32_t d,
			  unsigned int *dir)
{
	(void)tm;
	return ixc_recon_pair_inline(s, d, dir);
}

const struct ixc_timing_ops ixc_recon_ops = {
	.pair = ixc_recon_pair,
};

const struct ipuxcom_timing ixc_default_timing = {
	.ops = &ixc_recon_ops,
	.kind = IPUXCOM_TIMING_RECONSTRUCTION,
	.name = "reconstruction",
};

/* ------------------------------------------------------------------- table */

static int ixc_table_pair(const struct ipuxcom_timing *tm, uint32_t s, uint32_t d,
			  unsigned int *dir)
{
	return ixc_table_pair_inline(tm, s, d, dir);
}

const struct ixc_timing_ops ixc_table_ops = {
	.pair = ixc_table_pair,
};

const struct ipuxcom_timing *ipuxcom_timing_default(void)
{
	return &ixc_default_timing;
}

void ipuxcom_timing_free(struct ipuxcom_timing *tm)
{
	if (!tm || tm == &ixc_default_timing)
		return;
	free(tm->tmux);
	free(tm->dir);
	free(tm);
}

const char *ipuxcom_timing_name(const struct ipuxcom_timing *tm)
{
	return ixc_timing(tm)->name;
}

int ipuxcom_timing_kind(const struct ipuxcom_timing *tm)
{
	return ixc_timing(tm)->kind;
}

int ixc_timing_bad(const struct ipuxcom_timing *tm, uint32_t s, uint32_t d, int t,
		   unsigned int dir, struct ipuxcom_plan_error *err, const char *field)
{
	return ixc_plan_fail(err, IPUXCOM_PLAN_E_TIMING, field,
			     "%s: timing model '%s' gives TimeToMux(%u, %u) = %d, direction %u "
			     "(need %d..%d and 1 or 2)", field, tm->name, s, d, t, dir, TT_MIN,
			     TT_MAX);
}

static int ixc_pair_args(uint32_t s, uint32_t d, const void *out, struct ipuxcom_plan_error *err)
{
	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	if (s >= N)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_TILE, "src",
				     "src %u out of range 0..%u (physical)", s, N - 1);
	if (d >= N)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_TILE, "dst",
				     "dst %u out of range 0..%u (physical)", d, N - 1);
	if (s == d)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SELF, "dst",
				     "dst %u is src: TimeToMux needs two tiles", d);
	return 0;
}

int ipuxcom_time_to_mux(const struct ipuxcom_timing *tm, uint32_t src, uint32_t dst, int *out,
			struct ipuxcom_plan_error *err)
{
	unsigned int dir = 0;
	int ret = ixc_pair_args(src, dst, out, err);

	if (ret)
		return ret;
	ret = ixc_timing_pair(ixc_timing(tm), src, dst, out, &dir, err, "timing");
	if (!ret)
		ixc_plan_ok(err);
	return ret;
}

int ipuxcom_route_direction(const struct ipuxcom_timing *tm, uint32_t src, uint32_t dst,
			    unsigned int *out, struct ipuxcom_plan_error *err)
{
	int t, ret = ixc_pair_args(src, dst, out, err);

	if (ret)
		return ret;
	ret = ixc_timing_pair(ixc_timing(tm), src, dst, &t, out, err, "timing");
	if (!ret)
		ixc_plan_ok(err);
	return ret;
}

/* [A-Za-z0-9._:+-]{1,25}: "table:" + name fits IPUXCOM_TIMING_NAME_LEN. */
#define IXC_TABLE_NAME_MAX	(IPUXCOM_TIMING_NAME_LEN - 1 - 6)

static bool ixc_name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '.' || ch == '_' || ch == ':' || ch == '+' || ch == '-';
}

static int ixc_check_name(const char *name, size_t len, struct ipuxcom_plan_error *err)
{
	if (len == 0 || len > IXC_TABLE_NAME_MAX)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NAME, "name",
				     "name length %zu out of range 1..%d", len, IXC_TABLE_NAME_MAX);
	for (size_t i = 0; i < len; i++)
		if (!ixc_name_char(name[i]))
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_NAME, "name",
					     "name character %zu (0x%02x) not in [A-Za-z0-9._:+-]",
					     i, (unsigned char)name[i]);
	return 0;
}

static int ixc_table_alloc(const char *name, size_t len, bool with_dir,
			   struct ipuxcom_timing **out, struct ipuxcom_plan_error *err)
{
	struct ipuxcom_timing *tm = calloc(1, sizeof(*tm));

	if (tm) {
		tm->tmux = malloc((size_t)N * N);
		if (with_dir)
			tm->dir = malloc((size_t)N * N);
	}
	if (!tm || !tm->tmux || (with_dir && !tm->dir)) {
		ipuxcom_timing_free(tm);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "table",
				     "cannot allocate a %u x %u timing table", N, N);
	}
	tm->ops = &ixc_table_ops;
	tm->kind = IPUXCOM_TIMING_TABLE;
	snprintf(tm->name, sizeof(tm->name), "table:%.*s", (int)len, name);
	*out = tm;
	return 0;
}

int ipuxcom_timing_from_table(const int16_t *time_to_mux, const uint8_t *direction,
			      const char *name, struct ipuxcom_timing **out,
			      struct ipuxcom_plan_error *err)
{
	struct ipuxcom_timing *tm;
	int ret;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	*out = NULL;
	if (!time_to_mux)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "time_to_mux", "time_to_mux is NULL");
	if (!name)
		name = "table";
	ret = ixc_check_name(name, strlen(name), err);
	if (ret)
		return ret;
	for (uint32_t s = 0; s < N; s++) {
		for (uint32_t d = 0; d < N; d++) {
			int v = time_to_mux[s * N + d];
			unsigned int r = direction ? direction[s * N + d] : 1;

			if (s == d)
				continue;
			if (v < TT_MIN || v > TT_MAX)
				return ixc_plan_fail(err, IPUXCOM_PLAN_E_TIMING, "time_to_mux",
						     "time_to_mux[%u][%u] %d out of range %d..%d",
						     s, d, v, TT_MIN, TT_MAX);
			if (r != 1 && r != 2)
				return ixc_plan_fail(err, IPUXCOM_PLAN_E_TIMING, "direction",
						     "direction[%u][%u] %u is not 1 or 2", s, d, r);
		}
	}
	ret = ixc_table_alloc(name, strlen(name), direction != NULL, &tm, err);
	if (ret)
		return ret;
	for (size_t i = 0; i < (size_t)N * N; i++) {
		bool diag = i / N == i % N;

		tm->tmux[i] = diag ? 0 : (int8_t)time_to_mux[i];
		if (tm->dir)
			tm->dir[i] = diag ? 0 : direction[i];
	}
	*out = tm;
	ixc_plan_ok(err);
	return 0;
}

/* ------------------------------------------------------------ file format */

#define IXC_TABLE_MAGIC		"ipuxcom-timing 1"
/* Largest file accepted: two matrices of "-78 " plus slack. */
#define IXC_TABLE_MAX_BYTES	(64u << 20)

struct ixc_parser {
	const char *p, *end;
	unsigned long line;		/* 1-based number of the line at p */
	struct ipuxcom_plan_error *err;
};

/* The current line without its "\n" (and an "\r" before it); advances. */
static bool ixc_next_line(struct ixc_parser *ps, const char **s, size_t *len)
{
	const char *nl;

	if (ps->p >= ps->end)
		return false;
	nl = memchr(ps->p, '\n', (size_t)(ps->end - ps->p));
	*s = ps->p;
	*len = (size_t)((nl ? nl : ps->end) - ps->p);
	if (*len && (*s)[*len - 1] == '\r')
		(*len)--;
	ps->p = nl ? nl + 1 : ps->end;
	ps->line++;
	return true;
}

static bool ixc_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* Parse one matrix row of 1472 values into @row (range checks by caller). */
static int ixc_parse_row(struct ixc_parser *ps, const char *what, uint32_t s, int *row)
{
	const char *line, *q, *e;
	size_t len;
	uint32_t d = 0;

	if (!ixc_next_line(ps, &line, &len))
		return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, what,
				     "end of file at line %lu: %s row %u of %u missing",
				     ps->line + 1, what, s, N);
	q = line;
	e = line + len;
	for (;;) {
		long v = 0;
		bool neg = false;
		const char *digits;

		while (q < e && ixc_blank(*q))
			q++;
		if (q == e)
			break;
		if (d == N)
			return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, what,
					     "line %lu (%s row %u): more than %u values",
					     ps->line, what, s, N);
		if (*q == '-' || *q == '+')
			neg = *q++ == '-';
		digits = q;
		while (q < e && *q >= '0' && *q <= '9' && v < 100000)
			v = v * 10 + (*q++ - '0');
		if (q == digits || (q < e && !ixc_blank(*q)))
			return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, what,
					     "line %lu (%s row %u) column %u: not a decimal integer",
					     ps->line, what, s, d);
		row[d++] = (int)(neg ? -v : v);
	}
	if (d != N)
		return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, what,
				     "line %lu (%s row %u): %u values, expected %u",
				     ps->line, what, s, d, N);
	return 0;
}

static int ixc_parse_table(struct ixc_parser *ps, struct ipuxcom_timing **out)
{
	const char *line, *name = "file";
	size_t len, name_len = 4;
	int dirs = -1, tiles = -1, ret;
	struct ipuxcom_timing *tm = NULL;
	int *row;

	if (!ixc_next_line(ps, &line, &len) || len != strlen(IXC_TABLE_MAGIC) ||
	    memcmp(line, IXC_TABLE_MAGIC, len))
		return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, "header",
				     "line 1: not a timing table (expected '" IXC_TABLE_MAGIC "')");
	for (;;) {
		const char *val;
		size_t klen;

		if (!ixc_next_line(ps, &line, &len))
			return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, "header",
					     "end of file in the header: no 'data' line");
		if (len == 0 || line[0] == '#')
			continue;
		if (len == 4 && !memcmp(line, "data", 4))
			break;
		val = memchr(line, ' ', len);
		if (!val)
			return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, "header",
					     "line %lu: expected 'KEY VALUE'", ps->line);
		klen = (size_t)(val - line);
		val++;
		len -= klen + 1;
		if (klen == 5 && !memcmp(line, "tiles", 5)) {
			if (len != 4 || memcmp(val, "1472", 4))
				return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, "tiles",
						     "line %lu: tiles '%.*s', this library supports "
						     "1472 (C600) only", ps->line, (int)(len > 16 ? 16 : len),
						     val);
			tiles = N;
		} else if (klen == 10 && !memcmp(line, "directions", 10)) {
			if (len == 5 && !memcmp(val, "table", 5))
				dirs = 1;
			else if (len == 5 && !memcmp(val, "model", 5))
				dirs = 0;
			else
				return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, "directions",
						     "line %lu: directions must be 'table' or 'model'",
						     ps->line);
		} else if (klen == 4 && !memcmp(line, "name", 4)) {
			struct ipuxcom_plan_error nerr;

			if (ixc_check_name(val, len, &nerr))
				return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, "name",
						     "line %lu: %s", ps->line, nerr.msg);
			name = val;
			name_len = len;
		} else {
			return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, "header",
					     "line %lu: unknown header key '%.*s'", ps->line,
					     (int)(klen > 16 ? 16 : klen), line);
		}
	}
	if (tiles < 0)
		return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, "tiles",
				     "header has no 'tiles' line");
	if (dirs < 0)
		return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, "directions",
				     "header has no 'directions' line");
	row = malloc(sizeof(*row) * N);
	if (!row)
		return ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_NOMEM, "table", "out of memory");
	ret = ixc_table_alloc(name, name_len, dirs == 1, &tm, ps->err);
	for (uint32_t s = 0; !ret && s < N; s++) {
		ret = ixc_parse_row(ps, "time_to_mux", s, row);
		for (uint32_t d = 0; !ret && d < N; d++) {
			if (d == s ? row[d] != 0 : (row[d] < TT_MIN || row[d] > TT_MAX))
				ret = ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, "time_to_mux",
						    "line %lu: time_to_mux[%u][%u] %d out of range %s",
						    ps->line, s, d, row[d],
						    d == s ? "0..0 (diagonal)" : "-78..112");
			else
				tm->tmux[s * N + d] = (int8_t)row[d];
		}
	}
	for (uint32_t s = 0; !ret && dirs == 1 && s < N; s++) {
		ret = ixc_parse_row(ps, "direction", s, row);
		for (uint32_t d = 0; !ret && d < N; d++) {
			if (d == s ? row[d] != 0 : (row[d] != 1 && row[d] != 2))
				ret = ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, "direction",
						    "line %lu: direction[%u][%u] %d is not %s",
						    ps->line, s, d, row[d],
						    d == s ? "0 (diagonal)" : "1 or 2");
			else
				tm->dir[s * N + d] = (uint8_t)row[d];
		}
	}
	while (!ret && ixc_next_line(ps, &line, &len)) {
		for (size_t i = 0; i < len; i++)
			if (!ixc_blank(line[i]))
				ret = ixc_plan_fail(ps->err, IPUXCOM_PLAN_E_FORMAT, "data",
						    "line %lu: data after the last table row", ps->line);
	}
	free(row);
	if (ret) {
		ipuxcom_timing_free(tm);
		return ret;
	}
	*out = tm;
	return 0;
}

int ipuxcom_timing_load(const char *path, struct ipuxcom_timing **out,
			struct ipuxcom_plan_error *err)
{
	struct ixc_parser ps = { .err = err };
	char *buf = NULL;
	size_t n = 0, cap = 0;
	FILE *f;
	int ret;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	*out = NULL;
	if (!path)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "path", "path is NULL");
	f = fopen(path, "rbe");
	if (!f)
		return ixc_plan_fail_io(err, errno, "path", "cannot open %s: %s", path,
					strerror(errno));
	for (;;) {
		size_t got;

		if (n == cap) {
			char *nb;

			if (cap >= IXC_TABLE_MAX_BYTES) {
				fclose(f);
				free(buf);
				return ixc_plan_fail(err, IPUXCOM_PLAN_E_FORMAT, "path",
						     "%s: larger than %u MiB: not a timing table",
						     path, IXC_TABLE_MAX_BYTES >> 20);
			}
			cap = cap ? cap * 2 : (1u << 20);
			nb = realloc(buf, cap);
			if (!nb) {
				fclose(f);
				free(buf);
				return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "path",
						     "cannot buffer %s", path);
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno ? errno : EIO;

		fclose(f);
		free(buf);
		return ixc_plan_fail_io(err, e, "path", "cannot read %s: %s", path, strerror(e));
	}
	fclose(f);
	ps.p = buf;
	ps.end = buf + n;
	ret = ixc_parse_table(&ps, out);
	free(buf);
	if (!ret)
		ixc_plan_ok(err);
	return ret;
}

/* Append "v " (or "v\n" at the end of a row) to @p. */
static char *ixc_put_int(char *p, int v, bool last)
{
	char tmp[8];
	int n = 0;
	unsigned int u = v < 0 ? (unsigned int)-v : (unsigned int)v;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*p++ = '-';
	while (n)
		*p++ = tmp[--n];
	*p++ = last ? '\n' : ' ';
	return p;
}

/*
 * The table file of @tm on @f. 0; -ENOMEM; or a write error: *@werr is the
 * errno of the first write that failed, taken at that call (errno is
 * stale by the time ferror() could be asked), and emitting stops there.
 */
static int ixc_timing_emit(const struct ipuxcom_timing *tm, FILE *f, int *werr)
{
	const char *name;
	char *line;

	*werr = 0;
	tm = ixc_timing(tm);
	name = tm->kind == IPUXCOM_TIMING_TABLE ? tm->name + 6 : tm->name;
	line = malloc((size_t)N * 5 + 2);
	if (!line)
		return -ENOMEM;
	errno = 0;
	if (fprintf(f, IXC_TABLE_MAGIC "\n# TimeToMux(s, d) then direction(s, d) for physical "
		    "tiles; line s, column d\ntiles %u\nname %s\ndirections table\ndata\n", N,
		    name) < 0) {
		*werr = errno ? errno : EIO;
		goto out;
	}
	for (int m = 0; m < 2; m++) {
		for (uint32_t s = 0; s < N; s++) {
			char *p = line;

			for (uint32_t d = 0; d < N; d++) {
				int v = 0;

				if (s != d) {
					unsigned int dir;

					v = tm->ops->pair(tm, s, d, &dir);
					if (m == 1)
						v = (int)dir;
				}
				p = ixc_put_int(p, v, d == N - 1);
			}
			errno = 0;
			if (fwrite(line, 1, (size_t)(p - line), f) != (size_t)(p - line)) {
				*werr = errno ? errno : EIO;
				goto out;
			}
		}
	}
	/* What the stream still buffers fails, if at all, here. */
	errno = 0;
	if (fflush(f))
		*werr = errno ? errno : EIO;
out:
	free(line);
	return *werr ? -*werr : 0;
}

static int ixc_timing_check_flags(uint32_t flags, struct ipuxcom_plan_error *err)
{
	if (flags)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", flags, flags);
	return 0;
}

int ipuxcom_timing_write(const struct ipuxcom_timing *tm, FILE *f, uint32_t flags,
			 struct ipuxcom_plan_error *err)
{
	int ret, werr;

	if (!f)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "f", "stream is NULL");
	ret = ixc_timing_check_flags(flags, err);
	if (ret)
		return ret;
	ret = ixc_timing_emit(tm, f, &werr);
	if (ret && !werr)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "f", "out of memory");
	if (werr && fileno(f) >= 0)
		return ixc_plan_fail_io(err, werr, "f", "write error on the stream (file "
					"descriptor %d): %s", fileno(f), strerror(werr));
	if (werr)	/* a stream with no descriptor: fmemopen(), fopencookie() */
		return ixc_plan_fail_io(err, werr, "f", "write error on the stream: %s",
					strerror(werr));
	ixc_plan_ok(err);
	return 0;
}

int ipuxcom_timing_save(const struct ipuxcom_timing *tm, const char *path, uint32_t flags,
			struct ipuxcom_plan_error *err)
{
	FILE *f;
	int ret, werr;

	if (!path)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "path", "path is NULL");
	ret = ixc_timing_check_flags(flags, err);
	if (ret)
		return ret;
	f = fopen(path, "we");
	if (!f) {
		int e = errno;

		return ixc_plan_fail_io(err, e, "path", "cannot create %s: %s", path, strerror(e));
	}
	ret = ixc_timing_emit(tm, f, &werr);
	if (ret && !werr) {
		fclose(f);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NOMEM, "path", "out of memory");
	}
	if (werr)
		ret = ixc_plan_fail_io(err, werr, "path", "cannot write %s: %s", path,
				       strerror(werr));
	errno = 0;
	if (fclose(f) && !ret) {
		werr = errno ? errno : EIO;
		ret = ixc_plan_fail_io(err, werr, "path", "cannot write %s: %s", path,
				       strerror(werr));
	}
	if (!ret)
		ixc_plan_ok(err);
	return ret;
}
