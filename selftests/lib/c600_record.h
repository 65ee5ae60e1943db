/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Config-BAR offsets and words as the hardware record gives them
 * (docs/hardware-record.md: [S], [RE]), for tests that judge the module or the simulator
 * against the record. Written from the record, not from kmod/ or sim/.
 */
#ifndef IXT_C600_RECORD_H
#define IXT_C600_RECORD_H

#define REC_CCSR		0x2000
#define REC_AUTOLDCSR		0x2068
#define REC_AUTOLDTRGTR		0x206c
#define REC_AUTOLDDATAR		0x2070
#define REC_GS1			0x302c
#define REC_GS2			0x3030
#define REC_EXCHWINDOWBASER	0x3044
#define REC_DCXCR_PRI(i)	(0x5404 + (i) * 0x400)
#define REC_DCXCR_SEC(i)	(0x1b804 + (i) * 0x400)
#define REC_DCXCR_LOADING	0x07fffffau

#endif /* IXT_C600_RECORD_H */
