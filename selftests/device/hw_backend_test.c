// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hardware backend, ipuxcom_hw.ko, where there is no card, and its
 * limits everywhere:
 *  - hwko: without a Graphcore PCI function (the test VM), the module
 *    loads, says "no Graphcore IPU found", registers no device and
 *    unloads cleanly; with enable=0 it does not even look; a bad ids=
 *    test parameter is refused.
 *  - c600_used_only_under_ipu_driver: with the QEMU C600 (run-vm.sh
 *    --c600: vendor 0x1d95) it registers the function only while a driver
 *    named ipu_driver (the selftests' stand-in, selftests/kmod/
 *    ipu_standin.c) drives it, loaded either way round (sessions on it:
 *    ipudrv_test, standin_test).
 *  - hwcaps: a *simulated* device given a restricted capability set
 *    (ipuxcom_sim's "capabilities" parameter: what the hardware backend
 *    served before it layered over ipu_driver's user ABI): the core
 *    refuses RESET, host buffers and the loader with EOPNOTSUPP before the
 *    device sees anything or a page is pinned, ipuxcom_load() says why
 *    without sending a command, and what the set declares runs through
 *    the same mechanisms.
 *  - raw writes outside the documented register set are logged with the
 *    pid and comm of the writer; documented ones are not.
 *  - card_read_only_probe: on a card (IPUXCOM_DEVICE names an "hw"
 *    device), attached through ipu_driver (the library opens its
 *    /dev/ipuN), the capabilities it declares, and a read-only dump of
 *    the documented registers for the card owner's report
 *    (selftests/README). Nothing that changes the card (RESET, a load).
 * Nothing here pretends a QEMU device is an IPU.
 */
#include "kselftest_harness.h"

#include <dirent.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_simdev.h"
#include "ixt_modules.h"
#include "hw/hw_regs.h"
#include "ixt_standin.h"

#define HW_PARAM(p)		"/sys/module/ipuxcom_hw/parameters/" p
#define SIM_CAPS_PARAM		"/sys/module/ipuxcom_sim/parameters/capabilities"
#define KMSG_BYTES		65536

/* ------------------------------------------------------------ helpers */

/* First character of a sysfs file ('Y'/'N' for a bool parameter), or 0. */
static char sysfs_char(const char *path)
{
	char c = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, &c, 1) != 1)
			c = 0;
		close(fd);
	}
	return c;
}

/* Is there any PCI function of Graphcore's vendor id (0x1d95, HW-PCI-VENDOR)? */
static int graphcore_present(void)
{
	return ixt_pci_find(HW_PCI_VENDOR_GRAPHCORE, -1, NULL, 0);
}

/* /dev/kmsg positioned after the last record: later reads see new ones only. */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Append the text of every new kernel log record to @buf, one per line. */
static void kmsg_collect(int fd, char *buf, size_t size)
{
	size_t used = strlen(buf);
	char rec[2048];
	ssize_t n;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records were overwritten: go on */
		if (n <= 0)
			break;
		rec[n] = '\0';
		/* "prio,seq,usec,flags;text\n" then optional " KEY=value" lines */
		char *text = strchr(rec, ';'), *end;

		if (!text)
			continue;
		text++;
		end = strchr(text, '\n');
		if (end)
			*end = '\0';
		used += (size_t)snprintf(buf + used, size - used, "%s\n", text);
		if (used >= size - 1)
			break;
	}
}

/* Devices by backend name, from the netlink dump; -1 on error. */
static int count_backend(const char *backend)
{
	struct ipuxcom_device_info *devs = NULL;
	struct ipuxcom_nl *nl;
	size_t n = 0;
	int count = -1;

	if (ipuxcom_nl_open(&nl))
		return -1;
	if (ipuxcom_nl_dev_list(nl, &devs, &n) == 0) {
		count = 0;
		for (size_t i = 0; i < n; i++)
			count += !strcmp(devs[i].backend, backend);
		ipuxcom_nl_dev_list_free(devs);
	}
	ipuxcom_nl_close(nl);
	return count;
}

