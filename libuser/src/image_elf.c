// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Per-tile ELF files (t_N.elf) read with libelf.
 *
 * The notes [S "Compact Physical Image", "Debug Readback Pivot"]: the
 * load image is the PT_LOAD contents; the zero-fill .secondaryLower
 * PT_LOAD segment is not transmitted but occupies address space, and the
 * first payload byte lands at its linked address 0x4c010, not 0x4c000.
 *
 * This project's definition of the raw image of a tile ELF (documented in
 * docs/ipuimg-format.md):
 *  - it starts at IPUXCOM_IMG_PAYLOAD_BASE (0x4c010), where the loader
 *    installs payload [S, RE]; file bytes below it are an error, zero-fill
 *    below it (.secondaryLower) is counted in reserved_below;
 *  - it ends with the highest segment file byte; zero-fill after that is
 *    not transmitted (as for .secondaryLower);
 *  - bytes inside it that no segment's file bytes cover (zero-fill tails,
 *    gaps between segments) are zero.
 * Addresses are p_vaddr (inferred: the notes speak of linked addresses).
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "image_internal.h"
#include "internal.h"

/* A tile ELF has a handful of segments; refuse absurd tables. */
#define IXC_ELF_MAX_PHDRS	256

struct ixc_seg {
	uint64_t vaddr, memsz, filesz, offset;
	size_t index;
};

int ixc_elf_fail(struct ipuxcom_errmsg *em, int err, const char *what)
{
	return ixc_err(em, err, "%s (libelf: %s)", what, elf_errmsg(-1));
}

int ixc_tile_elf_read(const void *data, size_t len, struct ipuxcom_tile_elf *info,
		      uint8_t *dest, size_t dest_len, struct ipuxcom_errmsg *em)
{
	struct ixc_seg *segs = NULL;
	size_t phnum, nsegs = 0;
	uint64_t data_start = UINT64_MAX, data_end = 0, below = 0;
	GElf_Ehdr eh;
	Elf *e;
	int err = 0;

	memset(info, 0, sizeof(*info));
	if (!data || len < EI_NIDENT)
		return ixc_err(em, -EBADMSG, "not an ELF file: %zu bytes", len);
	if (memcmp(data, ELFMAG, SELFMAG))
		return ixc_err(em, -EBADMSG, "not an ELF file: no \\x7fELF magic");
	if (elf_version(EV_CURRENT) == EV_NONE)
		return ixc_elf_fail(em, -ENOTSUP, "libelf version mismatch");
	/* ELF_C_READ_MMAP on memory: libelf reads @data and never writes it. */
	e = elf_memory((char *)(uintptr_t)data, len);
	if (!e)
		return ixc_elf_fail(em, -EBADMSG, "not a valid ELF file");
	if (elf_kind(e) != ELF_K_ELF) {
		err = ixc_err(em, -EBADMSG, "not an ELF object");
		goto out;
	}
	if (!gelf_getehdr(e, &eh)) {
		err = ixc_elf_fail(em, -EBADMSG, "bad ELF header");
		goto out;
	}
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB) {
		err = ixc_err(em, -EBADMSG, "ELF data encoding %u is not little-endian "
			      "(tile images are little-endian)", eh.e_ident[EI_DATA]);
		goto out;
	}
	if (eh.e_type != ET_EXEC) {
		err = ixc_err(em, -EBADMSG, "ELF type %u is not an executable (ET_EXEC)",
			      eh.e_type);
		goto out;
	}
	if (elf_getphdrnum(e, &phnum)) {
		err = ixc_elf_fail(em, -EBADMSG, "bad program header count");
		goto out;
	}
	if (phnum == 0 || phnum > IXC_ELF_MAX_PHDRS) {
		err = ixc_err(em, -EBADMSG, "%zu program headers (expected 1..%d)", phnum,
			      IXC_ELF_MAX_PHDRS);
		goto out;
	}
	segs = calloc(phnum, sizeof(*segs));
	if (!segs) {
		err = ixc_err(em, -ENOMEM, "no memory for %zu segments", phnum);
		goto out;
	}
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		struct ixc_seg *s;

		if (!gelf_getphdr(e, (int)i, &ph)) {
			err = ixc_elf_fail(em, -EBADMSG, "bad program header");
			goto out;
		}
		if (ph.p_type != PT_LOAD)
			continue;
		info->load_segments++;
		if (ph.p_filesz > ph.p_memsz) {
			err = ixc_err(em, -EBADMSG,
				      "segment %zu: file size 0x%" PRIx64
				      " exceeds its memory size 0x%" PRIx64, i,
				      (uint64_t)ph.p_filesz, (uint64_t)ph.p_memsz);
			goto out;
		}
		if (ph.p_offset > len || ph.p_filesz > len - ph.p_offset) {
			err = ixc_err(em, -EBADMSG,
				      "segment %zu: file bytes 0x%" PRIx64 "+0x%" PRIx64
				      " beyond the end of the 0x%zx-byte file", i,
				      (uint64_t)ph.p_offset, (uint64_t)ph.p_filesz, len);
			goto out;
		}
		if (ph.p_memsz == 0)
			continue;
		if (ph.p_vaddr < IPUXCOM_IMG_SRAM_BASE || ph.p_vaddr > IPUXCOM_IMG_SRAM_END ||
		    ph.p_memsz > IPUXCOM_IMG_SRAM_END - ph.p_vaddr) {
			err = ixc_err(em, -EBADMSG,
				      "segment %zu: [0x%" PRIx64 ", +0x%" PRIx64
				      ") outside tile SRAM [0x%x, 0x%x)", i, (uint64_t)ph.p_vaddr,
				      (uint64_t)ph.p_memsz, IPUXCOM_IMG_SRAM_BASE,
				      IPUXCOM_IMG_SRAM_END);
			goto out;
		}
		if (ph.p_filesz && ph.p_vaddr < IPUXCOM_IMG_PAYLOAD_BASE) {
			err = ixc_err(em, -EBADMSG,
				      "segment %zu: file bytes at 0x%" PRIx64
				      ", below the payload base 0x%x (only zero-fill, the "
				      ".secondaryLower reservation, may lie below it)",
				      i, (uint64_t)ph.p_vaddr, IPUXCOM_IMG_PAYLOAD_BASE);
			goto out;
		}
		s = &segs[nsegs++];
		s->vaddr = ph.p_vaddr;
		s->memsz = ph.p_memsz;
		s->filesz = ph.p_filesz;
		s->offset = ph.p_offset;
		s->index = i;
		for (size_t j = 0; j + 1 < nsegs; j++) {
			const struct ixc_seg *o = &segs[j];

			if (s->vaddr < o->vaddr + o->memsz && o->vaddr < s->vaddr + s->memsz) {
				err = ixc_err(em, -EBADMSG,
					      "segments %zu [0x%" PRIx64 ", 0x%" PRIx64
					      ") and %zu [0x%" PRIx64 ", 0x%" PRIx64 ") overlap",
					      o->index, o->vaddr, o->vaddr + o->memsz, i,
					      s->vaddr, s->vaddr + s->memsz);
				goto out;
			}
		}
		if (s->vaddr < IPUXCOM_IMG_PAYLOAD_BASE) {
			uint64_t end = s->vaddr + s->memsz;

			below += (end < IPUXCOM_IMG_PAYLOAD_BASE ? end : IPUXCOM_IMG_PAYLOAD_BASE) -
				 s->vaddr;
		}
		if (s->filesz) {
			if (s->vaddr < data_start)
				data_start = s->vaddr;
			if (s->vaddr + s->filesz > data_end)
				data_end = s->vaddr + s->filesz;
		}
	}
	if (!data_end) {
		err = ixc_err(em, -EBADMSG, "no PT_LOAD segment with file bytes (%" PRIu32
			      " PT_LOAD segments)", info->load_segments);
		goto out;
	}
	if (eh.e_entry & 3 || eh.e_entry < IPUXCOM_IMG_PAYLOAD_BASE || eh.e_entry + 4 > data_end) {
		err = ixc_err(em, -EBADMSG,
			      "entry point 0x%" PRIx64 " is not a 4-aligned word of the image "
			      "[0x%x, 0x%" PRIx64 ")", (uint64_t)eh.e_entry,
			      IPUXCOM_IMG_PAYLOAD_BASE, data_end);
		goto out;
	}
	info->entry = (uint32_t)eh.e_entry;
	info->data_start = (uint32_t)data_start;
	info->data_end = (uint32_t)data_end;
	info->reserved_below = (uint32_t)below;
	info->image_size = (uint32_t)(data_end - IPUXCOM_IMG_PAYLOAD_BASE);
	if (dest) {
		if (dest_len < info->image_size) {
			err = ixc_err(em, -EINVAL, "image of 0x%" PRIx32 " bytes, buffer of 0x%zx",
				      info->image_size, dest_len);
			goto out;
		}
		memset(dest, 0, dest_len);
		for (size_t i = 0; i < nsegs; i++)
			if (segs[i].filesz)
				memcpy(dest + (segs[i].vaddr - IPUXCOM_IMG_PAYLOAD_BASE),
				       (const uint8_t *)data + segs[i].offset, segs[i].filesz);
	}
