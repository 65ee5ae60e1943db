// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Showing a phase (ipuxcom_xsim.h): the last run's actions, read-only
 * views of the send, mux and PIC lists the event model builds for itself,
 * so that showing a phase adds no work to a run that nobody shows; and
 * the demos' watcher flags.
 */
#include <errno.h>

#include "internal.h"
#include "xsim_internal.h"

size_t ipuxcom_xsim_nactions(const struct ipuxcom_xsim *sim)
{
	return sim && sim->ran ? sim->nsends + sim->nmux + sim->npic : 0;
}

int ipuxcom_xsim_action(const struct ipuxcom_xsim *sim, size_t i, struct ipuxcom_xsim_action *out)
{
	struct ipuxcom_xsim_action act;
	const struct ixc_xact *a;
	bool pic;

	if (!sim || !out || ixc_struct_out_check(out->size, IPUXCOM_XSIM_ACTION_SIZE_MIN))
		return -EINVAL;
	if (i >= ipuxcom_xsim_nactions(sim))
		return -ERANGE;
	if (i < sim->nsends) {
		const struct ixc_xsend *s = &sim->sends[i];

		act = (struct ipuxcom_xsim_action){
			.kind = IPUXCOM_XSIM_A_SEND, .tile = s->tile, .event = s->start,
			.words = s->n, .value = s->addr,
			.dir = s->dir | (s->wide ? IPUXCOM_SCTL_WIDE : 0u), .stream = s->stream,
			.program = s->prog, .word = s->word,
		};
		ixc_struct_out(out, out->size, &act, sizeof(act));
		return 0;
	}
	i -= sim->nsends;
	pic = i >= sim->nmux;
	a = pic ? &sim->pic[i - sim->nmux] : &sim->mux[i];
	act = (struct ipuxcom_xsim_action){
		.kind = pic ? IPUXCOM_XSIM_A_PIC : IPUXCOM_XSIM_A_MUX, .tile = a->tile,
		.event = a->event, .value = pic ? a->addr : a->value, .program = a->prog,
		.word = a->word,
	};
	ixc_struct_out(out, out->size, &act, sizeof(act));
	return 0;
}

int32_t ipuxcom_xsim_tile_end(const struct ipuxcom_xsim *sim, uint32_t tile)
{
	return sim && sim->ran && tile < IPUXCOM_TILES ? sim->tile_end[tile] : -1;
}

int ixc_demo_watch_in(const struct ipuxcom_demo_watch *watch, struct ipuxcom_demo_watch *copy,
		      uint32_t *flags, struct ipuxcom_plan_error *err)
{
	int ret;

	*copy = (struct ipuxcom_demo_watch){ .size = sizeof(*copy) };
	if (!watch)
		return 0;
	ret = ixc_struct_in(copy, sizeof(*copy), watch, watch->size, IPUXCOM_DEMO_WATCH_SIZE_MIN);
	if (ret == -E2BIG)
		return ixc_plan_fail_ret(err, IPUXCOM_PLAN_E_SIZE, ret, "watch.size",
					 "watch.size %u is bigger than this library's %zu and "
					 "sets members it does not know", watch->size,
					 sizeof(*copy));
	if (ret)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SIZE, "watch.size",
				     "watch.size %u is below %zu (set it to sizeof(struct "
				     "ipuxcom_demo_watch): IPUXCOM_DEMO_WATCH_INIT)", watch->size,
				     (size_t)IPUXCOM_DEMO_WATCH_SIZE_MIN);
	copy->size = sizeof(*copy);
	watch = copy;
	if (watch->sim_flags & ~IPUXCOM_XSIM_LOG_WRITES)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "watch.sim_flags",
				     "watch.sim_flags 0x%x has bits other than LOG_WRITES (0x%x)",
				     watch->sim_flags, IPUXCOM_XSIM_LOG_WRITES);
	*flags |= watch->sim_flags;
	return 0;
}
