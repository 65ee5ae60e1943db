// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ipuxcom plan ...` (tools/plan.c) run as a program: the rows as hex plus
 * disassembly, --physical, --json, values out of range (exit 2, message
 * naming the field), usage errors (exit 2), and a timing table exported
 * and loaded back with --timing.
 */
#include "kselftest_harness.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ixt_tool_fixture.h"

TEST_F(cli, p2p_prints_hex_and_disassembly)
{
	RUN(0, "plan", "p2p", "0", "1286", "3");
	HAS(out, "p2p: 3 words, timing reconstruction: TimeToMux -23, direction 1");
	HAS(out, "receiver: physical 53 (logical 1286, row 0), mux opens at event 112");
	HAS(out, "  0  0x41800003  sync 3");
	HAS(out, "  2  0x641c0000  delayxpic 112, 0, 0x0");
	HAS(out, "  4  0x61800000  delaypic 48, 0, 0x0");
	HAS(out, "  1  0x40a00086  delay 134");
}

TEST_F(cli, physical_ids_give_the_same_rows)
{
	char logical[sizeof(self->r.out)];

	RUN(0, "plan", "p2p", "0", "1286", "100");
	memcpy(logical, self->r.out, sizeof(logical));
	RUN(0, "plan", "p2p", "--physical", "0", "53", "100");
	EXPECT_STREQ(logical, self->r.out);
}

TEST_F(cli, p2p_json)
{
	RUN(0, "plan", "p2p", "--physical", "1440", "0", "1", "--json");
	HAS(out, "{\"kind\":\"p2p\",\"timing_model\":\"reconstruction\",\"count\":1,"
		 "\"time_to_mux\":112,\"direction\":");
	HAS(out, "\"sync_boundary\":true");
	HAS(out, "\"words\":[\"0x41800003\",\"0x78000002\",\"0x43a00000\"");
	RUN(0, "-j", "plan", "p2p", "0", "1286", "3");
	HAS(out, "\"time_to_mux\":-23");
}

/*
 * A value out of its range, or contradicting another, is a usage error
 * (exit 2) whether the command or the library finds it, and the message
 * names the field and the value.
 */
TEST_F(cli, argument_rejections_exit_2_naming_the_field)
{
	RUN(2, "plan", "p2p", "0", "1", "4149");
	HAS(err, "ipuxcom: plan p2p: invalid count '4149': a decimal number 1..4148");
	RUN(2, "plan", "p2p", "0", "1", "0");
	HAS(err, "invalid count '0': a decimal number 1..4148");
	RUN(2, "plan", "p2p", "5", "5", "3");
	HAS(err, "receiver 5 is the sender");
	RUN(2, "plan", "p2p", "1472", "5", "3");
	HAS(err, "invalid tile '1472': a decimal number 0..1471");
	RUN(2, "plan", "p2p", "0", "1472", "5");
	HAS(err, "invalid tile '1472': a decimal number 0..1471");
	RUN(2, "plan", "tile", "1472", "--physical");
	HAS(err, "Try 'ipuxcom plan tile --help'.");
	RUN(2, "plan", "multicast", "0", "3", "5", "--physical", "--dst-addr", "0x60000");
	HAS(err, "dst_addr[0] 0x60000: word offset 0x4000 overlaps the multicast flag");
	RUN(2, "plan", "multicast", "0", "3", "5", "5");
	HAS(err, "receivers[1] 5 duplicates receivers[0]");
	RUN(2, "plan", "fanout", "0", "0", "5");
	HAS(err, "invalid count '0'");
	RUN(2, "plan", "tile", "1472");
	HAS(err, "invalid tile '1472': a decimal number 0..1471");
	RUN(2, "plan", "idle", "1472");
	RUN(2, "plan", "timing", "0", "1472");
}

