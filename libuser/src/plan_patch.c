// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Run-time patch helpers: what the notes' vertices do to plan words just
 * before branching into them [S "Runtime Vertex Behavior", "Proper
 * Multicast"], for tile code that does it itself and for a host that
 * pre-patches. Plus reading rows back (shape recognition) and the event
 * model walk the tests and the command use.
 *
 *  JDLRecv:  planBuf[0] is the patch index; the tile selector goes through
 *            the logical -> physical map into one exchange instruction,
 *            restored afterwards with `andc 0x1fff`. The patched word is
 *            words[1 + index] (index from the code start: inferred).
 *  JDLSend:  CSR 0xa7 = data + elementSelector * 4.
 *  NoBlobMulticastSend/Recv: the source word address in send, the
 *            destination field of the flagged delaypic, from real pointers.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plan_internal.h"

/* ------------------------------------------------------------- row shapes */

static int ixc_expect(struct ipuxcom_plan_error *err, size_t i, uint32_t w, const char *what)
{
	char field[24];

	snprintf(field, sizeof(field), "words[%zu]", i);
	return ixc_plan_fail(err, IPUXCOM_PLAN_E_WORD, field, "words[%zu] 0x%08x is not %s", i,
			     w, what);
}

int ixc_parse_send_row(const uint32_t *w, size_t n, struct ixc_row_shape *shape,
		       struct ipuxcom_plan_error *err)
{
	struct ipuxcom_insn in;
	size_t i = 1;

	*shape = (struct ixc_row_shape){ .send_index = -1, .pic_index = -1, .xpic_index = -1 };
	if (n < 3)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_WORD, "nwords",
				     "nwords %zu too short for a sender row", n);
	if (w[0] != IXC_SYNC3)
		return ixc_expect(err, 0, w[0], "sync 3 (not a sender row)");
	ipuxcom_decode(w[i], &in);
	if (in.op == IPUXCOM_OP_DELAY)
		ipuxcom_decode(w[++i], &in);
	if (in.op != IPUXCOM_OP_SEND)
		return ixc_expect(err, i, w[i], "a send");
	shape->send_index = (int)i;
	shape->count = in.a + 1;
	if (i + 1 < n) {
		struct ipuxcom_insn off;

		ipuxcom_decode(w[i + 1], &off);
		if (off.op == IPUXCOM_OP_SENDOFF) {
			if (in.a != 63)
				return ixc_expect(err, i, w[i], "a 64-word send before sendoff");
			shape->count += off.a + 1;
		}
	}
	return 0;
}

int ixc_parse_recv_row(const uint32_t *w, size_t n, struct ixc_row_shape *shape,
		       struct ipuxcom_plan_error *err)
{
	struct ipuxcom_insn a, b, c;
	uint32_t two_r;

	*shape = (struct ixc_row_shape){ .send_index = -1, .pic_index = -1, .xpic_index = 2 };
	if (n < 7)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_WORD, "nwords",
				     "nwords %zu too short for a receiver row (7)", n);
	if (w[1] != IXC_SYNC3)
		return ixc_expect(err, 1, w[1], "sync 3 (not a receiver row)");
	ipuxcom_decode(w[2], &a);
	if (a.op != IPUXCOM_OP_DELAYXPIC)
		return ixc_expect(err, 2, w[2], "the receiver's first delayxpic");
	ipuxcom_decode(w[3], &a);
	ipuxcom_decode(w[4], &b);
	ipuxcom_decode(w[5], &c);
	if (c.op != IPUXCOM_OP_DELAY)
		return ixc_expect(err, 5, w[5], "the schedule's final delay");
	if (w[6] != IPUXCOM_WORD_BR_M10)
		return ixc_expect(err, 6, w[6], "br $m10");
	if (a.op == IPUXCOM_OP_DELAYXPIC && b.op == IPUXCOM_OP_DELAYPIC) {
		/* count <= 51: delayxpic(count-1); delaypic(51-count+2r); delay(count+4) */
		shape->count = a.a + 1;
		shape->pic_index = 4;
		two_r = b.a + shape->count - 51;
		if (shape->count > 51 || a.c != IPUXCOM_MUX_DISABLE || c.a != shape->count + 4 ||
		    b.a + shape->count < 51 || (two_r & 1) || two_r / 2 >= IPUXCOM_PHYS_ROWS)
			return ixc_expect(err, 3, w[3], "a count <= 51 receive schedule");
		return 0;
	}
	if (a.op == IPUXCOM_OP_DELAYPIC && b.op == IPUXCOM_OP_DELAYXPIC) {
		/* count 52: delaypic(50+2r); delayxpic(0). >= 53: delaypic(51+2r); delayxpic(count-53) */
		bool c52 = !(a.a & 1);

		shape->count = c52 ? 52 : b.a + 53;
		shape->pic_index = 3;
		two_r = a.a - (c52 ? 50 : 51);
		if (a.a < 50 || two_r / 2 >= IPUXCOM_PHYS_ROWS || (c52 && b.a != 0) ||
		    b.c != IPUXCOM_MUX_DISABLE || c.a != 56 ||
		    shape->count > IPUXCOM_PLAN_MAX_COUNT)
			return ixc_expect(err, 3, w[3], "a count >= 52 receive schedule");
		return 0;
	}
	return ixc_expect(err, 3, w[3], "the receive schedule (delayxpic/delaypic)");
}

