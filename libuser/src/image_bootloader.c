// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * The tile bootloader that the hardware autoloader installs on every tile,
 * from the ELF the SDK ships or from its raw bytes.
 *
 * [S "Direct Attach And Autoloader"]: "direct_ipu_loader bootloader
 * TILE_BOOTLOADER_ELF parses and checks the ELF, derives the corresponding
 * range fields for a 1-4 KiB image"; the IPU2 bootloader is 948 bytes,
 * padded to 1 KiB. [RE, HW-BOOTLOADER-ELF]:
 * the peer "takes it from the PT_LOAD at 0x4c000 of the bootloader ELF"
 * and pads every bootloader to a multiple of 1 KiB (the module pads: the
 * image given to ipuxcom_autoload() is unpadded).
 *
 * This project's choices (documented in docs/ipuimg-format.md):
 *  - ELF input is recognised by its magic; anything else is raw bytes;
 *  - the ELF must be ELFCLASS32 little-endian: the IPU's tile bootloader
 *    is a 32-bit little-endian ELF (the statement; the notes do
 *    not give the class: modelled); e_machine and e_type are not checked
 *    (not recorded anywhere);
 *  - the segment is found by p_vaddr, the linked address, as for tile
 *    ELFs (image_elf.c); p_paddr is ignored;
 *  - the image is the segment's memory image: p_filesz file bytes and
 *    zeros up to p_memsz, because the autoloader stages the whole image
 *    (a zero-fill tail must reach the tile as zeros, not as stale SRAM).
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_internal.h"
#include "internal.h"

/* A bootloader ELF has a handful of segments; refuse absurd tables. */
#define IXC_BOOT_MAX_PHDRS	256
/*
 * Largest bootloader file read (an ELF may carry symbols and debug
 * information): this project's bound, far above any 4 KiB image's ELF.
 */
#define IXC_BOOT_MAX_FILE	(16u << 20)

/* Append "N at 0xADDR (0xSIZE bytes)" for the no-segment message. */
static void ixc_boot_seg_list(char *buf, size_t len, size_t *used, unsigned int *listed,
			      size_t index, const GElf_Phdr *ph)
{
	int n;

	if (*used >= len)
		return;
	if (*listed == 8) {
		n = snprintf(buf + *used, len - *used, ", ...");
	} else if (*listed > 8) {
		return;
	} else {
		n = snprintf(buf + *used, len - *used, "%s%zu at 0x%" PRIx64 "%s (0x%" PRIx64
			     " bytes)", *listed ? ", " : "", index, (uint64_t)ph->p_vaddr,
			     ph->p_paddr != ph->p_vaddr ? " (p_paddr differs)" : "",
			     (uint64_t)ph->p_memsz);
	}
	(*listed)++;
	if (n > 0)
		*used = *used + (size_t)n < len ? *used + (size_t)n : len;
}

/* 64 bits: an ELF32 p_memsz, or a length, on any host. */
static int ixc_boot_size_check(uint64_t size, const char *what, struct ipuxcom_errmsg *em)
{
	if (!size)
		return ixc_err(em, -EBADMSG, "%s is empty: a bootloader is 1..%u bytes", what,
			       IPUXCOM_AUTOLOAD_MAX_BYTES);
	if (size > IPUXCOM_AUTOLOAD_MAX_BYTES)
		return ixc_err(em, -EFBIG, "%s is %" PRIu64 " (0x%" PRIx64 ") bytes: the "
			       "autoloader takes 1..%u", what, size, size,
			       IPUXCOM_AUTOLOAD_MAX_BYTES);
	return 0;
}

static int ixc_boot_elf(const uint8_t *data, size_t len, struct ipuxcom_bootloader *out,
			struct ipuxcom_errmsg *em)
{
	char found[160] = "", what[96];
	unsigned int listed = 0;
	size_t phnum, used = 0, matches = 0, hit = 0;
	GElf_Phdr seg = { 0 };
	GElf_Ehdr eh;
	Elf *e;
	int err = 0;

