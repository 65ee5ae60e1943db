/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel-version compatibility of the ipuxcom modules, in one place.
 *
 * The modules are built out of tree (DKMS, `make modules`) against every
 * kernel Debian 12 offers: linux 6.1 (the default, flavours amd64,
 * cloud-amd64, rt-amd64) and linux 6.12 (bookworm-security's
 * linux-headers-6.12-*, the same flavours). `make check-kbuild-matrix`
 * builds them against each one.
 *
 * Rule: a file that uses an interface listed here includes this header
 * and uses the ipuxcom_* name, never a version test of its own. Every
 * entry says which kernel changed what.
 *
 * Checked and needing nothing on 6.1 .. 6.12, for who adds the next entry:
 * remap_vmalloc_range() (it sets VM_DONTEXPAND | VM_DONTDUMP itself, so no
 * vm_flags_set() here), misc_register() (no class_create() is used),
 * genl_small_ops and GENL_REQ_ATTR_CHECK (no resv_start_op is set),
 * compat_ptr_ioctl, module_param_cb, debugfs_create_bool, pci_get_device,
 * bus notifiers, the tracepoint macros (no __string/__assign_str, whose
 * second argument went away in 6.10), strscpy.
 *
 * Not a version test but the same cause: a file includes what it uses
 * (hsp.c: <linux/time64.h> for NSEC_PER_SEC, which 6.12's headers no
 * longer pull in through ipuxcom_internal.h's includes).
 */
#ifndef IPUXCOM_COMPAT_H
#define IPUXCOM_COMPAT_H

#include <linux/fs.h>
#include <linux/version.h>

/* True when building for Linux @a.@b.@c or later. */
#define IPUXCOM_LINUX_AT_LEAST(a, b, c)	(KERNEL_VERSION(a, b, c) <= LINUX_VERSION_CODE)

/*
 * The oldest kernel built and tested: Debian 12's 6.1. Older ones were
 * never tried; refuse them rather than fail somewhere in the build.
 */
#if !IPUXCOM_LINUX_AT_LEAST(6, 1, 0)
#error "ipuxcom needs Linux 6.1 or later (Debian 12's kernel)"
#endif

/*
 * 6.12 moved <asm/unaligned.h> to <linux/unaligned.h> and removed the old
 * name (commit 5f60d5f6bbc1, "move asm/unaligned.h to linux/unaligned.h").
 */
#if IPUXCOM_LINUX_AT_LEAST(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * file_operations.llseek of a file that cannot seek. 6.12 removed
 * no_llseek() (commit cb787f4ac0c2): a NULL .llseek now gives -ESPIPE,
 * which is what no_llseek() returned before.
 */
#if IPUXCOM_LINUX_AT_LEAST(6, 12, 0)
#define ipuxcom_no_llseek	NULL
#else
#define ipuxcom_no_llseek	no_llseek
#endif

/*
 * A generic-netlink multicast group that needs a capability to listen
 * (GENL_MCAST_CAP_SYS_ADMIN): mainline 6.7, and backported to stable
 * kernels before it, Debian's 6.1 among them (6.1.0-57's
 * <net/genetlink.h> has it, and genl_bind() enforces it). So this tests
 * the symbol, a #define in <net/genetlink.h>, never the version. Where it
 * is missing nothing could refuse a listener, and every user would see
 * every device's events (states, timeouts, whose device was reset): the
 * build refuses rather than leave the group open.
 */
#include <net/genetlink.h>
#ifdef GENL_MCAST_CAP_SYS_ADMIN
#define IPUXCOM_MCGRP_ADMIN_ONLY	.flags = GENL_MCAST_CAP_SYS_ADMIN
#else
#error "ipuxcom: no GENL_MCAST_CAP_SYS_ADMIN (6.7, or a backport): events group would be open"
#endif

/*
 * The page frame a VM_IO | VM_PFNMAP mapping maps at @addr, with the
 * mmap lock held: 0, or -EINVAL where nothing is mapped there (yet).
 * follow_pfn() went away in 6.10 (commit cb10c28ac82c, "mm: remove
 * follow_pfn"); 6.12 offers follow_pfnmap_start()/_end() (commit
 * 6da8e9634bb7, "mm: new follow_pfnmap API"). 6.10 and 6.11, with only
 * follow_pte() taking a VMA, were never built here: refused.
 */
#include <linux/mm.h>
#if IPUXCOM_LINUX_AT_LEAST(6, 12, 0)
static inline int ipuxcom_vma_pfn(struct vm_area_struct *vma, unsigned long addr,
				  unsigned long *pfn)
{
	struct follow_pfnmap_args args = { .vma = vma, .address = addr };
	int ret = follow_pfnmap_start(&args);

	if (ret)
		return ret;
	*pfn = args.pfn;
	follow_pfnmap_end(&args);
	return 0;
}
#elif IPUXCOM_LINUX_AT_LEAST(6, 10, 0)
#error "ipuxcom: Linux 6.10 and 6.11 were never built (no follow_pfn(), no follow_pfnmap_start())"
#else
static inline int ipuxcom_vma_pfn(struct vm_area_struct *vma, unsigned long addr,
				  unsigned long *pfn)
{
	return follow_pfn(vma, addr, pfn);
}
#endif

#endif /* IPUXCOM_COMPAT_H */
