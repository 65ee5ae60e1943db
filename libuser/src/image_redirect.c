// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Entry redirect [S "Compact Physical Image"]: "preserves the initial
 * nop; sync3 rendezvous and replaces the following two words with
 * setzi $m0, target; br $m0. The target is recovered from a unique
 * two-word marker emitted inside a bare supervisor function and skips
 * that function's repeated marker and sync3 prefix."
 *
 * This project's reading (docs/ipuimg-format.md, "Redirect"):
 *  - the "initial" words are the two at the image's entry point; the
 *    second must be sync3 (0x41800000 | zone 3 [RE, HW-INSN-FIXED]). The first
 *    is not checked: the compiler's ordinary nop encoding is not in the
 *    notes (0x44f0f3f1 is the debugger's injectable no-op, not it [S]);
 *  - the marker is the two given words, searched at 4-aligned addresses;
 *    it must occur exactly once;
 *  - the prefix is "marker word 0, marker word 1, sync3" and the target
 *    is the word after it (marker address + 12). A marker not followed by
 *    sync3 is refused, since the target would then be a guess.
 * Encodings: setzi $m0, imm = 0x19000000 | 0 << 20 | imm (imm < 2^20),
 * br $m0 = 0x43000000 [RE, HW-INSN-FIXED].
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "image_internal.h"
#include "internal.h"

int ipuxcom_redirect_raw(void *image, size_t size, uint32_t load_base, uint32_t entry,
			 const struct ipuxcom_redirect_spec *spec, uint32_t *target,
			 struct ipuxcom_errmsg *em)
{
	struct ipuxcom_redirect_spec sp;
	uint8_t *p = image;
	uint64_t end = (uint64_t)load_base + size;
	size_t eo, mo = 0;
	uint32_t w, tgt;
	int err;

	ixc_err_clear(em);
	if (!image || !spec)
		return ixc_err(em, -EINVAL, "no image or no redirect");
	err = ixc_size_in(&sp, sizeof(sp), spec, IPUXCOM_REDIRECT_SPEC_SIZE_MIN, IPUXCOM_ERR_FILE,
			  "spec.size", "IPUXCOM_REDIRECT_SPEC_INIT", em ? em->msg : NULL,
			  em ? sizeof(em->msg) : 0);
	if (err)
		return err;
	spec = &sp;
	if (size > IPUXCOM_IMG_SRAM_SIZE)
		return ixc_err(em, -EINVAL, "image of 0x%zx bytes, larger than tile SRAM", size);
	if (entry & 3 || entry < load_base || (uint64_t)entry + 16 > end)
		return ixc_err(em, -EINVAL,
			       "entry 0x%" PRIx32 ": the four words from the entry are not all "
			       "4-aligned words of the image [0x%" PRIx32 ", 0x%" PRIx64 ")",
			       entry, load_base, end);
	eo = entry - load_base;
	w = ixc_le32(p + eo + 4);
	if (w != IPUXCOM_INSN_SYNC_SUPERVISOR)
		return ixc_err(em, -EBADMSG,
			       "the word at entry+4 (0x%" PRIx32 ") is 0x%08" PRIx32 ", not sync3 "
			       "0x%08x: the entry does not start with 'nop; sync3'",
			       entry + 4, w, IPUXCOM_INSN_SYNC_SUPERVISOR);

	if (spec->by_marker) {
		uint32_t m0 = spec->marker[0], m1 = spec->marker[1], count = 0;
		size_t second = 0;

		for (size_t o = (4 - (load_base & 3)) & 3; o + 8 <= size; o += 4) {
			if (ixc_le32(p + o) != m0 || ixc_le32(p + o + 4) != m1)
				continue;
			if (count == 0)
				mo = o;
			else if (count == 1)
				second = o;
			count++;
		}
		if (count == 0)
			return ixc_err(em, -ENOENT,
				       "marker 0x%08" PRIx32 " 0x%08" PRIx32
				       " not found in the image", m0, m1);
		if (count > 1)
			return ixc_err(em, -ENOTUNIQ,
				       "marker 0x%08" PRIx32 " 0x%08" PRIx32 " found %" PRIu32
				       " times (first at 0x%" PRIx64 " and 0x%" PRIx64
				       "); it must be unique",
				       m0, m1, count, (uint64_t)load_base + mo,
				       (uint64_t)load_base + second);
		if (mo + 12 > size)
			return ixc_err(em, -EBADMSG,
				       "marker at 0x%" PRIx64 " ends the image: no sync3 after it",
				       (uint64_t)load_base + mo);
		w = ixc_le32(p + mo + 8);
		if (w != IPUXCOM_INSN_SYNC_SUPERVISOR)
			return ixc_err(em, -EBADMSG,
				       "marker at 0x%" PRIx64 " is followed by 0x%08" PRIx32
				       ", not sync3 0x%08x (expected prefix: marker, marker, "
				       "sync3)",
				       (uint64_t)load_base + mo, w, IPUXCOM_INSN_SYNC_SUPERVISOR);
		if (mo < eo + 16 && eo + 8 < mo + 12)
			return ixc_err(em, -EBADMSG,
				       "marker prefix at 0x%" PRIx64
				       " overlaps the redirected words at 0x%" PRIx64,
				       (uint64_t)load_base + mo,
				       (uint64_t)load_base + eo + 8);
		tgt = (uint32_t)(load_base + mo + 12);
	} else {
		tgt = spec->target;
	}
	if (tgt & 3)
		return ixc_err(em, -ERANGE, "target 0x%" PRIx32 " is not 4-byte aligned", tgt);
	if (tgt >= IPUXCOM_SETZI_IMM_LIMIT)
		return ixc_err(em, -ERANGE,
			       "target 0x%" PRIx32 " does not fit setzi's 20-bit immediate", tgt);
	if (tgt < load_base || (uint64_t)tgt + 4 > end)
		return ixc_err(em, -ERANGE,
			       "target 0x%" PRIx32 " outside the image [0x%" PRIx32
			       ", 0x%" PRIx64 ")", tgt, load_base, end);
	ixc_put_le32(p + eo + 8, IPUXCOM_INSN_SETZI_M0(tgt));
	ixc_put_le32(p + eo + 12, IPUXCOM_INSN_BR_M0);
	if (target)
		*target = tgt;
	return 0;
}

struct ixc_redirect_source {
	const struct ipuxcom_image *img;
	const struct ipuxcom_redirect_spec *spec;
	struct ipuxcom_redirect_report *rep;
	uint8_t *buf;
};

static int ixc_redirect_get(void *ctx, uint32_t tile, const void **image,
			    struct ipuxcom_errmsg *em)
{
	struct ixc_redirect_source *s = ctx;
	const struct ipuxcom_image_info *in = &s->img->info;
	uint32_t tgt;
	int err;

	err = ipuxcom_image_extract(s->img, tile, s->buf, in->image_size, em);
	if (err)
		return err;
	err = ipuxcom_redirect_raw(s->buf, in->image_size, in->load_base, in->entry, s->spec,
				   &tgt, em);
	if (err)
		return ixc_err_prefix(em, err, "tile %" PRIu32, tile);
	/* The template tile is fetched twice; count each tile once. */
	if (tile != in->template_tile || s->rep->tiles == 0) {
		if (!s->rep->tiles || tgt < s->rep->target_min)
			s->rep->target_min = tgt;
		if (!s->rep->tiles || tgt > s->rep->target_max)
			s->rep->target_max = tgt;
		s->rep->tiles++;
	}
	*image = s->buf;
	return 0;
}

int ipuxcom_image_redirect(const struct ipuxcom_image *img,
			   const struct ipuxcom_redirect_spec *spec, void **out, size_t *out_len,
			   struct ipuxcom_redirect_report *report, struct ipuxcom_errmsg *em)
{
	struct ipuxcom_redirect_report rep = { .size = sizeof(rep) };
	struct ipuxcom_redirect_spec sp;
	struct ixc_redirect_source s = { img, &sp, &rep, NULL };
	struct ipuxcom_image_pack_params pp = IPUXCOM_IMAGE_PACK_PARAMS_INIT;
	int err;

	ixc_err_clear(em);
	if (!img || !spec || !out || !out_len)
		return ixc_err(em, -EINVAL, "missing image, redirect or output");
	*out = NULL;
	*out_len = 0;
	err = ixc_size_in(&sp, sizeof(sp), spec, IPUXCOM_REDIRECT_SPEC_SIZE_MIN, IPUXCOM_ERR_FILE,
			  "spec.size", "IPUXCOM_REDIRECT_SPEC_INIT", em ? em->msg : NULL,
			  em ? sizeof(em->msg) : 0);
	if (!err && report)
		err = ixc_size_out_check(report, IPUXCOM_REDIRECT_REPORT_SIZE_MIN,
					 IPUXCOM_ERR_FILE, "report.size",
					 "IPUXCOM_REDIRECT_REPORT_INIT", em ? em->msg : NULL,
					 em ? sizeof(em->msg) : 0);
	if (err)
		return err;
	sp.size = sizeof(sp);	/* the copy is this library's version */
	s.buf = malloc(img->info.image_size);
	if (!s.buf)
		return ixc_err(em, -ENOMEM, "no memory for a tile image");
	pp.tile_count = img->info.tile_count;
	pp.image_size = img->info.image_size;
	pp.load_base = img->info.load_base;
	pp.entry = img->info.entry;
	pp.template_tile = img->info.template_tile;
	err = ipuxcom_image_pack(&pp, ixc_redirect_get, &s, out, out_len, em);
	free(s.buf);
	if (!err && report)
		ixc_struct_out(report, report->size, &rep, sizeof(rep));
	return err;
}
