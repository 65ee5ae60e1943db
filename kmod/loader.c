// SPDX-License-Identifier: GPL-2.0-only
/*
 * Secondary-loader transport [S "Secondary Loader Frames"]: the transport
 * buffer (the caller's memory, pinned by BUF_ATTACH in slot 0: hostbuf.c),
 * LOAD_BATCH (check one 64-tile batch, arm the exchange-buffer controls,
 * mark-1 handshake on HSP GS1) and LOAD_FINISH (the 0xff release
 * transaction, start mark 23, then the operational controls).
 *
 * The buffer is shared with userspace while the module checks it, so the
 * checks are a diagnosis for the caller (which tile, which frame, what),
 * not a security boundary: the device only ever reads this buffer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/nospec.h>
#include <linux/string.h>

#include "compat.h"
#include "ipuxcom_internal.h"
#include "ipuxcom_trace.h"
#include "c600_regs.h"

static u32 dcxcr_offset(unsigned int i)
{
	return i < 8 ? C600_DCXCR_PRIMARY + i * C600_DCXCR_STRIDE :
		       C600_DCXCR_SECONDARY + (i - 8) * C600_DCXCR_STRIDE;
}

/* DCXHWM plus the request id in each of the four 6-bit fields [RE]. */
static u32 dcxcr_value(u32 reqid)
{
	return C600_DCXCR_HWM | reqid << 3 | reqid << 9 | reqid << 15 | reqid << 21;
}

static int dcxcr_program(struct ipuxcom_device *dev, bool loading)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < C600_DCXCR_COUNT; i++) {
		u32 id = loading ? C600_DCXCR_REQID_LOADING :
			 i < 8 ? C600_DCXCR_REQID_PRIMARY : C600_DCXCR_REQID_SECONDARY;

		ret = ipuxcom_wr(dev, dcxcr_offset(i), dcxcr_value(id));
	}
	return ret;
}

static int batch_reject(struct ipuxcom_ioc_load_batch *lb, u32 tile, u32 frame,
			enum ipuxcom_frame_error why)
{
	lb->bad_tile = tile;
	lb->bad_frame = frame;
	lb->bad_reason = why;
	return -EINVAL;
}

/*
 * Check the descriptor table and every frame header and trailer of a
 * batch. *@extent gets the end of the batch's last frame in the buffer.
 */
static int loader_check_batch(struct ipuxcom_host_buf *xbuf,
			      struct ipuxcom_ioc_load_batch *lb, u32 *frames, u64 *extent)
{
	const u8 *buf = xbuf->vaddr;
	u64 size = xbuf->size;
	u32 first = lb->batch * IPUXCOM_LOAD_BATCH_TILES;
	u32 i, k;

	*frames = 0;
	*extent = C600_DESC_AREA;
	/* Unused bytes through 0x1000 are zero [S]. */
	if (memchr_inv(buf + IPUXCOM_LOAD_BATCH_TILES * C600_DESC_ENTRY, 0,
		       C600_DESC_AREA - IPUXCOM_LOAD_BATCH_TILES * C600_DESC_ENTRY))
		return batch_reject(lb, first, 0, IPUXCOM_FRAME_ERR_DESC_TAIL);

