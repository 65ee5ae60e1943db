// SPDX-License-Identifier: GPL-2.0
/*
 * Host tensor exchange [S "Host Tensor Exchange"]: host pages shared with
 * the running device and the GS2 phase handoffs of named calls.
 *
 * After the start mark the SDK restores the operational controls (done by
 * LOAD_FINISH here), selects HEXOPT, detaches the loader buffer (also
 * LOAD_FINISH), posts GS1 mark 1, waits for the preloaded GS2 mark to reach
 * zero, attaches page 1 then page 0 reselecting HEXOPT before each, and
 * posts one GS2 load-completion mark; the first host call waits for that
 * mark to return to zero. HOSTX_SETUP does exactly that with the pages and
 * attach order of a host-sync manifest.
 *
 * "Select HEXOPT" is EXCHWINDOWBASER = 0x800 with a read back
 * (ipuxcom_select_hexopt(), FACTS.md "The load as run on a real C600").
 */
#include <linux/mm.h>
#include <linux/vmalloc.h>

#include "ipuxcom_internal.h"
#include "c600_regs.h"

/* Called with the backend registered (release: entered; unregister: write lock). */
void ipuxcom_hostx_free(struct ipuxcom_device *dev)
{
	u32 i;

	mutex_lock(&dev->lock);
	for (i = 0; i < dev->hpages; i++) {
		dev->ops->buffer_detach(dev->priv, IPUXCOM_SLOT_HOSTX(i));
		dev->ops->dma_free(dev->priv, &dev->hpage[i]);
	}
	dev->hpages = 0;
	dev->hostx_ready = false;
	mutex_unlock(&dev->lock);
}

int ipuxcom_hostx_mmap(struct ipuxcom_device *dev, struct vm_area_struct *vma)
{
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u32 i;
	int ret = -ENOBUFS;

	if (off < IPUXCOM_MMAP_HOSTX_BASE || (off - IPUXCOM_MMAP_HOSTX_BASE) %
	    IPUXCOM_MMAP_HOSTX_STRIDE)
		return -EINVAL;
	i = (off - IPUXCOM_MMAP_HOSTX_BASE) / IPUXCOM_MMAP_HOSTX_STRIDE;
	mutex_lock(&dev->lock);
	if (dev->state == IPUXCOM_DEV_STATE_GONE)
		ret = -ENODEV;
	else if (i < dev->hpages)
		ret = remap_vmalloc_range(vma, dev->hpage[i].vaddr, 0);
	mutex_unlock(&dev->lock);
	return ret;
}

static int hostx_check_setup(struct ipuxcom_device *dev, struct ipuxcom_ioc_hostx_setup *hs)
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
	if (dev->hpages)
		return -EEXIST;
	return ipuxcom_require_state(dev, IPUXCOM_STATE_BIT(RUNNING));
}

int ipuxcom_cmd_hostx_setup(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_hostx_setup *hs = arg;
	u64 timeout = ipuxcom_timeout(hs->timeout_ns, C600_HSP_WAIT_NS);
	struct ipuxcom_dma_buf bufs[IPUXCOM_HOSTX_MAX_PAGES] = {};
	u32 i, n = 0;
	int ret;

	hs->mark = 0;
	ret = hostx_check_setup(dev, hs);
	if (ret)
		return ret;
	for (n = 0; n < hs->npages; n++) {
		ret = dev->ops->dma_alloc(dev->priv, hs->page_bytes[n], &bufs[n]);
		if (ret)
			goto free;
	}
	mutex_lock(&dev->lock);
	memcpy(dev->hpage, bufs, sizeof(bufs));
	dev->hpages = n;
	mutex_unlock(&dev->lock);

	ret = ipuxcom_select_hexopt(dev);
	if (!ret)
		ret = ipuxcom_hsp_mark(dev, C600_HSP_GS1, 1, false, 0, &hs->mark);
	if (!ret)
		ret = ipuxcom_poll(dev, C600_HSP_GS2, C600_HSP_MARK, 0, timeout, &hs->mark);
	for (i = 0; !ret && i < n; i++) {
		u32 page = hs->attach_order[i];

		ret = ipuxcom_select_hexopt(dev);
		if (!ret)
			ret = dev->ops->buffer_attach(dev->priv, IPUXCOM_SLOT_HOSTX(page),
						      &dev->hpage[page]);
	}
	if (!ret)
		ret = ipuxcom_hsp_mark(dev, C600_HSP_GS2, 1, false, 0, &hs->mark);
	hs->mark &= C600_HSP_MARK;
	if (ret) {
		/* the transition is half done: only a reset gets back */
		ipuxcom_set_state(dev, IPUXCOM_DEV_STATE_NEEDS_RESET);
		ipuxcom_hostx_free(dev);
		return ret;
	}
	dev->hostx_ready = true;
	return 0;
free:
	while (n--)
		dev->ops->dma_free(dev->priv, &bufs[n]);
	return ret;
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
	if (!dev->hostx_ready)
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
