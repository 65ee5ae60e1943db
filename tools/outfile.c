// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output files that never destroy what their name points at (outfile.h).
 *
 * A temporary file renamed into place is right for a regular file (no
 * partial file after a failure) and wrong for everything else: renamed
 * over /dev/full it would replace the device node by a regular file, over
 * a FIFO the pipe, over a symlink the link. So the target is classified
 * first, and only regular files (and new names) get the rename.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "path.h"

enum outfile_kind {
	OF_STDOUT,	/* "-", /dev/stdout */
	OF_FD,		/* /dev/fd/N, /dev/stderr: our own descriptor N */
	OF_IN_PLACE,	/* device, FIFO; a regular file in an unwritable directory */
	OF_REPLACE,	/* an existing regular file: temporary + rename */
	OF_CREATE,	/* a new name: temporary + rename */
};

struct outfile_target {
	enum outfile_kind kind;
	char path[PATH_MAX];	/* OF_REPLACE, OF_CREATE: the file itself, links followed */
	int fd;			/* OF_FD */
	bool truncate;		/* OF_IN_PLACE on a regular file */
	struct stat st;		/* OF_REPLACE: the file being replaced */
};

struct outfile {
	const struct cli_call *call;
	const char *name;	/* as the user wrote it: every message names this */
	struct outfile_target t;
	char tmp[PATH_MAX + 16];
	int slot;		/* in of_temps[], or -1 */
	FILE *f;
	bool failed;
};

/*
 * The process's standard output once a command claimed it for its main
 * output (outfile_claim_stdout()); file descriptor 1 then goes to stderr.
 */
static FILE *of_main;

/*
 * The temporary files open now, removed by a signal that ends the command
 * before outfile_close() (Ctrl-C, a file size limit): a command killed
 * half-way must not leave one behind either. A few slots: commands write
 * their outputs one or two at a time.
 */
#define OF_SLOTS 4
static char of_temps[OF_SLOTS][PATH_MAX + 16];
static volatile sig_atomic_t of_live[OF_SLOTS];
static const int of_signals[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGXFSZ };

static void of_on_signal(int sig)
{
	for (int i = 0; i < OF_SLOTS; i++)
		if (of_live[i])
			unlink(of_temps[i]);
	/* SA_RESETHAND restored the default: delivered again on return, it ends us as before. */
	raise(sig);
}

/* Track @path; returns its slot or -1. The handlers only replace default dispositions. */
static int of_track(const char *path)
{
	static bool installed;

	if (!installed) {
		struct sigaction sa = { .sa_handler = of_on_signal, .sa_flags = SA_RESETHAND };

		installed = true;
		sigemptyset(&sa.sa_mask);
		for (size_t i = 0; i < sizeof(of_signals) / sizeof(of_signals[0]); i++) {
			struct sigaction old;

			if (!sigaction(of_signals[i], NULL, &old) && old.sa_handler == SIG_DFL)
				sigaction(of_signals[i], &sa, NULL);
		}
	}
	for (int i = 0; i < OF_SLOTS; i++) {
		if (of_live[i])
			continue;
		snprintf(of_temps[i], sizeof(of_temps[i]), "%s", path);
		of_live[i] = 1;
		return i;
	}
	return -1;
}

static void of_untrack(int slot)
{
	if (slot >= 0)
		of_live[slot] = 0;
}

/*
 * Follow the symlinks of @name's last component into @cur. Stops at a
 * link inside /proc (what /dev/stdout, /dev/fd/N lead to): those name an
 * open file, not a path, and *@proc_fd is set to the descriptor number
 * when it is one of ours, else -2.
 */
static int follow_links(const char *name, char *cur, size_t len, int *proc_fd)
{
	char target[PATH_MAX], dir[PATH_MAX], real[PATH_MAX], self[32];
	struct stat st;

	*proc_fd = -1;
	if ((size_t)snprintf(cur, len, "%s", name) >= len)
		return -ENAMETOOLONG;
	for (int hops = 0; hops < 40; hops++) {
		ssize_t n;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return 0;
		path_dir_of(cur, dir, sizeof(dir));
		if (realpath(dir, real) && !strncmp(real, "/proc/", 6)) {
			const char *base = strrchr(cur, '/') + 1;
			char *end;
			long fd;

			snprintf(self, sizeof(self), "/proc/%ld/fd", (long)getpid());
			errno = 0;
			fd = strtol(base, &end, 10);
			*proc_fd = !strcmp(real, self) && *base && !*end && !errno &&
				   fd >= 0 && fd <= INT_MAX ? (int)fd : -2;
			return 0;
		}
		n = readlink(cur, target, sizeof(target) - 1);
		if (n < 0)
			return -errno;
		target[n] = '\0';
		if (target[0] == '/')
			n = snprintf(cur, len, "%s", target);
		else
			n = snprintf(cur, len, "%s/%s", dir, target);
		if ((size_t)n >= len)
			return -ENAMETOOLONG;
	}
	return -ELOOP;
}

