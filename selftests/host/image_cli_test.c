// SPDX-License-Identifier: GPL-2.0
/*
 * The command contract of issue 5, exactly as scripts call it:
 *   ipuxcom image pack --raw DIR -o OUT
 *   ipuxcom image extract IMG TILE -o FILE   (and TILE 'all' -o DIR)
 *   ipuxcom image verify IMG                 (exit 0 only if all checks pass)
 *   ipuxcom image inspect IMG [--json]
 *   ipuxcom image redirect IMG -o OUT --marker W0,W1
 *   ipuxcom frames IMG FIRST LAST -o FILE
 * plus --help everywhere, usage errors (exit 2) and failures (exit 1)
 * that name what is wrong, and no partial output file after a failure.
 * (cfg and hsp: ipucfg_test and hsp_manifest_test; --elf: image_elf_test.)
 */
#include "kselftest_harness.h"

#include <ipuxcom.h>

#include "image_testlib.h"

#define SIZE 2048u

static int write_tile(const char *path, const uint8_t *shared, uint32_t tile)
{
	uint8_t t[SIZE];

	ixt_synth_tile(t, SIZE, shared, tile);
	return ixt_write_file(path, t, SIZE);
}

/* Whether two files have the same bytes. */
static __attribute__((noinline)) bool same_file(const char *a, const char *b)
{
	size_t la = 0, lb = 0;
	uint8_t *da = ixt_read_file(a, &la), *db = ixt_read_file(b, &lb);
	bool same = da && db && la == lb && !memcmp(da, db, la);

	free(da);
	free(db);
	return same;
}

FIXTURE(cli) {
	char tool[PATH_MAX];
	char dir[PATH_MAX];
	char raw[PATH_MAX + 16];
	char img[PATH_MAX + 16];
	uint8_t *shared;
};

