// SPDX-License-Identifier: GPL-2.0-only
/*
 * Exchange verifier benchmarks (issue 4), one run, ratios printed, nothing
 * asserted about time:
 *  - the simulator on a full-chip phase: 736 point-to-point transfers of
 *    1024 words (every odd logical tile to its even neighbour, as in the
 *    parallel sum's first round), simulated events per second (tile-events:
 *    every tile's events up to its br $m10; and words moved), against
 *    memcpy of the same words measured in the same run;
 *  - the scheduler: the phase length of the matmul's 8 streams and of 100
 *    random multicast sets, against the notes' fixed 256-event stagger
 *    (both verified by the simulator; target for the matmul <= 50%).
 * Exit status 1 only when something does not work (a plan, a schedule or
 * a simulated delivery), never for a slow figure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ipuxcom_xsim.h>

/* Options of transfers given with physical ids. */
static const struct ipuxcom_schedule_opts phys_opts = {
	.size = sizeof(phys_opts), .flags = IPUXCOM_SCHEDULE_PHYSICAL
};

#define REPS	5
#define WORDS	1024
#define PAIRS	736
#define SETS	100

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void clobber(void *p)
{
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

/* ------------------------------------------------------------ simulator */

static int bench_full_chip(void)
{
	static struct ipuxcom_p2p_plan plans[PAIRS];
	static uint32_t src[WORDS];
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_xsim *sim;
	double t_sim = 1e30, t_cpy = 1e30;
	uint32_t *a, *b;
	size_t bytes = (size_t)PAIRS * WORDS * 4;

	if (ipuxcom_xsim_create(NULL, &sim, NULL))
		return 1;
	for (uint32_t t = 1, i = 0; t < IPUXCOM_TILES; t += 2, i++) {
		plans[i].size = sizeof(plans[i]);
		if (ipuxcom_plan_p2p(NULL, t, t - 1, WORDS, IPUXCOM_PLAN_LOGICAL, &plans[i], NULL)) {
			fprintf(stderr, "xsim_bench: plan %u -> %u failed\n", t, t - 1);
			return 1;
		}
		for (uint32_t k = 0; k < WORDS; k++)
			src[k] = t * 0x10000 + k;
		ipuxcom_xsim_sram_write(sim, plans[i].send.tile, 0x60000, src, WORDS, NULL);
	}
	for (int rep = 0; rep < REPS; rep++) {
		double t0 = now_ns();

		ipuxcom_xsim_reset(sim, 0, NULL);
		for (int i = 0; i < PAIRS; i++)
			ipuxcom_xsim_add_p2p(sim, &plans[i], 0x60000, 0x70000, NULL);
		if (ipuxcom_xsim_run(sim, &res, NULL))
			return 1;
		t0 = now_ns() - t0;
		if (t0 < t_sim)
			t_sim = t0;
	}
	if (res.errors || res.delivered != PAIRS) {
		fprintf(stderr, "xsim_bench: full-chip phase: %u errors, %u of %u delivered\n",
			res.errors, res.delivered, PAIRS);
		return 1;
	}
	a = malloc(bytes);
	b = malloc(bytes);
	if (!a || !b)
		return 1;
	memset(a, 0x5a, bytes);
	for (int rep = 0; rep < REPS; rep++) {
		double t0 = now_ns();

		memcpy(b, a, bytes);
		clobber(b);
		t0 = now_ns() - t0;
		if (t0 < t_cpy)
			t_cpy = t0;
	}
	printf("full-chip phase: %d p2p transfers of %d words (%u tiles, phase %u events)\n",
	       PAIRS, WORDS, res.tiles, res.events);
	printf("  simulate   %8.2f ms per phase (decode, move, check, write; best of %d)\n",
	       t_sim / 1e6, REPS);
	printf("  tile-events %7.1f M/s   (%llu tile-events: every tile up to its br $m10)\n",
	       (double)res.tile_events / t_sim * 1e3, (unsigned long long)res.tile_events);
	printf("  words moved %7.1f M/s   (%llu words sent, taken and written)\n",
	       (double)res.words_written / t_sim * 1e3, (unsigned long long)res.words_written);
	printf("  memcpy of the same %zu bytes: %.3f ms; simulate / memcpy = %.1fx\n", bytes,
	       t_cpy / 1e6, t_sim / t_cpy);
	free(a);
	free(b);
	ipuxcom_xsim_free(sim);
	return 0;
}

/* ------------------------------------------------------------ scheduler */

/* Phase length of @x by the scheduler (@packed) or the 256 stagger; -1 on failure. */
static long phase(const struct ipuxcom_schedule_xfer *x, size_t n, bool packed, uint32_t *errors,
		  double *ns)
{
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_schedule *s = NULL;
	struct ipuxcom_xsim *sim;
	struct ipuxcom_plan_error e;
	double t0 = now_ns();
	int ret;

	if (ipuxcom_xsim_create(NULL, &sim, NULL))
		return -1;
	if (packed) {
		ret = ipuxcom_schedule_build(&phys_opts, x, n, &s, &e);
		if (ns)
			*ns = now_ns() - t0;
		if (!ret)
			ret = ipuxcom_schedule_load(s, sim, 0, &e);
	} else {
		ret = ipuxcom_schedule_stagger(&phys_opts, x, n, 256, sim, 0, &e);
	}
	if (ret || ipuxcom_xsim_run(sim, &res, &e)) {
		fprintf(stderr, "xsim_bench: %s: %s\n", packed ? "schedule" : "stagger", e.msg);
		ipuxcom_schedule_free(s);
		ipuxcom_xsim_free(sim);
		return -1;
	}
	*errors = res.errors + (res.declared - res.delivered);
	ipuxcom_schedule_free(s);
	ipuxcom_xsim_free(sim);
	return res.events;
}

static uint32_t rng = 88172645u;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int bench_scheduler(void)
{
	static uint32_t recv[8][16], dst[8][16];
	struct ipuxcom_schedule_xfer x[8];
	double ratios[SETS], sum = 0, t_build = 0;
	uint32_t err_p = 0, err_s = 0, stagger_bad = 0;
	long lp, ls;

	/* The matmul's streams [S]: A row i from tile i, B column j from tile 4 + j. */
	for (uint32_t i = 0; i < 4; i++) {
		for (uint32_t j = 0; j < 4; j++) {
			ipuxcom_tile_physical(8 + 4 * i + j, &recv[i][j]);
			recv[4 + j][i] = recv[i][j];
			dst[i][j] = 0x50100;
			dst[4 + j][i] = 0x50200;
		}
	}
	for (uint32_t k = 0; k < 8; k++) {
		uint32_t s;

		ipuxcom_tile_physical(k, &s);
		x[k] = (struct ipuxcom_schedule_xfer){ .sender = s, .count = 4, .nrecv = 4,
			.receivers = recv[k], .src_addr = 0x50000, .dst_addr = dst[k] };
	}
	lp = phase(x, 8, true, &err_p, NULL);
	ls = phase(x, 8, false, &err_s, NULL);
	if (lp < 0 || ls < 0 || err_p)
		return 1;
	printf("scheduler: the matmul's 8 multicast streams of 4 words\n");
	printf("  256-event stagger %5ld events (%u errors), packed %4ld events: %.1f%% "
	       "(target <= 50%%: %s)\n", ls, err_s, lp, 100.0 * lp / ls,
	       2 * lp <= ls ? "met" : "NOT met");

	/* 100 random sets: 4..8 streams among 32 tiles, 2..16 receivers, 1..128 words. */
	for (int set = 0; set < SETS; set++) {
		uint32_t pool[32], next[32] = { 0 }, n = 4 + rnd() % 5;
		double ns = 0;

		for (int i = 0; i < 32; i++) {
			bool dup;

			do {
				pool[i] = rnd() % IPUXCOM_TILES;
				dup = false;
				for (int j = 0; j < i; j++)
					dup |= pool[j] == pool[i];
			} while (dup);
		}
		for (uint32_t k = 0; k < n; k++) {
			uint32_t s = rnd() % 32, want = 2 + rnd() % 15, c = 1 + rnd() % 128, m = 0;

			for (uint32_t i = 0; i < want; i++) {
				uint32_t q = rnd() % 32;
				bool dup = q == s;

				for (uint32_t j = 0; j < m; j++)
					dup |= recv[k][j] == pool[q];
				if (dup)
					continue;
				recv[k][m] = pool[q];
				dst[k][m++] = 0x50000 + next[q];
				next[q] += 4 * c;
			}
			x[k] = (struct ipuxcom_schedule_xfer){ .sender = pool[s], .count = c, .nrecv = m,
				.receivers = recv[k], .src_addr = 0x80000 + 0x400 * k,
				.dst_addr = dst[k] };
		}
		lp = phase(x, n, true, &err_p, &ns);
		ls = phase(x, n, false, &err_s, NULL);
		if (lp < 0 || ls < 0 || err_p) {
			fprintf(stderr, "xsim_bench: random set %d: packed %ld (%u errors)\n", set, lp,
				err_p);
			return 1;
		}
		stagger_bad += err_s > 0;
		ratios[set] = (double)lp / (double)ls;
		sum += ratios[set];
		t_build += ns;
	}
	qsort(ratios, SETS, sizeof(ratios[0]), cmp_double);
	printf("scheduler: %d random multicast sets (4..8 streams, 2..16 receivers, 1..128 words)\n",
	       SETS);
	printf("  packed / 256-event stagger: mean %.1f%%, median %.1f%%, min %.1f%%, max %.1f%%\n",
	       100 * sum / SETS, 100 * ratios[SETS / 2], 100 * ratios[0], 100 * ratios[SETS - 1]);
	printf("  every packed phase verified by the simulator; the stagger itself has hazards in "
	       "%u of %d sets\n", stagger_bad, SETS);
	printf("  schedule build: %.1f us per set\n", t_build / SETS / 1e3);
	return 0;
}

int main(void)
{
	return bench_full_chip() || bench_scheduler();
}
