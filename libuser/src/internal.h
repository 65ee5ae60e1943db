/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Internals of libipuxcom shared between its source files and the host
 * unit tests (which link the static archive, where hidden symbols are
 * still visible). Nothing here is exported from the shared library: every
 * name uses the ixc_ prefix so the version script's "ipuxcom_*" pattern
 * cannot pick it up, and -fvisibility=hidden keeps it local anyway.
 */
#ifndef IPUXCOM_INTERNAL_H
#define IPUXCOM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/ipuxcom.h>
#include <linux/netlink.h>

struct ipuxcom_device_info;

/*
 * Caller-allocated structs whose first member is "uint32_t size" (struct_size.c).
 * ixc_struct_in: copy the caller's @caller_size bytes at @src into the
 * library's @lib_size-byte @dst: a smaller struct (down to @min_size) is
 * zero-extended, a bigger one accepted when its extra tail is zero.
 * -EINVAL for size 0 or below @min_size, -E2BIG for a non-zero tail.
 * ixc_struct_out_check: -EINVAL unless @min_size <= @caller_size (not 0).
 * ixc_struct_out: fill the caller's struct (already checked) from the
 * library's: the first min(sizes) bytes but the size member, zeros past
 * @lib_size.
 */
int ixc_struct_in(void *dst, size_t lib_size, const void *src, size_t caller_size,
		  size_t min_size);
int ixc_struct_out_check(size_t caller_size, size_t min_size);
void ixc_struct_out(void *dst, size_t caller_size, const void *src, size_t lib_size);

/*
 * The same for the device and file calls, which have no plan error
 * struct: -EINVAL (size 0 or below @min) or -E2BIG (an unknown tail that
 * is not zero), noted in the calling thread's record under @domain with
 * a message naming @field ("info.size") and @init, the macro to start
 * from; @msg (may be NULL) gets the message too (@len bytes).
 * ixc_size_in copies into the library's @copy as ixc_struct_in;
 * ixc_size_out_check checks an output struct's size.
 */
int ixc_size_in(void *copy, size_t lib_size, const void *in, size_t min, uint32_t domain,
		const char *field, const char *init, char *msg, size_t len);
int ixc_size_out_check(const void *out, size_t min, uint32_t domain, const char *field,
		       const char *init, char *msg, size_t len);

/* Room for one message of ipuxcom_errmsg(). */
#define IXC_ERRMSG_BYTES	256

/*
 * The calling thread's last failure (error.c), for ipuxcom_strerror(),
 * ipuxcom_errmsg(NULL) and ipuxcom_last_error(): every failure path of the
 * library notes its domain (enum ipuxcom_err_domain), the value it returns
 * (negative errno), for the plan domain its enum ipuxcom_plan_errc, and a
 * message (printf-style; NULL: none). ixc_err_note() returns @err.
 */
#include <stdarg.h>
__attribute__((format(printf, 4, 0)))
void ixc_err_vnote(uint32_t domain, int err, int code, const char *fmt, va_list ap);
__attribute__((format(printf, 4, 5)))
int ixc_err_note(uint32_t domain, int err, int code, const char *fmt, ...);
void ixc_err_note_msg(uint32_t domain, int err, int code, const char *msg);
const char *ixc_err_last_msg(void);
/* What a plan error code means (plan_error.c); NULL for none. */
const char *ixc_plan_code_text(int code);

/*
 * An open /dev/ipuxcom (device.c), with the host buffers the library owns
 * (uapi version 4: they are its own memory, pinned by the module with
 * BUF_ATTACH) and, for a device held through ipu_driver, the caller's
 * /dev/ipuN session.
 */
