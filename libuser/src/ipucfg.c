// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * IPUCFG1: ordered config-BAR writes [S "Direct Attach And Autoloader"]:
 *
 *   offset size meaning
 *   0      8    "IPUCFG1\0"
 *   8      4    record count
 *   12     8*N  ordered (config offset u32, value u32) records, LE
 *
 * Offsets are byte offsets into the 512 KiB config BAR [S, RE] and must
 * be 4-byte aligned (32-bit registers). The reader also enforces what
 * IPUXCOM_IOC_CFG_APPLY accepts: 1 .. IPUXCOM_CFG_MAX_RECORDS records.
 * Register names come from the record's register table (HW-REGS).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_internal.h"

/* Largest valid file: header + IPUXCOM_CFG_MAX_RECORDS records. */
#define IXC_CFG_MAX_FILE	(IPUXCOM_CFG_HEADER_SIZE + \
				 (size_t)IPUXCOM_CFG_MAX_RECORDS * 8)

static int ixc_cfg_check_record(uint32_t i, uint32_t offset, struct ipuxcom_errmsg *em)
{
	if (offset & 3)
		return ixc_err(em, -EBADMSG,
			       "record %" PRIu32 " (file offset 0x%" PRIx64 "): config offset 0x%"
			       PRIx32 " is not 4-byte aligned", i,
			       (uint64_t)IPUXCOM_CFG_HEADER_SIZE + (uint64_t)i * 8, offset);
	if (offset >= IPUXCOM_CFG_BAR_SIZE)
		return ixc_err(em, -EBADMSG,
			       "record %" PRIu32 " (file offset 0x%" PRIx64 "): config offset 0x%"
			       PRIx32 " is outside the 512 KiB config BAR", i,
			       (uint64_t)IPUXCOM_CFG_HEADER_SIZE + (uint64_t)i * 8, offset);
	return 0;
}

static int ixc_cfg_check_count(uint32_t count, struct ipuxcom_errmsg *em)
{
	if (count == 0)
		return ixc_err(em, -EBADMSG,
			       "no records (an IPUCFG1 file holds at least one write)");
	if (count > IPUXCOM_CFG_MAX_RECORDS)
		return ixc_err(em, -EFBIG,
			       "%" PRIu32 " records, more than the %u that "
			       "IPUXCOM_IOC_CFG_APPLY takes",
			       count, IPUXCOM_CFG_MAX_RECORDS);
	return 0;
}

int ipuxcom_cfg_parse(const void *data, size_t len, struct ipuxcom_cfg_record **recs,
		      uint32_t *count, struct ipuxcom_errmsg *em)
{
	const uint8_t *d = data;
	struct ipuxcom_cfg_record *r;
	uint64_t expected;
	char quoted[64];
	uint32_t n;
	int err;

	ixc_err_clear(em);
	if (!recs || !count)
		return ixc_err(em, -EINVAL, "no output");
	*recs = NULL;
	*count = 0;
	if (!data && len)
		return ixc_err(em, -EINVAL, "no data");
	if (len < IPUXCOM_CFG_HEADER_SIZE)
		return ixc_err(em, -EBADMSG,
			       "truncated: %zu bytes, shorter than the 12-byte IPUCFG1 header",
			       len);
	if (memcmp(d, IPUXCOM_CFG_MAGIC, 8))
		return ixc_err(em, -EBADMSG, "bad magic '%s' (expected 'IPUCFG1\\x00')",
			       ixc_quote_bytes(d, 8, quoted, sizeof(quoted)));
	n = ixc_le32(d + 8);
	err = ixc_cfg_check_count(n, em);
	if (err)
		return err;
	expected = IPUXCOM_CFG_HEADER_SIZE + (uint64_t)n * 8;
	if (len < expected)
		return ixc_err(em, -EBADMSG,
			       "truncated: %" PRIu32 " records need %" PRIu64
			       " bytes, the file has %zu",
			       n, expected, len);
	if (len > expected)
		return ixc_err(em, -EBADMSG,
			       "%" PRIu64 " bytes of trailing data after the %" PRIu32 " records",
			       (uint64_t)len - expected, n);
	for (uint32_t i = 0; i < n; i++) {
		err = ixc_cfg_check_record(i, ixc_le32(d + IPUXCOM_CFG_HEADER_SIZE + (size_t)i * 8),
					   em);
		if (err)
			return err;
	}
	/* n <= IPUXCOM_CFG_MAX_RECORDS, and the file really holds them. */
	r = malloc((size_t)n * sizeof(*r));
	if (!r)
		return ixc_err(em, -ENOMEM, "no memory for %" PRIu32 " records", n);
	for (uint32_t i = 0; i < n; i++) {
		r[i].offset = ixc_le32(d + IPUXCOM_CFG_HEADER_SIZE + (size_t)i * 8);
		r[i].value = ixc_le32(d + IPUXCOM_CFG_HEADER_SIZE + (size_t)i * 8 + 4);
	}
	*recs = r;
	*count = n;
	return 0;
}

