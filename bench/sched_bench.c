// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler benchmark over the fixed suite (issue 16, bench/sched_suite.h):
 * every set is scheduled three ways in the same run,
 *  - the notes' fixed 256-event stagger (ipuxcom_schedule_stagger(), where
 *    its receive times fit the 12-bit field: at most ~16 transfers),
 *  - today's packing, kept reachable as IPUXCOM_SCHEDULE_LEGACY,
 *  - the default scheduler (what later work improves),
 * and every packed phase is loaded into the exchange verifier and run:
 * any error or undelivered transfer is a failure (exit 1). Printed per
 * family: mean/median/min/max phase length, ratios against the stagger and
 * against today's packing, and the median scheduling time per set
 * (best of REPS builds per set). Nothing is asserted about time.
 *
 *   sched_bench              run the suite
 *   sched_bench --write DIR  write every set as DIR/NNN-FAMILY.txt (the
 *                            transfer lists `ipuxcom plan schedule` reads)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ipuxcom_xsim.h>

#include "sched_suite.h"

/* Options of transfers given with physical ids. */
static const struct ipuxcom_schedule_opts phys_opts = {
	.size = sizeof(phys_opts), .flags = IPUXCOM_SCHEDULE_PHYSICAL
};

#define REPS	3

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Mean, median, min and max of @n values (sorts @v). */
struct stats {
	double mean, median, min, max;
};

static struct stats stats_of(double *v, size_t n)
{
	struct stats s = { 0, 0, 0, 0 };

	if (!n)
		return s;
	qsort(v, n, sizeof(*v), cmp_double);
	for (size_t i = 0; i < n; i++)
		s.mean += v[i];
	s.mean /= (double)n;
	s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	s.min = v[0];
	s.max = v[n - 1];
	return s;
}

/* Load @s (or the stagger of @l) into a fresh simulator and run it. */
static int verify(const struct ipuxcom_schedule_list *l, const struct ipuxcom_schedule *s,
		  struct ipuxcom_xsim_result *res, struct ipuxcom_plan_error *e)
{
	struct ipuxcom_xsim *sim;
	int ret;

	if ((ret = ipuxcom_xsim_create(NULL, &sim, e)))
		return ret;
	if (s)
		ret = ipuxcom_schedule_load(s, sim, 0, e);
	else
		ret = ipuxcom_schedule_stagger(&phys_opts, l->xfers, l->n, 256, sim, 0, e);
	if (!ret)
		ret = ipuxcom_xsim_run(sim, res, e);
	ipuxcom_xsim_free(sim);
	return ret;
}

/* Build with @flags (best of REPS in @ns), verify; the phase length or -1. */
static long packed(const struct ipuxcom_schedule_list *l, uint32_t flags, double *ns,
		   const char *what, uint32_t set)
{
	struct ipuxcom_schedule_opts o = { .size = sizeof(struct ipuxcom_schedule_opts),
		.flags = flags | IPUXCOM_SCHEDULE_PHYSICAL };
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_schedule *s = NULL;
	struct ipuxcom_plan_error e;
	long events;

	*ns = 1e30;
	for (int r = 0; r < REPS; r++) {
		double t0 = now_ns();

		ipuxcom_schedule_free(s);
		s = NULL;
		if (ipuxcom_schedule_build(&o, l->xfers, l->n, &s, &e)) {
			fprintf(stderr, "sched_bench: set %u: %s: %s\n", set, what, e.msg);
			return -1;
		}
		t0 = now_ns() - t0;
		if (t0 < *ns)
			*ns = t0;
	}
	if (verify(l, s, &res, &e)) {
		fprintf(stderr, "sched_bench: set %u: %s: simulator: %s\n", set, what, e.msg);
		ipuxcom_schedule_free(s);
		return -1;
	}
	if (res.errors || res.delivered != res.declared) {
		fprintf(stderr, "sched_bench: set %u: %s: %u errors, %u of %u transfers delivered\n",
			set, what, res.errors, res.delivered, res.declared);
		ipuxcom_schedule_free(s);
		return -1;
	}
	events = ipuxcom_schedule_events(s);
	ipuxcom_schedule_free(s);
	if ((uint32_t)events != res.events) {
		fprintf(stderr, "sched_bench: set %u: %s: schedule says %ld events, simulator %u\n",
			set, what, events, res.events);
		return -1;
	}
	return events;
}

