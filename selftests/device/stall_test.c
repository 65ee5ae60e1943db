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
 * Needs FUSE in the guest kernel: the plain VM loads fuse.ko
 * (mkinitramfs.sh --kmods); a kernel without it (the debug lane's:
 * CONFIG_FUSE_FS is not set) skips.
 */
#include "kselftest_harness.h"

#include <linux/fuse.h>
#include <linux/io_uring.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_modules.h"
#include "ixt_simdev.h"
#include "ixt_standin.h"

#define PAGE			4096u
#define BUF_PAGES		16u
#define FUSE_FILE		"stall"
#define FUSE_FILE_BYTES		(1u << 20)
#define FUSE_FILE_NODE		2
/* an operation under the stall must end within this (x the lane's scale) */
#define OP_BOUND_S		10
/* a writer of the mm that waits this long: a reader holds the lock */
#define LOCK_PROBE_MS		1000
/* the server aborts its connection by itself then: the stall always ends */
#define SERVER_DEADLINE_S	60
/* ... and this long after the stall began (the probes, the bound, slack) */
#define STALL_LIMIT_S		(OP_BOUND_S + 5)
/* the kernel reads /dev/fuse requests into at least this much */
#define SERVER_BUF_BYTES	(FUSE_MIN_READ_BUFFER + 2 * PAGE)

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One byte from @fd within @ms: 1 (into *@c), 0 on timeout, -errno (-EPIPE at EOF). */
static int wait_byte(int fd, int ms, char *c)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ull;
	int64_t left;
	ssize_t n;
	char dummy;

	for (;;) {
		left = (int64_t)(end - now_ns()) / 1000000;
		n = poll(&p, 1, left > 0 ? (int)left : 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		n = read(fd, c ? c : &dummy, 1);
		if (n == 1)
			return 1;
		if (n == 0)
			return -EPIPE;
		if (errno != EINTR)
			return -errno;
	}
}

/* In a child: close every descriptor but @keep_a and @keep_b (and 0-2). */
static void close_others(int keep_a, int keep_b)
{
	for (int fd = 3; fd < 1024; fd++)
		if (fd != keep_a && fd != keep_b)
			close(fd);
}

/* ---------------------------------------------------------- FUSE server */

struct fuse_srv {
	pid_t pid;
	int ctl;	/* write end: a byte, or EOF, ends the server */
	int events;	/* read end: 'M' mounted, 'R' a READ came (never answered), 'E' failed */
	char mnt[64];
	bool mounted;
};

static void fuse_answer(int dev, const struct fuse_in_header *in, int error,
			const void *arg, size_t len)
{
	struct fuse_out_header out = {
		.len = (uint32_t)(sizeof(out) + (error ? 0 : len)), .error = error,
		.unique = in->unique,
	};
	struct iovec iov[2] = { { &out, sizeof(out) }, { (void *)arg, len } };

	if (writev(dev, iov, error || !len ? 1 : 2) < 0)
		return;	/* the request was interrupted or the connection aborted */
}

static void fuse_attr_of(uint64_t node, struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = node;
	a->blksize = PAGE;
	if (node == FUSE_ROOT_ID) {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
	} else {
		a->mode = S_IFREG | 0666;
		a->nlink = 1;
		a->size = FUSE_FILE_BYTES;
		a->blocks = FUSE_FILE_BYTES / 512;
	}
}

