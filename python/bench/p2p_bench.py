#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The Python overhead of planning 10^5 point-to-point plans (issue 24).

The same N transfers (random logical sender and receiver, counts 1..4148,
seeded) are planned three ways in one run:
  C        the library's ipuxcom_plan_p2p() in a C loop (the baseline; in
           the extension, one Python call for all N)
  batch    ipuxcom.plan_p2p_batch(): one call, rows into new (N, 9) numpy arrays
  out=     the same into (N, 9) arrays allocated once and reused
  single   ipuxcom.plan_p2p() once per transfer, a P2PPlan object each
Each figure is the best of REPS passes (a loaded host only slows passes
down). Prints ns per plan, the ratios to C (goal: batch within 3x) and the
CPU model. Asserts nothing about time.

Where the time goes between C and the batch (docs/python.md "Speed"), each
measured, not inferred:
  C + copy   the batch's own C loop (pyx_plan_p2p_batch) called directly,
             rows copied into reused arrays: the copy's cost over C
  fresh      two new (N, 9) uint32 arrays written once (np.empty + fill),
             no planning: what new arrays cost by themselves
  faults     minor page faults per call (getrusage), new arrays vs out=
With MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_ set high (glibc
then keeps freed memory instead of unmapping it), `fresh` and `batch`
show what is left when the pages are not new.

Usage: python/bench/p2p_bench.py [N]      (PYTHONPATH=build/python in the tree)
"""
import resource
import sys
import time

import numpy as np

import ipuxcom
from ipuxcom._core import ffi, lib

REPS = 5


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def best(fn, reps=REPS) -> float:
    t = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        fn()
        t.append(time.perf_counter_ns() - t0)
    return min(t)


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    rng = np.random.default_rng(24)
    s = rng.integers(0, 1472, n, dtype=np.uint32)
    d = ((s + rng.integers(1, 1472, n, dtype=np.uint32)) % 1472).astype(np.uint32)
    c = rng.integers(1, 4149, n, dtype=np.uint32)
    flags = lib.IPUXCOM_PLAN_LOGICAL
    tm = lib.ipuxcom_timing_default()
    ps, pd, pc = (ffi.cast("uint32_t *", a.ctypes.data) for a in (s, d, c))

    def c_loop():
        assert lib.pyx_plan_p2p_loop(tm, ps, pd, pc, n, flags) == 0

    def batch():
        ipuxcom.plan_p2p_batch(s, d, c)

    rows = (np.empty((n, 9), dtype=np.uint32), np.empty((n, 9), dtype=np.uint32))

    def batch_out():
        ipuxcom.plan_p2p_batch(s, d, c, out=rows)

    sl, dl, cl = s.tolist(), d.tolist(), c.tolist()

    def single():
        for i in range(n):
            ipuxcom.plan_p2p(sl[i], dl[i], cl[i])

    failed = ffi.new("size_t *")
    rs, rr = (ffi.cast("uint32_t *", a.ctypes.data) for a in rows)

    def c_copy():
        assert lib.pyx_plan_p2p_batch(tm, ps, pd, pc, n, flags, rs, rr, failed, ffi.NULL) == 0

    def fresh():
        a = np.empty((n, 9), dtype=np.uint32)
        b = np.empty((n, 9), dtype=np.uint32)
        a.fill(1)
        b.fill(1)

    def faults(fn):
        """Minor page faults and kernel (system) ns per call of @fn."""
        fn()
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        for _ in range(REPS):
            fn()
        r1 = resource.getrusage(resource.RUSAGE_SELF)
        return ((r1.ru_minflt - r0.ru_minflt) / REPS, (r1.ru_stime - r0.ru_stime) * 1e9 / REPS)

    t_c = best(c_loop)
    t_cc = best(c_copy)
    t_b = best(batch)
    t_o = best(batch_out)
    t_f = best(fresh)
    (f_b, k_b), (f_o, k_o) = faults(batch), faults(batch_out)
    t_s = best(single, 1 if n > 10_000 else REPS)
    send, recv = ipuxcom.plan_p2p_batch(s, d, c)
    one = ipuxcom.plan_p2p(int(s[-1]), int(d[-1]), int(c[-1]))
    same = np.array_equal(send[-1], one.send.words) and np.array_equal(recv[-1], one.recv.words)
    print(f"cpu: {cpu_model()}")
    print(f"python: {sys.version.split()[0]} ({sys.executable}), numpy {np.__version__}")
    print(f"{n} p2p plans, best of {REPS} (single: 1 pass)")
    print(f"  C loop (baseline)   {t_c / n:8.1f} ns/plan")
    print(f"  C loop + copy out   {t_cc / n:8.1f} ns/plan   ratio {t_cc / t_c:5.2f}x")
    print(f"  plan_p2p_batch      {t_b / n:8.1f} ns/plan   ratio {t_b / t_c:5.2f}x  "
          f"(goal <= 3x: {'met' if t_b <= 3 * t_c else 'missed'})")
    print(f"  batch, out= reused  {t_o / n:8.1f} ns/plan   ratio {t_o / t_c:5.2f}x  "
          f"(goal <= 3x: {'met' if t_o <= 3 * t_c else 'missed'})")
    print(f"  plan_p2p per plan   {t_s / n:8.1f} ns/plan   ratio {t_s / t_c:5.2f}x")
    print(f"  fresh arrays alone  {t_f / n:8.1f} ns/plan   (np.empty + one write, no plans)")
    print(f"  page faults per call: {f_b:.0f} new arrays, {f_o:.0f} out= "
          f"({2 * n * 36 / 4096:.0f} pages of output); kernel time per plan: "
          f"{k_b / n:.1f} ns new arrays, {k_o / n:.1f} ns out=")
    print(f"  batch rows equal the single plan's: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
