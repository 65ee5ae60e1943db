// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host buffers: the caller's own memory, pinned for the session:
 * anonymous or shmem (memfd, tmpfs, shared anonymous) pages only, never a
 * regular file's shared mapping (hostbuf_page_ok()).
 *
 * On a card the IPU reads host buffers that ipu_driver attached
 * (BUFFER_ATTACH {index, size, address}, HW-IOCTLS), and only userspace can
 * ask it to: the library allocates the transport buffer and the
 * host-exchange pages, attaches them there, and hands the same memory to
 * the module with BUF_ATTACH, so that the module can check each batch,
 * fill the 0xff release transaction and clear what earlier batches left.
 * The simulator's backend makes the same pages its device-visible buffer,
 * so a simulated load runs the code a card runs.
 *
 * Pinning (pin_user_pages_fast(FOLL_LONGTERM | FOLL_WRITE)) happens with
 * no device lock held: faulting in user memory can stall (userfaultfd,
 * FUSE) and must not hold up device removal. What can refuse the attach
 * (state, slot, privilege) is checked before the pin, so a refusal pins
 * nothing, and again under op_lock after it. The pages are released on
 * BUF_DETACH, at the end of LOAD_FINISH (slot 0), at RESET, on close and
 * when the device is removed.
 *
 * Accounting (hostbuf_charge()): the pages count against the caller's
 * user's RLIMIT_MEMLOCK budget, user_struct.locked_vm, as io_uring's
 * registered buffers do (CAP_IPC_LOCK bypasses it), and show as the
 * caller's VmPin (mm->pinned_vm). Both are atomic counters: charging and
 * uncharging take no lock. account_locked_vm() (mm->locked_vm), used
 * before, takes the owner's mmap_write_lock; the uncharge runs on close,
 * RESET and device removal with op_lock and ops_lock held, and any thread
 * of the owner can hold its mmap_lock as long as a page fault lasts (a
 * FUSE page whose READ is never answered, under a long-term pin): removal
 * then slept on the user forever. And a per-user budget is the one that
 * holds: the pins outlive the process that made them (the file can be
 * passed on, or the process exit with the file open elsewhere), and a
 * new process gets a fresh mm but not a fresh user.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "ipuxcom_internal.h"

/*
 * Charge @n pages to the caller: its user's RLIMIT_MEMLOCK budget (unless
 * it has CAP_IPC_LOCK: then @ch->user stays NULL), and its VmPin. No lock
 * is taken (see the top of the file). -ENOMEM over the budget, as mlock()
 * and account_locked_vm() answer.
 */
static int hostbuf_charge(unsigned long n, struct ipuxcom_pin_charge *ch)
{
	struct mm_struct *mm = current->mm;
	struct user_struct *user = NULL;
	unsigned long limit, cur, want;

	ch->user = NULL;
	ch->mm = NULL;
	if (!mm)
		return -EFAULT;
	if (!capable(CAP_IPC_LOCK)) {
		limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
		user = get_uid(current_user());
		cur = atomic_long_read(&user->locked_vm);
		do {
			want = cur + n;
			if (want < cur || want > limit) {
				free_uid(user);
				return -ENOMEM;
			}
		} while (!atomic_long_try_cmpxchg(&user->locked_vm, &cur, want));
	}
	mmgrab(mm);
	atomic64_add(n, &mm->pinned_vm);
	ch->user = user;
	ch->mm = mm;
	return 0;
}

/*
 * Undo hostbuf_charge() of @n pages. Takes no lock and sleeps on nothing
 * a user controls: safe under op_lock and ops_lock, in removal.
 */
static void hostbuf_uncharge(unsigned long n, struct ipuxcom_pin_charge *ch)
{
	if (ch->user) {
		atomic_long_sub(n, &ch->user->locked_vm);
		free_uid(ch->user);
	}
	if (ch->mm) {
		atomic64_sub(n, &ch->mm->pinned_vm);
		mmdrop(ch->mm);
	}
	ch->user = NULL;
	ch->mm = NULL;
}

