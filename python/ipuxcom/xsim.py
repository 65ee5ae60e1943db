# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The exchange verifier (an event-level simulator of one phase), the phase
scheduler and the notes' two demos (ipuxcom_xsim.h). Nothing here touches
a device or has run against a C600: the simulator's model is
docs/exchange-verifier.md's."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable, List, Optional, Sequence, Union

import numpy as np

from ._core import Error, _str, check_plan, ffi, fspath, lib, new, numbering, plan_error
from .pictures import Heatmap, Trace
from .plan import ArrayLike, FanoutPlan, P2PPlan, Row, Timing, _ptr, _tm, _u32

MAX_EVENTS: int = lib.IPUXCOM_XSIM_MAX_EVENTS


@dataclass(frozen=True)
class Hazard:
    """One hazard the simulator reported (repeats merged: occurrences).

    kind      "wrong-source", "mux-overlap", ..., "idle-window"
    severity  "error" or "note"
    tile      physical tile where it was observed; other: the other tile or None
    event     first event (tile-local); program/word: where, or None
    message   the simulator's text; str(h): the library's one-line format
    """
    kind: str
    severity: str
    tile: int
    other: Optional[int]
    event: int
    program: Optional[int]
    word: Optional[int]
    occurrences: int
    message: str
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Action:
    """A send, mux setting or PIC setting of the last run (the trace)."""
    kind: str          # "send", "mux" or "pic"
    tile: int
    event: int
    words: int
    value: Optional[int]   # send: source byte address; mux: source tile (None: off); pic: address
    dir: int
    stream: int
    program: int
    word: int


@dataclass
class Result:
    """The simulator's verdict on one phase: counters and hazards.

    ok is True when there is no error hazard and every declared
    (transfer, receiver) pair was delivered completely and in place.
    """
    events: int
    programs: int
    tiles: int
    active_tiles: int
    errors: int
    notes: int
    dropped: int
    streams: int
    words_sent: int
    words_captured: int
    words_written: int
    tile_events: int
    declared: int
    delivered: int
    timing_model: str
    hazards: List[Hazard] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.errors == 0 and self.delivered == self.declared

    def __str__(self) -> str:
        head = (f"{self.events} events, {self.errors} errors, {self.notes} notes, "
                f"{self.delivered}/{self.declared} delivered ({self.timing_model})")
        return "\n".join([head] + [str(h) for h in self.hazards])


_ACTION_KINDS = {1: "send", 2: "mux", 3: "pic"}


