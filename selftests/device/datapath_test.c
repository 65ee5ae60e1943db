// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel data path on the simulated C600, below a full load: config
 * apply, the autoloader, TDI injection and SRAM access, the transport
 * buffer, the device state machine, every fault knob -> its documented
 * error -> RESET -> working again, and killing a process blocked in a wait.
 * Needs the simulator's fault knobs; skipped on hardware.
 */
#include "kselftest_harness.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>

#include "ipuxcom_test.h"

/* A bootloader-sized test image: 948 bytes, as in the notes' example. */
#define BOOT_BYTES	948
#define SRAM_BASE	0x4c000u
#define SRAM_END	(0x4c000u + 624u * 1024)
#define SHORT_NS	(20ULL * 1000 * 1000)
/*
 * Each TDI wait of an SRAM read or write: 1 s, ten times the peer's 100 ms,
 * as these tests check content, not timing, and under TCG on a loaded host
 * the VM's CPU can stop for a tenth of a second (a CI run once timed out
 * here at 100 ms). The model answers on a read count, not in time (see
 * tdi_wait_stalled_past_its_deadline_reads_once_more).
 */
#define SRAM_WAIT_NS	(1000ULL * 1000 * 1000)

static void make_boot_image(uint8_t *img, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		img[i] = (uint8_t)((i * 131 + seed) ^ (i >> 8));
}

static int do_autoload(int fd, const void *img, uint32_t len, uint64_t timeout_ns,
		       struct ipuxcom_ioc_autoload *out)
{
	struct ipuxcom_ioc_autoload al = {
		.size = sizeof(al), .image = (uintptr_t)img, .image_size = len,
		.timeout_ns = timeout_ns,
	};
	int ret = ixt_ioctl(fd, IPUXCOM_IOC_AUTOLOAD, &al);

	if (out)
		*out = al;
	return ret;
}

static int sram_io(int fd, unsigned long cmd, uint32_t tile, uint32_t addr,
		   uint32_t *words, uint32_t count, struct ipuxcom_ioc_tdi_sram *out)
{
	struct ipuxcom_ioc_tdi_sram ts = {
		.size = sizeof(ts), .tile = tile, .addr = addr, .count = count,
		.data = (uintptr_t)words, .timeout_ns = ixt_scaled_ns(SRAM_WAIT_NS),
	};
	int ret = ixt_ioctl(fd, cmd, &ts);

	if (out)
		*out = ts;
	return ret;
}

static int tdi_exec(int fd, uint32_t tile, uint32_t ctx, uint32_t insn, int set_data,
		    uint32_t data_in, struct ipuxcom_ioc_tdi_exec *out)
{
	struct ipuxcom_ioc_tdi_exec te = {
		.size = sizeof(te), .tile = tile, .context = ctx, .insn = insn,
		.flags = set_data ? IPUXCOM_TDI_F_SET_DATA : 0, .data_in = data_in,
	};
	int ret = ixt_ioctl(fd, IPUXCOM_IOC_TDI_EXEC, &te);

	if (out)
		*out = te;
	return ret;
}

FIXTURE(dp) {
	int fd;
	uint32_t dev;
	uint8_t boot[BOOT_BYTES];
};

FIXTURE_SETUP(dp)
{
	self->fd = -1;
	IXT_SETUP_IDLE_SIM(self->fd, self->dev);
	make_boot_image(self->boot, sizeof(self->boot), 7);
}

FIXTURE_TEARDOWN(dp)
{
	if (self->fd < 0)
		return;
	ixt_sim_clear_faults(self->dev);
	ixt_reset(self->fd);
	close(self->fd);
}

/* The bootloader lands on every tile; TDI reads it back word for word. */
TEST_F(dp, autoload_installs_bootloader_on_every_tile)
{
	static const uint32_t tiles[] = { 0, 1, 63, 64, 700, 1408, 1471 };
	uint32_t words[256], want[256];

	ASSERT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(self->fd));
	/* the notes pad 948 bytes to 1 KiB with zeros */
	memset(want, 0, sizeof(want));
	memcpy(want, self->boot, BOOT_BYTES);
	for (size_t i = 0; i < sizeof(tiles) / sizeof(tiles[0]); i++) {
		memset(words, 0xee, sizeof(words));
		ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, tiles[i],
				     SRAM_BASE, words, 256, NULL));
		EXPECT_EQ(0, memcmp(words, want, sizeof(want))) TH_LOG("tile %u", tiles[i]);
	}
	/* two GO transactions, as in the notes */
	EXPECT_EQ(2, ixt_sim_stat(self->dev, "autoload_transactions"));
}