TEST_F(cli, usage_errors_exit_2)
{
	RUN(2, "plan", "p2p", "0", "x", "3");
	HAS(err, "invalid tile 'x'");
	RUN(2, "plan", "p2p", "0", "1");
	HAS(err, "need SRC DST COUNT");
	RUN(2, "plan", "decode", "0xzz");
	HAS(err, "invalid word '0xzz'");
	RUN(2, "plan", "fanout", "0", "3", "5", "--method", "teleport");
	HAS(err, "invalid --method 'teleport'");
	RUN(2, "plan", "multicast", "0", "3", "5", "6", "--dst-addr", "0x50000,0x50000,0x50000");
	HAS(err, "--dst-addr has more than 2 addresses");
	RUN(2, "plan", "frob");
	HAS(err, "unknown command 'frob'");
}

TEST_F(cli, multicast_golden_word)
{
	RUN(0, "plan", "multicast", "--physical", "1000", "3", "5", "--dst-addr", "0x50120");
	HAS(out, "0x61814048  delaypic 48, 0, 0x14048");
	RUN(0, "plan", "multicast", "--physical", "1000", "3", "5", "--dst-addr", "0x50130");
	HAS(out, "0x6181404c  delaypic 48, 0, 0x1404c");
}

/*
 * --wide (IPUXCOM_PLAN_WIDE): a 64-bit route when the transfer has one
 * (physical 5 and 13 own their pairs for sender 1000: TimeToMux 61 < 62,
 * 39 < 40; direction 2), else the 32-bit plan and why; JSON gives sctl, items, route.
 */
TEST_F(cli, wide_routes_and_fallbacks)
{
	char plain[sizeof(self->r.out)];

	RUN(0, "plan", "p2p", "--physical", "1000", "5", "64", "--wide");
	HAS(out, "64-bit route: sctl 6, 32 items (two words per event)");
	HAS(out, "partner 7 TimeToMux 62, XPIC owner 5");
	HAS(out, "send 31, 0x0, 6");
	RUN(0, "plan", "p2p", "--physical", "1000", "5", "8296", "--wide", "-j");
	HAS(out, "\"sctl\":6,\"items\":4148,\"route\":\"64-bit\",\"why\":null");
	RUN(0, "plan", "p2p", "--physical", "1000", "7", "64", "--wide", "-j");
	HAS(out, "\"sctl\":2,\"items\":64,\"route\":\"32-bit\",\"why\":\"the receiver's pair "
		 "partner owns the pair's XPIC stream\"");
	RUN(0, "plan", "p2p", "--physical", "1000", "5", "64", "--wide", "--dst-addr", "0x50004");
	HAS(out, "32-bit route (no 64-bit route: buffer not 8-byte aligned): sctl 2, 64 words");
	/* the fallback's rows are the plain command's */
	RUN(0, "plan", "p2p", "--physical", "1000", "5", "63");
	ASSERT_NE(NULL, strstr(self->r.out, "sender:"));
	snprintf(plain, sizeof(plain), "%s", strstr(self->r.out, "sender:"));
	RUN(0, "plan", "p2p", "--physical", "1000", "5", "63", "--wide");
	HAS(out, "(no 64-bit route: odd count)");
	EXPECT_STREQ(plain, strstr(self->r.out, "sender:"));
	RUN(2, "plan", "p2p", "--physical", "1000", "5", "8298", "--wide");
	HAS(err, "invalid count '8298': a decimal number 1..8296");
	RUN(2, "plan", "p2p", "--physical", "1000", "5", "64", "--src-addr", "0x50000");
	HAS(err, "--src-addr and --dst-addr need --wide");
	RUN(2, "plan", "p2p", "--physical", "1000", "5", "64", "--wide", "--src-addr", "0x50002");
	HAS(err, "src_addr 0x50002 not 4-byte aligned");

	RUN(0, "plan", "multicast", "--physical", "1000", "64", "5", "13", "--wide");
	HAS(out, "64-bit route: sctl 7, 32 items (two words per event)");
	HAS(out, "send 31, 0x14000, 7");
	RUN(0, "plan", "multicast", "--physical", "1000", "64", "5", "13", "--wide", "-j");
	HAS(out, "\"sctl\":7,\"items\":32,\"route\":\"64-bit\",\"why\":null,"
		 "\"why_receiver\":null");
	RUN(0, "plan", "multicast", "--physical", "1000", "64", "5", "7", "--wide");
	HAS(out, "(no 64-bit route: the receiver's pair partner is a receiver too)");
	HAS(out, "(receiver 0: physical 5)");
	RUN(0, "plan", "multicast", "--physical", "1000", "64", "5", "13", "-j");
	HAS(out, "\"sctl\":3,\"items\":64,\"route\":\"32-bit\",\"why\":null,\"rows\"");
}

