/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the host tests of tile images, frames, IPUCFG1 and
 * host-sync manifests (selftests/host/image_*_test.c and friends).
 * Include after kselftest_harness.h.
 */
#ifndef IPUXCOM_IMAGE_TESTLIB_H
#define IPUXCOM_IMAGE_TESTLIB_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ipuxcom.h>

/* EXPECT that the library's message contains @sub. */
#define EXPECT_MSG(_em, _sub)							\
	EXPECT_NE(NULL, strstr((_em).msg, (_sub)))				\
		TH_LOG("message '%s' lacks '%s'", (_em).msg, (_sub))

static inline uint32_t ixt_le32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static inline void ixt_put_le32(void *p, uint32_t v)
{
	uint8_t *b = p;

	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

/* xorshift64*: deterministic test data. */
static inline uint64_t ixt_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static inline void ixt_fill_random(uint8_t *p, size_t n, uint64_t seed)
{
	uint64_t s = seed | 1;

	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(ixt_rand(&s) >> 56);
}

/*
 * A tile image in the style of the notes' matmul: shared random "code",
 * the entry words nop; sync3, and per-tile words (the tile id and a few
 * derived constants) at fixed places, so every tile is distinct.
 */
static inline void ixt_synth_tile(uint8_t *p, size_t n, const uint8_t *shared, uint32_t tile)
{
	memcpy(p, shared, n);
	if (n >= 16) {
		ixt_put_le32(p, 0x12345678);	/* "nop" (encoding not in the notes) */
		ixt_put_le32(p + 4, IPUXCOM_INSN_SYNC_SUPERVISOR);
	}
	for (size_t k = 0; k < 4; k++) {
		size_t off = (n / 5) * (k + 1) & ~(size_t)3;

		if (off + 4 <= n)
			ixt_put_le32(p + off, tile * 0x9e3779b1u + (uint32_t)k);
	}
}

/* ------------------------------------------------------------ files */

static inline int ixt_write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	const uint8_t *p = data;

	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0) {
			close(fd);
			return -EIO;
		}
		p += n;
		len -= (size_t)n;
	}
	return close(fd) ? -errno : 0;
}

/* malloc'ed contents of @path (NUL appended), or NULL. */
static inline uint8_t *ixt_read_file(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *buf;
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) || !(buf = malloc((size_t)st.st_size + 1))) {
		fclose(f);
		return NULL;
	}
	*len = fread(buf, 1, (size_t)st.st_size, f);
	buf[*len] = 0;
	fclose(f);
	return buf;
}

