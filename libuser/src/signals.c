// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * ipuxcom_block_driver_signals(): ipu_driver sends the attached process
 * real-time signals 44-49 (FACTS.md "Device and driver"); the peer stack
 * blocks every signal in the calling thread before it opens the device
 * (FACTS.md "ipu_driver as the peer drives it": ipu-driver
 * block_device_interrupt_signals) and seed 003's loader "blocks the
 * driver's real-time interrupt signals". This library blocks exactly the
 * driver's: a library must not take SIGINT/SIGTERM or an application's own
 * signals away from it, and the module ends a wait only for a fatal signal.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>

#include "ipuxcom.h"

int ipuxcom_block_driver_signals(void)
{
	sigset_t set;
	int err;

	sigemptyset(&set);
	/* kernel signal numbers: glibc's sigaddset takes them as they are */
	for (int sig = IPUXCOM_DRIVER_SIGNAL_FIRST; sig <= IPUXCOM_DRIVER_SIGNAL_LAST; sig++)
		if (sigaddset(&set, sig))
			return -errno;
	err = pthread_sigmask(SIG_BLOCK, &set, NULL);
	return -err;
}

#include "internal.h"

/*
 * Placeholder until the process-wide guard lands (issue 31 item 4): the
 * calling thread blocks the driver's signals.
 */
void ixc_driver_signals_guard(void)
{
	(void)ipuxcom_block_driver_signals();
}
