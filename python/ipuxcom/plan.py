# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Exchange plans: tiles, timing models, instruction words and the rows of
point-to-point, multicast, serialized fan-out, relay and idle plans
(ipuxcom_plan.h). Pure computation: nothing here touches a device."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from ._core import Error, _str, check_plan, ffi, fspath, lib, new, numbering, plan_error

TILES: int = lib.IPUXCOM_TILES
PHYS_ROWS: int = lib.IPUXCOM_PHYS_ROWS
PHYS_COLS: int = lib.IPUXCOM_PHYS_COLS
ROW_WORDS: int = lib.IPUXCOM_ROW_WORDS
MAX_COUNT: int = lib.IPUXCOM_PLAN_MAX_COUNT
SRAM_BASE: int = lib.IPUXCOM_SRAM_BASE
SRAM_SIZE: int = lib.IPUXCOM_SRAM_SIZE

_ROLES = {1: "send", 2: "recv", 3: "idle"}

ArrayLike = Union[Sequence[int], np.ndarray]


def _u32(a: ArrayLike) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.uint32)


def _ptr(a: np.ndarray, ctype: str = "uint32_t *"):
    return ffi.cast(ctype, a.ctypes.data)


# ------------------------------------------------------------------ tiles


class Tile(NamedTuple):
    """A tile under both numberings: ids, physical row and column, XOR-2 pair."""
    logical: int
    physical: int
    row: int
    column: int
    pair_physical: int
    pair_logical: int


def tile(id: int, physical: bool = False) -> Tile:
    """Describe tile @id (logical, or physical with physical=True)."""
    t = new("ipuxcom_tile")
    err = plan_error()
    check_plan(lib.ipuxcom_tile_info(id, numbering(physical), t, err), err, "ipuxcom_tile_info")
    return Tile(t.logical, t.physical, t.row, t.column, t.pair_physical, t.pair_logical)


def tile_map() -> np.ndarray:
    """Logical -> physical ids of all 1472 tiles as a uint32 array
    (``tile_map()[logical] == physical``; ``np.argsort`` gives the inverse)."""
    out = np.empty(TILES, dtype=np.uint32)
    p = ffi.new("uint32_t *")
    for i in range(TILES):
        lib.ipuxcom_tile_physical(i, p)
        out[i] = p[0]
    return out


def physical_id(logical: int) -> int:
    """The physical id of logical tile @logical."""
    p = ffi.new("uint32_t *")
    err = plan_error()
    rc = lib.ipuxcom_tile_physical(logical, p)
    check_plan(rc, err, "ipuxcom_tile_physical")
    return p[0]


_LOGICAL: list = []


def _logical_of(physical: int) -> int:
    # rows carry physical ids; their logical ids from a table made once
    if not _LOGICAL:
        p = ffi.new("uint32_t *")
        for i in range(TILES):
            lib.ipuxcom_tile_logical(i, p)
            _LOGICAL.append(p[0])
    return _LOGICAL[physical]


def logical_id(physical: int) -> int:
    """The logical id of physical tile @physical."""
    p = ffi.new("uint32_t *")
    err = plan_error()
    check_plan(lib.ipuxcom_tile_logical(physical, p), err, "ipuxcom_tile_logical")
    return p[0]


# ------------------------------------------------------------------ timing


