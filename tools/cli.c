// SPDX-License-Identifier: GPL-2.0-only
/*
 * Option parsing, help and error reporting shared by the commands.
 *
 * Not getopt: its messages cannot name the command ("ipuxcom: dev show:
 * unknown option ...") and its global state does not suit parsing one
 * argument vector per level.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ipuxcom.h>

#include "cli.h"
#include "cli_match.h"
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
	w.pretty = call ? call->pretty : g && g->pretty;
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

/* Where the docs/NAME.md files a help text names are once installed (make install's DOCDIR). */
#define CLI_DOCS_NOTE								\
	"docs/NAME.md: in the source tree; installed (make install) as\n"	\
	"PREFIX/share/doc/ipuxcom/NAME.md, PREFIX being /usr/local by default.\n"

static void cli_cmd_help(FILE *f, const struct cli_call *call, const struct cli_opt *opts,
			 size_t nopts, bool json_opt, bool generic_dev)
{
	const struct cli_cmd *cmd = call->cmd;
	bool docs = cmd->description && strstr(cmd->description, "docs/");

	fprintf(f, "Usage: " CLI_PROG " %s%s%s\n\n", call->what,
		cmd->args ? " " : "", cmd->args ? cmd->args : "");
	fprintf(f, "%s\n\nOptions:\n", cmd->description ? cmd->description : cmd->summary);
	for (size_t i = 0; i < nopts; i++) {
		cli_opt_line(f, opts[i].sname, opts[i].lname, opts[i].arg, opts[i].help);
		docs = docs || (opts[i].help && strstr(opts[i].help, "docs/"));
	}
	if (generic_dev)
		cli_opt_line(f, 0, "dev", "ID", "device id (default: the lowest registered)");
	if (json_opt) {
		cli_opt_line(f, 'j', "json", NULL, "JSON output");
		cli_opt_line(f, 'p', "pretty", NULL, "with --json: indented JSON");
	}
	cli_opt_line(f, 'h', "help", NULL, "show this help");
	if (docs)
		fputs("\n" CLI_DOCS_NOTE, f);
}

/* The long names of @opts, for cli_match(). */
static void cli_opt_names(const struct cli_opt *opts, size_t nopts, const char **names)
{
	for (size_t i = 0; i < nopts; i++)
		names[i] = opts[i].lname;
}

/* The option "--NAME[=VALUE]" (@arg without its dashes) names, or NULL after reporting. */
static const struct cli_opt *cli_find_long(const struct cli_call *call, const char *name,
					   const struct cli_opt *opts, size_t nopts,
					   const char **inline_val)
{
	const char *names[CLI_MAX_OPTS];
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	char hint[256];
	int i;

	cli_opt_names(opts, nopts, names);
	i = cli_match(name, len, names, nopts);
	if (i >= 0) {
		*inline_val = eq ? eq + 1 : NULL;
		return &opts[i];
	}
	cli_match_hint(hint, sizeof(hint), i, name, len, names, nopts, "--");
	cli_usage_err(call, "%s option '--%.*s'%s", i == CLI_MATCH_AMBIGUOUS ? "ambiguous" :
		      "unknown", (int)len, name, hint);
	return NULL;
}

/*
 * Store @opt's value, or set its flag. @val is the value given inline
 * ("--name=VAL", "-oVAL"), else the next argument is taken (*@i moves).
 * @as names the option as the user wrote it. Returns CLI_CONTINUE,
 * CLI_HELP or CLI_EXIT_USAGE.
 */
static int cli_take(const struct cli_call *call, const struct cli_opt *opt, const char *val,
		    const char *as, int argc, char **argv, int *i)
{
	if (!opt->arg) {
		if (val)
			return cli_usage_err(call, "option '--%s' takes no value, got '%s'",
					     opt->lname, val);
		*opt->flag = true;
		return strcmp(opt->lname, "help") ? CLI_CONTINUE : CLI_HELP;
	}
	if (!val) {
		if (*i + 1 >= argc)
			return cli_usage_err(call, "option '%s' needs a %s", as, opt->arg);
		val = argv[++*i];
	}
	*opt->value = val;
	return CLI_CONTINUE;
}

/* "-abc": each a short option; a value-taking one takes the rest or the next argument. */
static int cli_take_shorts(const struct cli_call *call, const struct cli_opt *opts,
			   size_t nopts, int argc, char **argv, int *i)
{
	const char *a = argv[*i];

	for (size_t k = 1; a[k]; k++) {
		const struct cli_opt *opt = NULL;
		char as[3] = { '-', a[k], '\0' };
		int rc;

		for (size_t o = 0; o < nopts && !opt; o++)
			if (opts[o].sname && opts[o].sname == a[k])
				opt = &opts[o];
		if (!opt) {
			if (k == 1 && !a[2])
				return cli_usage_err(call, "unknown option '%s'", a);
			return cli_usage_err(call, "unknown option '%s' in '%s'", as, a);
		}
		rc = cli_take(call, opt, opt->arg && a[k + 1] ? a + k + 1 : NULL, as, argc, argv, i);
		if (rc != CLI_CONTINUE || opt->arg)
			return rc;
	}
	return CLI_CONTINUE;
}

