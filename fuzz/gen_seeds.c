// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed corpus for the fuzz targets, generated at build time so the
 * repository holds no binary files: small valid IPUIMG1, IPUCFG1 and
 * .ipuhsp files made with the library itself. (Tile ELF seeds are built
 * by the Makefile from fuzz/seed_tile.S with the system toolchain.)
 *
 * Usage: gen_seeds DIR   (writes DIR/ipuimg, DIR/ipucfg, DIR/hsp)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ipuxcom.h>

static int write_file(const char *dir, const char *sub, const char *name, const void *d,
		      size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	f = fopen(path, "wb");
	if (!f || fwrite(d, 1, len, f) != len || fclose(f)) {
		perror(path);
		return -1;
	}
	return 0;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static int image(const char *dir, const char *name, uint32_t tiles, uint32_t size,
		 uint32_t tmpl)
{
	struct ipuxcom_image_pack_params p = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = tiles, .image_size = size, .load_base = IPUXCOM_IMG_PAYLOAD_BASE,
		.entry = IPUXCOM_IMG_PAYLOAD_BASE, .template_tile = tmpl,
	};
	struct ipuxcom_errmsg em;
	uint8_t *imgs[8];
	void *data;
	size_t len;
	int rc;

	for (uint32_t t = 0; t < tiles; t++) {
		imgs[t] = calloc(1, size);
		for (uint32_t i = 0; i < size; i++)
			imgs[t][i] = (uint8_t)(i * 7);
		put32(imgs[t], 0x12345678);			/* nop */
		put32(imgs[t] + 4, IPUXCOM_INSN_SYNC_SUPERVISOR);	/* sync3 */
		if (size >= 64) {				/* marker + sync3 */
			put32(imgs[t] + 32, 0x11111111);
			put32(imgs[t] + 36, 0x22222222);
			put32(imgs[t] + 40, IPUXCOM_INSN_SYNC_SUPERVISOR);
		}
		imgs[t][size - 1] = (uint8_t)t;			/* distinct tiles */
		imgs[t][size / 2] = (uint8_t)(t * 3);
		imgs[t][size / 2 + 3] = (uint8_t)(t * 5);
	}
	rc = ipuxcom_image_pack_buffers(&p, (const void *const *)imgs, &data, &len, &em);
	for (uint32_t t = 0; t < tiles; t++)
		free(imgs[t]);
	if (rc) {
		fprintf(stderr, "%s: %s\n", name, em.msg);
		return -1;
	}
	rc = write_file(dir, "ipuimg", name, data, len);
	free(data);
	return rc;
}

static int cfg(const char *dir)
{
	struct ipuxcom_cfg_record r[16];
	struct ipuxcom_errmsg em;
	uint32_t n = 0;
	void *data;
	size_t len;
	int rc;

	r[n++] = (struct ipuxcom_cfg_record){ 0x2068, 0 };
	r[n++] = (struct ipuxcom_cfg_record){ 0x2070, 0xdeadbeef };
	r[n++] = (struct ipuxcom_cfg_record){ 0x206c, 0x02000400 };
	r[n++] = (struct ipuxcom_cfg_record){ 0x2068, 0x0010013f };
	r[n++] = (struct ipuxcom_cfg_record){ 0x5404, 0x07fffffa };
	r[n++] = (struct ipuxcom_cfg_record){ 0x1b804, 0x07fffffa };
	r[n++] = (struct ipuxcom_cfg_record){ 0x30000 + 5 * 0x40 + 28, 1 };
	r[n++] = (struct ipuxcom_cfg_record){ 0x4000, 2 };
	if (ipuxcom_cfg_serialize(r, n, &data, &len, &em)) {
		fprintf(stderr, "cfg: %s\n", em.msg);
		return -1;
	}
	rc = write_file(dir, "ipucfg", "init.ipucfg", data, len);
	free(data);
	return rc;
}

static const char oracle[] =
	"# sdk_host_tensor_oracle [S]\n"
	"ipuhsp 1\n"
	"page 0 size 4096\n"
	"page 1 size 4096\n"
	"attach 1 0\n"
	"command page 1 offset 0x0\n"
	"call run id 0 phases 2\n"
	"call read id 1 phases 4\n"
	"call write id 2 phases 4\n"
	"input write page 0 offset 0x40 size 64\n"
	"output read page 0 offset 0x40 size 64\n"
	"end\n";

static const char multi[] =
	"ipuhsp 1\n"
	"page 0 size 0x2000\n"
	"page 1 size 4096\n"
	"page 2 size 4096\n"
	"attach 2 0 1\n"
	"command page 2 offset 0xffc\n"
	"call step id 7 phases 3\n"
	"input step page 0 offset 0 size 16\n"
	"input step page 1 offset 16 size 16\n"
	"output step page 0 offset 0x100 size 0x100\n"
	"end\n";

/* Transfer lists for sched_fuzz: point-to-point, multicasts, 64-bit routes. */
static const char sched_p2p[] =
	"p2p 0 5 70\n"
	"p2p 5 0 33 src=0x80004 dst=0x50004\n"
	"p2p 1 5 12\n";

static const char sched_mcast[] =
	"physical\n"
	"# P to A then B; S to A and B\n"
	"p2p 100 300 49 src=0x80000 dst=0x50004\n"
	"p2p 100 400 49 src=0x80400 dst=0x50004\n"
	"multicast 200 49 300 400 src=0x80000 dst=0x50404\n"
	"multicast 7 64 12 20 33 41 src=0x80800\n";

static const char sched_wide[] =
	"physical\n"
	"p2p 0 64 100 src=0x80000 dst=0x50000\n"
	"p2p 0 1 100\n"
	"p2p 2 9 3\n";

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	if (mkdir(argv[1], 0755) && errno != EEXIST) {
		perror(argv[1]);
		return 1;
	}
	if (image(argv[1], "four.ipuimg", 4, 96, 1) || image(argv[1], "one.ipuimg", 1, 64, 0) ||
	    image(argv[1], "eight.ipuimg", 8, 200, IPUXCOM_IMG_TEMPLATE_AUTO) || cfg(argv[1]) ||
	    write_file(argv[1], "hsp", "oracle.ipuhsp", oracle, strlen(oracle)) ||
	    write_file(argv[1], "hsp", "multi.ipuhsp", multi, strlen(multi)) ||
	    write_file(argv[1], "sched", "p2p.txt", sched_p2p, strlen(sched_p2p)) ||
	    write_file(argv[1], "sched", "mcast.txt", sched_mcast, strlen(sched_mcast)) ||
	    write_file(argv[1], "sched", "wide.txt", sched_wide, strlen(sched_wide)))
		return 1;
	return 0;
}
