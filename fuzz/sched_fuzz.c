// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: transfer lists (ipuxcom_schedule_list_parse(), what
 * `ipuxcom plan schedule FILE` reads) and the phase scheduler. A list the
 * reader accepts is built by the default scheduler and by the legacy
 * packing; every schedule built must run clean in the exchange verifier
 * (no error, every transfer delivered, the length the schedule says),
 * be no shorter than the lower bound, and the default's phase no longer
 * than legacy's. Issue 34: it is also built with IPUXCOM_SCHEDULE_QUICK,
 * which must build where the default does, run clean, and come out
 * between the default's phase and legacy's; and with a search effort
 * (opts.effort, 1 to 4096 by the input's length), which must build where
 * the default does, run clean, and come out no longer than QUICK's phase
 * nor shorter than the bound. A refusal must say why. Lists of more than
 * FUZZ_MAX_XFERS transfers or FUZZ_MAX_RECV receivers are only read: a
 * build of those takes milliseconds, and the fuzzer wants many inputs.
 */
#include <stdlib.h>
#include <string.h>

#include <ipuxcom_xsim.h>

#define FUZZ_MAX_XFERS	24
#define FUZZ_MAX_RECV	96

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The verifier's run of @s: clean and as long as @s says, or abort(). */
static void run_clean(const struct ipuxcom_schedule *s)
{
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_plan_error e;
	struct ipuxcom_xsim *sim;

	if (ipuxcom_xsim_create(NULL, &sim, &e))
		abort();
	if (ipuxcom_schedule_load(s, sim, 0, &e) || ipuxcom_xsim_run(sim, &res, &e))
		abort();
	if (res.errors || res.delivered != res.declared ||
	    res.events != ipuxcom_schedule_events(s))
		abort();
	ipuxcom_xsim_free(sim);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipuxcom_schedule_opts def = IPUXCOM_SCHEDULE_OPTS_INIT, leg, quick, eff;
	struct ipuxcom_schedule_bound b = IPUXCOM_SCHEDULE_BOUND_INIT;
	struct ipuxcom_schedule *s = NULL, *l = NULL, *q = NULL, *x = NULL;
	struct ipuxcom_schedule_list *list;
	struct ipuxcom_plan_error e;
	size_t nrecv = 0;
	int rd, rl, rq, rx;

	if (ipuxcom_schedule_list_parse((const char *)data, size, 0, &list, &e)) {
		if (!e.msg[0])
			abort();
		return 0;
	}
	for (size_t i = 0; i < list->n; i++)
		nrecv += list->xfers[i].nrecv;
	if (list->n > FUZZ_MAX_XFERS || nrecv > FUZZ_MAX_RECV) {
		ipuxcom_schedule_list_free(list);
		return 0;
	}
	def.flags = IPUXCOM_SCHEDULE_PHYSICAL;	/* the list holds physical ids */
	leg = def;
	leg.flags |= IPUXCOM_SCHEDULE_LEGACY;
	quick = def;
	quick.flags |= IPUXCOM_SCHEDULE_QUICK;
	eff = def;
	eff.effort = 1u << (size % 13);
	rd = ipuxcom_schedule_build(&def, list->xfers, list->n, &s, &e);
	if (rd && !e.msg[0])
		abort();
	rl = ipuxcom_schedule_build(&leg, list->xfers, list->n, &l, &e);
	if (rl && !e.msg[0])
		abort();
	rq = ipuxcom_schedule_build(&quick, list->xfers, list->n, &q, &e);
	if (rq && !e.msg[0])
		abort();
	rx = ipuxcom_schedule_build(&eff, list->xfers, list->n, &x, &e);
	if ((rx && !e.msg[0]) || !rx != !rd)
		abort();
	if (!rx) {
		run_clean(x);
		if (!rq && ipuxcom_schedule_events(x) > ipuxcom_schedule_events(q))
			abort();
	}
	/* the default falls back on legacy where only legacy fits; quick builds where it does */
	if ((rd && !rl) || (!rd && rq))
		abort();
	if (!rq) {
		run_clean(q);
		if ((!rd && ipuxcom_schedule_events(q) < ipuxcom_schedule_events(s)) ||
		    (!rl && ipuxcom_schedule_events(q) > ipuxcom_schedule_events(l)))
			abort();
	}
	if (!rd) {
		/* x was built too (rx == rd above): one bound for both */
		run_clean(s);
		if (ipuxcom_schedule_bound(&def, list->xfers, list->n, &b, &e) ? !e.msg[0] :
		    ipuxcom_schedule_events(s) < b.events || ipuxcom_schedule_events(x) < b.events)
			abort();
	}
	if (!rl) {
		run_clean(l);
		if (ipuxcom_schedule_events(s) > ipuxcom_schedule_events(l))
			abort();
	}
	ipuxcom_schedule_free(s);
	ipuxcom_schedule_free(l);
	ipuxcom_schedule_free(q);
	ipuxcom_schedule_free(x);
	ipuxcom_schedule_list_free(list);
	return 0;
}
