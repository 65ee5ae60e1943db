// SPDX-License-Identifier: GPL-2.0-only
/*
 * Owner changes (uapi/linux/ipuxcom.h, struct ipuxcom_ioc_attach): what one
 * user left on a device is never readable or drivable by another. On a
 * simulated device, user 0 loads a program, stores a secret word in tile
 * SRAM and closes, leaving the device RUNNING:
 *  - the same user attaching again, in another process (the library) and
 *    through the command line (`ipuxcom tdi read`), reads the word;
 *  - another uid (a child after setresuid(), opening its own node of
 *    /dev/ipuxcom) attaches, finds the device in NEEDS_RESET and gets
 *    -EBADFD from every command but RESET: TDI SRAM and register reads,
 *    REG_READ of a documented register, HOSTX_CALL, BUF_ATTACH; its RESET
 *    works, after which it reads nothing of the first user's;
 *  - the first user coming back after that is restricted in turn.
 * Simulator only.
 */
#include "kselftest_harness.h"

#include <grp.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_load.h"
#include "image_testlib.h"

#define OTHER_UID	54321
#define TILE		2
#define ADDR		0x52000u
#define SECRET		0x5ec7e7a1u
#define GS1_REG		0x302cu
#define NODE_TMPL	"/tmp/ipuxcom-owner-XXXXXX"

/* What the other user's child saw, sent back through a pipe. */
struct other_view {
	int step;		/* how far the child got; 100: all done */
	int err;		/* errno of the failing step */
	uint32_t state_at_attach;
	int tdi_sram;
	uint32_t word;
	int tdi_regs;
	int reg_read;
	int hostx_call;
	int buf_attach;
	int buf_detach;
	int reset;
	uint32_t state_after_reset;
	int tdi_sram_after;
	uint32_t word_after;
};

FIXTURE(owner) {
	uint32_t dev;
	char node[sizeof(NODE_TMPL) + 8];
	char dir[sizeof(NODE_TMPL)];
};

