// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's fault sites driven by the kernel's fault injection
 * (enum c600_sim_site in sim/c600_sim.h, the hook in
 * kmod/sim/sim_backend.c): each site event calls should_fail() on the
 * device's fault_attr of that kind, ipuxcom_sim/devN/fail_<site>/.
 *
 *  - fail-nth: with /proc/thread-self/fail-nth = k before one AUTOLOAD,
 *    the k-th fault point of that ioctl fails. AUTOLOAD has two simulator
 *    sites (the GO of the staging and of the delivery transaction); the
 *    kernel's other fault points (failslab, fail_page_alloc, user copies,
 *    where configured) count too, so the sweep tells the simulator's from
 *    them by its injected_go counter. Some of those points come and go
 *    from one call to the next: the debug kernel's own allocations that
 *    do not reclaim (debugobjects refilling its pool, KASAN's stack depot)
 *    happen in the calling task now and then. One of them in the run that
 *    aims at a GO site makes the sweep hit the point before it instead,
 *    and step over that site (seen in CI: stage 1 at k=3 and k=4, stage 2
 *    never). So the sweep is repeated, up to SWEEP_TRIES times, until
 *    both transactions were seen to fail. At a simulator site: -ETIMEDOUT
 *    with stage = that transaction, the device NEEDS_RESET, RESET
 *    recovers and AUTOLOAD works again.
 *  - fail_go with probability 100 and times 1: exactly one command fails.
 *  - fail_tdi the same way: TDI_EXEC fails at once with -EILSEQ (the fault
 *    that ends a command fast), no RESET needed, the next one works.
 *  - a whole load asks the hook a few dozen times (each question is one
 *    fail-nth tick): logged per site and bounded.
 *
 * These skip where the kernel has no fault injection (Debian's 6.1, the
 * normal VM lane); they run in the debug lane (make check-debug).
 *
 * global.memcg_device_model_charged_to_adder (any kernel with cgroup2's memory
 * controller): the model's memory is charged to the memory cgroup of the
 * task that adds the device (sim/c600_sram.h): memory.current grows by
 * the model's ~2.5 MiB; with memory.max just above what the cgroup uses,
 * adding a device fails with -ENOMEM, and nobody is OOM-killed.
 */
#include "kselftest_harness.h"

#include <grp.h>
#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_load.h"
#include "ixt_failnth.h"

#define BOOT_BYTES	948
#define SHORT_NS	(20ULL * 1000 * 1000)
#define LONG_NS		(10ULL * 1000 * 1000 * 1000)
#define SWEEP_MAX	64
/* sweeps of fail-nth over one AUTOLOAD until both GO sites were hit */
#define SWEEP_TRIES	4
/* A whole load's questions to the hook (2 GO + 2 per batch + release + start). */
#define LOAD_ASKS_MAX	64
#define NOP		0x44f0f3f1u

static const char *const sites[] = { "go", "mark", "tdi", "dma", "ctx_stop" };
#define NSITES (sizeof(sites) / sizeof(sites[0]))

static long site_stat(uint32_t dev, const char *what, const char *site)
{
	char name[48];

	snprintf(name, sizeof(name), "%s_%s", what, site);
	return ixt_sim_stat(dev, name);
}

static int attr_write(uint32_t dev, const char *site, const char *file, int value)
{
	char path[160], buf[16];
	int fd, len, ret = 0;

	snprintf(path, sizeof(path), SIM_DEBUGFS "/dev%u/fail_%s/%s", dev, site, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%d\n", value);
	if (write(fd, buf, (size_t)len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

static long attr_read(uint32_t dev, const char *site, const char *file)
{
	char path[160], buf[32] = "";
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), SIM_DEBUGFS "/dev%u/fail_%s/%s", dev, site, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtol(buf, NULL, 0) : -1;
}

static int do_autoload(int fd, const void *img, uint64_t timeout_ns,
		       struct ipuxcom_ioc_autoload *out)
{
	struct ipuxcom_ioc_autoload al = {
		.size = sizeof(al), .image = (uintptr_t)img, .image_size = BOOT_BYTES,
		.timeout_ns = timeout_ns,
	};
	int ret = ixt_ioctl(fd, IPUXCOM_IOC_AUTOLOAD, &al);

	if (out)
		*out = al;
	return ret;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

FIXTURE(sf) {
	int fd;
	uint32_t dev;
	uint8_t boot[BOOT_BYTES];
	long injected0[NSITES];
};

FIXTURE_SETUP(sf)
{
	char path[160];

	self->fd = -1;
	if (access(FAILNTH_PATH, W_OK))
		SKIP(return, "no " FAILNTH_PATH " (kernel without CONFIG_FAULT_INJECTION)");
	IXT_SETUP_IDLE_SIM(self->fd, self->dev);
	snprintf(path, sizeof(path), SIM_DEBUGFS "/dev%u/fail_go/probability", self->dev);
	if (access(path, W_OK))
		SKIP(return, "no %s (kernel without CONFIG_FAULT_INJECTION_DEBUG_FS)", path);
	for (size_t i = 0; i < BOOT_BYTES; i++)
		self->boot[i] = (uint8_t)(i * 131 + 5);
	for (size_t i = 0; i < NSITES; i++) {
		ASSERT_EQ(0, attr_write(self->dev, sites[i], "probability", 0));
		ASSERT_EQ(0, attr_write(self->dev, sites[i], "times", 1));
		self->injected0[i] = site_stat(self->dev, "injected", sites[i]);
		ASSERT_LE(0, self->injected0[i]);
	}
	fnth_fd = open(FAILNTH_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fnth_fd);
}

FIXTURE_TEARDOWN(sf)
{
	if (fnth_fd >= 0) {
		fnth_write(0);
		close(fnth_fd);
		fnth_fd = -1;
	}
	if (self->fd < 0)
		return;
	ixt_sim_clear_faults(self->dev);
	ixt_reset(self->fd);
	close(self->fd);
}

/* Faults injected at @site since the fixture began. */
static long injected(uint32_t dev, long *injected0, const char *site)
{
	for (size_t i = 0; i < NSITES; i++)
		if (!strcmp(sites[i], site))
			return site_stat(dev, "injected", site) - injected0[i];
	return -1;
}

/*
 * One sweep of fail-nth = 1, 2, ... over AUTOLOAD: every point the call
 * passes fails once. Each GO site hit must fail as documented; returns
 * the set of stages (1 << stage) hit, or 0 with the test failed.
 */
static unsigned int go_sweep(struct __test_metadata *_metadata, FIXTURE_DATA(sf) *self)
{
	unsigned int stages = 0, k;
	int go_hits = 0, others = 0;

	for (k = 1; k <= SWEEP_MAX; k++) {
		long inj0 = site_stat(self->dev, "injected", "go");
		long asked0 = site_stat(self->dev, "asked", "go");
		struct ipuxcom_ioc_autoload al;
		long inj;
		int ret, fired;

		fnth_write(k);
		ret = do_autoload(self->fd, self->boot, SHORT_NS, &al);
		fired = fnth_fired();
		inj = site_stat(self->dev, "injected", "go") - inj0;
		if (!fired) {
			/* the whole ioctl ran past its fault points */
			EXPECT_EQ(0, ret) TH_LOG("k=%u: no fault, yet %s", k, strerror(-ret));
			EXPECT_EQ(0, inj);
			EXPECT_EQ(2, site_stat(self->dev, "asked", "go") - asked0);
			EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(self->fd));
			break;
		}
		if (inj) {
			EXPECT_EQ(1, inj) TH_LOG("k=%u", k);
			go_hits++;
			TH_LOG("k=%u: a GO site: %s, stage %u", k, strerror(-ret), al.stage);
			/* the documented errno, and which transaction did not finish */
			EXPECT_EQ(-ETIMEDOUT, ret);
			EXPECT_TRUE(al.stage == 1 || al.stage == 2) TH_LOG("stage %u", al.stage);
			stages |= 1u << (al.stage & 31);
			EXPECT_EQ(0x100u, al.csr & 0x100u) TH_LOG("GO not reported: csr 0x%x", al.csr);
			EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(self->fd));
			EXPECT_EQ(-EBADFD, do_autoload(self->fd, self->boot, SHORT_NS, NULL));
		} else {
			/* another fault point of the kernel's: an allocation, a user copy */
			others++;
			TH_LOG("k=%u: a kernel fault point, not the simulator's: %s", k,
			       ret ? strerror(-ret) : "succeeded anyway");
		}
		EXPECT_EQ(0, ixt_reset(self->fd));
		EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ixt_state(self->fd));
		if (inj) {
			/* RESET recovers: the same command works */
			EXPECT_EQ(0, do_autoload(self->fd, self->boot, 0, NULL));
			EXPECT_EQ(0, ixt_reset(self->fd));
		}
		if (!_metadata->passed)
			return 0;
	}
	EXPECT_GE(SWEEP_MAX, k) TH_LOG("AUTOLOAD still faulting at fail-nth %u", k);
	TH_LOG("AUTOLOAD: %u fault points, %d of them the simulator's GO sites (%d others)",
	       k - 1, go_hits, others);
	return _metadata->passed ? stages : 0;
}

/* fail-nth = k before one AUTOLOAD: each of its two GO sites fails. */
TEST_F(sf, failnth_fails_each_go_site_of_autoload)
{
	/* the staging (stage 1) and the delivery (stage 2) transaction */
	const unsigned int both = (1u << 1) | (1u << 2);
	unsigned int seen = 0, stages;
	int tries;

	if (_metadata->skip)
		return;
	for (tries = 1; tries <= SWEEP_TRIES && seen != both; tries++) {
		stages = go_sweep(_metadata, self);
		ASSERT_TRUE(_metadata->passed);
		ASSERT_EQ(0u, stages & ~both) TH_LOG("stages hit: 0x%x", stages);
		seen |= stages;
		if (seen != both)
			TH_LOG("sweep %d: stages hit so far 0x%x: sweeping again", tries, seen);
	}
	EXPECT_EQ(both, seen) TH_LOG("after %d sweeps", tries - 1);
	/* no other site was asked to fail */
	for (size_t i = 1; i < NSITES; i++) {
		const char *site = sites[i];

		EXPECT_EQ(0, injected(self->dev, self->injected0, site)) TH_LOG("%s", site);
	}
}

/* probability 100, times 1: exactly one command fails, the next one works. */
TEST_F(sf, attr_probability_times_one_fails_one_command)
{
	struct ipuxcom_ioc_autoload al;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, attr_write(self->dev, "go", "times", 1));
	ASSERT_EQ(0, attr_write(self->dev, "go", "probability", 100));
	EXPECT_EQ(-ETIMEDOUT, do_autoload(self->fd, self->boot, SHORT_NS, &al));
	EXPECT_EQ(1u, al.stage);
	EXPECT_EQ(1, injected(self->dev, self->injected0, "go"));
	EXPECT_EQ(0, attr_read(self->dev, "go", "times"));
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(self->fd));
	ASSERT_EQ(0, ixt_reset(self->fd));
	/* times used up: the attr no longer fails anything */
	EXPECT_EQ(0, do_autoload(self->fd, self->boot, SHORT_NS * 50, NULL));
	EXPECT_EQ(1, injected(self->dev, self->injected0, "go"));
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(self->fd));
	ASSERT_EQ(0, attr_write(self->dev, "go", "probability", 0));
}

