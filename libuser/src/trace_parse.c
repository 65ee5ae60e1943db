// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Config capture: the ipuxcom_bar_write tracepoint's lines in tracefs
 * output, as IPUCFG1 records. Pure text parsing, bounded by the given
 * length (the text need not be NUL-terminated).
 *
 * A "trace" line is
 *   "<comm>-<pid> [<cpu>] <flags> <secs>.<usecs>: ipuxcom_bar_write: dev=0 offset=0x0302c value=0x00000001"
 * where <comm> may hold blanks and colons, but at most 15 characters: it
 * cannot contain ": ipuxcom_bar_write: ", which is what is looked for.
 * The body after it is the tracepoint's TP_printk and is parsed strictly.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ipuxcom.h"

#include "image_internal.h"
#include "internal.h"

#define IXC_EVENT_TAG	": " IPUXCOM_TRACE_BAR_WRITE ": "

/* Find @needle (NUL-terminated) in the @len bytes at @hay. */
static const char *ixc_memmem(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	if (n > len)
		return NULL;
	for (size_t i = 0; i + n <= len; i++)
		if (hay[i] == needle[0] && !memcmp(hay + i, needle, n))
			return hay + i;
	return NULL;
}

/* @lit at *@p (before @end): consume it. */
static bool ixc_lit(const char **p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *p) < n || memcmp(*p, lit, n))
		return false;
	*p += n;
	return true;
}

/* 1..10 decimal digits fitting 32 bits. */
static bool ixc_dec32(const char **p, const char *end, uint32_t *out)
{
	uint64_t v = 0;
	const char *s = *p;

	while (s < end && *s >= '0' && *s <= '9' && s - *p < 10)
		v = v * 10 + (uint64_t)(*s++ - '0');
	if (s == *p || v > UINT32_MAX || (s < end && *s >= '0' && *s <= '9'))
		return false;
	*p = s;
	*out = (uint32_t)v;
	return true;
}

