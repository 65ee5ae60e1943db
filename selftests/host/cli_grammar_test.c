// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ipuxcom command line's grammar (tools/cli.c, tools/main.c), run as
 * a program: bundled short options, --opt=val, unambiguous prefixes of
 * options, objects and commands, "did you mean", -j/-p anywhere and for
 * every command, --dev ID before the object and per command, exit codes;
 * the JSON writer's pretty mode; the bash completion
 * (tools/completion/ipuxcom.bash) driven through bash itself.
 */
#include "kselftest_harness.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ixt_tool_fixture.h"

/* The writer itself (plain C, no dependencies), for its exact pretty layout. */
#include "../../tools/json.c"

#define LACKS(_stream, _needle)							\
	EXPECT_EQ(NULL, strstr(self->r._stream, _needle))			\
		TH_LOG("unexpected '%s' in %s: '%s'", _needle, #_stream, self->r._stream)

/* ------------------------------------------------------------ options */

TEST_F(cli, bundled_short_options)
{
	char dir[] = "/tmp/ixt-grammar-XXXXXX", path[64], path2[64], inl[80];
	struct stat st;

	/* -jp is -j -p: indented JSON */
	RUN(0, "plan", "tile", "3", "-jp");
	HAS(out, "[\n    {\n        \"logical\": 3,\n        \"physical\": 66,");
	RUN(0, "-pj", "plan", "tile", "3");
	HAS(out, "\n        \"physical\": 66,");
	/* an unknown letter in a bundle is named, with the bundle */
	RUN(2, "plan", "tile", "3", "-jx");
	HAS(err, "ipuxcom: plan tile: unknown option '-x' in '-jx'");
	RUN(2, "-jx", "plan", "tile", "3");
	HAS(err, "unknown option '-x' in '-jx'");

	/* a value-taking option ends a bundle: the rest, or the next argument */
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.tim", dir);
	snprintf(path2, sizeof(path2), "%s/b.tim", dir);
	RUN(0, "plan", "timing", "-jo", path);
	EXPECT_EQ(0, stat(path, &st));
	snprintf(inl, sizeof(inl), "-jo%s", path2);
	RUN(0, "plan", "timing", inl);
	EXPECT_EQ(0, stat(path2, &st));
	RUN(2, "plan", "timing", "-jo");
	HAS(err, "option '-o' needs a FILE");
	unlink(path);
	unlink(path2);
	rmdir(dir);
}

TEST_F(cli, long_option_values_with_equals)
{
	char dir[] = "/tmp/ixt-grammar-XXXXXX", path[64], arg[96];
	struct stat st;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.tim", dir);
	snprintf(arg, sizeof(arg), "--export=%s", path);
	RUN(0, "plan", "timing", arg);
	EXPECT_EQ(0, stat(path, &st));
	unlink(path);
	rmdir(dir);
	/* global options too */
	RUN(1, "--device=/nonexistent/ipuxcom", "info");
	HAS(err, "cannot open /nonexistent/ipuxcom");
	RUN(2, "--dev=x", "dev");
	HAS(err, "invalid device id 'x'");
	/* a flag takes no value */
	RUN(2, "plan", "tile", "3", "--physical=1");
	HAS(err, "option '--physical' takes no value, got '1'");
	RUN(2, "--json=yes", "plan", "tile", "3");
	HAS(err, "option '--json' takes no value");
}

TEST_F(cli, prefixes_of_options_objects_and_commands)
{
	RUN(0, "dev", "sho", "--help");
	HAS(out, "Usage: ipuxcom dev show");
	RUN(0, "pla", "til", "3", "--jso");
	HAS(out, "[{\"logical\":3,\"physical\":66,");
	RUN(0, "--jso", "plan", "tile", "3");
	HAS(out, "[{\"logical\":3,");
	RUN(0, "plan", "til", "3", "--phys");
	HAS(out, "logical 91 physical 3 ");
	RUN(0, "hel", "pla", "til");
	HAS(out, "Usage: ipuxcom plan tile");
	/* an ambiguous prefix is a usage error listing the candidates */
	RUN(2, "de", "show");
	HAS(err, "ipuxcom: ambiguous object 'de'; could be 'dev' or 'demo'");
	RUN(2, "plan", "t", "3");
	HAS(err, "ipuxcom: plan: ambiguous command 't'; could be 'tile' or 'timing'");
	RUN(2, "plan", "tile", "3", "--p");
	HAS(err, "ambiguous option '--p'; could be '--physical' or '--pretty'");
	RUN(2, "--de", "1", "dev");
	HAS(err, "ambiguous option '--de'; could be '--device' or '--dev'");
	/* an exact name wins over the longer names it prefixes: --dev, not --device */
	RUN(2, "--dev", "1", "plan", "tile", "3");
	HAS(err, "option '--dev' does not apply");
}

TEST_F(cli, did_you_mean)
{
	RUN(2, "dev", "shwo");
	HAS(err, "ipuxcom: dev: unknown command 'shwo'; did you mean 'show'?");
	HAS(err, "Try 'ipuxcom dev --help'.");
	RUN(2, "plna", "tile", "3");
	HAS(err, "ipuxcom: unknown object 'plna'; did you mean 'plan'?");
	RUN(2, "plan", "tile", "3", "--jsn");
	HAS(err, "ipuxcom: plan tile: unknown option '--jsn'; did you mean '--json'?");
	RUN(2, "--verison");
	HAS(err, "unknown option '--verison'; did you mean '--version'?");
	RUN(2, "image", "verfy", "x");
	HAS(err, "unknown command 'verfy'; did you mean 'verify'?");
	/* nothing near: no suggestion */
	RUN(2, "dev", "xyzzy");
	HAS(err, "ipuxcom: dev: unknown command 'xyzzy'\n");
	LACKS(err, "did you mean");
	RUN(2, "plan", "tile", "3", "--zz");
	LACKS(err, "did you mean");
}

/* A help text naming docs/NAME.md says where those files are once installed. */
TEST_F(cli, help_says_where_the_docs_are_installed)
{
	RUN(0, "load", "--help");
	HAS(out, "docs/hardware-sequence.md");
	HAS(out, "PREFIX/share/doc/ipuxcom/NAME.md");
	RUN(0, "plan", "schedule", "--help");	/* named by an option's help */
	HAS(out, "PREFIX/share/doc/ipuxcom/NAME.md");
	RUN(0, "help");
	HAS(out, "PREFIX/share/doc/ipuxcom/NAME.md");
	RUN(0, "info", "--help");		/* names no document */
	LACKS(out, "share/doc");
}

/* -j and -p before the object and after the command, for every command. */
TEST_F(cli, json_and_pretty_everywhere)
{
	char compact[sizeof(self->r.out)];

	RUN(0, "plan", "tile", "3", "-j");
	memcpy(compact, self->r.out, sizeof(compact));
	EXPECT_EQ(NULL, strchr(compact, ' '));
	RUN(0, "-j", "plan", "tile", "3");
	EXPECT_STREQ(compact, self->r.out);
	RUN(0, "--pretty", "plan", "tile", "3", "--json");
	HAS(out, "\"pair_logical\": 2\n    }\n]\n");
	/* -p alone changes nothing: it is about JSON */
	RUN(0, "plan", "tile", "3", "-p");
	HAS(out, "logical 3 physical 66 ");
	/* commands that had no --json take it (the error is about something else) */
	RUN(2, "load", "x.ipuimg", "-j");
	HAS(err, "--bootloader FILE is required");
	RUN(2, "load", "-qj", "x.ipuimg");
	HAS(err, "--bootloader FILE is required");
	RUN(2, "-j", "load", "x.ipuimg");
	HAS(err, "--bootloader FILE is required");
	RUN(1, "hsp", "check", "--json", "/nonexistent/m.ipuhsp");
	RUN(1, "image", "extract", "-j", "/nonexistent/a.ipuimg", "5", "-o", "/dev/null");
	RUN(2, "dev", "reset", "-j", "--dev", "x");
	HAS(err, "invalid device id 'x'");
	/* --physical has no short form any more: -p is --pretty */
	RUN(0, "plan", "tile", "130", "-p");
	HAS(out, "logical 130 physical 1220 ");
}

/* --dev ID: per command, before the object, positional aliases, conflicts. */
TEST_F(cli, dev_everywhere)
{
	/* the id reaches the attach: /dev/null answers no ioctl */
	RUN(1, "-d", "/dev/null", "--dev", "3", "tdi", "dump", "5");
	HAS(err, "ipuxcom: tdi dump: device 3: ");
	RUN(1, "-d", "/dev/null", "tdi", "dump", "5", "--dev=4");
	HAS(err, "device 4: ");
	RUN(1, "-d", "/dev/null", "--dev=7", "dev", "reset");
	HAS(err, "ipuxcom: dev reset: device 7: ");
	RUN(1, "-d", "/dev/null", "--dev", "2", "dev", "init");
	HAS(err, "device 2: ");
	/* the same id twice is fine; two different ones are not */
	RUN(1, "-d", "/dev/null", "--dev", "2", "dev", "init", "2");
	HAS(err, "device 2: ");
	RUN(2, "--dev", "2", "dev", "init", "1");
	HAS(err, "device given twice ('1' and --dev '2')");
	RUN(2, "dev", "show", "1", "--dev", "2");
	HAS(err, "ipuxcom: dev show: device given twice ('1' and --dev '2')");
	RUN(2, "--dev", "1", "tdi", "dump", "5", "--dev", "2");
	HAS(err, "device given twice");
	/* a bad id is a usage error naming it, before any device is opened */
	RUN(2, "-d", "/nonexistent", "tdi", "dump", "5", "--dev", "-1");
	HAS(err, "invalid device id '-1'");
	RUN(2, "--dev", "1x", "monitor");
	HAS(err, "invalid device id '1x'");
	RUN(2, "dev", "show", "--dev", "x");
	HAS(err, "invalid device id 'x'");
	RUN(2, "--dev", "1", "cfg", "capture", "stop", "-o", "x.cfg");
	HAS(err, "--dev does not apply to 'stop'");
	/* a command that uses no device */
	RUN(2, "--dev", "0", "image", "verify", "x");
	HAS(err, "ipuxcom: image verify: option '--dev' does not apply");
	RUN(2, "plan", "tile", "3", "--dev", "0");
	HAS(err, "unknown option '--dev'");
	/* the commands that take one say so */
	RUN(0, "dev", "show", "--help");
	HAS(out, "--dev ID");
	RUN(0, "tdi", "read", "--help");
	HAS(out, "--dev ID");
}

TEST_F(cli, exit_codes)
{
	RUN(2, "tdi", "dump", "1472");
	RUN(2, "nosuchobject");
	RUN(2, "--nosuchoption", "dev");
	RUN(2, "--");
	HAS(err, "missing object");
	RUN(0, "--help");
	HAS(out, "--pretty");
	HAS(out, "--dev ID");
	HAS(out, "unambiguous prefix");
	RUN(1, "-d", "/nonexistent/ipuxcom", "info");
}

/* ------------------------------------------------------------ JSON writer */

static char *pretty_doc(void)
{
	struct json_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	json_init(&w, f);
	w.pretty = true;
	json_begin_object(&w);
	json_kv_uint(&w, "id", 0);
	json_kv_int(&w, "t", -23);
	json_key(&w, "caps");
	json_begin_array(&w);
	json_string(&w, "a");
	json_int(&w, -1);
	json_end_array(&w);
	json_key(&w, "empty");
	json_begin_array(&w);
	json_end_array(&w);
	json_key(&w, "none");
	json_begin_object(&w);
	json_end_object(&w);
	json_end_object(&w);
	fclose(f);
	return buf;
}

TEST(json_pretty_layout)
{
	char *got = pretty_doc();

	ASSERT_NE(NULL, got);
	EXPECT_STREQ("{\n"
		     "    \"id\": 0,\n"
		     "    \"t\": -23,\n"
		     "    \"caps\": [\n"
		     "        \"a\",\n"
		     "        -1\n"
		     "    ],\n"
		     "    \"empty\": [],\n"
		     "    \"none\": {}\n"
		     "}\n", got);
	free(got);
}

/* ------------------------------------------------------------ completion */

FIXTURE(comp) {
	char tool[PATH_MAX];
	char script[PATH_MAX];
	struct run r;
};

FIXTURE_SETUP(comp)
{
	const char *env = getenv("IPUXCOM_COMPLETION");
	char *slash;

	if (!find_tool(self->tool, sizeof(self->tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");
	if (env && *env) {
		snprintf(self->script, sizeof(self->script), "%s", env);
	} else {
		/* build/ipuxcom -> tools/completion/ipuxcom.bash beside build/ */
		snprintf(self->script, sizeof(self->script), "%.3900s", self->tool);
		slash = strrchr(self->script, '/');
		if (slash)
			snprintf(slash, sizeof(self->script) - (size_t)(slash - self->script),
				 "/../tools/completion/ipuxcom.bash");
		else
			snprintf(self->script, sizeof(self->script), "tools/completion/ipuxcom.bash");
	}
	if (access(self->script, R_OK) || access("/bin/bash", X_OK))
		SKIP(return, "no bash, or no tools/completion/ipuxcom.bash beside build/ "
		     "(set IPUXCOM_COMPLETION)");
}

FIXTURE_TEARDOWN(comp)
{
}

/*
 * Complete the last of the words after the command with the script's
 * function, in a bash of its own; COMPREPLY one a line in self->r.out.
 */
#define COMPLETE(...) do {							\
	const char *const _args[] = { "-c",					\
		"source \"$0\" && complete -p ipuxcom >/dev/null && "		\
		"COMP_WORDS=(\"$@\") && COMP_CWORD=$(($# - 1)) && _ipuxcom && "	\
		"printf '%s\\n' \"${COMPREPLY[@]}\"",				\
		self->script, self->tool, __VA_ARGS__, NULL };			\
										\
	ASSERT_EQ(0, run_tool("/bin/bash", _args, &self->r));			\
	ASSERT_EQ(0, self->r.status) TH_LOG("stderr: %s", self->r.err);	\
} while (0)

#define OFFERS(_word) EXPECT_NE(NULL, strstr(self->r.out, _word "\n"))		\
	TH_LOG("'%s' not offered: '%s'", _word, self->r.out)
#define EXACTLY(_text) EXPECT_STREQ(_text, self->r.out)

TEST_F(comp, objects_commands_and_options)
{
	COMPLETE("");
	OFFERS("\ndev");
	OFFERS("\nplan");
	OFFERS("\nhelp");
	COMPLETE("d");
	EXACTLY("dev\ndemo\ndoctor\n");
	COMPLETE("dev", "s");
	EXACTLY("show\n");
	COMPLETE("de", "");	/* an ambiguous object: nothing to offer after it */
	EXACTLY("\n");
	COMPLETE("dev", "sho", "--");
	OFFERS("--dev");
	OFFERS("--json");
	OFFERS("--pretty");
	COMPLETE("plan", "tile", "3", "--ph");
	EXACTLY("--physical\n");
	COMPLETE("--de");
	EXACTLY("--device\n--dev\n");
	COMPLETE("-j", "--dev", "0", "tdi", "d");
	EXACTLY("dump\n");
	COMPLETE("help", "pl");
	EXACTLY("plan\n");
	/* an object that is its own command goes straight to its options */
	COMPLETE("load", "--ti");
	EXACTLY("--timeout-ms\n");
	COMPLETE("cfg", "capture", "--o");
	EXACTLY("--output\n");
}

TEST_F(comp, values_files_and_devices)
{
	char dir[] = "/tmp/ixt-comp-XXXXXX", file[64], prefix[64];
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/boot.elf", dir);
	snprintf(prefix, sizeof(prefix), "%s/bo", dir);
	f = fopen(file, "w");
	ASSERT_NE(NULL, f);
	fclose(f);
	/* an option's FILE, and a positional FILE */
	COMPLETE("load", "-b", prefix);
	EXPECT_NE(NULL, strstr(self->r.out, file));
	COMPLETE("image", "verify", prefix);
	EXPECT_NE(NULL, strstr(self->r.out, file));
	/* "--opt=VALUE", which bash splits at the '=' */
	COMPLETE("--device", "=", prefix);
	EXPECT_NE(NULL, strstr(self->r.out, file));
	COMPLETE("load", "--boot", "=", prefix);
	EXPECT_NE(NULL, strstr(self->r.out, file));
	COMPLETE("--dev", "=", "1", "tdi", "d");
	EXACTLY("dump\n");
	unlink(file);
	rmdir(dir);
	/* --dev ID offers the running module's ids: none without it, and no files */
	if (access("/sys/module/ipuxcom", F_OK) == 0)
		SKIP(return, "ipuxcom.ko is loaded: cannot check an empty device list");
	COMPLETE("tdi", "dump", "5", "--dev", "");
	EXACTLY("\n");
	COMPLETE("--dev", "");
	EXACTLY("\n");
	COMPLETE("dev", "show", "");
	EXACTLY("\n");
}

TEST_HARNESS_MAIN
