// SPDX-License-Identifier: GPL-2.0-only
/*
 * Devices held through ipu_driver, against the selftests' stand-in for it
 * (selftests/kmod/ipu_standin.ko, loaded and unloaded here: never on a
 * machine with a card, where the real ipu_driver owns /dev/ipuN).
 *
 * standin: the QEMU C600 (docs/qemu-c600.md; the VM gets it from run-vm.sh
 *   --c600) bound by the stand-in as "ipu_driver" (/dev/ipu0) and served
 *   by ipuxcom_hw (backend "hw", IPUXCOM_CAP_IPU_DRIVER), driven by
 *   libipuxcom; skipped without the device. The stand-in sends its
 *   real-time signals 44-49 throughout; the test blocks them first, as
 *   libipuxcom(3) asks:
 *  - every load is the session the record runs (ipuxcom_load() by
 *    default): the initialisation from driver-idle, then the replay of the
 *    real C600 config capture ($IPUXCOM_CARD_CFG, ixt_card_cfg.h), then
 *    the load;
 *  - a full 1472-tile load, an exchange-window store through
 *    /dev/ipu0_ex and host exchange, with ipu_driver's calls in the order
 *    of the hardware-proven stack (HW-LOAD:
 *    step 1's initialisation, HEXOPT selected whenever a buffer
 *    arrives, BUFFER_DETACH 0 after the start, host pages 1 then 0);
 *  - ATTACH refused without the /dev/ipuN (-EACCES), with a wrong one or
 *    a wrong mapping (-EXDEV: /dev/null, another file's mapping, offset
 *    not 0, an address nothing maps), a read-only descriptor (-EBADF) and
 *    a read-only mapping (-EACCES); the probe attaches nothing;
 *  - a second ipu_driver user is excluded while ipuxcom holds the card;
 *  - the module never calls ipu_driver: ATTACH issues no ioctl on the
 *    node (the stand-in's log), and what it grants is what the caller's
 *    own mapping reaches;
 *  - no page stays pinned (/proc/vmstat FOLL_PIN counts, the stand-in's
 *    own count) after close, after reset, after the card's unbinding and
 *    after the holder is SIGKILLed mid-load; the card is reusable.
 * c600_through_ipuxcom_hw: the C600 bound by the stand-in and registered
 *   by ipuxcom_hw through its bus notifier: ATTACH needs its /dev/ipuN, a
 *   register written through the real MMIO path reads back, and sysfs
 *   unbind, QEMU device_del (through run-vm.sh's monitor relay) and
 *   module reloads end and restart sessions cleanly.
 */
#include "kselftest_harness.h"

#include <dirent.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include <linux/ipuxcom_ipu_driver.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_modules.h"
#include "image_testlib.h"
#include "load_testlib.h"
#include "c600_record.h"
#include "ixt_hsp_oracle.h"
#include "ixt_standin.h"
#include "ixt_simdev.h"
#include "ixt_card_cfg.h"

#define STANDIN_MOD	IXT_STANDIN_MOD
#define STANDIN_DBG	IXT_STANDIN_DBG
/* this binary's stand-in: as loaded by default, signals on */
#define STANDIN_PARAMS	""
#define TIMEOUT_NS	(5ULL * 1000 * 1000 * 1000)
/* The loader's transport buffer [RE, HW-LOAD step 4], in pages. */
#define XBUF_PAGES	(0x2842000u / 4096)

/* ------------------------------------------------------------ helpers */

static long sc_number(unsigned int card, const char *file)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), STANDIN_DBG "/ipu%u/%s", card, file);
	if (ixt_read_sysfs(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtol(buf, NULL, 0);
}

/* A line "NAME VALUE" of the stand-in's stats of @card; -1 if absent. */
static long sc_stat(unsigned int card, const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), STANDIN_DBG "/ipu%u/stats", card);
	return ixt_stat_line(path, name);
}

static int sc_knob(unsigned int card, const char *name, unsigned int value)
{
	char path[128], val[16];

	snprintf(path, sizeof(path), STANDIN_DBG "/ipu%u/%s", card, name);
	snprintf(val, sizeof(val), "%u\n", value);
	return ixt_write_sysfs(path, val);
}

static void sc_clear_faults(unsigned int card)
{
	static const char *const knobs[] = {
		"stuck_go", "stuck_mark", "tdi_busy", "dma_error", "ctx_no_stop",
		"tdi_fail_at", "bad_mailbox", "attach_error",
	};

	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		sc_knob(card, knobs[i], 0);
}

static void sc_log_clear(unsigned int card)
{
	char path[128];

	snprintf(path, sizeof(path), STANDIN_DBG "/ipu%u/log", card);
	ixt_write_sysfs(path, "0\n");
}

#define LOG_MAX		256
#define LOG_LINE	160

struct sc_log {
	unsigned int n;
	char line[LOG_MAX][LOG_LINE];
};

static int sc_log_read(unsigned int card, struct sc_log *log)
{
	char path[128];
	FILE *f;

	log->n = 0;
	snprintf(path, sizeof(path), STANDIN_DBG "/ipu%u/log", card);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (log->n < LOG_MAX && fgets(log->line[log->n], LOG_LINE, f)) {
		log->line[log->n][strcspn(log->line[log->n], "\n")] = '\0';
		if (log->line[log->n][0] != '#')
			log->n++;
	}
	fclose(f);
	return 0;
}

/* Index of the first line from @from on that starts with @prefix, or -1. */
static int log_find(const struct sc_log *log, unsigned int from, const char *prefix)
{
	for (unsigned int i = from; i < log->n; i++)
		if (!strncmp(log->line[i], prefix, strlen(prefix)))
			return (int)i;
	return -1;
}

/* The ipuxcom device id of card @card (ipuxcom_hw's), or -1: one C600. */
static long sc_dev_id(unsigned int card)
{
	return card ? -1 : ixt_hw_dev_id();
}

/* ipu_standin loaded with @params, then ipuxcom_hw (both unloaded first). */
static int standin_load(const char *params)
{
	int ret = ixt_standin_load(params);

	return ret ? ret : ixt_standin_hw_load();
}

/* Attach @ipu to stand-in card @card through the library; 0 or -errno. */
static int attach_card(struct ipuxcom **ipu, unsigned int card)
{
	long id = sc_dev_id(card);
	int err;

	*ipu = NULL;
	if (id < 0)
		return -ENODEV;
	err = ipuxcom_open(ixt_dev_path(), ipu);
	if (!err)
		err = ipuxcom_attach(*ipu, (uint32_t)id);
	if (err) {
		ipuxcom_close(*ipu);
		*ipu = NULL;
	}
	return err;
}

/*
 * ipuxcom_load() of @img on @ipu as a card is loaded by default: the
 * initialisation, the real capture's replay, the load; 0 or -errno (@res
 * says).
 */
static int card_load(struct ipuxcom *ipu, struct ipuxcom_image *img, uint64_t timeout_ns,
		     struct ipuxcom_load_result *res)
{
	static struct ipuxcom_cfg_record *recs;
	static uint32_t nrecs;
	struct ipuxcom_load_params p = {
		.size = sizeof(struct ipuxcom_load_params),
		.image = img, .bootloader = boot, .bootloader_size = sizeof(boot),
		.timeout_ns = timeout_ns,
	};
	char msg[256] = "";
	int err;

	if (!recs) {
		err = ixt_card_cfg(&recs, &nrecs, msg, sizeof(msg));
		if (err) {
			snprintf(res->msg, sizeof(res->msg), "%s", msg);
			return err;
		}
	}
	p.cfg = recs;
	p.cfg_count = nrecs;
	return ipuxcom_load(ipu, &p, res);
}

