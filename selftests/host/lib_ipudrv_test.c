// SPDX-License-Identifier: GPL-2.0-only
/*
 * The library's side of devices held through Graphcore's ipu_driver
 * (uapi version 4), on the build host without a module or a card:
 *  - ipu_driver's request numbers and argument layouts are what the
 *    public record implies (HW-IOCTLS);
 *  - ipuxcom_dev_init()'s step table;
 *  - the library's sequences, against a fake: this program defines
 *    ioctl() and open(), which the library's calls (linked statically)
 *    reach instead of the C library's. The fake answers ipuxcom's ioctls
 *    on the handle's file and ipu_driver's on a fake /dev/fakeipu0, and
 *    gives /dev/fakeipu0_ex as a memfd, and logs every call, so the tests
 *    check order, arguments and syscall counts. It models the ABI as the
 *    uapi headers document it, not the module's or ipu_driver's
 *    behaviour beyond that.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/ipuxcom_ipu_driver.h>

#include <ipuxcom.h>

#include "../../libuser/src/internal.h"
#include "../lib/ixt_sized.h"

/* ------------------------------------------------ the ABI's numbers */

/*
 * HW-IOCTLS: magic 0xed; USER_ATTACH _IOWR(10, 8 bytes), BUFFER_ATTACH
 * _IOWR(11, 8), BUFFER_DETACH _IOWR(12, 8), BUFFER_DETACH_ALL _IO(18),
 * SET_IPU_ID _IOWR(14, 8), MAILBOX_WRITE_READ _IOWR(31, 8),
 * STOP/START_MONITORING _IO(34/35), ACCUMULATE_ERRORS _IO(36),
 * SET_HEXOPT_IDENTITY_TABLE _IO(44), RESET_DEVICE _IOW(45, 4),
 * SET_SECONDARY_IPU_ID _IOW(47, 8). The values, worked out by hand.
 */
TEST(request_numbers)
{
	EXPECT_EQ(0xc008ed0aul, (unsigned long)IPU_DRV_USER_ATTACH);
	EXPECT_EQ(0xc008ed0bul, (unsigned long)IPU_DRV_BUFFER_ATTACH);
	EXPECT_EQ(0xc008ed0cul, (unsigned long)IPU_DRV_BUFFER_DETACH);
	EXPECT_EQ(0xc008ed0eul, (unsigned long)IPU_DRV_SET_IPU_ID);
	EXPECT_EQ(0xed12ul, (unsigned long)IPU_DRV_BUFFER_DETACH_ALL);
	EXPECT_EQ(0xc008ed1ful, (unsigned long)IPU_DRV_MAILBOX_WRITE_READ);
	EXPECT_EQ(0xed22ul, (unsigned long)IPU_DRV_STOP_MONITORING);
	EXPECT_EQ(0xed23ul, (unsigned long)IPU_DRV_START_MONITORING);
	EXPECT_EQ(0xed24ul, (unsigned long)IPU_DRV_ACCUMULATE_ERRORS);
	EXPECT_EQ(0xed2cul, (unsigned long)IPU_DRV_SET_HEXOPT_IDENTITY_TABLE);
	EXPECT_EQ(0x4004ed2dul, (unsigned long)IPU_DRV_RESET_DEVICE);
	EXPECT_EQ(0x4008ed2ful, (unsigned long)IPU_DRV_SET_SECONDARY_IPU_ID);
}

TEST(argument_layouts)
{
	EXPECT_EQ(16, sizeof(struct ipu_drv_buffer));
	EXPECT_EQ(0, offsetof(struct ipu_drv_buffer, index));
	EXPECT_EQ(4, offsetof(struct ipu_drv_buffer, size));
	EXPECT_EQ(8, offsetof(struct ipu_drv_buffer, addr));
	EXPECT_EQ(16, sizeof(struct ipu_drv_mailbox));
	EXPECT_EQ(0, offsetof(struct ipu_drv_mailbox, sent_ptr));
	EXPECT_EQ(8, offsetof(struct ipu_drv_mailbox, recv_ptr));
	EXPECT_EQ(5, IPU_DRV_MAILBOX_WORDS);
	EXPECT_EQ(0x4078020eu, IPU_DRV_ICU_RESET_REQUEST);
	EXPECT_EQ(0x80000u, IPU_DRV_EXCH_WINDOW_OFFSET);
	/* the window plus one tile's 624 KiB of SRAM */
	EXPECT_EQ(0x80000u + 0x9c000u, IXC_IPUDRV_EX_MAP_BYTES);
}

TEST(node_names)
{
	char longest[IPUXCOM_IPU_NODE_LEN];
	int fd = 7;

	EXPECT_TRUE(ixc_ipudrv_node_ok("ipu0"));
	EXPECT_TRUE(ixc_ipudrv_node_ok("ipu15"));
	memset(longest, 'a', sizeof(longest) - 1);
	longest[sizeof(longest) - 1] = '\0';
	EXPECT_TRUE(ixc_ipudrv_node_ok(longest));
	EXPECT_FALSE(ixc_ipudrv_node_ok(NULL));
	EXPECT_FALSE(ixc_ipudrv_node_ok(""));
	EXPECT_FALSE(ixc_ipudrv_node_ok(".."));
	EXPECT_FALSE(ixc_ipudrv_node_ok("../etc/passwd"));
	EXPECT_FALSE(ixc_ipudrv_node_ok("a/b"));
	EXPECT_FALSE(ixc_ipudrv_node_ok("ipu 0"));
	EXPECT_FALSE(ixc_ipudrv_node_ok("ipu0123456789abcd"));
	EXPECT_EQ(-EINVAL, ixc_ipudrv_open("../null", &fd));
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(-ENOENT, ixc_ipudrv_open("ipu-none-999", &fd));
	EXPECT_EQ(-1, fd);
}

/* On a file that is not ipu_driver's, every wrapper returns -ENOTTY. */
TEST(wrappers_return_errno)
{
	uint32_t sent[5] = { IPU_DRV_ICU_RESET_REQUEST }, recv[5];
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, fd);
	EXPECT_EQ(-ENOTTY, ixc_ipudrv_user_attach(fd));
	EXPECT_EQ(-ENOTTY, ixc_ipudrv_set_ipu_id(fd, 0));
	EXPECT_EQ(-ENOTTY, ixc_ipudrv_buffer_attach(fd, 0, sent, 4096));
	EXPECT_EQ(-ENOTTY, ixc_ipudrv_buffer_detach(fd, 0));
	EXPECT_EQ(-ENOTTY, ixc_ipudrv_buffer_detach_all(fd));
	EXPECT_EQ(-ENOTTY, ixc_ipudrv_reset_device(fd));
	EXPECT_EQ(-ENOTTY, ixc_ipudrv_mailbox(fd, sent, recv));
	EXPECT_EQ(-ENOTTY, ixc_ipudrv_stop_monitoring(fd));
	EXPECT_EQ(-ENOTTY, ixc_ipudrv_start_monitoring(fd));
	EXPECT_EQ(-ENOTTY, ixc_ipudrv_accumulate_errors(fd));
	EXPECT_EQ(-ENOTTY, ixc_ipudrv_set_secondary_ipu_id(fd));
	EXPECT_EQ(-EBADF, ixc_ipudrv_user_attach(-1));
	close(fd);
}

TEST(init_step_table)
{
	EXPECT_EQ(8, IPUXCOM_INIT_STEPS);
	EXPECT_EQ(NULL, ipuxcom_init_step_name(IPUXCOM_INIT_STEP_NONE));
	EXPECT_STREQ("STOP_MONITORING", ipuxcom_init_step_name(1));
	EXPECT_STREQ("ICU mailbox reset", ipuxcom_init_step_name(2));
	EXPECT_STREQ("START_MONITORING", ipuxcom_init_step_name(3));
	EXPECT_STREQ("ACCUMULATE_ERRORS", ipuxcom_init_step_name(4));
	EXPECT_STREQ("RESET_DEVICE", ipuxcom_init_step_name(5));
	EXPECT_STREQ("SET_SECONDARY_IPU_ID", ipuxcom_init_step_name(6));
	EXPECT_STREQ("module reset", ipuxcom_init_step_name(7));
	EXPECT_EQ(NULL, ipuxcom_init_step_name(8));
	EXPECT_EQ(NULL, ipuxcom_init_step_name(UINT32_MAX));
	EXPECT_STREQ("not run", ipuxcom_init_status_name(IPUXCOM_INIT_NOT_RUN));
	EXPECT_STREQ("done", ipuxcom_init_status_name(IPUXCOM_INIT_DONE));
	EXPECT_STREQ("failed", ipuxcom_init_status_name(IPUXCOM_INIT_FAILED));
	EXPECT_STREQ("not applicable", ipuxcom_init_status_name(IPUXCOM_INIT_NOT_APPLICABLE));
	EXPECT_STREQ("unknown", ipuxcom_init_status_name(4));
}

