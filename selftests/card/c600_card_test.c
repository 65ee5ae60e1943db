// SPDX-License-Identifier: GPL-2.0-only
/*
 * The card path on the QEMU C600 (docs/qemu-c600.md): ipuxcom.ko ->
 * ipuxcom_hw.ko -> readl/writel -> a C600 PCI device whose model follows
 * the hardware record, held through the ipu_driver stand-in
 * (selftests/kmod/ipu_standin.c, written from the record alone), which sends
 * the attached process the driver's real-time signals 44-49 as the record
 * says ipu_driver does. Run by `make check-vm-c600` in a VM of its own.
 *
 *  - every load here is the session the record runs: the initialisation
 *    from driver-idle, then the replay of the real C600 config capture
 *    ($IPUXCOM_CARD_CFG, ixt_card_cfg.h), then the load;
 *  - the main job of `make demo` (the session, then a load of 1472 tiles:
 *    autoload, 23 + 1 batches, start, host exchange write/run/read with the
 *    bytes compared, TDI readback of every tile's words) while the
 *    driver's signals arrive throughout;
 *  - `ipuxcom load` and ipuxcom_load() replay the capture by default: its
 *    records arrive at the device in order, before the autoloader's words,
 *    after ipu_driver's initialisation steps; --no-init / --no-config
 *    (IPUXCOM_LOAD_F_NO_INIT / _NO_CFG) skip exactly their part; without a
 *    config and without the opt-out both refuse before anything reaches
 *    the card (no config-BAR write at the device, no ipu_driver call);
 *  - the capture in both HSP orders (HW-LOAD step 2): the peer's (its
 *    GS1/GS2 records skipped, both marks cleared) and the seed's reading
 *    (GS2's replayed) load; all replayed, batch 0 finds GS1 pending;
 *  - a load in progress survives SIGCHLD and SIGURG (handlers installed):
 *    kernel waits end early only for fatal signals;
 *  - the seed's autoloader words and the 24 + 1 GS1 marks, asserted at the
 *    ipuxcom_bar_write tracepoint (`ipuxcom cfg capture`) and at the device
 *    model (the config-BAR writes QEMU saw, through the stand-in's
 *    debugfs), and the two sequences equal;
 *  - hot removal (QEMU device_del) in the middle of a load: a clean error,
 *    nothing left pinned, the card back after device_add.
 */
#include "kselftest_harness.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "image_testlib.h"
#include "load_testlib.h"
#include "ixt_standin.h"
#include "c600_record.h"
#include "ixt_seed_words.h"
#include "ixt_card_cfg.h"

/* The stand-in's debugfs directory of card 0 (ipu_standin.c). */
#define STANDIN_DIR	"/sys/kernel/debug/ipu_standin/ipu0"
#define LOAD_TIMEOUT_NS	(30ULL * 1000 * 1000 * 1000)

static bool on_card(void)
{
	const char *c = getenv("IPUXCOM_CARD");

	return c && !strcmp(c, "c600");
}

#define REQUIRE_CARD() do {						\
	if (!on_card())							\
		SKIP(return, "not on the QEMU C600 (IPUXCOM_CARD=c600)");	\
} while (0)

