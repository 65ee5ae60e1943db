// SPDX-License-Identifier: GPL-2.0-only
/*
 * Issue 32: nothing the module does on removal, close, RESET or DEV_GET
 * may wait for a user's mmap_lock, because a user can hold it for as long
 * as it likes: on 6.1 a long-term pin (io_uring's IORING_REGISTER_BUFFERS)
 * holds mmap_read_lock through its page fault, and the fault on a FUSE
 * file whose READ is never answered never ends.
 *
 * Each case attaches a host buffer (slot 0) on a device: a simulated one
 * of its own (removal, close, RESET, DEV_GET, rmmod), or the QEMU C600
 * through ipuxcom_hw in the card lane (PCI unbind, QEMU device_del); then
 * it stalls a second thread of the same process registering the first
 * page of such a file as an io_uring buffer. The file system is the
 * test's: a child process speaking /dev/fuse that answers INIT, LOOKUP,
 * GETATTR and OPEN, and never READ. That the lock is held is proven, not
 * assumed: the READ reached the server, the thread has not returned, and
 * a writer of the process's mm (/proc/PID/clear_refs, from a helper
 * process) does not get the lock within a second. Then one operation runs
 * in a thread made beforehand and must complete within a bound
 * (CLOCK_MONOTONIC), the buffer's pins and VmPin released while the lock
 * is still held. The stall is released afterwards (the server exits,
 * which aborts its connection: the fault fails) and nothing stays pinned.
 *
 * With the accounting of before 663a07c (account_locked_vm(), which takes
 * the owner's mmap_write_lock) every case fails: the operation (in
 * dev_get_within_bound the removal beside the DEV_GETs) sleeps behind the
 * stalled fault until the stall is released.
 *
 * While the stall lasts the test must not take its own mmap_lock for
 * writing, or every thread of it would queue behind the stalled reader: no
 * thread, fork, mmap, or heap growth. Everything is made beforehand, and
 * the heap is grown once (set_up_malloc()). A kernel that does take it
 * (the old accounting) queues a writer all the same, and then any page
 * fault of the test's own threads waits too: so the server ends the stall
 * by itself STALL_LIMIT_S after it began, and an operation's time is
 * measured from the request to its end by the thread that ran it, which a
 * stuck test thread cannot shorten. The server's deadline
 * (SERVER_DEADLINE_S) and its parent-death signal end the stall whatever
 * happens to the test.
 *
 * The server, the lock probe and the stalled owner process are
 * ixt_fuse_stall.h's (the fail-nth sweep and the fuzzer stall with them
 * too). Needs FUSE in the guest kernel: the plain VM loads fuse.ko
 * (mkinitramfs.sh --kmods), the debug kernel has CONFIG_FUSE_FS=y; a
 * kernel without it skips.
 */
#include "kselftest_harness.h"

#include <malloc.h>
#include <pthread.h>
#include <sys/sysmacros.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_fuse_stall.h"
#include "ixt_load.h"
#include "ixt_modules.h"
#include "ixt_simdev.h"
#include "ixt_standin.h"

#define PAGE			4096u
#define BUF_PAGES		16u
/* an operation under the stall must end within this (x the lane's scale) */
#define OP_BOUND_S		10
/* the server aborts its connection by itself then: the stall always ends */
#define SERVER_DEADLINE_S	60
/* ... and this long after the stall began (the probes, the bound, slack) */
#define STALL_LIMIT_S		(OP_BOUND_S + 5)


/* ------------------------------------------------- the stalled thread */

struct staller {
	pthread_t th;
	bool started, asked;
	int ring;	/* io_uring */
	void *page;	/* the FUSE file's first page, MAP_SHARED */
	int go[2], done[2];
	pid_t tid;
	int ret;	/* IORING_REGISTER_BUFFERS: 0 or -errno, once it returned */
};

