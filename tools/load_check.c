// SPDX-License-Identifier: GPL-2.0-only
/*
 * The files of `ipuxcom load --hostx` calls, checked before the device is
 * touched: a missing input found after the load would leave the device
 * running with nothing done (see load.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "load.h"
#include "outfile.h"

/* Size of input slice @k of call @idx, in manifest order; 0 if there is none. */
static uint32_t input_slice_size(const struct ipuxcom_hsp_manifest *m, int idx, int k)
{
	for (uint32_t i = 0; i < m->nslices; i++) {
		if (m->slices[i].call != (uint32_t)idx || m->slices[i].dir != IPUXCOM_HSP_INPUT)
			continue;
		if (k-- == 0)
			return m->slices[i].size;
	}
	return 0;
}

/* Whether a call before @c writes @path. */
static const char *written_before(const struct hostx_spec *specs, int c, const char *path)
{
	for (int p = 0; p < c; p++)
		for (int o = 0; o < specs[p].nout; o++)
			if (!strcmp(specs[p].out[o], path))
				return specs[p].name;
	return NULL;
}

static void check_input(struct checklist *cl, const char *name, const char *path,
			uint32_t want, const char *producer, int *nstdin)
{
	struct stat st;

	if (producer) {
		checklist_add(cl, CHECK_OK, name, path, NULL, "%s: written by call '%s' before",
			      path, producer);
		return;
	}
	if (!strcmp(path, "-")) {
		/* Standard input can be read once: by one in=, and only if no FILE took it. */
		if (cli_stdin_taken())
			checklist_add(cl, CHECK_FAIL, name, path, "give the other inputs as files",
				      "-: standard input is already read (an IMAGE, bootloader, "
				      "config or manifest '-')");
		else if (++*nstdin > 1)
			checklist_add(cl, CHECK_FAIL, name, path, "give the other inputs as files",
				      "-: standard input is already read by another in=");
		else
			checklist_add(cl, CHECK_OK, name, path, NULL,
				      "-: standard input, read when the call runs");
		return;
	}
	if (stat(path, &st) || faccessat(AT_FDCWD, path, R_OK, AT_EACCESS)) {
		checklist_add(cl, CHECK_FAIL, name, path, NULL, "%s: cannot read: %s", path,
			      strerror(errno));
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		checklist_add(cl, CHECK_FAIL, name, path, NULL, "%s: is a directory", path);
		return;
	}
	if (!S_ISREG(st.st_mode) || !want) {
		/* A FIFO or device: its size shows when it is read. */
		checklist_add(cl, CHECK_OK, name, path, NULL, "%s: readable", path);
		return;
	}
	if ((uint64_t)st.st_size != want)
		checklist_add(cl, CHECK_FAIL, name, path, NULL,
			      "%s: %lld byte%s, the call's input slice takes %" PRIu32, path,
			      (long long)st.st_size, st.st_size == 1 ? "" : "s", want);
	else
		checklist_add(cl, CHECK_OK, name, path, NULL, "%s: %" PRIu32 " byte%s, as the slice takes",
			      path, want, want == 1 ? "" : "s");
}

/* outfile_open()'s own verdict (outfile.h), without creating anything. */
static void check_output(struct checklist *cl, const char *name, const char *path)
{
	struct outfile_probe p;

	if (outfile_probe(path, &p))
		checklist_add(cl, CHECK_FAIL, name, path, p.fix, "%s", p.what);
	else
		checklist_add(cl, CHECK_OK, name, path, NULL, "%s", p.what);
}

void load_check_call_files(struct checklist *cl, const struct ipuxcom_hsp_manifest *m,
			   const struct hostx_spec *specs, int n)
{
	int nstdin = 0;

	for (int c = 0; c < n; c++) {
		const struct hostx_spec *sp = &specs[c];
		int idx = m ? ipuxcom_hsp_find_call(m, sp->name) : -1;
		char name[64];

		snprintf(name, sizeof(name), "call %s input", sp->name);
		for (int i = 0; i < sp->nin; i++)
			check_input(cl, name, sp->in[i], idx < 0 ? 0 : input_slice_size(m, idx, i),
				    strcmp(sp->in[i], "-") ? written_before(specs, c, sp->in[i]) : NULL,
				    &nstdin);
		snprintf(name, sizeof(name), "call %s output", sp->name);
		for (int i = 0; i < sp->nout; i++)
			check_output(cl, name, sp->out[i]);
	}
}
