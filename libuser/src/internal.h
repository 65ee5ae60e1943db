/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Internals of libipuxcom shared between its source files and the host
 * unit tests (which link the static archive, where hidden symbols are
 * still visible). Nothing here is exported from the shared library: every
 * name uses the ixc_ prefix so the version script's "ipuxcom_*" pattern
 * cannot pick it up, and -fvisibility=hidden keeps it local anyway.
 */
#ifndef IPUXCOM_INTERNAL_H
#define IPUXCOM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/ipuxcom.h>
#include <linux/netlink.h>

struct ipuxcom_device_info;

/* An open /dev/ipuxcom (device.c), with its transport-buffer mapping. */
struct ipuxcom {
	int fd;
	void *xbuf;		/* mmap of the loader transport buffer, or NULL */
	size_t xbuf_size;
	uint32_t hpages;	/* host-exchange pages mapped (ipuxcom_hostx_setup) */
	void *hpage[IPUXCOM_HOSTX_MAX_PAGES];
	size_t hpage_size[IPUXCOM_HOSTX_MAX_PAGES];
};

/* ioctl() returning 0 or -errno. */
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

#endif /* IPUXCOM_INTERNAL_H */
