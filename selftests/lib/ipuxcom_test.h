/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the device selftests. Include after kselftest_harness.h.
 *
 * The same binaries are the hardware validation suite: a test that needs
 * /dev/ipuxcom skips when it is absent, and a test that needs a simulator
 * knob, or writes registers outside the documented set, skips unless the
 * device it uses is a simulated one (IXT_REQUIRE_SIM). selftests/README.
 *
 * Environment:
 *   IPUXCOM_DEV_PATH  device node (default /dev/ipuxcom)
 *   IPUXCOM_DEVICE    device id the tests attach to (default: the lowest
 *                     registered id, ixt_dev_id())
 *   IPUXCOM_SIM_KO    path of ipuxcom_sim.ko, for the unload/reload test
 *   IPUXCOM_CORE_KO   path of ipuxcom.ko, likewise
 *   IPUXCOM_HW_KO     path of ipuxcom_hw.ko, for its load/unload test
 *   IPUXCOM_IPU_NODE  ipu_driver's node of the card under test (/dev/ipuN),
 *                     for the read-only cross-check of the config BAR
 */
#ifndef IPUXCOM_TEST_H
#define IPUXCOM_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/ipuxcom.h>

#include "ixt_devlist.h"
#include "ixt_modules.h"
#include "ixt_scale.h"

/* The module's limit on device ids (kmod/ipuxcom_internal.h). */
#define IPUXCOM_MAX_DEVICES_LISTED	256

#define SIM_DEVICES_PARAM "/sys/module/ipuxcom_sim/parameters/devices"

static inline const char *ixt_dev_path(void)
{
	const char *p = getenv("IPUXCOM_DEV_PATH");

	return p && *p ? p : IPUXCOM_DEVICE_PATH;
}

/*
 * The device under test: IPUXCOM_DEVICE, else the registered device of the
 * lowest id (the first one registered; 0 if none is listed). Looked up once
 * per process, before the test starts anything (fail_nth, say) that a
 * netlink call would disturb: the module allocates ids cyclically, so
 * after a device goes and comes back its id is a new one.
 */
static inline uint32_t ixt_dev_id(void)
{
	static long cached = -1;
	const char *p = getenv("IPUXCOM_DEVICE");
	long id = __atomic_load_n(&cached, __ATOMIC_RELAXED);
	uint32_t first;

	if (p && *p)
		return (uint32_t)strtoul(p, NULL, 0);
	if (id < 0) {
		id = ixt_dev_list(&first, NULL, 1) == 1 ? (long)first : 0;
		__atomic_store_n(&cached, id, __ATOMIC_RELAXED);
	}
	return (uint32_t)id;
}

/*
 * A second simulated device next to ixt_dev_id() (the VM loads two): the
 * simulated device of the lowest id other than it, or -1 if there is
 * none. Looked up once per process, as ixt_dev_id().
 */
static inline long ixt_dev_id2(void)
{
	static long cached = -1;
	char backends[IPUXCOM_MAX_DEVICES_LISTED][IPUXCOM_BACKEND_NAME_LEN];
	uint32_t ids[IPUXCOM_MAX_DEVICES_LISTED], dev = ixt_dev_id();
	long id = __atomic_load_n(&cached, __ATOMIC_RELAXED);
	int n;

	if (id >= 0)
		return id;
	n = ixt_dev_list(ids, backends, IPUXCOM_MAX_DEVICES_LISTED);
	for (int i = 0; i < n && id < 0; i++)
		if (ids[i] != dev && !strcmp(backends[i], "sim"))
			id = ids[i];
	if (id >= 0)
		__atomic_store_n(&cached, id, __ATOMIC_RELAXED);
	return id;
}

static inline int ixt_have_device(void)
{
	return access(ixt_dev_path(), F_OK) == 0;
}

/*
 * A command's wait budget that must not run out for slowness alone: @ns
 * times IPUXCOM_TEST_TIMEOUT_SCALE (ixt_alarm.h's factor; the debug lane
 * sets 10). A 20 ms TDI wait ran out in a debug VM that had half a CPU
 * (tdi_restore_test, 2026-12-02); a test that wants a wait to run out
 * passes its budget as it is.
 */
