// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ipu_driver stand-in (selftests/kmod/ipu_standin.ko) on the QEMU
 * C600 device (docs/qemu-c600.md; the VM gets it from run-vm.sh --c600),
 * through ipu_driver's user ABI alone (uapi/linux/ipuxcom_ipu_driver.h):
 *  - USER_ATTACH is exclusive per card and released with the holder's file;
 *  - mmap(/dev/ipu0, 0, 0x80000, MAP_SHARED) is the config BAR: a register
 *    written through it reads back and is in the device's write log;
 *  - BUFFER_ATTACH/DETACH pin, map (IOMMU on in the VM) and release, with
 *    the stand-in's refusals, up to the record's 0x2842000-byte buffer;
 *  - MAILBOX_WRITE_READ: the ICU reset reply, an error reply for anything
 *    else and with bad_mailbox; signal 45 after each reply, 44 on an
 *    injected exception, none with signals=0;
 *  - node_parent=class: /dev/ipu0's sysfs parent is not the PCI function;
 *    node_parent=virtual: it has none;
 *  - the parameters for what the record leaves open refuse names they do
 *    not know; attach_repeat=ebusy answers the holder's second USER_ATTACH
 *    with -EBUSY; mmap=remap maps the windows at mmap time;
 *  - each layout of the QEMU device (layout=bar0|bar2|offset, through
 *    device_del + device_add): the stand-in finds the windows where the
 *    device says they are, and mmap offset 0 of /dev/ipu0 is the config
 *    window's first register;
 *  - QEMU device_del under an open, attached, mapped file: -ENODEV, no
 *    page left pinned, the mapping gone (SIGBUS), and the card back after
 *    device_add.
 * Skips without the C600 (a VM booted without --c600) or the stand-in.
 * Run: make check-vm with the VM given --c600 (the stand-in tests' lane),
 * or in `make vm-shell`: /tests/standin_test.
 */
#include "kselftest_harness.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include <linux/ipuxcom_ipu_driver.h>

#include "ipuxcom_test.h"
#include "ixt_modules.h"
#include "ixt_standin.h"

#define DBG(f)			IXT_STANDIN_DBG "/ipu0/" f
#define CONFIG_BYTES		0x80000u
#define EXCHWINDOWBASER		0x3044u	/* HW-REG-EXCHWINDOW */
#define XBUF_BYTES		0x2842000u	/* HW-LOAD step 4 */
#define SIG_EXCEPTION		44	/* [RE docs] */
#define SIG_DOORBELL		45

static volatile sig_atomic_t sig_count[64];

static void on_signal(int sig)
{
	if (sig > 0 && sig < 64)
		sig_count[sig]++;
}

static long dbg_number(const char *file)
{
	char buf[64];

	if (ixt_read_sysfs(file, buf, sizeof(buf)) <= 0)
		return -1;
	return strtol(buf, NULL, 0);
}

/* "SIG NAME irqs N sent M" of the stand-in's signals file. */
static int sig_stats(int sig, long *irqs, long *sent)
{
	char name[32];
	int s;
	FILE *f = fopen(DBG("signals"), "re");

	*irqs = *sent = -1;
	if (!f)
		return -errno;
	while (fscanf(f, "%d %31s irqs %ld sent %ld", &s, name, irqs, sent) == 4)
		if (s == sig)
			break;
	fclose(f);
	return 0;
}

static int wait_count(int sig, int want)
{
	for (int i = 0; i < 200 && sig_count[sig] < want; i++)
		usleep(10 * 1000);
	return sig_count[sig];
}

static int mailbox(int fd, uint32_t word0, uint32_t *reply)
{
	uint32_t sent[IPU_DRV_MAILBOX_WORDS] = { word0 };
	struct ipu_drv_mailbox mb = { .sent_ptr = (uintptr_t)sent, .recv_ptr = (uintptr_t)reply };

	return ixt_ioctl(fd, IPU_DRV_MAILBOX_WRITE_READ, &mb);
}

static int buf_attach(int fd, uint32_t index, void *addr, uint32_t size)
{
	struct ipu_drv_buffer b = { .index = index, .size = size, .addr = (uintptr_t)addr };

	return ixt_ioctl(fd, IPU_DRV_BUFFER_ATTACH, &b);
}

/* Does the stand-in's log hold a line starting with @prefix? */
static bool log_has(const char *prefix)
{
	char line[256];
	bool found = false;
	FILE *f = fopen(DBG("log"), "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, prefix, strlen(prefix));
	fclose(f);
	return found;
}

/*
 * Through a mapping of /dev/ipu0 (offset 0, 0x80000) and /dev/ipu0_ex:
 * HEXOPT written and read back, and the device saw it at config-window
 * offset 0x3044; the exchange window reads zero (datasheet).
 */
static void check_windows(struct __test_metadata *_metadata, int fd)
{
	volatile uint32_t *bar;
	char log[256];
	void *ex;
	int efd;

	bar = mmap(NULL, CONFIG_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, bar);
	ASSERT_EQ(0, ixt_write_sysfs(DBG("bar_writes"), "1\n"));
	bar[EXCHWINDOWBASER / 4] = 0x800;
	EXPECT_EQ(0x800u, bar[EXCHWINDOWBASER / 4]);
	ASSERT_LT(0, ixt_read_sysfs(DBG("bar_writes"), log, sizeof(log)));
	EXPECT_NE(NULL, strstr(log, "0x03044 0x00000800")) TH_LOG("%s", log);
	munmap((void *)bar, CONFIG_BYTES);
	efd = open("/dev/ipu0_ex", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, efd);
	ex = mmap(NULL, 0x200000, PROT_READ | PROT_WRITE, MAP_SHARED, efd, 0);
	EXPECT_NE(MAP_FAILED, ex);
	if (ex != MAP_FAILED) {
		EXPECT_EQ(0u, ((volatile uint32_t *)ex)[0x80000 / 4]);
		munmap(ex, 0x200000);
	}
	close(efd);
}

FIXTURE(c600) {
	char pci[300];
	int fd;
};

FIXTURE_SETUP(c600)
{
	struct sigaction sa = { .sa_handler = on_signal };

	self->fd = -1;
	if (!ixt_c600_find(self->pci, sizeof(self->pci)))
		SKIP(return, "no QEMU C600 (1d95:c600): boot the VM with run-vm.sh --c600");
	if (!getenv("IPUXCOM_STANDIN_KO"))
		SKIP(return, "IPUXCOM_STANDIN_KO not set: test VM only");
	for (int s = SIG_EXCEPTION; s <= 49; s++)
		ASSERT_EQ(0, sigaction(s, &sa, NULL));
	memset((void *)sig_count, 0, sizeof(sig_count));
	ASSERT_EQ(0, ixt_standin_load(""));
	self->fd = open("/dev/ipu0", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(c600)
{
	if (self->fd >= 0)
		close(self->fd);
	ixt_standin_unload();
}

TEST_F(c600, attach_exclusive)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	int fd2 = open("/dev/ipu0", O_RDWR | O_CLOEXEC), ex;

	ASSERT_LE(0, fd2);
	EXPECT_EQ(-EPERM, ixt_ioctl(self->fd, IPU_DRV_SET_IPU_ID, NULL));
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
	EXPECT_EQ(-EBUSY, ixt_ioctl(fd2, IPU_DRV_USER_ATTACH, NULL));
	EXPECT_EQ(-EPERM, ixt_ioctl(fd2, IPU_DRV_BUFFER_DETACH_ALL, NULL));
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_SET_IPU_ID, NULL));
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_RESET_DEVICE, NULL));
	EXPECT_EQ(-ENOTTY, ixt_ioctl(self->fd, _IO(IPU_DRV_IOC_MAGIC, 99), NULL));
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(0, ixt_ioctl(fd2, IPU_DRV_USER_ATTACH, NULL));
	EXPECT_TRUE(log_has("USER_ATTACH arg=0 ret=-16"));
	EXPECT_TRUE(log_has("RESET_DEVICE arg=0 ret=0"));
	EXPECT_TRUE(log_has("SET_IPU_ID arg=0 ret=-1"));
	/* the exchange node has no ioctls */
	ex = open("/dev/ipu0_ex", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, ex);
	EXPECT_EQ(-ENOTTY, ixt_ioctl(ex, IPU_DRV_USER_ATTACH, NULL));
	close(ex);
	close(fd2);
}

