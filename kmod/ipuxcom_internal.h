/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * State shared by the files of ipuxcom.ko: devices, open files, and the
 * entry points each mechanism file provides to the core.
 *
 * Lock order, outermost first (the one place it is written down):
 *
 *   a user's mmap_lock (a page fault, GUP, mmap: the caller's own, or
 *       any other thread's of its process)
 *     ipuxcom_file.lock (ATTACH, close)
 *       [removal: the PCI function's device_lock, then ipuxcom_hw's
 *        hw_lock; the simulator's sim_devices_lock]
 *       ipuxcom_device.op_lock (one command sequence at a time)
 *         ipuxcom_device.ops_lock (read: a backend call; write:
 *             unregister)
 *           the backend's own lock (the simulator's sim_device.lock)
 *           ipuxcom_device.lock (the fields it protects, briefly)
 *   genetlink's cb_lock (around our handlers): ipuxcom_device.lock only
 *
 * So nothing under op_lock, ops_lock or the removal locks touches user
 * memory (commands stage it: struct ipuxcom_payload), takes an mmap_lock
 * or waits on a page fault: hostbuf.c pins with no lock held and charges
 * and uncharges with atomic counters, never account_locked_vm(). A user
 * can stall its mmap_lock for as long as it likes (a FUSE READ never
 * answered, under a long-term pin), and removal, close and RESET would
 * sleep on it, with device_lock and hw_lock held, holding up every PCI
 * bind and unbind of the system. ipuxcom_device_lockdep_prime() tells
 * lockdep the first edge (mmap_lock before op_lock, ops_lock and lock),
 * so that any path that inverts it is reported in the debug lane.
 */
#ifndef IPUXCOM_INTERNAL_H
#define IPUXCOM_INTERNAL_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/uidgid.h>
#include <linux/ipuxcom.h>

#include "ipuxcom_backend.h"

/* Device ids are 0 .. IPUXCOM_MAX_DEVICES - 1. */
#define IPUXCOM_MAX_DEVICES	256

struct file;
struct mm_struct;
struct user_struct;
struct pid;
struct ipuxcom_file;

/* Where the load-completion transition is (HOSTX_SETUP BEGIN / COMMIT). */
enum ipuxcom_hostx_stage {
	IPUXCOM_HOSTX_NONE = 0,
	IPUXCOM_HOSTX_ATTACHING,	/* after BEGIN: pages being attached */
	IPUXCOM_HOSTX_READY,		/* after COMMIT: calls can run */
};

/**
 * struct ipuxcom_exch_sel - an exchange-window write the caller is storing
 *	through /dev/ipuN_ex (EXCH_WRITE SELECT, then COMPLETE)
 * @active: SELECT done, COMPLETE not yet
 * @tile: logical tile selected
 * @addr: tile SRAM address of the store
 * @bytes: length of the store
 * @saved: EXCHWINDOWBASER before SELECT, restored by COMPLETE
 */
struct ipuxcom_exch_sel {
	bool active;
	u32 tile;
	u32 addr;
	u32 bytes;
	u32 saved;
};

/**
 * struct ipuxcom_pin_charge - to whom a pinned host buffer is charged
 * @user: the user whose RLIMIT_MEMLOCK budget (locked_vm) carries the
 *	pages, a reference held; NULL where the pinner had CAP_IPC_LOCK
 * @mm: the address space whose VmPin (pinned_vm) shows them, a reference
 *	held (mmgrab: the struct only, not the address space)
 */
struct ipuxcom_pin_charge {
	struct user_struct *user;
	struct mm_struct *mm;
};

