// SPDX-License-Identifier: GPL-2.0-only
/*
 * The examples that need no card (examples/, libipuxcom(3) EXAMPLES), run
 * as built: `make check-host` builds every example first. Their directory
 * is $IPUXCOM_EXAMPLES, default build/examples (make runs the tests from
 * the top of the tree).
 */
#include "kselftest_harness.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int run(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n;
	int st;

	if (!p)
		return -1;
	n = fread(out, 1, len - 1, p);
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *dir(void)
{
	const char *d = getenv("IPUXCOM_EXAMPLES");

	return d && *d ? d : "build/examples";
}

/* Plans, decodes, simulates and reads back: PASS, the rows decoded. */
TEST(plan_demo)
{
	static char out[1 << 16];
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s/plan_demo", dir());
	if (access(cmd, X_OK))
		SKIP(return, "plan_demo not built (make examples)");
	ASSERT_EQ(0, run(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\nPASS\n"));
	EXPECT_NE(NULL, strstr(out, "sync 3"));
	EXPECT_NE(NULL, strstr(out, "send 63"));
	EXPECT_NE(NULL, strstr(out, "1/1 delivered"));
	/* 4148 words (the most) and 1 word */
	snprintf(cmd, sizeof(cmd), "%s/plan_demo 4148", dir());
	ASSERT_EQ(0, run(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\nPASS\n"));
	snprintf(cmd, sizeof(cmd), "%s/plan_demo 1", dir());
	ASSERT_EQ(0, run(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\nPASS\n"));
	/* a count out of range: the one explainer's words, exit 1 */
	snprintf(cmd, sizeof(cmd), "%s/plan_demo 4149 2>&1", dir());
	ASSERT_EQ(1, run(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "word count not in 1..4148")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "4149")) TH_LOG("%s", out);
}

/* The device example is built (it needs a device to run). */
TEST(load_readback_built)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/load_readback", dir());
	if (access(path, X_OK))
		SKIP(return, "load_readback not built (make examples)");
	EXPECT_EQ(0, access(path, X_OK));
}

TEST_HARNESS_MAIN
