/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Names typed on the command line against the names a table knows:
 * exact names, unambiguous prefixes ("dev sho", "--jso") and, for a name
 * that matches nothing, the "did you mean" suggestion of the usage error.
 */
#ifndef IPUXCOM_TOOLS_CLI_MATCH_H
#define IPUXCOM_TOOLS_CLI_MATCH_H

#include <stddef.h>

/* cli_match() results that are not an index. */
#define CLI_MATCH_NONE		(-1)
#define CLI_MATCH_AMBIGUOUS	(-2)

/*
 * The index in @names (NULL entries skipped) that the first @len
 * characters of @word name: the name equal to them, else the only name
 * they are a prefix of. CLI_MATCH_NONE when none, CLI_MATCH_AMBIGUOUS
 * when they are a prefix of several names and equal to none.
 */
int cli_match(const char *word, size_t len, const char *const *names, size_t n);

/*
 * Text that follows the usage error of a cli_match() failure @result, in
 * @buf: for CLI_MATCH_AMBIGUOUS "; could be 'show' or 'set'" (every name
 * @word is a prefix of), for CLI_MATCH_NONE "; did you mean 'show'?" (the
 * nearest names within a small edit distance) or "" when nothing is
 * near. @quote_prefix goes before each name ("--" for long options).
 * Returns @buf.
 */
const char *cli_match_hint(char *buf, size_t size, int result, const char *word, size_t len,
			   const char *const *names, size_t n, const char *quote_prefix);

/*
 * Optimal-string-alignment distance between the first @la characters of
 * @a and the first @lb of @b: insertions, deletions, substitutions and
 * swaps of two adjacent characters ("shwo" -> "show" is 1). Names longer
 * than 63 characters count as far from everything.
 */
unsigned int cli_edit_distance(const char *a, size_t la, const char *b, size_t lb);

#endif /* IPUXCOM_TOOLS_CLI_MATCH_H */
