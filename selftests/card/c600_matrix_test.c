// SPDX-License-Identifier: GPL-2.0-only
/*
 * The main job on the QEMU C600 in every cell of what the record leaves
 * open (issue 31): the judges take each plausible value, and the card path
 * (ipuxcom.ko -> ipuxcom_hw.ko -> the ipu_driver stand-in -> the QEMU
 * C600) must run the main job in each cell, or stop before touching the
 * card with a message that names the unknown. Dimensions (all modelled:
 * no record says which one ipu_driver or the card has):
 *
 *   layout          the QEMU device's layout= (docs/qemu-c600.md
 *                   "Layouts"): bar0, bar2, offset. Changed by QEMU
 *                   device_del + device_add through run-vm.sh's monitor
 *                   relay; the stand-in probes the new card.
 *   node_parent     the stand-in's parameter: pci, class, virtual. Read
 *                   at probe: written, then the PCI function is unbound
 *                   from ipu_driver and bound again through sysfs
 *                   (ipuxcom_hw follows through its bus notifier).
 *   attach_repeat   the stand-in's parameter: ok, ebusy (read when used).
 *   signal_target   the stand-in's parameter, if it has one: process,
 *                   thread (its values from the parameter's presence;
 *                   without it, one value: the stand-in's own).
 * and, riding on the cells rather than multiplying them, the stand-in's
 * mmap=fault|remap: (node_parent + attach_repeat + signal_target) mod 2,
 * which pairs each of its values with every value of every dimension.
 *
 * The main job is `make demo`'s (/demo.sh, selftests/vm/demo.sh): 1472
 * tile images packed and loaded, host exchange write/run/read with the
 * bytes compared, TDI readback of tile 1471 and of every tile's words.
 * A cell:
 *   ok            demo.sh exited 0 and printed its three checks;
 *   ok # SKIP     demo.sh failed, the device saw no write to either
 *                 window's BAR, no ICU doorbell and no buffer slot command
 *                 (the stand-in's debugfs "touches", the device's
 *                 SW_TOUCHES) and its output names the cell's unknown
 *                 (a word of the dimension whose value is not the
 *                 default: "BAR"/"window", "parent"/"sysfs",
 *                 "USER_ATTACH"/"EBUSY", "signal"): it stopped before
 *                 touching the card and said why;
 *   not ok        anything else (its output's last lines follow). The
 *                 default cell (bar0, pci, ok, process) must pass.
 * One TAP line per cell naming it; "# cell ...: N s" gives its time (the
 * change of layout or binding included).
 *
 * IPUXCOM_MATRIX (kernel parameter ipuxcom_vm.matrix): "full" (default,
 * every combination), "pairwise" (9 cells in which every pair of values of
 * any two dimensions occurs), or a cell list "L/P/R[/T],..." (e.g.
 * "bar2/virtual/ok") to repeat cells by hand. After the last cell the
 * card is back in the default layout and parameters, for the tests after
 * this one.
 *
 * Needs the card lane's VM (IPUXCOM_CARD=c600) and run-vm.sh's monitor
 * relay (IPUXCOM_QEMU_MONITOR); skips otherwise.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "ixt_standin.h"

#define STANDIN_PARAMS	"/sys/module/ipu_standin/parameters/"
#define TOUCHES		IXT_STANDIN_DBG "/ipu0/touches"
#define DRV_DIR		"/sys/bus/pci/drivers/ipu_driver/"
#define DEMO		"/demo.sh"
#define DEMO_OUT	"/tmp/matrix-demo.out"
#define CARD_MS		60000

static const char *const layouts[] = { "bar0", "bar2", "offset" };
static const char *const parents[] = { "pci", "class", "virtual" };
static const char *const repeats[] = { "ok", "ebusy" };
static const char *const targets[] = { "process", "thread" };
static const char *const mmaps[] = { "fault", "remap" };

/* What a message must name for a stop to count, per dimension (non-default). */
static const char *const layout_words[] = { "BAR", "window", "resource", NULL };
static const char *const parent_words[] = { "parent", "sysfs", NULL };
static const char *const repeat_words[] = { "USER_ATTACH", "EBUSY", "busy", NULL };
static const char *const target_words[] = { "signal", NULL };

