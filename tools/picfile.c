// SPDX-License-Identifier: GPL-2.0
/*
 * Output files of the picture options; see picfile.h.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "picfile.h"

FILE *picfile_open(const char *what, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!f)
		cli_err(what, "%s: %s", path, strerror(errno));
	return f;
}

int picfile_close(const char *what, const char *path, FILE *f)
{
	bool bad = fflush(f) != 0 || ferror(f);
	int e = errno;

	if (f != stdout && fclose(f) && !bad) {
		bad = true;
		e = errno;
	}
	if (!bad)
		return 0;
	cli_err(what, "%s: %s", path, strerror(e ? e : EIO));
	return CLI_EXIT_ERR;
}

void picfile_abort(const char *path, FILE *f)
{
	struct stat st;

	if (f == stdout)
		return;
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode))
		unlink(path);
	fclose(f);
}
