// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * IPUIMG1 reader: open, check, extract, verify.
 *
 * The notes fix the parts of the format [S "Compact Physical Image"]: a
 * 40-byte little-endian header (load base, image size, entry point,
 * template tile, template CRC32), a 16-byte record per physical tile
 * (patch extent, reconstructed-image CRC32), one complete template tile
 * image, and per-tile sparse patches (offset u32, size u32, bytes). The
 * exact offsets are this project's definition, documented in
 * docs/ipuimg-format.md; the IXC_IMG_OFF_* / IXC_REC_OFF_* constants in
 * image_internal.h are that table.
 *
 * Everything is checked at open except each tile's own CRC32, which
 * needs the tile reconstructed: extract, frames and verify check it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_internal.h"
#include "internal.h"

int ixc_img_check_geometry(uint32_t tile_count, uint32_t image_size, uint32_t load_base,
			   uint32_t entry, uint32_t template_tile, bool template_auto_ok,
			   struct ipuxcom_errmsg *em)
{
	if (tile_count < 1 || tile_count > IPUXCOM_IMG_TILES)
		return ixc_err(em, -EBADMSG, "tile count %" PRIu32 " outside 1..%u (C600 tiles)",
			       tile_count, IPUXCOM_IMG_TILES);
	if (image_size < 1 || image_size > IPUXCOM_IMG_SRAM_SIZE)
		return ixc_err(em, -EBADMSG,
			       "image size 0x%" PRIx32 " outside 0x1..0x%x (624 KiB of tile SRAM)",
			       image_size, IPUXCOM_IMG_SRAM_SIZE);
	if (load_base < IPUXCOM_IMG_SRAM_BASE ||
	    (uint64_t)load_base + image_size > IPUXCOM_IMG_SRAM_END)
		return ixc_err(em, -EBADMSG,
			       "load range [0x%" PRIx32 ", 0x%" PRIx64
			       ") outside tile SRAM [0x%x, 0x%x)", load_base,
			       (uint64_t)load_base + image_size, IPUXCOM_IMG_SRAM_BASE,
			       IPUXCOM_IMG_SRAM_END);
	if (entry & 3)
		return ixc_err(em, -EBADMSG, "entry point 0x%" PRIx32 " is not 4-byte aligned",
			       entry);
	if (entry < load_base || (uint64_t)entry + 4 > (uint64_t)load_base + image_size)
		return ixc_err(em, -EBADMSG,
			       "entry point 0x%" PRIx32 " outside the image [0x%" PRIx32
			       ", 0x%" PRIx64 ")", entry, load_base,
			       (uint64_t)load_base + image_size);
	if (template_tile >= tile_count && !(template_auto_ok &&
					     template_tile == IPUXCOM_IMG_TEMPLATE_AUTO))
		return ixc_err(em, -EBADMSG, "template tile %" PRIu32 " outside 0..%" PRIu32,
			       template_tile, tile_count - 1);
	return 0;
}