/* TDI: the injected instruction fails at once (no wait), no RESET needed. */
TEST_F(sf, attr_tdi_fails_fast_with_eilseq)
{
	struct ipuxcom_ioc_tdi_exec te = {
		.size = sizeof(te), .tile = 0, .context = 0, .insn = NOP, .timeout_ns = LONG_NS,
	};
	double t0;
	int ret;

	if (_metadata->skip)
		return;
	/* context 0 of every tile runs the bootloader */
	ASSERT_EQ(0, do_autoload(self->fd, self->boot, 0, NULL));
	ASSERT_EQ(0, attr_write(self->dev, "tdi", "times", 1));
	ASSERT_EQ(0, attr_write(self->dev, "tdi", "probability", 100));
	t0 = now_s();
	ret = ixt_ioctl(self->fd, IPUXCOM_IOC_TDI_EXEC, &te);
	EXPECT_EQ(-EILSEQ, ret);
	EXPECT_GT(2.0, now_s() - t0) TH_LOG("took %.2fs: waited for the timeout", now_s() - t0);
	EXPECT_NE(0u, te.tdi_sts & IPUXCOM_TDI_STS_INVALID) TH_LOG("tdi_sts 0x%x", te.tdi_sts);
	EXPECT_EQ(1, injected(self->dev, self->injected0, "tdi"));
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(self->fd));
	te.tdi_sts = 0;
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_TDI_EXEC, &te));
	EXPECT_EQ(1, injected(self->dev, self->injected0, "tdi"));
	ASSERT_EQ(0, attr_write(self->dev, "tdi", "probability", 0));
}

