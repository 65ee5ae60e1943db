/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * libipuxcom: watching devices, and turning traces into configs.
 * Included by <ipuxcom.h>; see docs/tracing.md.
 *
 *  - struct ipuxcom_monitor: a generic netlink socket joined to the
 *    "events" multicast group of the "ipuxcom" family. It receives device
 *    arrivals and removals, state changes, load progress (batch n of 23),
 *    handshake timeouts with the value last observed, and resets, for
 *    every device, as the module emits them. Needs no privilege and no
 *    attach.
 *  - ipuxcom_cfg_from_trace(): the ipuxcom_bar_write tracepoint's lines in
 *    a tracefs "trace" file, as ordered IPUCFG1 records (what `ipuxcom cfg
 *    capture` writes).
 *
 * Netlink events are best effort, like every netlink notification: when
 * the socket's receive buffer overflows the kernel drops events, and
 * ipuxcom_monitor_next() reports it (-ENOBUFS) rather than hiding it.
 *
 * Errors: ipuxcom_strerror() explains them all (the monitor's as netlink
 * errors, ipuxcom_cfg_from_trace()'s as a file format's, whose struct
 * ipuxcom_errmsg says where). The error an event carries (a failed reset)
 * was no call's of this thread: ipuxcom_strerror() gives its
 * context-free text.
 */
#ifndef IPUXCOM_EVENTS_H
#define IPUXCOM_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "ipuxcom.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ipuxcom_monitor;

/*
 * One event. @type is the generic netlink command that carried it:
 * IPUXCOM_GENL_CMD_DEV_NEW, _DEV_DEL, _STATE, _LOAD_PROGRESS, _TIMEOUT or
 * _RESET (uapi/linux/ipuxcom.h). Members a type does not carry are zero.
 * The struct grows at its end: the caller sets @size to
 * sizeof(struct ipuxcom_event) (or starts from IPUXCOM_EVENT_INIT) and the
 * library fills that many bytes, members it does not know zero; any size
 * from IPUXCOM_EVENT_SIZE_MIN up is accepted.
 */
struct ipuxcom_event {
	uint32_t size;		/* set by the caller; kept by the library */
	uint32_t type;
	uint32_t dev_id;
	uint32_t state;		/* STATE: new state; DEV_NEW: the device's state */
	uint32_t old_state;	/* STATE: the state it left */
	uint32_t batch;		/* LOAD_PROGRESS: batches done, 1 .. @batches */
	uint32_t batches;	/* LOAD_PROGRESS: IPUXCOM_LOAD_BATCHES */
	uint64_t bytes;		/* LOAD_PROGRESS: frame payload bytes of batch @batch */
	uint32_t reg;		/* TIMEOUT: config-BAR offset that was polled */
	uint32_t value;		/* TIMEOUT: last value read there (e.g. the HSP mark) */
	int32_t error;		/* TIMEOUT: negative errno; RESET: 0 or negative errno */
	uint32_t reserved;	/* zero */
	struct ipuxcom_device_info dev;	/* DEV_NEW: the device (config_bar_size 0) */
};

#define IPUXCOM_EVENT_INIT { .size = sizeof(struct ipuxcom_event) }
/* Enough for @type and @dev_id. */
#define IPUXCOM_EVENT_SIZE_MIN	(offsetof(struct ipuxcom_event, dev_id) + sizeof(uint32_t))

/*
 * Open a monitor: a close-on-exec generic netlink socket that resolves the
 * "ipuxcom" family and its IPUXCOM_GENL_MCGRP_EVENTS group and joins it.
 * Events emitted from then on are queued for ipuxcom_monitor_next().
 * -ENOENT: the family is not registered (module not loaded);
 * -EOPNOTSUPP: the module has no events group (older than this library);
 * -EPROTO: a malformed controller reply. On failure *out is NULL.
 */
IPUXCOM_API int ipuxcom_monitor_open(struct ipuxcom_monitor **out);

/* NULL is a no-op. */
IPUXCOM_API void ipuxcom_monitor_close(struct ipuxcom_monitor *mon);

/*
 * The socket (owned by the handle), for poll(2)/epoll: readable when
 * events are waiting. After it polls readable, call ipuxcom_monitor_next()
 * with timeout 0 until it returns -EAGAIN (one datagram may hold several
 * events). -EINVAL for NULL.
 */
