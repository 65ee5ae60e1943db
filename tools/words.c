// SPDX-License-Identifier: GPL-2.0-only
/*
 * Words from text or binary input; see words.h.
 */
#include <stdlib.h>
#include <string.h>

#include "words.h"

static bool is_text(const char *data, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)data[i];

		if ((c < 0x20 || c >= 0x7f) && c != '\n' && c != '\t' && c != '\r')
			return false;
	}
	return true;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

bool cli_parse_word(const char *t, size_t len, uint32_t *out)
{
	uint32_t v = 0;
	size_t i = 0;

	if (len > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
		i = 2;
	if (i == len || len - i > 8)
		return false;
	for (; i < len; i++) {
		int d = hexval(t[i]);

		if (d < 0)
			return false;
		v = v << 4 | (uint32_t)d;
	}
	*out = v;
	return true;
}

static int parse_text(const struct cli_call *call, const char *name, const char *data,
		      uint32_t *w, size_t *n)
{
	unsigned int line = 1;
	const char *p = data;

	*n = 0;
	while (*p) {
		const char *t;
		size_t len;

		if (*p == '\n')
			line++;
		if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == ',') {
			p++;
			continue;
		}
		if (*p == '#' || *p == ';') {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		t = p;
		while (*p && !strchr(" \t\r\n,#;", *p))
			p++;
		len = (size_t)(p - t);
		if (t[len - 1] == ':')
			continue;	/* an address label */
		if (!cli_parse_word(t, len, &w[*n])) {
			cli_err(call->what, "%s:%u: invalid word '%.*s' (" CLI_WORD_GRAMMAR ")",
				name, line, (int)(len > 32 ? 32 : len), t);
			return CLI_EXIT_ERR;
		}
		(*n)++;
	}
	return 0;
}

int cli_words_parse(const struct cli_call *call, const char *name, const char *data,
		    size_t len, bool binary, uint32_t **words, size_t *n)
{
	/* A text word takes at least two bytes ("1 "), a binary one four. */
	uint32_t *w = malloc((len / 2 + 1) * sizeof(*w));

	*words = NULL;
	*n = 0;
	if (!w) {
		cli_err(call->what, "out of memory");
		return CLI_EXIT_ERR;
	}
	if (!binary && is_text(data, len)) {
		if (parse_text(call, name, data, w, n)) {
			free(w);
			return CLI_EXIT_ERR;
		}
	} else {
		const unsigned char *b = (const unsigned char *)data;

		if (len % 4) {
			cli_err(call->what, "%s: %zu byte%s, not a whole number of 32-bit words",
				name, len, len == 1 ? "" : "s");
			free(w);
			return CLI_EXIT_ERR;
		}
		for (size_t i = 0; i < len / 4; i++)
			w[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
			       (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
		*n = len / 4;
	}
	*words = w;
	return 0;
}
