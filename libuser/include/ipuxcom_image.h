/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * libipuxcom: what the loader loads, built and checked in userspace.
 *
 *  - IPUIMG1 compact physical images: pack (from raw per-tile images or
 *    per-tile ELF files), extract, verify, entry redirect. The byte layout
 *    is this project's definition of the notes' format; it is documented
 *    field by field in docs/ipuimg-format.md.
 *  - Secondary-loader frames: the 4 KiB descriptor area and 1 KiB frames
 *    of one batch of up to 64 physical tiles, written straight into a
 *    caller-given (e.g. mmap'ed transport) buffer.
 *  - The tile bootloader for the autoloader, from the SDK's ELF or raw.
 *  - IPUCFG1 ordered config-BAR writes: reader, writer, register naming.
 *  - Host-sync manifests (.ipuhsp): docs/ipuhsp-format.md.
 *
 * Sources: [S], [RE] and [DW] as the hardware record gives them
 * (docs/hardware-record.md; facts cited by their ids). Every function
 * validates all of its input and
 * is safe on any file: sizes taken from a file are checked against the
 * file's real size before anything is allocated from them.
 *
 * Errors: 0 or a negative errno. Functions that read data also fill a
 * struct ipuxcom_errmsg (when not NULL) with a message naming what failed
 * and where, e.g. "tile 17 record: patch extent 0x1234+0x40 exceeds file
 * size 0x1200"; it is "" on success. Common values: -EBADMSG malformed or
 * corrupt data (checksums included), -EINVAL a bad argument, -EFBIG a
 * limit exceeded, -ENOMEM, and I/O errors from the system.
 *
 * Buffers returned through void ** are malloc'ed: release them with free().
 */
#ifndef IPUXCOM_IMAGE_H
#define IPUXCOM_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/ipuxcom.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef IPUXCOM_API
#define IPUXCOM_API __attribute__((visibility("default")))
#endif

#define IPUXCOM_ERRMSG_LEN	256

/*
 * Why a call failed, for people: "" on success. Fixed: a bounded text
 * buffer; more detail goes into the text.
 */
struct ipuxcom_errmsg {
	char msg[IPUXCOM_ERRMSG_LEN];
};

/*
 * Deprecated: ipuxcom_strerror(), the one explainer, which this calls;
 * without a record of the thread's last failure being @err it assumes
 * this header's domain (files), as it always did.
 */
IPUXCOM_API const char *ipuxcom_image_strerror(int err)
	__attribute__((deprecated("use ipuxcom_strerror(), the one explainer")));

/*
 * CRC-32 as zlib's crc32() (reflected polynomial 0xedb88320, initial and
 * final XOR 0xffffffff): ipuxcom_crc32(0, "123456789", 9) == 0xcbf43926.
 * Chain calls by passing the previous result as @crc. This is the CRC32
 * of IPUIMG1 [S: "template CRC32", "reconstructed-image CRC32"; the notes
 * do not name the polynomial: the zlib CRC-32 is this project's choice].
 */
IPUXCOM_API uint32_t ipuxcom_crc32(uint32_t crc, const void *buf, size_t len);

/* ------------------------------------------------------------ tile memory */

/* 1,472 tiles on a C600 (IPU21) [S]. */
#define IPUXCOM_IMG_TILES		1472u
/* Tile SRAM: 624 KiB from 0x4c000 [RE, HW-SRAM]. */
#define IPUXCOM_IMG_SRAM_BASE		0x4c000u
#define IPUXCOM_IMG_SRAM_SIZE		0x9c000u
#define IPUXCOM_IMG_SRAM_END		(IPUXCOM_IMG_SRAM_BASE + IPUXCOM_IMG_SRAM_SIZE)
/*
 * The secondary loader installs the first payload byte at 0x4c010; the
 * 16 bytes below are the zero-fill .secondaryLower reservation [S "Debug
 * Readback Pivot", RE].
 */
#define IPUXCOM_IMG_PAYLOAD_BASE	0x4c010u

/* ---------------------------------------------------------------- IPUIMG1 */

/* File layout constants (docs/ipuimg-format.md). */
#define IPUXCOM_IMG_MAGIC		"IPUIMG1"	/* 8 bytes with its NUL */
#define IPUXCOM_IMG_HEADER_SIZE		40u		/* [S] */
#define IPUXCOM_IMG_RECORD_SIZE		16u		/* [S] */
#define IPUXCOM_IMG_PATCH_HEADER_SIZE	8u		/* (offset u32, size u32) [S] */
/* Pack: let the packer choose the template tile. */
#define IPUXCOM_IMG_TEMPLATE_AUTO	UINT32_MAX

struct ipuxcom_image;

/*
 * The header, plus totals over the records. Grows at its end: start from
 * IPUXCOM_IMAGE_INFO_INIT; the library fills exactly @size bytes.
 */
struct ipuxcom_image_info {
	uint32_t size;			/* set by the caller (IPUXCOM_IMAGE_INFO_INIT); kept */
	uint32_t load_base;		/* SRAM address of image byte 0 */
	uint32_t image_size;		/* bytes of every tile image */
	uint32_t entry;			/* SRAM address execution starts at */
	uint32_t tile_count;		/* records (1472 for a C600) */
	uint32_t template_tile;		/* physical tile whose image is stored whole */
	uint32_t template_crc32;
	uint32_t patch_area_size;	/* bytes of all patch streams */
	uint32_t meta_crc32;		/* CRC32 of header bytes 0..35 + record table */
	uint32_t reserved;		/* 0 (keeps the 64-bit counts 8-byte aligned) */
	uint64_t file_size;
	uint64_t patch_count;		/* patches of all tiles */
	uint64_t patch_data;		/* patched bytes of all tiles */
	uint32_t unpatched_tiles;	/* tiles equal to the template (itself included) */
	uint32_t max_tile_patch_size;	/* largest patch stream of one tile */
};

#define IPUXCOM_IMAGE_INFO_INIT { .size = sizeof(struct ipuxcom_image_info) }
/* Every member of 1.0. */
#define IPUXCOM_IMAGE_INFO_SIZE_MIN						\
	(offsetof(struct ipuxcom_image_info, max_tile_patch_size) + sizeof(uint32_t))

/*
 * One tile's record, plus what its patch stream holds. Grows at its end:
 * start from IPUXCOM_IMAGE_TILE_INIT; the library fills exactly @size
 * bytes.
 */
struct ipuxcom_image_tile {
	uint32_t size;			/* set by the caller (IPUXCOM_IMAGE_TILE_INIT); kept */
	uint32_t patch_offset;		/* file offset of the patch stream */
	uint32_t patch_size;		/* bytes of the patch stream */
	uint32_t crc32;			/* CRC32 of the reconstructed image */
	uint32_t patch_count;
	uint32_t patch_data;		/* patched bytes (stream minus headers) */
};

#define IPUXCOM_IMAGE_TILE_INIT { .size = sizeof(struct ipuxcom_image_tile) }
/* Every member of 1.0. */
#define IPUXCOM_IMAGE_TILE_SIZE_MIN						\
	(offsetof(struct ipuxcom_image_tile, patch_data) + sizeof(uint32_t))

/*
 * Read and check an IPUIMG1 file: header, every record, the structure of
 * every patch stream, the metadata CRC32 and the template CRC32. A tile's
 * own CRC32 is checked whenever the tile is reconstructed (extract,
 * frames, verify). Files larger than any valid IPUIMG1 are refused
 * (-EFBIG) before they are read.
 */
IPUXCOM_API int ipuxcom_image_open(const char *path, struct ipuxcom_image **out,
				   struct ipuxcom_errmsg *em);
/* The same from memory; @data is copied. */
IPUXCOM_API int ipuxcom_image_from_buffer(const void *data, size_t len,
					  struct ipuxcom_image **out,
					  struct ipuxcom_errmsg *em);
/*
 * Free an image; NULL is a no-op. (Destructors: _close ends a handle on a
 * kernel object, a descriptor or socket; _free releases memory the
 * library allocated. An image is memory.)
 */
IPUXCOM_API void ipuxcom_image_free(struct ipuxcom_image *img);
/* Deprecated name of ipuxcom_image_free(). */
IPUXCOM_API void ipuxcom_image_close(struct ipuxcom_image *img)
	__attribute__((deprecated("use ipuxcom_image_free()")));

/*
 * -EINVAL for a NULL argument, or @info->size 0 or below
 * IPUXCOM_IMAGE_INFO_SIZE_MIN (the message names "info.size").
 */
IPUXCOM_API int ipuxcom_image_get_info(const struct ipuxcom_image *img,
				       struct ipuxcom_image_info *info);
/*
 * -EINVAL when @tile >= tile_count, for a NULL argument, or for
 * @out->size 0 or below IPUXCOM_IMAGE_TILE_SIZE_MIN ("out.size").
 */
IPUXCOM_API int ipuxcom_image_get_tile(const struct ipuxcom_image *img, uint32_t tile,
				       struct ipuxcom_image_tile *out);

/*
 * Reconstruct physical tile @tile's raw image into @buf (@len >=
 * image_size; exactly image_size bytes are written) and check its CRC32
 * (-EBADMSG on a mismatch; @buf then holds what the file describes).
 */
IPUXCOM_API int ipuxcom_image_extract(const struct ipuxcom_image *img, uint32_t tile,
				      void *buf, size_t len, struct ipuxcom_errmsg *em);

/*
 * Reconstruct @tile and check its CRC32 twice: computed over the
 * reconstructed bytes, and derived from the patches as extract does.
 */
IPUXCOM_API int ipuxcom_image_verify_tile(const struct ipuxcom_image *img, uint32_t tile,
					  struct ipuxcom_errmsg *em);
/* Every tile; stops at the first failure. */
IPUXCOM_API int ipuxcom_image_verify(const struct ipuxcom_image *img,
				     struct ipuxcom_errmsg *em);

/*
 * Pack source: make tile @tile's raw image (image_size bytes) available
 * at *@image, valid until the next call. Return 0, or a negative errno
 * after filling @em.
 */
typedef int (*ipuxcom_image_source_fn)(void *ctx, uint32_t tile, const void **image,
				       struct ipuxcom_errmsg *em);

/*
 * What to pack. Grows at its end: start from
 * IPUXCOM_IMAGE_PACK_PARAMS_INIT. Members past a smaller @size are zero;
 * a bigger struct whose members this library does not know are not zero
 * is -E2BIG, size 0 or below IPUXCOM_IMAGE_PACK_PARAMS_SIZE_MIN -EINVAL
 * (the message names "params.size").
 */
struct ipuxcom_image_pack_params {
	uint32_t size;			/* set by the caller (IPUXCOM_IMAGE_PACK_PARAMS_INIT) */
	uint32_t tile_count;		/* 1 .. IPUXCOM_IMG_TILES */
	uint32_t image_size;		/* 1 .. IPUXCOM_IMG_SRAM_SIZE */
	uint32_t load_base;		/* image within tile SRAM */
	uint32_t entry;			/* 4-aligned, inside the image */
	uint32_t template_tile;		/* a tile, or IPUXCOM_IMG_TEMPLATE_AUTO */
};

#define IPUXCOM_IMAGE_PACK_PARAMS_INIT { .size = sizeof(struct ipuxcom_image_pack_params) }
/* Every member of 1.0. */
#define IPUXCOM_IMAGE_PACK_PARAMS_SIZE_MIN					\
	(offsetof(struct ipuxcom_image_pack_params, template_tile) + sizeof(uint32_t))

/*
 * Build an IPUIMG1 file from @tile_count raw images. With
 * IPUXCOM_IMG_TEMPLATE_AUTO the source is read twice (plus up to 40
 * tiles once more): first to pick the template - the images sharing the
 * most 128-byte blocks with the others, and 32 sampled tiles, ranked by
 * the exact patch bytes they would cost for the sampled tiles - then to
 * diff every image against it. Patches merge differences at most 8 bytes
 * apart (a patch header costs 8). The result is deterministic. On success
 * *@out is a malloc'ed file image of *@out_len bytes.
 */
IPUXCOM_API int ipuxcom_image_pack(const struct ipuxcom_image_pack_params *params,
				   ipuxcom_image_source_fn source, void *ctx,
				   void **out, size_t *out_len, struct ipuxcom_errmsg *em);
/* The same from @images[0 .. tile_count - 1], each image_size bytes. */
IPUXCOM_API int ipuxcom_image_pack_buffers(const struct ipuxcom_image_pack_params *params,
					   const void *const *images, void **out,
					   size_t *out_len, struct ipuxcom_errmsg *em);

/*
 * Directory packing. Grows at its end: start from
 * IPUXCOM_IMAGE_DIR_OPTS_INIT, which also sets the defaults (as
 * ipuxcom_image_dir_opts_init() does). Members past a smaller @size are
 * zero; a bigger struct whose members this library does not know are not
 * zero is -E2BIG, size 0 or below IPUXCOM_IMAGE_DIR_OPTS_SIZE_MIN -EINVAL
 * (the message names "opts.size").
 */
struct ipuxcom_image_dir_opts {
	uint32_t size;			/* set by the caller (IPUXCOM_IMAGE_DIR_OPTS_INIT) */
	uint32_t tile_count;		/* files for tiles 0 .. tile_count - 1 */
	uint32_t template_tile;		/* a tile, or IPUXCOM_IMG_TEMPLATE_AUTO */
	uint32_t load_base;		/* raw images only */
	uint32_t entry;			/* raw images only */
};

/* tile_count 1472, automatic template, load base and entry 0x4c010. */
#define IPUXCOM_IMAGE_DIR_OPTS_INIT {						\
	.size = sizeof(struct ipuxcom_image_dir_opts),				\
	.tile_count = IPUXCOM_IMG_TILES,					\
	.template_tile = IPUXCOM_IMG_TEMPLATE_AUTO,				\
	.load_base = IPUXCOM_IMG_PAYLOAD_BASE,					\
	.entry = IPUXCOM_IMG_PAYLOAD_BASE,					\
}
/* Every member of 1.0. */
#define IPUXCOM_IMAGE_DIR_OPTS_SIZE_MIN						\
	(offsetof(struct ipuxcom_image_dir_opts, entry) + sizeof(uint32_t))

