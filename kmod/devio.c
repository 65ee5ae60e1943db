// SPDX-License-Identifier: GPL-2.0
/*
 * Register access, bounded waits and the device state machine, shared by
 * every mechanism. Callers hold op_lock and are inside
 * ipuxcom_device_enter(), so dev->ops is valid throughout.
 */
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/sched/signal.h>

#include "ipuxcom_internal.h"
#include "c600_regs.h"

#define CREATE_TRACE_POINTS
#include "ipuxcom_trace.h"

int ipuxcom_rd(struct ipuxcom_device *dev, u32 offset, u32 *value)
{
	int ret = dev->ops->bar_read(dev->priv, offset, value);

	if (!ret)
		trace_ipuxcom_bar_read(dev->id, offset, *value);
	return ret;
}

int ipuxcom_wr(struct ipuxcom_device *dev, u32 offset, u32 value)
{
	int ret = dev->ops->bar_write(dev->priv, offset, value);

	if (!ret)
		trace_ipuxcom_bar_write(dev->id, offset, value);
	return ret;
}

u64 ipuxcom_timeout(u64 requested_ns, u64 default_ns)
{
	if (!requested_ns)
		return default_ns;
	return min_t(u64, requested_ns, IPUXCOM_TIMEOUT_MAX_NS);
}

u32 ipuxcom_state(struct ipuxcom_device *dev)
{
	u32 state;

	mutex_lock(&dev->lock);
	state = dev->state;
	mutex_unlock(&dev->lock);
	return state;
}

void ipuxcom_set_state(struct ipuxcom_device *dev, u32 state)
{
	u32 old;

	mutex_lock(&dev->lock);
	old = dev->state;
	/* Only unregister moves a device to GONE, and nothing moves it back. */
	if (old != IPUXCOM_DEV_STATE_GONE)
		dev->state = state;
	mutex_unlock(&dev->lock);
	if (old != IPUXCOM_DEV_STATE_GONE && old != state)
		ipuxcom_netlink_state(dev, old, state);
}

/* -EBADFD unless the device is in one of the states of @state_mask. */
int ipuxcom_require_state(struct ipuxcom_device *dev, u32 state_mask)
{
	return BIT(ipuxcom_state(dev)) & state_mask ? 0 : -EBADFD;
}

static int ipuxcom_poll_cond(struct ipuxcom_device *dev, u32 offset, u32 mask, u32 value,
			     bool equal, u64 timeout_ns, u32 *last);

/*
 * Poll @offset until (value & @mask) == @want. Bounded by @timeout_ns and
 * ended by a fatal signal or by the device being unregistered. A wait that
 * times out or is killed leaves the hardware mid-sequence, so the device
 * is marked as needing a reset. *@last gets the last value read.
 */
int ipuxcom_poll(struct ipuxcom_device *dev, u32 offset, u32 mask, u32 want,
		 u64 timeout_ns, u32 *last)
{
	return ipuxcom_poll_cond(dev, offset, mask, want, true, timeout_ns, last);
}

/* As ipuxcom_poll(), until (value & @mask) != @unwanted. */
int ipuxcom_poll_ne(struct ipuxcom_device *dev, u32 offset, u32 mask, u32 unwanted,
		    u64 timeout_ns, u32 *last)
{
	return ipuxcom_poll_cond(dev, offset, mask, unwanted, false, timeout_ns, last);
}

static int ipuxcom_poll_cond(struct ipuxcom_device *dev, u32 offset, u32 mask, u32 value,
			     bool equal, u64 timeout_ns, u32 *last)
{
	u64 start = ktime_get_ns(), deadline = start + timeout_ns;
	unsigned int spins = 0;
	int ret;

	for (;;) {
		ret = ipuxcom_rd(dev, offset, last);
		if (ret)
			return ret;
		if (((*last & mask) == value) == equal) {
			trace_ipuxcom_wait_done(dev->id, offset, *last, 0, ktime_get_ns() - start);
			return 0;
		}
		if (READ_ONCE(dev->dying))
			return -ENODEV;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		if (ktime_get_ns() > deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		/* Most completions come within a few reads; then back off. */
		if (++spins > 32)
			usleep_range(20, 100);
		else
			cpu_relax();
	}
	trace_ipuxcom_wait_done(dev->id, offset, *last, ret, ktime_get_ns() - start);
	ipuxcom_netlink_timeout(dev, offset, *last, ret);
	ipuxcom_set_state(dev, IPUXCOM_DEV_STATE_NEEDS_RESET);
	return ret;
}

/*
 * Select HEXOPT: EXCHWINDOWBASER = 0x800, the word the hardware-proven
 * loader writes before the transport buffer is attached [RE, FACTS.md
 * "The load as run on a real C600" step 4] and the SDK before each
 * host-exchange page [S "Host Tensor Exchange"]; read back, since config
 * writes are posted [S "Experimental Tile SRAM Writes"].
 */
int ipuxcom_select_hexopt(struct ipuxcom_device *dev)
{
	u32 v;
	int ret;

	ret = ipuxcom_wr(dev, C600_EXCHWINDOWBASER, C600_EXCHWINDOW_HEXOPT);
	if (!ret)
		ret = ipuxcom_rd(dev, C600_EXCHWINDOWBASER, &v);
	return ret;
}

/*
 * -EBUSY if a mark is pending on the general-sync control @reg (MARK not
 * zero); *@mark gets MARK, *@value (if not NULL) the whole register.
 */
int ipuxcom_hsp_check_idle(struct ipuxcom_device *dev, u32 reg, u32 *mark, u32 *value)
{
	u32 v;
	int ret;

	ret = ipuxcom_rd(dev, reg, &v);
	if (ret)
		return ret;
	*mark = v & C600_HSP_MARK;
	if (value)
		*value = v;
	return *mark ? -EBUSY : 0;
}

/*
 * Post @mark on the general-sync control @reg (GS1 or GS2) and, with
 * @wait, wait for the tiles' collective response to return MARK to zero
 * [S "Secondary Loader Frames"]. Bits outside MARK are preserved.
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

	ret = ipuxcom_hsp_check_idle(dev, reg, final_mark, &v);
	if (ret)
		return ret;
	trace_ipuxcom_hsp_mark(dev->id, reg, mark, wait);
	ret = ipuxcom_wr(dev, reg, (v & ~C600_HSP_MARK) | (mark & C600_HSP_MARK));
	if (ret)
		return ret;
	if (wait)
		ret = ipuxcom_poll(dev, reg, C600_HSP_MARK, 0, timeout_ns, &v);
	else
		ret = ipuxcom_rd(dev, reg, &v);
	*final_mark = v & C600_HSP_MARK;
	return ret;
}
