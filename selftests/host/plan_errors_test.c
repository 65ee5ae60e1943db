// SPDX-License-Identifier: GPL-2.0-only
/*
 * The plan API's error contract (ipuxcom_plan.h "errors"): every
 * rejection code a caller can provoke is reached by at least one public
 * call, returns the errno documented for it, names its field and says
 * what was wrong. (E_NOMEM needs a failing allocator
 * and E_INTERNAL a library bug; they are only checked for their texts.)
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <string.h>

#include <ipuxcom_plan.h>
#include <ipuxcom_xsim.h>

struct seen {
	int code, err;
	char field[32], msg[160];
};

static struct seen seen[IPUXCOM_PLAN_E_MAX];

static void note(int ret, const struct ipuxcom_plan_error *e)
{
	if (ret && e->code > 0 && e->code < IPUXCOM_PLAN_E_MAX && !seen[e->code].code) {
		seen[e->code].code = e->code;
		seen[e->code].err = ret;
		memcpy(seen[e->code].field, e->field, sizeof(e->field));
		memcpy(seen[e->code].msg, e->msg, sizeof(e->msg));
	}
}

static const int expected_errno[IPUXCOM_PLAN_E_MAX] = {
	[IPUXCOM_PLAN_E_NULL] = -EINVAL,	[IPUXCOM_PLAN_E_FLAGS] = -EINVAL,
	[IPUXCOM_PLAN_E_TILE] = -ERANGE,	[IPUXCOM_PLAN_E_COUNT] = -ERANGE,
	[IPUXCOM_PLAN_E_SELF] = -EINVAL,	[IPUXCOM_PLAN_E_DUP] = -EINVAL,
	[IPUXCOM_PLAN_E_NRECV] = -ERANGE,	[IPUXCOM_PLAN_E_FIELD] = -ERANGE,
	[IPUXCOM_PLAN_E_SCHEDULE] = -ERANGE,	[IPUXCOM_PLAN_E_ALIGN] = -EINVAL,
	[IPUXCOM_PLAN_E_ADDR] = -ERANGE,	[IPUXCOM_PLAN_E_ADDR_FLAG] = -ERANGE,
	[IPUXCOM_PLAN_E_TIMING] = -ERANGE,	[IPUXCOM_PLAN_E_FORMAT] = -EBADMSG,
	[IPUXCOM_PLAN_E_IO] = -ENOENT,		[IPUXCOM_PLAN_E_NOMEM] = -ENOMEM,
	[IPUXCOM_PLAN_E_SPACE] = -ENOSPC,	[IPUXCOM_PLAN_E_WORD] = -EINVAL,
	[IPUXCOM_PLAN_E_METHOD] = -EINVAL,	[IPUXCOM_PLAN_E_INFEASIBLE] = -EOPNOTSUPP,
	[IPUXCOM_PLAN_E_NAME] = -EINVAL,	[IPUXCOM_PLAN_E_INTERNAL] = -EFAULT,
	[IPUXCOM_PLAN_E_SIZE] = -EINVAL,
};

TEST(every_reachable_code_is_reached_with_its_errno_and_field)
{
	uint32_t r[8] = { 5, 6, 7, 8, 9, 10, 11, 12 }, dst[8], w;
	struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
		.flags = IPUXCOM_PLAN_PHYSICAL, .sender = 0, .count = 3, .nrecv = 2, .receivers = r,
					  .src_addr = 0x50000, .dst_addr = dst };
	struct ipuxcom_plan_row rows[9];
	struct ipuxcom_relay_step steps[8];
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_dispatch d = IPUXCOM_DISPATCH_INIT;
	struct ipuxcom_timing *tm;
	struct ipuxcom_plan_error e;
	static int16_t big[IPUXCOM_TILES * IPUXCOM_TILES];

	for (int i = 0; i < 8; i++)
		dst[i] = 0x50000;
	note(ipuxcom_plan_p2p(NULL, 0, 1, 3, IPUXCOM_PLAN_PHYSICAL, NULL, &e),
	     &e);		/* NULL */
	note(ipuxcom_plan_p2p(NULL, 0, 1, 3, 0x10, &p, &e), &e);		/* FLAGS */
	note(ipuxcom_plan_p2p(NULL, 1472, 1, 3, IPUXCOM_PLAN_PHYSICAL, &p, &e), &e);	/* TILE */
	note(ipuxcom_plan_p2p(NULL, 0, 1, 0, IPUXCOM_PLAN_PHYSICAL, &p, &e),
	     &e);		/* COUNT */
	note(ipuxcom_plan_p2p(NULL, 1, 1, 3, IPUXCOM_PLAN_PHYSICAL, &p, &e),
	     &e);		/* SELF */
	r[1] = 5;
	note(ipuxcom_plan_multicast(NULL, &req, rows, 9, NULL, &e), &e);	/* DUP */
	r[1] = 6;
	req.nrecv = 0;
	note(ipuxcom_plan_multicast(NULL, &req, rows, 9, NULL, &e), &e);	/* NRECV */
	req.nrecv = 2;
	note(ipuxcom_enc_delaypic(130, 0, 0, &w, &e), &e);		/* FIELD */
	req.schedule_offset = 5000;
	note(ipuxcom_plan_multicast(NULL, &req, rows, 9, NULL, &e), &e);	/* SCHEDULE */
	req.schedule_offset = 0;
	dst[0] = 0x50002;
	note(ipuxcom_plan_multicast(NULL, &req, rows, 9, NULL, &e), &e);	/* ALIGN */
	dst[0] = 0xf0000;
	note(ipuxcom_plan_multicast(NULL, &req, rows, 9, NULL, &e), &e);	/* ADDR */
	dst[0] = 0x60000;
	note(ipuxcom_plan_multicast(NULL, &req, rows, 9, NULL, &e), &e);	/* ADDR_FLAG */
	dst[0] = 0x50000;
	big[1] = 200;
	note(ipuxcom_timing_from_table(big, NULL, NULL, &tm, &e), &e);	/* TIMING */
	big[1] = 0;
	note(ipuxcom_timing_load("/nonexistent", &tm, &e), &e);		/* IO */
	note(ipuxcom_plan_multicast(NULL, &req, rows, 2, NULL, &e), &e);	/* SPACE */
	note(ipuxcom_patch_recv_restore(rows[0].words, 9, &e), &e);	/* WORD */
	note(ipuxcom_plan_dispatch(NULL, &req, 0, &d, &e), &e);		/* METHOD */
	req.nrecv = 7;
	req.count = 64;
	note(ipuxcom_plan_dispatch(NULL, &req, IPUXCOM_FANOUT_SERIALIZED, &d, &e), &e); /* INFEASIBLE */
	note(ipuxcom_timing_from_table(big, NULL, "no spaces", &tm, &e), &e);	/* NAME */
	note(ipuxcom_plan_relay(&req, steps, 1, NULL, &e), &e);		/* SPACE again */
	{
		struct ipuxcom_demo_watch wt = { .size = 0 };
		struct ipuxcom_demo_sum sum = IPUXCOM_DEMO_SUM_INIT;

		note(ipuxcom_demo_sum_watch(NULL, &wt, &sum, &e), &e);	/* SIZE */
	}
	{
		char path[] = "/tmp/plan_errors_XXXXXX";
		int fd = mkstemp(path);

		ASSERT_LE(0, fd);
		ASSERT_EQ(4, write(fd, "junk", 4));
		close(fd);
		note(ipuxcom_timing_load(path, &tm, &e), &e);		/* FORMAT */
		unlink(path);
	}

	for (int c = 1; c < IPUXCOM_PLAN_E_MAX; c++) {
		if (c == IPUXCOM_PLAN_E_NOMEM || c == IPUXCOM_PLAN_E_INTERNAL)
			continue;
		EXPECT_EQ(c, seen[c].code) TH_LOG("code %d (%s) never reached", c,
						  ipuxcom_strerror(IPUXCOM_ERRC(c)));
		EXPECT_EQ(expected_errno[c], seen[c].err) TH_LOG("code %d", c);
		EXPECT_NE(0, strlen(seen[c].field)) TH_LOG("code %d has no field", c);
		EXPECT_NE(0, strlen(seen[c].msg)) TH_LOG("code %d has no message", c);
		/*
		 * The message names its field (file errors name the file or
		 * the line instead).
		 */
		if (c != IPUXCOM_PLAN_E_FORMAT && c != IPUXCOM_PLAN_E_IO) {
			EXPECT_NE(NULL, strstr(seen[c].msg, seen[c].field))
				TH_LOG("code %d: '%s' does not name '%s'", c, seen[c].msg,
				       seen[c].field);
		}
	}
}

TEST_HARNESS_MAIN
