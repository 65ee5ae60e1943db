// SPDX-License-Identifier: GPL-2.0-only
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

#include "../../libuser/src/plan_internal.h"

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
	/* HW-MERGED [RE], with its masks */
	case IPUXCOM_OP_SENDPIC:
		return 0x70100000 | ((a << 21) & 0x07e00000) | ((b << 18) & 0x000c0000) |
		       (c & 0x3ffff);
	case IPUXCOM_OP_SENDPICP:	/* first word; c = sctl | picsel << 3 */
		return 0xf0000000 | (((c >> 3) << 27) & 0x08000000) | ((a << 21) & 0x07e00000) |
		       ((b << 3) & 0x001ffff8) | (c & 7);
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
	/* put $DBG_DATA, $m0 is the HW-TDI-INSNS injectable 0x43008070 [RE] */
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
	{ IPUXCOM_OP_SENDPIC, 0, 6, "sendpic count-1" },
	{ IPUXCOM_OP_SENDPIC, 1, 2, "sendpic sel" },
	{ IPUXCOM_OP_SENDPICP, 0, 6, "sendpicp count-1" },
	{ IPUXCOM_OP_SENDPICP, 1, 18, "sendpicp source word" },
	{ IPUXCOM_OP_SENDPICP, 2, 4, "sendpicp sctl|picsel<<3" },
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
		0x70102000,	/* sendpic, XPIC selector 0 with a 14-bit value */
		0x70160000 | 0x3ffff,	/* sendpic, XPIC selector 1 with an 18-bit value */
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
		{ 0x70100000, "sendpic 0, 0, 0x0" },
		{ 0x76781fff, "sendpic 51, 2, 0x1fff" },
		{ 0x70102000, ".word 0x70102000" },
		{ 0xf6600000, "sendpicp 0, 51, 0x0, 0, ?, ?" },
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
		const char *sa = ipuxcom_strerror(IPUXCOM_ERRC(a));

		ASSERT_NE(NULL, sa);
		ASSERT_GT(strlen(sa), 4);
		for (int b = a + 1; b < IPUXCOM_PLAN_E_MAX; b++) {
			ASSERT_STRNE(sa, ipuxcom_strerror(IPUXCOM_ERRC(b)));
		}
	}
	/* plan codes live above the errno range: never an errno's text */
	EXPECT_STRNE(strerror(ERANGE), ipuxcom_strerror(IPUXCOM_ERRC(IPUXCOM_PLAN_E_TILE)));
	EXPECT_STREQ("unknown error", ipuxcom_strerror(IPUXCOM_ERRC(IPUXCOM_PLAN_E_MAX)));
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
	EXPECT_STREQ(ipuxcom_strerror(IPUXCOM_ERRC(IPUXCOM_PLAN_E_TILE)),
		     ipuxcom_plan_errc_str(IPUXCOM_PLAN_E_TILE));
	EXPECT_STREQ("unknown plan error code",
		     ipuxcom_plan_errc_str((enum ipuxcom_plan_errc)-1));
	EXPECT_STREQ("unknown plan error code", ipuxcom_plan_errc_str(IPUXCOM_PLAN_E_MAX));
}
#pragma GCC diagnostic pop
/* ------------------------------------------- merged send/control instructions */

/* HW-MERGED's formulas with their masks [RE]: the reference for in-range fields. */
static uint32_t ref_sendpic(uint32_t a, uint32_t sel, uint32_t v)
{
	return 0x70100000 | ((a << 21) & 0x07e00000) | ((sel << 18) & 0x000c0000) | (v & 0x3ffff);
}

static void ref_sendpicp(const uint32_t f[6], uint32_t out[2])
{
	out[0] = 0xf0000000 | ((f[0] << 27) & 0x08000000) | ((f[1] << 21) & 0x07e00000) |
		 ((f[2] << 3) & 0x001ffff8) | f[3];
	out[1] = (f[4] << 18) | f[5];
}

