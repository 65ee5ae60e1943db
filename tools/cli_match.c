// SPDX-License-Identifier: GPL-2.0-only
/*
 * Exact names, unambiguous prefixes and "did you mean"; see cli_match.h.
 */
#include <stdio.h>
#include <string.h>

#include "cli_match.h"

#define NAME_MAX_LEN 63

int cli_match(const char *word, size_t len, const char *const *names, size_t n)
{
	int found = CLI_MATCH_NONE;

	/* An exact name wins over the longer names it is a prefix of ("dev", "device"). */
	for (size_t i = 0; i < n; i++)
		if (names[i] && strlen(names[i]) == len && !strncmp(names[i], word, len))
			return (int)i;
	if (!len)
		return CLI_MATCH_NONE;
	for (size_t i = 0; i < n; i++) {
		if (!names[i] || strncmp(names[i], word, len))
			continue;
		if (found != CLI_MATCH_NONE)
			return CLI_MATCH_AMBIGUOUS;
		found = (int)i;
	}
	return found;
}

unsigned int cli_edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	/* Three rows of the dynamic programme: i - 2, i - 1 and i. */
	unsigned int d[3][NAME_MAX_LEN + 1];

	if (la > NAME_MAX_LEN || lb > NAME_MAX_LEN)
		return NAME_MAX_LEN + 1;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned int)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned int *cur = d[i % 3], *prev = d[(i - 1) % 3], *prev2 = d[(i - 2) % 3];

		cur[0] = (unsigned int)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned int cost = a[i - 1] != b[j - 1];
			unsigned int best = prev[j - 1] + cost;

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return d[la % 3][lb];
}

/* Append "'PREFIXNAME'" to @buf, joined by @sep to what is there. */
static void add_name(char *buf, size_t size, size_t *used, const char *sep,
		     const char *quote_prefix, const char *name)
{
	int w;

	if (*used >= size)
		return;
	w = snprintf(buf + *used, size - *used, "%s'%s%s'", sep, quote_prefix, name);
	if (w > 0)
		*used += (size_t)w;
}

const char *cli_match_hint(char *buf, size_t size, int result, const char *word, size_t len,
			   const char *const *names, size_t n, const char *quote_prefix)
{
	/* One typo in a short name, two in a longer one: "x" is not "dev" mistyped. */
	unsigned int limit = len <= 3 ? 1 : 2, best = limit + 1;
	size_t used = 0, count = 0, seen = 0;

	buf[0] = '\0';
	if (result == CLI_MATCH_AMBIGUOUS) {
		used = (size_t)snprintf(buf, size, "; could be ");
		for (size_t i = 0; i < n; i++)
			if (names[i] && !strncmp(names[i], word, len))
				count++;
		for (size_t i = 0; i < n; i++) {
			if (!names[i] || strncmp(names[i], word, len))
				continue;
			seen++;
			add_name(buf, size, &used, seen == 1 ? "" : seen == count ? " or " : ", ",
				 quote_prefix, names[i]);
		}
		return buf;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned int dist;

		if (!names[i])
			continue;
		dist = cli_edit_distance(word, len, names[i], strlen(names[i]));
		if (dist < best) {
			best = dist;
			count = 0;
		}
		if (dist == best)
			count++;
	}
	if (best > limit)
		return buf;
	used = (size_t)snprintf(buf, size, "; did you mean ");
	for (size_t i = 0; i < n; i++) {
		if (!names[i] || cli_edit_distance(word, len, names[i], strlen(names[i])) != best)
			continue;
		seen++;
		add_name(buf, size, &used, seen == 1 ? "" : seen == count ? " or " : ", ",
			 quote_prefix, names[i]);
	}
	if (used < size)
		snprintf(buf + used, size - used, "?");
	return buf;
}
