// SPDX-License-Identifier: GPL-2.0-only
/*
 * The module's register sequences against the hardware record, observed
 * where a card would see them: the config-BAR writes of `ipuxcom load`,
 * captured from the ipuxcom_bar_write tracepoint by `ipuxcom cfg capture`.
 *
 *  - the seed's autoloader words for its 948-byte bootloader padded to
 *    1 KiB [S "Direct Attach And Autoloader"], exactly and in order, with
 *    AUTOLDCSR read back after every 32 data words [RE];
 *  - HEXOPT selected before the transport buffer and batch 0's mark, the
 *    16 controls armed, 24 mark-1 transactions and the start mark 23, the
 *    operational controls restored [S, HW-LOAD];
 *  - the config's GS1/GS2 records: cleared, kept for GS2, or replayed, a
 *    pending GS1 mark refused before batch 0, not posted over;
 *  - every batch finds the buffer zero beyond its frames, also on a second
 *    load after the 0xff release fill;
 *  - the frame-count floor of 17.
 */
#include "kselftest_harness.h"

#include <sys/mman.h>
#include <sys/wait.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "image_testlib.h"
#include "load_testlib.h"
#include "frames_testlib.h"
#include "c600_record.h"
#include "ixt_seed_words.h"

#define TIMEOUT_NS	(2ULL * 1000 * 1000 * 1000)
/* The seed's bootloader size. */
#define BOOT948		IXT_SEED_BOOT_BYTES
#define boot948		ixt_seed_boot
#define find_write	ixt_find_write

/* The tool: $IPUXCOM_TOOL, else `ipuxcom` on PATH (the VM installs it). */
static const char *tool_name(void)
{
	const char *env = getenv("IPUXCOM_TOOL");

	return env && *env ? env : "ipuxcom";
}

static uint32_t count_writes(const struct ipuxcom_cfg_record *r, uint32_t n, uint32_t off,
			     uint32_t value)
{
	uint32_t c = 0;

	for (uint32_t i = 0; i < n; i++)
		c += r[i].offset == off && r[i].value == value;
	return c;
}


/* ------------------------------------------------ the captured load */

FIXTURE(seq) {
	uint32_t dev;
	char img[64], boot[64], out[64];
};

FIXTURE_SETUP(seq)
{
	struct ipuxcom_image *img;
	uint8_t b[BOOT948];
	void *file = NULL;
	size_t len = 0;

	self->out[0] = '\0';
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	if (access("/sys/kernel/tracing/events/ipuxcom", F_OK) &&
	    access("/sys/kernel/debug/tracing/events/ipuxcom", F_OK))
		SKIP(return, "no tracefs with the ipuxcom tracepoints (or not root)");
	self->dev = ixt_dev_id();
	snprintf(self->img, sizeof(self->img), "/tmp/hwseq.%d.ipuimg", (int)getpid());
	snprintf(self->boot, sizeof(self->boot), "/tmp/hwseq.%d.boot", (int)getpid());
	snprintf(self->out, sizeof(self->out), "/tmp/hwseq.%d.ipucfg", (int)getpid());
	img = build_image_file(_metadata, &file, &len);
	ASSERT_NE(NULL, img);
	ipuxcom_image_free(img);
	ASSERT_EQ(0, ixt_write_file(self->img, file, len));
	free(file);
	boot948(b);
	ASSERT_EQ(0, ixt_write_file(self->boot, b, sizeof(b)));
	ASSERT_EQ(0, ixt_reset_device(self->dev));
}

FIXTURE_TEARDOWN(seq)
{
	if (!self->out[0])
		return;
	unlink(self->img);
	unlink(self->boot);
	unlink(self->out);
	ixt_reset_device(self->dev);
}

/* `ipuxcom cfg capture -- ipuxcom load ...`: the load's config-BAR writes. */
static void capture_load(struct __test_metadata *_metadata, FIXTURE_DATA(seq) *self,
			 struct ipuxcom_cfg_record **recs, uint32_t *n)
{
	struct ixt_run *r = malloc(sizeof(*r));
	struct ipuxcom_errmsg em;
	char dev[16];