class Timing:
    """A timing model: TimeToMux and route direction between physical tiles.

    ``Timing.default()`` is the public reconstruction (HW-TIMETOMUX in
    docs/hardware-record.md, [RE]);
    ``Timing.load(path)`` reads a table file; ``Timing.from_table(ttm,
    direction, name)`` takes a 1472x1472 int16 array (and optionally uint8
    directions). Every plan function takes ``timing=`` (None: the default).
    """

    def __init__(self, handle, owned: bool):
        self._h = handle
        self._owned = owned

    @classmethod
    def default(cls) -> "Timing":
        return cls(lib.ipuxcom_timing_default(), False)

    @classmethod
    def load(cls, path: Union[str, os.PathLike]) -> "Timing":
        out = ffi.new("struct ipuxcom_timing **")
        err = plan_error()
        check_plan(lib.ipuxcom_timing_load(fspath(path), out, err), err, "ipuxcom_timing_load")
        return cls(out[0], True)

    @classmethod
    def from_table(cls, time_to_mux: np.ndarray, direction: Optional[np.ndarray] = None,
                   name: Optional[str] = None) -> "Timing":
        ttm = np.ascontiguousarray(time_to_mux, dtype=np.int16)
        if ttm.size != TILES * TILES:
            raise Error(22, f"time_to_mux has {ttm.size} values, not 1472 * 1472",
                        "time_to_mux", None, "invalid argument", "Timing.from_table")
        d = ffi.NULL
        if direction is not None:
            dirs = np.ascontiguousarray(direction, dtype=np.uint8)
            if dirs.size != TILES * TILES:
                raise Error(22, f"direction has {dirs.size} values, not 1472 * 1472",
                            "direction", None, "invalid argument", "Timing.from_table")
            d = _ptr(dirs, "uint8_t *")
        out = ffi.new("struct ipuxcom_timing **")
        err = plan_error()
        check_plan(lib.ipuxcom_timing_from_table(_ptr(ttm, "int16_t *"), d,
                                                 name.encode() if name else ffi.NULL, out, err),
                   err, "ipuxcom_timing_from_table")
        return cls(out[0], True)

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Write the model as a table file (round-trips through load())."""
        err = plan_error()
        check_plan(lib.ipuxcom_timing_save(self._h, fspath(path), 0, err), err,
                   "ipuxcom_timing_save")

    @property
    def name(self) -> str:
        """"reconstruction" or "table:NAME"."""
        return _str(lib.ipuxcom_timing_name(self._h))

    @property
    def kind(self) -> str:
        return {1: "reconstruction", 2: "table"}.get(lib.ipuxcom_timing_kind(self._h), "?")

    def time_to_mux(self, src: int, dst: int) -> int:
        """TimeToMux(src, dst), physical ids."""
        out = ffi.new("int *")
        err = plan_error()
        check_plan(lib.ipuxcom_time_to_mux(self._h, src, dst, out, err), err,
                   "ipuxcom_time_to_mux")
        return out[0]

    def direction(self, src: int, dst: int) -> int:
        """The send direction (1 or 2) from physical @src to @dst."""
        out = ffi.new("unsigned int *")
        err = plan_error()
        check_plan(lib.ipuxcom_route_direction(self._h, src, dst, out, err), err,
                   "ipuxcom_route_direction")
        return out[0]

    def close(self) -> None:
        if self._owned and self._h != ffi.NULL:
            lib.ipuxcom_timing_free(self._h)
        self._h = ffi.NULL
        self._owned = False

    def __del__(self):
        self.close()

    def __repr__(self) -> str:
        return f"<ipuxcom.Timing {self.name}>"


def _tm(timing: Optional[Timing]):
    return lib.ipuxcom_timing_default() if timing is None else timing._h


# ------------------------------------------------------------------ words


def disasm(words: ArrayLike) -> List[str]:
    """Disassemble instruction words, one line per instruction
    ("delayxpic 0, 0, 0x640", ".word 0x12345678"); a sendpicp takes two."""
    w = _u32(words)
    buf = ffi.new("char[128]")
    used = ffi.new("size_t *")
    out = []
    i = 0
    while i < len(w):
        lib.ipuxcom_disasm_insn(_ptr(w[i:]), len(w) - i, buf, 128, used)
        out.append(_str(buf))
        i += max(1, used[0])
    return out


@dataclass
class Insn:
    """A decoded instruction: op name, encoder fields f, flags and controls."""
    op: str
    nwords: int
    fields: Tuple[int, ...]
    sctl: int
    events: int
    src_word: int
    text: str


def decode(words: ArrayLike) -> List[Insn]:
    """Decode instruction words (strictly: unknown words are op ".word")."""
    w = _u32(words)
    d = new("ipuxcom_decoded")
    buf = ffi.new("char[128]")
    out = []
    i = 0
    while i < len(w):
        n = lib.ipuxcom_decode_insn(_ptr(w[i:]), len(w) - i, d)
        lib.ipuxcom_disasm_insn(_ptr(w[i:]), len(w) - i, buf, 128, ffi.NULL)
        out.append(Insn(_str(lib.ipuxcom_op_name(d.op)), d.nwords, tuple(d.f), d.sctl,
                        d.events, d.src_word, _str(buf)))
        i += max(1, n)
    return out


def encode(op: str, *fields: int) -> np.ndarray:
    """Encode one instruction from its encoder's fields, e.g.
    ``encode("delayxpic", 112, 0, 0)``; one or two words (sendpicp)."""
    d = new("ipuxcom_decoded")
    for code in range(64):
        if _str(lib.ipuxcom_op_name(code)) == op:
            d.op = code
            break
    else:
        raise Error(22, f"op {op!r} unknown", "op", None, "invalid argument", "encode")
    for i, v in enumerate(fields):
        d.f[i] = v
    words = np.zeros(2, dtype=np.uint32)
    err = plan_error()
    n = check_plan(lib.ipuxcom_encode_insn(d, _ptr(words), err), err, "ipuxcom_encode_insn")
    return words[:n]


# ------------------------------------------------------------------ rows


@dataclass
class Row:
    """One tile's nine-word plan row.

    words   numpy uint32 array of the nine words (zero padding after nwords)
    tile    physical id; logical: its logical id
    role    "send", "recv" or "idle"
    patch   receiver: the index of the run-time patched word, else None
    addr    multicast: the index of the SRAM address word, else None
    event   the event model's event (sender: first send; receiver: arrival)
    """
    words: np.ndarray
    tile: int
    logical: int
    role: str
    nwords: int
    patch: Optional[int]
    addr: Optional[int]
    event: int
    _c: object = field(repr=False, compare=False, default=None)
    _owner: object = field(repr=False, compare=False, default=None)

    @classmethod
    def _from_c(cls, r, keep=None) -> "Row":
        """A Row of struct ipuxcom_plan_row @r; @keep: the C object owning @r
        (else @r is copied)."""
        c = r if keep is not None else ffi.new("struct ipuxcom_plan_row *", r)
        return cls(np.frombuffer(ffi.buffer(c.words), dtype=np.uint32).copy(), c.tile,
                   _logical_of(c.tile), _ROLES.get(c.role, "?"), c.nwords,
                   None if c.patch < 0 else c.patch, None if c.addr < 0 else c.addr, c.event,
                   c, keep)

    def lines(self) -> List[str]:
        """Each word's disassembly with what it means in the row:
        "delayxpic 112, 0, 0x0  ; mux <- sender (patched at run time)"."""
        buf = ffi.new("char[256]")
        out = []
        for i in range(ROW_WORDS):
            lib.ipuxcom_plan_row_disasm(self._c, i, buf, 256)
            out.append(_str(buf))
        return out

    def asm(self) -> List[str]:
        """Each word's instruction text (the command's JSON "asm")."""
        return [ln.split(";")[0].rstrip() for ln in self.lines()]

    def comments(self) -> List[Optional[str]]:
        """Each word's comment or None (the command's JSON "comment")."""
        return [ln.split(";", 1)[1].strip() if ";" in ln else None for ln in self.lines()]

    def __str__(self) -> str:
        head = f"{self.role} row, tile {self.logical} (physical {self.tile})"
        return "\n".join([head] + [f"  {w:08x}  {t}" for w, t in zip(self.words, self.lines())])


@dataclass
class P2PPlan:
    """A point-to-point plan: the sender's and the receiver's rows."""
    send: Row
    recv: Row
    count: int
    time_to_mux: int
    direction: int
    sync_boundary: bool
    timing_model: str
    wide: Optional[dict] = None
    _c: object = field(repr=False, compare=False, default=None)

    def __str__(self) -> str:
        return (f"p2p {self.count} words, TimeToMux {self.time_to_mux}, direction "
                f"{self.direction}, timing {self.timing_model}\n{self.send}\n{self.recv}")


def _p2p_from_c(p, wide=None) -> P2PPlan:
    keep = p
    return P2PPlan(Row._from_c(ffi.addressof(keep, "send"), keep),
                   Row._from_c(ffi.addressof(keep, "recv"), keep), keep.count,
                   keep.time_to_mux, keep.direction, bool(keep.sync_boundary),
                   _str(keep.timing_model), wide, keep)


def plan_p2p(sender: int, receiver: int, count: int, *, physical: bool = False,
             timing: Optional[Timing] = None, wide: bool = False,
             src_addr: int = 0x50000, dst_addr: int = 0x50000) -> P2PPlan:
    """Plan @count words (1..4148) from @sender to @receiver.

    Ids are logical unless physical=True (rows always carry physical ids).
    wide=True: a 64-bit route when the transfer allows it (even count,
    8-byte aligned @src_addr/@dst_addr, the receiver owns its pair's XPIC
    stream), else the 32-bit plan; .wide then says which and why.
    """
    out = new("ipuxcom_p2p_plan")
    err = plan_error()
    flags = numbering(physical)
    if not wide:
        check_plan(lib.ipuxcom_plan_p2p(_tm(timing), sender, receiver, count, flags, out, err),
                   err, "ipuxcom_plan_p2p")
        return _p2p_from_c(out)
    info = new("ipuxcom_p2p_wide_info")
    check_plan(lib.ipuxcom_plan_p2p_wide(_tm(timing), sender, receiver, count, src_addr,
                                         dst_addr, flags | lib.IPUXCOM_PLAN_WIDE, out, info,
                                         err), err, "ipuxcom_plan_p2p_wide")
    w = dict(items=info.items, partner=info.partner, time_to_mux=info.time_to_mux,
             partner_time_to_mux=info.partner_time_to_mux, pair_time=info.pair_time,
             xpic_owner=info.xpic_owner, sctl=info.sctl,
             route="64-bit" if info.wide == 0 else "32-bit",
             why=None if info.wide == 0 else _str(lib.ipuxcom_plan_wide_str(info.wide)))
    return _p2p_from_c(out, w)


def plan_p2p_batch(senders: ArrayLike, receivers: ArrayLike, counts: Union[int, ArrayLike],
                   *, physical: bool = False, timing: Optional[Timing] = None,
                   out: Optional[Tuple[np.ndarray, np.ndarray]] = None
                   ) -> Tuple[np.ndarray, np.ndarray]:
    """Plan many p2p transfers in one call.

    Returns (send_rows, recv_rows): uint32 arrays of shape (n, 9), row i
    the words of transfer i's plan, word for word those of plan_p2p().
    @out: two such arrays (C-contiguous uint32) to fill instead of new
    ones, for repeated batches. A failure raises Error naming the
    transfer ("transfers[i]: ..."); rows before it are filled.
    """
    s = _u32(senders)
    r = _u32(receivers)
    c = _u32(np.broadcast_to(np.asarray(counts, dtype=np.uint32), s.shape))
    if r.shape != s.shape:
        raise Error(22, f"receivers has {r.size} entries, senders {s.size}", "receivers",
                    None, "invalid argument", "plan_p2p_batch")
    n = s.size
    if out is None:
        send = np.empty((n, ROW_WORDS), dtype=np.uint32)
        recv = np.empty((n, ROW_WORDS), dtype=np.uint32)
    else:
        send, recv = out
        for a in out:
            if (a.dtype != np.uint32 or a.shape != (n, ROW_WORDS)
                    or not a.flags["C_CONTIGUOUS"]):
                raise Error(22, f"out arrays must be C-contiguous uint32 of shape ({n}, 9)",
                            "out", None, "invalid argument", "plan_p2p_batch")
    failed = ffi.new("size_t *")
    err = plan_error()
    rc = lib.pyx_plan_p2p_batch(_tm(timing), _ptr(s), _ptr(r), _ptr(c), n, numbering(physical),
                                _ptr(send), _ptr(recv), failed, err)
    if rc < 0:
        try:
            check_plan(rc, err, "ipuxcom_plan_p2p")
        except Error as e:
            e.message = f"transfers[{failed[0]}]: {e.message}"
            e.args = (e.errno, e.message)
            e.field = f"transfers[{failed[0]}].{e.field}" if e.field else None
            raise
    return send, recv


# ------------------------------------------------------------------ fan-out


class _Req:
    """A struct ipuxcom_fanout_req with its arrays kept alive."""

    def __init__(self, sender, receivers, count, physical, src_addr=0, dst_addrs=None,
                 schedule_offset=0, wide=False):
        self.recv = _u32(receivers)
        self.dst = _u32(dst_addrs) if dst_addrs is not None else None
        self.req = new("ipuxcom_fanout_req")
        self.req.sender = sender
        self.req.count = count
        self.req.flags = numbering(physical) | (lib.IPUXCOM_PLAN_WIDE if wide else 0)
        self.req.nrecv = self.recv.size
        self.req.receivers = _ptr(self.recv)
        self.req.src_addr = src_addr
        self.req.schedule_offset = schedule_offset
        self.req.dst_addr = _ptr(self.dst) if self.dst is not None else ffi.NULL


@dataclass
class FanoutPlan:
    """Rows of a multicast or serialized fan-out: rows[0] the sender's,
    rows[1 + i] receivers[i]'s; info: the planner's numbers."""
    method: str
    rows: List[Row]
    info: dict
    _req: object = field(repr=False, compare=False, default=None)
    _crows: object = field(repr=False, compare=False, default=None)

    @property
    def words(self) -> np.ndarray:
        """All rows' words as a (nrows, 9) uint32 array."""
        return np.stack([r.words for r in self.rows])

    def __str__(self) -> str:
        return f"{self.method}: {self.info}\n" + "\n".join(str(r) for r in self.rows)


