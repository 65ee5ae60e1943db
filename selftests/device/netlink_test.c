// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "ipuxcom": DEV_GET dump and do agree with the
 * ioctls, report the attached process, and fail with extended-ack messages
 * that name the bad attribute.
 */
#include "kselftest_harness.h"

#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/capability.h>
#include <linux/genetlink.h>

#include "ipuxcom.h"
#include "ipuxcom_test.h"
#include "ixt_genl.h"

FIXTURE(nl) {
	struct ipuxcom_nl *nl;
};

FIXTURE_SETUP(nl)
{
	self->nl = NULL;
	if (!ixt_have_device())
		SKIP(return, "%s absent (ipuxcom.ko not loaded)", ixt_dev_path());
	ASSERT_EQ(0, ipuxcom_nl_open(&self->nl));
}

FIXTURE_TEARDOWN(nl)
{
	ipuxcom_nl_close(self->nl);
}

TEST_F(nl, dump_matches_info_and_query)
{
	struct ipuxcom_device_info *devs = NULL, one;
	struct ipuxcom_ioc_info info;
	size_t n = 0;
	int fd = ixt_open();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ixt_info(fd, &info));
	ASSERT_EQ(0, ipuxcom_nl_dev_list(self->nl, &devs, &n));
	EXPECT_EQ(info.device_count, n);
	for (size_t i = 0; i < n; i++) {
		EXPECT_EQ(1472, devs[i].tile_count);
		EXPECT_NE(0, devs[i].backend[0]);
		if (i)
			EXPECT_LT(devs[i - 1].dev_id, devs[i].dev_id);
		ASSERT_EQ(0, ipuxcom_nl_dev_get(self->nl, devs[i].dev_id, &one));
		EXPECT_EQ(devs[i].dev_id, one.dev_id);
		EXPECT_STREQ(devs[i].backend, one.backend);
		EXPECT_EQ(devs[i].tile_count, one.tile_count);
		EXPECT_EQ(devs[i].capabilities, one.capabilities);
		/*
		 * a backend never offers more commands than the module; how
		 * a device is held (ipu_driver) is the device's own bit
		 */
		EXPECT_EQ(0, devs[i].capabilities & ~info.capabilities &
			  ~IPUXCOM_CAP_IPU_DRIVER);
		EXPECT_EQ(0, info.capabilities & IPUXCOM_CAP_IPU_DRIVER);
		EXPECT_EQ(!!(devs[i].capabilities & IPUXCOM_CAP_IPU_DRIVER),
			  devs[i].ipu_node[0] != 0);
		if (!strcmp(devs[i].backend, "sim"))
			EXPECT_EQ(info.capabilities, devs[i].capabilities);
	}
	ipuxcom_nl_dev_list_free(devs);
	close(fd);
}

TEST_F(nl, attached_pid_reported)
{
	struct ipuxcom_device_info d;
	int fd = ixt_open();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ipuxcom_nl_dev_get(self->nl, ixt_dev_id(), &d));
	EXPECT_EQ(0, d.attached_pid);
	ASSERT_EQ(0, ixt_attach(fd, ixt_dev_id()));
	ASSERT_EQ(0, ipuxcom_nl_dev_get(self->nl, ixt_dev_id(), &d));
	EXPECT_EQ((uint32_t)getpid(), d.attached_pid);
	close(fd);
	ASSERT_EQ(0, ipuxcom_nl_dev_get(self->nl, ixt_dev_id(), &d));
	EXPECT_EQ(0, d.attached_pid);
}

TEST_F(nl, unknown_device_extack)
{
	struct ipuxcom_device_info d;

	EXPECT_EQ(-ENODEV, ipuxcom_nl_dev_get(self->nl, 200, &d));
	EXPECT_NE(NULL, strstr(ipuxcom_nl_errmsg(self->nl), "no ipuxcom device"))
		TH_LOG("extack: '%s'", ipuxcom_nl_errmsg(self->nl));
	/* past the policy's range: rejected by the attribute policy */
	EXPECT_EQ(-ERANGE, ipuxcom_nl_dev_get(self->nl, 100000, &d));
	EXPECT_NE(0, ipuxcom_nl_errmsg(self->nl)[0]);
}

