# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The exchange verifier (an event-level simulator of one phase), the phase
scheduler and the notes' two demos (ipuxcom_xsim.h). Nothing here touches
a device or has run against a C600: the simulator's model is
docs/exchange-verifier.md's."""
from __future__ import annotations

import errno as _errno
import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from ._core import (CData, Error, U32Array, _str, check_plan, dcrepr, ffi, index_str, lib,
                    new, numbering, plan_error, read_file, renamer, type_error, uint,
                    uint_array, value_error)
from .pictures import Heatmap, Trace
from .plan import (MAX_COUNT, TILES, ArrayLike, FanoutPlan, P2PPlan, Row, Timing, _arg_index,
                   _ptr, _tm, _u32, logical_id)

__all__ = ["MAX_EVENTS", "Hazard", "Action", "Result", "Simulator", "WRITE_DTYPE", "Transfer",
           "transfer_list", "ScheduledTransfer", "SCHEDULE_DTYPE", "Schedule", "parse_list",
           "schedule", "schedule_text", "Trace", "Heatmap", "PhaseRecord", "DemoSum",
           "demo_sum", "DemoMatmul", "demo_matmul"]

MAX_EVENTS: int = int(lib.IPUXCOM_XSIM_MAX_EVENTS)


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


@dataclass(frozen=True, repr=False)
class Action:
    """A send, mux setting or PIC setting of the last run (the trace).

    value: a send's source byte address, a PIC's address (both shown in
    hex), a mux's source tile (None: off)."""
    kind: str          # "send", "mux" or "pic"
    tile: int
    event: int
    words: int
    value: Optional[int]
    dir: int
    stream: int
    program: int
    word: int

    def __repr__(self) -> str:
        return dcrepr(self, () if self.kind == "mux" else ("value",))


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
        """No error hazard, and every declared delivery complete and in place."""
        return self.errors == 0 and self.delivered == self.declared

    def __str__(self) -> str:
        head = (f"{self.events} events, {self.errors} errors, {self.notes} notes, "
                f"{self.delivered}/{self.declared} delivered ({self.timing_model})")
        return "\n".join([head] + [str(h) for h in self.hazards])


_ACTION_KINDS = {1: "send", 2: "mux", 3: "pic"}