static uint32_t device_count(void)
{
	struct ipuxcom_ioc_info info = { 0 };
	int fd = ixt_open();

	if (fd >= 0) {
		ixt_info(fd, &info);
		close(fd);
	}
	return info.device_count;
}

/* ------------------------------------------- the module, without a card */

FIXTURE(hwko) {
	const char *ko;
	int kfd;
	char *log;
};

FIXTURE_SETUP(hwko)
{
	self->kfd = -1;
	self->log = NULL;
	/* ipu_driver signals the holder of a card: blocked first, as libipuxcom(3) says */
	ASSERT_EQ(0, ipuxcom_block_driver_signals());
	self->ko = getenv("IPUXCOM_HW_KO");
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	if (!self->ko || access(self->ko, R_OK))
		SKIP(return, "IPUXCOM_HW_KO not set or unreadable");
	if (ixt_module_loaded("ipuxcom_hw"))
		SKIP(return, "ipuxcom_hw is loaded already: this test loads it itself");
	if (graphcore_present())
		SKIP(return, "a Graphcore PCI function is present: this test is for machines without a card");
	self->log = calloc(1, KMSG_BYTES);
	ASSERT_NE(NULL, self->log);
	self->kfd = kmsg_open();
	ASSERT_LE(0, self->kfd) TH_LOG("/dev/kmsg: %s", strerror(errno));
}

FIXTURE_TEARDOWN(hwko)
{
	/* never leave the module behind: later tests unload the core */
	if (ixt_module_loaded("ipuxcom_hw"))
		ixt_unload_module("ipuxcom_hw");
	if (ixt_module_loaded("ipu_standin"))
		ixt_unload_module("ipu_standin");
	if (self->kfd >= 0)
		close(self->kfd);
	free(self->log);
}

TEST_F(hwko, loads_without_a_card_and_unloads)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	uint32_t before = device_count();

	ASSERT_EQ(0, ixt_load_module(self->ko, ""));
	EXPECT_TRUE(ixt_module_loaded("ipuxcom_hw"));
	EXPECT_EQ('Y', sysfs_char(HW_PARAM("enable")));
	/* it uses the core's exported symbols: the core is pinned */
	EXPECT_EQ(0, access("/sys/module/ipuxcom/holders/ipuxcom_hw", F_OK));
	EXPECT_EQ(before, device_count());
	EXPECT_EQ(0, count_backend("hw"));
	kmsg_collect(self->kfd, self->log, KMSG_BYTES);
	EXPECT_NE(NULL, strstr(self->log, "ipuxcom_hw: no Graphcore IPU found"))
		TH_LOG("kernel log:\n%s", self->log);

	EXPECT_EQ(0, ixt_unload_module("ipuxcom_hw"));
	EXPECT_FALSE(ixt_module_loaded("ipuxcom_hw"));
	EXPECT_EQ(before, device_count());
	/* and again: nothing was left registered that a reload would trip on */
	ASSERT_EQ(0, ixt_load_module(self->ko, ""));
	EXPECT_EQ(0, ixt_unload_module("ipuxcom_hw"));
}

TEST_F(hwko, enable_0_does_nothing)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	uint32_t before = device_count();

	ASSERT_EQ(0, ixt_load_module(self->ko, "enable=0"));
	EXPECT_EQ('N', sysfs_char(HW_PARAM("enable")));
	EXPECT_EQ(before, device_count());
	EXPECT_EQ(0, count_backend("hw"));
	kmsg_collect(self->kfd, self->log, KMSG_BYTES);
	EXPECT_NE(NULL, strstr(self->log, "ipuxcom_hw: hardware binding disabled"))
		TH_LOG("kernel log:\n%s", self->log);
	/* it did not even look at the PCI bus */
	EXPECT_EQ(NULL, strstr(self->log, "Graphcore IPU found"));
	EXPECT_EQ(NULL, strstr(self->log, "Graphcore PCI function"));
	EXPECT_EQ(0, ixt_unload_module("ipuxcom_hw"));
	EXPECT_FALSE(ixt_module_loaded("ipuxcom_hw"));
}

