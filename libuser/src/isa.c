// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Encoders, decoder and disassembler for the instruction words exchange
 * plans use.
 *
 * Encodings [S "Recovered Instruction Encodings"]:
 *   delay(n)           = 0x40a00000 | (n & 0x7ffff)
 *   delaypic(a,b,c)    = 0x60000000 | ((a << 19) & 0x03f80000) | ((b << 18) & 0x00040000)
 *                        | (c & 0x3ffff)
 *   delayxpic(a,b,c)   = 0x64000000 | ((a << 14) & 0x03ffc000) | ((b << 13) & 0x00002000)
 *                        | (c & 0x1fff)
 *   send(a,b,dir)      = 0x78000000 | ((a << 21) & 0x07e00000) | ((b << 3) & 0x001ffff8)
 *                        | (dir & 7)
 *   sendoff(a,b,dir)   = 0x70000000 | ((a << 21) & 0x07e00000) | (((a >> 6) << 14) & 0x000fc000)
 *                        | ((b << 3) & 0x00003ff8) | (dir & 7)
 * The masks give the field widths; unlike the notes' C++ these encoders
 * reject a value that does not fit instead of masking it.
 *
 * Fixed words [RE, HW-INSN-FIXED]: sync = 0x41800000 | zone
 * (3 supervisor, 7 all, 15 host; the 4-bit zone width is modelled from 15
 * being the largest documented zone), sans = 0x40c00000, br $mN =
 * 0x43000000 | N << 20, setzi $mN, imm = 0x19000000 | N << 20 | imm
 * (imm < 2^20), put $CSR = 0x43008000 | csr. The source register of put is
 * inferred as $m0 from put $DBG_DATA,$m0 = 0x43008070 [RE]; the 8-bit CSR
 * width is modelled (every documented CSR is below 0x100). The debug
 * injectables (HW-TDI-INSNS) decode as themselves.
 *
 * Merged send/control instructions [RE, HW-MERGED, HW-WIDE], checked there against the SDK's
 * encoder and SDK-generated rows:
 *   sendpic(a, sel, v) = 0x70100000 | ((a << 21) & 0x07e00000) | ((sel << 18) & 0x000c0000)
 *                        | (v & 0x3ffff)        v: 13 bits for sel 0-1 (XPIC), 18 for 2-3 (PIC)
 *   sendpicp           = 0xf0000000 | ((picsel << 27) & 0x08000000) | ((a << 21) & 0x07e00000)
 *                        | ((src << 3) & 0x001ffff8) | sctl,   then (xpic << 18) | pic
 *                        xpic: 14 bits, pic: 18 bits; aligned to 8 bytes
 * sendpic's bit 20 is the bit no sendoff field owns, so the two never
 * collide; a sendpic whose XPIC value is wider than 13 bits stays .word.
 */
#include <errno.h>
#include <stdio.h>

#include "plan_internal.h"

struct ixc_fixed {
	uint32_t word;
	const char *text;
};

/* Injectable debug instructions [RE, S, HW-TDI-INSNS]. */
static const struct ixc_fixed ixc_fixed_words[] = {
	{ 0x41000000u, "get $m0, $PC" },
	{ 0x41000070u, "get $m0, $DBG_DATA" },
	{ 0x41010070u, "get $m1, $DBG_DATA" },
	{ 0x01f01000u, "ld32 $m0, $m15, $m1, 0" },
	{ 0x4f10f000u, "st32 $m0, [$m1]" },
	{ 0x44f0f3f1u, "zero $m15" },	/* the injectable no-op [S 003] */
};

#define NFIXED (sizeof(ixc_fixed_words) / sizeof(ixc_fixed_words[0]))

/* CSR names [RE, HW-EXCH-CSR]. */
static const char *ixc_csr_name(uint32_t csr)
{
	switch (csr) {
	case 0x70: return "DBG_DATA";
	case 0xa0: return "INCOMING_MUX";
	case 0xa1: return "INCOMING_MUXPAIR";
	case 0xa3: return "INCOMING_FORMAT";
	case 0xa4: return "INCOMING_BASE";
	case 0xa6: return "INCOMING_DCOUNT";
	case 0xa7: return "OUTGOING_BASE";
	default: return NULL;
	}
}