/* ----------------------------------------------------------------- JDLRecv */

static int ixc_check_words(const uint32_t *words, struct ipuxcom_plan_error *err)
{
	if (!words)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "words", "words is NULL");
	return 0;
}

int ipuxcom_patch_index(const uint32_t *words, size_t nwords, size_t *index,
			struct ipuxcom_plan_error *err)
{
	int ret = ixc_check_words(words, err);

	if (ret)
		return ret;
	if (!index)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "index", "index is NULL");
	if (nwords < 2 || words[0] >= nwords - 1)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_WORD, "words[0]",
				     "words[0] patch index %u points past the row (%zu words)",
				     nwords ? words[0] : 0, nwords);
	*index = 1 + (size_t)words[0];
	ixc_plan_ok(err);
	return 0;
}

/* The delayxpic at the patch index, or an error. */
static int ixc_recv_target(const uint32_t *words, size_t nwords, size_t *index,
			   struct ipuxcom_plan_error *err)
{
	struct ipuxcom_insn in;
	int ret = ipuxcom_patch_index(words, nwords, index, err);

	if (ret)
		return ret;
	ipuxcom_decode(words[*index], &in);
	if (in.op != IPUXCOM_OP_DELAYXPIC)
		return ixc_expect(err, *index, words[*index], "a delayxpic (patch target)");
	return 0;
}

int ipuxcom_patch_recv(uint32_t *words, size_t nwords, uint32_t tile_selector,
		       struct ipuxcom_plan_error *err)
{
	size_t i;
	uint32_t phys = 0;
	int ret;

	if ((ret = ixc_check_words(words, err)) ||
	    (ret = ixc_tile_resolve(tile_selector, true, &phys, err, "tile_selector")) ||
	    (ret = ixc_recv_target(words, nwords, &i, err)))
		return ret;
	/* Physical ids < 1472 always fit the 13-bit mux field. */
	words[i] = (words[i] & ~IPUXCOM_PATCH_MASK) | phys;
	ixc_plan_ok(err);
	return 0;
}

int ipuxcom_patch_recv_restore(uint32_t *words, size_t nwords, struct ipuxcom_plan_error *err)
{
	size_t i;
	int ret;

	if ((ret = ixc_check_words(words, err)) || (ret = ixc_recv_target(words, nwords, &i, err)))
		return ret;
	words[i] &= ~IPUXCOM_PATCH_MASK;	/* andc 0x1fff [S] */
	ixc_plan_ok(err);
	return 0;
}

/* ----------------------------------------------------------------- JDLSend */

int ipuxcom_patch_send_base(uint32_t data, uint32_t element_selector, uint32_t *outgoing_base,
			    struct ipuxcom_plan_error *err)
{
	uint64_t a;
	int ret;

	if (!outgoing_base)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "outgoing_base",
				     "outgoing_base is NULL");
	ret = ixc_check_sram(data, 0, false, err, "data");
	if (ret)
		return ret;
	a = (uint64_t)data + (uint64_t)element_selector * 4;
	if (a >= IPUXCOM_SRAM_END)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ADDR, "element_selector",
				     "element_selector %u: data 0x%x + %u x 4 = 0x%llx past tile "
				     "SRAM end 0x%x", element_selector, data, element_selector,
				     (unsigned long long)a, IPUXCOM_SRAM_END);
	*outgoing_base = (uint32_t)a;
	ixc_plan_ok(err);
	return 0;
}

/* --------------------------------------------------------------- multicast */

int ipuxcom_patch_mcast_src(uint32_t *words, size_t nwords, uint32_t src_addr,
			    struct ipuxcom_plan_error *err)
{
	struct ixc_row_shape sh;
	struct ipuxcom_insn in;
	int ret;