/* A stand-in debugfs file, whole, NUL-terminated; NULL on error. */
static char *standin_read(const char *name, size_t *len)
{
	char path[256];
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	FILE *f;

	snprintf(path, sizeof(path), STANDIN_DIR "/%s", name);
	f = fopen(path, "re");
	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	for (;;) {
		size_t got;

		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		got = fread(buf + n, 1, cap - 1 - n, f);
		if (!got)
			break;
		n += got;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static int standin_write(const char *name, const char *value)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), STANDIN_DIR "/%s", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * Signals the stand-in sent, by number (its debugfs "signals": one
 * "SIG NAME irqs N sent M" line per interrupt source).
 */
static void standin_signals(unsigned long counts[65])
{
	char *s = standin_read("signals", NULL), *save = NULL;

	memset(counts, 0, 65 * sizeof(counts[0]));
	if (!s)
		return;
	for (char *l = strtok_r(s, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		unsigned int sig;
		unsigned long c;

		if (sscanf(l, "%u %*s irqs %*d sent %lu", &sig, &c) == 2 && sig <= 64)
			counts[sig] += c;
	}
	free(s);
}

/*
 * The config-BAR writes the device model saw since the log was cleared
 * (debugfs "bar_writes": "count N kept K", then one "OFFSET VALUE" line
 * each, hex), as records; *@all gets N (more than K: the ring wrapped).
 */
static uint32_t device_writes(struct ipuxcom_cfg_record **out, unsigned long *all)
{
	char *s = standin_read("bar_writes", NULL), *save = NULL;
	struct ipuxcom_cfg_record *r = NULL;
	uint32_t n = 0, cap = 0;

	*out = NULL;
	*all = 0;
	if (!s)
		return 0;
	for (char *l = strtok_r(s, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		unsigned int off, val;
		unsigned long kept;

		if (sscanf(l, "count %lu kept %lu", all, &kept) == 2)
			continue;
		if (sscanf(l, "%x %x", &off, &val) != 2)
			continue;
		if (n == cap) {
			struct ipuxcom_cfg_record *nr;

			cap = cap ? cap * 2 : 4096;
			nr = realloc(r, cap * sizeof(*r));
			if (!nr)
				break;
			r = nr;
		}
		r[n].offset = off;
		r[n].value = val;
		n++;
	}
	free(s);
	*out = r;
	return n;
}

/*
 * The record's words in @r: the seed's autoloader sequence for its
 * 948-byte bootloader padded to 1 KiB [S "Direct Attach And Autoloader"]
 * exactly, then 24 GS1 mark-1 posts and one start mark 23 after them [S
 * "Secondary Loader Frames"].
 */
static void expect_record(struct __test_metadata *_metadata, const char *where,
			  const struct ipuxcom_cfg_record *r, uint32_t n)
{
	uint32_t mark1 = 0, last1 = 0;
	int at, start;

	at = ixt_expect_seed_autoloader(_metadata, where, r, n);
	ASSERT_LE(0, at);
	at += 1 + 256;
	for (uint32_t i = (uint32_t)at + 4; i < n; i++) {
		if (r[i].offset != REC_GS1 || (r[i].value & 0xffff) != 1)
			continue;
		mark1++;
		last1 = i;
	}
	EXPECT_EQ(24, mark1) TH_LOG("%s: GS1 mark-1 posts after the autoloader", where);
	start = ixt_find_write(r, n, last1, REC_GS1, 23);
	EXPECT_LT(0, start) TH_LOG("%s: no start mark 23 after the last mark 1", where);
	EXPECT_EQ(-1, ixt_find_write(r, n, (uint32_t)start + 1, REC_GS1, 23))
		TH_LOG("%s: a second start mark", where);
	/*
	 * XB.DCXCR [HW-LOAD steps 5, 8]: all 16 armed with the loading value
	 * before the first batch mark (the seed's and the peer's orders both
	 * do), and after the start mark the operational values: request id 0
	 * (0x2) on the 8 primaries, 1 (0x0020820a) on the 8 secondaries.
	 */
	{
		int first1 = ixt_find_write(r, n, (uint32_t)at, REC_GS1, 1);

		ASSERT_LT(0, first1) TH_LOG("%s", where);
		for (uint32_t i = 0; i < 16; i++) {
			uint32_t off = i < 8 ? REC_DCXCR_PRI(i) : REC_DCXCR_SEC(i - 8);
			uint32_t want = i < 8 ? 0x2u : 0x0020820au;
			int armed = ixt_find_write(r, n, 0, off, REC_DCXCR_LOADING), last = -1;

			EXPECT_LE(0, armed) TH_LOG("%s: DCXCR %u never armed", where, i);
			EXPECT_LT(armed, first1) TH_LOG("%s: DCXCR %u armed after batch 0", where, i);
			for (uint32_t k = (uint32_t)start; k < n; k++)
				if (r[k].offset == off)
					last = (int)k;
			ASSERT_LE(0, last) TH_LOG("%s: DCXCR %u not restored after the start", where, i);
			EXPECT_EQ(want, r[last].value) TH_LOG("%s: DCXCR %u", where, i);
		}
	}
}

/* ipu_driver's initialisation steps from driver-idle [HW-DRV-INIT]. */
static const char *const init_steps[] = {
	"STOP_MONITORING", "MAILBOX_WRITE_READ", "START_MONITORING", "ACCUMULATE_ERRORS",
	"RESET_DEVICE", "SET_SECONDARY_IPU_ID",
};

/*
 * How many of the initialisation's steps ipu_driver's log (the stand-in's
 * debugfs "log", since it was cleared) holds, in order; -1 when it holds
 * none of them in order but some of them.
 */
static int log_init_steps(void)
{
	char *s = standin_read("log", NULL), *at;
	int n = 0;

	if (!s)
		return -1;
	at = s;
	for (size_t i = 0; i < sizeof(init_steps) / sizeof(init_steps[0]); i++) {
		char *f = strstr(at, init_steps[i]);

		if (!f)
			break;
		at = f + strlen(init_steps[i]);
		n++;
	}
	if (!n && (strstr(s, "MAILBOX_WRITE_READ") || strstr(s, "RESET_DEVICE")))
		n = -1;
	free(s);
	return n;
}

/* Whether ipu_driver's log is empty since it was cleared (no call at all). */
static bool log_empty(void)
{
	char *s = standin_read("log", NULL);
	bool empty = s && !s[strspn(s, " \n")];

	free(s);
	return empty;
}

/* Both of the stand-in's logs cleared: what comes next is the call under test's. */
static void logs_clear(struct __test_metadata *_metadata)
{
	ASSERT_EQ(0, standin_write("bar_writes", "0\n"));
	ASSERT_EQ(0, standin_write("log", "0\n"));
}

/* ------------------------------------------------------------- the fixture */

FIXTURE(card) {
	long dev;
	char img[64], boot[64], trace[64];
	const char *cfg;			/* the capture's path */
	struct ipuxcom_cfg_record *recs;	/* its records */
	uint32_t nrecs;
};

FIXTURE_SETUP(card)
{
	struct ipuxcom_image *img;
	uint8_t b[IXT_SEED_BOOT_BYTES];
	void *file = NULL;
	size_t len = 0;

	char msg[256] = "";

	self->img[0] = '\0';
	self->recs = NULL;
	REQUIRE_CARD();
	ASSERT_EQ(0, ixt_card_cfg(&self->recs, &self->nrecs, msg, sizeof(msg))) TH_LOG("%s", msg);
	self->cfg = ixt_card_cfg_path();
	self->dev = ixt_hw_dev_id();
	ASSERT_LE(0, self->dev) TH_LOG("no ipuxcom device of the hw backend");
	ASSERT_EQ(0, access(STANDIN_DIR, F_OK)) TH_LOG("%s: %s", STANDIN_DIR, strerror(errno));
	snprintf(self->img, sizeof(self->img), "/tmp/card.%d.ipuimg", (int)getpid());
	snprintf(self->boot, sizeof(self->boot), "/tmp/card.%d.boot", (int)getpid());
	snprintf(self->trace, sizeof(self->trace), "/tmp/card.%d.ipucfg", (int)getpid());
	img = build_image_file(_metadata, &file, &len);
	ASSERT_NE(NULL, img);
	ipuxcom_image_free(img);
	ASSERT_EQ(0, ixt_write_file(self->img, file, len));
	free(file);
	ixt_seed_boot(b);
	ASSERT_EQ(0, ixt_write_file(self->boot, b, sizeof(b)));
}

FIXTURE_TEARDOWN(card)
{
	free(self->recs);
	if (!self->img[0])
		return;
	unlink(self->img);
	unlink(self->boot);
	unlink(self->trace);
}

/*
 * `make demo`'s whole job (/demo.sh in this VM) on the card, with the
 * stand-in sending the driver's signals throughout: the ICU mailbox reply
 * of the init (45), GS1 marks set and cleared on every batch (46, 47), GS2
 * handoffs of the host exchange (48, 49). The `ipuxcom` command blocks
 * them; unblocked, their default action would kill it.
 */
TEST_F_TIMEOUT(card, main_job_with_the_drivers_signals, 600)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	unsigned long before[65], after[65];
	struct ixt_run *r = malloc(sizeof(*r));
	char *const argv[] = { "sh", "/demo.sh", NULL };

	ASSERT_NE(NULL, r);
	standin_signals(before);
	ASSERT_EQ(0, ixt_run(argv, r));
	EXPECT_EQ(0, r->status) TH_LOG("demo.sh:\n%s\n%s", r->out, r->err);
	EXPECT_NE(NULL, strstr(r->out, "64 random bytes came back"));
	EXPECT_NE(NULL, strstr(r->out, "words read back through TDI: PASS"));
	EXPECT_NE(NULL, strstr(r->out, "the QEMU C600 PCI device"));
	standin_signals(after);
	EXPECT_LE(before[45] + 1, after[45]) TH_LOG("no mailbox-reply signal 45");
	/*
	 * 25 GS1 marks set and answered (24 mark-1 transactions and the start
	 * mark). The device reports changes as status bits, so two changes
	 * before the interrupt is handled make one signal, as a status
	 * register does: at least half of them must arrive as signals.
	 */
	EXPECT_LE(before[46] + 12, after[46]) TH_LOG("GS1 set signals 46: %lu -> %lu",
						     before[46], after[46]);
	EXPECT_LE(before[47] + 12, after[47]) TH_LOG("GS1 zero signals 47: %lu -> %lu",
						     before[47], after[47]);
	EXPECT_LT(before[48], after[48]) TH_LOG("no GS2 signal 48");
	EXPECT_LT(before[49], after[49]) TH_LOG("no GS2 signal 49");
	free(r);
}

/* --------------------------------------- unrelated signals cost no load */

static volatile sig_atomic_t unrelated_seen;
static volatile int pester_stop;

static void count_signal(int sig)
{
	(void)sig;
	unrelated_seen++;
}

/* Sends SIGCHLD and SIGURG to the loading thread until told to stop. */
static void *pester(void *arg)
{
	pthread_t target = *(pthread_t *)arg;

	while (!__atomic_load_n(&pester_stop, __ATOMIC_RELAXED)) {
		pthread_kill(target, SIGCHLD);
		pthread_kill(target, SIGURG);
		usleep(500);
	}
	return NULL;
}

/*
 * A library load on the card, the calling thread with the driver's
 * signals blocked (ipuxcom_block_driver_signals(), as libipuxcom(3) asks)
 * and handlers for SIGCHLD and SIGURG (no SA_RESTART), pestered with both
 * throughout: every kernel wait must go on (only a fatal signal ends one),
 * and the load must finish.
 */
TEST_F_TIMEOUT(card, sigchld_and_sigurg_do_not_cost_a_load, 600)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct sigaction sa = { .sa_handler = count_signal };
	struct ipuxcom_load_params lp = { .size = sizeof(lp) };
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	struct ipuxcom_image *img = NULL;
	struct ipuxcom *ipu = NULL;
	pthread_t self_thread = pthread_self(), th;
	uint8_t boot1k[1024] = { 0 };
	struct ipuxcom_device_info info;
	int err;

	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(SIGCHLD, &sa, NULL));
	ASSERT_EQ(0, sigaction(SIGURG, &sa, NULL));
	ASSERT_EQ(0, ipuxcom_block_driver_signals());
	ASSERT_EQ(0, ipuxcom_open(NULL, &ipu));
	ASSERT_EQ(0, ipuxcom_attach(ipu, (uint32_t)self->dev)) TH_LOG("%s", ipuxcom_errmsg(ipu));
	img = build_image(_metadata);
	ASSERT_NE(NULL, img);
	ixt_seed_boot(boot1k);
	/* the whole session: initialisation, the capture, the load */
	lp.image = img;
	lp.bootloader = boot1k;
	lp.bootloader_size = sizeof(boot1k);
	lp.cfg = self->recs;
	lp.cfg_count = self->nrecs;
	lp.timeout_ns = LOAD_TIMEOUT_NS;
	unrelated_seen = 0;
	pester_stop = 0;
	ASSERT_EQ(0, pthread_create(&th, NULL, pester, &self_thread));
	err = ipuxcom_load(ipu, &lp, &res);
	__atomic_store_n(&pester_stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	EXPECT_EQ(0, err) TH_LOG("load: %s (%s)", res.msg, strerror(-err));
	EXPECT_LT(20, unrelated_seen) TH_LOG("only %d signals arrived during the load",
					     (int)unrelated_seen);
	ASSERT_EQ(0, ipuxcom_dev_query(ipu, &info));
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, info.state);
	ipuxcom_image_free(img);
	ipuxcom_close(ipu);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGURG, SIG_DFL);
}