class Simulator:
    """An event-level simulator of one exchange phase.

    sim = Simulator(timing=None, any_direction=False, all_tiles=False,
                    log_writes=False, max_events=0, max_hazards=0)
    Load programs (add_program, add_row, add_p2p, add_multicast,
    Schedule.load, fill_idle), declare what transfers mean (declare), put
    data in SRAM (sram_write), run() for the verdict, then read SRAM
    (sram_read), actions(), writes(), trace() and heatmap().
    """

    def __init__(self, timing: Optional[Timing] = None, *, any_direction: bool = False,
                 all_tiles: bool = False, log_writes: bool = False, max_events: int = 0,
                 max_hazards: int = 0):
        self._timing = timing
        self._log_writes: Optional[bool] = log_writes
        cfg = new("ipuxcom_xsim_config")
        cfg.timing = _tm(timing)
        cfg.flags = ((lib.IPUXCOM_XSIM_ANY_DIRECTION if any_direction else 0)
                     | (lib.IPUXCOM_XSIM_ALL_TILES if all_tiles else 0)
                     | (lib.IPUXCOM_XSIM_LOG_WRITES if log_writes else 0))
        cfg.max_events = max_events
        cfg.max_hazards = max_hazards
        out = ffi.new("struct ipuxcom_xsim **")
        err = plan_error()
        check_plan(lib.ipuxcom_xsim_create(cfg, out, err), err, "ipuxcom_xsim_create")
        self._h = ffi.gc(out[0], lib.ipuxcom_xsim_free)
        self._keep: list = []
        self.result: Optional[Result] = None

    @classmethod
    def _borrow(cls, handle, timing=None) -> "Simulator":
        s = cls.__new__(cls)
        s._timing = timing
        s._log_writes = None
        s._h = handle
        s._keep = []
        s.result = None
        return s

    def _call(self, fn, name, *args):
        err = plan_error()
        return check_plan(fn(self._h, *args, err), err, name)

    def reset(self, sram: bool = False) -> None:
        """Drop programs, declarations and results (and SRAM with sram=True)."""
        self._call(lib.ipuxcom_xsim_reset, "ipuxcom_xsim_reset",
                   lib.IPUXCOM_XSIM_RESET_SRAM if sram else 0)
        self._keep = []

    def sram_write(self, tile: int, addr: int, words: ArrayLike) -> None:
        """Write uint32 @words at byte address @addr of physical @tile."""
        w = _u32(words)
        self._call(lib.ipuxcom_xsim_sram_write, "ipuxcom_xsim_sram_write", tile, addr,
                   _ptr(w), w.size)

    def sram_read(self, tile: int, addr: int, n: int) -> np.ndarray:
        """@n uint32 words from byte address @addr of physical @tile."""
        w = np.zeros(n, dtype=np.uint32)
        self._call(lib.ipuxcom_xsim_sram_read, "ipuxcom_xsim_sram_read", tile, addr, _ptr(w), n)
        return w

    def add_program(self, tile: int, words: ArrayLike, *, incoming_base: int = 0,
                    outgoing_base: int = 0, data0: bool = False) -> int:
        """Add one tile's code for the phase; returns its program index."""
        w = _u32(words)
        p = new("ipuxcom_xsim_program")
        p.tile = tile
        p.flags = lib.IPUXCOM_XSIM_PROG_DATA0 if data0 else 0
        p.words = _ptr(w)
        p.nwords = w.size
        p.incoming_base = incoming_base
        p.outgoing_base = outgoing_base
        return self._call(lib.ipuxcom_xsim_add_program, "ipuxcom_xsim_add_program", p)

    def declare(self, sender: int, src_addr: int, count: int, receivers: ArrayLike,
                dst_addrs: ArrayLike, *, physical: bool = True) -> None:
        """Declare a transfer's intent (physical ids by default, as the simulator's)."""
        r, d = _u32(receivers), _u32(dst_addrs)
        x = new("ipuxcom_xsim_xfer")
        x.sender, x.src_addr, x.count = sender, src_addr, count
        x.flags = numbering(physical)
        x.nrecv = r.size
        x.receivers, x.dst_addr = _ptr(r), _ptr(d)
        self._call(lib.ipuxcom_xsim_declare, "ipuxcom_xsim_declare", x)

    def add_row(self, row: Row, base: int = 0) -> None:
        """A plan row as it lives in a plan buffer (A7 or A4 = @base)."""
        self._call(lib.ipuxcom_xsim_add_row, "ipuxcom_xsim_add_row", row._c, base)

    def add_p2p(self, plan: P2PPlan, src_addr: int, dst_addr: int) -> None:
        """A p2p plan as JDLSend/JDLRecv run it, its transfer declared."""
        self._call(lib.ipuxcom_xsim_add_p2p, "ipuxcom_xsim_add_p2p", plan._c, src_addr,
                   dst_addr)

    def add_multicast(self, plan: FanoutPlan) -> None:
        """Multicast rows from plan_multicast(), their transfer declared."""
        self._call(lib.ipuxcom_xsim_add_multicast, "ipuxcom_xsim_add_multicast",
                   plan._req.req, plan._crows, len(plan.rows))

    def fill_idle(self) -> None:
        """The non-participation row on every tile without a program."""
        self._call(lib.ipuxcom_xsim_fill_idle, "ipuxcom_xsim_fill_idle")

    def run(self) -> Result:
        """Simulate the phase; the verdict (also kept as .result)."""
        res = new("ipuxcom_xsim_result")
        self._call(lib.ipuxcom_xsim_run, "ipuxcom_xsim_run", res)
        self.result = _result(self._h, res)
        return self.result

    def hazards(self) -> List[Hazard]:
        return _hazards(self._h)

    def count(self, kind: str) -> int:
        """Hazard entries of @kind ("mux-overlap", ...) in the last run."""
        for k in range(64):
            if _str(lib.ipuxcom_xsim_kind_name(k)) == kind:
                return lib.ipuxcom_xsim_count(self._h, k)
        raise Error(22, f"hazard kind {kind!r} unknown", "kind", None, "invalid argument",
                    "Simulator.count")

    def actions(self) -> List[Action]:
        """The last run's sends, mux settings and PIC settings."""
        return _actions(self._h)

    def writes(self) -> np.ndarray:
        """The last run's SRAM writes (log_writes=True) as a numpy structured
        array: event, send_event, tile, src_tile, addr, src_addr, value."""
        return _writes(self._h)

    def tile_end(self, tile: int) -> int:
        """Event of physical @tile's last br $m10, or -1."""
        return lib.ipuxcom_xsim_tile_end(self._h, tile)

    def trace(self, name: str = "phase") -> "Trace":
        """A picture of the last run: the phase timeline (Trace._repr_svg_)."""
        return _trace(self._h, self.result, name, self._log_writes)

    def heatmap(self, what: str = "words") -> "Heatmap":
        """The last run on the 23 x 64 physical tile grid (Heatmap._repr_svg_)."""
        return self.trace().heatmap(what)


