// SPDX-License-Identifier: GPL-2.0
/*
 * libipuxcom encoders, decoder and disassembler (libuser/src/isa.c): the
 * notes' encodings and fixed words, encode -> decode round trips at every
 * field boundary, rejection (not masking) of every field one past its
 * width with a message naming it, strict decoding (unknown words stay
 * ".word"), and the disassembly text.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ipuxcom_plan.h>

static uint32_t enc(uint32_t op, uint32_t a, uint32_t b, uint32_t c)
{
	struct ipuxcom_insn in = { op, a, b, c };
	uint32_t w = 0xdeadbeef;

	if (ipuxcom_encode(&in, &w, NULL))
		return 0xdeadbeef;
	return w;
}

/* The notes' formulas, with their masks, as a reference for in-range fields [S]. */
static uint32_t ref(uint32_t op, uint32_t a, uint32_t b, uint32_t c)
{
	switch (op) {
	case IPUXCOM_OP_DELAY:
		return 0x40a00000 | (a & 0x7ffff);
	case IPUXCOM_OP_DELAYPIC:
		return 0x60000000 | ((a << 19) & 0x03f80000) | ((b << 18) & 0x00040000) |
		       (c & 0x3ffff);
	case IPUXCOM_OP_DELAYXPIC:
		return 0x64000000 | ((a << 14) & 0x03ffc000) | ((b << 13) & 0x00002000) |
		       (c & 0x1fff);
	case IPUXCOM_OP_SEND:
		return 0x78000000 | ((a << 21) & 0x07e00000) | ((b << 3) & 0x001ffff8) | (c & 7);
	case IPUXCOM_OP_SENDOFF:
		return 0x70000000 | ((a << 21) & 0x07e00000) | (((a >> 6) << 14) & 0x000fc000) |
		       ((b << 3) & 0x00003ff8) | (c & 7);
	case IPUXCOM_OP_SYNC:
		return 0x41800000 | a;
	case IPUXCOM_OP_BR:
		return 0x43000000 | a << 20;
	case IPUXCOM_OP_SETZI:
		return 0x19000000 | a << 20 | b;
	case IPUXCOM_OP_PUT:
		return 0x43008000 | a;
	default:
		return 0;
	}
}

TEST(golden_words)
{
	/* [S] receiver rows */
	EXPECT_EQ(0x641c0000u, enc(IPUXCOM_OP_DELAYXPIC, 112, 0, 0));
	EXPECT_EQ(0x64000640u, enc(IPUXCOM_OP_DELAYXPIC, 0, 0, 0x640));
	EXPECT_EQ(0x61814048u, enc(IPUXCOM_OP_DELAYPIC, 48, 0, 0x14048));
	EXPECT_EQ(0x6181404cu, enc(IPUXCOM_OP_DELAYPIC, 48, 0, 0x1404c));
	/* [S, RE] fixed words */
	EXPECT_EQ(0x43a00000u, enc(IPUXCOM_OP_BR, 10, 0, 0));
	EXPECT_EQ(0x41800003u, enc(IPUXCOM_OP_SYNC, 3, 0, 0));
	EXPECT_EQ(0x41800001u, enc(IPUXCOM_OP_SYNC, 1, 0, 0));
	EXPECT_EQ(0x41800007u, enc(IPUXCOM_OP_SYNC, 7, 0, 0));
	EXPECT_EQ(0x4180000fu, enc(IPUXCOM_OP_SYNC, 15, 0, 0));
	EXPECT_EQ(0x40c00000u, enc(IPUXCOM_OP_SANS, 0, 0, 0));
	/* put $DBG_DATA, $m0 is the FACTS.md injectable 0x43008070 [RE] */
	EXPECT_EQ(0x43008070u, enc(IPUXCOM_OP_PUT, 0x70, 0, 0));
	EXPECT_EQ(0x1904c010u, enc(IPUXCOM_OP_SETZI, 0, 0x4c010, 0));
	EXPECT_EQ(0x40a00000u, enc(IPUXCOM_OP_DELAY, 0, 0, 0));
	/* the sendoff split: 12-bit count in two 6-bit halves */
	EXPECT_EQ(0x70000000u | (0x33u << 21) | (0x3fu << 14) | 1, enc(IPUXCOM_OP_SENDOFF, 4083, 0, 1));
	EXPECT_EQ(IPUXCOM_WORD_SANS, enc(IPUXCOM_OP_SANS, 0, 0, 0));
	EXPECT_EQ(IPUXCOM_WORD_BR_M10, 0x43a00000u);
	EXPECT_EQ(IPUXCOM_WORD_SYNC_SUPERVISOR, 0x41800003u);
	EXPECT_EQ(IPUXCOM_WORD_SYNC_IDLE, 0x41800001u);
}

