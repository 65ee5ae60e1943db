// SPDX-License-Identifier: GPL-2.0-only
/*
 * Config-BAR accessors of the hardware backend; see hw_regs.h.
 *
 * Posted writes. A CPU store to a PCIe memory BAR is a posted write: the
 * CPU does not wait for it to reach the device. PCIe ordering keeps
 * posted writes from one requester in order, and a read request does not
 * pass an earlier posted write on the same path (PCIe Base Specification,
 * "Transaction Ordering Rules"), so the completion of a read of the same
 * BAR proves every earlier write has landed. The ipuxcom mechanisms
 * (devio.c ipuxcom_poll(), autoload.c, loader.c, tdi.c, hsp.c) follow
 * every write whose effect they wait for with a read of this same BAR (a
 * poll of GO, MARK or TDI_STS), which is the flush; writes between them
 * (autoloader data words, XB.DCXCR, CCSR) are ordered by the later ones.
 *
 * An explicit read-back is needed where the next step that depends on a
 * write does not travel this BAR. The notes name one such register:
 * EXCHWINDOWBASER (0x3044) selects the logical tile window that stores to
 * the *exchange* BAR go to, and the notes "read EXCHWINDOWBASER back to
 * flush the posted config write" before storing there [S "Experimental
 * Tile SRAM Writes"]. Those stores come from userspace through
 * ipu_driver's /dev/ipuN_ex, after REG_WRITE returns; so the read-back
 * happens here, before bar_write returns.
 *
 * All-ones. A read from a device that has gone (surprise removal, link
 * down, ipu_driver disabled it) completes with all bits set. A register
 * can legitimately read 0xffffffff, so an all-ones value is only an error
 * when the device also fails the presence check; from then on nothing
 * touches the BAR again.
 */
#ifdef __KERNEL__
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/kernel.h>
#endif

#include "hw_regs.h"

/* Registers read back right after every write to them (see above). */
static const u32 hw_flush_regs[] = {
	HW_REG_EXCHWINDOWBASER,
};

/* 0 for a 4-byte aligned register inside the mapping, else -EINVAL. */
int hw_regs_check(const struct hw_regs *r, u32 offset)
{
	if ((offset & 3) || r->size < 4 || offset > r->size - 4)
		return -EINVAL;
	return 0;
}

bool hw_regs_flush_after_write(u32 offset)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hw_flush_regs); i++)
		if (hw_flush_regs[i] == offset)
			return true;
	return false;
}

/* An all-ones value: did the device go away? -EIO if so, else 0. */
static int hw_regs_check_all_ones(struct hw_regs *r, u32 value)
{
	if (value != 0xffffffffu || !r->present || r->present(r->ctx))
		return 0;
	r->dead = true;
	return -EIO;
}

int hw_regs_read(struct hw_regs *r, u32 offset, u32 *value)
{
	int ret;

	*value = 0;
	ret = hw_regs_check(r, offset);
	if (ret)
		return ret;
	if (r->dead)
		return -EIO;
	*value = hw_mmio_read32((u8 __iomem *)r->base + offset);
	return hw_regs_check_all_ones(r, *value);
}

int hw_regs_write(struct hw_regs *r, u32 offset, u32 value)
{
	u8 __iomem *reg;
	int ret;

	ret = hw_regs_check(r, offset);
	if (ret)
		return ret;
	if (r->dead)
		return -EIO;
	reg = (u8 __iomem *)r->base + offset;
	hw_mmio_write32(value, reg);
	if (!hw_regs_flush_after_write(offset))
		return 0;
	/* The read-back's value is not checked: HEXOPT and other bits may differ. */
	return hw_regs_check_all_ones(r, hw_mmio_read32(reg));
}