# the library's names of a transfer's members, as the Python arguments
_XFER_FIELDS = renamer([(r"^nrecv$", "receivers"), (r"^dst_addr\b", "dst_addrs")])


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
        cfg.max_events = uint(max_events, "max_events", "Simulator")
        cfg.max_hazards = uint(max_hazards, "max_hazards", "Simulator")
        out = ffi.new("struct ipuxcom_xsim **")
        err = plan_error()
        check_plan(lib.ipuxcom_xsim_create(cfg, out, err), err, "ipuxcom_xsim_create")
        self._h: CData = ffi.gc(out[0], lib.ipuxcom_xsim_free)
        self._keep: List[Any] = []
        self.result: Optional[Result] = None

    @classmethod
    def _borrow(cls, handle: CData, timing: Optional[Timing] = None) -> "Simulator":
        s = cls.__new__(cls)
        s._timing = timing
        s._log_writes = None
        s._h = handle
        s._keep = []
        s.result = None
        return s

    def _call(self, fn: CData, name: str, *args: Any, fields: Any = None) -> int:
        err = plan_error()
        return check_plan(fn(self._h, *args, err), err, name, fields)

    def reset(self, sram: bool = False) -> None:
        """Drop programs, declarations and results (and SRAM with sram=True)."""
        self._call(lib.ipuxcom_xsim_reset, "ipuxcom_xsim_reset",
                   lib.IPUXCOM_XSIM_RESET_SRAM if sram else 0)
        self._keep = []

    def sram_write(self, tile: int, addr: int, words: ArrayLike) -> None:
        """Write uint32 @words at byte address @addr of physical @tile."""
        fn = "Simulator.sram_write"
        w = _u32(words, "words", fn)
        self._call(lib.ipuxcom_xsim_sram_write, "ipuxcom_xsim_sram_write",
                   uint(tile, "tile", fn), uint(addr, "addr", fn), _ptr(w), w.size)

    def sram_read(self, tile: int, addr: int, n: int) -> U32Array:
        """@n uint32 words from byte address @addr of physical @tile."""
        fn = "Simulator.sram_read"
        count = uint(n, "n", fn)
        w = np.zeros(count, dtype=np.uint32)
        self._call(lib.ipuxcom_xsim_sram_read, "ipuxcom_xsim_sram_read", uint(tile, "tile", fn),
                   uint(addr, "addr", fn), _ptr(w), count)
        return w

    def add_program(self, tile: int, words: ArrayLike, *, incoming_base: int = 0,
                    outgoing_base: int = 0, data0: bool = False) -> int:
        """Add one tile's code for the phase; returns its program index."""
        fn = "Simulator.add_program"
        w = _u32(words, "words", fn)
        p = new("ipuxcom_xsim_program")
        p.tile = uint(tile, "tile", fn)
        p.flags = lib.IPUXCOM_XSIM_PROG_DATA0 if data0 else 0
        p.words = _ptr(w)
        p.nwords = w.size
        p.incoming_base = uint(incoming_base, "incoming_base", fn)
        p.outgoing_base = uint(outgoing_base, "outgoing_base", fn)
        return self._call(lib.ipuxcom_xsim_add_program, "ipuxcom_xsim_add_program", p,
                          fields=renamer([(r"^nwords$", "words")]))

    def declare(self, sender: int, src_addr: int, count: int, receivers: ArrayLike,
                dst_addrs: ArrayLike, *, physical: bool = True) -> None:
        """Declare a transfer's intent (physical ids by default, as the simulator's):
        @dst_addrs one address for every receiver or one per receiver."""
        fn = "Simulator.declare"
        r = _u32(receivers, "receivers", fn)
        d0 = uint_array(dst_addrs, "dst_addrs", fn)
        try:
            d = np.ascontiguousarray(np.broadcast_to(d0, r.shape))
        except ValueError:
            raise value_error(f"dst_addrs has shape {d0.shape} for {r.size} receivers (give "
                              "one, or one per receiver)", "dst_addrs", fn) from None
        x = new("ipuxcom_xsim_xfer")
        x.sender, x.src_addr, x.count = (uint(sender, "sender", fn),
                                         uint(src_addr, "src_addr", fn),
                                         uint(count, "count", fn))
        x.flags = numbering(physical)
        x.nrecv = r.size
        x.receivers, x.dst_addr = _ptr(r), _ptr(d)

        def fields(cname: Optional[str]) -> Optional[str]:
            m = re.match(r"^dst_addr\[(\d+)\]$", cname or "")
            if m:
                return "dst_addrs" + index_str(_arg_index(int(m.group(1)), r.shape, d0.shape))
            return _XFER_FIELDS(cname)
        self._call(lib.ipuxcom_xsim_declare, "ipuxcom_xsim_declare", x, fields=fields)

    def add_row(self, row: Row, base: int = 0) -> None:
        """A plan row as it lives in a plan buffer (A7 or A4 = @base)."""
        if not isinstance(row, Row):
            raise type_error(f"row is a {type(row).__name__}, not an ipuxcom.Row", "row",
                             "Simulator.add_row")
        self._call(lib.ipuxcom_xsim_add_row, "ipuxcom_xsim_add_row", row._c,
                   uint(base, "base", "Simulator.add_row"))

    def add_p2p(self, plan: P2PPlan, src_addr: int, dst_addr: int) -> None:
        """A p2p plan as JDLSend/JDLRecv run it, its transfer declared."""
        fn = "Simulator.add_p2p"
        if not isinstance(plan, P2PPlan):
            raise type_error(f"plan is a {type(plan).__name__}, not an ipuxcom.P2PPlan", "plan",
                             fn)
        self._call(lib.ipuxcom_xsim_add_p2p, "ipuxcom_xsim_add_p2p", plan._c,
                   uint(src_addr, "src_addr", fn), uint(dst_addr, "dst_addr", fn))

    def add_multicast(self, plan: FanoutPlan) -> None:
        """Multicast rows from plan_multicast(), their transfer declared."""
        if not isinstance(plan, FanoutPlan) or plan._req is None:
            raise type_error(f"plan is a {type(plan).__name__}, not plan_multicast()'s "
                             "FanoutPlan", "plan", "Simulator.add_multicast")
        self._call(lib.ipuxcom_xsim_add_multicast, "ipuxcom_xsim_add_multicast",
                   plan._req.req, plan._crows, len(plan.rows), fields=plan._req.fields)

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
        """The last run's hazards (as .result.hazards)."""
        return _hazards(self._h)

    def count(self, kind: str) -> int:
        """Hazard entries of @kind ("mux-overlap", ...) in the last run."""
        for k in range(64):
            if _str(lib.ipuxcom_xsim_kind_name(k)) == kind:
                return int(lib.ipuxcom_xsim_count(self._h, k))
        raise value_error(f"hazard kind {kind!r} unknown", "kind", "Simulator.count")

    def actions(self) -> List[Action]:
        """The last run's sends, mux settings and PIC settings."""
        return _actions(self._h)

    def writes(self) -> NDArray[Any]:
        """The last run's SRAM writes (log_writes=True) as a numpy structured
        array: event, send_event, tile, src_tile, addr, src_addr, value."""
        return _writes(self._h)

    def tile_end(self, tile: int) -> int:
        """Event of physical @tile's last br $m10, or -1."""
        return int(lib.ipuxcom_xsim_tile_end(self._h, uint(tile, "tile", "Simulator.tile_end")))

    def trace(self, name: str = "phase") -> "Trace":
        """A picture of the last run: the phase timeline (Trace._repr_svg_)."""
        return _trace(self._h, self.result, name, self._log_writes)

    def heatmap(self, what: str = "words") -> "Heatmap":
        """The last run on the 23 x 64 physical tile grid (Heatmap._repr_svg_)."""
        return self.trace().heatmap(what)


