// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command's error messages name a file once ("load: x.ipuimg:
 * truncated", not "load: x.ipuimg: x.ipuimg: truncated") and explain file
 * errors as file errors, never with a device or netlink meaning. All of
 * these fail before any device is opened, so they run on the host.
 * (State-aware device messages: selftests/device/errmsg_test.c.)
 */
#include "kselftest_harness.h"

#include <ipuxcom.h>

#include "image_testlib.h"
#include "ixt_load.h"

FIXTURE(msg) {
	char tool[PATH_MAX];
	char dir[PATH_MAX];
	char boot[PATH_MAX + 16];
	char img[PATH_MAX + 16];	/* a valid image */
	char trunc[PATH_MAX + 16];	/* an IPUIMG1 cut short */
	char bad[PATH_MAX + 16];	/* not an IPUCFG1, not a manifest */
	struct ixt_run r;
};

FIXTURE_SETUP(msg)
{
	char why[300];
	uint8_t *file;
	size_t len = 0;

	if (!ixt_find_tool(self->tool, sizeof(self->tool)))
		SKIP(return, "ipuxcom command not built (set IPUXCOM_TOOL)");
	ASSERT_TRUE(ixt_tmpdir(self->dir, sizeof(self->dir)));
	snprintf(self->boot, sizeof(self->boot), "%s/boot-XXXXXX", self->dir);
	snprintf(self->img, sizeof(self->img), "%s/good-XXXXXX", self->dir);
	snprintf(self->trunc, sizeof(self->trunc), "%s/trunc.ipuimg", self->dir);
	snprintf(self->bad, sizeof(self->bad), "%s/bad.file", self->dir);
	ASSERT_EQ(0, ixt_small_files(self->img, self->boot, why, sizeof(why))) TH_LOG("%s", why);
	file = ixt_read_file(self->img, &len);
	ASSERT_NE(NULL, file);
	ASSERT_EQ(0, ixt_write_file(self->trunc, file, 20));
	free(file);
	ASSERT_EQ(0, ixt_write_file(self->bad, "junk\n", 5));
}

FIXTURE_TEARDOWN(msg)
{
	ixt_rmtree(self->dir);
}

/* How often @needle occurs in @hay. */
static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Exit status 1, @what in stderr, and the file named exactly once. */
#define NAMED_ONCE(_file, _what) do {						\
	EXPECT_EQ(1, self->r.status) TH_LOG("stderr: %s", self->r.err);		\
	EXPECT_EQ(1, count(self->r.err, _file)) TH_LOG("stderr: %s", self->r.err);	\
	EXPECT_NE(NULL, strstr(self->r.err, _what)) TH_LOG("stderr: %s", self->r.err); \
} while (0)

TEST_F(msg, load_image_named_once)
{
	ASSERT_EQ(0, ixt_run_tool(&self->r, self->tool, "load", self->trunc, "-b", self->boot,
				  NULL));
	NAMED_ONCE("trunc.ipuimg", "trunc.ipuimg: truncated");
}

TEST_F(msg, load_missing_image_named_once)
{
	char missing[PATH_MAX + 32];

	snprintf(missing, sizeof(missing), "%s/missing.ipuimg", self->dir);
	ASSERT_EQ(0, ixt_run_tool(&self->r, self->tool, "load", missing, "-b", self->boot, NULL));
	NAMED_ONCE("missing.ipuimg", "No such file or directory");
	/* a missing file is not a missing module */
	EXPECT_EQ(NULL, strstr(self->r.err, "module"));
}

TEST_F(msg, load_config_named_once)
{
	ASSERT_EQ(0, ixt_run_tool(&self->r, self->tool, "load", self->img, "-b", self->boot, "-c",
				  self->bad, NULL));
	NAMED_ONCE("bad.file", "bad.file: ");
	/* a corrupt file is not a netlink problem */
	EXPECT_EQ(NULL, strstr(self->r.err, "netlink"));
}

TEST_F(msg, load_manifest_named_once)
{
	ASSERT_EQ(0, ixt_run_tool(&self->r, self->tool, "load", self->img, "-b", self->boot,
				  "--hostx", self->bad, "run", NULL));
	NAMED_ONCE("bad.file", "expected the header");
}

TEST_F(msg, bootloader_named_once)
{
	char missing[PATH_MAX + 32];

	snprintf(missing, sizeof(missing), "%s/missing.bin", self->dir);
	ASSERT_EQ(0, ixt_run_tool(&self->r, self->tool, "load", self->img, "-b", missing, NULL));
	NAMED_ONCE("missing.bin", "bootloader ");
}

TEST_HARNESS_MAIN
