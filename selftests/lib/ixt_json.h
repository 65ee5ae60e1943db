/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A strict JSON checker (RFC 8259) for the tests of the ipuxcom command's
 * --json output, with no dependency the test VM lacks: the documents are
 * parsed, not searched, so a missing comma or an unescaped quote fails.
 */
#ifndef IXT_JSON_H
#define IXT_JSON_H

#include <stdbool.h>
#include <string.h>

static bool ixt_json_value(const char **p, int depth);

static inline void ixt_json_ws(const char **p)
{
	while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
		(*p)++;
}

static inline bool ixt_json_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static inline bool ixt_json_string(const char **p)
{
	const char *s = *p;

	if (*s++ != '"')
		return false;
	for (;;) {
		unsigned char c = (unsigned char)*s++;

		if (c == '"')
			break;
		if (c < 0x20)		/* includes the end of the text */
			return false;
		if (c != '\\')
			continue;
		c = (unsigned char)*s++;
		if (c == 'u') {
			for (int i = 0; i < 4; i++)
				if (!ixt_json_hex(*s++))
					return false;
		} else if (!c || !strchr("\"\\/bfnrt", c)) {
			return false;
		}
	}
	*p = s;
	return true;
}

static inline bool ixt_json_number(const char **p)
{
	const char *s = *p;

	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return false;
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	*p = s;
	return true;
}

static inline bool ixt_json_container(const char **p, int depth, bool object)
{
	char close = object ? '}' : ']';

	(*p)++;
	ixt_json_ws(p);
	if (**p == close) {
		(*p)++;
		return true;
	}
	for (;;) {
		if (object) {
			if (!ixt_json_string(p))
				return false;
			ixt_json_ws(p);
			if (*(*p)++ != ':')
				return false;
		}
		if (!ixt_json_value(p, depth + 1))
			return false;
		ixt_json_ws(p);
		if (**p == close) {
			(*p)++;
			return true;
		}
		if (*(*p)++ != ',')
			return false;
		ixt_json_ws(p);
	}
}

static bool ixt_json_value(const char **p, int depth)
{
	if (depth > 64)
		return false;
	ixt_json_ws(p);
	switch (**p) {
	case '{':
		return ixt_json_container(p, depth, true);
	case '[':
		return ixt_json_container(p, depth, false);
	case '"':
		return ixt_json_string(p);
	case 't':
		return !strncmp(*p, "true", 4) && (*p += 4);
	case 'f':
		return !strncmp(*p, "false", 5) && (*p += 5);
	case 'n':
		return !strncmp(*p, "null", 4) && (*p += 4);
	default:
		return ixt_json_number(p);
	}
}

/*
 * Number of JSON documents in @text, one after the other separated by
 * white space (the command prints one per line); -1 if any is invalid or
 * something else is in between.
 */
static inline int ixt_json_count(const char *text)
{
	const char *p = text;
	int n = 0;

	for (;;) {
		ixt_json_ws(&p);
		if (!*p)
			return n;
		if (!ixt_json_value(&p, 0))
			return -1;
		n++;
	}
}

#endif /* IXT_JSON_H */