	for (i = 0; i < IPUXCOM_LOAD_BATCH_TILES; i++) {
		u32 tile = first + i;
		u32 off = get_unaligned_le32(buf + i * C600_DESC_ENTRY);
		u32 n = get_unaligned_le32(buf + i * C600_DESC_ENTRY + 4);

		if (n < C600_MIN_FRAMES || n > C600_MAX_FRAMES)
			return batch_reject(lb, tile, 0, IPUXCOM_FRAME_ERR_DESC_COUNT);
		if (off < C600_DESC_AREA || !IS_ALIGNED(off, 4) ||
		    (u64)off + (u64)n * C600_FRAME_SIZE > size)
			return batch_reject(lb, tile, 0, IPUXCOM_FRAME_ERR_DESC_OFFSET);
		/* an offset from the caller's buffer into it: clamp speculation */
		off = array_index_nospec(off, size);
		*frames += n;
		*extent = max_t(u64, *extent, (u64)off + (u64)n * C600_FRAME_SIZE);
		for (k = 0; k < n; k++) {
			const u8 *f = buf + off + (size_t)k * C600_FRAME_SIZE;
			u32 flags = k == n - 1 ? C600_FRAME_FINAL_FLAGS : 0;

			if (get_unaligned_le32(f) != k)
				return batch_reject(lb, tile, k, IPUXCOM_FRAME_ERR_CHUNK);
			if (get_unaligned_le32(f + 4) != tile)
				return batch_reject(lb, tile, k, IPUXCOM_FRAME_ERR_TILE);
			if (get_unaligned_le32(f + 8) != flags)
				return batch_reject(lb, tile, k, IPUXCOM_FRAME_ERR_FLAGS);
			if (get_unaligned_le32(f + 12))
				return batch_reject(lb, tile, k, IPUXCOM_FRAME_ERR_RESERVED);
			if (memchr_inv(f + C600_FRAME_SIZE - C600_FRAME_TRAILER, 0xff,
				       C600_FRAME_TRAILER))
				return batch_reject(lb, tile, k, IPUXCOM_FRAME_ERR_TRAILER);
		}
	}
	return 0;
}

/*
 * Each mark must find the buffer as the SDK leaves it: zero beyond this
 * batch's descriptors and frames [S: the notes compared whole 40 MiB
 * buffers byte for byte]. Only what an earlier, larger batch or the 0xff
 * release fill of an earlier load dirtied is cleared, so a load of equal
 * batches clears nothing after its first batch.
 */
static void loader_clear_beyond(struct ipuxcom_device *dev, struct ipuxcom_host_buf *xbuf,
				u64 extent)
{
	if (dev->xbuf_dirty > extent)
		memset((u8 *)xbuf->vaddr + extent, 0, dev->xbuf_dirty - extent);
	dev->xbuf_dirty = extent;
}

/*
 * Before batch 0, in the hardware-proven order [RE, HW-LOAD
 * steps 4-5]: HEXOPT was selected and the buffer handed
 * to the device by BUF_ATTACH (and, on a card, the caller's BUFFER_ATTACH
 * right after it); now save PCI_COMPLEX.CCSR, arm all 16 XB.DCXCR with
 * request id 63, clear CCSR.NOSNOOP and ELINKECRCEN and read CCSR back. The primaries
 * stay armed, as the SDK itself programs them during secondary loading
 * [S "Debug Readback Pivot"]; the peer's reqid-0 primaries also load on
 * hardware (docs/hardware-sequence.md).
 */
static int loader_enter_loading(struct ipuxcom_device *dev)
{
	u32 v;
	int ret;

	ret = ipuxcom_rd(dev, C600_CCSR, &dev->saved_ccsr);
	if (!ret)
		ret = dcxcr_program(dev, true);
	if (!ret)
		ret = ipuxcom_wr(dev, C600_CCSR, dev->saved_ccsr &
				 ~(C600_CCSR_NOSNOOP | C600_CCSR_ELINKECRCEN));
	if (!ret)
		ret = ipuxcom_rd(dev, C600_CCSR, &v);
	return ret;
}

