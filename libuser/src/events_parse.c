// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Pure decoders for the monitor: the controller's family description
 * (family id and multicast group ids) and the "events" group's messages.
 * No socket, no allocation, so the host unit tests can feed them crafted
 * and broken messages. Every length inside a message is checked against
 * nlmsg_len before it is used.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "ipuxcom.h"

#include "internal.h"

/* Largest errno the kernel returns (MAX_ERRNO). */
#define IXC_MAX_ERRNO	4095

/*
 * The attribute at *@off of the @total bytes at @base, advancing *@off.
 * Returns 1 with *@attr set, 0 at the end, -EPROTO when what is left is not
 * a whole attribute. The last attribute may lack its padding when the
 * length is not aligned, so *@off may step past @total.
 */
static int ixc_attr_next(const char *base, size_t total, size_t *off,
			 const struct nlattr **attr)
{
	const struct nlattr *a;

	if (*off >= total)
		return 0;
	a = (const void *)(base + *off);
	if (total - *off < NLA_HDRLEN || a->nla_len < NLA_HDRLEN || a->nla_len > total - *off)
		return -EPROTO;
	*attr = a;
	*off += NLA_ALIGN(a->nla_len);
	return 1;
}

static bool ixc_attr_u32(const struct nlattr *attr, uint32_t *val)
{
	if (mnl_attr_get_payload_len(attr) != sizeof(*val))
		return false;
	memcpy(val, mnl_attr_get_payload(attr), sizeof(*val));
	return true;
}

/* A NUL-terminated string payload (the controller always terminates). */
static const char *ixc_attr_strz(const struct nlattr *attr)
{
	uint16_t plen = mnl_attr_get_payload_len(attr);
	const char *s = mnl_attr_get_payload(attr);

	if (!plen || !memchr(s, '\0', plen))
		return NULL;
	return s;
}

/*
 * One entry of CTRL_ATTR_MCAST_GROUPS: sets *@match and *@id when it is
 * named @group. 0 or -EPROTO.
 */
static int ixc_parse_mcast_grp(const struct nlattr *grp, const char *group, bool *match,
			       uint32_t *id)
{
	const char *base = mnl_attr_get_payload(grp);
	size_t total = mnl_attr_get_payload_len(grp), off = 0;
	const struct nlattr *attr;
	const char *name = NULL;
	bool have_id = false;
	uint32_t gid = 0;
	int r;

	while ((r = ixc_attr_next(base, total, &off, &attr)) > 0) {
		switch (mnl_attr_get_type(attr)) {
		case CTRL_ATTR_MCAST_GRP_NAME:
			name = ixc_attr_strz(attr);
			if (!name)
				return -EPROTO;
			break;
		case CTRL_ATTR_MCAST_GRP_ID:
			if (!ixc_attr_u32(attr, &gid))
				return -EPROTO;
			have_id = true;
			break;
		default:
			break;
		}
	}
	if (r < 0 || !name || !have_id)
		return -EPROTO;
	/* Group 0 does not exist: it would mean "no group" to the kernel. */
	if (!strcmp(name, group)) {
		if (!gid)
			return -EPROTO;
		*match = true;
		*id = gid;
	}
	return 0;
}

int ixc_nl_parse_family_group(const struct nlmsghdr *nlh, const char *group,
			      uint16_t *family, uint32_t *group_id)
{
	const char *msg = (const char *)nlh;
	size_t total = nlh->nlmsg_len, off;
	const struct nlattr *attr;
	struct genlmsghdr genl;
	bool have_family = false, have_group = false;
	uint16_t fam = 0;
	uint32_t gid = 0;
	int r;

	if (nlh->nlmsg_type != GENL_ID_CTRL || total < NLMSG_HDRLEN ||
	    total - NLMSG_HDRLEN < sizeof(genl))
		return -EPROTO;
	memcpy(&genl, msg + NLMSG_HDRLEN, sizeof(genl));
	if (genl.cmd != CTRL_CMD_NEWFAMILY)
		return -EPROTO;

	off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(genl));
	while ((r = ixc_attr_next(msg, total, &off, &attr)) > 0) {
		switch (mnl_attr_get_type(attr)) {
		case CTRL_ATTR_FAMILY_ID:
			if (mnl_attr_get_payload_len(attr) != sizeof(uint16_t))
				return -EPROTO;
			memcpy(&fam, mnl_attr_get_payload(attr), sizeof(fam));
			have_family = true;
			break;
		case CTRL_ATTR_MCAST_GROUPS: {
			const char *nbase = mnl_attr_get_payload(attr);
			size_t ntotal = mnl_attr_get_payload_len(attr), noff = 0;
			const struct nlattr *grp;
			int nr;

			/* An array of nests, each {NAME, ID}, typed by index. */
			while ((nr = ixc_attr_next(nbase, ntotal, &noff, &grp)) > 0) {
				bool match = false;
				uint32_t id = 0;

				if (ixc_parse_mcast_grp(grp, group, &match, &id))
					return -EPROTO;
				if (match && !have_group) {
					gid = id;
					have_group = true;
				}
			}
			if (nr < 0)
				return -EPROTO;
			break;
		}
		default:
			/* name, version, ops, policies ...: not needed */
			break;
		}
	}
	/* GENL_ID_CTRL is the lowest id: nothing at or below it is a family. */
	if (r < 0 || !have_family || fam <= GENL_ID_CTRL)
		return -EPROTO;
	if (!have_group)
		return -EOPNOTSUPP;
	*family = fam;
	*group_id = gid;
	return 0;
}