/* The SDK's receiver-only bundle of HW-MERGED decodes to what HW-MERGED says. */
TEST(sdk_sendpicp_receiver_bundle)
{
	static const uint32_t sdk[2] = { 0xf6600000, 0x03014048 };
	struct ipuxcom_decoded d;
	uint32_t again[2] = { 0, 0 };
	char buf[80];
	size_t used = 0;

	ASSERT_EQ(2, ipuxcom_decode_insn(sdk, 2, &d));
	EXPECT_EQ(IPUXCOM_OP_SENDPICP, d.op);
	EXPECT_EQ(2u, d.nwords);
	EXPECT_EQ(52u, d.events);		/* "= 52 events" */
	EXPECT_EQ(0u, d.sctl);			/* receiver-only */
	EXPECT_EQ(0u, d.flags & IPUXCOM_DEC_TRANSMIT);
	EXPECT_EQ(0u, d.flags & IPUXCOM_DEC_RESTART);
	EXPECT_EQ(0u, d.flags & IPUXCOM_DEC_WIDE);
	EXPECT_NE(0u, d.flags & IPUXCOM_DEC_SEND);	/* it advances the stream */
	EXPECT_NE(0u, d.flags & IPUXCOM_DEC_ALIGN8);
	ASSERT_EQ(2u, d.nctl);
	EXPECT_EQ(IPUXCOM_CTL_XPIC, d.ctl[0].kind);
	EXPECT_EQ(192u, d.ctl[0].value);	/* "XPIC 192" */
	EXPECT_EQ(IPUXCOM_CTL_AT_FIRST_SEND, d.ctl[0].when);
	EXPECT_EQ(IPUXCOM_CTL_PIC, d.ctl[1].kind);
	EXPECT_EQ(0x14048u, d.ctl[1].value);	/* "PIC 0x14048" */
	EXPECT_EQ(IPUXCOM_CTL_AT_FIRST_SEND, d.ctl[1].when);
	ASSERT_EQ(2, ipuxcom_encode_insn(&d, again, NULL));
	EXPECT_EQ(sdk[0], again[0]);
	EXPECT_EQ(sdk[1], again[1]);
	ASSERT_EQ(0, ipuxcom_enc_sendpicp(0, 51, 0, 0, 192, 0x14048, again, NULL));
	EXPECT_EQ(sdk[0], again[0]);
	EXPECT_EQ(sdk[1], again[1]);
	EXPECT_EQ(36, ipuxcom_disasm_insn(sdk, 2, buf, sizeof(buf), &used));
	EXPECT_STREQ("sendpicp 0, 51, 0x0, 0, 192, 0x14048", buf);
	EXPECT_EQ(2u, used);
	/* half of it is no instruction */
	ASSERT_EQ(1, ipuxcom_decode_insn(sdk, 1, &d));
	EXPECT_EQ(IPUXCOM_OP_WORD, d.op);
	EXPECT_EQ(sdk[0], d.f[0]);
	ipuxcom_disasm_insn(sdk, 1, buf, sizeof(buf), &used);
	EXPECT_STREQ(".word 0xf6600000", buf);
	EXPECT_EQ(1u, used);
	EXPECT_EQ(-EINVAL, ipuxcom_decode_insn(sdk, 0, &d));
	EXPECT_EQ(-EINVAL, ipuxcom_decode_insn(NULL, 2, &d));
	EXPECT_EQ(-EINVAL, ipuxcom_disasm_insn(sdk, 2, NULL, 8, NULL));
}

/*
 * A receiver row in the shape the notes give for the SDK [S "Recovered Plan
 * Shape"] with the SDK's count-52 bundle [RE] in place of the notes'
 * replacement, and the nonparticipation pair and multicast words [S]: the
 * multi-word decoder walks it instruction by instruction.
 */
