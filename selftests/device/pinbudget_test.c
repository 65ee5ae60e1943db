// SPDX-License-Identifier: GPL-2.0-only
/*
 * Issue 32: pinned host buffers are charged to the pinning user's
 * RLIMIT_MEMLOCK budget (user_struct.locked_vm), not to the address space
 * that pinned them. The pins belong to the file and outlive the process
 * that made them: it may exec (a new mm), exit, or hand the file to
 * another process over a unix socket. Charged per mm, each new mm got a
 * fresh budget, so a user could pin without limit; charged per user, the
 * budget holds until the last reference to the file is closed, and is
 * whole again then.
 *
 * The charged processes run as a user of their own (a uid nobody else
 * uses, so the user's locked_vm is this test's alone) without
 * CAP_IPC_LOCK, which bypasses the limit, and keep CAP_SYS_RAWIO, which
 * the loader's slot 0 wants, across exec as an ambient capability.
 */
#include "kselftest_harness.h"

#include <grp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_simdev.h"

#define PAGE		4096u
#define LIMIT_PAGES	64u	/* RLIMIT_MEMLOCK of the charged processes */
#define HELD_PAGES	48u	/* what the first process pins and leaves pinned */
#define OVER_PAGES	32u	/* HELD + OVER is over the limit */
#define LEFT_PAGES	8u	/* HELD + LEFT is within it */
#define EXEC_ENV	"IXT_PINBUDGET_EXEC"

/*
 * Become @uid without CAP_IPC_LOCK, CAP_SYS_RAWIO kept (and ambient, so
 * that an exec keeps it), RLIMIT_MEMLOCK at LIMIT_PAGES; 0 or -1.
 */
static int become_budget_user(uid_t uid)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	struct rlimit lim = { LIMIT_PAGES * PAGE, LIMIT_PAGES * PAGE };
	int i = CAP_TO_INDEX(CAP_SYS_RAWIO);

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
	    setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		return -1;
	memset(data, 0, sizeof(data));
	data[i].effective = data[i].permitted = data[i].inheritable = CAP_TO_MASK(CAP_SYS_RAWIO);
	if (syscall(SYS_capset, &hdr, data) ||
	    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_SYS_RAWIO, 0, 0))
		return -1;
	return setrlimit(RLIMIT_MEMLOCK, &lim);
}

