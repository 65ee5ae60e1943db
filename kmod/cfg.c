// SPDX-License-Identifier: GPL-2.0-only
/*
 * Config-BAR access: the documented register set, raw REG_READ and
 * REG_WRITE checked against it, and CFG_APPLY.
 *
 * CFG_APPLY: ordered config-BAR writes, as recorded in an IPUCFG1 file
 * (the design notes' captured device initialisation, [S "Direct Attach And
 * Autoloader"]). All records are checked before the first write, so a bad
 * file changes nothing.
 *
 * The real C600 capture writes the HSP general-sync controls (its last two
 * records set GS2 = 1 and GS1 = 1). The seed replays every record; the
 * hardware-proven peer skips those records and then writes GS1 = 0 and
 * GS2 = 0, each read back as MARK 0 [RE, HW-LOAD step 2].
 * IPUXCOM_CFG_F_CLEAR_GS1/GS2 select that per control.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/nospec.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipuxcom_internal.h"
#include "c600_regs.h"

/*
 * The documented register set: the config-BAR registers of the record's
 * table (HW-REGS; [S], [RE]): PCI_COMPLEX.CCSR, AUTOLDCSR/TRGTR/DATAR, HSP GS1/GS2,
 * EXCHWINDOWBASER (0x3044), TILEUPDR (0x3054), the 16 XB.DCXCR
 * instances, and TDI registers 0-12 of each tile [S "Debug Readback
 * Pivot"]. Every mechanism of the module writes only these.
 */
static bool ipuxcom_reg_documented(const struct ipuxcom_device *dev, u32 offset)
{
	static const u32 regs[] = {
		C600_CCSR, C600_AUTOLDCSR, C600_AUTOLDTRGTR, C600_AUTOLDDATAR,
		C600_HSP_GS1, C600_HSP_GS2, 0x3044, 0x3054,
	};
	u32 i, t;

	for (i = 0; i < ARRAY_SIZE(regs); i++)
		if (offset == regs[i])
			return true;
	for (i = 0; i < C600_DCXCR_COUNT / 2; i++)
		if (offset == C600_DCXCR_PRIMARY + i * C600_DCXCR_STRIDE ||
		    offset == C600_DCXCR_SECONDARY + i * C600_DCXCR_STRIDE)
			return true;
	t = offset - C600_TDI_BASE;
	return offset >= C600_TDI_BASE && t / C600_TDI_TILE_STRIDE < dev->tile_count &&
	       (t % C600_TDI_TILE_STRIDE) / 4 < IPUXCOM_TDI_NREGS;
}

/*
 * Log a raw write outside the documented set (REG_WRITE, or @count such
 * records of one CFG_APPLY, the first at @offset), rate-limited, with the
 * process that asked. These need CAP_SYS_RAWIO; nothing in the notes
 * vouches for what they do to a card.
 */
static void ipuxcom_audit_raw_write(struct ipuxcom_device *dev, const char *cmd, u32 count,
				    u32 offset, u32 value)
{
	pr_notice_ratelimited("pid %d (%s) device %u (%s): %s: %u write(s) outside the documented register set, first 0x%05x = 0x%08x\n",
			      task_tgid_nr(current), current->comm, dev->id, dev->backend,
			      cmd, count, offset, value);
}

/*
 * A user offset into the config BAR: checked, then clamped against
 * speculation (a backend, the simulator, indexes its registers by it).
 */
static int ipuxcom_check_reg(struct ipuxcom_device *dev, u32 *offset)
{
	if (!IS_ALIGNED(*offset, 4) || *offset > dev->config_bar_size - 4)
		return -EINVAL;
	*offset = array_index_nospec(*offset, dev->config_bar_size);
	return 0;
}

int ipuxcom_cmd_reg_read(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_reg *reg = arg;
	u32 value = 0;
	int ret;

	ret = ipuxcom_check_reg(dev, &reg->offset);
	if (ret)
		return ret;
	/* A read can have side effects on hardware: only documented ones are free. */
	if (!ipuxcom_reg_documented(dev, reg->offset) && !capable(CAP_SYS_RAWIO))
		return -EPERM;
	ret = ipuxcom_rd(dev, reg->offset, &value);
	reg->value = value;
	return ret;
}

