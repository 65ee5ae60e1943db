// SPDX-License-Identifier: GPL-2.0-only
/*
 * ATTACH: one open file per device, released on close; commands that need
 * a device fail cleanly without one; REG_READ/REG_WRITE/RESET semantics and
 * the CAP_SYS_RAWIO rule for raw writes.
 */
#include "kselftest_harness.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "ipuxcom_test.h"

/*
 * A config-BAR register with no documented function (below the PCI_COMPLEX
 * block at 0x2000, HW-REGS), so raw tests do not arm any mechanism.
 */
#define SCRATCH_REG	0x0100

FIXTURE(attach) {
	int fd;
	uint32_t dev_id;
};

FIXTURE_SETUP(attach)
{
	self->fd = -1;
	self->dev_id = ixt_dev_id();
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	self->fd = ixt_open();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(attach)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(attach, query_describes_device)
{
	struct ipuxcom_ioc_dev_query q;

	ASSERT_EQ(0, ixt_attach(self->fd, self->dev_id));
	ASSERT_EQ(0, ixt_query(self->fd, &q));
	EXPECT_EQ(self->dev_id, q.dev_id);
	EXPECT_EQ(1472, q.tile_count);
	EXPECT_EQ(0x80000, q.config_bar_size);
	EXPECT_NE(0, q.backend[0]);
	EXPECT_NE(IPUXCOM_DEV_STATE_GONE, q.state);
	/* every device can have registers read */
	EXPECT_EQ(IPUXCOM_CAP_REG, q.capabilities & IPUXCOM_CAP_REG);
	/* a simulated device can be reset; the hw backend cannot (README.md) */
	if (!strcmp(q.backend, "sim"))
		EXPECT_EQ(IPUXCOM_CAP_RESET, q.capabilities & IPUXCOM_CAP_RESET);
}

TEST_F(attach, commands_need_attach)
{
	struct ipuxcom_ioc_dev_query q;
	struct ipuxcom_ioc_reset rs = { .size = sizeof(rs) };
	uint32_t v;

	EXPECT_EQ(-ENOTCONN, ixt_query(self->fd, &q));
	EXPECT_EQ(-ENOTCONN, ixt_reg_read(self->fd, SCRATCH_REG, &v));
	EXPECT_EQ(-ENOTCONN, ixt_reg_write(self->fd, SCRATCH_REG, 1));
	EXPECT_EQ(-ENOTCONN, ixt_ioctl(self->fd, IPUXCOM_IOC_RESET, &rs));
}

TEST_F(attach, unknown_device_enodev)
{
	EXPECT_EQ(-ENODEV, ixt_attach(self->fd, 255));
	EXPECT_EQ(-ENODEV, ixt_attach(self->fd, 256));
	EXPECT_EQ(-ENODEV, ixt_attach(self->fd, 0xffffffffu));
	/* Failed attaches leave the file free to attach. */
	EXPECT_EQ(0, ixt_attach(self->fd, self->dev_id));
}

TEST_F(attach, second_attach_on_same_file_ealready)
{
	ASSERT_EQ(0, ixt_attach(self->fd, self->dev_id));
	EXPECT_EQ(-EALREADY, ixt_attach(self->fd, self->dev_id));
}

TEST_F(attach, exclusive_between_files)
{
	int other = ixt_open();

	ASSERT_LE(0, other);
	ASSERT_EQ(0, ixt_attach(self->fd, self->dev_id));
	EXPECT_EQ(-EBUSY, ixt_attach(other, self->dev_id));
	/* close releases the device */
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(0, ixt_attach(other, self->dev_id));
	close(other);
}

/* Another process holds the device: EBUSY until that process is gone. */
TEST_F(attach, exclusive_between_processes)
{
	int ready[2], done[2];
	char c = 0;
	pid_t child;
	int status;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(done));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		int fd;

		/* A failed ASSERT in the parent must not leave us holding the device. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(done[1]);
		fd = ixt_open();
		c = fd >= 0 && ixt_attach(fd, self->dev_id) == 0 ? 'A' : 'F';
		if (write(ready[1], &c, 1) != 1)
			_exit(2);
		/* hold the device until the parent has tried */
		if (read(done[0], &c, 1) != 1)
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ('A', c);
	EXPECT_EQ(-EBUSY, ixt_attach(self->fd, self->dev_id));
	ASSERT_EQ(1, write(done[1], "x", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	/* The child's files were closed before it became reapable. */
	EXPECT_EQ(0, ixt_attach(self->fd, self->dev_id));
}

/* A killed holder releases the device too. */
TEST_F(attach, killed_holder_releases)
{
	int ready[2];
	char c = 0;
	pid_t child;

	ASSERT_EQ(0, pipe(ready));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		int fd;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fd = ixt_open();
		c = fd >= 0 && ixt_attach(fd, self->dev_id) == 0 ? 'A' : 'F';
		if (write(ready[1], &c, 1) != 1)
			_exit(2);
		pause();
		_exit(0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ('A', c);
	EXPECT_EQ(-EBUSY, ixt_attach(self->fd, self->dev_id));
	ASSERT_EQ(0, kill(child, SIGKILL));
	ASSERT_EQ(child, waitpid(child, NULL, 0));
	EXPECT_EQ(0, ixt_attach(self->fd, self->dev_id));
}

/* The attachment belongs to the open file: a forked copy shares it. */
TEST_F(attach, attachment_follows_open_file)
{
	struct ipuxcom_ioc_dev_query q;
	int other = ixt_open();
	pid_t child;
	int status;

	ASSERT_LE(0, other);
	ASSERT_EQ(0, ixt_attach(self->fd, self->dev_id));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0)
		_exit(ixt_query(self->fd, &q) == 0 ? 0 : 1);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("child could not use the inherited attachment");
	/* The child's exit dropped only its reference: still attached. */
	EXPECT_EQ(0, ixt_query(self->fd, &q));
	EXPECT_EQ(-EBUSY, ixt_attach(other, self->dev_id));
	close(other);
}

TEST_F(attach, reg_write_read_back)
{
	uint32_t v = 0;

	IXT_REQUIRE_SIM();

	ASSERT_EQ(0, ixt_attach(self->fd, self->dev_id));
	ASSERT_EQ(0, ixt_reg_write(self->fd, SCRATCH_REG, 0xdeadbeef));
	ASSERT_EQ(0, ixt_reg_read(self->fd, SCRATCH_REG, &v));
	EXPECT_EQ(0xdeadbeef, v);
	/* last register of the 512 KiB BAR */
	ASSERT_EQ(0, ixt_reg_write(self->fd, 0x7fffc, 0x12345678));
	ASSERT_EQ(0, ixt_reg_read(self->fd, 0x7fffc, &v));
	EXPECT_EQ(0x12345678, v);
}

TEST_F(attach, reg_bad_offsets_einval)
{
	static const uint32_t bad[] = { 1, 2, 3, 0x7fffd, 0x80000, 0x80004, 0xfffffffc };
	uint32_t v;

	ASSERT_EQ(0, ixt_attach(self->fd, self->dev_id));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, ixt_reg_read(self->fd, bad[i], &v)) TH_LOG("read 0x%x", bad[i]);
		EXPECT_EQ(-EINVAL, ixt_reg_write(self->fd, bad[i], 0)) TH_LOG("write 0x%x", bad[i]);
	}
}

