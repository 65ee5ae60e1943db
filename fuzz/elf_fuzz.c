// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the per-tile ELF reader (libelf underneath). An
 * accepted ELF gives an image inside tile SRAM, starting at the payload
 * base, whose entry is a word of it. The same input also goes to the
 * bootloader reader (ELF or raw): an accepted one is 1..4096 bytes.
 */
#include <stdlib.h>
#include <string.h>

#include <ipuxcom.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_bootloader(const uint8_t *data, size_t size)
{
	struct ipuxcom_bootloader bl = IPUXCOM_BOOTLOADER_INIT;
	struct ipuxcom_errmsg em;

	if (ipuxcom_bootloader_parse(data, size, &bl, &em)) {
		if (!em.msg[0] || bl.image)
			abort();
		return;
	}
	if (!bl.image || !bl.image_size || bl.image_size > IPUXCOM_AUTOLOAD_MAX_BYTES ||
	    bl.file_bytes > bl.image_size)
		abort();
	(void)ipuxcom_crc32(0, bl.image, bl.image_size);
	ipuxcom_bootloader_free(&bl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipuxcom_tile_elf e = IPUXCOM_TILE_ELF_INIT;
	struct ipuxcom_errmsg em;

	fuzz_bootloader(data, size);
	if (ipuxcom_tile_elf_parse(data, size, &e, &em)) {
		if (!em.msg[0] || e.image)
			abort();
		return 0;
	}
	if (!e.image || !e.image_size || e.image_size > IPUXCOM_IMG_SRAM_SIZE ||
	    e.data_end != IPUXCOM_IMG_PAYLOAD_BASE + e.image_size ||
	    e.data_start < IPUXCOM_IMG_PAYLOAD_BASE || e.data_start >= e.data_end ||
	    e.entry < IPUXCOM_IMG_PAYLOAD_BASE || e.entry + 4 > e.data_end || (e.entry & 3))
		abort();
	/* Touch every byte: ASan checks the allocation's size. */
	(void)ipuxcom_crc32(0, e.image, e.image_size);
	ipuxcom_tile_elf_free(&e);
	return 0;
}