def plan_multicast(sender: int, receivers: ArrayLike, count: int, *, src_addr: int,
                   dst_addrs: ArrayLike, schedule_offset: int = 0, wide: bool = False,
                   physical: bool = False, timing: Optional[Timing] = None) -> FanoutPlan:
    """Multicast (one mode-3 stream, one receive row per destination);
    absolute tile SRAM byte addresses @src_addr and @dst_addrs (one per
    receiver)."""
    rq = _Req(sender, receivers, count, physical, src_addr, dst_addrs, schedule_offset, wide)
    n = rq.recv.size + 1
    rows = ffi.new("struct ipuxcom_plan_row[]", n)
    info = new("ipuxcom_multicast_info")
    err = plan_error()
    check_plan(lib.ipuxcom_plan_multicast(_tm(timing), rq.req, rows, n, info, err), err,
               "ipuxcom_plan_multicast")
    d = dict(min_t=info.min_t, max_t=info.max_t, start=info.start, send_delay=info.send_delay,
             max_recv_time=info.max_recv_time, timing_model=_str(info.timing_model))
    if wide:
        d.update(sctl=info.sctl, items=info.items,
                 route="64-bit" if info.wide == 0 else "32-bit",
                 why=None if info.wide == 0 else _str(lib.ipuxcom_plan_wide_str(info.wide)))
    return FanoutPlan("multicast", [Row._from_c(rows[i]) for i in range(n)], d, rq, rows)


