// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command line's device naming against the running module: the bash
 * completion's device ids (`ipuxcom __complete ... --dev ""`) are exactly
 * the module's devices, and --dev ID before the object or after `dev
 * show` selects that device as the positional ID does. The grammar
 * without a device is selftests/host/cli_grammar_test.c's.
 */
#include "kselftest_harness.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "image_testlib.h"

FIXTURE(clidev) {
	char tool[PATH_MAX];
	struct ixt_run *r;
	struct ipuxcom_device_info *devs;
	size_t ndevs;
	char devstr[16];
};

FIXTURE_SETUP(clidev)
{
	struct ipuxcom_nl *nl;

	self->r = NULL;
	self->devs = NULL;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	if (!ixt_find_tool_on_path(self->tool, sizeof(self->tool)))
		SKIP(return, "no ipuxcom command (set IPUXCOM_TOOL)");
	self->r = calloc(1, sizeof(*self->r));
	ASSERT_NE(NULL, self->r);
	ASSERT_EQ(0, ipuxcom_nl_open(&nl));
	ASSERT_EQ(0, ipuxcom_nl_dev_list(nl, &self->devs, &self->ndevs));
	ipuxcom_nl_close(nl);
	ASSERT_LT(0, self->ndevs);
	snprintf(self->devstr, sizeof(self->devstr), "%u", ixt_dev_id());
}

FIXTURE_TEARDOWN(clidev)
{
	ipuxcom_nl_dev_list_free(self->devs);
	free(self->r);
}

/* Every device id, one a line, in the module's order: what completion must offer. */
static void id_lines(const struct ipuxcom_device_info *devs, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%" PRIu32 "\n", devs[i].dev_id);
}

TEST_F(clidev, completion_offers_the_module_devices)
{
	char want[1024];

	if (!self->r)
		return;	/* skipped in the set-up (this harness runs the body anyway) */
	id_lines(self->devs, self->ndevs, want, sizeof(want));
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "__complete", "tdi", "dump", "5", "--dev",
				  "", NULL));
	EXPECT_EQ(0, self->r->status);
	EXPECT_STREQ(want, self->r->out);
	/* before the object, as "--dev=" split by bash, and dev show's positional ID */
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "__complete", "--dev", "", NULL));
	EXPECT_STREQ(want, self->r->out);
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "__complete", "--dev", "=", "", NULL));
	EXPECT_STREQ(want, self->r->out);
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "__complete", "dev", "show", "", NULL));
	EXPECT_STREQ(want, self->r->out);
}

TEST_F(clidev, dev_option_selects_like_the_positional_id)
{
	char want[96], positional[sizeof(self->r->out)];

	if (!self->r)
		return;	/* skipped in the set-up */
	snprintf(want, sizeof(want), "dev %s: ", self->devstr);
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "dev", "show", self->devstr, NULL));
	ASSERT_EQ(0, self->r->status) TH_LOG("stderr: %s", self->r->err);
	ASSERT_EQ(0, strncmp(self->r->out, want, strlen(want))) TH_LOG("%s", self->r->out);
	memcpy(positional, self->r->out, sizeof(positional));
	/* one line: only that device, whatever others there are */
	EXPECT_EQ(NULL, strchr(positional, '\n') ? strchr(strchr(positional, '\n') + 1, '\n') :
		  NULL);
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "--dev", self->devstr, "dev", NULL));
	EXPECT_EQ(0, self->r->status) TH_LOG("stderr: %s", self->r->err);
	EXPECT_STREQ(positional, self->r->out);
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "dev", "sho", "--dev", self->devstr, NULL));
	EXPECT_STREQ(positional, self->r->out);
	/* a device the module does not have: a failure (1), naming it */
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "dev", "show", "--dev=4000000000", NULL));
	EXPECT_EQ(1, self->r->status);
	EXPECT_NE(NULL, strstr(self->r->err, "device 4000000000")) TH_LOG("%s", self->r->err);
}

/*
 * Without --dev a command uses the lowest registered id. Ids are not
 * reused at once (xa_alloc_cyclic), so once the simulated devices are
 * reloaded the lowest is no longer 0: the command must find it, not
 * assume 0 (it did, and failed with ENODEV after any re-registration).
 */
TEST_F(clidev, no_dev_means_the_lowest_registered_id)
{
	const char *ko = getenv("IPUXCOM_SIM_KO");
	struct ipuxcom_device_info *devs = NULL;
	struct ipuxcom_nl *nl;
	uint32_t lowest = UINT32_MAX;
	char want[64];
	size_t n = 0;

	if (!self->r)
		return;	/* skipped in the set-up */
	if (!ko || ixt_sim_devices() < 0)
		SKIP(return, "needs the simulator and IPUXCOM_SIM_KO");
	ASSERT_EQ(0, ixt_unload_module_wait("ipuxcom_sim"));
	ASSERT_EQ(0, ixt_load_module(ko, "devices=2"));
	ASSERT_EQ(0, ipuxcom_nl_open(&nl));
	ASSERT_EQ(0, ipuxcom_nl_dev_list(nl, &devs, &n));
	ipuxcom_nl_close(nl);
	ASSERT_LT(0, n);
	for (size_t i = 0; i < n; i++)
		if (devs[i].dev_id < lowest)
			lowest = devs[i].dev_id;
	ipuxcom_nl_dev_list_free(devs);
	/* the case this is about: the freed ids were not handed out again */
	ASSERT_LT(0, lowest);
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "-j", "dev", "reset", NULL));
	EXPECT_EQ(0, self->r->status) TH_LOG("stderr: %s", self->r->err);
	snprintf(want, sizeof(want), "\"dev\":%u", lowest);
	EXPECT_NE(NULL, strstr(self->r->out, want)) TH_LOG("want %s in %s", want, self->r->out);
}

TEST_HARNESS_MAIN
