// SPDX-License-Identifier: GPL-2.0-only
/*
 * AUTOLOAD: install the tile bootloader on every tile through the hardware
 * autoloader, with the register sequence the design notes traced for the
 * 948-byte IPU2 bootloader padded to 1 KiB [S "Direct Attach And
 * Autoloader"], as the hardware-proven peer also runs it [RE, HW-LOAD
 * step 3; HW-AUTOLOAD-SEQ]:
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
 * Both records pad to a multiple of 1 KiB. The words are built from the
 * peer's named fields for every size [RE `install_bootloader`,
 * HW-AUTOLOAD-FIELDS]:
 *	TRGTR = zone 32<<20 | address<<10 | KiB in the low bits
 *	CSR   = DATA_PRESENT 1<<20 | GO 1<<8 | load pointer (bytes/4 - 1) & 0x3f
 *	first  TRGTR: address = the image's KiB, low bits 0
 *	first  CSR:   DATA_PRESENT | GO | load pointer
 *	second TRGTR: address = 624 (tile memory in KiB), low bits = KiB
 *	second CSR:   (tiles - 1)<<9 | GO | load pointer
 * which gives the seed's words at 1 KiB (a device test asserts them at
 * the config-BAR tracepoint). HARDWARE-CHECKED ONLY AT 1 KiB: the peer
 * ran this formula on a C600 for its 1 KiB bootloader; 2, 3 and 4 KiB
 * images follow the same named fields but have not run on a card.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipuxcom_internal.h"
#include "c600_regs.h"

/* Both records pad the image to whole KiB [S, RE]. */
#define AUTOLOAD_PAD			1024
/* AUTOLDCSR read back after this many data words [RE]. */
#define AUTOLOAD_FLUSH_WORDS		32
/* The peer waits 2 s for GO [RE, HW-AUTOLOAD-SEQ]. */
#define AUTOLOAD_DEFAULT_TIMEOUT_NS	(2ULL * NSEC_PER_SEC)

/* The peer's named fields [RE, HW-AUTOLOAD-FIELDS]. */
#define AUTOLOAD_TRGTR_ZONE		(32u << 20)
#define AUTOLOAD_TRGTR_ADDR_SHIFT	10
/* Tile memory in KiB: the second transaction's address [RE]. */
#define AUTOLOAD_TILE_MEM_KIB		624u
#define AUTOLOAD_CSR_DATA_PRESENT	BIT(20)
#define AUTOLOAD_CSR_TILES_SHIFT	9
#define AUTOLOAD_CSR_LOAD_PTR(bytes)	(((bytes) / 4 - 1) & 0x3f)

static u32 autoload_trgtr(u32 address, u32 kib)
{
	return AUTOLOAD_TRGTR_ZONE | address << AUTOLOAD_TRGTR_ADDR_SHIFT | kib;
}

/* 0x02000400 for 1 KiB: address = KiB, low bits 0. */
static u32 autoload_stage_trgtr(u32 bytes)
{
	return autoload_trgtr(bytes / AUTOLOAD_PAD, 0);
}

/* 0x0209c001 for 1 KiB: address = tile memory, KiB in the low bits. */
static u32 autoload_deliver_trgtr(u32 bytes)
{
	return autoload_trgtr(AUTOLOAD_TILE_MEM_KIB, bytes / AUTOLOAD_PAD);
}

/* 0x0010013f for 1 KiB. */
static u32 autoload_stage_csr(u32 bytes)
{
	return AUTOLOAD_CSR_DATA_PRESENT | C600_AUTOLD_GO | AUTOLOAD_CSR_LOAD_PTR(bytes);
}

/* 0x000b7f3f for 1 KiB delivered to 1472 tiles. */
static u32 autoload_deliver_csr(u32 bytes, u32 tiles)
{
	return (tiles - 1) << AUTOLOAD_CSR_TILES_SHIFT | C600_AUTOLD_GO |
	       AUTOLOAD_CSR_LOAD_PTR(bytes);
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
	ret = autoload_go(dev, autoload_stage_trgtr(bytes), autoload_stage_csr(bytes),
			  timeout, &al->csr);
	if (ret)
		return ret;
	al->stage = 2;
	ret = autoload_go(dev, autoload_deliver_trgtr(bytes),
			  autoload_deliver_csr(bytes, dev->tile_count), timeout, &al->csr);
	if (ret)
		return ret;
	al->stage = 0;
	ipuxcom_set_state(dev, IPUXCOM_DEV_STATE_BOOTLOADER);
	return 0;
}