/* A whole load asks the hook a few dozen times: each is one fail-nth tick. */
TEST_F(sf, a_load_asks_few_times)
{
	struct ipuxcom_image *img = NULL;
	struct ipuxcom *ipu = NULL;
	long asked0[NSITES], asked[NSITES], total = 0;
	char msg[300];

	if (_metadata->skip)
		return;
	/* the library's handle takes the device: the fixture's lets go */
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(0, ixt_pack_small(&img, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &ipu));
	ASSERT_EQ(0, ipuxcom_attach(ipu, self->dev));
	ASSERT_EQ(0, ipuxcom_reset(ipu, NULL));
	for (size_t i = 0; i < NSITES; i++)
		asked0[i] = site_stat(self->dev, "asked", sites[i]);
	ASSERT_EQ(0, ixt_load_image(ipu, img, msg, sizeof(msg))) TH_LOG("%s", msg);
	for (size_t i = 0; i < NSITES; i++) {
		asked[i] = site_stat(self->dev, "asked", sites[i]) - asked0[i];
		total += asked[i];
	}
	TH_LOG("one load asked %ld times: go %ld, mark %ld, tdi %ld, dma %ld, ctx_stop %ld",
	       total, asked[0], asked[1], asked[2], asked[3], asked[4]);
	EXPECT_EQ(2, asked[0]);
	/* 23 batches and the 0xff release read the transport buffer */
	EXPECT_EQ(24, asked[3]);
	EXPECT_GE(LOAD_ASKS_MAX, total);
	ASSERT_EQ(0, ipuxcom_reset(ipu, NULL));
	ipuxcom_close(ipu);
	ipuxcom_image_free(img);
}

