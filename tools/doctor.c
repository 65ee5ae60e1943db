// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipuxcom doctor: what stands between this user and a working device --
 * the module, its device node and who may open it, the group, the
 * capability loads need, the tracepoints, and each device's state --
 * every check with the command that fixes it. Reads /sys, /proc and /dev
 * and asks the module over netlink; changes nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <ipuxcom.h>

#include "checklist.h"
#include "cli.h"
#include "privilege.h"

#define GROUP		"ipuxcom"
#define SYS_MODULE	"/sys/module/"
#define MODPROBE_FIX	"sudo modprobe ipuxcom_hw (a card) or sudo modprobe ipuxcom_sim (the simulator)"
#define INSTALL_FIX	"the modules are not installed for the running kernel (no ipuxcom.ko in " \
			"/lib/modules/%s/modules.dep): from the source tree, as root, 'make " \
			"dkms-install KVER=%s' (apt-get install dkms first; docs/install.md, " \
			"installed as PREFIX/share/doc/ipuxcom/install.md), then " MODPROBE_FIX

/* First line of a small sysfs or procfs file into @buf; false if unreadable. */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static bool module_loaded(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), SYS_MODULE "%s", name);
	return access(path, F_OK) == 0;
}

/*
 * Whether modprobe can find ipuxcom.ko for the running kernel: named in
 * its modules.dep (DKMS and modules_install both list it there).
 */
static bool module_installed(const char *release)
{
	char path[320], *line = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", release);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':');

		if (colon)
			*colon = '\0';
		found = strstr(line, "/ipuxcom.ko") != NULL;
	}
	free(line);
	fclose(f);
	return found;
}

/*
 * The fix for a missing module: modprobe when the module is installed,
 * else how to install it first.
 */
static const char *modprobe_fix(void)
{
	static char fix[768];
	struct utsname u;

	if (fix[0])
		return fix;
	if (uname(&u) || module_installed(u.release))
		snprintf(fix, sizeof(fix), "%s", MODPROBE_FIX);
	else
		snprintf(fix, sizeof(fix), INSTALL_FIX, u.release, u.release);
	return fix;
}

/* Returns whether the core module is loaded. */
static bool check_module(struct checklist *cl)
{
	char version[64] = "", path[128];

	if (!module_loaded("ipuxcom")) {
		checklist_add(cl, CHECK_FAIL, "module", NULL, modprobe_fix(),
			      "ipuxcom is not loaded (no " SYS_MODULE "ipuxcom)");
		return false;
	}
	/* "version" exists with MODULE_VERSION; srcversion identifies the build. */
	snprintf(path, sizeof(path), SYS_MODULE "ipuxcom/version");
	if (!read_line(path, version, sizeof(version))) {
		snprintf(path, sizeof(path), SYS_MODULE "ipuxcom/srcversion");
		if (read_line(path, version + 11, sizeof(version) - 11))
			memcpy(version, "srcversion ", 11);
	}
	checklist_add(cl, CHECK_OK, "module", NULL, NULL, "ipuxcom loaded%s%s",
		      version[0] ? ", " : "", version);
	if (!module_loaded("ipuxcom_sim") && !module_loaded("ipuxcom_hw"))
		checklist_add(cl, CHECK_WARN, "backend", NULL, modprobe_fix(),
			      "neither ipuxcom_hw nor ipuxcom_sim is loaded: no device can appear");
	else
		checklist_add(cl, CHECK_OK, "backend", NULL, NULL, "%s%s%s loaded",
			      module_loaded("ipuxcom_hw") ? "ipuxcom_hw" : "",
			      module_loaded("ipuxcom_hw") && module_loaded("ipuxcom_sim") ?
			      " and " : "",
			      module_loaded("ipuxcom_sim") ? "ipuxcom_sim" : "");
	return true;
}

static bool in_group(gid_t gid)
{
	int n = getgroups(0, NULL);
	gid_t *groups;
	bool found = false;

	if (getegid() == gid)
		return true;
	groups = n > 0 ? calloc((size_t)n, sizeof(*groups)) : NULL;
	if (groups)
		n = getgroups(n, groups);
	for (int i = 0; groups && i < n && !found; i++)
		found = groups[i] == gid;
	free(groups);
	return found;
}

