/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * libipuxcom: userspace access to the ipuxcom kernel module.
 *
 * Two independent handles:
 *  - struct ipuxcom: an open file of /dev/ipuxcom, for the ioctls. A file
 *    attaches to at most one device and holds it until ipuxcom_close().
 *  - struct ipuxcom_nl: a generic netlink socket for the "ipuxcom" family,
 *    for listing devices without opening (let alone attaching) them.
 *
 * Conventions (as in libbpf and libmnl):
 *  - Every function that can fail returns 0 or a negative errno value and
 *    leaves errno unspecified; ipuxcom_strerror(), the one explainer,
 *    explains any value any call returned (see "errors" below).
 *  - Handles are opaque. A handle may be used by one thread at a time.
 *  - The library never prints and never exits.
 *
 * The ABI constants (IPUXCOM_DEVICE_PATH, IPUXCOM_CAP_*, enum
 * ipuxcom_dev_state, IPUXCOM_BACKEND_NAME_LEN, ...) come from the uapi
 * header <linux/ipuxcom.h>, included here so that users need only this one.
 */
#ifndef IPUXCOM_H
#define IPUXCOM_H

#include <stddef.h>
#include <stdint.h>

#include <linux/ipuxcom.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef IPUXCOM_API
#define IPUXCOM_API __attribute__((visibility("default")))
#endif

/* Version of this library; the Makefile reads IPUXCOM_LIB_VERSION from here. */
/*
 * 1.0 (issue 23): the plan, device and file structs carry their size and tile ids are
 * logical by default, so the layout broke and the soname moved to
 * libipuxcom.so.1 (one version node, LIBIPUXCOM_1.0); the names
 * deprecated in 0.2 are kept one more release. NEWS lists the changes and
 * how to port. The major, and with it the soname, moves when a struct's
 * layout must.
 */
#define IPUXCOM_LIB_VERSION_MAJOR	1
#define IPUXCOM_LIB_VERSION_MINOR	0
#define IPUXCOM_LIB_VERSION_PATCH	0
#define IPUXCOM_LIB_VERSION		"1.0.0"
/* The same as one number, for comparisons: 0x00MMmmpp. */
#define IPUXCOM_LIB_VERSION_NUMBER					\
	((uint32_t)(IPUXCOM_LIB_VERSION_MAJOR << 16 |			\
		    IPUXCOM_LIB_VERSION_MINOR << 8 | IPUXCOM_LIB_VERSION_PATCH))

/*
 * The version of the library actually running, which may be newer than
 * the IPUXCOM_LIB_VERSION a program was compiled with (same soname):
 * "MAJOR.MINOR.PATCH", never NULL, and the same as one number
 * (IPUXCOM_LIB_VERSION_NUMBER's encoding).
 */
IPUXCOM_API const char *ipuxcom_version(void);
IPUXCOM_API uint32_t ipuxcom_version_number(void);

struct ipuxcom;
struct ipuxcom_nl;

/* ------------------------------------------------------------- device file */

/*
 * ipu_driver's real-time signals (HW-SIGNALS): 44 on an
 * exception, 45 on an ICU mailbox reply, 46-49 when the GS1/GS2 marks
 * change. The driver sends them to the process that holds the card (to
 * the process, so to any thread not blocking them, or to the thread that
 * attached: no record says which); unblocked and unhandled, their default
 * action kills it.
 *
 * The library makes a process that opens a card survive them whatever
 * threads it has, including threads started before the open (numpy's in
 * Python): before it opens an ipu_driver node, or ATTACHes one the caller
 * opened (ipuxcom_attach_ipu_fd()), every one of 44-49 whose disposition
 * is SIG_DFL becomes SIG_IGN, process-wide. An ignored signal is
 * discarded when it is sent (unless the thread it is sent to blocks it)
 * and runs no handler, so it interrupts no call, where a no-op handler
 * would (EINTR). An application's own
 * handler, or SIG_IGN, is left alone: with a handler installed, the
 * application is in charge of these signals. The dispositions stay after
 * ipuxcom_close() (the driver may still signal) and, like a signal mask,
 * are inherited across fork(2) and execve(2). libipuxcom(3) "Signals".
 */
