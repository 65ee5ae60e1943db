/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * libipuxcom: the module's data-path commands on an attached device --
 * config apply, autoloader, the loader transport buffer and its batch
 * handshakes, HSP marks, TDI access. Included by <ipuxcom.h>.
 *
 * All functions return 0 or a negative errno. Commands that wait take a
 * timeout in ns (0 = the module's default) and return -ETIMEDOUT once it
 * passed, after which the device needs ipuxcom_reset(); -EBADFD means the
 * device's state does not allow the command (see uapi/linux/ipuxcom.h).
 */
#ifndef IPUXCOM_DATAPATH_H
#define IPUXCOM_DATAPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ipuxcom;

/*
 * Ordered config-BAR writes (an IPUCFG1 file's records). Needs
 * CAP_SYS_RAWIO and an idle device. On -EINVAL nothing was written and
 * *bad_index (if not NULL) names the first record with a bad offset.
 */
IPUXCOM_API int ipuxcom_cfg_apply(struct ipuxcom *ipu, const struct ipuxcom_cfg_record *records,
				  uint32_t count, uint32_t *bad_index);

/*
 * What a config replay does with the records that write the HSP
 * general-sync controls GS1 (0x302c) and GS2 (0x3030). The real C600
 * capture's last two records set GS2 = 1 and GS1 = 1, and a loader batch
 * never starts on a pending GS1 mark (LOAD_BATCH refuses it with -EBUSY).
 * docs/hardware-sequence.md has the evidence for each.
 */
enum ipuxcom_cfg_hsp {
	/*
	 * Default: skip the GS1/GS2 records, then write GS1 = 0 and GS2 = 0
	 * and check both read back MARK 0 -- the order of the stack whose
	 * loader completed full loads on a C600 (HW-LOAD step 2).
	 */
	IPUXCOM_CFG_HSP_CLEAR = 0,
	/*
	 * The seed's reading: replay the GS2 records (its host-exchange
	 * transition later waits for a "preloaded GS2 mark") but skip GS1's
	 * and clear GS1, so the first batch starts on MARK 0.
	 */
	IPUXCOM_CFG_HSP_KEEP_GS2 = 1,
	/* Every record as recorded; a GS1 mark left pending stops batch 0. */
	IPUXCOM_CFG_HSP_REPLAY = 2,
};

/* "clear", "keep-gs2", "replay"; NULL for an unknown value. */
IPUXCOM_API const char *ipuxcom_cfg_hsp_name(uint32_t mode);
/* The enum ipuxcom_cfg_hsp of @name, or -EINVAL. */
IPUXCOM_API int ipuxcom_cfg_hsp_parse(const char *name);

/*
 * What ipuxcom_cfg_apply_hsp() did. Grows at its end: start from
 * IPUXCOM_CFG_APPLY_RESULT_INIT; the library fills exactly @size bytes.
 */
struct ipuxcom_cfg_apply_result {
	uint32_t size;		/* set by the caller (IPUXCOM_CFG_APPLY_RESULT_INIT); kept */
	uint32_t applied;	/* records written */
	uint32_t skipped;	/* GS1/GS2 records not written */
	uint32_t bad_index;	/* on -EINVAL: the first record with a bad offset */
	uint32_t hsp_reg;	/* on -EBUSY: 0x302c or 0x3030, whose MARK stayed set */
	uint32_t hsp_mark;	/* on -EBUSY: that MARK */
};

#define IPUXCOM_CFG_APPLY_RESULT_INIT { .size = sizeof(struct ipuxcom_cfg_apply_result) }
/* Every member of 1.0. */
#define IPUXCOM_CFG_APPLY_RESULT_SIZE_MIN					\
	(offsetof(struct ipuxcom_cfg_apply_result, hsp_mark) + sizeof(uint32_t))

/*
 * ipuxcom_cfg_apply() with a choice for the GS1/GS2 records (enum
 * ipuxcom_cfg_hsp; ipuxcom_cfg_apply() replays them as recorded). *res
 * (if not NULL) is filled also on failure; a @res whose size is 0 or
 * below IPUXCOM_CFG_APPLY_RESULT_SIZE_MIN is -EINVAL before anything is
 * written (the message names "res.size").
 */
IPUXCOM_API int ipuxcom_cfg_apply_hsp(struct ipuxcom *ipu, const struct ipuxcom_cfg_record *records,
				      uint32_t count, uint32_t hsp,
				      struct ipuxcom_cfg_apply_result *res);

/*
 * Install a 1 .. IPUXCOM_AUTOLOAD_MAX_BYTES byte tile bootloader on every
 * tile with the hardware autoloader. *csr (if not NULL) gets AUTOLDCSR as
 * last read, which is what to report on -ETIMEDOUT.
 */
IPUXCOM_API int ipuxcom_autoload(struct ipuxcom *ipu, const void *image, size_t size,
				 uint64_t timeout_ns, uint32_t *csr);

/*
 * The loader transport buffer: @bytes (0 = the notes' 40 MiB
 * IPUXCOM_XBUF_DEFAULT_SIZE; rounded up to whole pages) of the library's
 * own zero-filled anonymous memory, allocated on the first call and kept
 * until ipuxcom_close(), across loads and resets. *addr and *size
 * describe it; a later call returns the same buffer (-EEXIST, with it,
 * when it is smaller than @bytes). Frames are written straight into it
 * (ipuxcom_frames_build() of <ipuxcom_image.h>): no copy.
 *
 * The module pins it for one load (BUF_ATTACH slot 0, charged to this
 * user's RLIMIT_MEMLOCK budget unless it has CAP_IPC_LOCK; on a device held
 * through ipu_driver also ipu_driver's BUFFER_ATTACH index 0):
 * ipuxcom_load() attaches it after AUTOLOAD, ipuxcom_load_batch() before
 * batch 0 if nothing did, and LOAD_FINISH (ipuxcom_load_finish(), which
 * then issues ipu_driver's BUFFER_DETACH 0) or a reset releases it. While
 * it is attached the module writes it too (zeroing beyond a batch's
 * frames, the 0xff release fill).
 */
IPUXCOM_API int ipuxcom_xbuf_map(struct ipuxcom *ipu, size_t bytes, void **addr, size_t *size);

/*
 * What LOAD_BATCH / LOAD_FINISH saw, for error messages. Fixed: stored
 * inside struct ipuxcom_load_result, which grows at its end instead.
 */
struct ipuxcom_load_diag {
	uint32_t mark;		/* GS1 MARK as last read */
	uint32_t stage;		/* finish: 1 = release, 2 = start mark */
	uint32_t bad_tile;	/* on -EINVAL: physical tile */
	uint32_t bad_frame;	/* on -EINVAL: frame of that tile */
	uint32_t bad_reason;	/* on -EINVAL: enum ipuxcom_frame_error */
};

/*
 * Hand batch @batch (0..22) of the transport buffer to the loaders; for
 * batch 0, first attaches the buffer if ipuxcom_load() did not (see
 * ipuxcom_xbuf_map(); a failure there is explained by ipuxcom_errmsg()).
 */
IPUXCOM_API int ipuxcom_load_batch(struct ipuxcom *ipu, uint32_t batch, uint64_t timeout_ns,
				   struct ipuxcom_load_diag *diag);

/*
 * Release and start the tiles after all 23 batches. The module has then
 * released the transport buffer; on a device held through ipu_driver the
 * library detaches it there (BUFFER_DETACH 0; a failure is returned and
 * explained by ipuxcom_errmsg(), though the device is running).
 */
IPUXCOM_API int ipuxcom_load_finish(struct ipuxcom *ipu, uint64_t timeout_ns,
				    struct ipuxcom_load_diag *diag);

/* "descriptor count" etc. for enum ipuxcom_frame_error; never NULL. */
IPUXCOM_API const char *ipuxcom_frame_error_name(uint32_t reason);

/* Post @mark (1..0xffff) on GS1 or GS2 of a running device; wait for 0 if @wait. */
IPUXCOM_API int ipuxcom_hsp_mark(struct ipuxcom *ipu, uint32_t gs, uint32_t mark, bool wait,
				 uint64_t timeout_ns, uint32_t *final_mark);

/* The IPUXCOM_TDI_NREGS TDI registers of physical tile @tile. */
IPUXCOM_API int ipuxcom_tdi_read_regs(struct ipuxcom *ipu, uint32_t tile,
				      uint32_t regs[IPUXCOM_TDI_NREGS]);

/* "CTXT_STS", "DBG_DATA", ... for enum ipuxcom_tdi_reg; NULL if unknown. */
IPUXCOM_API const char *ipuxcom_tdi_reg_name(uint32_t reg);

/*
 * Inject @insn into @context of physical tile @tile (needs CAP_SYS_RAWIO).
 * @data_in, if not NULL, is written to DBG_DATA first; *data_out and
 * *tdi_sts (if not NULL) get DBG_DATA and TDI_STS afterwards.
 * -ENOEXEC: the context cannot execute (inactive, or not quiescent);
 * -EILSEQ: invalid instruction. The instruction's effect persists; the
 * run-break state is restored on every path (docs/tdi.md).
 */
IPUXCOM_API int ipuxcom_tdi_exec(struct ipuxcom *ipu, uint32_t tile, uint32_t context,
				 uint32_t insn, const uint32_t *data_in, uint32_t *data_out,
				 uint32_t *tdi_sts);

/*
 * @count words of tile SRAM at byte address @addr of physical tile @tile,
 * through the supervisor context (0). *done (if not NULL) gets the words
 * transferred, also on failure. Writing needs CAP_SYS_RAWIO. $m0, $m1,
 * DBG_DATA and the run-break state are restored, also on failure. Each
 * wait (the context stopping, each injection) is bounded at 1 s, as it is
 * for ipuxcom_tdi_exec(): -ETIMEDOUT after that.
 */
IPUXCOM_API int ipuxcom_tdi_read_sram(struct ipuxcom *ipu, uint32_t tile, uint32_t addr,
				      uint32_t *words, uint32_t count, uint32_t *done);
IPUXCOM_API int ipuxcom_tdi_write_sram(struct ipuxcom *ipu, uint32_t tile, uint32_t addr,
				       const uint32_t *words, uint32_t count, uint32_t *done);

/* ---------------------------------------------------------- whole load */

struct ipuxcom_image;

/*
 * Passed by the library to the progress callback (not caller-allocated):
 * a later member would be read only by callbacks built with it, so it
 * needs no size.
 */
struct ipuxcom_load_progress {
	uint32_t batch;		/* batches done, 1 .. IPUXCOM_LOAD_BATCHES */
	uint32_t batches;	/* IPUXCOM_LOAD_BATCHES */
	uint64_t bytes;		/* tile-image bytes handed to the loaders so far */
	uint64_t total;		/* tile-image bytes of the whole load */
};

/*
 * Parameters of ipuxcom_load(). The struct grows at its end; @size says
 * which version the caller was built with, as in the module's ioctl
 * structs: set it to sizeof(struct ipuxcom_load_params) (or start from
 * IPUXCOM_LOAD_PARAMS_INIT). The library takes any size from
 * IPUXCOM_LOAD_PARAMS_SIZE_MIN up, treats members past a smaller size as
 * zero, and refuses a bigger struct whose members unknown to it are not
 * all zero (-E2BIG), and size 0 (-EINVAL).
 */
struct ipuxcom_load_params {
	uint32_t size;				/* sizeof(struct ipuxcom_load_params) */
	const struct ipuxcom_image *image;	/* 1472 tiles, payload base 0x4c010 */
	/* raw tile bootloader, 1..4096 bytes: ipuxcom_bootloader_load() reads it
	 * from the SDK's ELF or a raw file (struct ipuxcom_bootloader) */
	const void *bootloader;
	size_t bootloader_size;
	const struct ipuxcom_cfg_record *cfg;	/* IPUCFG1 records; required on a card */
	uint32_t cfg_count;
	uint32_t cfg_hsp;			/* enum ipuxcom_cfg_hsp; 0 = CLEAR */
	uint64_t timeout_ns;			/* per wait; 0 = module defaults */
	/* called after every batch; may be NULL */
	void (*progress)(void *ctx, const struct ipuxcom_load_progress *p);
	void *ctx;
	/* IPUXCOM_LOAD_F_*: parts of the session to skip; 0: the whole session */
	uint32_t flags;
};

/*
 * ipuxcom_load_params.flags. A load is the whole session the record runs
 * before every load (HW-LOAD steps
 * 1-2): ipuxcom_dev_init(), then, on a card held through ipu_driver
 * (IPUXCOM_CAP_IPU_DRIVER), the replay of the card's config capture
 * (@cfg). Each flag skips one part; any other bit is -EINVAL (the
 * message names "flags") before anything is sent.
 */
/* The device is initialised already in this session: no ipuxcom_dev_init() first. */
#define IPUXCOM_LOAD_F_NO_INIT	(1u << 0)
/* Load a card without a config replay (no record says a card accepts that). */
#define IPUXCOM_LOAD_F_NO_CFG	(1u << 1)
#define IPUXCOM_LOAD_F_ALL	(IPUXCOM_LOAD_F_NO_INIT | IPUXCOM_LOAD_F_NO_CFG)

#define IPUXCOM_LOAD_PARAMS_INIT { .size = sizeof(struct ipuxcom_load_params) }
/* The members every load needs: size, image, bootloader, bootloader_size. */
#define IPUXCOM_LOAD_PARAMS_SIZE_MIN						\
	(offsetof(struct ipuxcom_load_params, bootloader_size) + sizeof(size_t))

/* Where a load stopped (ipuxcom_load_result.step). */
enum ipuxcom_load_step {
	IPUXCOM_LOAD_STEP_NONE = 0,
	IPUXCOM_LOAD_STEP_CHECK,	/* the parameters or the image */
	IPUXCOM_LOAD_STEP_CFG,		/* CFG_APPLY */
	IPUXCOM_LOAD_STEP_AUTOLOAD,
	IPUXCOM_LOAD_STEP_XBUF,		/* transport buffer */
	IPUXCOM_LOAD_STEP_FRAMES,	/* building a batch's frames */
	IPUXCOM_LOAD_STEP_BATCH,	/* LOAD_BATCH */
	IPUXCOM_LOAD_STEP_FINISH,	/* LOAD_FINISH */
	IPUXCOM_LOAD_STEP_INIT,		/* ipuxcom_dev_init() (the first step run) */
};

/*
 * What ipuxcom_load() did. It grows at its end, like struct ipuxcom_event:
 * the caller sets @size (IPUXCOM_LOAD_RESULT_INIT), at least
 * IPUXCOM_LOAD_RESULT_SIZE_MIN, and the library fills exactly that many
 * bytes, members it does not know zero, keeping @size.
 */
struct ipuxcom_load_result {
	uint32_t size;			/* set by the caller; kept by the library */
	uint32_t step;			/* enum ipuxcom_load_step */
	uint32_t batch;			/* with STEP_FRAMES / STEP_BATCH */
	struct ipuxcom_load_diag diag;	/* what the module reported */
	uint32_t syscalls;		/* ioctl + mmap calls the load made */
	char msg[256];			/* "" on success, else what failed and where */
};

#define IPUXCOM_LOAD_RESULT_INIT { .size = sizeof(struct ipuxcom_load_result) }
/* Enough for @step. */
#define IPUXCOM_LOAD_RESULT_SIZE_MIN						\
	(offsetof(struct ipuxcom_load_result, step) + sizeof(uint32_t))

/*
 * The whole session of the record on the attached device, in order:
 *  1. ipuxcom_dev_init() (IPUXCOM_LOAD_STEP_INIT): on a card held through
 *     ipu_driver its initialisation from driver-idle, the ICU mailbox
 *     reset among it, then the module's RESET; on the simulator the
 *     module's RESET. Skipped with IPUXCOM_LOAD_F_NO_INIT (the device
 *     must then be idle).
 *  2. CFG_APPLY of @cfg, its GS1/GS2 records as @cfg_hsp says
 *     (IPUXCOM_LOAD_STEP_CFG). On a card a config is required: without
 *     one, and without IPUXCOM_LOAD_F_NO_CFG, the load is refused with
 *     -EINVAL at IPUXCOM_LOAD_STEP_CHECK (the message names "cfg")
 *     before anything is sent to the card. On the simulator it is
 *     optional: there is no card whose capture it would be.
 *  3. AUTOLOAD, the transport buffer (ipuxcom_xbuf_map(), attached to the
 *     device: IPUXCOM_LOAD_STEP_XBUF, where -ENOMEM means
 *     RLIMIT_MEMLOCK), 23 batches whose frames are built straight into
 *     it, LOAD_FINISH. The device is then running.
 * @res (may be NULL) says where a failure happened, with a message, and
 * counts the system calls (the initialisation's among them).
 * @params->size follows struct ipuxcom_load_params' rules
 * (IPUXCOM_LOAD_STEP_CHECK with -EINVAL or -E2BIG otherwise); a @res
 * whose size is 0 or below IPUXCOM_LOAD_RESULT_SIZE_MIN is -EINVAL with
 * nothing done and nothing written.
 */
IPUXCOM_API int ipuxcom_load(struct ipuxcom *ipu, const struct ipuxcom_load_params *params,
			     struct ipuxcom_load_result *res);

/*
 * EXPERIMENTAL: write @bytes (multiple of 4, <= 64 KiB) at tile SRAM
 * address @addr of LOGICAL tile @logical_tile through the exchange window
 * (the notes' sequence, checked by TILEUPDR completion only; see
 * IPUXCOM_IOC_EXCH_WRITE). Needs CAP_SYS_RAWIO. *@tileupdr (may be NULL)
 * gets TILEUPDR as last read.
 *
 * On a device held through ipu_driver the library stores the words
 * itself, between the module's EXCH_WRITE SELECT and COMPLETE, as 32-bit
 * volatile stores (with full fences before and after) through a shared
 * mapping of /dev/ipuN_ex at 0x80000 + (@addr - 0x4c000), made on first
 * use and kept until ipuxcom_close(); @addr .. @addr + @bytes must lie in
 * the 624 KiB of tile SRAM from 0x4c000 (-EINVAL before anything is
 * issued). Failures are explained by ipuxcom_errmsg().
 */
IPUXCOM_API int ipuxcom_exch_write(struct ipuxcom *ipu, uint32_t logical_tile, uint32_t addr,
				   const void *data, uint32_t bytes, uint64_t timeout_ns,
				   uint32_t *tileupdr);

/* ------------------------------------------------- host tensor exchange */

struct ipuxcom_hsp_manifest;
struct ipuxcom_errmsg;

/*
 * Allocate the manifest's host pages (the library's zero-filled anonymous
 * memory) for the attached, running device and run the load-completion
 * transition in its three stages: HOSTX_SETUP BEGIN, each page attached in
 * the manifest's attach order (BUF_ATTACH slot 1 + page, pinned and
 * charged to the user's RLIMIT_MEMLOCK; on a device held through ipu_driver also its
 * BUFFER_ATTACH at that index), HOSTX_SETUP COMMIT. On failure the pages
 * are detached (best effort) and freed; after BEGIN the device needs a
 * reset. The pages live until ipuxcom_close() or a reset. @em (may be
 * NULL) says what failed.
 */
IPUXCOM_API int ipuxcom_hostx_setup(struct ipuxcom *ipu, const struct ipuxcom_hsp_manifest *m,
				    uint64_t timeout_ns, struct ipuxcom_errmsg *em);

/*
 * A slice's data: the manifest's slices of a call, in manifest order.
 * Fixed: an array element, (pointer, size) and nothing else.
 */
struct ipuxcom_hostx_buf {
	void *data;
	size_t size;		/* must equal the slice's size */
};

/*
 * Run call @name of @m: check every argument against the manifest first
 * (nothing is written on any mismatch), write the callable id and the
 * @nin input slices into the pages, hand the call's GS2 phases over, then
 * copy the @nout output slices out. The slices are the call's input (or
 * output) slices in manifest order.
 */
IPUXCOM_API int ipuxcom_hostx_call(struct ipuxcom *ipu, const struct ipuxcom_hsp_manifest *m,
				   const char *name, const struct ipuxcom_hostx_buf *in,
				   size_t nin, struct ipuxcom_hostx_buf *out, size_t nout,
				   uint64_t timeout_ns, struct ipuxcom_errmsg *em);

#ifdef __cplusplus
}
#endif

#endif /* IPUXCOM_DATAPATH_H */
