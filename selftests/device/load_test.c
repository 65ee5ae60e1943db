// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whole loads through libipuxcom: 1472 distinct tile images packed into
 * an IPUIMG1 image, loaded in 23 batches, then read back through TDI on
 * every tile; the handshake sequence compared with the design notes (24
 * mark-1 transactions, then the start mark 23); corrupt frames, device
 * read errors and a stuck mark each giving their documented error without
 * touching tile memory, then RESET and a clean load.
 */
#include "kselftest_harness.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "load_testlib.h"

#define TIMEOUT_NS	(2ULL * 1000 * 1000 * 1000)

FIXTURE(load) {
	struct ipuxcom *ipu;
	struct ipuxcom_image *img;
	uint32_t dev;
};

FIXTURE_SETUP(load)
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

FIXTURE_TEARDOWN(load)
{
	if (!self->ipu)
		return;
	ixt_sim_clear_faults(self->dev);
	ipuxcom_reset(self->ipu, NULL);
	ipuxcom_close(self->ipu);
	ipuxcom_image_free(self->img);
}

/* Every tile's own words and a common word read back as loaded. */
static void check_tiles(struct __test_metadata *_metadata, struct ipuxcom *ipu)
{
	for (uint32_t t = 0; t < TILES; t++) {
		for (uint32_t k = 0; k < TILE_WORDS; k += 5) {
			uint32_t i = tile_word_index(t, k), v = 0;

			ASSERT_EQ(0, ipuxcom_tdi_read_sram(ipu, t, PAYLOAD_BASE + i * 4, &v, 1, NULL));
			/* another tile may have put its own word at the same index: never ours */
			ASSERT_EQ(tile_word(t, k), v) TH_LOG("tile %u word %u", t, i);
		}
	}
}

