// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's DMA port (c600_sim_set_dma_port()): with a port set,
 * every read and write of host memory the model does goes to the port's
 * callbacks (the QEMU device turns them into PCI DMA), not to its
 * host-region table; a failing callback fails the model's access; the
 * dma_error fault still wins; unset, the table serves again.
 *
 * The model is driven as in sim_load_test: the seed's autoloader sequence,
 * then loader batches read from slot 0, which the port serves.
 */
#include "kselftest_harness.h"

#include "c600_sim.h"
#include "frames_testlib.h"
#include "c600_record.h"
#include "sim_drive.h"

#define FRAMES		17
#define BATCH_BYTES	IXT_BATCH_BYTES(FRAMES)
/* Where slot 0 lives on the device side (as the QEMU device maps it). */
#define SLOT0_BUS	(1ull << 40)

struct port_log {
	uint8_t *buf;		/* what the port serves at SLOT0_BUS */
	size_t size;
	unsigned int reads, writes;
	uint64_t bytes_read;
	uint64_t first_bus;
	int fail;		/* != 0: every call returns this */
};

static int port_read(void *ctx, u64 bus, void *dst, size_t len)
{
	struct port_log *l = ctx;

	if (!l->reads++)
		l->first_bus = bus;
	if (l->fail)
		return l->fail;
	if (bus < SLOT0_BUS || bus - SLOT0_BUS > l->size || len > l->size - (bus - SLOT0_BUS))
		return -EFAULT;
	memcpy(dst, l->buf + (bus - SLOT0_BUS), len);
	l->bytes_read += len;
	return 0;
}

static int port_write(void *ctx, u64 bus, const void *src, size_t len)
{
	struct port_log *l = ctx;

	l->writes++;
	if (l->fail)
		return l->fail;
	if (bus < SLOT0_BUS || bus - SLOT0_BUS > l->size || len > l->size - (bus - SLOT0_BUS))
		return -EFAULT;
	memcpy(l->buf + (bus - SLOT0_BUS), src, len);
	return 0;
}

FIXTURE(port) {
	struct c600_sim *sim;
	struct port_log log;
	struct c600_sim_dma_port port;
};

FIXTURE_SETUP(port)
{
	self->sim = c600_sim_create();
	ASSERT_NE(NULL, self->sim);
	memset(&self->log, 0, sizeof(self->log));
	self->log.size = BATCH_BYTES;
	self->log.buf = calloc(1, BATCH_BYTES);
	ASSERT_NE(NULL, self->log.buf);
	self->port.read = port_read;
	self->port.write = port_write;
	self->port.ctx = &self->log;
}

FIXTURE_TEARDOWN(port)
{
	c600_sim_destroy(self->sim);
	free(self->log.buf);
}

/* Autoloader, HEXOPT, slot 0 attached at SLOT0_BUS, all controls armed. */
static bool to_loader(struct c600_sim *sim)
{
	if (!autoload_as_recorded(sim) || sim->phase != C600_PHASE_LOADER)
		return false;
	wr(sim, REC_EXCHWINDOWBASER, 0x800);
	if (c600_sim_buffer_attach(sim, 0, SLOT0_BUS, BATCH_BYTES))
		return false;
	for (int i = 0; i < 8; i++) {
		wr(sim, REC_DCXCR_PRI(i), REC_DCXCR_LOADING);
		wr(sim, REC_DCXCR_SEC(i), REC_DCXCR_LOADING);
	}
	return true;
}