/* ------------------------------------------------------------ who may fail a site */
/* The unprivileged user: the group the node is given, as udev's rule does. */
#define UNPRIV_UID	65534
#define UNPRIV_GID	4242
#define TDI_SWEEP	32

/*
 * fail-nth = 1 .. TDI_SWEEP before one TDI_READ_SRAM each on @fd: how many
 * came back with the simulator's TDI fault (-EILSEQ), -1 if a read was
 * never let through all its fault points.
 */
static int tdi_read_sweep(int fd, int fnth)
{
	uint32_t words[4];
	struct ipuxcom_ioc_tdi_sram ts = {
		.size = sizeof(ts), .addr = 0x4c000, .count = 4, .data = (uintptr_t)words,
	};
	int k, site_faults = 0, ran_through = 0;

	fnth_fd = fnth;
	for (k = 1; k <= TDI_SWEEP; k++) {
		int ret;

		ts.done = 0;
		ts.tdi_sts = 0;
		fnth_write((unsigned int)k);
		ret = ixt_ioctl(fd, IPUXCOM_IOC_TDI_READ_SRAM, &ts);
		if (!fnth_fired())
			ran_through++;
		if (ret == -EILSEQ)
			site_faults++;
	}
	return ran_through ? site_faults : -1;
}

/*
 * In the child: become UNPRIV_UID keeping CAP_SYS_RAWIO only, take the
 * device from root (owner change: RESET), run the bootloader on every
 * tile (AUTOLOAD: the device is this user's work now), then give up every
 * capability, arm its own fail-nth and read SRAM through TDI (allowed to
 * any user of a device its uid loaded). Exit status: 0 no site failed,
 * 1 a site failed, 10 + step if a step failed.
 */