/*
 * The defaults of IPUXCOM_IMAGE_DIR_OPTS_INIT into the first @opts->size
 * bytes (the caller sets @size; members past it are not touched), keeping
 * @size. -EINVAL for NULL, or size 0 or below
 * IPUXCOM_IMAGE_DIR_OPTS_SIZE_MIN ("opts.size").
 */
IPUXCOM_API int ipuxcom_image_dir_opts_init(struct ipuxcom_image_dir_opts *opts);

/*
 * Pack @dir, which must hold exactly the regular files N.bin for N = 0 ..
 * tile_count - 1 (decimal, no leading zeros), all of the same size:
 * anything else in it is a "stray" error, a missing file a "missing" one.
 */
IPUXCOM_API int ipuxcom_image_pack_raw_dir(const char *dir,
					   const struct ipuxcom_image_dir_opts *opts,
					   void **out, size_t *out_len,
					   struct ipuxcom_errmsg *em);

/*
 * Pack @dir holding exactly t_N.elf for every tile (same naming rules).
 * Each ELF is read with ipuxcom_tile_elf_parse(); every tile gets the
 * same load base IPUXCOM_IMG_PAYLOAD_BASE and an image reaching the
 * highest file byte of any tile (shorter images are zero-padded). All
 * ELFs must have the same entry point.
 */
