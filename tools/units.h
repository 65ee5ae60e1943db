/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sizes for people in the ipuxcom command's text output; JSON keeps the
 * exact numbers.
 */
#ifndef IPUXCOM_TOOLS_UNITS_H
#define IPUXCOM_TOOLS_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Room for any cli_size() text. */
#define CLI_SIZE_LEN	64

/*
 * @bytes as "1.9 MiB (1,885,475 bytes)": binary units with one decimal,
 * then the exact count with thousands separators; below 1 KiB only
 * "512 bytes" (and "1 byte"). Returns @buf.
 */
const char *cli_size(uint64_t bytes, char *buf, size_t len);

#endif /* IPUXCOM_TOOLS_UNITS_H */
