// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * ipu_driver's real-time signals 44-49 (HW-SIGNALS),
 * which it sends the process that holds a card; unblocked and unhandled,
 * their default action kills it. Which thread the driver signals (the
 * process, so any thread not blocking them, or the thread that attached)
 * is in no record.
 *
 * ixc_driver_signals_guard(), before the library opens or is handed an
 * ipu_driver node: every one of 44-49 whose disposition is SIG_DFL
 * becomes SIG_IGN, process-wide; a handler or SIG_IGN the application set
 * is left alone. A process that opened a card then survives the driver's
 * signals whatever threads it has, including threads started before the
 * open (numpy's in Python), which no signal mask set at open time can
 * reach. An ignored signal is discarded when it is sent, unless the
 * thread it is sent to (for a process-directed signal, the one the pid
 * names: the main thread) blocks it: then it is queued and the thread
 * that takes it discards it. No handler runs, so no call fails with EINTR
 * because of it (unlike a no-op handler) -- except the few that fail with
 * EINTR even without one (epoll_wait(2)), in a thread woken to take a
 * signal that another thread blocked. The costs, in libipuxcom(3)
 * "Signals": the dispositions stay after close and are inherited across
 * fork and execve, like a signal mask; an application's own handler
 * stays in charge of its signals.
 *
 * No lock: the library only ever turns SIG_DFL into SIG_IGN, so any
 * interleaving of two guards ends with SIG_IGN, and never replaces what
 * it did not read as SIG_DFL. An application that changes 44-49's
 * dispositions concurrently with an open can race with it; no lock of a
 * library can prevent that (sigaction(2) has no compare-and-swap).
 *
 * ipuxcom_block_driver_signals(): the peer stack blocks every signal in
 * the calling thread before it opens the device (HW-SIGNAL-BLOCK:
 * ipu-driver block_device_interrupt_signals) and
 * seed 003's loader "blocks the driver's real-time interrupt signals".
 * This function blocks exactly the driver's, for a program that follows
 * the peer (the ipuxcom command does): a library must not take SIGINT/
 * SIGTERM or an application's own signals away from it, and the module
 * ends a wait only for a fatal signal.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>

#include "ipuxcom.h"
#include "internal.h"

/* sigaction(2) fails only for a signal number it does not take: never 44-49. */
void ixc_driver_signals_guard(void)
{
	for (int sig = IPUXCOM_DRIVER_SIGNAL_FIRST; sig <= IPUXCOM_DRIVER_SIGNAL_LAST; sig++) {
		struct sigaction now, ign = { .sa_handler = SIG_IGN };

		if (sigaction(sig, NULL, &now))
			continue;
		/* SA_SIGINFO: a handler in sa_sigaction, whatever sa_handler reads */
		if ((now.sa_flags & SA_SIGINFO) || now.sa_handler != SIG_DFL)
			continue;
		sigemptyset(&ign.sa_mask);
		sigaction(sig, &ign, NULL);
	}
}

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