	ASSERT_NE(NULL, r);
	snprintf(dev, sizeof(dev), "%u", self->dev);
	{
		char *const argv[] = {
			(char *)tool_name(), "cfg", "capture", "--dev", dev, "-o", self->out, "--",
			(char *)tool_name(), "load", self->img, "-b", self->boot, "--dev", dev,
			"-q", "--no-init", NULL,
		};

		ASSERT_EQ(0, ixt_run(argv, r));
	}
	EXPECT_EQ(0, r->status) TH_LOG("stdout: %s\nstderr: %s", r->out, r->err);
	free(r);
	ASSERT_EQ(0, ipuxcom_cfg_load(self->out, recs, n, &em)) TH_LOG("%s", em.msg);
}

/*
 * The bootloader as an ELF32 with its PT_LOAD at 0x4c000 [RE,
 * HW-BOOTLOADER-ELF] holding the same 948 bytes, written by hand (no toolchain in the
 * VM): header, one program header, the segment.
 */
static int write_boot_elf(const char *path)
{
	uint8_t f[52 + 32 + BOOT948] = { 0x7f, 'E', 'L', 'F', 1, 1, 1 };

	ixt_put32(f + 16, 2 | 0u << 16);	/* e_type EXEC, e_machine none */
	ixt_put32(f + 20, 1);			/* e_version */
	ixt_put32(f + 24, 0x4c000);		/* e_entry */
	ixt_put32(f + 28, 52);			/* e_phoff */
	ixt_put32(f + 40, 52 | 32u << 16);	/* e_ehsize, e_phentsize */
	ixt_put32(f + 44, 1 | 40u << 16);	/* e_phnum, e_shentsize */
	ixt_put32(f + 52, 1);			/* PT_LOAD */
	ixt_put32(f + 56, 84);			/* p_offset */
	ixt_put32(f + 60, 0x4c000);		/* p_vaddr */
	ixt_put32(f + 64, 0x4c000);		/* p_paddr */
	ixt_put32(f + 68, BOOT948);		/* p_filesz */
	ixt_put32(f + 72, BOOT948);		/* p_memsz */
	ixt_put32(f + 76, 5);			/* R+X */
	ixt_put32(f + 80, 4);
	boot948(f + 84);
	return ixt_write_file(path, f, sizeof(f));
}

/* The seed's autoloader words, exactly, for its 948-byte bootloader. */
static void expect_seed_autoloader(struct __test_metadata *_metadata, FIXTURE_DATA(seq) *self)
{
	struct ipuxcom_cfg_record *r = NULL;
	uint32_t n = 0;
	int at;

	capture_load(_metadata, self, &r, &n);
	ASSERT_NE(NULL, r);
	at = ixt_expect_seed_autoloader(_metadata, "tracepoint", r, n);
	ASSERT_LE(0, at);
	at += 1 + 256;
	/* no other autoloader write anywhere in the load */
	for (uint32_t i = 0; i < n; i++) {
		if ((int)i >= at - 257 && (int)i <= at + 3)
			continue;
		EXPECT_TRUE(r[i].offset < REC_AUTOLDCSR || r[i].offset > REC_AUTOLDDATAR)
			TH_LOG("stray autoloader write %u: 0x%x = 0x%x", i, r[i].offset, r[i].value);
	}
	/* the posted data writes were flushed by a read after every 32 words */
	EXPECT_EQ(32, ixt_sim_stat(self->dev, "autold_max_unflushed"));
	free(r);
}

TEST_F_TIMEOUT(seq, autoloader_words_are_the_seeds, 120)
{
	expect_seed_autoloader(_metadata, self);
}

