// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom frames IMG FIRST LAST -o FILE: the secondary loader's transport
 * buffer contents (descriptor area and 1 KiB frames) for a contiguous
 * range of physical tiles, as the notes' ipu_bootloader_frames tool emits.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom.h>

#include "image_cli.h"
#include "json.h"
#include "outfile.h"
#include "input.h"
#include "units.h"

static int frames_run(struct cli_call *call, int argc, char **argv)
{
	const char *out = NULL;
	const struct cli_opt opts[] = {
		{ "output", 'o', "FILE", "where to write the batches ('-': stdout)", NULL, &out },
	};
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	struct outfile *o = NULL;
	uint32_t first, last, per_tile = 0, batches = 0;
	uint64_t total = 0;
	uint8_t *buf = NULL;
	size_t cap = 0;
	char *pos[3];
	int npos, rc, err;

	rc = cli_parse(call, argc, argv, opts, 1, true, pos, 3, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos < 3)
		return cli_usage_err(call, "expected IMG FIRST LAST");
	if (!out)
		return cli_usage_err(call, "missing -o FILE");
	if (!cli_parse_u32(pos[1], &first) || first >= IPUXCOM_IMG_TILES)
		return cli_usage_err(call, "invalid first tile '%s': a decimal number 0..%u", pos[1],
				     IPUXCOM_IMG_TILES - 1);
	if (!cli_parse_u32(pos[2], &last) || last >= IPUXCOM_IMG_TILES)
		return cli_usage_err(call, "invalid last tile '%s': a decimal number 0..%u", pos[2],
				     IPUXCOM_IMG_TILES - 1);
	if (first > last)
		return cli_usage_err(call, "first tile %" PRIu32 " after last tile %" PRIu32,
				     first, last);
	/* -o -: the batches on stdout, the report on stderr. */
	rc = outfile_claim_stdout(call, out);
	if (rc)
		return rc;
	if (cli_input_image(pos[0], &img, &em)) {
		cli_err(call->what, "%s", em.msg);
		return CLI_EXIT_ERR;
	}
	ipuxcom_image_get_info(img, &info);
	if (last >= info.tile_count) {
		cli_err(call->what, "%s: tile %" PRIu32 " outside the image's tiles 0..%" PRIu32,
			cli_input_name(pos[0]), last, info.tile_count - 1);
		ipuxcom_image_free(img);
		return CLI_EXIT_ERR;
	}
	err = ipuxcom_frames_per_tile(info.image_size, &per_tile, &em);
	if (err) {
		cli_err(call->what, "%s: %s", cli_input_name(pos[0]), em.msg);
		ipuxcom_image_free(img);
		return CLI_EXIT_ERR;
	}
	rc = outfile_open(call, out, &o);
	if (rc) {
		ipuxcom_image_free(img);
		return rc;
	}
	/* One transport buffer per 64-tile batch, split where the loader's are. */
	for (uint32_t b = first; !rc; b++) {
		/* The last tile of b's batch, or @last. */
		uint32_t e = b | (IPUXCOM_FRAMES_DESC_ENTRIES - 1);
		size_t size;

		if (e > last)
			e = last;
		err = ipuxcom_frames_batch_size(img, b, e, &size, &em);
		if (!err && size > cap) {
			free(buf);
			buf = malloc(size);
			cap = buf ? size : 0;
			if (!buf) {
				cli_err(call->what, "out of memory");
				rc = CLI_EXIT_ERR;
				break;
			}
		}
		if (!err)
			err = ipuxcom_frames_build(img, b, e, buf, size, &em);
		if (err) {
			cli_err(call->what, "%s: %s", cli_input_name(pos[0]), em.msg);
			rc = CLI_EXIT_ERR;
			break;
		}
		rc = outfile_write(o, buf, size);
		total += size;
		batches++;
		if (e == last)
			break;
		b = e;
	}
	free(buf);
	ipuxcom_image_free(img);
	rc = outfile_close(o, rc == 0) ? CLI_EXIT_ERR : rc;
	if (rc)
		return rc;
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		/* "file" is the input everywhere, "output" what was written */
		json_kv_string(&w, "file", pos[0]);
		json_kv_string(&w, "output", out);
		json_kv_uint(&w, "first", first);
		json_kv_uint(&w, "last", last);
		json_kv_uint(&w, "batches", batches);
		json_kv_uint(&w, "frames_per_tile", per_tile);
		json_kv_uint(&w, "bytes_per_tile", (uint64_t)per_tile * IPUXCOM_FRAME_SIZE);
		json_kv_uint(&w, "bytes", total);
		json_end_object(&w);
	} else {
		char size[CLI_SIZE_LEN];

		printf("%s: tiles %" PRIu32 "..%" PRIu32 " in %" PRIu32 " batch%s: %" PRIu32
		       " frames (%" PRIu64 " bytes) per tile, %s\n",
		       outfile_is_stdout(out) ? "(stdout)" : out, first,
		       last, batches, batches > 1 ? "es" : "", per_tile,
		       (uint64_t)per_tile * IPUXCOM_FRAME_SIZE, cli_size(total, size, sizeof(size)));
	}
	return CLI_EXIT_OK;
}

static const struct cli_cmd frames_cmds[] = {
	{
		.name = NULL,
		.args = "IMG FIRST LAST -o FILE [-j|--json]",
		.summary = "secondary-loader frames for physical tiles FIRST..LAST",
		.description =
			"Write what the secondary loader reads from the transport buffer for\n"
			"physical tiles FIRST..LAST of IMG: a 4 KiB descriptor area (64 entries\n"
			"of {first frame's byte offset, frame count}, zero after) and, from\n"
			"0x1000, each tile's 1 KiB frames (chunk index, physical tile, flags with\n"
			"byte 11 = 8 on the final frame, reserved, 992 image bytes, 16 bytes of\n"
			"0xff). Descriptor slot i describes tile i of the tile's 64-tile batch\n"
			"(0-63, 64-127, ...), i.e. tile T is in slot T - (T rounded down to a\n"
			"multiple of 64), as in a real batch: for 70..75 tile 70 is in slot 6\n"
			"and the other slots are zero. A range crossing a batch boundary is\n"
			"written as one such buffer per batch, one after the other.\n"
			"Each tile's image is reconstructed and its CRC32 checked.",
		.run = frames_run,
	},
};

const struct cli_object cli_obj_frames = {
	.name = "frames",
	.summary = "secondary-loader transport frames for a tile range",
	.cmds = frames_cmds,
	.ncmds = sizeof(frames_cmds) / sizeof(frames_cmds[0]),
};