int cli_parse_args(const struct cli_call *call, int argc, char **argv,
		   const struct cli_opt *opts, size_t nopts, bool stop_at_pos,
		   char **pos, int max_pos, int *npos, int *next)
{
	bool opts_done = false;

	assert(nopts <= CLI_MAX_OPTS);
	*npos = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int rc;

		/* "-" and "-5" are values (the latter to report it as a bad number). */
		if (opts_done || a[0] != '-' || a[1] == '\0' || (a[1] >= '0' && a[1] <= '9')) {
			if (stop_at_pos) {
				*next = i;
				return CLI_CONTINUE;
			}
			if (*npos >= max_pos)
				return cli_usage_err(call, "unexpected argument '%s'", a);
			pos[(*npos)++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			opts_done = true;
			continue;
		}
		if (a[1] == '-') {
			const struct cli_opt *opt;
			const char *val;
			char as[80];

			opt = cli_find_long(call, a + 2, opts, nopts, &val);
			if (!opt)
				return CLI_EXIT_USAGE;
			snprintf(as, sizeof(as), "--%s", opt->lname);
			rc = cli_take(call, opt, val, as, argc, argv, &i);
		} else {
			rc = cli_take_shorts(call, opts, nopts, argc, argv, &i);
		}
		if (rc != CLI_CONTINUE)
			return rc;
	}
	if (next)
		*next = argc;
	return CLI_CONTINUE;
}

int cli_check_dev(const struct cli_call *call, const char *id, const char *what)
{
	uint32_t v;

	if (!cli_parse_u32(id, &v))
		return cli_usage_err(call, "invalid device id '%s' (%s): a decimal number, as "
				     "'" CLI_PROG " dev show' lists", id, what);
	return CLI_CONTINUE;
}

int cli_dev_arg(const struct cli_call *call, const char *dev_arg, const char **out)
{
	if (dev_arg && call->dev && strcmp(dev_arg, call->dev))
		return cli_usage_err(call, "device given twice ('%s' and --dev '%s')", dev_arg,
				     call->dev);
	*out = dev_arg ? dev_arg : call->dev;
	return CLI_CONTINUE;
}

/* A "dev" option of the command's own table: checked, and merged with a global --dev. */
static int cli_merge_dev(struct cli_call *call, const char *given)
{
	int rc;

	if (!given)
		return CLI_CONTINUE;
	rc = cli_check_dev(call, given, "--dev");
	if (rc == CLI_CONTINUE)
		rc = cli_dev_arg(call, given, &call->dev);
	return rc;
}

int cli_parse(struct cli_call *call, int argc, char **argv, const struct cli_opt *opts,
	      size_t nopts, bool json_opt, char **pos, int max_pos, int *npos)
{
	struct cli_opt all[CLI_MAX_OPTS];
	const char *own_dev = NULL, *generic_dev = NULL;
	const struct cli_opt *dev_opt = NULL;
	bool help = false;
	size_t n = 0;
	int rc;

	assert(nopts + 4 <= CLI_MAX_OPTS);
	for (size_t i = 0; i < nopts; i++) {
		all[n++] = opts[i];
		if (!strcmp(opts[i].lname, "dev"))
			dev_opt = &opts[i];
	}
	/* -j and -p are accepted by every command (the help lists them where they do something). */
	if (json_opt || !call->listing) {
		all[n++] = (struct cli_opt) { "json", 'j', NULL, "JSON output", &call->json, NULL };
		all[n++] = (struct cli_opt) { "pretty", 'p', NULL, "indented JSON", &call->pretty,
					      NULL };
	}
	all[n++] = (struct cli_opt) { "help", 'h', NULL, "show this help", &help, NULL };
	if (call->cmd->takes_dev && !dev_opt)
		all[n++] = (struct cli_opt) { "dev", 0, "ID", "device id (default: the lowest registered)", NULL,
					      &generic_dev };
	if (call->listing) {
		memcpy(call->listing->opts, all, n * sizeof(all[0]));
		call->listing->nopts = n;
		return CLI_EXIT_OK;
	}
	/* The command's own "dev" may already hold a value: it is reset per run, but be sure. */
	if (dev_opt)
		*dev_opt->value = NULL;
	rc = cli_parse_args(call, argc, argv, all, n, false, pos, max_pos, npos, NULL);
	if (rc == CLI_HELP) {
		cli_cmd_help(stdout, call, opts, nopts, json_opt, call->cmd->takes_dev && !dev_opt);
		return CLI_EXIT_OK;
	}
	if (rc != CLI_CONTINUE)
		return rc;
	/* A global --dev before a command that has no use for it is a mistake worth saying. */
	if (call->dev && !call->cmd->takes_dev)
		return cli_usage_err(call, "option '--dev' does not apply: '%s' uses no device",
				     call->what);
	if (dev_opt)
		own_dev = *dev_opt->value;
	rc = cli_merge_dev(call, own_dev ? own_dev : generic_dev);
	if (rc != CLI_CONTINUE)
		return rc;
	if (dev_opt)
		*dev_opt->value = call->dev;
	return CLI_CONTINUE;
}