/* Sampled tiles' own words, read back through TDI. */
static void check_some_tiles(struct __test_metadata *_metadata, struct ipuxcom *ipu)
{
	static const uint32_t tiles[] = { 0, 1, 63, 64, 700, 1407, 1470, 1471 };

	for (size_t i = 0; i < sizeof(tiles) / sizeof(tiles[0]); i++) {
		uint32_t t = tiles[i];

		for (uint32_t k = 0; k < TILE_WORDS; k += 3) {
			uint32_t w = tile_word_index(t, k), v = 0;

			ASSERT_EQ(0, ipuxcom_tdi_read_sram(ipu, t, PAYLOAD_BASE + w * 4, &v, 1, NULL));
			ASSERT_EQ(tile_word(t, k), v) TH_LOG("tile %u word %u", t, w);
		}
	}
}

/* Raw ATTACH of @fd to @dev with @ipu_fd and the mapping at @map (@flags added). */
static int attach_with_map(int fd, uint32_t dev, int ipu_fd, const void *map, uint32_t flags)
{
	struct ipuxcom_ioc_attach at = {
		.size = sizeof(at), .flags = IPUXCOM_ATTACH_F_IPU_FD | flags, .dev_id = dev,
		.ipu_fd = ipu_fd, .cfg_map = (uintptr_t)map,
	};

	return ixt_ioctl(fd, IPUXCOM_IOC_ATTACH, &at);
}

/*
 * Raw ATTACH of @fd to @dev with @ipu_fd and its own mapping (offset 0,
 * 512 KiB, shared, read-write), unmapped afterwards (the module keeps
 * the window it found); where @ipu_fd cannot be mapped, an address
 * nothing maps.
 */
static int attach_with_fd(int fd, uint32_t dev, int ipu_fd)
{
	void *map = mmap(NULL, IPUXCOM_IPU_CFG_MAP_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
			 ipu_fd, 0);
	int ret;

	if (map == MAP_FAILED)
		return attach_with_map(fd, dev, ipu_fd, (void *)(uintptr_t)0x10000, 0);
	ret = attach_with_map(fd, dev, ipu_fd, map, 0);
	munmap(map, IPUXCOM_IPU_CFG_MAP_BYTES);
	return ret;
}

/* Wait until the stand-in's pin count of @card and the system's are back. */
static int wait_unpinned(unsigned int card, long baseline)
{
	for (int i = 0; i < 100; i++) {
		if (sc_number(card, "pinned_pages") <= 0 && ixt_pinned_pages() <= baseline)
			return 0;
		usleep(50 * 1000);
	}
	return -ETIMEDOUT;
}

/* The notes' host-exchange oracle (ixt_hsp_oracle.h): page 1 is attached first. */
static const char oracle[] =
	IXT_HSP_ORACLE;

/* The id of a simulated device, or -1 (the card lane's VM has none). */
static int first_sim_device(void)
{
	unsigned char sims[IXT_MAX_IDS];

	ixt_sim_device_ids(sims);
	for (int i = 0; i < IXT_MAX_IDS; i++)
		if (sims[i])
			return i;
	return -1;
}

/* ------------------------------------------------------------ simulated cards */

FIXTURE(standin) {
	long pinned0;
};

FIXTURE_SETUP(standin)
{
	/* ipu_driver signals the holder of a card: blocked first, as libipuxcom(3) says */
	ASSERT_EQ(0, ipuxcom_block_driver_signals());
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	if (!getenv("IPUXCOM_STANDIN_KO") || !getenv("IPUXCOM_HW_KO"))
		SKIP(return, "IPUXCOM_STANDIN_KO/IPUXCOM_HW_KO not set: the ipu_driver stand-in is for the test VM only");
	if (!ixt_c600_find(NULL, 0))
		SKIP(return, "no QEMU C600 (1d95:c600): boot the VM with run-vm.sh --c600");
	/* loaded for each test, unloaded after it: nothing outlives the binary */
	ASSERT_EQ(0, standin_load(STANDIN_PARAMS));
	ASSERT_LE(0, sc_dev_id(0));
	sc_clear_faults(0);
	self->pinned0 = ixt_pinned_pages();
	ASSERT_LE(0, self->pinned0) TH_LOG("no nr_foll_pin_* in /proc/vmstat");
}

FIXTURE_TEARDOWN(standin)
{
	if (ixt_standin_unload())
		TH_LOG("ipu_standin stays loaded");
}

