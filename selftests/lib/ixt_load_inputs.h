/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files an `ipuxcom load --hostx` needs, written into a directory for
 * the tests of the command's checks (host: load_check_test, device:
 * loadcheck_test): DIR/app.ipuimg (the small 1472-tile image of
 * ixt_load.h), DIR/boot.bin (1024 raw bytes), DIR/m.ipuhsp (the notes'
 * oracle manifest: write takes one 64-byte input, read gives one 64-byte
 * output, run neither) and DIR/in64.bin (64 bytes, write's input).
 * Include after kselftest_harness.h.
 */
#ifndef IXT_LOAD_INPUTS_H
#define IXT_LOAD_INPUTS_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "image_testlib.h"
#include "ixt_hsp_oracle.h"
#include "ixt_load.h"

/* 0, or -errno with @msg saying what failed. */
static inline int ixt_write_load_inputs(const char *dir, char *msg, size_t msglen)
{
	struct ipuxcom_image_pack_params pp = {
		.tile_count = 1472, .image_size = IXT_SMALL_IMAGE_BYTES,
		.load_base = IPUXCOM_IMG_PAYLOAD_BASE, .entry = IPUXCOM_IMG_PAYLOAD_BASE,
	};
	static const char manifest[] = IXT_HSP_ORACLE;
	static const uint8_t boot[1024], in[64];
	struct ipuxcom_errmsg em = { "" };
	char path[PATH_MAX];
	void *file = NULL;
	size_t len = 0;
	int err;

	err = ipuxcom_image_pack(&pp, ixt_small_source, NULL, &file, &len, &em);
	if (err) {
		snprintf(msg, msglen, "pack: %s", em.msg);
		return err;
	}
	snprintf(path, sizeof(path), "%s/app.ipuimg", dir);
	err = ixt_write_file(path, file, len);
	free(file);
	if (!err) {
		snprintf(path, sizeof(path), "%s/boot.bin", dir);
		err = ixt_write_file(path, boot, sizeof(boot));
	}
	if (!err) {
		snprintf(path, sizeof(path), "%s/m.ipuhsp", dir);
		err = ixt_write_file(path, manifest, sizeof(manifest) - 1);
	}
	if (!err) {
		snprintf(path, sizeof(path), "%s/in64.bin", dir);
		err = ixt_write_file(path, in, sizeof(in));
	}
	if (err)
		snprintf(msg, msglen, "%.200s: %s", path, strerror(-err));
	return err;
}

#endif /* IXT_LOAD_INPUTS_H */
