// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * ipuxcom_load(): one image onto one device, in the session the record
 * runs before every load (HW-LOAD):
 * the initialisation from driver-idle (ipuxcom_dev_init(), step 1), the
 * replay of the card's config capture (step 2), then the load in the
 * order of the design notes ("Direct Attach And Autoloader", "Secondary
 * Loader Frames"). Frames are built in place in the transport buffer,
 * the library's own memory that the module pins for the load, so every
 * image byte is copied once on the host. The whole load costs, after
 * ATTACH: the device query, AUTOLOAD, BUF_ATTACH, 23 LOAD_BATCH and
 * LOAD_FINISH (27), +1 with a config, +1 for the buffer's mmap on the
 * handle's first load, and +2 on a device held through ipu_driver (its
 * BUFFER_ATTACH and BUFFER_DETACH of index 0); the initialisation adds
 * its own (the module's RESET; on a card the six ipu_driver steps before
 * it, and BUFFER_DETACH_ALL when this handle had buffers there).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ipuxcom.h"
#include "internal.h"

__attribute__((format(printf, 4, 5)))
static int load_fail(struct ipuxcom_load_result *res, uint32_t step, int err,
		     const char *fmt, ...)
{
	va_list ap;
	int n;

	res->step = step;
	va_start(ap, fmt);
	n = vsnprintf(res->msg, sizeof(res->msg), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(res->msg))
		snprintf(res->msg + n, sizeof(res->msg) - (size_t)n, ": %s",
			 ipuxcom_strerror(err));
	return err;
}

static int load_check(const struct ipuxcom_load_params *p, struct ipuxcom_image_info *info,
		      struct ipuxcom_load_result *res)
{
	if (!p->image)
		return load_fail(res, IPUXCOM_LOAD_STEP_CHECK, -EINVAL, "no image");
	if (!p->bootloader || !p->bootloader_size ||
	    p->bootloader_size > IPUXCOM_AUTOLOAD_MAX_BYTES)
		return load_fail(res, IPUXCOM_LOAD_STEP_CHECK, -EINVAL,
				 "bootloader size %zu not in 1..%u", p->bootloader_size,
				 IPUXCOM_AUTOLOAD_MAX_BYTES);
	if (p->cfg_count && !ipuxcom_cfg_hsp_name(p->cfg_hsp))
		return load_fail(res, IPUXCOM_LOAD_STEP_CHECK, -EINVAL,
				 "cfg_hsp %" PRIu32 " is not an enum ipuxcom_cfg_hsp value",
				 p->cfg_hsp);
	ipuxcom_image_get_info(p->image, info);
	if (info->tile_count != IPUXCOM_LOAD_BATCHES * IPUXCOM_LOAD_BATCH_TILES)
		return load_fail(res, IPUXCOM_LOAD_STEP_CHECK, -EINVAL,
				 "image has %" PRIu32 " tiles, a C600 load needs %u",
				 info->tile_count, IPUXCOM_LOAD_BATCHES * IPUXCOM_LOAD_BATCH_TILES);
	if (info->load_base != IPUXCOM_IMG_PAYLOAD_BASE)
		return load_fail(res, IPUXCOM_LOAD_STEP_CHECK, -EINVAL,
				 "image load base 0x%" PRIx32 ", the loader installs at 0x%x",
				 info->load_base, IPUXCOM_IMG_PAYLOAD_BASE);
	return 0;
}

/*
 * Every backend loads since uapi version 4 (host buffers are the caller's
 * memory). A device that reports its commands without the loader's is
 * still refused before the first command, so it is not left half-loaded.
 */
static int load_check_device(struct ipuxcom *ipu, bool *card, struct ipuxcom_load_result *res)
{
	struct ipuxcom_device_info di;
	int err;

	res->syscalls++;
	err = ipuxcom_dev_query(ipu, &di);
	if (err)
		return load_fail(res, IPUXCOM_LOAD_STEP_CHECK, err, "device query");
	/* 0: a module that does not report capabilities; the commands decide. */
	if (di.capabilities && !(di.capabilities & IPUXCOM_CAP_LOADER))
		return load_fail(res, IPUXCOM_LOAD_STEP_CHECK, -EOPNOTSUPP,
				 "device %" PRIu32 " (%s backend) does not offer the loader "
				 "commands (IPUXCOM_CAP_LOADER); no command was sent",
				 di.dev_id, di.backend);
	*card = !!(di.capabilities & IPUXCOM_CAP_IPU_DRIVER);
	return 0;
}