TEST_F(dp, autoload_rejects_bad_requests)
{
	static uint8_t big[IPUXCOM_AUTOLOAD_MAX_BYTES + 1];
	struct ipuxcom_ioc_autoload al = { .size = sizeof(al), .image = (uintptr_t)big,
					   .image_size = 16, .reserved = 1 };

	EXPECT_EQ(-EINVAL, do_autoload(self->fd, big, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, do_autoload(self->fd, big, sizeof(big), 0, NULL));
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_AUTOLOAD, &al));
	EXPECT_EQ(-EFAULT, do_autoload(self->fd, (void *)8, 64, 0, NULL));
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ixt_state(self->fd));
	/* the largest image works; a second AUTOLOAD needs a RESET first */
	EXPECT_EQ(0, do_autoload(self->fd, big, IPUXCOM_AUTOLOAD_MAX_BYTES, 0, NULL));
	EXPECT_EQ(-EBADFD, do_autoload(self->fd, big, 64, 0, NULL));
	EXPECT_EQ(0, ixt_reset(self->fd));
	EXPECT_EQ(0, do_autoload(self->fd, big, 64, 0, NULL));
}

/* Fault: GO never clears -> -ETIMEDOUT with the register, NEEDS_RESET, RESET fixes. */
TEST_F(dp, autoload_stuck_go_times_out_then_reset_recovers)
{
	struct ipuxcom_ioc_autoload al;

	ASSERT_EQ(0, ixt_sim_knob(self->dev, "stuck_go", 1));
	EXPECT_EQ(-ETIMEDOUT, do_autoload(self->fd, self->boot, BOOT_BYTES, SHORT_NS, &al));
	EXPECT_EQ(1, al.stage);
	EXPECT_EQ(0x100, al.csr & 0x100) TH_LOG("GO bit not reported, csr 0x%x", al.csr);
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(self->fd));
	EXPECT_EQ(-EBADFD, do_autoload(self->fd, self->boot, BOOT_BYTES, SHORT_NS, NULL));
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "stuck_go", 0));
	ASSERT_EQ(0, ixt_reset(self->fd));
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ixt_state(self->fd));
	EXPECT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
}

TEST_F(dp, cfg_apply_writes_in_order_or_not_at_all)
{
	struct ipuxcom_cfg_record rec[4] = {
		{ 0x0100, 1 }, { 0x0104, 2 }, { 0x0100, 3 }, { 0x0108, 4 },
	};
	struct ipuxcom_ioc_cfg_apply ca = {
		.size = sizeof(ca), .records = (uintptr_t)rec, .count = 4,
	};
	uint32_t v;

	ASSERT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_CFG_APPLY, &ca));
	EXPECT_EQ(4, ca.applied);
	ASSERT_EQ(0, ixt_reg_read(self->fd, 0x0100, &v));
	EXPECT_EQ(3, v);	/* the later record wins: order kept */
	ASSERT_EQ(0, ixt_reg_read(self->fd, 0x0108, &v));
	EXPECT_EQ(4, v);

	/* one bad offset: nothing is written, the index is reported */
	rec[0].value = 99;
	rec[2].offset = 0x80000;
	ca.applied = 77;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_CFG_APPLY, &ca));
	EXPECT_EQ(2, ca.bad_index);
	EXPECT_EQ(0, ca.applied);
	ASSERT_EQ(0, ixt_reg_read(self->fd, 0x0100, &v));
	EXPECT_EQ(3, v);
	rec[2].offset = 0x0102;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_CFG_APPLY, &ca));
	EXPECT_EQ(2, ca.bad_index);

	ca.count = 0;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_CFG_APPLY, &ca));
	ca.count = IPUXCOM_CFG_MAX_RECORDS + 1;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_CFG_APPLY, &ca));
	ca.count = 1;
	ca.records = 8;
	EXPECT_EQ(-EFAULT, ixt_ioctl(self->fd, IPUXCOM_IOC_CFG_APPLY, &ca));
}

