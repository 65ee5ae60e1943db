// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl ABI rules of uapi/linux/ipuxcom.h, each with a negative test:
 * size handling (too small, larger with zero / non-zero tail), unknown
 * flags, reserved members, unknown commands, bad pointers, and that output
 * structs are written completely (no stale or kernel bytes).
 */
#include "kselftest_harness.h"

#include <stddef.h>
#include <sys/mman.h>

#include "ipuxcom_test.h"

/*
 * Every command, with the size of its struct and the smallest size the
 * module accepts (the struct as the command was introduced), for the
 * table-driven tests.
 */
#define CMD(c, type) { #c, IPUXCOM_IOC_##c, sizeof(struct type), sizeof(struct type) }
static const struct {
	const char *name;
	unsigned long cmd;
	uint32_t size;
	uint32_t min;
} commands[] = {
	CMD(INFO, ipuxcom_ioc_info),
	/* uapi 6 appended the holder's mappings: a uapi 4 caller's 16 bytes still work */
	{ "ATTACH", IPUXCOM_IOC_ATTACH, sizeof(struct ipuxcom_ioc_attach),
	  offsetof(struct ipuxcom_ioc_attach, cfg_map) },
	/*
	 * uapi 2 appended capabilities, uapi 4 ipu_node: a uapi 1 caller's
	 * 40 bytes still work
	 */
	{ "DEV_QUERY", IPUXCOM_IOC_DEV_QUERY, sizeof(struct ipuxcom_ioc_dev_query),
	  offsetof(struct ipuxcom_ioc_dev_query, capabilities) },
	CMD(REG_READ, ipuxcom_ioc_reg),
	CMD(REG_WRITE, ipuxcom_ioc_reg),
	CMD(RESET, ipuxcom_ioc_reset),
	/* uapi 3 appended hsp_reg and hsp_mark: a uapi 2 caller's 32 bytes still work */
	{ "CFG_APPLY", IPUXCOM_IOC_CFG_APPLY, sizeof(struct ipuxcom_ioc_cfg_apply),
	  offsetof(struct ipuxcom_ioc_cfg_apply, hsp_reg) },
	CMD(AUTOLOAD, ipuxcom_ioc_autoload),
	CMD(LOAD_BATCH, ipuxcom_ioc_load_batch),
	CMD(LOAD_FINISH, ipuxcom_ioc_load_finish),
	CMD(HSP_MARK, ipuxcom_ioc_hsp_mark),
	CMD(TDI_READ_REGS, ipuxcom_ioc_tdi_regs),
	CMD(TDI_EXEC, ipuxcom_ioc_tdi_exec),
	CMD(TDI_READ_SRAM, ipuxcom_ioc_tdi_sram),
	CMD(TDI_WRITE_SRAM, ipuxcom_ioc_tdi_sram),
	CMD(HOSTX_SETUP, ipuxcom_ioc_hostx_setup),
	CMD(HOSTX_CALL, ipuxcom_ioc_hostx_call),
	CMD(EXCH_WRITE, ipuxcom_ioc_exch_write),
	CMD(BUF_ATTACH, ipuxcom_ioc_buf),
	CMD(BUF_DETACH, ipuxcom_ioc_buf),
};
#undef CMD

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

FIXTURE(abi) {
	int fd;
};

FIXTURE_SETUP(abi)
{
	self->fd = -1;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	self->fd = ixt_open();
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", ixt_dev_path(), strerror(errno));
}

FIXTURE_TEARDOWN(abi)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(abi, info_reports_module)
{
	struct ipuxcom_ioc_info info;

	ASSERT_EQ(0, ixt_info(self->fd, &info));
	EXPECT_EQ(IPUXCOM_UAPI_VERSION, info.uapi_version);
	EXPECT_LE(1, info.device_count);
	EXPECT_EQ(IPUXCOM_CAP_ATTACH, info.capabilities & IPUXCOM_CAP_ATTACH);
	EXPECT_EQ(IPUXCOM_CAP_NETLINK, info.capabilities & IPUXCOM_CAP_NETLINK);
	EXPECT_EQ(0x80000, info.max_config_bar);
	EXPECT_EQ(sizeof(info), info.size);
}

/* Outputs are overwritten whatever the caller left in them. */
TEST_F(abi, info_overwrites_every_output)
{
	struct ipuxcom_ioc_info clean, info;

	ASSERT_EQ(0, ixt_info(self->fd, &clean));
	memset(&info, 0xa5, sizeof(info));
	info.size = sizeof(info);
	info.flags = 0;
	/* reserved is the one input besides size and flags: it must be zero */
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_INFO, &info));
	info.reserved = 0;
	ASSERT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_INFO, &info));
	/* Byte-identical to the call made with zeroed outputs. */
	EXPECT_EQ(0, memcmp(&clean, &info, sizeof(info)));
	EXPECT_EQ(0, info.reserved);
}