struct cell {
	int layout, parent, repeat, target, mmap;
};

/*
 * Pairwise: 9 rows of (layout, parent, repeat, target) in which every pair
 * of values of any two dimensions occurs (and with mmap as below).
 */
static const int pairwise[9][4] = {
	{ 0, 0, 0, 0 }, { 0, 1, 1, 1 }, { 0, 2, 0, 1 },
	{ 1, 0, 1, 1 }, { 1, 1, 0, 0 }, { 1, 2, 1, 0 },
	{ 2, 0, 0, 1 }, { 2, 1, 1, 0 }, { 2, 2, 0, 0 },
};

static bool have_target;	/* the stand-in has signal_target */
static struct cell cells[64];
static int ncells;

/* The card as it is now (-1: unknown). */
static int cur_layout = -1, cur_parent = -1;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int find(const char *const *names, int n, const char *s, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], s, len))
			return i;
	return -1;
}

static void cell_name(const struct cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "layout=%s node_parent=%s attach_repeat=%s%s%s mmap=%s",
		 layouts[c->layout], parents[c->parent], repeats[c->repeat],
		 have_target ? " signal_target=" : "", have_target ? targets[c->target] : "",
		 mmaps[c->mmap]);
}

/* @t: signal_target's index, also without the parameter (it picks mmap). */
static void add_cell(int l, int p, int r, int t)
{
	struct cell c = { l, p, r, have_target ? t : 0, 0 };

	c.mmap = (p + r + t) % 2;
	for (int i = 0; i < ncells; i++)
		if (!memcmp(&cells[i], &c, sizeof(c)))
			return;
	if (ncells < (int)(sizeof(cells) / sizeof(cells[0])))
		cells[ncells++] = c;
}

/* "L/P/R[/T]" cells, comma-separated; 0 or -1 (a message printed). */
static int parse_cells(const char *spec)
{
	const char *p = spec;

	while (*p) {
		int v[4] = { 0, 0, 0, 0 }, k = 0;
		const char *const *names[4] = { layouts, parents, repeats, targets };
		const int counts[4] = { 3, 3, 2, 2 };

		for (;;) {
			size_t len = strcspn(p, "/,");

			if (k == 4 || (v[k] = find(names[k], counts[k], p, len)) < 0) {
				ksft_print_msg("IPUXCOM_MATRIX: bad cell at '%s': want layout/node_parent/attach_repeat[/signal_target]\n",
					       p);
				return -1;
			}
			k++;
			p += len;
			if (*p != '/')
				break;
			p++;
		}
		if (k < 3) {
			ksft_print_msg("IPUXCOM_MATRIX: cell '%s' lacks a value\n", spec);
			return -1;
		}
		add_cell(v[0], v[1], v[2], v[3]);
		if (*p == ',')
			p++;
	}
	return 0;
}

static int build_cells(void)
{
	const char *m = getenv("IPUXCOM_MATRIX");
	int nt = have_target ? 2 : 1;

	if (!m || !*m || !strcmp(m, "full")) {
		for (int l = 0; l < 3; l++)
			for (int p = 0; p < 3; p++)
				for (int r = 0; r < 2; r++)
					for (int t = 0; t < nt; t++)
						add_cell(l, p, r, t);
		return 0;
	}
	if (!strcmp(m, "pairwise")) {
		for (int i = 0; i < 9; i++)
			/* (the row's signal_target still picks mmap without the parameter) */
			add_cell(pairwise[i][0], pairwise[i][1], pairwise[i][2], pairwise[i][3]);
		return 0;
	}
	return parse_cells(m);
}

static int set_param(const char *name, const char *value)
{
	char path[128];
	int ret;

	snprintf(path, sizeof(path), STANDIN_PARAMS "%s", name);
	ret = ixt_write_sysfs(path, value);
	if (ret)
		ksft_print_msg("%s=%s: %s\n", path, value, strerror(-ret));
	return ret;
}

