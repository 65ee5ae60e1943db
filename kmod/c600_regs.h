/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * C600 (IPU21) config-BAR registers and loader constants the module's
 * sequences use, cited by the ids of the hardware record
 * (docs/hardware-record.md: [S], [RE], [DW]). The simulator has its own
 * copy written from the same record, on purpose.
 */
#ifndef C600_REGS_H
#define C600_REGS_H

#include <linux/bits.h>
#include <linux/time64.h>

/* PCI_COMPLEX.CCSR [RE]: cleared while the secondary loaders run [S]. */
#define C600_CCSR			0x2000
#define C600_CCSR_NOSNOOP		BIT(1)
#define C600_CCSR_ELINKECRCEN		BIT(10)

/* Hardware autoloader [S "Direct Attach And Autoloader"]. */
#define C600_AUTOLDCSR			0x2068
#define C600_AUTOLDTRGTR		0x206c
#define C600_AUTOLDDATAR		0x2070
#define C600_AUTOLD_GO			BIT(8)

/* HSP general-sync controls, MARK bits 0-15 [S]. */
#define C600_HSP_GS1			0x302c
#define C600_HSP_GS2			0x3030
#define C600_HSP_MARK			GENMASK(15, 0)
/* The hardware-proven loader waits 10 s for each handshake [RE, HW-LOAD step 6]. */
#define C600_HSP_WAIT_NS		(10ULL * NSEC_PER_SEC)

/* Exchange window: logical tile, HEXOPT bit 11 [S "Experimental Tile SRAM Writes"]. */
#define C600_EXCHWINDOWBASER		0x3044
#define C600_EXCHWINDOW_HEXOPT		BIT(11)

/* TILEUPDR: LASTTILEID[27:17], LASTADDR[16:0] [S]. */
#define C600_TILEUPDR			0x3054
#define C600_TILEUPDR_TILE		GENMASK(27, 17)
#define C600_TILEUPDR_ADDR		GENMASK(16, 0)
/* Tile stores go through the exchange BAR at this window [S]. */
#define C600_EXCH_WINDOW		0x80000

/* XB.DCXCR instances [RE]: 0-7 primary, 8-15 secondary interface. */
#define C600_DCXCR_PRIMARY		0x5404
#define C600_DCXCR_SECONDARY		0x1b804
#define C600_DCXCR_STRIDE		0x400
#define C600_DCXCR_COUNT		16
/* DCXHWM = 2, request id in 6-bit fields at shifts 3, 9, 15, 21 [RE]. */
#define C600_DCXCR_HWM			2
#define C600_DCXCR_REQID_LOADING	63	/* 0x07fffffa, as in [S] */
#define C600_DCXCR_REQID_PRIMARY	0
#define C600_DCXCR_REQID_SECONDARY	1

/* TDI register r of physical tile t [S "Debug Readback Pivot"]. */
#define C600_TDI_BASE			0x30000
#define C600_TDI_TILE_STRIDE		0x40
/* DBG_RBRK: context select bits 0-6 [S]. */
#define C600_DBG_RBRK_CTX(c)		BIT(c)
/*
 * CTXT_STS: the state of context c is (CTXT_STS >> 2c) & 3, and 2 or 3
 * means stopped [RE, HW-TDI-CTXT]. 1 =
 * running and 0 = inactive are MODELLED (the record names only 2|3).
 * Inactive, the records differ: [S] "Reset-idle tiles have all seven
 * contexts inactive ...; an inactive context cannot execute an injected
 * instruction"; the hardware-proven peer injects into an inactive worker
 * context, as quiescent, to read SRAM of a loaded tile (docs/tdi.md).
 * C600_CTXT_STS_ALL: the seven contexts' fields (seven: DBG_RBRK bits 0-6 [S]).
 */
#define C600_CTXT_STS_SHIFT(c)		(2 * (c))
#define C600_CTXT_STATE(sts, c)		(((sts) >> C600_CTXT_STS_SHIFT(c)) & 3)
#define C600_CTXT_STS_ALL		GENMASK(13, 0)
#define C600_CTXT_INACTIVE		0
#define C600_CTXT_RUNNING		1
#define C600_CTXT_IS_STOPPED(state)	(((state) & 2) != 0)	/* 2 or 3 of 0..3 */
/* The peer polls up to 100 ms for a stop [RE, HW-TDI-CTXT]. */
#define C600_CTXT_STOP_WAIT_NS		(100ULL * 1000 * 1000)
/*
 * DBG_ECSR (5) / DBG_ECLR (6): indices [S]. After restoring DBG_RBRK, the
 * peer writes DBG_ECLR = the context bit (1 << context) if the context
 * was not already broken [RE, HW-TDI-CTXT]. What DBG_ECSR's bits mean is not
 * recorded.
 */
#define C600_DBG_ECLR_CTX(c)		BIT(c)

/* Injectable instructions [S, RE]. */
#define C600_INSN_GET_M0_DBG_DATA	0x41000070u
#define C600_INSN_GET_M1_DBG_DATA	0x41010070u
#define C600_INSN_LD32_M0_M15_M1	0x01f01000u
#define C600_INSN_ST32_M0_AT_M1		0x4f10f000u
#define C600_INSN_PUT_DBG_DATA_M0	0x43008070u
/*
 * put $DBG_DATA, $m1: INFERRED, not in the record. put $DBG_DATA,$m0 is
 * 0x43008070 and br $mN is 0x43000000 | N<<20 [RE, HW-INSN-FIXED]: the same
 * 0x43 opcode with the register field at bit 20 gives 0x43108070. The one
 * unrecorded encoding of the read path; it saves $m1.
 */
#define C600_INSN_PUT_DBG_DATA_M1	0x43108070u

/* Tile SRAM [RE]. */
#define C600_SRAM_BASE			0x4c000u
#define C600_SRAM_SIZE			(624u * 1024)

/* Secondary loader transport [S "Secondary Loader Frames", RE]. */
#define C600_DESC_AREA			0x1000
#define C600_DESC_ENTRY			8
#define C600_FRAME_SIZE			1024
#define C600_FRAME_PAYLOAD		992
#define C600_FRAME_TRAILER		16
#define C600_FRAME_FINAL_FLAGS		0x08000000u	/* byte 11 = 8 */
/*
 * A one-frame application is not acknowledged, and [RE] pads every payload
 * to at least 0x4134 bytes: 17 frames of 992 bytes, the least a
 * hardware-proven load has used. Counts 2..16 are not recorded either way.
 */
#define C600_MIN_FRAMES			17
#define C600_MAX_FRAMES			643	/* 0x283 [RE] */
#define C600_START_MARK			23	/* starts all 1,472 images [S] */

#endif /* C600_REGS_H */
