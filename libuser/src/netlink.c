// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * The "ipuxcom" generic netlink family, over libmnl.
 *
 * Each request is one transaction: send it with a fresh sequence number,
 * then read until its terminator. A "do" request is sent with NLM_F_ACK so
 * that it always ends with an NLMSG_ERROR (error 0 on success), a dump
 * ends with NLMSG_DONE. Replies carrying another sequence number are left
 * over from a transaction that was abandoned on error, and are skipped, so
 * one failed call does not poison the next.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "ipuxcom.h"

#include "internal.h"

/* Room for the longest extended-ack text plus what we add to it. */
#define IXC_ERRMSG_LEN	256
/* Requests are a few attributes; replies use nl->buf. */
#define IXC_REQ_LEN	256
/* Longest wait for one reply datagram. */
#define IXC_NL_TIMEOUT_S	10

struct ipuxcom_nl {
	struct mnl_socket *sock;
	char *buf;
	size_t buf_len;
	uint32_t portid;
	uint32_t seq;
	uint16_t family;
	char errmsg[IXC_ERRMSG_LEN];
};

/* Returns 0 or a negative errno; only called for this transaction's data. */
typedef int (*ixc_nl_data_cb)(const struct nlmsghdr *nlh, void *data);

static struct nlmsghdr *ixc_genl_put(void *buf, uint16_t type, uint16_t flags,
				     uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

static int ixc_nl_transact(struct ipuxcom_nl *nl, struct nlmsghdr *req,
			   ixc_nl_data_cb cb, void *data)
{
	/* Only our own family's attributes have IPUXCOM_A_* names. */
	bool ours = nl->family && req->nlmsg_type == nl->family;
	bool intr = false;
	uint32_t seq;
	int err = 0;

	nl->errmsg[0] = '\0';
	/* 0 means "not checked" to libmnl and the kernel: never use it. */
	if (++nl->seq == 0)
		nl->seq = 1;
	seq = nl->seq;
	req->nlmsg_seq = seq;

	if (mnl_socket_sendto(nl->sock, req, req->nlmsg_len) < 0)
		return -errno;

	for (;;) {
		const struct nlmsghdr *nlh = (const void *)nl->buf;
		ssize_t n;
		int left;

		n = mnl_socket_recvfrom(nl->sock, nl->buf, nl->buf_len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/*
			 * libmnl says ENOSPC when a message did not fit the
			 * buffer (MSG_TRUNC); it is lost, maybe with the
			 * terminator, so waiting for more could hang.
			 */
			return errno == ENOSPC ? -EMSGSIZE : -errno;
		}
		left = (int)n;
		for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
			int r;

			if (nlh->nlmsg_seq != seq || nlh->nlmsg_pid != nl->portid)
				continue;
			/* The device list changed while it was being dumped. */
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = true;
			switch (nlh->nlmsg_type) {
			case NLMSG_ERROR:
			case NLMSG_DONE:
				r = ixc_nl_parse_extack(nlh, ours ? req : NULL, nl->errmsg,
							sizeof(nl->errmsg));
				/* The kernel's verdict beats ours on its data. */
				if (r)
					return r;
				if (err)
					return err;
				return intr ? -EINTR : 0;
			case NLMSG_NOOP:
			case NLMSG_OVERRUN:
				continue;
			default:
				/*
				 * After a bad message keep reading, but only
				 * to reach the terminator of this reply.
				 */
				if (!err)
					err = cb ? cb(nlh, data) : -EPROTO;
				break;
			}
		}
		/* Bytes that are not a whole message: framing is lost. */
		if (left > 0)
			return -EPROTO;
	}
}

