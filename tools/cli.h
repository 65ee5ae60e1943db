/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Command-line plumbing of the ipuxcom command: the object -> command
 * tables, option parsing and error reporting shared by every command.
 *
 * A new object (plan, image, load, tdi, monitor, ...) is a file defining
 * one `const struct cli_object` with its table of commands, declared
 * below and listed in main.c's objects[].
 */
#ifndef IPUXCOM_TOOLS_CLI_H
#define IPUXCOM_TOOLS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_PROG	"ipuxcom"

/* Exit codes: scripts tell "you called me wrong" from "it failed". */
#define CLI_EXIT_OK	0
#define CLI_EXIT_ERR	1
#define CLI_EXIT_USAGE	2
/* cli_parse(): parsed, the command goes on. */
#define CLI_CONTINUE	(-1)

/* cli_parse_args(): -h/--help was given (the caller prints the help). */
#define CLI_HELP	(-2)

/* Options given before the object. */
struct cli_global {
	const char *device;	/* -d PATH; NULL: IPUXCOM_DEVICE_PATH */
	bool json;		/* -j: as if every command got --json */
	bool pretty;		/* -p: as if every command got --pretty */
	const char *dev;	/* --dev ID, for every command that takes a device */
};

/* An option of a command; either @flag or @value is set. */
struct cli_opt {
	const char *lname;	/* "json" for --json */
	char sname;		/* 'j' for -j; 0 for none */
	const char *arg;	/* name of the value for the help ("PATH"); NULL for a flag */
	const char *help;
	bool *flag;		/* set to true when the flag is given */
	const char **value;	/* receives the option's value */
};

struct cli_call;

struct cli_cmd {
	const char *name;	/* NULL: the object itself is the command */
	const char *args;	/* synopsis after the name, e.g. "[ID] [-j|--json]" */
	const char *summary;	/* one line, for the object's help */
	const char *description;	/* for the command's own help */
	int (*run)(struct cli_call *call, int argc, char **argv);
	/* Talks to one device: takes --dev ID (its table's, or the generic one). */
	bool takes_dev;
};

struct cli_object {
	const char *name;
	const char *summary;
	const struct cli_cmd *cmds;
	size_t ncmds;
	const char *default_cmd;	/* run when no command is named; may be NULL */
};

/* One run of a command. */
struct cli_call {
	const struct cli_global *global;
	const struct cli_object *obj;
	const struct cli_cmd *cmd;
	const char *what;	/* "dev show": prefix of every message */
	bool json;		/* -j given globally or to the command */
	bool pretty;		/* -p given globally or to the command: indented JSON */
	/* --dev ID given globally or to the command (checked: a decimal id); NULL: none */
	const char *dev;
	/* Non-NULL: cli_parse() only records the command's options here (completion). */
	struct cli_opt_listing *listing;
};

/* Most commands an object has. */
#define CLI_MAX_CMDS	16

/* Most options a command has, its own and the generic ones. */
#define CLI_MAX_OPTS	48

/* The options of a command, as cli_parse() recorded them for completion. */
struct cli_opt_listing {
	struct cli_opt opts[CLI_MAX_OPTS];	/* flag/value pointers not usable */
	size_t nopts;
};

extern const struct cli_object cli_obj_info;
extern const struct cli_object cli_obj_dev;
extern const struct cli_object cli_obj_plan;
extern const struct cli_object cli_obj_demo;
extern const struct cli_object cli_obj_tdi;
extern const struct cli_object cli_obj_load;
extern const struct cli_object cli_obj_monitor;
extern const struct cli_object cli_obj_doctor;

/* "ipuxcom: WHAT: MESSAGE\n" on stderr; WHAT may be NULL. */
__attribute__((format(printf, 2, 3)))
void cli_err(const char *what, const char *fmt, ...);

/*
 * With -j (@call->json, or @g->json outside a command), a failing run
 * (@rc not 0) also prints one JSON object on stdout, after whatever the
 * command printed: {"error":{"command":"dev show","message":"...","exit":1}}
 * with the first message cli_err() reported (the cause). Printed at most
 * once per run. Returns @rc.
 */
int cli_json_error(const struct cli_call *call, const struct cli_global *g, int rc);

/* cli_err() plus a pointer to the help; returns CLI_EXIT_USAGE. */
__attribute__((format(printf, 2, 3)))
int cli_usage_err(const struct cli_call *call, const char *fmt, ...);

/*
 * Parse a command's arguments: options from @opts and the generic ones
 * (-h/--help; -j/--json into call->json, listed in the help when
 * @json_opt, i.e. when the command implements it; -p/--pretty into
 * call->pretty; --dev ID into call->dev when the command takes_dev and
 * @opts has no "dev" of its own), up to @max_pos positional arguments
 * into @pos (count in *@npos). Options may come anywhere; "--" ends
 * them. The grammar is cli_parse_args()'s. A "dev" option of @opts is
 * also checked and merged with a global --dev, its value then being
 * call->dev. Returns CLI_CONTINUE, or the exit code the command must
 * return: 0 after printing its help, CLI_EXIT_USAGE after reporting a
 * bad argument.
 */
int cli_parse(struct cli_call *call, int argc, char **argv, const struct cli_opt *opts,
	      size_t nopts, bool json_opt, char **pos, int max_pos, int *npos);

