// SPDX-License-Identifier: GPL-2.0-only
/*
 * Watching and tracing a device (docs/tracing.md):
 *  - a monitor process (libipuxcom's struct ipuxcom_monitor) receives every
 *    LOAD_PROGRESS event of a full load, batches 1..23 in order, between
 *    the state changes idle -> bootloader -> loading -> running;
 *  - a stuck HSP mark gives a TIMEOUT event with the register polled and
 *    the mark observed, then RESET and needs-reset -> idle;
 *  - `ipuxcom monitor` prints them (text, --json, --count, --timeout-ms)
 *    and `ipuxcom load` draws its progress from them;
 *  - `ipuxcom cfg capture` around a program that makes known REG_WRITEs and
 *    a CFG_APPLY yields an IPUCFG1 file of exactly those writes, in order,
 *    for the device asked only; also between `start` and `stop`; failures
 *    write nothing, and the tracing state is left as it was.
 *
 * The writer program of the capture tests is this binary: with
 * IXT_WRITER_DEV set in its environment it makes the writes (from a
 * constructor, before the harness starts) and exits.
 */
#include "kselftest_harness.h"

#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "image_testlib.h"
#include "ixt_json.h"
#include "load_testlib.h"

/* C600_HSP_GS1 of kmod/c600_regs.h: the register a batch handshake polls. */
#define HSP_GS1		0x302c
#define TIMEOUT_NS	(2ULL * 1000 * 1000 * 1000)
/* What the watcher sends for -ENOBUFS (events lost). */
#define EV_LOST		0xffffffffu
#define MAX_EVENTS	256

/* ------------------------------------------------------ the writer */

/* What the writer does to its device: 4 REG_WRITEs, then one CFG_APPLY. */
static const struct ipuxcom_cfg_record reg_writes[] = {
	{ 0x0100, 0x11111111 }, { 0x0104, 0x22222222 }, { 0x0100, 0x33333333 },
	{ 0x7fffc, 0x12345678 },
};
static const struct ipuxcom_cfg_record cfg_writes[] = {
	{ 0x0108, 1 }, { 0x010c, 2 }, { 0x0108, 3 }, { 0x0200, 0xdeadbeef }, { 0x0110, 0 },
};
#define NWRITES	(sizeof(reg_writes) / sizeof(reg_writes[0]) + \
		 sizeof(cfg_writes) / sizeof(cfg_writes[0]))
/* ... and to the other device, if any: one write, which a capture of
 * the first device must not see. */
static const struct ipuxcom_cfg_record other_write = { 0x0100, 0x0bad0bad };

/* The writes, in order, into @out (NWRITES of them). */
static void expected_writes(struct ipuxcom_cfg_record *out)
{
	size_t n = 0;

	for (size_t i = 0; i < sizeof(reg_writes) / sizeof(reg_writes[0]); i++)
		out[n++] = reg_writes[i];
	for (size_t i = 0; i < sizeof(cfg_writes) / sizeof(cfg_writes[0]); i++)
		out[n++] = cfg_writes[i];
}

/* 0, or the step that failed. */
static int do_writes(uint32_t dev, int other)
{
	struct ipuxcom *ipu = NULL;
	int rc = 0;

	if (ipuxcom_open(ixt_dev_path(), &ipu) || ipuxcom_attach(ipu, dev))
		rc = 10;
	for (size_t i = 0; !rc && i < sizeof(reg_writes) / sizeof(reg_writes[0]); i++)
		if (ipuxcom_reg_write(ipu, reg_writes[i].offset, reg_writes[i].value))
			rc = 11;
	if (!rc && ipuxcom_cfg_apply(ipu, cfg_writes, sizeof(cfg_writes) / sizeof(cfg_writes[0]),
				     NULL))
		rc = 12;
	ipuxcom_close(ipu);
	if (rc || other < 0)
		return rc;
	ipu = NULL;
	if (ipuxcom_open(ixt_dev_path(), &ipu) || ipuxcom_attach(ipu, (uint32_t)other) ||
	    ipuxcom_reg_write(ipu, other_write.offset, other_write.value))
		rc = 13;
	ipuxcom_close(ipu);
	return rc;
}

