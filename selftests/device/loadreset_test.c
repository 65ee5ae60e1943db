// SPDX-License-Identifier: GPL-2.0-only
/*
 * Load and reset the simulated device many times in one boot: slab and
 * vmalloc use must not grow.
 *
 * Iterations: IPUXCOM_SOAK_ITERATIONS (kernel parameter
 * ipuxcom_vm.soak_iterations, selftests/vm/init), else 100 in the normal VM,
 * else 5 on a kernel with kmemleak (the debug-kernel lane, make check-debug:
 * a round costs 12.7 s there under KASAN and TCG, measured; the growth over
 * many rounds is the normal lane's job, and kmemleak's scan at the end,
 * selftests/debug/kernel_health.sh, finds what a single round leaks). After
 * 3 warm-up rounds (caches, the sim's first allocations) the test measures,
 * runs the rounds, measures again. Before each measurement every slab cache is shrunk (which also
 * drains KASAN's quarantine of freed objects) and the per-CPU counters are
 * folded.
 *   - vmalloc'ed bytes whose caller is an ipuxcom module (/proc/vmallocinfo):
 *     no growth at all;
 *   - VmallocUsed (/proc/meminfo): at most 256 KiB more;
 *   - SUnreclaim (/proc/meminfo): at most 512 KiB more: a leak of 5 KiB
 *     or more a round is caught over 100 rounds; smaller leaks are
 *     kmemleak's job (failnth_test, the debug lane's final check).
 */
#include <time.h>

#include "kselftest_harness.h"

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_load.h"

#include <dirent.h>

#define SLAB_TOLERANCE_KB	512
#define VMALLOC_TOLERANCE_KB	256

struct memuse {
	long sunreclaim_kb, vmalloc_kb, ours_vmalloc_bytes;
};

static long meminfo_kb(const char *key)
{
	char line[128];
	size_t klen = strlen(key);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* bytes of /proc/vmallocinfo areas whose caller is in an ipuxcom module */
static long ours_vmalloc(void)
{
	char line[512];
	long sum = 0;
	FILE *f = fopen("/proc/vmallocinfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ' ');

		if (!p || (!strstr(line, "[ipuxcom") && !strstr(line, "[ipu_standin")))
			continue;
		sum += strtol(p + 1, NULL, 10);
	}
	fclose(f);
	return sum;
}

static void settle(void)
{
	struct dirent *de;
	DIR *d = opendir("/sys/kernel/slab");
	int fd;

	/* kmem_cache_shrink() of every cache (KASAN: drains the quarantine) */
	while (d && (de = readdir(d))) {
		char path[320];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", de->d_name);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (write(fd, "1", 1) != 1) {
				/* a cache that cannot be shrunk: measured as it is */
			}
			close(fd);
		}
	}
	if (d)
		closedir(d);
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "3", 1) != 1) {
			/* best effort */
		}
		close(fd);
	}
	fd = open("/proc/sys/vm/stat_refresh", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "1", 1) != 1) {
			/* best effort */
		}
		close(fd);
	}
}

static void measure(struct memuse *m)
{
	settle();
	m->sunreclaim_kb = meminfo_kb("SUnreclaim");
	m->vmalloc_kb = meminfo_kb("VmallocUsed");
	m->ours_vmalloc_bytes = ours_vmalloc();
}

static int iterations(void)
{
	const char *e = getenv("IPUXCOM_SOAK_ITERATIONS");

	if (e && *e)
		return atoi(e);
	return access("/sys/kernel/debug/kmemleak", F_OK) == 0 ? 5 : 100;
}

FIXTURE(soak) {
	int unused;
};

FIXTURE_SETUP(soak)
{
}

FIXTURE_TEARDOWN(soak)
{
}

TEST_F_TIMEOUT(soak, load_reset_no_growth, 3600)
{
	struct memuse before = { -1, -1, -1 }, after;
	struct ipuxcom_image *img = NULL;
	struct ipuxcom *ipu;
	char msg[300];
	int n = iterations();
	struct timespec t0 = { 0 }, t1;

	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	ixt_sim_clear_faults(ixt_dev_id());
	/* packed once: the rounds are about the kernel's memory */
	ASSERT_EQ(0, ixt_pack_small(&img, msg, sizeof(msg))) TH_LOG("%s", msg);
	for (int round = 0; round < 3 + n; round++) {
		if (round == 3) {
			measure(&before);
			clock_gettime(CLOCK_MONOTONIC, &t0);
		}
		/* a fresh handle each round: open/attach/close are part of it */
		ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &ipu));
		ASSERT_EQ(0, ipuxcom_attach(ipu, ixt_dev_id())) TH_LOG("round %d", round);
		ASSERT_EQ(0, ipuxcom_reset(ipu, NULL)) TH_LOG("round %d", round);
		ASSERT_EQ(0, ixt_load_image(ipu, img, msg, sizeof(msg))) TH_LOG("round %d: %s", round, msg);
		ASSERT_EQ(IPUXCOM_DEV_STATE_RUNNING, ixt_state(ipuxcom_fd(ipu)));
		ASSERT_EQ(0, ipuxcom_reset(ipu, NULL)) TH_LOG("round %d", round);
		ipuxcom_close(ipu);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ipuxcom_image_free(img);
	measure(&after);
	TH_LOG("%d load/reset rounds in %.1fs", n,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	TH_LOG("SUnreclaim %ld -> %ld kB, VmallocUsed %ld -> %ld kB, ipuxcom vmalloc %ld -> %ld bytes",
	       before.sunreclaim_kb, after.sunreclaim_kb, before.vmalloc_kb, after.vmalloc_kb,
	       before.ours_vmalloc_bytes, after.ours_vmalloc_bytes);
	ASSERT_LE(0, before.sunreclaim_kb);
	ASSERT_LE(0, before.vmalloc_kb);
	EXPECT_GE(before.sunreclaim_kb + SLAB_TOLERANCE_KB, after.sunreclaim_kb);
	EXPECT_GE(before.vmalloc_kb + VMALLOC_TOLERANCE_KB, after.vmalloc_kb);
	if (before.ours_vmalloc_bytes >= 0)
		EXPECT_GE(before.ours_vmalloc_bytes, after.ours_vmalloc_bytes);
}

TEST_HARNESS_MAIN
