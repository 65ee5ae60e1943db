// SPDX-License-Identifier: GPL-2.0-only
/*
 * 64-bit plans (issue 16) run in the exchange verifier: what the rows of
 * ipuxcom_plan_p2p_wide() and of ipuxcom_plan_multicast() with
 * IPUXCOM_PLAN_WIDE deliver, under the verifier's model of 64-bit items
 * (pair timing, owner's XPIC stream, pair resources; xsim_run.c):
 *  - p2p: even counts 2..300 and the boundaries up to 2 * 4148, into
 *    receivers on physical rows 0, 10 and 22 from senders in both route
 *    directions: no error hazard, the destination exactly the source with
 *    guards untouched, every word written once, and the phase as long as
 *    the 32-bit p2p plan of count / 2 words (the receive row is that plan's);
 *  - multicast to 8 and 32 receivers that own their pairs: no error, every
 *    receiver's buffer exact, a shorter phase than the 32-bit multicast;
 *  - with IPUXCOM_PLAN_WIDE, transfers without a 64-bit route get exactly
 *    the 32-bit plan's words, and the info says why;
 *  - a 64-bit plan to a receiver that does not own its pair (the flag-less
 *    ipuxcom_plan_p2p_wide() plans one) is reported missed by the verifier.
 */
#include "kselftest_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom_xsim.h>

#include "ixt_xsim.h"

#define SRC	0x60000u
#define DST	0x70000u
#define GUARD	8u
#define MAXW	IPUXCOM_PLAN_MAX_WIDE_COUNT

struct proof {
	struct ipuxcom_xsim *sim;
	uint32_t iter;
	uint32_t buf[MAXW + 2 * GUARD];
	uint32_t got[MAXW + 2 * GUARD];
};

static uint32_t pat(uint32_t iter, uint32_t tile, uint32_t k)
{
	uint32_t v = iter * 0x9e3779b9u ^ tile * 0x85ebca6bu ^ k * 0xc2b2ae35u;

	return v ^ (v >> 15);
}

static uint32_t guard(uint32_t k)
{
	return 0x6a09e667u ^ k;
}

/* Does @d own its pair for 64-bit items from @s (the verifier's rule, recomputed)? */
static bool owns(uint32_t s, uint32_t d)
{
	return d != s && (d ^ 2) != s && ixt_pair_owner(s, d) == d;
}

static void first_error(struct ipuxcom_xsim *sim, char *buf, size_t len)
{
	const struct ipuxcom_xsim_hazard *h = ipuxcom_xsim_hazards(sim, NULL);

	buf[0] = '\0';
	if (h)
		ipuxcom_xsim_hazard_format(h, buf, len);
}

/* Phase length of the 32-bit p2p plan of @count words (no data checks). */
static uint32_t p2p32_events(struct ipuxcom_xsim *sim, uint32_t s, uint32_t r, uint32_t count)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;

	ipuxcom_xsim_reset(sim, 0, NULL);
	if (ipuxcom_plan_p2p(NULL, s, r, count, IPUXCOM_PLAN_PHYSICAL, &p, NULL) ||
	    ipuxcom_xsim_add_p2p(sim, &p, SRC, DST, NULL) || ipuxcom_xsim_run(sim, &res, NULL))
		return 0;
	return res.events;
}