/**
 * struct ipuxcom_device - one registered device
 * @ref: held by the registry until unregistered, and by each attached file
 * @id: registry index, the id userspace names the device by
 * @backend: backend name (NUL-terminated)
 * @tile_count: from the registration
 * @config_bar_size: from the registration
 * @parent: from the registration (the PCI function of a card)
 * @ipu_driver: held through ipu_driver (IPUXCOM_DESC_IPU_DRIVER)
 * @capabilities: IPUXCOM_CAP_* the backend serves
 * @ops_lock: read-held around every backend call, write-held once by
 *	unregister to clear @ops; so "ops != NULL" under the read lock means
 *	the backend is still there for the whole call
 * @ops: backend operations; NULL once unregistered
 * @priv: backend cookie; NULL once unregistered
 * @dying: set when unregister starts, so bounded waits end at once
 * @lockdep_primed: ipuxcom_device_lockdep_prime() has run for the device
 * @op_lock: serialises command sequences on the device (taken before
 *	@ops_lock); everything below @state is protected by it
 * @lock: protects @owner, @owner_pid, @ipu_node, @state, @user and
 *	@has_user
 * @owner: the open file attached to the device, or NULL
 * @owner_pid: thread group of the process that attached
 * @ipu_node: for a device held through ipu_driver, the name of the node
 *	the attached session gave (display only); empty while none is
 * @state: enum ipuxcom_dev_state
 * @user: the user (effective uid of its opener) of the last file that
 *	attached, whose work the device holds; valid when @has_user
 * @has_user: a file has attached since the device was registered
 * @user_changed: a file of a user other than @user attached to a device
 *	not held through ipu_driver: until a RESET succeeds, every device
 *	command but RESET fails with -EBADFD (set at ATTACH under @lock,
 *	cleared by RESET under op_lock). Never set for a card, whose
 *	isolation boundary is ipu_driver's node permission (uapi, struct
 *	ipuxcom_ioc_attach)
 * @buf: pinned host buffers by slot (BUF_ATTACH); slot 0 is the loader's
 *	transport buffer, 1 + i host-exchange page i. Changed under op_lock
 *	and @lock; released by unregister under the write side of @ops_lock
 * @buf_charge: to whom each @buf is charged (hostbuf.c)
 * @buf_used: bit i set when @buf[i] is attached
 * @hostx_stage: enum ipuxcom_hostx_stage
 * @hostx_req: the HOSTX_SETUP of BEGIN, which COMMIT must repeat
 * @hostx_next: host pages attached since BEGIN
 * @exch: exchange-window write in progress through /dev/ipuN_ex
 * @cmd_deadline: ktime (ns) by which the running command's waits end
 * @xbuf_dirty: bytes from the start of buffer 0 that may be non-zero beyond
 *	what the current batch describes (the largest batch extent since the
 *	last clear, or the whole buffer after the 0xff release fill)
 * @next_batch: next LOAD_BATCH expected
 * @saved_ccsr: PCI_COMPLEX.CCSR before loading, restored by LOAD_FINISH
 */
struct ipuxcom_device {
	struct kref ref;
	u32 id;
	char backend[IPUXCOM_BACKEND_NAME_LEN];
	u32 tile_count;
	u32 config_bar_size;
	struct device *parent;
	bool ipu_driver;
	u64 capabilities;

	struct rw_semaphore ops_lock;
	const struct ipuxcom_backend_ops *ops;
	void *priv;

	bool dying;
	bool lockdep_primed;
	struct mutex op_lock; /* command sequences */

	struct mutex lock; /* owner, owner_pid, state, user */
	struct ipuxcom_file *owner;
	struct pid *owner_pid;
	char ipu_node[IPUXCOM_IPU_NODE_LEN];
	u32 state;
	kuid_t user;
	bool has_user;
	bool user_changed;

	struct ipuxcom_host_buf buf[IPUXCOM_SLOTS];
	struct ipuxcom_pin_charge buf_charge[IPUXCOM_SLOTS];
	u32 buf_used;
	u32 hostx_stage;
	struct ipuxcom_ioc_hostx_setup hostx_req;
	u32 hostx_next;
	struct ipuxcom_exch_sel exch;
	u64 cmd_deadline;
	u64 xbuf_dirty;
	u32 next_batch;
	u32 saved_ccsr;
};

/* What the module offers (INFO), and the default for a backend. */
#define IPUXCOM_MODULE_CAPS						\
	(IPUXCOM_CAP_ATTACH | IPUXCOM_CAP_REG | IPUXCOM_CAP_RESET |	\
	 IPUXCOM_CAP_NETLINK | IPUXCOM_CAP_CFG | IPUXCOM_CAP_AUTOLOAD |	\
	 IPUXCOM_CAP_LOADER | IPUXCOM_CAP_HSP | IPUXCOM_CAP_TDI |	\
	 IPUXCOM_CAP_HOSTX | IPUXCOM_CAP_EXCH_WINDOW)

/**
 * struct ipuxcom_registry_hooks - what the registry tells the core of a
 *	device's arrival and removal; each member may be NULL
 * @added: the device was published (lookups find it); no lock held
 * @detach: unregister has begun: no backend call is in flight and none
 *	can start (ops_lock is write-held), but the backend is still there;
 *	release everything that uses it. Must not take op_lock or ops_lock
 *	nor touch user memory
 * @removed: the device is GONE and its backend detached; no lock held
 */
