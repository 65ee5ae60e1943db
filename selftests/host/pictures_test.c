// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command's pictures (docs/pictures.md), checked by strict parsers
 * (selftests/lib/ixt_pictures.h):
 *  - the Chrome trace of an exchange phase (tools/trace_json.c): a
 *    stagger with a known hazard (two transfers of one sender one event
 *    apart: a send conflict on the sender) gives one process per tile
 *    involved, the run's sends, mux windows, PIC settings and receives,
 *    and every error hazard in red; `plan schedule --trace` writes the
 *    packed phase and the stagger's;
 *  - the SVG tile grid (tools/heatmap.c): 1472 tile squares with tooltips,
 *    colours by patch bytes (synthetic and from `image inspect --heatmap`)
 *    and by TDI state (synthetic; the device side is devpictures_test).
 */
#include "kselftest_harness.h"

#include <ipuxcom.h>

#include "ixt_pictures.h"

#include "../../tools/heatmap.c"
#include "../../tools/json.c"
#include "../../tools/trace_json.c"

/* Physical ids: tile 0 sends 8 words to 8, 9 and 8 words to 10, 11. */
static const char hazard_list[] =
	"physical\n"
	"multicast 0 8 8 9 dst=0x50100\n"
	"multicast 0 8 10 11 dst=0x50100\n";

#define RAMP_TOP	"#781414"	/* the last colour of heatmap.c's ramp */
#define ZERO_FILL	"#d9e2ec"