def _result(h: CData, res: CData) -> Result:
    return Result(int(res.events), int(res.programs), int(res.tiles), int(res.active_tiles),
                  int(res.errors), int(res.notes), int(res.dropped), int(res.streams),
                  int(res.words_sent), int(res.words_captured), int(res.words_written),
                  int(res.tile_events), int(res.declared), int(res.delivered),
                  _str(res.timing_model), _hazards(h))


def _hazards(h: CData) -> List[Hazard]:
    n = ffi.new("size_t *")
    hz = lib.ipuxcom_xsim_hazards(h, n)
    buf = ffi.new("char[512]")
    out = []
    for i in range(n[0]):
        z = hz[i]
        lib.ipuxcom_xsim_hazard_format(ffi.addressof(hz, i), buf, 512)
        out.append(Hazard(_str(lib.ipuxcom_xsim_kind_name(z.kind)),
                          "error" if z.severity == lib.IPUXCOM_XSIM_ERROR else "note",
                          int(z.tile), None if z.other == 0xffffffff else int(z.other),
                          int(z.event), None if z.program < 0 else int(z.program),
                          None if z.word < 0 else int(z.word), int(z.occurrences),
                          _str(z.msg), _str(buf)))
    return out


def _actions(h: CData) -> List[Action]:
    a = new("ipuxcom_xsim_action")
    out = []
    for i in range(lib.ipuxcom_xsim_nactions(h)):
        lib.ipuxcom_xsim_action(h, i, a)
        kind = _ACTION_KINDS.get(int(a.kind), "?")
        value = None if (kind == "mux" and a.value == 0xffffffff) else int(a.value)
        out.append(Action(kind, int(a.tile), int(a.event), int(a.words), value, int(a.dir),
                          int(a.stream), int(a.program), int(a.word)))
    return out


WRITE_DTYPE = np.dtype([("event", np.int32), ("send_event", np.int32), ("tile", np.uint16),
                        ("src_tile", np.uint16), ("addr", np.uint32), ("src_addr", np.uint32),
                        ("value", np.uint32)])


