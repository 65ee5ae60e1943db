// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ipuxcom load` checks every input and output before it touches a
 * device, and `load --check` does only that: every problem listed (not
 * just the first), exit 1; usage errors exit 2; output files neither
 * created nor truncated. No device is needed: the load is pointed at a
 * device node that does not exist (-d), so reaching the device shows as
 * "cannot open" in its errors.
 */
#include "kselftest_harness.h"

#include <sys/stat.h>

#include "ixt_load_inputs.h"

#define NO_NODE	"/nonexistent/ipuxcom-node"

FIXTURE(chk) {
	char tool[PATH_MAX];
	struct ixt_load_inputs f;
	char out[PATH_MAX + 32], arg_out[PATH_MAX + 48];
	struct ixt_run *r;
};

FIXTURE_SETUP(chk)
{
	char msg[256];

	self->r = calloc(1, sizeof(*self->r));
	ASSERT_NE(NULL, self->r);
	if (!ixt_find_tool(self->tool, sizeof(self->tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");
	/* One of load's checks is CAP_SYS_RAWIO: the counts below are root's. */
	if (geteuid() != 0)
		SKIP(return, "run as root (a load needs CAP_SYS_RAWIO)");
	ASSERT_EQ(0, ixt_write_load_inputs(&self->f, msg, sizeof(msg))) TH_LOG("%s", msg);
	snprintf(self->out, sizeof(self->out), "%s/y.bin", self->f.dir);
	snprintf(self->arg_out, sizeof(self->arg_out), "read:out=%s", self->out);
}

FIXTURE_TEARDOWN(chk)
{
	ixt_rmtree(self->f.dir);
	free(self->r);
}

#define TOOL(...) ({								\
	char *const _argv[] = { self->tool, "-d", NO_NODE, __VA_ARGS__, NULL };	\
	ASSERT_EQ(0, ixt_run(_argv, self->r));					\
})
#define EXPECT_IN(_stream, _needle)						\
	EXPECT_NE(NULL, strstr(self->r->_stream, _needle))			\
		TH_LOG("no '%s' in %s: '%s'", _needle, #_stream, self->r->_stream)
#define EXPECT_NOT_IN(_stream, _needle)						\
	EXPECT_EQ(NULL, strstr(self->r->_stream, _needle))			\
		TH_LOG("'%s' in %s: '%s'", _needle, #_stream, self->r->_stream)

static int count(const char *s, const char *needle)
{
	int n = 0;

	for (; (s = strstr(s, needle)); s += strlen(needle))
		n++;
	return n;
}

TEST_F(chk, good_inputs_pass_and_create_nothing)
{
	struct stat st;

	TOOL("load", "--check", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp, self->f.write_in,
	     "run", self->arg_out);
	EXPECT_EQ(0, self->r->status) TH_LOG("stdout: %s\nstderr: %s", self->r->out, self->r->err);
	EXPECT_IN(out, "ok    bootloader: ");
	EXPECT_IN(out, "app.ipuimg: IPUIMG1, 1472 tiles");
	EXPECT_IN(out, "m.ipuhsp: 3 calls, 2 pages");
	EXPECT_IN(out, "in64.bin: 64 bytes, as the slice takes");
	EXPECT_IN(out, "y.bin: created after the call");
	EXPECT_IN(out, "ok    privilege: CAP_SYS_RAWIO held\n");
	EXPECT_IN(out, "6 checks: 6 ok, 0 warnings, 0 failures\n");
	EXPECT_EQ(0, self->r->err[0]) TH_LOG("stderr: %s", self->r->err);
	/* nothing created, no device opened */
	EXPECT_NE(0, stat(self->out, &st));
	EXPECT_NOT_IN(err, "cannot open");
}

TEST_F(chk, every_problem_listed_at_once)
{
	char bad_in[PATH_MAX + 64], bad_out[PATH_MAX + 64], empty[PATH_MAX + 32], small[PATH_MAX + 32];
	char small_arg[PATH_MAX + 64];
	static const uint8_t ten[10];

	snprintf(empty, sizeof(empty), "%s/empty.bin", self->f.dir);
	ASSERT_EQ(0, ixt_write_file(empty, "", 0));
	snprintf(small, sizeof(small), "%s/in10.bin", self->f.dir);
	ASSERT_EQ(0, ixt_write_file(small, ten, sizeof(ten)));
	snprintf(bad_in, sizeof(bad_in), "write:in=%s/missing.bin", self->f.dir);
	snprintf(bad_out, sizeof(bad_out), "read:out=%s/no/such/dir/y.bin", self->f.dir);
	snprintf(small_arg, sizeof(small_arg), "write:in=%s", small);

	TOOL("load", "--check", "missing.ipuimg", "-b", empty, "--hostx", self->f.hsp, bad_in,
	     bad_out, small_arg, "read:out=/");
	EXPECT_EQ(1, self->r->status) TH_LOG("stderr: %s", self->r->err);
	/* each on stdout as FAIL and on stderr as an error */
	EXPECT_EQ(6, count(self->r->out, "\nFAIL  ") + !strncmp(self->r->out, "FAIL  ", 6))
		TH_LOG("%s", self->r->out);
	EXPECT_IN(out, ", 6 failures\n");
	EXPECT_IN(err, "load: bootloader ");
	EXPECT_IN(err, "empty.bin");
	EXPECT_IN(err, "load: image missing.ipuimg: cannot open: No such file or directory");
	EXPECT_IN(err, "missing.bin: cannot read: No such file or directory");
	EXPECT_IN(err, "no/such/dir/y.bin: cannot create it: directory ");
	EXPECT_IN(err, "in10.bin: 10 bytes, the call's input slice takes 64");
	EXPECT_IN(err, "load: call read output /: is a directory");
	EXPECT_EQ(6, count(self->r->err, "ipuxcom: load: "));
	/* one byte is "1 byte" */
	ASSERT_EQ(0, ixt_write_file(small, ten, 1));
	TOOL("load", "--check", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp,
	     small_arg);
	EXPECT_EQ(1, self->r->status);
	EXPECT_IN(err, "in10.bin: 1 byte, the call's input slice takes 64");
	ASSERT_EQ(0, ixt_write_file(small, "\x01", 1));
	TOOL("load", "--check", self->f.img, "-b", small);
	EXPECT_IN(out, "in10.bin: raw, 1 byte\n");
}

TEST_F(chk, a_load_with_a_bad_call_file_never_reaches_the_device)
{
	char bad_in[PATH_MAX + 64];

	snprintf(bad_in, sizeof(bad_in), "write:in=%s/missing.bin", self->f.dir);
	TOOL("load", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp, bad_in, "run");
	EXPECT_EQ(1, self->r->status);
	EXPECT_IN(err, "missing.bin: cannot read: No such file or directory");
	EXPECT_IN(err, "1 problem found: nothing was done to the device");
	/* the device node was never opened */
	EXPECT_NOT_IN(err, NO_NODE);
	/* with good files it goes on to the device, which is absent here */
	TOOL("load", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp, self->f.write_in, "-q");
	EXPECT_EQ(1, self->r->status);
	EXPECT_IN(err, "cannot open " NO_NODE);
}

TEST_F(chk, outputs_are_neither_created_nor_truncated)
{
	static const char keep[] = "keep me";
	char bad_in[PATH_MAX + 64];
	size_t len = 0;
	uint8_t *data;

	ASSERT_EQ(0, ixt_write_file(self->out, keep, sizeof(keep)));
	TOOL("load", "--check", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp,
	     self->arg_out);
	EXPECT_EQ(0, self->r->status) TH_LOG("stderr: %s", self->r->err);
	EXPECT_IN(out, "y.bin: writable (replaced after the call)");
	/* a failing load leaves it too */
	snprintf(bad_in, sizeof(bad_in), "write:in=%s/missing.bin", self->f.dir);
	TOOL("load", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp, bad_in, self->arg_out);
	EXPECT_EQ(1, self->r->status);
	data = ixt_read_file(self->out, &len);
	ASSERT_NE(NULL, data);
	EXPECT_EQ(sizeof(keep), len);
	EXPECT_EQ(0, memcmp(data, keep, sizeof(keep)));
	free(data);
}

/*
 * An output with no write permission, refused to root as outfile.h does;
 * then as nobody (uid 65534), also without CAP_SYS_RAWIO for the load.
 * The child reports through its exit status.
 */
TEST_F(chk, unwritable_output_and_no_rawio_refused)
{
	char tool[PATH_MAX], dir[PATH_MAX], msg[PATH_MAX * 2 + 64];
	char *const argv[] = { tool, "-d", NO_NODE, "load", "--check", self->f.img, "-b",
			       self->f.boot, "--hostx", self->f.hsp, self->arg_out, NULL };
	int status;
	pid_t pid;

	ASSERT_EQ(0, ixt_write_file(self->out, "x", 1));
	ASSERT_EQ(0, chmod(self->out, 0444));
	ASSERT_EQ(0, chmod(self->f.dir, 0755));
	/* nobody may not reach build/ (a clone in root's 0700 home): a copy it can */
	ASSERT_EQ(0, ixt_tool_for_nobody(self->tool, tool, sizeof(tool), dir, sizeof(dir), msg,
					 sizeof(msg))) TH_LOG("%s", msg);
	if (!ixt_nobody_can(self->f.img, R_OK)) {
		ixt_rmtree(dir);
		SKIP(return, "uid %d cannot read the inputs in %.200s (TMPDIR inside a private "
		     "directory?): nothing to compare", IXT_NOBODY, self->f.dir);
	}
	/* root too: a file without a write bit is not replaced (outfile.h) */
	TOOL("load", "--check", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp,
	     self->arg_out);
	EXPECT_EQ(1, self->r->status);
	EXPECT_IN(err, "y.bin: read-only file (mode 0444)");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(3);
		if (ixt_run(argv, self->r))
			_exit(4);
		if (self->r->status != 1)
			_exit(5);
		if (!strstr(self->r->err, "y.bin: read-only file (mode 0444)"))
			_exit(6);
		if (!strstr(self->r->err, "load: privilege CAP_SYS_RAWIO not held: the device "
			    "would refuse the load (EPERM)"))
			_exit(7);
		_exit(strstr(self->r->out, "      fix: run it as root\n") ? 0 : 8);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ixt_rmtree(dir);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("3: no setuid, 4: no run, 5: wrong exit status, "
						 "6: no write error, 7: no privilege error, "
						 "8: no fix");
}

TEST_F(chk, stdin_once_and_outputs_of_earlier_calls)
{
	char later[PATH_MAX + 64];

	/* y.bin does not exist yet: an earlier call's out= makes it */
	snprintf(later, sizeof(later), "write:in=%s", self->out);
	TOOL("load", "--check", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp,
	     self->arg_out, later);
	EXPECT_EQ(0, self->r->status) TH_LOG("stderr: %s", self->r->err);
	EXPECT_IN(out, "y.bin: written by call 'read' before");
	/* the same in=FILE before the out= that makes it is missing */
	TOOL("load", "--check", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp,
	     later, self->arg_out);
	EXPECT_EQ(1, self->r->status);
	EXPECT_IN(err, "y.bin: cannot read: No such file or directory");
	/* standard input can be read once */
	TOOL("load", "--check", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp,
	     "write:in=-", "write:in=-");
	EXPECT_EQ(1, self->r->status);
	EXPECT_IN(out, "ok    call write input: -: standard input, read when the call runs");
	EXPECT_IN(err, "standard input is already read by another in=");
}

TEST_F(chk, json_report)
{
	TOOL("load", "--check", "-j", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp,
	     "write:in=/nonexistent");
	EXPECT_EQ(1, self->r->status);
	EXPECT_EQ('{', self->r->out[0]);
	EXPECT_IN(out, "{\"name\":\"image\",\"file\":\"");
	EXPECT_IN(out, "{\"name\":\"call write input\",\"file\":\"/nonexistent\",\"status\":"
		  "\"fail\",\"detail\":\"/nonexistent: cannot read: No such file or directory\","
		  "\"fix\":null}");
	EXPECT_IN(out, "],\"ok\":false,\"warnings\":0,\"failures\":1}\n");
	TOOL("load", "--check", "--json", self->f.img, "-b", self->f.boot);
	EXPECT_EQ(0, self->r->status);
	EXPECT_IN(out, "],\"ok\":true,\"warnings\":0,\"failures\":0}\n");
}

TEST_F(chk, usage_errors_exit_2_before_any_check)
{
	TOOL("load", "--check", self->f.img, "-b", self->f.boot, "--timeout-ms", "0");
	EXPECT_EQ(2, self->r->status);
	EXPECT_IN(err, "invalid --timeout-ms '0'");
	TOOL("load", "--check", self->f.img, "-b", self->f.boot, "--dev", "x1");
	EXPECT_EQ(2, self->r->status);
	EXPECT_IN(err, "invalid device id 'x1'");
	TOOL("load", "--check", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp, "erase");
	EXPECT_EQ(2, self->r->status);
	EXPECT_IN(err, "the manifest has no call 'erase'");
	TOOL("load", "--check", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp, "write");
	EXPECT_EQ(2, self->r->status);
	EXPECT_IN(err, "call 'write' takes 1 in= and 0 out= files, 0 and 0 given");
	TOOL("load", "--check", self->f.img, "-b", self->f.boot, "--hostx", self->f.hsp, "run:x=1");
	EXPECT_EQ(2, self->r->status);
	EXPECT_IN(err, "invalid part 'x=1'");
	/* usage errors come before the file checks: nothing listed */
	TOOL("load", "--check", "missing.ipuimg", "-b", self->f.boot, "--cfg-hsp", "keep-gs2");
	EXPECT_EQ(2, self->r->status);
	EXPECT_EQ(0, self->r->out[0]);
}

TEST_HARNESS_MAIN
