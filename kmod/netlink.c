// SPDX-License-Identifier: GPL-2.0-only
/*
 * Generic netlink family "ipuxcom": device listing (DEV_GET do/dump) and
 * the "events" multicast group (state changes, load progress, timeouts,
 * resets, devices coming and going) that `ipuxcom monitor` prints.
 *
 * Errors carry extended-ack messages naming the attribute at fault, so
 * `ipuxcom dev show 7` can say why rather than print a bare errno.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <net/genetlink.h>

#include "compat.h"
#include "ipuxcom_internal.h"

static const struct nla_policy ipuxcom_nl_policy[IPUXCOM_A_MAX + 1] = {
	[IPUXCOM_A_DEV_ID] = NLA_POLICY_MAX(NLA_U32, IPUXCOM_MAX_DEVICES - 1),
};

static struct genl_family ipuxcom_genl_family;

/*
 * @show_pid: the requester may see which process holds the device
 * (CAP_NET_ADMIN); everyone else learns only that one does.
 */
static int ipuxcom_nl_fill_dev(struct sk_buff *skb, struct ipuxcom_device *dev,
			       u32 portid, u32 seq, int flags, u8 cmd, bool show_pid)
{
	struct ipuxcom_dev_snapshot snap;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &ipuxcom_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	ipuxcom_device_snapshot(dev, &snap);
	if (nla_put_u32(skb, IPUXCOM_A_DEV_ID, snap.id) ||
	    nla_put_string(skb, IPUXCOM_A_DEV_BACKEND, snap.backend) ||
	    nla_put_u32(skb, IPUXCOM_A_DEV_STATE, snap.state) ||
	    nla_put_u32(skb, IPUXCOM_A_DEV_ATTACHED, snap.attached) ||
	    (show_pid && nla_put_u32(skb, IPUXCOM_A_DEV_ATTACHED_PID, snap.attached_pid)) ||
	    nla_put_u32(skb, IPUXCOM_A_DEV_TILE_COUNT, snap.tile_count) ||
	    nla_put_u64_64bit(skb, IPUXCOM_A_DEV_CAPABILITIES, snap.capabilities,
			      IPUXCOM_A_PAD) ||
	    (snap.ipu_node[0] &&
	     nla_put_string(skb, IPUXCOM_A_DEV_IPU_NODE, snap.ipu_node))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int ipuxcom_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ipuxcom_device *dev;
	struct sk_buff *msg;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, IPUXCOM_A_DEV_ID))
		return -EINVAL;
	dev = ipuxcom_device_get_by_id(nla_get_u32(info->attrs[IPUXCOM_A_DEV_ID]));
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[IPUXCOM_A_DEV_ID],
				    "no ipuxcom device with this id");
		return -ENODEV;
	}
	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		ipuxcom_device_put(dev);
		return -ENOMEM;
	}
	ret = ipuxcom_nl_fill_dev(msg, dev, info->snd_portid, info->snd_seq, 0,
				  IPUXCOM_GENL_CMD_DEV_GET, netlink_capable(skb, CAP_NET_ADMIN));
	ipuxcom_device_put(dev);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return genlmsg_reply(msg, info);
}

static int ipuxcom_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned long index = cb->args[0];
	struct ipuxcom_device *dev;
	int ret = 0;

	while ((dev = ipuxcom_device_get_next(&index))) {
		ret = ipuxcom_nl_fill_dev(skb, dev, NETLINK_CB(cb->skb).portid,
					  cb->nlh->nlmsg_seq, NLM_F_MULTI,
					  IPUXCOM_GENL_CMD_DEV_GET,
					  netlink_capable(cb->skb, CAP_NET_ADMIN));
		ipuxcom_device_put(dev);
		if (ret) {
			/* retry this device in the next skb */
			index--;
			break;
		}
	}
	cb->args[0] = index;
	/* A full skb with entries in it is not an error: ask for more. */
	if (ret == -EMSGSIZE && skb->len)
		return skb->len;
	return ret ?: skb->len;
}

/*
 * Events say what the devices do (state, load progress, timeouts), never
 * who: where the kernel can, listening needs CAP_SYS_ADMIN (compat.h).
 */
static const struct genl_multicast_group ipuxcom_nl_mcgrps[] = {
	{ .name = IPUXCOM_GENL_MCGRP_EVENTS, IPUXCOM_MCGRP_ADMIN_ONLY },
};

static const struct genl_small_ops ipuxcom_nl_ops[] = {
	{
		.cmd = IPUXCOM_GENL_CMD_DEV_GET,
		.doit = ipuxcom_nl_dev_get_doit,
		.dumpit = ipuxcom_nl_dev_get_dumpit,
	},
};

/*
 * parallel_ops: the handlers run without the global genl_mutex. Without
 * it, a DEV_GET that waits on a device's ops_lock (held for writing while
 * the device is removed, and queued behind every command in flight)
 * would hold up every generic netlink family of the system. Nothing here
 * needs the mutex: the family's tables are read-only, the registry is
 * looked up under its xarray lock and holds a reference
 * (ipuxcom_device_get_by_id/_next), a device's fields are read under its
 * own lock (ipuxcom_device_snapshot(): dev->lock only, never ops_lock,
 * which removal holds for writing while it waits for commands), a
 * dump's position lives in its own cb->args (the netlink core runs one
 * socket's dump callbacks one at a time), and events are sent without it.
 */
