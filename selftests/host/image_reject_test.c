// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every way the IPUIMG1 reader refuses a file, with the message that says
 * what failed and where: header fields, truncation, trailing data, record
 * extents, overlaps and gaps between patch streams, the template record,
 * each patch-stream defect, patch counts, and every checksum (metadata,
 * template, per tile at extract / verify / frames). Then every single-byte
 * corruption of a small image: never a crash, always a named failure or
 * a correct image.
 *
 * Files are rebuilt from parts (struct parts) so that each test breaks
 * exactly one rule and keeps every other one, checksums included.
 */
#include "kselftest_harness.h"

#include <ipuxcom.h>

#include "image_testlib.h"

#define NT	4		/* tiles */
#define IS	64		/* image size */
#define MAXS	256		/* stream bytes per tile */

struct parts {
	uint32_t load_base, image_size, entry, tile_count, template_tile, tcrc;
	uint32_t area_extra;		/* bytes appended to the patch area */
	uint8_t tmpl[IS];
	uint8_t stream[NT][MAXS];
	uint32_t slen[NT];
	uint32_t rec_off[NT], rec_size[NT], rec_crc[NT], rec_count[NT];
	bool keep_offsets;		/* use rec_off/rec_size as set */
	bool keep_meta;			/* do not recompute the metadata CRC */
	uint32_t meta;
};

/* Append patch (off, size, bytes) to tile @t's stream. */
static void add_patch(struct parts *p, uint32_t t, uint32_t off, uint32_t size,
		      const void *bytes, uint32_t nbytes)
{
	uint8_t *s = p->stream[t] + p->slen[t];

	ixt_put_le32(s, off);
	ixt_put_le32(s + 4, size);
	memcpy(s + 8, bytes, nbytes);
	p->slen[t] += 8 + nbytes;
	p->rec_count[t]++;
}

/* A valid image: template = tile 0's image, tiles 1..3 with patches. */
static void valid_parts(struct parts *p)
{
	uint8_t img[IS];

	memset(p, 0, sizeof(*p));
	p->load_base = IPUXCOM_IMG_PAYLOAD_BASE;
	p->image_size = IS;
	p->entry = IPUXCOM_IMG_PAYLOAD_BASE;
	p->tile_count = NT;
	ixt_fill_random(p->tmpl, IS, 1);
	p->tcrc = ipuxcom_crc32(0, p->tmpl, IS);
	for (uint32_t t = 0; t < NT; t++) {
		memcpy(img, p->tmpl, IS);
		if (t) {
			uint8_t a[4] = { 1, 2, 3, (uint8_t)t }, b[2] = { 9, (uint8_t)t };

			add_patch(p, t, 4, 4, a, 4);
			add_patch(p, t, 40, 2, b, 2);
			memcpy(img + 4, a, 4);
			memcpy(img + 40, b, 2);
		}
		p->rec_crc[t] = ipuxcom_crc32(0, img, IS);
	}
}

/* Serialise: header, records, template, streams, extra. */
static uint8_t *build(struct parts *p, size_t *len)
{
	size_t area = 40 + (size_t)p->tile_count * 16 + p->image_size, total = area;
	uint8_t *d;
	uint32_t crc;

	for (uint32_t t = 0; t < NT; t++)
		total += p->slen[t];
	total += p->area_extra;
	d = calloc(1, total + (size_t)p->tile_count * 16 + 64);
	memcpy(d, "IPUIMG1\0", 8);
	ixt_put_le32(d + 8, p->load_base);
	ixt_put_le32(d + 12, p->image_size);
	ixt_put_le32(d + 16, p->entry);
	ixt_put_le32(d + 20, p->tile_count);
	ixt_put_le32(d + 24, p->template_tile);
	ixt_put_le32(d + 28, p->tcrc);
	ixt_put_le32(d + 32, (uint32_t)(total - area));
	{
		size_t cur = area, tmpl = 40 + (size_t)p->tile_count * 16;

		for (uint32_t t = 0; t < NT; t++) {
			if (!p->keep_offsets) {
				p->rec_off[t] = (uint32_t)cur;
				p->rec_size[t] = p->slen[t];
			}
			if (t < p->tile_count) {
				uint8_t *r = d + 40 + t * 16;

				ixt_put_le32(r, p->rec_off[t]);
				ixt_put_le32(r + 4, p->rec_size[t]);
				ixt_put_le32(r + 8, p->rec_crc[t]);
				ixt_put_le32(r + 12, p->rec_count[t]);
			}
			memcpy(d + cur, p->stream[t], p->slen[t]);
			cur += p->slen[t];
		}
		if (p->image_size <= IS)
			memcpy(d + tmpl, p->tmpl, p->image_size);
	}
	crc = ipuxcom_crc32(0, d, 36);
	crc = ipuxcom_crc32(crc, d + 40, (size_t)p->tile_count * 16);
	ixt_put_le32(d + 36, p->keep_meta ? p->meta : crc);
	*len = total;
	return d;
}