/* 1..8 hexadecimal digits. */
static bool ixc_hex32(const char **p, const char *end, uint32_t *out)
{
	uint32_t v = 0;
	const char *s = *p;

	for (; s < end && s - *p < 9; s++) {
		char c = *s;
		uint32_t d;

		if (c >= '0' && c <= '9')
			d = (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (uint32_t)(c - 'A' + 10);
		else
			break;
		if (s - *p == 8)
			return false;	/* a ninth digit */
		v = v << 4 | d;
	}
	if (s == *p)
		return false;
	*p = s;
	*out = v;
	return true;
}

int ixc_trace_parse_line(const char *line, size_t len, uint32_t *dev_id,
			 struct ipuxcom_cfg_record *rec)
{
	const char *end = line + len, *p;
	uint32_t dev, offset, value;

	/* Header and comment lines start with '#'. */
	if (len && line[0] == '#')
		return 0;
	p = ixc_memmem(line, len, IXC_EVENT_TAG);
	if (!p)
		return 0;
	p += strlen(IXC_EVENT_TAG);
	while (end > p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	if (!ixc_lit(&p, end, "dev=") || !ixc_dec32(&p, end, &dev) ||
	    !ixc_lit(&p, end, " offset=0x") || !ixc_hex32(&p, end, &offset) ||
	    !ixc_lit(&p, end, " value=0x") || !ixc_hex32(&p, end, &value) || p != end)
		return -EBADMSG;
	*dev_id = dev;
	rec->offset = offset;
	rec->value = value;
	return 1;
}

/* "# entries-in-buffer/entries-written: 5/7   #P:2": 7 - 5 events lost. */
static uint64_t ixc_trace_header_lost(const char *line, size_t len)
{
	const char *end = line + len, *p;
	uint32_t in_buf, written;

	p = ixc_memmem(line, len, "entries-in-buffer/entries-written: ");
	if (!p)
		return 0;
	p += strlen("entries-in-buffer/entries-written: ");
	/* The kernel prints unsigned longs; past 4G entries this gives up. */
	if (!ixc_dec32(&p, end, &in_buf) || !ixc_lit(&p, end, "/") ||
	    !ixc_dec32(&p, end, &written))
		return 0;
	return written > in_buf ? written - in_buf : 0;
}

/* "CPU:1 [LOST 42 EVENTS]" */
static uint64_t ixc_trace_lost_marker(const char *line, size_t len)
{
	const char *end = line + len, *p;
	uint32_t n;

	if (!ixc_lit(&line, end, "CPU:"))
		return 0;
	p = ixc_memmem(line, (size_t)(end - line), " [LOST ");
	if (!p)
		return 0;
	p += strlen(" [LOST ");
	if (!ixc_dec32(&p, end, &n) || !ixc_lit(&p, end, " EVENTS]"))
		return 0;
	return n ? n : 1;
}

int ipuxcom_cfg_from_trace(const char *text, size_t len, uint32_t dev_id,
			   struct ipuxcom_cfg_record **recs, uint32_t *count,
			   struct ipuxcom_trace_stats *stats, struct ipuxcom_errmsg *em)
{
	struct ipuxcom_trace_stats st = { .size = sizeof(st) };
	struct ipuxcom_cfg_record *out = NULL;
	uint64_t header_lost = 0, marker_lost = 0;
	size_t n = 0, cap = 0, lineno = 0, off = 0;
	int err;

	ixc_err_clear(em);
	if (recs)
		*recs = NULL;
	if (count)
		*count = 0;
	if (stats) {
		err = ixc_size_out_check(stats, IPUXCOM_TRACE_STATS_SIZE_MIN, IPUXCOM_ERR_FILE,
					 "stats.size", "IPUXCOM_TRACE_STATS_INIT",
					 em ? em->msg : NULL, em ? sizeof(em->msg) : 0);
		if (err)
			return err;
		ixc_struct_out(stats, stats->size, &st, sizeof(st));
	}
	if ((!text && len) || !recs || !count)
		return ixc_err(em, -EINVAL, "invalid argument");

	while (off < len) {
		const char *line = text + off;
		const char *nl = memchr(line, '\n', len - off);
		size_t llen = nl ? (size_t)(nl - line) : len - off;
		struct ipuxcom_cfg_record rec;
		uint32_t dev;
		int r;

		off += llen + (nl ? 1 : 0);
		lineno++;
		if (llen && line[0] == '#') {
			header_lost += ixc_trace_header_lost(line, llen);
			continue;
		}
		marker_lost += ixc_trace_lost_marker(line, llen);
		r = ixc_trace_parse_line(line, llen, &dev, &rec);
		if (r == 0)
			continue;
		if (r < 0) {
			err = ixc_err(em, -EBADMSG, "line %zu: malformed " IPUXCOM_TRACE_BAR_WRITE
				      " event: '%.*s'", lineno, (int)(llen > 120 ? 120 : llen),
				      line);
			goto fail;
		}
		st.writes++;
		if (dev_id != IPUXCOM_TRACE_ANY_DEV && dev != dev_id) {
			st.other_dev++;
			continue;
		}
		if (rec.offset % 4 || rec.offset >= IPUXCOM_CFG_BAR_SIZE) {
			err = ixc_err(em, -EBADMSG, "line %zu: offset 0x%" PRIx32 " is not a "
				      "config-BAR register", lineno, rec.offset);
			goto fail;
		}
		if (n == IPUXCOM_CFG_MAX_RECORDS) {
			err = ixc_err(em, -EFBIG, "more than %u config writes: too many for one "
				      "IPUCFG1 file", IPUXCOM_CFG_MAX_RECORDS);
			goto fail;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct ipuxcom_cfg_record *p;

			if (ncap > IPUXCOM_CFG_MAX_RECORDS)
				ncap = IPUXCOM_CFG_MAX_RECORDS;
			p = realloc(out, ncap * sizeof(*p));
			if (!p) {
				err = ixc_err(em, -ENOMEM, "out of memory");
				goto fail;
			}
			out = p;
			cap = ncap;
		}
		out[n++] = rec;
	}
	/* The two measures overlap: the larger one is the better estimate. */
	st.lost = header_lost > marker_lost ? header_lost : marker_lost;
	if (stats)
		ixc_struct_out(stats, stats->size, &st, sizeof(st));
	if (st.lost) {
		err = ixc_err(em, -ENOBUFS, "the trace lost %" PRIu64 " events (ring buffer "
			      "overrun): the capture is incomplete", st.lost);
		goto fail;
	}
	*recs = out;
	*count = (uint32_t)n;
	return 0;

fail:
	free(out);
	return err;
}
