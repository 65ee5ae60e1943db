// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's tile SRAM page store (sim/c600_sram.c): contents against
 * a shadow copy under random writes across page boundaries, sharing and
 * copy-on-write between page tables, all-zero pages never stored, and the
 * footprint of whole 1472-tile loads through the model (autoloader and
 * loader batches, as in sim_load_test): identical tiles take one tile's
 * pages, per-tile patches add pages in proportion, a reset frees all.
 */
#include "kselftest_harness.h"

#include <stdio.h>

#include "c600_sim.h"
#include "c600_record.h"
#include "frames_testlib.h"
#include "sim_drive.h"

#define PAGE		C600_SRAM_PAGE_SIZE
#define NPAGES		C600_SIM_SRAM_PAGES
#define SRAM_BYTES	(NPAGES * PAGE)

static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* Distinct non-zero pages among @n shadow SRAMs (what a sealed store holds). */
static uint32_t distinct_pages(uint8_t *const *shadow, unsigned int n)
{
	uint32_t count = 0;
	static const uint8_t zero[PAGE];

	for (unsigned int a = 0; a < n * NPAGES; a++) {
		const uint8_t *pa = shadow[a / NPAGES] + (a % NPAGES) * PAGE;
		bool seen = false;

		if (!memcmp(pa, zero, PAGE))
			continue;
		for (unsigned int b = 0; b < a && !seen; b++)
			seen = !memcmp(pa, shadow[b / NPAGES] + (b % NPAGES) * PAGE, PAGE);
		count += !seen;
	}
	return count;
}

#define TABLES	4

/*
 * Random writes (random bytes, zeros, or bytes copied from elsewhere so
 * that equal pages arise) of up to three pages at any byte offset, checked
 * against shadow copies after every write; sealed at random points, and
 * the sealed store holds exactly the distinct non-zero pages.
 */
TEST(random_writes_read_back)
{
	static struct c600_sram_page *pt[TABLES][NPAGES];
	static uint8_t buf[3 * PAGE], got[3 * PAGE];
	struct c600_sram s = { 0 };
	uint8_t *shadow[TABLES];

	for (int t = 0; t < TABLES; t++) {
		shadow[t] = calloc(1, SRAM_BYTES);
		ASSERT_NE(NULL, shadow[t]);
	}
	for (int i = 0; i < 4000; i++) {
		unsigned int t = rnd() % TABLES, kind = rnd() % 4;
		uint32_t len = 1 + rnd() % sizeof(buf), off;

		if (i % 7 == 0)
			len = PAGE * (1 + rnd() % 3);	/* whole pages, maybe aligned */
		off = rnd() % (SRAM_BYTES - len + 1);
		if (i % 5 == 0)
			off &= ~(PAGE - 1);
		if (kind == 0) {
			memset(buf, 0, len);
		} else if (kind == 1) {
			unsigned int from = rnd() % TABLES;
			uint32_t src = rnd() % (SRAM_BYTES - len + 1);

			if (rnd() & 1)
				src = off;	/* same place: makes equal pages */
			memcpy(buf, shadow[from] + src, len);
		} else {
			for (uint32_t k = 0; k < len; k++)
				buf[k] = (uint8_t)(rnd() % 3);	/* few values: collisions */
		}
		ASSERT_EQ(0, c600_sram_write(&s, pt[t], off, buf, len));
		memcpy(shadow[t] + off, buf, len);
		c600_sram_read(pt[t], off, got, len);
		ASSERT_EQ(0, memcmp(got, buf, len)) TH_LOG("write %d", i);
		if (rnd() % 50 == 0)
			c600_sram_seal(&s);
		if (i % 500 == 499) {
			for (int u = 0; u < TABLES; u++) {
				for (uint32_t o = 0; o < SRAM_BYTES; o += sizeof(got)) {
					uint32_t n = SRAM_BYTES - o < sizeof(got) ? SRAM_BYTES - o
										  : sizeof(got);

					c600_sram_read(pt[u], o, got, n);
					ASSERT_EQ(0, memcmp(got, shadow[u] + o, n))
						TH_LOG("table %d at %u after %d", u, o, i);
				}
			}
		}
	}
	c600_sram_seal(&s);
	EXPECT_EQ(distinct_pages(shadow, TABLES), s.pages);
	EXPECT_EQ(0, s.ndirty);
	c600_sram_free_all(&s);
	EXPECT_EQ(0, s.pages);
	EXPECT_EQ(0, c600_sram_bytes(&s));
	for (int t = 0; t < TABLES; t++)
		free(shadow[t]);
}

