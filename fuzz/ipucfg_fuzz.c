// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the IPUCFG1 reader. Whatever it accepts must name
 * and summarise cleanly and serialise back to the very same bytes.
 */
#include <stdlib.h>
#include <string.h>

#include <ipuxcom.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipuxcom_cfg_record *recs;
	struct ipuxcom_cfg_block *blocks;
	struct ipuxcom_errmsg em;
	uint32_t count;
	size_t nblocks, len;
	void *out;
	char name[48];

	if (ipuxcom_cfg_parse(data, size, &recs, &count, &em)) {
		if (!em.msg[0] || recs || count)
			abort();
		return 0;
	}
	for (uint32_t i = 0; i < count; i++)
		ipuxcom_cfg_reg_name(recs[i].offset, name, sizeof(name));
	if (ipuxcom_cfg_summarize(recs, count, &blocks, &nblocks))
		abort();
	free(blocks);
	if (ipuxcom_cfg_serialize(recs, count, &out, &len, &em))
		abort();
	if (len != size || memcmp(out, data, size))
		abort();	/* reader and writer disagree */
	free(out);
	free(recs);
	return 0;
}
