// SPDX-License-Identifier: GPL-2.0-only
/*
 * EXPERIMENTAL exchange-window tile writes [S "Experimental Tile SRAM
 * Writes"]: the notes' sequence, checked by TILEUPDR completion. The notes
 * could not confirm that such a write reaches a running tile's program
 * (a fresh poison test timed out), so this is exposed as experimental and
 * documented as such (docs/tracing.md, uapi).
 *
 * LASTADDR is 17 bits of 8-byte units: it can only hold the offset inside
 * the 624 KiB window, so it is compared with (addr - 0x4c000 + bytes - 1)
 * >> 3 (inferred; the notes say "BAR-relative").
 *
 * Who stores: a backend that reaches the exchange BAR (the simulator)
 * does it inside EXCH_WRITE; on a card only ipu_driver maps it
 * (/dev/ipuN_ex), so the caller stores through its own mapping between
 * EXCH_WRITE SELECT and COMPLETE, and the module does the rest.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/nospec.h>
#include <linux/uaccess.h>

#include "ipuxcom_internal.h"
#include "c600_regs.h"

#define EXCH_DEFAULT_TIMEOUT_NS	(100ULL * NSEC_PER_MSEC)
/* Logical tile ids fit the 11-bit LASTTILEID field. */
#define EXCH_MAX_TILE		FIELD_MAX(C600_TILEUPDR_TILE)

static int exch_check(struct ipuxcom_device *dev, struct ipuxcom_ioc_exch_write *ew)
{
	if (ew->tile >= dev->tile_count || ew->tile > EXCH_MAX_TILE ||
	    !IS_ALIGNED(ew->addr, 4) || !IS_ALIGNED(ew->bytes, 4) || !ew->bytes ||
	    ew->bytes > IPUXCOM_EXCH_WRITE_MAX_BYTES || ew->addr < C600_SRAM_BASE ||
	    (u64)ew->addr + ew->bytes > (u64)C600_SRAM_BASE + C600_SRAM_SIZE)
		return -EINVAL;
	/* The caller stores through /dev/ipuN_ex exactly when we cannot. */
	if (!!(ew->flags & (IPUXCOM_EXCH_F_SELECT | IPUXCOM_EXCH_F_COMPLETE)) ==
	    !!dev->ops->exch_write)
		return dev->ops->exch_write ? -EINVAL : -EOPNOTSUPP;
	if (ew->flags && ew->data)
		return -EINVAL;
	if ((ew->flags & IPUXCOM_EXCH_F_SELECT) && (ew->flags & IPUXCOM_EXCH_F_COMPLETE))
		return -EINVAL;
	return ipuxcom_require_state(dev, (u32)~IPUXCOM_STATE_BIT(NEEDS_RESET));
}

/* Write EXCHWINDOWBASER and read it back to flush the posted write. */
int ipuxcom_exch_window(struct ipuxcom_device *dev, u32 value)
{
	u32 v;
	int ret;

	ret = ipuxcom_wr(dev, C600_EXCHWINDOWBASER, value);
	if (!ret)
		ret = ipuxcom_rd(dev, C600_EXCHWINDOWBASER, &v);
	return ret;
}

/* Save EXCHWINDOWBASER, then select logical window @tile (HEXOPT clear). */
static int exch_select(struct ipuxcom_device *dev, u32 tile, u32 *saved)
{
	int ret = ipuxcom_rd(dev, C600_EXCHWINDOWBASER, saved);

	return ret ?: ipuxcom_exch_window(dev, tile);
}

/*
 * Poll TILEUPDR for the store's completion (if @stored), then put the
 * window back as found (HEXOPT for host exchange, say).
 */
