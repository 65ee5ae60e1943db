// SPDX-License-Identifier: GPL-2.0
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
 */
#include <linux/bitfield.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipuxcom_internal.h"
#include "c600_regs.h"

#define EXCH_DEFAULT_TIMEOUT_NS	(100ULL * NSEC_PER_MSEC)
/* Logical tile ids fit the 11-bit LASTTILEID field. */
#define EXCH_MAX_TILE		FIELD_MAX(C600_TILEUPDR_TILE)

int ipuxcom_cmd_exch_write(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_exch_write *ew = arg;
	u64 timeout = ipuxcom_timeout(ew->timeout_ns, EXCH_DEFAULT_TIMEOUT_NS);
	u32 rel, want, saved, v;
	void *buf;
	int ret, r;

	ew->tileupdr = 0;
	if (ew->tile >= dev->tile_count || ew->tile > EXCH_MAX_TILE ||
	    !IS_ALIGNED(ew->addr, 4) || !IS_ALIGNED(ew->bytes, 4) || !ew->bytes ||
	    ew->bytes > IPUXCOM_EXCH_WRITE_MAX_BYTES || ew->addr < C600_SRAM_BASE ||
	    (u64)ew->addr + ew->bytes > (u64)C600_SRAM_BASE + C600_SRAM_SIZE)
		return -EINVAL;
	if (!dev->ops->exch_write)
		return -EOPNOTSUPP;
	ret = ipuxcom_require_state(dev, (u32)~IPUXCOM_STATE_BIT(NEEDS_RESET));
	if (ret)
		return ret;
	buf = memdup_user(u64_to_user_ptr(ew->data), ew->bytes);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	rel = ew->addr - C600_SRAM_BASE;
	want = FIELD_PREP(C600_TILEUPDR_TILE, ew->tile) |
	       FIELD_PREP(C600_TILEUPDR_ADDR, (rel + ew->bytes - 1) >> 3);
	ret = ipuxcom_rd(dev, C600_EXCHWINDOWBASER, &saved);
	if (ret)
		goto out;
	/* logical window, HEXOPT clear; read back to flush the posted write */
	ret = ipuxcom_wr(dev, C600_EXCHWINDOWBASER, ew->tile);
	if (!ret)
		ret = ipuxcom_rd(dev, C600_EXCHWINDOWBASER, &v);
	if (!ret)
		ret = dev->ops->exch_write(dev->priv, C600_EXCH_WINDOW + rel, buf, ew->bytes);
	if (!ret)
		ret = ipuxcom_poll(dev, C600_TILEUPDR, C600_TILEUPDR_TILE | C600_TILEUPDR_ADDR,
				   want, timeout, &ew->tileupdr);
	/* put the window back as found (HEXOPT for host exchange, say) */
	r = ipuxcom_wr(dev, C600_EXCHWINDOWBASER, saved);
	if (!r)
		r = ipuxcom_rd(dev, C600_EXCHWINDOWBASER, &v);
	ret = ret ?: r;
out:
	kfree(buf);
	return ret;
}
