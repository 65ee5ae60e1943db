/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * ipuxcom: direct control of Graphcore C600 (IPU21) devices.
 *
 * This is the only definition of the ipuxcom ABI. The kernel module, the
 * library, the command-line tool and the selftests all include it; nothing
 * retypes it.
 *
 * ioctl conventions (Documentation/process/botching-up-ioctls.rst):
 *  - Every command is _IO(IPUXCOM_IOC_MAGIC, nr); its argument points at a
 *    struct whose first two members are "__u32 size; __u32 flags;".
 *    size is sizeof() of the struct as the caller knows it. A caller built
 *    against an older header passes a shorter struct (at least the
 *    command's minimum size), a newer one a longer struct whose unknown
 *    tail must be zero (else -E2BIG).
 *  - Structs are naturally aligned with no implicit padding; user pointers
 *    are __u64; reserved members must be zero (else -EINVAL); unknown
 *    flags give -EINVAL; an unknown command gives -ENOTTY.
 *  - On success the kernel writes back min(size, kernel's size) bytes of
 *    the struct; output members it does not fill are written as zero.
 *
 * Magic 0xC6 is not listed in Documentation/userspace-api/ioctl/
 * ioctl-number.rst of Linux 6.1 (0xC0 and 0xCA are its neighbours).
 */
#ifndef _UAPI_LINUX_IPUXCOM_H
#define _UAPI_LINUX_IPUXCOM_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

#define IPUXCOM_DEVICE_PATH	"/dev/ipuxcom"

/* Bumped whenever a command, struct member or flag is added. */
#define IPUXCOM_UAPI_VERSION	6

#define IPUXCOM_IOC_MAGIC	0xC6

/*
 * Privileges (uapi version 4). Opening /dev/ipuxcom is governed by its
 * mode (0600 root, or 0660 group ipuxcom with the installed udev rule);
 * beyond that, what can change what a tile runs, or touch registers
 * nothing vouches for, needs CAP_SYS_RAWIO, as a raw register write does:
 *
 *   command                  needs            why
 *   INFO, ATTACH, DEV_QUERY  -                queries; one attached file
 *                                             per device
 *   REG_READ                 - / RAWIO        documented registers (HW-REGS
 *                                             table) free; any other offset
 *                                             RAWIO (reads can have side
 *                                             effects on hardware)
 *   REG_WRITE, CFG_APPLY     RAWIO            raw config writes
 *   AUTOLOAD                 RAWIO            installs the bootloader on
 *                                             every tile
 *   BUF_ATTACH slot 0        RAWIO            the transport buffer carries
 *   (the loader's buffer)                     every tile's code
 *   LOAD_BATCH, LOAD_FINISH  RAWIO            hand code to the loaders and
 *                                             start it
 *   HSP_MARK                 RAWIO            a raw sync mark moves every
 *                                             tile's program along
 *   TDI_EXEC, TDI_WRITE_SRAM RAWIO            arbitrary instructions/stores
 *   EXCH_WRITE               RAWIO            raw tile SRAM stores
 *   TDI_READ_REGS,           -                reads; a SRAM read stops and
 *   TDI_READ_SRAM                             restores the context it uses
 *                                             (docs/tdi.md)
 *   BUF_ATTACH host slots,   -                the host-exchange protocol of
 *   BUF_DETACH, HOSTX_SETUP,                  a loaded application: only
 *   HOSTX_CALL                                after a RAWIO load
 *   RESET                    -                returns the device to IDLE
 *                                             (on a card, after the caller's
 *                                             own RESET_DEVICE)
 *
 * Missing privileges give -EPERM before the device is touched. Whoever
 * holds the privileges, a device another user attached last answers only
 * RESET (-EBADFD: struct ipuxcom_ioc_attach, "Owner changes"). Generic
 * netlink: DEV_GET is open to all, but IPUXCOM_A_DEV_ATTACHED_PID only to
 * callers with CAP_NET_ADMIN (others get IPUXCOM_A_DEV_ATTACHED); the
 * "events" group carries no per-process data and, on kernels that can
 * restrict it (those with GENL_MCAST_CAP_SYS_ADMIN: 6.7 and later, and
 * stable kernels with the backport, Debian 12's 6.1 among them), needs
 * CAP_SYS_ADMIN to listen: joining without it is -EPERM.
 *
 * Memory: a command stages its user data (at most 512 KiB: CFG_APPLY's
 * records) in kernel memory charged to the caller's memory cgroup; host
 * buffers are the caller's own pages, pinned and charged to its
 * RLIMIT_MEMLOCK (at most IPUXCOM_BUF_SLOTS of IPUXCOM_BUF_MAX_BYTES per
 * device).
 */

/* Capability bits reported by IPUXCOM_IOC_INFO. */
#define IPUXCOM_CAP_ATTACH	_BITULL(0)	/* exclusive ATTACH/close release */
#define IPUXCOM_CAP_REG		_BITULL(1)	/* REG_READ / REG_WRITE */
#define IPUXCOM_CAP_RESET	_BITULL(2)	/* RESET */
#define IPUXCOM_CAP_NETLINK	_BITULL(3)	/* generic netlink "ipuxcom" */
#define IPUXCOM_CAP_CFG		_BITULL(4)	/* CFG_APPLY */
#define IPUXCOM_CAP_AUTOLOAD	_BITULL(5)	/* AUTOLOAD */
#define IPUXCOM_CAP_LOADER	_BITULL(6)	/* BUF_ATTACH slot 0, LOAD_BATCH/FINISH */
#define IPUXCOM_CAP_HSP		_BITULL(7)	/* HSP_MARK */
#define IPUXCOM_CAP_TDI		_BITULL(8)	/* TDI_* */
#define IPUXCOM_CAP_HOSTX	_BITULL(9)	/* HOSTX_SETUP, HOSTX_CALL */
#define IPUXCOM_CAP_EXCH_WINDOW	_BITULL(10)	/* EXCH_WRITE (experimental) */
/*
 * Not a command but how the device is held (uapi version 4): the card is
 * driven by Graphcore's ipu_driver, and ipuxcom acts on it only for a
 * caller that holds it there. ATTACH then takes an open /dev/ipuN of that
 * card (IPUXCOM_ATTACH_F_IPU_FD; DEV_QUERY and netlink name the node), host
 * buffers are also attached with ipu_driver's BUFFER_ATTACH, RESET follows
 * the caller's RESET_DEVICE (IPUXCOM_RESET_F_DRIVER_RESET), and
 * exchange-window stores go through /dev/ipuN_ex (IPUXCOM_EXCH_F_SELECT /
 * _COMPLETE). See struct ipuxcom_ioc_attach. Reported per device (DEV_QUERY,
 * netlink), never by INFO.
 */
#define IPUXCOM_CAP_IPU_DRIVER	_BITULL(11)

/* Length of backend names, including the terminating NUL. */
#define IPUXCOM_BACKEND_NAME_LEN	16

/*
 * Device states, reported by DEV_QUERY and netlink DEV_GET. A command the
 * current state does not allow fails with -EBADFD: CFG_APPLY and AUTOLOAD
 * need IDLE, LOAD_BATCH needs BOOTLOADER or LOADING, LOAD_FINISH needs
 * LOADING with every batch done, HSP_MARK needs RUNNING; in NEEDS_RESET
 * only RESET (and the queries) work. RESET always returns to IDLE. A
 * device another user left (struct ipuxcom_ioc_attach, "Owner changes")
 * is in NEEDS_RESET, and there even the TDI reads fail with -EBADFD.
 */
enum ipuxcom_dev_state {
	IPUXCOM_DEV_STATE_IDLE = 0,
	IPUXCOM_DEV_STATE_BOOTLOADER = 1,
	IPUXCOM_DEV_STATE_LOADING = 2,
	IPUXCOM_DEV_STATE_RUNNING = 3,
	IPUXCOM_DEV_STATE_NEEDS_RESET = 4,
	IPUXCOM_DEV_STATE_GONE = 5,	/* backend unregistered it */
};

/**
 * struct ipuxcom_ioc_info - module version and capabilities
 * @size: sizeof(struct ipuxcom_ioc_info) as the caller knows it
 * @flags: must be zero
 * @uapi_version: out: IPUXCOM_UAPI_VERSION of the running module
 * @device_count: out: devices registered right now
 * @capabilities: out: IPUXCOM_CAP_* bits
 * @max_config_bar: out: config-BAR size in bytes (512 KiB on the C600)
 * @reserved: must be zero (uapi version 4; an output before)
 *
 * Needs no ATTACH. The other members after @flags are outputs; their
 * input values are ignored.
 */
struct ipuxcom_ioc_info {
	__u32 size;
	__u32 flags;
	__u32 uapi_version;
	__u32 device_count;
	__u64 capabilities;
	__u32 max_config_bar;
	__u32 reserved;
};

/**
 * struct ipuxcom_ioc_attach - bind this open file to one device
 * @size: sizeof(struct ipuxcom_ioc_attach)
 * @flags: 0, or IPUXCOM_ATTACH_F_IPU_FD with optionally
 *	IPUXCOM_ATTACH_F_EX_FD and IPUXCOM_ATTACH_F_PROBE
 * @dev_id: in: device id (see netlink DEV_GET or `ipuxcom dev show`)
 * @ipu_fd: in, with IPUXCOM_ATTACH_F_IPU_FD: an open file descriptor of
 *	ipu_driver's /dev/ipuN for this device (uapi version 4); else zero
 * @cfg_map: in, with IPUXCOM_ATTACH_F_IPU_FD (uapi version 6): the user
 *	address of the caller's mapping of @ipu_fd at offset 0,
 *	IPUXCOM_IPU_CFG_MAP_BYTES long, shared, readable and writable: the
 *	config registers as ipu_driver maps them for its holder; else zero
 * @ex_map: in, with IPUXCOM_ATTACH_F_EX_FD (uapi version 6): the user
 *	address of the caller's shared mapping of @ex_fd at offset 0; else zero
 * @ex_map_len: in, with IPUXCOM_ATTACH_F_EX_FD: its length in bytes, a
 *	page multiple; else zero
 * @ex_fd: in, with IPUXCOM_ATTACH_F_EX_FD: an open file descriptor of
 *	ipu_driver's /dev/ipuN_ex of the same card; else zero
 * @reserved: must be zero
 *
 * A device is held by at most one open file: -EBUSY if another file holds
 * it, -EALREADY if this file is already attached (to any device), -ENODEV
 * if no such device. The binding ends when the file is closed (the last
 * reference to the open file description is dropped).
 *
 * Owner changes. The "user" of a file is the effective uid of the
 * credentials it was opened with (its f_cred, as checked against the
 * mode of /dev/ipuxcom): not who issues the ioctl, so a descriptor handed
 * on (fork, SCM_RIGHTS, a setuid helper) acts for whoever opened it, by
 * that opener's choice. A device holds the work of the user of the last
 * file attached to it: tile memory, the program and its state, marks. A
 * file of the same user attaches as before and finds the device as it
 * was left (`ipuxcom load`, then `ipuxcom tdi read` in another process).
 * When a file of another user attaches to a simulated device, the device
 * is put in NEEDS_RESET and, until a RESET of that file succeeds, every
 * command but RESET fails with -EBADFD, whatever the state allows
 * otherwise: TDI_*, REG_READ, HOSTX_*, BUF_ATTACH and BUF_DETACH too
 * (INFO, ATTACH and DEV_QUERY work). Capabilities give no exemption; the
 * first file attached after the device was registered is not restricted
 * (the module knows of no earlier user). The simulator's RESET empties
 * its tile memory.
 *
 * A card (IPUXCOM_CAP_IPU_DRIVER) has no such gate: there the isolation
 * boundary between users is ipu_driver's node permission. Whoever may
 * open /dev/ipuN read-write and map it can reach every register,
 * the TDI registers that read any tile's SRAM included, without ipuxcom;
 * a card's reset does not clear tile SRAM [S: stale SRAM survived a
 * reset], and no sequence in the record clears all of it. A gate that
 * nothing can lift honestly would only pretend (docs/hardware.md).
 *
 * Devices held through ipu_driver (IPUXCOM_CAP_IPU_DRIVER): ipuxcom never
 * touches a card for a caller that cannot reach it through ipu_driver
 * itself. The caller opens the card's /dev/ipuN read-write and maps its
 * config registers (mmap offset 0, IPUXCOM_IPU_CFG_MAP_BYTES, shared),
 * as the hardware-proven stack does, takes ipu_driver's USER_ATTACH and
 * SET_IPU_ID there (the library does all of it), and passes the
 * descriptor and the mapping here (IPUXCOM_ATTACH_F_IPU_FD), and, if it
 * has one, /dev/ipuN_ex and its mapping (IPUXCOM_ATTACH_F_EX_FD).
 *
 * What the module verifies before the device is touched, reading only
 * the caller's own page tables: @ipu_fd is open for reading and writing
 * (else -EBADF) and a char device (else -EXDEV); @cfg_map lies in one
 * mapping of that very open file, at file offset 0, shared, readable and
 * writable (else -EXDEV, -EACCES for a private or read-only one), whose
 * pages are device memory (VM_IO | VM_PFNMAP, else -EOPNOTSUPP: a way of
 * mapping the module cannot resolve) and physically contiguous (else
 * -EXDEV); the same for @ex_map and @ex_fd. Then it asks the device's
 * backend whether those physical ranges lie in a memory resource (any
 * BAR, at any offset) of the device's PCI function: -EXDEV if not (the
 * descriptor is another card's). The backend maps exactly the config
 * window found, for this session. No BAR index, no place of the node in
 * sysfs and no answer of ipu_driver to a repeated call is assumed; the
 * module never calls into ipu_driver. It keeps a reference to the open
 * /dev/ipuN until this file is closed, so the ipu_driver session that
 * maps the card cannot end before the ipuxcom one; removal of the card
 * (ipu_driver unbinding) unregisters the device first, and every command
 * then fails with -ENODEV. Holding the mapping proves the caller can
 * reach the card's registers through ipu_driver; ipuxcom grants nothing
 * beyond that (whether another process holds the card is ipu_driver's to
 * say: the library's USER_ATTACH).
 *
 * With IPUXCOM_ATTACH_F_PROBE the checks above run and nothing else: 0 if
 * @ipu_fd and its mapping are this device's, -EXDEV if not; nothing is
 * attached, mapped or touched (how the library finds which /dev/ipuN is
 * which device without looking at sysfs).
 *
 * Other errors: -EACCES without IPUXCOM_ATTACH_F_IPU_FD on such a device;
 * -EBADF if a descriptor is not open; -EINVAL if the flag is given for a
 * device not held through ipu_driver (the simulator), for a missing or
 * unaligned mapping address or length, or for members set without their
 * flag.
 */
struct ipuxcom_ioc_attach {
	__u32 size;
	__u32 flags;
	__u32 dev_id;
	__s32 ipu_fd;
	__u64 cfg_map;
	__u64 ex_map;
	__u64 ex_map_len;
	__s32 ex_fd;
	__u32 reserved;
};

#define IPUXCOM_ATTACH_F_IPU_FD	_BITUL(0)
#define IPUXCOM_ATTACH_F_EX_FD	_BITUL(1)	/* uapi version 6 */
#define IPUXCOM_ATTACH_F_PROBE	_BITUL(2)	/* uapi version 6 */

/*
 * The config registers as ipu_driver maps them: mmap(/dev/ipuN, offset
 * 0, 0x80000) [RE] (docs/hardware.md, "Device and driver").
 */
#define IPUXCOM_IPU_CFG_MAP_BYTES	0x80000

/* Length of an ipu_driver node name ("ipu0"), including the NUL. */
#define IPUXCOM_IPU_NODE_LEN	16

/**
 * struct ipuxcom_ioc_dev_query - describe the attached device
 * @size: sizeof(struct ipuxcom_ioc_dev_query)
 * @flags: must be zero
 * @dev_id: out: device id
 * @state: out: enum ipuxcom_dev_state
 * @tile_count: out: number of tiles (1472 on a C600)
 * @config_bar_size: out: bytes of config BAR reachable by REG_READ/WRITE
 * @backend: out: NUL-terminated backend name ("sim", "hw")
 * @capabilities: out: the IPUXCOM_CAP_* commands this device's backend
 *	supports (uapi version 2); the others fail with -EOPNOTSUPP on it
 * @ipu_node: out: for a device held through ipu_driver, the name of the
 *	/dev node ("ipu0") that the attached session holds it by (uapi
 *	version 4; since 6 the name of the file ATTACH was given, and empty
 *	while no file is attached: the module does not look for the node in
 *	sysfs); else empty
 *
 * -ENOTCONN without ATTACH; -ENODEV once the device was unregistered.
 */
struct ipuxcom_ioc_dev_query {
	__u32 size;
	__u32 flags;
	__u32 dev_id;
	__u32 state;
	__u32 tile_count;
	__u32 config_bar_size;
	char backend[IPUXCOM_BACKEND_NAME_LEN];
	__u64 capabilities;
	char ipu_node[IPUXCOM_IPU_NODE_LEN];
};

/**
 * struct ipuxcom_ioc_reg - one 32-bit config-BAR access
 * @size: sizeof(struct ipuxcom_ioc_reg)
 * @flags: must be zero
 * @offset: in: byte offset into the config BAR, 4-byte aligned
 * @value: REG_READ: out; REG_WRITE: in
 *
 * REG_WRITE needs CAP_SYS_RAWIO: it bypasses every sequence the module
 * enforces. Both need ATTACH.
 */
struct ipuxcom_ioc_reg {
	__u32 size;
	__u32 flags;
	__u32 offset;
	__u32 value;
};

/**
 * struct ipuxcom_ioc_reset - reset the attached device
 * @size: sizeof(struct ipuxcom_ioc_reset)
 * @flags: 0, or IPUXCOM_RESET_F_DRIVER_RESET
 * @state: out: device state after the reset (its input is ignored)
 * @reserved: must be zero (uapi version 4; an output before)
 *
 * Detaches and unpins every host buffer (BUF_ATTACH), then resets the
 * device and returns it to IDLE. A device held through ipu_driver
 * (IPUXCOM_CAP_IPU_DRIVER) is reset by ipu_driver: the caller detaches its
 * buffers there (BUFFER_DETACH_ALL) and issues RESET_DEVICE on its
 * /dev/ipuN first, then calls RESET with IPUXCOM_RESET_F_DRIVER_RESET, and
 * the module returns its own state to IDLE. Without the flag such a
 * device answers -EOPNOTSUPP; with it, any other device -EINVAL.
 */
struct ipuxcom_ioc_reset {
	__u32 size;
	__u32 flags;
	__u32 state;
	__u32 reserved;
};

#define IPUXCOM_RESET_F_DRIVER_RESET	_BITUL(0)

/*
 * Bounded waits. Every command that waits takes timeout_ns (0 = the
 * command's default; values above IPUXCOM_TIMEOUT_MAX_NS are clamped to
 * it) for each of its waits, and fails with -ETIMEDOUT, the observed
 * register state in its output members, once one has passed. A command's
 * waits together never exceed IPUXCOM_CMD_TOTAL_WAIT_MAX_NS (uapi version
 * 4): a HOSTX_CALL of many phases or a TDI transfer of many words that
 * reaches it fails with -ETIMEDOUT and reports its progress. Waits end
 * early (-EINTR) only for a fatal signal (uapi version 5; any signal in
 * version 4): ipu_driver sends the process that holds a card real-time
 * signals 44-49 throughout a load, and an unrelated signal (SIGCHLD,
 * SIGPROF, SIGURG) must not cost a load either; a sequence half done
 * cannot be restarted. After a wait that timed out or was killed the
 * device is in IPUXCOM_DEV_STATE_NEEDS_RESET until RESET. A process that
 * holds a card through ipu_driver blocks the driver's signals in every
 * thread first (libipuxcom's ipuxcom_block_driver_signals()).
 */
#define IPUXCOM_TIMEOUT_MAX_NS		(60ULL * 1000 * 1000 * 1000)
#define IPUXCOM_CMD_TOTAL_WAIT_MAX_NS	(120ULL * 1000 * 1000 * 1000)

/**
 * struct ipuxcom_cfg_record - one config-BAR write (an IPUCFG1 record)
 * @offset: byte offset into the config BAR, 4-byte aligned
 * @value: value to write
 */
struct ipuxcom_cfg_record {
	__u32 offset;
	__u32 value;
};

#define IPUXCOM_CFG_MAX_RECORDS	65536

/*
 * CFG_APPLY flags (uapi version 3): what to do with the records of a
 * captured configuration that write the HSP general-sync controls GS1
 * (0x302c) and GS2 (0x3030). The real C600 capture's last two records set
 * GS2 = 1 and GS1 = 1 [S, HW-LOAD step 2].
 * With IPUXCOM_CFG_F_CLEAR_GS1 the records writing GS1 are not written;
 * after the others GS1 is written 0 and must read back MARK 0. The same
 * for GS2 with IPUXCOM_CFG_F_CLEAR_GS2. Both flags: the hardware-proven
 * peer's order (no pending mark before the first loader batch). GS1 only:
 * the seed's, which keeps the capture's GS2 mark preloaded for the
 * host-exchange transition. Neither: every record as recorded; a GS1 mark
 * the replay leaves pending is then refused by the first LOAD_BATCH.
 */
#define IPUXCOM_HSP_REG_GS1	0x302c	/* config-BAR offsets [S] */
#define IPUXCOM_HSP_REG_GS2	0x3030
#define IPUXCOM_CFG_F_CLEAR_GS1	_BITUL(0)
#define IPUXCOM_CFG_F_CLEAR_GS2	_BITUL(1)
#define IPUXCOM_CFG_F_CLEAR_HSP	(IPUXCOM_CFG_F_CLEAR_GS1 | IPUXCOM_CFG_F_CLEAR_GS2)

/**
 * struct ipuxcom_ioc_cfg_apply - ordered config-BAR writes
 * @size: sizeof(struct ipuxcom_ioc_cfg_apply)
 * @flags: IPUXCOM_CFG_F_CLEAR_GS1, IPUXCOM_CFG_F_CLEAR_GS2
 * @records: user pointer to @count struct ipuxcom_cfg_record
 * @count: 1 .. IPUXCOM_CFG_MAX_RECORDS
 * @applied: out: records written (all but the @skipped ones on success;
 *	on -EINVAL none: every offset is checked before the first write)
 * @bad_index: out: on -EINVAL, index of the first invalid record
 * @skipped: out: records not written because of a CLEAR flag (uapi 3;
 *	was a reserved zero member, its input is ignored)
 * @hsp_reg: out: on -EBUSY, the control (0x302c GS1, 0x3030 GS2) whose
 *	MARK did not read back 0 after it was cleared (uapi 3)
 * @hsp_mark: out: on -EBUSY, that MARK value (uapi 3)
 *
 * Needs CAP_SYS_RAWIO and an idle device.
 */
struct ipuxcom_ioc_cfg_apply {
	__u32 size;
	__u32 flags;
	__u64 records;
	__u32 count;
	__u32 applied;
	__u32 bad_index;
	__u32 skipped;
	__u32 hsp_reg;
	__u32 hsp_mark;
};

/* Bootloader image sizes AUTOLOAD accepts; padded to whole KiB [S, RE]. */
#define IPUXCOM_AUTOLOAD_MAX_BYTES	4096

/**
 * struct ipuxcom_ioc_autoload - install the tile bootloader on every tile
 * @size: sizeof(struct ipuxcom_ioc_autoload)
 * @flags: must be zero
 * @image: user pointer to the raw bootloader image
 * @image_size: 1 .. IPUXCOM_AUTOLOAD_MAX_BYTES bytes
 * @stage: out: on -ETIMEDOUT, which GO transaction did not finish (1 or 2)
 * @timeout_ns: per GO wait; 0 = 2 s (the hardware-proven loader's wait)
 * @csr: out: AUTOLDCSR as last read
 * @reserved: must be zero
 *
 * Runs the hardware-autoloader sequence of the design notes: the image is
 * zero-padded to a multiple of 1 KiB and written word by word to
 * AUTOLDDATAR, AUTOLDCSR being read back after every 32 words to flush the
 * posted writes; then the staging and delivery GO transactions. For the
 * notes' 948-byte bootloader the words are exactly the recorded ones
 * (256 data words, 0x02000400, 0x0010013f, 0x0209c001, 0x000b7f3f); the
 * range fields for 2-4 KiB images are modelled (docs/hardware-sequence.md).
 * Needs an idle device; leaves it in IPUXCOM_DEV_STATE_BOOTLOADER.
 */
struct ipuxcom_ioc_autoload {
	__u32 size;
	__u32 flags;
	__u64 image;
	__u32 image_size;
	__u32 stage;
	__u64 timeout_ns;
	__u32 csr;
	__u32 reserved;
};

/* Transport buffer size the design notes' loader uses (0x2842000) [RE]. */
#define IPUXCOM_XBUF_DEFAULT_SIZE	0x2842000u
#define IPUXCOM_XBUF_MAX_SIZE		0x4000000u

/*
 * Host buffers (uapi version 4). The transport buffer and the
 * host-exchange pages are the caller's own memory (anonymous or shmem:
 * private anonymous, MAP_SHARED | MAP_ANONYMOUS, memfd, tmpfs; never a
 * shared mapping of a regular file, which the module would write under
 * its file system's writeback: -EMEDIUMTYPE; page-aligned, writable):
 * BUF_ATTACH hands one to the module, which pins
 * it for the session (pin_user_pages(FOLL_LONGTERM), charged to the
 * RLIMIT_MEMLOCK of the caller's user, one budget for all its processes,
 * unless it has CAP_IPC_LOCK) and reads and writes
 * it where the sequences need (batch checks, the 0xff release fill).
 * Slot numbers are ipu_driver's BUFFER_ATTACH indexes: the loader's
 * transport buffer is index 0 [RE, HW-LOAD step 4], detached when the
 * load finishes; host-exchange page i is index i (uapi version 5; 1 + i
 * before), as the peer and the notes attach them [RE, S:
 * HW-BUF-INDEX]: a tile program finds a host page by
 * that index. Index 0 is the loader's buffer except between HOSTX_SETUP
 * BEGIN (which needs it detached) and the end of that host session.
 */
#define IPUXCOM_BUF_SLOT_LOADER		0
#define IPUXCOM_BUF_SLOT_HOSTX(i)	(i)
#define IPUXCOM_BUF_SLOTS		16
#define IPUXCOM_BUF_MAX_BYTES		0x4000000u	/* 64 MiB per buffer */

/**
 * struct ipuxcom_ioc_buf - attach or detach one host buffer
 * @size: sizeof(struct ipuxcom_ioc_buf)
 * @flags: must be zero
 * @index: slot, 0 .. IPUXCOM_BUF_SLOTS - 1 (ipu_driver's buffer index)
 * @reserved: must be zero
 * @addr: BUF_ATTACH: user address, page-aligned; BUF_DETACH: zero
 * @bytes: BUF_ATTACH: length, a page multiple, at most
 *	IPUXCOM_BUF_MAX_BYTES; BUF_DETACH: zero
 *
 * BUF_ATTACH selects HEXOPT (EXCHWINDOWBASER = 0x800, read back), pins the
 * pages and makes them the device's buffer @index, in that order, as the
 * hardware-proven sequence does before each attach [RE, HW-LOAD steps 4
 * and 9]. On a device held through ipu_driver the module cannot reach
 * ipu_driver's BUFFER_ATTACH: the caller issues it on its /dev/ipuN with
 * the same index, address and size right after BUF_ATTACH returns.
 * Slot 0 as the loader's buffer is accepted in IDLE and BOOTLOADER
 * (before batch 0); host slots (page i at slot i, page 0 at slot 0 too)
 * only between HOSTX_SETUP's BEGIN and COMMIT stages, in the manifest's
 * attach order. Errors: -EINVAL (index, alignment, size, order), -EEXIST
 * (slot in use), -EFAULT (not writable memory of this process),
 * -EMEDIUMTYPE (a page is neither anonymous nor shmem: a shared mapping of
 * a regular file, hugetlbfs, DAX), -ENOMEM (RLIMIT_MEMLOCK), -EBADFD (state),
 * -EBUSY (an EXCH_WRITE SELECT awaits its COMPLETE). What the state, the slot or the
 * caller's privilege refuses is refused before anything is pinned: a
 * refused attach faults in and pins no page, whatever its size.
 *
 * BUF_DETACH unpins @index; -EBUSY while the device is reading it
 * (slot 0 while LOADING, host pages while host exchange is set up; RESET
 * detaches those). Every pin is also dropped when the file is closed, at
 * RESET, and when the device is removed.
 */
struct ipuxcom_ioc_buf {
	__u32 size;
	__u32 flags;
	__u32 index;
	__u32 reserved;
	__u64 addr;
	__u64 bytes;
};

/* Why LOAD_BATCH rejected a batch (ipuxcom_ioc_load_batch.bad_reason). */
enum ipuxcom_frame_error {
	IPUXCOM_FRAME_ERR_OK = 0,
	IPUXCOM_FRAME_ERR_DESC_TAIL = 1,	/* descriptor bytes 512..4095 not zero */
	IPUXCOM_FRAME_ERR_DESC_COUNT = 2,	/* frame count not 17..643 */
	IPUXCOM_FRAME_ERR_DESC_OFFSET = 3,	/* offset unaligned, or frames past the buffer */
	IPUXCOM_FRAME_ERR_CHUNK = 4,	/* chunk index != frame number */
	IPUXCOM_FRAME_ERR_TILE = 5,		/* physical tile id != descriptor's tile */
	IPUXCOM_FRAME_ERR_FLAGS = 6,	/* final flag missing, or on a non-final frame */
	IPUXCOM_FRAME_ERR_RESERVED = 7,	/* reserved word not zero */
	IPUXCOM_FRAME_ERR_TRAILER = 8,	/* trailer not 16 bytes of 0xff */
};

/* 23 batches of 64 physical tiles cover the C600's 1472 tiles [S]. */
#define IPUXCOM_LOAD_BATCHES		23
#define IPUXCOM_LOAD_BATCH_TILES	64

/**
 * struct ipuxcom_ioc_load_batch - hand one 64-tile batch to the loaders
 * @size: sizeof(struct ipuxcom_ioc_load_batch)
 * @flags: must be zero
 * @batch: in: 0 .. IPUXCOM_LOAD_BATCHES - 1, in order
 * @mark: out: GS1 mark as last read (on -EBUSY: the mark found pending)
 * @timeout_ns: 0 = 10 s (the hardware-proven loader's wait)
 * @bad_tile: out: on -EINVAL, physical tile whose frames are wrong
 * @bad_frame: out: on -EINVAL, frame index within that tile
 * @bad_reason: out: on -EINVAL, enum ipuxcom_frame_error
 * @reserved: must be zero
 *
 * The transport buffer holds the batch's descriptor table (64 entries of
 * {frame byte offset, frame count}, 17..643 frames each) and frames. The
 * module checks them and zeroes whatever an earlier batch or load left
 * beyond this batch's frames, so the loaders find the buffer as the SDK
 * leaves it. The buffer is the caller's, attached in slot 0 with
 * BUF_ATTACH (which selects HEXOPT first) before batch 0; -ENOBUFS
 * without it. Batch 0 arms the 16 exchange-buffer controls and clears
 * PCI_COMPLEX.CCSR.NOSNOOP/ELINKECRCEN. Then GS1 mark 1 is posted and the
 * loaders must return it to zero. A GS1 mark already pending (e.g. left by
 * a config replay) is never posted over: -EBUSY, @mark says which, and
 * nothing was written.
 */
struct ipuxcom_ioc_load_batch {
	__u32 size;
	__u32 flags;
	__u32 batch;
	__u32 mark;
	__u64 timeout_ns;
	__u32 bad_tile;
	__u32 bad_frame;
	__u32 bad_reason;
	__u32 reserved;
};

/**
 * struct ipuxcom_ioc_load_finish - release and start the loaded tiles
 * @size: sizeof(struct ipuxcom_ioc_load_finish)
 * @flags: must be zero
 * @timeout_ns: per wait; 0 = 10 s
 * @mark: out: GS1 mark as last read
 * @stage: out: on -ETIMEDOUT, 1 = the 0xff release transaction, 2 = start
 *
 * Fills the transport buffer with 0xff, waits for GS1 MARK 0, runs one
 * more mark-1 transaction, posts the start mark 23 and waits for zero,
 * then restores the operational XB.DCXCR (request ids 0 and 1) and
 * PCI_COMPLEX.CCSR (read back), selects HEXOPT and detaches the transport
 * buffer from the device. Needs all 23 batches. -EBUSY, with nothing
 * done, while an EXCH_WRITE SELECT awaits its COMPLETE.
 */
struct ipuxcom_ioc_load_finish {
	__u32 size;
	__u32 flags;
	__u64 timeout_ns;
	__u32 mark;
	__u32 stage;
};

#define IPUXCOM_HSP_GS1		1
#define IPUXCOM_HSP_GS2		2
#define IPUXCOM_HSP_F_WAIT	_BITUL(0)	/* wait for the mark to return to 0 */

/**
 * struct ipuxcom_ioc_hsp_mark - post an HSP general-sync mark
 * @size: sizeof(struct ipuxcom_ioc_hsp_mark)
 * @flags: IPUXCOM_HSP_F_WAIT
 * @gs: IPUXCOM_HSP_GS1 or IPUXCOM_HSP_GS2
 * @mark: 1 .. 0xffff
 * @timeout_ns: with IPUXCOM_HSP_F_WAIT; 0 = 10 s
 * @final_mark: out: the MARK field as last read
 * @reserved: must be zero
 *
 * Needs a running device. A mark is never posted over a pending one:
 * -EBUSY (with @final_mark the pending MARK) if the control's MARK is not
 * zero, and nothing is written.
 */
struct ipuxcom_ioc_hsp_mark {
	__u32 size;
	__u32 flags;
	__u32 gs;
	__u32 mark;
	__u64 timeout_ns;
	__u32 final_mark;
	__u32 reserved;
};

/* TDI registers of one tile [S "Debug Readback Pivot"]. */
#define IPUXCOM_TDI_NREGS	13
enum ipuxcom_tdi_reg {
	IPUXCOM_TDI_CTXT_STS = 0,
	IPUXCOM_TDI_DBG_RBRK = 1,
	IPUXCOM_TDI_DBG_RBRK_VERT = 2,
	IPUXCOM_TDI_DBG_IEXEC = 3,
	IPUXCOM_TDI_DBG_IOWNER = 4,
	IPUXCOM_TDI_DBG_ECSR = 5,
	IPUXCOM_TDI_DBG_ECLR = 6,
	IPUXCOM_TDI_DBG_DATA = 7,
	IPUXCOM_TDI_TDI_STS = 8,
	IPUXCOM_TDI_TDI_CLR = 9,
	IPUXCOM_TDI_INCOMING_DCOUNT = 10,
	IPUXCOM_TDI_EXCHANGE_CTL = 11,
	IPUXCOM_TDI_TDI_CTL = 12,
};

/* TDI_STS bits [S]. */
#define IPUXCOM_TDI_STS_NOT_QUIESCENT	_BITUL(0)
#define IPUXCOM_TDI_STS_INVALID		_BITUL(1)
#define IPUXCOM_TDI_STS_DOUBLE_ISSUE	_BITUL(2)
#define IPUXCOM_TDI_STS_BUSY		_BITUL(3)

/* Tile contexts 0 .. 6; 0 is the supervisor [S]. */
#define IPUXCOM_TDI_CONTEXTS	7

/**
 * struct ipuxcom_ioc_tdi_regs - read the TDI registers of one tile
 * @size: sizeof(struct ipuxcom_ioc_tdi_regs)
 * @flags: must be zero
 * @tile: physical tile id
 * @count: out: IPUXCOM_TDI_NREGS
 * @regs: out: indexed by enum ipuxcom_tdi_reg; unused entries zero
 */
struct ipuxcom_ioc_tdi_regs {
	__u32 size;
	__u32 flags;
	__u32 tile;
	__u32 count;
	__u32 regs[16];
};

#define IPUXCOM_TDI_F_SET_DATA	_BITUL(0)	/* write data_in to DBG_DATA first */

/**
 * struct ipuxcom_ioc_tdi_exec - inject one instruction into a context
 * @size: sizeof(struct ipuxcom_ioc_tdi_exec)
 * @flags: IPUXCOM_TDI_F_SET_DATA
 * @tile: physical tile id
 * @context: 0 .. IPUXCOM_TDI_CONTEXTS - 1
 * @insn: instruction word
 * @data_in: DBG_DATA value with IPUXCOM_TDI_F_SET_DATA
 * @timeout_ns: 0 = 100 ms
 * @data_out: out: DBG_DATA after the instruction
 * @tdi_sts: out: TDI_STS after the instruction; 0 if none was injected
 *
 * A TDI session (same for TDI_READ_SRAM/TDI_WRITE_SRAM): sets the
 * context's DBG_RBRK bit and polls CTXT_STS until the context is no
 * longer running (bounded by @timeout_ns; a context found stopped, or
 * inactive on a tile where some context is not, is used as found),
 * before each injection clears the sticky TDI_STS error bits (TDI_CLR =
 * 0x6) and names the owner (DBG_IOWNER = @context), injects @insn and
 * waits for TDI_STS busy to clear. On every path, success or failure, it then writes back
 * what it read at the start: DBG_IOWNER and DBG_RBRK exactly as found
 * (which releases the context), clears a DBG_ECSR debug exception of the
 * context that the session raised (through DBG_ECLR; one found is kept)
 * and leaves the TDI_STS error bits clear. If DBG_RBRK could not be read,
 * nothing is written back. The instruction's own effect ($m registers,
 * DBG_DATA) is the point of TDI_EXEC and is not undone.
 *
 * Errors: -ENOEXEC if the context cannot execute: every context of the
 * tile inactive (seen in CTXT_STS before anything is written) or TDI_STS
 * context-not-quiescent;
 * -EILSEQ if the instruction or its address was invalid; -ETIMEDOUT if
 * the context did not stop or TDI stayed busy (the device is then
 * NEEDS_RESET, as after every timed-out wait). The first error is
 * returned; if restoring the state fails, the command fails too (with the
 * first error, or the restore's if there was none) and the device is
 * marked NEEDS_RESET. The CTXT_STS encoding (2 bits per context: 0
 * inactive, 1 running, 2 stopped) and the DBG_ECSR/DBG_ECLR fields (bit
 * per context) are modelled, not recorded. Needs CAP_SYS_RAWIO.
 */
struct ipuxcom_ioc_tdi_exec {
	__u32 size;
	__u32 flags;
	__u32 tile;
	__u32 context;
	__u32 insn;
	__u32 data_in;
	__u64 timeout_ns;
	__u32 data_out;
	__u32 tdi_sts;
};

#define IPUXCOM_TDI_SRAM_MAX_WORDS	65536

/**
 * struct ipuxcom_ioc_tdi_sram - read or write tile SRAM through TDI
 * @size: sizeof(struct ipuxcom_ioc_tdi_sram)
 * @flags: must be zero
 * @tile: physical tile id
 * @context: context used for the injected loads/stores (0 = supervisor)
 * @addr: tile SRAM byte address, 4-byte aligned
 * @count: words, 1 .. IPUXCOM_TDI_SRAM_MAX_WORDS
 * @data: user pointer to @count __u32
 * @timeout_ns: per wait (the stop, each injected instruction); 0 = 100 ms
 * @done: out: words transferred
 * @tdi_sts: out: TDI_STS at the end
 *
 * TDI_READ_SRAM uses get $m1,$DBG_DATA; ld32; put $DBG_DATA,$m0 on the
 * stopped context. TDI_WRITE_SRAM (needs CAP_SYS_RAWIO) uses
 * get $m1,$DBG_DATA; get $m0,$DBG_DATA; st32. Both leave the tile as they
 * found it: the session of struct ipuxcom_ioc_tdi_exec, and in addition
 * DBG_DATA, $m0 and $m1 are saved after the stop (put $DBG_DATA,$m0 and
 * put $DBG_DATA,$m1; the encoding of the latter, 0x43108070, is inferred,
 * not recorded) and restored with get $m0/$m1,$DBG_DATA before the
 * run-break is, including after an injection failed mid-transfer. They
 * are not restored after a timed-out injection (another would be a double
 * issue; the device is NEEDS_RESET). @done counts the words transferred
 * before an error; @tdi_sts is the transfer's, not the restore's. Errors
 * as for TDI_EXEC.
 */
struct ipuxcom_ioc_tdi_sram {
	__u32 size;
	__u32 flags;
	__u32 tile;
	__u32 context;
	__u32 addr;
	__u32 count;
	__u64 data;
	__u64 timeout_ns;
	__u32 done;
	__u32 tdi_sts;
};

/*
 * Host tensor exchange [S "Host Tensor Exchange"]: host pages shared with
 * the running device, and GS2 phase handoffs. The pages are the caller's
 * memory, attached with BUF_ATTACH (page i in slot IPUXCOM_BUF_SLOT_HOSTX(i)).
 */
#define IPUXCOM_HOSTX_MAX_PAGES		16
#define IPUXCOM_HOSTX_MAX_PAGE_BYTES	0x4000000u	/* 64 MiB */

/**
 * struct ipuxcom_ioc_hostx_setup - pages and the load-completion transition
 * @size: sizeof(struct ipuxcom_ioc_hostx_setup)
 * @flags: IPUXCOM_HOSTX_F_BEGIN or IPUXCOM_HOSTX_F_COMMIT (exactly one)
 * @npages: 1 .. IPUXCOM_HOSTX_MAX_PAGES
 * @timeout_ns: for the GS2 wait; 0 = 10 s
 * @page_bytes: in: size of page i, a multiple of 4096, at most 64 MiB
 * @attach_order: in: the order the pages are attached in (a permutation)
 * @mark: out: GS2 MARK as last read
 * @reserved: must be zero
 * @reserved2: must be zero
 *
 * The notes' order, in three steps (uapi version 4): BEGIN (needs a
 * running device, after LOAD_FINISH) selects HEXOPT, posts GS1 mark 1 and
 * waits for the preloaded GS2 mark to reach zero. The caller then attaches
 * the pages in @attach_order with BUF_ATTACH (which reselects HEXOPT before
 * each) and, on a device held through ipu_driver, ipu_driver's
 * BUFFER_ATTACH. COMMIT, with the same members as BEGIN, checks every page
 * is attached with its size and posts the GS2 load-completion mark. A
 * failure after BEGIN leaves the device in NEEDS_RESET. BEGIN is -EBUSY
 * while an EXCH_WRITE SELECT awaits its COMPLETE.
 */
struct ipuxcom_ioc_hostx_setup {
	__u32 size;
	__u32 flags;
	__u32 npages;
	__u32 reserved;
	__u64 timeout_ns;
	__u32 page_bytes[IPUXCOM_HOSTX_MAX_PAGES];
	__u32 attach_order[IPUXCOM_HOSTX_MAX_PAGES];
	__u32 mark;
	__u32 reserved2;
};

#define IPUXCOM_HOSTX_F_BEGIN	_BITUL(0)
#define IPUXCOM_HOSTX_F_COMMIT	_BITUL(1)

/**
 * struct ipuxcom_ioc_hostx_call - hand GS2 phases between host and device
 * @size: sizeof(struct ipuxcom_ioc_hostx_call)
 * @flags: must be zero
 * @phases: 1 .. 0xffff: the call's phase count (from the manifest)
 * @done: out: phases completed
 * @timeout_ns: per phase; 0 = 10 s
 * @mark: out: GS2 MARK as last read
 * @reserved: must be zero
 *
 * Waits for the previous GS2 mark to return to zero, then for each phase
 * posts GS2 mark 1 and waits for zero. The caller writes the callable id
 * and the inputs into the pages before, and reads the outputs after.
 */
struct ipuxcom_ioc_hostx_call {
	__u32 size;
	__u32 flags;
	__u32 phases;
	__u32 done;
	__u64 timeout_ns;
	__u32 mark;
	__u32 reserved;
};

#define IPUXCOM_EXCH_WRITE_MAX_BYTES	65536

/**
 * struct ipuxcom_ioc_exch_write - EXPERIMENTAL: tile SRAM write through
 *	the exchange window
 * @size: sizeof(struct ipuxcom_ioc_exch_write)
 * @flags: 0, IPUXCOM_EXCH_F_SELECT or IPUXCOM_EXCH_F_COMPLETE
 * @tile: LOGICAL tile id: the exchange window index is logical [S]
 * @addr: tile SRAM byte address, 4-byte aligned
 * @bytes: 4 .. IPUXCOM_EXCH_WRITE_MAX_BYTES, a multiple of 4
 * @tileupdr: out: TILEUPDR as last read
 * @data: user pointer to @bytes bytes; zero with a flag
 * @timeout_ns: for the TILEUPDR poll; 0 = 100 ms
 *
 * The notes' sequence [S "Experimental Tile SRAM Writes"]: EXCHWINDOWBASER
 * = @tile with HEXOPT clear, read back to flush, store through the
 * exchange BAR at 0x80000 + (@addr - 0x4c000), poll TILEUPDR until
 * LASTTILEID[27:17] == @tile and LASTADDR[16:0] == last byte offset >> 3;
 * EXCHWINDOWBASER is then restored. EXPERIMENTAL because the notes could
 * not confirm the data reaches a running tile (their poison test timed
 * out): TILEUPDR completion is what is checked, not delivery. Needs
 * CAP_SYS_RAWIO.
 *
 * Without a flag the module stores @data itself (a backend that reaches
 * the exchange BAR: the simulator). On a device held through ipu_driver
 * the stores go through the caller's mapping of /dev/ipuN_ex, after the
 * caller's ipu_driver SET_HEXOPT_IDENTITY_TABLE on /dev/ipuN (the notes'
 * first step; libipuxcom issues it): SELECT
 * saves and selects the window (read back), the caller stores @bytes at
 * exchange-BAR offset 0x80000 + (@addr - 0x4c000), and COMPLETE, with the
 * same @tile, @addr and @bytes, polls TILEUPDR and restores the window.
 * COMPLETE without a matching SELECT is -EBADFD; a flag on a device that
 * stores itself is -EINVAL. One SELECT at a time: a second SELECT before
 * the first's COMPLETE is -EBUSY (the window the first saved stays the one
 * COMPLETE restores), and so are the commands that select HEXOPT -
 * BUF_ATTACH, HOSTX_SETUP BEGIN, LOAD_FINISH - so the window stays the
 * caller's until COMPLETE. RESET, and closing the file (which leaves the
 * device NEEDS_RESET), end a SELECT.
 */
struct ipuxcom_ioc_exch_write {
	__u32 size;
	__u32 flags;
	__u32 tile;
	__u32 addr;
	__u32 bytes;
	__u32 tileupdr;
	__u64 data;
	__u64 timeout_ns;
};

#define IPUXCOM_EXCH_F_SELECT	_BITUL(0)
#define IPUXCOM_EXCH_F_COMPLETE	_BITUL(1)

enum ipuxcom_ioc_nr {
	IPUXCOM_CMD_INFO = 0x00,
	IPUXCOM_CMD_ATTACH = 0x01,
	IPUXCOM_CMD_DEV_QUERY = 0x02,
	IPUXCOM_CMD_REG_READ = 0x03,
	IPUXCOM_CMD_REG_WRITE = 0x04,
	IPUXCOM_CMD_RESET = 0x05,
	IPUXCOM_CMD_CFG_APPLY = 0x06,
	IPUXCOM_CMD_AUTOLOAD = 0x07,
	/* 0x08 was XBUF_ALLOC (module-allocated transport buffer) until uapi 3 */
	IPUXCOM_CMD_LOAD_BATCH = 0x09,
	IPUXCOM_CMD_LOAD_FINISH = 0x0a,
	IPUXCOM_CMD_HSP_MARK = 0x0b,
	IPUXCOM_CMD_TDI_READ_REGS = 0x0c,
	IPUXCOM_CMD_TDI_EXEC = 0x0d,
	IPUXCOM_CMD_TDI_READ_SRAM = 0x0e,
	IPUXCOM_CMD_TDI_WRITE_SRAM = 0x0f,
	IPUXCOM_CMD_HOSTX_SETUP = 0x10,
	IPUXCOM_CMD_HOSTX_CALL = 0x11,
	IPUXCOM_CMD_EXCH_WRITE = 0x12,
	IPUXCOM_CMD_BUF_ATTACH = 0x13,
	IPUXCOM_CMD_BUF_DETACH = 0x14,
};

#define IPUXCOM_IOC_INFO	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_INFO)
#define IPUXCOM_IOC_ATTACH	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_ATTACH)
#define IPUXCOM_IOC_DEV_QUERY	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_DEV_QUERY)
#define IPUXCOM_IOC_REG_READ	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_REG_READ)
#define IPUXCOM_IOC_REG_WRITE	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_REG_WRITE)
#define IPUXCOM_IOC_RESET	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_RESET)
#define IPUXCOM_IOC_CFG_APPLY	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_CFG_APPLY)
#define IPUXCOM_IOC_AUTOLOAD	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_AUTOLOAD)
#define IPUXCOM_IOC_LOAD_BATCH	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_LOAD_BATCH)
#define IPUXCOM_IOC_LOAD_FINISH	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_LOAD_FINISH)
#define IPUXCOM_IOC_HSP_MARK	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_HSP_MARK)
#define IPUXCOM_IOC_TDI_READ_REGS _IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_TDI_READ_REGS)
#define IPUXCOM_IOC_TDI_EXEC	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_TDI_EXEC)
#define IPUXCOM_IOC_TDI_READ_SRAM _IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_TDI_READ_SRAM)
#define IPUXCOM_IOC_TDI_WRITE_SRAM _IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_TDI_WRITE_SRAM)
#define IPUXCOM_IOC_HOSTX_SETUP	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_HOSTX_SETUP)
#define IPUXCOM_IOC_HOSTX_CALL	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_HOSTX_CALL)
#define IPUXCOM_IOC_EXCH_WRITE	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_EXCH_WRITE)
#define IPUXCOM_IOC_BUF_ATTACH	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_BUF_ATTACH)
#define IPUXCOM_IOC_BUF_DETACH	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_BUF_DETACH)

/*
 * Generic netlink family "ipuxcom".
 *
 * IPUXCOM_CMD_DEV_GET: do (with IPUXCOM_A_DEV_ID) returns one device;
 * dump returns every device. Errors carry an extended-ack message naming
 * the offending attribute.
 */
#define IPUXCOM_GENL_NAME	"ipuxcom"
#define IPUXCOM_GENL_VERSION	1

/*
 * Multicast group IPUXCOM_GENL_MCGRP_EVENTS carries notifications, each a
 * message with the command below and IPUXCOM_A_DEV_ID:
 *   DEV_NEW / DEV_DEL   a backend registered / unregistered a device
 *                       (DEV_NEW carries the DEV_GET attributes)
 *   STATE               IPUXCOM_A_DEV_STATE, IPUXCOM_A_OLD_STATE
 *   LOAD_PROGRESS       after each LOAD_BATCH: IPUXCOM_A_BATCH (batches
 *                       done), IPUXCOM_A_BATCHES (23), IPUXCOM_A_BYTES
 *                       (frame payload bytes of that batch)
 *   TIMEOUT             a bounded wait ended without its condition:
 *                       IPUXCOM_A_REG (offset polled), IPUXCOM_A_VALUE (last
 *                       value read, e.g. the HSP mark), IPUXCOM_A_ERROR
 *   RESET               RESET ran: IPUXCOM_A_ERROR (0 on success)
 * Events are never requests: sending one gets -EOPNOTSUPP.
 */
#define IPUXCOM_GENL_MCGRP_EVENTS	"events"

enum ipuxcom_genl_cmd {
	IPUXCOM_GENL_CMD_UNSPEC,
	IPUXCOM_GENL_CMD_DEV_GET,	/* do + dump */
	IPUXCOM_GENL_CMD_DEV_NEW,	/* event */
	IPUXCOM_GENL_CMD_DEV_DEL,	/* event */
	IPUXCOM_GENL_CMD_STATE,		/* event */
	IPUXCOM_GENL_CMD_LOAD_PROGRESS,	/* event */
	IPUXCOM_GENL_CMD_TIMEOUT,	/* event */
	IPUXCOM_GENL_CMD_RESET,		/* event */

	__IPUXCOM_GENL_CMD_MAX,
	IPUXCOM_GENL_CMD_MAX = __IPUXCOM_GENL_CMD_MAX - 1
};

enum ipuxcom_genl_attr {
	IPUXCOM_A_UNSPEC,
	IPUXCOM_A_DEV_ID,		/* u32 */
	IPUXCOM_A_DEV_BACKEND,		/* string */
	IPUXCOM_A_DEV_STATE,		/* u32, enum ipuxcom_dev_state */
	/* u32, 0 when not attached; uapi 4: only to callers with CAP_NET_ADMIN */
	IPUXCOM_A_DEV_ATTACHED_PID,
	IPUXCOM_A_DEV_TILE_COUNT,	/* u32 */
	IPUXCOM_A_PAD,			/* alignment padding for u64 attributes */
	IPUXCOM_A_DEV_CAPABILITIES,	/* u64, IPUXCOM_CAP_* of the device */
	IPUXCOM_A_OLD_STATE,		/* u32, enum ipuxcom_dev_state */
	IPUXCOM_A_BATCH,		/* u32 */
	IPUXCOM_A_BATCHES,		/* u32 */
	IPUXCOM_A_BYTES,		/* u64 */
	IPUXCOM_A_REG,			/* u32, config-BAR offset */
	IPUXCOM_A_VALUE,		/* u32 */
	IPUXCOM_A_ERROR,		/* s32, negative errno or 0 */
	IPUXCOM_A_DEV_IPU_NODE,		/* string, ipu_driver node the session holds */
	IPUXCOM_A_DEV_ATTACHED,		/* u32, 1 when a file is attached; uapi 4 */

	__IPUXCOM_A_MAX,
	IPUXCOM_A_MAX = __IPUXCOM_A_MAX - 1
};

#endif /* _UAPI_LINUX_IPUXCOM_H */
