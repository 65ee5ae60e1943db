// SPDX-License-Identifier: GPL-2.0-only
/*
 * Events and config capture on the build host, without the module: the
 * monitor's decoders (controller family/group reply, every event type)
 * fed crafted and broken messages; the tracefs line parser and
 * ipuxcom_cfg_from_trace() fed trace text; the monitor's argument checks;
 * the usage errors of `ipuxcom monitor` and `ipuxcom cfg capture`.
 *
 * Crafted messages are copied into heap buffers of exactly nlmsg_len
 * bytes (trace text into buffers of exactly its length, without a NUL),
 * so that the ASan build catches any read past them.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <ipuxcom.h>

#include "image_testlib.h"
/* Internal decoders, reachable through the static archive. */
#include "../../libuser/src/internal.h"

#define FAMILY	0x1d	/* any id above GENL_ID_CTRL */

union scratch {
	struct nlmsghdr nlh;
	char buf[2048];
};

static struct nlmsghdr *put_genl(union scratch *s, uint16_t type, uint8_t cmd)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	memset(s, 0, sizeof(*s));
	nlh = mnl_nlmsg_put_header(s->buf);
	nlh->nlmsg_type = type;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = 1;
	return nlh;
}

/* A heap copy of exactly nlmsg_len bytes. */
static struct nlmsghdr *exact(const struct nlmsghdr *nlh)
{
	struct nlmsghdr *copy = malloc(nlh->nlmsg_len);

	if (copy)
		memcpy(copy, nlh, nlh->nlmsg_len);
	return copy;
}

static int parse_event(const struct nlmsghdr *nlh, uint16_t family, struct ipuxcom_event *ev)
{
	struct nlmsghdr *copy = exact(nlh);
	int r;

	if (!copy)
		return -ENOMEM;
	r = ixc_event_parse(copy, family, ev);
	free(copy);
	return r;
}

static int parse_family(const struct nlmsghdr *nlh, uint16_t *family, uint32_t *group)
{
	struct nlmsghdr *copy = exact(nlh);
	int r;

	if (!copy)
		return -ENOMEM;
	r = ixc_nl_parse_family_group(copy, IPUXCOM_GENL_MCGRP_EVENTS, family, group);
	free(copy);
	return r;
}

/* ------------------------------------------------ controller reply */

static void put_group(struct nlmsghdr *nlh, uint16_t index, const char *name, uint32_t id)
{
	struct nlattr *grp = mnl_attr_nest_start(nlh, index);

	mnl_attr_put_u32(nlh, CTRL_ATTR_MCAST_GRP_ID, id);
	mnl_attr_put_strz(nlh, CTRL_ATTR_MCAST_GRP_NAME, name);
	mnl_attr_nest_end(nlh, grp);
}

/* What the kernel sends for "ipuxcom", with a second group before ours. */
static struct nlmsghdr *family_reply(union scratch *s, bool with_events)
{
	struct nlmsghdr *nlh = put_genl(s, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY);
	struct nlattr *groups;

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, IPUXCOM_GENL_NAME);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x2a);
	mnl_attr_put_u32(nlh, CTRL_ATTR_VERSION, 1);
	mnl_attr_put_u32(nlh, CTRL_ATTR_MAXATTR, IPUXCOM_A_MAX);
	groups = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
	put_group(nlh, 1, "other", 7);
	if (with_events)
		put_group(nlh, 2, IPUXCOM_GENL_MCGRP_EVENTS, 9);
	mnl_attr_nest_end(nlh, groups);
	return nlh;
}

TEST(family_reply_gives_family_and_group)
{
	union scratch s;
	uint16_t family = 0;
	uint32_t group = 0;

	ASSERT_EQ(0, parse_family(family_reply(&s, true), &family, &group));
	EXPECT_EQ(0x2a, family);
	EXPECT_EQ(9, group);
}

TEST(family_without_events_group_is_eopnotsupp)
{
	union scratch s;
	uint16_t family = 0x77;
	uint32_t group = 0x77;

	EXPECT_EQ(-EOPNOTSUPP, parse_family(family_reply(&s, false), &family, &group));
	EXPECT_EQ(0x77, family);	/* untouched on failure */
	EXPECT_EQ(0x77, group);
}

