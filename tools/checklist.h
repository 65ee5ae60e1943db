/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A list of checks with their verdicts, printed as a report: what
 * `ipuxcom load --check` and `ipuxcom doctor` show. Each check has a name
 * ("bootloader", "device node"), optionally the file it is about, a
 * status, what was found and, when something is wrong, how to fix it.
 */
#ifndef IPUXCOM_TOOLS_CHECKLIST_H
#define IPUXCOM_TOOLS_CHECKLIST_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"

enum check_status {
	CHECK_OK,
	CHECK_WARN,	/* works, but something a user may want to know or fix */
	CHECK_FAIL,
};

struct check_item {
	enum check_status status;
	char *name;
	char *file;	/* NULL: not about a file */
	char *detail;	/* what was found, or what is wrong */
	char *fix;	/* NULL: nothing to do */
};

struct checklist {
	struct check_item *items;
	size_t n, cap;
	unsigned int warnings, failures;
};

/*
 * Add a check. @file and @fix may be NULL. An item that cannot be
 * allocated is still counted, so a failure is never lost.
 */
__attribute__((format(printf, 6, 7)))
void checklist_add(struct checklist *cl, enum check_status status, const char *name,
		   const char *file, const char *fix, const char *fmt, ...);

/*
 * The report on @out: one line per check ("ok    NAME: DETAIL", "warn",
 * "FAIL"), each fix on the line after, then a summary line; or, when
 * call->json, one object {"checks":[{"name","file","status","detail",
 * "fix"}...],"ok","warnings","failures"}.
 */
void checklist_print(const struct checklist *cl, const struct cli_call *call, FILE *out);

/*
 * Every failure as an error message on stderr, "ipuxcom: WHAT: NAME DETAIL"
 * ("ipuxcom: load: bootloader boot.bin: cannot open: ..."), the file
 * named once.
 */
void checklist_report_failures(const struct checklist *cl, const struct cli_call *call);

void checklist_free(struct checklist *cl);

#endif /* IPUXCOM_TOOLS_CHECKLIST_H */