IPUXCOM_API int ipuxcom_monitor_fd(const struct ipuxcom_monitor *mon);

/*
 * The next event, in the order the kernel emitted them, into *@ev.
 * @timeout_ms: 0 = do not wait, < 0 = wait as long as it takes.
 * Returns 0, or:
 *  -EAGAIN   no event within @timeout_ms;
 *  -ENOBUFS  the socket's receive buffer overflowed and the kernel dropped
 *            events (how many is unknown): whoever tracks state from
 *            events must resynchronise (e.g. ipuxcom_nl_dev_list()). The
 *            monitor stays usable: the next call returns later events;
 *  -EPROTO   a malformed event was received and dropped; the monitor stays
 *            usable;
 *  -EINVAL   a NULL argument, or @ev->size 0 or below IPUXCOM_EVENT_SIZE_MIN;
 *            other negative errno values from recv(2).
 * Messages of commands this library does not know (from a newer module)
 * are skipped. *@ev is all zero but @size unless 0 is returned.
 */
IPUXCOM_API int ipuxcom_monitor_next(struct ipuxcom_monitor *mon, struct ipuxcom_event *ev,
				     int timeout_ms);

/*
 * "dev-new", "dev-del", "state", "load-progress", "timeout", "reset", or
 * "unknown". Never NULL.
 */
IPUXCOM_API const char *ipuxcom_event_name(uint32_t type);

/* ---------------------------------------------------- config capture */

/* Name of the tracepoint ipuxcom_cfg_from_trace() reads (system ipuxcom). */
#define IPUXCOM_TRACE_BAR_WRITE		"ipuxcom_bar_write"
/* ipuxcom_cfg_from_trace(): keep the writes of every device. */
#define IPUXCOM_TRACE_ANY_DEV		UINT32_MAX

/*
 * What ipuxcom_cfg_from_trace() counted. Grows at its end: start from
 * IPUXCOM_TRACE_STATS_INIT; the library fills exactly @size bytes.
 */
struct ipuxcom_trace_stats {
	uint32_t size;		/* set by the caller (IPUXCOM_TRACE_STATS_INIT); kept */
	uint32_t reserved;	/* 0 (keeps the counts 8-byte aligned) */
	uint64_t writes;	/* ipuxcom_bar_write lines, any device */
	uint64_t other_dev;	/* ... of them for other devices, left out */
	uint64_t lost;		/* events the ring buffer dropped (see below) */
};

#define IPUXCOM_TRACE_STATS_INIT { .size = sizeof(struct ipuxcom_trace_stats) }
/* Every member of 1.0. */
#define IPUXCOM_TRACE_STATS_SIZE_MIN						\
	(offsetof(struct ipuxcom_trace_stats, lost) + sizeof(uint64_t))

/*
 * Parse @len bytes of a tracefs "trace" (or "trace_pipe") text: every
 * line of the ipuxcom_bar_write event of device @dev_id (or of any device
 * with IPUXCOM_TRACE_ANY_DEV), "dev=D offset=0xO value=0xV", in order,
 * becomes an IPUCFG1 record. Other lines (comments, other events) are
 * skipped. On success *@recs is malloc'ed (NULL when *@count is 0: no
 * write captured is not an error here, though an IPUCFG1 file needs one).
 *
 * -EBADMSG: a bar_write line does not parse, or names an offset that is
 *           unaligned or outside the config BAR (message names the line);
 * -ENOBUFS: the trace says events were lost (its "entries-in-buffer/
 *           entries-written" header differs, or a "[LOST N EVENTS]" line):
 *           the records would not be the writes that were performed;
 * -EFBIG:   more than IPUXCOM_CFG_MAX_RECORDS records;
 * -EINVAL, -ENOMEM.
 * On failure *@recs is NULL and *@count 0. @stats and @em may be NULL;
 * @stats is filled on success and on -ENOBUFS; a @stats whose size is 0
 * or below IPUXCOM_TRACE_STATS_SIZE_MIN is -EINVAL before anything is
 * parsed (the message names "stats.size").
 */
IPUXCOM_API int ipuxcom_cfg_from_trace(const char *text, size_t len, uint32_t dev_id,
				       struct ipuxcom_cfg_record **recs, uint32_t *count,
				       struct ipuxcom_trace_stats *stats,
				       struct ipuxcom_errmsg *em);

#ifdef __cplusplus
}
#endif

#endif /* IPUXCOM_EVENTS_H */