/* ------------------------------- the record, at both ends of the wire */

/*
 * `ipuxcom load -c` of the seed's 948-byte bootloader: its config-BAR
 * writes as the ipuxcom_bar_write tracepoint saw them (`ipuxcom cfg
 * capture`) and as the device model saw them arrive over PCI; both hold
 * the capture's records in order before the autoloader, and the record's
 * words, and they are the same writes in the same order.
 */
TEST_F_TIMEOUT(card, seed_words_at_the_tracepoint_and_at_the_device, 600)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ipuxcom_cfg_record *traced = NULL, *seen = NULL;
	struct ipuxcom_errmsg em = { "" };
	struct ixt_run *r = malloc(sizeof(*r));
	uint32_t ntraced = 0, nseen;
	unsigned long all = 0;
	char dev[16];

	snprintf(dev, sizeof(dev), "%ld", self->dev);
	char *const argv[] = {
		"ipuxcom", "cfg", "capture", "--dev", dev, "-o", self->trace, "--",
		"ipuxcom", "load", self->img, "-b", self->boot, "-c", (char *)self->cfg,
		"--dev", dev, "-q", NULL,
	};

	ASSERT_NE(NULL, r);
	logs_clear(_metadata);
	ASSERT_EQ(0, ixt_run(argv, r));
	ASSERT_EQ(0, r->status) TH_LOG("stdout: %s\nstderr: %s", r->out, r->err);
	EXPECT_EQ(6, log_init_steps());
	nseen = device_writes(&seen, &all);
	ASSERT_EQ(nseen, all) TH_LOG("the device's write log wrapped");
	ASSERT_EQ(0, ipuxcom_cfg_load(self->trace, &traced, &ntraced, &em)) TH_LOG("%s", em.msg);
	EXPECT_LE(0, ixt_expect_capture_then_autoloader(_metadata, "tracepoint", traced, ntraced,
							 self->recs, self->nrecs,
							 IPUXCOM_CFG_HSP_CLEAR));
	EXPECT_LE(0, ixt_expect_capture_then_autoloader(_metadata, "device", seen, nseen,
							 self->recs, self->nrecs,
							 IPUXCOM_CFG_HSP_CLEAR));
	expect_record(_metadata, "tracepoint", traced, ntraced);
	expect_record(_metadata, "device", seen, nseen);
	ASSERT_EQ(ntraced, nseen) TH_LOG("the tracepoint saw %u writes, the device %u",
					 ntraced, nseen);
	for (uint32_t i = 0; i < nseen; i++) {
		ASSERT_EQ(traced[i].offset, seen[i].offset) TH_LOG("write %u", i);
		ASSERT_EQ(traced[i].value, seen[i].value) TH_LOG("write %u", i);
	}
	free(traced);
	free(seen);
	free(r);
}