TEST_F(standin, load_and_host_exchange_in_the_recorded_order)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ipuxcom_hsp_manifest m;
	struct ipuxcom_init_report rep = IPUXCOM_INIT_REPORT_INIT;
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	struct ipuxcom_device_info info;
	struct ipuxcom_errmsg em;
	struct ipuxcom_image *img;
	struct ipuxcom *ipu;
	/* the recorded step 1 exactly: the module calls nothing of ipu_driver */
	static const char *const init_order[] = {
		"USER_ATTACH", "SET_IPU_ID", "STOP_MONITORING",
		"MAILBOX_WRITE_READ", "START_MONITORING", "ACCUMULATE_ERRORS", "RESET_DEVICE",
		"SET_SECONDARY_IPU_ID",
	};
	uint8_t in[64], out[64];
	struct ipuxcom_hostx_buf ib = { in, sizeof(in) }, ob = { out, sizeof(out) };
	uint32_t words[16], back[16], tileupdr = 0;
	struct sc_log *log;
	int at, i, det, h2, h1;

	log = calloc(1, sizeof(*log));
	ASSERT_NE(NULL, log);
	img = build_image(_metadata);
	ASSERT_NE(NULL, img);
	sc_log_clear(0);
	ASSERT_EQ(0, attach_card(&ipu, 0));
	ASSERT_EQ(0, ipuxcom_dev_query(ipu, &info));
	EXPECT_STREQ("hw", info.backend);
	EXPECT_STREQ("ipu0", info.ipu_node);
	EXPECT_NE(0, info.capabilities & IPUXCOM_CAP_IPU_DRIVER);
	EXPECT_LE(0, ipuxcom_ipu_fd(ipu));

	/* HW-LOAD step 1, from driver-idle */
	ASSERT_EQ(0, ipuxcom_dev_init(ipu, &rep)) TH_LOG("%s", rep.msg);
	EXPECT_EQ(1, rep.ipu_driver);
	EXPECT_STREQ("ipu0", rep.ipu_node);
	EXPECT_EQ(1, rep.icu_reply_valid);
	EXPECT_EQ(IPU_DRV_ICU_REPLY_TAG, rep.icu_reply[0] & IPU_DRV_ICU_REPLY_MASK);

	/* the load's own session: step 1 again, the capture, the load */
	ASSERT_EQ(0, card_load(ipu, img, TIMEOUT_NS, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, ixt_state(ipuxcom_fd(ipu)));
	check_some_tiles(_metadata, ipu);
	/* TDI: the register dump, an SRAM write read back */
	{
		uint32_t regs[IPUXCOM_TDI_NREGS], w[4] = { 1, 2, 3, 4 }, r[4] = { 0 };

		ASSERT_EQ(0, ipuxcom_tdi_read_regs(ipu, 1471, regs));
		ASSERT_EQ(0, ipuxcom_tdi_write_sram(ipu, 1471, 0x70000, w, 4, NULL));
		ASSERT_EQ(0, ipuxcom_tdi_read_sram(ipu, 1471, 0x70000, r, 4, NULL));
		EXPECT_EQ(0, memcmp(w, r, sizeof(w)));
	}
	EXPECT_EQ(2, sc_stat(0, "autoload_transactions"));
	EXPECT_EQ(23, sc_stat(0, "load_batches"));
	EXPECT_EQ(24, sc_stat(0, "mark1_transactions"));
	EXPECT_EQ(1, sc_stat(0, "start_marks"));
	EXPECT_EQ(0, sc_stat(0, "rejected_batches"));
	/* HEXOPT was selected when the transport buffer was attached */
	EXPECT_EQ(0x800, sc_stat(0, "loader_attach_window") & 0x800);
	/* LOAD_FINISH and BUFFER_DETACH 0 left nothing pinned */
	EXPECT_EQ(0, sc_number(0, "pinned_pages"));
	EXPECT_EQ(self->pinned0, ixt_pinned_pages());

	/* an exchange-window store through the caller's /dev/ipu0_ex */
	for (i = 0; i < 16; i++)
		words[i] = 0xe0e00000u | (uint32_t)i;
	ASSERT_EQ(0, ipuxcom_exch_write(ipu, 0, 0x60000, words, sizeof(words), 0, &tileupdr))
		TH_LOG("%s", ipuxcom_errmsg(ipu));
	ASSERT_EQ(0, ipuxcom_tdi_read_sram(ipu, 0, 0x60000, back, 16, NULL));
	EXPECT_EQ(0, memcmp(words, back, sizeof(words)));

	/* host exchange: the oracle's write, run, read */
	ASSERT_EQ(0, ipuxcom_hsp_parse(oracle, sizeof(oracle) - 1, &m, &em)) TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_hostx_setup(ipu, &m, TIMEOUT_NS, &em)) TH_LOG("%s", em.msg);
	for (i = 0; i < 64; i++)
		in[i] = (uint8_t)(i * 7 + 3);
	memset(out, 0, sizeof(out));
	ASSERT_EQ(0, ipuxcom_hostx_call(ipu, &m, "write", &ib, 1, NULL, 0, TIMEOUT_NS, &em))
		TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_hostx_call(ipu, &m, "run", NULL, 0, NULL, 0, TIMEOUT_NS, &em))
		TH_LOG("%s", em.msg);
	ASSERT_EQ(0, ipuxcom_hostx_call(ipu, &m, "read", NULL, 0, &ob, 1, TIMEOUT_NS, &em))
		TH_LOG("%s", em.msg);
	EXPECT_EQ(0, memcmp(in, out, sizeof(in)));
	/* the two host pages: the library's and the stand-in's pins */
	EXPECT_EQ(2, sc_number(0, "pinned_pages"));
	EXPECT_EQ(self->pinned0 + 4, ixt_pinned_pages());

	/* ipu_driver's calls, in order */
	ASSERT_EQ(0, sc_log_read(0, log));
	for (i = 0; i < (int)log->n; i++)
		TH_LOG("ipu_driver: %s", log->line[i]);
	at = 0;
	for (i = 0; i < (int)(sizeof(init_order) / sizeof(init_order[0])); i++) {
		int found = log_find(log, at, init_order[i]);

		ASSERT_LE(0, found) TH_LOG("no %s after line %d", init_order[i], at);
		EXPECT_NE(NULL, strstr(log->line[found], "ret=0")) TH_LOG("%s", log->line[found]);
		if (i)	/* step 1 without anything in between */
			EXPECT_EQ(at, found) TH_LOG("%s at %d, wanted %d", init_order[i], found, at);
		at = found + 1;
	}
	EXPECT_NE(NULL, strstr(log->line[log_find(log, 0, "MAILBOX_WRITE_READ")],
			       "sent=0x4078020e reply=0x4078"));
	/* the exchange-window store began with SET_HEXOPT_IDENTITY_TABLE [S] */
	i = log_find(log, at, "SET_HEXOPT_IDENTITY_TABLE");
	EXPECT_LE(0, i);
	if (i >= 0)
		EXPECT_NE(NULL, strstr(log->line[i], "ret=0")) TH_LOG("%s", log->line[i]);
	/* the load: transport buffer 0 with HEXOPT, detached after the start */
	i = log_find(log, at, "BUFFER_ATTACH index=0 ");
	ASSERT_LE(0, i);
	EXPECT_NE(NULL, strstr(log->line[i], "size=0x2842000")) TH_LOG("%s", log->line[i]);
	det = log_find(log, i, "BUFFER_DETACH arg=0 ret=0");
	ASSERT_LT(i, det);
	/*
	 * host exchange, after the loader's buffer left index 0: page 1 at
	 * index 1, then page 0 at index 0 (index = page, as the peer)
	 */
	h2 = log_find(log, det, "BUFFER_ATTACH index=1 ");
	h1 = log_find(log, det, "BUFFER_ATTACH index=0 ");
	ASSERT_LT(det, h2);
	ASSERT_LT(h2, h1);
	/* HEXOPT (EXCHWINDOWBASER bit 11) selected when each buffer arrived */
	for (i = 0; i < (int)log->n; i++) {
		if (strncmp(log->line[i], "BUFFER_ATTACH", 13))
			continue;
		EXPECT_NE(NULL, strstr(log->line[i], "ret=0")) TH_LOG("%s", log->line[i]);
		EXPECT_NE(0, strtoul(strstr(log->line[i], "exchwindow=") + 11, NULL, 0) & 0x800)
			TH_LOG("%s", log->line[i]);
	}

	ipuxcom_close(ipu);
	EXPECT_EQ(0, wait_unpinned(0, self->pinned0));
	EXPECT_EQ(0, sc_stat(0, "holder"));
	ipuxcom_image_free(img);
	free(log);
}

