/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * File-name helpers of the ipuxcom command.
 */
#ifndef IPUXCOM_TOOLS_PATH_H
#define IPUXCOM_TOOLS_PATH_H

#include <stddef.h>

/*
 * The directory a new file @path would be created in, into @buf: "." for
 * a bare name, "/" for "/name", else everything before the last '/'.
 * Returns @buf.
 */
const char *path_dir_of(const char *path, char *buf, size_t len);

#endif /* IPUXCOM_TOOLS_PATH_H */
