// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seeded, reproducible ioctl fuzzer for /dev/ipuxcom (issue 14 section 3).
 * Named zz_ so that the test VM runs it after every other device test:
 * an oops here cannot hide their results.
 *
 * One PRNG (splitmix64) seeded from IPUXCOM_FUZZ_SEED, else the clock; the
 * seed is printed ("# seed N"), and the same seed gives the same sequence
 * of operations single-threaded (the kernel's answers only decide where a
 * valid sequence stops; a wait that times out under load may differ).
 *
 * Operations (single_thread_sim, standin_card):
 *  - random commands, sizes, flags and bytes, wrong magic/direction;
 *  - a valid struct for each command with one field mutated (sizes, counts,
 *    offsets, NULL/unmapped/kernel/non-canonical/misaligned/read-only
 *    pointers, huge counts), the struct itself placed across a guard page,
 *    misaligned, read-only or unmapped;
 *  - the whole load (RESET, AUTOLOAD, BUF_ATTACH 0, 23 LOAD_BATCHes,
 *    LOAD_FINISH, HOSTX_SETUP BEGIN, two host pages, COMMIT, HOSTX_CALL)
 *    abandoned after a random step, then: nothing (keep fuzzing in that
 *    state), close and re-attach, munmap the transport buffer, or RESET;
 *  - the backend's fault knobs (stuck GO/mark, TDI busy/failing, DMA
 *    error, context not stopping; the stand-in's refused BUFFER_ATTACH)
 *    and, where the kernel has fault injection, the simulator's sites'
 *    fault_attrs (fail_<site>: the next 1..3 events fail) set for a few
 *    dozen ops at a time, single-threaded;
 *  - the attached file used by a forked child, or one it was passed to
 *    over a unix socket, which then exits (fz_fork_op());
 *  - a SIGUSR1 every 2 ms (handled, no SA_RESTART): no wait may end in -EINTR;
 *  - host buffers munmapped, replaced (MAP_FIXED), made read-only or
 *    MADV_DONTNEED'ed while attached; mmap of /dev/ipuxcom must fail;
 *  - standin_card: the same through ipu_driver's stand-in (ATTACH with
 *    IPUXCOM_ATTACH_F_IPU_FD, BUFFER_ATTACH/DETACH(_ALL)/RESET_DEVICE on
 *    /dev/ipu0 with the module's calls and at random, mmap of /dev/ipu0_ex
 *    at random offsets, EXCH_WRITE SELECT/COMPLETE, closing /dev/ipu0
 *    under the session).
 * user_memory_stall: each command that takes a user pointer gets one into
 * a page whose fault userfaultfd holds for STALL_S seconds, and the device
 * is removed meanwhile: removal must not wait for the caller's memory (a
 * copy from user memory under the device's locks would make it wait, in D
 * state: a hung task with a longer stall).
 * concurrent: worker threads sharing one attached file, a thread adding
 * and removing simulated devices (and using them as they go), a netlink
 * thread dumping, sending garbage and reading the events group.
 * unprivileged: the random mix in a child that is uid 65534 in the node's
 * group, without capabilities (-EPERM, RLIMIT_MEMLOCK), after root used the
 * device: an owner change, so root's tile memory must not be readable.
 * Root meanwhile arms the simulator's faults (knobs and, in the debug
 * lane, the fail_<site> fault_attrs) at random moments.
 * The same file built -m32 (zz_ioctl_fuzz_test_compat32) sends it all
 * through the module's compat_ioctl path.
 * pointers_stay_owned (no device): every pointer the random mix makes is
 * the fuzzer's own memory or memory nobody can write (see WIN_BYTES).
 *
 * What must hold: every ioctl returns 0 or a documented negative errno
 * (-ENOMEM only from BUF_ATTACH), never a positive value; mmap of
 * /dev/ipuxcom fails; afterwards DEV_QUERY answers, RESET returns to IDLE,
 * the pinned-page count (/proc/vmstat) is back to its baseline, and the
 * kernel log has no BUG/WARNING/Oops/hung-task report (hung_task_timeout_secs
 * is set to 20 s for the run; the VM's panic_on_warn catches WARN anyway).
 *
 * Environment:
 *   IPUXCOM_FUZZ_SEED     seed (default: from the clock)
 *   IPUXCOM_FUZZ_IOCTLS   ioctls of single_thread_sim (default 200000);
 *                         standin_card and unprivileged do a quarter of it,
 *                         the 32-bit build (_compat32) a quarter of each
 *   IPUXCOM_FUZZ_HYGIENE_REQUESTS  requests pointers_stay_owned makes (300000)
 *   IPUXCOM_FUZZ_SECONDS  duration of concurrent (default 60)
 *   IPUXCOM_FUZZ_TRACE=1  print every operation (to find the last one before
 *                         a crash: rerun with the seed); IPUXCOM_FUZZ_TRACE_FROM
 *                         and _TO limit it to those ioctl numbers
 *   IPUXCOM_FUZZ_DIGEST_EVERY  progress line interval (default 50000 ioctls);
 *                         its digest covers every (command, result) so far
 */
#include "kselftest_harness.h"

#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/ipuxcom_ipu_driver.h>
#include <linux/userfaultfd.h>

#include "ipuxcom.h"
#include "ipuxcom_events.h"
#include "ipuxcom_test.h"
#include "frames_testlib.h"
#include "ixt_fuse_stall.h"
#include "ixt_genl.h"
#include "ixt_modules.h"
#include "ixt_standin.h"

#define PAGE		4096u
#define MS		(1000ULL * 1000)
/* a fault knob may be set: then the sequence's waits are short too */
#define SEQ_TIMEOUT_NS	(z->knob_ops ? 20 * MS : 2000 * MS)
#define DATA_BYTES	(256u * 1024)	/* TDI_SRAM_MAX_WORDS * 4 */
#define NPOOL		4
#define FRAMES		17
#define XBUF_BYTES	IXT_BATCH_BYTES(FRAMES)
#define TRACE_RING	48
#define NCMDS		0x15
#define STANDIN_MOD	"ipu_standin"
#define STANDIN_DBG	"/sys/kernel/debug/ipu_standin"

/* ------------------------------------------------------------ PRNG */

struct rng {
	uint64_t s;
};

static uint64_t rnext(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rbelow(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)((rnext(r) >> 32) * n >> 32) : 0;
}

static uint64_t fuzz_seed;

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *p = getenv(name);

	return p && *p ? strtoull(p, NULL, 0) : def;
}

