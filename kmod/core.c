// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom core: the /dev/ipuxcom misc device, per-open-file state and the
 * ioctl dispatch table.
 *
 * Dispatch follows drivers/fwctl/main.c: every command is _IO(magic, nr)
 * and its struct announces its own size in its first member, so structs can
 * grow. The table gives each command its struct size, the minimum size any
 * caller may pass, and the flags it accepts; the dispatcher does all size,
 * tail and flag checks once, and handlers see a zero-extended kernel copy.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "ipuxcom_abi_layout.h"
#include "ipuxcom_internal.h"

/* Config BAR of a C600: mmap(/dev/ipuN, 0, 0x80000) [RE, HW-CFG-MAP]. */
#define IPUXCOM_MAX_CONFIG_BAR	0x80000

/**
 * struct ipuxcom_file - state of one open file description
 * @lock: serialises ATTACH against itself
 * @dev: attached device (holds a reference), or NULL; set once, then
 *	stable until release, so handlers read it without @lock
 * @ipu_file: for a device held through ipu_driver, the caller's open
 *	/dev/ipuN (a reference, dropped at release) whose mapping ATTACH
 *	resolved: the ipu_driver session that entitles this one outlives it
 * @user: the effective uid this file was opened with (its f_cred), the
 *	"user" of the owner-change rule (uapi, struct ipuxcom_ioc_attach)
 */
struct ipuxcom_file {
	struct mutex lock; /* serialises ATTACH on this file */
	struct ipuxcom_device *dev;
	struct file *ipu_file;
	kuid_t user;
};

struct ipuxcom_ioc_header {
	__u32 size;
	__u32 flags;
};

union ipuxcom_ioc_any {
	struct ipuxcom_ioc_header hdr;
	struct ipuxcom_ioc_info info;
	struct ipuxcom_ioc_attach attach;
	struct ipuxcom_ioc_dev_query dev_query;
	struct ipuxcom_ioc_reg reg;
	struct ipuxcom_ioc_reset reset;
	struct ipuxcom_ioc_cfg_apply cfg_apply;
	struct ipuxcom_ioc_autoload autoload;
	struct ipuxcom_ioc_buf buf;
	struct ipuxcom_ioc_load_batch load_batch;
	struct ipuxcom_ioc_load_finish load_finish;
	struct ipuxcom_ioc_hsp_mark hsp_mark;
	struct ipuxcom_ioc_tdi_regs tdi_regs;
	struct ipuxcom_ioc_tdi_exec tdi_exec;
	struct ipuxcom_ioc_tdi_sram tdi_sram;
	struct ipuxcom_ioc_hostx_setup hostx_setup;
	struct ipuxcom_ioc_hostx_call hostx_call;
	struct ipuxcom_ioc_exch_write exch_write;
};

/* What a command needs before its handler runs (ipuxcom_ioctl_op.needs). */
enum {
	/*
	 * Without a flag a device command runs attached, with no locks held
	 * (DEV_QUERY); with this one, op_lock held and inside
	 * ipuxcom_device_enter()
	 */
	IPUXCOM_NEEDS_DEVICE = BIT(1),
	IPUXCOM_NEEDS_RAWIO = BIT(2),
	/* copy the struct back even when the handler fails (diagnostics) */
	IPUXCOM_OUT_ON_ERROR = BIT(3),
	/*
	 * ... and even when the device went away or a signal came: the
	 * struct reports progress the caller must not lose (words already
	 * in its buffer)
	 */
	IPUXCOM_OUT_ALWAYS = BIT(4),
	/*
	 * runs while another user's work is on the device (dev->user_changed):
	 * RESET, the way out; every other device command gets -EBADFD then
	 */
	IPUXCOM_ANY_USER = BIT(5),
};