TEST(family_reply_malformed)
{
	union scratch s;
	struct nlmsghdr *nlh;
	struct nlattr *groups, *grp, *last;
	uint16_t family;
	uint32_t group;

	/* not from the controller */
	nlh = family_reply(&s, true);
	nlh->nlmsg_type = FAMILY;
	EXPECT_EQ(-EPROTO, parse_family(nlh, &family, &group));

	/* not a NEWFAMILY */
	nlh = family_reply(&s, true);
	((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd = CTRL_CMD_GETFAMILY;
	EXPECT_EQ(-EPROTO, parse_family(nlh, &family, &group));

	/* shorter than the generic netlink header */
	nlh = family_reply(&s, true);
	nlh->nlmsg_len = NLMSG_HDRLEN + 2;
	EXPECT_EQ(-EPROTO, parse_family(nlh, &family, &group));

	/* truncated in the middle of the groups nest */
	nlh = family_reply(&s, true);
	nlh->nlmsg_len -= 6;
	EXPECT_EQ(-EPROTO, parse_family(nlh, &family, &group));

	/* family id as a u32 */
	nlh = put_genl(&s, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY);
	mnl_attr_put_u32(nlh, CTRL_ATTR_FAMILY_ID, 0x2a);
	groups = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
	put_group(nlh, 1, IPUXCOM_GENL_MCGRP_EVENTS, 9);
	mnl_attr_nest_end(nlh, groups);
	EXPECT_EQ(-EPROTO, parse_family(nlh, &family, &group));

	/* no family id */
	nlh = put_genl(&s, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY);
	groups = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
	put_group(nlh, 1, IPUXCOM_GENL_MCGRP_EVENTS, 9);
	mnl_attr_nest_end(nlh, groups);
	EXPECT_EQ(-EPROTO, parse_family(nlh, &family, &group));

	/* a group without an id */
	nlh = put_genl(&s, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x2a);
	groups = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
	grp = mnl_attr_nest_start(nlh, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_MCAST_GRP_NAME, IPUXCOM_GENL_MCGRP_EVENTS);
	mnl_attr_nest_end(nlh, grp);
	mnl_attr_nest_end(nlh, groups);
	EXPECT_EQ(-EPROTO, parse_family(nlh, &family, &group));

	/* an unterminated group name */
	nlh = put_genl(&s, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x2a);
	groups = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
	grp = mnl_attr_nest_start(nlh, 1);
	mnl_attr_put_u32(nlh, CTRL_ATTR_MCAST_GRP_ID, 9);
	mnl_attr_put(nlh, CTRL_ATTR_MCAST_GRP_NAME, 6, "events");
	mnl_attr_nest_end(nlh, grp);
	mnl_attr_nest_end(nlh, groups);
	EXPECT_EQ(-EPROTO, parse_family(nlh, &family, &group));

	/* group id 0, or as a u16 */
	nlh = put_genl(&s, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x2a);
	groups = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
	put_group(nlh, 1, IPUXCOM_GENL_MCGRP_EVENTS, 0);
	mnl_attr_nest_end(nlh, groups);
	EXPECT_EQ(-EPROTO, parse_family(nlh, &family, &group));
	nlh = put_genl(&s, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x2a);
	groups = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
	grp = mnl_attr_nest_start(nlh, 1);
	mnl_attr_put_u16(nlh, CTRL_ATTR_MCAST_GRP_ID, 9);
	mnl_attr_put_strz(nlh, CTRL_ATTR_MCAST_GRP_NAME, IPUXCOM_GENL_MCGRP_EVENTS);
	mnl_attr_nest_end(nlh, grp);
	mnl_attr_nest_end(nlh, groups);
	EXPECT_EQ(-EPROTO, parse_family(nlh, &family, &group));

	/* the last attribute's length runs past the message */
	nlh = family_reply(&s, true);
	last = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, CTRL_ATTR_HDRSIZE, 0);
	last->nla_len = 64;
	EXPECT_EQ(-EPROTO, parse_family(nlh, &family, &group));

	/* trailing bytes that are not an attribute */
	nlh = family_reply(&s, true);
	nlh->nlmsg_len += 2;
	EXPECT_EQ(-EPROTO, parse_family(nlh, &family, &group));
}

TEST(family_reply_ignores_unknown_attributes)
{
	union scratch s;
	struct nlmsghdr *nlh = family_reply(&s, true);
	uint16_t family = 0;
	uint32_t group = 0;

	mnl_attr_put_u64(nlh, 200, 1);
	mnl_attr_put_strz(nlh, 201, "from a newer kernel");
	ASSERT_EQ(0, parse_family(nlh, &family, &group));
	EXPECT_EQ(0x2a, family);
	EXPECT_EQ(9, group);
}

/* ------------------------------------------------------------ events */

static struct nlmsghdr *event(union scratch *s, uint8_t cmd, uint32_t dev)
{
	struct nlmsghdr *nlh = put_genl(s, FAMILY, cmd);

	mnl_attr_put_u32(nlh, IPUXCOM_A_DEV_ID, dev);
	return nlh;
}

/* LOAD_PROGRESS as the kernel builds it, u64 after an IPUXCOM_A_PAD. */
static struct nlmsghdr *progress_event(union scratch *s, uint32_t batch, uint32_t batches,
				       uint64_t bytes)
{
	struct nlmsghdr *nlh = event(s, IPUXCOM_GENL_CMD_LOAD_PROGRESS, 1);

	mnl_attr_put_u32(nlh, IPUXCOM_A_BATCH, batch);
	mnl_attr_put_u32(nlh, IPUXCOM_A_BATCHES, batches);
	mnl_attr_put(nlh, IPUXCOM_A_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, IPUXCOM_A_BYTES, bytes);
	return nlh;
}

TEST(event_state)
{
	union scratch s;
	struct nlmsghdr *nlh = event(&s, IPUXCOM_GENL_CMD_STATE, 3);
	struct ipuxcom_event ev;

	mnl_attr_put_u32(nlh, IPUXCOM_A_DEV_STATE, IPUXCOM_DEV_STATE_LOADING);
	mnl_attr_put_u32(nlh, IPUXCOM_A_OLD_STATE, IPUXCOM_DEV_STATE_BOOTLOADER);
	ASSERT_EQ(0, parse_event(nlh, FAMILY, &ev));
	EXPECT_EQ(IPUXCOM_GENL_CMD_STATE, ev.type);
	EXPECT_EQ(3, ev.dev_id);
	EXPECT_EQ(IPUXCOM_DEV_STATE_LOADING, ev.state);
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ev.old_state);
	EXPECT_EQ(0, ev.batch);
	EXPECT_EQ(0, ev.error);
	EXPECT_STREQ("state", ipuxcom_event_name(ev.type));
}

