/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Frozen layouts of the ipuxcom ioctl structs. Included by the module and
 * by a host test, so a change to uapi/linux/ipuxcom.h that moves a member
 * or adds implicit padding fails to build on both sides.
 */
#ifndef IPUXCOM_ABI_LAYOUT_H
#define IPUXCOM_ABI_LAYOUT_H

#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/stddef.h>
#else
#include <assert.h>
#include <stddef.h>
#endif
#include <linux/ipuxcom.h>

#define IPUXCOM_ASSERT_MEMBER(type, member, off)			\
	static_assert(offsetof(struct type, member) == (off),		\
		       #type "." #member " moved")
#define IPUXCOM_ASSERT_SIZE(type, sz)					\
	static_assert(sizeof(struct type) == (sz), #type " size changed")

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_info, 32);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_info, flags, 4);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_info, uapi_version, 8);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_info, device_count, 12);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_info, capabilities, 16);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_info, max_config_bar, 24);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_info, reserved, 28);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_attach, 48);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_attach, dev_id, 8);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_attach, ipu_fd, 12);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_attach, cfg_map, 16);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_attach, ex_map, 24);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_attach, ex_map_len, 32);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_attach, ex_fd, 40);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_attach, reserved, 44);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_dev_query, 64);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_dev_query, dev_id, 8);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_dev_query, state, 12);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_dev_query, tile_count, 16);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_dev_query, config_bar_size, 20);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_dev_query, backend, 24);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_dev_query, capabilities, 40);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_dev_query, ipu_node, 48);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_reg, 16);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_reg, offset, 8);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_reg, value, 12);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_reset, 16);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_reset, state, 8);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_reset, reserved, 12);

IPUXCOM_ASSERT_SIZE(ipuxcom_cfg_record, 8);
IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_cfg_apply, 40);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_cfg_apply, records, 8);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_cfg_apply, count, 16);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_cfg_apply, bad_index, 24);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_cfg_apply, skipped, 28);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_cfg_apply, hsp_mark, 36);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_autoload, 40);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_autoload, image, 8);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_autoload, image_size, 16);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_autoload, timeout_ns, 24);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_autoload, csr, 32);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_buf, 32);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_buf, index, 8);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_buf, addr, 16);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_buf, bytes, 24);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_load_batch, 40);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_load_batch, timeout_ns, 16);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_load_batch, bad_tile, 24);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_load_batch, reserved, 36);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_load_finish, 24);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_load_finish, timeout_ns, 8);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_load_finish, stage, 20);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_hsp_mark, 32);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_hsp_mark, timeout_ns, 16);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_hsp_mark, final_mark, 24);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_tdi_regs, 80);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_tdi_regs, regs, 16);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_tdi_exec, 40);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_tdi_exec, timeout_ns, 24);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_tdi_exec, tdi_sts, 36);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_tdi_sram, 48);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_tdi_sram, data, 24);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_tdi_sram, timeout_ns, 32);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_tdi_sram, tdi_sts, 44);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_hostx_setup, 160);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_hostx_setup, timeout_ns, 16);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_hostx_setup, page_bytes, 24);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_hostx_setup, attach_order, 88);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_hostx_setup, mark, 152);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_hostx_call, 32);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_hostx_call, timeout_ns, 16);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_hostx_call, mark, 24);

IPUXCOM_ASSERT_SIZE(ipuxcom_ioc_exch_write, 40);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_exch_write, data, 24);
IPUXCOM_ASSERT_MEMBER(ipuxcom_ioc_exch_write, timeout_ns, 32);

#endif /* IPUXCOM_ABI_LAYOUT_H */
