// SPDX-License-Identifier: GPL-2.0-only
/*
 * load_demo: the main job of `make demo`, as an example of libipuxcom.
 *
 *   load_demo write DIR BOOT   write 1472 distinct tile images DIR/N.bin
 *                              (N = physical tile) and a stand-in
 *                              bootloader BOOT, for `ipuxcom image pack`
 *                              and `ipuxcom load`
 *   load_demo verify DIR [DEV] read sampled words of every tile of device
 *                              DEV (default 0) back through TDI and
 *                              compare them with DIR/N.bin; prints PASS or
 *                              the first mismatch
 *
 * The images are modelled on the design notes' matmul set: one shared body
 * with a few per-tile words (the tile's own id among them). The
 * bootloader is a stand-in: the simulated C600 installs it on every tile
 * but, like any tile code, does not execute it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom.h>

#define TILES		1472u
#define IMG_BYTES	(32u * 1024)
#define IMG_WORDS	(IMG_BYTES / 4)
#define SAMPLES		8u

static void make_image(uint32_t tile, uint32_t *w)
{
	for (uint32_t i = 0; i < IMG_WORDS; i++)
		w[i] = 0x9e3779b9u * (i + 1) ^ (i << 11);
	w[0] = 0x1d950000u | tile;	/* the tile's own id first */
	for (uint32_t k = 1; k < SAMPLES; k++)
		w[(tile * 131 + k * 977) % IMG_WORDS] = tile << 16 | k;
}

/* Word indices checked on @tile: the per-tile ones, the first and the last. */
static uint32_t sample_index(uint32_t tile, uint32_t k)
{
	if (k == 0)
		return 0;
	if (k == SAMPLES)
		return IMG_WORDS - 1;
	return (tile * 131 + k * 977) % IMG_WORDS;
}

static int write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f) {
		fprintf(stderr, "load_demo: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ok = fwrite(data, 1, len, f) == len;
	ok = !fclose(f) && ok;
	if (!ok)
		fprintf(stderr, "load_demo: %s: write failed\n", path);
	return ok ? 0 : -1;
}

static int demo_write(const char *dir, const char *boot_path)
{
	static uint32_t img[IMG_WORDS];
	uint8_t boot[1024];
	char path[4096];

	for (size_t i = 0; i < sizeof(boot); i++)
		boot[i] = (uint8_t)(i * 7 + 3);
	if (write_file(boot_path, boot, sizeof(boot)))
		return 1;
	for (uint32_t t = 0; t < TILES; t++) {
		make_image(t, img);
		snprintf(path, sizeof(path), "%s/%" PRIu32 ".bin", dir, t);
		if (write_file(path, img, sizeof(img)))
			return 1;
	}
	printf("wrote %u tile images of %u bytes to %s, bootloader %s\n", TILES, IMG_BYTES,
	       dir, boot_path);
	return 0;
}

static int demo_verify(const char *dir, uint32_t dev)
{
	static uint32_t img[IMG_WORDS];
	struct ipuxcom *ipu;
	uint32_t checked = 0;
	char path[4096];
	int err;

	/*
	 * On a card, ipu_driver signals the process that holds it (44-49):
	 * every thread that waits on a card blocks them first (libipuxcom(3)).
	 */
	err = ipuxcom_block_driver_signals();
	if (!err)
		err = ipuxcom_open(NULL, &ipu);
	if (!err)
		err = ipuxcom_attach(ipu, dev);
	if (err) {
		fprintf(stderr, "load_demo: device %" PRIu32 ": %s\n", dev, ipuxcom_strerror(err));
		return 1;
	}
	for (uint32_t t = 0; t < TILES; t++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%" PRIu32 ".bin", dir, t);
		f = fopen(path, "rb");
		if (!f || fread(img, 1, sizeof(img), f) != sizeof(img)) {
			fprintf(stderr, "load_demo: cannot read %s\n", path);
			if (f)
				fclose(f);
			ipuxcom_close(ipu);
			return 1;
		}
		fclose(f);
		for (uint32_t k = 0; k <= SAMPLES; k++) {
			uint32_t i = sample_index(t, k), v = 0;
			/* the loader installs image byte 0 at 0x4c010 [S] */
			uint32_t addr = IPUXCOM_IMG_PAYLOAD_BASE + i * 4;

			err = ipuxcom_tdi_read_sram(ipu, t, addr, &v, 1, NULL);
			if (err || v != img[i]) {
				printf("FAIL: tile %" PRIu32 " word 0x%" PRIx32 ": %s 0x%08" PRIx32
				       ", image has 0x%08" PRIx32 "\n", t, addr,
				       err ? ipuxcom_strerror(err) : "read", v, img[i]);
				ipuxcom_close(ipu);
				return 1;
			}
			checked++;
		}
	}
	ipuxcom_close(ipu);
	printf("%u tiles, %" PRIu32 " words read back through TDI: PASS\n", TILES, checked);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "write"))
		return demo_write(argv[2], argv[3]);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "verify")) {
		char *end = NULL;
		unsigned long dev = argc == 4 ? strtoul(argv[3], &end, 0) : 0;

		if (argc == 4 && (!*argv[3] || *end || dev > UINT32_MAX)) {
			fprintf(stderr, "load_demo: bad device id '%s'\n", argv[3]);
			return 2;
		}
		return demo_verify(argv[2], (uint32_t)dev);
	}
	fprintf(stderr, "usage: load_demo write DIR BOOT | load_demo verify DIR [DEV]\n");
	return 2;
}
