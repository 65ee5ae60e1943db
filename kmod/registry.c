// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device registry: backends register devices here; files and netlink look
 * them up by id. What else a device's arrival and removal mean (its host
 * buffers, netlink events) is the core's: it hears of them through the
 * hooks it installs (ipuxcom_registry_set_hooks()).
 *
 * Lifetime: the registry holds one reference from register to unregister,
 * each attached file one more. Unregister clears the ops under the write
 * side of ops_lock, so once it returns no backend call is running and none
 * can start; files still attached see -ENODEV and free the device when
 * they close.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/lockdep.h>
#include <linux/mmap_lock.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include "ipuxcom_internal.h"

static DEFINE_XARRAY_ALLOC(ipuxcom_devices);
static atomic_t ipuxcom_ndevices = ATOMIC_INIT(0);
/* The id xa_alloc_cyclic() tries first: a freed id is not reused at once. */
static u32 ipuxcom_next_id;
static const struct ipuxcom_registry_hooks *ipuxcom_hooks;

/*
 * Installed by module init before any backend can register (a backend
 * needs our symbols, so it loads after init has finished), and never
 * changed while a device is registered.
 */
void ipuxcom_registry_set_hooks(const struct ipuxcom_registry_hooks *hooks)
{
	ipuxcom_hooks = hooks;
}

static void ipuxcom_device_release(struct kref *ref)
{
	struct ipuxcom_device *dev = container_of(ref, struct ipuxcom_device, ref);

	WARN_ON_ONCE(dev->owner);
	put_pid(dev->owner_pid);
	mutex_destroy(&dev->op_lock);
	mutex_destroy(&dev->lock);
	kfree(dev);
}

void ipuxcom_device_put(struct ipuxcom_device *dev)
{
	kref_put(&dev->ref, ipuxcom_device_release);
}

struct ipuxcom_device *ipuxcom_device_get_by_id(u32 id)
{
	struct ipuxcom_device *dev;

	/* Unregister erases before dropping the registry's reference. */
	xa_lock(&ipuxcom_devices);
	dev = xa_load(&ipuxcom_devices, id);
	if (dev)
		kref_get(&dev->ref);
	xa_unlock(&ipuxcom_devices);
	return dev;
}

/* Returns the first device with id >= *index (referenced), and advances *index. */
struct ipuxcom_device *ipuxcom_device_get_next(unsigned long *index)
{
	struct ipuxcom_device *dev;

	xa_lock(&ipuxcom_devices);
	dev = xa_find(&ipuxcom_devices, index, ULONG_MAX, XA_PRESENT);
	if (dev) {
		kref_get(&dev->ref);
		(*index)++;
	}
	xa_unlock(&ipuxcom_devices);
	return dev;
}

u32 ipuxcom_device_count(void)
{
	return atomic_read(&ipuxcom_ndevices);
}

bool ipuxcom_registry_empty(void)
{
	return xa_empty(&ipuxcom_devices);
}

int ipuxcom_device_enter(struct ipuxcom_device *dev)
{
	if (down_read_killable(&dev->ops_lock))
		return -EINTR;
	if (!dev->ops) {
		up_read(&dev->ops_lock);
		return -ENODEV;
	}
	return 0;
}

void ipuxcom_device_exit(struct ipuxcom_device *dev)
{
	up_read(&dev->ops_lock);
}

/**
 * ipuxcom_device_lockdep_prime() - teach lockdep that a user's mmap_lock
 *	comes before the device's locks
 * @dev: the device a command is about to lock
 *
 * With CONFIG_PROVE_LOCKING, once per device: takes the caller's
 * mmap_lock for reading and, inside it, tells lockdep the device's
 * op_lock, ops_lock and lock may be taken there (might_lock: nothing is
 * taken). A path that takes an mmap_lock (or faults user memory in, which
 * might_fault() tells lockdep) under any of them is then a reported
 * circular dependency, on its first run, whether or not a user actually
 * stalled it (the order: ipuxcom_internal.h). Without lockdep, nothing.
 *
 * Context: process context, no lock of the module held.
 */
