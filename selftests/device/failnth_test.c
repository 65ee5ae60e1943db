// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation-failure sweep in the style of iommufd's fail_nth selftests,
 * for the debug-kernel lane (make check-debug; skips on a kernel without
 * /proc/thread-self/fail-nth, such as the normal test VM's).
 *
 * The sequence: attach, reset, a small image load (the image of ixt_load.h,
 * packed once), host exchange setup and one write/run/read round (the
 * notes' oracle, as in hostx_test). Every ioctl the library makes on the
 * way is one "command". A clean run first counts each command's fault
 * points (fail-nth armed with 10^9 and read back): slab and page
 * allocations and, with FAULT_INJECTION_USERCOPY, user copies. Measured
 * on the debug kernel: 36 commands, 36699 points, 10411 of them in the
 * loader buffer's BUF_ATTACH (the pages its pin faults in) and ~1140 in
 * each of the 23 LOAD_BATCHes (the simulator's tile memory, allocated as
 * the load first touches it). For the first command of each request code
 * (IPUXCOM_FAILNTH_EVERY=1: every command) and N = 1, 2, ...: run the
 * sequence from a fresh open, let the commands before it run normally,
 * and fail its N-th fault point. Then:
 *   - the command either succeeded or failed with an errno, which the
 *     library passed on, never a crash or a hang (KASAN, lockdep and
 *     panic_on_warn watch the kernel side);
 *   - the device still answers DEV_QUERY, and RESET brings it back to idle;
 *   - once reset and closed, no page stays pinned (ixt_pinned_pages);
 * until the command runs through without reaching an N-th point (N = its
 * count + 1; a count that varies, a wait that polls, may take up to twice
 * it + 16, past which the test fails). Every N up to IPUXCOM_FAILNTH_DENSE
 * (64), then every 64th, then every N of the last 64 (skip_n): the points
 * between are a loop's, one call site many times over. The simulator's
 * own allocations fail too, which shows as a device that does not answer
 * (ETIMEDOUT). At the end a clean run must still work and kmemleak,
 * scanned, must show no leak whose backtrace names an ipuxcom module (or
 * an address in module space).
 *
 * Under KASAN in TCG one run takes seconds; IPUXCOM_FAILNTH_BUDGET seconds
 * (default 0: none) bound the sweep, and what a budget left out is listed
 * ("# coverage: ..."); that is not a failure.
 *
 * The ioctl(2) of the library (libuser/src/device.c) is this file's ioctl
 * below: the static library's reference binds to it at link time.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#include "kselftest_harness.h"

#include "ipuxcom.h"
#include "ipuxcom_events.h"
#include "ipuxcom_test.h"
#include "ixt_load.h"
#include "ixt_ioc_rows.h"
#include "ixt_failnth.h"
#include "ixt_fuse_stall.h"
#include "ixt_simdev.h"

#define KMEMLEAK	"/sys/kernel/debug/kmemleak"
#define TIMEOUT_NS	(10ULL * 1000 * 1000 * 1000)

static const char oracle[] =
	"ipuhsp 1\n"
	"page 0 size 4096\n"
	"page 1 size 4096\n"
	"attach 1 0\n"
	"command page 1 offset 0x0\n"
	"call run id 0 phases 2\n"
	"call read id 1 phases 4\n"
	"call write id 2 phases 4\n"
	"input write page 0 offset 0x40 size 64\n"
	"output read page 0 offset 0x40 size 64\n"
	"end\n";

/* ------------------------------------------------------------ the interposer */
static int ioc_count;		/* ioctls seen since the sequence began */
static int ioc_target = -1;	/* the one to inject into */
static unsigned int ioc_nth;	/* ... at its N-th allocation */
static int ioc_injected;	/* 1: the fault fired, 0: not reached */
static unsigned long ioc_req;	/* the target's request code */
#define MAX_CMDS 256
static unsigned long ioc_log[MAX_CMDS];	/* every ioctl's request code */
static int ioc_ret, ioc_errno;	/* and its outcome */
static int ioc_counting;	/* count every ioctl's fault points instead */
static unsigned int ioc_ticks[MAX_CMDS];	/* ... into here */

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	long ret;
	int err, armed;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);

	if (ioc_count < MAX_CMDS)
		ioc_log[ioc_count] = req;
	armed = fnth_fd >= 0 && ioc_count++ == ioc_target;
	if (armed)
		fnth_write(ioc_nth);
	else if (fnth_fd >= 0 && ioc_counting)
		fnth_write(FNTH_COUNT_FROM);
	ret = syscall(SYS_ioctl, fd, req, arg);
	err = errno;
	if (!armed && fnth_fd >= 0 && ioc_counting && ioc_count <= MAX_CMDS)
		ioc_ticks[ioc_count - 1] = fnth_counted();
	if (armed) {
		/* the N-th fault point was in the ioctl */
		ioc_injected = fnth_fired();
		ioc_req = req;
		ioc_ret = (int)ret;
		ioc_errno = ret < 0 ? err : 0;
	}
	errno = err;
	return (int)ret;
}