struct ipuxcom_ioctl_op {
	u32 size;
	u32 min_size;
	u32 valid_flags;
	u32 needs;
	u64 cap;	/* IPUXCOM_CAP_* the device must have; 0: none */
	int (*file_handler)(struct ipuxcom_file *f, union ipuxcom_ioc_any *arg);
	int (*dev_handler)(struct ipuxcom_device *dev, void *arg);
	/* commands that move user data: sized before, staged around the locks */
	int (*payload)(void *arg, struct ipuxcom_payload *pl);
	int (*pl_handler)(struct ipuxcom_device *dev, void *arg, struct ipuxcom_payload *pl);
};

static struct ipuxcom_device *ipuxcom_file_dev(struct ipuxcom_file *f)
{
	/* Pairs with smp_store_release() in ipuxcom_ioc_attach(). */
	return smp_load_acquire(&f->dev);
}

static int ipuxcom_ioc_info(struct ipuxcom_file *f, union ipuxcom_ioc_any *arg)
{
	struct ipuxcom_ioc_info *info = &arg->info;

	if (info->reserved)
		return -EINVAL;
	/* Every other member after flags is an output: overwrite all of them. */
	info->uapi_version = IPUXCOM_UAPI_VERSION;
	info->device_count = ipuxcom_device_count();
	info->capabilities = IPUXCOM_MODULE_CAPS;
	info->max_config_bar = IPUXCOM_MAX_CONFIG_BAR;
	info->reserved = 0;
	return 0;
}

/**
 * struct ipuxcom_attach_ctx - what ATTACH resolved before any lock
 * @ipu: the caller's /dev/ipuN (a reference), or NULL
 * @ex: the caller's /dev/ipuN_ex (a reference), or NULL
 * @w: the physical ranges their mappings reach
 */
struct ipuxcom_attach_ctx {
	struct file *ipu;
	struct file *ex;
	struct ipuxcom_windows w;
};

static void ipuxcom_attach_ctx_put(struct ipuxcom_attach_ctx *c)
{
	if (c->ipu)
		fput(c->ipu);
	if (c->ex)
		fput(c->ex);
}

/*
 * The descriptor @fd (-EBADF if not open) and the window its mapping at
 * @uaddr reaches (-EINVAL for no mapping).
 */
static int ipuxcom_attach_window(s32 fd, u64 uaddr, u64 len, struct file **filep,
				 phys_addr_t *phys)
{
	*filep = fget(fd);
	if (!*filep)
		return -EBADF;
	if (!uaddr || !len)
		return -EINVAL;
	return ipuxcom_ipu_window(*filep, uaddr, len, phys);
}

/*
 * The members of @at checked, and the holder's mappings resolved: with
 * no lock of the module held, as this sleeps on the caller's mmap_lock.
 */
static int ipuxcom_attach_resolve(const struct ipuxcom_ioc_attach *at,
				  struct ipuxcom_attach_ctx *c)
{
	bool has_ipu = at->flags & IPUXCOM_ATTACH_F_IPU_FD;
	bool has_ex = at->flags & IPUXCOM_ATTACH_F_EX_FD;
	int ret;

	memset(c, 0, sizeof(*c));
	if (at->reserved)
		return -EINVAL;
	if (!has_ex && (at->ex_map || at->ex_map_len || at->ex_fd))
		return -EINVAL;
	if (!has_ipu)
		return at->flags || at->ipu_fd || at->cfg_map ? -EINVAL : 0;
	ret = ipuxcom_attach_window(at->ipu_fd, at->cfg_map, IPUXCOM_IPU_CFG_MAP_BYTES,
				    &c->ipu, &c->w.cfg);
	if (ret)
		return ret;
	c->w.cfg_len = IPUXCOM_IPU_CFG_MAP_BYTES;
	if (!has_ex)
		return 0;
	ret = ipuxcom_attach_window(at->ex_fd, at->ex_map, at->ex_map_len, &c->ex, &c->w.ex);
	if (!ret)
		c->w.ex_len = at->ex_map_len;
	return ret;
}

