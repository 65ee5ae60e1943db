// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom image ...: IPUIMG1 compact physical images (pack, extract,
 * verify, inspect, redirect). Everything here works on files only: no
 * device is needed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ipuxcom.h>

#include "image_cli.h"
#include "heatmap.h"
#include "json.h"
#include "outfile.h"
#include "json_fmt.h"
#include "input.h"
#include "sram_arg.h"
#include "units.h"
#include "words.h"

/* ------------------------------------------------------------- helpers */

/* Open @path as an IPUIMG1, reporting any failure. */
static int open_image(const struct cli_call *call, const char *path, struct ipuxcom_image **img)
{
	struct ipuxcom_errmsg em;
	int err = cli_input_image(path, img, &em);

	if (err) {
		cli_err(call->what, "%s", em.msg);
		return CLI_EXIT_ERR;
	}
	return 0;
}

static double ratio(uint64_t raw, uint64_t packed)
{
	return packed ? (double)raw / (double)packed : 0.0;
}

/* ---------------------------------------------------------------- pack */

static int image_pack_run(struct cli_call *call, int argc, char **argv)
{
	const char *raw = NULL, *elf = NULL, *out = NULL, *base = NULL, *entry = NULL;
	const char *tmpl = NULL, *over = NULL;
	const struct cli_opt opts[] = {
		{ "raw", 0, "DIR", "pack DIR/N.bin, raw images of physical tiles 0..1471",
		  NULL, &raw },
		{ "elf", 0, "DIR", "pack DIR/t_N.elf, ELF files of physical tiles 0..1471",
		  NULL, &elf },
		{ "output", 'o', "FILE", "the IPUIMG1 file to write (required)", NULL, &out },
		{ "base", 0, "ADDR", "--raw: SRAM address of byte 0 (default 0x4c010)", NULL,
		  &base },
		{ "entry", 0, "ADDR", "--raw: entry point (default: the load base)", NULL,
		  &entry },
		{ "template", 0, "TILE", "template tile (default: chosen for the smallest file)",
		  NULL, &tmpl },
		{ "over", 0, "IMG", "DIR holds only some tiles' files: every other tile comes "
		  "from IMG, whose load base, entry point and image size the output keeps",
		  NULL, &over },
	};
	struct ipuxcom_image_dir_opts o = IPUXCOM_IMAGE_DIR_OPTS_INIT;
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_image *img = NULL, *base_img = NULL;
	struct ipuxcom_errmsg em;
	void *data = NULL;
	size_t len = 0;
	char *pos[1];
	int npos, rc, err;

	rc = cli_parse(call, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), true, pos, 0,
		       &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (!raw == !elf)
		return cli_usage_err(call, "give exactly one of --raw DIR and --elf DIR");
	if (!out)
		return cli_usage_err(call, "missing -o FILE");
	ipuxcom_image_dir_opts_init(&o);
	if (base && !cli_parse_u32_num(base, &o.load_base))
		return cli_usage_err(call, "invalid address '%s' for --base", base);
	if (base && (rc = cli_check_sram_addr(call, base, "--base", o.load_base, 1, false)) !=
		    CLI_CONTINUE)
		return rc;
	/* The entry point defaults to the load base, and must be 4-byte aligned. */
	if (base && !entry && (o.load_base & 3))
		return cli_usage_err(call, "invalid address '%s' for --base: without --entry the "
				     "entry point is the load base, which must then be 4-byte "
				     "aligned (give --entry ADDR, or an aligned --base)", base);
	o.entry = o.load_base;
	if (entry && !cli_parse_u32_num(entry, &o.entry))
		return cli_usage_err(call, "invalid address '%s' for --entry", entry);
	if (entry && (rc = cli_check_sram_addr(call, entry, "--entry", o.entry, 4, true)) !=
		     CLI_CONTINUE)
		return rc;
	if (elf && (base || entry))
		return cli_usage_err(call, "--base and --entry are for --raw: an ELF has its own");
	if (over && (base || entry))
		return cli_usage_err(call, "--base and --entry are not for --over: the output keeps "
				     "those of the --over image");
	if (tmpl && (!cli_parse_u32(tmpl, &o.template_tile) ||
		     o.template_tile >= IPUXCOM_IMG_TILES))
		return cli_usage_err(call, "invalid template tile '%s': a decimal number 0..%u", tmpl,
				     IPUXCOM_IMG_TILES - 1);
	/* Refuse an unwritable -o before the packing work; -o -: the report to stderr. */
	rc = outfile_check(call, out);
	if (!rc)
		rc = outfile_claim_stdout(call, out);
	if (rc)
		return rc;

	if (over) {
		rc = open_image(call, over, &base_img);
		if (rc)
			return rc;
		if (raw)
			err = ipuxcom_image_pack_raw_dir_over(raw, base_img, o.template_tile, &data,
							      &len, &em);
		else
			err = ipuxcom_image_pack_elf_dir_over(elf, base_img, o.template_tile, &data,
							      &len, &em);
		ipuxcom_image_free(base_img);
		/* "the base image: ..." is the --over file */
		if (err && !strncmp(em.msg, "the base image", 14)) {
			cli_err(call->what, "%s%s", cli_input_name(over), em.msg + 14);
			return CLI_EXIT_ERR;
		}
	} else if (raw) {
		err = ipuxcom_image_pack_raw_dir(raw, &o, &data, &len, &em);
	} else {
		err = ipuxcom_image_pack_elf_dir(elf, &o, &data, &len, &em);
	}
	if (err) {
		cli_err(call->what, "%s", em.msg);
		return CLI_EXIT_ERR;
	}
	/* Read back what was packed: the file must open, and the numbers come from it. */
	err = ipuxcom_image_from_buffer(data, len, &img, &em);
	if (err) {
		free(data);
		cli_err(call->what, "the packed image does not read back: %s", em.msg);
		return CLI_EXIT_ERR;
	}
	rc = outfile_write_all(call, out, data, len);
	free(data);
	if (rc) {
		ipuxcom_image_free(img);
		return rc;
	}
	ipuxcom_image_get_info(img, &info);
	ipuxcom_image_free(img);
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		/* "file" is the input everywhere (the --over image; else a directory), "output" written */
		if (over)
			json_kv_string(&w, "file", over);
		json_kv_string(&w, "output", out);
		json_kv_uint(&w, "tiles", info.tile_count);
		json_kv_uint(&w, "image_size", info.image_size);
		json_kv_uint(&w, "input_bytes", (uint64_t)info.tile_count * info.image_size);
		json_kv_uint(&w, "file_size", info.file_size);
		json_kv_uint(&w, "template_tile", info.template_tile);
		json_kv_uint(&w, "patches", info.patch_count);
		json_end_object(&w);
	} else {
		char in_size[CLI_SIZE_LEN], out_size[CLI_SIZE_LEN];
		uint64_t bytes = (uint64_t)info.tile_count * info.image_size;

		printf("%s: %" PRIu32 " tiles of %" PRIu32 " bytes, %s, packed into %s (%.1fx); "
		       "template tile %" PRIu32 ", %" PRIu64 " patches\n",
		       outfile_is_stdout(out) ? "(stdout)" : out, info.tile_count, info.image_size,
		       cli_size(bytes, in_size, sizeof(in_size)),
		       cli_size(info.file_size, out_size, sizeof(out_size)),
		       ratio(bytes, info.file_size), info.template_tile, info.patch_count);
	}
	return CLI_EXIT_OK;
}

