// SPDX-License-Identifier: GPL-2.0-only
/*
 * Explanations of errors (explain.h). The module says only -EBADFD when
 * the state forbids a command (uapi/linux/ipuxcom.h, enum
 * ipuxcom_dev_state); the state itself is one DEV_QUERY away.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <ipuxcom.h>

#include "cli.h"
#include "explain.h"

/* The way out of each state, for a command the state does not allow. */
static const char *state_advice(uint32_t state)
{
	switch (state) {
	case IPUXCOM_DEV_STATE_IDLE:
		return "is idle (nothing loaded, no load in progress): `" CLI_PROG
		       " load IMAGE` first";
	case IPUXCOM_DEV_STATE_BOOTLOADER:
	case IPUXCOM_DEV_STATE_LOADING:
		return "is in the middle of a load: let it finish, or `" CLI_PROG
		       " dev reset` to abandon it";
	case IPUXCOM_DEV_STATE_RUNNING:
		return "is running: `" CLI_PROG " dev reset` first";
	case IPUXCOM_DEV_STATE_NEEDS_RESET:
		return "needs a reset (a sequence left half done, or another user attached it "
		       "last): `" CLI_PROG " dev reset`";
	case IPUXCOM_DEV_STATE_GONE:
		return "is gone (removed)";
	}
	return NULL;
}

/* Fill @info, or false when the device cannot say. */
static bool query(struct ipuxcom *ipu, struct ipuxcom_device_info *info)
{
	return ipu && !ipuxcom_dev_query(ipu, info);
}

const char *cli_dev_strerror(struct ipuxcom *ipu, int err, char *buf, size_t len)
{
	struct ipuxcom_device_info info;
	const char *advice;

	if (err != -EBADFD || !query(ipu, &info))
		return ipuxcom_strerror(err);
	advice = state_advice(info.state);
	if (advice)
		snprintf(buf, len, "device %" PRIu32 " %s", info.dev_id, advice);
	else
		snprintf(buf, len, "device %" PRIu32 " is in state %s, which does not allow "
			 "this command", info.dev_id, ipuxcom_dev_state_name(info.state));
	return buf;
}

const char *cli_tdi_strerror(struct ipuxcom *ipu, int err, char *buf, size_t len)
{
	struct ipuxcom_device_info info;

	if (err != -ENOEXEC)
		return cli_dev_strerror(ipu, err, buf, len);
	/* docs/tdi.md: an inactive context (or a not-quiescent one) cannot be injected into. */
	if (query(ipu, &info) && info.state == IPUXCOM_DEV_STATE_IDLE)
		snprintf(buf, len, "the tile's supervisor context is not running: device %" PRIu32
			 " is idle (nothing loaded), so there is no context to stop and read "
			 "through: `" CLI_PROG " load IMAGE` first", info.dev_id);
	else
		snprintf(buf, len, "the tile's supervisor context is not running or not "
			 "quiescent: TDI needs a context it can stop");
	return buf;
}

void cli_file_err(const struct cli_call *call, const char *path, const struct ipuxcom_errmsg *em,
		  int err)
{
	if (em->msg[0])
		cli_err(call->what, "%s", em->msg);
	else
		cli_err(call->what, "%s: %s", path, ipuxcom_strerror(err));
}
