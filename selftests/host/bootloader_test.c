// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tile bootloader for the autoloader (ipuxcom_bootloader_parse/load):
 * a 32-bit little-endian bootloader ELF built here with the system
 * toolchain (gcc -m32 -c, ld -m elf_i386 -T), its PT_LOAD at 0x4c000
 * [RE, HW-BOOTLOADER-ELF] holding 948 file bytes [S: "the 948-byte IPU2
 * bootloader"] and zero-fill up to 1 KiB, plus an unrelated segment. The
 * extracted image must equal the segment's bytes as read by independent
 * readers (objcopy -O binary of the section, and the program header
 * parsed here with <elf.h>) followed by zeros up to p_memsz. Raw input
 * passes through unchanged. Every rejection names what is wrong: ELF64,
 * big-endian, no segment at 0x4c000 (listing those found), two of them,
 * truncation, p_filesz > p_memsz, empty and too large images. The
 * command: `ipuxcom load --help` documents both forms, and `ipuxcom load`
 * reads -b with this function before it opens the image or a device.
 */
#include "kselftest_harness.h"

#include <elf.h>
#include <stddef.h>

#include <ipuxcom.h>

#include "image_testlib.h"

#define TEXT_WORDS	237u		/* 948 bytes [S] */
#define TEXT_WORD	0x11223344u
#define ZERO_FILL	76u		/* 948 + 76 = 1024 */

/* .text + .bss in the PT_LOAD at BOOT_ADDR; .data alone at 0x60000. */
static const char boot_asm_fmt[] =
	"	.text\n"
	"	.globl _start\n"
	"_start:\n"
	"	.fill %u, 4, 0x11223344\n"
	"	.bss\n"
	"	.space %u\n"
	"	.data\n"
	"	.long 0xabcdef01\n"
	"	.section .note.GNU-stack,\"\",@progbits\n";

static const char boot_ld[] =
	"ENTRY(_start)\n"
	"PHDRS { boot PT_LOAD; other PT_LOAD; }\n"
	"SECTIONS {\n"
	"  . = BOOT_ADDR;\n"
	"  .text : { *(.text) } :boot\n"
	"  .bss : { *(.bss) } :boot\n"
	"  . = 0x60000;\n"
	"  .data : { *(.data) } :other\n"
	"}\n";

/*
 * Assemble and link @dir/@name: @words text words and @bss zero-fill
 * bytes at @addr; @m32 for ELF32 (else ELF64). 0, or -1 with @log.
 */
static int build_boot(const char *dir, const char *name, uint32_t addr, unsigned int words,
		      unsigned int bss, bool m32, char *log, size_t loglen)
{
	char src[PATH_MAX], obj[PATH_MAX], lds[PATH_MAX], out[PATH_MAX], sym[64], text[512];
	struct ixt_run *r = malloc(sizeof(*r));
	int rc = -1;

	snprintf(src, sizeof(src), "%s/boot.S", dir);
	snprintf(obj, sizeof(obj), "%s/boot.o", dir);
	snprintf(lds, sizeof(lds), "%s/boot.ld", dir);
	snprintf(out, sizeof(out), "%s/%s", dir, name);
	snprintf(sym, sizeof(sym), "--defsym=BOOT_ADDR=0x%x", addr);
	snprintf(text, sizeof(text), boot_asm_fmt, words, bss);
	if (!r || ixt_write_file(src, text, strlen(text)) ||
	    ixt_write_file(lds, boot_ld, strlen(boot_ld)))
		goto out;
	{
		char *cc[] = { "gcc", m32 ? "-m32" : "-m64", "-c", src, "-o", obj, NULL };

		if (ixt_run(cc, r) || r->status)
			goto fail;
	}
	{
		char *ld[] = { "ld", "-nostdlib", "-static", "-m", m32 ? "elf_i386" : "elf_x86_64",
			       sym, "-T", lds, "-o", out, obj, NULL };

		if (ixt_run(ld, r) || r->status)
			goto fail;
	}
	rc = 0;
	goto out;
fail:
	snprintf(log, loglen, "status %d: %.400s", r->status, r->err);
out:
	free(r);
	return rc;
}

static bool have_toolchain(void)
{
	struct ixt_run *r = malloc(sizeof(*r));
	char *cc[] = { "gcc", "--version", NULL }, *ld[] = { "ld", "--version", NULL };
	char *oc[] = { "objcopy", "--version", NULL };
	bool ok = r && !ixt_run(cc, r) && !r->status && !ixt_run(ld, r) && !r->status &&
		  !ixt_run(oc, r) && !r->status;

	free(r);
	return ok;
}

/* Program header @i of an ELF32 file, parsed here (independently of libelf). */
static Elf32_Phdr get_phdr(const uint8_t *elf, unsigned int i)
{
	Elf32_Ehdr eh;
	Elf32_Phdr ph;

	memcpy(&eh, elf, sizeof(eh));
	memcpy(&ph, elf + eh.e_phoff + (size_t)i * eh.e_phentsize, sizeof(ph));
	return ph;
}

static void put_phdr(uint8_t *elf, unsigned int i, const Elf32_Phdr *ph)
{
	Elf32_Ehdr eh;

	memcpy(&eh, elf, sizeof(eh));
	memcpy(elf + eh.e_phoff + (size_t)i * eh.e_phentsize, ph, sizeof(*ph));
}

FIXTURE(boot) {
	char dir[PATH_MAX];
	char path[PATH_MAX + 16];	/* boot.elf */
	uint8_t *elf;
	size_t len;
};

FIXTURE_SETUP(boot)
{
	char log[512];

	if (!have_toolchain())
		SKIP(return, "gcc, ld or objcopy missing");
	ASSERT_TRUE(ixt_tmpdir(self->dir, sizeof(self->dir)));
	ASSERT_EQ(0, build_boot(self->dir, "boot.elf", IPUXCOM_BOOTLOADER_ADDR, TEXT_WORDS,
				ZERO_FILL, true, log, sizeof(log))) TH_LOG("%s", log);
	snprintf(self->path, sizeof(self->path), "%s/boot.elf", self->dir);
	self->elf = ixt_read_file(self->path, &self->len);
	ASSERT_NE(NULL, self->elf);
}

FIXTURE_TEARDOWN(boot)
{
	if (self->dir[0])
		ixt_rmtree(self->dir);
	free(self->elf);
}

/* The segment's bytes, then its zero-fill: checked against two readers. */
TEST_F(boot, elf_segment_and_zero_fill)
{
	struct ipuxcom_bootloader bl = IPUXCOM_BOOTLOADER_INIT, bl2 = IPUXCOM_BOOTLOADER_INIT;
	struct ipuxcom_errmsg em;
	char bin[PATH_MAX + 16], sect[PATH_MAX + 16];
	struct ixt_run *r = malloc(sizeof(*r));
	Elf32_Phdr ph = get_phdr(self->elf, 0);
	uint8_t *text;
	size_t text_len;

	/* The toolchain made what the test means: segment 0 at 0x4c000, 948 + 76. */
	ASSERT_EQ(PT_LOAD, ph.p_type);
	ASSERT_EQ(IPUXCOM_BOOTLOADER_ADDR, ph.p_vaddr);
	ASSERT_EQ(TEXT_WORDS * 4, ph.p_filesz);
	ASSERT_EQ(TEXT_WORDS * 4 + ZERO_FILL, ph.p_memsz);

	ASSERT_EQ(0, ipuxcom_bootloader_parse(self->elf, self->len, &bl, &em)) TH_LOG("%s", em.msg);
	EXPECT_STREQ("", em.msg);
	EXPECT_TRUE(bl.from_elf);
	EXPECT_EQ(0u, bl.segment);
	EXPECT_EQ(1024u, bl.image_size);
	EXPECT_EQ(948u, bl.file_bytes);
	/* Reader 1: the program header parsed here. */
	EXPECT_EQ(0, memcmp(bl.image, self->elf + ph.p_offset, ph.p_filesz));
	/* Reader 2: objcopy's bytes of .text, and the words the source wrote. */
	snprintf(sect, sizeof(sect), "%s/boot.elf", self->dir);
	snprintf(bin, sizeof(bin), "%s/text.bin", self->dir);
	{
		char *argv[] = { "objcopy", "-O", "binary", "-j", ".text", sect, bin, NULL };

		ASSERT_EQ(0, ixt_run(argv, r));
		ASSERT_EQ(0, r->status) TH_LOG("%s", r->err);
	}
	text = ixt_read_file(bin, &text_len);
	ASSERT_NE(NULL, text);
	ASSERT_EQ(948u, text_len);
	EXPECT_EQ(0, memcmp(bl.image, text, text_len));
	for (unsigned int w = 0; w < TEXT_WORDS; w++) {
		ASSERT_EQ(TEXT_WORD, ixt_le32(bl.image + 4 * w)) TH_LOG("word %u", w);
	}
	/* The zero-fill tail is part of the staged image. */
	for (size_t k = 948; k < 1024; k++) {
		ASSERT_EQ(0, bl.image[k]) TH_LOG("byte %zu", k);
	}
	/* From the file: the same. */
	ASSERT_EQ(0, ipuxcom_bootloader_load(self->path, &bl2, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(bl.image_size, bl2.image_size);
	EXPECT_TRUE(bl2.from_elf);
	EXPECT_EQ(0, memcmp(bl.image, bl2.image, bl.image_size));
	ipuxcom_bootloader_free(&bl);
	ipuxcom_bootloader_free(&bl2);
	EXPECT_EQ(NULL, bl.image);
	EXPECT_EQ(0u, bl.image_size);
	ipuxcom_bootloader_free(NULL);
	free(text);
	free(r);
}

/* Largest and smallest ELF images: 4096 bytes is fine, one word too. */
TEST_F(boot, elf_size_limits)
{
	struct ipuxcom_bootloader bl = IPUXCOM_BOOTLOADER_INIT;
	struct ipuxcom_errmsg em;
	char log[512], p[PATH_MAX + 16];

	ASSERT_EQ(0, build_boot(self->dir, "max.elf", IPUXCOM_BOOTLOADER_ADDR, 1000, 96, true,
				log, sizeof(log))) TH_LOG("%s", log);
	snprintf(p, sizeof(p), "%s/max.elf", self->dir);
	ASSERT_EQ(0, ipuxcom_bootloader_load(p, &bl, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(4096u, bl.image_size);
	EXPECT_EQ(4000u, bl.file_bytes);
	ipuxcom_bootloader_free(&bl);
	ASSERT_EQ(0, build_boot(self->dir, "one.elf", IPUXCOM_BOOTLOADER_ADDR, 1, 0, true,
				log, sizeof(log))) TH_LOG("%s", log);
	snprintf(p, sizeof(p), "%s/one.elf", self->dir);
	ASSERT_EQ(0, ipuxcom_bootloader_load(p, &bl, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(4u, bl.image_size);
	EXPECT_EQ(TEXT_WORD, ixt_le32(bl.image));
	ipuxcom_bootloader_free(&bl);
	/* One byte too many: the size is named. */
	ASSERT_EQ(0, build_boot(self->dir, "big.elf", IPUXCOM_BOOTLOADER_ADDR, 1000, 97, true,
				log, sizeof(log))) TH_LOG("%s", log);
	snprintf(p, sizeof(p), "%s/big.elf", self->dir);
	EXPECT_EQ(-EFBIG, ipuxcom_bootloader_load(p, &bl, &em));
	EXPECT_MSG(em, "big.elf: PT_LOAD segment 0 at 0x4c000 (0xfa0 file bytes + 0x61 "
		   "zero-fill) is 4097 (0x1001) bytes: the autoloader takes 1..4096");
	EXPECT_EQ(NULL, bl.image);
	EXPECT_EQ(0u, bl.image_size);
}

/* Raw images pass through unchanged, 1..4096 bytes. */
TEST(raw_passthrough)
{
	struct ipuxcom_bootloader bl = IPUXCOM_BOOTLOADER_INIT;
	struct ipuxcom_errmsg em;
	uint8_t raw[4097];

	ixt_fill_random(raw, sizeof(raw), 948);
	raw[0] = 0x7f;	/* not the whole magic: still raw */
	raw[1] = 'E';
	raw[2] = 'L';
	raw[3] = 'G';
	static const size_t sizes[] = { 1, 2, 3, 4, 948, 1024, 4096 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];

		ASSERT_EQ(0, ipuxcom_bootloader_parse(raw, n, &bl, &em)) TH_LOG("%zu: %s", n, em.msg);
		EXPECT_FALSE(bl.from_elf);
		EXPECT_EQ(n, bl.image_size);
		EXPECT_EQ(n, bl.file_bytes);
		EXPECT_EQ(0, memcmp(raw, bl.image, n)) TH_LOG("%zu bytes", n);
		EXPECT_NE((const uint8_t *)raw, bl.image);	/* a copy */
		ipuxcom_bootloader_free(&bl);
	}
	EXPECT_EQ(-EFBIG, ipuxcom_bootloader_parse(raw, 4097, &bl, &em));
	EXPECT_MSG(em, "raw bootloader (no ELF magic) is 4097 (0x1001) bytes: the autoloader "
		   "takes 1..4096");
	EXPECT_EQ(NULL, bl.image);
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_parse(raw, 0, &bl, &em));
	EXPECT_MSG(em, "raw bootloader (no ELF magic) is empty: a bootloader is 1..4096 bytes");
	EXPECT_EQ(-EINVAL, ipuxcom_bootloader_parse(raw, 4, NULL, &em));
	EXPECT_MSG(em, "no output");
	EXPECT_EQ(-EINVAL, ipuxcom_bootloader_parse(NULL, 4, &bl, &em));
	EXPECT_EQ(-ENOENT, ipuxcom_bootloader_load("/nonexistent/boot.bin", &bl, &em));
	EXPECT_MSG(em, "/nonexistent/boot.bin: cannot open");
}

/* A raw file: the same from disk; an empty file is refused with its name. */
TEST_F(boot, raw_file)
{
	struct ipuxcom_bootloader bl = IPUXCOM_BOOTLOADER_INIT;
	struct ipuxcom_errmsg em;
	char p[PATH_MAX + 16];
	uint8_t raw[948];

	ixt_fill_random(raw, sizeof(raw), 7);
	snprintf(p, sizeof(p), "%s/boot.bin", self->dir);
	ASSERT_EQ(0, ixt_write_file(p, raw, sizeof(raw)));
	ASSERT_EQ(0, ipuxcom_bootloader_load(p, &bl, &em)) TH_LOG("%s", em.msg);
	EXPECT_FALSE(bl.from_elf);
	ASSERT_EQ(sizeof(raw), bl.image_size);
	EXPECT_EQ(0, memcmp(raw, bl.image, sizeof(raw)));
	ipuxcom_bootloader_free(&bl);
	ASSERT_EQ(0, ixt_write_file(p, raw, 0));
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_load(p, &bl, &em));
	EXPECT_MSG(em, "boot.bin: raw bootloader (no ELF magic) is empty");
}

TEST_F(boot, elf64_and_big_endian_refused)
{
	struct ipuxcom_bootloader bl = IPUXCOM_BOOTLOADER_INIT;
	struct ipuxcom_errmsg em;
	char log[512], p[PATH_MAX + 16];
	uint8_t *copy;

	ASSERT_EQ(0, build_boot(self->dir, "b64.elf", IPUXCOM_BOOTLOADER_ADDR, TEXT_WORDS,
				ZERO_FILL, false, log, sizeof(log))) TH_LOG("%s", log);
	snprintf(p, sizeof(p), "%s/b64.elf", self->dir);
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_load(p, &bl, &em));
	EXPECT_MSG(em, "b64.elf: ELF class 2 (ELFCLASS64): the tile bootloader is a 32-bit ELF "
		   "(ELFCLASS32)");
	EXPECT_EQ(NULL, bl.image);

	copy = malloc(self->len);
	memcpy(copy, self->elf, self->len);
	copy[EI_DATA] = ELFDATA2MSB;
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_parse(copy, self->len, &bl, &em));
	EXPECT_MSG(em, "ELF data encoding 2 is not little-endian (ELFDATA2LSB)");
	free(copy);
}

/* No PT_LOAD at 0x4c000: the message lists the segments there are. */
TEST_F(boot, no_segment_at_0x4c000)
{
	struct ipuxcom_bootloader bl = IPUXCOM_BOOTLOADER_INIT;
	struct ipuxcom_errmsg em;
	char log[512], p[PATH_MAX + 16];
	Elf32_Phdr ph;
	uint8_t *copy;

	ASSERT_EQ(0, build_boot(self->dir, "high.elf", 0x4d000, TEXT_WORDS, ZERO_FILL, true,
				log, sizeof(log))) TH_LOG("%s", log);
	snprintf(p, sizeof(p), "%s/high.elf", self->dir);
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_load(p, &bl, &em));
	EXPECT_MSG(em, "high.elf: no PT_LOAD segment at 0x4c000 (p_vaddr); PT_LOAD segments "
		   "found: 0 at 0x4d000 (0x400 bytes), 1 at 0x60000 (0x4 bytes)");
	EXPECT_EQ(NULL, bl.image);

	/* p_paddr alone at 0x4c000 does not count (p_vaddr is the address). */
	copy = malloc(self->len);
	memcpy(copy, self->elf, self->len);
	ph = get_phdr(copy, 0);
	ph.p_vaddr = 0x4e000;
	put_phdr(copy, 0, &ph);
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_parse(copy, self->len, &bl, &em));
	EXPECT_MSG(em, "PT_LOAD segments found: 0 at 0x4e000 (p_paddr differs) (0x400 bytes)");

	/* No PT_LOAD at all. */
	memcpy(copy, self->elf, self->len);
	for (unsigned int i = 0; i < 2; i++) {
		ph = get_phdr(copy, i);
		ph.p_type = PT_NOTE;
		put_phdr(copy, i, &ph);
	}
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_parse(copy, self->len, &bl, &em));
	EXPECT_MSG(em, "no PT_LOAD segment at 0x4c000 (p_vaddr); PT_LOAD segments found: none");
	free(copy);
}

