/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * The part of Graphcore ipu_driver's user ABI that ipuxcom uses, as the
 * public record has it (HW-IOCTLS in docs/hardware-record.md; [RE] is the peer
 * stack that loaded full applications on a C600 through exactly these
 * calls). This is not ipuxcom's ABI: it is ipu_driver's, retyped here
 * because Graphcore publishes no header. The library issues these on the
 * caller's /dev/ipuN; the test stand-in for ipu_driver
 * (selftests/kmod/ipu_standin.c) implements them.
 *
 * Numbers and sizes are [RE] (HW-IOCTLS). How each argument is passed is
 * how [RE] passes it: "by value" ioctls take the integer as the third
 * argument of ioctl(2), the others a pointer to the struct named. What
 * the values mean beyond that record is not documented (e.g. which id
 * SET_IPU_ID takes: [RE] passes 0 for its one card).
 */
#ifndef _UAPI_LINUX_IPUXCOM_IPU_DRIVER_H
#define _UAPI_LINUX_IPUXCOM_IPU_DRIVER_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define IPU_DRV_IOC_MAGIC	0xed

/* BUFFER_ATTACH argument [RE]: a host buffer and its index. */
struct ipu_drv_buffer {
	__u32 index;
	__u32 size;
	__u64 addr;
};

/* ICU mailbox messages are five 32-bit words [RE]. */
#define IPU_DRV_MAILBOX_WORDS	5

/* MAILBOX_WRITE_READ argument [RE]: user pointers to the two messages. */
struct ipu_drv_mailbox {
	__u64 sent_ptr;
	__u64 recv_ptr;
};

/*
 * The ICU reset request of the initialisation sequence, and the check of
 * its reply: word 0 carries 0x4078 in bits 31:16 [RE, HW-DRV-INIT].
 */
#define IPU_DRV_ICU_RESET_REQUEST	0x4078020eu
#define IPU_DRV_ICU_REPLY_MASK		0xffff0000u
#define IPU_DRV_ICU_REPLY_TAG		0x40780000u

/* The size field is 8 (pointer-sized) for all of these [RE]. */
#define IPU_DRV_IOWR8(nr)	_IOC(_IOC_READ | _IOC_WRITE, IPU_DRV_IOC_MAGIC, (nr), 8)

#define IPU_DRV_USER_ATTACH		IPU_DRV_IOWR8(10) /* by value: 0 */
#define IPU_DRV_BUFFER_ATTACH		IPU_DRV_IOWR8(11) /* struct ipu_drv_buffer * */
#define IPU_DRV_BUFFER_DETACH		IPU_DRV_IOWR8(12) /* by value: the index */
#define IPU_DRV_SET_IPU_ID		IPU_DRV_IOWR8(14) /* by value: the id */
#define IPU_DRV_BUFFER_DETACH_ALL	_IO(IPU_DRV_IOC_MAGIC, 18)
#define IPU_DRV_MAILBOX_WRITE_READ	IPU_DRV_IOWR8(31) /* struct ipu_drv_mailbox * */
#define IPU_DRV_STOP_MONITORING		_IO(IPU_DRV_IOC_MAGIC, 34)
#define IPU_DRV_START_MONITORING	_IO(IPU_DRV_IOC_MAGIC, 35)
#define IPU_DRV_ACCUMULATE_ERRORS	_IO(IPU_DRV_IOC_MAGIC, 36)
#define IPU_DRV_SET_HEXOPT_IDENTITY_TABLE _IO(IPU_DRV_IOC_MAGIC, 44)
#define IPU_DRV_RESET_DEVICE		_IOC(_IOC_WRITE, IPU_DRV_IOC_MAGIC, 45, 4) /* by value: 0 */
#define IPU_DRV_SET_SECONDARY_IPU_ID	_IOC(_IOC_WRITE, IPU_DRV_IOC_MAGIC, 47, 8) /* __u32 * */

/*
 * /dev/ipuN_ex maps the exchange BAR; a tile-window store goes at offset
 * 0x80000 + (tile address - 0x4c000) [S "Experimental Tile SRAM Writes"].
 */
#define IPU_DRV_EXCH_WINDOW_OFFSET	0x80000u

#endif /* _UAPI_LINUX_IPUXCOM_IPU_DRIVER_H */