struct ipuxcom {
	int fd;
	/* ipu_driver: -1 unless attached with IPUXCOM_ATTACH_F_IPU_FD */
	int ipu_fd;
	bool ipu_fd_owned;	/* opened by ipuxcom_attach(): closed by ipuxcom_close() */
	char ipu_node[IPUXCOM_IPU_NODE_LEN];	/* "" until known */
	void *cfg_map;		/* the library's mapping of ipu_fd's config registers, or NULL */
	uint32_t drv_bufs;	/* bit i: index i BUFFER_ATTACHed there by the library */
	void *exch;		/* MAP_SHARED mapping of /dev/<ipu_node>_ex, or NULL */
	size_t exch_size;
	/* the loader transport buffer: anonymous memory, kept across loads */
	void *xbuf;
	size_t xbuf_size;
	bool xbuf_attached;	/* in the module's slot 0 (BUF_ATTACH) right now */
	uint32_t hpages;	/* host-exchange pages set up (ipuxcom_hostx_setup) */
	void *hpage[IPUXCOM_HOSTX_MAX_PAGES];
	size_t hpage_size[IPUXCOM_HOSTX_MAX_PAGES];
	char errmsg[IXC_ERRMSG_BYTES];	/* ipuxcom_errmsg() */
};

/* Set ipu->errmsg (printf-style) and return @err. */
__attribute__((format(printf, 3, 4)))
int ixc_fail(struct ipuxcom *ipu, int err, const char *fmt, ...);

/*
 * Forget what a module RESET dropped: the host pages are unmapped, the
 * transport buffer is no longer in slot 0 (its memory is kept), and
 * nothing is attached to ipu_driver any more (the caller did
 * BUFFER_DETACH_ALL, or nothing was).
 */
void ixc_forget_buffers(struct ipuxcom *ipu);

/*
 * BUF_ATTACH slot @index with @addr/@bytes, then on a device held through
 * ipu_driver its BUFFER_ATTACH with the same index, address and size (the
 * module's is undone if that fails). *@syscalls (may be NULL) counts the
 * ioctls issued. Errors carry a message in ipu->errmsg.
 */
int ixc_buf_attach(struct ipuxcom *ipu, uint32_t index, void *addr, size_t bytes,
		   uint32_t *syscalls);

/* ixc_buf_attach() of the transport buffer (ipu->xbuf) in slot 0. */
int ixc_xbuf_attach(struct ipuxcom *ipu, uint32_t *syscalls);

/*
 * After a successful LOAD_FINISH, which unpinned slot 0: ipu_driver's
 * BUFFER_DETACH 0 on a device held through it (one ioctl, when the
 * library attached it there).
 */
int ixc_xbuf_finished(struct ipuxcom *ipu);

/*
 * BUF_DETACH slot @index, and on a device held through ipu_driver its
 * BUFFER_DETACH (when the library attached it there). Best effort: the
 * first error is returned, both are tried.
 */
int ixc_buf_detach(struct ipuxcom *ipu, uint32_t index);

/*
 * The module's RESET: IPUXCOM_RESET_F_DRIVER_RESET on a device held
 * through ipu_driver (whose BUFFER_DETACH_ALL and RESET_DEVICE the caller
 * issued), then ixc_forget_buffers().
 */
int ixc_module_reset(struct ipuxcom *ipu, uint32_t *state_out);

struct ipuxcom_init_report;

/*
 * ipuxcom_dev_init() into the library's own, full-size, report @rep;
 * *@calls counts the system calls it made (ipuxcom_load()'s result).
 */
int ixc_dev_init(struct ipuxcom *ipu, struct ipuxcom_init_report *rep, uint32_t *calls);

/* ioctl() returning 0 or -errno. *//* ioctl() returning 0 or -errno. */
int ixc_ioctl(const struct ipuxcom *ipu, unsigned long req, void *arg);