/* No host region at all: the 23 batches come through the port alone. */
TEST_F(port, loader_batches_read_through_the_port)
{
	c600_sim_set_dma_port(self->sim, &self->port);
	ASSERT_TRUE(to_loader(self->sim));
	for (uint32_t b = 0; b < 23; b++) {
		ixt_write_batch(self->log.buf, b, FRAMES);
		ASSERT_TRUE(mark(self->sim, 1)) TH_LOG("batch %u", b);
	}
	EXPECT_EQ(23, self->sim->stats.load_batches);
	EXPECT_EQ(0, self->sim->stats.rejected_batches);
	EXPECT_LT(0, self->log.reads);
	EXPECT_EQ(SLOT0_BUS, self->log.first_bus);
	EXPECT_LE((uint64_t)23 * FRAMES * 248 * 4, self->log.bytes_read);
	/* what a tile got is what the port served */
	for (uint32_t i = 0; i < FRAMES * 248; i += 101) {
		uint8_t w[4];

		ASSERT_EQ(0, c600_sim_sram_read(self->sim, 700, 0x4c010 + i * 4, w, 4));
		EXPECT_EQ(ixt_payload_word(700, i),
			  (uint32_t)w[0] | w[1] << 8 | w[2] << 16 | (uint32_t)w[3] << 24);
	}
}

/* The model's exported accessors go to the port, both directions. */
TEST_F(port, dma_read_write_use_the_port)
{
	uint8_t b[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, r[8] = { 0 };

	c600_sim_set_dma_port(self->sim, &self->port);
	ASSERT_EQ(0, c600_sim_dma_write(self->sim, SLOT0_BUS + 16, b, sizeof(b)));
	EXPECT_EQ(1, self->log.writes);
	EXPECT_EQ(0, memcmp(self->log.buf + 16, b, sizeof(b)));
	ASSERT_EQ(0, c600_sim_dma_read(self->sim, SLOT0_BUS + 16, r, sizeof(r)));
	EXPECT_EQ(1, self->log.reads);
	EXPECT_EQ(0, memcmp(r, b, sizeof(b)));
	/* a failing callback's error is the access's */
	self->log.fail = -EFAULT;
	EXPECT_EQ(-EFAULT, c600_sim_dma_read(self->sim, SLOT0_BUS, r, 4));
	EXPECT_EQ(-EFAULT, c600_sim_dma_write(self->sim, SLOT0_BUS, b, 4));
	self->log.fail = 0;
	/* the dma_error fault wins over the port: the callback is not called */
	self->sim->faults.dma_error = true;
	EXPECT_EQ(-EIO, c600_sim_dma_read(self->sim, SLOT0_BUS, r, 4));
	EXPECT_EQ(2, self->log.reads);
	self->sim->faults.dma_error = false;
}

/* A failing port makes the loader batch fail, as an unmapped IOVA would. */
TEST_F(port, failing_port_rejects_the_batch)
{
	c600_sim_set_dma_port(self->sim, &self->port);
	ASSERT_TRUE(to_loader(self->sim));
	ixt_write_batch(self->log.buf, 0, FRAMES);
	self->log.fail = -EFAULT;
	wr(self->sim, REC_GS1, 1);
	EXPECT_LT(0, self->log.reads);
	EXPECT_EQ(0, self->sim->stats.load_batches);
	EXPECT_EQ(1, self->sim->stats.rejected_batches);
	/* the mark is not answered: it stays */
	EXPECT_EQ(1, rd(self->sim, REC_GS1) & 0xffff);
}

/* Unset (NULL, or a port without callbacks): the host-region table again. */
TEST_F(port, unset_port_uses_the_table)
{
	uint8_t host[64] = { 0 }, r[4];

	host[8] = 0x5a;
	ASSERT_EQ(0, c600_sim_host_map(self->sim, 0x1000, host, sizeof(host)));
	c600_sim_set_dma_port(self->sim, &self->port);
	EXPECT_EQ(-EFAULT, c600_sim_dma_read(self->sim, 0x1008, r, 1));
	EXPECT_EQ(1, self->log.reads);
	c600_sim_set_dma_port(self->sim, NULL);
	ASSERT_EQ(0, c600_sim_dma_read(self->sim, 0x1008, r, 1));
	EXPECT_EQ(0x5a, r[0]);
	EXPECT_EQ(1, self->log.reads);
	self->port.read = NULL;
	c600_sim_set_dma_port(self->sim, &self->port);
	ASSERT_EQ(0, c600_sim_dma_read(self->sim, 0x1008, r, 1));
	EXPECT_EQ(1, self->log.reads);
}

TEST_HARNESS_MAIN