TEST(event_load_progress)
{
	union scratch s;
	struct ipuxcom_event ev;

	ASSERT_EQ(0, parse_event(progress_event(&s, 5, 23, 63488), FAMILY, &ev));
	EXPECT_EQ(IPUXCOM_GENL_CMD_LOAD_PROGRESS, ev.type);
	EXPECT_EQ(1, ev.dev_id);
	EXPECT_EQ(5, ev.batch);
	EXPECT_EQ(23, ev.batches);
	EXPECT_EQ(63488, ev.bytes);
	ASSERT_EQ(0, parse_event(progress_event(&s, 23, 23, 1ull << 40), FAMILY, &ev));
	EXPECT_EQ(1ull << 40, ev.bytes);
	EXPECT_STREQ("load-progress", ipuxcom_event_name(ev.type));
}

TEST(event_timeout_and_reset)
{
	union scratch s;
	struct nlmsghdr *nlh = event(&s, IPUXCOM_GENL_CMD_TIMEOUT, 0);
	struct ipuxcom_event ev;

	mnl_attr_put_u32(nlh, IPUXCOM_A_REG, 0x302c);
	mnl_attr_put_u32(nlh, IPUXCOM_A_VALUE, 1);
	mnl_attr_put_u32(nlh, IPUXCOM_A_ERROR, (uint32_t)-ETIMEDOUT);
	ASSERT_EQ(0, parse_event(nlh, FAMILY, &ev));
	EXPECT_EQ(IPUXCOM_GENL_CMD_TIMEOUT, ev.type);
	EXPECT_EQ(0x302c, ev.reg);
	EXPECT_EQ(1, ev.value);
	EXPECT_EQ(-ETIMEDOUT, ev.error);
	EXPECT_STREQ("timeout", ipuxcom_event_name(ev.type));

	nlh = event(&s, IPUXCOM_GENL_CMD_RESET, 0);
	mnl_attr_put_u32(nlh, IPUXCOM_A_ERROR, 0);
	ASSERT_EQ(0, parse_event(nlh, FAMILY, &ev));
	EXPECT_EQ(IPUXCOM_GENL_CMD_RESET, ev.type);
	EXPECT_EQ(0, ev.error);
	nlh = event(&s, IPUXCOM_GENL_CMD_RESET, 0);
	mnl_attr_put_u32(nlh, IPUXCOM_A_ERROR, (uint32_t)-EIO);
	ASSERT_EQ(0, parse_event(nlh, FAMILY, &ev));
	EXPECT_EQ(-EIO, ev.error);
	EXPECT_STREQ("reset", ipuxcom_event_name(ev.type));
}