/* Answer one request of @len bytes in @req; READ gets no answer, ever. */
static void fuse_serve_one(int dev, const char *req, size_t len, int events)
{
	const struct fuse_in_header *in = (const void *)req;
	const void *arg = req + sizeof(*in);
	union {
		struct fuse_init_out init;
		struct fuse_entry_out entry;
		struct fuse_attr_out attr;
		struct fuse_open_out open;
	} out;

	if (len < sizeof(*in))
		return;
	memset(&out, 0, sizeof(out));
	switch (in->opcode) {
	case FUSE_INIT: {
		const struct fuse_init_in *ii = arg;

		/* 7.31 and no flags: synchronous reads, nothing optional */
		out.init.major = FUSE_KERNEL_VERSION;
		out.init.minor = 31;
		out.init.max_readahead = ii->max_readahead;
		out.init.max_background = 16;
		out.init.congestion_threshold = 12;
		out.init.max_write = PAGE;
		out.init.time_gran = 1;
		fuse_answer(dev, in, 0, &out.init, sizeof(out.init));
		break;
	}
	case FUSE_LOOKUP:
		if (in->nodeid != FUSE_ROOT_ID || strcmp(arg, FUSE_FILE)) {
			fuse_answer(dev, in, -ENOENT, NULL, 0);
			break;
		}
		out.entry.nodeid = FUSE_FILE_NODE;
		out.entry.generation = 1;
		out.entry.entry_valid = 3600;
		out.entry.attr_valid = 3600;
		fuse_attr_of(FUSE_FILE_NODE, &out.entry.attr);
		fuse_answer(dev, in, 0, &out.entry, sizeof(out.entry));
		break;
	case FUSE_GETATTR:
		out.attr.attr_valid = 3600;
		fuse_attr_of(in->nodeid, &out.attr.attr);
		fuse_answer(dev, in, 0, &out.attr, sizeof(out.attr));
		break;
	case FUSE_OPEN:
	case FUSE_OPENDIR:
		out.open.fh = 1;
		fuse_answer(dev, in, 0, &out.open, sizeof(out.open));
		break;
	case FUSE_RELEASE:
	case FUSE_RELEASEDIR:
		fuse_answer(dev, in, 0, NULL, 0);
		break;
	case FUSE_READ:
		/* the stall: the faulting thread waits for this answer forever */
		if (write(events, "R", 1) != 1)
			_exit(3);
		break;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		break;	/* no answer expected (an interrupted READ stays unanswered) */
	default:
		fuse_answer(dev, in, -ENOSYS, NULL, 0);
		break;
	}
}

/*
 * The server, in a child process: mount @mnt on a fresh /dev/fuse, answer
 * until the test says stop (a byte but 'S', or EOF, on @ctl), @deadline_s
 * pass, @stall_s pass after an 'S' (the stall began), or the test's main
 * thread dies. Its exit closes /dev/fuse, which aborts the connection: the
 * stalled READ ends with an error.
 */
static void __attribute__((noreturn)) fuse_server(const char *mnt, int ctl, int events,
						  pid_t parent, unsigned int deadline_s,
						  unsigned int stall_s)
{
	static char req[SERVER_BUF_BYTES];
	uint64_t deadline = now_ns() + deadline_s * 1000000000ull, t;
	char c;
	char opts[128];
	struct pollfd p[2];
	ssize_t n;
	int dev;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
	dev = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=0,group_id=0", dev);
	if (dev < 0 || mount("ixt_stall", mnt, "fuse", MS_NOSUID | MS_NODEV, opts)) {
		if (write(events, "E", 1) != 1)
			_exit(3);
		_exit(2);
	}
	if (write(events, "M", 1) != 1)
		_exit(3);
	p[0] = (struct pollfd){ .fd = dev, .events = POLLIN };
	p[1] = (struct pollfd){ .fd = ctl, .events = POLLIN };
	while (now_ns() < deadline) {
		if (poll(p, 2, 100) < 0 && errno != EINTR)
			break;
		if (p[1].revents) {
			if (read(ctl, &c, 1) != 1 || c != 'S')
				break;
			t = now_ns() + stall_s * 1000000000ull;
			if (t < deadline)
				deadline = t;
			continue;
		}
		if (!(p[0].revents & POLLIN)) {
			if (p[0].revents)
				break;	/* aborted or unmounted */
			continue;
		}
		n = read(dev, req, sizeof(req));
		if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == ENOENT))
			continue;	/* ENOENT: a request interrupted before we read it */
		if (n < 0)
			break;
		fuse_serve_one(dev, req, (size_t)n, events);
	}
	_exit(0);
}

