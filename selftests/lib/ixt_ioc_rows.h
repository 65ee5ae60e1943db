/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every ioctl of uapi/linux/ipuxcom.h as one valid-looking request each, in
 * the uapi's privilege-matrix order: the request, whether it needs
 * CAP_SYS_RAWIO, and a filler for its argument (@page: a page of the
 * caller's for the requests that take one). Used by privilege_test (the
 * matrix both ways) and failnth_test (each ioctl under fail-nth). A request
 * may still fail for the state the device is in; that is the point of
 * neither test.
 */
#ifndef IXT_IOC_ROWS_H
#define IXT_IOC_ROWS_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/ipuxcom.h>

#define UNDOC_REG	0x0100u		/* outside the HW-REGS table */
#define GS1_REG		0x302cu		/* HSP GS1: documented */

static uint32_t image[256] __attribute__((unused));		/* an AUTOLOAD image: 1 KiB */
static struct ipuxcom_cfg_record cfg_rec __attribute__((unused)) = { GS1_REG, 0 };
static uint32_t word __attribute__((unused)) = 0x12345678;

union any_ioc {
	struct ipuxcom_ioc_info info;
	struct ipuxcom_ioc_dev_query q;
	struct ipuxcom_ioc_reg reg;
	struct ipuxcom_ioc_reset rs;
	struct ipuxcom_ioc_cfg_apply ca;
	struct ipuxcom_ioc_autoload al;
	struct ipuxcom_ioc_buf buf;
	struct ipuxcom_ioc_load_batch lb;
	struct ipuxcom_ioc_load_finish lf;
	struct ipuxcom_ioc_hsp_mark hm;
	struct ipuxcom_ioc_tdi_regs tr;
	struct ipuxcom_ioc_tdi_exec te;
	struct ipuxcom_ioc_tdi_sram ts;
	struct ipuxcom_ioc_hostx_setup hs;
	struct ipuxcom_ioc_hostx_call hc;
	struct ipuxcom_ioc_exch_write ew;
};

struct row {
	const char *name;
	unsigned long cmd;
	bool rawio;
	void (*fill)(union any_ioc *a, void *page);
};

static void f_info(union any_ioc *a, void *page) { a->info.size = sizeof(a->info); }
static void f_query(union any_ioc *a, void *page) { a->q.size = sizeof(a->q); }

static void f_read_doc(union any_ioc *a, void *page)
{
	a->reg = (struct ipuxcom_ioc_reg){ .size = sizeof(a->reg), .offset = GS1_REG };
}

static void f_reg_undoc(union any_ioc *a, void *page)
{
	a->reg = (struct ipuxcom_ioc_reg){ .size = sizeof(a->reg), .offset = UNDOC_REG };
}

static void f_cfg(union any_ioc *a, void *page)
{
	a->ca = (struct ipuxcom_ioc_cfg_apply){
		.size = sizeof(a->ca), .records = (uintptr_t)&cfg_rec, .count = 1,
	};
}

static void f_autoload(union any_ioc *a, void *page)
{
	a->al = (struct ipuxcom_ioc_autoload){
		.size = sizeof(a->al), .image = (uintptr_t)image, .image_size = sizeof(image),
	};
}

static void f_buf(union any_ioc *a, void *page, uint32_t slot)
{
	a->buf = (struct ipuxcom_ioc_buf){
		.size = sizeof(a->buf), .index = slot, .addr = (uintptr_t)page, .bytes = 4096,
	};
}

static void f_buf0(union any_ioc *a, void *page) { f_buf(a, page, IPUXCOM_BUF_SLOT_LOADER); }
/* page 1: slot 0 outside a host-exchange setup is the loader's */
static void f_buf1(union any_ioc *a, void *page) { f_buf(a, page, IPUXCOM_BUF_SLOT_HOSTX(1)); }

static void f_detach(union any_ioc *a, void *page)
{
	a->buf = (struct ipuxcom_ioc_buf){ .size = sizeof(a->buf), .index = 5 };
}

static void f_batch(union any_ioc *a, void *page) { a->lb.size = sizeof(a->lb); }
static void f_finish(union any_ioc *a, void *page) { a->lf.size = sizeof(a->lf); }

static void f_mark(union any_ioc *a, void *page)
{
	a->hm = (struct ipuxcom_ioc_hsp_mark){ .size = sizeof(a->hm), .gs = 1, .mark = 1 };
}

