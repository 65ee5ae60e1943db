// SPDX-License-Identifier: GPL-2.0-only
/*
 * A card driven by ipu_driver is reached through what ipu_driver gives
 * its holder, and nothing the records leave open is guessed: the caller
 * passes ATTACH its open /dev/ipuN and its own mapping of the config
 * registers (mmap offset 0, 0x80000 bytes, shared: exactly as the
 * hardware-proven stack maps them [RE], docs/hardware.md "Device and
 * driver"), and optionally /dev/ipuN_ex and its mapping. This file turns
 * such a mapping into the physical range it reaches, reading only the
 * caller's page tables:
 *
 *  - the mapping must be one of that very open file (vma->vm_file), at
 *    file offset 0, shared, readable and writable: a private or read-only
 *    one proves nothing about writing registers;
 *  - its pages must be device memory (VM_IO | VM_PFNMAP, as a driver's
 *    mmap of a BAR makes them) and physically contiguous; pages not yet
 *    faulted in (a driver that inserts them at fault, or one that maps
 *    them all at mmap time: both are plausible, neither is recorded) are
 *    faulted in as the caller's own first access would, without reading
 *    them.
 *
 * The backend then says whether that range lies in its PCI function's
 * memory resources, at whatever BAR and offset (hw_windows_check()). So
 * no BAR index, no place of /dev/ipuN in sysfs and no answer of
 * ipu_driver to any call of ours is assumed, and the module never calls
 * into ipu_driver: what USER_ATTACH means is the caller's business with
 * ipu_driver, as the record does it.
 *
 * Called before any lock of the module is taken (it sleeps on the
 * caller's mmap_lock, and may run ipu_driver's fault handler).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/string.h>

#include "compat.h"
#include "ipuxcom_internal.h"

/*
 * The page frame the caller's @vma maps at @addr, faulting it in first
 * if nothing is mapped there yet (mmap_lock read-held; a read fault: the
 * driver inserts the page, nothing reads the register).
 */
static int ipunode_pfn(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr,
		       unsigned long *pfn)
{
	int ret;

	if (!ipuxcom_vma_pfn(vma, addr, pfn))
		return 0;
	ret = fixup_user_fault(mm, addr, 0, NULL);
	if (ret)
		return ret == -EFAULT ? -EXDEV : ret;
	return ipuxcom_vma_pfn(vma, addr, pfn) ? -EXDEV : 0;
}

/**
 * ipuxcom_ipu_window() - the physical range a holder's mapping reaches
 * @file: the open ipu_driver node the caller named (/dev/ipuN or _ex)
 * @uaddr: the user address of the caller's mapping of @file
 * @len: bytes the window must cover, a page multiple
 * @phys: out: the physical address of @uaddr
 *
 * Context: process context, no lock of the module held; takes the
 * caller's mmap_lock for reading (killable).
 * Return: 0; -EBADF if @file is not open for reading and writing;
 * -EXDEV if it is not a char device, or @uaddr is not a mapping of it at
 * offset 0 covering @len, physically contiguous; -EOPNOTSUPP if the
 * mapping is the file's but not a PFN map of device memory;
 * -EACCES for a private or not read-write mapping; -EINVAL for an
 * unaligned @uaddr or @len; -EINTR if killed while waiting for the lock.
 */
int ipuxcom_ipu_window(struct file *file, u64 uaddr, u64 len, phys_addr_t *phys)
{
	const unsigned long need = VM_SHARED | VM_READ | VM_WRITE;
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned long pfn0 = 0, pfn, off;
	int ret = 0;

	*phys = 0;
	if ((file->f_mode & (FMODE_READ | FMODE_WRITE)) != (FMODE_READ | FMODE_WRITE))
		return -EBADF;
	if (!S_ISCHR(file_inode(file)->i_mode))
		return -EXDEV;
	if (!len || !PAGE_ALIGNED(uaddr) || !PAGE_ALIGNED(len) ||
	    uaddr + len < uaddr || uaddr + len > TASK_SIZE)
		return -EINVAL;
	if (!mm)
		return -EXDEV;
	if (mmap_read_lock_killable(mm))
		return -EINTR;
	vma = vma_lookup(mm, uaddr);
	if (!vma || vma->vm_file != file || uaddr + len > vma->vm_end ||
	    vma->vm_pgoff + ((uaddr - vma->vm_start) >> PAGE_SHIFT) != 0) {
		ret = -EXDEV;
		goto out;
	}
	if ((vma->vm_flags & need) != need) {
		ret = -EACCES;
		goto out;
	}
	/*
	 * How ipu_driver maps its BARs is not recorded: a mapping of the
	 * node that is not a PFN map of device memory (VM_MIXEDMAP, say) is
	 * one this module cannot resolve. Said apart from "not this card's".
	 */
	if (!(vma->vm_flags & (VM_IO | VM_PFNMAP))) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	for (off = 0; off < len; off += PAGE_SIZE) {
		ret = ipunode_pfn(mm, vma, uaddr + off, &pfn);
		if (ret)
			break;
		if (!off)
			pfn0 = pfn;
		else if (pfn != pfn0 + (off >> PAGE_SHIFT))
			ret = -EXDEV;
		if (ret)
			break;
	}
	if (!ret)
		*phys = PFN_PHYS(pfn0);
out:
	mmap_read_unlock(mm);
	return ret;
}

/*
 * The name of the node @file was opened by ("ipu0"), for DEV_QUERY and
 * netlink: display only, never trusted.
 */
void ipuxcom_ipu_file_name(struct file *file, char *name, size_t len)
{
	struct name_snapshot n;

	take_dentry_name_snapshot(&n, file->f_path.dentry);
	strscpy(name, n.name.name, len);
	release_dentry_name_snapshot(&n);
}