/* "tile T patch K at file offset 0x...: MESSAGE" */
__attribute__((format(printf, 5, 6)))
static int ixc_patch_err(struct ipuxcom_errmsg *em, uint32_t t, uint32_t k, uint64_t p,
			 const char *fmt, ...)
{
	char msg[IPUXCOM_ERRMSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ixc_err(em, -EBADMSG, "%s", msg);
	return ixc_err_prefix(em, -EBADMSG, "tile %" PRIu32 " patch %" PRIu32
			      " at file offset 0x%" PRIx64, t, k, p);
}

/* Walk and check tile @t's patch stream; fills *@count and *@bytes. */
static int ixc_img_check_patches(const struct ipuxcom_image *img, uint32_t t, uint64_t off,
				 uint32_t size, uint32_t *count, uint32_t *bytes,
				 struct ipuxcom_errmsg *em)
{
	const uint8_t *d = img->data;
	uint64_t p = off, end = off + size;
	uint32_t k = 0, prev_end = 0, data = 0;
	uint32_t isize = img->info.image_size;

	while (p < end) {
		uint64_t left;
		uint32_t po, ps;

		if (end - p < IPUXCOM_IMG_PATCH_HEADER_SIZE)
			return ixc_patch_err(em, t, k, p, "truncated patch header (%" PRIu64
					     " of 8 bytes left in the stream)", end - p);
		left = end - p - IPUXCOM_IMG_PATCH_HEADER_SIZE;
		po = ixc_le32(d + p);
		ps = ixc_le32(d + p + 4);
		if (ps == 0)
			return ixc_patch_err(em, t, k, p, "empty patch (size 0) at image offset 0x%"
					     PRIx32, po);
		if ((uint64_t)po + ps > isize)
			return ixc_patch_err(em, t, k, p, "range 0x%" PRIx32 "+0x%" PRIx32
					     " exceeds the image size 0x%" PRIx32, po, ps, isize);
		if (k > 0 && po < prev_end)
			return ixc_patch_err(em, t, k, p, "range 0x%" PRIx32 "+0x%" PRIx32
					     " overlaps patch %" PRIu32 " ending at 0x%" PRIx32
					     " (patches must be sorted and disjoint)",
					     po, ps, k - 1, prev_end);
		if (ps > left)
			return ixc_patch_err(em, t, k, p, "0x%" PRIx32 " data bytes but only 0x%"
					     PRIx64 " left in the tile's stream (truncated)",
					     ps, left);
		p += IPUXCOM_IMG_PATCH_HEADER_SIZE + (uint64_t)ps;
		prev_end = po + ps;
		data += ps;	/* < image size: the patches are disjoint */
		k++;
	}
	*count = k;
	*bytes = data;
	return 0;
}

/* "tile T record: patch extent 0xOFF+0xSIZE MESSAGE" */
__attribute__((format(printf, 5, 6)))
static int ixc_extent_err(struct ipuxcom_errmsg *em, uint32_t t, uint32_t off, uint32_t size,
			  const char *fmt, ...)
{
	char msg[IPUXCOM_ERRMSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ixc_err(em, -EBADMSG, "tile %" PRIu32 " record: patch extent 0x%" PRIx32 "+0x%"
		       PRIx32 " %s", t, off, size, msg);
}

static int ixc_img_parse(struct ipuxcom_image *img, struct ipuxcom_errmsg *em)
{
	struct ipuxcom_image_info *in = &img->info;
	const uint8_t *d = img->data;
	size_t len = img->len;
	uint64_t expected, cursor;
	char quoted[64];
	uint32_t crc;
	int err;

	if (len < IPUXCOM_IMG_HEADER_SIZE)
		return ixc_err(em, -EBADMSG,
			       "truncated: %zu bytes, shorter than the %u-byte IPUIMG1 header",
			       len, IPUXCOM_IMG_HEADER_SIZE);
	if (memcmp(d + IXC_IMG_OFF_MAGIC, IPUXCOM_IMG_MAGIC, 8))
		return ixc_err(em, -EBADMSG, "bad magic '%s' (expected 'IPUIMG1\\x00')",
			       ixc_quote_bytes(d, 8, quoted, sizeof(quoted)));
	memset(in, 0, sizeof(*in));
	in->size = sizeof(*in);
	in->load_base = ixc_le32(d + IXC_IMG_OFF_LOAD_BASE);
	in->image_size = ixc_le32(d + IXC_IMG_OFF_IMAGE_SIZE);
	in->entry = ixc_le32(d + IXC_IMG_OFF_ENTRY);
	in->tile_count = ixc_le32(d + IXC_IMG_OFF_TILE_COUNT);
	in->template_tile = ixc_le32(d + IXC_IMG_OFF_TEMPLATE_TILE);
	in->template_crc32 = ixc_le32(d + IXC_IMG_OFF_TEMPLATE_CRC);
	in->patch_area_size = ixc_le32(d + IXC_IMG_OFF_PATCH_AREA);
	in->meta_crc32 = ixc_le32(d + IXC_IMG_OFF_META_CRC);
	in->file_size = len;

	err = ixc_img_check_geometry(in->tile_count, in->image_size, in->load_base, in->entry,
				     in->template_tile, false, em);
	if (err)
		return ixc_err_prefix(em, err, "header");

	img->template_off = IPUXCOM_IMG_HEADER_SIZE +
			    (uint64_t)in->tile_count * IPUXCOM_IMG_RECORD_SIZE;
	img->patch_area_off = img->template_off + in->image_size;
	expected = img->patch_area_off + in->patch_area_size;
	if (len < expected)
		return ixc_err(em, -EBADMSG,
			       "truncated: the header describes 0x%" PRIx64 " bytes (header, %"
			       PRIu32 " records, 0x%" PRIx32 "-byte template, 0x%" PRIx32
			       " bytes of patches), the file has 0x%zx",
			       expected, in->tile_count, in->image_size, in->patch_area_size, len);
	if (len > expected)
		return ixc_err(em, -EBADMSG,
			       "0x%" PRIx64 " bytes of trailing data after the patch area "
			       "(the header describes 0x%" PRIx64 " bytes, the file has 0x%zx)",
			       (uint64_t)len - expected, expected, len);

	cursor = img->patch_area_off;
	for (uint32_t t = 0; t < in->tile_count; t++) {
		const uint8_t *r = ixc_img_record(img, t);
		uint32_t off = ixc_le32(r + IXC_REC_OFF_PATCH_OFFSET);
		uint32_t size = ixc_le32(r + IXC_REC_OFF_PATCH_SIZE);
		uint32_t rcrc = ixc_le32(r + IXC_REC_OFF_CRC);
		uint32_t count = ixc_le32(r + IXC_REC_OFF_PATCH_COUNT);
		uint32_t got_count = 0, bytes = 0;

		if ((uint64_t)off + size > len)
			return ixc_extent_err(em, t, off, size, "exceeds file size 0x%zx", len);
		if (off < img->patch_area_off)
			return ixc_extent_err(em, t, off, size,
					      "starts before the patch area at 0x%" PRIx64,
					      img->patch_area_off);
		if (off < cursor)
			return ixc_extent_err(em, t, off, size, "overlaps the patches before it, "
					      "which end at 0x%" PRIx64 " (patch streams are "
					      "contiguous, in tile order)", cursor);
		if (off > cursor)
			return ixc_extent_err(em, t, off, size, "leaves a gap of 0x%" PRIx64
					      " bytes after the patches before it (patch streams "
					      "are contiguous, in tile order)", off - cursor);
		if (t == in->template_tile) {
			if (size || count)
				return ixc_err(em, -EBADMSG,
					       "tile %" PRIu32 " record: the template tile has a "
					       "0x%" PRIx32 "-byte stream of %" PRIu32
					       " patches; it must have none", t, size, count);
			if (rcrc != in->template_crc32)
				return ixc_err(em, -EBADMSG,
					       "tile %" PRIu32 " record: CRC32 0x%08" PRIx32
					       " of the template tile differs from the header's "
					       "template CRC32 0x%08" PRIx32, t, rcrc,
					       in->template_crc32);
		}
		err = ixc_img_check_patches(img, t, off, size, &got_count, &bytes, em);
		if (err)
			return err;
		if (got_count != count)
			return ixc_err(em, -EBADMSG,
				       "tile %" PRIu32 " record: patch count %" PRIu32
				       " but its 0x%" PRIx32 "-byte stream holds %" PRIu32
				       " patches",
				       t, count, size, got_count);
		in->patch_count += count;
		in->patch_data += bytes;
		if (!count)
			in->unpatched_tiles++;
		if (size > in->max_tile_patch_size)
			in->max_tile_patch_size = size;
		cursor += size;
	}
	if (cursor != expected)
		return ixc_err(em, -EBADMSG,
			       "patch area: the records cover 0x%" PRIx64 " of its 0x%" PRIx32
			       " bytes",
			       cursor - img->patch_area_off, in->patch_area_size);

	crc = ipuxcom_crc32(0, d, IXC_IMG_OFF_META_CRC);
	crc = ipuxcom_crc32(crc, d + IPUXCOM_IMG_HEADER_SIZE,
			    (size_t)in->tile_count * IPUXCOM_IMG_RECORD_SIZE);
	if (crc != in->meta_crc32)
		return ixc_err(em, -EBADMSG,
			       "header: metadata CRC32 0x%08" PRIx32 " does not match 0x%08" PRIx32
			       ", computed over header bytes 0-35 and the record table",
			       in->meta_crc32, crc);
	crc = ipuxcom_crc32(0, d + img->template_off, in->image_size);
	if (crc != in->template_crc32)
		return ixc_err(em, -EBADMSG,
			       "template image (tile %" PRIu32 ", file offset 0x%" PRIx64
			       "): CRC32 0x%08" PRIx32 " does not match the header's 0x%08" PRIx32,
			       in->template_tile, img->template_off, crc, in->template_crc32);
	return 0;
}

/* Takes ownership of @data (malloc'ed, @len bytes). */
static int ixc_img_adopt(uint8_t *data, size_t len, struct ipuxcom_image **out,
			 struct ipuxcom_errmsg *em)
{
	struct ipuxcom_image *img = calloc(1, sizeof(*img));
	int err;

	if (!img) {
		free(data);
		return ixc_err(em, -ENOMEM, "no memory for the image handle");
	}
	img->data = data;
	img->len = len;
	err = ixc_img_parse(img, em);
	if (err) {
		ipuxcom_image_free(img);
		return err;
	}
	*out = img;
	return 0;
}

int ipuxcom_image_from_buffer(const void *data, size_t len, struct ipuxcom_image **out,
			      struct ipuxcom_errmsg *em)
{
	uint8_t *copy;

	ixc_err_clear(em);
	if (!out)
		return ixc_err(em, -EINVAL, "no output handle");
	*out = NULL;
	if (!data && len)
		return ixc_err(em, -EINVAL, "no data");
	if ((uint64_t)len > IXC_IMG_MAX_FILE)
		return ixc_err(em, -EFBIG, "%zu bytes, larger than any valid IPUIMG1 file", len);
	copy = malloc(len ? len : 1);
	if (!copy)
		return ixc_err(em, -ENOMEM, "no memory for %zu bytes", len);
	if (len)
		memcpy(copy, data, len);
	return ixc_img_adopt(copy, len, out, em);
}

int ipuxcom_image_open(const char *path, struct ipuxcom_image **out,
		       struct ipuxcom_errmsg *em)
{
	uint64_t max = IXC_IMG_MAX_FILE;
	uint8_t *data;
	size_t len;
	int err;

	ixc_err_clear(em);
	if (!out)
		return ixc_err(em, -EINVAL, "no output handle");
	*out = NULL;
	err = ixc_read_file(path, max > SIZE_MAX ? SIZE_MAX : (size_t)max, "IPUIMG1 file",
			    &data, &len, em);
	if (err)
		return err;
	err = ixc_img_adopt(data, len, out, em);
	if (err)
		return ixc_err_prefix(em, err, "%s", path);
	return 0;
}

void ipuxcom_image_free(struct ipuxcom_image *img)
{
	if (!img)
		return;
	free(img->data);
	free(img);
}

int ipuxcom_image_get_info(const struct ipuxcom_image *img, struct ipuxcom_image_info *info)
{
	struct ipuxcom_image_info zero = { .size = sizeof(zero) };
	int err;

	if (!info)
		return -EINVAL;
	err = ixc_size_out_check(info, IPUXCOM_IMAGE_INFO_SIZE_MIN, IPUXCOM_ERR_FILE, "info.size",
				 "IPUXCOM_IMAGE_INFO_INIT", NULL, 0);
	if (err)
		return err;
	ixc_struct_out(info, info->size, img ? &img->info : &zero, sizeof(zero));
	return img ? 0 : -EINVAL;
}

int ipuxcom_image_get_tile(const struct ipuxcom_image *img, uint32_t tile,
			   struct ipuxcom_image_tile *out)
{
	struct ipuxcom_image_tile t = { .size = sizeof(t) };
	const uint8_t *r;
	uint64_t p, end;
	int err;

	if (!img || !out)
		return -EINVAL;
	err = ixc_size_out_check(out, IPUXCOM_IMAGE_TILE_SIZE_MIN, IPUXCOM_ERR_FILE, "out.size",
				 "IPUXCOM_IMAGE_TILE_INIT", NULL, 0);
	if (err)
		return err;
	if (tile >= img->info.tile_count)
		return -EINVAL;
	r = ixc_img_record(img, tile);
	t.patch_offset = ixc_le32(r + IXC_REC_OFF_PATCH_OFFSET);
	t.patch_size = ixc_le32(r + IXC_REC_OFF_PATCH_SIZE);
	t.crc32 = ixc_le32(r + IXC_REC_OFF_CRC);
	t.patch_count = ixc_le32(r + IXC_REC_OFF_PATCH_COUNT);
	/* The stream was checked at open. */
	p = t.patch_offset;
	end = p + t.patch_size;
	while (p < end) {
		uint32_t ps = ixc_le32(img->data + p + 4);

		t.patch_data += ps;
		p += IPUXCOM_IMG_PATCH_HEADER_SIZE + (uint64_t)ps;
	}
	ixc_struct_out(out, out->size, &t, sizeof(t));
	return 0;
}

uint32_t ixc_img_reconstruct(const struct ipuxcom_image *img, uint32_t tile,
			     ixc_emit_fn emit, void *ctx)
{
	const uint8_t *d = img->data, *tmpl = d + img->template_off;
	const uint8_t *r = ixc_img_record(img, tile);
	uint64_t p = ixc_le32(r + IXC_REC_OFF_PATCH_OFFSET);
	uint64_t end = p + ixc_le32(r + IXC_REC_OFF_PATCH_SIZE);
	struct ixc_crc_delta delta;

	ixc_crc_delta_init(&delta);
	emit(ctx, 0, tmpl, img->info.image_size);
	/* The stream was checked at open: every patch is inside the image. */
	while (p < end) {
		uint32_t po = ixc_le32(d + p), ps = ixc_le32(d + p + 4);
		const uint8_t *src = d + p + IPUXCOM_IMG_PATCH_HEADER_SIZE;

		emit(ctx, po, src, ps);
		ixc_crc_delta_add(&delta, po, tmpl + po, src, ps);
		p += IPUXCOM_IMG_PATCH_HEADER_SIZE + (uint64_t)ps;
	}
	return ixc_crc_delta_finish(&delta, img->info.template_crc32, img->info.image_size);
}

int ixc_img_crc_error(const struct ipuxcom_image *img, uint32_t tile, uint32_t got,
		      const char *how, struct ipuxcom_errmsg *em)
{
	return ixc_err(em, -EBADMSG,
		       "tile %" PRIu32 " image: CRC32 0x%08" PRIx32 " %s does not match the "
		       "record's 0x%08" PRIx32, tile, got, how,
		       ixc_le32(ixc_img_record(img, tile) + IXC_REC_OFF_CRC));
}

static void ixc_emit_copy(void *ctx, uint32_t off, const uint8_t *src, uint32_t n)
{
	memcpy((uint8_t *)ctx + off, src, n);
}

int ipuxcom_image_extract(const struct ipuxcom_image *img, uint32_t tile, void *buf,
			  size_t len, struct ipuxcom_errmsg *em)
{
	uint32_t crc;

	ixc_err_clear(em);
	if (!img || !buf)
		return ixc_err(em, -EINVAL, "no image or no buffer");
	if (tile >= img->info.tile_count)
		return ixc_err(em, -EINVAL, "tile %" PRIu32 " outside 0..%" PRIu32, tile,
			       img->info.tile_count - 1);
	if (len < img->info.image_size)
		return ixc_err(em, -EINVAL, "buffer of %zu bytes, the image has %" PRIu32, len,
			       img->info.image_size);
	crc = ixc_img_reconstruct(img, tile, ixc_emit_copy, buf);
	if (crc != ixc_le32(ixc_img_record(img, tile) + IXC_REC_OFF_CRC))
		return ixc_img_crc_error(img, tile, crc, "derived from the template and patches",
					 em);
	return 0;
}

static int ixc_verify_one(const struct ipuxcom_image *img, uint32_t tile, uint8_t *buf,
			  struct ipuxcom_errmsg *em)
{
	uint32_t rec = ixc_le32(ixc_img_record(img, tile) + IXC_REC_OFF_CRC);
	uint32_t derived = ixc_img_reconstruct(img, tile, ixc_emit_copy, buf);
	uint32_t direct = ipuxcom_crc32(0, buf, img->info.image_size);

	if (direct != rec)
		return ixc_img_crc_error(img, tile, direct, "of the reconstructed bytes", em);
	if (derived != direct)	/* cannot happen unless this library is broken */
		return ixc_err(em, -EIO,
			       "tile %" PRIu32 " image: CRC32 0x%08" PRIx32
			       " derived from the patches differs from 0x%08" PRIx32
			       " of the reconstructed bytes",
			       tile, derived, direct);
	return 0;
}

int ipuxcom_image_verify_tile(const struct ipuxcom_image *img, uint32_t tile,
			      struct ipuxcom_errmsg *em)
{
	uint8_t *buf;
	int err;

	ixc_err_clear(em);
	if (!img)
		return ixc_err(em, -EINVAL, "no image");
	if (tile >= img->info.tile_count)
		return ixc_err(em, -EINVAL, "tile %" PRIu32 " outside 0..%" PRIu32, tile,
			       img->info.tile_count - 1);
	buf = malloc(img->info.image_size);
	if (!buf)
		return ixc_err(em, -ENOMEM, "no memory for a tile image");
	err = ixc_verify_one(img, tile, buf, em);
	free(buf);
	return err;
}

int ipuxcom_image_verify(const struct ipuxcom_image *img, struct ipuxcom_errmsg *em)
{
	uint8_t *buf;
	int err = 0;

	ixc_err_clear(em);
	if (!img)
		return ixc_err(em, -EINVAL, "no image");
	buf = malloc(img->info.image_size);
	if (!buf)
		return ixc_err(em, -ENOMEM, "no memory for a tile image");
	for (uint32_t t = 0; t < img->info.tile_count && !err; t++)
		err = ixc_verify_one(img, t, buf, em);
	free(buf);
	return err;
}

/* The deprecated name (issue 23: one destructor verb, one prefix). */
void ipuxcom_image_close(struct ipuxcom_image *img)
{
	ipuxcom_image_free(img);
}
