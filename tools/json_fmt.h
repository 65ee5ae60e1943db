/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The conventions of the ipuxcom command's JSON output, on top of the
 * writer (json.h), so that every command spells a value the same way:
 * 32-bit words, register values, addresses, CRCs and masks are strings
 * "0x%08x" (a script compares them with what the docs and the text
 * output show); counts, sizes, ids, tiles and cycles are numbers.
 */
#ifndef IPUXCOM_TOOLS_JSON_FMT_H
#define IPUXCOM_TOOLS_JSON_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "json.h"

/* "0x%08x": a word, a register value, an address or a CRC. */
void json_hex32(struct json_writer *w, uint32_t v);
void json_kv_hex32(struct json_writer *w, const char *key, uint32_t v);

/* "0x%016x": a 64-bit mask. */
void json_kv_hex64(struct json_writer *w, const char *key, uint64_t v);

/*
 * A disassembly line "insn   ; comment" (ipuxcom_disasm()) as the insn
 * without its column padding, and its comment (NULL: none), in @buf.
 */
void json_asm_split(const char *line, char *buf, size_t len, const char **comment);

/* The insn of @line, and its comment or null, as two array elements' values. */
void json_asm(struct json_writer *w, const char *line);
void json_asm_comment(struct json_writer *w, const char *line);

#endif /* IPUXCOM_TOOLS_JSON_FMT_H */
