// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_standin: a TEST STAND-IN for Graphcore's ipu_driver. It is NOT a
 * driver for Graphcore hardware, never installed (not in Kbuild, not in
 * `make install` or DKMS), and built only for the ipuxcom test VM.
 *
 * Graphcore publishes neither ipu_driver's source nor its headers: what
 * follows implements the part of ipu_driver's user ABI the public record
 * documents (uapi/linux/ipuxcom_ipu_driver.h, FACTS.md "Device and
 * driver"), so that ipuxcom's path through ipu_driver -- ATTACH with an
 * open /dev/ipuN, BUFFER_ATTACH by the caller, RESET_DEVICE, stores through
 * /dev/ipuN_ex -- runs somewhere. Everything beyond that record (error
 * codes, who may call what, the mailbox's replies) is this file's choice,
 * documented below, and proves nothing about the real driver.
 *
 * Two kinds of cards:
 *
 * 1. Simulated cards (module parameter "devices", default 1; writable at
 *    run time: a smaller number removes the newest cards, which is how
 *    tests remove a card under an open session). Each has a parent device
 *    (/sys/devices/ipu_standin<N>), char devices /dev/ipu<N> and
 *    /dev/ipu<N>_ex as its children, a software C600 (sim/c600_sim.c) and
 *    an ipuxcom device (backend "standin", IPUXCOM_DESC_IPU_DRIVER, that
 *    parent) whose config-BAR ops go to the model. Stores through the
 *    /dev/ipu<N>_ex mapping reach the model when the ipuxcom core calls
 *    exch_stored (after EXCH_WRITE with IPUXCOM_EXCH_F_COMPLETE).
 *
 * 2. A PCI "ipu_driver" (a pci_driver named "ipu_driver", which is how
 *    ipuxcom_hw recognises ipu_driver) that binds only the functions listed
 *    in the "ids" parameter ("vendor:device[,...]", like vfio-pci's), e.g.
 *    QEMU's edu device 1234:11e8. Probe enables the function and creates
 *    /dev/ipu<N> (and _ex) as its children; there is no model: the
 *    ioctls below work (BUFFER_ATTACH only pins), ipuxcom_hw does the MMIO.
 *
 * ioctls of /dev/ipu<N> (numbers: uapi/linux/ipuxcom_ipu_driver.h):
 *   USER_ATTACH        exclusive per card: another open file gets -EBUSY
 *                      until the holder's file is released; the holder
 *                      repeating it gets 0.
 *   everything else    needs the caller's file to hold USER_ATTACH:
 *                      -EPERM otherwise (this stand-in's choice).
 *   SET_IPU_ID, SET_SECONDARY_IPU_ID (u32 *), STOP/START_MONITORING,
 *   ACCUMULATE_ERRORS, SET_HEXOPT_IDENTITY_TABLE: recorded, no effect.
 *   BUFFER_ATTACH      struct ipu_drv_buffer *: index < 17, address page
 *                      aligned, size a page multiple, at most 64 MiB;
 *                      pins the pages (FOLL_LONGTERM | FOLL_WRITE) as
 *                      ipu_driver would, maps them and makes them the
 *                      model's buffer @index. -EEXIST if the index is in
 *                      use, -EINVAL for bad arguments, -EFAULT if the
 *                      memory cannot be pinned writable.
 *   BUFFER_DETACH      by value: the index; -ENOENT if not attached.
 *   BUFFER_DETACH_ALL  detach every buffer.
 *   RESET_DEVICE       by value (0): detach every buffer, reset the model.
 *   MAILBOX_WRITE_READ struct ipu_drv_mailbox *: five words out, five
 *                      back. The ICU reset request 0x4078020e is answered
 *                      with word 0 = 0x4078xxxx (xxxx counts requests);
 *                      anything else with 0xdead0000 | the request's top
 *                      16 bits (an error reply).
 *   unknown            -ENOTTY.
 * A file's release detaches every buffer it attached and drops its
 * USER_ATTACH. After a card is removed every call gets -ENODEV.
 *
 * /dev/ipu<N>_ex: mmap(MAP_SHARED) of an aperture of 0x80000 + 624 KiB
 * bytes (exchange-BAR offsets: the tile window starts at 0x80000); no
 * ioctls. MAP_PRIVATE is -EINVAL.
 *
 * debugfs ipu_standin/ipu<N>/: "log" (every ipu_driver ioctl received, in
 * order, with its arguments and result; writing anything clears it),
 * "pinned_pages", "mailbox" (requests and replies), "ipuxcom_id" (the
 * ipuxcom device id of a simulated card), "stats" (the model's, as
 * ipuxcom_sim's "stats"), and fault knobs: "bad_mailbox" (1: the ICU reset
 * gets an error reply), "attach_error" (a negative errno BUFFER_ATTACH
 * fails with, 0 = off), "latency" and the model's knobs as in ipuxcom_sim.
 */
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/ipuxcom_ipu_driver.h>

#include "c600_sim.h"
#include "compat.h"
#include "ipuxcom_backend.h"

/*
 * The software C600, compiled into this module as kbuild compiles it into
 * ipuxcom_sim.ko (its symbols are not exported there, so the two copies
 * never meet). Included rather than linked because a module built from
 * one source file cannot take a second object under the same name.
 */
#include "c600_sim.c"

#define SC_MAX_CARDS		16
#define SC_SLOTS		C600_SIM_BUFFER_SLOTS
#define SC_MAX_BUF_BYTES	0x4000000u	/* 64 MiB, as IPUXCOM_BUF_MAX_BYTES */
/* The exchange BAR as far as the tile window needs: 0x80000 + 624 KiB. */
#define SC_EX_BYTES		(IPU_DRV_EXCH_WINDOW_OFFSET + 624u * 1024)
#define SC_LOG_LEN		1024
#define SC_MBOX_LOG		32
/* Bus addresses of the model's host regions: as ipuxcom_sim, above 4 GiB. */
#define SC_BUS_BASE		0x100000000ULL
#define SC_BUS_ALIGN		0x100000ULL
/* Error replies of the modelled ICU: 0xdead in the tag half. */
#define SC_MBOX_ERROR_TAG	0xdead0000u

#define SC_NAME_LEN		16

struct sc_buf {
	bool used;
	u64 uaddr;
	size_t size;
	struct page **pages;
	unsigned long npages;
	void *vaddr;
	u64 bus;
};

struct sc_log_entry {
	u8 nr;
	s32 ret;
	u64 a;
	u64 b;
	u64 c;
};

struct sc_mbox_entry {
	u32 sent[IPU_DRV_MAILBOX_WORDS];
	u32 reply[IPU_DRV_MAILBOX_WORDS];
};

/*
 * One card of the stand-in. @ref: the card lives until its owner (module
 * or PCI remove) and the last open file let go. @lock serialises every
 * member below it and every call into @model. @gone: removed; every call
 * gets -ENODEV. @holder: the file that holds USER_ATTACH.
 */
struct sc_card {
	struct kref ref;
	struct mutex lock;	/* see above */
	unsigned int index;
	bool registered;	/* its misc devices exist */
	bool gone;
	struct device *root;	/* simulated card: the parent we created */
	struct pci_dev *pdev;	/* PCI card */
	struct device *parent;
	char name[SC_NAME_LEN];
	char ex_name[SC_NAME_LEN];
	struct miscdevice mdev;
	struct miscdevice mdev_ex;
	struct c600_sim *model;
	struct ipuxcom_device *idev;
	struct file *holder;
	u32 ipu_id;
	u32 secondary_id;
	bool monitoring;
	struct sc_buf buf[SC_SLOTS];
	unsigned long pinned;
	u64 next_bus;
	void *aperture;
	u32 mbox_count;
	struct sc_mbox_entry mbox[SC_MBOX_LOG];
	unsigned int mbox_n;
	struct sc_log_entry log[SC_LOG_LEN];
	unsigned int log_n;	/* entries held, the oldest dropped beyond */
	unsigned int log_head;	/* next slot written */
	u64 log_dropped;
	/* fault knobs */
	bool bad_mailbox;
	u32 attach_error;	/* a positive errno, 0 = off */
	struct dentry *debugfs;
};

static struct dentry *sc_debugfs_root;
static DEFINE_MUTEX(sc_lock);	/* sc_sim_cards, sc_nsim, sc_ready, sc_param_devices */
static DEFINE_MUTEX(sc_index_lock);	/* sc_index_used */
static struct sc_card *sc_sim_cards[SC_MAX_CARDS];
static unsigned int sc_nsim;
static bool sc_ready;
static DECLARE_BITMAP(sc_index_used, SC_MAX_CARDS);
static unsigned int sc_param_devices = 1;
static char *sc_param_ids;
static bool sc_pci_registered;

/* ------------------------------------------------------------ card life */

static void sc_card_release(struct kref *ref)
{
	struct sc_card *card = container_of(ref, struct sc_card, ref);

	vfree(card->aperture);
	mutex_destroy(&card->lock);
	kfree(card);
}

static void sc_card_put(struct sc_card *card)
{
	kref_put(&card->ref, sc_card_release);
}

/* Detach buffer @i; card->lock held. */
static void sc_buf_detach(struct sc_card *card, unsigned int i)
{
	struct sc_buf *b = &card->buf[i];

	lockdep_assert_held(&card->lock);
	if (!b->used)
		return;
	if (card->model) {
		c600_sim_buffer_detach(card->model, i);
		WARN_ON_ONCE(c600_sim_host_unmap(card->model, b->bus));
	}
	if (b->vaddr)
		vunmap(b->vaddr);
	unpin_user_pages_dirty_lock(b->pages, b->npages, true);
	card->pinned -= b->npages;
	kvfree(b->pages);
	memset(b, 0, sizeof(*b));
}

static void sc_detach_all(struct sc_card *card)
{
	unsigned int i;

	for (i = 0; i < SC_SLOTS; i++)
		sc_buf_detach(card, i);
}

static int sc_buf_attach(struct sc_card *card, const struct ipu_drv_buffer *arg)
{
	unsigned long npages, done = 0;
	struct sc_buf *b;
	struct page **pages;
	void *vaddr = NULL;
	int ret;

	lockdep_assert_held(&card->lock);
	if (card->attach_error)
		return card->attach_error < MAX_ERRNO ? -(int)card->attach_error : -EINVAL;
	if (arg->index >= SC_SLOTS || !arg->size || !PAGE_ALIGNED(arg->size) ||
	    arg->size > SC_MAX_BUF_BYTES || !PAGE_ALIGNED(arg->addr) ||
	    arg->addr + arg->size < arg->addr)
		return -EINVAL;
	b = &card->buf[arg->index];
	if (b->used)
		return -EEXIST;
	npages = arg->size >> PAGE_SHIFT;
	pages = kvcalloc(npages, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	while (done < npages) {
		ret = pin_user_pages_fast(arg->addr + (done << PAGE_SHIFT), npages - done,
					  FOLL_WRITE | FOLL_LONGTERM, pages + done);
		if (ret <= 0) {
			ret = ret ? ret : -EFAULT;
			goto unpin;
		}
		done += ret;
	}
	if (card->model) {
		vaddr = vmap(pages, npages, VM_MAP, PAGE_KERNEL);
		if (!vaddr) {
			ret = -ENOMEM;
			goto unpin;
		}
		ret = c600_sim_host_map(card->model, card->next_bus, vaddr, arg->size);
		if (ret)
			goto unmap;
		ret = c600_sim_buffer_attach(card->model, arg->index, card->next_bus, arg->size);
		if (ret) {
			c600_sim_host_unmap(card->model, card->next_bus);
			goto unmap;
		}
	}
	b->used = true;
	b->uaddr = arg->addr;
	b->size = arg->size;
	b->pages = pages;
	b->npages = npages;
	b->vaddr = vaddr;
	b->bus = card->next_bus;
	card->next_bus += ALIGN((u64)arg->size, SC_BUS_ALIGN);
	card->pinned += npages;
	return 0;

unmap:
	vunmap(vaddr);
unpin:
	if (done)
		unpin_user_pages(pages, done);
	kvfree(pages);
	return ret;
}

/* ------------------------------------------------------------ the log */

static const char *const sc_ioctl_names[] = {
	[10] = "USER_ATTACH",
	[11] = "BUFFER_ATTACH",
	[12] = "BUFFER_DETACH",
	[14] = "SET_IPU_ID",
	[18] = "BUFFER_DETACH_ALL",
	[31] = "MAILBOX_WRITE_READ",
	[34] = "STOP_MONITORING",
	[35] = "START_MONITORING",
	[36] = "ACCUMULATE_ERRORS",
	[44] = "SET_HEXOPT_IDENTITY_TABLE",
	[45] = "RESET_DEVICE",
	[47] = "SET_SECONDARY_IPU_ID",
};

static const char *sc_ioctl_name(unsigned int nr)
{
	if (nr < ARRAY_SIZE(sc_ioctl_names) && sc_ioctl_names[nr])
		return sc_ioctl_names[nr];
	return "UNKNOWN";
}

static void sc_log(struct sc_card *card, unsigned int nr, int ret, u64 a, u64 b, u64 c)
{
	struct sc_log_entry *e = &card->log[card->log_head];

	lockdep_assert_held(&card->lock);
	e->nr = nr;
	e->ret = ret;
	e->a = a;
	e->b = b;
	e->c = c;
	card->log_head = (card->log_head + 1) % SC_LOG_LEN;
	if (card->log_n < SC_LOG_LEN)
		card->log_n++;
	else
		card->log_dropped++;
}

static void sc_log_show_entry(struct seq_file *m, const struct sc_log_entry *e)
{
	seq_printf(m, "%s", sc_ioctl_name(e->nr));
	switch (e->nr) {
	case _IOC_NR(IPU_DRV_BUFFER_ATTACH):
		seq_printf(m, " index=%llu size=0x%llx exchwindow=0x%llx", e->a, e->b, e->c);
		break;
	case _IOC_NR(IPU_DRV_BUFFER_DETACH):
	case _IOC_NR(IPU_DRV_SET_IPU_ID):
	case _IOC_NR(IPU_DRV_SET_SECONDARY_IPU_ID):
	case _IOC_NR(IPU_DRV_RESET_DEVICE):
	case _IOC_NR(IPU_DRV_USER_ATTACH):
		seq_printf(m, " arg=%llu", e->a);
		break;
	case _IOC_NR(IPU_DRV_MAILBOX_WRITE_READ):
		seq_printf(m, " sent=0x%08llx reply=0x%08llx", e->a, e->b);
		break;
	}
	seq_printf(m, " ret=%d\n", e->ret);
}

static int sc_log_show(struct seq_file *m, void *unused)
{
	struct sc_card *card = m->private;
	unsigned int i, start;

	mutex_lock(&card->lock);
	if (card->log_dropped)
		seq_printf(m, "# %llu older entries dropped\n", card->log_dropped);
	start = (card->log_head + SC_LOG_LEN - card->log_n) % SC_LOG_LEN;
	for (i = 0; i < card->log_n; i++)
		sc_log_show_entry(m, &card->log[(start + i) % SC_LOG_LEN]);
	mutex_unlock(&card->lock);
	return 0;
}

static int sc_log_open(struct inode *inode, struct file *file)
{
	return single_open(file, sc_log_show, inode->i_private);
}

/* Any write clears the log. */
static ssize_t sc_log_write(struct file *file, const char __user *ubuf, size_t len,
			    loff_t *ppos)
{
	struct sc_card *card = ((struct seq_file *)file->private_data)->private;

	mutex_lock(&card->lock);
	card->log_n = 0;
	card->log_head = 0;
	card->log_dropped = 0;
	mutex_unlock(&card->lock);
	return len;
}

static const struct file_operations sc_log_fops = {
	.owner = THIS_MODULE,
	.open = sc_log_open,
	.read = seq_read,
	.write = sc_log_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int sc_mailbox_show(struct seq_file *m, void *unused)
{
	struct sc_card *card = m->private;
	unsigned int i, k;

	mutex_lock(&card->lock);
	for (i = 0; i < card->mbox_n; i++) {
		const struct sc_mbox_entry *e = &card->mbox[i];

		seq_puts(m, "sent");
		for (k = 0; k < IPU_DRV_MAILBOX_WORDS; k++)
			seq_printf(m, " 0x%08x", e->sent[k]);
		seq_puts(m, " reply");
		for (k = 0; k < IPU_DRV_MAILBOX_WORDS; k++)
			seq_printf(m, " 0x%08x", e->reply[k]);
		seq_putc(m, '\n');
	}
	mutex_unlock(&card->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sc_mailbox);

static int sc_pinned_show(struct seq_file *m, void *unused)
{
	struct sc_card *card = m->private;

	mutex_lock(&card->lock);
	seq_printf(m, "%lu\n", card->pinned);
	mutex_unlock(&card->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sc_pinned);

static int sc_ipuxcom_id_show(struct seq_file *m, void *unused)
{
	struct sc_card *card = m->private;

	if (card->idev)
		seq_printf(m, "%u\n", ipuxcom_device_id(card->idev));
	else
		seq_puts(m, "none\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sc_ipuxcom_id);

static int sc_stats_show(struct seq_file *m, void *unused)
{
	struct sc_card *card = m->private;
	struct c600_sim *sim = card->model;
	unsigned int i, n = 0;

	mutex_lock(&card->lock);
	for (i = 0; i < SC_SLOTS; i++)
		n += card->buf[i].used;
	seq_printf(m, "holder %u\nbuffers %u\npinned_pages %lu\n", !!card->holder, n,
		   card->pinned);
	if (sim && !card->gone) {
		seq_printf(m, "phase %u\nnext_batch %u\nautoload_transactions %u\n"
			   "load_batches %u\nmark1_transactions %u\nstart_marks %u\n"
			   "rejected_batches %u\n",
			   sim->phase, sim->next_batch, sim->stats.autoload_transactions,
			   sim->stats.load_batches, sim->stats.mark1_transactions,
			   sim->stats.start_marks, sim->stats.rejected_batches);
		seq_printf(m, "autold_max_unflushed %u\nloader_attach_window %u\n"
			   "batch0_window %u\ngs1_pending_at_batch %u\n"
			   "primaries_operational %u\ngs1 %u\ngs2 %u\n",
			   sim->stats.autold_max_unflushed, sim->stats.loader_attach_window,
			   sim->stats.batch0_window, sim->stats.gs1_pending_at_batch,
			   sim->stats.primaries_operational, sim->gs[0].value,
			   sim->gs[1].value);
	}
	mutex_unlock(&card->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sc_stats);

static void sc_debugfs_add(struct sc_card *card)
{
	card->debugfs = debugfs_create_dir(card->name, sc_debugfs_root);
	debugfs_create_file("log", 0600, card->debugfs, card, &sc_log_fops);
	debugfs_create_file("mailbox", 0400, card->debugfs, card, &sc_mailbox_fops);
	debugfs_create_file("pinned_pages", 0400, card->debugfs, card, &sc_pinned_fops);
	debugfs_create_file("ipuxcom_id", 0400, card->debugfs, card, &sc_ipuxcom_id_fops);
	debugfs_create_file("stats", 0400, card->debugfs, card, &sc_stats_fops);
	debugfs_create_bool("bad_mailbox", 0600, card->debugfs, &card->bad_mailbox);
	debugfs_create_u32("attach_error", 0600, card->debugfs, &card->attach_error);
	if (card->model) {
		struct c600_sim_faults *fl = &card->model->faults;

		debugfs_create_u32("latency", 0600, card->debugfs, &card->model->latency);
		debugfs_create_bool("stuck_go", 0600, card->debugfs, &fl->stuck_go);
		debugfs_create_bool("stuck_mark", 0600, card->debugfs, &fl->stuck_mark);
		debugfs_create_bool("tdi_busy", 0600, card->debugfs, &fl->tdi_busy);
		debugfs_create_bool("dma_error", 0600, card->debugfs, &fl->dma_error);
		debugfs_create_bool("ctx_no_stop", 0600, card->debugfs, &fl->ctx_no_stop);
		debugfs_create_u32("tdi_fail_at", 0600, card->debugfs, &fl->tdi_fail_at);
	}
}

/* ------------------------------------------------------------ /dev/ipuN */

static const struct file_operations sc_fops;
static const struct file_operations sc_ex_fops;

static struct sc_card *sc_file_card(struct file *file)
{
	return file->private_data;
}

static bool sc_is_ex(struct file *file)
{
	return file->f_op == &sc_ex_fops;
}

/*
 * misc_open() set private_data to our miscdevice and holds misc_mtx, so
 * misc_deregister() has not returned and the card is alive.
 */
static int sc_open(struct inode *inode, struct file *file)
{
	struct sc_card *card = container_of(file->private_data, struct sc_card, mdev);

	kref_get(&card->ref);
	file->private_data = card;
	return 0;
}

static int sc_ex_open(struct inode *inode, struct file *file)
{
	struct sc_card *card = container_of(file->private_data, struct sc_card, mdev_ex);

	kref_get(&card->ref);
	file->private_data = card;
	return 0;
}

static int sc_release(struct inode *inode, struct file *file)
{
	struct sc_card *card = sc_file_card(file);

	mutex_lock(&card->lock);
	if (card->holder == file) {
		/* ipu_driver's session ends with its file: nothing stays pinned. */
		sc_detach_all(card);
		card->holder = NULL;
	}
	mutex_unlock(&card->lock);
	sc_card_put(card);
	return 0;
}

/* The modelled ICU's answer to @sent (see the top). */
static void sc_mailbox_reply(struct sc_card *card, const u32 *sent, u32 *reply)
{
	memset(reply, 0, IPU_DRV_MAILBOX_WORDS * sizeof(u32));
	card->mbox_count++;
	if (sent[0] == IPU_DRV_ICU_RESET_REQUEST && !card->bad_mailbox)
		reply[0] = IPU_DRV_ICU_REPLY_TAG | (card->mbox_count & 0xffff);
	else
		reply[0] = SC_MBOX_ERROR_TAG | sent[0] >> 16;
	if (card->mbox_n < SC_MBOX_LOG) {
		memcpy(card->mbox[card->mbox_n].sent, sent, IPU_DRV_MAILBOX_WORDS * sizeof(u32));
		memcpy(card->mbox[card->mbox_n].reply, reply, IPU_DRV_MAILBOX_WORDS * sizeof(u32));
		card->mbox_n++;
	}
}

static int sc_mailbox(struct sc_card *card, unsigned long arg, u32 *sent0, u32 *reply0)
{
	u32 sent[IPU_DRV_MAILBOX_WORDS], reply[IPU_DRV_MAILBOX_WORDS];
	struct ipu_drv_mailbox mb;

	if (copy_from_user(&mb, u64_to_user_ptr((u64)arg), sizeof(mb)))
		return -EFAULT;
	if (copy_from_user(sent, u64_to_user_ptr(mb.sent_ptr), sizeof(sent)))
		return -EFAULT;
	*sent0 = sent[0];
	sc_mailbox_reply(card, sent, reply);
	*reply0 = reply[0];
	if (copy_to_user(u64_to_user_ptr(mb.recv_ptr), reply, sizeof(reply)))
		return -EFAULT;
	return 0;
}

static long sc_ioctl_locked(struct sc_card *card, struct file *file, unsigned int cmd,
			    unsigned long arg, u64 *la, u64 *lb, u64 *lc)
{
	struct ipu_drv_buffer buf;
	u32 v32, r32;
	int ret;

	if (card->gone)
		return -ENODEV;
	if (cmd == IPU_DRV_USER_ATTACH) {
		if (card->holder && card->holder != file)
			return -EBUSY;
		card->holder = file;
		return 0;
	}
	if (card->holder != file)
		return -EPERM;

	switch (cmd) {
	case IPU_DRV_SET_IPU_ID:
		card->ipu_id = (u32)arg;
		return 0;
	case IPU_DRV_SET_SECONDARY_IPU_ID:
		if (get_user(v32, (u32 __user *)u64_to_user_ptr((u64)arg)))
			return -EFAULT;
		*la = v32;
		card->secondary_id = v32;
		return 0;
	case IPU_DRV_STOP_MONITORING:
		card->monitoring = false;
		return 0;
	case IPU_DRV_START_MONITORING:
		card->monitoring = true;
		return 0;
	case IPU_DRV_ACCUMULATE_ERRORS:
	case IPU_DRV_SET_HEXOPT_IDENTITY_TABLE:
		return 0;
	case IPU_DRV_BUFFER_ATTACH:
		if (copy_from_user(&buf, u64_to_user_ptr((u64)arg), sizeof(buf)))
			return -EFAULT;
		*la = buf.index;
		*lb = buf.size;
		/* What HEXOPT/the window said when the buffer arrived. */
		*lc = card->model ? card->model->bar[SIM_EXCHWINDOWBASER / 4] : 0;
		return sc_buf_attach(card, &buf);
	case IPU_DRV_BUFFER_DETACH:
		if (arg >= SC_SLOTS)
			return -EINVAL;
		if (!card->buf[arg].used)
			return -ENOENT;
		sc_buf_detach(card, arg);
		return 0;
	case IPU_DRV_BUFFER_DETACH_ALL:
		sc_detach_all(card);
		return 0;
	case IPU_DRV_RESET_DEVICE:
		sc_detach_all(card);
		if (card->model)
			c600_sim_reset(card->model);
		return 0;
	case IPU_DRV_MAILBOX_WRITE_READ:
		v32 = 0;
		r32 = 0;
		ret = sc_mailbox(card, arg, &v32, &r32);
		*la = v32;
		*lb = r32;
		return ret;
	}
	return -ENOTTY;
}

static long sc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct sc_card *card = sc_file_card(file);
	u64 la, lb = 0, lc = 0;
	long ret;

	if (sc_is_ex(file) || _IOC_TYPE(cmd) != IPU_DRV_IOC_MAGIC)
		return -ENOTTY;
	/* by-value arguments, as logged unless the command says otherwise */
	la = arg;
	mutex_lock(&card->lock);
	ret = sc_ioctl_locked(card, file, cmd, arg, &la, &lb, &lc);
	if (ret != -ENOTTY)
		sc_log(card, _IOC_NR(cmd), (int)ret, la, lb, lc);
	mutex_unlock(&card->lock);
	return ret;
}

static int sc_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct sc_card *card = sc_file_card(file);
	unsigned long len = vma->vm_end - vma->vm_start;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_pgoff > (SC_EX_BYTES >> PAGE_SHIFT) ||
	    len > SC_EX_BYTES - (vma->vm_pgoff << PAGE_SHIFT))
		return -EINVAL;
	/*
	 * No card->lock: mmap_lock is held here, and BUFFER_ATTACH takes
	 * them the other way round. The aperture lives as long as the card,
	 * which this open file keeps.
	 */
	if (READ_ONCE(card->gone))
		return -ENODEV;
	return remap_vmalloc_range(vma, card->aperture, vma->vm_pgoff);
}

static const struct file_operations sc_fops = {
	.owner = THIS_MODULE,
	.open = sc_open,
	.release = sc_release,
	.unlocked_ioctl = sc_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = ipuxcom_no_llseek,
};

static const struct file_operations sc_ex_fops = {
	.owner = THIS_MODULE,
	.open = sc_ex_open,
	.release = sc_release,
	.mmap = sc_mmap,
	.llseek = ipuxcom_no_llseek,
};

/* ------------------------------------------------------------ backend ops */

static int sc_bar_read(void *priv, u32 offset, u32 *value)
{
	struct sc_card *card = priv;
	int ret;

	mutex_lock(&card->lock);
	ret = c600_sim_bar_read(card->model, offset, value);
	mutex_unlock(&card->lock);
	return ret;
}

static int sc_bar_write(void *priv, u32 offset, u32 value)
{
	struct sc_card *card = priv;
	int ret;

	mutex_lock(&card->lock);
	ret = c600_sim_bar_write(card->model, offset, value);
	mutex_unlock(&card->lock);
	return ret;
}

/* The caller stored through its /dev/ipuN_ex mapping: apply it to the model. */
static int sc_exch_stored(void *priv, u32 offset, size_t len)
{
	struct sc_card *card = priv;
	int ret;

	if (offset > SC_EX_BYTES || len > SC_EX_BYTES - offset)
		return -EINVAL;
	mutex_lock(&card->lock);
	ret = c600_sim_exch_write(card->model, offset, (u8 *)card->aperture + offset, len);
	mutex_unlock(&card->lock);
	return ret;
}

static const struct ipuxcom_backend_ops sc_ops = {
	.bar_read = sc_bar_read,
	.bar_write = sc_bar_write,
	.exch_stored = sc_exch_stored,
};

/* ------------------------------------------------------------ cards */

static struct sc_card *sc_card_create(struct device *parent)
{
	struct sc_card *card;
	unsigned int index;
	int ret;

	mutex_lock(&sc_index_lock);
	index = find_first_zero_bit(sc_index_used, SC_MAX_CARDS);
	if (index >= SC_MAX_CARDS) {
		mutex_unlock(&sc_index_lock);
		return ERR_PTR(-ENOSPC);
	}
	set_bit(index, sc_index_used);
	mutex_unlock(&sc_index_lock);

	card = kzalloc(sizeof(*card), GFP_KERNEL);
	if (!card) {
		ret = -ENOMEM;
		goto free_index;
	}
	kref_init(&card->ref);
	mutex_init(&card->lock);
	card->index = index;
	card->next_bus = SC_BUS_BASE;
	snprintf(card->name, sizeof(card->name), "ipu%u", index);
	snprintf(card->ex_name, sizeof(card->ex_name), "ipu%u_ex", index);
	card->aperture = vmalloc_user(SC_EX_BYTES);
	if (!card->aperture) {
		ret = -ENOMEM;
		goto put;
	}
	card->parent = parent;
	return card;

put:
	sc_card_put(card);
free_index:
	mutex_lock(&sc_index_lock);
	clear_bit(index, sc_index_used);
	mutex_unlock(&sc_index_lock);
	return ERR_PTR(ret);
}

static int sc_card_add_nodes(struct sc_card *card)
{
	int ret;

	card->mdev.minor = MISC_DYNAMIC_MINOR;
	card->mdev.name = card->name;
	card->mdev.fops = &sc_fops;
	card->mdev.parent = card->parent;
	card->mdev.mode = 0600;
	card->mdev_ex = card->mdev;
	card->mdev_ex.name = card->ex_name;
	card->mdev_ex.fops = &sc_ex_fops;
	ret = misc_register(&card->mdev);
	if (ret)
		return ret;
	ret = misc_register(&card->mdev_ex);
	if (ret) {
		misc_deregister(&card->mdev);
		return ret;
	}
	card->registered = true;
	return 0;
}

/*
 * The card goes away: no new opens, every open file gets -ENODEV, every
 * pin is dropped. Open files keep the memory until they are released.
 */
static void sc_card_remove(struct sc_card *card)
{
	unsigned int index = card->index;

	debugfs_remove_recursive(card->debugfs);
	card->debugfs = NULL;
	/* Returns with no op running and none to come. */
	if (card->idev)
		ipuxcom_device_unregister(card->idev);
	card->idev = NULL;
	if (card->registered) {
		misc_deregister(&card->mdev_ex);
		misc_deregister(&card->mdev);
		card->registered = false;
	}
	mutex_lock(&card->lock);
	WRITE_ONCE(card->gone, true);
	sc_detach_all(card);
	card->holder = NULL;
	c600_sim_destroy(card->model);
	card->model = NULL;
	mutex_unlock(&card->lock);
	if (card->root)
		root_device_unregister(card->root);
	card->root = NULL;
	sc_card_put(card);
	mutex_lock(&sc_index_lock);
	clear_bit(index, sc_index_used);
	mutex_unlock(&sc_index_lock);
}

static int sc_sim_card_add(void)
{
	struct ipuxcom_device_desc desc = {
		.backend = "standin",
		.tile_count = C600_TILES,
		.config_bar_size = C600_CONFIG_BAR_SIZE,
		.ops = &sc_ops,
		.flags = IPUXCOM_DESC_IPU_DRIVER,
	};
	char root_name[32];
	struct sc_card *card;
	int ret;

	lockdep_assert_held(&sc_lock);
	card = sc_card_create(NULL);
	if (IS_ERR(card))
		return PTR_ERR(card);
	snprintf(root_name, sizeof(root_name), "ipu_standin%u", card->index);
	card->root = root_device_register(root_name);
	if (IS_ERR(card->root)) {
		ret = PTR_ERR(card->root);
		card->root = NULL;
		goto remove;
	}
	card->parent = card->root;
	card->model = c600_sim_create();
	if (!card->model) {
		ret = -ENOMEM;
		goto remove;
	}
	ret = sc_card_add_nodes(card);
	if (ret)
		goto remove;
	desc.priv = card;
	desc.parent = card->parent;
	card->idev = ipuxcom_device_register(&desc);
	if (IS_ERR(card->idev)) {
		ret = PTR_ERR(card->idev);
		card->idev = NULL;
		goto remove;
	}
	sc_debugfs_add(card);
	sc_sim_cards[sc_nsim++] = card;
	pr_info("ipu_standin: /dev/%s: simulated C600, ipuxcom device %u (TEST STAND-IN, not ipu_driver)\n",
		card->name, ipuxcom_device_id(card->idev));
	return 0;

remove:
	sc_card_remove(card);
	return ret;
}

/* As ipuxcom_sim's "devices" on purpose: its own lock and cards, not worth an export. */
static int sc_set_sim_cards(unsigned int want)
{
	int ret = 0;

	lockdep_assert_held(&sc_lock);
	while (sc_nsim > want) {
		struct sc_card *card = sc_sim_cards[--sc_nsim];

		sc_sim_cards[sc_nsim] = NULL;
		sc_card_remove(card);
	}
	while (sc_nsim < want && !ret)
		ret = sc_sim_card_add();
	sc_param_devices = sc_nsim;
	return ret;
}

static int sc_param_set_devices(const char *val, const struct kernel_param *kp)
{
	unsigned int want;
	int ret;

	ret = kstrtouint(val, 0, &want);
	if (ret)
		return ret;
	if (want > SC_MAX_CARDS)
		return -EINVAL;
	mutex_lock(&sc_lock);
	if (sc_ready)
		ret = sc_set_sim_cards(want);
	else
		sc_param_devices = want;	/* at load time: init applies it */
	mutex_unlock(&sc_lock);
	return ret;
}

static int sc_param_get_devices(char *buf, const struct kernel_param *kp)
{
	unsigned int n;

	mutex_lock(&sc_lock);
	n = sc_param_devices;
	mutex_unlock(&sc_lock);
	return sysfs_emit(buf, "%u\n", n);
}

static const struct kernel_param_ops sc_devices_param_ops = {
	.set = sc_param_set_devices,
	.get = sc_param_get_devices,
};

module_param_cb(devices, &sc_devices_param_ops, NULL, 0644);
MODULE_PARM_DESC(devices, "number of simulated cards (0-16, default 1); writable: fewer removes the newest");

module_param_named(ids, sc_param_ids, charp, 0444);
MODULE_PARM_DESC(ids, "PCI functions to bind as \"ipu_driver\": vendor:device[,...] (hex), e.g. QEMU's edu 1234:11e8");

/* ------------------------------------------------------------ PCI */

static int sc_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct sc_card *card;
	int ret;

	ret = pci_enable_device(pdev);
	if (ret)
		return ret;
	card = sc_card_create(&pdev->dev);
	if (IS_ERR(card)) {
		pci_disable_device(pdev);
		return PTR_ERR(card);
	}
	card->pdev = pdev;
	ret = sc_card_add_nodes(card);
	if (ret) {
		sc_card_remove(card);
		pci_disable_device(pdev);
		return ret;
	}
	sc_debugfs_add(card);
	pci_set_drvdata(pdev, card);
	pci_warn(pdev, "ipu_standin: /dev/%s: TEST STAND-IN bound as \"ipu_driver\" (not Graphcore's driver)\n",
		 card->name);
	return 0;
}

static void sc_pci_remove(struct pci_dev *pdev)
{
	struct sc_card *card = pci_get_drvdata(pdev);

	pci_info(pdev, "ipu_standin: /dev/%s removed\n", card->name);
	sc_card_remove(card);
	pci_disable_device(pdev);
}

/* No static ids: only what "ids" adds (pci_add_dynid), as vfio-pci. */
static struct pci_driver sc_pci_driver = {
	.name = "ipu_driver",
	.probe = sc_pci_probe,
	.remove = sc_pci_remove,
};

/* As ipuxcom_hw's ids= parsing on purpose: ipu_driver's own, not worth an export. */
static int sc_add_ids(void)
{
	char *p, *ids, *tok;
	int ret = 0;

	if (!sc_param_ids || !*sc_param_ids)
		return 0;
	ids = kstrdup(sc_param_ids, GFP_KERNEL);
	if (!ids)
		return -ENOMEM;
	p = ids;
	while ((tok = strsep(&p, ",")) && !ret) {
		unsigned int vendor, device;
		char *colon = strchr(tok, ':');

		if (!*tok)
			continue;
		if (!colon) {
			ret = -EINVAL;
			break;
		}
		*colon = '\0';
		if (kstrtouint(tok, 16, &vendor) || kstrtouint(colon + 1, 16, &device) ||
		    vendor > 0xffff || device > 0xffff) {
			ret = -EINVAL;
			break;
		}
		ret = pci_add_dynid(&sc_pci_driver, vendor, device, PCI_ANY_ID, PCI_ANY_ID,
				    0, 0, 0);
		if (!ret)
			pr_info("ipu_standin: binding PCI %04x:%04x as \"ipu_driver\"\n",
				vendor, device);
	}
	kfree(ids);
	if (ret)
		pr_err("ipu_standin: bad ids=\"%s\" (want vendor:device[,...], hex): %d\n",
		       sc_param_ids, ret);
	return ret;
}

/* ------------------------------------------------------------ module */

static int __init ipu_standin_init(void)
{
	int ret;

	pr_warn("ipu_standin: TEST STAND-IN for Graphcore's ipu_driver, for the ipuxcom test VM only; it drives no real IPU\n");
	sc_debugfs_root = debugfs_create_dir("ipu_standin", NULL);
	mutex_lock(&sc_lock);
	sc_ready = true;
	ret = sc_set_sim_cards(sc_param_devices);
	mutex_unlock(&sc_lock);
	if (ret)
		goto fail;
	if (sc_param_ids && *sc_param_ids) {
		ret = pci_register_driver(&sc_pci_driver);
		if (ret)
			goto fail;
		sc_pci_registered = true;
		ret = sc_add_ids();
		if (ret)
			goto fail;
	}
	return 0;

fail:
	if (sc_pci_registered)
		pci_unregister_driver(&sc_pci_driver);
	sc_pci_registered = false;
	mutex_lock(&sc_lock);
	sc_set_sim_cards(0);
	sc_ready = false;
	mutex_unlock(&sc_lock);
	debugfs_remove_recursive(sc_debugfs_root);
	return ret;
}

static void __exit ipu_standin_exit(void)
{
	if (sc_pci_registered)
		pci_unregister_driver(&sc_pci_driver);
	mutex_lock(&sc_lock);
	sc_ready = false;
	sc_set_sim_cards(0);
	mutex_unlock(&sc_lock);
	debugfs_remove_recursive(sc_debugfs_root);
	pr_info("ipu_standin: unloaded\n");
}

module_init(ipu_standin_init);
module_exit(ipu_standin_exit);

MODULE_DESCRIPTION("TEST STAND-IN for Graphcore's ipu_driver (ipuxcom selftests only; drives no hardware)");
MODULE_LICENSE("GPL");
/* Taints the kernel 'N' (test module) when loaded. */
MODULE_INFO(test, "Y");