TEST(event_dev_new_and_del)
{
	union scratch s;
	struct nlmsghdr *nlh = event(&s, IPUXCOM_GENL_CMD_DEV_NEW, 4);
	struct ipuxcom_event ev;

	mnl_attr_put_strz(nlh, IPUXCOM_A_DEV_BACKEND, "sim");
	mnl_attr_put_u32(nlh, IPUXCOM_A_DEV_STATE, IPUXCOM_DEV_STATE_IDLE);
	mnl_attr_put_u32(nlh, IPUXCOM_A_DEV_ATTACHED_PID, 0);
	mnl_attr_put_u32(nlh, IPUXCOM_A_DEV_TILE_COUNT, 1472);
	mnl_attr_put_u64(nlh, IPUXCOM_A_DEV_CAPABILITIES, IPUXCOM_CAP_TDI);
	ASSERT_EQ(0, parse_event(nlh, FAMILY, &ev));
	EXPECT_EQ(IPUXCOM_GENL_CMD_DEV_NEW, ev.type);
	EXPECT_EQ(4, ev.dev_id);
	EXPECT_EQ(4, ev.dev.dev_id);
	EXPECT_STREQ("sim", ev.dev.backend);
	EXPECT_EQ(1472, ev.dev.tile_count);
	EXPECT_EQ(IPUXCOM_CAP_TDI, ev.dev.capabilities);
	EXPECT_EQ(IPUXCOM_DEV_STATE_IDLE, ev.state);
	EXPECT_STREQ("dev-new", ipuxcom_event_name(ev.type));

	/* DEV_NEW needs what DEV_GET carries */
	nlh = event(&s, IPUXCOM_GENL_CMD_DEV_NEW, 4);
	mnl_attr_put_u32(nlh, IPUXCOM_A_DEV_STATE, IPUXCOM_DEV_STATE_IDLE);
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));

	ASSERT_EQ(0, parse_event(event(&s, IPUXCOM_GENL_CMD_DEV_DEL, 4), FAMILY, &ev));
	EXPECT_EQ(IPUXCOM_GENL_CMD_DEV_DEL, ev.type);
	EXPECT_EQ(4, ev.dev_id);
	EXPECT_STREQ("dev-del", ipuxcom_event_name(ev.type));
}

TEST(event_unknown_attributes_ignored)
{
	union scratch s;
	struct nlmsghdr *nlh = event(&s, IPUXCOM_GENL_CMD_STATE, 0);
	struct ipuxcom_event ev;

	mnl_attr_put_u64(nlh, 300, 7);		/* a newer module's attribute */
	mnl_attr_put_u32(nlh, IPUXCOM_A_DEV_STATE, IPUXCOM_DEV_STATE_RUNNING);
	mnl_attr_put_strz(nlh, IPUXCOM_A_MAX + 1, "also new");
	mnl_attr_put_u32(nlh, IPUXCOM_A_OLD_STATE, IPUXCOM_DEV_STATE_LOADING);
	ASSERT_EQ(0, parse_event(nlh, FAMILY, &ev));
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, ev.state);
}

TEST(event_unknown_command_is_enomsg)
{
	union scratch s;
	struct ipuxcom_event ev;

	EXPECT_EQ(-ENOMSG, parse_event(event(&s, IPUXCOM_GENL_CMD_MAX + 1, 0), FAMILY, &ev));
	EXPECT_EQ(-ENOMSG, parse_event(event(&s, IPUXCOM_GENL_CMD_DEV_GET, 0), FAMILY, &ev));
	EXPECT_EQ(-ENOMSG, parse_event(event(&s, IPUXCOM_GENL_CMD_UNSPEC, 0), FAMILY, &ev));
	EXPECT_STREQ("unknown", ipuxcom_event_name(IPUXCOM_GENL_CMD_MAX + 1));
	EXPECT_STREQ("unknown", ipuxcom_event_name(IPUXCOM_GENL_CMD_DEV_GET));
}

TEST(event_missing_attributes)
{
	union scratch s;
	struct nlmsghdr *nlh;
	struct ipuxcom_event ev;

	/* no DEV_ID */
	nlh = put_genl(&s, FAMILY, IPUXCOM_GENL_CMD_DEV_DEL);
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* STATE without OLD_STATE */
	nlh = event(&s, IPUXCOM_GENL_CMD_STATE, 0);
	mnl_attr_put_u32(nlh, IPUXCOM_A_DEV_STATE, 1);
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* LOAD_PROGRESS without BYTES */
	nlh = event(&s, IPUXCOM_GENL_CMD_LOAD_PROGRESS, 0);
	mnl_attr_put_u32(nlh, IPUXCOM_A_BATCH, 1);
	mnl_attr_put_u32(nlh, IPUXCOM_A_BATCHES, 23);
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* TIMEOUT without VALUE */
	nlh = event(&s, IPUXCOM_GENL_CMD_TIMEOUT, 0);
	mnl_attr_put_u32(nlh, IPUXCOM_A_REG, 0x302c);
	mnl_attr_put_u32(nlh, IPUXCOM_A_ERROR, (uint32_t)-ETIMEDOUT);
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* RESET without ERROR */
	EXPECT_EQ(-EPROTO, parse_event(event(&s, IPUXCOM_GENL_CMD_RESET, 0), FAMILY, &ev));
	/* the output is all zero after a failure */
	EXPECT_EQ(0, ev.type);
	EXPECT_EQ(0, ev.dev_id);
}

