#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Notebook-style: schedule a few transfers, simulate the phase, draw its
timeline and a heatmap of the tile grid.

In a notebook the last expression of a cell, e.g. `trace` or `heatmap`, is
shown as the picture (_repr_svg_). Here the SVGs are written to OUTDIR
(default: the current directory): phase-timeline.svg, phase-heatmap.svg.

Usage: examples/python/phase_pictures.py [OUTDIR]
"""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import ipuxcom

# In [1]: a phase: one sender to four, a chain, a 64-word p2p
transfers = [
    ipuxcom.Transfer(0, [1, 2, 3, 4], 16),
    ipuxcom.Transfer(10, 11, 40),
    ipuxcom.Transfer(11, 12, 40),
    ipuxcom.Transfer(700, 1400, 64),
]

# In [2]: packed by the scheduler, checked by the simulator
sched = ipuxcom.schedule(transfers)
result, mismatches, sim = sched.verify()
print(result)
for t in sched.transfers:
    print(f"  line {t.line}: {t.sender} -> {list(t.receivers)}, {t.count} words, "
          f"first send at event {t.start}, last write at {t.last_write}")

# In [3]: the phase timeline
trace = sim.trace("packed phase")

# In [4]: words sent and written per tile on the 23 x 64 physical grid
heatmap = sim.heatmap("words")


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out.mkdir(parents=True, exist_ok=True)
    for name, pic in (("phase-timeline.svg", trace), ("phase-heatmap.svg", heatmap)):
        svg = pic._repr_svg_()
        ET.fromstring(svg)                      # well-formed
        (out / name).write_text(svg)
        print(f"wrote {out / name} ({len(svg)} bytes)")
    ok = result.ok and mismatches == 0 and int(heatmap.values.sum()) > 0
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
