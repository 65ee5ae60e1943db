// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom dev ...: the devices the module knows, over generic netlink so
 * that listing needs neither the device node nor an attach (and works
 * while another process holds a device).
 */
#include <inttypes.h>
#include <string.h>

#include <ipuxcom.h>

#include "cli.h"
#include "json_fmt.h"

static void dev_json(const struct cli_call *call, const struct ipuxcom_device_info *devs,
		     size_t n)
{
	struct json_writer w;
	char capbuf[16];

	json_init_call(&w, stdout, call);
	json_begin_array(&w);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(&w);
		json_kv_uint(&w, "dev", devs[i].dev_id);
		json_kv_string(&w, "backend", devs[i].backend);
		json_kv_string(&w, "state", ipuxcom_dev_state_name(devs[i].state));
		json_kv_uint(&w, "tiles", devs[i].tile_count);
		json_key(&w, "capabilities");
		json_begin_array(&w);
		for (unsigned int bit = 0; bit < 64; bit++)
			if (devs[i].capabilities & (1ULL << bit))
				json_string(&w, cli_cap_name(bit, capbuf, sizeof(capbuf)));
		json_end_array(&w);
		/* The ipu_driver node a device is held through; null for others. */
		json_key(&w, "ipu_node");
		if (devs[i].ipu_node[0])
			json_string(&w, devs[i].ipu_node);
		else
			json_null(&w);
		json_key(&w, "attached");
		json_bool(&w, devs[i].attached != 0);
		/* null, not 0: pid 0 is not a process (or it is not shown to us) */
		json_key(&w, "attached_pid");
		if (devs[i].attached_pid)
			json_uint(&w, devs[i].attached_pid);
		else
			json_null(&w);
		json_end_object(&w);
	}
	json_end_array(&w);
}

static void dev_text(const struct ipuxcom_device_info *devs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct ipuxcom_device_info *d = &devs[i];
		char backend[sizeof(d->backend)];

		printf("dev %" PRIu32 ": backend %s state %s tiles %" PRIu32 " pid ", d->dev_id,
		       d->backend[0] ? cli_printable(d->backend, backend, sizeof(backend)) : "-",
		       ipuxcom_dev_state_name(d->state), d->tile_count);
		if (d->attached_pid)
			printf("%" PRIu32, d->attached_pid);
		else if (d->attached)
			fputs("hidden", stdout);	/* attached; the pid needs CAP_NET_ADMIN */
		else
			putchar('-');
		fputs(" caps", stdout);
		for (unsigned int bit = 0, sep = ' '; bit < 64; bit++) {
			char capbuf[16];

			if (!(d->capabilities & (1ULL << bit)))
				continue;
			printf("%c%s", sep, cli_cap_name(bit, capbuf, sizeof(capbuf)));
			sep = ',';
		}
		if (d->ipu_node[0]) {
			char node[sizeof(d->ipu_node)];

			printf(" ipu %s", cli_printable(d->ipu_node, node, sizeof(node)));
		}
		putchar('\n');
	}
}