TEST(event_wrong_attribute_sizes)
{
	union scratch s;
	struct nlmsghdr *nlh;
	struct ipuxcom_event ev;

	/* DEV_ID as a u16 */
	nlh = put_genl(&s, FAMILY, IPUXCOM_GENL_CMD_DEV_DEL);
	mnl_attr_put_u16(nlh, IPUXCOM_A_DEV_ID, 1);
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* DEV_ID as a u64 */
	nlh = put_genl(&s, FAMILY, IPUXCOM_GENL_CMD_DEV_DEL);
	mnl_attr_put_u64(nlh, IPUXCOM_A_DEV_ID, 1);
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* BYTES as a u32 */
	nlh = event(&s, IPUXCOM_GENL_CMD_LOAD_PROGRESS, 0);
	mnl_attr_put_u32(nlh, IPUXCOM_A_BATCH, 1);
	mnl_attr_put_u32(nlh, IPUXCOM_A_BATCHES, 23);
	mnl_attr_put_u32(nlh, IPUXCOM_A_BYTES, 4096);
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* ERROR as a u64 */
	nlh = event(&s, IPUXCOM_GENL_CMD_RESET, 0);
	mnl_attr_put_u64(nlh, IPUXCOM_A_ERROR, 0);
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* an empty STATE */
	nlh = event(&s, IPUXCOM_GENL_CMD_STATE, 0);
	mnl_attr_put(nlh, IPUXCOM_A_DEV_STATE, 0, NULL);
	mnl_attr_put_u32(nlh, IPUXCOM_A_OLD_STATE, 0);
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
}

TEST(event_truncated_or_garbled)
{
	union scratch s;
	struct nlmsghdr *nlh;
	struct nlattr *last;
	struct ipuxcom_event ev;

	/* another family */
	EXPECT_EQ(-EPROTO, parse_event(progress_event(&s, 1, 23, 1), FAMILY + 1, &ev));
	/* no room for the generic netlink header */
	nlh = progress_event(&s, 1, 23, 1);
	nlh->nlmsg_len = NLMSG_HDRLEN + 3;
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* cut inside the BYTES attribute */
	nlh = progress_event(&s, 1, 23, 1);
	nlh->nlmsg_len -= 4;
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* cut inside an attribute header */
	nlh = progress_event(&s, 1, 23, 1);
	nlh->nlmsg_len -= 10;
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* an attribute length past the message */
	nlh = progress_event(&s, 1, 23, 1);
	last = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, 99, 0);
	last->nla_len = 200;
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* an attribute length below its header */
	nlh = progress_event(&s, 1, 23, 1);
	last = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, 99, 0);
	last->nla_len = 2;
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* two stray bytes at the end */
	nlh = progress_event(&s, 1, 23, 1);
	nlh->nlmsg_len += 2;
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* the header alone: no DEV_ID */
	nlh = progress_event(&s, 1, 23, 1);
	nlh->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
}

TEST(event_impossible_values)
{
	union scratch s;
	struct nlmsghdr *nlh;
	struct ipuxcom_event ev;

	EXPECT_EQ(-EPROTO, parse_event(progress_event(&s, 0, 23, 1), FAMILY, &ev));
	EXPECT_EQ(-EPROTO, parse_event(progress_event(&s, 24, 23, 1), FAMILY, &ev));
	EXPECT_EQ(-EPROTO, parse_event(progress_event(&s, 1, 0, 1), FAMILY, &ev));
	/* a timeout carries its error */
	nlh = event(&s, IPUXCOM_GENL_CMD_TIMEOUT, 0);
	mnl_attr_put_u32(nlh, IPUXCOM_A_REG, 0x302c);
	mnl_attr_put_u32(nlh, IPUXCOM_A_VALUE, 1);
	mnl_attr_put_u32(nlh, IPUXCOM_A_ERROR, 0);
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	/* errors are negative errno values */
	nlh = event(&s, IPUXCOM_GENL_CMD_RESET, 0);
	mnl_attr_put_u32(nlh, IPUXCOM_A_ERROR, 5);
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
	nlh = event(&s, IPUXCOM_GENL_CMD_RESET, 0);
	mnl_attr_put_u32(nlh, IPUXCOM_A_ERROR, (uint32_t)INT32_MIN);
	EXPECT_EQ(-EPROTO, parse_event(nlh, FAMILY, &ev));
}

/* ------------------------------------------------------ monitor API */