TEST_F(hwko, bad_ids_refused)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	EXPECT_EQ(-EINVAL, ixt_load_module(self->ko, "ids=1234"));
	EXPECT_EQ(-EINVAL, ixt_load_module(self->ko, "ids=1234:xyz"));
	EXPECT_FALSE(ixt_module_loaded("ipuxcom_hw"));
}

/* Devices of backend "hw", polled for up to 2 s until there are @want. */
static int count_hw(int want)
{
	int n = -1;

	for (int i = 0; i < 40; i++) {
		n = count_backend("hw");
		if (n == want)
			break;
		usleep(50 * 1000);
	}
	return n;
}

/*
 * The QEMU C600 (a Graphcore vendor id): registered only while
 * "ipu_driver" drives it, followed through the bus notifier and found by
 * the scan.
 */
TEST(c600_used_only_under_ipu_driver)
{
	const char *ko = getenv("IPUXCOM_HW_KO"), *standin = getenv("IPUXCOM_STANDIN_KO");
	char *log;
	int kfd;

	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	if (!ko || !standin)
		SKIP(return, "IPUXCOM_HW_KO/IPUXCOM_STANDIN_KO not set: test VM only");
	if (!ixt_c600_find(NULL, 0))
		SKIP(return, "no QEMU C600 (1d95:c600): boot the VM with run-vm.sh --c600");
	ASSERT_EQ(0, ixt_standin_unload());
	log = calloc(1, KMSG_BYTES);
	ASSERT_NE(NULL, log);
	kfd = kmsg_open();
	ASSERT_LE(0, kfd);
	ASSERT_EQ(0, ixt_load_module(ko, ""));
	EXPECT_EQ(0, count_backend("hw"));
	kmsg_collect(kfd, log, KMSG_BYTES);
	EXPECT_NE(NULL, strstr(log, "not used: not driven by ipu_driver")) TH_LOG("kernel log:\n%s", log);
	/* the stand-in binds it as "ipu_driver": followed through the notifier */
	ASSERT_EQ(0, ixt_load_module(standin, "signals=0"));
	EXPECT_EQ(1, count_hw(1));
	kmsg_collect(kfd, log, KMSG_BYTES);
	EXPECT_NE(NULL, strstr(log, "[1d95:c600] is ipuxcom device")) TH_LOG("kernel log:\n%s", log);
	EXPECT_EQ(0, ixt_unload_module_wait(IXT_STANDIN_MOD));
	EXPECT_EQ(0, count_backend("hw"));
	/* loaded the other way round: found by the scan */
	ASSERT_EQ(0, ixt_unload_module_wait("ipuxcom_hw"));
	ASSERT_EQ(0, ixt_load_module(standin, "signals=0"));
	ASSERT_EQ(0, ixt_wait_path("/dev/ipu0", true, 50));
	ASSERT_EQ(0, ixt_load_module(ko, ""));
	EXPECT_EQ(1, count_backend("hw"));
	EXPECT_EQ(0, ixt_standin_unload());
	EXPECT_EQ(0, count_backend("hw"));
	close(kfd);
	free(log);
}

/* ---------------------- a simulated device with a restricted command set */

/*
 * What the hardware backend served before it layered over ipu_driver's
 * user ABI: no host buffers, no reset. A backend may still declare a
 * restricted set; the core and the library must then refuse the rest.
 */
#define LIMITED_CAPS	(IPUXCOM_CAP_ATTACH | IPUXCOM_CAP_NETLINK |		\
			 IPUXCOM_CAP_REG | IPUXCOM_CAP_CFG |			\
			 IPUXCOM_CAP_AUTOLOAD | IPUXCOM_CAP_HSP |		\
			 IPUXCOM_CAP_TDI)

FIXTURE(hwcaps) {
	int before;
	int dev;
	unsigned char ids[IXT_MAX_IDS];
	struct ipuxcom *ipu;
};