/*
 * Bind @f to @dev (dev->lock held, entered if it is held through
 * ipu_driver): the holder's config window is mapped for the session.
 */
static int ipuxcom_attach_owner(struct ipuxcom_file *f, struct ipuxcom_device *dev,
				const struct ipuxcom_attach_ctx *c)
{
	bool changed;
	int ret;

	lockdep_assert_held(&dev->lock);
	if (dev->state == IPUXCOM_DEV_STATE_GONE)
		return -ENODEV;
	if (dev->owner)
		return -EBUSY;
	if (dev->ipu_driver) {
		ret = dev->ops->windows_map(dev->priv, &c->w);
		if (ret)
			return ret;
		ipuxcom_ipu_file_name(c->ipu, dev->ipu_node, sizeof(dev->ipu_node));
	}
	dev->owner = f;
	put_pid(dev->owner_pid);
	dev->owner_pid = get_task_pid(current, PIDTYPE_TGID);
	/*
	 * The owner-change rule of a simulated device: what it holds is the
	 * last attached user's; another user gets it only through RESET.
	 * Nobody runs a command on it now (no owner until here, f->dev not
	 * yet published). A card has no such gate (uapi, struct
	 * ipuxcom_ioc_attach): its holder reaches every register, TDI
	 * included, through ipu_driver's mapping without us.
	 */
	changed = !dev->ipu_driver && dev->has_user && !uid_eq(dev->user, f->user);
	if (changed)
		WRITE_ONCE(dev->user_changed, true);
	dev->user = f->user;
	dev->has_user = true;
	return changed ? 1 : 0;
}

static int ipuxcom_ioc_attach(struct ipuxcom_file *f, union ipuxcom_ioc_any *arg)
{
	struct ipuxcom_ioc_attach *at = &arg->attach;
	bool probe = at->flags & IPUXCOM_ATTACH_F_PROBE;
	struct ipuxcom_attach_ctx c;
	struct ipuxcom_device *dev;
	int ret;

	if (probe && !(at->flags & IPUXCOM_ATTACH_F_IPU_FD))
		return -EINVAL;
	ret = ipuxcom_attach_resolve(at, &c);
	if (ret)
		goto out_put;

	mutex_lock(&f->lock);
	if (f->dev && !probe) {
		ret = -EALREADY;
		goto out_unlock_file;
	}
	dev = ipuxcom_device_get_by_id(at->dev_id);
	if (!dev) {
		ret = -ENODEV;
		goto out_unlock_file;
	}
	if (!dev->ipu_driver) {
		/* the simulator takes no descriptor, and needs none */
		if (c.ipu) {
			ret = -EINVAL;
			goto out_put_dev;
		}
		mutex_lock(&dev->lock);
		ret = ipuxcom_attach_owner(f, dev, &c);
		mutex_unlock(&dev->lock);
	} else if (!c.ipu) {
		ret = -EACCES;
		goto out_put_dev;
	} else {
		ret = ipuxcom_device_enter(dev);
		if (ret)
			goto out_put_dev;
		/* whose windows are these? nothing is touched to tell */
		ret = dev->ops->windows_check(dev->priv, &c.w);
		if (!ret && !probe) {
			mutex_lock(&dev->lock);
			ret = ipuxcom_attach_owner(f, dev, &c);
			mutex_unlock(&dev->lock);
		}
		ipuxcom_device_exit(dev);
		if (probe)
			goto out_put_dev;
	}
	if (ret < 0)
		goto out_put_dev;
	if (ret > 0)
		ipuxcom_set_state(dev, IPUXCOM_DEV_STATE_NEEDS_RESET);
	ret = 0;
	/* The file keeps the lookup's reference, and @c.ipu, until released. */
	f->ipu_file = c.ipu;
	c.ipu = NULL;
	/* Publish f->dev last: pairs with ipuxcom_file_dev()'s acquire. */
	smp_store_release(&f->dev, dev);
	goto out_unlock_file;

out_put_dev:
	ipuxcom_device_put(dev);
out_unlock_file:
	mutex_unlock(&f->lock);
out_put:
	ipuxcom_attach_ctx_put(&c);
	return ret;
}