/* The C600's PCI address (the last part of its sysfs path) into @bdf. */
static int card_bdf(char *bdf, size_t len, char *path, size_t plen)
{
	const char *slash;

	if (!ixt_c600_find(path, plen)) {
		ksft_print_msg("no QEMU C600 (1d95:c600) in sysfs\n");
		return -ENODEV;
	}
	slash = strrchr(path, '/');
	snprintf(bdf, len, "%s", slash ? slash + 1 : path);
	return 0;
}

/* BAR @bar's size from the function's sysfs "resource" file; 0 if none. */
static unsigned long long bar_size(const char *pci, int bar)
{
	char path[400];
	unsigned long long start, end, flags, size = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/resource", pci);
	f = fopen(path, "re");
	if (!f)
		return 0;
	for (int i = 0; i <= bar; i++) {
		if (fscanf(f, "%llx %llx %llx", &start, &end, &flags) != 3)
			break;
		if (i == bar && end > start)
			size = end - start + 1;
	}
	fclose(f);
	return size;
}

/*
 * The card in @layout and probed with @parent, as its sysfs shows: the
 * BAR sizes of the layout (docs/qemu-c600.md "Layouts") and /dev/ipu0's
 * parent. 0, or -1 with a message.
 */
static int check_card(int layout, int parent)
{
	static const unsigned long long sizes[3][2] = {
		{ 0x80000, 0x200000 }, { 0x200000, 0x80000 }, { 0x200000, 0x400000 },
	};
	char pci[320], bdf[64], link[512] = "";
	unsigned long long b0, b2;
	ssize_t n;

	if (card_bdf(bdf, sizeof(bdf), pci, sizeof(pci)))
		return -1;
	b0 = bar_size(pci, 0);
	b2 = bar_size(pci, 2);
	if (b0 != sizes[layout][0] || b2 != sizes[layout][1]) {
		ksft_print_msg("layout=%s: BAR 0 is 0x%llx bytes, BAR 2 0x%llx (want 0x%llx, 0x%llx)\n",
			       layouts[layout], b0, b2, sizes[layout][0], sizes[layout][1]);
		return -1;
	}
	n = readlink("/sys/class/misc/ipu0/device", link, sizeof(link) - 1);
	if (n >= 0)
		link[n] = '\0';
	switch (parent) {
	case 0:
		if (n < 0 || !strstr(link, bdf) || strstr(link, "ipu_card"))
			break;
		return 0;
	case 1:
		if (n < 0 || !strstr(link, "ipu_card"))
			break;
		return 0;
	default:
		if (n >= 0)
			break;
		if (!realpath("/sys/class/misc/ipu0", link) || !strstr(link, "/devices/virtual/"))
			break;
		return 0;
	}
	ksft_print_msg("node_parent=%s: /dev/ipu0's parent is '%s'\n", parents[parent],
		       link[0] ? link : "(none)");
	return -1;
}

/* QEMU removes the card and adds it back in @layout; 0 or -1. */
static int set_layout(int layout)
{
	char cmd[128];

	ixt_qemu_monitor("device_del " IXT_C600_QEMU_ID);
	if (ixt_card_wait(false, CARD_MS)) {
		ksft_print_msg("device_del: the card is still there after %d s\n", CARD_MS / 1000);
		return -1;
	}
	snprintf(cmd, sizeof(cmd), IXT_C600_QEMU_ADD ",layout=%s", layouts[layout]);
	ixt_qemu_monitor(cmd);
	if (ixt_card_wait(true, CARD_MS)) {
		ksft_print_msg("%s: no /dev/ipu0 and ipuxcom hw device after %d s\n", cmd,
			       CARD_MS / 1000);
		return -1;
	}
	return 0;
}