__attribute__((constructor))
static void writer_main(void)
{
	const char *dev = getenv("IXT_WRITER_DEV");
	const char *other = getenv("IXT_WRITER_OTHER");

	if (!dev)
		return;
	_exit(do_writes((uint32_t)strtoul(dev, NULL, 0),
			other && *other ? (int)strtol(other, NULL, 0) : -1));
}

/* ----------------------------------------------------- the watcher */

struct watcher {
	pid_t pid;
	int fd;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool is_stop(const struct ipuxcom_event *ev, uint32_t type, uint32_t state)
{
	return ev->type == type && (type != IPUXCOM_GENL_CMD_STATE || ev->state == state);
}

/*
 * Fork a monitor process for device @dev. It joins the events group, says
 * so, then passes each event of @dev (struct ipuxcom_event, EV_LOST for an
 * overrun) down a pipe until one of type @type (a STATE one: into @state)
 * has gone. Returns 0 once it listens.
 */
static int watcher_start(struct watcher *w, uint32_t dev, uint32_t type, uint32_t state)
{
	int p[2];
	char c = 0;

	if (pipe(p))
		return -errno;
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0)
		return -errno;
	if (w->pid == 0) {
		struct ipuxcom_monitor *mon;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		c = ipuxcom_monitor_open(&mon) ? 'F' : 'R';
		if (write(p[1], &c, 1) != 1 || c != 'R')
			_exit(1);
		for (;;) {
			struct ipuxcom_event ev = IPUXCOM_EVENT_INIT;
			int err = ipuxcom_monitor_next(mon, &ev, 60000);

			if (err == -ENOBUFS)
				ev = (struct ipuxcom_event){ .type = EV_LOST, .dev_id = dev };
			else if (err)
				_exit(2);
			if (ev.dev_id != dev)
				continue;
			if (write(p[1], &ev, sizeof(ev)) != sizeof(ev))
				_exit(3);
			if (is_stop(&ev, type, state))
				_exit(0);
		}
	}
	close(p[1]);
	w->fd = p[0];
	if (read(w->fd, &c, 1) != 1 || c != 'R') {
		close(w->fd);
		waitpid(w->pid, NULL, 0);
		return -EIO;
	}
	return 0;
}

/*
 * The events the watcher passed, until it ended (or 60 s: then it is
 * killed). Returns their number; *@status is its exit code (-1: killed).
 */
static int watcher_collect(struct watcher *w, struct ipuxcom_event *evs, int max, int *status)
{
	int64_t deadline = now_ms() + 60000;
	int n = 0, st;

	while (n < max) {
		struct pollfd pfd = { .fd = w->fd, .events = POLLIN };
		int64_t left = deadline - now_ms();
		ssize_t r;

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			break;
		r = read(w->fd, &evs[n], sizeof(evs[n]));
		if (r != sizeof(evs[n]))
			break;	/* EOF: the watcher is done */
		n++;
	}
	close(w->fd);
	kill(w->pid, SIGKILL);	/* no-op when it has exited */
	waitpid(w->pid, &st, 0);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return n;
}

/* ----------------------------------------------- running the command */

/* Start the command with stdout on a pipe (*@out_fd); stderr is ours. */
static pid_t spawn(char *const *argv, int *out_fd)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(p[1], STDOUT_FILENO);
		close(p[0]);
		close(p[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	*out_fd = p[0];
	return pid;
}

/* Append what @fd has within @ms to @buf (NUL-terminated); false at EOF. */
static bool read_some(int fd, char *buf, size_t len, size_t *pos, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;

	if (poll(&pfd, 1, ms) <= 0)
		return true;
	if (*pos + 1 >= len)
		return false;
	n = read(fd, buf + *pos, len - *pos - 1);
	if (n <= 0)
		return false;
	*pos += (size_t)n;
	buf[*pos] = '\0';
	return true;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* ------------------------------------------------------- the fixture */

FIXTURE(ev) {
	struct ipuxcom *ipu;
	struct ipuxcom_image *img;
	void *file;
	size_t file_len;
	uint32_t dev;
	char tool[PATH_MAX];
	bool have_tool;
};

FIXTURE_SETUP(ev)
{
	self->ipu = NULL;
	self->img = NULL;
	self->file = NULL;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	self->dev = ixt_dev_id();
	self->have_tool = ixt_find_tool_on_path(self->tool, sizeof(self->tool));
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, self->dev));
	ixt_sim_clear_faults(self->dev);
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	self->img = build_image_file(_metadata, &self->file, &self->file_len);
	ASSERT_NE(NULL, self->img);
}

