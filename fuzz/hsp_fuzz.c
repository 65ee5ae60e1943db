// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the .ipuhsp manifest reader. Whatever it accepts must
 * validate, format canonically, and read back to the same manifest; the
 * canonical text must be a fixed point of read + format.
 */
#include <stdlib.h>
#include <string.h>

#include <ipuxcom.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipuxcom_hsp_manifest m, m2;
	struct ipuxcom_errmsg em;
	char *text, *text2;
	size_t len, len2;

	if (ipuxcom_hsp_parse((const char *)data, size, &m, &em)) {
		if (!em.msg[0])
			abort();
		return 0;
	}
	if (ipuxcom_hsp_validate(&m, &em) || ipuxcom_hsp_format(&m, &text, &len, &em))
		abort();
	if (ipuxcom_hsp_parse(text, len, &m2, &em) || memcmp(&m, &m2, sizeof(m)))
		abort();
	if (ipuxcom_hsp_format(&m2, &text2, &len2, &em) || len != len2 || memcmp(text, text2, len))
		abort();
	for (uint32_t i = 0; i < m.ncalls; i++)
		if (ipuxcom_hsp_find_call(&m, m.calls[i].name) != (int)i)
			abort();
	free(text);
	free(text2);
	return 0;
}