def _writes(h: CData) -> NDArray[Any]:
    n = ffi.new("size_t *")
    w = lib.ipuxcom_xsim_writes(h, n)
    out = np.zeros(n[0], dtype=WRITE_DTYPE)
    for i in range(n[0]):
        x = w[i]
        out[i] = (x.event, x.send_event, x.tile, x.src_tile, x.addr, x.src_addr, x.value)
    return out


# ------------------------------------------------------------------ scheduler


@dataclass(repr=False)
class Transfer:
    """A transfer to schedule: @count words from @sender to @receivers.

    Ids follow the call's numbering (logical by default). Addresses left
    None get the transfer list's defaults (sources from 0x80000 per
    sender, destinations from 0x50000 per receiver), assigned by the
    library's list parser; @dst_addrs: one address for every receiver or
    one per receiver.
    """
    sender: int
    receivers: Union[int, Sequence[int]]
    count: int
    src_addr: Optional[int] = None
    dst_addrs: Optional[Union[int, Sequence[int]]] = None

    def line(self) -> str:
        """The transfer as a line of a transfer list."""
        return _Checked.of(self, 0).line()

    def __repr__(self) -> str:
        return dcrepr(self, ("src_addr", "dst_addrs"))


class _Checked:
    """A Transfer's members checked under their Python names
    (``transfers[i].count``) before they become a line of a list, so that
    the list parser never reports a line the caller did not write."""

    def __init__(self, sender: int, receivers: List[int], count: int,
                 src_addr: Optional[int], dst_addrs: Optional[List[int]],
                 dst_shape: Tuple[int, ...]):
        self.sender, self.receivers, self.count = sender, receivers, count
        self.src_addr, self.dst_addrs, self.dst_shape = src_addr, dst_addrs, dst_shape

    @classmethod
    def of(cls, t: object, i: int, where: str = "transfers", fn: str = "schedule"
           ) -> "_Checked":
        at = f"{where}[{i}]"
        if not isinstance(t, Transfer):
            raise type_error(f"{at} is a {type(t).__name__}, not an ipuxcom.Transfer", at, fn)
        s = uint(t.sender, f"{at}.sender", fn)
        recv = uint_array(t.receivers, f"{at}.receivers", fn)
        if recv.ndim > 1:
            raise value_error(f"{at}.receivers has shape {recv.shape}; one dimension only",
                              f"{at}.receivers", fn)
        rl = [int(x) for x in recv.reshape(-1)]
        c = uint(t.count, f"{at}.count", fn)
        src = None if t.src_addr is None else uint(t.src_addr, f"{at}.src_addr", fn)
        dst: Optional[List[int]] = None
        dshape: Tuple[int, ...] = ()
        if t.dst_addrs is not None:
            d = uint_array(t.dst_addrs, f"{at}.dst_addrs", fn)
            dshape = d.shape
            if d.ndim > 1 or d.size not in (1, len(rl)):
                raise value_error(f"{at}.dst_addrs has {d.size} addresses for {len(rl)} "
                                  "receivers (give one, or one per receiver)",
                                  f"{at}.dst_addrs", fn)
            dst = [int(x) for x in d.reshape(-1)]
        # what the list parser checks, said here under the Python names (the
        # scheduler checks the rest: addresses, timing)
        if not 1 <= c <= MAX_COUNT:
            raise value_error(f"{at}.count {c} out of range 1..{MAX_COUNT}", f"{at}.count", fn,
                              _errno.ERANGE, "IPUXCOM_PLAN_E_COUNT")
        if not 1 <= len(rl) <= TILES - 1:
            raise value_error(f"{at}.receivers: {len(rl)} receivers, not 1..{TILES - 1}",
                              f"{at}.receivers", fn, _errno.ERANGE, "IPUXCOM_PLAN_E_NRECV")
        for name, v in [("sender", s)] + [(f"receivers[{j}]", r) for j, r in enumerate(rl)]:
            if v >= TILES:
                raise value_error(f"{at}.{name} {v} out of range 0..{TILES - 1}",
                                  f"{at}.{name}", fn, _errno.ERANGE, "IPUXCOM_PLAN_E_TILE")
        for j, r in enumerate(rl):
            if r == s:
                raise value_error(f"{at}.receivers[{j}] {r} is the sender",
                                  f"{at}.receivers[{j}]", fn, _errno.EINVAL, "IPUXCOM_PLAN_E_SELF")
            if r in rl[:j]:
                raise value_error(f"{at}.receivers[{j}] {r} duplicates receivers"
                                  f"[{rl.index(r)}]", f"{at}.receivers[{j}]", fn, _errno.EINVAL,
                                  "IPUXCOM_PLAN_E_DUP")
        return cls(s, rl, c, src, dst, dshape)

    def line(self) -> str:
        if len(self.receivers) == 1:
            s = f"p2p {self.sender} {self.receivers[0]} {self.count}"
        else:
            s = f"multicast {self.sender} {self.count} " + " ".join(map(str, self.receivers))
        if self.src_addr is not None:
            s += f" src={self.src_addr:#x}"
        if self.dst_addrs is not None:
            s += " dst=" + ",".join(f"{a:#x}" for a in self.dst_addrs)
        return s