TEST_F(dp, cfg_apply_needs_idle_and_cap_sys_rawio)
{
	struct ipuxcom_cfg_record rec = { 0x0100, 5 };
	struct ipuxcom_ioc_cfg_apply ca = {
		.size = sizeof(ca), .records = (uintptr_t)&rec, .count = 1,
	};
	pid_t child;
	int status;

	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (ixt_drop_cap_sys_rawio())
			_exit(10);
		_exit(ixt_ioctl(self->fd, IPUXCOM_IOC_CFG_APPLY, &ca) == -EPERM ? 0 : 11);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
	EXPECT_EQ(-EBADFD, ixt_ioctl(self->fd, IPUXCOM_IOC_CFG_APPLY, &ca));
}

/* get $m0,$DBG_DATA then put $DBG_DATA,$m0 round-trips a value through m0. */
TEST_F(dp, tdi_exec_runs_documented_injectables)
{
	struct ipuxcom_ioc_tdi_regs before = { .size = sizeof(before), .tile = 9 };
	struct ipuxcom_ioc_tdi_regs after = { .size = sizeof(after), .tile = 9 };
	struct ipuxcom_ioc_tdi_exec te;

	ASSERT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
	ASSERT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_TDI_READ_REGS, &before));
	EXPECT_EQ(IPUXCOM_TDI_NREGS, before.count);
	ASSERT_EQ(0, tdi_exec(self->fd, 9, 0, 0x41000070, 1, 0x1234abcd, &te));
	ASSERT_EQ(0, tdi_exec(self->fd, 9, 0, 0x43008070, 1, 0, &te));
	EXPECT_EQ(0x1234abcd, te.data_out);
	EXPECT_EQ(0, te.tdi_sts & (IPUXCOM_TDI_STS_INVALID | IPUXCOM_TDI_STS_BUSY));
	/* the injectable no-op */
	EXPECT_EQ(0, tdi_exec(self->fd, 9, 0, 0x44f0f3f1, 0, 0, NULL));
	/* the run-break state found is restored */
	ASSERT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_TDI_READ_REGS, &after));
	EXPECT_EQ(before.regs[IPUXCOM_TDI_DBG_RBRK], after.regs[IPUXCOM_TDI_DBG_RBRK]);
	EXPECT_EQ(before.regs[IPUXCOM_TDI_CTXT_STS], after.regs[IPUXCOM_TDI_CTXT_STS]);
}

TEST_F(dp, tdi_exec_errors)
{
	struct ipuxcom_ioc_tdi_exec te;
	pid_t child;
	int status;

	/*
	 * reset-idle tiles: every context inactive, nothing can execute [S];
	 * CTXT_STS says so before anything is injected (tdi_sts stays 0)
	 */
	EXPECT_EQ(-ENOEXEC, tdi_exec(self->fd, 0, 0, 0x44f0f3f1, 0, 0, &te));
	EXPECT_EQ(0, te.tdi_sts);
	ASSERT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
	/* an undocumented instruction word is not executed */
	EXPECT_EQ(-EILSEQ, tdi_exec(self->fd, 0, 0, 0xdeadbeef, 0, 0, &te));
	EXPECT_NE(0, te.tdi_sts & IPUXCOM_TDI_STS_INVALID);
	/* sticky error bits were cleared: the next injection is clean */
	EXPECT_EQ(0, tdi_exec(self->fd, 0, 0, 0x44f0f3f1, 0, 0, &te));
	EXPECT_EQ(-EINVAL, tdi_exec(self->fd, 1472, 0, 0x44f0f3f1, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, tdi_exec(self->fd, 0, 7, 0x44f0f3f1, 0, 0, NULL));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (ixt_drop_cap_sys_rawio())
			_exit(10);
		_exit(tdi_exec(self->fd, 0, 0, 0x44f0f3f1, 0, 0, NULL) == -EPERM ? 0 : 11);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_F(dp, tdi_sram_write_then_read_back)
{
	uint32_t out[300], in[300];
	struct ipuxcom_ioc_tdi_sram ts;

	ASSERT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
	for (int i = 0; i < 300; i++)
		out[i] = 0x9e3779b9u * (uint32_t)(i + 1);
	ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_WRITE_SRAM, 1300, 0x52000, out, 300, &ts));
	EXPECT_EQ(300, ts.done);
	memset(in, 0, sizeof(in));
	ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 1300, 0x52000, in, 300, &ts));
	EXPECT_EQ(300, ts.done);
	EXPECT_EQ(0, memcmp(in, out, sizeof(in)));
	/* another tile was not touched */
	ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 1301, 0x52000, in, 4, NULL));
	EXPECT_EQ(0, in[0] | in[1] | in[2] | in[3]);
	/* the last word of SRAM is reachable */
	ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_WRITE_SRAM, 1300, SRAM_END - 4, out, 1, NULL));
	ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 1300, SRAM_END - 4, in, 1, NULL));
	EXPECT_EQ(out[0], in[0]);
}

