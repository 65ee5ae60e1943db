// SPDX-License-Identifier: GPL-2.0
/*
 * CFG_APPLY: ordered config-BAR writes, as recorded in an IPUCFG1 file
 * (the design notes' captured device initialisation, [S "Direct Attach And
 * Autoloader"]). All records are checked before the first write, so a bad
 * file changes nothing.
 *
 * The real C600 capture writes the HSP general-sync controls (its last two
 * records set GS2 = 1 and GS1 = 1). The seed replays every record; the
 * hardware-proven peer skips those records and then writes GS1 = 0 and
 * GS2 = 0, each read back as MARK 0 [FACTS.md "The load as run on a real
 * C600" step 2]. IPUXCOM_CFG_F_CLEAR_GS1/GS2 select that per control.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipuxcom_internal.h"
#include "c600_regs.h"

/* Records copied from userspace per step, to bound the allocation. */
#define CFG_CHUNK	256

static int cfg_read_chunk(struct ipuxcom_cfg_record *dst, u64 uptr, u32 first, u32 n)
{
	const void __user *src = u64_to_user_ptr(uptr + (u64)first * sizeof(*dst));

	return copy_from_user(dst, src, n * sizeof(*dst)) ? -EFAULT : 0;
}

/* Whether @flags keep record @r from being written. */
static bool cfg_skipped(u32 flags, const struct ipuxcom_cfg_record *r)
{
	return (r->offset == C600_HSP_GS1 && (flags & IPUXCOM_CFG_F_CLEAR_GS1)) ||
	       (r->offset == C600_HSP_GS2 && (flags & IPUXCOM_CFG_F_CLEAR_GS2));
}

/* MARK = 0 on @reg, which must read back 0; else -EBUSY naming it. */
static int cfg_clear_mark(struct ipuxcom_device *dev, struct ipuxcom_ioc_cfg_apply *ca,
			  u32 reg)
{
	u32 v;
	int ret;

	ret = ipuxcom_rd(dev, reg, &v);
	if (!ret)
		ret = ipuxcom_wr(dev, reg, v & ~C600_HSP_MARK);
	if (!ret)
		ret = ipuxcom_rd(dev, reg, &v);
	if (!ret && (v & C600_HSP_MARK)) {
		ca->hsp_reg = reg;
		ca->hsp_mark = v & C600_HSP_MARK;
		ret = -EBUSY;
	}
	return ret;
}

int ipuxcom_cmd_cfg_apply(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_cfg_apply *ca = arg;
	struct ipuxcom_cfg_record *rec, first = {};
	u32 i, j, n, undocumented = 0;
	int ret;

	ca->applied = 0;
	ca->bad_index = 0;
	ca->skipped = 0;
	ca->hsp_reg = 0;
	ca->hsp_mark = 0;
	if (!ca->count || ca->count > IPUXCOM_CFG_MAX_RECORDS)
		return -EINVAL;
	ret = ipuxcom_require_state(dev, IPUXCOM_STATE_BIT(IDLE));
	if (ret)
		return ret;
	rec = kmalloc_array(CFG_CHUNK, sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;

	/* Pass 1: validate every offset. */
	for (i = 0; i < ca->count; i += n) {
		n = min_t(u32, CFG_CHUNK, ca->count - i);
		ret = cfg_read_chunk(rec, ca->records, i, n);
		if (ret)
			goto out;
		for (j = 0; j < n; j++) {
			if (!IS_ALIGNED(rec[j].offset, 4) ||
			    rec[j].offset > dev->config_bar_size - 4) {
				ca->bad_index = i + j;
				ret = -EINVAL;
				goto out;
			}
			if (!ipuxcom_reg_documented(dev, rec[j].offset) && !undocumented++)
				first = rec[j];
		}
	}
	/*
	 * Logged before the first write. (A caller that changes the records
	 * between the passes, which needs CAP_SYS_RAWIO, only makes its own
	 * log line wrong.)
	 */
	if (undocumented)
		ipuxcom_audit_raw_write(dev, "CFG_APPLY", undocumented, first.offset, first.value);
	/* Pass 2: write in order. Userspace could change the array between
	 * the passes, so offsets are checked again (cheaply) as we go.
	 */
	for (i = 0; i < ca->count; i += n) {
		n = min_t(u32, CFG_CHUNK, ca->count - i);
		ret = cfg_read_chunk(rec, ca->records, i, n);
		if (ret)
			goto out;
		for (j = 0; j < n; j++) {
			if (!IS_ALIGNED(rec[j].offset, 4) ||
			    rec[j].offset > dev->config_bar_size - 4) {
				ca->bad_index = i + j;
				ret = -EINVAL;
				goto out;
			}
			if (cfg_skipped(ca->flags, &rec[j])) {
				ca->skipped++;
				continue;
			}
			ret = ipuxcom_wr(dev, rec[j].offset, rec[j].value);
			if (ret)
				goto out;
			ca->applied++;
		}
	}
	if (ca->flags & IPUXCOM_CFG_F_CLEAR_GS1)
		ret = cfg_clear_mark(dev, ca, C600_HSP_GS1);
	if (!ret && (ca->flags & IPUXCOM_CFG_F_CLEAR_GS2))
		ret = cfg_clear_mark(dev, ca, C600_HSP_GS2);
out:
	kfree(rec);
	return ret;
}