/* The line of @out starting with @key ("sends "), without it; "" if none. */
static const char *line_of(const char *out, const char *key, char *buf, size_t len)
{
	const char *p = out;

	buf[0] = '\0';
	while (p && *p) {
		if (!strncmp(p, key, strlen(key))) {
			size_t n = strcspn(p + strlen(key), "\n");

			snprintf(buf, len, "%.*s", (int)n, p + strlen(key));
			break;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return buf;
}

static long num_of(const char *out, const char *key)
{
	char buf[64];

	return *line_of(out, key, buf, sizeof(buf)) ? strtol(buf, NULL, 10) : -1;
}

FIXTURE(pic) {
	char dir[PATH_MAX];
	char file[PATH_MAX + 32];
	char tool[PATH_MAX];
	bool have_tool;
	struct ixt_run r;
};

FIXTURE_SETUP(pic)
{
	if (!ixt_have_python3())
		SKIP(return, "python3 not found (deps/packages.txt)");
	ASSERT_TRUE(ixt_tmpdir(self->dir, sizeof(self->dir)));
	self->have_tool = ixt_find_tool(self->tool, sizeof(self->tool));
}

FIXTURE_TEARDOWN(pic)
{
	if (self->dir[0])
		ixt_rmtree(self->dir);
}

/* The stagger of hazard_list (one event apart), run with its writes logged. */
static struct ipuxcom_xsim *hazard_stagger(struct ipuxcom_xsim_result *res)
{
	struct ipuxcom_xsim_config cfg = { .size = sizeof(struct ipuxcom_xsim_config),
		.flags = IPUXCOM_XSIM_LOG_WRITES };
	struct ipuxcom_schedule_opts so = { .size = sizeof(struct ipuxcom_schedule_opts),
		.flags = IPUXCOM_SCHEDULE_PHYSICAL };
	struct ipuxcom_schedule_list *l = NULL;
	struct ipuxcom_xsim *sim = NULL;

	if (ipuxcom_schedule_list_parse(hazard_list, strlen(hazard_list), 0, &l, NULL) ||
	    ipuxcom_xsim_create(&cfg, &sim, NULL) ||
	    ipuxcom_schedule_stagger(&so, l->xfers, l->n, 1, sim, 0, NULL) ||
	    ipuxcom_xsim_run(sim, res, NULL)) {
		ipuxcom_xsim_free(sim);
		sim = NULL;
	}
	ipuxcom_schedule_list_free(l);
	return sim;
}

TEST_F(pic, trace_has_a_track_per_tile_and_red_hazards)
{
	struct trace_writer *t = malloc(sizeof(*t));
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_xsim *sim = hazard_stagger(&res);
	const struct ipuxcom_xsim_hazard *h;
	const struct ipuxcom_xsim_write *w;
	bool involved[IPUXCOM_TILES] = { false };
	long sends = 0, windows = 0, pics = 0;
	char want[8192] = "", got[8192], item[32];
	size_t n, nw;
	FILE *f;

	ASSERT_NE(NULL, t);
	ASSERT_NE(NULL, sim);
	ASSERT_LT(0, res.errors);
	ASSERT_LT(0, ipuxcom_xsim_count(sim, IPUXCOM_XSIM_H_SEND_CONFLICT));
	snprintf(self->file, sizeof(self->file), "%s/t.json", self->dir);
	f = fopen(self->file, "w");
	ASSERT_NE(NULL, f);
	trace_begin(t, f);
	trace_phase(t, sim, &res, "stagger");
	trace_end(t);
	ASSERT_EQ(0, fclose(f));
	free(t);

	/* What the library says happened. */
	for (size_t i = 0; i < ipuxcom_xsim_nactions(sim); i++) {
		struct ipuxcom_xsim_action a = IPUXCOM_XSIM_ACTION_INIT;

		ASSERT_EQ(0, ipuxcom_xsim_action(sim, i, &a));
		involved[a.tile] = true;
		sends += a.kind == IPUXCOM_XSIM_A_SEND;
		windows += a.kind == IPUXCOM_XSIM_A_MUX && a.value != IPUXCOM_XSIM_MUX_OFF;
		pics += a.kind == IPUXCOM_XSIM_A_PIC;
	}
	w = ipuxcom_xsim_writes(sim, &nw);
	ASSERT_LT(0, nw);
	for (size_t i = 0; i < nw; i++)
		involved[w[i].tile] = true;
	h = ipuxcom_xsim_hazards(sim, &n);
	for (size_t i = 0; i < n; i++)
		involved[h[i].tile] = true;
	for (uint32_t i = 0; i < IPUXCOM_TILES; i++) {
		if (!involved[i])
			continue;
		snprintf(item, sizeof(item), "%s%u", want[0] ? "," : "", i);
		strcat(want, item);
	}

	ASSERT_EQ(0, ixt_check_picture(&self->r, ixt_trace_check_py, self->file, NULL));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	/* one track (process) per tile involved: the sender and its four receivers */
	EXPECT_STREQ("0,8,9,10,11", line_of(self->r.out, "tiles ", got, sizeof(got)));
	EXPECT_STREQ(want, got);
	EXPECT_EQ(1, num_of(self->r.out, "phases "));
	EXPECT_EQ(2, sends);
	EXPECT_EQ(sends, num_of(self->r.out, "sends "));
	EXPECT_EQ(windows, num_of(self->r.out, "muxes "));
	EXPECT_EQ(pics, num_of(self->r.out, "pics "));
	EXPECT_LT(0, num_of(self->r.out, "receives "));
	EXPECT_GE((long)nw, num_of(self->r.out, "receives "));
	/* every error in red, notes yellow; the known one on the sender */
	EXPECT_EQ(res.errors, num_of(self->r.out, "red "));
	EXPECT_EQ(res.notes, num_of(self->r.out, "yellow "));
	EXPECT_NE(NULL, strstr(self->r.out, "hazard send-conflict 0 terrible\n"))
		TH_LOG("%s", self->r.out);
	ipuxcom_xsim_free(sim);
}

TEST_F(pic, plan_schedule_trace_writes_both_phases)
{
	char *tool = self->tool, list[PATH_MAX + 32], bad[PATH_MAX + 48];

	if (!self->have_tool)
		SKIP(return, "ipuxcom command not built");
	snprintf(list, sizeof(list), "%s/list", self->dir);
	snprintf(self->file, sizeof(self->file), "%s/t.json", self->dir);
	ASSERT_EQ(0, ixt_write_file(list, hazard_list, strlen(hazard_list)));
	/* the packed phase is clean (exit 0); the one-event stagger is not */
	TOOL_EXPECT(0, out, "(not clean)", "plan", "schedule", list, "--stagger", "1", "--trace",
		    self->file);
	ASSERT_EQ(0, ixt_check_picture(&self->r, ixt_trace_check_py, self->file, NULL));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_EQ(2, num_of(self->r.out, "phases "));
	/* the stagger's 2 sends and the packed phase's 3: one multicast goes as two owner groups */
	EXPECT_EQ(5, num_of(self->r.out, "sends "));
	EXPECT_LT(0, num_of(self->r.out, "red "));
	EXPECT_NE(NULL, strstr(self->r.out, "hazard send-conflict 0 terrible\n"));
	/* without the comparison: the packed phase alone, nothing red */
	TOOL_EXPECT(0, out, "0 errors", "plan", "schedule", list, "--stagger", "0", "--trace",
		    self->file);
	ASSERT_EQ(0, ixt_check_picture(&self->r, ixt_trace_check_py, self->file, NULL));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_EQ(1, num_of(self->r.out, "phases "));
	EXPECT_EQ(3, num_of(self->r.out, "sends "));
	EXPECT_EQ(0, num_of(self->r.out, "red "));
	/* a file that cannot be written: named, exit 1 */
	snprintf(bad, sizeof(bad), "%s/no/such/dir.json", self->dir);
	TOOL_EXPECT(1, err, "no/such/dir.json: cannot create it: directory", "plan", "schedule",
		    list, "--trace", bad);
	TOOL_EXPECT(2, err, "--trace", "plan", "schedule", list, "--trace");
}

/* The whole of small file @path into @buf (NUL-terminated); its length or -1. */
static long slurp_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return (long)n;
}

/*
 * Issue 23: a 64-bit receive wrote two words per event, and the trace cut
 * its run into overlapping one- and two-word slices on the receive thread
 * (48 overlaps for one p2p of 100 words, ~1900 on 200 transfers), and said
 * "displayTimeUnit":"ns" (event 32 shown as 32,000 ns). Now a run of
 * receives is one slice, 64-bit items inside it, and the checker (nesting
 * per thread, the unit rule) passes.
 */
TEST_F(pic, wide_receives_are_one_slice_and_nest)
{
	char *tool = self->tool, list[PATH_MAX + 32], *buf = malloc(1 << 20), *text = malloc(1 << 16);
	uint32_t seed = 23;
	size_t off = 0;

	if (!self->have_tool)
		SKIP(return, "ipuxcom command not built");
	ASSERT_NE(NULL, buf);
	ASSERT_NE(NULL, text);
	snprintf(list, sizeof(list), "%s/list", self->dir);
	snprintf(self->file, sizeof(self->file), "%s/w.json", self->dir);
	ASSERT_EQ(0, ixt_write_file(list, "p2p 0 4 100\n", 12));
	TOOL_EXPECT(0, out, "0 errors", "plan", "schedule", list, "--trace", self->file);
	ASSERT_EQ(0, ixt_check_picture(&self->r, ixt_trace_check_py, self->file, NULL));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	/* the packed phase's 64-bit run and the stagger's 32-bit one: one slice each */
	EXPECT_EQ(2, num_of(self->r.out, "receives "));
	EXPECT_EQ(2, num_of(self->r.out, "phases "));
	ASSERT_LT(0, slurp_file(self->file, buf, 1 << 20));
	EXPECT_NE(NULL, strstr(buf, "\"displayTimeUnit\":\"ms\""));
	EXPECT_NE(NULL, strstr(buf, "\"name\":\"receive 100 words from tile 0\",\"cat\":"
				 "\"exchange\",\"ph\":\"X\",\"pid\":129,\"tid\":2074,\"ts\":56,"
				 "\"dur\":50,\"args\":{\"words\":100,\"events\":50,\"items64\":50,"))
		TH_LOG("%.3000s", buf);
	EXPECT_NE(NULL, strstr(buf, "\"name\":\"send 100 words (64-bit)\""));
	EXPECT_EQ(NULL, strstr(buf, "receive 1 word "));
	EXPECT_EQ(NULL, strstr(buf, "receive 2 words "));

	/* 200 transfers, p2p and multicast of any length between random logical tiles */
	for (int i = 0; i < 200; i++) {
		uint32_t s, d[3], n;

		seed = seed * 1103515245u + 12345u;
		s = (seed >> 8) % IPUXCOM_TILES;
		for (int k = 0; k < 3; k++) {
			seed = seed * 1103515245u + 12345u;
			d[k] = (s + 1 + (seed >> 8) % (IPUXCOM_TILES - 1)) % IPUXCOM_TILES;
		}
		n = 1 + (seed >> 4) % 299;
		if (i % 2 || d[0] == d[1] || d[1] == d[2] || d[0] == d[2])
			off += snprintf(text + off, (1 << 16) - off, "p2p %u %u %u\n", s, d[0], n);
		else
			off += snprintf(text + off, (1 << 16) - off, "multicast %u %u %u %u %u\n",
					s, n % 200 + 1, d[0], d[1], d[2]);
	}
	ASSERT_EQ(0, ixt_write_file(list, text, off));
	ASSERT_EQ(0, IXT_TOOL(&self->r, "plan", "schedule", list, "--trace", self->file));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	ASSERT_EQ(0, ixt_check_picture(&self->r, ixt_trace_check_py, self->file, NULL));
	EXPECT_EQ(0, self->r.status) TH_LOG("%.2000s", self->r.err);
	EXPECT_LE(1, num_of(self->r.out, "phases "));	/* the stagger may not fit the phase bound */
	EXPECT_LT(200, num_of(self->r.out, "receives "));
	free(text);
	free(buf);
}

TEST_F(pic, demo_trace_has_every_phase)
{
	char *tool = self->tool, tiles[8192], wrapped[8200];
	long commas = 0;
	uint32_t lg;

	if (!self->have_tool)
		SKIP(return, "ipuxcom command not built");
	snprintf(self->file, sizeof(self->file), "%s/d.json", self->dir);
	/* sum: 11 rounds, 1471 one-word transfers in all, every tile sends or receives */
	TOOL_EXPECT(0, out, "PASS", "demo", "sum", "--trace", self->file);
	ASSERT_EQ(0, ixt_check_picture(&self->r, ixt_trace_check_py, self->file, NULL));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_EQ(11, num_of(self->r.out, "phases "));
	EXPECT_EQ(IPUXCOM_TILES - 1, num_of(self->r.out, "sends "));	/* 736 + 368 + ... + 1 */
	EXPECT_EQ(1471, num_of(self->r.out, "receives "));
	EXPECT_EQ(1471, num_of(self->r.out, "muxes "));
	EXPECT_EQ(0, num_of(self->r.out, "red "));
	line_of(self->r.out, "tiles ", tiles, sizeof(tiles));
	EXPECT_EQ(0, strncmp(tiles, "0,1,2,3,", 8));
	EXPECT_NE(NULL, strstr(tiles, ",1471")) TH_LOG("%.200s", tiles);
	/* matmul: the stagger and the packed schedule, on the 24 active logical tiles */
	TOOL_EXPECT(0, out, "PASS", "demo", "matmul", "--trace", self->file);
	ASSERT_EQ(0, ixt_check_picture(&self->r, ixt_trace_check_py, self->file, NULL));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_EQ(2, num_of(self->r.out, "phases "));
	EXPECT_EQ(0, num_of(self->r.out, "red "));
	/* 4 words to each of 4 receivers per stream, 8 streams, twice */
	EXPECT_LT(0, num_of(self->r.out, "receives "));
	line_of(self->r.out, "tiles ", tiles, sizeof(tiles));
	for (const char *p = tiles; (p = strchr(p, ',')); p++)
		commas++;
	EXPECT_EQ(23, commas) TH_LOG("%s", tiles);
	snprintf(wrapped, sizeof(wrapped), ",%s,", tiles);
	for (uint32_t l = 0; l < 24; l++) {
		char item[16];

		ASSERT_EQ(0, ipuxcom_tile_physical(l, &lg));
		snprintf(item, sizeof(item), ",%u,", lg);
		EXPECT_NE(NULL, strstr(wrapped, item)) TH_LOG("no tile %u in %s", lg, tiles);
	}
	TOOL_EXPECT(1, err, "No such file or directory", "demo", "sum", "--trace",
		    "/nonexistent/dir/t.json");
}

TEST_F(pic, tdi_heatmap_leaves_no_file_after_a_failure)
{
	char *tool = self->tool;
	struct stat st;

	if (!self->have_tool)
		SKIP(return, "ipuxcom command not built");
	snprintf(self->file, sizeof(self->file), "%s/x.svg", self->dir);
	/* no such device (whether or not the module is loaded here): failure or usage error */
	ASSERT_EQ(0, IXT_TOOL(&self->r, "tdi", "dump", "--all", "--dev", "4000000000",
			      "--heatmap", self->file));
	EXPECT_TRUE(self->r.status == 1 || self->r.status == 2) TH_LOG("%d", self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "tdi dump: ")) TH_LOG("%s", self->r.err);
	EXPECT_NE(0, stat(self->file, &st));
	TOOL_EXPECT(2, err, "--heatmap needs --all", "tdi", "dump", "5", "--heatmap",
		    self->file);
	TOOL_EXPECT(2, err, "--all takes no TILE", "tdi", "dump", "--all", "5");
}