static inline uint64_t ixt_scaled_ns(uint64_t ns)
{
	return ns * ixt_timeout_scale();
}

/* open(2) of the device node; -1 with errno on failure. */
static inline int ixt_open(void)
{
	return open(ixt_dev_path(), O_RDWR | O_CLOEXEC);
}

/* ioctl that returns 0 or -errno, so tests can compare one value. */
static inline int ixt_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

static inline int ixt_attach(int fd, uint32_t dev_id)
{
	struct ipuxcom_ioc_attach at = { .size = sizeof(at), .dev_id = dev_id };

	return ixt_ioctl(fd, IPUXCOM_IOC_ATTACH, &at);
}

static inline int ixt_query(int fd, struct ipuxcom_ioc_dev_query *q)
{
	memset(q, 0, sizeof(*q));
	q->size = sizeof(*q);
	return ixt_ioctl(fd, IPUXCOM_IOC_DEV_QUERY, q);
}

static inline int ixt_reg_read(int fd, uint32_t offset, uint32_t *value)
{
	struct ipuxcom_ioc_reg r = { .size = sizeof(r), .offset = offset };
	int ret = ixt_ioctl(fd, IPUXCOM_IOC_REG_READ, &r);

	*value = r.value;
	return ret;
}

static inline int ixt_reg_write(int fd, uint32_t offset, uint32_t value)
{
	struct ipuxcom_ioc_reg r = { .size = sizeof(r), .offset = offset, .value = value };

	return ixt_ioctl(fd, IPUXCOM_IOC_REG_WRITE, &r);
}

static inline int ixt_info(int fd, struct ipuxcom_ioc_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return ixt_ioctl(fd, IPUXCOM_IOC_INFO, info);
}