#define IPUXCOM_DRIVER_SIGNAL_FIRST	44
#define IPUXCOM_DRIVER_SIGNAL_LAST	49

/*
 * Block ipu_driver's signals (IPUXCOM_DRIVER_SIGNAL_FIRST..._LAST) in the
 * calling thread (pthread_sigmask(SIG_BLOCK)), as the hardware-proven peer
 * does before it opens a card. Not needed to survive them (the library
 * ignores them, above); for a program that follows the peer, best before
 * any thread exists (they inherit the mask), as the ipuxcom command does.
 * Its cost in a process with other threads: a signal sent to a thread
 * that blocks it (a process-directed one names the main thread) is queued,
 * not discarded, and another thread is woken to take and discard it;
 * in a process where every thread blocks them they stay pending, counted
 * against RLIMIT_SIGPENDING. Only these signals are blocked, not all as
 * the peer does, so that SIGINT and SIGTERM still end the process; the
 * module's waits end early only for a fatal signal, so other signals with
 * handlers never cost a load. 0 or -errno.
 */
IPUXCOM_API int ipuxcom_block_driver_signals(void);

/*
 * Open the device node @path (NULL: IPUXCOM_DEVICE_PATH) read-write and
 * close-on-exec. On success *out is a new handle; on failure *out is NULL.
 * -ENOENT: no such node (module not loaded).
 */
IPUXCOM_API int ipuxcom_open(const char *path, struct ipuxcom **out);

/* Close the file; this releases the attached device, if any. NULL is a no-op. */
IPUXCOM_API void ipuxcom_close(struct ipuxcom *ipu);

/* The file descriptor (owned by the handle), or -EINVAL for NULL. */
IPUXCOM_API int ipuxcom_fd(const struct ipuxcom *ipu);

/*
 * What the module says about itself. Grows at its end: start from
 * IPUXCOM_INFO_INIT; the library fills exactly @size bytes.
 */
struct ipuxcom_info {
	uint32_t size;			/* set by the caller (IPUXCOM_INFO_INIT); kept */
	uint32_t uapi_version;		/* IPUXCOM_UAPI_VERSION of the module */
	uint32_t device_count;		/* devices registered right now */
	uint32_t max_config_bar;	/* config-BAR size in bytes */
	uint64_t capabilities;		/* IPUXCOM_CAP_* bits */
};

#define IPUXCOM_INFO_INIT { .size = sizeof(struct ipuxcom_info) }
/* Every member of 1.0. */
#define IPUXCOM_INFO_SIZE_MIN							\
	(offsetof(struct ipuxcom_info, capabilities) + sizeof(uint64_t))

/*
 * IPUXCOM_IOC_INFO: module version and capabilities; needs no attach.
 * -EINVAL for a NULL argument, or @info->size 0 or below
 * IPUXCOM_INFO_SIZE_MIN (the message names "info.size").
 */
IPUXCOM_API int ipuxcom_get_info(struct ipuxcom *ipu, struct ipuxcom_info *info);

/*
 * IPUXCOM_IOC_ATTACH: bind this file to device @dev_id until it is closed.
 * -EBUSY: another file holds it; -EALREADY: this file is already attached;
 * -ENODEV: no such device.
 *
 * A device held through Graphcore's ipu_driver (IPUXCOM_CAP_IPU_DRIVER,
 * uapi version 4) is attached through its /dev/ipuN: the plain ATTACH is
 * refused (-EACCES) for such a device, and the library then learns the
 * node's name from netlink DEV_GET (IPUXCOM_A_DEV_IPU_NODE), opens
 * /dev/NODE read-write and close-on-exec, takes ipu_driver's exclusive
 * USER_ATTACH and SET_IPU_ID (id 0, as the hardware-proven stack does:
 * modelled for a second card) and attaches with IPUXCOM_ATTACH_F_IPU_FD.
 * The handle keeps that descriptor (ipuxcom_ipu_fd()) and closes it in
 * ipuxcom_close(), after the ipuxcom file. Further errors, each explained
 * by ipuxcom_errmsg(): -EBUSY from USER_ATTACH (the card is held by
 * another ipu_driver user, e.g. Poplar), -ENOENT/-EACCES opening the node,
 * -EXDEV (the node is not this device's), -EPROTO (netlink does not name
 * the node), or the netlink error.
 */
