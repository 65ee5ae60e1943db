# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The pieces every part of the package shares: the C library handle, the
exception classes, the checks that turn Python arguments into C integers,
struct allocation and the tile-numbering flag."""
from __future__ import annotations

import dataclasses
import errno as _errno
import operator
import os
import re
from typing import Any, Callable, Dict, FrozenSet, Iterable, Mapping, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from ._ipuxcom import ffi, lib

__all__ = ["Error", "InvalidValueError", "InvalidTypeError", "OperationError", "ffi", "lib"]

U32Array = NDArray[np.uint32]
U8Array = NDArray[np.uint8]
CData = Any          # a CFFI object (struct pointer, array, handle)

U32_MAX = 0xFFFFFFFF

# errno values that say "this value is wrong" rather than "the system
# failed": their errors are ValueErrors, the others OSErrors.
_VALUE_ERRNOS = frozenset({_errno.EINVAL, _errno.ERANGE, _errno.EDOM, _errno.EBADMSG,
                           _errno.EOVERFLOW, _errno.E2BIG, _errno.EFBIG, _errno.ENOEXEC,
                           _errno.EILSEQ, _errno.ENOSPC})


class Error(Exception):
    """Every failure of the package, as one exception class.

    ``Error`` itself is never raised: each error is one of its three
    subclasses, which are also Python's own classes for the same kind of
    failure, so that ``except ValueError`` and ``except OSError`` work:

      InvalidValueError  (ValueError) a value the package or the library
                         refuses: out of range, malformed text or file
                         content (errno EINVAL, ERANGE, EBADMSG, ...)
      InvalidTypeError   (TypeError) an argument of the wrong type: a float,
                         a string or an object where an integer is needed
      OperationError     (OSError) the system failed: a file, the device,
                         the kernel module, memory (ENOENT, EIO, EBUSY, ...)

    ``Error(errno, message, ...)`` picks the subclass from @errno, as
    ``OSError(errno, ...)`` picks FileNotFoundError.

    Attributes:
      errno    the (positive) errno value the C call returned the negative of
      message  the message naming the offending argument and value,
               e.g. ``"count 4149 out of range 1..4148"``
      field    the offending argument by its Python name (``"count"``,
               ``"receivers[3]"``, ``"transfers[0].dst_addrs[1]"``), or None
      code     the plan error code name (``"IPUXCOM_PLAN_E_COUNT"``) for
               plan, simulator and scheduler calls, the frame error name
               (``"IPUXCOM_FRAME_ERR_CHUNK"``) for frames.decode(), else None
      explanation  the one error explainer's text, ipuxcom_strerror(rc)
      function the C function (or Python function) that failed
    """

    errno: int
    message: str
    field: Optional[str]
    code: Optional[str]
    explanation: str
    function: str

    def __new__(cls, err: int, message: str, field: Optional[str] = None,
                code: Optional[str] = None, explanation: str = "",
                function: str = "") -> "Error":
        if cls is Error:
            cls = InvalidValueError if err in _VALUE_ERRNOS else OperationError
        # OSError.__new__ takes (errno, strerror) itself when a subclass has __new__
        self: Error = super().__new__(cls, err, message)  # type: ignore[call-arg]
        return self

    def __init__(self, err: int, message: str, field: Optional[str] = None,
                 code: Optional[str] = None, explanation: str = "", function: str = ""):
        super().__init__(err, message)
        self.errno = err
        self.message = message
        self.field = field
        self.code = code
        # the library's text for the code, else the C library's strerror():
        # ipuxcom_strerror(-errno) would explain the thread's last failure
        self.explanation = explanation or (
            _explain(-(int(lib.IPUXCOM_ERRC_BASE) + int(getattr(lib, code)))) if code
            else os.strerror(err))
        self.function = function

    def __str__(self) -> str:
        name = _errno.errorcode.get(self.errno, str(self.errno))
        where = f"{self.function}: " if self.function else ""
        return f"{where}{self.message} ({name}: {self.explanation})"

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (self.errno, self.message, self.field, self.code, self.explanation,
                             self.function))


class InvalidValueError(Error, ValueError):
    """A value refused: out of range, malformed, or not what the call takes."""


class InvalidTypeError(Error, TypeError):
    """An argument of a type the call does not take (a float for a count)."""


class OperationError(Error, OSError):
    """The system failed: a file, the device, the kernel module or memory."""


def _str(p: CData) -> str:
    """A C string (char * or char array) as str."""
    if p == ffi.NULL:
        return ""
    return bytes(ffi.string(p)).decode("utf-8", "replace")


_ERRC_NAMES: Dict[int, str] = {int(getattr(lib, n)): n for n in dir(lib)
                               if n.startswith("IPUXCOM_PLAN_E_")}


def _explain(rc: int) -> str:
    return _str(lib.ipuxcom_strerror(rc))


# ------------------------------------------------------------------ library errors

FieldMap = Callable[[Optional[str]], Optional[str]]


def renamer(rules: Iterable[Tuple[str, str]]) -> FieldMap:
    """A function renaming the library's field names (C names) to the
    Python arguments': each (regex, replacement) applied in turn."""
    compiled = [(re.compile(p), r) for p, r in rules]

    def rename(field: Optional[str]) -> Optional[str]:
        if field is None:
            return None
        for rx, rep in compiled:
            field = rx.sub(rep, field)
        return field
    return rename


