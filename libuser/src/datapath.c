// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Wrappers for the module's data-path ioctls (see ipuxcom_datapath.h).
 * Structs are zero-initialised with .size set, as in device.c; outputs are
 * handed back also on failure, where the module filled them in.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <linux/ipuxcom_ipu_driver.h>

#include "ipuxcom.h"
#include "internal.h"

int ipuxcom_cfg_apply(struct ipuxcom *ipu, const struct ipuxcom_cfg_record *records,
		      uint32_t count, uint32_t *bad_index)
{
	struct ipuxcom_ioc_cfg_apply ca = {
		.size = sizeof(ca), .records = (uintptr_t)records, .count = count,
	};
	int ret;

	if (!ipu || !records)
		return -EINVAL;
	ret = ixc_ioctl(ipu, IPUXCOM_IOC_CFG_APPLY, &ca);
	if (bad_index)
		*bad_index = ca.bad_index;
	return ret;
}

const char *ipuxcom_cfg_hsp_name(uint32_t mode)
{
	static const char *const names[] = {
		[IPUXCOM_CFG_HSP_CLEAR] = "clear",
		[IPUXCOM_CFG_HSP_KEEP_GS2] = "keep-gs2",
		[IPUXCOM_CFG_HSP_REPLAY] = "replay",
	};

	return mode < sizeof(names) / sizeof(names[0]) ? names[mode] : NULL;
}

int ipuxcom_cfg_hsp_parse(const char *name)
{
	for (uint32_t m = 0; name && ipuxcom_cfg_hsp_name(m); m++)
		if (!strcmp(name, ipuxcom_cfg_hsp_name(m)))
			return (int)m;
	return -EINVAL;
}

int ipuxcom_cfg_apply_hsp(struct ipuxcom *ipu, const struct ipuxcom_cfg_record *records,
			  uint32_t count, uint32_t hsp, struct ipuxcom_cfg_apply_result *res)
{
	static const uint32_t flags[] = {
		[IPUXCOM_CFG_HSP_CLEAR] = IPUXCOM_CFG_F_CLEAR_HSP,
		[IPUXCOM_CFG_HSP_KEEP_GS2] = IPUXCOM_CFG_F_CLEAR_GS1,
		[IPUXCOM_CFG_HSP_REPLAY] = 0,
	};
	struct ipuxcom_ioc_cfg_apply ca = {
		.size = sizeof(ca), .records = (uintptr_t)records, .count = count,
	};
	struct ipuxcom_cfg_apply_result r = { .size = sizeof(r) };
	int ret;

	if (res) {
		ret = ixc_size_out_check(res, IPUXCOM_CFG_APPLY_RESULT_SIZE_MIN, IPUXCOM_ERR_DEVICE,
					 "res.size", "IPUXCOM_CFG_APPLY_RESULT_INIT", NULL, 0);
		if (ret)
			return ret;
		ixc_struct_out(res, res->size, &r, sizeof(r));
	}
	if (!ipu || !records || hsp >= sizeof(flags) / sizeof(flags[0]))
		return -EINVAL;
	ca.flags = flags[hsp];
	ret = ixc_ioctl(ipu, IPUXCOM_IOC_CFG_APPLY, &ca);
	r.applied = ca.applied;
	r.skipped = ca.skipped;
	r.bad_index = ca.bad_index;
	r.hsp_reg = ca.hsp_reg;
	r.hsp_mark = ca.hsp_mark;
	if (res)
		ixc_struct_out(res, res->size, &r, sizeof(r));
	return ret;
}

int ipuxcom_autoload(struct ipuxcom *ipu, const void *image, size_t size,
		     uint64_t timeout_ns, uint32_t *csr)
{
	struct ipuxcom_ioc_autoload al = {
		.size = sizeof(al), .image = (uintptr_t)image, .timeout_ns = timeout_ns,
	};
	int ret;

	if (!ipu || !image || !size || size > IPUXCOM_AUTOLOAD_MAX_BYTES)
		return -EINVAL;
	al.image_size = (uint32_t)size;
	ret = ixc_ioctl(ipu, IPUXCOM_IOC_AUTOLOAD, &al);
	if (csr)
		*csr = al.csr;
	return ret;
}