IPUXCOM_API int ipuxcom_image_pack_elf_dir(const char *dir,
					   const struct ipuxcom_image_dir_opts *opts,
					   void **out, size_t *out_len,
					   struct ipuxcom_errmsg *em);

/*
 * Pack a few tiles over @base, an image opened with ipuxcom_image_open():
 * @dir holds N.bin (raw) or t_N.elf (ELF) for some of the base's physical
 * tiles, same naming rules, nothing else; those tiles' images come from
 * the files, every other tile's is reconstructed from @base (its CRC32
 * checked: -EBADMSG names the tile). The result keeps the base's tile
 * count, image size, load base and entry point: a raw image must be
 * exactly the base's image size, an ELF's image must fit in it (it is
 * zero-padded) and have the base's entry point (and the base must load
 * at IPUXCOM_IMG_PAYLOAD_BASE). @template_tile: a tile, or
 * IPUXCOM_IMG_TEMPLATE_AUTO. An empty @dir repacks the base.
 */
IPUXCOM_API int ipuxcom_image_pack_raw_dir_over(const char *dir,
						const struct ipuxcom_image *base,
						uint32_t template_tile, void **out,
						size_t *out_len, struct ipuxcom_errmsg *em);
IPUXCOM_API int ipuxcom_image_pack_elf_dir_over(const char *dir,
						const struct ipuxcom_image *base,
						uint32_t template_tile, void **out,
						size_t *out_len, struct ipuxcom_errmsg *em);