/*
 * The option grammar: "--name", "--name=value", "--name value", any
 * unambiguous prefix of a long name (an exact name wins), short options
 * "-x", bundled "-qj", a value-taking short option last in a bundle
 * taking the rest ("-ofile", "-qo FILE"). "-" and "-5" are positional.
 * Parses @argv into @opts and @pos (at most @max_pos; @pos may be NULL
 * when 0) and, when @stop_at_pos, stops before the first positional
 * argument with its index in *@next. Errors are usage errors of @call
 * (NULL: of the command as a whole), with "did you mean" for a mistyped
 * long option. Returns CLI_CONTINUE, CLI_HELP when an option named
 * "help" was given (parsing stops there), or CLI_EXIT_USAGE.
 */
int cli_parse_args(const struct cli_call *call, int argc, char **argv,
		   const struct cli_opt *opts, size_t nopts, bool stop_at_pos,
		   char **pos, int max_pos, int *npos, int *next);

/*
 * The options given before the object, into @g, *@help and *@version,
 * as a table of at most CLI_MAX_OPTS in @out. Returns their count.
 */
size_t cli_global_opts(struct cli_opt *out, struct cli_global *g, bool *help, bool *version);

/*
 * Check a device id given on the command line (@what names where:
 * "--dev"); returns CLI_CONTINUE or CLI_EXIT_USAGE after reporting it.
 */
int cli_check_dev(const struct cli_call *call, const char *id, const char *what);

/*
 * The device a command names: @dev_arg (a positional ID) if given, else
 * call->dev, else NULL (the lowest registered id). Both given and different is a usage
 * error. Returns CLI_CONTINUE or CLI_EXIT_USAGE.
 */
int cli_dev_arg(const struct cli_call *call, const char *dev_arg, const char **out);

/*
 * Strict decimal u32: no sign, no spaces, no trailing characters, no
 * overflow. Returns false when @s is not one.
 */
bool cli_parse_u32(const char *s, uint32_t *out);

/*
 * Like cli_parse_u32(), but also 0x-prefixed hexadecimal: every number
 * that is not a tile id, a count or a device id (addresses, offsets,
 * steps). Never octal: "010" is ten. A WORD is cli_parse_word()'s.
 */
bool cli_parse_u32_num(const char *s, uint32_t *out);

struct ipuxcom;
struct ipuxcom_nl;

/*
 * Open the device node and attach to device @dev_arg (decimal id) or,
 * when NULL, call->dev (--dev), else the lowest registered id (0 when
 * none can be listed) (cli_dev_arg()), reporting
 * any failure. Returns 0, CLI_EXIT_USAGE or CLI_EXIT_ERR.
 */
int cli_open_attached(const struct cli_call *call, const char *dev_arg, struct ipuxcom **out);
/* The same, also giving the device id it attached (for the JSON "dev" key). */
int cli_open_attached_id(const struct cli_call *call, const char *dev_arg, struct ipuxcom **out,
			 uint32_t *id);

/*
 * ipuxcom_dev_init() on attached device @dev, reporting each step (text on
 * @f unless @quiet, or one JSON object when call->json) and the failure
 * on stderr. Returns 0 or CLI_EXIT_ERR.
 */
int cli_dev_init(const struct cli_call *call, struct ipuxcom *ipu, uint32_t dev, bool quiet,
		 FILE *f);

/*
 * Open the device node (-d PATH or IPUXCOM_DEVICE_PATH) and report any
 * failure. Returns 0 or CLI_EXIT_ERR.
 */
int cli_open_device(const struct cli_call *call, struct ipuxcom **out);

/* The device node cli_open_device() opens. */
const char *cli_device_path(const struct cli_call *call);

/*
 * Open the netlink handle and report any failure, pointing at the module
 * when its family is missing. Returns 0 or CLI_EXIT_ERR.
 */
int cli_open_netlink(const struct cli_call *call, struct ipuxcom_nl **out);

/*
 * Report a failed netlink request: "ipuxcom: WHAT: CONTEXT: MEANING
 * (kernel: EXTACK)", the part in parentheses only when the kernel said
 * something.
 */
__attribute__((format(printf, 4, 5)))
void cli_nl_err(const struct cli_call *call, const struct ipuxcom_nl *nl, int err,
		const char *fmt, ...);

/*
 * Copy @s into @buf for plain-text output, replacing what is not a
 * printable, non-blank ASCII character by '?' so a strange name cannot
 * break the one-line-per-item format. Returns @buf.
 */
const char *cli_printable(const char *s, char *buf, size_t len);

/* Name of IPUXCOM_CAP_* bit number @bit ("tdi"), or "bitN" in @buf. */
const char *cli_cap_name(unsigned int bit, char *buf, size_t len);

/*
 * `ipuxcom __complete WORD...`, for the bash completion: the candidates
 * for the last WORD (possibly empty) after the others, one a line, from
 * the objects' and commands' own tables; device ids from the running
 * module (none when it is absent); a line "@files" when file names fit.
 */
int cli_complete(const struct cli_object *const *objs, size_t nobjs, int argc, char **argv);

/*
 * What a failed write on a FILE * was, from @err (errno saved when the
 * failure was seen: a stream's error flag outlives the errno of the write
 * that set it, so an errno no write gives is not blamed): "No space left
 * on device", or "output incomplete" when the cause is lost.
 */
const char *cli_write_strerror(int err);

/* "s" unless @n is 1: "%u event%s", n, cli_s(n) ("1 event", "2 events"). */
static inline const char *cli_s(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* Help texts, on @f. */
void cli_main_help(FILE *f, const struct cli_object *const *objs, size_t nobjs);
void cli_object_help(FILE *f, const struct cli_object *obj);

#endif /* IPUXCOM_TOOLS_CLI_H */