int ipuxcom_load_batch(struct ipuxcom *ipu, uint32_t batch, uint64_t timeout_ns,
		       struct ipuxcom_load_diag *diag)
{
	struct ipuxcom_ioc_load_batch lb = {
		.size = sizeof(lb), .batch = batch, .timeout_ns = timeout_ns,
	};
	int ret;

	if (!ipu)
		return -EINVAL;
	ipu->errmsg[0] = '\0';
	/*
	 * A caller driving the batches itself (ipuxcom_xbuf_map(), frames,
	 * this) gets the transport buffer attached before batch 0, as
	 * ipuxcom_load() does after AUTOLOAD.
	 */
	if (batch == 0 && ipu->xbuf && !ipu->xbuf_attached) {
		ret = ixc_xbuf_attach(ipu, NULL);
		if (ret)
			return ret;
	}
	ret = ixc_ioctl(ipu, IPUXCOM_IOC_LOAD_BATCH, &lb);
	if (diag) {
		memset(diag, 0, sizeof(*diag));
		diag->mark = lb.mark;
		diag->bad_tile = lb.bad_tile;
		diag->bad_frame = lb.bad_frame;
		diag->bad_reason = lb.bad_reason;
	}
	return ret;
}

int ipuxcom_load_finish(struct ipuxcom *ipu, uint64_t timeout_ns,
			struct ipuxcom_load_diag *diag)
{
	struct ipuxcom_ioc_load_finish lf = { .size = sizeof(lf), .timeout_ns = timeout_ns };
	int ret;

	if (!ipu)
		return -EINVAL;
	ipu->errmsg[0] = '\0';
	ret = ixc_ioctl(ipu, IPUXCOM_IOC_LOAD_FINISH, &lf);
	if (!ret)
		ret = ixc_xbuf_finished(ipu);
	if (diag) {
		memset(diag, 0, sizeof(*diag));
		diag->mark = lf.mark;
		diag->stage = lf.stage;
	}
	return ret;
}

const char *ipuxcom_frame_error_name(uint32_t reason)
{
	static const char *const names[] = {
		[IPUXCOM_FRAME_ERR_OK] = "no error",
		[IPUXCOM_FRAME_ERR_DESC_TAIL] = "non-zero bytes after the 64 descriptors",
		[IPUXCOM_FRAME_ERR_DESC_COUNT] = "frame count outside 17..643",
		[IPUXCOM_FRAME_ERR_DESC_OFFSET] = "frame offset inside the descriptor area, unaligned or past the buffer",
		[IPUXCOM_FRAME_ERR_CHUNK] = "chunk index differs from the frame number",
		[IPUXCOM_FRAME_ERR_TILE] = "tile id differs from the descriptor's tile",
		[IPUXCOM_FRAME_ERR_FLAGS] = "final-frame flag missing or misplaced",
		[IPUXCOM_FRAME_ERR_RESERVED] = "reserved word not zero",
		[IPUXCOM_FRAME_ERR_TRAILER] = "trailer not 16 bytes of 0xff",
	};

	return reason < sizeof(names) / sizeof(names[0]) ? names[reason] : "unknown frame error";
}

int ipuxcom_hsp_mark(struct ipuxcom *ipu, uint32_t gs, uint32_t mark, bool wait,
		     uint64_t timeout_ns, uint32_t *final_mark)
{
	struct ipuxcom_ioc_hsp_mark hm = {
		.size = sizeof(hm), .gs = gs, .mark = mark, .timeout_ns = timeout_ns,
		.flags = wait ? IPUXCOM_HSP_F_WAIT : 0,
	};
	int ret;

	if (!ipu)
		return -EINVAL;
	ret = ixc_ioctl(ipu, IPUXCOM_IOC_HSP_MARK, &hm);
	if (final_mark)
		*final_mark = hm.final_mark;
	return ret;
}