static const char *const ixc_op_names[IPUXCOM_OP_MAX] = {
	[IPUXCOM_OP_WORD] = ".word",
	[IPUXCOM_OP_DELAY] = "delay",
	[IPUXCOM_OP_DELAYPIC] = "delaypic",
	[IPUXCOM_OP_DELAYXPIC] = "delayxpic",
	[IPUXCOM_OP_SEND] = "send",
	[IPUXCOM_OP_SENDOFF] = "sendoff",
	[IPUXCOM_OP_SYNC] = "sync",
	[IPUXCOM_OP_SANS] = "sans",
	[IPUXCOM_OP_BR] = "br",
	[IPUXCOM_OP_SETZI] = "setzi",
	[IPUXCOM_OP_PUT] = "put",
	[IPUXCOM_OP_FIXED] = "fixed",
	[IPUXCOM_OP_SENDPIC] = "sendpic",
	[IPUXCOM_OP_SENDPICP] = "sendpicp",
};

const char *ipuxcom_op_name(uint32_t op)
{
	return op < IPUXCOM_OP_MAX ? ixc_op_names[op] : "?";
}

/* Fail with E_FIELD when @v does not fit @bits: "delaypic delay 130 does not fit 7 bits". */
static int ixc_fit(uint32_t v, unsigned int bits, const char *field,
		   struct ipuxcom_plan_error *err)
{
	if (v >> bits)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FIELD, field,
				     "%s %u does not fit %u bit%s (max %u)", field, v, bits,
				     bits == 1 ? "" : "s", (1u << bits) - 1);
	return 0;
}

static int ixc_out(uint32_t *word, uint32_t v, struct ipuxcom_plan_error *err)
{
	*word = v;
	ixc_plan_ok(err);
	return 0;
}

#define IXC_NULL_WORD()								\
	do {									\
		if (!word)							\
			return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "word",	\
					     "word is NULL");			\
	} while (0)

int ipuxcom_enc_delay(uint32_t n, uint32_t *word, struct ipuxcom_plan_error *err)
{
	uint32_t bad = 0;

	IXC_NULL_WORD();
	if (ixc_fit(n, 19, "delay n", err))
		return ixc_plan_errno(IPUXCOM_PLAN_E_FIELD);
	return ixc_out(word, ixc_delay(n, &bad), err);
}

int ipuxcom_enc_delaypic(uint32_t delay, uint32_t flag, uint32_t pic, uint32_t *word,
			 struct ipuxcom_plan_error *err)
{
	uint32_t bad = 0;
	int ret;

	IXC_NULL_WORD();
	if ((ret = ixc_fit(delay, 7, "delaypic delay", err)) ||
	    (ret = ixc_fit(flag, 1, "delaypic flag", err)) ||
	    (ret = ixc_fit(pic, 18, "delaypic pic", err)))
		return ret;
	return ixc_out(word, ixc_delaypic(delay, flag, pic, &bad), err);
}

int ipuxcom_enc_delayxpic(uint32_t delay, uint32_t flag, uint32_t mux, uint32_t *word,
			  struct ipuxcom_plan_error *err)
{
	uint32_t bad = 0;
	int ret;

	IXC_NULL_WORD();
	if ((ret = ixc_fit(delay, 12, "delayxpic delay", err)) ||
	    (ret = ixc_fit(flag, 1, "delayxpic flag", err)) ||
	    (ret = ixc_fit(mux, 13, "delayxpic mux", err)))
		return ret;
	return ixc_out(word, ixc_delayxpic(delay, flag, mux, &bad), err);
}

int ipuxcom_enc_send(uint32_t count_m1, uint32_t addr, uint32_t dir, uint32_t *word,
		     struct ipuxcom_plan_error *err)
{
	uint32_t bad = 0;
	int ret;

	IXC_NULL_WORD();
	if ((ret = ixc_fit(count_m1, 6, "send count-1", err)) ||
	    (ret = ixc_fit(addr, 18, "send address", err)) ||
	    (ret = ixc_fit(dir, 3, "send direction", err)))
		return ret;
	return ixc_out(word, ixc_send(count_m1, addr, dir, &bad), err);
}

int ipuxcom_enc_sendoff(uint32_t count_m1, uint32_t offset, uint32_t dir, uint32_t *word,
			struct ipuxcom_plan_error *err)
{
	uint32_t bad = 0;
	int ret;

	IXC_NULL_WORD();
	if ((ret = ixc_fit(count_m1, 12, "sendoff count-1", err)) ||
	    (ret = ixc_fit(offset, 11, "sendoff offset", err)) ||
	    (ret = ixc_fit(dir, 3, "sendoff direction", err)))
		return ret;
	return ixc_out(word, ixc_sendoff(count_m1, offset, dir, &bad), err);
}

