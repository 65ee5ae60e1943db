// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Pure decoders for netlink messages received from the kernel: no socket,
 * no allocation, so the host unit tests can feed them crafted (and broken)
 * messages. Every length found inside a message is checked against
 * nlmsg_len before it is used.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "ipuxcom.h"

#include "internal.h"

/* Append to @buf (of @len bytes) at *@pos; silently truncates. */
__attribute__((format(printf, 4, 5)))
static void ixc_append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos + 1 >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	*pos += (size_t)n;
	if (*pos >= len)
		*pos = len - 1;
}

static bool ixc_get_u32(const struct nlattr *attr, uint32_t *val)
{
	if (attr->nla_len != NLA_HDRLEN + sizeof(uint32_t))
		return false;
	memcpy(val, (const char *)attr + NLA_HDRLEN, sizeof(*val));
	return true;
}

/*
 * The name of the top-level attribute of @req that starts at byte @offs,
 * or NULL. Walked from the start rather than jumped to, so that an offset
 * into the middle of an attribute names nothing.
 */
static const char *ixc_req_attr_name(const struct nlmsghdr *req, uint32_t offs)
{
	size_t total = req->nlmsg_len;
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(GENL_HDRLEN);

	while (off <= total && total - off >= NLA_HDRLEN) {
		const struct nlattr *attr = (const void *)((const char *)req + off);

		if (attr->nla_len < NLA_HDRLEN || attr->nla_len > total - off)
			return NULL;
		if (off == offs)
			return ixc_nl_attr_name(attr->nla_type & NLA_TYPE_MASK);
		off += NLA_ALIGN(attr->nla_len);
	}
	return NULL;
}

int ixc_nl_parse_extack(const struct nlmsghdr *nlh, const struct nlmsghdr *req,
			char *buf, size_t len)
{
	const char *msg = (const char *)nlh;
	const char *text = NULL;
	size_t total, off, text_len = 0, pos = 0;
	uint32_t offs = 0, miss_type = 0, miss_nest = 0;
	bool have_offs = false, have_miss = false, have_nest = false;
	int error;

	if (len)
		buf[0] = '\0';
	total = nlh->nlmsg_len;
	if (total < NLMSG_HDRLEN)
		return -EBADMSG;

	/* off: bytes of payload that precede the TLVs */
	switch (nlh->nlmsg_type) {
	case NLMSG_ERROR: {
		struct nlmsgerr err;

		if (total - NLMSG_HDRLEN < sizeof(err))
			return -EBADMSG;
		memcpy(&err, msg + NLMSG_HDRLEN, sizeof(err));
		error = err.error;
		off = sizeof(err);
		/*
		 * Without NETLINK_CAP_ACK (or on kernels that ignore it) the
		 * whole request is echoed back, header included in struct
		 * nlmsgerr; its own, untrusted, length says how much.
		 */
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED) && err.msg.nlmsg_len > NLMSG_HDRLEN)
			off += err.msg.nlmsg_len - NLMSG_HDRLEN;
		break;
	}
	case NLMSG_DONE:
		/* A dump's end carries the dump's return value. */
		if (total - NLMSG_HDRLEN < sizeof(error))
			return -EBADMSG;
		memcpy(&error, msg + NLMSG_HDRLEN, sizeof(error));
		off = sizeof(error);
		break;
	default:
		return -EBADMSG;
	}
	if (error > 0)
		return -EBADMSG;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return error;
	/* Checked before aligning: off may be near 4 GiB for a forged length. */
	if (off > total - NLMSG_HDRLEN)
		return error;
	off = NLMSG_HDRLEN + NLMSG_ALIGN(off);

	while (off <= total && total - off >= NLA_HDRLEN) {
		const struct nlattr *attr = (const void *)(msg + off);
		size_t alen = attr->nla_len;
		const char *payload = msg + off + NLA_HDRLEN;

		if (alen < NLA_HDRLEN || alen > total - off)
			break;
		switch (attr->nla_type & NLA_TYPE_MASK) {
		case NLMSGERR_ATTR_MSG:
			/* The kernel NUL-terminates it; a forged one may not be. */
			text = payload;
			text_len = strnlen(payload, alen - NLA_HDRLEN);
			break;
		case NLMSGERR_ATTR_OFFS:
			have_offs = ixc_get_u32(attr, &offs);
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			have_miss = ixc_get_u32(attr, &miss_type);
			break;
		case NLMSGERR_ATTR_MISS_NEST:
			have_nest = ixc_get_u32(attr, &miss_nest);
			break;
		default:
			/* COOKIE, POLICY and anything newer: not for humans. */
			break;
		}
		off += NLA_ALIGN(alen);
	}

	if (text_len)
		ixc_append(buf, len, &pos, "%.*s", (int)text_len, text);
	if (have_miss) {
		/*
		 * Inside a nest the type belongs to that nest's attribute
		 * space, so only a top-level type can be named.
		 */
		const char *name = req && !have_nest ? ixc_nl_attr_name(miss_type) : NULL;

		ixc_append(buf, len, &pos, "%smissing attribute ", pos ? "; " : "");
		if (name)
			ixc_append(buf, len, &pos, "%s", name);
		else
			ixc_append(buf, len, &pos, "type %u", miss_type);
		if (have_nest)
			ixc_append(buf, len, &pos, " in the nest at offset %u of the request",
				   miss_nest);
	}
	if (have_offs) {
		const char *name = req ? ixc_req_attr_name(req, offs) : NULL;

		ixc_append(buf, len, &pos, "%soffending attribute ", pos ? "; " : "");
		if (name)
			ixc_append(buf, len, &pos, "%s", name);
		else
			ixc_append(buf, len, &pos, "at offset %u of the request", offs);
	}
	return error;
}

