// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON value conventions of the ipuxcom command; see json_fmt.h.
 */
#include <inttypes.h>
#include <string.h>

#include "json_fmt.h"

void json_hex32(struct json_writer *w, uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%08" PRIx32, v);
	json_string(w, buf);
}

void json_kv_hex32(struct json_writer *w, const char *key, uint32_t v)
{
	json_key(w, key);
	json_hex32(w, v);
}

void json_kv_hex64(struct json_writer *w, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%016" PRIx64, v);
	json_kv_string(w, key, buf);
}

void json_asm_split(const char *line, char *buf, size_t len, const char **comment)
{
	const char *semi = strchr(line, ';');
	size_t n = semi ? (size_t)(semi - line) : strlen(line);

	while (n && line[n - 1] == ' ')
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	*comment = NULL;
	if (semi) {
		semi++;
		while (*semi == ' ')
			semi++;
		*comment = semi;
	}
}

void json_asm(struct json_writer *w, const char *line)
{
	const char *comment;
	char buf[96];

	json_asm_split(line, buf, sizeof(buf), &comment);
	json_string(w, buf);
}

void json_asm_comment(struct json_writer *w, const char *line)
{
	const char *comment;
	char buf[96];

	json_asm_split(line, buf, sizeof(buf), &comment);
	if (comment)
		json_string(w, comment);
	else
		json_null(w);
}
