/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Config-BAR registers and tile facts as the simulator knows them, written
 * from the hardware record (docs/hardware-record.md). Deliberately not
 * shared with the module: the module and the model are written separately
 * from the same notes, so a misread register in one is caught by the other.
 */
#ifndef C600_SIM_REGS_H
#define C600_SIM_REGS_H

/* PCI_COMPLEX.CCSR: NOSNOOP bit 1, ELINKECRCEN bit 10 [RE]. */
#define SIM_CCSR			0x2000
#define SIM_CCSR_NOSNOOP		BIT(1)
#define SIM_CCSR_ELINKECRCEN		BIT(10)

/* Hardware autoloader, GO bit 8 [S "Direct Attach And Autoloader"]. */
#define SIM_AUTOLDCSR			0x2068
#define SIM_AUTOLDTRGTR			0x206c
#define SIM_AUTOLDDATAR			0x2070
#define SIM_AUTOLD_GO			BIT(8)

/*
 * The notes' sequence for the 948-byte bootloader padded to 1 KiB [S]:
 *   TRGTR = 0x02000400, CSR = 0x0010013f  (stage the 256 data words)
 *   TRGTR = 0x0209c001, CSR = 0x000b7f3f  (deliver to every tile)
 * The peer's named fields, which give those words at 1 KiB [RE
 * install_bootloader; HW-AUTOLOAD-FIELDS;
 * hardware-checked only at 1 KiB]: TRGTR = zone 32<<20 | address<<10 |
 * KiB in the low bits; CSR = DATA_PRESENT 1<<20 | GO 1<<8 | load pointer
 * (bytes/4 - 1) & 0x3f; the first transaction has address = KiB and low
 * bits 0, the second address = 624 (tile memory in KiB) with the KiB in
 * the low bits and CSR (tiles - 1)<<9 | GO | load pointer. What a
 * transaction does beyond that (stage, then copy to tiles 0..tiles-1 at
 * the SRAM base) is modelled.
 */
#define SIM_AUTOLD_TRGTR_ZONE		(32u << 20)
#define SIM_AUTOLD_TRGTR_ADDR_SHIFT	10
#define SIM_AUTOLD_TRGTR_FIELD_MASK	0x3ffu
#define SIM_AUTOLD_TILE_MEM_KIB		624u
#define SIM_AUTOLD_CSR_DATA_PRESENT	BIT(20)
#define SIM_AUTOLD_CSR_TILES_SHIFT	9
#define SIM_AUTOLD_CSR_TILES_MASK	0x7ffu
#define SIM_AUTOLD_CSR_LOAD_PTR_MASK	0x3fu
#define SIM_AUTOLD_MAX_BYTES		4096

/* HSP general-sync controls, MARK bits 0-15 [S]. */
#define SIM_HSP_GS1			0x302c
#define SIM_HSP_GS2			0x3030
#define SIM_HSP_MARK_MASK		0xffffu

/* Exchange window and tile-update status [S "Experimental Tile SRAM Writes"]. */
#define SIM_EXCHWINDOWBASER		0x3044
#define SIM_EXCHWINDOW_HEXOPT		BIT(11)
#define SIM_EXCHWINDOW_TILE_MASK	0x7ffu	/* logical tile (modelled width) */
#define SIM_TILEUPDR			0x3054
#define SIM_TILEUPDR_TILE_SHIFT		17	/* LASTTILEID[27:17] */
#define SIM_TILEUPDR_ADDR_MASK		0x1ffffu	/* LASTADDR[16:0], 8-byte units */
#define SIM_EXCH_WINDOW			0x80000	/* exchange-BAR offset of SRAM base */

/* XB.DCXCR: 8 primary at 0x5404 + i*0x400, 8 secondary at 0x1b804 + i*0x400 [RE]. */
#define SIM_DCXCR_PRIMARY		0x5404
#define SIM_DCXCR_SECONDARY		0x1b804
#define SIM_DCXCR_STRIDE		0x400
#define SIM_DCXCR_COUNT			16
/* DCXHWM=2 with request id 63 at shifts 3, 9, 15, 21: the loading value [S, RE]. */
#define SIM_DCXCR_LOADING		0x07fffffau
/*
 * DCXHWM=2 with request id 0: the operational primary value [RE]. The
 * hardware-proven peer puts the eight primaries back to it before batch 0
 * and loads [RE, HW-LOAD step 5].
 */
#define SIM_DCXCR_PRIMARY_OPERATIONAL	0x00000002u

