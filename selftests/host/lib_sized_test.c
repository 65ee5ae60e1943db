// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device and file structs that carry their size since 1.0 (issue 23;
 * man libipuxcom(3) "Structs that grow"), on the build host without the
 * module: an output is filled up to the caller's size and never past it,
 * a newer caller's unknown tail is zeroed; an input's unknown tail must be
 * zero (-E2BIG); size 0 or below the _SIZE_MIN is -EINVAL before anything
 * is written; the message names "<arg>.size". Structs filled through an
 * ioctl are covered where the ioctl is faked: lib_ipudrv_test.c.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom.h>

#include "kselftest_harness.h"
#include "../lib/ixt_sized.h"

#define TILES	3
#define SIZE	512u
#define BASE	IPUXCOM_IMG_PAYLOAD_BASE
#define SYNC3	IPUXCOM_INSN_SYNC_SUPERVISOR

static uint8_t g_tiles[TILES][SIZE];
static const void *g_ptrs[TILES];

/* Three tiles starting "nop; sync3", differing in a few words. */
static const struct ipuxcom_image_pack_params g_params = {
	.size = sizeof(struct ipuxcom_image_pack_params), .tile_count = TILES,
	.image_size = SIZE, .load_base = BASE, .entry = BASE, .template_tile = 0,
};

static struct ipuxcom_image *small_image(struct __test_metadata *_metadata)
{
	struct ipuxcom_image *img = NULL;
	struct ipuxcom_errmsg em;
	void *file = NULL;
	size_t len = 0;

	for (uint32_t t = 0; t < TILES; t++) {
		for (uint32_t i = 0; i < SIZE; i++)
			g_tiles[t][i] = (uint8_t)(i * 7 + (i % 64 == 5 ? t : 0));
		memcpy(g_tiles[t] + 4, &(uint32_t){ SYNC3 }, 4);
		g_ptrs[t] = g_tiles[t];
	}
	EXPECT_EQ(0, ipuxcom_image_pack_buffers(&g_params, g_ptrs, &file, &len, &em))
		TH_LOG("%s", em.msg);
	if (file)
		EXPECT_EQ(0, ipuxcom_image_from_buffer(file, len, &img, &em)) TH_LOG("%s", em.msg);
	free(file);
	return img;
}

/* ------------------------------------------------------------- outputs */

static int fill_image_info(void *out, void *ctx)
{
	return ipuxcom_image_get_info(ctx, out);
}

static int fill_image_tile(void *out, void *ctx)
{
	return ipuxcom_image_get_tile(ctx, 1, out);
}

static const struct ipuxcom_redirect_spec g_spec = {
	.size = sizeof(struct ipuxcom_redirect_spec), .target = BASE + 0x100,
};

static int fill_redirect_report(void *out, void *ctx)
{
	void *file = NULL;
	size_t len = 0;
	int err = ipuxcom_image_redirect(ctx, &g_spec, &file, &len, out, NULL);

	free(file);
	return err;
}

static const char g_trace[] =
	"# tracer: nop\n"
	"  w-1 [000] .....   1.000001: ipuxcom_bar_write: dev=0 offset=0x05404 value=0x00000002\n"
	"  w-1 [000] .....   1.000002: ipuxcom_bar_write: dev=1 offset=0x05408 value=0x00000003\n";

static int fill_trace_stats(void *out, void *ctx)
{
	struct ipuxcom_cfg_record *recs = NULL;
	uint32_t count = 0;
	int err = ipuxcom_cfg_from_trace(g_trace, strlen(g_trace), 0, &recs, &count, out, NULL);

	free(recs);
	return err;
}

static int fill_bootloader(void *out, void *ctx)
{
	return ipuxcom_bootloader_parse(g_tiles[0], 100, out, NULL);
}

static void settle_bootloader(void *out)
{
	struct ipuxcom_bootloader *bl = out;

	free(bl->image);
	bl->image = NULL;	/* a new allocation each call */
}

TEST(sized_file_outputs)
{
	struct ipuxcom_image *img = small_image(_metadata);

	ASSERT_NE(NULL, img);
	ixt_out_sizes(_metadata, fill_image_info, img, NULL, sizeof(struct ipuxcom_image_info),
		      IPUXCOM_IMAGE_INFO_SIZE_MIN, "info.size");
	ixt_out_sizes(_metadata, fill_image_tile, img, NULL, sizeof(struct ipuxcom_image_tile),
		      IPUXCOM_IMAGE_TILE_SIZE_MIN, "out.size");
	ixt_out_sizes(_metadata, fill_redirect_report, img, NULL,
		      sizeof(struct ipuxcom_redirect_report), IPUXCOM_REDIRECT_REPORT_SIZE_MIN,
		      "report.size");
	ixt_out_sizes(_metadata, fill_trace_stats, NULL, NULL, sizeof(struct ipuxcom_trace_stats),
		      IPUXCOM_TRACE_STATS_SIZE_MIN, "stats.size");
	ixt_out_sizes(_metadata, fill_bootloader, NULL, settle_bootloader,
		      sizeof(struct ipuxcom_bootloader), IPUXCOM_BOOTLOADER_SIZE_MIN, "out.size");
	ipuxcom_image_free(img);
}