	if (len < EI_NIDENT)
		return ixc_err(em, -EBADMSG, "truncated ELF: %zu bytes, shorter than the "
			       "%d-byte ELF identification", len, EI_NIDENT);
	/* The identification first: it decides how libelf reads the rest. */
	if (data[EI_CLASS] != ELFCLASS32)
		return ixc_err(em, -EBADMSG, "ELF class %u (%s): the tile bootloader is a "
			       "32-bit ELF (ELFCLASS32)", data[EI_CLASS],
			       data[EI_CLASS] == ELFCLASS64 ? "ELFCLASS64" : "unknown");
	if (data[EI_DATA] != ELFDATA2LSB)
		return ixc_err(em, -EBADMSG, "ELF data encoding %u is not little-endian "
			       "(ELFDATA2LSB): the tile bootloader is little-endian",
			       data[EI_DATA]);
	if (len < sizeof(Elf32_Ehdr))
		return ixc_err(em, -EBADMSG, "truncated ELF: %zu bytes, shorter than the "
			       "%zu-byte ELF32 header", len, sizeof(Elf32_Ehdr));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return ixc_elf_fail(em, -ENOTSUP, "libelf version mismatch");
	/* libelf reads @data and never writes it. */
	e = elf_memory((char *)(uintptr_t)data, len);
	if (!e)
		return ixc_elf_fail(em, -EBADMSG, "not a valid ELF file");
	if (elf_kind(e) != ELF_K_ELF || gelf_getclass(e) != ELFCLASS32) {
		err = ixc_err(em, -EBADMSG, "not an ELF32 object");
		goto out;
	}
	if (!gelf_getehdr(e, &eh)) {
		err = ixc_elf_fail(em, -EBADMSG, "bad or truncated ELF header");
		goto out;
	}
	if (elf_getphdrnum(e, &phnum)) {
		err = ixc_elf_fail(em, -EBADMSG, "bad or truncated program header table");
		goto out;
	}
	/* libelf counts only the headers inside the file: say it is cut short. */
	if (eh.e_phnum != PN_XNUM && eh.e_phnum > phnum)
		phnum = eh.e_phnum;
	if (phnum && (eh.e_phoff > len || (uint64_t)phnum * eh.e_phentsize > len - eh.e_phoff)) {
		err = ixc_err(em, -EBADMSG, "truncated ELF: %zu program headers of %u bytes at "
			      "0x%" PRIx64 " run past the end of the 0x%zx-byte file", phnum,
			      (unsigned int)eh.e_phentsize, (uint64_t)eh.e_phoff, len);
		goto out;
	}
	if (phnum && eh.e_phentsize != sizeof(Elf32_Phdr)) {
		err = ixc_err(em, -EBADMSG, "program header size %u, not the ELF32 %zu bytes",
			      (unsigned int)eh.e_phentsize, sizeof(Elf32_Phdr));
		goto out;
	}
	if (phnum > IXC_BOOT_MAX_PHDRS) {
		err = ixc_err(em, -EBADMSG, "%zu program headers (at most %d)", phnum,
			      IXC_BOOT_MAX_PHDRS);
		goto out;
	}
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph)) {
			err = ixc_elf_fail(em, -EBADMSG, "bad or truncated program header");
			goto out;
		}
		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_vaddr != IPUXCOM_BOOTLOADER_ADDR) {
			ixc_boot_seg_list(found, sizeof(found), &used, &listed, i, &ph);
			continue;
		}
		if (matches++ == 0) {
			seg = ph;
			hit = i;
		} else if (matches == 2) {
			err = ixc_err(em, -EBADMSG, "PT_LOAD segments %zu and %zu are both at "
				      "0x%x: expected exactly one bootloader segment", hit, i,
				      IPUXCOM_BOOTLOADER_ADDR);
			goto out;
		}
	}
	if (!matches) {
		err = ixc_err(em, -EBADMSG, "no PT_LOAD segment at 0x%x (p_vaddr); PT_LOAD "
			      "segments found: %s", IPUXCOM_BOOTLOADER_ADDR,
			      listed ? found : "none");
		goto out;
	}
	if (seg.p_filesz > seg.p_memsz) {
		err = ixc_err(em, -EBADMSG, "segment %zu at 0x%x: file size 0x%" PRIx64
			      " exceeds its memory size 0x%" PRIx64, hit, IPUXCOM_BOOTLOADER_ADDR,
			      (uint64_t)seg.p_filesz, (uint64_t)seg.p_memsz);
		goto out;
	}
	if (seg.p_offset > len || seg.p_filesz > len - seg.p_offset) {
		err = ixc_err(em, -EBADMSG, "truncated ELF: segment %zu's file bytes 0x%" PRIx64
			      "+0x%" PRIx64 " run past the end of the 0x%zx-byte file", hit,
			      (uint64_t)seg.p_offset, (uint64_t)seg.p_filesz, len);
		goto out;
	}
	snprintf(what, sizeof(what), "PT_LOAD segment %zu at 0x%x (0x%" PRIx64
		 " file bytes + 0x%" PRIx64 " zero-fill)", hit, IPUXCOM_BOOTLOADER_ADDR,
		 (uint64_t)seg.p_filesz, (uint64_t)(seg.p_memsz - seg.p_filesz));
	err = ixc_boot_size_check(seg.p_memsz, what, em);
	if (err)
		goto out;
	out->image = calloc(1, (size_t)seg.p_memsz);
	if (!out->image) {
		err = ixc_err(em, -ENOMEM, "no memory for a %zu-byte bootloader",
			      (size_t)seg.p_memsz);
		goto out;
	}
	memcpy(out->image, data + seg.p_offset, (size_t)seg.p_filesz);
	out->image_size = (size_t)seg.p_memsz;
	out->from_elf = true;
	out->segment = (uint32_t)hit;
	out->file_bytes = (size_t)seg.p_filesz;