struct ipuxcom_registry_hooks {
	void (*added)(struct ipuxcom_device *dev);
	void (*detach)(struct ipuxcom_device *dev);
	void (*removed)(struct ipuxcom_device *dev);
};

/* registry.c */
void ipuxcom_registry_set_hooks(const struct ipuxcom_registry_hooks *hooks);
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
void ipuxcom_device_lockdep_prime(struct ipuxcom_device *dev);

/**
 * struct ipuxcom_dev_snapshot - a consistent view of a device for reporting
 * @id: device id
 * @state: enum ipuxcom_dev_state
 * @attached: a file is attached
 * @attached_pid: attaching process in the caller's pid namespace, 0 if none
 * @tile_count: tiles
 * @config_bar_size: config-BAR bytes
 * @backend: backend name
 * @capabilities: IPUXCOM_CAP_* of the device
 * @ipu_node: the ipu_driver node the attached session holds the device
 *	by ("ipu0"), or empty
 */
struct ipuxcom_dev_snapshot {
	u32 id;
	u32 state;
	u32 attached;
	u32 attached_pid;
	u32 tile_count;
	u32 config_bar_size;
	char backend[IPUXCOM_BACKEND_NAME_LEN];
	u64 capabilities;
	char ipu_node[IPUXCOM_IPU_NODE_LEN];
};

void ipuxcom_device_snapshot(struct ipuxcom_device *dev,
			     struct ipuxcom_dev_snapshot *snap);

/* devio.c: register access and bounded waits for the mechanisms */
int ipuxcom_rd(struct ipuxcom_device *dev, u32 offset, u32 *value);
int ipuxcom_wr(struct ipuxcom_device *dev, u32 offset, u32 value);
int ipuxcom_poll(struct ipuxcom_device *dev, u32 offset, u32 mask, u32 want,
		 u64 timeout_ns, u32 *last);
int ipuxcom_poll_ne(struct ipuxcom_device *dev, u32 offset, u32 mask, u32 unwanted,
		    u64 timeout_ns, u32 *last);
u64 ipuxcom_timeout(u64 requested_ns, u64 default_ns);
u32 ipuxcom_state(struct ipuxcom_device *dev);
void ipuxcom_set_state(struct ipuxcom_device *dev, u32 state);
int ipuxcom_require_state(struct ipuxcom_device *dev, u32 state_mask);
int ipuxcom_hsp_mark(struct ipuxcom_device *dev, u32 reg, u32 mark, bool wait,
		     u64 timeout_ns, u32 *final_mark);
int ipuxcom_hsp_check_idle(struct ipuxcom_device *dev, u32 reg, u32 *mark);
int ipuxcom_select_hexopt(struct ipuxcom_device *dev);
int ipuxcom_exch_window(struct ipuxcom_device *dev, u32 value);

#define IPUXCOM_STATE_BIT(s)	BIT(IPUXCOM_DEV_STATE_##s)

/**
 * struct ipuxcom_payload - the user memory a command reads or fills,
 *	staged in kernel memory so that no user copy happens while the
 *	command holds the device's locks (a stalled page fault, say on a
 *	userfaultfd or FUSE page, must not hold up device removal)
 * @uptr: the user buffer
 * @copy_in: bytes copied from @uptr into @kbuf before the command
 * @len: bytes of @kbuf (zeroed beyond @copy_in); at most
 *	IPUXCOM_PAYLOAD_MAX, charged to the caller's memory cgroup
 * @out: after the command, @done bytes of @kbuf go back to @uptr
 * @done: bytes the command produced (@out)
 * @progress: if set, an output member counting @unit-byte items, set to
 *	what actually reached the user buffer
 * @unit: bytes per @progress item
 * @kbuf: the kernel copy; the command handler's to read or fill
 */
struct ipuxcom_payload {
	void __user *uptr;
	size_t copy_in;
	size_t len;
	bool out;
	size_t done;
	u32 *progress;
	u32 unit;
	void *kbuf;
};

/* Largest staged payload: CFG_APPLY's 65536 records of 8 bytes. */
#define IPUXCOM_PAYLOAD_MAX	(IPUXCOM_CFG_MAX_RECORDS * sizeof(struct ipuxcom_cfg_record))

/*
 * The total of all waits of one command, in ns: each wait is bounded by
 * its timeout_ns, and a command never waits longer than this in all (a
 * HOSTX_CALL of many phases, a TDI transfer of many words). The module
 * parameter cmd_wait_max_ms (devio.c), IPUXCOM_CMD_TOTAL_WAIT_MAX_NS by
 * default and never above it.
 */
