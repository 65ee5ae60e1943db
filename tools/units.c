// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sizes for people; see units.h.
 */
#include <inttypes.h>
#include <stdio.h>

#include "units.h"

/* @v with a ',' every three digits, as people write them (not the locale's: stable output). */
static void grouped(uint64_t v, char *buf, size_t len)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%" PRIu64, v);
	size_t o = 0;

	for (int i = 0; i < n && o + 1 < len; i++) {
		if (i && (n - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

const char *cli_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	char exact[32];
	double v = (double)bytes;
	int u = -1;

	grouped(bytes, exact, sizeof(exact));
	if (bytes < 1024) {
		snprintf(buf, len, "%s byte%s", exact, bytes == 1 ? "" : "s");
		return buf;
	}
	/* 1023.96 KiB would print as "1024.0 KiB": move up before rounding does. */
	while (u < 5 && v >= 1023.95) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.1f %s (%s bytes)", v, unit[u], exact);
	return buf;
}