int ipuxcom_cmd_load_batch(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_load_batch *lb = arg;
	u64 timeout = ipuxcom_timeout(lb->timeout_ns, C600_HSP_WAIT_NS);
	struct ipuxcom_host_buf *xbuf;
	u64 extent;
	u32 frames;
	int ret;

	lb->mark = 0;
	lb->bad_tile = 0;
	lb->bad_frame = 0;
	lb->bad_reason = IPUXCOM_FRAME_ERR_OK;
	if (lb->reserved)
		return -EINVAL;
	ret = ipuxcom_require_state(dev, IPUXCOM_STATE_BIT(BOOTLOADER) |
				    IPUXCOM_STATE_BIT(LOADING));
	if (ret)
		return ret;
	if (lb->batch >= IPUXCOM_LOAD_BATCHES ||
	    (lb->batch + 1) * IPUXCOM_LOAD_BATCH_TILES > dev->tile_count)
		return -EINVAL;
	if (lb->batch != dev->next_batch)
		return -EBADFD;		/* batches go in order */
	xbuf = ipuxcom_buf(dev, IPUXCOM_SLOT_LOADER);
	if (!xbuf)
		return -ENOBUFS;
	ret = loader_check_batch(xbuf, lb, &frames, &extent);
	if (ret)
		return ret;
	/*
	 * Never post over a pending mark, e.g. one a config replay left:
	 * checked before batch 0 touches anything (ipuxcom_hsp_mark() checks
	 * again when it posts).
	 */
	ret = ipuxcom_hsp_check_idle(dev, C600_HSP_GS1, &lb->mark);
	if (ret)
		return ret;
	loader_clear_beyond(dev, xbuf, extent);
	trace_ipuxcom_load_batch(dev->id, lb->batch, frames);

	if (lb->batch == 0) {
		ret = loader_enter_loading(dev);
		if (ret)
			return ret;
	}
	ipuxcom_set_state(dev, IPUXCOM_DEV_STATE_LOADING);
	ret = ipuxcom_hsp_mark(dev, C600_HSP_GS1, 1, true, timeout, &lb->mark);
	if (ret)
		return ret;
	dev->next_batch++;
	ipuxcom_netlink_progress(dev, dev->next_batch, (u64)frames * C600_FRAME_PAYLOAD);
	return 0;
}

int ipuxcom_cmd_load_finish(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_load_finish *lf = arg;
	u64 timeout = ipuxcom_timeout(lf->timeout_ns, C600_HSP_WAIT_NS);
	struct ipuxcom_host_buf *xbuf;
	u32 v;
	int ret;

	lf->mark = 0;
	lf->stage = 0;
	/* it selects HEXOPT: not under the caller's exchange-window stores */
	ret = ipuxcom_exch_busy(dev);
	if (ret)
		return ret;
	ret = ipuxcom_require_state(dev, IPUXCOM_STATE_BIT(LOADING));
	if (ret)
		return ret;
	if (dev->next_batch != IPUXCOM_LOAD_BATCHES)
		return -EBADFD;
	xbuf = ipuxcom_buf(dev, IPUXCOM_SLOT_LOADER);
	if (!xbuf)
		return -ENOBUFS;

	/*
	 * The 24th mark-1 transaction: the loaders read 0xffffffff [S]. As
	 * the hardware-proven loader does, GS1 must be back at MARK 0 first
	 * [RE, HW-LOAD step 7].
	 */
	memset(xbuf->vaddr, 0xff, xbuf->size);
	dev->xbuf_dirty = xbuf->size;
	lf->stage = 1;
	ret = ipuxcom_poll(dev, C600_HSP_GS1, C600_HSP_MARK, 0, timeout, &lf->mark);
	if (!ret)
		ret = ipuxcom_hsp_mark(dev, C600_HSP_GS1, 1, true, timeout, &lf->mark);
	if (ret)
		return ret;
	lf->stage = 2;
	ret = ipuxcom_hsp_mark(dev, C600_HSP_GS1, C600_START_MARK, true, timeout,
			       &lf->mark);
	if (ret)
		return ret;
	lf->stage = 0;

	/*
	 * After mark 23 reaches zero the SDK restores the operational
	 * controls (request id 0 primary, 1 secondary) and CCSR, selects
	 * HEXOPT and detaches the loader buffer [S "Host Tensor Exchange"];
	 * the peer reads CCSR back [RE, HW-LOAD step 8]. The module's pin
	 * ends here; on a card the caller's BUFFER_DETACH 0 follows.
	 */
	ret = dcxcr_program(dev, false);
	if (!ret)
		ret = ipuxcom_wr(dev, C600_CCSR, dev->saved_ccsr);
	if (!ret)
		ret = ipuxcom_rd(dev, C600_CCSR, &v);
	if (!ret)
		ret = ipuxcom_select_hexopt(dev);
	if (ret)
		return ret;
	ipuxcom_buf_release(dev, IPUXCOM_SLOT_LOADER);
	ipuxcom_set_state(dev, IPUXCOM_DEV_STATE_RUNNING);
	return 0;
}