/* One 64-bit p2p plan @s -> @r of @count words, run and checked. */
static bool prove(struct __test_metadata *_metadata, struct proof *pf, uint32_t s, uint32_t r,
		  uint32_t count)
{
	struct ipuxcom_xsim *sim = pf->sim;
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_p2p_wide_info info = IPUXCOM_P2P_WIDE_INFO_INIT;
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_plan_error e;
	uint32_t it = ++pf->iter, want_events;
	char buf[400];

	ipuxcom_xsim_reset(sim, 0, NULL);
	for (uint32_t k = 0; k < count; k++)
		pf->buf[k] = pat(it, s, k);
	ipuxcom_xsim_sram_write(sim, s, SRC, pf->buf, count, NULL);
	for (uint32_t k = 0; k < count + 2 * GUARD; k++)
		pf->got[k] = k < GUARD || k >= GUARD + count ? guard(k) : ~pat(it, s, k - GUARD);
	ipuxcom_xsim_sram_write(sim, r, DST - 4 * GUARD, pf->got, count + 2 * GUARD, NULL);
	if (ipuxcom_plan_p2p_wide(NULL, s, r, count, SRC, DST,
				  IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL, &p, &info, &e) ||
	    ipuxcom_xsim_add_p2p(sim, &p, SRC, DST, &e) || ipuxcom_xsim_run(sim, &res, &e)) {
		TH_LOG("%u -> %u count %u: %s", s, r, count, e.msg);
		return false;
	}
	if (info.wide != IPUXCOM_WIDE_USED || info.sctl != (p.direction | IPUXCOM_SCTL_WIDE) ||
	    info.items != count / 2) {
		TH_LOG("%u -> %u count %u: not 64-bit: %s", s, r, count,
		       ipuxcom_plan_wide_str(info.wide));
		return false;
	}
	if (res.errors || res.delivered != res.declared || res.words_written != count ||
	    res.words_sent != count) {
		first_error(sim, buf, sizeof(buf));
		TH_LOG("%u -> %u count %u: %u errors, %u of %u delivered, %llu written: %s", s, r,
		       count, res.errors, res.delivered, res.declared,
		       (unsigned long long)res.words_written, buf);
		return false;
	}
	ipuxcom_xsim_sram_read(sim, r, DST - 4 * GUARD, pf->got, count + 2 * GUARD, NULL);
	for (uint32_t k = 0; k < count + 2 * GUARD; k++) {
		uint32_t want = k < GUARD || k >= GUARD + count ? guard(k) : pf->buf[k - GUARD];

		if (pf->got[k] != want) {
			TH_LOG("%u -> %u count %u: %s word %d is 0x%08x, want 0x%08x", s, r, count,
			       k < GUARD || k >= GUARD + count ? "guard" : "destination",
			       (int)k - (int)GUARD, pf->got[k], want);
			return false;
		}
	}
	/* The phase: that of the 32-bit plan of count / 2 words (the same receive row). */
	want_events = p2p32_events(sim, s, r, count / 2);
	if (res.events != want_events) {
		TH_LOG("%u -> %u count %u: %u events, the 32-bit plan of %u words %u", s, r, count,
		       res.events, count / 2, want_events);
		return false;
	}
	if (count <= IPUXCOM_PLAN_MAX_COUNT && count > 2 &&
	    res.events >= p2p32_events(sim, s, r, count)) {
		TH_LOG("%u -> %u count %u: %u events, not shorter than 32-bit", s, r, count,
		       res.events);
		return false;
	}
	return true;
}

FIXTURE(wide)
{
	struct proof *pf;
};

FIXTURE_SETUP(wide)
{
	self->pf = calloc(1, sizeof(*self->pf));
	ASSERT_NE(NULL, self->pf);
	ASSERT_EQ(0, ipuxcom_xsim_create(NULL, &self->pf->sim, NULL));
}

FIXTURE_TEARDOWN(wide)
{
	ipuxcom_xsim_free(self->pf->sim);
	free(self->pf);
}

/* A receiver on physical @row that owns its pair for @s, reached in direction @dir. */
static uint32_t owner_on_row(uint32_t s, uint32_t row, unsigned int dir)
{
	for (uint32_t c = 0; c < IPUXCOM_PHYS_COLS; c++) {
		uint32_t d = row * IPUXCOM_PHYS_COLS + (c * 37 + 11) % IPUXCOM_PHYS_COLS;

		if (owns(s, d) && ixt_dir_of(s, d) == dir)
			return d;
	}
	return UINT32_MAX;
}

/* Routes into rows 0, 10 and 22 in both directions; returns how many. */
static size_t routes(uint32_t (*r)[2], size_t max)
{
	static const uint32_t senders[] = { 0, 700, 1471, 1000, 37, 1400, 660 };
	static const uint32_t rows[] = { 0, 10, 22 };
	size_t n = 0;

	for (size_t i = 0; i < 3; i++)
		for (unsigned int dir = 1; dir <= 2; dir++)
			for (size_t k = 0; k < sizeof(senders) / sizeof(senders[0]); k++) {
				uint32_t d = owner_on_row(senders[k], rows[i], dir);

				if (d != UINT32_MAX && n < max) {
					r[n][0] = senders[k];
					r[n][1] = d;
					n++;
					break;
				}
			}
	return n;
}