FIXTURE_SETUP(hwcaps)
{
	char caps[32];
	int ret;

	self->before = -1;
	self->ipu = NULL;
	/* ipu_driver signals the holder of a card: blocked first, as libipuxcom(3) says */
	ASSERT_EQ(0, ipuxcom_block_driver_signals());
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	if (access(SIM_CAPS_PARAM, W_OK))
		SKIP(return, "ipuxcom_sim has no capabilities parameter");
	self->before = ixt_sim_devices();
	ixt_sim_device_ids(self->ids);
	snprintf(caps, sizeof(caps), "%llu", (unsigned long long)LIMITED_CAPS);
	ASSERT_EQ(0, ixt_write_sysfs(SIM_CAPS_PARAM, caps));
	ret = ixt_set_sim_devices(self->before + 1);
	/* devices added later get everything again */
	ASSERT_EQ(0, ixt_write_sysfs(SIM_CAPS_PARAM, "0"));
	ASSERT_EQ(0, ret);
	self->dev = ixt_added_sim_device(self->ids);
	ASSERT_LE(0, self->dev);
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, (uint32_t)self->dev));
}

FIXTURE_TEARDOWN(hwcaps)
{
	if (self->ipu)
		ipuxcom_close(self->ipu);
	/* removes the newest simulated device: ours */
	if (self->before >= 0)
		EXPECT_EQ(0, ixt_set_sim_devices(self->before));
}

TEST_F(hwcaps, reports_the_set)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ipuxcom_ioc_dev_query q;

	ASSERT_EQ(0, ixt_query(ipuxcom_fd(self->ipu), &q));
	EXPECT_EQ(LIMITED_CAPS, q.capabilities);
	EXPECT_STREQ("sim", q.backend);	/* a simulated device, not an IPU */
}

/* Undeclared commands fail before the device sees anything. */
TEST_F(hwcaps, undeclared_commands_eopnotsupp)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	int fd = ipuxcom_fd(self->ipu);
	struct ipuxcom_ioc_reset rs = { .size = sizeof(rs) };
	struct ipuxcom_ioc_load_batch lb = { .size = sizeof(lb) };
	struct ipuxcom_ioc_load_finish lf = { .size = sizeof(lf) };
	long pinned0 = ixt_pinned_pages();
	void *buf = ixt_buf_alloc(1 << 20);

	ASSERT_NE(NULL, buf);
	EXPECT_EQ(-EOPNOTSUPP, ixt_ioctl(fd, IPUXCOM_IOC_RESET, &rs));
	EXPECT_EQ(-EOPNOTSUPP, ipuxcom_reset(self->ipu, NULL));
	/* no host buffers: nothing pinned, nothing selected */
	EXPECT_EQ(-EOPNOTSUPP, ixt_buf_attach(fd, IPUXCOM_BUF_SLOT_LOADER, buf, 1 << 20));
	EXPECT_EQ(-EOPNOTSUPP, ixt_buf_attach(fd, IPUXCOM_BUF_SLOT_HOSTX(0), buf, 1 << 20));
	if (pinned0 >= 0)
		EXPECT_EQ(pinned0, ixt_pinned_pages());
	EXPECT_EQ(-EOPNOTSUPP, ixt_ioctl(fd, IPUXCOM_IOC_LOAD_BATCH, &lb));
	EXPECT_EQ(-EOPNOTSUPP, ixt_ioctl(fd, IPUXCOM_IOC_LOAD_FINISH, &lf));
	munmap(buf, 1 << 20);
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ixt_state(fd));
	EXPECT_EQ(0, ixt_sim_stat((uint32_t)self->dev, "autoload_transactions"));
}

/* ipuxcom_load() says why, and sends nothing. */
TEST_F(hwcaps, load_explains_the_missing_loader)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	static const uint8_t boot[1024];
	struct ipuxcom_load_params p = {
		.size = sizeof(struct ipuxcom_load_params),
		.bootloader = boot, .bootloader_size = sizeof(boot),
	};
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	char want[64];

	EXPECT_EQ(-EOPNOTSUPP, ipuxcom_load(self->ipu, &p, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_CHECK, res.step);
	snprintf(want, sizeof(want), "device %d (sim backend)", self->dev);
	EXPECT_NE(NULL, strstr(res.msg, want)) TH_LOG("%s", res.msg);
	EXPECT_EQ(1, res.syscalls);	/* the query, nothing else */
	EXPECT_EQ(0, ixt_sim_stat((uint32_t)self->dev, "autoload_transactions"));
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ixt_state(ipuxcom_fd(self->ipu)));
}