FIXTURE_TEARDOWN(ev)
{
	if (!self->ipu)
		return;
	ixt_sim_clear_faults(self->dev);
	ipuxcom_reset(self->ipu, NULL);
	ipuxcom_close(self->ipu);
	ipuxcom_image_free(self->img);
	free(self->file);
}

TEST_F_TIMEOUT(ev, monitor_sees_every_progress_event_in_order, 120)
{
	static const uint32_t states[][2] = {
		{ IPUXCOM_DEV_STATE_IDLE, IPUXCOM_DEV_STATE_BOOTLOADER },
		{ IPUXCOM_DEV_STATE_BOOTLOADER, IPUXCOM_DEV_STATE_LOADING },
		{ IPUXCOM_DEV_STATE_LOADING, IPUXCOM_DEV_STATE_RUNNING },
	};
	struct ipuxcom_event *evs = calloc(MAX_EVENTS, sizeof(*evs));
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	uint32_t next_batch = 1, step = 0;
	uint64_t batch_bytes = 0;
	struct watcher w;
	int n, status;

	ASSERT_NE(NULL, evs);
	ASSERT_EQ(0, watcher_start(&w, self->dev, IPUXCOM_GENL_CMD_STATE,
				   IPUXCOM_DEV_STATE_RUNNING));
	ASSERT_EQ(0, ixt_load_image(self->ipu, self->img, TIMEOUT_NS, &res)) TH_LOG("%s", res.msg);
	n = watcher_collect(&w, evs, MAX_EVENTS, &status);
	EXPECT_EQ(0, status);

	for (int i = 0; i < n; i++) {
		const struct ipuxcom_event *ev = &evs[i];

		switch (ev->type) {
		case IPUXCOM_GENL_CMD_RESET:
			/* the load's session: the initialisation first (an idle device) */
			EXPECT_EQ(0, i);
			EXPECT_EQ(0, ev->error);
			break;
		case IPUXCOM_GENL_CMD_STATE:
			ASSERT_LT(step, 3) TH_LOG("extra state change at event %d", i);
			EXPECT_EQ(states[step][0], ev->old_state) TH_LOG("state change %u", step);
			EXPECT_EQ(states[step][1], ev->state) TH_LOG("state change %u", step);
			/* loading before the first batch, running after the last */
			if (step == 1) {
				EXPECT_EQ(1, next_batch);
			}
			if (step == 2) {
				EXPECT_EQ(IPUXCOM_LOAD_BATCHES + 1, next_batch);
			}
			step++;
			break;
		case IPUXCOM_GENL_CMD_LOAD_PROGRESS:
			EXPECT_EQ(2, step);
			EXPECT_EQ(next_batch, ev->batch);
			EXPECT_EQ(IPUXCOM_LOAD_BATCHES, ev->batches);
			/* every tile image has the same size: so has every batch */
			EXPECT_LT(0, ev->bytes);
			if (next_batch == 1)
				batch_bytes = ev->bytes;
			EXPECT_EQ(batch_bytes, ev->bytes);
			next_batch++;
			break;
		default:
			EXPECT_TRUE(false) TH_LOG("unexpected %s event (type %u) at %d",
					     ipuxcom_event_name(ev->type), ev->type, i);
		}
	}
	EXPECT_EQ(IPUXCOM_LOAD_BATCHES + 1, next_batch);
	EXPECT_EQ(3, step);
	free(evs);
}