/* ------------------------------------------------------------ helpers */
static struct ipuxcom_image *the_image;	/* ixt_load.h's, packed once */

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -errno;
	close(fd);
	return ret;
}

static void read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	buf[strcspn(buf, "\n")] = '\0';
}

/* debugfs knobs of failslab / fail_page_alloc set for the sweep, and restored */
static const char *const knob_paths[] = {
	"/sys/kernel/debug/failslab/ignore-gfp-wait",
	"/sys/kernel/debug/failslab/verbose",
	"/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait",
	"/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem",
	"/sys/kernel/debug/fail_page_alloc/min-order",
	"/sys/kernel/debug/fail_page_alloc/verbose",
};
static const char *const knob_sweep[] = { "N", "0", "N", "N", "0", "0" };
static char knob_saved[6][16];

#define NKNOBS (sizeof(knob_paths) / sizeof(knob_paths[0]))

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Errors an allocation failure may surface as. Anything else (or a
 * "success" that left no trace of the failed allocation) is reported.
 */
static int clean_errno(int e)
{
	switch (e) {
	case ENOMEM: case EFAULT: case EAGAIN: case EINTR: case ENOBUFS:
	case ENOSPC: case EIO: case EBUSY:
	/* a socket's allocation (sock_alloc) failed */
	case ENFILE:
	/* the simulator's own allocation failed: a device that does not answer */
	case ETIMEDOUT:
	/* the simulator's TDI fault site (fail_tdi): the tile refused the instruction */
	case EILSEQ:
		return 1;
	}
	return 0;
}

/*
 * The sequence. Returns 0 when every step succeeded, else the first
 * failing step's -errno, with @step naming it. The handle stays open in
 * *@out for the caller's checks (NULL if open itself failed).
 */
static int run_sequence(const struct ipuxcom_hsp_manifest *m, struct ipuxcom **out,
			const char **step, char *msg, size_t msglen)
{
	uint8_t in[64], res[64];
	struct ipuxcom_hostx_buf ib = { in, sizeof(in) }, ob = { res, sizeof(res) };
	struct ipuxcom_errmsg em = { "" };
	struct ipuxcom *ipu = NULL;
	int err;

	msg[0] = '\0';
	ioc_count = 0;
	*step = "open";
	err = ipuxcom_open(ixt_dev_path(), &ipu);
	*out = ipu;
	if (err)
		return err;
	*step = "attach";
	err = ipuxcom_attach(ipu, ixt_dev_id());
	if (err)
		return err;
	*step = "reset";
	err = ipuxcom_reset(ipu, NULL);
	if (err)
		return err;
	*step = "load";
	err = ixt_load_image(ipu, the_image, msg, msglen);
	if (err)
		return err;
	*step = "hostx_setup";
	err = ipuxcom_hostx_setup(ipu, m, TIMEOUT_NS, &em);
	if (err)
		goto out_em;
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + 3);
	memset(res, 0, sizeof(res));
	*step = "hostx_call write";
	err = ipuxcom_hostx_call(ipu, m, "write", &ib, 1, NULL, 0, TIMEOUT_NS, &em);
	if (err)
		goto out_em;
	*step = "hostx_call run";
	err = ipuxcom_hostx_call(ipu, m, "run", NULL, 0, NULL, 0, TIMEOUT_NS, &em);
	if (err)
		goto out_em;
	*step = "hostx_call read";
	err = ipuxcom_hostx_call(ipu, m, "read", NULL, 0, &ob, 1, TIMEOUT_NS, &em);
	if (err)
		goto out_em;
	*step = "compare";
	if (memcmp(in, res, sizeof(in))) {
		snprintf(msg, msglen, "read back differs from what was written");
		return -EBADMSG;
	}
	return 0;
out_em:
	snprintf(msg, msglen, "%s", em.msg);
	return err;
}

/* After a run: the device answers, RESET recovers, nothing stays pinned. */
static int check_after(struct ipuxcom *ipu, long pinned0, char *why, size_t len)
{
	struct ipuxcom_device_info di;
	struct ipuxcom *fresh = NULL;
	uint32_t state = 0;
	long pinned;
	int err;

	/* the handle may never have attached: then a fresh one */
	if (!ipu || ipuxcom_dev_query(ipu, &di)) {
		if (ipu)
			ipuxcom_close(ipu);
		ipu = NULL;
		err = ipuxcom_open(ixt_dev_path(), &fresh);
		if (!err)
			err = ipuxcom_attach(fresh, ixt_dev_id());
		if (err) {
			snprintf(why, len, "fresh open/attach: %s", strerror(-err));
			goto out;
		}
		ipu = fresh;
		err = ipuxcom_dev_query(ipu, &di);
		if (err) {
			snprintf(why, len, "DEV_QUERY: %s", strerror(-err));
			goto out;
		}
	}
	err = ipuxcom_reset(ipu, &state);
	if (err) {
		snprintf(why, len, "RESET: %s", strerror(-err));
		goto out;
	}
	if (state != IPUXCOM_DEV_STATE_IDLE) {
		snprintf(why, len, "RESET left state %u (%s)", state, ipuxcom_dev_state_name(state));
		err = -EIO;
		goto out;
	}
out:
	if (ipu)
		ipuxcom_close(ipu);
	if (err)
		return err;
	pinned = ixt_pinned_pages();
	if (pinned0 >= 0 && pinned != pinned0) {
		snprintf(why, len, "%ld pages pinned after reset and close (before: %ld)",
			 pinned, pinned0);
		return -EIO;
	}
	return 0;
}