TEST_F(c600, mmap_config_bar)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	volatile uint32_t *bar;
	void *ex;
	char log[256];

	ASSERT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, CONFIG_BYTES, PROT_READ, MAP_PRIVATE, self->fd, 0));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, CONFIG_BYTES + 4096, PROT_READ | PROT_WRITE,
				   MAP_SHARED, self->fd, 0));
	bar = mmap(NULL, CONFIG_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, bar);
	ASSERT_EQ(0, ixt_write_sysfs(DBG("bar_writes"), "1\n"));
	/* HEXOPT as the peer writes it, then read back [RE, HW-LOAD step 4] */
	bar[EXCHWINDOWBASER / 4] = 0x800;
	EXPECT_EQ(0x800u, bar[EXCHWINDOWBASER / 4]);
	ASSERT_LT(0, ixt_read_sysfs(DBG("bar_writes"), log, sizeof(log)));
	EXPECT_NE(NULL, strstr(log, "0x03044 0x00000800")) TH_LOG("%s", log);
	munmap((void *)bar, CONFIG_BYTES);
	/* the exchange BAR behind /dev/ipu0_ex */
	{
		int efd = open("/dev/ipu0_ex", O_RDWR | O_CLOEXEC);

		ASSERT_LE(0, efd);
		ex = mmap(NULL, 0x200000, PROT_READ | PROT_WRITE, MAP_SHARED, efd, 0);
		EXPECT_NE(MAP_FAILED, ex);
		if (ex != MAP_FAILED) {
			/* reads return zero (datasheet) */
			EXPECT_EQ(0u, ((volatile uint32_t *)ex)[0x80000 / 4]);
			munmap(ex, 0x200000);
		}
		close(efd);
	}
}