TEST_F_TIMEOUT(ev, timeout_event_has_the_observed_mark_then_reset, 120)
{
	struct ipuxcom_event *evs = calloc(MAX_EVENTS, sizeof(*evs));
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	struct watcher w;
	int n, status;

	ASSERT_NE(NULL, evs);
	/* until the reset brings the device back to idle */
	ASSERT_EQ(0, watcher_start(&w, self->dev, IPUXCOM_GENL_CMD_STATE,
				   IPUXCOM_DEV_STATE_IDLE));
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "stuck_mark", 1));
	EXPECT_EQ(-ETIMEDOUT, ixt_load_image(self->ipu, self->img, 200 * 1000 * 1000, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_BATCH, res.step);
	EXPECT_EQ(1, res.diag.mark);
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "stuck_mark", 0));
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	n = watcher_collect(&w, evs, MAX_EVENTS, &status);
	EXPECT_EQ(0, status);

	/* the load's initialisation (an idle device: no state change), then the load */
	ASSERT_EQ(7, n);
	EXPECT_EQ(IPUXCOM_GENL_CMD_RESET, evs[0].type);
	EXPECT_EQ(0, evs[0].error);
	EXPECT_EQ(IPUXCOM_GENL_CMD_STATE, evs[1].type);
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, evs[1].state);
	EXPECT_EQ(IPUXCOM_GENL_CMD_STATE, evs[2].type);
	EXPECT_EQ(IPUXCOM_DEV_STATE_LOADING, evs[2].state);
	/* the batch handshake's wait: GS1 polled, mark 1 still there */
	EXPECT_EQ(IPUXCOM_GENL_CMD_TIMEOUT, evs[3].type);
	EXPECT_EQ(HSP_GS1, evs[3].reg);
	EXPECT_EQ(res.diag.mark, evs[3].value & 0xffff);
	EXPECT_EQ(-ETIMEDOUT, evs[3].error);
	EXPECT_EQ(IPUXCOM_GENL_CMD_STATE, evs[4].type);
	EXPECT_EQ(IPUXCOM_DEV_STATE_LOADING, evs[4].old_state);
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, evs[4].state);
	EXPECT_EQ(IPUXCOM_GENL_CMD_RESET, evs[5].type);
	EXPECT_EQ(0, evs[5].error);
	EXPECT_EQ(IPUXCOM_GENL_CMD_STATE, evs[6].type);
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, evs[6].old_state);
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, evs[6].state);
	for (int i = 0; i < n; i++) {
		EXPECT_NE(EV_LOST, evs[i].type);
	}
	free(evs);
}

/*
 * Start `ipuxcom monitor ARGS...` and reset the device until its first
 * line shows it is listening. Returns the pid; output so far in @buf.
 */
static pid_t monitor_cmd_sync(struct __test_metadata *_metadata, FIXTURE_DATA(ev) *self,
			      char *const *argv, int *fd, char *buf, size_t len, size_t *pos)
{
	pid_t pid = spawn(argv, fd);

	*pos = 0;
	buf[0] = '\0';
	if (pid < 0)
		return pid;
	for (int i = 0; i < 100 && !*pos; i++) {
		EXPECT_EQ(0, ipuxcom_reset(self->ipu, NULL));
		if (!read_some(*fd, buf, len, pos, 100))
			break;
	}
	EXPECT_NE(0, *pos) TH_LOG("ipuxcom monitor printed nothing");
	return pid;
}

TEST_F_TIMEOUT(ev, monitor_command_prints_events, 120)
{
	char dev[16], want[96], *out = malloc(65536);
	char *argv[] = { self->tool, "monitor", "--dev", dev, NULL };
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	const char *at;
	size_t pos;
	int fd, status;
	pid_t pid;

	if (!self->have_tool)
		SKIP(return, "no ipuxcom command (set IPUXCOM_TOOL)");
	ASSERT_NE(NULL, out);
	snprintf(dev, sizeof(dev), "%u", self->dev);
	pid = monitor_cmd_sync(_metadata, self, argv, &fd, out, 65536, &pos);
	ASSERT_LT(0, pid);
	snprintf(want, sizeof(want), "dev %u: reset\n", self->dev);
	EXPECT_EQ(0, strncmp(out, want, strlen(want))) TH_LOG("%s", out);

	ASSERT_EQ(0, ixt_load_image(self->ipu, self->img, TIMEOUT_NS, &res)) TH_LOG("%s", res.msg);
	snprintf(want, sizeof(want), "dev %u: state loading -> running\n", self->dev);
	for (int64_t end = now_ms() + 30000; !strstr(out, want) && now_ms() < end;)
		if (!read_some(fd, out, 65536, &pos, 200))
			break;
	kill(pid, SIGTERM);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(fd);

	/* one line per event, in order */
	at = strstr(out, want);
	EXPECT_NE(NULL, at) TH_LOG("%s", out);
	snprintf(want, sizeof(want), "dev %u: state idle -> bootloader\n", self->dev);
	EXPECT_NE(NULL, at = strstr(out, want)) TH_LOG("%s", out);
	snprintf(want, sizeof(want), "dev %u: state bootloader -> loading\n", self->dev);
	EXPECT_NE(NULL, at = strstr(at ? at : out, want)) TH_LOG("%s", out);
	for (int b = 1; at && b <= IPUXCOM_LOAD_BATCHES; b++) {
		snprintf(want, sizeof(want), "dev %u: load progress batch %d/23 (", self->dev, b);
		at = strstr(at, want);
		EXPECT_NE(NULL, at) TH_LOG("no '%s' in order in:\n%s", want, out);
	}
	free(out);
}