/* DEV_QUERY's backend name is NUL-padded to its full length. */
TEST_F(abi, dev_query_pads_backend_name)
{
	struct ipuxcom_ioc_dev_query q;
	size_t len;

	ASSERT_EQ(0, ixt_attach(self->fd, ixt_dev_id()));
	memset(&q, 0xa5, sizeof(q));
	q.size = sizeof(q);
	q.flags = 0;
	ASSERT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_DEV_QUERY, &q));
	len = strnlen(q.backend, sizeof(q.backend));
	ASSERT_LT(len, sizeof(q.backend));
	for (size_t i = len; i < sizeof(q.backend); i++) {
		EXPECT_EQ(0, q.backend[i]) TH_LOG("backend[%zu] not zeroed", i);
	}
}

TEST_F(abi, unknown_flags_rejected)
{
	unsigned char buf[256];

	for (size_t c = 0; c < NCOMMANDS; c++) {
		for (int bit = 0; bit < 32; bit++) {
			/* the flags a command defines are tested with the command */
			if ((commands[c].cmd == IPUXCOM_IOC_HSP_MARK && bit == 0) ||
			    (commands[c].cmd == IPUXCOM_IOC_TDI_EXEC && bit == 0) ||
			    (commands[c].cmd == IPUXCOM_IOC_ATTACH && bit == 0) ||
			    (commands[c].cmd == IPUXCOM_IOC_RESET && bit == 0) ||
			    (commands[c].cmd == IPUXCOM_IOC_HOSTX_SETUP && bit <= 1) ||
			    (commands[c].cmd == IPUXCOM_IOC_EXCH_WRITE && bit <= 1) ||
			    (commands[c].cmd == IPUXCOM_IOC_CFG_APPLY && bit <= 1))
				continue;
			memset(buf, 0, sizeof(buf));
			((uint32_t *)buf)[0] = commands[c].size;
			((uint32_t *)buf)[1] = 1u << bit;
			EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, commands[c].cmd, buf))
				TH_LOG("%s flags bit %d", commands[c].name, bit);
		}
	}
}

TEST_F(abi, reserved_must_be_zero)
{
	struct ipuxcom_ioc_attach at = {
		.size = sizeof(at), .dev_id = ixt_dev_id(), .ipu_fd = 1,
	};
	struct ipuxcom_ioc_dev_query q;

	/* ipu_fd is read only with IPUXCOM_ATTACH_F_IPU_FD */
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_ATTACH, &at));
	/* The rejected ATTACH left the file unattached. */
	EXPECT_EQ(-ENOTCONN, ixt_query(self->fd, &q));
}

/* ATTACH of device @dev with the /dev/ipuN descriptor @ipu_fd and its mapping @map. */
static int attach_with_ipu_fd(int fd, uint32_t dev, int ipu_fd, const void *map)
{
	struct ipuxcom_ioc_attach at = {
		.size = sizeof(at), .flags = IPUXCOM_ATTACH_F_IPU_FD, .dev_id = dev,
		.ipu_fd = ipu_fd, .cfg_map = (uintptr_t)map,
	};

	return ixt_ioctl(fd, IPUXCOM_IOC_ATTACH, &at);
}

/*
 * A device not held through ipu_driver (the simulator) takes no /dev/ipuN
 * descriptor, and a descriptor that is not open is refused first.
 */
TEST_F(abi, attach_ipu_fd_rules_on_a_plain_device)
{
	struct ipuxcom_ioc_dev_query q;
	int null, ret;

	IXT_REQUIRE_SIM();
	EXPECT_EQ(-EBADF, attach_with_ipu_fd(self->fd, ixt_dev_id(), -1, NULL));
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, null);
	/* no mapping: refused before the device is looked at */
	ret = attach_with_ipu_fd(self->fd, ixt_dev_id(), null, NULL);
	EXPECT_EQ(-EINVAL, ret);
	/* a mapping that is not that file's */
	ret = attach_with_ipu_fd(self->fd, ixt_dev_id(), null, (void *)(uintptr_t)0x10000);
	close(null);
	EXPECT_EQ(-EXDEV, ret);
	EXPECT_EQ(-ENOTCONN, ixt_query(self->fd, &q));
	ASSERT_EQ(0, ixt_attach(self->fd, ixt_dev_id()));
	ASSERT_EQ(0, ixt_query(self->fd, &q));
	EXPECT_EQ(0, (int)!!(q.capabilities & IPUXCOM_CAP_IPU_DRIVER));
	EXPECT_EQ(0, q.ipu_node[0]);
}

