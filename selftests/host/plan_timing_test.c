// SPDX-License-Identifier: GPL-2.0-only
/*
 * libipuxcom timing models (libuser/src/timing.c): the HW-TIMETOMUX
 * reconstruction over every ordered pair of distinct physical tiles (range
 * exactly [-78, 112], Graphcore's WORSTSENDDELAY / WORSTRECVDELAY), its
 * directions, and measured tables from memory and from files: the model a
 * plan reports, save/load round trips, and every rejection of a malformed
 * table with a message naming the line and entry.
 */
#include "kselftest_harness.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ipuxcom_plan.h>

#define N IPUXCOM_TILES

/*
 * A second transcription of HW-TIMETOMUX (docs/hardware-record.md), written
 * from the text independently of timing.c, to catch a typo in either.
 */
static int c_of(int x) { return (x >> 2) & 15; }
static int fold(int v) { return v > 7 ? v ^ 15 : v; }
static int edge(int v) { return v > 7 ? (4 * v) ^ 60 : 4 * v; }

static int disp_of(int s, int d)
{
	int lane = d & 3, half = c_of(d) >> 3, k;

	if (lane > 1)
		k = half == (d & 1) ? 2 : 4;
	else
		k = half == lane ? 1 : 5;
	return 6 * (fold(c_of(d)) - fold(c_of(s)) - ((c_of(s) >> 3) ^ (s & 1))) + k;
}

static int facts_ttm(int s, int d)
{
	int low = (s >> 2) & 7;
	int crossing = (((s >> 2) & 8) | ((s >> 3) & 3)) - c_of(d) + ((low >> 1) ^ 3);
	int turn = ((s ^ d) & 0x20) == 0 ? low + 1 : 16 - low;
	int group = 2 * (((s >> 6) & 31) - ((d >> 6) & 31));

	return crossing + edge(c_of(s)) + turn - edge(c_of(d)) + group + abs(disp_of(s, d)) - 34;
}

TEST(range_over_all_ordered_pairs_is_exactly_minus78_to_112)
{
	int lo = 1000, hi = -1000;

	for (uint32_t s = 0; s < N; s++) {
		for (uint32_t d = 0; d < N; d++) {
			int t;

			if (s == d)
				continue;
			ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, s, d, &t, NULL));
			if (t < lo)
				lo = t;
			if (t > hi)
				hi = t;
		}
	}
	EXPECT_EQ(-IPUXCOM_WORST_SEND_DELAY, lo);	/* -78 [DW] */
	EXPECT_EQ(IPUXCOM_WORST_RECV_DELAY, hi);	/* 112 [DW] */
	EXPECT_EQ(-78, lo);
	EXPECT_EQ(112, hi);
}

TEST(matches_an_independent_transcription_of_facts)
{
	for (uint32_t s = 0; s < N; s++) {
		for (uint32_t d = 0; d < N; d++) {
			unsigned int dir;
			int t;

			if (s == d)
				continue;
			ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, s, d, &t, NULL));
			ASSERT_EQ(facts_ttm((int)s, (int)d), t) TH_LOG("%u -> %u", s, d);
			ASSERT_EQ(0, ipuxcom_route_direction(NULL, s, d, &dir, NULL));
			ASSERT_EQ(disp_of((int)s, (int)d) < 1 ? 2u : 1u, dir) TH_LOG("%u -> %u", s, d);
		}
	}
}

TEST(directions_are_1_or_2_and_both_occur)
{
	unsigned long n[3] = { 0 };

	for (uint32_t s = 0; s < N; s++) {
		for (uint32_t d = 0; d < N; d++) {
			unsigned int dir = 0;

			if (s == d)
				continue;
			ASSERT_EQ(0, ipuxcom_route_direction(NULL, s, d, &dir, NULL));
			ASSERT_TRUE(dir == 1 || dir == 2);
			n[dir]++;
		}
	}
	EXPECT_GT(n[1], 0);
	EXPECT_GT(n[2], 0);
}

/* The only pairs with TimeToMux 112 are the sync-boundary routes of plan_p2p_test. */
TEST(sync_boundary_pairs)
{
	int t;

	ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, 1440, 0, &t, NULL));
	EXPECT_EQ(112, t);
	ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, 1442, 0, &t, NULL));
	EXPECT_EQ(112, t);
}

