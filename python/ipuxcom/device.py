# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
"""The device: /dev/ipuxcom through libipuxcom (ipuxcom.h). Needs the
kernel module (the test VM has it, with the simulated C600)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import List, Optional, Union

from ._core import Error, _str, check_errno, ffi, fspath, lib

_signals_blocked = False


def block_driver_signals() -> None:
    """Block ipu_driver's real-time signals (44..49) in the calling thread,
    as the C library says every thread that holds or waits on a card must
    (ipuxcom_block_driver_signals()). open() calls it; call it yourself in
    any other thread that waits on a device, before it does."""
    check_errno(lib.ipuxcom_block_driver_signals(), "ipuxcom_block_driver_signals")


@dataclass(frozen=True)
class DeviceInfo:
    dev_id: int
    state: int
    tile_count: int
    backend: str
    ipu_node: str
    attached: bool


def devices() -> List[DeviceInfo]:
    """The devices the module registered (netlink dump); [] with no module."""
    raise NotImplementedError("ipuxcom.devices(): not yet")


class Device:
    """An open /dev/ipuxcom: a context manager (`with ipuxcom.open() as d:`)."""

    def __init__(self, handle):
        self._h = handle

    def close(self) -> None:
        if self._h is not None:
            lib.ipuxcom_close(self._h)
            self._h = None

    def __enter__(self) -> "Device":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _check(self, rc: int, fn: str) -> int:
        return check_errno(rc, fn, self._h)

    def attach(self, dev_id: int = 0) -> None:
        """Bind this file to device @dev_id until it is closed."""
        self._check(lib.ipuxcom_attach(self._h, dev_id), "ipuxcom_attach")

    def reset(self) -> int:
        """Reset the attached device; its state afterwards."""
        st = ffi.new("uint32_t *")
        self._check(lib.ipuxcom_reset(self._h, st), "ipuxcom_reset")
        return st[0]

    @property
    def fd(self) -> int:
        return lib.ipuxcom_fd(self._h)


def open(path: Optional[Union[str, os.PathLike]] = None) -> Device:  # noqa: A001
    """Open the device node (default /dev/ipuxcom), after blocking the
    driver's signals in the calling thread."""
    block_driver_signals()
    out = ffi.new("struct ipuxcom **")
    check_errno(lib.ipuxcom_open(fspath(path) if path is not None else ffi.NULL, out),
                "ipuxcom_open")
    return Device(out[0])
