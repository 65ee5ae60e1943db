/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one way the ipuxcom command writes a FILE argument (-o FILE and the
 * like), so that an output never destroys what its name points at:
 *
 *  - "-" and /dev/stdout: standard output.
 *  - a device node, FIFO or /dev/fd/N (a pipe, `-o >(wc -c)`): opened
 *    and written in place, never created, truncated or replaced.
 *  - a regular file, or a new name: written to a temporary file in the
 *    same directory and renamed over it, so a failed command leaves the
 *    old file (or none) and no temporary (also when a signal such as
 *    SIGINT, SIGTERM or SIGXFSZ ends it); an existing file keeps its mode
 *    (and owner, when allowed), a new one gets 0666 & ~umask. A regular
 *    file in a directory the caller cannot write is truncated and written
 *    in place instead.
 *  - a symlink is followed: the file it points at is written as above and
 *    the link stays.
 *  - refused before anything is written: a directory, a socket, a missing
 *    directory, and a file the caller may not write (for root too: a file
 *    with no write permission bit at all, e.g. 0444, is not replaced).
 *
 * Every failure is reported on stderr naming the file; functions return 0
 * or CLI_EXIT_ERR.
 *
 * The one output rule: a command's main output goes where its -o (or
 * --trace, --heatmap, --export) says; when that is standard output, the
 * command first calls outfile_claim_stdout(), and its report (text, -j
 * object, error object) goes to stderr, never into the JSON, SVG or image.
 */
#ifndef IPUXCOM_TOOLS_OUTFILE_H
#define IPUXCOM_TOOLS_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli.h"

struct outfile;

/* How outfile_open() would write a file, or why it would refuse it. */
struct outfile_probe {
	bool ok;
	/*
	 * ok: "NAME: standard output", "NAME: created after the call",
	 * "NAME: writable (replaced after the call)" or "... (written in
	 * place)"; else the refusal as outfile_open() reports it.
	 */
	char what[PATH_MAX + 200];
	const char *fix;	/* a refusal's fix, or NULL */
};

/* Fill @p without creating or changing anything; 0 or CLI_EXIT_ERR (@p says why). */
int outfile_probe(const char *path, struct outfile_probe *p);

/*
 * Check that @path can be written as outfile_open() would, without
 * creating or changing anything: for commands that must fail before
 * doing their work (touching a device, running a program).
 */
int outfile_check(const struct cli_call *call, const char *path);

/* Whether @path names standard output: "-", /dev/stdout, /dev/fd/1, /proc/self/fd/1. */
bool outfile_is_stdout(const char *path);

/*
 * When @path (NULL: none) names standard output, keep standard output for
 * it and send everything else the command prints on stdout to stderr
 * from here on (a command it runs, too): outfile_open() of @path then
 * writes the real standard output. Call it after parsing, before printing
 * anything. Returns 0 or CLI_EXIT_ERR.
 */
int outfile_claim_stdout(const struct cli_call *call, const char *path);

/* Start writing @path; *@out is NULL on failure. */
int outfile_open(const struct cli_call *call, const char *path, struct outfile **out);

/* The stream to write to, for writers that take a FILE *; see outfile_close(). */
FILE *outfile_stream(const struct outfile *o);

/* Write @len bytes; after a failure every later write fails too, unreported. */
int outfile_write(struct outfile *o, const void *data, size_t len);

/*
 * Finish: when @ok, flush and put the file in place; otherwise (or when
 * that fails) discard the temporary file. An in-place target keeps what
 * was written before a failure. Frees @o; NULL is an error (a failed open).
 */
int outfile_close(struct outfile *o, bool ok);

/* outfile_open() + outfile_write() + outfile_close(). */
int outfile_write_all(const struct cli_call *call, const char *path, const void *data,
		      size_t len);

#endif /* IPUXCOM_TOOLS_OUTFILE_H */