/* A file attached to device @dev and reset (slot 0 wants an idle device); -errno. */
static int open_idle(uint32_t dev, int flags)
{
	int fd = open(ixt_dev_path(), O_RDWR | flags), ret;

	if (fd < 0)
		return -errno;
	ret = ixt_attach(fd, dev);
	if (!ret)
		ret = ixt_reset(fd);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

static void *pages(unsigned int n)
{
	void *p = ixt_buf_alloc(n * PAGE);

	if (p)
		memset(p, 0x3c, n * PAGE);
	return p;
}

/*
 * The charged process after its exec (a new mm, the same user, the same
 * files): @held still holds the pins of the old image in slot 0 of its
 * device, and the budget they use did not come back. Exit status: 0, or
 * the step that failed.
 */
static int after_exec(int held, uint32_t held_dev, int probe)
{
	struct ipuxcom_ioc_dev_query q;
	void *p = pages(OVER_PAGES);

	if (!p)
		return 60;
	if (ixt_query(held, &q) || q.dev_id != held_dev)
		return 61;
	/* refused before any pin: the slot is still in use */
	if (ixt_buf_attach(held, IPUXCOM_BUF_SLOT_LOADER, p, PAGE) != -EEXIST)
		return 62;
	if (ixt_buf_attach(probe, IPUXCOM_BUF_SLOT_LOADER, p, OVER_PAGES * PAGE) != -ENOMEM)
		return 63;
	if (ixt_buf_attach(probe, IPUXCOM_BUF_SLOT_LOADER, p, LEFT_PAGES * PAGE))
		return 64;
	if (ixt_buf_detach(probe, IPUXCOM_BUF_SLOT_LOADER))
		return 65;
	return 0;
}

/* Before main: the re-executed test binary is the charged process's new image. */
static void __attribute__((constructor)) pinbudget_exec_side(void)
{
	const char *env = getenv(EXEC_ENV);
	int held, probe;
	unsigned int dev;

	if (!env)
		return;
	if (sscanf(env, "%d,%u,%d", &held, &dev, &probe) != 3)
		_exit(59);
	_exit(after_exec(held, dev, probe));
}

/*
 * The charged process: pins HELD_PAGES on @dev as @uid, sends the file
 * over @sock and execs the test binary (@self_exe, opened before the uid
 * changed), which probes the budget on @probe_dev (after_exec()). Exit
 * status: the step that failed.
 */
static int charged_process(uid_t uid, uint32_t dev, uint32_t probe_dev, int sock, int self_exe)
{
	char *argv[] = { "pinbudget_test", NULL };
	char env[64];
	int held, probe;
	void *buf = pages(HELD_PAGES);

	/* both survive the exec: no O_CLOEXEC */
	held = open_idle(dev, 0);
	probe = open_idle(probe_dev, 0);
	if (!buf || held < 0 || probe < 0)
		return 40;
	if (become_budget_user(uid))
		return 41;
	if (ixt_buf_attach(held, IPUXCOM_BUF_SLOT_LOADER, buf, HELD_PAGES * PAGE))
		return 42;
	if (ixt_vmpin_kb() != HELD_PAGES * PAGE / 1024)
		return 43;
	if (ixt_send_fd(sock, held))
		return 44;
	snprintf(env, sizeof(env), "%d,%u,%d", held, dev, probe);
	if (setenv(EXEC_ENV, env, 1))
		return 45;
	syscall(SYS_execveat, self_exe, "", argv, environ, AT_EMPTY_PATH);
	return 46;
}

/* Another process of the user: refused over the budget, pins within what is left. */
static int same_user_process(uid_t uid, int probe, unsigned int over, unsigned int within)
{
	void *p = pages(over > within ? over : within);

	if (!p || become_budget_user(uid))
		return 50;
	if (over && ixt_buf_attach(probe, IPUXCOM_BUF_SLOT_LOADER, p, over * PAGE) != -ENOMEM)
		return 51;
	if (ixt_buf_attach(probe, IPUXCOM_BUF_SLOT_LOADER, p, within * PAGE))
		return 52;
	if (ixt_vmpin_kb() != within * PAGE / 1024)
		return 53;
	if (ixt_buf_detach(probe, IPUXCOM_BUF_SLOT_LOADER))
		return 54;
	return 0;
}

/* Exit status of child @pid, or -1 if it did not exit normally. */
static int child_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

FIXTURE(budget) {
	int before;	/* simulated devices before the test; -1: none added */
	uint32_t dev[2];	/* the pins held; the probes */
	long pinned0;
	uid_t uid;
};

FIXTURE_SETUP(budget)
{
	unsigned char ids[IXT_MAX_IDS];
	int id;

	self->before = -1;
	self->pinned0 = -1;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	if (getuid() != 0)
		SKIP(return, "needs root (to become a user of its own)");
	/* a uid of its own per run: its locked_vm is this test's alone */
	self->uid = 240000 + (uid_t)(getpid() % 10000);
	self->pinned0 = ixt_pinned_pages();
	self->before = ixt_sim_devices();
	for (int i = 0; i < 2; i++) {
		ixt_sim_device_ids(ids);
		ASSERT_EQ(0, ixt_set_sim_devices(self->before + i + 1));
		id = ixt_added_sim_device(ids);
		ASSERT_LE(0, id);
		self->dev[i] = (uint32_t)id;
	}
}

FIXTURE_TEARDOWN(budget)
{
	if (self->before >= 0)
		EXPECT_EQ(0, ixt_set_sim_devices(self->before));
	if (self->pinned0 >= 0)
		EXPECT_EQ(self->pinned0, ixt_pinned_pages());
}

TEST_F_TIMEOUT(budget, holds_across_exec_exit_and_passing, 60)
{
	struct timeval tmo = { .tv_sec = 20 };
	int sv[2] = { -1, -1 }, self_exe, held, probe, st;
	pid_t pid;

	if (_metadata->skip)
		return;
	self_exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self_exe);
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	ASSERT_EQ(0, setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo)));

	/* pin, pass the file on, exec (probing the budget there), exit */
	fflush(NULL);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(sv[0]);
		_exit(charged_process(self->uid, self->dev[0], self->dev[1], sv[1], self_exe));
	}
	close(sv[1]);
	close(self_exe);
	held = ixt_recv_fd(sv[0]);
	st = child_status(pid);
	close(sv[0]);
	ASSERT_EQ(0, st) TH_LOG("charged process: step %d (40s: before its exec, 60s: after)", st);
	ASSERT_LE(0, held);

	/* its images are gone; the file, and the pins, live on here */
	if (self->pinned0 >= 0)
		EXPECT_EQ(self->pinned0 + HELD_PAGES, ixt_pinned_pages());
	EXPECT_EQ(-EEXIST, ixt_buf_attach(held, IPUXCOM_BUF_SLOT_LOADER, NULL, PAGE));

	/* a new process of the same user: the budget still holds */
	probe = open_idle(self->dev[1], O_CLOEXEC);
	ASSERT_LE(0, probe) TH_LOG("%s", strerror(-probe));
	fflush(NULL);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(same_user_process(self->uid, probe, OVER_PAGES, LEFT_PAGES));
	st = child_status(pid);
	EXPECT_EQ(0, st) TH_LOG("same user, pins held: step %d", st);

	/* the last reference goes: the whole budget is free again */
	EXPECT_EQ(0, close(held));
	if (self->pinned0 >= 0)
		EXPECT_EQ(self->pinned0, ixt_pinned_pages());
	fflush(NULL);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(same_user_process(self->uid, probe, 0, LIMIT_PAGES));
	st = child_status(pid);
	EXPECT_EQ(0, st) TH_LOG("same user, pins released: step %d", st);
	close(probe);
}

TEST_HARNESS_MAIN
