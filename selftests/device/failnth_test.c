// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation-failure sweep in the style of iommufd's fail_nth selftests,
 * for the debug-kernel lane (make check-debug; skips on a kernel without
 * /proc/thread-self/fail-nth, such as the normal test VM's).
 *
 * The sequence: attach, reset, a small image load (the image of ixt_load.h,
 * packed once), host exchange setup and one write/run/read round (the
 * notes' oracle, as in hostx_test). Every ioctl the library makes on the
 * way is one "command"; the sweep visits the first command of each ioctl
 * request code (the load repeats LOAD_BATCH many times: the first one
 * stands for them). For each such command c and N = 1, 2, ...: run the
 * sequence from a fresh open, let the commands before c run normally, and
 * make the N-th allocation (slab or page: failslab and fail_page_alloc
 * through fail-nth) inside command c fail. Then:
 *   - the command either succeeded or failed with an errno, which the
 *     library passed on, never a crash or a hang (KASAN, lockdep and
 *     panic_on_warn watch the kernel side);
 *   - the device still answers DEV_QUERY, and RESET brings it back to idle;
 *   - once reset and closed, no page stays pinned (ixt_pinned_pages);
 * until command c runs through without reaching an N-th allocation, or N
 * reaches IPUXCOM_FAILNTH_MAX_N (default 12: the module's own allocations
 * come first in a command; past them are the simulator's, which fail as a
 * device that does not answer, ETIMEDOUT, at 2 s a try). At the end a clean
 * run must still work and kmemleak, scanned, must show no leak whose
 * backtrace names an ipuxcom module (or an address in module space).
 *
 * Under KASAN in TCG one run takes seconds: the sweep has a time budget,
 * IPUXCOM_FAILNTH_BUDGET seconds (default 420). What the budget or the cap
 * left out is listed ("# coverage: ..."); that is not a failure.
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

#define FAILNTH_PATH	"/proc/thread-self/fail-nth"
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
static int fnth_fd = -1;	/* /proc/thread-self/fail-nth */
static int ioc_count;		/* ioctls seen since the sequence began */
static int ioc_target = -1;	/* the one to inject into */
static unsigned int ioc_nth;	/* ... at its N-th allocation */
static int ioc_injected;	/* 1: the fault fired, 0: not reached */
static unsigned long ioc_req;	/* the target's request code */
#define MAX_CMDS 256
static unsigned long ioc_log[MAX_CMDS];	/* every ioctl's request code */
static int ioc_ret, ioc_errno;	/* and its outcome */

/*
 * With FAULT_INJECTION_USERCOPY (the debug kernel) every user copy is a
 * fault point too, those of reading and writing fail-nth itself included:
 * a fault still pending after the step fires in the read-back's copy
 * (EFAULT), or in the copy of a write of "0"; either way it was not
 * injected into the step, and fail-nth is 0 after it.
 */
static void fnth_write(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(fnth_fd, buf, (size_t)len, 0) != len && !(n == 0 && errno == EFAULT))
		abort();
}

/* Did the fault of the last fnth_write(N) fire (in the step)? Leaves fail-nth 0. */
static int fnth_fired(void)
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
	ret = syscall(SYS_ioctl, fd, req, arg);
	err = errno;
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

TEST_F_TIMEOUT(failnth, load_and_host_exchange, 3600)
{
	const char *budget_env = getenv("IPUXCOM_FAILNTH_BUDGET");
	const char *maxn_env = getenv("IPUXCOM_FAILNTH_MAX_N");
	double budget = budget_env ? atof(budget_env) : 420, t0 = now_s();
	unsigned int max_n = maxn_env ? (unsigned int)atoi(maxn_env) : 12;
	unsigned long reqs[MAX_CMDS];
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
	ASSERT_EQ(0, ixt_pack_small(&the_image, msg, sizeof(msg))) TH_LOG("%s", msg);
	/* a clean run first: it counts the commands and notes their codes */
	ioc_target = -1;
	err = run_sequence(&self->m, &ipu, &step, msg, sizeof(msg));
	ASSERT_EQ(0, err) TH_LOG("clean run: %s: %s: %s", step, strerror(-err), msg);
	ncmds = ioc_count;
	ASSERT_GE(MAX_CMDS, ncmds);
	memcpy(reqs, ioc_log, sizeof(reqs[0]) * ncmds);
	ASSERT_EQ(0, check_after(ipu, -1, why, sizeof(why))) TH_LOG("%s", why);
	pinned0 = ixt_pinned_pages();
	TH_LOG("%d commands (ioctls) in the sequence; pinned pages at rest: %ld", ncmds, pinned0);

	for (int c = 0; c < ncmds; c++) {
		unsigned int n;
		int seen = 0;

		for (int k = 0; k < c; k++)
			if (reqs[k] == reqs[c] && reqs[c])
				seen = 1;
		if (seen)
			continue;
		for (n = 1; n <= max_n; n++) {
			if (now_s() - t0 > budget)
				break;
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
		if (now_s() - t0 > budget && n <= max_n) {
			snprintf(unswept + strlen(unswept), sizeof(unswept) - strlen(unswept),
				 " %d(0x%lx from N=%u)", c, reqs[c], n);
			continue;
		}
		swept++;
		if (n > max_n)
			snprintf(capped + strlen(capped), sizeof(capped) - strlen(capped),
				 " %d(0x%lx)", c, reqs[c]);
	}
	TH_LOG("%d runs in %.1fs over %d distinct commands: %d faults injected, %d failed cleanly"
	       " (%d of them ETIMEDOUT: the simulator's allocation), %d succeeded anyway",
	       runs, now_s() - t0, swept, injected, failed_clean, timedout, succeeded_anyway);
	if (capped[0])
		TH_LOG("coverage: still allocating at N=%u (not swept further):%s", max_n, capped);
	if (unswept[0])
		TH_LOG("coverage: budget of %.0fs spent; not swept:%s", budget, unswept);

	/* and a clean run still works */
	err = run_sequence(&self->m, &ipu, &step, msg, sizeof(msg));
	ASSERT_EQ(0, err) TH_LOG("final run: %s: %s: %s", step, strerror(-err), msg);
	ASSERT_EQ(0, check_after(ipu, pinned0, why, sizeof(why))) TH_LOG("%s", why);
	ipuxcom_image_close(the_image);

	if (!self->have_kmemleak) {
		TH_LOG("no %s: leak check skipped", KMEMLEAK);
		return;
	}
	EXPECT_EQ(0, kmemleak_ours(_metadata));
}

/*
 * One step under fail-nth for N = 1, 2, ... until the step runs through
 * without reaching its N-th fault point, or N reaches @max_n. @prepare
 * (if any) sets up what the step needs before each N, outside fail-nth;
 * @step runs the step (its -errno or 0); @undo (if any) puts things back
 * after it (0 or -errno); then the device must still work (check_after).
 * Returns how many N were run; *@capped says the cap was hit.
 */
struct nth_step {
	const char *name;
	int (*prepare)(void *ctx);
	int (*step)(void *ctx);
	int (*undo)(void *ctx);
	void *ctx;
};

static unsigned int sweep_step(struct __test_metadata *_metadata, const struct nth_step *st,
			       unsigned int max_n, long pinned0, bool *capped)
{
	char why[300];
	unsigned int n;

	*capped = true;
	for (n = 1; n <= max_n; n++) {
		int err, hit;

		if (st->prepare)
			ASSERT_EQ(0, st->prepare(st->ctx)) TH_LOG("%s, N=%u: setting up", st->name, n);
		fnth_write(n);
		err = st->step(st->ctx);
		hit = fnth_fired();
		if (err)
			EXPECT_TRUE(clean_errno(-err))
				TH_LOG("%s, N=%u: %d (%s)", st->name, n, err, strerror(-err));
		if (st->undo)
			EXPECT_EQ(0, st->undo(st->ctx)) TH_LOG("%s, N=%u: putting back", st->name, n);
		EXPECT_EQ(0, check_after(NULL, pinned0, why, sizeof(why)))
			TH_LOG("%s, N=%u (%s): %s", st->name, n, err ? strerror(-err) : "ok", why);
		if (!hit) {
			EXPECT_EQ(0, err) TH_LOG("%s, N=%u: no fault and still %s", st->name, n,
						 strerror(-err));
			*capped = false;
			break;
		}
	}
	return n;
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

static int step_close(void *ctx)
{
	struct close_ctx *c = ctx;
	int fd = c->fd;

	c->fd = -1;
	return close(fd) ? -errno : 0;
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
 * What the load sweep does not visit: generic netlink (DEV_GET dump and
 * the events group's join), close(2) of an attached file with pages
 * pinned, and a simulated device's arrival and removal, each under
 * fail-nth from N = 1 until it runs through (or IPUXCOM_FAILNTH_MAX_N2,
 * default 16: a device's arrival allocates its tile memory page by page,
 * and every N costs a RESET, seconds under KASAN).
 */
TEST_F_TIMEOUT(failnth, netlink_close_and_removal, 3600)
{
	const char *maxn_env = getenv("IPUXCOM_FAILNTH_MAX_N2");
	unsigned int max_n = maxn_env ? (unsigned int)atoi(maxn_env) : 16;
	struct close_ctx cc = { .fd = -1 };
	int sim0 = ixt_sim_devices();
	const struct nth_step steps[] = {
		{ "netlink DEV_GET dump", NULL, step_nl_dev_list, NULL, NULL },
		{ "events group join", NULL, step_monitor_join, NULL, NULL },
		{ "simulated device added", NULL, step_sim_add, step_sim_remove, &sim0 },
		{ "close with pages pinned", prepare_attached, step_close, NULL, &cc },
		{ "simulated device removed", step_sim_add, step_sim_remove, undo_sim_remove,
		  &sim0 },
	};
	char why[300];
	long pinned0;
	double t0 = now_s();

	if (self->skip)
		SKIP(return, "%s", self->skip);
	IXT_REQUIRE_SIM();
	ASSERT_EQ(0, check_after(NULL, -1, why, sizeof(why))) TH_LOG("%s", why);
	pinned0 = ixt_pinned_pages();
	cc.buf = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, cc.buf);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		bool capped;
		unsigned int n = sweep_step(_metadata, &steps[i], max_n, pinned0, &capped);

		TH_LOG("%s: N = 1..%u%s", steps[i].name, capped ? max_n : n,
		       capped ? " (capped: still allocating)" : ", then it ran through");
	}
	EXPECT_EQ(sim0, ixt_sim_devices());
	munmap(cc.buf, 16 * 4096);
	TH_LOG("%.1f s", now_s() - t0);
	if (self->have_kmemleak)
		EXPECT_EQ(0, kmemleak_ours(_metadata));
}

TEST_HARNESS_MAIN
