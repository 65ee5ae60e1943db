// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one output rule (issue 23, ipuxcom(8) OUTPUT FILES): a command's
 * main output goes where -o, --trace, --heatmap or --export says; when
 * that is standard output ('-', /dev/stdout), its report (text, -j
 * object, error object) goes to stderr and never into the JSON, SVG,
 * image or table. Every command with an output option that runs without
 * a device is run here with '-' as that output, and what comes out on
 * stdout is read back by a real parser: Python's strict JSON with the
 * trace-event checker (selftests/lib/ixt_pictures.h), xmllint (or
 * Python's xml.etree) for SVG, the command's own readers for images,
 * frames, manifests and timing tables. `image extract IMG all -o -` is a
 * usage error and makes no directory '-'. And `-t -` (--timing) reads
 * standard input, as every FILE argument's '-' does.
 *
 * Not here (they need a device or tracefs): tdi dump --all --heatmap -
 * (only its failure without a device), cfg capture -o -, load out=-.
 */
#include "kselftest_harness.h"

#include <ipuxcom.h>

#include "ixt_hsp_oracle.h"
#include "ixt_pictures.h"

#define TILE_SIZE	2048u
#define SYNC3		0x41800003u

/* Strict JSON: argv[1] parses as one document (no NaN, no duplicate keys). */
static const char json_check_py[] =
	"import json, sys\n"
	"def pairs(p):\n"
	"    keys = [k for k, _ in p]\n"
	"    if len(keys) != len(set(keys)): raise ValueError('duplicate key')\n"
	"    return dict(p)\n"
	"def const(c): raise ValueError('not JSON: ' + c)\n"
	"d = json.load(open(sys.argv[1]), object_pairs_hook=pairs, parse_constant=const)\n"
	"print(type(d).__name__)\n";

FIXTURE(out) {
	char dir[PATH_MAX];
	char tool[PATH_MAX];
	char img[PATH_MAX + 16];
	char list[PATH_MAX + 16];
	char hsp[PATH_MAX + 16];
	char sout[PATH_MAX + 16];	/* the command's stdout, whole */
	char serr[PATH_MAX + 16];	/* its stderr */
	char file[PATH_MAX + 16];	/* the same output written to a file */
	char cwd[PATH_MAX + 16];	/* where commands run */
	bool xmllint;
	int status;
	char *err;			/* stderr's text (the first 64 KiB) */
	struct ixt_run r;
};

/*
 * Run the tool with @argv (NULL-terminated, after the tool) in self->cwd,
 * stdin from @in (NULL: /dev/null), stdout into self->sout and stderr
 * into self->serr (whole files: a trace is larger than ixt_run's buffer).
 */
static int run_in(FIXTURE_DATA(out) *self, const char *in, const char *const *argv)
{
	char *full[32] = { self->tool };
	int n = 1, status;
	pid_t pid;

	while (*argv && n < 31)
		full[n++] = (char *)*argv++;
	full[n] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int i = open(in ? in : "/dev/null", O_RDONLY);
		int o = open(self->sout, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(self->serr, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (i < 0 || o < 0 || e < 0 || chdir(self->cwd))
			_exit(126);
		dup2(i, 0);
		dup2(o, 1);
		dup2(e, 2);
		execv(full[0], full);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	self->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	{
		FILE *f = fopen(self->serr, "r");
		size_t k = f ? fread(self->err, 1, 65535, f) : 0;

		self->err[k] = '\0';
		if (f)
			fclose(f);
	}
	return 0;
}

#define RUN_IN(_in, ...) ({							\
	const char *const _argv[] = { __VA_ARGS__, NULL };			\
	run_in(self, (_in), _argv);						\
})

/* Run; expect exit @st, @needle in stderr. */
#define RUN(_st, _needle, ...) do {						\
	ASSERT_EQ(0, RUN_IN(NULL, __VA_ARGS__));				\
	EXPECT_EQ(_st, self->status) TH_LOG("stderr: %s", self->err);		\
	EXPECT_NE(NULL, strstr(self->err, _needle))				\
		TH_LOG("no '%s' in stderr: %s", _needle, self->err);		\
} while (0)