IPUXCOM_API int ipuxcom_attach(struct ipuxcom *ipu, uint32_t dev_id);

/*
 * ipuxcom_attach() for a caller that manages the card's ipu_driver
 * session itself: @ipu_fd is its open (read-write) /dev/ipuN, on which it
 * has done USER_ATTACH and SET_IPU_ID. The handle uses it (buffers,
 * reset, ipuxcom_dev_init()) but never closes it: it must stay open until
 * ipuxcom_close(). ATTACH's errors: -EBADF (@ipu_fd not open read-write),
 * -EXDEV (not this device's /dev/ipuN), -EINVAL (the device is not held
 * through ipu_driver: use ipuxcom_attach()).
 */
IPUXCOM_API int ipuxcom_attach_ipu_fd(struct ipuxcom *ipu, uint32_t dev_id, int ipu_fd);

/*
 * The /dev/ipuN descriptor the attached device is held through (owned by
 * the handle when ipuxcom_attach() opened it), -ENODEV when the device is
 * not held through ipu_driver (the simulator) or the handle is not
 * attached, -EINVAL for NULL.
 */
IPUXCOM_API int ipuxcom_ipu_fd(const struct ipuxcom *ipu);

/*
 * What the last failed ipuxcom_attach(), ipuxcom_attach_ipu_fd(),
 * ipuxcom_reset(), ipuxcom_dev_init(), ipuxcom_load_batch(),
 * ipuxcom_load_finish() or ipuxcom_exch_write() on @ipu said, in words ("/dev/ipu0: USER_ATTACH: card held by another
 * ipu_driver user (Poplar?)"), or "" when it said nothing more than
 * ipuxcom_strerror(). Valid until the next call on @ipu. Never NULL.
 */
IPUXCOM_API const char *ipuxcom_errmsg(const struct ipuxcom *ipu);

/*
 * One device. Fixed: an array element (ipuxcom_nl_dev_list() returns an
 * array of them, indexed by the caller with its own sizeof); members a
 * later module reports go into a new struct.
 */
struct ipuxcom_device_info {
	uint32_t dev_id;
	uint32_t state;			/* enum ipuxcom_dev_state */
	uint32_t tile_count;
	uint32_t config_bar_size;	/* bytes; 0 when read over netlink */
	/*
	 * 0: not attached, or not shown: uapi 4 reports the pid over netlink
	 * only to callers with CAP_NET_ADMIN (see @attached); always 0 from
	 * ipuxcom_dev_query()
	 */
	uint32_t attached_pid;
	uint64_t capabilities;		/* IPUXCOM_CAP_* the device supports; 0 if unreported */
	char backend[IPUXCOM_BACKEND_NAME_LEN];	/* NUL-terminated */
	/* uapi 4: a device held through ipu_driver: its /dev node ("ipu0"); else "" */
	char ipu_node[IPUXCOM_IPU_NODE_LEN];
	/* uapi 4, netlink: 1 when a file holds the device, whoever may see its pid */
	uint32_t attached;
};

/* IPUXCOM_IOC_DEV_QUERY: describe the attached device (-ENOTCONN if none). */
IPUXCOM_API int ipuxcom_dev_query(struct ipuxcom *ipu, struct ipuxcom_device_info *dev);