/*
 * What the set declares runs through the same mechanisms. Without RESET
 * the device stays where the last command left it: one AUTOLOAD per
 * registration, and HSP_MARK (which needs a loaded, RUNNING device) is
 * declared but unreachable.
 */
TEST_F(hwcaps, declared_commands_work)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	static const struct ipuxcom_cfg_record rec[2] = { { 0x0100, 1 }, { 0x0104, 2 } };
	uint8_t boot[1024];
	uint32_t words[256], v = 0, bad = 0, csr = 0;

	for (size_t i = 0; i < sizeof(boot); i++)
		boot[i] = (uint8_t)(i * 7 + 3);
	EXPECT_EQ(0, ipuxcom_reg_read(self->ipu, 0x302c, &v));
	EXPECT_EQ(0, ipuxcom_cfg_apply(self->ipu, rec, 2, &bad));
	ASSERT_EQ(0, ipuxcom_autoload(self->ipu, boot, sizeof(boot), 0, &csr));
	EXPECT_EQ(2, ixt_sim_stat((uint32_t)self->dev, "autoload_transactions"));
	ASSERT_EQ(0, ipuxcom_tdi_read_sram(self->ipu, 1471, 0x4c000, words, 256, NULL));
	EXPECT_EQ(0, memcmp(words, boot, sizeof(boot)));
	EXPECT_EQ(-EBADFD, ipuxcom_hsp_mark(self->ipu, IPUXCOM_HSP_GS1, 1, false, 0, NULL));
	EXPECT_EQ(-EBADFD, ipuxcom_autoload(self->ipu, boot, sizeof(boot), 0, NULL));
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(ipuxcom_fd(self->ipu)));
}

/* ------------------------------------------------ raw-write audit log */

/*
 * Offsets the core logs (outside the HW-REGS table) and does not
 * log (inside it), on a simulated device.
 */
#define UNDOC_REG	0x0100u
#define UNDOC_TDI	(0x30000u + 5 * 0x40 + 13 * 4)	/* TDI register 13: none */
#define DOC_REG		0x3044u				/* EXCHWINDOWBASER */
#define DOC_TDI		(0x30000u + 5 * 0x40 + 7 * 4)	/* DBG_DATA of tile 5 */

TEST(raw_writes_outside_the_documented_set_are_logged)
{
	static const struct ipuxcom_cfg_record rec[3] = {
		{ 0x0104, 0x11 }, { DOC_REG, 0 }, { 0x0108, 0x22 },
	};
	struct ipuxcom_ioc_cfg_apply ca = {
		.size = sizeof(ca), .records = (uintptr_t)rec, .count = 3,
	};
	char *log, want[3][192];
	int fd, kfd, found = 0;

	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	log = calloc(1, KMSG_BYTES);
	ASSERT_NE(NULL, log);
	fd = ixt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ixt_attach(fd, ixt_dev_id()));
	ASSERT_EQ(0, ixt_reset(fd));
	kfd = kmsg_open();
	ASSERT_LE(0, kfd);
	snprintf(want[0], sizeof(want[0]),
		 "ipuxcom: pid %d (hw_backend_test) device %u (sim): REG_WRITE: 1 write(s) outside the documented register set, first 0x%05x = 0xa5a50001",
		 getpid(), ixt_dev_id(), UNDOC_REG);
	snprintf(want[1], sizeof(want[1]), "REG_WRITE: 1 write(s) outside the documented register set, first 0x%05x = 0x00000005",
		 UNDOC_TDI);
	snprintf(want[2], sizeof(want[2]), "CFG_APPLY: 2 write(s) outside the documented register set, first 0x00104 = 0x00000011");

	/* A second round if earlier tests used up the rate limit (10 per 5 s). */
	for (int round = 0; round < 2 && found < 3; round++) {
		if (round)
			sleep(6);
		log[0] = '\0';
		kmsg_collect(kfd, log, KMSG_BYTES);	/* drop older lines */
		log[0] = '\0';
		ASSERT_EQ(0, ixt_reg_write(fd, UNDOC_REG, 0xa5a50001));
		ASSERT_EQ(0, ixt_reg_write(fd, DOC_REG, 3));
		ASSERT_EQ(0, ixt_reg_write(fd, DOC_TDI, 4));
		ASSERT_EQ(0, ixt_reg_write(fd, UNDOC_TDI, 5));
		ASSERT_EQ(0, ixt_ioctl(fd, IPUXCOM_IOC_CFG_APPLY, &ca));
		kmsg_collect(kfd, log, KMSG_BYTES);
		found = 0;
		for (int i = 0; i < 3; i++)
			found += strstr(log, want[i]) != NULL;
	}
	for (int i = 0; i < 3; i++) {
		EXPECT_NE(NULL, strstr(log, want[i])) TH_LOG("missing: %s\nlog:\n%s", want[i], log);
	}
	/*
	 * Documented writes came between logged ones, so the rate limit
	 * cannot be what kept them out.
	 */
	EXPECT_EQ(NULL, strstr(log, "first 0x03044")) TH_LOG("%s", log);
	EXPECT_EQ(NULL, strstr(log, "first 0x3015c")) TH_LOG("%s", log);
	close(kfd);
	close(fd);
	free(log);
}

