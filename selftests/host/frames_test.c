// SPDX-License-Identifier: GPL-2.0-only
/*
 * Secondary-loader frames [S "Secondary Loader Frames"]: the notes' known
 * check (212,980-byte image: 215 frames, 220,160 bytes per tile), the
 * descriptor table of a full 64-tile batch (1408..1471, holding the
 * notes' tile 1409), every frame field decoded by an independent reader
 * in this file, partial ranges (each tile in descriptor slot
 * tile - batch start; ranges crossing a 64-tile batch refused), the
 * minimum payload envelope and the 17..643 frame-count range, the
 * load-base rule, and argument errors.
 */
#include "kselftest_harness.h"

#include <ipuxcom.h>

#include "image_testlib.h"

#define NOTES_IMAGE	212980u		/* [S] */
#define NOTES_FRAMES	215u		/* [S] */
#define NOTES_BYTES	220160u		/* [S] */

/* Images made on the fly: shared code plus per-tile words. */
struct gen {
	uint8_t *shared;
	uint8_t *buf;
	size_t size;
};

static int gen_get(void *ctx, uint32_t tile, const void **image, struct ipuxcom_errmsg *em)
{
	struct gen *g = ctx;

	ixt_synth_tile(g->buf, g->size, g->shared, tile);
	*image = g->buf;
	return 0;
}

static struct ipuxcom_image *make_image(uint32_t tiles, uint32_t size, uint32_t base)
{
	struct gen g = { malloc(size), malloc(size), size };
	struct ipuxcom_image_pack_params p = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = tiles, .image_size = size, .load_base = base, .entry = base,
		.template_tile = 0,
	};
	struct ipuxcom_image *img = NULL;
	struct ipuxcom_errmsg em;
	void *data;
	size_t len;

	ixt_fill_random(g.shared, size, size);
	if (!ipuxcom_image_pack(&p, gen_get, &g, &data, &len, &em)) {
		ipuxcom_image_from_buffer(data, len, &img, &em);
		free(data);
	}
	free(g.shared);
	free(g.buf);
	return img;
}

/*
 * Independent decoder: check every frame of the tile described by
 * descriptor @i and compare its payload with the tile's image.
 */
static void check_tile_frames(struct __test_metadata *_metadata, const uint8_t *buf,
			      size_t size, uint32_t i, uint32_t tile, const uint8_t *image,
			      uint32_t isize, uint32_t want_frames)
{
	uint32_t off = ixt_le32(buf + i * 8), n = ixt_le32(buf + i * 8 + 4);

	ASSERT_EQ(want_frames, n);
	ASSERT_LE((size_t)off + (size_t)n * 1024, size);
	for (uint32_t f = 0; f < n; f++) {
		const uint8_t *fr = buf + off + (size_t)f * 1024;
		uint32_t start = f * 992;

		ASSERT_EQ(f, ixt_le32(fr)) TH_LOG("chunk index");
		ASSERT_EQ(tile, ixt_le32(fr + 4)) TH_LOG("tile id");
		/* flags: byte 11 = 8 on the final frame only */
		ASSERT_EQ(0, fr[8] | fr[9] | fr[10]);
		ASSERT_EQ(f + 1 == n ? 8 : 0, fr[11]) TH_LOG("tile %u frame %u", tile, f);
		ASSERT_EQ(0u, ixt_le32(fr + 12)) TH_LOG("reserved");
		for (uint32_t k = 0; k < 992; k++) {
			uint8_t want = start + k < isize ? image[start + k] : 0;

			ASSERT_EQ(want, fr[16 + k]) TH_LOG("tile %u frame %u byte %u", tile, f, k);
		}
		for (uint32_t k = 1008; k < 1024; k++) {
			ASSERT_EQ(0xff, fr[k]) TH_LOG("trailer");
		}
	}
}

TEST(notes_known_check)
{
	struct ipuxcom_errmsg em;
	uint32_t n;

	ASSERT_EQ(0, ipuxcom_frames_per_tile(NOTES_IMAGE, &n, &em));
	EXPECT_EQ(NOTES_FRAMES, n);
	EXPECT_EQ(NOTES_BYTES, n * IPUXCOM_FRAME_SIZE);
	/* Frame arithmetic around the edges. */
	ASSERT_EQ(0, ipuxcom_frames_per_tile(215 * 992, &n, &em));
	EXPECT_EQ(215u, n);
	ASSERT_EQ(0, ipuxcom_frames_per_tile(215 * 992 + 1, &n, &em));
	EXPECT_EQ(216u, n);
}

