// SPDX-License-Identifier: GPL-2.0-only
/*
 * A program outside the tree, built by selftests/install/install-check.sh
 * against an installed libipuxcom with nothing but
 * `pkg-config --cflags --libs libipuxcom`: checks that the installed
 * headers (in INCLUDEDIR/ipuxcom, which pkg-config's -I names) are
 * complete (<ipuxcom.h> pulls in <linux/ipuxcom.h> and the other public
 * headers), that a parameter struct carries its size, and that the
 * library answers. No device needed.
 * Exit status 0 when every check passed; each failure is printed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ipuxcom.h>

static int failed;

#define CHECK(cond, ...) do {					\
	if (!(cond)) {						\
		printf("pc_user: FAIL %s:%d: ", __FILE__, __LINE__);	\
		printf(__VA_ARGS__);				\
		putchar('\n');					\
		failed = 1;					\
	}							\
} while (0)

int main(void)
{
	struct ipuxcom_plan_error perr;
	struct ipuxcom_insn insn;
	const char *s;
	uint32_t word = 0, phys = 0;
	char text[64];
	int ret;

	/* The header's version is the library's (the .so was built from it). */
	CHECK(strlen(IPUXCOM_LIB_VERSION) > 0, "empty IPUXCOM_LIB_VERSION");
	CHECK(!strcmp(ipuxcom_version(), IPUXCOM_LIB_VERSION), "ipuxcom_version() %s, header %s",
	      ipuxcom_version(), IPUXCOM_LIB_VERSION);
	CHECK(ipuxcom_version_number() == IPUXCOM_LIB_VERSION_NUMBER,
	      "ipuxcom_version_number() 0x%x", (unsigned)ipuxcom_version_number());
	CHECK(IPUXCOM_UAPI_VERSION > 0, "IPUXCOM_UAPI_VERSION %d", IPUXCOM_UAPI_VERSION);

	/* Error conventions: negative errno in, a message out, never NULL. */
	s = ipuxcom_strerror(-EBUSY);
	CHECK(s && *s, "ipuxcom_strerror(-EBUSY) empty");
	CHECK(s && !strcmp(s, ipuxcom_strerror(EBUSY)), "-E and +E differ");
	s = ipuxcom_strerror(-ENOTCONN);
	CHECK(s && *s, "ipuxcom_strerror(-ENOTCONN) empty");
	s = ipuxcom_dev_state_name(12345);
	CHECK(s && !strcmp(s, "unknown"), "dev_state_name(12345) = %s", s ? s : "NULL");

	/* Plan encoders (docs: ipuxcom_plan.h's table). */
	ret = ipuxcom_enc_delay(5, &word, NULL);
	CHECK(ret == 0 && word == 0x40a00005, "enc_delay(5): %d, 0x%08x", ret, word);
	ret = ipuxcom_enc_send(63, 0, 1, &word, NULL);
	CHECK(ret == 0 && word == 0x7fe00001, "enc_send(63, 0, 1): %d, 0x%08x", ret, word);
	ret = ipuxcom_disasm(word, text, sizeof(text));
	CHECK(ret > 0 && !strcmp(text, "send 63, 0x0, 1"), "disasm: %d '%s'", ret, text);
	ret = ipuxcom_decode(word, &insn);
	CHECK(ret == 0 && insn.op == IPUXCOM_OP_SEND, "decode: %d op %u", ret, (unsigned)insn.op);

	/* A field that does not fit is refused, with a code and a message. */
	memset(&perr, 0, sizeof(perr));
	ret = ipuxcom_enc_delaypic(130, 0, 0, &word, &perr);
	CHECK(ret == -ERANGE && perr.code == IPUXCOM_PLAN_E_FIELD && perr.msg[0],
	      "enc_delaypic(130): %d code %d '%s'", ret, perr.code, perr.msg);
	/* ... and the one explainer names it (NEWS 0.2.0: plan codes as errors) */
	s = ipuxcom_strerror(IPUXCOM_ERRC(IPUXCOM_PLAN_E_FIELD));
	CHECK(s && *s && !strstr(s, "Unknown error"), "strerror(ERRC(FIELD)): '%s'", s ? s : "");

	/* A caller-allocated struct that grows carries its size. */
	{
		struct ipuxcom_event ev = IPUXCOM_EVENT_INIT;

		CHECK(ev.size == sizeof(ev), "IPUXCOM_EVENT_INIT size %u", (unsigned)ev.size);
		CHECK(ipuxcom_monitor_next(NULL, &ev, 0) == -EINVAL, "monitor_next(NULL)");
	}

	ret = ipuxcom_tile_physical(0, &phys);
	CHECK(ret == 0 && phys < 1472, "tile_physical(0): %d, %u", ret, phys);
	ret = ipuxcom_tile_physical(1472, &phys);
	CHECK(ret < 0, "tile_physical(1472) accepted");

	if (!failed)
		printf("pc_user: libipuxcom %s: all checks passed\n", IPUXCOM_LIB_VERSION);
	return failed;
}
