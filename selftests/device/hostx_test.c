// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tensor exchange on the simulated C600, with the notes' oracle
 * manifest and device program: 64 random bytes written, copied from tile
 * 0 to tile 1 on the device, read back. Wrong calls and missing pages are
 * refused before anything is written; an unknown callable id times out
 * with the mark reported.
 */
#include "kselftest_harness.h"

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_load.h"
#include "ixt_hsp_oracle.h"

/* The notes' sdk_host_tensor_oracle, in docs/ipuhsp-format.md syntax. */
static const char oracle[] =
	IXT_HSP_ORACLE;

#define TIMEOUT_NS	(2ULL * 1000 * 1000 * 1000)

FIXTURE(hostx) {
	struct ipuxcom *ipu;
	struct ipuxcom_hsp_manifest m;
	uint32_t dev;
};

FIXTURE_SETUP(hostx)
{
	struct ipuxcom_errmsg em;
	char msg[300];

	self->ipu = NULL;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	IXT_REQUIRE_SIM();
	self->dev = ixt_dev_id();
	ASSERT_EQ(0, ipuxcom_hsp_parse(oracle, sizeof(oracle) - 1, &self->m, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &self->ipu));
	ASSERT_EQ(0, ipuxcom_attach(self->ipu, self->dev));
	ixt_sim_clear_faults(self->dev);
	ASSERT_EQ(0, ixt_load_small(self->ipu, msg, sizeof(msg))) TH_LOG("%s", msg);
}

FIXTURE_TEARDOWN(hostx)
{
	if (!self->ipu)
		return;
	ipuxcom_reset(self->ipu, NULL);
	ipuxcom_close(self->ipu);
}

static void fill_random(uint8_t *p, size_t n)
{
	FILE *f = fopen("/dev/urandom", "rb");

	if (!f || fread(p, 1, n, f) != n)
		for (size_t i = 0; i < n; i++)
			p[i] = (uint8_t)(i * 37 + 11);
	if (f)
		fclose(f);
}

TEST_F(hostx, write_run_read_round_trip)
{
	uint8_t in[64], out[64], on_tile[64];
	struct ipuxcom_hostx_buf ib = { in, sizeof(in) }, ob = { out, sizeof(out) };
	struct ipuxcom_errmsg em;

	ASSERT_EQ(0, ipuxcom_hostx_setup(self->ipu, &self->m, TIMEOUT_NS, &em)) TH_LOG("%s", em.msg);
	for (int round = 0; round < 3; round++) {
		fill_random(in, sizeof(in));
		memset(out, 0, sizeof(out));
		ASSERT_EQ(0, ipuxcom_hostx_call(self->ipu, &self->m, "write", &ib, 1, NULL, 0,
						TIMEOUT_NS, &em)) TH_LOG("%s", em.msg);
		ASSERT_EQ(0, ipuxcom_hostx_call(self->ipu, &self->m, "run", NULL, 0, NULL, 0,
						TIMEOUT_NS, &em)) TH_LOG("%s", em.msg);
		ASSERT_EQ(0, ipuxcom_hostx_call(self->ipu, &self->m, "read", NULL, 0, &ob, 1,
						TIMEOUT_NS, &em)) TH_LOG("%s", em.msg);
		EXPECT_EQ(0, memcmp(in, out, sizeof(in))) TH_LOG("round %d", round);
	}
	/* the device really moved it: tile 1 (physical 2) holds the bytes */
	ASSERT_EQ(0, ipuxcom_tdi_read_sram(self->ipu, 2, 0x52000, (uint32_t *)on_tile, 16, NULL));
	EXPECT_EQ(0, memcmp(in, on_tile, sizeof(in)));
}

