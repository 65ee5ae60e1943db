// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Pack an IPUIMG1 from a directory of per-physical-tile files: raw images
 * N.bin or ELF files t_N.elf [S "Compact Physical Image"]. The directory
 * must hold exactly one file per tile and nothing else, so that a typo or
 * a leftover file is an error rather than a silently different image.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image_internal.h"
#include "internal.h"

/* Tile ELFs carry debug info; anything past this is not a tile ELF. */
#define IXC_ELF_MAX_FILE	(256u << 20)

int ipuxcom_image_dir_opts_init(struct ipuxcom_image_dir_opts *opts)
{
	const struct ipuxcom_image_dir_opts dflt = IPUXCOM_IMAGE_DIR_OPTS_INIT;
	int err;

	if (!opts)
		return -EINVAL;
	err = ixc_size_out_check(opts, IPUXCOM_IMAGE_DIR_OPTS_SIZE_MIN, IPUXCOM_ERR_FILE,
				 "opts.size", "IPUXCOM_IMAGE_DIR_OPTS_INIT", NULL, 0);
	if (err)
		return err;
	/* Only the caller's bytes; members this library does not know: zero. */
	ixc_struct_out(opts, opts->size, &dflt, sizeof(dflt));
	return 0;
}

/* The caller's options as this library's version of the struct. */
static int ixc_dir_opts_in(const struct ipuxcom_image_dir_opts *opts,
			   struct ipuxcom_image_dir_opts *copy, struct ipuxcom_errmsg *em)
{
	int err = ixc_size_in(copy, sizeof(*copy), opts, IPUXCOM_IMAGE_DIR_OPTS_SIZE_MIN,
			      IPUXCOM_ERR_FILE, "opts.size", "IPUXCOM_IMAGE_DIR_OPTS_INIT",
			      em ? em->msg : NULL, em ? sizeof(em->msg) : 0);

	copy->size = sizeof(*copy);
	return err;
}

/*
 * Check that @dir holds exactly PREFIX N SUFFIX for N < @n, all regular
 * files; @sizes (if not NULL) gets their sizes. With @present (@n bytes),
 * some of the files are enough: present[N] says which are there.
 */
static int ixc_scan_dir(const char *dir, const char *prefix, const char *suffix, uint32_t n,
			uint64_t *sizes, uint8_t *present, struct ipuxcom_errmsg *em)
{
	uint8_t *seen = present ? present : calloc(n, 1);
	uint32_t missing = 0, first_missing = 0;
	struct dirent *de;
	char q[96];
	DIR *d;
	int err = 0;

	if (!seen)
		return ixc_err(em, -ENOMEM, "no memory");
	d = opendir(dir);
	if (!d) {
		err = -errno;
		if (!present)
			free(seen);
		return ixc_err(em, err, "%s: cannot open the directory: %s", dir, strerror(-err));
	}
	for (;;) {
		struct stat st;
		long t;

		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno) {
				err = -errno;
				ixc_err(em, err, "%s: cannot read the directory: %s", dir,
					strerror(-err));
			}
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		t = ixc_parse_tile_name(de->d_name, prefix, suffix, n);
		if (t < 0) {
			err = ixc_err(em, -EINVAL,
				      "%s: stray entry '%s' (the directory %s only %sN%s"
				      " for %s N = 0..%" PRIu32 ")", dir,
				      ixc_quote_bytes(de->d_name, strlen(de->d_name), q, sizeof(q)),
				      present ? "may hold" : "must hold", prefix, suffix,
				      present ? "physical tiles" : "each physical tile", n - 1);
			break;
		}
		if (fstatat(dirfd(d), de->d_name, &st, 0)) {
			err = -errno;
			ixc_err(em, err, "%s/%s: cannot stat: %s", dir, de->d_name, strerror(-err));
			break;
		}
		if (!S_ISREG(st.st_mode)) {
			err = ixc_err(em, -EINVAL, "%s/%s: not a regular file", dir, de->d_name);
			break;
		}
		seen[t] = 1;
		if (sizes)
			sizes[t] = (uint64_t)st.st_size;
	}
	closedir(d);
	if (present)
		return err;
	if (!err) {
		for (uint32_t t = n; t-- > 0;) {
			if (!seen[t]) {
				missing++;
				first_missing = t;
			}
		}
		if (missing)
			err = ixc_err(em, -ENOENT,
				      "%s: missing %s%" PRIu32 "%s (%" PRIu32 " of %" PRIu32
				      " tile files missing)", dir, prefix, first_missing, suffix,
				      missing, n);
	}
	free(seen);
	return err;
}

