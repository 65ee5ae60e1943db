/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fixed scheduler suite (issue 16): transfer sets generated from fixed
 * seeds, so that every run of bench/sched_bench (and sched_suite_test)
 * measures the same work. Each set is produced as a transfer list, the text
 * format `ipuxcom plan schedule` reads (docs/exchange-verifier.md
 * "Transfer lists"), with physical ids and explicit src=/dst= addresses;
 * `sched_bench --write DIR` writes every set as DIR/NNN-FAMILY.txt.
 *
 * Families (SUITE_* below give the counts):
 *  - matmul: the seed's 8 multicast streams of 4 words [S "One-Codelet
 *    Matrix Multiply"]: logical tiles 0..3 send A's rows, 4..7 B's columns,
 *    8 + 4i + j receive row i and column j;
 *  - multicast: 4..8 streams among 32 random tiles, 2..16 receivers,
 *    1..128 words (the sets of bench/xsim_bench's scheduler part);
 *  - p2p: 4..48 point-to-point transfers among 48 random tiles, 1..256 words;
 *  - large: 64..736 point-to-point transfers over the whole chip (1..64
 *    words) and all-to-all among 8..24 tiles (1..16 words);
 *  - wide: built for 64-bit routes: tiles taken as pairs whose physical ids
 *    differ by XOR 2 [RE, HW-XOR2-PAIR], one sending member per pair, each
 *    transfer into the member of another pair that owns its 64-bit items,
 *    even word counts 128..2048, source and destination addresses 8-byte
 *    aligned (see suite_wide()), so a 64-bit route exists for every
 *    transfer (ipuxcom_plan_p2p_wide()).
 *
 * The generator is a 32-bit xorshift [Marsaglia] seeded per set from the
 * family's fixed seed and the set's index: one set can be regenerated alone.
 * Destination buffers are allocated per receiver inside the multicast
 * destination windows 0x50000-0x5ffff, 0x70000-0x7ffff, 0xd0000-0xdffff
 * (docs/exchange-plans.md), sources per sender from 0x80000, so every set is
 * valid for ipuxcom_schedule_build().
 */
#ifndef IPUXCOM_SCHED_SUITE_H
#define IPUXCOM_SCHED_SUITE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <ipuxcom_plan.h>

enum suite_family { SUITE_MATMUL, SUITE_MCAST, SUITE_P2P, SUITE_LARGE, SUITE_WIDE,
		    SUITE_NFAMILIES };

#define SUITE_N_MATMUL	1
#define SUITE_N_MCAST	100
#define SUITE_N_P2P	100
#define SUITE_N_LARGE	12	/* 8 chip-wide p2p sets, 4 all-to-all */
#define SUITE_N_WIDE	40
#define SUITE_NSETS	(SUITE_N_MATMUL + SUITE_N_MCAST + SUITE_N_P2P + SUITE_N_LARGE + \
			 SUITE_N_WIDE)

static const char *const suite_family_name[SUITE_NFAMILIES] = {
	"matmul", "multicast", "p2p", "large", "wide",
};

/* Fixed seeds, one per family (never change them: the suite is the benchmark's unit). */
static const uint32_t suite_seed[SUITE_NFAMILIES] = {
	0, 88172645u, 0x2545f491u, 0x9e3779b9u, 0x7f4a7c15u,
};

struct suite_gen {
	uint32_t rng;
	uint32_t src_next[IPUXCOM_TILES];	/* next source byte address per sender */
	uint32_t dst_next[IPUXCOM_TILES];	/* next destination, window-relative */
	char *buf;
	size_t len, used;
	bool overflow;
};

static inline uint32_t suite_rnd(struct suite_gen *g)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 17;
	g->rng ^= g->rng << 5;
	return g->rng;
}

__attribute__((format(printf, 2, 3)))
static inline void suite_put(struct suite_gen *g, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(g->buf + g->used, g->len - g->used, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= g->len - g->used) {
		g->overflow = true;
		return;
	}
	g->used += (size_t)k;
}

/* The destination windows (docs/exchange-plans.md, inferred there). */
static const uint32_t suite_dwin[3] = { 0x50000, 0x70000, 0xd0000 };

/* A destination of @words words on @tile, @align-byte aligned; 0 when the windows are full. */
static inline uint32_t suite_dst(struct suite_gen *g, uint32_t tile, uint32_t words,
				 uint32_t align)
{
	uint32_t off = (g->dst_next[tile] + align - 1) & ~(align - 1);
	uint32_t w = off / 0x10000, in = off % 0x10000;

	if (in + 4 * words > 0x10000) {
		w++;
		in = 0;
	}
	if (w >= 3)
		return 0;
	g->dst_next[tile] = w * 0x10000 + in + 4 * words;
	return suite_dwin[w] + in;
}

