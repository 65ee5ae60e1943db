// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom info: what the loaded module is and can do (IPUXCOM_IOC_INFO).
 */
#include <inttypes.h>

#include <ipuxcom.h>

#include "cli.h"
#include "json_fmt.h"

static const struct {
	uint64_t bit;
	const char *name;
} caps[] = {
	{ IPUXCOM_CAP_ATTACH, "attach" },
	{ IPUXCOM_CAP_REG, "reg" },
	{ IPUXCOM_CAP_RESET, "reset" },
	{ IPUXCOM_CAP_NETLINK, "netlink" },
	{ IPUXCOM_CAP_CFG, "cfg" },
	{ IPUXCOM_CAP_AUTOLOAD, "autoload" },
	{ IPUXCOM_CAP_LOADER, "loader" },
	{ IPUXCOM_CAP_HSP, "hsp" },
	{ IPUXCOM_CAP_TDI, "tdi" },
	{ IPUXCOM_CAP_HOSTX, "hostx" },
	{ IPUXCOM_CAP_EXCH_WINDOW, "exch-window" },
	{ IPUXCOM_CAP_IPU_DRIVER, "ipu-driver" },
};

/* A newer module may set bits this tool does not know: show them as "bitN". */
const char *cli_cap_name(unsigned int bit, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		if (caps[i].bit == 1ULL << bit)
			return caps[i].name;
	snprintf(buf, len, "bit%u", bit);
	return buf;
}

static void info_json(const struct cli_call *call, const struct ipuxcom_info *info)
{
	struct json_writer w;
	char buf[16];

	json_init_call(&w, stdout, call);
	json_begin_object(&w);
	json_kv_uint(&w, "uapi_version", info->uapi_version);
	json_kv_uint(&w, "device_count", info->device_count);
	json_key(&w, "capabilities");
	json_begin_array(&w);
	for (unsigned int bit = 0; bit < 64; bit++)
		if (info->capabilities & (1ULL << bit))
			json_string(&w, cli_cap_name(bit, buf, sizeof(buf)));
	json_end_array(&w);
	json_kv_hex64(&w, "capabilities_mask", info->capabilities);
	json_kv_uint(&w, "max_config_bar", info->max_config_bar);
	json_end_object(&w);
}

static void info_text(const struct ipuxcom_info *info)
{
	char buf[16];

	printf("uapi version %" PRIu32, info->uapi_version);
	if (info->uapi_version != IPUXCOM_UAPI_VERSION)
		printf(" (this tool was built for %d)", IPUXCOM_UAPI_VERSION);
	printf("\ndevices %" PRIu32 "\ncapabilities", info->device_count);
	if (!info->capabilities)
		fputs(" none", stdout);
	for (unsigned int bit = 0; bit < 64; bit++)
		if (info->capabilities & (1ULL << bit))
			printf(" %s", cli_cap_name(bit, buf, sizeof(buf)));
	printf("\nmax config bar %" PRIu32 " bytes\n", info->max_config_bar);
}

static int info_run(struct cli_call *call, int argc, char **argv)
{
	struct ipuxcom_info info = IPUXCOM_INFO_INIT;
	struct ipuxcom *ipu;
	int npos, rc, err;

	rc = cli_parse(call, argc, argv, NULL, 0, true, NULL, 0, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_open_device(call, &ipu);
	if (rc)
		return rc;
	err = ipuxcom_get_info(ipu, &info);
	ipuxcom_close(ipu);
	if (err) {
		cli_err(call->what, "IPUXCOM_IOC_INFO on %s: %s", cli_device_path(call),
			ipuxcom_strerror(err));
		return CLI_EXIT_ERR;
	}
	if (call->json)
		info_json(call, &info);
	else
		info_text(&info);
	return CLI_EXIT_OK;
}

static const struct cli_cmd info_cmds[] = {
	{
		.name = NULL,
		.args = "[-j|--json]",
		.summary = "module version, device count and capabilities",
		.description =
			"Show the ipuxcom module's uapi version, how many devices it has,\n"
			"its capabilities and the config-BAR size (IPUXCOM_IOC_INFO on the\n"
			"device node, which needs no attached device).",
		.run = info_run,
	},
};

const struct cli_object cli_obj_info = {
	.name = "info",
	.summary = "module version, device count and capabilities",
	.cmds = info_cmds,
	.ncmds = sizeof(info_cmds) / sizeof(info_cmds[0]),
};