/*
 * Drop the kernel mapping, the pins and the charge of @buf. The pages are
 * anonymous or shmem (hostbuf_page_ok()): dirtying them takes each page's
 * lock for a moment, never a file system's.
 */
static void hostbuf_unpin(struct ipuxcom_host_buf *buf, struct ipuxcom_pin_charge *ch)
{
	if (buf->vaddr)
		vunmap(buf->vaddr);
	/* The device and the module wrote them (0xff fill, host exchange). */
	unpin_user_pages_dirty_lock(buf->pages, buf->npages, true);
	kvfree(buf->pages);
	hostbuf_uncharge(buf->npages, ch);
	memset(buf, 0, sizeof(*buf));
}

/*
 * Is @page memory a host buffer may be: anonymous (a private file mapping
 * gives anonymous copies, as FOLL_WRITE breaks copy-on-write) or shmem
 * (tmpfs, memfd, MAP_SHARED | MAP_ANONYMOUS)? The module and the device
 * write host buffers long after the pin, and a regular file's shared
 * mapping is under its file system's writeback, which a long-term pin of
 * 6.1 does not stop (the pinned page vs writeback corruption; later
 * kernels refuse FOLL_LONGTERM | FOLL_WRITE there themselves).
 *
 * The pinned pages are judged, not the VMAs before the pin: what is
 * checked is then what the device gets, whatever the caller's other
 * threads map over the range between a check and the pin. A file page's
 * mapping is read under the folio lock, which truncation and eviction
 * take to clear it: a mapping seen there is alive.
 */
static bool hostbuf_page_ok(struct page *page)
{
	struct folio *folio = page_folio(page);
	bool ok;

	if (folio_test_anon(folio))
		return true;
	folio_lock(folio);
	ok = folio->mapping && shmem_mapping(folio->mapping);
	folio_unlock(folio);
	return ok;
}

/*
 * Pin @bytes of the current process's memory at @uaddr and map it for the
 * kernel. No lock is held: this may fault user memory in. -EMEDIUMTYPE if
 * a page is neither anonymous nor shmem (hostbuf_page_ok()).
 */
static int hostbuf_pin(u64 uaddr, u64 bytes, struct ipuxcom_host_buf *buf,
		       struct ipuxcom_pin_charge *ch)
{
	unsigned long n = bytes >> PAGE_SHIFT, i;
	long got;
	int ret;

	memset(buf, 0, sizeof(*buf));
	ret = hostbuf_charge(n, ch);
	if (ret)
		return ret;
	buf->pages = kvmalloc_array(n, sizeof(*buf->pages), GFP_KERNEL_ACCOUNT);
	if (!buf->pages) {
		ret = -ENOMEM;
		goto uncharge;
	}
	got = pin_user_pages_fast(uaddr, n, FOLL_WRITE | FOLL_LONGTERM, buf->pages);
	if (got != n) {
		if (got > 0)
			unpin_user_pages(buf->pages, got);
		kvfree(buf->pages);
		ret = got < 0 ? got : -EFAULT;
		goto uncharge;
	}
	for (i = 0; i < n; i++) {
		if (!hostbuf_page_ok(buf->pages[i])) {
			unpin_user_pages(buf->pages, n);
			kvfree(buf->pages);
			ret = -EMEDIUMTYPE;
			goto uncharge;
		}
	}
	buf->npages = n;
	buf->uaddr = uaddr;
	buf->size = bytes;
	buf->vaddr = vmap(buf->pages, n, VM_MAP, PAGE_KERNEL);
	if (!buf->vaddr) {
		hostbuf_unpin(buf, ch);
		return -ENOMEM;
	}
	return 0;
uncharge:
	hostbuf_uncharge(n, ch);
	buf->pages = NULL;
	return ret;
}

/* Detach slot @i from the device and release it. Backend registered. */
static void hostbuf_release(struct ipuxcom_device *dev, u32 i)
{
	struct ipuxcom_pin_charge ch;
	struct ipuxcom_host_buf buf;

	if (!(dev->buf_used & BIT(i)))
		return;
	if (dev->ops->buffer_detach)
		dev->ops->buffer_detach(dev->priv, i, &dev->buf[i]);
	mutex_lock(&dev->lock);
	buf = dev->buf[i];
	ch = dev->buf_charge[i];
	memset(&dev->buf[i], 0, sizeof(dev->buf[i]));
	memset(&dev->buf_charge[i], 0, sizeof(dev->buf_charge[i]));
	dev->buf_used &= ~BIT(i);
	mutex_unlock(&dev->lock);
	hostbuf_unpin(&buf, &ch);
}