static void *staller_main(void *arg)
{
	struct staller *s = arg;
	struct iovec iov = { s->page, PAGE };
	char c;
	long r;

	__atomic_store_n(&s->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	if (read(s->go[0], &c, 1) != 1)
		return NULL;
	/* pin_user_pages(FOLL_LONGTERM) under mmap_read_lock: faults the page in */
	r = syscall(__NR_io_uring_register, s->ring, IORING_REGISTER_BUFFERS, &iov, 1);
	s->ret = r < 0 ? -errno : (int)r;
	if (write(s->done[1], "d", 1) != 1)
		s->ret = -EIO;
	return NULL;
}

/* The thread's scheduler state letter and wait channel, for the log. */
static void staller_state(pid_t tid, char *state, char *wchan, size_t len)
{
	char path[64], buf[512], *p;

	*state = '?';
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	/* "tid (comm) S ...": the state follows the last ')' */
	if (ixt_read_sysfs(path, buf, sizeof(buf)) > 0) {
		p = strrchr(buf, ')');
		if (p && p[1] == ' ')
			*state = p[2];
	}
	snprintf(path, sizeof(path), "/proc/self/task/%d/wchan", (int)tid);
	if (ixt_read_sysfs(path, wchan, len) <= 0)
		snprintf(wchan, len, "?");
}

/* --------------------------------------------------- operation threads */

enum stall_op {
	OP_QUIT,
	OP_REMOVE,		/* the device: sim "devices" parameter made smaller */
	OP_CLOSE,		/* the file holding the buffer */
	OP_RESET,
	OP_DEV_GET,		/* netlink DEV_GET of the device */
	OP_DEV_GET_UNTIL_GONE,	/* DEV_GET until -ENODEV (the bound ends it too) */
	OP_RMMOD,		/* ipuxcom_sim */
	OP_UNBIND,		/* the C600 from ipu_driver, through sysfs */
	OP_PCI_GONE,		/* the C600's PCI function gone (QEMU device_del) */
};

static const char *const op_names[] = {
	[OP_QUIT] = "quit", [OP_REMOVE] = "device removal", [OP_CLOSE] = "close",
	[OP_RESET] = "RESET", [OP_DEV_GET] = "DEV_GET",
	[OP_DEV_GET_UNTIL_GONE] = "DEV_GET during removal", [OP_RMMOD] = "rmmod ipuxcom_sim",
	[OP_UNBIND] = "PCI unbind", [OP_PCI_GONE] = "QEMU device_del",
};

struct worker {
	pthread_t th;
	bool started;
	int go[2], done[2];
	enum stall_op op;
	bool busy;	/* asked, not yet seen done */
	int ret;
	uint64_t asked_ns, ended_ns;	/* CLOCK_MONOTONIC: the request, the end */
	long calls;
	struct ipuxcom_device_info info;
	/* what the operations work on */
	int *fd;
	uint32_t dev;
	int sim_devices;	/* OP_REMOVE's target count */
	struct ipuxcom_nl *nl;
	const char *pci;	/* the C600's sysfs directory */
	uint64_t bound_ns;
};

static int worker_op(struct worker *w)
{
	uint64_t end = ixt_mono_ns() + w->bound_ns;
	int ret;

	switch (w->op) {
	case OP_REMOVE:
		return ixt_set_sim_devices(w->sim_devices);
	case OP_CLOSE:
		return close(*w->fd) ? -errno : 0;
	case OP_RESET:
		return ixt_reset(*w->fd);
	case OP_DEV_GET:
		w->calls++;
		return ipuxcom_nl_dev_get(w->nl, w->dev, &w->info);
	case OP_DEV_GET_UNTIL_GONE:
		do {
			w->calls++;
			ret = ipuxcom_nl_dev_get(w->nl, w->dev, &w->info);
		} while (ret == 0 && ixt_mono_ns() < end);
		return ret;
	case OP_RMMOD:
		return ixt_unload_module("ipuxcom_sim");
	case OP_UNBIND:
		return ixt_write_sysfs("/sys/bus/pci/drivers/ipu_driver/unbind",
				       strrchr(w->pci, '/') + 1);
	case OP_PCI_GONE:
		while (access(w->pci, F_OK) == 0 && ixt_mono_ns() < end)
			usleep(20 * 1000);
		return access(w->pci, F_OK) ? 0 : -ETIMEDOUT;
	case OP_QUIT:
		break;
	}
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	char c;

	while (read(w->go[0], &c, 1) == 1 && w->op != OP_QUIT) {
		w->ret = worker_op(w);
		w->ended_ns = ixt_mono_ns();
		if (write(w->done[1], "d", 1) != 1)
			break;
	}
	return NULL;
}

static int worker_start(struct worker *w)
{
	int ret;

	if (pipe2(w->go, O_CLOEXEC) || pipe2(w->done, O_CLOEXEC))
		return -errno;
	ret = -pthread_create(&w->th, NULL, worker_main, w);
	w->started = !ret;
	return ret;
}

static int worker_ask(struct worker *w, enum stall_op op)
{
	w->op = op;
	w->ret = -EINPROGRESS;
	w->busy = true;
	w->asked_ns = ixt_mono_ns();
	return write(w->go[1], "g", 1) == 1 ? 0 : -EIO;
}

/* Has the asked operation ended within @ms? */
static bool worker_wait(struct worker *w, int ms)
{
	if (!w->busy)
		return true;
	if (ixt_wait_byte(w->done[0], ms, NULL) != 1)
		return false;
	w->busy = false;
	return true;
}

/* Stop and join the thread, if its operation ended within @ms; else leave it. */
static bool worker_stop(struct worker *w, int ms)
{
	bool ended = worker_wait(w, ms);

	if (w->started && ended) {
		w->op = OP_QUIT;
		if (write(w->go[1], "q", 1) == 1)
			pthread_join(w->th, NULL);
		else
			pthread_detach(w->th);
	} else if (w->started) {
		pthread_detach(w->th);
	}
	w->started = false;
	for (int i = 0; i < 2; i++) {
		if (w->go[i] >= 0)
			close(w->go[i]);
		if (w->done[i] >= 0)
			close(w->done[i]);
		w->go[i] = w->done[i] = -1;
	}
	return ended;
}

/* ------------------------------------------------------------- helpers */

/*
 * Grow the heap now and never give it back, and keep every thread's
 * allocations in it: under the stall, a new arena (mmap) or a heap that
 * grows (brk) would take the mmap_lock for writing and queue behind the
 * stalled reader. Only small allocations follow (stdio, ixt_pinned_pages()).
 */
static void set_up_malloc(void)
{
	mallopt(M_ARENA_MAX, 1);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_TOP_PAD, 16 << 20);
	free(malloc(64));
}

