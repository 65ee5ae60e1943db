// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scheduler build time against set size (issue 34): the families of
 * bench/sched_scale.h at 1x, 4x and 16x, each set built by the default
 * scheduler and by the legacy packing (IPUXCOM_SCHEDULE_LEGACY, the
 * baseline measured in the same run), every phase run in the exchange
 * verifier (an error or an undelivered transfer fails the run). Printed
 * per family and size: transfers, receivers (transfer x receiver pairs),
 * the median build time (the thread's CPU time, bench_cpu_ns()), its
 * ratio to legacy's (worst set too), phase / bound; the CPU model.
 * Nothing is asserted about time.
 *
 *   sched_scale_bench                 the whole table
 *   sched_scale_bench FAMILY SIZE I   build set I of FAMILY at SIZE x once
 *                                     (for a profiler), print its figures
 *   sched_scale_bench --once FAMILY SIZE
 *                                     build its sets once each, nothing
 *                                     else (for callgrind: build_once())
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ipuxcom_xsim.h>

#include "sched_scale.h"
#include "sched_util.h"

static int one(int f, uint32_t m, uint32_t i, struct bench_set *r)
{
	static char text[SCALE_TEXT_MAX];
	struct ipuxcom_schedule_list *l = NULL;
	struct ipuxcom_plan_error e;
	int ret;

	if (!scale_set(f, m, i, text, sizeof(text))) {
		fprintf(stderr, "sched_scale_bench: %s %ux %u does not generate\n",
			scale_family_name[f], m, i);
		return -1;
	}
	if (ipuxcom_schedule_list_parse(text, strlen(text), 0, &l, &e)) {
		fprintf(stderr, "sched_scale_bench: %s %ux %u: %s\n", scale_family_name[f], m, i,
			e.msg);
		return -1;
	}
	ret = bench_measure(l, 3, r);
	ipuxcom_schedule_list_free(l);
	return ret;
}

/*
 * --once FAMILY SIZE: that family's sets at that size built once each by
 * the default scheduler, nothing else inside ipuxcom_schedule_build() (for
 * `valgrind --tool=callgrind --toggle-collect=ipuxcom_schedule_build`);
 * their mean phase / bound.
 */
static int build_once(const char *family, uint32_t m)
{
	static char text[SCALE_TEXT_MAX];
	double pb = 0;
	int f = 0, z = 0;

	while (f < SCALE_NFAMILIES && strcmp(family, scale_family_name[f]))
		f++;
	while (z < SCALE_NSIZES && scale_size[z] != m)
		z++;
	if (f == SCALE_NFAMILIES || z == SCALE_NSIZES)
		return 2;
	for (uint32_t i = 0; i < scale_nsets[z]; i++) {
		uint32_t ph, bd;
		char what[64];

		snprintf(what, sizeof(what), "sched_scale_bench: %s %ux %u", family, m, i);
		if (!scale_set(f, m, i, text, sizeof(text))) {
			fprintf(stderr, "%s does not generate\n", what);
			return 1;
		}
		if (bench_once(text, &ph, &bd, what))
			return 1;
		pb += (double)ph / bd;
	}
	printf("%s %ux: %u sets built once, phase/bound mean %.4f\n", family, m, scale_nsets[z],
	       pb / scale_nsets[z]);
	return 0;
}

int main(int argc, char **argv)
{
	char cpu[256];
	int rc = 0;

	if (argc == 4 && !strcmp(argv[1], "--once"))
		return build_once(argv[2], (uint32_t)atoi(argv[3]));

	bench_cpu_model(cpu, sizeof(cpu));
	if (argc == 4) {
		struct bench_set r;
		int f = 0;

		while (f < SCALE_NFAMILIES && strcmp(argv[1], scale_family_name[f]))
			f++;
		if (f == SCALE_NFAMILIES)
			return 2;
		if (one(f, (uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]), &r))
			return 1;
		printf("%s %sx %s: %zu transfers, %zu receivers: phase %u, bound %u (%.3f), "
		       "legacy %u; build %.1f us, legacy %.1f us (%.2fx); CPU: %s\n", argv[1],
		       argv[2], argv[3], r.n, r.nrecv, r.phase, r.bound,
		       (double)r.phase / r.bound, r.legacy, r.ns / 1e3, r.ns_legacy / 1e3,
		       r.ns / r.ns_legacy, cpu);
		return 0;
	}
	if (argc != 1) {
		fprintf(stderr, "usage: sched_scale_bench [FAMILY SIZE INDEX | --once FAMILY SIZE]\n");
		return 2;
	}
	printf("scheduler build time by size (bench/sched_scale.h, fixed seeds; the thread's CPU "
	       "time), every phase verified by the simulator; CPU: %s\n", cpu);
	printf("%-6s %4s %4s %9s %9s  %10s %10s  %-16s  %-12s\n", "family", "size", "sets",
	       "transfers", "receivers", "build us", "legacy us", "x legacy med/max",
	       "phase/bound");
	for (int f = 0; f < SCALE_NFAMILIES; f++) {
		for (int z = 0; z < SCALE_NSIZES; z++) {
			double us[8], lus[8], ratio[8], pb = 0;
			size_t nx = 0, nr = 0, k = 0;

			for (uint32_t i = 0; i < scale_nsets[z]; i++) {
				struct bench_set r;

				if (one(f, scale_size[z], i, &r)) {
					rc = 1;
					continue;
				}
				us[k] = r.ns / 1e3;
				lus[k] = r.ns_legacy / 1e3;
				ratio[k] = r.ns / r.ns_legacy;
				pb += (double)r.phase / r.bound;
				nx += r.n;
				nr += r.nrecv;
				k++;
			}
			if (!k)
				continue;
			printf("%-6s %3ux %4zu %9.0f %9.0f  %10.1f %10.1f  %7.2f %7.2f   %.3f\n",
			       scale_family_name[f], scale_size[z], k, (double)nx / k,
			       (double)nr / k, bench_median(us, k), bench_median(lus, k),
			       bench_median(ratio, k), bench_max(ratio, k), pb / k);
		}
	}
	return rc;
}
