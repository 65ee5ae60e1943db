/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulator's tile SRAM page store: 4 KiB pages, shared between tiles
 * (and within a tile) by content, reference-counted, copied on write.
 * A page table is an array of page pointers, one per 4 KiB of SRAM; a NULL
 * entry reads as zeros, and an all-zero page is never stored.
 *
 * Pages written by c600_sram_write() are private and "dirty" (not yet
 * hashed); c600_sram_seal() hashes the dirty pages and folds each into an
 * equal page already stored. The model seals after each tile's bulk load;
 * the store also seals by itself once C600_SRAM_DIRTY_MAX pages are dirty,
 * so small writes (TDI stores, exchange-window writes) are not hashed one
 * at a time. A whole-page write is hashed, and shared, at once.
 *
 * Plain C for the kernel and for userspace, like the rest of sim/. No
 * locking: the model's user serialises calls per instance.
 */
#ifndef C600_SRAM_H
#define C600_SRAM_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/vmalloc.h>
/*
 * Small allocations (pages, their headers) from the slab, big from vmalloc,
 * all charged to the memory cgroup of the task that makes them
 * (GFP_KERNEL_ACCOUNT): the model itself (register file, tile tables,
 * ~2.5 MiB) to the task that adds the device (loading ipuxcom_sim, or
 * writing its "devices" parameter); tile SRAM pages, allocated lazily as
 * tiles are written (up to 624 KiB x 1,472 tiles, ~0.9 GiB, less where
 * pages are shared), and the page hash to the task whose command writes
 * them (AUTOLOAD, LOAD_BATCH, EXCH_WRITE, a TDI store, a host-exchange
 * call). They stay charged there after that task closes the device, until
 * a RESET or the device's removal frees them. Over the cgroup's limit (or
 * out of memory) the allocation fails rather than OOM-killing anyone
 * (__GFP_RETRY_MAYFAIL, and quietly: the failure is the caller's answer):
 * adding the device fails with -ENOMEM, a command fails as the model's
 * allocation failures do (a device that does not answer).
 */
#define sim_zalloc(n)	kvzalloc((n), GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)
#define sim_free(p)	kvfree(p)
#else
#include "user/sim_user_port.h"
#endif

#define C600_SRAM_PAGE_SHIFT	12
#define C600_SRAM_PAGE_SIZE	4096u	/* 1 << C600_SRAM_PAGE_SHIFT */
/* Dirty pages that make the next write seal the store first. */
#define C600_SRAM_DIRTY_MAX	256

struct c600_sram_page;

struct c600_sram {
	struct c600_sram_page **bucket;	/* hash table of sealed pages */
	u32 nbuckets;			/* a power of two, or 0 */
	u32 hashed;			/* pages in the hash table */
	u32 pages;			/* pages in use: hashed + dirty */
	struct c600_sram_page *dirty;	/* written since last hashed */
	u32 ndirty;
	struct c600_sram_page *spare;	/* one freed page kept for reuse */
};

/*
 * Store @len bytes at byte @off of the SRAM @pt describes (the caller
 * checks the range). 0, or -ENOMEM with a prefix of the bytes stored.
 */
int c600_sram_write(struct c600_sram *s, struct c600_sram_page **pt, u32 off,
		    const void *src, size_t len);
void c600_sram_read(struct c600_sram_page *const *pt, u32 off, void *dst, size_t len);
/* Hash the dirty pages and share each with an equal stored page. */
void c600_sram_seal(struct c600_sram *s);
/* Free every page; the caller forgets (zeroes) every page table. */
void c600_sram_free_all(struct c600_sram *s);

/* Bytes of page data allocated (pages in use and the spare). */
static inline u32 c600_sram_bytes(const struct c600_sram *s)
{
	return (s->pages + (s->spare ? 1 : 0)) * C600_SRAM_PAGE_SIZE;
}

#endif /* C600_SRAM_H */
