// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Demo: the notes' all-tile parallel sum [S "All-Tile Parallel Sum"], run
 * in the exchange simulator with the tile compute modelled in C.
 *
 * Logical tile t holds t + 1 (at IXC_SUM_VALUE). Round k = 1..11 is one
 * exchange phase: every logical t with t % 2^k == 2^(k-1) sends its value
 * to t - 2^(k-1) with a one-word point-to-point plan from ipuxcom_plan_p2p()
 * (JDLSend: A7 = the value; JDLRecv: patched with the sender, A4 = the
 * receive slot); every other tile runs the non-participation row. After
 * the phase each receiver adds the word it received (the modelled compute).
 * Round 1 is 736 transfers in one simultaneous launch [S]; after round 11
 * logical tile 0 holds 1472 * 1473 / 2 = 1084128 [S].
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "xsim_internal.h"

#define IXC_SUM_VALUE	0x50000u	/* the tile's running value */
#define IXC_SUM_RECV	0x50010u	/* where a round's word lands */

int ipuxcom_demo_sum(const struct ipuxcom_timing *tm, struct ipuxcom_demo_sum *out,
		     struct ipuxcom_plan_error *err)
{
	return ipuxcom_demo_sum_watch(tm, NULL, out, err);
}

static int ixc_demo_sum(const struct ipuxcom_timing *tm, const struct ipuxcom_demo_watch *watch,
			struct ipuxcom_demo_sum *out, struct ipuxcom_plan_error *err);

int ipuxcom_demo_sum_watch(const struct ipuxcom_timing *tm, const struct ipuxcom_demo_watch *watch,
			   struct ipuxcom_demo_sum *out, struct ipuxcom_plan_error *err)
{
	struct ipuxcom_demo_sum sum;
	int ret;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	if ((ret = ixc_sized_out_check(out, IPUXCOM_DEMO_SUM_SIZE_MIN, "out.size",
				       "IPUXCOM_DEMO_SUM_INIT", err)))
		return ret;
	ret = ixc_demo_sum(tm, watch, &sum, err);
	if (!ret)
		ixc_struct_out(out, out->size, &sum, sizeof(sum));
	return ret;
}

static int ixc_demo_sum(const struct ipuxcom_timing *tm, const struct ipuxcom_demo_watch *watch,
			struct ipuxcom_demo_sum *out, struct ipuxcom_plan_error *err)
{
	struct ipuxcom_xsim_config cfg = { .size = sizeof(cfg), .timing = tm,
					   .flags = IPUXCOM_XSIM_ALL_TILES };
	struct ipuxcom_xsim *sim;
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_demo_watch w;
	uint32_t v, r, value;
	bool clean = true;
	int ret;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	if ((ret = ixc_demo_watch_in(watch, &w, &cfg.flags, err)))
		return ret;
	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	if ((ret = ipuxcom_xsim_create(&cfg, &sim, err)))
		return ret;
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
		v = t + 1;
		if ((ret = ipuxcom_xsim_sram_write(sim, ixc_l2p(t), IXC_SUM_VALUE, &v, 1, err)))
			goto out;
	}
	for (uint32_t k = 1; k <= IPUXCOM_DEMO_SUM_ROUNDS; k++) {
		uint32_t stride = 1u << (k - 1);

		if ((ret = ipuxcom_xsim_reset(sim, 0, err)))
			goto out;
		for (uint32_t t = stride; t < IPUXCOM_TILES; t += 2 * stride) {
			struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;

			if ((ret = ipuxcom_plan_p2p(tm, t, t - stride, 1, IPUXCOM_PLAN_LOGICAL, &p,
						    err)) ||
			    (ret = ipuxcom_xsim_add_p2p(sim, &p, IXC_SUM_VALUE, IXC_SUM_RECV, err)))
				goto out;
			out->transfers[k - 1]++;
		}
		if ((ret = ipuxcom_xsim_fill_idle(sim, err)) ||
		    (ret = ipuxcom_xsim_run(sim, &res, err)))
			goto out;
		if (w.phase) {
			char name[16];

			snprintf(name, sizeof(name), "round %u", k);
			w.phase(w.ctx, sim, &res, name);
		}
		out->events[k - 1] = res.events;
		out->errors += res.errors;
		out->notes += res.notes;
		if (res.errors || res.delivered != res.declared)
			clean = false;
		/* The receivers' compute (modelled in C): value += received word. */
		for (uint32_t t = stride; t < IPUXCOM_TILES; t += 2 * stride) {
			uint32_t d = ixc_l2p(t - stride);

			if ((ret = ipuxcom_xsim_sram_read(sim, d, IXC_SUM_RECV, &r, 1, err)) ||
			    (ret = ipuxcom_xsim_sram_read(sim, d, IXC_SUM_VALUE, &value, 1, err)))
				goto out;
			value += r;
			if ((ret = ipuxcom_xsim_sram_write(sim, d, IXC_SUM_VALUE, &value, 1, err)))
				goto out;
		}
		ixc_timing_report(ixc_timing(tm), &(uint16_t){ 0 }, out->timing_model);
	}
	if ((ret = ipuxcom_xsim_sram_read(sim, ixc_l2p(0), IXC_SUM_VALUE, &value, 1, err)))
		goto out;
	out->tiles = IPUXCOM_TILES;
	out->rounds = IPUXCOM_DEMO_SUM_ROUNDS;
	out->sum = value;
	out->expected = IPUXCOM_DEMO_SUM_EXPECTED;
	out->pass = clean && out->sum == out->expected;
	ixc_plan_ok(err);
out:
	ipuxcom_xsim_free(sim);
	return ret;
}