/* ------------------------------------------------------------- extract */

/* What image extract wrote: tile @tile's image (all tiles: @all) of @size bytes to @out. */
static void extract_json(const struct cli_call *call, const char *img, bool all, uint32_t tile, uint32_t tiles,
			 uint32_t size, const char *out)
{
	struct json_writer w;

	json_init_call(&w, stdout, call);
	json_begin_object(&w);
	json_kv_string(&w, "file", img);
	json_key(&w, "tile");
	if (all)
		json_string(&w, "all");
	else
		json_uint(&w, tile);
	json_kv_string(&w, "output", out);
	json_kv_uint(&w, "tiles", tiles);
	json_kv_uint(&w, "image_size", size);
	json_end_object(&w);
}

static int extract_all(const struct cli_call *call, const char *file, struct ipuxcom_image *img,
		       const char *dir)
{
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_errmsg em;
	char path[PATH_MAX];
	uint8_t *buf;
	int rc = 0;

	ipuxcom_image_get_info(img, &info);
	if (mkdir(dir, 0777) && errno != EEXIST) {
		cli_err(call->what, "cannot create directory %s: %s", dir, strerror(errno));
		return CLI_EXIT_ERR;
	}
	buf = malloc(info.image_size);
	if (!buf) {
		cli_err(call->what, "out of memory");
		return CLI_EXIT_ERR;
	}
	for (uint32_t t = 0; t < info.tile_count && !rc; t++) {
		int err = ipuxcom_image_extract(img, t, buf, info.image_size, &em);

		if (err) {
			cli_err(call->what, "%s", em.msg);
			rc = CLI_EXIT_ERR;
			break;
		}
		if ((size_t)snprintf(path, sizeof(path), "%s/%" PRIu32 ".bin", dir, t) >=
		    sizeof(path)) {
			cli_err(call->what, "%s: path too long", dir);
			rc = CLI_EXIT_ERR;
			break;
		}
		rc = outfile_write_all(call, path, buf, info.image_size);
	}
	free(buf);
	if (!rc && call->json)
		extract_json(call, file, true, 0, info.tile_count, info.image_size, dir);
	else if (!rc)
		printf("%s: %" PRIu32 " tile images of %" PRIu32 " bytes\n", dir, info.tile_count,
		       info.image_size);
	return rc;
}

