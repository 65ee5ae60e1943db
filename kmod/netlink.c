// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "ipuxcom": device listing (DEV_GET do/dump).
 *
 * Errors carry extended-ack messages naming the attribute at fault, so
 * `ipuxcom dev show 7` can say why rather than print a bare errno.
 */
#include <linux/module.h>
#include <net/genetlink.h>

#include "ipuxcom_internal.h"

static const struct nla_policy ipuxcom_nl_policy[IPUXCOM_A_MAX + 1] = {
	[IPUXCOM_A_DEV_ID] = NLA_POLICY_MAX(NLA_U32, IPUXCOM_MAX_DEVICES - 1),
};

static struct genl_family ipuxcom_genl_family;

static int ipuxcom_nl_fill_dev(struct sk_buff *skb, struct ipuxcom_device *dev,
			       u32 portid, u32 seq, int flags)
{
	struct ipuxcom_dev_snapshot snap;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &ipuxcom_genl_family, flags,
			  IPUXCOM_GENL_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	ipuxcom_device_snapshot(dev, &snap);
	if (nla_put_u32(skb, IPUXCOM_A_DEV_ID, snap.id) ||
	    nla_put_string(skb, IPUXCOM_A_DEV_BACKEND, snap.backend) ||
	    nla_put_u32(skb, IPUXCOM_A_DEV_STATE, snap.state) ||
	    nla_put_u32(skb, IPUXCOM_A_DEV_ATTACHED_PID, snap.attached_pid) ||
	    nla_put_u32(skb, IPUXCOM_A_DEV_TILE_COUNT, snap.tile_count)) {
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
	ret = ipuxcom_nl_fill_dev(msg, dev, info->snd_portid, info->snd_seq, 0);
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
					  cb->nlh->nlmsg_seq, NLM_F_MULTI);
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

static const struct genl_small_ops ipuxcom_nl_ops[] = {
	{
		.cmd = IPUXCOM_GENL_CMD_DEV_GET,
		.doit = ipuxcom_nl_dev_get_doit,
		.dumpit = ipuxcom_nl_dev_get_dumpit,
	},
};

static struct genl_family ipuxcom_genl_family __ro_after_init = {
	.name = IPUXCOM_GENL_NAME,
	.version = IPUXCOM_GENL_VERSION,
	.maxattr = IPUXCOM_A_MAX,
	.policy = ipuxcom_nl_policy,
	.module = THIS_MODULE,
	.small_ops = ipuxcom_nl_ops,
	.n_small_ops = ARRAY_SIZE(ipuxcom_nl_ops),
};

int ipuxcom_netlink_init(void)
{
	return genl_register_family(&ipuxcom_genl_family);
}

void ipuxcom_netlink_exit(void)
{
	genl_unregister_family(&ipuxcom_genl_family);
}
