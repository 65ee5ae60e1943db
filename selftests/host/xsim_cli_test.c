// SPDX-License-Identifier: GPL-2.0
/*
 * `ipuxcom demo sum|matmul` and `ipuxcom plan schedule` (tools/demo.c,
 * tools/plan.c) run as a program: the demos' PASS lines and results, JSON,
 * a transfer list scheduled and confirmed by the simulator, a list with an
 * error (exit 1, file and line named), usage errors (exit 2).
 */
#include "kselftest_harness.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ixt_tool_fixture.h"

/* A transfer list in a temporary file; @path gets its name. */
static bool list_file(char *path, size_t len, const char *text)
{
	int fd;

	snprintf(path, len, "/tmp/xsim_cli_test.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return false;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		return false;
	}
	close(fd);
	return true;
}

TEST_F(cli, demo_sum_passes)
{
	RUN(0, "demo", "sum");
	HAS(out, "round  1: 736 transfers in one phase");
	HAS(out, "round 11:   1 transfers in one phase");
	HAS(out, "hazards: 0 errors, 0 notes");
	HAS(out, "tiles=1472 rounds=11 sum=1084128 expected=1084128 PASS\n");
	RUN(0, "demo", "sum", "--json");
	HAS(out, "\"sum\":1084128,\"expected\":1084128");
	HAS(out, "\"transfers\":[736,368,184,92,46,23,11,6,3,1,1]");
	HAS(out, "\"pass\":true}");
}

TEST_F(cli, demo_matmul_prints_c_and_pass)
{
	RUN(0, "demo", "matmul");
	HAS(out, "C =\n     4   24    9   14\n    20   48   25   38\n   -12   14    3    0\n"
		 "    22   10    8   31\n");
	HAS(out, "24 active tiles, 1448 non-participating; 8 multicast streams of 4 words");
	HAS(out, "C equals the notes' hardware output");
	HAS(out, "\nPASS\n");
	RUN(0, "demo", "matmul", "--packed", "-j");
	HAS(out, "\"exchange\":\"packed\"");
	HAS(out, "\"c\":[[4,24,9,14],[20,48,25,38],[-12,14,3,0],[22,10,8,31]]");
	HAS(out, "\"matches_notes\":true,\"pass\":true}");
	RUN(2, "demo", "matmul", "extra");
	RUN(2, "demo", "nothing");
}

TEST_F(cli, plan_schedule_packs_and_verifies)
{
	char path[64];

	ASSERT_TRUE(list_file(path, sizeof(path),
			      "# the matmul's streams\n"
			      "multicast 0 4 8 9 10 11 dst=0x50100\n"
			      "multicast 1 4 12 13 14 15 dst=0x50100\n"
			      "multicast 2 4 16 17 18 19 dst=0x50100\n"
			      "multicast 3 4 20 21 22 23 dst=0x50100\n"
			      "multicast 4 4 8 12 16 20 dst=0x50200\n"
			      "multicast 5 4 9 13 17 21 dst=0x50200\n"
			      "multicast 6 4 10 14 18 22 dst=0x50200\n"
			      "multicast 7 4 11 15 19 23 dst=0x50200\n"
			      "p2p 100 200 1000\n"));
	RUN(0, "plan", "schedule", path);
	HAS(out, "schedule: 9 transfers from ");
	HAS(out, "simulated: 33 of 33 deliveries complete and in place, 0 words differ from "
		 "their source; 0 errors");
	HAS(out, "stagger (256 events per transfer, the notes' rows overlaid):");
	HAS(out, "packed / stagger = ");
	RUN(0, "plan", "schedule", path, "--rows", "--stagger", "0", "--exact-window");
	HAS(out, "exact (modelled) receive window");
	HAS(out, "  0  0x41800003  sync 3");
	EXPECT_EQ(NULL, strstr(self->r.out, "stagger ("));
	RUN(0, "plan", "schedule", path, "--json");
	HAS(out, "\"kind\":\"schedule\"");
	HAS(out, "\"simulated\":{\"ran\":true,");
	HAS(out, "\"delivered\":33,\"mismatched_words\":0");
	unlink(path);
}

TEST_F(cli, plan_schedule_errors)
{
	char path[64];

	ASSERT_TRUE(list_file(path, sizeof(path), "p2p 1 2 3\np2p 1 2 0\n"));
	RUN(1, "plan", "schedule", path);
	HAS(err, "line 2: count 0 out of range 1..4148");
	unlink(path);
	ASSERT_TRUE(list_file(path, sizeof(path), "p2p 1 2 3\np2p 5 5 3\n"));
	RUN(1, "plan", "schedule", path);
	HAS(err, "line 2: receiver is the sender '5'");
	unlink(path);
	/* an address the scheduler rejects: named by file and line */
	ASSERT_TRUE(list_file(path, sizeof(path), "p2p 1 2 3\n\np2p 5 6 3 dst=0x60000\n"));
	RUN(1, "plan", "schedule", path);
	HAS(err, ":3: xfers[1].dst_addr[0] 0x60000: word offset 0x4000 overlaps the multicast flag");
	unlink(path);
	RUN(1, "plan", "schedule", "/nonexistent/list");
	HAS(err, "/nonexistent/list: No such file or directory");
	RUN(2, "plan", "schedule");
	RUN(2, "plan", "schedule", "a", "b");
	RUN(2, "plan", "schedule", "a", "--stagger", "x");
}

TEST_HARNESS_MAIN