out:
	free(segs);
	elf_end(e);
	return err;
}

int ipuxcom_tile_elf_parse(const void *data, size_t len, struct ipuxcom_tile_elf *out,
			   struct ipuxcom_errmsg *em)
{
	struct ipuxcom_tile_elf info = IPUXCOM_TILE_ELF_INIT, full = IPUXCOM_TILE_ELF_INIT;
	const struct ipuxcom_tile_elf zero = { .size = sizeof(zero) };
	int err;

	ixc_err_clear(em);
	if (!out)
		return ixc_err(em, -EINVAL, "no output");
	err = ixc_size_out_check(out, IPUXCOM_TILE_ELF_SIZE_MIN, IPUXCOM_ERR_FILE, "out.size",
				 "IPUXCOM_TILE_ELF_INIT", em ? em->msg : NULL,
				 em ? sizeof(em->msg) : 0);
	if (err)
		return err;
	ixc_struct_out(out, out->size, &zero, sizeof(zero));
	err = ixc_tile_elf_read(data, len, &info, NULL, 0, em);
	if (err)
		return err;
	/* image_size <= SRAM size: checked above. */
	info.image = malloc(info.image_size);
	if (!info.image)
		return ixc_err(em, -ENOMEM, "no memory for a 0x%" PRIx32 "-byte image",
			       info.image_size);
	err = ixc_tile_elf_read(data, len, &full, info.image, info.image_size, em);
	if (err) {
		free(info.image);
		return err;
	}
	full.size = sizeof(full);
	full.image = info.image;
	ixc_struct_out(out, out->size, &full, sizeof(full));
	return 0;
}

void ipuxcom_tile_elf_free(struct ipuxcom_tile_elf *elf)
{
	const struct ipuxcom_tile_elf zero = { .size = sizeof(zero) };

	if (!elf || ixc_struct_out_check(elf->size, IPUXCOM_TILE_ELF_SIZE_MIN))
		return;
	free(elf->image);
	ixc_struct_out(elf, elf->size, &zero, sizeof(zero));
}

/* The deprecated name (issue 23: one destructor verb, one prefix). */
void ipuxcom_tile_elf_release(struct ipuxcom_tile_elf *elf)
{
	ipuxcom_tile_elf_free(elf);
}