TEST(monitor_arguments)
{
	struct ipuxcom_event ev = { .size = sizeof(ev), .type = 7 };

	EXPECT_EQ(-EINVAL, ipuxcom_monitor_open(NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_monitor_fd(NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_monitor_next(NULL, &ev, 0));
	EXPECT_EQ(0, ev.type);	/* cleared even then */
	ipuxcom_monitor_close(NULL);
}

TEST(monitor_open_without_module)
{
	struct ipuxcom_monitor *mon = (void *)1;
	int err;

	if (access("/sys/module/ipuxcom", F_OK) == 0)
		SKIP(return, "ipuxcom.ko is loaded on this host");
	err = ipuxcom_monitor_open(&mon);
	if (err == -EAFNOSUPPORT || err == -EPERM || err == -EACCES)
		SKIP(return, "no generic netlink here: %s", strerror(-err));
	EXPECT_EQ(-ENOENT, err);
	EXPECT_EQ(NULL, mon);
}

/* ------------------------------------------------------- trace text */

static int line(const char *text, uint32_t *dev, struct ipuxcom_cfg_record *rec)
{
	size_t len = strlen(text);
	char *copy = malloc(len ? len : 1);
	int r;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, text, len);
	r = ixc_trace_parse_line(copy, len, dev, rec);
	free(copy);
	return r;
}

TEST(trace_line_bar_write)
{
	struct ipuxcom_cfg_record rec = { 0 };
	uint32_t dev = 99;

	ASSERT_EQ(1, line("        ipuxcom-412     [001] .....    52.123456: ipuxcom_bar_write: "
			  "dev=0 offset=0x0302c value=0x00000001", &dev, &rec));
	EXPECT_EQ(0, dev);
	EXPECT_EQ(0x302c, rec.offset);
	EXPECT_EQ(1, rec.value);
	/* a task name with blanks and colons; CRLF; upper-case hex */
	ASSERT_EQ(1, line(" my: prog x-77 [000] d..1. 1.000001: ipuxcom_bar_write: "
			  "dev=3 offset=0x7FFFC value=0xDEADBEEF\r\n", &dev, &rec));
	EXPECT_EQ(3, dev);
	EXPECT_EQ(0x7fffc, rec.offset);
	EXPECT_EQ(0xdeadbeef, rec.value);
	/* the largest device id */
	ASSERT_EQ(1, line("x-1 [0] 1.0: ipuxcom_bar_write: dev=4294967295 offset=0x4 value=0x0",
			  &dev, &rec));
	EXPECT_EQ(UINT32_MAX, dev);
}

TEST(trace_line_other_lines)
{
	struct ipuxcom_cfg_record rec;
	uint32_t dev;

	EXPECT_EQ(0, line("# tracer: nop", &dev, &rec));
	EXPECT_EQ(0, line("#", &dev, &rec));
	EXPECT_EQ(0, line("", &dev, &rec));
	EXPECT_EQ(0, line("x-1 [000] 1.0: ipuxcom_bar_read: dev=0 offset=0x0302c value=0x1",
			  &dev, &rec));
	EXPECT_EQ(0, line("x-1 [000] 1.0: ipuxcom_hsp_mark: dev=0 reg=0x302c mark=1 wait=1",
			  &dev, &rec));
	EXPECT_EQ(0, line("CPU:1 [LOST 3 EVENTS]", &dev, &rec));
	/* a comment about the event is not the event */
	EXPECT_EQ(0, line("# ipuxcom_bar_write: dev=0 offset=0x4 value=0x1", &dev, &rec));
}

TEST(trace_line_malformed)
{
	static const char *const bad[] = {
		"x-1 [0] 1.0: ipuxcom_bar_write: ",
		"x-1 [0] 1.0: ipuxcom_bar_write: dev= offset=0x4 value=0x1",
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=-1 offset=0x4 value=0x1",
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=4294967296 offset=0x4 value=0x1",
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=4 value=0x1",
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=0x value=0x1",
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=0x4 value=0x123456789",
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=0x4 value=0x1g",
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=0x4 value=0x1 extra",
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=0x4",
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=0  offset=0x4 value=0x1",
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=0x4 value=0x",
	};
	struct ipuxcom_cfg_record rec;
	uint32_t dev;

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		const char *b = bad[k];

		EXPECT_EQ(-EBADMSG, line(b, &dev, &rec)) TH_LOG("%s", b);
	}
}

static const char sample[] =
	"# tracer: nop\n"
	"#\n"
	"# entries-in-buffer/entries-written: 5/5   #P:2\n"
	"#\n"
	"#                                _-----=> irqs-off/BH-disabled\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |         |   |||||     |         |\n"
	"      writer-90      [000] .....   10.000001: ipuxcom_bar_write: dev=0 offset=0x05404 value=0x00000002\n"
	"      writer-90      [000] .....   10.000002: ipuxcom_bar_write: dev=1 offset=0x05408 value=0x00000003\n"
	"      writer-90      [001] .....   10.000003: ipuxcom_bar_write: dev=0 offset=0x0302c value=0x00000001\n"
	"      writer-90      [001] .....   10.000004: ipuxcom_bar_write: dev=0 offset=0x05404 value=0x00000000\n"
	"      writer-90      [001] .....   10.000005: ipuxcom_bar_write: dev=1 offset=0x00000 value=0xffffffff";

/* The sample without its NUL, in a buffer of exactly that size. */
static char *text_copy(const char *text, size_t len)
{
	char *copy = malloc(len ? len : 1);

	if (copy)
		memcpy(copy, text, len);
	return copy;
}

