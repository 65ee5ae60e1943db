// SPDX-License-Identifier: GPL-2.0-only
/*
 * -o FILE never destroys what it points at (tools/outfile.c), through the
 * command as users run it: `ipuxcom hsp format M -o OUT` writes a known
 * text. A regular file is replaced atomically (new inode, mode kept, no
 * temporary left), a symlink is followed and kept, device nodes, FIFOs
 * and /dev/fd/N are written in place, a read-only file, a directory and a
 * missing directory are refused with the file named.
 */
#include "kselftest_harness.h"

#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>

#include "image_testlib.h"
#include "ixt_hsp_oracle.h"

static const char canonical[] =
	"# ipuxcom host-sync manifest (docs/ipuhsp-format.md)\n"
	IXT_HSP_ORACLE;

FIXTURE(out) {
	char tool[PATH_MAX];
	char dir[PATH_MAX];
	char in[PATH_MAX + 16];
	char path[PATH_MAX + 16];	/* the -o target of a test */
	struct ixt_run r;
};

FIXTURE_SETUP(out)
{
	static const char oracle[] = IXT_HSP_ORACLE;

	if (!ixt_find_tool(self->tool, sizeof(self->tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");
	ASSERT_TRUE(ixt_tmpdir(self->dir, sizeof(self->dir)));
	snprintf(self->in, sizeof(self->in), "%s/m.ipuhsp", self->dir);
	ASSERT_EQ(0, ixt_write_file(self->in, oracle, strlen(oracle)));
	snprintf(self->path, sizeof(self->path), "%s/out", self->dir);
	umask(022);
}

FIXTURE_TEARDOWN(out)
{
	ixt_rmtree(self->dir);
}

/* `ipuxcom hsp format IN -o PATH`; the exit status. */
static int format_to(struct __test_metadata *_metadata, FIXTURE_DATA(out) *self,
		     const char *path)
{
	EXPECT_EQ(0, ixt_run_tool(&self->r, self->tool, "hsp", "format", self->in, "-o", path,
				  NULL));
	return self->r.status;
}

/* Whether @path holds exactly @text. */
static bool holds(const char *path, const char *text)
{
	size_t len = 0;
	uint8_t *d = ixt_read_file(path, &len);
	bool same = d && len == strlen(text) && !memcmp(d, text, len);

	free(d);
	return same;
}

/* Names in @dir containing ".tmp.": left-over temporary files. */
static int temporaries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strstr(e->d_name, ".tmp.") != NULL;
	closedir(d);
	return n;
}

#define HAS(_stream, _needle)							\
	EXPECT_NE(NULL, strstr(self->r._stream, _needle))			\
		TH_LOG("no '%s' in %s: '%s'", _needle, #_stream, self->r._stream)

TEST_F(out, new_file_gets_umask_mode)
{
	struct stat st;

	ASSERT_EQ(0, format_to(_metadata, self, self->path)) TH_LOG("%s", self->r.err);
	EXPECT_TRUE(holds(self->path, canonical));
	ASSERT_EQ(0, stat(self->path, &st));
	EXPECT_EQ(0644, st.st_mode & 07777);
	EXPECT_EQ(0, temporaries(self->dir));
}

TEST_F(out, regular_file_replaced_atomically_mode_kept)
{
	struct stat before, after;

	ASSERT_EQ(0, ixt_write_file(self->path, "old", 3));
	ASSERT_EQ(0, chmod(self->path, 0640));
	ASSERT_EQ(0, stat(self->path, &before));
	ASSERT_EQ(0, format_to(_metadata, self, self->path)) TH_LOG("%s", self->r.err);
	EXPECT_TRUE(holds(self->path, canonical));
	ASSERT_EQ(0, stat(self->path, &after));
	EXPECT_EQ(0640, after.st_mode & 07777);
	/* Renamed into place, not rewritten: a reader of the old file keeps it whole. */
	EXPECT_NE(before.st_ino, after.st_ino);
	EXPECT_EQ(0, temporaries(self->dir));
}

TEST_F(out, symlink_followed_and_kept)
{
	char target[PATH_MAX + 32], sub[PATH_MAX + 16];
	struct stat st;

	/* The target in another directory: the temporary must go there, not next to the link. */
	snprintf(sub, sizeof(sub), "%s/sub", self->dir);
	ASSERT_EQ(0, mkdir(sub, 0755));
	snprintf(target, sizeof(target), "%s/target", sub);
	ASSERT_EQ(0, ixt_write_file(target, "old", 3));
	ASSERT_EQ(0, symlink("sub/target", self->path));
	ASSERT_EQ(0, format_to(_metadata, self, self->path)) TH_LOG("%s", self->r.err);
	ASSERT_EQ(0, lstat(self->path, &st));
	EXPECT_TRUE(S_ISLNK(st.st_mode));
	EXPECT_TRUE(holds(target, canonical));
	EXPECT_EQ(0, temporaries(self->dir));
	EXPECT_EQ(0, temporaries(sub));
}

TEST_F(out, dangling_symlink_creates_its_target)
{
	char target[PATH_MAX + 16];
	struct stat st;

	snprintf(target, sizeof(target), "%s/target", self->dir);
	ASSERT_EQ(0, symlink("target", self->path));
	ASSERT_EQ(0, format_to(_metadata, self, self->path)) TH_LOG("%s", self->r.err);
	ASSERT_EQ(0, lstat(self->path, &st));
	EXPECT_TRUE(S_ISLNK(st.st_mode));
	EXPECT_TRUE(holds(target, canonical));
}

TEST_F(out, read_only_file_refused_untouched)
{
	struct stat st;

	ASSERT_EQ(0, ixt_write_file(self->path, "old", 3));
	ASSERT_EQ(0, chmod(self->path, 0444));
	EXPECT_EQ(1, format_to(_metadata, self, self->path));
	HAS(err, self->path);
	HAS(err, geteuid() == 0 ? "read-only file (mode 0444)" : "Permission denied");
	EXPECT_TRUE(holds(self->path, "old"));
	ASSERT_EQ(0, stat(self->path, &st));
	EXPECT_EQ(0444, st.st_mode & 07777);
	EXPECT_EQ(0, temporaries(self->dir));
}

/* A node like /dev/null or /dev/full, made here so that a bug cannot replace the real one. */
static bool make_node(const char *path, unsigned int minor)
{
	return mknod(path, S_IFCHR | 0666, makedev(1, minor)) == 0;
}

TEST_F(out, device_node_written_in_place)
{
	struct stat st;

	if (!make_node(self->path, 3))
		SKIP(return, "cannot mknod a character device here: %s", strerror(errno));
	ASSERT_EQ(0, format_to(_metadata, self, self->path)) TH_LOG("%s", self->r.err);
	ASSERT_EQ(0, lstat(self->path, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(makedev(1, 3), st.st_rdev);
	EXPECT_EQ(0, temporaries(self->dir));
}

TEST_F(out, full_device_fails_and_stays)
{
	struct stat st;

	if (!make_node(self->path, 7))
		SKIP(return, "cannot mknod a character device here: %s", strerror(errno));
	EXPECT_EQ(1, format_to(_metadata, self, self->path));
	HAS(err, self->path);
	HAS(err, "No space left on device");
	ASSERT_EQ(0, lstat(self->path, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(makedev(1, 7), st.st_rdev);
	EXPECT_EQ(0, temporaries(self->dir));
}

TEST_F(out, fifo_with_a_reader)
{
	char got[1024];
	size_t n = 0;
	struct stat st;
	int fd;
	pid_t pid;

	ASSERT_EQ(0, mkfifo(self->path, 0644));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* The command, while this process reads the FIFO. */
		struct ixt_run r;

		ixt_run_tool(&r, self->tool, "hsp", "format", self->in, "-o", self->path, NULL);
		_exit(r.status);
	}
	fd = open(self->path, O_RDONLY);
	ASSERT_LE(0, fd);
	for (ssize_t k; (k = read(fd, got + n, sizeof(got) - 1 - n)) > 0;)
		n += (size_t)k;
	close(fd);
	got[n] = '\0';
	{
		int status;

		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	EXPECT_STREQ(canonical, got);
	ASSERT_EQ(0, lstat(self->path, &st));
	EXPECT_TRUE(S_ISFIFO(st.st_mode));
	EXPECT_EQ(0, temporaries(self->dir));
}

/* What `-o >(cat)` passes: /dev/fd/N of an inherited pipe. */
TEST_F(out, dev_fd_pipe)
{
	char path[32], got[1024];
	ssize_t n;
	int p[2];

	ASSERT_EQ(0, pipe(p));
	snprintf(path, sizeof(path), "/dev/fd/%d", p[1]);
	EXPECT_EQ(0, format_to(_metadata, self, path)) TH_LOG("%s", self->r.err);
	close(p[1]);
	n = read(p[0], got, sizeof(got) - 1);
	close(p[0]);
	ASSERT_LT(0, n);
	got[n] = '\0';
	EXPECT_STREQ(canonical, got);
}

TEST_F(out, dash_is_stdout)
{
	EXPECT_EQ(0, format_to(_metadata, self, "-"));
	EXPECT_STREQ(canonical, self->r.out);
}

TEST_F(out, directory_refused)
{
	EXPECT_EQ(1, format_to(_metadata, self, self->dir));
	HAS(err, "is a directory");
	EXPECT_EQ(0, temporaries(self->dir));
}

TEST_F(out, missing_directory_refused)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/nope/x", self->dir);
	EXPECT_EQ(1, format_to(_metadata, self, path));
	HAS(err, "cannot create");
	HAS(err, "/nope: No such file or directory");
}

/*
 * `hsp format IN -o PATH` under a 64-byte file size limit, so that the
 * write fails half-way; SIGXFSZ ignored (the write fails) or default (the
 * signal ends the command). Returns the wait status, or -1.
 */
static int format_limited(FIXTURE_DATA(out) *self, void (*on_xfsz)(int))
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct rlimit lim = { 64, 64 }, nocore = { 0, 0 };
		int null = open("/dev/null", O_WRONLY);

		signal(SIGXFSZ, on_xfsz);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		setrlimit(RLIMIT_CORE, &nocore);
		setrlimit(RLIMIT_FSIZE, &lim);
		execl(self->tool, self->tool, "hsp", "format", self->in, "-o", self->path,
		      (char *)NULL);
		_exit(127);
	}
	return waitpid(pid, &status, 0) == pid ? status : -1;
}

/* A write that fails half-way keeps the old file and leaves no temporary. */
TEST_F(out, failed_write_keeps_old_file)
{
	int status;

	ASSERT_EQ(0, ixt_write_file(self->path, "old", 3));
	status = format_limited(self, SIG_IGN);
	EXPECT_TRUE(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 1)
		TH_LOG("status 0x%x", status);
	EXPECT_TRUE(holds(self->path, "old"));
	EXPECT_EQ(0, temporaries(self->dir));
}

/* Killed half-way by a signal (the size limit's SIGXFSZ): still no temporary left. */
TEST_F(out, killed_by_signal_leaves_no_temporary)
{
	int status;

	ASSERT_EQ(0, ixt_write_file(self->path, "old", 3));
	status = format_limited(self, SIG_DFL);
	EXPECT_TRUE(status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ)
		TH_LOG("status 0x%x", status);
	EXPECT_TRUE(holds(self->path, "old"));
	EXPECT_EQ(0, temporaries(self->dir));
}

/* cfg capture refuses an unwritable -o before running its command. */
TEST_F(out, checked_before_work)
{
	char marker[PATH_MAX + 16];

	snprintf(marker, sizeof(marker), "%s/ran", self->dir);
	ASSERT_EQ(0, ixt_write_file(self->path, "old", 3));
	ASSERT_EQ(0, chmod(self->path, 0444));
	EXPECT_EQ(0, ixt_run_tool(&self->r, self->tool, "cfg", "capture", "-o", self->path, "--",
				  "touch", marker, NULL));
	EXPECT_EQ(1, self->r.status);
	HAS(err, self->path);
	EXPECT_NE(0, access(marker, F_OK));
	EXPECT_TRUE(holds(self->path, "old"));
}

/* plan timing --export writes through the same helper (the library writes on its stream). */
TEST_F(out, timing_export_through_outfile)
{
	char target[PATH_MAX + 32];
	struct stat st;

	ASSERT_EQ(0, ixt_write_file(self->path, "old", 3));
	ASSERT_EQ(0, chmod(self->path, 0444));
	EXPECT_EQ(0, ixt_run_tool(&self->r, self->tool, "plan", "timing", "--export", self->path,
				  NULL));
	EXPECT_EQ(1, self->r.status);
	HAS(err, self->path);
	EXPECT_TRUE(holds(self->path, "old"));
	/* through a symlink into another name: the link stays, the table lands in the target */
	snprintf(target, sizeof(target), "%s/table", self->dir);
	ASSERT_EQ(0, unlink(self->path));
	ASSERT_EQ(0, symlink("table", self->path));
	EXPECT_EQ(0, ixt_run_tool(&self->r, self->tool, "plan", "timing", "--export", self->path,
				  NULL));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	ASSERT_EQ(0, lstat(self->path, &st));
	EXPECT_TRUE(S_ISLNK(st.st_mode));
	ASSERT_EQ(0, stat(target, &st));
	EXPECT_LT(1000000, st.st_size);
	EXPECT_EQ(0, temporaries(self->dir));
}

TEST_HARNESS_MAIN