/* Write @h (then freed) as self->file; 0 or -1. */
static int svg_file(FIXTURE_DATA(pic) *self, struct heatmap *h)
{
	FILE *f;

	snprintf(self->file, sizeof(self->file), "%s/h.svg", self->dir);
	f = fopen(self->file, "w");
	if (f)
		heatmap_write(f, h);
	free(h);
	return f && !fclose(f) ? 0 : -1;
}

/* Run the SVG checker on self->file for tiles @ids; the answer in self->r. */
static int svg_check(struct __test_metadata *_metadata, FIXTURE_DATA(pic) *self,
		     const char *const *ids)
{
	return ixt_check_picture(&self->r, ixt_svg_check_py, self->file, ids);
}

TEST_F(pic, heatmap_colours_patch_bytes)
{
	static uint32_t bytes[IPUXCOM_TILES];
	struct heatmap *h = malloc(sizeof(*h));
	const char *ids[] = { "5", "7", "100", "1399", "1400", "1471", NULL };
	char mid[8], want[128];

	ASSERT_NE(NULL, h);
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++)
		bytes[t] = 100 + t % 7;
	bytes[5] = 4000;	/* the largest */
	bytes[7] = 0;		/* equal to the template */
	bytes[100] = 2000;
	heatmap_patch_bytes(h, "a<b>&\"c\".ipuimg", bytes, 1400);
	ASSERT_EQ(0, svg_file(self, h));

	ASSERT_EQ(0, svg_check(_metadata, self, ids));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "tiles 1472\n")) TH_LOG("%s", self->r.out);
	/* swatches: 0 bytes, and not in the image (1400 of 1472 tiles) */
	EXPECT_NE(NULL, strstr(self->r.out, "legend 2\n")) TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, "t5 " RAMP_TOP " physical 5 (logical "));
	EXPECT_NE(NULL, strstr(self->r.out, "row 0, column 5): 4000 patch bytes\n"));
	EXPECT_NE(NULL, strstr(self->r.out, "t7 " ZERO_FILL " physical 7 "));
	EXPECT_NE(NULL, strstr(self->r.out, "0 patch bytes (equal to the template)\n"));
	heatmap_scale_colour(2000, 4000, mid);
	EXPECT_STRNE(RAMP_TOP, mid);
	EXPECT_STRNE(ZERO_FILL, mid);
	snprintf(want, sizeof(want), "t100 %s physical 100 ", mid);
	EXPECT_NE(NULL, strstr(self->r.out, want)) TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, "t1399 #"));
	EXPECT_NE(NULL, strstr(self->r.out, "row 21, column 55): 106 patch bytes\n"));
	EXPECT_NE(NULL, strstr(self->r.out, "t1400 #ffffff physical 1400 "));
	EXPECT_NE(NULL, strstr(self->r.out, "row 22, column 63): not in the image\n"));
}

