/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal streaming JSON writer for the ipuxcom command's --json output.
 *
 * The writer inserts commas and escapes strings; the caller only says
 * what comes next. Output is compact, one document per line, like
 * `ip -j`, or indented (one member a line, four spaces a level) like
 * `ip -j -p` when the call asked for --pretty. Misuse (a value where a key is due, unbalanced ends) is a bug
 * in the tool and trips an assert.
 */
#ifndef IPUXCOM_TOOLS_JSON_H
#define IPUXCOM_TOOLS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json_writer {
	FILE *out;
	unsigned int depth;
	/* Per open container: true until its first member is written. */
	bool first[JSON_MAX_DEPTH];
	/* Per open container: true for an object (members need keys). */
	bool is_object[JSON_MAX_DEPTH];
	/* A key was written and its value is due. */
	bool key_done;
	/* Indented output (-p/--pretty). */
	bool pretty;
};

struct cli_call;

void json_init(struct json_writer *w, FILE *out);

/* json_init(), indented when @call asked for it (-p/--pretty). */
void json_init_call(struct json_writer *w, FILE *out, const struct cli_call *call);

void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_end_array(struct json_writer *w);

void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *s);
void json_uint(struct json_writer *w, uint64_t v);
void json_int(struct json_writer *w, int64_t v);
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);

/* key + value in one call, for object members. */
void json_kv_string(struct json_writer *w, const char *key, const char *s);
void json_kv_uint(struct json_writer *w, const char *key, uint64_t v);
void json_kv_int(struct json_writer *w, const char *key, int64_t v);
void json_fixed(struct json_writer *w, double v, int decimals);
void json_kv_fixed(struct json_writer *w, const char *key, double v, int decimals);

/*
 * Write @s as a quoted JSON string: '"' and '\\' escaped, control
 * characters as \n, \t... or \u00XX, and bytes that are not valid UTF-8
 * replaced by \ufffd so the document stays valid whatever the kernel
 * sent. Exposed for the unit tests.
 */
void json_write_string(FILE *out, const char *s);

#endif /* IPUXCOM_TOOLS_JSON_H */
