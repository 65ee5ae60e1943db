// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the IPUIMG1 reader, and everything that consumes an
 * image it accepted (extract, verify, frames, redirect). A file the
 * reader accepts must be fully usable: every accepted tile either
 * reconstructs or fails its CRC32 with -EBADMSG, the same way in extract,
 * verify and frames.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Work per input stays small: at most this many tiles are reconstructed. */
#define MAX_TILES	8

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/*
 * Checksums stop random mutations at the door. Where the header's sizes
 * fit the input, make the template CRC32 (header and template record) and
 * the metadata CRC32 right, so that the code behind them is fuzzed too.
 * Returns false when the layout does not fit.
 */
static bool repair(uint8_t *d, size_t size)
{
	uint64_t n, isize, tmpl_off;
	uint32_t t, crc;

	if (size < IPUXCOM_IMG_HEADER_SIZE)
		return false;
	n = le32(d + 20);
	isize = le32(d + 12);
	t = le32(d + 24);
	tmpl_off = IPUXCOM_IMG_HEADER_SIZE + n * IPUXCOM_IMG_RECORD_SIZE;
	if (n > IPUXCOM_IMG_TILES || tmpl_off + isize > size)
		return false;
	crc = ipuxcom_crc32(0, d + tmpl_off, isize);
	put32(d + 28, crc);
	if (t < n)
		put32(d + IPUXCOM_IMG_HEADER_SIZE + t * IPUXCOM_IMG_RECORD_SIZE + 8, crc);
	crc = ipuxcom_crc32(0, d, 36);
	crc = ipuxcom_crc32(crc, d + IPUXCOM_IMG_HEADER_SIZE, n * IPUXCOM_IMG_RECORD_SIZE);
	put32(d + 36, crc);
	return true;
}

static void exercise(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;

	exercise(data, size);
	copy = malloc(size ? size : 1);
	if (!copy)
		abort();
	memcpy(copy, data, size);
	if (repair(copy, size))
		exercise(copy, size);
	free(copy);
	return 0;
}

static void exercise(const uint8_t *data, size_t size)
{
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	uint32_t n;
	uint8_t *buf;

	if (ipuxcom_image_from_buffer(data, size, &img, &em)) {
		if (!em.msg[0])
			abort();	/* every refusal says why */
		return;
	}
	ipuxcom_image_get_info(img, &info);
	n = info.tile_count < MAX_TILES ? info.tile_count : MAX_TILES;
	buf = malloc(info.image_size);
	if (!buf)
		abort();
	for (uint32_t t = 0; t < n; t++) {
		struct ipuxcom_image_tile ti = IPUXCOM_IMAGE_TILE_INIT;
		int e1 = ipuxcom_image_extract(img, t, buf, info.image_size, &em);
		int e2 = ipuxcom_image_verify_tile(img, t, &em);

		if (e1 != e2 || (e1 && e1 != -EBADMSG) || ipuxcom_image_get_tile(img, t, &ti))
			abort();
		if (!e1 && ti.crc32 != ipuxcom_crc32(0, buf, info.image_size))
			abort();
		if (!e1) {
			struct ipuxcom_redirect_spec spec = {
				.size = sizeof(spec), .by_marker = true,
				.marker = { 0x11111111, 0x22222222 },
			};
			uint32_t target;

			ipuxcom_redirect_raw(buf, info.image_size, info.load_base, info.entry,
					     &spec, &target, &em);
		}
	}
	free(buf);
	if (n) {
		size_t fsize;

		if (!ipuxcom_frames_batch_size(img, 0, n - 1, &fsize, &em) && fsize <= (8u << 20)) {
			uint8_t *fb = malloc(fsize);

			if (!fb)
				abort();
			ipuxcom_frames_build(img, 0, n - 1, fb, fsize, &em);
			free(fb);
		}
	}
	if (info.tile_count <= MAX_TILES) {
		struct ipuxcom_redirect_spec spec = { .size = sizeof(spec), .target = info.entry };
		void *out;
		size_t len;

		if (!ipuxcom_image_redirect(img, &spec, &out, &len, NULL, &em))
			free(out);
	}
	ipuxcom_image_free(img);
}