TEST_F(pic, heatmap_colours_tdi_state)
{
	static uint32_t regs[IPUXCOM_TILES][IPUXCOM_TDI_NREGS];
	static bool ok[IPUXCOM_TILES];
	struct heatmap *h = malloc(sizeof(*h));
	const char *ids[] = { "0", "1", "2", "3", "4", "6", "9", NULL };

	ASSERT_NE(NULL, h);
	memset(regs, 0, sizeof(regs));
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++)
		ok[t] = true;
	regs[0][IPUXCOM_TDI_CTXT_STS] = 1;			/* context 0 running */
	regs[1][IPUXCOM_TDI_CTXT_STS] = 2u << 2;		/* context 1 stopped */
	regs[2][IPUXCOM_TDI_CTXT_STS] = 1;
	regs[2][IPUXCOM_TDI_DBG_ECSR] = 1;			/* a debug exception */
	ok[3] = false;						/* not read */
	regs[4][IPUXCOM_TDI_TDI_STS] = IPUXCOM_TDI_STS_INVALID;	/* invalid instruction */
	regs[6][IPUXCOM_TDI_CTXT_STS] = 2u | 1u << 12;		/* stopped 0, running 6 */
	heatmap_tdi(h, "device 0", (const uint32_t (*)[IPUXCOM_TDI_NREGS])regs, ok);
	EXPECT_NE(NULL, strstr(h->title, "2 running, 1466 idle, 1 stopped, 2 error, 1 unread"))
		TH_LOG("%s", h->title);
	ASSERT_EQ(0, svg_file(self, h));

	ASSERT_EQ(0, svg_check(_metadata, self, ids));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "tiles 1472\nlegend 5\n")) TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, "t0 #2e9d4a physical 0 (logical 0, row 0, column 0): "
				 "running; CTXT_STS 0x00000001"));
	EXPECT_NE(NULL, strstr(self->r.out, "t1 #e0a020 "));
	EXPECT_NE(NULL, strstr(self->r.out, "t2 #d62728 "));
	EXPECT_NE(NULL, strstr(self->r.out, "DBG_ECSR 0x1\n"));
	EXPECT_NE(NULL, strstr(self->r.out, "t3 #5a5a5a "));
	EXPECT_NE(NULL, strstr(self->r.out, "t4 #d62728 "));
	EXPECT_NE(NULL, strstr(self->r.out, "t6 #2e9d4a "));
	EXPECT_NE(NULL, strstr(self->r.out, "t9 #c8c8c8 "));
	EXPECT_EQ(HEATMAP_IDLE, heatmap_tdi_state(regs[9]));
	EXPECT_STREQ("stopped", heatmap_state_name(heatmap_tdi_state(regs[1])));
}

