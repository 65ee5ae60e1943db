// SPDX-License-Identifier: GPL-2.0
/*
 * AUTOLOAD: install the tile bootloader on every tile through the hardware
 * autoloader, with the register sequence the design notes traced for the
 * 948-byte IPU2 bootloader padded to 1 KiB [S "Direct Attach And
 * Autoloader"]:
 *
 *	AUTOLDCSR   = 0
 *	AUTOLDDATAR = the image, one 32-bit word per write
 *	AUTOLDTRGTR = 0x02000400
 *	AUTOLDCSR   = 0x0010013f; wait for GO (bit 8) to clear
 *	AUTOLDTRGTR = 0x0209c001
 *	AUTOLDCSR   = 0x000b7f3f; wait for GO to clear
 *
 * Only those six words are documented. For other sizes the notes say the
 * tool "derives the corresponding range fields" without giving them; the
 * derivation below is INFERRED from the two documented CSR words and is
 * unverified on hardware for anything but 1 KiB:
 *	CSR[7:0]   = image bytes / 16 - 1   (0x3f for 1 KiB; 8 bits: 4 KiB max)
 *	CSR[19:9]  = last physical tile     (0x5bf = 1471; 0 when staging)
 *	CSR[20]    = set on the staging transaction
 *	TRGTR[15:0] of the staging transaction = image bytes (0x400)
 * A 1 KiB image reproduces the documented words exactly.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipuxcom_internal.h"
#include "c600_regs.h"

#define AUTOLOAD_UNIT			16
#define AUTOLOAD_STAGE_TRGTR		0x02000000u
#define AUTOLOAD_DELIVER_TRGTR		0x0209c001u
#define AUTOLOAD_CSR_STAGE		BIT(20)
#define AUTOLOAD_CSR_LAST_SHIFT		9
#define AUTOLOAD_DEFAULT_TIMEOUT_NS	(1000ULL * NSEC_PER_MSEC)

/* The staging word carries no tile range (0x0010013f for 1 KiB). */
static u32 autoload_stage_csr(u32 bytes)
{
	return (bytes / AUTOLOAD_UNIT - 1) | C600_AUTOLD_GO | AUTOLOAD_CSR_STAGE;
}

/* 0x000b7f3f for 1 KiB delivered to tiles 0..1471. */
static u32 autoload_deliver_csr(u32 bytes, u32 last_tile)
{
	return (bytes / AUTOLOAD_UNIT - 1) | C600_AUTOLD_GO |
	       last_tile << AUTOLOAD_CSR_LAST_SHIFT;
}

static int autoload_go(struct ipuxcom_device *dev, u32 trgtr, u32 csr,
		       u64 timeout_ns, u32 *last)
{
	int ret;

	ret = ipuxcom_wr(dev, C600_AUTOLDTRGTR, trgtr);
	if (!ret)
		ret = ipuxcom_wr(dev, C600_AUTOLDCSR, csr);
	if (!ret)
		ret = ipuxcom_poll(dev, C600_AUTOLDCSR, C600_AUTOLD_GO, 0, timeout_ns, last);
	return ret;
}

int ipuxcom_cmd_autoload(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_autoload *al = arg;
	u64 timeout = ipuxcom_timeout(al->timeout_ns, AUTOLOAD_DEFAULT_TIMEOUT_NS);
	u32 bytes, i;
	__le32 *words;
	int ret;

	al->stage = 0;
	al->csr = 0;
	if (al->reserved || !al->image_size ||
	    al->image_size > IPUXCOM_AUTOLOAD_MAX_BYTES)
		return -EINVAL;
	ret = ipuxcom_require_state(dev, IPUXCOM_STATE_BIT(IDLE));
	if (ret)
		return ret;
	/* Pad to whole 16-byte units, as the notes pad 948 bytes to 1 KiB. */
	bytes = ALIGN(al->image_size, AUTOLOAD_UNIT);
	words = kzalloc(bytes, GFP_KERNEL);
	if (!words)
		return -ENOMEM;
	if (copy_from_user(words, u64_to_user_ptr(al->image), al->image_size)) {
		ret = -EFAULT;
		goto out;
	}

	ret = ipuxcom_wr(dev, C600_AUTOLDCSR, 0);
	for (i = 0; !ret && i < bytes / 4; i++)
		ret = ipuxcom_wr(dev, C600_AUTOLDDATAR, le32_to_cpu(words[i]));
	if (ret)
		goto out;
	al->stage = 1;
	ret = autoload_go(dev, AUTOLOAD_STAGE_TRGTR | bytes,
			  autoload_stage_csr(bytes), timeout, &al->csr);
	if (ret)
		goto out;
	al->stage = 2;
	ret = autoload_go(dev, AUTOLOAD_DELIVER_TRGTR,
			  autoload_deliver_csr(bytes, dev->tile_count - 1), timeout, &al->csr);
	if (ret)
		goto out;
	al->stage = 0;
	ipuxcom_set_state(dev, IPUXCOM_DEV_STATE_BOOTLOADER);
out:
	kfree(words);
	return ret;
}
