/* SPDX-License-Identifier: GPL-2.0-only */
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

struct ixt_load_inputs {
	char dir[PATH_MAX];
	char img[PATH_MAX + 16], boot[PATH_MAX + 16], hsp[PATH_MAX + 16];
	char in[PATH_MAX + 16];		/* DIR/in64.bin */
	char write_in[PATH_MAX + 32];	/* the CALL "write:in=DIR/in64.bin" */
};

/*
 * A fresh directory (ixt_tmpdir()) with the files in it, their names in
 * @f; 0, or -errno with @msg saying what failed. ixt_rmtree(f->dir)
 * removes them.
 */
static inline int ixt_write_load_inputs(struct ixt_load_inputs *f, char *msg, size_t msglen)
{
	struct ipuxcom_image_pack_params pp = {
		.size = sizeof(struct ipuxcom_image_pack_params),
		.tile_count = 1472, .image_size = IXT_SMALL_IMAGE_BYTES,
		.load_base = IPUXCOM_IMG_PAYLOAD_BASE, .entry = IPUXCOM_IMG_PAYLOAD_BASE,
	};
	static const char manifest[] = IXT_HSP_ORACLE;
	static const uint8_t boot[1024], in[64];
	struct ipuxcom_errmsg em = { "" };
	const char *path = f->img;
	void *file = NULL;
	size_t len = 0;
	int err;

	if (!ixt_tmpdir(f->dir, sizeof(f->dir))) {
		snprintf(msg, msglen, "temporary directory: %s", strerror(errno));
		return -errno;
	}
	snprintf(f->img, sizeof(f->img), "%s/app.ipuimg", f->dir);
	snprintf(f->boot, sizeof(f->boot), "%s/boot.bin", f->dir);
	snprintf(f->hsp, sizeof(f->hsp), "%s/m.ipuhsp", f->dir);
	snprintf(f->in, sizeof(f->in), "%s/in64.bin", f->dir);
	snprintf(f->write_in, sizeof(f->write_in), "write:in=%s", f->in);
	err = ipuxcom_image_pack(&pp, ixt_small_source, NULL, &file, &len, &em);
	if (err) {
		snprintf(msg, msglen, "pack: %s", em.msg);
		return err;
	}
	err = ixt_write_file(path, file, len);
	free(file);
	if (!err)
		err = ixt_write_file(path = f->boot, boot, sizeof(boot));
	if (!err)
		err = ixt_write_file(path = f->hsp, manifest, sizeof(manifest) - 1);
	if (!err)
		err = ixt_write_file(path = f->in, in, sizeof(in));
	if (err)
		snprintf(msg, msglen, "%.200s: %s", path, strerror(-err));
	return err;
}

#endif /* IXT_LOAD_INPUTS_H */
