// SPDX-License-Identifier: GPL-2.0-only
/*
 * 64-bit point-to-point plans (libuser/src/plan_p2p_wide.c) against
 * HW-MERGED and HW-WIDE [RE]:
 * sctl = direction(s, d) | 4, the pair's timing max(TimeToMux(s, d),
 * TimeToMux(s, d ^ 2)), the XPIC owner the member with the smaller time,
 * two words per event; the rows are the p2p shapes with items for words
 * (modelled), so the receiver row must equal the 32-bit p2p receiver row of
 * count / 2 words. Refusals: odd or out-of-range counts, a receiver whose
 * pair partner is the sender, addresses not 8-byte aligned or outside SRAM.
 *
 * What the rows deliver in the exchange verifier, the IPUXCOM_PLAN_WIDE
 * fallbacks and 64-bit multicasts are plan_wide_sim_test's; these tests
 * check the words field by field and the timing arithmetic.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <string.h>

#include <ipuxcom_xsim.h>

#include "../../bench/sched_suite.h"
#include "../../libuser/src/plan_internal.h"

#define SRC	0x80000u
#define DST	0x50000u

static int wide(uint32_t s, uint32_t d, uint32_t count, struct ipuxcom_p2p_plan *p,
		struct ipuxcom_p2p_wide_info *info, struct ipuxcom_plan_error *e)
{
	return ipuxcom_plan_p2p_wide(NULL, s, d, count, SRC, DST, IPUXCOM_PLAN_PHYSICAL, p, info,
				     e);
}

/* The row's code as decoded instructions; returns how many. */
static int decode_row(const struct ipuxcom_plan_row *row, unsigned int first,
		      struct ipuxcom_decoded *out, int max)
{
	int n = 0;

	for (unsigned int i = first; i < row->nwords && n < max; n++)
		i += (unsigned int)ipuxcom_decode_insn(&row->words[i], row->nwords - i, &out[n]);
	return n;
}

/* Every field of the rows, over routes of every kind of timing relation. */
TEST(rows_fields_and_pair_timing)
{
	static const uint32_t counts[] = { 2, 4, 102, 104, 106, 128, 130, 1024, 8296 };
	uint32_t routes[][2] = { { 0, 53 }, { 1000, 5 }, { 1440, 0 }, { 53, 1000 }, { 700, 1471 },
				 { 9, 1373 } };

	for (size_t k = 0; k < sizeof(routes) / sizeof(routes[0]); k++) {
		for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
			uint32_t s = routes[k][0], d = routes[k][1], count = counts[c];
			uint32_t items = count / 2, p = d ^ 2;
			struct ipuxcom_p2p_plan w = IPUXCOM_P2P_PLAN_INIT, ref = IPUXCOM_P2P_PLAN_INIT;
			struct ipuxcom_p2p_wide_info info = IPUXCOM_P2P_WIDE_INFO_INIT;
			struct ipuxcom_decoded dec[8];
			struct ipuxcom_plan_error e;
			unsigned int dir = 0;
			int t = 0, tp = 0, tpair, n, i = 1;

			ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, s, d, &t, NULL));
			ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, s, p, &tp, NULL));
			if (tp < t || (tp == t && p < d)) {
				/* The partner owns the items: refused; its own plan is checked. */
				EXPECT_EQ(-EOPNOTSUPP, wide(s, d, count, &w, &info, &e));
				EXPECT_EQ(IPUXCOM_PLAN_E_INFEASIBLE, e.code);
				d = p;
				p = d ^ 2;
				ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, s, d, &t, NULL));
				ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, s, p, &tp, NULL));
			}
			ASSERT_EQ(0, wide(s, d, count, &w, &info, NULL));
			ASSERT_EQ(0, ipuxcom_route_direction(NULL, s, d, &dir, NULL));
			tpair = t > tp ? t : tp;
			EXPECT_EQ(items, info.items);
			EXPECT_EQ(p, info.partner);
			EXPECT_EQ(t, info.time_to_mux);
			EXPECT_EQ(tp, info.partner_time_to_mux);
			EXPECT_EQ(tpair, info.pair_time);
			EXPECT_EQ(tpair, w.time_to_mux);
			EXPECT_EQ(d, info.xpic_owner);
			EXPECT_EQ(IPUXCOM_WIDE_USED, info.wide);
			EXPECT_EQ(dir | 4u, info.sctl);
			EXPECT_EQ(dir, w.direction);
			EXPECT_EQ(count, w.count);

			/* Sender: sync 3; [delay]; send; [sendoff]; br $m10. */
			n = decode_row(&w.send, 0, dec, 8);
			EXPECT_EQ(IPUXCOM_OP_SYNC, dec[0].op);
			if (tpair < 112) {
				EXPECT_EQ(IPUXCOM_OP_DELAY, dec[1].op);
				/* The first item leaves at 112 - Tpair: the pair's mux at 112. */
				EXPECT_EQ((uint32_t)(112 - tpair), dec[1].events);
				i = 2;
			}
			EXPECT_EQ(IPUXCOM_OP_SEND, dec[i].op);
			EXPECT_EQ(dir | 4u, dec[i].sctl);
			EXPECT_TRUE(dec[i].flags & IPUXCOM_DEC_WIDE);
			EXPECT_TRUE(dec[i].flags & IPUXCOM_DEC_TRANSMIT);
			EXPECT_EQ(0u, dec[i].src_word);
			EXPECT_EQ(items < 64 ? items : 64u, dec[i].events);
			if (items > 64) {
				i++;
				EXPECT_EQ(IPUXCOM_OP_SENDOFF, dec[i].op);
				EXPECT_EQ(dir | 4u, dec[i].sctl);
				EXPECT_EQ(items - 64, dec[i].events);
			}
			EXPECT_EQ(i + 2, n);
			EXPECT_EQ(IPUXCOM_OP_BR, dec[i + 1].op);
			EXPECT_EQ((int32_t)(112 - tpair), w.send.event);
			EXPECT_EQ(tpair >= 112, w.sync_boundary);

			/* Receiver: the 32-bit p2p receiver row of @items words. */
			ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, s, d, items, IPUXCOM_PLAN_PHYSICAL,
						      &ref, NULL));
			EXPECT_EQ(0, memcmp(&ref.recv, &w.recv, sizeof(ref.recv)));
		}
	}
}