TEST(sdk_rows_decode_word_by_word)
{
	static const uint32_t row[] = {
		0x41800003, 0x641c0000, 0xf6600000, 0x03014048, 0x40a00037, 0x43a00000,
		0x40c00000, 0x41800001, 0x61814048, 0x6181404c, 0x64000640,
	};
	static const struct { uint32_t op; uint32_t events; const char *text; } want[] = {
		{ IPUXCOM_OP_SYNC, 0, "sync 3" },
		{ IPUXCOM_OP_DELAYXPIC, 113, "delayxpic 112, 0, 0x0" },
		{ IPUXCOM_OP_SENDPICP, 52, "sendpicp 0, 51, 0x0, 0, 192, 0x14048" },
		{ IPUXCOM_OP_DELAY, 56, "delay 55" },
		{ IPUXCOM_OP_BR, 0, "br $m10" },
		{ IPUXCOM_OP_SANS, 0, "sans" },
		{ IPUXCOM_OP_SYNC, 0, "sync 1" },
		{ IPUXCOM_OP_DELAYPIC, 49, "delaypic 48, 0, 0x14048" },
		{ IPUXCOM_OP_DELAYPIC, 49, "delaypic 48, 0, 0x1404c" },
		{ IPUXCOM_OP_DELAYXPIC, 1, "delayxpic 0, 0, 0x640" },
	};
	size_t i = 0, k = 0, n = sizeof(row) / sizeof(row[0]);
	char buf[80];

	while (i < n) {
		struct ipuxcom_decoded d;
		size_t used = 0;
		int r = ipuxcom_decode_insn(&row[i], n - i, &d);

		ASSERT_LT(k, sizeof(want) / sizeof(want[0]));
		ASSERT_GT(r, 0);
		EXPECT_EQ(want[k].op, d.op) TH_LOG("word %zu", i);
		EXPECT_EQ(want[k].events, d.events) TH_LOG("word %zu", i);
		ipuxcom_disasm_insn(&row[i], n - i, buf, sizeof(buf), &used);
		EXPECT_STREQ(want[k].text, buf);
		EXPECT_EQ((size_t)r, used);
		i += (size_t)r;
		k++;
	}
	EXPECT_EQ(sizeof(want) / sizeof(want[0]), k);
}

/*
 * sendpic over every value of every field (the others at 0 and at their
 * largest): the word is HW-MERGED's formula and decodes back; the XPIC
 * selectors take 13-bit values, the PIC ones 18.
 */
TEST(sendpic_round_trip_over_every_field)
{
	for (uint32_t sel = 0; sel < 4; sel++) {
		uint32_t vmax = sel < 2 ? 0x1fff : 0x3ffff;

		for (int others = 0; others < 2; others++) {
			for (int field = 0; field < 2; field++) {
				uint32_t lim = field == 0 ? 63 : vmax;

				for (uint32_t v = 0; v <= lim; v++) {
					uint32_t a = field == 0 ? v : (others ? 63 : 0);
					uint32_t val = field == 1 ? v : (others ? vmax : 0);
					struct ipuxcom_decoded d;
					uint32_t w = 0;

					ASSERT_EQ(0, ipuxcom_enc_sendpic(a, sel, val, &w, NULL));
					ASSERT_EQ(ref_sendpic(a, sel, val), w);
					ASSERT_EQ(1, ipuxcom_decode_insn(&w, 1, &d));
					ASSERT_EQ(IPUXCOM_OP_SENDPIC, d.op);
					ASSERT_EQ(a, d.f[0]);
					ASSERT_EQ(sel, d.f[1]);
					ASSERT_EQ(val, d.f[2]);
					ASSERT_EQ(a + 1, d.events);
					ASSERT_EQ(1u, d.nctl);
					ASSERT_EQ(sel < 2 ? IPUXCOM_CTL_XPIC : IPUXCOM_CTL_PIC,
						  d.ctl[0].kind);
					ASSERT_EQ(sel & 1, d.ctl[0].form);
					ASSERT_EQ(val, d.ctl[0].value);
					ASSERT_EQ(IPUXCOM_CTL_AT_FIRST_SEND, d.ctl[0].when);
					ASSERT_EQ(IPUXCOM_DEC_SEND | IPUXCOM_DEC_NO_SCTL, d.flags);
				}
			}
		}
	}
}