/* `-b` with the SDK's form of the same bootloader: the same words. */
/*
 * Above 1 KiB the words follow the peer's named fields [RE,
 * HW-AUTOLOAD-FIELDS; hardware-checked only at 1 KiB]:
 * a 2000-byte bootloader is padded to 2 KiB, TRGTR 0x02000000 | 2<<10
 * then 0x02000000 | 624<<10 | 2, CSR with load pointer (2048/4-1) & 0x3f.
 */
TEST_F_TIMEOUT(seq, autoloader_words_by_named_fields_at_2_kib, 120)
{
	struct ipuxcom_cfg_record *r = NULL;
	uint8_t b[2000];
	uint32_t n = 0;
	int at;

	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i * 13 + 1);
	ASSERT_EQ(0, ixt_write_file(self->boot, b, sizeof(b)));
	capture_load(_metadata, self, &r, &n);
	ASSERT_NE(NULL, r);
	at = find_write(r, n, 0, REC_AUTOLDCSR, 0);
	ASSERT_LE(0, at);
	ASSERT_LE((uint32_t)at + 1 + 512 + 4, n);
	at += 1 + 512;
	EXPECT_EQ(REC_AUTOLDTRGTR, r[at].offset);
	EXPECT_EQ(0x02000800, r[at].value);
	EXPECT_EQ(REC_AUTOLDCSR, r[at + 1].offset);
	EXPECT_EQ(0x0010013f, r[at + 1].value);
	EXPECT_EQ(REC_AUTOLDTRGTR, r[at + 2].offset);
	EXPECT_EQ(0x0209c002, r[at + 2].value);
	EXPECT_EQ(REC_AUTOLDCSR, r[at + 3].offset);
	EXPECT_EQ(0x000b7f3f, r[at + 3].value);
	/* and the model (which follows the record, not us) took them */
	EXPECT_EQ(2, ixt_sim_stat(self->dev, "autoload_transactions"));
	free(r);
}

TEST_F_TIMEOUT(seq, elf_bootloader_gives_the_same_words, 120)
{
	ASSERT_EQ(0, write_boot_elf(self->boot));
	expect_seed_autoloader(_metadata, self);
}

/* Transport and marks, in the order the hardware record has them. */
TEST_F_TIMEOUT(seq, loader_writes_follow_the_hardware_order, 120)
{
	struct ipuxcom_cfg_record *r = NULL;
	uint32_t n = 0;
	int hexopt, arm, ccsr, mark1, start, last;

	capture_load(_metadata, self, &r, &n);
	ASSERT_NE(NULL, r);
	hexopt = find_write(r, n, 0, REC_EXCHWINDOWBASER, 0x800);
	arm = find_write(r, n, 0, REC_DCXCR_SEC(0), 0x07fffffa);
	mark1 = find_write(r, n, 0, REC_GS1, 1);
	ASSERT_LE(0, hexopt);
	ASSERT_LE(0, arm);
	ASSERT_LE(0, mark1);
	/* HEXOPT, then the controls and CCSR, then batch 0's mark */
	EXPECT_LT(hexopt, arm);
	ccsr = arm;
	while (ccsr < (int)n && r[ccsr].offset != REC_CCSR)
		ccsr++;
	EXPECT_LT(ccsr, mark1);
	EXPECT_EQ(0, r[ccsr].value & 0x402) TH_LOG("CCSR.NOSNOOP/ELINKECRCEN set while loading");
	for (int i = 0; i < 8; i++) {
		int p = find_write(r, n, hexopt, REC_DCXCR_PRI(i), 0x07fffffa);
		int s = find_write(r, n, hexopt, REC_DCXCR_SEC(i), 0x07fffffa);

		EXPECT_TRUE(p >= 0 && p < mark1) TH_LOG("primary %d not armed before batch 0", i);
		EXPECT_TRUE(s >= 0 && s < mark1) TH_LOG("secondary %d not armed before batch 0", i);
	}
	/* the buffer was handed to the device with HEXOPT selected */
	EXPECT_EQ(0x800, ixt_sim_stat(self->dev, "loader_attach_window"));
	EXPECT_EQ(0x800, ixt_sim_stat(self->dev, "batch0_window"));
	/* 23 batches + the 0xff release, then the start mark */
	EXPECT_EQ(24, count_writes(r, n, REC_GS1, 1));
	EXPECT_EQ(1, count_writes(r, n, REC_GS1, 23));
	start = find_write(r, n, 0, REC_GS1, 23);
	ASSERT_LE(0, start);
	/* then the operational controls, CCSR, HEXOPT for the detach */
	for (int i = 0; i < 8; i++) {
		EXPECT_LT(start, find_write(r, n, start, REC_DCXCR_PRI(i), 0x2));
		EXPECT_LT(start, find_write(r, n, start, REC_DCXCR_SEC(i), 0x0020820a));
	}
	last = find_write(r, n, start, REC_EXCHWINDOWBASER, 0x800);
	EXPECT_LT(start, last);
	EXPECT_EQ(0, ixt_sim_stat(self->dev, "gs1_pending_at_batch"));
	EXPECT_EQ(0, ixt_sim_stat(self->dev, "rejected_batches"));
	free(r);
}

