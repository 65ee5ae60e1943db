/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A loader batch written straight from the seed's layout [S "Secondary
 * Loader Frames"], not through libipuxcom, so tests can judge the module
 * and the simulator independently of the library's frame builder:
 * 64 descriptors {byte offset, frame count} zero through 0x1000, then each
 * tile's frames: chunk index, physical tile, flags (byte 11 = 8 on the
 * final frame), reserved zero, 992 payload bytes, 16 bytes of 0xff.
 */
#ifndef IXT_FRAMES_TESTLIB_H
#define IXT_FRAMES_TESTLIB_H

#include <stdint.h>
#include <string.h>

#define IXT_BATCH_BYTES(frames)	(0x1000 + 64 * (size_t)(frames) * 1024)

static inline void ixt_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Payload word @i of physical tile @tile. */
static inline uint32_t ixt_payload_word(uint32_t tile, uint32_t i)
{
	return tile * 0x10001u ^ i * 0x9e3779b9u;
}

/* Batch @b with @frames frames per tile; the buffer is zeroed first. */
static inline void ixt_write_batch(uint8_t *buf, uint32_t b, uint32_t frames)
{
	uint32_t off = 0x1000;

	memset(buf, 0, IXT_BATCH_BYTES(frames));
	for (uint32_t i = 0; i < 64; i++) {
		uint32_t tile = b * 64 + i;

		ixt_put32(buf + i * 8, off);
		ixt_put32(buf + i * 8 + 4, frames);
		for (uint32_t k = 0; k < frames; k++, off += 1024) {
			uint8_t *f = buf + off;

			ixt_put32(f, k);
			ixt_put32(f + 4, tile);
			ixt_put32(f + 8, k == frames - 1 ? 0x08000000u : 0);
			for (uint32_t w = 0; w < 992 / 4; w++)
				ixt_put32(f + 16 + w * 4, ixt_payload_word(tile, k * 248 + w));
			memset(f + 1008, 0xff, 16);
		}
	}
}

#endif /* IXT_FRAMES_TESTLIB_H */
