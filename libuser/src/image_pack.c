// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * IPUIMG1 writer.
 *
 * Size matters here: the notes pack 1,472 images (about 299 MiB) into
 * 1,885,475 bytes [S]. Two choices make ours smaller:
 *
 *  - The template. With IPUXCOM_IMG_TEMPLATE_AUTO, two stages:
 *    1. every image is cut into 128-byte blocks and hashed; at every block
 *       position the tiles are counted per hash, and each tile scores the
 *       number of other tiles sharing each of its blocks. The 8 best are
 *       candidates: the most common images, at block granularity.
 *    2. Block equality is blind to how much a block differs (a 1-byte
 *       delay field and a rewritten block count the same), so the
 *       candidates, together with 32 tiles sampled across the tile range,
 *       are ranked by the exact size of the patch streams they would need
 *       for the sampled tiles: the sample's medoid under the real cost,
 *       among the common images. A tile that is the odd one out (e.g. the one with
 *       host-exchange code) is never picked just because it is tile 0.
 *    With at most 40 tiles every tile is a candidate and a sample, so the
 *    choice is the exact minimum.
 *  - The patches. A patch costs an 8-byte header, so two differing runs
 *    at most 8 equal bytes apart are cheaper (or no dearer) as one patch:
 *    merging exactly those gaps gives the smallest stream for a given
 *    template, since the decisions for different gaps are independent.
 *
 * Each tile's CRC32 is derived from the template's CRC32 and the patches
 * (struct ixc_crc_delta), so unchanged bytes are read once, by the diff.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "image_internal.h"
#include "internal.h"

/* Template choice: block size, candidates from block scores, sampled tiles. */
#define IXC_TPL_BLOCK		128u
#define IXC_TPL_CANDIDATES	8u
#define IXC_TPL_SAMPLES		32u
/* Merge differing runs separated by at most this many equal bytes. */
#define IXC_MERGE_GAP		IPUXCOM_IMG_PATCH_HEADER_SIZE

