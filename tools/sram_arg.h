/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tile SRAM addresses given on the command line (tdi read/write, image
 * pack --base/--entry, image redirect --target), checked the same way
 * everywhere before anything is done: out of SRAM is a usage error.
 */
#ifndef IPUXCOM_TOOLS_SRAM_ARG_H
#define IPUXCOM_TOOLS_SRAM_ARG_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"

/*
 * @addr, parsed from argument @arg (of option @opt, NULL for a positional
 * ADDR), with @bytes from it inside tile SRAM, 4-byte aligned when
 * @aligned. Returns CLI_CONTINUE, or CLI_EXIT_USAGE after saying which.
 */
int cli_check_sram_addr(const struct cli_call *call, const char *arg, const char *opt,
			uint32_t addr, uint64_t bytes, bool aligned);

#endif /* IPUXCOM_TOOLS_SRAM_ARG_H */
