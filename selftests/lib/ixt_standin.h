/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ipu_driver stand-in (selftests/kmod/ipu_standin.ko) on the test
 * VM's QEMU C600 device (docs/qemu-c600.md, run-vm.sh --c600): finding
 * the device, loading and unloading the stand-in, the ipuxcom_hw device
 * that then serves the card, and QEMU's monitor relay (run-vm.sh "Hot
 * removal"). For the device tests that use them (standin_test,
 * ipudrv_test, hw_backend_test).
 */
#ifndef IXT_STANDIN_H
#define IXT_STANDIN_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ipuxcom.h"
#include "ixt_modules.h"

#define IXT_STANDIN_MOD		"ipu_standin"
#define IXT_STANDIN_DBG		"/sys/kernel/debug/ipu_standin"
#define IXT_STANDIN_PARAM(p)	"/sys/module/ipu_standin/parameters/" p
/* The QEMU C600's PCI identity (datasheet: vendor [RE], device modelled). */
#define IXT_C600_VENDOR		0x1d95
#define IXT_C600_DEVICE		0xc600
/* Its QEMU id in the VM (run-vm.sh --c600), for device_del/device_add. */
#define IXT_C600_QEMU_ID	"c600a"
/* ... and how to plug it back in (the hot-pluggable root port rp1) */
#define IXT_C600_QEMU_ADD	"device_add ipu-c600,id=c600a,bus=rp1"

/* The C600's sysfs directory into @path; 1 if present, else 0. */
static inline int ixt_c600_find(char *path, size_t len)
{
	return ixt_pci_find(IXT_C600_VENDOR, IXT_C600_DEVICE, path, len);
}

static inline int ixt_wait_path(const char *path, bool present, int tenths)
{
	for (int i = 0; i < tenths; i++) {
		if ((access(path, F_OK) == 0) == present)
			return 0;
		usleep(100 * 1000);
	}
	return -ETIMEDOUT;
}

/* Ask run-vm.sh to pass @cmd to QEMU's monitor. */
static inline void ixt_qemu_monitor(const char *cmd)
{
	char line[128];
	int n = snprintf(line, sizeof(line), "\nIPUXCOM-QEMU-MONITOR %s\n", cmd);

	fflush(stdout);
	if (write(STDOUT_FILENO, line, (size_t)n) != n)
		perror("write");
}

/*
 * ipu_standin loaded with @params (unloaded first, ipuxcom_hw with it),
 * /dev/ipu0 there; 0 or -errno (-ENOENT: IPUXCOM_STANDIN_KO not set).
 */
static inline int ixt_standin_load(const char *params)
{
	const char *ko = getenv("IPUXCOM_STANDIN_KO");
	int ret;

	if (!ko || !*ko)
		return -ENOENT;
	ret = ixt_unload_module_wait("ipuxcom_hw");
	if (!ret)
		ret = ixt_unload_module_wait(IXT_STANDIN_MOD);
	if (!ret)
		ret = ixt_load_module(ko, params);
	if (!ret)
		ret = ixt_wait_path("/dev/ipu0", true, 50);
	return ret;
}

/* ipuxcom_hw loaded (it finds the C600 under "ipu_driver"); 0 or -errno. */
static inline int ixt_standin_hw_load(void)
{
	const char *ko = getenv("IPUXCOM_HW_KO");

	if (!ko || !*ko)
		return -ENOENT;
	if (ixt_module_loaded("ipuxcom_hw"))
		return 0;
	return ixt_load_module(ko, "");
}

static inline int ixt_standin_unload(void)
{
	int ret = ixt_unload_module_wait("ipuxcom_hw");
	int ret2 = ixt_unload_module_wait(IXT_STANDIN_MOD);

	return ret ? ret : ret2;
}

/* Id of the one "hw" device, or -1 (polled: registration follows binding). */
static inline long ixt_hw_dev_id(void)
{
	for (int i = 0; i < 40; i++) {
		struct ipuxcom_device_info *devs = NULL;
		struct ipuxcom_nl *nl;
		size_t n = 0;
		long id = -1;

		if (!ipuxcom_nl_open(&nl)) {
			if (!ipuxcom_nl_dev_list(nl, &devs, &n)) {
				for (size_t k = 0; k < n; k++)
					if (!strcmp(devs[k].backend, "hw"))
						id = devs[k].dev_id;
				ipuxcom_nl_dev_list_free(devs);
			}
			ipuxcom_nl_close(nl);
		}
		if (id >= 0)
			return id;
		usleep(50 * 1000);
	}
	return -1;
}

/*
 * /dev/ipu0 and ipuxcom_hw's device both there (@present), or both gone,
 * within @ms; 0 or -ETIMEDOUT.
 */
static inline int ixt_card_wait(bool present, int ms)
{
	for (int waited = 0; waited < ms; waited += 100) {
		bool node = access("/dev/ipu0", F_OK) == 0;
		bool dev = ixt_hw_dev_id() >= 0;

		if (present ? node && dev : !node && !dev)
			return 0;
		usleep(100 * 1000);
	}
	return -ETIMEDOUT;
}

#endif /* IXT_STANDIN_H */
