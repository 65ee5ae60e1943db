// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one error explainer (issue 23): every class of failing call, device,
 * netlink, file format, plan and timing table, recorded in the calling
 * thread, explained by ipuxcom_strerror() alone, with ipuxcom_errmsg(NULL)
 * and ipuxcom_last_error() saying what failed. The repro of the issue:
 * ipuxcom_strerror(-ENOENT) after a timing-table load said "module not
 * loaded".
 */
#include "kselftest_harness.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ipuxcom.h>

#define MISSING "/nonexistent-ipuxcom-dir/missing.txt"

static void expect_domain(struct __test_metadata *_metadata, int err, uint32_t domain)
{
	uint32_t d = 99;

	EXPECT_EQ(err, ipuxcom_last_error(&d));
	EXPECT_EQ(domain, d);
}

/* The repro: a timing table that is not there is a missing file. */
TEST(timing_table_enoent_is_file_not_found)
{
	struct ipuxcom_timing *tm = NULL;
	int err = ipuxcom_timing_load(MISSING, &tm, NULL);

	ASSERT_EQ(-ENOENT, err);
	EXPECT_EQ(NULL, strstr(ipuxcom_strerror(err), "module"));
	EXPECT_STREQ("no such file or directory", ipuxcom_strerror(err));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(NULL), MISSING));
	expect_domain(_metadata, -ENOENT, IPUXCOM_ERR_PLAN);
}

/* The same value from the device node: the module is not loaded. */
TEST(device_enoent_is_module_not_loaded)
{
	struct ipuxcom *ipu = NULL;
	int err = ipuxcom_open(MISSING, &ipu);

	ASSERT_EQ(-ENOENT, err);
	EXPECT_NE(NULL, strstr(ipuxcom_strerror(err), "module not loaded"));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(NULL), MISSING));
	expect_domain(_metadata, -ENOENT, IPUXCOM_ERR_DEVICE);
	/* and the timing table right after: its own text, not the device's */
	err = ipuxcom_timing_load(MISSING, &(struct ipuxcom_timing *){ NULL }, NULL);
	EXPECT_STREQ("no such file or directory", ipuxcom_strerror(err));
}

/* A device ioctl on a file that is not /dev/ipuxcom. */
TEST(device_ioctl)
{
	struct ipuxcom_info info = IPUXCOM_INFO_INIT;
	struct ipuxcom *ipu = NULL;
	int err;

	ASSERT_EQ(0, ipuxcom_open("/dev/null", &ipu));
	err = ipuxcom_get_info(ipu, &info);
	EXPECT_EQ(-ENOTTY, err);
	EXPECT_NE(NULL, strstr(ipuxcom_strerror(err), "not an ipuxcom device"));
	expect_domain(_metadata, -ENOTTY, IPUXCOM_ERR_DEVICE);
	ipuxcom_close(ipu);
}

/* Netlink: without the module the family is missing (or netlink is). */
TEST(netlink)
{
	struct ipuxcom_nl *nl = NULL;
	int err = ipuxcom_nl_open(&nl);

	if (!err) {
		ipuxcom_nl_close(nl);
		SKIP(return, "the ipuxcom module is loaded here");
	}
	expect_domain(_metadata, err, IPUXCOM_ERR_NETLINK);
	if (err == -ENOENT) {
		EXPECT_NE(NULL, strstr(ipuxcom_strerror(err), "no generic netlink family"));
	} else {
		TH_LOG("netlink: %d %s", err, ipuxcom_strerror(err));
	}
}

/* File formats: a missing image and a corrupt one. */
TEST(image)
{
	static const char junk[64] = "IPUIMG1 but not really";
	struct ipuxcom_image *img = NULL;
	int err = ipuxcom_image_open(MISSING, &img, NULL);

	ASSERT_EQ(-ENOENT, err);
	EXPECT_STREQ("no such file or directory", ipuxcom_strerror(err));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(NULL), MISSING));
	expect_domain(_metadata, -ENOENT, IPUXCOM_ERR_FILE);

	err = ipuxcom_image_from_buffer(junk, sizeof(junk), &img, NULL);
	ASSERT_EQ(-EBADMSG, err);
	EXPECT_NE(NULL, strstr(ipuxcom_strerror(err), "corrupt"));
	EXPECT_EQ(NULL, strstr(ipuxcom_strerror(err), "netlink"));
	EXPECT_STRNE("", ipuxcom_errmsg(NULL));
	expect_domain(_metadata, -EBADMSG, IPUXCOM_ERR_FILE);
}