void ipuxcom_buf_release(struct ipuxcom_device *dev, u32 slot)
{
	hostbuf_release(dev, slot);
}

/* Every pinned buffer. Backend registered (entered, or unregister). */
void ipuxcom_buf_release_all(struct ipuxcom_device *dev)
{
	u32 i;

	for (i = 0; i < IPUXCOM_SLOTS; i++)
		hostbuf_release(dev, i);
	dev->hostx_stage = IPUXCOM_HOSTX_NONE;
	dev->hostx_next = 0;
}

/*
 * Index 0 is the loader's transport buffer and, once that is detached and
 * a host-exchange setup has begun, host page 0 (ipu_driver's indexes:
 * HW-BUF-INDEX).
 */
static bool ipuxcom_slot_is_loader(struct ipuxcom_device *dev, u32 i)
{
	return i == IPUXCOM_SLOT_LOADER && dev->hostx_stage == IPUXCOM_HOSTX_NONE;
}

/* Is slot @i one the device may be reading right now? */
static int hostbuf_check_state(struct ipuxcom_device *dev, u32 i, bool attach,
			       u64 bytes)
{
	u32 page;

	if (ipuxcom_slot_is_loader(dev, i)) {
		if (attach)
			return ipuxcom_require_state(dev, IPUXCOM_STATE_BIT(IDLE) |
						     IPUXCOM_STATE_BIT(BOOTLOADER));
		return ipuxcom_state(dev) == IPUXCOM_DEV_STATE_LOADING ? -EBUSY : 0;
	}
	if (!attach)
		return dev->hostx_stage != IPUXCOM_HOSTX_NONE ? -EBUSY : 0;
	/* Host pages: between HOSTX_SETUP BEGIN and COMMIT, in attach order. */
	if (dev->hostx_stage != IPUXCOM_HOSTX_ATTACHING)
		return -EBADFD;
	if (dev->hostx_next >= dev->hostx_req.npages)
		return -EINVAL;
	/* BEGIN checked the order against npages: clamp speculation too */
	page = dev->hostx_req.attach_order[array_index_nospec(dev->hostx_next,
							      IPUXCOM_HOSTX_MAX_PAGES)];
	page = array_index_nospec(page, IPUXCOM_HOSTX_MAX_PAGES);
	if (i != IPUXCOM_SLOT_HOSTX(page) || bytes != dev->hostx_req.page_bytes[page])
		return -EINVAL;
	return 0;
}

/*
 * What refuses an attach of slot @i to @dev: the state, the privilege and
 * capability the slot needs, the slot in use, the host-exchange stage and
 * order. Under op_lock, inside ipuxcom_device_enter(). *@loader: slot @i
 * is the loader's transport buffer.
 */
static int hostbuf_attach_check(struct ipuxcom_device *dev, u32 i, u64 bytes, bool *loader)
{
	int ret = ipuxcom_require_state(dev, (u32)~IPUXCOM_STATE_BIT(NEEDS_RESET));

	*loader = ipuxcom_slot_is_loader(dev, i);
	/* The transport buffer carries code for every tile, as AUTOLOAD does. */
	if (!ret && *loader && !capable(CAP_SYS_RAWIO))
		ret = -EPERM;
	if (!ret && !(dev->capabilities & (*loader ? IPUXCOM_CAP_LOADER : IPUXCOM_CAP_HOSTX)))
		ret = -EOPNOTSUPP;
	if (!ret && (dev->buf_used & BIT(i)))
		ret = -EEXIST;
	/* it selects HEXOPT: not under the caller's exchange-window stores */
	if (!ret)
		ret = ipuxcom_exch_busy(dev);
	if (!ret)
		ret = hostbuf_check_state(dev, i, true, bytes);
	return ret;
}