def transfer_list(transfers: Iterable[Transfer], *, physical: bool = False) -> str:
    """The text of a transfer list (docs/exchange-verifier.md) for @transfers."""
    lines = ["physical"] if physical else []
    lines += [_Checked.of(t, i, fn="transfer_list").line() for i, t in enumerate(transfers)]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, repr=False)
class ScheduledTransfer:
    """One transfer of a list (physical ids, addresses assigned) and its slot."""
    sender: int
    receivers: Tuple[int, ...]
    count: int
    src_addr: int
    dst_addrs: Tuple[int, ...]
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

    def __repr__(self) -> str:
        return dcrepr(self, ("src_addr", "dst_addrs"))


SCHEDULE_DTYPE = np.dtype([("transfer", np.uint32), ("line", np.uint32), ("sender", np.uint16),
                           ("receiver", np.uint16), ("count", np.uint32),
                           ("src_addr", np.uint32), ("dst_addr", np.uint32),
                           ("start", np.int32), ("first_arrival", np.int32),
                           ("last_write", np.int32), ("gap", np.uint32), ("sctl", np.uint32),
                           ("items", np.uint32), ("wide", np.uint32)])
"""Schedule.as_array()'s rows: one per (transfer, receiver), physical ids."""


def _pattern(tile: int, addr: NDArray[Any]) -> U32Array:
    # the command's sched_pattern(): a recognisable source word
    a = addr.astype(np.uint64)
    out: U32Array = (((tile + 1) * 0x9E3779B9) & 0xFFFFFFFF ^ a
                     ^ (a >> np.uint64(7))).astype(np.uint32)
    return out


# the scheduler's field names ("xfers[2].dst_addr[1]") as the Python objects'
_SCHED_FIELDS = renamer([(r"^xfers\[", "transfers["), (r"\.nrecv$", ".receivers"),
                         (r"\.dst_addr\b", ".dst_addrs")])