/* The flags' own rules, before the device is asked anything. */
static int load_check_flags(const struct ipuxcom_load_params *p, struct ipuxcom_load_result *res)
{
	if (p->flags & ~IPUXCOM_LOAD_F_ALL)
		return load_fail(res, IPUXCOM_LOAD_STEP_CHECK, -EINVAL,
				 "flags 0x%" PRIx32 ": bits 0x%" PRIx32 " are unknown to this "
				 "library (IPUXCOM_LOAD_F_NO_INIT, IPUXCOM_LOAD_F_NO_CFG)",
				 p->flags, p->flags & ~(uint32_t)IPUXCOM_LOAD_F_ALL);
	if ((p->flags & IPUXCOM_LOAD_F_NO_CFG) && p->cfg_count)
		return load_fail(res, IPUXCOM_LOAD_STEP_CHECK, -EINVAL,
				 "flags: IPUXCOM_LOAD_F_NO_CFG with a config of %" PRIu32
				 " records (cfg): give one or the other", p->cfg_count);
	return 0;
}

/*
 * On a card, every load in the record replays the card's config capture
 * after the initialisation (HW-LOAD step 2; [S] "applies the ordered
 * 2,003 MMIO writes"): a load without one is what no record says a card
 * accepts, so it is refused unless the caller opts out.
 */
static int load_check_session(const struct ipuxcom_load_params *p, bool card,
			      struct ipuxcom_load_result *res)
{
	if (!card || p->cfg_count || (p->flags & IPUXCOM_LOAD_F_NO_CFG))
		return 0;
	return load_fail(res, IPUXCOM_LOAD_STEP_CHECK, -EINVAL,
			 "cfg: none given; a card load replays the card's config capture "
			 "first (its IPUCFG1 records: ipuxcom_cfg_load()), or skips it with "
			 "IPUXCOM_LOAD_F_NO_CFG; nothing was sent to the card");
}

/* ipuxcom_load() into the library's own, full-size, result. */
static int load_run(struct ipuxcom *ipu, const struct ipuxcom_load_params *params,
		    struct ipuxcom_load_result *res)
{
	const struct ipuxcom_load_params *p = NULL;
	struct ipuxcom_load_params copy;
	struct ipuxcom_load_progress prog = { .batches = IPUXCOM_LOAD_BATCHES };
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_errmsg em;
	struct ipuxcom_cfg_apply_result cr = IPUXCOM_CFG_APPLY_RESULT_INIT;
	uint32_t csr = 0, b;
	size_t xsize, need;
	bool card = false;
	void *xbuf;
	int err;

	if (!params)
		return load_fail(res, IPUXCOM_LOAD_STEP_CHECK, -EINVAL, "no parameters");
	err = ixc_struct_in(&copy, sizeof(copy), params, params->size,
			    IPUXCOM_LOAD_PARAMS_SIZE_MIN);
	if (err)
		return load_fail(res, IPUXCOM_LOAD_STEP_CHECK, err,
				 "load parameters: size %" PRIu32 " (this library's: %zu, at "
				 "least %zu; members it does not know must be zero)",
				 params->size, sizeof(copy), (size_t)IPUXCOM_LOAD_PARAMS_SIZE_MIN);
	p = &copy;
	err = load_check_flags(p, res);
	if (err)
		return err;
	if (!ipu)
		return load_fail(res, IPUXCOM_LOAD_STEP_CHECK, -EINVAL, "no device");
	err = load_check_device(ipu, &card, res);
	if (!err)
		err = load_check(p, &info, res);
	if (!err)
		err = load_check_session(p, card, res);
	if (err)
		return err;
	prog.total = (uint64_t)info.image_size * info.tile_count;

	if (!(p->flags & IPUXCOM_LOAD_F_NO_INIT)) {
		struct ipuxcom_init_report rep;

		/* its message names the step and the error already */
		err = ixc_dev_init(ipu, &rep, &res->syscalls);
		if (err) {
			const char *why = rep.msg[0] ? rep.msg : ipu->errmsg[0] ? ipu->errmsg :
					  ipuxcom_strerror(err);
			int n = snprintf(res->msg, sizeof(res->msg), "initialisation: ");

			res->step = IPUXCOM_LOAD_STEP_INIT;
			if (n > 0 && (size_t)n < sizeof(res->msg)) {
				size_t len = strnlen(why, sizeof(res->msg) - (size_t)n - 1);

				memcpy(res->msg + n, why, len);
				res->msg[(size_t)n + len] = '\0';
			}
			return err;
		}
	}

