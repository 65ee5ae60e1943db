// SPDX-License-Identifier: GPL-2.0
/*
 * Option parsing, help and error reporting shared by the commands.
 *
 * Not getopt: its messages cannot name the command ("ipuxcom: dev show:
 * unknown option ...") and its global state does not suit parsing one
 * argument vector per level.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom.h>

#include "cli.h"
#include "json.h"

/*
 * The first error of this run, kept for the JSON error object: the first
 * message is the cause, later ones are consequences ("device left ...").
 */
static struct {
	char what[64];
	char msg[1024];
	bool have_what;
	bool recorded;
	bool reported;		/* the JSON error object was printed */
} cli_first_err;

static void cli_verr(const char *what, const char *fmt, va_list ap)
{
	char msg[sizeof(cli_first_err.msg)];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (!cli_first_err.recorded) {
		cli_first_err.recorded = true;
		cli_first_err.have_what = what != NULL;
		snprintf(cli_first_err.what, sizeof(cli_first_err.what), "%s", what ? what : "");
		memcpy(cli_first_err.msg, msg, sizeof(msg));
	}
	/* One fprintf per piece, but stderr is unbuffered: flush stdout first
	 * so that the error follows whatever output came before it. */
	fflush(stdout);
	fputs(CLI_PROG ": ", stderr);
	if (what)
		fprintf(stderr, "%s: ", what);
	fputs(msg, stderr);
	fputc('\n', stderr);
}

int cli_json_error(const struct cli_call *call, const struct cli_global *g, int rc)
{
	struct json_writer w;
	bool json = call ? call->json : g && g->json;

	if (!json || rc == CLI_EXIT_OK || cli_first_err.reported)
		return rc;
	cli_first_err.reported = true;
	json_init(&w, stdout);
	json_begin_object(&w);
	json_key(&w, "error");
	json_begin_object(&w);
	json_key(&w, "command");
	if (call)
		json_string(&w, call->what);
	else if (cli_first_err.have_what)
		json_string(&w, cli_first_err.what);
	else
		json_null(&w);
	/* A failure without a message of its own (none today) still says it failed. */
	json_kv_string(&w, "message", cli_first_err.recorded ? cli_first_err.msg :
		       rc == CLI_EXIT_USAGE ? "usage error" : "failed");
	json_kv_uint(&w, "exit", (uint64_t)rc);
	json_end_object(&w);
	json_end_object(&w);
	return rc;
}

void cli_err(const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verr(what, fmt, ap);
	va_end(ap);
}

int cli_usage_err(const struct cli_call *call, const char *fmt, ...)
{
	const char *what = call ? call->what : NULL;
	va_list ap;

	va_start(ap, fmt);
	cli_verr(what, fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '" CLI_PROG "%s%s --help'.\n", what ? " " : "", what ? what : "");
	return CLI_EXIT_USAGE;
}

static void cli_opt_line(FILE *f, char sname, const char *lname, const char *arg,
			 const char *help)
{
	char left[64];

	snprintf(left, sizeof(left), "%c%c%s--%s%s%s",
		 sname ? '-' : ' ', sname ? sname : ' ', sname ? ", " : "  ",
		 lname, arg ? " " : "", arg ? arg : "");
	fprintf(f, "  %-24s %s\n", left, help);
}

static void cli_cmd_help(FILE *f, const struct cli_call *call, const struct cli_opt *opts,
			 size_t nopts, bool json_opt)
{
	const struct cli_cmd *cmd = call->cmd;

	fprintf(f, "Usage: " CLI_PROG " %s%s%s\n\n", call->what,
		cmd->args ? " " : "", cmd->args ? cmd->args : "");
	fprintf(f, "%s\n\nOptions:\n", cmd->description ? cmd->description : cmd->summary);
	for (size_t i = 0; i < nopts; i++)
		cli_opt_line(f, opts[i].sname, opts[i].lname, opts[i].arg, opts[i].help);
	if (json_opt)
		cli_opt_line(f, 'j', "json", NULL, "JSON output");
	cli_opt_line(f, 'h', "help", NULL, "show this help");
}

/* The option of @opts that @arg ("--name", "--name=value", "-x", "-xvalue") names. */
static const struct cli_opt *cli_find_opt(const char *arg, const struct cli_opt *opts,
					  size_t nopts, const char **inline_val)
{
	*inline_val = NULL;
	if (arg[1] == '-') {
		const char *name = arg + 2;
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);

		for (size_t i = 0; i < nopts; i++) {
			if (strlen(opts[i].lname) == len && !strncmp(opts[i].lname, name, len)) {
				*inline_val = eq ? eq + 1 : NULL;
				return &opts[i];
			}
		}
		return NULL;
	}
	for (size_t i = 0; i < nopts; i++) {
		if (!opts[i].sname || opts[i].sname != arg[1])
			continue;
		/* "-jx" is not "-j -x": bundling is not worth its ambiguity. */
		if (arg[2] && !opts[i].arg)
			return NULL;
		*inline_val = arg[2] ? arg + 2 : NULL;
		return &opts[i];
	}
	return NULL;
}