/* Plans: the return value is explained by its plan code, with no struct passed. */
TEST(plan)
{
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_plan_error e;
	int err = ipuxcom_plan_p2p(NULL, 0, 1, 5000, IPUXCOM_PLAN_PHYSICAL, &p, NULL);

	ASSERT_EQ(-ERANGE, err);
	EXPECT_STREQ("word count not in 1..4148", ipuxcom_strerror(err));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(NULL), "5000"));
	expect_domain(_metadata, -ERANGE, IPUXCOM_ERR_PLAN);
	/* the struct's code, in its own space, says the same */
	err = ipuxcom_plan_p2p(NULL, 0, 1, 5000, IPUXCOM_PLAN_PHYSICAL, &p, &e);
	EXPECT_STREQ(ipuxcom_strerror(err), ipuxcom_strerror(IPUXCOM_ERRC(e.code)));
	EXPECT_STREQ(e.msg, ipuxcom_errmsg(NULL));
	/* another rejection with the same errno gets its own text */
	err = ipuxcom_plan_p2p(NULL, 0, 1472, 4, IPUXCOM_PLAN_PHYSICAL, &p, NULL);
	ASSERT_EQ(-ERANGE, err);
	EXPECT_STREQ("tile id not in 0..1471", ipuxcom_strerror(err));
}

/* A malformed timing table and a malformed transfer list. */
TEST(malformed_inputs)
{
	char path[] = "/tmp/strerror_test_XXXXXX";
	struct ipuxcom_schedule_list *l = NULL;
	struct ipuxcom_timing *tm = NULL;
	int fd = mkstemp(path);
	int err;

	ASSERT_LE(0, fd);
	ASSERT_EQ(4, write(fd, "junk", 4));
	close(fd);
	err = ipuxcom_timing_load(path, &tm, NULL);
	unlink(path);
	ASSERT_EQ(-EBADMSG, err);
	EXPECT_NE(NULL, strstr(ipuxcom_strerror(err), "malformed timing table"));
	EXPECT_STRNE("", ipuxcom_errmsg(NULL));

	err = ipuxcom_schedule_list_parse("p2p 0\n", 6, 0, &l, NULL);
	ASSERT_EQ(-EBADMSG, err);
	EXPECT_NE(NULL, strstr(ipuxcom_strerror(err), "transfer list"));
	EXPECT_NE(NULL, strstr(ipuxcom_errmsg(NULL), "line 1"));
}

/* Without a record of the value: text that holds for any call, never a domain's. */
TEST(no_record_is_context_free)
{
	uint32_t d = 99;

	EXPECT_EQ(0, ipuxcom_last_error(&d));
	EXPECT_EQ(IPUXCOM_ERR_NONE, d);
	EXPECT_STREQ("", ipuxcom_errmsg(NULL));
	EXPECT_STREQ(strerror(ENOENT), ipuxcom_strerror(-ENOENT));
	EXPECT_STREQ(strerror(EBUSY), ipuxcom_strerror(-EBUSY));
	EXPECT_STREQ("not attached to a device", ipuxcom_strerror(-ENOTCONN));
	EXPECT_STREQ("success", ipuxcom_strerror(0));
	EXPECT_STREQ("device", ipuxcom_err_domain_name(IPUXCOM_ERR_DEVICE));
	EXPECT_STREQ("unknown", ipuxcom_err_domain_name(77));
}

static void *fail_device(void *arg)
{
	struct ipuxcom *ipu;

	*(int *)arg = ipuxcom_open(MISSING, &ipu);
	return NULL;
}

/* The record is the calling thread's: another thread's failure does not change it. */
TEST(per_thread)
{
	struct ipuxcom_timing *tm = NULL;
	pthread_t t;
	int other = 0;
	int err = ipuxcom_timing_load(MISSING, &tm, NULL);

	ASSERT_EQ(-ENOENT, err);
	ASSERT_EQ(0, pthread_create(&t, NULL, fail_device, &other));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(-ENOENT, other);
	EXPECT_STREQ("no such file or directory", ipuxcom_strerror(err));
	expect_domain(_metadata, -ENOENT, IPUXCOM_ERR_PLAN);
}

TEST_HARNESS_MAIN
