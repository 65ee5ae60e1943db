// SPDX-License-Identifier: GPL-2.0-only
/*
 * A device disappearing under an open, attached file: every later call
 * gets -ENODEV, nothing crashes or leaks, and the module core cannot be
 * unloaded while a file is open. Needs the simulator (its "devices"
 * parameter adds and removes devices at run time); skipped on hardware.
 */
#include "kselftest_harness.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_simdev.h"
#include "ixt_modules.h"


FIXTURE(removal) {
	int before;	/* simulated devices before the test */
	int dev_id;	/* the device this test adds and removes */
	unsigned char ids[IXT_MAX_IDS];	/* simulated device ids before the test */
};

FIXTURE_SETUP(removal)
{
	self->before = -1;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	self->before = ixt_sim_devices();
	ixt_sim_device_ids(self->ids);
	ASSERT_EQ(0, ixt_set_sim_devices(self->before + 1));
	self->dev_id = ixt_added_sim_device(self->ids);
	ASSERT_LE(0, self->dev_id);
}

FIXTURE_TEARDOWN(removal)
{
	if (self->before >= 0)
		EXPECT_EQ(0, ixt_set_sim_devices(self->before));
}

TEST_F(removal, calls_after_removal_enodev)
{
	struct ipuxcom_ioc_reset rs = { .size = sizeof(rs) };
	struct ipuxcom_ioc_info info;
	struct ipuxcom_ioc_dev_query q;
	struct ipuxcom_device_info di;
	struct ipuxcom_nl *nl;
	uint32_t v, count_before;
	int fd = ixt_open(), fresh, added;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ixt_attach(fd, (uint32_t)self->dev_id));
	ASSERT_EQ(0, ixt_reg_write(fd, 0x100, 0x5a5a5a5a));
	ASSERT_EQ(0, ixt_info(fd, &info));
	count_before = info.device_count;

	ASSERT_EQ(0, ixt_set_sim_devices(self->before));

	EXPECT_EQ(-ENODEV, ixt_query(fd, &q));
	EXPECT_EQ(-ENODEV, ixt_reg_read(fd, 0x100, &v));
	EXPECT_EQ(-ENODEV, ixt_reg_write(fd, 0x100, 1));
	EXPECT_EQ(-ENODEV, ixt_ioctl(fd, IPUXCOM_IOC_RESET, &rs));
	/* still bound to the dead device: a file attaches once */
	EXPECT_EQ(-EALREADY, ixt_attach(fd, (uint32_t)self->dev_id));
	/* module-wide calls keep working on the same file */
	ASSERT_EQ(0, ixt_info(fd, &info));
	EXPECT_EQ(count_before - 1, info.device_count);

	fresh = ixt_open();
	ASSERT_LE(0, fresh);
	EXPECT_EQ(-ENODEV, ixt_attach(fresh, (uint32_t)self->dev_id));
	ASSERT_EQ(0, ipuxcom_nl_open(&nl));
	EXPECT_EQ(-ENODEV, ipuxcom_nl_dev_get(nl, (uint32_t)self->dev_id, &di));
	ipuxcom_nl_close(nl);
	EXPECT_EQ(0, close(fd));

	/*
	 * A new device does not take the freed id at once (ids are
	 * allocated cyclically: a stale id names no other device), and has
	 * a fresh register file; the old id stays unknown.
	 */
	ASSERT_EQ(0, ixt_set_sim_devices(self->before + 1));
	added = ixt_added_sim_device(self->ids);
	ASSERT_LE(0, added);
	EXPECT_NE(self->dev_id, added);
	EXPECT_EQ(-ENODEV, ixt_attach(fresh, (uint32_t)self->dev_id));
	ASSERT_EQ(0, ixt_attach(fresh, (uint32_t)added));
	ASSERT_EQ(0, ixt_reg_read(fresh, 0x100, &v));
	EXPECT_EQ(0, v);
	close(fresh);
}

struct hammer {
	int fd;
	volatile int stop;
	long calls, ok, enodev, other;
	int last_other;
};