static inline int ixt_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static inline void ixt_rmtree(const char *path)
{
	if (path && path[0])
		nftw(path, ixt_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* A fresh directory under $TMPDIR (or /tmp); @buf gets its path. */
static inline bool ixt_tmpdir(char *buf, size_t len)
{
	const char *t = getenv("TMPDIR");

	snprintf(buf, len, "%s/ipuxcom-test-XXXXXX", t && *t ? t : "/tmp");
	return mkdtemp(buf) != NULL;
}

/* Write @images as DIR/N.bin, N = 0 .. n-1. */
static inline int ixt_write_raw_dir(const char *dir, uint8_t *const *images, uint32_t n,
				    size_t size)
{
	char path[PATH_MAX];

	for (uint32_t t = 0; t < n; t++) {
		int err;

		snprintf(path, sizeof(path), "%s/%u.bin", dir, t);
		err = ixt_write_file(path, images[t], size);
		if (err)
			return err;
	}
	return 0;
}

/* ---------------------------------------------------------- processes */

struct ixt_run {
	int status;		/* exit code, or -1 if it did not exit */
	char out[16384];
	char err[16384];
};

static inline void ixt_slurp(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/*
 * Run @argv[0] (a path, or found on PATH) with standard input from file
 * @in, capturing its output.
 */
static inline int ixt_run_stdin(char *const *argv, const char *in, struct ixt_run *r)
{
	FILE *out = tmpfile(), *err = tmpfile();
	int status;
	pid_t pid;

	if (!out || !err)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(in, O_RDONLY);

		if (fd < 0)
			_exit(126);
		dup2(fd, STDIN_FILENO);
		dup2(fileno(out), STDOUT_FILENO);
		dup2(fileno(err), STDERR_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	ixt_slurp(out, r->out, sizeof(r->out));
	ixt_slurp(err, r->err, sizeof(r->err));
	return 0;
}

/* Run @argv[0] (a path, or found on PATH) capturing its output; stdin is empty. */
static inline int ixt_run(char *const *argv, struct ixt_run *r)
{
	return ixt_run_stdin(argv, "/dev/null", r);
}

/* The ipuxcom command: $IPUXCOM_TOOL, else "ipuxcom" on PATH. */
/* Program @name: $@env if set, else the first on PATH; into @path. */
static inline bool ixt_find_on_path(const char *name, const char *env_name, char *path,
				    size_t len)
{
	const char *env = getenv(env_name), *p = getenv("PATH");
	char dirs[1024], *save = NULL;

	if (env && *env) {
		snprintf(path, len, "%s", env);
		return access(path, X_OK) == 0;
	}
	snprintf(dirs, sizeof(dirs), "%s", p ? p : "/bin:/usr/bin");
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(path, len, "%s/%s", d, name);
		if (access(path, X_OK) == 0)
			return true;
	}
	return false;
}

static inline bool ixt_find_tool_on_path(char *path, size_t len)
{
	return ixt_find_on_path("ipuxcom", "IPUXCOM_TOOL", path, len);
}

/* Run @tool with the NULL-terminated arguments after it (at most 22), capturing its output. */
static inline int ixt_run_tool(struct ixt_run *r, const char *tool, ...)
{
	char *argv[24];
	int n = 0;
	va_list ap;

	argv[n++] = (char *)tool;
	va_start(ap, tool);
	while (n < 23 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return ixt_run(argv, r);
}

/*
 * The ipuxcom command: $IPUXCOM_TOOL, else build/ipuxcom next to this
 * binary's build/tests/host{,-san}/ directory, else ./build/ipuxcom.
 */
static inline bool ixt_find_tool(char *path, size_t len)
{
	const char *env = getenv("IPUXCOM_TOOL");
	char self[PATH_MAX];
	ssize_t n;

	if (env && *env) {
		snprintf(path, len, "%s", env);
		return access(path, X_OK) == 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		char *slash;

		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, len, "%.4000s/../../ipuxcom", self);
			if (access(path, X_OK) == 0)
				return true;
		}
	}
	snprintf(path, len, "build/ipuxcom");
	return access(path, X_OK) == 0;
}

/* ------------------------------------------------- dropped privileges */

/* The unprivileged user tests drop to (nobody). */
#define IXT_NOBODY	65534

/*
 * Whether user IXT_NOBODY may access @path with @mode (access(2)'s
 * X_OK, R_OK...): every directory on the way searchable too. Asked of
 * the kernel by a child that drops to that user; needs root.
 */
static inline bool ixt_nobody_can(const char *path, int mode)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		if (setgid(IXT_NOBODY) || setuid(IXT_NOBODY))
			_exit(2);
		_exit(access(path, mode) ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/*
 * The command as IXT_NOBODY can run it: @tool itself when that user can
 * reach it, else a copy in a fresh mode-0755 directory under /tmp (a
 * clone in root's 0700 home puts build/ipuxcom out of its reach; the
 * command is linked statically with libipuxcom, so the copy runs alone).
 * @dir gets the directory made ("" when none: ixt_rmtree() it). Returns
 * 0, or -errno with @msg saying what failed.
 */
static inline int ixt_tool_for_nobody(const char *tool, char *out, size_t len, char *dir,
				      size_t dlen, char *msg, size_t msglen)
{
	char buf[65536];
	int in, fd, err = 0;
	ssize_t n = 0;

	dir[0] = '\0';
	if (ixt_nobody_can(tool, X_OK)) {
		snprintf(out, len, "%s", tool);
		return 0;
	}
	snprintf(dir, dlen, "/tmp/ipuxcom-nobody-XXXXXX");
	if (!mkdtemp(dir) || chmod(dir, 0755)) {
		err = -errno;
		snprintf(msg, msglen, "%s: %s", dir, strerror(errno));
		return err;
	}
	snprintf(out, len, "%s/ipuxcom", dir);
	errno = 0;
	in = open(tool, O_RDONLY | O_CLOEXEC);
	fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	while (in >= 0 && fd >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n)
			break;
	if (in < 0 || fd < 0 || n != 0 || fchmod(fd, 0755))
		err = -(errno ? errno : EIO);
	if (in >= 0)
		close(in);
	if (fd >= 0 && close(fd) && !err)
		err = -errno;
	if (!err && !ixt_nobody_can(out, X_OK))
		err = -EACCES;
	if (err)
		snprintf(msg, msglen, "copying %s to %s: %s", tool, out, strerror(-err));
	return err;
}

/* Run the tool with the NULL-terminated arguments after it. */
#define IXT_TOOL(_r, ...) ({							\
	char *const _argv[] = { tool, __VA_ARGS__, NULL };			\
	ixt_run(_argv, (_r));							\
})

/* Run the tool; expect exit status @_status and @_needle in @_stream. */
#define TOOL_EXPECT(_status, _stream, _needle, ...) do {			\
	struct ixt_run *_r = malloc(sizeof(*_r));				\
										\
	ASSERT_NE(NULL, _r);							\
	ASSERT_EQ(0, IXT_TOOL(_r, __VA_ARGS__));				\
	EXPECT_EQ(_status, _r->status) TH_LOG("stdout: %s\nstderr: %s",	\
					      _r->out, _r->err);		\
	EXPECT_NE(NULL, strstr(_r->_stream, _needle))				\
		TH_LOG("no '%s' in %s: '%s'", _needle, #_stream, _r->_stream);	\
	free(_r);								\
} while (0)

#endif /* IPUXCOM_IMAGE_TESTLIB_H */