int ipuxcom_enc_sync(uint32_t zone, uint32_t *word, struct ipuxcom_plan_error *err)
{
	IXC_NULL_WORD();
	if (ixc_fit(zone, 4, "sync zone", err))
		return ixc_plan_errno(IPUXCOM_PLAN_E_FIELD);
	return ixc_out(word, 0x41800000u | zone, err);
}

int ipuxcom_enc_br(uint32_t reg, uint32_t *word, struct ipuxcom_plan_error *err)
{
	IXC_NULL_WORD();
	if (ixc_fit(reg, 4, "br register", err))
		return ixc_plan_errno(IPUXCOM_PLAN_E_FIELD);
	return ixc_out(word, 0x43000000u | reg << 20, err);
}

int ipuxcom_enc_setzi(uint32_t reg, uint32_t imm, uint32_t *word, struct ipuxcom_plan_error *err)
{
	int ret;

	IXC_NULL_WORD();
	if ((ret = ixc_fit(reg, 4, "setzi register", err)) ||
	    (ret = ixc_fit(imm, 20, "setzi imm", err)))
		return ret;
	return ixc_out(word, 0x19000000u | reg << 20 | imm, err);
}

int ipuxcom_enc_put(uint32_t csr, uint32_t *word, struct ipuxcom_plan_error *err)
{
	IXC_NULL_WORD();
	if (ixc_fit(csr, 8, "put csr", err))
		return ixc_plan_errno(IPUXCOM_PLAN_E_FIELD);
	return ixc_out(word, 0x43008000u | csr, err);
}

int ipuxcom_enc_sendpic(uint32_t count_m1, uint32_t sel, uint32_t value, uint32_t *word,
			struct ipuxcom_plan_error *err)
{
	uint32_t bad = 0;
	int ret;

	IXC_NULL_WORD();
	if ((ret = ixc_fit(count_m1, 6, "sendpic count-1", err)) ||
	    (ret = ixc_fit(sel, 2, "sendpic sel", err)) ||
	    (ret = sel < 2 ? ixc_fit(value, 13, "sendpic xpic value", err) :
			     ixc_fit(value, 18, "sendpic pic value", err)))
		return ret;
	return ixc_out(word, ixc_sendpic(count_m1, sel, value, &bad), err);
}

int ipuxcom_enc_sendpicp(uint32_t picsel, uint32_t count_m1, uint32_t src_word, uint32_t sctl,
			 uint32_t xpic, uint32_t pic, uint32_t words[2],
			 struct ipuxcom_plan_error *err)
{
	uint32_t bad = 0;
	int ret;

	if (!words)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "words", "words is NULL");
	if ((ret = ixc_fit(picsel, 1, "sendpicp picsel", err)) ||
	    (ret = ixc_fit(count_m1, 6, "sendpicp count-1", err)) ||
	    (ret = ixc_fit(src_word, 18, "sendpicp source word", err)) ||
	    (ret = ixc_fit(sctl, 3, "sendpicp sctl", err)) ||
	    (ret = ixc_fit(xpic, 14, "sendpicp xpic", err)) ||
	    (ret = ixc_fit(pic, 18, "sendpicp pic", err)))
		return ret;
	ixc_sendpicp(picsel, count_m1, src_word, sctl, xpic, pic, words, &bad);
	ixc_plan_ok(err);
	return 0;
}

/* The first word of sendpicp alone (the one-word API): c = sctl | picsel << 3. */
static int ixc_enc_sendpicp_head(uint32_t a, uint32_t b, uint32_t c, uint32_t *word,
				 struct ipuxcom_plan_error *err)
{
	uint32_t two[2], bad = 0;
	int ret;

	if ((ret = ixc_fit(a, 6, "sendpicp count-1", err)) ||
	    (ret = ixc_fit(b, 18, "sendpicp source word", err)) ||
	    (ret = ixc_fit(c, 4, "sendpicp sctl|picsel<<3", err)))
		return ret;
	ixc_sendpicp(c >> 3, a, b, c & 7, 0, 0, two, &bad);
	return ixc_out(word, two[0], err);
}

