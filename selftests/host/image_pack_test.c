// SPDX-License-Identifier: GPL-2.0-only
/*
 * IPUIMG1 packing and reading: the CRC-32 and the algebra behind the
 * per-tile checksums, round trips (pack -> extract reproduces every byte
 * of 1472 distinct tiles, from memory and from a raw directory), the
 * documented byte layout, the template choice and the patch encoding,
 * the raw directory's missing/stray/size errors, and bad pack arguments.
 */
#include "kselftest_harness.h"

#include <ipuxcom.h>

#include "image_testlib.h"
#include "../../libuser/src/image_internal.h"

/* ------------------------------------------------------------ CRC-32 */

TEST(crc32_known_values)
{
	EXPECT_EQ(0xcbf43926u, ipuxcom_crc32(0, "123456789", 9));
	EXPECT_EQ(0u, ipuxcom_crc32(0, "", 0));
	/* zlib: crc32(0, "a", 1) */
	EXPECT_EQ(0xe8b7be43u, ipuxcom_crc32(0, "a", 1));
	/* chaining equals one call */
	EXPECT_EQ(ipuxcom_crc32(0, "123456789", 9),
		  ipuxcom_crc32(ipuxcom_crc32(0, "1234", 4), "56789", 5));
}

/* Every length and alignment against the bitwise definition. */
TEST(crc32_matches_bitwise)
{
	uint8_t buf[300];

	ixt_fill_random(buf, sizeof(buf), 7);
	for (size_t off = 0; off < 9; off++) {
		for (size_t n = 0; off + n <= sizeof(buf); n += 7) {
			uint32_t c = 0xffffffffu;

			for (size_t i = 0; i < n; i++) {
				c ^= buf[off + i];
				for (int k = 0; k < 8; k++)
					c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
			}
			ASSERT_EQ(~c, ipuxcom_crc32(0, buf + off, n))
				TH_LOG("off %zu n %zu", off, n);
		}
	}
}

/* crc(B) derived from crc(A) and the differing ranges equals crc(B). */
TEST(crc32_delta_algebra)
{
	enum { N = 5000 };
	uint8_t *a = malloc(N), *b = malloc(N);
	uint64_t s = 99;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ixt_fill_random(a, N, 3);
	for (int round = 0; round < 50; round++) {
		struct ixc_crc_delta d;
		size_t pos = 0;

		memcpy(b, a, N);
		ixc_crc_delta_init(&d);
		while (pos < N) {
			size_t gap = ixt_rand(&s) % 700, len = 1 + ixt_rand(&s) % 40;

			if (pos + gap + len > N)
				break;
			pos += gap;
			for (size_t i = 0; i < len; i++)
				b[pos + i] = (uint8_t)ixt_rand(&s);
			ixc_crc_delta_add(&d, pos, a + pos, b + pos, len);
			pos += len;
		}
		ASSERT_EQ(ipuxcom_crc32(0, b, N),
			  ixc_crc_delta_finish(&d, ipuxcom_crc32(0, a, N), N));
	}
	/* Shifting by n zero bytes is appending them. */
	{
		static const uint8_t zeros[1000];
		uint32_t r = ixc_crc32_raw(0x12345678, "xyz", 3);

		EXPECT_EQ(ixc_crc32_raw(r, zeros, sizeof(zeros)),
			  ixc_crc32_shift(r, sizeof(zeros)));
	}
	free(a);
	free(b);
}

/* ------------------------------------------------------ round trips */

struct tiles {
	uint32_t n;
	size_t size;
	uint8_t *shared;
	uint8_t **img;
};

static struct tiles *make_tiles(uint32_t n, size_t size, uint64_t seed)
{
	struct tiles *t = calloc(1, sizeof(*t));

	t->n = n;
	t->size = size;
	t->shared = malloc(size);
	t->img = calloc(n, sizeof(*t->img));
	ixt_fill_random(t->shared, size, seed);
	for (uint32_t i = 0; i < n; i++) {
		t->img[i] = malloc(size);
		ixt_synth_tile(t->img[i], size, t->shared, i);
	}
	return t;
}

static void free_tiles(struct tiles *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		free(t->img[i]);
	free(t->img);
	free(t->shared);
	free(t);
}