/* ------------------------------------------------------------ tile ELFs */

/*
 * One tile ELF's loadable contents. Grows at its end: start from
 * IPUXCOM_TILE_ELF_INIT; the library fills exactly @size bytes.
 */
struct ipuxcom_tile_elf {
	uint32_t size;			/* set by the caller (IPUXCOM_TILE_ELF_INIT); kept */
	uint32_t entry;			/* e_entry */
	uint32_t data_start;		/* lowest address holding file bytes */
	uint32_t data_end;		/* end of the highest file bytes */
	uint32_t reserved_below;	/* zero-fill bytes below the payload base */
	uint32_t load_segments;		/* PT_LOAD segments */
	uint32_t image_size;		/* data_end - IPUXCOM_IMG_PAYLOAD_BASE */
	uint32_t reserved;		/* 0 (keeps @image 8-byte aligned) */
	uint8_t *image;			/* [PAYLOAD_BASE, data_end), malloc'ed */
};

#define IPUXCOM_TILE_ELF_INIT { .size = sizeof(struct ipuxcom_tile_elf) }
/* Every member of 1.0. */
#define IPUXCOM_TILE_ELF_SIZE_MIN						\
	(offsetof(struct ipuxcom_tile_elf, image) + sizeof(uint8_t *))

/*
 * Read a per-tile ELF (little-endian ELF32 or ELF64 executable) with
 * libelf. Its PT_LOAD segments must lie in tile SRAM and not overlap;
 * file bytes may only start at or above IPUXCOM_IMG_PAYLOAD_BASE (only
 * zero-fill, the .secondaryLower reservation, may lie below it). The raw
 * image runs from IPUXCOM_IMG_PAYLOAD_BASE to the end of the highest file
 * bytes; everything in it that no segment's file bytes cover is zero.
 * Zero-fill past the last file byte is not part of the image (the loader
 * transmits only the image). The entry must be 4-aligned and inside it.
 * Free with ipuxcom_tile_elf_free(). -EINVAL for @out->size 0 or below
 * IPUXCOM_TILE_ELF_SIZE_MIN ("out.size"; @out is then not written).
 */
