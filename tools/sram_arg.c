// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tile SRAM address arguments; see sram_arg.h.
 */
#include <inttypes.h>

#include <ipuxcom.h>

#include "sram_arg.h"

int cli_check_sram_addr(const struct cli_call *call, const char *arg, const char *opt,
			uint32_t addr, uint64_t bytes, bool aligned)
{
	if ((aligned && addr & 3) || addr < IPUXCOM_SRAM_BASE || addr >= IPUXCOM_SRAM_END)
		return cli_usage_err(call, "invalid address '%s'%s%s (%stile SRAM address, "
				     "0x%x..0x%x)", arg, opt ? " for " : "", opt ? opt : "",
				     aligned ? "4-byte aligned " : "", IPUXCOM_SRAM_BASE,
				     IPUXCOM_SRAM_END - (aligned ? 4 : 1));
	if (addr + bytes > IPUXCOM_SRAM_END)
		return cli_usage_err(call, "%" PRIu64 " bytes from 0x%" PRIx32 " end past tile "
				     "SRAM (0x%x)", bytes, addr, IPUXCOM_SRAM_END);
	return CLI_CONTINUE;
}
