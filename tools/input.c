// SPDX-License-Identifier: GPL-2.0-only
/*
 * FILE-or-stdin arguments; see input.h. Regular files go to the library's
 * own readers (their size limits and messages); stdin, FIFOs and devices,
 * which have no size to check first, are read here and parsed from memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

/* Standard input in messages: '-', as it was given (and as JSON's "file" says). */
#define STDIN_NAME	"-"

/*
 * Upper bounds of what stdin may hold per kind, above any valid file of
 * it (the library refuses what does not fit its format anyway).
 */
#define MAX_IMAGE	((size_t)4 << 30)
#define MAX_SMALL	((size_t)64 << 20)

/* Whether stdin was read already this run: a pipe has one reader. */
static bool stdin_used;

bool cli_stdin_taken(void)
{
	return stdin_used;
}

const char *cli_input_name(const char *path)
{
	return strcmp(path, "-") ? path : STDIN_NAME;
}

/* The line number at @s ("12..."), and where it ends; false when @s is no number. */
static bool line_number(const char *s, unsigned long *n, const char **end)
{
	char *e;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*n = strtoul(s, &e, 10);
	*end = e;
	return !errno;
}

void cli_file_msg(const char *name, const char *msg, char *out, size_t len)
{
	/* The library's ways of naming a line, and what each becomes after "NAME:N: ". */
	static const struct {
		const char *lead;
		const char *now;
	} forms[] = {
		{ "line ", "" },
		{ "end of file at line ", "end of file: " },
		{ "end of file after line ", "end of file: " },
	};
	size_t nlen = strlen(name);
	const char *p = msg, *r;
	unsigned long line, col;

	/* A reader that opened the file itself starts with its name. */
	if (!strncmp(p, name, nlen) && p[nlen] == ':' && p[nlen + 1] == ' ')
		p += nlen + 2;
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		size_t l = strlen(forms[i].lead);

		if (strncmp(p, forms[i].lead, l) || !line_number(p + l, &line, &r))
			continue;
		/* "line 3: what" */
		if (!strncmp(r, ": ", 2)) {
			snprintf(out, len, "%s:%lu: %s%s", name, line, forms[i].now, r + 2);
			return;
		}
		/* "line 3, column 7: what" */
		if (!strncmp(r, ", column ", 9) && line_number(r + 9, &col, &r) &&
		    !strncmp(r, ": ", 2)) {
			snprintf(out, len, "%s:%lu:%lu: %s%s", name, line, col, forms[i].now, r + 2);
			return;
		}
		/* "line 3 (sends row 2): what", "line 3 (sends row 2) column 4: what" */
		if (!strncmp(r, " (", 2) && strchr(r, ')')) {
			const char *close = strchr(r, ')');

			snprintf(out, len, "%s:%lu: %s%.*s%s", name, line, forms[i].now,
				 (int)(close - r - 2), r + 2, close + 1);
			return;
		}
	}
	snprintf(out, len, "%s: %s", name, p);
}

/* cli_file_msg() in place, for a reader's @em. */
static void file_msg_em(const char *name, struct ipuxcom_errmsg *em)
{
	char msg[sizeof(em->msg)];

	cli_file_msg(name, em->msg, msg, sizeof(msg));
	memcpy(em->msg, msg, sizeof(em->msg));
}

/* Read @fd to EOF (a pipe has no size to check first); 0 or -errno (-EFBIG past @max). */
static int read_fd(int fd, size_t max, char **data, size_t *len)
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
		k = read(fd, buf + n, cap - n);
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

/* A regular or special file (a FIFO, /dev/stdin) to EOF; 0 or -errno. */
static int read_path(const char *path, size_t max, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = read_fd(fd, max, data, len);
	close(fd);
	return err;
}

/* Stdin's bytes, once per run; 0 or -errno, the message (after "-: ") in @em. */
static int take_stdin(size_t max, const char *what, char **data, size_t *len,
		      struct ipuxcom_errmsg *em)
{
	int err;

