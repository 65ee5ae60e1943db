// SPDX-License-Identifier: GPL-2.0-only
/*
 * Run-time patch helpers, non-participation rows and row disassembly
 * (libuser/src/plan_patch.c, plan_p2p.c): what JDLRecv, JDLSend and the
 * multicast vertices do to plan words [S "Runtime Vertex Behavior",
 * "Proper Multicast"], checked against plans assembled directly, with
 * every rejection leaving the row untouched.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <string.h>

#include <ipuxcom_plan.h>

#include "../../libuser/src/plan_internal.h"

/* ----------------------------------------------------------------- JDLRecv */

TEST(patch_index_points_at_the_delayxpic)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	size_t i = 99;

	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 0, 53, 3, IPUXCOM_PLAN_PHYSICAL, &p, NULL));
	ASSERT_EQ(0, ipuxcom_patch_index(p.recv.words, IPUXCOM_ROW_WORDS, &i, NULL));
	EXPECT_EQ(2u, i);
	EXPECT_EQ((size_t)p.recv.patch, i);
	EXPECT_EQ(0x641c0000u, p.recv.words[i]);
}

TEST(recv_patch_maps_the_tile_selector_and_restores)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	uint32_t before[IPUXCOM_ROW_WORDS];

	/* JDLRecv patches the sender, given as a logical tile selector. */
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 1286, 0, 3, IPUXCOM_PLAN_LOGICAL, &p, NULL));
	memcpy(before, p.recv.words, sizeof(before));
	ASSERT_EQ(0, ipuxcom_patch_recv(p.recv.words, IPUXCOM_ROW_WORDS, 1286, NULL));
	EXPECT_EQ(0x641c0000u | 53, p.recv.words[2]);	/* logical 1286 = physical 53 */
	for (unsigned int i = 0; i < IPUXCOM_ROW_WORDS; i++) {
		if (i != 2) {
			EXPECT_EQ(before[i], p.recv.words[i]);
		}
	}
	/* Patching again replaces, never ORs two ids together. */
	ASSERT_EQ(0, ipuxcom_patch_recv(p.recv.words, IPUXCOM_ROW_WORDS, 1471, NULL));
	EXPECT_EQ(0x641c0000u | 63, p.recv.words[2]);
	/* andc 0x1fff */
	ASSERT_EQ(0, ipuxcom_patch_recv_restore(p.recv.words, IPUXCOM_ROW_WORDS, NULL));
	EXPECT_EQ(0, memcmp(before, p.recv.words, sizeof(before)));
}

TEST(recv_patch_keeps_a_retimed_delayxpic)
{
	const uint32_t r[2] = { 5, 700 };
	struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = 1000, .count = 3, .nrecv = 2, .receivers = r };
	struct ipuxcom_plan_row rows[3];
	uint32_t delay_field;

	ASSERT_EQ(0, ipuxcom_plan_serialized(NULL, &req, rows, 3, NULL, NULL));
	delay_field = rows[2].words[2] & ~0x1fffu;
	ASSERT_EQ(0, ipuxcom_patch_recv(rows[2].words, IPUXCOM_ROW_WORDS, 1471, NULL));
	EXPECT_EQ(delay_field | 63, rows[2].words[2]);
}

