// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * The event monitor: a generic netlink socket of its own (not the
 * struct ipuxcom_nl one, whose replies must not interleave with events),
 * joined to the "ipuxcom" family's "events" multicast group.
 *
 * Opening is one controller transaction (CTRL_CMD_GETFAMILY with an ACK,
 * bounded by SO_RCVTIMEO) that yields both the family id and the group
 * id; only then is the group joined, so the socket never holds a reply and
 * an event at the same time. After that it only ever receives multicast
 * datagrams from the kernel.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "ipuxcom.h"

#include "internal.h"

/* Longest wait for the controller's reply while opening. */
#define IXC_MON_OPEN_TIMEOUT_S	10
/* Receive buffer asked for: events are small but their skbs are not. */
#define IXC_MON_RCVBUF		(1024 * 1024)
#define IXC_MON_REQ_LEN		256

struct ipuxcom_monitor {
	struct mnl_socket *sock;
	int fd;
	uint16_t family;
	uint32_t group;
	char *buf;
	size_t buf_len;
	/* Messages of the last datagram not handed out yet: buf[pos, len). */
	size_t pos;
	size_t len;
};

struct ixc_mon_resolve {
	uint16_t family;
	uint32_t group;
	int err;
	bool answered;
};

/*
 * Read the controller's answer to the request with @seq: its NEWFAMILY
 * message, then the ACK (or an error instead).
 */
static int ixc_mon_recv_reply(struct ipuxcom_monitor *mon, uint32_t seq, uint32_t portid,
			      struct ixc_mon_resolve *res)
{
	for (;;) {
		const struct nlmsghdr *nlh = (const void *)mon->buf;
		ssize_t n;
		int left;

		n = mnl_socket_recvfrom(mon->sock, mon->buf, mon->buf_len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* EAGAIN: SO_RCVTIMEO passed; ENOSPC: truncated datagram. */
			return errno == ENOSPC ? -EMSGSIZE : -errno;
		}
		left = (int)n;
		for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
			if (nlh->nlmsg_seq != seq || nlh->nlmsg_pid != portid)
				continue;
			switch (nlh->nlmsg_type) {
			case NLMSG_ERROR:
			case NLMSG_DONE: {
				int r = ixc_nl_parse_extack(nlh, NULL, NULL, 0);

				if (r)
					return r;
				if (res->err)
					return res->err;
				return res->answered ? 0 : -EPROTO;
			}
			case NLMSG_NOOP:
			case NLMSG_OVERRUN:
				continue;
			default:
				/* Keep reading to the ACK; the first verdict stands. */
				if (!res->err && !res->answered) {
					res->err = ixc_nl_parse_family_group(nlh,
									     IPUXCOM_GENL_MCGRP_EVENTS,
									     &res->family,
									     &res->group);
					res->answered = !res->err;
				} else if (!res->err) {
					res->err = -EPROTO;	/* one family, one answer */
				}
				break;
			}
		}
		if (left > 0)
			return -EPROTO;
	}
}

