/* SPDX-License-Identifier: GPL-2.0 */
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

struct device;
struct ipuxcom_device;

/**
 * struct ipuxcom_dma_buf - a host buffer the device can read and write
 * @vaddr: kernel virtual address; page-aligned, from vmalloc_user() or
 *	equivalent so it can be mapped into userspace
 * @bus_addr: the address the device uses for it
 * @size: bytes, a multiple of PAGE_SIZE
 */
struct ipuxcom_dma_buf {
	void *vaddr;
	u64 bus_addr;
	size_t size;
};

/**
 * struct ipuxcom_backend_ops - what a backend provides for one device
 * @bar_read: read the 32-bit config-BAR register at byte @offset
 * @bar_write: write the 32-bit config-BAR register at byte @offset
 * @dma_alloc: allocate a zeroed, device-visible host buffer of @size bytes
 * @dma_free: free a buffer from @dma_alloc
 * @buffer_attach: make @buf the device's host buffer number @slot, as
 *	ipu_driver's BUFFER_ATTACH {index, size, address} does; slot 0 is the
 *	secondary loader's transport buffer (how the device learns the
 *	buffer's address is not documented: backends model or delegate it)
 * @buffer_detach: undo @buffer_attach for @slot
 * @exch_write: store @len bytes through the exchange BAR at @offset
 *	(/dev/ipuN_ex for ipu_driver); NULL if the backend cannot
 * @reset: return the device to its power-on state
 *
 * The core validates offsets (4-byte aligned, below config_bar_size)
 * before calling; ops may sleep. The core serialises nothing else: a
 * backend protects its own state. Every op gets the @priv of the
 * registration.
 */
struct ipuxcom_backend_ops {
	int (*bar_read)(void *priv, u32 offset, u32 *value);
	int (*bar_write)(void *priv, u32 offset, u32 value);
	int (*dma_alloc)(void *priv, size_t size, struct ipuxcom_dma_buf *buf);
	void (*dma_free)(void *priv, struct ipuxcom_dma_buf *buf);
	int (*buffer_attach)(void *priv, u32 slot, const struct ipuxcom_dma_buf *buf);
	int (*buffer_detach)(void *priv, u32 slot);
	int (*exch_write)(void *priv, u32 offset, const void *data, size_t len);
	int (*reset)(void *priv);
};

/**
 * struct ipuxcom_device_desc - registration of one device
 * @backend: short backend name, e.g. "sim" (fits IPUXCOM_BACKEND_NAME_LEN)
 * @tile_count: tiles on the device
 * @config_bar_size: bytes of config BAR the ops accept
 * @ops: the backend's operations; must stay valid until unregistered
 * @priv: passed to every op
 * @parent: optional parent device (for dev_* logging)
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
	u64 capabilities;
};

struct ipuxcom_device *ipuxcom_device_register(const struct ipuxcom_device_desc *desc);

/*
 * Host buffer slots: the loader transport buffer, then host-exchange page
 * i in slot 1 + i (this numbering is the module's; backends map it).
 */
#define IPUXCOM_SLOT_LOADER	0
#define IPUXCOM_SLOT_HOSTX(i)	(1 + (i))
#define IPUXCOM_SLOTS		17

/*
 * After ipuxcom_device_unregister() returns, no op of the device is running
 * or will be called again, so the backend may free @priv. Open files that
 * were attached to the device get -ENODEV from then on.
 */
void ipuxcom_device_unregister(struct ipuxcom_device *dev);

u32 ipuxcom_device_id(const struct ipuxcom_device *dev);

#endif /* IPUXCOM_BACKEND_H */
