// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom monitor: print the module's netlink events as they happen, one
 * line each, like `devlink monitor` (or one JSON document per line).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <ipuxcom.h>

#include "cli.h"
#include "json_fmt.h"

static const char *dev_arg, *count_arg, *timeout_arg;
static bool timestamps;

static const struct cli_opt monitor_opts[] = {
	{ .lname = "timestamp", .sname = 't', .help = "print when each event was received",
	  .flag = &timestamps },
	{ .lname = "dev", .arg = "ID", .help = "only events of device ID", .value = &dev_arg },
	{ .lname = "count", .arg = "N", .help = "exit after N events", .value = &count_arg },
	{ .lname = "timeout-ms", .arg = "MS",
	  .help = "exit (status 0) after MS milliseconds without an event", .value = &timeout_arg },
};

#define NOPTS (sizeof(monitor_opts) / sizeof(monitor_opts[0]))

/* Why a wait ended, in the words of a handshake rather than a socket. */
static const char *wait_error(int32_t err)
{
	switch (err) {
	case -ETIMEDOUT:
		return "timed out";
	case -EINTR:
		return "the waiting process was killed";
	default:
		return ipuxcom_strerror(err);
	}
}

static void print_text(const struct ipuxcom_event *ev)
{
	char name[48], backend[IPUXCOM_BACKEND_NAME_LEN];

	printf("dev %" PRIu32 ": ", ev->dev_id);
	switch (ev->type) {
	case IPUXCOM_GENL_CMD_DEV_NEW:
		printf("new, backend %s state %s tiles %" PRIu32 "\n",
		       cli_printable(ev->dev.backend, backend, sizeof(backend)),
		       ipuxcom_dev_state_name(ev->state), ev->dev.tile_count);
		break;
	case IPUXCOM_GENL_CMD_DEV_DEL:
		puts("removed");
		break;
	case IPUXCOM_GENL_CMD_STATE:
		printf("state %s -> %s\n", ipuxcom_dev_state_name(ev->old_state),
		       ipuxcom_dev_state_name(ev->state));
		break;
	case IPUXCOM_GENL_CMD_LOAD_PROGRESS:
		printf("load progress batch %" PRIu32 "/%" PRIu32 " (%" PRIu64 " byte%s)\n",
		       ev->batch, ev->batches, ev->bytes, cli_s(ev->bytes));
		break;
	case IPUXCOM_GENL_CMD_TIMEOUT:
		ipuxcom_cfg_reg_name(ev->reg, name, sizeof(name));
		printf("timeout at 0x%04" PRIx32 "%s%s%s, last value 0x%08" PRIx32 ": %s\n",
		       ev->reg, name[0] ? " (" : "", name, name[0] ? ")" : "", ev->value,
		       wait_error(ev->error));
		break;
	case IPUXCOM_GENL_CMD_RESET:
		if (ev->error)
			printf("reset failed: %s\n", ipuxcom_strerror(ev->error));
		else
			puts("reset");
		break;
	default:
		printf("%s\n", ipuxcom_event_name(ev->type));
		break;
	}
}

/*
 * Now, as RFC 3339 local time with microseconds ("2026-12-01T04:20:00.123456+01:00"):
 * sortable, and what people and JSON tools both read. The kernel sends no
 * time with an event: this is when it was received.
 */
static const char *timestamp(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	char zone[8];
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);	/* +hhmm: RFC 3339 wants +hh:mm */
	snprintf(buf + n, len - n, ".%06ld%.3s:%.2s", ts.tv_nsec / 1000, zone, zone + 3);
	return buf;
}

static void print_json(const struct cli_call *call, const struct ipuxcom_event *ev,
		       const char *time)
{
	struct json_writer w;
	char name[48];

	json_init_call(&w, stdout, call);
	json_begin_object(&w);
	if (time)
		json_kv_string(&w, "time", time);
	json_kv_string(&w, "event", ipuxcom_event_name(ev->type));
	json_kv_uint(&w, "dev", ev->dev_id);
	switch (ev->type) {
	case IPUXCOM_GENL_CMD_DEV_NEW:
		json_kv_string(&w, "backend", ev->dev.backend);
		json_kv_string(&w, "state", ipuxcom_dev_state_name(ev->state));
		json_kv_uint(&w, "tiles", ev->dev.tile_count);
		break;
	case IPUXCOM_GENL_CMD_STATE:
		json_kv_string(&w, "state", ipuxcom_dev_state_name(ev->state));
		json_kv_string(&w, "old_state", ipuxcom_dev_state_name(ev->old_state));
		break;
	case IPUXCOM_GENL_CMD_LOAD_PROGRESS:
		json_kv_uint(&w, "batch", ev->batch);
		json_kv_uint(&w, "batches", ev->batches);
		json_kv_uint(&w, "bytes", ev->bytes);
		break;
	case IPUXCOM_GENL_CMD_TIMEOUT:
		json_kv_hex32(&w, "reg", ev->reg);
		json_kv_string(&w, "register", ipuxcom_cfg_reg_name(ev->reg, name, sizeof(name)));
		json_kv_hex32(&w, "value", ev->value);
		/* errno as a positive number: the writer has no signed integers */
		json_kv_uint(&w, "errno", 0u - (uint32_t)ev->error);
		json_kv_string(&w, "error", wait_error(ev->error));
		break;
	case IPUXCOM_GENL_CMD_RESET:
		json_kv_uint(&w, "errno", 0u - (uint32_t)ev->error);
		if (ev->error)
			json_kv_string(&w, "error", ipuxcom_strerror(ev->error));
		break;
	default:
		break;
	}
	json_end_object(&w);
}