/* Size of file @path, or -1. */
static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

/* Files @a and @b hold the same bytes (and are not empty). */
static bool same_bytes(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	bool same = fa && fb && file_size(a) > 0 && file_size(a) == file_size(b);
	int ca, cb;

	while (same) {
		ca = getc(fa);
		cb = getc(fb);
		if (ca != cb)
			same = false;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* Run @script (a Python checker) on @path; 0 when it passed, its output in self->r. */
static int py_check(FIXTURE_DATA(out) *self, const char *script, const char *path)
{
	if (ixt_check_picture(&self->r, script, path, NULL))
		return -1;
	return self->r.status;
}

/* @path is well-formed XML with an <svg> root: xmllint when installed, and Python's parser. */
static int svg_ok(FIXTURE_DATA(out) *self, const char *path)
{
	if (self->xmllint) {
		char *argv[] = { "xmllint", "--noout", (char *)path, NULL };

		if (ixt_run(argv, &self->r) || self->r.status)
			return -1;
	}
	return py_check(self, ixt_svg_check_py, path);
}

/* The report went to stderr as a -j object: stderr parses as JSON. */
static int stderr_json(FIXTURE_DATA(out) *self)
{
	return py_check(self, json_check_py, self->serr);
}

FIXTURE_SETUP(out)
{
	uint8_t *shared = malloc(TILE_SIZE), *t = malloc(TILE_SIZE);
	char raw[PATH_MAX + 16];
	char *argv[] = { "xmllint", "--version", NULL };

	self->err = calloc(1, 65536);
	ASSERT_NE(NULL, self->err);
	if (!ixt_have_python3())
		SKIP(return, IXT_PYTHON " not found (deps/packages.txt)");
	if (!ixt_find_tool(self->tool, sizeof(self->tool)))
		SKIP(return, "ipuxcom command not built");
	self->xmllint = ixt_run(argv, &self->r) == 0 && self->r.status == 0;
	ASSERT_TRUE(ixt_tmpdir(self->dir, sizeof(self->dir)));
	snprintf(self->sout, sizeof(self->sout), "%s/stdout", self->dir);
	snprintf(self->serr, sizeof(self->serr), "%s/stderr", self->dir);
	snprintf(self->file, sizeof(self->file), "%s/file", self->dir);
	snprintf(self->cwd, sizeof(self->cwd), "%s/cwd", self->dir);
	snprintf(self->img, sizeof(self->img), "%s/a.ipuimg", self->dir);
	snprintf(self->list, sizeof(self->list), "%s/list", self->dir);
	snprintf(self->hsp, sizeof(self->hsp), "%s/m.ipuhsp", self->dir);
	snprintf(raw, sizeof(raw), "%s/raw", self->dir);
	ASSERT_EQ(0, mkdir(self->cwd, 0755));
	ASSERT_EQ(0, mkdir(raw, 0755));
	ASSERT_NE(NULL, shared);
	ASSERT_NE(NULL, t);
	/* Tiles that differ, each entry "nop; sync3" (image redirect needs it). */
	ixt_fill_random(shared, TILE_SIZE, 23);
	for (uint32_t i = 0; i < IPUXCOM_IMG_TILES; i++) {
		char path[PATH_MAX + 48];

		ixt_synth_tile(t, TILE_SIZE, shared, i);
		for (int k = 0; k < 4; k++)
			t[4 + k] = (uint8_t)(SYNC3 >> (8 * k));
		snprintf(path, sizeof(path), "%s/%u.bin", raw, i);
		ASSERT_EQ(0, ixt_write_file(path, t, TILE_SIZE));
	}
	free(t);
	free(shared);
	ASSERT_EQ(0, RUN_IN(NULL, "image", "pack", "--raw", raw, "-o", self->img));
	ASSERT_EQ(0, self->status) TH_LOG("%s", self->err);
	ASSERT_EQ(0, ixt_write_file(self->list, "p2p 0 4 100\nmulticast 3 8 10 11\n", 32));
	ASSERT_EQ(0, ixt_write_file(self->hsp, "# m\n" IXT_HSP_ORACLE,
				    strlen("# m\n" IXT_HSP_ORACLE)));
}

FIXTURE_TEARDOWN(out)
{
	if (self->dir[0])
		ixt_rmtree(self->dir);
	free(self->err);
}

/* --trace -: the trace alone on stdout (it passes the trace-event checker), the report on stderr. */
TEST_F(out, plan_schedule_trace_to_stdout)
{
	if (_metadata->skip)
		return;
	RUN(0, "schedule: 2 transfers from ", "plan", "schedule", self->list, "--trace", "-");
	ASSERT_EQ(0, py_check(self, ixt_trace_check_py, self->sout)) TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, "phases 2\n"));
	EXPECT_NE(NULL, strstr(self->err, "\nsimulated: "));
	/* the same with /dev/stdout, and with the list on stdin */
	ASSERT_EQ(0, RUN_IN(self->list, "plan", "schedule", "-", "--trace", "/dev/stdout"));
	EXPECT_EQ(0, self->status) TH_LOG("%s", self->err);
	EXPECT_EQ(0, py_check(self, ixt_trace_check_py, self->sout)) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->err, "schedule: 2 transfers from -"));
	/* -j: the JSON report on stderr, parsed */
	RUN(0, "\"kind\":\"schedule\"", "plan", "schedule", self->list, "--trace", "-", "-j");
	EXPECT_EQ(0, py_check(self, ixt_trace_check_py, self->sout)) TH_LOG("%s", self->r.err);
	EXPECT_EQ(0, stderr_json(self)) TH_LOG("%s", self->r.err);
	/* a failure after the claim: the error object on stderr, nothing on stdout */
	ASSERT_EQ(0, ixt_write_file(self->file, "p2p 1 2 3\np2p 1 2 0\n", 20));
	RUN(1, "\"error\":{", "plan", "schedule", self->file, "--trace", "-", "-j");
	EXPECT_EQ(0, file_size(self->sout));
}

