// SPDX-License-Identifier: GPL-2.0-only
/*
 * libipuxcom and the ipuxcom command on the build host, without the
 * module: netlink reply decoding fed crafted (and broken) messages,
 * error and state names, argument validation, and the command's usage
 * errors and exit codes.
 *
 * Crafted messages are copied into heap buffers of exactly nlmsg_len
 * bytes, so that the ASan build catches any read past the message.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <ipuxcom.h>

/* Internal decoders, reachable through the static archive. */
#include "../../libuser/src/internal.h"
/* The command's JSON writer is plain C with no dependencies: test it here. */
#include "../../tools/json.c"

#define FAMILY 0x1c	/* any id above GENL_ID_CTRL */

/* Room to build a message before it is copied to its exact-size buffer. */
union scratch {
	struct nlmsghdr nlh;
	char buf[1024];
};

/* A heap copy of the first @len bytes of @nlh, with nlmsg_len = @len. */
static struct nlmsghdr *exact(const struct nlmsghdr *nlh, size_t len)
{
	struct nlmsghdr *p = malloc(len < sizeof(*p) ? sizeof(*p) : len);

	if (!p)
		abort();
	memcpy(p, nlh, len < sizeof(*p) ? sizeof(*p) : len);
	p->nlmsg_len = (uint32_t)len;
	return p;
}

/*
 * An NLMSG_ERROR for a 20-byte genl request; @echo bytes of the request's
 * payload follow unless the message is capped.
 */
static struct nlmsghdr *put_err(union scratch *s, int error, uint16_t flags, size_t echo)
{
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;

	memset(s, 0, sizeof(*s));
	nlh = mnl_nlmsg_put_header(s->buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = flags;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e) + echo);
	e->error = error;
	e->msg.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + echo);
	e->msg.nlmsg_type = FAMILY;
	return nlh;
}

/* Decode the first @len bytes of @nlh, answering @req (may be NULL). */
static int parse_req(const struct nlmsghdr *nlh, size_t len, const struct nlmsghdr *req,
		     char *buf, size_t buflen)
{
	struct nlmsghdr *copy = exact(nlh, len);
	struct nlmsghdr *req_copy = req ? exact(req, req->nlmsg_len) : NULL;
	int ret = ixc_nl_parse_extack(copy, req_copy, buf, buflen);

	free(copy);
	free(req_copy);
	return ret;
}

static int parse(const struct nlmsghdr *nlh, size_t len, char *buf, size_t buflen)
{
	return parse_req(nlh, len, NULL, buf, buflen);
}

/* A DEV_GET "do" request as the library sends it: IPUXCOM_A_DEV_ID at offset 20. */
static struct nlmsghdr *put_request(union scratch *s)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	memset(s, 0, sizeof(*s));
	nlh = mnl_nlmsg_put_header(s->buf);
	nlh->nlmsg_type = FAMILY;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = IPUXCOM_GENL_CMD_DEV_GET;
	g->version = IPUXCOM_GENL_VERSION;
	mnl_attr_put_u32(nlh, IPUXCOM_A_DEV_ID, 200);
	return nlh;
}

/* ipu_driver's signals 44-49 and nothing else, in the calling thread. */
TEST(block_driver_signals)
{
	sigset_t empty, now;

	sigemptyset(&empty);
	ASSERT_EQ(0, pthread_sigmask(SIG_SETMASK, &empty, NULL));
	ASSERT_EQ(0, ipuxcom_block_driver_signals());
	ASSERT_EQ(0, pthread_sigmask(SIG_SETMASK, NULL, &now));
	for (int sig = 1; sig < 65; sig++) {
		if (sig == 32 || sig == 33)	/* glibc's own */
			continue;
		EXPECT_EQ(sig >= 44 && sig <= 49, sigismember(&now, sig) == 1)
			TH_LOG("signal %d", sig);
	}
	EXPECT_EQ(44, IPUXCOM_DRIVER_SIGNAL_FIRST);
	EXPECT_EQ(49, IPUXCOM_DRIVER_SIGNAL_LAST);
	/* blocked, a driver signal waits instead of killing the process */
	ASSERT_EQ(0, raise(45));
	ASSERT_EQ(0, sigpending(&now));
	EXPECT_EQ(1, sigismember(&now, 45));
}

TEST(extack_message_and_offset)
{
	union scratch s;
	struct nlmsghdr *nlh = put_err(&s, -ENODEV, NLM_F_CAPPED | NLM_F_ACK_TLVS, 0);
	char buf[256];

	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "no ipuxcom device with this id");
	mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, 20);
	ASSERT_EQ(-ENODEV, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	EXPECT_STREQ("no ipuxcom device with this id; "
		     "offending attribute at offset 20 of the request", buf);
}

/* Given the request, the offset becomes the attribute's name. */
TEST(extack_offset_named_from_request)
{
	union scratch s, r;
	struct nlmsghdr *req = put_request(&r);
	struct nlmsghdr *nlh = put_err(&s, -ERANGE, NLM_F_CAPPED | NLM_F_ACK_TLVS, 0);
	struct nlattr *offs;
	char buf[256];

	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "integer out of range");
	offs = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, 20);
	ASSERT_EQ(-ERANGE, parse_req(nlh, nlh->nlmsg_len, req, buf, sizeof(buf)));
	EXPECT_STREQ("integer out of range; offending attribute IPUXCOM_A_DEV_ID", buf);

	/* into the middle of the attribute, or past the request's end */
	*(uint32_t *)mnl_attr_get_payload(offs) = 22;
	ASSERT_EQ(-ERANGE, parse_req(nlh, nlh->nlmsg_len, req, buf, sizeof(buf)));
	EXPECT_STREQ("integer out of range; offending attribute at offset 22 of the request",
		     buf);
	*(uint32_t *)mnl_attr_get_payload(offs) = 28;
	ASSERT_EQ(-ERANGE, parse_req(nlh, nlh->nlmsg_len, req, buf, sizeof(buf)));
	EXPECT_STREQ("integer out of range; offending attribute at offset 28 of the request",
		     buf);
}