int cli_parse(struct cli_call *call, int argc, char **argv, const struct cli_opt *opts,
	      size_t nopts, bool json_opt, char **pos, int max_pos, int *npos)
{
	bool opts_done = false;

	*npos = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const struct cli_opt *opt;
		const char *val;

		/* "-" and "-5" are values (the latter to report it as a bad number). */
		if (opts_done || a[0] != '-' || a[1] == '\0' || (a[1] >= '0' && a[1] <= '9')) {
			if (*npos >= max_pos)
				return cli_usage_err(call, "unexpected argument '%s'", a);
			pos[(*npos)++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			opts_done = true;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_cmd_help(stdout, call, opts, nopts, json_opt);
			return CLI_EXIT_OK;
		}
		if (json_opt && (!strcmp(a, "-j") || !strcmp(a, "--json"))) {
			call->json = true;
			continue;
		}
		opt = cli_find_opt(a, opts, nopts, &val);
		if (!opt)
			return cli_usage_err(call, "unknown option '%s'", a);
		if (!opt->arg) {
			if (val)
				return cli_usage_err(call, "option '--%s' takes no value, got '%s'",
						     opt->lname, val);
			*opt->flag = true;
			continue;
		}
		if (!val) {
			if (i + 1 >= argc)
				return cli_usage_err(call, "option '%s' needs a %s", a, opt->arg);
			val = argv[++i];
		}
		*opt->value = val;
	}
	return CLI_CONTINUE;
}