TEST_F(boot, two_segments_at_0x4c000)
{
	struct ipuxcom_bootloader bl = IPUXCOM_BOOTLOADER_INIT;
	struct ipuxcom_errmsg em;
	uint8_t *copy = malloc(self->len);
	Elf32_Phdr ph;

	memcpy(copy, self->elf, self->len);
	ph = get_phdr(copy, 1);
	ph.p_vaddr = IPUXCOM_BOOTLOADER_ADDR;
	put_phdr(copy, 1, &ph);
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_parse(copy, self->len, &bl, &em));
	EXPECT_MSG(em, "PT_LOAD segments 0 and 1 are both at 0x4c000: expected exactly one "
		   "bootloader segment");
	EXPECT_EQ(NULL, bl.image);
	free(copy);
}

TEST_F(boot, truncated_and_inconsistent)
{
	struct ipuxcom_bootloader bl = IPUXCOM_BOOTLOADER_INIT;
	struct ipuxcom_errmsg em;
	Elf32_Phdr ph = get_phdr(self->elf, 0);
	uint8_t *copy = malloc(self->len);
	char want[160];

	/* The segment's file bytes cut short. */
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_parse(self->elf, ph.p_offset + 100, &bl, &em));
	snprintf(want, sizeof(want), "truncated ELF: segment 0's file bytes 0x%x+0x3b4 run past "
		 "the end of the 0x%x-byte file", ph.p_offset, ph.p_offset + 100);
	EXPECT_MSG(em, want);
	EXPECT_EQ(NULL, bl.image);
	/* Inside the program header table. */
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_parse(self->elf, 0x40, &bl, &em));
	EXPECT_MSG(em, "truncated ELF: 2 program headers of 32 bytes at 0x34 run past the end "
		   "of the 0x40-byte file");
	/* A program header size that is not ELF32's. */
	memcpy(copy, self->elf, self->len);
	copy[offsetof(Elf32_Ehdr, e_phentsize)] = 40;
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_parse(copy, self->len, &bl, &em));
	EXPECT_MSG(em, "program header size 40, not the ELF32 32 bytes");
	/* Inside the identification. */
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_parse(self->elf, 10, &bl, &em));
	EXPECT_MSG(em, "truncated ELF: 10 bytes, shorter than the 16-byte ELF identification");
	/* Every length short of the segment's end is refused, none crashes. */
	for (size_t n = 4; n < ph.p_offset + ph.p_filesz; n += n < 0x100 ? 1 : 61) {
		ASSERT_EQ(-EBADMSG, ipuxcom_bootloader_parse(self->elf, n, &bl, &em))
			TH_LOG("%zu", n);
		ASSERT_NE(NULL, strstr(em.msg, "truncated")) TH_LOG("%zu: %s", n, em.msg);
	}

	/* p_filesz > p_memsz. */
	memcpy(copy, self->elf, self->len);
	ph.p_memsz = 0x100;
	put_phdr(copy, 0, &ph);
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_parse(copy, self->len, &bl, &em));
	EXPECT_MSG(em, "segment 0 at 0x4c000: file size 0x3b4 exceeds its memory size 0x100");
	/* An empty segment. */
	ph.p_memsz = 0;
	ph.p_filesz = 0;
	put_phdr(copy, 0, &ph);
	EXPECT_EQ(-EBADMSG, ipuxcom_bootloader_parse(copy, self->len, &bl, &em));
	EXPECT_MSG(em, "PT_LOAD segment 0 at 0x4c000 (0x0 file bytes + 0x0 zero-fill) is empty: "
		   "a bootloader is 1..4096 bytes");
	free(copy);
}

