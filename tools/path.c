// SPDX-License-Identifier: GPL-2.0-only
/*
 * File-name helpers; see path.h.
 */
#include <stdio.h>
#include <string.h>

#include "path.h"

const char *path_dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == path)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(slash - path), path);
	return buf;
}