TEST_F(out, demo_trace_to_stdout)
{
	if (_metadata->skip)
		return;
	RUN(0, "PASS", "demo", "sum", "--trace", "-");
	EXPECT_EQ(0, py_check(self, ixt_trace_check_py, self->sout)) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "phases 11\n"));
	RUN(0, "PASS", "demo", "matmul", "--trace", "-");
	EXPECT_EQ(0, py_check(self, ixt_trace_check_py, self->sout)) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "phases 2\n"));
	RUN(0, "\"pass\":true", "demo", "sum", "--trace", "-", "-j");
	EXPECT_EQ(0, py_check(self, ixt_trace_check_py, self->sout)) TH_LOG("%s", self->r.err);
	EXPECT_EQ(0, stderr_json(self)) TH_LOG("%s", self->r.err);
}

TEST_F(out, image_inspect_heatmap_to_stdout)
{
	if (_metadata->skip)
		return;
	RUN(0, "tiles           1472", "image", "inspect", self->img, "--heatmap", "-");
	ASSERT_EQ(0, svg_ok(self, self->sout)) TH_LOG("%s%s", self->r.out, self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "tiles 1472\n"));
	RUN(0, "\"tile_count\":1472", "image", "inspect", self->img, "--heatmap", "-", "-j");
	EXPECT_EQ(0, svg_ok(self, self->sout)) TH_LOG("%s", self->r.err);
	EXPECT_EQ(0, stderr_json(self)) TH_LOG("%s", self->r.err);
}