TEST_F(standin, attach_needs_this_cards_ipu_node)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	uint32_t id0 = (uint32_t)sc_dev_id(0);
	struct ipuxcom_ioc_attach at = { .size = sizeof(at) };
	const size_t len = IPUXCOM_IPU_CFG_MAP_BYTES;
	int fd, nul, ro, own, mfd, sim;
	void *map, *ro_map, *mem, *off_map;
	struct sc_log *log;
	uint32_t v;

	fd = ixt_open();
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EACCES, ixt_attach(fd, id0));
	nul = open("/dev/null", O_RDWR | O_CLOEXEC);
	ro = open("/dev/ipu0", O_RDONLY | O_CLOEXEC);
	own = open("/dev/ipu0", O_RDWR | O_CLOEXEC);
	mfd = (int)syscall(SYS_memfd_create, "not_ipu", MFD_CLOEXEC);
	ASSERT_LE(0, nul);
	ASSERT_LE(0, ro);
	ASSERT_LE(0, own);
	ASSERT_LE(0, mfd);
	ASSERT_EQ(0, ftruncate(mfd, (off_t)len));
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, own, 0);
	ro_map = mmap(NULL, len, PROT_READ, MAP_SHARED, own, 0);
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	/* the config window is exactly 512 KiB here: a page of it past offset 0 */
	off_map = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED, own, 0x1000);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_NE(MAP_FAILED, ro_map);
	ASSERT_NE(MAP_FAILED, mem);
	ASSERT_NE(MAP_FAILED, off_map);
	EXPECT_EQ(-EXDEV, attach_with_fd(fd, id0, nul));
	EXPECT_EQ(-EBADF, attach_with_fd(fd, id0, ro));
	EXPECT_EQ(-EBADF, attach_with_fd(fd, id0, 1000));
	/* the mapping must be that very file's, at offset 0, shared and read-write */
	EXPECT_EQ(-EXDEV, attach_with_map(fd, id0, own, mem, 0));
	EXPECT_EQ(-EXDEV, attach_with_map(fd, id0, mfd, mem, 0));
	EXPECT_EQ(-EXDEV, attach_with_map(fd, id0, own, off_map, 0));
	EXPECT_EQ(-EACCES, attach_with_map(fd, id0, own, ro_map, 0));
	EXPECT_EQ(-EXDEV, attach_with_map(fd, id0, own, (void *)(uintptr_t)0x10000, 0));
	/* past its end: the window is not covered */
	EXPECT_EQ(-EXDEV, attach_with_map(fd, id0, own, (char *)map + 0x1000, 0));
	EXPECT_EQ(-EINVAL, attach_with_map(fd, id0, own, (char *)map + 4, 0));
	EXPECT_EQ(-EINVAL, attach_with_map(fd, id0, own, NULL, 0));
	/* members without their flag */
	at.dev_id = id0;
	at.cfg_map = (uintptr_t)map;
	EXPECT_EQ(-EINVAL, ixt_ioctl(fd, IPUXCOM_IOC_ATTACH, &at));
	at.cfg_map = 0;
	at.flags = IPUXCOM_ATTACH_F_PROBE;
	EXPECT_EQ(-EINVAL, ixt_ioctl(fd, IPUXCOM_IOC_ATTACH, &at));
	at.flags = IPUXCOM_ATTACH_F_IPU_FD;
	at.ipu_fd = own;
	at.cfg_map = (uintptr_t)map;
	at.ex_fd = own;
	EXPECT_EQ(-EINVAL, ixt_ioctl(fd, IPUXCOM_IOC_ATTACH, &at));
	at.ex_fd = 0;
	at.reserved = 1;
	EXPECT_EQ(-EINVAL, ixt_ioctl(fd, IPUXCOM_IOC_ATTACH, &at));
	/* nothing was attached by any of these */
	EXPECT_EQ(-ENOTCONN, ixt_reg_read(fd, 0x302c, &v));
	/* the sim's plain devices refuse the flag (where the simulator is loaded) */
	sim = first_sim_device();
	if (sim >= 0)
		EXPECT_EQ(-EINVAL, attach_with_map(fd, (uint32_t)sim, own, map, 0));
	/* the probe says whose it is, and attaches nothing */
	EXPECT_EQ(0, attach_with_map(fd, id0, own, map, IPUXCOM_ATTACH_F_PROBE));
	EXPECT_EQ(-ENOTCONN, ixt_reg_read(fd, 0x302c, &v));
	/*
	 * Nobody holds the card in ipu_driver: the module asks ipu_driver
	 * nothing (no ioctl on the node), the mapping alone is what it
	 * checks, and the card answers through the window it found.
	 */
	sc_log_clear(0);
	EXPECT_EQ(0, attach_with_map(fd, id0, own, map, 0));
	EXPECT_EQ(0, ixt_reg_read(fd, 0x302c, &v));
	log = calloc(1, sizeof(*log));
	ASSERT_NE(NULL, log);
	ASSERT_EQ(0, sc_log_read(0, log));
	EXPECT_EQ(0, log->n) TH_LOG("the module called ipu_driver: %s", log->n ? log->line[0] : "");
	free(log);
	EXPECT_EQ(0, sc_stat(0, "holder"));
	close(fd);
	munmap(map, len);
	munmap(ro_map, len);
	munmap(mem, len);
	munmap(off_map, 0x1000);
	close(own);
	close(mfd);
	close(nul);
	close(ro);
}

TEST_F(standin, second_ipu_driver_user_excluded)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ipuxcom *ipu, *second;
	int other;

	ASSERT_EQ(0, attach_card(&ipu, 0));
	other = open("/dev/ipu0", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, other);
	EXPECT_EQ(-EBUSY, ixt_ioctl(other, IPU_DRV_USER_ATTACH, 0));
	EXPECT_EQ(-EPERM, ixt_ioctl(other, IPU_DRV_RESET_DEVICE, 0));
	EXPECT_EQ(-EPERM, ixt_ioctl(other, IPU_DRV_BUFFER_DETACH_ALL, 0));
	/* and so is the library's attach */
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), &second));
	EXPECT_EQ(-EBUSY, ipuxcom_attach(second, (uint32_t)sc_dev_id(0)));
	ipuxcom_close(second);
	ipuxcom_close(ipu);
	/* the session ended with the last reference: the card is free */
	EXPECT_EQ(0, ixt_ioctl(other, IPU_DRV_USER_ATTACH, 0));
	close(other);
}

/*
 * What ATTACH grants is what the caller's own mapping of the card already
 * reaches: whoever holds USER_ATTACH is ipu_driver's business (the
 * library takes it, as the record does), and the module keeps the
 * descriptor, so the ipu_driver session of a library attach lasts as long
 * as the ipuxcom one.
 */
TEST_F(standin, attach_keeps_the_drivers_session)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ipuxcom *ipu;
	int other, dupfd;
	uint32_t v;

	ASSERT_EQ(0, attach_card(&ipu, 0));
	other = open("/dev/ipu0", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, other);
	/* the library took USER_ATTACH on its descriptor: the card is held */
	EXPECT_EQ(-EBUSY, ixt_ioctl(other, IPU_DRV_USER_ATTACH, 0));
	EXPECT_EQ(1, sc_stat(0, "holder"));
	/*
	 * A dup of the ipuxcom file outlives the handle: the module's
	 * reference keeps the library's /dev/ipu0 open, and with it the
	 * driver's session, until that file goes too.
	 */
	dupfd = dup(ipuxcom_fd(ipu));
	ASSERT_LE(0, dupfd);
	ipuxcom_close(ipu);
	EXPECT_EQ(-EBUSY, ixt_ioctl(other, IPU_DRV_USER_ATTACH, 0));
	EXPECT_EQ(1, sc_stat(0, "holder"));
	EXPECT_EQ(0, ixt_reg_read(dupfd, 0x302c, &v));
	close(dupfd);
	EXPECT_EQ(0, ixt_ioctl(other, IPU_DRV_USER_ATTACH, 0));
	close(other);
}

/* A load that stops at batch 0 with the transport buffer attached. */
static void stuck_load(struct __test_metadata *_metadata, struct ipuxcom *ipu,
		       struct ipuxcom_image *img, unsigned int card)
{
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;

	ASSERT_EQ(0, sc_knob(card, "stuck_mark", 1));
	EXPECT_EQ(-ETIMEDOUT, card_load(ipu, img, 20ULL * 1000 * 1000, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_BATCH, res.step) TH_LOG("%s", res.msg);
	ASSERT_EQ(0, sc_knob(card, "stuck_mark", 0));
	/* ipu_driver's pins and the module's */
	EXPECT_EQ(XBUF_PAGES, sc_number(card, "pinned_pages"));
}

TEST_F(standin, no_pins_after_close_reset_or_removal)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ipuxcom_image *img = build_image(_metadata);
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	struct ipuxcom *ipu;
	char pci[300];
	uint32_t v;

	ASSERT_NE(NULL, img);
	/* close */
	ASSERT_EQ(0, attach_card(&ipu, 0));
	stuck_load(_metadata, ipu, img, 0);
	EXPECT_LE(self->pinned0 + 2 * XBUF_PAGES, ixt_pinned_pages());
	ipuxcom_close(ipu);
	EXPECT_EQ(0, wait_unpinned(0, self->pinned0));