	if (stdin_used) {
		snprintf(em->msg, sizeof(em->msg), "given twice: standard input can be read only "
			 "once");
		return -EINVAL;
	}
	stdin_used = true;
	err = read_fd(STDIN_FILENO, max, data, len);
	if (err == -EFBIG)
		snprintf(em->msg, sizeof(em->msg), "more than %zu bytes, larger than any valid %s",
			 max, what);
	else if (err)
		snprintf(em->msg, sizeof(em->msg), "read error: %s", strerror(-err));
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
		cli_err(call->what, STDIN_NAME ": %s", em.msg);
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


/* What stdin holds for each of the library's readers. */
enum input_kind { IN_IMAGE, IN_HSP, IN_CFG, IN_BOOT };

static const struct {
	size_t max;
	const char *what;
} input_kinds[] = {
	[IN_IMAGE] = { MAX_IMAGE, "IPUIMG1 file" },
	[IN_HSP] = { MAX_SMALL, "host-sync manifest" },
	[IN_CFG] = { MAX_SMALL, "IPUCFG1 file" },
	[IN_BOOT] = { MAX_SMALL, "tile bootloader file" },
};

/*
 * Whether the library's reader takes @path: a regular file (it checks the
 * size first), or one it will report as missing or a directory. '-', a
 * FIFO ("<(command)") or a device is read here instead.
 */
static bool lib_reads(const char *path)
{
	struct stat st;

	return strcmp(path, "-") && (stat(path, &st) || S_ISREG(st.st_mode) ||
				     S_ISDIR(st.st_mode));
}

/* Read @path ('-': stdin) and hand it to the parser of @kind, which fills @a (and @b). */
static int parse_input(enum input_kind kind, const char *path, void *a, void *b,
		       struct ipuxcom_errmsg *em)
{
	size_t max = input_kinds[kind].max;
	char *data;
	size_t len;
	int err;

	if (!strcmp(path, "-")) {
		err = take_stdin(max, input_kinds[kind].what, &data, &len, em);
	} else {
		err = read_path(path, max, &data, &len);
		if (err)
			snprintf(em->msg, sizeof(em->msg), "%s: %s", path, err == -EFBIG ?
				 "larger than any valid file of its kind" : strerror(-err));
	}
	if (err)
		return err;
	switch (kind) {
	case IN_IMAGE:
		err = ipuxcom_image_from_buffer(data, len, a, em);	/* copies @data */
		break;
	case IN_HSP:
		err = ipuxcom_hsp_parse(data, len, a, em);
		break;
	case IN_CFG:
		err = ipuxcom_cfg_parse(data, len, a, b, em);
		break;
	case IN_BOOT:
		err = ipuxcom_bootloader_parse(data, len, a, em);
		break;
	}
	free(data);
	return err;
}

/* A reader's failure @err, its message as cli_file_msg() has it ("NAME:LINE: what"). */
static int input_err(int err, const char *path, struct ipuxcom_errmsg *em)
{
	if (err)
		file_msg_em(cli_input_name(path), em);
	return err;
}

int cli_input_image(const char *path, struct ipuxcom_image **img, struct ipuxcom_errmsg *em)
{
	return input_err(lib_reads(path) ? ipuxcom_image_open(path, img, em) :
					   parse_input(IN_IMAGE, path, img, NULL, em), path, em);
}

int cli_input_hsp(const char *path, struct ipuxcom_hsp_manifest *m, struct ipuxcom_errmsg *em)
{
	return input_err(lib_reads(path) ? ipuxcom_hsp_load(path, m, em) :
					   parse_input(IN_HSP, path, m, NULL, em), path, em);
}

int cli_input_cfg(const char *path, struct ipuxcom_cfg_record **recs, uint32_t *count,
		  struct ipuxcom_errmsg *em)
{
	return input_err(lib_reads(path) ? ipuxcom_cfg_load(path, recs, count, em) :
					   parse_input(IN_CFG, path, recs, count, em), path, em);
}

int cli_input_bootloader(const char *path, struct ipuxcom_bootloader *bl,
			 struct ipuxcom_errmsg *em)
{
	return input_err(lib_reads(path) ? ipuxcom_bootloader_load(path, bl, em) :
					   parse_input(IN_BOOT, path, bl, NULL, em), path, em);
}

int cli_input_timing(const struct cli_call *call, const char *path, struct ipuxcom_timing **tm)
{
	struct ipuxcom_plan_error e = { 0 };
	bool std = !strcmp(path, "-");
	char msg[sizeof(e.msg) + 16], out[PATH_MAX + sizeof(msg)];
	const char *at;

	if (std && stdin_used) {
		cli_err(call->what, STDIN_NAME ": given twice: standard input can be read only "
			"once");
		return CLI_EXIT_USAGE;
	}
	if (std)
		stdin_used = true;
	/* The library reads a path: standard input is /dev/stdin, named "-" here. */
	if (!ipuxcom_timing_load(std ? "/dev/stdin" : path, tm, &e))
		return 0;
	snprintf(msg, sizeof(msg), "%s", e.msg[0] ? e.msg : ipuxcom_strerror(IPUXCOM_ERRC(e.code)));
	at = std ? strstr(msg, "/dev/stdin") : NULL;
	if (at)		/* "cannot read /dev/stdin: ..." */
		cli_err(call->what, "%.*s" STDIN_NAME "%s", (int)(at - msg), msg,
			at + strlen("/dev/stdin"));
	else if (std || !strstr(msg, path)) {	/* a parse error: "line 1: ..." */
		cli_file_msg(cli_input_name(path), msg, out, sizeof(out));
		cli_err(call->what, "%s", out);
	} else {
		cli_err(call->what, "%s", msg);
	}
	return CLI_EXIT_ERR;
}
