// SPDX-License-Identifier: GPL-2.0-only
/*
 * Minimal streaming JSON writer; see json.h.
 */
#include <assert.h>
#include <inttypes.h>

#include "cli.h"
#include "json.h"

void json_init(struct json_writer *w, FILE *out)
{
	*w = (struct json_writer) { .out = out };
}

void json_init_call(struct json_writer *w, FILE *out, const struct cli_call *call)
{
	json_init(w, out);
	w->pretty = call->pretty;
}

/* With --pretty: a new line, indented to @depth. */
static void json_newline(struct json_writer *w, unsigned int depth)
{
	if (w->pretty)
		fprintf(w->out, "\n%*s", (int)(4 * depth), "");
}

/* The comma before a member of the innermost container, and its line. */
static void json_member_prefix(struct json_writer *w)
{
	if (!w->first[w->depth - 1])
		fputc(',', w->out);
	w->first[w->depth - 1] = false;
	json_newline(w, w->depth);
}

/* Comma and key bookkeeping before any value or container. */
static void json_value_prefix(struct json_writer *w)
{
	if (w->depth == 0)
		return;
	if (w->is_object[w->depth - 1]) {
		/* In an object the key (and its comma) came with json_key(). */
		assert(w->key_done);
		w->key_done = false;
		return;
	}
	json_member_prefix(w);
}

static void json_begin(struct json_writer *w, bool object)
{
	json_value_prefix(w);
	assert(w->depth < JSON_MAX_DEPTH);
	fputc(object ? '{' : '[', w->out);
	w->first[w->depth] = true;
	w->is_object[w->depth] = object;
	w->depth++;
}

static void json_end(struct json_writer *w, bool object)
{
	assert(w->depth > 0 && w->is_object[w->depth - 1] == object && !w->key_done);
	w->depth--;
	/* An empty container stays "[]" on its line. */
	if (!w->first[w->depth])
		json_newline(w, w->depth);
	fputc(object ? '}' : ']', w->out);
	if (w->depth == 0)
		fputc('\n', w->out);
}

void json_begin_object(struct json_writer *w)
{
	json_begin(w, true);
}

void json_end_object(struct json_writer *w)
{
	json_end(w, true);
}

void json_begin_array(struct json_writer *w)
{
	json_begin(w, false);
}

void json_end_array(struct json_writer *w)
{
	json_end(w, false);
}

void json_key(struct json_writer *w, const char *key)
{
	assert(w->depth > 0 && w->is_object[w->depth - 1] && !w->key_done);
	json_member_prefix(w);
	json_write_string(w->out, key);
	fputs(w->pretty ? ": " : ":", w->out);
	w->key_done = true;
}

/*
 * Length of the well-formed UTF-8 sequence at @s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0.
 */
static int utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	int n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	/* A NUL terminator fails the range test, so this stops at the end. */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

void json_write_string(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', out);
	while (*s) {
		int n;

		switch (*s) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\b':
			fputs("\\b", out);
			break;
		case '\f':
			fputs("\\f", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				fprintf(out, "\\u%04x", *s);
				break;
			}
			n = utf8_len(s);
			if (!n) {
				fputs("\\ufffd", out);
				break;
			}
			fwrite(s, 1, (size_t)n, out);
			s += n;
			continue;
		}
		s++;
	}
	fputc('"', out);
}

void json_string(struct json_writer *w, const char *s)
{
	json_value_prefix(w);
	json_write_string(w->out, s);
}

void json_uint(struct json_writer *w, uint64_t v)
{
	json_value_prefix(w);
	fprintf(w->out, "%" PRIu64, v);
}

void json_int(struct json_writer *w, int64_t v)
{
	json_value_prefix(w);
	fprintf(w->out, "%" PRId64, v);
}

/* A finite number with @decimals digits after the point (ratios; issue 25). */
void json_fixed(struct json_writer *w, double v, int decimals)
{
	json_value_prefix(w);
	fprintf(w->out, "%.*f", decimals, v);
}

void json_kv_fixed(struct json_writer *w, const char *key, double v, int decimals)
{
	json_key(w, key);
	json_fixed(w, v, decimals);
}

void json_bool(struct json_writer *w, bool v)
{
	json_value_prefix(w);
	fputs(v ? "true" : "false", w->out);
}

void json_null(struct json_writer *w)
{
	json_value_prefix(w);
	fputs("null", w->out);
}

void json_kv_string(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	json_string(w, s);
}

void json_kv_uint(struct json_writer *w, const char *key, uint64_t v)
{
	json_key(w, key);
	json_uint(w, v);
}

void json_kv_int(struct json_writer *w, const char *key, int64_t v)
{
	json_key(w, key);
	json_int(w, v);
}