TEST_F_TIMEOUT(ev, monitor_command_json_count_and_timeout, 60)
{
	char dev[16], want[96], out[4096];
	char *count_argv[] = { self->tool, "monitor", "--json", "--dev", dev, "--count", "3",
			       NULL };
	char *quiet_argv[] = { self->tool, "monitor", "--timeout-ms", "300", NULL };
	const char *line;
	int64_t start;
	size_t pos;
	int fd, status;
	pid_t pid;

	if (!self->have_tool)
		SKIP(return, "no ipuxcom command (set IPUXCOM_TOOL)");
	snprintf(dev, sizeof(dev), "%u", self->dev);
	pid = monitor_cmd_sync(_metadata, self, count_argv, &fd, out, sizeof(out), &pos);
	ASSERT_LT(0, pid);
	/* each reset is one more event; --count 3 ends it */
	for (int i = 0; i < 100; i++) {
		EXPECT_EQ(0, ipuxcom_reset(self->ipu, NULL));
		if (!read_some(fd, out, sizeof(out), &pos, 100))
			break;
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(fd);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(3, count_lines(out)) TH_LOG("%s", out);
	snprintf(want, sizeof(want), "{\"event\":\"reset\",\"dev\":%u,\"errno\":0}\n", self->dev);
	line = out;
	for (int i = 0; i < 3; i++, line += strlen(want)) {
		EXPECT_EQ(0, strncmp(line, want, strlen(want))) TH_LOG("%s", out);
	}

	/* nothing happens: exit 0 after the silence, having printed nothing */
	start = now_ms();
	pid = spawn(quiet_argv, &fd);
	ASSERT_LT(0, pid);
	pos = 0;
	out[0] = '\0';
	while (read_some(fd, out, sizeof(out), &pos, 5000) && now_ms() - start < 20000)
		;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(fd);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_STREQ("", out);
	EXPECT_LE(300, now_ms() - start);
}

/* "2026-12-01T04:20:00.123456+01:00": RFC 3339 local time with microseconds. */
static bool is_timestamp(const char *s)
{
	static const char form[] = "dddd-dd-ddTdd:dd:dd.dddddd+dd:dd";

	for (size_t i = 0; i < sizeof(form) - 1; i++) {
		if (form[i] == 'd' ? s[i] < '0' || s[i] > '9' :
		    form[i] == '+' ? s[i] != '+' && s[i] != '-' : s[i] != form[i])
			return false;
	}
	return true;
}

/* Run `ipuxcom monitor ARGS... --count 1` to its exit (status 0); its output in @out. */
static void monitor_cmd_once(struct __test_metadata *_metadata, FIXTURE_DATA(ev) *self,
			     char *const *argv, char *out, size_t len)
{
	size_t pos;
	int fd, status;
	pid_t pid = monitor_cmd_sync(_metadata, self, argv, &fd, out, len, &pos);

	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(fd);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST_F_TIMEOUT(ev, monitor_command_timestamps, 60)
{
	char dev[16], want[96], out[4096];
	char *text_argv[] = { self->tool, "monitor", "-t", "--dev", dev, "--count", "1", NULL };
	char *json_argv[] = { self->tool, "monitor", "--timestamp", "-j", "--dev", dev, "--count",
			      "1", NULL };

	if (!self->have_tool)
		SKIP(return, "no ipuxcom command (set IPUXCOM_TOOL)");
	snprintf(dev, sizeof(dev), "%u", self->dev);
	/* [TIME] then the line as without -t */
	monitor_cmd_once(_metadata, self, text_argv, out, sizeof(out));
	EXPECT_EQ('[', out[0]) TH_LOG("%s", out);
	EXPECT_TRUE(is_timestamp(out + 1)) TH_LOG("%s", out);
	snprintf(want, sizeof(want), "] dev %u: reset\n", self->dev);
	EXPECT_EQ(0, strncmp(out + 33, want, strlen(want))) TH_LOG("%s", out);
	/* JSON: the same text as the first key */
	monitor_cmd_once(_metadata, self, json_argv, out, sizeof(out));
	EXPECT_EQ(0, strncmp(out, "{\"time\":\"", 9)) TH_LOG("%s", out);
	EXPECT_TRUE(is_timestamp(out + 9)) TH_LOG("%s", out);
	snprintf(want, sizeof(want), "\",\"event\":\"reset\",\"dev\":%u,\"errno\":0}\n",
		 self->dev);
	EXPECT_EQ(0, strncmp(out + 41, want, strlen(want))) TH_LOG("%s", out);
	EXPECT_EQ(1, ixt_json_count(out)) TH_LOG("%s", out);
}

TEST_F_TIMEOUT(ev, load_command_draws_progress_from_events, 120)
{
	char img_path[64], boot_path[64], dev[16], want[64];
	struct ixt_run *r = malloc(sizeof(*r));
	const char *at;
	int ret;

	if (!self->have_tool)
		SKIP(return, "no ipuxcom command (set IPUXCOM_TOOL)");
	ASSERT_NE(NULL, r);
	snprintf(img_path, sizeof(img_path), "/tmp/events_test.%d.ipuimg", (int)getpid());
	snprintf(boot_path, sizeof(boot_path), "/tmp/events_test.%d.boot", (int)getpid());
	snprintf(dev, sizeof(dev), "%u", self->dev);
	ASSERT_EQ(0, ixt_write_file(img_path, self->file, self->file_len));
	ASSERT_EQ(0, ixt_write_file(boot_path, boot, sizeof(boot)));
	/* the command attaches itself */
	ipuxcom_close(self->ipu);
	self->ipu = NULL;
	ret = ixt_run_tool(r, self->tool, "load", img_path, "-b", boot_path, "--dev", dev, NULL);
	unlink(img_path);
	unlink(boot_path);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, self->dev));

	EXPECT_EQ(0, r->status) TH_LOG("stdout: %s\nstderr: %s", r->out, r->err);
	EXPECT_NE(NULL, strstr(r->out, "device running")) TH_LOG("%s", r->out);
	/* stderr is not a terminal: one line per batch, from the events */
	EXPECT_EQ(NULL, strstr(r->err, "progress from the library")) TH_LOG("%s", r->err);
	at = r->err;
	for (int b = 1; at && b <= IPUXCOM_LOAD_BATCHES; b++) {
		snprintf(want, sizeof(want), "batch %d/23 (", b);
		at = strstr(at, want);
		EXPECT_NE(NULL, at) TH_LOG("no '%s' in order in:\n%s", want, r->err);
		if (at) {
			EXPECT_NE(NULL, strstr(at, "frame bytes so far)"));
		}
	}
	EXPECT_EQ(IPUXCOM_LOAD_BATCHES, count_lines(r->err)) TH_LOG("%s", r->err);
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, ixt_state(ipuxcom_fd(self->ipu)));
	free(r);
}