/*
 * kmemleak's report, filtered to the objects whose backtrace has an
 * ipuxcom module in it (or a bare module-space address: an unloaded
 * module). Returns how many; prints them.
 */
static int kmemleak_ours(struct __test_metadata *_metadata)
{
	char line[512], block[8192];
	size_t used = 0;
	int ours = 0, mine = 0, total = 0;
	FILE *f;

	/* objects younger than 5 s are never reported: let the last ones age */
	sleep(6);
	if (write_str(KMEMLEAK, "scan"))
		return -1;
	f = fopen(KMEMLEAK, "re");
	if (!f)
		return -1;
	block[0] = '\0';
	for (;;) {
		char *got = fgets(line, sizeof(line), f);

		if (!got || !strncmp(line, "unreferenced object", 19)) {
			if (used && mine) {
				ours++;
				TH_LOG("kmemleak:\n%s", block);
			}
			used = 0;
			mine = 0;
			block[0] = '\0';
			if (!got)
				break;
			total++;
		}
		if (strstr(line, "ipuxcom") || strstr(line, "ipu_standin") ||
		    strstr(line, "0xffffffffc"))
			mine = 1;
		if (used + strlen(line) < sizeof(block)) {
			memcpy(block + used, line, strlen(line) + 1);
			used += strlen(line);
		}
	}
	fclose(f);
	TH_LOG("kmemleak: %d unreferenced objects, %d of them ipuxcom's", total, ours);
	return ours;
}

/*
 * The N a sweep skips: past the first @dense fault points and before the
 * last @dense of the @ticks a clean run counted, all but every @dense-th
 * (a loop's points, such as the pages a pin faults in or the simulator's
 * tile memory, are one call site many times over).
 */
static bool skip_n(unsigned int n, unsigned int ticks, unsigned int dense)
{
	return n > dense && n + dense <= ticks && (n - 1) % dense;
}

/* Is command @c the first of its request code in @reqs? */
static bool is_first_of_kind(const unsigned long *reqs, int c)
{
	for (int k = 0; k < c; k++)
		if (reqs[k] == reqs[c])
			return false;
	return true;
}

/* ------------------------------------------------------------ the test */
FIXTURE(failnth) {
	struct ipuxcom_hsp_manifest m;
	int have_kmemleak;
	const char *skip;
};

/* (a SKIP in a fixture's setup does not keep this harness from the test) */
FIXTURE_SETUP(failnth)
{
	struct ipuxcom_errmsg em;

	self->skip = NULL;
	if (access(FAILNTH_PATH, W_OK)) {
		self->skip = "no " FAILNTH_PATH " (kernel without CONFIG_FAULT_INJECTION): debug lane only";
		return;
	}
	if (!ixt_have_device()) {
		self->skip = "device node absent (ipuxcom.ko not loaded)";
		return;
	}
	if (ixt_sim_devices() < 0) {
		self->skip = "needs the simulator (ipuxcom_sim not loaded)";
		return;
	}
	ASSERT_EQ(0, access(knob_paths[0], W_OK)) TH_LOG("no failslab in debugfs");
	ASSERT_EQ(0, ipuxcom_hsp_parse(oracle, sizeof(oracle) - 1, &self->m, &em)) TH_LOG("%s", em.msg);
	for (size_t i = 0; i < NKNOBS; i++) {
		read_str(knob_paths[i], knob_saved[i], sizeof(knob_saved[i]));
		ASSERT_EQ(0, write_str(knob_paths[i], knob_sweep[i])) TH_LOG("%s", knob_paths[i]);
	}
	self->have_kmemleak = access(KMEMLEAK, W_OK) == 0;
	/* what kmemleak finds from here on is ours to answer for */
	if (self->have_kmemleak)
		write_str(KMEMLEAK, "clear");
	ixt_sim_clear_faults(ixt_dev_id());
	fnth_fd = open(FAILNTH_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fnth_fd);
}