TEST(default_model_is_named)
{
	const struct ipuxcom_timing *tm = ipuxcom_timing_default();

	ASSERT_NE(NULL, tm);
	EXPECT_STREQ("reconstruction", ipuxcom_timing_name(tm));
	EXPECT_STREQ("reconstruction", ipuxcom_timing_name(NULL));
	EXPECT_EQ(IPUXCOM_TIMING_RECONSTRUCTION, ipuxcom_timing_kind(tm));
	EXPECT_EQ(IPUXCOM_TIMING_RECONSTRUCTION, ipuxcom_timing_kind(NULL));
	ipuxcom_timing_free(NULL);	/* no-op */
}

TEST(pair_rejections)
{
	struct ipuxcom_plan_error e;
	unsigned int dir;
	int t;

	EXPECT_EQ(-EINVAL, ipuxcom_time_to_mux(NULL, 5, 5, &t, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_SELF, e.code);
	EXPECT_STREQ("dst 5 is src: TimeToMux needs two tiles", e.msg);
	EXPECT_EQ(-ERANGE, ipuxcom_time_to_mux(NULL, 1472, 5, &t, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_TILE, e.code);
	EXPECT_STREQ("src", e.field);
	EXPECT_STREQ("src 1472 out of range 0..1471 (physical)", e.msg);
	EXPECT_EQ(-ERANGE, ipuxcom_route_direction(NULL, 5, 1472, &dir, &e));
	EXPECT_STREQ("dst", e.field);
	EXPECT_EQ(-EINVAL, ipuxcom_time_to_mux(NULL, 1, 5, NULL, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
}

/* ------------------------------------------------------------ tables */

static int16_t *ttm_matrix(int fill)
{
	int16_t *m = malloc(sizeof(*m) * N * N);

	for (uint32_t s = 0; m && s < N; s++)
		for (uint32_t d = 0; d < N; d++)
			m[s * N + d] = fill == 1000 ? (s == d ? 0 : (int16_t)facts_ttm((int)s, (int)d))
						    : (int16_t)fill;
	return m;
}

TEST(table_from_memory_drives_plans_and_is_reported)
{
	struct ipuxcom_timing *tm = NULL;
	struct ipuxcom_plan_error e;
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT;
	int16_t *m = ttm_matrix(0);
	int t;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, ipuxcom_timing_from_table(m, NULL, "flat0", &tm, &e));
	free(m);
	EXPECT_STREQ("table:flat0", ipuxcom_timing_name(tm));
	EXPECT_EQ(IPUXCOM_TIMING_TABLE, ipuxcom_timing_kind(tm));
	ASSERT_EQ(0, ipuxcom_time_to_mux(tm, 0, 53, &t, NULL));
	EXPECT_EQ(0, t);
	ASSERT_EQ(0, ipuxcom_plan_p2p(tm, 0, 53, 3, IPUXCOM_PLAN_PHYSICAL, &p, &e));
	EXPECT_EQ(0x40a00000u | 111, p.send.words[1]);	/* delay(111 - 0) */
	EXPECT_STREQ("table:flat0", p.timing_model);
	EXPECT_EQ(IPUXCOM_TIMING_TABLE, p.timing_kind);
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 0, 53, 3, IPUXCOM_PLAN_PHYSICAL, &p, &e));
	EXPECT_STREQ("reconstruction", p.timing_model);
	EXPECT_EQ(IPUXCOM_TIMING_RECONSTRUCTION, p.timing_kind);
	ipuxcom_timing_free(tm);
}

/*
 * The assemblers take the default model inline and any other through its
 * interface: a table holding the reconstruction's values must give the
 * very same p2p and multicast rows, and a flat table its own times.
 */
TEST(table_of_the_reconstruction_gives_the_same_plans)
{
	static uint32_t recv[64], dst[64];
	static struct ipuxcom_plan_row a[65], b[65];
	struct ipuxcom_timing *tm = NULL, *flat = NULL;
	struct ipuxcom_p2p_plan p = IPUXCOM_P2P_PLAN_INIT, q = IPUXCOM_P2P_PLAN_INIT;
	struct ipuxcom_multicast_info info = IPUXCOM_MULTICAST_INFO_INIT;
	int16_t *m = ttm_matrix(1000), *f = ttm_matrix(7);

	ASSERT_NE(NULL, m);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, ipuxcom_timing_from_table(m, NULL, "same", &tm, NULL));
	for (uint32_t i = 0; i < N * N; i += N + 1)
		f[i] = 0;
	ASSERT_EQ(0, ipuxcom_timing_from_table(f, NULL, "flat7", &flat, NULL));
	free(m);
	free(f);
	for (uint32_t s = 0; s < N; s += 37) {
		for (uint32_t d = 1; d < N; d += 53) {
			if (s == d)
				continue;
			ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, s, d, 1 + (s + d) % 200,
						      IPUXCOM_PLAN_PHYSICAL, &p, NULL));
			ASSERT_EQ(0, ipuxcom_plan_p2p(tm, s, d, 1 + (s + d) % 200,
						      IPUXCOM_PLAN_PHYSICAL, &q, NULL));
			ASSERT_EQ(0, memcmp(&p.send, &q.send, sizeof(p.send)));
			ASSERT_EQ(0, memcmp(&p.recv, &q.recv, sizeof(p.recv)));
		}
	}
	for (int i = 0; i < 64; i++) {
		recv[i] = 100 + 21 * (uint32_t)i;
		dst[i] = 0x50000 + 16 * (uint32_t)i;
	}
	for (uint32_t count = 1; count < 200; count += 25) {
		struct ipuxcom_fanout_req req = { .size = sizeof(struct ipuxcom_fanout_req),
			.flags = IPUXCOM_PLAN_PHYSICAL,
			.sender = 3, .count = count, .nrecv = 64, .receivers = recv,
			.src_addr = 0x60000, .dst_addr = dst };

		ASSERT_EQ(0, ipuxcom_plan_multicast(NULL, &req, a, 65, NULL, NULL));
		ASSERT_EQ(0, ipuxcom_plan_multicast(tm, &req, b, 65, NULL, NULL));
		ASSERT_EQ(0, memcmp(a, b, sizeof(a)));
		ASSERT_EQ(0, ipuxcom_plan_multicast(flat, &req, b, 65, &info, NULL));
		EXPECT_EQ(7, info.max_t);
		for (int i = 1; i <= 64; i++)
			ASSERT_EQ(7, b[i].event);	/* start 0 + TimeToMux 7 */
	}
	ipuxcom_timing_free(tm);
	ipuxcom_timing_free(flat);
}

