/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * /proc/thread-self/fail-nth for the fault-injection tests (failnth_test,
 * simfault_test): fnth_fd is the calling thread's file, opened by the test
 * (open(FAILNTH_PATH, O_RDWR)); fnth_write(N) arms the N-th fault point of
 * the thread's next calls, fnth_fired() says whether it fired, and
 * fnth_counted() how many points were passed since
 * fnth_write(FNTH_COUNT_FROM). Each leaves fail-nth 0.
 */
#ifndef IXT_FAILNTH_H
#define IXT_FAILNTH_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define FAILNTH_PATH	"/proc/thread-self/fail-nth"

static int fnth_fd = -1;

/*
 * Counting: fail-nth armed with a number no call reaches, then read back:
 * what is left says how many fault points the call passed (proc's
 * fail-nth read takes the value before its own copy, and a write copies
 * before it sets the value, so neither counts itself).
 */
#define FNTH_COUNT_FROM	1000000000u

/*
 * With FAULT_INJECTION_USERCOPY (the debug kernel) every user copy is a
 * fault point too, those of reading and writing fail-nth itself included:
 * a fault still pending after the step fires in the read-back's copy
 * (EFAULT), or in the copy of a write of "0"; either way it was not
 * injected into the step, and fail-nth is 0 after it.
 */
static inline void fnth_write(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(fnth_fd, buf, (size_t)len, 0) != len && !(n == 0 && errno == EFAULT))
		abort();
}

/* Fault points passed since fnth_write(FNTH_COUNT_FROM). Leaves fail-nth 0. */
static inline unsigned int fnth_counted(void)
{
	char buf[16] = "";
	ssize_t got = pread(fnth_fd, buf, sizeof(buf) - 1, 0);
	unsigned long left;

	if (got <= 0)
		abort();
	buf[got] = '\0';
	left = strtoul(buf, NULL, 10);
	fnth_write(0);
	if (!left || left > FNTH_COUNT_FROM)
		abort();
	return FNTH_COUNT_FROM - (unsigned int)left;
}

/* Did the fault of the last fnth_write(N) fire (in the step)? Leaves fail-nth 0. */
static inline int fnth_fired(void)
{
	char buf[16] = "";
	ssize_t got = pread(fnth_fd, buf, sizeof(buf) - 1, 0);

	if (got < 0) {
		if (errno != EFAULT)
			abort();
		return 0;	/* it fired in the read-back's own copy */
	}
	buf[got] = '\0';
	if (atoi(buf) == 0)
		return 1;
	fnth_write(0);
	return 0;
}

#endif /* IXT_FAILNTH_H */