TEST_F(wide, p2p_delivers_every_count_on_rows_0_10_22_both_directions)
{
	static const uint32_t bounds[] = { 2, 4, 50, 52, 54, 64, 100, 102, 104, 106, 128, 130,
					   132, 1024, 4096, 4148, 4150, 8294, 8296 };
	uint32_t r[8][2], dirs = 0, rowmask = 0;
	size_t n = routes(r, 8);

	ASSERT_EQ(6u, n);
	for (size_t i = 0; i < n; i++) {
		dirs |= 1u << ixt_dir_of(r[i][0], r[i][1]);
		rowmask |= 1u << (r[i][1] / IPUXCOM_PHYS_COLS);
		for (size_t c = 0; c < sizeof(bounds) / sizeof(bounds[0]); c++)
			ASSERT_TRUE(prove(_metadata, self->pf, r[i][0], r[i][1], bounds[c]));
	}
	EXPECT_EQ(6u, dirs);
	EXPECT_EQ(1u << 0 | 1u << 10 | 1u << 22, rowmask);
	/* every even count 2..300 on two routes: row 0 direction 1, row 22 direction 2 */
	for (uint32_t c = 2; c <= 300; c += 2) {
		ASSERT_TRUE(prove(_metadata, self->pf, r[0][0], r[0][1], c));
		ASSERT_TRUE(prove(_metadata, self->pf, r[5][0], r[5][1], c));
	}
}

/* Receivers that own their pairs for @s, none the other's partner, spread over rows. */
static uint32_t mcast_receivers(uint32_t s, uint32_t *recv, uint32_t want)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < IPUXCOM_TILES && n < want; k++) {
		uint32_t d = (k * 97 + 5) % IPUXCOM_TILES;
		bool clash = false;

		for (uint32_t j = 0; j < n; j++)
			clash |= recv[j] == (d ^ 2) || recv[j] == d;
		if (!clash && owns(s, d))
			recv[n++] = d;
	}
	return n;
}

static void mcast_run(struct __test_metadata *_metadata, struct proof *pf, uint32_t s,
		      uint32_t nrecv, uint32_t count)
{
	struct ipuxcom_xsim *sim = pf->sim;
	uint32_t recv[64], dst[64];
	struct ipuxcom_plan_row rows[65], rows32[65];
	struct ipuxcom_multicast_info info = IPUXCOM_MULTICAST_INFO_INIT, info32 = IPUXCOM_MULTICAST_INFO_INIT;
	struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
		.sender = s, .count = count, .flags = IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL, .nrecv = nrecv,
		.receivers = recv, .src_addr = 0x80000, .dst_addr = dst };
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT, res32 = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_plan_error e;
	char buf[400];

	ASSERT_EQ(nrecv, mcast_receivers(s, recv, nrecv));
	for (uint32_t i = 0; i < nrecv; i++)
		dst[i] = i & 1 ? 0x70000 + 8 * i : 0x50000 + 8 * i;
	for (uint32_t k = 0; k < count; k++)
		pf->buf[k] = pat(++pf->iter, s, k);

	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &req, rows, nrecv + 1, &info, &e)) TH_LOG("%s",
											   e.msg);
	EXPECT_EQ(IPUXCOM_WIDE_USED, info.wide);
	EXPECT_EQ(UINT32_MAX, info.wide_recv);
	EXPECT_EQ(3u | IPUXCOM_SCTL_WIDE, info.sctl);
	EXPECT_EQ(count / 2, info.items);
	ipuxcom_xsim_reset(sim, IPUXCOM_XSIM_RESET_SRAM, NULL);
	ASSERT_EQ(0, ipuxcom_xsim_sram_write(sim, s, req.src_addr, pf->buf, count, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_add_multicast(sim, &req, rows, nrecv + 1, &e)) TH_LOG("%s",
											 e.msg);
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res, NULL));
	first_error(sim, buf, sizeof(buf));
	EXPECT_EQ(0u, res.errors) TH_LOG("%u receivers count %u: %s", nrecv, count, buf);
	EXPECT_EQ(nrecv, res.delivered);
	EXPECT_EQ((uint64_t)count * nrecv, res.words_written);
	for (uint32_t i = 0; i < nrecv; i++) {
		ASSERT_EQ(0, ipuxcom_xsim_sram_read(sim, recv[i], dst[i], pf->got, count, NULL));
		EXPECT_EQ(0, memcmp(pf->got, pf->buf, 4 * count)) TH_LOG("receiver %u", i);
	}

	/* The 32-bit multicast of the same request: longer (more than one event). */
	req.flags = IPUXCOM_PLAN_PHYSICAL;
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &req, rows32, nrecv + 1, &info32, NULL));
	ipuxcom_xsim_reset(sim, 0, NULL);
	ASSERT_EQ(0, ipuxcom_xsim_add_multicast(sim, &req, rows32, nrecv + 1, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(sim, &res32, NULL));
	EXPECT_EQ(0u, res32.errors);
	if (count > 2) {
		EXPECT_LT(res.events, res32.events) TH_LOG("count %u: %u vs %u events", count,
							   res.events, res32.events);
	}
}

