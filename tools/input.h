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

/* The name messages give @path: "(stdin)" for '-'. */
const char *cli_input_name(const char *path);

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
 * the file's name, "(stdin)" for '-').
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
 * ("(stdin)" for '-'). Returns 0, CLI_EXIT_USAGE or CLI_EXIT_ERR; free
 * *@tm with ipuxcom_timing_free().
 */
int cli_input_timing(const struct cli_call *call, const char *path, struct ipuxcom_timing **tm);

#endif /* IPUXCOM_TOOLS_INPUT_H */