static int fuse_start(struct fuse_srv *s, unsigned int deadline_s, unsigned int stall_s)
{
	int ctl[2], ev[2];
	pid_t parent = getpid();
	char c;
	int ret;

	s->pid = -1;
	s->ctl = s->events = -1;
	snprintf(s->mnt, sizeof(s->mnt), "/tmp/ixt-stall-XXXXXX");
	if (!mkdtemp(s->mnt)) {
		s->mnt[0] = '\0';
		return -errno;
	}
	if (pipe2(ctl, O_CLOEXEC))
		return -errno;
	if (pipe2(ev, O_CLOEXEC)) {
		ret = -errno;
		close(ctl[0]);
		close(ctl[1]);
		return ret;
	}
	s->pid = fork();
	if (s->pid == 0) {
		close_others(ctl[0], ev[1]);
		fuse_server(s->mnt, ctl[0], ev[1], parent, deadline_s, stall_s);
	}
	close(ctl[0]);
	close(ev[1]);
	s->ctl = ctl[1];
	s->events = ev[0];
	if (s->pid < 0)
		return -errno;
	ret = wait_byte(s->events, 10000, &c);
	if (ret == 1 && c == 'M') {
		s->mounted = true;
		return 0;
	}
	return ret < 0 ? ret : -EIO;
}

/* End the server (its exit aborts the connection) and reap it, within @ms. */
static int fuse_stop(struct fuse_srv *s, int ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ull;
	int status;

	if (s->ctl >= 0) {
		if (write(s->ctl, "A", 1) != 1)
			kill(s->pid, SIGKILL);
		close(s->ctl);
		s->ctl = -1;
	}
	while (s->pid > 0) {
		pid_t r = waitpid(s->pid, &status, WNOHANG);

		if (r == s->pid || (r < 0 && errno != EINTR)) {
			s->pid = -1;
			break;
		}
		if (now_ns() > end) {
			kill(s->pid, SIGKILL);
			end = now_ns() + 5000000000ull;
		}
		usleep(10000);
	}
	if (s->events >= 0)
		close(s->events);
	s->events = -1;
	if (s->mounted)
		umount2(s->mnt, MNT_DETACH);
	s->mounted = false;
	if (s->mnt[0])
		rmdir(s->mnt);
	s->mnt[0] = '\0';
	return 0;
}

/* Is FUSE there, loading fuse.ko if need be? */
static bool fuse_available(void)
{
	if (access("/dev/fuse", F_OK))
		ixt_load_kmod("fuse");
	return access("/dev/fuse", F_OK) == 0;
}

/* ------------------------------------------------------------ lock probe */

/*
 * A helper process, forked before the stall, that takes the test
 * process's mmap_lock for writing once asked: writing "5" to
 * /proc/PID/clear_refs (reset the peak RSS) takes it with
 * mmap_write_lock_killable() and changes nothing else. If it has not
 * answered within LOCK_PROBE_MS, a reader holds the lock: the helper is
 * killed, which takes its queued write request back, so the test's own
 * threads do not stay behind it.
 */
struct prober {
	pid_t pid;
	int go;		/* write end */
	int done;	/* read end: 'w' once the write went through, 'E' failed */
};

static int prober_start(struct prober *p, pid_t target)
{
	int go[2], done[2];
	char path[64];

	p->pid = -1;
	p->go = p->done = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(done, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return -errno;
	}
	p->pid = fork();
	if (p->pid == 0) {
		char c;
		int fd;

		close_others(go[0], done[1]);
		snprintf(path, sizeof(path), "/proc/%d/clear_refs", (int)target);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (read(go[0], &c, 1) != 1)
			_exit(0);
		c = fd >= 0 && write(fd, "5", 1) == 1 ? 'w' : 'E';
		_exit(write(done[1], &c, 1) == 1 ? 0 : 1);
	}
	close(go[0]);
	close(done[1]);
	p->go = go[1];
	p->done = done[0];
	return p->pid < 0 ? -errno : 0;
}

