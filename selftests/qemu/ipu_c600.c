/*
 * QEMU "ipu-c600": a PCI C600 for ipuxcom's tests (docs/qemu-c600.md is
 * its datasheet). A TEST DOUBLE: it follows the hardware record (the
 * docs/hardware-record.md) through the plain-C model of sim/, never ipuxcom's
 * code, and includes nothing of kmod/ or libuser/.
 *
 *   the config window (512 KiB): every aligned 32-bit access is an MMIO
 *          exit into c600_sim_bar_read()/c600_sim_bar_write()
 *   the exchange window (2 MiB): stores go to c600_sim_exch_write()
 *   BAR 4  the stand-in window (4 KiB, NOT C600 hardware, all modelled):
 *          ICU mailbox transport, buffer slot segment tables, interrupts,
 *          the model's fault knobs, statistics, a log of config-window
 *          writes, and where the two windows are
 *
 * Which BAR holds each window, and at which offset, is not in the record
 * (it says only that mmap(/dev/ipuN, 0, 0x80000) maps "the configuration
 * BAR"): the property layout= takes each plausible answer (datasheet
 * "Layouts"): bar0 (config = BAR 0, exchange = BAR 2; the default), bar2
 * (config = BAR 2, exchange = BAR 0), offset (each window at 0x100000 of a
 * larger BAR: config in a 2 MiB BAR 0, exchange in a 4 MiB BAR 2; the
 * rest of those BARs reads 0 and ignores writes).
 *
 * The model's reads and writes of host memory go through its DMA port
 * (c600_sim_set_dma_port()) to pci_dma_read()/pci_dma_write() of the
 * segments the guest driver gave for the slot, so an IOMMU in front of
 * the device applies. Built by scripts/qemu-c600.sh into Debian's QEMU.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/module.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/pci/msi.h"
#include "hw/qdev-properties.h"
#include "qom/object.h"

#include "c600_sim.h"

#define TYPE_IPU_C600 "ipu-c600"
OBJECT_DECLARE_SIMPLE_TYPE(IpuC600State, IPU_C600)

/* Graphcore's PCI vendor id [HW-PCI-VENDOR]. */
#define C600_VENDOR_ID          0x1d95
/* Modelled: no public C600 device id exists. */
#define C600_DEVICE_ID          0xc600

#define C600_EXCH_BAR_SIZE      (2 * MiB)
#define C600_SW_BAR_SIZE        0x1000

/* BAR 4, the stand-in window (modelled, docs/qemu-c600.md). */
#define SW_ID                   0x000
#define SW_ID_VALUE             0x43360002u     /* "C6", window version 2 */
#define SW_IRQ_STATUS           0x004
#define SW_IRQ_MASK             0x008
#define SW_MBOX_OUT             0x010           /* 5 words */
#define SW_MBOX_IN              0x030           /* 5 words */
#define SW_MBOX_DOORBELL        0x050
#define SW_MBOX_STATUS          0x054
#define SW_SLOT_SEL             0x100
#define SW_SLOT_SIZE            0x104
#define SW_SLOT_TABLE_LO        0x108
#define SW_SLOT_TABLE_HI        0x10c
#define SW_SLOT_NSEGS           0x110
#define SW_SLOT_CMD             0x114
#define SW_SLOT_STATUS          0x118
#define SW_EXC_INJECT           0x200
#define SW_FAULT_STUCK_GO       0x300
#define SW_FAULT_STUCK_MARK     0x304
#define SW_FAULT_TDI_BUSY       0x308
#define SW_FAULT_DMA_ERROR      0x30c
#define SW_FAULT_CTX_NO_STOP    0x310
#define SW_FAULT_TDI_FAIL_AT    0x314
#define SW_LATENCY              0x318
#define SW_STATS                0x400           /* 64 words */
#define SW_STATS_WORDS          64
#define SW_WLOG_COUNT           0x800
#define SW_WLOG_INDEX           0x804
#define SW_WLOG_OFFSET          0x808
#define SW_WLOG_VALUE           0x80c
#define SW_WLOG_CLEAR           0x810
#define SW_WLOG_KEPT            0x814
#define SW_CFG_BAR              0x900           /* where the windows are */
#define SW_CFG_OFFSET           0x904
#define SW_CFG_SIZE             0x908
#define SW_EXCH_BAR             0x90c
#define SW_EXCH_OFFSET          0x910
#define SW_EXCH_SIZE            0x914
#define SW_TOUCHES              0x918