static int image_extract_run(struct cli_call *call, int argc, char **argv)
{
	const char *out = NULL;
	const struct cli_opt opts[] = {
		{ "output", 'o', "FILE", "where to write (with TILE 'all': a directory)", NULL,
		  &out },
	};
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	uint32_t tile = 0;
	uint8_t *buf;
	char *pos[2];
	int npos, rc, err;
	bool all;

	rc = cli_parse(call, argc, argv, opts, 1, true, pos, 2, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos < 2)
		return cli_usage_err(call, "expected IMG and TILE (a physical tile, or 'all')");
	if (!out)
		return cli_usage_err(call, "missing -o FILE");
	all = !strcmp(pos[1], "all");
	if (!all && (!cli_parse_u32(pos[1], &tile) || tile >= IPUXCOM_IMG_TILES))
		return cli_usage_err(call, "invalid tile '%s': a decimal number 0..%u, or 'all'", pos[1],
				     IPUXCOM_IMG_TILES - 1);
	/* A directory of N.bin files has no place on standard output. */
	if (all && outfile_is_stdout(out))
		return cli_usage_err(call, "-o %s: with TILE 'all' the output is a directory (one "
				     "N.bin per tile), not standard output; give a directory",
				     out);
	rc = all ? 0 : outfile_check(call, out);
	if (!rc && !all)
		rc = outfile_claim_stdout(call, out);
	if (!rc)
		rc = open_image(call, pos[0], &img);
	if (rc)
		return rc;
	if (all) {
		rc = extract_all(call, pos[0], img, out);
		ipuxcom_image_free(img);
		return rc;
	}
	ipuxcom_image_get_info(img, &info);
	if (tile >= info.tile_count) {
		cli_err(call->what, "%s: tile %" PRIu32 " outside the image's tiles 0..%" PRIu32,
			cli_input_name(pos[0]), tile, info.tile_count - 1);
		ipuxcom_image_free(img);
		return CLI_EXIT_ERR;
	}
	buf = malloc(info.image_size);
	if (!buf) {
		ipuxcom_image_free(img);
		cli_err(call->what, "out of memory");
		return CLI_EXIT_ERR;
	}
	err = ipuxcom_image_extract(img, tile, buf, info.image_size, &em);
	ipuxcom_image_free(img);
	if (err) {
		free(buf);
		cli_err(call->what, "%s: %s", cli_input_name(pos[0]), em.msg);
		return CLI_EXIT_ERR;
	}
	rc = outfile_write_all(call, out, buf, info.image_size);
	free(buf);
	/* With -o -, stdout holds the image itself and the report went to stderr. */
	if (!rc && call->json)
		extract_json(call, pos[0], false, tile, 1, info.image_size, out);
	return rc;
}