static int ixc_nl_family_cb(const struct nlmsghdr *nlh, void *data)
{
	uint16_t *family = data;
	const struct nlattr *attr;

	if (nlh->nlmsg_type != GENL_ID_CTRL ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr))
		return -EPROTO;
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) != CTRL_ATTR_FAMILY_ID)
			continue;
		if (mnl_attr_validate(attr, MNL_TYPE_U16) < 0)
			return -EPROTO;
		*family = mnl_attr_get_u16(attr);
	}
	/* GENL_ID_CTRL is the lowest id; 0 is never a family. */
	return *family ? 0 : -EPROTO;
}

static int ixc_nl_resolve_family(struct ipuxcom_nl *nl)
{
	/* nlmsghdr alignment for the request buffer. */
	uint32_t req[IXC_REQ_LEN / sizeof(uint32_t)];
	struct nlmsghdr *nlh;
	uint16_t family = 0;
	int err;

	nlh = ixc_genl_put(req, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY, 1);
	if (!mnl_attr_put_strz_check(nlh, sizeof(req), CTRL_ATTR_FAMILY_NAME,
				     IPUXCOM_GENL_NAME))
		return -EMSGSIZE;
	err = ixc_nl_transact(nl, nlh, ixc_nl_family_cb, &family);
	if (err)
		return err;
	if (!family)
		return -EPROTO;	/* acked without an answer */
	nl->family = family;
	return 0;
}

static int ixc_nl_open_do(struct ipuxcom_nl **out)
{
	struct ipuxcom_nl *nl;
	struct timeval timeout = { .tv_sec = IXC_NL_TIMEOUT_S };
	int one = 1;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	nl->buf_len = MNL_SOCKET_BUFFER_SIZE;
	nl->buf = malloc(nl->buf_len);
	if (!nl->buf) {
		err = -ENOMEM;
		goto fail;
	}
	/* SOCK_CLOEXEC: a library must not leak descriptors into exec'd programs. */
	nl->sock = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl->sock) {
		err = -errno;
		goto fail;
	}
	/*
	 * EXT_ACK: the kernel explains its errors (which attribute, why).
	 * CAP_ACK: it does not echo our request back in each error.
	 * Both are best effort: older kernels lack them, and all we lose
	 * there is the explanation.
	 */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	/*
	 * Bounded waits: the kernel answers at once, so a reply that has not
	 * come within IXC_NL_TIMEOUT_S seconds never will (recv fails EAGAIN).
	 */
	if (setsockopt(mnl_socket_get_fd(nl->sock), SOL_SOCKET, SO_RCVTIMEO,
		       &timeout, sizeof(timeout)) < 0) {
		err = -errno;
		goto fail;
	}
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto fail;
	}
	nl->portid = mnl_socket_get_portid(nl->sock);

	/* The controller answers -ENOENT for a family nobody registered. */
	err = ixc_nl_resolve_family(nl);
	if (err)
		goto fail;
	*out = nl;
	return 0;

fail:
	ipuxcom_nl_close(nl);
	return err;
}

int ipuxcom_nl_open(struct ipuxcom_nl **out)
{
	int err = ixc_nl_open_do(out);

	if (err < 0)
		ixc_err_note_msg(IPUXCOM_ERR_NETLINK, err, 0, NULL);
	return err;
}

void ipuxcom_nl_close(struct ipuxcom_nl *nl)
{
	if (!nl)
		return;
	if (nl->sock)
		mnl_socket_close(nl->sock);
	free(nl->buf);
	free(nl);
}

const char *ipuxcom_nl_errmsg(const struct ipuxcom_nl *nl)
{
	return nl ? nl->errmsg : "";
}

struct ixc_dev_get {
	uint16_t family;
	unsigned int count;
	struct ipuxcom_device_info *dev;
};

static int ixc_dev_get_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ixc_dev_get *ctx = data;

	/* A "do" answers with exactly one device. */
	if (ctx->count++)
		return -EPROTO;
	return ixc_nl_parse_dev(nlh, ctx->family, ctx->dev);
}