/* sendpicp likewise, every value of every one of its six fields. */
TEST(sendpicp_round_trip_over_every_field)
{
	static const unsigned int bits[6] = { 1, 6, 18, 3, 14, 18 };

	for (int field = 0; field < 6; field++) {
		for (int others = 0; others < 2; others++) {
			for (uint32_t v = 0; v < (1u << bits[field]); v++) {
				struct ipuxcom_decoded d, in = { .op = IPUXCOM_OP_SENDPICP };
				uint32_t w[2] = { 0, 0 }, r[2];

				for (int k = 0; k < 6; k++)
					in.f[k] = others ? (1u << bits[k]) - 1 : 0;
				in.f[field] = v;
				ASSERT_EQ(2, ipuxcom_encode_insn(&in, w, NULL));
				ref_sendpicp(in.f, r);
				ASSERT_EQ(r[0], w[0]);
				ASSERT_EQ(r[1], w[1]);
				ASSERT_EQ(2, ipuxcom_decode_insn(w, 2, &d));
				ASSERT_EQ(IPUXCOM_OP_SENDPICP, d.op);
				for (int k = 0; k < 6; k++)
					ASSERT_EQ(in.f[k], d.f[k]);
				ASSERT_EQ(in.f[1] + 1, d.events);
				ASSERT_EQ(in.f[2], d.src_word);
				ASSERT_EQ(in.f[3], d.sctl);
				ASSERT_EQ(in.f[4], d.ctl[0].value);
				ASSERT_EQ(in.f[5], d.ctl[1].value);
				ASSERT_EQ(in.f[0], d.ctl[1].form);
			}
		}
	}
}

/* Every field one past its width (and UINT32_MAX) is refused by name, never masked. */
TEST(sendpic_sendpicp_overflow_is_refused_by_name)
{
	static const struct { uint32_t f[6]; const char *name; const char *msg; } p[] = {
		{ { 2, 0, 0, 0, 0, 0 }, "sendpicp picsel", "sendpicp picsel 2 does not fit 1 bit (max 1)" },
		{ { 0, 64, 0, 0, 0, 0 }, "sendpicp count-1", "sendpicp count-1 64 does not fit 6 bits (max 63)" },
		{ { 0, 0, 1u << 18, 0, 0, 0 }, "sendpicp source word",
		  "sendpicp source word 262144 does not fit 18 bits (max 262143)" },
		{ { 0, 0, 0, 8, 0, 0 }, "sendpicp sctl", "sendpicp sctl 8 does not fit 3 bits (max 7)" },
		{ { 0, 0, 0, 0, 1u << 14, 0 }, "sendpicp xpic",
		  "sendpicp xpic 16384 does not fit 14 bits (max 16383)" },
		{ { 0, 0, 0, 0, 0, 1u << 18 }, "sendpicp pic",
		  "sendpicp pic 262144 does not fit 18 bits (max 262143)" },
	};
	struct ipuxcom_plan_error e;
	uint32_t w[2] = { 0x11111111, 0x22222222 };

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		struct ipuxcom_decoded in = { .op = IPUXCOM_OP_SENDPICP };

		memcpy(in.f, p[i].f, sizeof(in.f));
		EXPECT_EQ(-ERANGE, ipuxcom_encode_insn(&in, w, &e));
		EXPECT_EQ(IPUXCOM_PLAN_E_FIELD, e.code);
		EXPECT_STREQ(p[i].name, e.field);
		EXPECT_STREQ(p[i].msg, e.msg);
		for (int k = 0; k < 6; k++)
			if (p[i].f[k])
				in.f[k] = UINT32_MAX;
		EXPECT_EQ(-ERANGE, ipuxcom_encode_insn(&in, w, &e));
	}
	EXPECT_EQ(0x11111111u, w[0]);	/* untouched */
	EXPECT_EQ(0x22222222u, w[1]);
	EXPECT_EQ(-EINVAL, ipuxcom_enc_sendpicp(0, 0, 0, 0, 0, 0, NULL, &e));
	EXPECT_EQ(-EINVAL, ipuxcom_encode_insn(NULL, w, &e));

	EXPECT_EQ(-ERANGE, ipuxcom_enc_sendpic(64, 0, 0, &w[0], &e));
	EXPECT_STREQ("sendpic count-1 64 does not fit 6 bits (max 63)", e.msg);
	EXPECT_EQ(-ERANGE, ipuxcom_enc_sendpic(0, 4, 0, &w[0], &e));
	EXPECT_STREQ("sendpic sel", e.field);
	/* XPIC values are 13 bits, PIC values 18 */
	EXPECT_EQ(-ERANGE, ipuxcom_enc_sendpic(0, IPUXCOM_SENDPIC_XPIC0, 0x2000, &w[0], &e));
	EXPECT_STREQ("sendpic xpic value 8192 does not fit 13 bits (max 8191)", e.msg);
	EXPECT_EQ(-ERANGE, ipuxcom_enc_sendpic(0, IPUXCOM_SENDPIC_XPIC1, 0x2000, &w[0], &e));
	EXPECT_EQ(0x11111111u, w[0]);
	EXPECT_EQ(0, ipuxcom_enc_sendpic(0, IPUXCOM_SENDPIC_PIC0, 0x2000, &w[0], &e));
	EXPECT_EQ(0x70182000u, w[0]);
	EXPECT_EQ(-ERANGE, ipuxcom_enc_sendpic(0, IPUXCOM_SENDPIC_PIC1, 0x40000, &w[0], &e));
	EXPECT_STREQ("sendpic pic value 262144 does not fit 18 bits (max 262143)", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_enc_sendpic(0, 0, 0, NULL, &e));
}