out:
	elf_end(e);
	return err;
}

int ipuxcom_bootloader_parse(const void *data, size_t len, struct ipuxcom_bootloader *out,
			     struct ipuxcom_errmsg *em)
{
	struct ipuxcom_bootloader bl;
	int err;

	memset(&bl, 0, sizeof(bl));	/* its padding too: the caller gets these bytes */
	bl.size = sizeof(bl);
	ixc_err_clear(em);
	if (!out)
		return ixc_err(em, -EINVAL, "no output");
	err = ixc_size_out_check(out, IPUXCOM_BOOTLOADER_SIZE_MIN, IPUXCOM_ERR_FILE, "out.size",
				 "IPUXCOM_BOOTLOADER_INIT", em ? em->msg : NULL,
				 em ? sizeof(em->msg) : 0);
	if (err)
		return err;
	ixc_struct_out(out, out->size, &bl, sizeof(bl));
	if (!data && len)
		return ixc_err(em, -EINVAL, "no data");
	if (len >= SELFMAG && !memcmp(data, ELFMAG, SELFMAG)) {
		err = ixc_boot_elf(data, len, &bl, em);
	} else {
		err = ixc_boot_size_check(len, "raw bootloader (no ELF magic)", em);
		if (!err) {
			bl.image = malloc(len);
			if (!bl.image)
				err = ixc_err(em, -ENOMEM, "no memory for a %zu-byte bootloader",
					      len);
		}
		if (!err) {
			memcpy(bl.image, data, len);
			bl.image_size = len;
			bl.file_bytes = len;
		}
	}
	if (!err)
		ixc_struct_out(out, out->size, &bl, sizeof(bl));
	return err;
}

int ipuxcom_bootloader_load(const char *path, struct ipuxcom_bootloader *out,
			    struct ipuxcom_errmsg *em)
{
	uint8_t *data;
	size_t len;
	int err;

	ixc_err_clear(em);
	if (!out)
		return ixc_err(em, -EINVAL, "no output");
	err = ixc_size_out_check(out, IPUXCOM_BOOTLOADER_SIZE_MIN, IPUXCOM_ERR_FILE, "out.size",
				 "IPUXCOM_BOOTLOADER_INIT", em ? em->msg : NULL,
				 em ? sizeof(em->msg) : 0);
	if (err)
		return err;
	err = ixc_read_file(path, IXC_BOOT_MAX_FILE, "tile bootloader file", &data, &len, em);
	if (err)
		return err;
	err = ipuxcom_bootloader_parse(data, len, out, em);
	free(data);
	if (err)
		return ixc_err_prefix(em, err, "%s", path);
	return 0;
}

void ipuxcom_bootloader_free(struct ipuxcom_bootloader *bl)
{
	struct ipuxcom_bootloader zero;

	memset(&zero, 0, sizeof(zero));
	zero.size = sizeof(zero);
	if (!bl || ixc_struct_out_check(bl->size, IPUXCOM_BOOTLOADER_SIZE_MIN))
		return;
	free(bl->image);
	ixc_struct_out(bl, bl->size, &zero, sizeof(zero));
}

/* The deprecated name (issue 23: one destructor verb, one prefix). */
void ipuxcom_bootloader_release(struct ipuxcom_bootloader *bl)
{
	ipuxcom_bootloader_free(bl);
}
