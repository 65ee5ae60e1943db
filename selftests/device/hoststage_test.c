// SPDX-License-Identifier: GPL-2.0-only
/*
 * The module's rules for caller-owned host buffers, at the ioctl level
 * (uapi version 4), on a simulated device:
 *  - the load-completion transition in stages: HOSTX_SETUP BEGIN, the
 *    pages attached with BUF_ATTACH in the manifest's attach order and
 *    sizes, COMMIT repeating BEGIN; anything else is refused, and RESET
 *    drops every pin;
 *  - a file released in the middle of a load leaves the device in
 *    NEEDS_RESET: the next owner cannot LOAD_FINISH over buffers that are
 *    gone (the KASAN null-deref of issue 14), and RESET recovers;
 *  - RESET and EXCH_WRITE take their ipu_driver flags only on devices held
 *    through ipu_driver.
 */
#include "kselftest_harness.h"

#include <linux/loop.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_load.h"
#include "frames_testlib.h"

/* Bootloader stand-in: the simulator installs, but does not run, it. */
static const uint8_t boot[1024] = { 0x01, 0x02, 0x03, 0x04 };

#define TIMEOUT_NS	(2ULL * 1000 * 1000 * 1000)
#define PAGE		4096u

FIXTURE(stage) {
	struct ipuxcom *ipu;
	int fd;
	uint32_t dev;
	long pinned0;
	uint8_t *page[2];
};

FIXTURE_SETUP(stage)
{
	char msg[300];

	self->ipu = NULL;
	self->page[0] = self->page[1] = NULL;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	self->dev = ixt_dev_id();
	self->pinned0 = ixt_pinned_pages();
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, self->dev));
	self->fd = ipuxcom_fd(self->ipu);
	ixt_sim_clear_faults(self->dev);
	ASSERT_EQ(0, ixt_load_small(self->ipu, msg, sizeof(msg))) TH_LOG("%s", msg);
	/* the load's transport buffer is unpinned by LOAD_FINISH */
	if (self->pinned0 >= 0)
		ASSERT_EQ(self->pinned0, ixt_pinned_pages());
	for (int i = 0; i < 2; i++) {
		self->page[i] = ixt_buf_alloc(2 * PAGE);
		ASSERT_NE(NULL, self->page[i]);
	}
}

FIXTURE_TEARDOWN(stage)
{
	if (!self->ipu)
		return;
	ipuxcom_reset(self->ipu, NULL);
	ipuxcom_close(self->ipu);
	for (int i = 0; i < 2; i++)
		if (self->page[i])
			munmap(self->page[i], 2 * PAGE);
}

/* Two pages, attached page 1 then page 0 as in the notes' oracle. */
static void stage_request(struct ipuxcom_ioc_hostx_setup *hs, uint32_t flags)
{
	memset(hs, 0, sizeof(*hs));
	hs->size = sizeof(*hs);
	hs->flags = flags;
	hs->npages = 2;
	hs->timeout_ns = TIMEOUT_NS;
	hs->page_bytes[0] = PAGE;
	hs->page_bytes[1] = 2 * PAGE;
	hs->attach_order[0] = 1;
	hs->attach_order[1] = 0;
}