int ipuxcom_cfg_load(const char *path, struct ipuxcom_cfg_record **recs, uint32_t *count,
		     struct ipuxcom_errmsg *em)
{
	uint8_t *data;
	size_t len;
	int err;

	ixc_err_clear(em);
	if (!recs || !count)
		return ixc_err(em, -EINVAL, "no output");
	*recs = NULL;
	*count = 0;
	err = ixc_read_file(path, IXC_CFG_MAX_FILE, "IPUCFG1 file", &data, &len, em);
	if (err)
		return err;
	err = ipuxcom_cfg_parse(data, len, recs, count, em);
	free(data);
	if (err)
		return ixc_err_prefix(em, err, "%s", path);
	return 0;
}

int ipuxcom_cfg_serialize(const struct ipuxcom_cfg_record *recs, uint32_t count, void **out,
			  size_t *out_len, struct ipuxcom_errmsg *em)
{
	uint8_t *b;
	size_t len;
	int err;

	ixc_err_clear(em);
	if (!out || !out_len || (!recs && count))
		return ixc_err(em, -EINVAL, "no records or no output");
	*out = NULL;
	*out_len = 0;
	err = ixc_cfg_check_count(count, em);
	if (err)
		return err == -EBADMSG ? -EINVAL : err;
	for (uint32_t i = 0; i < count; i++)
		if (ixc_cfg_check_record(i, recs[i].offset, em))
			return -EINVAL;
	len = IPUXCOM_CFG_HEADER_SIZE + (size_t)count * 8;
	b = malloc(len);
	if (!b)
		return ixc_err(em, -ENOMEM, "no memory for %zu bytes", len);
	memcpy(b, IPUXCOM_CFG_MAGIC, 8);
	ixc_put_le32(b + 8, count);
	for (uint32_t i = 0; i < count; i++) {
		ixc_put_le32(b + IPUXCOM_CFG_HEADER_SIZE + (size_t)i * 8, recs[i].offset);
		ixc_put_le32(b + IPUXCOM_CFG_HEADER_SIZE + (size_t)i * 8 + 4, recs[i].value);
	}
	*out = b;
	*out_len = len;
	return 0;
}

/* ------------------------------------------------------- register names */

/* Config-BAR register blocks of the HW-REGS table, in BAR order. */
enum ixc_cfg_blk {
	IXC_BLK_PCI,		/* PCI_COMPLEX.CCSR 0x2000 [RE] */
	IXC_BLK_AUTOLD,		/* AUTOLDCSR/TRGTR/DATAR 0x2068/0x206c/0x2070 [S] */
	IXC_BLK_HSP,		/* HSP GS1/GS2 control 0x302c/0x3030 [S] */
	IXC_BLK_EXCHWIN,	/* EXCHWINDOWBASER 0x3044 [S] */
	IXC_BLK_TILEUPD,	/* TILEUPDR 0x3054 [S] */
	IXC_BLK_XB_PRI,		/* XB.DCXCR 0-7 at 0x5404 + i * 0x400 [RE] */
	IXC_BLK_XB_SEC,		/* XB.DCXCR 8-15 at 0x1b804 + (i - 8) * 0x400 [RE] */
	IXC_BLK_TDI,		/* 0x30000 + tile * 0x40 + reg * 4 [S] */
	IXC_BLK_NAMED,		/* unnamed 4 KiB pages follow */
};