static struct ipuxcom_image_pack_params params(const struct tiles *t)
{
	struct ipuxcom_image_pack_params p = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = t->n,
		.image_size = (uint32_t)t->size,
		.load_base = IPUXCOM_IMG_PAYLOAD_BASE,
		.entry = IPUXCOM_IMG_PAYLOAD_BASE,
		.template_tile = IPUXCOM_IMG_TEMPLATE_AUTO,
	};
	return p;
}

TEST(round_trip_1472_distinct_tiles)
{
	struct tiles *t = make_tiles(IPUXCOM_IMG_TILES, 4096, 11);
	struct ipuxcom_image_pack_params p = params(t);
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	uint8_t *buf = malloc(t->size);
	void *data;
	size_t len;

	/* Distinct inputs, so the round trip proves per-tile reconstruction. */
	for (uint32_t i = 1; i < t->n; i++) {
		ASSERT_NE(0, memcmp(t->img[i], t->img[i - 1], t->size));
	}
	ASSERT_EQ(0, ipuxcom_image_pack_buffers(&p, (const void *const *)t->img, &data, &len,
						&em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_image_from_buffer(data, len, &img, &em)) TH_LOG("%s", em.msg);
	ipuxcom_image_get_info(img, &info);
	EXPECT_EQ(IPUXCOM_IMG_TILES, info.tile_count);
	EXPECT_EQ(4096u, info.image_size);
	EXPECT_EQ(IPUXCOM_IMG_PAYLOAD_BASE, info.load_base);
	EXPECT_EQ(len, info.file_size);
	EXPECT_EQ(1u, info.unpatched_tiles);	/* only the template */
	for (uint32_t i = 0; i < t->n; i++) {
		memset(buf, 0xa5, t->size);
		ASSERT_EQ(0, ipuxcom_image_extract(img, i, buf, t->size, &em)) TH_LOG("%s", em.msg);
		ASSERT_EQ(0, memcmp(buf, t->img[i], t->size)) TH_LOG("tile %u differs", i);
	}
	EXPECT_EQ(0, ipuxcom_image_verify(img, &em)) TH_LOG("%s", em.msg);
	EXPECT_STREQ("", em.msg);
	/* 4 differing words per tile: far smaller than the inputs. */
	EXPECT_LT(len, (size_t)t->n * t->size / 50);
	ipuxcom_image_free(img);
	free(data);
	free(buf);
	free_tiles(t);
}

/* The documented layout (docs/ipuimg-format.md), byte by byte. */
TEST(layout_matches_the_documentation)
{
	struct tiles *t = make_tiles(3, 256, 5);
	struct ipuxcom_image_pack_params p = params(t);
	struct ipuxcom_errmsg em;
	uint8_t *d;
	void *data;
	size_t len, area = 40 + 3 * 16 + 256, cur;
	uint32_t crc;

	p.template_tile = 1;
	p.entry = IPUXCOM_IMG_PAYLOAD_BASE + 8;
	t->img[2][100] ^= 0xff;		/* tile 2: one more difference */
	ASSERT_EQ(0, ipuxcom_image_pack_buffers(&p, (const void *const *)t->img, &data, &len,
						&em)) TH_LOG("%s", em.msg);
	d = data;
	EXPECT_EQ(0, memcmp(d, "IPUIMG1\0", 8));
	EXPECT_EQ(IPUXCOM_IMG_PAYLOAD_BASE, ixt_le32(d + 8));
	EXPECT_EQ(256u, ixt_le32(d + 12));
	EXPECT_EQ(IPUXCOM_IMG_PAYLOAD_BASE + 8, ixt_le32(d + 16));
	EXPECT_EQ(3u, ixt_le32(d + 20));
	EXPECT_EQ(1u, ixt_le32(d + 24));
	EXPECT_EQ(ipuxcom_crc32(0, t->img[1], 256), ixt_le32(d + 28));
	EXPECT_EQ(len - area, ixt_le32(d + 32));
	crc = ipuxcom_crc32(0, d, 36);
	crc = ipuxcom_crc32(crc, d + 40, 3 * 16);
	EXPECT_EQ(crc, ixt_le32(d + 36));
	/* The template image follows the records. */
	EXPECT_EQ(0, memcmp(d + 40 + 3 * 16, t->img[1], 256));
	/* Records: contiguous streams in tile order, the template's empty. */
	cur = area;
	for (uint32_t i = 0; i < 3; i++) {
		const uint8_t *r = d + 40 + i * 16;

		EXPECT_EQ(cur, ixt_le32(r));
		EXPECT_EQ(ipuxcom_crc32(0, t->img[i], 256), ixt_le32(r + 8));
		if (i == 1) {
			EXPECT_EQ(0u, ixt_le32(r + 4));
			EXPECT_EQ(0u, ixt_le32(r + 12));
		}
		/* Each patch: offset, size, bytes equal to the tile's. */
		for (size_t p2 = cur, k = 0; p2 < cur + ixt_le32(r + 4); k++) {
			uint32_t po = ixt_le32(d + p2), ps = ixt_le32(d + p2 + 4);

			EXPECT_EQ(0, memcmp(d + p2 + 8, t->img[i] + po, ps));
			p2 += 8 + ps;
			EXPECT_LT(k, ixt_le32(r + 12));
		}
		cur += ixt_le32(r + 4);
	}
	EXPECT_EQ(len, cur);
	free(data);
	free_tiles(t);
}

/*
 * The template is the most shared image, not tile 0: tile 0 carries an
 * extra region (like the notes' host-exchange code on one tile).
 */
TEST(template_is_the_most_shared_image)
{
	struct tiles *t = make_tiles(64, 8192, 21);
	struct ipuxcom_image_pack_params p = params(t);
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT, info0 = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	void *data, *data0;
	size_t len, len0;

	ixt_fill_random(t->img[0] + 1024, 2048, 77);
	/* Tiles 40..63 share a block the others lack: still a minority. */
	for (uint32_t i = 40; i < 64; i++)
		memset(t->img[i] + 6000, 0x5a, 300);
	ASSERT_EQ(0, ipuxcom_image_pack_buffers(&p, (const void *const *)t->img, &data, &len,
						&em));
	ASSERT_EQ(0, ipuxcom_image_from_buffer(data, len, &img, &em));
	ipuxcom_image_get_info(img, &info);
	ipuxcom_image_free(img);
	EXPECT_NE(0u, info.template_tile);
	EXPECT_LT(info.template_tile, 40u);
	/* ... and it makes the file smaller than tile 0 as template. */
	p.template_tile = 0;
	ASSERT_EQ(0, ipuxcom_image_pack_buffers(&p, (const void *const *)t->img, &data0, &len0,
						&em));
	ASSERT_EQ(0, ipuxcom_image_from_buffer(data0, len0, &img, &em));
	ipuxcom_image_get_info(img, &info0);
	ipuxcom_image_free(img);
	EXPECT_EQ(0u, info0.template_tile);
	EXPECT_LT(len + 63 * 1500, len0);
	free(data);
	free(data0);
	free_tiles(t);
}

/*
 * Block equality is not the cost: every fourth tile ("inactive") shares a
 * 2 KiB region with the other inactive tiles, while active tiles differ
 * from each other there by one byte per 64. The inactive tiles have the
 * most common blocks, but an active template makes the smaller file, and
 * that is the one chosen.
 */
TEST(template_minimises_bytes_not_blocks)
{
	struct tiles *t = make_tiles(200, 8192, 23);
	struct ipuxcom_image_pack_params p = params(t);
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	uint8_t common[2048];
	void *data, *data3;
	size_t len, len3;

	ixt_fill_random(common, sizeof(common), 99);
	for (uint32_t i = 0; i < t->n; i++) {
		if (i % 4 == 3) {
			memcpy(t->img[i] + 4096, common, sizeof(common));
			continue;
		}
		for (uint32_t k = 0; k < 2048; k += 64)
			t->img[i][4096 + k] = (uint8_t)(i * 13 + k);
	}
	ASSERT_EQ(0, ipuxcom_image_pack_buffers(&p, (const void *const *)t->img, &data, &len,
						&em));
	ASSERT_EQ(0, ipuxcom_image_from_buffer(data, len, &img, &em));
	ipuxcom_image_get_info(img, &info);
	ipuxcom_image_free(img);
	EXPECT_NE(3u, info.template_tile % 4);
	p.template_tile = 3;
	ASSERT_EQ(0, ipuxcom_image_pack_buffers(&p, (const void *const *)t->img, &data3, &len3,
						&em));
	EXPECT_LT(len * 3 / 2, len3) TH_LOG("auto %zu bytes, inactive template %zu", len, len3);
	free(data);
	free(data3);
	free_tiles(t);
}

/* Differences at most 8 bytes apart share a patch; 9 apart do not. */
TEST(patches_merge_gaps_up_to_8_bytes)
{
	uint8_t *img[2];
	struct ipuxcom_image_pack_params p = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = 2, .image_size = 512, .load_base = IPUXCOM_IMG_PAYLOAD_BASE,
		.entry = IPUXCOM_IMG_PAYLOAD_BASE, .template_tile = 0,
	};
	struct ipuxcom_image_tile ti = IPUXCOM_IMAGE_TILE_INIT;
	struct ipuxcom_image *h;
	struct ipuxcom_errmsg em;
	void *data;
	size_t len;

	img[0] = calloc(1, 512);
	img[1] = calloc(1, 512);
	img[1][10] = 1;		/* gap of 8 equal bytes (11..18) */
	img[1][19] = 1;		/* -> one patch 10..19 */
	img[1][100] = 1;	/* gap of 9 (101..109) */
	img[1][110] = 1;	/* -> a new patch */
	img[1][511] = 1;	/* last byte */
	ASSERT_EQ(0, ipuxcom_image_pack_buffers(&p, (const void *const *)img, &data, &len, &em));
	ASSERT_EQ(0, ipuxcom_image_from_buffer(data, len, &h, &em));
	ASSERT_EQ(0, ipuxcom_image_get_tile(h, 1, &ti));
	EXPECT_EQ(4u, ti.patch_count);
	EXPECT_EQ(10u + 1 + 1 + 1, ti.patch_data);
	EXPECT_EQ(4u * 8 + ti.patch_data, ti.patch_size);
	ASSERT_EQ(0, ipuxcom_image_get_tile(h, 0, &ti));
	EXPECT_EQ(0u, ti.patch_count);
	EXPECT_EQ(-EINVAL, ipuxcom_image_get_tile(h, 2, &ti));
	ipuxcom_image_free(h);
	free(data);
	free(img[0]);
	free(img[1]);
}