static int ipuxcom_ioc_dev_query(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_dev_query *q = arg;
	struct ipuxcom_dev_snapshot snap;

	ipuxcom_device_snapshot(dev, &snap);
	if (snap.state == IPUXCOM_DEV_STATE_GONE)
		return -ENODEV;
	q->dev_id = snap.id;
	q->state = snap.state;
	q->tile_count = snap.tile_count;
	q->config_bar_size = snap.config_bar_size;
	q->capabilities = snap.capabilities;
	/* snapshot zero-filled the whole name buffers: no stale bytes leak */
	memcpy(q->backend, snap.backend, sizeof(q->backend));
	memcpy(q->ipu_node, snap.ipu_node, sizeof(q->ipu_node));
	return 0;
}

/*
 * A device held through ipu_driver is reset by its owner there
 * (RESET_DEVICE on /dev/ipuN, HW-DRV-INIT); the module then only returns its
 * own state to IDLE, and says so with IPUXCOM_RESET_F_DRIVER_RESET.
 */
static int ipuxcom_ioc_reset(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_reset *rs = arg;
	bool by_driver = rs->flags & IPUXCOM_RESET_F_DRIVER_RESET;
	int ret = 0;

	if (rs->reserved)
		return -EINVAL;
	if (by_driver != dev->ipu_driver)
		return by_driver ? -EINVAL : -EOPNOTSUPP;
	ipuxcom_buf_release_all(dev);
	dev->exch.active = false;
	if (dev->ops->reset)
		ret = dev->ops->reset(dev->priv);
	dev->next_batch = 0;
	ipuxcom_netlink_reset(dev, ret);
	ipuxcom_set_state(dev, ret ? IPUXCOM_DEV_STATE_NEEDS_RESET :
			  IPUXCOM_DEV_STATE_IDLE);
	/* what another user left is gone with a reset that worked */
	if (!ret)
		WRITE_ONCE(dev->user_changed, false);
	rs->state = ipuxcom_state(dev);
	rs->reserved = 0;
	return ret;
}

/*
 * The capabilities a host-buffer slot may belong to: index 0 is the
 * loader's buffer or, in a host-exchange setup, host page 0 (hostbuf.c
 * decides which under op_lock).
 */
static u64 ipuxcom_buf_cap(u32 slot)
{
	return slot == IPUXCOM_SLOT_LOADER ? IPUXCOM_CAP_LOADER | IPUXCOM_CAP_HOSTX :
	       IPUXCOM_CAP_HOSTX;
}

/* Pins before taking any device lock (hostbuf.c), so not a DEV command. */
static int ipuxcom_ioc_buf_attach(struct ipuxcom_file *f, union ipuxcom_ioc_any *arg)
{
	struct ipuxcom_device *dev = ipuxcom_file_dev(f);

	if (!dev)
		return -ENOTCONN;
	if (!(dev->capabilities & ipuxcom_buf_cap(arg->buf.index)))
		return -EOPNOTSUPP;
	/*
	 * Another user's work on the device: refused before anything is
	 * pinned; hostbuf.c refuses again under op_lock (NEEDS_RESET).
	 */
	if (READ_ONCE(dev->user_changed))
		return -EBADFD;
	/*
	 * The transport buffer carries code for every tile, as AUTOLOAD does:
	 * refused before anything is pinned; hostbuf.c checks again under
	 * op_lock, where index 0 may be host page 0 instead.
	 */
	if (arg->buf.index == IPUXCOM_SLOT_LOADER && !capable(CAP_SYS_RAWIO) &&
	    READ_ONCE(dev->hostx_stage) != IPUXCOM_HOSTX_ATTACHING)
		return -EPERM;
	return ipuxcom_buf_attach(dev, &arg->buf);
}