/* layout=offset (modelled): each window at this offset of a larger BAR. */
#define C600_LAYOUT_OFFSET      0x100000
#define C600_OFFSET_CFG_BAR     (2 * MiB)
#define C600_OFFSET_EXCH_BAR    (4 * MiB)

#define IRQ_MBOX_REPLY          (1u << 0)
#define IRQ_GS1_SET             (1u << 1)
#define IRQ_GS1_ZERO            (1u << 2)
#define IRQ_GS2_SET             (1u << 3)
#define IRQ_GS2_ZERO            (1u << 4)
#define IRQ_EXCEPTION           (1u << 5)
#define IRQ_ALL                 0x3fu

#define MBOX_WORDS              5
/* ICU request "reset the card" and its reply (modelled, docs/qemu-c600.md). */
#define MBOX_REQ_RESET          0x4078020eu
#define MBOX_REPLY_OK           0x40780000u
#define MBOX_REPLY_UNKNOWN      0xdead0000u

#define SLOT_CMD_ATTACH         1
#define SLOT_CMD_DETACH         2
#define SLOT_MAX_SEGS           16384
#define SLOT_SEG_BYTES          16
/* The model sees slot i at (i + 1) << 40 (modelled). */
#define SLOT_SHIFT              40

#define WLOG_SIZE               65536

typedef struct C600Seg {
    uint64_t bus;
    uint64_t len;
    uint64_t start;             /* offset of the segment in the buffer */
} C600Seg;

typedef struct C600Slot {
    C600Seg *seg;               /* NULL: not attached */
    uint32_t nsegs;
    uint64_t size;
} C600Slot;

/* One window's place: which BAR, at which offset (BAR 4's SW_CFG_*). */
typedef struct C600Place {
    uint32_t bar;
    uint32_t offset;
} C600Place;

struct IpuC600State {
    PCIDevice parent_obj;

    char *layout;               /* property: bar0 (NULL), bar2, offset */
    C600Place cfg_at;
    C600Place exch_at;

    MemoryRegion cfg_bar;       /* the config window */
    MemoryRegion exch_bar;      /* the exchange window */
    MemoryRegion sw_bar;
    /* layout=offset: the BARs that hold the windows, and their holes */
    MemoryRegion cfg_container;
    MemoryRegion cfg_hole;
    MemoryRegion exch_container;
    MemoryRegion exch_hole;

    struct c600_sim *sim;
    C600Slot slot[C600_SIM_BUFFER_SLOTS];

    uint32_t irq_status;
    uint32_t irq_mask;
    uint32_t irq_pending;       /* irq_status & irq_mask, as last signalled */
    bool mark_seen[2];          /* GS1/GS2 MARK != 0 as a guest read sees it */

    uint32_t mbox_out[MBOX_WORDS];
    uint32_t mbox_in[MBOX_WORDS];
    uint32_t mbox_status;
    uint32_t mbox_requests;

    uint32_t slot_sel;
    uint32_t slot_size;
    uint64_t slot_table;
    uint32_t slot_nsegs;
    uint32_t slot_status;

    uint32_t *wlog_offset;
    uint32_t *wlog_value;
    uint64_t wlog_total;        /* writes logged since the last clear */
    uint32_t wlog_index;
    uint32_t touches;           /* SW_TOUCHES */
};

/* ------------------------------------------------------------ interrupts */

