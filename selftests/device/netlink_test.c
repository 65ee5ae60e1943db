// SPDX-License-Identifier: GPL-2.0-only
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
		/* a node is named only for a session that holds a card by it */
		if (devs[i].ipu_node[0])
			EXPECT_TRUE(devs[i].attached &&
				    (devs[i].capabilities & IPUXCOM_CAP_IPU_DRIVER));
		if (!strcmp(devs[i].backend, "sim"))
			EXPECT_EQ(info.capabilities, devs[i].capabilities);
	}
	ipuxcom_nl_dev_list_free(devs);
	close(fd);
}

/*
 * The tests' own listing (ixt_devlist.h, no library: what ixt_dev_id()
 * finds the device under test with) agrees with the library's dump, and
 * ixt_dev_id() is a listed device.
 */
TEST_F(nl, raw_listing_matches_library)
{
	char backends[IPUXCOM_MAX_DEVICES_LISTED][IPUXCOM_BACKEND_NAME_LEN];
	uint32_t ids[IPUXCOM_MAX_DEVICES_LISTED];
	struct ipuxcom_device_info *devs = NULL;
	int found = 0, got;
	size_t n = 0;

	got = ixt_dev_list(ids, backends, IPUXCOM_MAX_DEVICES_LISTED);
	ASSERT_EQ(0, ipuxcom_nl_dev_list(self->nl, &devs, &n));
	ASSERT_LT(0, got);
	ASSERT_EQ((int)n, got);
	for (int i = 0; i < got; i++) {
		EXPECT_EQ(devs[i].dev_id, ids[i]);
		EXPECT_STREQ(devs[i].backend, backends[i]);
		found |= ids[i] == ixt_dev_id();
	}
	if (!getenv("IPUXCOM_DEVICE"))
		EXPECT_EQ(ids[0], ixt_dev_id());
	EXPECT_TRUE(found);
	ipuxcom_nl_dev_list_free(devs);
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

#define GENL_TRACE	"/sys/kernel/tracing"

/* Write @s to the tracefs file @path: 0 or -errno. */
static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t len = strlen(s), off = 0;
	int err = 0;

	if (fd < 0)
		return -errno;
	/* set_ftrace_filter takes one name per write(2): write the rest again */
	while (!err && off < len) {
		ssize_t n = write(fd, s + off, len - off);

		if (n <= 0)
			err = n < 0 ? -errno : -EIO;
		else
			off += (size_t)n;
	}
	close(fd);
	return err;
}

/* Lines of the instance's trace naming function @fn (-1: unreadable). */
static long trace_hits(const char *fn)
{
	char line[512], pat[80];
	long n = 0;
	FILE *f = fopen(GENL_TRACE "/trace", "re");

	if (!f)
		return -1;
	snprintf(pat, sizeof(pat), " %s <-", fn);
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && strstr(line, pat))
			n++;
	fclose(f);
	return n;
}

/*
 * generic netlink's own functions that say whether it took genl_mutex:
 * genl_lock() (the do path, when the compiler kept it out of line), the
 * dump callbacks genl_lock_dumpit/genl_lock_done of a family without
 * parallel_ops, and genl_parallel_done of one with it.
 */
static const char *const genl_fns[] = {
	"genl_lock", "genl_lock_dumpit", "genl_lock_done", "genl_parallel_done",
};
#define NFNS	(sizeof(genl_fns) / sizeof(genl_fns[0]))

/* Is @fn one the function tracer can trace (not inlined everywhere)? */
static bool traceable(const char *fn)
{
	char line[256];
	size_t n = strlen(fn);
	bool found = false;
	FILE *f = fopen(GENL_TRACE "/available_filter_functions", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, fn, n) && (line[n] == '\n' || line[n] == ' ');
	fclose(f);
	return found;
}

/*
 * Trace the traceable genl_fns (@have) in this process around @fn(@arg)
 * into @hits: 0, or the (negative) step tracefs refused.
 */
