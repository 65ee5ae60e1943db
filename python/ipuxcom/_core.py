# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The pieces every part of the package shares: the C library handle, the
one exception class, struct allocation and the tile-numbering flag."""
from __future__ import annotations

import errno as _errno
import os
from typing import Optional

from ._ipuxcom import ffi, lib

__all__ = ["Error", "ffi", "lib"]


class Error(OSError):
    """Every failure of the library, as one exception class.

    Attributes:
      errno    the (positive) errno value the C call returned the negative of
      message  the library's message naming the offending field and value,
               e.g. ``"count 4149 out of range 1..4148"``
      field    the offending input (``"count"``, ``"receivers[3]"``), or None
      code     the plan error code name (``"IPUXCOM_PLAN_E_COUNT"``) for
               plan, simulator and scheduler calls, the frame error name
               (``"IPUXCOM_FRAME_ERR_CHUNK"``) for frames.decode(), else None
      explanation  the one error explainer's text, ipuxcom_strerror(rc)
      function the C function that failed
    """

    def __init__(self, err: int, message: str, field: Optional[str] = None,
                 code: Optional[str] = None, explanation: str = "", function: str = ""):
        super().__init__(err, message)
        self.message = message
        self.field = field
        self.code = code
        self.explanation = explanation
        self.function = function

    def __str__(self) -> str:
        name = _errno.errorcode.get(self.errno, str(self.errno))
        where = f"{self.function}: " if self.function else ""
        return f"{where}{self.message} ({name}: {self.explanation})"


def _str(p) -> str:
    """A C string (char * or char array) as str."""
    if p == ffi.NULL:
        return ""
    return ffi.string(p).decode("utf-8", "replace")


_ERRC_NAMES = {getattr(lib, n): n for n in dir(lib) if n.startswith("IPUXCOM_PLAN_E_")}


def _explain(rc: int) -> str:
    return _str(lib.ipuxcom_strerror(rc))


def plan_error():
    """A fresh struct ipuxcom_plan_error for one call."""
    return new("ipuxcom_plan_error")


def check_plan(rc: int, err, function: str) -> int:
    """Raise Error for a negative @rc of a call that filled @err (plan family)."""
    if rc >= 0:
        return rc
    msg = _str(err.msg) or _str(lib.ipuxcom_errmsg(ffi.NULL)) or _explain(rc)
    field = _str(err.field) or None
    raise Error(-rc, msg, field, _ERRC_NAMES.get(int(err.code)), _explain(rc), function)


def check_file(rc: int, em, function: str) -> int:
    """Raise Error for a negative @rc of a call that filled struct ipuxcom_errmsg @em."""
    if rc >= 0:
        return rc
    msg = (_str(em.msg) if em is not None else "") or _str(lib.ipuxcom_errmsg(ffi.NULL)) \
        or _explain(rc)
    raise Error(-rc, msg, None, None, _explain(rc), function)


def check_errno(rc: int, function: str, handle=None) -> int:
    """Raise Error for a negative @rc of a call that reports through ipuxcom_errmsg()."""
    if rc >= 0:
        return rc
    msg = _str(lib.ipuxcom_errmsg(handle if handle is not None else ffi.NULL)) or _explain(rc)
    raise Error(-rc, msg, None, None, _explain(rc), function)


def new(ctype: str, **members):
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


_FIELD_CACHE: dict = {}


def _fields(ctype: str) -> frozenset:
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
    return lib.IPUXCOM_PLAN_PHYSICAL if physical else lib.IPUXCOM_PLAN_LOGICAL


def fspath(path) -> bytes:
    return os.fsencode(os.fspath(path))
