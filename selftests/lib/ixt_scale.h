/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The test VM's slowness factor: IPUXCOM_TEST_TIMEOUT_SCALE, exported by
 * the VM's init from ipuxcom_vm.harness_scale=N (make check-debug sets
 * 10). A whole number; unset, 0, 1 or absurd (>= 1000): 1. Shared by
 * ixt_alarm.h (the harness's per-test limit) and ixt_scaled_ns()
 * (ipuxcom_test.h: a command's wait budget).
 */
#ifndef IXT_SCALE_H
#define IXT_SCALE_H

#include <stdlib.h>

static inline unsigned long ixt_timeout_scale(void)
{
	const char *s = getenv("IPUXCOM_TEST_TIMEOUT_SCALE");
	unsigned long f = s && *s ? strtoul(s, NULL, 10) : 1;

	return f > 1 && f < 1000 ? f : 1;
}

#endif /* IXT_SCALE_H */