static int ipuxcom_ioc_buf_detach(struct ipuxcom_device *dev, void *arg)
{
	struct ipuxcom_ioc_buf *ba = arg;

	if (!(dev->capabilities & ipuxcom_buf_cap(ba->index)))
		return -EOPNOTSUPP;
	return ipuxcom_buf_detach(dev, ba);
}

#define IPUXCOM_OP(type, _last, _flags, _needs, _cap)			\
	.size = sizeof(type),							\
	.min_size = offsetofend(type, _last),					\
	.valid_flags = (_flags),						\
	.needs = (_needs),							\
	.cap = (_cap)

#define DEV	IPUXCOM_NEEDS_DEVICE
#define RAWIO	IPUXCOM_NEEDS_RAWIO
#define DIAG	IPUXCOM_OUT_ON_ERROR
#define ALWAYS	IPUXCOM_OUT_ALWAYS
#define ANY_USER	IPUXCOM_ANY_USER
#define CMD(nr, type, last, flags, needs, cap, handler)			\
	[IPUXCOM_CMD_##nr] = {							\
		IPUXCOM_OP(struct ipuxcom_ioc_##type, last, flags, needs,	\
			   IPUXCOM_CAP_##cap),					\
		handler,							\
	}
#define IPUXCOM_CAP_NONE	0
#define FILE_CMD(f)	.file_handler = (f)
#define DEV_CMD(f)	.dev_handler = (f)
#define PL_CMD(f, sizer)	.pl_handler = (f), .payload = (sizer)

/*
 * min_size: the struct as it was when the command was introduced.
 * cap: what the device's backend must offer.
 */
static const struct ipuxcom_ioctl_op ipuxcom_ioctl_ops[] = {
	CMD(INFO, info, reserved, 0, 0, NONE, FILE_CMD(ipuxcom_ioc_info)),
	CMD(ATTACH, attach, ipu_fd,
	    IPUXCOM_ATTACH_F_IPU_FD | IPUXCOM_ATTACH_F_EX_FD | IPUXCOM_ATTACH_F_PROBE, 0, NONE,
	    FILE_CMD(ipuxcom_ioc_attach)),
	CMD(DEV_QUERY, dev_query, backend, 0, 0, NONE,
	    DEV_CMD(ipuxcom_ioc_dev_query)),
	CMD(REG_READ, reg, value, 0, DEV, REG, DEV_CMD(ipuxcom_cmd_reg_read)),
	CMD(REG_WRITE, reg, value, 0, DEV | RAWIO, REG, DEV_CMD(ipuxcom_cmd_reg_write)),
	CMD(RESET, reset, reserved, IPUXCOM_RESET_F_DRIVER_RESET, DEV | ANY_USER, RESET,
	    DEV_CMD(ipuxcom_ioc_reset)),
	CMD(CFG_APPLY, cfg_apply, skipped, IPUXCOM_CFG_F_CLEAR_HSP, DEV | RAWIO | DIAG, CFG,
	    PL_CMD(ipuxcom_cmd_cfg_apply, ipuxcom_cfg_payload)),
	CMD(AUTOLOAD, autoload, reserved, 0, DEV | RAWIO | DIAG, AUTOLOAD,
	    PL_CMD(ipuxcom_cmd_autoload, ipuxcom_autoload_payload)),
	CMD(LOAD_BATCH, load_batch, reserved, 0, DEV | RAWIO | DIAG, LOADER,
	    DEV_CMD(ipuxcom_cmd_load_batch)),
	CMD(LOAD_FINISH, load_finish, stage, 0, DEV | RAWIO | DIAG, LOADER,
	    DEV_CMD(ipuxcom_cmd_load_finish)),
	CMD(HSP_MARK, hsp_mark, reserved, IPUXCOM_HSP_F_WAIT, DEV | RAWIO | DIAG, HSP,
	    DEV_CMD(ipuxcom_cmd_hsp_mark)),
	CMD(TDI_READ_REGS, tdi_regs, regs, 0, DEV, TDI, DEV_CMD(ipuxcom_cmd_tdi_read_regs)),
	CMD(TDI_EXEC, tdi_exec, tdi_sts, IPUXCOM_TDI_F_SET_DATA, DEV | RAWIO | DIAG, TDI,
	    DEV_CMD(ipuxcom_cmd_tdi_exec)),
	CMD(TDI_READ_SRAM, tdi_sram, tdi_sts, 0, DEV | DIAG | ALWAYS, TDI,
	    PL_CMD(ipuxcom_cmd_tdi_read_sram, ipuxcom_tdi_read_payload)),
	CMD(TDI_WRITE_SRAM, tdi_sram, tdi_sts, 0, DEV | RAWIO | DIAG | ALWAYS, TDI,
	    PL_CMD(ipuxcom_cmd_tdi_write_sram, ipuxcom_tdi_write_payload)),
	CMD(HOSTX_SETUP, hostx_setup, reserved2, IPUXCOM_HOSTX_F_BEGIN | IPUXCOM_HOSTX_F_COMMIT,
	    DEV | DIAG, HOSTX,
	    DEV_CMD(ipuxcom_cmd_hostx_setup)),
	CMD(HOSTX_CALL, hostx_call, reserved, 0, DEV | DIAG, HOSTX,
	    DEV_CMD(ipuxcom_cmd_hostx_call)),
	CMD(EXCH_WRITE, exch_write, timeout_ns, IPUXCOM_EXCH_F_SELECT | IPUXCOM_EXCH_F_COMPLETE,
	    DEV | RAWIO | DIAG, EXCH_WINDOW,
	    PL_CMD(ipuxcom_cmd_exch_write, ipuxcom_exch_payload)),
	CMD(BUF_ATTACH, buf, bytes, 0, 0, NONE, FILE_CMD(ipuxcom_ioc_buf_attach)),
	CMD(BUF_DETACH, buf, bytes, 0, DEV, NONE, DEV_CMD(ipuxcom_ioc_buf_detach)),
};

#undef CMD
#undef FILE_CMD
#undef DEV_CMD
#undef PL_CMD
#undef ALWAYS
#undef ANY_USER
#undef IPUXCOM_CAP_NONE
#undef DEV
#undef RAWIO
#undef DIAG

/*
 * Stage a command's user data before any lock is taken (copy in), and
 * hand back what it produced after they are dropped (copy out): user
 * memory is never touched under op_lock or the removal lock.
 */
static int ipuxcom_payload_in(const struct ipuxcom_ioctl_op *op, void *arg,
			      struct ipuxcom_payload *pl)
{
	int ret;

	memset(pl, 0, sizeof(*pl));
	if (!op->payload)
		return 0;
	ret = op->payload(arg, pl);
	if (ret || !pl->len)
		return ret;
	if (WARN_ON_ONCE(pl->len > IPUXCOM_PAYLOAD_MAX || pl->copy_in > pl->len))
		return -EINVAL;
	pl->kbuf = kvzalloc(pl->len, GFP_KERNEL_ACCOUNT);
	if (!pl->kbuf)
		return -ENOMEM;
	if (pl->copy_in && copy_from_user(pl->kbuf, pl->uptr, pl->copy_in))
		return -EFAULT;
	return 0;
}

static int ipuxcom_payload_out(struct ipuxcom_payload *pl, int ret)
{
	size_t copied = 0;

	if (pl->out && pl->done) {
		copied = pl->done - copy_to_user(pl->uptr, pl->kbuf, pl->done);
		if (copied != pl->done)
			ret = ret ?: -EFAULT;
	}
	/* Progress counts what reached the caller's buffer, nothing more. */
	if (pl->progress && pl->out)
		*pl->progress = copied / pl->unit;
	kvfree(pl->kbuf);
	pl->kbuf = NULL;
	return ret;
}

/* Run a device command with what its table entry asks for held. */
static int ipuxcom_run_dev_handler(struct ipuxcom_file *f,
				   const struct ipuxcom_ioctl_op *op, void *arg)
{
	struct ipuxcom_device *dev = ipuxcom_file_dev(f);
	struct ipuxcom_payload pl;
	int ret;

	if (!dev)
		return -ENOTCONN;
	if ((op->cap & dev->capabilities) != op->cap)
		return -EOPNOTSUPP;
	if (!(op->needs & IPUXCOM_NEEDS_DEVICE))
		return op->dev_handler(dev, arg);
	ret = ipuxcom_payload_in(op, arg, &pl);
	if (ret)
		goto out;
	ipuxcom_device_lockdep_prime(dev);
	/*
	 * Another command of the device may run for up to its budget: as
	 * every wait of the module, only a fatal signal ends this one.
	 */
	if (mutex_lock_killable(&dev->op_lock)) {
		ret = -EINTR;
		goto out;
	}
	ret = ipuxcom_device_enter(dev);
	/* another user's work is on the device: only RESET until it ran */
	if (!ret && !(op->needs & IPUXCOM_ANY_USER) && READ_ONCE(dev->user_changed)) {
		ipuxcom_device_exit(dev);
		ret = -EBADFD;
	}
	if (!ret) {
		dev->cmd_deadline = ktime_get_ns() + ipuxcom_cmd_wait_max_ns();
		if (op->pl_handler)
			ret = op->pl_handler(dev, arg, &pl);
		else
			ret = op->dev_handler(dev, arg);
		ipuxcom_device_exit(dev);
	}
	mutex_unlock(&dev->op_lock);
out:
	return ipuxcom_payload_out(&pl, ret);
}

static long ipuxcom_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct ipuxcom_file *f = filp->private_data;
	void __user *uarg = (void __user *)arg;
	const struct ipuxcom_ioctl_op *op;
	union ipuxcom_ioc_any buf;
	unsigned int nr;
	u32 usize;
	int ret;

	if (_IOC_TYPE(cmd) != IPUXCOM_IOC_MAGIC || _IOC_DIR(cmd) != _IOC_NONE ||
	    _IOC_SIZE(cmd) != 0)
		return -ENOTTY;
	nr = _IOC_NR(cmd);
	if (nr >= ARRAY_SIZE(ipuxcom_ioctl_ops))
		return -ENOTTY;
	op = &ipuxcom_ioctl_ops[array_index_nospec(nr, ARRAY_SIZE(ipuxcom_ioctl_ops))];
	if (!op->size)
		return -ENOTTY;

	if (get_user(usize, (u32 __user *)uarg))
		return -EFAULT;
	if (usize < op->min_size)
		return -EINVAL;
	/* As openat2(2) and clone3(2): no struct of ours grows past a page. */
	if (usize > PAGE_SIZE)
		return -E2BIG;
	/* Zero-extends a shorter struct, -E2BIG for a non-zero unknown tail. */
	ret = copy_struct_from_user(&buf, op->size, uarg, usize);
	if (ret)
		return ret;
	if (buf.hdr.flags & ~op->valid_flags)
		return -EINVAL;
	if ((op->needs & IPUXCOM_NEEDS_RAWIO) && !capable(CAP_SYS_RAWIO))
		return -EPERM;

	if (op->file_handler)
		ret = op->file_handler(f, &buf);
	else
		ret = ipuxcom_run_dev_handler(f, op, &buf);
	/* A handler that ran wrote every output member; inputs are echoed. */
	if (ret && !(op->needs & IPUXCOM_OUT_ALWAYS && ret != -ENOTCONN) &&
	    (!(op->needs & IPUXCOM_OUT_ON_ERROR) || ret == -ENOTCONN ||
	     ret == -ENODEV || ret == -EINTR || ret == -ERESTARTSYS))
		return ret;
	if (copy_to_user(uarg, &buf, min_t(u32, usize, op->size)))
		return -EFAULT;
	return ret;
}