/* ----------------------------------------------------- config capture */

FIXTURE(cap) {
	uint32_t dev;
	int other;			/* another simulated device, or -1 */
	char tool[PATH_MAX];
	char self_exe[PATH_MAX];
	char out[64];
	char enable[128];		/* the top-level enable file of the event */
	char enable_before[8];
};

static const char *const tracefs_roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

static void read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
}

FIXTURE_SETUP(cap)
{
	ssize_t n;

	self->enable[0] = '\0';
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	if (!ixt_find_tool_on_path(self->tool, sizeof(self->tool)))
		SKIP(return, "no ipuxcom command (set IPUXCOM_TOOL)");
	for (size_t i = 0; i < sizeof(tracefs_roots) / sizeof(tracefs_roots[0]); i++) {
		snprintf(self->enable, sizeof(self->enable),
			 "%s/events/ipuxcom/ipuxcom_bar_write/enable", tracefs_roots[i]);
		if (access(self->enable, W_OK) == 0)
			break;
		self->enable[0] = '\0';
	}
	if (!self->enable[0])
		SKIP(return, "no tracefs with the ipuxcom tracepoints (or not root)");
	read_small(self->enable, self->enable_before, sizeof(self->enable_before));
	self->dev = ixt_dev_id();
	/* ids are cyclic: after a reload neither need be 0 or 1 */
	self->other = ixt_sim_devices() >= 2 ? (int)ixt_dev_id2() : -1;
	n = readlink("/proc/self/exe", self->self_exe, sizeof(self->self_exe) - 1);
	ASSERT_LT(0, n);
	self->self_exe[n] = '\0';
	snprintf(self->out, sizeof(self->out), "/tmp/events_test.%d.ipucfg", (int)getpid());
	unlink(self->out);
	ASSERT_EQ(0, ixt_reset_device(self->dev));
	if (self->other >= 0) {
		ASSERT_EQ(0, ixt_reset_device((uint32_t)self->other));
	}
}

