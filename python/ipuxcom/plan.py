# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Exchange plans: tiles, timing models, instruction words and the rows of
point-to-point, multicast, serialized fan-out, relay and idle plans
(ipuxcom_plan.h). Pure computation: nothing here touches a device.

Integer arguments are checked before they reach C: integers (Python's,
numpy's) that fit the C type are taken; floats, strings and other objects
raise InvalidTypeError, negative or too large values InvalidValueError,
each naming the argument (and, for arrays, the element) by its Python
name."""
from __future__ import annotations

import errno as _errno
import os
import re
from dataclasses import dataclass, field
from typing import (Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple,
                    Union)

import numpy as np
from numpy.typing import NDArray

from ._core import (CData, Error, U32Array, _str, check_plan, ffi, fspath, index_str, lib,
                    new, numbering, plan_error, renamer, type_error, u32_array, uint,
                    uint_array, value_error)

__all__ = ["TILES", "PHYS_ROWS", "PHYS_COLS", "ROW_WORDS", "MAX_COUNT", "SRAM_BASE",
           "SRAM_SIZE", "MCAST_DST_BASE", "Tile", "tile", "tile_map", "physical_id",
           "logical_id", "Timing", "disasm", "Insn", "decode", "encode", "Row", "P2PPlan",
           "plan_p2p", "plan_p2p_batch", "FanoutPlan", "plan_multicast", "plan_serialized",
           "RelayStep", "plan_relay", "Dispatch", "plan_fanout", "plan_idle", "patch_index",
           "patch_recv", "patch_recv_restore", "patch_mcast_src", "patch_mcast_dst",
           "patch_send_base"]

TILES: int = int(lib.IPUXCOM_TILES)
PHYS_ROWS: int = int(lib.IPUXCOM_PHYS_ROWS)
PHYS_COLS: int = int(lib.IPUXCOM_PHYS_COLS)
ROW_WORDS: int = int(lib.IPUXCOM_ROW_WORDS)
MAX_COUNT: int = int(lib.IPUXCOM_PLAN_MAX_COUNT)
SRAM_BASE: int = int(lib.IPUXCOM_SRAM_BASE)
SRAM_SIZE: int = int(lib.IPUXCOM_SRAM_SIZE)
MCAST_DST_BASE: int = int(lib.IPUXCOM_MCAST_DST_BASE)
"""The command's default multicast addresses (0x50000): placeholders the
vertices patch at run time."""

_ROLES = {1: "send", 2: "recv", 3: "idle"}

ArrayLike = Union[int, Sequence[int], NDArray[Any]]
"""An integer, a sequence of integers or an integer numpy array."""

PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def _u32(a: object, name: str = "words", function: str = "") -> U32Array:
    """@a (words, ids) as a one-dimensional uint32 array, checked (uint_array())."""
    return u32_array(a, name, function)


def _ptr(a: NDArray[Any], ctype: str = "uint32_t *") -> CData:
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


def tile(id: int, physical: bool = False) -> Tile:  # noqa: A002 (the documented name)
    """Describe tile @id (logical, or physical with physical=True)."""
    t = new("ipuxcom_tile")
    err = plan_error()
    check_plan(lib.ipuxcom_tile_info(uint(id, "id", "tile"), numbering(physical), t, err), err,
               "ipuxcom_tile_info", renamer([("^tile", "id")]))
    return Tile(int(t.logical), int(t.physical), int(t.row), int(t.column),
                int(t.pair_physical), int(t.pair_logical))


def tile_map() -> U32Array:
    """Logical -> physical ids of all 1472 tiles as a uint32 array
    (``tile_map()[logical] == physical``; ``np.argsort`` gives the inverse)."""
    out = np.empty(TILES, dtype=np.uint32)
    p = ffi.new("uint32_t *")
    for i in range(TILES):
        lib.ipuxcom_tile_physical(i, p)
        out[i] = p[0]
    return out


def _tile_id(fn: CData, value: object, name: str, function: str, numbering_: str) -> int:
    v = uint(value, name, function)
    p = ffi.new("uint32_t *")
    rc = int(fn(v, p))
    if rc < 0:
        raise value_error(f"{name} {v} out of range 0..{TILES - 1} ({numbering_})", name,
                          function, -rc, "IPUXCOM_PLAN_E_TILE")
    return int(p[0])


def physical_id(logical: int) -> int:
    """The physical id of logical tile @logical."""
    return _tile_id(lib.ipuxcom_tile_physical, logical, "logical", "ipuxcom_tile_physical",
                    "logical")


_LOGICAL: List[int] = []


def _logical_of(physical: int) -> int:
    # rows carry physical ids; their logical ids from a table made once
    if not _LOGICAL:
        p = ffi.new("uint32_t *")
        for i in range(TILES):
            lib.ipuxcom_tile_logical(i, p)
            _LOGICAL.append(int(p[0]))
    return _LOGICAL[physical]


def logical_id(physical: int) -> int:
    """The logical id of physical tile @physical."""
    return _tile_id(lib.ipuxcom_tile_logical, physical, "physical", "ipuxcom_tile_logical",
                    "physical")


# ------------------------------------------------------------------ timing


def _int16_table(value: object, name: str) -> NDArray[np.int16]:
    a = np.asarray(value)
    if a.dtype.kind not in "iub":
        raise type_error(f"{name} is a {a.dtype} array, not integers (numpy's same_kind "
                         f"casting refuses {a.dtype} -> int16)", name, "Timing.from_table")
    if a.size and (a.min() < -32768 or a.max() > 32767):
        i = int(np.flatnonzero((a < -32768) | (a > 32767))[0])
        idx = tuple(int(j) for j in np.unravel_index(i, a.shape))
        raise value_error(f"{name}{index_str(idx)} {a[idx]} out of range -32768..32767 "
                          "(int16)", name + index_str(idx), "Timing.from_table",
                          _errno.ERANGE)
    out: NDArray[np.int16] = np.ascontiguousarray(a, dtype=np.int16)
    return out


class Timing:
    """A timing model: TimeToMux and route direction between physical tiles.

    ``Timing.default()`` is the public reconstruction (HW-TIMETOMUX in
    docs/hardware-record.md, [RE]);
    ``Timing.load(path)`` reads a table file; ``Timing.from_table(ttm,
    direction, name)`` takes a 1472x1472 int16 array (and optionally uint8
    directions). Every plan function takes ``timing=`` (None: the default).
    """

    _h: CData = ffi.NULL
    _owned: bool = False

    def __init__(self, handle: CData, owned: bool):
        self._h = handle
        self._owned = owned

    @classmethod
    def default(cls) -> "Timing":
        """The library's built-in model (the public reconstruction)."""
        return cls(lib.ipuxcom_timing_default(), False)

    @classmethod
    def load(cls, path: PathArg) -> "Timing":
        """Read a timing table file (what save() writes)."""
        out = ffi.new("struct ipuxcom_timing **")
        err = plan_error()
        check_plan(lib.ipuxcom_timing_load(fspath(path, "path", "Timing.load"), out, err), err,
                   "ipuxcom_timing_load")
        return cls(out[0], True)

    @classmethod
    def from_table(cls, time_to_mux: NDArray[Any], direction: Optional[NDArray[Any]] = None,
                   name: Optional[str] = None) -> "Timing":
        """A model from a 1472 x 1472 TimeToMux table (int16, [src, dst] by
        physical ids) and optionally the route directions (uint8, 1 or 2)."""
        ttm = _int16_table(time_to_mux, "time_to_mux")
        if ttm.size != TILES * TILES:
            raise value_error(f"time_to_mux has {ttm.size} values, not 1472 * 1472",
                              "time_to_mux", "Timing.from_table")
        d = ffi.NULL
        if direction is not None:
            dirs = uint_array(direction, "direction", "Timing.from_table", bits=8)
            if dirs.size != TILES * TILES:
                raise value_error(f"direction has {dirs.size} values, not 1472 * 1472",
                                  "direction", "Timing.from_table")
            d = _ptr(dirs, "uint8_t *")
        if name is not None and not isinstance(name, str):
            raise type_error(f"name is a {type(name).__name__}, not a str", "name",
                             "Timing.from_table")
        out = ffi.new("struct ipuxcom_timing **")
        err = plan_error()
        check_plan(lib.ipuxcom_timing_from_table(_ptr(ttm, "int16_t *"), d,
                                                 name.encode() if name else ffi.NULL, out, err),
                   err, "ipuxcom_timing_from_table")
        return cls(out[0], True)

    def save(self, path: PathArg) -> None:
        """Write the model as a table file (round-trips through load())."""
        err = plan_error()
        check_plan(lib.ipuxcom_timing_save(self._h, fspath(path, "path", "Timing.save"), 0,
                                           err), err, "ipuxcom_timing_save")

    @property
    def name(self) -> str:
        """"reconstruction" or "table:NAME"."""
        return _str(lib.ipuxcom_timing_name(self._h))

    @property
    def kind(self) -> str:
        """Where the model comes from: "reconstruction" or "table"."""
        return {1: "reconstruction", 2: "table"}.get(int(lib.ipuxcom_timing_kind(self._h)), "?")

    def time_to_mux(self, src: int, dst: int) -> int:
        """TimeToMux(src, dst), physical ids."""
        out = ffi.new("int *")
        err = plan_error()
        check_plan(lib.ipuxcom_time_to_mux(self._h, uint(src, "src", "Timing.time_to_mux"),
                                           uint(dst, "dst", "Timing.time_to_mux"), out, err),
                   err, "ipuxcom_time_to_mux")
        return int(out[0])

    def direction(self, src: int, dst: int) -> int:
        """The send direction (1 or 2) from physical @src to @dst."""
        out = ffi.new("unsigned int *")
        err = plan_error()
        check_plan(lib.ipuxcom_route_direction(self._h, uint(src, "src", "Timing.direction"),
                                               uint(dst, "dst", "Timing.direction"), out, err),
                   err, "ipuxcom_route_direction")
        return int(out[0])

    def close(self) -> None:
        """Free a loaded or built model now (the default one is never freed)."""
        if self._owned and self._h != ffi.NULL:
            lib.ipuxcom_timing_free(self._h)
        self._h = ffi.NULL
        self._owned = False

    def __del__(self) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ipuxcom.Timing {self.name}>"


def _tm(timing: Optional[Timing]) -> CData:
    if timing is None:
        return lib.ipuxcom_timing_default()
    if not isinstance(timing, Timing):
        raise type_error(f"timing is a {type(timing).__name__}, not an ipuxcom.Timing",
                         "timing", "plan")
    return timing._h


# ------------------------------------------------------------------ words


def disasm(words: ArrayLike) -> List[str]:
    """Disassemble instruction words, one line per instruction
    ("delayxpic 0, 0, 0x640", ".word 0x12345678"); a sendpicp takes two."""
    w = _u32(words, "words", "disasm")
    buf = ffi.new("char[128]")
    used = ffi.new("size_t *")
    out = []
    i = 0
    while i < len(w):
        lib.ipuxcom_disasm_insn(_ptr(w[i:]), len(w) - i, buf, 128, used)
        out.append(_str(buf))
        i += max(1, int(used[0]))
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
    w = _u32(words, "words", "decode")
    d = new("ipuxcom_decoded")
    buf = ffi.new("char[128]")
    out = []
    i = 0
    while i < len(w):
        n = int(lib.ipuxcom_decode_insn(_ptr(w[i:]), len(w) - i, d))
        lib.ipuxcom_disasm_insn(_ptr(w[i:]), len(w) - i, buf, 128, ffi.NULL)
        out.append(Insn(_str(lib.ipuxcom_op_name(d.op)), int(d.nwords),
                        tuple(int(x) for x in d.f), int(d.sctl), int(d.events),
                        int(d.src_word), _str(buf)))
        i += max(1, n)
    return out


def encode(op: str, *fields: int) -> U32Array:
    """Encode one instruction from its encoder's fields, e.g.
    ``encode("delayxpic", 112, 0, 0)``; one or two words (sendpicp)."""
    d = new("ipuxcom_decoded")
    if not isinstance(op, str):
        raise type_error(f"op is a {type(op).__name__}, not a str", "op", "encode")
    for code in range(64):
        if _str(lib.ipuxcom_op_name(code)) == op:
            d.op = code
            break
    else:
        raise value_error(f"op {op!r} unknown", "op", "encode")
    if len(fields) > len(d.f):
        raise value_error(f"{len(fields)} fields; an instruction has at most {len(d.f)}",
                          "fields", "encode")
    for i, v in enumerate(fields):
        d.f[i] = uint(v, f"fields[{i}]", "encode")
    words = np.zeros(2, dtype=np.uint32)
    err = plan_error()
    n = check_plan(lib.ipuxcom_encode_insn(d, _ptr(words), err), err, "ipuxcom_encode_insn")
    return words[:n]


# ------------------------------------------------------------------ rows


@dataclass
class Row:
    """One tile's nine-word plan row; ``np.asarray(row)`` is its words.

    words   numpy uint32 array of the nine words (zero padding after nwords)
    tile    physical id; logical: its logical id
    role    "send", "recv" or "idle"
    patch   receiver: the index of the run-time patched word, else None
    addr    multicast: the index of the SRAM address word, else None
    event   the event model's event (sender: first send; receiver: arrival)
    """
    words: U32Array
    tile: int
    logical: int
    role: str
    nwords: int
    patch: Optional[int]
    addr: Optional[int]
    event: int
    _c: CData = field(repr=False, compare=False, default=None)
    _owner: CData = field(repr=False, compare=False, default=None)

    @classmethod
    def _from_c(cls, r: CData, keep: CData = None) -> "Row":
        """A Row of struct ipuxcom_plan_row @r; @keep: the C object owning @r
        (else @r is copied)."""
        c = r if keep is not None else ffi.new("struct ipuxcom_plan_row *", r)
        return cls(np.frombuffer(ffi.buffer(c.words), dtype=np.uint32).copy(), int(c.tile),
                   _logical_of(int(c.tile)), _ROLES.get(int(c.role), "?"), int(c.nwords),
                   None if c.patch < 0 else int(c.patch), None if c.addr < 0 else int(c.addr),
                   int(c.event), c, keep)

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

    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> NDArray[Any]:
        return self.words if dtype is None else self.words.astype(dtype)

    def __str__(self) -> str:
        head = f"{self.role} row, tile {self.logical} (physical {self.tile})"
        return "\n".join([head] + [f"  {w:08x}  {t}" for w, t in zip(self.words, self.lines())])


@dataclass
class P2PPlan:
    """A point-to-point plan: the sender's and the receiver's rows;
    ``np.asarray(plan)`` is their words, a (2, 9) uint32 array."""
    send: Row
    recv: Row
    count: int
    time_to_mux: int
    direction: int
    sync_boundary: bool
    timing_model: str
    wide: Optional[Dict[str, Any]] = None
    _c: CData = field(repr=False, compare=False, default=None)

    @property
    def words(self) -> U32Array:
        """Both rows' words as a (2, 9) uint32 array: send, recv."""
        return np.stack([self.send.words, self.recv.words])

    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> NDArray[Any]:
        return self.words if dtype is None else self.words.astype(dtype)

    def __str__(self) -> str:
        return (f"p2p {self.count} words, TimeToMux {self.time_to_mux}, direction "
                f"{self.direction}, timing {self.timing_model}\n{self.send}\n{self.recv}")


def _p2p_from_c(p: CData, wide: Optional[Dict[str, Any]] = None) -> P2PPlan:
    keep = p
    return P2PPlan(Row._from_c(ffi.addressof(keep, "send"), keep),
                   Row._from_c(ffi.addressof(keep, "recv"), keep), int(keep.count),
                   int(keep.time_to_mux), int(keep.direction), bool(keep.sync_boundary),
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
    fn = "plan_p2p"
    s, r, c = uint(sender, "sender", fn), uint(receiver, "receiver", fn), uint(count, "count", fn)
    sa, da = uint(src_addr, "src_addr", fn), uint(dst_addr, "dst_addr", fn)
    out = new("ipuxcom_p2p_plan")
    err = plan_error()
    flags = numbering(physical)
    if not wide:
        check_plan(lib.ipuxcom_plan_p2p(_tm(timing), s, r, c, flags, out, err), err,
                   "ipuxcom_plan_p2p")
        return _p2p_from_c(out)
    info = new("ipuxcom_p2p_wide_info")
    check_plan(lib.ipuxcom_plan_p2p_wide(_tm(timing), s, r, c, sa, da,
                                         flags | lib.IPUXCOM_PLAN_WIDE, out, info, err),
               err, "ipuxcom_plan_p2p_wide")
    w = dict(items=int(info.items), partner=int(info.partner),
             time_to_mux=int(info.time_to_mux),
             partner_time_to_mux=int(info.partner_time_to_mux), pair_time=int(info.pair_time),
             xpic_owner=int(info.xpic_owner), sctl=int(info.sctl),
             route="64-bit" if info.wide == 0 else "32-bit",
             why=None if info.wide == 0 else _str(lib.ipuxcom_plan_wide_str(info.wide)))
    return _p2p_from_c(out, w)


_BATCH_ARGS = {"sender": "senders", "receiver": "receivers", "count": "counts"}


def _arg_index(flat: int, bshape: Tuple[int, ...], shape: Tuple[int, ...]) -> Tuple[int, ...]:
    """The index into an argument of @shape of element @flat of the
    broadcast result of @bshape (numpy's broadcasting, run backwards)."""
    full = np.unravel_index(flat, bshape) if bshape else ()
    tail = full[len(full) - len(shape):] if shape else ()
    return tuple(0 if n == 1 else int(i) for i, n in zip(tail, shape))


def plan_p2p_batch(senders: ArrayLike, receivers: ArrayLike, counts: ArrayLike,
                   *, physical: bool = False, timing: Optional[Timing] = None,
                   out: Optional[Tuple[U32Array, U32Array]] = None
                   ) -> Tuple[U32Array, U32Array]:
    """Plan many p2p transfers in one call.

    @senders, @receivers and @counts are integer arrays (or sequences, or
    scalars) broadcast together as numpy broadcasts them, to shape S.
    Returns (send_rows, recv_rows): uint32 arrays of shape S + (9,), element
    [i, ..., :] the words of that transfer's plan, word for word those of
    plan_p2p(). @out: two such arrays (C-contiguous uint32) to fill
    instead of new ones, for repeated batches; then @out's arrays
    themselves are returned.

    A bad argument raises Error naming it and the element
    (``senders[3]``, ``counts[1, 4]``): InvalidTypeError for floats or
    strings, InvalidValueError for values out of range (C's uint32 here,
    the plan's own ranges from the library) and for shapes that do not
    broadcast. When a transfer fails, rows before it (in C order) are filled.
    """
    fn = "plan_p2p_batch"
    args = [("senders", senders), ("receivers", receivers), ("counts", counts)]
    arrs = [uint_array(v, name, fn) for name, v in args]
    shape: Tuple[int, ...] = ()
    for (name, _), a in zip(args, arrs):
        try:
            shape = np.broadcast_shapes(shape, a.shape)
        except ValueError:
            shapes = ", ".join(f"{n} {x.shape}" for (n, _), x in zip(args, arrs))
            raise value_error(f"{name} of shape {a.shape} does not broadcast with the "
                              f"arguments before it ({shapes})", name, fn) from None
    flat = [np.ascontiguousarray(np.broadcast_to(a, shape)).reshape(-1) for a in arrs]
    n = int(np.prod(shape, dtype=np.int64))
    oshape = shape + (ROW_WORDS,)
    if out is None:
        send = np.empty(oshape, dtype=np.uint32)
        recv = np.empty(oshape, dtype=np.uint32)
    else:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise type_error("out must be a pair (send_rows, recv_rows) of uint32 arrays",
                             "out", fn)
        send, recv = out
        for i, a in enumerate(out):
            if not isinstance(a, np.ndarray):
                raise type_error(f"out[{i}] is a {type(a).__name__}, not a numpy array",
                                 f"out[{i}]", fn)
            if (a.dtype != np.uint32 or a.shape != oshape or not a.flags["C_CONTIGUOUS"]
                    or not a.flags["WRITEABLE"]):
                raise value_error(f"out[{i}] is {a.dtype} of shape {a.shape}; out arrays must "
                                  f"be writable C-contiguous uint32 of shape {oshape}",
                                  f"out[{i}]", fn)
        if np.shares_memory(send, recv):
            raise value_error("out[0] and out[1] share memory: the send and receive rows "
                              "would overwrite each other", "out", fn)
    failed = ffi.new("size_t *")
    err = plan_error()
    rc = lib.pyx_plan_p2p_batch(_tm(timing), _ptr(flat[0]), _ptr(flat[1]), _ptr(flat[2]), n,
                                numbering(physical), _ptr(send), _ptr(recv), failed, err)
    if rc < 0:
        bad = int(failed[0])
        cname = _str(err.field)
        where = _BATCH_ARGS.get(cname)
        if where is None:
            field_ = None
            prefix = "transfer " + index_str(tuple(int(i) for i in np.unravel_index(bad, shape))) \
                if shape else "transfer"
        else:
            a = arrs[list(_BATCH_ARGS.values()).index(where)]
            field_ = where + index_str(_arg_index(bad, shape, a.shape))
            prefix = field_
        try:
            check_plan(rc, err, "ipuxcom_plan_p2p")
        except Error as e:
            e.message = f"{prefix}: {e.message}"
            e.args = (e.errno, e.message)
            e.field = field_
            raise
    return send, recv


# ------------------------------------------------------------------ fan-out

class _Req:
    """A struct ipuxcom_fanout_req with its arrays kept alive, its
    arguments checked under their Python names."""

    def __init__(self, fn: str, sender: object, receivers: object, count: object,
                 physical: bool, src_addr: object = 0, dst_addrs: object = None,
                 schedule_offset: object = 0, wide: bool = False):
        self.recv = uint_array(receivers, "receivers", fn)
        if self.recv.ndim > 1:
            raise value_error(f"receivers has shape {self.recv.shape}; one dimension only",
                              "receivers", fn)
        self.recv = self.recv.reshape(-1)
        self.dst: Optional[U32Array] = None
        self.dst_shape: Tuple[int, ...] = ()
        if dst_addrs is not None:
            d = uint_array(dst_addrs, "dst_addrs", fn)
            self.dst_shape = d.shape
            try:
                # numpy's broadcasting: one address (or [one]) for every receiver
                self.dst = np.ascontiguousarray(np.broadcast_to(d, self.recv.shape))
            except ValueError:
                raise value_error(f"dst_addrs has shape {d.shape} for {self.recv.size} "
                                  "receivers (give one, or one per receiver)", "dst_addrs",
                                  fn) from None
        self.req = new("ipuxcom_fanout_req")
        self.req.sender = uint(sender, "sender", fn)
        self.req.count = uint(count, "count", fn)
        self.req.flags = numbering(physical) | (lib.IPUXCOM_PLAN_WIDE if wide else 0)
        self.req.nrecv = self.recv.size
        self.req.receivers = _ptr(self.recv)
        self.req.src_addr = uint(src_addr, "src_addr", fn)
        self.req.schedule_offset = uint(schedule_offset, "schedule_offset", fn)
        self.req.dst_addr = _ptr(self.dst) if self.dst is not None else ffi.NULL

    def fields(self, cname: Optional[str]) -> Optional[str]:
        """The Python argument for the library's field name @cname: "nrecv" is
        receivers, "dst_addr[i]" the element of dst_addrs that was broadcast there."""
        if cname is None:
            return None
        if cname == "nrecv":
            return "receivers"
        m = re.match(r"^dst_addr\[(\d+)\](.*)$", cname)
        if m:
            idx = _arg_index(int(m.group(1)), self.recv.shape, self.dst_shape)
            return "dst_addrs" + index_str(idx) + m.group(2)
        return re.sub(r"^dst_addr\b", "dst_addrs", cname)


@dataclass
class FanoutPlan:
    """Rows of a multicast or serialized fan-out: rows[0] the sender's,
    rows[1 + i] receivers[i]'s; info: the planner's numbers.
    ``np.asarray(plan)`` is words, (nrows, 9) uint32."""
    method: str
    rows: List[Row]
    info: Dict[str, Any]
    _req: Optional[_Req] = field(repr=False, compare=False, default=None)
    _crows: CData = field(repr=False, compare=False, default=None)

    @property
    def words(self) -> U32Array:
        """All rows' words as a (nrows, 9) uint32 array."""
        return np.stack([r.words for r in self.rows])

    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> NDArray[Any]:
        return self.words if dtype is None else self.words.astype(dtype)

    def __str__(self) -> str:
        return f"{self.method}: {self.info}\n" + "\n".join(str(r) for r in self.rows)


def plan_multicast(sender: int, receivers: ArrayLike, count: int, *,
                   src_addr: int = MCAST_DST_BASE, dst_addrs: Optional[ArrayLike] = None,
                   schedule_offset: int = 0, wide: bool = False, physical: bool = False,
                   timing: Optional[Timing] = None) -> FanoutPlan:
    """Multicast (one mode-3 stream, one receive row per destination);
    absolute tile SRAM byte addresses @src_addr and @dst_addrs (one for
    all receivers, or one per receiver). Both default to 0x50000, as
    ``ipuxcom plan multicast`` does: placeholders the vertices patch at
    run time."""
    fn = "plan_multicast"
    rq = _Req(fn, sender, receivers, count, physical, src_addr,
              MCAST_DST_BASE if dst_addrs is None else dst_addrs, schedule_offset, wide)
    n = rq.recv.size + 1
    rows = ffi.new("struct ipuxcom_plan_row[]", n)
    info = new("ipuxcom_multicast_info")
    err = plan_error()
    check_plan(lib.ipuxcom_plan_multicast(_tm(timing), rq.req, rows, n, info, err), err,
               "ipuxcom_plan_multicast", rq.fields)
    d: Dict[str, Any] = dict(min_t=int(info.min_t), max_t=int(info.max_t),
                             start=int(info.start), send_delay=int(info.send_delay),
                             max_recv_time=int(info.max_recv_time),
                             timing_model=_str(info.timing_model))
    if wide:
        d.update(sctl=int(info.sctl), items=int(info.items),
                 route="64-bit" if info.wide == 0 else "32-bit",
                 why=None if info.wide == 0 else _str(lib.ipuxcom_plan_wide_str(info.wide)))
    return FanoutPlan("multicast", [Row._from_c(rows[i]) for i in range(n)], d, rq, rows)


def plan_serialized(sender: int, receivers: ArrayLike, count: int, *, physical: bool = False,
                    timing: Optional[Timing] = None) -> FanoutPlan:
    """Serialized fan-out: back-to-back p2p sends in one sender row."""
    rq = _Req("plan_serialized", sender, receivers, count, physical)
    n = rq.recv.size + 1
    rows = ffi.new("struct ipuxcom_plan_row[]", n)
    info = new("ipuxcom_serialized_info")
    err = plan_error()
    check_plan(lib.ipuxcom_plan_serialized(_tm(timing), rq.req, rows, n, info, err), err,
               "ipuxcom_plan_serialized", rq.fields)
    d: Dict[str, Any] = dict(first_send=int(info.first_send),
                             max_recv_time=int(info.max_recv_time),
                             timing_model=_str(info.timing_model))
    return FanoutPlan("serialized", [Row._from_c(rows[i]) for i in range(n)], d, rq, rows)


class RelayStep(NamedTuple):
    """One p2p transfer of a relay tree: its round, sender and receiver (physical)."""
    round: int
    sender: int
    receiver: int


def plan_relay(sender: int, receivers: ArrayLike, count: int, *,
               physical: bool = False) -> List[RelayStep]:
    """Relay tree: p2p transfers in ceil(log2(N + 1)) rounds (physical ids)."""
    rq = _Req("plan_relay", sender, receivers, count, physical)
    n = rq.recv.size
    steps = ffi.new("struct ipuxcom_relay_step[]", max(n, 1))
    rounds = ffi.new("uint32_t *")
    err = plan_error()
    check_plan(lib.ipuxcom_plan_relay(rq.req, steps, n, rounds, err), err, "ipuxcom_plan_relay",
               rq.fields)
    return [RelayStep(int(steps[i].round), int(steps[i].sender), int(steps[i].receiver))
            for i in range(n)]


_METHODS = {"multicast": 1, "serialized": 2, "relay": 4}


@dataclass
class Dispatch:
    """The fan-out dispatcher's choice and each candidate's cost."""
    chosen: str
    reason: str
    candidates: List[Dict[str, Any]]


def plan_fanout(sender: int, receivers: ArrayLike, count: int, *,
                methods: Iterable[str] = ("multicast", "serialized", "relay"),
                src_addr: int = MCAST_DST_BASE, dst_addrs: Optional[ArrayLike] = None,
                physical: bool = False, timing: Optional[Timing] = None) -> Dispatch:
    """Choose multicast, serialized fan-out or relay tree by the cost model.

    The multicast candidate needs addresses: @src_addr and @dst_addrs
    default to 0x50000 each (the command's placeholders)."""
    fn = "plan_fanout"
    bits = 0
    if isinstance(methods, str):
        raise type_error("methods is a str; give a sequence of names, e.g. ('multicast',)",
                         "methods", fn)
    for i, m in enumerate(methods):
        if m not in _METHODS:
            raise value_error(f"method {m!r} unknown (multicast, serialized, relay)",
                              f"methods[{i}]", fn)
        bits |= _METHODS[m]
    rq = _Req(fn, sender, receivers, count, physical, src_addr,
              MCAST_DST_BASE if dst_addrs is None else dst_addrs)
    out = new("ipuxcom_dispatch")
    err = plan_error()
    check_plan(lib.ipuxcom_plan_dispatch(_tm(timing), rq.req, bits, out, err), err,
               "ipuxcom_plan_dispatch", rq.fields)
    cands = []
    for c in out.cand:
        cands.append(dict(method=_str(lib.ipuxcom_fanout_method_name(c.method)),
                          feasible=c.reject == 0, launches=int(c.launches),
                          copies=int(c.copies), cycles=int(c.cycles), total=int(c.total),
                          why=_str(c.why)))
    return Dispatch(_str(lib.ipuxcom_fanout_method_name(out.chosen)), _str(out.reason), cands)


def plan_idle(tile_id: int, *, raw: bool = False, physical: bool = False) -> Row:
    """The non-participation row (sans; sync 1; br $m10, or raw: no br)."""
    row = new("ipuxcom_plan_row")
    err = plan_error()
    flags = numbering(physical) | (lib.IPUXCOM_IDLE_RAW if raw else 0)
    check_plan(lib.ipuxcom_plan_idle(uint(tile_id, "tile_id", "plan_idle"), flags, row, err),
               err, "ipuxcom_plan_idle", renamer([("^tile", "tile_id")]))
    return Row._from_c(row[0])


# ------------------------------------------------------------------ patches


def patch_index(words: ArrayLike) -> int:
    """The index of a receiver row's patched word: 1 + words[0]."""
    w = _u32(words, "words", "patch_index")
    idx = ffi.new("size_t *")
    err = plan_error()
    check_plan(lib.ipuxcom_patch_index(_ptr(w), w.size, idx, err), err, "ipuxcom_patch_index")
    return int(idx[0])


def _patched(fn: CData, name: str, words: ArrayLike, *args: int) -> U32Array:
    w = _u32(words, "words", name).copy()
    err = plan_error()
    check_plan(fn(_ptr(w), w.size, *args, err), err, name)
    return w


def patch_recv(words: ArrayLike, sender_logical: int) -> U32Array:
    """JDLRecv: a copy of the row with the sender's physical id in the patched delayxpic."""
    return _patched(lib.ipuxcom_patch_recv, "ipuxcom_patch_recv", words,
                    uint(sender_logical, "sender_logical", "patch_recv"))


def patch_recv_restore(words: ArrayLike) -> U32Array:
    """JDLRecv's restore (andc 0x1fff), on a copy."""
    return _patched(lib.ipuxcom_patch_recv_restore, "ipuxcom_patch_recv_restore", words)


def patch_mcast_src(words: ArrayLike, src_addr: int) -> U32Array:
    """NoBlobMulticastSend: a copy with the send address set to @src_addr."""
    return _patched(lib.ipuxcom_patch_mcast_src, "ipuxcom_patch_mcast_src", words,
                    uint(src_addr, "src_addr", "patch_mcast_src"))


def patch_mcast_dst(words: ArrayLike, dst_addr: int) -> U32Array:
    """NoBlobMulticastRecv: a copy with the delaypic pointing at @dst_addr."""
    return _patched(lib.ipuxcom_patch_mcast_dst, "ipuxcom_patch_mcast_dst", words,
                    uint(dst_addr, "dst_addr", "patch_mcast_dst"))


def patch_send_base(data: int, element_selector: int) -> int:
    """JDLSend: OUTGOING_BASE = data + element_selector * 4 (checked)."""
    out = ffi.new("uint32_t *")
    err = plan_error()
    check_plan(lib.ipuxcom_patch_send_base(uint(data, "data", "patch_send_base"),
                                           uint(element_selector, "element_selector",
                                                "patch_send_base"), out, err),
               err, "ipuxcom_patch_send_base")
    return int(out[0])
