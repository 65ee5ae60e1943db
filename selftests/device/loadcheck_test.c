// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ipuxcom load` checks every file before it touches the device: a load
 * whose host-exchange input is missing leaves an idle simulated device
 * idle (it used to load it, start it, then fail); `load --check` succeeds
 * while another file holds the device, so it never opened it; and
 * `ipuxcom doctor` in the VM finds the module, the node and the simulated
 * devices.
 */
#include "kselftest_harness.h"

#include <limits.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_load_inputs.h"

FIXTURE(lc) {
	int fd;
	uint32_t dev;
	char devstr[16], tool[PATH_MAX];
	struct ixt_load_inputs f;
	struct ixt_run *r;
};

FIXTURE_SETUP(lc)
{
	char msg[256];

	self->fd = -1;
	self->r = calloc(1, sizeof(*self->r));
	ASSERT_NE(NULL, self->r);
	IXT_SETUP_IDLE_SIM(self->fd, self->dev);
	if (!ixt_find_tool_on_path(self->tool, sizeof(self->tool)))
		SKIP(return, "no ipuxcom command (set IPUXCOM_TOOL)");
	snprintf(self->devstr, sizeof(self->devstr), "%u", self->dev);
	ASSERT_EQ(0, ixt_write_load_inputs(&self->f, msg, sizeof(msg))) TH_LOG("%s", msg);
}

FIXTURE_TEARDOWN(lc)
{
	if (self->fd >= 0) {
		ixt_reset(self->fd);
		close(self->fd);
	}
	ixt_rmtree(self->f.dir);
	free(self->r);
}

/* The device's state over netlink, which needs no attach. */
static uint32_t nl_state(uint32_t dev)
{
	struct ipuxcom_device_info info;
	struct ipuxcom_nl *nl;
	int err = ipuxcom_nl_open(&nl);

	if (err)
		return 0xffffffffu;
	err = ipuxcom_nl_dev_get(nl, dev, &info);
	ipuxcom_nl_close(nl);
	return err ? 0xffffffffu : info.state;
}

#define TOOL(...) ({								\
	char *const _argv[] = { self->tool, "-d", (char *)ixt_dev_path(), __VA_ARGS__, NULL }; \
	ASSERT_EQ(0, ixt_run(_argv, self->r));					\
})

TEST_F(lc, bad_hostx_file_leaves_the_device_idle)
{
	char missing[PATH_MAX + 64];

	/* the tool attaches itself: let go of the fixture's attachment */
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(IPUXCOM_DEV_STATE_IDLE, nl_state(self->dev));
	snprintf(missing, sizeof(missing), "write:in=%s/missing.bin", self->f.dir);
	TOOL("load", self->f.img, "-b", self->f.boot, "--dev", self->devstr, "-q", "--hostx",
	     self->f.hsp, missing, "run");
	EXPECT_EQ(1, self->r->status);
	EXPECT_NE(NULL, strstr(self->r->err, "missing.bin: cannot read: No such file"))
		TH_LOG("%s", self->r->err);
	EXPECT_NE(NULL, strstr(self->r->err, "nothing was done to the device"));
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, nl_state(self->dev));

	/* the same with the file there loads, runs the call and leaves it running */
	TOOL("load", self->f.img, "-b", self->f.boot, "--dev", self->devstr, "-q", "--hostx",
	     self->f.hsp, self->f.write_in, "run");
	EXPECT_EQ(0, self->r->status) TH_LOG("%s", self->r->err);
	EXPECT_NE(NULL, strstr(self->r->out, "call run: 2 phases done")) TH_LOG("%s", self->r->out);
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, nl_state(self->dev));
	self->fd = ixt_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ixt_attach(self->fd, self->dev));
}

TEST_F(lc, check_never_opens_the_device)
{
	/* the fixture holds the device: a real load would fail to attach */
	TOOL("load", "--check", self->f.img, "-b", self->f.boot, "--dev", self->devstr, "--hostx",
	     self->f.hsp, self->f.write_in, "run");
	EXPECT_EQ(0, self->r->status) TH_LOG("%s", self->r->err);
	EXPECT_NE(NULL, strstr(self->r->out, " 0 failures\n")) TH_LOG("%s", self->r->out);
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ixt_state(self->fd));
	TOOL("load", self->f.img, "-b", self->f.boot, "--dev", self->devstr, "-q");
	EXPECT_EQ(1, self->r->status);
	EXPECT_NE(NULL, strstr(self->r->err, "attached by another open file"))
		TH_LOG("%s", self->r->err);
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ixt_state(self->fd));
}

TEST_F(lc, doctor_finds_the_module_and_the_simulated_devices)
{
	char want[96];

	TOOL("doctor");
	EXPECT_EQ(0, self->r->status) TH_LOG("stdout: %s\nstderr: %s", self->r->out, self->r->err);
	EXPECT_NE(NULL, strstr(self->r->out, "ok    module: ipuxcom loaded")) TH_LOG("%s", self->r->out);
	EXPECT_NE(NULL, strstr(self->r->out, "ok    backend: ipuxcom_sim loaded"));
	EXPECT_NE(NULL, strstr(self->r->out, "ok    device node: ")) TH_LOG("%s", self->r->out);
	EXPECT_NE(NULL, strstr(self->r->out, "ok    uapi: module and command both uapi version"));
	EXPECT_NE(NULL, strstr(self->r->out, "ok    netlink: family 'ipuxcom': "));
	snprintf(want, sizeof(want), "ok    device %u: backend sim, state idle, 1472 tiles, caps ",
		 self->dev);
	EXPECT_NE(NULL, strstr(self->r->out, want)) TH_LOG("%s", self->r->out);
	TOOL("doctor", "--json");
	EXPECT_EQ(0, self->r->status);
	snprintf(want, sizeof(want), "{\"name\":\"device %u\",\"file\":null,\"status\":\"ok\"",
		 self->dev);
	EXPECT_NE(NULL, strstr(self->r->out, want)) TH_LOG("%s", self->r->out);
	EXPECT_NE(NULL, strstr(self->r->out, "],\"ok\":true,"));
}

TEST_HARNESS_MAIN