TEST_F(c600, buffer_attach_detach)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	long base = ixt_pinned_pages(), irqs, sent;
	size_t big = XBUF_BYTES + 4096;
	uint8_t *buf = ixt_buf_alloc(big);

	ASSERT_NE(NULL, buf);
	memset(buf, 0x5a, big);
	if (access("/sys/class/iommu", F_OK) == 0)
		TH_LOG("IOMMU present: the device reads the segment tables through it");
	EXPECT_EQ(-EPERM, buf_attach(self->fd, 0, buf, 16 * 4096));
	ASSERT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
	ASSERT_EQ(0, buf_attach(self->fd, 0, buf, 16 * 4096));
	EXPECT_EQ(16, dbg_number(DBG("pinned_pages")));
	if (base >= 0)
		EXPECT_EQ(base + 16, ixt_pinned_pages());
	EXPECT_EQ(-EEXIST, buf_attach(self->fd, 0, buf + 16 * 4096, 4096));
	EXPECT_EQ(-EINVAL, buf_attach(self->fd, 17, buf, 4096));
	EXPECT_EQ(-EINVAL, buf_attach(self->fd, 2, buf + 1, 4096));
	EXPECT_EQ(-EINVAL, buf_attach(self->fd, 2, buf, 100));
	EXPECT_EQ(-EINVAL, buf_attach(self->fd, 2, buf, XBUF_BYTES + 4096));
	EXPECT_EQ(-EFAULT, buf_attach(self->fd, 2, (void *)4096, 4096));
	EXPECT_EQ(-ENOENT, ixt_ioctl(self->fd, IPU_DRV_BUFFER_DETACH, (void *)5));
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPU_DRV_BUFFER_DETACH, (void *)17));
	ASSERT_EQ(0, ixt_write_sysfs(DBG("attach_error"), "28\n"));
	EXPECT_EQ(-ENOSPC, buf_attach(self->fd, 2, buf + 16 * 4096, 4096));
	ASSERT_EQ(0, ixt_write_sysfs(DBG("attach_error"), "0\n"));
	EXPECT_EQ(16, dbg_number(DBG("pinned_pages")));
	/* the record's transport buffer, at its full size: 10306 pages */
	EXPECT_EQ(0, buf_attach(self->fd, 1, buf + 4096, XBUF_BYTES));
	EXPECT_EQ(16 + XBUF_BYTES / 4096, dbg_number(DBG("pinned_pages")));
	/* the last slot, 16 */
	EXPECT_EQ(0, buf_attach(self->fd, 16, buf, 4096));
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_BUFFER_DETACH, (void *)0));
	EXPECT_EQ(-ENOENT, ixt_ioctl(self->fd, IPU_DRV_BUFFER_DETACH, (void *)0));
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_BUFFER_DETACH_ALL, NULL));
	EXPECT_EQ(0, dbg_number(DBG("pinned_pages")));
	if (base >= 0)
		EXPECT_EQ(base, ixt_pinned_pages());
	/* the device saw no failed DMA (an EXCEPTION) */
	ASSERT_EQ(0, sig_stats(SIG_EXCEPTION, &irqs, &sent));
	EXPECT_EQ(0, irqs);
	EXPECT_TRUE(log_has("BUFFER_ATTACH index=1 size=0x2842000"));
	/* attached again, released with the file */
	EXPECT_EQ(0, buf_attach(self->fd, 3, buf, 8 * 4096));
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(0, dbg_number(DBG("pinned_pages")));
	if (base >= 0)
		EXPECT_EQ(base, ixt_pinned_pages());
	munmap(buf, big);
}