static void c600_update_irq(IpuC600State *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    uint32_t pending = s->irq_status & s->irq_mask;

    if (msi_enabled(pdev)) {
        pci_set_irq(pdev, 0);
        /* one message per bit that became pending */
        if (pending & ~s->irq_pending) {
            msi_notify(pdev, 0);
        }
    } else {
        pci_set_irq(pdev, pending != 0);
    }
    s->irq_pending = pending;
}

static void c600_raise(IpuC600State *s, uint32_t bits)
{
    s->irq_status |= bits;
    c600_update_irq(s);
}

/*
 * Whether GS1 (@gs 0) or GS2 has a non-zero MARK as the guest's next read
 * would return it: the model clears a mark on the read that brings
 * clear_after to zero (sim_hsp_read()), so with one read left it is seen
 * as zero already.
 */
static bool c600_mark_visible(const struct c600_sim *sim, unsigned int gs)
{
    const struct c600_hsp_state *h = &sim->gs[gs];

    return (h->value & SIM_HSP_MARK_MASK) && h->clear_after != 1;
}

static void c600_mark_note(IpuC600State *s, unsigned int gs, bool nonzero)
{
    static const uint32_t set[2] = { IRQ_GS1_SET, IRQ_GS2_SET };
    static const uint32_t zero[2] = { IRQ_GS1_ZERO, IRQ_GS2_ZERO };

    if (nonzero && !s->mark_seen[gs]) {
        c600_raise(s, set[gs]);
    } else if (!nonzero && s->mark_seen[gs]) {
        c600_raise(s, zero[gs]);
    }
    s->mark_seen[gs] = nonzero;
}

static void c600_marks_check(IpuC600State *s)
{
    c600_mark_note(s, 0, c600_mark_visible(s->sim, 0));
    c600_mark_note(s, 1, c600_mark_visible(s->sim, 1));
}

/* ------------------------------------------------------------ DMA */

static void c600_slot_free(C600Slot *sl)
{
    g_free(sl->seg);
    sl->seg = NULL;
    sl->nsegs = 0;
    sl->size = 0;
}

static void c600_slots_free(IpuC600State *s)
{
    unsigned int i;

    for (i = 0; i < C600_SIM_BUFFER_SLOTS; i++) {
        c600_slot_free(&s->slot[i]);
    }
}

