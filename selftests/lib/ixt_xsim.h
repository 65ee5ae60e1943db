/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small helpers the exchange-verifier tests share: load one tile's
 * program, and the default timing model's TimeToMux and route direction
 * (errors are the tests' to find through the results: 0 when refused).
 */
#ifndef IXT_XSIM_H
#define IXT_XSIM_H

#include <stdint.h>

#include "ipuxcom_plan.h"
#include "ipuxcom_xsim.h"

/* Tile @tile runs @w (@n words) with $m4 = @a4 (incoming), $m7 = @a7 (outgoing). */
static inline int ixt_xsim_add(struct ipuxcom_xsim *sim, uint32_t tile, const uint32_t *w,
			       uint32_t n, uint32_t a4, uint32_t a7)
{
	struct ipuxcom_xsim_program p = { .tile = tile, .words = w, .nwords = n,
					  .incoming_base = a4, .outgoing_base = a7 };

	return ipuxcom_xsim_add_program(sim, &p, NULL);
}

/* TimeToMux(@s, @d) of the default model. */
static inline int ixt_ttm(uint32_t s, uint32_t d)
{
	int t = 0;

	ipuxcom_time_to_mux(NULL, s, d, &t, NULL);
	return t;
}

/*
 * The member of the pair {@d, @d ^ 2} that takes 64-bit items from @s
 * (HW-WIDE [RE]): the smaller TimeToMux; a tie goes to
 * the lower id (modelled, the verifier's rule). Both members must differ
 * from @s. The tests' own statement of the rule, not the library's.
 */
static inline uint32_t ixt_pair_owner(uint32_t s, uint32_t d)
{
	int t = ixt_ttm(s, d), tp = ixt_ttm(s, d ^ 2);

	return tp < t || (tp == t && (d ^ 2) < d) ? d ^ 2 : d;
}

/* The route direction from @s to @d. */
static inline unsigned int ixt_dir_of(uint32_t s, uint32_t d)
{
	unsigned int dir = 0;

	ipuxcom_route_direction(NULL, s, d, &dir, NULL);
	return dir;
}

#endif /* IXT_XSIM_H */
