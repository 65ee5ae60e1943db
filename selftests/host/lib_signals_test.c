// SPDX-License-Identifier: GPL-2.0-only
/*
 * The library's guard against ipu_driver's real-time signals 44-49
 * (libuser/src/signals.c, libipuxcom(3) "Signals"), on the build host:
 *  - before it opens an ipu_driver node (ixc_ipudrv_open()) or is handed
 *    one (ipuxcom_attach_ipu_fd()), each of 44-49 left at SIG_DFL becomes
 *    SIG_IGN; an application's handler (sa_handler or SA_SIGINFO) and its
 *    SIG_IGN stay; no thread's signal mask changes;
 *  - guards racing from 8 threads end the same way;
 *  - a process with 8 threads that block nothing, started before the
 *    guard, survives a storm of process-directed 44-49 (kill(2)) and of
 *    signals directed at the guarding thread (tgkill(2)), with the
 *    guarding thread blocking them (the peer's way) or not; without the
 *    guard the same storm kills it (the test would prove nothing
 *    otherwise). Each runs in a forked child: a death by signal is a
 *    failure naming the signal.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ipuxcom.h>

#include "../../libuser/src/internal.h"

#define FIRST	IPUXCOM_DRIVER_SIGNAL_FIRST
#define LAST	IPUXCOM_DRIVER_SIGNAL_LAST
#define THREADS	8

static void app_handler(int sig)
{
	(void)sig;
}

static void app_action(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
}

static void set_default(void)
{
	for (int sig = FIRST; sig <= LAST; sig++)
		signal(sig, SIG_DFL);
}

static bool ignored(int sig)
{
	struct sigaction now;

	return !sigaction(sig, NULL, &now) && !(now.sa_flags & SA_SIGINFO) &&
	       now.sa_handler == SIG_IGN;
}

TEST(guard_ignores_only_what_is_at_default)
{
	struct sigaction h = { .sa_handler = app_handler };
	struct sigaction si = { .sa_sigaction = app_action, .sa_flags = SA_SIGINFO };
	sigset_t empty, now;
	struct sigaction got;

	set_default();
	sigemptyset(&h.sa_mask);
	sigemptyset(&si.sa_mask);
	ASSERT_EQ(0, sigaction(45, &h, NULL));
	ASSERT_EQ(0, sigaction(47, &si, NULL));
	ASSERT_NE(SIG_ERR, signal(48, SIG_IGN));
	sigemptyset(&empty);
	ASSERT_EQ(0, pthread_sigmask(SIG_SETMASK, &empty, NULL));

	ixc_driver_signals_guard();
	EXPECT_TRUE(ignored(44));
	EXPECT_TRUE(ignored(46));
	EXPECT_TRUE(ignored(48));
	EXPECT_TRUE(ignored(49));
	ASSERT_EQ(0, sigaction(45, NULL, &got));
	EXPECT_TRUE(got.sa_handler == app_handler)
		TH_LOG("the application's handler of 45 replaced");
	ASSERT_EQ(0, sigaction(47, NULL, &got));
	EXPECT_NE(0, got.sa_flags & SA_SIGINFO);
	EXPECT_TRUE(got.sa_sigaction == app_action)
		TH_LOG("the application's action of 47 replaced");
	/* nothing blocked: the mask is the thread's business */
	ASSERT_EQ(0, pthread_sigmask(SIG_SETMASK, NULL, &now));
	for (int sig = FIRST; sig <= LAST; sig++) {
		EXPECT_EQ(0, sigismember(&now, sig)) TH_LOG("signal %d blocked", sig);
	}
	/* a second guard changes nothing */
	ixc_driver_signals_guard();
	ASSERT_EQ(0, sigaction(45, NULL, &got));
	EXPECT_TRUE(got.sa_handler == app_handler);
	/* signals outside 44-49 are not the library's */
	ASSERT_EQ(0, sigaction(43, NULL, &got));
	EXPECT_TRUE(got.sa_handler == SIG_DFL);
	ASSERT_EQ(0, sigaction(50, NULL, &got));
	EXPECT_TRUE(got.sa_handler == SIG_DFL);
	set_default();
}

/* The library guards before it opens an ipu_driver node, and before ATTACH with the caller's. */
TEST(open_and_attach_ipu_fd_guard_first)
{
	struct ipuxcom *ipu;
	int fd = 0;

	set_default();
	/* a name the library refuses opens nothing and guards nothing */
	EXPECT_EQ(-EINVAL, ixc_ipudrv_open("../null", &fd));
	EXPECT_FALSE(ignored(44));
	EXPECT_EQ(-ENOENT, ixc_ipudrv_open("ipu-none-999", &fd));
	for (int sig = FIRST; sig <= LAST; sig++) {
		EXPECT_TRUE(ignored(sig)) TH_LOG("signal %d after ixc_ipudrv_open", sig);
	}

	set_default();
	ASSERT_EQ(0, ipuxcom_open("/dev/null", &ipu));
	EXPECT_FALSE(ignored(44));
	/* /dev/null is no ipuxcom file: ATTACH fails, after the guard */
	EXPECT_GT(0, ipuxcom_attach_ipu_fd(ipu, 0, ipuxcom_fd(ipu)));
	for (int sig = FIRST; sig <= LAST; sig++) {
		EXPECT_TRUE(ignored(sig)) TH_LOG("signal %d after ipuxcom_attach_ipu_fd", sig);
	}
	ipuxcom_close(ipu);
	set_default();
}

