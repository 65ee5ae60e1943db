// SPDX-License-Identifier: GPL-2.0-only
/*
 * Issue 33's leftovers of the ipuxcom command, each repro with its answer:
 *  - tile ids, device ids and counts are decimal (the README said "decimal
 *    or 0x"): a 0x count is refused naming the value and the form,
 *    "invalid count '0x46': a decimal number 1..4148", on the command line
 *    and in a transfer list; addresses still take 0x;
 *  - '-' reads standard input for every FILE argument of every command,
 *    `plan decode -` included (it exited 2), and only once per run;
 *  - one position style for a line of a file: FILE:LINE: as compilers
 *    print it, "-" for standard input (not "-: line 1:" beside "-:1:");
 *  - `plan schedule -j` gives each transfer's destination addresses;
 *  - `p2p 0 5 10 srcaddr=0x60000` names the unknown key and the valid
 *    ones (it said "p2p needs SRC DST COUNT").
 */
#include "kselftest_harness.h"

#include <ipuxcom.h>

#include "image_testlib.h"
#include "ixt_hsp_oracle.h"
#include "ixt_json.h"
#include "ixt_tool_run.h"

#define SIZE 256u

FIXTURE(files) {
	char tool[PATH_MAX];
	char dir[PATH_MAX];
	char raw[PATH_MAX + 16];
	char img[PATH_MAX + 16];
	char hsp[PATH_MAX + 16];
	char cfg[PATH_MAX + 16];
	char list[PATH_MAX + 16];
	char timing[PATH_MAX + 16];
	char boot[PATH_MAX + 16];
	char words[PATH_MAX + 16];
	char tmp[PATH_MAX + 16];
	struct ixt_run *r;
};

FIXTURE_SETUP(files)
{
	static const char list[] = "multicast 0 4 8 9 dst=0x50100,0x70000\np2p 100 200 10\n";
	static const char words[] = "0004c000: 41800003 40a0008f\n";
	struct ipuxcom_cfg_record recs[] = { { 0x2068, 0 }, { 0x2070, 0x12345678 } };
	struct ipuxcom_errmsg em;
	uint8_t *shared = malloc(SIZE), t[SIZE], boot[64] = { 0 };
	void *data;
	size_t len;

	self->r = calloc(1, sizeof(*self->r));
	ASSERT_NE(NULL, self->r);
	ASSERT_NE(NULL, shared);
	if (!ixt_find_tool(self->tool, sizeof(self->tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");
	ASSERT_TRUE(ixt_tmpdir(self->dir, sizeof(self->dir)));
	snprintf(self->raw, sizeof(self->raw), "%s/raw", self->dir);
	snprintf(self->img, sizeof(self->img), "%s/a.ipuimg", self->dir);
	snprintf(self->hsp, sizeof(self->hsp), "%s/m.ipuhsp", self->dir);
	snprintf(self->cfg, sizeof(self->cfg), "%s/c.ipucfg", self->dir);
	snprintf(self->list, sizeof(self->list), "%s/x.list", self->dir);
	snprintf(self->timing, sizeof(self->timing), "%s/t.timing", self->dir);
	snprintf(self->boot, sizeof(self->boot), "%s/boot.bin", self->dir);
	snprintf(self->words, sizeof(self->words), "%s/w.txt", self->dir);
	snprintf(self->tmp, sizeof(self->tmp), "%s/tmp", self->dir);
	ASSERT_EQ(0, mkdir(self->raw, 0755));
	ixt_fill_random(shared, SIZE, 33);
	for (uint32_t i = 0; i < IPUXCOM_IMG_TILES; i++) {
		char path[PATH_MAX + 48];

		ixt_synth_tile(t, SIZE, shared, i);
		snprintf(path, sizeof(path), "%s/%u.bin", self->raw, i);
		ASSERT_EQ(0, ixt_write_file(path, t, SIZE));
	}
	free(shared);
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "image", "pack", "--raw", self->raw, "-o",
				  self->img, NULL));
	ASSERT_EQ(0, self->r->status) TH_LOG("%s", self->r->err);
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "plan", "timing", "--export",
				  self->timing, NULL));
	ASSERT_EQ(0, self->r->status) TH_LOG("%s", self->r->err);
	ASSERT_EQ(0, ixt_write_file(self->hsp, IXT_HSP_ORACLE, strlen(IXT_HSP_ORACLE)));
	ASSERT_EQ(0, ipuxcom_cfg_serialize(recs, 2, &data, &len, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ixt_write_file(self->cfg, data, len));
	free(data);
	ASSERT_EQ(0, ixt_write_file(self->list, list, strlen(list)));
	ASSERT_EQ(0, ixt_write_file(self->boot, boot, sizeof(boot)));
	ASSERT_EQ(0, ixt_write_file(self->words, words, strlen(words)));
}