static void unpriv_child(uint32_t dev, const uint8_t *boot)
{
	gid_t g = UNPRIV_GID;
	int fd, fnth, faults;

	if (setgroups(1, &g) || setresgid(UNPRIV_UID, UNPRIV_UID, UNPRIV_UID) ||
	    prctl(PR_SET_KEEPCAPS, 1) || setresuid(UNPRIV_UID, UNPRIV_UID, UNPRIV_UID) ||
	    ixt_caps_set(1u << CAP_SYS_RAWIO))
		_exit(10);
	/* its /proc/<tid> files (fail-nth) are its own again */
	if (prctl(PR_SET_DUMPABLE, 1))
		_exit(11);
	fd = ixt_open();
	if (fd < 0 || ixt_attach(fd, dev) || ixt_reset(fd))
		_exit(12);
	if (do_autoload(fd, boot, LONG_NS, NULL))
		_exit(13);
	if (ixt_caps_set(0) || ixt_cap_effective() != 0)
		_exit(14);
	fnth = open(FAILNTH_PATH, O_RDWR | O_CLOEXEC);
	if (fnth < 0)
		_exit(15);
	faults = tdi_read_sweep(fd, fnth);
	if (faults < 0)
		_exit(16);
	printf("# unprivileged: %d TDI reads under fail-nth 1..%d, %d failed at the TDI site\n",
	       TDI_SWEEP, TDI_SWEEP, faults);
	fflush(stdout);
	_exit(faults ? 1 : 0);
}

/*
 * A simulator site fails only for a caller with CAP_SYS_ADMIN
 * (kmod/sim/sim_backend.c): fail-nth is the task's own, and its branch of
 * should_fail() ignores the attr's probability, times and task filter. So
 * a user without capabilities, on a device its own uid loaded, arms
 * fail-nth before each of its TDI reads: the TDI site is asked (the reads
 * reach it) and never fails. Then root does the same and does fail it:
 * the site was reachable, only the caller differs.
 */
TEST_F(sf, failnth_of_an_unprivileged_caller_fails_no_site)
{
	long asked0 = 0, inj0[NSITES];
	struct stat st0;
	int status = 0, faults;
	pid_t pid;

	if (_metadata->skip)
		return;
	/* the child takes the device: the fixture's file lets go */
	close(self->fd);
	self->fd = -1;
	for (size_t i = 0; i < NSITES; i++)
		inj0[i] = site_stat(self->dev, "injected", sites[i]);
	asked0 = site_stat(self->dev, "asked", "tdi");
	ASSERT_EQ(0, stat(ixt_dev_path(), &st0));
	ASSERT_EQ(0, chown(ixt_dev_path(), 0, UNPRIV_GID));
	ASSERT_EQ(0, chmod(ixt_dev_path(), 0660));
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		unpriv_child(self->dev, self->boot);
	EXPECT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, chown(ixt_dev_path(), st0.st_uid, st0.st_gid));
	EXPECT_EQ(0, chmod(ixt_dev_path(), st0.st_mode & 07777));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("the unprivileged child ended with status 0x%x (1: a site failed for it;"
		       " 10 + step: its set-up failed)", status);
	EXPECT_LT(asked0, site_stat(self->dev, "asked", "tdi"))
		TH_LOG("the child's reads never reached the TDI site");
	for (size_t i = 0; i < NSITES; i++) {
		const char *site = sites[i];

		EXPECT_EQ(inj0[i], site_stat(self->dev, "injected", site))
			TH_LOG("injected at %s for the unprivileged child", site);
	}

	/* the same reads as root (owner change again: RESET, AUTOLOAD) */
	self->fd = ixt_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ixt_attach(self->fd, self->dev));
	ASSERT_EQ(0, ixt_reset(self->fd));
	ASSERT_EQ(0, do_autoload(self->fd, self->boot, LONG_NS, NULL));
	faults = tdi_read_sweep(self->fd, fnth_fd);
	EXPECT_LT(0, faults) TH_LOG("root's fail-nth never failed the TDI site (%d)", faults);
	EXPECT_LT(inj0[2], site_stat(self->dev, "injected", "tdi"));
}

/* ------------------------------------------------------------ memcg */
#define CG_ROOT		"/sys/fs/cgroup"
#define MODEL_MIN_BYTES	(2L << 20)	/* register file 512 KiB + tile table */

