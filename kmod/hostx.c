// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tensor exchange [S "Host Tensor Exchange"]: host pages shared with
 * the running device and the GS2 phase handoffs of named calls.
 *
 * After the start mark the SDK restores the operational controls (done by
 * LOAD_FINISH here), selects HEXOPT, detaches the loader buffer (also
 * LOAD_FINISH), posts GS1 mark 1, waits for the preloaded GS2 mark to reach
 * zero, attaches page 1 then page 0 reselecting HEXOPT before each (page i
 * at ipu_driver index i, HW-BUF-INDEX;
 * BEGIN refuses while the loader's buffer still holds index 0), and
 * posts one GS2 load-completion mark; the first host call waits for that
 * mark to return to zero. HOSTX_SETUP BEGIN, the caller's BUF_ATTACHes and
 * HOSTX_SETUP COMMIT do exactly that with the pages and attach order of a
 * host-sync manifest; the pages are the caller's memory (hostbuf.c).
 *
 * "Select HEXOPT" is EXCHWINDOWBASER = 0x800 with a read back
 * (ipuxcom_select_hexopt(), HW-LOAD step 9).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/string.h>

#include "ipuxcom_internal.h"
#include "c600_regs.h"

static int hostx_check_setup(struct ipuxcom_ioc_hostx_setup *hs)
{
	u32 seen = 0, i;

	if (hs->reserved || hs->reserved2 || !hs->npages ||
	    hs->npages > IPUXCOM_HOSTX_MAX_PAGES)
		return -EINVAL;
	for (i = 0; i < IPUXCOM_HOSTX_MAX_PAGES; i++) {
		if (i >= hs->npages) {
			/* unused entries must be zero, like reserved members */
			if (hs->page_bytes[i] || hs->attach_order[i])
				return -EINVAL;
			continue;
		}
		if (!hs->page_bytes[i] || !PAGE_ALIGNED(hs->page_bytes[i]) ||
		    hs->page_bytes[i] > IPUXCOM_HOSTX_MAX_PAGE_BYTES ||
		    hs->attach_order[i] >= hs->npages || seen & BIT(hs->attach_order[i]))
			return -EINVAL;
		seen |= BIT(hs->attach_order[i]);
	}
	return 0;
}

/* COMMIT repeats BEGIN's request: pages, sizes and attach order. */
static bool hostx_same_request(const struct ipuxcom_ioc_hostx_setup *a,
			       const struct ipuxcom_ioc_hostx_setup *b)
{
	return a->npages == b->npages &&
	       !memcmp(a->page_bytes, b->page_bytes, sizeof(a->page_bytes)) &&
	       !memcmp(a->attach_order, b->attach_order, sizeof(a->attach_order));
}

/* The transition is half done: only a reset gets back. */
static int hostx_fail(struct ipuxcom_device *dev, int ret)
{
	ipuxcom_set_state(dev, IPUXCOM_DEV_STATE_NEEDS_RESET);
	ipuxcom_buf_release_all(dev);
	return ret;
}

/*
 * BEGIN: select HEXOPT, post GS1 mark 1, wait for the preloaded GS2 mark
 * to reach zero. The caller then attaches the pages (BUF_ATTACH selects
 * HEXOPT before each, hostbuf.c) and COMMITs.
 */
static int hostx_begin(struct ipuxcom_device *dev, struct ipuxcom_ioc_hostx_setup *hs)
{
	u64 timeout = ipuxcom_timeout(hs->timeout_ns, C600_HSP_WAIT_NS);
	int ret;

	/* it selects HEXOPT: not under the caller's exchange-window stores */
	ret = ipuxcom_exch_busy(dev);
	if (ret)
		return ret;
	if (dev->hostx_stage != IPUXCOM_HOSTX_NONE)
		return -EEXIST;
	ret = ipuxcom_require_state(dev, IPUXCOM_STATE_BIT(RUNNING));
	if (ret)
		return ret;
	/*
	 * Host page 0 takes index 0: the loader's buffer must be gone first
	 * (HW-LOAD steps 8-9).
	 */
	if (ipuxcom_buf(dev, IPUXCOM_SLOT_LOADER))
		return -EBUSY;
	ret = ipuxcom_select_hexopt(dev);
	if (!ret)
		ret = ipuxcom_hsp_mark(dev, C600_HSP_GS1, 1, false, 0, &hs->mark);
	if (!ret)
		ret = ipuxcom_poll(dev, C600_HSP_GS2, C600_HSP_MARK, 0, timeout, &hs->mark);
	hs->mark &= C600_HSP_MARK;
	if (ret)
		return hostx_fail(dev, ret);
	dev->hostx_req = *hs;
	dev->hostx_next = 0;
	dev->hostx_stage = IPUXCOM_HOSTX_ATTACHING;
	return 0;
}

/* COMMIT: every page attached as BEGIN said; post the GS2 completion mark. */
static int hostx_commit(struct ipuxcom_device *dev, struct ipuxcom_ioc_hostx_setup *hs)
{
	u32 i;
	int ret;

	if (dev->hostx_stage != IPUXCOM_HOSTX_ATTACHING)
		return -EBADFD;
	if (!hostx_same_request(hs, &dev->hostx_req))
		return -EINVAL;
	for (i = 0; i < hs->npages; i++)
		if (!ipuxcom_buf(dev, IPUXCOM_SLOT_HOSTX(i)))
			return -ENOBUFS;
	ret = ipuxcom_hsp_mark(dev, C600_HSP_GS2, 1, false, 0, &hs->mark);
	hs->mark &= C600_HSP_MARK;
	if (ret)
		return hostx_fail(dev, ret);
	dev->hostx_stage = IPUXCOM_HOSTX_READY;
	return 0;
}

int ipuxcom_cmd_hostx_setup(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_hostx_setup *hs = arg;
	u32 stage = hs->flags & (IPUXCOM_HOSTX_F_BEGIN | IPUXCOM_HOSTX_F_COMMIT);
	int ret;

	hs->mark = 0;
	ret = hostx_check_setup(hs);
	if (ret)
		return ret;
	if (stage == IPUXCOM_HOSTX_F_BEGIN)
		return hostx_begin(dev, hs);
	if (stage == IPUXCOM_HOSTX_F_COMMIT)
		return hostx_commit(dev, hs);
	return -EINVAL;		/* neither or both */
}

int ipuxcom_cmd_hostx_call(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_hostx_call *hc = arg;
	u64 timeout = ipuxcom_timeout(hc->timeout_ns, C600_HSP_WAIT_NS);
	int ret;

	hc->done = 0;
	hc->mark = 0;
	if (hc->reserved || !hc->phases || hc->phases > C600_HSP_MARK)
		return -EINVAL;
	ret = ipuxcom_require_state(dev, IPUXCOM_STATE_BIT(RUNNING));
	if (ret)
		return ret;
	if (dev->hostx_stage != IPUXCOM_HOSTX_READY)
		return -ENOBUFS;
	/* The previous handoff (or the load-completion mark) must be back to zero. */
	ret = ipuxcom_poll(dev, C600_HSP_GS2, C600_HSP_MARK, 0, timeout, &hc->mark);
	while (!ret && hc->done < hc->phases) {
		ret = ipuxcom_hsp_mark(dev, C600_HSP_GS2, 1, true, timeout, &hc->mark);
		if (!ret)
			hc->done++;
	}
	hc->mark &= C600_HSP_MARK;
	return ret;
}
