/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 32-bit words read from a file or a pipe, for `plan decode`: binary
 * (little-endian words, as tile SRAM and image files hold them) or text
 * (what `tdi read` and hex dumps print).
 */
#ifndef IPUXCOM_TOOLS_WORDS_H
#define IPUXCOM_TOOLS_WORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/*
 * The one grammar of a 32-bit WORD, wherever one is read (plan decode's
 * arguments and input, tdi write's arguments): hexadecimal, 1..8 digits,
 * with or without 0x ("41800003" is 0x41800003 as an argument and in a
 * file alike). @t need not be NUL-terminated. False when @t is not one.
 */
bool cli_parse_word(const char *t, size_t len, uint32_t *out);

/* What a word is, for messages. */
#define CLI_WORD_GRAMMAR	"1..8 hex digits, 0x optional"

/*
 * The words of @len bytes @data (NUL-terminated) read from @name. Text
 * unless @binary or a byte is neither printable ASCII nor white space.
 * Text: tokens separated by white space or commas; a token ending in ':'
 * (an address label, "0004c000:") is skipped, and so is everything from
 * '#' or ';' to the end of the line; a word is cli_parse_word()'s. Binary:
 * little-endian words, @len a multiple of 4. Errors name the line and
 * token (or the size) and are reported; returns 0 or CLI_EXIT_ERR, *words
 * malloc'ed.
 */
int cli_words_parse(const struct cli_call *call, const char *name, const char *data,
		    size_t len, bool binary, uint32_t **words, size_t *n);

#endif /* IPUXCOM_TOOLS_WORDS_H */