/* ----------------------------------------------------------------- rig */

/*
 * What every case sets up around its device: the FUSE file and its
 * server, the lock probes, the thread to stall and the operation threads,
 * and the buffer the device holds with what was pinned before it.
 */
struct rig {
	struct ixt_fuse_srv srv;
	struct ixt_prober probe[2];
	int file;	/* the FUSE file */
	struct staller st;
	struct worker w[2];
	int fd;		/* the ipuxcom file holding the buffer in slot 0 */
	void *buf;
	long vmpin0, pinned0;
	unsigned int bound_s;
};

/* Nothing to undo yet: before a SKIP or ASSERT can return. */
static void rig_init(struct rig *r)
{
	memset(r, 0, sizeof(*r));
	r->file = r->st.ring = r->fd = -1;
	r->vmpin0 = r->pinned0 = -1;
	r->srv.pid = r->srv.ctl = r->srv.events = -1;
	for (int i = 0; i < 2; i++) {
		r->probe[i].pid = r->probe[i].go = r->probe[i].done = -1;
		r->st.go[i] = r->st.done[i] = -1;
		r->w[i].go[0] = r->w[i].go[1] = r->w[i].done[0] = r->w[i].done[1] = -1;
	}
	r->bound_s = OP_BOUND_S * (unsigned int)ixt_timeout_scale();
}

/* Why this kernel cannot stall a pin on a FUSE page, or NULL. */
static const char *rig_unsupported(struct rig *r)
{
	struct io_uring_params up;

	if (!ixt_fuse_available())
		return "no FUSE in this kernel (CONFIG_FUSE_FS; the VM image carries fuse.ko "
		       "where the kernel has it): the stall needs a READ nobody answers";
	memset(&up, 0, sizeof(up));
	r->st.ring = (int)syscall(__NR_io_uring_setup, 4, &up);
	if (r->st.ring < 0)
		return "no io_uring (io_uring_setup failed): the stall pins through it";
	return NULL;
}

/* The server and the probes (forked before the device's file is opened), the FUSE file mapped. */
static void rig_processes(struct __test_metadata *_metadata, struct rig *r)
{
	char path[128];
	int ret;

	set_up_malloc();
	/* a server gone early must not kill the test with SIGPIPE */
	signal(SIGPIPE, SIG_IGN);
	ret = ixt_fuse_start(&r->srv, SERVER_DEADLINE_S * (unsigned int)ixt_timeout_scale(),
			 STALL_LIMIT_S * (unsigned int)ixt_timeout_scale());
	ASSERT_EQ(0, ret) TH_LOG("FUSE server: %s", strerror(-ret));
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(0, ixt_prober_start(&r->probe[i], getpid()));
	snprintf(path, sizeof(path), "%s/" IXT_FUSE_FILE, r->srv.mnt);
	r->file = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, r->file) TH_LOG("open %s: %s", path, strerror(errno));
	r->st.page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, r->file, 0);
	ASSERT_NE(MAP_FAILED, r->st.page);
}

/* BUF_ATTACH of the buffer in slot 0 of @r->fd (an idle device), its pins counted. */
static void rig_attach(struct __test_metadata *_metadata, struct rig *r)
{
	r->buf = ixt_buf_alloc(BUF_PAGES * PAGE);
	ASSERT_NE(NULL, r->buf);
	memset(r->buf, 0x5a, BUF_PAGES * PAGE);
	r->vmpin0 = ixt_vmpin_kb();
	r->pinned0 = ixt_pinned_pages();
	ASSERT_LE(0, r->vmpin0) TH_LOG("no VmPin in /proc/self/status");
	ASSERT_EQ(0, ixt_buf_attach(r->fd, IPUXCOM_BUF_SLOT_LOADER, r->buf, BUF_PAGES * PAGE));
	ASSERT_EQ(r->vmpin0 + BUF_PAGES * PAGE / 1024, ixt_vmpin_kb());
	if (r->pinned0 >= 0)
		ASSERT_EQ(r->pinned0 + BUF_PAGES, ixt_pinned_pages());
}

