// SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
/*
 * Thin wrappers over Graphcore ipu_driver's user ABI on an open /dev/ipuN
 * (uapi/linux/ipuxcom_ipu_driver.h): one ioctl each, passed the way the
 * hardware-proven peer stack [RE] passes it (HW-IOCTLS). "By value"
 * requests take the integer itself as ioctl(2)'s
 * third argument; the others a pointer. Each returns 0 or -errno.
 *
 * What the values mean beyond that record is not documented: SET_IPU_ID
 * is given 0 because [RE] gives 0 for its one card (modelled: which id a
 * second card takes is not known), RESET_DEVICE 0 likewise, and
 * SET_SECONDARY_IPU_ID a pointer to a u32 0.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <limits.h>
#include <unistd.h>

#include <linux/ipuxcom_ipu_driver.h>

#include "ipuxcom.h"
#include "internal.h"

static int ixc_drv_val(int fd, unsigned long req, unsigned long value)
{
	int err = ioctl(fd, req, value) < 0 ? -errno : 0;

	if (err)
		ixc_err_note_msg(IPUXCOM_ERR_DEVICE, err, 0, NULL);
	return err;
}

static int ixc_drv_ptr(int fd, unsigned long req, void *arg)
{
	int err = ioctl(fd, req, arg) < 0 ? -errno : 0;

	if (err)
		ixc_err_note_msg(IPUXCOM_ERR_DEVICE, err, 0, NULL);
	return err;
}

bool ixc_ipudrv_node_ok(const char *node)
{
	size_t n;

	if (!node || !node[0] || node[0] == '.')
		return false;
	n = strnlen(node, IPUXCOM_IPU_NODE_LEN);
	if (n >= IPUXCOM_IPU_NODE_LEN)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = node[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return false;
	}
	return true;
}

int ixc_ipudrv_user_attach(int fd)
{
	return ixc_drv_val(fd, IPU_DRV_USER_ATTACH, 0);
}

int ixc_ipudrv_set_ipu_id(int fd, uint32_t id)
{
	return ixc_drv_val(fd, IPU_DRV_SET_IPU_ID, id);
}

int ixc_ipudrv_buffer_attach(int fd, uint32_t index, void *addr, size_t size)
{
	struct ipu_drv_buffer b = { .index = index, .size = (uint32_t)size,
				    .addr = (uintptr_t)addr };

	if (size > UINT32_MAX)
		return -EINVAL;
	return ixc_drv_ptr(fd, IPU_DRV_BUFFER_ATTACH, &b);
}

int ixc_ipudrv_buffer_detach(int fd, uint32_t index)
{
	return ixc_drv_val(fd, IPU_DRV_BUFFER_DETACH, index);
}

int ixc_ipudrv_buffer_detach_all(int fd)
{
	return ixc_drv_val(fd, IPU_DRV_BUFFER_DETACH_ALL, 0);
}

int ixc_ipudrv_reset_device(int fd)
{
	return ixc_drv_val(fd, IPU_DRV_RESET_DEVICE, 0);
}

int ixc_ipudrv_mailbox(int fd, const uint32_t sent[IPU_DRV_MAILBOX_WORDS],
		       uint32_t recv[IPU_DRV_MAILBOX_WORDS])
{
	uint32_t out[IPU_DRV_MAILBOX_WORDS], in[IPU_DRV_MAILBOX_WORDS] = { 0 };
	struct ipu_drv_mailbox mb = { .sent_ptr = (uintptr_t)out, .recv_ptr = (uintptr_t)in };
	int err;

	memcpy(out, sent, sizeof(out));
	err = ixc_drv_ptr(fd, IPU_DRV_MAILBOX_WRITE_READ, &mb);
	memcpy(recv, in, sizeof(in));
	return err;
}

int ixc_ipudrv_stop_monitoring(int fd)
{
	return ixc_drv_val(fd, IPU_DRV_STOP_MONITORING, 0);
}

int ixc_ipudrv_start_monitoring(int fd)
{
	return ixc_drv_val(fd, IPU_DRV_START_MONITORING, 0);
}

int ixc_ipudrv_accumulate_errors(int fd)
{
	return ixc_drv_val(fd, IPU_DRV_ACCUMULATE_ERRORS, 0);
}

/* By value, no argument (_IO(44)), as the peer issues it [RE]. */
int ixc_ipudrv_set_hexopt_identity_table(int fd)
{
	return ixc_drv_val(fd, IPU_DRV_SET_HEXOPT_IDENTITY_TABLE, 0);
}