/* ------------------------------------------------------ on a real card */

/*
 * Registers the notes or [RE] show being read on a C600 (HW-REGS):
 * polled (AUTOLDCSR, GS1, GS2, TILEUPDR), read back (EXCHWINDOWBASER),
 * saved before loading (XB.DCXCR, CCSR). AUTOLDDATAR is a data port and
 * is not read.
 */
static const struct {
	const char *name;
	uint32_t off;
	int stable;	/* a configuration register: compared with ipu_driver's mapping */
} card_regs[] = {
	{ "PCI_COMPLEX.CCSR", 0x2000, 1 },
	{ "AUTOLDCSR", 0x2068, 0 },
	{ "HSP_GS1", 0x302c, 0 },
	{ "HSP_GS2", 0x3030, 0 },
	{ "EXCHWINDOWBASER", 0x3044, 1 },
	{ "TILEUPDR", 0x3054, 0 },
	{ "XB.DCXCR0", 0x5404 + 0 * 0x400, 1 }, { "XB.DCXCR1", 0x5404 + 1 * 0x400, 1 },
	{ "XB.DCXCR2", 0x5404 + 2 * 0x400, 1 }, { "XB.DCXCR3", 0x5404 + 3 * 0x400, 1 },
	{ "XB.DCXCR4", 0x5404 + 4 * 0x400, 1 }, { "XB.DCXCR5", 0x5404 + 5 * 0x400, 1 },
	{ "XB.DCXCR6", 0x5404 + 6 * 0x400, 1 }, { "XB.DCXCR7", 0x5404 + 7 * 0x400, 1 },
	{ "XB.DCXCR8", 0x1b804 + 0 * 0x400, 1 }, { "XB.DCXCR9", 0x1b804 + 1 * 0x400, 1 },
	{ "XB.DCXCR10", 0x1b804 + 2 * 0x400, 1 }, { "XB.DCXCR11", 0x1b804 + 3 * 0x400, 1 },
	{ "XB.DCXCR12", 0x1b804 + 4 * 0x400, 1 }, { "XB.DCXCR13", 0x1b804 + 5 * 0x400, 1 },
	{ "XB.DCXCR14", 0x1b804 + 6 * 0x400, 1 }, { "XB.DCXCR15", 0x1b804 + 7 * 0x400, 1 },
};

#define NCARD_REGS	(sizeof(card_regs) / sizeof(card_regs[0]))

/*
 * Runs only when IPUXCOM_DEVICE is an "hw" device. Reads only: nothing
 * here writes a register or sends a command that reaches the card.
 */