TEST(table_from_memory_rejections)
{
	struct ipuxcom_timing *tm = (void *)1;
	struct ipuxcom_plan_error e;
	uint8_t *dir = calloc(N, N);
	int16_t *m = ttm_matrix(1000);

	ASSERT_NE(NULL, m);
	ASSERT_NE(NULL, dir);
	m[3 * N + 7] = 113;
	EXPECT_EQ(-ERANGE, ipuxcom_timing_from_table(m, NULL, NULL, &tm, &e));
	EXPECT_EQ(NULL, tm);
	EXPECT_EQ(IPUXCOM_PLAN_E_TIMING, e.code);
	EXPECT_STREQ("time_to_mux[3][7] 113 out of range -78..112", e.msg);
	m[3 * N + 7] = -79;
	EXPECT_EQ(-ERANGE, ipuxcom_timing_from_table(m, NULL, NULL, &tm, &e));
	EXPECT_STREQ("time_to_mux[3][7] -79 out of range -78..112", e.msg);
	m[3 * N + 7] = 0;
	m[9 * N + 9] = 99;	/* the diagonal is ignored */
	for (uint32_t i = 0; i < N * N; i++)
		dir[i] = 1;
	dir[2 * N + 5] = 3;
	EXPECT_EQ(-ERANGE, ipuxcom_timing_from_table(m, dir, NULL, &tm, &e));
	EXPECT_STREQ("direction", e.field);
	EXPECT_STREQ("direction[2][5] 3 is not 1 or 2", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_timing_from_table(m, NULL, "bad name", &tm, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NAME, e.code);
	EXPECT_STREQ("name character 3 (0x20) not in [A-Za-z0-9._:+-]", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_timing_from_table(m, NULL, "", &tm, &e));
	EXPECT_STREQ("name length 0 out of range 1..25", e.msg);
	EXPECT_EQ(-EINVAL, ipuxcom_timing_from_table(NULL, NULL, NULL, &tm, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
	EXPECT_STREQ("time_to_mux", e.field);
	EXPECT_EQ(-EINVAL, ipuxcom_timing_from_table(m, NULL, NULL, NULL, &e));
	dir[2 * N + 5] = 2;
	ASSERT_EQ(0, ipuxcom_timing_from_table(m, dir, NULL, &tm, &e));
	EXPECT_STREQ("table:table", ipuxcom_timing_name(tm));
	ipuxcom_timing_free(tm);
	free(m);
	free(dir);
}

FIXTURE(file) {
	char path[64];
	char *text;	/* the default model saved as a table */
	size_t len;
};

FIXTURE_SETUP(file)
{
	FILE *f;
	int fd;

	snprintf(self->path, sizeof(self->path), "/tmp/plan_timing_XXXXXX");
	fd = mkstemp(self->path);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, ipuxcom_timing_save(NULL, self->path, 0, NULL));
	f = fopen(self->path, "rb");
	ASSERT_NE(NULL, f);
	fseek(f, 0, SEEK_END);
	self->len = (size_t)ftell(f);
	rewind(f);
	self->text = malloc(self->len + 1);
	ASSERT_NE(NULL, self->text);
	ASSERT_EQ(self->len, fread(self->text, 1, self->len, f));
	self->text[self->len] = '\0';
	fclose(f);
}

FIXTURE_TEARDOWN(file)
{
	unlink(self->path);
	free(self->text);
}

static void put_file(const char *path, const char *a, size_t alen, const char *b, size_t blen,
		     const char *c)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return;
	fwrite(a, 1, alen, f);
	if (b)
		fwrite(b, 1, blen, f);
	if (c)
		fputs(c, f);
	fclose(f);
}

/* Offset in @text of data row @row (0-based over both matrices), column @col. */
static size_t cell(const char *text, unsigned int row, unsigned int col)
{
	const char *p = strstr(text, "\ndata\n") + 6;

	while (row--)
		p = strchr(p, '\n') + 1;
	while (col--)
		p = strchr(p, ' ') + 1;
	return (size_t)(p - text);
}

/* Replace the value at @row/@col with @val and load; returns load()'s result. */
static int load_with(const char *path, const char *text, unsigned int row, unsigned int col,
		     const char *val, struct ipuxcom_plan_error *e)
{
	struct ipuxcom_timing *tm = NULL;
	size_t at = cell(text, row, col);
	size_t end = at + strcspn(text + at, " \n");
	int ret;

	put_file(path, text, at, val, strlen(val), text + end);
	ret = ipuxcom_timing_load(path, &tm, e);
	ipuxcom_timing_free(tm);
	return ret;
}

TEST_F(file, save_load_round_trip_reproduces_the_model)
{
	struct ipuxcom_timing *tm = NULL;
	struct ipuxcom_plan_error e;
	struct ipuxcom_p2p_plan a = IPUXCOM_P2P_PLAN_INIT, b = IPUXCOM_P2P_PLAN_INIT;
	char *again;
	FILE *f;
	size_t n;

	ASSERT_EQ(0, strncmp(self->text, "ipuxcom-timing 1\n", 17));
	ASSERT_EQ(0, ipuxcom_timing_load(self->path, &tm, &e)) TH_LOG("%s", e.msg);
	EXPECT_STREQ("table:reconstruction", ipuxcom_timing_name(tm));
	for (uint32_t s = 0; s < N; s++) {
		for (uint32_t d = 0; d < N; d++) {
			unsigned int d1, d2;
			int t1, t2;

			if (s == d)
				continue;
			ASSERT_EQ(0, ipuxcom_time_to_mux(tm, s, d, &t1, NULL));
			ASSERT_EQ(0, ipuxcom_time_to_mux(NULL, s, d, &t2, NULL));
			ASSERT_EQ(t2, t1);
			ASSERT_EQ(0, ipuxcom_route_direction(tm, s, d, &d1, NULL));
			ASSERT_EQ(0, ipuxcom_route_direction(NULL, s, d, &d2, NULL));
			ASSERT_EQ(d2, d1);
		}
	}
	ASSERT_EQ(0, ipuxcom_plan_p2p(tm, 1286, 274, 1024, IPUXCOM_PLAN_LOGICAL, &a, NULL));
	ASSERT_EQ(0, ipuxcom_plan_p2p(NULL, 1286, 274, 1024, IPUXCOM_PLAN_LOGICAL, &b, NULL));
	EXPECT_EQ(0, memcmp(&a.send, &b.send, sizeof(a.send)));
	EXPECT_EQ(0, memcmp(&a.recv, &b.recv, sizeof(a.recv)));
	EXPECT_STREQ("table:reconstruction", a.timing_model);
	/*
	 * A model saved again is the same file; so is ipuxcom_timing_write()
	 * on a caller's stream.
	 */
	ASSERT_EQ(0, ipuxcom_timing_save(tm, self->path, 0, NULL));
	ipuxcom_timing_free(tm);
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 0) {
			f = fopen(self->path, "rb");
		} else {
			f = tmpfile();
			ASSERT_NE(NULL, f);
			ASSERT_EQ(0, ipuxcom_timing_write(NULL, f, 0, NULL));
			rewind(f);
		}
		ASSERT_NE(NULL, f);
		again = malloc(self->len + 1);
		ASSERT_NE(NULL, again);
		n = fread(again, 1, self->len + 1, f);
		fclose(f);
		EXPECT_EQ(self->len, n) TH_LOG("pass %d", pass);
		EXPECT_EQ(0, memcmp(again, self->text, self->len));
		free(again);
	}
}