int ipuxcom_tdi_read_regs(struct ipuxcom *ipu, uint32_t tile, uint32_t regs[IPUXCOM_TDI_NREGS])
{
	struct ipuxcom_ioc_tdi_regs tr = { .size = sizeof(tr), .tile = tile };
	int ret;

	if (!ipu || !regs)
		return -EINVAL;
	ret = ixc_ioctl(ipu, IPUXCOM_IOC_TDI_READ_REGS, &tr);
	if (!ret)
		memcpy(regs, tr.regs, IPUXCOM_TDI_NREGS * sizeof(regs[0]));
	return ret;
}

const char *ipuxcom_tdi_reg_name(uint32_t reg)
{
	static const char *const names[IPUXCOM_TDI_NREGS] = {
		"CTXT_STS", "DBG_RBRK", "DBG_RBRK_VERT", "DBG_IEXEC", "DBG_IOWNER",
		"DBG_ECSR", "DBG_ECLR", "DBG_DATA", "TDI_STS", "TDI_CLR",
		"INCOMING_DCOUNT", "EXCHANGE_CTL", "TDI_CTL",
	};

	return reg < IPUXCOM_TDI_NREGS ? names[reg] : NULL;
}

/*
 * Each wait of a TDI command (a context stopping, an injection
 * completing): 1 s, where the module's default is the 100 ms the
 * hardware-proven peer polls for a context to stop [RE]. A card answers
 * in microseconds; a host that starves a VM for longer than 100 ms must
 * not turn a read the device would answer into ETIMEDOUT. Still bounded,
 * and a command's waits still end within the module's cmd_wait_max_ms.
 */
#define IXC_TDI_WAIT_NS	1000000000ULL

int ipuxcom_tdi_exec(struct ipuxcom *ipu, uint32_t tile, uint32_t context, uint32_t insn,
		     const uint32_t *data_in, uint32_t *data_out, uint32_t *tdi_sts)
{
	struct ipuxcom_ioc_tdi_exec te = {
		.size = sizeof(te), .tile = tile, .context = context, .insn = insn,
		.flags = data_in ? IPUXCOM_TDI_F_SET_DATA : 0,
		.data_in = data_in ? *data_in : 0, .timeout_ns = IXC_TDI_WAIT_NS,
	};
	int ret;

	if (!ipu)
		return -EINVAL;
	ret = ixc_ioctl(ipu, IPUXCOM_IOC_TDI_EXEC, &te);
	if (data_out)
		*data_out = te.data_out;
	if (tdi_sts)
		*tdi_sts = te.tdi_sts;
	return ret;
}

static int ixc_tdi_sram(struct ipuxcom *ipu, unsigned long cmd, uint32_t tile, uint32_t addr,
			const uint32_t *words, uint32_t count, uint32_t *done)
{
	struct ipuxcom_ioc_tdi_sram ts = {
		.size = sizeof(ts), .tile = tile, .addr = addr, .count = count,
		.data = (uintptr_t)words, .timeout_ns = IXC_TDI_WAIT_NS,
	};
	int ret;

	if (done)
		*done = 0;
	if (!ipu || !words)
		return -EINVAL;
	ret = ixc_ioctl(ipu, cmd, &ts);
	if (done)
		*done = ts.done;
	return ret;
}

int ipuxcom_tdi_read_sram(struct ipuxcom *ipu, uint32_t tile, uint32_t addr,
			  uint32_t *words, uint32_t count, uint32_t *done)
{
	return ixc_tdi_sram(ipu, IPUXCOM_IOC_TDI_READ_SRAM, tile, addr, words, count, done);
}

int ipuxcom_tdi_write_sram(struct ipuxcom *ipu, uint32_t tile, uint32_t addr,
			   const uint32_t *words, uint32_t count, uint32_t *done)
{
	return ixc_tdi_sram(ipu, IPUXCOM_IOC_TDI_WRITE_SRAM, tile, addr, words, count, done);
}

/*
 * On a device held through ipu_driver the module selects the window and
 * checks completion, and the library stores through its mapping of
 * /dev/ipuN_ex, created on first use and kept until ipuxcom_close().
 */