/* -------------------------------------------------------------- verify */

static int image_verify_run(struct cli_call *call, int argc, char **argv)
{
	struct ipuxcom_image_info info = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	uint32_t bad = 0;
	struct json_writer w;
	char *pos[1];
	int npos, rc;

	rc = cli_parse(call, argc, argv, NULL, 0, true, pos, 1, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos < 1)
		return cli_usage_err(call, "expected IMG");
	/* A file that does not open: with -j, the error object says it. */
	rc = open_image(call, pos[0], &img);
	if (rc)
		return rc;
	ipuxcom_image_get_info(img, &info);
	if (call->json) {
		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "file", pos[0]);
		json_key(&w, "errors");
		json_begin_array(&w);
	}
	for (uint32_t t = 0; t < info.tile_count; t++) {
		if (!ipuxcom_image_verify_tile(img, t, &em))
			continue;
		bad++;
		if (call->json)
			json_string(&w, em.msg);
		else
			cli_err(call->what, "%s: %s", cli_input_name(pos[0]), em.msg);
	}
	ipuxcom_image_free(img);
	if (call->json) {
		json_end_array(&w);
		json_key(&w, "ok");
		json_bool(&w, bad == 0);
		json_kv_uint(&w, "tiles", info.tile_count);
		json_kv_uint(&w, "bad_tiles", bad);
		json_end_object(&w);
		/* The report, then the error object every failure has. */
		if (bad)
			cli_err(call->what, "%s: %" PRIu32 " of %" PRIu32 " tiles do not "
				"reconstruct to their CRC32", cli_input_name(pos[0]), bad, info.tile_count);
	} else if (!bad) {
		printf("%s: ok: header, %" PRIu32 " records, patches, template and every tile's "
		       "CRC32 check out\n", cli_input_name(pos[0]), info.tile_count);
	} else {
		printf("%s: FAILED: %" PRIu32 " of %" PRIu32 " tiles do not reconstruct to their "
		       "CRC32\n", cli_input_name(pos[0]), bad, info.tile_count);
	}
	return bad ? CLI_EXIT_ERR : CLI_EXIT_OK;
}

/* ------------------------------------------------------------- inspect */

/* @path gets the image's patch bytes per physical tile as an SVG heatmap. */
static int inspect_heatmap(const struct cli_call *call, const char *file, const char *path,
			   const struct ipuxcom_image *img, uint32_t ntiles)
{
	uint32_t bytes[IPUXCOM_TILES] = { 0 };
	struct heatmap *h = malloc(sizeof(*h));
	struct outfile *o;

	if (!h) {
		cli_err(call->what, "%s: out of memory", path);
		return CLI_EXIT_ERR;
	}
	for (uint32_t t = 0; t < ntiles && t < IPUXCOM_TILES; t++) {
		struct ipuxcom_image_tile ti = IPUXCOM_IMAGE_TILE_INIT;

		ipuxcom_image_get_tile(img, t, &ti);
		bytes[t] = ti.patch_data;
	}
	heatmap_patch_bytes(h, file, bytes, ntiles);
	if (outfile_open(call, path, &o)) {
		free(h);
		return CLI_EXIT_ERR;
	}
	heatmap_write(outfile_stream(o), h);
	free(h);
	return outfile_close(o, true);
}