/* The minimum payload envelope: 0x4134 bytes = 17 frames at least. */
TEST(minimum_envelope)
{
	struct ipuxcom_errmsg em;
	uint32_t n;

	ASSERT_EQ(0, ipuxcom_frames_per_tile(1, &n, &em));
	EXPECT_EQ(17u, n);
	EXPECT_GE(n, 2u);	/* never the one-frame application the loader ignores */
	ASSERT_EQ(0, ipuxcom_frames_per_tile(0x4134, &n, &em));
	EXPECT_EQ(17u, n);
	ASSERT_EQ(0, ipuxcom_frames_per_tile(17 * 992 + 1, &n, &em));
	EXPECT_EQ(18u, n);
	EXPECT_EQ(-EINVAL, ipuxcom_frames_per_tile(0, &n, &em));
	EXPECT_MSG(em, "an empty image has no frames");
}

/*
 * The frame-count range the library writes and the module accepts:
 * 17 (ceil(0x4134 / 992)) for the smallest image, 643 for the largest.
 */
TEST(frame_count_range)
{
	struct ipuxcom_errmsg em;
	char want[64];
	uint32_t n;

	EXPECT_EQ(17u, IPUXCOM_FRAMES_MIN_PER_TILE);
	EXPECT_EQ(643u, IPUXCOM_FRAMES_MAX_PER_TILE);
	EXPECT_EQ(IPUXCOM_FRAMES_MIN_PER_TILE,
		  (0x4134 + IPUXCOM_FRAME_PAYLOAD - 1) / IPUXCOM_FRAME_PAYLOAD);
	ASSERT_EQ(0, ipuxcom_frames_per_tile(1, &n, &em));
	EXPECT_EQ(IPUXCOM_FRAMES_MIN_PER_TILE, n);
	ASSERT_EQ(0, ipuxcom_frames_per_tile(IPUXCOM_FRAMES_MAX_PER_TILE * IPUXCOM_FRAME_PAYLOAD,
					     &n, &em));
	EXPECT_EQ(IPUXCOM_FRAMES_MAX_PER_TILE, n);
	EXPECT_EQ(-EFBIG, ipuxcom_frames_per_tile(IPUXCOM_FRAMES_MAX_PER_TILE *
						  IPUXCOM_FRAME_PAYLOAD + 1, &n, &em));
	EXPECT_EQ(0u, n);
	/* The module's reason for a bad count names the same range. */
	snprintf(want, sizeof(want), "frame count outside %u..%u", IPUXCOM_FRAMES_MIN_PER_TILE,
		 IPUXCOM_FRAMES_MAX_PER_TILE);
	EXPECT_STREQ(want, ipuxcom_frame_error_name(IPUXCOM_FRAME_ERR_DESC_COUNT));
	EXPECT_STREQ("frame count outside 17..643",
		     ipuxcom_frame_error_name(IPUXCOM_FRAME_ERR_DESC_COUNT));
}

TEST(frame_limit)
{
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	uint32_t n;
	size_t size;

	ASSERT_EQ(0, ipuxcom_frames_per_tile(643 * 992, &n, &em));
	EXPECT_EQ(643u, n);
	EXPECT_EQ(-EFBIG, ipuxcom_frames_per_tile(643 * 992 + 1, &n, &em));
	EXPECT_MSG(em, "an image of 0x9bba1 bytes needs 644 frames; the secondary loader takes "
		   "at most 643 per tile (0x9bba0 bytes)");
	/* A valid IPUIMG1 (fits in SRAM) that the loader cannot take. */
	img = make_image(1, 643 * 992 + 4, IPUXCOM_IMG_PAYLOAD_BASE);
	ASSERT_NE(NULL, img);
	EXPECT_EQ(-EFBIG, ipuxcom_frames_batch_size(img, 0, 0, &size, &em));
	EXPECT_MSG(em, "needs 644 frames");
	ipuxcom_image_free(img);
}

FIXTURE(notes) {
	struct ipuxcom_image *img;
};

FIXTURE_SETUP(notes)
{
	self->img = make_image(IPUXCOM_IMG_TILES, NOTES_IMAGE, IPUXCOM_IMG_PAYLOAD_BASE);
	ASSERT_NE(NULL, self->img);
}

FIXTURE_TEARDOWN(notes)
{
	ipuxcom_image_free(self->img);
}

