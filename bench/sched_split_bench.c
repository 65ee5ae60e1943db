// SPDX-License-Identifier: GPL-2.0-only
/*
 * Issue 34: how much of the gap between the scheduler's phase and the
 * lower bound is the bound's. bench/sched_exact_bench searches every
 * placement order of the scheduler's own pieces and finds almost nothing
 * shorter, which would put the gap in the bound; but a multicast's sender
 * may also send the same words more than once, at other times for other
 * receivers (the verifier allows it: a word is taken by whichever tile
 * selects its sender at that event), and that search never splits a
 * multicast's receivers. This benchmark does: for every suite set with a
 * multicast (bench/sched_suite.h), TRIALS random partitions of each
 * multicast's receivers into one to three groups (each group one
 * transfer with the multicast's source words, so the same words reach
 * the same places), each built by the default scheduler; every schedule
 * kept as the shortest so far is run in the simulator (an error, an
 * undelivered transfer or another length fails the run), so the best
 * found is a schedule the verifier accepts for the set, an upper bound on
 * its optimum. Every kept phase below the bound fails the run (the bound
 * would be wrong). Printed per family: phase / bound and best / bound
 * (mean, max), the sets a split made shorter, and of phase / bound - 1
 * the part a split removes (the scheduler's, at least); the CPU model.
 *
 *   sched_split_bench            the suite, TRIALS splits per multicast set
 *   sched_split_bench SET...     those sets, one line each
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom_xsim.h>

#include "sched_suite.h"
#include "sched_util.h"

#define TRIALS		400
#define GROUPS_MAX	3

/* xorshift32: the same partitions on every machine. */
static uint32_t rng_next(uint32_t *st)
{
	uint32_t x = *st;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *st = x;
}

/* The default scheduler's phase of @x, verified when @verify; 0 on failure. */
static uint32_t phase_of(const struct ipuxcom_schedule_xfer *x, size_t n, bool verify,
			 const char *what)
{
	struct ipuxcom_schedule *s;
	uint32_t ev = 0;
	double ns;

	s = bench_build(x, n, 0, 1, &ns, what);
	if (s && (!verify || bench_verified(s, what)))
		ev = ipuxcom_schedule_events(s);
	ipuxcom_schedule_free(s);
	return ev;
}

struct split_set {
	uint32_t bound, phase, best;
	bool mcast;
};

/*
 * Set @i: its bound, the default's phase and the shortest verified phase
 * over the random receiver partitions; -1 on a failure.
 */
static int split_one(uint32_t i, int *family, struct split_set *r)
{
	static char text[SUITE_TEXT_MAX];
	struct ipuxcom_schedule_list *l = NULL;
	struct ipuxcom_plan_error e;
	struct ipuxcom_schedule_xfer *u = NULL;
	uint32_t *rcv = NULL, *dst = NULL, *grp = NULL, st = 0x9e3779b9u ^ i;
	size_t nr = 0, rmax = 0;
	char what[64];
	int ret = -1;

	snprintf(what, sizeof(what), "sched_split_bench: set %u", i);
	*family = suite_set(i, text, sizeof(text));
	if (*family < 0 || ipuxcom_schedule_list_parse(text, strlen(text), 0, &l, &e)) {
		fprintf(stderr, "%s does not generate\n", what);
		return -1;
	}
	memset(r, 0, sizeof(*r));
	for (size_t k = 0; k < l->n; k++) {
		nr += l->xfers[k].nrecv;
		rmax = l->xfers[k].nrecv > rmax ? l->xfers[k].nrecv : rmax;
		r->mcast |= l->xfers[k].nrecv > 1;
	}
	r->bound = bench_bound(l->xfers, l->n);
	r->phase = phase_of(l->xfers, l->n, true, what);
	r->best = r->phase;
	u = malloc(l->n * GROUPS_MAX * sizeof(*u));
	rcv = malloc(nr * sizeof(*rcv));
	dst = malloc(nr * sizeof(*dst));
	grp = malloc(rmax * sizeof(*grp));
	if (!u || !rcv || !dst || !grp || !r->bound || !r->phase)
		goto out;
	for (int t = 0; r->mcast && t < TRIALS; t++) {
		size_t m = 0, p = 0;
		uint32_t v;

		for (size_t k = 0; k < l->n; k++) {
			const struct ipuxcom_schedule_xfer *x = &l->xfers[k];
			uint32_t g = 1 + rng_next(&st) % GROUPS_MAX;

			g = g < x->nrecv ? g : x->nrecv;
			/* Every group gets a receiver: the first g go one to each. */
			for (uint32_t j = 0; j < x->nrecv; j++)
				grp[j] = j < g ? j : rng_next(&st) % g;
			for (uint32_t q = 0; q < g; q++) {
				u[m] = *x;
				u[m].nrecv = 0;
				u[m].receivers = &rcv[p];
				u[m].dst_addr = &dst[p];
				for (uint32_t j = 0; j < x->nrecv; j++) {
					if (grp[j] != q)
						continue;
					rcv[p] = x->receivers[j];
					dst[p++] = x->dst_addr[j];
					u[m].nrecv++;
				}
				m++;
			}
		}
		v = phase_of(u, m, false, what);
		if (!v)
			goto out;
		if (v >= r->best)
			continue;
		if (phase_of(u, m, true, what) != v)
			goto out;
		r->best = v;
	}
	if (r->best < r->bound) {
		fprintf(stderr, "%s: a verified phase %u below the bound %u\n", what, r->best,
			r->bound);
		goto out;
	}
	ret = 0;
out:
	free(u);
	free(rcv);
	free(dst);
	free(grp);
	ipuxcom_schedule_list_free(l);
	return ret;
}