/* ------------------------------------------------------------ the fake */

#define FAKE_NODE	"fakeipu0"
#define MAX_CALLS	256
/* The first word of the fake card's config mapping: what ATTACH checks it reaches. */
#define FAKE_CFG_MARK	0x1d95c600u

enum who { MOD = 1, DRV = 2 };

struct call {
	enum who who;
	unsigned long req;
	uint32_t flags, index, tile, addr, bytes;
	uint64_t uaddr, ubytes, data;
	unsigned long value;		/* by-value ipu_driver argument */
	uint32_t words[5];		/* MAILBOX sent; SET_SECONDARY's u32 */
};

static struct fake {
	int mod_fd, drv_fd, ex_fd;	/* ex_fd: the test's own reference to the memfd */
	bool ipu_driver;		/* the module's device is held through ipu_driver */
	bool drv_any;			/* ipu_driver's requests on any file reach the fake */
	int fail_mod_req_err;		/* errno for fail_mod_req */
	unsigned long fail_mod_req;
	int fail_drv_req_err;
	unsigned long fail_drv_req;
	uint32_t icu_reply[5];
	uint32_t state;
	uint64_t slot_addr[IPUXCOM_BUF_SLOTS], slot_bytes[IPUXCOM_BUF_SLOTS];
	bool exch_data_seen_at_select, exch_data_ok_at_complete;
	const void *exch_expect;
	struct call log[MAX_CALLS];
	int ncalls;
} fake;

static struct call *log_call(enum who who, unsigned long req)
{
	static struct call spill;
	struct call *c = fake.ncalls < MAX_CALLS ? &fake.log[fake.ncalls++] : &spill;

	memset(c, 0, sizeof(*c));
	c->who = who;
	c->req = req;
	return c;
}

static int fake_module(unsigned long req, void *arg)
{
	struct call *c = log_call(MOD, req);

	if (req == fake.fail_mod_req && fake.fail_mod_req_err)
		return -fake.fail_mod_req_err;
	switch (req) {
	case IPUXCOM_IOC_INFO: {
		struct ipuxcom_ioc_info *in = arg;

		in->uapi_version = IPUXCOM_UAPI_VERSION;
		in->device_count = 1;
		in->capabilities = IPUXCOM_CAP_LOADER | IPUXCOM_CAP_IPU_DRIVER;
		in->max_config_bar = 0x80000;
		return 0;
	}
	case IPUXCOM_IOC_ATTACH: {
		struct ipuxcom_ioc_attach *at = arg;

		c->flags = at->flags;
		c->value = (unsigned long)at->ipu_fd;
		c->uaddr = at->cfg_map;
		c->data = at->ex_map;
		c->ubytes = at->ex_map_len;
		if (fake.ipu_driver && !(at->flags & IPUXCOM_ATTACH_F_IPU_FD))
			return -EACCES;
		if (!fake.ipu_driver && (at->flags & IPUXCOM_ATTACH_F_IPU_FD))
			return -EINVAL;
		/* the module's rule, modelled: the mapping must reach this card */
		if (fake.ipu_driver && (!at->cfg_map || at->cfg_map % 4096 ||
		    *(const volatile uint32_t *)(uintptr_t)at->cfg_map != FAKE_CFG_MARK))
			return -EXDEV;
		return 0;
	}
	case IPUXCOM_IOC_DEV_QUERY: {
		struct ipuxcom_ioc_dev_query *q = arg;

		q->dev_id = 0;
		q->state = fake.state;
		q->tile_count = 1472;
		strcpy(q->backend, fake.ipu_driver ? "hw" : "sim");
		q->capabilities = IPUXCOM_CAP_LOADER | IPUXCOM_CAP_RESET | IPUXCOM_CAP_HOSTX |
				  (fake.ipu_driver ? IPUXCOM_CAP_IPU_DRIVER : 0);
		if (fake.ipu_driver)
			strcpy(q->ipu_node, FAKE_NODE);
		return 0;
	}
	case IPUXCOM_IOC_RESET: {
		struct ipuxcom_ioc_reset *rs = arg;

		c->flags = rs->flags;
		if (fake.ipu_driver != !!(rs->flags & IPUXCOM_RESET_F_DRIVER_RESET))
			return fake.ipu_driver ? -EOPNOTSUPP : -EINVAL;
		memset(fake.slot_addr, 0, sizeof(fake.slot_addr));
		fake.state = rs->state = IPUXCOM_DEV_STATE_IDLE;
		return 0;
	}
	case IPUXCOM_IOC_CFG_APPLY: {
		struct ipuxcom_ioc_cfg_apply *ca = arg;

		c->flags = ca->flags;
		c->bytes = ca->count;
		c->uaddr = ca->records;
		if (fake.state != IPUXCOM_DEV_STATE_IDLE)
			return -EBADFD;
		ca->applied = ca->count;
		return 0;
	}
	case IPUXCOM_IOC_AUTOLOAD:
		fake.state = IPUXCOM_DEV_STATE_BOOTLOADER;
		return 0;
	case IPUXCOM_IOC_BUF_ATTACH: {
		struct ipuxcom_ioc_buf *b = arg;

		c->index = b->index;
		c->uaddr = b->addr;
		c->ubytes = b->bytes;
		if (b->index >= IPUXCOM_BUF_SLOTS || b->addr % 4096 || !b->bytes || b->bytes % 4096)
			return -EINVAL;
		if (fake.slot_addr[b->index])
			return -EEXIST;
		fake.slot_addr[b->index] = b->addr;
		fake.slot_bytes[b->index] = b->bytes;
		return 0;
	}
	case IPUXCOM_IOC_BUF_DETACH: {
		struct ipuxcom_ioc_buf *b = arg;

		c->index = b->index;
		fake.slot_addr[b->index] = 0;
		return 0;
	}
	case IPUXCOM_IOC_LOAD_BATCH: {
		struct ipuxcom_ioc_load_batch *lb = arg;

		c->index = lb->batch;
		if (!fake.slot_addr[0])
			return -ENOBUFS;
		fake.state = IPUXCOM_DEV_STATE_LOADING;
		return 0;
	}
	case IPUXCOM_IOC_LOAD_FINISH:
		if (!fake.slot_addr[0])
			return -ENOBUFS;
		fake.slot_addr[0] = 0;	/* the module's pin ends here */
		fake.state = IPUXCOM_DEV_STATE_RUNNING;
		return 0;
	case IPUXCOM_IOC_HOSTX_SETUP: {
		struct ipuxcom_ioc_hostx_setup *hs = arg;

		c->flags = hs->flags;
		c->bytes = hs->npages;
		if (hs->flags == IPUXCOM_HOSTX_F_COMMIT)
			for (uint32_t i = 0; i < hs->npages; i++)
				if (fake.slot_bytes[IPUXCOM_BUF_SLOT_HOSTX(i)] != hs->page_bytes[i] ||
				    !fake.slot_addr[IPUXCOM_BUF_SLOT_HOSTX(i)])
					return -EINVAL;
		return 0;
	}
	case IPUXCOM_IOC_HOSTX_CALL:
		return 0;
	case IPUXCOM_IOC_EXCH_WRITE: {
		struct ipuxcom_ioc_exch_write *ew = arg;
		uint8_t *ex = mmap(NULL, IXC_IPUDRV_EX_MAP_BYTES, PROT_READ, MAP_SHARED,
				   fake.ex_fd, 0);
		const uint8_t *at;

		c->flags = ew->flags;
		c->tile = ew->tile;
		c->addr = ew->addr;
		c->bytes = ew->bytes;
		c->data = ew->data;
		if (!ew->flags)
			return ex == MAP_FAILED ? 0 : munmap(ex, IXC_IPUDRV_EX_MAP_BYTES);
		if (ex == MAP_FAILED)
			return -EIO;
		at = ex + IPU_DRV_EXCH_WINDOW_OFFSET + (ew->addr - 0x4c000);
		if (ew->flags == IPUXCOM_EXCH_F_SELECT)
			fake.exch_data_seen_at_select = !memcmp(at, fake.exch_expect, ew->bytes);
		else if (ew->flags == IPUXCOM_EXCH_F_COMPLETE)
			fake.exch_data_ok_at_complete = !memcmp(at, fake.exch_expect, ew->bytes);
		munmap(ex, IXC_IPUDRV_EX_MAP_BYTES);
		ew->tileupdr = ew->tile << 17;
		return 0;
	}
	default:
		return -ENOTTY;
	}
}