static int write_sets(const char *dir, char *text)
{
	for (uint32_t i = 0; i < SUITE_NSETS; i++) {
		int f = suite_set(i, text, SUITE_TEXT_MAX);
		char path[4096];
		FILE *fp;

		if (f < 0) {
			fprintf(stderr, "sched_bench: set %u does not generate\n", i);
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%03u-%s.txt", dir, i, suite_family_name[f]);
		fp = fopen(path, "w");
		if (!fp || fputs(text, fp) == EOF || fclose(fp)) {
			fprintf(stderr, "sched_bench: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	printf("%u sets written to %s\n", SUITE_NSETS, dir);
	return 0;
}

struct fam {
	double *len, *vs_stagger, *vs_legacy, *us;
	size_t n, nstag, nstag_bad, longer;
	double worst;		/* largest default / legacy */
};

int main(int argc, char **argv)
{
	static char text[SUITE_TEXT_MAX];
	struct fam fam[SUITE_NFAMILIES] = { 0 };
	double *all_vs_legacy, *all_us, all_sum = 0;
	size_t nall = 0, longer = 0;
	long matmul = -1, matmul_legacy = -1;
	int rc = 0;

	if (argc == 3 && !strcmp(argv[1], "--write"))
		return write_sets(argv[2], text);
	if (argc != 1) {
		fprintf(stderr, "usage: sched_bench [--write DIR]\n");
		return 2;
	}
	all_vs_legacy = calloc(SUITE_NSETS, sizeof(double));
	all_us = calloc(SUITE_NSETS, sizeof(double));
	for (int f = 0; f < SUITE_NFAMILIES; f++) {
		fam[f].len = calloc(SUITE_NSETS, sizeof(double));
		fam[f].vs_stagger = calloc(SUITE_NSETS, sizeof(double));
		fam[f].vs_legacy = calloc(SUITE_NSETS, sizeof(double));
		fam[f].us = calloc(SUITE_NSETS, sizeof(double));
		if (!fam[f].len || !fam[f].vs_stagger || !fam[f].vs_legacy || !fam[f].us)
			return 1;
	}
	if (!all_vs_legacy || !all_us)
		return 1;

	for (uint32_t i = 0; i < SUITE_NSETS; i++) {
		struct ipuxcom_schedule_list *l = NULL;
		struct ipuxcom_plan_error e;
		struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
		int f = suite_set(i, text, sizeof(text));
		struct fam *F;
		double ns_legacy, ns_new;
		long lp, ln;

		if (f < 0) {
			fprintf(stderr, "sched_bench: set %u does not generate\n", i);
			return 1;
		}
		F = &fam[f];
		if (ipuxcom_schedule_list_parse(text, strlen(text), 0, &l, &e)) {
			fprintf(stderr, "sched_bench: set %u: %s\n", i, e.msg);
			return 1;
		}
		lp = packed(l, IPUXCOM_SCHEDULE_LEGACY, &ns_legacy, "legacy", i);
		ln = packed(l, 0, &ns_new, "default", i);
		if (lp < 0 || ln < 0) {
			ipuxcom_schedule_list_free(l);
			rc = 1;
			continue;
		}
		(void)ns_legacy;
		F->len[F->n] = (double)ln;
		F->vs_legacy[F->n] = (double)ln / (double)lp;
		F->us[F->n] = ns_new / 1e3;
		if (F->vs_legacy[F->n] > F->worst)
			F->worst = F->vs_legacy[F->n];
		F->longer += ln > lp;
		longer += ln > lp;
		all_vs_legacy[nall] = F->vs_legacy[F->n];
		all_us[nall++] = F->us[F->n];
		all_sum += F->vs_legacy[F->n];
		F->n++;
		if (f == SUITE_MATMUL) {
			matmul = ln;
			matmul_legacy = lp;
		}
		/* The stagger where its receive times fit; its own hazards are counted, not fatal. */
		if (!verify(l, NULL, &res, &e)) {
			F->vs_stagger[F->nstag++] = (double)ln / (double)res.events;
			F->nstag_bad += res.errors || res.delivered != res.declared;
		} else if (e.code != IPUXCOM_PLAN_E_SCHEDULE) {
			fprintf(stderr, "sched_bench: set %u: stagger: %s\n", i, e.msg);
			rc = 1;
		}
		ipuxcom_schedule_list_free(l);
	}

	printf("scheduler suite: %u sets (bench/sched_suite.h, fixed seeds), every packed phase "
	       "verified by the simulator\n", SUITE_NSETS);
	printf("%-10s %4s  %-29s  %-31s  %-37s  %s\n", "family", "sets",
	       "events mean/median/min/max", "vs stagger mean/med/min/max", "vs legacy mean/med/min/max",
	       "build us (median)");
	for (int f = 0; f < SUITE_NFAMILIES; f++) {
		struct fam *F = &fam[f];
		struct stats len = stats_of(F->len, F->n), st = stats_of(F->vs_stagger, F->nstag);
		struct stats lg = stats_of(F->vs_legacy, F->n), us = stats_of(F->us, F->n);
		char stag[1024];

		if (F->nstag)
			snprintf(stag, sizeof(stag), "%.3f %.3f %.3f %.3f (%zu)", st.mean,
				 st.median, st.min, st.max, F->nstag);
		else
			snprintf(stag, sizeof(stag), "n/a (does not fit)");
		printf("%-10s %4zu  %6.1f %6.1f %6.0f %6.0f  %-31s  %.3f %.3f %.3f %.3f (%zu longer)  "
		       "%8.1f\n", suite_family_name[f], F->n, len.mean, len.median, len.min,
		       len.max, stag, lg.mean, lg.median, lg.min, lg.max, F->longer, us.median);
		if (F->nstag_bad)
			printf("%-10s       the stagger itself has hazards in %zu of %zu sets\n", "",
			       F->nstag_bad, F->nstag);
	}
	{
		struct stats us = stats_of(all_us, nall), wide = stats_of(fam[SUITE_WIDE].vs_legacy,
									 fam[SUITE_WIDE].n);
		double mean = nall ? all_sum / (double)nall : 0;

		printf("issue 16 goals (default vs IPUXCOM_SCHEDULE_LEGACY, same run):\n");
		printf("  never longer than today's packing: %zu of %zu sets longer: %s\n", longer, nall,
		       longer ? "NOT met" : "met");
		printf("  mean over the suite %.3fx (goal <= 0.9x): %s\n", mean,
		       mean <= 0.9 ? "met" : "NOT met");
		printf("  mean over the 64-bit family %.3fx (goal <= 0.6x): %s\n", wide.mean,
		       wide.mean <= 0.6 ? "met" : "NOT met");
		printf("  matmul %ld events (today %ld; goal <= 90): %s\n", matmul, matmul_legacy,
		       matmul >= 0 && matmul <= 90 ? "met" : "NOT met");
		printf("  scheduling time per set: median %.1f us (goal < 100 us): %s\n", us.median,
		       us.median < 100 ? "met" : "NOT met");
	}
	for (int f = 0; f < SUITE_NFAMILIES; f++) {
		free(fam[f].len);
		free(fam[f].vs_stagger);
		free(fam[f].vs_legacy);
		free(fam[f].us);
	}
	free(all_vs_legacy);
	free(all_us);
	return rc;
}
