#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The notes' 4x4 matrix multiply with the scheduler's packed phase, from Python.

Logical tiles 0..3 own the rows of A, 4..7 the columns of B; tile
8 + 4i + j computes C[i][j]. Eight multicast transfers of four words go
out in one phase packed by the library's scheduler (ipuxcom.schedule), the
simulator checks it, the host does the tiles' multiply-add (modelled, as in
libuser/src/demo_matmul.c), and C is compared with numpy's A @ B, with
the C the notes printed, and with the notes' fixed 256-event stagger.

Usage: examples/python/matmul.py     (PYTHONPATH=build/python in the tree)
"""
import sys

import numpy as np

import ipuxcom

OWN, AROW, BCOL = 0x50000, 0x50100, 0x50200
NOTES_C = np.array([[4, 24, 9, 14], [20, 48, 25, 38], [-12, 14, 3, 0], [22, 10, 8, 31]])


def main() -> int:
    ref = ipuxcom.demo_matmul()          # the library's A and B (derived from the notes)
    a, b = ref.a, ref.b
    xfers = []
    for i in range(4):                   # A row i -> the tiles of C row i
        xfers.append(ipuxcom.Transfer(i, [8 + 4 * i + j for j in range(4)], 4, OWN, [AROW] * 4))
    for j in range(4):                   # B column j -> the tiles of C column j
        xfers.append(ipuxcom.Transfer(4 + j, [8 + 4 * i + j for i in range(4)], 4, OWN,
                                      [BCOL] * 4))
    s = ipuxcom.schedule(xfers)
    phys = ipuxcom.tile_map()
    sim = ipuxcom.Simulator(all_tiles=True)
    for i in range(4):
        sim.sram_write(int(phys[i]), OWN, a[i].astype(np.uint32))
        sim.sram_write(int(phys[4 + i]), OWN, b[:, i].astype(np.uint32))
    s.load(sim, idle=True)
    res = sim.run()
    c = np.zeros((4, 4), dtype=np.int32)
    for i in range(4):
        for j in range(4):
            d = int(phys[8 + 4 * i + j])
            row = sim.sram_read(d, AROW, 4).view(np.int32)
            col = sim.sram_read(d, BCOL, 4).view(np.int32)
            c[i, j] = int(row @ col)
    stagger, _, _ = s.stagger(256)
    print(f"packed phase: {s.events} events ({res.errors} errors, "
          f"{res.delivered}/{res.declared} delivered); the notes' stagger: {stagger.events}")
    print("C =\n", c)
    ok = (res.ok and np.array_equal(c, a @ b) and np.array_equal(c, NOTES_C)
          and s.events < stagger.events and res.events == ref.packed_events)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