/* Equal pages are one page; writing one copy leaves the other alone. */
TEST(shared_pages_copy_on_write)
{
	static struct c600_sram_page *a[NPAGES], *b[NPAGES];
	static uint8_t page[PAGE], got[PAGE];
	struct c600_sram s = { 0 };
	uint8_t x = 0x77;

	for (unsigned int i = 0; i < PAGE; i++)
		page[i] = (uint8_t)(i * 7 + 1);
	/* whole pages: shared at once */
	ASSERT_EQ(0, c600_sram_write(&s, a, 3 * PAGE, page, PAGE));
	ASSERT_EQ(0, c600_sram_write(&s, b, 3 * PAGE, page, PAGE));
	ASSERT_EQ(0, c600_sram_write(&s, b, 9 * PAGE, page, PAGE));
	EXPECT_EQ(1, s.pages);
	EXPECT_EQ(a[3], b[3]);
	EXPECT_EQ(a[3], b[9]);
	/* one byte of a: a gets its own page, b keeps the old contents */
	ASSERT_EQ(0, c600_sram_write(&s, a, 3 * PAGE + 100, &x, 1));
	EXPECT_NE(a[3], b[3]);
	EXPECT_EQ(2, s.pages);
	c600_sram_read(b, 3 * PAGE, got, PAGE);
	EXPECT_EQ(0, memcmp(got, page, PAGE));
	c600_sram_read(b, 9 * PAGE, got, PAGE);
	EXPECT_EQ(0, memcmp(got, page, PAGE));
	c600_sram_read(a, 3 * PAGE + 100, got, 1);
	EXPECT_EQ(x, got[0]);
	/* and back: a's page equals b's again and is folded into it */
	ASSERT_EQ(0, c600_sram_write(&s, a, 3 * PAGE + 100, page + 100, 1));
	c600_sram_seal(&s);
	EXPECT_EQ(1, s.pages);
	EXPECT_EQ(a[3], b[3]);
	/* partial writes that end in equal pages: shared once sealed */
	ASSERT_EQ(0, c600_sram_write(&s, a, 20 * PAGE + 10, page, 1000));
	ASSERT_EQ(0, c600_sram_write(&s, b, 20 * PAGE + 10, page, 1000));
	EXPECT_EQ(3, s.pages);
	c600_sram_seal(&s);
	EXPECT_EQ(2, s.pages);
	EXPECT_EQ(a[20], b[20]);
	/* writing a shared page with what it holds copies nothing */
	ASSERT_EQ(0, c600_sram_write(&s, a, 20 * PAGE + 10, page, 1000));
	EXPECT_EQ(2, s.pages);
	EXPECT_EQ(a[20], b[20]);
	c600_sram_free_all(&s);
}

