/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A user that holds its own mmap_lock for as long as it likes (issue 32),
 * for the device tests that check nothing the module does on removal,
 * close, RESET or DEV_GET waits for it: on 6.1 a long-term pin (io_uring's
 * IORING_REGISTER_BUFFERS) holds mmap_read_lock through its page fault,
 * and the fault on a file of this FUSE server never ends, because the
 * server answers INIT, LOOKUP, GETATTR and OPEN and never READ.
 *
 *  - ixt_fuse_start()/ixt_fuse_stop(): the server, a child process
 *    speaking /dev/fuse (no libfuse), with one file IXT_FUSE_FILE. Its
 *    exit aborts the connection: a stalled READ then ends with an error.
 *  - ixt_prober_*(), ixt_mm_lock_held(): that the lock is held is proven,
 *    not assumed: a helper process writing /proc/PID/clear_refs (takes the
 *    mm's lock for writing, changes nothing but the peak RSS) has not got
 *    it within IXT_LOCK_PROBE_MS.
 *  - ixt_stalled_owner_*(): a whole other process that pins a buffer of
 *    its own through an attached ipuxcom file it inherited, closes its
 *    copy of that file, and then stalls on a FUSE page: its pages are the
 *    device's until the device lets them go, and its mm's lock is held
 *    the whole time. What the caller then does to the device (close,
 *    RESET, removal, ...) unpins pages of a stalled mm. Optionally the
 *    process is uid 65534 without any capability before it pins.
 *
 * Include after kselftest_harness.h and ipuxcom_test.h.
 */
#ifndef IXT_FUSE_STALL_H
#define IXT_FUSE_STALL_H

#include <linux/fuse.h>
#include <linux/io_uring.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>

#include "ipuxcom_test.h"

#define IXT_FUSE_PAGE		4096u
#define IXT_FUSE_FILE		"stall"
#define IXT_FUSE_FILE_BYTES	(1u << 20)
#define IXT_FUSE_FILE_NODE	2
/* a writer of the mm that waits this long: a reader holds the lock */
#define IXT_LOCK_PROBE_MS	1000
/* the kernel reads /dev/fuse requests into at least this much */
#define IXT_FUSE_BUF_BYTES	(FUSE_MIN_READ_BUFFER + 2 * IXT_FUSE_PAGE)
/* who an unprivileged stalled owner is (nobody) */
#define IXT_STALL_UNPRIV_UID	65534

static inline uint64_t ixt_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One byte from @fd within @ms: 1 (into *@c), 0 on timeout, -errno (-EPIPE at EOF). */
static inline int ixt_wait_byte(int fd, int ms, char *c)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t end = ixt_mono_ns() + (uint64_t)ms * 1000000ull;
	int64_t left;
	ssize_t n;
	char dummy;

	for (;;) {
		left = (int64_t)(end - ixt_mono_ns()) / 1000000;
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

/* In a child: close every descriptor but @a, @b and @c (and 0-2); -1: none. */
static inline void ixt_close_fds_but(int a, int b, int c)
{
	for (int fd = 3; fd < 1024; fd++)
		if (fd != a && fd != b && fd != c)
			close(fd);
}

/* ---------------------------------------------------------- FUSE server */

struct ixt_fuse_srv {
	pid_t pid;
	int ctl;	/* write end: a byte, or EOF, ends the server */
	int events;	/* read end: 'M' mounted, 'R' a READ came (never answered), 'E' failed */
	char mnt[64];
	bool mounted;
};

static inline void ixt_fuse_answer(int dev, const struct fuse_in_header *in, int error,
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

static inline void ixt_fuse_attr_of(uint64_t node, struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = node;
	a->blksize = IXT_FUSE_PAGE;
	if (node == FUSE_ROOT_ID) {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
	} else {
		a->mode = S_IFREG | 0666;
		a->nlink = 1;
		a->size = IXT_FUSE_FILE_BYTES;
		a->blocks = IXT_FUSE_FILE_BYTES / 512;
	}
}

/* Answer one request of @len bytes in @req; READ gets no answer, ever. */
static inline void ixt_fuse_serve_one(int dev, const char *req, size_t len, int events)
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
		out.init.max_write = IXT_FUSE_PAGE;
		out.init.time_gran = 1;
		ixt_fuse_answer(dev, in, 0, &out.init, sizeof(out.init));
		break;
	}
	case FUSE_LOOKUP:
		if (in->nodeid != FUSE_ROOT_ID || strcmp(arg, IXT_FUSE_FILE)) {
			ixt_fuse_answer(dev, in, -ENOENT, NULL, 0);
			break;
		}
		out.entry.nodeid = IXT_FUSE_FILE_NODE;
		out.entry.generation = 1;
		out.entry.entry_valid = 3600;
		out.entry.attr_valid = 3600;
		ixt_fuse_attr_of(IXT_FUSE_FILE_NODE, &out.entry.attr);
		ixt_fuse_answer(dev, in, 0, &out.entry, sizeof(out.entry));
		break;
	case FUSE_GETATTR:
		out.attr.attr_valid = 3600;
		ixt_fuse_attr_of(in->nodeid, &out.attr.attr);
		ixt_fuse_answer(dev, in, 0, &out.attr, sizeof(out.attr));
		break;
	case FUSE_OPEN:
	case FUSE_OPENDIR:
		out.open.fh = 1;
		ixt_fuse_answer(dev, in, 0, &out.open, sizeof(out.open));
		break;
	case FUSE_RELEASE:
	case FUSE_RELEASEDIR:
		ixt_fuse_answer(dev, in, 0, NULL, 0);
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
		ixt_fuse_answer(dev, in, -ENOSYS, NULL, 0);
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
static inline void __attribute__((noreturn)) ixt_fuse_server(const char *mnt, int ctl, int events,
						  pid_t parent, unsigned int deadline_s,
						  unsigned int stall_s)
{
	static char req[IXT_FUSE_BUF_BYTES];
	uint64_t deadline = ixt_mono_ns() + deadline_s * 1000000000ull, t;
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
	while (ixt_mono_ns() < deadline) {
		if (poll(p, 2, 100) < 0 && errno != EINTR)
			break;
		if (p[1].revents) {
			if (read(ctl, &c, 1) != 1 || c != 'S')
				break;
			t = ixt_mono_ns() + stall_s * 1000000000ull;
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
		ixt_fuse_serve_one(dev, req, (size_t)n, events);
	}
	_exit(0);
}

static inline int ixt_fuse_start(struct ixt_fuse_srv *s, unsigned int deadline_s, unsigned int stall_s)
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
		ixt_close_fds_but(ctl[0], ev[1], -1);
		ixt_fuse_server(s->mnt, ctl[0], ev[1], parent, deadline_s, stall_s);
	}
	close(ctl[0]);
	close(ev[1]);
	s->ctl = ctl[1];
	s->events = ev[0];
	if (s->pid < 0)
		return -errno;
	ret = ixt_wait_byte(s->events, 10000, &c);
	if (ret == 1 && c == 'M') {
		s->mounted = true;
		return 0;
	}
	return ret < 0 ? ret : -EIO;
}

/* End the server (its exit aborts the connection) and reap it, within @ms. */
static inline int ixt_fuse_stop(struct ixt_fuse_srv *s, int ms)
{
	uint64_t end = ixt_mono_ns() + (uint64_t)ms * 1000000ull;
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
		if (ixt_mono_ns() > end) {
			kill(s->pid, SIGKILL);
			end = ixt_mono_ns() + 5000000000ull;
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
static inline bool ixt_fuse_available(void)
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
 * answered within IXT_LOCK_PROBE_MS, a reader holds the lock: the helper is
 * killed, which takes its queued write request back, so the test's own
 * threads do not stay behind it.
 */
struct ixt_prober {
	pid_t pid;
	int go;		/* write end */
	int done;	/* read end: 'w' once the write went through, 'E' failed */
};

static inline int ixt_prober_start(struct ixt_prober *p, pid_t target)
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

		ixt_close_fds_but(go[0], done[1], -1);
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

static inline void ixt_prober_reap(struct ixt_prober *p)
{
	uint64_t end = ixt_mono_ns() + 5000000000ull;
	int status;

	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		while (waitpid(p->pid, &status, WNOHANG) == 0 && ixt_mono_ns() < end)
			usleep(10000);
	}
	p->pid = -1;
	if (p->go >= 0)
		close(p->go);
	if (p->done >= 0)
		close(p->done);
	p->go = p->done = -1;
}

/* 1: the mm's lock is held (a writer waited IXT_LOCK_PROBE_MS), 0: it was free, -errno. */
static inline int ixt_mm_lock_held(struct ixt_prober *p)
{
	char c = 0;
	int ret;

	if (p->pid <= 0 || write(p->go, "g", 1) != 1)
		return -EIO;
	ret = ixt_wait_byte(p->done, IXT_LOCK_PROBE_MS, &c);
	ixt_prober_reap(p);
	if (ret == 0)
		return 1;
	if (ret == 1)
		return c == 'w' ? 0 : -EIO;
	return ret;
}

/* --------------------------------------------------- a stalled owner */

/*
 * What ixt_stalled_owner_start() sets up: @fd is an attached file of the
 * caller's, inherited by the owner process, which attaches @bytes of its
 * own anonymous memory in @slot through it (the device in the state that
 * slot wants) and then closes its copy. @unprivileged: before it attaches,
 * it becomes IXT_STALL_UNPRIV_UID and drops every capability (the FUSE
 * file is opened and mapped before: FUSE lets only the mounting uid in).
 * @deadline_s: the server ends the stall by itself this long after it
 * began, whatever happens to the caller.
 */
struct ixt_stall_how {
	int fd;
	uint32_t slot;
	uint32_t bytes;
	bool unprivileged;
	unsigned int deadline_s;
};

struct ixt_stalled_owner {
	struct ixt_fuse_srv srv;
	/* [0]: the proof in ixt_stalled_owner_start(); [1]: ixt_stalled_owner_holds_lock() */
	struct ixt_prober probe[2];
	pid_t pid;
	int ctl;	/* write end: EOF (or a byte) lets the owner exit once released */
	int events;	/* read end: 'A' attached, 'S' about to stall, 'E' failed (then errno) */
	int attach_ret;	/* BUF_ATTACH: 0 or -errno */
};

/* The owner process: attach, stall, wait to be told to go. Never returns. */
static inline void __attribute__((noreturn)) ixt_owner_main(const struct ixt_stall_how *how,
						     const char *mnt, int ctl, int events)
{
	struct io_uring_params up = { 0 };
	struct ipuxcom_ioc_buf b = { .size = sizeof(b), .index = how->slot, .bytes = how->bytes };
	struct iovec iov;
	char path[128], c = 'E';
	void *page, *buf;
	int file, ring, err = 0;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		_exit(1);
	snprintf(path, sizeof(path), "%s/" IXT_FUSE_FILE, mnt);
	file = open(path, O_RDWR | O_CLOEXEC);
	page = file < 0 ? MAP_FAILED :
	       mmap(NULL, IXT_FUSE_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, file, 0);
	ring = (int)syscall(__NR_io_uring_setup, 4, &up);
	buf = mmap(NULL, how->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED || ring < 0 || buf == MAP_FAILED)
		err = errno ? errno : EIO;
	if (!err && how->unprivileged &&
	    (setgroups(0, NULL) || setresgid(IXT_STALL_UNPRIV_UID, IXT_STALL_UNPRIV_UID,
					    IXT_STALL_UNPRIV_UID) ||
	     setresuid(IXT_STALL_UNPRIV_UID, IXT_STALL_UNPRIV_UID, IXT_STALL_UNPRIV_UID) ||
	     ixt_caps_set(0) || ixt_cap_effective() != 0))
		err = errno ? errno : EPERM;
	if (err) {
		c = (char)err;
		_exit(write(events, "E", 1) == 1 && write(events, &c, 1) == 1 ? 2 : 3);
	}
	memset(buf, 0x5a, how->bytes);
	b.addr = (uintptr_t)buf;
	/* the system call itself: a test may interpose ioctl() (failnth_test) */
	if (syscall(SYS_ioctl, how->fd, IPUXCOM_IOC_BUF_ATTACH, &b)) {
		c = (char)errno;
		_exit(write(events, "E", 1) == 1 && write(events, &c, 1) == 1 ? 2 : 3);
	}
	/* the pages are the device's now; the file is the caller's alone */
	close(how->fd);
	if (write(events, "A", 1) != 1 || write(events, "S", 1) != 1)
		_exit(3);
	/* pin_user_pages(FOLL_LONGTERM) under mmap_read_lock: faults the page in, forever */
	iov.iov_base = page;
	iov.iov_len = IXT_FUSE_PAGE;
	syscall(__NR_io_uring_register, ring, IORING_REGISTER_BUFFERS, &iov, 1);
	/* released (the connection aborted): go when the caller says so */
	while (read(ctl, &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

/*
 * Start the server and the owner, and return once the owner's pin
 * faulted on the FUSE page (the server saw its READ) and a writer of its
 * mm waits: 0, or -errno with @why saying what failed. Whatever it
 * returns, ixt_stalled_owner_end() undoes it.
 */
static inline int ixt_stalled_owner_start(struct ixt_stalled_owner *o, const struct ixt_stall_how *how,
				   char *why, size_t len)
{
	int ctl[2] = { -1, -1 }, ev[2] = { -1, -1 }, ret;
	char c = 0, e = 0;

	memset(o, 0, sizeof(*o));
	o->pid = o->srv.pid = -1;
	o->ctl = o->events = o->srv.ctl = o->srv.events = -1;
	for (int i = 0; i < 2; i++) {
		o->probe[i].pid = -1;
		o->probe[i].go = o->probe[i].done = -1;
	}
	o->attach_ret = -EINPROGRESS;
	if (!ixt_fuse_available()) {
		snprintf(why, len, "no FUSE in this kernel (CONFIG_FUSE_FS)");
		return -EOPNOTSUPP;
	}
	ret = ixt_fuse_start(&o->srv, how->deadline_s, how->deadline_s);
	if (ret) {
		snprintf(why, len, "FUSE server: %s", strerror(-ret));
		return ret;
	}
	if (pipe2(ctl, O_CLOEXEC) || pipe2(ev, O_CLOEXEC)) {
		ret = -errno;
		snprintf(why, len, "pipe: %s", strerror(-ret));
		for (int i = 0; i < 2; i++) {
			if (ctl[i] >= 0)
				close(ctl[i]);
			if (ev[i] >= 0)
				close(ev[i]);
		}
		return ret;
	}
	fflush(NULL);
	o->pid = fork();
	if (o->pid == 0) {
		ixt_close_fds_but(ctl[0], ev[1], how->fd);
		ixt_owner_main(how, o->srv.mnt, ctl[0], ev[1]);
	}
	close(ctl[0]);
	close(ev[1]);
	o->ctl = ctl[1];
	o->events = ev[0];
	if (o->pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return -errno;
	}
	ret = ixt_wait_byte(o->events, 10000, &c);
	if (ret == 1 && c == 'E' && ixt_wait_byte(o->events, 1000, &e) == 1) {
		o->attach_ret = -(int)(unsigned char)e;
		snprintf(why, len, "the owner (%s): %s",
			 how->unprivileged ? "uid 65534, no capabilities" : "root",
			 strerror((unsigned char)e));
		return o->attach_ret;
	}
	if (ret != 1 || c != 'A') {
		snprintf(why, len, "the owner did not attach its buffer (%d, '%c')", ret, c);
		return -EIO;
	}
	o->attach_ret = 0;
	ret = ixt_prober_start(&o->probe[0], o->pid);
	if (!ret)
		ret = ixt_prober_start(&o->probe[1], o->pid);
	if (ret) {
		snprintf(why, len, "lock prober: %s", strerror(-ret));
		return ret;
	}
	/* the server ends the stall by itself deadline_s from now */
	if (write(o->srv.ctl, "S", 1) != 1 || ixt_wait_byte(o->events, 10000, &c) != 1 ||
	    c != 'S') {
		snprintf(why, len, "the owner did not get to its stall");
		return -EIO;
	}
	if (ixt_wait_byte(o->srv.events, 10000, &c) != 1 || c != 'R') {
		snprintf(why, len, "no READ of the owner's pin reached the server");
		return -EIO;
	}
	ret = ixt_mm_lock_held(&o->probe[0]);
	if (ret != 1) {
		snprintf(why, len, ret ? "lock probe failed: %s" : "a writer got the owner's "
			 "mmap_lock: nothing holds it%s", ret ? strerror(-ret) : "");
		return ret ? ret : -EAGAIN;
	}
	return 0;
}

/* Once after the start: 1 if the owner's mm lock is still held, 0 if not, -errno. */
static inline int ixt_stalled_owner_holds_lock(struct ixt_stalled_owner *o)
{
	return ixt_mm_lock_held(&o->probe[1]);
}

/*
 * Release the stall (the server's exit aborts its connection), let the
 * owner exit and reap it, within @ms (then SIGKILL): 0, or -ETIMEDOUT if
 * the owner had to be killed, -ECHILD if it ended badly.
 */
static inline int ixt_stalled_owner_end(struct ixt_stalled_owner *o, int ms)
{
	uint64_t end = ixt_mono_ns() + (uint64_t)ms * 1000000ull;
	int status = 0, ret = 0;
	pid_t r;

	ixt_fuse_stop(&o->srv, ms);
	ixt_prober_reap(&o->probe[0]);
	ixt_prober_reap(&o->probe[1]);
	if (o->ctl >= 0)
		close(o->ctl);
	o->ctl = -1;
	while (o->pid > 0) {
		r = waitpid(o->pid, &status, WNOHANG);
		if (r == o->pid) {
			if (!WIFEXITED(status) || (WEXITSTATUS(status) && o->attach_ret == 0))
				ret = -ECHILD;
			break;
		}
		if (r < 0 && errno != EINTR)
			break;
		if (ixt_mono_ns() > end && !ret) {
			kill(o->pid, SIGKILL);
			ret = -ETIMEDOUT;
			end = ixt_mono_ns() + 5000000000ull;
		} else if (ixt_mono_ns() > end) {
			break;
		}
		usleep(10000);
	}
	o->pid = -1;
	if (o->events >= 0)
		close(o->events);
	o->events = -1;
	return ret;
}

#endif /* IXT_FUSE_STALL_H */
