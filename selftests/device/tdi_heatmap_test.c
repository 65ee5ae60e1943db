// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ipuxcom tdi dump --all --heatmap FILE` against the simulated device:
 * after a reset every tile is idle, after a load every tile's supervisor
 * context runs, and the SVG says so for all 1472 tile squares (the host
 * test pictures_test checks the SVG writer with a strict XML parser and
 * every state; the VM has no python3, so this counts the squares).
 */
#include "kselftest_harness.h"

#include <limits.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "image_testlib.h"
#include "ixt_load.h"

#define IDLE_FILL	"#c8c8c8"
#define RUNNING_FILL	"#2e9d4a"

FIXTURE(hm) {
	struct ipuxcom *ipu;
	uint32_t dev;
	char devstr[16];
	char tool[PATH_MAX];
	char dir[PATH_MAX];
	char svg[PATH_MAX + 16];
	struct ixt_run *r;
};

FIXTURE_SETUP(hm)
{
	self->ipu = NULL;
	self->r = NULL;
	self->dir[0] = '\0';
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	if (!ixt_find_tool_on_path(self->tool, sizeof(self->tool)))
		SKIP(return, "no ipuxcom command (set IPUXCOM_TOOL)");
	self->dev = ixt_dev_id();
	snprintf(self->devstr, sizeof(self->devstr), "%u", self->dev);
	ixt_sim_clear_faults(self->dev);
	ASSERT_TRUE(ixt_tmpdir(self->dir, sizeof(self->dir)));
	snprintf(self->svg, sizeof(self->svg), "%s/s.svg", self->dir);
	self->r = calloc(1, sizeof(*self->r));
	ASSERT_NE(NULL, self->r);
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, self->dev));
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	/* the command attaches the device itself: only one open file may */
	ipuxcom_close(self->ipu);
	self->ipu = NULL;
}

FIXTURE_TEARDOWN(hm)
{
	if (!self->ipu && !ipuxcom_open(ixt_dev_path(), &self->ipu) &&
	    !ipuxcom_attach(self->ipu, self->dev))
		ipuxcom_reset(self->ipu, NULL);
	ipuxcom_close(self->ipu);
	free(self->r);
	if (self->dir[0])
		ixt_rmtree(self->dir);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Run tdi dump --all --heatmap and count the tile squares of colour @fill. */
static size_t squares(struct __test_metadata *_metadata, FIXTURE_DATA(hm) *self,
		      const char *fill, char *title, size_t tlen)
{
	char want[64];
	size_t len = 0, n;
	char *svg, *t, *e;

	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "tdi", "dump", "--all", "--dev",
				  self->devstr, "--heatmap", self->svg, NULL));
	EXPECT_EQ(0, self->r->status) TH_LOG("stderr: %s", self->r->err);
	svg = (char *)ixt_read_file(self->svg, &len);
	ASSERT_NE(NULL, svg);
	svg = realloc(svg, len + 1);
	ASSERT_NE(NULL, svg);
	svg[len] = '\0';
	EXPECT_EQ(0, strncmp(svg, "<?xml ", 6));
	EXPECT_NE(NULL, strstr(svg, "</svg>\n"));
	EXPECT_EQ(IPUXCOM_TILES, count(svg, "<rect class=\"tile\" "));
	snprintf(want, sizeof(want), "fill=\"%s\"><title>", fill);
	n = count(svg, want);
	t = strstr(svg, "<title>");
	e = t ? strstr(t, "</title>") : NULL;
	snprintf(title, tlen, "%.*s", t && e ? (int)(e - t - 7) : 0, t ? t + 7 : "");
	free(svg);
	return n;
}

TEST_F(hm, idle_after_reset_running_after_load)
{
	char title[200], msg[300], want[160];

	EXPECT_EQ(IPUXCOM_TILES, squares(_metadata, self, IDLE_FILL, title, sizeof(title)));
	EXPECT_NE(NULL, strstr(title, "0 running, 1472 idle, 0 stopped, 0 error, 0 unread"))
		TH_LOG("%s", title);
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, self->dev));
	ASSERT_EQ(0, ixt_load_small(self->ipu, msg, sizeof(msg))) TH_LOG("%s", msg);
	ipuxcom_close(self->ipu);
	self->ipu = NULL;
	EXPECT_EQ(IPUXCOM_TILES, squares(_metadata, self, RUNNING_FILL, title, sizeof(title)));
	EXPECT_NE(NULL, strstr(title, "1472 running, 0 idle")) TH_LOG("%s", title);
	/* the same states as text and JSON */
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "tdi", "dump", "--all", "--dev",
				  self->devstr, NULL));
	EXPECT_EQ(0, self->r->status);
	/* (the output is longer than the capture: the first tiles) */
	EXPECT_NE(NULL, strstr(self->r->out, "\n1     running  0x00000001 0x0      0x0\n"))
		TH_LOG("%.300s", self->r->out);
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "tdi", "dump", "--all", "-j", "--dev",
				  self->devstr, NULL));
	EXPECT_EQ(0, self->r->status);
	/* Every device command's JSON names its device. */
	snprintf(want, sizeof(want), "{\"dev\":%s,\"tiles\":[", self->devstr);
	EXPECT_EQ(0, strncmp(self->r->out, want, strlen(want))) TH_LOG("%.200s", self->r->out);
	EXPECT_NE(NULL, strstr(self->r->out, "\"tiles\":[{\"tile\":0,\"state\":\"running\","
			       "\"registers\":{\"CTXT_STS\":\"0x00000001\",")) TH_LOG("%.200s", self->r->out);
	/* tdi write and read on the running tile: JSON with the device, as every command's */
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "tdi", "write", "5", "0x60000",
				  "0x12345678", "7", "-j", "--dev", self->devstr, NULL));
	EXPECT_EQ(0, self->r->status) TH_LOG("stderr: %s", self->r->err);
	snprintf(want, sizeof(want), "{\"dev\":%s,\"tile\":5,\"addr\":\"0x00060000\","
		 "\"written\":2,\"count\":2}\n", self->devstr);
	EXPECT_STREQ(want, self->r->out);
	ASSERT_EQ(0, ixt_run_tool(self->r, self->tool, "tdi", "read", "5", "0x60000", "2",
				  "-j", "--dev", self->devstr, NULL));
	EXPECT_EQ(0, self->r->status) TH_LOG("stderr: %s", self->r->err);
	snprintf(want, sizeof(want), "{\"dev\":%s,\"tile\":5,\"addr\":\"0x00060000\","
		 "\"words\":[\"0x12345678\",\"0x00000007\"]}\n", self->devstr);
	EXPECT_STREQ(want, self->r->out);
}

TEST_HARNESS_MAIN
