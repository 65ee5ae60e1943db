// SPDX-License-Identifier: GPL-2.0-only
/*
 * Issue 23's repros of the ipuxcom command, each with its right answer:
 *  - one number grammar: a WORD is hex (0x optional) as an argument and in
 *    a file alike; other numbers decimal or 0x, never octal;
 *  - plan rows' addr_word is an index, as "patch" is;
 *  - every usage error exits 2, out-of-range values the library finds
 *    included, and blames the option given;
 *  - messages stand alone: why --wide was refused, method names, no file
 *    users do not have (the project's private notes), write errors with their cause and the
 *    command's name, plurals;
 *  - help --help, the default command given a file, plan schedule's
 *    labelled ids and routes, completion of option values, JSON "file"
 *    the input and "output" the output.
 */
#include "kselftest_harness.h"

#include "image_testlib.h"
#include "ixt_tool_run.h"

FIXTURE(u) {
	char tool[PATH_MAX];
	char dir[PATH_MAX];
	char path[PATH_MAX + 32];
	struct ixt_run *r;
};

FIXTURE_SETUP(u)
{
	self->r = calloc(1, sizeof(*self->r));
	ASSERT_NE(NULL, self->r);
	if (!ixt_find_tool(self->tool, sizeof(self->tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");
	ASSERT_TRUE(ixt_tmpdir(self->dir, sizeof(self->dir)));
	snprintf(self->path, sizeof(self->path), "%s/in", self->dir);
}

FIXTURE_TEARDOWN(u)
{
	if (self->dir[0])
		ixt_rmtree(self->dir);
	free(self->r);
}


/* Write @text to self->path. */
#define INPUT(_text) ASSERT_EQ(0, ixt_write_file(self->path, (_text), strlen(_text)))

/* "41800003" was decimal as an argument and hex on stdin: one token, two values. */
TEST_F(u, a_word_is_hex_as_an_argument_and_in_a_file)
{
	char arg[sizeof(self->r->out)];

	RUN(0, "plan", "decode", "41800003");
	HAS(out, "0x41800003  sync 3\n");
	memcpy(arg, self->r->out, sizeof(arg));
	INPUT("41800003\n");
	RUN_IN(0, self->path, "plan", "decode");
	EXPECT_STREQ(arg, self->r->out);
	RUN(0, "plan", "decode", "-f", self->path);
	EXPECT_STREQ(arg, self->r->out);
	/* 0x optional, 1..8 digits, both ways: "10" is 0x10 */
	RUN(0, "plan", "decode", "10", "0x10");
	HAS(out, "0x00000010  ");
	HASNT(out, "0x0000000a");
	INPUT("10 0x10\n");
	RUN_IN(0, self->path, "plan", "decode");
	HASNT(out, "0x0000000a");
	/* the same refusal, the same words, for both */
	RUN(2, "plan", "decode", "123456789");
	HAS(err, "invalid word '123456789' (1..8 hex digits, 0x optional)");
	INPUT("123456789\n");
	RUN_IN(1, self->path, "plan", "decode");
	HAS(err, "-:1: invalid word '123456789' (1..8 hex digits, 0x optional)");
	/* tdi write's WORDs and image redirect's marker words: the same grammar */
	RUN(2, "tdi", "write", "0", "0x4c000", "zz");
	HAS(err, "invalid word 'zz' (1..8 hex digits, 0x optional)");
	RUN(2, "image", "redirect", "x.img", "-o", "y.img", "--marker", "1,g");
	HAS(err, "invalid marker '1,g' (two words W0,W1, each 1..8 hex digits, 0x optional)");
}

/* Addresses and offsets: decimal or 0x, and a leading zero is not octal. */
TEST_F(u, other_numbers_are_decimal_or_0x_never_octal)
{
	char ten[sizeof(self->r->out)];

	RUN(0, "plan", "multicast", "0", "3", "5", "6", "--offset", "10");
	memcpy(ten, self->r->out, sizeof(ten));
	RUN(0, "plan", "multicast", "0", "3", "5", "6", "--offset", "010");
	EXPECT_STREQ(ten, self->r->out);
	RUN(0, "plan", "multicast", "0", "3", "5", "6", "--offset", "0xa");
	EXPECT_STREQ(ten, self->r->out);
	RUN(2, "plan", "multicast", "0", "3", "5", "6", "--offset", "0x");
	HAS(err, "invalid --offset '0x'");
	/* 0460000 is 460000 (0x704e0, in tile SRAM), not octal 0x26000 (below it) */
	RUN(1, "-d", "/nonexistent/ipuxcom", "tdi", "read", "0", "0460000", "1");
	HASNT(err, "invalid address");
	HAS(err, "/nonexistent/ipuxcom");
}

TEST_F(u, plan_json_addr_is_a_word_index)
{
	RUN(0, "plan", "multicast", "0", "3", "5", "6", "-j");
	HAS(out, "\"addr_word\":4,");
	HASNT(out, "\"addr\":");
	HASNT(out, "\"addr_word\":\"");
	RUN(0, "plan", "p2p", "0", "1286", "3", "-j");
	HAS(out, "\"addr_word\":null");
}

TEST_F(u, out_of_range_values_exit_2_naming_the_option)
{
	/* the library finds it (a receive cycle past 12 bits): still a usage error */
	RUN(2, "plan", "multicast", "0", "10", "1", "2", "--offset", "4200");
	HAS(err, "schedule_offset 4200 does not fit");
	HAS(err, "Try 'ipuxcom plan multicast --help'.");
	/* the entry point defaults to the load base: --base is what was given */
	RUN(2, "image", "pack", "--raw", self->dir, "-o", "x.img", "--base", "0x4c002");
	HAS(err, "invalid address '0x4c002' for --base: without --entry the entry point is "
	    "the load base, which must then be 4-byte aligned");
	HASNT(err, "entry point 0x");
}

TEST_F(u, wide_count_refusals_say_which_limit_and_why)
{
	/* receiver 5 does not own its pair: no 64-bit route, and 8296 > 32-bit's 4148 */
	RUN(2, "plan", "p2p", "0", "5", "8296", "--wide");
	HAS(err, "invalid count '8296' with --wide: no 64-bit route (the receiver's pair "
	    "partner owns the pair's XPIC stream), and a 32-bit p2p carries 1..4148 words "
	    "(64-bit: up to 8296");
	RUN(2, "plan", "p2p", "0", "5", "8295", "--wide");
	HAS(err, "no 64-bit route (odd count)");
	RUN(2, "plan", "p2p", "0", "5", "8297", "--wide");
	HAS(err, "invalid count '8297': a decimal number 1..8296");
	RUN(2, "plan", "multicast", "0", "5000", "1", "2", "--wide");
	HAS(err, "invalid count '5000': a decimal number 1..4148 (with --wide too: the 32-bit multicast is "
	    "planned first");
}

TEST_F(u, fanout_names_methods)
{
	RUN(0, "plan", "fanout", "0", "10", "1", "2", "--method", "relay");
	HAS(out, "multicast  not among the allowed methods (relay)\n");
	HASNT(out, "0x");
	RUN(0, "plan", "fanout", "0", "10", "1", "2", "--method", "relay", "-j");
	HAS(out, "\"why\":\"not among the allowed methods (relay)\"");
	HASNT(out, "methods 0x");
}

/* Every help text stands alone: no private notes, which users do not have. */
TEST_F(u, help_texts_cite_no_file_users_lack)
{
	static char *const cmds[][2] = {
		{ "plan", "timing" }, { "cfg", "inspect" }, { "cfg", "dump" }, { "plan", "p2p" },
		{ "plan", "schedule" }, { "load", NULL }, { "image", "pack" }, { "tdi", "read" },
	};

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (cmds[i][1])
			RUN(0, cmds[i][0], cmds[i][1], "--help");
		else
			RUN(0, cmds[i][0], "--help");
		HASNT(out, "FACTS");
	}
}

/*
 * Nor does any string built into the command or the library (a hazard
 * note, an error): `strings build/libipuxcom.so* build/ipuxcom | grep
 * FACTS` finds nothing. The library is the one next to the command.
 */
static int cites_a_file_users_lack(const char *path, char *hit, size_t len)
{
	static const char *const words[] = { "FACTS", "ARCHITECTURE", "seeds/" };
	size_t n = 0;
	uint8_t *data = ixt_read_file(path, &n);

	if (!data)
		return -1;
	for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
		const uint8_t *p = memmem(data, n, words[w], strlen(words[w]));
		size_t a, b;

		if (!p)
			continue;
		/* the printable run around it, as strings(1) shows it */
		for (a = (size_t)(p - data); a > 0 && data[a - 1] >= 0x20 && data[a - 1] < 0x7f;)
			a--;
		for (b = (size_t)(p - data); b < n && data[b] >= 0x20 && data[b] < 0x7f;)
			b++;
		snprintf(hit, len, "%.*s", (int)(b - a), (const char *)data + a);
		free(data);
		return 1;
	}
	free(data);
	return 0;
}

TEST_F(u, built_strings_cite_no_file_users_lack)
{
	char lib[PATH_MAX + 32], hit[512] = "";
	char *slash;

	EXPECT_EQ(0, cites_a_file_users_lack(self->tool, hit, sizeof(hit)))
		TH_LOG("%s: '%s'", self->tool, hit);
	snprintf(lib, sizeof(lib), "%s", self->tool);
	slash = strrchr(lib, '/');
	ASSERT_NE(NULL, slash);
	snprintf(slash + 1, sizeof(lib) - (size_t)(slash + 1 - lib), "libipuxcom.so");
	if (access(lib, R_OK)) {
		/* an installed command: the library is wherever ld.so finds it */
		TH_LOG("no %s: the command checked alone", lib);
		return;
	}
	EXPECT_EQ(0, cites_a_file_users_lack(lib, hit, sizeof(hit))) TH_LOG("%s: '%s'", lib, hit);
}

TEST_F(u, help_help_and_the_default_command_given_a_file)
{
	RUN(0, "help", "--help");
	HAS(out, "Usage: ipuxcom [OPTIONS] OBJECT [COMMAND] [ARGS]");
	RUN(0, "help", "help");
	HAS(out, "Usage: ipuxcom");
	RUN(0, "help", "-h");
	/* "hsp FILE" is "hsp show FILE" */
	INPUT("not a manifest\n");
	RUN(1, "hsp", self->path);
	HASNT(err, "unknown command");
	HAS(err, "hsp show: ");
	/* a word that is no file still gets its "did you mean" */
	RUN(2, "hsp", "shwo");
	HAS(err, "unknown command 'shwo'; did you mean 'show'?");
}

TEST_F(u, schedule_labels_physical_ids_and_gives_each_route)
{
	INPUT("p2p 0 4 100\np2p 0 1 100\np2p 2 9 3\n");
	RUN(0, "plan", "schedule", self->path, "--stagger", "1");
	HAS(out, "  #  line kind      physical-sender words recv  start arrive lastwr gap route\n");
	/* each transfer's route width, from the schedule (struct ipuxcom_schedule_slot) */
	HAS(out, " 0 64-bit\n");
	HAS(out, " 32-bit (the receiver's pair partner is the sender)\n");
	HAS(out, " 32-bit (odd count)\n");
	/* plurals: one event, not "1 events" */
	HAS(out, "stagger (1 event per transfer");
	HASNT(out, " 1 events");
	HASNT(out, " 1 notes");
	RUN(0, "plan", "schedule", self->path, "--legacy");
	HASNT(out, " 64-bit\n");
	HAS(out, " 32-bit (legacy scheduler: 32-bit streams only)\n");
	/* --quick: no search (issue 34), said in the header and the JSON; still verified */
	RUN(0, "plan", "schedule", self->path, "--quick");
	HAS(out, ", quick scheduler (no search)\n");
	HAS(out, "simulated: 3 of 3 deliveries complete and in place");
	RUN(0, "plan", "schedule", self->path, "--quick", "-j");
	HAS(out, "\"scheduler\":\"quick\"");
	/* --effort N: a bounded search (issue 34), said in the text and the JSON */
	RUN(0, "plan", "schedule", self->path, "--effort", "2");
	HAS(out, "search effort 2: at most 2 x the first placement's work\n");
	HAS(out, "simulated: 3 of 3 deliveries complete and in place");
	RUN(0, "plan", "schedule", self->path, "--effort", "65536", "-j");
	HAS(out, "\"scheduler\":\"default\",\"effort\":65536,");
	RUN(0, "plan", "schedule", self->path, "-j");
	HASNT(out, "\"effort\"");
	RUN(2, "plan", "schedule", self->path, "--effort", "0");
	HAS(err, "invalid --effort '0' (1..65536)");
	RUN(2, "plan", "schedule", self->path, "--effort", "65537");
	HAS(err, "invalid --effort '65537' (1..65536)");
	RUN(2, "plan", "schedule", self->path, "--effort", "4", "--quick");
	HAS(err, "--effort with --quick, which does no search");
	RUN(2, "plan", "schedule", self->path, "--effort", "4", "--legacy");
	HAS(err, "--effort with --legacy, which does no search");
	RUN(0, "plan", "schedule", self->path, "-j");
	HAS(out, "\"tile_ids\":\"physical\"");
	HAS(out, "\"sctl\":5,\"items\":50,\"route\":\"64-bit\",\"why\":null");
	HAS(out, "\"sctl\":1,\"items\":100,\"route\":\"32-bit\",\"why\":\"the receiver's pair "
	    "partner is the sender\"");
	HAS(out, "\"items\":3,\"route\":\"32-bit\",\"why\":\"odd count\"");
	RUN(0, "plan", "p2p", "0", "1286", "1");
	HAS(out, "p2p: 1 word, ");
	ASSERT_EQ(0, ixt_write_file(self->path, "\x01", 1));
	RUN(1, "plan", "decode", "-f", self->path);
	HAS(err, ": 1 byte, not a whole number of 32-bit words");
}

TEST_F(u, write_errors_name_the_command_and_the_cause)
{
	char *const argv[] = { self->tool, "plan", "p2p", "0", "1", "3", NULL };
	char *const argv2[] = { self->tool, "plan", "timing", "--export", "/dev/full", NULL };
	char buf[1024] = "";
	pid_t pid;
	int status;
	size_t n;
	FILE *f;

	if (access("/dev/full", W_OK))
		SKIP(return, "no /dev/full here");
	/* stdout on /dev/full */
	fflush(NULL);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd = open("/dev/full", O_WRONLY);
		int err = open(self->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (fd < 0 || err < 0 || dup2(fd, 1) < 0 || dup2(err, 2) < 0)
			_exit(126);
		execv(self->tool, argv);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(1, WEXITSTATUS(status));
	f = fopen(self->path, "r");
	ASSERT_NE(NULL, f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	EXPECT_STREQ("ipuxcom: plan p2p: standard output: write error: No space left on "
		     "device\n", buf);
	ASSERT_EQ(0, ixt_run(argv2, self->r));
	EXPECT_EQ(1, self->r->status);
	HAS(err, "ipuxcom: plan timing: /dev/full: write error: No space left on device");
}

TEST_F(u, completion_offers_option_values)
{
	RUN(0, "__complete", "plan", "fanout", "--method", "");
	EXPECT_STREQ("auto\nmulticast\nserialized\nrelay\n", self->r->out);
	RUN(0, "__complete", "plan", "fanout", "--method=se");
	EXPECT_STREQ("serialized\n", self->r->out);
	RUN(0, "__complete", "load", "--cfg-hsp", "");
	EXPECT_STREQ("clear\nkeep-gs2\nreplay\n", self->r->out);
	/* a number: nothing to offer, file names least of all */
	RUN(0, "__complete", "plan", "multicast", "--offset", "");
	EXPECT_STREQ("", self->r->out);
	/* a file: still file names */
	RUN(0, "__complete", "plan", "schedule", "x", "--trace", "");
	EXPECT_STREQ("@files\n", self->r->out);
	RUN(0, "__complete", "image", "pack", "--over", "");
	EXPECT_STREQ("@files\n", self->r->out);
	RUN(0, "__complete", "image", "pack", "--ov");
	EXPECT_STREQ("--over\n", self->r->out);
}

/* "file" is what a command read, "output" what it wrote. */
TEST_F(u, json_file_is_the_input_and_output_the_output)
{
	char img[PATH_MAX + 32], out[PATH_MAX + 32];
	uint8_t tile[64];

	for (uint32_t t = 0; t < IPUXCOM_IMG_TILES; t++) {
		char p[PATH_MAX + 48];

		memset(tile, (int)(t & 0xff), sizeof(tile));
		snprintf(p, sizeof(p), "%s/%u.bin", self->dir, t);
		ASSERT_EQ(0, ixt_write_file(p, tile, sizeof(tile)));
	}
	snprintf(img, sizeof(img), "%s.img", self->dir);
	snprintf(out, sizeof(out), "%s.fr", self->dir);
	RUN(0, "image", "pack", "--raw", self->dir, "-o", img, "-j");
	HAS(out, "{\"output\":\"");
	HASNT(out, "\"file\":");
	RUN(0, "frames", img, "0", "1", "-o", out, "-j");
	HAS(out, "{\"file\":\"");
	HAS(out, "\",\"output\":\"");
	unlink(img);
	unlink(out);
}

TEST_HARNESS_MAIN