TEST_F(dp, tdi_sram_rejects_bad_ranges)
{
	uint32_t w[4] = { 0 };
	struct ipuxcom_ioc_tdi_sram ts = { .size = sizeof(ts), .tile = 0, .addr = SRAM_BASE,
					   .count = 1, .data = (uintptr_t)w, .flags = 1 };
	pid_t child;
	int status;

	ASSERT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, &ts));
	EXPECT_EQ(-EINVAL, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 0, SRAM_BASE + 2, w, 1, NULL));
	EXPECT_EQ(-EINVAL, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 0, SRAM_BASE - 4, w, 1, NULL));
	EXPECT_EQ(-EINVAL, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 0, SRAM_END - 4, w, 2, NULL));
	EXPECT_EQ(-EINVAL, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 0, SRAM_BASE, w, 0, NULL));
	EXPECT_EQ(-EINVAL, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 0, SRAM_BASE, w,
				   IPUXCOM_TDI_SRAM_MAX_WORDS + 1, NULL));
	EXPECT_EQ(-EINVAL, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 1472, SRAM_BASE, w, 1, NULL));
	EXPECT_EQ(-EFAULT, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 0, SRAM_BASE, (void *)8, 1, NULL));
	/* writes need CAP_SYS_RAWIO, reads do not */
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (ixt_drop_cap_sys_rawio())
			_exit(10);
		if (sram_io(self->fd, IPUXCOM_IOC_TDI_WRITE_SRAM, 0, 0x52000, w, 1, NULL) != -EPERM)
			_exit(11);
		_exit(sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 0, 0x52000, w, 1, NULL) ? 12 : 0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* Fault: TDI stays busy -> -ETIMEDOUT, nothing reported read, RESET recovers. */
TEST_F(dp, tdi_busy_times_out_then_reset_recovers)
{
	struct ipuxcom_ioc_tdi_sram ts;
	uint32_t w[8];

	ASSERT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "tdi_busy", 1));
	EXPECT_EQ(-ETIMEDOUT, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 3, SRAM_BASE, w, 8, &ts));
	EXPECT_EQ(0, ts.done);
	EXPECT_NE(0, ts.tdi_sts & IPUXCOM_TDI_STS_BUSY);
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(self->fd));
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "tdi_busy", 0));
	ASSERT_EQ(0, ixt_reset(self->fd));
	ASSERT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
	EXPECT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, 3, SRAM_BASE, w, 8, &ts));
	EXPECT_EQ(0, memcmp(w, self->boot, sizeof(w)));
}

/*
 * A wait whose thread stops right after a busy read, for longer than the
 * wait's timeout, reads once more before it reports a timeout: on a card
 * the injection finished during the stall. The model counts reads, not
 * time, so with latency 1 the read after the stall is the one that finds
 * the injection done; a wait that checked its deadline after the busy
 * read would report -ETIMEDOUT and leave the device NEEDS_RESET.
 */