int ixc_ipudrv_set_secondary_ipu_id(int fd)
{
	uint32_t id = 0;

	return ixc_drv_ptr(fd, IPU_DRV_SET_SECONDARY_IPU_ID, &id);
}

/* Where ipu_driver's nodes are looked for; tests point it elsewhere. */
const char *ixc_ipudrv_dev_dir = "/dev";

/* "ipu" and decimal digits only [S "Below Poplar": /dev/ipu0]: not ipuN_ex, _mem, _p2p. */
static bool ixc_drv_config_node(const char *name)
{
	if (strncmp(name, "ipu", 3) || !name[3] || strlen(name) >= IPUXCOM_IPU_NODE_LEN)
		return false;
	for (const char *p = name + 3; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static int ixc_drv_node_cmp(const void *a, const void *b)
{
	const char *x = a, *y = b;
	size_t lx = strlen(x), ly = strlen(y);

	/* decimal digits after "ipu": shorter is smaller, then by characters */
	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

int ixc_ipudrv_list(char (*names)[IPUXCOM_IPU_NODE_LEN], int max)
{
	DIR *d = opendir(ixc_ipudrv_dev_dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < max)
		if (ixc_drv_config_node(e->d_name))
			memcpy(names[n++], e->d_name, strlen(e->d_name) + 1);
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), ixc_drv_node_cmp);
	return n;
}

/* "DIR/NODE" + @suffix into @buf; -EINVAL for a name that is not a plain node name. */
static int ixc_drv_path(const char *node, const char *suffix, char *buf, size_t len)
{
	int n;

	if (!ixc_ipudrv_node_ok(node))
		return -EINVAL;
	n = snprintf(buf, len, "%s/%s%s", ixc_ipudrv_dev_dir, node, suffix);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int ixc_ipudrv_open(const char *node, int *fd)
{
	char path[PATH_MAX];
	int err = ixc_drv_path(node, "", path, sizeof(path));

	*fd = -1;
	if (err)
		return err;
	/* before any node of the driver is open: its signals cannot kill us */
	ixc_driver_signals_guard();
	*fd = open(path, O_RDWR | O_CLOEXEC);
	return *fd < 0 ? -errno : 0;
}

int ixc_ipudrv_map_config(int fd, void **map)
{
	void *p = mmap(NULL, IPUXCOM_IPU_CFG_MAP_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, 0);

	*map = NULL;
	if (p == MAP_FAILED)
		return -errno;
	*map = p;
	return 0;
}

int ixc_ipudrv_map_exchange(const char *node, void **map, size_t *size, int *fdp)
{
	char path[PATH_MAX];
	int err = ixc_drv_path(node, "_ex", path, sizeof(path));
	void *p;
	int fd;

	*map = NULL;
	*size = 0;
	if (fdp)
		*fdp = -1;
	if (err)
		return err;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	p = mmap(NULL, IXC_IPUDRV_EX_MAP_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	err = p == MAP_FAILED ? -errno : 0;
	/* The mapping keeps the file open: the descriptor only if asked for. */
	if (err || !fdp)
		close(fd);
	else
		*fdp = fd;
	if (err)
		return err;
	*map = p;
	*size = IXC_IPUDRV_EX_MAP_BYTES;
	return 0;
}