FIXTURE_TEARDOWN(failnth)
{
	if (fnth_fd >= 0) {
		fnth_write(0);
		close(fnth_fd);
		fnth_fd = -1;
	}
	for (size_t i = 0; i < NKNOBS; i++)
		if (knob_saved[i][0])
			write_str(knob_paths[i], knob_saved[i]);
}

TEST_F_TIMEOUT(failnth, load_and_host_exchange, 36000)
{
	const char *budget_env = getenv("IPUXCOM_FAILNTH_BUDGET");
	const char *every_env = getenv("IPUXCOM_FAILNTH_EVERY");
	const char *dense_env = getenv("IPUXCOM_FAILNTH_DENSE");
	unsigned int dense = dense_env ? (unsigned int)atoi(dense_env) : 64;
	/* no budget by default: make check-debug sweeps it all */
	double budget = budget_env ? atof(budget_env) : 0, t0 = now_s();
	bool every = every_env && atoi(every_env);
	unsigned long reqs[MAX_CMDS];
	unsigned int ticks[MAX_CMDS], total = 0, planned = 0;
	char capped[1024] = "", unswept[1024] = "";
	struct ipuxcom *ipu;
	const char *step;
	char msg[300], why[300];
	long pinned0;
	int ncmds, runs = 0, injected = 0, failed_clean = 0, succeeded_anyway = 0;
	int swept = 0, timedout = 0;
	int err;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	IXT_REQUIRE_SIM();
	ASSERT_LE(1, dense);
	ASSERT_EQ(0, ixt_pack_small(&the_image, msg, sizeof(msg))) TH_LOG("%s", msg);
	/*
	 * A clean run first: it counts the commands, notes their codes and
	 * how many fault points each passes (the N a sweep of it runs to).
	 */
	ioc_target = -1;
	ioc_counting = 1;
	err = run_sequence(&self->m, &ipu, &step, msg, sizeof(msg));
	ioc_counting = 0;
	ASSERT_EQ(0, err) TH_LOG("clean run: %s: %s: %s", step, strerror(-err), msg);
	ncmds = ioc_count;
	ASSERT_GE(MAX_CMDS, ncmds);
	memcpy(reqs, ioc_log, sizeof(reqs[0]) * ncmds);
	memcpy(ticks, ioc_ticks, sizeof(ticks[0]) * ncmds);
	ASSERT_EQ(0, check_after(ipu, -1, why, sizeof(why))) TH_LOG("%s", why);
	pinned0 = ixt_pinned_pages();
	for (int c = 0; c < ncmds; c++) {
		total += ticks[c];
		if (every || is_first_of_kind(reqs, c))
			for (unsigned int n = 1; n <= ticks[c] + 1; n++)
				planned += !skip_n(n, ticks[c], dense);
		TH_LOG("command %d: ioctl 0x%lx, %u fault points", c, reqs[c], ticks[c]);
	}
	TH_LOG("%d commands (ioctls) in the sequence, %u fault points in all; %s: %u runs planned;"
	       " pinned pages at rest: %ld", ncmds, total,
	       every ? "every command" : "the first command of each kind", planned, pinned0);

	for (int c = 0; c < ncmds; c++) {
		/* past the clean run's count only when it varies (a wait that polls) */
		unsigned int n, max_n = ticks[c] * 2 + 16;

		if (!every && !is_first_of_kind(reqs, c))
			continue;
		for (n = 1; n <= max_n; n++) {
			if (budget > 0 && now_s() - t0 > budget)
				break;
			if (skip_n(n, ticks[c], dense))
				continue;
			ioc_target = c;
			ioc_nth = n;
			ioc_injected = -1;
			err = run_sequence(&self->m, &ipu, &step, msg, sizeof(msg));
			ioc_target = -1;
			runs++;
			/*
			 * The target was not reached: the sequence made fewer
			 * ioctls this time (a wait that polls), or an earlier
			 * step failed.
			 */
			if (ioc_injected == -1 && !err) {
				TH_LOG("command %d not reached (the sequence made %d ioctls)",
				       c, ioc_count);
				ASSERT_EQ(0, check_after(ipu, pinned0, why, sizeof(why))) TH_LOG("%s", why);
				break;
			}
			ASSERT_NE(-1, ioc_injected)
				TH_LOG("command %d, N=%u: never reached: %s failed first: %s: %s",
				       c, n, step, strerror(-err), msg);
			if (ioc_injected) {
				injected++;
				if (ioc_ret < 0) {
					EXPECT_TRUE(clean_errno(ioc_errno))
						TH_LOG("command %d (ioctl 0x%lx), N=%u: errno %d (%s)",
						       c, ioc_req, n, ioc_errno, strerror(ioc_errno));
					/* the library passed it on as it was */
					EXPECT_EQ(-ioc_errno, err)
						TH_LOG("command %d, N=%u: %s returned %d (%s), ioctl %d",
						       c, n, step, err, msg, -ioc_errno);
					failed_clean++;
					timedout += ioc_errno == ETIMEDOUT;
				} else {
					succeeded_anyway++;
				}
			}
			ASSERT_EQ(0, check_after(ipu, pinned0, why, sizeof(why)))
				TH_LOG("command %d (ioctl 0x%lx), N=%u, after %s (%d): %s",
				       c, ioc_req, n, step, err, why);
			if (!ioc_injected) {
				/* all of the command's allocations made it */
				ASSERT_EQ(0, err) TH_LOG("command %d, N=%u: %s: %s: %s", c, n,
							 step, strerror(-err), msg);
				break;
			}
		}
		if (budget > 0 && now_s() - t0 > budget && n <= max_n) {
			snprintf(unswept + strlen(unswept), sizeof(unswept) - strlen(unswept),
				 " %d(0x%lx from N=%u)", c, reqs[c], n);
			continue;
		}
		swept++;
		TH_LOG("command %d (ioctl 0x%lx): %u fault points, N = 1..%u%s", c, reqs[c], ticks[c],
		       n, ticks[c] > 2 * dense ? " (strided in the middle)" : "");
		if (n > max_n)
			snprintf(capped + strlen(capped), sizeof(capped) - strlen(capped),
				 " %d(0x%lx)", c, reqs[c]);
	}
	TH_LOG("%d runs in %.1fs over %d commands: %d faults injected, %d failed cleanly"
	       " (%d of them ETIMEDOUT: the simulator's allocation), %d succeeded anyway",
	       runs, now_s() - t0, swept, injected, failed_clean, timedout, succeeded_anyway);
	/* a command still failing at twice its clean count is not swept out */
	EXPECT_EQ(0, capped[0]) TH_LOG("still faulting at twice the clean run's count:%s", capped);
	if (unswept[0])
		TH_LOG("coverage: budget of %.0fs spent; not swept:%s", budget, unswept);

	/* and a clean run still works */
	err = run_sequence(&self->m, &ipu, &step, msg, sizeof(msg));
	ASSERT_EQ(0, err) TH_LOG("final run: %s: %s: %s", step, strerror(-err), msg);
	ASSERT_EQ(0, check_after(ipu, pinned0, why, sizeof(why))) TH_LOG("%s", why);
	ipuxcom_image_free(the_image);

	if (!self->have_kmemleak) {
		TH_LOG("no %s: leak check skipped", KMEMLEAK);
		return;
	}
	EXPECT_EQ(0, kmemleak_ours(_metadata));
}

