// SPDX-License-Identifier: GPL-2.0-only
/*
 * IPUCFG1 [S "Direct Attach And Autoloader"]: "IPUCFG1\0", u32 count,
 * ordered (offset, value) records. Writer/reader round trip and exact
 * bytes, every rejection with its message, register names from the
 * HW-REGS table, the block summary, and `ipuxcom cfg inspect|dump`.
 */
#include "kselftest_harness.h"

#include <ipuxcom.h>

#include "image_testlib.h"

/* The notes' autoloader sequence, the 16 XB.DCXCR loading words, and more. */
static struct ipuxcom_cfg_record *sample(uint32_t *n)
{
	struct ipuxcom_cfg_record *r = calloc(400, sizeof(*r));
	uint32_t k = 0;

	r[k++] = (struct ipuxcom_cfg_record){ 0x2068, 0 };
	for (int i = 0; i < 256; i++)
		r[k++] = (struct ipuxcom_cfg_record){ 0x2070, (uint32_t)i * 0x01010101u };
	r[k++] = (struct ipuxcom_cfg_record){ 0x206c, 0x02000400 };
	r[k++] = (struct ipuxcom_cfg_record){ 0x2068, 0x0010013f };
	r[k++] = (struct ipuxcom_cfg_record){ 0x206c, 0x0209c001 };
	r[k++] = (struct ipuxcom_cfg_record){ 0x2068, 0x000b7f3f };
	for (uint32_t i = 0; i < 8; i++)
		r[k++] = (struct ipuxcom_cfg_record){ 0x5404 + i * 0x400, 0x07fffffa };
	for (uint32_t i = 0; i < 8; i++)
		r[k++] = (struct ipuxcom_cfg_record){ 0x1b804 + i * 0x400, 0x07fffffa };
	r[k++] = (struct ipuxcom_cfg_record){ 0x2000, 0 };
	r[k++] = (struct ipuxcom_cfg_record){ 0x302c, 1 };
	r[k++] = (struct ipuxcom_cfg_record){ 0x3044, 5 };
	r[k++] = (struct ipuxcom_cfg_record){ 0x30000 + 17 * 0x40 + 7 * 4, 0x52000 };
	r[k++] = (struct ipuxcom_cfg_record){ 0x30000 + 1471 * 0x40 + 3 * 4, 0x44f0f3f1 };
	r[k++] = (struct ipuxcom_cfg_record){ 0x4000, 7 };
	r[k++] = (struct ipuxcom_cfg_record){ 0x4ffc, 8 };
	r[k++] = (struct ipuxcom_cfg_record){ 0x7fffc, 9 };
	*n = k;
	return r;
}