/*
 * Both owners occur over real routes; the owner is the earlier member and
 * gets the plan, the other member is refused naming its partner (its
 * window would take nothing), and with IPUXCOM_PLAN_WIDE gets the 32-bit
 * plan instead.
 */
TEST(xpic_owner_is_the_earlier_member)
{
	uint32_t own_recv = 0, own_partner = 0;

	for (uint32_t s = 0; s < IPUXCOM_TILES; s += 37) {
		for (uint32_t d = 0; d < IPUXCOM_TILES; d += 5) {
			struct ipuxcom_p2p_plan w = IPUXCOM_P2P_PLAN_INIT;
			struct ipuxcom_p2p_wide_info info = IPUXCOM_P2P_WIDE_INFO_INIT;
			struct ipuxcom_plan_error e;
			int t = 0, tp = 0;
			char want[48];

			if (d == s || (d ^ 2) == s)
				continue;
			ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, s, d, &t, NULL));
			ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, s, d ^ 2, &tp, NULL));
			if (t < tp || (t == tp && d < (d ^ 2))) {
				own_recv++;
				ASSERT_EQ(0, wide(s, d, 8, &w, &info, NULL));
				EXPECT_EQ(d, info.xpic_owner);
				continue;
			}
			own_partner++;
			EXPECT_EQ(-EOPNOTSUPP, wide(s, d, 8, &w, &info, &e));
			EXPECT_EQ(IPUXCOM_PLAN_E_INFEASIBLE, e.code);
			EXPECT_STREQ("receiver", e.field);
			snprintf(want, sizeof(want), "its partner, physical %u, does", d ^ 2);
			EXPECT_NE(NULL, strstr(e.msg, want)) TH_LOG("%s", e.msg);
			ASSERT_EQ(0, ipuxcom_plan_p2p_wide(NULL, s, d, 8, SRC, DST,
							   IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL,
							   &w, &info, NULL));
			EXPECT_EQ(IPUXCOM_WIDE_NOT_OWNER, info.wide);
			EXPECT_EQ(0u, info.sctl & IPUXCOM_SCTL_WIDE);
		}
	}
	EXPECT_GT(own_recv, 0u);
	EXPECT_GT(own_partner, 0u);
}

/* The row disassembly counts 64-bit items as such (sctl bit 2), not as words. */
TEST(disassembly_names_items)
{
	struct ipuxcom_p2p_plan w = IPUXCOM_P2P_PLAN_INIT, n = IPUXCOM_P2P_PLAN_INIT;
	char buf[160];
	int k;

	ASSERT_EQ(0, ipuxcom_plan_p2p_wide(NULL, 1000, 645, 256, SRC, DST, IPUXCOM_PLAN_PHYSICAL,
					   &w, NULL, NULL));
	k = (w.send.words[1] & 0xf8000000u) == 0x78000000u ? 1 : 2;	/* send after any delay */
	ASSERT_LT(0, ipuxcom_plan_row_disasm(&w.send, (unsigned int)k, buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "; 64 64-bit items (2 words each), direction ")) TH_LOG("%s", buf);
	ASSERT_LT(0, ipuxcom_plan_row_disasm(&w.send, (unsigned int)k + 1, buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "; 64 64-bit items (2 words each)")) TH_LOG("%s", buf);
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 1000, 645, 128, IPUXCOM_PLAN_PHYSICAL, &n,
				      NULL));	/* a delay word too */
	ASSERT_LT(0, ipuxcom_plan_row_disasm(&n.send, (unsigned int)k, buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "; 64 words, direction ")) TH_LOG("%s", buf);
}