/*
 * One step under fail-nth. A clean pass first counts its fault points (T);
 * then N = 1, 2, ... until the step runs through without reaching its N-th
 * (normally at N = T + 1; a step whose count varies may take more, up to
 * 2T + 16). Past @dense, N goes in @dense-wide strides (the simulator's
 * tile memory, allocated a page at a time: each of those is the same
 * call site), then the last @dense before T + 1 again one by one.
 * @prepare (if any) sets up what the step needs before each N, outside
 * fail-nth; @step runs the step (its -errno or 0); @undo (if any) puts
 * things back after it (0 or -errno); then the device must still work
 * (check_after). Returns how many N were run; *@ticks gets T.
 */
struct nth_step {
	const char *name;
	int (*prepare)(void *ctx);
	int (*step)(void *ctx);
	int (*undo)(void *ctx);
	void *ctx;
	/* the clean pass may fail (a request refused in this state): then
	 * running through means failing the same way */
	bool may_refuse;
};

static unsigned int sweep_step(struct __test_metadata *_metadata, const struct nth_step *st,
			       unsigned int dense, long pinned0, unsigned int *ticks)
{
	unsigned int n, runs = 0, max_n;
	char why[300];
	int err, clean_err;

	if (st->prepare)
		ASSERT_EQ(0, st->prepare(st->ctx)) TH_LOG("%s: setting up", st->name);
	fnth_write(FNTH_COUNT_FROM);
	err = st->step(st->ctx);
	*ticks = fnth_counted();
	clean_err = err;
	if (!st->may_refuse)
		ASSERT_EQ(0, err) TH_LOG("%s: clean pass: %s", st->name, strerror(-err));
	if (st->undo)
		ASSERT_EQ(0, st->undo(st->ctx)) TH_LOG("%s: putting back", st->name);
	ASSERT_EQ(0, check_after(NULL, pinned0, why, sizeof(why))) TH_LOG("%s", why);
	max_n = *ticks * 2 + 16;
	for (n = 1; n <= max_n; n++) {
		int hit;

		if (skip_n(n, *ticks, dense))
			continue;
		if (st->prepare)
			ASSERT_EQ(0, st->prepare(st->ctx)) TH_LOG("%s, N=%u: setting up", st->name, n);
		fnth_write(n);
		err = st->step(st->ctx);
		hit = fnth_fired();
		runs++;
		if (err && err != clean_err)
			EXPECT_TRUE(clean_errno(-err))
				TH_LOG("%s, N=%u: %d (%s)", st->name, n, err, strerror(-err));
		if (st->undo)
			EXPECT_EQ(0, st->undo(st->ctx)) TH_LOG("%s, N=%u: putting back", st->name, n);
		EXPECT_EQ(0, check_after(NULL, pinned0, why, sizeof(why)))
			TH_LOG("%s, N=%u (%s): %s", st->name, n, err ? strerror(-err) : "ok", why);
		if (!hit) {
			EXPECT_EQ(clean_err, err) TH_LOG("%s, N=%u: no fault and %s (clean: %s)",
							 st->name, n, strerror(-err),
							 strerror(-clean_err));
			break;
		}
	}
	EXPECT_GE(max_n, n) TH_LOG("%s: still faulting at N=%u (clean pass: %u)", st->name,
				   max_n, *ticks);
	TH_LOG("%s: %u fault points; N = 1..%u in %u runs%s, then it ran through%s%s%s", st->name,
	       *ticks, n, runs, *ticks > 2 * dense ? " (strided in the middle)" : "",
	       clean_err ? " (refused in this state: " : "",
	       clean_err ? strerror(-clean_err) : "", clean_err ? ")" : "");
	return runs;
}