TEST_F(hostx, bad_calls_refused_before_writing)
{
	uint8_t in[64] = { 1 }, small[60] = { 0 }, page_probe[64];
	struct ipuxcom_hostx_buf ib = { in, sizeof(in) }, sb = { small, sizeof(small) };
	struct ipuxcom_errmsg em;

	/* no pages yet */
	EXPECT_EQ(-ENOBUFS, ipuxcom_hostx_call(self->ipu, &self->m, "run", NULL, 0, NULL, 0,
					       TIMEOUT_NS, &em));
	EXPECT_NE(NULL, strstr(em.msg, "not set up")) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_hostx_setup(self->ipu, &self->m, TIMEOUT_NS, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(-EEXIST, ipuxcom_hostx_setup(self->ipu, &self->m, TIMEOUT_NS, &em));
	EXPECT_EQ(-ENOENT, ipuxcom_hostx_call(self->ipu, &self->m, "erase", NULL, 0, NULL, 0,
					      TIMEOUT_NS, &em));
	EXPECT_NE(NULL, strstr(em.msg, "'erase'")) TH_LOG("%s", em.msg);
	/* wrong slice size, missing slice, extra slice */
	EXPECT_EQ(-EINVAL, ipuxcom_hostx_call(self->ipu, &self->m, "write", &sb, 1, NULL, 0,
					      TIMEOUT_NS, &em));
	EXPECT_NE(NULL, strstr(em.msg, "60 bytes")) TH_LOG("%s", em.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_hostx_call(self->ipu, &self->m, "write", NULL, 0, NULL, 0,
					      TIMEOUT_NS, &em));
	EXPECT_EQ(-EINVAL, ipuxcom_hostx_call(self->ipu, &self->m, "run", &ib, 1, NULL, 0,
					      TIMEOUT_NS, &em));
	/* nothing reached the device: a clean read returns the page's zeros */
	{
		struct ipuxcom_hostx_buf pb = { page_probe, sizeof(page_probe) };

		memset(page_probe, 0xee, sizeof(page_probe));
		ASSERT_EQ(0, ipuxcom_hostx_call(self->ipu, &self->m, "read", NULL, 0, &pb, 1,
						TIMEOUT_NS, &em)) TH_LOG("%s", em.msg);
		for (size_t i = 0; i < sizeof(page_probe); i++)
			ASSERT_EQ(0, page_probe[i]);
	}
}

/*
 * uapi 4: the pages are the library's memory, set up once per session and
 * forgotten at a reset (which drops the module's pins), then set up again.
 */
TEST_F(hostx, pages_forgotten_at_reset_and_set_up_again)
{
	struct ipuxcom_errmsg em;
	uint8_t in[64] = { 1 }, out[64] = { 0 };
	struct ipuxcom_hostx_buf ib = { in, sizeof(in) }, ob = { out, sizeof(out) };
	char msg[300];

	ASSERT_EQ(0, ipuxcom_hostx_setup(self->ipu, &self->m, TIMEOUT_NS, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_reset(self->ipu, NULL));
	EXPECT_EQ(-ENOBUFS, ipuxcom_hostx_call(self->ipu, &self->m, "write", &ib, 1, NULL, 0,
					       TIMEOUT_NS, &em));
	/* a new load and a new setup work on the same handle */
	ASSERT_EQ(0, ixt_load_small(self->ipu, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(0, ipuxcom_hostx_setup(self->ipu, &self->m, TIMEOUT_NS, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_hostx_call(self->ipu, &self->m, "write", &ib, 1, NULL, 0,
					TIMEOUT_NS, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_hostx_call(self->ipu, &self->m, "run", NULL, 0, NULL, 0,
					TIMEOUT_NS, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_hostx_call(self->ipu, &self->m, "read", NULL, 0, &ob, 1,
					TIMEOUT_NS, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(0, memcmp(in, out, sizeof(in)));
}

/* A callable id the device program does not know: the handoff never returns. */
TEST_F(hostx, unknown_callable_id_times_out)
{
	struct ipuxcom_hsp_manifest bad = self->m;
	struct ipuxcom_errmsg em;
	int run = ipuxcom_hsp_find_call(&bad, "run");

	ASSERT_LE(0, run);
	bad.calls[run].id = 9;
	ASSERT_EQ(0, ipuxcom_hostx_setup(self->ipu, &self->m, TIMEOUT_NS, &em)) TH_LOG("%s", em.msg);
	EXPECT_EQ(-ETIMEDOUT, ipuxcom_hostx_call(self->ipu, &bad, "run", NULL, 0, NULL, 0,
						 50ULL * 1000 * 1000, &em));
	EXPECT_NE(NULL, strstr(em.msg, "phase 1 of 2")) TH_LOG("%s", em.msg);
	EXPECT_NE(NULL, strstr(em.msg, "GS2 mark 1")) TH_LOG("%s", em.msg);
	EXPECT_EQ(IPUXCOM_DEV_STATE_NEEDS_RESET, ixt_state(ipuxcom_fd(self->ipu)));
}

/* Setup needs a running device. */
TEST(hostx_setup_needs_running_device)
{
	struct ipuxcom_hsp_manifest m;
	struct ipuxcom_errmsg em;
	struct ipuxcom *ipu;

	if (!ixt_have_device())
		SKIP(return, "%s absent", ixt_dev_path());
	IXT_REQUIRE_SIM();
	ASSERT_EQ(0, ipuxcom_hsp_parse(oracle, sizeof(oracle) - 1, &m, &em));
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &ipu));
	ASSERT_EQ(0, ipuxcom_attach(ipu, ixt_dev_id()));
	ASSERT_EQ(0, ipuxcom_reset(ipu, NULL));
	EXPECT_EQ(-EBADFD, ipuxcom_hostx_setup(ipu, &m, TIMEOUT_NS, &em));
	EXPECT_NE(0, em.msg[0]);
	ipuxcom_close(ipu);
}

TEST_HARNESS_MAIN