/* Read exactly @size bytes of @path into @buf; the file must be that long. */
static int ixc_read_exact(const char *path, uint8_t *buf, size_t size, const char *what,
			  struct ipuxcom_errmsg *em)
{
	size_t got = 0;
	uint8_t extra;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		return ixc_err(em, err, "%s: cannot open: %s", path, strerror(-err));
	}
	while (got < size) {
		ssize_t r = read(fd, buf + got, size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r < 0 ? -errno : -EAGAIN;
			close(fd);
			if (r < 0)
				return ixc_err(em, err, "%s: read error: %s", path, strerror(-err));
			return ixc_err(em, err, "%s: shrank to 0x%zx bytes while being read (%s)",
				       path, got, what);
		}
		got += (size_t)r;
	}
	if (read(fd, &extra, 1) > 0) {
		close(fd);
		return ixc_err(em, -EAGAIN, "%s: grew while being read (%s)", path, what);
	}
	close(fd);
	return 0;
}

/* ------------------------------------------------------------ raw images */

struct ixc_raw_source {
	const char *dir;
	uint32_t size;
	uint8_t *buf;
	char path[PATH_MAX];
};

static int ixc_raw_get(void *ctx, uint32_t tile, const void **image,
		       struct ipuxcom_errmsg *em)
{
	struct ixc_raw_source *s = ctx;
	int err;

	if ((size_t)snprintf(s->path, sizeof(s->path), "%s/%" PRIu32 ".bin", s->dir, tile) >=
	    sizeof(s->path))
		return ixc_err(em, -ENAMETOOLONG, "%s: path too long", s->dir);
	err = ixc_read_exact(s->path, s->buf, s->size, "all tile images must keep one size",
			     em);
	if (err)
		return err;
	*image = s->buf;
	return 0;
}

int ipuxcom_image_pack_raw_dir(const char *dir, const struct ipuxcom_image_dir_opts *opts,
			       void **out, size_t *out_len, struct ipuxcom_errmsg *em)
{
	struct ipuxcom_image_pack_params pp = IPUXCOM_IMAGE_PACK_PARAMS_INIT;
	struct ipuxcom_image_dir_opts o = IPUXCOM_IMAGE_DIR_OPTS_INIT;
	struct ixc_raw_source s = { .dir = dir };
	uint64_t *sizes;
	int err;

	ixc_err_clear(em);
	if (!dir || !opts || !out || !out_len)
		return ixc_err(em, -EINVAL, "missing directory, options or output");
	*out = NULL;
	*out_len = 0;
	err = ixc_dir_opts_in(opts, &o, em);
	if (err)
		return err;
	if (o.tile_count < 1 || o.tile_count > IPUXCOM_IMG_TILES)
		return ixc_err(em, -EINVAL, "tile count %" PRIu32 " outside 1..%u",
			       o.tile_count, IPUXCOM_IMG_TILES);
	sizes = calloc(o.tile_count, sizeof(*sizes));
	if (!sizes)
		return ixc_err(em, -ENOMEM, "no memory");
	err = ixc_scan_dir(dir, "", ".bin", o.tile_count, sizes, NULL, em);
	if (err)
		goto out;
	if (sizes[0] == 0 || sizes[0] > IPUXCOM_IMG_SRAM_SIZE) {
		err = ixc_err(em, -EINVAL, "%s/0.bin: 0x%" PRIx64 " bytes; a tile image has "
			      "0x1..0x%x (624 KiB of tile SRAM)", dir, sizes[0],
			      IPUXCOM_IMG_SRAM_SIZE);
		goto out;
	}
	for (uint32_t t = 1; t < o.tile_count; t++) {
		if (sizes[t] != sizes[0]) {
			err = ixc_err(em, -EINVAL,
				      "%s/%" PRIu32 ".bin: 0x%" PRIx64 " bytes, but 0.bin has 0x%"
				      PRIx64 " (all tile images must have the same size)", dir, t,
				      sizes[t], sizes[0]);
			goto out;
		}
	}
	s.size = (uint32_t)sizes[0];
	s.buf = malloc(s.size);
	if (!s.buf) {
		err = ixc_err(em, -ENOMEM, "no memory for a tile image");
		goto out;
	}
	pp.tile_count = o.tile_count;
	pp.image_size = s.size;
	pp.load_base = o.load_base;
	pp.entry = o.entry;
	pp.template_tile = o.template_tile;
	err = ipuxcom_image_pack(&pp, ixc_raw_get, &s, out, out_len, em);
out:
	free(s.buf);
	free(sizes);
	return err;
}