TEST_F(stage, hostx_pages_attach_between_begin_and_commit_in_order)
{
	struct ipuxcom_ioc_hostx_setup hs;
	struct ipuxcom_ioc_hostx_call hc = { .size = sizeof(hc), .phases = 1,
					     .timeout_ns = TIMEOUT_NS };

	/* neither stage, both stages, COMMIT first */
	stage_request(&hs, 0);
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_HOSTX_SETUP, &hs));
	stage_request(&hs, IPUXCOM_HOSTX_F_BEGIN | IPUXCOM_HOSTX_F_COMMIT);
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_HOSTX_SETUP, &hs));
	stage_request(&hs, IPUXCOM_HOSTX_F_COMMIT);
	EXPECT_EQ(-EBADFD, ixt_ioctl(self->fd, IPUXCOM_IOC_HOSTX_SETUP, &hs));
	EXPECT_EQ(-ENOBUFS, ixt_ioctl(self->fd, IPUXCOM_IOC_HOSTX_CALL, &hc));

	stage_request(&hs, IPUXCOM_HOSTX_F_BEGIN);
	ASSERT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_HOSTX_SETUP, &hs));
	EXPECT_EQ(-EEXIST, ixt_ioctl(self->fd, IPUXCOM_IOC_HOSTX_SETUP, &hs));
	/*
	 * out of order, wrong size, a slot beyond the pages: refused, nothing
	 * pinned. Page i goes to index i: index 0 is page 0 here, not the
	 * loader's buffer (which LOAD_FINISH detached).
	 */
	EXPECT_EQ(0, IPUXCOM_BUF_SLOT_HOSTX(0));
	EXPECT_EQ(1, IPUXCOM_BUF_SLOT_HOSTX(1));
	EXPECT_EQ(-EINVAL, ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_HOSTX(0), self->page[0], PAGE));
	EXPECT_EQ(-EINVAL, ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_HOSTX(1), self->page[1], PAGE));
	EXPECT_EQ(-EINVAL, ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_HOSTX(2), self->page[1], 2 * PAGE));
	if (self->pinned0 >= 0)
		EXPECT_EQ(self->pinned0, ixt_pinned_pages());
	ASSERT_EQ(0, ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_HOSTX(1), self->page[1], 2 * PAGE));
	/* not all pages yet */
	stage_request(&hs, IPUXCOM_HOSTX_F_COMMIT);
	EXPECT_EQ(-ENOBUFS, ixt_ioctl(self->fd, IPUXCOM_IOC_HOSTX_SETUP, &hs));
	ASSERT_EQ(0, ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_HOSTX(0), self->page[0], PAGE));
	EXPECT_EQ(-EEXIST, ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_HOSTX(0), self->page[0], PAGE));
	if (self->pinned0 >= 0)
		EXPECT_EQ(self->pinned0 + 3, ixt_pinned_pages());
	/* COMMIT must repeat BEGIN */
	hs.attach_order[0] = 0;
	hs.attach_order[1] = 1;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_HOSTX_SETUP, &hs));
	stage_request(&hs, IPUXCOM_HOSTX_F_COMMIT);
	ASSERT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_HOSTX_SETUP, &hs));
	/* the device owns the pages now */
	EXPECT_EQ(-EBUSY, ixt_buf_detach(self->fd, IPUXCOM_BUF_SLOT_HOSTX(0)));
	EXPECT_EQ(-EBADFD, ixt_ioctl(self->fd, IPUXCOM_IOC_HOSTX_SETUP, &hs));
	stage_request(&hs, IPUXCOM_HOSTX_F_BEGIN);
	EXPECT_EQ(-EEXIST, ixt_ioctl(self->fd, IPUXCOM_IOC_HOSTX_SETUP, &hs));

	/* RESET drops every pin and the transition */
	ASSERT_EQ(0, ixt_reset(self->fd));
	if (self->pinned0 >= 0)
		EXPECT_EQ(self->pinned0, ixt_pinned_pages());
	EXPECT_EQ(-EBADFD, ixt_ioctl(self->fd, IPUXCOM_IOC_HOSTX_CALL, &hc));
	EXPECT_EQ(-ENOENT, ixt_buf_detach(self->fd, IPUXCOM_BUF_SLOT_HOSTX(0)));
}

/*
 * Pins are charged to the RLIMIT_MEMLOCK of the caller's user: without
 * CAP_IPC_LOCK a buffer above the limit is -ENOMEM and nothing stays
 * pinned; within it, attached.
 */
TEST_F(stage, pins_are_charged_to_rlimit_memlock)
{
	size_t bytes = 1 << 20;
	void *buf = ixt_buf_alloc(bytes);
	pid_t child;
	int status;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, ixt_reset(self->fd));	/* slot 0 wants an idle device */
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		struct rlimit lim = { 256 * 1024, 256 * 1024 };

		if (ixt_drop_cap(CAP_IPC_LOCK) || setrlimit(RLIMIT_MEMLOCK, &lim))
			_exit(10);
		if (ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_LOADER, buf, bytes) != -ENOMEM)
			_exit(11);
		if (ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_LOADER, buf, 128 * 1024))
			_exit(12);
		if (ixt_buf_detach(self->fd, IPUXCOM_BUF_SLOT_LOADER))
			_exit(13);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("child step %d", WEXITSTATUS(status));
	if (self->pinned0 >= 0)
		EXPECT_EQ(self->pinned0, ixt_pinned_pages());
	munmap(buf, bytes);
}