#define IXC_PCI_CCSR		0x2000u
#define IXC_AUTOLDCSR		0x2068u
#define IXC_AUTOLDTRGTR		0x206cu
#define IXC_AUTOLDDATAR		0x2070u
#define IXC_HSP_GS1		0x302cu
#define IXC_HSP_GS2		0x3030u
#define IXC_EXCHWINDOWBASER	0x3044u
#define IXC_TILEUPDR		0x3054u
#define IXC_XB_PRI_BASE		0x5404u
#define IXC_XB_SEC_BASE		0x1b804u
#define IXC_XB_STRIDE		0x400u
#define IXC_TDI_BASE		0x30000u
#define IXC_TDI_STRIDE		0x40u
#define IXC_TDI_END		(IXC_TDI_BASE + IPUXCOM_IMG_TILES * IXC_TDI_STRIDE)
#define IXC_PAGES		(IPUXCOM_CFG_BAR_SIZE >> 12)

static const char *const ixc_blk_names[IXC_BLK_NAMED] = {
	[IXC_BLK_PCI] = "PCI_COMPLEX",
	[IXC_BLK_AUTOLD] = "AUTOLD",
	[IXC_BLK_HSP] = "HSP",
	[IXC_BLK_EXCHWIN] = "EXCHWINDOWBASER",
	[IXC_BLK_TILEUPD] = "TILEUPDR",
	[IXC_BLK_XB_PRI] = "XB.DCXCR primary",
	[IXC_BLK_XB_SEC] = "XB.DCXCR secondary",
	[IXC_BLK_TDI] = "TDI",
};

/* TDI register indices [S "Debug Readback Pivot"]. */
static const char *const ixc_tdi_regs[16] = {
	"CTXT_STS", "DBG_RBRK", "DBG_RBRK_VERT", "DBG_IEXEC", "DBG_IOWNER", "DBG_ECSR",
	"DBG_ECLR", "DBG_DATA", "TDI_STS", "TDI_CLR", "INCOMING_DCOUNT", "EXCHANGE_CTL",
	"TDI_CTL",
};

/*
 * Block of @offset (an IXC_BLK_* or IXC_BLK_NAMED + page); *@unit gets the
 * TDI tile or XB.DCXCR instance, -1 otherwise. Writes the register name.
 */
static unsigned int ixc_cfg_classify(uint32_t offset, int *unit, char *name, size_t len)
{
	*unit = -1;
	if (len)
		name[0] = '\0';
	switch (offset) {
	case IXC_PCI_CCSR:
		snprintf(name, len, "PCI_COMPLEX.CCSR");
		return IXC_BLK_PCI;
	case IXC_AUTOLDCSR:
		snprintf(name, len, "AUTOLDCSR");
		return IXC_BLK_AUTOLD;
	case IXC_AUTOLDTRGTR:
		snprintf(name, len, "AUTOLDTRGTR");
		return IXC_BLK_AUTOLD;
	case IXC_AUTOLDDATAR:
		snprintf(name, len, "AUTOLDDATAR");
		return IXC_BLK_AUTOLD;
	case IXC_HSP_GS1:
		snprintf(name, len, "HSP.GS1");
		return IXC_BLK_HSP;
	case IXC_HSP_GS2:
		snprintf(name, len, "HSP.GS2");
		return IXC_BLK_HSP;
	case IXC_EXCHWINDOWBASER:
		snprintf(name, len, "EXCHWINDOWBASER");
		return IXC_BLK_EXCHWIN;
	case IXC_TILEUPDR:
		snprintf(name, len, "TILEUPDR");
		return IXC_BLK_TILEUPD;
	}
	if (offset >= IXC_XB_PRI_BASE && (offset - IXC_XB_PRI_BASE) % IXC_XB_STRIDE == 0 &&
	    (offset - IXC_XB_PRI_BASE) / IXC_XB_STRIDE < 8) {
		*unit = (int)((offset - IXC_XB_PRI_BASE) / IXC_XB_STRIDE);
		snprintf(name, len, "XB.DCXCR[%d]", *unit);
		return IXC_BLK_XB_PRI;
	}
	if (offset >= IXC_XB_SEC_BASE && (offset - IXC_XB_SEC_BASE) % IXC_XB_STRIDE == 0 &&
	    (offset - IXC_XB_SEC_BASE) / IXC_XB_STRIDE < 8) {
		*unit = 8 + (int)((offset - IXC_XB_SEC_BASE) / IXC_XB_STRIDE);
		snprintf(name, len, "XB.DCXCR[%d]", *unit);
		return IXC_BLK_XB_SEC;
	}
	if (offset >= IXC_TDI_BASE && offset < IXC_TDI_END) {
		uint32_t rel = offset - IXC_TDI_BASE, reg = (rel % IXC_TDI_STRIDE) / 4;

		*unit = (int)(rel / IXC_TDI_STRIDE);
		if (ixc_tdi_regs[reg])
			snprintf(name, len, "TDI[%d].%s", *unit, ixc_tdi_regs[reg]);
		else
			snprintf(name, len, "TDI[%d].reg%" PRIu32, *unit, reg);
		return IXC_BLK_TDI;
	}
	return IXC_BLK_NAMED + (offset >> 12);
}