/* ----------------------------------------------- through the library */

FIXTURE(lib) {
	struct ipuxcom *ipu;
	struct ipuxcom_image *img;
	uint32_t dev;
};

FIXTURE_SETUP(lib)
{
	self->ipu = NULL;
	self->img = NULL;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	self->dev = ixt_dev_id();
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, self->dev));
	ixt_sim_clear_faults(self->dev);
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	self->img = build_image(_metadata);
	ASSERT_NE(NULL, self->img);
}

FIXTURE_TEARDOWN(lib)
{
	if (!self->ipu)
		return;
	ipuxcom_reset(self->ipu, NULL);
	ipuxcom_close(self->ipu);
	ipuxcom_image_free(self->img);
}

/* A capture's tail as on the real C600: ... GS2 = 1, GS1 = 1. */
static const struct ipuxcom_cfg_record capture_tail[] = {
	{ REC_CCSR, 0x00000402 }, { REC_GS2, 1 }, { REC_GS1, 1 },
};
#define NTAIL (uint32_t)(sizeof(capture_tail) / sizeof(capture_tail[0]))

static uint32_t reg(struct __test_metadata *_metadata, struct ipuxcom *ipu, uint32_t off)
{
	uint32_t v = 0;

	EXPECT_EQ(0, ipuxcom_reg_read(ipu, off, &v));
	return v;
}

TEST_F(lib, cfg_clear_skips_the_marks_and_clears_both)
{
	struct ipuxcom_cfg_apply_result res = IPUXCOM_CFG_APPLY_RESULT_INIT;

	ASSERT_EQ(0, ipuxcom_cfg_apply_hsp(self->ipu, capture_tail, NTAIL,
					   IPUXCOM_CFG_HSP_CLEAR, &res));
	EXPECT_EQ(1, res.applied);
	EXPECT_EQ(2, res.skipped);
	EXPECT_EQ(0, reg(_metadata, self->ipu, REC_GS1) & 0xffff);
	EXPECT_EQ(0, reg(_metadata, self->ipu, REC_GS2) & 0xffff);
	EXPECT_EQ(0x402, reg(_metadata, self->ipu, REC_CCSR));
	/* the capture's marks never reached the device */
	EXPECT_EQ(0, ixt_sim_stat(self->dev, "mark1_transactions"));
}

TEST_F(lib, cfg_keep_gs2_preloads_gs2_and_clears_gs1)
{
	struct ipuxcom_cfg_apply_result res = IPUXCOM_CFG_APPLY_RESULT_INIT;

	ASSERT_EQ(0, ipuxcom_cfg_apply_hsp(self->ipu, capture_tail, NTAIL,
					   IPUXCOM_CFG_HSP_KEEP_GS2, &res));
	EXPECT_EQ(2, res.applied);
	EXPECT_EQ(1, res.skipped);
	EXPECT_EQ(0, reg(_metadata, self->ipu, REC_GS1) & 0xffff);
	EXPECT_EQ(1, reg(_metadata, self->ipu, REC_GS2) & 0xffff);
}

