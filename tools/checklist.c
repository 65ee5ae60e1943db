// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report of `load --check` and `doctor`; see checklist.h.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "checklist.h"
#include "json.h"

static const char *const status_names[] = {
	[CHECK_OK] = "ok",
	[CHECK_WARN] = "warn",
	[CHECK_FAIL] = "fail",
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

void checklist_add(struct checklist *cl, enum check_status status, const char *name,
		   const char *file, const char *fix, const char *fmt, ...)
{
	struct check_item *it;
	va_list ap;

	if (status == CHECK_WARN)
		cl->warnings++;
	else if (status == CHECK_FAIL)
		cl->failures++;
	if (cl->n == cl->cap) {
		size_t cap = cl->cap ? cl->cap * 2 : 16;
		struct check_item *items = realloc(cl->items, cap * sizeof(*items));

		if (!items)
			return;
		cl->items = items;
		cl->cap = cap;
	}
	it = &cl->items[cl->n++];
	it->status = status;
	it->name = dup_or_null(name);
	it->file = dup_or_null(file);
	it->fix = dup_or_null(fix);
	va_start(ap, fmt);
	if (vasprintf(&it->detail, fmt, ap) < 0)
		it->detail = NULL;
	va_end(ap);
}

static const char *str(const char *s)
{
	return s ? s : "";
}

static void kv_string_or_null(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	if (s)
		json_string(w, s);
	else
		json_null(w);
}

static void checklist_json(const struct checklist *cl, const struct cli_call *call, FILE *out)
{
	struct json_writer w;

	json_init_call(&w, out, call);
	json_begin_object(&w);
	json_key(&w, "checks");
	json_begin_array(&w);
	for (size_t i = 0; i < cl->n; i++) {
		const struct check_item *it = &cl->items[i];

		json_begin_object(&w);
		json_kv_string(&w, "name", str(it->name));
		kv_string_or_null(&w, "file", it->file);
		json_kv_string(&w, "status", status_names[it->status]);
		json_kv_string(&w, "detail", str(it->detail));
		kv_string_or_null(&w, "fix", it->fix);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_key(&w, "ok");
	json_bool(&w, cl->failures == 0);
	json_kv_uint(&w, "warnings", cl->warnings);
	json_kv_uint(&w, "failures", cl->failures);
	json_end_object(&w);
}

void checklist_print(const struct checklist *cl, const struct cli_call *call, FILE *out)
{
	size_t n_ok = 0;

	if (call->json) {
		checklist_json(cl, call, out);
		return;
	}
	for (size_t i = 0; i < cl->n; i++) {
		const struct check_item *it = &cl->items[i];

		n_ok += it->status == CHECK_OK;
		fprintf(out, "%-4s  %s: %s\n", it->status == CHECK_FAIL ? "FAIL" :
			status_names[it->status], str(it->name), str(it->detail));
		if (it->fix)
			fprintf(out, "      fix: %s\n", it->fix);
	}
	fprintf(out, "%zu check%s: %zu ok, %u warning%s, %u failure%s\n", cl->n, cli_s(cl->n),
		n_ok, cl->warnings, cli_s(cl->warnings), cl->failures, cli_s(cl->failures));
}

void checklist_report_failures(const struct checklist *cl, const struct cli_call *call)
{
	for (size_t i = 0; i < cl->n; i++)
		if (cl->items[i].status == CHECK_FAIL)
			cli_err(call->what, "%s %s", str(cl->items[i].name),
				str(cl->items[i].detail));
}

void checklist_free(struct checklist *cl)
{
	for (size_t i = 0; i < cl->n; i++) {
		free(cl->items[i].name);
		free(cl->items[i].file);
		free(cl->items[i].detail);
		free(cl->items[i].fix);
	}
	free(cl->items);
	*cl = (struct checklist) { 0 };
}