static int fake_ipu_driver(unsigned long req, void *arg)
{
	struct call *c = log_call(DRV, req);

	switch (req) {
	case IPU_DRV_USER_ATTACH:
	case IPU_DRV_SET_IPU_ID:
	case IPU_DRV_BUFFER_DETACH:
	case IPU_DRV_RESET_DEVICE:
		c->value = (unsigned long)arg;
		break;
	case IPU_DRV_BUFFER_ATTACH: {
		const struct ipu_drv_buffer *b = arg;

		c->index = b->index;
		c->bytes = b->size;
		c->uaddr = b->addr;
		break;
	}
	case IPU_DRV_MAILBOX_WRITE_READ: {
		const struct ipu_drv_mailbox *mb = arg;

		memcpy(c->words, (const void *)(uintptr_t)mb->sent_ptr, sizeof(c->words));
		memcpy((void *)(uintptr_t)mb->recv_ptr, fake.icu_reply, sizeof(fake.icu_reply));
		break;
	}
	case IPU_DRV_SET_SECONDARY_IPU_ID:
		memcpy(c->words, arg, sizeof(uint32_t));
		break;
	case IPU_DRV_BUFFER_DETACH_ALL:
	case IPU_DRV_STOP_MONITORING:
	case IPU_DRV_START_MONITORING:
	case IPU_DRV_ACCUMULATE_ERRORS:
		break;
	case IPU_DRV_SET_HEXOPT_IDENTITY_TABLE:
		c->value = (unsigned long)arg;
		break;
	default:
		return -ENOTTY;
	}
	if (req == fake.fail_drv_req && fake.fail_drv_req_err)
		return -fake.fail_drv_req_err;
	return 0;
}

/* The library's ioctl(2) calls land here (the executable's definition wins). */
int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd >= 0 && fd == fake.mod_fd)
		ret = fake_module(req, arg);
	else if (fd >= 0 && (fd == fake.drv_fd ||
			     (fake.drv_any && _IOC_TYPE(req) == IPU_DRV_IOC_MAGIC)))
		ret = fake_ipu_driver(req, arg);
	else
		return (int)syscall(SYS_ioctl, fd, req, arg);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}

/* /dev/fakeipu0_ex is a memfd of the exchange mapping's size; the rest is real. */
int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (!strcmp(path, "/dev/" FAKE_NODE "_ex")) {
		int fd = (int)syscall(SYS_memfd_create, "fake_ex", MFD_CLOEXEC);

		if (fd < 0 || ftruncate(fd, IXC_IPUDRV_EX_MAP_BYTES))
			return -1;
		if (fake.ex_fd < 0)
			fake.ex_fd = dup(fd);
		return fd;
	}
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

static int count(enum who who, unsigned long req)
{
	int n = 0;

	for (int i = 0; i < fake.ncalls; i++)
		n += fake.log[i].who == who && fake.log[i].req == req;
	return n;
}

/* Index of the @nth (0-based) call of @req by @who, or -1. */
static int find(enum who who, unsigned long req, int nth)
{
	for (int i = 0; i < fake.ncalls; i++)
		if (fake.log[i].who == who && fake.log[i].req == req && nth-- == 0)
			return i;
	return -1;
}

FIXTURE(drv) {
	struct ipuxcom *ipu;
	int drv_fd;
};

/*
 * A file standing for a card's /dev/ipuN: its 512 KiB "config registers"
 * start with @mark (FAKE_CFG_MARK: this card's).
 */
static int fake_node_fd(uint32_t mark)
{
	int fd = (int)syscall(SYS_memfd_create, "fake_ipu", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, 0x80000) || pwrite(fd, &mark, sizeof(mark), 0) != sizeof(mark)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A handle on a fake device held through ipu_driver, attached with the caller's fd. */
FIXTURE_SETUP(drv)
{
	memset(&fake, 0, sizeof(fake));
	fake.mod_fd = fake.drv_fd = fake.ex_fd = -1;
	fake.ipu_driver = true;
	fake.icu_reply[0] = 0x40780001;
	self->drv_fd = fake_node_fd(FAKE_CFG_MARK);
	ASSERT_LE(0, self->drv_fd);
	fake.drv_fd = self->drv_fd;
	ASSERT_EQ(0, ipuxcom_open("/dev/null", &self->ipu));
	fake.mod_fd = ipuxcom_fd(self->ipu);
	ASSERT_EQ(0, ipuxcom_attach_ipu_fd(self->ipu, 0, self->drv_fd));
	ASSERT_EQ(self->drv_fd, ipuxcom_ipu_fd(self->ipu));
	fake.ncalls = 0;
}

FIXTURE_TEARDOWN(drv)
{
	ipuxcom_close(self->ipu);
	/* the caller's descriptor is the caller's: still open */
	EXPECT_LE(0, fcntl(self->drv_fd, F_GETFD));
	close(self->drv_fd);
	if (fake.ex_fd >= 0)
		close(fake.ex_fd);
}

TEST_F(drv, attach_passes_the_descriptor)
{
	struct ipuxcom *other;
	int another = fake_node_fd(0);

	/* the fixture's attach */
	ASSERT_LE(0, another);
	ASSERT_EQ(0, ipuxcom_open("/dev/null", &other));
	fake.mod_fd = ipuxcom_fd(other);
	fake.ncalls = 0;
	/* another card's node: its mapping does not reach this device */
	EXPECT_EQ(-EXDEV, ipuxcom_attach_ipu_fd(other, 0, another));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(other), "does not reach this device's registers"))
		TH_LOG("%s", ipuxcom_errmsg(other));
	ASSERT_EQ(1, fake.ncalls);
	EXPECT_EQ(IPUXCOM_ATTACH_F_IPU_FD, fake.log[0].flags);
	EXPECT_NE(0, fake.log[0].uaddr);
	EXPECT_EQ(-ENODEV, ipuxcom_ipu_fd(other));
	/* one that cannot be mapped is refused before the module is asked */
	fake.ncalls = 0;
	EXPECT_EQ(-ENODEV, ipuxcom_attach_ipu_fd(other, 0, fake.mod_fd));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(other), "mmap of the ipu_driver descriptor"))
		TH_LOG("%s", ipuxcom_errmsg(other));
	EXPECT_EQ(0, fake.ncalls);
	close(another);
	/* a plain attach of such a device is explained */
	EXPECT_EQ(-EBADF, ipuxcom_attach_ipu_fd(other, 0, -1));
	ipuxcom_close(other);
	fake.mod_fd = ipuxcom_fd(self->ipu);
}