/* The threads, while making them cannot queue behind the stall. */
static void rig_threads(struct __test_metadata *_metadata, struct rig *r, uint32_t dev,
			struct ipuxcom_nl *nl, int sim_devices, const char *pci)
{
	ASSERT_EQ(0, pipe2(r->st.go, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(r->st.done, O_CLOEXEC));
	ASSERT_EQ(0, pthread_create(&r->st.th, NULL, staller_main, &r->st));
	r->st.started = true;
	for (int i = 0; i < 2; i++) {
		r->w[i].fd = &r->fd;
		r->w[i].dev = dev;
		r->w[i].nl = nl;
		r->w[i].sim_devices = sim_devices;
		r->w[i].pci = pci;
		r->w[i].bound_ns = r->bound_s * 1000000000ull;
		ASSERT_EQ(0, worker_start(&r->w[i]));
	}
}

/*
 * Release the stall (the server's exit aborts its connection), let what
 * waited behind it end, and undo the rest but the device.
 */
static void rig_release(struct __test_metadata *_metadata, struct rig *r)
{
	int bound_ms = (int)r->bound_s * 1000;
	uint64_t t0 = ixt_mono_ns();
	bool ended;

	/*
	 * An ASSERT that failed in the test left through longjmp() with its
	 * message handler's trigger still set: the next EXPECT would print
	 * its own message though it passed.
	 */
	_metadata->trigger = 0;
	ixt_fuse_stop(&r->srv, bound_ms);
	if (r->st.started) {
		close(r->st.go[1]);	/* a staller never asked returns at once */
		r->st.go[1] = -1;
		ended = !r->st.asked || ixt_wait_byte(r->st.done[0], bound_ms, NULL) == 1;
		EXPECT_TRUE(ended) TH_LOG("the stalled thread did not return after the abort");
		if (r->st.asked && ended)
			TH_LOG("the stalled registration returned %d (%s) once released",
			       r->st.ret, strerror(-r->st.ret));
		if (ended)
			pthread_join(r->st.th, NULL);
		else
			pthread_detach(r->st.th);
		r->st.started = false;
	}
	for (int i = 0; i < 2; i++) {
		bool busy = r->w[i].busy;
		enum stall_op op = r->w[i].op;

		ended = worker_stop(&r->w[i], bound_ms);
		EXPECT_TRUE(ended) TH_LOG("%s still blocked %u s after the stall was released",
					  op_names[op], r->bound_s);
		if (busy && ended)
			TH_LOG("%s ended %llu ms after the stall was released (ret %d)",
			       op_names[op], (unsigned long long)((ixt_mono_ns() - t0) / 1000000),
			       r->w[i].ret);
	}
	for (int i = 0; i < 2; i++)
		ixt_prober_reap(&r->probe[i]);
	if (r->st.page && r->st.page != MAP_FAILED)
		munmap(r->st.page, PAGE);
	r->st.page = NULL;
	if (r->file >= 0)
		close(r->file);
	if (r->st.ring >= 0)
		close(r->st.ring);
	r->file = r->st.ring = -1;
	for (int i = 0; i < 2; i++) {
		if (r->st.go[i] >= 0)
			close(r->st.go[i]);
		if (r->st.done[i] >= 0)
			close(r->st.done[i]);
		r->st.go[i] = r->st.done[i] = -1;
	}
}

/* Nothing stayed pinned or charged (after the device's file is closed). */
static void rig_no_leak(struct __test_metadata *_metadata, struct rig *r)
{
	if (r->vmpin0 >= 0)
		EXPECT_EQ(r->vmpin0, ixt_vmpin_kb());
	if (r->pinned0 >= 0)
		EXPECT_EQ(r->pinned0, ixt_pinned_pages());
	if (r->buf)
		munmap(r->buf, BUF_PAGES * PAGE);
	r->buf = NULL;
}

/*
 * Stall the thread and prove it holds the lock: its READ reached the
 * server, it has not returned, and a writer of the mm waits.
 */
static void stall_begin(struct __test_metadata *_metadata, struct rig *r)
{
	char c = 0, state, wchan[64];
	pid_t tid;

	/* the server ends the stall by itself STALL_LIMIT_S from now */
	ASSERT_EQ(1, write(r->srv.ctl, "S", 1));
	ASSERT_EQ(1, write(r->st.go[1], "g", 1));
	r->st.asked = true;
	ASSERT_EQ(1, ixt_wait_byte(r->srv.events, 10000, &c))
		TH_LOG("no READ reached the server (registration: %d)", r->st.ret);
	ASSERT_EQ('R', c);
	usleep(100 * 1000);
	ASSERT_EQ(0, ixt_wait_byte(r->st.done[0], 0, NULL))
		TH_LOG("the io_uring registration returned: %d", r->st.ret);
	tid = __atomic_load_n(&r->st.tid, __ATOMIC_ACQUIRE);
	staller_state(tid, &state, wchan, sizeof(wchan));
	TH_LOG("stalled thread %d: state %c, wchan %s", (int)tid, state, wchan);
	ASSERT_EQ(1, ixt_mm_lock_held(&r->probe[0]))
		TH_LOG("a writer got the mmap_lock: nothing holds it, nothing is tested");
}

/*
 * The operation asked of @w ended within the bound, from the request to
 * its end as the thread that ran it saw them: a test thread that itself
 * waited behind the lock (a queued writer) cannot make it look faster.
 */
static void ended_within_bound(struct __test_metadata *_metadata, struct rig *r,
			       struct worker *w)
{
	uint64_t bound_ns = r->bound_s * 1000000000ull, waited = ixt_mono_ns() - w->asked_ns;
	uint64_t took;