/* ------------------------------------------------ the record's session */

/* ipuxcom_load() of @img with @flags (and the capture when @cfg) on @ipu; 0 or -errno. */
static int lib_load(struct ipuxcom *ipu, FIXTURE_DATA(card) *self, struct ipuxcom_image *img,
		    bool cfg, uint32_t hsp, uint32_t flags, struct ipuxcom_load_result *res)
{
	static uint8_t boot1k[1024];
	struct ipuxcom_load_params lp = {
		.size = sizeof(lp), .image = img, .bootloader = boot1k,
		.bootloader_size = sizeof(boot1k), .cfg = cfg ? self->recs : NULL,
		.cfg_count = cfg ? self->nrecs : 0, .cfg_hsp = hsp,
		.timeout_ns = LOAD_TIMEOUT_NS, .flags = flags,
	};

	ixt_seed_boot(boot1k);
	*res = (struct ipuxcom_load_result)IPUXCOM_LOAD_RESULT_INIT;
	return ipuxcom_load(ipu, &lp, res);
}

/* The device's writes since the clear, the capture's records then the autoloader. */
static void expect_replayed(struct __test_metadata *_metadata, FIXTURE_DATA(card) *self,
			    const char *where, uint32_t hsp)
{
	struct ipuxcom_cfg_record *seen = NULL;
	unsigned long all = 0;
	uint32_t nseen = device_writes(&seen, &all);

	EXPECT_EQ(nseen, all) TH_LOG("%s: the device's write log wrapped", where);
	EXPECT_LE(0, ixt_expect_capture_then_autoloader(_metadata, where, seen, nseen,
							 self->recs, self->nrecs, hsp));
	free(seen);
}

