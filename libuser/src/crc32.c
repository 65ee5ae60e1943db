// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * CRC-32 (zlib's: reflected polynomial 0xedb88320, inverted in and out),
 * the checksum of IPUIMG1, slicing-by-8, plus the GF(2) algebra that
 * lets the image code derive an image's CRC from its template's CRC and
 * its patches without reading the unchanged bytes (the method of zlib's
 * crc32_combine()).
 */
#include <stdint.h>
#include <string.h>

#include "image_internal.h"

#define IXC_CRC_POLY	0xedb88320u

static uint32_t ixc_crc_table[8][256];
/* x^(2^k) mod P, reflected. */
static uint32_t ixc_x2n[64];

/* a * b mod P, reflected (bit 31 is x^0). */
static uint32_t ixc_multmodp(uint32_t a, uint32_t b)
{
	uint32_t m = 1u << 31, p = 0;

	for (;;) {
		if (a & m) {
			p ^= b;
			if ((a & (m - 1)) == 0)
				break;
		}
		m >>= 1;
		b = b & 1 ? (b >> 1) ^ IXC_CRC_POLY : b >> 1;
	}
	return p;
}

/*
 * Built once when the library is loaded (a constructor, so no locking is
 * needed and every thread sees finished tables).
 */
__attribute__((constructor)) static void ixc_crc_init(void)
{
	uint32_t p;

	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ IXC_CRC_POLY : c >> 1;
		ixc_crc_table[0][n] = c;
	}
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = ixc_crc_table[0][n];

		for (int k = 1; k < 8; k++) {
			c = ixc_crc_table[0][c & 0xff] ^ (c >> 8);
			ixc_crc_table[k][n] = c;
		}
	}
	p = 1u << 30;		/* x^1 */
	ixc_x2n[0] = p;
	for (int n = 1; n < 64; n++)
		ixc_x2n[n] = p = ixc_multmodp(p, p);
}

uint32_t ixc_crc32_raw(uint32_t reg, const void *buf, size_t len)
{
	const uint8_t *b = buf;

	while (len && ((uintptr_t)b & 7)) {
		reg = ixc_crc_table[0][(reg ^ *b++) & 0xff] ^ (reg >> 8);
		len--;
	}
	while (len >= 8) {
		uint32_t lo, hi;

		lo = ixc_le32(b) ^ reg;
		hi = ixc_le32(b + 4);
		reg = ixc_crc_table[7][lo & 0xff] ^ ixc_crc_table[6][(lo >> 8) & 0xff] ^
		      ixc_crc_table[5][(lo >> 16) & 0xff] ^ ixc_crc_table[4][lo >> 24] ^
		      ixc_crc_table[3][hi & 0xff] ^ ixc_crc_table[2][(hi >> 8) & 0xff] ^
		      ixc_crc_table[1][(hi >> 16) & 0xff] ^ ixc_crc_table[0][hi >> 24];
		b += 8;
		len -= 8;
	}
	while (len--)
		reg = ixc_crc_table[0][(reg ^ *b++) & 0xff] ^ (reg >> 8);
	return reg;
}

uint32_t ipuxcom_crc32(uint32_t crc, const void *buf, size_t len)
{
	if (!buf)
		return crc;
	return ~ixc_crc32_raw(~crc, buf, len);
}

uint32_t ixc_crc32_shift(uint32_t reg, uint64_t nbytes)
{
	/* x^(8n) = product of x^(2^k) over the set bits k of 8n. */
	uint32_t p = 1u << 31;	/* x^0 */
	unsigned int k = 3;

	if (!reg)
		return 0;
	while (nbytes) {
		if (nbytes & 1)
			p = ixc_multmodp(ixc_x2n[k & 63], p);
		nbytes >>= 1;
		k++;
	}
	return ixc_multmodp(p, reg);
}

void ixc_crc_delta_add(struct ixc_crc_delta *d, uint64_t off, const uint8_t *a,
		       const uint8_t *b, size_t n)
{
	/*
	 * raw0(X || Y) = shift(raw0(X), |Y|) ^ raw0(Y), and raw0 is linear:
	 * raw0(a ^ b) = raw0(a) ^ raw0(b) for equal lengths.
	 */
	uint32_t seg = ixc_crc32_raw(0, a, n) ^ ixc_crc32_raw(0, b, n);

	d->acc = ixc_crc32_shift(d->acc, off + n - d->end) ^ seg;
	d->end = off + n;
}

uint32_t ixc_crc_delta_finish(const struct ixc_crc_delta *d, uint32_t crc_a, uint64_t len)
{
	return crc_a ^ ixc_crc32_shift(d->acc, len - d->end);
}