TEST_F(file, directions_model_takes_the_reconstruction_directions)
{
	struct ipuxcom_timing *tm = NULL;
	struct ipuxcom_plan_error e;
	char *hdr = strstr(self->text, "directions table\n");
	size_t dir_start = cell(self->text, N, 0);
	unsigned int dir, want;

	ASSERT_NE(NULL, hdr);
	memcpy(hdr + 11, "model", 5);
	put_file(self->path, self->text, dir_start, NULL, 0, NULL);
	ASSERT_EQ(0, ipuxcom_timing_load(self->path, &tm, &e)) TH_LOG("%s", e.msg);
	ASSERT_EQ(0, ipuxcom_route_direction(tm, 1286, 0, &dir, NULL));
	ASSERT_EQ(0, ipuxcom_route_direction(NULL, 1286, 0, &want, NULL));
	EXPECT_EQ(want, dir);
	ipuxcom_timing_free(tm);
	/* ...and then the direction rows are trailing data. */
	put_file(self->path, self->text, self->len, NULL, 0, NULL);
	EXPECT_EQ(-EBADMSG, ipuxcom_timing_load(self->path, &tm, &e));
	EXPECT_STREQ("data", e.field);
	EXPECT_STREQ("line 1479: data after the last table row", e.msg);
}

