// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Demo: the notes' 4x4 signed integer matrix multiply on 24 active tiles
 * [S "One-Codelet Matrix Multiply"], run in the exchange simulator with the
 * tile compute modelled in C.
 *
 * Logical tiles 0..3 own the rows of A, 4..7 the columns of B, tile
 * 8 + 4i + j computes C[i][j]. Eight multicast streams of four words: A
 * row i from tile i to the four tiles of C's row i, B column j from tile
 * 4 + j to the four tiles of C's column j, all in one exchange phase; the
 * other 1448 tiles run the non-participation row. Two exchanges are run,
 * each in a fresh simulator and each checked: the notes' own, every stream
 * from ipuxcom_plan_multicast() at a scheduleOffset of 256 * k [S] with the
 * rows of a tile overlaid, and the scheduler's packed phase
 * (ipuxcom_schedule_build()). After the phase each output tile computes
 * its four-term dot product (modelled in C) into its SRAM, read back as C.
 *
 * Inputs (derived here, not from the notes, which print only C): A is
 * small and B = A^-1 C is integral, so that C = A * B reproduces the notes'
 * C exactly; C is also checked against a direct multiplication.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "xsim_internal.h"

#define IXC_MM_OWN	0x50000u	/* A row / B column on tiles 0..7 */
#define IXC_MM_AROW	0x50100u	/* received A row on an output tile */
#define IXC_MM_BCOL	0x50200u	/* received B column */
#define IXC_MM_C	0x50300u	/* the computed element */
#define IXC_MM_STAGGER	256u		/* scheduleOffset step of the notes [S] */

static const int32_t ixc_mm_a[4][4] = {
	{ -1, 1, 0, 1 }, { -1, 3, 0, 1 }, { 1, 1, 0, 1 }, { -3, 2, 3, 1 },
};
static const int32_t ixc_mm_b[4][4] = {
	{ -8, -5, -3, -7 }, { 8, 12, 8, 12 }, { -2, -12, -5, -3 }, { -12, 7, -2, -5 },
};
/* The hardware output printed in the notes [S]. */
static const int32_t ixc_mm_notes_c[4][4] = {
	{ 4, 24, 9, 14 }, { 20, 48, 25, 38 }, { -12, 14, 3, 0 }, { 22, 10, 8, 31 },
};

struct ixc_mm {
	uint32_t recv[8][4], dst[8][4];
	struct ipuxcom_schedule_xfer x[8];
};

static void ixc_mm_transfers(struct ixc_mm *m)
{
	for (uint32_t i = 0; i < 4; i++) {
		for (uint32_t j = 0; j < 4; j++) {
			m->recv[i][j] = 8 + 4 * i + j;		/* A row i -> C row i */
			m->dst[i][j] = IXC_MM_AROW;
			m->recv[4 + j][i] = 8 + 4 * i + j;	/* B column j -> C column j */
			m->dst[4 + j][i] = IXC_MM_BCOL;
		}
	}
	for (uint32_t k = 0; k < 8; k++)
		m->x[k] = (struct ipuxcom_schedule_xfer){
			.sender = k, .count = 4, .nrecv = 4, .receivers = m->recv[k],
			.src_addr = IXC_MM_OWN, .dst_addr = m->dst[k],
		};
}

/* One exchange (@packed or the stagger) and the compute; C into @c. */
static int ixc_mm_run(const struct ipuxcom_timing *tm, bool packed, const struct ixc_mm *m,
		      const struct ipuxcom_demo_watch *watch, int32_t c[4][4], uint32_t *events,
		      struct ipuxcom_demo_matmul *out, bool *clean, struct ipuxcom_plan_error *err)
{
	struct ipuxcom_xsim_config cfg = { .size = sizeof(cfg), .timing = tm,
					   .flags = IPUXCOM_XSIM_ALL_TILES };
	struct ipuxcom_schedule_opts o = { .size = sizeof(o), .timing = tm,
					   .flags = IPUXCOM_SCHEDULE_LOGICAL };
	struct ipuxcom_schedule *s = NULL;
	struct ipuxcom_xsim_result res = IPUXCOM_XSIM_RESULT_INIT;
	struct ipuxcom_demo_watch wt;
	struct ipuxcom_xsim *sim;
	uint32_t w[4];
	int ret;