int ipuxcom_encode(const struct ipuxcom_insn *insn, uint32_t *word, struct ipuxcom_plan_error *err)
{
	if (!insn)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "insn", "insn is NULL");
	IXC_NULL_WORD();
	switch (insn->op) {
	case IPUXCOM_OP_DELAY:
		return ipuxcom_enc_delay(insn->a, word, err);
	case IPUXCOM_OP_DELAYPIC:
		return ipuxcom_enc_delaypic(insn->a, insn->b, insn->c, word, err);
	case IPUXCOM_OP_DELAYXPIC:
		return ipuxcom_enc_delayxpic(insn->a, insn->b, insn->c, word, err);
	case IPUXCOM_OP_SEND:
		return ipuxcom_enc_send(insn->a, insn->b, insn->c, word, err);
	case IPUXCOM_OP_SENDOFF:
		return ipuxcom_enc_sendoff(insn->a, insn->b, insn->c, word, err);
	case IPUXCOM_OP_SYNC:
		return ipuxcom_enc_sync(insn->a, word, err);
	case IPUXCOM_OP_SANS:
		return ixc_out(word, IPUXCOM_WORD_SANS, err);
	case IPUXCOM_OP_BR:
		return ipuxcom_enc_br(insn->a, word, err);
	case IPUXCOM_OP_SETZI:
		return ipuxcom_enc_setzi(insn->a, insn->b, word, err);
	case IPUXCOM_OP_PUT:
		return ipuxcom_enc_put(insn->a, word, err);
	case IPUXCOM_OP_SENDPIC:
		return ipuxcom_enc_sendpic(insn->a, insn->b, insn->c, word, err);
	case IPUXCOM_OP_SENDPICP:
		return ixc_enc_sendpicp_head(insn->a, insn->b, insn->c, word, err);
	case IPUXCOM_OP_FIXED:
		for (size_t i = 0; i < NFIXED; i++)
			if (ixc_fixed_words[i].word == insn->a)
				return ixc_out(word, insn->a, err);
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FIELD, "fixed word",
				     "fixed word 0x%08x is not a documented injectable", insn->a);
	case IPUXCOM_OP_WORD:
		return ixc_out(word, insn->a, err);
	default:
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FIELD, "op", "op %u is not an "
				     "enum ipuxcom_op value", insn->op);
	}
}

int ipuxcom_decode(uint32_t w, struct ipuxcom_insn *out)
{
	if (!out)
		return -EINVAL;
	*out = (struct ipuxcom_insn){ .op = IPUXCOM_OP_WORD, .a = w };
	for (size_t i = 0; i < NFIXED; i++) {
		if (ixc_fixed_words[i].word == w) {
			out->op = IPUXCOM_OP_FIXED;
			return 0;
		}
	}
	if ((w & 0xfff80000u) == 0x40a00000u) {
		*out = (struct ipuxcom_insn){ IPUXCOM_OP_DELAY, w & 0x7ffff, 0, 0 };
	} else if ((w & 0xfc000000u) == 0x60000000u) {
		*out = (struct ipuxcom_insn){ IPUXCOM_OP_DELAYPIC, (w >> 19) & 0x7f, (w >> 18) & 1,
					      w & 0x3ffff };
	} else if ((w & 0xfc000000u) == 0x64000000u) {
		*out = (struct ipuxcom_insn){ IPUXCOM_OP_DELAYXPIC, (w >> 14) & 0xfff,
					      (w >> 13) & 1, w & 0x1fff };
	} else if ((w & 0xf8000000u) == 0x78000000u) {
		*out = (struct ipuxcom_insn){ IPUXCOM_OP_SEND, (w >> 21) & 0x3f, (w >> 3) & 0x3ffff,
					      w & 7 };
	} else if ((w & 0xf8100000u) == 0x70100000u) {
		/* sendpic; an XPIC selector with a value wider than 13 bits stays .word. */
		if (((w >> 18) & 3) < 2 && (w & 0x3e000u))
			return 0;
		*out = (struct ipuxcom_insn){ IPUXCOM_OP_SENDPIC, (w >> 21) & 0x3f, (w >> 18) & 3,
					      w & 0x3ffff };
	} else if ((w & 0xf0000000u) == 0xf0000000u) {
		/* the first word of sendpicp; every bit belongs to a field */
		*out = (struct ipuxcom_insn){ IPUXCOM_OP_SENDPICP, (w >> 21) & 0x3f,
					      (w >> 3) & 0x3ffff, (w & 7) | ((w >> 27) & 1) << 3 };
	} else if ((w & 0xf8100000u) == 0x70000000u) {
		/* bit 20 clear: no sendoff field owns it (set, the word is a sendpic) */
		*out = (struct ipuxcom_insn){ IPUXCOM_OP_SENDOFF,
					      ((w >> 21) & 0x3f) | (((w >> 14) & 0x3f) << 6),
					      (w >> 3) & 0x7ff, w & 7 };
	} else if ((w & 0xfffffff0u) == 0x41800000u) {
		*out = (struct ipuxcom_insn){ IPUXCOM_OP_SYNC, w & 0xf, 0, 0 };
	} else if (w == IPUXCOM_WORD_SANS) {
		*out = (struct ipuxcom_insn){ IPUXCOM_OP_SANS, 0, 0, 0 };
	} else if ((w & 0xff0fffffu) == 0x43000000u) {
		*out = (struct ipuxcom_insn){ IPUXCOM_OP_BR, (w >> 20) & 0xf, 0, 0 };
	} else if ((w & 0xff000000u) == 0x19000000u) {
		*out = (struct ipuxcom_insn){ IPUXCOM_OP_SETZI, (w >> 20) & 0xf, w & 0xfffff, 0 };
	} else if ((w & 0xffffff00u) == 0x43008000u) {
		*out = (struct ipuxcom_insn){ IPUXCOM_OP_PUT, w & 0xff, 0, 0 };
	}
	return 0;
}

