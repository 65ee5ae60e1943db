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
 * Beside it a greedy pass of the kind a scheduler could run: each
 * multicast in turn tries GREEDY_TRIES random halvings of its receivers,
 * the others as kept so far, and keeps the shortest (greedy / bound, and
 * the builds it took per set with a multicast).
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
#define GREEDY_TRIES	4

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
	uint32_t bound, phase, best, greedy, builds;
	bool mcast;
};

/* A set and its receivers' groups: grp[off[k] + j] of transfer k's receiver j. */
struct split_work {
	const struct ipuxcom_schedule_list *l;
	struct ipuxcom_schedule_xfer *u;
	uint32_t *rcv, *dst, *grp, *ng, *off;
	uint32_t st;		/* the xorshift state */
};

/* The set with each transfer's receiver groups as transfers of their own, in w->u. */
static size_t split_expand(struct split_work *w)
{
	size_t m = 0, p = 0;

	for (size_t k = 0; k < w->l->n; k++) {
		const struct ipuxcom_schedule_xfer *x = &w->l->xfers[k];

		for (uint32_t q = 0; q < w->ng[k]; q++) {
			w->u[m] = *x;
			w->u[m].nrecv = 0;
			w->u[m].receivers = &w->rcv[p];
			w->u[m].dst_addr = &w->dst[p];
			for (uint32_t j = 0; j < x->nrecv; j++) {
				if (w->grp[w->off[k] + j] != q)
					continue;
				w->rcv[p] = x->receivers[j];
				w->dst[p++] = x->dst_addr[j];
				w->u[m].nrecv++;
			}
			m++;
		}
	}
	return m;
}

/* Transfer @k's receivers drawn into @g groups (at most one per receiver), none empty. */
static void split_draw(struct split_work *w, size_t k, uint32_t g)
{
	uint32_t n = w->l->xfers[k].nrecv;

	w->ng[k] = g < n ? g : n;
	for (uint32_t j = 0; j < n; j++)
		w->grp[w->off[k] + j] = j < w->ng[k] ? j : rng_next(&w->st) % w->ng[k];
}

/*
 * Build the groups in hand; if shorter than *@best, verify and keep it
 * there (true). false with *@fail set when a build or a verification
 * fails.
 */
static bool split_try(struct split_work *w, uint32_t *best, uint32_t *builds, bool *fail,
		      const char *what)
{
	size_t m = split_expand(w);
	uint32_t v = phase_of(w->u, m, false, what);

	++*builds;
	if (!v || v >= *best) {
		*fail |= !v;
		return false;
	}
	if (phase_of(w->u, m, true, what) != v) {
		*fail = true;
		return false;
	}
	*best = v;
	return true;
}

/*
 * Set @i: its bound, the default's phase, the shortest verified phase
 * over TRIALS random receiver partitions (*@r best), and the greedy
 * pass's (*@r greedy: each multicast in turn tries GREEDY_TRIES random
 * halvings with the others as kept, and keeps the shortest); -1 on a
 * failure.
 */
