// SPDX-License-Identifier: GPL-2.0-only
/*
 * Entry redirect [S "Compact Physical Image"]: "nop; sync3" at the entry
 * stay, the next two words become setzi $m0, target; br $m0 (encodings
 * HW-INSN-FIXED), the target is the word after the unique marker and its
 * sync3; a missing, repeated or malformed marker is refused. Then the
 * same over a whole IPUIMG1, tile by tile.
 */
#include "kselftest_harness.h"

#include <ipuxcom.h>

#include "image_testlib.h"

#define SIZE	4096u
#define BASE	IPUXCOM_IMG_PAYLOAD_BASE
#define M0	0xfeedf00du
#define M1	0x0badcafeu
#define SYNC3	0x41800003u

/* nop; sync3 at @entry_off, marker + sync3 at @marker_off. */
static void make_raw(uint8_t *img, uint32_t entry_off, uint32_t marker_off, uint64_t seed)
{
	ixt_fill_random(img, SIZE, seed);
	ixt_put_le32(img + entry_off, 0x12345678);
	ixt_put_le32(img + entry_off + 4, SYNC3);
	if (marker_off != UINT32_MAX) {
		ixt_put_le32(img + marker_off, M0);
		ixt_put_le32(img + marker_off + 4, M1);
		ixt_put_le32(img + marker_off + 8, SYNC3);
	}
}

static const struct ipuxcom_redirect_spec by_marker = {
	.size = sizeof(struct ipuxcom_redirect_spec), .by_marker = true, .marker = { M0, M1 },
};

TEST(encodings_from_facts)
{
	/* HW-INSN-FIXED: setzi $mN, imm = 0x19000000 | N << 20 | imm; br $mN = ... | N << 20 */
	EXPECT_EQ(0x1904c11cu, IPUXCOM_INSN_SETZI_M0(0x4c11c));
	EXPECT_EQ(0x43000000u, IPUXCOM_INSN_BR_M0);
	EXPECT_EQ(0x41800003u, IPUXCOM_INSN_SYNC_SUPERVISOR);
}

TEST(redirect_by_marker)
{
	uint8_t img[SIZE], orig[SIZE];
	struct ipuxcom_errmsg em;
	uint32_t target = 0;

	make_raw(img, 0, 0x400, 1);
	memcpy(orig, img, SIZE);
	ASSERT_EQ(0, ipuxcom_redirect_raw(img, SIZE, BASE, BASE, &by_marker, &target, &em))
		TH_LOG("%s", em.msg);
	/* The target skips the marker and its sync3: base + 0x400 + 12. */
	EXPECT_EQ(BASE + 0x40c, target);
	EXPECT_EQ(0x12345678u, ixt_le32(img));		/* nop kept */
	EXPECT_EQ(SYNC3, ixt_le32(img + 4));		/* sync3 kept */
	EXPECT_EQ(0x19000000u | (BASE + 0x40c), ixt_le32(img + 8));
	EXPECT_EQ(0x43000000u, ixt_le32(img + 12));
	/* Nothing else changed. */
	EXPECT_EQ(0, memcmp(img + 16, orig + 16, SIZE - 16));
	/* Redirecting again is idempotent. */
	ASSERT_EQ(0, ipuxcom_redirect_raw(img, SIZE, BASE, BASE, &by_marker, &target, &em));
	EXPECT_EQ(BASE + 0x40c, target);
	EXPECT_EQ(0x19000000u | (BASE + 0x40c), ixt_le32(img + 8));
}

