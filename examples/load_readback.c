// SPDX-License-Identifier: GPL-2.0-only
/*
 * load_readback: load an application and read it back on a device, as an
 * example of libipuxcom (libipuxcom(3) EXAMPLES). Needs the ipuxcom
 * module and a device (the simulator or a card); `make` builds it, and the
 * test VM runs it on the simulator (selftests/device/load_readback_test.c).
 *
 *   load_readback IMAGE BOOTLOADER [DEV [CONFIG]]
 *
 * Lists the devices over netlink, attaches DEV (default: the lowest id
 * listed) and runs the load's whole session: ipuxcom_load() initialises
 * the device, replays the IPUCFG1 config capture CONFIG (required on a
 * card, which is refused without one; optional on the simulator) and
 * loads the IPUIMG1 image IMAGE with the tile bootloader BOOTLOADER (the
 * SDK's ELF or raw bytes), then reads the first
 * words of every tile's image back through TDI and compares them with the
 * image: prints how many tiles matched and PASS, or the first mismatch
 * and FAIL (exit 1).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom.h>

#define WORDS	4u	/* words read back per tile */

static int fail(const char *what, int err, const char *msg)
{
	/* The one explainer; the call's own message when it has one. */
	fprintf(stderr, "load_readback: %s: %s%s%s\n", what, ipuxcom_strerror(err),
		msg && *msg ? ": " : "", msg ? msg : "");
	return 1;
}

/* The lowest device id the module lists, like the ipuxcom command. */
static int pick_device(uint32_t *dev)
{
	struct ipuxcom_device_info *devs;
	struct ipuxcom_nl *nl;
	size_t n;
	int err = ipuxcom_nl_open(&nl);

	if (err)
		return fail("netlink", err, NULL);
	err = ipuxcom_nl_dev_list(nl, &devs, &n);
	if (err) {
		fail("listing the devices", err, ipuxcom_nl_errmsg(nl));
		ipuxcom_nl_close(nl);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		printf("device %" PRIu32 ": %s, %s, %" PRIu32 " tiles\n", devs[i].dev_id,
		       devs[i].backend, ipuxcom_dev_state_name(devs[i].state), devs[i].tile_count);
		if (i == 0 || devs[i].dev_id < *dev)
			*dev = devs[i].dev_id;
	}
	ipuxcom_nl_dev_list_free(devs);
	ipuxcom_nl_close(nl);
	if (!n) {
		fprintf(stderr, "load_readback: no device\n");
		return 1;
	}
	return 0;
}

static int readback(struct ipuxcom *ipu, const struct ipuxcom_image *img)
{
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	uint8_t *want;

	ipuxcom_image_get_info(img, &info);
	want = malloc(info.image_size);
	if (!want)
		return fail("memory", -12, NULL);
	for (uint32_t t = 0; t < IPUXCOM_TILES; t++) {
		struct ipuxcom_errmsg em;
		uint32_t got[WORDS], exp[WORDS];
		int err = ipuxcom_image_extract(img, t, want, info.image_size, &em);

		if (err) {
			free(want);
			return fail("image", err, em.msg);
		}
		/* the loader installs image byte 0 at IPUXCOM_IMG_PAYLOAD_BASE [S] */
		err = ipuxcom_tdi_read_sram(ipu, t, IPUXCOM_IMG_PAYLOAD_BASE, got, WORDS, NULL);
		if (err) {
			free(want);
			return fail("TDI read", err, NULL);
		}
		memcpy(exp, want, sizeof(exp));
		if (memcmp(got, exp, sizeof(exp))) {
			printf("tile %" PRIu32 ": read 0x%08" PRIx32 ", image 0x%08" PRIx32 "\n", t,
			       got[0], exp[0]);
			free(want);
			return 1;
		}
	}
	free(want);
	printf("%u tiles read back: the first %u words of each equal the image\n",
	       (unsigned int)IPUXCOM_TILES, WORDS);
	return 0;
}

int main(int argc, char **argv)
{
	struct ipuxcom_load_params params = IPUXCOM_LOAD_PARAMS_INIT;
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	struct ipuxcom_bootloader bl = IPUXCOM_BOOTLOADER_INIT;
	struct ipuxcom_cfg_record *cfg = NULL;
	uint32_t ncfg = 0;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	struct ipuxcom *ipu;
	uint32_t dev = 0;
	int err, rc;

	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: load_readback IMAGE BOOTLOADER [DEV [CONFIG]]\n");
		return 2;
	}
	if (argc >= 4)
		dev = (uint32_t)strtoul(argv[3], NULL, 0);
	else if (pick_device(&dev))
		return 1;
	if ((err = ipuxcom_image_open(argv[1], &img, &em)))
		return fail(argv[1], err, em.msg);
	if ((err = ipuxcom_bootloader_load(argv[2], &bl, &em))) {
		ipuxcom_image_free(img);
		return fail(argv[2], err, em.msg);
	}
	if (argc == 5 && (err = ipuxcom_cfg_load(argv[4], &cfg, &ncfg, &em))) {
		rc = fail(argv[4], err, em.msg);
		goto out;
	}
	/* before opening a card: ipu_driver's signals must not kill us */
	err = ipuxcom_block_driver_signals();
	if (!err)
		err = ipuxcom_open(NULL, &ipu);
	if (err) {
		rc = fail("open", err, NULL);
		goto out;
	}
	err = ipuxcom_attach(ipu, dev);
	if (err) {
		rc = fail("attach", err, ipuxcom_errmsg(ipu));
		goto close;
	}
	/* the session: initialisation, the config replay, the load */
	params.image = img;
	params.bootloader = bl.image;
	params.bootloader_size = bl.image_size;
	params.cfg = cfg;
	params.cfg_count = ncfg;
	err = ipuxcom_load(ipu, &params, &res);
	if (err) {
		rc = fail("load", err, res.msg);
		goto close;
	}
	printf("loaded %s on device %" PRIu32 "\n", argv[1], dev);
	rc = readback(ipu, img);
	printf("%s\n", rc ? "FAIL" : "PASS");
close:
	ipuxcom_close(ipu);
out:
	free(cfg);
	ipuxcom_bootloader_free(&bl);
	ipuxcom_image_free(img);
	return rc;
}