def _result(h, res) -> Result:
    return Result(res.events, res.programs, res.tiles, res.active_tiles, res.errors, res.notes,
                  res.dropped, res.streams, res.words_sent, res.words_captured,
                  res.words_written, res.tile_events, res.declared, res.delivered,
                  _str(res.timing_model), _hazards(h))


def _hazards(h) -> List[Hazard]:
    n = ffi.new("size_t *")
    hz = lib.ipuxcom_xsim_hazards(h, n)
    buf = ffi.new("char[512]")
    out = []
    for i in range(n[0]):
        z = hz[i]
        lib.ipuxcom_xsim_hazard_format(ffi.addressof(hz, i), buf, 512)
        out.append(Hazard(_str(lib.ipuxcom_xsim_kind_name(z.kind)),
                          "error" if z.severity == lib.IPUXCOM_XSIM_ERROR else "note",
                          z.tile, None if z.other == 0xffffffff else z.other, z.event,
                          None if z.program < 0 else z.program,
                          None if z.word < 0 else z.word, z.occurrences, _str(z.msg),
                          _str(buf)))
    return out


def _actions(h) -> List[Action]:
    a = new("ipuxcom_xsim_action")
    out = []
    for i in range(lib.ipuxcom_xsim_nactions(h)):
        lib.ipuxcom_xsim_action(h, i, a)
        kind = _ACTION_KINDS.get(a.kind, "?")
        value = None if (kind == "mux" and a.value == 0xffffffff) else a.value
        out.append(Action(kind, a.tile, a.event, a.words, value, a.dir, a.stream, a.program,
                          a.word))
    return out


WRITE_DTYPE = np.dtype([("event", np.int32), ("send_event", np.int32), ("tile", np.uint16),
                        ("src_tile", np.uint16), ("addr", np.uint32), ("src_addr", np.uint32),
                        ("value", np.uint32)])


def _writes(h) -> np.ndarray:
    n = ffi.new("size_t *")
    w = lib.ipuxcom_xsim_writes(h, n)
    out = np.zeros(n[0], dtype=WRITE_DTYPE)
    for i in range(n[0]):
        x = w[i]
        out[i] = (x.event, x.send_event, x.tile, x.src_tile, x.addr, x.src_addr, x.value)
    return out


# ------------------------------------------------------------------ scheduler


@dataclass
class Transfer:
    """A transfer to schedule: @count words from @sender to @receivers.

    Ids follow the call's numbering (logical by default). Addresses left
    None get the transfer list's defaults (sources from 0x80000 per
    sender, destinations from 0x50000 per receiver), assigned by the
    library's list parser.
    """
    sender: int
    receivers: Union[int, Sequence[int]]
    count: int
    src_addr: Optional[int] = None
    dst_addrs: Optional[Sequence[int]] = None

    def line(self) -> str:
        """The transfer as a line of a transfer list."""
        recv = [self.receivers] if isinstance(self.receivers, int) else list(self.receivers)
        if len(recv) == 1:
            s = f"p2p {self.sender} {recv[0]} {self.count}"
        else:
            s = f"multicast {self.sender} {self.count} " + " ".join(str(r) for r in recv)
        if self.src_addr is not None:
            s += f" src={self.src_addr:#x}"
        if self.dst_addrs is not None:
            s += " dst=" + ",".join(f"{a:#x}" for a in self.dst_addrs)
        return s


