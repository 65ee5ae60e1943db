/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Config-BAR access of the hardware backend (ipuxcom_hw.ko): offset
 * checks, posted-write flushes and the "device fell off the bus" check,
 * as plain functions over one 32-bit MMIO read and write primitive.
 *
 * Plain C shared by the kernel backend (where the primitives are readl()
 * and writel() on the ioremap()ped BAR) and a userspace unit test
 * (selftests/host/hw_regs_test.c, where they are a fake MMIO window
 * backed by the C600 simulator). The rules below are therefore exercised
 * on the build machine, though never against a real card.
 */
#ifndef IPUXCOM_HW_REGS_H
#define IPUXCOM_HW_REGS_H

#ifdef __KERNEL__
#include <linux/io.h>
#include <linux/types.h>
#include <linux/ipuxcom.h>

static inline u32 hw_mmio_read32(const void __iomem *addr)
{
	return readl(addr);
}

static inline void hw_mmio_write32(u32 value, void __iomem *addr)
{
	writel(value, addr);
}
#else
#include "user/hw_user_port.h"
#endif

/* Graphcore's PCI vendor id [HW-PCI-VENDOR]. */
#define HW_PCI_VENDOR_GRAPHCORE		0x1d95
/*
 * The config BAR is 512 KiB: mmap(/dev/ipuN, offset 0, 0x80000) maps it
 * [RE, HW-CFG-MAP]. Which PCI BAR holds it, and at which offset, is not
 * documented (HW-OPEN-BAR): the backend maps what the holder's own mapping reaches
 * (see hw_backend.c).
 */
#define HW_CONFIG_BAR_SIZE		0x80000u
/*
 * EXCHWINDOWBASER [S "Experimental Tile SRAM Writes"] (HW-REG-EXCHWINDOW):
 * selects the logical tile window of exchange-BAR stores. The
 * notes read it back after writing it "to flush the posted config write".
 */
#define HW_REG_EXCHWINDOWBASER		0x3044u
/* C600 tiles [S, HW-TILES]. */
#define HW_C600_TILES			1472u

/*
 * What the hardware backend serves (IPUXCOM_CAP_*, DEV_QUERY reports it):
 * everything the core offers, for a card held through ipu_driver
 * (IPUXCOM_CAP_IPU_DRIVER, uapi version 4):
 *	REG, CFG, AUTOLOAD, HSP, TDI: config-BAR registers, by this backend.
 *	ATTACH, NETLINK: the core's, for every device.
 *	LOADER, HOSTX: host buffers are the caller's memory; the core pins
 *	  them (BUF_ATTACH) and the caller attaches the same pages with
 *	  ipu_driver's BUFFER_ATTACH on its /dev/ipuN.
 *	RESET: the caller's RESET_DEVICE on /dev/ipuN, then the core's RESET
 *	  with IPUXCOM_RESET_F_DRIVER_RESET.
 *	EXCH_WINDOW: the caller stores through its mapping of /dev/ipuN_ex
 *	  between EXCH_WRITE's SELECT and COMPLETE.
 * Unverified on hardware: the record shows these ipu_driver calls in a
 * hardware-proven load [RE], not this module driving them.
 */
#define HW_CAPABILITIES	(IPUXCOM_CAP_ATTACH | IPUXCOM_CAP_NETLINK |		\
			 IPUXCOM_CAP_REG | IPUXCOM_CAP_CFG |			\
			 IPUXCOM_CAP_AUTOLOAD | IPUXCOM_CAP_LOADER |		\
			 IPUXCOM_CAP_HSP | IPUXCOM_CAP_TDI |			\
			 IPUXCOM_CAP_HOSTX | IPUXCOM_CAP_RESET |		\
			 IPUXCOM_CAP_EXCH_WINDOW | IPUXCOM_CAP_IPU_DRIVER)

/**
 * struct hw_regs - one mapped config BAR
 * @base: start of the mapping
 * @size: bytes mapped (HW_CONFIG_BAR_SIZE)
 * @present: returns false once the device no longer answers (kernel:
 *	pci_device_is_present()); may be NULL (then never asked)
 * @ctx: passed to @present
 * @dead: set once @present said no: every later access fails with -EIO
 *	and touches no MMIO
 *
 * Calls on one &struct hw_regs must be serialised by the caller (the
 * ipuxcom core runs every backend register call under the device's
 * op_lock).
 */
struct hw_regs {
	void __iomem *base;
	u32 size;
	bool (*present)(void *ctx);
	void *ctx;
	bool dead;
};

int hw_regs_check(const struct hw_regs *r, u32 offset);
bool hw_regs_flush_after_write(u32 offset);
int hw_regs_read(struct hw_regs *r, u32 offset, u32 *value);
int hw_regs_write(struct hw_regs *r, u32 offset, u32 value);

#endif /* IPUXCOM_HW_REGS_H */
