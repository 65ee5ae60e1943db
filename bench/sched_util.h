/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the scheduler benchmarks share (bench/sched_bench.c,
 * bench/sched_scale_bench.c): the clock, the CPU model the times were
 * taken on, a build timed as the best of some repetitions and verified in
 * the exchange simulator, the lower bound, medians.
 */
#ifndef IPUXCOM_SCHED_UTIL_H
#define IPUXCOM_SCHED_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ipuxcom_xsim.h>

static inline double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/*
 * The calling thread's CPU time: what a build costs, whatever else the
 * machine runs (issue 34: on a CPU shared with a kernel build, wall-clock
 * best-of-3 times of the same build varied 2x between runs; a build is
 * single-threaded and does no I/O, so on an idle machine its wall time
 * is this).
 */
static inline double bench_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* /proc/cpuinfo's first "model name" into @buf. */
static inline void bench_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "unknown CPU");
	while (f && fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && c) {
			c += 1 + strspn(c + 1, " \t");
			c[strcspn(c, "\n")] = 0;
			snprintf(buf, len, "%s", c);
			break;
		}
	}
	if (f)
		fclose(f);
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n values (sorts @v). */
static inline double bench_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static inline double bench_max(const double *v, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

/* Load @s into a fresh simulator and run it; 0 and @res, or an error in @e. */
static inline int bench_run(const struct ipuxcom_schedule *s, struct ipuxcom_xsim_result *res,
			    struct ipuxcom_plan_error *e)
{
	struct ipuxcom_xsim *sim;
	int ret;

	if ((ret = ipuxcom_xsim_create(NULL, &sim, e)))
		return ret;
	ret = ipuxcom_schedule_load(s, sim, 0, e);
	if (!ret)
		ret = ipuxcom_xsim_run(sim, res, e);
	ipuxcom_xsim_free(sim);
	return ret;
}

/*
 * Is @s accepted by the verifier, every transfer delivered, its length
 * the simulator's? Says why not on stderr, @what naming the set.
 */
static inline bool bench_verified(const struct ipuxcom_schedule *s, const char *what)
{
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_plan_error e;

	if (bench_run(s, &res, &e)) {
		fprintf(stderr, "%s: simulator: %s\n", what, e.msg);
		return false;
	}
	if (res.errors || res.delivered != res.declared) {
		fprintf(stderr, "%s: %u errors, %u of %u transfers delivered\n", what, res.errors,
			res.delivered, res.declared);
		return false;
	}
	if (ipuxcom_schedule_events(s) != res.events) {
		fprintf(stderr, "%s: schedule says %u events, simulator %u\n", what,
			ipuxcom_schedule_events(s), res.events);
		return false;
	}
	return true;
}

/*
 * Build @x (physical ids) with @flags, the least CPU time of @reps builds
 * in *@ns (bench_cpu_ns()); NULL on error.
 */
static inline struct ipuxcom_schedule *bench_build(const struct ipuxcom_schedule_xfer *x,
						   size_t n, uint32_t flags, int reps, double *ns,
						   const char *what)
{
	struct ipuxcom_schedule_opts o = { .size = sizeof(o),
		.flags = flags | IPUXCOM_SCHEDULE_PHYSICAL };
	struct ipuxcom_schedule *s = NULL;
	struct ipuxcom_plan_error e;

	*ns = 1e30;
	for (int r = 0; r < reps; r++) {
		double t0 = bench_cpu_ns();

		ipuxcom_schedule_free(s);
		s = NULL;
		if (ipuxcom_schedule_build(&o, x, n, &s, &e)) {
			fprintf(stderr, "%s: %s\n", what, e.msg);
			return NULL;
		}
		t0 = bench_cpu_ns() - t0;
		*ns = t0 < *ns ? t0 : *ns;
	}
	return s;
}

/* The lower bound of @x (physical ids), 0 on error. */
static inline uint32_t bench_bound(const struct ipuxcom_schedule_xfer *x, size_t n)
{
	struct ipuxcom_schedule_bound b = IPUXCOM_SCHEDULE_BOUND_INIT;
	struct ipuxcom_schedule_opts o = { .size = sizeof(o), .flags = IPUXCOM_SCHEDULE_PHYSICAL };
	struct ipuxcom_plan_error e;

	if (ipuxcom_schedule_bound(&o, x, n, &b, &e)) {
		fprintf(stderr, "bound: %s\n", e.msg);
		return 0;
	}
	return b.events;
}

/*
 * Transfer-list @text built once by the default scheduler (physical ids),
 * nothing else inside ipuxcom_schedule_build(), so that `valgrind
 * --tool=callgrind --toggle-collect=ipuxcom_schedule_build` counts the
 * build alone (the benchmarks' --once); its phase and lower bound into
 * @phase and @bound. 0, or -1 with the reason on stderr, @what naming the
 * set.
 */
static inline int bench_once(const char *text, uint32_t *phase, uint32_t *bound,
			     const char *what)
{
	struct ipuxcom_schedule_opts o = { .size = sizeof(o), .flags = IPUXCOM_SCHEDULE_PHYSICAL };
	struct ipuxcom_schedule_list *l = NULL;
	struct ipuxcom_schedule *s = NULL;
	struct ipuxcom_plan_error e;

	if (ipuxcom_schedule_list_parse(text, strlen(text), 0, &l, &e) ||
	    ipuxcom_schedule_build(&o, l->xfers, l->n, &s, &e)) {
		fprintf(stderr, "%s: %s\n", what, e.msg);
		ipuxcom_schedule_list_free(l);
		return -1;
	}
	*phase = ipuxcom_schedule_events(s);
	*bound = bench_bound(l->xfers, l->n);
	ipuxcom_schedule_free(s);
	ipuxcom_schedule_list_free(l);
	return *bound ? 0 : -1;
}

/* One set measured: default and legacy builds (verified), the bound. */
struct bench_set {
	size_t n, nrecv;
	uint32_t phase, legacy, bound;
	double ns, ns_legacy;
};

static inline int bench_measure(const struct ipuxcom_schedule_list *l, int reps,
				struct bench_set *r)
{
	struct ipuxcom_schedule *s, *lg;
	bool ok;

	memset(r, 0, sizeof(*r));
	r->n = l->n;
	for (size_t i = 0; i < l->n; i++)
		r->nrecv += l->xfers[i].nrecv;
	s = bench_build(l->xfers, l->n, 0, reps, &r->ns, "default");
	lg = bench_build(l->xfers, l->n, IPUXCOM_SCHEDULE_LEGACY, reps, &r->ns_legacy, "legacy");
	ok = s && lg && bench_verified(s, "default") && bench_verified(lg, "legacy");
	r->phase = ipuxcom_schedule_events(s);
	r->legacy = ipuxcom_schedule_events(lg);
	r->bound = bench_bound(l->xfers, l->n);
	ipuxcom_schedule_free(s);
	ipuxcom_schedule_free(lg);
	if (!ok || !r->bound || r->phase < r->bound || r->legacy < r->bound) {
		fprintf(stderr, "set: phase %u, legacy %u, bound %u\n", r->phase, r->legacy,
			r->bound);
		return -1;
	}
	return 0;
}

#endif