#define TILE_SIZE	2048u

TEST_F(pic, image_inspect_heatmap)
{
	char *tool = self->tool, raw[PATH_MAX + 16], img[PATH_MAX + 16], bad[PATH_MAX + 32];
	char want[128], fill[8];
	const char *ids[] = { "0", "37", "1471", NULL };
	uint8_t *shared = malloc(TILE_SIZE), *t = malloc(TILE_SIZE);
	struct ipuxcom_image *im = NULL;
	uint32_t max = 0, b37 = 0;

	if (!self->have_tool)
		SKIP(return, "ipuxcom command not built");
	ASSERT_NE(NULL, shared);
	ASSERT_NE(NULL, t);
	snprintf(raw, sizeof(raw), "%s/raw", self->dir);
	snprintf(img, sizeof(img), "%s/a.ipuimg", self->dir);
	ASSERT_EQ(0, mkdir(raw, 0755));
	ixt_fill_random(shared, TILE_SIZE, 77);
	/* tile i differs from the others in (i % 23) * 8 more bytes: patch sizes vary */
	for (uint32_t i = 0; i < IPUXCOM_IMG_TILES; i++) {
		char path[PATH_MAX + 48];

		ixt_synth_tile(t, TILE_SIZE, shared, i);
		for (uint32_t k = 0; k < (i % 23) * 8; k++)
			t[1024 + k] ^= (uint8_t)(i | 1);
		snprintf(path, sizeof(path), "%s/%u.bin", raw, i);
		ASSERT_EQ(0, ixt_write_file(path, t, TILE_SIZE));
	}
	free(t);
	free(shared);
	TOOL_EXPECT(0, out, "packed into", "image", "pack", "--raw", raw, "-o", img);
	snprintf(self->file, sizeof(self->file), "%s/p.svg", self->dir);
	TOOL_EXPECT(0, out, "tiles           1472", "image", "inspect", img, "--heatmap",
		    self->file);

	/* the colours the library's patch sizes call for */
	ASSERT_EQ(0, ipuxcom_image_open(img, &im, NULL));
	for (uint32_t i = 0; i < IPUXCOM_IMG_TILES; i++) {
		struct ipuxcom_image_tile ti = IPUXCOM_IMAGE_TILE_INIT;

		ASSERT_EQ(0, ipuxcom_image_get_tile(im, i, &ti));
		if (ti.patch_data > max)
			max = ti.patch_data;
		if (i == 37)
			b37 = ti.patch_data;
	}
	ipuxcom_image_free(im);
	ASSERT_LT(0, b37);
	ASSERT_EQ(0, svg_check(_metadata, self, ids));
	ASSERT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "tiles 1472\nlegend 1\n")) TH_LOG("%s", self->r.out);
	heatmap_scale_colour(b37, max, fill);
	snprintf(want, sizeof(want), "t37 %s physical 37 (logical ", fill);
	EXPECT_NE(NULL, strstr(self->r.out, want)) TH_LOG("%s", self->r.out);
	snprintf(want, sizeof(want), "row 0, column 37): %u patch bytes\n", b37);
	EXPECT_NE(NULL, strstr(self->r.out, want)) TH_LOG("%s", self->r.out);
	/* tile 1471 (1471 % 23 == 22) differs most */
	EXPECT_NE(NULL, strstr(self->r.out, "t1471 " RAMP_TOP " ")) TH_LOG("%s", self->r.out);

	/* '-': the picture on stdout */
	TOOL_EXPECT(0, out, "<svg xmlns=\"http://www.w3.org/2000/svg\"", "image", "inspect", img,
		    "--heatmap", "-");
	snprintf(bad, sizeof(bad), "%s/no/dir/p.svg", self->dir);
	TOOL_EXPECT(1, err, "no/dir/p.svg: cannot create it: directory", "image", "inspect", img,
		    "--heatmap", bad);
}

TEST_HARNESS_MAIN
