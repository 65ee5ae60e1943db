// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-tile ELF input: real ELF executables built here with the system
 * toolchain (gcc -c, ld -T) with segments at tile addresses, including
 * the zero-fill .secondaryLower reservation at 0x4c000, so the payload's
 * first byte is at 0x4c010 [S]. The library's raw image must equal what
 * objcopy -O binary makes of the same file (an independent reader); a
 * directory of 1472 t_N.elf packs and extracts exactly (library and
 * command); every bad layout is refused with its reason; and every
 * single-byte corruption of the headers is handled.
 */
#include "kselftest_harness.h"

#include <ipuxcom.h>

#include "image_testlib.h"
#include "../lib/ixt_sized.h"

#define MARK	0x7117e000u	/* a per-tile word in .text */

static const char tile_asm[] =
	"	.section .secondaryLower,\"aw\",@nobits\n"
	"	.space 16\n"
	"	.text\n"
	"	.globl _start\n"
	"_start:\n"
	"	.long 0x12345678, 0x41800003, 0, 0\n"
	"	.long 0x7117e000\n"
	"	.fill 200, 4, 0xa5a5a5a5\n"
	"	.section .rodata\n"
	"	.long 0xdeadbeef, 0xcafef00d\n"
	"	.data\n"
	"	.long 0x11111111, 0x22222222\n"
	"	.bss\n"
	"	.space 64\n"
	"	.section .note.GNU-stack,\"\",@progbits\n";

/* .secondaryLower zero-fill, text+rodata at 0x4c010, data+bss at 0x50000. */
static const char tile_ld[] =
	"ENTRY(_start)\n"
	"PHDRS { lower PT_LOAD; text PT_LOAD; data PT_LOAD; }\n"
	"SECTIONS {\n"
	"  . = 0x4c000;\n"
	"  .secondaryLower (NOLOAD) : { *(.secondaryLower) } :lower\n"
	"  . = TEXT_ADDR;\n"
	"  .text : { *(.text) } :text\n"
	"  .rodata : { *(.rodata) } :text\n"
	"  . = DATA_ADDR;\n"
	"  .data : { *(.data) } :data\n"
	"  .bss : { *(.bss) } :data\n"
	"}\n";

/*
 * Assemble and link into @dir/@name with .text at @text and .data at
 * @data (the linker script's TEXT_ADDR / DATA_ADDR); @m32 for ELF32.
 * Returns 0, or -1 with the tool's stderr in @log.
 */