	ASSERT_TRUE(worker_wait(w, waited < bound_ns ? (int)((bound_ns - waited) / 1000000) : 0))
		TH_LOG("%s still blocked after %u s behind the stalled mmap_lock",
		       op_names[w->op], r->bound_s);
	took = w->ended_ns - w->asked_ns;
	TH_LOG("%s: %d in %llu ms", op_names[w->op], w->ret, (unsigned long long)(took / 1000000));
	ASSERT_GE(bound_ns, took) TH_LOG("%s took longer than %u s", op_names[w->op], r->bound_s);
}

/* Run @op on worker @i and check that it ends within the bound, with @want. */
static void op_within_bound(struct __test_metadata *_metadata, struct rig *r,
			    int i, enum stall_op op, int want)
{
	struct worker *w = &r->w[i];

	ASSERT_EQ(0, worker_ask(w, op));
	ended_within_bound(_metadata, r, w);
	EXPECT_EQ(want, w->ret);
}

/* The buffer is gone at once, the lock still held: nothing waited for it. */
static void released_under_stall(struct __test_metadata *_metadata, struct rig *r)
{
	EXPECT_EQ(r->vmpin0, ixt_vmpin_kb());
	if (r->pinned0 >= 0)
		EXPECT_EQ(r->pinned0, ixt_pinned_pages());
	EXPECT_EQ(1, ixt_mm_lock_held(&r->probe[1])) TH_LOG("the stall ended early");
}

/* ---------------------------------------------------- simulated device */

FIXTURE(stall) {
	struct rig r;
	int before;	/* simulated devices before the test; -1: none added */
	uint32_t dev;
	struct ipuxcom_nl *nl;
	bool rmmod_asked;
};

FIXTURE_SETUP(stall)
{
	unsigned char ids[IXT_MAX_IDS];
	const char *why;
	int id;

	rig_init(&self->r);
	self->before = -1;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	why = rig_unsupported(&self->r);
	if (why)
		SKIP(return, "%s", why);

	/* the device of this test: the newest, which a smaller count removes */
	self->before = ixt_sim_devices();
	ixt_sim_device_ids(ids);
	ASSERT_EQ(0, ixt_set_sim_devices(self->before + 1));
	id = ixt_added_sim_device(ids);
	ASSERT_LE(0, id);
	self->dev = (uint32_t)id;

	rig_processes(_metadata, &self->r);
	self->r.fd = ixt_open();
	ASSERT_LE(0, self->r.fd);
	ASSERT_EQ(0, ixt_attach(self->r.fd, self->dev));
	ixt_sim_clear_faults(self->dev);
	ASSERT_EQ(0, ixt_reset(self->r.fd));	/* slot 0 wants an idle device */
	rig_attach(_metadata, &self->r);
	ASSERT_EQ(0, ipuxcom_nl_open(&self->nl));
	rig_threads(_metadata, &self->r, self->dev, self->nl, self->before, NULL);
}

FIXTURE_TEARDOWN(stall)
{
	rig_release(_metadata, &self->r);
	ipuxcom_nl_close(self->nl);
	if (self->r.fd >= 0)
		close(self->r.fd);
	if (self->rmmod_asked && !ixt_module_loaded("ipuxcom_sim")) {
		char params[32];

		snprintf(params, sizeof(params), "devices=%d", self->before);
		EXPECT_EQ(0, ixt_load_module(getenv("IPUXCOM_SIM_KO"), params));
		EXPECT_EQ(self->before, ixt_sim_devices());
	} else if (self->before >= 0 && ixt_sim_devices() != self->before) {
		EXPECT_EQ(0, ixt_set_sim_devices(self->before));
	}
	rig_no_leak(_metadata, &self->r);
}

/* (a) the device goes: the sim "devices" parameter written smaller */
TEST_F_TIMEOUT(stall, device_removal_within_bound, 60)
{
	struct ipuxcom_ioc_dev_query q;

	if (_metadata->skip)
		return;
	stall_begin(_metadata, &self->r);
	op_within_bound(_metadata, &self->r, 0, OP_REMOVE, 0);
	EXPECT_EQ(-ENODEV, ixt_query(self->r.fd, &q));
	released_under_stall(_metadata, &self->r);
}

/* (b) close of the file that holds the buffer */
TEST_F_TIMEOUT(stall, close_within_bound, 60)
{
	if (_metadata->skip)
		return;
	stall_begin(_metadata, &self->r);
	op_within_bound(_metadata, &self->r, 0, OP_CLOSE, 0);
	self->r.fd = -1;
	released_under_stall(_metadata, &self->r);
}

/* (c) RESET drops the pins */
TEST_F_TIMEOUT(stall, reset_within_bound, 60)
{
	if (_metadata->skip)
		return;
	stall_begin(_metadata, &self->r);
	op_within_bound(_metadata, &self->r, 0, OP_RESET, 0);
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ixt_state(self->r.fd));
	EXPECT_EQ(-ENOENT, ixt_buf_detach(self->r.fd, IPUXCOM_BUF_SLOT_LOADER));
	released_under_stall(_metadata, &self->r);
}