static inline uint64_t ixc_ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* First index >= @i where @a and @b differ, or @n. */
static size_t ixc_next_diff(const uint8_t *a, const uint8_t *b, size_t i, size_t n)
{
	while (i + 32 <= n) {
		uint64_t x = (ixc_ld64(a + i) ^ ixc_ld64(b + i)) |
			     (ixc_ld64(a + i + 8) ^ ixc_ld64(b + i + 8)) |
			     (ixc_ld64(a + i + 16) ^ ixc_ld64(b + i + 16)) |
			     (ixc_ld64(a + i + 24) ^ ixc_ld64(b + i + 24));
		if (x)
			break;
		i += 32;
	}
	while (i + 8 <= n) {
		uint64_t x = ixc_ld64(a + i) ^ ixc_ld64(b + i);

		if (x)	/* little endian: the lowest set byte comes first */
			return i + (size_t)__builtin_ctzll(x) / 8;
		i += 8;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* First index >= @i where @a and @b are equal, or @n. */
static size_t ixc_next_same(const uint8_t *a, const uint8_t *b, size_t i, size_t n)
{
	while (i < n && a[i] != b[i])
		i++;
	return i;
}

/*
 * The next patch at or after *@i: [*@start, *@end) covers a run of
 * differing bytes and every following run at most IXC_MERGE_GAP equal
 * bytes away. *@i becomes the first differing byte after it (or @n).
 * Returns false when there is no difference left.
 */
static bool ixc_next_patch(const uint8_t *tmpl, const uint8_t *img, size_t n, size_t *i,
			   size_t *start, size_t *end)
{
	size_t j, e;

	if (*i >= n)
		return false;
	*start = *i;
	e = ixc_next_same(tmpl, img, *i, n);
	for (;;) {
		j = ixc_next_diff(tmpl, img, e, n);
		if (j >= n || j - e > IXC_MERGE_GAP)
			break;
		e = ixc_next_same(tmpl, img, j, n);
	}
	*end = e;
	*i = j;
	return true;
}

/* Bytes of @img's patch stream against @tmpl; stops counting past @limit. */
static uint64_t ixc_patch_cost(const uint8_t *tmpl, const uint8_t *img, size_t n,
			       uint64_t limit)
{
	size_t i = ixc_next_diff(tmpl, img, 0, n), start, end;
	uint64_t cost = 0;

	while (cost <= limit && ixc_next_patch(tmpl, img, n, &i, &start, &end))
		cost += IPUXCOM_IMG_PATCH_HEADER_SIZE + (end - start);
	return cost;
}

struct ixc_out {
	uint8_t *p;
	size_t len;
	size_t cap;
};

static int ixc_out_reserve(struct ixc_out *o, size_t more, struct ipuxcom_errmsg *em)
{
	size_t cap;
	uint8_t *np;

	if (more > UINT32_MAX || o->len + more > (size_t)UINT32_MAX)
		return ixc_err(em, -EFBIG,
			       "the packed image would exceed 4 GiB (IPUIMG1 offsets are 32-bit)");
	if (o->len + more <= o->cap)
		return 0;
	cap = o->cap ? o->cap : 1u << 20;
	while (cap < o->len + more)
		cap *= 2;
	np = realloc(o->p, cap);
	if (!np)
		return ixc_err(em, -ENOMEM, "no memory for a %zu-byte packed image", cap);
	o->p = np;
	o->cap = cap;
	return 0;
}

static uint32_t ixc_block_hash(const uint8_t *p, size_t n)
{
	const uint64_t k0 = 0x9e3779b97f4a7c15ull, k1 = 0xc2b2ae3d27d4eb4full;
	const uint64_t k2 = 0x165667b19e3779f9ull, k3 = 0xd6e8feb86659fd93ull;
	uint64_t h0 = n, h1 = 1, h2 = 2, h3 = 3, h;
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		h0 = (h0 ^ ixc_ld64(p + i)) * k0;
		h1 = (h1 ^ ixc_ld64(p + i + 8)) * k1;
		h2 = (h2 ^ ixc_ld64(p + i + 16)) * k2;
		h3 = (h3 ^ ixc_ld64(p + i + 24)) * k3;
	}
	for (; i < n; i++)
		h0 = (h0 ^ p[i]) * k0;
	h = h0 ^ (h1 << 17 | h1 >> 47) ^ (h2 << 31 | h2 >> 33) ^ (h3 << 47 | h3 >> 17);
	h ^= h >> 29;
	h *= k1;
	return (uint32_t)(h >> 32);
}

static int ixc_fetch(ipuxcom_image_source_fn source, void *ctx, uint32_t tile,
		     const uint8_t **img, struct ipuxcom_errmsg *em)
{
	const void *p = NULL;
	int err;

	ixc_err_clear(em);
	err = source(ctx, tile, &p, em);
	if (err) {
		if (err > 0)
			err = -EIO;
		if (em && !em->msg[0])
			ixc_err(em, err, "tile %" PRIu32 ": the image source failed", tile);
		return err;
	}
	if (!p)
		return ixc_err(em, -EINVAL, "tile %" PRIu32 ": the image source gave no image",
			       tile);
	*img = p;
	return 0;
}

/* Stage 1: per tile, how many (tile, block) pairs share its blocks. */
static int ixc_block_scores(const struct ipuxcom_image_pack_params *pp,
			    ipuxcom_image_source_fn source, void *ctx, uint64_t *score,
			    struct ipuxcom_errmsg *em)
{
	uint32_t n = pp->tile_count, nblocks = (pp->image_size + IXC_TPL_BLOCK - 1) / IXC_TPL_BLOCK;
	uint32_t tsize = 1, *hashes, *keys, *counts, *stamp, *slot_of;
	int err = 0;

	while (tsize < 2 * n)
		tsize *= 2;
	/* <= 1472 * 4992 * 4 bytes (29 MiB) for the largest images. */
	hashes = malloc((size_t)n * nblocks * sizeof(*hashes));
	keys = malloc(tsize * sizeof(*keys));
	counts = malloc(tsize * sizeof(*counts));
	stamp = calloc(tsize, sizeof(*stamp));
	slot_of = malloc(n * sizeof(*slot_of));
	if (!hashes || !keys || !counts || !stamp || !slot_of) {
		err = ixc_err(em, -ENOMEM, "no memory to choose the template");
		goto out;
	}
	for (uint32_t t = 0; t < n; t++) {
		const uint8_t *img;

		err = ixc_fetch(source, ctx, t, &img, em);
		if (err)
			goto out;
		for (uint32_t b = 0; b < nblocks; b++) {
			size_t off = (size_t)b * IXC_TPL_BLOCK;
			size_t len = pp->image_size - off < IXC_TPL_BLOCK ?
				     pp->image_size - off : IXC_TPL_BLOCK;

			hashes[(size_t)b * n + t] = ixc_block_hash(img + off, len);
		}
	}
	for (uint32_t b = 0; b < nblocks; b++) {
		const uint32_t *h = hashes + (size_t)b * n;
		uint32_t t;

		/* A block every tile shares adds the same to every score. */
		for (t = 1; t < n && h[t] == h[0]; t++)
			;
		if (t == n)
			continue;
		/* Count the tiles per hash: open addressing, stamped per block. */
		for (t = 0; t < n; t++) {
			uint32_t sl = (h[t] * 0x9e3779b1u) & (tsize - 1);

			while (stamp[sl] == b + 1 && keys[sl] != h[t])
				sl = (sl + 1) & (tsize - 1);
			if (stamp[sl] != b + 1) {
				stamp[sl] = b + 1;
				keys[sl] = h[t];
				counts[sl] = 0;
			}
			counts[sl]++;
			slot_of[t] = sl;
		}
		for (t = 0; t < n; t++)
			score[t] += counts[slot_of[t]];
	}
out:
	free(hashes);
	free(keys);
	free(counts);
	free(stamp);
	free(slot_of);
	return err;
}

/*
 * The template (see the top of this file): candidates from the block
 * scores, ranked by their exact patch cost over a sample of tiles.
 */
static int ixc_choose_template(const struct ipuxcom_image_pack_params *pp,
			       ipuxcom_image_source_fn source, void *ctx, uint32_t *tmpl,
			       struct ipuxcom_errmsg *em)
{
	enum { NCAND = IXC_TPL_CANDIDATES, NSAMP = IXC_TPL_SAMPLES };
	uint32_t n = pp->tile_count, member[NCAND + NSAMP], nm = 0;
	bool cand[NCAND + NSAMP] = { false }, samp[NCAND + NSAMP] = { false };
	uint64_t best_total = 0, best_count = 0;
	size_t size = pp->image_size;
	uint64_t *score = NULL;
	uint8_t *imgs = NULL;
	int err = 0;

	*tmpl = 0;
	if (n <= NCAND + NSAMP) {
		/* Few tiles: every tile is a candidate and a sample. */
		for (uint32_t t = 0; t < n; t++) {
			member[nm] = t;
			cand[nm] = samp[nm] = true;
			nm++;
		}
	} else {
		score = calloc(n, sizeof(*score));
		if (!score)
			return ixc_err(em, -ENOMEM, "no memory to choose the template");
		err = ixc_block_scores(pp, source, ctx, score, em);
		if (err)
			goto out;
		/*
		 * Samples, candidates themselves: tiles k * step mod n with step
		 * coprime to n, so they are distinct and not in step with any
		 * period of the tile numbering (an even stride would never see
		 * odd tiles, say). More candidates: the best block scores (ties:
		 * the lower tile).
		 */
		uint32_t step = 2654435761u % n, g, h;

		for (;; step++) {
			for (g = step, h = n; h;) {	/* gcd(step, n) */
				uint32_t r = g % h;

				g = h;
				h = r;
			}
			if (g == 1)
				break;
		}
		for (uint32_t k = 0; k < NSAMP; k++) {
			member[nm] = (uint32_t)((uint64_t)k * step % n);
			samp[nm] = cand[nm] = true;
			nm++;
		}
		for (uint32_t k = 0; k < NCAND; k++) {
			uint32_t b = UINT32_MAX;
			uint32_t i;

			for (uint32_t t = 0; t < n; t++) {
				bool taken = false;

				for (i = 0; i < nm && !taken; i++)
					taken = member[i] == t;
				if (!taken && (b == UINT32_MAX || score[t] > score[b]))
					b = t;
			}
			for (i = 0; i < nm && member[i] != b; i++)
				;
			if (i == nm)
				member[nm++] = b;
			cand[i] = true;
		}
	}
	imgs = malloc(nm * size);
	if (!imgs) {
		err = ixc_err(em, -ENOMEM, "no memory to choose the template");
		goto out;
	}
	for (uint32_t i = 0; i < nm; i++) {
		const uint8_t *img;

		err = ixc_fetch(source, ctx, member[i], &img, em);
		if (err)
			goto out;
		memcpy(imgs + i * size, img, size);
	}
	/*
	 * Mean cost over the samples other than the candidate itself;
	 * stop summing once a candidate cannot beat the best (compared as
	 * total / count, cross-multiplied). Ties keep the lower tile.
	 */
	for (uint32_t c = 0; c < nm; c++) {
		uint64_t total = 0, count = 0;
		bool pruned = false;

		if (!cand[c])
			continue;
		for (uint32_t i = 0; i < nm; i++)
			count += samp[i] && i != c;
		for (uint32_t i = 0; i < nm && !pruned; i++) {
			if (!samp[i] || i == c)
				continue;
			/* Past this the candidate's mean exceeds the best one's. */
			uint64_t limit = best_count ? best_total * count / best_count : UINT64_MAX;

			total += ixc_patch_cost(imgs + c * size, imgs + i * size, size,
						limit > total ? limit - total : 0);
			pruned = best_count && total * best_count > best_total * count;
		}
		if (pruned)
			continue;
		if (!best_count || total * best_count < best_total * count ||
		    (total * best_count == best_total * count && member[c] < *tmpl)) {
			best_total = total;
			best_count = count ? count : 1;
			*tmpl = member[c];
		}
	}
out:
	free(imgs);
	free(score);
	return err;
}

/* Append tile @img's patch stream against @tmpl; count and CRC32 out. */
static int ixc_encode_tile(struct ixc_out *o, size_t tmpl_off, const uint8_t *img,
			   uint32_t size, uint32_t tmpl_crc, uint32_t *count, uint32_t *crc,
			   struct ipuxcom_errmsg *em)
{
	struct ixc_crc_delta delta;
	size_t i, start, end;
	uint32_t k = 0;
	int err;

	ixc_crc_delta_init(&delta);
	i = ixc_next_diff(o->p + tmpl_off, img, 0, size);
	while (ixc_next_patch(o->p + tmpl_off, img, size, &i, &start, &end)) {
		const uint8_t *tmpl;

		err = ixc_out_reserve(o, IPUXCOM_IMG_PATCH_HEADER_SIZE + (end - start), em);
		if (err)
			return err;
		tmpl = o->p + tmpl_off;	/* the buffer may have moved */
		ixc_put_le32(o->p + o->len, (uint32_t)start);
		ixc_put_le32(o->p + o->len + 4, (uint32_t)(end - start));
		memcpy(o->p + o->len + IPUXCOM_IMG_PATCH_HEADER_SIZE, img + start, end - start);
		o->len += IPUXCOM_IMG_PATCH_HEADER_SIZE + (end - start);
		ixc_crc_delta_add(&delta, start, tmpl + start, img + start, end - start);
		k++;
	}
	*count = k;
	*crc = ixc_crc_delta_finish(&delta, tmpl_crc, size);
	return 0;
}

int ipuxcom_image_pack(const struct ipuxcom_image_pack_params *params,
		       ipuxcom_image_source_fn source, void *ctx, void **out, size_t *out_len,
		       struct ipuxcom_errmsg *em)
{
	struct ipuxcom_image_pack_params pp;
	struct ixc_out o = { 0 };
	size_t rec_off = IPUXCOM_IMG_HEADER_SIZE, tmpl_off, area_off;
	const uint8_t *img;
	uint32_t tmpl_crc, crc;
	int err;

	ixc_err_clear(em);
	if (!params || !source || !out || !out_len)
		return ixc_err(em, -EINVAL, "missing parameters, source or output");
	*out = NULL;
	*out_len = 0;
	err = ixc_size_in(&pp, sizeof(pp), params, IPUXCOM_IMAGE_PACK_PARAMS_SIZE_MIN,
			  IPUXCOM_ERR_FILE, "params.size", "IPUXCOM_IMAGE_PACK_PARAMS_INIT",
			  em ? em->msg : NULL, em ? sizeof(em->msg) : 0);
	if (err)
		return err;
	pp.size = sizeof(pp);	/* the copy is this library's version */
	err = ixc_img_check_geometry(pp.tile_count, pp.image_size, pp.load_base, pp.entry,
				     pp.template_tile, true, em);
	if (err)
		return ixc_err_prefix(em, -EINVAL, "pack parameters");
	if (pp.template_tile == IPUXCOM_IMG_TEMPLATE_AUTO) {
		err = ixc_choose_template(&pp, source, ctx, &pp.template_tile, em);
		if (err)
			return err;
	}
	tmpl_off = rec_off + (size_t)pp.tile_count * IPUXCOM_IMG_RECORD_SIZE;
	area_off = tmpl_off + pp.image_size;
	err = ixc_out_reserve(&o, area_off, em);
	if (err)
		return err;
	memset(o.p, 0, area_off);
	o.len = area_off;

	err = ixc_fetch(source, ctx, pp.template_tile, &img, em);
	if (err)
		goto fail;
	memcpy(o.p + tmpl_off, img, pp.image_size);
	tmpl_crc = ipuxcom_crc32(0, o.p + tmpl_off, pp.image_size);

	for (uint32_t t = 0; t < pp.tile_count; t++) {
		size_t start = o.len;
		uint32_t count = 0;

		if (t == pp.template_tile) {
			crc = tmpl_crc;
		} else {
			err = ixc_fetch(source, ctx, t, &img, em);
			if (err)
				goto fail;
			err = ixc_encode_tile(&o, tmpl_off, img, pp.image_size, tmpl_crc, &count,
					      &crc, em);
			if (err)
				goto fail;
		}
		uint8_t *r = o.p + rec_off + (size_t)t * IPUXCOM_IMG_RECORD_SIZE;

		ixc_put_le32(r + IXC_REC_OFF_PATCH_OFFSET, (uint32_t)start);
		ixc_put_le32(r + IXC_REC_OFF_PATCH_SIZE, (uint32_t)(o.len - start));
		ixc_put_le32(r + IXC_REC_OFF_CRC, crc);
		ixc_put_le32(r + IXC_REC_OFF_PATCH_COUNT, count);
	}

	memcpy(o.p + IXC_IMG_OFF_MAGIC, IPUXCOM_IMG_MAGIC, 8);
	ixc_put_le32(o.p + IXC_IMG_OFF_LOAD_BASE, pp.load_base);
	ixc_put_le32(o.p + IXC_IMG_OFF_IMAGE_SIZE, pp.image_size);
	ixc_put_le32(o.p + IXC_IMG_OFF_ENTRY, pp.entry);
	ixc_put_le32(o.p + IXC_IMG_OFF_TILE_COUNT, pp.tile_count);
	ixc_put_le32(o.p + IXC_IMG_OFF_TEMPLATE_TILE, pp.template_tile);
	ixc_put_le32(o.p + IXC_IMG_OFF_TEMPLATE_CRC, tmpl_crc);
	ixc_put_le32(o.p + IXC_IMG_OFF_PATCH_AREA, (uint32_t)(o.len - area_off));
	crc = ipuxcom_crc32(0, o.p, IXC_IMG_OFF_META_CRC);
	crc = ipuxcom_crc32(crc, o.p + rec_off, tmpl_off - rec_off);
	ixc_put_le32(o.p + IXC_IMG_OFF_META_CRC, crc);

	*out = o.p;
	*out_len = o.len;
	ixc_err_clear(em);
	return 0;
fail:
	free(o.p);
	return err;
}

struct ixc_buf_source {
	const void *const *images;
};

static int ixc_buf_get(void *ctx, uint32_t tile, const void **image, struct ipuxcom_errmsg *em)
{
	const struct ixc_buf_source *s = ctx;

	*image = s->images[tile];
	if (!*image)
		return ixc_err(em, -EINVAL, "tile %" PRIu32 ": no image buffer", tile);
	return 0;
}

int ipuxcom_image_pack_buffers(const struct ipuxcom_image_pack_params *params,
			       const void *const *images, void **out, size_t *out_len,
			       struct ipuxcom_errmsg *em)
{
	struct ixc_buf_source s = { images };

	if (!images) {
		ixc_err_clear(em);
		return ixc_err(em, -EINVAL, "no image buffers");
	}
	return ipuxcom_image_pack(params, ixc_buf_get, &s, out, out_len, em);
}