	if (p->cfg_count) {
		res->syscalls++;
		err = ipuxcom_cfg_apply_hsp(ipu, p->cfg, p->cfg_count, p->cfg_hsp, &cr);
		if (err == -EPERM)
			return load_fail(res, IPUXCOM_LOAD_STEP_CFG, err,
					 "config: raw register writes need CAP_SYS_RAWIO");
		if (err == -EBUSY)
			return load_fail(res, IPUXCOM_LOAD_STEP_CFG, err,
					 "config: %s MARK reads %" PRIu32 " after clearing it",
					 cr.hsp_reg == IPUXCOM_HSP_REG_GS2 ? "GS2" : "GS1", cr.hsp_mark);
		if (err)
			return load_fail(res, IPUXCOM_LOAD_STEP_CFG, err,
					 "config record %" PRIu32, cr.bad_index);
	}
	res->syscalls++;
	err = ipuxcom_autoload(ipu, p->bootloader, p->bootloader_size, p->timeout_ns, &csr);
	if (err == -EPERM)
		return load_fail(res, IPUXCOM_LOAD_STEP_AUTOLOAD, err,
				 "loading installs code on every tile: it needs CAP_SYS_RAWIO "
				 "(run as root); no tile was written");
	if (err)
		return load_fail(res, IPUXCOM_LOAD_STEP_AUTOLOAD, err,
				 "autoloader (AUTOLDCSR 0x%08" PRIx32 ")", csr);
	res->syscalls += ipu->xbuf ? 0 : 1;
	err = ipuxcom_xbuf_map(ipu, 0, &xbuf, &xsize);
	if (err)
		return load_fail(res, IPUXCOM_LOAD_STEP_XBUF, err, "transport buffer");
	/* Pinned by the module (HEXOPT first) and, on ipu_driver, attached there. */
	if (!ipu->xbuf_attached) {
		ipu->errmsg[0] = '\0';
		err = ixc_xbuf_attach(ipu, &res->syscalls);
		if (err)
			return load_fail(res, IPUXCOM_LOAD_STEP_XBUF, err, "transport buffer: %s",
					 ipu->errmsg);
	}

	for (b = 0; b < IPUXCOM_LOAD_BATCHES; b++) {
		uint32_t first = b * IPUXCOM_LOAD_BATCH_TILES;
		uint32_t last = first + IPUXCOM_LOAD_BATCH_TILES - 1;

		res->batch = b;
		err = ipuxcom_frames_batch_size(p->image, first, last, &need, &em);
		if (!err && need > xsize)
			err = -ENOSPC;
		if (!err)
			err = ipuxcom_frames_build(p->image, first, last, xbuf, xsize, &em);
		if (err)
			return load_fail(res, IPUXCOM_LOAD_STEP_FRAMES, err, "batch %" PRIu32 " frames%s%s",
					 b, em.msg[0] ? ": " : "", em.msg);
		res->syscalls++;
		err = ipuxcom_load_batch(ipu, b, p->timeout_ns, &res->diag);
		if (err == -EBUSY)
			return load_fail(res, IPUXCOM_LOAD_STEP_BATCH, err,
					 "batch %" PRIu32 ": GS1 mark %" PRIu32 " is already pending, "
					 "so the loaders' answer could not be told apart (a config "
					 "replayed with its GS1 records leaves one: apply it with "
					 "the 'clear' GS1/GS2 mode); reset the device", b,
					 res->diag.mark);
		if (err == -EINVAL && res->diag.bad_reason)
			return load_fail(res, IPUXCOM_LOAD_STEP_BATCH, err,
					 "batch %" PRIu32 ": tile %" PRIu32 " frame %" PRIu32 ": %s",
					 b, res->diag.bad_tile, res->diag.bad_frame,
					 ipuxcom_frame_error_name(res->diag.bad_reason));
		if (err)
			return load_fail(res, IPUXCOM_LOAD_STEP_BATCH, err,
					 "batch %" PRIu32 " handshake (GS1 mark %" PRIu32 ")",
					 b, res->diag.mark);
		prog.batch = b + 1;
		prog.bytes += (uint64_t)info.image_size * IPUXCOM_LOAD_BATCH_TILES;
		if (p->progress)
			p->progress(p->ctx, &prog);
	}
	res->syscalls += ipu->drv_bufs & (1u << IPUXCOM_BUF_SLOT_LOADER) ? 2 : 1;
	err = ipuxcom_load_finish(ipu, p->timeout_ns, &res->diag);
	if (err && ipu->errmsg[0])
		return load_fail(res, IPUXCOM_LOAD_STEP_FINISH, err, "%s", ipu->errmsg);
	if (err)
		return load_fail(res, IPUXCOM_LOAD_STEP_FINISH, err, "%s (GS1 mark %" PRIu32 ")",
				 res->diag.stage == 2 ? "start mark 23" :
				 res->diag.stage == 1 ? "0xff release transaction" : "finish",
				 res->diag.mark);
	return 0;
}

int ipuxcom_load(struct ipuxcom *ipu, const struct ipuxcom_load_params *params,
		 struct ipuxcom_load_result *res)
{
	struct ipuxcom_load_result r = { 0 };
	int err;

	if (res && ixc_struct_out_check(res->size, IPUXCOM_LOAD_RESULT_SIZE_MIN))
		return -EINVAL;
	err = load_run(ipu, params, &r);
	if (res)
		ixc_struct_out(res, res->size, &r, sizeof(r));
	return err;
}