def plan_serialized(sender: int, receivers: ArrayLike, count: int, *, physical: bool = False,
                    timing: Optional[Timing] = None) -> FanoutPlan:
    """Serialized fan-out: back-to-back p2p sends in one sender row."""
    rq = _Req(sender, receivers, count, physical)
    n = rq.recv.size + 1
    rows = ffi.new("struct ipuxcom_plan_row[]", n)
    info = new("ipuxcom_serialized_info")
    err = plan_error()
    check_plan(lib.ipuxcom_plan_serialized(_tm(timing), rq.req, rows, n, info, err), err,
               "ipuxcom_plan_serialized")
    d = dict(first_send=info.first_send, max_recv_time=info.max_recv_time,
             timing_model=_str(info.timing_model))
    return FanoutPlan("serialized", [Row._from_c(rows[i]) for i in range(n)], d, rq, rows)


class RelayStep(NamedTuple):
    round: int
    sender: int
    receiver: int


def plan_relay(sender: int, receivers: ArrayLike, count: int, *,
               physical: bool = False) -> List[RelayStep]:
    """Relay tree: p2p transfers in ceil(log2(N + 1)) rounds (physical ids)."""
    rq = _Req(sender, receivers, count, physical)
    n = rq.recv.size
    steps = ffi.new("struct ipuxcom_relay_step[]", max(n, 1))
    rounds = ffi.new("uint32_t *")
    err = plan_error()
    check_plan(lib.ipuxcom_plan_relay(rq.req, steps, n, rounds, err), err, "ipuxcom_plan_relay")
    return [RelayStep(steps[i].round, steps[i].sender, steps[i].receiver) for i in range(n)]