bool cli_parse_u32(const char *s, uint32_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull would accept " 1", "+1" and even "-1" (as 2^64 - 1). */
	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

bool cli_parse_u32_num(const char *s, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

int cli_open_attached(const struct cli_call *call, const char *dev_arg, struct ipuxcom **out)
{
	uint32_t id = 0;
	int err, rc;

	if (dev_arg && !cli_parse_u32(dev_arg, &id))
		return cli_usage_err(call, "invalid device id '%s'", dev_arg);
	rc = cli_open_device(call, out);
	if (rc)
		return rc;
	err = ipuxcom_attach(*out, id);
	if (!err)
		return 0;
	/* The library's words when it has more to say (a device held through ipu_driver). */
	if (*ipuxcom_errmsg(*out))
		cli_err(call->what, "device %" PRIu32 ": %s", id, ipuxcom_errmsg(*out));
	else
		cli_err(call->what, "device %" PRIu32 ": %s", id, ipuxcom_strerror(err));
	ipuxcom_close(*out);
	*out = NULL;
	return CLI_EXIT_ERR;
}

void cli_main_help(FILE *f, const struct cli_object *const *objs, size_t nobjs)
{
	fputs("Usage: " CLI_PROG " [OPTIONS] OBJECT [COMMAND] [ARGS]\n"
	      "       " CLI_PROG " help [OBJECT [COMMAND]]\n"
	      "\n"
	      "Drive Graphcore C600 IPUs through the ipuxcom kernel module.\n"
	      "\n"
	      "Options:\n", f);
	cli_opt_line(f, 'd', "device", "PATH", "device node (default " IPUXCOM_DEVICE_PATH ")");
	cli_opt_line(f, 'j', "json", NULL, "JSON output, for every command");
	cli_opt_line(f, 'h', "help", NULL, "show this help");
	cli_opt_line(f, 'V', "version", NULL, "show the version");
	fputs("\nObjects:\n", f);
	for (size_t i = 0; i < nobjs; i++)
		fprintf(f, "  %-24s %s\n", objs[i]->name, objs[i]->summary);
	fprintf(f, "  %-24s %s\n", "help", "this help");
	fputs("\nRun '" CLI_PROG " OBJECT --help' for the commands of an object.\n"
	      "Exit status: 0 success, 1 failure, 2 usage error.\n", f);
}

void cli_object_help(FILE *f, const struct cli_object *obj)
{
	fprintf(f, "Usage: " CLI_PROG " %s COMMAND [ARGS]\n\n%s\n\nCommands:\n",
		obj->name, obj->summary);
	for (size_t i = 0; i < obj->ncmds; i++) {
		const struct cli_cmd *cmd = &obj->cmds[i];
		char left[64];

		snprintf(left, sizeof(left), "%s%s%s", cmd->name, cmd->args ? " " : "",
			 cmd->args ? cmd->args : "");
		fprintf(f, "  %-24s %s%s\n", left, cmd->summary,
			obj->default_cmd && !strcmp(obj->default_cmd, cmd->name) ?
			" (default)" : "");
	}
	fprintf(f, "\nRun '" CLI_PROG " %s COMMAND --help' for the details of a command.\n",
		obj->name);
}

const char *cli_device_path(const struct cli_call *call)
{
	return call->global->device ? call->global->device : IPUXCOM_DEVICE_PATH;
}

int cli_open_device(const struct cli_call *call, struct ipuxcom **out)
{
	const char *path = cli_device_path(call);
	int err = ipuxcom_open(path, out);

	if (!err)
		return 0;
	/* Only the default node's absence says something about the module. */
	if (err == -ENOENT && !call->global->device)
		cli_err(call->what, "cannot open %s: %s (is the ipuxcom module loaded?)",
			path, strerror(-err));
	else
		cli_err(call->what, "cannot open %s: %s", path, strerror(-err));
	return CLI_EXIT_ERR;
}

int cli_open_netlink(const struct cli_call *call, struct ipuxcom_nl **out)
{
	int err = ipuxcom_nl_open(out);

	if (!err)
		return 0;
	if (err == -ENOENT)
		cli_err(call->what, "generic netlink family '%s' is not registered "
			"(is the ipuxcom module loaded?)", IPUXCOM_GENL_NAME);
	else
		cli_err(call->what, "cannot open the '%s' generic netlink family: %s",
			IPUXCOM_GENL_NAME, ipuxcom_strerror(err));
	return CLI_EXIT_ERR;
}

void cli_nl_err(const struct cli_call *call, const struct ipuxcom_nl *nl, int err,
		const char *fmt, ...)
{
	const char *ext = ipuxcom_nl_errmsg(nl);
	char context[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(context, sizeof(context), fmt, ap);
	va_end(ap);
	cli_err(call->what, "%s: %s%s%s%s", context, ipuxcom_strerror(err),
		*ext ? " (kernel: " : "", ext, *ext ? ")" : "");
}

const char *cli_printable(const char *s, char *buf, size_t len)
{
	size_t i;

	if (!len)
		return "";
	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = s[i] > ' ' && s[i] < 0x7f ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}