static int ipuxcom_open(struct inode *inode, struct file *filp)
{
	struct ipuxcom_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	/* who opened it, not who calls: an fd handed on keeps its opener */
	f->user = filp->f_cred->euid;
	filp->private_data = f;
	return nonseekable_open(inode, filp);
}

static int ipuxcom_release(struct inode *inode, struct file *filp)
{
	struct ipuxcom_file *f = filp->private_data;
	struct ipuxcom_device *dev = f->dev;

	if (dev) {
		/*
		 * The pins belong to the attached session. A sequence left
		 * half done (loading, or host pages half attached) cannot be
		 * continued by the next owner: only RESET gets back.
		 */
		mutex_lock(&dev->op_lock);
		if (!ipuxcom_device_enter(dev)) {
			if (ipuxcom_state(dev) == IPUXCOM_DEV_STATE_LOADING ||
			    dev->hostx_stage == IPUXCOM_HOSTX_ATTACHING || dev->exch.active)
				ipuxcom_set_state(dev, IPUXCOM_DEV_STATE_NEEDS_RESET);
			ipuxcom_buf_release_all(dev);
			dev->exch.active = false;
			/* the holder's window goes with its session */
			if (dev->ipu_driver)
				dev->ops->windows_unmap(dev->priv);
			ipuxcom_device_exit(dev);
		}
		mutex_unlock(&dev->op_lock);
		mutex_lock(&dev->lock);
		dev->ipu_node[0] = '\0';
		dev->owner = NULL;
		put_pid(dev->owner_pid);
		dev->owner_pid = NULL;
		mutex_unlock(&dev->lock);
		ipuxcom_device_put(dev);
	}
	if (f->ipu_file)
		fput(f->ipu_file);
	mutex_destroy(&f->lock);
	kfree(f);
	return 0;
}