static int step_nl_dev_list(void *ctx)
{
	struct ipuxcom_device_info *devs = NULL;
	struct ipuxcom_nl *nl = NULL;
	size_t n = 0;
	int err;

	(void)ctx;
	err = ipuxcom_nl_open(&nl);
	if (!err)
		err = ipuxcom_nl_dev_list(nl, &devs, &n);
	if (!err)
		ipuxcom_nl_dev_list_free(devs);
	ipuxcom_nl_close(nl);
	return err;
}

static int step_monitor_join(void *ctx)
{
	struct ipuxcom_monitor *mon = NULL;
	int err = ipuxcom_monitor_open(&mon);

	(void)ctx;
	ipuxcom_monitor_close(mon);
	return err;
}

/* close(2) of a file attached to the device with a transport buffer pinned */
struct close_ctx {
	int fd;
	uint8_t *buf;
};

static int prepare_attached(void *ctx)
{
	struct close_ctx *c = ctx;
	struct ipuxcom_ioc_reset rs = { .size = sizeof(rs) };
	struct ipuxcom_ioc_buf b = { .size = sizeof(b), .index = 0, .bytes = 16 * 4096 };
	int err;

	c->fd = ixt_open();
	if (c->fd < 0)
		return -errno;
	b.addr = (uintptr_t)c->buf;
	err = ixt_attach(c->fd, ixt_dev_id());
	if (!err)
		err = ixt_ioctl(c->fd, IPUXCOM_IOC_RESET, &rs);
	if (!err)
		err = ixt_ioctl(c->fd, IPUXCOM_IOC_BUF_ATTACH, &b);
	return err;
}

/* close(2) of *@fdp, which is -1 afterwards: the undo must not close it again */
static int close_once(int *fdp)
{
	int fd = *fdp;

	*fdp = -1;
	return close(fd) ? -errno : 0;
}

static int step_close(void *ctx)
{
	return close_once(&((struct close_ctx *)ctx)->fd);
}

/*
 * A simulated device added (@ctx: the count before) and the count put back
 * after, or one removed again (the count restored when the removal failed).
 */
static int step_sim_add(void *ctx)
{
	return ixt_set_sim_devices(*(int *)ctx + 1);
}

static int step_sim_remove(void *ctx)
{
	return ixt_set_sim_devices(*(int *)ctx);
}

static int undo_sim_remove(void *ctx)
{
	return ixt_sim_devices() == *(int *)ctx ? 0 : ixt_set_sim_devices(*(int *)ctx);
}

/*
 * close(2), RESET and a simulated device's removal while the pins belong
 * to another process whose mmap_lock is stalled (ixt_fuse_stall.h): each
 * N gets a fresh device state and a fresh stalled owner, which must end
 * once released, its pages unpinned (check_after counts them).
 */
struct owner_ctx {
	int fd;
	int sim0;	/* simulated devices before; the step adds one */
	bool own_device;
	struct ixt_stalled_owner o;
	bool stalled;
	char why[200];
};

static int prepare_stalled_owner(void *ctx)
{
	struct owner_ctx *c = ctx;
	struct ixt_stall_how how = { .slot = 0, .bytes = 16 * 4096 };
	unsigned char ids[IXT_MAX_IDS];
	struct ipuxcom_ioc_reset rs = { .size = sizeof(rs) };
	int dev = (int)ixt_dev_id(), err;

	if (c->own_device) {
		ixt_sim_device_ids(ids);
		err = ixt_set_sim_devices(c->sim0 + 1);
		dev = err ? err : ixt_added_sim_device(ids);
		if (dev < 0)
			return dev;
	}
	c->fd = ixt_open();
	if (c->fd < 0)
		return -errno;
	err = ixt_attach(c->fd, (uint32_t)dev);
	if (!err)
		err = ixt_ioctl(c->fd, IPUXCOM_IOC_RESET, &rs);
	if (err)
		return err;
	how.fd = c->fd;
	how.deadline_s = 60 * (unsigned int)ixt_timeout_scale();
	c->stalled = true;
	err = ixt_stalled_owner_start(&c->o, &how, c->why, sizeof(c->why));
	if (err)
		fprintf(stderr, "# stalled owner: %s\n", c->why);
	return err;
}