TEST(cfg_from_trace_in_order_per_device)
{
	struct ipuxcom_trace_stats st = IPUXCOM_TRACE_STATS_INIT;
	struct ipuxcom_cfg_record *recs = NULL, *back = NULL;
	struct ipuxcom_errmsg em;
	char *text = text_copy(sample, strlen(sample));
	uint32_t count = 0, back_count = 0;
	void *file = NULL;
	size_t file_len = 0;

	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, ipuxcom_cfg_from_trace(text, strlen(sample), 0, &recs, &count, &st, &em))
		TH_LOG("%s", em.msg);
	ASSERT_EQ(3, count);
	EXPECT_EQ(0x5404, recs[0].offset);
	EXPECT_EQ(2, recs[0].value);
	EXPECT_EQ(0x302c, recs[1].offset);
	EXPECT_EQ(1, recs[1].value);
	EXPECT_EQ(0x5404, recs[2].offset);
	EXPECT_EQ(0, recs[2].value);
	EXPECT_EQ(5, st.writes);
	EXPECT_EQ(2, st.other_dev);
	EXPECT_EQ(0, st.lost);
	EXPECT_STREQ("", em.msg);

	/* what cfg capture writes reads back as the same records */
	ASSERT_EQ(0, ipuxcom_cfg_serialize(recs, count, &file, &file_len, &em));
	ASSERT_EQ(0, ipuxcom_cfg_parse(file, file_len, &back, &back_count, &em));
	ASSERT_EQ(count, back_count);
	EXPECT_EQ(0, memcmp(recs, back, count * sizeof(*recs)));
	free(file);
	free(back);
	free(recs);

	/* device 1: the last line has no newline */
	ASSERT_EQ(0, ipuxcom_cfg_from_trace(text, strlen(sample), 1, &recs, &count, NULL, NULL));
	ASSERT_EQ(2, count);
	EXPECT_EQ(0x5408, recs[0].offset);
	EXPECT_EQ(0, recs[1].offset);
	EXPECT_EQ(0xffffffff, recs[1].value);
	free(recs);

	ASSERT_EQ(0, ipuxcom_cfg_from_trace(text, strlen(sample), IPUXCOM_TRACE_ANY_DEV, &recs,
					    &count, &st, NULL));
	EXPECT_EQ(5, count);
	EXPECT_EQ(0, st.other_dev);
	free(recs);
	free(text);
}

TEST(cfg_from_trace_nothing_captured)
{
	static const char empty[] = "# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:2\n";
	struct ipuxcom_cfg_record *recs = (void *)1;
	uint32_t count = 7;

	EXPECT_EQ(0, ipuxcom_cfg_from_trace(empty, strlen(empty), 0, &recs, &count, NULL, NULL));
	EXPECT_EQ(0, count);
	EXPECT_EQ(NULL, recs);
	EXPECT_EQ(0, ipuxcom_cfg_from_trace(NULL, 0, 0, &recs, &count, NULL, NULL));
	EXPECT_EQ(0, count);
}

TEST(cfg_from_trace_lost_events)
{
	static const char header[] =
		"# entries-in-buffer/entries-written: 2/9   #P:2\n"
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=0x4 value=0x1\n"
		"x-1 [0] 1.1: ipuxcom_bar_write: dev=0 offset=0x8 value=0x1\n";
	static const char marker[] =
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=0x4 value=0x1\n"
		"CPU:1 [LOST 12 EVENTS]\n"
		"x-1 [1] 1.1: ipuxcom_bar_write: dev=0 offset=0x8 value=0x1\n";
	struct ipuxcom_trace_stats st = IPUXCOM_TRACE_STATS_INIT;
	struct ipuxcom_cfg_record *recs = (void *)1;
	struct ipuxcom_errmsg em;
	uint32_t count = 7;

	EXPECT_EQ(-ENOBUFS, ipuxcom_cfg_from_trace(header, strlen(header), 0, &recs, &count,
						   &st, &em));
	EXPECT_EQ(7, st.lost);
	EXPECT_EQ(2, st.writes);
	EXPECT_EQ(NULL, recs);
	EXPECT_EQ(0, count);
	EXPECT_NE(NULL, strstr(em.msg, "lost 7 events")) TH_LOG("%s", em.msg);
	EXPECT_EQ(-ENOBUFS, ipuxcom_cfg_from_trace(marker, strlen(marker), 0, &recs, &count,
						   &st, &em));
	EXPECT_EQ(12, st.lost);
}