/* Whether the user is listed in @gr (the group file), though maybe not in this session. */
static bool listed_in(const struct group *gr)
{
	struct passwd *pw = getpwuid(getuid());

	if (!pw)
		return false;
	if (pw->pw_gid == gr->gr_gid)
		return true;
	for (char **m = gr->gr_mem; m && *m; m++)
		if (!strcmp(*m, pw->pw_name))
			return true;
	return false;
}

static void check_group(struct checklist *cl)
{
	struct group *gr = getgrnam(GROUP);
	struct passwd *pw = getpwuid(getuid());
	char fix[160], user[64];

	/* copied: getpwuid()'s buffer is reused */
	snprintf(user, sizeof(user), "%s", pw ? pw->pw_name : "$USER");

	if (!gr) {
		checklist_add(cl, CHECK_WARN, "group", NULL,
			      "sudo groupadd --system " GROUP " (make install does it)",
			      "no group '" GROUP "': only root can open the device node");
		return;
	}
	if (geteuid() == 0) {
		checklist_add(cl, CHECK_OK, "group", NULL, NULL, "running as root");
		return;
	}
	if (in_group(gr->gr_gid)) {
		checklist_add(cl, CHECK_OK, "group", NULL, NULL, "%s is in group '" GROUP "'", user);
		return;
	}
	if (listed_in(gr)) {
		checklist_add(cl, CHECK_WARN, "group", NULL, "log out and in again (or: newgrp " GROUP ")",
			      "%s was added to group '" GROUP "' after this session began", user);
		return;
	}
	snprintf(fix, sizeof(fix), "sudo usermod -aG " GROUP " %s, then log in again", user);
	checklist_add(cl, CHECK_WARN, "group", NULL, fix, "%s is not in group '" GROUP "'", user);
}

/* The node, its owner and mode, and whether this process can open it. */
static void check_node(struct checklist *cl, const char *name, const char *path,
		       const char *missing_fix)
{
	char owner[80], fix[160];
	struct group *gr;
	struct passwd *pw;
	struct stat st;
	int fd, err;

	if (stat(path, &st)) {
		checklist_add(cl, CHECK_FAIL, name, path, missing_fix, "%s: %s", path,
			      strerror(errno));
		return;
	}
	pw = getpwuid(st.st_uid);
	gr = getgrgid(st.st_gid);
	snprintf(owner, sizeof(owner), "%s:%s mode %04o", pw ? pw->pw_name : "?",
		 gr ? gr->gr_name : "?", (unsigned int)(st.st_mode & 07777));
	if (!S_ISCHR(st.st_mode)) {
		checklist_add(cl, CHECK_FAIL, name, path, missing_fix,
			      "%s: not a character device", path);
		return;
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		checklist_add(cl, CHECK_OK, name, path, NULL, "%s: %s, opens read-write", path,
			      owner);
		return;
	}
	err = errno;
	if (err == EACCES || err == EPERM) {
		if (gr && !strcmp(gr->gr_name, GROUP))
			snprintf(fix, sizeof(fix), "join group " GROUP " (see the group check)");
		else
			snprintf(fix, sizeof(fix), "sudo make install (udev rule 60-ipuxcom.rules "
				 "gives it to group " GROUP "), then sudo udevadm trigger");
		checklist_add(cl, CHECK_FAIL, name, path, fix, "%s: %s, cannot open: %s", path,
			      owner, strerror(err));
		return;
	}
	checklist_add(cl, CHECK_FAIL, name, path, NULL, "%s: %s, cannot open: %s", path, owner,
		      strerror(err));
}

static void check_uapi(struct checklist *cl, const struct cli_call *call)
{
	struct ipuxcom_info info = IPUXCOM_INFO_INIT;
	struct ipuxcom *ipu;
	int err = ipuxcom_open(cli_device_path(call), &ipu);

	if (err)
		return;		/* the node check said why */
	err = ipuxcom_get_info(ipu, &info);
	ipuxcom_close(ipu);
	if (err)
		checklist_add(cl, CHECK_FAIL, "uapi", NULL, NULL, "IPUXCOM_IOC_INFO: %s",
			      ipuxcom_strerror(err));
	else if (info.uapi_version != IPUXCOM_UAPI_VERSION)
		checklist_add(cl, CHECK_WARN, "uapi", NULL,
			      "build and install the module and the command from one tree",
			      "module uapi version %" PRIu32 ", this command was built for %d",
			      info.uapi_version, IPUXCOM_UAPI_VERSION);
	else
		checklist_add(cl, CHECK_OK, "uapi", NULL, NULL,
			      "module and command both uapi version %d, %" PRIu32 " devices",
			      IPUXCOM_UAPI_VERSION, info.device_count);
}