static pthread_barrier_t race_start;

static void *race_guard(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&race_start);
	ixc_driver_signals_guard();
	return NULL;
}

TEST(guards_racing_from_8_threads)
{
	struct sigaction h = { .sa_handler = app_handler }, got;
	pthread_t th[THREADS];

	for (int round = 0; round < 50; round++) {
		set_default();
		sigemptyset(&h.sa_mask);
		ASSERT_EQ(0, sigaction(46, &h, NULL));
		ASSERT_EQ(0, pthread_barrier_init(&race_start, NULL, THREADS));
		for (int i = 0; i < THREADS; i++)
			ASSERT_EQ(0, pthread_create(&th[i], NULL, race_guard, NULL));
		for (int i = 0; i < THREADS; i++)
			pthread_join(th[i], NULL);
		pthread_barrier_destroy(&race_start);
		for (int sig = FIRST; sig <= LAST; sig++) {
			ASSERT_EQ(0, sigaction(sig, NULL, &got));
			if (sig == 46) {
				EXPECT_TRUE(got.sa_handler == app_handler) TH_LOG("round %d", round);
			} else {
				EXPECT_TRUE(got.sa_handler == SIG_IGN)
					TH_LOG("round %d signal %d", round, sig);
			}
		}
	}
	set_default();
}

/* ------------------------------------------------ the storm, in a child */

static volatile int spin_stop;

/* A thread that blocks nothing: sleeps in short naps until told to stop. */
static void *napper(void *arg)
{
	sigset_t none;

	(void)arg;
	sigemptyset(&none);
	pthread_sigmask(SIG_SETMASK, &none, NULL);
	while (!__atomic_load_n(&spin_stop, __ATOMIC_RELAXED))
		usleep(200);
	return NULL;
}

enum storm_how {
	STORM_PROCESS,		/* kill(2): any thread not blocking them */
	STORM_PROCESS_OPENER_BLOCKS,	/* the same, the guarding thread blocks them */
	STORM_THREAD,		/* tgkill(2) at the guarding thread */
};

/*
 * The child: THREADS threads first, then the guard (or not), then 200
 * rounds of all six signals as @how says, every 100 us; exits 0 if alive.
 */
static void storm_child(enum storm_how how, bool guard)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	pthread_t th[THREADS];
	sigset_t none;

	sigemptyset(&none);
	pthread_sigmask(SIG_SETMASK, &none, NULL);
	set_default();
	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&th[i], NULL, napper, NULL))
			_exit(3);
	if (guard)
		ixc_driver_signals_guard();
	if (how == STORM_PROCESS_OPENER_BLOCKS && ipuxcom_block_driver_signals())
		_exit(5);
	for (int round = 0; round < 200; round++) {
		for (int sig = FIRST; sig <= LAST; sig++) {
			if (how == STORM_THREAD)
				syscall(SYS_tgkill, getpid(), tid, sig);
			else
				kill(getpid(), sig);
		}
		usleep(100);
	}
	__atomic_store_n(&spin_stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	_exit(0);
}

/* How the child ended: 0 = exited 0, else the exit status or 128 + signal. */
static int storm(enum storm_how how, bool guard)
{
	int status = 0;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid)
		storm_child(how, guard);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

TEST(eight_threads_survive_process_directed_signals)
{
	int rc = storm(STORM_PROCESS, true);

	EXPECT_EQ(0, rc) TH_LOG("the child ended with %d%s", rc,
				rc > 128 ? " (killed by signal rc - 128)" : "");
}

TEST(eight_threads_survive_when_the_opener_blocks_them)
{
	int rc = storm(STORM_PROCESS_OPENER_BLOCKS, true);

	EXPECT_EQ(0, rc) TH_LOG("the child ended with %d", rc);
}

TEST(the_attaching_thread_survives_thread_directed_signals)
{
	int rc = storm(STORM_THREAD, true);

	EXPECT_EQ(0, rc) TH_LOG("the child ended with %d", rc);
}

/* The same storm without the guard kills: the tests above prove something. */
TEST(without_the_guard_the_storm_kills)
{
	int rc = storm(STORM_PROCESS_OPENER_BLOCKS, false);

	EXPECT_LE(128 + FIRST, rc) TH_LOG("the child ended with %d", rc);
	EXPECT_GE(128 + LAST, rc) TH_LOG("the child ended with %d", rc);
}

TEST_HARNESS_MAIN