static int genl_trace(const bool have[NFNS], int (*fn)(void *), void *arg, int *ret,
		      long hits[NFNS])
{
	char pid[16], filter[256] = "";
	int err = 0;

	for (size_t i = 0; i < NFNS; i++)
		if (have[i])
			snprintf(filter + strlen(filter), sizeof(filter) - strlen(filter), "%s ",
				 genl_fns[i]);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	/* never the function tracer unfiltered: it would trace every call */
	if (!filter[0])
		err = -1;
	else if (write_str(GENL_TRACE "/tracing_on", "0"))
		err = -2;
	else if (write_str(GENL_TRACE "/set_ftrace_filter", filter))
		err = -3;
	else if (write_str(GENL_TRACE "/set_ftrace_pid", pid))
		err = -4;
	else if (write_str(GENL_TRACE "/trace", ""))
		err = -5;
	else if (write_str(GENL_TRACE "/current_tracer", "function"))
		err = -6;
	if (!err) {
		write_str(GENL_TRACE "/tracing_on", "1");
		*ret = fn(arg);
		write_str(GENL_TRACE "/tracing_on", "0");
		for (size_t i = 0; i < NFNS; i++)
			hits[i] = trace_hits(genl_fns[i]);
	}
	write_str(GENL_TRACE "/current_tracer", "nop");
	write_str(GENL_TRACE "/set_ftrace_pid", "");
	write_str(GENL_TRACE "/set_ftrace_filter", "");
	write_str(GENL_TRACE "/tracing_on", "1");
	return err;
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
 * generic netlink family. Seen with the function tracer: a DEV_GET dump
 * ends in genl_parallel_done, never in genl_lock_dumpit/genl_lock_done;
 * and where genl_lock() is traceable (nlctrl's GETFAMILY, which runs under
 * the mutex, shows it), a DEV_GET do never calls it.
 */
TEST(family_runs_without_genl_mutex)
{
	long ctl[NFNS] = { 0 }, get[NFNS] = { 0 }, dump[NFNS] = { 0 };
	struct mnl_socket *sock;
	struct ipuxcom_nl *nl;
	bool have[NFNS];
	int ret = -1;

	if (!ixt_have_device())
		SKIP(return, "ipuxcom.ko not loaded");
	if (access(GENL_TRACE "/available_filter_functions", R_OK))
		SKIP(return, "no function tracer (tracefs at " GENL_TRACE ")");
	for (size_t i = 0; i < NFNS; i++) {
		have[i] = traceable(genl_fns[i]);
		TH_LOG("%s: %s", genl_fns[i], have[i] ? "traceable" : "not traceable");
	}
	if (!have[1] || !have[3])
		SKIP(return, "genl_lock_dumpit/genl_parallel_done not traceable");
	sock = mnl_socket_open(NETLINK_GENERIC);
	ASSERT_NE(NULL, sock);
	ASSERT_EQ(0, mnl_socket_bind(sock, 0, MNL_SOCKET_AUTOPID));
	ASSERT_EQ(0, ipuxcom_nl_open(&nl));

	ASSERT_EQ(0, genl_trace(have, nlctrl_getfamily, sock, &ret, ctl));
	EXPECT_EQ(0, ret);
	ASSERT_EQ(0, genl_trace(have, ipuxcom_dev_get, nl, &ret, get));
	EXPECT_EQ(0, ret);
	ASSERT_EQ(0, genl_trace(have, ipuxcom_dev_dump, nl, &ret, dump));
	EXPECT_EQ(0, ret);
	for (size_t i = 0; i < NFNS; i++)
		TH_LOG("%-20s nlctrl %ld, DEV_GET do %ld, dump %ld", genl_fns[i], ctl[i], get[i],
		       dump[i]);
	/* the dump: the parallel path, not the locked one */
	EXPECT_EQ(0, dump[1]);
	EXPECT_EQ(0, dump[2]);
	EXPECT_LT(0, dump[3]);
	/* the do: genl_lock() not called, where it can be seen at all */
	if (ctl[0] > 0)
		EXPECT_EQ(0, get[0]);
	ipuxcom_nl_close(nl);
	mnl_socket_close(sock);
}

TEST_HARNESS_MAIN