int ipuxcom_disasm(uint32_t word, char *buf, size_t len)
{
	struct ipuxcom_insn in;
	const char *csr;

	if (!buf && len)
		return -EINVAL;
	ipuxcom_decode(word, &in);
	switch (in.op) {
	case IPUXCOM_OP_DELAY:
		return snprintf(buf, len, "delay %u", in.a);
	case IPUXCOM_OP_DELAYPIC:
		return snprintf(buf, len, "delaypic %u, %u, 0x%x", in.a, in.b, in.c);
	case IPUXCOM_OP_DELAYXPIC:
		return snprintf(buf, len, "delayxpic %u, %u, 0x%x", in.a, in.b, in.c);
	case IPUXCOM_OP_SEND:
		return snprintf(buf, len, "send %u, 0x%x, %u", in.a, in.b, in.c);
	case IPUXCOM_OP_SENDOFF:
		return snprintf(buf, len, "sendoff %u, 0x%x, %u", in.a, in.b, in.c);
	case IPUXCOM_OP_SYNC:
		return snprintf(buf, len, "sync %u", in.a);
	case IPUXCOM_OP_SANS:
		return snprintf(buf, len, "sans");
	case IPUXCOM_OP_BR:
		return snprintf(buf, len, "br $m%u", in.a);
	case IPUXCOM_OP_SETZI:
		return snprintf(buf, len, "setzi $m%u, 0x%x", in.a, in.b);
	case IPUXCOM_OP_PUT:
		csr = ixc_csr_name(in.a);
		if (csr)
			return snprintf(buf, len, "put $%s, $m0", csr);
		return snprintf(buf, len, "put $0x%02x, $m0", in.a);
	case IPUXCOM_OP_SENDPIC:
		return snprintf(buf, len, "sendpic %u, %u, 0x%x", in.a, in.b, in.c);
	case IPUXCOM_OP_SENDPICP:
		/* The inline word is not known here: ipuxcom_disasm_insn() shows it. */
		return snprintf(buf, len, "sendpicp %u, %u, 0x%x, %u, ?, ?", in.c >> 3, in.a, in.b,
				in.c & 7);
	case IPUXCOM_OP_FIXED:
		for (size_t i = 0; i < NFIXED; i++)
			if (ixc_fixed_words[i].word == word)
				return snprintf(buf, len, "%s", ixc_fixed_words[i].text);
		break;
	default:
		break;
	}
	return snprintf(buf, len, ".word 0x%08x", word);
}

/* ------------------------------------------------- multi-word instructions */

static void ixc_ctl(struct ipuxcom_decoded *d, uint8_t kind, uint8_t when, uint32_t form,
		    uint32_t value)
{
	d->ctl[d->nctl++] = (struct ipuxcom_ctl){ .kind = kind, .when = when,
						  .form = (uint8_t)form, .value = value };
}

/* The send-stream meaning of sctl [RE]: directions, 64-bit items. */
static void ixc_sctl(struct ipuxcom_decoded *d, uint32_t sctl)
{
	d->sctl = sctl;
	d->flags |= IPUXCOM_DEC_SEND;
	if (sctl & IPUXCOM_SCTL_DIRS)
		d->flags |= IPUXCOM_DEC_TRANSMIT;
	if (sctl & IPUXCOM_SCTL_WIDE)
		d->flags |= IPUXCOM_DEC_WIDE;
}