TEST_F(wide, multicast_8_and_32_receivers_deliver)
{
	static const uint32_t counts[] = { 2, 4, 52, 64, 66, 130, 1000, 4148 };

	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		mcast_run(_metadata, self->pf, 700, 8, counts[c]);
		mcast_run(_metadata, self->pf, 37, 32, counts[c]);
		mcast_run(_metadata, self->pf, 1471, 32, counts[c]);
	}
}

/* With the flag and no 64-bit route: exactly ipuxcom_plan_p2p()'s plan, and why. */
TEST(p2p_fallbacks_are_the_32_bit_plan)
{
	struct {
		uint32_t s, d, count, src, dst, why;
	} cases[] = {
		{ 0, 53, 3, SRC, DST, IPUXCOM_WIDE_ODD_COUNT },
		{ 0, 53, 4147, SRC, DST, IPUXCOM_WIDE_ODD_COUNT },
		{ 0, 53, 64, SRC + 4, DST, IPUXCOM_WIDE_ALIGN },
		{ 0, 53, 64, SRC, DST + 12, IPUXCOM_WIDE_ALIGN },
		{ 0, 2, 64, SRC, DST, IPUXCOM_WIDE_PARTNER_SENDER },
		{ 7, 5, 1, SRC, DST, IPUXCOM_WIDE_ODD_COUNT },
		{ 7, 5, 2, SRC, DST, IPUXCOM_WIDE_PARTNER_SENDER },
		{ 0, 0, 64, SRC, DST, IPUXCOM_WIDE_NOT_OWNER },	/* d filled below */
	};
	size_t last = sizeof(cases) / sizeof(cases[0]) - 1;

	/* a receiver whose partner owns the pair */
	for (uint32_t d = 100; d < IPUXCOM_TILES && !cases[last].d; d++)
		if (d != 0 && (d ^ 2) != 0 && !owns(0, d))
			cases[last].d = d;
	ASSERT_NE(0u, cases[last].d);
	for (size_t i = 0; i <= last; i++) {
		struct ipuxcom_p2p_plan w = IPUXCOM_P2P_PLAN_INIT, ref = IPUXCOM_P2P_PLAN_INIT;
		struct ipuxcom_p2p_wide_info info = IPUXCOM_P2P_WIDE_INFO_INIT;
		struct ipuxcom_plan_error e;

		memset(&w, 0xa5, sizeof(w));
		w.size = sizeof(w);
		ASSERT_EQ(0, ipuxcom_plan_p2p_wide(NULL, cases[i].s, cases[i].d, cases[i].count,
						   cases[i].src, cases[i].dst, IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL,
						   &w, &info, &e)) TH_LOG("case %zu: %s", i, e.msg);
		ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, cases[i].s, cases[i].d, cases[i].count,
					      IPUXCOM_PLAN_PHYSICAL, &ref,
					      NULL));
		EXPECT_EQ(0, memcmp(&w, &ref, sizeof(w))) TH_LOG("case %zu", i);
		EXPECT_EQ(cases[i].why, info.wide) TH_LOG("case %zu: %s", i,
							  ipuxcom_plan_wide_str(info.wide));
		EXPECT_EQ(cases[i].count, info.items);
		EXPECT_EQ((uint32_t)ref.direction, info.sctl);
		EXPECT_EQ(ref.time_to_mux, info.pair_time);
		EXPECT_STRNE("?", ipuxcom_plan_wide_str(info.wide));
	}
	/* Still refused with the flag: what the 32-bit plan refuses too, and bad buffers. */
	{
		struct ipuxcom_p2p_plan w = IPUXCOM_P2P_PLAN_INIT;
		struct ipuxcom_plan_error e;

		EXPECT_EQ(-ERANGE, ipuxcom_plan_p2p_wide(NULL, 0, 53, 4149, SRC, DST,
							 IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL, &w, NULL, &e));
		EXPECT_EQ(IPUXCOM_PLAN_E_COUNT, e.code);
		EXPECT_EQ(0, ipuxcom_plan_p2p_wide(NULL, 0, 53, 4150, SRC, DST,
						   IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL,
						   &w, NULL, &e));
		EXPECT_EQ(-EINVAL, ipuxcom_plan_p2p_wide(NULL, 0, 53, 4, SRC + 2, DST,
							 IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL, &w, NULL, &e));
		EXPECT_EQ(IPUXCOM_PLAN_E_ALIGN, e.code);
		EXPECT_EQ(-ERANGE, ipuxcom_plan_p2p_wide(NULL, 0, 53, 4, 0x40000, DST,
							 IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL, &w, NULL, &e));
		EXPECT_EQ(IPUXCOM_PLAN_E_ADDR, e.code);
		EXPECT_EQ(-EINVAL, ipuxcom_plan_p2p_wide(NULL, 5, 5, 4, SRC, DST,
							 IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL, &w, NULL, &e));
		EXPECT_EQ(IPUXCOM_PLAN_E_SELF, e.code);
		EXPECT_EQ(-EINVAL, ipuxcom_plan_p2p_wide(NULL, 0, 53, 4, SRC, DST, 0x10, &w, NULL,
							 &e));
		EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e.code);
	}
}

