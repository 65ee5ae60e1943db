// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * ipuxcom_dev_init(): from a card that ipu_driver holds in driver-idle
 * state to the module's idle state, as the stack whose loads completed on
 * a C600 does it (HW-LOAD step 1, HW-DRV-INIT). The
 * open, USER_ATTACH and SET_IPU_ID of that step are ipuxcom_attach()'s;
 * the rest are the steps below, in this order, then the module's RESET
 * after ipu_driver's RESET_DEVICE (uapi IPUXCOM_RESET_F_DRIVER_RESET).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <linux/ipuxcom_ipu_driver.h>

#include "ipuxcom.h"
#include "internal.h"

static const char *const ixc_init_steps[IPUXCOM_INIT_STEPS] = {
	[IPUXCOM_INIT_STEP_STOP_MONITORING] = "STOP_MONITORING",
	[IPUXCOM_INIT_STEP_ICU_RESET] = "ICU mailbox reset",
	[IPUXCOM_INIT_STEP_START_MONITORING] = "START_MONITORING",
	[IPUXCOM_INIT_STEP_ACCUMULATE_ERRORS] = "ACCUMULATE_ERRORS",
	[IPUXCOM_INIT_STEP_RESET_DEVICE] = "RESET_DEVICE",
	[IPUXCOM_INIT_STEP_SECONDARY_IPU_ID] = "SET_SECONDARY_IPU_ID",
	[IPUXCOM_INIT_STEP_MODULE_RESET] = "module reset",
};

const char *ipuxcom_init_step_name(uint32_t step)
{
	return step < IPUXCOM_INIT_STEPS ? ixc_init_steps[step] : NULL;
}

const char *ipuxcom_init_status_name(uint32_t status)
{
	static const char *const names[] = {
		[IPUXCOM_INIT_NOT_RUN] = "not run",
		[IPUXCOM_INIT_DONE] = "done",
		[IPUXCOM_INIT_FAILED] = "failed",
		[IPUXCOM_INIT_NOT_APPLICABLE] = "not applicable",
	};

	return status < sizeof(names) / sizeof(names[0]) ? names[status] : "unknown";
}