/*
 * Decode the error code and extended-ack TLVs of an NLMSG_ERROR or
 * NLMSG_DONE message.
 *
 * @nlh must have nlh->nlmsg_len readable bytes (mnl_nlmsg_ok() guarantees
 * it for received messages); nothing past that length is read, whatever
 * the lengths inside the message claim. The text written to @buf (always
 * NUL-terminated when @len > 0, truncated to fit, "" when the message has
 * no extended ack) joins with "; " NLMSGERR_ATTR_MSG,
 * NLMSGERR_ATTR_MISS_TYPE and NLMSGERR_ATTR_OFFS. @buf may be NULL when
 * @len is 0.
 *
 * @req, when not NULL, is the "ipuxcom" family request (with nlmsg_len
 * readable bytes) that @nlh answers: attributes are then named, e.g.
 * "missing attribute IPUXCOM_A_DEV_ID", "offending attribute
 * IPUXCOM_A_DEV_ID". Without it (another family's request, such as the
 * controller's) they are given by number and offset, since IPUXCOM_A_*
 * names would be wrong there.
 *
 * Returns the error the message carries (0 for an ACK or a clean end of
 * dump, else a negative errno), or -EBADMSG when the message is not an
 * ERROR/DONE message, is too short to carry one, or carries a positive
 * (thus meaningless) error.
 */
int ixc_nl_parse_extack(const struct nlmsghdr *nlh, const struct nlmsghdr *req,
			char *buf, size_t len);

/*
 * Decode one IPUXCOM_GENL_CMD_DEV_GET reply of generic netlink family
 * @family into *@out (all zero on failure). Same contract as above for @nlh.
 * Returns 0, or -EPROTO when the message is not of @family, an attribute
 * is malformed (wrong length, unterminated or over-long backend name,
 * trailing garbage) or IPUXCOM_A_DEV_ID, _STATE or _BACKEND is missing.
 * Unknown attributes, from a newer module, are ignored.
 */
int ixc_nl_parse_dev(const struct nlmsghdr *nlh, uint16_t family,
		     struct ipuxcom_device_info *out);

/* "IPUXCOM_A_DEV_ID" etc., or NULL for a type this header does not know. */
const char *ixc_nl_attr_name(unsigned int type);

/*
 * Events and config capture (events.c, events_parse.c, trace_parse.c).
 * Same contract as above for @nlh: nlmsg_len bytes readable, nothing past
 * them read.
 */
struct ipuxcom_event;
struct ipuxcom_cfg_record;

/*
 * Decode a CTRL_CMD_GETFAMILY reply (CTRL_CMD_NEWFAMILY from GENL_ID_CTRL):
 * *@family gets CTRL_ATTR_FAMILY_ID and *@group_id the id of the multicast
 * group named @group in the nested CTRL_ATTR_MCAST_GROUPS. Returns 0,
 * -EOPNOTSUPP when the family has no such group, -EPROTO when the message
 * is malformed (not the controller's, truncated, wrong attribute sizes,
 * unterminated names, missing family or group id, trailing garbage).
 * Unknown attributes are ignored. Outputs are untouched on failure.
 */
int ixc_nl_parse_family_group(const struct nlmsghdr *nlh, const char *group,
			      uint16_t *family, uint32_t *group_id);

/*
 * Decode one message of the "events" group of generic netlink family
 * @family into *@ev (all zero on failure). Returns 0; -ENOMSG for a
 * command that is not an event this library knows (a newer module's:
 * callers skip it); -EPROTO when the message is not of @family, is
 * truncated, has an attribute of the wrong size or trailing garbage,
 * lacks an attribute its type needs (DEV_ID always; STATE: DEV_STATE and
 * OLD_STATE; LOAD_PROGRESS: BATCH, BATCHES, BYTES; TIMEOUT: REG, VALUE,
 * ERROR; RESET: ERROR; DEV_NEW: what DEV_GET carries), or carries an
 * impossible value (batch 0 or above batches, a positive or out-of-range
 * error, a TIMEOUT with error 0). Unknown attributes are ignored.
 */
int ixc_event_parse(const struct nlmsghdr *nlh, uint16_t family, struct ipuxcom_event *ev);