def transfer_list(transfers: Iterable[Transfer], *, physical: bool = False) -> str:
    """The text of a transfer list (docs/exchange-verifier.md) for @transfers."""
    lines = ["physical"] if physical else []
    lines += [t.line() for t in transfers]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class ScheduledTransfer:
    """One transfer of a list (physical ids, addresses assigned) and its slot."""
    sender: int
    receivers: tuple
    count: int
    src_addr: int
    dst_addrs: tuple
    line: int
    start: int
    first_arrival: int
    last_write: int
    gap: int
    sctl: int = 0
    """the send's control: direction | 4 for a 64-bit route"""
    items: int = 0
    """send events: count / 2 on a 64-bit route, else count"""
    wide: int = 0
    """why not 64-bit (ipuxcom_plan_wide_str()); 0: 64-bit"""

    @property
    def route(self) -> str:
        """ "64-bit" or "32-bit (why)", as ``ipuxcom plan schedule`` prints it."""
        if self.sctl & 4:
            return "64-bit"
        return "32-bit (%s)" % _str(lib.ipuxcom_plan_wide_str(self.wide))


def _pattern(tile: int, addr: np.ndarray) -> np.ndarray:
    # the command's sched_pattern(): a recognisable source word
    a = addr.astype(np.uint64)
    return (((tile + 1) * 0x9E3779B9) & 0xFFFFFFFF ^ a ^ (a >> np.uint64(7))).astype(np.uint32)


class Schedule:
    """Transfers packed into one phase by the library's scheduler.

    s = ipuxcom.schedule(transfers | list text | path)
    s.events             phase length in events
    s.transfers          each transfer with its slot (ScheduledTransfer)
    s.programs()         per-tile program words (tile -> uint32 array)
    s.load(sim)          add the programs and declarations to a Simulator
    s.verify()           simulate with patterned sources: (Result, mismatches, sim)
    s.stagger(step)      the notes' fixed stagger of the same transfers, simulated
    """

    def __init__(self, lst, handle, timing, opts):
        self._list = lst
        self._h = handle
        self._timing = timing
        self._opts = opts

    @property
    def events(self) -> int:
        return lib.ipuxcom_schedule_events(self._h)

    @property
    def transfers(self) -> List[ScheduledTransfer]:
        out = []
        slot = new("ipuxcom_schedule_slot")
        for i in range(self._list.n):
            x = self._list.xfers[i]
            lib.ipuxcom_schedule_slot(self._h, i, slot)
            out.append(ScheduledTransfer(x.sender, tuple(x.receivers[j] for j in range(x.nrecv)),
                                         x.count, x.src_addr,
                                         tuple(x.dst_addr[j] for j in range(x.nrecv)),
                                         self._list.line[i], slot.start, slot.first_arrival,
                                         slot.last_write, slot.gap, slot.sctl, slot.items,
                                         slot.wide))
        return out

    def programs(self) -> dict:
        """Physical tile -> its program's words (uint32 array)."""
        p = new("ipuxcom_xsim_program")
        out = {}
        for i in range(lib.ipuxcom_schedule_nprograms(self._h)):
            lib.ipuxcom_schedule_program(self._h, i, p)
            out[p.tile] = np.frombuffer(ffi.buffer(p.words, 4 * p.nwords), dtype=np.uint32).copy()
        return out

    def load(self, sim: Simulator, *, idle: bool = False) -> None:
        """Add the programs (and with idle=True the idle row elsewhere) and declarations."""
        err = plan_error()
        check_plan(lib.ipuxcom_schedule_load(self._h, sim._h,
                                             lib.IPUXCOM_SCHEDULE_LOAD_IDLE if idle else 0, err),
                   err, "ipuxcom_schedule_load")

    def _prepared(self, log_writes: bool) -> Simulator:
        sim = Simulator(self._timing, log_writes=log_writes)
        for t in self.transfers:
            addrs = t.src_addr + 4 * np.arange(t.count, dtype=np.uint32)
            sim.sram_write(t.sender, t.src_addr, _pattern(t.sender, addrs))
        return sim

    def _compare(self, sim: Simulator) -> int:
        bad = 0
        for t in self.transfers:
            want = _pattern(t.sender, t.src_addr + 4 * np.arange(t.count, dtype=np.uint32))
            for r, d in zip(t.receivers, t.dst_addrs):
                bad += int(np.count_nonzero(sim.sram_read(r, d, t.count) != want))
        return bad

    def verify(self, *, log_writes: bool = True):
        """Simulate the packed phase with patterned source buffers, as the
        command's `plan schedule` does: (Result, destination words differing
        from their source, the Simulator for trace() and heatmap())."""
        sim = self._prepared(log_writes)
        self.load(sim)
        res = sim.run()
        return res, self._compare(sim), sim

    def stagger(self, step: int = 256, *, log_writes: bool = True):
        """The same transfers by the notes' fixed stagger of @step events per
        transfer, simulated: (Result, mismatches, Simulator)."""
        sim = self._prepared(log_writes)
        err = plan_error()
        check_plan(lib.ipuxcom_schedule_stagger(self._opts, self._list.xfers, self._list.n,
                                                step, sim._h, 0, err),
                   err, "ipuxcom_schedule_stagger")
        res = sim.run()
        return res, self._compare(sim), sim

    def __repr__(self) -> str:
        return f"<ipuxcom.Schedule {self._list.n} transfers, {self.events} events>"


