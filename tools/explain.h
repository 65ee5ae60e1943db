/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Errors in the words a user needs: not just "the state does not allow
 * it" (-EBADFD) but which state the device is in and the command that
 * gets it out; not "Exec format error" (-ENOEXEC from TDI) but that the
 * tile's context is not running; a file named once.
 */
#ifndef IPUXCOM_TOOLS_EXPLAIN_H
#define IPUXCOM_TOOLS_EXPLAIN_H

#include <stddef.h>

struct cli_call;
struct ipuxcom;
struct ipuxcom_errmsg;

/*
 * What @err from a device call on the attached @ipu means: for -EBADFD
 * the device's current state and what to do ("device 0 is running:
 * `ipuxcom dev reset` first"), else ipuxcom_strerror(). Written to @buf
 * when it needs composing; returns the text.
 */
const char *cli_dev_strerror(struct ipuxcom *ipu, int err, char *buf, size_t len);

/* The same for a TDI command, which also explains -ENOEXEC (the tile's context). */
const char *cli_tdi_strerror(struct ipuxcom *ipu, int err, char *buf, size_t len);

/*
 * Report a failed file loader (ipuxcom_image_open(), ipuxcom_cfg_load(),
 * ipuxcom_hsp_load(), ...) on @path: its message already names the file,
 * so it is printed as is; only without one is the file named here, with
 * ipuxcom_strerror(@err).
 */
void cli_file_err(const struct cli_call *call, const char *path, const struct ipuxcom_errmsg *em,
		  int err);

#endif /* IPUXCOM_TOOLS_EXPLAIN_H */