static void f_tdi_regs(union any_ioc *a, void *page)
{
	a->tr = (struct ipuxcom_ioc_tdi_regs){ .size = sizeof(a->tr), .tile = 3 };
}

static void f_tdi_exec(union any_ioc *a, void *page)
{
	a->te = (struct ipuxcom_ioc_tdi_exec){
		.size = sizeof(a->te), .tile = 3, .insn = 0x44f0f3f1,	/* injectable nop [S] */
	};
}

static void f_tdi_sram(union any_ioc *a, void *page)
{
	a->ts = (struct ipuxcom_ioc_tdi_sram){
		.size = sizeof(a->ts), .tile = 3, .addr = 0x52000, .count = 1,
		.data = (uintptr_t)&word,
	};
}

static void f_hostx_setup(union any_ioc *a, void *page)
{
	a->hs = (struct ipuxcom_ioc_hostx_setup){
		.size = sizeof(a->hs), .flags = IPUXCOM_HOSTX_F_BEGIN, .npages = 1,
		.page_bytes = { 4096 },
	};
}

static void f_hostx_call(union any_ioc *a, void *page)
{
	a->hc = (struct ipuxcom_ioc_hostx_call){ .size = sizeof(a->hc), .phases = 1 };
}

static void f_exch(union any_ioc *a, void *page)
{
	a->ew = (struct ipuxcom_ioc_exch_write){
		.size = sizeof(a->ew), .tile = 3, .addr = 0x52000, .bytes = 4,
		.data = (uintptr_t)&word,
	};
}

static void f_reset(union any_ioc *a, void *page) { a->rs.size = sizeof(a->rs); }

/* The matrix of uapi/linux/ipuxcom.h, in its order. */
static const struct row rows[] = {
	{ "INFO", IPUXCOM_IOC_INFO, false, f_info },
	{ "DEV_QUERY", IPUXCOM_IOC_DEV_QUERY, false, f_query },
	{ "REG_READ documented", IPUXCOM_IOC_REG_READ, false, f_read_doc },
	{ "REG_READ undocumented", IPUXCOM_IOC_REG_READ, true, f_reg_undoc },
	{ "REG_WRITE", IPUXCOM_IOC_REG_WRITE, true, f_reg_undoc },
	{ "CFG_APPLY", IPUXCOM_IOC_CFG_APPLY, true, f_cfg },
	{ "AUTOLOAD", IPUXCOM_IOC_AUTOLOAD, true, f_autoload },
	{ "BUF_ATTACH slot 0", IPUXCOM_IOC_BUF_ATTACH, true, f_buf0 },
	{ "LOAD_BATCH", IPUXCOM_IOC_LOAD_BATCH, true, f_batch },
	{ "LOAD_FINISH", IPUXCOM_IOC_LOAD_FINISH, true, f_finish },
	{ "HSP_MARK", IPUXCOM_IOC_HSP_MARK, true, f_mark },
	{ "TDI_EXEC", IPUXCOM_IOC_TDI_EXEC, true, f_tdi_exec },
	{ "TDI_WRITE_SRAM", IPUXCOM_IOC_TDI_WRITE_SRAM, true, f_tdi_sram },
	{ "EXCH_WRITE", IPUXCOM_IOC_EXCH_WRITE, true, f_exch },
	{ "TDI_READ_REGS", IPUXCOM_IOC_TDI_READ_REGS, false, f_tdi_regs },
	{ "TDI_READ_SRAM", IPUXCOM_IOC_TDI_READ_SRAM, false, f_tdi_sram },
	{ "BUF_ATTACH host slot", IPUXCOM_IOC_BUF_ATTACH, false, f_buf1 },
	{ "BUF_DETACH", IPUXCOM_IOC_BUF_DETACH, false, f_detach },
	{ "HOSTX_SETUP", IPUXCOM_IOC_HOSTX_SETUP, false, f_hostx_setup },
	{ "HOSTX_CALL", IPUXCOM_IOC_HOSTX_CALL, false, f_hostx_call },
	{ "RESET", IPUXCOM_IOC_RESET, false, f_reset },
};

#define NROWS	(sizeof(rows) / sizeof(rows[0]))

#endif /* IXT_IOC_ROWS_H */