/* The last 64-tile batch (1408..1471), tile 1409 among them. */
TEST_F(notes, full_batch_descriptor_table_and_frames)
{
	struct ipuxcom_errmsg em;
	uint8_t *buf, *image = malloc(NOTES_IMAGE);
	size_t size;

	ASSERT_EQ(0, ipuxcom_frames_batch_size(self->img, 1408, 1471, &size, &em));
	EXPECT_EQ(0x1000 + 64 * (size_t)NOTES_BYTES, size);
	buf = malloc(size + 64);
	memset(buf, 0x33, size + 64);
	ASSERT_EQ(0, ipuxcom_frames_build(self->img, 1408, 1471, buf, size + 64, &em))
		TH_LOG("%s", em.msg);
	/* 64 entries {offset, count}, then zeros up to 0x1000. */
	for (uint32_t i = 0; i < 64; i++) {
		EXPECT_EQ(0x1000 + i * NOTES_BYTES, ixt_le32(buf + i * 8));
		EXPECT_EQ(NOTES_FRAMES, ixt_le32(buf + i * 8 + 4));
	}
	for (size_t k = 512; k < 0x1000; k++) {
		ASSERT_EQ(0, buf[k]) TH_LOG("descriptor area byte 0x%zx", k);
	}
	for (uint32_t i = 0; i < 64; i++) {
		ASSERT_EQ(0, ipuxcom_image_extract(self->img, 1408 + i, image, NOTES_IMAGE, &em));
		check_tile_frames(_metadata, buf, size, i, 1408 + i, image, NOTES_IMAGE,
				  NOTES_FRAMES);
	}
	/* Nothing past the batch is touched. */
	for (size_t k = size; k < size + 64; k++) {
		ASSERT_EQ(0x33, buf[k]);
	}
	free(buf);
	free(image);
}

/*
 * The notes' byte-compared case: tile 1409 alone, 220,160 bytes of frames,
 * described by slot 1 of its batch (1408..1471), as in a real batch.
 */
TEST_F(notes, single_tile_1409)
{
	struct ipuxcom_errmsg em;
	uint8_t *buf, *image = malloc(NOTES_IMAGE);
	size_t size;

	ASSERT_EQ(0, ipuxcom_frames_batch_size(self->img, 1409, 1409, &size, &em));
	EXPECT_EQ(0x1000 + (size_t)NOTES_BYTES, size);
	buf = malloc(size);
	memset(buf, 0x5a, size);
	ASSERT_EQ(0, ipuxcom_frames_build(self->img, 1409, 1409, buf, size, &em));
	EXPECT_EQ(0x1000u, ixt_le32(buf + 8));
	EXPECT_EQ(NOTES_FRAMES, ixt_le32(buf + 12));
	for (size_t k = 0; k < 0x1000; k++) {
		if (k >= 8 && k < 16)
			continue;
		ASSERT_EQ(0, buf[k]) TH_LOG("descriptor area byte 0x%zx", k);
	}
	ASSERT_EQ(0, ipuxcom_image_extract(self->img, 1409, image, NOTES_IMAGE, &em));
	check_tile_frames(_metadata, buf, size, 1, 1409, image, NOTES_IMAGE, NOTES_FRAMES);
	free(buf);
	free(image);
}

/*
 * A range not starting on a 64-tile boundary: 70..75 is in batch 1
 * (64..127), so tile 70 is in slot 6 .. tile 75 in slot 11; slots 0..5
 * and 12..63 stay zero (also over a dirty buffer), and the frames start
 * at 0x1000, tile after tile.
 */
TEST_F(notes, unaligned_range_slots)
{
	struct ipuxcom_errmsg em;
	uint8_t *buf, *image = malloc(NOTES_IMAGE);
	size_t size;

	ASSERT_EQ(0, ipuxcom_frames_batch_size(self->img, 70, 75, &size, &em));
	EXPECT_EQ(0x1000 + 6 * (size_t)NOTES_BYTES, size);
	buf = malloc(size);
	memset(buf, 0xa5, size);
	ASSERT_EQ(0, ipuxcom_frames_build(self->img, 70, 75, buf, size, &em)) TH_LOG("%s", em.msg);
	for (uint32_t slot = 0; slot < 64; slot++) {
		uint32_t off = ixt_le32(buf + slot * 8), n = ixt_le32(buf + slot * 8 + 4);

		if (slot >= 6 && slot <= 11) {
			EXPECT_EQ(0x1000 + (slot - 6) * NOTES_BYTES, off) TH_LOG("slot %u", slot);
			EXPECT_EQ(NOTES_FRAMES, n) TH_LOG("slot %u", slot);
		} else {
			EXPECT_EQ(0u, off) TH_LOG("slot %u", slot);
			EXPECT_EQ(0u, n) TH_LOG("slot %u", slot);
		}
	}
	for (size_t k = 512; k < 0x1000; k++) {
		ASSERT_EQ(0, buf[k]) TH_LOG("descriptor area byte 0x%zx", k);
	}
	EXPECT_EQ(70u, ixt_le32(buf + 0x1000 + 4));	/* first frame: tile 70 */
	for (uint32_t t = 70; t <= 75; t++) {
		ASSERT_EQ(0, ipuxcom_image_extract(self->img, t, image, NOTES_IMAGE, &em));
		check_tile_frames(_metadata, buf, size, t - 64, t, image, NOTES_IMAGE,
				  NOTES_FRAMES);
	}
	/* The last tile of a batch alone: slot 63. */
	ASSERT_EQ(0, ipuxcom_frames_build(self->img, 127, 127, buf, size, &em));
	EXPECT_EQ(0x1000u, ixt_le32(buf + 63 * 8));
	EXPECT_EQ(NOTES_FRAMES, ixt_le32(buf + 63 * 8 + 4));
	EXPECT_EQ(0u, ixt_le32(buf));
	EXPECT_EQ(0u, ixt_le32(buf + 4));
	free(buf);
	free(image);
}