class Schedule:
    """Transfers packed into one phase by the library's scheduler.

    s = ipuxcom.schedule(transfers | pathlib.Path) or ipuxcom.schedule_text(text)
    s.events             phase length in events
    s.transfers          each transfer with its slot (ScheduledTransfer)
    s.as_array()         the same as a structured array, a row per receiver
    s.programs()         per-tile program words (tile -> uint32 array)
    s.load(sim)          add the programs and declarations to a Simulator
    s.verify()           simulate with patterned sources: (Result, mismatches, sim)
    s.stagger(step)      the notes' fixed stagger of the same transfers, simulated
    """

    def __init__(self, lst: CData, handle: CData, timing: Optional[Timing], opts: CData):
        self._list = lst
        self._h = handle
        self._timing = timing
        self._opts = opts

    @property
    def events(self) -> int:
        """The phase's length in events (the last br $m10 + 1)."""
        return int(lib.ipuxcom_schedule_events(self._h))

    @property
    def transfers(self) -> List[ScheduledTransfer]:
        """Each transfer (physical ids, addresses assigned) with its slot."""
        out = []
        slot = new("ipuxcom_schedule_slot")
        for i in range(self._list.n):
            x = self._list.xfers[i]
            lib.ipuxcom_schedule_slot(self._h, i, slot)
            out.append(ScheduledTransfer(int(x.sender),
                                         tuple(int(x.receivers[j]) for j in range(x.nrecv)),
                                         int(x.count), int(x.src_addr),
                                         tuple(int(x.dst_addr[j]) for j in range(x.nrecv)),
                                         int(self._list.line[i]), int(slot.start),
                                         int(slot.first_arrival), int(slot.last_write),
                                         int(slot.gap), int(slot.sctl), int(slot.items),
                                         int(slot.wide)))
        return out

    def as_array(self) -> NDArray[Any]:
        """The transfers as a numpy structured array (SCHEDULE_DTYPE), one row
        per (transfer, receiver): transfer (its index in .transfers), line,
        sender, receiver, count, src_addr, dst_addr and the slot (start,
        first_arrival, last_write, gap, sctl, items, wide)."""
        rows = [(i, t.line, t.sender, r, t.count, t.src_addr, d, t.start, t.first_arrival,
                 t.last_write, t.gap, t.sctl, t.items, t.wide)
                for i, t in enumerate(self.transfers) for r, d in zip(t.receivers, t.dst_addrs)]
        return np.array(rows, dtype=SCHEDULE_DTYPE)

    def programs(self) -> Dict[int, U32Array]:
        """Physical tile -> its program's words (uint32 array)."""
        p = new("ipuxcom_xsim_program")
        out = {}
        for i in range(lib.ipuxcom_schedule_nprograms(self._h)):
            lib.ipuxcom_schedule_program(self._h, i, p)
            out[int(p.tile)] = np.frombuffer(ffi.buffer(p.words, 4 * p.nwords),
                                             dtype=np.uint32).copy()
        return out

    def load(self, sim: Simulator, *, idle: bool = False) -> None:
        """Add the programs (and with idle=True the idle row elsewhere) and declarations."""
        if not isinstance(sim, Simulator):
            raise type_error(f"sim is a {type(sim).__name__}, not an ipuxcom.Simulator", "sim",
                             "Schedule.load")
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

    def verify(self, *, log_writes: bool = True) -> Tuple[Result, int, Simulator]:
        """Simulate the packed phase with patterned source buffers, as the
        command's `plan schedule` does: (Result, destination words differing
        from their source, the Simulator for trace() and heatmap())."""
        sim = self._prepared(log_writes)
        self.load(sim)
        res = sim.run()
        return res, self._compare(sim), sim

    def stagger(self, step: int = 256, *, log_writes: bool = True
                ) -> Tuple[Result, int, Simulator]:
        """The same transfers by the notes' fixed stagger of @step events per
        transfer, simulated: (Result, mismatches, Simulator)."""
        sim = self._prepared(log_writes)
        err = plan_error()
        check_plan(lib.ipuxcom_schedule_stagger(self._opts, self._list.xfers, self._list.n,
                                                uint(step, "step", "Schedule.stagger"),
                                                sim._h, 0, err),
                   err, "ipuxcom_schedule_stagger", _SCHED_FIELDS)
        res = sim.run()
        return res, self._compare(sim), sim

    def __repr__(self) -> str:
        return f"<ipuxcom.Schedule {self._list.n} transfers, {self.events} events>"


def _text_bytes(text: object, name: str, fn: str) -> bytes:
    if isinstance(text, str):
        return text.encode()
    if isinstance(text, (bytes, bytearray, memoryview)):
        return bytes(text)
    raise type_error(f"{name} is a {type(text).__name__}, not a transfer list's text (str or "
                     "bytes)", name, fn)