/* Same input, same bytes: the packer is deterministic. */
TEST(pack_is_deterministic)
{
	struct tiles *t = make_tiles(100, 1000, 8);
	struct ipuxcom_image_pack_params p = params(t);
	struct ipuxcom_errmsg em;
	void *a, *b;
	size_t la, lb;

	ASSERT_EQ(0, ipuxcom_image_pack_buffers(&p, (const void *const *)t->img, &a, &la, &em));
	ASSERT_EQ(0, ipuxcom_image_pack_buffers(&p, (const void *const *)t->img, &b, &lb, &em));
	ASSERT_EQ(la, lb);
	EXPECT_EQ(0, memcmp(a, b, la));
	free(a);
	free(b);
	free_tiles(t);
}

/* Completely different images still round-trip (worst-case patches). */
TEST(unrelated_images_round_trip)
{
	uint8_t *img[5], buf[700];
	struct ipuxcom_image_pack_params p = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = 5, .image_size = 700, .load_base = IPUXCOM_IMG_SRAM_BASE,
		.entry = IPUXCOM_IMG_SRAM_BASE + 4, .template_tile = IPUXCOM_IMG_TEMPLATE_AUTO,
	};
	struct ipuxcom_image *h;
	struct ipuxcom_errmsg em;
	void *data;
	size_t len;

	for (int i = 0; i < 5; i++) {
		img[i] = malloc(700);
		ixt_fill_random(img[i], 700, 1000 + i);
	}
	memset(img[3], 0, 700);
	ASSERT_EQ(0, ipuxcom_image_pack_buffers(&p, (const void *const *)img, &data, &len, &em));
	ASSERT_EQ(0, ipuxcom_image_from_buffer(data, len, &h, &em)) TH_LOG("%s", em.msg);
	for (uint32_t i = 0; i < 5; i++) {
		ASSERT_EQ(0, ipuxcom_image_extract(h, i, buf, sizeof(buf), &em));
		EXPECT_EQ(0, memcmp(buf, img[i], 700));
	}
	EXPECT_EQ(0, ipuxcom_image_verify(h, &em));
	ipuxcom_image_free(h);
	free(data);
	for (int i = 0; i < 5; i++)
		free(img[i]);
}