/* The image on stdout is the image -o FILE writes, and reads back; the report on stderr. */
TEST_F(out, image_pack_and_redirect_to_stdout)
{
	char raw[PATH_MAX + 16];

	if (_metadata->skip)
		return;
	snprintf(raw, sizeof(raw), "%s/raw", self->dir);
	RUN(0, "(stdout): 1472 tiles of 2048 bytes", "image", "pack", "--raw", raw, "-o", "-");
	EXPECT_TRUE(same_bytes(self->sout, self->img));
	RUN(0, "\"output\":\"-\"", "image", "pack", "--raw", raw, "-o", "-", "-j");
	EXPECT_TRUE(same_bytes(self->sout, self->img));
	EXPECT_EQ(0, stderr_json(self)) TH_LOG("%s", self->r.err);

	RUN(0, "(stdout): 1472 tiles redirected to 0x4c100", "image", "redirect", self->img,
	    "--target", "0x4c100", "-o", "-");
	ASSERT_EQ(0, rename(self->sout, self->file));
	RUN(0, "", "image", "verify", self->file);	/* reads back */
	RUN(0, "\"tiles\":1472", "image", "redirect", self->img, "--target", "0x4c100", "-o", "-",
	    "-j");
	EXPECT_TRUE(same_bytes(self->sout, self->file));
	EXPECT_EQ(0, stderr_json(self)) TH_LOG("%s", self->r.err);
}

TEST_F(out, image_extract_to_stdout_and_all_refused)
{
	char dash[PATH_MAX + 32];
	struct stat st;

	if (_metadata->skip)
		return;
	RUN(0, "", "image", "extract", self->img, "5", "-o", self->file);
	RUN(0, "\"tile\":5", "image", "extract", self->img, "5", "-o", "-", "-j");
	EXPECT_EQ(TILE_SIZE, file_size(self->sout));
	EXPECT_TRUE(same_bytes(self->sout, self->file));
	EXPECT_EQ(0, stderr_json(self)) TH_LOG("%s", self->r.err);
	/* all: a directory of files has no place on stdout; no directory '-' either */
	RUN(2, "-o -: with TILE 'all' the output is a directory", "image", "extract", self->img,
	    "all", "-o", "-");
	snprintf(dash, sizeof(dash), "%s/-", self->cwd);
	EXPECT_NE(0, stat(dash, &st));
	EXPECT_EQ(0, file_size(self->sout));
	RUN(2, "-o /dev/stdout: with TILE 'all'", "image", "extract", self->img, "all", "-o",
	    "/dev/stdout");
}

TEST_F(out, frames_to_stdout)
{
	if (_metadata->skip)
		return;
	RUN(0, "", "frames", self->img, "0", "70", "-o", self->file);
	RUN(0, "(stdout): tiles 0..70 in 2 batches", "frames", self->img, "0", "70", "-o", "-");
	EXPECT_TRUE(same_bytes(self->sout, self->file));
	RUN(0, "\"batches\":2", "frames", self->img, "0", "70", "-o", "-", "-j");
	EXPECT_TRUE(same_bytes(self->sout, self->file));
	EXPECT_EQ(0, stderr_json(self)) TH_LOG("%s", self->r.err);
}

/* The canonical text on stdout (the default, or -o -) reads back; -j's object on stderr. */
TEST_F(out, hsp_format_to_stdout)
{
	if (_metadata->skip)
		return;
	RUN(0, "", "hsp", "format", self->hsp);
	EXPECT_EQ(0, file_size(self->serr));
	ASSERT_EQ(0, rename(self->sout, self->file));
	RUN(0, "", "hsp", "check", self->file);
	RUN(0, "\"output\":\"-\"", "hsp", "format", self->hsp, "-o", "-", "-j");
	EXPECT_TRUE(same_bytes(self->sout, self->file));
	EXPECT_EQ(0, stderr_json(self)) TH_LOG("%s", self->r.err);
	RUN(0, "\"calls\":3", "hsp", "format", self->hsp, "-j");
	EXPECT_TRUE(same_bytes(self->sout, self->file));
}

