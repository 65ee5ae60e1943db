// SPDX-License-Identifier: GPL-2.0-only
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

	TOOL_EXPECT(0, out, "1472 tiles of 2048 bytes, 2.9 MiB (3,014,656 bytes), packed into", "image",
		    "pack", "--raw", self->raw, "-o", self->img);
	TOOL_EXPECT(0, out, ": ok: header, 1472 records, patches, template and every tile's "
		    "CRC32 check out", "image", "verify", self->img);
	TOOL_EXPECT(0, out, "\"ok\":true,\"tiles\":1472,\"bad_tiles\":0", "image", "verify",
		    self->img, "--json");
	TOOL_EXPECT(0, out, "\"format\":\"IPUIMG1\"", "image", "inspect", self->img, "--json");
	TOOL_EXPECT(0, out, "\"load_base\":\"0x0004c010\",\"image_size\":2048,\"entry\":\"0x0004c010\","
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

/*
 * image pack --over IMG: pack all, extract all, repack 3 tiles over the
 * image, extract all: the 3 are new, the other 1469 byte-identical.
 */
TEST_F(cli, pack_a_few_tiles_over_a_base)
{
	static const unsigned int few[] = { 0, 777, 1471 };
	char *tool = self->tool, all[PATH_MAX + 32], fdir[PATH_MAX + 32], path[PATH_MAX + 64];
	char all2[PATH_MAX + 32], path2[PATH_MAX + 64], out[PATH_MAX + 32], bad[PATH_MAX + 32];
	struct ipuxcom_image_info bi = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_image_tile rec = IPUXCOM_IMAGE_TILE_INIT;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	uint32_t victim = 0;
	uint8_t t[SIZE], *data;
	size_t len;

	snprintf(all, sizeof(all), "%s/all", self->dir);
	snprintf(all2, sizeof(all2), "%s/all2", self->dir);
	snprintf(fdir, sizeof(fdir), "%s/few", self->dir);
	snprintf(out, sizeof(out), "%s/over.ipuimg", self->dir);
	TOOL_EXPECT(0, out, "packed into", "image", "pack", "--raw", self->raw, "-o", self->img);
	TOOL_EXPECT(0, out, "1472 tile images", "image", "extract", self->img, "all", "-o", all);
	ASSERT_EQ(0, mkdir(fdir, 0755));
	for (int i = 0; i < 3; i++) {
		ixt_fill_random(t, SIZE, 7000 + (uint64_t)i);
		snprintf(path, sizeof(path), "%s/%u.bin", fdir, few[i]);
		ASSERT_EQ(0, ixt_write_file(path, t, SIZE));
	}
	TOOL_EXPECT(0, out, "1472 tiles of 2048 bytes", "image", "pack", "--raw", fdir, "--over",
		    self->img, "-o", out);
	TOOL_EXPECT(0, out, ": ok:", "image", "verify", out);
	TOOL_EXPECT(0, out, "1472 tile images", "image", "extract", out, "all", "-o", all2);
	for (unsigned int n = 0; n < IPUXCOM_IMG_TILES; n++) {
		bool replaced = n == few[0] || n == few[1] || n == few[2];

		snprintf(path, sizeof(path), "%s/%u.bin", replaced ? fdir : all, n);
		snprintf(path2, sizeof(path2), "%s/%u.bin", all2, n);
		ASSERT_TRUE(same_file(path, path2)) TH_LOG("tile %u", n);
	}
	/* JSON: "file" is the input image, "output" what was written */
	TOOL_EXPECT(0, out, "{\"file\":\"", "image", "pack", "--raw", fdir, "--over", self->img,
		    "-o", out, "-j");

	/* a size other than the image's: the tile, its size, the expected size */
	snprintf(path, sizeof(path), "%s/5.bin", fdir);
	ASSERT_EQ(0, ixt_write_file(path, t, 100));
	TOOL_EXPECT(1, err, "few/5.bin: tile 5 has 0x64 bytes, but the base image's tiles have "
		    "0x800", "image", "pack", "--raw", fdir, "--over", self->img, "-o", out);
	ASSERT_EQ(0, unlink(path));
	/* a tile out of range */
	snprintf(path, sizeof(path), "%s/1472.bin", fdir);
	ASSERT_EQ(0, ixt_write_file(path, t, SIZE));
	TOOL_EXPECT(1, err, "stray entry '1472.bin' (the directory may hold only N.bin for "
		    "physical tiles N = 0..1471)", "image", "pack", "--raw", fdir, "--over",
		    self->img, "-o", out);
	ASSERT_EQ(0, unlink(path));
	/* usage: --base and --entry come from the image */
	TOOL_EXPECT(2, err, "--base and --entry are not for --over", "image", "pack", "--raw",
		    fdir, "--over", self->img, "--base", "0x4c010", "-o", out);
	TOOL_EXPECT(1, err, "/nonexistent.img: cannot open", "image", "pack", "--raw", fdir,
		    "--over", "/nonexistent.img", "-o", out);

	/* a base tile failing its CRC32: named with the file; no output left */
	ASSERT_EQ(0, ipuxcom_image_open(self->img, &img, &em)) TH_LOG("%s", em.msg);
	ipuxcom_image_get_info(img, &bi);
	for (uint32_t n = 1; n < IPUXCOM_IMG_TILES && !victim; n++) {
		ASSERT_EQ(0, ipuxcom_image_get_tile(img, n, &rec));
		if (n != bi.template_tile && n != 777 && rec.patch_size > 8)
			victim = n;
	}
	ipuxcom_image_free(img);
	ASSERT_NE(0u, victim);
	data = ixt_read_file(self->img, &len);
	ASSERT_NE(NULL, data);
	data[rec.patch_offset + 8] ^= 0x5a;
	snprintf(bad, sizeof(bad), "%s/bad.ipuimg", self->dir);
	ASSERT_EQ(0, ixt_write_file(bad, data, len));
	free(data);
	snprintf(path, sizeof(path), "bad.ipuimg: tile %u image: CRC32 0x", victim);
	unlink(out);
	TOOL_EXPECT(1, err, path, "image", "pack", "--raw", fdir, "--over", bad, "-o", out);
	EXPECT_NE(0, access(out, F_OK));
	TOOL_EXPECT(0, out, "--over IMG", "image", "pack", "--help");
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
		    "1.1 MiB (1,118,208 bytes)", "frames", self->img, "1408", "1471", "-o", out);
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
	TOOL_EXPECT(0, out, "Usage: ipuxcom image pack --raw DIR|--elf DIR [--over IMG] -o OUT", "image",
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
	TOOL_EXPECT(2, err, "invalid tile 'x': a decimal number 0..1471, or 'all'", "image", "extract", "i", "x",
		    "-o", "f");
	TOOL_EXPECT(2, err, "expected IMG and TILE", "image", "extract", "i");
	TOOL_EXPECT(2, err, "expected IMG", "image", "verify");
	TOOL_EXPECT(2, err, "ipuxcom: image: unknown command 'frob'", "image", "frob");
	TOOL_EXPECT(2, err, "unexpected argument 'b'", "image", "verify", "a", "b");
	/* an address outside SRAM is a usage error; one the images then overrun, a failure */
	TOOL_EXPECT(2, err, "invalid address '0x4b000' for --base (tile SRAM address, "
		    "0x4c000..0xe7fff)", "image", "pack", "--raw", self->raw,
		    "--base", "0x4b000", "-o", "/dev/null/x");
	{
		char never[PATH_MAX + 16];

		snprintf(never, sizeof(never), "%s/never.ipuimg", self->dir);
		TOOL_EXPECT(1, err,
			    "pack parameters: load range [0xe7c00, 0xe8400) outside tile SRAM",
			    "image", "pack", "--raw", self->raw, "--base", "0xe7c00", "-o", never);
		EXPECT_NE(0, access(never, F_OK));
	}
	/* The output is checked before the packing work. */
	TOOL_EXPECT(1, err, "/dev/null/x: Not a directory", "image", "pack", "--raw", self->raw,
		    "-o", "/dev/null/x");
}

TEST_HARNESS_MAIN
