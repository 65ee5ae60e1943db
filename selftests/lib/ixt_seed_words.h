/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The seed's recorded autoloader words as a test vector [S "Direct Attach
 * And Autoloader"]: its 948-byte bootloader padded to 1 KiB gives
 * AUTOLDCSR = 0, 256 data words, then TRGTR 0x02000400, CSR 0x0010013f,
 * TRGTR 0x0209c001, CSR 0x000b7f3f. For tests that hold a sequence of
 * config-BAR writes (captured at the tracepoint, or seen by a device)
 * against the record. Written from the record, not from kmod/ or sim/.
 * Include after kselftest_harness.h and ipuxcom_image.h (struct
 * ipuxcom_cfg_record).
 */
#ifndef IXT_SEED_WORDS_H
#define IXT_SEED_WORDS_H

#include <stdint.h>

#include "c600_record.h"

/* The seed's bootloader size; its bytes here are a fixed pattern. */
#define IXT_SEED_BOOT_BYTES	948

static inline void ixt_seed_boot(uint8_t *b)
{
	for (int i = 0; i < IXT_SEED_BOOT_BYTES; i++)
		b[i] = (uint8_t)(i * 7 + 3);
}

/* Index of the first record at or after @from writing @value to @off, or -1. */
static inline int ixt_find_write(const struct ipuxcom_cfg_record *r, uint32_t n, uint32_t from,
				 uint32_t off, uint32_t value)
{
	for (uint32_t i = from; i < n; i++)
		if (r[i].offset == off && r[i].value == value)
			return (int)i;
	return -1;
}

/*
 * The seed's autoloader sequence for ixt_seed_boot()'s bytes, exactly and
 * in order, in @r (@where names the observer in failures). Returns the
 * index of its AUTOLDCSR = 0, or -1 after a failed assertion.
 */
static inline int ixt_expect_seed_autoloader(struct __test_metadata *_metadata, const char *where,
					     const struct ipuxcom_cfg_record *r, uint32_t n)
{
	static const uint32_t tail[4][2] = {
		{ REC_AUTOLDTRGTR, 0x02000400 }, { REC_AUTOLDCSR, 0x0010013f },
		{ REC_AUTOLDTRGTR, 0x0209c001 }, { REC_AUTOLDCSR, 0x000b7f3f },
	};
	uint8_t b[1024] = { 0 };
	int at = ixt_find_write(r, n, 0, REC_AUTOLDCSR, 0);

	ixt_seed_boot(b);
	EXPECT_LE(0, at) TH_LOG("%s: no AUTOLDCSR = 0 in %u writes", where, n);
	if (at < 0 || (uint32_t)at + 1 + 256 + 4 > n) {
		EXPECT_LE((uint32_t)at + 1 + 256 + 4, n) TH_LOG("%s: sequence cut short", where);
		return -1;
	}
	/* 256 data words: the image padded with zeros to 1 KiB */
	for (uint32_t i = 0; i < 256; i++) {
		const struct ipuxcom_cfg_record *w = &r[at + 1 + i];
		uint32_t want = (uint32_t)b[i * 4] | b[i * 4 + 1] << 8 | b[i * 4 + 2] << 16 |
				(uint32_t)b[i * 4 + 3] << 24;

		EXPECT_EQ(REC_AUTOLDDATAR, w->offset) TH_LOG("%s: data word %u", where, i);
		EXPECT_EQ(want, w->value) TH_LOG("%s: data word %u", where, i);
		if (w->offset != REC_AUTOLDDATAR || w->value != want)
			return -1;
	}
	for (uint32_t k = 0; k < 4; k++) {
		EXPECT_EQ(tail[k][0], r[at + 257 + k].offset) TH_LOG("%s: word %u after the data",
								     where, k);
		EXPECT_EQ(tail[k][1], r[at + 257 + k].value) TH_LOG("%s: word %u after the data",
								    where, k);
	}
	return at;
}

#endif /* IXT_SEED_WORDS_H */
