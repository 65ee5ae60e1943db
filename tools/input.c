// SPDX-License-Identifier: GPL-2.0
/*
 * FILE-or-stdin arguments; see input.h. Files go to the library's own
 * readers (their size limits and messages); stdin, which has no size to
 * check first and cannot be reopened, is read here and parsed from memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"

#define STDIN_NAME	"(stdin)"

/*
 * Upper bounds of what stdin may hold per kind, above any valid file of
 * it (the library refuses what does not fit its format anyway).
 */
#define MAX_IMAGE	((size_t)4 << 30)
#define MAX_SMALL	((size_t)64 << 20)

/* Whether stdin was read already this run: a pipe has one reader. */
static bool stdin_used;

const char *cli_input_name(const char *path)
{
	return strcmp(path, "-") ? path : STDIN_NAME;
}

/* Read fd 0 to EOF; 0 or -errno (-EFBIG past @max). */
static int read_stdin(size_t max, char **data, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t k;

		if (n == cap) {
			char *p;

			if (cap > max) {
				free(buf);
				return -EFBIG;
			}
			cap *= 2;
			p = realloc(buf, cap + 1);
			if (!p) {
				free(buf);
				return -ENOMEM;
			}
			buf = p;
		}
		k = read(STDIN_FILENO, buf + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int err = -errno;

			free(buf);
			return err;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	if (n > max) {
		free(buf);
		return -EFBIG;
	}
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

/* Read a regular or special file (a FIFO, /dev/stdin) to EOF; 0 or -errno. */
static int read_path(const char *path, size_t max, char **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 65536, n = 0;
	char *buf;

	if (!f)
		return -errno;
	buf = malloc(cap + 1);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap || n > max)
			break;
		char *p = realloc(buf, cap * 2 + 1);

		if (!p) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = p;
		cap *= 2;
	}
	if (!buf || ferror(f) || n > max) {
		int err = !buf ? -ENOMEM : n > max ? -EFBIG : -EIO;

		free(buf);
		fclose(f);
		return err;
	}
	fclose(f);
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

/* Stdin's bytes, once per run; 0 or -errno, the message in @em. */
static int take_stdin(size_t max, const char *what, char **data, size_t *len,
		      struct ipuxcom_errmsg *em)
{
	int err;

	if (stdin_used) {
		snprintf(em->msg, sizeof(em->msg), STDIN_NAME ": '-' given twice: standard "
			 "input can be read only once");
		return -EINVAL;
	}
	stdin_used = true;
	err = read_stdin(max, data, len);
	if (err == -EFBIG)
		snprintf(em->msg, sizeof(em->msg), STDIN_NAME ": more than %zu bytes, larger than "
			 "any valid %s", max, what);
	else if (err)
		snprintf(em->msg, sizeof(em->msg), STDIN_NAME ": read error: %s", strerror(-err));
	return err;
}

int cli_read_input(const struct cli_call *call, const char *path, size_t max, char **data,
		   size_t *len)
{
	struct ipuxcom_errmsg em;
	int err;

	if (!strcmp(path, "-")) {
		err = take_stdin(max, "input", data, len, &em);
		if (!err)
			return 0;
		cli_err(call->what, "%s", em.msg);
		return err == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_ERR;
	}
	err = read_path(path, max, data, len);
	if (!err)
		return 0;
	if (err == -EFBIG)
		cli_err(call->what, "%s: larger than %zu bytes", path, max);
	else
		cli_err(call->what, "%s: %s", path, strerror(-err));
	return CLI_EXIT_ERR;
}

/* "(stdin): " before the parser's message, as a file's reader puts its path. */
static int stdin_parse_err(int err, struct ipuxcom_errmsg *em)
{
	char msg[sizeof(STDIN_NAME ": ") + sizeof(em->msg)];

	if (err) {
		snprintf(msg, sizeof(msg), STDIN_NAME ": %s", em->msg);
		memcpy(em->msg, msg, sizeof(em->msg) - 1);
		em->msg[sizeof(em->msg) - 1] = '\0';
	}
	return err;
}

int cli_input_image(const char *path, struct ipuxcom_image **img, struct ipuxcom_errmsg *em)
{
	char *data;
	size_t len;
	int err;

	if (strcmp(path, "-"))
		return ipuxcom_image_open(path, img, em);
	err = take_stdin(MAX_IMAGE, "IPUIMG1 file", &data, &len, em);
	if (err)
		return err;
	err = ipuxcom_image_from_buffer(data, len, img, em);	/* copies @data */
	free(data);
	return stdin_parse_err(err, em);
}

int cli_input_hsp(const char *path, struct ipuxcom_hsp_manifest *m, struct ipuxcom_errmsg *em)
{
	char *data;
	size_t len;
	int err;

	if (strcmp(path, "-"))
		return ipuxcom_hsp_load(path, m, em);
	err = take_stdin(MAX_SMALL, "host-sync manifest", &data, &len, em);
	if (err)
		return err;
	err = ipuxcom_hsp_parse(data, len, m, em);
	free(data);
	return stdin_parse_err(err, em);
}

int cli_input_cfg(const char *path, struct ipuxcom_cfg_record **recs, uint32_t *count,
		  struct ipuxcom_errmsg *em)
{
	char *data;
	size_t len;
	int err;

	if (strcmp(path, "-"))
		return ipuxcom_cfg_load(path, recs, count, em);
	err = take_stdin(MAX_SMALL, "IPUCFG1 file", &data, &len, em);
	if (err)
		return err;
	err = ipuxcom_cfg_parse(data, len, recs, count, em);
	free(data);
	return stdin_parse_err(err, em);
}

int cli_input_bootloader(const char *path, struct ipuxcom_bootloader *bl,
			 struct ipuxcom_errmsg *em)
{
	char *data;
	size_t len;
	int err;

	if (strcmp(path, "-"))
		return ipuxcom_bootloader_load(path, bl, em);
	err = take_stdin(MAX_SMALL, "tile bootloader file", &data, &len, em);
	if (err)
		return err;
	err = ipuxcom_bootloader_parse(data, len, bl, em);
	free(data);
	return stdin_parse_err(err, em);
}