TEST(extack_missing_attribute)
{
	union scratch s, r;
	struct nlmsghdr *nlh = put_err(&s, -EINVAL, NLM_F_CAPPED | NLM_F_ACK_TLVS, 0);
	char buf[256];

	mnl_attr_put_u32(nlh, NLMSGERR_ATTR_MISS_TYPE, IPUXCOM_A_DEV_ID);
	ASSERT_EQ(-EINVAL, parse_req(nlh, nlh->nlmsg_len, put_request(&r), buf, sizeof(buf)));
	EXPECT_STREQ("missing attribute IPUXCOM_A_DEV_ID", buf);
	/* not known to answer an ipuxcom request: no IPUXCOM_A_* name */
	ASSERT_EQ(-EINVAL, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	EXPECT_STREQ("missing attribute type 1", buf);

	/* with a message, and a type this header does not know */
	nlh = put_err(&s, -EINVAL, NLM_F_CAPPED | NLM_F_ACK_TLVS, 0);
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "bad request");
	mnl_attr_put_u32(nlh, NLMSGERR_ATTR_MISS_TYPE, 77);
	ASSERT_EQ(-EINVAL, parse_req(nlh, nlh->nlmsg_len, put_request(&r), buf, sizeof(buf)));
	EXPECT_STREQ("bad request; missing attribute type 77", buf);

	/* inside a nest the type is not a top-level IPUXCOM_A_* */
	nlh = put_err(&s, -EINVAL, NLM_F_CAPPED | NLM_F_ACK_TLVS, 0);
	mnl_attr_put_u32(nlh, NLMSGERR_ATTR_MISS_TYPE, IPUXCOM_A_DEV_ID);
	mnl_attr_put_u32(nlh, NLMSGERR_ATTR_MISS_NEST, 24);
	ASSERT_EQ(-EINVAL, parse_req(nlh, nlh->nlmsg_len, put_request(&r), buf, sizeof(buf)));
	EXPECT_STREQ("missing attribute type 1 in the nest at offset 24 of the request", buf);
}