TEST_F(dp, tdi_wait_stalled_past_its_deadline_reads_once_more)
{
	uint64_t timeout_ns = ixt_scaled_ns(SHORT_NS);
	uint32_t w[4];
	struct ipuxcom_ioc_tdi_sram ts = {
		.size = sizeof(ts), .tile = 5, .addr = SRAM_BASE, .count = 4,
		.data = (uintptr_t)w, .timeout_ns = timeout_ns,
	};

	ASSERT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "latency", 1));
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "stall_pending_ms",
				  (unsigned int)(3 * timeout_ns / 1000000)));
	memset(w, 0xee, sizeof(w));
	EXPECT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, &ts));
	/* the stall happened: the one-shot knob was used up */
	EXPECT_EQ(0, ixt_sim_knob_value(self->dev, "stall_pending_ms"));
	EXPECT_EQ(4, ts.done);
	EXPECT_EQ(0, memcmp(w, self->boot, sizeof(w)));
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(self->fd));
}

/* A process blocked in a bounded wait dies promptly when killed. */
TEST_F(dp, killed_while_waiting_dies_promptly)
{
	struct timespec t0, now;
	int ready[2], status = 0;
	pid_t child, r;
	char c;

	ASSERT_EQ(0, ixt_sim_knob(self->dev, "stuck_go", 1));
	ASSERT_EQ(0, pipe(ready));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (write(ready[1], "r", 1) != 1)
			_exit(2);
		/* 30 s timeout: only the kill can end it early */
		do_autoload(self->fd, self->boot, BOOT_BYTES, 30ULL * 1000000000ULL, NULL);
		_exit(3);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	usleep(200 * 1000);	/* let the child reach the wait */
	ASSERT_EQ(0, kill(child, SIGKILL));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		r = waitpid(child, &status, WNOHANG);
		if (r == 0)
			usleep(10 * 1000);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (r == 0 && now.tv_sec - t0.tv_sec < 10);
	ASSERT_EQ(child, r) TH_LOG("killed process still blocked after 10 s");
	EXPECT_TRUE(WIFSIGNALED(status));
	/* interrupted mid-sequence: the device says so, and RESET recovers */
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(self->fd));
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "stuck_go", 0));
	ASSERT_EQ(0, ixt_reset(self->fd));
	EXPECT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
}

/*
 * Host buffers are the caller's memory, pinned by BUF_ATTACH: every bad
 * field is refused before anything is pinned, and each pin is dropped by
 * detach and by close (the vmstat pin counters balance).
 */
TEST_F(dp, host_buffer_attach_rules)
{
	size_t bytes = 1 << 20;
	uint8_t *buf = ixt_buf_alloc(bytes);
	struct ipuxcom_ioc_buf b = { .size = sizeof(b), .addr = (uintptr_t)buf, .bytes = bytes };
	long pinned0 = ixt_pinned_pages();
	void *ro;
	int fd;

	ASSERT_NE(NULL, buf);
	EXPECT_EQ(-EINVAL, ixt_buf_attach(self->fd, 0, buf + 8, bytes - 4096));
	EXPECT_EQ(-EINVAL, ixt_buf_attach(self->fd, 0, buf, bytes - 8));
	EXPECT_EQ(-EINVAL, ixt_buf_attach(self->fd, 0, buf, 0));
	EXPECT_EQ(-EINVAL, ixt_buf_attach(self->fd, 0, buf, IPUXCOM_BUF_MAX_BYTES + 4096ULL));
	EXPECT_EQ(-EINVAL, ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOTS, buf, bytes));
	b.reserved = 1;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_BUF_ATTACH, &b));
	/* memory this process cannot write, or has not mapped */
	ro = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(-EFAULT, ixt_buf_attach(self->fd, 0, ro, 8192));
	munmap(ro, 8192);
	EXPECT_EQ(-EFAULT, ixt_buf_attach(self->fd, 0, ro, 8192));
	/*
	 * host-exchange slots only between HOSTX_SETUP BEGIN and COMMIT (page 1:
	 * index 0 outside a host-exchange setup is the loader's buffer)
	 */
	EXPECT_EQ(-EBADFD, ixt_buf_attach(self->fd, IPUXCOM_BUF_SLOT_HOSTX(1), buf, bytes));
	if (pinned0 >= 0)
		EXPECT_EQ(pinned0, ixt_pinned_pages());

	ASSERT_EQ(0, ixt_buf_attach(self->fd, 0, buf, bytes));
	EXPECT_EQ(-EEXIST, ixt_buf_attach(self->fd, 0, buf, bytes));
	if (pinned0 >= 0)
		EXPECT_EQ(pinned0 + (long)(bytes / 4096), ixt_pinned_pages());
	/* the module selected HEXOPT before attaching [HW-LOAD step 4] */
	EXPECT_EQ(0x800, ixt_sim_stat(self->dev, "loader_attach_window"));
	b.reserved = 0;
	b.addr = 1;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_BUF_DETACH, &b));
	ASSERT_EQ(0, ixt_buf_detach(self->fd, 0));
	EXPECT_EQ(-ENOENT, ixt_buf_detach(self->fd, 0));
	if (pinned0 >= 0)
		EXPECT_EQ(pinned0, ixt_pinned_pages());

	/* a closed file drops its pins */
	fd = ixt_open();
	ASSERT_LE(0, fd);
	close(self->fd);
	self->fd = fd;
	ASSERT_EQ(0, ixt_attach(self->fd, self->dev));
	ASSERT_EQ(0, ixt_buf_attach(self->fd, 0, buf, bytes));
	close(self->fd);
	self->fd = ixt_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ixt_attach(self->fd, self->dev));
	if (pinned0 >= 0)
		EXPECT_EQ(pinned0, ixt_pinned_pages());
	munmap(buf, bytes);
}

