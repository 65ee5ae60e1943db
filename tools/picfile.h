/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the picture writers (trace_json.c, heatmap.c) put their output:
 * the FILE argument of --trace / --heatmap, "-" for stdout. Kept apart so
 * that one place decides how the command writes a FILE argument.
 */
#ifndef IPUXCOM_TOOLS_PICFILE_H
#define IPUXCOM_TOOLS_PICFILE_H

#include <stdio.h>

/* Open @path for writing ("-": stdout); NULL after an error naming @what and @path. */
FILE *picfile_open(const char *what, const char *path);
/* Close it (stdout is only flushed); 0, or CLI_EXIT_ERR after an error naming the file. */
int picfile_close(const char *what, const char *path, FILE *f);
/* Give up on it after a failure: closed, and removed if it is a regular file (no partial picture). */
void picfile_abort(const char *path, FILE *f);

#endif /* IPUXCOM_TOOLS_PICFILE_H */
