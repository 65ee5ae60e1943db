/* SPDX-License-Identifier: GPL-2.0 */
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

/*
 * argv[1]: a trace. Strict JSON (no duplicate keys, no NaN/Infinity);
 * every event has name/ph/pid/tid, ts >= 0, complete events dur > 0, and
 * sits on a named process (and, unless process-wide, a named thread).
 * Prints "tiles T,T,...", "phases N", "sends N", "muxes N", "receives N",
 * "pics N", "red N", "yellow N", then "hazard KIND TILE COLOUR" per hazard.
 */
static const char ixt_trace_check_py[] =
	"import json, re, sys\n"
	"def pairs(p):\n"
	"    keys = [k for k, _ in p]\n"
	"    if len(keys) != len(set(keys)): raise ValueError('duplicate key')\n"
	"    return dict(p)\n"
	"def const(c): raise ValueError('not JSON: ' + c)\n"
	"d = json.load(open(sys.argv[1]), object_pairs_hook=pairs, parse_constant=const)\n"
	"procs, threads, n, haz = {}, set(), {}, []\n"
	"for e in d['traceEvents']:\n"
	"    for k in ('name', 'ph', 'pid', 'tid'): assert k in e, (k, e)\n"
	"    if e['ph'] == 'M':\n"
	"        if e['name'] == 'process_name': procs[e['pid']] = e['args']['name']\n"
	"        if e['name'] == 'thread_name': threads.add((e['pid'], e['tid']))\n"
	"        continue\n"
	"    assert e['ph'] in ('X', 'i'), e\n"
	"    assert type(e['ts']) is int and e['ts'] >= 0, e\n"
	"    assert e['pid'] in procs, e\n"
	"    if e['ph'] == 'X': assert type(e['dur']) is int and e['dur'] > 0, e\n"
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
	char *argv[22] = { "python3", "-c", (char *)script, (char *)file };
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
	char *argv[] = { "python3", "-c", "pass", NULL };
	bool ok = r && ixt_run(argv, r) == 0 && r->status == 0;

	free(r);
	return ok;
}

#endif /* IXT_PICTURES_H */
