// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ipuxcom doctor` on a machine without the module (the build host):
 * every missing piece reported as a failure with the command that fixes
 * it, in text and JSON, exit 1, no crash. Its run in the test VM, with
 * the module, is selftests/device/loadcheck_test.c's.
 */
#include "kselftest_harness.h"

#include "image_testlib.h"

#define NO_NODE	"/nonexistent/ipuxcom"

#include <sys/utsname.h>

/* Whether the running kernel's modules.dep lists ipuxcom.ko (modprobe can load it). */
static bool ixt_module_installed(char *release, size_t len)
{
	char path[400], line[1024];
	struct utsname u;
	bool found = false;
	FILE *f;

	if (uname(&u))
		return false;
	snprintf(release, len, "%s", u.release);
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", u.release);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (colon)
			*colon = '\0';
		found = strstr(line, "/ipuxcom.ko") != NULL;
	}
	fclose(f);
	return found;
}

FIXTURE(doc) {
	char tool[PATH_MAX];
	struct ixt_run *r;
};

FIXTURE_SETUP(doc)
{
	self->r = calloc(1, sizeof(*self->r));
	ASSERT_NE(NULL, self->r);
	if (!ixt_find_tool(self->tool, sizeof(self->tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");
	if (access("/sys/module/ipuxcom", F_OK) == 0)
		SKIP(return, "the ipuxcom module is loaded here");
}

FIXTURE_TEARDOWN(doc)
{
	free(self->r);
}

#define TOOL(...) ({								\
	char *const _argv[] = { self->tool, __VA_ARGS__, NULL };		\
	ASSERT_EQ(0, ixt_run(_argv, self->r));					\
})
#define EXPECT_IN(_stream, _needle)						\
	EXPECT_NE(NULL, strstr(self->r->_stream, _needle))			\
		TH_LOG("no '%s' in %s: '%s'", _needle, #_stream, self->r->_stream)

TEST_F(doc, without_the_module_everything_missing_has_a_fix)
{
	char release[256], want[1024];

	TOOL("doctor");
	EXPECT_EQ(1, self->r->status) TH_LOG("stderr: %s", self->r->err);
	/* modprobe only where the module is installed; elsewhere how to install it */
	if (ixt_module_installed(release, sizeof(release))) {
		EXPECT_IN(out, "FAIL  module: ipuxcom is not loaded (no /sys/module/ipuxcom)\n"
			  "      fix: sudo modprobe ipuxcom_hw (a card) or sudo modprobe ipuxcom_sim");
		EXPECT_IN(out, "FAIL  netlink: generic netlink family 'ipuxcom': not registered\n"
			  "      fix: sudo modprobe");
	} else {
		snprintf(want, sizeof(want), "FAIL  module: ipuxcom is not loaded (no "
			 "/sys/module/ipuxcom)\n      fix: the modules are not installed for the "
			 "running kernel (no ipuxcom.ko in /lib/modules/%s/modules.dep): from the "
			 "source tree, as root, 'make dkms-install KVER=%s'", release, release);
		EXPECT_IN(out, want);
		EXPECT_IN(out, "docs/install.md, installed as PREFIX/share/doc/ipuxcom/install.md), "
			  "then sudo modprobe ipuxcom_hw (a card)");
		EXPECT_IN(out, "FAIL  netlink: generic netlink family 'ipuxcom': not registered\n"
			  "      fix: the modules are not installed");
	}
	EXPECT_IN(out, "CAP_SYS_RAWIO: ");
	EXPECT_IN(out, "  group: ");
	EXPECT_IN(out, "  tracefs: ");
	EXPECT_IN(out, " failure");
	if (access(IPUXCOM_DEVICE_PATH, F_OK))
		EXPECT_IN(out, "FAIL  device node: " IPUXCOM_DEVICE_PATH
			  ": No such file or directory\n      fix: ");
}

TEST_F(doc, a_node_given_with_d_is_checked)
{
	TOOL("-d", NO_NODE, "doctor");
	EXPECT_EQ(1, self->r->status);
	EXPECT_IN(out, "FAIL  device node: " NO_NODE ": No such file or directory\n");
	/* the user's own path: no module to load for it, so no fix line */
	{
		const char *p = strstr(self->r->out, NO_NODE ": No such file");

		ASSERT_NE(NULL, p);
		p = strchr(p, '\n') + 1;
		EXPECT_NE(0, strncmp(p, "      fix:", 10)) TH_LOG("%s", self->r->out);
	}
	/* a file that is no device node */
	TOOL("-d", "/proc/version", "doctor");
	EXPECT_EQ(1, self->r->status);
	EXPECT_IN(out, "FAIL  device node: /proc/version: not a character device");
}

TEST_F(doc, json)
{
	TOOL("-d", NO_NODE, "doctor", "--json");
	EXPECT_EQ(1, self->r->status);
	EXPECT_EQ('{', self->r->out[0]);
	EXPECT_IN(out, "{\"name\":\"module\",\"file\":null,\"status\":\"fail\",\"detail\":"
		  "\"ipuxcom is not loaded (no /sys/module/ipuxcom)\",\"fix\":\"");
	EXPECT_IN(out, "{\"name\":\"device node\",\"file\":\"" NO_NODE "\",\"status\":\"fail\"");
	EXPECT_IN(out, "],\"ok\":false,\"warnings\":");
	TOOL("-j", "-d", NO_NODE, "doctor");
	EXPECT_EQ(1, self->r->status);
	EXPECT_EQ('{', self->r->out[0]);
}

/* As root, then as nobody (uid 65534): the capability every load needs. */
TEST_F(doc, cap_sys_rawio)
{
	char tool[PATH_MAX], dir[PATH_MAX], msg[PATH_MAX * 2 + 64];
	char *const argv[] = { tool, "-d", NO_NODE, "doctor", NULL };
	int status;
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "needs root, to compare with an unprivileged run");
	/* nobody may not reach build/ (a clone in root's 0700 home): a copy it can */
	ASSERT_EQ(0, ixt_tool_for_nobody(self->tool, tool, sizeof(tool), dir, sizeof(dir), msg,
					 sizeof(msg))) TH_LOG("%s", msg);
	TOOL("-d", NO_NODE, "doctor");
	EXPECT_IN(out, "ok    CAP_SYS_RAWIO: held: loads, configs, HSP marks, TDI stores and "
		  "raw writes allowed\n");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(3);
		if (ixt_run(argv, self->r) || self->r->status != 1)
			_exit(4);
		if (!strstr(self->r->out, "warn  CAP_SYS_RAWIO: not held: load, config apply"))
			_exit(5);
		_exit(strstr(self->r->out, "      fix: run those as root, or: sudo setcap "
			     "cap_sys_rawio+ep") ? 0 : 6);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ixt_rmtree(dir);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("3: no setuid, 4: no run or wrong status, "
						 "5: no warning, 6: no fix");
}

TEST_F(doc, usage)
{
	TOOL("doctor", "extra");
	EXPECT_EQ(2, self->r->status);
	TOOL("doctor", "--help");
	EXPECT_EQ(0, self->r->status);
	EXPECT_IN(out, "Exit status 0 when no check failed");
}

TEST_HARNESS_MAIN