static struct genl_family ipuxcom_genl_family __ro_after_init = {
	.name = IPUXCOM_GENL_NAME,
	.parallel_ops = true,
	.version = IPUXCOM_GENL_VERSION,
	.maxattr = IPUXCOM_A_MAX,
	.policy = ipuxcom_nl_policy,
	.module = THIS_MODULE,
	.small_ops = ipuxcom_nl_ops,
	.n_small_ops = ARRAY_SIZE(ipuxcom_nl_ops),
	.mcgrps = ipuxcom_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(ipuxcom_nl_mcgrps),
};

/*
 * Start an event message for @dev, or NULL when nobody listens (the common
 * case: then an event costs one check) or memory is short (events are
 * best effort, like every netlink notification).
 */
static struct sk_buff *ipuxcom_event_new(struct ipuxcom_device *dev, u8 cmd, void **hdr)
{
	struct sk_buff *skb;

	if (!genl_has_listeners(&ipuxcom_genl_family, &init_net, 0))
		return NULL;
	skb = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!skb)
		return NULL;
	*hdr = genlmsg_put(skb, 0, 0, &ipuxcom_genl_family, 0, cmd);
	if (!*hdr || nla_put_u32(skb, IPUXCOM_A_DEV_ID, dev->id)) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

static void ipuxcom_event_send(struct sk_buff *skb, void *hdr, bool put_failed)
{
	if (put_failed) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	genlmsg_multicast(&ipuxcom_genl_family, skb, 0, 0, GFP_KERNEL);
}

void ipuxcom_netlink_state(struct ipuxcom_device *dev, u32 old, u32 state)
{
	void *hdr;
	struct sk_buff *skb = ipuxcom_event_new(dev, IPUXCOM_GENL_CMD_STATE, &hdr);

	if (skb)
		ipuxcom_event_send(skb, hdr,
				   nla_put_u32(skb, IPUXCOM_A_DEV_STATE, state) ||
				   nla_put_u32(skb, IPUXCOM_A_OLD_STATE, old));
}

void ipuxcom_netlink_progress(struct ipuxcom_device *dev, u32 batches_done, u64 bytes)
{
	void *hdr;
	struct sk_buff *skb = ipuxcom_event_new(dev, IPUXCOM_GENL_CMD_LOAD_PROGRESS, &hdr);

	if (skb)
		ipuxcom_event_send(skb, hdr,
				   nla_put_u32(skb, IPUXCOM_A_BATCH, batches_done) ||
				   nla_put_u32(skb, IPUXCOM_A_BATCHES, IPUXCOM_LOAD_BATCHES) ||
				   nla_put_u64_64bit(skb, IPUXCOM_A_BYTES, bytes, IPUXCOM_A_PAD));
}

void ipuxcom_netlink_timeout(struct ipuxcom_device *dev, u32 offset, u32 value, int err)
{
	void *hdr;
	struct sk_buff *skb = ipuxcom_event_new(dev, IPUXCOM_GENL_CMD_TIMEOUT, &hdr);

	if (skb)
		ipuxcom_event_send(skb, hdr,
				   nla_put_u32(skb, IPUXCOM_A_REG, offset) ||
				   nla_put_u32(skb, IPUXCOM_A_VALUE, value) ||
				   nla_put_s32(skb, IPUXCOM_A_ERROR, err));
}

void ipuxcom_netlink_reset(struct ipuxcom_device *dev, int err)
{
	void *hdr;
	struct sk_buff *skb = ipuxcom_event_new(dev, IPUXCOM_GENL_CMD_RESET, &hdr);

	if (skb)
		ipuxcom_event_send(skb, hdr, nla_put_s32(skb, IPUXCOM_A_ERROR, err));
}

void ipuxcom_netlink_device(struct ipuxcom_device *dev, bool added)
{
	struct sk_buff *skb;
	void *hdr;

	if (!added) {
		skb = ipuxcom_event_new(dev, IPUXCOM_GENL_CMD_DEV_DEL, &hdr);
		if (skb)
			ipuxcom_event_send(skb, hdr, false);
		return;
	}
	if (!genl_has_listeners(&ipuxcom_genl_family, &init_net, 0))
		return;
	skb = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!skb)
		return;
	/* to every listener: no pid (a new device has none anyway) */
	if (ipuxcom_nl_fill_dev(skb, dev, 0, 0, 0, IPUXCOM_GENL_CMD_DEV_NEW, false)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast(&ipuxcom_genl_family, skb, 0, 0, GFP_KERNEL);
}

int ipuxcom_netlink_init(void)
{
	return genl_register_family(&ipuxcom_genl_family);
}

void ipuxcom_netlink_exit(void)
{
	genl_unregister_family(&ipuxcom_genl_family);
}