TEST(extack_without_tlvs)
{
	union scratch s;
	struct nlmsghdr *nlh = put_err(&s, -EPERM, NLM_F_CAPPED, 0);
	char buf[64];

	/* TLVs present but NLM_F_ACK_TLVS unset: not extended-ack data */
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "ignored");
	memset(buf, 'x', sizeof(buf));
	ASSERT_EQ(-EPERM, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	EXPECT_STREQ("", buf);

	/* a plain ACK */
	nlh = put_err(&s, 0, NLM_F_CAPPED, 0);
	ASSERT_EQ(0, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	EXPECT_STREQ("", buf);

	/* ACK_TLVS set but no attribute */
	nlh = put_err(&s, -EIO, NLM_F_CAPPED | NLM_F_ACK_TLVS, 0);
	ASSERT_EQ(-EIO, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
}

/* Without NETLINK_CAP_ACK the request comes back before the TLVs. */
TEST(extack_after_echoed_request)
{
	union scratch s;
	struct nlmsghdr *nlh = put_err(&s, -ENODEV, NLM_F_ACK_TLVS, 12);
	char buf[128];

	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "after the echo");
	ASSERT_EQ(-ENODEV, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	EXPECT_STREQ("after the echo", buf);
}

TEST(extack_done_message)
{
	union scratch s;
	struct nlmsghdr *nlh;
	char buf[128];
	int *err;

	memset(&s, 0, sizeof(s));
	nlh = mnl_nlmsg_put_header(s.buf);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI | NLM_F_ACK_TLVS;
	err = mnl_nlmsg_put_extra_header(nlh, sizeof(*err));
	*err = -EMSGSIZE;
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "dump failed");
	ASSERT_EQ(-EMSGSIZE, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	EXPECT_STREQ("dump failed", buf);

	*err = 0;
	nlh->nlmsg_flags = NLM_F_MULTI;
	ASSERT_EQ(0, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
}

TEST(extack_truncated_and_forged)
{
	union scratch s;
	struct nlmsghdr *nlh;
	struct nlattr *attr;
	struct nlmsgerr *e;
	char buf[128];
	size_t full;

	/* shorter than a header, or than struct nlmsgerr */
	nlh = put_err(&s, -EINVAL, NLM_F_CAPPED, 0);
	EXPECT_EQ(-EBADMSG, parse(nlh, 8, buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
	EXPECT_EQ(-EBADMSG, parse(nlh, NLMSG_HDRLEN + 2, buf, sizeof(buf)));
	EXPECT_STREQ("", buf);

	/* the message ends inside the MSG attribute */
	nlh = put_err(&s, -EINVAL, NLM_F_CAPPED | NLM_F_ACK_TLVS, 0);
	attr = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "this text is cut off by nlmsg_len");
	/* (only the padding after the attribute may go) */
	full = NLMSG_HDRLEN + sizeof(*e) + attr->nla_len;
	for (size_t len = NLMSG_HDRLEN + sizeof(*e); len < full; len++) {
		EXPECT_EQ(-EINVAL, parse(nlh, len, buf, sizeof(buf)));
		EXPECT_STREQ("", buf) TH_LOG("nlmsg_len %zu", len);
	}

	/* an attribute claiming more than the message holds */
	nlh = put_err(&s, -EINVAL, NLM_F_CAPPED | NLM_F_ACK_TLVS, 0);
	attr = mnl_attr_nest_start(nlh, NLMSGERR_ATTR_MSG);
	mnl_attr_put_strz(nlh, 1, "x");
	attr->nla_len = 400;
	EXPECT_EQ(-EINVAL, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	EXPECT_STREQ("", buf);

	/* a string without its NUL, up to the last byte of the message */
	nlh = put_err(&s, -EINVAL, NLM_F_CAPPED | NLM_F_ACK_TLVS, 0);
	mnl_attr_put(nlh, NLMSGERR_ATTR_MSG, 8, "abcdefgh");
	EXPECT_EQ(-EINVAL, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	EXPECT_STREQ("abcdefgh", buf);

	/* u32 attributes of the wrong size are ignored */
	nlh = put_err(&s, -EINVAL, NLM_F_CAPPED | NLM_F_ACK_TLVS, 0);
	mnl_attr_put_u16(nlh, NLMSGERR_ATTR_OFFS, 20);
	mnl_attr_put_u64(nlh, NLMSGERR_ATTR_MISS_TYPE, 1);
	EXPECT_EQ(-EINVAL, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	EXPECT_STREQ("", buf);

	/* an echoed request whose length points far past the message */
	nlh = put_err(&s, -EINVAL, NLM_F_ACK_TLVS, 0);
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "unreachable");
	e = mnl_nlmsg_get_payload(nlh);
	e->msg.nlmsg_len = 0xfffffff0u;
	EXPECT_EQ(-EINVAL, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
	e->msg.nlmsg_len = 3;	/* shorter than a header */
	EXPECT_EQ(-EINVAL, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));

	/* not an error message at all, or a positive "errno" */
	nlh = put_err(&s, -EINVAL, NLM_F_CAPPED, 0);
	nlh->nlmsg_type = FAMILY;
	EXPECT_EQ(-EBADMSG, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	nlh = put_err(&s, EINVAL, NLM_F_CAPPED, 0);
	EXPECT_EQ(-EBADMSG, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
}

TEST(extack_small_output_buffer)
{
	union scratch s;
	struct nlmsghdr *nlh = put_err(&s, -ENODEV, NLM_F_CAPPED | NLM_F_ACK_TLVS, 0);
	char buf[8];

	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "a long explanation");
	mnl_attr_put_u32(nlh, NLMSGERR_ATTR_MISS_TYPE, IPUXCOM_A_DEV_ID);
	mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, 20);
	memset(buf, 'x', sizeof(buf));
	EXPECT_EQ(-ENODEV, parse(nlh, nlh->nlmsg_len, buf, sizeof(buf)));
	EXPECT_STREQ("a long ", buf);
	EXPECT_EQ(-ENODEV, parse(nlh, nlh->nlmsg_len, buf, 1));
	EXPECT_STREQ("", buf);
	EXPECT_EQ(-ENODEV, parse(nlh, nlh->nlmsg_len, NULL, 0));
}

/* A DEV_GET reply as kmod/netlink.c builds it. */
static struct nlmsghdr *put_dev(union scratch *s, const char *backend)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	memset(s, 0, sizeof(*s));
	nlh = mnl_nlmsg_put_header(s->buf);
	nlh->nlmsg_type = FAMILY;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = IPUXCOM_GENL_CMD_DEV_GET;
	g->version = IPUXCOM_GENL_VERSION;
	mnl_attr_put_u32(nlh, IPUXCOM_A_DEV_ID, 3);
	if (backend)
		mnl_attr_put_strz(nlh, IPUXCOM_A_DEV_BACKEND, backend);
	mnl_attr_put_u32(nlh, IPUXCOM_A_DEV_STATE, IPUXCOM_DEV_STATE_RUNNING);
	mnl_attr_put_u32(nlh, IPUXCOM_A_DEV_ATTACHED_PID, 4242);
	mnl_attr_put_u32(nlh, IPUXCOM_A_DEV_TILE_COUNT, 1472);
	return nlh;
}

static int parse_dev(const struct nlmsghdr *nlh, size_t len, struct ipuxcom_device_info *d)
{
	struct nlmsghdr *copy = exact(nlh, len);
	int ret;

	memset(d, 0x5a, sizeof(*d));
	ret = ixc_nl_parse_dev(copy, FAMILY, d);
	free(copy);
	return ret;
}

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		if (c[i])
			return false;
	return true;
}

TEST(dev_reply_valid)
{
	struct ipuxcom_device_info d;
	union scratch s;
	struct nlmsghdr *nlh = put_dev(&s, "sim");

	/* an attribute from a newer module is skipped */
	mnl_attr_put_u64(nlh, IPUXCOM_A_MAX + 5, 1);
	ASSERT_EQ(0, parse_dev(nlh, nlh->nlmsg_len, &d));
	EXPECT_EQ(3, d.dev_id);
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, d.state);
	EXPECT_EQ(4242, d.attached_pid);
	EXPECT_EQ(1472, d.tile_count);
	EXPECT_EQ(0, d.config_bar_size);
	EXPECT_STREQ("sim", d.backend);

	/* the longest name that fits, and one sent without its NUL */
	nlh = put_dev(&s, "fifteen-chars-x");
	ASSERT_EQ(0, parse_dev(nlh, nlh->nlmsg_len, &d));
	EXPECT_STREQ("fifteen-chars-x", d.backend);
	nlh = put_dev(&s, NULL);
	mnl_attr_put(nlh, IPUXCOM_A_DEV_BACKEND, 2, "hw");
	ASSERT_EQ(0, parse_dev(nlh, nlh->nlmsg_len, &d));
	EXPECT_STREQ("hw", d.backend);
}

TEST(dev_reply_malformed)
{
	struct ipuxcom_device_info d;
	union scratch s;
	struct nlmsghdr *nlh;
	struct nlattr *attr;

	/* DEV_ID as a u64: wrong length */
	nlh = put_dev(&s, "sim");
	attr = (struct nlattr *)((char *)nlh + NLMSG_HDRLEN + NLMSG_ALIGN(GENL_HDRLEN));
	ASSERT_EQ(IPUXCOM_A_DEV_ID, attr->nla_type);
	attr->nla_type = IPUXCOM_A_MAX + 1;	/* hide the good one */
	mnl_attr_put_u64(nlh, IPUXCOM_A_DEV_ID, 3);
	EXPECT_EQ(-EPROTO, parse_dev(nlh, nlh->nlmsg_len, &d));
	EXPECT_TRUE(all_zero(&d, sizeof(d)));

	/* a state as a u16 */
	nlh = put_dev(&s, "sim");
	mnl_attr_put_u16(nlh, IPUXCOM_A_DEV_STATE, 1);
	EXPECT_EQ(-EPROTO, parse_dev(nlh, nlh->nlmsg_len, &d));

	/* a backend name too long for IPUXCOM_BACKEND_NAME_LEN */
	nlh = put_dev(&s, "sixteen-chars-xx");
	EXPECT_EQ(-EPROTO, parse_dev(nlh, nlh->nlmsg_len, &d));
	EXPECT_TRUE(all_zero(&d, sizeof(d)));

	/* an empty backend attribute */
	nlh = put_dev(&s, NULL);
	mnl_attr_put(nlh, IPUXCOM_A_DEV_BACKEND, 0, "");
	EXPECT_EQ(-EPROTO, parse_dev(nlh, nlh->nlmsg_len, &d));

	/* required attributes missing */
	nlh = put_dev(&s, NULL);
	EXPECT_EQ(-EPROTO, parse_dev(nlh, nlh->nlmsg_len, &d));

	/* cut in the middle of the last attribute */
	nlh = put_dev(&s, "sim");
	for (size_t len = nlh->nlmsg_len - 1; len > nlh->nlmsg_len - NLA_HDRLEN - 4; len--) {
		int ret = parse_dev(nlh, len, &d);

		EXPECT_NE(0, ret) TH_LOG("nlmsg_len %zu parsed", len);
	}

	/* an attribute claiming more than the message */
	nlh = put_dev(&s, "sim");
	attr = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, IPUXCOM_A_MAX + 1, 0);
	attr->nla_len = 200;
	EXPECT_EQ(-EPROTO, parse_dev(nlh, nlh->nlmsg_len, &d));

	/* another family's message, or one too short for a genl header */
	nlh = put_dev(&s, "sim");
	nlh->nlmsg_type = FAMILY + 1;
	EXPECT_EQ(-EPROTO, parse_dev(nlh, nlh->nlmsg_len, &d));
	nlh->nlmsg_type = FAMILY;
	EXPECT_EQ(-EPROTO, parse_dev(nlh, NLMSG_HDRLEN + 2, &d));
}

/* uapi 4: the ipu_driver node of a device held through it. */
TEST(dev_reply_ipu_node)
{
	struct ipuxcom_device_info d;
	union scratch s;
	struct nlmsghdr *nlh;

	/* absent: a device not held through ipu_driver */
	nlh = put_dev(&s, "sim");
	ASSERT_EQ(0, parse_dev(nlh, nlh->nlmsg_len, &d));
	EXPECT_STREQ("", d.ipu_node);

	nlh = put_dev(&s, "hw");
	mnl_attr_put_u64(nlh, IPUXCOM_A_DEV_CAPABILITIES, IPUXCOM_CAP_IPU_DRIVER);
	mnl_attr_put_strz(nlh, IPUXCOM_A_DEV_IPU_NODE, "ipu0");
	ASSERT_EQ(0, parse_dev(nlh, nlh->nlmsg_len, &d));
	EXPECT_STREQ("ipu0", d.ipu_node);
	EXPECT_STREQ("hw", d.backend);
	EXPECT_EQ(IPUXCOM_CAP_IPU_DRIVER, d.capabilities);

	/* the longest that fits (15 + NUL), and one without its NUL */
	nlh = put_dev(&s, "hw");
	mnl_attr_put_strz(nlh, IPUXCOM_A_DEV_IPU_NODE, "ipu012345678901");
	ASSERT_EQ(0, parse_dev(nlh, nlh->nlmsg_len, &d));
	EXPECT_STREQ("ipu012345678901", d.ipu_node);
	nlh = put_dev(&s, "hw");
	mnl_attr_put(nlh, IPUXCOM_A_DEV_IPU_NODE, 4, "ipu7");
	ASSERT_EQ(0, parse_dev(nlh, nlh->nlmsg_len, &d));
	EXPECT_STREQ("ipu7", d.ipu_node);
}

TEST(dev_reply_ipu_node_malformed)
{
	struct ipuxcom_device_info d;
	union scratch s;
	struct nlmsghdr *nlh;

	/* over-long: 16 characters do not fit IPUXCOM_IPU_NODE_LEN */
	nlh = put_dev(&s, "hw");
	mnl_attr_put_strz(nlh, IPUXCOM_A_DEV_IPU_NODE, "ipu0123456789012");
	EXPECT_EQ(-EPROTO, parse_dev(nlh, nlh->nlmsg_len, &d));
	EXPECT_TRUE(all_zero(&d, sizeof(d)));
	/* 16 bytes without a NUL */
	nlh = put_dev(&s, "hw");
	mnl_attr_put(nlh, IPUXCOM_A_DEV_IPU_NODE, 16, "ipu0123456789012");
	EXPECT_EQ(-EPROTO, parse_dev(nlh, nlh->nlmsg_len, &d));
	/* empty, with and without the NUL */
	nlh = put_dev(&s, "hw");
	mnl_attr_put(nlh, IPUXCOM_A_DEV_IPU_NODE, 0, "");
	EXPECT_EQ(-EPROTO, parse_dev(nlh, nlh->nlmsg_len, &d));
	nlh = put_dev(&s, "hw");
	mnl_attr_put_strz(nlh, IPUXCOM_A_DEV_IPU_NODE, "");
	EXPECT_EQ(-EPROTO, parse_dev(nlh, nlh->nlmsg_len, &d));
	/* bytes after the NUL */
	nlh = put_dev(&s, "hw");
	mnl_attr_put(nlh, IPUXCOM_A_DEV_IPU_NODE, 8, "ipu0\0xyz");
	EXPECT_EQ(-EPROTO, parse_dev(nlh, nlh->nlmsg_len, &d));
	EXPECT_TRUE(all_zero(&d, sizeof(d)));
	/* cut inside the attribute */
	nlh = put_dev(&s, "hw");
	mnl_attr_put_strz(nlh, IPUXCOM_A_DEV_IPU_NODE, "ipu0");
	EXPECT_NE(0, parse_dev(nlh, nlh->nlmsg_len - 6, &d));
	/* extended acks name it */
	EXPECT_STREQ("IPUXCOM_A_DEV_IPU_NODE", ixc_nl_attr_name(IPUXCOM_A_DEV_IPU_NODE));
}

/*
 * The one explainer gives a domain's text for the value the thread's last
 * failure returned (issue 23); these record one as a failing call would.
 */
static const char *dev_text(int e)
{
	ixc_err_note_msg(IPUXCOM_ERR_DEVICE, -e, 0, NULL);
	return ipuxcom_strerror(-e);
}

static const char *nl_text(int e)
{
	ixc_err_note_msg(IPUXCOM_ERR_NETLINK, -e, 0, NULL);
	return ipuxcom_strerror(-e);
}

static const char *file_text(int e)
{
	ixc_err_note_msg(IPUXCOM_ERR_FILE, -e, 0, NULL);
	return ipuxcom_strerror(-e);
}

TEST(strerror_names_ipuxcom_meanings)
{
	EXPECT_NE(NULL, strstr(dev_text(EBUSY), "device attached by another open file"));
	EXPECT_STREQ(ipuxcom_strerror(-EBUSY), ipuxcom_strerror(EBUSY));
	EXPECT_STREQ("not attached to a device", dev_text(ENOTCONN));
	EXPECT_STREQ("no such device or device removed", dev_text(ENODEV));
	EXPECT_STREQ("this file is already attached", dev_text(EALREADY));
	EXPECT_NE(NULL, strstr(dev_text(E2BIG), "header newer than module"));
	EXPECT_NE(NULL, strstr(dev_text(ENOTTY), "module older than header"));
	EXPECT_STREQ("needs CAP_SYS_RAWIO", dev_text(EPERM));
	EXPECT_NE(NULL, strstr(dev_text(ENOENT), "not loaded"));
	EXPECT_NE(NULL, strstr(dev_text(EMEDIUMTYPE), "neither anonymous nor shmem"));
	EXPECT_NE(NULL, strstr(nl_text(EPERM), "CAP_SYS_ADMIN"));
	/* anything undocumented: the C library's text */
	EXPECT_STREQ(strerror(EDOM), dev_text(EDOM));
	EXPECT_STREQ("success", ipuxcom_strerror(0));
	EXPECT_NE(NULL, ipuxcom_strerror(INT_MIN));
	EXPECT_NE(NULL, ipuxcom_strerror(INT_MAX));
	EXPECT_NE(NULL, ipuxcom_strerror(-4096));
}

/* Every code documented for a domain's calls gets that domain's own text, never libc's. */
TEST(strerror_documented_codes_have_own_text)
{
	static const int dev[] = {
		ENOENT, ENOTCONN, EBUSY, ENODEV, EBADFD, ETIMEDOUT, EOPNOTSUPP, EPERM, EINVAL,
		ERANGE, EBADMSG, E2BIG, ENOTTY, EALREADY, EACCES, EBADF, EXDEV, ENOEXEC, EILSEQ,
		EEXIST, EFAULT, ENOMEM, ENOBUFS, EINTR, EPROTO, EMEDIUMTYPE,
	};
	static const int nl[] = {
		ENOENT, ENODEV, ERANGE, EPROTO, EBADMSG, EINTR, ENOBUFS, EOPNOTSUPP, EAGAIN,
	};
	static const int file[] = { EBADMSG, EINVAL, EFBIG, ENOMEM, ENOENT, ERANGE };

	for (size_t k = 0; k < sizeof(dev) / sizeof(dev[0]); k++) {
		EXPECT_STRNE(strerror(dev[k]), dev_text(dev[k]));
	}
	for (size_t k = 0; k < sizeof(nl) / sizeof(nl[0]); k++) {
		EXPECT_STRNE(strerror(nl[k]), nl_text(nl[k]));
	}
	for (size_t k = 0; k < sizeof(file) / sizeof(file[0]); k++) {
		EXPECT_STRNE(strerror(file[k]), file_text(file[k]));
	}
}

/* The same errno means what it means for the call that returned it. */
TEST(strerror_by_domain)
{
	/* A corrupt image is not a netlink problem, a missing file not a missing module. */
	EXPECT_EQ(NULL, strstr(file_text(EBADMSG), "netlink"));
	EXPECT_NE(NULL, strstr(file_text(EBADMSG), "corrupt"));
	EXPECT_EQ(NULL, strstr(file_text(ENOENT), "module"));
	EXPECT_STREQ("malformed netlink message", nl_text(EBADMSG));
	EXPECT_EQ(NULL, strstr(dev_text(EBADMSG), "netlink"));
	EXPECT_NE(NULL, strstr(nl_text(ENOENT), "netlink family"));
	EXPECT_NE(NULL, strstr(dev_text(ENOENT), "no device node"));
	EXPECT_NE(NULL, strstr(dev_text(EBADFD), "state"));
	EXPECT_NE(NULL, strstr(dev_text(ENOEXEC), "context"));
	/* without a record: never a domain's text for a code with several meanings */
	ixc_err_note_msg(IPUXCOM_ERR_DEVICE, -EDOM, 0, NULL);
	EXPECT_STREQ(strerror(ENOENT), ipuxcom_strerror(-ENOENT));
	EXPECT_STREQ(strerror(EBUSY), ipuxcom_strerror(-EBUSY));
	EXPECT_NE(NULL, strstr(ipuxcom_strerror(-EBADFD), "state"));
	/* +E as -E, 0, and undocumented codes as everywhere. */
	EXPECT_STREQ(nl_text(-ENODEV), ipuxcom_strerror(ENODEV));
	EXPECT_STREQ(strerror(EDOM), file_text(EDOM));
}

/* The first per-domain names remain, deprecated, with their old answers. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST(deprecated_explainers_keep_their_answers)
{
	EXPECT_NE(NULL, strstr(ipuxcom_image_strerror(-EBADMSG), "corrupt"));
	EXPECT_EQ(NULL, strstr(ipuxcom_image_strerror(-ENOENT), "module"));
	EXPECT_STREQ("malformed netlink message", ipuxcom_nl_strerror(-EBADMSG));
	EXPECT_NE(NULL, strstr(ipuxcom_nl_strerror(-ENOENT), "netlink family"));
	EXPECT_NE(NULL, strstr(ipuxcom_nl_strerror(-EPERM), "CAP_SYS_ADMIN"));
	EXPECT_STREQ(ipuxcom_nl_strerror(-ENODEV), ipuxcom_nl_strerror(ENODEV));
	EXPECT_STREQ("success", ipuxcom_image_strerror(0));
	EXPECT_STREQ(strerror(EDOM), ipuxcom_image_strerror(-EDOM));
	EXPECT_STREQ(strerror(EDOM), ipuxcom_nl_strerror(EDOM));
	EXPECT_NE(NULL, ipuxcom_nl_strerror(INT_MIN));
	EXPECT_NE(NULL, ipuxcom_image_strerror(INT_MIN));
	/* a recorded failure wins over their assumed domain: they call the one explainer */
	ixc_err_note_msg(IPUXCOM_ERR_DEVICE, -ENOENT, 0, NULL);
	EXPECT_STREQ(ipuxcom_strerror(-ENOENT), ipuxcom_nl_strerror(-ENOENT));
	EXPECT_STREQ(ipuxcom_strerror(IPUXCOM_ERRC(IPUXCOM_PLAN_E_TILE)),
		     ipuxcom_plan_errc_str(IPUXCOM_PLAN_E_TILE));
}
#pragma GCC diagnostic pop

TEST(dev_state_names)
{
	EXPECT_STREQ("idle", ipuxcom_dev_state_name(IPUXCOM_DEV_STATE_IDLE));
	EXPECT_STREQ("bootloader", ipuxcom_dev_state_name(IPUXCOM_DEV_STATE_BOOTLOADER));
	EXPECT_STREQ("loading", ipuxcom_dev_state_name(IPUXCOM_DEV_STATE_LOADING));
	EXPECT_STREQ("running", ipuxcom_dev_state_name(IPUXCOM_DEV_STATE_RUNNING));
	EXPECT_STREQ("needs-reset", ipuxcom_dev_state_name(IPUXCOM_DEV_STATE_NEEDS_RESET));
	EXPECT_STREQ("gone", ipuxcom_dev_state_name(IPUXCOM_DEV_STATE_GONE));
	EXPECT_STREQ("unknown", ipuxcom_dev_state_name(IPUXCOM_DEV_STATE_GONE + 1));
	EXPECT_STREQ("unknown", ipuxcom_dev_state_name(UINT32_MAX));
}

TEST(null_arguments)
{
	struct ipuxcom_device_info dev, *devs = (void *)1;
	struct ipuxcom *ipu = (void *)1;
	struct ipuxcom_info info = IPUXCOM_INFO_INIT;
	size_t count = 7;
	uint32_t v;

	EXPECT_EQ(-EINVAL, ipuxcom_open(NULL, NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_open("", &ipu));
	EXPECT_EQ(NULL, ipu);
	EXPECT_EQ(-EINVAL, ipuxcom_fd(NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_get_info(NULL, &info));
	EXPECT_EQ(-EINVAL, ipuxcom_attach(NULL, 0));
	EXPECT_EQ(-EINVAL, ipuxcom_dev_query(NULL, &dev));
	EXPECT_EQ(-EINVAL, ipuxcom_reg_read(NULL, 0, &v));
	EXPECT_EQ(-EINVAL, ipuxcom_reg_write(NULL, 0, 0));
	EXPECT_EQ(-EINVAL, ipuxcom_reset(NULL, &v));
	EXPECT_EQ(-EINVAL, ipuxcom_attach_ipu_fd(NULL, 0, 0));
	EXPECT_EQ(-EINVAL, ipuxcom_ipu_fd(NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_dev_init(NULL, NULL));
	EXPECT_STREQ("", ipuxcom_errmsg(NULL));
	ipuxcom_close(NULL);

	EXPECT_EQ(-EINVAL, ipuxcom_nl_open(NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_nl_dev_get(NULL, 0, &dev));
	EXPECT_EQ(-EINVAL, ipuxcom_nl_dev_list(NULL, &devs, &count));
	EXPECT_EQ(NULL, devs);
	EXPECT_EQ(0, count);
	EXPECT_STREQ("", ipuxcom_nl_errmsg(NULL));
	ipuxcom_nl_close(NULL);
	ipuxcom_nl_dev_list_free(NULL);
}

/*
 * /dev/null opens like a device node but knows none of the ioctls: the
 * library's own checks come first, then the kernel says -ENOTTY.
 */
TEST(not_an_ipuxcom_file)
{
	struct ipuxcom_device_info dev;
	struct ipuxcom_info info = IPUXCOM_INFO_INIT;
	struct ipuxcom *ipu;
	uint32_t v;
	int fd;

	ASSERT_EQ(0, ipuxcom_open("/dev/null", &ipu));
	ASSERT_NE(NULL, ipu);
	fd = ipuxcom_fd(ipu);
	ASSERT_LE(0, fd);
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(O_RDWR, fcntl(fd, F_GETFL) & O_ACCMODE);

	EXPECT_EQ(-EINVAL, ipuxcom_get_info(ipu, NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_dev_query(ipu, NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_reg_read(ipu, 0, NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_reg_read(ipu, 2, &v));
	EXPECT_EQ(-EINVAL, ipuxcom_reg_write(ipu, 3, 0));

	EXPECT_EQ(-ENOTTY, ipuxcom_get_info(ipu, &info));
	EXPECT_EQ(-ENOTTY, ipuxcom_attach(ipu, 0));
	EXPECT_EQ(-ENOTTY, ipuxcom_dev_query(ipu, &dev));
	EXPECT_EQ(-ENOTTY, ipuxcom_reg_read(ipu, 4, &v));
	EXPECT_EQ(-ENOTTY, ipuxcom_reg_write(ipu, 4, 1));
	EXPECT_EQ(-ENOTTY, ipuxcom_reset(ipu, NULL));
	/* not attached through ipu_driver */
	EXPECT_EQ(-ENODEV, ipuxcom_ipu_fd(ipu));
	EXPECT_EQ(-EBADF, ipuxcom_attach_ipu_fd(ipu, 0, -1));
	EXPECT_NE(0, ipuxcom_errmsg(ipu)[0]);
	/* a file that cannot be mapped as a card's registers is refused first */
	EXPECT_EQ(-ENODEV, ipuxcom_attach_ipu_fd(ipu, 0, fd));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(ipu), "mmap")) TH_LOG("%s", ipuxcom_errmsg(ipu));
	EXPECT_EQ(-ENODEV, ipuxcom_ipu_fd(ipu));
	ipuxcom_close(ipu);
}

TEST(open_missing_node)
{
	struct ipuxcom *ipu = (void *)1;

	EXPECT_EQ(-ENOENT, ipuxcom_open("/nonexistent/ipuxcom", &ipu));
	EXPECT_EQ(NULL, ipu);
}

static bool module_loaded(void)
{
	return access("/sys/module/ipuxcom", F_OK) == 0;
}

TEST(nl_open_without_module)
{
	struct ipuxcom_nl *nl = (void *)1;
	int err;

	if (module_loaded())
		SKIP(return, "ipuxcom.ko is loaded on this host");
	err = ipuxcom_nl_open(&nl);
	if (err == -EAFNOSUPPORT || err == -EPERM || err == -EACCES)
		SKIP(return, "no generic netlink here: %s", strerror(-err));
	EXPECT_EQ(-ENOENT, err);
	EXPECT_EQ(NULL, nl);
}

static char *memstream_string(void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	fn(f, arg);
	fclose(f);
	return buf;
}

static void write_string(FILE *f, const void *s)
{
	json_write_string(f, s);
}

TEST(json_string_escaping)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "sim", "\"sim\"" },
		{ "", "\"\"" },
		{ "a\"b\\c", "\"a\\\"b\\\\c\"" },
		{ "\n\t\r\b\f", "\"\\n\\t\\r\\b\\f\"" },
		{ "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"" },
		{ "caf\xc3\xa9 \xe2\x82\xac", "\"caf\xc3\xa9 \xe2\x82\xac\"" },
		/* invalid UTF-8: a lone continuation, a cut sequence, overlong */
		{ "\x80", "\"\\ufffd\"" },
		{ "x\xe2\x82", "\"x\\ufffd\\ufffd\"" },
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = memstream_string(write_string, cases[i].in);

		EXPECT_STREQ(cases[i].out, got) TH_LOG("case %zu", i);
		free(got);
	}
}

static void write_doc(FILE *f, const void *unused)
{
	struct json_writer w;

	json_init(&w, f);
	json_begin_array(&w);
	json_begin_object(&w);
	json_kv_uint(&w, "id", 0);
	json_kv_string(&w, "backend", "sim");
	json_key(&w, "attached_pid");
	json_null(&w);
	json_key(&w, "caps");
	json_begin_array(&w);
	json_string(&w, "a");
	json_bool(&w, true);
	json_uint(&w, UINT64_MAX);
	json_end_array(&w);
	json_end_object(&w);
	json_begin_object(&w);
	json_end_object(&w);
	json_end_array(&w);
}

TEST(json_writer_document)
{
	char *got = memstream_string(write_doc, NULL);

	EXPECT_STREQ("[{\"id\":0,\"backend\":\"sim\",\"attached_pid\":null,"
		     "\"caps\":[\"a\",true,18446744073709551615]},{}]\n", got);
	free(got);
}

/* ------------------------------------------------------------ the command */

#include "ixt_tool.h"

#define TOOL_EXPECT(_status, _stream, _needle, ...) do {			\
	const char *const _args[] = { __VA_ARGS__, NULL };			\
	struct run _r;								\
										\
	ASSERT_EQ(0, run_tool(tool, _args, &_r));				\
	EXPECT_EQ(_status, _r.status) TH_LOG("%s: stderr: %s", _args[0], _r.err); \
	EXPECT_NE(NULL, strstr(_r._stream, _needle))				\
		TH_LOG("%s: no '%s' in %s: '%s'", _args[0], _needle, #_stream,	\
		       _r._stream);						\
} while (0)

TEST(tool_usage_errors)
{
	char tool[PATH_MAX];

	if (!find_tool(tool, sizeof(tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");

	TOOL_EXPECT(2, err, "ipuxcom: dev show: invalid device id 'x'", "dev", "show", "x");
	TOOL_EXPECT(2, err, "invalid device id '-1'", "dev", "show", "-1");
	TOOL_EXPECT(2, err, "invalid device id '4294967296'", "dev", "show", "4294967296");
	TOOL_EXPECT(2, err, "invalid device id ' 1'", "dev", "show", " 1");
	TOOL_EXPECT(2, err, "unexpected argument '2'", "dev", "show", "1", "2");
	TOOL_EXPECT(2, err, "ipuxcom: dev: unknown command 'frob'", "dev", "frob");
	TOOL_EXPECT(2, err, "unknown object 'bogus'", "bogus");
	TOOL_EXPECT(2, err, "ipuxcom: info: unknown option '--frob'", "info", "--frob");
	TOOL_EXPECT(2, err, "unexpected argument 'extra'", "info", "extra");
	TOOL_EXPECT(2, err, "unknown option '-x'", "-x", "info");
	TOOL_EXPECT(2, err, "'-d' needs a PATH", "-d");
	TOOL_EXPECT(2, err, "invalid device path ''", "--device=", "info");
	TOOL_EXPECT(2, err, "unexpected argument 'c'", "help", "a", "b", "c");
}

TEST(tool_help_and_version)
{
	char tool[PATH_MAX];

	if (!find_tool(tool, sizeof(tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");

	TOOL_EXPECT(0, out, "Usage: ipuxcom", "--help");
	TOOL_EXPECT(0, out, "Usage: ipuxcom", "-h");
	TOOL_EXPECT(0, out, "Objects:", "help");
	TOOL_EXPECT(0, out, "Usage: ipuxcom info", "info", "--help");
	TOOL_EXPECT(0, out, "Usage: ipuxcom dev COMMAND", "dev", "--help");
	TOOL_EXPECT(0, out, "attached_pid", "dev", "show", "--help");
	TOOL_EXPECT(0, out, "Usage: ipuxcom dev show", "help", "dev", "show");
	TOOL_EXPECT(0, out, IPUXCOM_LIB_VERSION, "--version");
}

TEST(tool_runtime_errors)
{
	char tool[PATH_MAX];

	if (!find_tool(tool, sizeof(tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");

	TOOL_EXPECT(1, err, "cannot open /nonexistent/ipuxcom", "-d", "/nonexistent/ipuxcom",
		    "info");
	TOOL_EXPECT(1, err, "unknown ioctl", "-d", "/dev/null", "info");
	if (module_loaded())
		SKIP(return, "ipuxcom.ko is loaded: cannot check its absence");
	if (access(IPUXCOM_DEVICE_PATH, F_OK) != 0)
		TOOL_EXPECT(1, err, "ipuxcom module loaded?", "info");
	TOOL_EXPECT(1, err, "generic netlink family 'ipuxcom' is not registered", "dev", "show");
	TOOL_EXPECT(1, err, "is not registered", "dev", "show", "0", "--json");
}

TEST_HARNESS_MAIN
