// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom_hw: the hardware backend. Registers one ipuxcom device ("hw")
 * for every Graphcore IPU that ipu_driver drives, next to ipu_driver and
 * without taking the PCI function from it. UNVERIFIED ON HARDWARE: nothing
 * in this tree has run on a card (docs/hardware.md). In the test VM it
 * runs the whole main job on the QEMU C600 (docs/qemu-c600.md: the
 * simulator's model behind real BARs and PCI DMA) bound by the
 * ipu_driver stand-in (selftests/kmod/ipu_standin.c), which proves the
 * path and the record's sequences, not the card.
 *
 * What it does:
 *  - looks at every PCI function of Graphcore's vendor id 0x1d95 [RE]
 *    (no public C600 device id exists, HW-PCI-VENDOR), and at the functions
 *    the "ids" parameter lists, without binding to any: no pci_driver, no
 *    MODULE_DEVICE_TABLE (so udev never loads this module by itself: it is
 *    loaded by hand or not at all);
 *  - registers an ipuxcom device for a function only while ipu_driver
 *    [S "Below Poplar"] is bound to it, and logs its BARs;
 *  - maps nothing at bind time. Which BAR, and which offset in it, holds
 *    the config registers is not in any record (the seed calls what
 *    mmap(/dev/ipuN, 0, 0x80000) maps "the configuration BAR"): the
 *    window is the one ipu_driver itself maps for the caller. At ATTACH
 *    the core resolves the caller's mapping of its /dev/ipuN to physical
 *    addresses (kmod/ipunode.c); this backend checks that they lie in a
 *    memory resource of this very function (any BAR, any offset:
 *    hw_windows_check()) and maps exactly that range for the session
 *    (hw_windows_map(), logged with the BAR and offset found), until the
 *    session ends. The region is not requested: ipu_driver owns the
 *    device and holds its regions (request_mem_region() would fail with
 *    -EBUSY, and taking them would break ipu_driver). This module only
 *    shares the mapping, like ipu_driver's own userspace mmap of /dev/ipuN;
 *  - serves the config-BAR ops with readl()/writel() (hw_regs.c: offset
 *    checks, the notes' posted-write flush, all-ones detection);
 *  - registers the device as held through ipu_driver
 *    (IPUXCOM_DESC_IPU_DRIVER, parent = the PCI function): ATTACH then
 *    needs the caller's open /dev/ipuN of this function and its mapping,
 *    so registers are touched only for a caller that can reach them
 *    through ipu_driver itself;
 *  - follows ipu_driver through a PCI bus notifier: when ipu_driver lets
 *    go of a device (rmmod, sysfs unbind, hot removal) the ipuxcom device
 *    is unregistered first, before ipu_driver's remove disables the
 *    device; when ipu_driver binds one later, it is registered then.
 *
 * Host buffers, reset and the exchange window (HW_CAPABILITIES in
 * hw_regs.h declares them all): the caller does the ipu_driver half
 * itself from userspace -- BUFFER_ATTACH of the buffers the core pinned,
 * RESET_DEVICE before the core's RESET (IPUXCOM_RESET_F_DRIVER_RESET),
 * stores through its mapping of /dev/ipuN_ex between EXCH_WRITE's SELECT
 * and COMPLETE -- and this backend only serves the config BAR. Whether
 * ipu_driver's BUFFER_ATTACH indexes and HEXOPT translation behave on a
 * card as the record says is unverified.
 *
 * Loading performs no MMIO: registers are touched only by commands of a
 * process attached to the device through /dev/ipuxcom (mode 0600).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/io.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "ipuxcom_backend.h"
#include "hw_regs.h"

/* The kernel module that drives Graphcore IPUs [S "Below Poplar"]. */
#define HW_IPU_DRIVER		"ipu_driver"

/*
 * dev_*() messages carry the name of the device's driver (ipu_driver):
 * say whose message it is.
 */
#define hw_info(pdev, fmt, ...)	pci_info(pdev, "ipuxcom_hw: " fmt, ##__VA_ARGS__)
#define hw_warn(pdev, fmt, ...)	pci_warn(pdev, "ipuxcom_hw: " fmt, ##__VA_ARGS__)

/**
 * struct hw_ipu - one IPU this backend registered
 * @node: in hw_ipus
 * @pdev: the PCI function (a reference is held)
 * @regs: the config window of the attached session (base NULL, size 0
 *	while none is attached); changed only while no op can run (ATTACH
 *	before the session exists, its end, and after unregistering)
 * @idev: the ipuxcom device
 * @logged_cfg: the config window last logged, so each session's layout
 *	is logged once, not at every ATTACH
 */
struct hw_ipu {
	struct list_head node;
	struct pci_dev *pdev;
	struct hw_regs regs;
	struct ipuxcom_device *idev;
	phys_addr_t logged_cfg;
};

/*
 * enable defaults to true: the module is never loaded automatically (no
 * device table), so loading it is already the administrator's decision,
 * and loading touches no register. enable=0 (e.g. "options ipuxcom_hw
 * enable=0" in modprobe.d) keeps it from even looking at PCI devices.
 */
static bool hw_enable = true;
module_param_named(enable, hw_enable, bool, 0444);
MODULE_PARM_DESC(enable, "look for Graphcore IPUs driven by ipu_driver and register them (default 1; 0: do nothing)");

static ushort hw_pci_device;
module_param_named(pci_device, hw_pci_device, ushort, 0444);
MODULE_PARM_DESC(pci_device, "use only Graphcore functions with this PCI device id (default 0: any)");

/*
 * For testing against a QEMU device: non-Graphcore functions to consider
 * too, "vendor:device[,...]" in hex (like vfio-pci's ids=), e.g. QEMU's
 * edu device 1234:11e8 (the test VM's QEMU C600 has Graphcore's vendor id
 * and needs none).
 * The ipu_driver and BAR checks still apply to them.
 */
#define HW_MAX_IDS		8
static char *hw_ids;
module_param_named(ids, hw_ids, charp, 0444);
MODULE_PARM_DESC(ids, "for testing against a QEMU device: also consider these non-Graphcore PCI functions, vendor:device[,...] in hex (default: none)");

static struct {
	u16 vendor;
	u16 device;
} hw_extra[HW_MAX_IDS];
static unsigned int hw_nextra;

static DEFINE_MUTEX(hw_lock);	/* hw_ipus */
static LIST_HEAD(hw_ipus);

static int hw_bar_read(void *priv, u32 offset, u32 *value)
{
	struct hw_ipu *ipu = priv;

	*value = 0;
	if (!ipu->regs.base)
		return -ENXIO;
	return hw_regs_read(&ipu->regs, offset, value);
}

static int hw_bar_write(void *priv, u32 offset, u32 value)
{
	struct hw_ipu *ipu = priv;

	if (!ipu->regs.base)
		return -ENXIO;
	return hw_regs_write(&ipu->regs, offset, value);
}

/*
 * The memory BAR of @pdev that holds [@start, @start + @len), with the
 * offset of @start in it; -EXDEV if none does (another function's, or
 * not device memory of a PCI function at all).
 */
static int hw_window_bar(struct pci_dev *pdev, phys_addr_t start, u64 len, u64 *offset)
{
	int i;

	if (!len || start + len - 1 < start)
		return -EXDEV;
	for (i = 0; i < PCI_STD_NUM_BARS; i++) {
		const struct resource *r = &pdev->resource[i];

		if (resource_type(r) != IORESOURCE_MEM || !resource_size(r))
			continue;
		if (start >= r->start && start + len - 1 <= r->end) {
			*offset = start - r->start;
			return i;
		}
	}
	return -EXDEV;
}

/*
 * Where the holder's windows lie in this function's BARs: 0 with each
 * BAR and offset (ex_bar -1 without an exchange window), or -EXDEV.
 */
static int hw_windows_place(struct hw_ipu *ipu, const struct ipuxcom_windows *w,
			    int *cfg_bar, u64 *cfg_off, int *ex_bar, u64 *ex_off)
{
	if (w->cfg_len != HW_CONFIG_BAR_SIZE)
		return -EXDEV;
	*cfg_bar = hw_window_bar(ipu->pdev, w->cfg, w->cfg_len, cfg_off);
	if (*cfg_bar < 0)
		return *cfg_bar;
	*ex_bar = -1;
	*ex_off = 0;
	if (w->ex_len) {
		*ex_bar = hw_window_bar(ipu->pdev, w->ex, w->ex_len, ex_off);
		if (*ex_bar < 0)
			return *ex_bar;
	}
	return 0;
}

/* Do the holder's windows lie in this function's BARs? 0 or -EXDEV. */
static int hw_windows_check(void *priv, const struct ipuxcom_windows *w)
{
	int cfg_bar, ex_bar;
	u64 cfg_off, ex_off;

	return hw_windows_place(priv, w, &cfg_bar, &cfg_off, &ex_bar, &ex_off);
}

/*
 * Map the holder's config window for its session, exactly the range its
 * own mapping of /dev/ipuN reaches, and say where it was found (once per
 * layout: the record does not state it, so a card owner's log does).
 */
static int hw_windows_map(void *priv, const struct ipuxcom_windows *w)
{
	struct hw_ipu *ipu = priv;
	void __iomem *base;
	int cfg_bar, ex_bar, ret;
	u64 cfg_off, ex_off;

	if (WARN_ON_ONCE(ipu->regs.base))
		return -EBUSY;
	ret = hw_windows_place(ipu, w, &cfg_bar, &cfg_off, &ex_bar, &ex_off);
	if (ret)
		return ret;
	/* No request_mem_region(): ipu_driver holds the region (see top). */
	base = ioremap(w->cfg, w->cfg_len);
	if (!base)
		return -ENOMEM;
	if (ipu->logged_cfg != w->cfg) {
		ipu->logged_cfg = w->cfg;
		if (ex_bar >= 0)
			hw_info(ipu->pdev, "config registers: BAR %d + 0x%llx (%llu KiB), exchange window: BAR %d + 0x%llx (%llu KiB), as ipu_driver maps them for the holder\n",
				cfg_bar, cfg_off, w->cfg_len >> 10, ex_bar, ex_off,
				w->ex_len >> 10);
		else
			hw_info(ipu->pdev, "config registers: BAR %d + 0x%llx (%llu KiB), as ipu_driver maps them for the holder\n",
				cfg_bar, cfg_off, w->cfg_len >> 10);
	}
	ipu->regs.dead = false;
	ipu->regs.size = (u32)w->cfg_len;
	ipu->regs.base = base;
	return 0;
}

static void hw_windows_unmap(void *priv)
{
	struct hw_ipu *ipu = priv;
	void __iomem *base = ipu->regs.base;

	ipu->regs.base = NULL;
	ipu->regs.size = 0;
	if (base)
		iounmap(base);
}

/*
 * Nothing else: a card held through ipu_driver gets its host buffers
 * attached (BUFFER_ATTACH), its resets (RESET_DEVICE) and its exchange-BAR
 * stores (/dev/ipuN_ex) from the caller, through ipu_driver; the core pins
 * the buffers itself and never asks this backend (IPUXCOM_DESC_IPU_DRIVER).
 * No exch_stored: the card saw the caller's stores.
 */
static const struct ipuxcom_backend_ops hw_ops = {
	.bar_read = hw_bar_read,
	.bar_write = hw_bar_write,
	.windows_check = hw_windows_check,
	.windows_map = hw_windows_map,
	.windows_unmap = hw_windows_unmap,
};

static bool hw_present(void *ctx)
{
	return pci_device_is_present(ctx);
}

/* ipu_driver by module name [S], or by driver name if built in. */
static bool hw_is_ipu_driver(struct device_driver *drv)
{
	if (!drv)
		return false;
	if (drv->owner && !strcmp(module_name(drv->owner), HW_IPU_DRIVER))
		return true;
	return !strcmp(drv->name, HW_IPU_DRIVER);
}

static struct hw_ipu *hw_find(struct pci_dev *pdev)
{
	struct hw_ipu *ipu;

	lockdep_assert_held(&hw_lock);
	list_for_each_entry(ipu, &hw_ipus, node)
		if (ipu->pdev == pdev)
			return ipu;
	return NULL;
}

/* Listed in "ids"? */
static bool hw_extra_id(const struct pci_dev *pdev)
{
	unsigned int i;

	for (i = 0; i < hw_nextra; i++)
		if (pdev->vendor == hw_extra[i].vendor && pdev->device == hw_extra[i].device)
			return true;
	return false;
}

/* A function this module looks at: Graphcore's, or one "ids" lists. */
static bool hw_candidate(const struct pci_dev *pdev)
{
	return pdev->vendor == HW_PCI_VENDOR_GRAPHCORE || hw_extra_id(pdev);
}

/* Parse "ids" into hw_extra; 0, -EINVAL, or kstrtou16()'s -ERANGE. */
static int hw_parse_ids(void)
{
	char *p, *tok, *copy;
	int ret = 0;

	if (!hw_ids || !*hw_ids)
		return 0;
	copy = kstrdup(hw_ids, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	p = copy;
	while ((tok = strsep(&p, ","))) {
		char *colon = strchr(tok, ':');
		u16 vendor, device;

		if (!*tok)
			continue;
		if (!colon || hw_nextra == HW_MAX_IDS) {
			ret = -EINVAL;
			break;
		}
		*colon = '\0';
		ret = kstrtou16(tok, 16, &vendor);
		if (!ret)
			ret = kstrtou16(colon + 1, 16, &device);
		if (ret)
			break;
		hw_extra[hw_nextra].vendor = vendor;
		hw_extra[hw_nextra].device = device;
		hw_nextra++;
		pr_info("also considering PCI %04x:%04x (ids=, for testing: not a Graphcore function)\n",
			vendor, device);
	}
	kfree(copy);
	if (ret)
		pr_err("bad ids=\"%s\": want at most %d vendor:device pairs in hex\n",
		       hw_ids, HW_MAX_IDS);
	return ret;
}

/* Why @pdev is not used, or NULL if it can be. */
static const char *hw_refusal(struct pci_dev *pdev)
{
	if (hw_pci_device && pdev->vendor == HW_PCI_VENDOR_GRAPHCORE &&
	    pdev->device != hw_pci_device)
		return "PCI device id differs from the pci_device parameter";
	if (!hw_is_ipu_driver(pdev->dev.driver))
		return "not driven by " HW_IPU_DRIVER;
	return NULL;
}

/*
 * Register @pdev if ipu_driver drives it. Called with the device lock
 * held (so its driver cannot change meanwhile) and hw_lock.
 * Returns 0 if it is registered (now or before), else -errno.
 */
static int hw_bind(struct pci_dev *pdev)
{
	struct ipuxcom_device_desc desc = {
		.backend = "hw",
		.tile_count = HW_C600_TILES,
		.config_bar_size = HW_CONFIG_BAR_SIZE,
		.ops = &hw_ops,
		.parent = &pdev->dev,
		.flags = IPUXCOM_DESC_IPU_DRIVER,
		.capabilities = HW_CAPABILITIES,
	};
	const char *why;
	struct hw_ipu *ipu;
	int i, ret;

	device_lock_assert(&pdev->dev);
	lockdep_assert_held(&hw_lock);
	if (hw_find(pdev))
		return 0;
	why = hw_refusal(pdev);
	if (why) {
		hw_info(pdev, "[%04x:%04x] driver %s: not used: %s\n", pdev->vendor,
			pdev->device, pdev->dev.driver ? pdev->dev.driver->name : "(none)",
			why);
		return -ENODEV;
	}
	/* The layout is undocumented: log it for the card owner's report. */
	for (i = 0; i < PCI_STD_NUM_BARS; i++)
		if (pci_resource_len(pdev, i))
			hw_info(pdev, "BAR %d: %pR\n", i, &pdev->resource[i]);

	ipu = kzalloc(sizeof(*ipu), GFP_KERNEL);
	if (!ipu)
		return -ENOMEM;
	/* Nothing is mapped until a holder attaches (hw_windows_map()). */
	ipu->regs.present = hw_present;
	ipu->regs.ctx = pdev;
	ipu->pdev = pci_dev_get(pdev);
	desc.priv = ipu;
	ipu->idev = ipuxcom_device_register(&desc);
	if (IS_ERR(ipu->idev)) {
		ret = PTR_ERR(ipu->idev);
		hw_warn(pdev, "ipuxcom device registration failed: %d\n", ret);
		pci_dev_put(ipu->pdev);
		kfree(ipu);
		return ret;
	}
	list_add_tail(&ipu->node, &hw_ipus);
	hw_info(pdev, "[%04x:%04x] is ipuxcom device %u (hw backend, driven by %s; registers mapped when a holder attaches; unverified on hardware)\n",
		pdev->vendor, pdev->device, ipuxcom_device_id(ipu->idev),
		pdev->dev.driver->name);
	return 0;
}

/* Unregister and free @ipu. Called with hw_lock held. */
static void hw_unbind(struct hw_ipu *ipu)
{
	struct pci_dev *pdev = ipu->pdev;
	u32 id = ipuxcom_device_id(ipu->idev);

	lockdep_assert_held(&hw_lock);
	list_del(&ipu->node);
	/* Returns with no op running and none to come: the window can go. */
	ipuxcom_device_unregister(ipu->idev);
	hw_windows_unmap(ipu);
	kfree(ipu);
	hw_info(pdev, "ipuxcom device %u released\n", id);
	pci_dev_put(pdev);
}

/*
 * Follow ipu_driver: BOUND_DRIVER and UNBIND_DRIVER are sent with the
 * device lock held, UNBIND_DRIVER before the driver's remove() runs, so
 * our device is gone before ipu_driver disables the PCI function.
 */
static int hw_pci_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct pci_dev *pdev = to_pci_dev(data);
	struct hw_ipu *ipu;

	if (!hw_candidate(pdev))
		return NOTIFY_DONE;
	mutex_lock(&hw_lock);
	switch (action) {
	case BUS_NOTIFY_BOUND_DRIVER:
		hw_bind(pdev);
		break;
	case BUS_NOTIFY_UNBIND_DRIVER:
	case BUS_NOTIFY_DEL_DEVICE:
		ipu = hw_find(pdev);
		if (ipu) {
			hw_info(pdev, "leaving with its driver\n");
			hw_unbind(ipu);
		}
		break;
	}
	mutex_unlock(&hw_lock);
	return NOTIFY_OK;
}

static struct notifier_block hw_pci_nb = {
	.notifier_call = hw_pci_notify,
};

static void hw_scan(void)
{
	struct pci_dev *pdev = NULL;
	unsigned int found = 0, used = 0;

	/* pci_get_device() drops the reference of the device passed in. */
	while ((pdev = pci_get_device(PCI_ANY_ID, PCI_ANY_ID, pdev))) {
		if (!hw_candidate(pdev))
			continue;
		found++;
		device_lock(&pdev->dev);
		mutex_lock(&hw_lock);
		if (!hw_bind(pdev))
			used++;
		mutex_unlock(&hw_lock);
		device_unlock(&pdev->dev);
	}
	if (!found)
		pr_info("no Graphcore IPU found (no PCI function of vendor 0x%04x%s)\n",
			HW_PCI_VENDOR_GRAPHCORE, hw_nextra ? " or of ids=" : "");
	else
		pr_info("%u Graphcore PCI function(s), %u registered\n",
			found, used);
}

static int __init ipuxcom_hw_init(void)
{
	int ret;

	if (!hw_enable) {
		pr_info("hardware binding disabled (enable=0): no PCI device looked at\n");
		return 0;
	}
	ret = hw_parse_ids();
	if (ret)
		return ret;
	/* First the notifier, then the scan: no bind or unbind falls between. */
	ret = bus_register_notifier(&pci_bus_type, &hw_pci_nb);
	if (ret)
		return ret;
	hw_scan();
	return 0;
}

static void __exit ipuxcom_hw_exit(void)
{
	struct hw_ipu *ipu, *tmp;

	/* enable is read-only (0444): it still says whether init registered. */
	if (hw_enable)
		bus_unregister_notifier(&pci_bus_type, &hw_pci_nb);
	mutex_lock(&hw_lock);
	list_for_each_entry_safe(ipu, tmp, &hw_ipus, node)
		hw_unbind(ipu);
	mutex_unlock(&hw_lock);
}

module_init(ipuxcom_hw_init);
module_exit(ipuxcom_hw_exit);

MODULE_DESCRIPTION("Graphcore IPU backend for ipuxcom, next to ipu_driver (unverified on hardware)");
MODULE_LICENSE("GPL");