/* Each malformed file is rejected with its own message naming the place. */
TEST_F(file, value_out_of_range)
{
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-EBADMSG, load_with(self->path, self->text, 5, 9, "113", &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_FORMAT, e.code);
	EXPECT_STREQ("time_to_mux", e.field);
	EXPECT_STREQ("line 12: time_to_mux[5][9] 113 out of range -78..112", e.msg);
}

TEST_F(file, nonzero_diagonal)
{
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-EBADMSG, load_with(self->path, self->text, 5, 5, "4", &e));
	EXPECT_STREQ("line 12: time_to_mux[5][5] 4 out of range 0..0 (diagonal)", e.msg);
}

TEST_F(file, bad_direction)
{
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-EBADMSG, load_with(self->path, self->text, N + 2, 7, "3", &e));
	EXPECT_STREQ("direction", e.field);
	EXPECT_STREQ("line 1481: direction[2][7] 3 is not 1 or 2", e.msg);
}

TEST_F(file, not_a_number)
{
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-EBADMSG, load_with(self->path, self->text, 0, 3, "1x", &e));
	EXPECT_STREQ("line 7 (time_to_mux row 0) column 3: not a decimal integer", e.msg);
	EXPECT_EQ(-EBADMSG, load_with(self->path, self->text, 0, 3, "99999999999", &e));
	EXPECT_STREQ("line 7 (time_to_mux row 0) column 3: not a decimal integer", e.msg);
}

TEST_F(file, short_and_long_rows)
{
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-EBADMSG, load_with(self->path, self->text, 4, N - 1, "", &e));
	EXPECT_STREQ("line 11 (time_to_mux row 4): 1471 values, expected 1472", e.msg);
	EXPECT_EQ(-EBADMSG, load_with(self->path, self->text, 4, N - 1, "1 1", &e));
	EXPECT_STREQ("line 11 (time_to_mux row 4): more than 1472 values", e.msg);
}

TEST_F(file, truncated)
{
	struct ipuxcom_plan_error e;
	struct ipuxcom_timing *tm = NULL;

	put_file(self->path, self->text, cell(self->text, 100, 0), NULL, 0, NULL);
	EXPECT_EQ(-EBADMSG, ipuxcom_timing_load(self->path, &tm, &e));
	EXPECT_STREQ("end of file at line 107: time_to_mux row 100 of 1472 missing", e.msg);
	EXPECT_EQ(NULL, tm);
}

