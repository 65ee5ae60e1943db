/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interface between the ipuxcom core and its device backends.
 *
 * The core never touches hardware: a backend (sim, hw) registers each
 * device with a small ops table. Every mechanism of the core talks to a
 * device only through these ops, so the simulator checks the same
 * sequencing code that drives a real card.
 */
#ifndef IPUXCOM_BACKEND_H
#define IPUXCOM_BACKEND_H

#include <linux/types.h>
#include <linux/ipuxcom.h>

struct device;
struct page;
struct ipuxcom_device;

/**
 * struct ipuxcom_host_buf - a host buffer of the attached process, pinned
 * @uaddr: its user address (what ipu_driver's BUFFER_ATTACH is given)
 * @size: bytes, a multiple of PAGE_SIZE
 * @pages: the pinned pages (pin_user_pages(FOLL_LONGTERM | FOLL_WRITE))
 * @npages: number of @pages
 * @vaddr: kernel mapping of @pages (vmap), for the module and the backend
 * @bus_addr: free for the backend's use between attach and detach
 *
 * The core pins and maps it (BUF_ATTACH) and unpins it; a backend only
 * makes it visible to its device (or, for a device held through
 * ipu_driver, does nothing: the owner's BUFFER_ATTACH does that).
 */
struct ipuxcom_host_buf {
	u64 uaddr;
	size_t size;
	struct page **pages;
	unsigned long npages;
	void *vaddr;
	u64 bus_addr;
};

/**
 * struct ipuxcom_windows - where a holder's ipu_driver mappings reach a card
 * @cfg: physical address of the config window: what the caller's
 *	mmap(/dev/ipuN, offset 0, IPUXCOM_IPU_CFG_MAP_BYTES) maps
 * @cfg_len: its length, IPUXCOM_IPU_CFG_MAP_BYTES
 * @ex: physical address of the start of the caller's mapping of
 *	/dev/ipuN_ex (offset 0), or 0
 * @ex_len: its length in bytes; 0 when the caller gave none
 *
 * The core resolves them from the caller's own page tables at ATTACH
 * (ipunode.c); they are ipu_driver's choice, never the module's.
 */
struct ipuxcom_windows {
	phys_addr_t cfg;
	u64 cfg_len;
	phys_addr_t ex;
	u64 ex_len;
};

/**
 * struct ipuxcom_backend_ops - what a backend provides for one device
 * @bar_read: read the 32-bit config-BAR register at byte @offset
 * @bar_write: write the 32-bit config-BAR register at byte @offset
 * @buffer_attach: make @buf the device's host buffer number @slot, as
 *	ipu_driver's BUFFER_ATTACH {index, size, address} does (slot 0 is the
 *	secondary loader's transport buffer). NULL for a device held through
 *	ipu_driver: the owner attaches there.
 * @buffer_detach: undo @buffer_attach for @slot; NULL with it
 * @exch_write: store @len bytes through the exchange BAR at @offset; NULL
 *	if the module cannot reach the exchange BAR (ipu_driver's
 *	/dev/ipuN_ex: the caller stores, see @exch_stored)
 * @exch_stored: optional, for devices without @exch_write: the caller
 *	says it stored @len bytes at exchange-BAR @offset through its own
 *	mapping. A card saw the stores and needs nothing; a model applies them.
 * @reset: return the device to its power-on state; NULL for a device held
 *	through ipu_driver, which its owner resets with RESET_DEVICE
 * @windows_check: for a device held through ipu_driver (required there,
 *	NULL elsewhere): 0 if the physical ranges of @w lie in memory
 *	resources of the device's own function, -EXDEV if not. Touches no
 *	register.
 * @windows_map: for a device held through ipu_driver: make @w's config
 *	window the one @bar_read and @bar_write reach, for the session that
 *	is attaching (checked as @windows_check does); until then they fail
 * @windows_unmap: the session that @windows_map served has ended
 *
 * The core validates offsets (4-byte aligned, below config_bar_size)
 * before calling; ops may sleep. The core serialises nothing else: a
 * backend protects its own state. Every op gets the @priv of the
 * registration.
 */
struct ipuxcom_backend_ops {
	int (*bar_read)(void *priv, u32 offset, u32 *value);
	int (*bar_write)(void *priv, u32 offset, u32 value);
	int (*buffer_attach)(void *priv, u32 slot, struct ipuxcom_host_buf *buf);
	void (*buffer_detach)(void *priv, u32 slot, struct ipuxcom_host_buf *buf);
	int (*exch_write)(void *priv, u32 offset, const void *data, size_t len);
	int (*exch_stored)(void *priv, u32 offset, size_t len);
	int (*reset)(void *priv);
	int (*windows_check)(void *priv, const struct ipuxcom_windows *w);
	int (*windows_map)(void *priv, const struct ipuxcom_windows *w);
	void (*windows_unmap)(void *priv);
};

/*
 * The device is a card driven by ipu_driver (IPUXCOM_CAP_IPU_DRIVER):
 * ATTACH takes an open /dev/ipuN of it and the caller's mapping of its
 * config registers; the backend says whether the mapping is its card's
 * (@windows_check) and maps that window for the session (@windows_map).
 * @parent is then required (the PCI function, for logging), and must
 * stay valid until the device is unregistered.
 */
#define IPUXCOM_DESC_IPU_DRIVER		BIT(0)

/**
 * struct ipuxcom_device_desc - registration of one device
 * @backend: short backend name, e.g. "sim" (fits IPUXCOM_BACKEND_NAME_LEN)
 * @tile_count: tiles on the device
 * @config_bar_size: bytes of config BAR the ops accept
 * @ops: the backend's operations; must stay valid until unregistered
 * @priv: passed to every op
 * @parent: the device's parent (PCI function, or the stand-in's device);
 *	for logging, and required with IPUXCOM_DESC_IPU_DRIVER
 * @flags: IPUXCOM_DESC_*
 * @capabilities: IPUXCOM_CAP_* commands the backend can serve; commands
 *	outside it fail with -EOPNOTSUPP (0: everything the core offers)
 */
struct ipuxcom_device_desc {
	const char *backend;
	u32 tile_count;
	u32 config_bar_size;
	const struct ipuxcom_backend_ops *ops;
	void *priv;
	struct device *parent;
	u32 flags;
	u64 capabilities;
};

struct ipuxcom_device *ipuxcom_device_register(const struct ipuxcom_device_desc *desc);

/* Host buffer slots: ipu_driver's buffer indexes (uapi IPUXCOM_BUF_SLOT_*). */
#define IPUXCOM_SLOT_LOADER	IPUXCOM_BUF_SLOT_LOADER
#define IPUXCOM_SLOT_HOSTX(i)	IPUXCOM_BUF_SLOT_HOSTX(i)
#define IPUXCOM_SLOTS		IPUXCOM_BUF_SLOTS

/*
 * After ipuxcom_device_unregister() returns, no op of the device is running
 * or will be called again, so the backend may free @priv. Open files that
 * were attached to the device get -ENODEV from then on.
 */
void ipuxcom_device_unregister(struct ipuxcom_device *dev);

u32 ipuxcom_device_id(const struct ipuxcom_device *dev);

#endif /* IPUXCOM_BACKEND_H */