TEST_F(dp, state_machine_rejects_out_of_order_commands)
{
	struct ipuxcom_ioc_load_batch lb = { .size = sizeof(lb), .timeout_ns = SHORT_NS };
	struct ipuxcom_ioc_load_finish lf = { .size = sizeof(lf) };
	struct ipuxcom_ioc_hsp_mark hm = { .size = sizeof(hm), .gs = 1, .mark = 1 };
	size_t bytes = 1 << 20;
	void *buf = ixt_buf_alloc(bytes);

	/* idle: no loading, no finishing, no marks */
	EXPECT_EQ(-EBADFD, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_BATCH, &lb));
	EXPECT_EQ(-EBADFD, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_FINISH, &lf));
	EXPECT_EQ(-EBADFD, ixt_ioctl(self->fd, IPUXCOM_IOC_HSP_MARK, &hm));
	ASSERT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
	/* bootloader: no transport buffer yet */
	EXPECT_EQ(-ENOBUFS, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_BATCH, &lb));
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, ixt_buf_attach(self->fd, 0, buf, bytes));
	/* batches go in order, from 0 */
	lb.batch = 1;
	EXPECT_EQ(-EBADFD, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_BATCH, &lb));
	lb.batch = 23;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_BATCH, &lb));
	EXPECT_EQ(-EBADFD, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_FINISH, &lf));
	EXPECT_EQ(-EBADFD, ixt_ioctl(self->fd, IPUXCOM_IOC_HSP_MARK, &hm));
	/* the device state did not move */
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(self->fd));
	munmap(buf, bytes);
}

/* An all-zero transport buffer is diagnosed before any handshake. */
TEST_F(dp, load_batch_diagnoses_the_buffer)
{
	struct ipuxcom_ioc_load_batch lb = { .size = sizeof(lb), .timeout_ns = SHORT_NS };
	struct { uint32_t bytes; } xa = { 1 << 20 };
	uint32_t *desc;

	ASSERT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
	desc = ixt_buf_alloc(xa.bytes);
	ASSERT_NE(NULL, desc);
	ASSERT_EQ(0, ixt_buf_attach(self->fd, 0, desc, xa.bytes));

	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_BATCH, &lb));
	EXPECT_EQ(IPUXCOM_FRAME_ERR_DESC_COUNT, lb.bad_reason);
	EXPECT_EQ(0, lb.bad_tile);
	/* 16 frames: below the 17 (0x4134 bytes) the recorded loads used */
	desc[0] = 0x1000;
	desc[1] = 16;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_BATCH, &lb));
	EXPECT_EQ(IPUXCOM_FRAME_ERR_DESC_COUNT, lb.bad_reason);
	/* tile 0 fine by count but its last frame runs past the buffer */
	desc[0] = xa.bytes - 16 * 1024;
	desc[1] = 17;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_BATCH, &lb));
	EXPECT_EQ(IPUXCOM_FRAME_ERR_DESC_OFFSET, lb.bad_reason);
	/* inside the descriptor area */
	desc[0] = 0x800;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_BATCH, &lb));
	EXPECT_EQ(IPUXCOM_FRAME_ERR_DESC_OFFSET, lb.bad_reason);
	/* in range, but the frames are empty: chunk 0 and tile 0 match, the trailer does not */
	desc[0] = 0x1000;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_BATCH, &lb));
	EXPECT_EQ(IPUXCOM_FRAME_ERR_TRAILER, lb.bad_reason);
	EXPECT_EQ(0, lb.bad_frame);
	/* junk in the unused descriptor area */
	desc[200] = 1;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_LOAD_BATCH, &lb));
	EXPECT_EQ(IPUXCOM_FRAME_ERR_DESC_TAIL, lb.bad_reason);
	/* none of this reached the device */
	EXPECT_EQ(0, ixt_sim_stat(self->dev, "mark1_transactions"));
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(self->fd));
	munmap(desc, xa.bytes);
}

