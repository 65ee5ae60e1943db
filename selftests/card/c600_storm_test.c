// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipu_driver's signals for every thread, on the QEMU C600 (docs/qemu-c600.md)
 * through ipuxcom_hw.ko and the ipu_driver stand-in: a process that
 * started 8 threads before it opened anything -- threads that block
 * nothing, as numpy's BLAS threads in Python -- runs a whole job (the
 * record's session: init, the card's config capture replayed, load of
 * 1472 tiles; then the host-exchange oracle's write/run/read
 * with the bytes compared, a word of every tile read back through TDI)
 * while the stand-in sends it rounds of all six signals 44-49 (debugfs
 * storm), on top of the interrupts' own. Nothing in the process blocks or
 * handles them: it survives because the library, before it opens
 * /dev/ipu0, ignores those still at their default (libipuxcom(3)
 * "Signals").
 *
 * Whom ipu_driver signals is in no record (HW-OPEN-SIGNAL-TARGET),
 * so the stand-in's signal_target takes both, and each runs here:
 *  - process: process-directed, any thread not blocking them may take
 *    one; once with nothing blocked anywhere, once with the opening thread
 *    blocking them as the peer does (ipuxcom_block_driver_signals()), which
 *    hands every signal to one of the 8 others;
 *  - thread: to the thread that issued USER_ATTACH.
 * The job runs in a forked child: a death by signal is a failure that
 * names the signal, not a crashed harness. The stand-in's storm_signals
 * counts prove the signals were sent.
 */
#include "kselftest_harness.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "image_testlib.h"
#include "load_testlib.h"
#include "ixt_card_cfg.h"
#include "ixt_hsp_oracle.h"
#include "ixt_modules.h"
#include "ixt_standin.h"

/* The stand-in's debugfs directory of card 0 (ipu_standin.c). */
#define STANDIN_DIR	"/sys/kernel/debug/ipu_standin/ipu0"
#define TARGET_PARAM	IXT_STANDIN_PARAM("signal_target")
#define JOB_TIMEOUT_NS	(60ULL * 1000 * 1000 * 1000)
#define THREADS		8
/* a round of 44..49 every 1 ms (the stand-in's storm) */
#define STORM_US	"1000"
/* at least this many rounds must reach the job, or it proved nothing */
#define MIN_ROUNDS	20

static bool on_card(void)
{
	const char *c = getenv("IPUXCOM_CARD");

	return c && !strcmp(c, "c600");
}

static int standin_write(const char *name, const char *value)
{
	char path[256];

	snprintf(path, sizeof(path), STANDIN_DIR "/%s", name);
	return ixt_write_sysfs(path, value);
}

/* debugfs storm_signals: rounds, and signals sent and failed over 44..49. */
struct storm_counts {
	long rounds, sent, failed;
};

static int storm_counts(struct storm_counts *c)
{
	FILE *f = fopen(STANDIN_DIR "/storm_signals", "re");
	char line[128];

	memset(c, 0, sizeof(*c));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		long sent, failed;
		int sig;

		if (sscanf(line, "rounds %ld", &c->rounds) == 1)
			continue;
		if (sscanf(line, "%d sent %ld failed %ld", &sig, &sent, &failed) == 3 &&
		    sig >= IPUXCOM_DRIVER_SIGNAL_FIRST && sig <= IPUXCOM_DRIVER_SIGNAL_LAST) {
			c->sent += sent;
			c->failed += failed;
		}
	}
	fclose(f);
	return 0;
}

/* ------------------------------------------------------ the child's job */

static volatile int threads_stop;

/* One of the 8: blocks nothing, naps until told to stop. */
static void *napper(void *arg)
{
	sigset_t none;

	(void)arg;
	sigemptyset(&none);
	pthread_sigmask(SIG_SETMASK, &none, NULL);
	while (!__atomic_load_n(&threads_stop, __ATOMIC_RELAXED))
		usleep(500);
	return NULL;
}