/* One descriptor table is one batch: a range across a boundary is refused. */
TEST_F(notes, range_across_batches_refused)
{
	struct ipuxcom_errmsg em;
	uint8_t *buf = malloc(0x1000);
	size_t size = 1;

	memset(buf, 0x11, 0x1000);
	EXPECT_EQ(-EINVAL, ipuxcom_frames_batch_size(self->img, 60, 67, &size, &em));
	EXPECT_EQ(0u, size);
	EXPECT_MSG(em, "tiles 60..67 cross a 64-tile batch boundary (tile 60 is in batch 0, "
		   "tile 67 in batch 1); one descriptor table describes one batch");
	EXPECT_EQ(-EINVAL, ipuxcom_frames_build(self->img, 63, 64, buf, 0x1000, &em));
	EXPECT_MSG(em, "tiles 63..64 cross a 64-tile batch boundary (tile 63 is in batch 0, "
		   "tile 64 in batch 1)");
	/* Nothing written on refusal. */
	for (size_t k = 0; k < 0x1000; k++) {
		ASSERT_EQ(0x11, buf[k]);
	}
	/* Whole batches are fine, 64 tiles each. */
	ASSERT_EQ(0, ipuxcom_frames_batch_size(self->img, 64, 127, &size, &em));
	EXPECT_EQ(0x1000 + 64 * (size_t)NOTES_BYTES, size);
	free(buf);
}

TEST_F(notes, range_and_buffer_errors)
{
	struct ipuxcom_errmsg em;
	uint8_t small[0x1000];
	size_t size;

	EXPECT_EQ(-EINVAL, ipuxcom_frames_batch_size(self->img, 5, 4, &size, &em));
	EXPECT_MSG(em, "first tile 5 after last tile 4");
	EXPECT_EQ(-EINVAL, ipuxcom_frames_batch_size(self->img, 1470, 1472, &size, &em));
	EXPECT_MSG(em, "tile 1472 outside the image's tiles 0..1471");
	EXPECT_EQ(-EINVAL, ipuxcom_frames_batch_size(self->img, 0, 64, &size, &em));
	EXPECT_MSG(em, "tiles 0..64 cross a 64-tile batch boundary");
	EXPECT_EQ(-EINVAL, ipuxcom_frames_build(self->img, 0, 0, small, sizeof(small), &em));
	EXPECT_MSG(em, "buffer of 4096 bytes; tiles 0..0 need 224256");
	EXPECT_EQ(-EINVAL, ipuxcom_frames_build(self->img, 0, 0, NULL, 1 << 20, &em));
	EXPECT_EQ(-EINVAL, ipuxcom_frames_batch_size(NULL, 0, 0, &size, &em));
}

/* A small image is padded with zeros to the 0x4134-byte envelope. */
TEST(small_image_envelope)
{
	struct ipuxcom_image *img = make_image(3, 1000, IPUXCOM_IMG_PAYLOAD_BASE);
	struct ipuxcom_errmsg em;
	uint8_t *buf, image[1000];
	size_t size;

	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, ipuxcom_frames_batch_size(img, 0, 2, &size, &em));
	EXPECT_EQ(0x1000 + 3 * 17 * 1024u, size);
	buf = malloc(size);
	memset(buf, 0x77, size);
	ASSERT_EQ(0, ipuxcom_frames_build(img, 0, 2, buf, size, &em));
	for (uint32_t i = 0; i < 3; i++) {
		ASSERT_EQ(0, ipuxcom_image_extract(img, i, image, sizeof(image), &em));
		check_tile_frames(_metadata, buf, size, i, i, image, sizeof(image), 17);
	}
	free(buf);
	ipuxcom_image_free(img);
}

/* The loader installs payload at 0x4c010: other bases cannot be framed. */
TEST(load_base_must_be_the_payload_base)
{
	struct ipuxcom_image *img = make_image(2, 4096, IPUXCOM_IMG_SRAM_BASE);
	struct ipuxcom_errmsg em;
	size_t size;

	ASSERT_NE(NULL, img);
	EXPECT_EQ(-EINVAL, ipuxcom_frames_batch_size(img, 0, 1, &size, &em));
	EXPECT_MSG(em, "image load base 0x4c000: the secondary loader installs payload at 0x4c010");
	ipuxcom_image_free(img);
}

TEST_HARNESS_MAIN