/*
 * A request without IPUXCOM_A_DEV_ID, sent by hand since the library never
 * builds one: -EINVAL, with the missing attribute named in the ack.
 */
TEST(missing_dev_id_attribute)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *sock;
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	struct nlmsgerr *err;
	struct ipuxcom_nl *probe;
	const struct nlattr *a;
	int family = -1, one = 1, miss_type = -1;
	uint16_t id = 0;
	size_t off;
	ssize_t len;

	if (!ixt_have_device())
		SKIP(return, "ipuxcom.ko not loaded");
	ASSERT_EQ(0, ipuxcom_nl_open(&probe));
	ipuxcom_nl_close(probe);

	sock = mnl_socket_open(NETLINK_GENERIC);
	ASSERT_NE(NULL, sock);
	ASSERT_EQ(0, mnl_socket_bind(sock, 0, MNL_SOCKET_AUTOPID));
	ASSERT_EQ(0, mnl_socket_setsockopt(sock, NETLINK_EXT_ACK, &one, sizeof(one)));

	/* resolve the family id */
	ASSERT_EQ(0, ixt_genl_family(sock, &id));
	family = id;
	ASSERT_LT(0, family);

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = (uint16_t)family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = 2;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = IPUXCOM_GENL_CMD_DEV_GET;
	g->version = IPUXCOM_GENL_VERSION;
	ASSERT_LT(0, mnl_socket_sendto(sock, nlh, nlh->nlmsg_len));
	len = mnl_socket_recvfrom(sock, buf, sizeof(buf));
	ASSERT_LT(0, len);
	nlh = (struct nlmsghdr *)buf;
	ASSERT_EQ(NLMSG_ERROR, nlh->nlmsg_type);
	err = mnl_nlmsg_get_payload(nlh);
	EXPECT_EQ(-EINVAL, err->error);
	ASSERT_TRUE(nlh->nlmsg_flags & NLM_F_ACK_TLVS);
	/* the TLVs follow the echoed request, or only its header if capped */
	off = sizeof(*err);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += err->msg.nlmsg_len - sizeof(err->msg);
	mnl_attr_for_each(a, nlh, off)
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MISS_TYPE)
			miss_type = (int)mnl_attr_get_u32(a);
	EXPECT_EQ(IPUXCOM_A_DEV_ID, miss_type);
	mnl_socket_close(sock);
}

/*
 * The events group needs CAP_SYS_ADMIN wherever the kernel can say so
 * (GENL_MCAST_CAP_SYS_ADMIN: Debian's 6.1 has it, though mainline got it
 * in 6.7): root joins; a child without CAP_SYS_ADMIN, and one turned into
 * nobody, are refused with -EPERM at NETLINK_ADD_MEMBERSHIP.
 */
TEST(events_group_needs_cap_sys_admin)
{
	struct ipuxcom_monitor *mon = NULL;
	pid_t child;
	int status;

	if (!ixt_have_device())
		SKIP(return, "ipuxcom.ko not loaded");
	ASSERT_EQ(0, ipuxcom_monitor_open(&mon));
	ipuxcom_monitor_close(mon);

	for (int nobody = 0; nobody < 2; nobody++) {
		child = fork();
		ASSERT_LE(0, child);
		if (child == 0) {
			int err;

			if (nobody) {
				/* nobody: no capability left at all */
				if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
				    setresuid(65534, 65534, 65534))
					_exit(10);
			} else if (ixt_drop_cap(CAP_SYS_ADMIN)) {
				_exit(11);
			}
			err = ipuxcom_monitor_open(&mon);
			if (!err)
				_exit(12);	/* joined without the capability */
			_exit(err == -EPERM ? 0 : 13);
		}
		ASSERT_EQ(child, waitpid(child, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status))
			TH_LOG("%s: child step %d (12: joined the events group)",
			       nobody ? "nobody" : "without CAP_SYS_ADMIN", WEXITSTATUS(status));
	}
}

