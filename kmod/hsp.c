// SPDX-License-Identifier: GPL-2.0
/*
 * HSP_MARK: post a mark on HSP general-sync group 1 or 2 of a running
 * device and optionally wait for the tiles to return it to zero
 * [S "Secondary Loader Frames", "Host Tensor Exchange"].
 */
#include <linux/time64.h>

#include "ipuxcom_internal.h"
#include "c600_regs.h"

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