/* What the outputs say, through the _INIT macros. */
TEST(sized_file_outputs_values)
{
	struct ipuxcom_image *img = small_image(_metadata);
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_image_tile t = IPUXCOM_IMAGE_TILE_INIT;
	struct ipuxcom_redirect_report rep = IPUXCOM_REDIRECT_REPORT_INIT;
	struct ipuxcom_trace_stats st = IPUXCOM_TRACE_STATS_INIT;
	struct ipuxcom_bootloader bl = IPUXCOM_BOOTLOADER_INIT;

	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, ipuxcom_image_get_info(img, &info));
	EXPECT_EQ(sizeof(info), info.size);
	EXPECT_EQ(TILES, info.tile_count);
	EXPECT_EQ(SIZE, info.image_size);
	EXPECT_EQ(BASE, info.load_base);
	EXPECT_EQ(0, info.reserved);
	ASSERT_EQ(0, ipuxcom_image_get_tile(img, 2, &t));
	EXPECT_EQ(sizeof(t), t.size);
	EXPECT_NE(0, t.patch_count);
	EXPECT_EQ(-EINVAL, ipuxcom_image_get_tile(img, TILES, &t));
	ASSERT_EQ(0, fill_redirect_report(&rep, img)) TH_LOG("%s", ipuxcom_errmsg(NULL));
	EXPECT_EQ(TILES, rep.tiles);
	EXPECT_EQ(BASE + 0x100, rep.target_min);
	EXPECT_EQ(BASE + 0x100, rep.target_max);
	ASSERT_EQ(0, fill_trace_stats(&st, NULL));
	EXPECT_EQ(2, st.writes);
	EXPECT_EQ(1, st.other_dev);
	EXPECT_EQ(0, st.lost);
	ASSERT_EQ(0, fill_bootloader(&bl, NULL));
	EXPECT_EQ(100, bl.image_size);
	EXPECT_EQ(100, bl.file_bytes);
	EXPECT_FALSE(bl.from_elf);
	ipuxcom_bootloader_free(&bl);
	EXPECT_EQ(sizeof(bl), bl.size);		/* kept */
	EXPECT_EQ(NULL, bl.image);
	EXPECT_EQ(0, bl.image_size);
	/* A struct the library never filled is not freed (size 0: a no-op). */
	memset(&bl, 0, sizeof(bl));
	bl.image = (uint8_t *)&bl;
	ipuxcom_bootloader_free(&bl);
	EXPECT_EQ((uint8_t *)&bl, bl.image);
	ipuxcom_image_free(img);
	/* no image: -EINVAL, the info zero but its size */
	memset(&info, 0xa5, sizeof(info));
	info.size = sizeof(info);
	EXPECT_EQ(-EINVAL, ipuxcom_image_get_info(NULL, &info));
	EXPECT_EQ(sizeof(info), info.size);
	EXPECT_EQ(0, info.tile_count);
	EXPECT_EQ(-EINVAL, ipuxcom_image_get_info(NULL, NULL));
}

/* -------------------------------------------------------------- inputs */

static int take_pack_params(const void *in, void *ctx)
{
	void *file = NULL;
	size_t len = 0;
	int err = ipuxcom_image_pack_buffers(in, g_ptrs, &file, &len, NULL);

	free(file);
	return err;
}

static int take_redirect_spec(const void *in, void *ctx)
{
	void *file = NULL;
	size_t len = 0;
	int err = ipuxcom_image_redirect(ctx, in, &file, &len, NULL, NULL);

	free(file);
	return err;
}

static int take_redirect_spec_raw(const void *in, void *ctx)
{
	uint8_t img[SIZE];

	memcpy(img, g_tiles[0], SIZE);
	return ipuxcom_redirect_raw(img, SIZE, BASE, BASE, in, NULL, NULL);
}

TEST(sized_file_inputs)
{
	struct ipuxcom_image *img = small_image(_metadata);

	ASSERT_NE(NULL, img);
	ixt_in_sizes(_metadata, take_pack_params, NULL, &g_params,
		     sizeof(struct ipuxcom_image_pack_params), IPUXCOM_IMAGE_PACK_PARAMS_SIZE_MIN,
		     "params.size");
	ixt_in_sizes(_metadata, take_redirect_spec, img, &g_spec,
		     sizeof(struct ipuxcom_redirect_spec), IPUXCOM_REDIRECT_SPEC_SIZE_MIN,
		     "spec.size");
	ixt_in_sizes(_metadata, take_redirect_spec_raw, NULL, &g_spec,
		     sizeof(struct ipuxcom_redirect_spec), IPUXCOM_REDIRECT_SPEC_SIZE_MIN,
		     "spec.size");
	ipuxcom_image_free(img);
}