void ipuxcom_device_lockdep_prime(struct ipuxcom_device *dev)
{
	struct mm_struct *mm = current->mm;

	if (!IS_ENABLED(CONFIG_PROVE_LOCKING) || READ_ONCE(dev->lockdep_primed) || !mm)
		return;
	if (mmap_read_lock_killable(mm))
		return;
	might_lock(&dev->op_lock);
	might_lock_read(&dev->ops_lock);
	might_lock(&dev->lock);
	mmap_read_unlock(mm);
	WRITE_ONCE(dev->lockdep_primed, true);
}

void ipuxcom_device_snapshot(struct ipuxcom_device *dev,
			     struct ipuxcom_dev_snapshot *snap)
{
	memset(snap, 0, sizeof(*snap));
	snap->id = dev->id;
	snap->tile_count = dev->tile_count;
	snap->config_bar_size = dev->config_bar_size;
	snap->capabilities = dev->capabilities;
	strscpy(snap->backend, dev->backend, sizeof(snap->backend));
	mutex_lock(&dev->lock);
	memcpy(snap->ipu_node, dev->ipu_node, sizeof(snap->ipu_node));
	snap->state = dev->state;
	/* pid_vnr: as the calling process sees it, 0 outside its namespace */
	snap->attached = !!dev->owner;
	snap->attached_pid = dev->owner ? pid_vnr(dev->owner_pid) : 0;
	mutex_unlock(&dev->lock);
}

/**
 * ipuxcom_device_register() - make a backend's device an ipuxcom device
 * @desc: what the device is and how to reach it; @desc->ops and
 *	@desc->priv must stay valid until ipuxcom_device_unregister()
 *	returns, the rest is copied
 *
 * Gives the device the next free id (ids are allocated cyclically, so an
 * id freed by an unregister is not handed to the next device at once) and
 * publishes it: from here userspace can find and attach it, and the
 * backend's ops may be called. The capabilities are @desc->capabilities
 * (0: all the core offers), limited to what the core implements.
 *
 * Context: process context, may sleep; no lock of the module held.
 * Return: the device, for ipuxcom_device_unregister(); ERR_PTR(-EINVAL)
 * for a @desc that is incomplete or inconsistent, -ENOMEM, or -ENOSPC
 * when all IPUXCOM_MAX_DEVICES ids are in use.
 */
struct ipuxcom_device *ipuxcom_device_register(const struct ipuxcom_device_desc *desc)
{
	const struct ipuxcom_backend_ops *ops = desc->ops;
	struct ipuxcom_device *dev;
	u32 id;
	int ret;

	bool ipu_driver = desc->flags & IPUXCOM_DESC_IPU_DRIVER;

	/*
	 * A device held through ipu_driver is attached and reset by its
	 * owner there, so it has no attach or reset of its own, and its
	 * registers are the holder's windows (the windows_* ops); any other
	 * device must have attach and reset to be loadable, and no windows.
	 */
	if (!ops || !ops->bar_read || !ops->bar_write ||
	    (desc->flags & ~IPUXCOM_DESC_IPU_DRIVER) ||
	    (ipu_driver && (!desc->parent || ops->buffer_attach || ops->reset ||
			    !ops->windows_check || !ops->windows_map || !ops->windows_unmap)) ||
	    (!ipu_driver && (!ops->buffer_attach || !ops->reset || ops->windows_check ||
			     ops->windows_map || ops->windows_unmap)) ||
	    !ops->buffer_attach != !ops->buffer_detach || !desc->backend ||
	    strlen(desc->backend) >= IPUXCOM_BACKEND_NAME_LEN ||
	    !desc->tile_count || !desc->config_bar_size ||
	    !IS_ALIGNED(desc->config_bar_size, 4))
		return ERR_PTR(-EINVAL);

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	kref_init(&dev->ref);
	init_rwsem(&dev->ops_lock);
	mutex_init(&dev->op_lock);
	mutex_init(&dev->lock);
	strscpy(dev->backend, desc->backend, sizeof(dev->backend));
	dev->tile_count = desc->tile_count;
	dev->config_bar_size = desc->config_bar_size;
	dev->parent = desc->parent;
	dev->ipu_driver = ipu_driver;
	/*
	 * A backend cannot offer more than the core implements; how the
	 * device is held is the registration's flag, not a capability.
	 */
	dev->capabilities = (desc->capabilities ?: IPUXCOM_MODULE_CAPS) & IPUXCOM_MODULE_CAPS;
	if (ipu_driver)
		dev->capabilities |= IPUXCOM_CAP_IPU_DRIVER;
	dev->ops = ops;
	dev->priv = desc->priv;
	dev->state = IPUXCOM_DEV_STATE_IDLE;