FIXTURE_TEARDOWN(files)
{
	if (self->dir[0])
		ixt_rmtree(self->dir);
	free(self->r);
}

/* Write @_text to self->tmp. */
#define INPUT(_text) ASSERT_EQ(0, ixt_write_file(self->tmp, (_text), strlen(_text)))

TEST_F(files, ids_and_counts_are_decimal_and_a_refusal_says_so)
{
	RUN(2, "plan", "p2p", "0", "5", "0x46");
	HAS(err, "plan p2p: invalid count '0x46': a decimal number 1..4148\n");
	RUN(2, "plan", "p2p", "0", "0x5", "70");
	HAS(err, "invalid tile '0x5': a decimal number 0..1471\n");
	RUN(2, "plan", "multicast", "0", "0x8", "3", "5");
	HAS(err, "invalid count '0x8': a decimal number 1..4148\n");
	RUN(2, "plan", "multicast", "0", "0x8", "3", "5", "--wide");
	HAS(err, "invalid count '0x8': a decimal number 1..4148 (with --wide too");
	RUN(2, "plan", "tile", "0x10");
	HAS(err, "invalid tile '0x10': a decimal number 0..1471\n");
	RUN(2, "tdi", "read", "0", "0x4c000", "0x10");
	HAS(err, "invalid word count '0x10': a decimal number 1..");
	RUN(2, "frames", self->img, "0x0", "3", "-o", self->tmp);
	HAS(err, "invalid first tile '0x0': a decimal number 0..1471\n");
	RUN(2, "image", "extract", self->img, "0x7", "-o", self->tmp);
	HAS(err, "invalid tile '0x7': a decimal number 0..1471, or 'all'\n");
	RUN(2, "--dev", "0x1", "dev", "show");
	HAS(err, "invalid device id '0x1' (--dev): a decimal number");
	/* the same rule in a transfer list, with the list's position */
	INPUT("p2p 0 5 0x46\n");
	RUN_IN(1, self->tmp, "plan", "schedule", "-");
	HAS(err, "plan schedule: -:1: invalid count '0x46': a decimal number 1..4148\n");
	INPUT("p2p 0 5 10\nmulticast 0x0 4 8 9\n");
	RUN(1, "plan", "schedule", self->tmp);
	HAS(err, ":2: invalid tile id '0x0': a decimal number 0..1471\n");
	/* decimal is the form: 70 plans, and addresses still take 0x */
	RUN(0, "plan", "p2p", "0", "5", "70");
	RUN(0, "plan", "multicast", "0", "4", "8", "9", "--dst-addr", "0x50100");
	INPUT("p2p 0 5 70 src=0x80000 dst=0x50100\n");
	RUN(0, "plan", "schedule", self->tmp);
}

