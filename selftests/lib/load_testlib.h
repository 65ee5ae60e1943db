/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The whole-load test image shared by the device tests that load a device
 * (load_test.c, events_test.c): 1472 distinct tile images -- a common body
 * with TILE_WORDS words of each tile's own -- packed into an IPUIMG1 image
 * in memory, and a stand-in bootloader. Include after kselftest_harness.h
 * and ipuxcom.h.
 */
#ifndef IPUXCOM_LOAD_TESTLIB_H
#define IPUXCOM_LOAD_TESTLIB_H

#include <stdint.h>
#include <stdlib.h>

#define TILES		1472
/* Above the loader's minimum payload envelope (0x4134 bytes, HW-LOADER-LIMITS). */
#define IMG_BYTES	(20 * 1024)
#define IMG_WORDS	(IMG_BYTES / 4)
#define PAYLOAD_BASE	0x4c010u
/* Words that differ between tiles, like a real image set's per-tile data. */
#define TILE_WORDS	16

static inline uint32_t common_word(uint32_t i)
{
	return 0x9e3779b9u * (i + 1) ^ (i << 7);
}

static inline uint32_t tile_word_index(uint32_t tile, uint32_t k)
{
	return (tile * 37 + k * 311) % IMG_WORDS;
}

static inline uint32_t tile_word(uint32_t tile, uint32_t k)
{
	return 0xa5000000u | tile << 8 | k;
}

/* Image of physical tile @tile: a shared body with TILE_WORDS own words. */
static inline void make_image(uint32_t tile, uint32_t *w)
{
	for (uint32_t i = 0; i < IMG_WORDS; i++)
		w[i] = common_word(i);
	for (uint32_t k = 0; k < TILE_WORDS; k++)
		w[tile_word_index(tile, k)] = tile_word(tile, k);
}

/*
 * The packed image, opened. With @file_out, also the IPUIMG1 file's bytes
 * (malloc'ed, *@len_out of them), e.g. to hand to `ipuxcom load`.
 */
static inline struct ipuxcom_image *build_image_file(struct __test_metadata *_metadata,
						     void **file_out, size_t *len_out)
{
	struct ipuxcom_image_pack_params pp = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = TILES, .image_size = IMG_BYTES, .load_base = PAYLOAD_BASE,
		.entry = PAYLOAD_BASE, .template_tile = IPUXCOM_IMG_TEMPLATE_AUTO,
	};
	static const void *ptrs[TILES];
	struct ipuxcom_image *img = NULL;
	struct ipuxcom_errmsg em;
	uint32_t *all;
	void *file = NULL;
	size_t len = 0;

	all = malloc((size_t)TILES * IMG_BYTES);
	if (!all)
		return NULL;
	for (uint32_t t = 0; t < TILES; t++) {
		make_image(t, all + (size_t)t * IMG_WORDS);
		ptrs[t] = all + (size_t)t * IMG_WORDS;
	}
	EXPECT_EQ(0, ipuxcom_image_pack_buffers(&pp, ptrs, &file, &len, &em)) TH_LOG("%s", em.msg);
	free(all);
	if (!file)
		return NULL;
	EXPECT_EQ(0, ipuxcom_image_from_buffer(file, len, &img, &em)) TH_LOG("%s", em.msg);
	if (file_out) {
		*file_out = file;
		*len_out = len;
	} else {
		free(file);
	}
	return img;
}

static inline struct ipuxcom_image *build_image(struct __test_metadata *_metadata)
{
	return build_image_file(_metadata, NULL, NULL);
}

/* Device @dev idle, with no fault knob set, and not attached; 0 or -errno. */
static inline int ixt_reset_device(uint32_t dev)
{
	struct ipuxcom *ipu;
	int err = ipuxcom_open(ixt_dev_path(), &ipu);

	if (err)
		return err;
	err = ipuxcom_attach(ipu, dev);
	ixt_sim_clear_faults(dev);
	if (!err)
		err = ipuxcom_reset(ipu, NULL);
	ipuxcom_close(ipu);
	return err;
}

/* Bootloader stand-in: the simulator installs, but does not run, it. */
static const uint8_t boot[1024] = { 0x01, 0x02, 0x03, 0x04 };

/*
 * ipuxcom_load() of @img with @boot as the bootloader and IPUXCOM_LOAD_F_*
 * @flags; 0 or -errno (@res says).
 */
static inline int ixt_load_image_flags(struct ipuxcom *ipu, struct ipuxcom_image *img,
				       uint64_t timeout_ns, uint32_t flags,
				       struct ipuxcom_load_result *res)
{
	struct ipuxcom_load_params p = {
		.size = sizeof(struct ipuxcom_load_params),
		.image = img, .bootloader = boot, .bootloader_size = sizeof(boot),
		.timeout_ns = timeout_ns, .flags = flags,
	};

	return ipuxcom_load(ipu, &p, res);
}

/*
 * The same by default: the session (on the simulator, the initialisation
 * is the module's RESET, and no config is needed).
 */
static inline int ixt_load_image(struct ipuxcom *ipu, struct ipuxcom_image *img,
				 uint64_t timeout_ns, struct ipuxcom_load_result *res)
{
	return ixt_load_image_flags(ipu, img, timeout_ns, 0, res);
}

#endif /* IPUXCOM_LOAD_TESTLIB_H */
