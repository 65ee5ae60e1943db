// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom [OPTIONS] OBJECT [COMMAND] [ARGS]: the command-line front end
 * of libipuxcom, in the style of ip(8) and devlink(8).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <ipuxcom.h>

#include "cli.h"
#include "cli_match.h"
#include "image_cli.h"
#include "json.h"

/* Every object, in the order `ipuxcom help` lists them. */
static const struct cli_object *const objects[] = {
	&cli_obj_info,
	&cli_obj_dev,
	&cli_obj_plan,
	&cli_obj_demo,
	&cli_obj_load,
	&cli_obj_monitor,
	&cli_obj_tdi,
	&cli_obj_image,
	&cli_obj_frames,
	&cli_obj_cfg,
	&cli_obj_hsp,
	&cli_obj_doctor,
};

#define NOBJECTS (sizeof(objects) / sizeof(objects[0]))

static bool is_help(const char *a)
{
	return !strcmp(a, "help") || !strcmp(a, "-h") || !strcmp(a, "--help");
}

/* The objects' names, and "help", for cli_match(). */
static size_t object_names(const char **names)
{
	for (size_t i = 0; i < NOBJECTS; i++)
		names[i] = objects[i]->name;
	names[NOBJECTS] = "help";
	return NOBJECTS + 1;
}

/* @name is "help" or a prefix only it has ("hel"). */
static bool names_help(const char *name)
{
	const char *names[NOBJECTS + 1];
	size_t n = object_names(names);

	return cli_match(name, strlen(name), names, n) == (int)NOBJECTS;
}

/*
 * The object @name names, exactly or by an unambiguous prefix; NULL for
 * "help" (*@help set) and after reporting a usage error.
 */
static const struct cli_object *find_object(const char *name, bool *help)
{
	const char *names[NOBJECTS + 1];
	size_t n = object_names(names);
	int i = cli_match(name, strlen(name), names, n);
	char hint[256];

	*help = false;
	if (i >= 0 && (size_t)i == NOBJECTS)
		*help = true;
	if (i >= 0)
		return *help ? NULL : objects[i];
	cli_match_hint(hint, sizeof(hint), i, name, strlen(name), names, n, "");
	cli_usage_err(NULL, "%s object '%s'%s", i == CLI_MATCH_AMBIGUOUS ? "ambiguous" :
		      "unknown", name, hint);
	return NULL;
}

/* The command of @obj that @name names, or NULL after reporting a usage error. */
static const struct cli_cmd *find_cmd(const struct cli_call *ctx, const char *name)
{
	const struct cli_object *obj = ctx->obj;
	const char *names[CLI_MAX_CMDS];
	char hint[256];
	int i;

	for (size_t k = 0; k < obj->ncmds && k < CLI_MAX_CMDS; k++)
		names[k] = obj->cmds[k].name;
	i = cli_match(name, strlen(name), names, obj->ncmds);
	if (i >= 0)
		return &obj->cmds[i];
	cli_match_hint(hint, sizeof(hint), i, name, strlen(name), names, obj->ncmds, "");
	cli_usage_err(ctx, "%s command '%s'%s", i == CLI_MATCH_AMBIGUOUS ? "ambiguous" :
		      "unknown", name, hint);
	return NULL;
}

/* A write error on stdout was already reported, with the command's name. */
static bool stdout_reported;

/* finish() for a command's run: the message names the command. */
static int finish_cmd(const char *what, int rc)
{
	int err;

	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	err = errno;
	cli_err(what, "standard output: write error: %s", cli_write_strerror(err));
	/* Reported: finish() must not say it again. */
	stdout_reported = true;
	return rc ? rc : CLI_EXIT_ERR;
}

static int run_cmd(const struct cli_global *g, const struct cli_object *obj,
		   const struct cli_cmd *cmd, int argc, char **argv)
{
	char what[64];
	struct cli_call call = {
		.global = g,
		.obj = obj,
		.cmd = cmd,
		.what = what,
		.json = g->json,
		.pretty = g->pretty,
		.dev = g->dev,
	};

	if (cmd->name)
		snprintf(what, sizeof(what), "%s %s", obj->name, cmd->name);
	else
		snprintf(what, sizeof(what), "%s", obj->name);
	return cli_json_error(&call, g, finish_cmd(what, cmd->run(&call, argc, argv)));
}

/* @name names a command of @obj, exactly or by a prefix (even an ambiguous one). */
static bool names_cmd(const struct cli_object *obj, const char *name)
{
	for (size_t k = 0; k < obj->ncmds; k++)
		if (obj->cmds[k].name && !strncmp(obj->cmds[k].name, name, strlen(name)))
			return true;
	return false;
}