FIXTURE_SETUP(cli)
{
	uint8_t *t = malloc(SIZE);

	if (!ixt_find_tool(self->tool, sizeof(self->tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");
	ASSERT_TRUE(ixt_tmpdir(self->dir, sizeof(self->dir)));
	snprintf(self->raw, sizeof(self->raw), "%s/raw", self->dir);
	snprintf(self->img, sizeof(self->img), "%s/a.ipuimg", self->dir);
	ASSERT_EQ(0, mkdir(self->raw, 0755));
	self->shared = malloc(SIZE);
	ixt_fill_random(self->shared, SIZE, 4242);
	/* The redirect marker + sync3 in the shared code at 0x100. */
	ixt_put_le32(self->shared + 0x100, 0xfeedf00d);
	ixt_put_le32(self->shared + 0x104, 0x0badcafe);
	ixt_put_le32(self->shared + 0x108, IPUXCOM_INSN_SYNC_SUPERVISOR);
	for (uint32_t i = 0; i < IPUXCOM_IMG_TILES; i++) {
		char path[PATH_MAX + 48];

		ixt_synth_tile(t, SIZE, self->shared, i);
		snprintf(path, sizeof(path), "%s/%u.bin", self->raw, i);
		ASSERT_EQ(0, ixt_write_file(path, t, SIZE));
	}
	free(t);
}

FIXTURE_TEARDOWN(cli)
{
	ixt_rmtree(self->dir);
	free(self->shared);
}

TEST_F(cli, pack_verify_inspect_extract)
{
	char *tool = self->tool, out[PATH_MAX + 32], all[PATH_MAX + 32];
	uint8_t want[SIZE], *got;
	size_t len;

	TOOL_EXPECT(0, out, "1472 tiles of 2048 bytes (3014656 bytes) packed into", "image",
		    "pack", "--raw", self->raw, "-o", self->img);
	TOOL_EXPECT(0, out, ": ok: header, 1472 records, patches, template and every tile's "
		    "CRC32 check out", "image", "verify", self->img);
	TOOL_EXPECT(0, out, "\"ok\":true,\"tiles\":1472,\"bad_tiles\":0", "image", "verify",
		    self->img, "--json");
	TOOL_EXPECT(0, out, "\"format\":\"IPUIMG1\"", "image", "inspect", self->img, "--json");
	TOOL_EXPECT(0, out, "\"load_base\":311312,\"image_size\":2048,\"entry\":311312,"
		    "\"tile_count\":1472", "image", "inspect", "--json", self->img);
	TOOL_EXPECT(0, out, "tiles           1472", "image", "inspect", self->img);
	TOOL_EXPECT(0, out, "load base       0x4c010", "image", "inspect", self->img);
	TOOL_EXPECT(0, out, "\"tiles\":[{\"tile\":0,", "image", "inspect", "-j", "--tiles",
		    self->img);
	/* One tile, to a file and to stdout. */
	snprintf(out, sizeof(out), "%s/t1234.bin", self->dir);
	TOOL_EXPECT(0, out, "", "image", "extract", self->img, "1234", "-o", out);
	got = ixt_read_file(out, &len);
	ASSERT_NE(NULL, got);
	ixt_synth_tile(want, SIZE, self->shared, 1234);
	ASSERT_EQ(SIZE, len);
	EXPECT_EQ(0, memcmp(got, want, SIZE));
	free(got);
	/* All tiles, into a directory that image pack --raw reads back. */
	snprintf(all, sizeof(all), "%s/all", self->dir);
	TOOL_EXPECT(0, out, "1472 tile images of 2048 bytes", "image", "extract", self->img,
		    "all", "-o", all);
	snprintf(out, sizeof(out), "%s/b.ipuimg", self->dir);
	TOOL_EXPECT(0, out, "packed into", "image", "pack", "--raw", all, "-o", out);
	EXPECT_TRUE(same_file(self->img, out));	/* same input, same file */
}

TEST_F(cli, frames_and_redirect)
{
	char *tool = self->tool, out[PATH_MAX + 32], red[PATH_MAX + 32];
	uint8_t *f, want[SIZE];
	const uint8_t *g;
	size_t len;

	TOOL_EXPECT(0, out, "packed", "image", "pack", "--raw", self->raw, "-o", self->img,
		    "--template", "7");
	snprintf(out, sizeof(out), "%s/frames.bin", self->dir);
	/* 2048 bytes, padded to the 0x4134-byte envelope: 17 frames per tile. */
	TOOL_EXPECT(0, out, "tiles 1408..1471 in 1 batch: 17 frames (17408 bytes) per tile, "
		    "1118208 bytes", "frames", self->img, "1408", "1471", "-o", out);
	f = ixt_read_file(out, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0x1000 + 64 * 17 * 1024u, len);
	EXPECT_EQ(0x1000u + 17 * 1024, ixt_le32(f + 8));	/* tile 1409's frames */
	EXPECT_EQ(17u, ixt_le32(f + 12));
	ixt_synth_tile(want, SIZE, self->shared, 1409);
	EXPECT_EQ(1409u, ixt_le32(f + 0x1000 + 17 * 1024 + 4));
	EXPECT_EQ(0, memcmp(f + 0x1000 + 17 * 1024 + 16, want, 992));
	free(f);
	/* Across a batch boundary: one buffer per 64-tile batch. */
	TOOL_EXPECT(0, out, "\"batches\":2,\"frames_per_tile\":17,\"bytes_per_tile\":17408,"
		    "\"bytes\":1191936", "frames", self->img, "60", "127", "-o", out, "--json");
	/*
	 * Each buffer puts its tiles in slot tile - batch start: 60..63 in
	 * slots 60..63 of the first (slots 0..59 zero), 64..127 in slots
	 * 0..63 of the second, which follows the first's last frame.
	 */
	f = ixt_read_file(out, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(2 * 0x1000 + 68 * 17 * 1024u, len);
	for (uint32_t slot = 0; slot < 60; slot++) {
		EXPECT_EQ(0u, ixt_le32(f + slot * 8) | ixt_le32(f + slot * 8 + 4))
			TH_LOG("first buffer, slot %u", slot);
	}
	for (uint32_t slot = 60; slot < 64; slot++) {
		EXPECT_EQ(0x1000 + (slot - 60) * 17 * 1024u, ixt_le32(f + slot * 8));
		EXPECT_EQ(17u, ixt_le32(f + slot * 8 + 4));
	}
	EXPECT_EQ(60u, ixt_le32(f + 0x1000 + 4));	/* first frame's tile id */
	g = f + 0x1000 + 4 * 17 * 1024;			/* the second buffer */
	for (uint32_t slot = 0; slot < 64; slot++) {
		EXPECT_EQ(0x1000 + slot * 17 * 1024u, ixt_le32(g + slot * 8));
		EXPECT_EQ(17u, ixt_le32(g + slot * 8 + 4));
	}
	EXPECT_EQ(64u, ixt_le32(g + 0x1000 + 4));
	EXPECT_EQ(127u, ixt_le32(g + 0x1000 + 63 * 17 * 1024 + 4));
	free(f);
	/* A range inside one batch not starting on its boundary: one buffer, slots 6..11. */
	TOOL_EXPECT(0, out, "tiles 70..75 in 1 batch", "frames", self->img, "70", "75", "-o", out);
	f = ixt_read_file(out, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0x1000 + 6 * 17 * 1024u, len);
	EXPECT_EQ(0u, ixt_le32(f + 5 * 8 + 4));
	EXPECT_EQ(0x1000u, ixt_le32(f + 6 * 8));
	EXPECT_EQ(17u, ixt_le32(f + 6 * 8 + 4));
	EXPECT_EQ(17u, ixt_le32(f + 11 * 8 + 4));
	EXPECT_EQ(0u, ixt_le32(f + 12 * 8 + 4));
	EXPECT_EQ(70u, ixt_le32(f + 0x1000 + 4));
	free(f);
	TOOL_EXPECT(0, out, "slot 6", "frames", "--help");
	TOOL_EXPECT(2, err, "first tile 9 after last tile 8", "frames", self->img, "9", "8", "-o",
		    out);
	TOOL_EXPECT(2, err, "invalid last tile '1472'", "frames", self->img, "0", "1472", "-o",
		    out);
	TOOL_EXPECT(2, err, "missing -o FILE", "frames", self->img, "0", "1");
	TOOL_EXPECT(0, out, "Usage: ipuxcom frames IMG FIRST LAST -o FILE", "frames", "--help");

	snprintf(red, sizeof(red), "%s/red.ipuimg", self->dir);
	TOOL_EXPECT(0, out, "1472 tiles redirected to 0x4c11c", "image", "redirect", self->img,
		    "-o", red, "--marker", "0xfeedf00d,0x0badcafe");
	snprintf(out, sizeof(out), "%s/t5.bin", self->dir);
	TOOL_EXPECT(0, out, "", "image", "extract", red, "5", "-o", out);
	f = ixt_read_file(out, &len);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0x1904c11cu, ixt_le32(f + 8));
	EXPECT_EQ(0x43000000u, ixt_le32(f + 12));
	free(f);
	TOOL_EXPECT(1, err, "tile 7: marker 0x00000001 0x00000002 not found in the image",
		    "image", "redirect", self->img, "-o", red, "--marker", "1,2");
	TOOL_EXPECT(2, err, "give exactly one of --marker W0,W1 and --target ADDR", "image",
		    "redirect", self->img, "-o", red);
	TOOL_EXPECT(2, err, "invalid marker '0x1'", "image", "redirect", self->img, "-o", red,
		    "--marker", "0x1");
}

TEST_F(cli, failures_name_the_problem)
{
	char *tool = self->tool, path[PATH_MAX + 32], out[PATH_MAX + 32];
	uint8_t *d;
	size_t len;

	snprintf(out, sizeof(out), "%s/x.ipuimg", self->dir);
	/* A stray file, then a missing one. */
	snprintf(path, sizeof(path), "%s/README", self->raw);
	ASSERT_EQ(0, ixt_write_file(path, "x", 1));
	TOOL_EXPECT(1, err, "stray entry 'README'", "image", "pack", "--raw", self->raw, "-o",
		    out);
	EXPECT_NE(0, access(out, F_OK));	/* no output after a failure */
	unlink(path);
	snprintf(path, sizeof(path), "%s/700.bin", self->raw);
	unlink(path);
	TOOL_EXPECT(1, err, "missing 700.bin (1 of 1472 tile files missing)", "image", "pack",
		    "--raw", self->raw, "-o", out);
	EXPECT_NE(0, access(out, F_OK));

	/* verify: exit 1 naming the tile whose CRC32 fails. */
	ASSERT_EQ(0, write_tile(path, self->shared, 700));
	TOOL_EXPECT(0, out, "packed", "image", "pack", "--raw", self->raw, "-o", self->img,
		    "--template", "0");
	d = ixt_read_file(self->img, &len);
	ASSERT_NE(NULL, d);
	d[len - 1] ^= 0xff;	/* tile 1471's last patch byte */
	snprintf(path, sizeof(path), "%s/bad.ipuimg", self->dir);
	ASSERT_EQ(0, ixt_write_file(path, d, len));
	TOOL_EXPECT(1, err, "tile 1471 image: CRC32", "image", "verify", path);
	TOOL_EXPECT(1, out, "FAILED: 1 of 1472 tiles", "image", "verify", path);
	TOOL_EXPECT(1, out, "\"ok\":false", "image", "verify", path, "--json");
	TOOL_EXPECT(1, err, "tile 1471 image: CRC32", "image", "extract", path, "1471", "-o", out);
	TOOL_EXPECT(0, out, "", "image", "extract", path, "1470", "-o", out);
	d[5] ^= 1;	/* the magic */
	ASSERT_EQ(0, ixt_write_file(path, d, len));
	TOOL_EXPECT(1, err, "bad.ipuimg: bad magic 'IPUIMF1\\x00' (expected", "image", "verify",
		    path);
	TOOL_EXPECT(1, err, "bad magic", "image", "inspect", path);
	TOOL_EXPECT(1, err, "bad magic", "frames", path, "0", "0", "-o", out);
	free(d);
	TOOL_EXPECT(1, err, "/nonexistent.ipuimg: cannot open", "image", "verify",
		    "/nonexistent.ipuimg");
}

TEST_F(cli, usage_and_help)
{
	char *tool = self->tool;

	TOOL_EXPECT(0, out, "Usage: ipuxcom image COMMAND", "image", "--help");
	TOOL_EXPECT(0, out, "pack", "help", "image");
	TOOL_EXPECT(0, out, "Usage: ipuxcom image pack --raw DIR|--elf DIR -o OUT", "image",
		    "pack", "--help");
	TOOL_EXPECT(0, out, "Usage: ipuxcom image extract IMG TILE|all", "image", "extract", "-h");
	TOOL_EXPECT(0, out, "Exit status 0 only if every check passes", "image", "verify",
		    "--help");
	TOOL_EXPECT(0, out, "Usage: ipuxcom image inspect", "help", "image", "inspect");
	TOOL_EXPECT(0, out, "Usage: ipuxcom image redirect", "image", "redirect", "--help");
	TOOL_EXPECT(0, out, "Usage: ipuxcom cfg COMMAND", "cfg", "--help");
	TOOL_EXPECT(0, out, "Usage: ipuxcom hsp COMMAND", "hsp", "--help");
	TOOL_EXPECT(0, out, "Usage: ipuxcom frames IMG FIRST LAST", "frames", "--help");
	TOOL_EXPECT(2, err, "give exactly one of --raw DIR and --elf DIR", "image", "pack", "-o",
		    "x");
	TOOL_EXPECT(2, err, "give exactly one of --raw DIR and --elf DIR", "image", "pack",
		    "--raw", "a", "--elf", "b", "-o", "x");
	TOOL_EXPECT(2, err, "missing -o FILE", "image", "pack", "--raw", "a");
	TOOL_EXPECT(2, err, "invalid address '0x4c01g' for --base", "image", "pack", "--raw", "a",
		    "--base", "0x4c01g", "-o", "x");
	TOOL_EXPECT(2, err, "invalid template tile '1472'", "image", "pack", "--raw", "a",
		    "--template", "1472", "-o", "x");
	TOOL_EXPECT(2, err, "invalid tile 'x' (0..1471 or 'all')", "image", "extract", "i", "x",
		    "-o", "f");
	TOOL_EXPECT(2, err, "expected IMG and TILE", "image", "extract", "i");
	TOOL_EXPECT(2, err, "expected IMG", "image", "verify");
	TOOL_EXPECT(2, err, "ipuxcom: image: unknown command 'frob'", "image", "frob");
	TOOL_EXPECT(2, err, "unexpected argument 'b'", "image", "verify", "a", "b");
	{
		char never[PATH_MAX + 16];

		snprintf(never, sizeof(never), "%s/never.ipuimg", self->dir);
		TOOL_EXPECT(1, err,
			    "pack parameters: load range [0x4b000, 0x4b800) outside tile SRAM",
			    "image", "pack", "--raw", self->raw, "--base", "0x4b000", "-o", never);
		EXPECT_NE(0, access(never, F_OK));
	}
	/* The output is checked before the packing work. */
	TOOL_EXPECT(1, err, "/dev/null/x: Not a directory", "image", "pack", "--raw", self->raw,
		    "-o", "/dev/null/x");
}

TEST_HARNESS_MAIN