IPUXCOM_API int ipuxcom_tile_elf_parse(const void *data, size_t len,
				       struct ipuxcom_tile_elf *out,
				       struct ipuxcom_errmsg *em);
/*
 * Frees elf->image and zeroes the first elf->size bytes of *elf but the
 * size; NULL, or a size below IPUXCOM_TILE_ELF_SIZE_MIN, is a no-op.
 */
IPUXCOM_API void ipuxcom_tile_elf_free(struct ipuxcom_tile_elf *elf);
/* Deprecated name of ipuxcom_tile_elf_free(). */
IPUXCOM_API void ipuxcom_tile_elf_release(struct ipuxcom_tile_elf *elf)
	__attribute__((deprecated("use ipuxcom_tile_elf_free()")));

/* ------------------------------------------------------- tile bootloader */

/*
 * Where the tile bootloader is linked: the peer loader "takes it from the
 * PT_LOAD at 0x4c000 of the bootloader ELF" [RE, HW-BOOTLOADER-ELF];
 * [S "Direct Attach And Autoloader"]: its
 * loader "parses and checks the ELF" and installs a 1-4 KiB image
 * (IPUXCOM_AUTOLOAD_MAX_BYTES). 0x4c000 is also the start of tile SRAM.
 */
#define IPUXCOM_BOOTLOADER_ADDR		0x4c000u

/*
 * A tile bootloader as ipuxcom_autoload() takes it. Grows at its end:
 * start from IPUXCOM_BOOTLOADER_INIT; the library fills exactly @size
 * bytes. (Before 1.0, @size was the image's length, now @image_size.)
 */
struct ipuxcom_bootloader {
	uint32_t size;		/* set by the caller (IPUXCOM_BOOTLOADER_INIT); kept */
	uint32_t segment;	/* ELF: program header index of the segment */
	uint8_t *image;		/* malloc'ed, @image_size bytes */
	size_t image_size;	/* 1 .. IPUXCOM_AUTOLOAD_MAX_BYTES */
	size_t file_bytes;	/* ELF: p_filesz (the rest is zero-fill); raw: image_size */
	bool from_elf;		/* true: taken from an ELF; false: raw input */
};

#define IPUXCOM_BOOTLOADER_INIT { .size = sizeof(struct ipuxcom_bootloader) }
/* Every member of 1.0. */
#define IPUXCOM_BOOTLOADER_SIZE_MIN						\
	(offsetof(struct ipuxcom_bootloader, from_elf) + sizeof(bool))

/*
 * Read a tile bootloader given either as the ELF the SDK ships or as the
 * raw image. Input starting with the ELF magic \x7fELF is an ELF, read
 * with libelf: it must be ELFCLASS32 and little-endian (the IPU's tile
 * bootloader is a 32-bit little-endian ELF; e_machine and e_type are not
 * checked, the notes record neither), and exactly one PT_LOAD segment
 * must have p_vaddr IPUXCOM_BOOTLOADER_ADDR (p_vaddr, the linked address,
 * as for tile ELFs; p_paddr is ignored). The image is that segment's
 * memory image: its p_filesz file bytes followed by zeros up to p_memsz,
 * since the autoloader stages the whole image; other segments are
 * ignored. Any other input is the raw image, passed through unchanged.
 * Either way the image must be 1 .. IPUXCOM_AUTOLOAD_MAX_BYTES bytes.
 *
 * Errors: -EBADMSG for an ELF that is not 32-bit or not little-endian,
 * has no PT_LOAD at 0x4c000 (the message names the PT_LOAD segments found)
 * or more than one, is truncated (headers or the segment's file bytes past
 * the end of the data) or has p_filesz > p_memsz, and for an empty image;
 * -EFBIG for an image larger than 4096 bytes (naming its size); -EINVAL
 * for @out->size 0 or below IPUXCOM_BOOTLOADER_SIZE_MIN ("out.size"; @out
 * is then not written). Free with ipuxcom_bootloader_free().
 */
IPUXCOM_API int ipuxcom_bootloader_parse(const void *data, size_t len,
					 struct ipuxcom_bootloader *out,
					 struct ipuxcom_errmsg *em);
/* The same from file @path (messages start with the path). */
IPUXCOM_API int ipuxcom_bootloader_load(const char *path, struct ipuxcom_bootloader *out,
					struct ipuxcom_errmsg *em);
/*
 * Frees bl->image and zeroes the first bl->size bytes of *bl but the
 * size; NULL, or a size below IPUXCOM_BOOTLOADER_SIZE_MIN, is a no-op.
 */