TEST(cfg_from_trace_bad_lines)
{
	static const char unaligned[] =
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=0x4 value=0x1\n"
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=0x6 value=0x1\n";
	static const char outside[] =
		"x-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=0x80000 value=0x1\n";
	static const char garbled[] =
		"#\n\nx-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=0x4 value=oops\n";
	struct ipuxcom_cfg_record *recs = (void *)1;
	struct ipuxcom_errmsg em;
	uint32_t count = 7;
	char *t;

	t = text_copy(unaligned, strlen(unaligned));
	EXPECT_EQ(-EBADMSG, ipuxcom_cfg_from_trace(t, strlen(unaligned), 0, &recs, &count,
						   NULL, &em));
	EXPECT_NE(NULL, strstr(em.msg, "line 2: offset 0x6")) TH_LOG("%s", em.msg);
	EXPECT_EQ(NULL, recs);
	EXPECT_EQ(0, count);
	free(t);
	EXPECT_EQ(-EBADMSG, ipuxcom_cfg_from_trace(outside, strlen(outside), 0, &recs, &count,
						   NULL, &em));
	/* another device's writes are not judged */
	EXPECT_EQ(0, ipuxcom_cfg_from_trace(outside, strlen(outside), 1, &recs, &count,
					    NULL, &em));
	EXPECT_EQ(0, count);
	t = text_copy(garbled, strlen(garbled));
	EXPECT_EQ(-EBADMSG, ipuxcom_cfg_from_trace(t, strlen(garbled), 0, &recs, &count,
						   NULL, &em));
	EXPECT_NE(NULL, strstr(em.msg, "line 3: malformed")) TH_LOG("%s", em.msg);
	free(t);
}

TEST(cfg_from_trace_limits_and_arguments)
{
	static const char one[] = "x-1 [0] 1.0: ipuxcom_bar_write: dev=0 offset=0x4 value=0x1\n";
	size_t n = IPUXCOM_CFG_MAX_RECORDS + 1, len = strlen(one);
	struct ipuxcom_cfg_record *recs;
	struct ipuxcom_errmsg em;
	uint32_t count;
	char *big = malloc(n * len);

	ASSERT_NE(NULL, big);
	for (size_t i = 0; i < n; i++)
		memcpy(big + i * len, one, len);
	EXPECT_EQ(-EFBIG, ipuxcom_cfg_from_trace(big, n * len, 0, &recs, &count, NULL, &em));
	EXPECT_EQ(NULL, recs);
	/* exactly the maximum is fine */
	ASSERT_EQ(0, ipuxcom_cfg_from_trace(big, (n - 1) * len, 0, &recs, &count, NULL, &em));
	EXPECT_EQ(IPUXCOM_CFG_MAX_RECORDS, count);
	free(recs);
	free(big);

	EXPECT_EQ(-EINVAL, ipuxcom_cfg_from_trace(NULL, 5, 0, &recs, &count, NULL, NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_cfg_from_trace(one, len, 0, NULL, &count, NULL, NULL));
	EXPECT_EQ(-EINVAL, ipuxcom_cfg_from_trace(one, len, 0, &recs, NULL, NULL, NULL));
}

/* ------------------------------------------------------ the command */

FIXTURE(cli) {
	char tool[PATH_MAX];
};

FIXTURE_SETUP(cli)
{
	if (!ixt_find_tool(self->tool, sizeof(self->tool)))
		SKIP(return, "build/ipuxcom not built");
}

FIXTURE_TEARDOWN(cli)
{
}

TEST_F(cli, monitor_usage_errors)
{
	char *tool = self->tool;

	TOOL_EXPECT(2, err, "invalid --count '0'", "monitor", "--count", "0");
	TOOL_EXPECT(2, err, "invalid --timeout-ms 'soon'", "monitor", "--timeout-ms", "soon");
	TOOL_EXPECT(2, err, "invalid device id 'x'", "monitor", "--dev", "x");
	TOOL_EXPECT(2, err, "unexpected argument", "monitor", "extra");
	TOOL_EXPECT(0, out, "--timeout-ms MS", "monitor", "--help");
	TOOL_EXPECT(0, out, "watch device events", "help");
}

TEST_F(cli, cfg_capture_usage_errors)
{
	char *tool = self->tool;

	TOOL_EXPECT(2, err, "expected -- COMMAND", "cfg", "capture", "-o", "x.cfg");
	TOOL_EXPECT(2, err, "expected -- COMMAND", "cfg", "capture", "-o", "x.cfg", "--");
	TOOL_EXPECT(2, err, "-o FILE is required", "cfg", "capture", "--", "true");
	TOOL_EXPECT(2, err, "invalid device id", "cfg", "capture", "--dev", "-1", "-o", "f",
		    "--", "true");
	TOOL_EXPECT(2, err, "-o FILE is required", "cfg", "capture", "stop");
	TOOL_EXPECT(2, err, "--dev does not apply to 'stop'", "cfg", "capture", "stop", "--dev",
		    "0");
	TOOL_EXPECT(2, err, "unknown option '-o'", "cfg", "capture", "start", "-o", "f");
	TOOL_EXPECT(0, out, "capture stop -o FILE", "cfg", "capture", "--help");
	/* checked before tracefs or the command */
	TOOL_EXPECT(1, err, "/nonexistent/dir/x.cfg: cannot create it", "cfg", "capture", "-o",
		    "/nonexistent/dir/x.cfg", "--", "true");
}

TEST_HARNESS_MAIN