static int image_inspect_run(struct cli_call *call, int argc, char **argv)
{
	bool tiles = false;
	const char *heatmap = NULL;
	const struct cli_opt opts[] = {
		{ "tiles", 't', NULL, "also list every tile's record", &tiles, NULL },
		{ "heatmap", 0, "FILE", "write patch bytes per physical tile as an SVG picture of "
		  "the tile grid ('-': stdout)", NULL, &heatmap },
	};
	struct ipuxcom_image_info in = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_image *img;
	uint64_t raw;
	char *pos[1];
	int npos, rc;

	rc = cli_parse(call, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), true, pos, 1,
		       &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos < 1)
		return cli_usage_err(call, "expected IMG");
	/* --heatmap -: the SVG on stdout, the report on stderr. */
	rc = outfile_claim_stdout(call, heatmap);
	if (!rc)
		rc = open_image(call, pos[0], &img);
	if (rc)
		return rc;
	ipuxcom_image_get_info(img, &in);
	if (heatmap && (rc = inspect_heatmap(call, pos[0], heatmap, img, in.tile_count))) {
		ipuxcom_image_free(img);
		return rc;
	}
	raw = (uint64_t)in.tile_count * in.image_size;
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "file", pos[0]);
		json_kv_string(&w, "format", "IPUIMG1");
		json_kv_uint(&w, "file_size", in.file_size);
		json_kv_hex32(&w, "load_base", in.load_base);
		json_kv_uint(&w, "image_size", in.image_size);
		json_kv_hex32(&w, "entry", in.entry);
		json_kv_uint(&w, "tile_count", in.tile_count);
		json_kv_uint(&w, "template_tile", in.template_tile);
		json_kv_hex32(&w, "template_crc32", in.template_crc32);
		json_kv_uint(&w, "patch_area_size", in.patch_area_size);
		json_kv_hex32(&w, "meta_crc32", in.meta_crc32);
		json_kv_uint(&w, "patches", in.patch_count);
		json_kv_uint(&w, "patched_bytes", in.patch_data);
		json_kv_uint(&w, "unpatched_tiles", in.unpatched_tiles);
		json_kv_uint(&w, "max_tile_patch_size", in.max_tile_patch_size);
		json_kv_uint(&w, "unpacked_bytes", raw);
		if (tiles) {
			json_key(&w, "tiles");
			json_begin_array(&w);
			for (uint32_t t = 0; t < in.tile_count; t++) {
				struct ipuxcom_image_tile ti = IPUXCOM_IMAGE_TILE_INIT;

				ipuxcom_image_get_tile(img, t, &ti);
				json_begin_object(&w);
				json_kv_uint(&w, "tile", t);
				json_kv_uint(&w, "patch_offset", ti.patch_offset);
				json_kv_uint(&w, "patch_size", ti.patch_size);
				json_kv_uint(&w, "patches", ti.patch_count);
				json_kv_uint(&w, "patched_bytes", ti.patch_data);
				json_kv_hex32(&w, "crc32", ti.crc32);
				json_end_object(&w);
			}
			json_end_array(&w);
		}
		json_end_object(&w);
	} else {
		char size[CLI_SIZE_LEN], size2[CLI_SIZE_LEN];

		printf("file            %s (IPUIMG1, %s)\n", cli_input_name(pos[0]),
		       cli_size(in.file_size, size, sizeof(size)));
		printf("load base       0x%05" PRIx32 "\n", in.load_base);
		printf("image size      %" PRIu32 " bytes (0x%" PRIx32 ")\n", in.image_size,
		       in.image_size);
		printf("entry           0x%05" PRIx32 "\n", in.entry);
		printf("tiles           %" PRIu32 "\n", in.tile_count);
		printf("template        tile %" PRIu32 ", CRC32 0x%08" PRIx32 "\n",
		       in.template_tile, in.template_crc32);
		printf("patches         %" PRIu64 " (%s patched, patch area %s); largest tile "
		       "stream %" PRIu32 " bytes\n", in.patch_count,
		       cli_size(in.patch_data, size, sizeof(size)),
		       cli_size(in.patch_area_size, size2, sizeof(size2)), in.max_tile_patch_size);
		printf("unpatched tiles %" PRIu32 " (equal to the template)\n", in.unpatched_tiles);
		printf("metadata CRC32  0x%08" PRIx32 "\n", in.meta_crc32);
		printf("ratio           %.1fx (%s unpacked)\n", ratio(raw, in.file_size),
		       cli_size(raw, size, sizeof(size)));
		printf("structure       valid ('image verify' checks every tile's CRC32)\n");
		if (tiles) {
			printf("\n%-6s %-10s %-10s %-8s %-10s %s\n", "tile", "offset", "size",
			       "patches", "patched", "crc32");
			for (uint32_t t = 0; t < in.tile_count; t++) {
				struct ipuxcom_image_tile ti = IPUXCOM_IMAGE_TILE_INIT;

				ipuxcom_image_get_tile(img, t, &ti);
				printf("%-6" PRIu32 " 0x%08" PRIx32 " %-10" PRIu32 " %-8" PRIu32
				       " %-10" PRIu32 " 0x%08" PRIx32 "\n", t, ti.patch_offset,
				       ti.patch_size, ti.patch_count, ti.patch_data, ti.crc32);
			}
		}
	}
	ipuxcom_image_free(img);
	return CLI_EXIT_OK;
}

