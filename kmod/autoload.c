// SPDX-License-Identifier: GPL-2.0
/*
 * AUTOLOAD: install the tile bootloader on every tile through the hardware
 * autoloader, with the register sequence the design notes traced for the
 * 948-byte IPU2 bootloader padded to 1 KiB [S "Direct Attach And
 * Autoloader"], as the hardware-proven peer also runs it [RE, FACTS.md
 * "The load as run on a real C600" step 3]:
 *
 *	AUTOLDCSR   = 0
 *	AUTOLDDATAR = the image padded to 1 KiB, one 32-bit word per write;
 *		      AUTOLDCSR is read back after every 32 words [RE] to
 *		      flush the posted writes
 *	AUTOLDTRGTR = 0x02000400
 *	AUTOLDCSR   = 0x0010013f; wait for GO (bit 8) to clear
 *	AUTOLDTRGTR = 0x0209c001
 *	AUTOLDCSR   = 0x000b7f3f; wait for GO to clear
 *
 * Both records pad to a multiple of 1 KiB, and the notes' tool "derives
 * the corresponding range fields for a 1-4 KiB image". Only the 1 KiB
 * words are recorded. The derivation below is MODELLED from them and is
 * unverified on hardware for 2, 3 and 4 KiB:
 *	CSR[7:0]   = image bytes / 16 - 1   (0x3f for 1 KiB; 0x7f, 0xbf, 0xff)
 *	CSR[19:9]  = last physical tile     (0x5bf = 1471; 0 when staging)
 *	CSR[20]    = set on the staging transaction
 *	TRGTR[15:0] of the staging transaction = image bytes (0x400; 0x800,
 *		     0xc00, 0x1000)
 * A 1 KiB image reproduces the recorded words exactly (a device test
 * asserts them at the config-BAR tracepoint).
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipuxcom_internal.h"
#include "c600_regs.h"

/* Both records pad the image to whole KiB [S, RE]. */
#define AUTOLOAD_PAD			1024
/* CSR[7:0] counts 16-byte units (modelled, see above). */
#define AUTOLOAD_UNIT			16
/* AUTOLDCSR read back after this many data words [RE]. */
#define AUTOLOAD_FLUSH_WORDS		32
#define AUTOLOAD_STAGE_TRGTR		0x02000000u
#define AUTOLOAD_DELIVER_TRGTR		0x0209c001u
#define AUTOLOAD_CSR_STAGE		BIT(20)
#define AUTOLOAD_CSR_LAST_SHIFT		9
/* The peer waits 2 s for GO [RE, FACTS.md step 3]. */
#define AUTOLOAD_DEFAULT_TIMEOUT_NS	(2ULL * NSEC_PER_SEC)

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

/*
 * The image, padded with zeros to whole KiB: 948 bytes become 1 KiB, 256
 * words [S]. Staged before any lock (core.c).
 */
int ipuxcom_autoload_payload(void *arg, struct ipuxcom_payload *pl)
{
	struct ipuxcom_ioc_autoload *al = arg;

	al->stage = 0;
	al->csr = 0;
	if (al->reserved || !al->image_size ||
	    al->image_size > IPUXCOM_AUTOLOAD_MAX_BYTES)
		return -EINVAL;
	pl->uptr = u64_to_user_ptr(al->image);
	pl->copy_in = al->image_size;
	pl->len = ALIGN(al->image_size, AUTOLOAD_PAD);
	return 0;
}

int ipuxcom_cmd_autoload(struct ipuxcom_device *dev, void *arg, struct ipuxcom_payload *pl)
{
	struct ipuxcom_ioc_autoload *al = arg;
	u64 timeout = ipuxcom_timeout(al->timeout_ns, AUTOLOAD_DEFAULT_TIMEOUT_NS);
	const __le32 *words = pl->kbuf;
	u32 bytes = pl->len, i;
	int ret;

	ret = ipuxcom_require_state(dev, IPUXCOM_STATE_BIT(IDLE));
	if (ret)
		return ret;
	ret = ipuxcom_wr(dev, C600_AUTOLDCSR, 0);
	for (i = 0; !ret && i < bytes / 4; i++) {
		ret = ipuxcom_wr(dev, C600_AUTOLDDATAR, le32_to_cpu(words[i]));
		if (!ret && (i + 1) % AUTOLOAD_FLUSH_WORDS == 0)
			ret = ipuxcom_rd(dev, C600_AUTOLDCSR, &al->csr);
	}
	if (ret)
		return ret;
	al->stage = 1;
	ret = autoload_go(dev, AUTOLOAD_STAGE_TRGTR | bytes,
			  autoload_stage_csr(bytes), timeout, &al->csr);
	if (ret)
		return ret;
	al->stage = 2;
	ret = autoload_go(dev, AUTOLOAD_DELIVER_TRGTR,
			  autoload_deliver_csr(bytes, dev->tile_count - 1), timeout, &al->csr);
	if (ret)
		return ret;
	al->stage = 0;
	ipuxcom_set_state(dev, IPUXCOM_DEV_STATE_BOOTLOADER);
	return 0;
}
