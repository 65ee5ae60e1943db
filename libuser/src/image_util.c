// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Helpers of the image, frames, IPUCFG1 and manifest code: error
 * messages, bounded whole-file reads, tile file names.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image_internal.h"
#include "internal.h"

int ixc_err(struct ipuxcom_errmsg *em, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ixc_err_vnote(IPUXCOM_ERR_FILE, err, 0, fmt, ap);
	va_end(ap);
	if (em)
		snprintf(em->msg, sizeof(em->msg), "%s", ixc_err_last_msg());
	return err;
}

int ixc_err_prefix(struct ipuxcom_errmsg *em, int err, const char *fmt, ...)
{
	char prefix[IPUXCOM_ERRMSG_LEN], old[IPUXCOM_ERRMSG_LEN];
	struct ipuxcom_errmsg own;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	/* Without @em, the thread's record holds the message to prefix. */
	if (!em) {
		em = &own;
		snprintf(em->msg, sizeof(em->msg), "%s", ixc_err_last_msg());
	}
	memcpy(old, em->msg, sizeof(old));
	old[sizeof(old) - 1] = '\0';
	/* "PREFIX: OLD", truncated to fit (not snprintf: it warns about that). */
	{
		size_t n = 0, cap = sizeof(em->msg) - 1;
		const char *parts[3] = { prefix, ": ", old };

		for (int i = 0; i < 3; i++) {
			size_t l = strlen(parts[i]);

			if (l > cap - n)
				l = cap - n;
			memcpy(em->msg + n, parts[i], l);
			n += l;
		}
		em->msg[n] = '\0';
	}
	ixc_err_note_msg(IPUXCOM_ERR_FILE, err, 0, em->msg);
	return err;
}

const char *ixc_quote_bytes(const void *p, size_t n, char *buf, size_t len)
{
	const uint8_t *b = p;
	size_t o = 0;

	if (!len)
		return buf;
	for (size_t i = 0; i < n && o + 5 < len; i++) {
		if (b[i] >= 0x20 && b[i] < 0x7f && b[i] != '\\' && b[i] != '\'')
			buf[o++] = (char)b[i];
		else
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", b[i]);
	}
	buf[o < len ? o : len - 1] = '\0';
	return buf;
}

int ixc_read_file(const char *path, size_t max, const char *what, uint8_t **data,
		  size_t *len, struct ipuxcom_errmsg *em)
{
	struct stat st;
	uint8_t *buf;
	size_t got = 0;
	int fd, err;

	*data = NULL;
	*len = 0;
	if (!path)
		return ixc_err(em, -EINVAL, "no file name");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		return ixc_err(em, err, "%s: cannot open: %s", path, strerror(-err));
	}
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return ixc_err(em, err, "%s: cannot stat: %s", path, strerror(-err));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return ixc_err(em, S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL,
			       "%s: not a regular file", path);
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		return ixc_err(em, -EFBIG, "%s: %lld bytes, larger than any valid %s (%zu)",
			       path, (long long)st.st_size, what, max);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return ixc_err(em, -ENOMEM, "%s: no memory for %lld bytes", path,
			       (long long)st.st_size);
	}
	/* Read to EOF: the file may have changed since fstat(). */
	for (;;) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size + 1 - got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			free(buf);
			close(fd);
			return ixc_err(em, err, "%s: read error: %s", path, strerror(-err));
		}
		if (n == 0)
			break;
		got += (size_t)n;
		if (got > (size_t)st.st_size) {
			free(buf);
			close(fd);
			return ixc_err(em, -EAGAIN, "%s: grew while being read", path);
		}
	}
	close(fd);
	buf[got] = '\0';
	*data = buf;
	*len = got;
	return 0;
}

long ixc_parse_tile_name(const char *name, const char *prefix, const char *suffix,
			 uint32_t tile_count)
{
	size_t pl = strlen(prefix), sl = strlen(suffix), nl = strlen(name), digits;
	unsigned long v = 0;

	if (nl <= pl + sl || strncmp(name, prefix, pl) || strcmp(name + nl - sl, suffix))
		return -1;
	digits = nl - pl - sl;
	if (digits > 7 || (digits > 1 && name[pl] == '0'))
		return -1;
	for (size_t i = 0; i < digits; i++) {
		char c = name[pl + i];

		if (c < '0' || c > '9')
			return -1;
		v = v * 10 + (unsigned long)(c - '0');
	}
	return v < tile_count ? (long)v : -1;
}