TEST_F(load, full_load_reads_back_on_every_tile)
{
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	uint32_t first[8], want[8];

	ASSERT_EQ(0, ixt_load_image(self->ipu, self->img, TIMEOUT_NS, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, ixt_state(ipuxcom_fd(self->ipu)));
	check_tiles(_metadata, self->ipu);
	/* the first payload word lands at 0x4c010, not 0x4c000 */
	ASSERT_EQ(0, ipuxcom_tdi_read_sram(self->ipu, 1471, PAYLOAD_BASE, first, 8, NULL));
	for (uint32_t i = 0; i < 8; i++)
		want[i] = common_word(i);
	for (uint32_t k = 0; k < TILE_WORDS; k++)
		if (tile_word_index(1471, k) < 8)
			want[tile_word_index(1471, k)] = tile_word(1471, k);
	EXPECT_EQ(0, memcmp(first, want, sizeof(want)));
}

/* The handshakes the notes describe: 23 batches + 1 release, then mark 23. */
TEST_F(load, sequence_matches_the_notes)
{
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	uint32_t v;

	ASSERT_EQ(0, ixt_load_image(self->ipu, self->img, TIMEOUT_NS, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(2, ixt_sim_stat(self->dev, "autoload_transactions"));
	EXPECT_EQ(23, ixt_sim_stat(self->dev, "load_batches"));
	EXPECT_EQ(24, ixt_sim_stat(self->dev, "mark1_transactions"));
	EXPECT_EQ(1, ixt_sim_stat(self->dev, "start_marks"));
	EXPECT_EQ(0, ixt_sim_stat(self->dev, "rejected_batches"));
	/* open + attach are not counted: query, RESET (the init) .. FINISH in at most 29 calls */
	EXPECT_GE(29, res.syscalls);
	/* the operational controls are back: request id 0 primary, 1 secondary */
	ASSERT_EQ(0, ipuxcom_reg_read(self->ipu, 0x5404, &v));
	EXPECT_EQ(0x2, v);
	ASSERT_EQ(0, ipuxcom_reg_read(self->ipu, 0x1b804 + 7 * 0x400, &v));
	EXPECT_EQ(0x2 | 1 << 3 | 1 << 9 | 1 << 15 | 1 << 21, v);
}

/*
 * uapi 4: the transport buffer is the library's memory, pinned by the
 * module for one load only, and kept by the library for the next.
 */
TEST_F(load, transport_buffer_is_library_memory_kept_across_loads)
{
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	size_t sa, sb;
	uint8_t *a, *b;

	ASSERT_EQ(0, ixt_load_image(self->ipu, self->img, TIMEOUT_NS, &res)) TH_LOG("%s", res.msg);
	/* query, RESET (the initialisation), AUTOLOAD, mmap, BUF_ATTACH, 23, FINISH */
	EXPECT_EQ(29, res.syscalls);
	ASSERT_EQ(0, ipuxcom_xbuf_map(self->ipu, 0, (void **)&a, &sa));
	EXPECT_EQ(IPUXCOM_XBUF_DEFAULT_SIZE, sa);
	/* the module's 0xff release fill landed in it */
	EXPECT_EQ(0xff, a[0]);
	EXPECT_EQ(0xff, a[sa - 1]);
	/*
	 * That LOAD_FINISH ended the pin is the module's test (hoststage_test):
	 * /proc/vmstat's nr_foll_pin_* lag by their per-CPU deltas, too much
	 * to count one load's pages here.
	 */
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	ASSERT_EQ(0, ixt_load_image(self->ipu, self->img, TIMEOUT_NS, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(28, res.syscalls);	/* no mmap the second time */
	ASSERT_EQ(0, ipuxcom_xbuf_map(self->ipu, 0, (void **)&b, &sb));
	EXPECT_EQ(a, b);
	EXPECT_EQ(sa, sb);
	check_tiles(_metadata, self->ipu);
	/* a larger buffer than the one kept is refused, the kept one returned */
	EXPECT_EQ(-EEXIST, ipuxcom_xbuf_map(self->ipu, IPUXCOM_XBUF_MAX_SIZE, (void **)&b, &sb));
	EXPECT_EQ(a, b);
}

/* A damaged frame is reported by tile, frame and reason; nothing is installed. */
TEST_F(load, corrupt_frame_rejected_before_the_device)
{
	struct ipuxcom_load_diag diag;
	struct ipuxcom_errmsg em;
	uint8_t *buf;
	size_t size;
	uint32_t v = 1, off;

	ASSERT_EQ(0, ipuxcom_autoload(self->ipu, boot, sizeof(boot), 0, NULL));
	ASSERT_EQ(0, ipuxcom_xbuf_map(self->ipu, 0, (void **)&buf, &size));
	ASSERT_EQ(0, ipuxcom_frames_build(self->img, 0, 63, buf, size, &em)) TH_LOG("%s", em.msg);
	/* tile 5's third frame: one trailer byte */
	off = buf[5 * 8] | buf[5 * 8 + 1] << 8 | buf[5 * 8 + 2] << 16 |
	      (uint32_t)buf[5 * 8 + 3] << 24;
	buf[off + 2 * 1024 + 1020] = 0;
	EXPECT_EQ(-EINVAL, ipuxcom_load_batch(self->ipu, 0, TIMEOUT_NS, &diag));
	EXPECT_EQ(5, diag.bad_tile);
	EXPECT_EQ(2, diag.bad_frame);
	EXPECT_EQ(IPUXCOM_FRAME_ERR_TRAILER, diag.bad_reason);
	EXPECT_EQ(0, ixt_sim_stat(self->dev, "mark1_transactions"));
	ASSERT_EQ(0, ipuxcom_tdi_read_sram(self->ipu, 0, PAYLOAD_BASE, &v, 1, NULL));
	EXPECT_EQ(0, v);
	/* the batch can be rebuilt and loaded */
	ASSERT_EQ(0, ipuxcom_frames_build(self->img, 0, 63, buf, size, &em));
	EXPECT_EQ(0, ipuxcom_load_batch(self->ipu, 0, TIMEOUT_NS, &diag));
}

/* The device cannot read the buffer: the mark stays, -ETIMEDOUT, no SRAM change. */
TEST_F(load, dma_error_times_out_then_reset_recovers)
{
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	uint32_t v = 1;

	ASSERT_EQ(0, ixt_sim_knob(self->dev, "dma_error", 1));
	EXPECT_EQ(-ETIMEDOUT, ixt_load_image(self->ipu, self->img, TIMEOUT_NS, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_BATCH, res.step);
	EXPECT_EQ(0, res.batch);
	EXPECT_EQ(1, res.diag.mark);
	EXPECT_NE(NULL, strstr(res.msg, "batch 0")) TH_LOG("%s", res.msg);
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(ipuxcom_fd(self->ipu)));
	ASSERT_EQ(0, ipuxcom_tdi_read_sram(self->ipu, 0, PAYLOAD_BASE, &v, 1, NULL));
	EXPECT_EQ(0, v);
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "dma_error", 0));
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	ASSERT_EQ(0, ixt_load_image(self->ipu, self->img, TIMEOUT_NS, &res)) TH_LOG("%s", res.msg);
	check_tiles(_metadata, self->ipu);
}

/* The loaders never answer: -ETIMEDOUT with the mark still set. */
TEST_F(load, stuck_mark_times_out_then_reset_recovers)
{
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;

	ASSERT_EQ(0, ixt_sim_knob(self->dev, "stuck_mark", 1));
	EXPECT_EQ(-ETIMEDOUT, ixt_load_image(self->ipu, self->img, TIMEOUT_NS, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_BATCH, res.step);
	EXPECT_EQ(1, res.diag.mark);
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "stuck_mark", 0));
	/* without the initialisation it needs a reset first */
	EXPECT_EQ(-EBADFD, ixt_load_image_flags(self->ipu, self->img, TIMEOUT_NS,
						IPUXCOM_LOAD_F_NO_INIT, &res));
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	EXPECT_EQ(0, ixt_load_image(self->ipu, self->img, TIMEOUT_NS, &res)) TH_LOG("%s", res.msg);
	/* by default a load initialises (resets) the device first: from any state */
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "stuck_mark", 1));
	EXPECT_EQ(-ETIMEDOUT, ixt_load_image(self->ipu, self->img, TIMEOUT_NS, &res));
	ASSERT_EQ(0, ixt_sim_knob(self->dev, "stuck_mark", 0));
	EXPECT_EQ(0, ixt_load_image(self->ipu, self->img, TIMEOUT_NS, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, ixt_state(ipuxcom_fd(self->ipu)));
}

/* Several processes race to attach: exactly one wins and can load. */
TEST(attach_race_one_winner)
{
	enum { N = 4 };
	int go[2], results[2], hold[2], wins = 0, status;
	pid_t kids[N];
	char c;

	if (!ixt_have_device())
		SKIP(return, "%s absent", ixt_dev_path());
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(results));
	ASSERT_EQ(0, pipe(hold));
	for (int i = 0; i < N; i++) {
		kids[i] = fork();
		ASSERT_LE(0, kids[i]);
		if (kids[i] == 0) {
			int fd = ixt_open();

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(go[1]);
			if (read(go[0], &c, 1) != 0)	/* wait for the start (EOF) */
				_exit(2);
			c = fd >= 0 && ixt_attach(fd, ixt_dev_id()) == 0 ? 'W' : 'L';
			if (write(results[1], &c, 1) != 1)
				_exit(3);
			/* hold the device until the parent has counted */
			if (read(hold[0], &c, 1) < 0)
				_exit(4);
			_exit(0);
		}
	}
	close(go[1]);	/* all children start together */
	for (int i = 0; i < N; i++) {
		ASSERT_EQ(1, read(results[0], &c, 1));
		wins += c == 'W';
	}
	EXPECT_EQ(1, wins);
	for (int i = 0; i < N; i++)
		ASSERT_EQ(1, write(hold[1], "x", 1));
	for (int i = 0; i < N; i++) {
		ASSERT_EQ(kids[i], waitpid(kids[i], &status, 0));
		EXPECT_EQ(0, WEXITSTATUS(status));
	}
}

TEST_HARNESS_MAIN