TEST_F(drv, init_runs_the_recorded_steps_in_order)
{
	static const unsigned long want[] = {
		IPU_DRV_STOP_MONITORING, IPU_DRV_MAILBOX_WRITE_READ, IPU_DRV_START_MONITORING,
		IPU_DRV_ACCUMULATE_ERRORS, IPU_DRV_RESET_DEVICE, IPU_DRV_SET_SECONDARY_IPU_ID,
	};
	struct ipuxcom_init_report rep = IPUXCOM_INIT_REPORT_INIT;

	ASSERT_EQ(0, ipuxcom_dev_init(self->ipu, &rep)) TH_LOG("%s", rep.msg);
	ASSERT_EQ(7, fake.ncalls);
	for (int i = 0; i < 6; i++) {
		EXPECT_EQ(DRV, fake.log[i].who);
		EXPECT_EQ(want[i], fake.log[i].req) {
			TH_LOG("call %d", i);
		}
	}
	EXPECT_EQ(IPU_DRV_ICU_RESET_REQUEST, fake.log[1].words[0]);
	for (int w = 1; w < 5; w++)
		EXPECT_EQ(0, fake.log[1].words[w]);
	EXPECT_EQ(0, fake.log[4].value);	/* RESET_DEVICE 0 */
	EXPECT_EQ(0, fake.log[5].words[0]);	/* SET_SECONDARY_IPU_ID &0 */
	EXPECT_EQ(MOD, fake.log[6].who);
	EXPECT_EQ(IPUXCOM_IOC_RESET, fake.log[6].req);
	EXPECT_EQ(IPUXCOM_RESET_F_DRIVER_RESET, fake.log[6].flags);

	EXPECT_EQ(1, rep.ipu_driver);
	EXPECT_EQ(0, rep.failed_step);
	EXPECT_EQ(0, rep.error);
	EXPECT_STREQ("", rep.msg);
	for (uint32_t s = 1; s < IPUXCOM_INIT_STEPS; s++) {
		EXPECT_EQ(IPUXCOM_INIT_DONE, rep.status[s]) TH_LOG("step %u", s);
	}
	EXPECT_EQ(1, rep.icu_reply_valid);
	EXPECT_EQ(0x40780001, rep.icu_reply[0]);
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, rep.state);
}

TEST_F(drv, init_checks_the_icu_reply)
{
	struct ipuxcom_init_report rep = IPUXCOM_INIT_REPORT_INIT;

	fake.icu_reply[0] = 0x12345678;
	fake.icu_reply[4] = 0xabcd;
	EXPECT_EQ(-EPROTO, ipuxcom_dev_init(self->ipu, &rep));
	EXPECT_EQ(IPUXCOM_INIT_STEP_ICU_RESET, rep.failed_step);
	EXPECT_EQ(-EPROTO, rep.error);
	EXPECT_EQ(IPUXCOM_INIT_DONE, rep.status[1]);
	EXPECT_EQ(IPUXCOM_INIT_FAILED, rep.status[2]);
	for (uint32_t s = 3; s < IPUXCOM_INIT_STEPS; s++)
		EXPECT_EQ(IPUXCOM_INIT_NOT_RUN, rep.status[s]);
	EXPECT_EQ(1, rep.icu_reply_valid);
	EXPECT_EQ(0x12345678, rep.icu_reply[0]);
	EXPECT_EQ(0xabcd, rep.icu_reply[4]);
	EXPECT_NE(NULL, strstr(rep.msg, "step 2 (ICU mailbox reset): reply word 0 0x12345678, "
			       "expected 0x4078xxxx")) TH_LOG("%s", rep.msg);
	EXPECT_STREQ(rep.msg, ipuxcom_errmsg(self->ipu));
	/* nothing after it ran */
	EXPECT_EQ(2, fake.ncalls);
	EXPECT_EQ(0, count(MOD, IPUXCOM_IOC_RESET));
}

/* The outputs filled through the ioctls: up to the caller's size (ixt_sized.h). */
static struct ipuxcom *g_ipu;

static int fill_init_report(void *out, void *ctx)
{
	return ipuxcom_dev_init(g_ipu, out);
}

static int fill_info(void *out, void *ctx)
{
	return ipuxcom_get_info(g_ipu, out);
}

TEST_F(drv, sized_outputs)
{
	struct ipuxcom_info info = IPUXCOM_INFO_INIT;

	g_ipu = self->ipu;
	ixt_out_sizes(_metadata, fill_init_report, NULL, NULL, sizeof(struct ipuxcom_init_report),
		      IPUXCOM_INIT_REPORT_SIZE_MIN, "rep.size");
	ixt_out_sizes(_metadata, fill_info, NULL, NULL, sizeof(struct ipuxcom_info),
		      IPUXCOM_INFO_SIZE_MIN, "info.size");
	ASSERT_EQ(0, ipuxcom_get_info(self->ipu, &info));
	EXPECT_EQ(sizeof(info), info.size);
	EXPECT_EQ(IPUXCOM_UAPI_VERSION, info.uapi_version);
	EXPECT_EQ(1, info.device_count);
	EXPECT_EQ(0x80000, info.max_config_bar);
	EXPECT_EQ(IPUXCOM_CAP_LOADER | IPUXCOM_CAP_IPU_DRIVER, info.capabilities);
	/* a refused report: no step ran */
	fake.ncalls = 0;
	EXPECT_EQ(-EINVAL, fill_init_report(&(struct ipuxcom_init_report){ .size = 4 }, NULL));
	EXPECT_EQ(0, fake.ncalls);
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(self->ipu), "rep.size 4 is below"))
		TH_LOG("%s", ipuxcom_errmsg(self->ipu));
}

TEST_F(drv, init_stops_at_a_failing_step)
{
	struct ipuxcom_init_report rep = IPUXCOM_INIT_REPORT_INIT;

	fake.fail_drv_req = IPU_DRV_RESET_DEVICE;
	fake.fail_drv_req_err = EIO;
	EXPECT_EQ(-EIO, ipuxcom_dev_init(self->ipu, &rep));
	EXPECT_EQ(IPUXCOM_INIT_STEP_RESET_DEVICE, rep.failed_step);
	EXPECT_EQ(IPUXCOM_INIT_DONE, rep.status[4]);
	EXPECT_EQ(IPUXCOM_INIT_FAILED, rep.status[5]);
	EXPECT_EQ(IPUXCOM_INIT_NOT_RUN, rep.status[6]);
	EXPECT_EQ(IPUXCOM_INIT_NOT_RUN, rep.status[7]);
	EXPECT_NE(NULL, strstr(rep.msg, "step 5 (RESET_DEVICE)")) TH_LOG("%s", rep.msg);
	EXPECT_EQ(0, count(DRV, IPU_DRV_SET_SECONDARY_IPU_ID));
	EXPECT_EQ(0, count(MOD, IPUXCOM_IOC_RESET));
}

TEST_F(drv, reset_goes_through_ipu_driver)
{
	uint32_t state = 99;

	/* RESET_DEVICE is a notify [RE]: a reset is the whole initialisation */
	static const unsigned long want[] = {
		IPU_DRV_BUFFER_DETACH_ALL, IPU_DRV_STOP_MONITORING, IPU_DRV_MAILBOX_WRITE_READ,
		IPU_DRV_START_MONITORING, IPU_DRV_ACCUMULATE_ERRORS, IPU_DRV_RESET_DEVICE,
		IPU_DRV_SET_SECONDARY_IPU_ID,
	};

	ASSERT_EQ(0, ipuxcom_reset(self->ipu, &state));
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, state);
	ASSERT_EQ(8, fake.ncalls);
	for (int i = 0; i < 7; i++) {
		EXPECT_EQ(DRV, fake.log[i].who);
		EXPECT_EQ(want[i], fake.log[i].req) {
			TH_LOG("call %d", i);
		}
	}
	EXPECT_EQ(IPU_DRV_ICU_RESET_REQUEST, fake.log[2].words[0]);
	EXPECT_EQ(0, fake.log[5].value);
	EXPECT_EQ(IPUXCOM_IOC_RESET, fake.log[7].req);
	EXPECT_EQ(IPUXCOM_RESET_F_DRIVER_RESET, fake.log[7].flags);
	/* RESET_DEVICE refused: the module is not told it happened */
	fake.ncalls = 0;
	fake.fail_drv_req = IPU_DRV_RESET_DEVICE;
	fake.fail_drv_req_err = EIO;
	EXPECT_EQ(-EIO, ipuxcom_reset(self->ipu, &state));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(self->ipu), "RESET_DEVICE"));
	EXPECT_EQ(0, count(MOD, IPUXCOM_IOC_RESET));
}