IPUXCOM_API void ipuxcom_bootloader_free(struct ipuxcom_bootloader *bl);
/* Deprecated name of ipuxcom_bootloader_free(). */
IPUXCOM_API void ipuxcom_bootloader_release(struct ipuxcom_bootloader *bl)
	__attribute__((deprecated("use ipuxcom_bootloader_free()")));

/* ------------------------------------------------------------- redirect */

/* Instruction words [RE, HW-INSN-FIXED]. */
#define IPUXCOM_INSN_SYNC_SUPERVISOR	0x41800003u	/* sync, zone 3 */
#define IPUXCOM_INSN_SETZI_M0(imm)	(0x19000000u | (0u << 20) | (uint32_t)(imm))
#define IPUXCOM_INSN_BR_M0		0x43000000u	/* br $m0 */
#define IPUXCOM_SETZI_IMM_LIMIT		0x100000u	/* setzi immediate < 2^20 */

/*
 * Entry redirect [S "Compact Physical Image"]: the words at entry and
 * entry+4 ("nop; sync3") stay; entry+8 and entry+12 become
 * "setzi $m0, target; br $m0". By marker: the two words must occur
 * exactly once (4-aligned) in the image, must be followed by a sync3 word,
 * and the target is the word after that sync3 (the notes: the target
 * skips the function's marker and sync3 prefix). See docs/ipuimg-format.md.
 * Grows at its end: start from IPUXCOM_REDIRECT_SPEC_INIT. Members past a
 * smaller @size are zero; a bigger struct whose members this library does
 * not know are not zero is -E2BIG, size 0 or below
 * IPUXCOM_REDIRECT_SPEC_SIZE_MIN -EINVAL (the message names "spec.size").
 */
struct ipuxcom_redirect_spec {
	uint32_t size;			/* set by the caller (IPUXCOM_REDIRECT_SPEC_INIT) */
	uint32_t marker[2];		/* the two marker words */
	uint32_t target;		/* explicit target when !by_marker */
	bool by_marker;			/* true: find the target from @marker */
};

#define IPUXCOM_REDIRECT_SPEC_INIT { .size = sizeof(struct ipuxcom_redirect_spec) }
/* Every member of 1.0. */
#define IPUXCOM_REDIRECT_SPEC_SIZE_MIN						\
	(offsetof(struct ipuxcom_redirect_spec, by_marker) + sizeof(bool))

/*
 * Redirect one raw image in place. *@target (may be NULL) gets the target.
 * -ENOENT: marker missing; -ENOTUNIQ: marker found more than once;
 * -EBADMSG: the entry does not start "nop; sync3", or the marker is not
 * followed by sync3; -ERANGE: a target setzi cannot encode or outside the
 * image.
 */
IPUXCOM_API int ipuxcom_redirect_raw(void *image, size_t size, uint32_t load_base,
				     uint32_t entry, const struct ipuxcom_redirect_spec *spec,
				     uint32_t *target, struct ipuxcom_errmsg *em);

/*
 * What ipuxcom_image_redirect() did. Grows at its end: start from
 * IPUXCOM_REDIRECT_REPORT_INIT; the library fills exactly @size bytes.
 */
struct ipuxcom_redirect_report {
	uint32_t size;			/* set by the caller (IPUXCOM_REDIRECT_REPORT_INIT); kept */
	uint32_t tiles;			/* tiles redirected (all of them) */
	uint32_t target_min;
	uint32_t target_max;
};

#define IPUXCOM_REDIRECT_REPORT_INIT { .size = sizeof(struct ipuxcom_redirect_report) }
/* Every member of 1.0. */
#define IPUXCOM_REDIRECT_REPORT_SIZE_MIN					\
	(offsetof(struct ipuxcom_redirect_report, target_max) + sizeof(uint32_t))

/*
 * Redirect every tile of @img and pack the result (same template tile).
 * Refuses, naming the tile, if any tile cannot be redirected. @report
 * (may be NULL) is filled on success; one whose size is 0 or below
 * IPUXCOM_REDIRECT_REPORT_SIZE_MIN is -EINVAL ("report.size").
 */
IPUXCOM_API int ipuxcom_image_redirect(const struct ipuxcom_image *img,
				       const struct ipuxcom_redirect_spec *spec,
				       void **out, size_t *out_len,
				       struct ipuxcom_redirect_report *report,
				       struct ipuxcom_errmsg *em);

/* --------------------------------------------------------- loader frames */

