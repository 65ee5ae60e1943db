/* SPDX-License-Identifier: GPL-2.0 */
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

extern const struct cli_object cli_obj_image;
extern const struct cli_object cli_obj_frames;
extern const struct cli_object cli_obj_cfg;
extern const struct cli_object cli_obj_hsp;

/*
 * A 32-bit number: decimal without leading zeros, or 0x and 1-8 hex
 * digits (no octal surprises: "010" is refused).
 */
bool imgcli_parse_num(const char *s, uint32_t *out);

/*
 * Output file @path ("-": stdout) written through a temporary file in the
 * same directory and renamed into place, so that a failed command leaves
 * no partial file. Errors are reported; imgcli_out_close() returns 0 or
 * CLI_EXIT_ERR, and discards the file when @ok is false.
 */
struct imgcli_out;
int imgcli_out_open(const struct cli_call *call, const char *path, struct imgcli_out **out);
int imgcli_out_write(struct imgcli_out *o, const void *data, size_t len);
int imgcli_out_close(struct imgcli_out *o, bool ok);

/* Open + write + close. Returns 0 or CLI_EXIT_ERR. */
int imgcli_write_file(const struct cli_call *call, const char *path, const void *data,
		      size_t len);

#endif /* IPUXCOM_TOOLS_IMAGE_CLI_H */