TEST_F(file, header_errors)
{
	static const struct { const char *text, *field, *msg; } cases[] = {
		{ "ipuxcom-timing 2\n", "header",
		  "line 1: not a timing table (expected 'ipuxcom-timing 1')" },
		{ "ipuxcom-timing 1\ntiles 1472\ndirections table\n", "header",
		  "end of file in the header: no 'data' line" },
		{ "ipuxcom-timing 1\ntiles 1216\n", "tiles",
		  "line 2: tiles '1216', this library supports 1472 (C600) only" },
		{ "ipuxcom-timing 1\ndirections both\n", "directions",
		  "line 2: directions must be 'table' or 'model'" },
		{ "ipuxcom-timing 1\nname a/b\n", "name",
		  "line 2: name character 1 (0x2f) not in [A-Za-z0-9._:+-]" },
		{ "ipuxcom-timing 1\nclock 1.3GHz\n", "header",
		  "line 2: unknown header key 'clock'" },
		{ "ipuxcom-timing 1\n# comment\n\ntiles\n", "header",
		  "line 4: expected 'KEY VALUE'" },
		{ "ipuxcom-timing 1\ndirections table\ndata\n", "tiles",
		  "header has no 'tiles' line" },
		{ "ipuxcom-timing 1\ntiles 1472\ndata\n", "directions",
		  "header has no 'directions' line" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ipuxcom_timing *tm = NULL;
		struct ipuxcom_plan_error e;

		put_file(self->path, cases[i].text, strlen(cases[i].text), NULL, 0, NULL);
		EXPECT_EQ(-EBADMSG, ipuxcom_timing_load(self->path, &tm, &e)) TH_LOG("case %zu", i);
		EXPECT_EQ(IPUXCOM_PLAN_E_FORMAT, e.code);
		EXPECT_STREQ(cases[i].field, e.field);
		EXPECT_STREQ(cases[i].msg, e.msg);
		EXPECT_EQ(NULL, tm);
	}
}

TEST(file_io_errors)
{
	struct ipuxcom_timing *tm = NULL;
	struct ipuxcom_plan_error e;

	EXPECT_EQ(-ENOENT, ipuxcom_timing_load("/nonexistent/table", &tm, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_IO, e.code);
	EXPECT_STREQ("path", e.field);
	EXPECT_STREQ("cannot open /nonexistent/table: No such file or directory", e.msg);
	EXPECT_EQ(-ENOENT, ipuxcom_timing_save(NULL, "/nonexistent/table", 0, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_IO, e.code);
	EXPECT_EQ(-EINVAL, ipuxcom_timing_save(NULL, "/tmp/x", 1, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e.code);
	EXPECT_EQ(-EINVAL, ipuxcom_timing_write(NULL, NULL, 0, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
	EXPECT_EQ(-EINVAL, ipuxcom_timing_write(NULL, stdout, 1, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_FLAGS, e.code);
	/*
	 * A stream that fails: the errno of the failing write, not a stale
	 * one left in errno, and the stream named by its descriptor.
	 */
	if (!access("/dev/full", W_OK)) {
		FILE *full = fopen("/dev/full", "w");
		char want[96];

		ASSERT_NE(NULL, full);
		errno = EBADF;
		EXPECT_EQ(-ENOSPC, ipuxcom_timing_write(NULL, full, 0, &e));
		EXPECT_EQ(IPUXCOM_PLAN_E_IO, e.code);
		EXPECT_EQ(-ENOSPC, e.err);
		snprintf(want, sizeof(want), "write error on the stream (file descriptor %d): "
			 "No space left on device", fileno(full));
		EXPECT_STREQ(want, e.msg);
		fclose(full);
		errno = EBADF;
		EXPECT_EQ(-ENOSPC, ipuxcom_timing_save(NULL, "/dev/full", 0, &e));
		EXPECT_EQ(IPUXCOM_PLAN_E_IO, e.code);
		EXPECT_STREQ("cannot write /dev/full: No space left on device", e.msg);
	}
	EXPECT_EQ(-EINVAL, ipuxcom_timing_load(NULL, &tm, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_NULL, e.code);
	EXPECT_EQ(-EINVAL, ipuxcom_timing_load("/tmp", NULL, &e));
	/* A directory opens but cannot be read. */
	EXPECT_EQ(-EISDIR, ipuxcom_timing_load("/tmp", &tm, &e));
	EXPECT_EQ(IPUXCOM_PLAN_E_IO, e.code);
}

TEST_HARNESS_MAIN