/*
 * One line of tracefs output (@len bytes, without or with its '\n'; no NUL
 * needed). Returns 1 and fills *@dev_id and *@rec for an ipuxcom_bar_write
 * event line, 0 for any other line, -EBADMSG for an ipuxcom_bar_write
 * line whose "dev=D offset=0xO value=0xV" does not parse. The offset is
 * not range-checked here.
 */
int ixc_trace_parse_line(const char *line, size_t len, uint32_t *dev_id,
			 struct ipuxcom_cfg_record *rec);

/*
 * ipu_driver's user ABI (ipudrv.c, uapi/linux/ipuxcom_ipu_driver.h): one
 * ioctl each on an open /dev/ipuN, 0 or -errno.
 */

/* Mapping of /dev/ipuN_ex: the window at 0x80000 and one tile's 624 KiB of SRAM. */
#define IXC_IPUDRV_EX_MAP_BYTES	(0x80000u + 624u * 1024u)
/* First tile SRAM address (HW-SRAM). */
#define IXC_TILE_SRAM_BASE	0x4c000u
#define IXC_TILE_SRAM_BYTES	(624u * 1024u)

/* A plain /dev name: 1..15 of [A-Za-z0-9_.-], not starting with '.'. */
bool ixc_ipudrv_node_ok(const char *node);
/* The directory ipu_driver's nodes are in: "/dev" (tests point it elsewhere). */
extern const char *ixc_ipudrv_dev_dir;
/*
 * The config nodes there ("ipu" and digits [S]: not _ex, _mem, _p2p),
 * at most @max, in numeric order: their count, or -errno.
 */
int ixc_ipudrv_list(char (*names)[IPUXCOM_IPU_NODE_LEN], int max);
/*
 * open("/dev/@node", O_RDWR | O_CLOEXEC), after ixc_driver_signals_guard();
 * *@fd is -1 on failure.
 */
int ixc_ipudrv_open(const char *node, int *fd);
/*
 * mmap(@fd, offset 0, IPUXCOM_IPU_CFG_MAP_BYTES, shared, read-write): the
 * config registers as the record maps them [RE].
 */
int ixc_ipudrv_map_config(int fd, void **map);
int ixc_ipudrv_user_attach(int fd);			/* by value: 0 */
int ixc_ipudrv_set_ipu_id(int fd, uint32_t id);		/* by value */
int ixc_ipudrv_buffer_attach(int fd, uint32_t index, void *addr, size_t size);
int ixc_ipudrv_buffer_detach(int fd, uint32_t index);	/* by value */
int ixc_ipudrv_buffer_detach_all(int fd);
int ixc_ipudrv_reset_device(int fd);			/* by value: 0 */
/* Five words out, five back (IPU_DRV_MAILBOX_WORDS); @recv is written also on failure. */
int ixc_ipudrv_mailbox(int fd, const uint32_t sent[5], uint32_t recv[5]);
int ixc_ipudrv_stop_monitoring(int fd);
int ixc_ipudrv_start_monitoring(int fd);
int ixc_ipudrv_accumulate_errors(int fd);
int ixc_ipudrv_set_hexopt_identity_table(int fd);
int ixc_ipudrv_set_secondary_ipu_id(int fd);		/* pointer to a u32 0 */
/*
 * MAP_SHARED mapping of IXC_IPUDRV_EX_MAP_BYTES of /dev/@node_ex at
 * offset 0; with @fd, its descriptor too (the caller closes it), else it
 * is closed (the mapping keeps the file).
 */
int ixc_ipudrv_map_exchange(const char *node, void **map, size_t *size, int *fd);

/*
 * Before the process opens any node of ipu_driver (signals.c): the
 * driver's signals 44-49 must not kill it, whichever thread the driver
 * picks. Idempotent and thread-safe: each of 44-49 still at SIG_DFL
 * becomes SIG_IGN, process-wide; an application's handler or SIG_IGN is
 * left alone; no signal mask changes.
 */
void ixc_driver_signals_guard(void);

#endif /* IPUXCOM_INTERNAL_H */
