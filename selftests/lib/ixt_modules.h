/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel modules, small sysfs/debugfs files and PCI functions, for the
 * device tests that load and unload modules themselves (hw_backend_test,
 * removal_test, ipudrv_test). Plain syscalls: no modprobe in the test VM.
 */
#ifndef IXT_MODULES_H
#define IXT_MODULES_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Is module @name loaded (its /sys/module/NAME/initstate exists)? */
static inline int ixt_module_loaded(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/%s/initstate", name);
	return access(path, F_OK) == 0;
}

/* finit_module() of the .ko at @path with @params; 0 or -errno. */
static inline int ixt_load_module(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

/*
 * Load the running kernel's in-tree module @name and the modules it
 * depends on, as modprobe would, from the paths modules.dep gives
 * (mkinitramfs.sh --kmods puts them in the test VM, unpacked). 0 if
 * loaded now or before, -ENOENT if the kernel has no such module file,
 * else -errno of the load.
 */
static inline int ixt_load_kmod(const char *name)
{
	char dir[160], line[1024], want[64], *tok, *paths[16];
	struct utsname un;
	int n = 0, ret = -ENOENT;
	FILE *f;

	if (uname(&un))
		return -errno;
	snprintf(dir, sizeof(dir), "/lib/modules/%s", un.release);
	snprintf(line, sizeof(line), "%s/modules.dep", dir);
	snprintf(want, sizeof(want), "/%s.ko:", name);
	f = fopen(line, "re");
	if (!f)
		return -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		/* the module's own path ends in ':', its dependencies' do not */
		if (!strstr(line, want))
			continue;
		/* "kernel/fs/fuse/fuse.ko: dep1.ko dep2.ko": load the dependencies last first */
		for (tok = strtok(line, ": \n"); tok && n < 16; tok = strtok(NULL, " \n"))
			paths[n++] = tok;
		ret = 0;
		break;
	}
	fclose(f);
	while (!ret && n-- > 0) {
		char path[400];

		snprintf(path, sizeof(path), "%s/%s", dir, paths[n]);
		ret = ixt_load_module(path, "");
		if (ret == -EEXIST)
			ret = 0;
	}
	return ret;
}

/* One non-blocking delete_module() of @name; 0 or -errno (-EWOULDBLOCK if in use). */
static inline int ixt_unload_module(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK) ? -errno : 0;
}

/*
 * ixt_unload_module(), retried for up to 5 s while a just-closed file is
 * still being released (-EAGAIN/-EBUSY); 0 if @name is not loaded.
 */
static inline int ixt_unload_module_wait(const char *name)
{
	int ret = 0;

	for (int i = 0; i < 50; i++) {
		if (!ixt_module_loaded(name))
			return 0;
		ret = ixt_unload_module(name);
		if (ret != -EAGAIN && ret != -EBUSY)
			return ret;
		usleep(100 * 1000);
	}
	return ret;
}

/* Write the string @val to the sysfs/debugfs file @path in one write(); 0 or -errno. */
static inline int ixt_write_sysfs(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;
	ssize_t len = (ssize_t)strlen(val);

	if (fd < 0)
		return -errno;
	if (write(fd, val, (size_t)len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

/* Whole small file into @buf (NUL-terminated); bytes read or -errno. */
static inline ssize_t ixt_read_sysfs(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, total = 0;

	if (fd < 0)
		return -errno;
	while (total < (ssize_t)len - 1 && (n = read(fd, buf + total, len - 1 - total)) > 0)
		total += n;
	close(fd);
	buf[total] = '\0';
	return total;
}

/* The value of line "NAME VALUE" in the stats file @path; -1 if absent. */
static inline long ixt_stat_line(const char *path, const char *name)
{
	char key[64];
	long value, found = -1;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &value) == 2)
		if (!strcmp(key, name))
			found = value;
	fclose(f);
	return found;
}

#define IXT_PCI_DEVICES "/sys/bus/pci/devices"

/*
 * Find a PCI function of @vendor and, unless @device is negative, of
 * @device; 1 if there is one (its sysfs directory into @path if @path is
 * not NULL), else 0 (and @path "").
 */
static inline int ixt_pci_find(unsigned int vendor, int device, char *path, size_t len)
{
	DIR *d = opendir(IXT_PCI_DEVICES);
	struct dirent *de;
	char p[320], buf[32];
	int found = 0;

	if (path)
		path[0] = '\0';
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), IXT_PCI_DEVICES "/%s/vendor", de->d_name);
		if (ixt_read_sysfs(p, buf, sizeof(buf)) <= 0 || strtoul(buf, NULL, 0) != vendor)
			continue;
		if (device >= 0) {
			snprintf(p, sizeof(p), IXT_PCI_DEVICES "/%s/device", de->d_name);
			if (ixt_read_sysfs(p, buf, sizeof(buf)) <= 0 ||
			    strtoul(buf, NULL, 0) != (unsigned long)device)
				continue;
		}
		if (path)
			snprintf(path, len, IXT_PCI_DEVICES "/%s", de->d_name);
		found = 1;
	}
	closedir(d);
	return found;
}

#endif /* IXT_MODULES_H */