/* Multicast with the flag and no 64-bit route: the flag-less rows and info, and why. */
TEST(multicast_fallbacks_are_the_32_bit_plan)
{
	uint32_t recv[8], dst[8], notown = 0, n;
	struct ipuxcom_plan_row a[9], b[9];
	struct ipuxcom_multicast_info ia = IPUXCOM_MULTICAST_INFO_INIT, ib = IPUXCOM_MULTICAST_INFO_INIT;
	struct ipuxcom_fanout_req q = { .size = sizeof(struct ipuxcom_fanout_req),
		.sender = 700, .count = 64, .flags = IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL, .nrecv = 8,
		.receivers = recv, .src_addr = 0x80000, .dst_addr = dst };

	n = mcast_receivers(700, recv, 8);
	ASSERT_EQ(8u, n);
	for (uint32_t i = 0; i < 8; i++)
		dst[i] = 0x50000;
	for (uint32_t d = 1; d < IPUXCOM_TILES && !notown; d++)
		if (d != 700 && (d ^ 2) != 700 && !owns(700, d))
			notown = d;
	for (int c = 0; c < 7; c++) {
		struct ipuxcom_fanout_req r = q;
		uint32_t rv[8], dv[8], why, which = 3;

		memcpy(rv, recv, sizeof(rv));
		memcpy(dv, dst, sizeof(dv));
		r.receivers = rv;
		r.dst_addr = dv;
		switch (c) {
		case 0: r.count = 63; why = IPUXCOM_WIDE_ODD_COUNT; which = UINT32_MAX; break;
		case 1: r.src_addr += 4; why = IPUXCOM_WIDE_ALIGN; which = UINT32_MAX; break;
		case 2: dv[3] += 4; why = IPUXCOM_WIDE_ALIGN; break;
		case 3: rv[3] = 700 ^ 2; why = IPUXCOM_WIDE_PARTNER_SENDER; break;
		case 4: rv[3] = rv[1] ^ 2; why = IPUXCOM_WIDE_PARTNER_LISTED; which = 1; break;
		case 5: rv[3] = notown; why = IPUXCOM_WIDE_NOT_OWNER; break;
		default: {
			/*
			 * A receive cycle that fits 32-bit but not the pair times:
			 * sender 1000 reaches these owners at TimeToMux >= 0 (start
			 * 0), so the latest pair time is later than the latest
			 * TimeToMux (TimeToMux 61 and 62 for 5 and its partner 7).
			 */
			static const uint32_t own[8] = { 1, 5, 9, 13, 17, 2, 6, 10 };

			memcpy(rv, own, sizeof(rv));
			r.sender = 1000;
			why = IPUXCOM_WIDE_SCHEDULE;
			break;
		}
		}
		if (c == 6) {
			struct ipuxcom_multicast_info i0 = IPUXCOM_MULTICAST_INFO_INIT;

			ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &r, a, 9, &i0, NULL));
			ASSERT_EQ(IPUXCOM_WIDE_USED, i0.wide);
			/* the largest offset the 32-bit plan takes */
			r.flags = IPUXCOM_PLAN_PHYSICAL;
			ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &r, b, 9, &ib, NULL));
			r.schedule_offset = 4095 - ib.max_recv_time;
			r.flags = IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL;
			/* the pair times end later here (sender 700, these receivers) */
			ASSERT_LT(ib.max_recv_time, i0.max_recv_time);
			which = UINT32_MAX;	/* checked below: some receiver */
		}
		memset(a, 0x5a, sizeof(a));
		memset(&ia, 0x5a, sizeof(ia));
		ia.size = sizeof(ia);
		ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &r, a, 9, &ia, NULL)) TH_LOG("case %d", c);
		r.flags = IPUXCOM_PLAN_PHYSICAL;
		ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &r, b, 9, &ib, NULL));
		EXPECT_EQ(0, memcmp(a, b, sizeof(a))) TH_LOG("case %d", c);
		EXPECT_EQ(0, memcmp(&ia, &ib, offsetof(struct ipuxcom_multicast_info, sctl)));
		EXPECT_EQ(why, ia.wide) TH_LOG("case %d: %s", c, ipuxcom_plan_wide_str(ia.wide));
		EXPECT_EQ(3u, ia.sctl);
		EXPECT_EQ(r.count, ia.items);
		if (c == 6) {
			EXPECT_GT(8u, ia.wide_recv);
		} else {
			EXPECT_EQ(which, ia.wide_recv) TH_LOG("case %d", c);
		}
	}
	/* Errors with the flag are the 32-bit path's. */
	{
		struct ipuxcom_fanout_req r = q;
		struct ipuxcom_plan_error e1, e2;
		uint32_t dv[8];

		memcpy(dv, dst, sizeof(dv));
		dv[2] = 0x60000;
		r.dst_addr = dv;
		EXPECT_EQ(-ERANGE, ipuxcom_plan_multicast(NULL, &r, a, 9, NULL, &e1));
		r.flags = IPUXCOM_PLAN_PHYSICAL;
		EXPECT_EQ(-ERANGE, ipuxcom_plan_multicast(NULL, &r, a, 9, NULL, &e2));
		EXPECT_STREQ(e2.msg, e1.msg);
		r.flags = IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL | 0x80;
		EXPECT_EQ(-EINVAL, ipuxcom_plan_multicast(NULL, &r, a, 9, NULL, &e1));
		EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e1.code);
	}
}