static int ixc_exch_map(struct ipuxcom *ipu)
{
	struct ipuxcom_device_info di;
	int err;

	if (ipu->exch)
		return 0;
	if (!ipu->ipu_node[0]) {
		err = ipuxcom_dev_query(ipu, &di);
		if (err)
			return ixc_fail(ipu, err, "device query (for the ipu_driver node): %s",
					ipuxcom_strerror(err));
		if (!ipu->ipu_node[0])
			return ixc_fail(ipu, -EPROTO, "the module names no ipu_driver node for "
					"this device");
	}
	err = ixc_ipudrv_map_exchange(ipu->ipu_node, &ipu->exch, &ipu->exch_size, NULL);
	if (err)
		return ixc_fail(ipu, err, "mapping /dev/%s_ex: %s", ipu->ipu_node, strerror(-err));
	return 0;
}

static int ixc_exch_write_ipu_driver(struct ipuxcom *ipu, struct ipuxcom_ioc_exch_write *ew,
				     const void *data)
{
	volatile uint32_t *dst;
	const uint8_t *src = data;
	int err;

	/* The window covers one tile's SRAM, from 0x4c000 [S, RE]. */
	if (ew->addr < IXC_TILE_SRAM_BASE || ew->addr % 4 || ew->bytes % 4 || !ew->bytes ||
	    ew->bytes > IPUXCOM_EXCH_WRITE_MAX_BYTES ||
	    ew->addr - IXC_TILE_SRAM_BASE > IXC_TILE_SRAM_BYTES - ew->bytes)
		return ixc_fail(ipu, -EINVAL, "tile address 0x%" PRIx32 " + %" PRIu32
				" bytes is not 4-byte aligned tile SRAM", ew->addr, ew->bytes);
	/*
	 * ipu_driver's SET_HEXOPT_IDENTITY_TABLE on the caller's /dev/ipuN is
	 * the first step of the notes' tile SRAM writes [S "Experimental Tile
	 * SRAM Writes"; HW-EXCHWIN-WRITE].
	 */
	err = ixc_ipudrv_set_hexopt_identity_table(ipu->ipu_fd);
	if (err)
		return ixc_fail(ipu, err, "ipu_driver SET_HEXOPT_IDENTITY_TABLE: %s",
				strerror(-err));
	err = ixc_exch_map(ipu);
	if (err)
		return err;
	ew->flags = IPUXCOM_EXCH_F_SELECT;
	ew->data = 0;
	err = ixc_ioctl(ipu, IPUXCOM_IOC_EXCH_WRITE, ew);
	if (err)
		return ixc_fail(ipu, err, "EXCH_WRITE select (tile %" PRIu32 "): %s", ew->tile,
				ipuxcom_strerror(err));
	dst = (volatile uint32_t *)((uint8_t *)ipu->exch + IPU_DRV_EXCH_WINDOW_OFFSET +
				    (ew->addr - IXC_TILE_SRAM_BASE));
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (uint32_t i = 0; i < ew->bytes / 4; i++) {
		uint32_t w;

		memcpy(&w, src + 4 * (size_t)i, sizeof(w));
		dst[i] = w;
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	ew->flags = IPUXCOM_EXCH_F_COMPLETE;
	err = ixc_ioctl(ipu, IPUXCOM_IOC_EXCH_WRITE, ew);
	if (err)
		return ixc_fail(ipu, err, "EXCH_WRITE complete (tile %" PRIu32 ", TILEUPDR 0x%08"
				PRIx32 "): %s", ew->tile, ew->tileupdr, ipuxcom_strerror(err));
	return 0;
}

int ipuxcom_exch_write(struct ipuxcom *ipu, uint32_t logical_tile, uint32_t addr,
		       const void *data, uint32_t bytes, uint64_t timeout_ns, uint32_t *tileupdr)
{
	struct ipuxcom_ioc_exch_write ew = {
		.size = sizeof(ew), .tile = logical_tile, .addr = addr, .bytes = bytes,
		.data = (uintptr_t)data, .timeout_ns = timeout_ns,
	};
	int ret;

	if (!ipu || !data)
		return -EINVAL;
	ipu->errmsg[0] = '\0';
	if (ipu->ipu_fd >= 0)
		ret = ixc_exch_write_ipu_driver(ipu, &ew, data);
	else
		ret = ixc_ioctl(ipu, IPUXCOM_IOC_EXCH_WRITE, &ew);
	if (tileupdr)
		*tileupdr = ew.tileupdr;
	return ret;
}