/* The device's writes since the clear hold none of the capture's. */
static void expect_not_replayed(struct __test_metadata *_metadata, FIXTURE_DATA(card) *self,
				const char *where)
{
	struct ipuxcom_cfg_record *seen = NULL;
	unsigned long all = 0;
	uint32_t nseen = device_writes(&seen, &all);

	EXPECT_LT(0, nseen) TH_LOG("%s: the load wrote nothing", where);
	EXPECT_FALSE(ixt_capture_seen(seen, nseen, self->recs, self->nrecs))
		TH_LOG("%s: the capture's writes arrived", where);
	EXPECT_LE(0, ixt_find_write(seen, nseen, 0, REC_AUTOLDCSR, 0)) TH_LOG("%s", where);
	free(seen);
}

/*
 * ipuxcom_load() by default is the record's session on a card: ipu_driver's
 * initialisation steps in order, then at the device the capture's records
 * in order before the autoloader's words; the device runs. The seed's
 * reading of the GS records (keep-gs2) loads as well, and replayed as
 * recorded the capture leaves GS1 pending, which batch 0 refuses.
 */
TEST_F_TIMEOUT(card, library_load_is_the_recorded_session, 600)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ipuxcom_load_result res;
	struct ipuxcom_device_info info;
	struct ipuxcom_image *img;
	struct ipuxcom *ipu = NULL;

	ASSERT_EQ(0, ipuxcom_block_driver_signals());
	ASSERT_EQ(0, ipuxcom_open(NULL, &ipu));
	ASSERT_EQ(0, ipuxcom_attach(ipu, (uint32_t)self->dev)) TH_LOG("%s", ipuxcom_errmsg(ipu));
	img = build_image(_metadata);
	ASSERT_NE(NULL, img);

	logs_clear(_metadata);
	ASSERT_EQ(0, lib_load(ipu, self, img, true, IPUXCOM_CFG_HSP_CLEAR, 0, &res))
		TH_LOG("%s", res.msg);
	ASSERT_EQ(0, ipuxcom_dev_query(ipu, &info));
	EXPECT_EQ(IPUXCOM_DEV_STATE_RUNNING, info.state);
	EXPECT_EQ(6, log_init_steps());
	expect_replayed(_metadata, self, "library, clear", IPUXCOM_CFG_HSP_CLEAR);

	/* the seed's reading: GS2's records replayed, GS1's cleared */
	logs_clear(_metadata);
	ASSERT_EQ(0, lib_load(ipu, self, img, true, IPUXCOM_CFG_HSP_KEEP_GS2, 0, &res))
		TH_LOG("%s", res.msg);
	expect_replayed(_metadata, self, "library, keep-gs2", IPUXCOM_CFG_HSP_KEEP_GS2);

	/* every record as recorded: GS1 = 1 left pending, refused at batch 0 */
	logs_clear(_metadata);
	EXPECT_EQ(-EBUSY, lib_load(ipu, self, img, true, IPUXCOM_CFG_HSP_REPLAY, 0, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_BATCH, res.step) TH_LOG("%s", res.msg);
	expect_replayed(_metadata, self, "library, replay", IPUXCOM_CFG_HSP_REPLAY);
	ipuxcom_image_free(img);
	ipuxcom_close(ipu);
}