TEST(refusals)
{
	struct ipuxcom_p2p_plan w = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_p2p_wide_info info = IPUXCOM_P2P_WIDE_INFO_INIT;
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-ERANGE, wide(0, 53, 3, &w, &info, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_COUNT, e.code);
	EXPECT_NE(NULL, strstr(e.msg, "even"));
	EXPECT_EQ(-ERANGE, wide(0, 53, 0, &w, &info, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_COUNT, e.code);
	EXPECT_EQ(-ERANGE, wide(0, 53, IPUXCOM_PLAN_MAX_WIDE_COUNT + 2, &w, &info, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_COUNT, e.code);
	EXPECT_EQ(0, wide(0, 53, IPUXCOM_PLAN_MAX_WIDE_COUNT, &w, &info, &e));

	/* The receiver's pair partner is the sender: no pair timing. */
	EXPECT_EQ(-EINVAL, wide(0, 2, 4, &w, &info, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SELF, e.code);
	EXPECT_NE(NULL, strstr(e.msg, "pair partner"));
	EXPECT_EQ(-EINVAL, wide(7, 5, 4, &w, &info, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SELF, e.code);
	EXPECT_EQ(-EINVAL, wide(5, 5, 4, &w, &info, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SELF, e.code);

	/* 4-byte aligned is not enough for 64-bit items. */
	EXPECT_EQ(-EINVAL, ipuxcom_plan_p2p_wide(NULL, 0, 53, 4, SRC + 4, DST,
						 IPUXCOM_PLAN_PHYSICAL, &w, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ALIGN, e.code);
	EXPECT_STREQ("src_addr", e.field);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_p2p_wide(NULL, 0, 53, 4, SRC, DST + 12,
						 IPUXCOM_PLAN_PHYSICAL, &w, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ALIGN, e.code);
	EXPECT_STREQ("dst_addr", e.field);
	EXPECT_EQ(0, ipuxcom_plan_p2p_wide(NULL, 0, 53, 4, SRC + 8, DST + 16, IPUXCOM_PLAN_PHYSICAL,
					   &w, NULL, &e));
	/* Outside tile SRAM (0x4c000 + 624 KiB [RE]). */
	EXPECT_EQ(-ERANGE, ipuxcom_plan_p2p_wide(NULL, 0, 53, 4, 0x40000, DST,
						 IPUXCOM_PLAN_PHYSICAL, &w, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ADDR, e.code);
	EXPECT_EQ(-ERANGE, ipuxcom_plan_p2p_wide(NULL, 0, 53, 4, SRC, 0xe7ff8,
						 IPUXCOM_PLAN_PHYSICAL, &w, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ADDR, e.code);

	EXPECT_EQ(-EINVAL, ipuxcom_plan_p2p_wide(NULL, 0, 53, 4, SRC, DST, 0x80, &w, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e.code);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_p2p_wide(NULL, 0, 53, 4, SRC, DST, IPUXCOM_PLAN_PHYSICAL,
						 NULL, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
	EXPECT_EQ(-ERANGE, wide(1472, 53, 4, &w, &info, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_TILE, e.code);
}

/* Logical ids go through the tile map like every plan. */
TEST(logical_ids)
{
	struct ipuxcom_p2p_plan a = IPUXCOM_P2P_PLAN_INIT, b = IPUXCOM_P2P_PLAN_INIT;
	uint32_t s = 0, d = 0;

	ASSERT_EQ(0, ipuxcom_tile_physical(10, &s));
	ASSERT_EQ(0, ipuxcom_tile_physical(1286, &d));
	ASSERT_EQ(0, ipuxcom_plan_p2p_wide(NULL, 10, 1286, 64, SRC, DST, IPUXCOM_PLAN_LOGICAL, &a,
					   NULL, NULL));
	ASSERT_EQ(0, wide(s, d, 64, &b, NULL, NULL));
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	EXPECT_EQ(s, a.send.tile);
	EXPECT_EQ(d, a.recv.tile);
}

/* Every transfer of the suite's 64-bit family has a 64-bit route (what the family is for). */
TEST(suite_wide_family_has_routes)
{
	static char text[SUITE_TEXT_MAX];
	uint32_t first = SUITE_NSETS - SUITE_N_WIDE, routes = 0;

	for (uint32_t i = first; i < SUITE_NSETS; i++) {
		struct ipuxcom_schedule_list *l = NULL;

		ASSERT_EQ(SUITE_WIDE, suite_set(i, text, sizeof(text)));
		ASSERT_EQ(0, ipuxcom_schedule_list_parse(text, strlen(text), 0, &l, NULL));
		for (size_t k = 0; k < l->n; k++) {
			const struct ipuxcom_schedule_xfer *x = &l->xfers[k];
			struct ipuxcom_p2p_plan w = IPUXCOM_P2P_PLAN_INIT;
			struct ipuxcom_plan_error e;

			ASSERT_EQ(1u, x->nrecv);
			EXPECT_EQ(0, ipuxcom_plan_p2p_wide(NULL, x->sender, x->receivers[0], x->count,
							   x->src_addr, x->dst_addr[0], IPUXCOM_PLAN_PHYSICAL, &w, NULL,
							   &e)) TH_LOG("set %u transfer %zu: %s", i, k, e.msg);
			routes++;
		}
		ipuxcom_schedule_list_free(l);
	}
	EXPECT_GE(routes, 2u * SUITE_N_WIDE);
}

TEST_HARNESS_MAIN