/* ipu_driver lets the card go and takes it again (probe runs again). */
static int rebind(void)
{
	char pci[320], bdf[64];
	int ret;

	if (card_bdf(bdf, sizeof(bdf), pci, sizeof(pci)))
		return -1;
	ret = ixt_write_sysfs(DRV_DIR "unbind", bdf);
	if (ret) {
		ksft_print_msg("unbind %s from ipu_driver: %s\n", bdf, strerror(-ret));
		return -1;
	}
	if (ixt_card_wait(false, CARD_MS)) {
		ksft_print_msg("unbind: the card is still there\n");
		return -1;
	}
	ret = ixt_write_sysfs(DRV_DIR "bind", bdf);
	if (ret) {
		ksft_print_msg("bind %s to ipu_driver: %s\n", bdf, strerror(-ret));
		return -1;
	}
	if (ixt_card_wait(true, CARD_MS)) {
		ksft_print_msg("bind: no /dev/ipu0 and ipuxcom hw device after %d s\n",
			       CARD_MS / 1000);
		return -1;
	}
	return 0;
}

/* The card and the stand-in as @c says; 0 or -1 (a message printed). */
static int setup(const struct cell *c)
{
	if (set_param("node_parent", parents[c->parent]) ||
	    set_param("attach_repeat", repeats[c->repeat]) ||
	    set_param("mmap", mmaps[c->mmap]) ||
	    (have_target && set_param("signal_target", targets[c->target])))
		return -1;
	if (c->layout != cur_layout) {
		cur_layout = cur_parent = -1;
		if (set_layout(c->layout))
			return -1;
	} else if (c->parent != cur_parent) {
		cur_parent = -1;
		if (rebind())
			return -1;
	}
	if (check_card(c->layout, c->parent))
		return -1;
	cur_layout = c->layout;
	cur_parent = c->parent;
	return 0;
}