/* An all-zero page is never stored, however it comes to be all zeros. */
TEST(zero_pages_are_not_stored)
{
	static struct c600_sram_page *a[NPAGES], *b[NPAGES];
	static uint8_t page[PAGE], zero[3 * PAGE], got[PAGE];
	struct c600_sram s = { 0 };

	memset(page, 0xab, sizeof(page));
	/* zeros on nothing: nothing */
	ASSERT_EQ(0, c600_sram_write(&s, a, 100, zero, sizeof(zero)));
	c600_sram_seal(&s);
	EXPECT_EQ(0, s.pages);
	for (int i = 0; i < NPAGES; i++)
		ASSERT_EQ(NULL, a[i]);
	/* a whole page of zeros frees a private page at once */
	ASSERT_EQ(0, c600_sram_write(&s, a, 5 * PAGE, page, PAGE));
	EXPECT_EQ(1, s.pages);
	ASSERT_EQ(0, c600_sram_write(&s, a, 5 * PAGE, zero, PAGE));
	EXPECT_EQ(0, s.pages);
	EXPECT_EQ(NULL, a[5]);
	/* ... and drops a reference to a shared one */
	ASSERT_EQ(0, c600_sram_write(&s, a, 5 * PAGE, page, PAGE));
	ASSERT_EQ(0, c600_sram_write(&s, b, 5 * PAGE, page, PAGE));
	ASSERT_EQ(0, c600_sram_write(&s, a, 5 * PAGE, zero, PAGE));
	EXPECT_EQ(NULL, a[5]);
	EXPECT_EQ(1, s.pages);
	c600_sram_read(b, 5 * PAGE, got, PAGE);
	EXPECT_EQ(0, memcmp(got, page, PAGE));
	/* zeroed in pieces, across the page boundaries: freed when sealed */
	ASSERT_EQ(0, c600_sram_write(&s, a, 7 * PAGE + 10, page, PAGE));
	ASSERT_EQ(0, c600_sram_write(&s, a, 7 * PAGE, zero, 2000));
	ASSERT_EQ(0, c600_sram_write(&s, a, 7 * PAGE + 2000, zero, PAGE));
	c600_sram_seal(&s);
	EXPECT_EQ(NULL, a[7]);
	EXPECT_EQ(NULL, a[8]);
	EXPECT_EQ(1, s.pages);
	c600_sram_read(a, 7 * PAGE, got, PAGE);
	EXPECT_EQ(0, memcmp(got, zero, PAGE));
	c600_sram_free_all(&s);
}

/*
 * A write that cannot allocate fails with -ENOMEM; what it stored before
 * stays, nothing else changes, and the next write works.
 */
TEST(allocation_failure)
{
	static struct c600_sram_page *a[NPAGES], *b[NPAGES];
	static uint8_t page[2 * PAGE], got[2 * PAGE];
	struct c600_sram s = { 0 };
	uint32_t pages;

	memset(page, 0x3c, sizeof(page));
	ASSERT_EQ(0, c600_sram_write(&s, a, 0, page, sizeof(page)));
	ASSERT_EQ(0, c600_sram_write(&s, b, 0, page, sizeof(page)));
	pages = s.pages;
	/* copy on write of a shared page */
	sim_user_fail_alloc = 1;
	EXPECT_EQ(-ENOMEM, c600_sram_write(&s, a, 10, "x", 1));
	EXPECT_EQ(pages, s.pages);
	c600_sram_read(a, 0, got, sizeof(got));
	EXPECT_EQ(0, memcmp(got, page, sizeof(got)));
	/* a new page (the header, then the data) halfway through a write */
	memset(got, 0x11, PAGE);
	ASSERT_EQ(0, c600_sram_write(&s, a, 2 * PAGE, got, PAGE));
	for (unsigned int n = 1; n <= 2; n++) {
		sim_user_fail_alloc = n;
		EXPECT_EQ(-ENOMEM, c600_sram_write(&s, a, 3 * PAGE - 10, page, 20));
		c600_sram_read(a, 3 * PAGE - 10, got, 20);
		EXPECT_EQ(0, memcmp(got, page, 10));	/* the first page's part */
		EXPECT_EQ(0, got[10]);
		EXPECT_EQ(NULL, a[3]);
	}
	/* a model write through the exchange window reports it */
	{
		struct c600_sim *sim = c600_sim_create();

		ASSERT_NE(NULL, sim);
		sim_user_fail_alloc = 1;
		EXPECT_EQ(-ENOMEM, c600_sim_exch_write(sim, 0x80000, page, 16));
		EXPECT_EQ(0, sim->stats.sram_pages);
		EXPECT_EQ(0, c600_sim_exch_write(sim, 0x80000, page, 16));
		EXPECT_EQ(1, sim->stats.sram_pages);
		c600_sim_destroy(sim);
	}
	sim_user_fail_alloc = 0;
	EXPECT_EQ(0, c600_sram_write(&s, a, 10, "x", 1));
	c600_sram_read(a, 10, got, 1);
	EXPECT_EQ('x', got[0]);
	c600_sram_read(b, 10, got, 1);
	EXPECT_EQ(0x3c, got[0]);
	c600_sram_free_all(&s);
}