static int ixc_nl_dev_get_do(struct ipuxcom_nl *nl, uint32_t dev_id,
		       struct ipuxcom_device_info *out)
{
	uint32_t req[IXC_REQ_LEN / sizeof(uint32_t)];
	struct ipuxcom_device_info dev = { 0 };
	struct ixc_dev_get ctx = { .dev = &dev };
	struct nlmsghdr *nlh;
	int err;

	if (!nl || !out)
		return -EINVAL;
	ctx.family = nl->family;
	nlh = ixc_genl_put(req, nl->family, NLM_F_ACK, IPUXCOM_GENL_CMD_DEV_GET,
			   IPUXCOM_GENL_VERSION);
	if (!mnl_attr_put_u32_check(nlh, sizeof(req), IPUXCOM_A_DEV_ID, dev_id))
		return -EMSGSIZE;
	err = ixc_nl_transact(nl, nlh, ixc_dev_get_cb, &ctx);
	if (err)
		return err;
	if (ctx.count != 1 || dev.dev_id != dev_id)
		return -EPROTO;
	*out = dev;
	return 0;
}

int ipuxcom_nl_dev_get(struct ipuxcom_nl *nl, uint32_t dev_id, struct ipuxcom_device_info *out)
{
	int err = ixc_nl_dev_get_do(nl, dev_id, out);

	if (err < 0)
		ixc_err_note_msg(IPUXCOM_ERR_NETLINK, err, 0, nl ? nl->errmsg : NULL);
	return err;
}

struct ixc_dev_list {
	uint16_t family;
	size_t count;
	size_t cap;
	struct ipuxcom_device_info *devs;
};

static int ixc_dev_list_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ixc_dev_list *ctx = data;
	int err;

	if (ctx->count == ctx->cap) {
		size_t cap = ctx->cap ? ctx->cap * 2 : 8;
		struct ipuxcom_device_info *devs;

		if (cap > SIZE_MAX / sizeof(*devs))
			return -ENOMEM;
		devs = realloc(ctx->devs, cap * sizeof(*devs));
		if (!devs)
			return -ENOMEM;
		ctx->devs = devs;
		ctx->cap = cap;
	}
	err = ixc_nl_parse_dev(nlh, ctx->family, &ctx->devs[ctx->count]);
	if (err)
		return err;
	ctx->count++;
	return 0;
}

static int ixc_nl_dev_list_do(struct ipuxcom_nl *nl, struct ipuxcom_device_info **devs,
			size_t *count)
{
	uint32_t req[IXC_REQ_LEN / sizeof(uint32_t)];
	int err = 0;

	if (devs)
		*devs = NULL;
	if (count)
		*count = 0;
	if (!nl || !devs || !count)
		return -EINVAL;

	/*
	 * A dump interrupted by a device coming or going (NLM_F_DUMP_INTR)
	 * may have missed or repeated one: start over, a few times.
	 */
	for (int attempt = 0; attempt < 3; attempt++) {
		struct ixc_dev_list ctx = { .family = nl->family };
		struct nlmsghdr *nlh;

		nlh = ixc_genl_put(req, nl->family, NLM_F_DUMP, IPUXCOM_GENL_CMD_DEV_GET,
				   IPUXCOM_GENL_VERSION);
		err = ixc_nl_transact(nl, nlh, ixc_dev_list_cb, &ctx);
		if (!err) {
			*devs = ctx.devs;
			*count = ctx.count;
			return 0;
		}
		free(ctx.devs);
		if (err != -EINTR)
			break;
	}
	return err;
}

int ipuxcom_nl_dev_list(struct ipuxcom_nl *nl, struct ipuxcom_device_info **devs, size_t *count)
{
	int err = ixc_nl_dev_list_do(nl, devs, count);

	if (err < 0)
		ixc_err_note_msg(IPUXCOM_ERR_NETLINK, err, 0, nl ? nl->errmsg : NULL);
	return err;
}

void ipuxcom_nl_dev_list_free(struct ipuxcom_device_info *devs)
{
	free(devs);
}
