/* SPDX-License-Identifier: GPL-2.0 */
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

/* Options given before the object. */
struct cli_global {
	const char *device;	/* -d PATH; NULL: IPUXCOM_DEVICE_PATH */
	bool json;		/* -j: as if every command got --json */
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

/* cli_err() plus a pointer to the help; returns CLI_EXIT_USAGE. */
__attribute__((format(printf, 2, 3)))
int cli_usage_err(const struct cli_call *call, const char *fmt, ...);

/*
 * Parse a command's arguments: options from @opts (and -h/--help, and
 * -j/--json into call->json when @json_opt), up to @max_pos positional
 * arguments into @pos (count in *@npos). "--" ends the options.
 * Returns CLI_CONTINUE, or the exit code the command must return: 0
 * after printing its help, CLI_EXIT_USAGE after reporting a bad argument.
 */
int cli_parse(struct cli_call *call, int argc, char **argv, const struct cli_opt *opts,
	      size_t nopts, bool json_opt, char **pos, int max_pos, int *npos);

/*
 * Strict decimal u32: no sign, no spaces, no trailing characters, no
 * overflow. Returns false when @s is not one.
 */
bool cli_parse_u32(const char *s, uint32_t *out);

/* Like cli_parse_u32(), but also 0x-prefixed hexadecimal (addresses, words). */
bool cli_parse_u32_num(const char *s, uint32_t *out);

struct ipuxcom;
struct ipuxcom_nl;

/*
 * Open the device node and attach to device @dev_arg (decimal id; NULL:
 * device 0), reporting any failure. Returns 0, CLI_EXIT_USAGE or
 * CLI_EXIT_ERR.
 */
int cli_open_attached(const struct cli_call *call, const char *dev_arg, struct ipuxcom **out);

/*
 * ipuxcom_dev_init() on an attached device, reporting each step (text on
 * stdout unless @quiet, or one JSON object when call->json) and the
 * failure on stderr. Returns 0 or CLI_EXIT_ERR.
 */
int cli_dev_init(const struct cli_call *call, struct ipuxcom *ipu, bool quiet);

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

/* Help texts, on @f. */
void cli_main_help(FILE *f, const struct cli_object *const *objs, size_t nobjs);
void cli_object_help(FILE *f, const struct cli_object *obj);

#endif /* IPUXCOM_TOOLS_CLI_H */
