// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Secondary-loader frames [S "Secondary Loader Frames"]:
 *
 *   0x0000  descriptor area: 64 entries {u32 byte offset of the tile's
 *           first frame, u32 frame count}; zero through 0x1000. A batch
 *           is 64 tiles from a multiple of 64; entry i describes the
 *           batch's tile i (what the module checks), so a range that
 *           does not start on a batch boundary leaves its leading (and
 *           trailing) entries zero.
 *   0x1000  frame storage: each tile's frames contiguous, tile after tile
 *
 *   frame:  0 u32 chunk index (from 0)   4 u32 physical tile id
 *           8 u32 flags: byte 11 = 8 on the final frame   12 u32 zero
 *          16 992 image bytes, zero padded   1008 16 bytes 0xff
 *
 * Known check [S]: a 212,980-byte image is 215 frames, 220,160 bytes.
 * Limits: at most 643 frames per tile [S, RE]; [RE] pads every payload to
 * at least 0x4134 bytes since the loader does not acknowledge a one-frame
 * application [HW-LOADER-LIMITS]; padding is zero. Every tile so has 17..643
 * frames (IPUXCOM_FRAMES_MIN_PER_TILE ..), the range the module accepts.
 * Payload lands at 0x4c010 [S, RE], so only images with that load base
 * can be framed.
 *
 * Images are reconstructed straight into the frame payloads of the
 * caller's buffer (no intermediate copy) and their CRC32 is derived from
 * the patches as they are written.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "image_internal.h"

/* The minimum frame count is the minimum payload's: ceil(0x4134 / 992). */
_Static_assert(IPUXCOM_FRAMES_MIN_PER_TILE ==
	       (IPUXCOM_FRAMES_MIN_PAYLOAD + IPUXCOM_FRAME_PAYLOAD - 1) / IPUXCOM_FRAME_PAYLOAD,
	       "IPUXCOM_FRAMES_MIN_PER_TILE is ceil(IPUXCOM_FRAMES_MIN_PAYLOAD / 992)");

int ipuxcom_frames_per_tile(uint32_t image_size, uint32_t *frames, struct ipuxcom_errmsg *em)
{
	uint32_t payload, n;

	ixc_err_clear(em);
	if (!frames)
		return ixc_err(em, -EINVAL, "no output");
	*frames = 0;
	if (!image_size)
		return ixc_err(em, -EINVAL, "an empty image has no frames");
	payload = image_size < IPUXCOM_FRAMES_MIN_PAYLOAD ? IPUXCOM_FRAMES_MIN_PAYLOAD : image_size;
	n = payload / IPUXCOM_FRAME_PAYLOAD + (payload % IPUXCOM_FRAME_PAYLOAD != 0);
	if (n > IPUXCOM_FRAMES_MAX_PER_TILE)
		return ixc_err(em, -EFBIG,
			       "an image of 0x%" PRIx32 " bytes needs %" PRIu32
			       " frames; the secondary loader takes at most %u per tile (0x%x "
			       "bytes)", image_size, n,
			       IPUXCOM_FRAMES_MAX_PER_TILE,
			       IPUXCOM_FRAMES_MAX_PER_TILE * IPUXCOM_FRAME_PAYLOAD);
	*frames = n;
	return 0;
}

static int ixc_frames_check(const struct ipuxcom_image *img, uint32_t first, uint32_t last,
			    uint32_t *frames, size_t *size, struct ipuxcom_errmsg *em)
{
	const struct ipuxcom_image_info *in;
	int err;

	if (!img)
		return ixc_err(em, -EINVAL, "no image");
	in = &img->info;
	if (first > last)
		return ixc_err(em, -EINVAL, "first tile %" PRIu32 " after last tile %" PRIu32,
			       first, last);
	if (last >= in->tile_count)
		return ixc_err(em, -EINVAL, "tile %" PRIu32 " outside the image's tiles 0..%"
			       PRIu32, last, in->tile_count - 1);
	if (first / IPUXCOM_FRAMES_DESC_ENTRIES != last / IPUXCOM_FRAMES_DESC_ENTRIES)
		return ixc_err(em, -EINVAL,
			       "tiles %" PRIu32 "..%" PRIu32 " cross a %u-tile batch boundary "
			       "(tile %" PRIu32 " is in batch %" PRIu32 ", tile %" PRIu32
			       " in batch %" PRIu32 "); one descriptor table describes one batch",
			       first, last, IPUXCOM_FRAMES_DESC_ENTRIES,
			       first, first / IPUXCOM_FRAMES_DESC_ENTRIES,
			       last, last / IPUXCOM_FRAMES_DESC_ENTRIES);
	if (in->load_base != IPUXCOM_IMG_PAYLOAD_BASE)
		return ixc_err(em, -EINVAL,
			       "image load base 0x%" PRIx32
			       ": the secondary loader installs payload at 0x%x", in->load_base,
			       IPUXCOM_IMG_PAYLOAD_BASE);
	err = ipuxcom_frames_per_tile(in->image_size, frames, em);
	if (err)
		return err;
	*size = IPUXCOM_FRAMES_DESC_AREA +
		(size_t)(last - first + 1) * *frames * IPUXCOM_FRAME_SIZE;
	return 0;
}

