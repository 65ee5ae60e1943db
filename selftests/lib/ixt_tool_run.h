/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Running the ipuxcom command from a kselftest fixture that has
 * `char tool[]` (the command, ixt_find_tool()) and `struct ixt_run *r`
 * (its outcome): RUN_IN(status, stdin_file, args...) runs it with stdin
 * from a file and asserts the exit status, RUN(status, args...) with
 * stdin from /dev/null; HAS/HASNT(out|err, text) expect @text in (or not
 * in) what it printed. Include after ixt_tool.h and kselftest_harness.h.
 */
#ifndef IXT_TOOL_RUN_H
#define IXT_TOOL_RUN_H

#include <string.h>

#define RUN_IN(_status, _in, ...) do {						\
	char *const _argv[] = { self->tool, __VA_ARGS__, NULL };		\
										\
	ASSERT_EQ(0, ixt_run_stdin(_argv, (_in), self->r));			\
	ASSERT_EQ(_status, self->r->status)					\
		TH_LOG("stdout: %s\nstderr: %s", self->r->out, self->r->err);	\
} while (0)
#define RUN(_status, ...) RUN_IN(_status, "/dev/null", __VA_ARGS__)
#define HAS(_stream, _needle)							\
	EXPECT_NE(NULL, strstr(self->r->_stream, _needle))			\
		TH_LOG("no '%s' in %s: '%s'", _needle, #_stream, self->r->_stream)
#define HASNT(_stream, _needle)							\
	EXPECT_EQ(NULL, strstr(self->r->_stream, _needle))			\
		TH_LOG("'%s' in %s: '%s'", _needle, #_stream, self->r->_stream)

#endif /* IXT_TOOL_RUN_H */