/*
 * sctl, the low 3 bits of every send form [RE]: bits 0-1 the directions
 * (0: the stream advances without transmitting), bit 2 64-bit items; a
 * transmitting sendpicp restarts the stream at its source address.
 */
TEST(sctl_directions_and_64_bit)
{
	for (uint32_t sctl = 0; sctl < 8; sctl++) {
		uint32_t w[3][2] = { { 0 } };
		uint32_t ops[3] = { IPUXCOM_OP_SEND, IPUXCOM_OP_SENDOFF, IPUXCOM_OP_SENDPICP };

		ASSERT_EQ(0, ipuxcom_enc_send(3, 0x100, sctl, &w[0][0], NULL));
		ASSERT_EQ(0, ipuxcom_enc_sendoff(100, 5, sctl, &w[1][0], NULL));
		ASSERT_EQ(0, ipuxcom_enc_sendpicp(1, 3, 0x100, sctl, 7, 9, w[2], NULL));
		for (int k = 0; k < 3; k++) {
			struct ipuxcom_decoded d;

			ASSERT_EQ(k == 2 ? 2 : 1, ipuxcom_decode_insn(w[k], 2, &d));
			EXPECT_EQ(ops[k], d.op);
			EXPECT_EQ(sctl, d.sctl);
			EXPECT_NE(0u, d.flags & IPUXCOM_DEC_SEND);
			EXPECT_EQ(!!(sctl & 3), !!(d.flags & IPUXCOM_DEC_TRANSMIT)) TH_LOG("sctl %u", sctl);
			EXPECT_EQ(!!(sctl & 4), !!(d.flags & IPUXCOM_DEC_WIDE)) TH_LOG("sctl %u", sctl);
			EXPECT_EQ(k == 2 && (sctl & 3), !!(d.flags & IPUXCOM_DEC_RESTART));
			EXPECT_EQ(k == 1 ? 101u : 4u, d.events);
			if (k != 1)
				EXPECT_EQ(0x100u, d.src_word);
		}
	}
}

