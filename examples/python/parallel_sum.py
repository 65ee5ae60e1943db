#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The notes' all-tile parallel sum, step by step with ipuxcom from Python.

Logical tile t holds t + 1 at 0x50000. Round k (1..11) moves, in one
exchange phase of one-word p2p plans, the value of every logical t with
t % 2^k == 2^(k-1) to t - 2^(k-1), which adds it; every other tile runs the
non-participation row. After 11 rounds logical tile 0 holds 1472 * 1473 / 2.
The simulator checks each phase; the adds are the host's (the tile compute
is modelled, as in libuser/src/demo_sum.c). The result is compared with
the library's own ipuxcom_demo_sum().

Usage: examples/python/parallel_sum.py     (PYTHONPATH=build/python in the tree)
"""
import sys

import numpy as np

import ipuxcom

VALUE, RECV = 0x50000, 0x50010      # the tile's value, where a round's word lands


def main() -> int:
    phys = ipuxcom.tile_map()                          # logical -> physical
    sim = ipuxcom.Simulator(all_tiles=True)
    for t in range(ipuxcom.TILES):
        sim.sram_write(int(phys[t]), VALUE, [t + 1])
    clean = True
    for k in range(1, 12):
        stride = 1 << (k - 1)
        senders = np.arange(stride, ipuxcom.TILES, 2 * stride)
        sim.reset()
        for t in senders:
            sim.add_p2p(ipuxcom.plan_p2p(int(t), int(t - stride), 1), VALUE, RECV)
        sim.fill_idle()
        res = sim.run()
        clean &= res.ok
        for t in senders:                               # the receivers' compute
            d = int(phys[t - stride])
            v = sim.sram_read(d, VALUE, 1) + sim.sram_read(d, RECV, 1)
            sim.sram_write(d, VALUE, v)
        print(f"round {k:2}: {len(senders):3} transfers, {res.events} events, "
              f"{res.errors} errors, {res.delivered}/{res.declared} delivered")
    total = int(sim.sram_read(int(phys[0]), VALUE, 1)[0])
    want = ipuxcom.TILES * (ipuxcom.TILES + 1) // 2
    lib = ipuxcom.demo_sum()
    print(f"sum {total}, expected {want}; the library's demo: {lib.sum}, "
          f"events per round {lib.events}")
    ok = clean and total == want == lib.sum and lib.passed
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
