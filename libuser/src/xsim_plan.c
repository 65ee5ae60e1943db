// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Loading the plans of ipuxcom_plan.h into the simulator the way the
 * notes' vertices run them [S "Runtime Vertex Behavior", "Proper
 * Multicast"]: JDLSend sets A7 to the source buffer and branches to the
 * sender row; JDLRecv patches the sender's id into the receiver row
 * (through the logical -> physical map), sets A4 to the result buffer and
 * branches to word 1; the multicast vertices use absolute addresses, already
 * in the words. Each helper also declares the transfer from what the caller
 * asked for, so that the run checks the rows against the intent rather
 * than against themselves.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "xsim_internal.h"

static int ixc_xrow_prog(struct ipuxcom_xsim *sim, const uint32_t *words, uint32_t tile,
			 uint8_t role, uint32_t base, struct ipuxcom_plan_error *err)
{
	struct ipuxcom_xsim_program p = {
		.tile = tile, .words = words, .nwords = IPUXCOM_ROW_WORDS,
	};

	switch (role) {
	case IPUXCOM_ROLE_SEND:
		p.outgoing_base = base;
		break;
	case IPUXCOM_ROLE_RECV:
		p.flags = IPUXCOM_XSIM_PROG_DATA0;
		p.incoming_base = base;
		break;
	case IPUXCOM_ROLE_IDLE:
		break;
	default:
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_WORD, "role",
				     "row role %u is not send, recv or idle", role);
	}
	return ipuxcom_xsim_add_program(sim, &p, err);
}

int ipuxcom_xsim_add_row(struct ipuxcom_xsim *sim, const struct ipuxcom_plan_row *row,
			 uint32_t base, struct ipuxcom_plan_error *err)
{
	int ret;

	if (!sim)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "sim", "sim is NULL");
	if (!row)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "row", "row is NULL");
	ret = ixc_xrow_prog(sim, row->words, row->tile, row->role, base, err);
	return ret < 0 ? ret : 0;
}

/* A receiver row patched as JDLRecv does, with the sender's logical id [S]. */
static int ixc_xpatched(const struct ipuxcom_plan_row *row, uint32_t sender,
			uint32_t words[IPUXCOM_ROW_WORDS], struct ipuxcom_plan_error *err)
{
	memcpy(words, row->words, sizeof(row->words));
	return ipuxcom_patch_recv(words, IPUXCOM_ROW_WORDS, ixc_p2l(sender), err);
}

int ipuxcom_xsim_add_p2p(struct ipuxcom_xsim *sim, const struct ipuxcom_p2p_plan *plan_in,
			 uint32_t src_addr, uint32_t dst_addr, struct ipuxcom_plan_error *err)
{
	uint32_t words[IPUXCOM_ROW_WORDS], recv, done = 0;
	struct ipuxcom_p2p_plan copy, *plan = &copy;
	struct ipuxcom_xsim_xfer x;
	int ret;

	if (!sim)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "sim", "sim is NULL");
	if (!plan_in)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "plan", "plan is NULL");
	if ((ret = ixc_sized_in(&copy, sizeof(copy), plan_in, IPUXCOM_P2P_PLAN_SIZE_MIN,
				"plan.size", "IPUXCOM_P2P_PLAN_INIT", err)))
		return ret;
	recv = plan->recv.tile;
	/*
	 * A 64-bit plan (ipuxcom_plan_p2p_wide()) carries up to 2 * 4148
	 * words: declared as consecutive parts of at most 4148 (the same
	 * words, from the same buffers).
	 */
	do {
		uint32_t part = plan->count - done, dst = dst_addr + 4 * done;

		if (part > IPUXCOM_PLAN_MAX_COUNT)
			part = IPUXCOM_PLAN_MAX_COUNT;
		x = (struct ipuxcom_xsim_xfer){
			.size = sizeof(x), .sender = plan->send.tile, .src_addr = src_addr + 4 * done, .count = part,
			.flags = IPUXCOM_PLAN_PHYSICAL, .nrecv = 1, .receivers = &recv, .dst_addr = &dst,
		};
		if ((ret = ipuxcom_xsim_declare(sim, &x, err)))
			return ret;
		done += part;
	} while (done < plan->count);
	if ((ret = ixc_xpatched(&plan->recv, plan->send.tile, words, err)))
		return ret;
	ret = ixc_xrow_prog(sim, plan->send.words, plan->send.tile, IPUXCOM_ROLE_SEND, src_addr,
			    err);
	if (ret >= 0)
		ret = ixc_xrow_prog(sim, words, recv, IPUXCOM_ROLE_RECV, dst_addr, err);
	return ret < 0 ? ret : 0;
}