/*
 * Without CAP_SYS_RAWIO raw writes fail and change nothing; reads of the
 * documented registers work, of any other offset fail too.
 */
TEST_F(attach, reg_write_needs_cap_sys_rawio)
{
	uint32_t v = 0;
	pid_t child;
	int status;

	IXT_REQUIRE_SIM();

	ASSERT_EQ(0, ixt_attach(self->fd, self->dev_id));
	ASSERT_EQ(0, ixt_reg_write(self->fd, SCRATCH_REG, 0x11111111));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		uint32_t r;

		if (ixt_drop_cap_sys_rawio())
			_exit(10);
		if (ixt_reg_write(self->fd, SCRATCH_REG, 0x22222222) != -EPERM)
			_exit(11);
		if (ixt_reg_read(self->fd, SCRATCH_REG, &r) != -EPERM)
			_exit(12);
		if (ixt_reg_read(self->fd, 0x302c, &r))	/* HSP GS1, documented */
			_exit(13);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("child step %d failed", WEXITSTATUS(status));
	ASSERT_EQ(0, ixt_reg_read(self->fd, SCRATCH_REG, &v));
	EXPECT_EQ(0x11111111, v);
}

TEST_F(attach, reset_restores_power_on_state)
{
	struct ipuxcom_ioc_reset rs;
	uint32_t v = 1;

	IXT_REQUIRE_SIM();

	ASSERT_EQ(0, ixt_attach(self->fd, self->dev_id));
	ASSERT_EQ(0, ixt_reg_write(self->fd, SCRATCH_REG, 0xcafe));
	memset(&rs, 0xa5, sizeof(rs));
	rs.size = sizeof(rs);
	rs.flags = 0;
	/* reserved is an input that must be zero, like every reserved member */
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_RESET, &rs));
	rs.reserved = 0;
	ASSERT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_RESET, &rs));
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, rs.state);
	EXPECT_EQ(0, rs.reserved);
	ASSERT_EQ(0, ixt_reg_read(self->fd, SCRATCH_REG, &v));
	/* Reset values are not documented; the simulator models them as 0. */
	EXPECT_EQ(0, v);
}

TEST_HARNESS_MAIN