/* Build @p and expect the reader to refuse it with @err and @msg. */
#define EXPECT_REJECT(_p, _err, _msg) do {					\
	struct ipuxcom_image *_img = (void *)1;				\
	struct ipuxcom_errmsg _em;						\
	size_t _len;								\
	uint8_t *_d = build((_p), &_len);					\
										\
	EXPECT_EQ((_err), ipuxcom_image_from_buffer(_d, _len, &_img, &_em));	\
	EXPECT_EQ(NULL, _img);							\
	EXPECT_MSG(_em, (_msg));						\
	free(_d);								\
} while (0)

TEST(the_valid_image_is_valid)
{
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	struct parts p;
	uint8_t *d;
	size_t len;

	valid_parts(&p);
	d = build(&p, &len);
	ASSERT_EQ(0, ipuxcom_image_from_buffer(d, len, &img, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(0, ipuxcom_image_verify(img, &em)) TH_LOG("%s", em.msg);
	ipuxcom_image_free(img);
	free(d);
}

TEST(short_and_bad_magic)
{
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	struct parts p;
	uint8_t *d;
	size_t len;

	valid_parts(&p);
	d = build(&p, &len);
	EXPECT_EQ(-EBADMSG, ipuxcom_image_from_buffer(d, 0, &img, &em));
	EXPECT_MSG(em, "truncated: 0 bytes, shorter than the 40-byte IPUIMG1 header");
	EXPECT_EQ(-EBADMSG, ipuxcom_image_from_buffer(d, 39, &img, &em));
	EXPECT_MSG(em, "truncated: 39 bytes");
	d[6] = '2';
	EXPECT_EQ(-EBADMSG, ipuxcom_image_from_buffer(d, len, &img, &em));
	EXPECT_MSG(em, "bad magic 'IPUIMG2\\x00' (expected 'IPUIMG1\\x00')");
	d[6] = '1';
	d[7] = 'x';
	EXPECT_EQ(-EBADMSG, ipuxcom_image_from_buffer(d, len, &img, &em));
	EXPECT_MSG(em, "bad magic 'IPUIMG1x'");
	free(d);
}

TEST(header_fields)
{
	struct parts p;

	valid_parts(&p);
	p.tile_count = 0;
	EXPECT_REJECT(&p, -EBADMSG, "header: tile count 0 outside 1..1472");
	valid_parts(&p);
	p.tile_count = 1473;
	EXPECT_REJECT(&p, -EBADMSG, "header: tile count 1473 outside 1..1472");
	valid_parts(&p);
	p.image_size = 0;
	EXPECT_REJECT(&p, -EBADMSG, "header: image size 0x0 outside 0x1..0x9c000");
	valid_parts(&p);
	p.image_size = 0x9c001;
	EXPECT_REJECT(&p, -EBADMSG, "header: image size 0x9c001 outside 0x1..0x9c000");
	valid_parts(&p);
	p.load_base = 0x4bff0;
	p.entry = 0x4bff0;
	EXPECT_REJECT(&p, -EBADMSG,
		      "header: load range [0x4bff0, 0x4c030) outside tile SRAM [0x4c000, 0xe8000)");
	valid_parts(&p);
	p.load_base = 0xe7fd0;
	p.entry = 0xe7fd0;
	EXPECT_REJECT(&p, -EBADMSG, "header: load range [0xe7fd0, 0xe8010) outside tile SRAM");
	valid_parts(&p);
	p.entry = IPUXCOM_IMG_PAYLOAD_BASE + 2;
	EXPECT_REJECT(&p, -EBADMSG, "header: entry point 0x4c012 is not 4-byte aligned");
	valid_parts(&p);
	p.entry = IPUXCOM_IMG_PAYLOAD_BASE + IS;
	EXPECT_REJECT(&p, -EBADMSG, "header: entry point 0x4c050 outside the image "
		      "[0x4c010, 0x4c050)");
	valid_parts(&p);
	p.entry = IPUXCOM_IMG_PAYLOAD_BASE - 4;
	EXPECT_REJECT(&p, -EBADMSG, "header: entry point 0x4c00c outside the image");
	valid_parts(&p);
	p.template_tile = NT;
	EXPECT_REJECT(&p, -EBADMSG, "header: template tile 4 outside 0..3");
}

TEST(truncation_and_trailing_data)
{
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	struct parts p;
	uint8_t *d;
	size_t len;

	valid_parts(&p);
	d = build(&p, &len);
	EXPECT_EQ(-EBADMSG, ipuxcom_image_from_buffer(d, len - 1, &img, &em));
	EXPECT_MSG(em, "truncated: the header describes 0x");
	EXPECT_MSG(em, "(header, 4 records, 0x40-byte template, 0x");
	/* Cut inside the records. */
	EXPECT_EQ(-EBADMSG, ipuxcom_image_from_buffer(d, 50, &img, &em));
	EXPECT_MSG(em, "the file has 0x32");
	free(d);
	d = calloc(1, len + 3);
	free(build(&p, &len));
	{
		uint8_t *src = build(&p, &len);

		memcpy(d, src, len);
		free(src);
	}
	EXPECT_EQ(-EBADMSG, ipuxcom_image_from_buffer(d, len + 3, &img, &em));
	EXPECT_MSG(em, "0x3 bytes of trailing data after the patch area");
	free(d);
}

TEST(record_extents)
{
	struct parts p;
	size_t len;

	/* Extent past the end of the file. */
	valid_parts(&p);
	free(build(&p, &len));
	p.keep_offsets = true;
	p.rec_size[3] += 0x1000;
	{
		char want[128];

		snprintf(want, sizeof(want),
			 "tile 3 record: patch extent 0x%x+0x%x exceeds file size 0x%zx",
			 p.rec_off[3], p.rec_size[3], len);
		EXPECT_REJECT(&p, -EBADMSG, want);
	}
	/* Starting inside the template. */
	valid_parts(&p);
	free(build(&p, &len));
	p.keep_offsets = true;
	p.rec_off[0] = 40;
	EXPECT_REJECT(&p, -EBADMSG, "tile 0 record: patch extent 0x28+0x0 starts before the "
		      "patch area at 0xa8");
	/* Overlapping the previous tile's stream. */
	valid_parts(&p);
	free(build(&p, &len));
	p.keep_offsets = true;
	p.rec_off[2] -= 4;
	EXPECT_REJECT(&p, -EBADMSG, "tile 2 record: patch extent");
	EXPECT_REJECT(&p, -EBADMSG, "overlaps the patches before it, which end at 0x");
	/* A gap after it. */
	valid_parts(&p);
	free(build(&p, &len));
	p.keep_offsets = true;
	p.rec_off[2] += 4;
	p.rec_size[2] -= 4;
	EXPECT_REJECT(&p, -EBADMSG, "tile 2 record: patch extent");
	EXPECT_REJECT(&p, -EBADMSG, "leaves a gap of 0x4 bytes after the patches before it");
	/* Bytes in the patch area that no record covers. */
	valid_parts(&p);
	p.area_extra = 5;
	EXPECT_REJECT(&p, -EBADMSG, "patch area: the records cover 0x");
}

TEST(template_record)
{
	struct parts p;

	valid_parts(&p);
	p.template_tile = 2;
	p.tcrc = p.rec_crc[2];
	EXPECT_REJECT(&p, -EBADMSG, "tile 2 record: the template tile has a 0x16-byte stream "
		      "of 2 patches; it must have none");
	valid_parts(&p);
	p.rec_crc[0] ^= 1;
	EXPECT_REJECT(&p, -EBADMSG, "tile 0 record: CRC32");
	EXPECT_REJECT(&p, -EBADMSG, "of the template tile differs from the header's template "
		      "CRC32");
}

TEST(patch_streams)
{
	uint8_t x[16] = { 0 };
	struct parts p;

	/* Fewer than 8 bytes left for a patch header. */
	valid_parts(&p);
	memset(p.stream[1] + p.slen[1], 0, 4);
	p.slen[1] += 4;
	EXPECT_REJECT(&p, -EBADMSG, "tile 1 patch 2 at file offset 0x");
	EXPECT_REJECT(&p, -EBADMSG, "truncated patch header (4 of 8 bytes left in the stream)");
	/* An empty patch. */
	valid_parts(&p);
	add_patch(&p, 2, 50, 0, x, 0);
	EXPECT_REJECT(&p, -EBADMSG, "tile 2 patch 2 at file offset");
	EXPECT_REJECT(&p, -EBADMSG, "empty patch (size 0) at image offset 0x32");
	/* Reaching past the image. */
	valid_parts(&p);
	add_patch(&p, 3, 60, 8, x, 8);
	EXPECT_REJECT(&p, -EBADMSG, "tile 3 patch 2 at file offset");
	EXPECT_REJECT(&p, -EBADMSG, "range 0x3c+0x8 exceeds the image size 0x40");
	valid_parts(&p);
	add_patch(&p, 3, 0xfffffff0u, 0x20, x, 0);
	EXPECT_REJECT(&p, -EBADMSG, "range 0xfffffff0+0x20 exceeds the image size 0x40");
	/* Overlapping, and out of order. */
	valid_parts(&p);
	add_patch(&p, 1, 41, 2, x, 2);
	EXPECT_REJECT(&p, -EBADMSG, "tile 1 patch 2 at file offset");
	EXPECT_REJECT(&p, -EBADMSG, "range 0x29+0x2 overlaps patch 1 ending at 0x2a (patches "
		      "must be sorted and disjoint)");
	valid_parts(&p);
	add_patch(&p, 1, 0, 1, x, 1);
	EXPECT_REJECT(&p, -EBADMSG, "range 0x0+0x1 overlaps patch 1 ending at 0x2a");
	/* Adjacent is fine (not canonical, but valid). */
	{
		struct ipuxcom_image *img;
		struct ipuxcom_errmsg em;
		uint8_t *d;
		size_t len;

		valid_parts(&p);
		add_patch(&p, 1, 42, 1, "\x2a", 1);
		{
			uint8_t img2[IS];

			memcpy(img2, p.tmpl, IS);
			memcpy(img2 + 4, "\x01\x02\x03\x01", 4);
			memcpy(img2 + 40, "\x09\x01\x2a", 3);
			p.rec_crc[1] = ipuxcom_crc32(0, img2, IS);
		}
		d = build(&p, &len);
		ASSERT_EQ(0, ipuxcom_image_from_buffer(d, len, &img, &em)) TH_LOG("%s", em.msg);
		EXPECT_EQ(0, ipuxcom_image_verify(img, &em)) TH_LOG("%s", em.msg);
		ipuxcom_image_free(img);
		free(d);
	}
	/* Data running past the tile's stream. */
	valid_parts(&p);
	add_patch(&p, 2, 50, 12, x, 4);
	EXPECT_REJECT(&p, -EBADMSG, "tile 2 patch 2 at file offset");
	EXPECT_REJECT(&p, -EBADMSG, "0xc data bytes but only 0x4 left in the tile's stream "
		      "(truncated)");
	/* The record's count disagrees with the stream. */
	valid_parts(&p);
	p.rec_count[3] = 3;
	EXPECT_REJECT(&p, -EBADMSG, "tile 3 record: patch count 3 but its 0x16-byte stream holds "
		      "2 patches");
	valid_parts(&p);
	p.rec_count[0] = 1;
	EXPECT_REJECT(&p, -EBADMSG, "tile 0 record: the template tile has a 0x0-byte stream of 1 "
		      "patches");
}

TEST(checksums_at_open)
{
	struct parts p;

	valid_parts(&p);
	p.keep_meta = true;
	p.meta = 0x12345678;
	EXPECT_REJECT(&p, -EBADMSG, "header: metadata CRC32 0x12345678 does not match 0x");
	EXPECT_REJECT(&p, -EBADMSG, "computed over header bytes 0-35 and the record table");
	valid_parts(&p);
	p.tmpl[10] ^= 0x40;
	EXPECT_REJECT(&p, -EBADMSG, "template image (tile 0, file offset 0x68): CRC32 0x");
	EXPECT_REJECT(&p, -EBADMSG, "does not match the header's 0x");
}

/* A tile's own CRC32 is checked whenever the tile is reconstructed. */
TEST(tile_checksums)
{
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	struct parts p;
	uint8_t buf[IS], *d, *frames;
	size_t len, fsize;

	valid_parts(&p);
	p.rec_crc[2] ^= 0x100;
	d = build(&p, &len);
	ASSERT_EQ(0, ipuxcom_image_from_buffer(d, len, &img, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(0, ipuxcom_image_extract(img, 1, buf, sizeof(buf), &em));
	EXPECT_EQ(-EBADMSG, ipuxcom_image_extract(img, 2, buf, sizeof(buf), &em));
	EXPECT_MSG(em, "tile 2 image: CRC32 0x");
	EXPECT_MSG(em, "derived from the template and patches does not match the record's 0x");
	EXPECT_EQ(-EBADMSG, ipuxcom_image_verify_tile(img, 2, &em));
	EXPECT_MSG(em, "of the reconstructed bytes does not match the record's");
	EXPECT_EQ(-EBADMSG, ipuxcom_image_verify(img, &em));
	EXPECT_MSG(em, "tile 2 image:");
	EXPECT_EQ(0, ipuxcom_image_verify_tile(img, 3, &em));
	ASSERT_EQ(0, ipuxcom_frames_batch_size(img, 0, 3, &fsize, &em));
	frames = malloc(fsize);
	EXPECT_EQ(-EBADMSG, ipuxcom_frames_build(img, 0, 3, frames, fsize, &em));
	EXPECT_MSG(em, "tile 2 image: CRC32");
	free(frames);
	ipuxcom_image_free(img);
	free(d);

	/* Patch bytes are not under the metadata CRC: the tile's catches them. */
	valid_parts(&p);
	d = build(&p, &len);
	d[len - 1] ^= 1;	/* tile 3's last patch byte */
	ASSERT_EQ(0, ipuxcom_image_from_buffer(d, len, &img, &em));
	EXPECT_EQ(-EBADMSG, ipuxcom_image_extract(img, 3, buf, sizeof(buf), &em));
	EXPECT_MSG(em, "tile 3 image: CRC32");
	ipuxcom_image_free(img);
	free(d);
}

TEST(bad_arguments)
{
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	struct parts p;
	uint8_t buf[IS], *d;
	size_t len;

	valid_parts(&p);
	d = build(&p, &len);
	EXPECT_EQ(-EINVAL, ipuxcom_image_from_buffer(NULL, 5, &img, &em));
	EXPECT_EQ(-EINVAL, ipuxcom_image_from_buffer(d, len, NULL, &em));
	ASSERT_EQ(0, ipuxcom_image_from_buffer(d, len, &img, NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_image_extract(img, 4, buf, sizeof(buf), &em));
	EXPECT_MSG(em, "tile 4 outside 0..3");
	EXPECT_EQ(-EINVAL, ipuxcom_image_extract(img, 0, buf, IS - 1, &em));
	EXPECT_MSG(em, "buffer of 63 bytes, the image has 64");
	EXPECT_EQ(-EINVAL, ipuxcom_image_extract(img, 0, NULL, IS, &em));
	EXPECT_EQ(-EINVAL, ipuxcom_image_verify_tile(img, 9, &em));
	EXPECT_EQ(-EINVAL, ipuxcom_image_verify(NULL, &em));
	ipuxcom_image_free(img);
	ipuxcom_image_free(NULL);
	free(d);
}

/*
 * Every single-byte corruption (three different values per byte) either
 * opens to an image whose tiles all extract and verify, or fails with a
 * message; never anything else. ASan checks the reads.
 */
TEST(every_byte_corruption_is_handled)
{
	static const uint8_t xors[] = { 0x01, 0x80, 0xff };
	struct parts p;
	uint8_t *good, *d, buf[IS];
	size_t len;
	unsigned int opened = 0, refused = 0;

	valid_parts(&p);
	good = build(&p, &len);
	d = malloc(len);
	for (size_t i = 0; i < len; i++) {
		for (size_t k = 0; k < sizeof(xors); k++) {
			struct ipuxcom_image *img = NULL;
			struct ipuxcom_errmsg em;
			int err;

			memcpy(d, good, len);
			d[i] ^= xors[k];
			err = ipuxcom_image_from_buffer(d, len, &img, &em);
			if (err) {
				ASSERT_EQ(-EBADMSG, err) TH_LOG("byte %zu: %s", i, em.msg);
				ASSERT_NE(0, em.msg[0]);
				refused++;
				continue;
			}
			opened++;
			for (uint32_t t = 0; t < NT; t++) {
				err = ipuxcom_image_extract(img, t, buf, sizeof(buf), &em);
				ASSERT_TRUE(err == 0 || err == -EBADMSG) TH_LOG("byte %zu", i);
				ASSERT_EQ(err, ipuxcom_image_verify_tile(img, t, &em))
					TH_LOG("byte %zu tile %u: %s", i, t, em.msg);
			}
			ipuxcom_image_free(img);
		}
	}
	/* Header, records and template are covered by CRCs: refused. */
	EXPECT_GT(refused, 3 * (40 + NT * 16 + IS) - 1);
	TH_LOG("%u corruptions refused at open, %u opened (patch bytes)", refused, opened);
	free(d);
	free(good);
}

TEST_HARNESS_MAIN