/* ipu_driver's flags belong to devices held through ipu_driver. */
TEST_F(stage, driver_flags_refused_on_a_plain_device)
{
	struct ipuxcom_ioc_reset rs = { .size = sizeof(rs), .flags = IPUXCOM_RESET_F_DRIVER_RESET };
	struct ipuxcom_ioc_exch_write ew = {
		.size = sizeof(ew), .flags = IPUXCOM_EXCH_F_SELECT, .tile = 5,
		.addr = 0x52000, .bytes = 8,
	};

	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_RESET, &rs));
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, ixt_state(self->fd));
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_EXCH_WRITE, &ew));
	ew.flags = IPUXCOM_EXCH_F_COMPLETE;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_EXCH_WRITE, &ew));
}

/*
 * Issue 14's oops: all 23 batches, close without LOAD_FINISH, and the next
 * owner's LOAD_FINISH must not touch the released buffer.
 */
TEST_F(stage, released_mid_load_needs_reset)
{
	struct ipuxcom_ioc_load_batch lb = { .size = sizeof(lb), .timeout_ns = TIMEOUT_NS };
	struct ipuxcom_ioc_load_finish lf = { .size = sizeof(lf), .timeout_ns = TIMEOUT_NS };
	size_t bytes = IXT_BATCH_BYTES(17);
	uint8_t *xbuf = ixt_buf_alloc(bytes);
	struct ipuxcom_ioc_autoload al = {
		.size = sizeof(al), .image = (uintptr_t)boot, .image_size = sizeof(boot),
		.timeout_ns = TIMEOUT_NS,
	};

	ASSERT_NE(NULL, xbuf);
	ASSERT_EQ(0, ixt_reset(self->fd));
	ASSERT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_AUTOLOAD, &al));
	ASSERT_EQ(0, ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_LOADER, xbuf, bytes));
	for (lb.batch = 0; lb.batch < IPUXCOM_LOAD_BATCHES; lb.batch++) {
		ixt_write_batch(xbuf, lb.batch, 17);
		ASSERT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_BATCH, &lb))
			TH_LOG("batch %u", lb.batch);
	}
	/* no detach in the middle of a load */
	EXPECT_EQ(-EBUSY, ixt_buf_detach(self->fd, IPUXCOM_BUF_SLOT_LOADER));
	ipuxcom_close(self->ipu);
	self->ipu = NULL;
	if (self->pinned0 >= 0)
		EXPECT_EQ(self->pinned0, ixt_pinned_pages());

	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, self->dev));
	self->fd = ipuxcom_fd(self->ipu);
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(self->fd));
	EXPECT_EQ(-EBADFD, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_FINISH, &lf));
	ASSERT_EQ(0, ixt_reset(self->fd));
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ixt_state(self->fd));
	munmap(xbuf, bytes);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * A BUF_ATTACH the state or the slot refuses pins nothing: not a page
 * taken and given back (nr_foll_pin_acquired stays), even for 64 MiB of
 * never-touched memory, which a pin would first have to fault in.
 */
