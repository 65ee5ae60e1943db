/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The registered ipuxcom devices, listed through the "ipuxcom" generic
 * netlink family's DEV_GET dump with plain socket calls: the ids are not
 * fixed (the module allocates them cyclically, so a device added after
 * one was removed gets a new id), the tests find them, and this works in
 * every test binary, including the static 32-bit ones that link no
 * library. Included by ipuxcom_test.h.
 */
#ifndef IXT_DEVLIST_H
#define IXT_DEVLIST_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/ipuxcom.h>
#include <linux/netlink.h>

#define IXT_NL_BUF	16384

/* One generic netlink request: header, genl header, attributes after. */
struct ixt_nl_req {
	struct nlmsghdr nlh;
	struct genlmsghdr g;
	char attrs[64];
};

/* Append a NUL-terminated string attribute to @r. */
static inline void ixt_nl_put_str(struct ixt_nl_req *r, uint16_t type, const char *s)
{
	struct nlattr *a = (struct nlattr *)((char *)r + NLMSG_ALIGN(r->nlh.nlmsg_len));
	size_t len = strlen(s) + 1;

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy((char *)a + NLA_HDRLEN, s, len);
	r->nlh.nlmsg_len = NLMSG_ALIGN(r->nlh.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/*
 * Send @r, then hand every reply message to @cb until the end of a dump
 * (or the one reply of a non-dump request); 0 or -errno (a netlink error
 * answer's own).
 */
static inline int ixt_nl_talk(int fd, struct ixt_nl_req *r,
			      void (*cb)(const struct nlmsghdr *h, void *ctx), void *ctx)
{
	static __thread union { struct nlmsghdr h; char b[IXT_NL_BUF]; } buf;
	int dump = r->nlh.nlmsg_flags & NLM_F_DUMP;

	if (send(fd, r, r->nlh.nlmsg_len, 0) != (ssize_t)r->nlh.nlmsg_len)
		return -errno;
	for (;;) {
		ssize_t n = recv(fd, buf.b, sizeof(buf.b), 0);
		int len = (int)n;

		if (n < 0)
			return -errno;
		for (struct nlmsghdr *h = &buf.h; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_seq != r->nlh.nlmsg_seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
			cb(h, ctx);
			if (!dump)
				return 0;
		}
	}
}

/* The attributes of a generic netlink message, one by one. */
#define ixt_nl_for_each_attr(a, h, left)					\
	for ((a) = (const struct nlattr *)((const char *)NLMSG_DATA(h) + GENL_HDRLEN), \
	     (left) = (int)(h)->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;	\
	     (left) >= NLA_HDRLEN && (a)->nla_len >= NLA_HDRLEN && (a)->nla_len <= (left); \
	     (left) -= NLA_ALIGN((a)->nla_len),					\
	     (a) = (const struct nlattr *)((const char *)(a) + NLA_ALIGN((a)->nla_len)))

static inline void ixt_nl_family_cb(const struct nlmsghdr *h, void *ctx)
{
	const struct nlattr *a;
	int left;

	ixt_nl_for_each_attr(a, h, left)
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			memcpy(ctx, (const char *)a + NLA_HDRLEN, sizeof(uint16_t));
}

struct ixt_devlist {
	uint32_t *ids;
	char (*backends)[IPUXCOM_BACKEND_NAME_LEN];
	int max;
	int n;
};

static inline void ixt_nl_dev_cb(const struct nlmsghdr *h, void *ctx)
{
	struct ixt_devlist *l = ctx;
	const char *backend = "";
	const struct nlattr *a;
	int left, have_id = 0;
	uint32_t id = 0;

	ixt_nl_for_each_attr(a, h, left) {
		const char *p = (const char *)a + NLA_HDRLEN;

		if ((a->nla_type & NLA_TYPE_MASK) == IPUXCOM_A_DEV_ID) {
			memcpy(&id, p, sizeof(id));
			have_id = 1;
		} else if ((a->nla_type & NLA_TYPE_MASK) == IPUXCOM_A_DEV_BACKEND) {
			backend = p;
		}
	}
	if (!have_id || l->n >= l->max)
		return;
	l->ids[l->n] = id;
	if (l->backends) {
		strncpy(l->backends[l->n], backend, IPUXCOM_BACKEND_NAME_LEN - 1);
		l->backends[l->n][IPUXCOM_BACKEND_NAME_LEN - 1] = '\0';
	}
	l->n++;
}

/*
 * The ids of the registered devices in ascending order into @ids (at most
 * @max of them) and, unless @backends is NULL, their backend names; the
 * number stored, or -errno (-ENOENT: the module is not loaded).
 */
static inline int ixt_dev_list(uint32_t *ids, char (*backends)[IPUXCOM_BACKEND_NAME_LEN],
			       int max)
{
	struct ixt_devlist l = { ids, backends, max, 0 };
	struct ixt_nl_req r;
	uint16_t family = 0;
	int fd, ret;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	memset(&r, 0, sizeof(r));
	r.nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r.nlh.nlmsg_type = GENL_ID_CTRL;
	r.nlh.nlmsg_flags = NLM_F_REQUEST;
	r.nlh.nlmsg_seq = 1;
	r.g.cmd = CTRL_CMD_GETFAMILY;
	r.g.version = 1;
	ixt_nl_put_str(&r, CTRL_ATTR_FAMILY_NAME, IPUXCOM_GENL_NAME);
	ret = ixt_nl_talk(fd, &r, ixt_nl_family_cb, &family);
	if (!ret && !family)
		ret = -ENOENT;
	if (!ret) {
		memset(&r, 0, sizeof(r));
		r.nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
		r.nlh.nlmsg_type = family;
		r.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		r.nlh.nlmsg_seq = 2;
		r.g.cmd = IPUXCOM_GENL_CMD_DEV_GET;
		r.g.version = IPUXCOM_GENL_VERSION;
		ret = ixt_nl_talk(fd, &r, ixt_nl_dev_cb, &l);
	}
	close(fd);
	return ret ? ret : l.n;
}

#endif /* IXT_DEVLIST_H */