/*
 * One 32-bit access to the attached device's config BAR. @offset must be
 * 4-byte aligned (-EINVAL otherwise, checked before any ioctl). Writing
 * needs CAP_SYS_RAWIO (-EPERM).
 */
IPUXCOM_API int ipuxcom_reg_read(struct ipuxcom *ipu, uint32_t offset, uint32_t *value);
IPUXCOM_API int ipuxcom_reg_write(struct ipuxcom *ipu, uint32_t offset, uint32_t value);

/*
 * Reset the attached device; *state_out (if not NULL) gets the new state.
 * On a device held through ipu_driver the reset is the whole
 * initialisation, since RESET_DEVICE alone only notifies the driver (the
 * card is reset by the ICU mailbox message, HW-DRV-INIT): BUFFER_DETACH_ALL
 * on the /dev/ipuN, then ipuxcom_dev_init()'s steps (the module's RESET with
 * IPUXCOM_RESET_F_DRIVER_RESET last). Either way the module
 * unpins every host buffer; the library then frees the host-exchange
 * pages (ipuxcom_hostx_setup() must run again) and keeps the transport
 * buffer's memory for the next load.
 */
IPUXCOM_API int ipuxcom_reset(struct ipuxcom *ipu, uint32_t *state_out);

/* ------------------------------------------------------------ initialise */

/*
 * The steps of ipuxcom_dev_init(), in order. 1..6 are ipu_driver's
 * initialisation of a card it holds in driver-idle state, as the stack
 * whose loads completed on a C600 runs it (HW-LOAD step 1, HW-DRV-INIT,
 * after the open, USER_ATTACH and SET_IPU_ID that
 * ipuxcom_attach() did); 7 returns the module's state to idle.
 */
enum ipuxcom_init_step {
	IPUXCOM_INIT_STEP_NONE = 0,
	IPUXCOM_INIT_STEP_STOP_MONITORING = 1,
	IPUXCOM_INIT_STEP_ICU_RESET = 2,	/* MAILBOX_WRITE_READ [0x4078020e,0,0,0,0] */
	IPUXCOM_INIT_STEP_START_MONITORING = 3,
	IPUXCOM_INIT_STEP_ACCUMULATE_ERRORS = 4,
	IPUXCOM_INIT_STEP_RESET_DEVICE = 5,	/* RESET_DEVICE 0 */
	IPUXCOM_INIT_STEP_SECONDARY_IPU_ID = 6,	/* SET_SECONDARY_IPU_ID 0 */
	IPUXCOM_INIT_STEP_MODULE_RESET = 7,	/* IPUXCOM_IOC_RESET */
};
/* Entries of ipuxcom_init_report.status (index 0 unused). */
#define IPUXCOM_INIT_STEPS	8

/* What happened to one step (ipuxcom_init_report.status[step]). */
enum ipuxcom_init_status {
	IPUXCOM_INIT_NOT_RUN = 0,	/* an earlier step failed */
	IPUXCOM_INIT_DONE = 1,
	IPUXCOM_INIT_FAILED = 2,
	IPUXCOM_INIT_NOT_APPLICABLE = 3,	/* ipu_driver steps on a device not held by it */
};

/*
 * What ipuxcom_dev_init() did. Grows at its end: start from
 * IPUXCOM_INIT_REPORT_INIT; the library fills exactly @size bytes.
 */
struct ipuxcom_init_report {
	uint32_t size;			/* set by the caller (IPUXCOM_INIT_REPORT_INIT); kept */
	uint32_t ipu_driver;		/* 1: held through ipu_driver (steps 1..6 apply) */
	char ipu_node[IPUXCOM_IPU_NODE_LEN];	/* its /dev node, or "" */
	uint32_t status[IPUXCOM_INIT_STEPS];	/* enum ipuxcom_init_status, by step */
	uint32_t failed_step;		/* enum ipuxcom_init_step; 0 on success */
	int32_t error;			/* the failed step's negative errno; 0 */
	uint32_t icu_reply_valid;	/* 1: step 2 got a reply */
	uint32_t icu_reply[5];		/* its five words */
	uint32_t state;			/* device state after step 7 */
	char msg[256];			/* "" on success, else "step N (NAME): what" */
};