static void prober_reap(struct prober *p)
{
	uint64_t end = now_ns() + 5000000000ull;
	int status;

	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		while (waitpid(p->pid, &status, WNOHANG) == 0 && now_ns() < end)
			usleep(10000);
	}
	p->pid = -1;
	if (p->go >= 0)
		close(p->go);
	if (p->done >= 0)
		close(p->done);
	p->go = p->done = -1;
}

/* 1: the mm's lock is held (a writer waited LOCK_PROBE_MS), 0: it was free, -errno. */
static int lock_held(struct prober *p)
{
	char c = 0;
	int ret;

	if (p->pid <= 0 || write(p->go, "g", 1) != 1)
		return -EIO;
	ret = wait_byte(p->done, LOCK_PROBE_MS, &c);
	prober_reap(p);
	if (ret == 0)
		return 1;
	if (ret == 1)
		return c == 'w' ? 0 : -EIO;
	return ret;
}

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
	uint64_t end = now_ns() + w->bound_ns;
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
		} while (ret == 0 && now_ns() < end);
		return ret;
	case OP_RMMOD:
		return ixt_unload_module("ipuxcom_sim");
	case OP_UNBIND:
		return ixt_write_sysfs("/sys/bus/pci/drivers/ipu_driver/unbind",
				       strrchr(w->pci, '/') + 1);
	case OP_PCI_GONE:
		while (access(w->pci, F_OK) == 0 && now_ns() < end)
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
		w->ended_ns = now_ns();
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
	w->asked_ns = now_ns();
	return write(w->go[1], "g", 1) == 1 ? 0 : -EIO;
}

/* Has the asked operation ended within @ms? */
static bool worker_wait(struct worker *w, int ms)
{
	if (!w->busy)
		return true;
	if (wait_byte(w->done[0], ms, NULL) != 1)
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
	struct fuse_srv srv;
	struct prober probe[2];
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

	if (!fuse_available())
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
	ret = fuse_start(&r->srv, SERVER_DEADLINE_S * (unsigned int)ixt_timeout_scale(),
			 STALL_LIMIT_S * (unsigned int)ixt_timeout_scale());
	ASSERT_EQ(0, ret) TH_LOG("FUSE server: %s", strerror(-ret));
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(0, prober_start(&r->probe[i], getpid()));
	snprintf(path, sizeof(path), "%s/" FUSE_FILE, r->srv.mnt);
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
	uint64_t t0 = now_ns();
	bool ended;

	/*
	 * An ASSERT that failed in the test left through longjmp() with its
	 * message handler's trigger still set: the next EXPECT would print
	 * its own message though it passed.
	 */
	_metadata->trigger = 0;
	fuse_stop(&r->srv, bound_ms);
	if (r->st.started) {
		close(r->st.go[1]);	/* a staller never asked returns at once */
		r->st.go[1] = -1;
		ended = !r->st.asked || wait_byte(r->st.done[0], bound_ms, NULL) == 1;
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
			       op_names[op], (unsigned long long)((now_ns() - t0) / 1000000),
			       r->w[i].ret);
	}
	for (int i = 0; i < 2; i++)
		prober_reap(&r->probe[i]);
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
	ASSERT_EQ(1, wait_byte(r->srv.events, 10000, &c))
		TH_LOG("no READ reached the server (registration: %d)", r->st.ret);
	ASSERT_EQ('R', c);
	usleep(100 * 1000);
	ASSERT_EQ(0, wait_byte(r->st.done[0], 0, NULL))
		TH_LOG("the io_uring registration returned: %d", r->st.ret);
	tid = __atomic_load_n(&r->st.tid, __ATOMIC_ACQUIRE);
	staller_state(tid, &state, wchan, sizeof(wchan));
	TH_LOG("stalled thread %d: state %c, wchan %s", (int)tid, state, wchan);
	ASSERT_EQ(1, lock_held(&r->probe[0]))
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
	uint64_t bound_ns = r->bound_s * 1000000000ull, waited = now_ns() - w->asked_ns;
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
	EXPECT_EQ(1, lock_held(&r->probe[1])) TH_LOG("the stall ended early");
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