static int ixc_mon_resolve(struct ipuxcom_monitor *mon)
{
	uint32_t req[IXC_MON_REQ_LEN / sizeof(uint32_t)];
	struct ixc_mon_resolve res = { 0 };
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;
	uint32_t seq = (uint32_t)time(NULL) | 1;
	int err;

	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	if (!mnl_attr_put_strz_check(nlh, sizeof(req), CTRL_ATTR_FAMILY_NAME, IPUXCOM_GENL_NAME))
		return -EMSGSIZE;
	if (mnl_socket_sendto(mon->sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	err = ixc_mon_recv_reply(mon, seq, mnl_socket_get_portid(mon->sock), &res);
	if (err)
		return err;
	mon->family = res.family;
	mon->group = res.group;
	return 0;
}

static int ixc_monitor_open_do(struct ipuxcom_monitor **out)
{
	struct timeval timeout = { .tv_sec = IXC_MON_OPEN_TIMEOUT_S };
	struct ipuxcom_monitor *mon;
	int rcvbuf = IXC_MON_RCVBUF;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;

	mon = calloc(1, sizeof(*mon));
	if (!mon)
		return -ENOMEM;
	mon->fd = -1;
	mon->buf_len = MNL_SOCKET_BUFFER_SIZE;
	mon->buf = malloc(mon->buf_len);
	if (!mon->buf) {
		err = -ENOMEM;
		goto fail;
	}
	mon->sock = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!mon->sock) {
		err = -errno;
		goto fail;
	}
	mon->fd = mnl_socket_get_fd(mon->sock);
	/* Bounded: the controller answers at once or never. */
	if (setsockopt(mon->fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)) < 0) {
		err = -errno;
		goto fail;
	}
	/*
	 * Room for bursts (a load emits ~30 events, each a few KiB of skb).
	 * Best effort: the kernel caps it at net.core.rmem_max.
	 */
	setsockopt(mon->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (mnl_socket_bind(mon->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto fail;
	}
	err = ixc_mon_resolve(mon);
	if (err)
		goto fail;
	if (mnl_socket_setsockopt(mon->sock, NETLINK_ADD_MEMBERSHIP, &mon->group,
				  sizeof(mon->group)) < 0) {
		err = -errno;
		goto fail;
	}
	*out = mon;
	return 0;

fail:
	ipuxcom_monitor_close(mon);
	return err;
}

int ipuxcom_monitor_open(struct ipuxcom_monitor **out)
{
	int err = ixc_monitor_open_do(out);

	if (err < 0)
		ixc_err_note_msg(IPUXCOM_ERR_NETLINK, err, 0, NULL);
	return err;
}

void ipuxcom_monitor_close(struct ipuxcom_monitor *mon)
{
	if (!mon)
		return;
	if (mon->sock)
		mnl_socket_close(mon->sock);
	free(mon->buf);
	free(mon);
}

int ipuxcom_monitor_fd(const struct ipuxcom_monitor *mon)
{
	return mon ? mon->fd : -EINVAL;
}

const char *ipuxcom_event_name(uint32_t type)
{
	switch (type) {
	case IPUXCOM_GENL_CMD_DEV_NEW:
		return "dev-new";
	case IPUXCOM_GENL_CMD_DEV_DEL:
		return "dev-del";
	case IPUXCOM_GENL_CMD_STATE:
		return "state";
	case IPUXCOM_GENL_CMD_LOAD_PROGRESS:
		return "load-progress";
	case IPUXCOM_GENL_CMD_TIMEOUT:
		return "timeout";
	case IPUXCOM_GENL_CMD_RESET:
		return "reset";
	default:
		return "unknown";
	}
}

static int64_t ixc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The next whole message of the pending datagram, or NULL. A datagram
 * whose framing is broken is dropped whole: *@bad is set.
 */
static const struct nlmsghdr *ixc_mon_pending(struct ipuxcom_monitor *mon, bool *bad)
{
	const struct nlmsghdr *nlh;
	size_t left = mon->len - mon->pos;

	if (!left)
		return NULL;
	nlh = (const void *)(mon->buf + mon->pos);
	if (left < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > left) {
		mon->pos = mon->len = 0;
		*bad = true;
		return NULL;
	}
	mon->pos += NLMSG_ALIGN(nlh->nlmsg_len) < left ? NLMSG_ALIGN(nlh->nlmsg_len) : left;
	return nlh;
}

/* Receive one datagram without waiting: 0, -EAGAIN, -ENOBUFS, -EPROTO ... */
static int ixc_mon_recv(struct ipuxcom_monitor *mon)
{
	struct sockaddr_nl from;
	struct iovec iov = { .iov_base = mon->buf, .iov_len = mon->buf_len };
	struct msghdr mh = {
		.msg_name = &from, .msg_namelen = sizeof(from),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t n;

	do
		n = recvmsg(mon->fd, &mh, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	/* Only the kernel (port 0) sends to the group; a cut message is lost. */
	if ((mh.msg_flags & MSG_TRUNC) || mh.msg_namelen != sizeof(from) ||
	    from.nl_family != AF_NETLINK || from.nl_pid != 0)
		return -EPROTO;
	mon->pos = 0;
	mon->len = (size_t)n;
	return 0;
}

static int ixc_monitor_next_do(struct ipuxcom_monitor *mon, struct ipuxcom_event *ev,
			 int timeout_ms)
{
	struct ipuxcom_event e;
	int64_t deadline = 0;
	uint32_t size;
	int err;

	if (!ev)
		return -EINVAL;
	size = ev->size;
	err = ixc_struct_out_check(size, IPUXCOM_EVENT_SIZE_MIN);
	if (err)
		return err;
	memset(ev, 0, size);
	ev->size = size;
	if (!mon)
		return -EINVAL;
	if (timeout_ms > 0)
		deadline = ixc_now_ms() + timeout_ms;

	for (;;) {
		const struct nlmsghdr *nlh;
		bool bad = false;

		while ((nlh = ixc_mon_pending(mon, &bad))) {
			switch (nlh->nlmsg_type) {
			case NLMSG_NOOP:
			case NLMSG_OVERRUN:
			case NLMSG_DONE:
			case NLMSG_ERROR:
				continue;	/* nothing the group sends */
			default:
				break;
			}
			err = ixc_event_parse(nlh, mon->family, &e);
			if (err == -ENOMSG)
				continue;	/* a newer module's event */
			if (!err)
				ixc_struct_out(ev, size, &e, sizeof(e));
			return err;
		}
		if (bad)
			return -EPROTO;

		err = ixc_mon_recv(mon);
		if (err == 0)
			continue;
		if (err != -EAGAIN)
			return err;	/* -ENOBUFS: the kernel dropped events */

		for (;;) {
			struct pollfd pfd = { .fd = mon->fd, .events = POLLIN };
			int wait = timeout_ms < 0 ? -1 : 0;
			int r;

			if (timeout_ms > 0) {
				int64_t left = deadline - ixc_now_ms();

				if (left <= 0)
					return -EAGAIN;
				wait = left > 1000000 ? 1000000 : (int)left;
			}
			r = poll(&pfd, 1, wait);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				return -errno;
			if (r > 0)
				break;
			if (timeout_ms == 0)
				return -EAGAIN;
		}
	}
}

int ipuxcom_monitor_next(struct ipuxcom_monitor *mon, struct ipuxcom_event *ev,
			 int timeout_ms)
{
	int err = ixc_monitor_next_do(mon, ev, timeout_ms);

	if (err < 0)
		ixc_err_note_msg(IPUXCOM_ERR_NETLINK, err, 0, NULL);
	return err;
}
