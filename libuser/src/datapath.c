// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Wrappers for the module's data-path ioctls (see ipuxcom_datapath.h).
 * Structs are zero-initialised with .size set, as in device.c; outputs are
 * handed back also on failure, where the module filled them in.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

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

int ipuxcom_xbuf_map(struct ipuxcom *ipu, size_t bytes, void **addr, size_t *size)
{
	struct ipuxcom_ioc_xbuf_alloc xa = { .size = sizeof(xa) };
	void *map;
	int ret;

	if (!ipu || !addr || !size || bytes > IPUXCOM_XBUF_MAX_SIZE)
		return -EINVAL;
	if (ipu->xbuf) {
		*addr = ipu->xbuf;
		*size = ipu->xbuf_size;
		return bytes && bytes > ipu->xbuf_size ? -EEXIST : 0;
	}
	xa.bytes = (uint32_t)bytes;
	ret = ixc_ioctl(ipu, IPUXCOM_IOC_XBUF_ALLOC, &xa);
	if (ret)
		return ret;
	map = mmap(NULL, xa.bytes, PROT_READ | PROT_WRITE, MAP_SHARED, ipu->fd,
		   (off_t)xa.mmap_offset);
	if (map == MAP_FAILED)
		return -errno;
	ipu->xbuf = map;
	ipu->xbuf_size = xa.bytes;
	*addr = map;
	*size = xa.bytes;
	return 0;
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
	ret = ixc_ioctl(ipu, IPUXCOM_IOC_LOAD_FINISH, &lf);
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

int ipuxcom_tdi_exec(struct ipuxcom *ipu, uint32_t tile, uint32_t context, uint32_t insn,
		     const uint32_t *data_in, uint32_t *data_out, uint32_t *tdi_sts)
{
	struct ipuxcom_ioc_tdi_exec te = {
		.size = sizeof(te), .tile = tile, .context = context, .insn = insn,
		.flags = data_in ? IPUXCOM_TDI_F_SET_DATA : 0,
		.data_in = data_in ? *data_in : 0,
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
		.data = (uintptr_t)words,
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
	ret = ixc_ioctl(ipu, IPUXCOM_IOC_EXCH_WRITE, &ew);
	if (tileupdr)
		*tileupdr = ew.tileupdr;
	return ret;
}