/*
 * (d) DEV_GET of the device, alone and while the device is removed: it
 * runs under genetlink's cb_lock, so it must never wait for ops_lock,
 * which removal holds for writing (it takes dev->lock only). With the old
 * accounting the removal beside it is what blocks: the DEV_GETs were
 * answered already (ENODEV once the device left the registry).
 */
TEST_F_TIMEOUT(stall, dev_get_within_bound, 60)
{
	struct worker *w = self->r.w;

	if (_metadata->skip)
		return;
	stall_begin(_metadata, &self->r);
	op_within_bound(_metadata, &self->r, 0, OP_DEV_GET, 0);
	EXPECT_EQ(self->dev, w[0].info.dev_id);
	EXPECT_STREQ("sim", w[0].info.backend);
	ASSERT_EQ(0, worker_ask(&w[1], OP_REMOVE));
	op_within_bound(_metadata, &self->r, 0, OP_DEV_GET_UNTIL_GONE, -ENODEV);
	ended_within_bound(_metadata, &self->r, &w[1]);
	EXPECT_EQ(0, w[1].ret);
	TH_LOG("%ld DEV_GETs while the device went", w[0].calls - 1);
	released_under_stall(_metadata, &self->r);
}

/* (e) rmmod ipuxcom_sim (reloaded with as many devices at the end) */
TEST_F_TIMEOUT(stall, rmmod_within_bound, 60)
{
	const char *ko = getenv("IPUXCOM_SIM_KO");

	if (_metadata->skip)
		return;
	if (!ko || access(ko, R_OK))
		SKIP(return, "IPUXCOM_SIM_KO not set or unreadable: no reload after rmmod");
	stall_begin(_metadata, &self->r);
	self->rmmod_asked = true;
	op_within_bound(_metadata, &self->r, 0, OP_RMMOD, 0);
	EXPECT_FALSE(ixt_module_loaded("ipuxcom_sim"));
	released_under_stall(_metadata, &self->r);
}

/* ------------------------------------------- another process stalled */

/*
 * The pins belong to another process whose mm is stalled, and that
 * process is, in one variant, a user without any capability: uid 65534
 * attaches host page 0 of a host exchange root began (no privilege needed
 * for that), through the attached file it inherited, then closes its copy
 * and stalls (ixt_fuse_stall.h's stalled owner). The test's own mm is
 * free, so each operation runs in the test's thread, timed from the
 * request to its end; the server ends the stall by itself after the
 * bound, so an operation that waited for the owner ends too, late.
 */
FIXTURE(owner_stall) {
	struct ixt_stalled_owner o;
	bool started;
	int before;	/* simulated devices before the test; -1: none added */
	uint32_t dev;
	struct ipuxcom *ipu;
	int fd;
	long pinned0;
	unsigned int bound_s;
};

FIXTURE_VARIANT(owner_stall) {
	bool unprivileged;
};

/* root's own buffer: the transport buffer (slot 0) of an idle device */
FIXTURE_VARIANT_ADD(owner_stall, root_loader_buffer) {
	.unprivileged = false,
};

/* no capability at all: host page 0 of a host exchange root began */
FIXTURE_VARIANT_ADD(owner_stall, unprivileged_host_page) {
	.unprivileged = true,
};