/*
 * A string attribute into @buf of @len bytes: accepted with or without
 * its NUL as long as it fits; empty, over-long or with bytes after the
 * NUL: -EPROTO.
 */
static int ixc_get_name(const struct nlattr *attr, char *buf, size_t len)
{
	uint16_t plen = mnl_attr_get_payload_len(attr);
	const char *p = mnl_attr_get_payload(attr);
	size_t slen;

	if (mnl_attr_validate(attr, MNL_TYPE_STRING) < 0)
		return -EPROTO;
	slen = strnlen(p, plen);
	if (!slen || slen >= len || (slen < plen && slen + 1 != plen))
		return -EPROTO;
	memcpy(buf, p, slen);
	buf[slen] = '\0';
	return 0;
}

int ixc_nl_parse_dev(const struct nlmsghdr *nlh, uint16_t family,
		     struct ipuxcom_device_info *out)
{
	const char *msg = (const char *)nlh;
	struct ipuxcom_device_info dev = { 0 };
	bool have_id = false, have_state = false, have_backend = false;
	size_t total = nlh->nlmsg_len, off;

	/* Parsed into a local copy so that a failure leaves *out all zero. */
	memset(out, 0, sizeof(*out));
	if (nlh->nlmsg_type != family || total < NLMSG_HDRLEN ||
	    total - NLMSG_HDRLEN < sizeof(struct genlmsghdr))
		return -EPROTO;

	off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct genlmsghdr));
	/*
	 * The last attribute may lack its padding when nlmsg_len is not
	 * aligned, so off can step past total; anything else left over that
	 * is not a whole attribute means the message is corrupt.
	 */
	while (off < total) {
		const struct nlattr *attr = (const void *)(msg + off);
		uint32_t *u32 = NULL;
		bool *seen = NULL;

		if (total - off < NLA_HDRLEN || attr->nla_len < NLA_HDRLEN ||
		    attr->nla_len > total - off)
			return -EPROTO;

		switch (mnl_attr_get_type(attr)) {
		case IPUXCOM_A_DEV_ID:
			u32 = &dev.dev_id;
			seen = &have_id;
			break;
		case IPUXCOM_A_DEV_STATE:
			u32 = &dev.state;
			seen = &have_state;
			break;
		case IPUXCOM_A_DEV_ATTACHED_PID:
			u32 = &dev.attached_pid;
			break;
		case IPUXCOM_A_DEV_ATTACHED:
			u32 = &dev.attached;
			break;
		case IPUXCOM_A_DEV_TILE_COUNT:
			u32 = &dev.tile_count;
			break;
		case IPUXCOM_A_DEV_CAPABILITIES:
			if (mnl_attr_validate(attr, MNL_TYPE_U64) < 0)
				return -EPROTO;
			dev.capabilities = mnl_attr_get_u64(attr);
			break;
		case IPUXCOM_A_DEV_BACKEND:
			if (ixc_get_name(attr, dev.backend, sizeof(dev.backend)))
				return -EPROTO;
			have_backend = true;
			break;
		case IPUXCOM_A_DEV_IPU_NODE:
			/* uapi 4: only for a device held through ipu_driver. */
			if (ixc_get_name(attr, dev.ipu_node, sizeof(dev.ipu_node)))
				return -EPROTO;
			break;
		default:
			/* Added by a newer module: not ours to judge. */
			break;
		}
		if (u32) {
			/* Exactly 4 bytes: a u64 or u16 here is a protocol error. */
			if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
				return -EPROTO;
			*u32 = mnl_attr_get_u32(attr);
			if (seen)
				*seen = true;
		}
		off += NLA_ALIGN(attr->nla_len);
	}
	if (!have_id || !have_state || !have_backend)
		return -EPROTO;
	/* A module before uapi 4 says "attached" only with the pid. */
	if (dev.attached_pid)
		dev.attached = 1;
	*out = dev;
	return 0;
}