static void check_rawio(struct checklist *cl)
{
	switch (priv_has_cap_sys_rawio()) {
	case 1:
		checklist_add(cl, CHECK_OK, "CAP_SYS_RAWIO", NULL, NULL,
			      "held: loads, configs, HSP marks, TDI stores and raw writes allowed");
		break;
	case 0:
		checklist_add(cl, CHECK_WARN, "CAP_SYS_RAWIO", NULL,
			      "run those as root, or: sudo setcap cap_sys_rawio+ep $(command -v ipuxcom)",
			      "not held: load, config apply, HSP marks, TDI stores and raw writes "
			      "fail (dev show, monitor, TDI dumps and host-exchange calls work)");
		break;
	default:
		checklist_add(cl, CHECK_WARN, "CAP_SYS_RAWIO", NULL, NULL,
			      "cannot read CapEff from /proc/self/status");
	}
}

static bool tracefs_mounted(const char *dir)
{
	char line[512], mnt[256], type[64];
	FILE *f = fopen("/proc/mounts", "r");
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %255s %63s", mnt, type) == 2 &&
			!strcmp(type, "tracefs") && !strcmp(mnt, dir);
	if (f)
		fclose(f);
	return found;
}

static void check_tracefs(struct checklist *cl, bool module)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char events[128];
	const char *root = NULL;
	struct dirent *de;
	unsigned int n = 0;
	DIR *d;

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]) && !root; i++)
		if (tracefs_mounted(roots[i]))
			root = roots[i];
	if (!root) {
		checklist_add(cl, CHECK_WARN, "tracefs", NULL,
			      "sudo mount -t tracefs tracefs /sys/kernel/tracing",
			      "tracefs is not mounted: the ipuxcom tracepoints cannot be used");
		return;
	}
	snprintf(events, sizeof(events), "%s/events/ipuxcom", root);
	d = opendir(events);
	if (!d) {
		int err = errno;

		if (err == ENOENT && !module)
			checklist_add(cl, CHECK_WARN, "tracefs", events, modprobe_fix(),
				      "%s: absent until the module is loaded", events);
		else if (err == EACCES)
			checklist_add(cl, CHECK_WARN, "tracefs", events, "sudo ls " "/sys/kernel/tracing/events/ipuxcom",
				      "%s: not readable by this user (tracing needs root)", events);
		else
			checklist_add(cl, CHECK_WARN, "tracefs", events, NULL, "%s: %s", events,
				      strerror(err));
		return;
	}
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, "ipuxcom_", 8);
	closedir(d);
	if (n)
		checklist_add(cl, CHECK_OK, "tracefs", events, NULL, "%s: %u tracepoints", events, n);
	else
		checklist_add(cl, CHECK_WARN, "tracefs", events, NULL, "%s: no tracepoints", events);
}

static void check_device(struct checklist *cl, const struct ipuxcom_device_info *d)
{
	char name[32], caps[256] = "", capbuf[16], fix[96], path[64];
	size_t len = 0;

	snprintf(name, sizeof(name), "device %" PRIu32, d->dev_id);
	for (unsigned int bit = 0; bit < 64; bit++)
		if (d->capabilities & (1ULL << bit))
			len += (size_t)snprintf(caps + len, len < sizeof(caps) ? sizeof(caps) - len : 0,
						"%s%s", len ? "," : "",
						cli_cap_name(bit, capbuf, sizeof(capbuf)));
	if (d->state == IPUXCOM_DEV_STATE_NEEDS_RESET) {
		snprintf(fix, sizeof(fix), CLI_PROG " dev reset --dev %" PRIu32, d->dev_id);
		checklist_add(cl, CHECK_WARN, name, NULL, fix,
			      "backend %s, state %s, %" PRIu32 " tiles, caps %s: needs a reset",
			      d->backend, ipuxcom_dev_state_name(d->state), d->tile_count,
			      caps[0] ? caps : "none");
	} else {
		checklist_add(cl, CHECK_OK, name, NULL, NULL,
			      "backend %s, state %s, %" PRIu32 " tiles, caps %s%s",
			      d->backend, ipuxcom_dev_state_name(d->state), d->tile_count,
			      caps[0] ? caps : "none", d->attached ? ", attached by a process" : "");
	}
	if (d->ipu_node[0]) {
		snprintf(path, sizeof(path), "/dev/%s", d->ipu_node);
		snprintf(name, sizeof(name), "device %" PRIu32 " ipu node", d->dev_id);
		check_node(cl, name, path, "load Graphcore's ipu_driver (modprobe ipu_driver)");
	}
}

