/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Bring a simulated device to RUNNING with a small 1472-tile image, for
 * device tests whose subject comes after the load (host exchange, events).
 * Include after kselftest_harness.h and ipuxcom.h.
 */
#ifndef IXT_LOAD_H
#define IXT_LOAD_H

#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipuxcom.h"

/* Smallest image the loader takes in two or more frames (HW-LOADER-LIMITS: 0x4134). */
#define IXT_SMALL_IMAGE_BYTES	0x4140u

static uint8_t ixt_small_image[IXT_SMALL_IMAGE_BYTES];

static int ixt_small_source(void *ctx, uint32_t tile, const void **image,
			    struct ipuxcom_errmsg *em)
{
	(void)ctx;
	(void)em;
	memset(ixt_small_image, 0x5a, sizeof(ixt_small_image));
	memcpy(ixt_small_image, &tile, sizeof(tile));	/* tiles differ */
	*image = ixt_small_image;
	return 0;
}

/* Reset the attached device and load a small image; 0 or -errno (@msg says). */
static inline int ixt_load_small(struct ipuxcom *ipu, char *msg, size_t msglen)
{
	struct ipuxcom_image_pack_params pp = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = 1472, .image_size = IXT_SMALL_IMAGE_BYTES,
		.load_base = IPUXCOM_IMG_PAYLOAD_BASE, .entry = IPUXCOM_IMG_PAYLOAD_BASE,
		.template_tile = 0,
	};
	static const uint8_t boot[1024];
	struct ipuxcom_load_params lp = {
		.size = sizeof(struct ipuxcom_load_params),
		.bootloader = boot, .bootloader_size = sizeof(boot),
	};
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	struct ipuxcom_image *img = NULL;
	struct ipuxcom_errmsg em = { "" };
	void *file = NULL;
	size_t len = 0;
	int err;

	err = ipuxcom_reset(ipu, NULL);
	if (!err)
		err = ipuxcom_image_pack(&pp, ixt_small_source, NULL, &file, &len, &em);
	if (!err)
		err = ipuxcom_image_from_buffer(file, len, &img, &em);
	free(file);
	if (err) {
		snprintf(msg, msglen, "image: %s", em.msg);
		return err;
	}
	lp.image = img;
	err = ipuxcom_load(ipu, &lp, &res);
	ipuxcom_image_free(img);
	if (err)
		snprintf(msg, msglen, "load: %s", res.msg);
	return err;
}

/* The same image, packed once (for tests that load it many times). */
static inline int ixt_pack_small(struct ipuxcom_image **img, char *msg, size_t msglen)
{
	struct ipuxcom_image_pack_params pp = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = 1472, .image_size = IXT_SMALL_IMAGE_BYTES,
		.load_base = IPUXCOM_IMG_PAYLOAD_BASE, .entry = IPUXCOM_IMG_PAYLOAD_BASE,
		.template_tile = 0,
	};
	struct ipuxcom_errmsg em = { "" };
	void *file = NULL;
	size_t len = 0;
	int err;

	*img = NULL;
	err = ipuxcom_image_pack(&pp, ixt_small_source, NULL, &file, &len, &em);
	if (!err)
		err = ipuxcom_image_from_buffer(file, len, img, &em);
	free(file);
	if (err)
		snprintf(msg, msglen, "image: %s", em.msg);
	return err;
}

/* Load @img (ixt_pack_small) onto the attached, reset device; 0 or -errno. */
static inline int ixt_load_image(struct ipuxcom *ipu, const struct ipuxcom_image *img,
				 char *msg, size_t msglen)
{
	static const uint8_t boot[1024];
	struct ipuxcom_load_params lp = {
		.size = sizeof(struct ipuxcom_load_params),
		.image = img, .bootloader = boot, .bootloader_size = sizeof(boot),
	};
	struct ipuxcom_load_result res = IPUXCOM_LOAD_RESULT_INIT;
	int err;

	err = ipuxcom_load(ipu, &lp, &res);
	if (err)
		snprintf(msg, msglen, "load: %s", res.msg);
	return err;
}

/*
 * The small image and a 1 KiB bootloader as files, for tests of the
 * `ipuxcom load` command: mkstemp() on the two templates; 0 or -errno.
 */
static inline int ixt_small_files(char *img_path, char *boot_path, char *msg, size_t msglen)
{
	struct ipuxcom_image_pack_params pp = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = 1472, .image_size = IXT_SMALL_IMAGE_BYTES,
		.load_base = IPUXCOM_IMG_PAYLOAD_BASE, .entry = IPUXCOM_IMG_PAYLOAD_BASE,
	};
	static const uint8_t boot[1024];
	struct ipuxcom_errmsg em = { "" };
	void *file = NULL;
	size_t len = 0;
	int err, fd;

	err = ipuxcom_image_pack(&pp, ixt_small_source, NULL, &file, &len, &em);
	if (err) {
		snprintf(msg, msglen, "image: %s", em.msg);
		return err;
	}
	fd = mkstemp(img_path);
	err = fd < 0 || write(fd, file, len) != (ssize_t)len ? -EIO : 0;
	free(file);
	if (fd >= 0)
		close(fd);
	if (!err) {
		fd = mkstemp(boot_path);
		err = fd < 0 || write(fd, boot, sizeof(boot)) != (ssize_t)sizeof(boot) ? -EIO : 0;
		if (fd >= 0)
			close(fd);
	}
	if (err)
		snprintf(msg, msglen, "cannot write the image or the bootloader file");
	return err;
}

#endif /* IXT_LOAD_H */