	if ((ret = ixc_demo_watch_in(watch, &wt, &cfg.flags, err)) ||
	    (ret = ipuxcom_xsim_create(&cfg, &sim, err)))
		return ret;
	for (uint32_t i = 0; i < 4; i++) {
		for (uint32_t k = 0; k < 4; k++)
			w[k] = (uint32_t)ixc_mm_a[i][k];
		if ((ret = ipuxcom_xsim_sram_write(sim, ixc_l2p(i), IXC_MM_OWN, w, 4, err)))
			goto out;
		for (uint32_t k = 0; k < 4; k++)
			w[k] = (uint32_t)ixc_mm_b[k][i];
		if ((ret = ipuxcom_xsim_sram_write(sim, ixc_l2p(4 + i), IXC_MM_OWN, w, 4, err)))
			goto out;
	}
	if (packed) {
		ret = ipuxcom_schedule_build(&o, m->x, 8, &s, err);
		if (!ret)
			ret = ipuxcom_schedule_load(s, sim, IPUXCOM_SCHEDULE_LOAD_IDLE, err);
	} else {
		ret = ipuxcom_schedule_stagger(&o, m->x, 8, IXC_MM_STAGGER, sim,
					       IPUXCOM_SCHEDULE_LOAD_IDLE, err);
	}
	if (ret || (ret = ipuxcom_xsim_run(sim, &res, err)))
		goto out;
	if (wt.phase) {
		char name[48];

		if (packed)
			snprintf(name, sizeof(name), "packed schedule");
		else
			snprintf(name, sizeof(name), "stagger (%u events per transfer)",
				 IXC_MM_STAGGER);
		wt.phase(wt.ctx, sim, &res, name);
	}
	*events = res.events;
	out->errors += res.errors;
	out->notes += res.notes;
	if (res.errors || res.delivered != res.declared || res.declared != 32)
		*clean = false;
	/* Each output tile's dot product (modelled in C). */
	for (uint32_t i = 0; i < 4; i++) {
		for (uint32_t j = 0; j < 4; j++) {
			uint32_t d = ixc_l2p(8 + 4 * i + j), arow[4], bcol[4], sum = 0;

			if ((ret = ipuxcom_xsim_sram_read(sim, d, IXC_MM_AROW, arow, 4, err)) ||
			    (ret = ipuxcom_xsim_sram_read(sim, d, IXC_MM_BCOL, bcol, 4, err)))
				goto out;
			for (uint32_t k = 0; k < 4; k++)
				sum += arow[k] * bcol[k];	/* two's complement, as the tile */
			if ((ret = ipuxcom_xsim_sram_write(sim, d, IXC_MM_C, &sum, 1, err)) ||
			    (ret = ipuxcom_xsim_sram_read(sim, d, IXC_MM_C, &sum, 1, err)))
				goto out;
			c[i][j] = (int32_t)sum;
		}
	}
	ixc_timing_report(ixc_timing(tm), &(uint16_t){ 0 }, out->timing_model);
out:
	ipuxcom_schedule_free(s);
	ipuxcom_xsim_free(sim);
	return ret;
}

int ipuxcom_demo_matmul(const struct ipuxcom_timing *tm, uint32_t flags,
			struct ipuxcom_demo_matmul *out, struct ipuxcom_plan_error *err)
{
	return ipuxcom_demo_matmul_watch(tm, flags, NULL, out, err);
}

static int ixc_demo_matmul(const struct ipuxcom_timing *tm, uint32_t flags,
			   const struct ipuxcom_demo_watch *watch, struct ipuxcom_demo_matmul *out,
			   struct ipuxcom_plan_error *err);

int ipuxcom_demo_matmul_watch(const struct ipuxcom_timing *tm, uint32_t flags,
			      const struct ipuxcom_demo_watch *watch,
			      struct ipuxcom_demo_matmul *out, struct ipuxcom_plan_error *err)
{
	struct ipuxcom_demo_matmul mm;
	int ret;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	if ((ret = ixc_sized_out_check(out, IPUXCOM_DEMO_MATMUL_SIZE_MIN, "out.size",
				       "IPUXCOM_DEMO_MATMUL_INIT", err)))
		return ret;
	ret = ixc_demo_matmul(tm, flags, watch, &mm, err);
	if (!ret)
		ixc_struct_out(out, out->size, &mm, sizeof(mm));
	return ret;
}

static int ixc_demo_matmul(const struct ipuxcom_timing *tm, uint32_t flags,
			   const struct ipuxcom_demo_watch *watch, struct ipuxcom_demo_matmul *out,
			   struct ipuxcom_plan_error *err)
{
	int32_t other[4][4];
	struct ixc_mm m;
	bool clean = true, packed;
	int ret;

	if (!out)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "out", "out is NULL");
	if (flags & ~IPUXCOM_DEMO_PACKED)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_FLAGS, "flags",
				     "flags 0x%x has unknown bits 0x%x", flags,
				     flags & ~IPUXCOM_DEMO_PACKED);
	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	packed = flags & IPUXCOM_DEMO_PACKED;
	memcpy(out->a, ixc_mm_a, sizeof(out->a));
	memcpy(out->b, ixc_mm_b, sizeof(out->b));
	for (uint32_t i = 0; i < 4; i++)
		for (uint32_t j = 0; j < 4; j++)
			for (uint32_t k = 0; k < 4; k++)
				out->expected[i][j] += ixc_mm_a[i][k] * ixc_mm_b[k][j];
	ixc_mm_transfers(&m);
	/* The exchange shown first, the other one checked as well. */
	if ((ret = ixc_mm_run(tm, packed, &m, watch, out->c, packed ? &out->packed_events :
			      &out->stagger_events, out, &clean, err)) ||
	    (ret = ixc_mm_run(tm, !packed, &m, watch, other, packed ? &out->stagger_events :
			      &out->packed_events, out, &clean, err)))
		return ret;
	out->events = packed ? out->packed_events : out->stagger_events;
	out->active_tiles = 24;
	out->streams = 8;
	out->words_per_stream = 4;
	out->matches_notes = !memcmp(out->c, ixc_mm_notes_c, sizeof(out->c));
	out->pass = clean && !memcmp(out->c, out->expected, sizeof(out->c)) &&
		    !memcmp(other, out->expected, sizeof(other));
	ixc_plan_ok(err);
	return 0;
}