TEST(entry_inside_the_image)
{
	uint8_t img[SIZE];
	struct ipuxcom_errmsg em;
	uint32_t target;

	make_raw(img, 0x80, 0x10, 2);
	ASSERT_EQ(0, ipuxcom_redirect_raw(img, SIZE, BASE, BASE + 0x80, &by_marker, &target,
					  &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(BASE + 0x1c, target);
	EXPECT_EQ(IPUXCOM_INSN_SETZI_M0(BASE + 0x1c), ixt_le32(img + 0x88));
	EXPECT_EQ(IPUXCOM_INSN_BR_M0, ixt_le32(img + 0x8c));
}

TEST(explicit_target)
{
	uint8_t img[SIZE];
	struct ipuxcom_errmsg em;
	struct ipuxcom_redirect_spec spec = { .size = sizeof(spec), .by_marker = false,
					       .target = BASE + 0x800 };
	uint32_t target;

	make_raw(img, 0, UINT32_MAX, 3);
	ASSERT_EQ(0, ipuxcom_redirect_raw(img, SIZE, BASE, BASE, &spec, &target, &em));
	EXPECT_EQ(BASE + 0x800, target);
	EXPECT_EQ(IPUXCOM_INSN_SETZI_M0(BASE + 0x800), ixt_le32(img + 8));
	spec.target = BASE + 0x802;
	EXPECT_EQ(-ERANGE, ipuxcom_redirect_raw(img, SIZE, BASE, BASE, &spec, &target, &em));
	EXPECT_MSG(em, "target 0x4c812 is not 4-byte aligned");
	spec.target = BASE + SIZE;
	EXPECT_EQ(-ERANGE, ipuxcom_redirect_raw(img, SIZE, BASE, BASE, &spec, &target, &em));
	EXPECT_MSG(em, "target 0x4d010 outside the image [0x4c010, 0x4d010)");
	spec.target = 0x100000;
	EXPECT_EQ(-ERANGE, ipuxcom_redirect_raw(img, SIZE, BASE, BASE, &spec, &target, &em));
	EXPECT_MSG(em, "target 0x100000 does not fit setzi's 20-bit immediate");
}

TEST(marker_missing_or_not_unique)
{
	uint8_t img[SIZE];
	struct ipuxcom_errmsg em;
	uint32_t target = 0x55;

	make_raw(img, 0, UINT32_MAX, 4);
	EXPECT_EQ(-ENOENT, ipuxcom_redirect_raw(img, SIZE, BASE, BASE, &by_marker, &target, &em));
	EXPECT_MSG(em, "marker 0xfeedf00d 0x0badcafe not found in the image");
	EXPECT_EQ(0x55u, target);
	/* Only 4-aligned words are instructions: a misaligned copy is no marker. */
	ixt_put_le32(img + 0x202, M0);
	ixt_put_le32(img + 0x206, M1);
	EXPECT_EQ(-ENOENT, ipuxcom_redirect_raw(img, SIZE, BASE, BASE, &by_marker, &target, &em));
	/* Twice. */
	make_raw(img, 0, 0x400, 5);
	ixt_put_le32(img + 0x900, M0);
	ixt_put_le32(img + 0x904, M1);
	EXPECT_EQ(-ENOTUNIQ, ipuxcom_redirect_raw(img, SIZE, BASE, BASE, &by_marker, &target,
						  &em));
	EXPECT_MSG(em, "marker 0xfeedf00d 0x0badcafe found 2 times (first at 0x4c410 and "
		   "0x4c910); it must be unique");
	/* The image is untouched when refused. */
	EXPECT_NE(0x43000000u, ixt_le32(img + 12));
}

TEST(marker_prefix_and_entry_rules)
{
	uint8_t img[SIZE];
	struct ipuxcom_errmsg em;
	uint32_t target;

	/* Marker not followed by sync3. */
	make_raw(img, 0, 0x400, 6);
	ixt_put_le32(img + 0x408, 0x11111111);
	EXPECT_EQ(-EBADMSG, ipuxcom_redirect_raw(img, SIZE, BASE, BASE, &by_marker, &target,
						 &em));
	EXPECT_MSG(em, "marker at 0x4c410 is followed by 0x11111111, not sync3 0x41800003");
	/* Marker as the image's last two words. */
	make_raw(img, 0, UINT32_MAX, 7);
	ixt_put_le32(img + SIZE - 8, M0);
	ixt_put_le32(img + SIZE - 4, M1);
	EXPECT_EQ(-EBADMSG, ipuxcom_redirect_raw(img, SIZE, BASE, BASE, &by_marker, &target,
						 &em));
	EXPECT_MSG(em, "ends the image: no sync3 after it");
	/* The entry is not "nop; sync3". */
	make_raw(img, 0, 0x400, 8);
	ixt_put_le32(img + 4, 0x22222222);
	EXPECT_EQ(-EBADMSG, ipuxcom_redirect_raw(img, SIZE, BASE, BASE, &by_marker, &target,
						 &em));
	EXPECT_MSG(em, "the word at entry+4 (0x4c014) is 0x22222222, not sync3 0x41800003: the "
		   "entry does not start with 'nop; sync3'");
	/* The marker would be overwritten by the redirect itself. */
	make_raw(img, 0, 8, 9);
	EXPECT_EQ(-EBADMSG, ipuxcom_redirect_raw(img, SIZE, BASE, BASE, &by_marker, &target,
						 &em));
	EXPECT_MSG(em, "marker prefix at 0x4c018 overlaps the redirected words at 0x4c018");
	/* Entry words past the image, or misaligned. */
	make_raw(img, 0, 0x400, 10);
	EXPECT_EQ(-EINVAL, ipuxcom_redirect_raw(img, SIZE, BASE, BASE + SIZE - 12, &by_marker,
						&target, &em));
	EXPECT_MSG(em, "the four words from the entry are not all 4-aligned words of the image");
	EXPECT_EQ(-EINVAL, ipuxcom_redirect_raw(img, SIZE, BASE, BASE + 2, &by_marker, &target,
						&em));
	EXPECT_EQ(-EINVAL, ipuxcom_redirect_raw(img, SIZE, BASE, BASE - 4, &by_marker, &target,
						&em));
	EXPECT_EQ(-EINVAL, ipuxcom_redirect_raw(NULL, SIZE, BASE, BASE, &by_marker, &target, &em));
}

/* ------------------------------------------------------------ IPUIMG1 */

#define NT 64

static uint8_t *tiles[NT];

static struct ipuxcom_image *pack_tiles(uint32_t tmpl)
{
	struct ipuxcom_image_pack_params p = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = NT, .image_size = SIZE, .load_base = BASE, .entry = BASE,
		.template_tile = tmpl,
	};
	struct ipuxcom_image *img = NULL;
	struct ipuxcom_errmsg em;
	void *data;
	size_t len;

	if (!ipuxcom_image_pack_buffers(&p, (const void *const *)tiles, &data, &len, &em)) {
		ipuxcom_image_from_buffer(data, len, &img, &em);
		free(data);
	}
	return img;
}

static void make_tiles(void)
{
	for (uint32_t t = 0; t < NT; t++) {
		if (!tiles[t])
			tiles[t] = malloc(SIZE);
		make_raw(tiles[t], 0, 0x400, 42);
		ixt_put_le32(tiles[t] + 0x800, t);	/* distinct tiles */
	}
}

TEST(redirect_every_tile_of_an_image)
{
	struct ipuxcom_redirect_report rep = IPUXCOM_REDIRECT_REPORT_INIT;
	struct ipuxcom_image *img, *red;
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_errmsg em;
	uint8_t buf[SIZE];
	void *data;
	size_t len;

	make_tiles();
	img = pack_tiles(5);
	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, ipuxcom_image_redirect(img, &by_marker, &data, &len, &rep, &em))
		TH_LOG("%s", em.msg);
	EXPECT_EQ((uint32_t)NT, rep.tiles);
	EXPECT_EQ(BASE + 0x40c, rep.target_min);
	EXPECT_EQ(BASE + 0x40c, rep.target_max);
	ASSERT_EQ(0, ipuxcom_image_from_buffer(data, len, &red, &em)) TH_LOG("%s", em.msg);
	ipuxcom_image_get_info(red, &info);
	EXPECT_EQ(5u, info.template_tile);	/* same template */
	EXPECT_EQ(0, ipuxcom_image_verify(red, &em));
	for (uint32_t t = 0; t < NT; t++) {
		ASSERT_EQ(0, ipuxcom_image_extract(red, t, buf, SIZE, &em));
		EXPECT_EQ(IPUXCOM_INSN_SETZI_M0(BASE + 0x40c), ixt_le32(buf + 8));
		EXPECT_EQ(IPUXCOM_INSN_BR_M0, ixt_le32(buf + 12));
		EXPECT_EQ(0, memcmp(buf, tiles[t], 8));
		EXPECT_EQ(0, memcmp(buf + 16, tiles[t] + 16, SIZE - 16));
	}
	ipuxcom_image_free(red);
	ipuxcom_image_free(img);
	free(data);
}

