/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-ins for what kmod/hw/hw_regs.c uses from the kernel, so
 * that file compiles unchanged into selftests/host/hw_regs_test.c. The
 * test defines the two MMIO primitives (a fake config BAR).
 */
#ifndef HW_USER_PORT_H
#define HW_USER_PORT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/ipuxcom.h>

typedef uint8_t u8;
typedef uint32_t u32;

#define __iomem
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

u32 hw_mmio_read32(const void *addr);
void hw_mmio_write32(u32 value, void *addr);

#endif /* HW_USER_PORT_H */
