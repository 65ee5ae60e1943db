// SPDX-License-Identifier: GPL-2.0-only
/*
 * The gap between the scheduler's phase and the lower bound, split
 * (issue 34): for every set of the suite (bench/sched_suite.h) with at
 * most MAXN transfers, a reference found by exhaustive search,
 * ixc_sched_exact(): depth-first branch and bound over every placement
 * order of the transfers, each in every width it may take (placed as
 * early as the scheduler's event model allows, the model the simulator
 * verifies), and the same over the pieces the scheduler's own schedule
 * is made of when it split transfers (at most 16). Every reference
 * schedule is built and run in the simulator (an error fails the run).
 * The reference is the shortest of those and of the scheduler's phase:
 * an upper bound on the optimum, exact over placement orders and widths
 * of those two piece sets (not over other splits, other PIC events, nor
 * starts later than the earliest), so ours / reference understates
 * the scheduler's loss and reference / bound overstates the bound's
 * looseness. A search that runs out of its LIMIT placements counts as not
 * proven. Printed per family: sets, proven, phase / bound, reference /
 * bound, phase / reference (mean, max), sets where an order beat ours.
 * The scheduler's schedules are verified in the simulator.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom_xsim.h>

#include "sched_suite.h"
#include "sched_util.h"
#include "../libuser/src/xsim_internal.h"

#define MAXN	12
#define LIMIT	2000000u	/* placements per search */

struct efam {
	size_t n, proven, beaten;
	double pb, rb, pr, pr_max, rb_max;
};

/*
 * The reference schedule @rs of phase @ph (none: UINT32_MAX and NULL) runs
 * in the verifier with every transfer delivered and the same length.
 */
static bool reference_ok(const struct ipuxcom_schedule *rs, uint32_t ph, uint32_t set)
{
	char what[64];

	if (ph == UINT32_MAX)
		return !rs;
	snprintf(what, sizeof(what), "set %u: reference", set);
	return rs && ipuxcom_schedule_events(rs) == ph && bench_verified(rs, what);
}

int main(void)
{
	static char text[SUITE_TEXT_MAX];
	struct ipuxcom_schedule_opts o = { .size = sizeof(o), .flags = IPUXCOM_SCHEDULE_PHYSICAL };
	struct efam fam[SUITE_NFAMILIES] = { 0 };
	double t0 = bench_now_ns();
	struct efam all = { 0 };
	char cpu[256];
	int rc = 0;

	bench_cpu_model(cpu, sizeof(cpu));
	for (uint32_t i = 0; i < SUITE_NSETS; i++) {
		struct ipuxcom_schedule_list *l = NULL;
		struct ipuxcom_schedule *s, *rs = NULL;
		uint32_t ph, bd, ex = UINT32_MAX, ep = UINT32_MAX, ref;
		bool pr1 = true, pr2 = true;
		int f = suite_set(i, text, sizeof(text));
		double ns;
		struct efam *F;

		if (f < 0 || ipuxcom_schedule_list_parse(text, strlen(text), 0, &l, NULL)) {
			fprintf(stderr, "sched_exact_bench: set %u does not generate\n", i);
			return 1;
		}
		if (l->n > MAXN) {
			ipuxcom_schedule_list_free(l);
			continue;
		}
		s = bench_build(l->xfers, l->n, 0, 1, &ns, "default");
		if (!s || !bench_verified(s, "default") || !(bd = bench_bound(l->xfers, l->n))) {
			ipuxcom_schedule_free(s);
			ipuxcom_schedule_list_free(l);
			rc = 1;
			continue;
		}
		ph = ipuxcom_schedule_events(s);
		if (ixc_sched_exact(&o, l->xfers, l->n, NULL, false, UINT32_MAX, LIMIT, &ex, &pr1,
				    &rs) || !reference_ok(rs, ex, i)) {
			pr1 = false;
			ex = UINT32_MAX;
			rc |= rs != NULL;
		}
		ipuxcom_schedule_free(rs);
		/* ours' pieces, if it split (at most 16: else -EINVAL, not searched) */
		if (ixc_sched_exact(&o, NULL, 0, s, true, UINT32_MAX, LIMIT, &ep, &pr2, &rs) ||
		    !reference_ok(rs, ep, i)) {
			ep = UINT32_MAX;
			rc |= rs != NULL;
		}
		ipuxcom_schedule_free(rs);
		ref = ph < ex ? ph : ex;
		ref = ep < ref ? ep : ref;
		if (ref < bd) {
			fprintf(stderr, "sched_exact_bench: set %u: reference %u below the bound %u\n",
				i, ref, bd);
			rc = 1;
		}
		F = &fam[f];
		for (struct efam *a = F; a; a = a == F ? &all : NULL) {
			double r = (double)ph / ref;

			a->n++;
			a->proven += pr1 && pr2;
			a->beaten += ref < ph;
			a->pb += (double)ph / bd;
			a->rb += (double)ref / bd;
			a->rb_max = (double)ref / bd > a->rb_max ? (double)ref / bd : a->rb_max;
			a->pr += r;
			a->pr_max = r > a->pr_max ? r : a->pr_max;
		}
		ipuxcom_schedule_free(s);
		ipuxcom_schedule_list_free(l);
	}
	printf("gap to the bound, split (suite sets of <= %d transfers; reference: the "
	       "shortest over every placement order and width, branch and bound, %u placements "
	       "per search, each verified); CPU: %s\n", MAXN, LIMIT, cpu);
	printf("%-10s %4s %6s  %-13s %-18s %-18s %s\n", "family", "sets", "proven",
	       "phase/bound", "reference/bound", "phase/reference", "order beat ours");
	for (int f = 0; f <= SUITE_NFAMILIES; f++) {
		struct efam *F = f < SUITE_NFAMILIES ? &fam[f] : &all;
		double gap, bnd;

		if (!F->n)
			continue;
		/* of phase/bound - 1, the part the reference still has: the bound's (at most) */
		gap = F->pb / F->n - 1;
		bnd = F->rb / F->n - 1;
		printf("%-10s %4zu %6zu  %.3f         %.3f (max %.3f)  %.3f (max %.3f)  %zu   "
		       "gap: %.0f%% bound, %.0f%% scheduler\n",
		       f < SUITE_NFAMILIES ? suite_family_name[f] : "all", F->n, F->proven,
		       F->pb / F->n, F->rb / F->n, F->rb_max, F->pr / F->n, F->pr_max, F->beaten,
		       gap > 0 ? 100 * bnd / gap : 0, gap > 0 ? 100 * (gap - bnd) / gap : 0);
	}
	printf("search time %.1f s\n", (bench_now_ns() - t0) / 1e9);
	return rc;
}