/* -------------------------------------------------------------- tile ELFs */

struct ixc_elf_source {
	const char *dir;
	uint32_t entry;
	uint32_t image_size;
	uint8_t *buf;
	char path[PATH_MAX];
};

/* Read and check t_@tile.elf; copy its image into s->buf when @copy. */
static int ixc_elf_load(struct ixc_elf_source *s, uint32_t tile, bool copy,
			struct ipuxcom_tile_elf *info, struct ipuxcom_errmsg *em)
{
	uint8_t *data;
	size_t len;
	int err;

	if ((size_t)snprintf(s->path, sizeof(s->path), "%s/t_%" PRIu32 ".elf", s->dir, tile) >=
	    sizeof(s->path))
		return ixc_err(em, -ENAMETOOLONG, "%s: path too long", s->dir);
	err = ixc_read_file(s->path, IXC_ELF_MAX_FILE, "tile ELF", &data, &len, em);
	if (err)
		return err;
	err = ixc_tile_elf_read(data, len, info, copy ? s->buf : NULL,
				copy ? s->image_size : 0, em);
	free(data);
	if (err)
		return ixc_err_prefix(em, err, "%s", s->path);
	return 0;
}

static int ixc_elf_get(void *ctx, uint32_t tile, const void **image,
		       struct ipuxcom_errmsg *em)
{
	struct ixc_elf_source *s = ctx;
	struct ipuxcom_tile_elf info = IPUXCOM_TILE_ELF_INIT;
	int err;

	/* The first pass checked every file: a failure now means it changed. */
	err = ixc_elf_load(s, tile, true, &info, em);
	if (!err && info.entry != s->entry)
		err = ixc_err(em, -EAGAIN, "%s: changed while being packed", s->path);
	if (err)
		return err;
	*image = s->buf;
	return 0;
}

int ipuxcom_image_pack_elf_dir(const char *dir, const struct ipuxcom_image_dir_opts *opts,
			       void **out, size_t *out_len, struct ipuxcom_errmsg *em)
{
	struct ipuxcom_image_pack_params pp = IPUXCOM_IMAGE_PACK_PARAMS_INIT;
	struct ipuxcom_image_dir_opts o = IPUXCOM_IMAGE_DIR_OPTS_INIT;
	struct ixc_elf_source s = { .dir = dir };
	int err;

	ixc_err_clear(em);
	if (!dir || !opts || !out || !out_len)
		return ixc_err(em, -EINVAL, "missing directory, options or output");
	*out = NULL;
	*out_len = 0;
	err = ixc_dir_opts_in(opts, &o, em);
	if (err)
		return err;
	if (o.tile_count < 1 || o.tile_count > IPUXCOM_IMG_TILES)
		return ixc_err(em, -EINVAL, "tile count %" PRIu32 " outside 1..%u",
			       o.tile_count, IPUXCOM_IMG_TILES);
	err = ixc_scan_dir(dir, "t_", ".elf", o.tile_count, NULL, NULL, em);
	if (err)
		return err;
	/* First pass: the common entry and the extent of every image. */
	for (uint32_t t = 0; t < o.tile_count; t++) {
		struct ipuxcom_tile_elf info = IPUXCOM_TILE_ELF_INIT;

		err = ixc_elf_load(&s, t, false, &info, em);
		if (err)
			return err;
		if (t == 0) {
			s.entry = info.entry;
		} else if (info.entry != s.entry) {
			return ixc_err(em, -EINVAL,
				       "%s: entry point 0x%" PRIx32 " differs from t_0.elf's 0x%"
				       PRIx32 " (an IPUIMG1 has one entry point)", s.path,
				       info.entry,
				       s.entry);
		}
		if (info.image_size > s.image_size)
			s.image_size = info.image_size;
	}
	s.buf = malloc(s.image_size);
	if (!s.buf)
		return ixc_err(em, -ENOMEM, "no memory for a tile image");
	pp.tile_count = o.tile_count;
	pp.image_size = s.image_size;
	pp.load_base = IPUXCOM_IMG_PAYLOAD_BASE;
	pp.entry = s.entry;
	pp.template_tile = o.template_tile;
	err = ipuxcom_image_pack(&pp, ixc_elf_get, &s, out, out_len, em);
	free(s.buf);
	return err;
}

