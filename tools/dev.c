// SPDX-License-Identifier: GPL-2.0
/*
 * ipuxcom dev ...: the devices the module knows, over generic netlink so
 * that listing needs neither the device node nor an attach (and works
 * while another process holds a device).
 */
#include <inttypes.h>

#include <ipuxcom.h>

#include "cli.h"
#include "json.h"

static void dev_json(const struct ipuxcom_device_info *devs, size_t n)
{
	struct json_writer w;
	char capbuf[16];

	json_init(&w, stdout);
	json_begin_array(&w);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(&w);
		json_kv_uint(&w, "id", devs[i].dev_id);
		json_kv_string(&w, "backend", devs[i].backend);
		json_kv_string(&w, "state", ipuxcom_dev_state_name(devs[i].state));
		json_kv_uint(&w, "tiles", devs[i].tile_count);
		json_key(&w, "capabilities");
		json_begin_array(&w);
		for (unsigned int bit = 0; bit < 64; bit++)
			if (devs[i].capabilities & (1ULL << bit))
				json_string(&w, cli_cap_name(bit, capbuf, sizeof(capbuf)));
		json_end_array(&w);
		/* null, not 0: pid 0 is not a process. */
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
		putchar('\n');
	}
}

static int dev_show_run(struct cli_call *call, int argc, char **argv)
{
	struct ipuxcom_device_info one, *list = NULL;
	struct ipuxcom_nl *nl;
	uint32_t id = 0;
	char *pos[1];
	int npos, rc, err;
	size_t n;

	rc = cli_parse(call, argc, argv, NULL, 0, true, pos, 1, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	/* Checked before talking to the kernel: a typo is a usage error. */
	if (npos && !cli_parse_u32(pos[0], &id))
		return cli_usage_err(call, "invalid device id '%s'", pos[0]);

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
		dev_json(npos ? &one : list, n);
	else
		dev_text(npos ? &one : list, n);
	ipuxcom_nl_dev_list_free(list);
	return CLI_EXIT_OK;
}

static const char *reset_dev_arg;

static const struct cli_opt reset_opts[] = {
	{ .lname = "dev", .arg = "ID", .help = "device id (default 0)", .value = &reset_dev_arg },
};

static int dev_reset_run(struct cli_call *call, int argc, char **argv)
{
	struct ipuxcom *ipu;
	uint32_t state = 0;
	int npos, rc, err;

	reset_dev_arg = NULL;
	rc = cli_parse(call, argc, argv, reset_opts, 1, false, NULL, 0, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_open_attached(call, reset_dev_arg, &ipu);
	if (rc)
		return rc;
	err = ipuxcom_reset(ipu, &state);
	ipuxcom_close(ipu);
	if (err) {
		cli_err(call->what, "%s", ipuxcom_strerror(err));
		return CLI_EXIT_ERR;
	}
	printf("state %s\n", ipuxcom_dev_state_name(state));
	return CLI_EXIT_OK;
}

static const struct cli_cmd dev_cmds[] = {
	{
		.name = "show",
		.args = "[ID] [-j|--json]",
		.summary = "list the devices, or show device ID",
		.description =
			"List every device the module knows, or only device ID, one per line:\n"
			"  dev ID: backend NAME state STATE tiles N pid PID|- caps CAP,...\n"
			"With --json: an array of objects with the keys id, backend, state,\n"
			"tiles, capabilities (the commands its backend serves) and\n"
			"attached_pid (null when no process has it attached).\n"
			"Uses generic netlink: needs neither the device node nor an attach.",
		.run = dev_show_run,
	},
	{
		.name = "reset",
		.args = "[--dev ID]",
		.summary = "reset a device to its power-on state",
		.description =
			"Attach to device ID (default 0), reset it, and print the new state.\n"
			"This is how a device leaves the needs-reset state after a timeout.\n"
			"Fails with 'device attached by another open file' while another\n"
			"process holds the device.",
		.run = dev_reset_run,
	},
};

const struct cli_object cli_obj_dev = {
	.name = "dev",
	.summary = "the IPU devices the module knows",
	.cmds = dev_cmds,
	.ncmds = sizeof(dev_cmds) / sizeof(dev_cmds[0]),
	.default_cmd = "show",
};
