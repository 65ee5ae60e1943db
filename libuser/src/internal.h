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
#include <linux/netlink.h>

struct ipuxcom_device_info;

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

#endif /* IPUXCOM_INTERNAL_H */