TEST(card_read_only_probe)
{
	static const uint32_t tiles[] = { 0, 1471 };	/* dumped on a C600 in [S] */
	const char *node = getenv("IPUXCOM_IPU_NODE");
	struct ipuxcom_device_info info;
	struct ipuxcom_ioc_dev_query q;
	uint32_t values[NCARD_REGS];
	struct ipuxcom_nl *nl;
	struct ipuxcom *ipu;
	int fd, err;

	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	/* netlink names the backend without attaching (a card needs ipu_driver's node) */
	if (ipuxcom_nl_open(&nl))
		SKIP(return, "no ipuxcom netlink family");
	err = ipuxcom_nl_dev_get(nl, ixt_dev_id(), &info);
	ipuxcom_nl_close(nl);
	if (err || strcmp(info.backend, "hw"))
		SKIP(return, "device %u is not a card (backend \"%s\"): runs with ipuxcom_hw only",
		     ixt_dev_id(), err ? "?" : info.backend);
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &ipu));
	/* USER_ATTACH and SET_IPU_ID on its /dev/ipuN, then ATTACH with it */
	ASSERT_EQ(0, ipuxcom_attach(ipu, ixt_dev_id())) TH_LOG("%s", ipuxcom_errmsg(ipu));
	fd = ipuxcom_fd(ipu);

	ASSERT_EQ(0, ixt_query(fd, &q));
	TH_LOG("device %u: backend %s, state %u, %u tiles, config BAR 0x%x, capabilities 0x%llx, node %s",
	       q.dev_id, q.backend, q.state, q.tile_count, q.config_bar_size,
	       (unsigned long long)q.capabilities, q.ipu_node);
	EXPECT_EQ(HW_CAPABILITIES, q.capabilities);
	EXPECT_EQ(1472, q.tile_count);
	EXPECT_EQ(0x80000, q.config_bar_size);
	EXPECT_NE(0, q.ipu_node[0]);
	/* read-only: no RESET, no load (selftests/README step 5 is the opt-in load) */

	for (size_t i = 0; i < NCARD_REGS; i++) {
		EXPECT_EQ(0, ipuxcom_reg_read(ipu, card_regs[i].off, &values[i]))
			TH_LOG("%s", card_regs[i].name);
		TH_LOG("reg %-18s 0x%05x = 0x%08x", card_regs[i].name, card_regs[i].off,
		       values[i]);
	}
	for (size_t t = 0; t < sizeof(tiles) / sizeof(tiles[0]); t++) {
		struct ipuxcom_ioc_tdi_regs tr = { .size = sizeof(tr), .tile = tiles[t] };

		EXPECT_EQ(0, ixt_ioctl(fd, IPUXCOM_IOC_TDI_READ_REGS, &tr));
		for (uint32_t r = 0; r < IPUXCOM_TDI_NREGS; r++)
			TH_LOG("tdi tile %4u %-16s = 0x%08x", tiles[t],
			       ipuxcom_tdi_reg_name(r), tr.regs[r]);
		/* TDI_STS has four defined bits [S]; all ones means no answer */
		EXPECT_NE(0xffffffffu, tr.regs[IPUXCOM_TDI_TDI_STS]);
	}

	/* Optional: is our BAR the one ipu_driver maps as the config BAR? */
	if (node && *node) {
		int ifd = open(node, O_RDONLY | O_CLOEXEC);
		volatile uint32_t *bar = MAP_FAILED;

		if (ifd >= 0)
			bar = mmap(NULL, 0x80000, PROT_READ, MAP_SHARED, ifd, 0);
		if (bar == MAP_FAILED) {
			TH_LOG("%s: cannot map read-only (%s): no cross-check", node, strerror(errno));
		} else {
			for (size_t i = 0; i < NCARD_REGS; i++) {
				uint32_t theirs = bar[card_regs[i].off / 4];

				TH_LOG("%s %-18s 0x%08x (ipuxcom 0x%08x)", node, card_regs[i].name,
				       theirs, values[i]);
				if (card_regs[i].stable) {
					EXPECT_EQ(values[i], theirs) TH_LOG("%s", card_regs[i].name);
				}
			}
			munmap((void *)bar, 0x80000);
		}
		if (ifd >= 0)
			close(ifd);
	}
	ipuxcom_close(ipu);
}

TEST_HARNESS_MAIN