FIXTURE_SETUP(owner)
{
	struct ipuxcom *ipu;
	struct stat st;
	char msg[300];
	uint32_t w = SECRET, back = 0;

	self->node[0] = '\0';
	self->dir[0] = '\0';
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	if (geteuid() != 0)
		SKIP(return, "needs root (setresuid to a second user)");
	self->dev = ixt_dev_id();
	/* a node of /dev/ipuxcom the other user may open, private to this test */
	ASSERT_EQ(0, stat(ixt_dev_path(), &st));
	strcpy(self->dir, NODE_TMPL);
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_EQ(0, chmod(self->dir, 0755));
	snprintf(self->node, sizeof(self->node), "%s/node", self->dir);
	ASSERT_EQ(0, mknod(self->node, S_IFCHR | 0600, st.st_rdev));
	ASSERT_EQ(0, chown(self->node, OTHER_UID, OTHER_UID));

	/* user 0: load, store the secret, leave the device running */
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &ipu));
	ASSERT_EQ(0, ipuxcom_attach(ipu, self->dev));
	ixt_sim_clear_faults(self->dev);
	ASSERT_EQ(0, ixt_load_small(ipu, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(0, ipuxcom_tdi_write_sram(ipu, TILE, ADDR, &w, 1, NULL));
	ASSERT_EQ(0, ipuxcom_tdi_read_sram(ipu, TILE, ADDR, &back, 1, NULL));
	ASSERT_EQ(SECRET, back);
	ipuxcom_close(ipu);
}

FIXTURE_TEARDOWN(owner)
{
	int fd;

	if (self->node[0])
		unlink(self->node);
	if (self->dir[0])
		rmdir(self->dir);
	/* leave the device user 0's and idle for the tests after this one */
	fd = ixt_open();
	if (fd >= 0) {
		if (!ixt_attach(fd, self->dev))
			ixt_reset(fd);
		close(fd);
	}
}

static int tdi_sram(int fd, uint32_t *word)
{
	struct ipuxcom_ioc_tdi_sram ts = {
		.size = sizeof(ts), .tile = TILE, .addr = ADDR, .count = 1,
		.data = (uintptr_t)word, .timeout_ns = ixt_scaled_ns(100ULL * 1000 * 1000),
	};

	return ixt_ioctl(fd, IPUXCOM_IOC_TDI_READ_SRAM, &ts);
}

/* The state a new file of this process's user finds @dev in; 99 if none. */
static uint32_t state_seen_by_this_user(uint32_t dev)
{
	uint32_t s = 99;
	int fd = ixt_open();

	if (fd < 0)
		return s;
	if (!ixt_attach(fd, dev))
		s = ixt_state(fd);
	close(fd);
	return s;
}

/* In the child: become OTHER_UID, without capabilities, and look. */
static void other_user(const char *node, uint32_t dev, struct other_view *v)
{
	struct ipuxcom_ioc_dev_query q = { .size = sizeof(q) };
	struct ipuxcom_ioc_tdi_regs tr = { .size = sizeof(tr), .tile = TILE };
	struct ipuxcom_ioc_hostx_call hc = { .size = sizeof(hc) };
	uint32_t value;
	void *page;
	int fd;

	v->step = 1;
	if (setgroups(0, NULL) || setresgid(OTHER_UID, OTHER_UID, OTHER_UID) ||
	    setresuid(OTHER_UID, OTHER_UID, OTHER_UID))
		goto fail;
	v->step = 2;
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	v->step = 3;
	errno = -ixt_attach(fd, dev);
	if (errno)
		goto fail;
	v->step = 4;
	errno = -ixt_query(fd, &q);
	if (errno)
		goto fail;
	v->state_at_attach = q.state;
	v->word = 0;
	v->tdi_sram = tdi_sram(fd, &v->word);
	v->tdi_regs = ixt_ioctl(fd, IPUXCOM_IOC_TDI_READ_REGS, &tr);
	v->reg_read = ixt_reg_read(fd, GS1_REG, &value);
	v->hostx_call = ixt_ioctl(fd, IPUXCOM_IOC_HOSTX_CALL, &hc);
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	v->buf_attach = page == MAP_FAILED ? -ENOMEM :
			ixt_buf_attach(fd, IPUXCOM_BUF_SLOT_HOSTX(1), page, 4096);
	v->buf_detach = ixt_buf_detach(fd, IPUXCOM_BUF_SLOT_HOSTX(1));
	v->reset = ixt_reset(fd);
	v->state_after_reset = ixt_state(fd);
	v->word_after = 0;
	v->tdi_sram_after = tdi_sram(fd, &v->word_after);
	close(fd);
	v->step = 100;
	return;
fail:
	v->err = errno;
}

TEST_F(owner, same_user_keeps_working)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	char tool[PATH_MAX], devstr[16], want[16];
	struct ixt_run *r;
	int status;
	pid_t pid;

	/* another process of the same user: the library reads the word */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct ipuxcom *ipu;
		uint32_t w = 0;

		if (ipuxcom_open(ixt_dev_path(), &ipu) || ipuxcom_attach(ipu, self->dev))
			_exit(2);
		if (ipuxcom_tdi_read_sram(ipu, TILE, ADDR, &w, 1, NULL))
			_exit(3);
		_exit(w == SECRET ? 0 : 4);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	/* and the command line: `ipuxcom tdi read` after the load */
	if (!ixt_find_tool_on_path(tool, sizeof(tool)))
		SKIP(return, "no ipuxcom command (set IPUXCOM_TOOL)");
	r = calloc(1, sizeof(*r));
	ASSERT_NE(NULL, r);
	snprintf(devstr, sizeof(devstr), "%u", self->dev);
	snprintf(want, sizeof(want), "%08x", SECRET);
	ASSERT_EQ(0, ixt_run_tool(r, tool, "--dev", devstr, "tdi", "read", "2", "0x52000", "1",
				  NULL));
	EXPECT_EQ(0, r->status) TH_LOG("%s", r->err);
	EXPECT_NE(NULL, strstr(r->out, want)) TH_LOG("%s", r->out);
	/* the program is still there for its user */
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, state_seen_by_this_user(self->dev));
	free(r);
}

TEST_F(owner, another_user_gets_nothing_but_reset)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct other_view *v;
	int status, fd;
	uint32_t w = 0;
	pid_t pid;

	v = mmap(NULL, sizeof(*v), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, v);
	memset(v, 0, sizeof(*v));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		other_user(self->node, self->dev, v);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(100, v->step) TH_LOG("the other user stopped at step %d: %s", v->step,
				       strerror(v->err));
	/* the device it found: another user's, only RESET answers */
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, v->state_at_attach);
	EXPECT_EQ(-EBADFD, v->tdi_sram);
	EXPECT_NE(SECRET, v->word);
	EXPECT_EQ(-EBADFD, v->tdi_regs);
	EXPECT_EQ(-EBADFD, v->reg_read);
	EXPECT_EQ(-EBADFD, v->hostx_call);
	EXPECT_EQ(-EBADFD, v->buf_attach);
	EXPECT_EQ(-EBADFD, v->buf_detach);
	/* its own RESET is the way in, and leaves nothing of user 0's */
	EXPECT_EQ(0, v->reset);
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, v->state_after_reset);
	EXPECT_NE(0, v->tdi_sram_after);
	EXPECT_NE(SECRET, v->word_after);

	/* user 0 again, after user OTHER_UID: restricted in its turn */
	fd = ixt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ixt_attach(fd, self->dev));
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(fd));
	EXPECT_EQ(-EBADFD, tdi_sram(fd, &w));
	EXPECT_EQ(0, ixt_reset(fd));
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ixt_state(fd));
	close(fd);
	munmap(v, sizeof(*v));
}

TEST_HARNESS_MAIN