int ipuxcom_frames_batch_size(const struct ipuxcom_image *img, uint32_t first, uint32_t last,
			      size_t *size, struct ipuxcom_errmsg *em)
{
	uint32_t frames;

	ixc_err_clear(em);
	if (!size)
		return ixc_err(em, -EINVAL, "no output");
	*size = 0;
	return ixc_frames_check(img, first, last, &frames, size, em);
}

/* Scatter image bytes [off, off + n) into the payloads of the frames at @base. */
static void ixc_emit_frames(void *ctx, uint32_t off, const uint8_t *src, uint32_t n)
{
	uint8_t *base = ctx;
	uint32_t f = off / IPUXCOM_FRAME_PAYLOAD, o = off % IPUXCOM_FRAME_PAYLOAD;

	while (n) {
		uint32_t c = IPUXCOM_FRAME_PAYLOAD - o < n ? IPUXCOM_FRAME_PAYLOAD - o : n;

		memcpy(base + (size_t)f * IPUXCOM_FRAME_SIZE + IPUXCOM_FRAME_HEADER + o, src, c);
		src += c;
		n -= c;
		o = 0;
		f++;
	}
}

int ipuxcom_frames_build(const struct ipuxcom_image *img, uint32_t first, uint32_t last,
			 void *buf, size_t len, struct ipuxcom_errmsg *em)
{
	uint8_t *b = buf;
	uint32_t frames, isize, base;
	size_t size, off = IPUXCOM_FRAMES_DESC_AREA;
	int err;

	ixc_err_clear(em);
	err = ixc_frames_check(img, first, last, &frames, &size, em);
	if (err)
		return err;
	if (!buf || len < size)
		return ixc_err(em, -EINVAL, "buffer of %zu bytes; tiles %" PRIu32 "..%" PRIu32
			       " need %zu", buf ? len : 0, first, last, size);
	isize = img->info.image_size;
	/* Descriptor slot of tile t: its index in its batch; other slots stay zero. */
	base = first - first % IPUXCOM_FRAMES_DESC_ENTRIES;
	memset(b, 0, IPUXCOM_FRAMES_DESC_AREA);
	for (uint32_t t = first; t <= last; t++) {
		uint8_t *tb = b + off;
		uint32_t crc;

		ixc_put_le32(b + (t - base) * 8, (uint32_t)off);
		ixc_put_le32(b + (t - base) * 8 + 4, frames);
		for (uint32_t f = 0; f < frames; f++) {
			uint8_t *fr = tb + (size_t)f * IPUXCOM_FRAME_SIZE;
			uint64_t start = (uint64_t)f * IPUXCOM_FRAME_PAYLOAD;

			ixc_put_le32(fr, f);
			ixc_put_le32(fr + 4, t);
			ixc_put_le32(fr + 8, f + 1 == frames ? IPUXCOM_FRAME_FLAGS_FINAL : 0);
			ixc_put_le32(fr + 12, 0);
			/* Zero padding after the image (and the minimum envelope). */
			if (start + IPUXCOM_FRAME_PAYLOAD > isize) {
				uint32_t from = start >= isize ? 0 : (uint32_t)(isize - start);

				memset(fr + IPUXCOM_FRAME_HEADER + from, 0,
				       IPUXCOM_FRAME_PAYLOAD - from);
			}
			memset(fr + IPUXCOM_FRAME_SIZE - IPUXCOM_FRAME_TRAILER, 0xff,
			       IPUXCOM_FRAME_TRAILER);
		}
		crc = ixc_img_reconstruct(img, t, ixc_emit_frames, tb);
		if (crc != ixc_le32(ixc_img_record(img, t) + IXC_REC_OFF_CRC))
			return ixc_img_crc_error(img, t, crc,
						 "derived from the template and patches", em);
		off += (size_t)frames * IPUXCOM_FRAME_SIZE;
	}
	return 0;
}