static int load_with_cfg(struct ipuxcom *ipu, struct ipuxcom_image *img, uint32_t hsp,
			 struct ipuxcom_load_result *res)
{
	struct ipuxcom_load_params p = {
		.size = sizeof(struct ipuxcom_load_params),
		.image = img, .bootloader = boot, .bootloader_size = sizeof(boot),
		.cfg = capture_tail, .cfg_count = NTAIL, .cfg_hsp = hsp,
		.timeout_ns = TIMEOUT_NS,
	};

	return ipuxcom_load(ipu, &p, res);
}

/* Both documented modes load; the default is the peer's. */
TEST_F_TIMEOUT(lib, load_with_the_capture_in_both_modes, 120)
{
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;

	ASSERT_EQ(0, load_with_cfg(self->ipu, self->img, IPUXCOM_CFG_HSP_CLEAR, &res))
		TH_LOG("%s", res.msg);
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, ixt_state(ipuxcom_fd(self->ipu)));
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	ASSERT_EQ(0, load_with_cfg(self->ipu, self->img, IPUXCOM_CFG_HSP_KEEP_GS2, &res))
		TH_LOG("%s", res.msg);
	EXPECT_EQ(23, ixt_sim_stat(self->dev, "load_batches"));
	EXPECT_EQ(0, ixt_sim_stat(self->dev, "gs1_pending_at_batch"));
}

/* Replayed as recorded, the capture leaves GS1 at 1: batch 0 refuses it. */
TEST_F(lib, replayed_gs1_mark_is_refused_not_consumed)
{
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;

	EXPECT_EQ(-EBUSY, load_with_cfg(self->ipu, self->img, IPUXCOM_CFG_HSP_REPLAY, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_BATCH, res.step);
	EXPECT_EQ(0, res.batch);
	EXPECT_EQ(1, res.diag.mark);
	EXPECT_NE(NULL, strstr(res.msg, "already pending")) TH_LOG("%s", res.msg);
	/* nothing was posted over it, no batch ran, the mark is still there */
	EXPECT_EQ(0, ixt_sim_stat(self->dev, "load_batches"));
	EXPECT_EQ(0, ixt_sim_stat(self->dev, "gs1_pending_at_batch"));
	EXPECT_EQ(1, reg(_metadata, self->ipu, REC_GS1) & 0xffff);
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(ipuxcom_fd(self->ipu)));
}

TEST_F(lib, unknown_cfg_mode_rejected)
{
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;

	EXPECT_EQ(-EINVAL, load_with_cfg(self->ipu, self->img, 7, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_CHECK, res.step);
	EXPECT_NE(NULL, strstr(res.msg, "cfg_hsp 7")) TH_LOG("%s", res.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_cfg_hsp_parse("sometimes"));
	EXPECT_EQ(IPUXCOM_CFG_HSP_KEEP_GS2, ipuxcom_cfg_hsp_parse("keep-gs2"));
}

/* HSP_MARK never posts over a pending mark (the start preloads GS2). */
TEST_F_TIMEOUT(lib, hsp_mark_refuses_a_pending_mark, 120)
{
	struct ipuxcom_load_params p = {
		.size = sizeof(struct ipuxcom_load_params),
		.image = self->img, .bootloader = boot, .bootloader_size = sizeof(boot),
		.timeout_ns = TIMEOUT_NS,
	};
	uint32_t m = 0;

	ASSERT_EQ(0, ipuxcom_load(self->ipu, &p, NULL));
	ASSERT_EQ(1, reg(_metadata, self->ipu, REC_GS2) & 0xffff);
	EXPECT_EQ(-EBUSY, ipuxcom_hsp_mark(self->ipu, IPUXCOM_HSP_GS2, 1, false, 0, &m));
	EXPECT_EQ(1, m);
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, ixt_state(ipuxcom_fd(self->ipu)));
}