_METHODS = {"multicast": 1, "serialized": 2, "relay": 4}


@dataclass
class Dispatch:
    """The fan-out dispatcher's choice and each candidate's cost."""
    chosen: str
    reason: str
    candidates: List[dict]


def plan_fanout(sender: int, receivers: ArrayLike, count: int, *,
                methods: Iterable[str] = ("multicast", "serialized", "relay"),
                src_addr: int = 0x50000, dst_addrs: Optional[ArrayLike] = None,
                physical: bool = False, timing: Optional[Timing] = None) -> Dispatch:
    """Choose multicast, serialized fan-out or relay tree by the cost model.

    The multicast candidate needs addresses: @src_addr and @dst_addrs
    default to 0x50000 each (the command's placeholders)."""
    bits = 0
    for m in methods:
        if m not in _METHODS:
            raise Error(22, f"method {m!r} unknown", "methods", None, "invalid argument",
                        "plan_fanout")
        bits |= _METHODS[m]
    recv = _u32(receivers)
    if dst_addrs is None:
        dst_addrs = np.full(recv.size, 0x50000, dtype=np.uint32)
    rq = _Req(sender, recv, count, physical, src_addr, dst_addrs)
    out = new("ipuxcom_dispatch")
    err = plan_error()
    check_plan(lib.ipuxcom_plan_dispatch(_tm(timing), rq.req, bits, out, err), err,
               "ipuxcom_plan_dispatch")
    cands = []
    for c in out.cand:
        cands.append(dict(method=_str(lib.ipuxcom_fanout_method_name(c.method)),
                          feasible=c.reject == 0, launches=c.launches, copies=c.copies,
                          cycles=c.cycles, total=c.total, why=_str(c.why)))
    return Dispatch(_str(lib.ipuxcom_fanout_method_name(out.chosen)), _str(out.reason), cands)