TEST_F(stage, refused_attach_pins_nothing)
{
	size_t big = IPUXCOM_BUF_MAX_BYTES;
	void *buf = ixt_buf_alloc(big);
	long acq;
	double t0, t;

	ASSERT_NE(NULL, buf);
	acq = ixt_pins_acquired();
	if (acq < 0)
		SKIP(return, "no nr_foll_pin_acquired in /proc/vmstat");
	/* RUNNING, no HOSTX_SETUP BEGIN: neither the loader's slot nor a host page */
	t0 = now_s();
	EXPECT_EQ(-EBADFD, ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_LOADER, buf, big));
	EXPECT_EQ(-EBADFD, ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_HOSTX(3), buf, big));
	t = now_s() - t0;
	EXPECT_EQ(acq, ixt_pins_acquired()) TH_LOG("refused for the state: pinned first");
	TH_LOG("two refusals of 64 MiB: %.3f s", t);
	/* the slot in use */
	ASSERT_EQ(0, ixt_reset(self->fd));
	ASSERT_EQ(0, ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_LOADER, self->page[0], PAGE));
	acq = ixt_pins_acquired();
	EXPECT_EQ(-EEXIST, ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_LOADER, buf, big));
	EXPECT_EQ(acq, ixt_pins_acquired()) TH_LOG("refused for the slot: pinned first");
	EXPECT_EQ(0, ixt_buf_detach(self->fd, IPUXCOM_BUF_SLOT_LOADER));
	munmap(buf, big);
	if (self->pinned0 >= 0)
		EXPECT_EQ(self->pinned0, ixt_pinned_pages());
}

/* A MAP_SHARED mapping of @bytes of a new file @path, or NULL. */
static void *map_file(const char *path, size_t bytes, int flags)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	void *p;

	if (fd < 0)
		return NULL;
	if (ftruncate(fd, (off_t)bytes)) {
		close(fd);
		return NULL;
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, flags, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/* Attach @p as the loader's buffer, detach it again: 0 or the refusal. */
static int attach_detach(int fd, void *p, size_t bytes)
{
	int ret = ixt_buf_attach(fd, IPUXCOM_BUF_SLOT_LOADER, p, bytes);

	if (!ret)
		ret = ixt_buf_detach(fd, IPUXCOM_BUF_SLOT_LOADER);
	return ret;
}

/*
 * @file's shared mapping is refused with -EMEDIUMTYPE, pinning nothing,
 * and its private mapping (copied on write: anonymous) is accepted.
 * Returns the pinned-page count seen before the refusal.
 */
static long check_file_refused(struct __test_metadata *_metadata, int fd, const char *file,
			       size_t bytes)
{
	long pinned;
	void *p;

	p = map_file(file, bytes, MAP_SHARED);
	ASSERT_NE(NULL, p);
	memset(p, 0x5a, bytes);	/* dirty pages, under the file system's writeback */
	pinned = ixt_pinned_pages();
	EXPECT_EQ(-EMEDIUMTYPE, attach_detach(fd, p, bytes));
	EXPECT_EQ(pinned, ixt_pinned_pages());
	munmap(p, bytes);
	p = map_file(file, bytes, MAP_PRIVATE);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(0, attach_detach(fd, p, bytes));
	munmap(p, bytes);
	return pinned;
}

/*
 * Host buffers are anonymous or shmem memory only: a shared mapping of a
 * regular file (here on ramfs, whose pages are not shmem) would be written
 * long after the pin, under the file system's writeback. Refused with
 * -EMEDIUMTYPE, pinning nothing; anonymous, shared anonymous, memfd, tmpfs
 * and a private (copy-on-write) file mapping are accepted.
 */
TEST_F(stage, only_anonymous_or_shmem_memory_is_pinned)
{
	char dir[] = "/tmp/ixt-ramfs.XXXXXX", file[64], shm[64];
	size_t bytes = 2 * PAGE;
	long pinned;
	void *p;
	int mfd, ffd;

	ASSERT_EQ(0, ixt_reset(self->fd));
	ASSERT_NE(NULL, mkdtemp(dir));
	if (mount("ixt", dir, "ramfs", 0, NULL)) {
		rmdir(dir);
		SKIP(return, "cannot mount ramfs: %s", strerror(errno));
	}
	snprintf(file, sizeof(file), "%s/buf", dir);

	/*
	 * a regular file's shared mapping: refused, nothing left pinned; its
	 * private mapping accepted
	 */
	pinned = check_file_refused(_metadata, self->fd, file, bytes);
	/* also when only its last page is one (the first anonymous) */
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	ffd = open(file, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, ffd);
	ASSERT_NE(MAP_FAILED, mmap((char *)p + PAGE, PAGE, PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_FIXED, ffd, 0));
	close(ffd);
	EXPECT_EQ(-EMEDIUMTYPE, attach_detach(self->fd, p, bytes));
	EXPECT_EQ(pinned, ixt_pinned_pages());
	munmap(p, bytes);

	/* anonymous, private and shared */
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, attach_detach(self->fd, p, bytes));
	munmap(p, bytes);
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, attach_detach(self->fd, p, bytes));
	munmap(p, bytes);
	/* memfd (shmem) */
	mfd = memfd_create("ixt-buf", MFD_CLOEXEC);
	ASSERT_LE(0, mfd);
	ASSERT_EQ(0, ftruncate(mfd, (off_t)bytes));
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	close(mfd);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, attach_detach(self->fd, p, bytes));
	munmap(p, bytes);
	/* a file on tmpfs is shmem too */
	snprintf(shm, sizeof(shm), "%s/tmpfs", dir);
	ASSERT_EQ(0, mkdir(shm, 0700));
	if (!mount("ixt", shm, "tmpfs", 0, "size=1m")) {
		snprintf(shm + strlen(shm), sizeof(shm) - strlen(shm), "/buf");
		p = map_file(shm, bytes, MAP_SHARED);
		ASSERT_NE(NULL, p);
		EXPECT_EQ(0, attach_detach(self->fd, p, bytes));
		munmap(p, bytes);
		*strrchr(shm, '/') = '\0';
		EXPECT_EQ(0, umount(shm));
	}
	rmdir(shm);
	unlink(file);
	EXPECT_EQ(0, umount(dir));
	rmdir(dir);
	if (self->pinned0 >= 0)
		EXPECT_EQ(self->pinned0, ixt_pinned_pages());
}