struct split_fam {
	size_t n, mcast, shorter;
	double pb, pb_max, bb, bb_max;
};

int main(int argc, char **argv)
{
	struct split_fam fam[SUITE_NFAMILIES + 1];
	double t0 = bench_now_ns();
	char cpu[256];
	int rc = 0;

	bench_cpu_model(cpu, sizeof(cpu));
	if (argc > 1) {
		for (int a = 1; a < argc; a++) {
			struct split_set r;
			int f;

			if (split_one((uint32_t)atoi(argv[a]), &f, &r))
				return 1;
			printf("set %s %s: bound %u, phase %u (%.3f), best split %u (%.3f); CPU: %s\n",
			       argv[a], suite_family_name[f], r.bound, r.phase,
			       (double)r.phase / r.bound, r.best, (double)r.best / r.bound, cpu);
		}
		return 0;
	}
	memset(fam, 0, sizeof(fam));
	for (uint32_t i = 0; i < SUITE_NSETS; i++) {
		struct split_set r;
		int f;

		if (split_one(i, &f, &r)) {
			rc = 1;
			continue;
		}
		for (int k = 0; k < 2; k++) {
			struct split_fam *s = &fam[k ? SUITE_NFAMILIES : f];
			double pb = (double)r.phase / r.bound, bb = (double)r.best / r.bound;

			s->n++;
			s->mcast += r.mcast;
			s->shorter += r.best < r.phase;
			s->pb += pb;
			s->bb += bb;
			s->pb_max = pb > s->pb_max ? pb : s->pb_max;
			s->bb_max = bb > s->bb_max ? bb : s->bb_max;
		}
	}
	printf("the gap to the bound, what splitting multicasts' receivers removes (suite; %d "
	       "random partitions into 1..%d groups per set with a multicast, every kept "
	       "schedule verified); CPU: %s\n", TRIALS, GROUPS_MAX, cpu);
	printf("%-10s %4s %6s  %-17s  %-17s  %7s  %s\n", "family", "sets", "mcast",
	       "phase/bound", "best/bound", "shorter", "of phase/bound - 1 a split removes");
	for (int f = 0; f <= SUITE_NFAMILIES; f++) {
		const struct split_fam *s = &fam[f];
		double gap = s->pb - (double)s->n;

		if (!s->n)
			continue;
		printf("%-10s %4zu %6zu  %.3f (max %.3f)  %.3f (max %.3f)  %7zu  %.0f%%\n",
		       f < SUITE_NFAMILIES ? suite_family_name[f] : "suite", s->n, s->mcast,
		       s->pb / s->n, s->pb_max, s->bb / s->n, s->bb_max, s->shorter,
		       gap > 0 ? 100.0 * (s->pb - s->bb) / gap : 0.0);
	}
	printf("wall time %.1f s\n", (bench_now_ns() - t0) / 1e9);
	return rc;
}