static int step_owner_close(void *ctx)
{
	return close_once(&((struct owner_ctx *)ctx)->fd);
}

static int step_owner_reset(void *ctx)
{
	struct ipuxcom_ioc_reset rs = { .size = sizeof(rs) };

	return ixt_ioctl(((struct owner_ctx *)ctx)->fd, IPUXCOM_IOC_RESET, &rs);
}

static int step_owner_device_gone(void *ctx)
{
	return ixt_set_sim_devices(((struct owner_ctx *)ctx)->sim0);
}

/* Release the owner (it must end by itself), close, put the device count back. */
static int undo_stalled_owner(void *ctx)
{
	struct owner_ctx *c = ctx;
	int err = 0;

	if (c->stalled)
		err = ixt_stalled_owner_end(&c->o, 20000 * (int)ixt_timeout_scale());
	c->stalled = false;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	if (c->own_device && ixt_sim_devices() != c->sim0 && !err)
		err = ixt_set_sim_devices(c->sim0);
	return err;
}

/*
 * What the load sweep does not visit: generic netlink (DEV_GET dump and
 * the events group's join), close(2) of an attached file with pages
 * pinned, and a simulated device's arrival and removal, each under
 * fail-nth from N = 1 until it runs through (sweep_step, with skip_n's
 * strides past IPUXCOM_FAILNTH_DENSE; measured: 67, 45, 0, 62 and 15
 * points, so every N); then close, RESET and removal again with the pins
 * another process's, whose mmap_lock a FUSE read holds (issue 32).
 */
TEST_F_TIMEOUT(failnth, netlink_close_and_removal, 36000)
{
	const char *dense_env = getenv("IPUXCOM_FAILNTH_DENSE");
	unsigned int dense = dense_env ? (unsigned int)atoi(dense_env) : 64;
	struct close_ctx cc = { .fd = -1 };
	int sim0 = ixt_sim_devices();
	const struct nth_step steps[] = {
		{ "netlink DEV_GET dump", NULL, step_nl_dev_list, NULL, NULL, false },
		{ "events group join", NULL, step_monitor_join, NULL, NULL, false },
		{ "simulated device added", NULL, step_sim_add, step_sim_remove, &sim0, false },
		{ "close with pages pinned", prepare_attached, step_close, NULL, &cc, false },
		{ "simulated device removed", step_sim_add, step_sim_remove, undo_sim_remove,
		  &sim0, false },
	};
	struct owner_ctx oc[3] = {
		{ .fd = -1 }, { .fd = -1 }, { .fd = -1, .sim0 = sim0, .own_device = true },
	};
	const struct nth_step stalled[] = {
		{ "close, the pins' owner stalled", prepare_stalled_owner, step_owner_close,
		  undo_stalled_owner, &oc[0], false },
		{ "RESET, the pins' owner stalled", prepare_stalled_owner, step_owner_reset,
		  undo_stalled_owner, &oc[1], false },
		{ "device removed, the pins' owner stalled", prepare_stalled_owner,
		  step_owner_device_gone, undo_stalled_owner, &oc[2], false },
	};
	unsigned int runs = 0, ticks;
	char why[300];
	long pinned0;
	double t0 = now_s();

	if (self->skip)
		SKIP(return, "%s", self->skip);
	IXT_REQUIRE_SIM();
	ASSERT_LE(1, dense);
	ASSERT_EQ(0, check_after(NULL, -1, why, sizeof(why))) TH_LOG("%s", why);
	pinned0 = ixt_pinned_pages();
	cc.buf = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, cc.buf);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		runs += sweep_step(_metadata, &steps[i], dense, pinned0, &ticks);
	if (ixt_fuse_available()) {
		for (size_t i = 0; i < sizeof(stalled) / sizeof(stalled[0]); i++)
			runs += sweep_step(_metadata, &stalled[i], dense, pinned0, &ticks);
	} else {
		TH_LOG("no FUSE in this kernel: the steps under a stalled owner were not run");
	}
	EXPECT_EQ(sim0, ixt_sim_devices());
	munmap(cc.buf, 16 * 4096);
	TH_LOG("%u runs in %.1f s", runs, now_s() - t0);
	if (self->have_kmemleak)
		EXPECT_EQ(0, kmemleak_ours(_metadata));
}