static const struct file_operations ipuxcom_fops = {
	.owner = THIS_MODULE,
	.open = ipuxcom_open,
	.release = ipuxcom_release,
	.unlocked_ioctl = ipuxcom_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = ipuxcom_no_llseek,
};

static struct miscdevice ipuxcom_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "ipuxcom",
	.fops = &ipuxcom_fops,
	.mode = 0600,
};

static void ipuxcom_device_added(struct ipuxcom_device *dev)
{
	ipuxcom_netlink_device(dev, true);
}

static void ipuxcom_device_removed(struct ipuxcom_device *dev)
{
	ipuxcom_netlink_device(dev, false);
}

/*
 * What a device's arrival and removal mean beyond the registry: events
 * for `ipuxcom monitor`, and the pinned host buffers, released while the
 * backend that may be reading them is still there (and nothing runs on
 * it: unregister holds ops_lock for writing).
 */
static const struct ipuxcom_registry_hooks ipuxcom_hooks = {
	.added = ipuxcom_device_added,
	.detach = ipuxcom_buf_release_all,
	.removed = ipuxcom_device_removed,
};

static int __init ipuxcom_init(void)
{
	int ret;

	ipuxcom_registry_set_hooks(&ipuxcom_hooks);
	/* The user-visible node last, once everything behind it works. */
	ret = ipuxcom_netlink_init();
	if (ret)
		return ret;
	ret = misc_register(&ipuxcom_misc);
	if (ret)
		ipuxcom_netlink_exit();
	return ret;
}

static void __exit ipuxcom_exit(void)
{
	misc_deregister(&ipuxcom_misc);
	ipuxcom_netlink_exit();
	/* Backends depend on our symbols, so they are all gone by now. */
	WARN_ON(!ipuxcom_registry_empty());
}

module_init(ipuxcom_init);
module_exit(ipuxcom_exit);

MODULE_DESCRIPTION("Direct control of Graphcore C600 (IPU21) devices");
MODULE_LICENSE("GPL");
