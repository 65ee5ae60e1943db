/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scaled scheduler families (issue 34): the same kind of transfer set at
 * 1x, 4x and 16x its size, so that bench/sched_time_bench can print the
 * build time against the number of transfers and receivers. Each set is a
 * transfer list (physical ids, explicit addresses), generated from a fixed
 * seed per family, size and index with sched_suite.h's generator:
 *  - mcast: 4m multicasts of 64 words among a pool of 16m random tiles,
 *    2..16 receivers each (16x: 64 multicasts from a pool of 256 tiles);
 *  - a2a: all-to-all of 8 words among 7, 14, 28 random tiles (42, 182,
 *    756 transfers);
 *  - p2p: 12m chip-wide point-to-point transfers of 1..256 words;
 *  - wide: 4m transfers of 128..2048 words among 8m XOR-2 tile pairs,
 *    into the member that owns the pair's 64-bit items (suite_wide());
 *  - grid: the matmul's shape at k x k outputs (k = 4, 8, 16): 2k
 *    multicast streams of 4 words, each to one row or column of outputs.
 */
#ifndef IPUXCOM_SCHED_SCALE_H
#define IPUXCOM_SCHED_SCALE_H

#include "sched_suite.h"

enum scale_family { SCALE_MCAST, SCALE_A2A, SCALE_P2P, SCALE_WIDE, SCALE_GRID,
		    SCALE_NFAMILIES };

static const char *const scale_family_name[SCALE_NFAMILIES] = {
	"mcast", "a2a", "p2p", "wide", "grid",
};

#define SCALE_NSIZES	3
static const uint32_t scale_size[SCALE_NSIZES] = { 1, 4, 16 };

/* Sets per family at each size (fewer at 16x: they are the slow ones). */
static const uint32_t scale_nsets[SCALE_NSIZES] = { 8, 4, 2 };

static inline void scale_mcast(struct suite_gen *g, uint32_t m)
{
	static uint32_t pool[256];
	uint32_t np = 16 * m, n = 4 * m;

	suite_pool(g, pool, np);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t s = suite_rnd(g) % np, want = 2 + suite_rnd(g) % 15, c = 64, nr = 0;
		uint32_t recv[16], src;

		for (uint32_t i = 0; i < want; i++) {
			uint32_t q = suite_rnd(g) % np;
			bool dup = q == s;

			for (uint32_t j = 0; j < nr; j++)
				dup |= recv[j] == pool[q];
			if (!dup)
				recv[nr++] = pool[q];
		}
		if (!nr)
			continue;
		src = suite_src(g, pool[s], c, 8);
		if (!src)
			g->overflow = true;
		suite_put(g, "multicast %u %u", pool[s], c);
		for (uint32_t j = 0; j < nr; j++)
			suite_put(g, " %u", recv[j]);
		suite_put(g, " src=0x%x dst=", src);
		for (uint32_t j = 0; j < nr; j++) {
			uint32_t d = suite_dst(g, recv[j], c, 8);

			if (!d)
				g->overflow = true;
			suite_put(g, "%s0x%x", j ? "," : "", d);
		}
		suite_put(g, "\n");
	}
}

static inline void scale_a2a(struct suite_gen *g, uint32_t m)
{
	static const uint32_t tiles[SCALE_NSIZES] = { 7, 14, 28 };
	uint32_t pool[28], k = tiles[m == 1 ? 0 : m == 4 ? 1 : 2];

	suite_pool(g, pool, k);
	for (uint32_t s = 0; s < k; s++)
		for (uint32_t d = 0; d < k; d++)
			if (d != s)
				suite_p2p_line(g, pool[s], pool[d], 8, 4);
}

static inline void scale_p2p(struct suite_gen *g, uint32_t m)
{
	for (uint32_t k = 0; k < 12 * m; k++) {
		uint32_t s = suite_rnd(g) % IPUXCOM_TILES, d = suite_rnd(g) % (IPUXCOM_TILES - 1);

		d += d >= s;
		suite_p2p_line(g, s, d, 1 + suite_rnd(g) % 256, 4);
	}
}

static inline void scale_wide(struct suite_gen *g, uint32_t m)
{
	static uint32_t pairs[128], snd[128];
	uint32_t np = 8 * m;

	for (uint32_t i = 0; i < np; i++) {
		bool dup;

		do {
			pairs[i] = (suite_rnd(g) % IPUXCOM_TILES) & ~2u;
			dup = false;
			for (uint32_t j = 0; j < i; j++)
				dup |= pairs[j] == pairs[i];
		} while (dup);
		snd[i] = pairs[i] ^ (suite_rnd(g) & 2u);
	}
	for (uint32_t k = 0; k < 4 * m; k++) {
		uint32_t s = suite_rnd(g) % np, d = suite_rnd(g) % (np - 1);
		uint32_t c = 2 * (64 + suite_rnd(g) % 961);

		d += d >= s;
		suite_p2p_line(g, snd[s], suite_pair_owner(snd[s], pairs[d]), c, 8);
	}
}

static inline void scale_grid(struct suite_gen *g, uint32_t m)
{
	uint32_t k = m == 1 ? 4 : m == 4 ? 8 : 16;
	static uint32_t pool[2 * 16 + 16 * 16];

	suite_pool(g, pool, 2 * k + k * k);
	for (uint32_t st = 0; st < 2 * k; st++) {
		uint32_t src = suite_src(g, pool[st], 4, 4);

		suite_put(g, "multicast %u 4", pool[st]);
		for (uint32_t j = 0; j < k; j++)	/* stream st < k: row st; else column st - k */
			suite_put(g, " %u", pool[2 * k + (st < k ? st * k + j : j * k + st - k)]);
		suite_put(g, " src=0x%x dst=", src);
		for (uint32_t j = 0; j < k; j++)
			suite_put(g, "%s0x%x", j ? "," : "", st < k ? 0x50100 : 0x50200);
		suite_put(g, "\n");
	}
}

/* Room for the largest set (756 lines of ~50 characters, 64 multicasts of 16 receivers). */
#define SCALE_TEXT_MAX	(128u * 1024u)

/*
 * Set @i of family @f at size @m (1, 4 or 16) as transfer-list text into
 * @buf (@len bytes); false if it does not fit.
 */
static inline bool scale_set(int f, uint32_t m, uint32_t i, char *buf, size_t len)
{
	static struct suite_gen g;

	memset(&g, 0, sizeof(g));
	g.rng = 0x85ebca6bu ^ (0x9e3779b9u * (uint32_t)(f + 1)) ^ (0xc2b2ae35u * m) ^
		(0x27d4eb2fu * (i + 1));
	if (!g.rng)
		g.rng = 1;
	g.buf = buf;
	g.len = len;
	buf[0] = 0;
	suite_put(&g, "# ipuxcom scaled family: %s %ux %u\nphysical\n", scale_family_name[f], m, i);
	switch (f) {
	case SCALE_MCAST: scale_mcast(&g, m); break;
	case SCALE_A2A: scale_a2a(&g, m); break;
	case SCALE_P2P: scale_p2p(&g, m); break;
	case SCALE_WIDE: scale_wide(&g, m); break;
	default: scale_grid(&g, m); break;
	}
	return !g.overflow;
}

#endif