/*
 * Marks are written bare, as the hardware-proven peer writes them and as
 * the capture's own GS records are: with bits above MARK set in GS1 and
 * GS2 (not recorded; the model keeps what is written), the config's clear,
 * every loader mark, and HSP_MARK on GS1 and GS2 each leave the register
 * exactly 0 once answered. A read-modify-write of MARK would leave the
 * upper bits (the model answers both forms: sim_load_test).
 */
TEST_F_TIMEOUT(lib, marks_are_written_bare, 120)
{
	struct ipuxcom_cfg_apply_result res = IPUXCOM_CFG_APPLY_RESULT_INIT;
	struct ipuxcom_load_params p = {
		.size = sizeof(struct ipuxcom_load_params),
		.image = self->img, .bootloader = boot, .bootloader_size = sizeof(boot),
		.timeout_ns = TIMEOUT_NS,
		/* the session's RESET would clear the upper bits this plants */
		.flags = IPUXCOM_LOAD_F_NO_INIT,
	};
	const uint32_t hi1 = 0xa5a50000u, hi2 = 0x5a5a0000u;
	uint32_t m = 0;

	ASSERT_EQ(0, ipuxcom_reg_write(self->ipu, REC_GS1, hi1));
	ASSERT_EQ(0, ipuxcom_reg_write(self->ipu, REC_GS2, hi2));
	ASSERT_EQ(hi1, reg(_metadata, self->ipu, REC_GS1));
	ASSERT_EQ(0, ipuxcom_cfg_apply_hsp(self->ipu, capture_tail, NTAIL,
					   IPUXCOM_CFG_HSP_CLEAR, &res));
	EXPECT_EQ(0, reg(_metadata, self->ipu, REC_GS1));
	EXPECT_EQ(0, reg(_metadata, self->ipu, REC_GS2));

	ASSERT_EQ(0, ipuxcom_reg_write(self->ipu, REC_GS1, hi1));
	ASSERT_EQ(0, ipuxcom_reg_write(self->ipu, REC_GS2, hi2));
	ASSERT_EQ(0, ipuxcom_load(self->ipu, &p, NULL));
	EXPECT_EQ(0, reg(_metadata, self->ipu, REC_GS1));
	/* the start's preloaded GS2 mark, over what was there */
	EXPECT_EQ(hi2 | 1, reg(_metadata, self->ipu, REC_GS2));
	/* GS1 mark 1 releases it [S "Host Tensor Exchange"]; GS2 = 1 is answered */
	ASSERT_EQ(0, ipuxcom_hsp_mark(self->ipu, IPUXCOM_HSP_GS1, 1, true, TIMEOUT_NS, &m));
	EXPECT_EQ(0, m);
	EXPECT_EQ(0, reg(_metadata, self->ipu, REC_GS1));
	for (int i = 0; i < 100 && reg(_metadata, self->ipu, REC_GS2) & 0xffff; i++)
		;
	EXPECT_EQ(hi2, reg(_metadata, self->ipu, REC_GS2));
	ASSERT_EQ(0, ipuxcom_hsp_mark(self->ipu, IPUXCOM_HSP_GS2, 1, true, TIMEOUT_NS, &m));
	EXPECT_EQ(0, m);
	EXPECT_EQ(0, reg(_metadata, self->ipu, REC_GS2));
	EXPECT_EQ(23, ixt_sim_stat(self->dev, "load_batches"));
}

struct zero_check {
	struct ipuxcom *ipu;
	size_t extent;
	uint32_t checked, dirty;
};

/* After each batch: nothing non-zero beyond the batch's frames. */
static void check_beyond(void *ctx, const struct ipuxcom_load_progress *prog)
{
	struct zero_check *zc = ctx;
	static const uint8_t zero[4096];
	size_t size;
	void *buf;

	if (ipuxcom_xbuf_map(zc->ipu, 0, &buf, &size))
		return;
	for (size_t off = zc->extent; off < size; off += sizeof(zero)) {
		size_t len = size - off < sizeof(zero) ? size - off : sizeof(zero);

		if (memcmp((uint8_t *)buf + off, zero, len)) {
			zc->dirty++;
			break;
		}
	}
	zc->checked++;
	(void)prog;
}