static bool is_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* argv[0] is the object's name. */
static int run_object(const struct cli_global *g, int argc, char **argv)
{
	struct cli_call ctx = { .global = g };
	const struct cli_object *obj;
	const struct cli_cmd *cmd;
	bool help;

	obj = find_object(argv[0], &help);
	if (help) {
		cli_main_help(stdout, objects, NOBJECTS);
		return CLI_EXIT_OK;
	}
	if (!obj)
		return CLI_EXIT_USAGE;
	ctx.what = obj->name;
	ctx.obj = obj;
	argc--;
	argv++;

	/* An object that is itself the command, like "info". */
	if (obj->ncmds == 1 && !obj->cmds[0].name)
		return run_cmd(g, obj, &obj->cmds[0], argc, argv);

	cmd = NULL;
	for (size_t i = 0; obj->default_cmd && i < obj->ncmds; i++)
		if (!strcmp(obj->cmds[i].name, obj->default_cmd))
			cmd = &obj->cmds[i];
	if (argc == 0 || (argv[0][0] == '-' && !is_help(argv[0]))) {
		/* "ipuxcom dev" and "ipuxcom dev --json" mean "dev show". */
		if (!cmd)
			return cli_usage_err(&ctx, "missing command");
		return run_cmd(g, obj, cmd, argc, argv);
	}
	if (is_help(argv[0])) {
		cli_object_help(stdout, obj);
		return CLI_EXIT_OK;
	}
	/*
	 * "ipuxcom hsp FILE" and "ipuxcom dev 1" mean "hsp show FILE" and
	 * "dev show 1": a word that names no command of the object, but an
	 * existing file or a number, is the default command's argument. Any
	 * other word is still an unknown command (with its "did you mean").
	 */
	if (cmd && !names_cmd(obj, argv[0]) && (is_number(argv[0]) || !access(argv[0], F_OK)))
		return run_cmd(g, obj, cmd, argc, argv);
	cmd = find_cmd(&ctx, argv[0]);
	if (!cmd)
		return CLI_EXIT_USAGE;
	return run_cmd(g, obj, cmd, argc - 1, argv + 1);
}

/* "help [OBJECT [COMMAND]]" is "[OBJECT [COMMAND]] --help". */
static int run_help(const struct cli_global *g, int argc, char **argv)
{
	char *args[3];

	/* "help", "help --help", "help -h" and "help help": the main help. */
	if (argc == 0 || (argc == 1 && (is_help(argv[0]) || names_help(argv[0])))) {
		cli_main_help(stdout, objects, NOBJECTS);
		return CLI_EXIT_OK;
	}
	if (argc > 2)
		return cli_usage_err(NULL, "help: unexpected argument '%s'", argv[2]);
	args[0] = argv[0];
	args[1] = argc > 1 ? argv[1] : (char *)"--help";
	args[2] = (char *)"--help";
	return run_object(g, argc + 1, args);
}

/*
 * The version this command was built with; linked against a shared
 * libipuxcom of another version, that one's too, since it does the work.
 */
static void version(const struct cli_global *g)
{
	const char *lib = ipuxcom_version();

	if (g->json) {
		struct json_writer w;

		json_init(&w, stdout);
		w.pretty = g->pretty;
		json_begin_object(&w);
		json_kv_string(&w, "version", IPUXCOM_LIB_VERSION);
		json_kv_string(&w, "library_version", lib);
		json_kv_uint(&w, "uapi_version", IPUXCOM_UAPI_VERSION);
		json_end_object(&w);
		return;
	}
	if (strcmp(lib, IPUXCOM_LIB_VERSION))
		printf(CLI_PROG " %s (library %s, uapi version %d)\n", IPUXCOM_LIB_VERSION, lib,
		       IPUXCOM_UAPI_VERSION);
	else
		printf(CLI_PROG " %s (uapi version %d)\n", IPUXCOM_LIB_VERSION,
		       IPUXCOM_UAPI_VERSION);
}

/*
 * Output that cannot be written (a full disk, a closed pipe) must not
 * pass for success.
 */
static int finish(int rc)
{
	int err;

	if ((fflush(stdout) == 0 && !ferror(stdout)) || stdout_reported)
		return rc;
	err = errno;
	cli_err(NULL, "standard output: write error: %s", cli_write_strerror(err));
	return rc ? rc : CLI_EXIT_ERR;
}

int main(int argc, char **argv)
{
	struct cli_opt opts[CLI_MAX_OPTS];
	struct cli_global g = { 0 };
	bool help = false, show_version = false;
	size_t nopts = cli_global_opts(opts, &g, &help, &show_version);
	int i = argc, npos, rc;

	/*
	 * Before anything opens /dev/ipuxcom or /dev/ipuN: ipu_driver's
	 * real-time signals would kill the process (HW-SIGNALS,
	 * HW-SIGNAL-BLOCK). SIGINT/SIGTERM stay deliverable.
	 */
	rc = ipuxcom_block_driver_signals();
	if (rc) {
		cli_err(NULL, "blocking ipu_driver's signals: %s", strerror(-rc));
		return CLI_EXIT_ERR;
	}
	/* Hidden: what the bash completion offers (tools/completion/ipuxcom.bash). */
	if (argc > 1 && !strcmp(argv[1], "__complete"))
		return finish(cli_complete(objects, NOBJECTS, argc - 2, argv + 2));
	rc = cli_parse_args(NULL, argc - 1, argv + 1, opts, nopts, true, NULL, 0, &npos, &i);
	if (rc == CLI_HELP) {
		cli_main_help(stdout, objects, NOBJECTS);
		return finish(CLI_EXIT_OK);
	}
	if (rc != CLI_CONTINUE)
		return rc;
	i++;	/* an index of argv + 1 */
	if (show_version) {
		version(&g);
		return finish(CLI_EXIT_OK);
	}
	if (g.device && !*g.device)
		return cli_usage_err(NULL, "invalid device path '' (option '--device')");
	if (g.dev && cli_check_dev(NULL, g.dev, "--dev") != CLI_CONTINUE)
		return CLI_EXIT_USAGE;
	if (i >= argc) {
		cli_err(NULL, "missing object");
		fputs("Usage: " CLI_PROG " [OPTIONS] OBJECT [COMMAND] [ARGS]\n"
		      "Try '" CLI_PROG " help'.\n", stderr);
		return CLI_EXIT_USAGE;
	}
	if (names_help(argv[i]))
		return finish(run_help(&g, argc - i - 1, argv + i + 1));
	return finish(cli_json_error(NULL, &g, run_object(&g, argc - i, argv + i)));
}