TEST(pack_rejects_bad_parameters)
{
	uint8_t a[64] = { 0 };
	const void *imgs[1] = { a };
	struct ipuxcom_image_pack_params p = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = 1, .image_size = 64, .load_base = IPUXCOM_IMG_PAYLOAD_BASE,
		.entry = IPUXCOM_IMG_PAYLOAD_BASE, .template_tile = 0,
	};
	struct ipuxcom_image_pack_params q;
	struct ipuxcom_errmsg em;
	void *data;
	size_t len;

	q = p;
	q.tile_count = 0;
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_buffers(&q, imgs, &data, &len, &em));
	EXPECT_MSG(em, "pack parameters: tile count 0 outside 1..1472");
	q = p;
	q.tile_count = 1473;
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_buffers(&q, imgs, &data, &len, &em));
	q = p;
	q.image_size = IPUXCOM_IMG_SRAM_SIZE + 1;
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_buffers(&q, imgs, &data, &len, &em));
	EXPECT_MSG(em, "image size 0x9c001 outside");
	q = p;
	q.load_base = 0x4b000;
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_buffers(&q, imgs, &data, &len, &em));
	EXPECT_MSG(em, "outside tile SRAM");
	q = p;
	q.entry = IPUXCOM_IMG_PAYLOAD_BASE + 2;
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_buffers(&q, imgs, &data, &len, &em));
	EXPECT_MSG(em, "not 4-byte aligned");
	q = p;
	q.entry = IPUXCOM_IMG_PAYLOAD_BASE + 64;
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_buffers(&q, imgs, &data, &len, &em));
	EXPECT_MSG(em, "outside the image");
	q = p;
	q.template_tile = 1;
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_buffers(&q, imgs, &data, &len, &em));
	EXPECT_MSG(em, "template tile 1 outside 0..0");
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_buffers(&p, NULL, &data, &len, &em));
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack(NULL, NULL, NULL, &data, &len, &em));
}