u64 ipuxcom_cmd_wait_max_ns(void);

/*
 * Command handlers, one file per mechanism. @dev is the attached device,
 * entered (ops valid) and with op_lock held; @arg the zero-extended
 * kernel copy of the command's struct.
 */
int ipuxcom_cmd_reg_read(struct ipuxcom_device *dev, void *arg);
int ipuxcom_cmd_reg_write(struct ipuxcom_device *dev, void *arg);
int ipuxcom_cmd_cfg_apply(struct ipuxcom_device *dev, void *arg,
			  struct ipuxcom_payload *pl);
int ipuxcom_cmd_autoload(struct ipuxcom_device *dev, void *arg,
			 struct ipuxcom_payload *pl);
int ipuxcom_cmd_load_batch(struct ipuxcom_device *dev, void *arg);
int ipuxcom_cmd_load_finish(struct ipuxcom_device *dev, void *arg);
int ipuxcom_cmd_hsp_mark(struct ipuxcom_device *dev, void *arg);
int ipuxcom_cmd_tdi_read_regs(struct ipuxcom_device *dev, void *arg);
int ipuxcom_cmd_tdi_exec(struct ipuxcom_device *dev, void *arg);
int ipuxcom_cmd_tdi_read_sram(struct ipuxcom_device *dev, void *arg,
			      struct ipuxcom_payload *pl);
int ipuxcom_cmd_tdi_write_sram(struct ipuxcom_device *dev, void *arg,
			       struct ipuxcom_payload *pl);
int ipuxcom_cmd_hostx_setup(struct ipuxcom_device *dev, void *arg);
int ipuxcom_cmd_hostx_call(struct ipuxcom_device *dev, void *arg);
int ipuxcom_cmd_exch_write(struct ipuxcom_device *dev, void *arg,
			   struct ipuxcom_payload *pl);

/*
 * Payload sizers, called before any lock: validate what decides the size
 * and describe the user memory (kmod/<mechanism>.c).
 */
int ipuxcom_autoload_payload(void *arg, struct ipuxcom_payload *pl);
int ipuxcom_cfg_payload(void *arg, struct ipuxcom_payload *pl);
int ipuxcom_tdi_read_payload(void *arg, struct ipuxcom_payload *pl);
int ipuxcom_tdi_write_payload(void *arg, struct ipuxcom_payload *pl);
int ipuxcom_exch_payload(void *arg, struct ipuxcom_payload *pl);

/* exchwin.c: -EBUSY while an EXCH_WRITE SELECT awaits its COMPLETE */
int ipuxcom_exch_busy(struct ipuxcom_device *dev);

/*
 * hostbuf.c: the caller's pinned host buffers. ipuxcom_buf_attach() is
 * called with no lock held (it pins, then takes op_lock and enters the
 * device); the others with the backend registered (op_lock held and
 * entered, or from unregister).
 */
int ipuxcom_buf_attach(struct ipuxcom_device *dev, struct ipuxcom_ioc_buf *ba);
int ipuxcom_buf_detach(struct ipuxcom_device *dev, struct ipuxcom_ioc_buf *ba);
struct ipuxcom_host_buf *ipuxcom_buf(struct ipuxcom_device *dev, u32 slot);
void ipuxcom_buf_release(struct ipuxcom_device *dev, u32 slot);
void ipuxcom_buf_release_all(struct ipuxcom_device *dev);

/* ipunode.c: the holder's ipu_driver nodes and mappings of a card */
int ipuxcom_ipu_window(struct file *file, u64 uaddr, u64 len, phys_addr_t *phys);
void ipuxcom_ipu_file_name(struct file *file, char *name, size_t len);

/* netlink.c */
int ipuxcom_netlink_init(void);
void ipuxcom_netlink_exit(void);
/* Events on the "events" multicast group; cheap when nobody listens. */
void ipuxcom_netlink_state(struct ipuxcom_device *dev, u32 old, u32 state);
void ipuxcom_netlink_progress(struct ipuxcom_device *dev, u32 batches_done, u64 bytes);
void ipuxcom_netlink_timeout(struct ipuxcom_device *dev, u32 offset, u32 value, int err);
void ipuxcom_netlink_device(struct ipuxcom_device *dev, bool added);
void ipuxcom_netlink_reset(struct ipuxcom_device *dev, int err);

#endif /* IPUXCOM_INTERNAL_H */
