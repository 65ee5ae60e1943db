/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Force-included into every device test binary (the Makefile's -include):
 * the kselftest harness bounds each test case with alarm(timeout), 30 s by
 * default. On a slow kernel (the debug lane's KASAN kernel in TCG runs the
 * tests 5 to 20 times slower) that limit would fire on tests that are only
 * slow, so alarm() multiplies its argument by IPUXCOM_TEST_TIMEOUT_SCALE
 * (a whole number; unset or 1: unchanged). The VM's init exports it from
 * the kernel parameter ipuxcom_vm.harness_scale=N (make check-debug sets
 * it).
 */
#ifndef IXT_ALARM_H
#define IXT_ALARM_H

#include <sys/syscall.h>
#include <unistd.h>

#include "ixt_scale.h"

unsigned int alarm(unsigned int seconds)
{
	return (unsigned int)syscall(SYS_alarm, seconds * (unsigned int)ixt_timeout_scale());
}

#endif /* IXT_ALARM_H */