struct field {
	uint32_t op;
	int idx;		/* 0: a, 1: b, 2: c */
	unsigned int bits;
	const char *name;
};

static const struct field fields[] = {
	{ IPUXCOM_OP_DELAY, 0, 19, "delay n" },
	{ IPUXCOM_OP_DELAYPIC, 0, 7, "delaypic delay" },
	{ IPUXCOM_OP_DELAYPIC, 1, 1, "delaypic flag" },
	{ IPUXCOM_OP_DELAYPIC, 2, 18, "delaypic pic" },
	{ IPUXCOM_OP_DELAYXPIC, 0, 12, "delayxpic delay" },
	{ IPUXCOM_OP_DELAYXPIC, 1, 1, "delayxpic flag" },
	{ IPUXCOM_OP_DELAYXPIC, 2, 13, "delayxpic mux" },
	{ IPUXCOM_OP_SEND, 0, 6, "send count-1" },
	{ IPUXCOM_OP_SEND, 1, 18, "send address" },
	{ IPUXCOM_OP_SEND, 2, 3, "send direction" },
	{ IPUXCOM_OP_SENDOFF, 0, 12, "sendoff count-1" },
	{ IPUXCOM_OP_SENDOFF, 1, 11, "sendoff offset" },
	{ IPUXCOM_OP_SENDOFF, 2, 3, "sendoff direction" },
	{ IPUXCOM_OP_SYNC, 0, 4, "sync zone" },
	{ IPUXCOM_OP_BR, 0, 4, "br register" },
	{ IPUXCOM_OP_SETZI, 0, 4, "setzi register" },
	{ IPUXCOM_OP_SETZI, 1, 20, "setzi imm" },
	{ IPUXCOM_OP_PUT, 0, 8, "put csr" },
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* Largest value of the other fields of @op, for combined boundary cases. */
static uint32_t field_max(uint32_t op, int idx)
{
	for (size_t i = 0; i < NFIELDS; i++)
		if (fields[i].op == op && fields[i].idx == idx)
			return (1u << fields[i].bits) - 1;
	return 0;
}

/*
 * For every field: 0, 1, max - 1 and max, with the other fields at 0 and at
 * their max: decode(encode(x)) == x and the word equals the notes' formula.
 */
TEST(round_trip_at_every_field_boundary)
{
	for (size_t f = 0; f < NFIELDS; f++) {
		uint32_t max = (1u << fields[f].bits) - 1;
		uint32_t vals[] = { 0, 1, max - 1, max };

		for (int others = 0; others < 2; others++) {
			for (size_t v = 0; v < 4; v++) {
				struct ipuxcom_insn in = { fields[f].op, 0, 0, 0 }, out;
				uint32_t *slot[3] = { &in.a, &in.b, &in.c };
				struct ipuxcom_plan_error e;
				uint32_t w;

				for (int k = 0; k < 3; k++)
					*slot[k] = others ? field_max(in.op, k) : 0;
				*slot[fields[f].idx] = vals[v];
				ASSERT_EQ(0, ipuxcom_encode(&in, &w, &e))
					TH_LOG("%s %u: %s", fields[f].name, vals[v], e.msg);
				EXPECT_EQ(ref(in.op, in.a, in.b, in.c), w)
					TH_LOG("%s %u", fields[f].name, vals[v]);
				ASSERT_EQ(0, ipuxcom_decode(w, &out));
				EXPECT_EQ(in.op, out.op) TH_LOG("%s 0x%08x", fields[f].name, w);
				EXPECT_EQ(in.a, out.a) TH_LOG("%s 0x%08x", fields[f].name, w);
				EXPECT_EQ(in.b, out.b) TH_LOG("%s 0x%08x", fields[f].name, w);
				EXPECT_EQ(in.c, out.c) TH_LOG("%s 0x%08x", fields[f].name, w);
			}
		}
	}
}

/* One past every field's width is rejected, not masked, naming the field. */
TEST(every_overflowing_field_is_rejected_by_name)
{
	for (size_t f = 0; f < NFIELDS; f++) {
		struct ipuxcom_insn in = { fields[f].op, 0, 0, 0 };
		uint32_t *slot[3] = { &in.a, &in.b, &in.c };
		struct ipuxcom_plan_error e;
		uint32_t w = 0x12345678, v = 1u << fields[f].bits;
		char msg[128];

		*slot[fields[f].idx] = v;
		EXPECT_EQ(-ERANGE, ipuxcom_encode(&in, &w, &e)) TH_LOG("%s", fields[f].name);
		EXPECT_EQ(IPUXCOM_PLAN_E_FIELD, e.code);
		EXPECT_EQ(-ERANGE, e.err);
		EXPECT_STREQ(fields[f].name, e.field);
		snprintf(msg, sizeof(msg), "%s %u does not fit %u bit%s (max %u)", fields[f].name, v,
			 fields[f].bits, fields[f].bits == 1 ? "" : "s", v - 1);
		EXPECT_STREQ(msg, e.msg);
		EXPECT_EQ(0x12345678u, w);	/* untouched */
		*slot[fields[f].idx] = UINT32_MAX;
		EXPECT_EQ(-ERANGE, ipuxcom_encode(&in, &w, &e));
	}
}

/* The brief's example messages, through the per-op encoders. */
TEST(named_encoders_and_messages)
{
	struct ipuxcom_plan_error e;
	uint32_t w;

	EXPECT_EQ(-ERANGE, ipuxcom_enc_delaypic(130, 0, 0, &w, &e));
	EXPECT_STREQ("delaypic delay 130 does not fit 7 bits (max 127)", e.msg);
	EXPECT_EQ(-ERANGE, ipuxcom_enc_delayxpic(4096, 0, 0, &w, &e));
	EXPECT_STREQ("delayxpic delay 4096 does not fit 12 bits (max 4095)", e.msg);
	EXPECT_EQ(-ERANGE, ipuxcom_enc_send(64, 0, 1, &w, &e));
	EXPECT_STREQ("send count-1 64 does not fit 6 bits (max 63)", e.msg);
	EXPECT_EQ(-ERANGE, ipuxcom_enc_sendoff(4096, 0, 1, &w, &e));
	EXPECT_STREQ("sendoff count-1 4096 does not fit 12 bits (max 4095)", e.msg);
	EXPECT_EQ(-ERANGE, ipuxcom_enc_delay(0x80000, &w, &e));
	EXPECT_STREQ("delay n 524288 does not fit 19 bits (max 524287)", e.msg);
	EXPECT_EQ(-ERANGE, ipuxcom_enc_setzi(0, 1u << 20, &w, &e));
	EXPECT_EQ(-ERANGE, ipuxcom_enc_br(16, &w, &e));
	EXPECT_EQ(-ERANGE, ipuxcom_enc_sync(16, &w, &e));
	EXPECT_EQ(-ERANGE, ipuxcom_enc_put(0x100, &w, &e));

	EXPECT_EQ(0, ipuxcom_enc_delay(0x7ffff, &w, &e));
	EXPECT_EQ(0x40a7ffffu, w);
	EXPECT_EQ(IPUXCOM_PLAN_OK, e.code);
	EXPECT_STREQ("", e.msg);
	EXPECT_EQ(0, ipuxcom_enc_send(63, 0x3ffff, 7, &w, NULL));
	EXPECT_EQ(0x7fffffffu, w);
	EXPECT_EQ(0, ipuxcom_enc_sendoff(4095, 0x7ff, 7, &w, NULL));
	EXPECT_EQ(0x77efffffu, w);	/* bit 20 belongs to no field */
	EXPECT_EQ(-EINVAL, ipuxcom_enc_delay(1, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
}

TEST(encode_rejects_unknown_ops_and_words)
{
	struct ipuxcom_insn in = { IPUXCOM_OP_MAX, 0, 0, 0 };
	struct ipuxcom_plan_error e;
	uint32_t w;

	EXPECT_EQ(-ERANGE, ipuxcom_encode(&in, &w, &e));
	EXPECT_STREQ("op", e.field);
	in = (struct ipuxcom_insn){ IPUXCOM_OP_FIXED, 0x12345678, 0, 0 };
	EXPECT_EQ(-ERANGE, ipuxcom_encode(&in, &w, &e));
	EXPECT_STREQ("fixed word 0x12345678 is not a documented injectable", e.msg);
	in.a = 0x44f0f3f1;
	EXPECT_EQ(0, ipuxcom_encode(&in, &w, &e));
	EXPECT_EQ(0x44f0f3f1u, w);
	in = (struct ipuxcom_insn){ IPUXCOM_OP_WORD, 0xcafef00d, 0, 0 };
	EXPECT_EQ(0, ipuxcom_encode(&in, &w, &e));
	EXPECT_EQ(0xcafef00du, w);
	EXPECT_EQ(-EINVAL, ipuxcom_encode(NULL, &w, &e));
	EXPECT_EQ(-EINVAL, ipuxcom_decode(0, NULL));
}

/*
 * Strictness over many words: whatever decodes to an op re-encodes to the
 * very same word (no field is dropped or invented); everything else is
 * .word carrying the word.
 */
TEST(decode_is_strict_and_reencodes_exactly)
{
	uint32_t x = 0x12345678, known = 0;

	for (uint32_t i = 0; i < 4000000; i++) {
		struct ipuxcom_insn in;
		uint32_t w, again;

		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		/* Half random, half biased toward the opcode space the plans use. */
		w = (i & 1) ? x : ((x & 0x07ffffff) | (0x40000000u + ((i >> 1) % 16) * 0x04000000u));
		ASSERT_EQ(0, ipuxcom_decode(w, &in));
		if (in.op == IPUXCOM_OP_WORD) {
			ASSERT_EQ(w, in.a);
			continue;
		}
		known++;
		ASSERT_EQ(0, ipuxcom_encode(&in, &again, NULL)) TH_LOG("0x%08x", w);
		ASSERT_EQ(w, again) TH_LOG("0x%08x", w);
	}
	EXPECT_GT(known, 100000);
}

TEST(near_misses_stay_words)
{
	static const uint32_t words[] = {
		0x70100000,	/* sendoff with bit 20, which no field owns */
		0x418000ff,	/* sync with a zone wider than 4 bits */
		0x41800010,
		0x43a00001,	/* br with low bits */
		0x43008100,	/* put with a CSR above 0xff */
		0x40c00001,	/* sans plus a bit */
		0x00000001,	/* a receiver's patch index */
		0x00000000,	/* padding */
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		struct ipuxcom_insn in;

		ipuxcom_decode(words[i], &in);
		EXPECT_EQ(IPUXCOM_OP_WORD, in.op) TH_LOG("0x%08x", words[i]);
		EXPECT_EQ(words[i], in.a);
	}
}

TEST(disassembly_text)
{
	static const struct { uint32_t w; const char *text; } cases[] = {
		{ 0x41800003, "sync 3" },
		{ 0x40a00086, "delay 134" },
		{ 0x78400001, "send 2, 0x0, 1" },
		{ 0x7fea0003, "send 63, 0x14000, 3" },
		{ 0x77e38003, "sendoff 959, 0x0, 3" },
		{ 0x43a00000, "br $m10" },
		{ 0x641c0000, "delayxpic 112, 0, 0x0" },
		{ 0x64000640, "delayxpic 0, 0, 0x640" },
		{ 0x61814048, "delaypic 48, 0, 0x14048" },
		{ 0x40c00000, "sans" },
		{ 0x41800001, "sync 1" },
		{ 0x1904c010, "setzi $m0, 0x4c010" },
		{ 0x430080a7, "put $OUTGOING_BASE, $m0" },
		{ 0x430080a5, "put $0xa5, $m0" },
		{ 0x43008070, "put $DBG_DATA, $m0" },
		{ 0x41000000, "get $m0, $PC" },
		{ 0x41010070, "get $m1, $DBG_DATA" },
		{ 0x01f01000, "ld32 $m0, $m15, $m1, 0" },
		{ 0x4f10f000, "st32 $m0, [$m1]" },
		{ 0x44f0f3f1, "zero $m15" },
		{ 0x00000000, ".word 0x00000000" },
		{ 0x12345678, ".word 0x12345678" },
		{ 0x70100000, ".word 0x70100000" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = ipuxcom_disasm(cases[i].w, buf, sizeof(buf));

		EXPECT_STREQ(cases[i].text, buf);
		EXPECT_EQ((int)strlen(cases[i].text), n);
	}
	/* truncation reports the full length, like snprintf */
	EXPECT_EQ(21, ipuxcom_disasm(0x641c0000, buf, 4));
	EXPECT_STREQ("del", buf);
	EXPECT_EQ(21, ipuxcom_disasm(0x641c0000, NULL, 0));
	EXPECT_EQ(-EINVAL, ipuxcom_disasm(0, NULL, 8));
	EXPECT_STREQ("delayxpic", ipuxcom_op_name(IPUXCOM_OP_DELAYXPIC));
	EXPECT_STREQ(".word", ipuxcom_op_name(IPUXCOM_OP_WORD));
	EXPECT_STREQ("?", ipuxcom_op_name(99));
}

TEST(error_codes_are_distinct_and_described)
{
	for (int a = 0; a < IPUXCOM_PLAN_E_MAX; a++) {
		const char *sa = ipuxcom_plan_errc_str((enum ipuxcom_plan_errc)a);

		ASSERT_NE(NULL, sa);
		ASSERT_GT(strlen(sa), 4);
		for (int b = a + 1; b < IPUXCOM_PLAN_E_MAX; b++) {
			ASSERT_STRNE(sa, ipuxcom_plan_errc_str((enum ipuxcom_plan_errc)b));
		}
	}
	EXPECT_STREQ("unknown plan error code", ipuxcom_plan_errc_str((enum ipuxcom_plan_errc)-1));
	EXPECT_STREQ("unknown plan error code", ipuxcom_plan_errc_str(IPUXCOM_PLAN_E_MAX));
}

/* The first name stays for binaries linked against it, and says so when given an errno. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST(old_plan_strerror_still_answers)
{
	EXPECT_STREQ(ipuxcom_plan_errc_str(IPUXCOM_PLAN_E_TILE),
		     ipuxcom_plan_strerror(IPUXCOM_PLAN_E_TILE));
	EXPECT_STREQ("unknown plan error code", ipuxcom_plan_strerror(IPUXCOM_PLAN_E_MAX));
	EXPECT_NE(NULL, strstr(ipuxcom_plan_strerror(-ERANGE), "negative errno"));
}
#pragma GCC diagnostic pop

TEST_HARNESS_MAIN