def plan_error() -> CData:
    """A fresh struct ipuxcom_plan_error for one call."""
    return new("ipuxcom_plan_error")


def check_plan(rc: int, err: CData, function: str, fields: Optional[FieldMap] = None) -> int:
    """Raise Error for a negative @rc of a call that filled @err (plan family);
    @fields renames the library's field names to the Python arguments'."""
    if rc >= 0:
        return int(rc)
    msg = _str(err.msg) or _str(lib.ipuxcom_errmsg(ffi.NULL)) or _explain(rc)
    field: Optional[str] = _str(err.field) or None
    if fields is not None and field is not None:
        pyname = fields(field)
        if pyname != field and pyname is not None:
            # the message starts with the C name ("dst_addr[1] 0x50002 not ..."): say it
            # in Python's words too
            if msg.startswith(field):
                msg = pyname + msg[len(field):]
            field = pyname
    raise Error(-rc, msg, field, _ERRC_NAMES.get(int(err.code)), _explain(rc), function)


def check_file(rc: int, em: Optional[CData], function: str, field: Optional[str] = None) -> int:
    """Raise Error for a negative @rc of a call that filled struct ipuxcom_errmsg @em."""
    if rc >= 0:
        return int(rc)
    msg = (_str(em.msg) if em is not None else "") or _str(lib.ipuxcom_errmsg(ffi.NULL)) \
        or _explain(rc)
    raise Error(-rc, msg, field, None, _explain(rc), function)


def check_errno(rc: int, function: str, handle: Optional[CData] = None) -> int:
    """Raise Error for a negative @rc of a call that reports through ipuxcom_errmsg()."""
    if rc >= 0:
        return int(rc)
    msg = _str(lib.ipuxcom_errmsg(handle if handle is not None else ffi.NULL)) or _explain(rc)
    raise Error(-rc, msg, None, None, _explain(rc), function)


# ------------------------------------------------------------------ arguments


def value_error(message: str, field: Optional[str], function: str,
                err: int = _errno.EINVAL, code: Optional[str] = None) -> InvalidValueError:
    """An InvalidValueError the package raises itself (not the library)."""
    return InvalidValueError(err, message, field, code, "", function)


def type_error(message: str, field: Optional[str], function: str) -> InvalidTypeError:
    """An InvalidTypeError: @field has a type the call does not take."""
    return InvalidTypeError(_errno.EINVAL, message, field, None, "", function)


def index_str(idx: Tuple[int, ...]) -> str:
    """A numpy index as Python writes it: "[3]", "[1, 4]", "" for a 0-d array."""
    return f"[{', '.join(str(int(i)) for i in idx)}]" if idx else ""


_CTYPE_NAMES = {32: "uint32", 64: "uint64", 16: "uint16", 8: "uint8"}