/* Overflow: in the stream, where whoever reads events will see it. */
static void print_lost(const struct cli_call *call)
{
	char time[48];

	if (timestamps)
		timestamp(time, sizeof(time));
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		if (timestamps)
			json_kv_string(&w, "time", time);
		json_kv_string(&w, "event", "lost");
		json_end_object(&w);
	} else {
		printf("%s%s%sevents lost: the receive buffer overflowed\n", timestamps ? "[" : "",
		       timestamps ? time : "", timestamps ? "] " : "");
	}
	fflush(stdout);
	cli_err(call->what, "events were lost (socket receive buffer overflow); "
		"device states may have changed unseen");
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int monitor_run(struct cli_call *call, int argc, char **argv)
{
	struct ipuxcom_monitor *mon;
	uint32_t dev = 0, count = 0, timeout = 0, seen = 0;
	int64_t deadline = 0;
	int npos, rc, err;

	dev_arg = count_arg = timeout_arg = NULL;
	timestamps = false;
	rc = cli_parse(call, argc, argv, monitor_opts, NOPTS, true, NULL, 0, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (dev_arg && !cli_parse_u32(dev_arg, &dev))
		return cli_usage_err(call, "invalid device id '%s': a decimal number", dev_arg);
	if (count_arg && (!cli_parse_u32(count_arg, &count) || !count))
		return cli_usage_err(call, "invalid --count '%s': a decimal number, 1 or more",
				     count_arg);
	if (timeout_arg && (!cli_parse_u32(timeout_arg, &timeout) || !timeout ||
			    timeout > INT32_MAX))
		return cli_usage_err(call, "invalid --timeout-ms '%s': a decimal number of "
				     "milliseconds, 1..%d", timeout_arg, INT32_MAX);

	err = ipuxcom_monitor_open(&mon);
	if (err) {
		cli_err(call->what, "cannot watch events: %s", ipuxcom_strerror(err));
		return CLI_EXIT_ERR;
	}
	if (timeout)
		deadline = now_ms() + timeout;
	rc = CLI_EXIT_OK;
	for (;;) {
		struct ipuxcom_event ev = IPUXCOM_EVENT_INIT;
		char time[48];
		int wait = -1;

		if (timeout) {
			int64_t left = deadline - now_ms();

			if (left <= 0)
				break;	/* silence: done */
			wait = (int)left;
		}
		err = ipuxcom_monitor_next(mon, &ev, wait);
		if (err == -EAGAIN)
			continue;
		if (err == -ENOBUFS) {
			print_lost(call);
			continue;
		}
		if (err == -EPROTO) {
			cli_err(call->what, "dropped a malformed event");
			continue;
		}
		if (err) {
			cli_err(call->what, "receiving events: %s", ipuxcom_strerror(err));
			rc = CLI_EXIT_ERR;
			break;
		}
		if (dev_arg && ev.dev_id != dev)
			continue;
		if (timestamps)
			timestamp(time, sizeof(time));
		if (call->json) {
			print_json(call, &ev, timestamps ? time : NULL);
		} else {
			if (timestamps)
				printf("[%s] ", time);
			print_text(&ev);
		}
		/* A pipe reader sees each event as it happens. */
		if (fflush(stdout) || ferror(stdout)) {
			rc = CLI_EXIT_ERR;	/* main() reports the write error */
			break;
		}
		if (timeout)
			deadline = now_ms() + timeout;
		if (count && ++seen == count)
			break;
	}
	ipuxcom_monitor_close(mon);
	return rc;
}

static const struct cli_cmd monitor_cmds[] = {
	{
		.name = NULL,
		.args = "[-t] [--dev ID] [--count N] [--timeout-ms MS] [-j|--json]",
		.summary = "print device events as they happen",
		.description =
			"Join the ipuxcom netlink family's \"events\" multicast group and print\n"
			"each event on one line as it arrives: devices appearing and going,\n"
			"state changes, load progress (batch n/23 and its bytes), handshake\n"
			"timeouts with the register polled and the value last read, and resets.\n"
			"Needs no privilege and no attach. With --count, exit after N events;\n"
			"with --timeout-ms, exit after MS ms without one. If the kernel drops\n"
			"events because they were not read fast enough, a line says so (in JSON:\n"
			"{\"event\":\"lost\"}). With -t, each line starts with the local time the\n"
			"event was received, [2026-12-01T04:20:00.123456+01:00] (in JSON: a first\n"
			"key \"time\" with the same text). See docs/tracing.md.",
		.run = monitor_run,
		.takes_dev = true,
	},
};

const struct cli_object cli_obj_monitor = {
	.name = "monitor",
	.summary = "watch device events (state, load progress, timeouts, resets)",
	.cmds = monitor_cmds,
	.ncmds = sizeof(monitor_cmds) / sizeof(monitor_cmds[0]),
	.default_cmd = NULL,
};