/* op_lock (as every wait of the module, only a fatal signal ends it), entered. */
static int hostbuf_lock(struct ipuxcom_device *dev)
{
	int ret;

	if (mutex_lock_killable(&dev->op_lock))
		return -EINTR;
	ret = ipuxcom_device_enter(dev);
	if (ret)
		mutex_unlock(&dev->op_lock);
	return ret;
}

static void hostbuf_unlock(struct ipuxcom_device *dev)
{
	ipuxcom_device_exit(dev);
	mutex_unlock(&dev->op_lock);
}

/*
 * BUF_ATTACH: check, pin (no lock), check again and, under op_lock, select
 * HEXOPT and make the buffer the device's, in the hardware sequence's order
 * [RE, HW-LOAD steps 4 and 9: EXCHWINDOWBASER = HEXOPT, then
 * BUFFER_ATTACH]. The first check makes a refusal cheap: nothing is
 * faulted in or pinned (up to 64 MiB) for an attach the state or the slot
 * refuses. It is a snapshot only, as op_lock is dropped for the pin (user
 * memory can stall, and must not hold up device removal): the second,
 * under the lock the attach completes in, decides.
 */
int ipuxcom_buf_attach(struct ipuxcom_device *dev, struct ipuxcom_ioc_buf *ba)
{
	struct ipuxcom_pin_charge ch;
	struct ipuxcom_host_buf buf;
	u32 i = ba->index;
	bool loader;
	int ret;

	if (ba->reserved || i >= IPUXCOM_SLOTS || !ba->bytes ||
	    ba->bytes > IPUXCOM_BUF_MAX_BYTES || !PAGE_ALIGNED(ba->bytes) ||
	    !PAGE_ALIGNED(ba->addr) || ba->addr + ba->bytes < ba->addr)
		return -EINVAL;
	/* a user index into dev->buf[]: no speculation past the check */
	i = array_index_nospec(i, IPUXCOM_SLOTS);

	ret = hostbuf_lock(dev);
	if (ret)
		return ret;
	ret = hostbuf_attach_check(dev, i, ba->bytes, &loader);
	hostbuf_unlock(dev);
	if (ret)
		return ret;

	ret = hostbuf_pin(ba->addr, ba->bytes, &buf, &ch);
	if (ret)
		return ret;

	ret = hostbuf_lock(dev);
	if (ret)
		goto unpin;
	/* the device may have moved on while the pages were pinned */
	ret = hostbuf_attach_check(dev, i, ba->bytes, &loader);
	if (!ret)
		ret = ipuxcom_select_hexopt(dev);
	if (!ret && dev->ops->buffer_attach)
		ret = dev->ops->buffer_attach(dev->priv, i, &buf);
	if (!ret) {
		mutex_lock(&dev->lock);
		dev->buf[i] = buf;
		dev->buf_charge[i] = ch;
		dev->buf_used |= BIT(i);
		mutex_unlock(&dev->lock);
		if (loader)
			/* unknown contents: the first batch clears beyond itself */
			dev->xbuf_dirty = buf.size;
		else
			dev->hostx_next++;
	}
	hostbuf_unlock(dev);
unpin:
	if (ret)
		hostbuf_unpin(&buf, &ch);
	return ret;
}

int ipuxcom_buf_detach(struct ipuxcom_device *dev, struct ipuxcom_ioc_buf *ba)
{
	u32 i;
	int ret;

	if (ba->reserved || ba->addr || ba->bytes || ba->index >= IPUXCOM_SLOTS)
		return -EINVAL;
	i = array_index_nospec(ba->index, IPUXCOM_SLOTS);
	if (!(dev->buf_used & BIT(i)))
		return -ENOENT;
	ret = hostbuf_check_state(dev, i, false, 0);
	if (!ret)
		hostbuf_release(dev, i);
	return ret;
}

/* The buffer in @slot if attached, else NULL. Under op_lock. */
struct ipuxcom_host_buf *ipuxcom_buf(struct ipuxcom_device *dev, u32 slot)
{
	return dev->buf_used & BIT(slot) ? &dev->buf[slot] : NULL;
}