TEST_F(cli, fanout_reports_the_choice)
{
	RUN(0, "plan", "fanout", "0", "65", "274", "1286");
	HAS(out, "chosen: multicast: lowest estimated total 821 cycles");
	HAS(out, "receiver 1: physical 53 (logical 1286, row 0)");
	RUN(0, "plan", "fanout", "0", "65", "274", "1286", "-m", "relay", "-j");
	HAS(out, "\"chosen\":\"relay\"");
	HAS(out, "\"rounds\":2");
	RUN(1, "plan", "fanout", "0", "1024", "1", "2", "3", "4", "-m", "serialized");
	HAS(out, "rejected: nrecv 4 out of range 1..3");
	/* the methods by name, not the library's bit set ("methods 0x2") */
	HAS(err, "plan fanout: none of the allowed methods (serialized) can carry 1024 words to 4 "
	    "receivers");
	EXPECT_EQ(NULL, strstr(self->r.err, "0x2")) TH_LOG("%s", self->r.err);
	HAS(out, "multicast  not among the allowed methods (serialized)\n");
}

TEST_F(cli, decode_words)
{
	RUN(0, "plan", "decode", "0x641c0000", "0x43a00000", "0x12345678", "1");
	HAS(out, "0x641c0000  delayxpic 112, 0, 0x0\n");
	HAS(out, "0x43a00000  br $m10\n");
	HAS(out, "0x12345678  .word 0x12345678\n");
	HAS(out, "0x00000001  .word 0x00000001\n");
	RUN(0, "plan", "decode", "-j", "0x61814048");
	HAS(out, "[{\"word\":\"0x61814048\",\"op\":\"delaypic\",\"asm\":\"delaypic 48, 0, 0x14048\","
		 "\"comment\":null,\"nwords\":1,\"args\":[48,0,81992],\"a\":48,\"b\":0,"
		 "\"c\":81992}]");
	/* the SDK's two-word sendpicp [RE, HW-MERGED] is one instruction; alone, half is a word */
	RUN(0, "plan", "decode", "0x41800003", "0xf6600000", "0x03014048", "0x70182000");
	HAS(out, "0xf6600000 0x03014048  sendpicp 0, 51, 0x0, 0, 192, 0x14048\n");
	HAS(out, "0x70182000  sendpic 0, 2, 0x2000\n");
	RUN(0, "plan", "decode", "-j", "0xf6600000", "0x03014048", "0xf6600000");
	HAS(out, "{\"word\":\"0xf6600000\",\"word2\":\"0x03014048\",\"op\":\"sendpicp\",");
	HAS(out, "{\"word\":\"0xf6600000\",\"op\":\".word\",\"asm\":\".word 0xf6600000\",\"comment\":null,"
		 "\"nwords\":1}]");
}

TEST_F(cli, tile_idle_and_timing)
{
	RUN(0, "plan", "tile", "21", "20");
	HAS(out, "logical 21 physical 642 row 10 column 2 pair physical 640 (logical 20)");
	RUN(0, "plan", "idle", "5", "--raw");
	HAS(out, "0x40c00000  sans");
	HAS(out, "0x41800001  sync 1");
	RUN(0, "plan", "timing", "--physical", "1440", "0");
	HAS(out, "timing reconstruction: physical 1440 -> 0: TimeToMux 112, direction");
}

TEST_F(cli, timing_table_export_and_use)
{
	char path[] = "/tmp/plan_cli_XXXXXX";
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	close(fd);
	RUN(0, "plan", "timing", "--export", path);
	RUN(0, "plan", "p2p", "0", "1286", "3", "--timing", path);
	HAS(out, "timing table:reconstruction: TimeToMux -23");
	HAS(out, "0x40a00086  delay 134");
	unlink(path);
	RUN(1, "plan", "p2p", "0", "1286", "3", "--timing", path);
	HAS(err, "cannot open");
}

TEST_HARNESS_MAIN