int ipuxcom_decode_insn(const uint32_t *words, size_t n, struct ipuxcom_decoded *out)
{
	struct ipuxcom_insn in;

	if (!words || !n || !out)
		return -EINVAL;
	ipuxcom_decode(words[0], &in);
	*out = (struct ipuxcom_decoded){ .op = in.op, .nwords = 1, .f = { in.a, in.b, in.c } };
	switch (in.op) {
	case IPUXCOM_OP_DELAY:
		out->events = in.a + 1;
		break;
	case IPUXCOM_OP_DELAYPIC:
		out->events = in.a + 1;
		ixc_ctl(out, IPUXCOM_CTL_PIC, IPUXCOM_CTL_AT_LAST_EVENT, in.b, in.c);
		break;
	case IPUXCOM_OP_DELAYXPIC:
		out->events = in.a + 1;
		ixc_ctl(out, IPUXCOM_CTL_XPIC, IPUXCOM_CTL_AT_LAST_EVENT, in.b, in.c);
		break;
	case IPUXCOM_OP_SEND:
		ixc_sctl(out, in.c);
		out->events = in.a + 1;
		out->src_word = in.b;
		break;
	case IPUXCOM_OP_SENDOFF:
		ixc_sctl(out, in.c);
		out->events = in.a + 1;
		break;
	case IPUXCOM_OP_SENDPIC:
		out->flags = IPUXCOM_DEC_SEND | IPUXCOM_DEC_NO_SCTL;
		out->events = in.a + 1;
		ixc_ctl(out, in.b < 2 ? IPUXCOM_CTL_XPIC : IPUXCOM_CTL_PIC,
			IPUXCOM_CTL_AT_FIRST_SEND, in.b & 1, in.c);
		break;
	case IPUXCOM_OP_SENDPICP:
		if (n < 2) {
			/* Half an instruction is no instruction. */
			*out = (struct ipuxcom_decoded){ .op = IPUXCOM_OP_WORD, .nwords = 1,
							 .f = { words[0] } };
			break;
		}
		*out = (struct ipuxcom_decoded){
			.op = IPUXCOM_OP_SENDPICP, .nwords = 2,
			.f = { in.c >> 3, in.a, in.b, in.c & 7, words[1] >> 18, words[1] & 0x3ffff },
			.flags = IPUXCOM_DEC_ALIGN8, .events = in.a + 1, .src_word = in.b,
		};
		ixc_sctl(out, in.c & 7);
		if (out->flags & IPUXCOM_DEC_TRANSMIT)
			out->flags |= IPUXCOM_DEC_RESTART;
		ixc_ctl(out, IPUXCOM_CTL_XPIC, IPUXCOM_CTL_AT_FIRST_SEND, 0, out->f[4]);
		ixc_ctl(out, IPUXCOM_CTL_PIC, IPUXCOM_CTL_AT_FIRST_SEND, out->f[0], out->f[5]);
		break;
	default:
		break;
	}
	return (int)out->nwords;
}

int ipuxcom_encode_insn(const struct ipuxcom_decoded *in, uint32_t words[2],
			struct ipuxcom_plan_error *err)
{
	struct ipuxcom_insn one;
	int ret;

	if (!in)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "insn", "insn is NULL");
	if (!words)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "words", "words is NULL");
	if (in->op == IPUXCOM_OP_SENDPICP) {
		ret = ipuxcom_enc_sendpicp(in->f[0], in->f[1], in->f[2], in->f[3], in->f[4],
					   in->f[5], words, err);
		return ret ? ret : 2;
	}
	one = (struct ipuxcom_insn){ in->op, in->f[0], in->f[1], in->f[2] };
	ret = ipuxcom_encode(&one, &words[0], err);
	return ret ? ret : 1;
}

int ipuxcom_disasm_insn(const uint32_t *words, size_t n, char *buf, size_t len, size_t *used)
{
	struct ipuxcom_decoded d;

	if (!words || !n || (!buf && len))
		return -EINVAL;
	ipuxcom_decode_insn(words, n, &d);
	if (used)
		*used = d.nwords;
	if (d.op == IPUXCOM_OP_SENDPICP)
		return snprintf(buf, len, "sendpicp %u, %u, 0x%x, %u, %u, 0x%x", d.f[0], d.f[1],
				d.f[2], d.f[3], d.f[4], d.f[5]);
	if (d.op == IPUXCOM_OP_WORD)	/* also the first half of a sendpicp without its second */
		return snprintf(buf, len, ".word 0x%08x", words[0]);
	return ipuxcom_disasm(words[0], buf, len);
}
