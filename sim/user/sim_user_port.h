/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-ins for the few kernel facilities the simulator uses, so
 * the C files of sim/ compile unchanged into library tests and into the
 * QEMU C600 device (selftests/qemu/ipu_c600.c, which includes this after
 * QEMU's own headers: BIT() is then QEMU's, 1UL << n).
 */
#ifndef SIM_USER_PORT_H
#define SIM_USER_PORT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#ifndef BIT
#define BIT(n)		(1u << (n))
#endif

/*
 * Tests make the Nth allocation from now fail (counts down; 0: none
 * fails). Defined in c600_sram.c.
 */
extern unsigned int sim_user_fail_alloc;

static inline void *sim_zalloc(size_t n)
{
	if (sim_user_fail_alloc && !--sim_user_fail_alloc)
		return NULL;
	return calloc(1, n);
}

#define sim_free(p)	free(p)

#endif /* SIM_USER_PORT_H */
