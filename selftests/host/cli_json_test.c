// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ipuxcom command's output contract (issue 15, section 4), on the
 * commands that need no device:
 *  - with -j every command prints valid JSON (parsed strictly, not
 *    searched), including hsp check and image extract;
 *  - one value convention: words, addresses and CRCs as "0x%08x" strings,
 *    counts as numbers; asm without column padding, comments apart;
 *  - one error shape: with -j a failure also prints
 *    {"error":{"command","message","exit"}} on stdout, exit 1 or 2;
 *  - values out of range are usage errors (exit 2) before anything runs;
 *  - '-' reads standard input for FILE arguments, and plan decode reads
 *    words from a pipe (tdi read's text) or a binary file;
 *  - sizes for people in text output.
 * (Device commands: selftests/device/devinit_test.c and events_test.c.)
 */
#include "kselftest_harness.h"

#include <ipuxcom.h>

#include "image_testlib.h"
#include "ixt_hsp_oracle.h"
#include "ixt_json.h"

/* The helper itself, as lib_test does with the JSON writer. */
#include "../../tools/units.c"
#include "ixt_tool_run.h"

#define SIZE 256u

FIXTURE(out) {
	char tool[PATH_MAX];
	char dir[PATH_MAX];
	char img[PATH_MAX + 16];
	char hsp[PATH_MAX + 16];
	char cfg[PATH_MAX + 16];
	char list[PATH_MAX + 16];
	char tmp[PATH_MAX + 16];
	struct ixt_run *r;
};

FIXTURE_SETUP(out)
{
	static const char list[] = "multicast 0 4 8 9 10 11 dst=0x50100\np2p 100 200 10\n";
	struct ipuxcom_cfg_record recs[] = { { 0x2068, 0 }, { 0x2070, 0x12345678 } };
	struct ipuxcom_errmsg em;
	uint8_t *shared = malloc(SIZE), t[SIZE];
	char raw[PATH_MAX + 16];
	void *data;
	size_t len;

	self->r = malloc(sizeof(*self->r));
	ASSERT_NE(NULL, self->r);
	if (!ixt_find_tool(self->tool, sizeof(self->tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");
	ASSERT_TRUE(ixt_tmpdir(self->dir, sizeof(self->dir)));
	snprintf(raw, sizeof(raw), "%s/raw", self->dir);
	snprintf(self->img, sizeof(self->img), "%s/a.ipuimg", self->dir);
	snprintf(self->hsp, sizeof(self->hsp), "%s/m.ipuhsp", self->dir);
	snprintf(self->cfg, sizeof(self->cfg), "%s/c.ipucfg", self->dir);
	snprintf(self->list, sizeof(self->list), "%s/x.list", self->dir);
	snprintf(self->tmp, sizeof(self->tmp), "%s/tmp", self->dir);
	ASSERT_EQ(0, mkdir(raw, 0755));
	ixt_fill_random(shared, SIZE, 15);
	for (uint32_t i = 0; i < IPUXCOM_IMG_TILES; i++) {
		char path[PATH_MAX + 48];

		ixt_synth_tile(t, SIZE, shared, i);
		snprintf(path, sizeof(path), "%s/%u.bin", raw, i);
		ASSERT_EQ(0, ixt_write_file(path, t, SIZE));
	}
	free(shared);
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "image", "pack", "--raw", raw, "-o",
				  self->img, NULL));
	ASSERT_EQ(0, self->r->status) TH_LOG("%s", self->r->err);
	ASSERT_EQ(0, ixt_write_file(self->hsp, IXT_HSP_ORACLE, strlen(IXT_HSP_ORACLE)));
	ASSERT_EQ(0, ipuxcom_cfg_serialize(recs, 2, &data, &len, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ixt_write_file(self->cfg, data, len));
	free(data);
	ASSERT_EQ(0, ixt_write_file(self->list, list, strlen(list)));
}

FIXTURE_TEARDOWN(out)
{
	if (self->dir[0])
		ixt_rmtree(self->dir);
	free(self->r);
}


/* stdout is exactly @_n JSON documents. */
#define JSON_DOCS(_n)								\
	EXPECT_EQ(_n, ixt_json_count(self->r->out)) TH_LOG("%s", self->r->out)

TEST_F(out, every_file_command_prints_valid_json)
{
	char out[PATH_MAX + 32];

	snprintf(out, sizeof(out), "%s/t.bin", self->dir);
	RUN(0, "image", "verify", self->img, "-j");
	JSON_DOCS(1);
	RUN(0, "image", "inspect", self->img, "-j");
	JSON_DOCS(1);
	HAS(out, "\"load_base\":\"0x0004c010\"");
	HAS(out, "\"template_crc32\":\"0x");
	RUN(0, "image", "extract", self->img, "7", "-o", out, "-j");
	JSON_DOCS(1);
	HAS(out, "\"tile\":7,\"output\":\"");
	HAS(out, "\"tiles\":1,\"image_size\":256}");
	RUN(0, "-j", "image", "extract", self->img, "all", "-o", self->tmp);
	JSON_DOCS(1);
	HAS(out, "\"tile\":\"all\"");
	HAS(out, "\"tiles\":1472,\"image_size\":256}");
	RUN(0, "hsp", "check", self->hsp, "-j");
	JSON_DOCS(1);
	HAS(out, "\"ok\":true,\"pages\":2,\"calls\":[{\"name\":\"run\",\"phases\":2},");
	HAS(out, "\"slices\":2}");
	RUN(0, "hsp", "show", self->hsp, "-j");
	JSON_DOCS(1);
	RUN(0, "hsp", "format", self->hsp, "-o", out, "-j");
	JSON_DOCS(1);
	HAS(out, "\"output\":\"");
	HAS(out, "\"calls\":3,\"bytes\":");
	{
		char raw[PATH_MAX + 16];

		snprintf(raw, sizeof(raw), "%s/raw", self->dir);
		RUN(0, "image", "pack", "--raw", raw, "-o", out, "-j");
		JSON_DOCS(1);
		HAS(out, "\"tiles\":1472,\"image_size\":256,");
	}
	RUN(0, "cfg", "dump", self->cfg, "-j");
	JSON_DOCS(1);
	HAS(out, "{\"offset\":\"0x00002070\",\"value\":\"0x12345678\",");
	RUN(0, "cfg", "inspect", self->cfg, "-j");
	JSON_DOCS(1);
	RUN(0, "frames", self->img, "0", "63", "-o", out, "-j");
	JSON_DOCS(1);
	RUN(0, "plan", "p2p", "0", "1286", "3", "-j");
	JSON_DOCS(1);
	RUN(0, "plan", "multicast", "0", "3", "5", "6", "-j");
	JSON_DOCS(1);
	RUN(0, "plan", "fanout", "0", "3", "5", "6", "-j");
	JSON_DOCS(1);
	RUN(0, "plan", "decode", "0x41800003", "0", "-j");
	JSON_DOCS(1);
	RUN(0, "plan", "tile", "1", "2", "-j");
	JSON_DOCS(1);
	RUN(0, "plan", "idle", "5", "-j");
	JSON_DOCS(1);
	RUN(0, "plan", "timing", "0", "5", "-j");
	JSON_DOCS(1);
	RUN(0, "plan", "schedule", self->list, "--rows", "-j");
	JSON_DOCS(1);
	HAS(out, "\"src_addr\":\"0x000");
	RUN(0, "demo", "sum", "-j");
	JSON_DOCS(1);
	RUN(0, "demo", "matmul", "-j");
	JSON_DOCS(1);
	RUN(0, "-j", "--version");
	JSON_DOCS(1);
	HAS(out, "{\"version\":\"");
	HAS(out, "\"uapi_version\":");
}

/* asm as an assembler reads it, the comment apart; words and addresses as hex strings. */
TEST_F(out, json_values_follow_one_convention)
{
	RUN(0, "plan", "p2p", "0", "1286", "3", "-j");
	JSON_DOCS(1);
	HAS(out, "\"asm\":[\"sync 3\",\"delay 134\",");
	HAS(out, "\"comment\":[\"supervisor sync\",null,");
	EXPECT_EQ(NULL, strstr(self->r->out, "  ")) TH_LOG("column padding: %s", self->r->out);
	EXPECT_EQ(NULL, strstr(self->r->out, "\"asm\":[\"sync 3 ")) TH_LOG("%s", self->r->out);
	HAS(out, "\"addr_word\":null");
	/* a two-word sendpicp: the fields of both words, not the first word's a, b, c */
	RUN(0, "plan", "decode", "0xf6600000", "0x03014048", "0xf6600000", "-j");
	JSON_DOCS(1);
	HAS(out, "[{\"word\":\"0xf6600000\",\"word2\":\"0x03014048\",\"op\":\"sendpicp\","
	    "\"asm\":\"sendpicp 0, 51, 0x0, 0, 192, 0x14048\",\"comment\":null,\"nwords\":2,"
	    "\"args\":[0,51,0,0,192,81992]},");
	HAS(out, "{\"word\":\"0xf6600000\",\"op\":\".word\",\"asm\":\".word 0xf6600000\","
	    "\"comment\":null,\"nwords\":1}]");
	EXPECT_EQ(NULL, strstr(self->r->out, "\"a\":")) TH_LOG("%s", self->r->out);
	/* the row word that holds the SRAM address: an index as "patch" is, not an address */
	RUN(0, "plan", "multicast", "0", "3", "5", "6", "-j");
	HAS(out, "\"addr_word\":4,");
	EXPECT_EQ(NULL, strstr(self->r->out, "\"addr\":")) TH_LOG("%s", self->r->out);
	RUN(0, "plan", "decode", "0x41800003", "-j");
	HAS(out, "[{\"word\":\"0x41800003\",\"op\":\"sync\",\"asm\":\"sync 3\",\"comment\":");
	/* Text output keeps its columns: only JSON drops them. */
	RUN(0, "plan", "p2p", "0", "1286", "3");
	HAS(out, "sync 3                     ; supervisor sync");
}

TEST_F(out, failures_print_one_error_object_with_j)
{
	RUN(2, "-j", "plan", "p2p", "0", "1472", "5");
	JSON_DOCS(1);
	HAS(out, "{\"error\":{\"command\":\"plan p2p\",\"message\":\"invalid tile '1472': "
		 "a decimal number 0..1471\",\"exit\":2}}\n");
	HAS(err, "ipuxcom: plan p2p: invalid tile '1472': a decimal number 0..1471");
	/* -j given to the command, a failure (exit 1), the message naming the file */
	RUN(1, "image", "verify", "/nonexistent/a.ipuimg", "-j");
	JSON_DOCS(1);
	HAS(out, "{\"error\":{\"command\":\"image verify\",\"message\":\"/nonexistent/a.ipuimg:");
	HAS(out, "\"exit\":1}}\n");
	/* Errors before any command: no command to name. */
	RUN(2, "-j", "frobnicate");
	JSON_DOCS(1);
	HAS(out, "{\"error\":{\"command\":null,\"message\":\"unknown object 'frobnicate'\","
		 "\"exit\":2}}\n");
	RUN(2, "-j", "plan", "frob");
	HAS(out, "{\"error\":{\"command\":\"plan\",\"message\":\"unknown command 'frob'\"");
	RUN(2, "dev", "show", "x", "-j");
	HAS(out, "{\"error\":{\"command\":\"dev show\",\"message\":\"invalid device id 'x': a decimal number\"");
	/* Without -j, stdout stays empty. */
	RUN(2, "plan", "p2p", "0", "1472", "5");
	EXPECT_STREQ("", self->r->out);
	/* Success prints no error object. */
	RUN(0, "-j", "plan", "tile", "5");
	EXPECT_EQ(NULL, strstr(self->r->out, "\"error\"")) TH_LOG("%s", self->r->out);
}

/* A report that fails (bad tiles) comes first, then the error object. */
TEST_F(out, a_failed_report_is_followed_by_the_error_object)
{
	uint8_t *d;
	size_t len;

	d = ixt_read_file(self->img, &len);
	ASSERT_NE(NULL, d);
	d[len - 1] ^= 0xff;	/* tile 1471's last patch byte */
	ASSERT_EQ(0, ixt_write_file(self->tmp, d, len));
	free(d);
	RUN(1, "image", "verify", self->tmp, "-j");
	JSON_DOCS(2);
	HAS(out, "\"ok\":false,\"tiles\":1472,\"bad_tiles\":1}\n{\"error\":{\"command\":"
		 "\"image verify\",");
	HAS(out, "1 of 1472 tiles do not reconstruct to their CRC32\",\"exit\":1}}\n");
}

/* Checked before the device is opened: exit 2 even where there is no module. */
TEST_F(out, out_of_range_values_are_usage_errors)
{
	RUN(2, "tdi", "dump", "1472");
	HAS(err, "invalid physical tile '1472': a decimal number 0..1471");
	RUN(2, "tdi", "read", "0", "0x1000");
	HAS(err, "invalid address '0x1000' (4-byte aligned tile SRAM address, 0x4c000..0xe7ffc)");
	RUN(2, "tdi", "read", "0", "0xe7ffc", "2");
	HAS(err, "8 bytes from 0xe7ffc end past tile SRAM (0xe8000)");
	RUN(2, "tdi", "read", "0", "0x4c000", "0");
	HAS(err, "invalid word count '0'");
	RUN(2, "tdi", "write", "0", "0xe8000", "1");
	RUN(2, "image", "extract", self->img, "1472", "-o", self->tmp);
	/* the same SRAM rule for the image commands' addresses (the library said 1) */
	RUN(2, "image", "pack", "--raw", self->dir, "-o", self->tmp, "--base", "0x1000");
	HAS(err, "invalid address '0x1000' for --base (tile SRAM address, 0x4c000..0xe7fff)");
	RUN(2, "image", "pack", "--raw", self->dir, "-o", self->tmp, "--entry", "0x4c012");
	HAS(err, "invalid address '0x4c012' for --entry (4-byte aligned tile SRAM address");
	RUN(2, "image", "redirect", self->img, "-o", self->tmp, "--target", "0xe8000");
	HAS(err, "invalid address '0xe8000' for --target");
	RUN(2, "frames", self->img, "0", "1472", "-o", self->tmp);
}

TEST_F(out, dash_reads_standard_input)
{
	RUN_IN(0, self->img, "image", "verify", "-");
	HAS(out, "-: ok: header, 1472 records");
	RUN_IN(0, self->img, "image", "inspect", "-", "-j");
	HAS(out, "\"file\":\"-\"");
	RUN_IN(0, self->hsp, "hsp", "check", "-");
	HAS(out, "-: ok: 2 pages, 3 calls");
	RUN_IN(0, self->cfg, "cfg", "dump", "-");
	HAS(out, "0x02070 = 0x12345678");
	RUN_IN(0, self->list, "plan", "schedule", "-");
	HAS(out, "schedule: 2 transfers from -");
	/* A FIFO, as "<(command)" gives, is read like standard input. */
	{
		pid_t pid;

		ASSERT_EQ(0, mkfifo(self->tmp, 0600));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			int fd = open(self->tmp, O_WRONLY);

			_exit(fd < 0 || write(fd, IXT_HSP_ORACLE, strlen(IXT_HSP_ORACLE)) < 0);
		}
		RUN(0, "hsp", "check", self->tmp);
		ASSERT_EQ(pid, waitpid(pid, NULL, 0));
		HAS(out, "/tmp: ok: 2 pages, 3 calls");
		unlink(self->tmp);
	}
	/* A parse error names standard input where it would name the file. */
	RUN_IN(1, self->hsp, "image", "verify", "-");
	HAS(err, "ipuxcom: image verify: -: ");
	RUN_IN(1, self->img, "hsp", "check", "-");
	HAS(err, "ipuxcom: hsp check: -:");
}

TEST_F(out, plan_decode_reads_a_pipe_or_a_binary_file)
{
	/* What `tdi read TILE 0x4c000 5` prints. */
	static const char dump[] = "0004c000: 41800003 40a0008f 78400001 43a00000\n"
				   "0004c010: 00000000\n";
	static const uint8_t bin[] = { 0x03, 0x00, 0x80, 0x41, 0x00, 0x00, 0xa0, 0x43 };

	ASSERT_EQ(0, ixt_write_file(self->tmp, dump, strlen(dump)));
	RUN_IN(0, self->tmp, "plan", "decode");
	EXPECT_STREQ("0x41800003  sync 3\n"
		     "0x40a0008f  delay 143\n"
		     "0x78400001  send 2, 0x0, 1\n"
		     "0x43a00000  br $m10\n"
		     "0x00000000  .word 0x00000000\n", self->r->out);
	RUN(0, "plan", "decode", "-f", self->tmp, "-j");
	JSON_DOCS(1);
	HAS(out, "{\"word\":\"0x43a00000\",\"op\":\"br\",\"asm\":\"br $m10\"");
	ASSERT_EQ(0, ixt_write_file(self->tmp, bin, sizeof(bin)));
	RUN(0, "plan", "decode", "--file", self->tmp);
	EXPECT_STREQ("0x41800003  sync 3\n"
		     "0x43a00000  br $m10\n", self->r->out);
	/* Text that happens to be binary words, when told. */
	ASSERT_EQ(0, ixt_write_file(self->tmp, "AAAA", 4));
	RUN(0, "plan", "decode", "-b", "-f", self->tmp);
	HAS(out, "0x41414141");
	/* as text, one grammar with the arguments: hex, 0x optional */
	RUN(0, "plan", "decode", "-f", self->tmp);
	HAS(out, "0x0000aaaa");
	ASSERT_EQ(0, ixt_write_file(self->tmp, "GGGG", 4));
	RUN(1, "plan", "decode", "-f", self->tmp);
	HAS(err, "plan decode: ");
	HAS(err, ":1: invalid word 'GGGG' (1..8 hex digits, 0x optional)");
	ASSERT_EQ(0, ixt_write_file(self->tmp, "0x1\n0x2 zz\n", 11));
	RUN_IN(1, self->tmp, "plan", "decode");
	HAS(err, "-:2: invalid word 'zz'");
	ASSERT_EQ(0, ixt_write_file(self->tmp, bin, 6));
	RUN_IN(1, self->tmp, "plan", "decode");
	HAS(err, "-: 6 bytes, not a whole number of 32-bit words");
	RUN(2, "plan", "decode", "1", "-f", self->tmp);
	HAS(err, "give WORDs or --file FILE, not both");
}

TEST_F(out, sizes_for_people)
{
	RUN(0, "image", "inspect", self->img);
	/* 1472 x 256 bytes unpacked */
	HAS(out, "(368.0 KiB (376,832 bytes) unpacked)");
	HAS(out, " KiB (");
	/* the patch statistics too, not bare byte counts */
	HAS(out, " bytes) patched, patch area ");
	EXPECT_EQ(NULL, strstr(self->r->out, "-byte patch area")) TH_LOG("%s", self->r->out);
	RUN(0, "frames", self->img, "0", "63", "-o", self->tmp);
	/* 64 tiles x 17 frames of 1 KiB (the loader's smallest envelope), 4 KiB of descriptors */
	HAS(out, "17 frames (17408 bytes) per tile, 1.1 MiB (1,118,208 bytes)\n");
	RUN(0, "frames", self->img, "0", "63", "-o", self->tmp, "-j");
	HAS(out, "\"bytes\":1118208}");
}

/* The checker the tests above rely on refuses what is not JSON. */
TEST(json_checker_is_strict)
{
	EXPECT_EQ(2, ixt_json_count("{\"a\":[1,-2.5e3,\"x\\n\",true,null]}\n[]\n"));
	EXPECT_EQ(0, ixt_json_count(" \n"));
	EXPECT_EQ(-1, ixt_json_count("{\"a\":1,}"));
	EXPECT_EQ(-1, ixt_json_count("[1 2]"));
	EXPECT_EQ(-1, ixt_json_count("{\"a\":\"x\ny\"}"));
	EXPECT_EQ(-1, ixt_json_count("{\"a\":01}"));
	EXPECT_EQ(-1, ixt_json_count("{\"a\":\"0x1\""));
	EXPECT_EQ(-1, ixt_json_count("{a:1}"));
	EXPECT_EQ(-1, ixt_json_count("{\"a\":1} junk"));
}

TEST(sizes_round_and_group)
{
	char buf[CLI_SIZE_LEN];

	EXPECT_STREQ("0 bytes", cli_size(0, buf, sizeof(buf)));
	EXPECT_STREQ("1 byte", cli_size(1, buf, sizeof(buf)));
	EXPECT_STREQ("1,023 bytes", cli_size(1023, buf, sizeof(buf)));
	EXPECT_STREQ("1.0 KiB (1,024 bytes)", cli_size(1024, buf, sizeof(buf)));
	EXPECT_STREQ("1.8 MiB (1,885,475 bytes)", cli_size(1885475, buf, sizeof(buf)));
	/* not "1024.0 KiB": rounding would show the next unit's value */
	EXPECT_STREQ("1.0 MiB (1,048,575 bytes)", cli_size(1048575, buf, sizeof(buf)));
	EXPECT_STREQ("4.0 GiB (4,294,967,296 bytes)", cli_size(1ULL << 32, buf, sizeof(buf)));
	EXPECT_STREQ("16.0 EiB (18,446,744,073,709,551,615 bytes)",
		     cli_size(UINT64_MAX, buf, sizeof(buf)));
}

TEST_HARNESS_MAIN
