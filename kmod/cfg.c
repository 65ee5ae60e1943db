// SPDX-License-Identifier: GPL-2.0
/*
 * CFG_APPLY: ordered config-BAR writes, as recorded in an IPUCFG1 file
 * (the design notes' captured device initialisation, [S "Direct Attach And
 * Autoloader"]). All records are checked before the first write, so a bad
 * file changes nothing.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipuxcom_internal.h"

/* Records copied from userspace per step, to bound the allocation. */
#define CFG_CHUNK	256

static int cfg_read_chunk(struct ipuxcom_cfg_record *dst, u64 uptr, u32 first, u32 n)
{
	const void __user *src = u64_to_user_ptr(uptr + (u64)first * sizeof(*dst));

	return copy_from_user(dst, src, n * sizeof(*dst)) ? -EFAULT : 0;
}

int ipuxcom_cmd_cfg_apply(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_cfg_apply *ca = arg;
	struct ipuxcom_cfg_record *rec, first = {};
	u32 i, j, n, undocumented = 0;
	int ret;

	ca->applied = 0;
	ca->bad_index = 0;
	if (ca->reserved || !ca->count || ca->count > IPUXCOM_CFG_MAX_RECORDS)
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
			ret = ipuxcom_wr(dev, rec[j].offset, rec[j].value);
			if (ret)
				goto out;
			ca->applied++;
		}
	}
out:
	kfree(rec);
	return ret;
}
