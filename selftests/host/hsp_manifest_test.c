// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host-sync manifests (.ipuhsp, docs/ipuhsp-format.md): the notes' minimal
 * oracle (two 4 KiB pages attached 1 then 0, callable id at page 1 + 0,
 * 64-byte tensor at page 0 + 0x40, write/run/read = 4/2/4 GS2 phases)
 * read and written back canonically, the lexical rules, every rejection
 * with its line, validation of hand-built manifests, and `ipuxcom hsp`.
 */
#include "kselftest_harness.h"

#include <ipuxcom.h>

#include "image_testlib.h"
#include "ixt_hsp_oracle.h"

/* The notes' sdk_host_tensor oracle [S "Host Tensor Exchange"]. */
static const char oracle[] =
	"# sdk_host_tensor_oracle\n"
	IXT_HSP_ORACLE;

static const char canonical[] =
	"# ipuxcom host-sync manifest (docs/ipuhsp-format.md)\n"
	IXT_HSP_ORACLE;

TEST(notes_oracle)
{
	struct ipuxcom_hsp_manifest m;
	struct ipuxcom_errmsg em;
	int w, r, run;

	ASSERT_EQ(0, ipuxcom_hsp_parse(oracle, strlen(oracle), &m, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(2u, m.npages);
	EXPECT_EQ(4096u, m.page_size[0]);
	EXPECT_EQ(4096u, m.page_size[1]);
	EXPECT_EQ(1u, m.attach_order[0]);	/* page 1, then page 0 */
	EXPECT_EQ(0u, m.attach_order[1]);
	EXPECT_EQ(1u, m.command_page);
	EXPECT_EQ(0u, m.command_offset);
	ASSERT_EQ(3u, m.ncalls);
	w = ipuxcom_hsp_find_call(&m, "write");
	r = ipuxcom_hsp_find_call(&m, "read");
	run = ipuxcom_hsp_find_call(&m, "run");
	ASSERT_GE(w, 0);
	ASSERT_GE(r, 0);
	ASSERT_GE(run, 0);
	EXPECT_EQ(4u, m.calls[w].phases);
	EXPECT_EQ(2u, m.calls[run].phases);
	EXPECT_EQ(4u, m.calls[r].phases);
	EXPECT_EQ(0u, m.calls[run].id);
	EXPECT_EQ(1u, m.calls[r].id);
	EXPECT_EQ(2u, m.calls[w].id);
	EXPECT_EQ(-ENOENT, ipuxcom_hsp_find_call(&m, "jump"));
	ASSERT_EQ(2u, m.nslices);
	EXPECT_EQ((uint32_t)w, m.slices[0].call);
	EXPECT_EQ((uint32_t)IPUXCOM_HSP_INPUT, m.slices[0].dir);
	EXPECT_EQ(0u, m.slices[0].page);
	EXPECT_EQ(0x40u, m.slices[0].offset);
	EXPECT_EQ(64u, m.slices[0].size);
	EXPECT_EQ((uint32_t)r, m.slices[1].call);
	EXPECT_EQ((uint32_t)IPUXCOM_HSP_OUTPUT, m.slices[1].dir);
}

TEST(canonical_writer_round_trip)
{
	struct ipuxcom_hsp_manifest m, m2;
	struct ipuxcom_errmsg em;
	char *text;
	size_t len;

	ASSERT_EQ(0, ipuxcom_hsp_parse(oracle, strlen(oracle), &m, &em));
	ASSERT_EQ(0, ipuxcom_hsp_format(&m, &text, &len, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(strlen(text), len);
	EXPECT_STREQ(canonical, text);
	ASSERT_EQ(0, ipuxcom_hsp_parse(text, len, &m2, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(0, memcmp(&m, &m2, sizeof(m)));
	free(text);
}

/* Blanks, tabs, comments, hex and decimal, several slices and pages. */
TEST(lexical_freedom_within_the_rules)
{
	static const char text[] =
		"\n# a comment\n   # indented comment with \xc3\xbc in it\n"
		"ipuhsp\t1\n"
		"page 0 size 0x2000\n"
		"  page   1   size   8192  \n"
		"page 2 size 4096\n"
		"attach 2 0 1\n"
		"\n"
		"command page 2 offset 0xFFC\n"
		"call step_1 id 0xffffffff phases 65535\n"
		"call b id 7 phases 1\n"
		"input step_1 page 0 offset 0 size 8192\n"
		"input step_1 page 1 offset 0 size 4\n"
		"output step_1 page 1 offset 0 size 8192\n"
		"input b page 2 offset 0 size 0xffc\n"
		"end\n"
		"# trailing comment\n\n";
	struct ipuxcom_hsp_manifest m;
	struct ipuxcom_errmsg em;

	ASSERT_EQ(0, ipuxcom_hsp_parse(text, strlen(text), &m, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(3u, m.npages);
	EXPECT_EQ(0x2000u, m.page_size[0]);
	EXPECT_EQ(0xffcu, m.command_offset);
	EXPECT_EQ(0xffffffffu, m.calls[0].id);
	EXPECT_EQ(65535u, m.calls[0].phases);
	EXPECT_EQ(4u, m.nslices);
}

struct bad {
	const char *text;
	const char *msg;
};

#define HDR "ipuhsp 1\n"
#define PAGES "page 0 size 4096\npage 1 size 4096\nattach 1 0\n"
#define CMD "command page 1 offset 0x0\n"
#define CALLS "call run id 0 phases 2\ncall read id 1 phases 4\n"

static const struct bad bads[] = {
	{ "", "end of file after line 0: missing the header 'ipuhsp 1'" },
	{ "# only a comment\n", "end of file after line 1: missing the header" },
	{ "ipuhsp 2\n", "line 1: version 2 (this library reads version 1)" },
	{ "ipuhsp\n", "line 1: 'ipuhsp' takes the form 'ipuhsp 1'" },
	{ "page 0 size 4096\n", "line 1: expected the header 'ipuhsp 1', got 'page'" },
	{ HDR, "end of file after line 1: missing 'page' and 'attach' lines" },
	{ HDR "page 1 size 4096\n", "line 2: page 1 out of order (expected page 0)" },
	{ HDR "page 0 size 4095\n", "line 2: page size 4095 is not a multiple of 4096 in 4096.." },
	{ HDR "page 0 size 0\n", "page size 0 is not a multiple" },
	{ HDR "page 0 size 0x4001000\n", "page size 67112960 is not a multiple of 4096 in "
	  "4096..67108864" },
	{ HDR "page 0 size 4096 extra\n", "line 2: 'page' takes the form 'page INDEX size BYTES'" },
	{ HDR "page 0 bytes 4096\n", "line 2: expected 'size', got 'bytes'" },
	{ HDR "attach 0\n", "line 2: 'attach' before any 'page'" },
	{ HDR "page 0 size 4096\npage 1 size 4096\nattach 1\n",
	  "line 4: 'attach' lists 1 pages; it must list each of the 2 pages once" },
	{ HDR "page 0 size 4096\npage 1 size 4096\nattach 1 1\n",
	  "line 4: 'attach' names page 1 twice" },
	{ HDR "page 0 size 4096\npage 1 size 4096\nattach 1 2\n",
	  "line 4: 'attach' names page 2 which does not exist" },
	{ HDR "page 0 size 4096\ncommand page 0 offset 0\n",
	  "line 3: expected 'page' or 'attach', got 'command'" },
	{ HDR PAGES CALLS, "line 5: expected 'command', got 'call'" },
	{ HDR PAGES "command page 2 offset 0\n",
	  "line 5: command page 2 does not exist (2 pages)" },
	{ HDR PAGES "command page 1 offset 0x2\n",
	  "line 5: command word at offset 0x2 is not a 4-aligned word of page 1 (4096 bytes)" },
	{ HDR PAGES "command page 1 offset 4096\n", "command word at offset 0x1000 is not" },
	{ HDR PAGES "command page 1 at 0\n", "line 5: expected 'offset', got 'at'" },
	{ HDR PAGES CMD, "end of file after line 5: missing 'call' lines and 'end'" },
	{ HDR PAGES CMD "end\n", "line 6: 'end' before any 'call'" },
	{ HDR PAGES CMD "input run page 0 offset 0 size 4\n", "line 6: 'input' before any 'call'" },
	{ HDR PAGES CMD "call Run id 0 phases 1\n", "line 6: bad call name 'Run'" },
	{ HDR PAGES CMD "call 9lives id 0 phases 1\n", "bad call name '9lives'" },
	{ HDR PAGES CMD "call a-b id 0 phases 1\n", "bad call name 'a-b'" },
	{ HDR PAGES CMD "call abcdefghijabcdefghijabcdefghijab id 0 phases 1\n",
	  "bad call name 'abcdefghijabcdefghijabcdefghijab'" },
	{ HDR PAGES CMD "call run id 0 phases 0\n", "line 6: call 'run' has 0 phases (1..65535)" },
	{ HDR PAGES CMD "call run id 0 phases 65536\n", "call 'run' has 65536 phases" },
	{ HDR PAGES CMD "call run id 0 phases 1\ncall run id 1 phases 1\n",
	  "line 7: call 'run' defined twice" },
	{ HDR PAGES CMD "call run id 0 phases 1\ncall read id 0 phases 1\n",
	  "line 7: call 'read' has id 0, already the id of 'run'" },
	{ HDR PAGES CMD "call run id 0\n",
	  "line 6: 'call' takes the form 'call NAME id ID phases N'" },
	{ HDR PAGES CMD CALLS, "end of file after line 7: missing 'call' lines and 'end'" },
	{ HDR PAGES CMD CALLS "input write page 0 offset 0x40 size 64\nend\n",
	  "line 8: 'input' slice of undefined call 'write'" },
	{ HDR PAGES CMD CALLS "output read page 2 offset 0x40 size 64\nend\n",
	  "line 8: output slice of 'read' on page 2, which does not exist (2 pages)" },
	{ HDR PAGES CMD CALLS "output read page 0 offset 0xfc0 size 68\nend\n",
	  "line 8: output slice of 'read' at 0xfc0+68 exceeds page 0 (4096 bytes)" },
	{ HDR PAGES CMD CALLS "output read page 0 offset 0x41 size 64\nend\n",
	  "line 8: output slice of 'read' at 0x41+64 is not whole 4-aligned words" },
	{ HDR PAGES CMD CALLS "output read page 0 offset 0x40 size 6\nend\n",
	  "at 0x40+6 is not whole 4-aligned words" },
	{ HDR PAGES CMD CALLS "output read page 0 offset 0x40 size 0\nend\n",
	  "at 0x40+0 is not whole 4-aligned words (and not empty)" },
	{ HDR PAGES CMD CALLS "input read page 1 offset 0 size 8\nend\n",
	  "line 8: input slice of 'read' at 0x0+8 overlaps the command word at page 1 + 0x0" },
	{ HDR PAGES CMD CALLS "output read page 0 offset 0 size 64\n"
	  "output read page 0 offset 60 size 8\nend\n",
	  "line 9: output slice of 'read' at 0x3c+8 overlaps its slice 0 at 0x0+64" },
	{ HDR PAGES CMD CALLS "output read page 0 offset 0 size 64\nend\nend\n",
	  "line 10: 'end' after 'end'" },
	{ HDR PAGES CMD CALLS "end\ncall x id 5 phases 1\n", "line 9: 'call' after 'end'" },
	{ HDR PAGES CMD CALLS "output read page 0 offset 0 size 64\ncall x id 5 phases 1\nend\n",
	  "line 9: expected 'input', 'output' or 'end', got 'call'" },
	{ HDR PAGES CMD CALLS "end", "line 8: no newline at the end of the file (truncated?)" },
	{ HDR PAGES CMD CALLS "frob\n", "line 8: expected 'call', 'input', 'output' or 'end', got "
	  "'frob'" },
	{ HDR "page 0 size 4096 # size\n", "line 2: '#' after text (comments take whole lines)" },
	{ HDR "page 0 size 4096\r\n", "line 2, column 17: byte 0x0d is not allowed" },
	{ HDR "page 0 size 4096\xc2\xa0\n", "line 2, column 17: byte 0xc2 is not allowed" },
	{ "ipuhsp 1\0\n", "line 1, column 9: byte 0x00 is not allowed" },
	{ HDR "page 0 size 010\n", "line 2: bad page size '010' (a 32-bit number" },
	{ HDR "page 0 size 0x\n", "bad page size '0x'" },
	{ HDR "page 0 size 0x123456789\n", "bad page size '0x123456789'" },
	{ HDR "page 0 size 4294967296\n", "bad page size '4294967296'" },
	{ HDR "page 0 size -4096\n", "bad page size '-4096'" },
	{ HDR "page 0 size 4k\n", "bad page size '4k'" },
	{ HDR "page x size 4096\n", "line 2: bad page index 'x'" },
	{ HDR "a b c d e f g h i j k\n", "line 2: more than 10 words" },
};

TEST(every_rejection_names_its_line)
{
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct ipuxcom_hsp_manifest m;
		struct ipuxcom_errmsg em;
		size_t len = strlen(bads[i].text);

		/* The NUL-byte case carries its length past the NUL. */
		if (!strcmp(bads[i].text, "ipuhsp 1"))
			len = 10;
		EXPECT_EQ(-EBADMSG, ipuxcom_hsp_parse(bads[i].text, len, &m, &em))
			TH_LOG("case %zu", i);
		EXPECT_NE(NULL, strstr(em.msg, bads[i].msg))
			TH_LOG("case %zu: message '%s' lacks '%s'", i, em.msg, bads[i].msg);
	}
}

TEST(limits)
{
	char *text = malloc(1 << 16);
	struct ipuxcom_hsp_manifest m;
	struct ipuxcom_errmsg em;
	size_t n = 0;

	/* 17 pages */
	n += (size_t)sprintf(text + n, HDR);
	for (int i = 0; i < 17; i++)
		n += (size_t)sprintf(text + n, "page %d size 4096\n", i);
	EXPECT_EQ(-EBADMSG, ipuxcom_hsp_parse(text, n, &m, &em));
	EXPECT_MSG(em, "line 18: more than 16 pages");
	/* 33 calls */
	n = (size_t)sprintf(text, HDR PAGES CMD);
	for (int i = 0; i < 33; i++)
		n += (size_t)sprintf(text + n, "call c%d id %d phases 1\n", i, i);
	EXPECT_EQ(-EBADMSG, ipuxcom_hsp_parse(text, n, &m, &em));
	EXPECT_MSG(em, "line 38: more than 32 calls");
	/* 65 slices */
	n = (size_t)sprintf(text, HDR PAGES CMD CALLS);
	for (int i = 0; i < 65; i++)
		n += (size_t)sprintf(text + n, "output read page 0 offset %d size 4\n", i * 4);
	EXPECT_EQ(-EBADMSG, ipuxcom_hsp_parse(text, n, &m, &em));
	EXPECT_MSG(em, "line 72: more than 64 slices");
	/* a 257-byte line */
	n = (size_t)sprintf(text, HDR "#");
	memset(text + n, 'x', 256);
	n += 256;
	text[n++] = '\n';
	EXPECT_EQ(-EBADMSG, ipuxcom_hsp_parse(text, n, &m, &em));
	EXPECT_MSG(em, "line 2: longer than 256 bytes");
	free(text);
}

TEST(validate_hand_built)
{
	struct ipuxcom_hsp_manifest m, bad;
	struct ipuxcom_errmsg em;
	char *text;
	size_t len;

	ASSERT_EQ(0, ipuxcom_hsp_parse(oracle, strlen(oracle), &m, &em));
	EXPECT_EQ(0, ipuxcom_hsp_validate(&m, &em));
	bad = m;
	bad.attach_order[1] = 1;
	EXPECT_EQ(-EBADMSG, ipuxcom_hsp_validate(&bad, &em));
	EXPECT_MSG(em, "attach order: entry 1 is page 1; the order must name each of the 2 pages "
		   "once");
	EXPECT_EQ(-EINVAL, ipuxcom_hsp_format(&bad, &text, &len, &em));
	bad = m;
	bad.npages = 0;
	EXPECT_EQ(-EBADMSG, ipuxcom_hsp_validate(&bad, &em));
	EXPECT_MSG(em, "0 pages (1..16)");
	bad = m;
	bad.ncalls = 33;
	EXPECT_EQ(-EBADMSG, ipuxcom_hsp_validate(&bad, &em));
	bad = m;
	bad.nslices = 65;
	EXPECT_EQ(-EBADMSG, ipuxcom_hsp_validate(&bad, &em));
	bad = m;
	bad.slices[0].call = 3;
	EXPECT_EQ(-EBADMSG, ipuxcom_hsp_validate(&bad, &em));
	EXPECT_MSG(em, "slice 0: slice of undefined call 3");
	bad = m;
	bad.slices[1].dir = 2;
	EXPECT_EQ(-EBADMSG, ipuxcom_hsp_validate(&bad, &em));
	EXPECT_MSG(em, "slice 1: bad direction 2");
	bad = m;
	memset(bad.calls[1].name, 'a', sizeof(bad.calls[1].name));	/* unterminated */
	EXPECT_EQ(-EBADMSG, ipuxcom_hsp_validate(&bad, &em));
	EXPECT_MSG(em, "call 1: bad call name");
	bad = m;
	bad.page_size[1] = 100;
	EXPECT_EQ(-EBADMSG, ipuxcom_hsp_validate(&bad, &em));
	EXPECT_MSG(em, "page 1: page size 100");
	EXPECT_EQ(-EINVAL, ipuxcom_hsp_validate(NULL, &em));
	EXPECT_EQ(-EINVAL, ipuxcom_hsp_parse(NULL, 5, &m, &em));
}

TEST(file_and_command)
{
	char dir[PATH_MAX], path[PATH_MAX + 32], bad[PATH_MAX + 32], tool[PATH_MAX];
	struct ipuxcom_hsp_manifest m;
	struct ipuxcom_errmsg em;

	ASSERT_TRUE(ixt_tmpdir(dir, sizeof(dir)));
	snprintf(path, sizeof(path), "%s/sdk_host_tensor.ipuhsp", dir);
	snprintf(bad, sizeof(bad), "%s/bad.ipuhsp", dir);
	ASSERT_EQ(0, ixt_write_file(path, oracle, strlen(oracle)));
	ASSERT_EQ(0, ixt_write_file(bad, oracle, strlen(oracle) - 4));	/* "end\n" lost */
	ASSERT_EQ(0, ipuxcom_hsp_load(path, &m, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(-EBADMSG, ipuxcom_hsp_load(bad, &m, &em));
	EXPECT_MSG(em, "bad.ipuhsp: end of file after line 11: missing the final 'end' line");
	EXPECT_EQ(-ENOENT, ipuxcom_hsp_load("/nonexistent.ipuhsp", &m, &em));
	if (ixt_find_tool(tool, sizeof(tool))) {
		TOOL_EXPECT(0, out, "ok: 2 pages, 3 calls (run 2 phases, read 4 phases, write 4 "
			    "phases), 2 slices", "hsp", "check", path);
		TOOL_EXPECT(0, out, canonical, "hsp", "show", path);
		TOOL_EXPECT(0, out, "\"attach_order\":[1,0],\"command\":{\"page\":1,\"offset\":0}",
			    "hsp", "show", path, "--json");
		TOOL_EXPECT(0, out, "{\"name\":\"write\",\"id\":2,\"phases\":4,\"slices\":"
			    "[{\"dir\":\"input\",\"page\":0,\"offset\":64,\"size\":64}]}",
			    "hsp", "-j", path);
		TOOL_EXPECT(0, out, canonical, "hsp", "format", path);
		TOOL_EXPECT(1, err, "missing the final 'end' line", "hsp", "check", bad);
		TOOL_EXPECT(0, out, "Usage: ipuxcom hsp check", "hsp", "check", "--help");
	} else {
		TH_LOG("ipuxcom command not built: command not tested");
	}
	ixt_rmtree(dir);
}

TEST_HARNESS_MAIN