static void check_devices(struct checklist *cl)
{
	struct ipuxcom_device_info *devs = NULL;
	struct ipuxcom_nl *nl;
	size_t n = 0;
	int err = ipuxcom_nl_open(&nl);

	if (err) {
		checklist_add(cl, CHECK_FAIL, "netlink", NULL, err == -ENOENT ? modprobe_fix() : NULL,
			      "generic netlink family '%s': %s", IPUXCOM_GENL_NAME,
			      err == -ENOENT ? "not registered" : ipuxcom_strerror(err));
		return;
	}
	err = ipuxcom_nl_dev_list(nl, &devs, &n);
	if (err) {
		checklist_add(cl, CHECK_FAIL, "netlink", NULL, NULL, "listing devices: %s",
			      ipuxcom_strerror(err));
		ipuxcom_nl_close(nl);
		return;
	}
	ipuxcom_nl_close(nl);
	checklist_add(cl, CHECK_OK, "netlink", NULL, NULL, "family '%s': %zu devices",
		      IPUXCOM_GENL_NAME, n);
	if (!n)
		checklist_add(cl, CHECK_WARN, "devices", NULL, modprobe_fix(),
			      "the module has no device");
	for (size_t i = 0; i < n; i++)
		check_device(cl, &devs[i]);
	ipuxcom_nl_dev_list_free(devs);
}

static int doctor_run(struct cli_call *call, int argc, char **argv)
{
	struct checklist cl = { 0 };
	bool module;
	int npos, rc;

	rc = cli_parse(call, argc, argv, NULL, 0, true, NULL, 0, &npos);
	if (rc != CLI_CONTINUE)
		return rc;
	module = check_module(&cl);
	/* A node given with -d is the user's own choice: no module to load for it. */
	check_node(&cl, "device node", cli_device_path(call),
		   call->global->device ? NULL : modprobe_fix());
	check_uapi(&cl, call);
	check_group(&cl);
	check_rawio(&cl);
	check_tracefs(&cl, module);
	check_devices(&cl);
	checklist_print(&cl, call, stdout);
	rc = cl.failures ? CLI_EXIT_ERR : CLI_EXIT_OK;
	checklist_free(&cl);
	return rc;
}

static const struct cli_cmd doctor_cmds[] = {
	{
		.name = NULL,
		.args = "[-j|--json]",
		.summary = "check the set-up: module, device nodes, permissions, devices",
		.description =
			"Check what a working set-up needs and say how to fix what is missing:\n"
			"the ipuxcom module and a backend (ipuxcom_hw or ipuxcom_sim) loaded,\n"
			"the device node (" IPUXCOM_DEVICE_PATH " or -d PATH): its owner and mode\n"
			"and whether this user can open it, the module's uapi version against\n"
			"this command's, membership of group '" GROUP "', CAP_SYS_RAWIO (loads,\n"
			"configs, raw writes), tracefs and the ipuxcom tracepoints, and over\n"
			"generic netlink every device: backend, state, tiles, capabilities and\n"
			"its ipu_driver node (/dev/ipuN) when held through one.\n"
			"Each check prints ok, warn or FAIL, and a 'fix:' line with the command\n"
			"to run when something is missing. Changes nothing.\n"
			"With --json: one object {\"checks\":[{\"name\",\"file\",\"status\" (ok, warn,\n"
			"fail),\"detail\",\"fix\"}...],\"ok\",\"warnings\",\"failures\"}.\n"
			"Exit status 0 when no check failed (warnings allowed), else 1.",
		.run = doctor_run,
	},
};

const struct cli_object cli_obj_doctor = {
	.name = "doctor",
	.summary = "check the set-up: module, device nodes, permissions, devices",
	.cmds = doctor_cmds,
	.ncmds = sizeof(doctor_cmds) / sizeof(doctor_cmds[0]),
};
