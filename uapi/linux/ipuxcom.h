/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
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
#define IPUXCOM_UAPI_VERSION	1

#define IPUXCOM_IOC_MAGIC	0xC6

/* Capability bits reported by IPUXCOM_IOC_INFO. */
#define IPUXCOM_CAP_ATTACH	_BITULL(0)	/* exclusive ATTACH/close release */
#define IPUXCOM_CAP_REG		_BITULL(1)	/* REG_READ / REG_WRITE */
#define IPUXCOM_CAP_RESET	_BITULL(2)	/* RESET */
#define IPUXCOM_CAP_NETLINK	_BITULL(3)	/* generic netlink "ipuxcom" */

/* Length of backend names, including the terminating NUL. */
#define IPUXCOM_BACKEND_NAME_LEN	16

/* Device states, reported by DEV_QUERY and netlink DEV_GET. */
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
 * @reserved: out: zero
 *
 * Needs no ATTACH. All members after @flags are outputs; their input
 * values are ignored.
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
 * @flags: must be zero
 * @dev_id: in: device id (see netlink DEV_GET or `ipuxcom dev show`)
 * @reserved: must be zero
 *
 * A device is held by at most one open file: -EBUSY if another file holds
 * it, -EALREADY if this file is already attached (to any device), -ENODEV
 * if no such device. The binding ends when the file is closed (the last
 * reference to the open file description is dropped).
 */
struct ipuxcom_ioc_attach {
	__u32 size;
	__u32 flags;
	__u32 dev_id;
	__u32 reserved;
};

/**
 * struct ipuxcom_ioc_dev_query - describe the attached device
 * @size: sizeof(struct ipuxcom_ioc_dev_query)
 * @flags: must be zero
 * @dev_id: out: device id
 * @state: out: enum ipuxcom_dev_state
 * @tile_count: out: number of tiles (1472 on a C600)
 * @config_bar_size: out: bytes of config BAR reachable by REG_READ/WRITE
 * @backend: out: NUL-terminated backend name ("sim", "hw")
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
 * @flags: must be zero
 * @state: out: device state after the reset
 * @reserved: out: zero
 */
struct ipuxcom_ioc_reset {
	__u32 size;
	__u32 flags;
	__u32 state;
	__u32 reserved;
};

enum ipuxcom_ioc_nr {
	IPUXCOM_CMD_INFO = 0x00,
	IPUXCOM_CMD_ATTACH = 0x01,
	IPUXCOM_CMD_DEV_QUERY = 0x02,
	IPUXCOM_CMD_REG_READ = 0x03,
	IPUXCOM_CMD_REG_WRITE = 0x04,
	IPUXCOM_CMD_RESET = 0x05,
};

#define IPUXCOM_IOC_INFO	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_INFO)
#define IPUXCOM_IOC_ATTACH	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_ATTACH)
#define IPUXCOM_IOC_DEV_QUERY	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_DEV_QUERY)
#define IPUXCOM_IOC_REG_READ	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_REG_READ)
#define IPUXCOM_IOC_REG_WRITE	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_REG_WRITE)
#define IPUXCOM_IOC_RESET	_IO(IPUXCOM_IOC_MAGIC, IPUXCOM_CMD_RESET)

/*
 * Generic netlink family "ipuxcom".
 *
 * IPUXCOM_CMD_DEV_GET: do (with IPUXCOM_A_DEV_ID) returns one device;
 * dump returns every device. Errors carry an extended-ack message naming
 * the offending attribute.
 */
#define IPUXCOM_GENL_NAME	"ipuxcom"
#define IPUXCOM_GENL_VERSION	1

enum ipuxcom_genl_cmd {
	IPUXCOM_GENL_CMD_UNSPEC,
	IPUXCOM_GENL_CMD_DEV_GET,	/* do + dump */

	__IPUXCOM_GENL_CMD_MAX,
	IPUXCOM_GENL_CMD_MAX = __IPUXCOM_GENL_CMD_MAX - 1
};

enum ipuxcom_genl_attr {
	IPUXCOM_A_UNSPEC,
	IPUXCOM_A_DEV_ID,		/* u32 */
	IPUXCOM_A_DEV_BACKEND,		/* string */
	IPUXCOM_A_DEV_STATE,		/* u32, enum ipuxcom_dev_state */
	IPUXCOM_A_DEV_ATTACHED_PID,	/* u32, 0 when not attached */
	IPUXCOM_A_DEV_TILE_COUNT,	/* u32 */

	__IPUXCOM_A_MAX,
	IPUXCOM_A_MAX = __IPUXCOM_A_MAX - 1
};

#endif /* _UAPI_LINUX_IPUXCOM_H */