def parse_list(text: Union[str, bytes], *, physical: bool = False):
    """Parse a transfer list's text (the library's parser): the C list object."""
    b = text.encode() if isinstance(text, str) else text
    out = ffi.new("struct ipuxcom_schedule_list **")
    err = plan_error()
    check_plan(lib.ipuxcom_schedule_list_parse(b, len(b),
                                               lib.IPUXCOM_SCHEDULE_LIST_PHYSICAL if physical
                                               else 0, out, err),
               err, "ipuxcom_schedule_list_parse")
    return ffi.gc(out[0], lib.ipuxcom_schedule_list_free)


def schedule(transfers: Union[Iterable[Transfer], str, bytes, os.PathLike], *,
             physical: bool = False, exact_window: bool = False, legacy: bool = False,
             timing: Optional[Timing] = None, max_events: int = 0) -> Schedule:
    """Pack transfers into one phase: Transfer objects, a transfer list's
    text (str containing a newline, or bytes) or the path of a list file.

    Ids are logical unless physical=True (a list's own "physical" line
    also switches). exact_window closes each mux right after its words;
    legacy uses issue 4's list scheduler (for comparisons).
    """
    if isinstance(transfers, (bytes, os.PathLike)) or (isinstance(transfers, str)
                                                       and "\n" in transfers):
        if isinstance(transfers, os.PathLike):
            with open(fspath(transfers), "rb") as f:
                text = f.read()
        else:
            text = transfers
    elif isinstance(transfers, str):
        with open(fspath(transfers), "rb") as f:
            text = f.read()
    else:
        text = transfer_list(list(transfers), physical=physical)
        physical = False  # the text says so itself
    lst = parse_list(text, physical=physical)
    opts = new("ipuxcom_schedule_opts")
    opts.timing = _tm(timing)
    # the parsed list holds physical ids
    opts.flags = (lib.IPUXCOM_SCHEDULE_PHYSICAL
                  | (lib.IPUXCOM_SCHEDULE_EXACT_WINDOW if exact_window else 0)
                  | (lib.IPUXCOM_SCHEDULE_LEGACY if legacy else 0))
    opts.max_events = max_events
    out = ffi.new("struct ipuxcom_schedule **")
    err = plan_error()
    check_plan(lib.ipuxcom_schedule_build(opts, lst.xfers, lst.n, out, err), err,
               "ipuxcom_schedule_build")
    return Schedule(lst, ffi.gc(out[0], lib.ipuxcom_schedule_free), timing, opts)


# ------------------------------------------------------------------ pictures