/* ------------------------------------------------ a few tiles over a base */
/*
 * ipuxcom_image_pack_{raw,elf}_dir_over(): the tiles whose file is in the
 * directory come from it, every other tile from the base image
 * (reconstructed and CRC-checked by ipuxcom_image_extract()). The header
 * is the base's: load base, entry point, tile count, image size.
 */

struct ixc_over_source {
	const struct ipuxcom_image *base;
	const char *dir;
	const uint8_t *present;
	bool elf;
	uint32_t image_size;
	uint8_t *buf;
	char path[PATH_MAX];
};

/* Path of tile @tile's file in s->dir, into s->path. */
static int ixc_over_path(struct ixc_over_source *s, uint32_t tile, struct ipuxcom_errmsg *em)
{
	if ((size_t)snprintf(s->path, sizeof(s->path), s->elf ? "%s/t_%" PRIu32 ".elf" :
			     "%s/%" PRIu32 ".bin", s->dir, tile) >= sizeof(s->path))
		return ixc_err(em, -ENAMETOOLONG, "%s: path too long", s->dir);
	return 0;
}

/* Read and check tile @tile's ELF; its image into s->buf (zero-padded) when @copy. */
static int ixc_over_elf(struct ixc_over_source *s, uint32_t tile, bool copy,
			struct ipuxcom_errmsg *em)
{
	struct ipuxcom_image_info bi = IPUXCOM_IMAGE_INFO_INIT;
	struct ipuxcom_tile_elf info = IPUXCOM_TILE_ELF_INIT;
	uint8_t *data;
	size_t len;
	int err;

	ipuxcom_image_get_info(s->base, &bi);
	err = ixc_over_path(s, tile, em);
	if (err)
		return err;
	err = ixc_read_file(s->path, IXC_ELF_MAX_FILE, "tile ELF", &data, &len, em);
	if (err)
		return err;
	/* First the extent and entry point alone: the copy needs them checked. */
	err = ixc_tile_elf_read(data, len, &info, NULL, 0, em);
	if (!err && info.image_size > bi.image_size)
		err = ixc_err(em, -EINVAL, "tile %" PRIu32 ": image of 0x%" PRIx32 " bytes, but "
			      "the base image's tiles have 0x%" PRIx32 " (a tile packed over a "
			      "base must fit its image size)", tile, info.image_size,
			      bi.image_size);
	else if (!err && info.entry != bi.entry)
		err = ixc_err(em, -EINVAL, "tile %" PRIu32 ": entry point 0x%" PRIx32 ", but the "
			      "base image's is 0x%" PRIx32 " (an IPUIMG1 has one entry point)",
			      tile, info.entry, bi.entry);
	else if (!err && copy)
		err = ixc_tile_elf_read(data, len, &info, s->buf, s->image_size, em);
	free(data);
	if (err)
		return ixc_err_prefix(em, err, "%s", s->path);
	return 0;
}

static int ixc_over_get(void *ctx, uint32_t tile, const void **image,
			struct ipuxcom_errmsg *em)
{
	struct ixc_over_source *s = ctx;
	int err;

