// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ipuxcom demo sum|matmul` and `ipuxcom plan schedule` (tools/demo.c,
 * tools/plan.c) run as a program: the demos' PASS lines and results, JSON,
 * a transfer list scheduled and confirmed by the simulator (also with
 * --legacy: no 64-bit route, no merged control, never shorter), a list with
 * an error (exit 1, file and line named), usage errors (exit 2).
 */
#include "kselftest_harness.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ixt_tool_fixture.h"
#include "ixt_pictures.h"

/*
 * A trace the command wrote on stdout (--trace -) is whole (the report
 * went to stderr) and passes the trace-event checker (ixt_pictures.h:
 * nesting per thread, the unit rule).
 */
static void trace_checks(struct __test_metadata *_metadata, const char *out)
{
	char path[] = "/tmp/ipuxcom-trace-XXXXXX";
	struct ixt_run *r = malloc(sizeof(*r));
	int fd = mkstemp(path);

	ASSERT_NE(NULL, r);
	ASSERT_LE(0, fd);
	ASSERT_LT(strlen(out), 65535u);	/* not cut at the buffer's end */
	ASSERT_EQ((ssize_t)strlen(out), write(fd, out, strlen(out)));
	close(fd);
	if (ixt_have_python3()) {
		ASSERT_EQ(0, ixt_check_picture(r, ixt_trace_check_py, path, NULL));
		EXPECT_EQ(0, r->status) TH_LOG("%s", r->err);
	}
	unlink(path);
	free(r);
}

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
	HAS(out, "round 11:   1 transfer in one phase");
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
	/* issue 25: the lower bound and the phase's ratio to it */
	HAS(out, "\nbound: ");
	HAS(out, "no schedule the verifier accepts is shorter); phase / bound = 1.");
	RUN(0, "plan", "schedule", path, "--rows", "--stagger", "0", "--exact-window");
	HAS(out, "exact (modelled) receive window");
	HAS(out, "  0  0x41800003  sync 3");
	EXPECT_EQ(NULL, strstr(self->r.out, "stagger ("));
	RUN(0, "plan", "schedule", path, "--json");
	HAS(out, "\"kind\":\"schedule\"");
	HAS(out, "\"simulated\":{\"ran\":true,");
	HAS(out, "\"delivered\":33,\"mismatched_words\":0");
	HAS(out, "\"bound\":{\"events\":");
	HAS(out, "\"events_over_bound\":1.");
	unlink(path);
}

/* "phase: N events" of a `plan schedule` text output; 0 without one. */
static unsigned int phase_events(const char *out)
{
	const char *p = strstr(out, "\nphase: ");
	unsigned int ev = 0;

	return p && sscanf(p, "\nphase: %u events", &ev) == 1 ? ev : 0;
}

/*
 * In the --rows disassembly of @out: *sendpics sendpic/sendpicp words,
 * *wide send/sendoff words with sctl bit 2 (a 64-bit route [RE]).
 */
static void program_kinds(const char *out, unsigned int *sendpics, unsigned int *wide)
{
	*sendpics = *wide = 0;
	for (const char *l = out; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *end = strchr(l, '\n'), *asm_ = strstr(l, "  0x");
		const char *comma = NULL;

		if (!asm_ || (end && asm_ > end))
			continue;
		asm_ += 14;		/* "  0xXXXXXXXX  " */
		if (!strncmp(asm_, "sendpic", 7)) {
			(*sendpics)++;
		} else if (!strncmp(asm_, "send ", 5) || !strncmp(asm_, "sendoff ", 8)) {
			for (const char *c = asm_; *c && c != end; c++)
				if (*c == ',')
					comma = c;
			*wide += comma && (strtoul(comma + 1, NULL, 0) & 4);
		}
	}
}

/*
 * --legacy (IPUXCOM_SCHEDULE_LEGACY): today's packing. On a list where the
 * default takes a 64-bit route (physical 1000 -> 645, 256 words, 8-byte
 * aligned: 645 owns its pair's XPIC stream) and merges receive controls
 * into sends (645 and 1000 both send and receive), the legacy phase is
 * not shorter, has no sendpic and no send with sctl bit 2, and verifies.
 */
TEST_F(cli, plan_schedule_legacy)
{
	unsigned int dflt, leg, sendpics, wide;
	char path[64];

	ASSERT_TRUE(list_file(path, sizeof(path),
			      "physical\n"
			      "p2p 1000 645 256 src=0x80000 dst=0x50000\n"
			      "p2p 645 1000 64 src=0x80000 dst=0x50000\n"
			      "p2p 7 1000 16 src=0x80400 dst=0x50400\n"));
	RUN(0, "plan", "schedule", path, "--rows");
	EXPECT_EQ(NULL, strstr(self->r.out, "legacy scheduler"));
	dflt = phase_events(self->r.out);
	program_kinds(self->r.out, &sendpics, &wide);
	EXPECT_LT(0u, sendpics);	/* the default did merge ... */
	EXPECT_LT(0u, wide);		/* ... and take a 64-bit route */
	RUN(0, "plan", "schedule", path, "--rows", "--legacy");
	HAS(out, "receive window, legacy scheduler (32-bit streams, no merged controls)\n");
	HAS(out, "simulated: 3 of 3 deliveries complete and in place, 0 words differ from "
		 "their source; 0 errors");
	leg = phase_events(self->r.out);
	program_kinds(self->r.out, &sendpics, &wide);
	EXPECT_EQ(0u, sendpics);
	EXPECT_EQ(0u, wide);
	ASSERT_NE(0u, dflt);
	EXPECT_LE(dflt, leg);
	EXPECT_LT(dflt, leg) TH_LOG("default %u, legacy %u events", dflt, leg);
	/* with --exact-window too; a prefix names it */
	RUN(0, "plan", "schedule", path, "--exact-window", "--leg", "--stagger", "0");
	HAS(out, "exact (modelled) receive window, legacy scheduler");
	RUN(0, "plan", "schedule", path, "--legacy", "-j");
	HAS(out, "\"window\":\"notes\",\"scheduler\":\"legacy\",\"events\":");
	HAS(out, "\"delivered\":3,\"mismatched_words\":0");
	RUN(0, "plan", "schedule", path, "-j");
	HAS(out, "\"window\":\"notes\",\"scheduler\":\"default\",\"events\":");
	/* the timeline names the phase it shows */
	RUN(0, "plan", "schedule", path, "--legacy", "--trace", "-");
	HAS(out, "\"packed schedule (legacy)\"");
	trace_checks(_metadata, self->r.out);
	RUN(0, "plan", "schedule", path, "--trace", "-");
	EXPECT_EQ(NULL, strstr(self->r.out, "(legacy)"));
	trace_checks(_metadata, self->r.out);
	unlink(path);
	RUN(0, "plan", "schedule", "--help");
	HAS(out, "      --legacy ");
	RUN(0, "__complete", "plan", "schedule", "--le");
	EXPECT_STREQ("--legacy\n", self->r.out);
	RUN(2, "plan", "schedule", "a", "--legacy=1");
}

TEST_F(cli, plan_schedule_errors)
{
	char path[64];

	ASSERT_TRUE(list_file(path, sizeof(path), "p2p 1 2 3\np2p 1 2 0\n"));
	RUN(1, "plan", "schedule", path);
	HAS(err, ":2: count 0 out of range 1..4148");
	unlink(path);
	ASSERT_TRUE(list_file(path, sizeof(path), "p2p 1 2 3\np2p 5 5 3\n"));
	RUN(1, "plan", "schedule", path);
	HAS(err, ":2: receiver is the sender '5'");
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