FIXTURE_TEARDOWN(cap)
{
	char now[8];

	if (!self->enable[0])
		return;
	/* the capture left the tracing state as it found it */
	read_small(self->enable, now, sizeof(now));
	EXPECT_STREQ(self->enable_before, now);
	unlink(self->out);
	ixt_reset_device(self->dev);
	if (self->other >= 0)
		ixt_reset_device((uint32_t)self->other);
}

/* The capture's file holds exactly @want, in order. */
static void expect_capture(struct __test_metadata *_metadata, const char *path,
			   const struct ipuxcom_cfg_record *want, uint32_t nwant)
{
	struct ipuxcom_cfg_record *recs = NULL;
	struct ipuxcom_errmsg em;
	uint32_t count = 0;

	ASSERT_EQ(0, ipuxcom_cfg_load(path, &recs, &count, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(nwant, count);
	for (uint32_t i = 0; i < count; i++) {
		EXPECT_EQ(want[i].offset, recs[i].offset) TH_LOG("record %u", i);
		EXPECT_EQ(want[i].value, recs[i].value) TH_LOG("record %u", i);
	}
	free(recs);
}

/* No tracing instance of `cfg capture` is left behind. */
static bool instances_left(void)
{
	char path[128];

	for (size_t i = 0; i < sizeof(tracefs_roots) / sizeof(tracefs_roots[0]); i++) {
		struct dirent *de;
		DIR *d;

		snprintf(path, sizeof(path), "%s/instances", tracefs_roots[i]);
		d = opendir(path);
		if (!d)
			continue;
		while ((de = readdir(d)))
			if (!strncmp(de->d_name, "ipuxcom-capture", 15))
				break;
		closedir(d);
		if (de)
			return true;
	}
	return false;
}

static void set_writer_env(uint32_t dev, int other)
{
	char d[16], o[16];

	snprintf(d, sizeof(d), "%u", dev);
	snprintf(o, sizeof(o), "%d", other);
	setenv("IXT_WRITER_DEV", d, 1);
	setenv("IXT_WRITER_OTHER", other >= 0 ? o : "", 1);
}

static void clear_writer_env(void)
{
	unsetenv("IXT_WRITER_DEV");
	unsetenv("IXT_WRITER_OTHER");
}

TEST_F_TIMEOUT(cap, capture_command_records_its_writes_in_order, 60)
{
	struct ipuxcom_cfg_record want[NWRITES];
	struct ixt_run *r = malloc(sizeof(*r));
	char dev[16], msg[128];
	int ret;

	ASSERT_NE(NULL, r);
	expected_writes(want);
	snprintf(dev, sizeof(dev), "%u", self->dev);
	set_writer_env(self->dev, self->other);
	ret = ixt_run_tool(r, self->tool, "cfg", "capture", "--dev", dev, "-o", self->out, "--",
		       self->self_exe, NULL);
	clear_writer_env();
	ASSERT_EQ(0, ret);
	EXPECT_EQ(0, r->status) TH_LOG("stdout: %s\nstderr: %s", r->out, r->err);
	snprintf(msg, sizeof(msg), "captured %zu config writes of device %u into %s\n",
		 NWRITES, self->dev, self->out);
	EXPECT_STREQ(msg, r->out);
	expect_capture(_metadata, self->out, want, NWRITES);
	EXPECT_FALSE(instances_left());

	/* the other device's capture has its one write only */
	if (self->other >= 0) {
		snprintf(dev, sizeof(dev), "%d", self->other);
		ASSERT_EQ(0, ixt_reset_device(self->dev));
		ASSERT_EQ(0, ixt_reset_device((uint32_t)self->other));
		set_writer_env(self->dev, self->other);
		ret = ixt_run_tool(r, self->tool, "cfg", "capture", "--dev", dev, "-o", self->out,
			       "--", self->self_exe, NULL);
		clear_writer_env();
		ASSERT_EQ(0, ret);
		EXPECT_EQ(0, r->status) TH_LOG("stdout: %s\nstderr: %s", r->out, r->err);
		expect_capture(_metadata, self->out, &other_write, 1);
	}
	free(r);
}

TEST_F_TIMEOUT(cap, capture_between_start_and_stop, 60)
{
	struct ipuxcom_cfg_record want[NWRITES];
	struct ixt_run *r = malloc(sizeof(*r));
	char dev[16], msg[160];

	ASSERT_NE(NULL, r);
	expected_writes(want);
	snprintf(dev, sizeof(dev), "%u", self->dev);
	/* -j: start and stop say what they did as JSON (the text: capture_command) */
	ASSERT_EQ(0, ixt_run_tool(r, self->tool, "cfg", "capture", "start", "--dev", dev, "-j",
				  NULL));
	EXPECT_EQ(0, r->status) TH_LOG("stderr: %s", r->err);
	snprintf(msg, sizeof(msg), "{\"dev\":%u,\"capturing\":true}\n", self->dev);
	EXPECT_STREQ(msg, r->out);
	/* one span at a time */
	ASSERT_EQ(0, ixt_run_tool(r, self->tool, "cfg", "capture", "start", "--dev", dev, NULL));
	EXPECT_EQ(1, r->status);
	EXPECT_NE(NULL, strstr(r->err, "a capture is already running")) TH_LOG("%s", r->err);
	/* the writes, from this very process this time */
	EXPECT_EQ(0, do_writes(self->dev, self->other));
	ASSERT_EQ(0, ixt_run_tool(r, self->tool, "cfg", "capture", "stop", "-o", self->out, "--json",
				  NULL));
	EXPECT_EQ(0, r->status) TH_LOG("stdout: %s\nstderr: %s", r->out, r->err);
	snprintf(msg, sizeof(msg), "{\"output\":\"%s\",\"dev\":%u,\"records\":%zu}\n", self->out,
		 self->dev, NWRITES);
	EXPECT_STREQ(msg, r->out);
	expect_capture(_metadata, self->out, want, NWRITES);
	EXPECT_FALSE(instances_left());
	/* nothing left to stop */
	ASSERT_EQ(0, ixt_run_tool(r, self->tool, "cfg", "capture", "stop", "-o", self->out, NULL));
	EXPECT_EQ(1, r->status);
	EXPECT_NE(NULL, strstr(r->err, "no capture running")) TH_LOG("%s", r->err);
	free(r);
}

TEST_F_TIMEOUT(cap, capture_failures_write_nothing, 60)
{
	struct ixt_run *r = malloc(sizeof(*r));
	char dev[16], msg[96];
	struct stat st;

	ASSERT_NE(NULL, r);
	snprintf(dev, sizeof(dev), "%u", self->dev);
	ASSERT_EQ(0, ixt_run_tool(r, self->tool, "cfg", "capture", "--dev", dev, "-o", self->out,
			      "--", "sh", "-c", "exit 3", NULL));
	EXPECT_EQ(1, r->status);
	EXPECT_NE(NULL, strstr(r->err, "failed with exit status 3")) TH_LOG("%s", r->err);
	EXPECT_NE(0, stat(self->out, &st));
	ASSERT_EQ(0, ixt_run_tool(r, self->tool, "cfg", "capture", "--dev", dev, "-o", self->out,
			      "--", "true", NULL));
	EXPECT_EQ(1, r->status);
	snprintf(msg, sizeof(msg), "no config writes captured on device %u", self->dev);
	EXPECT_NE(NULL, strstr(r->err, msg)) TH_LOG("%s", r->err);
	EXPECT_NE(0, stat(self->out, &st));
	ASSERT_EQ(0, ixt_run_tool(r, self->tool, "cfg", "capture", "-o", self->out,
			      "--", "/nonexistent/program", NULL));
	EXPECT_EQ(1, r->status);
	EXPECT_NE(NULL, strstr(r->err, "cannot run '/nonexistent/program'"))
		TH_LOG("%s", r->err);
	EXPECT_NE(0, stat(self->out, &st));
	EXPECT_FALSE(instances_left());
	free(r);
}

TEST_HARNESS_MAIN
