/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests that drive the software C600 (sim/c600_sim.c) directly, by
 * its config-BAR registers, as the hardware record does: register access,
 * a bounded wait, a GS1 mark handshake and the seed's autoloader sequence.
 * Include after c600_sim.h and c600_record.h.
 */
#ifndef IXT_SIM_DRIVE_H
#define IXT_SIM_DRIVE_H

#include <stdbool.h>
#include <stdint.h>

static inline uint32_t rd(struct c600_sim *sim, uint32_t off)
{
	uint32_t v = 0xdeadbeef;

	c600_sim_bar_read(sim, off, &v);
	return v;
}

static inline void wr(struct c600_sim *sim, uint32_t off, uint32_t v)
{
	c600_sim_bar_write(sim, off, v);
}

/* Poll until (reg & mask) == 0, as a bounded host wait would; true if so. */
static inline bool wait_clear(struct c600_sim *sim, uint32_t off, uint32_t mask)
{
	for (int i = 0; i < 1000; i++)
		if (!(rd(sim, off) & mask))
			return true;
	return false;
}

/* GS1 mark @m, read back as the peer does, then wait for MARK 0. */
static inline bool mark(struct c600_sim *sim, uint32_t m)
{
	wr(sim, REC_GS1, m);
	rd(sim, REC_GS1);
	return wait_clear(sim, REC_GS1, 0xffff);
}

/* The seed's 948-byte bootloader padded to 1 KiB, and its exact words. */
static inline bool autoload_as_recorded(struct c600_sim *sim)
{
	wr(sim, REC_AUTOLDCSR, 0);
	for (uint32_t i = 0; i < 256; i++) {
		wr(sim, REC_AUTOLDDATAR, i < 237 ? 0x1000u + i : 0);
		if ((i + 1) % 32 == 0)
			rd(sim, REC_AUTOLDCSR);
	}
	wr(sim, REC_AUTOLDTRGTR, 0x02000400);
	wr(sim, REC_AUTOLDCSR, 0x0010013f);
	if (!wait_clear(sim, REC_AUTOLDCSR, 1u << 8))
		return false;
	wr(sim, REC_AUTOLDTRGTR, 0x0209c001);
	wr(sim, REC_AUTOLDCSR, 0x000b7f3f);
	return wait_clear(sim, REC_AUTOLDCSR, 1u << 8);
}

#endif /* IXT_SIM_DRIVE_H */
