// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom cfg capture: turn the config-BAR writes the module makes into an
 * IPUCFG1 file, from the ipuxcom_bar_write tracepoint (this replaces the
 * design notes' gdb capture script).
 *
 * The capture runs in a tracefs instance of its own (instances/NAME: its
 * own ring buffer, event enables, filters and clock), so it neither reads
 * nor disturbs whatever else is being traced; removing the instance at
 * the end restores everything. In it, only ipuxcom/ipuxcom_bar_write is
 * enabled, filtered on the device id, with the "global" trace clock so
 * that writes made from different CPUs keep their order, and without
 * "record-cmd" (see instance_start()). The records come from the
 * instance's "trace" file (ipuxcom_cfg_from_trace()); docs/tracing.md.
 *
 *   capture [--dev ID] -o FILE -- COMMAND...   instance ipuxcom-capture-PID
 *   capture start [--dev ID]                   instance ipuxcom-capture
 *   capture stop -o FILE                       reads and removes it
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ipuxcom.h>

#include "cfg_capture.h"
#include "image_cli.h"
#include "outfile.h"
#include "json.h"

#define EVENT_DIR		"events/ipuxcom/" IPUXCOM_TRACE_BAR_WRITE
#define INSTANCE_SPAN		"ipuxcom-capture"
/* Per-CPU ring buffer of the instance: ~170k writes (best effort). */
#define INSTANCE_BUFFER_KB	"4096"
/* The trace text of a full IPUCFG1 (65536 records) is ~7 MiB. */
#define TRACE_MAX_BYTES		(256u << 20)

static const char *const tracefs_roots[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

struct capture {
	const struct cli_call *call;
	char root[64];			/* tracefs mount */
	char inst[PATH_MAX];		/* the instance directory */
	uint32_t dev_id;
};

/* Write @s to the file @dir/@name; 0 or -errno. */
static int put(const char *dir, const char *name, const char *s)
{
	char path[PATH_MAX];
	size_t len = strlen(s);
	ssize_t n;
	int fd, err = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* The whole file @dir/@name, NUL-terminated, malloc'ed; 0 or -errno. */
static int slurp(const char *dir, const char *name, char **out, size_t *out_len)
{
	char path[PATH_MAX];
	size_t len = 0, cap = 1 << 16;
	char *buf;
	int fd;

	*out = NULL;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	for (;;) {
		ssize_t n;

		if (!buf) {
			close(fd);
			return -ENOMEM;
		}
		if (cap - len < 2) {
			char *nbuf = NULL;

			if (cap < TRACE_MAX_BYTES)
				nbuf = realloc(buf, cap * 2);
			if (!nbuf) {
				free(buf);
				close(fd);
				return cap < TRACE_MAX_BYTES ? -ENOMEM : -EFBIG;
			}
			buf = nbuf;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			free(buf);
			close(fd);
			return err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	*out_len = len;
	return 0;
}

/*
 * Find tracefs and the tracepoint; report what is missing. Returns 0 or
 * CLI_EXIT_ERR.
 */
static int tracefs_find(struct capture *c)
{
	bool denied = false;
	char path[PATH_MAX];
	struct stat st;

	c->root[0] = '\0';
	for (size_t i = 0; i < sizeof(tracefs_roots) / sizeof(tracefs_roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/events", tracefs_roots[i]);
		if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
			snprintf(c->root, sizeof(c->root), "%s", tracefs_roots[i]);
			break;
		}
		if (errno == EACCES || errno == EPERM)
			denied = true;
	}
	if (!c->root[0]) {
		if (denied)
			cli_err(c->call->what, "cannot read tracefs: needs root "
				"(tracing is for privileged users)");
		else
			cli_err(c->call->what, "tracefs is not mounted: "
				"mount -t tracefs tracefs /sys/kernel/tracing");
		return CLI_EXIT_ERR;
	}
	snprintf(path, sizeof(path), "%s/" EVENT_DIR, c->root);
	if (stat(path, &st)) {
		if (errno == EACCES || errno == EPERM)
			cli_err(c->call->what, "cannot read %s: needs root", path);
		else
			cli_err(c->call->what, "no tracepoint ipuxcom/" IPUXCOM_TRACE_BAR_WRITE
				" in %s/events: the ipuxcom module is not loaded", c->root);
		return CLI_EXIT_ERR;
	}
	if (access(path, W_OK)) {
		cli_err(c->call->what, "cannot enable tracepoints in %s: needs root", c->root);
		return CLI_EXIT_ERR;
	}
	return 0;
}

/* Remove the instance (and with it its buffer, enables and filter). */
static void instance_remove(struct capture *c)
{
	put(c->inst, EVENT_DIR "/enable", "0");
	if (rmdir(c->inst) && errno != ENOENT)
		cli_err(c->call->what, "cannot remove the tracing instance %s: %s (rmdir it)",
			c->inst, strerror(errno));
}

/* Create and arm the instance @name. Returns 0 or CLI_EXIT_ERR. */
static int instance_start(struct capture *c, const char *name)
{
	char filter[32], *opt = NULL;
	bool record_cmd;
	size_t optlen;
	int err;

	snprintf(c->inst, sizeof(c->inst), "%s/instances/%s", c->root, name);
	/*
	 * An instance takes its "record-cmd" option from the top level when
	 * it is created, and cannot change it afterwards. With it, enabling
	 * and disabling the event also hooks and unhooks the scheduler's
	 * tracepoints, live-patching the hottest code in the kernel (and
	 * wedging TCG guests now and then). Task names are not needed here,
	 * so the instance is created with the option off, restored at once.
	 */
	record_cmd = slurp(c->root, "options/record-cmd", &opt, &optlen) == 0 && opt[0] == '1';
	free(opt);
	if (record_cmd && put(c->root, "options/record-cmd", "0"))
		record_cmd = false;
	err = mkdir(c->inst, 0700) ? errno : 0;
	if (record_cmd)
		put(c->root, "options/record-cmd", "1");
	if (err) {
		errno = err;
		if (errno == EEXIST)
			cli_err(c->call->what, "a capture is already running (%s): '" CLI_PROG
				" cfg capture stop -o FILE' ends it", c->inst);
		else if (errno == ENOENT)
			cli_err(c->call->what, "%s has no instances/: the kernel is too old "
				"for tracing instances", c->root);
		else
			cli_err(c->call->what, "cannot create the tracing instance %s: %s",
				c->inst, strerror(errno));
		return CLI_EXIT_ERR;
	}
	/*
	 * Both best effort: the defaults work, only less well. Set before
	 * anything is recorded: they reset the buffer.
	 */
	put(c->inst, "buffer_size_kb", INSTANCE_BUFFER_KB);
	put(c->inst, "trace_clock", "global");

	snprintf(filter, sizeof(filter), "dev_id == %" PRIu32, c->dev_id);
	err = put(c->inst, EVENT_DIR "/filter", filter);
	if (!err)
		err = put(c->inst, "tracing_on", "1");
	if (!err)
		err = put(c->inst, EVENT_DIR "/enable", "1");
	if (err) {
		cli_err(c->call->what, "cannot set up tracing in %s: %s", c->inst,
			strerror(-err));
		instance_remove(c);
		return CLI_EXIT_ERR;
	}
	return 0;
}

/*
 * Stop recording, turn the trace into records and remove the instance.
 * Returns 0 or CLI_EXIT_ERR; *recs malloc'ed with *count >= 1.
 */
static int instance_finish(struct capture *c, uint32_t dev_id,
			   struct ipuxcom_cfg_record **recs, uint32_t *count)
{
	struct ipuxcom_trace_stats st = IPUXCOM_TRACE_STATS_INIT;
	struct ipuxcom_errmsg em;
	size_t len = 0;
	char *text;
	int err;

	err = put(c->inst, EVENT_DIR "/enable", "0");
	if (!err)
		err = slurp(c->inst, "trace", &text, &len);
	instance_remove(c);
	if (err) {
		cli_err(c->call->what, "cannot read the trace in %s: %s", c->inst,
			strerror(-err));
		return CLI_EXIT_ERR;
	}
	err = ipuxcom_cfg_from_trace(text, len, dev_id, recs, count, &st, &em);
	free(text);
	if (err == -ENOBUFS) {
		cli_err(c->call->what, "%s; capture a shorter span", em.msg);
		return CLI_EXIT_ERR;
	}
	if (err) {
		cli_err(c->call->what, "%s", em.msg);
		return CLI_EXIT_ERR;
	}
	if (!*count) {
		if (dev_id == IPUXCOM_TRACE_ANY_DEV)
			cli_err(c->call->what, "no config writes captured: nothing written");
		else
			cli_err(c->call->what, "no config writes captured on device %" PRIu32
				": nothing written", dev_id);
		return CLI_EXIT_ERR;
	}
	return 0;
}

static int write_cfg(const struct cli_call *call, const char *path,
		     const struct ipuxcom_cfg_record *recs, uint32_t count, uint32_t dev_id)
{
	struct ipuxcom_errmsg em;
	void *data = NULL;
	size_t len = 0;
	int rc;

	if (ipuxcom_cfg_serialize(recs, count, &data, &len, &em)) {
		cli_err(call->what, "%s", em.msg);
		return CLI_EXIT_ERR;
	}
	rc = outfile_write_all(call, path, data, len);
	free(data);
	if (rc)
		return rc;
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "output", path);	/* what was written ("file": inputs) */
		json_key(&w, "dev");	/* null: every device's writes */
		if (dev_id == IPUXCOM_TRACE_ANY_DEV)
			json_null(&w);
		else
			json_uint(&w, dev_id);
		json_kv_uint(&w, "records", count);
		json_end_object(&w);
		return CLI_EXIT_OK;
	}
	/* With -o -, stdout is stderr here (outfile_claim_stdout()). */
	if (dev_id == IPUXCOM_TRACE_ANY_DEV)
		printf("captured %" PRIu32 " config writes into %s\n", count, path);
	else
		printf("captured %" PRIu32 " config writes of device %" PRIu32 " into %s\n", count,
		       dev_id, path);
	return CLI_EXIT_OK;
}

static const char *dev_arg, *out_arg;

static const struct cli_opt run_opts[] = {
	{ .lname = "dev", .arg = "ID", .help = "device id (default: the lowest registered)", .value = &dev_arg },
	{ .lname = "output", .sname = 'o', .arg = "FILE",
	  .help = "IPUCFG1 file to write (required)", .value = &out_arg },
};

/*
 * Run @argv, SIGINT and SIGQUIT ignored meanwhile (they are for the
 * command; we must survive to clean up). Returns 0 when it exited 0, else
 * reports how it ended and returns CLI_EXIT_ERR.
 */
static int run_command(const struct cli_call *call, char **argv)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	int status, pipefd[2], child_err = 0;
	ssize_t n;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC)) {
		cli_err(call->what, "pipe: %s", strerror(errno));
		return CLI_EXIT_ERR;
	}
	fflush(stdout);
	fflush(stderr);
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid = fork();
	if (pid == 0) {
		int e;

		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		close(pipefd[0]);
		execvp(argv[0], argv);
		/* The parent reports it: the pipe closes on a successful exec. */
		e = errno;
		if (write(pipefd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pipefd[1]);
	if (pid < 0) {
		cli_err(call->what, "fork: %s", strerror(errno));
		close(pipefd[0]);
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		return CLI_EXIT_ERR;
	}
	do
		n = read(pipefd[0], &child_err, sizeof(child_err));
	while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);

	if (n == (ssize_t)sizeof(child_err)) {
		cli_err(call->what, "cannot run '%s': %s", argv[0], strerror(child_err));
		return CLI_EXIT_ERR;
	}
	if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (status == -1)
		cli_err(call->what, "'%s': wait failed", argv[0]);
	else if (WIFSIGNALED(status))
		cli_err(call->what, "'%s' was killed by signal %d (%s): nothing written",
			argv[0], WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		cli_err(call->what, "'%s' failed with exit status %d: nothing written",
			argv[0], WEXITSTATUS(status));
	return CLI_EXIT_ERR;
}

/* [--dev ID] -o FILE -- COMMAND [ARGS...] */
static int capture_command(struct cli_call *call, int argc, char **argv)
{
	struct capture c = { .call = call };
	struct ipuxcom_cfg_record *recs = NULL;
	uint32_t count = 0;
	char name[48];
	int split = -1, npos, rc;

	/* Our options end at the first "--" that is not an option's value. */
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			split = i;
			break;
		}
		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output") ||
		    !strcmp(argv[i], "--dev"))
			i++;
	}
	dev_arg = out_arg = NULL;
	rc = cli_parse(call, split < 0 ? argc : split, argv, run_opts, 2, true, NULL, 0,
		       &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (split < 0 || split + 1 >= argc)
		return cli_usage_err(call, "expected -- COMMAND [ARGS...] (or start / stop)");
	if (!out_arg)
		return cli_usage_err(call, "-o FILE is required");
	if (dev_arg && !cli_parse_u32(dev_arg, &c.dev_id))
		return cli_usage_err(call, "invalid device id '%s': a decimal number", dev_arg);

	/* Fail before running anything if FILE cannot be written. */
	rc = outfile_check(call, out_arg);
	if (!rc)	/* -o -: the file on stdout; the report (and COMMAND's output) on stderr */
		rc = outfile_claim_stdout(call, out_arg);
	if (!rc)
		rc = tracefs_find(&c);
	if (rc)
		return rc;
	snprintf(name, sizeof(name), INSTANCE_SPAN "-%ld", (long)getpid());
	rc = instance_start(&c, name);
	if (rc)
		return rc;
	if (run_command(call, argv + split + 1)) {
		instance_remove(&c);
		return CLI_EXIT_ERR;
	}
	rc = instance_finish(&c, c.dev_id, &recs, &count);
	if (!rc)
		rc = write_cfg(call, out_arg, recs, count, c.dev_id);
	free(recs);
	return rc;
}