TEST_F(abi, unknown_command_is_enotty)
{
	struct ipuxcom_ioc_info info = { .size = sizeof(info) };

	EXPECT_EQ(-ENOTTY, ixt_ioctl(self->fd, _IO(IPUXCOM_IOC_MAGIC, 0x3f), &info));
	EXPECT_EQ(-ENOTTY, ixt_ioctl(self->fd, _IO(IPUXCOM_IOC_MAGIC, 0xff), &info));
	EXPECT_EQ(-ENOTTY, ixt_ioctl(self->fd, _IO(IPUXCOM_IOC_MAGIC + 1, 0), &info));
	/* A size or direction in the command word is not ours either. */
	EXPECT_EQ(-ENOTTY, ixt_ioctl(self->fd, _IOWR(IPUXCOM_IOC_MAGIC, 0, struct ipuxcom_ioc_info),
				     &info));
	EXPECT_EQ(-ENOTTY, ixt_ioctl(self->fd, _IOR(IPUXCOM_IOC_MAGIC, 0, __u32), &info));
}

TEST_F(abi, short_size_rejected)
{
	unsigned char buf[256];

	for (size_t c = 0; c < NCOMMANDS; c++) {
		uint32_t sizes[] = { 0, 4, 8, commands[c].min - 4, commands[c].min - 1 };

		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			memset(buf, 0, sizeof(buf));
			((uint32_t *)buf)[0] = sizes[s];
			EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, commands[c].cmd, buf))
				TH_LOG("%s size %u", commands[c].name, sizes[s]);
		}
	}
}

/* A newer caller's longer struct works when its tail is zero ... */
TEST_F(abi, longer_struct_zero_tail_accepted)
{
	struct {
		struct ipuxcom_ioc_info info;
		uint32_t tail[16];
	} big;

	memset(&big, 0, sizeof(big));
	big.info.size = sizeof(big);
	ASSERT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_INFO, &big));
	EXPECT_EQ(IPUXCOM_UAPI_VERSION, big.info.uapi_version);
	/* ... and the kernel writes nothing past what it knows. */
	for (int i = 0; i < 16; i++)
		EXPECT_EQ(0, big.tail[i]);
	EXPECT_EQ(sizeof(big), big.info.size);
}

/*
 * A struct declared larger than a page is refused whatever its tail, as
 * openat2(2) and clone3(2) do; and the node maps nothing (host buffers
 * are the caller's memory since uapi 4).
 */
TEST_F(abi, struct_over_a_page_e2big_and_no_mmap)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *big = calloc(1, 2 * page);
	void *map;

	ASSERT_NE(NULL, big);
	((uint32_t *)big)[0] = (uint32_t)page + 8;
	EXPECT_EQ(-E2BIG, ixt_ioctl(self->fd, IPUXCOM_IOC_INFO, big));
	((uint32_t *)big)[0] = (uint32_t)page;
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_INFO, big));
	free(big);
	ASSERT_EQ(0, ixt_attach(self->fd, ixt_dev_id()));
	map = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, map);
	map = mmap(NULL, page, PROT_READ, MAP_PRIVATE, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, map);
}

/* ... and fails with E2BIG, unmodified, when the tail is not zero. */
TEST_F(abi, longer_struct_nonzero_tail_e2big)
{
	struct {
		struct ipuxcom_ioc_info info;
		uint32_t tail[16];
	} big;

	for (int pos = 0; pos < 16; pos += 5) {
		memset(&big, 0, sizeof(big));
		big.info.size = sizeof(big);
		big.tail[pos] = 1;
		EXPECT_EQ(-E2BIG, ixt_ioctl(self->fd, IPUXCOM_IOC_INFO, &big)) TH_LOG("tail[%d]", pos);
		EXPECT_EQ(0, big.info.uapi_version) TH_LOG("output written on failure");
	}
}

TEST_F(abi, bad_pointers_efault)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *map;
	struct ipuxcom_ioc_info *tail_info;

	EXPECT_EQ(-EFAULT, ixt_ioctl(self->fd, IPUXCOM_IOC_INFO, NULL));
	EXPECT_EQ(-EFAULT, ixt_ioctl(self->fd, IPUXCOM_IOC_INFO, (void *)8));

	/* A struct whose declared size runs into an unmapped page. */
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, munmap(map + page, page));
	tail_info = (void *)(map + page - sizeof(*tail_info));
	memset(tail_info, 0, sizeof(*tail_info));
	tail_info->size = sizeof(*tail_info) + 64;
	EXPECT_EQ(-EFAULT, ixt_ioctl(self->fd, IPUXCOM_IOC_INFO, tail_info));
	/* Exactly fitting struct at the end of the page works. */
	tail_info->size = sizeof(*tail_info);
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_INFO, tail_info));
	/* A read-only struct cannot receive the output. */
	ASSERT_EQ(0, mprotect(map, page, PROT_READ));
	EXPECT_EQ(-EFAULT, ixt_ioctl(self->fd, IPUXCOM_IOC_INFO, tail_info));
	munmap(map, page);
}

TEST_F(abi, device_node_not_seekable)
{
	EXPECT_EQ(-1, lseek(self->fd, 0, SEEK_SET));
	EXPECT_EQ(ESPIPE, errno);
}

TEST_HARNESS_MAIN