/* Attributes of the events, as bits of a "seen" mask. */
#define IXC_BIT(a)	(1u << (a))

static int ixc_event_required(uint8_t cmd, uint32_t *mask)
{
	switch (cmd) {
	case IPUXCOM_GENL_CMD_DEV_DEL:
		*mask = IXC_BIT(IPUXCOM_A_DEV_ID);
		return 0;
	case IPUXCOM_GENL_CMD_STATE:
		*mask = IXC_BIT(IPUXCOM_A_DEV_ID) | IXC_BIT(IPUXCOM_A_DEV_STATE) |
			IXC_BIT(IPUXCOM_A_OLD_STATE);
		return 0;
	case IPUXCOM_GENL_CMD_LOAD_PROGRESS:
		*mask = IXC_BIT(IPUXCOM_A_DEV_ID) | IXC_BIT(IPUXCOM_A_BATCH) |
			IXC_BIT(IPUXCOM_A_BATCHES) | IXC_BIT(IPUXCOM_A_BYTES);
		return 0;
	case IPUXCOM_GENL_CMD_TIMEOUT:
		*mask = IXC_BIT(IPUXCOM_A_DEV_ID) | IXC_BIT(IPUXCOM_A_REG) |
			IXC_BIT(IPUXCOM_A_VALUE) | IXC_BIT(IPUXCOM_A_ERROR);
		return 0;
	case IPUXCOM_GENL_CMD_RESET:
		*mask = IXC_BIT(IPUXCOM_A_DEV_ID) | IXC_BIT(IPUXCOM_A_ERROR);
		return 0;
	default:
		return -ENOMSG;
	}
}

int ixc_event_parse(const struct nlmsghdr *nlh, uint16_t family, struct ipuxcom_event *ev)
{
	const char *msg = (const char *)nlh;
	size_t total = nlh->nlmsg_len, off;
	struct ipuxcom_event e = { 0 };
	const struct nlattr *attr;
	struct genlmsghdr genl;
	uint32_t seen = 0, need = 0;
	int r;

	memset(ev, 0, sizeof(*ev));
	if (nlh->nlmsg_type != family || total < NLMSG_HDRLEN ||
	    total - NLMSG_HDRLEN < sizeof(genl))
		return -EPROTO;
	memcpy(&genl, msg + NLMSG_HDRLEN, sizeof(genl));
	e.type = genl.cmd;

	if (genl.cmd == IPUXCOM_GENL_CMD_DEV_NEW) {
		/* The DEV_GET attributes: one decoder for both. */
		r = ixc_nl_parse_dev(nlh, family, &e.dev);
		if (r)
			return r;
		e.dev_id = e.dev.dev_id;
		e.state = e.dev.state;
		*ev = e;
		return 0;
	}
	r = ixc_event_required(genl.cmd, &need);
	if (r)
		return r;

	off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(genl));
	while ((r = ixc_attr_next(msg, total, &off, &attr)) > 0) {
		uint16_t type = mnl_attr_get_type(attr);
		uint32_t *u32 = NULL;

		switch (type) {
		case IPUXCOM_A_DEV_ID:
			u32 = &e.dev_id;
			break;
		case IPUXCOM_A_DEV_STATE:
			u32 = &e.state;
			break;
		case IPUXCOM_A_OLD_STATE:
			u32 = &e.old_state;
			break;
		case IPUXCOM_A_BATCH:
			u32 = &e.batch;
			break;
		case IPUXCOM_A_BATCHES:
			u32 = &e.batches;
			break;
		case IPUXCOM_A_REG:
			u32 = &e.reg;
			break;
		case IPUXCOM_A_VALUE:
			u32 = &e.value;
			break;
		case IPUXCOM_A_ERROR: {
			uint32_t v;

			if (!ixc_attr_u32(attr, &v))
				return -EPROTO;
			memcpy(&e.error, &v, sizeof(e.error));
			break;
		}
		case IPUXCOM_A_BYTES:
			/* Exactly 8 bytes; the kernel pads with IPUXCOM_A_PAD. */
			if (mnl_attr_get_payload_len(attr) != sizeof(e.bytes))
				return -EPROTO;
			memcpy(&e.bytes, mnl_attr_get_payload(attr), sizeof(e.bytes));
			break;
		default:
			/* IPUXCOM_A_PAD, or added by a newer module. */
			continue;
		}
		if (u32 && !ixc_attr_u32(attr, u32))
			return -EPROTO;
		seen |= IXC_BIT(type);
	}
	if (r < 0 || (seen & need) != need)
		return -EPROTO;

	switch (genl.cmd) {
	case IPUXCOM_GENL_CMD_LOAD_PROGRESS:
		if (!e.batch || e.batch > e.batches)
			return -EPROTO;
		break;
	case IPUXCOM_GENL_CMD_TIMEOUT:
		/* A wait that ended without its condition ended with an error. */
		if (e.error >= 0 || e.error < -IXC_MAX_ERRNO)
			return -EPROTO;
		break;
	case IPUXCOM_GENL_CMD_RESET:
		if (e.error > 0 || e.error < -IXC_MAX_ERRNO)
			return -EPROTO;
		break;
	default:
		break;
	}
	*ev = e;
	return 0;
}