/* The transport buffer goes to both, at the same index, address and size. */
TEST_F(drv, batches_attach_the_buffer_to_both)
{
	struct ipuxcom_load_diag diag;
	size_t size;
	void *buf;
	int a, d;

	ASSERT_EQ(0, ipuxcom_xbuf_map(self->ipu, 0, &buf, &size));
	EXPECT_EQ(IPUXCOM_XBUF_DEFAULT_SIZE, size);
	EXPECT_EQ(0, (uintptr_t)buf % 4096);
	ASSERT_EQ(0, ipuxcom_load_batch(self->ipu, 0, 0, &diag)) TH_LOG("%s",
									  ipuxcom_errmsg(self->ipu));
	ASSERT_EQ(0, ipuxcom_load_batch(self->ipu, 1, 0, &diag));
	a = find(MOD, IPUXCOM_IOC_BUF_ATTACH, 0);
	d = find(DRV, IPU_DRV_BUFFER_ATTACH, 0);
	ASSERT_LE(0, a);
	ASSERT_EQ(a + 1, d);		/* right after the module's */
	EXPECT_EQ(IPUXCOM_BUF_SLOT_LOADER, fake.log[a].index);
	EXPECT_EQ((uintptr_t)buf, fake.log[a].uaddr);
	EXPECT_EQ(size, fake.log[a].ubytes);
	EXPECT_EQ(0, fake.log[d].index);
	EXPECT_EQ((uintptr_t)buf, fake.log[d].uaddr);
	EXPECT_EQ(size, fake.log[d].bytes);
	EXPECT_EQ(d + 1, find(MOD, IPUXCOM_IOC_LOAD_BATCH, 0));
	EXPECT_EQ(1, count(MOD, IPUXCOM_IOC_BUF_ATTACH));	/* once per load */
	/* after the start: the module unpinned it, ipu_driver is told */
	fake.state = IPUXCOM_DEV_STATE_LOADING;
	ASSERT_EQ(0, ipuxcom_load_finish(self->ipu, 0, &diag));
	d = find(DRV, IPU_DRV_BUFFER_DETACH, 0);
	ASSERT_EQ(find(MOD, IPUXCOM_IOC_LOAD_FINISH, 0) + 1, d);
	EXPECT_EQ(0, fake.log[d].value);
	/* close: nothing left for the caller's session to detach */
	fake.ncalls = 0;
}

TEST_F(drv, pin_failure_names_rlimit_memlock)
{
	struct ipuxcom_load_diag diag;
	size_t size;
	void *buf;

	ASSERT_EQ(0, ipuxcom_xbuf_map(self->ipu, 1 << 20, &buf, &size));
	fake.fail_mod_req = IPUXCOM_IOC_BUF_ATTACH;
	fake.fail_mod_req_err = ENOMEM;
	EXPECT_EQ(-ENOMEM, ipuxcom_load_batch(self->ipu, 0, 0, &diag));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(self->ipu), "RLIMIT_MEMLOCK"))
		TH_LOG("%s", ipuxcom_errmsg(self->ipu));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(self->ipu), "CAP_IPC_LOCK"));
	EXPECT_EQ(0, count(DRV, IPU_DRV_BUFFER_ATTACH));
	EXPECT_EQ(0, count(MOD, IPUXCOM_IOC_LOAD_BATCH));
	/* ipu_driver refuses: the module's attach is undone */
	fake.fail_mod_req_err = 0;
	fake.fail_drv_req = IPU_DRV_BUFFER_ATTACH;
	fake.fail_drv_req_err = EINVAL;
	fake.ncalls = 0;
	EXPECT_EQ(-EINVAL, ipuxcom_load_batch(self->ipu, 0, 0, &diag));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(self->ipu), "ipu_driver BUFFER_ATTACH"));
	ASSERT_EQ(3, fake.ncalls);
	EXPECT_EQ(IPUXCOM_IOC_BUF_DETACH, fake.log[2].req);
	EXPECT_EQ(0, fake.log[2].index);
	EXPECT_EQ(0, fake.slot_addr[0]);
}

static uint8_t small_image[0x4140];

static int small_source(void *ctx, uint32_t tile, const void **image, struct ipuxcom_errmsg *em)
{
	memset(small_image, 0x5a, sizeof(small_image));
	memcpy(small_image, &tile, sizeof(tile));
	*image = small_image;
	return 0;
}

