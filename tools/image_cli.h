/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ipuxcom command's image, frames, cfg and hsp objects (tools/image.c,
 * frames.c, cfg.c, hsp.c) and the helpers they share.
 */
#ifndef IPUXCOM_TOOLS_IMAGE_CLI_H
#define IPUXCOM_TOOLS_IMAGE_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "outfile.h"

extern const struct cli_object cli_obj_image;
extern const struct cli_object cli_obj_frames;
extern const struct cli_object cli_obj_cfg;
extern const struct cli_object cli_obj_hsp;

/* Kept for callers not yet converted: new code calls outfile_write_all(). */
static inline int imgcli_write_file(const struct cli_call *call, const char *path,
				    const void *data, size_t len)
{
	return outfile_write_all(call, path, data, len);
}

#endif /* IPUXCOM_TOOLS_IMAGE_CLI_H */