static inline uint32_t suite_src(struct suite_gen *g, uint32_t tile, uint32_t words,
				 uint32_t align)
{
	uint32_t a = (0x80000 + g->src_next[tile] + align - 1) & ~(align - 1);

	if (a + 4 * words > 0xd0000)
		return 0;
	g->src_next[tile] = a + 4 * words - 0x80000;
	return a;
}

static inline uint32_t suite_phys(uint32_t logical)
{
	uint32_t p = 0;

	ipuxcom_tile_physical(logical, &p);
	return p;
}

/* @n distinct random physical tiles into @pool. */
static inline void suite_pool(struct suite_gen *g, uint32_t *pool, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		bool dup;

		do {
			pool[i] = suite_rnd(g) % IPUXCOM_TILES;
			dup = false;
			for (uint32_t j = 0; j < i; j++)
				dup |= pool[j] == pool[i];
		} while (dup);
	}
}

static inline void suite_p2p_line(struct suite_gen *g, uint32_t s, uint32_t d, uint32_t c,
				  uint32_t align)
{
	uint32_t src = suite_src(g, s, c, align), dst = suite_dst(g, d, c, align);

	if (!src || !dst) {
		g->overflow = true;
		return;
	}
	suite_put(g, "p2p %u %u %u src=0x%x dst=0x%x\n", s, d, c, src, dst);
}

static inline void suite_matmul(struct suite_gen *g)
{
	for (uint32_t k = 0; k < 8; k++) {
		uint32_t s = suite_phys(k);

		suite_put(g, "multicast %u 4", s);
		for (uint32_t m = 0; m < 4; m++)	/* A row k: C[k][m]; B column k-4: C[m][k-4] */
			suite_put(g, " %u", suite_phys(k < 4 ? 8 + 4 * k + m : 8 + 4 * m + k - 4));
		/* Rows land at 0x50100, columns at 0x50200 on every output tile. */
		suite_put(g, " src=0x50000 dst=");
		for (uint32_t m = 0; m < 4; m++)
			suite_put(g, "%s0x%x", m ? "," : "", k < 4 ? 0x50100 : 0x50200);
		suite_put(g, "\n");
	}
}

static inline void suite_mcast(struct suite_gen *g)
{
	uint32_t pool[32], n = 4 + suite_rnd(g) % 5;

	suite_pool(g, pool, 32);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t s = suite_rnd(g) % 32, want = 2 + suite_rnd(g) % 15;
		uint32_t c = 1 + suite_rnd(g) % 128, m = 0, recv[16], src;

		for (uint32_t i = 0; i < want; i++) {
			uint32_t q = suite_rnd(g) % 32;
			bool dup = q == s;

			for (uint32_t j = 0; j < m; j++)
				dup |= recv[j] == pool[q];
			if (!dup)
				recv[m++] = pool[q];
		}
		if (!m)
			continue;
		src = suite_src(g, pool[s], c, 4);
		suite_put(g, "multicast %u %u", pool[s], c);
		for (uint32_t j = 0; j < m; j++)
			suite_put(g, " %u", recv[j]);
		suite_put(g, " src=0x%x dst=", src);
		for (uint32_t j = 0; j < m; j++) {
			uint32_t d = suite_dst(g, recv[j], c, 4);

			if (!d)
				g->overflow = true;
			suite_put(g, "%s0x%x", j ? "," : "", d);
		}
		suite_put(g, "\n");
	}
}

static inline void suite_p2p(struct suite_gen *g)
{
	uint32_t pool[48], n = 4 + suite_rnd(g) % 45;

	suite_pool(g, pool, 48);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t s = suite_rnd(g) % 48, d = suite_rnd(g) % 47;

		d += d >= s;
		suite_p2p_line(g, pool[s], pool[d], 1 + suite_rnd(g) % 256, 4);
	}
}