	if (!s->present[tile]) {
		err = ipuxcom_image_extract(s->base, tile, s->buf, s->image_size, em);
		if (err)
			return ixc_err_prefix(em, err, "the base image");
	} else if (s->elf) {
		err = ixc_over_elf(s, tile, true, em);
	} else {
		err = ixc_over_path(s, tile, em);
		if (!err)
			err = ixc_read_exact(s->path, s->buf, s->image_size,
					     "a tile packed over a base must keep its size", em);
	}
	if (err)
		return err;
	*image = s->buf;
	return 0;
}

static int ixc_pack_over(const char *dir, bool elf, const struct ipuxcom_image *base,
			 uint32_t template_tile, void **out, size_t *out_len,
			 struct ipuxcom_errmsg *em)
{
	struct ixc_over_source s = { .base = base, .dir = dir, .elf = elf };
	struct ipuxcom_image_pack_params pp = IPUXCOM_IMAGE_PACK_PARAMS_INIT;
	struct ipuxcom_image_info bi = IPUXCOM_IMAGE_INFO_INIT;
	uint64_t *sizes = NULL;
	uint8_t *present = NULL;
	int err;

	ixc_err_clear(em);
	if (!dir || !base || !out || !out_len)
		return ixc_err(em, -EINVAL, "missing directory, base image or output");
	*out = NULL;
	*out_len = 0;
	ipuxcom_image_get_info(base, &bi);
	if (template_tile != IPUXCOM_IMG_TEMPLATE_AUTO && template_tile >= bi.tile_count)
		return ixc_err(em, -EINVAL, "template tile %" PRIu32 " outside 0..%" PRIu32
			       " (the base image's tiles)", template_tile, bi.tile_count - 1);
	if (elf && bi.load_base != IPUXCOM_IMG_PAYLOAD_BASE)
		return ixc_err(em, -EINVAL, "the base image loads at 0x%" PRIx32 ", and tile ELF "
			       "images start at 0x%x: pack raw images (N.bin) over it",
			       bi.load_base, IPUXCOM_IMG_PAYLOAD_BASE);
	present = calloc(bi.tile_count, 1);
	sizes = calloc(bi.tile_count, sizeof(*sizes));
	s.present = present;
	s.image_size = bi.image_size;
	s.buf = malloc(bi.image_size);
	if (!present || !sizes || !s.buf) {
		err = ixc_err(em, -ENOMEM, "no memory");
		goto out;
	}
	err = ixc_scan_dir(dir, elf ? "t_" : "", elf ? ".elf" : ".bin", bi.tile_count, sizes,
			   present, em);
	/* Every file is checked before the packing work. */
	for (uint32_t t = 0; !err && t < bi.tile_count; t++) {
		if (!present[t])
			continue;
		if (elf)
			err = ixc_over_elf(&s, t, false, em);
		else if (sizes[t] != bi.image_size)
			err = ixc_err(em, -EINVAL, "%s/%" PRIu32 ".bin: tile %" PRIu32 " has 0x%"
				      PRIx64 " bytes, but the base image's tiles have 0x%" PRIx32
				      " (a tile packed over a base must keep its size)", dir, t, t,
				      sizes[t], bi.image_size);
	}
	if (err)
		goto out;
	pp.tile_count = bi.tile_count;
	pp.image_size = bi.image_size;
	pp.load_base = bi.load_base;
	pp.entry = bi.entry;
	pp.template_tile = template_tile;
	err = ipuxcom_image_pack(&pp, ixc_over_get, &s, out, out_len, em);
out:
	free(s.buf);
	free(sizes);
	free(present);
	return err;
}

int ipuxcom_image_pack_raw_dir_over(const char *dir, const struct ipuxcom_image *base,
				    uint32_t template_tile, void **out, size_t *out_len,
				    struct ipuxcom_errmsg *em)
{
	return ixc_pack_over(dir, false, base, template_tile, out, out_len, em);
}

int ipuxcom_image_pack_elf_dir_over(const char *dir, const struct ipuxcom_image *base,
				    uint32_t template_tile, void **out, size_t *out_len,
				    struct ipuxcom_errmsg *em)
{
	return ixc_pack_over(dir, true, base, template_tile, out, out_len, em);
}