static int build_elf(const char *dir, const char *name, uint32_t text, uint32_t data,
		     bool m32, char *log, size_t loglen)
{
	char src[PATH_MAX], obj[PATH_MAX], lds[PATH_MAX], out[PATH_MAX], sym1[64], sym2[64];
	struct ixt_run *r = malloc(sizeof(*r));
	int rc = -1;

	snprintf(src, sizeof(src), "%s/tile.S", dir);
	snprintf(obj, sizeof(obj), "%s/tile.o", dir);
	snprintf(lds, sizeof(lds), "%s/tile.ld", dir);
	snprintf(out, sizeof(out), "%s/%s", dir, name);
	snprintf(sym1, sizeof(sym1), "--defsym=TEXT_ADDR=0x%x", text);
	snprintf(sym2, sizeof(sym2), "--defsym=DATA_ADDR=0x%x", data);
	if (ixt_write_file(src, tile_asm, strlen(tile_asm)) ||
	    ixt_write_file(lds, tile_ld, strlen(tile_ld)))
		goto out;
	{
		char *cc[] = { "gcc", m32 ? "-m32" : "-m64", "-c", src, "-o", obj, NULL };

		if (ixt_run(cc, r) || r->status)
			goto fail;
	}
	{
		char *ld[] = { "ld", "-nostdlib", "-static", "-m", m32 ? "elf_i386" : "elf_x86_64",
			       sym1, sym2, "-T", lds, "-o", out, obj, NULL };

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

/* objcopy -O binary: the toolchain's own flat image of the loaded bytes. */
static uint8_t *objcopy_binary(const char *dir, const char *elf, size_t *len)
{
	char in[PATH_MAX], out[PATH_MAX];
	struct ixt_run *r = malloc(sizeof(*r));
	uint8_t *data = NULL;

	snprintf(in, sizeof(in), "%s/%s", dir, elf);
	snprintf(out, sizeof(out), "%s/%s.bin", dir, elf);
	{
		char *argv[] = { "objcopy", "-O", "binary", in, out, NULL };

		if (!ixt_run(argv, r) && r->status == 0)
			data = ixt_read_file(out, len);
	}
	unlink(out);
	free(r);
	return data;
}

static bool have_toolchain(void)
{
	struct ixt_run *r = malloc(sizeof(*r));
	char *cc[] = { "gcc", "--version", NULL }, *ld[] = { "ld", "--version", NULL };
	char *oc[] = { "objcopy", "--version", NULL };
	bool ok = !ixt_run(cc, r) && !r->status && !ixt_run(ld, r) && !r->status &&
		  !ixt_run(oc, r) && !r->status;

	free(r);
	return ok;
}

FIXTURE(elf) {
	char dir[PATH_MAX];
	uint8_t *elf;		/* t.elf, the standard layout */
	size_t elf_len;
	uint8_t *bin;		/* objcopy -O binary of it */
	size_t bin_len;
	size_t mark_off;	/* file offset of MARK in t.elf */
};

FIXTURE_SETUP(elf)
{
	char log[512], path[PATH_MAX + 16];

	if (!have_toolchain())
		SKIP(return, "gcc, ld or objcopy missing");
	ASSERT_TRUE(ixt_tmpdir(self->dir, sizeof(self->dir)));
	ASSERT_EQ(0, build_elf(self->dir, "t.elf", 0x4c010, 0x50000, false, log, sizeof(log)))
		TH_LOG("%s", log);
	snprintf(path, sizeof(path), "%s/t.elf", self->dir);
	self->elf = ixt_read_file(path, &self->elf_len);
	ASSERT_NE(NULL, self->elf);
	self->bin = objcopy_binary(self->dir, "t.elf", &self->bin_len);
	ASSERT_NE(NULL, self->bin);
	self->mark_off = SIZE_MAX;
	for (size_t i = 0; i + 4 <= self->elf_len; i += 4) {
		if (ixt_le32(self->elf + i) == MARK) {
			ASSERT_EQ(SIZE_MAX, self->mark_off) TH_LOG("MARK twice in the ELF");
			self->mark_off = i;
		}
	}
	ASSERT_NE(SIZE_MAX, self->mark_off);
}

FIXTURE_TEARDOWN(elf)
{
	ixt_rmtree(self->dir);
	free(self->elf);
	free(self->bin);
}

TEST_F(elf, toolchain_elf_matches_objcopy)
{
	struct ipuxcom_tile_elf e = IPUXCOM_TILE_ELF_INIT;
	struct ipuxcom_errmsg em;

	ASSERT_EQ(0, ipuxcom_tile_elf_parse(self->elf, self->elf_len, &e, &em))
		TH_LOG("%s", em.msg);
	EXPECT_EQ(0x4c010u, e.entry);
	EXPECT_EQ(0x4c010u, e.data_start);		/* first payload byte */
	EXPECT_EQ(0x50008u, e.data_end);		/* .data's 8 bytes; .bss not sent */
	EXPECT_EQ(16u, e.reserved_below);		/* .secondaryLower */
	EXPECT_EQ(3u, e.load_segments);
	EXPECT_EQ(0x50008u - 0x4c010u, e.image_size);
	ASSERT_EQ(self->bin_len, e.image_size);
	EXPECT_EQ(0, memcmp(e.image, self->bin, self->bin_len));
	/* The first word is the first .text word: at 0x4c010, not 0x4c000. */
	EXPECT_EQ(0x12345678u, ixt_le32(e.image));
	ipuxcom_tile_elf_free(&e);
	EXPECT_EQ(NULL, e.image);
	ipuxcom_tile_elf_free(NULL);
}

/* The parse result carries its size (ixt_sized.h); free keeps it. */
struct elf_input {
	const uint8_t *data;
	size_t len;
};

static int fill_tile_elf(void *out, void *ctx)
{
	const struct elf_input *in = ctx;

	return ipuxcom_tile_elf_parse(in->data, in->len, out, NULL);
}

static void settle_tile_elf(void *out)
{
	struct ipuxcom_tile_elf *e = out;

	free(e->image);
	e->image = NULL;	/* a new allocation each call */
}

TEST_F(elf, sized_output)
{
	struct elf_input in = { self->elf, self->elf_len };
	struct ipuxcom_tile_elf e = IPUXCOM_TILE_ELF_INIT;

	ixt_out_sizes(_metadata, fill_tile_elf, &in, settle_tile_elf,
		      sizeof(struct ipuxcom_tile_elf), IPUXCOM_TILE_ELF_SIZE_MIN, "out.size");
	ASSERT_EQ(0, fill_tile_elf(&e, &in));
	ipuxcom_tile_elf_free(&e);
	EXPECT_EQ(sizeof(e), e.size);
	EXPECT_EQ(NULL, e.image);
	EXPECT_EQ(0, e.entry);
	/* never filled (size 0): not freed */
	memset(&e, 0, sizeof(e));
	e.image = (uint8_t *)&e;
	ipuxcom_tile_elf_free(&e);
	EXPECT_EQ((uint8_t *)&e, e.image);
}

/* ELF32 (gcc -m32, ld -m elf_i386): the same image. */
static __attribute__((noinline)) void check_elf32(struct __test_metadata *_metadata,
						  const char *dir, const uint8_t *bin,
						  size_t bin_len)
{
	struct ipuxcom_tile_elf e = IPUXCOM_TILE_ELF_INIT;
	struct ipuxcom_errmsg em;
	char log[512], path[PATH_MAX + 16];
	uint8_t *d;
	size_t len;

	if (build_elf(dir, "t32.elf", 0x4c010, 0x50000, true, log, sizeof(log))) {
		TH_LOG("no 32-bit toolchain, ELF32 not tested: %s", log);
		return;
	}
	snprintf(path, sizeof(path), "%s/t32.elf", dir);
	d = ixt_read_file(path, &len);
	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, ipuxcom_tile_elf_parse(d, len, &e, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(bin_len, e.image_size);
	EXPECT_EQ(0, memcmp(e.image, bin, bin_len));
	ipuxcom_tile_elf_free(&e);
	free(d);
}

/* Text further up: the image still starts at 0x4c010, zero-filled. */
static __attribute__((noinline)) void check_text_up(struct __test_metadata *_metadata,
						    const char *dir)
{
	struct ipuxcom_tile_elf e = IPUXCOM_TILE_ELF_INIT;
	struct ipuxcom_errmsg em;
	char log[512], path[PATH_MAX + 16];
	uint8_t *d, *bin;
	size_t len, blen;

	ASSERT_EQ(0, build_elf(dir, "up.elf", 0x4c100, 0x60000, false, log, sizeof(log)))
		TH_LOG("%s", log);
	snprintf(path, sizeof(path), "%s/up.elf", dir);
	d = ixt_read_file(path, &len);
	bin = objcopy_binary(dir, "up.elf", &blen);
	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, bin);
	ASSERT_EQ(0, ipuxcom_tile_elf_parse(d, len, &e, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(0x4c100u, e.data_start);
	EXPECT_EQ(0x4c100u, e.entry);
	EXPECT_EQ(16u, e.reserved_below);	/* .secondaryLower is still there */
	ASSERT_EQ(0xf0 + blen, e.image_size);
	for (size_t i = 0; i < 0xf0; i++) {
		ASSERT_EQ(0, e.image[i]);
	}
	EXPECT_EQ(0, memcmp(e.image + 0xf0, bin, blen));
	ipuxcom_tile_elf_free(&e);
	free(d);
	free(bin);
}

TEST_F(elf, elf32_and_other_layouts)
{
	check_elf32(_metadata, self->dir, self->bin, self->bin_len);
	check_text_up(_metadata, self->dir);
}

TEST_F(elf, bad_layouts_from_the_toolchain)
{
	struct ipuxcom_tile_elf e = IPUXCOM_TILE_ELF_INIT;
	struct ipuxcom_errmsg em;
	char log[512], path[PATH_MAX + 16];
	uint8_t *d;
	size_t len;

	/* Code at 0x4c000, where only the .secondaryLower zero-fill may be. */
	ASSERT_EQ(0, build_elf(self->dir, "low.elf", 0x4c000, 0x50000, false, log, sizeof(log)))
		TH_LOG("%s", log);
	snprintf(path, sizeof(path), "%s/low.elf", self->dir);
	d = ixt_read_file(path, &len);
	ASSERT_NE(NULL, d);
	/* (.secondaryLower then overlaps .text: either is refused by name) */
	EXPECT_EQ(-EBADMSG, ipuxcom_tile_elf_parse(d, len, &e, &em));
	EXPECT_TRUE(strstr(em.msg, "below the payload base 0x4c010") ||
		    strstr(em.msg, "overlap")) TH_LOG("%s", em.msg);
	free(d);
	/* Data past the end of tile SRAM. */
	ASSERT_EQ(0, build_elf(self->dir, "high.elf", 0x4c010, 0xf0000, false, log, sizeof(log)))
		TH_LOG("%s", log);
	snprintf(path, sizeof(path), "%s/high.elf", self->dir);
	d = ixt_read_file(path, &len);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(-EBADMSG, ipuxcom_tile_elf_parse(d, len, &e, &em));
	EXPECT_MSG(em, "segment 2: [0xf0000, +0x48) outside tile SRAM [0x4c000, 0xe8000)");
	free(d);
	/* The object file, not linked. */
	snprintf(path, sizeof(path), "%s/tile.o", self->dir);
	d = ixt_read_file(path, &len);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(-EBADMSG, ipuxcom_tile_elf_parse(d, len, &e, &em));
	EXPECT_MSG(em, "ELF type 1 is not an executable (ET_EXEC)");
	free(d);
}

/* ELF64 header and program header fields, for hand-made defects. */
#define E_ENTRY		24
#define E_PHOFF		32
#define E_PHNUM		56
#define P_OFFSET	8
#define P_VADDR		16
#define P_FILESZ	32
#define P_MEMSZ		40

static uint8_t *phdr(uint8_t *elf, int i)
{
	return elf + ixt_le32(elf + E_PHOFF) + 56 * i;
}

static void put64(uint8_t *p, uint64_t v)
{
	ixt_put_le32(p, (uint32_t)v);
	ixt_put_le32(p + 4, (uint32_t)(v >> 32));
}

#define EXPECT_ELF_REJECT(_d, _len, _msg) do {					\
	struct ipuxcom_tile_elf _e = IPUXCOM_TILE_ELF_INIT;						\
	struct ipuxcom_errmsg _em;						\
										\
	EXPECT_EQ(-EBADMSG, ipuxcom_tile_elf_parse((_d), (_len), &_e, &_em));	\
	EXPECT_MSG(_em, (_msg));						\
	EXPECT_EQ(NULL, _e.image);						\
} while (0)

TEST_F(elf, hand_made_defects)
{
	size_t n = self->elf_len;
	uint8_t *d = malloc(n);

	memcpy(d, "\x7f" "EXF", 4);
	EXPECT_ELF_REJECT(d, n, "not an ELF file: no \\x7fELF magic");
	EXPECT_ELF_REJECT(d, 3, "not an ELF file: 3 bytes");
	memcpy(d, self->elf, n);
	d[5] = 2;		/* EI_DATA: big-endian */
	EXPECT_ELF_REJECT(d, n, "not little-endian");
	memcpy(d, self->elf, n);
	EXPECT_ELF_REJECT(d, 100, "");		/* program headers cut off */
	memcpy(d, self->elf, n);
	put64(phdr(d, 2) + P_VADDR, 0x4c100);
	EXPECT_ELF_REJECT(d, n, "segments 1 [0x4c010, 0x4c34c) and 2 [0x4c100, 0x4c148) overlap");
	memcpy(d, self->elf, n);
	put64(phdr(d, 1) + P_FILESZ, 0x400);
	EXPECT_ELF_REJECT(d, n, "segment 1: file size 0x400 exceeds its memory size 0x33c");
	memcpy(d, self->elf, n);
	put64(phdr(d, 1) + P_OFFSET, 0x100000);
	EXPECT_ELF_REJECT(d, n, "segment 1: file bytes 0x100000+0x33c beyond the end of the");
	memcpy(d, self->elf, n);
	put64(phdr(d, 1) + P_OFFSET, UINT64_MAX - 8);
	EXPECT_ELF_REJECT(d, n, "beyond the end of the");
	memcpy(d, self->elf, n);
	put64(phdr(d, 2) + P_MEMSZ, UINT64_MAX);
	EXPECT_ELF_REJECT(d, n, "outside tile SRAM");
	memcpy(d, self->elf, n);
	put64(d + E_ENTRY, 0x4c012);
	EXPECT_ELF_REJECT(d, n, "entry point 0x4c012 is not a 4-aligned word of the image "
			  "[0x4c010, 0x50008)");
	memcpy(d, self->elf, n);
	put64(d + E_ENTRY, 0x50008);
	EXPECT_ELF_REJECT(d, n, "entry point 0x50008 is not a 4-aligned word");
	memcpy(d, self->elf, n);
	put64(phdr(d, 1) + P_FILESZ, 0);
	put64(phdr(d, 2) + P_FILESZ, 0);
	EXPECT_ELF_REJECT(d, n, "no PT_LOAD segment with file bytes (3 PT_LOAD segments)");
	memcpy(d, self->elf, n);
	d[E_PHNUM] = 0;
	d[E_PHNUM + 1] = 0;
	EXPECT_ELF_REJECT(d, n, "0 program headers (expected 1..256)");
	free(d);
}

/*
 * Every byte of the ELF header and program headers, three ways: a
 * message or a valid image, never a crash (ASan checks libelf's callers).
 */
TEST_F(elf, every_header_byte_corruption)
{
	static const uint8_t xors[] = { 0x01, 0x80, 0xff };
	size_t hdrs = 64 + 3 * 56, n = self->elf_len;
	uint8_t *d = malloc(n);
	unsigned int ok = 0, bad = 0;

	for (size_t i = 0; i < hdrs; i++) {
		for (size_t k = 0; k < sizeof(xors); k++) {
			struct ipuxcom_tile_elf e = IPUXCOM_TILE_ELF_INIT;
			struct ipuxcom_errmsg em;
			int err;

			memcpy(d, self->elf, n);
			d[i] ^= xors[k];
			err = ipuxcom_tile_elf_parse(d, n, &e, &em);
			if (err) {
				ASSERT_NE(0, em.msg[0]) TH_LOG("byte %zu", i);
				bad++;
			} else {
				ASSERT_LE(e.image_size, IPUXCOM_IMG_SRAM_SIZE);
				ok++;
			}
			ipuxcom_tile_elf_free(&e);
		}
	}
	TH_LOG("%u corruptions refused, %u still valid", bad, ok);
	free(d);
}

/* 1472 distinct t_N.elf: the toolchain's ELF with a per-tile word. */
static void write_elf_dir(struct __test_metadata *_metadata, const char *dir,
			  const uint8_t *elf, size_t len, size_t mark_off)
{
	uint8_t *d = malloc(len);
	char path[PATH_MAX];

	ASSERT_EQ(0, mkdir(dir, 0755));
	memcpy(d, elf, len);
	for (uint32_t t = 0; t < IPUXCOM_IMG_TILES; t++) {
		ixt_put_le32(d + mark_off, MARK + t);
		snprintf(path, sizeof(path), "%s/t_%u.elf", dir, t);
		ASSERT_EQ(0, ixt_write_file(path, d, len));
	}
	free(d);
}

TEST_F(elf, pack_1472_elf_files)
{
	char dir[PATH_MAX + 16], path[PATH_MAX + 64];
	struct ipuxcom_image_dir_opts o = IPUXCOM_IMAGE_DIR_OPTS_INIT;
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	uint8_t *buf = malloc(self->bin_len), *want = malloc(self->bin_len);
	size_t text_off = 4 * 4;	/* MARK's place in the image: after 4 words */
	void *data;
	size_t len;

	snprintf(dir, sizeof(dir), "%s/elfs", self->dir);
	write_elf_dir(_metadata, dir, self->elf, self->elf_len, self->mark_off);
	ipuxcom_image_dir_opts_init(&o);
	ASSERT_EQ(0, ipuxcom_image_pack_elf_dir(dir, &o, &data, &len, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_image_from_buffer(data, len, &img, &em));
	ipuxcom_image_get_info(img, &info);
	EXPECT_EQ(IPUXCOM_IMG_PAYLOAD_BASE, info.load_base);
	EXPECT_EQ(0x4c010u, info.entry);
	EXPECT_EQ(self->bin_len, info.image_size);
	memcpy(want, self->bin, self->bin_len);
	for (uint32_t t = 0; t < IPUXCOM_IMG_TILES; t++) {
		ixt_put_le32(want + text_off, MARK + t);
		ASSERT_EQ(0, ipuxcom_image_extract(img, t, buf, self->bin_len, &em));
		ASSERT_EQ(0, memcmp(buf, want, self->bin_len)) TH_LOG("tile %u", t);
	}
	ipuxcom_image_free(img);
	free(data);

	/* Errors: an entry point that differs, a stray file, a missing one. */
	snprintf(path, sizeof(path), "%s/t_700.elf", dir);
	{
		uint8_t *d = ixt_read_file(path, &len);

		put64(d + E_ENTRY, 0x4c014);
		ASSERT_EQ(0, ixt_write_file(path, d, len));
		EXPECT_EQ(-EINVAL, ipuxcom_image_pack_elf_dir(dir, &o, &data, &len, &em));
		EXPECT_MSG(em, "t_700.elf: entry point 0x4c014 differs from t_0.elf's 0x4c010 (an "
			   "IPUIMG1 has one entry point)");
		free(d);
	}
	snprintf(path, sizeof(path), "%s/t_700.elf.orig", dir);
	ASSERT_EQ(0, ixt_write_file(path, "x", 1));
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_elf_dir(dir, &o, &data, &len, &em));
	EXPECT_MSG(em, "stray entry 't_700.elf.orig' (the directory must hold only t_N.elf for "
		   "each physical tile N = 0..1471)");
	unlink(path);
	snprintf(path, sizeof(path), "%s/t_700.elf", dir);
	unlink(path);
	EXPECT_EQ(-ENOENT, ipuxcom_image_pack_elf_dir(dir, &o, &data, &len, &em));
	EXPECT_MSG(em, "missing t_700.elf (1 of 1472 tile files missing)");
	/* A broken ELF is named. */
	ASSERT_EQ(0, ixt_write_file(path, "\x7f" "ELF", 4));
	EXPECT_EQ(-EBADMSG, ipuxcom_image_pack_elf_dir(dir, &o, &data, &len, &em));
	EXPECT_MSG(em, "t_700.elf: not an ELF file: 4 bytes");
	free(buf);
	free(want);
}

/* One ELF over a packed base: the rest kept; a different entry or a larger image refused. */
TEST_F(elf, pack_one_elf_over_a_base)
{
	char dir[PATH_MAX + 16], few[PATH_MAX + 16], path[PATH_MAX + 64], log[512];
	struct ipuxcom_image_dir_opts o = IPUXCOM_IMAGE_DIR_OPTS_INIT;
	struct ipuxcom_image *base, *img;
	struct ipuxcom_errmsg em;
	uint8_t *buf = malloc(self->bin_len), *d;
	void *bdata, *data;
	size_t blen, len;

	ASSERT_NE(NULL, buf);
	snprintf(dir, sizeof(dir), "%s/elfs", self->dir);
	snprintf(few, sizeof(few), "%s/few", self->dir);
	write_elf_dir(_metadata, dir, self->elf, self->elf_len, self->mark_off);
	ipuxcom_image_dir_opts_init(&o);
	ASSERT_EQ(0, ipuxcom_image_pack_elf_dir(dir, &o, &bdata, &blen, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_image_from_buffer(bdata, blen, &base, &em));
	ASSERT_EQ(0, mkdir(few, 0755));
	d = malloc(self->elf_len);
	ASSERT_NE(NULL, d);
	memcpy(d, self->elf, self->elf_len);
	ixt_put_le32(d + self->mark_off, MARK + 9999);
	snprintf(path, sizeof(path), "%s/t_5.elf", few);
	ASSERT_EQ(0, ixt_write_file(path, d, self->elf_len));
	ASSERT_EQ(0, ipuxcom_image_pack_elf_dir_over(few, base, IPUXCOM_IMG_TEMPLATE_AUTO, &data,
						     &len, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_image_from_buffer(data, len, &img, &em));
	for (uint32_t t = 0; t < IPUXCOM_IMG_TILES; t++) {
		ASSERT_EQ(0, ipuxcom_image_extract(img, t, buf, self->bin_len, &em));
		EXPECT_EQ(t == 5 ? MARK + 9999 : MARK + t, ixt_le32(buf + 16)) TH_LOG("tile %u", t);
	}
	ipuxcom_image_free(img);
	free(data);
	/* another entry point */
	put64(d + E_ENTRY, 0x4c014);
	ASSERT_EQ(0, ixt_write_file(path, d, self->elf_len));
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_elf_dir_over(few, base, IPUXCOM_IMG_TEMPLATE_AUTO,
							   &data, &len, &em));
	EXPECT_MSG(em, "t_5.elf: tile 5: entry point 0x4c014, but the base image's is 0x4c010");
	/* an image past the base's image size */
	ASSERT_EQ(0, build_elf(self->dir, "big.elf", 0x4c010, 0x54000, false, log, sizeof(log)))
		TH_LOG("%s", log);
	snprintf(path, sizeof(path), "%s/big.elf", self->dir);
	free(d);
	d = ixt_read_file(path, &len);
	ASSERT_NE(NULL, d);
	snprintf(path, sizeof(path), "%s/t_5.elf", few);
	ASSERT_EQ(0, ixt_write_file(path, d, len));
	EXPECT_EQ(-EINVAL, ipuxcom_image_pack_elf_dir_over(few, base, IPUXCOM_IMG_TEMPLATE_AUTO,
							   &data, &len, &em));
	EXPECT_MSG(em, "t_5.elf: tile 5: image of 0x7ff8 bytes, but the base image's tiles have "
		   "0x3ff8 (a tile packed over a base must fit its image size)");
	free(d);
	ipuxcom_image_free(base);
	free(bdata);
	free(buf);
}

/* The command contract: ipuxcom image pack --elf DIR -o OUT, then extract. */
TEST_F(elf, command_pack_elf)
{
	char tool[PATH_MAX], dir[PATH_MAX + 16], img[PATH_MAX + 16], out[PATH_MAX + 16];
	uint8_t *got;
	size_t len;

	if (!ixt_find_tool(tool, sizeof(tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");
	snprintf(dir, sizeof(dir), "%s/elfs", self->dir);
	snprintf(img, sizeof(img), "%s/x.ipuimg", self->dir);
	snprintf(out, sizeof(out), "%s/t1000.bin", self->dir);
	write_elf_dir(_metadata, dir, self->elf, self->elf_len, self->mark_off);
	TOOL_EXPECT(0, out, "1472 tiles of 16376 bytes", "image", "pack", "--elf", dir, "-o", img);
	TOOL_EXPECT(0, out, ": ok:", "image", "verify", img);
	TOOL_EXPECT(0, out, "", "image", "extract", img, "1000", "-o", out);
	got = ixt_read_file(out, &len);
	ASSERT_NE(NULL, got);
	ASSERT_EQ(self->bin_len, len);
	EXPECT_EQ(MARK + 1000, ixt_le32(got + 16));
	ixt_put_le32(got + 16, MARK);
	EXPECT_EQ(0, memcmp(got, self->bin, len));
	free(got);
	TOOL_EXPECT(2, err, "--base and --entry are for --raw", "image", "pack", "--elf", dir,
		    "--base", "0x4c000", "-o", img);
}

TEST_HARNESS_MAIN
