/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * FIXTURE(cli) for tests of the ipuxcom command: skips when the command is
 * not built; its tests use RUN(status, args...) and HAS(out|err, text).
 * Include after kselftest_harness.h.
 */
#ifndef IXT_TOOL_FIXTURE_H
#define IXT_TOOL_FIXTURE_H

#include "ixt_tool.h"

FIXTURE(cli) {
	char tool[PATH_MAX];
	struct run r;
};

FIXTURE_SETUP(cli)
{
	if (!find_tool(self->tool, sizeof(self->tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");
}

FIXTURE_TEARDOWN(cli)
{
}

#define RUN(_status, ...) do {							\
	const char *const _args[] = { __VA_ARGS__, NULL };			\
										\
	ASSERT_EQ(0, run_tool(self->tool, _args, &self->r));			\
	ASSERT_EQ(_status, self->r.status) TH_LOG("stderr: %s", self->r.err);	\
} while (0)

#define HAS(_stream, _needle)							\
	EXPECT_NE(NULL, strstr(self->r._stream, _needle))			\
		TH_LOG("no '%s' in %s: '%s'", _needle, #_stream, self->r._stream)

#endif /* IXT_TOOL_FIXTURE_H */
