// SPDX-License-Identifier: GPL-2.0-only
/*
 * Register access, bounded waits and the device state machine, shared by
 * every mechanism. Callers hold op_lock and are inside
 * ipuxcom_device_enter(), so dev->ops is valid throughout.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/iopoll.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/sched/signal.h>

#include "ipuxcom_internal.h"
#include "c600_regs.h"

#define CREATE_TRACE_POINTS
#include "ipuxcom_trace.h"

/*
 * The total wait budget of a command (uapi IPUXCOM_CMD_TOTAL_WAIT_MAX_NS).
 * Root may lower it, e.g. for tests of the bound itself; it never rises
 * above the documented maximum.
 */
static unsigned int cmd_wait_max_ms = IPUXCOM_CMD_TOTAL_WAIT_MAX_NS / NSEC_PER_MSEC;
module_param(cmd_wait_max_ms, uint, 0644);
MODULE_PARM_DESC(cmd_wait_max_ms, "total of one command's waits, in ms (default and maximum 120000)");

u64 ipuxcom_cmd_wait_max_ns(void)
{
	return min_t(u64, (u64)READ_ONCE(cmd_wait_max_ms) * NSEC_PER_MSEC,
		     IPUXCOM_CMD_TOTAL_WAIT_MAX_NS);
}

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

/*
 * A wait reads without sleeping for up to IPUXCOM_POLL_SPIN_US first: most
 * complete within a few reads (the simulator answers a TDI or GO access on
 * its third read), and a sleep per read would cost each of the thousands of
 * TDI accesses of a tile read-back a timer tick. Then it sleeps
 * IPUXCOM_POLL_SLEEP_US between reads.
 */
#define IPUXCOM_POLL_SPIN_US	200
#define IPUXCOM_POLL_SLEEP_US	50

/*
 * One read of a wait: 0 to go on, 1 when done, or -errno to stop.
 *
 * The clock is read before the register, so a wait times out only on a
 * read begun after its deadline: a thread that loses its CPU between a
 * read and the check (a loaded host, a long interrupt) reads once more
 * instead of reporting a timeout the device may long have answered.
 */
static int ipuxcom_poll_once(struct ipuxcom_device *dev, u32 offset, u32 mask, u32 value,
			     bool equal, u64 deadline, u32 *last)
{
	u64 now = ktime_get_ns();
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
	 * signals 44-49 throughout a load (HW-SIGNALS), so an unrelated or
	 * driver signal must not cost it.
	 */
	if (fatal_signal_pending(current))
		return -EINTR;
	if (now > deadline)
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
	u64 left_us = div_u64(deadline > start ? deadline - start : 0, NSEC_PER_USEC) + 1;
	int ret, err;

	/*
	 * Each phase's timeout is a real one, within the deadline (the last
	 * read of read_poll_timeout() comes after it); ipuxcom_poll_once()
	 * also ends the wait at the deadline, on a fatal signal and when the
	 * device is going away.
	 */
	err = read_poll_timeout(ipuxcom_poll_once, ret, ret, 0,
				min_t(u64, left_us, IPUXCOM_POLL_SPIN_US), false,
				dev, offset, mask, value, equal, deadline, last);
	if (err == -ETIMEDOUT && left_us > IPUXCOM_POLL_SPIN_US)
		err = read_poll_timeout(ipuxcom_poll_once, ret, ret, IPUXCOM_POLL_SLEEP_US,
					left_us - IPUXCOM_POLL_SPIN_US, false,
					dev, offset, mask, value, equal, deadline, last);
	if (err)
		ret = err;
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