#define IPUXCOM_INIT_REPORT_INIT { .size = sizeof(struct ipuxcom_init_report) }
/* Every member of 1.0. */
#define IPUXCOM_INIT_REPORT_SIZE_MIN						\
	(offsetof(struct ipuxcom_init_report, msg) + 256)

/*
 * Bring the attached device from driver-idle to the module's idle state,
 * the first step of a load on a real card. On a device held through
 * ipu_driver: steps 1..6 on its /dev/ipuN, then the module's RESET with
 * IPUXCOM_RESET_F_DRIVER_RESET; step 2's reply must carry 0x4078 in bits
 * 31:16 of word 0, else -EPROTO (the words are in the report). On any
 * other device (the simulator) steps 1..6 are not applicable and step 7
 * is a plain RESET. Stops at the first failing step. @rep (may be NULL)
 * is filled in every case; the message also goes to ipuxcom_errmsg().
 * A @rep whose size is 0 or below IPUXCOM_INIT_REPORT_SIZE_MIN is -EINVAL
 * before any step (the message names "rep.size").
 * Host buffers are forgotten as after ipuxcom_reset() (buffers this
 * handle attached to ipu_driver are detached first, with
 * BUFFER_DETACH_ALL, which is not one of the steps).
 */
IPUXCOM_API int ipuxcom_dev_init(struct ipuxcom *ipu, struct ipuxcom_init_report *rep);

/* "STOP_MONITORING", "ICU mailbox reset", ... for a step; NULL if unknown. */
IPUXCOM_API const char *ipuxcom_init_step_name(uint32_t step);
/* "not run", "done", "failed", "not applicable"; "unknown" otherwise. */
IPUXCOM_API const char *ipuxcom_init_status_name(uint32_t status);

/* ------------------------------------------------------------------ errors */

/*
 * "idle", "bootloader", "loading", "running", "needs-reset", "gone", or
 * "unknown" for a value this library does not know. Never NULL.
 */
IPUXCOM_API const char *ipuxcom_dev_state_name(uint32_t state);

/*
 * The one explainer of every error any call of this library returns
 * (issue 23; it replaces the per-domain explainers, which remain as
 * deprecated names). The same errno means different things by the kind
 * of call that returned it (-ENOENT is "module not loaded" from
 * ipuxcom_open() and the netlink calls, "no such file" from a file parser
 * or ipuxcom_timing_load()), so every failing call records, in the calling
 * thread, its domain (enum ipuxcom_err_domain), the value it returned and
 * its message:
 *  - ipuxcom_strerror(err) explains @err by its domain when it is the value
 *    the calling thread's last failed call returned (e.g. -EBUSY after an
 *    attach: "device attached by another open file"; -ENOENT after
 *    ipuxcom_timing_load(): "no such file or directory"; -ERANGE after a
 *    plan: the plan code's text, "word count not in 1..4148"); any other
 *    value gets a text that holds whatever call returned it (the library's
 *    own for codes with one meaning throughout, strerror()'s otherwise),
 *    never another domain's. It also explains a plan error code, given in
 *    its own space above the errno range as IPUXCOM_ERRC(code). Accepts -E
 *    and +E alike, never returns NULL; the string must not be modified.
 *  - ipuxcom_errmsg(NULL) is the calling thread's last failure message,
 *    naming what failed and where ("t.txt: cannot open: No such file or
 *    directory"), or "" (ipuxcom_errmsg(ipu) is @ipu's own, as before).
 *  - ipuxcom_last_error() is that failure's value and domain.
 * Read them before the next library call on the same thread: any failing
 * call replaces the record (a successful one leaves it).
 */
