/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The card lane's config capture: the real C600 capture the seed describes
 * ("Direct Attach And Autoloader": IPUCFG1, 2,003 ordered config-BAR
 * writes), a test vector the Makefile puts into the card VM's initramfs
 * after checking its SHA-256 (selftests/vm/card-cfg.sh), found by the
 * tests as $IPUXCOM_CARD_CFG. Never part of the product.
 *
 * And what every load on the card must show at the device (the stand-in's
 * "bar_writes") or at the tracepoint: the capture's records, in order,
 * before the autoloader's first word, its GS1/GS2 records handled as the
 * mode says (HW-LOAD step 2).
 * Include after kselftest_harness.h and ipuxcom.h.
 */
#ifndef IXT_CARD_CFG_H
#define IXT_CARD_CFG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ipuxcom.h"
#include "c600_record.h"

/* The seed's count of records in the capture. */
#define IXT_CARD_CFG_RECORDS	2003u

/* $IPUXCOM_CARD_CFG, or NULL when the lane gives none. */
static inline const char *ixt_card_cfg_path(void)
{
	const char *p = getenv("IPUXCOM_CARD_CFG");

	return p && *p ? p : NULL;
}

/* The capture's records (free() them); 0 or -errno, @msg says why. */
static inline int ixt_card_cfg(struct ipuxcom_cfg_record **recs, uint32_t *n, char *msg,
			       size_t msglen)
{
	const char *path = ixt_card_cfg_path();
	struct ipuxcom_errmsg em = { "" };
	int err;

	*recs = NULL;
	*n = 0;
	if (!path) {
		snprintf(msg, msglen, "IPUXCOM_CARD_CFG not set: the card lane's image has no "
			 "config capture (Makefile CARD_CFG)");
		return -ENOENT;
	}
	err = ipuxcom_cfg_load(path, recs, n, &em);
	if (err) {
		snprintf(msg, msglen, "%s: %s", path, em.msg);
		return err;
	}
	if (*n != IXT_CARD_CFG_RECORDS) {
		snprintf(msg, msglen, "%s: %u records, the seed's capture has %u", path, *n,
			 IXT_CARD_CFG_RECORDS);
		free(*recs);
		*recs = NULL;
		return -EINVAL;
	}
	return 0;
}

/* Whether the replay writes record @r in mode @hsp (enum ipuxcom_cfg_hsp). */
static inline bool ixt_cfg_replayed(const struct ipuxcom_cfg_record *r, uint32_t hsp)
{
	if (r->offset == REC_GS1)
		return hsp == IPUXCOM_CFG_HSP_REPLAY;
	if (r->offset == REC_GS2)
		return hsp != IPUXCOM_CFG_HSP_CLEAR;
	return true;
}

/*
 * In the writes @w (@nw of them) the device or the tracepoint saw: the
 * capture @c (@nc records) as replayed in mode @hsp, contiguous and in
 * order, then -- skipped records' controls -- GS1 (and in 'clear' mode
 * GS2) written with MARK 0, then the autoloader's AUTOLDCSR = 0. Returns
 * the index of that AUTOLDCSR = 0, or -1 after a failed assertion.
 */
static inline int ixt_expect_capture_then_autoloader(struct __test_metadata *_metadata,
						     const char *where,
						     const struct ipuxcom_cfg_record *w, uint32_t nw,
						     const struct ipuxcom_cfg_record *c, uint32_t nc,
						     uint32_t hsp)
{
	uint32_t first = 0, want = 0, k = 0, i;
	int auto_at;

	for (uint32_t r = 0; r < nc; r++)
		want += ixt_cfg_replayed(&c[r], hsp);
	while (first < nc && !ixt_cfg_replayed(&c[first], hsp))
		first++;
	if (first == nc)
		return -1;
	/* where every replayed record arrives, one after the other */
	for (i = 0; i < nw; i++) {
		uint32_t got = 0;

		k = i;
		for (uint32_t r = first; r < nc && k < nw; r++) {
			if (!ixt_cfg_replayed(&c[r], hsp))
				continue;
			if (w[k].offset != c[r].offset || w[k].value != c[r].value)
				break;
			k++;
			got++;
		}
		if (got == want)
			break;
	}
	EXPECT_LT(i, nw) TH_LOG("%s: the capture's records do not arrive in order in %u writes",
				where, nw);
	if (i >= nw)
		return -1;
	/* k: the first write after the replay; the marks the mode clears */
	if (hsp != IPUXCOM_CFG_HSP_REPLAY) {
		EXPECT_LT(k, nw);
		if (k >= nw)
			return -1;
		EXPECT_EQ(REC_GS1, w[k].offset) TH_LOG("%s: write %u after the replay", where, k);
		EXPECT_EQ(0, w[k].value & 0xffff) TH_LOG("%s: GS1 after the replay", where);
		k++;
	}
	if (hsp == IPUXCOM_CFG_HSP_CLEAR) {
		EXPECT_LT(k, nw);
		if (k >= nw)
			return -1;
		EXPECT_EQ(REC_GS2, w[k].offset) TH_LOG("%s: write %u after the replay", where, k);
		EXPECT_EQ(0, w[k].value & 0xffff) TH_LOG("%s: GS2 after the replay", where);
		k++;
	}
	/* the autoloader after all of it, with no mark posted in between */
	auto_at = -1;
	for (i = k; i < nw; i++) {
		if (w[i].offset == REC_AUTOLDCSR && w[i].value == 0) {
			auto_at = (int)i;
			break;
		}
		EXPECT_FALSE((w[i].offset == REC_GS1 || w[i].offset == REC_GS2) &&
			     (w[i].value & 0xffff))
			TH_LOG("%s: a mark posted before the autoloader (write %u)", where, i);
	}
	EXPECT_LE(0, auto_at) TH_LOG("%s: no autoloader after the replay", where);
	return auto_at;
}

/* Whether any of the capture's TDI records (offsets from 0x30000 [S]) is among @w. */
#define IXT_TDI_BASE	0x30000u
static inline bool ixt_capture_seen(const struct ipuxcom_cfg_record *w, uint32_t nw,
				    const struct ipuxcom_cfg_record *c, uint32_t nc)
{
	for (uint32_t i = 0; i < nc; i++) {
		if (c[i].offset < IXT_TDI_BASE)
			continue;
		for (uint32_t k = 0; k < nw; k++)
			if (w[k].offset == c[i].offset && w[k].value == c[i].value)
				return true;
	}
	return false;
}

#endif /* IXT_CARD_CFG_H */