/* Raw writes bypass every sequence the module enforces: CAP_SYS_RAWIO. */
int ipuxcom_cmd_reg_write(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_reg *reg = arg;
	int ret;

	ret = ipuxcom_check_reg(dev, &reg->offset);
	if (ret)
		return ret;
	if (!ipuxcom_reg_documented(dev, reg->offset))
		ipuxcom_audit_raw_write(dev, "REG_WRITE", 1, reg->offset, reg->value);
	return ipuxcom_wr(dev, reg->offset, reg->value);
}

/* Whether @flags keep record @r from being written. */
static bool cfg_skipped(u32 flags, const struct ipuxcom_cfg_record *r)
{
	return (r->offset == C600_HSP_GS1 && (flags & IPUXCOM_CFG_F_CLEAR_GS1)) ||
	       (r->offset == C600_HSP_GS2 && (flags & IPUXCOM_CFG_F_CLEAR_GS2));
}

/*
 * @reg = 0, which must read back MARK 0; else -EBUSY naming it. The bare
 * word, as the peer clears the marks after its replay [RE, HW-LOAD
 * step 2].
 */
static int cfg_clear_mark(struct ipuxcom_device *dev, struct ipuxcom_ioc_cfg_apply *ca,
			  u32 reg)
{
	u32 v;
	int ret;

	ret = ipuxcom_wr(dev, reg, 0);
	if (!ret)
		ret = ipuxcom_rd(dev, reg, &v);
	if (!ret && (v & C600_HSP_MARK)) {
		ca->hsp_reg = reg;
		ca->hsp_mark = v & C600_HSP_MARK;
		ret = -EBUSY;
	}
	return ret;
}

/* The records, staged before any lock (core.c). */
int ipuxcom_cfg_payload(void *arg, struct ipuxcom_payload *pl)
{
	struct ipuxcom_ioc_cfg_apply *ca = arg;

	ca->applied = 0;
	ca->bad_index = 0;
	ca->skipped = 0;
	ca->hsp_reg = 0;
	ca->hsp_mark = 0;
	if (!ca->count || ca->count > IPUXCOM_CFG_MAX_RECORDS)
		return -EINVAL;
	pl->uptr = u64_to_user_ptr(ca->records);
	pl->len = (size_t)ca->count * sizeof(struct ipuxcom_cfg_record);
	pl->copy_in = pl->len;
	return 0;
}

int ipuxcom_cmd_cfg_apply(struct ipuxcom_device *dev, void *arg, struct ipuxcom_payload *pl)
{
	struct ipuxcom_ioc_cfg_apply *ca = arg;
	const struct ipuxcom_cfg_record *rec = pl->kbuf;
	struct ipuxcom_cfg_record first = {};
	u32 i, undocumented = 0;
	int ret;

	ret = ipuxcom_require_state(dev, IPUXCOM_STATE_BIT(IDLE));
	if (ret)
		return ret;
	/* Validate every offset before the first write. */
	for (i = 0; i < ca->count; i++) {
		if (!IS_ALIGNED(rec[i].offset, 4) || rec[i].offset > dev->config_bar_size - 4) {
			ca->bad_index = i;
			return -EINVAL;
		}
		if (!ipuxcom_reg_documented(dev, rec[i].offset) && !undocumented++)
			first = rec[i];
	}
	if (undocumented)
		ipuxcom_audit_raw_write(dev, "CFG_APPLY", undocumented, first.offset, first.value);
	for (i = 0; i < ca->count; i++) {
		if (cfg_skipped(ca->flags, &rec[i])) {
			ca->skipped++;
			continue;
		}
		/* checked above; the backend (simulator) indexes registers by it */
		ret = ipuxcom_wr(dev, array_index_nospec(rec[i].offset, dev->config_bar_size),
				 rec[i].value);
		if (ret)
			return ret;
		ca->applied++;
		if (!(i % 1024))
			cond_resched();
	}
	if (ca->flags & IPUXCOM_CFG_F_CLEAR_GS1)
		ret = cfg_clear_mark(dev, ca, C600_HSP_GS1);
	if (!ret && (ca->flags & IPUXCOM_CFG_F_CLEAR_GS2))
		ret = cfg_clear_mark(dev, ca, C600_HSP_GS2);
	return ret;
}
