// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command explains device errors by the device's state: a load on a
 * running device names the state and the way out ("device N is running:
 * `ipuxcom dev reset` first") instead of "File descriptor in bad state",
 * and a TDI read on an idle device says there is nothing running to stop
 * instead of "Exec format error" (tools/explain.c).
 */
#include "kselftest_harness.h"

#include <limits.h>
#include <stdarg.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "image_testlib.h"
#include "ixt_load.h"

FIXTURE(msg) {
	struct ipuxcom *ipu;
	char tool[PATH_MAX];
	char devstr[16];
	struct ixt_run r;
};

FIXTURE_SETUP(msg)
{
	self->ipu = NULL;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	if (!ixt_find_tool_on_path(self->tool, sizeof(self->tool)))
		SKIP(return, "no ipuxcom command (set IPUXCOM_TOOL)");
	snprintf(self->devstr, sizeof(self->devstr), "%u", ixt_dev_id());
	ixt_sim_clear_faults(ixt_dev_id());
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, ixt_dev_id()));
}

FIXTURE_TEARDOWN(msg)
{
	if (self->ipu)
		ipuxcom_reset(self->ipu, NULL);
	ipuxcom_close(self->ipu);
}

/* Let the command attach: the device keeps its state when this file lets go. */
static void release(FIXTURE_DATA(msg) *self)
{
	ipuxcom_close(self->ipu);
	self->ipu = NULL;
}

TEST_F(msg, load_on_running_device_names_state)
{
	char msg[300], img_path[] = "/tmp/errmsg-img-XXXXXX", boot_path[] = "/tmp/errmsg-boot-XXXXXX";
	char expect[64];

	ASSERT_EQ(0, ixt_load_small(self->ipu, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(IPUXCOM_DEV_STATE_RUNNING, ixt_state(ipuxcom_fd(self->ipu)));
	release(self);
	ASSERT_EQ(0, ixt_small_files(img_path, boot_path, msg, sizeof(msg))) TH_LOG("%s", msg);

	/* --no-init: by default the load would initialise (reset) it first */
	ASSERT_EQ(0, ixt_run_tool(&self->r, self->tool, "load", img_path, "-b", boot_path,
				  "--dev", self->devstr, "-q", "--no-init", NULL));
	unlink(img_path);
	unlink(boot_path);
	EXPECT_EQ(1, self->r.status);
	snprintf(expect, sizeof(expect), "device %s is running: `ipuxcom dev reset` first",
		 self->devstr);
	EXPECT_NE(NULL, strstr(self->r.err, expect)) TH_LOG("stderr: %s", self->r.err);
	EXPECT_EQ(NULL, strstr(self->r.err, "File descriptor in bad state"));
	/* back for the teardown's reset */
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, ixt_dev_id()));
}

TEST_F(msg, tdi_read_on_idle_device)
{
	char expect[64];

	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	release(self);
	ASSERT_EQ(0, ixt_run_tool(&self->r, self->tool, "tdi", "read", "5", "0x4c000", "--dev",
				  self->devstr, NULL));
	EXPECT_EQ(1, self->r.status);
	snprintf(expect, sizeof(expect), "device %s is idle (nothing loaded)", self->devstr);
	EXPECT_NE(NULL, strstr(self->r.err, expect)) TH_LOG("stderr: %s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "supervisor context is not running"))
		TH_LOG("stderr: %s", self->r.err);
	EXPECT_EQ(NULL, strstr(self->r.err, "Exec format error"));
}

TEST_HARNESS_MAIN