	/*
	 * reset: the whole initialisation through the library (RESET_DEVICE
	 * alone is a notify: the ICU mailbox message resets), then the
	 * module's RESET
	 */
	ASSERT_EQ(0, attach_card(&ipu, 0));
	stuck_load(_metadata, ipu, img, 0);
	sc_log_clear(0);
	ASSERT_EQ(0, ipuxcom_reset(ipu, NULL)) TH_LOG("%s", ipuxcom_errmsg(ipu));
	{
		static const char *const order[] = {
			"BUFFER_DETACH_ALL", "STOP_MONITORING", "MAILBOX_WRITE_READ",
			"START_MONITORING", "ACCUMULATE_ERRORS", "RESET_DEVICE",
			"SET_SECONDARY_IPU_ID",
		};
		struct sc_log *log = calloc(1, sizeof(*log));
		int at = 0;

		ASSERT_NE(NULL, log);
		ASSERT_EQ(0, sc_log_read(0, log));
		for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
			int found = log_find(log, (unsigned int)at, order[k]);

			EXPECT_LE(0, found) TH_LOG("reset: no %s after line %d", order[k], at);
			if (found >= 0)
				at = found + 1;
		}
		free(log);
	}
	EXPECT_EQ(0, sc_number(0, "pinned_pages"));
	EXPECT_EQ(self->pinned0, ixt_pinned_pages());
	/*
	 * and the card loads again, initialised first (the load's session):
	 * RESET_DEVICE only notifies ipu_driver, the card is reset by the ICU
	 * mailbox message (HW-DRV-INIT)
	 */
	ASSERT_EQ(0, card_load(ipu, img, TIMEOUT_NS, &res)) TH_LOG("%s", res.msg);
	ipuxcom_close(ipu);
	EXPECT_EQ(0, wait_unpinned(0, self->pinned0));

	/* the card leaves ipu_driver (sysfs unbind) under the session */
	ASSERT_TRUE(ixt_c600_find(pci, sizeof(pci)));
	ASSERT_EQ(0, attach_card(&ipu, 0));
	stuck_load(_metadata, ipu, img, 0);
	ASSERT_EQ(0, ixt_write_sysfs("/sys/bus/pci/drivers/ipu_driver/unbind", strrchr(pci, '/') + 1));
	EXPECT_EQ(self->pinned0, ixt_pinned_pages());
	EXPECT_EQ(-ENODEV, ipuxcom_reg_read(ipu, 0x3044, &v));
	EXPECT_EQ(-ENODEV, ixt_ioctl(ipuxcom_ipu_fd(ipu), IPU_DRV_BUFFER_DETACH_ALL, 0));
	ipuxcom_close(ipu);
	EXPECT_EQ(self->pinned0, ixt_pinned_pages());
	ASSERT_EQ(0, ixt_write_sysfs("/sys/bus/pci/drivers/ipu_driver/bind", strrchr(pci, '/') + 1));
	ASSERT_LE(0, sc_dev_id(0));
	ASSERT_EQ(0, attach_card(&ipu, 0));
	EXPECT_EQ(0, ipuxcom_dev_init(ipu, NULL));
	ipuxcom_close(ipu);
	ipuxcom_image_free(img);
}

TEST_F(standin, sigkill_mid_load_leaves_no_pins)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ipuxcom_image *img = build_image(_metadata);
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	struct ipuxcom *ipu;
	int status, i;
	pid_t pid;

	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, sc_knob(0, "stuck_mark", 1));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (attach_card(&ipu, 0))
			_exit(2);
		/* waits for the mark (killable) with the buffer pinned */
		card_load(ipu, img, 60ULL * 1000 * 1000 * 1000, &res);
		_exit(3);
	}
	for (i = 0; i < 400 && sc_number(0, "pinned_pages") < XBUF_PAGES; i++)
		usleep(25 * 1000);
	EXPECT_EQ(XBUF_PAGES, sc_number(0, "pinned_pages"));
	usleep(100 * 1000);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(0, wait_unpinned(0, self->pinned0));
	EXPECT_EQ(0, sc_stat(0, "holder"));
	ASSERT_EQ(0, sc_knob(0, "stuck_mark", 0));
	/* the card is reusable after ipu_driver's reset (the load's session) */
	ASSERT_EQ(0, attach_card(&ipu, 0));
	ASSERT_EQ(0, card_load(ipu, img, TIMEOUT_NS, &res)) TH_LOG("%s", res.msg);
	check_some_tiles(_metadata, ipu);
	ipuxcom_close(ipu);
	EXPECT_EQ(0, wait_unpinned(0, self->pinned0));
	ipuxcom_image_free(img);
}

/*
 * The real capture replayed through the stand-in, its GS1/GS2 records
 * handled as the modes say: it ends with GS2 = 1, GS1 = 1 (HW-LOAD step
 * 2); cleared, the load runs; replayed, batch 0 finds GS1 pending.
 */
