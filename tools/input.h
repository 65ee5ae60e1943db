/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * FILE arguments of the ipuxcom command: a path, or '-' for standard
 * input, for every command that reads a file (image, manifest, config,
 * bootloader, transfer list, words to decode).
 */
#ifndef IPUXCOM_TOOLS_INPUT_H
#define IPUXCOM_TOOLS_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ipuxcom.h>

#include "cli.h"

/* Whether a FILE '-' has read standard input already this run. */
bool cli_stdin_taken(void);

/* The name messages give @path: "-" for '-' (as given, and as JSON's "file"). */
const char *cli_input_name(const char *path);

/*
 * @msg, a reader's message about file @name, in @out as "NAME:LINE: what"
 * (as compilers name a line; "NAME:LINE:COLUMN: what" with a column), the
 * one style of every message about a line of a file the command reads:
 * the library's text parsers say "line 3: what", "line 3, column 7: what",
 * "line 3 (sends row 2): what" or "end of file at line 3: what", after
 * "NAME: " when they opened the file themselves. Any other message is
 * "NAME: what".
 */
void cli_file_msg(const char *name, const char *msg, char *out, size_t len);

/*
 * Read FILE @path ('-': stdin) whole, at most @max bytes, NUL-terminated
 * (so text can be parsed in place; *len does not count the NUL). Failures
 * are reported naming the file. Standard input can be read only once per
 * run: a second '-' is a usage error. Returns 0, CLI_EXIT_USAGE or
 * CLI_EXIT_ERR; free *data.
 */
int cli_read_input(const struct cli_call *call, const char *path, size_t max, char **data,
		   size_t *len);

/*
 * The library's readers, with '-' (stdin), a FIFO ("<(command)") or a
 * device read here and parsed from memory (the messages still start with
 * the file's name, "-" for '-', and name a line as cli_file_msg() does).
 * Return the library's error (or -EINVAL when '-' was used twice), the
 * message in @em.
 */
int cli_input_image(const char *path, struct ipuxcom_image **img, struct ipuxcom_errmsg *em);
int cli_input_hsp(const char *path, struct ipuxcom_hsp_manifest *m, struct ipuxcom_errmsg *em);
int cli_input_cfg(const char *path, struct ipuxcom_cfg_record **recs, uint32_t *count,
		  struct ipuxcom_errmsg *em);
int cli_input_bootloader(const char *path, struct ipuxcom_bootloader *bl,
			 struct ipuxcom_errmsg *em);

/*
 * A timing table FILE (-t/--timing): '-' reads standard input (once per
 * run, as every '-'), a FIFO too. Failures are reported naming the file
 * ("-" for '-'), a line as cli_file_msg() does. Returns 0, CLI_EXIT_USAGE or CLI_EXIT_ERR; free
 * *@tm with ipuxcom_timing_free().
 */
int cli_input_timing(const struct cli_call *call, const char *path, struct ipuxcom_timing **tm);

#endif /* IPUXCOM_TOOLS_INPUT_H */