static void *hammer_thread(void *arg)
{
	struct hammer *h = arg;
	struct timespec t0, now;
	uint32_t v;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!h->stop) {
		int r = (h->calls & 1) ? ixt_reg_write(h->fd, 0x104, (uint32_t)h->calls)
				       : ixt_reg_read(h->fd, 0x104, &v);

		h->calls++;
		if (r == 0) {
			__atomic_add_fetch(&h->ok, 1, __ATOMIC_RELAXED);
		} else if (r == -ENODEV) {
			if (++h->enodev > 100)
				break;
		} else {
			h->other++;
			h->last_other = r;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec > 20)	/* bound the test */
			break;
	}
	return NULL;
}

/*
 * Calls in flight while the device goes: each returns 0 or -ENODEV. The
 * device goes once both threads have had a call answered (not after a
 * fixed pause: in a VM on a loaded host a thread may not have run yet).
 */
TEST_F(removal, removal_races_with_calls)
{
	struct hammer h[2] = { { .fd = -1 }, { .fd = -1 } };
	pthread_t th[2];
	struct timespec pause = { .tv_nsec = 5 * 1000 * 1000 };
	int fd = ixt_open(), waited_ms = 0;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ixt_attach(fd, (uint32_t)self->dev_id));
	for (int i = 0; i < 2; i++) {
		h[i].fd = fd;
		ASSERT_EQ(0, pthread_create(&th[i], NULL, hammer_thread, &h[i]));
	}
	while ((!__atomic_load_n(&h[0].ok, __ATOMIC_RELAXED) ||
		!__atomic_load_n(&h[1].ok, __ATOMIC_RELAXED)) && waited_ms < 15000) {
		nanosleep(&pause, NULL);
		waited_ms += 5;
	}
	nanosleep(&pause, NULL);
	EXPECT_EQ(0, ixt_set_sim_devices(self->before));
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(0, pthread_join(th[i], NULL));
		EXPECT_LT(0, h[i].ok);
		EXPECT_LT(0, h[i].enodev);
		EXPECT_EQ(0, h[i].other) TH_LOG("unexpected error %d", h[i].last_other);
	}
	close(fd);
}

/*
 * Unloading the backend module under an attached file, then the core:
 * refused while the file is open, clean once it is closed. Restores both.
 */
TEST(unload_modules_under_open_file)
{
	const char *sim_ko = getenv("IPUXCOM_SIM_KO");
	const char *core_ko = getenv("IPUXCOM_CORE_KO");
	struct ipuxcom_ioc_dev_query q;
	struct ipuxcom_ioc_info info;
	char params[32];
	uint32_t first;
	int fd, ndev;

	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	if (!sim_ko || !core_ko || access(sim_ko, R_OK) || access(core_ko, R_OK))
		SKIP(return, "IPUXCOM_SIM_KO / IPUXCOM_CORE_KO not set or unreadable");
	/* it pins the core, and its devices would count in device_count */
	if (ixt_module_loaded("ipuxcom_hw"))
		SKIP(return, "ipuxcom_hw is loaded: the core cannot be unloaded");

	ndev = ixt_sim_devices();
	snprintf(params, sizeof(params), "devices=%d", ndev);
	fd = ixt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ixt_attach(fd, ixt_dev_id()));

	ASSERT_EQ(0, ixt_unload_module("ipuxcom_sim"));
	EXPECT_EQ(-ENODEV, ixt_query(fd, &q));
	ASSERT_EQ(0, ixt_info(fd, &info));
	EXPECT_EQ(0, info.device_count);
	/* the open file pins the core */
	EXPECT_EQ(-EWOULDBLOCK, ixt_unload_module("ipuxcom"));
	EXPECT_TRUE(ixt_module_loaded("ipuxcom"));

	EXPECT_EQ(0, close(fd));
	EXPECT_EQ(0, ixt_unload_module("ipuxcom"));
	EXPECT_FALSE(ixt_module_loaded("ipuxcom"));

	ASSERT_EQ(0, ixt_load_module(core_ko, ""));
	ASSERT_EQ(0, ixt_load_module(sim_ko, params));
	EXPECT_EQ(ndev, ixt_sim_devices());
	/* devtmpfs recreates the node for the new minor */
	fd = ixt_open();
	ASSERT_LE(0, fd);
	/* a fresh core numbers from 0 again: ixt_dev_id() was looked up before */
	ASSERT_EQ(1, ixt_dev_list(&first, NULL, 1));
	EXPECT_EQ(0, first);
	EXPECT_EQ(0, ixt_attach(fd, first));
	EXPECT_EQ(0, ixt_query(fd, &q));
	close(fd);
}

TEST_HARNESS_MAIN