TEST_F(standin, cfg_gs_modes)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ipuxcom_load_params p = {
		.size = sizeof(struct ipuxcom_load_params),
		.bootloader = boot, .bootloader_size = sizeof(boot), .timeout_ns = TIMEOUT_NS,
	};
	struct ipuxcom_image *img = build_image(_metadata);
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	struct ipuxcom_cfg_record *cfg = NULL;
	struct ipuxcom *ipu;
	char msg[256] = "";
	uint32_t n = 0;

	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, ixt_card_cfg(&cfg, &n, msg, sizeof(msg))) TH_LOG("%s", msg);
	p.image = img;
	p.cfg = cfg;
	p.cfg_count = n;
	ASSERT_EQ(0, attach_card(&ipu, 0));
	p.cfg_hsp = IPUXCOM_CFG_HSP_CLEAR;
	EXPECT_EQ(0, ipuxcom_load(ipu, &p, &res)) TH_LOG("%s", res.msg);
	p.cfg_hsp = IPUXCOM_CFG_HSP_REPLAY;
	EXPECT_EQ(-EBUSY, ipuxcom_load(ipu, &p, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(IPUXCOM_LOAD_STEP_BATCH, res.step);
	EXPECT_EQ(0, sc_stat(0, "load_batches"));
	ipuxcom_close(ipu);
	EXPECT_EQ(0, wait_unpinned(0, self->pinned0));
	ipuxcom_image_free(img);
	free(cfg);
}

/*
 * `ipuxcom load --init -c` through the stand-in, its config-BAR writes
 * captured at the tracepoint (`ipuxcom cfg capture`): the real capture's
 * records before the autoloader, the seed's autoloader words, HEXOPT
 * before the load arms the controls (ipu_driver's
 * log shows the transport buffer arrived in between, with HEXOPT
 * selected), one HEXOPT write for every BUFFER_ATTACH, 24 mark-1
 * transactions and the start mark.
 */
TEST_F_TIMEOUT(standin, cli_load_captured, 120)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	const char *tool = getenv("IPUXCOM_TOOL") ? getenv("IPUXCOM_TOOL") : "ipuxcom";
	char img_path[64], boot_path[64], out[64], dev[16];
	struct ipuxcom_cfg_record *r = NULL;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	struct sc_log *log;
	struct ixt_run *run;
	uint32_t n = 0, hexopts = 0, attaches = 0, i;
	int data0, arm, buf0;
	void *file = NULL;
	size_t len = 0;

	if (access("/sys/kernel/tracing/events/ipuxcom", F_OK))
		SKIP(return, "no tracefs with the ipuxcom tracepoints");
	log = calloc(1, sizeof(*log));
	run = calloc(1, sizeof(*run));
	ASSERT_NE(NULL, log);
	ASSERT_NE(NULL, run);
	snprintf(img_path, sizeof(img_path), "/tmp/ipudrv.%d.ipuimg", (int)getpid());
	snprintf(boot_path, sizeof(boot_path), "/tmp/ipudrv.%d.boot", (int)getpid());
	snprintf(out, sizeof(out), "/tmp/ipudrv.%d.ipucfg", (int)getpid());
	snprintf(dev, sizeof(dev), "%ld", sc_dev_id(0));
	img = build_image_file(_metadata, &file, &len);
	ASSERT_NE(NULL, img);
	ipuxcom_image_free(img);
	ASSERT_EQ(0, ixt_write_file(img_path, file, len));
	free(file);
	ASSERT_EQ(0, ixt_write_file(boot_path, boot, sizeof(boot)));
	sc_log_clear(0);
	{
		char *const argv[] = {
			(char *)tool, "cfg", "capture", "--dev", dev, "-o", out, "--",
			(char *)tool, "load", img_path, "-b", boot_path, "--dev", dev, "--init",
			"-c", (char *)ixt_card_cfg_path(), "-q", NULL,
		};

		ASSERT_NE(NULL, ixt_card_cfg_path()) TH_LOG("IPUXCOM_CARD_CFG not set");
		ASSERT_EQ(0, ixt_run(argv, run));
	}
	EXPECT_EQ(0, run->status) TH_LOG("stdout: %s\nstderr: %s", run->out, run->err);
	ASSERT_EQ(0, ipuxcom_cfg_load(out, &r, &n, &em)) TH_LOG("%s", em.msg);
	unlink(img_path);
	unlink(boot_path);
	unlink(out);

	/* the autoloader's data words are the bootloader's */
	data0 = -1;
	for (i = 0; i < n && data0 < 0; i++)
		if (r[i].offset == REC_AUTOLDDATAR)
			data0 = (int)i;
	ASSERT_LE(0, data0);
	for (i = 0; i < 256; i++) {
		uint32_t want = (uint32_t)boot[i * 4] | boot[i * 4 + 1] << 8 |
				boot[i * 4 + 2] << 16 | (uint32_t)boot[i * 4 + 3] << 24;

		ASSERT_EQ(REC_AUTOLDDATAR, r[data0 + i].offset) TH_LOG("data word %u", i);
		ASSERT_EQ(want, r[data0 + i].value) TH_LOG("data word %u", i);
	}
	/*
	 * HEXOPT, then (the buffer arrives, see the log) the load arms the
	 * controls (the capture arms them too, before the autoloader: its
	 * records 291-306)
	 */
	{
		struct ipuxcom_cfg_record *c = NULL;
		char msg[256] = "";
		uint32_t nc = 0;

		int at;

		ASSERT_EQ(0, ixt_card_cfg(&c, &nc, msg, sizeof(msg))) TH_LOG("%s", msg);
		at = ixt_expect_capture_then_autoloader(_metadata, "tracepoint", r, n, c, nc,
							IPUXCOM_CFG_HSP_CLEAR);
		EXPECT_LE(0, at);
		EXPECT_EQ(at + 1, data0);
		free(c);
	}
	arm = -1;
	for (i = 0; i < n; i++) {
		if (r[i].offset == REC_EXCHWINDOWBASER && r[i].value == 0x800)
			hexopts++;
		if (arm < 0 && i > (uint32_t)data0 && r[i].offset == REC_DCXCR_SEC(0) &&
		    r[i].value == REC_DCXCR_LOADING)
			arm = (int)i;
	}
	ASSERT_LE(0, arm);
	for (i = (uint32_t)data0; i < (uint32_t)arm; i++)
		if (r[i].offset == REC_EXCHWINDOWBASER && r[i].value == 0x800)
			break;
	EXPECT_LT(i, (uint32_t)arm) TH_LOG("no HEXOPT before the controls were armed");
	{
		uint32_t m1 = 0, m23 = 0;

		for (i = 0; i < n; i++) {
			m1 += r[i].offset == REC_GS1 && r[i].value == 1;
			m23 += r[i].offset == REC_GS1 && r[i].value == 23;
		}
		EXPECT_EQ(24, m1);
		EXPECT_EQ(1, m23);
	}
	/* ipu_driver: step 1, then the transport buffer with HEXOPT */
	ASSERT_EQ(0, sc_log_read(0, log));
	ASSERT_LE(0, log_find(log, 0, "SET_SECONDARY_IPU_ID"));
	buf0 = log_find(log, 0, "BUFFER_ATTACH index=0 ");
	ASSERT_LT(log_find(log, 0, "SET_SECONDARY_IPU_ID"), buf0);
	EXPECT_NE(NULL, strstr(log->line[buf0], "exchwindow=0x800 ret=0")) TH_LOG("%s", log->line[buf0]);
	EXPECT_LT(buf0, log_find(log, buf0, "BUFFER_DETACH arg=0 ret=0"));
	for (i = 0; i < log->n; i++)
		attaches += !strncmp(log->line[i], "BUFFER_ATTACH", 13);
	EXPECT_LE(attaches, hexopts);
	EXPECT_EQ(23, sc_stat(0, "load_batches"));
	EXPECT_EQ(0, wait_unpinned(0, self->pinned0));
	free(r);
	free(log);
	free(run);
}

/* The stand-in's own rules (its header comment), so the tests above mean what they say. */
TEST_F(standin, standin_abi_subset)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	size_t bytes = 4 * 4096;
	uint8_t *mem = ixt_buf_alloc(bytes), *ro;
	struct ipu_drv_buffer b = { .index = 3, .size = (uint32_t)bytes };
	int fd = open("/dev/ipu0", O_RDWR | O_CLOEXEC), ex;
	void *map;

	ASSERT_NE(NULL, mem);
	ASSERT_LE(0, fd);
	b.addr = (uintptr_t)mem;
	/* nothing but USER_ATTACH before USER_ATTACH */
	EXPECT_EQ(-EPERM, ixt_ioctl(fd, IPU_DRV_BUFFER_ATTACH, &b));
	EXPECT_EQ(0, ixt_ioctl(fd, IPU_DRV_USER_ATTACH, 0));
	EXPECT_EQ(0, ixt_ioctl(fd, IPU_DRV_USER_ATTACH, 0));	/* again: still ours */
	EXPECT_EQ(0, ixt_ioctl(fd, IPU_DRV_BUFFER_ATTACH, &b));
	EXPECT_EQ(4, sc_number(0, "pinned_pages"));
	EXPECT_EQ(-EEXIST, ixt_ioctl(fd, IPU_DRV_BUFFER_ATTACH, &b));
	b.index = 17;
	EXPECT_EQ(-EINVAL, ixt_ioctl(fd, IPU_DRV_BUFFER_ATTACH, &b));
	b.index = 4;
	b.addr = (uintptr_t)mem + 8;
	EXPECT_EQ(-EINVAL, ixt_ioctl(fd, IPU_DRV_BUFFER_ATTACH, &b));
	b.addr = (uintptr_t)mem;
	b.size = 100;
	EXPECT_EQ(-EINVAL, ixt_ioctl(fd, IPU_DRV_BUFFER_ATTACH, &b));
	/* read-only memory cannot be pinned for the device to write */
	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	b.addr = (uintptr_t)ro;
	b.size = 4096;
	EXPECT_EQ(-EFAULT, ixt_ioctl(fd, IPU_DRV_BUFFER_ATTACH, &b));
	munmap(ro, 4096);
	EXPECT_EQ(-ENOENT, ixt_ioctl(fd, IPU_DRV_BUFFER_DETACH, (void *)4));
	EXPECT_EQ(-EINVAL, ixt_ioctl(fd, IPU_DRV_BUFFER_DETACH, (void *)17));
	EXPECT_EQ(0, ixt_ioctl(fd, IPU_DRV_BUFFER_DETACH, (void *)3));
	EXPECT_EQ(0, sc_number(0, "pinned_pages"));
	EXPECT_EQ(-ENOTTY, ixt_ioctl(fd, _IO(IPU_DRV_IOC_MAGIC, 99), 0));
	EXPECT_EQ(-ENOTTY, ixt_ioctl(fd, _IO('x', 1), 0));
	/* release drops what is attached */
	b.addr = (uintptr_t)mem;
	b.index = 5;
	b.size = (uint32_t)bytes;
	EXPECT_EQ(0, ixt_ioctl(fd, IPU_DRV_BUFFER_ATTACH, &b));
	close(fd);
	EXPECT_EQ(0, sc_number(0, "pinned_pages"));
	EXPECT_EQ(0, sc_stat(0, "holder"));
	/* /dev/ipu0_ex: shared mappings of the exchange BAR (2 MiB, datasheet), no ioctls */
	ex = open("/dev/ipu0_ex", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, ex);
	EXPECT_EQ(-ENOTTY, ixt_ioctl(ex, IPU_DRV_USER_ATTACH, 0));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, ex, 0));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 0x200000 + 4096, PROT_READ, MAP_SHARED, ex, 0));
	map = mmap(NULL, 0x80000 + 624 * 1024, PROT_READ | PROT_WRITE, MAP_SHARED, ex, 0);
	EXPECT_NE(MAP_FAILED, map);
	if (map != MAP_FAILED)
		munmap(map, 0x80000 + 624 * 1024);
	close(ex);
	munmap(mem, bytes);
}