/* The child's failure: a line to the parent through @fd, then exit 1. */
static void __attribute__((format(printf, 2, 3), noreturn)) job_fail(int fd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n > 0 && write(fd, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

static bool ignored(int sig)
{
	struct sigaction now;

	return !sigaction(sig, NULL, &now) && !(now.sa_flags & SA_SIGINFO) &&
	       now.sa_handler == SIG_IGN;
}

/*
 * The forked child: 8 threads, then open + attach of card @dev, the
 * record's session (init, the capture @cfg replayed, load @img), the
 * oracle's host exchange, a per-tile word of every tile through TDI.
 * @opener_blocks: the opening thread blocks 44-49 first. Exits 0, or 1
 * with a message on @fd.
 */
static void __attribute__((noreturn)) job(uint32_t dev, struct ipuxcom_image *img,
					  const struct ipuxcom_cfg_record *cfg, uint32_t ncfg,
					  bool opener_blocks, int fd)
{
	static const char manifest[] = IXT_HSP_ORACLE;
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	struct ipuxcom_load_params lp = {
		.size = sizeof(lp), .image = img, .bootloader = boot,
		.bootloader_size = sizeof(boot), .timeout_ns = JOB_TIMEOUT_NS,
		.cfg = cfg, .cfg_count = ncfg,
	};
	uint8_t in[64], out[64];
	struct ipuxcom_hostx_buf ib = { in, sizeof(in) }, ob = { out, sizeof(out) };
	struct ipuxcom_hsp_manifest m;
	struct ipuxcom_errmsg em = { "" };
	struct ipuxcom *ipu = NULL;
	pthread_t th[THREADS];
	sigset_t none;
	int err;

	/* the vulnerable start: 44-49 at their default, blocked nowhere */
	sigemptyset(&none);
	pthread_sigmask(SIG_SETMASK, &none, NULL);
	for (int sig = IPUXCOM_DRIVER_SIGNAL_FIRST; sig <= IPUXCOM_DRIVER_SIGNAL_LAST; sig++)
		signal(sig, SIG_DFL);
	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&th[i], NULL, napper, NULL))
			job_fail(fd, "pthread_create %d failed", i);

	if (opener_blocks && ipuxcom_block_driver_signals())
		job_fail(fd, "ipuxcom_block_driver_signals failed");
	err = ipuxcom_open(NULL, &ipu);
	if (err)
		job_fail(fd, "ipuxcom_open: %s", strerror(-err));
	err = ipuxcom_attach(ipu, dev);
	if (err)
		job_fail(fd, "ipuxcom_attach %u: %s: %s", dev, strerror(-err), ipuxcom_errmsg(ipu));

	err = ipuxcom_load(ipu, &lp, &res);
	if (err)
		job_fail(fd, "load: %s: %s", strerror(-err), res.msg);

	err = ipuxcom_hsp_parse(manifest, sizeof(manifest) - 1, &m, &em);
	if (!err)
		err = ipuxcom_hostx_setup(ipu, &m, JOB_TIMEOUT_NS, &em);
	if (err)
		job_fail(fd, "host exchange setup: %s: %s", strerror(-err), em.msg);
	ixt_fill_random(in, sizeof(in), (uint64_t)getpid());
	memset(out, 0, sizeof(out));
	err = ipuxcom_hostx_call(ipu, &m, "write", &ib, 1, NULL, 0, JOB_TIMEOUT_NS, &em);
	if (!err)
		err = ipuxcom_hostx_call(ipu, &m, "run", NULL, 0, NULL, 0, JOB_TIMEOUT_NS, &em);
	if (!err)
		err = ipuxcom_hostx_call(ipu, &m, "read", NULL, 0, &ob, 1, JOB_TIMEOUT_NS, &em);
	if (err)
		job_fail(fd, "host exchange: %s: %s", strerror(-err), em.msg);
	if (memcmp(in, out, sizeof(in)))
		job_fail(fd, "host exchange: the 64 bytes read back differ from those written");

	/* one of each tile's own words (load_testlib.h), every tile */
	for (uint32_t t = 0; t < TILES; t++) {
		uint32_t k = t % TILE_WORDS, v = 0;
		uint32_t addr = PAYLOAD_BASE + tile_word_index(t, k) * 4;

		err = ipuxcom_tdi_read_sram(ipu, t, addr, &v, 1, NULL);
		if (err)
			job_fail(fd, "TDI read of tile %u at 0x%x: %s: %s", t, addr, strerror(-err),
				 ipuxcom_errmsg(ipu));
		if (v != tile_word(t, k))
			job_fail(fd, "tile %u at 0x%x: 0x%08x, wanted 0x%08x", t, addr, v,
				 tile_word(t, k));
	}
	/* what kept it alive: the library's SIG_IGN (checked last, after the storm) */
	for (int sig = IPUXCOM_DRIVER_SIGNAL_FIRST; sig <= IPUXCOM_DRIVER_SIGNAL_LAST; sig++)
		if (!ignored(sig))
			job_fail(fd, "signal %d not ignored after the job", sig);
	ipuxcom_close(ipu);
	__atomic_store_n(&threads_stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	_exit(0);
}

/* ------------------------------------------------------------ the fixture */

FIXTURE(storm) {
	long dev;
	struct ipuxcom_image *img;
	struct ipuxcom_cfg_record *cfg;
	uint32_t ncfg;
	char target[32];
};

FIXTURE_SETUP(storm)
{
	char msg[256] = "";
	ssize_t n;

	self->img = NULL;
	self->cfg = NULL;
	self->target[0] = '\0';
	if (!on_card())
		SKIP(return, "not on the QEMU C600 (IPUXCOM_CARD=c600)");
	self->dev = ixt_hw_dev_id();
	ASSERT_LE(0, self->dev) TH_LOG("no ipuxcom device of the hw backend");
	ASSERT_EQ(0, access(STANDIN_DIR "/storm", F_OK)) TH_LOG("%s/storm: %s", STANDIN_DIR,
							       strerror(errno));
	n = ixt_read_sysfs(TARGET_PARAM, self->target, sizeof(self->target));
	ASSERT_LT(0, n) TH_LOG("%s", TARGET_PARAM);
	ASSERT_EQ(0, ixt_card_cfg(&self->cfg, &self->ncfg, msg, sizeof(msg))) TH_LOG("%s", msg);
	self->img = build_image(_metadata);
	ASSERT_NE(NULL, self->img);
}

FIXTURE_TEARDOWN(storm)
{
	if (!self->target[0])
		return;
	standin_write("storm", "0\n");
	ixt_write_sysfs(TARGET_PARAM, self->target);
	ipuxcom_image_free(self->img);
	free(self->cfg);
}

/*
 * The job in a child under a storm sent as @target says; asserts it lived,
 * finished, and that the stand-in sent it at least MIN_ROUNDS rounds.
 */
static void storm_job(struct __test_metadata *_metadata, FIXTURE_DATA(storm) *self,
		      const char *target, bool opener_blocks)
{
	struct storm_counts before, after;
	char msg[512] = "";
	int status = 0, fds[2];
	ssize_t got;
	pid_t pid;

	ASSERT_EQ(0, ixt_write_sysfs(TARGET_PARAM, target));
	ASSERT_EQ(0, storm_counts(&before));
	ASSERT_EQ(0, standin_write("storm", STORM_US "\n"));
	ASSERT_EQ(0, pipe(fds));
	fflush(NULL);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(fds[0]);
		job((uint32_t)self->dev, self->img, self->cfg, self->ncfg, opener_blocks, fds[1]);
	}
	close(fds[1]);
	got = read(fds[0], msg, sizeof(msg) - 1);
	msg[got > 0 ? got : 0] = '\0';
	close(fds[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, standin_write("storm", "0\n"));
	ASSERT_EQ(0, storm_counts(&after));
	ASSERT_FALSE(WIFSIGNALED(status))
		TH_LOG("signal_target=%s: the job died of signal %d (%s)", target,
		       WTERMSIG(status), strsignal(WTERMSIG(status)));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("signal_target=%s: %s", target, msg);
	TH_LOG("signal_target=%s%s: %ld storm rounds, %ld signals sent, %ld failed", target,
	       opener_blocks ? ", the opener blocking them" : "", after.rounds - before.rounds,
	       after.sent - before.sent, after.failed - before.failed);
	EXPECT_LE(MIN_ROUNDS, after.rounds - before.rounds);
	EXPECT_LE(6 * MIN_ROUNDS, after.sent - before.sent);
	/* a round in flight when the child exits may find it gone: no more */
	EXPECT_GE(6, after.failed - before.failed);
}

TEST_F_TIMEOUT(storm, process_directed_while_8_threads_block_nothing, 600)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	storm_job(_metadata, self, "process", false);
}

TEST_F_TIMEOUT(storm, process_directed_while_only_the_opener_blocks_them, 600)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	storm_job(_metadata, self, "process", true);
}

TEST_F_TIMEOUT(storm, thread_directed_to_the_attaching_thread, 600)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	storm_job(_metadata, self, "thread", false);
}

/* The stand-in's new knobs refuse what they do not take (no card touched). */
TEST_F(storm, knobs_refuse_bad_values)
{
	char now[32] = "";

	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	EXPECT_EQ(-EINVAL, ixt_write_sysfs(TARGET_PARAM, "group\n"));
	ASSERT_LT(0, ixt_read_sysfs(TARGET_PARAM, now, sizeof(now)));
	EXPECT_STREQ(self->target, now);
	EXPECT_EQ(-EINVAL, standin_write("storm", "5\n"));
	EXPECT_EQ(-EINVAL, standin_write("storm", "1000001\n"));
	EXPECT_EQ(0, standin_write("storm", "0\n"));
}

TEST_HARNESS_MAIN