def uint(value: object, name: str, function: str, bits: int = 32) -> int:
    """@value as an unsigned C integer of @bits bits.

    Integers (int, numpy integers, bool as numpy casts it) are taken when
    they fit; floats (even 70.0: numpy's same_kind casting refuses float to
    int), strings and other objects raise InvalidTypeError, negative or too
    large values InvalidValueError (ERANGE), both naming @name.
    """
    hi = (1 << bits) - 1
    if isinstance(value, (float, complex, np.floating, np.complexfloating)):
        raise type_error(f"{name} {value!r} is not an integer (a "
                         f"{type(value).__name__}; integers only, as numpy's same_kind "
                         f"casting)", name, function)
    if isinstance(value, (str, bytes, bytearray)):
        raise type_error(f"{name} {value!r} is a {type(value).__name__}, not an integer",
                         name, function)
    try:
        v = operator.index(value)   # type: ignore[arg-type]
    except TypeError:
        raise type_error(f"{name} is a {type(value).__name__}, not an integer", name,
                         function) from None
    if not 0 <= v <= hi:
        raise value_error(f"{name} {v} out of range 0..{hi} ({_CTYPE_NAMES.get(bits, 'C')} "
                          f"argument)", name, function, _errno.ERANGE)
    return v


def opt_uint(value: object, name: str, function: str, bits: int = 32) -> Optional[int]:
    """uint() for an argument that may be None."""
    return None if value is None else uint(value, name, function, bits)


def uint_array(value: object, name: str, function: str, *, bits: int = 32,
               shape: Optional[Tuple[int, ...]] = None,
               fields: Optional[Callable[[Tuple[int, ...]], str]] = None) -> NDArray[Any]:
    """@value (a sequence, an array or a scalar) as a C-contiguous unsigned
    integer array of @bits bits (uint32 by default), its shape kept.

    Casting as numpy's same_kind, widened to every integer dtype with a
    range check: bool and integer arrays are taken when every element fits
    (np.can_cast("i8", "u4", "same_kind") is False, yet a list of Python
    ints is int64: with the range check each taken value is exact); float,
    complex, string, bytes and object arrays of non-integers raise
    InvalidTypeError, elements out of range InvalidValueError (ERANGE), the
    field naming the argument and the element: ``senders[3]`` (or what
    @fields makes of the index). @shape: the shape required (after
    conversion), else InvalidValueError naming @name.
    """
    dtype = np.dtype(f"u{bits // 8}")
    hi = (1 << bits) - 1

    def where(idx: Tuple[int, ...]) -> str:
        return fields(idx) if fields is not None else name + index_str(idx)

    if isinstance(value, np.ndarray) and value.dtype == dtype:
        a: NDArray[Any] = value
    else:
        try:
            a = np.asarray(value)
        except (ValueError, TypeError) as e:       # ragged nesting
            raise value_error(f"{name}: not an array of integers ({e})", name,
                              function) from None
        kind = a.dtype.kind
        if a.size == 0 and not isinstance(value, np.ndarray):
            a = a.astype(dtype)                    # [] is float64 to numpy: no intent
        elif kind == "b":
            a = a.astype(dtype)
        elif kind in "iu":
            bad = np.flatnonzero((a < 0) | (a > hi))
            if bad.size:
                idx = tuple(int(i) for i in np.unravel_index(int(bad[0]), a.shape))
                raise value_error(f"{where(idx)} {a[idx]} out of range 0..{hi} "
                                  f"({dtype.name} argument)", where(idx), function,
                                  _errno.ERANGE)
            a = a.astype(dtype, copy=False)
        elif kind == "O":
            flat = a.reshape(-1)
            out = np.empty(flat.shape, dtype=dtype)
            for i, x in enumerate(flat):
                idx = tuple(int(j) for j in np.unravel_index(i, a.shape))
                out[i] = uint(x, where(idx), function, bits)
            a = out.reshape(a.shape)
        else:
            # floats, complex, str, bytes, datetimes: the first element that
            # is not an integer value, or the first element
            flat = a.reshape(-1)
            i = 0
            if kind in "fc":
                notint = np.flatnonzero(~np.isfinite(flat) | (flat != np.round(flat.real)))
                i = int(notint[0]) if notint.size else 0
            idx = tuple(int(j) for j in np.unravel_index(i, a.shape)) if a.size else ()
            shown = repr(flat[i].item()) if a.size else "[]"
            raise type_error(f"{where(idx)} {shown}: {name} is a {a.dtype} array, not "
                             f"integers (numpy's same_kind casting refuses {a.dtype} -> "
                             f"{dtype.name})", where(idx), function)
    if shape is not None and a.shape != shape:
        raise value_error(f"{name} has shape {a.shape}, not {shape}", name, function)
    # (np.ascontiguousarray() would make a 0-d array 1-d)
    return a if a.flags.c_contiguous else a.copy(order="C")