static int failing_source(void *ctx, uint32_t tile, const void **image,
			  struct ipuxcom_errmsg *em)
{
	if (tile == 3) {
		snprintf(em->msg, sizeof(em->msg), "tile 3: source says no");
		return -EIO;
	}
	*image = ctx;
	return 0;
}

TEST(pack_reports_source_errors)
{
	uint8_t a[64] = { 0 };
	struct ipuxcom_image_pack_params p = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = 8, .image_size = 64, .load_base = IPUXCOM_IMG_PAYLOAD_BASE,
		.entry = IPUXCOM_IMG_PAYLOAD_BASE, .template_tile = IPUXCOM_IMG_TEMPLATE_AUTO,
	};
	struct ipuxcom_errmsg em;
	void *data = (void *)1;
	size_t len = 1;

	EXPECT_EQ(-EIO, ipuxcom_image_pack(&p, failing_source, a, &data, &len, &em));
	EXPECT_STREQ("tile 3: source says no", em.msg);
	EXPECT_EQ(NULL, data);
	EXPECT_EQ(0u, len);
}

/* ------------------------------------------------------ raw directory */

FIXTURE(rawdir) {
	char dir[PATH_MAX];
	struct tiles *t;
};

FIXTURE_SETUP(rawdir)
{
	ASSERT_TRUE(ixt_tmpdir(self->dir, sizeof(self->dir)));
	self->t = make_tiles(IPUXCOM_IMG_TILES, 600, 31);
	ASSERT_EQ(0, ixt_write_raw_dir(self->dir, self->t->img, self->t->n, self->t->size));
}

FIXTURE_TEARDOWN(rawdir)
{
	ixt_rmtree(self->dir);
	free_tiles(self->t);
}

TEST_F(rawdir, pack_and_extract_every_file)
{
	struct ipuxcom_image_dir_opts o = IPUXCOM_IMAGE_DIR_OPTS_INIT;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	uint8_t buf[600];
	void *data;
	size_t len;

	ipuxcom_image_dir_opts_init(&o);
	EXPECT_EQ(IPUXCOM_IMG_TILES, o.tile_count);
	EXPECT_EQ(IPUXCOM_IMG_PAYLOAD_BASE, o.load_base);
	ASSERT_EQ(0, ipuxcom_image_pack_raw_dir(self->dir, &o, &data, &len, &em))
		TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_image_from_buffer(data, len, &img, &em));
	for (uint32_t t = 0; t < IPUXCOM_IMG_TILES; t++) {
		ASSERT_EQ(0, ipuxcom_image_extract(img, t, buf, sizeof(buf), &em));
		ASSERT_EQ(0, memcmp(buf, self->t->img[t], sizeof(buf))) TH_LOG("tile %u", t);
	}
	ipuxcom_image_free(img);
	free(data);
}