static int split_one(uint32_t i, int *family, struct split_set *r)
{
	static char text[SUITE_TEXT_MAX];
	struct ipuxcom_schedule_list *l = NULL;
	struct ipuxcom_plan_error e;
	struct split_work w = { .st = 0x9e3779b9u ^ i };
	uint32_t *keep = NULL, random_builds = 0;
	size_t nr = 0;
	bool fail = false;
	char what[64];
	int ret = -1;

	snprintf(what, sizeof(what), "sched_split_bench: set %u", i);
	*family = suite_set(i, text, sizeof(text));
	if (*family < 0 || ipuxcom_schedule_list_parse(text, strlen(text), 0, &l, &e)) {
		fprintf(stderr, "%s does not generate\n", what);
		return -1;
	}
	memset(r, 0, sizeof(*r));
	w.l = l;
	for (size_t k = 0; k < l->n; k++) {
		nr += l->xfers[k].nrecv;
		r->mcast |= l->xfers[k].nrecv > 1;
	}
	r->bound = bench_bound(l->xfers, l->n);
	r->phase = phase_of(l->xfers, l->n, true, what);
	r->best = r->greedy = r->phase;
	w.u = malloc(l->n * GROUPS_MAX * sizeof(*w.u));
	w.rcv = malloc(nr * sizeof(*w.rcv));
	w.dst = malloc(nr * sizeof(*w.dst));
	w.grp = malloc(nr * sizeof(*w.grp));
	keep = malloc(nr * sizeof(*keep));
	w.ng = malloc(l->n * sizeof(*w.ng));
	w.off = malloc(l->n * sizeof(*w.off));
	if (!w.u || !w.rcv || !w.dst || !w.grp || !keep || !w.ng || !w.off || !r->bound ||
	    !r->phase)
		goto out;
	for (size_t k = 0, o = 0; k < l->n; o += l->xfers[k++].nrecv)
		w.off[k] = (uint32_t)o;
	for (int t = 0; r->mcast && t < TRIALS && !fail; t++) {
		for (size_t k = 0; k < l->n; k++)
			split_draw(&w, k, 1 + rng_next(&w.st) % GROUPS_MAX);
		split_try(&w, &r->best, &random_builds, &fail, what);
	}
	for (size_t k = 0; k < l->n; k++)
		split_draw(&w, k, 1);
	for (size_t k = 0; k < l->n && !fail; k++) {
		uint32_t n = l->xfers[k].nrecv, kg = 1;

		if (n < 2)
			continue;
		memcpy(keep, &w.grp[w.off[k]], n * sizeof(*keep));
		for (int t = 0; t < GREEDY_TRIES && !fail; t++) {
			split_draw(&w, k, 2);
			if (split_try(&w, &r->greedy, &r->builds, &fail, what)) {
				memcpy(keep, &w.grp[w.off[k]], n * sizeof(*keep));
				kg = 2;
			}
		}
		memcpy(&w.grp[w.off[k]], keep, n * sizeof(*keep));
		w.ng[k] = kg;
	}
	if (fail)
		goto out;
	if (r->best < r->bound || r->greedy < r->bound) {
		fprintf(stderr, "%s: a verified phase %u below the bound %u\n", what,
			r->best < r->greedy ? r->best : r->greedy, r->bound);
		goto out;
	}
	ret = 0;
out:
	free(w.u);
	free(w.rcv);
	free(w.dst);
	free(w.grp);
	free(w.ng);
	free(w.off);
	free(keep);
	ipuxcom_schedule_list_free(l);
	return ret;
}

struct split_fam {
	size_t n, mcast, shorter, builds;
	double pb, pb_max, bb, bb_max, gb, gb_max;
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
			printf("set %s %s: bound %u, phase %u (%.3f), best split %u (%.3f), "
			       "greedy %u (%.3f) in %u builds; CPU: %s\n", argv[a],
			       suite_family_name[f], r.bound, r.phase, (double)r.phase / r.bound,
			       r.best, (double)r.best / r.bound, r.greedy,
			       (double)r.greedy / r.bound, r.builds, cpu);
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
			double gb = (double)r.greedy / r.bound;

			s->n++;
			s->mcast += r.mcast;
			s->shorter += r.best < r.phase;
			s->pb += pb;
			s->bb += bb;
			s->pb_max = pb > s->pb_max ? pb : s->pb_max;
			s->bb_max = bb > s->bb_max ? bb : s->bb_max;
			s->gb += gb;
			s->gb_max = gb > s->gb_max ? gb : s->gb_max;
			s->builds += r.builds;
		}
	}
	printf("the gap to the bound, what splitting multicasts' receivers removes (suite; best: "
	       "%d random partitions into 1..%d groups per set with a multicast; greedy: each "
	       "multicast in turn, %d random halvings; every kept schedule verified); CPU: %s\n",
	       TRIALS, GROUPS_MAX, GREEDY_TRIES, cpu);
	printf("%-10s %4s %5s  %-17s  %-17s %7s %6s  %-17s %s\n", "family", "sets", "mcast",
	       "phase/bound", "best/bound", "shorter", "split", "greedy/bound",
	       "builds/mcast set");
	for (int f = 0; f <= SUITE_NFAMILIES; f++) {
		const struct split_fam *s = &fam[f];
		double gap = s->pb - (double)s->n;

		if (!s->n)
			continue;
		/* split: of phase / bound - 1, the part the best split removes */
		printf("%-10s %4zu %5zu  %.3f (max %.3f)  %.3f (max %.3f) %7zu %5.0f%%  "
		       "%.3f (max %.3f) %.0f\n",
		       f < SUITE_NFAMILIES ? suite_family_name[f] : "suite", s->n, s->mcast,
		       s->pb / s->n, s->pb_max, s->bb / s->n, s->bb_max, s->shorter,
		       gap > 0 ? 100.0 * (s->pb - s->bb) / gap : 0.0, s->gb / s->n, s->gb_max,
		       s->mcast ? (double)s->builds / s->mcast : 0.0);
	}
	printf("wall time %.1f s\n", (bench_now_ns() - t0) / 1e9);
	return rc;
}