def parse_list(text: Union[str, bytes], *, physical: bool = False) -> CData:
    """Parse a transfer list's text (the library's parser): the C list object."""
    b = _text_bytes(text, "text", "parse_list")
    out = ffi.new("struct ipuxcom_schedule_list **")
    err = plan_error()
    check_plan(lib.ipuxcom_schedule_list_parse(b, len(b),
                                               lib.IPUXCOM_SCHEDULE_LIST_PHYSICAL if physical
                                               else 0, out, err),
               err, "ipuxcom_schedule_list_parse")
    return ffi.gc(out[0], lib.ipuxcom_schedule_list_free)


def _build(lst: CData, exact_window: bool, legacy: bool, quick: bool, effort: int,
           timing: Optional[Timing], max_events: int, fields: Any) -> Schedule:
    opts = new("ipuxcom_schedule_opts")
    opts.timing = _tm(timing)
    # the parsed list holds physical ids
    opts.flags = (lib.IPUXCOM_SCHEDULE_PHYSICAL
                  | (lib.IPUXCOM_SCHEDULE_EXACT_WINDOW if exact_window else 0)
                  | (lib.IPUXCOM_SCHEDULE_LEGACY if legacy else 0)
                  | (lib.IPUXCOM_SCHEDULE_QUICK if quick else 0))
    opts.max_events = uint(max_events, "max_events", "schedule")
    opts.effort = uint(effort, "effort", "schedule")
    out = ffi.new("struct ipuxcom_schedule **")
    err = plan_error()
    check_plan(lib.ipuxcom_schedule_build(opts, lst.xfers, lst.n, out, err), err,
               "ipuxcom_schedule_build", fields)
    return Schedule(lst, ffi.gc(out[0], lib.ipuxcom_schedule_free), timing, opts)


def schedule_text(text: Union[str, bytes], *, physical: bool = False,
                  exact_window: bool = False, legacy: bool = False, quick: bool = False,
                  effort: int = 0, timing: Optional[Timing] = None,
                  max_events: int = 0) -> Schedule:
    """Pack the transfers of a transfer list's @text (docs/exchange-verifier.md
    "Transfer lists"; what ``ipuxcom plan schedule FILE`` reads) into one phase.

    Errors of the text name its line ("line 3: ..."); the scheduler's
    name the transfer (``transfers[2].dst_addrs[1]``, the index in
    Schedule.transfers) and say its line. Options as schedule()'s.
    """
    b = _text_bytes(text, "text", "schedule_text")
    lst = parse_list(b, physical=physical)

    def fields(cname: Optional[str]) -> Optional[str]:
        return _SCHED_FIELDS(cname)
    try:
        return _build(lst, exact_window, legacy, quick, effort, timing, max_events, fields)
    except Error as e:
        m = re.match(r"^transfers\[(\d+)\]", e.field or "")
        if m and int(m.group(1)) < lst.n:
            e.message = f"line {lst.line[int(m.group(1))]}: {e.message}"
            e.args = (e.errno, e.message)
        raise


