/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What this process may do to a device, as the module will judge it.
 */
#ifndef IPUXCOM_TOOLS_PRIVILEGE_H
#define IPUXCOM_TOOLS_PRIVILEGE_H

/*
 * Whether CAP_SYS_RAWIO is in this process's effective set (CapEff of
 * /proc/self/status), which everything that changes what a tile runs
 * needs (the whole load, config apply, HSP marks, TDI stores, raw
 * writes): 1 held, 0 not, -1 unknown (no procfs).
 */
int priv_has_cap_sys_rawio(void);

#endif /* IPUXCOM_TOOLS_PRIVILEGE_H */