FIXTURE_SETUP(owner_stall)
{
	struct ipuxcom_ioc_hostx_setup hs = {
		.size = sizeof(hs), .flags = IPUXCOM_HOSTX_F_BEGIN, .npages = 1,
		.page_bytes = { BUF_PAGES * PAGE }, .attach_order = { 0 },
	};
	struct ixt_stall_how how = { .slot = 0, .bytes = BUF_PAGES * PAGE };
	unsigned char ids[IXT_MAX_IDS];
	char why[320];
	int id, ret;

	self->before = -1;
	self->fd = -1;
	self->ipu = NULL;
	self->bound_s = OP_BOUND_S * (unsigned int)ixt_timeout_scale();
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	if (!ixt_fuse_available())
		SKIP(return, "no FUSE in this kernel (CONFIG_FUSE_FS): the stall needs a READ "
		     "nobody answers");
	self->before = ixt_sim_devices();
	ixt_sim_device_ids(ids);
	ASSERT_EQ(0, ixt_set_sim_devices(self->before + 1));
	id = ixt_added_sim_device(ids);
	ASSERT_LE(0, id);
	self->dev = (uint32_t)id;
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, self->dev)) TH_LOG("%s", ipuxcom_errmsg(self->ipu));
	ixt_sim_clear_faults(self->dev);
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL)) TH_LOG("%s", ipuxcom_errmsg(self->ipu));
	self->fd = ipuxcom_fd(self->ipu);
	if (variant->unprivileged) {
		ASSERT_EQ(0, ixt_load_small(self->ipu, why, sizeof(why))) TH_LOG("%s", why);
		hs.timeout_ns = ixt_scaled_ns(10ull * 1000000000ull);
		ASSERT_EQ(0, ixt_ioctl(self->fd, IPUXCOM_IOC_HOSTX_SETUP, &hs));
	}
	self->pinned0 = ixt_pinned_pages();
	how.fd = self->fd;
	how.unprivileged = variant->unprivileged;
	how.deadline_s = self->bound_s + 5;
	self->started = true;
	ret = ixt_stalled_owner_start(&self->o, &how, why, sizeof(why));
	ASSERT_EQ(0, ret) TH_LOG("%s", why);
	ASSERT_EQ(BUF_PAGES * PAGE / 1024, ixt_vmpin_kb_of(self->o.pid));
	if (self->pinned0 >= 0)
		ASSERT_EQ(self->pinned0 + BUF_PAGES, ixt_pinned_pages());
	TH_LOG("owner %d (%s) stalled with %u pages pinned in slot 0", (int)self->o.pid,
	       variant->unprivileged ? "uid 65534, no capabilities" : "root", BUF_PAGES);
}

FIXTURE_TEARDOWN(owner_stall)
{
	_metadata->trigger = 0;
	if (self->started)
		EXPECT_EQ(0, ixt_stalled_owner_end(&self->o, (int)self->bound_s * 1000))
			TH_LOG("the stalled owner did not end once released");
	if (self->ipu)
		ipuxcom_close(self->ipu);
	if (self->before >= 0 && ixt_sim_devices() != self->before)
		EXPECT_EQ(0, ixt_set_sim_devices(self->before));
	if (self->pinned0 >= 0)
		EXPECT_EQ(self->pinned0, ixt_pinned_pages());
}

/*
 * @what ran from @t0 to now within the bound, the owner's pages let go
 * while its mm is still stalled.
 */
static void owner_released(struct __test_metadata *_metadata, FIXTURE_DATA(owner_stall) *self,
			   const char *what, uint64_t t0)
{
	uint64_t took = ixt_mono_ns() - t0;

	TH_LOG("%s: %llu ms", what, (unsigned long long)(took / 1000000));
	EXPECT_GE(self->bound_s * 1000000000ull, took)
		TH_LOG("%s waited %llu ms: for the stalled owner", what,
		       (unsigned long long)(took / 1000000));
	EXPECT_EQ(0, ixt_vmpin_kb_of(self->o.pid));
	if (self->pinned0 >= 0)
		EXPECT_EQ(self->pinned0, ixt_pinned_pages());
	EXPECT_EQ(1, ixt_stalled_owner_holds_lock(&self->o)) TH_LOG("the stall ended early");
}

/* (h) the device goes, its pins a stalled process's */
TEST_F_TIMEOUT(owner_stall, device_removal_within_bound, 90)
{
	struct ipuxcom_device_info info;
	uint64_t t0;

	if (_metadata->skip)
		return;
	t0 = ixt_mono_ns();
	EXPECT_EQ(0, ixt_set_sim_devices(self->before));
	owner_released(_metadata, self, "device removal", t0);
	EXPECT_EQ(-ENODEV, ipuxcom_dev_query(self->ipu, &info));
}

/* (i) the last close of the file (the owner closed its copy) */
TEST_F_TIMEOUT(owner_stall, close_within_bound, 90)
{
	uint64_t t0;

	if (_metadata->skip)
		return;
	t0 = ixt_mono_ns();
	ipuxcom_close(self->ipu);
	self->ipu = NULL;
	owner_released(_metadata, self, "close", t0);
}

/* (j) RESET by the file's holder */
TEST_F_TIMEOUT(owner_stall, reset_within_bound, 90)
{
	uint64_t t0;

	if (_metadata->skip)
		return;
	t0 = ixt_mono_ns();
	EXPECT_EQ(0, ixt_reset(self->fd));
	owner_released(_metadata, self, "RESET", t0);
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ixt_state(self->fd));
	EXPECT_EQ(-ENOENT, ixt_buf_detach(self->fd, 0));
}

/* ------------------------------------------------------ the QEMU C600 */