TEST(round_trip_and_layout)
{
	struct ipuxcom_cfg_record *r, *back;
	struct ipuxcom_errmsg em;
	uint32_t n, m;
	uint8_t *d;
	void *data;
	size_t len;

	r = sample(&n);
	ASSERT_EQ(0, ipuxcom_cfg_serialize(r, n, &data, &len, &em)) TH_LOG("%s", em.msg);
	d = data;
	EXPECT_EQ(12 + 8 * (size_t)n, len);
	EXPECT_EQ(0, memcmp(d, "IPUCFG1\0", 8));
	EXPECT_EQ(n, ixt_le32(d + 8));
	EXPECT_EQ(0x2068u, ixt_le32(d + 12));
	EXPECT_EQ(0u, ixt_le32(d + 16));
	EXPECT_EQ(0x2070u, ixt_le32(d + 20));
	ASSERT_EQ(0, ipuxcom_cfg_parse(data, len, &back, &m, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(n, m);
	EXPECT_EQ(0, memcmp(r, back, n * sizeof(*r)));	/* order kept */
	free(back);
	free(data);
	free(r);
}

static void expect_parse_err(struct __test_metadata *_metadata, const void *d, size_t len,
			     int err, const char *msg)
{
	struct ipuxcom_cfg_record *r = (void *)1;
	struct ipuxcom_errmsg em;
	uint32_t n = 7;

	EXPECT_EQ(err, ipuxcom_cfg_parse(d, len, &r, &n, &em));
	EXPECT_EQ(NULL, r);
	EXPECT_EQ(0u, n);
	EXPECT_MSG(em, msg);
}

TEST(rejections)
{
	uint8_t d[12 + 3 * 8 + 4];

	memcpy(d, "IPUCFG1\0", 8);
	ixt_put_le32(d + 8, 3);
	for (int i = 0; i < 3; i++) {
		ixt_put_le32(d + 12 + i * 8, 0x2068 + i * 4);
		ixt_put_le32(d + 16 + i * 8, i);
	}
	expect_parse_err(_metadata, d, 11, -EBADMSG,
			 "truncated: 11 bytes, shorter than the 12-byte IPUCFG1 header");
	expect_parse_err(_metadata, d, 12 + 2 * 8 + 3, -EBADMSG,
			 "truncated: 3 records need 36 bytes, the file has 31");
	expect_parse_err(_metadata, d, sizeof(d), -EBADMSG,
			 "4 bytes of trailing data after the 3 records");
	d[3] = 'X';
	expect_parse_err(_metadata, d, 36, -EBADMSG, "bad magic 'IPUXFG1\\x00' (expected "
			 "'IPUCFG1\\x00')");
	d[3] = 'C';
	ixt_put_le32(d + 12 + 8, 0x2071);
	expect_parse_err(_metadata, d, 36, -EBADMSG,
			 "record 1 (file offset 0x14): config offset 0x2071 is not 4-byte aligned");
	ixt_put_le32(d + 12 + 8, 0x80000);
	expect_parse_err(_metadata, d, 36, -EBADMSG,
			 "record 1 (file offset 0x14): config offset 0x80000 is outside the "
			 "512 KiB config BAR");
	ixt_put_le32(d + 12 + 8, 0xfffffffc);
	expect_parse_err(_metadata, d, 36, -EBADMSG, "config offset 0xfffffffc is outside");
	ixt_put_le32(d + 8, 0);
	expect_parse_err(_metadata, d, 12, -EBADMSG,
			 "no records (an IPUCFG1 file holds at least one write)");
	/* A huge count in a 12-byte file: refused before any allocation. */
	ixt_put_le32(d + 8, 0xffffffff);
	expect_parse_err(_metadata, d, 12, -EFBIG,
			 "4294967295 records, more than the 65536 that "
			 "IPUXCOM_IOC_CFG_APPLY takes");
	ixt_put_le32(d + 8, 65536);
	expect_parse_err(_metadata, d, 12, -EBADMSG,
			 "truncated: 65536 records need 524300 bytes, the file has 12");
}

TEST(writer_checks_records)
{
	struct ipuxcom_cfg_record r[2] = { { 0x2068, 1 }, { 0x2066, 2 } };
	struct ipuxcom_errmsg em;
	void *data = (void *)1;
	size_t len;

	EXPECT_EQ(-EINVAL, ipuxcom_cfg_serialize(r, 2, &data, &len, &em));
	EXPECT_MSG(em, "record 1 (file offset 0x14): config offset 0x2066 is not 4-byte aligned");
	EXPECT_EQ(NULL, data);
	EXPECT_EQ(-EINVAL, ipuxcom_cfg_serialize(r, 0, &data, &len, &em));
	EXPECT_EQ(-EFBIG, ipuxcom_cfg_serialize(r, 65537, &data, &len, &em));
	EXPECT_EQ(-EINVAL, ipuxcom_cfg_serialize(NULL, 1, &data, &len, &em));
}

TEST(register_names)
{
	static const struct { uint32_t off; const char *name; } t[] = {
		{ 0x2000, "PCI_COMPLEX.CCSR" }, { 0x2068, "AUTOLDCSR" },
		{ 0x206c, "AUTOLDTRGTR" }, { 0x2070, "AUTOLDDATAR" },
		{ 0x302c, "HSP.GS1" }, { 0x3030, "HSP.GS2" },
		{ 0x3044, "EXCHWINDOWBASER" }, { 0x3054, "TILEUPDR" },
		{ 0x5404, "XB.DCXCR[0]" }, { 0x7004, "XB.DCXCR[7]" },
		{ 0x1b804, "XB.DCXCR[8]" }, { 0x1d404, "XB.DCXCR[15]" },
		{ 0x30000, "TDI[0].CTXT_STS" }, { 0x30000 + 17 * 0x40 + 28, "TDI[17].DBG_DATA" },
		{ 0x30000 + 1471 * 0x40 + 48, "TDI[1471].TDI_CTL" },
		{ 0x30000 + 3 * 0x40 + 60, "TDI[3].reg15" },
		{ 0x5408, "" }, { 0x7404, "" }, { 0x1d804, "" }, { 0x47000, "" }, { 0x80000, "" },
		{ 0x2069, "" },
	};
	char buf[48];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		EXPECT_STREQ(t[i].name, ipuxcom_cfg_reg_name(t[i].off, buf, sizeof(buf)))
			TH_LOG("offset 0x%x", t[i].off);
	}
	EXPECT_STREQ("", ipuxcom_cfg_reg_name(0x2068, NULL, 0));
}

TEST(block_summary)
{
	struct ipuxcom_cfg_block *b;
	struct ipuxcom_cfg_record *r;
	uint32_t n;
	size_t nb;

	r = sample(&n);
	ASSERT_EQ(0, ipuxcom_cfg_summarize(r, n, &b, &nb));
	/* In BAR order of the first write. */
	ASSERT_EQ(9u, nb);
	EXPECT_STREQ("PCI_COMPLEX", b[0].name);
	EXPECT_STREQ("AUTOLD", b[1].name);
	EXPECT_EQ(261u, b[1].writes);
	EXPECT_EQ(3u, b[1].registers);
	EXPECT_EQ(0x2068u, b[1].first);
	EXPECT_EQ(0x2070u, b[1].last);
	EXPECT_TRUE(b[1].named);
	EXPECT_STREQ("HSP", b[2].name);
	EXPECT_STREQ("EXCHWINDOWBASER", b[3].name);
	EXPECT_STREQ("page 0x04000", b[4].name);
	EXPECT_FALSE(b[4].named);
	EXPECT_EQ(2u, b[4].writes);
	EXPECT_EQ(0x4ffcu, b[4].last);
	EXPECT_STREQ("XB.DCXCR primary", b[5].name);
	EXPECT_EQ(8u, b[5].units);
	EXPECT_STREQ("XB.DCXCR secondary", b[6].name);
	EXPECT_EQ(8u, b[6].units);
	EXPECT_EQ(0x1d404u, b[6].last);
	EXPECT_STREQ("TDI", b[7].name);
	EXPECT_EQ(2u, b[7].units);	/* tiles 17 and 1471 */
	EXPECT_STREQ("page 0x7f000", b[8].name);
	free(b);
	r[3].offset = 3;
	EXPECT_EQ(-EINVAL, ipuxcom_cfg_summarize(r, n, &b, &nb));
	free(r);
}

TEST(file_and_command)
{
	char dir[PATH_MAX], path[PATH_MAX + 32], tool[PATH_MAX];
	struct ipuxcom_cfg_record *r, *back;
	struct ipuxcom_errmsg em;
	uint32_t n, m;
	void *data;
	size_t len;

	ASSERT_TRUE(ixt_tmpdir(dir, sizeof(dir)));
	snprintf(path, sizeof(path), "%s/c600-init.ipucfg", dir);
	r = sample(&n);
	ASSERT_EQ(0, ipuxcom_cfg_serialize(r, n, &data, &len, &em));
	ASSERT_EQ(0, ixt_write_file(path, data, len));
	ASSERT_EQ(0, ipuxcom_cfg_load(path, &back, &m, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(n, m);
	free(back);
	if (ixt_find_tool(tool, sizeof(tool))) {
		TOOL_EXPECT(0, out, "records 285", "cfg", "inspect", path);
		TOOL_EXPECT(0, out, "XB.DCXCR secondary", "cfg", "inspect", path);
		TOOL_EXPECT(0, out, "\"records\":285", "cfg", "inspect", path, "--json");
		TOOL_EXPECT(0, out, "{\"name\":\"AUTOLD\",\"named\":true,\"first\":\"0x00002068\","
			    "\"last\":\"0x00002070\",\"writes\":261,\"registers\":3,\"units\":3}",
			    "cfg", "inspect", "--json", path);
		TOOL_EXPECT(0, out, "  276 0x1d404 = 0x07fffffa XB.DCXCR[15]", "cfg", "dump", path);
		TOOL_EXPECT(0, out, "Usage: ipuxcom cfg inspect", "cfg", "inspect", "--help");
		TOOL_EXPECT(2, err, "expected FILE", "cfg", "inspect");
		((uint8_t *)data)[len - 8] |= 1;	/* misalign the last record */
		ASSERT_EQ(0, ixt_write_file(path, data, len));
		TOOL_EXPECT(1, err, "record 284 (file offset 0x8ec): config offset 0x7fffd is not "
			    "4-byte aligned", "cfg", "inspect", path);
	} else {
		TH_LOG("ipuxcom command not built: command not tested");
	}
	free(data);
	free(r);
	ixt_rmtree(dir);
}

TEST_HARNESS_MAIN
