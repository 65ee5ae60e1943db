/* SPDX-License-Identifier: GPL-2.0 */
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
 * The words of @len bytes @data (NUL-terminated) read from @name. Text
 * unless @binary or a byte is neither printable ASCII nor white space.
 * Text: tokens separated by white space or commas; a token ending in ':'
 * (an address label, "0004c000:") is skipped, and so is everything from
 * '#' or ';' to the end of the line; a word is 0x and 1..8 hex digits,
 * exactly 8 hex digits (as `tdi read` prints them), or decimal. Binary:
 * little-endian words, @len a multiple of 4. Errors name the line and
 * token (or the size) and are reported; returns 0 or CLI_EXIT_ERR, *words
 * malloc'ed.
 */
int cli_words_parse(const struct cli_call *call, const char *name, const char *data,
		    size_t len, bool binary, uint32_t **words, size_t *n);

#endif /* IPUXCOM_TOOLS_WORDS_H */