TEST_F(rawdir, missing_file)
{
	struct ipuxcom_image_dir_opts o = IPUXCOM_IMAGE_DIR_OPTS_INIT;
	struct ipuxcom_errmsg em;
	char path[PATH_MAX + 32];
	void *data;
	size_t len;

	ipuxcom_image_dir_opts_init(&o);
	snprintf(path, sizeof(path), "%s/17.bin", self->dir);
	ASSERT_EQ(0, unlink(path));
	snprintf(path, sizeof(path), "%s/1471.bin", self->dir);
	ASSERT_EQ(0, unlink(path));
	EXPECT_EQ(-ENOENT, ipuxcom_image_pack_raw_dir(self->dir, &o, &data, &len, &em));
	EXPECT_MSG(em, "missing 17.bin (2 of 1472 tile files missing)");
}

TEST_F(rawdir, stray_files)
{
	static const char *const strays[] = { "notes.txt", "1472.bin", "01.bin", "-1.bin",
					      "5.bin.orig", ".hidden", "t_5.elf" };
	struct ipuxcom_image_dir_opts o = IPUXCOM_IMAGE_DIR_OPTS_INIT;
	struct ipuxcom_errmsg em;
	char path[PATH_MAX + 32];
	void *data;
	size_t len;

	ipuxcom_image_dir_opts_init(&o);
	for (size_t i = 0; i < sizeof(strays) / sizeof(strays[0]); i++) {
		char want[64];

		snprintf(path, sizeof(path), "%s/%s", self->dir, strays[i]);
		ASSERT_EQ(0, ixt_write_file(path, "x", 1));
		EXPECT_EQ(-EINVAL, ipuxcom_image_pack_raw_dir(self->dir, &o, &data, &len, &em));
		snprintf(want, sizeof(want), "stray entry '%s'", strays[i]);
		EXPECT_MSG(em, want);
		EXPECT_MSG(em, "only N.bin for each physical tile N = 0..1471");
		unlink(path);
	}
	/* A directory named like a tile file is no tile image either. */
	snprintf(path, sizeof(path), "%s/3.bin", self->dir);
	ASSERT_EQ(0, unlink(path));
	ASSERT_EQ(0, mkdir(path, 0755));
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_raw_dir(self->dir, &o, &data, &len, &em));
	EXPECT_MSG(em, "3.bin: not a regular file");
}

TEST_F(rawdir, sizes_must_match)
{
	struct ipuxcom_image_dir_opts o = IPUXCOM_IMAGE_DIR_OPTS_INIT;
	struct ipuxcom_errmsg em;
	char path[PATH_MAX + 32];
	void *data;
	size_t len;

	ipuxcom_image_dir_opts_init(&o);
	snprintf(path, sizeof(path), "%s/9.bin", self->dir);
	ASSERT_EQ(0, ixt_write_file(path, self->t->img[9], 599));
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_raw_dir(self->dir, &o, &data, &len, &em));
	EXPECT_MSG(em, "9.bin: 0x257 bytes, but 0.bin has 0x258 (all tile images must have "
		   "the same size)");
	snprintf(path, sizeof(path), "%s/0.bin", self->dir);
	ASSERT_EQ(0, ixt_write_file(path, "", 0));
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_raw_dir(self->dir, &o, &data, &len, &em));
	EXPECT_MSG(em, "0.bin: 0x0 bytes; a tile image has 0x1..0x9c000");
}

/* ------------------------------------------------ a few tiles over a base */