/*
 * EXCH_WRITE SELECT holds the exchange window for the caller's stores
 * until COMPLETE: a second SELECT, BUF_ATTACH, LOAD_FINISH and HOSTX_SETUP
 * BEGIN are refused with -EBUSY and leave EXCHWINDOWBASER as SELECT set
 * it; COMPLETE puts back the window found before SELECT (HEXOPT here).
 */
TEST_F(standin, exch_select_holds_the_window)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ipuxcom_ioc_exch_write ew = {
		.size = sizeof(ew), .flags = IPUXCOM_EXCH_F_SELECT, .tile = 5, .addr = 0x60000,
		.bytes = 64, .timeout_ns = TIMEOUT_NS,
	};
	struct ipuxcom_ioc_load_finish lf = { .size = sizeof(lf), .timeout_ns = TIMEOUT_NS };
	struct ipuxcom_ioc_hostx_setup hs = {
		.size = sizeof(hs), .flags = IPUXCOM_HOSTX_F_BEGIN, .npages = 1,
		.timeout_ns = TIMEOUT_NS, .page_bytes = { 4096 },
	};
	size_t exlen = 0x80000 + 624 * 1024;
	void *page = ixt_buf_alloc(4096);
	volatile uint32_t *dst;
	struct ipuxcom *ipu;
	uint32_t v = 0;
	uint8_t *ex;
	int fd, exfd;

	ASSERT_NE(NULL, page);
	ASSERT_EQ(0, attach_card(&ipu, 0));
	fd = ipuxcom_fd(ipu);
	ASSERT_EQ(0, ixt_ioctl(ipuxcom_ipu_fd(ipu), IPU_DRV_SET_HEXOPT_IDENTITY_TABLE, 0));
	exfd = open("/dev/ipu0_ex", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, exfd);
	ex = mmap(NULL, exlen, PROT_READ | PROT_WRITE, MAP_SHARED, exfd, 0);
	ASSERT_NE(MAP_FAILED, ex);
	ASSERT_EQ(0, ipuxcom_reg_write(ipu, REC_EXCHWINDOWBASER, 0x800));

	ASSERT_EQ(0, ixt_ioctl(fd, IPUXCOM_IOC_EXCH_WRITE, &ew));
	ASSERT_EQ(0, ipuxcom_reg_read(ipu, REC_EXCHWINDOWBASER, &v));
	EXPECT_EQ(5u, v);
	/* a second SELECT would save tile 5's window as the one to restore */
	ew.tile = 6;
	EXPECT_EQ(-EBUSY, ixt_ioctl(fd, IPUXCOM_IOC_EXCH_WRITE, &ew));
	ew.tile = 5;
	/* what selects HEXOPT waits for COMPLETE */
	EXPECT_EQ(-EBUSY, ixt_buf_attach(fd, IPUXCOM_BUF_SLOT_LOADER, page, 4096));
	EXPECT_EQ(-EBUSY, ixt_ioctl(fd, IPUXCOM_IOC_LOAD_FINISH, &lf));
	EXPECT_EQ(-EBUSY, ixt_ioctl(fd, IPUXCOM_IOC_HOSTX_SETUP, &hs));
	ASSERT_EQ(0, ipuxcom_reg_read(ipu, REC_EXCHWINDOWBASER, &v));
	EXPECT_EQ(5u, v) TH_LOG("the window moved under the caller's stores");

	/* the caller's store, then COMPLETE: HEXOPT again */
	dst = (volatile uint32_t *)(ex + IPU_DRV_EXCH_WINDOW_OFFSET + (ew.addr - 0x4c000));
	for (uint32_t i = 0; i < ew.bytes / 4; i++)
		dst[i] = 0xe5e50000u | i;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	ew.flags = IPUXCOM_EXCH_F_COMPLETE;
	EXPECT_EQ(0, ixt_ioctl(fd, IPUXCOM_IOC_EXCH_WRITE, &ew)) TH_LOG("TILEUPDR 0x%x", ew.tileupdr);
	ASSERT_EQ(0, ipuxcom_reg_read(ipu, REC_EXCHWINDOWBASER, &v));
	EXPECT_EQ(0x800u, v);
	/* and once it is done, BUF_ATTACH goes through */
	EXPECT_EQ(0, ixt_buf_attach(fd, IPUXCOM_BUF_SLOT_LOADER, page, 4096));
	munmap(ex, exlen);
	close(exfd);
	ipuxcom_close(ipu);
	EXPECT_EQ(0, wait_unpinned(0, self->pinned0));
	munmap(page, 4096);
}

/* ipu_driver refuses the buffer: the library takes the module's pin back. */
TEST_F(standin, refused_buffer_attach_leaves_no_pins)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ipuxcom_image *img = build_image(_metadata);
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	struct ipuxcom *ipu;

	ASSERT_NE(NULL, img);
	ASSERT_EQ(0, attach_card(&ipu, 0));
	ASSERT_EQ(0, sc_knob(0, "attach_error", ENOMEM));
	EXPECT_EQ(-ENOMEM, card_load(ipu, img, TIMEOUT_NS, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_XBUF, res.step) TH_LOG("%s", res.msg);
	EXPECT_NE(NULL, strstr(res.msg, "BUFFER_ATTACH")) TH_LOG("%s", res.msg);
	EXPECT_EQ(self->pinned0, ixt_pinned_pages());
	ASSERT_EQ(0, sc_knob(0, "attach_error", 0));
	/* and the load goes through after a reset (the load's session) */
	EXPECT_EQ(0, card_load(ipu, img, TIMEOUT_NS, &res)) TH_LOG("%s", res.msg);
	ipuxcom_close(ipu);
	EXPECT_EQ(0, wait_unpinned(0, self->pinned0));
	ipuxcom_image_free(img);
}

