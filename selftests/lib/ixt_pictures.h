/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Checks of the command's pictures by strict parsers (Python's json and
 * xml.etree, python3 in deps/packages.txt): a Chrome trace (--trace) and
 * an SVG tile grid (--heatmap). Each prints a summary that the tests
 * compare with what they expect; a parse error fails with exit 1.
 * Include after image_testlib.h.
 */
#ifndef IXT_PICTURES_H
#define IXT_PICTURES_H

#include "image_testlib.h"

/* The checkers' interpreter (the project's rule: this one, not whatever python3 is first). */
#define IXT_PYTHON	"/usr/bin/python3"

/*
 * argv[1]: a trace ('-': stdin). The Trace Event Format as ipuxcom writes
 * it (docs/pictures.md), checked strictly:
 *  - strict JSON (no duplicate keys, no NaN/Infinity);
 *  - the unit rule: ts and dur are microseconds whatever displayTimeUnit
 *    says (it only picks the display, "ms" or "ns"), one exchange event
 *    each: whole numbers, displayTimeUnit absent or "ms" ("ns" shows
 *    event 32 as 32,000 ns), otherData.time_unit "1 us = 1 exchange event";
 *  - every event has name/ph/pid/tid, ts >= 0, complete events dur > 0,
 *    and sits on a named process (and, unless process-wide, a named
 *    thread); instants have a scope;
 *  - nesting: the complete events ("X") of one thread nest or are
 *    disjoint, per tid over the whole trace (Perfetto keys threads by
 *    tid) and so per (pid, tid); any partial overlap fails, the first
 *    few named.
 * Prints "tiles T,T,...", "phases N", "sends N", "muxes N", "receives N",
 * "pics N", "red N", "yellow N", then "hazard KIND TILE COLOUR" per hazard.
 * Also a command: /usr/bin/python3 -c "$script" FILE (exit 1 on a fault).
 */
static const char ixt_trace_check_py[] =
	"import json, re, sys\n"
	"def pairs(p):\n"
	"    keys = [k for k, _ in p]\n"
	"    if len(keys) != len(set(keys)): raise ValueError('duplicate key')\n"
	"    return dict(p)\n"
	"def const(c): raise ValueError('not JSON: ' + c)\n"
	"src = sys.stdin if sys.argv[1] == '-' else open(sys.argv[1])\n"
	"d = json.load(src, object_pairs_hook=pairs, parse_constant=const)\n"
	"assert d.get('displayTimeUnit', 'ms') == 'ms', 'displayTimeUnit %r: ts/dur are us, '"
	"'1 us = 1 event' % d['displayTimeUnit']\n"
	"assert d['otherData']['time_unit'] == '1 us = 1 exchange event', d['otherData']\n"
	"procs, threads, n, haz, spans = {}, set(), {}, [], {}\n"
	"for e in d['traceEvents']:\n"
	"    for k in ('name', 'ph', 'pid', 'tid'): assert k in e, (k, e)\n"
	"    assert type(e['pid']) is int and type(e['tid']) is int, e\n"
	"    if e['ph'] == 'M':\n"
	"        if e['name'] == 'process_name': procs[e['pid']] = e['args']['name']\n"
	"        if e['name'] == 'thread_name': threads.add((e['pid'], e['tid']))\n"
	"        continue\n"
	"    assert e['ph'] in ('X', 'i'), e\n"
	"    assert type(e['ts']) is int and e['ts'] >= 0, e\n"
	"    assert e['pid'] in procs, e\n"
	"    if e['ph'] == 'X':\n"
	"        assert type(e['dur']) is int and e['dur'] > 0, e\n"
	"        spans.setdefault(e['tid'], []).append((e['ts'], e['ts'] + e['dur'], e['pid'], e['name']))\n"
	"    else: assert e.get('s') in ('t', 'p', 'g'), e\n"
	"    if e['pid'] == 0: k = 'phases'\n"
	"    elif e['ph'] == 'i' and e.get('s') == 'p':\n"
	"        k = e.get('cname', 'none')\n"
	"        t = int(re.match(r'tile (\\d+) ', procs[e['pid']]).group(1))\n"
	"        haz.append('%s %d %s' % (e['name'], t, k))\n"
	"    else:\n"
	"        assert (e['pid'], e['tid']) in threads, e\n"
	"        k = {'send': 'sends', 'mux': 'muxes', 'receive': 'receives', 'pic': 'pics'}"
	"[e['name'].split()[0]]\n"
	"    n[k] = n.get(k, 0) + 1\n"
	"bad = []\n"
	"for tid, v in spans.items():\n"
	"    v.sort(key=lambda s: (s[0], -s[1]))\n"
	"    stack = []\n"
	"    for s in v:\n"
	"        while stack and stack[-1][1] <= s[0]: stack.pop()\n"
	"        if stack and s[1] > stack[-1][1]: bad.append((tid, stack[-1], s))\n"
	"        stack.append(s)\n"
	"for b in bad[:5]:\n"
	"    print('overlap on tid %d: %r [%d,%d) pid %d against %r [%d,%d) pid %d' % (b[0], "
	"b[1][3], b[1][0], b[1][1], b[1][2], b[2][3], b[2][0], b[2][1], b[2][2]), file=sys.stderr)\n"
	"assert not bad, '%d complete events overlap others on their thread without nesting' "
	"% len(bad)\n"
	"tiles = sorted(int(re.match(r'tile (\\d+) ', v).group(1)) for p, v in procs.items() if p)\n"
	"print('tiles ' + ','.join(map(str, tiles)))\n"
	"for k in ('phases', 'sends', 'muxes', 'receives', 'pics', 'terrible', 'yellow'):\n"
	"    print('%s %d' % ('red' if k == 'terrible' else k, n.get(k, 0)))\n"
	"for h in haz: print('hazard ' + h)\n";

