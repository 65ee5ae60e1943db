/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Run the built `ipuxcom` command from a host test and capture its exit
 * status, stdout and stderr. Include after kselftest_harness.h.
 * ixt_tool_fixture.h adds a fixture around these.
 */
#ifndef IXT_TOOL_H
#define IXT_TOOL_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * $IPUXCOM_TOOL, else build/ipuxcom found from this binary
 * (build/tests/host{,-san}/NAME), else ./build/ipuxcom.
 */
static bool find_tool(char *path, size_t len)
{
	const char *env = getenv("IPUXCOM_TOOL");
	char self[PATH_MAX];
	ssize_t n;

	if (env && *env) {
		snprintf(path, len, "%s", env);
		return access(path, X_OK) == 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		char *slash;

		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash && (size_t)(slash - self) + sizeof("/../../ipuxcom") <= len) {
			memcpy(path, self, (size_t)(slash - self));
			strcpy(path + (slash - self), "/../../ipuxcom");
			if (access(path, X_OK) == 0)
				return true;
		}
	}
	snprintf(path, len, "build/ipuxcom");
	return access(path, X_OK) == 0;
}

struct run {
	int status;
	char out[65536];
	char err[4096];
};

static void slurp(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static int run_tool(const char *tool, const char *const *args, struct run *r)
{
	FILE *out = tmpfile(), *err = tmpfile();
	char *argv[24];
	int n = 0, status;
	pid_t pid;

	if (!out || !err)
		return -1;
	argv[n++] = (char *)tool;
	while (*args && n < 23)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fileno(out), STDOUT_FILENO);
		dup2(fileno(err), STDERR_FILENO);
		execv(tool, argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	slurp(out, r->out, sizeof(r->out));
	slurp(err, r->err, sizeof(r->err));
	return 0;
}

#endif /* IXT_TOOL_H */