/* Why @p's file cannot be written: the message, and a fix when there is one. */
__attribute__((format(printf, 3, 4)))
static int refuse(struct outfile_probe *p, const char *fix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->what, sizeof(p->what), fmt, ap);
	va_end(ap);
	p->ok = false;
	p->fix = fix;
	return CLI_EXIT_ERR;
}

/*
 * The caller may write the existing @st at @path. A file with no write
 * bit at all is refused to everyone: root passes access(W_OK) for any
 * file, and a 0444 file still says "keep me".
 */
static int check_writable(const char *name, const char *path, const struct stat *st,
			  struct outfile_probe *p)
{
	if (!(st->st_mode & 0222))
		return refuse(p, "chmod u+w it, or choose another file",
			      "%s: read-only file (mode %04o): not overwritten (chmod u+w it first)",
			      name, (unsigned int)(st->st_mode & 07777));
	if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS))
		return refuse(p, "choose a file you can write", "%s: cannot write: %s", name,
			      strerror(errno));
	return 0;
}

/* A new file @path can be made in its directory. */
static int check_dir(const char *name, const char *path, struct outfile_probe *p)
{
	char dir[PATH_MAX];
	struct stat st;

	path_dir_of(path, dir, sizeof(dir));
	if (stat(dir, &st))
		return refuse(p, NULL, "%s: cannot create it: directory %s: %s", name, dir,
			      strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return refuse(p, NULL, "%s: cannot create it: %s is not a directory", name, dir);
	if (access(dir, W_OK | X_OK))
		return refuse(p, NULL, "%s: cannot create it: directory %s: %s", name, dir,
			      strerror(errno));
	return 0;
}

/* Classify @name and check that it may be written; @p says how, or why not. */
static int outfile_resolve(const char *name, struct outfile_target *t, struct outfile_probe *p)
{
	char dir[PATH_MAX];
	struct stat st;
	int err, proc_fd;

	memset(t, 0, sizeof(*t));
	memset(p, 0, sizeof(*p));
	t->fd = -1;
	p->ok = true;
	if (!*name)
		return refuse(p, NULL, "empty output file name");
	if (!strcmp(name, "-") || !strcmp(name, "/dev/stdout")) {
		t->kind = OF_STDOUT;
		snprintf(p->what, sizeof(p->what), "%s: standard output", name);
		return 0;
	}
	err = follow_links(name, t->path, sizeof(t->path), &proc_fd);
	if (err)
		return refuse(p, NULL, "%s: %s", name, strerror(-err));
	if (stat(t->path, &st)) {
		if (errno != ENOENT)
			return refuse(p, NULL, "%s: %s", name, strerror(errno));
		/* A new name, or a dangling link whose target is created (as by `>`). */
		t->kind = OF_CREATE;
		snprintf(p->what, sizeof(p->what), "%s: created after the call", name);
		return check_dir(name, t->path, p);
	}
	if (S_ISDIR(st.st_mode))
		return refuse(p, NULL, "%s: is a directory", name);
	if (S_ISSOCK(st.st_mode))
		return refuse(p, NULL, "%s: is a socket: cannot write to it", name);
	snprintf(p->what, sizeof(p->what), "%s: writable (written in place)", name);
	if (proc_fd >= 0) {
		/* Write where descriptor N writes, at its offset: as the shell's >&N. */
		t->kind = OF_FD;
		t->fd = proc_fd;
		return 0;
	}
	if (proc_fd == -2 || !S_ISREG(st.st_mode)) {
		t->kind = OF_IN_PLACE;
		snprintf(t->path, sizeof(t->path), "%s", name);
		return check_writable(name, name, &st, p);
	}
	t->kind = OF_REPLACE;
	t->st = st;
	err = check_writable(name, t->path, &st, p);
	if (err)
		return err;
	/* A writable file in a directory we cannot add to: as `>` would. */
	path_dir_of(t->path, dir, sizeof(dir));
	if (access(dir, W_OK | X_OK)) {
		t->kind = OF_IN_PLACE;
		t->truncate = true;
	} else {
		snprintf(p->what, sizeof(p->what), "%s: writable (replaced after the call)", name);
	}
	return 0;
}

int outfile_probe(const char *path, struct outfile_probe *p)
{
	struct outfile_target t;

	return outfile_resolve(path, &t, p);
}

bool outfile_is_stdout(const char *path)
{
	struct outfile_target t;
	struct outfile_probe p;

	if (!path || outfile_resolve(path, &t, &p))
		return false;
	return t.kind == OF_STDOUT || (t.kind == OF_FD && t.fd == STDOUT_FILENO);
}

int outfile_claim_stdout(const struct cli_call *call, const char *path)
{
	int fd;

	if (of_main || !outfile_is_stdout(path))
		return 0;
	fflush(stdout);
	fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd >= 0)
		of_main = fdopen(fd, "wb");
	if (!of_main || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		cli_err(call->what, "%s: standard output: %s", path, strerror(errno));
		if (of_main)
			fclose(of_main);
		else if (fd >= 0)
			close(fd);
		of_main = NULL;
		return CLI_EXIT_ERR;
	}
	return 0;
}