static int capture_start(struct cli_call *call, int argc, char **argv)
{
	struct capture c = { .call = call };
	int npos, rc;

	dev_arg = NULL;
	rc = cli_parse(call, argc, argv, run_opts, 1, true, NULL, 0, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (dev_arg && !cli_parse_u32(dev_arg, &c.dev_id))
		return cli_usage_err(call, "invalid device id '%s': a decimal number", dev_arg);
	rc = tracefs_find(&c);
	if (!rc)
		rc = instance_start(&c, INSTANCE_SPAN);
	if (rc)
		return rc;
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_uint(&w, "dev", c.dev_id);
		json_key(&w, "capturing");
		json_bool(&w, true);
		json_end_object(&w);
	} else {
		printf("capturing the config writes of device %" PRIu32 "; '" CLI_PROG
		       " cfg capture stop -o FILE' ends it\n", c.dev_id);
	}
	return CLI_EXIT_OK;
}

static int capture_stop(struct cli_call *call, int argc, char **argv)
{
	struct capture c = { .call = call };
	struct ipuxcom_cfg_record *recs = NULL;
	uint32_t count = 0, dev_id = IPUXCOM_TRACE_ANY_DEV;
	char *filter = NULL;
	size_t flen;
	struct stat st;
	int npos, rc;

	out_arg = NULL;
	rc = cli_parse(call, argc, argv, run_opts + 1, 1, true, NULL, 0, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (call->dev)
		return cli_usage_err(call, "--dev does not apply to 'stop': it ends the running "
				     "capture, of the device 'start' was given");
	if (!out_arg)
		return cli_usage_err(call, "-o FILE is required");
	/* Fail before running anything if FILE cannot be written. */
	rc = outfile_check(call, out_arg);
	if (!rc)	/* -o -: the file on stdout; the report (and COMMAND's output) on stderr */
		rc = outfile_claim_stdout(call, out_arg);
	if (!rc)
		rc = tracefs_find(&c);
	if (rc)
		return rc;
	snprintf(c.inst, sizeof(c.inst), "%s/instances/" INSTANCE_SPAN, c.root);
	if (stat(c.inst, &st)) {
		cli_err(call->what, "no capture running (start one with '" CLI_PROG
			" cfg capture start')");
		return CLI_EXIT_ERR;
	}
	/* The device is in the filter "start" set: "dev_id == 3". */
	if (!slurp(c.inst, EVENT_DIR "/filter", &filter, &flen)) {
		unsigned int id;

		if (sscanf(filter, "dev_id == %u", &id) == 1)
			dev_id = id;
		free(filter);
	}
	rc = instance_finish(&c, dev_id, &recs, &count);
	if (!rc)
		rc = write_cfg(call, out_arg, recs, count, dev_id);
	free(recs);
	return rc;
}

int cfg_capture_run(struct cli_call *call, int argc, char **argv)
{
	if (argc > 0 && !strcmp(argv[0], "start"))
		return capture_start(call, argc - 1, argv + 1);
	if (argc > 0 && !strcmp(argv[0], "stop"))
		return capture_stop(call, argc - 1, argv + 1);
	return capture_command(call, argc, argv);
}