TEST_F(c600, mailbox_and_signals)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	uint32_t reply[IPU_DRV_MAILBOX_WORDS] = { 0 };
	long irqs, sent;
	int n;

	ASSERT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
	/* the ICU reset [RE]: reply word 0 keeps 0x4078 in bits 31:16 */
	ASSERT_EQ(0, mailbox(self->fd, IPU_DRV_ICU_RESET_REQUEST, reply));
	EXPECT_EQ(IPU_DRV_ICU_REPLY_TAG, reply[0] & IPU_DRV_ICU_REPLY_MASK);
	EXPECT_EQ(1, wait_count(SIG_DOORBELL, 1));
	ASSERT_EQ(0, sig_stats(SIG_DOORBELL, &irqs, &sent));
	EXPECT_EQ(1, irqs);
	EXPECT_EQ(1, sent);
	/* anything else: an error reply (datasheet), still a doorbell */
	ASSERT_EQ(0, mailbox(self->fd, 0x12340000, reply));
	EXPECT_EQ(0xdead1234u, reply[0]);
	EXPECT_EQ(2, wait_count(SIG_DOORBELL, 2));
	/* bad_mailbox: the stand-in answers the reset with an error itself */
	ASSERT_EQ(0, ixt_write_sysfs(DBG("bad_mailbox"), "1\n"));
	ASSERT_EQ(0, mailbox(self->fd, IPU_DRV_ICU_RESET_REQUEST, reply));
	EXPECT_EQ(0xdead4078u, reply[0]);
	ASSERT_EQ(0, ixt_write_sysfs(DBG("bad_mailbox"), "0\n"));
	/* an injected exception: signal 44 */
	ASSERT_EQ(0, ixt_write_sysfs(DBG("inject_exception"), "1\n"));
	EXPECT_EQ(1, wait_count(SIG_EXCEPTION, 1));
	/* signals=0: the interrupt is counted, no signal sent */
	ASSERT_EQ(0, ixt_write_sysfs(IXT_STANDIN_PARAM("signals"), "0\n"));
	ASSERT_EQ(0, mailbox(self->fd, IPU_DRV_ICU_RESET_REQUEST, reply));
	EXPECT_EQ(IPU_DRV_ICU_REPLY_TAG, reply[0] & IPU_DRV_ICU_REPLY_MASK);
	for (int i = 0; i < 100; i++) {
		sig_stats(SIG_DOORBELL, &irqs, &sent);
		if (irqs >= 3)
			break;
		usleep(10 * 1000);
	}
	EXPECT_EQ(3, irqs);
	EXPECT_EQ(2, sent);
	n = wait_count(SIG_DOORBELL, 3);
	EXPECT_EQ(2, n);
	ASSERT_EQ(0, ixt_write_sysfs(IXT_STANDIN_PARAM("signals"), "1\n"));
	EXPECT_TRUE(log_has("MAILBOX_WRITE_READ sent=0x4078020e reply=0x4078"));
}

TEST_F(c600, sysfs_parent)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	char link[512], want[400];
	ssize_t n;

	n = readlink("/sys/class/misc/ipu0/device", link, sizeof(link) - 1);
	ASSERT_LT(0, n);
	link[n] = '\0';
	snprintf(want, sizeof(want), "/%s", strrchr(self->pci, '/') + 1);
	EXPECT_NE(NULL, strstr(link, want)) TH_LOG("%s", link);
	EXPECT_EQ(NULL, strstr(link, "ipu_card")) TH_LOG("%s", link);
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(0, ixt_standin_load("node_parent=class"));
	n = readlink("/sys/class/misc/ipu0/device", link, sizeof(link) - 1);
	ASSERT_LT(0, n);
	link[n] = '\0';
	EXPECT_NE(NULL, strstr(link, "ipu_card0")) TH_LOG("%s", link);
	/* the intermediate device hangs under the PCI function */
	snprintf(want, sizeof(want), "%s/ipu_standin/ipu_card0", self->pci);
	EXPECT_EQ(0, access(want, F_OK)) TH_LOG("%s", want);
	self->fd = open("/dev/ipu0", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
}