/* Simulated device count; -1 when ipuxcom_sim is not loaded. */
static inline int ixt_sim_devices(void)
{
	FILE *f = fopen(SIM_DEVICES_PARAM, "r");
	int n = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

/* Returns 0 or -errno of the write. */
static inline int ixt_set_sim_devices(int n)
{
	char buf[16];
	int fd, len, ret = 0;

	fd = open(SIM_DEVICES_PARAM, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%d\n", n);
	if (write(fd, buf, (size_t)len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

/* Drop CAP_SYS_RAWIO from this process's effective set; 0 or -1. */
/* Drop capability @cap from the effective set of the calling thread. */
static inline int ixt_drop_cap(int cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
	return syscall(SYS_capset, &hdr, data) ? -1 : 0;
}

static inline int ixt_drop_cap_sys_rawio(void)
{
	return ixt_drop_cap(CAP_SYS_RAWIO);
}

/*
 * Set the calling thread's effective and permitted capabilities to @caps
 * (bits of the first word, CAP_* < 32); the inheritable set to none. 0 or -1.
 */
static inline int ixt_caps_set(uint32_t caps)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { { .effective = caps, .permitted = caps } };

	return syscall(SYS_capset, &hdr, data) ? -1 : 0;
}

/* The process's effective capability set (/proc/self/status CapEff), ~0 if unknown. */
static inline uint64_t ixt_cap_effective(void)
{
	unsigned long long v = ~0ull;
	char line[128];
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return v;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* Send @fd over the unix socket @sock (SCM_RIGHTS, one byte); 0 or -errno. */
static inline int ixt_send_fd(int sock, int fd)
{
	char byte = 'f';
	struct iovec iov = { &byte, 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} c;
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.buf, .msg_controllen = sizeof(c.buf),
	};
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);

	memset(c.buf, 0, sizeof(c.buf));
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -errno;
}

/* The descriptor sent over @sock, or -1 (nothing within the socket's timeout). */
static inline int ixt_recv_fd(int sock)
{
	char byte;
	struct iovec iov = { &byte, 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} c;
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.buf, .msg_controllen = sizeof(c.buf),
	};
	struct cmsghdr *h;
	int fd;

	if (recvmsg(sock, &m, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	h = CMSG_FIRSTHDR(&m);
	if (!h || h->cmsg_type != SCM_RIGHTS || h->cmsg_len != CMSG_LEN(sizeof(int)))
		return -1;
	memcpy(&fd, CMSG_DATA(h), sizeof(int));
	return fd;
}

/*
 * VmPin of process @pid (0: this one) in kB, or -1 if unreadable. Reads
 * into the stack only, no allocation: stall_test calls it while its
 * mmap_lock is stalled.
 */
static inline long ixt_vmpin_kb_of(pid_t pid)
{
	char buf[8192], path[32], *p;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/status");
	if (ixt_read_sysfs(path, buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, "\nVmPin:");
	return p ? strtol(p + 7, NULL, 10) : -1;
}

/* VmPin of this process in kB, or -1 if unreadable. */
static inline long ixt_vmpin_kb(void)
{
	return ixt_vmpin_kb_of(0);
}

#define SIM_DEBUGFS "/sys/kernel/debug/ipuxcom_sim"
/* C600_SIM_DEFAULT_LATENCY: reads before a GO, mark or TDI busy bit clears. */
#define IXT_SIM_DEFAULT_LATENCY	2

/* Write a simulator debugfs knob of device @dev_id; 0 or -errno. */
static inline int ixt_sim_knob(uint32_t dev_id, const char *name, unsigned int value)
{
	char path[128], buf[16];
	int fd, len, ret = 0;

	snprintf(path, sizeof(path), SIM_DEBUGFS "/dev%u/%s", dev_id, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%u\n", value);
	if (write(fd, buf, (size_t)len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

/* A simulator debugfs knob's value, or -1 if unreadable. */
static inline long ixt_sim_knob_value(uint32_t dev_id, const char *name)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), SIM_DEBUGFS "/dev%u/%s", dev_id, name);
	if (ixt_read_sysfs(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/* A counter from the simulator's stats file; -1 if absent. */
static inline long ixt_sim_stat(uint32_t dev_id, const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), SIM_DEBUGFS "/dev%u/stats", dev_id);
	return ixt_stat_line(path, name);
}

static inline void ixt_sim_clear_faults(uint32_t dev_id)
{
	static const char *const knobs[] = {
		"stuck_go", "stuck_mark", "tdi_busy", "dma_error", "ctx_no_stop", "tdi_fail_at",
		"inactive_no_exec", "iowner_per_insn", "stall_pending_ms",
		/* the fault sites' fault_attrs (a kernel with fault injection only) */
		"fail_go/probability", "fail_mark/probability", "fail_tdi/probability",
		"fail_dma/probability", "fail_ctx_stop/probability",
	};

	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		ixt_sim_knob(dev_id, knobs[i], 0);
	/* the model's default register latency (sim/c600_sim.h), whatever a test left */
	ixt_sim_knob(dev_id, "latency", IXT_SIM_DEFAULT_LATENCY);
}

static inline int ixt_reset(int fd)
{
	struct ipuxcom_ioc_reset rs = { .size = sizeof(rs) };

	return ixt_ioctl(fd, IPUXCOM_IOC_RESET, &rs);
}

/* BUF_ATTACH of @bytes at @addr in slot @index: 0 or -errno. */
static inline int ixt_buf_attach(int fd, uint32_t index, void *addr, uint64_t bytes)
{
	struct ipuxcom_ioc_buf b = {
		.size = sizeof(b), .index = index, .addr = (uintptr_t)addr, .bytes = bytes,
	};

	return ixt_ioctl(fd, IPUXCOM_IOC_BUF_ATTACH, &b);
}

static inline int ixt_buf_detach(int fd, uint32_t index)
{
	struct ipuxcom_ioc_buf b = { .size = sizeof(b), .index = index };

	return ixt_ioctl(fd, IPUXCOM_IOC_BUF_DETACH, &b);
}

/* Zeroed, page-aligned anonymous memory for a host buffer, or NULL. */
static inline void *ixt_buf_alloc(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * The FOLL_PIN counters of /proc/vmstat into *@acq and *@rel (-1 when
 * absent), folded from their per-CPU deltas first (vm.stat_refresh, root
 * only), else they lag by up to a stat threshold per CPU; 0 or -1.
 */
static inline int ixt_pin_counters(long *acq, long *rel)
{
	char line[128];
	long v;
	int rfd = open("/proc/sys/vm/stat_refresh", O_WRONLY | O_CLOEXEC);
	FILE *f;

	*acq = *rel = -1;
	if (rfd < 0)
		return -1;
	if (write(rfd, "1", 1) != 1) {
		close(rfd);
		return -1;
	}
	close(rfd);
	f = fopen("/proc/vmstat", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "nr_foll_pin_acquired %ld", &v) == 1)
			*acq = v;
		else if (sscanf(line, "nr_foll_pin_released %ld", &v) == 1)
			*rel = v;
	}
	fclose(f);
	return 0;
}

/* Pages pinned right now, system-wide, or -1 if the kernel does not report them. */
static inline long ixt_pinned_pages(void)
{
	long acq, rel;

	if (ixt_pin_counters(&acq, &rel))
		return -1;
	return acq < 0 || rel < 0 ? -1 : acq - rel;
}

/*
 * Pages ever pinned, system-wide (nr_foll_pin_acquired), or -1: a pin
 * taken and dropped again between two reads still shows here.
 */
static inline long ixt_pins_acquired(void)
{
	long acq, rel;

	if (ixt_pin_counters(&acq, &rel))
		return -1;
	return acq;
}

static inline uint32_t ixt_state(int fd)
{
	struct ipuxcom_ioc_dev_query q;

	return ixt_query(fd, &q) ? 0xffffffffu : q.state;
}

/*
 * Backend name of device @id ("sim", "hw") into @name (at least
 * IPUXCOM_BACKEND_NAME_LEN bytes), by attaching a fresh file to the device
 * for a moment: call it while the test holds no attachment to @id.
 * 0 or -errno (-EBUSY: another file holds the device).
 */
static inline int ixt_dev_backend(uint32_t id, char *name)
{
	struct ipuxcom_ioc_dev_query q;
	int fd = ixt_open(), ret;

	name[0] = '\0';
	if (fd < 0)
		return -errno;
	ret = ixt_attach(fd, id);
	if (!ret)
		ret = ixt_query(fd, &q);
	if (!ret) {
		memcpy(name, q.backend, IPUXCOM_BACKEND_NAME_LEN);
		name[IPUXCOM_BACKEND_NAME_LEN - 1] = '\0';
	}
	close(fd);
	return ret;
}

/*
 * Skip (from a fixture setup or test) unless the device under test
 * (IPUXCOM_DEVICE) is a simulated one: raw writes to undocumented
 * registers and fault knobs are never run on a card, even on a machine
 * that has ipuxcom_sim loaded next to ipuxcom_hw. Call it before the test
 * attaches to the device.
 */
#define IXT_REQUIRE_SIM() do {							\
	char _ixt_backend[IPUXCOM_BACKEND_NAME_LEN];				\
	int _ixt_ret;								\
										\
	if (ixt_sim_devices() < 0)						\
		SKIP(return, "needs the simulator (ipuxcom_sim not loaded)");	\
	_ixt_ret = ixt_dev_backend(ixt_dev_id(), _ixt_backend);			\
	if (_ixt_ret)								\
		SKIP(return, "cannot tell whether device %u is simulated: %s",	\
		     ixt_dev_id(), strerror(-_ixt_ret));			\
	if (strcmp(_ixt_backend, "sim"))					\
		SKIP(return, "device %u is a \"%s\" device: simulator only",	\
		     ixt_dev_id(), _ixt_backend);				\
} while (0)

/*
 * Fixture set-up of a test on the simulated device under test: skip
 * without one, then open, attach, clear the fault knobs and RESET it, the
 * descriptor in @fd and the id in @dev. For FIXTURE_SETUP only.
 */
#define IXT_SETUP_IDLE_SIM(fd, dev) do {					\
	if (!ixt_have_device())							\
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path()); \
	IXT_REQUIRE_SIM();							\
	(dev) = ixt_dev_id();							\
	(fd) = ixt_open();							\
	ASSERT_LE(0, (fd));							\
	ASSERT_EQ(0, ixt_attach((fd), (dev)));					\
	ixt_sim_clear_faults(dev);						\
	ASSERT_EQ(0, ixt_reset(fd));						\
} while (0)

#endif /* IPUXCOM_TEST_H */