static int cg_write(const char *dir, const char *file, const char *val)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		ret = -errno;
	close(fd);
	return ret;
}

static long cg_read(const char *dir, const char *file, const char *key)
{
	char path[256], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t kl = key ? strlen(key) : 0;

		if (!key) {
			v = strtol(line, NULL, 10);
			break;
		}
		if (!strncmp(line, key, kl) && line[kl] == ' ') {
			v = strtol(line + kl + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/*
 * In a child that joins @cg: add one simulated device (n + 1); report the
 * write's result and the growth of memory.current through @pfd.
 */
static void add_device_in(const char *cg, int n, int pfd)
{
	long r[2] = { -1, -1 };
	long c0;

	if (cg_write(cg, "cgroup.procs", "0"))
		_exit(2);
	c0 = cg_read(cg, "memory.current", NULL);
	r[0] = ixt_set_sim_devices(n + 1);
	r[1] = cg_read(cg, "memory.current", NULL) - c0;
	if (write(pfd, r, sizeof(r)) != sizeof(r))
		_exit(3);
	_exit(0);
}

static int run_add_device(const char *cg, int n, long *ret, long *grew)
{
	long r[2] = { 0, 0 };
	int p[2], status = 0;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		add_device_in(cg, n, p[1]);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], r, sizeof(r)) != sizeof(r))
		r[0] = r[1] = -9999;
	close(p[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	*ret = r[0];
	*grew = r[1];
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(memcg_device_model_charged_to_adder)
{
	char cg[128], max[32], ctl[256] = "";
	long ret, grew, cur;
	int n, fd;

	if (ixt_sim_devices() < 0)
		SKIP(return, "needs the simulator (ipuxcom_sim not loaded)");
	if (geteuid())
		SKIP(return, "needs root (cgroups, the devices parameter)");
	if (access(CG_ROOT "/cgroup.controllers", R_OK) &&
	    mount("none", CG_ROOT, "cgroup2", 0, NULL))
		SKIP(return, "no cgroup2 at " CG_ROOT " and it cannot be mounted: %s",
		     strerror(errno));
	fd = open(CG_ROOT "/cgroup.controllers", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_LE(0, read(fd, ctl, sizeof(ctl) - 1));
	close(fd);
	if (!strstr(ctl, "memory"))
		SKIP(return, "no memory controller (%s)", ctl);
	ASSERT_EQ(0, cg_write(CG_ROOT, "cgroup.subtree_control", "+memory"));
	snprintf(cg, sizeof(cg), CG_ROOT "/ixt_simfault_%d", getpid());
	ASSERT_EQ(0, mkdir(cg, 0755));
	n = ixt_sim_devices();
	ASSERT_LE(0, n);
	if (n >= 16) {
		rmdir(cg);
		SKIP(return, "16 simulated devices already");
	}

	/* no limit: the new device's model is charged to the child's cgroup */
	EXPECT_EQ(0, run_add_device(cg, n, &ret, &grew));
	EXPECT_EQ(0, ret);
	EXPECT_LE(MODEL_MIN_BYTES, grew) TH_LOG("memory.current grew by %ld bytes", grew);
	TH_LOG("adding a device charged %ld KiB to its adder's cgroup", grew >> 10);
	EXPECT_EQ(n + 1, ixt_sim_devices());
	ASSERT_EQ(0, ixt_set_sim_devices(n));

	/* a limit just above what the cgroup uses: -ENOMEM, no OOM kill */
	cur = cg_read(cg, "memory.current", NULL);
	ASSERT_LE(0, cur);
	snprintf(max, sizeof(max), "%ld", cur + (256L << 10));
	ASSERT_EQ(0, cg_write(cg, "memory.max", max));
	EXPECT_EQ(0, run_add_device(cg, n, &ret, &grew));
	EXPECT_EQ(-ENOMEM, ret);
	EXPECT_EQ(n, ixt_sim_devices());
	EXPECT_EQ(0, cg_read(cg, "memory.events", "oom_kill"));
	if (ixt_sim_devices() != n)
		ixt_set_sim_devices(n);
	EXPECT_EQ(0, rmdir(cg));
}

TEST_HARNESS_MAIN