def plan_idle(tile_id: int, *, raw: bool = False, physical: bool = False) -> Row:
    """The non-participation row (sans; sync 1; br $m10, or raw: no br)."""
    row = new("ipuxcom_plan_row")
    err = plan_error()
    flags = numbering(physical) | (lib.IPUXCOM_IDLE_RAW if raw else 0)
    check_plan(lib.ipuxcom_plan_idle(tile_id, flags, row, err), err, "ipuxcom_plan_idle")
    return Row._from_c(row[0])


# ------------------------------------------------------------------ patches


def patch_index(words: ArrayLike) -> int:
    """The index of a receiver row's patched word: 1 + words[0]."""
    w = _u32(words)
    idx = ffi.new("size_t *")
    err = plan_error()
    check_plan(lib.ipuxcom_patch_index(_ptr(w), w.size, idx, err), err, "ipuxcom_patch_index")
    return idx[0]


def _patched(fn, name, words, *args) -> np.ndarray:
    w = _u32(words).copy()
    err = plan_error()
    check_plan(fn(_ptr(w), w.size, *args, err), err, name)
    return w


def patch_recv(words: ArrayLike, sender_logical: int) -> np.ndarray:
    """JDLRecv: a copy of the row with the sender's physical id in the patched delayxpic."""
    return _patched(lib.ipuxcom_patch_recv, "ipuxcom_patch_recv", words, sender_logical)


def patch_recv_restore(words: ArrayLike) -> np.ndarray:
    """JDLRecv's restore (andc 0x1fff), on a copy."""
    return _patched(lib.ipuxcom_patch_recv_restore, "ipuxcom_patch_recv_restore", words)


def patch_mcast_src(words: ArrayLike, src_addr: int) -> np.ndarray:
    """NoBlobMulticastSend: a copy with the send address set to @src_addr."""
    return _patched(lib.ipuxcom_patch_mcast_src, "ipuxcom_patch_mcast_src", words, src_addr)


def patch_mcast_dst(words: ArrayLike, dst_addr: int) -> np.ndarray:
    """NoBlobMulticastRecv: a copy with the delaypic pointing at @dst_addr."""
    return _patched(lib.ipuxcom_patch_mcast_dst, "ipuxcom_patch_mcast_dst", words, dst_addr)


def patch_send_base(data: int, element_selector: int) -> int:
    """JDLSend: OUTGOING_BASE = data + element_selector * 4 (checked)."""
    out = ffi.new("uint32_t *")
    err = plan_error()
    check_plan(lib.ipuxcom_patch_send_base(data, element_selector, out, err), err,
               "ipuxcom_patch_send_base")
    return out[0]
