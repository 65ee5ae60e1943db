// SPDX-License-Identifier: GPL-2.0-only
/*
 * The privilege matrix of uapi/linux/ipuxcom.h, row by row and both ways,
 * on a simulated device: a process without CAP_SYS_RAWIO gets -EPERM for
 * every command that can change what a tile runs or touch an undocumented
 * register, and nothing reaches the device (the simulator's counters do
 * not move); the same commands with the capability are not refused for
 * privilege (they may fail for the state the device is in); the other
 * commands work without it. Netlink DEV_GET shows the attached pid only
 * to CAP_NET_ADMIN.
 */
#include "kselftest_harness.h"

#include <sys/mman.h>
#include <sys/wait.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"

#include "ixt_ioc_rows.h"


FIXTURE(priv) {
	int fd;
	uint32_t dev;
	void *page;
};

FIXTURE_SETUP(priv)
{
	self->fd = -1;
	self->page = NULL;
	IXT_SETUP_IDLE_SIM(self->fd, self->dev);
	self->page = ixt_buf_alloc(4096);
	ASSERT_NE(NULL, self->page);
}

FIXTURE_TEARDOWN(priv)
{
	if (self->fd >= 0) {
		ixt_reset(self->fd);
		close(self->fd);
	}
	if (self->page)
		munmap(self->page, 4096);
}

/*
 * In a child without CAP_SYS_RAWIO (same attached file): each RAWIO row is
 * -EPERM and the device saw nothing; each other row is not -EPERM. The
 * child's exit status is 0, or 1 + the first row that broke the rule.
 */
TEST_F(priv, without_cap_sys_rawio)
{
	long autoloads = ixt_sim_stat(self->dev, "autoload_transactions");
	pid_t child;
	int status;

	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (ixt_drop_cap_sys_rawio())
			_exit(100);
		for (size_t i = 0; i < NROWS; i++) {
			union any_ioc a;
			int ret;

			memset(&a, 0, sizeof(a));
			rows[i].fill(&a, self->page);
			ret = ixt_ioctl(self->fd, rows[i].cmd, &a);
			if ((ret == -EPERM) != rows[i].rawio) {
				fprintf(stderr, "# %s: %d\n", rows[i].name, ret);
				_exit(1 + (int)i);
			}
		}
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("row %d (%s) broke the matrix", WEXITSTATUS(status) - 1,
		       WEXITSTATUS(status) && WEXITSTATUS(status) <= NROWS ?
		       rows[WEXITSTATUS(status) - 1].name : "?");
	/* nothing reached the device: no autoload ran, no pin was left */
	EXPECT_EQ(autoloads, ixt_sim_stat(self->dev, "autoload_transactions"));
	EXPECT_EQ(-ENOENT, ixt_buf_detach(self->fd, IPUXCOM_BUF_SLOT_LOADER));
}

/* With it, no row is refused for privilege (state may refuse some). */
TEST_F(priv, with_cap_sys_rawio)
{
	for (size_t i = 0; i < NROWS; i++) {
		union any_ioc a;
		int ret;

		memset(&a, 0, sizeof(a));
		rows[i].fill(&a, self->page);
		ret = ixt_ioctl(self->fd, rows[i].cmd, &a);
		EXPECT_NE(-EPERM, ret) TH_LOG("%s", rows[i].name);
		if (rows[i].cmd == IPUXCOM_IOC_BUF_ATTACH && !ret)
			EXPECT_EQ(0, ixt_buf_detach(self->fd, a.buf.index));
		/* each row starts from an idle device */
		ASSERT_EQ(0, ixt_reset(self->fd)) TH_LOG("after %s", rows[i].name);
	}
}

/* DEV_GET: the pid of the attached process to CAP_NET_ADMIN only. */
TEST_F(priv, netlink_pid_only_for_cap_net_admin)
{
	struct ipuxcom_device_info d;
	struct ipuxcom_nl *nl;
	pid_t child;
	int status;

	ASSERT_EQ(0, ipuxcom_nl_open(&nl));
	ASSERT_EQ(0, ipuxcom_nl_dev_get(nl, self->dev, &d));
	EXPECT_EQ((uint32_t)getpid(), d.attached_pid);
	EXPECT_EQ(1, d.attached);
	ipuxcom_nl_close(nl);

	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (ixt_drop_cap(CAP_NET_ADMIN) || ipuxcom_nl_open(&nl))
			_exit(10);
		if (ipuxcom_nl_dev_get(nl, self->dev, &d))
			_exit(11);
		if (d.attached_pid)
			_exit(12);	/* shown without the capability */
		if (d.attached != 1)
			_exit(13);	/* but that it is attached is not secret */
		ipuxcom_nl_close(nl);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("child step %d", WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