static inline void suite_large(struct suite_gen *g, uint32_t i)
{
	static const uint32_t chip[8] = { 64, 128, 192, 256, 384, 512, 640, 736 };
	static const uint32_t a2a[4] = { 8, 12, 16, 24 };

	if (i < 8) {
		for (uint32_t k = 0; k < chip[i]; k++) {
			uint32_t s = suite_rnd(g) % IPUXCOM_TILES, d = suite_rnd(g) % (IPUXCOM_TILES - 1);

			d += d >= s;
			suite_p2p_line(g, s, d, 1 + suite_rnd(g) % 64, 4);
		}
		return;
	}
	/* All-to-all among a2a[i - 8] random tiles, one count per set. */
	{
		uint32_t pool[24], k = a2a[i - 8], c = 1 + suite_rnd(g) % 16;

		suite_pool(g, pool, k);
		for (uint32_t s = 0; s < k; s++)
			for (uint32_t d = 0; d < k; d++)
				if (d != s)
					suite_p2p_line(g, pool[s], pool[d], c, 4);
	}
}

/*
 * The member of pair {d, d ^ 2} that owns 64-bit items from @s: the smaller
 * TimeToMux [RE], a tie the lower id (modelled, as the verifier).
 */
static inline uint32_t suite_pair_owner(uint32_t s, uint32_t d)
{
	const struct ipuxcom_timing *tm = ipuxcom_timing_default();
	int t0 = 0, t1 = 0;

	ipuxcom_time_to_mux(tm, s, d, &t0, NULL);
	ipuxcom_time_to_mux(tm, s, d ^ 2, &t1, NULL);
	return t1 < t0 || (t1 == t0 && (d ^ 2) < d) ? d ^ 2 : d;
}

/*
 * 64-bit family: 2..8 transfers among 8 random tile pairs ({p, p ^ 2}),
 * each pair with one sending member; a transfer goes to the member of
 * another pair that owns the pair's items from that sender, with an even
 * count of 128..2048 words between 8-byte aligned buffers. The partners'
 * halves of the double-width resources are left free (no mirrored
 * traffic: under the shared-resource rule it already fills both halves),
 * and the counts are large because a route's fixed latency (TimeToMux +
 * 52 + 2 * row events) dominates short transfers whatever their width.
 */
static inline void suite_wide(struct suite_gen *g)
{
	uint32_t pairs[8], snd[8], n = 2 + suite_rnd(g) % 7;

	for (uint32_t i = 0; i < 8; i++) {
		bool dup;

		do {
			pairs[i] = (suite_rnd(g) % IPUXCOM_TILES) & ~2u;
			dup = false;
			for (uint32_t j = 0; j < i; j++)
				dup |= pairs[j] == pairs[i];
		} while (dup);
		snd[i] = pairs[i] ^ (suite_rnd(g) & 2u);
	}
	for (uint32_t k = 0; k < n; k++) {
		uint32_t s = suite_rnd(g) % 8, d = suite_rnd(g) % 7, c = 2 * (64 + suite_rnd(g) % 961);

		d += d >= s;
		suite_p2p_line(g, snd[s], suite_pair_owner(snd[s], pairs[d]), c, 8);
	}
}

/*
 * Set @i (0..SUITE_NSETS-1) as transfer-list text into @buf (@len bytes,
 * NUL-terminated). Returns its family, or -1 if @i is out of range or the
 * text does not fit.
 */
static inline int suite_set(uint32_t i, char *buf, size_t len)
{
	static struct suite_gen g;	/* 12 KiB of allocation state: not on the stack */
	static const uint32_t n[SUITE_NFAMILIES] = {
		SUITE_N_MATMUL, SUITE_N_MCAST, SUITE_N_P2P, SUITE_N_LARGE, SUITE_N_WIDE,
	};
	int f = 0;

	while (f < SUITE_NFAMILIES && i >= n[f])
		i -= n[f++];
	if (f == SUITE_NFAMILIES || !buf || !len)
		return -1;
	memset(&g, 0, sizeof(g));
	g.rng = suite_seed[f] ^ (0x9e3779b9u * (i + 1));
	if (!g.rng)
		g.rng = 1;
	g.buf = buf;
	g.len = len;
	buf[0] = 0;
	suite_put(&g, "# ipuxcom scheduler suite: %s %u\nphysical\n", suite_family_name[f], i);
	switch (f) {
	case SUITE_MATMUL: suite_matmul(&g); break;
	case SUITE_MCAST: suite_mcast(&g); break;
	case SUITE_P2P: suite_p2p(&g); break;
	case SUITE_LARGE: suite_large(&g, i); break;
	default: suite_wide(&g); break;
	}
	return g.overflow ? -1 : f;
}

/* Room for the largest set (736 lines of at most ~50 characters). */
#define SUITE_TEXT_MAX	(64u * 1024u)

#endif