def u32_array(value: object, name: str, function: str,
              fields: Optional[Callable[[Tuple[int, ...]], str]] = None) -> U32Array:
    """uint_array() of uint32, flattened to one dimension (a scalar: one element)."""
    a: U32Array = uint_array(value, name, function, fields=fields).reshape(-1)
    return a


# ------------------------------------------------------------------ structs


def new(ctype: str, **members: Any) -> CData:
    """ffi.new("struct X *") with its size member set, if it has one.

    The one place struct sizes are set: structs that grow at their end
    carry a ``size`` first member the caller sets to sizeof (the library's
    ``_INIT`` macros); any struct declared with one gets it here.
    """
    p = ffi.new(f"struct {ctype} *")
    if "size" in _fields(ctype):
        p.size = ffi.sizeof(f"struct {ctype}")
    for k, v in members.items():
        setattr(p, k, v)
    return p


_FIELD_CACHE: Dict[str, FrozenSet[str]] = {}


def _fields(ctype: str) -> FrozenSet[str]:
    f = _FIELD_CACHE.get(ctype)
    if f is None:
        f = frozenset(name for name, _ in ffi.typeof(f"struct {ctype}").fields)
        _FIELD_CACHE[ctype] = f
    return f


def numbering(physical: bool) -> int:
    """The flag bits that say how a call's tile ids are numbered.

    Every call that takes tile ids passes its numbering through here, and
    always explicitly: ``physical=False`` (the package's default, as the
    command's and the library's) means logical ids.
    """
    return int(lib.IPUXCOM_PLAN_PHYSICAL if physical else lib.IPUXCOM_PLAN_LOGICAL)


def fspath(path: object, name: str = "path", function: str = "") -> bytes:
    """A path argument (str, bytes or os.PathLike) as bytes for C; anything
    else raises InvalidTypeError naming @name."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise type_error(f"{name} is a {type(path).__name__}, not a path (str, bytes or "
                         f"os.PathLike)", name, function)
    return os.fsencode(path)


def read_file(path: object, name: str, function: str) -> bytes:
    """The bytes of the file at @path; failures as OperationError naming @name."""
    p = fspath(path, name, function)
    try:
        with open(p, "rb") as f:
            return f.read()
    except OSError as e:
        err = e.errno or _errno.EIO
        raise OperationError(err, f"{os.fsdecode(p)}: {e.strerror or e}", name, None, "",
                             function) from None


def dcrepr(obj: Any, hexfields: Iterable[str]) -> str:
    """hexrepr() of a dataclass instance's fields."""
    return hexrepr(obj, hexfields, {f.name: getattr(obj, f.name)
                                    for f in dataclasses.fields(obj) if f.repr})


def hexrepr(obj: object, hexfields: Iterable[str], values: Mapping[str, object]) -> str:
    """``Name(a=1, addr=0x50000, ...)``: @values in order, @hexfields (ints
    or sequences of ints) in hex, as addresses are written in the docs."""
    hx = set(hexfields)
    parts = []
    for k, v in values.items():
        if k in hx and isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            parts.append(f"{k}={int(v):#x}")
        elif k in hx and isinstance(v, (tuple, list)) and all(
                isinstance(x, (int, np.integer)) for x in v):
            seq = ", ".join(f"{int(x):#x}" for x in v)
            if isinstance(v, tuple):
                seq = f"({seq},)" if len(v) == 1 else f"({seq})"
            else:
                seq = f"[{seq}]"
            parts.append(f"{k}={seq}")
        else:
            parts.append(f"{k}={v!r}")
    return f"{type(obj).__name__}({', '.join(parts)})"