/* A bad ICU reply stops the initialisation at its step, with the words. */
TEST_F(standin, bad_icu_reply_refused)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ipuxcom_init_report rep = IPUXCOM_INIT_REPORT_INIT;
	struct ipuxcom *ipu;

	ASSERT_EQ(0, attach_card(&ipu, 0));
	ASSERT_EQ(0, sc_knob(0, "bad_mailbox", 1));
	EXPECT_EQ(-EPROTO, ipuxcom_dev_init(ipu, &rep));
	EXPECT_EQ(IPUXCOM_INIT_STEP_ICU_RESET, rep.failed_step) TH_LOG("%s", rep.msg);
	EXPECT_EQ(0xdead4078u, rep.icu_reply[0]);
	ASSERT_EQ(0, sc_knob(0, "bad_mailbox", 0));
	EXPECT_EQ(0, ipuxcom_dev_init(ipu, &rep)) TH_LOG("%s", rep.msg);
	ipuxcom_close(ipu);
}

/* ------------------------------------------------------------ the C600 through ipuxcom_hw */

#define hw_dev_id		ixt_hw_dev_id
#define wait_path		ixt_wait_path
#define qemu_monitor		ixt_qemu_monitor

/* Attach to the hw device through the library; a register write reads back. */
static void c600_session(struct __test_metadata *_metadata, struct ipuxcom **ipu)
{
	struct ipuxcom_device_info info;
	long id = hw_dev_id();
	uint32_t v = 0;
	int fd;

	ASSERT_LE(0, id) TH_LOG("ipuxcom_hw registered no device for the C600");
	/* without the card's /dev/ipuN: refused */
	fd = ixt_open();
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EACCES, ixt_attach(fd, (uint32_t)id));
	close(fd);
	ASSERT_EQ(0, ipuxcom_open(ixt_dev_path(), ipu));
	ASSERT_EQ(0, ipuxcom_attach(*ipu, (uint32_t)id)) TH_LOG("%s", ipuxcom_errmsg(*ipu));
	ASSERT_EQ(0, ipuxcom_dev_query(*ipu, &info));
	EXPECT_STREQ("hw", info.backend);
	EXPECT_STREQ("ipu0", info.ipu_node);
	/* HEXOPT written and read back through the MMIO path [RE] */
	ASSERT_EQ(0, ipuxcom_reg_write(*ipu, REC_EXCHWINDOWBASER, 0x800));
	ASSERT_EQ(0, ipuxcom_reg_read(*ipu, REC_EXCHWINDOWBASER, &v));
	EXPECT_EQ(0x800u, v);
}

/* 16 pages attached through ipu_driver's BUFFER_ATTACH on the session's /dev/ipuN. */
static void *c600_pin(struct __test_metadata *_metadata, struct ipuxcom *ipu, long base)
{
	void *buf = ixt_buf_alloc(16 * 4096);
	struct ipu_drv_buffer b = { .index = 3, .size = 16 * 4096 };

	if (!buf)
		return NULL;
	memset(buf, 1, 16 * 4096);
	b.addr = (uintptr_t)buf;
	EXPECT_EQ(0, ixt_ioctl(ipuxcom_ipu_fd(ipu), IPU_DRV_BUFFER_ATTACH, &b));
	EXPECT_EQ(base + 16, ixt_pinned_pages());
	return buf;
}

/* Booted with KASAN options (the debug-kernel lane, make check-debug)? */
static bool kernel_has_kasan(void)
{
	char line[4096] = "";
	FILE *f = fopen("/proc/cmdline", "re");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	return strstr(line, "kasan.") != NULL;
}

TEST(c600_through_ipuxcom_hw)
{
	const char *hw_ko = getenv("IPUXCOM_HW_KO");
	char pci[300], drv[400], bdf[300], path[400];
	struct ipuxcom *ipu;
	long base;
	void *buf;
	uint32_t v;

	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	if (!getenv("IPUXCOM_STANDIN_KO") || !hw_ko)
		SKIP(return, "IPUXCOM_STANDIN_KO/IPUXCOM_HW_KO not set: test VM only");
	if (!ixt_c600_find(pci, sizeof(pci)))
		SKIP(return, "no QEMU C600 (1d95:c600): boot the VM with run-vm.sh --c600");
	snprintf(bdf, sizeof(bdf), "%s", strrchr(pci, '/') + 1);
	snprintf(drv, sizeof(drv), "%s/driver", pci);

	/* the stand-in first, then ipuxcom_hw: found by its scan */
	ASSERT_EQ(0, standin_load(STANDIN_PARAMS));
	ASSERT_EQ(0, wait_path(drv, true, 20));
	snprintf(path, sizeof(path), "%s/misc/ipu0", pci);
	EXPECT_EQ(0, access(path, F_OK)) TH_LOG("/dev/ipu0 is not a child of %s", pci);

	/* a session with a buffer pinned by ipu_driver; then sysfs unbind under it */
	base = ixt_pinned_pages();
	c600_session(_metadata, &ipu);
	buf = c600_pin(_metadata, ipu, base);
	ASSERT_EQ(0, ixt_write_sysfs("/sys/bus/pci/drivers/ipu_driver/unbind", bdf));
	EXPECT_EQ(-ENODEV, ipuxcom_reg_read(ipu, 0, &v));
	EXPECT_EQ(-ENODEV, ixt_ioctl(ipuxcom_ipu_fd(ipu), IPU_DRV_BUFFER_DETACH_ALL, 0));
	EXPECT_EQ(base, ixt_pinned_pages());
	ipuxcom_close(ipu);
	munmap(buf, 16 * 4096);
	EXPECT_EQ(-1, hw_dev_id());
	/* bound again: followed through ipuxcom_hw's notifier */
	ASSERT_EQ(0, ixt_write_sysfs("/sys/bus/pci/drivers/ipu_driver/bind", bdf));
	c600_session(_metadata, &ipu);

	/* QEMU device_del under the session, through run-vm.sh */
	if (getenv("IPUXCOM_QEMU_MONITOR")) {
		buf = c600_pin(_metadata, ipu, base);
		qemu_monitor("device_del " IXT_C600_QEMU_ID);
		ASSERT_EQ(0, wait_path(pci, false, 300)) TH_LOG("C600 not removed");
		EXPECT_EQ(-ENODEV, ipuxcom_reg_read(ipu, 0, &v));
		EXPECT_EQ(base, ixt_pinned_pages());
		ipuxcom_close(ipu);
		munmap(buf, 16 * 4096);
		if (kernel_has_kasan()) {
			/* as before for edu: the re-add is checked in the normal lane */
			TH_LOG("KASAN kernel: C600 re-add and reload checked in the normal lane only");
			ASSERT_EQ(0, ixt_standin_unload());
			return;
		}
		qemu_monitor(IXT_C600_QEMU_ADD);
		ASSERT_EQ(0, wait_path(pci, true, 300)) TH_LOG("C600 not back");
		ASSERT_EQ(0, wait_path(drv, true, 50));
		c600_session(_metadata, &ipu);
	} else {
		TH_LOG("no QEMU monitor relay (IPUXCOM_QEMU_MONITOR): device_del not tried");
	}
	ipuxcom_close(ipu);

	/* reload both, the other way round: followed through the notifier */
	ASSERT_EQ(0, ixt_standin_unload());
	ASSERT_EQ(0, ixt_load_module(hw_ko, ""));
	EXPECT_EQ(-1, hw_dev_id());
	ASSERT_EQ(0, ixt_load_module(getenv("IPUXCOM_STANDIN_KO"), STANDIN_PARAMS));
	ASSERT_EQ(0, wait_path(drv, true, 20));
	c600_session(_metadata, &ipu);
	ipuxcom_close(ipu);

	ASSERT_EQ(0, ixt_standin_unload());
	EXPECT_NE(0, access(drv, F_OK));
}

TEST_HARNESS_MAIN
