/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Internals of the image, frames, IPUCFG1 and manifest code of
 * libipuxcom (ixc_ names: never exported, see libipuxcom.map).
 */
#ifndef IPUXCOM_IMAGE_INTERNAL_H
#define IPUXCOM_IMAGE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ipuxcom.h"

/* ------------------------------------------------------------ messages */

/* Set @em (if not NULL) from @fmt and return @err. */
__attribute__((format(printf, 3, 4)))
int ixc_err(struct ipuxcom_errmsg *em, int err, const char *fmt, ...);

/* Prefix @em's message with "PREFIX: " (if not NULL); returns @err. */
__attribute__((format(printf, 3, 4)))
int ixc_err_prefix(struct ipuxcom_errmsg *em, int err, const char *fmt, ...);

static inline void ixc_err_clear(struct ipuxcom_errmsg *em)
{
	if (em)
		em->msg[0] = '\0';
}

/* -------------------------------------------------------- little endian */

static inline uint32_t ixc_le32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static inline void ixc_put_le32(void *p, uint32_t v)
{
	uint8_t *b = p;

	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

/* ---------------------------------------------------------------- CRC-32 */

/*
 * The raw CRC register update (no initial or final inversion):
 * ipuxcom_crc32(c, b, n) == ~ixc_crc32_raw(~c, b, n). Linear in (reg, data).
 */
uint32_t ixc_crc32_raw(uint32_t reg, const void *buf, size_t len);

/* The raw register after @nbytes zero bytes: reg * x^(8 nbytes) mod P. */
uint32_t ixc_crc32_shift(uint32_t reg, uint64_t nbytes);

/*
 * Incremental CRC of an image that differs from a template only in
 * sorted, disjoint ranges. For same-length A and B,
 * crc(B) = crc(A) ^ raw0(A ^ B), where raw0 is the raw CRC from a zero
 * register. Feed each differing range in order with ixc_crc_delta_add()
 * (its bytes in A and in B), then ixc_crc_delta_finish() with the length.
 */
struct ixc_crc_delta {
	uint32_t acc;		/* raw0 of (A ^ B) up to @end */
	uint64_t end;
};

static inline void ixc_crc_delta_init(struct ixc_crc_delta *d)
{
	d->acc = 0;
	d->end = 0;
}

/* Range [@off, @off + @n) with bytes @a (template) and @b (image); off >= end. */
void ixc_crc_delta_add(struct ixc_crc_delta *d, uint64_t off, const uint8_t *a,
		       const uint8_t *b, size_t n);

/* CRC32 of B, given @crc_a = CRC32 of A and the total length @len. */
uint32_t ixc_crc_delta_finish(const struct ixc_crc_delta *d, uint32_t crc_a, uint64_t len);

/* ------------------------------------------------------------------ files */

/*
 * Read regular file @path into a malloc'ed buffer (*@len bytes; one NUL
 * byte is appended and not counted). Files larger than @max: -EFBIG.
 * @what names the file's kind in messages ("IPUIMG1 file").
 */
int ixc_read_file(const char *path, size_t max, const char *what, uint8_t **data,
		  size_t *len, struct ipuxcom_errmsg *em);

/* Printable rendering of up to @n bytes for messages: 'IPUIM\x00G1'. */
const char *ixc_quote_bytes(const void *p, size_t n, char *buf, size_t len);

/* ------------------------------------------------------------- IPUIMG1 */

/* Header field offsets (docs/ipuimg-format.md). */
#define IXC_IMG_OFF_MAGIC		0
#define IXC_IMG_OFF_LOAD_BASE		8
#define IXC_IMG_OFF_IMAGE_SIZE		12
#define IXC_IMG_OFF_ENTRY		16
#define IXC_IMG_OFF_TILE_COUNT		20
#define IXC_IMG_OFF_TEMPLATE_TILE	24
#define IXC_IMG_OFF_TEMPLATE_CRC	28
#define IXC_IMG_OFF_PATCH_AREA		32
#define IXC_IMG_OFF_META_CRC		36
/* Record field offsets. */
#define IXC_REC_OFF_PATCH_OFFSET	0
#define IXC_REC_OFF_PATCH_SIZE		4
#define IXC_REC_OFF_CRC			8
#define IXC_REC_OFF_PATCH_COUNT		12

struct ipuxcom_image {
	uint8_t *data;			/* the whole file */
	size_t len;
	struct ipuxcom_image_info info;
	uint64_t template_off;		/* file offset of the template image */
	uint64_t patch_area_off;	/* file offset of the patch area */
};

static inline const uint8_t *ixc_img_record(const struct ipuxcom_image *img, uint32_t tile)
{
	return img->data + IPUXCOM_IMG_HEADER_SIZE + (size_t)tile * IPUXCOM_IMG_RECORD_SIZE;
}

/* Largest IPUIMG1 file the layout allows (40 + 16 n + image + u32 area). */
#define IXC_IMG_MAX_FILE	((uint64_t)IPUXCOM_IMG_HEADER_SIZE + \
				 (uint64_t)IPUXCOM_IMG_TILES * IPUXCOM_IMG_RECORD_SIZE + \
				 IPUXCOM_IMG_SRAM_SIZE + UINT32_MAX)

/* Check the pack parameters / header fields (shared by reader and packer). */
int ixc_img_check_geometry(uint32_t tile_count, uint32_t image_size, uint32_t load_base,
			   uint32_t entry, uint32_t template_tile, bool template_auto_ok,
			   struct ipuxcom_errmsg *em);

/*
 * Reconstruct @tile: call @emit(ctx, off, src, n) for the template bytes
 * and then each patch in order; patches overwrite template bytes. Returns
 * the CRC32 derived from the patches (see struct ixc_crc_delta).
 */
typedef void (*ixc_emit_fn)(void *ctx, uint32_t off, const uint8_t *src, uint32_t n);
uint32_t ixc_img_reconstruct(const struct ipuxcom_image *img, uint32_t tile,
			     ixc_emit_fn emit, void *ctx);

/* "tile 17 image: CRC32 0x... but the record says 0x..." */
int ixc_img_crc_error(const struct ipuxcom_image *img, uint32_t tile, uint32_t got,
		      const char *how, struct ipuxcom_errmsg *em);

/*
 * Read a tile ELF (see ipuxcom_tile_elf_parse()) into *@info (image
 * NULL); with @dest, also zero @dest_len bytes of it and copy the image
 * there (@dest_len >= info->image_size).
 */
int ixc_tile_elf_read(const void *data, size_t len, struct ipuxcom_tile_elf *info,
		      uint8_t *dest, size_t dest_len, struct ipuxcom_errmsg *em);

/* "WHAT (libelf: <elf_errmsg>)" into @em; returns @err. */
int ixc_elf_fail(struct ipuxcom_errmsg *em, int err, const char *what);

/* Decimal tile file names: "17.bin" / "t_17.elf" -> 17; -1 if not canonical. */
long ixc_parse_tile_name(const char *name, const char *prefix, const char *suffix,
			 uint32_t tile_count);

#endif /* IPUXCOM_IMAGE_INTERNAL_H */