/* --export -: the table on stdout reads back through -t (a file, and '-'). */
TEST_F(out, timing_export_to_stdout_and_timing_from_stdin)
{
	char want[256];

	if (_metadata->skip)
		return;
	RUN(0, "", "plan", "timing", "0", "5");	/* no output option: the report on stdout */
	ASSERT_EQ(0, file_size(self->serr));
	ASSERT_LT(0, file_size(self->sout));
	RUN(0, "", "plan", "timing", "0", "5", "--export", "-");
	snprintf(want, sizeof(want), "%s", strstr(self->err, "physical"));
	EXPECT_NE(0, want[0]) TH_LOG("%s", self->err);
	ASSERT_EQ(0, rename(self->sout, self->file));
	RUN(0, "", "plan", "timing", "--export", "-");
	EXPECT_TRUE(same_bytes(self->sout, self->file));
	/* -t FILE and -t - read it, with the answer of the model it holds */
	ASSERT_EQ(0, RUN_IN(NULL, "plan", "timing", "0", "5", "-t", self->file));
	EXPECT_EQ(0, self->status) TH_LOG("%s", self->err);
	ASSERT_EQ(0, RUN_IN(self->file, "plan", "timing", "0", "5", "-t", "-"));
	EXPECT_EQ(0, self->status) TH_LOG("%s", self->err);
	ASSERT_EQ(0, RUN_IN(self->file, "plan", "timing", "0", "5", "-t", "-", "--export", "-"));
	EXPECT_EQ(0, self->status) TH_LOG("%s", self->err);
	EXPECT_NE(NULL, strstr(self->err, want)) TH_LOG("%s", self->err);
	ASSERT_EQ(0, RUN_IN(self->file, "plan", "p2p", "0", "5", "8", "--timing", "-"));
	EXPECT_EQ(0, self->status) TH_LOG("%s", self->err);
	ASSERT_EQ(0, RUN_IN(self->file, "plan", "schedule", self->list, "-t", "-"));
	EXPECT_EQ(0, self->status) TH_LOG("%s", self->err);
	ASSERT_EQ(0, RUN_IN(self->file, "demo", "sum", "-t", "-"));
	EXPECT_EQ(0, self->status) TH_LOG("%s", self->err);
	/* standard input once: the list and the table cannot both be '-' */
	ASSERT_EQ(0, RUN_IN(self->file, "plan", "schedule", "-", "-t", "-"));
	EXPECT_EQ(2, self->status) TH_LOG("%s", self->err);
	EXPECT_NE(NULL, strstr(self->err, "-: given twice: standard input can be read only once"));
	/* a table that is not one: named "-", its line as compilers do */
	ASSERT_EQ(0, RUN_IN(self->list, "plan", "timing", "0", "5", "-t", "-"));
	EXPECT_EQ(1, self->status);
	EXPECT_NE(NULL, strstr(self->err, "plan timing: -:1: not a timing table"))
		TH_LOG("%s", self->err);
}

/* Without a device the heatmap is never started: nothing on stdout, the failure on stderr. */
TEST_F(out, tdi_heatmap_to_stdout_without_a_device)
{
	if (_metadata->skip)
		return;
	ASSERT_EQ(0, RUN_IN(NULL, "tdi", "dump", "--all", "--dev", "4000000000", "--heatmap", "-",
			    "-j"));
	EXPECT_TRUE(self->status == 1 || self->status == 2) TH_LOG("%d", self->status);
	EXPECT_NE(NULL, strstr(self->err, "tdi dump: ")) TH_LOG("%s", self->err);
	EXPECT_EQ(0, file_size(self->sout));
}

TEST_HARNESS_MAIN
