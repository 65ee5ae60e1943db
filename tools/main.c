// SPDX-License-Identifier: GPL-2.0
/*
 * ipuxcom [OPTIONS] OBJECT [COMMAND] [ARGS]: the command-line front end
 * of libipuxcom, in the style of ip(8) and devlink(8).
 */
#include <errno.h>
#include <string.h>

#include <ipuxcom.h>

#include "cli.h"
#include "image_cli.h"

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

static const struct cli_object *find_object(const char *name)
{
	for (size_t i = 0; i < NOBJECTS; i++)
		if (!strcmp(objects[i]->name, name))
			return objects[i];
	return NULL;
}

static const struct cli_cmd *find_cmd(const struct cli_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->ncmds; i++)
		if (obj->cmds[i].name && !strcmp(obj->cmds[i].name, name))
			return &obj->cmds[i];
	return NULL;
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
	};

	if (cmd->name)
		snprintf(what, sizeof(what), "%s %s", obj->name, cmd->name);
	else
		snprintf(what, sizeof(what), "%s", obj->name);
	return cmd->run(&call, argc, argv);
}

/* argv[0] is the object's name. */
static int run_object(const struct cli_global *g, int argc, char **argv)
{
	const struct cli_object *obj = find_object(argv[0]);
	struct cli_call ctx = { .global = g };
	const struct cli_cmd *cmd;

	if (!obj) {
		cli_err(NULL, "unknown object '%s'", argv[0]);
		fputs("Try '" CLI_PROG " help'.\n", stderr);
		return CLI_EXIT_USAGE;
	}
	ctx.what = obj->name;
	argc--;
	argv++;

	/* An object that is itself the command, like "info". */
	if (obj->ncmds == 1 && !obj->cmds[0].name)
		return run_cmd(g, obj, &obj->cmds[0], argc, argv);

	if (argc == 0 || (argv[0][0] == '-' && !is_help(argv[0]))) {
		/* "ipuxcom dev" and "ipuxcom dev --json" mean "dev show". */
		cmd = obj->default_cmd ? find_cmd(obj, obj->default_cmd) : NULL;
		if (!cmd)
			return cli_usage_err(&ctx, "missing command");
		return run_cmd(g, obj, cmd, argc, argv);
	}
	if (is_help(argv[0])) {
		cli_object_help(stdout, obj);
		return CLI_EXIT_OK;
	}
	cmd = find_cmd(obj, argv[0]);
	if (!cmd)
		return cli_usage_err(&ctx, "unknown command '%s'", argv[0]);
	return run_cmd(g, obj, cmd, argc - 1, argv + 1);
}

/* "help [OBJECT [COMMAND]]" is "[OBJECT [COMMAND]] --help". */
static int run_help(const struct cli_global *g, int argc, char **argv)
{
	char *args[3];

	if (argc == 0) {
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

static void version(void)
{
	printf(CLI_PROG " %s (uapi version %d)\n", IPUXCOM_LIB_VERSION, IPUXCOM_UAPI_VERSION);
}

/*
 * Output that cannot be written (a full disk, a closed pipe) must not
 * pass for success.
 */
static int finish(int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	cli_err(NULL, "write error: %s", strerror(errno));
	return rc ? rc : CLI_EXIT_ERR;
}

int main(int argc, char **argv)
{
	struct cli_global g = { 0 };
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_main_help(stdout, objects, NOBJECTS);
			return finish(CLI_EXIT_OK);
		}
		if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			version();
			return finish(CLI_EXIT_OK);
		}
		if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			g.json = true;
			continue;
		}
		if (!strcmp(a, "-d") || !strcmp(a, "--device")) {
			if (i + 1 >= argc)
				return cli_usage_err(NULL, "option '%s' needs a PATH", a);
			g.device = argv[++i];
		} else if (!strncmp(a, "--device=", 9)) {
			g.device = a + 9;
		} else if (!strncmp(a, "-d", 2)) {
			g.device = a + 2;
		} else {
			return cli_usage_err(NULL, "unknown option '%s'", a);
		}
		if (!*g.device)
			return cli_usage_err(NULL, "invalid device path '' (option '%s')", a);
	}
	if (i >= argc) {
		cli_err(NULL, "missing object");
		fputs("Usage: " CLI_PROG " [OPTIONS] OBJECT [COMMAND] [ARGS]\n"
		      "Try '" CLI_PROG " help'.\n", stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[i], "help"))
		return finish(run_help(&g, argc - i - 1, argv + i + 1));
	return finish(run_object(&g, argc - i, argv + i));
}