def _trace(h, result: Optional[Result], name: str,
           writes_logged: Optional[bool] = None) -> Trace:
    """The last run of simulator @h as a Trace (pictures.py draws it)."""
    acts = _actions(h)
    tiles = {a.tile for a in acts}
    ends = {t: lib.ipuxcom_xsim_tile_end(h, t) for t in tiles}
    ev = result.events if result else max([e for e in ends.values()] + [0]) + 1
    return Trace(name, ev, acts, _writes(h), ends, _hazards(h), writes_logged)


# ------------------------------------------------------------------ demos


@dataclass
class PhaseRecord:
    """A demo's simulated phase as the watcher saw it."""
    name: str
    result: Result
    trace: Optional[Trace]


@ffi.def_extern()
def _pyx_watch_phase(ctx, sim, res, name):
    rec = ffi.from_handle(ctx)
    r = _result(sim, res)
    nm = _str(name)
    rec.append(PhaseRecord(nm, r, _trace(sim, r, nm, True) if rec.traces else None))


class _Recorder(list):
    traces = False


def _watch(phases: Optional[list], traces: bool, log_writes: bool):
    if phases is None:
        return ffi.NULL, None
    phases.traces = traces
    handle = ffi.new_handle(phases)
    w = new("ipuxcom_demo_watch")
    w.phase = lib._pyx_watch_phase
    w.ctx = handle
    w.sim_flags = lib.IPUXCOM_XSIM_LOG_WRITES if log_writes else 0
    return w, handle


@dataclass
class DemoSum:
    """The all-tile parallel sum: 11 rounds of p2p phases on the simulator."""
    tiles: int
    rounds: int
    transfers: List[int]
    events: List[int]
    sum: int
    expected: int
    errors: int
    notes: int
    passed: bool
    timing_model: str
    phases: List[PhaseRecord]


def demo_sum(*, timing: Optional[Timing] = None, watch: bool = False,
             traces: bool = False) -> DemoSum:
    """Run the notes' all-tile parallel sum in the simulator (ipuxcom_demo_sum).
    watch=True records each phase's Result; traces=True also its Trace."""
    out = new("ipuxcom_demo_sum")
    err = plan_error()
    rec = _Recorder() if (watch or traces) else None
    w, keep = _watch(rec, traces, traces)
    check_plan(lib.ipuxcom_demo_sum_watch(_tm(timing), w, out, err), err,
               "ipuxcom_demo_sum_watch")
    del keep
    return DemoSum(out.tiles, out.rounds, list(out.transfers)[:out.rounds],
                   list(out.events)[:out.rounds], out.sum, out.expected, out.errors, out.notes,
                   bool(getattr(out, "pass")), _str(out.timing_model), list(rec or []))


@dataclass
class DemoMatmul:
    """The 4x4 matrix multiply on 24 tiles (eight multicast streams)."""
    a: np.ndarray
    b: np.ndarray
    c: np.ndarray
    expected: np.ndarray
    active_tiles: int
    streams: int
    words_per_stream: int
    events: int
    stagger_events: int
    packed_events: int
    errors: int
    notes: int
    matches_notes: bool
    passed: bool
    timing_model: str
    phases: List[PhaseRecord]


def demo_matmul(*, packed: bool = True, timing: Optional[Timing] = None, watch: bool = False,
                traces: bool = False) -> DemoMatmul:
    """Run the notes' matrix multiply in the simulator (ipuxcom_demo_matmul):
    packed=True exchanges by the scheduler's packed phase, else by the
    notes' fixed 256-event stagger."""
    out = new("ipuxcom_demo_matmul")
    err = plan_error()
    rec = _Recorder() if (watch or traces) else None
    w, keep = _watch(rec, traces, traces)
    check_plan(lib.ipuxcom_demo_matmul_watch(_tm(timing), lib.IPUXCOM_DEMO_PACKED if packed
                                             else 0, w, out, err),
               err, "ipuxcom_demo_matmul_watch")
    del keep

    def m(x):
        return np.array([[x[i][j] for j in range(4)] for i in range(4)], dtype=np.int32)

    return DemoMatmul(m(out.a), m(out.b), m(out.c), m(out.expected), out.active_tiles,
                      out.streams, out.words_per_stream, out.events, out.stagger_events,
                      out.packed_events, out.errors, out.notes, bool(out.matches_notes),
                      bool(getattr(out, "pass")), _str(out.timing_model), list(rec or []))