/* What each FILE holds, read through '-': exit 0 and what that file gives. */
TEST_F(files, dash_reads_standard_input_for_every_file_argument)
{
	char cfg_file[sizeof(self->r->out)];

	/* words to decode: "decode -" (it exited 2), -f -, and no argument */
	RUN_IN(0, self->words, "plan", "decode", "-");
	EXPECT_STREQ("0x41800003  sync 3\n0x40a0008f  delay 143\n", self->r->out);
	RUN_IN(0, self->words, "plan", "decode", "-", "-j");
	EXPECT_EQ(1, ixt_json_count(self->r->out)) TH_LOG("%s", self->r->out);
	RUN_IN(0, self->words, "plan", "decode", "-f", "-");
	EXPECT_STREQ("0x41800003  sync 3\n0x40a0008f  delay 143\n", self->r->out);
	RUN_IN(2, self->words, "plan", "decode", "-", "-f", self->words);
	HAS(err, "give '-' or --file FILE, not both");
	/* a transfer list */
	RUN_IN(0, self->list, "plan", "schedule", "-");
	HAS(out, "schedule: 2 transfers from -,");
	/* a timing table, for every command that takes -t */
	RUN_IN(0, self->timing, "plan", "p2p", "0", "5", "3", "-t", "-");
	HAS(out, "timing table:reconstruction");
	RUN_IN(0, self->timing, "plan", "multicast", "0", "3", "5", "6", "-t", "-");
	HAS(out, "timing table:reconstruction");
	RUN_IN(0, self->timing, "plan", "fanout", "0", "3", "5", "6", "-t", "-");
	HAS(out, "timing table:reconstruction");
	RUN_IN(0, self->timing, "plan", "timing", "0", "5", "-t", "-");
	HAS(out, "timing table:reconstruction: physical 0 -> 130");
	RUN_IN(0, self->timing, "plan", "schedule", self->list, "-t", "-");
	RUN_IN(0, self->timing, "demo", "matmul", "-t", "-");
	HAS(out, "(timing table:reconstruction)");
	/* an image */
	RUN_IN(0, self->img, "image", "verify", "-");
	HAS(out, "-: ok: header, 1472 records");
	RUN_IN(0, self->img, "image", "inspect", "-", "-j");
	HAS(out, "\"file\":\"-\"");
	RUN_IN(0, self->img, "image", "extract", "-", "7", "-o", self->tmp);
	RUN_IN(0, self->img, "frames", "-", "0", "3", "-o", self->tmp);
	HAS(out, "tiles 0..3 in 1 batch");
	RUN_IN(0, self->img, "image", "pack", "--raw", self->raw, "--over", "-", "-o", self->tmp);
	/* a manifest */
	RUN_IN(0, self->hsp, "hsp", "check", "-");
	HAS(out, "-: ok: 2 pages, 3 calls");
	RUN_IN(0, self->hsp, "hsp", "show", "-");
	HAS(out, "ipuhsp 1\n");
	RUN_IN(0, self->hsp, "hsp", "format", "-", "-o", self->tmp);
	/* a config capture: the same records as from the file */
	RUN(0, "cfg", "dump", self->cfg);
	memcpy(cfg_file, self->r->out, sizeof(cfg_file));
	RUN_IN(0, self->cfg, "cfg", "dump", "-");
	EXPECT_STREQ(cfg_file, self->r->out);
	RUN_IN(0, self->cfg, "cfg", "inspect", "-");
	/* load's inputs, checked before any device: image, bootloader, config, manifest */
	RUN_IN(0, self->img, "load", "-", "-b", self->boot, "--no-config", "--check");
	HAS(out, "image: -: IPUIMG1, 1472 tiles");
	RUN_IN(0, self->boot, "load", self->img, "-b", "-", "--no-config", "--check");
	HAS(out, "bootloader: -: raw, 64 bytes");
	RUN_IN(0, self->cfg, "load", self->img, "-b", self->boot, "-c", "-", "--check");
	HAS(out, "config: -: IPUCFG1, 2 records");
	RUN_IN(0, self->hsp, "load", self->img, "-b", self->boot, "--no-config", "--check",
	       "--hostx", "-", "run");
	HAS(out, "manifest: -: 3 calls, 2 pages");
	RUN_IN(0, self->hsp, "load", self->img, "-b", self->boot, "--no-config", "--check",
	       "--hostx", self->hsp, "write:in=-");
	HAS(out, "call write input: -: standard input, read when the call runs");
}

TEST_F(files, standard_input_is_read_once)
{
	/* the table is read first, then the list finds standard input taken */
	RUN_IN(2, self->timing, "plan", "schedule", "-", "-t", "-");
	HAS(err, "plan schedule: -: given twice: standard input can be read only once\n");
	/* an in= '-' after the image took standard input: refused before any device */
	RUN_IN(1, self->img, "load", "-", "-b", self->boot, "--no-config", "--check", "--hostx",
	       self->hsp, "write:in=-");
	HAS(out, "FAIL  call write input: -: standard input is already read");
	RUN_IN(1, self->boot, "load", self->img, "-b", "-", "--no-config", "--check", "--hostx",
	       "-", "run");
	HAS(out, "-: given twice: standard input can be read only once");
}