/* Secondary-loader transport layout [S "Secondary Loader Frames"]. */
#define IPUXCOM_FRAMES_DESC_AREA	0x1000u	/* descriptor area; frames start here */
#define IPUXCOM_FRAMES_DESC_ENTRIES	64u	/* {u32 offset, u32 count} at 0..511; = batch tiles */
#define IPUXCOM_FRAME_SIZE		1024u
#define IPUXCOM_FRAME_HEADER		16u	/* chunk, tile, flags, reserved */
#define IPUXCOM_FRAME_PAYLOAD		992u
#define IPUXCOM_FRAME_TRAILER		16u	/* 0xff bytes */
#define IPUXCOM_FRAME_FLAGS_FINAL	0x08000000u	/* byte 11 = 8 */
/* At most 0x283 frames per tile [S, RE]. */
#define IPUXCOM_FRAMES_MAX_PER_TILE	643u
/*
 * [RE] pads every payload to at least 0x4134 bytes; the loader does not
 * acknowledge a one-frame application [HW-LOADER-LIMITS].
 */
#define IPUXCOM_FRAMES_MIN_PAYLOAD	0x4134u
/*
 * So every tile has at least ceil(0x4134 / 992) = 17 frames: the frame
 * counts the library writes, and the module and simulator accept, are
 * IPUXCOM_FRAMES_MIN_PER_TILE .. IPUXCOM_FRAMES_MAX_PER_TILE (17..643).
 */
#define IPUXCOM_FRAMES_MIN_PER_TILE	17u

/*
 * Frames for an image of @image_size bytes: ceil(max(size, 0x4134) / 992),
 * so 17 (IPUXCOM_FRAMES_MIN_PER_TILE) for any image up to 0x4134 bytes.
 * -EINVAL for 0, -EFBIG beyond 643 frames.
 */
IPUXCOM_API int ipuxcom_frames_per_tile(uint32_t image_size, uint32_t *frames,
					struct ipuxcom_errmsg *em);

/*
 * Bytes of the transport buffer for physical tiles @first .. @last (within
 * the image and within one 64-tile batch, 64 b .. 64 b + 63): the
 * descriptor area plus their frames. -EINVAL for a range crossing a batch
 * boundary, naming both tiles.
 */
IPUXCOM_API int ipuxcom_frames_batch_size(const struct ipuxcom_image *img, uint32_t first,
					  uint32_t last, size_t *size,
					  struct ipuxcom_errmsg *em);

/*
 * Write the descriptor area and the frames of tiles @first .. @last (one
 * batch, as for ipuxcom_frames_batch_size()) straight into @buf (@len >=
 * ipuxcom_frames_batch_size()): each tile's image is reconstructed inside
 * its frames' payloads and its CRC32 checked. Descriptor entry i
 * describes the batch's tile i, i.e. tile t is in slot t % 64, as a real
 * batch has it: for 70..75, tile 70 is in slot 6 and slots 0..5 and
 * 12..63 are zero. Frames start at 0x1000, tile after tile from @first.
 * The image's load base must be IPUXCOM_IMG_PAYLOAD_BASE, where the
 * loader puts payload. Bytes of @buf past the batch size are not touched.
 */
IPUXCOM_API int ipuxcom_frames_build(const struct ipuxcom_image *img, uint32_t first,
				     uint32_t last, void *buf, size_t len,
				     struct ipuxcom_errmsg *em);

/* ---------------------------------------------------------------- IPUCFG1 */

/* "IPUCFG1\0", u32 count, count x (u32 offset, u32 value), LE [S]. */
#define IPUXCOM_CFG_MAGIC		"IPUCFG1"
#define IPUXCOM_CFG_HEADER_SIZE		12u
/* The config BAR is 512 KiB [RE, HW-CFG-MAP]. */
#define IPUXCOM_CFG_BAR_SIZE		0x80000u

/*
 * Parse an IPUCFG1 file: exact size, 1 .. IPUXCOM_CFG_MAX_RECORDS records
 * (what IPUXCOM_IOC_CFG_APPLY takes), every offset 4-aligned and inside
 * the BAR. *@recs is malloc'ed (NULL on failure).
 */
IPUXCOM_API int ipuxcom_cfg_parse(const void *data, size_t len,
				  struct ipuxcom_cfg_record **recs, uint32_t *count,
				  struct ipuxcom_errmsg *em);
IPUXCOM_API int ipuxcom_cfg_load(const char *path, struct ipuxcom_cfg_record **recs,
				 uint32_t *count, struct ipuxcom_errmsg *em);
/* The file for @recs, after the same checks; *@out malloc'ed. */
IPUXCOM_API int ipuxcom_cfg_serialize(const struct ipuxcom_cfg_record *recs, uint32_t count,
				      void **out, size_t *out_len,
				      struct ipuxcom_errmsg *em);

/*
 * Name of the register at @offset from the record's register table (HW-REGS), e.g.
 * "AUTOLDCSR", "XB.DCXCR[9]", "TDI[17].DBG_DATA"; "" when it has none.
 * Returns @buf.
 */