/* Is file system @name in the running kernel (/proc/filesystems)? */
static bool fs_in_kernel(const char *name)
{
	FILE *f = fopen("/proc/filesystems", "re");
	char line[128];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		found = !strcmp(strrchr(line, '\t') ? strrchr(line, '\t') + 1 : line, name);
	}
	if (f)
		fclose(f);
	return found;
}

/*
 * The case the refusal is for, on a file system with writeback: a file on
 * ext4 (an ext2 image made by busybox mke2fs, mounted by the ext4 driver
 * from a loop device). Debug lane only: the normal VM's kernel has ext4 as
 * a module it does not load.
 */
TEST_F(stage, ext4_file_mapping_is_refused)
{
	char dir[] = "/tmp/ixt-ext4.XXXXXX", img[64], mnt[64], file[80], loopdev[32];
	char cmd[160];
	size_t bytes = 2 * PAGE;
	int ctl, loopfd = -1, imgfd, n;

	if (!fs_in_kernel("ext4"))
		SKIP(return, "no ext4 in this kernel (the debug lane's has it)");
	ASSERT_EQ(0, ixt_reset(self->fd));
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(img, sizeof(img), "%s/img", dir);
	snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
	ASSERT_EQ(0, mkdir(mnt, 0700));
	imgfd = open(img, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ASSERT_LE(0, imgfd);
	ASSERT_EQ(0, ftruncate(imgfd, 8 << 20));
	snprintf(cmd, sizeof(cmd), "busybox mke2fs -F %s >/dev/null 2>&1", img);
	ASSERT_EQ(0, system(cmd));
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, ctl);
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	ASSERT_LE(0, n);
	snprintf(loopdev, sizeof(loopdev), "/dev/loop%d", n);
	loopfd = open(loopdev, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, loopfd);
	ASSERT_EQ(0, ioctl(loopfd, LOOP_SET_FD, imgfd));
	close(imgfd);
	ASSERT_EQ(0, mount(loopdev, mnt, "ext4", 0, NULL)) TH_LOG("mount: %s", strerror(errno));
	snprintf(file, sizeof(file), "%s/buf", mnt);

	check_file_refused(_metadata, self->fd, file, bytes);

	unlink(file);
	EXPECT_EQ(0, umount(mnt));
	ioctl(loopfd, LOOP_CLR_FD, 0);
	close(loopfd);
	rmdir(mnt);
	unlink(img);
	rmdir(dir);
	if (self->pinned0 >= 0)
		EXPECT_EQ(self->pinned0, ixt_pinned_pages());
}

TEST_HARNESS_MAIN