/* Too large by zero-fill alone: the size (and its parts) are named. */
TEST_F(boot, too_large)
{
	struct ipuxcom_bootloader bl = IPUXCOM_BOOTLOADER_INIT;
	struct ipuxcom_errmsg em;
	char log[512], p[PATH_MAX + 16];

	ASSERT_EQ(0, build_boot(self->dir, "bss.elf", IPUXCOM_BOOTLOADER_ADDR, TEXT_WORDS, 5000,
				true, log, sizeof(log))) TH_LOG("%s", log);
	snprintf(p, sizeof(p), "%s/bss.elf", self->dir);
	EXPECT_EQ(-EFBIG, ipuxcom_bootloader_load(p, &bl, &em));
	EXPECT_MSG(em, "PT_LOAD segment 0 at 0x4c000 (0x3b4 file bytes + 0x1388 zero-fill) is "
		   "5948 (0x173c) bytes: the autoloader takes 1..4096");
}

/*
 * The command: its help documents both forms, and -b goes through the
 * library before anything else (no device needed to see that).
 */
TEST_F(boot, load_command)
{
	char tool[PATH_MAX], log[512], big[PATH_MAX + 16], img[PATH_MAX + 16];

	if (!ixt_find_tool(tool, sizeof(tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");
	TOOL_EXPECT(0, out, "the tile bootloader ELF as the SDK ships it", "load", "--help");
	TOOL_EXPECT(0, out, "PT_LOAD segment at 0x4c000", "load", "--help");
	TOOL_EXPECT(0, out, "or the raw image, installed unchanged", "load", "--help");
	TOOL_EXPECT(0, out, "the SDK's ELF or raw", "load", "--help");
	/* the session's opt-outs (issue 31): documented, and a config with --no-config is a usage error */
	TOOL_EXPECT(0, out, "--no-config", "load", "--help");
	TOOL_EXPECT(0, out, "On a card it is required", "load", "--help");
	TOOL_EXPECT(2, err, "-c FILE and --no-config contradict each other", "load", "x.ipuimg",
		    "-b", self->path, "-c", "x.ipucfg", "--no-config");

	ASSERT_EQ(0, build_boot(self->dir, "bss.elf", IPUXCOM_BOOTLOADER_ADDR, TEXT_WORDS, 5000,
				true, log, sizeof(log))) TH_LOG("%s", log);
	snprintf(big, sizeof(big), "%s/bss.elf", self->dir);
	snprintf(img, sizeof(img), "%s/missing.ipuimg", self->dir);
	/* A bad ELF: the library's message, before the image is opened. */
	TOOL_EXPECT(1, err, "bss.elf: PT_LOAD segment 0 at 0x4c000 (0x3b4 file bytes + 0x1388 "
		    "zero-fill) is 5948 (0x173c) bytes", "load", img, "-b", big);
	/* A good ELF is accepted: the next step (opening the image) fails. */
	{
		struct ixt_run *r = malloc(sizeof(*r));

		ASSERT_NE(NULL, r);
		ASSERT_EQ(0, IXT_TOOL(r, "load", img, "-b", self->path));
		EXPECT_EQ(1, r->status);
		EXPECT_NE(NULL, strstr(r->err, "missing.ipuimg")) TH_LOG("%s", r->err);
		EXPECT_EQ(NULL, strstr(r->err, "bootloader")) TH_LOG("%s", r->err);
		free(r);
	}
}

TEST_HARNESS_MAIN