/*
 * The card lane (make check-vm-c600): the C600 bound by the ipu_driver
 * stand-in and served by ipuxcom_hw, the buffer attached in a session of
 * the library. Removal goes through the PCI function's device_lock and
 * ipuxcom_hw's hw_lock before ops_lock: a removal that slept on the user
 * would hold up every PCI bind and unbind of the system.
 */
FIXTURE(card_stall) {
	struct rig r;
	struct ipuxcom *ipu;
	char pci[300];
	bool unbound, deleted;
};

FIXTURE_SETUP(card_stall)
{
	struct ipuxcom_device_info info;
	const char *why;
	long id;

	rig_init(&self->r);
	self->ipu = NULL;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	if (!getenv("IPUXCOM_STANDIN_KO") || !getenv("IPUXCOM_HW_KO"))
		SKIP(return, "IPUXCOM_STANDIN_KO/IPUXCOM_HW_KO not set: test VM only");
	if (!ixt_c600_find(self->pci, sizeof(self->pci)))
		SKIP(return, "no QEMU C600 (1d95:c600): the card lane's VM (make check-vm-c600)");
	why = rig_unsupported(&self->r);
	if (why)
		SKIP(return, "%s", why);
	/* ipu_driver signals the holder of a card: blocked, in every thread made after */
	ASSERT_EQ(0, ipuxcom_block_driver_signals());
	if (access("/dev/ipu0", F_OK))
		ASSERT_EQ(0, ixt_standin_load(""));
	ASSERT_EQ(0, ixt_standin_hw_load());
	id = ixt_hw_dev_id();
	ASSERT_LE(0, id) TH_LOG("ipuxcom_hw registered no device for the C600");

	rig_processes(_metadata, &self->r);
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, (uint32_t)id)) TH_LOG("%s", ipuxcom_errmsg(self->ipu));
	ASSERT_EQ(0, ipuxcom_dev_query(self->ipu, &info));
	ASSERT_STREQ("hw", info.backend);
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL)) TH_LOG("%s", ipuxcom_errmsg(self->ipu));
	self->r.fd = ipuxcom_fd(self->ipu);
	rig_attach(_metadata, &self->r);
	rig_threads(_metadata, &self->r, (uint32_t)id, NULL, -1, self->pci);
}

FIXTURE_TEARDOWN(card_stall)
{
	char drv[400];

	rig_release(_metadata, &self->r);
	if (self->ipu)
		ipuxcom_close(self->ipu);
	self->r.fd = -1;
	/* the card back for the tests after this one */
	snprintf(drv, sizeof(drv), "%s/driver", self->pci);
	if (self->deleted) {
		/* gone (after the stall, if it waited for it), then back */
		EXPECT_EQ(0, ixt_wait_path(self->pci, false, 100));
		ixt_qemu_monitor(IXT_C600_QEMU_ADD);
		EXPECT_EQ(0, ixt_wait_path(self->pci, true, 300)) TH_LOG("C600 not back");
	} else if (self->unbound && access(drv, F_OK)) {
		EXPECT_EQ(0, ixt_write_sysfs("/sys/bus/pci/drivers/ipu_driver/bind",
					     strrchr(self->pci, '/') + 1));
	}
	if (self->deleted || self->unbound) {
		EXPECT_EQ(0, ixt_wait_path(drv, true, 100));
		EXPECT_EQ(0, ixt_card_wait(true, 10000));
	}
	rig_no_leak(_metadata, &self->r);
}

/* (f) the C600 unbound from ipu_driver (ipuxcom_hw follows through its notifier) */
TEST_F_TIMEOUT(card_stall, pci_unbind_within_bound, 60)
{
	uint32_t v;

	if (_metadata->skip)
		return;
	stall_begin(_metadata, &self->r);
	self->unbound = true;
	op_within_bound(_metadata, &self->r, 0, OP_UNBIND, 0);
	EXPECT_EQ(-ENODEV, ipuxcom_reg_read(self->ipu, 0, &v));
	released_under_stall(_metadata, &self->r);
}

/* (g) QEMU's device_del of the C600 (ACPI hot removal), through run-vm.sh's relay */
TEST_F_TIMEOUT(card_stall, qemu_device_del_within_bound, 90)
{
	uint32_t v;

	if (_metadata->skip)
		return;
	if (!getenv("IPUXCOM_QEMU_MONITOR"))
		SKIP(return, "no QEMU monitor relay (IPUXCOM_QEMU_MONITOR): run-vm.sh only");
	stall_begin(_metadata, &self->r);
	self->deleted = true;
	ixt_qemu_monitor("device_del " IXT_C600_QEMU_ID);
	op_within_bound(_metadata, &self->r, 0, OP_PCI_GONE, 0);
	EXPECT_EQ(-ENODEV, ipuxcom_reg_read(self->ipu, 0, &v));
	released_under_stall(_metadata, &self->r);
}

TEST_HARNESS_MAIN