size_t cli_global_opts(struct cli_opt *out, struct cli_global *g, bool *help, bool *version)
{
	const struct cli_opt opts[] = {
		{ "device", 'd', "PATH", "device node (default " IPUXCOM_DEVICE_PATH ")", NULL,
		  &g->device },
		{ "dev", 0, "ID", "device id, for every command that uses one (default: the lowest registered)", NULL,
		  &g->dev },
		{ "json", 'j', NULL, "JSON output, for every command", &g->json, NULL },
		{ "pretty", 'p', NULL, "with --json: indented JSON", &g->pretty, NULL },
		{ "help", 'h', NULL, "show this help", help, NULL },
		{ "version", 'V', NULL, "show the version", version, NULL },
	};

	memcpy(out, opts, sizeof(opts));
	return sizeof(opts) / sizeof(opts[0]);
}

const char *cli_write_strerror(int err)
{
	switch (err) {
	case ENOSPC: case EPIPE: case EIO: case EDQUOT: case EFBIG: case EBADF: case EROFS:
	case ENXIO: case ECONNRESET: case EINTR: case EAGAIN: case EPERM: case EACCES:
		return strerror(err);
	default:
		return "output incomplete";
	}
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

	int base = 10;

	if (!s || *s < '0' || *s > '9')
		return false;
	/* 0x: hexadecimal; anything else decimal, "010" too (never octal). */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!isxdigit((unsigned char)*s))
			return false;
	}
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

int cli_open_attached(const struct cli_call *call, const char *dev_arg, struct ipuxcom **out)
{
	uint32_t id;

	return cli_open_attached_id(call, dev_arg, out, &id);
}

/*
 * The device a command uses when none is named: the lowest id registered.
 * Ids are not reused at once (a card that goes away and comes back gets a
 * new one), so after a hot-plug or a module reload it need not be 0. When
 * the list cannot be had (the module's netlink family absent), 0, and the
 * attach says what is wrong.
 */
static uint32_t cli_default_dev(void)
{
	struct ipuxcom_device_info *list = NULL;
	struct ipuxcom_nl *nl = NULL;
	uint32_t id = 0;
	size_t n = 0;

	if (ipuxcom_nl_open(&nl))
		return 0;
	if (!ipuxcom_nl_dev_list(nl, &list, &n))
		for (size_t i = 0; i < n; i++)
			if (i == 0 || list[i].dev_id < id)
				id = list[i].dev_id;
	ipuxcom_nl_dev_list_free(list);
	ipuxcom_nl_close(nl);
	return id;
}

int cli_open_attached_id(const struct cli_call *call, const char *dev_arg, struct ipuxcom **out,
			 uint32_t *idp)
{
	uint32_t id = 0;
	int err, rc;

	rc = cli_dev_arg(call, dev_arg, &dev_arg);
	if (rc != CLI_CONTINUE)
		return rc;
	if (dev_arg && !cli_parse_u32(dev_arg, &id))
		return cli_usage_err(call, "invalid device id '%s': a decimal number", dev_arg);
	if (!dev_arg)
		id = cli_default_dev();
	rc = cli_open_device(call, out);
	if (rc)
		return rc;
	*idp = id;
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
	struct cli_opt opts[CLI_MAX_OPTS];
	struct cli_global g;
	bool unused;
	size_t nopts = cli_global_opts(opts, &g, &unused, &unused);

	fputs("Usage: " CLI_PROG " [OPTIONS] OBJECT [COMMAND] [ARGS]\n"
	      "       " CLI_PROG " help [OBJECT [COMMAND]]\n"
	      "\n"
	      "Drive Graphcore C600 IPUs through the ipuxcom kernel module.\n"
	      "\n"
	      "Options:\n", f);
	for (size_t i = 0; i < nopts; i++)
		cli_opt_line(f, opts[i].sname, opts[i].lname, opts[i].arg, opts[i].help);
	fputs("\nObjects:\n", f);
	for (size_t i = 0; i < nobjs; i++)
		fprintf(f, "  %-24s %s\n", objs[i]->name, objs[i]->summary);
	fprintf(f, "  %-24s %s\n", "help", "this help");
	fputs("\nRun '" CLI_PROG " OBJECT --help' for the commands of an object.\n"
	      "Options and their values may be bundled (-qj, -qo FILE), given as\n"
	      "--name=value, and long options, objects and commands shortened to any\n"
	      "unambiguous prefix ('" CLI_PROG " dev sho', '--jso').\n"
	      "Exit status: 0 success, 1 failure, 2 usage error.\n"
	      "More: man ipuxcom, man libipuxcom, and the documents the help texts name.\n"
	      CLI_DOCS_NOTE, f);
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
