// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ipuxcom __complete WORD...`: the candidates the bash completion
 * (tools/completion/ipuxcom.bash) offers for the last WORD. Objects and
 * commands come from main.c's tables, a command's options from its own
 * cli_parse() call (run in listing mode, before it does anything), so
 * completion cannot drift from what the parser accepts.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom.h>

#include "cli.h"
#include "cli_match.h"

/* Print @cand when it completes @cur. */
static void offer(const char *cand, const char *cur)
{
	if (cand && !strncmp(cand, cur, strlen(cur)))
		puts(cand);
}

/* Every device id the module knows; nothing when it is not loaded. */
static void offer_devices(const char *cur)
{
	struct ipuxcom_device_info *devs = NULL;
	struct ipuxcom_nl *nl;
	size_t n = 0;

	if (ipuxcom_nl_open(&nl))
		return;
	if (!ipuxcom_nl_dev_list(nl, &devs, &n)) {
		for (size_t i = 0; i < n; i++) {
			char id[16];

			snprintf(id, sizeof(id), "%" PRIu32, devs[i].dev_id);
			offer(id, cur);
		}
	}
	ipuxcom_nl_dev_list_free(devs);
	ipuxcom_nl_close(nl);
}

static void offer_options(const struct cli_opt *opts, size_t n, const char *cur)
{
	for (size_t i = 0; i < n; i++) {
		char name[80];

		snprintf(name, sizeof(name), "--%s", opts[i].lname);
		offer(name, cur);
	}
}

/*
 * The option of @opts whose value is the argument after @word: "--name"
 * (or a prefix) or a short bundle ending with a value-taking option.
 */
static const struct cli_opt *value_opt(const struct cli_opt *opts, size_t n, const char *word)
{
	const char *names[CLI_MAX_OPTS];
	size_t len = strlen(word);
	int i;

	if (word[0] != '-' || len < 2)
		return NULL;
	if (word[1] == '-') {
		if (strchr(word, '='))
			return NULL;
		for (size_t k = 0; k < n; k++)
			names[k] = opts[k].lname;
		i = cli_match(word + 2, len - 2, names, n);
		return i >= 0 && opts[i].arg ? &opts[i] : NULL;
	}
	for (size_t k = 1; k < len; k++) {
		for (size_t o = 0; o < n; o++) {
			if (opts[o].sname != word[k])
				continue;
			if (opts[o].arg)
				/* "-ofile" has its value: the next word is not it */
				return k + 1 == len ? &opts[o] : NULL;
			break;
		}
	}
	return NULL;
}

/* Options that take one of a fixed set of words, and the words. */
static const struct {
	const char *lname;
	const char *values[5];
} word_values[] = {
	{ "method", { "auto", "multicast", "serialized", "relay" } },	/* plan fanout */
	{ "cfg-hsp", { "clear", "keep-gs2", "replay" } },		/* load */
};

/* Whether an option's value (its help's name for it: "FILE") is a path. */
static bool value_is_path(const char *arg)
{
	return strstr(arg, "FILE") || strstr(arg, "DIR") || strstr(arg, "PATH") ||
	       strstr(arg, "MANIFEST") || strstr(arg, "OUT") || strstr(arg, "IMG");
}

/*
 * The value of @opt: device ids for --dev, the words of an option that
 * takes one of a set (--method, --cfg-hsp), file names for a path, and
 * nothing for a number (ADDR, N, MS...).
 */
static void offer_value(const struct cli_opt *opt, const char *cur)
{
	if (!strcmp(opt->lname, "dev")) {
		offer_devices(cur);
		return;
	}
	for (size_t i = 0; i < sizeof(word_values) / sizeof(word_values[0]); i++) {
		if (strcmp(opt->lname, word_values[i].lname))
			continue;
		for (size_t k = 0; k < 5 && word_values[i].values[k]; k++)
			if (!strncmp(word_values[i].values[k], cur, strlen(cur)))
				puts(word_values[i].values[k]);
		return;
	}
	if (value_is_path(opt->arg))
		puts("@files");
}

/*
 * "--name=VALUE" being completed (@cur): the values of that option of
 * @opts, without the "--name=" that the shell keeps. Returns false when
 * @cur is not that.
 */
static bool offer_inline_value(const struct cli_opt *opts, size_t n, const char *cur)
{
	const char *eq = strchr(cur, '=');
	const char *names[CLI_MAX_OPTS];
	int i;

	if (strncmp(cur, "--", 2) || !eq)
		return false;
	for (size_t k = 0; k < n; k++)
		names[k] = opts[k].lname;
	i = cli_match(cur + 2, (size_t)(eq - cur - 2), names, n);
	if (i >= 0 && opts[i].arg)
		offer_value(&opts[i], eq + 1);
	return true;
}

/*
 * bash splits "--dev=1" into "--dev", "=", "1" (COMP_WORDBREAKS has '='):
 * join them again into @out (the words themselves, or copies in a pool),
 * so that "--dev=" completes as the value of --dev. Returns the count.
 */
static int join_equals(int argc, char **argv, char **out)
{
	static char pool[8192];
	size_t used = 0;
	int n = 0;

	for (int i = 0; i < argc; i++) {
		const char *val = i + 1 < argc ? argv[i + 1] : "";
		int w;

		if (n > 0 && out[n - 1][0] == '-' && !strcmp(argv[i], "=")) {
			w = snprintf(pool + used, sizeof(pool) - used, "%s=%s", out[n - 1], val);
			if (w >= 0 && (size_t)w < sizeof(pool) - used) {
				out[n - 1] = pool + used;
				used += (size_t)w + 1;
				i++;
				continue;
			}
		}
		out[n++] = argv[i];
	}
	return n;
}