/* The knobs for what the record leaves open (ipu_standin.c's header). */
TEST_F(c600, parameters_the_record_leaves_open)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	char v[32], link[512];
	int fd2;

	/* names it does not know are refused; the defaults read back */
	EXPECT_EQ(-EINVAL, ixt_write_sysfs(IXT_STANDIN_PARAM("node_parent"), "grandparent\n"));
	EXPECT_EQ(-EINVAL, ixt_write_sysfs(IXT_STANDIN_PARAM("attach_repeat"), "sometimes\n"));
	EXPECT_EQ(-EINVAL, ixt_write_sysfs(IXT_STANDIN_PARAM("mmap"), "never\n"));
	ASSERT_LT(0, ixt_read_sysfs(IXT_STANDIN_PARAM("node_parent"), v, sizeof(v)));
	EXPECT_STREQ("pci\n", v);
	ASSERT_LT(0, ixt_read_sysfs(IXT_STANDIN_PARAM("attach_repeat"), v, sizeof(v)));
	EXPECT_STREQ("ok\n", v);
	ASSERT_LT(0, ixt_read_sysfs(IXT_STANDIN_PARAM("mmap"), v, sizeof(v)));
	EXPECT_STREQ("fault\n", v);

	/* attach_repeat=ebusy: the holder's second USER_ATTACH is refused too */
	ASSERT_EQ(0, ixt_write_sysfs(IXT_STANDIN_PARAM("attach_repeat"), "ebusy\n"));
	fd2 = open("/dev/ipu0", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
	EXPECT_EQ(-EBUSY, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
	EXPECT_EQ(-EBUSY, ixt_ioctl(fd2, IPU_DRV_USER_ATTACH, NULL));
	/* still the holder */
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_SET_IPU_ID, NULL));
	ASSERT_EQ(0, ixt_write_sysfs(IXT_STANDIN_PARAM("attach_repeat"), "ok\n"));
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
	EXPECT_EQ(-EBUSY, ixt_ioctl(fd2, IPU_DRV_USER_ATTACH, NULL));
	close(fd2);

	/* mmap=remap: the same windows, mapped at mmap time */
	ASSERT_EQ(0, ixt_write_sysfs(IXT_STANDIN_PARAM("mmap"), "remap\n"));
	check_windows(_metadata, self->fd);
	ASSERT_EQ(0, ixt_write_sysfs(IXT_STANDIN_PARAM("mmap"), "fault\n"));
	check_windows(_metadata, self->fd);

	/* node_parent=virtual: /dev/ipu0 has no parent device at all */
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(0, ixt_standin_load("node_parent=virtual"));
	EXPECT_NE(0, access("/sys/class/misc/ipu0/device", F_OK));
	ASSERT_NE(NULL, realpath("/sys/class/misc/ipu0", link));
	EXPECT_EQ(0, strncmp(link, "/sys/devices/virtual/", 21)) TH_LOG("%s", link);
	self->fd = open("/dev/ipu0", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
	check_windows(_metadata, self->fd);
}

/*
 * Each layout of the QEMU device (docs/qemu-c600.md "Layouts"): QEMU
 * removes the card and adds it back with layout=; the stand-in probes it
 * and maps the windows where the device says they are. Last, bar0 again.
 */
