/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ipuxcom load's host-exchange calls (NAME[:in=FILE]...[:out=FILE]...)
 * and the checks of their files, shared by load.c and load_check.c.
 */
#ifndef IPUXCOM_TOOLS_LOAD_H
#define IPUXCOM_TOOLS_LOAD_H

#include <ipuxcom.h>

#include "checklist.h"

#define HOSTX_MAX_CALLS	64
#define HOSTX_MAX_IO	8

struct hostx_spec {
	char name[IPUXCOM_HSP_NAME_LEN];
	const char *in[HOSTX_MAX_IO], *out[HOSTX_MAX_IO];
	int nin, nout;
};

/*
 * Check the files of the calls @specs[0 .. @n) without creating,
 * truncating or reading any of them: every in= file readable and, when
 * it is a regular file and @m (NULL: the manifest could not be read) says
 * the size, exactly its slice's size, unless an earlier call's out=
 * writes it; every out= file writable, or creatable in its directory.
 * "-" is stdin (at most one in=) or stdout. One item per file in @cl.
 */
void load_check_call_files(struct checklist *cl, const struct ipuxcom_hsp_manifest *m,
			   const struct hostx_spec *specs, int n);

#endif /* IPUXCOM_TOOLS_LOAD_H */