/* One style for a line of any file: NAME:LINE:, "-" for standard input. */
TEST_F(files, a_line_of_a_file_is_named_file_colon_line)
{
	char want[PATH_MAX + 96];

	/* a transfer list: parse errors and scheduler rejections alike */
	INPUT("p2p 1 2 3\np2p 5 5 3\n");
	RUN(1, "plan", "schedule", self->tmp);
	snprintf(want, sizeof(want), "plan schedule: %s:2: receiver is the sender '5'\n",
		 self->tmp);
	HAS(err, want);
	RUN_IN(1, self->tmp, "plan", "schedule", "-");
	HAS(err, "plan schedule: -:2: receiver is the sender '5'\n");
	INPUT("p2p 1 2 3\n\np2p 5 6 3 dst=0x60000\n");
	RUN_IN(1, self->tmp, "plan", "schedule", "-");
	HAS(err, "plan schedule: -:3: xfers[1].dst_addr[0] 0x60000");
	/* a manifest: a line, a line and column, the end of the file */
	INPUT("bogus\n");
	RUN_IN(1, self->tmp, "hsp", "check", "-");
	HAS(err, "hsp check: -:1: expected the header 'ipuhsp 1', got 'bogus'\n");
	RUN(1, "hsp", "check", self->tmp);
	snprintf(want, sizeof(want), "hsp check: %s:1: expected the header", self->tmp);
	HAS(err, want);
	INPUT("ipuhsp 1\npage 0 size 4096\x01\nend\n");
	RUN_IN(1, self->tmp, "hsp", "check", "-");
	HAS(err, "hsp check: -:2:17: byte 0x01 is not allowed");
	INPUT("ipuhsp 1\npage 0 size 4096\n");
	RUN_IN(1, self->tmp, "hsp", "check", "-");
	HAS(err, "hsp check: -:2: end of file: missing");
	/* a manifest given to load --hostx: the same words */
	RUN_IN(1, self->tmp, "load", self->img, "-b", self->boot, "--no-config", "--check",
	       "--hostx", "-", "run");
	HAS(out, "manifest: -:2: end of file: missing");
	/* a timing table */
	RUN_IN(1, self->list, "plan", "timing", "0", "5", "-t", "-");
	HAS(err, "plan timing: -:1: not a timing table");
	RUN(1, "plan", "timing", "0", "5", "-t", self->list);
	snprintf(want, sizeof(want), "plan timing: %s:1: not a timing table", self->list);
	HAS(err, want);
	/* words to decode */
	INPUT("0x1\n0x2 zz\n");
	RUN_IN(1, self->tmp, "plan", "decode", "-");
	HAS(err, "plan decode: -:2: invalid word 'zz'");
	/* never the other style */
	HASNT(err, "line ");
}

TEST_F(files, schedule_json_gives_destination_addresses)
{
	const char *t1;

	RUN(0, "plan", "schedule", self->list, "-j");
	EXPECT_EQ(1, ixt_json_count(self->r->out)) TH_LOG("%s", self->r->out);
	/* the multicast's two receivers (logical 8, 9) and the addresses given, in order */
	HAS(out, "\"receivers\":[256,258],\"src_addr\":\"0x00080000\","
		 "\"dst_addrs\":[\"0x00050100\",\"0x00070000\"],");
	/* the p2p's default destination (the list's first buffer on its receiver) */
	t1 = strstr(self->r->out, "\"line\":2,");
	ASSERT_NE(NULL, t1) TH_LOG("%s", self->r->out);
	EXPECT_NE(NULL, strstr(t1, "\"dst_addrs\":[\"0x00050000\"],")) TH_LOG("%s", t1);
}

TEST_F(files, an_unknown_key_is_named_with_the_valid_ones)
{
	/* in a transfer list */
	INPUT("p2p 0 5 10 srcaddr=0x60000\n");
	RUN_IN(1, self->tmp, "plan", "schedule", "-");
	HAS(err, "plan schedule: -:1: unknown key \"srcaddr\": did you mean src=? (the keys "
		 "are src= and dst=)\n");
	HASNT(err, "needs SRC DST COUNT");
	INPUT("multicast 0 5 3 4 to=0x50000\n");
	RUN_IN(1, self->tmp, "plan", "schedule", "-");
	HAS(err, "-:1: unknown key \"to\" (the keys are src= and dst=)\n");
	/* on the command line, where the keys are options */
	RUN(2, "plan", "p2p", "0", "5", "10", "srcaddr=0x60000");
	HAS(err, "plan p2p: unknown key \"srcaddr\" in 'srcaddr=0x60000': did you mean "
		 "--src-addr? (the plan commands take --src-addr ADDR and --dst-addr ADDR)\n");
	RUN(2, "plan", "multicast", "0", "5", "3", "4", "dst=0x50000");
	HAS(err, "plan multicast: 'dst=0x50000': KEY=VALUE is the transfer list's form; here "
		 "it is --dst-addr 0x50000\n");
	RUN(2, "plan", "fanout", "0", "5", "3", "4", "via=2");
	HAS(err, "unknown key \"via\" in 'via=2' (the plan commands take");
	/* a surplus argument is still one */
	RUN(2, "plan", "p2p", "0", "5", "10", "11");
	HAS(err, "unexpected argument '11' (need SRC DST COUNT)");
}

TEST_HARNESS_MAIN