/*
 * Each opt-out skips exactly its part: IPUXCOM_LOAD_F_NO_INIT and
 * `--no-init` no ipu_driver step (the device initialised before), the
 * capture still replayed; IPUXCOM_LOAD_F_NO_CFG and `--no-config` the
 * initialisation still run, none of the capture's writes at the device.
 */
TEST_F_TIMEOUT(card, opt_outs_skip_exactly_their_part, 900)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ixt_run *r = malloc(sizeof(*r));
	struct ipuxcom_load_result res;
	struct ipuxcom_image *img;
	struct ipuxcom *ipu = NULL;
	char dev[16];

	ASSERT_NE(NULL, r);
	snprintf(dev, sizeof(dev), "%ld", self->dev);
	ASSERT_EQ(0, ipuxcom_block_driver_signals());
	ASSERT_EQ(0, ipuxcom_open(NULL, &ipu));
	ASSERT_EQ(0, ipuxcom_attach(ipu, (uint32_t)self->dev)) TH_LOG("%s", ipuxcom_errmsg(ipu));
	img = build_image(_metadata);
	ASSERT_NE(NULL, img);

	/* library: no init (the device initialised first, as the flag requires) */
	ASSERT_EQ(0, ipuxcom_dev_init(ipu, NULL)) TH_LOG("%s", ipuxcom_errmsg(ipu));
	logs_clear(_metadata);
	ASSERT_EQ(0, lib_load(ipu, self, img, true, 0, IPUXCOM_LOAD_F_NO_INIT, &res))
		TH_LOG("%s", res.msg);
	EXPECT_EQ(0, log_init_steps());
	expect_replayed(_metadata, self, "library, no init", IPUXCOM_CFG_HSP_CLEAR);
	/* library: no config */
	logs_clear(_metadata);
	ASSERT_EQ(0, lib_load(ipu, self, img, false, 0, IPUXCOM_LOAD_F_NO_CFG, &res))
		TH_LOG("%s", res.msg);
	EXPECT_EQ(6, log_init_steps());
	expect_not_replayed(_metadata, self, "library, no config");
	ipuxcom_close(ipu);
	ipuxcom_image_free(img);

	/* the command: --no-init after `dev init`, then --no-config */
	{
		char *const init_argv[] = { "ipuxcom", "dev", "init", "--dev", dev, NULL };
		char *const noinit_argv[] = { "ipuxcom", "load", self->img, "-b", self->boot,
					      "-c", (char *)self->cfg, "--no-init", "--dev", dev,
					      "-q", NULL };
		char *const nocfg_argv[] = { "ipuxcom", "load", self->img, "-b", self->boot,
					     "--no-config", "--dev", dev, "-q", NULL };

		ASSERT_EQ(0, ixt_run(init_argv, r));
		ASSERT_EQ(0, r->status) TH_LOG("%s", r->err);
		logs_clear(_metadata);
		ASSERT_EQ(0, ixt_run(noinit_argv, r));
		EXPECT_EQ(0, r->status) TH_LOG("%s", r->err);
		EXPECT_EQ(0, log_init_steps());
		expect_replayed(_metadata, self, "command, --no-init", IPUXCOM_CFG_HSP_CLEAR);
		logs_clear(_metadata);
		ASSERT_EQ(0, ixt_run(nocfg_argv, r));
		EXPECT_EQ(0, r->status) TH_LOG("%s", r->err);
		EXPECT_EQ(6, log_init_steps());
		expect_not_replayed(_metadata, self, "command, --no-config");
	}
	free(r);
}