TEST_F(dp, hsp_mark_rejects_bad_fields)
{
	struct ipuxcom_ioc_hsp_mark hm = { .size = sizeof(hm), .gs = 3, .mark = 1 };

	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_HSP_MARK, &hm));
	hm.gs = 0;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_HSP_MARK, &hm));
	hm.gs = 2;
	hm.mark = 0;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_HSP_MARK, &hm));
	hm.mark = 0x10000;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_HSP_MARK, &hm));
	hm.mark = 1;
	hm.flags = 2;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_HSP_MARK, &hm));
}

/* EXPERIMENTAL window writes: TILEUPDR completes and TDI sees the data. */
TEST_F(dp, exch_window_write_then_tdi_readback)
{
	/* logical tiles spread over the chip, and their physical ids [S map] */
	static const uint32_t logical[] = { 0, 1, 20, 21, 46, 700, 1286, 1471 };
	static const uint32_t physical[] = { 0, 2, 640, 642, 1409, 1117, 53, 63 };
	struct ipuxcom_ioc_exch_write ew;
	uint32_t data[16], back[16], v;

	ASSERT_EQ(0, do_autoload(self->fd, self->boot, BOOT_BYTES, 0, NULL));
	/* a window left selecting HEXOPT (as host exchange does) is restored */
	ASSERT_EQ(0, ixt_reg_write(self->fd, 0x3044, 0x800 | 5));
	for (size_t i = 0; i < sizeof(logical) / sizeof(logical[0]); i++) {
		for (int k = 0; k < 16; k++)
			data[k] = logical[i] << 16 | (uint32_t)k;
		memset(&ew, 0, sizeof(ew));
		ew.size = sizeof(ew);
		ew.tile = logical[i];
		ew.addr = 0x60000 + (uint32_t)i * 64;
		ew.bytes = sizeof(data);
		ew.data = (uintptr_t)data;
		ASSERT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_EXCH_WRITE, &ew));
		EXPECT_EQ(logical[i] << 17 | ((ew.addr - 0x4c000 + 63) >> 3), ew.tileupdr);
		ASSERT_EQ(0, sram_io(self->fd, IPUXCOM_IOC_TDI_READ_SRAM, physical[i], ew.addr,
				     back, 16, NULL));
		EXPECT_EQ(0, memcmp(data, back, sizeof(data))) TH_LOG("logical %u", logical[i]);
	}
	ASSERT_EQ(0, ixt_reg_read(self->fd, 0x3044, &v));
	EXPECT_EQ(0x800 | 5, v);
	/* bad requests */
	ew.addr = 0x60002;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_EXCH_WRITE, &ew));
	ew.addr = SRAM_END - 32;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_EXCH_WRITE, &ew));
	ew.addr = 0x60000;
	ew.tile = 1472;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_EXCH_WRITE, &ew));
	ew.tile = 0;
	ew.bytes = 6;
	EXPECT_EQ(-EINVAL, ixt_ioctl(self->fd, IPUXCOM_IOC_EXCH_WRITE, &ew));
}

TEST_HARNESS_MAIN