/* One seed for the whole binary, chosen before the harness forks. */
static void __attribute__((constructor)) fz_pick_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	fuzz_seed = env_u64("IPUXCOM_FUZZ_SEED",
			    (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec ^
			    (uint64_t)getpid() << 20);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------ commands */

struct cmd_desc {
	const char *name;
	uint32_t size;
	int16_t ptr_off;	/* user pointer member, -1: none */
	int16_t timeout_off;	/* timeout_ns member, -1: none */
	uint16_t weight;	/* how often the random mix picks it */
};

#define CD(nm, type, ptr, tmo, w) \
	[IPUXCOM_CMD_##nm] = { #nm, sizeof(struct ipuxcom_ioc_##type), ptr, tmo, w }
#define OFF(type, m) ((int16_t)offsetof(struct ipuxcom_ioc_##type, m))

/*
 * Cheap commands dominate: RESET (the simulator clears every tile) and a
 * successful AUTOLOAD cost milliseconds under TCG, the rest microseconds
 * or are refused by state.
 */
static const struct cmd_desc cmds[NCMDS] = {
	CD(INFO, info, -1, -1, 8),
	CD(ATTACH, attach, -1, -1, 4),
	CD(DEV_QUERY, dev_query, -1, -1, 10),
	CD(REG_READ, reg, -1, -1, 12),
	CD(REG_WRITE, reg, -1, -1, 6),
	CD(RESET, reset, -1, -1, 1),
	CD(CFG_APPLY, cfg_apply, OFF(cfg_apply, records), -1, 4),
	CD(AUTOLOAD, autoload, OFF(autoload, image), OFF(autoload, timeout_ns), 1),
	CD(LOAD_BATCH, load_batch, -1, OFF(load_batch, timeout_ns), 4),
	CD(LOAD_FINISH, load_finish, -1, OFF(load_finish, timeout_ns), 2),
	CD(HSP_MARK, hsp_mark, -1, OFF(hsp_mark, timeout_ns), 5),
	CD(TDI_READ_REGS, tdi_regs, -1, -1, 6),
	CD(TDI_EXEC, tdi_exec, -1, OFF(tdi_exec, timeout_ns), 5),
	CD(TDI_READ_SRAM, tdi_sram, OFF(tdi_sram, data), OFF(tdi_sram, timeout_ns), 4),
	CD(TDI_WRITE_SRAM, tdi_sram, OFF(tdi_sram, data), OFF(tdi_sram, timeout_ns), 3),
	CD(HOSTX_SETUP, hostx_setup, -1, OFF(hostx_setup, timeout_ns), 4),
	CD(HOSTX_CALL, hostx_call, -1, OFF(hostx_call, timeout_ns), 3),
	CD(EXCH_WRITE, exch_write, OFF(exch_write, data), OFF(exch_write, timeout_ns), 4),
	CD(BUF_ATTACH, buf, OFF(buf, addr), -1, 6),
	CD(BUF_DETACH, buf, -1, -1, 5),
};

/* ------------------------------------------------------------ state */

struct trace_ent {
	uint64_t n;
	unsigned long cmd;
	int ret;
	char what[56];
};

struct fz {
	struct rng r;
	int fd;			/* /dev/ipuxcom, attached (or -1) */
	uint32_t dev;
	bool card;		/* attached through the ipu_driver stand-in */
	bool shared;		/* fd shared with other threads: never closed here */
	bool trace_on;
	uint64_t trace_from, trace_to;	/* which ioctls trace_on prints */
	int ipu_fd;		/* card: /dev/ipu0 */
	void *ipu_map;		/* card: its config registers mapped (ATTACH's cfg_map), or NULL */
	uint64_t ioctls, ops;
	uint8_t *scratch;	/* PAGE read-write, then a PROT_NONE guard page */
	uint8_t *data;		/* DATA_BYTES, then a guard page */
	uint8_t *ro;		/* a read-only page */
	uintptr_t hole;		/* a reserved PROT_NONE page (see reserve_fixed()) */
	int odd_fd[4];		/* files that are not this card's /dev/ipuN */
	uint8_t *pool[NPOOL];	/* pool_bytes[i], then a guard page (see pool_map()) */
	size_t pool_bytes[NPOOL];
	bool pool_mapped[NPOOL];
	uint8_t *xbuf;		/* the sequences' transport buffer, or NULL */
	uint8_t *win;		/* WIN_BYTES reserved: all of the above lives in it */
	uint8_t *pool_at[NPOOL][2];	/* the two places pool i takes turns at */
	uint8_t *xbuf_at[2];	/* and the transport buffer's */
	unsigned int xbuf_turn;
	uint8_t **batches;	/* the 23 batches, prepared once (shared) */
	void *owner;		/* concurrent: struct conc */
	bool knobs;		/* may set the backend's fault knobs */
	bool fault_inject;	/* and the simulator's sites' fault_attrs (fail_<site>) */
	uint32_t knob_ops;	/* a fault knob is set for this many more ops */
	uint64_t knob_sets;
	/*
	 * The thread's own /proc/thread-self/fail-nth (or -1): armed with
	 * 1..16 before one ioctl in 8, from a generator of its own so the
	 * mix is the seed's; what failed under it may also be ENOMEM or
	 * EFAULT (an allocation or a user copy was the point that failed).
	 */
	int fnth_fd;
	struct rng fnth_r;
	uint64_t fnth_armed, fnth_fired;
	bool keep_start;	/* fz_run() starts from the device as it is, no RESET */
	/* results */
	int failed;
	char why[512];
	struct trace_ent ring[TRACE_RING];
	uint64_t n_ok, n_err, n_enomem, seq_started, seq_done, mmaps, forks;
	uint64_t stalls;	/* episodes under a stalled owner (fz_stall_op()) */
	bool stalling;		/* in one: no fork, no second stall */
	bool may_stall;		/* root, simulator, FUSE there: fz_stall_op() allowed */
	uint64_t slow_ns;
	char slow_what[64];
	uint64_t cmd_ns[NCMDS + 1];
	uint64_t digest;		/* of every (command, result): same seed, same digest */	/* time spent per command; [NCMDS]: others */
	uint64_t errs[160];
};

static const char *cmd_name(unsigned long cmd)
{
	unsigned int nr = _IOC_NR(cmd);

	if (_IOC_TYPE(cmd) == IPUXCOM_IOC_MAGIC && nr < NCMDS && cmds[nr].name)
		return cmds[nr].name;
	if (_IOC_TYPE(cmd) == IPU_DRV_IOC_MAGIC)
		return "IPU_DRV";
	return "?";
}

static void fz_fail(struct fz *z, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fz_fail(struct fz *z, const char *fmt, ...)
{
	va_list ap;

	if (z->failed++)
		return;
	va_start(ap, fmt);
	vsnprintf(z->why, sizeof(z->why), fmt, ap);
	va_end(ap);
}

static void fz_trace(struct fz *z, unsigned long cmd, int ret, const char *what)
{
	struct trace_ent *t = &z->ring[z->ioctls % TRACE_RING];

	t->n = z->ioctls;
	t->cmd = cmd;
	t->ret = ret;
	snprintf(t->what, sizeof(t->what), "%s", what);
	if (z->trace_on && z->ioctls >= z->trace_from && z->ioctls < z->trace_to)
		printf("# op %llu ioctl %s (0x%lx) %s = %d\n", (unsigned long long)z->ioctls,
		       cmd_name(cmd), cmd, what, ret);
}

static void fz_dump_ring(struct fz *z)
{
	uint64_t first = z->ioctls > TRACE_RING ? z->ioctls - TRACE_RING : 0;

	printf("# last ioctls (seed %llu):\n", (unsigned long long)fuzz_seed);
	for (uint64_t i = first; i < z->ioctls; i++) {
		struct trace_ent *t = &z->ring[i % TRACE_RING];

		printf("#   %llu %s 0x%lx %s -> %d\n", (unsigned long long)t->n,
		       cmd_name(t->cmd), t->cmd, t->what, t->ret);
	}
}

/* Documented answers of /dev/ipuxcom (uapi/linux/ipuxcom.h). */
static bool ipuxcom_errno_ok(unsigned int nr, int e)
{
	switch (e) {
	case EINVAL: case E2BIG: case EFAULT: case ENOTTY: case ENOTCONN:
	case EBADFD: case EBUSY: case EEXIST: case ENOENT: case ENOBUFS:
	case EOPNOTSUPP: case ETIMEDOUT: case EPERM: case EALREADY: case ENODEV:
	case EACCES: case EBADF: case EXDEV: case ENOEXEC: case EILSEQ:
		return true;
	case ENOMEM:	/* RLIMIT_MEMLOCK */
	case EMEDIUMTYPE:	/* neither anonymous nor shmem memory */
		return nr == IPUXCOM_CMD_BUF_ATTACH;
	default:
		return false;
	}
}

/* The stand-in's answers (selftests/kmod/ipu_standin.c). */
static bool ipudrv_errno_ok(int e)
{
	switch (e) {
	case EPERM: case EEXIST: case EINVAL: case EFAULT: case ENOENT:
	case ENOTTY: case EBUSY: case ENODEV: case ENOSPC: case ENOMEM:
		return true;
	default:
		return false;
	}
}

/*
 * Arm the thread's fail-nth before one ioctl in 8 (z->fnth_fd set); armed?
 * Signals stay blocked while it is armed (@old: the mask to restore): the
 * kernel writes a signal's frame with a user copy, a fault point too, and
 * a frame it failed to write is a SIGSEGV (the storm's SIGUSR1 did that).
 */
static bool fz_fnth_arm(struct fz *z, sigset_t *old)
{
	sigset_t all;
	char buf[8];
	int len;

	if (z->fnth_fd < 0 || rbelow(&z->fnth_r, 8))
		return false;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
	len = snprintf(buf, sizeof(buf), "%u", 1 + rbelow(&z->fnth_r, 16));
	if (pwrite(z->fnth_fd, buf, (size_t)len, 0) != len) {
		pthread_sigmask(SIG_SETMASK, old, NULL);
		return false;
	}
	z->fnth_armed++;
	return true;
}

/*
 * After the ioctl: did the armed point fire in it? Leaves fail-nth 0. A
 * point still pending may fire in this read-back's own copy (EFAULT):
 * then it did not fire in the ioctl.
 */
static bool fz_fnth_disarm(struct fz *z)
{
	char buf[16] = "";
	ssize_t got = pread(z->fnth_fd, buf, sizeof(buf) - 1, 0);
	bool fired = got > 0 && atoi(buf) == 0;

	if (!fired && pwrite(z->fnth_fd, "0", 1, 0) != 1 && errno != EFAULT)
		fz_fail(z, "cannot disarm fail-nth: %s", strerror(errno));
	z->fnth_fired += fired;
	return fired;
}

/* After fz_fnth_disarm(): the signals blocked for the armed ioctl come in. */
static void fz_fnth_unblock(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* ioctl(2) with the checks; 0 or -errno. @arg is passed as is. */
static int fz_ioctl(struct fz *z, int fd, unsigned long cmd, const void *arg, const char *what)
{
	uint64_t t0 = now_ns(), dt;
	bool armed, fired;
	sigset_t old;
	long r;
	int e;

	armed = fz_fnth_arm(z, &old);
	r = ioctl(fd, cmd, arg);
	e = r < 0 ? errno : 0;
	fired = armed && fz_fnth_disarm(z);
	if (armed)
		fz_fnth_unblock(&old);
	dt = now_ns() - t0;
	z->digest = (z->digest ^ (uint64_t)cmd ^ (uint64_t)(uint32_t)(r < 0 ? -e : (int)r) << 32) *
		    0x100000001b3ull;
	z->cmd_ns[_IOC_TYPE(cmd) == IPUXCOM_IOC_MAGIC && _IOC_NR(cmd) < NCMDS ?
		  _IOC_NR(cmd) : NCMDS] += dt;
	fz_trace(z, cmd, r < 0 ? -e : (int)r, what);
	z->ioctls++;
	if (dt > z->slow_ns) {
		z->slow_ns = dt;
		snprintf(z->slow_what, sizeof(z->slow_what), "%s %s", cmd_name(cmd), what);
	}
	if (r > 0) {
		fz_fail(z, "ioctl %llu %s (0x%lx) %s returned %ld",
			(unsigned long long)z->ioctls - 1, cmd_name(cmd), cmd, what, r);
		return 0;
	}
	if (!r) {
		z->n_ok++;
		return 0;
	}
	z->n_err++;
	if (e < (int)(sizeof(z->errs) / sizeof(z->errs[0])))
		z->errs[e]++;
	if (e == ENOMEM)
		z->n_enomem++;
	/* a failed allocation or user copy of the kernel's, at fail-nth's point */
	if (fired && (e == ENOMEM || e == EFAULT))
		return -e;
	if (_IOC_TYPE(cmd) == IPU_DRV_IOC_MAGIC ? !ipudrv_errno_ok(e) :
	    !ipuxcom_errno_ok(_IOC_NR(cmd), e))
		fz_fail(z, "ioctl %llu %s (0x%lx) %s: undocumented error %d (%s)",
			(unsigned long long)z->ioctls - 1, cmd_name(cmd), cmd, what, -e,
			strerror(e));
	return -e;
}

/* ------------------------------------------------------------ memory */

static __attribute__((unused)) void *map_anon(size_t bytes, int prot)
{
	void *p = mmap(NULL, bytes, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static size_t pool_size(unsigned int i)
{
	static const size_t sz[NPOOL] = { 1 * PAGE, 2 * PAGE, 8 * PAGE, 64 * PAGE };

	return sz[i];
}

/*
 * Everything the fuzzer hands the kernel lives in its own window: 4 GiB,
 * 4 GiB-aligned, reserved PROT_NONE, one per thread. The random mix
 * changes any 32-bit half of a request, a pointer's low half included, so
 * a pointer made from one of ours stays inside its 4 GiB-aligned range:
 * with the window, that is always this fuzzer's own memory or a reserved
 * page (-EFAULT). Without it, it was as often another thread's stack or
 * malloc arena, or the batches, which the kernel then rightly wrote
 * (TDI_READ_SRAM's words; the 0xff fill and host exchange through pages
 * pinned by BUF_ATTACH): the concurrent run's heap corruption ("malloc
 * assertion failure in __libc_calloc", SIGSEGV inside malloc; issue 22).
 * pointers_stay_owned checks it.
 *
 * Inside the window each piece has its place, followed by a page that
 * stays reserved (its guard): pinning or copying across the end fails
 * with -EFAULT instead of reaching the next piece. "Unmapping" one
 * reserves its range again instead of giving it back, so no later
 * mapping of the process (a thread stack, an arena) can appear at an
 * address the fuzzer still hands out; a pool or the transport buffer
 * that is mapped again takes turns between two places.
 */
#if UINTPTR_MAX > 0xffffffffu
#define WIN_BYTES	(1ull << 32)
#else
/* 32 bits: a mutated pointer can be anything; fz_ptr_stray() catches it */
#define WIN_BYTES	(1ull << 28)
#endif

static void *reserve_fixed(void *addr, size_t bytes)
{
	void *p = mmap(addr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
		       MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int win_reserve(struct fz *z)
{
	uint8_t *p = mmap(NULL, 2 * WIN_BYTES, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uintptr_t at;

	if (p == MAP_FAILED)
		return -ENOMEM;
	at = ((uintptr_t)p + WIN_BYTES - 1) & ~(uintptr_t)(WIN_BYTES - 1);
	if (at > (uintptr_t)p)
		munmap(p, at - (uintptr_t)p);
	munmap((void *)(at + (uintptr_t)WIN_BYTES), (size_t)((uintptr_t)p + 2 * WIN_BYTES - at - WIN_BYTES));
	z->win = (uint8_t *)at;
	return 0;
}

/* The next @bytes of the window for a piece, its guard page after it. */
static uint8_t *win_place(struct fz *z, size_t *used, size_t bytes)
{
	uint8_t *p = z->win + *used;

	*used += bytes + PAGE;
	return p;
}

/* The lowest address a mapping may have (vm.mmap_min_addr's default) and the end of user space. */
#define USER_MIN	65536ull
#if UINTPTR_MAX > 0xffffffffu
#define USER_END	(1ull << 47)
#else
#define USER_END	(1ull << 32)	/* a 32-bit process on a 64-bit kernel */
#endif

/*
 * Is @p a user address outside @z's window, that is, maybe someone
 * else's memory? The random mix sends such a pointer to the hole instead
 * (fz_make_request()): to the kernel both are just as unusable, unless
 * the address happens to be mapped, which is the case to exclude. The
 * classes that stay: NULL and the first page, kernel and non-canonical
 * addresses, and anything in the window.
 */
static bool fz_ptr_stray(const struct fz *z, uint64_t p)
{
	return p >= USER_MIN && p < USER_END &&
	       (p < (uintptr_t)z->win || p - (uintptr_t)z->win >= WIN_BYTES);
}

/* Map @bytes at @at in the window (an earlier mapping there is replaced). */
static uint8_t *win_map(uint8_t *at, size_t bytes, int prot)
{
	void *p = mmap(at, bytes, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Pool @i, mapped afresh at its other place (the old one stays reserved). */
static void pool_map(struct fz *z, unsigned int i)
{
	uint8_t *at = z->pool_at[i][z->pool[i] == z->pool_at[i][0]];

	z->pool_bytes[i] = pool_size(i);
	z->pool[i] = win_map(at, z->pool_bytes[i], PROT_READ | PROT_WRITE);
	z->pool_mapped[i] = z->pool[i] != NULL;
}

/* Unmap pool @i (the pages may be pinned): a reserved range in its place. */
static void pool_unmap(struct fz *z, unsigned int i)
{
	z->pool_mapped[i] = false;
	if (!reserve_fixed(z->pool[i], z->pool_bytes[i]))
		z->pool[i] = NULL;	/* never handed out again */
}

/* The sequences' transport buffer, at its other place. */
static uint8_t *fz_xbuf_map(struct fz *z)
{
	z->xbuf_turn ^= 1;
	return win_map(z->xbuf_at[z->xbuf_turn], XBUF_BYTES, PROT_READ | PROT_WRITE);
}

/* The transport buffer goes away under the session (its pages may be pinned). */
static void fz_xbuf_unmap(struct fz *z)
{
	reserve_fixed(z->xbuf, XBUF_BYTES);
	z->xbuf = NULL;
}

static int fz_mem_init(struct fz *z)
{
	size_t used = PAGE;	/* the window's first page stays reserved */

	if (win_reserve(z))
		return -ENOMEM;
	z->scratch = win_map(win_place(z, &used, PAGE), PAGE, PROT_READ | PROT_WRITE);
	z->data = win_map(win_place(z, &used, DATA_BYTES), DATA_BYTES, PROT_READ | PROT_WRITE);
	z->ro = win_map(win_place(z, &used, PAGE), PAGE, PROT_READ | PROT_WRITE);
	/* a hole that stays one: a reserved page, never mapped */
	z->hole = (uintptr_t)win_place(z, &used, PAGE);
	for (unsigned int i = 0; i < NPOOL; i++)
		for (unsigned int k = 0; k < 2; k++)
			z->pool_at[i][k] = win_place(z, &used, pool_size(i));
	for (unsigned int k = 0; k < 2; k++)
		z->xbuf_at[k] = win_place(z, &used, XBUF_BYTES);
	if (!z->scratch || !z->data || !z->ro)
		return -ENOMEM;
	for (uint32_t i = 0; i < DATA_BYTES; i += 4) {
		uint32_t v = (uint32_t)rnext(&z->r);

		memcpy(z->data + i, &v, 4);
	}
	/* a plausible header: a read-only struct the kernel cannot write back */
	((uint32_t *)z->ro)[0] = 16;
	mprotect(z->ro, PAGE, PROT_READ);
	for (unsigned int i = 0; i < NPOOL; i++)
		pool_map(z, i);
	{
		int p[2] = { -1, -1 };

		if (pipe2(p, O_CLOEXEC))
			p[0] = p[1] = -1;
		if (p[0] >= 0)
			close(p[0]);
		z->odd_fd[0] = p[1];
	}
	z->odd_fd[1] = open("/dev/null", O_RDWR | O_CLOEXEC);
	z->odd_fd[2] = open("/dev/ipu0_ex", O_RDWR | O_CLOEXEC);
	z->odd_fd[3] = open("/dev/ipu0", O_PATH | O_CLOEXEC);
	return 0;
}

static void fz_mem_free(struct fz *z)
{
	if (z->win)
		munmap(z->win, WIN_BYTES);
	z->win = NULL;
	z->hole = 0;
	for (unsigned int i = 0; i < 4; i++)
		if (z->odd_fd[i] >= 0)
			close(z->odd_fd[i]);
	memset(z->odd_fd, 0xff, sizeof(z->odd_fd));
	z->scratch = z->data = z->ro = z->xbuf = NULL;
	memset(z->pool, 0, sizeof(z->pool));
	memset(z->pool_mapped, 0, sizeof(z->pool_mapped));
}

/* The 23 batches of a whole load, built once (some 25 MiB). */
static uint8_t **batches_get(void)
{
	static uint8_t **b;
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

	pthread_mutex_lock(&lock);
	if (!b) {
		uint8_t **t = calloc(IPUXCOM_LOAD_BATCHES, sizeof(*t));

		for (uint32_t i = 0; t && i < IPUXCOM_LOAD_BATCHES; i++) {
			t[i] = malloc(XBUF_BYTES);
			if (!t[i])
				abort();
			ixt_write_batch(t[i], i, FRAMES);
		}
		b = t;
	}
	pthread_mutex_unlock(&lock);
	return b;
}

/* ------------------------------------------------------------ values */

static uint64_t r_timeout(struct rng *r)
{
	/* small: nothing here may wait seconds for a condition that never comes */
	switch (rbelow(r, 8)) {
	case 0:
		return 1;
	case 1:
		return IPUXCOM_TIMEOUT_MAX_NS + 1;
	case 2:
		return ~0ull;
	default:
		return (1 + rbelow(r, 20)) * MS;
	}
}

static uint32_t r_u32(struct rng *r)
{
	static const uint32_t v[] = {
		0, 1, 2, 3, 4, 7, 8, 16, 17, 22, 23, 24, 63, 64, 255, 256, 1023, 1024,
		1471, 1472, 1473, 4095, 4096, 4097, 0x302c, 0x3030, 0x3044, 0x4c000,
		0x7fffc, 0x80000, 0x9c000, 0xffff, 0x10000, 0x10001, 65536, 65537,
		0x2842000, 0x4000000, 0x4001000, 0x7fffffff, 0x80000000, 0xfffffffc,
		0xfffff000, 0xffffffff,
	};

	if (rbelow(r, 4))
		return v[rbelow(r, sizeof(v) / sizeof(v[0]))];
	return (uint32_t)rnext(r);
}

/* A pointer of some class for a buffer the command reads or writes. */
static uint64_t r_ptr(struct fz *z, size_t want)
{
	struct rng *r = &z->r;

	switch (rbelow(r, 20)) {
	case 0: return 0;
	case 1: return 8;
	case 2: return z->hole;
	case 3: return 0xffff888000000000ull;		/* direct map */
	case 4: return 0xffffffff81000000ull;		/* kernel text */
	case 5: return (uintptr_t)z->data + 1 + rbelow(r, 3);	/* misaligned */
	case 6: return (uintptr_t)z->ro;
	case 7:	/* runs into the guard page */
		return (uintptr_t)z->data + DATA_BYTES - (want > 4 ? 1 + rbelow(r, (uint32_t)want - 1) : 0);
	case 8: return 0x0000800000000000ull;		/* non-canonical */
	case 9: return ~0ull - rbelow(r, PAGE);
	case 10: {
		unsigned int i = rbelow(r, NPOOL);

		return (uintptr_t)z->pool[i];		/* maybe a reserved hole now */
	}
	default:
		return (uintptr_t)z->data + (rbelow(r, 8) ? 0 : 4 * rbelow(r, 64));
	}
}

static uint32_t r_tile(struct rng *r)
{
	return rbelow(r, 10) ? rbelow(r, 1472) : r_u32(r);
}

static uint32_t r_sram_addr(struct rng *r)
{
	return rbelow(r, 8) ? 0x4c000u + 4 * rbelow(r, 624 * 256) : r_u32(r);
}

/* ------------------------------------------------------------ templates */

/* A plausible request of command @nr into @a (zeroed, at least 512 bytes). */
static void fz_template(struct fz *z, unsigned int nr, uint8_t *a)
{
	struct rng *r = &z->r;
	uint32_t size = cmds[nr].size;

	memcpy(a, &size, 4);
	switch (nr) {
	case IPUXCOM_CMD_ATTACH: {
		struct ipuxcom_ioc_attach *at = (void *)a;

		at->dev_id = rbelow(r, 4) ? z->dev : r_u32(r);
		if (z->card ? rbelow(r, 4) : !rbelow(r, 8)) {
			at->flags = IPUXCOM_ATTACH_F_IPU_FD;
			switch (rbelow(r, 6)) {
			case 0: case 1: at->ipu_fd = z->ipu_fd; break;
			case 2: at->ipu_fd = z->fd; break;	/* itself */
			case 3: at->ipu_fd = z->odd_fd[rbelow(r, 4)]; break;
			default: at->ipu_fd = (int32_t)r_u32(r); break;
			}
			/* the mapping: the card's, a neighbour, a data page, anything */
			switch (rbelow(r, 5)) {
			case 0: case 1: at->cfg_map = (uintptr_t)z->ipu_map; break;
			case 2: at->cfg_map = (uintptr_t)z->ipu_map + 4096 * rbelow(r, 256); break;
			case 3: at->cfg_map = (uintptr_t)z->data; break;
			default: at->cfg_map = ((uint64_t)r_u32(r) << (rbelow(r, 2) ? 32 : 0)); break;
			}
			if (!rbelow(r, 8))
				at->flags |= IPUXCOM_ATTACH_F_PROBE;
			if (!rbelow(r, 8)) {
				at->flags |= IPUXCOM_ATTACH_F_EX_FD;
				at->ex_fd = rbelow(r, 2) ? z->ipu_fd : (int32_t)r_u32(r);
				at->ex_map = rbelow(r, 2) ? (uintptr_t)z->ipu_map : ((uint64_t)r_u32(r) << (rbelow(r, 2) ? 32 : 0));
				at->ex_map_len = rbelow(r, 2) ? 4096 * (1 + rbelow(r, 256)) : ((uint64_t)r_u32(r) << (rbelow(r, 2) ? 32 : 0));
			}
		}
		break;
	}
	case IPUXCOM_CMD_REG_READ:
	case IPUXCOM_CMD_REG_WRITE: {
		struct ipuxcom_ioc_reg *rg = (void *)a;
		static const uint32_t regs[] = {
			0x3044, 0x3054, 0x302c, 0x3030, 0x0, 0x4, 0x100,
		};

		rg->offset = rbelow(r, 3) ? regs[rbelow(r, 7)] :
			     rbelow(r, 2) ? 4 * rbelow(r, 0x20000) : r_u32(r);
		rg->value = rbelow(r, 2) ? (uint32_t)rnext(r) : r_u32(r);
		if (nr == IPUXCOM_CMD_REG_WRITE && rg->offset == 0x302c && rbelow(r, 4))
			rg->offset = 0x100;	/* posting GS1 marks by hand: rarely */
		break;
	}
	case IPUXCOM_CMD_RESET: {
		struct ipuxcom_ioc_reset *rs = (void *)a;

		rs->flags = z->card ? IPUXCOM_RESET_F_DRIVER_RESET : 0;
		break;
	}
	case IPUXCOM_CMD_CFG_APPLY: {
		struct ipuxcom_ioc_cfg_apply *ca = (void *)a;
		struct ipuxcom_cfg_record *rec = (void *)z->data;

		ca->count = 1 + rbelow(r, 8);
		for (uint32_t i = 0; i < ca->count; i++) {
			rec[i].offset = 4 * rbelow(r, 0x20000);
			if (rec[i].offset == 0x302c || rec[i].offset == 0x3030)
				rec[i].offset = 0x100;
			rec[i].value = (uint32_t)rnext(r);
		}
		ca->records = (uintptr_t)rec;
		ca->flags = rbelow(r, 4);
		break;
	}
	case IPUXCOM_CMD_AUTOLOAD: {
		struct ipuxcom_ioc_autoload *al = (void *)a;

		al->image = (uintptr_t)z->data;
		al->image_size = 1 + rbelow(r, IPUXCOM_AUTOLOAD_MAX_BYTES);
		al->timeout_ns = r_timeout(r);
		break;
	}
	case IPUXCOM_CMD_LOAD_BATCH: {
		struct ipuxcom_ioc_load_batch *lb = (void *)a;

		lb->batch = rbelow(r, 4) ? rbelow(r, 23) : r_u32(r);
		lb->timeout_ns = r_timeout(r);
		break;
	}
	case IPUXCOM_CMD_LOAD_FINISH:
		((struct ipuxcom_ioc_load_finish *)a)->timeout_ns = r_timeout(r);
		break;
	case IPUXCOM_CMD_HSP_MARK: {
		struct ipuxcom_ioc_hsp_mark *hm = (void *)a;

		hm->gs = rbelow(r, 4) ? 1 + rbelow(r, 2) : r_u32(r);
		hm->mark = rbelow(r, 4) ? 1 + rbelow(r, 0xffff) : r_u32(r);
		hm->flags = rbelow(r, 2) ? IPUXCOM_HSP_F_WAIT : 0;
		hm->timeout_ns = r_timeout(r);
		break;
	}
	case IPUXCOM_CMD_TDI_READ_REGS:
		((struct ipuxcom_ioc_tdi_regs *)a)->tile = r_tile(r);
		break;
	case IPUXCOM_CMD_TDI_EXEC: {
		struct ipuxcom_ioc_tdi_exec *te = (void *)a;

		te->tile = r_tile(r);
		te->context = rbelow(r, 8);
		te->insn = (uint32_t)rnext(r);
		te->flags = rbelow(r, 2);
		te->data_in = (uint32_t)rnext(r);
		te->timeout_ns = r_timeout(r);
		break;
	}
	case IPUXCOM_CMD_TDI_READ_SRAM:
	case IPUXCOM_CMD_TDI_WRITE_SRAM: {
		struct ipuxcom_ioc_tdi_sram *ts = (void *)a;

		ts->tile = r_tile(r);
		ts->context = rbelow(r, 8) ? 0 : rbelow(r, 8);
		ts->addr = r_sram_addr(r);
		ts->count = 1 + rbelow(r, rbelow(r, 16) ? 16 : 256);
		ts->data = (uintptr_t)z->data;
		ts->timeout_ns = r_timeout(r);
		break;
	}
	case IPUXCOM_CMD_HOSTX_SETUP: {
		struct ipuxcom_ioc_hostx_setup *hs = (void *)a;
		uint32_t n = 1 + rbelow(r, 3);

		hs->flags = rbelow(r, 5) ? 1 + rbelow(r, 2) : rbelow(r, 4);
		hs->npages = rbelow(r, 8) ? n : r_u32(r);
		hs->timeout_ns = r_timeout(r);
		for (uint32_t i = 0; i < n; i++) {
			hs->page_bytes[i] = PAGE * (1 + rbelow(r, 2));
			hs->attach_order[i] = n - 1 - i;
		}
		break;
	}
	case IPUXCOM_CMD_HOSTX_CALL: {
		struct ipuxcom_ioc_hostx_call *hc = (void *)a;

		hc->phases = rbelow(r, 8) ? 1 + rbelow(r, 3) : r_u32(r);
		hc->timeout_ns = r_timeout(r);
		break;
	}
	case IPUXCOM_CMD_EXCH_WRITE: {
		struct ipuxcom_ioc_exch_write *ew = (void *)a;

		ew->tile = r_tile(r);
		ew->addr = r_sram_addr(r);
		ew->bytes = 4 * (1 + rbelow(r, 64));
		ew->timeout_ns = r_timeout(r);
		if (z->card ? rbelow(r, 4) : !rbelow(r, 8))
			ew->flags = 1 + rbelow(r, 2);
		else
			ew->data = (uintptr_t)z->data;
		break;
	}
	case IPUXCOM_CMD_BUF_ATTACH: {
		struct ipuxcom_ioc_buf *b = (void *)a;
		unsigned int i = rbelow(r, NPOOL);

		b->index = rbelow(r, 4) ? rbelow(r, 4) : r_u32(r) % 20;
		b->addr = (uintptr_t)z->pool[i];
		b->bytes = rbelow(r, 4) ? z->pool_bytes[i] : PAGE * (1 + rbelow(r, 80));
		break;
	}
	case IPUXCOM_CMD_BUF_DETACH:
		((struct ipuxcom_ioc_buf *)a)->index = rbelow(r, 4) ? rbelow(r, 4) : r_u32(r) % 20;
		break;
	default:
		break;
	}
}

/* Change one member: a u32 or u64 slot, or the command's pointer. */
static void fz_mutate(struct fz *z, unsigned int nr, uint8_t *a)
{
	struct rng *r = &z->r;
	uint32_t size = cmds[nr].size;

	if (cmds[nr].ptr_off >= 0 && rbelow(r, 3) == 0) {
		uint64_t p = r_ptr(z, 64);

		memcpy(a + cmds[nr].ptr_off, &p, 8);
		return;
	}
	if (rbelow(r, 4) == 0) {
		uint32_t off = 8 * rbelow(r, size / 8);
		uint64_t v = rbelow(r, 2) ? r_ptr(z, 64) :
			     rbelow(r, 2) ? (uint64_t)r_u32(r) : rnext(r);

		memcpy(a + off, &v, 8);
	} else {
		uint32_t off = 4 + 4 * rbelow(r, size / 4 - 1);	/* not size */
		uint32_t v = r_u32(r);

		memcpy(a + off, &v, 4);
	}
}

/* No wait of the random mix may take the command's default (seconds). */
static void fz_bound_timeout(unsigned int nr, uint8_t *a)
{
	uint64_t t;

	if (cmds[nr].timeout_off < 0)
		return;
	memcpy(&t, a + cmds[nr].timeout_off, 8);
	/*
	 * The module clamps a longer one to IPUXCOM_TIMEOUT_MAX_NS (60 s), so
	 * huge values only cost time: the random mix waits at most 50 ms.
	 */
	if (t == 0 || t > 50 * MS) {
		t = 5 * MS;
		memcpy(a + cmds[nr].timeout_off, &t, 8);
	}
}

/*
 * Where the request goes: @a's bytes are copied to the place chosen
 * (partly, across a guard page). Returns the argument pointer.
 */
static void *fz_place(struct fz *z, const uint8_t *a, size_t len, bool *readable)
{
	struct rng *r = &z->r;
	uint32_t k = rbelow(r, 100);
	uint8_t *p;

	*readable = true;
	if (len > PAGE)
		len = PAGE;
	if (k < 85) {
		p = z->scratch;
	} else if (k < 92) {
		p = z->scratch + PAGE - len;	/* ends at the guard page */
	} else if (k < 96) {
		/* starts in the page, runs into the guard page */
		size_t in = 1 + rbelow(r, (uint32_t)len);

		p = z->scratch + PAGE - in;
		memcpy(p, a, in);
		*readable = false;
		return p;
	} else if (k < 98) {
		p = z->scratch + 1 + rbelow(r, 7);	/* misaligned */
		if (p + len > z->scratch + PAGE)
			p = z->scratch + 1;
	} else {
		*readable = false;
		switch (rbelow(r, 5)) {
		case 0: return NULL;
		case 1: return (void *)z->hole;
		case 2: return z->ro;
		case 3: return (void *)0xffff888000001000ull;
		default: return (void *)(uintptr_t)z->pool[rbelow(r, NPOOL)];
		}
	}
	memcpy(p, a, len);
	return p;
}

/* The size member: mostly right, sometimes short, long, huge. */
static uint32_t fz_size(struct rng *r, uint32_t size, uint8_t *a, size_t *len)
{
	uint32_t k = rbelow(r, 100);

	*len = size;
	if (k < 80)
		return size;
	if (k < 88)
		return rbelow(r, size);
	if (k < 94) {	/* a newer caller: zero tail */
		*len = size + 4 * (1 + rbelow(r, 32));
		return (uint32_t)*len;
	}
	if (k < 97) {	/* non-zero unknown tail */
		*len = size + 4 * (1 + rbelow(r, 32));
		a[size + rbelow(r, (uint32_t)(*len - size))] = (uint8_t)(1 + rbelow(r, 255));
		return (uint32_t)*len;
	}
	*len = size + 64;
	return rbelow(r, 2) ? 0xffffffffu : r_u32(r);
}

/* One request of the random mix, made but not sent. */
struct fz_req {
	unsigned int nr;	/* the command it was made for */
	unsigned long cmd;	/* what is sent: maybe another number or magic */
	unsigned int mode;	/* < 8 random bytes, < 40 mutated, else a template */
	uint32_t size;		/* its size member */
	size_t len;		/* bytes of it placed at arg */
	void *arg;		/* where it was placed (fz_place()) */
	bool readable;		/* arg holds all of it, readable and writable */
	uint8_t a[PAGE];	/* the request as made */
};

static void fz_make_request(struct fz *z, struct fz_req *q)
{
	struct rng *r = &z->r;
	uint8_t *a = q->a;
	unsigned int nr = 0, total = 0, pick, mode;

	for (unsigned int i = 0; i < NCMDS; i++)
		total += cmds[i].weight;
	pick = rbelow(r, total);
	for (nr = 0; nr < NCMDS; nr++) {
		if (pick < cmds[nr].weight)
			break;
		pick -= cmds[nr].weight;
	}
	memset(a, 0, sizeof(q->a));
	mode = rbelow(r, 100);
	if (mode < 8) {		/* random bytes */
		for (unsigned int i = 0; i < 128; i++)
			a[i] = (uint8_t)rnext(r);
		if (rbelow(r, 2))
			memset(a + 4, 0, 4);	/* flags */
	} else {
		fz_template(z, nr, a);
		if (mode < 40)
			fz_mutate(z, nr, a);
	}
	fz_bound_timeout(nr, a);
	q->size = fz_size(r, cmds[nr].size, a, &q->len);
	memcpy(a, &q->size, 4);
	if (rbelow(r, 40) == 0) {
		uint32_t f = rbelow(r, 2) ? 1u << rbelow(r, 32) : (uint32_t)rnext(r);

		memcpy(a + 4, &f, 4);
	}
	if (cmds[nr].ptr_off >= 0) {
		uint64_t p;

		memcpy(&p, a + cmds[nr].ptr_off, 8);
		if (fz_ptr_stray(z, p)) {
			p = z->hole;
			memcpy(a + cmds[nr].ptr_off, &p, 8);
		}
	}
	q->nr = nr;
	q->mode = mode;
	q->cmd = _IO(IPUXCOM_IOC_MAGIC, nr);
	if (rbelow(r, 50) == 0) {	/* unknown number, direction, size or magic */
		switch (rbelow(r, 4)) {
		case 0: q->cmd = _IO(IPUXCOM_IOC_MAGIC, NCMDS + rbelow(r, 235)); break;
		case 1: q->cmd = _IOWR(IPUXCOM_IOC_MAGIC, nr, struct ipuxcom_ioc_info); break;
		case 2: q->cmd = _IO(IPUXCOM_IOC_MAGIC, 0x08); break;	/* retired XBUF_ALLOC */
		default: q->cmd = (unsigned long)(uint32_t)rnext(r); break;
		}
	}
	q->arg = fz_place(z, a, q->len, &q->readable);
}

/* One request of the random mix. */
static void fz_random_ioctl(struct fz *z)
{
	struct fz_req req, *q = &req;
	unsigned int nr;
	void *arg;
	char what[56];
	int ret;

	fz_make_request(z, q);
	nr = q->nr;
	arg = q->arg;
	snprintf(what, sizeof(what), "mode %u size %u arg %p", q->mode, q->size, arg);
	ret = fz_ioctl(z, z->fd, q->cmd, arg, what);
	if (ret || !q->readable || q->size < cmds[nr].size || q->cmd != _IO(IPUXCOM_IOC_MAGIC, nr))
		return;
	/* outputs the ABI promises */
	if (nr == IPUXCOM_CMD_INFO) {
		struct ipuxcom_ioc_info *in = arg;

		if (in->uapi_version != IPUXCOM_UAPI_VERSION || in->reserved ||
		    (in->capabilities & IPUXCOM_CAP_IPU_DRIVER))
			fz_fail(z, "INFO: uapi %u reserved %u caps 0x%llx", in->uapi_version,
				in->reserved, (unsigned long long)in->capabilities);
	} else if (nr == IPUXCOM_CMD_DEV_QUERY) {
		struct ipuxcom_ioc_dev_query *dq = arg;

		if (dq->dev_id != z->dev || dq->state > IPUXCOM_DEV_STATE_GONE)
			fz_fail(z, "DEV_QUERY: id %u (attached %u) state %u", dq->dev_id, z->dev,
				dq->state);
	} else if (nr == IPUXCOM_CMD_RESET) {
		struct ipuxcom_ioc_reset *rs = arg;

		if (rs->state != IPUXCOM_DEV_STATE_IDLE)
			fz_fail(z, "RESET succeeded with state %u", rs->state);
	}
}

static int fz_buf_attach(struct fz *z, uint32_t index, const void *addr, size_t bytes)
{
	struct ipuxcom_ioc_buf b = {
		.size = sizeof(b), .index = index, .addr = (uintptr_t)addr, .bytes = bytes,
	};

	return fz_ioctl(z, z->fd, IPUXCOM_IOC_BUF_ATTACH, &b, "BUF_ATTACH (sequence)");
}

/* ------------------------------------------------------------ ipu_driver */

static int ipu_buf_attach(struct fz *z, uint32_t index, const void *addr, size_t bytes)
{
	struct ipu_drv_buffer b = { .index = index, .size = (uint32_t)bytes, .addr = (uintptr_t)addr };

	return fz_ioctl(z, z->ipu_fd, IPU_DRV_BUFFER_ATTACH, &b, "BUFFER_ATTACH");
}

/* Random ipu_driver calls on the card's /dev/ipu0. */
static void fz_random_ipudrv(struct fz *z)
{
	struct rng *r = &z->r;
	struct ipu_drv_buffer b;
	uint32_t v;

	switch (rbelow(r, 6)) {
	case 0:
		b.index = rbelow(r, 4) ? rbelow(r, 4) : r_u32(r);
		b.addr = rbelow(r, 2) ? (uintptr_t)z->pool[rbelow(r, NPOOL)] : r_ptr(z, PAGE);
		b.size = rbelow(r, 2) ? PAGE * (1 + rbelow(r, 8)) : r_u32(r);
		fz_ioctl(z, z->ipu_fd, IPU_DRV_BUFFER_ATTACH,
			 rbelow(r, 20) ? (void *)&b : (void *)(uintptr_t)r_ptr(z, sizeof(b)),
			 "BUFFER_ATTACH random");
		break;
	case 1:
		fz_ioctl(z, z->ipu_fd, IPU_DRV_BUFFER_DETACH,
			 (void *)(uintptr_t)(rbelow(r, 4) ? rbelow(r, 4) : r_u32(r)), "BUFFER_DETACH");
		break;
	case 2:
		fz_ioctl(z, z->ipu_fd, IPU_DRV_BUFFER_DETACH_ALL, NULL, "BUFFER_DETACH_ALL");
		break;
	case 3:
		fz_ioctl(z, z->ipu_fd, IPU_DRV_RESET_DEVICE, NULL, "RESET_DEVICE");
		break;
	case 4:
		fz_ioctl(z, z->ipu_fd, IPU_DRV_USER_ATTACH, NULL, "USER_ATTACH");
		break;
	default:
		v = r_u32(r);
		fz_ioctl(z, z->ipu_fd, _IOC(_IOC_READ | _IOC_WRITE, IPU_DRV_IOC_MAGIC,
					    rbelow(r, 64), 8),
			 (void *)(uintptr_t)(rbelow(r, 2) ? v : (uint64_t)(uintptr_t)z->data),
			 "ipu_driver random nr");
		break;
	}
}

/* /dev/ipu0 opened, mapped and taken for ipu_driver work, as the library does. */
static int card_open_ipu(struct fz *z)
{
	void *map;

	z->ipu_map = NULL;
	z->ipu_fd = open("/dev/ipu0", O_RDWR | O_CLOEXEC);
	if (z->ipu_fd < 0)
		return -errno;
	map = mmap(NULL, IPUXCOM_IPU_CFG_MAP_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
		   z->ipu_fd, 0);
	z->ipu_map = map == MAP_FAILED ? NULL : map;
	fz_ioctl(z, z->ipu_fd, IPU_DRV_USER_ATTACH, NULL, "USER_ATTACH");
	fz_ioctl(z, z->ipu_fd, IPU_DRV_SET_IPU_ID, NULL, "SET_IPU_ID");
	return 0;
}

/* /dev/ipu0 and its mapping given up (the mapping would keep the file). */
static void card_close_ipu(struct fz *z)
{
	if (z->ipu_map)
		munmap(z->ipu_map, IPUXCOM_IPU_CFG_MAP_BYTES);
	z->ipu_map = NULL;
	if (z->ipu_fd >= 0)
		close(z->ipu_fd);
	z->ipu_fd = -1;
}

/* ------------------------------------------------------------ sessions */

static int fz_attach(struct fz *z)
{
	struct ipuxcom_ioc_attach at = { .size = sizeof(at), .dev_id = z->dev };

	if (z->card) {
		at.flags = IPUXCOM_ATTACH_F_IPU_FD;
		at.ipu_fd = z->ipu_fd;
		at.cfg_map = (uintptr_t)z->ipu_map;
	}
	return fz_ioctl(z, z->fd, IPUXCOM_IOC_ATTACH, &at, "attach (session)");
}

/* Close the file (dropping its pins) and attach a new one. */
static void fz_reattach(struct fz *z)
{
	struct rng *r = &z->r;
	int ret;

	if (z->shared)
		return;
	close(z->fd);
	/* card: sometimes give up /dev/ipu0 too, or only it (the session keeps it) */
	if (z->card && rbelow(r, 3) == 0) {
		card_close_ipu(z);
		card_open_ipu(z);
	}
	z->fd = ixt_open();
	if (z->fd < 0) {
		fz_fail(z, "reopen %s: %s", ixt_dev_path(), strerror(errno));
		return;
	}
	/*
	 * fz_ioctl() arms fail-nth before one ioctl in 8, the attach too: a
	 * failure it injected there (ENOMEM, EFAULT) is the test's, so attach
	 * again (a debug run's unprivileged child failed here with EFAULT,
	 * seed 1796592115892696).
	 */
	for (int tries = 0; tries < 8; tries++) {
		uint64_t fired = z->fnth_fired;

		ret = fz_attach(z);
		if (!ret || z->fnth_fired == fired || (ret != -EFAULT && ret != -ENOMEM))
			break;
	}
	if (ret)
		fz_fail(z, "re-attach to device %u: %s", z->dev, strerror(-ret));
}

static int fz_reset(struct fz *z)
{
	struct ipuxcom_ioc_reset rs = { .size = sizeof(rs) };

	if (z->card) {
		fz_ioctl(z, z->ipu_fd, IPU_DRV_BUFFER_DETACH_ALL, NULL, "BUFFER_DETACH_ALL");
		fz_ioctl(z, z->ipu_fd, IPU_DRV_RESET_DEVICE, NULL, "RESET_DEVICE");
		rs.flags = IPUXCOM_RESET_F_DRIVER_RESET;
	}
	return fz_ioctl(z, z->fd, IPUXCOM_IOC_RESET, &rs, "RESET (sequence)");
}

/*
 * The valid sequence of a whole load and the host-exchange setup, stopped
 * after step @stop (0 .. 32; 33: all of it).
 */
static void fz_sequence(struct fz *z)
{
	static const uint8_t boot[1024] = { 1, 2, 3, 4 };
	struct rng *r = &z->r;
	uint32_t stop = rbelow(r, 34), step = 0;
	bool ok = true;

	z->seq_started++;
	if (!z->batches)
		z->batches = batches_get();
	if (!z->xbuf)
		z->xbuf = fz_xbuf_map(z);
	if (!z->xbuf)
		return;
	for (unsigned int i = 0; i < 2; i++)
		if (!z->pool_mapped[i])
			pool_map(z, i);
	for (step = 0; ok && step < stop; step++) {
		if (step == 0) {
			ok = !fz_reset(z);
		} else if (step == 1) {
			struct ipuxcom_ioc_autoload al = {
				.size = sizeof(al), .image = (uintptr_t)boot,
				.image_size = sizeof(boot), .timeout_ns = SEQ_TIMEOUT_NS,
			};

			ok = !fz_ioctl(z, z->fd, IPUXCOM_IOC_AUTOLOAD, &al, "AUTOLOAD (sequence)");
		} else if (step == 2) {
			ok = !fz_buf_attach(z, 0, z->xbuf, XBUF_BYTES);
			if (ok && z->card)
				ok = !ipu_buf_attach(z, 0, z->xbuf, XBUF_BYTES);
		} else if (step < 3 + IPUXCOM_LOAD_BATCHES) {
			struct ipuxcom_ioc_load_batch lb = {
				.size = sizeof(lb), .batch = step - 3, .timeout_ns = SEQ_TIMEOUT_NS,
			};

			memcpy(z->xbuf, z->batches[step - 3], XBUF_BYTES);
			ok = !fz_ioctl(z, z->fd, IPUXCOM_IOC_LOAD_BATCH, &lb, "LOAD_BATCH (sequence)");
		} else if (step == 26) {
			struct ipuxcom_ioc_load_finish lf = {
				.size = sizeof(lf), .timeout_ns = SEQ_TIMEOUT_NS,
			};

			ok = !fz_ioctl(z, z->fd, IPUXCOM_IOC_LOAD_FINISH, &lf, "LOAD_FINISH (sequence)");
			if (ok && z->card)
				fz_ioctl(z, z->ipu_fd, IPU_DRV_BUFFER_DETACH, (void *)0, "BUFFER_DETACH 0");
		} else if (step == 27 || step == 30) {
			struct ipuxcom_ioc_hostx_setup hs = {
				.size = sizeof(hs), .npages = 2, .timeout_ns = SEQ_TIMEOUT_NS,
				.flags = step == 27 ? IPUXCOM_HOSTX_F_BEGIN : IPUXCOM_HOSTX_F_COMMIT,
				.page_bytes = { PAGE, 2 * PAGE }, .attach_order = { 1, 0 },
			};

			ok = !fz_ioctl(z, z->fd, IPUXCOM_IOC_HOSTX_SETUP, &hs, "HOSTX_SETUP (sequence)");
		} else if (step == 28 || step == 29) {
			uint32_t page = step == 28 ? 1 : 0;

			ok = !fz_buf_attach(z, IPUXCOM_BUF_SLOT_HOSTX(page), z->pool[page],
					    pool_size(page));
			if (ok && z->card)
				ok = !ipu_buf_attach(z, IPUXCOM_BUF_SLOT_HOSTX(page), z->pool[page],
						     pool_size(page));
		} else if (step == 31 || step == 32) {
			struct ipuxcom_ioc_hostx_call hc = {
				.size = sizeof(hc), .phases = 1 + rbelow(r, 2),
				.timeout_ns = SEQ_TIMEOUT_NS,
			};

			ok = !fz_ioctl(z, z->fd, IPUXCOM_IOC_HOSTX_CALL, &hc, "HOSTX_CALL (sequence)");
		}
	}
	if (ok && stop == 33)
		z->seq_done++;
	if (z->trace_on)
		printf("# sequence stopped at step %u of %u (%s)\n", step, stop, ok ? "ok" : "failed");
	/* and then abandoned */
	switch (rbelow(r, 5)) {
	case 0:
		fz_reattach(z);
		break;
	case 1:	/* the transport buffer goes away under the session */
		fz_xbuf_unmap(z);
		break;
	case 2:
		fz_reset(z);
		break;
	default:	/* keep fuzzing in this state */
		break;
	}
}

/* ------------------------------------------------------------ mmap */

static void fz_mmap_op(struct fz *z)
{
	struct rng *r = &z->r;
	unsigned int i = rbelow(r, NPOOL);
	void *p;

	z->mmaps++;
	switch (rbelow(r, 7)) {
	case 0: {	/* /dev/ipuxcom has no mmap */
		size_t len = PAGE * (1 + rbelow(r, 64));
		off_t off = rbelow(r, 2) ? (off_t)PAGE * rbelow(r, 1024) : (off_t)(rnext(r) & ~0xfffull);

		p = mmap(NULL, len, rbelow(r, 2) ? PROT_READ : PROT_READ | PROT_WRITE,
			 rbelow(r, 2) ? MAP_SHARED : MAP_PRIVATE, z->fd, off);
		if (p != MAP_FAILED) {
			fz_fail(z, "mmap of /dev/ipuxcom succeeded (offset 0x%llx)",
				(unsigned long long)off);
			munmap(p, len);
		}
		break;
	}
	case 1:	/* unmap (maybe attached), later mapped again at its other place */
		if (z->pool_mapped[i]) {
			pool_unmap(z, i);
		} else {
			pool_map(z, i);
		}
		break;
	case 2:	/* replaced in place while (maybe) pinned */
		if (z->pool_mapped[i] &&
		    mmap(z->pool[i], z->pool_bytes[i], PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			pool_unmap(z, i);
		break;
	case 3:
		if (z->pool_mapped[i])
			mprotect(z->pool[i], z->pool_bytes[i],
				 rbelow(r, 2) ? PROT_READ : PROT_READ | PROT_WRITE);
		break;
	case 4:
		if (z->pool_mapped[i])
			madvise(z->pool[i], z->pool_bytes[i], MADV_DONTNEED);
		break;
	case 5:	/* a shared file-less mapping in its place: pins of shmem pages */
		if (z->pool_mapped[i] &&
		    mmap(z->pool[i], z->pool_bytes[i], PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			pool_unmap(z, i);
		break;
	default:	/* the card's nodes (exchange window, BAR) at random offsets */
		if (z->card) {
			int ex = open(rbelow(r, 3) ? "/dev/ipu0_ex" : "/dev/ipu0", O_RDWR | O_CLOEXEC);
			size_t len = PAGE * (1 + rbelow(r, 256));
			off_t off = (off_t)PAGE * rbelow(r, 400);
			int prot = rbelow(r, 2) ? PROT_READ : PROT_READ | PROT_WRITE;

			if (ex < 0)
				break;
			p = mmap(NULL, len, prot, rbelow(r, 6) ? MAP_SHARED : MAP_PRIVATE, ex, off);
			if (p != MAP_FAILED) {
				(void)*(volatile uint8_t *)p;
				munmap(p, len);
			}
			close(ex);
		}
		break;
	}
}

/* ------------------------------------------------------------ faults */

static int knob_write(const char *dir, const char *name, unsigned int value)
{
	char path[160], buf[16];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(buf, sizeof(buf), "%u\n", value);
	return ixt_write_sysfs(path, buf);
}

static void knob_dir(const struct fz *z, char *dir, size_t len)
{
	if (z->card)
		snprintf(dir, len, STANDIN_DBG "/ipu0");
	else
		snprintf(dir, len, SIM_DEBUGFS "/dev%u", z->dev);
}

/*
 * The simulator's fault sites as the kernel's fault injection drives them
 * (ipuxcom_sim/devN/fail_<site>/, a kernel with
 * CONFIG_FAULT_INJECTION_DEBUG_FS: the debug lane); where there are none
 * only the knobs above are set.
 */
static const char *const fi_sites[] = { "go", "mark", "tdi", "dma", "ctx_stop" };
#define NFI_SITES (sizeof(fi_sites) / sizeof(fi_sites[0]))

static bool sim_has_fault_inject(uint32_t dev)
{
	char path[128];

	snprintf(path, sizeof(path), SIM_DEBUGFS "/dev%u/fail_go/probability", dev);
	return !access(path, W_OK);
}

/*
 * The next @times events of @site fail. Probability 100 and interval 1
 * keep a single-threaded run reproducible from its seed (no random draw
 * in the kernel, no dependence on the attribute's history).
 */
static int fi_arm(uint32_t dev, const char *site, unsigned int times)
{
	static const char *const files[] = { "interval", "times", "probability" };
	const unsigned int values[] = { 1, times, 100 };
	char name[48];
	int ret = 0;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]) && !ret; i++) {
		snprintf(name, sizeof(name), "fail_%s/%s", site, files[i]);
		ret = ixt_sim_knob(dev, name, values[i]);
	}
	return ret;
}

/* Faults injected at the simulator's sites so far (-1 if none are reported). */
static long fi_injected(uint32_t dev)
{
	long sum = 0;

	for (size_t i = 0; i < NFI_SITES; i++) {
		char name[32];
		long v;

		snprintf(name, sizeof(name), "injected_%s", fi_sites[i]);
		v = ixt_sim_stat(dev, name);
		if (v < 0)
			return -1;
		sum += v;
	}
	return sum;
}

/*
 * Arm one of the simulator's faults at random: a knob (stuck GO/mark, TDI
 * busy or failing at its Nth command, DMA error, context not stopping) or,
 * with @fi, one site's fault_attr for its next 1..3 events. 0 or -errno;
 * @what names it.
 */
static int sim_fault_arm(struct rng *r, uint32_t dev, bool fi, char *what, size_t len)
{
	static const char *const knobs[] = {
		"stuck_go", "stuck_mark", "tdi_busy", "dma_error", "ctx_no_stop", "tdi_fail_at",
	};
	const unsigned int nknobs = sizeof(knobs) / sizeof(knobs[0]);
	unsigned int i = rbelow(r, nknobs + (fi ? NFI_SITES : 0)), v = 1;
	char dir[96];

	if (i >= nknobs) {
		v = 1 + rbelow(r, 3);
		snprintf(what, len, "fail_%s times %u", fi_sites[i - nknobs], v);
		return fi_arm(dev, fi_sites[i - nknobs], v);
	}
	if (i == 5)
		v = 1 + rbelow(r, 40);
	snprintf(what, len, "%s = %u", knobs[i], v);
	snprintf(dir, sizeof(dir), SIM_DEBUGFS "/dev%u", dev);
	return knob_write(dir, knobs[i], v);
}

static void fz_knobs_clear(struct fz *z)
{
	static const char *const names[] = {
		"stuck_go", "stuck_mark", "tdi_busy", "dma_error", "ctx_no_stop",
		"tdi_fail_at", "bad_mailbox", "attach_error",
	};
	char dir[96];

	z->knob_ops = 0;
	if (!z->card) {
		ixt_sim_clear_faults(z->dev);	/* the knobs and the sites' fault_attrs */
		return;
	}
	knob_dir(z, dir, sizeof(dir));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		knob_write(dir, names[i], 0);
}

/* Set one fault of the backend for a few dozen ops (error paths). */
static void fz_knob(struct fz *z)
{
	static const char *const names[] = {
		"stuck_go", "stuck_mark", "tdi_busy", "dma_error", "ctx_no_stop", "tdi_fail_at",
		"attach_error",
	};
	static const unsigned int attach_errors[] = { ENOMEM, EBUSY, EINVAL, EFAULT };
	struct rng *r = &z->r;
	unsigned int i, v = 1;
	char dir[96], what[48];
	int ret;

	if (!z->card) {
		ret = sim_fault_arm(r, z->dev, z->fault_inject, what, sizeof(what));
	} else {
		i = rbelow(r, 7);
		if (i == 5)
			v = 1 + rbelow(r, 40);
		else if (i == 6)
			v = attach_errors[rbelow(r, 4)];
		snprintf(what, sizeof(what), "%s = %u", names[i], v);
		knob_dir(z, dir, sizeof(dir));
		ret = knob_write(dir, names[i], v);
	}
	if (!ret) {
		z->knob_sets++;
		z->knob_ops = 1 + rbelow(r, 60);
		if (z->trace_on)
			printf("# knob %s for %u ops\n", what, z->knob_ops);
	}
}

/* ------------------------------------------------------------ loops */

/* ------------------------------------------------------------ other processes */

/*
 * The attached file in another process: a child made by fork() (the file
 * inherited; fork gives it its own copies of pinned pages) or one handed
 * the file over a unix socket (SCM_RIGHTS) sends a few dozen requests of
 * the mix, pinning its own memory, and exits while the session goes on:
 * its answers must be documented ones too.
 */
static void fz_fork_op(struct fz *z)
{
	struct rng *r = &z->r;
	bool pass = rbelow(r, 2);
	uint64_t seed = rnext(r);
	int sv[2] = { -1, -1 }, status = 0;
	pid_t pid, w;

	if (pass && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (pass) {
			close(z->fd);	/* the one fork gave it: use the one passed */
			z->fd = ixt_recv_fd(sv[1]);
			if (z->fd < 0)
				_exit(2);
		}
		z->r.s = seed;
		z->shared = true;
		z->knobs = false;
		z->failed = 0;
		/* the inherited file is the parent thread's fail-nth, not this one's */
		z->fnth_fd = -1;
		for (unsigned int i = 0; i < 32; i++)
			fz_random_ioctl(z);
		if (z->failed) {
			printf("# %s child: %s\n", pass ? "fd-passing" : "forked", z->why);
			fflush(stdout);
		}
		_exit(z->failed ? 1 : 0);
	}
	if (pid > 0 && pass && ixt_send_fd(sv[0], z->fd))
		kill(pid, SIGKILL);
	if (sv[0] >= 0) {
		close(sv[0]);
		close(sv[1]);
	}
	if (pid < 0)
		return;
	z->forks++;
	/* the storm's SIGUSR1 (no SA_RESTART) interrupts the wait itself */
	while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (w != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		fz_fail(z, "a %s child ended with status 0x%x", pass ? "fd-passing" : "forked",
			status);
}

/* ------------------------------------------------------------ a stalled owner */

/* Episodes per run (each costs a FUSE mount and a one-second lock probe). */
#define STALL_EPISODES	3
/* RESET or close must let a stalled owner's pages go within this (x scale) */
#define STALL_BOUND_S	10

static void fz_step(struct fz *z);

/*
 * Another process pins a buffer of its own through this file (@slot, or a
 * random one when @slot is -1; the device in whatever state the mix left
 * it, so the attach may be refused) and stalls on a FUSE page, its
 * mmap_lock held (ixt_fuse_stall.h). The mix goes on for a few dozen ops;
 * then RESET, or close and re-attach, must let the owner's pages go
 * within STALL_BOUND_S while it is still stalled, and once released the
 * owner must end by itself. Root on the simulator only: mounting FUSE
 * needs CAP_SYS_ADMIN, and the card's pins go through ipu_driver too.
 * Returns whether the stall happened.
 */
static bool fz_stall_op(struct fz *z, int slot)
{
	struct rng *r = &z->r;
	unsigned int scale = (unsigned int)ixt_timeout_scale();
	struct ixt_stall_how how = {
		.fd = z->fd, .bytes = PAGE * (1 + rbelow(r, 16)), .deadline_s = 60 * scale,
	};
	uint32_t ops = 8 + rbelow(r, 40), by_close = rbelow(r, 2);
	struct ixt_stalled_owner o;
	uint64_t t0, took;
	char why[200];
	long vmpin;
	int ret, held;

	how.slot = slot >= 0 ? (uint32_t)slot : rbelow(r, IPUXCOM_BUF_SLOTS);
	if (z->trace_on)
		printf("# stalled owner: slot %u, %u bytes, %u ops, then %s\n", how.slot, how.bytes,
		       ops, by_close ? "close" : "RESET");
	ret = ixt_stalled_owner_start(&o, &how, why, sizeof(why));
	if (ret && o.attach_ret != 0 && o.attach_ret != -EINPROGRESS) {
		/* the state or the slot refused the owner's attach: no stall */
		if (o.attach_ret >= 0 || o.attach_ret == -ENOMEM)
			fz_fail(z, "a stalled owner's BUF_ATTACH of slot %u: %d", how.slot,
				o.attach_ret);
		ixt_stalled_owner_end(&o, 5000 * (int)scale);
		return false;
	}
	if (ret) {
		fz_fail(z, "stalled owner: %s", why);
		ixt_stalled_owner_end(&o, 5000 * (int)scale);
		return false;
	}
	z->stalls++;
	z->stalling = true;
	for (uint32_t i = 0; i < ops && !z->failed; i++)
		fz_step(z);
	z->stalling = false;
	t0 = now_ns();
	if (by_close)
		fz_reattach(z);
	else
		fz_reset(z);
	took = now_ns() - t0;
	vmpin = ixt_vmpin_kb_of(o.pid);
	held = ixt_stalled_owner_holds_lock(&o);
	if (took > STALL_BOUND_S * scale * 1000 * MS)
		fz_fail(z, "%s took %llu ms: it waited for the stalled owner",
			by_close ? "close" : "RESET", (unsigned long long)(took / MS));
	else if (vmpin != 0)
		fz_fail(z, "the stalled owner still has %ld kB pinned after %s", vmpin,
			by_close ? "close" : "RESET");
	else if (held != 1)
		fz_fail(z, "the owner's stall ended before %s was checked (probe %d)",
			by_close ? "close" : "RESET", held);
	ret = ixt_stalled_owner_end(&o, STALL_BOUND_S * 1000 * (int)scale);
	if (ret)
		fz_fail(z, "the stalled owner did not end once released: %s", strerror(-ret));
	return true;
}

/* ------------------------------------------------------------ the mix */

static void fz_step(struct fz *z)
{
	struct rng *r = &z->r;
	uint32_t k = rbelow(r, 1000);

	z->ops++;
	if (z->knob_ops && !--z->knob_ops)
		fz_knobs_clear(z);
	if (z->knobs && k >= 998 && !z->knob_ops) {
		fz_knob(z);
		return;
	}
	if (k < 1)
		fz_sequence(z);
	else if (k < 2)
		fz_reattach(z);
	else if (k < 3 && !z->shared && !z->stalling)
		fz_fork_op(z);
	else if (k < 5 && z->may_stall && !z->stalling && z->stalls < STALL_EPISODES)
		fz_stall_op(z, -1);
	else if (k < 15)
		fz_mmap_op(z);
	else if (k < 90 && z->card)
		fz_random_ipudrv(z);
	else
		fz_random_ioctl(z);
}

static void fz_report(struct __test_metadata *_metadata, struct fz *z, const char *what,
		      uint64_t t0)
{
	double secs = (double)(now_ns() - t0) / 1e9;

	printf("# %s: %llu ioctls (%llu ok, %llu failed as documented), %llu ops in %.1f s"
	       " (%.0f ioctls/s); sequences %llu started, %llu complete; %llu mmap ops;"
	       " %llu other processes; %llu fault knobs set; slowest ioctl %.1f ms (%s)\n",
	       what, (unsigned long long)z->ioctls, (unsigned long long)z->n_ok,
	       (unsigned long long)z->n_err, (unsigned long long)z->ops, secs,
	       secs > 0 ? (double)z->ioctls / secs : 0.0, (unsigned long long)z->seq_started,
	       (unsigned long long)z->seq_done, (unsigned long long)z->mmaps,
	       (unsigned long long)z->forks, (unsigned long long)z->knob_sets, (double)z->slow_ns / 1e6, z->slow_what);
	printf("#   time in:");
	for (unsigned int i = 0; i <= NCMDS; i++)
		if (z->cmd_ns[i] >= 100 * MS)
			printf(" %s=%.1fs", i < NCMDS && cmds[i].name ? cmds[i].name : "other",
			       (double)z->cmd_ns[i] / 1e9);
	printf("\n");
	printf("#   errors:");
	for (unsigned int e = 0; e < sizeof(z->errs) / sizeof(z->errs[0]); e++)
		if (z->errs[e])
			printf(" %s=%llu", strerrorname_np(e) ? strerrorname_np(e) : "?",
			       (unsigned long long)z->errs[e]);
	printf("\n");
	if (z->failed) {
		fz_dump_ring(z);
		printf("# reproduce: IPUXCOM_FUZZ_SEED=%llu (IPUXCOM_FUZZ_TRACE=1 prints every op)\n",
		       (unsigned long long)fuzz_seed);
	}
	EXPECT_EQ(0, z->failed) TH_LOG("seed %llu: %s (%d failures)",
				       (unsigned long long)fuzz_seed, z->why, z->failed);
}

/* ------------------------------------------------------------ kernel log */

static const char *const bad_log[] = {
	"BUG:", "WARNING:", "Oops", "general protection fault", "INFO: task",
	"blocked for more than", "Call Trace", "KASAN", "UBSAN", "refcount_t:",
	"list_add corruption", "list_del corruption", "kernel BUG", "ODEBUG:",
	"page dumped because",
};

/* /dev/kmsg positioned at its end: what the run adds is read later. */
static int kmsg_mark(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Lines since kmsg_mark() that report a kernel problem; their count. */
static int kmsg_scan(int fd)
{
	/* the records before a report too: a trace's header may match nothing */
	static char prev[8][512];
	unsigned int nprev = 0, uffd_dump = 0;
	char rec[2048];
	int bad = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	for (;;) {
		const char *text;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records */
		if (n <= 0)
			break;
		rec[n] = '\0';
		text = strchr(rec, ';') ? strchr(rec, ';') + 1 : rec;
		/*
		 * Expected, not trouble: on 6.1 a long-term pin (BUF_ATTACH's
		 * FOLL_LONGTERM) cannot retry a userfaultfd fault, so the
		 * kernel fails it (-EFAULT, which user_memory_stall asserts)
		 * and, with DEBUG_VM, says so with a stack dump
		 * (mm/userfaultfd.c "FAULT_FLAG_ALLOW_RETRY missing"); its
		 * "Call Trace:" follows within a few records.
		 */
		/*
		 * Nor is a fault the kernel's fault injection forced (the
		 * unprivileged run arms its own fail-nth): fail_dump() follows
		 * its line with a stack dump where the attr's verbose is 2.
		 */
		if (strstr(text, "FAULT_FLAG_ALLOW_RETRY missing") ||
		    strstr(text, "FAULT_INJECTION: forcing a failure"))
			uffd_dump = 4;
		else if (uffd_dump)
			uffd_dump--;
		if (uffd_dump && strstr(text, "Call Trace")) {
			uffd_dump = 0;
			continue;
		}
		for (size_t i = 0; i < sizeof(bad_log) / sizeof(bad_log[0]); i++) {
			if (strstr(rec, bad_log[i])) {
				if (bad++ < 20) {
					for (unsigned int k = nprev > 8 ? nprev - 8 : 0; k < nprev; k++)
						printf("# kernel (before): %s", prev[k % 8]);
					nprev = 0;
					printf("# kernel: %s", text);
				}
				break;
			}
		}
		{
			size_t l = strnlen(text, sizeof(prev[0]) - 1);

			memcpy(prev[nprev % 8], text, l);
			prev[nprev++ % 8][l] = '\0';
		}
	}
	return bad;
}

/* ------------------------------------------------------------ checks after */

/* The device answers, RESET returns it to IDLE (a fresh file). */
static void check_device_sane(struct __test_metadata *_metadata, uint32_t dev, int ipu_fd)
{
	struct ipuxcom_ioc_dev_query q;
	struct ipuxcom_ioc_reset rs = { .size = sizeof(rs) };
	struct ipuxcom_ioc_attach at = { .size = sizeof(at), .dev_id = dev };
	int fd = ixt_open(), ret = -1;
	void *map = MAP_FAILED;

	ASSERT_LE(0, fd);
	if (ipu_fd >= 0) {
		map = mmap(NULL, IPUXCOM_IPU_CFG_MAP_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
			   ipu_fd, 0);
		ASSERT_NE(MAP_FAILED, map);
		at.flags = IPUXCOM_ATTACH_F_IPU_FD;
		at.ipu_fd = ipu_fd;
		at.cfg_map = (uintptr_t)map;
		rs.flags = IPUXCOM_RESET_F_DRIVER_RESET;
		ixt_ioctl(ipu_fd, IPU_DRV_BUFFER_DETACH_ALL, NULL);
		ixt_ioctl(ipu_fd, IPU_DRV_RESET_DEVICE, NULL);
	}
	/* the previous holder's release may still be running */
	for (int i = 0; i < 50; i++) {
		ret = ixt_ioctl(fd, IPUXCOM_IOC_ATTACH, &at);
		if (ret != -EBUSY)
			break;
		usleep(100 * 1000);
	}
	ASSERT_EQ(0, ret) TH_LOG("attach to device %u after fuzzing", dev);
	EXPECT_EQ(0, ixt_query(fd, &q));
	EXPECT_EQ(dev, q.dev_id);
	ASSERT_EQ(0, ixt_ioctl(fd, IPUXCOM_IOC_RESET, &rs)) TH_LOG("RESET after fuzzing");
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, rs.state);
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ixt_state(fd));
	close(fd);
	if (map != MAP_FAILED)
		munmap(map, IPUXCOM_IPU_CFG_MAP_BYTES);
}

static void check_pins(struct __test_metadata *_metadata, long base)
{
	long now = -1;

	if (base < 0)
		return;
	for (int i = 0; i < 40; i++) {
		now = ixt_pinned_pages();
		if (now <= base)
			break;
		usleep(50 * 1000);
	}
	EXPECT_EQ(base, now) TH_LOG("pinned pages: %ld before, %ld after", base, now);
}

/* ------------------------------------------------------------ fixture */

/* ------------------------------------------------------------ signals */

/*
 * Non-fatal signals while the fuzzer waits in the module. Its waits end
 * early only for a fatal signal (uapi/linux/ipuxcom.h), so a handled
 * SIGUSR1, installed without SA_RESTART so that a leaked -ERESTARTSYS
 * would show, must never turn an ioctl into -EINTR: fz_ioctl() counts
 * that as an undocumented error.
 */
#define STORM_TARGETS	8

static atomic_ullong signals_handled;

static void on_sigusr1(int sig)
{
	(void)sig;
	atomic_fetch_add(&signals_handled, 1);
}

struct storm {
	pthread_t thread;
	pthread_t target[STORM_TARGETS];
	unsigned int n;
	atomic_bool stop;
	uint64_t sent;
};

static void *storm_main(void *arg)
{
	struct storm *s = arg;

	while (!atomic_load(&s->stop)) {
		for (unsigned int i = 0; i < s->n; i++)
			if (!pthread_kill(s->target[i], SIGUSR1))
				s->sent++;
		usleep(2000);
	}
	return NULL;
}

/* Signal @targets every 2 ms until storm_stop(); 0 or -errno. */
static int storm_start(struct storm *s, const pthread_t *targets, unsigned int n)
{
	struct sigaction sa = { .sa_handler = on_sigusr1 };	/* no SA_RESTART */

	memset(s, 0, sizeof(*s));
	if (n > STORM_TARGETS)
		return -EINVAL;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		return -errno;
	memcpy(s->target, targets, n * sizeof(*targets));
	s->n = n;
	return -pthread_create(&s->thread, NULL, storm_main, s);
}

/* Before any target exits; prints what was sent and handled. */
static void storm_stop(struct __test_metadata *_metadata, struct storm *s, const char *what)
{
	atomic_store(&s->stop, true);
	pthread_join(s->thread, NULL);
	printf("# %s: %llu SIGUSR1 sent during the waits, %llu handled so far\n", what,
	       (unsigned long long)s->sent, (unsigned long long)atomic_load(&signals_handled));
	fflush(stdout);
	EXPECT_LT(0, s->sent) TH_LOG("%s: no signal was sent", what);
}

FIXTURE(fuzz) {
	int kmsg;
	long pinned0;
	uint64_t ioctls;
	char hung_old[32];
	bool trace;
	bool ready;	/* setup went through (a SKIP there still runs the body) */
};

FIXTURE_SETUP(fuzz)
{
	char buf[32] = "";
	int fd;

	self->kmsg = -1;
	self->hung_old[0] = '\0';
	self->ready = false;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	printf("# seed %llu\n", (unsigned long long)fuzz_seed);
	self->ioctls = env_u64("IPUXCOM_FUZZ_IOCTLS", 200000);
#ifdef IXT_COMPAT32
	self->ioctls /= 4;	/* the 64-bit binary runs the full amount */
#endif
	self->trace = env_u64("IPUXCOM_FUZZ_TRACE", 0) != 0;
	/* a task stuck in D state for 20 s is reported (and judged below) */
	fd = open("/proc/sys/kernel/hung_task_timeout_secs", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			snprintf(self->hung_old, sizeof(self->hung_old), "%s", buf);
			if (ixt_write_sysfs("/proc/sys/kernel/hung_task_timeout_secs", "20\n"))
				TH_LOG("cannot set hung_task_timeout_secs");
		}
	} else {
		TH_LOG("no /proc/sys/kernel/hung_task_timeout_secs: hung tasks go unnoticed");
	}
	ixt_sim_clear_faults(ixt_dev_id());
	self->kmsg = kmsg_mark();
	self->pinned0 = ixt_pinned_pages();
	self->ready = true;
}

FIXTURE_TEARDOWN(fuzz)
{
	if (self->kmsg >= 0) {
		EXPECT_EQ(0, kmsg_scan(self->kmsg)) TH_LOG("kernel log reports trouble (seed %llu)",
							  (unsigned long long)fuzz_seed);
		close(self->kmsg);
	}
	if (self->hung_old[0])
		ixt_write_sysfs("/proc/sys/kernel/hung_task_timeout_secs", self->hung_old);
}

static int fz_init(struct fz *z, uint64_t seed, bool trace)
{
	memset(z, 0, sizeof(*z));
	z->r.s = seed;
	z->fd = -1;
	z->ipu_fd = -1;
	z->fnth_fd = -1;
	memset(z->odd_fd, 0xff, sizeof(z->odd_fd));
	z->trace_on = trace;
	z->trace_from = env_u64("IPUXCOM_FUZZ_TRACE_FROM", 0);
	z->trace_to = env_u64("IPUXCOM_FUZZ_TRACE_TO", ~0ull);
	return fz_mem_init(z);
}

static void fz_run(struct fz *z, uint64_t ioctls)
{
	uint64_t every = env_u64("IPUXCOM_FUZZ_DIGEST_EVERY", 50000) ?: 50000;
	uint64_t t0 = now_ns(), next = every;

	z->digest = 0xcbf29ce484222325ull;
	/* the same start for the same seed (unless the caller set one up) */
	fz_knobs_clear(z);
	if (!z->keep_start)
		fz_reset(z);

	while (z->ioctls < ioctls && z->failed < 20) {
		fz_step(z);
		if (z->ioctls >= next) {
			printf("# %llu ioctls, %.1f s, digest %016llx\n", (unsigned long long)z->ioctls,
			       (double)(now_ns() - t0) / 1e9, (unsigned long long)z->digest);
			fflush(stdout);
			next += every;
		}
	}
}

TEST_F_TIMEOUT(fuzz, single_thread_sim, 7200)
{
	struct fz *z = calloc(1, sizeof(*z));
	pthread_t me = pthread_self();
	struct storm storm;
	uint64_t t0 = now_ns();
	long injected0;

	if (!self->ready)
		return;

	ASSERT_NE(NULL, z);
	ASSERT_EQ(0, fz_init(z, fuzz_seed, self->trace));
	z->dev = ixt_dev_id();
	z->knobs = true;
	z->fault_inject = sim_has_fault_inject(z->dev);
	injected0 = fi_injected(z->dev);
	z->fd = ixt_open();
	ASSERT_LE(0, z->fd);
	ASSERT_EQ(0, fz_attach(z));
	z->may_stall = geteuid() == 0 && ixt_fuse_available();
	ASSERT_EQ(0, storm_start(&storm, &me, 1));
	fz_run(z, self->ioctls);
	/* at least one stalled owner whose attach cannot be refused: an idle device, slot 0 */
	if (z->may_stall && !z->stalls && !z->failed && !fz_reset(z))
		fz_stall_op(z, IPUXCOM_BUF_SLOT_LOADER);
	storm_stop(_metadata, &storm, "single_thread_sim");
	fz_knobs_clear(z);
	fz_report(_metadata, z, "single_thread_sim", t0);
	if (z->fault_inject)
		printf("#   %ld faults injected at the simulator's sites (fail_<site>)\n",
		       fi_injected(z->dev) - injected0);
	printf("#   %llu episodes under a stalled owner%s\n", (unsigned long long)z->stalls,
	       z->may_stall ? "" : " (no FUSE in this kernel)");
	if (z->may_stall)
		EXPECT_LE(1, z->stalls) TH_LOG("no stalled owner: its attach was refused each time");
	close(z->fd);
	fz_mem_free(z);
	check_device_sane(_metadata, z->dev, -1);
	check_pins(_metadata, self->pinned0);
	free(z);
}

/* ------------------------------------------------------------ unprivileged */

/* RESET, then AUTOLOAD of a 1 KiB bootloader: every tile runs it. 0 or -errno. */
static int fz_load_bootloader(struct fz *z)
{
	static uint8_t boot[1024];
	struct ipuxcom_ioc_reset rs = { .size = sizeof(rs) };
	struct ipuxcom_ioc_autoload al = {
		.size = sizeof(al), .image = (uintptr_t)boot, .image_size = sizeof(boot),
	};

	for (size_t i = 0; i < sizeof(boot); i++)
		boot[i] = (uint8_t)(i * 131 + 5);
	if (ioctl(z->fd, IPUXCOM_IOC_RESET, &rs) || ioctl(z->fd, IPUXCOM_IOC_AUTOLOAD, &al))
		return -errno;
	return 0;
}

/* Who the unprivileged run is: the group the node is given, as udev's rule does for ipuxcom. */
#define UNPRIV_UID	65534
#define UNPRIV_GID	4242

/*
 * The random mix as a member of the device's group without any
 * capability (no CAP_SYS_RAWIO, RLIMIT_MEMLOCK charged, -EPERM paths), in
 * a child that gives up root; /dev/ipuxcom is made root:UNPRIV_GID 0660
 * for the run (the installed udev rule's shape) and put back after.
 */
TEST_F_TIMEOUT(fuzz, unprivileged, 7200)
{
	uint64_t n = self->ioctls / 4, t0 = now_ns();
	struct stat st0;
	int status = 0, ready[2] = { -1, -1 };
	pid_t pid;

	if (!self->ready)
		return;
	/* root the device's last user, as an owner change needs */
	{
		int fd = ixt_open();

		ASSERT_LE(0, fd);
		ASSERT_EQ(0, ixt_attach(fd, ixt_dev_id()));
		ASSERT_EQ(0, ixt_reset(fd));
		close(fd);
	}
	ASSERT_EQ(0, stat(ixt_dev_path(), &st0));
	ASSERT_EQ(0, chown(ixt_dev_path(), 0, UNPRIV_GID));
	ASSERT_EQ(0, chmod(ixt_dev_path(), 0660));
	/* the child says when its set-up (a load of its own) is done */
	ASSERT_EQ(0, pipe2(ready, O_CLOEXEC));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		gid_t g = UNPRIV_GID;
		pthread_t me = pthread_self();
		struct storm storm;
		struct fz *z = calloc(1, sizeof(*z));
		int lret;

		/* CAP_SYS_RAWIO kept through the uid change, to load the device below */
		if (!z || setgroups(1, &g) || setresgid(UNPRIV_UID, UNPRIV_UID, UNPRIV_UID) ||
		    prctl(PR_SET_KEEPCAPS, 1) || setresuid(UNPRIV_UID, UNPRIV_UID, UNPRIV_UID) ||
		    ixt_caps_set(1u << CAP_SYS_RAWIO)) {
			printf("# unprivileged: cannot become uid %d: %s\n", UNPRIV_UID, strerror(errno));
			fflush(stdout);
			_exit(2);
		}
		if (ixt_cap_effective() != 1u << CAP_SYS_RAWIO)
			_exit(3);
		/* its /proc/<tid> files (fail-nth) are its own again */
		if (prctl(PR_SET_DUMPABLE, 1))
			_exit(3);
		if (fz_init(z, fuzz_seed ^ 0x5e7, self->trace))
			_exit(4);
		z->dev = ixt_dev_id();
		z->fd = ixt_open();
		if (z->fd < 0) {
			printf("# unprivileged: open %s: %s\n", ixt_dev_path(), strerror(errno));
			fflush(stdout);
			_exit(5);
		}
		if (fz_attach(z))
			_exit(6);
		/*
		 * An owner change (uapi: ATTACH): root used the device last, so
		 * nothing of what it left is this user's until a RESET; the mix
		 * starts with one (fz_run()).
		 */
		{
			struct ipuxcom_ioc_tdi_sram ts = {
				.size = sizeof(ts), .addr = 0x4c000, .count = 4,
				.data = (uintptr_t)z->data,
			};
			struct ipuxcom_ioc_dev_query q = { .size = sizeof(q) };

			if (ixt_ioctl(z->fd, IPUXCOM_IOC_TDI_READ_SRAM, &ts) != -EBADFD ||
			    ixt_ioctl(z->fd, IPUXCOM_IOC_DEV_QUERY, &q) ||
			    q.state != IPUXCOM_DEV_STATE_NEEDS_RESET) {
				printf("# unprivileged: root's device was readable or not NEEDS_RESET"
				       " (state %u)\n", q.state);
				fflush(stdout);
				_exit(8);
			}
		}
		/*
		 * The device becomes this user's work: RESET, then the
		 * bootloader on every tile (AUTOLOAD, the last thing
		 * CAP_SYS_RAWIO is kept for). Then every capability goes, and
		 * the child arms its own fail-nth in the mix (fz_fnth_arm()):
		 * the commands any user may run on a device its uid loaded
		 * (TDI reads, host exchange) reach the simulator's sites, and
		 * none may fail there for it (kmod/sim/sim_backend.c).
		 */
		lret = fz_load_bootloader(z);
		if (lret) {
			printf("# unprivileged: loading the bootloader: %s\n", strerror(-lret));
			fflush(stdout);
			_exit(10);
		}
		if (ixt_caps_set(0) || ixt_cap_effective() != 0) {
			printf("# unprivileged: dropping every capability: %s, CapEff %llx\n",
			       strerror(errno), (unsigned long long)ixt_cap_effective());
			fflush(stdout);
			_exit(11);
		}
		z->fnth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
		z->fnth_r.s = fuzz_seed ^ 0xf417;
		z->keep_start = true;
#ifndef IXT_COMPAT32
		/* the events group (register offsets and values) is not for it */
		{
			struct ipuxcom_monitor *mon = NULL;
			int ret = ipuxcom_monitor_open(&mon);

			ipuxcom_monitor_close(mon);
			if (ret != -EPERM) {
				printf("# unprivileged: joining the events group gave %d, not -EPERM\n",
				       ret);
				fflush(stdout);
				_exit(9);
			}
		}
#endif
		if (storm_start(&storm, &me, 1))
			_exit(7);
		if (write(ready[1], "r", 1) != 1)
			_exit(7);
		fz_run(z, n);
		storm_stop(_metadata, &storm, "unprivileged");
		fz_report(_metadata, z, "unprivileged", t0);
		printf("#   as uid %d gid %d, groups {%d}, no capabilities, from a device it loaded;"
		       " fail-nth armed by itself before %llu ioctls, fired in %llu%s\n",
		       UNPRIV_UID, UNPRIV_UID, UNPRIV_GID, (unsigned long long)z->fnth_armed,
		       (unsigned long long)z->fnth_fired,
		       z->fnth_fd < 0 ? " (no fail-nth: a kernel without fault injection)" : "");
		fflush(stdout);
		if (z->fnth_fd >= 0 && !z->fnth_fired)
			_exit(12);
		_exit(_metadata->passed && z->errs[EPERM] ? 0 : 1);
	}
	/*
	 * Root drives the simulator's faults while the child runs (debugfs is
	 * root's, so the child cannot): one fault armed for 1..20 ms, then
	 * none for as long, until the child exits (the child does ~5000
	 * ioctls/s in the normal VM: a fault spans a few dozen).
	 */
	{
		struct rng fr = { fuzz_seed ^ 0xfa17ull };
		uint32_t dev = ixt_dev_id();
		bool fi = sim_has_fault_inject(dev);
		long inj0 = fi_injected(dev);
		struct pollfd rp = { .fd = ready[0], .events = POLLIN };
		uint64_t armed = 0;
		pid_t w;

		/*
		 * Not while the child sets itself up: its own AUTOLOAD under a
		 * stuck GO timed out (exit 10) in the card lane's fuzz run of
		 * 2026-12-06. It writes a byte once set up; EOF: it died first.
		 */
		close(ready[1]);
		while ((w = waitpid(pid, &status, WNOHANG)) == 0 && poll(&rp, 1, 100) == 0)
			;
		close(ready[0]);
		while (w == 0 && (w = waitpid(pid, &status, WNOHANG)) == 0) {
			char what[48];

			if (!sim_fault_arm(&fr, dev, fi, what, sizeof(what)))
				armed++;
			usleep(1000 + rbelow(&fr, 19000));
			ixt_sim_clear_faults(dev);
			usleep(1000 + rbelow(&fr, 19000));
		}
		ASSERT_EQ(pid, w);
		printf("# unprivileged: root armed %llu simulator faults meanwhile",
		       (unsigned long long)armed);
		if (fi)
			printf(" (%ld injected at its fail_<site>s)", fi_injected(dev) - inj0);
		printf("\n");
		EXPECT_LT(0, armed) TH_LOG("no simulator fault could be armed");
		/*
		 * Every site (an autoload's GO, a mark, a device transfer, an
		 * injected TDI instruction, a context stop) is reached only
		 * through a command that needs CAP_SYS_RAWIO or a program that
		 * only such a command installs, and the owner change reset what
		 * root left: a fault injected there means the child drove the
		 * device's sequencer, which it must not be able to.
		 */
		if (fi)
			EXPECT_EQ(0, fi_injected(dev) - inj0)
				TH_LOG("the unprivileged child reached a simulator fault site");
	}
	EXPECT_EQ(0, chown(ixt_dev_path(), st0.st_uid, st0.st_gid));
	EXPECT_EQ(0, chmod(ixt_dev_path(), st0.st_mode & 07777));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("the unprivileged run ended with status 0x%x (1: a failure above or no"
		       " -EPERM seen; 8: root's work readable after the owner change; 9: the"
		       " events group joined; 12: its fail-nth never fired; 2-7, 10, 11:"
		       " setting it up failed)", status);
	check_device_sane(_metadata, ixt_dev_id(), -1);
	check_pins(_metadata, self->pinned0);
}

#ifndef IXT_COMPAT32
/*
 * The 32-bit build (zz_ioctl_fuzz_test_compat32: the module's compat_ioctl
 * path) is static and links neither libipuxcom nor libmnl: it runs the
 * simulator's random mix, root and unprivileged, and pointers_stay_owned.
 */
/* ------------------------------------------------------------ stand-in */

/*
 * The card again, with a fresh /dev/ipu0 taken (USER_ATTACH, once the
 * last holder's file is gone): device @dev answers and resets.
 */
static void check_card_sane(struct __test_metadata *_metadata, uint32_t dev)
{
	int ipu = open("/dev/ipu0", O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, ipu);
	for (int i = 0; i < 50 && ixt_ioctl(ipu, IPU_DRV_USER_ATTACH, NULL) == -EBUSY; i++)
		usleep(100 * 1000);
	EXPECT_EQ(0, ixt_ioctl(ipu, IPU_DRV_USER_ATTACH, NULL));
	check_device_sane(_metadata, dev, ipu);
	close(ipu);
}

TEST_F_TIMEOUT(fuzz, standin_card, 7200)
{
	const char *ko = getenv("IPUXCOM_STANDIN_KO");
	pthread_t me = pthread_self();
	struct storm storm;
	struct fz *z;
	uint64_t t0;
	long id;

	if (!self->ready)
		return;
	/* ipu_driver signals the holder of a card: blocked first, as libipuxcom(3) says */
	ASSERT_EQ(0, ipuxcom_block_driver_signals());

	if (!ko || !*ko)
		SKIP(return, "IPUXCOM_STANDIN_KO not set: the ipu_driver stand-in is for the test VM only");
	if (!ixt_c600_find(NULL, 0))
		SKIP(return, "no QEMU C600 (1d95:c600): boot the VM with run-vm.sh --c600");
	/* the stand-in on the C600, served by ipuxcom_hw; no signals (ipudrv_test) */
	ASSERT_EQ(0, ixt_standin_load("signals=0"));
	ASSERT_EQ(0, ixt_standin_hw_load());
	id = ixt_hw_dev_id();
	ASSERT_LE(0, id);
	z = calloc(1, sizeof(*z));
	ASSERT_NE(NULL, z);
	ASSERT_EQ(0, fz_init(z, fuzz_seed ^ 0xca4d, self->trace));
	z->card = true;
	z->knobs = true;
	z->dev = (uint32_t)id;
	ASSERT_EQ(0, card_open_ipu(z));
	z->fd = ixt_open();
	ASSERT_LE(0, z->fd);
	ASSERT_EQ(0, fz_attach(z));
	t0 = now_ns();
	ASSERT_EQ(0, storm_start(&storm, &me, 1));
	fz_run(z, self->ioctls / 4);
	storm_stop(_metadata, &storm, "standin_card");
	fz_knobs_clear(z);
	fz_report(_metadata, z, "standin_card", t0);
	close(z->fd);
	card_close_ipu(z);
	fz_mem_free(z);
	check_card_sane(_metadata, z->dev);
	check_pins(_metadata, self->pinned0);
	free(z);
	EXPECT_EQ(0, ixt_standin_unload());
}

/* ------------------------------------------------------------ card removal */

#define REMOVAL_ROUNDS	6

struct removal_run {
	struct fz *z;
	atomic_bool stop;
};

static void *removal_worker(void *arg)
{
	struct removal_run *rr = arg;

	while (!atomic_load(&rr->stop) && rr->z->failed < 20)
		fz_step(rr->z);
	return NULL;
}

/*
 * The card goes away in the middle of commands: a thread runs the card's
 * random mix (ipuxcom through ipuxcom_hw, and ipu_driver's own calls on
 * /dev/ipu0) while the test, after 20-320 ms, unbinds ipu_driver from the
 * PCI device (sysfs) or has QEMU delete it (device_del through run-vm.sh's
 * monitor relay, every other round when there is one). The thread keeps
 * going on the dead files for a while: every answer must still be a
 * documented one (-ENODEV), nothing may crash, hang or warn, and once the
 * card is back (bind, device_add) it must work and no page stay pinned.
 */
TEST_F_TIMEOUT(fuzz, standin_card_removal, 7200)
{
	const char *ko = getenv("IPUXCOM_STANDIN_KO");
	bool monitor = getenv("IPUXCOM_QEMU_MONITOR") != NULL;
	char devdir[300], bdf[64], drvlink[64], target[300], path[400];
	struct rng r = { fuzz_seed ^ 0x7e30 };
	unsigned int unbinds = 0, deletes = 0;
	uint64_t t0;
	ssize_t n;
	long id;

	if (!self->ready)
		return;
	ASSERT_EQ(0, ipuxcom_block_driver_signals());
	if (!ko || !*ko)
		SKIP(return, "IPUXCOM_STANDIN_KO not set: the ipu_driver stand-in is for the test VM only");
	if (!ixt_c600_find(devdir, sizeof(devdir)))
		SKIP(return, "no QEMU C600 (1d95:c600): boot the VM with run-vm.sh --c600");
	snprintf(bdf, sizeof(bdf), "%s", strrchr(devdir, '/') + 1);
	ASSERT_EQ(0, ixt_standin_load("signals=0"));
	ASSERT_EQ(0, ixt_standin_hw_load());
	for (unsigned int round = 0; round < REMOVAL_ROUNDS; round++) {
		bool del = monitor && (round & 1);
		struct removal_run rr = { 0 };
		pthread_t t;
		char what[64];

		t0 = now_ns();
		ASSERT_EQ(0, ixt_card_wait(true, 60000)) TH_LOG("round %u: no card", round);
		id = ixt_hw_dev_id();
		rr.z = calloc(1, sizeof(*rr.z));
		ASSERT_NE(NULL, rr.z);
		ASSERT_EQ(0, fz_init(rr.z, fuzz_seed ^ (0x7e31 + round), self->trace));
		rr.z->card = true;
		rr.z->shared = true;	/* never closed and re-attached by the thread */
		rr.z->dev = (uint32_t)id;
		ASSERT_EQ(0, card_open_ipu(rr.z));
		rr.z->fd = ixt_open();
		ASSERT_LE(0, rr.z->fd);
		ASSERT_EQ(0, fz_attach(rr.z));
		ASSERT_EQ(0, pthread_create(&t, NULL, removal_worker, &rr));
		usleep((20 + rbelow(&r, 300)) * 1000);
		if (del) {
			ixt_qemu_monitor("device_del " IXT_C600_QEMU_ID);
			deletes++;
		} else {
			snprintf(path, sizeof(path), "%s/driver", devdir);
			n = readlink(path, target, sizeof(target) - 1);
			ASSERT_LT(0, n);
			target[n] = '\0';
			snprintf(drvlink, sizeof(drvlink), "%s", strrchr(target, '/') + 1);
			snprintf(path, sizeof(path), "%s/driver/unbind", devdir);
			EXPECT_EQ(0, ixt_write_sysfs(path, bdf)) TH_LOG("unbind %s from %s", bdf, drvlink);
			unbinds++;
		}
		EXPECT_EQ(0, ixt_card_wait(false, 30000)) TH_LOG("round %u: the card is still there", round);
		usleep(200 * 1000);	/* the thread goes on with the dead files */
		atomic_store(&rr.stop, true);
		pthread_join(t, NULL);
		snprintf(what, sizeof(what), "removal round %u (%s)", round, del ? "device_del" : "unbind");
		fz_report(_metadata, rr.z, what, t0);
		close(rr.z->fd);
		card_close_ipu(rr.z);
		fz_mem_free(rr.z);
		free(rr.z);
		if (del) {
			ixt_qemu_monitor(IXT_C600_QEMU_ADD);
		} else {
			snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s/bind", drvlink);
			EXPECT_EQ(0, ixt_write_sysfs(path, bdf)) TH_LOG("bind %s to %s", bdf, drvlink);
		}
	}
	ASSERT_EQ(0, ixt_card_wait(true, 60000)) TH_LOG("the card did not come back");
	check_card_sane(_metadata, (uint32_t)ixt_hw_dev_id());
	printf("# standin_card_removal: %u unbinds, %u device_del mid-command\n", unbinds, deletes);
	check_pins(_metadata, self->pinned0);
	EXPECT_EQ(0, ixt_standin_unload());
}

/* ------------------------------------------------------------ concurrent */

#define WORKERS	3

struct conc {
	atomic_bool stop;
	int shared_fd;
	uint32_t dev;
	uint64_t seed;
	bool trace;
	struct fz *w[WORKERS];
	struct fz *churn;
	uint64_t nl_msgs, nl_garbage, nl_events, dev_adds, dev_removed_attached;
	char nl_err[160];
};

static void *worker_main(void *arg)
{
	struct fz *z = arg;
	struct conc *c = z->owner;

	while (!atomic_load(&c->stop) && z->failed < 20)
		fz_step(z);
	return NULL;
}

/* Simulated devices come and go; the new ones are used while they go. */
static void *churn_main(void *arg)
{
	struct conc *c = arg;
	struct fz *z = c->churn;
	struct rng *r = &z->r;

	while (!atomic_load(&c->stop) && !z->failed) {
		unsigned char seen[256] = { 0 };
		struct ipuxcom_device_info *devs = NULL;
		struct ipuxcom_nl *nl = NULL;
		size_t n = 0;
		long id = -1;
		int ret, fd;

		ret = ixt_set_sim_devices(3 + (int)rbelow(r, 2));
		if (ret) {
			fz_fail(z, "sim devices=3/4: %s", strerror(-ret));
			break;
		}
		c->dev_adds++;
		if (!ipuxcom_nl_open(&nl) && !ipuxcom_nl_dev_list(nl, &devs, &n)) {
			for (size_t i = 0; i < n; i++)
				if (devs[i].dev_id < 256 && !strcmp(devs[i].backend, "sim"))
					seen[devs[i].dev_id] = 1;
			ipuxcom_nl_dev_list_free(devs);
		}
		ipuxcom_nl_close(nl);
		for (unsigned int i = 0; i < 256; i++)
			if (seen[i] && i != c->dev && i != (uint32_t)ixt_dev_id2())
				id = (long)i;
		fd = id >= 0 ? ixt_open() : -1;
		if (fd >= 0) {
			z->fd = fd;
			z->dev = (uint32_t)id;
			if (!fz_attach(z)) {
				for (int k = 0; k < 30; k++)
					fz_step(z);
				if (rbelow(r, 2)) {	/* removed under the attached file */
					ixt_set_sim_devices(2);
					c->dev_removed_attached++;
					for (int k = 0; k < 30; k++)
						fz_random_ioctl(z);
				}
			}
			/* fz_step may have re-attached: z->fd is the current file */
			close(z->fd);
			z->fd = -1;
		}
		ret = ixt_set_sim_devices(2);
		if (ret)
			fz_fail(z, "sim devices=2: %s", strerror(-ret));
		/* and the second device (ixt_dev_id2()) is fought over with a fresh file now and then */
		fd = ixt_open();
		if (fd >= 0) {
			int a = ixt_attach(fd, (uint32_t)ixt_dev_id2());

			if (a && a != -EBUSY)
				fz_fail(z, "attach device %ld: %s", ixt_dev_id2(), strerror(-a));
			ixt_attach(fd, c->dev);	/* held by the workers' file */
			close(fd);
		}
	}
	return NULL;
}

/* Dumps, garbage requests, and the events group drained. */
static void *netlink_main(void *arg)
{
	struct conc *c = arg;
	struct rng r = { c->seed ^ 0x4e4c };
	struct ipuxcom_monitor *mon = NULL;
	struct mnl_socket *sock;
	uint16_t family = 0;
	char buf[MNL_SOCKET_BUFFER_SIZE];
	int one = 1;

	sock = mnl_socket_open(NETLINK_GENERIC);
	if (!sock || mnl_socket_bind(sock, 0, MNL_SOCKET_AUTOPID) ||
	    ixt_genl_family(sock, &family)) {
		snprintf(c->nl_err, sizeof(c->nl_err), "generic netlink family: %s", strerror(errno));
		if (sock)
			mnl_socket_close(sock);
		return NULL;
	}
	mnl_socket_setsockopt(sock, NETLINK_EXT_ACK, &one, sizeof(one));
	if (ipuxcom_monitor_open(&mon))
		snprintf(c->nl_err, sizeof(c->nl_err), "events group: cannot join");
	while (!atomic_load(&c->stop)) {
		uint32_t k = rbelow(&r, 10);

		if (k < 3) {	/* dump, through the library */
			struct ipuxcom_device_info *devs = NULL;
			struct ipuxcom_nl *nl;
			size_t n = 0;

			if (!ipuxcom_nl_open(&nl)) {
				if (!ipuxcom_nl_dev_list(nl, &devs, &n))
					ipuxcom_nl_dev_list_free(devs);
				ipuxcom_nl_close(nl);
			}
			c->nl_msgs++;
		} else {	/* garbage */
			struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
			struct genlmsghdr *g;
			uint32_t nattr = rbelow(&r, 5);
			static const uint16_t fl[] = {
				NLM_F_REQUEST, NLM_F_REQUEST | NLM_F_DUMP, NLM_F_REQUEST | NLM_F_ACK,
				NLM_F_REQUEST | NLM_F_DUMP | NLM_F_ACK,
			};

			nlh->nlmsg_type = rbelow(&r, 20) ? family : (uint16_t)rnext(&r);
			nlh->nlmsg_flags = rbelow(&r, 10) ? fl[rbelow(&r, 4)] : (uint16_t)rnext(&r);
			nlh->nlmsg_seq = (uint32_t)c->nl_garbage;
			g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
			g->cmd = rbelow(&r, 4) ? (uint8_t)rbelow(&r, 9) : (uint8_t)rnext(&r);
			g->version = rbelow(&r, 4) ? 1 : (uint8_t)rnext(&r);
			for (uint32_t i = 0; i < nattr; i++) {
				uint16_t type = rbelow(&r, 4) ? (uint16_t)rbelow(&r, 18) :
							 (uint16_t)rnext(&r);
				uint8_t payload[40];
				uint32_t len = rbelow(&r, 3) ? 4 * rbelow(&r, 3) : rbelow(&r, 40);

				for (uint32_t b = 0; b < sizeof(payload); b++)
					payload[b] = (uint8_t)rnext(&r);
				if (rbelow(&r, 2))
					memset(payload, 0, 4);
				mnl_attr_put(nlh, type, len, payload);
			}
			if (rbelow(&r, 15) == 0)	/* a lying length */
				nlh->nlmsg_len = rbelow(&r, 2) ? nlh->nlmsg_len - 1 - rbelow(&r, 8) :
						 nlh->nlmsg_len + 4 * rbelow(&r, 16);
			if (nlh->nlmsg_len > sizeof(buf))
				nlh->nlmsg_len = sizeof(buf);
			mnl_socket_sendto(sock, nlh, nlh->nlmsg_len);
			c->nl_garbage++;
			/* drain the answers */
			while (recv(mnl_socket_get_fd(sock), buf, sizeof(buf), MSG_DONTWAIT) > 0)
				c->nl_msgs++;
		}
		if (mon) {
			struct ipuxcom_event ev = IPUXCOM_EVENT_INIT;
			int ret;

			while ((ret = ipuxcom_monitor_next(mon, &ev, 0)) != -EAGAIN) {
				if (!ret)
					c->nl_events++;
				else if (ret != -ENOBUFS && ret != -EPROTO)
					break;
			}
		}
	}
	ipuxcom_monitor_close(mon);
	mnl_socket_close(sock);
	return NULL;
}

TEST_F_TIMEOUT(fuzz, concurrent, 7200)
{
	uint64_t seconds = env_u64("IPUXCOM_FUZZ_SECONDS", 60), t0 = now_ns();
	pthread_t wt[WORKERS], ct, nt;
	struct conc *c = calloc(1, sizeof(*c));
	struct storm storm;
	struct fz total;
	int sim0 = ixt_sim_devices();

	if (!self->ready)
		return;

	ASSERT_NE(NULL, c);
	ASSERT_LE(2, sim0) TH_LOG("the VM's simulator has 2 devices");
	c->dev = ixt_dev_id();
	c->seed = fuzz_seed ^ 0xc0c0;
	c->shared_fd = ixt_open();
	ASSERT_LE(0, c->shared_fd);
	ASSERT_EQ(0, ixt_attach(c->shared_fd, c->dev));
	for (int i = 0; i < WORKERS; i++) {
		c->w[i] = calloc(1, sizeof(struct fz));
		ASSERT_NE(NULL, c->w[i]);
		ASSERT_EQ(0, fz_init(c->w[i], c->seed + 1 + (uint64_t)i, false));
		c->w[i]->fd = c->shared_fd;
		c->w[i]->dev = c->dev;
		c->w[i]->shared = true;
	}
	c->churn = calloc(1, sizeof(struct fz));
	ASSERT_NE(NULL, c->churn);
	ASSERT_EQ(0, fz_init(c->churn, c->seed + 100, false));
	/* the workers build the batches lazily; do it before the clock runs */
	batches_get();
	for (int i = 0; i < WORKERS; i++) {
		c->w[i]->owner = c;
		ASSERT_EQ(0, pthread_create(&wt[i], NULL, worker_main, c->w[i]));
	}
	ASSERT_EQ(0, pthread_create(&ct, NULL, churn_main, c));
	ASSERT_EQ(0, pthread_create(&nt, NULL, netlink_main, c));
	ASSERT_EQ(0, storm_start(&storm, wt, WORKERS));
	while (now_ns() - t0 < seconds * 1000000000ull) {
		bool failed = c->churn->failed;

		for (int i = 0; i < WORKERS; i++)
			failed |= c->w[i]->failed >= 20;
		if (failed)
			break;
		usleep(200 * 1000);
	}
	storm_stop(_metadata, &storm, "concurrent");
	atomic_store(&c->stop, true);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(wt[i], NULL);
	pthread_join(ct, NULL);
	pthread_join(nt, NULL);

	memset(&total, 0, sizeof(total));
	for (int i = 0; i < WORKERS; i++) {
		char name[32];

		snprintf(name, sizeof(name), "concurrent worker %d", i);
		fz_report(_metadata, c->w[i], name, t0);
		total.ioctls += c->w[i]->ioctls;
	}
	fz_report(_metadata, c->churn, "concurrent device churn", t0);
	printf("# concurrent: %llu ioctls by %d workers sharing one file in %.1f s;"
	       " %llu device adds (%llu removed while attached); netlink: %llu garbage"
	       " requests, %llu messages back, %llu events\n",
	       (unsigned long long)total.ioctls, WORKERS, (double)(now_ns() - t0) / 1e9,
	       (unsigned long long)c->dev_adds, (unsigned long long)c->dev_removed_attached,
	       (unsigned long long)c->nl_garbage, (unsigned long long)c->nl_msgs,
	       (unsigned long long)c->nl_events);
	EXPECT_EQ(0, c->nl_err[0]) TH_LOG("%s", c->nl_err);
	close(c->shared_fd);
	for (int i = 0; i < WORKERS; i++) {
		fz_mem_free(c->w[i]);
		free(c->w[i]);
	}
	fz_mem_free(c->churn);
	free(c->churn);
	EXPECT_EQ(0, ixt_set_sim_devices(sim0));
	check_device_sane(_metadata, c->dev, -1);
	check_device_sane(_metadata, (uint32_t)ixt_dev_id2(), -1);
	check_pins(_metadata, self->pinned0);
	free(c);
}

/* ------------------------------------------------------------ user memory stalls */

#define STALL_S		3

struct stall {
	int uffd;
	uint8_t *area;		/* PAGE, registered: its first touch faults to us */
	uint8_t *src;		/* what the page becomes */
	pthread_t th;
	atomic_int faulted;
	atomic_bool release;
};

static void *stall_main(void *arg)
{
	struct stall *st = arg;
	struct uffd_msg msg;
	struct pollfd pfd = { .fd = st->uffd, .events = POLLIN };
	uint64_t t0 = 0;

	for (;;) {
		if (poll(&pfd, 1, 100) < 0 && errno != EINTR)
			break;
		if (read(st->uffd, &msg, sizeof(msg)) == (ssize_t)sizeof(msg) &&
		    msg.event == UFFD_EVENT_PAGEFAULT) {
			struct uffdio_copy cp = {
				.dst = msg.arg.pagefault.address & ~(uint64_t)(PAGE - 1),
				.src = (uintptr_t)st->src, .len = PAGE,
			};

			atomic_store(&st->faulted, 1);
			t0 = now_ns();
			while (!atomic_load(&st->release) && now_ns() - t0 < STALL_S * 1000000000ull)
				usleep(10 * 1000);
			ioctl(st->uffd, UFFDIO_COPY, &cp);
			return NULL;
		}
		if (atomic_load(&st->release))
			return NULL;
	}
	return NULL;
}

static int stall_start(struct stall *st, const void *content)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	memset(st, 0, sizeof(*st));
	st->uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (st->uffd < 0)
		return -errno;
	st->area = map_anon(PAGE, PROT_READ | PROT_WRITE);
	st->src = map_anon(PAGE, PROT_READ | PROT_WRITE);
	if (!st->area || !st->src || ioctl(st->uffd, UFFDIO_API, &api))
		return -errno ? -errno : -ENOMEM;
	memcpy(st->src, content, PAGE);
	reg.range.start = (uintptr_t)st->area;
	reg.range.len = PAGE;
	if (ioctl(st->uffd, UFFDIO_REGISTER, &reg))
		return -errno;
	return pthread_create(&st->th, NULL, stall_main, st) ? -EAGAIN : 0;
}

static void stall_stop(struct stall *st)
{
	atomic_store(&st->release, true);
	pthread_join(st->th, NULL);
	close(st->uffd);
	munmap(st->area, PAGE);
	munmap(st->src, PAGE);
}

struct stalled_call {
	int fd;
	unsigned long cmd;
	void *arg;
	int ret;
};

static void *stalled_call_main(void *arg)
{
	struct stalled_call *sc = arg;

	sc->ret = ixt_ioctl(sc->fd, sc->cmd, sc->arg);
	return NULL;
}

/* A simulated device added for the test (not @a or @b); its id or -1. */
static long sim_add_device(uint32_t a, uint32_t b)
{
	struct ipuxcom_device_info *devs = NULL;
	struct ipuxcom_nl *nl = NULL;
	size_t n = 0;
	long id = -1;

	if (ixt_set_sim_devices(3))
		return -1;
	if (!ipuxcom_nl_open(&nl) && !ipuxcom_nl_dev_list(nl, &devs, &n)) {
		for (size_t i = 0; i < n; i++)
			if (!strcmp(devs[i].backend, "sim") && devs[i].dev_id != a &&
			    devs[i].dev_id != b)
				id = devs[i].dev_id;
		ipuxcom_nl_dev_list_free(devs);
	}
	ipuxcom_nl_close(nl);
	return id;
}

TEST_F_TIMEOUT(fuzz, user_memory_stall, 600)
{
	static const uint8_t boot[1024] = { 1, 2, 3, 4 };
	static const char *const names[] = {
		"CFG_APPLY records", "AUTOLOAD image", "TDI_WRITE_SRAM data", "TDI_READ_SRAM data",
		"EXCH_WRITE data", "BUF_ATTACH pages", "the ioctl struct (REG_READ)",
	};
	uint32_t dev0 = ixt_dev_id(), dev1 = (uint32_t)ixt_dev_id2();
	int sim0 = ixt_sim_devices(), bad = 0;
	uint8_t *page = map_anon(PAGE, PROT_READ | PROT_WRITE);

	if (!self->ready)
		return;
	ASSERT_NE(NULL, page);
	ASSERT_LE(2, sim0);
	for (unsigned int c = 0; c < sizeof(names) / sizeof(names[0]); c++) {
		union {
			struct ipuxcom_ioc_cfg_apply ca;
			struct ipuxcom_ioc_autoload al;
			struct ipuxcom_ioc_tdi_sram ts;
			struct ipuxcom_ioc_exch_write ew;
			struct ipuxcom_ioc_buf b;
			struct ipuxcom_ioc_reg rg;
		} u;
		struct stalled_call sc = { .arg = &u };
		struct ipuxcom_ioc_autoload al = {
			.size = sizeof(al), .image = (uintptr_t)boot, .image_size = sizeof(boot),
		};
		struct stall st;
		pthread_t th;
		uint64_t t0, removal_ns;
		long id;
		int ret;

		memset(&u, 0, sizeof(u));
		memset(page, 0, PAGE);
		id = sim_add_device(dev0, dev1);
		ASSERT_LE(0, id) TH_LOG("no simulated device added");
		sc.fd = ixt_open();
		ASSERT_LE(0, sc.fd);
		ASSERT_EQ(0, ixt_attach(sc.fd, (uint32_t)id));
		ASSERT_EQ(0, ixt_reset(sc.fd));
		if (c >= 2 && c <= 4)	/* the tiles run the bootloader: TDI works */
			ASSERT_EQ(0, ixt_ioctl(sc.fd, IPUXCOM_IOC_AUTOLOAD, &al));
		if (c == 0)	/* one valid record */
			((struct ipuxcom_cfg_record *)page)[0].offset = 0x100;
		if (c == 6)
			((struct ipuxcom_ioc_reg *)page)->size = sizeof(struct ipuxcom_ioc_reg);
		ret = stall_start(&st, page);
		if (ret) {
			close(sc.fd);
			ixt_set_sim_devices(sim0);
			SKIP(return, "userfaultfd: %s", strerror(-ret));
		}
		switch (c) {
		case 0:
			u.ca = (struct ipuxcom_ioc_cfg_apply){ .size = sizeof(u.ca),
				.records = (uintptr_t)st.area, .count = 1 };
			sc.cmd = IPUXCOM_IOC_CFG_APPLY;
			break;
		case 1:
			u.al = (struct ipuxcom_ioc_autoload){ .size = sizeof(u.al),
				.image = (uintptr_t)st.area, .image_size = 1024 };
			sc.cmd = IPUXCOM_IOC_AUTOLOAD;
			break;
		case 2:
		case 3:
			u.ts = (struct ipuxcom_ioc_tdi_sram){ .size = sizeof(u.ts), .tile = 5,
				.addr = 0x60000, .count = 16, .data = (uintptr_t)st.area };
			sc.cmd = c == 2 ? IPUXCOM_IOC_TDI_WRITE_SRAM : IPUXCOM_IOC_TDI_READ_SRAM;
			break;
		case 4:
			u.ew = (struct ipuxcom_ioc_exch_write){ .size = sizeof(u.ew), .tile = 5,
				.addr = 0x60000, .bytes = 64, .data = (uintptr_t)st.area };
			sc.cmd = IPUXCOM_IOC_EXCH_WRITE;
			break;
		case 5:
			u.b = (struct ipuxcom_ioc_buf){ .size = sizeof(u.b), .index = 0,
				.addr = (uintptr_t)st.area, .bytes = PAGE };
			sc.cmd = IPUXCOM_IOC_BUF_ATTACH;
			break;
		default:
			sc.arg = st.area;
			sc.cmd = IPUXCOM_IOC_REG_READ;
			break;
		}
		ASSERT_EQ(0, pthread_create(&th, NULL, stalled_call_main, &sc));
		for (int i = 0; i < 200 && !atomic_load(&st.faulted); i++)
			usleep(10 * 1000);
		t0 = now_ns();
		if (atomic_load(&st.faulted))
			EXPECT_EQ(0, ixt_set_sim_devices(2));	/* removes device @id */
		removal_ns = now_ns() - t0;
		stall_stop(&st);
		pthread_join(th, NULL);
		close(sc.fd);
		ixt_set_sim_devices(2);
		printf("# %s: %s; device removal took %.3f s; the call returned %d\n", names[c],
		       st.faulted ? "stalled in a user-memory fault" : "never touched the page",
		       (double)removal_ns / 1e9, sc.ret);
		if (sc.ret && sc.ret != -ENODEV && sc.ret != -EFAULT && !ipuxcom_errno_ok(
			_IOC_NR(sc.cmd), -sc.ret)) {
			TH_LOG("%s: undocumented %d", names[c], sc.ret);
			bad++;
		}
		if (removal_ns > (STALL_S * 1000000000ull) / 2) {
			TH_LOG("%s: device removal waited %.1f s for the caller's stalled user memory:"
			       " copied under the device's locks", names[c], (double)removal_ns / 1e9);
			bad++;
		}
	}
	munmap(page, PAGE);
	EXPECT_EQ(0, ixt_set_sim_devices(sim0));
	EXPECT_EQ(0, bad);
}

#endif /* IXT_COMPAT32 */

/* ------------------------------------------------------------ pointer hygiene */

struct maps_range {
	uintptr_t lo, hi;
};

/* The process's writable mappings (/proc/self/maps), at most @max. */
static unsigned int writable_maps(struct maps_range *m, unsigned int max)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512], perms[8];
	unsigned long lo, hi;
	unsigned int n = 0;

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && perms[1] == 'w')
			m[n++] = (struct maps_range){ lo, hi };
	fclose(f);
	return n;
}

/* Is @p inside memory @z made for the kernel to use? */
static bool fz_owns(const struct fz *z, uint64_t p)
{
	const struct {
		const void *at;
		size_t bytes;
	} own[] = {
		{ z->scratch, PAGE }, { z->data, DATA_BYTES }, { z->ro, PAGE },
		{ z->pool[0], z->pool_bytes[0] }, { z->pool[1], z->pool_bytes[1] },
		{ z->pool[2], z->pool_bytes[2] }, { z->pool[3], z->pool_bytes[3] },
		{ z->xbuf, XBUF_BYTES },
	};

	for (unsigned int i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (own[i].at && p - (uint64_t)(uintptr_t)own[i].at < own[i].bytes)
			return true;
	return false;
}

static void *park_thread(void *arg)
{
	/* a thread's own malloc arena, as the concurrent run's workers have */
	void *p = malloc(4096);

	memset(p, 0x5a, 4096);
	while (!atomic_load((atomic_bool *)arg))
		usleep(1000);
	free(p);
	return NULL;
}

/*
 * Every pointer the random mix hands the kernel (the request itself and
 * its user-pointer member: TDI_READ_SRAM's words, BUF_ATTACH's pinned
 * pages, which the 0xff fill and host exchange write) is the fuzzer's own
 * memory or memory nobody can write: never another thread's malloc arena
 * or stack, libc's data or the batches, which the kernel would rightly
 * write (the concurrent run's heap corruption, issue 22). Needs no device.
 */
TEST(pointers_stay_owned)
{
	uint64_t n = env_u64("IPUXCOM_FUZZ_HYGIENE_REQUESTS", 300000), stray = 0;
	struct fz *z = calloc(1, sizeof(*z));
	struct fz_req *q = calloc(1, sizeof(*q));
	struct maps_range *m = calloc(4096, sizeof(*m));
	atomic_bool stop = false;
	unsigned int nmaps;
	pthread_t t;

	ASSERT_NE(NULL, z);
	ASSERT_NE(NULL, q);
	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, fz_init(z, fuzz_seed, false));
	/* the memory a run has besides the fuzzer's own */
	z->batches = batches_get();
	ASSERT_NE(NULL, z->batches);
	z->xbuf = fz_xbuf_map(z);
	ASSERT_NE(NULL, z->xbuf);
	ASSERT_EQ(0, pthread_create(&t, NULL, park_thread, &stop));
	usleep(10 * 1000);
	nmaps = writable_maps(m, 4096);
	ASSERT_LT(0u, nmaps);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t ptrs[2] = { 0, 0 };

		fz_make_request(z, q);
		ptrs[0] = (uintptr_t)q->arg;
		if (q->cmd == _IO(IPUXCOM_IOC_MAGIC, q->nr) && cmds[q->nr].ptr_off >= 0)
			memcpy(&ptrs[1], q->a + cmds[q->nr].ptr_off, 8);
		for (unsigned int k = 0; k < 2; k++) {
			uint64_t p = ptrs[k];

			if (fz_owns(z, p))
				continue;
			for (unsigned int j = 0; j < nmaps; j++) {
				if (p < m[j].lo || p >= m[j].hi)
					continue;
				if (stray++ < 5)
					TH_LOG("request %llu: %s %s 0x%lx is in someone else's writable"
					       " mapping 0x%lx-0x%lx",
					       (unsigned long long)i, cmds[q->nr].name,
					       k ? "pointer member" : "argument", (unsigned long)p,
					       (unsigned long)m[j].lo, (unsigned long)m[j].hi);
				break;
			}
		}
	}
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	printf("# %llu requests (seed %llu): %llu pointers into memory that is not the fuzzer's\n",
	       (unsigned long long)n, (unsigned long long)fuzz_seed, (unsigned long long)stray);
	fflush(stdout);
	EXPECT_EQ(0, stray);
	fz_mem_free(z);
	free(m);
	free(q);
	free(z);
}

TEST_HARNESS_MAIN