/* sh /demo.sh, its stdout and stderr into DEMO_OUT; its exit status or -1. */
static int run_demo(void)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		FILE *f = freopen(DEMO_OUT, "w", stdout);
		char id[16];

		/* load_demo verify attaches this id (the card's is new after each bind) */
		snprintf(id, sizeof(id), "%ld", ixt_hw_dev_id());
		setenv("IPUXCOM_DEVICE", id, 1);

		if (!f || dup2(STDOUT_FILENO, STDERR_FILENO) < 0)
			_exit(126);
		execlp("sh", "sh", DEMO, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap);

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	while ((got = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
		n += got;
		if (n + 1 == cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* The last @lines lines of @s as "# " lines. */
static void print_tail(const char *s, int lines)
{
	const char *p = s + strlen(s);

	while (p > s && lines >= 0) {
		p--;
		if (*p == '\n' && p[1])
			lines--;
	}
	if (*p == '\n')
		p++;
	while (*p) {
		size_t len = strcspn(p, "\n");

		printf("#   %.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

static bool names_any(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (strcasestr(s, *words))
			return true;
	return false;
}

/*
 * Does the failing command's output (from demo.sh's last "$ " line on)
 * name the unknown of a dimension in which @c is not the default?
 */
static bool names_the_unknown(const struct cell *c, const char *all)
{
	const char *out = all, *p;

	for (p = all; (p = strstr(p, "\n$ ")); p++)
		out = p + 1;
	return (c->layout && names_any(out, layout_words)) ||
	       (c->parent && names_any(out, parent_words)) ||
	       (c->repeat && names_any(out, repeat_words)) ||
	       (c->target && names_any(out, target_words));
}

/* The line of @out naming the first failure (demo.sh's "demo: '...' failed"). */
static void failure_line(const char *out, char *buf, size_t len)
{
	const char *p = strstr(out, "demo: '");
	size_t n;

	buf[0] = '\0';
	if (!p)
		return;
	n = strcspn(p, "\n");
	snprintf(buf, len, "%.*s", (int)(n < 200 ? n : 200), p);
}

/* One cell: its TAP line. @i: its number from 1. */
static void run_cell(int i, const struct cell *c, double *took)
{
	char name[160], why[256], buf[32];
	double t0 = now_s();
	long touches;
	char *out;
	int rc;

	cell_name(c, name, sizeof(name));
	ksft_print_msg("cell %d/%d: %s\n", i, ncells, name);
	if (setup(c)) {
		*took = now_s() - t0;
		ksft_test_result_fail("%s (setup)\n", name);
		return;
	}
	if (ixt_write_sysfs(TOUCHES, "0\n")) {
		*took = now_s() - t0;
		ksft_test_result_fail("%s (cannot clear %s)\n", name, TOUCHES);
		return;
	}
	rc = run_demo();
	touches = ixt_read_sysfs(TOUCHES, buf, sizeof(buf)) > 0 ? strtol(buf, NULL, 0) : -1;
	*took = now_s() - t0;
	out = slurp(DEMO_OUT);
	if (!out) {
		ksft_test_result_fail("%s (no demo output)\n", name);
		return;
	}
	ksft_print_msg("cell %d: %.1f s, demo.sh exit status %d, %ld touches of the card\n", i,
		       *took, rc, touches);
	if (rc == 0 && strstr(out, "64 random bytes came back") &&
	    strstr(out, "words read back through TDI: PASS") &&
	    strstr(out, "the QEMU C600 PCI device")) {
		ksft_test_result_pass("%s\n", name);
	} else if (rc != 0 && touches == 0 && names_the_unknown(c, out)) {
		failure_line(out, why, sizeof(why));
		print_tail(out, 4);
		ksft_test_result_skip("%s: stopped before touching the card: %s\n", name, why);
	} else {
		failure_line(out, why, sizeof(why));
		ksft_print_msg("demo.sh: exit status %d, the card touched %ld times; its last lines:\n",
			       rc, touches);
		print_tail(out, 12);
		ksft_test_result_fail("%s%s%s\n", name, why[0] ? ": " : "", why);
	}
	free(out);
}

/* Back to the default cell's card and parameters, for the tests after this one. */
static void restore(void)
{
	struct cell def = { 0, 0, 0, 0, 0 };

	if (!setup(&def))
		return;
	ksft_print_msg("could not restore the default layout and parameters\n");
}

int main(void)
{
	const char *card = getenv("IPUXCOM_CARD");
	double took[64], total = 0;

	ksft_print_header();
	if (!card || strcmp(card, "c600"))
		ksft_exit_skip("not on the QEMU C600 (IPUXCOM_CARD=c600)\n");
	if (!getenv("IPUXCOM_QEMU_MONITOR"))
		ksft_exit_skip("nobody passes commands to QEMU's monitor (run-vm.sh)\n");
	if (access(STANDIN_PARAMS "node_parent", W_OK) ||
	    access(STANDIN_PARAMS "attach_repeat", W_OK) || access(STANDIN_PARAMS "mmap", W_OK))
		ksft_exit_fail_msg("the stand-in is not loaded, or lacks node_parent, attach_repeat or mmap\n");
	have_target = access(STANDIN_PARAMS "signal_target", W_OK) == 0;
	if (build_cells() || !ncells)
		ksft_exit_fail_msg("no cells to run\n");
	ksft_print_msg("%d cells (%s); signal_target %s\n", ncells,
		       getenv("IPUXCOM_MATRIX") ? getenv("IPUXCOM_MATRIX") : "full",
		       have_target ? "process, thread" : "absent: the stand-in's own");
	ksft_set_plan(ncells + 1);
	/* a name not in the list is refused, naming the parameter (dmesg) */
	ksft_test_result(ixt_write_sysfs(STANDIN_PARAMS "attach_repeat", "sometimes\n") ==
			 -EINVAL &&
			 ixt_write_sysfs(STANDIN_PARAMS "node_parent", "grandparent\n") == -EINVAL &&
			 ixt_write_sysfs(STANDIN_PARAMS "mmap", "never\n") == -EINVAL,
			 "the stand-in refuses values it does not know\n");
	/* the card as init left it: the default layout, node_parent as loaded */
	cur_layout = 0;
	for (int i = 0; i < ncells; i++) {
		run_cell(i + 1, &cells[i], &took[i]);
		total += took[i];
	}
	ksft_print_msg("matrix: %d cells in %.1f s (mean %.1f s)\n", ncells, total,
		       total / ncells);
	restore();
	ksft_finished();
}