/*
 * The ioctls the load sequence does not make (ixt_ioc_rows.h's request of
 * each), each on a freshly attached and reset device (the TDI ones after
 * an AUTOLOAD too, so that they take their whole path), under fail-nth as
 * the steps above; a request this state refuses is swept for its refusal
 * path (running through means the same refusal).
 */
struct ioc_ctx {
	const struct row *row;
	int fd;
	uint8_t *page;
};

static bool ioc_is_tdi(unsigned long cmd)
{
	return cmd == IPUXCOM_IOC_TDI_READ_REGS || cmd == IPUXCOM_IOC_TDI_EXEC ||
	       cmd == IPUXCOM_IOC_TDI_READ_SRAM || cmd == IPUXCOM_IOC_TDI_WRITE_SRAM;
}

static int prepare_ioc(void *ctx)
{
	struct ioc_ctx *c = ctx;
	struct ipuxcom_ioc_autoload al = {
		.size = sizeof(al), .image = (uintptr_t)image, .image_size = sizeof(image),
	};
	struct ipuxcom_ioc_reset rs = { .size = sizeof(rs) };
	struct ipuxcom_ioc_buf b = { .size = sizeof(b), .index = IPUXCOM_BUF_SLOT_LOADER,
				     .bytes = 4096 };
	int err;

	c->fd = ixt_open();
	if (c->fd < 0)
		return -errno;
	err = ixt_attach(c->fd, ixt_dev_id());
	if (!err)
		err = ixt_ioctl(c->fd, IPUXCOM_IOC_RESET, &rs);
	/* something to detach */
	if (!err && c->row->cmd == IPUXCOM_IOC_BUF_DETACH) {
		b.addr = (uintptr_t)c->page;
		err = ixt_ioctl(c->fd, IPUXCOM_IOC_BUF_ATTACH, &b);
	}
	/*
	 * A running context for the TDI requests: after RESET every context
	 * is inactive and they refuse with -ENOEXEC before touching a
	 * register; after AUTOLOAD context 0 runs (the simulator's model) and
	 * they take their whole path: stop, inject, restore.
	 */
	if (!err && ioc_is_tdi(c->row->cmd))
		err = ixt_ioctl(c->fd, IPUXCOM_IOC_AUTOLOAD, &al);
	return err;
}

static int step_ioc(void *ctx)
{
	struct ioc_ctx *c = ctx;
	union any_ioc a;

	memset(&a, 0, sizeof(a));
	c->row->fill(&a, c->page);
	if (c->row->cmd == IPUXCOM_IOC_BUF_DETACH)
		a.buf.index = IPUXCOM_BUF_SLOT_LOADER;
	return ixt_ioctl(c->fd, c->row->cmd, &a);
}

static int undo_ioc(void *ctx)
{
	struct ioc_ctx *c = ctx;

	close(c->fd);
	c->fd = -1;
	return 0;
}

TEST_F_TIMEOUT(failnth, every_other_ioctl, 36000)
{
	const char *dense_env = getenv("IPUXCOM_FAILNTH_DENSE");
	unsigned int dense = dense_env ? (unsigned int)atoi(dense_env) : 64;
	unsigned int runs = 0, ticks, swept = 0;
	struct ioc_ctx cc = { .fd = -1 };
	char why[300];
	long pinned0;
	double t0 = now_s();

	if (self->skip)
		SKIP(return, "%s", self->skip);
	IXT_REQUIRE_SIM();
	ASSERT_LE(1, dense);
	ASSERT_EQ(0, check_after(NULL, -1, why, sizeof(why))) TH_LOG("%s", why);
	pinned0 = ixt_pinned_pages();
	cc.page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, cc.page);
	for (size_t i = 0; i < NROWS; i++) {
		/* the TDI requests must run through (prepare_ioc() gives them a context) */
		const struct nth_step st = { rows[i].name, prepare_ioc, step_ioc, undo_ioc, &cc,
					     !ioc_is_tdi(rows[i].cmd) };

		/* what the load sequence makes is load_and_host_exchange's */
		switch (rows[i].cmd) {
		case IPUXCOM_IOC_AUTOLOAD: case IPUXCOM_IOC_BUF_ATTACH:
		case IPUXCOM_IOC_LOAD_BATCH: case IPUXCOM_IOC_LOAD_FINISH:
		case IPUXCOM_IOC_HOSTX_SETUP: case IPUXCOM_IOC_HOSTX_CALL:
		case IPUXCOM_IOC_RESET:
			continue;
		}
		cc.row = &rows[i];
		runs += sweep_step(_metadata, &st, dense, pinned0, &ticks);
		swept++;
	}
	munmap(cc.page, 4096);
	TH_LOG("%u ioctls, %u runs in %.1f s", swept, runs, now_s() - t0);
	if (self->have_kmemleak)
		EXPECT_EQ(0, kmemleak_ours(_metadata));
}

TEST_HARNESS_MAIN
