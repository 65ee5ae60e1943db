/* SPDX-License-Identifier: GPL-2.0 */
/*
 * State shared by the files of ipuxcom.ko: devices, open files, and the
 * entry points each mechanism file provides to the core.
 */
#ifndef IPUXCOM_INTERNAL_H
#define IPUXCOM_INTERNAL_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/ipuxcom.h>

#include "ipuxcom_backend.h"

/* Device ids are 0 .. IPUXCOM_MAX_DEVICES - 1. */
#define IPUXCOM_MAX_DEVICES	256

struct pid;
struct ipuxcom_file;

/**
 * struct ipuxcom_device - one registered device
 * @ref: held by the registry until unregistered, and by each attached file
 * @id: registry index, the id userspace names the device by
 * @backend: backend name (NUL-terminated)
 * @tile_count: from the registration
 * @config_bar_size: from the registration
 * @parent: from the registration, for logging
 * @ops_lock: read-held around every backend call, write-held once by
 *	unregister to clear @ops; so "ops != NULL" under the read lock means
 *	the backend is still there for the whole call
 * @ops: backend operations; NULL once unregistered
 * @priv: backend cookie; NULL once unregistered
 * @lock: protects @owner, @owner_pid and @state
 * @owner: the open file attached to the device, or NULL
 * @owner_pid: thread group of the process that attached
 * @state: enum ipuxcom_dev_state
 */
struct ipuxcom_device {
	struct kref ref;
	u32 id;
	char backend[IPUXCOM_BACKEND_NAME_LEN];
	u32 tile_count;
	u32 config_bar_size;
	struct device *parent;

	struct rw_semaphore ops_lock;
	const struct ipuxcom_backend_ops *ops;
	void *priv;

	struct mutex lock; /* owner, owner_pid, state */
	struct ipuxcom_file *owner;
	struct pid *owner_pid;
	u32 state;
};

/* registry.c */
struct ipuxcom_device *ipuxcom_device_get_by_id(u32 id);
struct ipuxcom_device *ipuxcom_device_get_next(unsigned long *index);
void ipuxcom_device_put(struct ipuxcom_device *dev);
u32 ipuxcom_device_count(void);
bool ipuxcom_registry_empty(void);

/*
 * Bracket a backend call: ipuxcom_device_enter() returns 0 with ops_lock
 * read-held, -ENODEV if the device was unregistered, -EINTR if killed while
 * waiting for an unregister in progress.
 */
int ipuxcom_device_enter(struct ipuxcom_device *dev);
void ipuxcom_device_exit(struct ipuxcom_device *dev);

/**
 * struct ipuxcom_dev_snapshot - a consistent view of a device for reporting
 * @id: device id
 * @state: enum ipuxcom_dev_state
 * @attached_pid: attaching process in the caller's pid namespace, 0 if none
 * @tile_count: tiles
 * @config_bar_size: config-BAR bytes
 * @backend: backend name
 */
struct ipuxcom_dev_snapshot {
	u32 id;
	u32 state;
	u32 attached_pid;
	u32 tile_count;
	u32 config_bar_size;
	char backend[IPUXCOM_BACKEND_NAME_LEN];
};

void ipuxcom_device_snapshot(struct ipuxcom_device *dev,
			     struct ipuxcom_dev_snapshot *snap);

/* netlink.c */
int ipuxcom_netlink_init(void);
void ipuxcom_netlink_exit(void);

#endif /* IPUXCOM_INTERNAL_H */