/* Index of the segment of @sl holding buffer offset @off (off < size). */
static uint32_t c600_seg_find(const C600Slot *sl, uint64_t off)
{
    uint32_t lo = 0, hi = sl->nsegs - 1;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;

        if (sl->seg[mid].start <= off) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

/*
 * A model access of @len bytes at device-side address @bus: the slot's
 * pieces become PCI DMA at the bus addresses the driver gave. Any failed
 * piece (outside the slot, or a MEMTX error such as an IOMMU fault) fails
 * the access with -EFAULT and raises EXCEPTION.
 */
static int c600_dma(IpuC600State *s, uint64_t bus, void *buf, size_t len,
                    DMADirection dir)
{
    uint64_t idx = bus >> SLOT_SHIFT;
    uint64_t off = bus & ((1ull << SLOT_SHIFT) - 1);
    const C600Slot *sl;
    uint8_t *p = buf;
    uint32_t i;

    if (idx < 1 || idx > C600_SIM_BUFFER_SLOTS) {
        goto fault;
    }
    sl = &s->slot[idx - 1];
    if (!sl->seg || off > sl->size || len > sl->size - off) {
        goto fault;
    }
    if (!len) {
        return 0;
    }
    for (i = c600_seg_find(sl, off); len; i++) {
        const C600Seg *g = &sl->seg[i];
        uint64_t in = off - g->start;
        size_t n = MIN(len, g->len - in);

        if (pci_dma_rw(PCI_DEVICE(s), g->bus + in, p, n, dir,
                       MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
            goto fault;
        }
        p += n;
        off += n;
        len -= n;
    }
    return 0;

fault:
    c600_raise(s, IRQ_EXCEPTION);
    return -EFAULT;
}

static int c600_dma_read(void *ctx, u64 bus, void *dst, size_t len)
{
    return c600_dma(ctx, bus, dst, len, DMA_DIRECTION_TO_DEVICE);
}

static int c600_dma_write(void *ctx, u64 bus, const void *src, size_t len)
{
    return c600_dma(ctx, bus, (void *)src, len, DMA_DIRECTION_FROM_DEVICE);
}

/* SW_SLOT_CMD 1: read the segment table by DMA, attach the slot. */
static int c600_slot_attach(IpuC600State *s)
{
    uint32_t n = s->slot_nsegs, i;
    C600Slot *sl;
    g_autofree uint8_t *table = NULL;
    C600Seg *seg;
    uint64_t total = 0;
    int ret;

    if (s->slot_sel >= C600_SIM_BUFFER_SLOTS || !s->slot_size || !n ||
        n > SLOT_MAX_SEGS) {
        return -EINVAL;
    }
    table = g_malloc((size_t)n * SLOT_SEG_BYTES);
    if (pci_dma_read(PCI_DEVICE(s), s->slot_table, table,
                     (dma_addr_t)n * SLOT_SEG_BYTES) != MEMTX_OK) {
        return -EFAULT;
    }
    seg = g_new0(C600Seg, n);
    for (i = 0; i < n; i++) {
        seg[i].bus = ldq_le_p(table + i * SLOT_SEG_BYTES);
        seg[i].len = ldq_le_p(table + i * SLOT_SEG_BYTES + 8);
        seg[i].start = total;
        if (!seg[i].len || seg[i].len > s->slot_size - total ||
            seg[i].bus + seg[i].len < seg[i].bus) {
            g_free(seg);
            return -EINVAL;
        }
        total += seg[i].len;
    }
    if (total != s->slot_size) {
        g_free(seg);
        return -EINVAL;
    }
    ret = c600_sim_buffer_attach(s->sim, s->slot_sel,
                                 (uint64_t)(s->slot_sel + 1) << SLOT_SHIFT,
                                 s->slot_size);
    if (ret) {
        g_free(seg);
        return ret;
    }
    /* attaching an attached slot replaces it */
    sl = &s->slot[s->slot_sel];
    c600_slot_free(sl);
    sl->seg = seg;
    sl->nsegs = n;
    sl->size = s->slot_size;
    return 0;
}

static int c600_slot_detach(IpuC600State *s)
{
    int ret;

    if (s->slot_sel >= C600_SIM_BUFFER_SLOTS) {
        return -EINVAL;
    }
    ret = c600_sim_buffer_detach(s->sim, s->slot_sel);
    c600_slot_free(&s->slot[s->slot_sel]);
    return ret;
}

/* ------------------------------------------------------------ config window */

static uint64_t c600_ones(unsigned size)
{
    return size >= 8 ? ~0ull : (1ull << (size * 8)) - 1;
}

/* The guest changed something on the card (SW_TOUCHES, saturating). */
static void c600_touch(IpuC600State *s)
{
    if (s->touches != UINT32_MAX) {
        s->touches++;
    }
}

static void c600_wlog(IpuC600State *s, uint32_t offset, uint32_t value)
{
    uint32_t pos = s->wlog_total % WLOG_SIZE;

    s->wlog_offset[pos] = offset;
    s->wlog_value[pos] = value;
    s->wlog_total++;
}

static uint64_t c600_cfg_read(void *opaque, hwaddr addr, unsigned size)
{
    IpuC600State *s = opaque;
    uint32_t v = 0;

    if (size != 4 || (addr & 3)) {
        return c600_ones(size);
    }
    if (c600_sim_bar_read(s->sim, addr, &v)) {
        v = ~0u;
    }
    c600_marks_check(s);
    return v;
}

static void c600_cfg_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
    IpuC600State *s = opaque;
    uint32_t v = val;

    c600_touch(s);
    if (size != 4 || (addr & 3)) {
        return;
    }
    c600_wlog(s, addr, v);
    /* a mark written is a mark set, even if answered at once */
    if ((addr == SIM_HSP_GS1 || addr == SIM_HSP_GS2) &&
        (v & SIM_HSP_MARK_MASK)) {
        c600_mark_note(s, addr == SIM_HSP_GS2, true);
    }
    c600_sim_bar_write(s->sim, addr, v);
    c600_marks_check(s);
}

static const MemoryRegionOps c600_cfg_ops = {
    .read = c600_cfg_read,
    .write = c600_cfg_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

/* ------------------------------------------------------------ exchange window */

static uint64_t c600_exch_read(void *opaque, hwaddr addr, unsigned size)
{
    return 0;   /* modelled: not readable as a channel */
}

static void c600_exch_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    IpuC600State *s = opaque;
    uint8_t b[8];

    c600_touch(s);
    stq_le_p(b, val);
    c600_sim_exch_write(s->sim, addr, b, size);
}

static const MemoryRegionOps c600_exch_ops = {
    .read = c600_exch_read,
    .write = c600_exch_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

/* ------------------------------------------------------------ BAR 4 */

static void c600_mbox_doorbell(IpuC600State *s)
{
    uint32_t req = s->mbox_out[0];

    c600_touch(s);
    s->mbox_status = 0;
    s->mbox_requests++;
    memset(s->mbox_in, 0, sizeof(s->mbox_in));
    if (req == MBOX_REQ_RESET) {
        c600_sim_reset(s->sim);
        c600_slots_free(s);
        c600_marks_check(s);
        s->mbox_in[0] = MBOX_REPLY_OK | (s->mbox_requests & 0xffff);
    } else {
        s->mbox_in[0] = MBOX_REPLY_UNKNOWN | req >> 16;
    }
    s->mbox_status = 1;
    c600_raise(s, IRQ_MBOX_REPLY);
}

static uint64_t c600_sw_read(void *opaque, hwaddr addr, unsigned size)
{
    IpuC600State *s = opaque;
    struct c600_sim *sim = s->sim;
    uint32_t kept = MIN(s->wlog_total, (uint64_t)WLOG_SIZE);

    if (size != 4 || (addr & 3)) {
        return c600_ones(size);
    }
    if (addr >= SW_MBOX_IN && addr < SW_MBOX_IN + 4 * MBOX_WORDS) {
        return s->mbox_in[(addr - SW_MBOX_IN) / 4];
    }
    if (addr >= SW_STATS && addr < SW_STATS + 4 * SW_STATS_WORDS) {
        uint32_t w[SW_STATS_WORDS] = { 0 };

        QEMU_BUILD_BUG_ON(sizeof(sim->stats) > sizeof(w));
        memcpy(w, &sim->stats, sizeof(sim->stats));
        return w[(addr - SW_STATS) / 4];
    }
    switch (addr) {
    case SW_ID:
        return SW_ID_VALUE;
    case SW_IRQ_STATUS:
        return s->irq_status;
    case SW_IRQ_MASK:
        return s->irq_mask;
    case SW_MBOX_STATUS:
        return s->mbox_status;
    case SW_SLOT_SEL:
        return s->slot_sel;
    case SW_SLOT_SIZE:
        return s->slot_size;
    case SW_SLOT_TABLE_LO:
        return (uint32_t)s->slot_table;
    case SW_SLOT_TABLE_HI:
        return s->slot_table >> 32;
    case SW_SLOT_NSEGS:
        return s->slot_nsegs;
    case SW_SLOT_STATUS:
        return s->slot_status;
    case SW_FAULT_STUCK_GO:
        return sim->faults.stuck_go;
    case SW_FAULT_STUCK_MARK:
        return sim->faults.stuck_mark;
    case SW_FAULT_TDI_BUSY:
        return sim->faults.tdi_busy;
    case SW_FAULT_DMA_ERROR:
        return sim->faults.dma_error;
    case SW_FAULT_CTX_NO_STOP:
        return sim->faults.ctx_no_stop;
    case SW_FAULT_TDI_FAIL_AT:
        return sim->faults.tdi_fail_at;
    case SW_LATENCY:
        return sim->latency;
    case SW_WLOG_COUNT:
        return MIN(s->wlog_total, (uint64_t)UINT32_MAX);
    case SW_WLOG_INDEX:
        return s->wlog_index;
    case SW_WLOG_OFFSET:
    case SW_WLOG_VALUE:
        if (s->wlog_index >= kept) {
            return 0;
        } else {
            uint32_t pos = (s->wlog_total - kept + s->wlog_index) % WLOG_SIZE;

            return addr == SW_WLOG_OFFSET ? s->wlog_offset[pos]
                                          : s->wlog_value[pos];
        }
    case SW_WLOG_KEPT:
        return kept;
    case SW_CFG_BAR:
        return s->cfg_at.bar;
    case SW_CFG_OFFSET:
        return s->cfg_at.offset;
    case SW_CFG_SIZE:
        return C600_CONFIG_BAR_SIZE;
    case SW_EXCH_BAR:
        return s->exch_at.bar;
    case SW_EXCH_OFFSET:
        return s->exch_at.offset;
    case SW_EXCH_SIZE:
        return C600_EXCH_BAR_SIZE;
    case SW_TOUCHES:
        return s->touches;
    default:
        return 0;
    }
}

static void c600_sw_write(void *opaque, hwaddr addr, uint64_t val,
                          unsigned size)
{
    IpuC600State *s = opaque;
    struct c600_sim *sim = s->sim;
    uint32_t v = val;

    if (size != 4 || (addr & 3)) {
        return;
    }
    if (addr >= SW_MBOX_OUT && addr < SW_MBOX_OUT + 4 * MBOX_WORDS) {
        s->mbox_out[(addr - SW_MBOX_OUT) / 4] = v;
        return;
    }
    switch (addr) {
    case SW_IRQ_STATUS:
        s->irq_status &= ~v;
        c600_update_irq(s);
        break;
    case SW_IRQ_MASK:
        s->irq_mask = v & IRQ_ALL;
        c600_update_irq(s);
        break;
    case SW_MBOX_DOORBELL:
        if (v == 1) {
            c600_mbox_doorbell(s);
        }
        break;
    case SW_SLOT_SEL:
        s->slot_sel = v;
        break;
    case SW_SLOT_SIZE:
        s->slot_size = v;
        break;
    case SW_SLOT_TABLE_LO:
        s->slot_table = (s->slot_table & ~0xffffffffull) | v;
        break;
    case SW_SLOT_TABLE_HI:
        s->slot_table = (s->slot_table & 0xffffffffull) | (uint64_t)v << 32;
        break;
    case SW_SLOT_NSEGS:
        s->slot_nsegs = v;
        break;
    case SW_SLOT_CMD:
        c600_touch(s);
        if (v == SLOT_CMD_ATTACH) {
            s->slot_status = c600_slot_attach(s);
        } else if (v == SLOT_CMD_DETACH) {
            s->slot_status = c600_slot_detach(s);
        } else {
            s->slot_status = -EINVAL;
        }
        break;
    case SW_EXC_INJECT:
        c600_raise(s, IRQ_EXCEPTION);
        break;
    case SW_FAULT_STUCK_GO:
        sim->faults.stuck_go = v != 0;
        break;
    case SW_FAULT_STUCK_MARK:
        sim->faults.stuck_mark = v != 0;
        break;
    case SW_FAULT_TDI_BUSY:
        sim->faults.tdi_busy = v != 0;
        break;
    case SW_FAULT_DMA_ERROR:
        sim->faults.dma_error = v != 0;
        break;
    case SW_FAULT_CTX_NO_STOP:
        sim->faults.ctx_no_stop = v != 0;
        break;
    case SW_FAULT_TDI_FAIL_AT:
        sim->faults.tdi_fail_at = v;
        break;
    case SW_LATENCY:
        sim->latency = v;
        break;
    case SW_WLOG_INDEX:
        s->wlog_index = v;
        break;
    case SW_WLOG_CLEAR:
        s->wlog_total = 0;
        s->wlog_index = 0;
        break;
    case SW_TOUCHES:
        s->touches = 0;
        break;
    default:
        break;
    }
}

static const MemoryRegionOps c600_sw_ops = {
    .read = c600_sw_read,
    .write = c600_sw_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

/* ------------------------------------------------------------ layouts */

/* The rest of a BAR that holds a window at an offset (modelled). */
static uint64_t c600_hole_read(void *opaque, hwaddr addr, unsigned size)
{
    return 0;
}

static void c600_hole_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    c600_touch(opaque);
}

static const MemoryRegionOps c600_hole_ops = {
    .read = c600_hole_read,
    .write = c600_hole_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

/*
 * @window at @offset of a BAR of @bar_size bytes: @container, with
 * @hole behind the window (subregions of a larger priority win).
 */
static MemoryRegion *c600_place(IpuC600State *s, MemoryRegion *window,
                                MemoryRegion *container, MemoryRegion *hole,
                                const char *name, uint64_t bar_size,
                                uint32_t offset)
{
    g_autofree char *hole_name = g_strdup_printf("%s-hole", name);

    memory_region_init(container, OBJECT(s), name, bar_size);
    memory_region_init_io(hole, OBJECT(s), &c600_hole_ops, s, hole_name,
                          bar_size);
    memory_region_add_subregion_overlap(container, 0, hole, 0);
    memory_region_add_subregion_overlap(container, offset, window, 1);
    return container;
}

/* The places the property names; false (and @errp set) if it names none. */
static bool c600_layout_parse(IpuC600State *s, Error **errp)
{
    const char *l = s->layout ? s->layout : "bar0";

    if (!strcmp(l, "bar0")) {
        s->cfg_at = (C600Place) { 0, 0 };
        s->exch_at = (C600Place) { 2, 0 };
    } else if (!strcmp(l, "bar2")) {
        s->cfg_at = (C600Place) { 2, 0 };
        s->exch_at = (C600Place) { 0, 0 };
    } else if (!strcmp(l, "offset")) {
        s->cfg_at = (C600Place) { 0, C600_LAYOUT_OFFSET };
        s->exch_at = (C600Place) { 2, C600_LAYOUT_OFFSET };
    } else {
        error_setg(errp, "ipu-c600: layout=%s: want bar0, bar2 or offset", l);
        return false;
    }
    return true;
}

/* The windows' BARs, as c600_layout_parse() placed them. */
static void c600_layout_register(IpuC600State *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    MemoryRegion *cfg = &s->cfg_bar, *exch = &s->exch_bar;

    if (s->cfg_at.offset) {
        cfg = c600_place(s, &s->cfg_bar, &s->cfg_container, &s->cfg_hole,
                         "ipu-c600-cfg-bar", C600_OFFSET_CFG_BAR,
                         s->cfg_at.offset);
    }
    if (s->exch_at.offset) {
        exch = c600_place(s, &s->exch_bar, &s->exch_container, &s->exch_hole,
                          "ipu-c600-exch-bar", C600_OFFSET_EXCH_BAR,
                          s->exch_at.offset);
    }
    pci_register_bar(pdev, s->cfg_at.bar, PCI_BASE_ADDRESS_SPACE_MEMORY, cfg);
    pci_register_bar(pdev, s->exch_at.bar, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     exch);
}

/* ------------------------------------------------------------ device */

static void c600_realize(PCIDevice *pdev, Error **errp)
{
    IpuC600State *s = IPU_C600(pdev);
    struct c600_sim_dma_port port = {
        .read = c600_dma_read,
        .write = c600_dma_write,
        .ctx = s,
    };
    Error *err = NULL;
    int ret;

    if (!c600_layout_parse(s, errp)) {
        return;
    }
    pci_config_set_interrupt_pin(pdev->config, 1);
    /* one MSI vector; where the machine has no MSI, INTx alone */
    ret = msi_init(pdev, 0, 1, true, false, &err);
    if (ret == -ENOTSUP) {
        error_free(err);
    } else if (ret) {
        error_propagate(errp, err);
        return;
    }
    s->sim = c600_sim_create();
    if (!s->sim) {
        msi_uninit(pdev);
        error_setg(errp, "ipu-c600: cannot allocate the C600 model");
        return;
    }
    c600_sim_set_dma_port(s->sim, &port);
    s->wlog_offset = g_new0(uint32_t, WLOG_SIZE);
    s->wlog_value = g_new0(uint32_t, WLOG_SIZE);

    memory_region_init_io(&s->cfg_bar, OBJECT(s), &c600_cfg_ops, s,
                          "ipu-c600-config", C600_CONFIG_BAR_SIZE);
    memory_region_init_io(&s->exch_bar, OBJECT(s), &c600_exch_ops, s,
                          "ipu-c600-exchange", C600_EXCH_BAR_SIZE);
    memory_region_init_io(&s->sw_bar, OBJECT(s), &c600_sw_ops, s,
                          "ipu-c600-standin", C600_SW_BAR_SIZE);
    c600_layout_register(s);
    pci_register_bar(pdev, 4, PCI_BASE_ADDRESS_SPACE_MEMORY, &s->sw_bar);
}

static void c600_exit(PCIDevice *pdev)
{
    IpuC600State *s = IPU_C600(pdev);

    c600_slots_free(s);
    c600_sim_destroy(s->sim);
    s->sim = NULL;
    g_free(s->wlog_offset);
    g_free(s->wlog_value);
    s->wlog_offset = NULL;
    s->wlog_value = NULL;
    msi_uninit(pdev);
}

/* System reset: the model at power-on, the window cleared (modelled). */
static void c600_reset(DeviceState *dev)
{
    IpuC600State *s = IPU_C600(dev);

    c600_sim_reset(s->sim);
    memset(&s->sim->faults, 0, sizeof(s->sim->faults));
    s->sim->latency = C600_SIM_DEFAULT_LATENCY;
    c600_slots_free(s);
    s->irq_status = 0;
    s->irq_mask = 0;
    s->irq_pending = 0;
    s->mark_seen[0] = s->mark_seen[1] = false;
    memset(s->mbox_out, 0, sizeof(s->mbox_out));
    memset(s->mbox_in, 0, sizeof(s->mbox_in));
    s->mbox_status = 0;
    s->mbox_requests = 0;
    s->slot_sel = s->slot_size = s->slot_nsegs = s->slot_status = 0;
    s->slot_table = 0;
    s->wlog_total = 0;
    s->wlog_index = 0;
    s->touches = 0;
    pci_set_irq(PCI_DEVICE(s), 0);
}

static Property c600_props[] = {
    DEFINE_PROP_STRING("layout", IpuC600State, layout),
    DEFINE_PROP_END_OF_LIST(),
};

static void c600_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = c600_realize;
    k->exit = c600_exit;
    k->vendor_id = C600_VENDOR_ID;
    k->device_id = C600_DEVICE_ID;
    k->revision = 0x01;
    k->class_id = 0x1200;       /* processing accelerator (modelled) */
    dc->reset = c600_reset;
    dc->desc = "Graphcore C600 test double (ipuxcom, sim/ model)";
    device_class_set_props(dc, c600_props);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo c600_info = {
    .name = TYPE_IPU_C600,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(IpuC600State),
    .class_init = c600_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void c600_register_types(void)
{
    type_register_static(&c600_info);
}

type_init(c600_register_types)