/* Pack self->dir whole: the base image, as a buffer and opened. */
static void pack_base(struct __test_metadata *_metadata, const char *dir, void **data,
		      size_t *len, struct ipuxcom_image **img)
{
	struct ipuxcom_image_dir_opts o = IPUXCOM_IMAGE_DIR_OPTS_INIT;
	struct ipuxcom_errmsg em;

	ipuxcom_image_dir_opts_init(&o);
	ASSERT_EQ(0, ipuxcom_image_pack_raw_dir(dir, &o, data, len, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_image_from_buffer(*data, *len, img, &em)) TH_LOG("%s", em.msg);
}

TEST_F(rawdir, pack_three_tiles_over_a_base)
{
	static const uint32_t few[] = { 0, 700, 1471 };
	struct ipuxcom_image *base, *img;
	struct ipuxcom_image_info bi = IPUXCOM_IMAGE_INFO_INIT, info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_errmsg em;
	char fdir[PATH_MAX + 8], path[PATH_MAX + 32];
	uint8_t buf[600], new_img[3][600];
	void *bdata, *data;
	size_t blen, len;

	pack_base(_metadata, self->dir, &bdata, &blen, &base);
	snprintf(fdir, sizeof(fdir), "%s.few", self->dir);
	ASSERT_EQ(0, mkdir(fdir, 0755));
	for (int i = 0; i < 3; i++) {
		ixt_fill_random(new_img[i], sizeof(new_img[i]), 100 + (uint64_t)i);
		snprintf(path, sizeof(path), "%s/%u.bin", fdir, few[i]);
		ASSERT_EQ(0, ixt_write_file(path, new_img[i], sizeof(new_img[i])));
	}
	ASSERT_EQ(0, ipuxcom_image_pack_raw_dir_over(fdir, base, IPUXCOM_IMG_TEMPLATE_AUTO,
						     &data, &len, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_image_from_buffer(data, len, &img, &em));
	ipuxcom_image_get_info(base, &bi);
	ipuxcom_image_get_info(img, &info);
	EXPECT_EQ(bi.tile_count, info.tile_count);
	EXPECT_EQ(bi.image_size, info.image_size);
	EXPECT_EQ(bi.load_base, info.load_base);
	EXPECT_EQ(bi.entry, info.entry);
	/* the three are new, every other tile byte-identical to the base */
	for (uint32_t t = 0; t < IPUXCOM_IMG_TILES; t++) {
		const uint8_t *want = self->t->img[t];

		for (int i = 0; i < 3; i++)
			if (few[i] == t)
				want = new_img[i];
		ASSERT_EQ(0, ipuxcom_image_extract(img, t, buf, sizeof(buf), &em)) TH_LOG("%s",
											  em.msg);
		ASSERT_EQ(0, memcmp(buf, want, sizeof(buf))) TH_LOG("tile %u", t);
	}
	ipuxcom_image_free(img);
	free(data);
	/* a given template is kept; an empty directory repacks the base */
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%u.bin", fdir, few[i]);
		ASSERT_EQ(0, unlink(path));
	}
	ASSERT_EQ(0, ipuxcom_image_pack_raw_dir_over(fdir, base, 5, &data, &len, &em));
	ASSERT_EQ(0, ipuxcom_image_from_buffer(data, len, &img, &em));
	ipuxcom_image_get_info(img, &info);
	EXPECT_EQ(5u, info.template_tile);
	for (uint32_t t = 0; t < IPUXCOM_IMG_TILES; t += 97) {
		ASSERT_EQ(0, ipuxcom_image_extract(img, t, buf, sizeof(buf), &em));
		ASSERT_EQ(0, memcmp(buf, self->t->img[t], sizeof(buf))) TH_LOG("tile %u", t);
	}
	ipuxcom_image_free(img);
	free(data);
	ipuxcom_image_free(base);
	free(bdata);
	ixt_rmtree(fdir);
}

TEST_F(rawdir, over_a_base_refuses_bad_sizes_tiles_and_crcs)
{
	struct ipuxcom_image_tile rec = IPUXCOM_IMAGE_TILE_INIT;
	struct ipuxcom_image *base, *bad;
	struct ipuxcom_errmsg em;
	char fdir[PATH_MAX + 8], path[PATH_MAX + 32];
	uint32_t victim = IPUXCOM_IMG_TILES;
	uint8_t *corrupt;
	void *bdata, *data = NULL;
	size_t blen, len;

	pack_base(_metadata, self->dir, &bdata, &blen, &base);
	snprintf(fdir, sizeof(fdir), "%s.few", self->dir);
	ASSERT_EQ(0, mkdir(fdir, 0755));
	/* a size other than the base's: the tile, its size and the expected one */
	snprintf(path, sizeof(path), "%s/9.bin", fdir);
	ASSERT_EQ(0, ixt_write_file(path, self->t->img[9], 599));
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_raw_dir_over(fdir, base, IPUXCOM_IMG_TEMPLATE_AUTO,
							   &data, &len, &em));
	EXPECT_MSG(em, ".few/9.bin: tile 9 has 0x257 bytes, but the base image's tiles have "
		   "0x258 (a tile packed over a base must keep its size)");
	EXPECT_EQ(NULL, data);
	ASSERT_EQ(0, unlink(path));
	/* a tile the base does not have */
	snprintf(path, sizeof(path), "%s/1472.bin", fdir);
	ASSERT_EQ(0, ixt_write_file(path, self->t->img[9], 600));
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_raw_dir_over(fdir, base, IPUXCOM_IMG_TEMPLATE_AUTO,
							   &data, &len, &em));
	EXPECT_MSG(em, "stray entry '1472.bin' (the directory may hold only N.bin for physical "
		   "tiles N = 0..1471)");
	ASSERT_EQ(0, unlink(path));
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_raw_dir_over(fdir, base, 1472, &data, &len, &em));
	EXPECT_MSG(em, "template tile 1472 outside 0..1471 (the base image's tiles)");
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_raw_dir_over(fdir, NULL, 0, &data, &len, &em));
	EXPECT_EQ(-ENOENT, ipuxcom_image_pack_raw_dir_over("/nonexistent/dir", base, 0, &data,
							   &len, &em));
	EXPECT_MSG(em, "/nonexistent/dir: cannot open the directory");

	/* a base tile that fails its CRC32: a byte of its patch data flipped */
	for (uint32_t t = 1; t < IPUXCOM_IMG_TILES && victim == IPUXCOM_IMG_TILES; t++) {
		struct ipuxcom_image_info bi = IPUXCOM_IMAGE_INFO_INIT;

		ipuxcom_image_get_info(base, &bi);
		ASSERT_EQ(0, ipuxcom_image_get_tile(base, t, &rec));
		if (t != bi.template_tile && rec.patch_size > IPUXCOM_IMG_PATCH_HEADER_SIZE)
			victim = t;
	}
	ASSERT_GT(IPUXCOM_IMG_TILES, victim);
	corrupt = malloc(blen);
	ASSERT_NE(NULL, corrupt);
	memcpy(corrupt, bdata, blen);
	corrupt[rec.patch_offset + IPUXCOM_IMG_PATCH_HEADER_SIZE] ^= 0x5a;
	/* the structure and the metadata CRC32 still hold: it opens */
	ASSERT_EQ(0, ipuxcom_image_from_buffer(corrupt, blen, &bad, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(-EBADMSG, ipuxcom_image_pack_raw_dir_over(fdir, bad, IPUXCOM_IMG_TEMPLATE_AUTO,
							    &data, &len, &em));
	{
		char want[64];

		snprintf(want, sizeof(want), "the base image: tile %u image: CRC32 0x", victim);
		EXPECT_MSG(em, want);
	}
	EXPECT_EQ(NULL, data);
	/* replaced, the bad tile is never read: the pack succeeds */
	snprintf(path, sizeof(path), "%s/%u.bin", fdir, victim);
	ASSERT_EQ(0, ixt_write_file(path, self->t->img[victim], 600));
	ASSERT_EQ(0, ipuxcom_image_pack_raw_dir_over(fdir, bad, IPUXCOM_IMG_TEMPLATE_AUTO, &data,
						     &len, &em)) TH_LOG("%s", em.msg);
	free(data);
	ipuxcom_image_free(bad);
	free(corrupt);
	ipuxcom_image_free(base);
	free(bdata);
	ixt_rmtree(fdir);
}

TEST(raw_dir_errors)
{
	struct ipuxcom_image_dir_opts o = IPUXCOM_IMAGE_DIR_OPTS_INIT;
	struct ipuxcom_errmsg em;
	void *data;
	size_t len;

	ipuxcom_image_dir_opts_init(&o);
	EXPECT_EQ(-ENOENT, ipuxcom_image_pack_raw_dir("/nonexistent/dir", &o, &data, &len, &em));
	EXPECT_MSG(em, "/nonexistent/dir: cannot open the directory");
	o.tile_count = 0;
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_raw_dir("/tmp", &o, &data, &len, &em));
	EXPECT_MSG(em, "tile count 0 outside 1..1472");
}

TEST(open_file_errors)
{
	struct ipuxcom_image *img = (void *)1;
	struct ipuxcom_errmsg em;

	EXPECT_EQ(-ENOENT, ipuxcom_image_open("/nonexistent/x.ipuimg", &img, &em));
	EXPECT_EQ(NULL, img);
	EXPECT_MSG(em, "/nonexistent/x.ipuimg: cannot open");
	EXPECT_EQ(-EISDIR, ipuxcom_image_open("/tmp", &img, &em));
	EXPECT_MSG(em, "/tmp: not a regular file");
	EXPECT_EQ(-EINVAL, ipuxcom_image_open("/dev/null", &img, &em));
	EXPECT_MSG(em, "/dev/null: not a regular file");
}

TEST_HARNESS_MAIN