	/*
	 * Reserve the id first (a reserved slot is invisible to lookups), so
	 * the device is published only once dev->id is right.
	 */
	ret = xa_alloc_cyclic(&ipuxcom_devices, &id, NULL,
			      XA_LIMIT(0, IPUXCOM_MAX_DEVICES - 1), &ipuxcom_next_id,
			      GFP_KERNEL);
	/* 1: allocated after wrapping around, as good as 0 */
	if (ret < 0) {
		mutex_destroy(&dev->op_lock);
		mutex_destroy(&dev->lock);
		kfree(dev);
		return ERR_PTR(ret == -EBUSY ? -ENOSPC : ret);
	}
	dev->id = id;
	atomic_inc(&ipuxcom_ndevices);
	xa_store(&ipuxcom_devices, id, dev, GFP_KERNEL);
	pr_debug("device %u registered (backend %s, %u tiles)\n",
		 id, dev->backend, dev->tile_count);
	if (ipuxcom_hooks && ipuxcom_hooks->added)
		ipuxcom_hooks->added(dev);
	return dev;
}
EXPORT_SYMBOL_GPL(ipuxcom_device_register);

/**
 * ipuxcom_device_unregister() - take a device away from userspace
 * @dev: a device ipuxcom_device_register() returned, not yet unregistered
 *
 * Ends the bounded waits in flight early, waits for every backend call in
 * flight, releases the host buffers pinned for the device and detaches the
 * backend. Files still attached get -ENODEV from then on and free the
 * device when they close.
 *
 * Context: process context, may sleep; must not be called from a backend
 * op of @dev or with a lock a backend op takes.
 * Return: nothing; once it returns no op of @dev is running or will be
 * called again, so the backend may free its private data.
 */
void ipuxcom_device_unregister(struct ipuxcom_device *dev)
{
	xa_erase(&ipuxcom_devices, dev->id);
	atomic_dec(&ipuxcom_ndevices);

	/* Bounded waits in flight see this and end early. */
	WRITE_ONCE(dev->dying, true);
	/* Waits for every backend call in flight; none starts afterwards. */
	down_write(&dev->ops_lock);
	if (ipuxcom_hooks && ipuxcom_hooks->detach)
		ipuxcom_hooks->detach(dev);
	dev->ops = NULL;
	dev->priv = NULL;
	up_write(&dev->ops_lock);

	mutex_lock(&dev->lock);
	dev->state = IPUXCOM_DEV_STATE_GONE;
	mutex_unlock(&dev->lock);

	pr_debug("device %u unregistered\n", dev->id);
	if (ipuxcom_hooks && ipuxcom_hooks->removed)
		ipuxcom_hooks->removed(dev);
	ipuxcom_device_put(dev);
}
EXPORT_SYMBOL_GPL(ipuxcom_device_unregister);

/**
 * ipuxcom_device_id() - the id userspace names a device by
 * @dev: a registered device
 *
 * Context: any; @dev must not be unregistered concurrently.
 * Return: the id (0 .. IPUXCOM_MAX_DEVICES - 1), as in ATTACH and netlink.
 */
u32 ipuxcom_device_id(const struct ipuxcom_device *dev)
{
	return dev->id;
}
EXPORT_SYMBOL_GPL(ipuxcom_device_id);