/*
 * A card load with no config and no opt-out: `ipuxcom load` (and its
 * --check) and ipuxcom_load() refuse with a message that names what is
 * missing and both ways out, and nothing reached the card: no config-BAR
 * write at the device, no ipu_driver call (the library's refusal comes
 * after the caller's own attach, whose calls are made before the clear).
 */
TEST_F_TIMEOUT(card, load_without_a_config_is_refused_before_anything, 300)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ixt_run *r = malloc(sizeof(*r));
	struct ipuxcom_cfg_record *seen = NULL;
	struct ipuxcom_load_result res;
	struct ipuxcom_image *img;
	struct ipuxcom *ipu = NULL;
	unsigned long all = 1;
	char dev[16];

	ASSERT_NE(NULL, r);
	snprintf(dev, sizeof(dev), "%ld", self->dev);
	{
		char *const argv[] = { "ipuxcom", "load", self->img, "-b", self->boot,
				       "--dev", dev, "-q", NULL };
		char *const check[] = { "ipuxcom", "load", self->img, "-b", self->boot,
					"--dev", dev, "--check", NULL };

		logs_clear(_metadata);
		ASSERT_EQ(0, ixt_run(argv, r));
		EXPECT_EQ(1, r->status);
		EXPECT_NE(NULL, strstr(r->err, "config")) TH_LOG("%s", r->err);
		EXPECT_NE(NULL, strstr(r->err, "-c FILE")) TH_LOG("%s", r->err);
		EXPECT_NE(NULL, strstr(r->err, "--no-config")) TH_LOG("%s", r->err);
		EXPECT_NE(NULL, strstr(r->err, "nothing was done to the device")) TH_LOG("%s", r->err);
		EXPECT_EQ(0, device_writes(&seen, &all));
		EXPECT_EQ(0, all);
		free(seen);
		EXPECT_TRUE(log_empty());
		ASSERT_EQ(0, ixt_run(check, r));
		EXPECT_EQ(1, r->status);
		EXPECT_NE(NULL, strstr(r->out, "FAIL")) TH_LOG("%s", r->out);
		EXPECT_NE(NULL, strstr(r->out, "config")) TH_LOG("%s", r->out);
		EXPECT_TRUE(log_empty());
	}
	ASSERT_EQ(0, ipuxcom_block_driver_signals());
	ASSERT_EQ(0, ipuxcom_open(NULL, &ipu));
	ASSERT_EQ(0, ipuxcom_attach(ipu, (uint32_t)self->dev)) TH_LOG("%s", ipuxcom_errmsg(ipu));
	img = build_image(_metadata);
	ASSERT_NE(NULL, img);
	logs_clear(_metadata);
	EXPECT_EQ(-EINVAL, lib_load(ipu, self, img, false, 0, 0, &res));
	EXPECT_EQ(IPUXCOM_LOAD_STEP_CHECK, res.step);
	EXPECT_NE(NULL, strstr(res.msg, "cfg: none given")) TH_LOG("%s", res.msg);
	EXPECT_NE(NULL, strstr(res.msg, "IPUXCOM_LOAD_F_NO_CFG")) TH_LOG("%s", res.msg);
	all = 1;
	EXPECT_EQ(0, device_writes(&seen, &all));
	EXPECT_EQ(0, all);
	free(seen);
	EXPECT_TRUE(log_empty());
	ipuxcom_image_free(img);
	ipuxcom_close(ipu);
	free(r);
}

/*
 * /dev/ipuN found without assuming its sysfs parent: the stand-in with
 * node_parent=class puts a class device between the PCI function and the
 * node (no record says where ipu_driver hangs it); ATTACH through the
 * library still finds the card, and a load runs.
 */
TEST_F_TIMEOUT(card, attach_when_the_node_hangs_under_a_class_device, 600)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	struct ixt_run *r = malloc(sizeof(*r));
	char link[512] = "";
	ssize_t n;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ixt_standin_load("node_parent=class"));
	ASSERT_EQ(0, ixt_standin_hw_load());
	ASSERT_LE(0, ixt_hw_dev_id());
	n = readlink("/sys/class/misc/ipu0/device", link, sizeof(link) - 1);
	ASSERT_LT(0, n);
	link[n] = '\0';
	EXPECT_EQ(NULL, strstr(link, "0000:")) TH_LOG("/dev/ipu0's parent is the PCI function: %s",
						    link);
	{
		char dev[16];
		char *const argv[] = { "ipuxcom", "load", self->img, "-b", self->boot,
				       "-c", (char *)self->cfg, "--dev", dev, "-q", NULL };

		snprintf(dev, sizeof(dev), "%ld", ixt_hw_dev_id());
		ASSERT_EQ(0, ixt_run(argv, r));
		EXPECT_EQ(0, r->status) TH_LOG("%s", r->err);
	}
	/* back to the default layout for the tests after this one */
	ASSERT_EQ(0, ixt_standin_load(""));
	ASSERT_EQ(0, ixt_standin_hw_load());
	ASSERT_LE(0, ixt_hw_dev_id());
	free(r);
}