static const struct cli_object *match_object(const struct cli_object *const *objs,
					     size_t nobjs, const char *word)
{
	const char *names[64];
	int i;

	for (size_t k = 0; k < nobjs && k < 64; k++)
		names[k] = objs[k]->name;
	i = cli_match(word, strlen(word), names, nobjs < 64 ? nobjs : 64);
	return i >= 0 ? objs[i] : NULL;
}

static const struct cli_cmd *match_cmd(const struct cli_object *obj, const char *word)
{
	const char *names[CLI_MAX_CMDS];
	size_t n = obj->ncmds < CLI_MAX_CMDS ? obj->ncmds : CLI_MAX_CMDS;
	int i;

	for (size_t k = 0; k < n; k++)
		names[k] = obj->cmds[k].name;
	i = cli_match(word, strlen(word), names, n);
	return i >= 0 ? &obj->cmds[i] : NULL;
}

static const struct cli_cmd *default_cmd(const struct cli_object *obj)
{
	if (obj->ncmds == 1 && !obj->cmds[0].name)
		return &obj->cmds[0];
	for (size_t i = 0; obj->default_cmd && i < obj->ncmds; i++)
		if (!strcmp(obj->cmds[i].name, obj->default_cmd))
			return &obj->cmds[i];
	return NULL;
}

static void offer_cmds(const struct cli_object *obj, const char *cur)
{
	for (size_t i = 0; i < obj->ncmds; i++)
		offer(obj->cmds[i].name, cur);
}

/* @words[0..n-1] after the command's name, the last being completed. */
static void complete_cmd(const struct cli_global *g, const struct cli_object *obj,
			 const struct cli_cmd *cmd, int n, char **words)
{
	static struct cli_opt_listing listing;
	const char *cur = words[n - 1];
	const struct cli_opt *opt;
	char *none[] = { NULL };
	struct cli_call call = {
		.global = g,
		.obj = obj,
		.cmd = cmd,
		.what = obj->name,
		.listing = &listing,
	};

	listing.nopts = 0;
	cmd->run(&call, 0, none);
	opt = n >= 2 ? value_opt(listing.opts, listing.nopts, words[n - 2]) : NULL;
	if (opt)
		offer_value(opt, cur);
	else if (offer_inline_value(listing.opts, listing.nopts, cur))
		;
	else if (cur[0] == '-')
		offer_options(listing.opts, listing.nopts, cur);
	else if (cmd->takes_dev && cmd->args && !strncmp(cmd->args, "[ID", 3))
		offer_devices(cur);	/* "dev show ID": a positional device id */
	else
		puts("@files");
}

/* @argv[0..argc-1] after the program's name, the last (maybe "") being completed. */
static void complete_words(const struct cli_object *const *objs, size_t nobjs, int argc,
			   char **argv)
{
	struct cli_opt gopts[CLI_MAX_OPTS];
	struct cli_global g = { 0 };
	const struct cli_object *obj;
	const struct cli_cmd *cmd;
	bool unused;
	size_t ng = cli_global_opts(gopts, &g, &unused, &unused);
	const char *cur;
	bool help = false;
	int i = 0;

	cur = argv[argc - 1];
	/* The options before the object, and their values. */
	while (i < argc - 1 && argv[i][0] == '-' && argv[i][1]) {
		if (!strcmp(argv[i++], "--"))
			break;
		if (value_opt(gopts, ng, argv[i - 1])) {
			if (i == argc - 1) {
				offer_value(value_opt(gopts, ng, argv[i - 1]), cur);
				return;
			}
			i++;
		}
	}
	if (i == argc - 1) {
		if (offer_inline_value(gopts, ng, cur))
			return;
		if (cur[0] == '-') {
			offer_options(gopts, ng, cur);
			return;
		}
		for (size_t k = 0; k < nobjs; k++)
			offer(objs[k]->name, cur);
		offer("help", cur);
		return;
	}
	/* "help OBJECT [COMMAND]" completes as names only. */
	if (!strcmp(argv[i], "help")) {
		help = true;
		i++;
		if (i == argc - 1) {
			for (size_t k = 0; k < nobjs; k++)
				offer(objs[k]->name, cur);
			return;
		}
	}
	obj = match_object(objs, nobjs, argv[i++]);
	if (!obj)
		return;
	cmd = default_cmd(obj);
	if (!(obj->ncmds == 1 && !obj->cmds[0].name)) {
		if (i == argc - 1 && (help || cur[0] != '-')) {
			offer_cmds(obj, cur);
			return;
		}
		if (argv[i][0] != '-')
			cmd = match_cmd(obj, argv[i++]);
	}
	if (help || !cmd)
		return;
	complete_cmd(&g, obj, cmd, argc - i, argv + i);
}

int cli_complete(const struct cli_object *const *objs, size_t nobjs, int argc, char **argv)
{
	char *empty[] = { (char *)"" }, **words;

	if (argc == 0) {
		argc = 1;
		argv = empty;
	}
	words = calloc((size_t)argc, sizeof(*words));
	if (!words)
		return CLI_EXIT_ERR;
	complete_words(objs, nobjs, join_equals(argc, argv, words), words);
	free(words);
	return CLI_EXIT_OK;
}
