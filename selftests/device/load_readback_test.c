// SPDX-License-Identifier: GPL-2.0-only
/*
 * examples/load_readback runs on the simulated device as libipuxcom(3)
 * shows it: it lists the devices, loads a 1472-tile image (every tile's
 * image different) with a raw bootloader, reads every tile back through
 * TDI and prints PASS when each tile's first words equal the image (the
 * first word is the tile's number: every tile differs). Its usage and a missing
 * image are failures it names. The example is found on PATH (the VM puts
 * it in /bin) or as LOAD_READBACK.
 */
#include "kselftest_harness.h"

#include <limits.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_load_inputs.h"

FIXTURE(lr) {
	int fd;
	uint32_t dev;
	char devstr[16], prog[PATH_MAX];
	struct ixt_load_inputs f;
	struct ixt_run *r;
};

FIXTURE_SETUP(lr)
{
	char msg[256];

	self->fd = -1;
	self->r = calloc(1, sizeof(*self->r));
	ASSERT_NE(NULL, self->r);
	IXT_SETUP_IDLE_SIM(self->fd, self->dev);
	if (!ixt_find_on_path("load_readback", "LOAD_READBACK", self->prog, sizeof(self->prog)))
		SKIP(return, "no load_readback example on PATH (set LOAD_READBACK)");
	snprintf(self->devstr, sizeof(self->devstr), "%u", self->dev);
	ASSERT_EQ(0, ixt_write_load_inputs(&self->f, msg, sizeof(msg))) TH_LOG("%s", msg);
	/* the example attaches itself: let go of the fixture's attachment */
	close(self->fd);
	self->fd = -1;
}

FIXTURE_TEARDOWN(lr)
{
	int fd = ixt_open();

	if (fd >= 0) {
		if (!ixt_attach(fd, self->dev))
			ixt_reset(fd);
		close(fd);
	}
	ixt_rmtree(self->f.dir);
	free(self->r);
}

#define RUN_EXAMPLE(...) ({							\
	char *const _argv[] = { self->prog, __VA_ARGS__, NULL };		\
	ASSERT_EQ(0, ixt_run(_argv, self->r));					\
})
#define EXPECT_IN(_stream, _needle)						\
	EXPECT_NE(NULL, strstr(self->r->_stream, _needle))			\
		TH_LOG("no '%s' in %s: '%s'", _needle, #_stream, self->r->_stream)

TEST_F(lr, loads_and_reads_every_tile_back)
{
	char want[PATH_MAX + 64];

	/* no DEV: the lowest id listed, as the command picks it */
	RUN_EXAMPLE(self->f.img, self->f.boot);
	EXPECT_EQ(0, self->r->status) TH_LOG("stdout: %s\nstderr: %s", self->r->out, self->r->err);
	snprintf(want, sizeof(want), "device %u: sim, ", self->dev);
	EXPECT_IN(out, want);
	EXPECT_IN(out, ", 1472 tiles\n");
	EXPECT_IN(out, "loaded ");
	EXPECT_IN(out, "1472 tiles read back: the first 4 words of each equal the image\n"
		  "PASS\n");
	EXPECT_EQ(0, self->r->err[0]) TH_LOG("stderr: %s", self->r->err);
	/* DEV given */
	RUN_EXAMPLE(self->f.img, self->f.boot, self->devstr);
	EXPECT_EQ(0, self->r->status) TH_LOG("stdout: %s\nstderr: %s", self->r->out, self->r->err);
	snprintf(want, sizeof(want), "on device %u\n", self->dev);
	EXPECT_IN(out, want);
	EXPECT_IN(out, "PASS\n");
}

TEST_F(lr, failures_are_named)
{
	char missing[PATH_MAX + 32];

	RUN_EXAMPLE(self->f.img);
	EXPECT_EQ(2, self->r->status);
	EXPECT_IN(err, "usage: load_readback IMAGE BOOTLOADER [DEV [CONFIG]]");
	snprintf(missing, sizeof(missing), "%s/missing.ipuimg", self->f.dir);
	RUN_EXAMPLE(missing, self->f.boot, self->devstr);
	EXPECT_EQ(1, self->r->status);
	EXPECT_IN(err, "load_readback: ");
	EXPECT_IN(err, "missing.ipuimg: cannot open");
	EXPECT_EQ(NULL, strstr(self->r->out, "PASS"));
	/* the optional CONFIG is read before the device is opened */
	snprintf(missing, sizeof(missing), "%s/missing.ipucfg", self->f.dir);
	RUN_EXAMPLE(self->f.img, self->f.boot, self->devstr, missing);
	EXPECT_EQ(1, self->r->status);
	EXPECT_IN(err, "missing.ipucfg");
	EXPECT_EQ(NULL, strstr(self->r->out, "PASS"));
}

TEST_HARNESS_MAIN