/* ------------------------------------------------------------ redirect */

static int image_redirect_run(struct cli_call *call, int argc, char **argv)
{
	const char *out = NULL, *marker = NULL, *target = NULL;
	const struct cli_opt opts[] = {
		{ "output", 'o', "FILE", "the redirected IPUIMG1 to write (required)", NULL, &out },
		{ "marker", 'm', "W0,W1", "find the target from this unique two-word marker",
		  NULL, &marker },
		{ "target", 0, "ADDR", "branch to ADDR instead", NULL, &target },
	};
	struct ipuxcom_redirect_spec spec = IPUXCOM_REDIRECT_SPEC_INIT;
	struct ipuxcom_redirect_report rep = IPUXCOM_REDIRECT_REPORT_INIT;
	struct ipuxcom_image *img;
	struct ipuxcom_errmsg em;
	void *data;
	size_t len;
	char *pos[1];
	int npos, rc, err;

	rc = cli_parse(call, argc, argv, opts, sizeof(opts) / sizeof(opts[0]), true, pos, 1,
		       &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	if (npos < 1)
		return cli_usage_err(call, "expected IMG");
	if (!out)
		return cli_usage_err(call, "missing -o FILE");
	if (!marker == !target)
		return cli_usage_err(call, "give exactly one of --marker W0,W1 and --target ADDR");
	if (marker) {
		char w0[16], *comma = strchr(marker, ',');
		size_t n = comma ? (size_t)(comma - marker) : 0;

		if (comma && n < sizeof(w0)) {
			memcpy(w0, marker, n);
			w0[n] = '\0';
		}
		if (!comma || n >= sizeof(w0) || !cli_parse_word(w0, n, &spec.marker[0]) ||
		    !cli_parse_word(comma + 1, strlen(comma + 1), &spec.marker[1]))
			return cli_usage_err(call, "invalid marker '%s' (two words W0,W1, each "
					     CLI_WORD_GRAMMAR ")", marker);
		spec.by_marker = true;
	} else if (!cli_parse_u32_num(target, &spec.target)) {
		return cli_usage_err(call, "invalid address '%s' for --target", target);
	} else if ((rc = cli_check_sram_addr(call, target, "--target", spec.target, 4, true)) !=
		   CLI_CONTINUE) {
		return rc;
	}
	rc = outfile_check(call, out);
	if (!rc)
		rc = outfile_claim_stdout(call, out);
	if (!rc)
		rc = open_image(call, pos[0], &img);
	if (rc)
		return rc;
	err = ipuxcom_image_redirect(img, &spec, &data, &len, &rep, &em);
	ipuxcom_image_free(img);
	if (err) {
		cli_err(call->what, "%s: %s", cli_input_name(pos[0]), em.msg);
		return CLI_EXIT_ERR;
	}
	rc = outfile_write_all(call, out, data, len);
	free(data);
	if (rc)
		return rc;
	if (call->json) {
		struct json_writer w;

		json_init_call(&w, stdout, call);
		json_begin_object(&w);
		json_kv_string(&w, "file", pos[0]);
		json_kv_string(&w, "output", out);
		json_kv_uint(&w, "tiles", rep.tiles);
		json_kv_hex32(&w, "target_min", rep.target_min);
		json_kv_hex32(&w, "target_max", rep.target_max);
		json_end_object(&w);
	} else if (rep.target_min == rep.target_max) {
		printf("%s: %" PRIu32 " tiles redirected to 0x%05" PRIx32 "\n",
		       outfile_is_stdout(out) ? "(stdout)" : out, rep.tiles,
		       rep.target_min);
	} else {
		printf("%s: %" PRIu32 " tiles redirected to targets 0x%05" PRIx32 "..0x%05" PRIx32
		       "\n", outfile_is_stdout(out) ? "(stdout)" : out, rep.tiles, rep.target_min,
		       rep.target_max);
	}
	return CLI_EXIT_OK;
}

static const struct cli_cmd image_cmds[] = {
	{
		.name = "pack",
		.args = "--raw DIR|--elf DIR [--over IMG] -o OUT [OPTIONS]",
		.summary = "pack per-tile raw images or ELF files into an IPUIMG1",
		.description =
			"Pack the images of physical tiles 0..1471 into one IPUIMG1 file:\n"
			"  --raw DIR  DIR holds exactly N.bin for N = 0..1471, all the same size\n"
			"  --elf DIR  DIR holds exactly t_N.elf; each image is its PT_LOAD file\n"
			"             bytes from 0x4c010 (the .secondaryLower zero-fill below it\n"
			"             is not part of it), zero-padded to the largest image\n"
			"Any other entry in DIR, or a missing tile, is an error. The template\n"
			"tile is the one sharing the most with the others unless --template is\n"
			"given. The format: docs/ipuimg-format.md.\n"
			"With --over IMG, DIR holds the files of only the tiles to replace; every\n"
			"other tile's image comes from IMG (its CRC32 checked), and the output\n"
			"keeps IMG's tile count, image size, load base and entry point: each\n"
			"N.bin must have IMG's image size, each t_N.elf fit in it with IMG's\n"
			"entry point. E.g. after 'image extract IMG 17 -o DIR/17.bin' and an\n"
			"edit: 'image pack --raw DIR --over IMG -o NEW'.",
		.run = image_pack_run,
	},
	{
		.name = "extract",
		.args = "IMG TILE|all -o FILE|DIR [-j|--json]",
		.summary = "write one physical tile's raw image (or all, as DIR/N.bin)",
		.description =
			"Reconstruct physical tile TILE's raw load image from IMG, check its\n"
			"CRC32 and write it to FILE ('-' for stdout). With 'all', write every\n"
			"tile as DIR/N.bin (DIR is created), which 'image pack --raw' reads.\n"
			"With --json (not with -o -): {\"file\",\"tile\" (TILE or \"all\"),\"output\",\"tiles\",\n"
			"\"image_size\"}.",
		.run = image_extract_run,
	},
	{
		.name = "verify",
		.args = "IMG [-j|--json]",
		.summary = "check everything, including every tile's CRC32",
		.description =
			"Check IMG completely: header, records, patch streams, metadata and\n"
			"template CRC32, then reconstruct every tile and check its CRC32. Every\n"
			"failing tile is reported. Exit status 0 only if every check passes.",
		.run = image_verify_run,
	},
	{
		.name = "inspect",
		.args = "IMG [-t|--tiles] [-j|--json]",
		.summary = "show the header and patch statistics",
		.description =
			"Show IMG's header (load base, image size, entry, template tile and\n"
			"CRC32s) and what its patches hold. The structure is checked; the\n"
			"per-tile CRC32s are checked by 'image verify'.",
		.run = image_inspect_run,
	},
	{
		.name = "redirect",
		.args = "IMG -o OUT --marker W0,W1|--target ADDR",
		.summary = "patch every tile's entry to branch to a marked function",
		.description =
			"Keep the 'nop; sync3' words at the entry point and replace the next\n"
			"two with 'setzi $m0, TARGET; br $m0' in every tile. With --marker,\n"
			"TARGET follows the unique occurrence of the two words W0 W1 and the\n"
			"sync3 after them (the function's marker-and-sync3 prefix); a missing or\n"
			"repeated marker is refused. Words are decimal or 0x-hex.",
		.run = image_redirect_run,
	},
};

const struct cli_object cli_obj_image = {
	.name = "image",
	.summary = "IPUIMG1 compact physical tile images",
	.cmds = image_cmds,
	.ncmds = sizeof(image_cmds) / sizeof(image_cmds[0]),
	.default_cmd = NULL,
};