/*
 * The directory options: an input to the packers (their size checked
 * before the directory is read: a missing one shows the check passed),
 * and an output of ipuxcom_image_dir_opts_init(), which writes the
 * defaults into the caller's size only.
 */
static int take_dir_opts(const void *in, void *ctx)
{
	void *file = NULL;
	size_t len = 0;
	int err = ipuxcom_image_pack_raw_dir("/nonexistent-ipuxcom-dir", in, &file, &len, NULL);

	free(file);
	return err == -ENOENT ? 0 : err;
}

static int fill_dir_opts(void *out, void *ctx)
{
	return ipuxcom_image_dir_opts_init(out);
}

TEST(sized_dir_opts)
{
	const struct ipuxcom_image_dir_opts dflt = IPUXCOM_IMAGE_DIR_OPTS_INIT;
	struct ipuxcom_image_dir_opts o;
	void *file = NULL;
	size_t len = 0;

	EXPECT_EQ(-ENOENT, ipuxcom_image_pack_raw_dir("/nonexistent-ipuxcom-dir", &dflt, &file,
						      &len, NULL));
	ixt_in_sizes(_metadata, take_dir_opts, NULL, &dflt, sizeof(dflt),
		     IPUXCOM_IMAGE_DIR_OPTS_SIZE_MIN, "opts.size");
	ixt_out_sizes(_metadata, fill_dir_opts, NULL, NULL, sizeof(dflt),
		      IPUXCOM_IMAGE_DIR_OPTS_SIZE_MIN, "opts.size");
	/* the function and the macro agree */
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	ASSERT_EQ(0, ipuxcom_image_dir_opts_init(&o));
	EXPECT_EQ(0, memcmp(&dflt, &o, sizeof(o)));
	EXPECT_EQ(IPUXCOM_IMG_TILES, o.tile_count);
	EXPECT_EQ(IPUXCOM_IMG_TEMPLATE_AUTO, o.template_tile);
	EXPECT_EQ(-EINVAL, ipuxcom_image_dir_opts_init(NULL));
}

/* ------------------------------------------------- device calls, no device */

/*
 * The size checks come before any ioctl: /dev/null knows none, so a
 * refusal other than -ENOTTY is the library's. ipuxcom_cfg_apply_hsp()
 * fills its result also on failure: up to the caller's size.
 */
static struct ipuxcom *g_null;

static int fill_cfg_result(void *out, void *ctx)
{
	static const struct ipuxcom_cfg_record rec = { 0x5404, 2 };
	int err = ipuxcom_cfg_apply_hsp(g_null, &rec, 1, IPUXCOM_CFG_HSP_CLEAR, out);

	return err == -ENOTTY ? 0 : err;
}

TEST(sized_device_outputs_without_a_device)
{
	struct ipuxcom_info info = IPUXCOM_INFO_INIT;
	struct ipuxcom_init_report rep = IPUXCOM_INIT_REPORT_INIT;

	ASSERT_EQ(0, ipuxcom_open("/dev/null", &g_null));
	EXPECT_EQ(-ENOTTY, ipuxcom_get_info(g_null, &info));
	for (int k = 0; k < 2; k++) {
		info.size = k ? IPUXCOM_INFO_SIZE_MIN - 1 : 0;
		EXPECT_EQ(-EINVAL, ipuxcom_get_info(g_null, &info));
		IXT_EXPECT_SIZE_MSG("info.size", "is below");
		EXPECT_NE(NULL, strstr(ipuxcom_errmsg(g_null), "info.size"));
		rep.size = k ? IPUXCOM_INIT_REPORT_SIZE_MIN - 1 : 0;
		EXPECT_EQ(-EINVAL, ipuxcom_dev_init(g_null, &rep));
		IXT_EXPECT_SIZE_MSG("rep.size", "is below");
	}
	ixt_out_sizes(_metadata, fill_cfg_result, NULL, NULL,
		      sizeof(struct ipuxcom_cfg_apply_result), IPUXCOM_CFG_APPLY_RESULT_SIZE_MIN,
		      "res.size");
	ipuxcom_close(g_null);
	/* no handle: the report is still filled (zero), the size kept */
	memset(&rep, 0xa5, sizeof(rep));
	rep.size = sizeof(rep);
	EXPECT_EQ(-EINVAL, ipuxcom_dev_init(NULL, &rep));
	EXPECT_EQ(sizeof(rep), rep.size);
	EXPECT_EQ(0, rep.failed_step);
	EXPECT_STREQ("", rep.msg);
}

TEST_HARNESS_MAIN
