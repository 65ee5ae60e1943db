// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipu_standin: a TEST STAND-IN for Graphcore's ipu_driver, a PCI driver
 * named "ipu_driver" for the QEMU C600 device of the ipuxcom test VM
 * (docs/qemu-c600.md, the device's datasheet). It is NOT a driver for
 * Graphcore hardware, is never installed (not in Kbuild, `make install` or
 * DKMS) and is built only for the test VM.
 *
 * It is a judge: written from the hardware record (docs/hardware-record.md:
 * HW-DRIVER ... HW-BUF-INDEX, and the open entries) and the datasheet, and
 * from nothing of ipuxcom: it includes no ipuxcom header but ipu_driver's
 * user ABI (uapi/linux/ipuxcom_ipu_driver.h, itself retyped from HW-IOCTLS),
 * nothing of sim/, and registers no ipuxcom backend. ipuxcom_hw.ko finds
 * the card because this pci_driver is named "ipu_driver" (kmod/hw).
 * Graphcore publishes neither ipu_driver's source nor its headers: every
 * behaviour below says where it comes from; "modelled" means this file's
 * choice, which proves nothing about the real driver.
 *
 * Binding: PCI 1d95:c600. Vendor 0x1d95 is Graphcore's [RE, pci.ids,
 * HW-PCI-VENDOR]; device 0xc600 is the QEMU device's
 * (modelled: no public C600 device id exists). No MODULE_DEVICE_TABLE:
 * the stand-in is loaded by the tests, never by udev.
 *
 * probe (modelled unless said): enable, bus master, 64-bit DMA mask, one
 * MSI vector with INTx fallback; map BAR 4 (the stand-in window, datasheet
 * "BAR 4": not C600 hardware) and learn from it where the two windows are,
 * as a real driver knows its own hardware: the 512 KiB config window
 * ("mmap /dev/ipuN offset 0, 0x80000 maps the config BAR" [RE]) and the
 * exchange window behind /dev/ipuN_ex [S], each a PCI BAR and an offset in
 * it (SW_CFG_* and SW_EXCH_*: which BAR and offset is not in any record;
 * the device's layout= property takes each plausible answer); map the
 * BARs that hold them; create /dev/ipu<N> and /dev/ipu<N>_ex [S "Below
 * Poplar", HW-DRIVER]. Their sysfs parent is not in any record
 * (HW-OPEN-NODE): node_parent
 * below.
 *
 * mmap (MAP_SHARED only; MAP_PRIVATE is -EINVAL, modelled):
 *   /dev/ipu<N>     the config window: mmap(0, 0x80000) maps it [RE];
 *                   file offset 0 is the window's first register, wherever
 *                   the window sits in its BAR.
 *   /dev/ipu<N>_ex  the exchange window [S], from its start; a tile-window
 *                   store goes at 0x80000 + (tile address - 0x4c000) [S].
 * How the pages get there is not in the record: mmap= below. A removed
 * card's mappings are zapped (unmap_mapping_range) and later faults get
 * SIGBUS, so nothing touches a BAR that is gone (modelled).
 *
 * Module parameters for what the record leaves open, each modelled (every
 * value is a plausible ipu_driver; none is known to be Graphcore's). They
 * are read when used; all may be written at any time, through
 * /sys/module/ipu_standin/parameters/ (a name not listed is -EINVAL):
 *   node_parent=pci|class|virtual  the sysfs parent of /dev/ipu<N> and
 *                   _ex, read at probe (unbind and bind the PCI function
 *                   to apply a new value): pci (default) the PCI function;
 *                   class an intermediate device of class "ipu_standin",
 *                   a child of the PCI function; virtual none at all (a
 *                   misc device with no parent: /sys/devices/virtual/misc).
 *   attach_repeat=ok|ebusy  how USER_ATTACH repeated on the holder's own
 *                   file is answered, read at each USER_ATTACH: ok (0,
 *                   default) or ebusy (-EBUSY). Another file gets -EBUSY
 *                   either way while the card is held.
 *   mmap=fault|remap  read at each mmap: fault (default) inserts each page
 *                   when first touched (vmf_insert_pfn); remap maps the
 *                   whole range at mmap time (io_remap_pfn_range).
 *   signals=0|1     see "Signals" below.
 *
 * ioctls of /dev/ipu<N> (numbers and argument passing [RE], HW-IOCTLS):
 *   USER_ATTACH        [RE] by value 0. Exclusive per card (modelled):
 *                      another open file gets -EBUSY until the holder's
 *                      file is released; the holder repeating it gets 0,
 *                      or -EBUSY with attach_repeat=ebusy.
 *                      The calling process and thread (their struct pids)
 *                      are recorded: they receive the signals below.
 *   everything else    needs the caller's file to hold USER_ATTACH: -EPERM
 *                      otherwise (modelled).
 *   SET_IPU_ID [RE, by value], SET_SECONDARY_IPU_ID [RE, u32 *],
 *   STOP/START_MONITORING, ACCUMULATE_ERRORS [RE],
 *   SET_HEXOPT_IDENTITY_TABLE [S]: recorded in the log, no effect
 *                      (what they do on a card is not in the record).
 *   BUFFER_ATTACH      [RE] struct ipu_drv_buffer *. Index < 17 (the
 *                      datasheet's slots 0..16), address page aligned,
 *                      size a non-zero page multiple (both modelled), at
 *                      most 0x2842000 bytes: the largest buffer of the
 *                      record, the loader's transport buffer [RE, HW-LOAD
 *                      step 4] (host-exchange pages are
 *                      smaller). Pins the pages (FOLL_LONGTERM |
 *                      FOLL_WRITE), maps them for the device
 *                      (dma_map_sgtable: with an IOMMU a wrong mapping
 *                      faults), writes the segment table into coherent
 *                      memory and attaches the slot through BAR 4
 *                      (SW_SLOT_*, datasheet). -EEXIST index in use,
 *                      -EINVAL bad arguments, -EFAULT memory that cannot be
 *                      pinned writable, the device's SW_SLOT_STATUS if it
 *                      refuses (all modelled).
 *   BUFFER_DETACH      [RE] by value: the index; -ENOENT if not attached,
 *                      -EINVAL out of range (modelled). Detaches the slot
 *                      on the device, unmaps, unpins.
 *   BUFFER_DETACH_ALL  [RE] every buffer.
 *   RESET_DEVICE       [RE] by value 0: the peer names it "notify reset"
 *                      and resets the card with the mailbox message
 *                      (HW-DRV-INIT):
 *                      recorded, no effect on the card or its buffers.
 *   MAILBOX_WRITE_READ [RE] struct ipu_drv_mailbox *: five words out
 *                      through SW_MBOX_OUT, SW_MBOX_DOORBELL, a bounded
 *                      wait (100 ms, modelled) for SW_MBOX_STATUS, five
 *                      words back from SW_MBOX_IN; -ETIMEDOUT without a
 *                      reply. The device resets the card on the ICU reset
 *                      request 0x4078020e [RE] and answers 0x4078xxxx
 *                      (datasheet, modelled).
 *   unknown            -ENOTTY. After the card is removed: -ENODEV.
 * /dev/ipu<N>_ex has no ioctls (-ENOTTY).
 *
 * Signals [RE docs, HW-SIGNALS]: the driver sends real-time signals 44
 * (exception), 45 (ICU doorbell), 46-49 (HSP GS1/GS2) to the attached
 * process. The interrupt handler reads and acknowledges SW_IRQ_STATUS
 * and a work item sends: 45 for MBOX_REPLY, 44 for EXCEPTION, and
 * 46/47/48/49 for GS1_SET/GS1_ZERO/GS2_SET/GS2_ZERO. That mapping of four
 * signals onto the two registers' mark going non-zero/zero is modelled:
 * the record says only "46-49 (HSP GS1/GS2)". Module parameter signals=0
 * sends none (they are still counted as interrupts).
 * Whom they go to is in no record (HW-OPEN-SIGNAL-TARGET: the
 * process, so any thread not blocking them, or the attaching thread), so
 * module parameter signal_target (0644, read at each send) takes both:
 *   process  (default) kill_pid() on the tgid of USER_ATTACH's caller: a
 *            process-directed signal, which any thread of the process that
 *            does not block it may take;
 *   thread   send_sig() to the thread that issued USER_ATTACH (the last
 *            time, for the holder repeating it): thread-directed; none is
 *            sent once that thread has exited (counted as failed).
 * Anything else is refused with -EINVAL and a message naming the
 * parameter. debugfs storm (below) sends them in rounds, as fast as a
 * test asks, through the same choice: how often the real driver signals
 * is not in the record either (modelled).
 *
 * A file's release detaches every buffer it attached and drops its
 * USER_ATTACH (modelled: ipu_driver's session ends with its file). Hot
 * removal with files open: every call then gets -ENODEV, buffers are
 * detached and unpinned, mappings zapped; the files keep only memory.
 *
 * debugfs ipu_standin/ipu<N>/ (all modelled, for the tests):
 *   log           every ioctl of /dev/ipu<N> in order with its arguments
 *                 and result ("NAME arg=... ret=N"); writing clears it
 *   pinned_pages  pages pinned by BUFFER_ATTACH now
 *   mailbox       requests and replies
 *   bar_writes    the device's config-BAR write log (SW_WLOG_*): a
 *                 "count N kept K" line, then "0xOFFSET 0xVALUE" lines,
 *                 oldest first; writing clears it (SW_WLOG_CLEAR)
 *   stats         holder, buffers, pinned pages, then the device's SW_STATS
 *   signals       interrupts seen and signals sent, per signal
 *   storm         0 (off, default) or N in 20..1000000: while a holder
 *                 exists, one round of all six signals 44..49 every N
 *                 microseconds (an hrtimer queues a work item, which
 *                 sends as signal_target says); other values -EINVAL
 *                 (logged, naming "storm")
 *   storm_signals "rounds R" (rounds sent to a holder), then one
 *                 "SIG sent N failed M" line per signal, storms only
 *   stuck_go stuck_mark tdi_busy dma_error ctx_no_stop tdi_fail_at latency
 *                 the device's SW_FAULT_* and SW_LATENCY registers
 *   touches       the device's SW_TOUCHES: writes to the config and
 *                 exchange windows' BARs, ICU doorbells and slot commands
 *                 since it was last written (any value clears it)
 *   inject_exception  any write: SW_EXC_INJECT (an EXCEPTION interrupt)
 *   bad_mailbox   1: the ICU reset request gets an error reply from the
 *                 stand-in itself (0xdead0000 | request >> 16), the
 *                 device is not rung
 *   attach_error  a positive errno BUFFER_ATTACH fails with, 0 = off
 */
#include <linux/bits.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/kernel.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/scatterlist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <linux/workqueue.h>
#include <linux/ipuxcom_ipu_driver.h>

/* PCI identity: Graphcore's vendor id [RE, pci.ids]; device id modelled. */
#define SC_PCI_VENDOR		0x1d95
#define SC_PCI_DEVICE		0xc600

#define SC_BAR_WINDOW		4	/* datasheet: NOT C600 hardware */
/* mmap(/dev/ipuN, 0, 0x80000) maps the config BAR [RE]. */
#define SC_CONFIG_BYTES		0x80000u
/* EXCHWINDOWBASER (HEXOPT) [RE, HW-REG-EXCHWINDOW]. */
#define SC_REG_EXCHWINDOWBASER	0x3044u

/* BAR 4, the stand-in window (docs/qemu-c600.md, retyped; modelled). */
#define SW_ID			0x000
#define SW_ID_VALUE		0x43360002u	/* "C6", version 2 */
#define SW_IRQ_STATUS		0x004
#define SW_IRQ_MASK		0x008
#define SW_MBOX_OUT		0x010
#define SW_MBOX_IN		0x030
#define SW_MBOX_DOORBELL	0x050
#define SW_MBOX_STATUS		0x054
#define SW_SLOT_SEL		0x100
#define SW_SLOT_SIZE		0x104
#define SW_SLOT_TABLE_LO	0x108
#define SW_SLOT_TABLE_HI	0x10c
#define SW_SLOT_NSEGS		0x110
#define SW_SLOT_CMD		0x114
#define SW_SLOT_STATUS		0x118
#define SW_EXC_INJECT		0x200
#define SW_FAULT_STUCK_GO	0x300
#define SW_FAULT_STUCK_MARK	0x304
#define SW_FAULT_TDI_BUSY	0x308
#define SW_FAULT_DMA_ERROR	0x30c
#define SW_FAULT_CTX_NO_STOP	0x310
#define SW_FAULT_TDI_FAIL_AT	0x314
#define SW_LATENCY		0x318
#define SW_STATS		0x400
#define SW_STATS_WORDS		64
#define SW_WLOG_COUNT		0x800
#define SW_WLOG_INDEX		0x804
#define SW_WLOG_OFFSET		0x808
#define SW_WLOG_VALUE		0x80c
#define SW_WLOG_CLEAR		0x810
#define SW_WLOG_KEPT		0x814
/* where the windows are: BAR, offset, size; config then exchange */
#define SW_CFG_BAR		0x900
#define SW_EXCH_BAR		0x90c
#define SW_PLACE_OFFSET		4	/* from SW_*_BAR */
#define SW_PLACE_SIZE		8
#define SW_TOUCHES		0x918
#define SW_WINDOW_BYTES		0x1000u

#define SW_IRQ_MBOX_REPLY	BIT(0)
#define SW_IRQ_GS1_SET		BIT(1)
#define SW_IRQ_GS1_ZERO		BIT(2)
#define SW_IRQ_GS2_SET		BIT(3)
#define SW_IRQ_GS2_ZERO		BIT(4)
#define SW_IRQ_EXCEPTION	BIT(5)
#define SW_IRQ_ALL		GENMASK(5, 0)
#define SW_IRQ_BITS		6

#define SW_SLOT_CMD_ATTACH	1
#define SW_SLOT_CMD_DETACH	2
#define SW_SLOT_MAX_SEGS	16384
#define SW_MBOX_READY		BIT(0)

#define SC_SLOTS		17	/* datasheet: slots 0..16 */
/* The loader's transport buffer [RE, HW-LOAD step 4]. */
#define SC_MAX_BUF_BYTES	0x2842000u
#define SC_MBOX_TIMEOUT_US	100000	/* modelled */
#define SC_LOG_LEN		1024
#define SC_MBOX_LOG		32
#define SC_MAX_CARDS		16
#define SC_NAME_LEN		16
/* Error replies the stand-in makes up itself (bad_mailbox): as the device's. */
#define SC_MBOX_ERROR_TAG	0xdead0000u

/* Signals [RE docs]: which interrupt bit sends which (46-49: modelled). */
static const int sc_irq_signal[SW_IRQ_BITS] = { 45, 46, 47, 48, 49, 44 };
/* The record's six, 44..49 [RE docs], as debugfs storm sends them. */
#define SC_SIG_FIRST		44
/* debugfs storm's period bounds, us (modelled: a test knob) */
#define SC_STORM_MIN_US		20
#define SC_STORM_MAX_US		1000000
static const char *const sc_irq_name[SW_IRQ_BITS] = {
	"mbox_reply", "gs1_set", "gs1_zero", "gs2_set", "gs2_zero", "exception",
};

/*
 * SW_STATS words by name: the datasheet gives them as the simulator's
 * struct c600_sim_stats in declaration order (retyped names; the test
 * double's counters, not hardware).
 */
static const char *const sc_stat_names[] = {
	"autoload_transactions", "load_batches", "mark1_transactions", "start_marks",
	"rejected_batches", "autold_unflushed", "autold_max_unflushed",
	"loader_attach_window", "batch0_window", "gs1_pending_at_batch",
	"primaries_operational", "sram_pages", "sram_bytes",
};

struct sc_seg {
	__le64 bus;
	__le64 len;
};

struct sc_buf {
	bool used;
	u64 uaddr;
	u32 size;
	struct page **pages;
	unsigned long npages;
	struct sg_table sgt;
	struct sc_seg *table;
	dma_addr_t table_bus;
	size_t table_bytes;
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

struct sc_card;

/* One open file of /dev/ipu<N> or /dev/ipu<N>_ex. */
struct sc_file {
	struct list_head node;	/* in card->files, under card->map_lock */
	struct sc_card *card;
	struct file *file;
	bool ex;
};

struct sc_knob {
	struct sc_card *card;
	u32 reg;
};

#define SC_NKNOBS		8

/*
 * One card. @ref: alive until remove() and the last open file let go.
 * @lock serialises the members below it up to @map_lock, and every BAR 4
 * access but the interrupt handler's SW_IRQ_STATUS. @map_lock: @files and
 * @unmapped (taken under mmap_lock by the fault handler, never the other
 * way round). @sig_lock: @pid and @tpid, read by the signal works.
 */
struct sc_card {
	struct kref ref;
	unsigned int index;
	char name[SC_NAME_LEN];
	char ex_name[SC_NAME_LEN];
	struct pci_dev *pdev;
	/* the config window, then the exchange window: physical, and BAR */
	resource_size_t bar_start[2];
	resource_size_t bar_len[2];
	unsigned int bar[2];
	resource_size_t bar_off[2];
	void __iomem *cfg;	/* the config window */
	void __iomem *win;
	struct device *node_parent;	/* node_parent=class: ours */
	struct miscdevice mdev;
	struct miscdevice mdev_ex;
	bool registered;
	int irq;
	struct work_struct irq_work;
	atomic_t irq_pending;
	atomic_t irq_count[SW_IRQ_BITS];
	atomic_t sig_sent[SW_IRQ_BITS];
	/* debugfs storm: period in us (0 = off), under storm_lock */
	struct mutex storm_lock;
	u32 storm_us;
	struct hrtimer storm_timer;
	struct work_struct storm_work;
	atomic_t storm_rounds;
	atomic_t storm_sent[SW_IRQ_BITS];
	atomic_t storm_failed[SW_IRQ_BITS];
	struct dentry *debugfs;
	struct sc_knob knobs[SC_NKNOBS];

	struct mutex lock;	/* see above */
	bool gone;
	struct file *holder;
	u32 ipu_id;
	u32 secondary_id;
	bool monitoring;
	struct sc_buf buf[SC_SLOTS];
	unsigned long pinned;
	struct sc_mbox_entry mbox[SC_MBOX_LOG];
	unsigned int mbox_n;
	struct sc_log_entry log[SC_LOG_LEN];
	unsigned int log_n;
	unsigned int log_head;
	u64 log_dropped;
	bool bad_mailbox;
	u32 attach_error;

	struct mutex map_lock;	/* see above */
	struct list_head files;
	bool unmapped;

	spinlock_t sig_lock;	/* see above */
	struct pid *pid;	/* USER_ATTACH's process (tgid) */
	struct pid *tpid;	/* ... and thread */
};

static bool sc_signals = true;
module_param_named(signals, sc_signals, bool, 0644);
MODULE_PARM_DESC(signals, "send the attached process real-time signals 44-49 (default 1)");

/*
 * A parameter that takes one of a list of names (the knobs for what the
 * record leaves open, see the top): an index, so that a reader never sees
 * a string being replaced.
 */
struct sc_choice {
	const char *const *names;	/* NULL-terminated */
	const char *want;		/* the names, for the message */
	int value;
};

static int sc_choice_set(const char *val, const struct kernel_param *kp)
{
	struct sc_choice *c = kp->arg;
	int i = __sysfs_match_string(c->names, -1, val);

	if (i < 0) {
		pr_err("ipu_standin: %s=%.*s: want %s\n", kp->name,
		       (int)strcspn(val, "\n"), val, c->want);
		return -EINVAL;
	}
	WRITE_ONCE(c->value, i);
	return 0;
}

static int sc_choice_get(char *buf, const struct kernel_param *kp)
{
	const struct sc_choice *c = kp->arg;

	return scnprintf(buf, PAGE_SIZE, "%s\n", c->names[READ_ONCE(c->value)]);
}

static const struct kernel_param_ops sc_choice_ops = {
	.set = sc_choice_set,
	.get = sc_choice_get,
};

enum { SC_PARENT_PCI, SC_PARENT_CLASS, SC_PARENT_VIRTUAL };
static const char *const sc_parent_names[] = { "pci", "class", "virtual", NULL };
static struct sc_choice sc_node_parent = { sc_parent_names, "pci, class or virtual" };
module_param_cb(node_parent, &sc_choice_ops, &sc_node_parent, 0644);
MODULE_PARM_DESC(node_parent, "sysfs parent of /dev/ipuN, read at probe: pci (the PCI function, default), class (an intermediate class device) or virtual (none)");

enum { SC_REPEAT_OK, SC_REPEAT_EBUSY };
static const char *const sc_repeat_names[] = { "ok", "ebusy", NULL };
static struct sc_choice sc_attach_repeat = { sc_repeat_names, "ok or ebusy" };
module_param_cb(attach_repeat, &sc_choice_ops, &sc_attach_repeat, 0644);
MODULE_PARM_DESC(attach_repeat, "USER_ATTACH repeated on the holder's file: ok (0, default) or ebusy (-EBUSY)");

enum { SC_MMAP_FAULT, SC_MMAP_REMAP };
static const char *const sc_mmap_names[] = { "fault", "remap", NULL };
static struct sc_choice sc_mmap_mode = { sc_mmap_names, "fault or remap" };
module_param_cb(mmap, &sc_choice_ops, &sc_mmap_mode, 0644);
MODULE_PARM_DESC(mmap, "how /dev/ipuN and _ex mappings get their pages: fault (at first touch, default) or remap (all at mmap time)");

/* Whom the signals go to: not in the record, so both (see the top). */
enum { SC_TARGET_PROCESS, SC_TARGET_THREAD };
static const char *const sc_target_names[] = { "process", "thread", NULL };
static struct sc_choice sc_signal_target = { sc_target_names, "process or thread" };
module_param_cb(signal_target, &sc_choice_ops, &sc_signal_target, 0644);
MODULE_PARM_DESC(signal_target, "whom the signals go to, read at each send: process (USER_ATTACH's caller's tgid, process-directed, default) or thread (the thread that issued USER_ATTACH)");

static DEFINE_IDA(sc_ida);
static struct dentry *sc_debugfs_root;
static struct class sc_class = {
	.name = "ipu_standin",
};

/* ------------------------------------------------------------ card life */

static void sc_card_release(struct kref *ref)
{
	struct sc_card *card = container_of(ref, struct sc_card, ref);

	mutex_destroy(&card->lock);
	mutex_destroy(&card->map_lock);
	mutex_destroy(&card->storm_lock);
	kfree(card);
}

static void sc_card_put(struct sc_card *card)
{
	kref_put(&card->ref, sc_card_release);
}

static u32 sc_rd(struct sc_card *card, u32 off)
{
	return readl(card->win + off);
}

static void sc_wr(struct sc_card *card, u32 off, u32 value)
{
	writel(value, card->win + off);
}

/* ------------------------------------------------------------ buffers */

static void sc_unpin(struct page **pages, unsigned long n, bool dirty)
{
	if (n)
		unpin_user_pages_dirty_lock(pages, n, dirty);
	kvfree(pages);
}

/* Detach buffer @i on the device and here; card->lock held. */
static void sc_buf_detach(struct sc_card *card, unsigned int i)
{
	struct sc_buf *b = &card->buf[i];
	struct device *dev = &card->pdev->dev;
	s32 status;

	lockdep_assert_held(&card->lock);
	if (!b->used)
		return;
	sc_wr(card, SW_SLOT_SEL, i);
	sc_wr(card, SW_SLOT_CMD, SW_SLOT_CMD_DETACH);
	status = (s32)sc_rd(card, SW_SLOT_STATUS);
	/* 0, or the device forgot it (its ICU reset drops attachments) */
	if (status && status != -ENOENT && status != -1)
		pci_info(card->pdev, "ipu_standin: slot %u detach: device status %d\n", i,
			 status);
	dma_unmap_sgtable(dev, &b->sgt, DMA_BIDIRECTIONAL, 0);
	sg_free_table(&b->sgt);
	dma_free_coherent(dev, b->table_bytes, b->table, b->table_bus);
	sc_unpin(b->pages, b->npages, true);
	card->pinned -= b->npages;
	memset(b, 0, sizeof(*b));
}

static void sc_detach_all(struct sc_card *card)
{
	unsigned int i;

	for (i = 0; i < SC_SLOTS; i++)
		sc_buf_detach(card, i);
}

/* Arguments a BUFFER_ATTACH can never have (before anything is pinned). */
static bool sc_buf_args_bad(const struct ipu_drv_buffer *arg)
{
	return arg->index >= SC_SLOTS || !arg->size || !PAGE_ALIGNED(arg->size) ||
	       arg->size > SC_MAX_BUF_BYTES || !PAGE_ALIGNED(arg->addr) ||
	       arg->addr + arg->size < arg->addr;
}

/* Refusals that need no pinning; card->lock held. */
static int sc_buf_check(struct sc_card *card, const struct ipu_drv_buffer *arg)
{
	lockdep_assert_held(&card->lock);
	if (card->attach_error)
		return card->attach_error < MAX_ERRNO ? -(int)card->attach_error : -EINVAL;
	if (card->buf[arg->index].used)
		return -EEXIST;
	return 0;
}

/*
 * Map @pages for the device and attach slot @arg->index; card->lock held.
 * On success the slot owns @pages.
 */
static int sc_buf_attach(struct sc_card *card, const struct ipu_drv_buffer *arg,
			 struct page **pages, unsigned long npages)
{
	struct device *dev = &card->pdev->dev;
	struct sc_buf *b = &card->buf[arg->index];
	struct scatterlist *sg;
	unsigned int k;
	s32 status;
	int ret;

	lockdep_assert_held(&card->lock);
	ret = sc_buf_check(card, arg);
	if (ret)
		return ret;
	ret = sg_alloc_table_from_pages(&b->sgt, pages, npages, 0, arg->size, GFP_KERNEL);
	if (ret)
		return ret;
	ret = dma_map_sgtable(dev, &b->sgt, DMA_BIDIRECTIONAL, 0);
	if (ret)
		goto free_sgt;
	if (b->sgt.nents > SW_SLOT_MAX_SEGS) {
		ret = -E2BIG;
		goto unmap;
	}
	b->table_bytes = b->sgt.nents * sizeof(struct sc_seg);
	b->table = dma_alloc_coherent(dev, b->table_bytes, &b->table_bus, GFP_KERNEL);
	if (!b->table) {
		ret = -ENOMEM;
		goto unmap;
	}
	for_each_sgtable_dma_sg(&b->sgt, sg, k) {
		b->table[k].bus = cpu_to_le64(sg_dma_address(sg));
		b->table[k].len = cpu_to_le64(sg_dma_len(sg));
	}
	sc_wr(card, SW_SLOT_SEL, arg->index);
	sc_wr(card, SW_SLOT_SIZE, arg->size);
	sc_wr(card, SW_SLOT_TABLE_LO, lower_32_bits(b->table_bus));
	sc_wr(card, SW_SLOT_TABLE_HI, upper_32_bits(b->table_bus));
	sc_wr(card, SW_SLOT_NSEGS, b->sgt.nents);
	sc_wr(card, SW_SLOT_CMD, SW_SLOT_CMD_ATTACH);
	status = (s32)sc_rd(card, SW_SLOT_STATUS);
	if (status) {
		pci_info(card->pdev, "ipu_standin: slot %u attach refused by the device: %d\n",
			 arg->index, status);
		ret = status < 0 && status >= -MAX_ERRNO ? status : -EIO;
		goto free_table;
	}
	b->used = true;
	b->uaddr = arg->addr;
	b->size = arg->size;
	b->pages = pages;
	b->npages = npages;
	card->pinned += npages;
	return 0;

free_table:
	dma_free_coherent(dev, b->table_bytes, b->table, b->table_bus);
unmap:
	dma_unmap_sgtable(dev, &b->sgt, DMA_BIDIRECTIONAL, 0);
free_sgt:
	sg_free_table(&b->sgt);
	memset(b, 0, sizeof(*b));
	return ret;
}

/* Pin @arg's pages writable, without any lock of ours. */
static int sc_pin(const struct ipu_drv_buffer *arg, struct page ***pagesp, unsigned long *np)
{
	unsigned long npages = arg->size >> PAGE_SHIFT, done = 0;
	struct page **pages;
	int ret;

	pages = kvcalloc(npages, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	while (done < npages) {
		ret = pin_user_pages_fast(arg->addr + (done << PAGE_SHIFT), npages - done,
					  FOLL_WRITE | FOLL_LONGTERM, pages + done);
		if (ret <= 0) {
			sc_unpin(pages, done, false);
			return ret ? ret : -EFAULT;
		}
		done += ret;
	}
	*pagesp = pages;
	*np = npages;
	return 0;
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
	struct sc_log_entry *e;

	mutex_lock(&card->lock);
	e = &card->log[card->log_head];
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
	mutex_unlock(&card->lock);
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

/* ------------------------------------------------------------ debugfs */

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

static int sc_stats_show(struct seq_file *m, void *unused)
{
	struct sc_card *card = m->private;
	unsigned int i, n = 0;
	u32 v;

	mutex_lock(&card->lock);
	for (i = 0; i < SC_SLOTS; i++)
		n += card->buf[i].used;
	seq_printf(m, "holder %u\nbuffers %u\npinned_pages %lu\n", !!card->holder, n,
		   card->pinned);
	for (i = 0; i < SW_STATS_WORDS && !card->gone; i++) {
		v = sc_rd(card, SW_STATS + 4 * i);
		if (i < ARRAY_SIZE(sc_stat_names))
			seq_printf(m, "%s %u\n", sc_stat_names[i], v);
		else if (v)
			seq_printf(m, "stat%u %u\n", i, v);
	}
	mutex_unlock(&card->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sc_stats);

static int sc_signals_show(struct seq_file *m, void *unused)
{
	struct sc_card *card = m->private;
	unsigned int i;

	for (i = 0; i < SW_IRQ_BITS; i++)
		seq_printf(m, "%d %s irqs %d sent %d\n", sc_irq_signal[i], sc_irq_name[i],
			   atomic_read(&card->irq_count[i]), atomic_read(&card->sig_sent[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sc_signals);

static int sc_storm_signals_show(struct seq_file *m, void *unused)
{
	struct sc_card *card = m->private;
	int sig;

	seq_printf(m, "rounds %d\n", atomic_read(&card->storm_rounds));
	for (sig = 0; sig < SW_IRQ_BITS; sig++)
		seq_printf(m, "%d sent %d failed %d\n", SC_SIG_FIRST + sig,
			   atomic_read(&card->storm_sent[sig]),
			   atomic_read(&card->storm_failed[sig]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sc_storm_signals);

static int sc_storm_set(struct sc_card *card, u64 us);

static int sc_storm_get_attr(void *data, u64 *val)
{
	struct sc_card *card = data;

	mutex_lock(&card->storm_lock);
	*val = card->storm_us;
	mutex_unlock(&card->storm_lock);
	return 0;
}

static int sc_storm_set_attr(void *data, u64 val)
{
	return sc_storm_set(data, val);
}
DEFINE_DEBUGFS_ATTRIBUTE(sc_storm_fops, sc_storm_get_attr, sc_storm_set_attr, "%llu\n");

/* The device's config-BAR write log, oldest first. */
static int sc_bar_writes_show(struct seq_file *m, void *unused)
{
	struct sc_card *card = m->private;
	u32 i, kept;

	mutex_lock(&card->lock);
	if (card->gone) {
		mutex_unlock(&card->lock);
		return -ENODEV;
	}
	kept = sc_rd(card, SW_WLOG_KEPT);
	seq_printf(m, "count %u kept %u\n", sc_rd(card, SW_WLOG_COUNT), kept);
	for (i = 0; i < kept; i++) {
		sc_wr(card, SW_WLOG_INDEX, i);
		seq_printf(m, "0x%05x 0x%08x\n", sc_rd(card, SW_WLOG_OFFSET),
			   sc_rd(card, SW_WLOG_VALUE));
	}
	mutex_unlock(&card->lock);
	return 0;
}

static int sc_bar_writes_open(struct inode *inode, struct file *file)
{
	/* up to 65536 lines of 22 bytes */
	return single_open_size(file, sc_bar_writes_show, inode->i_private, 2 << 20);
}

static ssize_t sc_bar_writes_write(struct file *file, const char __user *ubuf, size_t len,
				   loff_t *ppos)
{
	struct sc_card *card = ((struct seq_file *)file->private_data)->private;
	ssize_t ret = len;

	mutex_lock(&card->lock);
	if (card->gone)
		ret = -ENODEV;
	else
		sc_wr(card, SW_WLOG_CLEAR, 1);
	mutex_unlock(&card->lock);
	return ret;
}

static const struct file_operations sc_bar_writes_fops = {
	.owner = THIS_MODULE,
	.open = sc_bar_writes_open,
	.read = seq_read,
	.write = sc_bar_writes_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* A BAR 4 register as a debugfs number. */
static int sc_knob_get(void *data, u64 *val)
{
	struct sc_knob *k = data;
	int ret = 0;

	mutex_lock(&k->card->lock);
	if (k->card->gone)
		ret = -ENODEV;
	else
		*val = sc_rd(k->card, k->reg);
	mutex_unlock(&k->card->lock);
	return ret;
}

static int sc_knob_set(void *data, u64 val)
{
	struct sc_knob *k = data;
	int ret = 0;

	if (val > U32_MAX)
		return -EINVAL;
	mutex_lock(&k->card->lock);
	if (k->card->gone)
		ret = -ENODEV;
	else
		sc_wr(k->card, k->reg, (u32)val);
	mutex_unlock(&k->card->lock);
	return ret;
}
DEFINE_DEBUGFS_ATTRIBUTE(sc_knob_fops, sc_knob_get, sc_knob_set, "%llu\n");

static int sc_inject_set(void *data, u64 val)
{
	struct sc_card *card = data;
	int ret = 0;

	mutex_lock(&card->lock);
	if (card->gone)
		ret = -ENODEV;
	else
		sc_wr(card, SW_EXC_INJECT, 1);
	mutex_unlock(&card->lock);
	return ret;
}
DEFINE_DEBUGFS_ATTRIBUTE(sc_inject_fops, NULL, sc_inject_set, "%llu\n");

static void sc_debugfs_add(struct sc_card *card)
{
	static const struct {
		const char *name;
		u32 reg;
	} knobs[SC_NKNOBS] = {
		{ "stuck_go", SW_FAULT_STUCK_GO }, { "stuck_mark", SW_FAULT_STUCK_MARK },
		{ "tdi_busy", SW_FAULT_TDI_BUSY }, { "dma_error", SW_FAULT_DMA_ERROR },
		{ "ctx_no_stop", SW_FAULT_CTX_NO_STOP },
		{ "tdi_fail_at", SW_FAULT_TDI_FAIL_AT }, { "latency", SW_LATENCY },
		{ "touches", SW_TOUCHES },
	};
	unsigned int i;

	card->debugfs = debugfs_create_dir(card->name, sc_debugfs_root);
	debugfs_create_file("log", 0600, card->debugfs, card, &sc_log_fops);
	debugfs_create_file("mailbox", 0400, card->debugfs, card, &sc_mailbox_fops);
	debugfs_create_file("pinned_pages", 0400, card->debugfs, card, &sc_pinned_fops);
	debugfs_create_file("stats", 0400, card->debugfs, card, &sc_stats_fops);
	debugfs_create_file("signals", 0400, card->debugfs, card, &sc_signals_fops);
	debugfs_create_file_unsafe("storm", 0600, card->debugfs, card, &sc_storm_fops);
	debugfs_create_file("storm_signals", 0400, card->debugfs, card,
			    &sc_storm_signals_fops);
	debugfs_create_file("bar_writes", 0600, card->debugfs, card, &sc_bar_writes_fops);
	debugfs_create_file_unsafe("inject_exception", 0200, card->debugfs, card,
				   &sc_inject_fops);
	debugfs_create_bool("bad_mailbox", 0600, card->debugfs, &card->bad_mailbox);
	debugfs_create_u32("attach_error", 0600, card->debugfs, &card->attach_error);
	for (i = 0; i < SC_NKNOBS; i++) {
		card->knobs[i].card = card;
		card->knobs[i].reg = knobs[i].reg;
		debugfs_create_file_unsafe(knobs[i].name, 0600, card->debugfs, &card->knobs[i],
					   &sc_knob_fops);
	}
}

/* ------------------------------------------------------------ signals */

static irqreturn_t sc_irq(int irq, void *data)
{
	struct sc_card *card = data;
	u32 status = sc_rd(card, SW_IRQ_STATUS);

	if (!status || status == U32_MAX)
		return IRQ_NONE;	/* not ours (shared INTx) or gone */
	sc_wr(card, SW_IRQ_STATUS, status);	/* w1c */
	atomic_or(status & SW_IRQ_ALL, &card->irq_pending);
	schedule_work(&card->irq_work);
	return IRQ_HANDLED;
}

/*
 * Send @sig to the holder as signal_target says (read now): the process
 * (kill_pid(), process-directed) or the thread of USER_ATTACH
 * (send_sig(), thread-directed). 0 or -errno; -ESRCH: no holder, or its
 * attaching thread has exited. Process context.
 */
static int sc_send(struct sc_card *card, int sig)
{
	bool thread = READ_ONCE(sc_signal_target.value) == SC_TARGET_THREAD;
	struct task_struct *task;
	struct pid *pid;
	int ret;

	spin_lock(&card->sig_lock);
	pid = get_pid(thread ? card->tpid : card->pid);
	spin_unlock(&card->sig_lock);
	if (!pid)
		return -ESRCH;
	if (!thread) {
		ret = kill_pid(pid, sig, 1);
	} else {
		task = get_pid_task(pid, PIDTYPE_PID);
		ret = task ? send_sig(sig, task, 1) : -ESRCH;
		if (task)
			put_task_struct(task);
	}
	put_pid(pid);
	return ret;
}

/* Process context: send the attached process its signals. */
static void sc_irq_work(struct work_struct *work)
{
	struct sc_card *card = container_of(work, struct sc_card, irq_work);
	u32 pending = atomic_xchg(&card->irq_pending, 0);
	unsigned int i;

	for (i = 0; i < SW_IRQ_BITS; i++) {
		if (!(pending & BIT(i)))
			continue;
		atomic_inc(&card->irq_count[i]);
		if (READ_ONCE(sc_signals) && !sc_send(card, sc_irq_signal[i]))
			atomic_inc(&card->sig_sent[i]);
	}
}

/* Holder @pid (its process) and @tpid (its thread), both referenced, or NULLs. */
static void sc_set_pid(struct sc_card *card, struct pid *pid, struct pid *tpid)
{
	struct pid *old, *told;

	spin_lock(&card->sig_lock);
	old = card->pid;
	told = card->tpid;
	card->pid = pid;
	card->tpid = tpid;
	spin_unlock(&card->sig_lock);
	put_pid(old);
	put_pid(told);
}

/* debugfs storm: one round of 44..49 to the holder, if there is one. */
static void sc_storm_work(struct work_struct *work)
{
	struct sc_card *card = container_of(work, struct sc_card, storm_work);
	bool holder;
	int i, ret;

	spin_lock(&card->sig_lock);
	holder = card->pid;
	spin_unlock(&card->sig_lock);
	if (!holder)
		return;
	atomic_inc(&card->storm_rounds);
	for (i = 0; i < SW_IRQ_BITS; i++) {
		ret = sc_send(card, SC_SIG_FIRST + i);
		atomic_inc(ret ? &card->storm_failed[i] : &card->storm_sent[i]);
	}
}

/* Every storm_us: queue a round (one pending round at most: they coalesce). */
static enum hrtimer_restart sc_storm_tick(struct hrtimer *t)
{
	struct sc_card *card = container_of(t, struct sc_card, storm_timer);
	u32 us = READ_ONCE(card->storm_us);

	if (!us)
		return HRTIMER_NORESTART;
	schedule_work(&card->storm_work);
	hrtimer_forward_now(t, ns_to_ktime((u64)us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* debugfs storm = @us: 0 stops, 20..1000000 starts or changes the period. */
static int sc_storm_set(struct sc_card *card, u64 us)
{
	if (us && (us < SC_STORM_MIN_US || us > SC_STORM_MAX_US)) {
		pci_info(card->pdev, "ipu_standin: storm=%llu: want 0 (off) or %u..%u microseconds\n",
			 us, SC_STORM_MIN_US, SC_STORM_MAX_US);
		return -EINVAL;
	}
	mutex_lock(&card->storm_lock);
	WRITE_ONCE(card->storm_us, 0);
	hrtimer_cancel(&card->storm_timer);
	WRITE_ONCE(card->storm_us, (u32)us);
	if (us)
		hrtimer_start(&card->storm_timer, ns_to_ktime(us * NSEC_PER_USEC),
			      HRTIMER_MODE_REL);
	mutex_unlock(&card->storm_lock);
	if (!us)
		cancel_work_sync(&card->storm_work);
	return 0;
}

static void sc_storm_init(struct sc_card *card)
{
	mutex_init(&card->storm_lock);
	INIT_WORK(&card->storm_work, sc_storm_work);
#if KERNEL_VERSION(6, 13, 0) <= LINUX_VERSION_CODE
	hrtimer_setup(&card->storm_timer, sc_storm_tick, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#else
	hrtimer_init(&card->storm_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	card->storm_timer.function = sc_storm_tick;
#endif
}

/* ------------------------------------------------------------ mailbox */

/* card->lock held, card present. */
static int sc_mailbox_xfer(struct sc_card *card, const u32 *sent, u32 *reply)
{
	unsigned int k;
	u32 st;
	int ret;

	if (card->bad_mailbox && sent[0] == IPU_DRV_ICU_RESET_REQUEST) {
		memset(reply, 0, IPU_DRV_MAILBOX_WORDS * sizeof(u32));
		reply[0] = SC_MBOX_ERROR_TAG | sent[0] >> 16;
	} else {
		for (k = 0; k < IPU_DRV_MAILBOX_WORDS; k++)
			sc_wr(card, SW_MBOX_OUT + 4 * k, sent[k]);
		sc_wr(card, SW_MBOX_DOORBELL, 1);
		ret = readl_poll_timeout(card->win + SW_MBOX_STATUS, st,
					 st != U32_MAX && (st & SW_MBOX_READY), 10,
					 SC_MBOX_TIMEOUT_US);
		if (ret)
			return ret;
		for (k = 0; k < IPU_DRV_MAILBOX_WORDS; k++)
			reply[k] = sc_rd(card, SW_MBOX_IN + 4 * k);
	}
	if (card->mbox_n < SC_MBOX_LOG) {
		memcpy(card->mbox[card->mbox_n].sent, sent, IPU_DRV_MAILBOX_WORDS * sizeof(u32));
		memcpy(card->mbox[card->mbox_n].reply, reply, IPU_DRV_MAILBOX_WORDS * sizeof(u32));
		card->mbox_n++;
	}
	return 0;
}

/* ------------------------------------------------------------ /dev/ipuN */

/* What an ioctl carries in and out, copied outside card->lock. */
struct sc_args {
	struct ipu_drv_buffer buf;
	struct ipu_drv_mailbox mb;
	u32 sent[IPU_DRV_MAILBOX_WORDS];
	u32 reply[IPU_DRV_MAILBOX_WORDS];
	u32 v32;
	struct page **pages;
	unsigned long npages;
	u64 la, lb, lc;
};

static long sc_ioctl_locked(struct sc_card *card, struct file *file, unsigned int cmd,
			    unsigned long arg, struct sc_args *a)
{
	lockdep_assert_held(&card->lock);
	if (card->gone)
		return -ENODEV;
	if (cmd == IPU_DRV_USER_ATTACH) {
		if (card->holder && (card->holder != file ||
				     READ_ONCE(sc_attach_repeat.value) == SC_REPEAT_EBUSY))
			return -EBUSY;
		card->holder = file;
		sc_set_pid(card, get_pid(task_tgid(current)), get_pid(task_pid(current)));
		return 0;
	}
	if (card->holder != file)
		return -EPERM;

	switch (cmd) {
	case IPU_DRV_SET_IPU_ID:
		card->ipu_id = (u32)arg;
		return 0;
	case IPU_DRV_SET_SECONDARY_IPU_ID:
		card->secondary_id = a->v32;
		return 0;
	case IPU_DRV_STOP_MONITORING:
		card->monitoring = false;
		return 0;
	case IPU_DRV_START_MONITORING:
		card->monitoring = true;
		return 0;
	case IPU_DRV_ACCUMULATE_ERRORS:
	case IPU_DRV_SET_HEXOPT_IDENTITY_TABLE:
	case IPU_DRV_RESET_DEVICE:
		/* RESET_DEVICE: "notify reset" [RE]; the mailbox resets the card */
		return 0;
	case IPU_DRV_BUFFER_ATTACH:
		/* what HEXOPT said when the buffer arrived */
		a->lc = readl(card->cfg + SC_REG_EXCHWINDOWBASER);
		if (!a->pages)
			return sc_buf_check(card, &a->buf);
		return sc_buf_attach(card, &a->buf, a->pages, a->npages);
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
	case IPU_DRV_MAILBOX_WRITE_READ:
		return sc_mailbox_xfer(card, a->sent, a->reply);
	}
	return -ENOTTY;
}

/* Copy in what @cmd needs (no lock held); 0 or -errno. */
static int sc_ioctl_in(struct sc_card *card, struct file *file, unsigned int cmd,
		       unsigned long arg, struct sc_args *a)
{
	long ret;

	switch (cmd) {
	case IPU_DRV_SET_SECONDARY_IPU_ID:
		if (get_user(a->v32, (u32 __user *)u64_to_user_ptr((u64)arg)))
			return -EFAULT;
		a->la = a->v32;
		return 0;
	case IPU_DRV_MAILBOX_WRITE_READ:
		if (copy_from_user(&a->mb, u64_to_user_ptr((u64)arg), sizeof(a->mb)) ||
		    copy_from_user(a->sent, u64_to_user_ptr(a->mb.sent_ptr), sizeof(a->sent)))
			return -EFAULT;
		a->la = a->sent[0];
		return 0;
	case IPU_DRV_BUFFER_ATTACH:
		if (copy_from_user(&a->buf, u64_to_user_ptr((u64)arg), sizeof(a->buf)))
			return -EFAULT;
		a->la = a->buf.index;
		a->lb = a->buf.size;
		if (sc_buf_args_bad(&a->buf))
			return -EINVAL;
		/* the refusals that need no pages come first */
		mutex_lock(&card->lock);
		ret = sc_ioctl_locked(card, file, cmd, arg, a);
		mutex_unlock(&card->lock);
		if (ret)
			return ret;
		return sc_pin(&a->buf, &a->pages, &a->npages);
	}
	return 0;
}

static long sc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct sc_file *sf = file->private_data;
	struct sc_card *card = sf->card;
	struct sc_args a = { .la = arg };
	long ret;

	if (sf->ex || _IOC_TYPE(cmd) != IPU_DRV_IOC_MAGIC)
		return -ENOTTY;
	ret = sc_ioctl_in(card, file, cmd, arg, &a);
	if (!ret) {
		mutex_lock(&card->lock);
		ret = sc_ioctl_locked(card, file, cmd, arg, &a);
		mutex_unlock(&card->lock);
		/* the slot owns the pages once attached */
		if (a.pages && ret)
			sc_unpin(a.pages, a.npages, false);
	}
	if (!ret && cmd == IPU_DRV_MAILBOX_WRITE_READ) {
		a.lb = a.reply[0];
		if (copy_to_user(u64_to_user_ptr(a.mb.recv_ptr), a.reply, sizeof(a.reply)))
			ret = -EFAULT;
	}
	if (ret != -ENOTTY)
		sc_log(card, _IOC_NR(cmd), (int)ret, a.la, a.lb, a.lc);
	return ret;
}

/* Faults insert the window's pages one at a time, never after removal. */
static vm_fault_t sc_vm_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct sc_file *sf = vma->vm_private_data;
	struct sc_card *card = sf->card;
	unsigned int bar = sf->ex;
	unsigned long off = (vmf->pgoff << PAGE_SHIFT);
	vm_fault_t ret = VM_FAULT_SIGBUS;

	mutex_lock(&card->map_lock);
	if (!card->unmapped && off < card->bar_len[bar])
		ret = vmf_insert_pfn(vma, vmf->address,
				     (card->bar_start[bar] + off) >> PAGE_SHIFT);
	mutex_unlock(&card->map_lock);
	return ret;
}

static const struct vm_operations_struct sc_vm_ops = {
	.fault = sc_vm_fault,
};

static int sc_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct sc_file *sf = file->private_data;
	struct sc_card *card = sf->card;
	unsigned long len = vma->vm_end - vma->vm_start;
	resource_size_t size = card->bar_len[sf->ex];

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_pgoff >= (size >> PAGE_SHIFT) ||
	    len > size - (vma->vm_pgoff << PAGE_SHIFT))
		return -EINVAL;
	if (READ_ONCE(card->unmapped))
		return -ENODEV;
#if KERNEL_VERSION(6, 3, 0) <= LINUX_VERSION_CODE
	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
#else
	vma->vm_flags |= VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP;
#endif
	vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	vma->vm_private_data = sf;
	vma->vm_ops = &sc_vm_ops;
	if (READ_ONCE(sc_mmap_mode.value) == SC_MMAP_REMAP) {
		/* every page now; after removal the zap leaves faults, SIGBUS */
		int ret = -ENODEV;

		mutex_lock(&card->map_lock);
		if (!card->unmapped)
			ret = io_remap_pfn_range(vma, vma->vm_start,
						 (card->bar_start[sf->ex] >> PAGE_SHIFT) +
						 vma->vm_pgoff, len, vma->vm_page_prot);
		mutex_unlock(&card->map_lock);
		return ret;
	}
	return 0;
}

static int sc_open_common(struct file *file, struct sc_card *card, bool ex)
{
	struct sc_file *sf = kzalloc(sizeof(*sf), GFP_KERNEL);

	if (!sf)
		return -ENOMEM;
	sf->card = card;
	sf->file = file;
	sf->ex = ex;
	mutex_lock(&card->map_lock);
	if (card->unmapped) {
		mutex_unlock(&card->map_lock);
		kfree(sf);
		return -ENODEV;
	}
	list_add(&sf->node, &card->files);
	kref_get(&card->ref);
	mutex_unlock(&card->map_lock);
	file->private_data = sf;
	return 0;
}

/*
 * misc_open() set private_data to our miscdevice and holds misc_mtx, so
 * misc_deregister() has not returned and the card is alive.
 */
static int sc_open(struct inode *inode, struct file *file)
{
	return sc_open_common(file, container_of(file->private_data, struct sc_card, mdev),
			      false);
}

static int sc_ex_open(struct inode *inode, struct file *file)
{
	return sc_open_common(file, container_of(file->private_data, struct sc_card, mdev_ex),
			      true);
}

static int sc_release(struct inode *inode, struct file *file)
{
	struct sc_file *sf = file->private_data;
	struct sc_card *card = sf->card;

	mutex_lock(&card->lock);
	if (card->holder == file) {
		/* the session ends with its file: nothing stays pinned */
		if (!card->gone)
			sc_detach_all(card);
		card->holder = NULL;
		sc_set_pid(card, NULL, NULL);
	}
	mutex_unlock(&card->lock);
	mutex_lock(&card->map_lock);
	list_del(&sf->node);
	mutex_unlock(&card->map_lock);
	kfree(sf);
	sc_card_put(card);
	return 0;
}

static const struct file_operations sc_fops = {
	.owner = THIS_MODULE,
	.open = sc_open,
	.release = sc_release,
	.unlocked_ioctl = sc_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = sc_mmap,
};

static const struct file_operations sc_ex_fops = {
	.owner = THIS_MODULE,
	.open = sc_ex_open,
	.release = sc_release,
	.unlocked_ioctl = sc_ioctl,
	.mmap = sc_mmap,
};

/* ------------------------------------------------------------ PCI */

static void sc_node_parent_release(struct device *dev)
{
	kfree(dev);
}

/* node_parent=class: an intermediate device between the PCI function and the nodes. */
static int sc_add_node_parent(struct sc_card *card)
{
	struct device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	int ret;

	if (!dev)
		return -ENOMEM;
	device_initialize(dev);
	dev->parent = &card->pdev->dev;
	dev->class = &sc_class;
	dev->release = sc_node_parent_release;
	ret = dev_set_name(dev, "ipu_card%u", card->index);
	if (!ret)
		ret = device_add(dev);
	if (ret) {
		put_device(dev);
		return ret;
	}
	card->node_parent = dev;
	return 0;
}

static int sc_add_nodes(struct sc_card *card)
{
	int parent = READ_ONCE(sc_node_parent.value);
	int ret;

	if (parent == SC_PARENT_CLASS) {
		ret = sc_add_node_parent(card);
		if (ret)
			return ret;
	}
	card->mdev.minor = MISC_DYNAMIC_MINOR;
	card->mdev.name = card->name;
	card->mdev.fops = &sc_fops;
	/* virtual: no parent at all (the node sits under /sys/devices/virtual) */
	card->mdev.parent = card->node_parent ? card->node_parent :
			    parent == SC_PARENT_PCI ? &card->pdev->dev : NULL;
	card->mdev.mode = 0600;
	card->mdev_ex = card->mdev;
	card->mdev_ex.name = card->ex_name;
	card->mdev_ex.fops = &sc_ex_fops;
	ret = misc_register(&card->mdev);
	if (ret)
		goto parent;
	ret = misc_register(&card->mdev_ex);
	if (ret) {
		misc_deregister(&card->mdev);
		goto parent;
	}
	card->registered = true;
	return 0;

parent:
	if (card->node_parent)
		device_unregister(card->node_parent);
	card->node_parent = NULL;
	return ret;
}

static void sc_remove_nodes(struct sc_card *card)
{
	if (card->registered) {
		misc_deregister(&card->mdev_ex);
		misc_deregister(&card->mdev);
		card->registered = false;
	}
	if (card->node_parent)
		device_unregister(card->node_parent);
	card->node_parent = NULL;
}

static int sc_setup_irq(struct sc_card *card)
{
	struct pci_dev *pdev = card->pdev;
	int ret;

	/* one vector: MSI-X (the device has none), MSI, else INTx */
	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_ALL_TYPES);
	if (ret < 0)
		return ret;
	card->irq = pci_irq_vector(pdev, 0);
	ret = request_irq(card->irq, sc_irq, IRQF_SHARED, "ipu_driver", card);
	if (ret) {
		pci_free_irq_vectors(pdev);
		card->irq = -1;
		return ret;
	}
	sc_wr(card, SW_IRQ_STATUS, SW_IRQ_ALL);
	sc_wr(card, SW_IRQ_MASK, SW_IRQ_ALL);
	return 0;
}

static void sc_teardown_irq(struct sc_card *card)
{
	if (card->irq < 0)
		return;
	free_irq(card->irq, card);
	pci_free_irq_vectors(card->pdev);
	card->irq = -1;
	cancel_work_sync(&card->irq_work);
}

/*
 * Where the window of BAR 4's @reg (SW_CFG_BAR, SW_EXCH_BAR) is, at least
 * @min bytes of a memory BAR other than BAR 4; 0 or -ENODEV.
 */
static int sc_window_find(struct pci_dev *pdev, void __iomem *win, u32 reg, const char *what,
			  u32 min, unsigned int *bar, resource_size_t *off, resource_size_t *len)
{
	u32 b = readl(win + reg);
	u32 o = readl(win + reg + SW_PLACE_OFFSET);
	u32 n = readl(win + reg + SW_PLACE_SIZE);

	if (b >= PCI_STD_NUM_BARS || b == SC_BAR_WINDOW ||
	    !(pci_resource_flags(pdev, b) & IORESOURCE_MEM) || n < min ||
	    !PAGE_ALIGNED(o) || !PAGE_ALIGNED(n) || o > pci_resource_len(pdev, b) ||
	    n > pci_resource_len(pdev, b) - o) {
		pci_err(pdev, "ipu_standin: the %s window is not in a memory BAR: BAR %u offset 0x%x size 0x%x (BAR 4 at 0x%x)\n",
			what, b, o, n, reg);
		return -ENODEV;
	}
	*bar = b;
	*off = o;
	*len = n;
	return 0;
}

static int sc_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct sc_card *card;
	void __iomem *const *iomap;
	unsigned int bar[2];
	resource_size_t off[2], len[2];
	int ret, index, i;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	if (!(pci_resource_flags(pdev, SC_BAR_WINDOW) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, SC_BAR_WINDOW) < SW_WINDOW_BYTES) {
		pci_err(pdev, "ipu_standin: BAR 4 is not the datasheet's stand-in window\n");
		return -ENODEV;
	}
	ret = pcim_iomap_regions(pdev, BIT(SC_BAR_WINDOW), "ipu_driver");
	if (ret)
		return ret;
	iomap = pcim_iomap_table(pdev);
	if (readl(iomap[SC_BAR_WINDOW] + SW_ID) != SW_ID_VALUE) {
		pci_err(pdev, "ipu_standin: BAR 4 is not the stand-in window (SW_ID 0x%08x, want 0x%08x)\n",
			readl(iomap[SC_BAR_WINDOW] + SW_ID), SW_ID_VALUE);
		return -ENODEV;
	}
	/* the device says where its windows are (datasheet "Layouts") */
	ret = sc_window_find(pdev, iomap[SC_BAR_WINDOW], SW_CFG_BAR, "config", SC_CONFIG_BYTES,
			     &bar[0], &off[0], &len[0]);
	if (!ret)
		ret = sc_window_find(pdev, iomap[SC_BAR_WINDOW], SW_EXCH_BAR, "exchange",
				     PAGE_SIZE, &bar[1], &off[1], &len[1]);
	if (ret)
		return ret;
	ret = pcim_iomap_regions(pdev, BIT(bar[0]) | BIT(bar[1]), "ipu_driver");
	if (ret)
		return ret;
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	pci_set_master(pdev);

	index = ida_alloc_max(&sc_ida, SC_MAX_CARDS - 1, GFP_KERNEL);
	if (index < 0)
		return index;
	card = kzalloc(sizeof(*card), GFP_KERNEL);
	if (!card) {
		ida_free(&sc_ida, index);
		return -ENOMEM;
	}
	kref_init(&card->ref);
	mutex_init(&card->lock);
	mutex_init(&card->map_lock);
	spin_lock_init(&card->sig_lock);
	INIT_LIST_HEAD(&card->files);
	INIT_WORK(&card->irq_work, sc_irq_work);
	sc_storm_init(card);
	for (i = 0; i < SW_IRQ_BITS; i++) {
		atomic_set(&card->irq_count[i], 0);
		atomic_set(&card->sig_sent[i], 0);
		atomic_set(&card->storm_sent[i], 0);
		atomic_set(&card->storm_failed[i], 0);
	}
	atomic_set(&card->storm_rounds, 0);
	card->index = index;
	card->pdev = pdev;
	card->irq = -1;
	card->cfg = iomap[bar[0]] + off[0];
	card->win = iomap[SC_BAR_WINDOW];
	for (i = 0; i < 2; i++) {
		card->bar[i] = bar[i];
		card->bar_off[i] = off[i];
		card->bar_start[i] = pci_resource_start(pdev, bar[i]) + off[i];
		card->bar_len[i] = len[i];
	}
	/* mmap(/dev/ipuN, 0, 0x80000) [RE]: the config window's first 512 KiB */
	card->bar_len[0] = SC_CONFIG_BYTES;
	snprintf(card->name, sizeof(card->name), "ipu%d", index);
	snprintf(card->ex_name, sizeof(card->ex_name), "ipu%d_ex", index);
	pci_set_drvdata(pdev, card);

	ret = sc_setup_irq(card);
	if (ret)
		goto free;
	sc_debugfs_add(card);
	ret = sc_add_nodes(card);
	if (ret)
		goto irq;
	pci_warn(pdev, "ipu_standin: /dev/%s: TEST STAND-IN bound as \"ipu_driver\" (not Graphcore's driver), %s, config window BAR %u + 0x%llx, exchange window BAR %u + 0x%llx, nodes under %s\n",
		 card->name, pdev->msi_enabled ? "MSI" : "INTx",
		 card->bar[0], (unsigned long long)card->bar_off[0],
		 card->bar[1], (unsigned long long)card->bar_off[1],
		 card->node_parent ? dev_name(card->node_parent) :
		 card->mdev.parent ? "the PCI function" : "no parent (virtual)");
	return 0;

irq:
	debugfs_remove_recursive(card->debugfs);
	sc_teardown_irq(card);
free:
	ida_free(&sc_ida, index);
	sc_card_put(card);
	return ret;
}

/*
 * The card goes away (rmmod, unbind, hot removal) with files perhaps
 * open: they keep only memory; every call gets -ENODEV.
 */
static void sc_remove(struct pci_dev *pdev)
{
	struct sc_card *card = pci_get_drvdata(pdev);
	struct sc_file *sf;

	pci_info(pdev, "ipu_standin: /dev/%s removed\n", card->name);
	/* waits for debugfs readers, which take card->lock */
	debugfs_remove_recursive(card->debugfs);
	card->debugfs = NULL;
	sc_remove_nodes(card);
	mutex_lock(&card->map_lock);
	card->unmapped = true;
	list_for_each_entry(sf, &card->files, node)
		unmap_mapping_range(sf->file->f_mapping, 0, 0, 1);
	mutex_unlock(&card->map_lock);
	mutex_lock(&card->lock);
	card->gone = true;
	sc_wr(card, SW_IRQ_MASK, 0);
	sc_detach_all(card);
	card->holder = NULL;
	mutex_unlock(&card->lock);
	sc_teardown_irq(card);
	sc_storm_set(card, 0);
	sc_set_pid(card, NULL, NULL);
	pci_clear_master(pdev);
	ida_free(&sc_ida, card->index);
	sc_card_put(card);
}

static const struct pci_device_id sc_ids[] = {
	{ PCI_DEVICE(SC_PCI_VENDOR, SC_PCI_DEVICE) },
	{ }
};

static struct pci_driver sc_pci_driver = {
	.name = "ipu_driver",
	.id_table = sc_ids,
	.probe = sc_probe,
	.remove = sc_remove,
};

/* ------------------------------------------------------------ module */

static int __init ipu_standin_init(void)
{
	int ret;

	pr_warn("ipu_standin: TEST STAND-IN for Graphcore's ipu_driver, for the ipuxcom test VM's QEMU C600 only; it drives no real IPU\n");
	ret = class_register(&sc_class);
	if (ret)
		return ret;
	sc_debugfs_root = debugfs_create_dir("ipu_standin", NULL);
	ret = pci_register_driver(&sc_pci_driver);
	if (ret) {
		debugfs_remove_recursive(sc_debugfs_root);
		class_unregister(&sc_class);
	}
	return ret;
}

static void __exit ipu_standin_exit(void)
{
	pci_unregister_driver(&sc_pci_driver);
	debugfs_remove_recursive(sc_debugfs_root);
	class_unregister(&sc_class);
	ida_destroy(&sc_ida);
	pr_info("ipu_standin: unloaded\n");
}

module_init(ipu_standin_init);
module_exit(ipu_standin_exit);

MODULE_DESCRIPTION("TEST STAND-IN for Graphcore's ipu_driver (ipuxcom selftests only; drives the QEMU C600 test device)");
MODULE_LICENSE("GPL");
/* Taints the kernel 'N' (test module) when loaded. */
MODULE_INFO(test, "Y");