TEST(per_tile_targets_and_refusals)
{
	struct ipuxcom_redirect_report rep = IPUXCOM_REDIRECT_REPORT_INIT;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	void *data;
	size_t len;

	/* Tile 9's function sits elsewhere: its own target. */
	make_tiles();
	ixt_put_le32(tiles[9] + 0x400, 0);
	ixt_put_le32(tiles[9] + 0x600, M0);
	ixt_put_le32(tiles[9] + 0x604, M1);
	ixt_put_le32(tiles[9] + 0x608, SYNC3);
	img = pack_tiles(0);
	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, ipuxcom_image_redirect(img, &by_marker, &data, &len, &rep, &em));
	EXPECT_EQ(BASE + 0x40c, rep.target_min);
	EXPECT_EQ(BASE + 0x60c, rep.target_max);
	free(data);
	ipuxcom_image_free(img);

	/* One tile without the marker: refused, naming it. */
	make_tiles();
	ixt_put_le32(tiles[17] + 0x404, 0);
	img = pack_tiles(0);
	ASSERT_NE(NULL, img);
	data = (void *)1;
	EXPECT_EQ(-ENOENT, ipuxcom_image_redirect(img, &by_marker, &data, &len, &rep, &em));
	EXPECT_MSG(em, "tile 17: marker 0xfeedf00d 0x0badcafe not found in the image");
	EXPECT_EQ(NULL, data);
	ipuxcom_image_free(img);

	/* One tile with it twice. */
	make_tiles();
	ixt_put_le32(tiles[33] + 0xc00, M0);
	ixt_put_le32(tiles[33] + 0xc04, M1);
	img = pack_tiles(0);
	ASSERT_NE(NULL, img);
	EXPECT_EQ(-ENOTUNIQ, ipuxcom_image_redirect(img, &by_marker, &data, &len, &rep, &em));
	EXPECT_MSG(em, "tile 33: marker 0xfeedf00d 0x0badcafe found 2 times");
	ipuxcom_image_free(img);
	for (uint32_t t = 0; t < NT; t++) {
		free(tiles[t]);
		tiles[t] = NULL;
	}
}

TEST_HARNESS_MAIN