static struct ipuxcom_image *small(struct __test_metadata *_metadata)
{
	struct ipuxcom_image_pack_params pp = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = 1472, .image_size = sizeof(small_image),
		.load_base = IPUXCOM_IMG_PAYLOAD_BASE, .entry = IPUXCOM_IMG_PAYLOAD_BASE,
	};
	struct ipuxcom_image *img = NULL;
	struct ipuxcom_errmsg em = { "" };
	void *file = NULL;
	size_t len = 0;

	EXPECT_EQ(0, ipuxcom_image_pack(&pp, small_source, NULL, &file, &len, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(0, ipuxcom_image_from_buffer(file, len, &img, &em)) TH_LOG("%s", em.msg);
	free(file);
	return img;
}

/* The whole load: every syscall counted, ipu_driver's two included. */
TEST_F(drv, load_counts_its_system_calls)
{
	static const uint8_t boot[1024];
	struct ipuxcom_load_params lp = {
		.size = sizeof(struct ipuxcom_load_params),
		.bootloader = boot, .bootloader_size = sizeof(boot),
		/* the load alone: the session's other parts are counted below */
		.flags = IPUXCOM_LOAD_F_NO_INIT | IPUXCOM_LOAD_F_NO_CFG,
	};
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;

	lp.image = small(_metadata);
	ASSERT_NE(NULL, lp.image);
	ASSERT_EQ(0, ipuxcom_load(self->ipu, &lp, &res)) TH_LOG("%s", res.msg);
	/* query, AUTOLOAD, mmap, BUF_ATTACH + BUFFER_ATTACH, 23 batches, FINISH + BUFFER_DETACH */
	EXPECT_EQ(30, res.syscalls);
	EXPECT_EQ(29, fake.ncalls);	/* all but the mmap */
	EXPECT_EQ(23, count(MOD, IPUXCOM_IOC_LOAD_BATCH));
	EXPECT_EQ(1, count(DRV, IPU_DRV_BUFFER_ATTACH));
	EXPECT_EQ(1, count(DRV, IPU_DRV_BUFFER_DETACH));
	EXPECT_LT(find(MOD, IPUXCOM_IOC_AUTOLOAD, 0), find(MOD, IPUXCOM_IOC_BUF_ATTACH, 0));
	/* a second load keeps the buffer: no mmap */
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	fake.ncalls = 0;
	ASSERT_EQ(0, ipuxcom_load(self->ipu, &lp, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(29, res.syscalls);
	EXPECT_EQ(29, fake.ncalls);
	ipuxcom_image_free((struct ipuxcom_image *)lp.image);
}

/* ---------------------------------------------- the session of the record */

/* Two records of a capture: CCSR, then the GS1 mark the real one ends with. */
static const struct ipuxcom_cfg_record two_records[] = {
	{ 0x2000, 0x402 }, { 0x302c, 1 },
};

/*
 * ipuxcom_load() of a small image with @flags and @ncfg of two_records[]
 * on @ipu, the device left running by an earlier load and the call log
 * started afresh; 0 or -errno, *@res filled.
 */
static int session_load_from(struct __test_metadata *_metadata, struct ipuxcom *ipu,
			     uint32_t state, uint32_t flags, uint32_t ncfg,
			     struct ipuxcom_load_result *res)
{
	static const uint8_t boot[1024];
	struct ipuxcom_load_params lp = {
		.size = sizeof(struct ipuxcom_load_params),
		.bootloader = boot, .bootloader_size = sizeof(boot),
		.cfg = ncfg ? two_records : NULL, .cfg_count = ncfg, .flags = flags,
	};
	struct ipuxcom_load_result r = IPUXCOM_LOAD_RESULT_INIT;
	int err;

	lp.image = small(_metadata);
	if (!lp.image)
		return -ENOMEM;
	fake.state = state;
	fake.ncalls = 0;
	err = ipuxcom_load(ipu, &lp, &r);
	*res = r;
	ipuxcom_image_free((struct ipuxcom_image *)lp.image);
	return err;
}

/* The same from a running device, which the default initialisation resets. */
static int session_load(struct __test_metadata *_metadata, struct ipuxcom *ipu, uint32_t flags,
			uint32_t ncfg, struct ipuxcom_load_result *res)
{
	return session_load_from(_metadata, ipu, IPUXCOM_DEV_STATE_RUNNING, flags, ncfg, res);
}

/*
 * By default a load on a card is the record's session (HW-LOAD): step 1's
 * initialisation from driver-idle, the module's RESET, then the config
 * replay (GS1/GS2 records cleared, the hardware-proven order), then the
 * autoloader; every call counted.
 */
TEST_F(drv, card_load_is_the_recorded_session)
{
	static const unsigned long order[] = {
		IPUXCOM_IOC_DEV_QUERY, IPU_DRV_STOP_MONITORING, IPU_DRV_MAILBOX_WRITE_READ,
		IPU_DRV_START_MONITORING, IPU_DRV_ACCUMULATE_ERRORS, IPU_DRV_RESET_DEVICE,
		IPU_DRV_SET_SECONDARY_IPU_ID, IPUXCOM_IOC_RESET, IPUXCOM_IOC_CFG_APPLY,
		IPUXCOM_IOC_AUTOLOAD,
	};
	struct ipuxcom_load_result res;

	ASSERT_EQ(0, session_load(_metadata, self->ipu, 0, 2, &res)) TH_LOG("%s", res.msg);
	ASSERT_LT((int)(sizeof(order) / sizeof(order[0])), fake.ncalls);
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		EXPECT_EQ(order[k], fake.log[k].req) TH_LOG("call %zu", k);
	}
	EXPECT_EQ(IPU_DRV_ICU_RESET_REQUEST, fake.log[2].words[0]);
	EXPECT_EQ(IPUXCOM_RESET_F_DRIVER_RESET, fake.log[7].flags);
	EXPECT_EQ(IPUXCOM_CFG_F_CLEAR_HSP, fake.log[8].flags);
	EXPECT_EQ(2, fake.log[8].bytes);
	EXPECT_EQ((uintptr_t)two_records, fake.log[8].uaddr);
	/* 30 for the load (load_counts_its_system_calls), 7 init, 1 config */
	EXPECT_EQ(38, res.syscalls);
	EXPECT_EQ(37, fake.ncalls);	/* all but the mmap */
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, fake.state);
}

/*
 * No config and no opt-out on a card: refused after the device query,
 * with nothing sent to the card (no ipu_driver call, no module command),
 * the message naming what is missing and both ways out.
 */
TEST_F(drv, card_load_without_cfg_is_refused_before_anything)
{
	struct ipuxcom_load_result res;

	EXPECT_EQ(-EINVAL, session_load(_metadata, self->ipu, 0, 0, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_CHECK, res.step);
	ASSERT_EQ(1, fake.ncalls);
	EXPECT_EQ(IPUXCOM_IOC_DEV_QUERY, fake.log[0].req);
	EXPECT_EQ(0, strncmp(res.msg, "cfg: none given", 15)) TH_LOG("%s", res.msg);
	EXPECT_NE(NULL, strstr(res.msg, "config capture")) TH_LOG("%s", res.msg);
	EXPECT_NE(NULL, strstr(res.msg, "IPUXCOM_LOAD_F_NO_CFG")) TH_LOG("%s", res.msg);
	EXPECT_NE(NULL, strstr(res.msg, "nothing was sent")) TH_LOG("%s", res.msg);
	/* ... also when the init is skipped: the rule is the config's */
	EXPECT_EQ(-EINVAL, session_load(_metadata, self->ipu, IPUXCOM_LOAD_F_NO_INIT, 0, &res));
	EXPECT_EQ(1, fake.ncalls);
}

/* Each opt-out skips exactly its part of the session, and nothing else. */
TEST_F(drv, opt_outs_skip_exactly_their_part)
{
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;

	/* no init: the config replay and the load, no ipu_driver step, no RESET */
	ASSERT_EQ(0, session_load_from(_metadata, self->ipu, IPUXCOM_DEV_STATE_IDLE,
				       IPUXCOM_LOAD_F_NO_INIT, 2, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(0, count(DRV, IPU_DRV_STOP_MONITORING));
	EXPECT_EQ(0, count(DRV, IPU_DRV_MAILBOX_WRITE_READ));
	EXPECT_EQ(0, count(MOD, IPUXCOM_IOC_RESET));
	EXPECT_EQ(1, find(MOD, IPUXCOM_IOC_CFG_APPLY, 0));
	EXPECT_EQ(31, res.syscalls);
	/* no init on a running device: the module's state rule stops the config */
	EXPECT_EQ(-EBADFD, session_load(_metadata, self->ipu, IPUXCOM_LOAD_F_NO_INIT, 2, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_CFG, res.step);

	/* no config: the initialisation and the load, no CFG_APPLY */
	ASSERT_EQ(0, session_load(_metadata, self->ipu, IPUXCOM_LOAD_F_NO_CFG, 0, &res))
		TH_LOG("%s", res.msg);
	EXPECT_EQ(1, count(DRV, IPU_DRV_MAILBOX_WRITE_READ));
	EXPECT_EQ(1, count(MOD, IPUXCOM_IOC_RESET));
	EXPECT_EQ(0, count(MOD, IPUXCOM_IOC_CFG_APPLY));
	EXPECT_LT(find(MOD, IPUXCOM_IOC_RESET, 0), find(MOD, IPUXCOM_IOC_AUTOLOAD, 0));
	EXPECT_EQ(36, res.syscalls);

	/* both: the load alone */
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	ASSERT_EQ(0, session_load_from(_metadata, self->ipu, IPUXCOM_DEV_STATE_IDLE,
				       IPUXCOM_LOAD_F_NO_INIT | IPUXCOM_LOAD_F_NO_CFG, 0, &res))
		TH_LOG("%s", res.msg);
	EXPECT_EQ(0, count(MOD, IPUXCOM_IOC_RESET));
	EXPECT_EQ(0, count(MOD, IPUXCOM_IOC_CFG_APPLY));
	EXPECT_EQ(IPUXCOM_IOC_DEV_QUERY, fake.log[0].req);
	EXPECT_EQ(IPUXCOM_IOC_AUTOLOAD, fake.log[1].req);
}

/* Unknown flags, and an opt-out that contradicts the config given: refused, nothing sent. */
TEST_F(drv, bad_load_flags_are_refused_by_name)
{
	struct ipuxcom_load_result res;

	EXPECT_EQ(-EINVAL, session_load(_metadata, self->ipu, 1u << 7, 2, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_CHECK, res.step);
	EXPECT_EQ(0, fake.ncalls);
	EXPECT_EQ(0, strncmp(res.msg, "flags 0x80: bits 0x80", 21)) TH_LOG("%s", res.msg);
	EXPECT_EQ(-EINVAL, session_load(_metadata, self->ipu, IPUXCOM_LOAD_F_NO_CFG, 2, &res));
	EXPECT_EQ(0, fake.ncalls);
	EXPECT_NE(NULL, strstr(res.msg, "IPUXCOM_LOAD_F_NO_CFG with a config of 2 records"))
		TH_LOG("%s", res.msg);
}

/* A failing initialisation stops the load at STEP_INIT, before the config, with the step. */
TEST_F(drv, failed_init_stops_the_load_before_the_config)
{
	struct ipuxcom_load_result res;

	fake.fail_drv_req = IPU_DRV_ACCUMULATE_ERRORS;
	fake.fail_drv_req_err = EIO;
	EXPECT_EQ(-EIO, session_load(_metadata, self->ipu, 0, 2, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_INIT, res.step);
	EXPECT_EQ(0, count(MOD, IPUXCOM_IOC_CFG_APPLY));
	EXPECT_EQ(0, count(MOD, IPUXCOM_IOC_AUTOLOAD));
	EXPECT_NE(NULL, strstr(res.msg, "initialisation: step 4 (ACCUMULATE_ERRORS)"))
		TH_LOG("%s", res.msg);
	EXPECT_EQ(5, res.syscalls);	/* the query and steps 1-4 */
}

static const char oracle[] =
	"ipuhsp 1\n"
	"page 0 size 4096\n"
	"page 1 size 8192\n"
	"attach 1 0\n"
	"command page 1 offset 0x0\n"
	"call run id 0 phases 2\n"
	"input run page 0 offset 0x40 size 64\n"
	"end\n";

TEST_F(drv, hostx_stages_around_ordered_attaches)
{
	struct ipuxcom_hsp_manifest m;
	struct ipuxcom_errmsg em;
	uint8_t in[64] = { 7 };
	struct ipuxcom_hostx_buf ib = { in, sizeof(in) };
	int b, c;

	ASSERT_EQ(0, ipuxcom_hsp_parse(oracle, sizeof(oracle) - 1, &m, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_hostx_setup(self->ipu, &m, 0, &em)) TH_LOG("%s", em.msg);
	/* BEGIN; page 1 to both; page 0 to both; COMMIT */
	ASSERT_EQ(6, fake.ncalls);
	b = find(MOD, IPUXCOM_IOC_HOSTX_SETUP, 0);
	c = find(MOD, IPUXCOM_IOC_HOSTX_SETUP, 1);
	EXPECT_EQ(0, b);
	EXPECT_EQ(5, c);
	EXPECT_EQ(IPUXCOM_HOSTX_F_BEGIN, fake.log[b].flags);
	EXPECT_EQ(IPUXCOM_HOSTX_F_COMMIT, fake.log[c].flags);
	EXPECT_EQ(IPUXCOM_IOC_BUF_ATTACH, fake.log[1].req);
	EXPECT_EQ(IPUXCOM_BUF_SLOT_HOSTX(1), fake.log[1].index);
	EXPECT_EQ(8192, fake.log[1].ubytes);
	EXPECT_EQ(IPU_DRV_BUFFER_ATTACH, fake.log[2].req);
	/* page i at ipu_driver index i, as the peer attaches them [RE, S] */
	EXPECT_EQ(1, fake.log[2].index);
	EXPECT_EQ(fake.log[1].uaddr, fake.log[2].uaddr);
	EXPECT_EQ(8192, fake.log[2].bytes);
	EXPECT_EQ(IPUXCOM_BUF_SLOT_HOSTX(0), fake.log[3].index);
	EXPECT_EQ(4096, fake.log[3].ubytes);
	EXPECT_EQ(IPU_DRV_BUFFER_ATTACH, fake.log[4].req);
	EXPECT_EQ(0, fake.log[4].index);
	/* the call writes the library's page 0 itself: the module's pin sees it */
	ASSERT_EQ(0, ipuxcom_hostx_call(self->ipu, &m, "run", &ib, 1, NULL, 0, 0, &em))
		TH_LOG("%s", em.msg);
	EXPECT_EQ(7, ((uint8_t *)(uintptr_t)fake.slot_addr[IPUXCOM_BUF_SLOT_HOSTX(0)])[0x40]);
	/* reset: the pages are forgotten */
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	EXPECT_EQ(-ENOBUFS, ipuxcom_hostx_call(self->ipu, &m, "run", &ib, 1, NULL, 0, 0, &em));
}

TEST_F(drv, hostx_failure_detaches_what_it_attached)
{
	struct ipuxcom_hsp_manifest m;
	struct ipuxcom_errmsg em;

	ASSERT_EQ(0, ipuxcom_hsp_parse(oracle, sizeof(oracle) - 1, &m, &em));
	fake.fail_drv_req = IPU_DRV_BUFFER_ATTACH;
	fake.fail_drv_req_err = ENOMEM;
	EXPECT_EQ(-ENOMEM, ipuxcom_hostx_setup(self->ipu, &m, 0, &em));
	EXPECT_NE(NULL, strstr(em.msg, "host page 1")) TH_LOG("%s", em.msg);
	EXPECT_EQ(0, count(MOD, IPUXCOM_IOC_HOSTX_SETUP) - 1);	/* BEGIN only */
	EXPECT_EQ(0, fake.slot_addr[IPUXCOM_BUF_SLOT_HOSTX(1)]);
	/* and can be set up again after the reset the device needs */
	fake.fail_drv_req_err = 0;
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	EXPECT_EQ(0, ipuxcom_hostx_setup(self->ipu, &m, 0, &em)) TH_LOG("%s", em.msg);
}

TEST_F(drv, exchange_window_stores_between_select_and_complete)
{
	uint32_t words[64], tileupdr = 0;
	int s, c;

	for (int i = 0; i < 64; i++)
		words[i] = 0xc0de0000u | (uint32_t)i;
	fake.exch_expect = words;
	ASSERT_EQ(0, ipuxcom_exch_write(self->ipu, 5, 0x4c100, words, sizeof(words), 0, &tileupdr))
		TH_LOG("%s", ipuxcom_errmsg(self->ipu));
	s = find(MOD, IPUXCOM_IOC_EXCH_WRITE, 0);
	c = find(MOD, IPUXCOM_IOC_EXCH_WRITE, 1);
	ASSERT_LE(0, s);
	ASSERT_LE(0, c);
	/* SET_HEXOPT_IDENTITY_TABLE on /dev/ipuN first [S] */
	EXPECT_EQ(DRV, fake.log[0].who);
	EXPECT_EQ(IPU_DRV_SET_HEXOPT_IDENTITY_TABLE, fake.log[0].req);
	EXPECT_EQ(0, fake.log[0].value);
	EXPECT_LT(0, s);
	EXPECT_EQ(IPUXCOM_EXCH_F_SELECT, fake.log[s].flags);
	EXPECT_EQ(0, fake.log[s].data);
	EXPECT_EQ(IPUXCOM_EXCH_F_COMPLETE, fake.log[c].flags);
	EXPECT_EQ(0, fake.log[c].data);
	for (int k = 0; k < 2; k++) {
		const struct call *e = &fake.log[k ? c : s];

		EXPECT_EQ(5, e->tile);
		EXPECT_EQ(0x4c100, e->addr);
		EXPECT_EQ(sizeof(words), e->bytes);
	}
	EXPECT_FALSE(fake.exch_data_seen_at_select);
	EXPECT_TRUE(fake.exch_data_ok_at_complete);
	EXPECT_EQ(5u << 17, tileupdr);
	/* the mapping is made once */
	ASSERT_EQ(0, ipuxcom_exch_write(self->ipu, 5, 0x4c100, words, 4, 0, NULL));
	/* outside tile SRAM: refused before anything is issued */
	fake.ncalls = 0;
	EXPECT_EQ(-EINVAL, ipuxcom_exch_write(self->ipu, 5, 0x4b000, words, 4, 0, NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_exch_write(self->ipu, 5, 0x4c000 + 624 * 1024 - 4, words, 8,
					      0, NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_exch_write(self->ipu, 5, 0x4c002, words, 4, 0, NULL));
	EXPECT_EQ(0, fake.ncalls);
	EXPECT_EQ(0, ipuxcom_exch_write(self->ipu, 5, 0x4c000 + 624 * 1024 - 4, words, 4, 0, NULL));
}

/* A file of @bytes in @dir whose first word is @mark. */
static int fake_file(const char *dir, const char *name, size_t bytes, uint32_t mark)
{
	char path[PATH_MAX];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)bytes) || pwrite(fd, &mark, sizeof(mark), 0) != sizeof(mark))
		ret = -1;
	close(fd);
	return ret;
}

static void rm_dir(const char *dir)
{
	static const char *const names[] = { "ipu0", "ipu1", "ipu1_ex", "ipu10", "ipux", "ipu2_mem" };
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

/*
 * ipuxcom_attach() on a card: which /dev/ipuN is the device's is found
 * by probing each ipu<N> node's mapping with the module, never by sysfs;
 * only then is ipu_driver's session taken there (USER_ATTACH, SET_IPU_ID
 * as the record does), /dev/ipuN_ex mapped, and ATTACH given both.
 */
TEST(attach_finds_the_node_by_its_mapping)
{
	char dir[] = "/tmp/ixt_ipudrv_XXXXXX";
	struct ipuxcom *ipu;
	int probes = 0, last;

	ASSERT_NE(NULL, mkdtemp(dir));
	/* ipu0: another card; ipu1: this one; ipu10: never reached; the rest are not config nodes */
	ASSERT_EQ(0, fake_file(dir, "ipu0", 0x80000, 0));
	ASSERT_EQ(0, fake_file(dir, "ipu1", 0x80000, FAKE_CFG_MARK));
	ASSERT_EQ(0, fake_file(dir, "ipu1_ex", IXC_IPUDRV_EX_MAP_BYTES, 0));
	ASSERT_EQ(0, fake_file(dir, "ipu10", 0x80000, FAKE_CFG_MARK));
	ASSERT_EQ(0, fake_file(dir, "ipux", 0x80000, FAKE_CFG_MARK));
	ASSERT_EQ(0, fake_file(dir, "ipu2_mem", 0x80000, FAKE_CFG_MARK));
	memset(&fake, 0, sizeof(fake));
	fake.drv_fd = fake.ex_fd = -1;
	fake.ipu_driver = true;
	fake.drv_any = true;
	ixc_ipudrv_dev_dir = dir;
	ASSERT_EQ(0, ipuxcom_open("/dev/null", &ipu));
	fake.mod_fd = ipuxcom_fd(ipu);
	ASSERT_EQ(0, ipuxcom_attach(ipu, 0)) TH_LOG("%s", ipuxcom_errmsg(ipu));
	EXPECT_LE(0, ipuxcom_ipu_fd(ipu));
	for (int i = 0; i < fake.ncalls; i++)
		probes += fake.log[i].who == MOD && fake.log[i].req == IPUXCOM_IOC_ATTACH &&
			  (fake.log[i].flags & IPUXCOM_ATTACH_F_PROBE);
	/* ipu0 (refused), then ipu1; ipu10 comes after and is never opened */
	EXPECT_EQ(2, probes);
	/* the session taken only on the node found, after the probes */
	EXPECT_EQ(1, count(DRV, IPU_DRV_USER_ATTACH));
	EXPECT_EQ(1, count(DRV, IPU_DRV_SET_IPU_ID));
	EXPECT_LT(find(MOD, IPUXCOM_IOC_ATTACH, 2), find(DRV, IPU_DRV_USER_ATTACH, 0));
	last = find(MOD, IPUXCOM_IOC_ATTACH, 3);
	ASSERT_LE(0, last);
	EXPECT_GT(last, find(DRV, IPU_DRV_SET_IPU_ID, 0));
	EXPECT_EQ(IPUXCOM_ATTACH_F_IPU_FD | IPUXCOM_ATTACH_F_EX_FD, fake.log[last].flags);
	EXPECT_NE(0, fake.log[last].data);
	EXPECT_EQ(IXC_IPUDRV_EX_MAP_BYTES, fake.log[last].ubytes);
	ipuxcom_close(ipu);

	/* ipu_driver says another user holds the card: nothing is attached */
	fake.ncalls = 0;
	fake.fail_drv_req = IPU_DRV_USER_ATTACH;
	fake.fail_drv_req_err = EBUSY;
	ASSERT_EQ(0, ipuxcom_open("/dev/null", &ipu));
	fake.mod_fd = ipuxcom_fd(ipu);
	EXPECT_EQ(-EBUSY, ipuxcom_attach(ipu, 0));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(ipu), "held by another ipu_driver user"))
		TH_LOG("%s", ipuxcom_errmsg(ipu));
	EXPECT_EQ(-1, find(MOD, IPUXCOM_IOC_ATTACH, 3));
	EXPECT_EQ(-ENODEV, ipuxcom_ipu_fd(ipu));
	ipuxcom_close(ipu);
	fake.fail_drv_req_err = 0;

	/* no node maps the device's registers: each one named */
	rm_dir(dir);
	ASSERT_NE(NULL, mkdtemp(strcpy(dir, "/tmp/ixt_ipudrv_XXXXXX")));
	ASSERT_EQ(0, fake_file(dir, "ipu0", 0x80000, 0));
	ASSERT_EQ(0, ipuxcom_open("/dev/null", &ipu));
	fake.mod_fd = ipuxcom_fd(ipu);
	EXPECT_EQ(-ENODEV, ipuxcom_attach(ipu, 0));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(ipu), "none of the 1 ipu<N> node(s)"))
		TH_LOG("%s", ipuxcom_errmsg(ipu));
	ipuxcom_close(ipu);
	/* no node at all */
	rm_dir(dir);
	ASSERT_NE(NULL, mkdtemp(strcpy(dir, "/tmp/ixt_ipudrv_XXXXXX")));
	ASSERT_EQ(0, ipuxcom_open("/dev/null", &ipu));
	fake.mod_fd = ipuxcom_fd(ipu);
	EXPECT_EQ(-ENODEV, ipuxcom_attach(ipu, 0));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(ipu), "has no ipu<N> node"))
		TH_LOG("%s", ipuxcom_errmsg(ipu));
	ipuxcom_close(ipu);
	rm_dir(dir);
	ixc_ipudrv_dev_dir = "/dev";
}

/* A load by default on a device not held through ipu_driver: RESET, no config. */
static void plain_load(struct __test_metadata *_metadata, struct ipuxcom *ipu)
{
	static const uint8_t boot[1024];
	struct ipuxcom_load_params lp = {
		.size = sizeof(struct ipuxcom_load_params),
		.bootloader = boot, .bootloader_size = sizeof(boot),
	};
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;

	lp.image = small(_metadata);
	ASSERT_NE(NULL, lp.image);
	fake.state = IPUXCOM_DEV_STATE_RUNNING;
	fake.ncalls = 0;
	ASSERT_EQ(0, ipuxcom_load(ipu, &lp, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(IPUXCOM_IOC_DEV_QUERY, fake.log[0].req);
	EXPECT_EQ(IPUXCOM_IOC_RESET, fake.log[1].req);
	EXPECT_EQ(0, fake.log[1].flags);
	EXPECT_EQ(IPUXCOM_IOC_AUTOLOAD, fake.log[2].req);
	EXPECT_EQ(0, count(MOD, IPUXCOM_IOC_CFG_APPLY));
	ipuxcom_image_free((struct ipuxcom_image *)lp.image);
}

/* A device not held through ipu_driver: init is a plain reset, no ipu_driver call. */
TEST(init_on_a_plain_device)
{
	struct ipuxcom_init_report rep = IPUXCOM_INIT_REPORT_INIT;
	struct ipuxcom *ipu;

	memset(&fake, 0, sizeof(fake));
	fake.drv_fd = fake.ex_fd = -1;
	ASSERT_EQ(0, ipuxcom_open("/dev/null", &ipu));
	fake.mod_fd = ipuxcom_fd(ipu);
	ASSERT_EQ(0, ipuxcom_attach(ipu, 0));
	EXPECT_EQ(-ENODEV, ipuxcom_ipu_fd(ipu));
	fake.ncalls = 0;
	ASSERT_EQ(0, ipuxcom_dev_init(ipu, &rep)) TH_LOG("%s", rep.msg);
	ASSERT_EQ(1, fake.ncalls);
	EXPECT_EQ(IPUXCOM_IOC_RESET, fake.log[0].req);
	EXPECT_EQ(0, fake.log[0].flags);
	EXPECT_EQ(0, rep.ipu_driver);
	EXPECT_STREQ("", rep.ipu_node);
	for (uint32_t s = 1; s <= 6; s++) {
		EXPECT_EQ(IPUXCOM_INIT_NOT_APPLICABLE, rep.status[s]);
	}
	EXPECT_EQ(IPUXCOM_INIT_DONE, rep.status[7]);
	EXPECT_EQ(0, rep.icu_reply_valid);
	/*
	 * and a load by default: the initialisation (the RESET) first, and
	 * no config needed (IPUXCOM_CAP_IPU_DRIVER not reported)
	 */
	plain_load(_metadata, ipu);
	/* and the plain exchange-window write: one ioctl with the data */
	fake.ncalls = 0;
	EXPECT_EQ(0, ipuxcom_exch_write(ipu, 1, 0x4c000, &rep, 4, 0, NULL));
	ASSERT_EQ(1, fake.ncalls);
	EXPECT_EQ(0, fake.log[0].flags);
	EXPECT_EQ((uintptr_t)&rep, fake.log[0].data);
	ipuxcom_close(ipu);
}

TEST_HARNESS_MAIN