/*
 * argv[1]: an SVG; argv[2..]: tile ids. Well-formed XML with an <svg>
 * root; every tile square has a <title>. Prints "tiles N", "legend N",
 * then "tID FILL TITLE" for each id asked.
 */
static const char ixt_svg_check_py[] =
	"import sys, xml.etree.ElementTree as ET\n"
	"S = '{http://www.w3.org/2000/svg}'\n"
	"root = ET.parse(sys.argv[1]).getroot()\n"
	"assert root.tag == S + 'svg', root.tag\n"
	"rects = root.iter(S + 'rect')\n"
	"tiles = {}\n"
	"legend = 0\n"
	"for r in rects:\n"
	"    if r.get('class') == 'tile':\n"
	"        tiles[r.get('id')] = r\n"
	"        assert r.find(S + 'title') is not None, r.get('id')\n"
	"    legend += r.get('class') == 'legend'\n"
	"print('tiles %d' % len(tiles))\n"
	"print('legend %d' % legend)\n"
	"for t in sys.argv[2:]:\n"
	"    r = tiles['t' + t]\n"
	"    print('t%s %s %s' % (t, r.get('fill'), r.find(S + 'title').text))\n";

/* Run one of the checkers above on @file (and up to 16 more arguments). */
static inline int ixt_check_picture(struct ixt_run *r, const char *script, const char *file,
				    const char *const *more)
{
	char *argv[22] = { IXT_PYTHON, "-c", (char *)script, (char *)file };
	int n = 4;

	while (more && *more && n < 21)
		argv[n++] = (char *)*more++;
	argv[n] = NULL;
	return ixt_run(argv, r);
}

/* Whether python3 is on PATH (the checkers need it). */
static inline bool ixt_have_python3(void)
{
	struct ixt_run *r = malloc(sizeof(*r));
	char *argv[] = { IXT_PYTHON, "-c", "pass", NULL };
	bool ok = r && ixt_run(argv, r) == 0 && r->status == 0;

	free(r);
	return ok;
}

#endif /* IXT_PICTURES_H */
