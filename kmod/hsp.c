// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host's side of the HSP handshakes: marks posted on general-sync
 * group 1 or 2 and waited for until the tiles return them to zero (the
 * loader's batches, host exchange and the HSP_MARK command) [S "Secondary
 * Loader Frames", "Host Tensor Exchange"], and the HEXOPT selection of the
 * exchange window that precedes a host buffer's attach.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/time64.h>

#include "ipuxcom_internal.h"
#include "c600_regs.h"
#include "ipuxcom_trace.h"

/*
 * Select HEXOPT: EXCHWINDOWBASER = 0x800, the word the hardware-proven
 * loader writes before the transport buffer is attached [RE, HW-LOAD
 * step 4] and the SDK before each
 * host-exchange page [S "Host Tensor Exchange"]; read back, since config
 * writes are posted [S "Experimental Tile SRAM Writes"].
 */
int ipuxcom_select_hexopt(struct ipuxcom_device *dev)
{
	return ipuxcom_exch_window(dev, C600_EXCHWINDOW_HEXOPT);
}

/*
 * -EBUSY if a mark is pending on the general-sync control @reg (MARK not
 * zero); *@mark gets MARK.
 */
int ipuxcom_hsp_check_idle(struct ipuxcom_device *dev, u32 reg, u32 *mark)
{
	u32 v;
	int ret;

	ret = ipuxcom_rd(dev, reg, &v);
	if (ret)
		return ret;
	*mark = v & C600_HSP_MARK;
	return *mark ? -EBUSY : 0;
}

/*
 * Post @mark on the general-sync control @reg (GS1 or GS2) and, with
 * @wait, wait for the tiles' collective response to return MARK to zero
 * [S "Secondary Loader Frames"]. The register is written with the bare
 * mark, as the hardware-proven peer writes it (write_sync_mark: the whole
 * register = mark, then read back [RE]) and as the SDK's own capture does
 * (its GS1/GS2 records are 0 and 1). MARK is bits 0-15 [S]; what the bits
 * above it are is not recorded, so nothing read from them is written back.
 *
 * A mark is never posted over a pending one: a control whose MARK is not
 * zero (a wait that has not finished, or a mark a config replay left) gives
 * -EBUSY with *@final_mark set to it, and nothing is written. Posting over
 * it would merge two transactions the tiles count separately.
 */
int ipuxcom_hsp_mark(struct ipuxcom_device *dev, u32 reg, u32 mark, bool wait,
		     u64 timeout_ns, u32 *final_mark)
{
	u32 v;
	int ret;

	ret = ipuxcom_hsp_check_idle(dev, reg, final_mark);
	if (ret)
		return ret;
	trace_ipuxcom_hsp_mark(dev->id, reg, mark, wait);
	ret = ipuxcom_wr(dev, reg, mark & C600_HSP_MARK);
	if (ret)
		return ret;
	if (wait)
		ret = ipuxcom_poll(dev, reg, C600_HSP_MARK, 0, timeout_ns, &v);
	else
		ret = ipuxcom_rd(dev, reg, &v);
	*final_mark = v & C600_HSP_MARK;
	return ret;
}

int ipuxcom_cmd_hsp_mark(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_hsp_mark *hm = arg;
	u64 timeout = ipuxcom_timeout(hm->timeout_ns, C600_HSP_WAIT_NS);
	u32 reg;
	int ret;

	hm->final_mark = 0;
	if (hm->reserved || !hm->mark || hm->mark > C600_HSP_MARK)
		return -EINVAL;
	if (hm->gs == IPUXCOM_HSP_GS1)
		reg = C600_HSP_GS1;
	else if (hm->gs == IPUXCOM_HSP_GS2)
		reg = C600_HSP_GS2;
	else
		return -EINVAL;
	ret = ipuxcom_require_state(dev, IPUXCOM_STATE_BIT(RUNNING));
	if (ret)
		return ret;
	return ipuxcom_hsp_mark(dev, reg, hm->mark, hm->flags & IPUXCOM_HSP_F_WAIT,
				timeout, &hm->final_mark);
}