/* Record step @step's result; on failure the message "step N (NAME): WHAT: ERROR". */
__attribute__((format(printf, 5, 6)))
static int init_step(struct ipuxcom *ipu, struct ipuxcom_init_report *rep, uint32_t step,
		     int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err) {
		rep->status[step] = IPUXCOM_INIT_DONE;
		return 0;
	}
	rep->status[step] = IPUXCOM_INIT_FAILED;
	rep->failed_step = step;
	rep->error = err;
	n = snprintf(rep->msg, sizeof(rep->msg), "step %" PRIu32 " (%s): ", step,
		     ixc_init_steps[step]);
	if (n > 0 && (size_t)n < sizeof(rep->msg)) {
		va_start(ap, fmt);
		vsnprintf(rep->msg + n, sizeof(rep->msg) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	snprintf(ipu->errmsg, sizeof(ipu->errmsg), "%s", rep->msg);
	return err;
}

/* *@calls counts the system calls made (ipuxcom_load()'s result). */
static int init_ipu_driver(struct ipuxcom *ipu, struct ipuxcom_init_report *rep, uint32_t *calls)
{
	static const uint32_t icu_reset[IPU_DRV_MAILBOX_WORDS] = { IPU_DRV_ICU_RESET_REQUEST };
	int fd = ipu->ipu_fd, err;

	++*calls;
	err = ixc_ipudrv_stop_monitoring(fd);
	if (init_step(ipu, rep, IPUXCOM_INIT_STEP_STOP_MONITORING, err, "%s", strerror(-err)))
		return err;
	++*calls;
	err = ixc_ipudrv_mailbox(fd, icu_reset, rep->icu_reply);
	if (err)
		return init_step(ipu, rep, IPUXCOM_INIT_STEP_ICU_RESET, err,
				 "MAILBOX_WRITE_READ [0x%08x,0,0,0,0]: %s",
				 IPU_DRV_ICU_RESET_REQUEST, strerror(-err));
	rep->icu_reply_valid = 1;
	if ((rep->icu_reply[0] & IPU_DRV_ICU_REPLY_MASK) != IPU_DRV_ICU_REPLY_TAG)
		return init_step(ipu, rep, IPUXCOM_INIT_STEP_ICU_RESET, -EPROTO,
				 "reply word 0 0x%08" PRIx32 ", expected 0x%04xxxxx (reply "
				 "0x%08" PRIx32 " 0x%08" PRIx32 " 0x%08" PRIx32 " 0x%08" PRIx32
				 " 0x%08" PRIx32 ")", rep->icu_reply[0],
				 IPU_DRV_ICU_REPLY_TAG >> 16, rep->icu_reply[0], rep->icu_reply[1],
				 rep->icu_reply[2], rep->icu_reply[3], rep->icu_reply[4]);
	rep->status[IPUXCOM_INIT_STEP_ICU_RESET] = IPUXCOM_INIT_DONE;
	++*calls;
	err = ixc_ipudrv_start_monitoring(fd);
	if (init_step(ipu, rep, IPUXCOM_INIT_STEP_START_MONITORING, err, "%s", strerror(-err)))
		return err;
	++*calls;
	err = ixc_ipudrv_accumulate_errors(fd);
	if (init_step(ipu, rep, IPUXCOM_INIT_STEP_ACCUMULATE_ERRORS, err, "%s", strerror(-err)))
		return err;
	++*calls;
	err = ixc_ipudrv_reset_device(fd);
	if (init_step(ipu, rep, IPUXCOM_INIT_STEP_RESET_DEVICE, err, "RESET_DEVICE 0: %s",
		      strerror(-err)))
		return err;
	++*calls;
	err = ixc_ipudrv_set_secondary_ipu_id(fd);
	if (init_step(ipu, rep, IPUXCOM_INIT_STEP_SECONDARY_IPU_ID, err, "%s", strerror(-err)))
		return err;
	return 0;
}

static int dev_init(struct ipuxcom *ipu, struct ipuxcom_init_report *rep, uint32_t *calls)
{
	int err;

	ipu->errmsg[0] = '\0';
	if (ipu->ipu_fd >= 0) {
		rep->ipu_driver = 1;
		memcpy(rep->ipu_node, ipu->ipu_node, sizeof(rep->ipu_node));
		/*
		 * Not one of the steps: buffers this handle gave ipu_driver
		 * (a host-exchange session before) go before its reset.
		 */
		if (ipu->drv_bufs) {
			++*calls;
			err = ixc_ipudrv_buffer_detach_all(ipu->ipu_fd);
			if (err)
				return ixc_fail(ipu, err, "ipu_driver BUFFER_DETACH_ALL before the "
						"initialisation: %s", strerror(-err));
			ipu->drv_bufs = 0;
		}
		err = init_ipu_driver(ipu, rep, calls);
		if (err)
			return err;
	} else {
		for (uint32_t s = IPUXCOM_INIT_STEP_STOP_MONITORING;
		     s <= IPUXCOM_INIT_STEP_SECONDARY_IPU_ID; s++)
			rep->status[s] = IPUXCOM_INIT_NOT_APPLICABLE;
	}
	++*calls;
	err = ixc_module_reset(ipu, &rep->state);
	return init_step(ipu, rep, IPUXCOM_INIT_STEP_MODULE_RESET, err, "RESET%s: %s",
			 ipu->ipu_fd >= 0 ? " (IPUXCOM_RESET_F_DRIVER_RESET)" : "",
			 ipuxcom_strerror(err));
}

int ixc_dev_init(struct ipuxcom *ipu, struct ipuxcom_init_report *rep, uint32_t *calls)
{
	memset(rep, 0, sizeof(*rep));
	rep->size = sizeof(*rep);
	return dev_init(ipu, rep, calls);
}

int ipuxcom_dev_init(struct ipuxcom *ipu, struct ipuxcom_init_report *rep)
{
	struct ipuxcom_init_report r = { .size = sizeof(r) };
	uint32_t calls = 0;
	int err;

	if (rep) {
		err = ixc_size_out_check(rep, IPUXCOM_INIT_REPORT_SIZE_MIN, IPUXCOM_ERR_DEVICE,
					 "rep.size", "IPUXCOM_INIT_REPORT_INIT",
					 ipu ? ipu->errmsg : NULL, ipu ? sizeof(ipu->errmsg) : 0);
		if (err)
			return err;
	}
	err = ipu ? dev_init(ipu, &r, &calls) : -EINVAL;
	if (rep)
		ixc_struct_out(rep, rep->size, &r, sizeof(r));
	return err;
}
