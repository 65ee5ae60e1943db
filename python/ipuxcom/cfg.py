# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""IPUCFG1 files: ordered config-BAR writes (ipuxcom_image.h "IPUCFG1",
libuser/src/ipucfg.c, docs/ipuimg-format.md "IPUCFG1").

    offset size meaning
    0      8    "IPUCFG1\\0"
    8      4    record count (1 .. MAX_RECORDS)
    12     8*N  (u32 config offset, u32 value) records, little-endian

Offsets are 4-aligned byte offsets into the 512 KiB config BAR. The
library reads, checks and writes the files; register names and the block
summary come from its copy of the hardware record's register table
(docs/hardware-record.md HW-REGS; ``ipuxcom cfg dump`` and
``ipuxcom cfg inspect``).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import (Any, Callable, Iterable, Iterator, List, Optional, Pattern, Sequence, Tuple,
                    Union, overload)

import numpy as np
from numpy.typing import NDArray

from ._core import (CData, Error, U32Array, _str, dcrepr, ffi, fspath, lib, new, type_error,
                    uint, uint_array, value_error)
from .image import Buffer, PathArg, _bytes_view

HEADER_SIZE: int = int(lib.IPUXCOM_CFG_HEADER_SIZE)
BAR_SIZE: int = int(lib.IPUXCOM_CFG_BAR_SIZE)
MAX_RECORDS: int = int(lib.IPUXCOM_CFG_MAX_RECORDS)


def reg_name(offset: int) -> str:
    """The HW-REGS name (docs/hardware-record.md) of the register at config
    @offset ("AUTOLDCSR", "TDI[17].DBG_DATA"), or "" when it has none."""
    buf = ffi.new("char[64]")
    return _str(lib.ipuxcom_cfg_reg_name(uint(offset, "offset", "reg_name"), buf, 64))


@dataclass(frozen=True, repr=False)
class Record:
    """One config-BAR write (offset and value shown in hex)."""
    offset: int
    value: int

    @property
    def register(self) -> str:
        """The register's name at @offset ("AUTOLDCSR"), or ""."""
        return reg_name(self.offset)

    def __repr__(self) -> str:
        return dcrepr(self, ("offset", "value"))


@dataclass(frozen=True, repr=False)
class Block:
    """A register block a config touches (ipuxcom_cfg_summarize(), `ipuxcom cfg inspect`)."""
    name: str            # "AUTOLD", "TDI", "page 0x05000" ...
    first: int           # lowest offset written
    last: int            # highest offset written
    writes: int          # records
    registers: int       # distinct offsets
    units: int           # TDI: tiles; XB.DCXCR: instances; else registers
    named: bool          # the block is in the HW-REGS register table

    def __repr__(self) -> str:
        return dcrepr(self, ("first", "last"))


# The library's messages name the record ("record 3 (file offset 0x24): ...");
# .field says the same as a path into the Python objects.
_FIELDS: List[Tuple[Pattern[str], Callable[["re.Match[str]"], str]]] = [
    (re.compile(r"^record (\d+) .*config offset"), lambda m: f"records[{m.group(1)}].offset"),
    (re.compile(r"^bad magic"), lambda m: "magic"),
    (re.compile(r"records?\b.*(more than|at least one)|^no records"), lambda m: "count"),
    (re.compile(r"^truncated|trailing data"), lambda m: "length"),
]


def _field(msg: str) -> Optional[str]:
    for rx, f in _FIELDS:
        m = rx.search(msg)
        if m:
            return f(m)
    return None


def _check(rc: int, em: CData, function: str) -> None:
    if rc < 0:
        msg = _str(em.msg) or _str(lib.ipuxcom_strerror(rc))
        raise Error(-rc, msg, _field(msg), None, _str(lib.ipuxcom_strerror(rc)), function)


RecordsLike = Union["Config", Iterable[Union[Record, Tuple[int, int]]], NDArray[Any]]