/* ---------------------------------------------------- hot removal mid-load */

/*
 * QEMU's device_del of the card while `ipuxcom load` waits on a batch: the
 * load ends with a clean error (exit 1, a message, no crash), every pinned
 * page is released, the VM shows no oops (run-vm.sh checks the kernel log),
 * and after device_add the card loads again.
 */
TEST_F_TIMEOUT(card, zz_hot_removal_in_the_middle_of_a_load, 600)
{
	if (_metadata->skip)
		return;	/* the fixture skipped (this harness runs the body anyway) */
	unsigned long before[65], now[65];
	struct ixt_run *r = malloc(sizeof(*r));
	long pinned_before, pinned_after = -1;
	int status = 0, fds[2];
	char err[4096] = "", dev[16];
	ssize_t got = 0;
	pid_t pid;

	if (!getenv("IPUXCOM_QEMU_MONITOR"))
		SKIP(return, "nobody passes commands to QEMU's monitor");
	ASSERT_NE(NULL, r);
	/* the card's id: not 0 once an earlier test reloaded ipuxcom_hw */
	ASSERT_LE(0, ixt_hw_dev_id());
	snprintf(dev, sizeof(dev), "%ld", ixt_hw_dev_id());
	/* each mark answered after 400 reads: a load of some seconds */
	ASSERT_EQ(0, standin_write("latency", "400\n"));
	pinned_before = ixt_pinned_pages();
	standin_signals(before);
	ASSERT_EQ(0, pipe(fds));
	fflush(NULL);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDERR_FILENO);
		dup2(open("/dev/null", O_WRONLY), STDOUT_FILENO);
		execlp("ipuxcom", "ipuxcom", "load", self->img, "-b", self->boot, "-c", self->cfg,
		       "--dev", dev, "-q", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	/*
	 * Three GS1 batch marks answered: the load is well under way. Then
	 * the next mark is never answered (the device's stuck_mark knob), so
	 * the load is waiting on the card when QEMU removes it.
	 */
	for (int i = 0; i < 1200; i++) {
		standin_signals(now);
		if (now[47] >= before[47] + 3)
			break;
		usleep(20 * 1000);
	}
	EXPECT_LE(before[47] + 3, now[47]) TH_LOG("the load never got going");
	EXPECT_EQ(0, standin_write("stuck_mark", "1\n"));
	usleep(200 * 1000);
	ixt_qemu_monitor("device_del " IXT_C600_QEMU_ID);
	/* all of its stderr, to its end (a reader gone early is its SIGPIPE) */
	for (size_t have = 0; have < sizeof(err) - 1; have += (size_t)got) {
		got = read(fds[0], err + have, sizeof(err) - 1 - have);
		if (got <= 0)
			break;
	}
	close(fds[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status)) TH_LOG("ipuxcom load died of signal %d",
					      WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	EXPECT_EQ(1, WEXITSTATUS(status)) TH_LOG("stderr: %s", err);
	EXPECT_NE('\0', err[0]) TH_LOG("no message");
	EXPECT_EQ(0, ixt_card_wait(false, 30000)) TH_LOG("the card is still there");
	for (int i = 0; i < 50 && pinned_before >= 0; i++) {
		pinned_after = ixt_pinned_pages();
		if (pinned_after == pinned_before)
			break;
		usleep(100 * 1000);
	}
	if (pinned_before >= 0)
		EXPECT_EQ(pinned_before, pinned_after) TH_LOG("pages left pinned");
	ixt_qemu_monitor(IXT_C600_QEMU_ADD);
	ASSERT_EQ(0, ixt_card_wait(true, 60000)) TH_LOG("the card did not come back");
	{
		char *const argv[] = { "ipuxcom", "load", self->img, "-b", self->boot,
				       "-c", (char *)self->cfg, "--dev", dev, "-q", NULL };

		/* back under a new id (ids are allocated cyclically) */
		snprintf(dev, sizeof(dev), "%ld", ixt_hw_dev_id());
		ASSERT_EQ(0, ixt_run(argv, r));
		EXPECT_EQ(0, r->status) TH_LOG("after device_add: %s", r->err);
	}
	free(r);
}

TEST_HARNESS_MAIN
