// SPDX-License-Identifier: GPL-2.0-only
/*
 * Initialisation from driver-idle on a device not held through ipu_driver
 * (the simulator): ipuxcom_dev_init() is a plain module reset there and
 * reports ipu_driver's steps as not applicable; `ipuxcom dev init` prints
 * every step (text and JSON) and `ipuxcom load` initialises and loads
 * by default (`--no-init` to skip).
 * The ipu_driver path itself runs against the stand-in driver
 * (selftests/kmod/ipu_standin), in its own tests.
 */
#include "kselftest_harness.h"

#include <limits.h>
#include <stdarg.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "image_testlib.h"
#include "ixt_json.h"
#include "ixt_load.h"

FIXTURE(init) {
	struct ipuxcom *ipu;
	uint32_t dev;
	char devstr[16];
};

FIXTURE_SETUP(init)
{
	self->ipu = NULL;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	self->dev = ixt_dev_id();
	snprintf(self->devstr, sizeof(self->devstr), "%u", self->dev);
	ixt_sim_clear_faults(self->dev);
}

FIXTURE_TEARDOWN(init)
{
	ipuxcom_close(self->ipu);
}

TEST_F(init, library_init_is_a_reset_on_the_simulator)
{
	struct ipuxcom_init_report rep = IPUXCOM_INIT_REPORT_INIT;
	char msg[300];

	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, self->dev));
	EXPECT_EQ(-ENODEV, ipuxcom_ipu_fd(self->ipu));
	/* from a running device */
	ASSERT_EQ(0, ixt_load_small(self->ipu, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(IPUXCOM_DEV_STATE_RUNNING, ixt_state(ipuxcom_fd(self->ipu)));
	ASSERT_EQ(0, ipuxcom_dev_init(self->ipu, &rep)) TH_LOG("%s", rep.msg);
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, rep.state);
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ixt_state(ipuxcom_fd(self->ipu)));
	EXPECT_EQ(0, rep.ipu_driver);
	for (uint32_t s = IPUXCOM_INIT_STEP_STOP_MONITORING; s <= IPUXCOM_INIT_STEP_SECONDARY_IPU_ID;
	     s++) {
		EXPECT_EQ(IPUXCOM_INIT_NOT_APPLICABLE, rep.status[s]);
	}
	EXPECT_EQ(IPUXCOM_INIT_DONE, rep.status[IPUXCOM_INIT_STEP_MODULE_RESET]);
	/* and the device loads after it */
	ASSERT_EQ(0, ixt_load_small(self->ipu, msg, sizeof(msg))) TH_LOG("%s", msg);
}

TEST_F(init, dev_init_command_lists_every_step)
{
	char tool[PATH_MAX];
	struct ixt_run *r = calloc(1, sizeof(*r));

	ASSERT_NE(NULL, r);
	if (!ixt_find_tool_on_path(tool, sizeof(tool))) {
		free(r);
		SKIP(return, "no ipuxcom command (set IPUXCOM_TOOL)");
	}
	ASSERT_EQ(0, ixt_run_tool(r, tool, "dev", "init", self->devstr, NULL));
	EXPECT_EQ(0, r->status) TH_LOG("stderr: %s", r->err);
	EXPECT_NE(NULL, strstr(r->out, "steps 1-6 not applicable")) TH_LOG("%s", r->out);
	EXPECT_NE(NULL, strstr(r->out, "step 2 (ICU mailbox reset): not applicable\n"));
	EXPECT_NE(NULL, strstr(r->out, "step 7 (module reset): done\n")) TH_LOG("%s", r->out);
	EXPECT_NE(NULL, strstr(r->out, "state idle\n"));

	ASSERT_EQ(0, ixt_run_tool(r, tool, "dev", "init", "--dev", self->devstr, "--json", NULL));
	EXPECT_EQ(0, r->status) TH_LOG("stderr: %s", r->err);
	EXPECT_NE(NULL, strstr(r->out, "\"ipu_driver\":false")) TH_LOG("%s", r->out);
	/* the device, under the key every command's JSON uses */
	EXPECT_EQ(0, strncmp(r->out, "{\"dev\":", 7)) TH_LOG("%s", r->out);
	EXPECT_EQ(strtoul(self->devstr, NULL, 10), strtoul(r->out + 7, NULL, 10));
	EXPECT_NE(NULL, strstr(r->out, "{\"step\":7,\"name\":\"module reset\",\"status\":\"done\"}"))
		TH_LOG("%s", r->out);
	EXPECT_NE(NULL, strstr(r->out, "\"state\":\"idle\""));
	EXPECT_NE(NULL, strstr(r->out, "\"error\":null"));

	/* a device held by another file: the attach fails, nothing is reset */
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, self->dev));
	ASSERT_EQ(0, ixt_run_tool(r, tool, "dev", "init", self->devstr, NULL));
	EXPECT_EQ(1, r->status);
	EXPECT_NE(NULL, strstr(r->err, "attached by another open file")) TH_LOG("%s", r->err);
	free(r);
}