class Config(Sequence[Record]):
    """An IPUCFG1 file's records, in order, as checked by the library.

    Config.parse(data) / Config.load(path) read a file; Config(records)
    takes Records, (offset, value) pairs or an (N, 2) integer array, and is
    checked when written: to_bytes() / save(path). as_array() gives the
    records as an (N, 2) uint32 array, blocks() the register blocks.
    """

    def __init__(self, records: RecordsLike):
        fn = "ipuxcom.Config"

        def where(idx: Tuple[int, ...]) -> str:
            return f"records[{idx[0]}].{('offset', 'value')[idx[1]]}" if len(idx) == 2 \
                else "records" + "".join(f"[{i}]" for i in idx)
        if isinstance(records, np.ndarray):
            a = uint_array(records, "records", fn, fields=where)
            if a.ndim != 2 or a.shape[1] != 2:
                raise value_error(f"records has shape {a.shape}, not (N, 2)", "records", fn)
            pairs = [(int(o), int(v)) for o, v in a]
        else:
            if isinstance(records, (str, bytes, bytearray, memoryview)):
                raise type_error(f"records is a {type(records).__name__}; Config.parse() reads "
                                 "an IPUCFG1 file's bytes", "records", fn)
            pairs = []
            for i, r in enumerate(records):
                if isinstance(r, Record):
                    pairs.append((r.offset, r.value))
                    continue
                try:
                    o, v = r
                except (TypeError, ValueError):
                    raise type_error(f"records[{i}] is {r!r}, not a Record nor an (offset, "
                                     "value) pair", f"records[{i}]", fn) from None
                pairs.append((uint(o, f"records[{i}].offset", fn),
                              uint(v, f"records[{i}].value", fn)))
        self._records: List[Record] = [Record(int(o), int(v)) for o, v in pairs]

    @classmethod
    def _from_c(cls, recs: CData, count: int) -> "Config":
        try:
            return cls([(recs[0][i].offset, recs[0][i].value) for i in range(count)])
        finally:
            lib.free(recs[0])

    @classmethod
    def parse(cls, data: Buffer) -> "Config":
        """Parse the bytes of an IPUCFG1 file (exact size, every record checked)."""
        b = ffi.from_buffer(_bytes_view(data, "data", "Config.parse"))
        recs = ffi.new("struct ipuxcom_cfg_record **")
        n = ffi.new("uint32_t *")
        em = new("ipuxcom_errmsg")
        _check(lib.ipuxcom_cfg_parse(b, len(b), recs, n, em), em, "ipuxcom_cfg_parse")
        return cls._from_c(recs, n[0])

    @classmethod
    def load(cls, path: PathArg) -> "Config":
        """Read and parse an IPUCFG1 file."""
        recs = ffi.new("struct ipuxcom_cfg_record **")
        n = ffi.new("uint32_t *")
        em = new("ipuxcom_errmsg")
        _check(lib.ipuxcom_cfg_load(fspath(path, "path", "Config.load"), recs, n, em), em,
               "ipuxcom_cfg_load")
        return cls._from_c(recs, n[0])

    def _c(self) -> CData:
        a = ffi.new("struct ipuxcom_cfg_record[]", max(len(self._records), 1))
        for i, r in enumerate(self._records):
            a[i].offset, a[i].value = r.offset, r.value
        return a

    def to_bytes(self) -> bytes:
        """The IPUCFG1 file (ipuxcom_cfg_serialize(), after the reader's checks)."""
        out = ffi.new("void **")
        n = ffi.new("size_t *")
        em = new("ipuxcom_errmsg")
        _check(lib.ipuxcom_cfg_serialize(self._c(), len(self._records), out, n, em), em,
               "ipuxcom_cfg_serialize")
        try:
            return bytes(ffi.buffer(out[0], n[0]))
        finally:
            lib.free(out[0])

    def save(self, path: PathArg) -> None:
        """Write the file to @path."""
        data = self.to_bytes()
        p = fspath(path, "path", "Config.save")
        try:
            with open(p, "wb") as f:
                f.write(data)
        except OSError as e:
            raise Error(e.errno or 5, f"{os.fsdecode(p)}: {e.strerror or e}", "path", None, "",
                        "Config.save") from None

    def blocks(self) -> List[Block]:
        """The register blocks written, in BAR order (`ipuxcom cfg inspect`)."""
        out = ffi.new("struct ipuxcom_cfg_block **")
        n = ffi.new("size_t *")
        rc = lib.ipuxcom_cfg_summarize(self._c(), len(self._records), out, n)
        if rc < 0:
            self.to_bytes()   # raises the reader's message naming the record
            raise Error(-rc, "cannot summarise", "records", None,
                        _str(lib.ipuxcom_strerror(rc)), "ipuxcom_cfg_summarize")
        try:
            return [Block(_str(b.name), int(b.first), int(b.last), int(b.writes),
                          int(b.registers), int(b.units), bool(b.named))
                    for b in (out[0][i] for i in range(n[0]))]
        finally:
            lib.free(out[0])

    def as_array(self) -> U32Array:
        """The records as an (N, 2) uint32 array of (offset, value); also
        ``np.asarray(config)``."""
        return np.array([(r.offset, r.value) for r in self._records],
                        dtype=np.uint32).reshape(-1, 2)

    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> NDArray[Any]:
        a = self.as_array()
        return a if dtype is None else a.astype(dtype)

    @overload
    def __getitem__(self, i: int) -> Record: ...
    @overload
    def __getitem__(self, i: slice) -> List[Record]: ...

    def __getitem__(self, i: Union[int, slice]) -> Union[Record, List[Record]]:
        return self._records[i]

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[Record]:
        return iter(self._records)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and self._records == other._records

    def __repr__(self) -> str:
        return f"<ipuxcom.Config IPUCFG1, {len(self)} records>"


__all__ = ["Config", "Record", "Block", "reg_name", "HEADER_SIZE", "BAR_SIZE", "MAX_RECORDS"]