static int dev_show_run(struct cli_call *call, int argc, char **argv)
{
	struct ipuxcom_device_info one, *list = NULL;
	struct ipuxcom_nl *nl;
	uint32_t id = 0;
	const char *dev;
	char *pos[1];
	int npos, rc, err;
	size_t n;

	rc = cli_parse(call, argc, argv, NULL, 0, true, pos, 1, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	/* "dev show ID" or "dev show --dev ID" */
	rc = cli_dev_arg(call, npos ? pos[0] : NULL, &dev);
	if (rc != CLI_CONTINUE)
		return rc;
	npos = dev != NULL;
	/* Checked before talking to the kernel: a typo is a usage error. */
	if (dev && !cli_parse_u32(dev, &id))
		return cli_usage_err(call, "invalid device id '%s': a decimal number", dev);

	rc = cli_open_netlink(call, &nl);
	if (rc)
		return rc;
	if (npos) {
		err = ipuxcom_nl_dev_get(nl, id, &one);
		n = 1;
		if (err)
			cli_nl_err(call, nl, err, "device %" PRIu32, id);
	} else {
		err = ipuxcom_nl_dev_list(nl, &list, &n);
		if (err)
			cli_nl_err(call, nl, err, "listing devices");
	}
	ipuxcom_nl_close(nl);
	if (err)
		return CLI_EXIT_ERR;

	if (call->json)
		dev_json(call, npos ? &one : list, n);
	else
		dev_text(npos ? &one : list, n);
	ipuxcom_nl_dev_list_free(list);
	return CLI_EXIT_OK;
}

static const char *reset_dev_arg;

static const struct cli_opt reset_opts[] = {
	{ .lname = "dev", .arg = "ID", .help = "device id (default: the lowest registered)", .value = &reset_dev_arg },
};

static int dev_reset_run(struct cli_call *call, int argc, char **argv)
{
	struct ipuxcom_device_info info;
	struct ipuxcom *ipu;
	uint32_t state = 0;
	int npos, rc, err;

	reset_dev_arg = NULL;
	rc = cli_parse(call, argc, argv, reset_opts, 1, true, NULL, 0, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_open_attached(call, reset_dev_arg, &ipu);
	if (rc)
		return rc;
	err = ipuxcom_reset(ipu, &state);
	if (err)
		cli_err(call->what, "%s", *ipuxcom_errmsg(ipu) ? ipuxcom_errmsg(ipu) :
			ipuxcom_strerror(err));
	/* The id attached to (the default, or --dev's), for the JSON object. */
	else if (call->json && (err = ipuxcom_dev_query(ipu, &info)))
		cli_err(call->what, "after the reset: %s", ipuxcom_strerror(err));
	ipuxcom_close(ipu);
	if (err)
		return CLI_EXIT_ERR;
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_uint(&w, "dev", info.dev_id);
		json_kv_string(&w, "state", ipuxcom_dev_state_name(state));
		json_end_object(&w);
	} else {
		printf("state %s\n", ipuxcom_dev_state_name(state));
	}
	return CLI_EXIT_OK;
}

static void init_json(const struct cli_call *call, uint32_t dev,
		      const struct ipuxcom_init_report *rep, int err)
{
	struct json_writer w;

	json_init_call(&w, stdout, call);
	json_begin_object(&w);
	json_kv_uint(&w, "dev", dev);
	json_key(&w, "ipu_driver");
	json_bool(&w, rep->ipu_driver);
	json_key(&w, "ipu_node");
	if (rep->ipu_node[0])
		json_string(&w, rep->ipu_node);
	else
		json_null(&w);
	json_key(&w, "steps");
	json_begin_array(&w);
	for (uint32_t s = 1; s < IPUXCOM_INIT_STEPS; s++) {
		json_begin_object(&w);
		json_kv_uint(&w, "step", s);
		json_kv_string(&w, "name", ipuxcom_init_step_name(s));
		json_kv_string(&w, "status", ipuxcom_init_status_name(rep->status[s]));
		if (rep->status[s] == IPUXCOM_INIT_FAILED)
			/* errno as a positive number: the writer has no signed integers */
			json_kv_uint(&w, "errno", 0u - (uint32_t)rep->error);
		if (s == IPUXCOM_INIT_STEP_ICU_RESET && rep->icu_reply_valid) {
			json_key(&w, "reply");
			json_begin_array(&w);
			for (size_t i = 0; i < sizeof(rep->icu_reply) / sizeof(rep->icu_reply[0]); i++)
				json_hex32(&w, rep->icu_reply[i]);
			json_end_array(&w);
		}
		json_end_object(&w);
	}
	json_end_array(&w);
	json_key(&w, "state");
	if (err)
		json_null(&w);
	else
		json_string(&w, ipuxcom_dev_state_name(rep->state));
	json_key(&w, "error");
	if (err)
		json_string(&w, rep->msg[0] ? rep->msg : ipuxcom_strerror(err));
	else
		json_null(&w);
	json_end_object(&w);
	putchar('\n');
}

static void init_text(FILE *f, const struct ipuxcom_init_report *rep, int err)
{
	char node[IPUXCOM_IPU_NODE_LEN];

	if (rep->ipu_driver)
		fprintf(f, "ipu_driver: /dev/%s (open, USER_ATTACH, SET_IPU_ID done at attach)\n",
		       cli_printable(rep->ipu_node[0] ? rep->ipu_node : "ipu?", node,
				     sizeof(node)));
	else
		fprintf(f, "ipu_driver: device not held through it: steps 1-6 not applicable\n");
	for (uint32_t s = 1; s < IPUXCOM_INIT_STEPS; s++) {
		fprintf(f, "step %" PRIu32 " (%s): %s", s, ipuxcom_init_step_name(s),
		       ipuxcom_init_status_name(rep->status[s]));
		if (s == IPUXCOM_INIT_STEP_ICU_RESET && rep->icu_reply_valid)
			fprintf(f, ", reply 0x%08" PRIx32 " 0x%08" PRIx32 " 0x%08" PRIx32 " 0x%08"
			       PRIx32 " 0x%08" PRIx32, rep->icu_reply[0], rep->icu_reply[1],
			       rep->icu_reply[2], rep->icu_reply[3], rep->icu_reply[4]);
		fputc('\n', f);
	}
	if (!err)
		fprintf(f, "state %s\n", ipuxcom_dev_state_name(rep->state));
}

int cli_dev_init(const struct cli_call *call, struct ipuxcom *ipu, uint32_t dev, bool quiet,
		 FILE *f)
{
	struct ipuxcom_init_report rep = IPUXCOM_INIT_REPORT_INIT;
	int err = ipuxcom_dev_init(ipu, &rep);

	if (call->json)
		init_json(call, dev, &rep, err);
	else if (!quiet || err)
		init_text(f, &rep, err);
	if (!err)
		return 0;
	cli_err(call->what, "init: %s", rep.msg[0] ? rep.msg :
		*ipuxcom_errmsg(ipu) ? ipuxcom_errmsg(ipu) : ipuxcom_strerror(err));
	return CLI_EXIT_ERR;
}

static const char *init_dev_arg;

static const struct cli_opt init_opts[] = {
	{ .lname = "dev", .arg = "ID", .help = "device id (default: the lowest registered)", .value = &init_dev_arg },
};

static int dev_init_run(struct cli_call *call, int argc, char **argv)
{
	struct ipuxcom *ipu;
	uint32_t dev = 0;
	char *pos[1];
	int npos, rc;

	init_dev_arg = NULL;
	rc = cli_parse(call, argc, argv, init_opts, 1, true, pos, 1, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	/* "dev init 1", as "dev show 1" names it, or "--dev 1", as "dev reset" does. */
	if (npos && init_dev_arg && strcmp(pos[0], init_dev_arg))
		return cli_usage_err(call, "device given twice ('%s' and --dev '%s')", pos[0],
				     init_dev_arg);
	rc = cli_open_attached_id(call, npos ? pos[0] : init_dev_arg, &ipu, &dev);
	if (rc)
		return rc;
	rc = cli_dev_init(call, ipu, dev, false, stdout);
	ipuxcom_close(ipu);
	return rc ? rc : CLI_EXIT_OK;
}

static const struct cli_cmd dev_cmds[] = {
	{
		.name = "show",
		.args = "[ID|--dev ID] [-j|--json]",
		.summary = "list the devices, or show device ID",
		.description =
			"List every device the module knows, or only device ID, one per line:\n"
			"  dev ID: backend NAME state STATE tiles N pid PID|hidden|- caps CAP,...\n"
			"followed by ' ipu NODE' for a device held through ipu_driver while a\n"
			"session holds it (the node that session attached it by).\n"
			"The pid of the attached process is shown to callers with\n"
			"CAP_NET_ADMIN; others see 'hidden' for an attached device.\n"
			"With --json: an array of objects with the keys dev, backend, state,\n"
			"tiles, capabilities (the commands its backend serves), ipu_node (the\n"
			"ipu_driver node of the attached session, null otherwise), attached (true when a\n"
			"process has it attached) and attached_pid (null when none, or when\n"
			"not shown to this caller).\n"
			"Uses generic netlink: needs neither the device node nor an attach.",
		.run = dev_show_run,
		.takes_dev = true,
	},
	{
		.name = "reset",
		.args = "[--dev ID] [-j|--json]",
		.summary = "reset a device to its power-on state",
		.description =
			"Attach to device ID (default: the lowest registered), reset it, and print the new state.\n"
			"This is how a device leaves the needs-reset state after a timeout.\n"
			"A device held through ipu_driver is reset by ipu_driver: its buffers\n"
			"are detached (BUFFER_DETACH_ALL) and RESET_DEVICE issued on /dev/ipuN\n"
			"before the module's state returns to idle.\n"
			"Fails with 'device attached by another open file' while another\n"
			"process holds the device.\n"
			"With --json: {\"dev\":ID,\"state\":STATE}.",
		.run = dev_reset_run,
		.takes_dev = true,
	},
	{
		.name = "init",
		.args = "[ID|--dev ID] [-j|--json]",
		.summary = "initialise a device from ipu_driver's idle state",
		.description =
			"Attach to device ID (default: the lowest registered) and initialise it, the first step of a\n"
			"load on a real card. A device held through Graphcore's ipu_driver is\n"
			"attached through its /dev/ipuN (open, USER_ATTACH, SET_IPU_ID), then\n"
			"initialised there as the loader that completed loads on a C600 does:\n"
			"  step 1 STOP_MONITORING, step 2 ICU mailbox reset (MAILBOX_WRITE_READ\n"
			"  [0x4078020e,0,0,0,0]; word 0 of the reply must carry 0x4078 in bits\n"
			"  31:16), step 3 START_MONITORING, step 4 ACCUMULATE_ERRORS,\n"
			"  step 5 RESET_DEVICE 0, step 6 SET_SECONDARY_IPU_ID,\n"
			"then step 7 resets the module's state to idle. On any other device (the\n"
			"simulator) steps 1-6 are not applicable and step 7 is a plain reset.\n"
			"Prints each step with done, failed, not run or not applicable, and the\n"
			"new state; the first failing step ends it, e.g.\n"
			"  step 2 (ICU mailbox reset): reply word 0 0x12345678, expected 0x4078xxxx\n"
			"With --json: one object with the keys ipu_driver, ipu_node, steps (step,\n"
			"name, status, errno when failed, reply for step 2), state and error.",
		.run = dev_init_run,
		.takes_dev = true,
	},
};

const struct cli_object cli_obj_dev = {
	.name = "dev",
	.summary = "the IPU devices the module knows",
	.cmds = dev_cmds,
	.ncmds = sizeof(dev_cmds) / sizeof(dev_cmds[0]),
	.default_cmd = "show",
};