/* ------------------------------------------------------ whole-device loads */

#define BUF_BUS		0x100000000ull
#define TILES		C600_TILES
/* The notes' load image [S]: 212,980 bytes, 215 frames of 992 bytes. */
#define IMG_BYTES	212980u
#define FRAMES		((IMG_BYTES + 991) / 992)
#define BATCH_BYTES	(0x1000 + 64 * (size_t)FRAMES * 1024)
/* Pages the image covers: from 0x4c010 through its last frame's payload. */
#define IMG_PAGES	((0x10 + FRAMES * 992 + PAGE - 1) / PAGE)

static uint8_t body[FRAMES * 992], tile_img[FRAMES * 992];

/* Tile @tile's image: the shared body with @patches words of its own. */
static void make_tile_image(uint32_t tile, uint32_t patches)
{
	memcpy(tile_img, body, sizeof(body));
	for (uint32_t k = 0; k < patches; k++)
		ixt_put32(tile_img + ((tile * 4099 + k * 26111) % (IMG_BYTES - 4) & ~3u),
		      0xa5000000u | tile << 8 | k);
}

static void write_batch(uint8_t *buf, uint32_t b, uint32_t patches)
{
	uint32_t off = 0x1000;

	memset(buf, 0, 0x1000);
	for (uint32_t i = 0; i < 64; i++) {
		uint32_t tile = b * 64 + i;

		make_tile_image(tile, patches);
		ixt_put32(buf + i * 8, off);
		ixt_put32(buf + i * 8 + 4, FRAMES);
		for (uint32_t k = 0; k < FRAMES; k++, off += 1024) {
			uint8_t *f = buf + off;

			ixt_put32(f, k);
			ixt_put32(f + 4, tile);
			ixt_put32(f + 8, k == FRAMES - 1 ? 0x08000000u : 0);
			ixt_put32(f + 12, 0);
			memcpy(f + 16, tile_img + k * 992, 992);
			memset(f + 1008, 0xff, 16);
		}
	}
}

/* Autoload, 23 batches, release and start, as the peer's record orders them. */
static bool load(struct c600_sim *sim, uint8_t *buf, uint32_t patches)
{
	wr(sim, REC_GS1, 0);
	wr(sim, REC_GS2, 0);
	if (!autoload_as_recorded(sim))
		return false;
	wr(sim, REC_EXCHWINDOWBASER, 0x800);
	if (c600_sim_buffer_attach(sim, 0, BUF_BUS, BATCH_BYTES))
		return false;
	for (int i = 0; i < 8; i++) {
		wr(sim, REC_DCXCR_PRI(i), REC_DCXCR_LOADING);
		wr(sim, REC_DCXCR_SEC(i), REC_DCXCR_LOADING);
	}
	wr(sim, REC_CCSR, rd(sim, REC_CCSR) & ~0x402u);
	for (int i = 0; i < 8; i++)
		wr(sim, REC_DCXCR_PRI(i), 0x2);
	for (uint32_t b = 0; b < 23; b++) {
		write_batch(buf, b, patches);
		if (!mark(sim, 1))
			return false;
	}
	memset(buf, 0xff, BATCH_BYTES);
	if (!mark(sim, 1) || !mark(sim, 23))
		return false;
	return !c600_sim_buffer_detach(sim, 0);
}

FIXTURE(device) {
	struct c600_sim *sim;
	uint8_t *buf;
};