/* The one-word API still round-trips every decodable word (sendpicp's first word included). */
TEST(one_word_api_and_insn_api_agree)
{
	uint32_t x = 0x9e3779b9;

	for (uint32_t i = 0; i < 1000000; i++) {
		struct ipuxcom_decoded d;
		struct ipuxcom_insn in;
		uint32_t w[2], again[2];
		int n;

		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		w[0] = (i & 1) ? x : (x | 0xf0000000u);
		w[1] = x * 2654435761u;
		ipuxcom_decode(w[0], &in);
		n = ipuxcom_decode_insn(w, 2, &d);
		ASSERT_EQ(in.op, d.op);
		ASSERT_EQ(in.op == IPUXCOM_OP_SENDPICP ? 2 : 1, n);
		if (in.op == IPUXCOM_OP_WORD)
			continue;
		ASSERT_EQ(n, ipuxcom_encode_insn(&d, again, NULL)) TH_LOG("0x%08x", w[0]);
		ASSERT_EQ(w[0], again[0]);
		if (n == 2)
			ASSERT_EQ(w[1], again[1]);
	}
}

/*
 * The assemblers' fast encoders (plan_internal.h) give the public
 * encoders' words and flag, never mask, a field that overflows.
 */
TEST(fast_encoders_flag_overflow)
{
	static const unsigned int bits[6] = { 1, 6, 18, 3, 14, 18 };
	uint32_t bad = 0, two[2], pub[2];

	EXPECT_EQ(0x76781fffu, ixc_sendpic(51, 2, 0x1fff, &bad));
	EXPECT_EQ(0u, bad);
	ixc_sendpicp(0, 51, 0, 0, 192, 0x14048, two, &bad);
	EXPECT_EQ(0u, bad);
	EXPECT_EQ(0xf6600000u, two[0]);
	EXPECT_EQ(0x03014048u, two[1]);
	ixc_sendpic(64, 0, 0, &bad);
	EXPECT_NE(0u, bad);
	bad = 0;
	ixc_sendpic(0, 4, 0, &bad);
	EXPECT_NE(0u, bad);
	bad = 0;
	ixc_sendpic(0, 1, 0x2000, &bad);	/* XPIC: 13 bits */
	EXPECT_NE(0u, bad);
	bad = 0;
	ixc_sendpic(0, 2, 0x2000, &bad);	/* PIC: 18 bits */
	EXPECT_EQ(0u, bad);
	ixc_sendpic(0, 3, 0x40000, &bad);
	EXPECT_NE(0u, bad);
	for (int f = 0; f < 6; f++) {
		uint32_t v[6] = { 1, 63, 0x3ffff, 7, 0x3fff, 0x3ffff };

		bad = 0;
		ixc_sendpicp(v[0], v[1], v[2], v[3], v[4], v[5], two, &bad);
		ASSERT_EQ(0u, bad);
		ASSERT_EQ(0, ipuxcom_enc_sendpicp(v[0], v[1], v[2], v[3], v[4], v[5], pub, NULL));
		EXPECT_EQ(pub[0], two[0]);
		EXPECT_EQ(pub[1], two[1]);
		v[f] = 1u << bits[f];
		ixc_sendpicp(v[0], v[1], v[2], v[3], v[4], v[5], two, &bad);
		EXPECT_NE(0u, bad) TH_LOG("field %d", f);
	}
}

/* ixc_row_store() writes exactly what member-by-member assignment writes. */
TEST(row_store_matches_members)
{
	struct ipuxcom_plan_row a, b;

	memset(&a, 0xa5, sizeof(a));
	memset(&b, 0x5a, sizeof(b));
	ixc_row_store(&a, 1, 2, 3, 0x80000004u, 5, 6, 7, 8, 0xfffffff9u, 1471, IPUXCOM_ROLE_RECV,
		      7, -1, 4, -123456);
	b = (struct ipuxcom_plan_row){
		.words = { 1, 2, 3, 0x80000004u, 5, 6, 7, 8, 0xfffffff9u }, .tile = 1471,
		.role = IPUXCOM_ROLE_RECV, .nwords = 7, .patch = -1, .addr = 4, .reserved = 0,
		.event = -123456,
	};
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
}

TEST_HARNESS_MAIN