/* @req (its size checked into @copy) declared; the request used is *@copy. */
static int ixc_xfan_declare(struct ipuxcom_xsim *sim, const struct ipuxcom_fanout_req *req_in,
			    struct ipuxcom_fanout_req *copy, const struct ipuxcom_plan_row *rows,
			    size_t nrows, bool multicast, uint32_t src, const uint32_t *dst,
			    struct ipuxcom_plan_error *err)
{
	const struct ipuxcom_fanout_req *req = copy;
	struct ipuxcom_xsim_xfer x;
	int ret;

	if (!sim)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "sim", "sim is NULL");
	if (!req_in)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "req", "req is NULL");
	if ((ret = ixc_req_in(req_in, copy, err)))
		return ret;
	if (multicast) {
		src = req->src_addr;
		dst = req->dst_addr;
	}
	if (!rows)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "rows", "rows is NULL");
	if (nrows < (size_t)req->nrecv + 1)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_SPACE, "nrows",
				     "nrows %zu too small: need nrecv + 1 = %u", nrows,
				     req->nrecv + 1);
	/* IPUXCOM_PLAN_WIDE chose the rows' route; the transfer means the same words. */
	x = (struct ipuxcom_xsim_xfer){
		.size = sizeof(x), .sender = req->sender, .src_addr = src, .count = req->count,
		.flags = req->flags & ~IPUXCOM_PLAN_WIDE,
		.nrecv = req->nrecv, .receivers = req->receivers, .dst_addr = dst,
	};
	return ipuxcom_xsim_declare(sim, &x, err);
}

int ipuxcom_xsim_add_multicast(struct ipuxcom_xsim *sim, const struct ipuxcom_fanout_req *req,
			       const struct ipuxcom_plan_row *rows, size_t nrows,
			       struct ipuxcom_plan_error *err)
{
	struct ipuxcom_fanout_req q;
	int ret = ixc_xfan_declare(sim, req, &q, rows, nrows, true, 0, NULL, err);

	/* Absolute addressing [S]: A7 = 0, the flagged delaypic ignores A4. */
	for (uint32_t i = 0; !ret && i <= q.nrecv; i++) {
		ret = ixc_xrow_prog(sim, rows[i].words, rows[i].tile, rows[i].role, 0, err);
		ret = ret < 0 ? ret : 0;
	}
	return ret;
}

int ipuxcom_xsim_add_serialized(struct ipuxcom_xsim *sim, const struct ipuxcom_fanout_req *req,
				const struct ipuxcom_plan_row *rows, size_t nrows,
				uint32_t src_addr, const uint32_t *dst_addr,
				struct ipuxcom_plan_error *err)
{
	uint32_t words[IPUXCOM_ROW_WORDS];
	struct ipuxcom_fanout_req q;
	int ret = ixc_xfan_declare(sim, req, &q, rows, nrows, false, src_addr, dst_addr, err);

	if (!ret)
		ret = ixc_xrow_prog(sim, rows[0].words, rows[0].tile, IPUXCOM_ROLE_SEND, src_addr,
				    err);
	for (uint32_t i = 0; ret >= 0 && i < q.nrecv; i++) {
		ret = ixc_xpatched(&rows[1 + i], rows[0].tile, words, err);
		if (!ret)
			ret = ixc_xrow_prog(sim, words, rows[1 + i].tile, IPUXCOM_ROLE_RECV,
					    dst_addr[i], err);
	}
	return ret < 0 ? ret : 0;
}

int ipuxcom_xsim_fill_idle(struct ipuxcom_xsim *sim, struct ipuxcom_plan_error *err)
{
	struct ipuxcom_plan_row row;
	int ret;

	if (!sim)
		return ixc_plan_fail(err, IPUXCOM_PLAN_E_NULL, "sim", "sim is NULL");
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
		if (sim->tile_nprogs[t])
			continue;
		if ((ret = ipuxcom_plan_idle(t, IPUXCOM_PLAN_PHYSICAL, &row, err)) ||
		    (ret = ipuxcom_xsim_add_row(sim, &row, 0, err)))
			return ret;
	}
	ixc_plan_ok(err);
	return 0;
}