enum ipuxcom_err_domain {
	IPUXCOM_ERR_NONE = 0,
	IPUXCOM_ERR_DEVICE = 1,		/* a call on struct ipuxcom: ioctls, ipu_driver */
	IPUXCOM_ERR_NETLINK = 2,	/* ipuxcom_nl_*, the monitor of <ipuxcom_events.h> */
	IPUXCOM_ERR_FILE = 3,		/* images, frames, IPUCFG1, manifests, bootloaders */
	IPUXCOM_ERR_PLAN = 4,		/* plans, encoders, timing models, simulator, scheduler */
};

/* Plan error codes (enum ipuxcom_plan_errc) as values for ipuxcom_strerror(). */
#ifndef IPUXCOM_ERRC_BASE
#define IPUXCOM_ERRC_BASE	4096	/* above every errno (the kernel's MAX_ERRNO is 4095) */
#define IPUXCOM_ERRC(code)	(-(IPUXCOM_ERRC_BASE + (int)(code)))
#endif

IPUXCOM_API const char *ipuxcom_strerror(int err);

/*
 * The calling thread's last failure: the (negative) value it returned, or
 * 0 when no call of this thread has failed; *@domain (may be NULL) gets
 * its enum ipuxcom_err_domain..
 */
IPUXCOM_API int ipuxcom_last_error(uint32_t *domain);

/* "device", "netlink", "file", "plan", "none"; "unknown" otherwise. */
IPUXCOM_API const char *ipuxcom_err_domain_name(uint32_t domain);

/*
 * Deprecated: ipuxcom_strerror(), which these call; without a record of
 * the thread's last failure being @err, they assume their domain
 * (netlink), as they always did.
 */
IPUXCOM_API const char *ipuxcom_nl_strerror(int err)
	__attribute__((deprecated("use ipuxcom_strerror(), the one explainer")));

/* ----------------------------------------------------------------- netlink */

/*
 * Open a generic netlink socket and resolve the IPUXCOM_GENL_NAME family.
 * -ENOENT: the family is not registered, i.e. the module is not loaded.
 * On failure *out is NULL.
 */
IPUXCOM_API int ipuxcom_nl_open(struct ipuxcom_nl **out);

/* NULL is a no-op. */
IPUXCOM_API void ipuxcom_nl_close(struct ipuxcom_nl *nl);

/*
 * IPUXCOM_GENL_CMD_DEV_GET for one device. -ENODEV: no such device;
 * -ERANGE: an id beyond what the module supports; ipuxcom_nl_errmsg()
 * then has the kernel's explanation. -EPROTO: a malformed reply.
 * out->config_bar_size is 0: netlink does not report it.
 */
IPUXCOM_API int ipuxcom_nl_dev_get(struct ipuxcom_nl *nl, uint32_t dev_id,
				   struct ipuxcom_device_info *out);

/*
 * Dump every device. On success *devs is a malloc'ed array of *count
 * entries (NULL when there are none), to be released with
 * ipuxcom_nl_dev_list_free(). On failure *devs is NULL and *count 0.
 */
IPUXCOM_API int ipuxcom_nl_dev_list(struct ipuxcom_nl *nl,
				    struct ipuxcom_device_info **devs, size_t *count);
IPUXCOM_API void ipuxcom_nl_dev_list_free(struct ipuxcom_device_info *devs);

/*
 * The extended-ack text the kernel attached to the last reply on @nl, e.g.
 * "missing attribute IPUXCOM_A_DEV_ID", or "" when there was none. Valid
 * until the next call on @nl. Never NULL.
 */
IPUXCOM_API const char *ipuxcom_nl_errmsg(const struct ipuxcom_nl *nl);

#ifdef __cplusplus
}
#endif

#include "ipuxcom_datapath.h"
#include "ipuxcom_events.h"
#include "ipuxcom_image.h"
#include "ipuxcom_plan.h"
#include "ipuxcom_xsim.h"

#endif /* IPUXCOM_H */