int outfile_check(const struct cli_call *call, const char *path)
{
	struct outfile_probe p;

	if (outfile_probe(path, &p)) {
		cli_err(call->what, "%s", p.what);
		return CLI_EXIT_ERR;
	}
	return 0;
}

static int open_temp(struct outfile *o)
{
	const struct outfile_target *t = &o->t;
	int fd;

	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.XXXXXX", t->path) >= sizeof(o->tmp)) {
		cli_err(o->call->what, "%s: path too long", o->name);
		return -1;
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		cli_err(o->call->what, "cannot create %s: %s", o->name, strerror(errno));
		return -1;
	}
	o->slot = of_track(o->tmp);
	if (t->kind == OF_REPLACE) {
		/* Best effort, as cp -p: only root may give a file away. Then the
		 * mode, since a chown clears set-id bits. */
		if (t->st.st_uid != geteuid() || t->st.st_gid != getegid())
			(void)!fchown(fd, t->st.st_uid, t->st.st_gid);
		(void)!fchmod(fd, t->st.st_mode & 07777);
	} else {
		/* mkstemp makes 0600 files; a new output file gets the usual mode. */
		mode_t mask = umask(0);

		umask(mask);
		(void)!fchmod(fd, 0666 & ~mask);
	}
	return fd;
}

int outfile_open(const struct cli_call *call, const char *path, struct outfile **out)
{
	struct outfile *o = calloc(1, sizeof(*o));
	struct outfile_probe p;
	int fd = -1;

	*out = NULL;
	if (!o) {
		cli_err(call->what, "out of memory");
		return CLI_EXIT_ERR;
	}
	o->call = call;
	o->name = path;
	o->slot = -1;
	if (outfile_resolve(path, &o->t, &p)) {
		cli_err(call->what, "%s", p.what);
		goto fail;
	}
	switch (o->t.kind) {
	case OF_STDOUT:
		o->f = of_main ? of_main : stdout;
		*out = o;
		return 0;
	case OF_FD:
		if (of_main && o->t.fd == STDOUT_FILENO) {
			o->f = of_main;		/* the claimed standard output */
			*out = o;
			return 0;
		}
		fd = fcntl(o->t.fd, F_DUPFD_CLOEXEC, 3);
		break;
	case OF_IN_PLACE:
		/* Never O_CREAT: the node exists; O_TRUNC only for a regular file. */
		fd = open(o->t.path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (o->t.truncate ? O_TRUNC : 0));
		break;
	case OF_REPLACE:
	case OF_CREATE:
		fd = open_temp(o);
		if (fd < 0)
			goto fail;
		break;
	}
	if (fd < 0) {
		cli_err(call->what, "%s: cannot open: %s", path, strerror(errno));
		goto fail;
	}
	o->f = fdopen(fd, "wb");
	if (!o->f) {
		cli_err(call->what, "%s: %s", path, strerror(errno));
		close(fd);
		if (o->tmp[0])
			unlink(o->tmp);
		of_untrack(o->slot);
		goto fail;
	}
	*out = o;
	return 0;
fail:
	free(o);
	return CLI_EXIT_ERR;
}

FILE *outfile_stream(const struct outfile *o)
{
	return o->f;
}

int outfile_write(struct outfile *o, const void *data, size_t len)
{
	if (o->failed)
		return CLI_EXIT_ERR;
	if (len && fwrite(data, 1, len, o->f) != len) {
		cli_err(o->call->what, "%s: write error: %s", o->name, strerror(errno));
		o->failed = true;
		return CLI_EXIT_ERR;
	}
	return 0;
}

int outfile_close(struct outfile *o, bool ok)
{
	bool temp;

	if (!o)
		return CLI_EXIT_ERR;
	temp = o->t.kind == OF_REPLACE || o->t.kind == OF_CREATE;
	if (o->failed)
		ok = false;
	/* A FILE * writer may have failed without our knowing: ferror says. */
	if (ok && ferror(o->f)) {
		cli_err(o->call->what, "%s: write error: %s", o->name, cli_write_strerror(errno));
		ok = false;
	}
	if (fflush(o->f) && ok) {
		cli_err(o->call->what, "%s: write error: %s", o->name, strerror(errno));
		ok = false;
	}
	/* No fsync: like cp(1); the rename only makes a partial file impossible. */
	if (o->f != stdout && o->f != of_main && fclose(o->f) && ok) {
		cli_err(o->call->what, "%s: write error: %s", o->name, strerror(errno));
		ok = false;
	}
	if (temp && ok && rename(o->tmp, o->t.path)) {
		cli_err(o->call->what, "cannot replace %s: %s", o->name, strerror(errno));
		ok = false;
	}
	if (temp && !ok)
		unlink(o->tmp);
	of_untrack(o->slot);
	free(o);
	return ok ? 0 : CLI_EXIT_ERR;
}

int outfile_write_all(const struct cli_call *call, const char *path, const void *data,
		      size_t len)
{
	struct outfile *o;
	int rc = outfile_open(call, path, &o);

	if (rc)
		return rc;
	rc = outfile_write(o, data, len);
	return outfile_close(o, rc == 0);
}