TEST_F_TIMEOUT(c600, zy_layouts, 300)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	static const char *const layouts[] = { "bar2", "offset", "bar0" };
	/* the sizes of BAR 0 and BAR 2 in each (datasheet "Layouts") */
	static const unsigned long long sizes[][2] = {
		{ 0x200000, 0x80000 }, { 0x200000, 0x400000 }, { 0x80000, 0x200000 },
	};
	unsigned long long start, end, flags, size[3];
	char cmd[128], res[340];
	FILE *f;

	if (!getenv("IPUXCOM_QEMU_MONITOR"))
		SKIP(return, "no QEMU monitor relay (IPUXCOM_QEMU_MONITOR)");
	for (unsigned int i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		close(self->fd);
		self->fd = -1;
		ixt_qemu_monitor("device_del " IXT_C600_QEMU_ID);
		/*
		 * The stand-in registers /dev/ipu0, then /dev/ipu0_ex (and
		 * removes them in turn): wait for both, or check_windows() may
		 * open the exchange node before it exists (it did, once, under
		 * load).
		 */
		ASSERT_EQ(0, ixt_wait_path("/dev/ipu0", false, 600)) TH_LOG("C600 not removed");
		ASSERT_EQ(0, ixt_wait_path("/dev/ipu0_ex", false, 600)) TH_LOG("C600 not removed");
		snprintf(cmd, sizeof(cmd), IXT_C600_QEMU_ADD ",layout=%s", layouts[i]);
		ixt_qemu_monitor(cmd);
		ASSERT_EQ(0, ixt_wait_path("/dev/ipu0", true, 600)) TH_LOG("%s: no /dev/ipu0", cmd);
		ASSERT_EQ(0, ixt_wait_path("/dev/ipu0_ex", true, 600))
			TH_LOG("%s: no /dev/ipu0_ex", cmd);
		snprintf(res, sizeof(res), "%s/resource", self->pci);
		f = fopen(res, "re");
		ASSERT_NE(NULL, f) TH_LOG("%s", res);
		for (int b = 0; b < 3; b++) {
			ASSERT_EQ(3, fscanf(f, "%llx %llx %llx", &start, &end, &flags));
			size[b] = end > start ? end - start + 1 : 0;
		}
		fclose(f);
		EXPECT_EQ(sizes[i][0], size[0]) TH_LOG("layout=%s: BAR 0", layouts[i]);
		EXPECT_EQ(sizes[i][1], size[2]) TH_LOG("layout=%s: BAR 2", layouts[i]);
		self->fd = open("/dev/ipu0", O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, self->fd);
		ASSERT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
		TH_LOG("layout=%s", layouts[i]);
		check_windows(_metadata, self->fd);
	}
}

/* Last: QEMU removes the card under an open, attached, mapped file. */
TEST_F(c600, zz_device_del_under_open_file)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	char drv[400], cmd[64];
	long base = ixt_pinned_pages();
	volatile uint32_t *bar;
	void *buf = ixt_buf_alloc(16 * 4096);
	uint32_t reply[IPU_DRV_MAILBOX_WORDS];
	int status;
	pid_t pid;

	if (!getenv("IPUXCOM_QEMU_MONITOR"))
		SKIP(return, "no QEMU monitor relay (IPUXCOM_QEMU_MONITOR)");
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
	ASSERT_EQ(0, buf_attach(self->fd, 0, buf, 16 * 4096));
	bar = mmap(NULL, CONFIG_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, bar);
	bar[EXCHWINDOWBASER / 4] = 0x800;
	ASSERT_EQ(0x800u, bar[EXCHWINDOWBASER / 4]);

	snprintf(cmd, sizeof(cmd), "device_del %s", IXT_C600_QEMU_ID);
	ixt_qemu_monitor(cmd);
	ASSERT_EQ(0, ixt_wait_path(self->pci, false, 300)) TH_LOG("C600 not removed");
	EXPECT_EQ(-ENODEV, ixt_ioctl(self->fd, IPU_DRV_BUFFER_DETACH_ALL, NULL));
	EXPECT_EQ(-ENODEV, mailbox(self->fd, IPU_DRV_ICU_RESET_REQUEST, reply));
	EXPECT_EQ(-ENODEV, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
	if (base >= 0)
		EXPECT_EQ(base, ixt_pinned_pages());
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, 0));
	/* the old mapping is gone: a read faults (in a child) */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		(void)bar[0];
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS) TH_LOG("status 0x%x", status);
	munmap((void *)bar, CONFIG_BYTES);
	close(self->fd);
	self->fd = -1;
	munmap(buf, 16 * 4096);

	/* back: bound again, a fresh session works */
	ixt_qemu_monitor(IXT_C600_QEMU_ADD);
	ASSERT_EQ(0, ixt_wait_path(self->pci, true, 300)) TH_LOG("C600 not back");
	snprintf(drv, sizeof(drv), "%s/driver", self->pci);
	ASSERT_EQ(0, ixt_wait_path(drv, true, 100));
	ASSERT_EQ(0, ixt_wait_path("/dev/ipu0", true, 50));
	self->fd = open("/dev/ipu0", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPU_DRV_USER_ATTACH, NULL));
	EXPECT_EQ(0, mailbox(self->fd, IPU_DRV_ICU_RESET_REQUEST, reply));
}

TEST_HARNESS_MAIN