/*
 * Logical ids give the same 64-bit rows, and the vertices' patch helpers
 * (NoBlobMulticastSend/Recv) move a 64-bit multicast's buffers as the
 * planner would have placed them.
 */
TEST(multicast_logical_ids_and_patching)
{
	uint32_t recv[8], lrecv[8], dst[8], dst2[8], ls = 0;
	struct ipuxcom_plan_row a[9], b[9];
	struct ipuxcom_multicast_info ia = IPUXCOM_MULTICAST_INFO_INIT, ib = IPUXCOM_MULTICAST_INFO_INIT;
	struct ipuxcom_fanout_req q = { .size = sizeof(struct ipuxcom_fanout_req),
		.sender = 1471, .count = 200, .flags = IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL, .nrecv = 8,
		.receivers = recv, .src_addr = 0x50000, .dst_addr = dst }, l;
	struct ipuxcom_plan_error e;

	ASSERT_EQ(8u, mcast_receivers(1471, recv, 8));
	for (uint32_t i = 0; i < 8; i++) {
		dst[i] = 0x50000;
		dst2[i] = 0x70000 + 64 * i;
		ASSERT_EQ(0, ipuxcom_tile_logical(recv[i], &lrecv[i]));
	}
	ASSERT_EQ(0, ipuxcom_tile_logical(1471, &ls));
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &q, a, 9, &ia, NULL));
	ASSERT_EQ(IPUXCOM_WIDE_USED, ia.wide);
	l = q;
	l.sender = ls;
	l.receivers = lrecv;
	l.flags = (l.flags & ~IPUXCOM_PLAN_PHYSICAL) | IPUXCOM_PLAN_LOGICAL;
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &l, b, 9, &ib, NULL));
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));
	EXPECT_EQ(0, memcmp(&ia, &ib, sizeof(ia)));
	/* placeholders patched = planned with the real addresses */
	ASSERT_EQ(0, ipuxcom_patch_mcast_src(a[0].words, IPUXCOM_ROW_WORDS, 0x90008, &e)) {
		TH_LOG("%s", e.msg);
	}
	for (uint32_t i = 0; i < 8; i++) {
		ASSERT_EQ(0, ipuxcom_patch_mcast_dst(a[1 + i].words, IPUXCOM_ROW_WORDS, dst2[i],
						     &e)) TH_LOG("%s", e.msg);
	}
	q.src_addr = 0x90008;
	q.dst_addr = dst2;
	ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &q, b, 9, &ib, NULL));
	ASSERT_EQ(IPUXCOM_WIDE_USED, ib.wide);
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));
	/* a 64-bit sender row needs an 8-byte aligned source, for 2 words per event */
	EXPECT_EQ(-EINVAL, ipuxcom_patch_mcast_src(a[0].words, IPUXCOM_ROW_WORDS, 0x90004, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ALIGN, e.code);
	EXPECT_EQ(-ERANGE, ipuxcom_patch_mcast_src(a[0].words, IPUXCOM_ROW_WORDS,
						   IPUXCOM_SRAM_END - 4 * 100, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_ADDR, e.code);
	EXPECT_EQ(0, ipuxcom_patch_mcast_src(a[0].words, IPUXCOM_ROW_WORDS,
					     IPUXCOM_SRAM_END - 4 * 200, &e));
}

/*
 * The owner rule on both sides: ipuxcom_plan_p2p_wide() refuses a receiver
 * whose partner owns the pair; the owner's 64-bit rows with the receive
 * row moved to that receiver (same physical row, so the same schedule) is
 * what it would have emitted, and the run reports its items as missed; the
 * flag gives the 32-bit plan, delivered.
 */
TEST_F(wide, non_owner_receiver_is_refused_and_would_miss)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_p2p_wide_info info = IPUXCOM_P2P_WIDE_INFO_INIT;
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_plan_error e;
	uint32_t d = 0;

	for (uint32_t k = 100; k < IPUXCOM_TILES && !d; k++)
		if ((k ^ 2) != 0 && !owns(0, k))
			d = k;
	ASSERT_NE(0u, d);
	EXPECT_EQ(-EOPNOTSUPP, ipuxcom_plan_p2p_wide(NULL, 0, d, 64, SRC, DST,
						     IPUXCOM_PLAN_PHYSICAL, &p, &info, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_INFEASIBLE, e.code);

	ASSERT_EQ(0, ipuxcom_plan_p2p_wide(NULL, 0, d ^ 2, 64, SRC, DST, IPUXCOM_PLAN_PHYSICAL, &p,
					   &info, NULL));
	EXPECT_EQ(d ^ 2, info.xpic_owner);
	p.recv.tile = (uint16_t)d;
	ASSERT_EQ(0, ipuxcom_xsim_add_p2p(self->pf->sim, &p, SRC, DST, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(self->pf->sim, &res, NULL));
	EXPECT_EQ(0u, res.delivered);
	EXPECT_LE(1u, ipuxcom_xsim_count(self->pf->sim, IPUXCOM_XSIM_H_MISSED));

	ipuxcom_xsim_reset(self->pf->sim, 0, NULL);
	ASSERT_EQ(0, ipuxcom_plan_p2p_wide(NULL, 0, d, 64, SRC, DST,
					   IPUXCOM_PLAN_WIDE | IPUXCOM_PLAN_PHYSICAL, &p, &info,
					   NULL));
	EXPECT_EQ(IPUXCOM_WIDE_NOT_OWNER, info.wide);
	ASSERT_EQ(0, ipuxcom_xsim_add_p2p(self->pf->sim, &p, SRC, DST, NULL));
	ASSERT_EQ(0, ipuxcom_xsim_run(self->pf->sim, &res, NULL));
	EXPECT_EQ(0u, res.errors);
	EXPECT_EQ(1u, res.delivered);
}

TEST_HARNESS_MAIN