def schedule(transfers: Union[Iterable[Transfer], "os.PathLike[str]", "os.PathLike[bytes]"],
             *, physical: bool = False, exact_window: bool = False, legacy: bool = False,
             quick: bool = False, effort: int = 0, timing: Optional[Timing] = None,
             max_events: int = 0) -> Schedule:
    """Pack transfers into one phase: Transfer objects, or the path of a
    transfer list file as an os.PathLike (``pathlib.Path("list.txt")``).
    A list's text goes to schedule_text(); a str or bytes is refused here
    (InvalidTypeError), so that text is never taken for a path nor a path
    for text.

    Ids are logical unless physical=True (a list's own "physical" line
    also switches). exact_window closes each mux right after its words;
    legacy uses issue 4's list scheduler (for comparisons); quick skips the
    default scheduler's search (one placement in the given order, or
    legacy's where shorter: for schedules built at run time). effort
    (1..65536; 0, the default: a fixed budget) bounds the search to that
    many times the first placement's work: low for run-time builds with
    most of the search's gain, high for the shortest phases. Errors name the
    Transfer by its index and member (``transfers[1].dst_addrs[0]``).
    """
    if isinstance(transfers, os.PathLike):
        return schedule_text(read_file(transfers, "transfers", "schedule"), physical=physical,
                             exact_window=exact_window, legacy=legacy, quick=quick,
                             effort=effort, timing=timing, max_events=max_events)
    if isinstance(transfers, (str, bytes, bytearray)):
        shown = transfers[:40]
        raise type_error(f"transfers is a {type(transfers).__name__} ({shown!r}): give a "
                         "transfer list's text to schedule_text(), a file's path as "
                         "pathlib.Path(...), or Transfer objects", "transfers", "schedule")
    try:
        items = list(transfers)
    except TypeError:
        raise type_error(f"transfers is a {type(transfers).__name__}, not Transfer objects "
                         "nor a path", "transfers", "schedule") from None
    checked = [_Checked.of(t, i) for i, t in enumerate(items)]
    lines = (["physical"] if physical else []) + [c.line() for c in checked]
    head = 1 if physical else 0
    try:
        lst = parse_list("\n".join(lines) + "\n")
    except Error as e:
        # only the default buffers can run out here: name the transfer
        m = re.match(r"^line (\d+): (.*)$", e.message)
        if not m:
            raise
        i = int(m.group(1)) - 1 - head
        what = "src_addr" if "source" in m.group(2) else "dst_addrs"
        e.field = f"transfers[{i}].{what}"
        e.message = f"transfers[{i}]: {m.group(2)}"
        e.args = (e.errno, e.message)
        raise

    def fields(cname: Optional[str]) -> Optional[str]:
        m = re.match(r"^xfers\[(\d+)\]\.dst_addr\[(\d+)\]$", cname or "")
        if m:
            i, j = int(m.group(1)), int(m.group(2))
            idx = _arg_index(j, (len(checked[i].receivers),), checked[i].dst_shape)
            return f"transfers[{i}].dst_addrs{index_str(idx)}"
        return _SCHED_FIELDS(cname)
    return _build(lst, exact_window, legacy, quick, effort, timing, max_events, fields)
# ------------------------------------------------------------------ pictures


def _trace(h: CData, result: Optional[Result], name: str,
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


@ffi.def_extern()  # type: ignore[misc]
def _pyx_watch_phase(ctx: CData, sim: CData, res: CData, name: CData) -> None:
    rec = ffi.from_handle(ctx)
    r = _result(sim, res)
    nm = _str(name)
    rec.append(PhaseRecord(nm, r, _trace(sim, r, nm, True) if rec.traces else None))


class _Recorder(List[PhaseRecord]):
    traces = False


def _watch(phases: Optional[_Recorder], traces: bool, log_writes: bool
           ) -> Tuple[CData, CData]:
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
    rounds = int(out.rounds)
    return DemoSum(int(out.tiles), rounds, [int(x) for x in out.transfers][:rounds],
                   [int(x) for x in out.events][:rounds], int(out.sum), int(out.expected),
                   int(out.errors), int(out.notes), bool(getattr(out, "pass")),
                   _str(out.timing_model), list(rec or []))


@dataclass
class DemoMatmul:
    """The 4x4 matrix multiply on 24 tiles (eight multicast streams)."""
    a: NDArray[np.int32]
    b: NDArray[np.int32]
    c: NDArray[np.int32]
    expected: NDArray[np.int32]
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

    def m(x: CData) -> NDArray[np.int32]:
        return np.array([[x[i][j] for j in range(4)] for i in range(4)], dtype=np.int32)

    return DemoMatmul(m(out.a), m(out.b), m(out.c), m(out.expected), int(out.active_tiles),
                      int(out.streams), int(out.words_per_stream), int(out.events),
                      int(out.stagger_events), int(out.packed_events), int(out.errors),
                      int(out.notes), bool(out.matches_notes),
                      bool(getattr(out, "pass")), _str(out.timing_model), list(rec or []))