/* Every batch of a first and of a second load finds the buffer zero beyond it. */
TEST_F_TIMEOUT(lib, batches_find_the_buffer_zero_beyond_their_frames, 240)
{
	struct zero_check zc = { .ipu = self->ipu };
	struct ipuxcom_load_params p = {
		.size = sizeof(struct ipuxcom_load_params),
		.image = self->img, .bootloader = boot, .bootloader_size = sizeof(boot),
		.timeout_ns = TIMEOUT_NS, .progress = check_beyond, .ctx = &zc,
	};
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_errmsg em;
	uint32_t frames = 0;
	size_t size;
	uint8_t *buf;

	ipuxcom_image_get_info(self->img, &info);
	ASSERT_EQ(0, ipuxcom_frames_per_tile(info.image_size, &frames, &em));
	zc.extent = IXT_BATCH_BYTES(frames);
	ASSERT_EQ(0, ipuxcom_load(self->ipu, &p, NULL));
	EXPECT_EQ(23, zc.checked);
	EXPECT_EQ(0, zc.dirty);
	/* the release transaction left the whole buffer 0xff */
	ASSERT_EQ(0, ipuxcom_xbuf_map(self->ipu, 0, (void **)&buf, &size));
	EXPECT_EQ(0xff, buf[size - 1]);
	EXPECT_EQ(0xff, buf[zc.extent]);
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	zc.checked = 0;
	ASSERT_EQ(0, ipuxcom_load(self->ipu, &p, NULL));
	EXPECT_EQ(23, zc.checked);
	EXPECT_EQ(0, zc.dirty) TH_LOG("the second load saw the first one's 0xff fill");
}

/* 17..643 frames per tile: 16 is refused by the module before any mark. */
TEST_F(lib, frame_count_floor_is_17)
{
	struct ipuxcom_load_diag diag;
	uint32_t csr = 0;
	size_t size;
	void *buf;

	ASSERT_EQ(0, ipuxcom_autoload(self->ipu, boot, sizeof(boot), TIMEOUT_NS, &csr));
	ASSERT_EQ(0, ipuxcom_xbuf_map(self->ipu, 0, &buf, &size));
	ASSERT_LE(IXT_BATCH_BYTES(17), size);
	ixt_write_batch(buf, 0, 16);
	EXPECT_EQ(-EINVAL, ipuxcom_load_batch(self->ipu, 0, TIMEOUT_NS, &diag));
	EXPECT_EQ(IPUXCOM_FRAME_ERR_DESC_COUNT, diag.bad_reason);
	EXPECT_EQ(0, diag.bad_tile);
	EXPECT_EQ(0, ixt_sim_stat(self->dev, "mark1_transactions"));
	ixt_write_batch(buf, 0, 17);
	EXPECT_EQ(0, ipuxcom_load_batch(self->ipu, 0, TIMEOUT_NS, &diag));
	EXPECT_EQ(1, ixt_sim_stat(self->dev, "load_batches"));
}

/* A 2 KiB bootloader: the peer's named fields load on the simulator. */
TEST_F(lib, autoload_pads_to_whole_kib)
{
	static uint8_t big[1500];
	uint32_t csr = 0;

	memset(big, 0x5a, sizeof(big));
	ASSERT_EQ(0, ipuxcom_autoload(self->ipu, big, sizeof(big), TIMEOUT_NS, &csr));
	EXPECT_EQ(0, csr & 0x100);
	EXPECT_EQ(2, ixt_sim_stat(self->dev, "autoload_transactions"));
	EXPECT_EQ(IPUXCOM_DEV_STATE_BOOTLOADER, ixt_state(ipuxcom_fd(self->ipu)));
}

TEST_HARNESS_MAIN