/* TDI register r of physical tile t at 0x30000 + t*0x40 + r*4 [S]. */
#define SIM_TDI_BASE			0x30000
#define SIM_TDI_TILE_STRIDE		0x40
#define SIM_TDI_NREGS			13
enum sim_tdi_reg {
	SIM_TDI_CTXT_STS = 0,
	SIM_TDI_DBG_RBRK = 1,
	SIM_TDI_DBG_RBRK_VERT = 2,
	SIM_TDI_DBG_IEXEC = 3,
	SIM_TDI_DBG_IOWNER = 4,
	SIM_TDI_DBG_ECSR = 5,
	SIM_TDI_DBG_ECLR = 6,
	SIM_TDI_DBG_DATA = 7,
	SIM_TDI_TDI_STS = 8,
	SIM_TDI_TDI_CLR = 9,
	SIM_TDI_INCOMING_DCOUNT = 10,
	SIM_TDI_EXCHANGE_CTL = 11,
	SIM_TDI_TDI_CTL = 12,
};

/*
 * DBG_IOWNER: the context an injected instruction runs on; the peer writes
 * the context number before every injection [RE], [S] "writes the
 * instruction owner and instruction". A value naming no context (7, for
 * the iowner_per_insn knob) is modelled.
 */
#define SIM_IOWNER_NONE			7u

/* DBG_RBRK: context select bits 0-6 [S]. */
#define SIM_RBRK_CTX_MASK		0x7fu
/*
 * CTXT_STS: 2 bits per context, context c at bits 2c+1..2c; 2 or 3 is
 * stopped [RE, HW-TDI-CTXT]. 0 inactive,
 * 1 running, and 3 for a context stopped with its DBG_ECSR bit set are
 * modelled (values 0-2 are enum c600_ctx_state).
 */
#define SIM_CTXT_STS_SHIFT(c)		(2 * (c))
#define SIM_CTXT_STOPPED_EXC		3u
/*
 * DBG_ECSR / DBG_ECLR (indices 5 and 6 are recorded [S]; the peer writes
 * DBG_ECLR = 1 << context after restoring DBG_RBRK [RE]): bit c of
 * DBG_ECSR is context c's debug-exception status, set when an instruction
 * injected into c faults; writing bit c to DBG_ECLR clears it and resumes
 * context c if it is stopped with its run-break clear. DBG_ECLR reads as
 * zero (all modelled but the write of the context bit).
 */
#define SIM_DBG_EXC_CTX_MASK		0x7fu
/* TDI_STS bits [S]. */
#define SIM_TDI_STS_NOT_QUIESCENT	BIT(0)
#define SIM_TDI_STS_INVALID		BIT(1)
#define SIM_TDI_STS_DOUBLE_ISSUE	BIT(2)
#define SIM_TDI_STS_BUSY		BIT(3)

/* The injectable instructions the notes document [S, RE]; nothing else runs. */
#define SIM_INSN_GET_M0_PC		0x41000000u
#define SIM_INSN_GET_M0_DBG_DATA	0x41000070u
#define SIM_INSN_GET_M1_DBG_DATA	0x41010070u
#define SIM_INSN_LD32_M0_M15_M1		0x01f01000u
#define SIM_INSN_ST32_M0_AT_M1		0x4f10f000u
#define SIM_INSN_PUT_DBG_DATA_M0	0x43008070u
/*
 * put $DBG_DATA, $m1: INFERRED, not recorded. From put $DBG_DATA,$m0 =
 * 0x43008070 and br $mN = 0x43000000 | N<<20 [RE, HW-INSN-FIXED]: same 0x43
 * opcode, source register field at bit 20. The one unrecorded encoding
 * the read path uses (to save $m1).
 */
#define SIM_INSN_PUT_DBG_DATA_M1	0x43108070u
#define SIM_INSN_NOP			0x44f0f3f1u	/* zero $m15 */

/* Tile SRAM: from 0x4c000, 624 KiB, 16 KiB memory elements [RE]. */
#define SIM_SRAM_BASE			0x4c000u
#define SIM_SRAM_SIZE			(624u * 1024)
#define SIM_SRAM_ELEM			(16u * 1024)
#define SIM_SRAM_NELEMS			(SIM_SRAM_SIZE / SIM_SRAM_ELEM)
/* The secondary loader installs the application payload here [S, RE]. */
#define SIM_PAYLOAD_BASE		0x4c010u

/* Secondary loader transport [S "Secondary Loader Frames"]. */
#define SIM_BATCH_TILES			64
#define SIM_DESC_AREA			0x1000
#define SIM_FRAME_SIZE			1024
#define SIM_FRAME_PAYLOAD		992
#define SIM_FRAME_HDR			16
#define SIM_FRAME_TRAILER		16
#define SIM_FRAME_FINAL_FLAGS		0x08000000u	/* byte 11 = 8 */
#define SIM_MAX_FRAMES			643		/* 0x283 [RE] */
/*
 * A one-frame application is not acknowledged; [RE] pads every payload to
 * at least 0x4134 bytes, 17 frames: the least a recorded load used.
 * Counts 2..16 are not recorded; the model takes 17 as the floor.
 */
#define SIM_MIN_FRAMES			17
#define SIM_LOAD_BATCHES		23		/* 23 x 64 = 1472 */
#define SIM_START_MARK			23

#endif /* C600_SIM_REGS_H */
