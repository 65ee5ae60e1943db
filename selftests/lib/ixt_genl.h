/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Raw generic netlink for the tests that bypass libipuxcom's own netlink
 * code on purpose (netlink_test checks the family by hand, the ioctl
 * fuzzer sends garbage to it): resolving the ipuxcom family id through
 * the generic netlink controller.
 */
#ifndef IXT_GENL_H
#define IXT_GENL_H

#include <errno.h>
#include <stdint.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "ipuxcom.h"

/*
 * The id of the IPUXCOM_GENL_NAME family on @sock (bound, NETLINK_GENERIC)
 * into *@family: 0, -errno of the socket, or -ENOENT.
 */
static inline int ixt_genl_family(struct mnl_socket *sock, uint16_t *family)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	const struct nlattr *a;
	ssize_t len;

	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = 1;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, IPUXCOM_GENL_NAME);
	if (mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	len = mnl_socket_recvfrom(sock, buf, sizeof(buf));
	if (len < 0)
		return -errno;
	nlh = (struct nlmsghdr *)buf;
	if (nlh->nlmsg_type != GENL_ID_CTRL)
		return -ENOENT;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID) {
			*family = mnl_attr_get_u16(a);
			return 0;
		}
	return -ENOENT;
}

#endif