TEST(recv_patch_rejections_leave_the_row_untouched)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_plan_error e;
	uint32_t before[IPUXCOM_ROW_WORDS];

	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 0, 53, 3, IPUXCOM_PLAN_PHYSICAL, &p, NULL));
	memcpy(before, p.recv.words, sizeof(before));
	EXPECT_EQ(-ERANGE, ipuxcom_patch_recv(p.recv.words, IPUXCOM_ROW_WORDS, 1472, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_TILE, e.code);
	EXPECT_STREQ("tile_selector 1472 out of range 0..1471 (logical)", e.msg);
	p.recv.words[0] = 8;
	EXPECT_EQ(-EINVAL, ipuxcom_patch_recv(p.recv.words, IPUXCOM_ROW_WORDS, 5, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_WORD, e.code);
	EXPECT_STREQ("words[0] patch index 8 points past the row (9 words)", e.msg);
	p.recv.words[0] = 0;	/* points at sync 3 */
	EXPECT_EQ(-EINVAL, ipuxcom_patch_recv(p.recv.words, IPUXCOM_ROW_WORDS, 5, &e));
	EXPECT_STREQ("words[1]", e.field);
	EXPECT_STREQ("words[1] 0x41800003 is not a delayxpic (patch target)", e.msg);
	p.recv.words[0] = 1;
	EXPECT_EQ(0, memcmp(before, p.recv.words, sizeof(before)));
	EXPECT_EQ(-EINVAL, ipuxcom_patch_recv(p.recv.words, 1, 5, &e));
	EXPECT_EQ(-EINVAL, ipuxcom_patch_recv(NULL, 9, 5, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
	EXPECT_EQ(-EINVAL, ipuxcom_patch_recv_restore(p.send.words, IPUXCOM_ROW_WORDS, &e));
	EXPECT_EQ(-EINVAL, ipuxcom_patch_index(p.recv.words, 9, NULL, &e));
	EXPECT_EQ(0, memcmp(before, p.recv.words, sizeof(before)));
}

/* ----------------------------------------------------------------- JDLSend */

TEST(send_base_is_data_plus_four_times_the_selector)
{
	struct ipuxcom_plan_error e;
	uint32_t a7 = 0;

	ASSERT_EQ(0, ipuxcom_patch_send_base(0x50000, 3, &a7, &e));
	EXPECT_EQ(0x5000cu, a7);
	EXPECT_EQ(-EINVAL, ipuxcom_patch_send_base(0x50002, 0, &a7, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ALIGN, e.code);
	EXPECT_STREQ("data", e.field);
	EXPECT_EQ(-ERANGE, ipuxcom_patch_send_base(0x40000, 0, &a7, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ADDR, e.code);
	EXPECT_EQ(-ERANGE, ipuxcom_patch_send_base(0x50000, 0x40000000, &a7, &e));
	EXPECT_STREQ("element_selector", e.field);
	EXPECT_STREQ("element_selector 1073741824: data 0x50000 + 1073741824 x 4 = 0x100050000 "
		     "past tile SRAM end 0xe8000", e.msg);
	EXPECT_EQ(0x5000cu, a7);
	EXPECT_EQ(-EINVAL, ipuxcom_patch_send_base(0x50000, 0, NULL, &e));
}

/* --------------------------------------------------------------- multicast */

static int mc(uint32_t count, uint32_t src, uint32_t dst, uint32_t recv,
	      struct ipuxcom_plan_row rows[2])
{
	struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = 1000, .count = count, .nrecv = 1,
		.receivers = &recv, .src_addr = src, .dst_addr = &dst };

	return ipuxcom_plan_multicast(NULL, &req, rows, 2, NULL, NULL);
}

TEST(mcast_patches_reproduce_assembled_plans)
{
	static const uint32_t counts[] = { 1, 3, 51, 52, 53, 64, 65, 4148 };
	static const uint32_t recvs[] = { 5, 22 * 64 + 3, 640 };

	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		for (size_t k = 0; k < 3; k++) {
			struct ipuxcom_plan_row a[2], b[2];
			struct ipuxcom_plan_error e;

			ASSERT_EQ(0, mc(counts[c], 0x50000, 0x50000, recvs[k], a));
			ASSERT_EQ(0, mc(counts[c], 0x60040, 0x70120, recvs[k], b));
			ASSERT_EQ(0, ipuxcom_patch_mcast_src(a[0].words, IPUXCOM_ROW_WORDS, 0x60040,
							     &e)) TH_LOG("%s", e.msg);
			ASSERT_EQ(0, ipuxcom_patch_mcast_dst(a[1].words, IPUXCOM_ROW_WORDS, 0x70120,
							     &e)) TH_LOG("count %u: %s", counts[c], e.msg);
			EXPECT_EQ(0, memcmp(a[0].words, b[0].words, sizeof(a[0].words)));
			EXPECT_EQ(0, memcmp(a[1].words, b[1].words, sizeof(a[1].words)));
		}
	}
}

/* The notes' placement differential, applied by the patch helper [S]. */
TEST(mcast_dst_patch_golden_words)
{
	struct ipuxcom_plan_row rows[2];

	ASSERT_EQ(0, mc(3, 0x50000, 0x50000, 5, rows));
	ASSERT_EQ(0, ipuxcom_patch_mcast_dst(rows[1].words, IPUXCOM_ROW_WORDS, 0x50120, NULL));
	EXPECT_EQ(0x61814048u, rows[1].words[4]);
	ASSERT_EQ(0, ipuxcom_patch_mcast_dst(rows[1].words, IPUXCOM_ROW_WORDS, 0x50130, NULL));
	EXPECT_EQ(0x6181404cu, rows[1].words[4]);
}

TEST(mcast_patch_rejections_leave_the_row_untouched)
{
	struct ipuxcom_plan_row rows[2];
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_plan_error e;
	uint32_t s[IPUXCOM_ROW_WORDS], r[IPUXCOM_ROW_WORDS];

	ASSERT_EQ(0, mc(4148, 0x50000, 0x50000, 5, rows));
	memcpy(s, rows[0].words, sizeof(s));
	memcpy(r, rows[1].words, sizeof(r));
	EXPECT_EQ(-ERANGE, ipuxcom_patch_mcast_dst(rows[1].words, 9, 0x60000, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ADDR_FLAG, e.code);
	EXPECT_STREQ("dst_addr", e.field);
	EXPECT_EQ(-EINVAL, ipuxcom_patch_mcast_dst(rows[1].words, 9, 0x50002, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ALIGN, e.code);
	/* the row's own count (4148 words) bounds the source buffer */
	EXPECT_EQ(-ERANGE, ipuxcom_patch_mcast_src(rows[0].words, 9, 0xe4000, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ADDR, e.code);
	EXPECT_STREQ("src_addr 0xe4000 + 4148 words not inside tile SRAM 0x4c000..0xe7fff", e.msg);
	EXPECT_EQ(0, memcmp(s, rows[0].words, sizeof(s)));
	EXPECT_EQ(0, memcmp(r, rows[1].words, sizeof(r)));
	/* p2p rows are not multicast rows */
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 0, 53, 3, IPUXCOM_PLAN_PHYSICAL, &p, NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_patch_mcast_src(p.send.words, 9, 0x50000, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_WORD, e.code);
	EXPECT_EQ(0, strncmp(e.msg, "words[2] 0x78400001 is not a broadcast send", 43)) TH_LOG("%s", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_patch_mcast_dst(p.recv.words, 9, 0x50000, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_WORD, e.code);
	EXPECT_STREQ("words[0] patch index 1 is not the delaypic (word 4)", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_patch_mcast_dst(p.send.words, 9, 0x50000, &e));
	EXPECT_STREQ("words[1] 0x40a00086 is not sync 3 (not a receiver row)", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_patch_mcast_src(p.recv.words, 9, 0x50000, &e));
	EXPECT_STREQ("words[0] 0x00000001 is not sync 3 (not a sender row)", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_patch_mcast_src(NULL, 9, 0x50000, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
}

/* Row recognition reads every count back from every receiver row it emits. */
TEST(receive_rows_parse_back_for_every_count_and_row)
{
	for (uint32_t count = 1; count <= IPUXCOM_PLAN_MAX_COUNT; count++) {
		for (uint32_t row = 0; row < IPUXCOM_PHYS_ROWS; row += 11) {
			struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
			struct ixc_row_shape rs, ss;

			ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 1000, row * 64 + 7, count,
						      IPUXCOM_PLAN_PHYSICAL, &p, NULL));
			ASSERT_EQ(0, ixc_parse_recv_row(p.recv.words, 9, &rs, NULL))
				TH_LOG("count %u row %u", count, row);
			ASSERT_EQ(count, rs.count);
			ASSERT_EQ(0, ixc_parse_send_row(p.send.words, 9, &ss, NULL));
			ASSERT_EQ(count, ss.count);
		}
	}
}

/* ---------------------------------------------------------------- idle [S] */

TEST(non_participation_row)
{
	struct ipuxcom_plan_row row;
	struct ipuxcom_plan_error e;
	const uint32_t want[IPUXCOM_ROW_WORDS] = { 0x40c00000, 0x41800001, 0x43a00000 };

	ASSERT_EQ(0, ipuxcom_plan_idle(1286, IPUXCOM_PLAN_LOGICAL, &row, &e));
	EXPECT_EQ(53, row.tile);
	EXPECT_EQ(IPUXCOM_ROLE_IDLE, row.role);
	EXPECT_EQ(3, row.nwords);
	EXPECT_EQ(0, memcmp(want, row.words, sizeof(want)));
	ASSERT_EQ(0, ipuxcom_plan_idle(7, IPUXCOM_IDLE_RAW | IPUXCOM_PLAN_PHYSICAL, &row, &e));
	EXPECT_EQ(2, row.nwords);
	EXPECT_EQ(0x40c00000u, row.words[0]);
	EXPECT_EQ(0x41800001u, row.words[1]);
	EXPECT_EQ(0u, row.words[2]);
	EXPECT_EQ(-ERANGE, ipuxcom_plan_idle(1472, IPUXCOM_PLAN_PHYSICAL, &row, &e));
	EXPECT_STREQ("tile 1472 out of range 0..1471 (physical)", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_idle(0, 4, &row, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e.code);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_idle(0, IPUXCOM_PLAN_PHYSICAL, NULL, &e));
}

/* ------------------------------------------------------------ disassembly */

TEST(row_disassembly_annotates)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_plan_row rows[2], idle;
	char buf[96];

	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 0, 53, 3, IPUXCOM_PLAN_PHYSICAL, &p, NULL));
	ipuxcom_plan_row_disasm(&p.recv, 0, buf, sizeof(buf));
	EXPECT_STREQ(".word 0x00000001           ; patch index: word 2", buf);
	ipuxcom_plan_row_disasm(&p.recv, 2, buf, sizeof(buf));
	EXPECT_STREQ("delayxpic 112, 0, 0x0      ; mux <- sender, patched at run time", buf);
	ipuxcom_plan_row_disasm(&p.recv, 3, buf, sizeof(buf));
	EXPECT_STREQ("delayxpic 2, 0, 0x640      ; mux off (0x640)", buf);
	ipuxcom_plan_row_disasm(&p.recv, 5, buf, sizeof(buf));
	EXPECT_STREQ("delay 7", buf);
	ipuxcom_plan_row_disasm(&p.recv, 8, buf, sizeof(buf));
	EXPECT_STREQ(".word 0x00000000           ; padding", buf);
	ipuxcom_plan_row_disasm(&p.send, 2, buf, sizeof(buf));
	EXPECT_STREQ("send 2, 0x0, 1             ; 3 words, direction 1", buf);
	ASSERT_EQ(0, mc(3, 0x50000, 0x50120, 5, rows));
	ipuxcom_plan_row_disasm(&rows[1], 4, buf, sizeof(buf));
	EXPECT_STREQ("delaypic 48, 0, 0x14048    ; multicast write pointer <- 0x50120", buf);
	ipuxcom_plan_row_disasm(&rows[1], 2, buf, sizeof(buf));
	EXPECT_STREQ("delayxpic 61, 0, 0x3e8     ; mux <- physical 1000", buf);
	ipuxcom_plan_row_disasm(&rows[0], (unsigned int)rows[0].addr, buf, sizeof(buf));
	EXPECT_STREQ("send 2, 0x14000, 3         ; 3 words from 0x50000, broadcast", buf);
	ASSERT_EQ(0, ipuxcom_plan_idle(0, IPUXCOM_PLAN_PHYSICAL, &idle, NULL));
	ipuxcom_plan_row_disasm(&idle, 1, buf, sizeof(buf));
	EXPECT_STREQ("sync 1                     ; nonparticipation", buf);
	EXPECT_EQ(-EINVAL, ipuxcom_plan_row_disasm(&idle, 9, buf, sizeof(buf)));
	EXPECT_EQ(-EINVAL, ipuxcom_plan_row_disasm(NULL, 0, buf, sizeof(buf)));
}

/*
 * A receiver row with the SDK's two-word sendpicp bundle [RE, HW-MERGED]:
 * both words are shown as one instruction, and the second is never read
 * as an instruction of its own, even when it looks like one.
 */
TEST(row_disassembly_of_sendpicp_pairs)
{
	struct ipuxcom_plan_row row = {
		.words = { 1, 0x41800003, 0x641c0000, 0xf6600000, 0x03014048, 0x40a00037,
			   0x43a00000 },
		.role = IPUXCOM_ROLE_RECV, .nwords = 7, .patch = 2, .addr = -1,
	};
	char buf[128];

	ipuxcom_plan_row_disasm(&row, 3, buf, sizeof(buf));
	EXPECT_STREQ("sendpicp 0, 51, 0x0, 0, 192, 0x14048 ; receive only, 52 events: "
		     "xpic <- 192, pic <- 0x14048", buf);
	ipuxcom_plan_row_disasm(&row, 4, buf, sizeof(buf));
	EXPECT_STREQ(".word 0x03014048           ; sendpicp word 2: xpic 192, pic 0x14048", buf);
	ipuxcom_plan_row_disasm(&row, 5, buf, sizeof(buf));
	EXPECT_STREQ("delay 55", buf);

	/* a transmitting 64-bit sendpicp whose second word has a sendpicp's top bits */
	ASSERT_EQ(0, ipuxcom_enc_sendpicp(1, 3, 0x4000, 1 | IPUXCOM_SCTL_WIDE, 0x3fff, 0x3ffff,
					  &row.words[3], NULL));
	row.role = IPUXCOM_ROLE_SEND;
	row.words[0] = 0x41800003;
	row.words[1] = 0x40a00001;
	row.words[2] = 0x40a00002;
	ipuxcom_plan_row_disasm(&row, 3, buf, sizeof(buf));
	EXPECT_STREQ("sendpicp 1, 3, 0x4000, 5, 16383, 0x3ffff ; 4 64-bit items from word 0x4000, "
		     "xpic <- 16383, pic <- 0x3ffff", buf);
	ipuxcom_plan_row_disasm(&row, 4, buf, sizeof(buf));
	EXPECT_STREQ(".word 0xffffffff           ; sendpicp word 2: xpic 16383, pic 0x3ffff", buf);
	/* the second word alone at the end of the code stays a word */
	row.nwords = 4;
	ipuxcom_plan_row_disasm(&row, 3, buf, sizeof(buf));
	EXPECT_STREQ("sendpicp 1, 3, 0x4000, 5, ?, ?", buf);
}

TEST_HARNESS_MAIN