/* ------------------------------------------------ genl_mutex (parallel_ops) */

#define GENL_TRACE	"/sys/kernel/tracing/instances/ixt_genl"

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -EIO;
}

/* Lines of the instance's trace naming genl_lock (-1: unreadable). */
static long genl_lock_hits(void)
{
	char line[512];
	long n = 0;
	FILE *f = fopen(GENL_TRACE "/trace", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && strstr(line, "genl_lock"))
			n++;
	fclose(f);
	return n;
}

/* Trace genl_lock() in this process around @fn(@arg); hits, or -1. */
static long genl_lock_calls(int (*fn)(void *), void *arg, int *ret)
{
	char pid[16];
	long hits;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (write_str(GENL_TRACE "/tracing_on", "0") || write_str(GENL_TRACE "/trace", "") ||
	    write_str(GENL_TRACE "/set_ftrace_pid", pid) ||
	    write_str(GENL_TRACE "/set_ftrace_filter", "genl_lock") ||
	    write_str(GENL_TRACE "/current_tracer", "function"))
		return -1;
	write_str(GENL_TRACE "/tracing_on", "1");
	*ret = fn(arg);
	write_str(GENL_TRACE "/tracing_on", "0");
	hits = genl_lock_hits();
	write_str(GENL_TRACE "/current_tracer", "nop");
	return hits;
}

static int nlctrl_getfamily(void *arg)
{
	uint16_t id;

	return ixt_genl_family(arg, &id);
}

static int ipuxcom_dev_get(void *arg)
{
	struct ipuxcom_device_info d;

	return ipuxcom_nl_dev_get(arg, ixt_dev_id(), &d);
}

static int ipuxcom_dev_dump(void *arg)
{
	struct ipuxcom_device_info *devs = NULL;
	size_t n = 0;
	int ret = ipuxcom_nl_dev_list(arg, &devs, &n);

	ipuxcom_nl_dev_list_free(devs);
	return ret;
}

/*
 * The family runs without the global genl_mutex (parallel_ops): a DEV_GET
 * waiting for a device being removed (ops_lock) must not stall every other
 * generic netlink family. Seen with the function tracer: nlctrl's
 * GETFAMILY takes genl_lock() (the control), ipuxcom's do and dump never.
 */
TEST(family_runs_without_genl_mutex)
{
	struct mnl_socket *sock;
	struct ipuxcom_nl *nl;
	long hits;
	int ret = -1;

	if (!ixt_have_device())
		SKIP(return, "ipuxcom.ko not loaded");
	if (access("/sys/kernel/tracing/available_filter_functions", R_OK))
		SKIP(return, "no function tracer (tracefs at /sys/kernel/tracing)");
	if (mkdir(GENL_TRACE, 0700) && errno != EEXIST)
		SKIP(return, "no tracefs instances: %s", strerror(errno));
	sock = mnl_socket_open(NETLINK_GENERIC);
	ASSERT_NE(NULL, sock);
	ASSERT_EQ(0, mnl_socket_bind(sock, 0, MNL_SOCKET_AUTOPID));
	ASSERT_EQ(0, ipuxcom_nl_open(&nl));

	hits = genl_lock_calls(nlctrl_getfamily, sock, &ret);
	if (hits <= 0) {
		rmdir(GENL_TRACE);
		mnl_socket_close(sock);
		ipuxcom_nl_close(nl);
		SKIP(return, "genl_lock() not traceable here (%ld hits for nlctrl)", hits);
	}
	EXPECT_EQ(0, ret);
	EXPECT_EQ(0, genl_lock_calls(ipuxcom_dev_get, nl, &ret)) TH_LOG("DEV_GET do");
	EXPECT_EQ(0, ret);
	EXPECT_EQ(0, genl_lock_calls(ipuxcom_dev_dump, nl, &ret)) TH_LOG("DEV_GET dump");
	EXPECT_EQ(0, ret);
	ipuxcom_nl_close(nl);
	mnl_socket_close(sock);
	EXPECT_EQ(0, rmdir(GENL_TRACE));
}

TEST_HARNESS_MAIN