	if ((ret = ixc_check_words(words, err)) || (ret = ixc_parse_send_row(words, nwords, &sh, err)))
		return ret;
	ipuxcom_decode(words[sh.send_index], &in);
	if ((in.c & ~IPUXCOM_SCTL_WIDE) != IPUXCOM_DIR_BROADCAST)
		return ixc_expect(err, (size_t)sh.send_index, words[sh.send_index],
				  "a broadcast send (not a multicast sender row)");
	/* A 64-bit multicast (IPUXCOM_PLAN_WIDE): two words per event, 8-byte items. */
	if ((in.c & IPUXCOM_SCTL_WIDE) && (src_addr & 7))
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_ALIGN, "src_addr",
				     "src_addr 0x%x not 8-byte aligned (64-bit items)", src_addr);
	ret = ixc_check_sram(src_addr, sh.count << !!(in.c & IPUXCOM_SCTL_WIDE), false, err,
			     "src_addr");
	if (ret)
		return ret;
	words[sh.send_index] = (words[sh.send_index] & ~(0x3ffffu << 3)) | (src_addr / 4) << 3;
	ixc_plan_ok(err);
	return 0;
}

int ipuxcom_patch_mcast_dst(uint32_t *words, size_t nwords, uint32_t dst_addr,
			    struct ipuxcom_plan_error *err)
{
	struct ixc_row_shape sh;
	size_t i;
	int ret;

	if ((ret = ixc_check_words(words, err)) ||
	    (ret = ixc_parse_recv_row(words, nwords, &sh, err)) ||
	    (ret = ipuxcom_patch_index(words, nwords, &i, err)))
		return ret;
	if ((int)i != sh.pic_index)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_WORD, "words[0]",
				     "words[0] patch index %u is not the delaypic (word %d)",
				     words[0], sh.pic_index);
	if ((words[i] & IPUXCOM_MCAST_FLAG) != IPUXCOM_MCAST_FLAG)
		return ixc_expect(err, i, words[i], "a delaypic with the multicast flag 0x14000");
	ret = ixc_check_sram(dst_addr, sh.count, true, err, "dst_addr");
	if (ret)
		return ret;
	words[i] = (words[i] & ~0x3ffffu) | IPUXCOM_MCAST_FLAG |
		   (dst_addr - IPUXCOM_MCAST_DST_BASE) / 4;
	ixc_plan_ok(err);
	return 0;
}

/* -------------------------------------------------------------- event walk */

void ixc_walk_row(const uint32_t *words, size_t n, bool has_index, struct ixc_walk *out)
{
	size_t i = has_index ? 1 : 0;
	int32_t ev = 0;

	*out = (struct ixc_walk){ .mux_open = -1, .mux_close = -1, .pic_event = -1 };
	if (i >= n || (words[i] & 0xfffffff0u) != 0x41800000u)
		return;
	for (i++; i < n; i++) {
		struct ipuxcom_insn in;

		ipuxcom_decode(words[i], &in);
		switch (in.op) {
		case IPUXCOM_OP_DELAY:
			ev += (int32_t)in.a + 1;
			break;
		case IPUXCOM_OP_DELAYPIC:
			if (out->pic_event < 0) {
				out->pic_event = ev + (int32_t)in.a;
				out->pic = in.c;
			}
			ev += (int32_t)in.a + 1;
			break;
		case IPUXCOM_OP_DELAYXPIC:
			if (in.c != IPUXCOM_MUX_DISABLE && out->mux_open < 0) {
				out->mux_open = ev + (int32_t)in.a;
				out->mux_src = in.c;
			} else if (in.c == IPUXCOM_MUX_DISABLE && out->mux_open >= 0 &&
				   out->mux_close < 0) {
				out->mux_close = ev + (int32_t)in.a;
			}
			ev += (int32_t)in.a + 1;
			break;
		case IPUXCOM_OP_SEND:
		case IPUXCOM_OP_SENDOFF:
			if (out->nsends < IXC_WALK_MAX_SENDS) {
				out->send_start[out->nsends] = ev;
				out->send_words[out->nsends] = in.a + 1;
				out->send_dir[out->nsends] = in.c;
				out->nsends++;
			}
			ev += (int32_t)in.a + 1;
			break;
		case IPUXCOM_OP_BR:
			out->events = ev;
			out->ok = true;
			return;
		default:
			out->events = ev;
			return;
		}
	}
	out->events = ev;
}
