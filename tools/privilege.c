// SPDX-License-Identifier: GPL-2.0-only
/*
 * Capabilities of this process; see privilege.h.
 */
#include <stdio.h>

#include "privilege.h"

#define CAP_SYS_RAWIO_BIT	17	/* linux/capability.h */

int priv_has_cap_sys_rawio(void)
{
	char line[128];
	FILE *f = fopen("/proc/self/status", "r");
	unsigned long long eff;
	int held = -1;

	while (f && held < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			held = !!(eff & (1ULL << CAP_SYS_RAWIO_BIT));
	if (f)
		fclose(f);
	return held;
}
