// SPDX-License-Identifier: GPL-2.0
/*
 * Register access, bounded waits and the device state machine, shared by
 * every mechanism. Callers hold op_lock and are inside
 * ipuxcom_device_enter(), so dev->ops is valid throughout.
 */
#include <linux/delay.h>
#include <linux/iopoll.h>
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
 * by what is left of the command's total budget (ipuxcom_cmd_wait_max_ns()),
 * and ended by a fatal signal or by the device being unregistered. A wait that
 * times out or is interrupted leaves the hardware mid-sequence, so the
 * device is marked as needing a reset. *@last gets the last value read.
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

/* Reads that spin before the wait starts sleeping (completions are quick). */
#define IPUXCOM_POLL_SPINS	32
/* Sleep between reads once spinning did not do (read_poll_timeout). */
#define IPUXCOM_POLL_SLEEP_US	50

/* One read of a wait: 0 to go on, 1 when done, or -errno to stop. */
static int ipuxcom_poll_once(struct ipuxcom_device *dev, u32 offset, u32 mask, u32 value,
			     bool equal, u64 deadline, u32 *last)
{
	int ret = ipuxcom_rd(dev, offset, last);

	if (ret)
		return ret;
	if (((*last & mask) == value) == equal)
		return 1;
	if (READ_ONCE(dev->dying))
		return -ENODEV;
	/*
	 * Only a fatal signal ends a wait: a sequence half done cannot be
	 * restarted, and ipu_driver sends the attached process real-time
	 * signals 44-49 throughout a load (FACTS.md "ipu_driver as the peer
	 * drives it"), so an unrelated or driver signal must not cost it.
	 */
	if (fatal_signal_pending(current))
		return -EINTR;
	if (ktime_get_ns() > deadline)
		return -ETIMEDOUT;
	return 0;
}

static int ipuxcom_poll_cond(struct ipuxcom_device *dev, u32 offset, u32 mask, u32 value,
			     bool equal, u64 timeout_ns, u32 *last)
{
	u64 start = ktime_get_ns();
	/* each wait within its timeout, all of a command's within its budget */
	u64 deadline = dev->cmd_deadline ? min(start + timeout_ns, dev->cmd_deadline) :
			start + timeout_ns;
	unsigned int spins = 0;
	int ret, err;

	do {
		ret = ipuxcom_poll_once(dev, offset, mask, value, equal, deadline, last);
		cpu_relax();
	} while (!ret && ++spins < IPUXCOM_POLL_SPINS);
	if (!ret) {
		err = read_poll_timeout(ipuxcom_poll_once, ret, ret, IPUXCOM_POLL_SLEEP_US, 0,
					false, dev, offset, mask, value, equal, deadline, last);
		if (err)	/* cannot happen without a timeout; keep it honest */
			ret = err;
	}
	if (ret == 1) {
		trace_ipuxcom_wait_done(dev->id, offset, *last, 0, ktime_get_ns() - start);
		return 0;
	}
	if (ret == -ENODEV || (ret != -ETIMEDOUT && ret != -EINTR))
		return ret;
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
