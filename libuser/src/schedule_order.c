// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Placement orders for the default scheduler (issue 25). List scheduling
 * places transfers one by one, each as early as it can; the order decides
 * which transfer waits for which. ipuxcom_schedule_build() places the set
 * in the caller's order and then in each order below, and keeps the
 * shortest phase (docs/exchange-verifier.md "Placement orders"):
 *  1. longest route first: count + the largest write latency over the
 *     receivers (the route term of the bound, without TimeToMux);
 *  2. busiest tile first: the largest load (words sent plus words
 *     received) among the transfer's sender and receivers, then count;
 *  3. the caller's order reversed.
 */
#include <stdlib.h>
#include <string.h>

#include "xsim_internal.h"

struct ixc_okey {
	uint64_t key;
	uint32_t idx;
};

/* Does @x come before @y: the larger key first, then the lower index. */
static inline bool ixc_okey_before(const struct ixc_okey *x, const struct ixc_okey *y)
{
	return x->key != y->key ? x->key > y->key : x->idx < y->idx;
}

/*
 * @k[0..n) sorted by ixc_okey_before(), @tmp as long as @k for scratch.
 * A bottom-up merge sort with the comparison inline (issue 34: qsort()
 * with its comparison behind a pointer was a ninth of a point-to-point
 * set's build; every index is distinct, so the order is the same).
 */
static void ixc_okey_sort(struct ixc_okey *k, struct ixc_okey *tmp, size_t n)
{
	struct ixc_okey *a = k, *b = tmp;

	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, o = lo;

			while (i < mid && j < hi)
				b[o++] = ixc_okey_before(&a[j], &a[i]) ? a[j++] : a[i++];
			while (i < mid)
				b[o++] = a[i++];
			while (j < hi)
				b[o++] = a[j++];
		}
		a = a == k ? tmp : k;
		b = b == k ? tmp : k;
	}
	if (a != k)
		memcpy(k, a, n * sizeof(*k));
}

static uint32_t ixc_ophys(uint32_t id, bool logical)
{
	uint32_t p = id;

	if (ixc_tile_resolve(id, logical, &p, NULL, ""))
		return 0;
	return p;
}

bool ixc_sched_order(const struct ipuxcom_schedule_xfer *xfers, size_t n, bool logical,
		     unsigned int which, uint32_t *order)
{
	struct ixc_okey *k;
	uint32_t *load = NULL;

	if (which < 1 || which > IXC_SCHED_ORDERS || n < 2)
		return false;
	if (which == 3) {
		for (size_t i = 0; i < n; i++)
			order[i] = (uint32_t)(n - 1 - i);
		return true;
	}
	k = malloc(2 * n * sizeof(*k));	/* the keys, then the sort's scratch */
	if (which == 2)
		load = calloc(IPUXCOM_TILES, sizeof(*load));
	if (!k || (which == 2 && !load)) {
		free(k);
		free(load);
		return false;
	}
	if (which == 2) {
		for (size_t i = 0; i < n; i++) {
			load[ixc_ophys(xfers[i].sender, logical)] += xfers[i].count;
			for (uint32_t r = 0; r < xfers[i].nrecv; r++)
				load[ixc_ophys(xfers[i].receivers[r], logical)] += xfers[i].count;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct ipuxcom_schedule_xfer *x = &xfers[i];
		uint64_t v = 0;

		if (which == 1) {
			for (uint32_t r = 0; r < x->nrecv; r++) {
				uint64_t l = x->count + 2u * ixc_phys_row(ixc_ophys(x->receivers[r],
										      logical));

				v = l > v ? l : v;
			}
		} else {
			v = load[ixc_ophys(x->sender, logical)];
			for (uint32_t r = 0; r < x->nrecv; r++) {
				uint32_t l = load[ixc_ophys(x->receivers[r], logical)];

				v = l > v ? l : v;
			}
			v = v << 16 | (x->count & 0xffff);
		}
		k[i] = (struct ixc_okey){ v, (uint32_t)i };
	}
	ixc_okey_sort(k, k + n, n);
	for (size_t i = 0; i < n; i++)
		order[i] = k[i].idx;
	free(k);
	free(load);
	return true;
}