IPUXCOM_API const char *ipuxcom_cfg_reg_name(uint32_t offset, char *buf, size_t len);

/*
 * Register blocks a config touches. Fixed: an array element of the
 * summary (the caller's array is indexed by the library).
 */
struct ipuxcom_cfg_block {
	char name[40];			/* "AUTOLD", "TDI", "page 0x05000" ... */
	uint32_t first;			/* lowest offset written */
	uint32_t last;			/* highest offset written */
	uint32_t writes;		/* records */
	uint32_t registers;		/* distinct offsets */
	uint32_t units;			/* TDI: tiles; XB.DCXCR: instances; else registers */
	bool named;			/* the block is in the HW-REGS table */
};

/*
 * One entry per block touched, in BAR order; *@blocks malloc'ed.
 * -EINVAL if a record is invalid (see ipuxcom_cfg_parse()).
 */
IPUXCOM_API int ipuxcom_cfg_summarize(const struct ipuxcom_cfg_record *recs, uint32_t count,
				      struct ipuxcom_cfg_block **blocks, size_t *nblocks);

/* --------------------------------------------------- host-sync manifests */

/* Limits of this project's .ipuhsp format (docs/ipuhsp-format.md). */
#define IPUXCOM_HSP_VERSION		1u
#define IPUXCOM_HSP_MAX_PAGES		16u
#define IPUXCOM_HSP_MAX_CALLS		32u
#define IPUXCOM_HSP_MAX_SLICES		64u
#define IPUXCOM_HSP_NAME_LEN		32u	/* with the NUL */
#define IPUXCOM_HSP_PAGE_UNIT		4096u	/* page sizes are multiples */
#define IPUXCOM_HSP_MAX_PAGE_SIZE	0x4000000u	/* 64 MiB */
#define IPUXCOM_HSP_MAX_PHASES		0xffffu	/* GS2 MARK is 16 bits [S] */

enum ipuxcom_hsp_dir {
	IPUXCOM_HSP_INPUT = 0,		/* host fills it before the call */
	IPUXCOM_HSP_OUTPUT = 1,		/* host reads it after the call */
};

/* Fixed: an array element of struct ipuxcom_hsp_manifest. */
struct ipuxcom_hsp_call {
	char name[IPUXCOM_HSP_NAME_LEN];
	uint32_t id;			/* callable id written to the command word */
	uint32_t phases;		/* GS2 phase handoffs the call takes */
};

/* Fixed: an array element of struct ipuxcom_hsp_manifest. */
struct ipuxcom_hsp_slice {
	uint32_t call;			/* index into calls[] */
	uint32_t dir;			/* enum ipuxcom_hsp_dir */
	uint32_t page;
	uint32_t offset;
	uint32_t size;
};

/*
 * A manifest as the .ipuhsp format (version IPUXCOM_HSP_VERSION) has it.
 * Fixed: file-format-shaped, its arrays bounded by the format's limits; a
 * format that needs more gets a new version and a new struct.
 */
struct ipuxcom_hsp_manifest {
	uint32_t npages;
	uint32_t page_size[IPUXCOM_HSP_MAX_PAGES];
	uint32_t attach_order[IPUXCOM_HSP_MAX_PAGES];	/* page indices */
	uint32_t command_page;		/* the u32 callable-id word */
	uint32_t command_offset;
	uint32_t ncalls;
	struct ipuxcom_hsp_call calls[IPUXCOM_HSP_MAX_CALLS];
	uint32_t nslices;
	struct ipuxcom_hsp_slice slices[IPUXCOM_HSP_MAX_SLICES];
};

/* Parse .ipuhsp text (@len bytes, no NUL needed) and validate it. */
IPUXCOM_API int ipuxcom_hsp_parse(const char *text, size_t len,
				  struct ipuxcom_hsp_manifest *m, struct ipuxcom_errmsg *em);
IPUXCOM_API int ipuxcom_hsp_load(const char *path, struct ipuxcom_hsp_manifest *m,
				 struct ipuxcom_errmsg *em);
/* Every rule of docs/ipuhsp-format.md on an in-memory manifest. */
IPUXCOM_API int ipuxcom_hsp_validate(const struct ipuxcom_hsp_manifest *m,
				     struct ipuxcom_errmsg *em);
/* Canonical text of a valid manifest; *@text malloc'ed and NUL-terminated. */
IPUXCOM_API int ipuxcom_hsp_format(const struct ipuxcom_hsp_manifest *m, char **text,
				   size_t *len, struct ipuxcom_errmsg *em);
/* Index of the call named @name, or -ENOENT. */
IPUXCOM_API int ipuxcom_hsp_find_call(const struct ipuxcom_hsp_manifest *m, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* IPUXCOM_IMAGE_H */