TEST_F(init, load_init_loads_from_any_state)
{
	char tool[PATH_MAX], img_path[] = "/tmp/devinit-img-XXXXXX", boot_path[] =
		"/tmp/devinit-boot-XXXXXX", msg[300];
	struct ixt_run *r = calloc(1, sizeof(*r));
	char want[PATH_MAX + 96];
	char *stdin_argv[] = { tool, "load", "-", "-b", boot_path, "--dev", self->devstr, "-q",
			       NULL };

	ASSERT_NE(NULL, r);
	if (!ixt_find_tool_on_path(tool, sizeof(tool))) {
		free(r);
		SKIP(return, "no ipuxcom command (set IPUXCOM_TOOL)");
	}
	ASSERT_EQ(0, ixt_small_files(img_path, boot_path, msg, sizeof(msg))) TH_LOG("%s", msg);

	/*
	 * Three times: each starts from the previous one's running device.
	 * The load initialises by default, in its own session (--init is the
	 * same), silently when that works.
	 */
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(0, ixt_run_tool(r, tool, "load", img_path, "-b", boot_path, "--dev",
					  self->devstr, i < 2 ? NULL : "--init", NULL));
		EXPECT_EQ(0, r->status) TH_LOG("run %d: stderr: %s", i, r->err);
		EXPECT_EQ(NULL, strstr(r->err, "step ")) TH_LOG("%s", r->err);
		EXPECT_EQ(NULL, strstr(r->out, "step ")) TH_LOG("%s", r->out);
		EXPECT_NE(NULL, strstr(r->out, "loaded ")) TH_LOG("%s", r->out);
	}
	/* with --no-init a running device is refused */
	ASSERT_EQ(0, ixt_run_tool(r, tool, "load", img_path, "-b", boot_path, "--dev", self->devstr,
			      "-q", "--no-init", NULL));
	EXPECT_EQ(1, r->status);
	/* -q from a running device: initialised, loaded */
	ASSERT_EQ(0, ixt_run_tool(r, tool, "load", img_path, "-b", boot_path, "--dev", self->devstr,
			      "-q", NULL));
	EXPECT_EQ(0, r->status) TH_LOG("stderr: %s", r->err);
	/* both: a usage error */
	ASSERT_EQ(0, ixt_run_tool(r, tool, "load", img_path, "-b", boot_path, "--dev", self->devstr,
			      "--init", "--no-init", NULL));
	EXPECT_EQ(2, r->status);

	/* -j: one document for the load (no init steps), the error object for a refusal */
	ASSERT_EQ(0, ixt_run_tool(r, tool, "load", img_path, "-b", boot_path, "--dev",
				  self->devstr, "--init", "-j", NULL));
	EXPECT_EQ(0, r->status) TH_LOG("stderr: %s", r->err);
	EXPECT_EQ(1, ixt_json_count(r->out)) TH_LOG("%s", r->out);
	snprintf(want, sizeof(want), "{\"dev\":%u,\"image\":\"%s\",\"tiles\":1472,\"syscalls\":",
		 self->dev, img_path);
	EXPECT_EQ(0, strncmp(r->out, want, strlen(want))) TH_LOG("%s", r->out);
	EXPECT_NE(NULL, strstr(r->out, ",\"state\":\"running\",\"calls\":[]}\n"))
		TH_LOG("%s", r->out);
	ASSERT_EQ(0, ixt_run_tool(r, tool, "-j", "load", img_path, "-b", boot_path, "--dev",
				  self->devstr, "--no-init", NULL));
	EXPECT_EQ(1, r->status);
	EXPECT_EQ(1, ixt_json_count(r->out)) TH_LOG("%s", r->out);
	snprintf(want, sizeof(want), "{\"error\":{\"command\":\"load\",\"message\":\"");
	EXPECT_EQ(0, strncmp(r->out, want, strlen(want))) TH_LOG("%s", r->out);
	EXPECT_NE(NULL, strstr(r->out, "\"exit\":1}}\n")) TH_LOG("%s", r->out);
	snprintf(want, sizeof(want), "{\"dev\":%u,\"state\":\"idle\"}\n", self->dev);
	ASSERT_EQ(0, ixt_run_tool(r, tool, "dev", "reset", "--dev", self->devstr, "--json", NULL));
	EXPECT_EQ(0, r->status) TH_LOG("stderr: %s", r->err);
	EXPECT_STREQ(want, r->out);
	/* the image from standard input */
	ASSERT_EQ(0, ixt_run_stdin(stdin_argv, img_path, r));
	EXPECT_EQ(0, r->status) TH_LOG("stderr: %s", r->err);
	ASSERT_EQ(0, ixt_run_tool(r, tool, "dev", "reset", "--dev", self->devstr, NULL));
	EXPECT_EQ(0, r->status) TH_LOG("stderr: %s", r->err);
	unlink(img_path);
	unlink(boot_path);
	free(r);
}

TEST_HARNESS_MAIN