const char *ipuxcom_cfg_reg_name(uint32_t offset, char *buf, size_t len)
{
	int unit;

	if (!buf || !len)
		return "";
	if (offset >= IPUXCOM_CFG_BAR_SIZE || offset & 3) {
		buf[0] = '\0';
		return buf;
	}
	ixc_cfg_classify(offset, &unit, buf, len);
	return buf;
}

struct ixc_blk_acc {
	struct ipuxcom_cfg_block b;
	bool used;
};

static int ixc_blk_cmp(const void *a, const void *b)
{
	const struct ipuxcom_cfg_block *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

int ipuxcom_cfg_summarize(const struct ipuxcom_cfg_record *recs, uint32_t count,
			  struct ipuxcom_cfg_block **blocks, size_t *nblocks)
{
	enum { NACC = IXC_BLK_NAMED + IXC_PAGES };
	struct ixc_blk_acc *acc;
	uint8_t *reg_seen, *unit_seen;
	struct ipuxcom_cfg_block *res;
	size_t n = 0;

	if (!blocks || !nblocks || (!recs && count))
		return -EINVAL;
	*blocks = NULL;
	*nblocks = 0;
	for (uint32_t i = 0; i < count; i++)
		if (ixc_cfg_check_record(i, recs[i].offset, NULL))
			return -EINVAL;
	acc = calloc(NACC, sizeof(*acc));
	reg_seen = calloc(IPUXCOM_CFG_BAR_SIZE / 4, 1);
	/* Units: TDI tiles (1472) and XB.DCXCR instances (16), one flag each. */
	unit_seen = calloc(IPUXCOM_IMG_TILES + 16, 1);
	if (!acc || !reg_seen || !unit_seen) {
		free(acc);
		free(reg_seen);
		free(unit_seen);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < count; i++) {
		uint32_t off = recs[i].offset;
		char name[48];
		int unit;
		unsigned int k = ixc_cfg_classify(off, &unit, name, sizeof(name));
		struct ixc_blk_acc *a = &acc[k];

		if (!a->used) {
			a->used = true;
			a->b.first = a->b.last = off;
			a->b.named = k < IXC_BLK_NAMED;
			if (a->b.named)
				snprintf(a->b.name, sizeof(a->b.name), "%s", ixc_blk_names[k]);
			else
				snprintf(a->b.name, sizeof(a->b.name), "page 0x%05x",
					 (k - IXC_BLK_NAMED) << 12);
		}
		if (off < a->b.first)
			a->b.first = off;
		if (off > a->b.last)
			a->b.last = off;
		a->b.writes++;
		if (!reg_seen[off / 4]) {
			reg_seen[off / 4] = 1;
			a->b.registers++;
			if (unit < 0)
				a->b.units++;
		}
		if (unit >= 0) {
			size_t u = (size_t)unit + (k == IXC_BLK_TDI ? 0 : IPUXCOM_IMG_TILES);

			if (!unit_seen[u]) {
				unit_seen[u] = 1;
				a->b.units++;
			}
		}
	}
	for (size_t k = 0; k < NACC; k++)
		n += acc[k].used;
	res = calloc(n ? n : 1, sizeof(*res));
	if (!res) {
		free(acc);
		free(reg_seen);
		free(unit_seen);
		return -ENOMEM;
	}
	n = 0;
	for (size_t k = 0; k < NACC; k++)
		if (acc[k].used)
			res[n++] = acc[k].b;
	qsort(res, n, sizeof(*res), ixc_blk_cmp);
	free(acc);
	free(reg_seen);
	free(unit_seen);
	*blocks = res;
	*nblocks = n;
	return 0;
}