FIXTURE_SETUP(device)
{
	for (uint32_t i = 0; i < sizeof(body); i++)
		body[i] = (uint8_t)(i < IMG_BYTES ? (i * 2654435761u) >> 13 | 1 : 0);
	self->sim = c600_sim_create();
	ASSERT_NE(NULL, self->sim);
	self->buf = calloc(1, BATCH_BYTES);
	ASSERT_NE(NULL, self->buf);
	ASSERT_EQ(0, c600_sim_host_map(self->sim, BUF_BUS, self->buf, BATCH_BYTES));
}

FIXTURE_TEARDOWN(device)
{
	c600_sim_destroy(self->sim);
	free(self->buf);
}

static void expect_image(struct __test_metadata *_metadata, struct c600_sim *sim,
			 uint32_t patches)
{
	static const uint16_t tiles[] = { 0, 1, 63, 64, 700, 1471 };
	static uint8_t got[sizeof(tile_img)];

	EXPECT_EQ(C600_PHASE_RUNNING, sim->phase);
	for (size_t t = 0; t < sizeof(tiles) / sizeof(tiles[0]); t++) {
		make_tile_image(tiles[t], patches);
		ASSERT_EQ(0, c600_sim_sram_read(sim, tiles[t], 0x4c010, got, sizeof(got)));
		ASSERT_EQ(0, memcmp(got, tile_img, sizeof(got))) TH_LOG("tile %u", tiles[t]);
		ASSERT_EQ(0, c600_sim_sram_read(sim, tiles[t], 0x4c000, got, 16));
		EXPECT_EQ(0x1000, got[0] | got[1] << 8);	/* the bootloader's first word */
	}
}

/* 1472 identical images take one image's pages, and a reset frees them. */
TEST_F(device, identical_tiles_share_pages)
{
	ASSERT_TRUE(autoload_as_recorded(self->sim));
	/* the bootloader: one page for every tile */
	EXPECT_EQ(1, self->sim->stats.sram_pages);
	ASSERT_TRUE(load(self->sim, self->buf, 0));
	expect_image(_metadata, self->sim, 0);
	EXPECT_LE(self->sim->stats.sram_pages, IMG_PAGES);
	EXPECT_GE(self->sim->stats.sram_pages, IMG_PAGES - 1);
	EXPECT_LE(self->sim->stats.sram_bytes, (IMG_PAGES + 1) * PAGE);
	printf("# identical: %u pages, %u bytes (one tile's image: %u pages)\n",
	       self->sim->stats.sram_pages, self->sim->stats.sram_bytes, IMG_PAGES);
	fflush(stdout);
	c600_sim_reset(self->sim);
	EXPECT_EQ(0, self->sim->stats.sram_pages);
	EXPECT_EQ(0, self->sim->stats.sram_bytes);
	EXPECT_EQ(0, self->sim->sram.pages);
	EXPECT_EQ(NULL, self->sim->sram.spare);
	EXPECT_EQ(NULL, self->sim->ts[700].page[3]);
}

/*
 * With a few words of its own per tile (as bench/load_bench's images), each
 * tile adds at most one page per patched word, at least one page: the
 * footprint grows with the distinct data, not with tiles x image size.
 */
TEST_F(device, patched_tiles_grow_in_proportion)
{
	const uint32_t patches[] = { 1, 8 };

	for (size_t i = 0; i < 2; i++) {
		uint32_t pages;

		ASSERT_TRUE(load(self->sim, self->buf, patches[i]));
		expect_image(_metadata, self->sim, patches[i]);
		pages = self->sim->stats.sram_pages;
		printf("# %u patches per tile: %u pages, %u bytes\n", patches[i], pages,
		       self->sim->stats.sram_bytes);
		fflush(stdout);
		EXPECT_GE(pages, TILES * (patches[i] == 1 ? 1 : 4));
		EXPECT_LE(pages, IMG_PAGES + TILES * patches[i]);
		EXPECT_LE(self->sim->stats.sram_bytes, (pages + 1) * PAGE);
		c600_sim_reset(self->sim);
		EXPECT_EQ(0, self->sim->stats.sram_pages);
		EXPECT_EQ(0, self->sim->stats.sram_bytes);
	}
}

TEST_HARNESS_MAIN