static int exch_complete(struct ipuxcom_device *dev, struct ipuxcom_ioc_exch_write *ew,
			 u32 saved, bool stored)
{
	u64 timeout = ipuxcom_timeout(ew->timeout_ns, EXCH_DEFAULT_TIMEOUT_NS);
	u32 rel = ew->addr - C600_SRAM_BASE;
	u32 want = FIELD_PREP(C600_TILEUPDR_TILE, ew->tile) |
		   FIELD_PREP(C600_TILEUPDR_ADDR, (rel + ew->bytes - 1) >> 3);
	int ret = 0, r;

	if (stored)
		ret = ipuxcom_poll(dev, C600_TILEUPDR, C600_TILEUPDR_TILE | C600_TILEUPDR_ADDR,
				   want, timeout, &ew->tileupdr);
	r = ipuxcom_exch_window(dev, saved);
	return ret ?: r;
}

/*
 * On a device held through ipu_driver the caller stores through its
 * mapping of /dev/ipuN_ex between SELECT and COMPLETE.
 */
static int exch_by_caller(struct ipuxcom_device *dev, struct ipuxcom_ioc_exch_write *ew)
{
	struct ipuxcom_exch_sel *sel = &dev->exch;
	int ret, r;

	if (ew->flags & IPUXCOM_EXCH_F_SELECT) {
		/* the first SELECT's saved window is the one COMPLETE restores */
		if (sel->active)
			return -EBUSY;
		ret = exch_select(dev, ew->tile, &sel->saved);
		if (ret)
			return ret;
		sel->tile = ew->tile;
		sel->addr = ew->addr;
		sel->bytes = ew->bytes;
		sel->active = true;
		return 0;
	}
	if (!sel->active || sel->tile != ew->tile || sel->addr != ew->addr ||
	    sel->bytes != ew->bytes)
		return -EBADFD;
	sel->active = false;
	ret = 0;
	if (dev->ops->exch_stored)
		ret = dev->ops->exch_stored(dev->priv, C600_EXCH_WINDOW +
					    ew->addr - C600_SRAM_BASE, ew->bytes);
	r = exch_complete(dev, ew, sel->saved, !ret);
	return ret ?: r;
}

/*
 * -EBUSY while an EXCH_WRITE SELECT is waiting for its COMPLETE: the
 * caller is storing through the tile window it selected, so what would
 * select HEXOPT (BUF_ATTACH, HOSTX_SETUP BEGIN, LOAD_FINISH) waits for the
 * COMPLETE, which restores the window SELECT found. Under op_lock.
 */
int ipuxcom_exch_busy(struct ipuxcom_device *dev)
{
	return dev->exch.active ? -EBUSY : 0;
}

/* The data of a one-shot write, staged before any lock (core.c). */
int ipuxcom_exch_payload(void *arg, struct ipuxcom_payload *pl)
{
	struct ipuxcom_ioc_exch_write *ew = arg;

	ew->tileupdr = 0;
	if (ew->flags)
		return 0;	/* the caller stores: nothing to stage */
	if (!ew->bytes || !IS_ALIGNED(ew->bytes, 4) || ew->bytes > IPUXCOM_EXCH_WRITE_MAX_BYTES)
		return -EINVAL;
	pl->uptr = u64_to_user_ptr(ew->data);
	pl->len = ew->bytes;
	pl->copy_in = ew->bytes;
	return 0;
}

int ipuxcom_cmd_exch_write(struct ipuxcom_device *dev, void *arg, struct ipuxcom_payload *pl)
{
	struct ipuxcom_ioc_exch_write *ew = arg;
	u32 saved;
	int ret, r;

	ret = exch_check(dev, ew);
	if (ret)
		return ret;
	/* the window index reaches the backend's tile arrays (simulator) */
	ew->tile = array_index_nospec(ew->tile, dev->tile_count);
	if (ew->flags)
		return exch_by_caller(dev, ew);
	ret = ipuxcom_rd(dev, C600_EXCHWINDOWBASER, &saved);
	if (ret)
		return ret;
	ret = ipuxcom_exch_window(dev, ew->tile);
	if (!ret)
		ret = dev->ops->exch_write(dev->priv, C600_EXCH_WINDOW + ew->addr - C600_SRAM_BASE,
					   pl->kbuf, ew->bytes);
	r = exch_complete(dev, ew, saved, !ret);
	return ret ?: r;
}
