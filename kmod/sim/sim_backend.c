// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom_sim: registers software C600s (sim/c600_sim.c) with ipuxcom.
 *
 * The "devices" parameter is the number of simulated devices. It is also
 * writable at run time through /sys/module/ipuxcom_sim/parameters/devices:
 * writing a smaller number unregisters the newest devices, which is how
 * tests remove a device under an open file.
 *
 * The "capabilities" parameter (IPUXCOM_CAP_* bits, default 0: all the
 * core offers) applies to devices added after it is set: tests use it to
 * give a simulated device the hardware backend's limits (no RESET, no
 * LOADER) and check what the core and the library then do.
 *
 * Per device, debugfs (ipuxcom_sim/devN/) has the fault knobs of the model
 * (stuck_go, stuck_mark, tdi_busy, dma_error, ctx_no_stop, and the
 * one-shot counter tdi_fail_at), its stricter readings of what the record
 * leaves open (inactive_no_exec, iowner_per_insn: c600_sim.h), its
 * register latency, and "stats": the sequence counters tests compare with
 * the design notes.
 *
 * stall_pending_ms (one-shot, at most SIM_STALL_MAX_MS) is not the
 * device's: the next register read that shows work still pending
 * (c600_sim_read_pending()) returns to its caller only after that many
 * ms, as if the reading thread had lost its CPU right after the read. On
 * a loaded host that happens to any wait; a wait must not then report a
 * timeout the device's state does not bear out.
 *
 * With CONFIG_FAULT_INJECTION the model's fault sites (enum c600_sim_site:
 * a GO transaction, a posted HSP mark, an injected TDI instruction, a
 * device transfer of host memory, a context stop) are also driven by the
 * kernel's fault injection: each site event calls should_fail() on the
 * device's fault_attr of that site kind, so /proc/thread-self/fail-nth
 * (the N-th fault point of the calling thread, counted together with
 * failslab, fail_page_alloc and user copies where those are configured)
 * and, with CONFIG_FAULT_INJECTION_DEBUG_FS, the attributes in
 * ipuxcom_sim/devN/fail_{go,mark,tdi,dma,ctx_stop}/ (probability,
 * interval, times, space, verbose, task-filter:
 * Documentation/fault-injection/fault-injection.rst) make that one event
 * fail as the site's knob would, for a caller with CAP_SYS_ADMIN only
 * (sim_should_fail()). verbose starts at 1 (one line per fault, no stack
 * dump, which the test lanes would take for a kernel report; at most
 * DEFAULT_RATELIMIT_BURST lines per DEFAULT_RATELIMIT_INTERVAL); times
 * starts at 1 and a fail-nth fault uses it up too. "stats" counts, per
 * site, the events that asked (asked_<site>: for a privileged caller each
 * is one fail-nth tick) and the faults injected (injected_<site>). Without
 * CONFIG_FAULT_INJECTION (Debian's 6.1) none of this is built and the
 * model is never asked.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/dcache.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fault-inject.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "c600_sim.h"
#include "ipuxcom_backend.h"

#define SIM_MAX_DEVICES		16
/*
 * Bus addresses handed out for simulated DMA buffers: an arbitrary window
 * above 4 GiB, so a driver that truncates a bus address to 32 bits fails.
 */
#define SIM_BUS_BASE		0x100000000ULL
#define SIM_BUS_ALIGN		0x100000ULL
/* The longest stall_pending_ms a test may ask for. */
#define SIM_STALL_MAX_MS	10000

struct sim_device {
	struct mutex lock;	/* serialises every call into the model */
	struct c600_sim *model;
	struct ipuxcom_device *idev;
	u64 next_bus;
	struct dentry *debugfs;
	u32 stall_pending_ms;	/* debugfs, one-shot: see the top of this file */
#ifdef CONFIG_FAULT_INJECTION
	/* the model's fault hook: one attr per site kind (enum c600_sim_site) */
	struct fault_attr fail[C600_SIM_NSITES];
#endif
};

/* Site kinds as debugfs and "stats" name them. */
static const char *const sim_site_names[C600_SIM_NSITES] = {
	[C600_SIM_SITE_GO] = "go",
	[C600_SIM_SITE_MARK] = "mark",
	[C600_SIM_SITE_TDI] = "tdi",
	[C600_SIM_SITE_DMA] = "dma",
	[C600_SIM_SITE_CTX_STOP] = "ctx_stop",
};

static struct dentry *sim_debugfs_root;

static DEFINE_MUTEX(sim_devices_lock);	/* sim_devs, sim_ndevs, sim_ready */
static struct sim_device *sim_devs[SIM_MAX_DEVICES];
static unsigned int sim_ndevs;
static bool sim_ready;
static unsigned int sim_param_devices = 1;
static unsigned long long sim_param_caps;

static int sim_bar_read(void *priv, u32 offset, u32 *value)
{
	struct sim_device *sd = priv;
	u32 stall;
	int ret;

	mutex_lock(&sd->lock);
	ret = c600_sim_bar_read(sd->model, offset, value);
	mutex_unlock(&sd->lock);
	if (!ret && READ_ONCE(sd->stall_pending_ms) && c600_sim_read_pending(offset, *value)) {
		stall = xchg(&sd->stall_pending_ms, 0);
		if (stall)
			msleep(min_t(u32, stall, SIM_STALL_MAX_MS));
	}
	return ret;
}

static int sim_bar_write(void *priv, u32 offset, u32 value)
{
	struct sim_device *sd = priv;
	int ret;

	mutex_lock(&sd->lock);
	ret = c600_sim_bar_write(sd->model, offset, value);
	mutex_unlock(&sd->lock);
	return ret;
}

/*
 * ipu_driver's BUFFER_ATTACH, modelled: the caller's pinned pages (mapped
 * by the core) become the model's host memory at a bus address of our
 * choosing, and slot @slot points at it, so the simulated loaders read
 * the very pages the caller wrote.
 */
static int sim_buffer_attach(void *priv, u32 slot, struct ipuxcom_host_buf *buf)
{
	struct sim_device *sd = priv;
	int ret;

	mutex_lock(&sd->lock);
	ret = c600_sim_host_map(sd->model, sd->next_bus, buf->vaddr, buf->size);
	if (!ret) {
		ret = c600_sim_buffer_attach(sd->model, slot, sd->next_bus, buf->size);
		if (ret)
			WARN_ON_ONCE(c600_sim_host_unmap(sd->model, sd->next_bus));
	}
	if (!ret) {
		buf->bus_addr = sd->next_bus;
		sd->next_bus += ALIGN((u64)buf->size, SIM_BUS_ALIGN);
	}
	mutex_unlock(&sd->lock);
	return ret;
}

static void sim_buffer_detach(void *priv, u32 slot, struct ipuxcom_host_buf *buf)
{
	struct sim_device *sd = priv;

	mutex_lock(&sd->lock);
	/* -ENOENT: a reset of the model already dropped the slot */
	c600_sim_buffer_detach(sd->model, slot);
	WARN_ON_ONCE(c600_sim_host_unmap(sd->model, buf->bus_addr));
	mutex_unlock(&sd->lock);
}

static int sim_exch_write(void *priv, u32 offset, const void *data, size_t len)
{
	struct sim_device *sd = priv;
	int ret;

	mutex_lock(&sd->lock);
	ret = c600_sim_exch_write(sd->model, offset, data, len);
	mutex_unlock(&sd->lock);
	return ret;
}

static int sim_reset(void *priv)
{
	struct sim_device *sd = priv;

	mutex_lock(&sd->lock);
	c600_sim_reset(sd->model);
	mutex_unlock(&sd->lock);
	return 0;
}

#ifdef CONFIG_FAULT_INJECTION
/*
 * The model's fault hook, called under sd->lock at each site event.
 *
 * Only a caller with CAP_SYS_ADMIN gets to the fault attr. should_fail()
 * looks at the thread's fail-nth first, and that branch ignores the attr's
 * probability, times and task filter; /proc/<tid>/fail-nth belongs to the
 * task. Without this check any user who may command a device (TDI reads,
 * marks and buffers of a device its uid loaded) could fail the model's
 * sites at will, and a fault root armed with a probability would hit
 * whichever user came next. Events outside a task (none today) are not
 * asked either. The check is the no-audit one: a denial here is policy,
 * not an attempt worth an audit record.
 */
static bool sim_should_fail(void *ctx, enum c600_sim_site site)
{
	struct sim_device *sd = ctx;

	if (!in_task() || !has_capability_noaudit(current, CAP_SYS_ADMIN))
		return false;
	return should_fail(&sd->fail[site], 1);
}

static void sim_fault_init(struct sim_device *sd)
{
	static const struct fault_attr fresh = FAULT_ATTR_INITIALIZER;
	unsigned int i;

	for (i = 0; i < C600_SIM_NSITES; i++) {
		sd->fail[i] = fresh;
		/* one line per fault, at most a burst of them per interval */
		ratelimit_state_init(&sd->fail[i].ratelimit_state, DEFAULT_RATELIMIT_INTERVAL,
				     DEFAULT_RATELIMIT_BURST);
		sd->fail[i].verbose = 1;
	}
	sd->model->faults.should_fail_ctx = sd;
	sd->model->faults.should_fail = sim_should_fail;
}

static void sim_fault_debugfs_add(struct sim_device *sd)
{
	char name[24];
	unsigned int i;

	/* Without FAULT_INJECTION_DEBUG_FS: ERR_PTR(-ENODEV), no files. */
	for (i = 0; i < C600_SIM_NSITES; i++) {
		snprintf(name, sizeof(name), "fail_%s", sim_site_names[i]);
		fault_create_debugfs_attr(name, sd->debugfs, &sd->fail[i]);
	}
}

/*
 * fault_create_debugfs_attr() keeps a reference to its directory (for
 * the fault message): dropped here, once the directory is removed and no
 * op can run.
 */
static void sim_fault_release(struct sim_device *sd)
{
	unsigned int i;

	for (i = 0; i < C600_SIM_NSITES; i++) {
		dput(sd->fail[i].dname);
		sd->fail[i].dname = NULL;
	}
}
#else
static void sim_fault_init(struct sim_device *sd) { }
static void sim_fault_debugfs_add(struct sim_device *sd) { }
static void sim_fault_release(struct sim_device *sd) { }
#endif

static const struct ipuxcom_backend_ops sim_ops = {
	.bar_read = sim_bar_read,
	.bar_write = sim_bar_write,
	.buffer_attach = sim_buffer_attach,
	.buffer_detach = sim_buffer_detach,
	.exch_write = sim_exch_write,
	.reset = sim_reset,
};

static int sim_stats_show(struct seq_file *m, void *unused)
{
	struct sim_device *sd = m->private;
	struct c600_sim *sim = sd->model;
	unsigned int i;

	mutex_lock(&sd->lock);
	seq_printf(m, "phase %u\nnext_batch %u\nautoload_transactions %u\n"
		   "load_batches %u\nmark1_transactions %u\nstart_marks %u\n"
		   "rejected_batches %u\n",
		   sim->phase, sim->next_batch, sim->stats.autoload_transactions,
		   sim->stats.load_batches, sim->stats.mark1_transactions,
		   sim->stats.start_marks, sim->stats.rejected_batches);
	seq_printf(m, "autold_max_unflushed %u\nloader_attach_window %u\n"
		   "batch0_window %u\ngs1_pending_at_batch %u\nprimaries_operational %u\n"
		   "gs1 %u\ngs2 %u\n",
		   sim->stats.autold_max_unflushed, sim->stats.loader_attach_window,
		   sim->stats.batch0_window, sim->stats.gs1_pending_at_batch,
		   sim->stats.primaries_operational, sim->gs[0].value, sim->gs[1].value);
	seq_printf(m, "sram_pages %u\nsram_bytes %u\n",
		   sim->stats.sram_pages, sim->stats.sram_bytes);
	for (i = 0; i < C600_SIM_NSITES; i++)
		seq_printf(m, "asked_%s %u\ninjected_%s %u\n",
			   sim_site_names[i], sim->faults.asked[i],
			   sim_site_names[i], sim->faults.injected[i]);
	mutex_unlock(&sd->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_stats);

static void sim_debugfs_add(struct sim_device *sd)
{
	struct c600_sim_faults *fl = &sd->model->faults;
	char name[16];

	snprintf(name, sizeof(name), "dev%u", ipuxcom_device_id(sd->idev));
	sd->debugfs = debugfs_create_dir(name, sim_debugfs_root);
	debugfs_create_bool("stuck_go", 0600, sd->debugfs, &fl->stuck_go);
	debugfs_create_bool("stuck_mark", 0600, sd->debugfs, &fl->stuck_mark);
	debugfs_create_bool("tdi_busy", 0600, sd->debugfs, &fl->tdi_busy);
	debugfs_create_bool("dma_error", 0600, sd->debugfs, &fl->dma_error);
	debugfs_create_bool("ctx_no_stop", 0600, sd->debugfs, &fl->ctx_no_stop);
	debugfs_create_u32("tdi_fail_at", 0600, sd->debugfs, &fl->tdi_fail_at);
	debugfs_create_bool("inactive_no_exec", 0600, sd->debugfs, &fl->inactive_no_exec);
	debugfs_create_bool("iowner_per_insn", 0600, sd->debugfs, &fl->iowner_per_insn);
	debugfs_create_u32("latency", 0600, sd->debugfs, &sd->model->latency);
	debugfs_create_u32("stall_pending_ms", 0600, sd->debugfs, &sd->stall_pending_ms);
	debugfs_create_file("stats", 0400, sd->debugfs, sd, &sim_stats_fops);
	sim_fault_debugfs_add(sd);
}

static void sim_device_free(struct sim_device *sd)
{
	sim_fault_release(sd);
	c600_sim_destroy(sd->model);
	mutex_destroy(&sd->lock);
	kfree(sd);
}

static int sim_device_add(void)
{
	struct ipuxcom_device_desc desc = {
		.backend = "sim",
		.tile_count = C600_TILES,
		.config_bar_size = C600_CONFIG_BAR_SIZE,
		.ops = &sim_ops,
		.capabilities = READ_ONCE(sim_param_caps),
	};
	struct sim_device *sd;

	lockdep_assert_held(&sim_devices_lock);
	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	mutex_init(&sd->lock);
	sd->next_bus = SIM_BUS_BASE;
	sd->model = c600_sim_create();
	if (!sd->model) {
		sim_device_free(sd);
		return -ENOMEM;
	}
	sim_fault_init(sd);
	desc.priv = sd;
	sd->idev = ipuxcom_device_register(&desc);
	if (IS_ERR(sd->idev)) {
		int ret = PTR_ERR(sd->idev);

		sim_device_free(sd);
		return ret;
	}
	sim_debugfs_add(sd);
	sim_devs[sim_ndevs++] = sd;
	return 0;
}

static void sim_device_remove_last(void)
{
	struct sim_device *sd;

	lockdep_assert_held(&sim_devices_lock);
	sd = sim_devs[--sim_ndevs];
	sim_devs[sim_ndevs] = NULL;
	debugfs_remove_recursive(sd->debugfs);
	/* Returns with no op running: the model can go. */
	ipuxcom_device_unregister(sd->idev);
	sim_device_free(sd);
}

/* Grow or shrink to @want devices; on failure keep what was added. */
static int sim_set_device_count(unsigned int want)
{
	int ret = 0;

	lockdep_assert_held(&sim_devices_lock);
	while (sim_ndevs > want)
		sim_device_remove_last();
	while (sim_ndevs < want && !ret)
		ret = sim_device_add();
	sim_param_devices = sim_ndevs;
	return ret;
}

static int sim_param_set_devices(const char *val, const struct kernel_param *kp)
{
	unsigned int want;
	int ret;

	ret = kstrtouint(val, 0, &want);
	if (ret)
		return ret;
	if (want > SIM_MAX_DEVICES)
		return -EINVAL;
	mutex_lock(&sim_devices_lock);
	if (sim_ready)
		ret = sim_set_device_count(want);
	else
		sim_param_devices = want;	/* at load time: init applies it */
	mutex_unlock(&sim_devices_lock);
	return ret;
}

static int sim_param_get_devices(char *buf, const struct kernel_param *kp)
{
	unsigned int n;

	mutex_lock(&sim_devices_lock);
	n = sim_param_devices;
	mutex_unlock(&sim_devices_lock);
	return sysfs_emit(buf, "%u\n", n);
}

static const struct kernel_param_ops sim_devices_param_ops = {
	.set = sim_param_set_devices,
	.get = sim_param_get_devices,
};

module_param_cb(devices, &sim_devices_param_ops, NULL, 0644);
MODULE_PARM_DESC(devices, "number of simulated C600 devices (0-16, default 1); writable at run time");

module_param_named(capabilities, sim_param_caps, ullong, 0644);
MODULE_PARM_DESC(capabilities, "IPUXCOM_CAP_* of devices added from now on (default 0: all the core offers)");

static int __init ipuxcom_sim_init(void)
{
	int ret;

	sim_debugfs_root = debugfs_create_dir("ipuxcom_sim", NULL);
	mutex_lock(&sim_devices_lock);
	sim_ready = true;
	ret = sim_set_device_count(sim_param_devices);
	if (ret) {
		sim_set_device_count(0);
		sim_ready = false;
	}
	mutex_unlock(&sim_devices_lock);
	if (ret)
		debugfs_remove_recursive(sim_debugfs_root);
	return ret;
}

static void __exit ipuxcom_sim_exit(void)
{
	mutex_lock(&sim_devices_lock);
	sim_ready = false;
	sim_set_device_count(0);
	mutex_unlock(&sim_devices_lock);
	debugfs_remove_recursive(sim_debugfs_root);
}

module_init(ipuxcom_sim_init);
module_exit(ipuxcom_sim_exit);

MODULE_DESCRIPTION("Simulated Graphcore C600 backend for ipuxcom");
MODULE_LICENSE("GPL");
