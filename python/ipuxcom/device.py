# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The device: /dev/ipuxcom through libipuxcom (ipuxcom.h,
ipuxcom_datapath.h, ipuxcom_events.h). Needs the kernel module; the test
VM has it, with the simulated C600.

    for info in ipuxcom.devices(): ...
    with ipuxcom.open() as d:
        d.attach(0)
        d.load(image, bootloader, progress=True)   # on a card: cfg="card.ipucfg"
        d.tdi_write(tile, 0x60000, words); d.tdi_read(tile, 0x60000, n)
        d.exch_write(logical_tile, 0x60000, data)
        d.reset()
    with ipuxcom.events() as ev:
        for e in ev: ...
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Callable, Iterator, List, Optional, Union

import numpy as np

from ._core import Error, _str, check_errno, check_file, ffi, fspath, lib, new
from .cfg import Config
from .image import Image, Manifest

LOAD_BATCHES: int = lib.IPUXCOM_LOAD_BATCHES


def block_driver_signals() -> None:
    """Block ipu_driver's real-time signals (44..49) in the calling thread
    (ipuxcom_block_driver_signals()), as the peer stack does before it
    opens a card.

    Not needed to survive them: before it opens a card's /dev/ipuN the C
    library sets each of 44..49 still at SIG_DFL to SIG_IGN, process-wide,
    so that every thread survives them, numpy's too (libipuxcom(3)
    "Signals"); a handler the program installed stays in charge. In a
    process with threads, blocking them in one thread only moves them to
    another thread, which is woken to discard them: open() does not call
    it.
    """
    check_errno(lib.ipuxcom_block_driver_signals(), "ipuxcom_block_driver_signals")


@dataclass(frozen=True)
class DeviceInfo:
    """A device as the module describes it (netlink or DEV_QUERY)."""
    dev_id: int
    state: str
    tile_count: int
    config_bar_size: int
    capabilities: int
    backend: str
    ipu_node: str
    attached: bool


def _devinfo(d) -> DeviceInfo:
    return DeviceInfo(d.dev_id, _str(lib.ipuxcom_dev_state_name(d.state)), d.tile_count,
                      d.config_bar_size, d.capabilities, _str(d.backend), _str(d.ipu_node),
                      bool(d.attached or d.attached_pid))


def devices() -> List[DeviceInfo]:
    """The devices the module registered (a netlink dump).

    Raises Error (ENOENT) when the module is not loaded."""
    nl = ffi.new("struct ipuxcom_nl **")
    check_errno(lib.ipuxcom_nl_open(nl), "ipuxcom_nl_open")
    try:
        devs = ffi.new("struct ipuxcom_device_info **")
        n = ffi.new("size_t *")
        rc = lib.ipuxcom_nl_dev_list(nl[0], devs, n)
        if rc < 0:
            msg = _str(lib.ipuxcom_nl_errmsg(nl[0])) or _str(lib.ipuxcom_strerror(rc))
            raise Error(-rc, msg, None, None, _str(lib.ipuxcom_strerror(rc)),
                        "ipuxcom_nl_dev_list")
        try:
            return [_devinfo(devs[0][i]) for i in range(n[0])]
        finally:
            lib.ipuxcom_nl_dev_list_free(devs[0])
    finally:
        lib.ipuxcom_nl_close(nl[0])


@dataclass(frozen=True)
class LoadProgress:
    batch: int
    batches: int
    bytes: int
    total: int


_progress_ctx = threading.local()


@ffi.def_extern()
def _pyx_load_progress(ctx, p):
    fn = ffi.from_handle(ctx)
    try:
        fn(LoadProgress(p.batch, p.batches, p.bytes, p.total))
    except BaseException as e:   # raised again after the load
        fn.error = e


class _Progress:
    def __init__(self, fn):
        self.fn = fn
        self.error = None

    def __call__(self, p):
        self.fn(p)


def _tqdm_progress():
    try:
        from tqdm import tqdm  # optional: used if installed
    except ImportError:
        return None, None
    bar = tqdm(total=None, unit="B", unit_scale=True, desc="load")

    def fn(p: LoadProgress):
        bar.total = p.total
        bar.n = p.bytes
        bar.refresh()
    return fn, bar


class Device:
    """An open /dev/ipuxcom; a context manager (`with ipuxcom.open() as d:`)."""

    def __init__(self, handle):
        self._h = handle

    # -- lifetime
    def close(self) -> None:
        """Close the file; this releases the attached device."""
        if self._h is not None:
            lib.ipuxcom_close(self._h)
            self._h = None

    def __enter__(self) -> "Device":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        self.close()

    def _check(self, rc: int, fn: str) -> int:
        if self._h is None and rc < 0:
            raise Error(9, "device closed", None, None, "bad file descriptor", fn)
        return check_errno(rc, fn, self._h)

    @property
    def fd(self) -> int:
        return lib.ipuxcom_fd(self._h)

    # -- module and device
    def info(self) -> dict:
        """The module's version and capabilities (IPUXCOM_IOC_INFO)."""
        i = new("ipuxcom_info")
        self._check(lib.ipuxcom_get_info(self._h, i), "ipuxcom_get_info")
        return dict(uapi_version=i.uapi_version, device_count=i.device_count,
                    max_config_bar=i.max_config_bar, capabilities=i.capabilities)

    def attach(self, dev_id: int = 0) -> DeviceInfo:
        """Bind this file to device @dev_id until it is closed; its description."""
        self._check(lib.ipuxcom_attach(self._h, dev_id), "ipuxcom_attach")
        return self.query()

    def query(self) -> DeviceInfo:
        """The attached device (IPUXCOM_IOC_DEV_QUERY)."""
        d = new("ipuxcom_device_info")
        self._check(lib.ipuxcom_dev_query(self._h, d), "ipuxcom_dev_query")
        return _devinfo(d)

    def init(self) -> dict:
        """ipu_driver's initialisation steps (ipuxcom_dev_init): the report."""
        r = new("ipuxcom_init_report")
        rc = lib.ipuxcom_dev_init(self._h, r)
        rep = dict(ipu_driver=bool(r.ipu_driver), ipu_node=_str(r.ipu_node),
                   steps={_str(lib.ipuxcom_init_step_name(s)):
                          _str(lib.ipuxcom_init_status_name(r.status[s]))
                          for s in range(1, len(r.status))},
                   state=_str(lib.ipuxcom_dev_state_name(r.state)), message=_str(r.msg))
        if rc < 0:
            e = Error(-rc, _str(r.msg) or _str(lib.ipuxcom_errmsg(self._h)), None, None,
                      _str(lib.ipuxcom_strerror(rc)), "ipuxcom_dev_init")
            e.report = rep
            raise e
        return rep

    def reset(self) -> str:
        """Reset the attached device; the state it is in afterwards."""
        st = ffi.new("uint32_t *")
        self._check(lib.ipuxcom_reset(self._h, st), "ipuxcom_reset")
        return _str(lib.ipuxcom_dev_state_name(st[0]))

    def reg_read(self, offset: int) -> int:
        v = ffi.new("uint32_t *")
        self._check(lib.ipuxcom_reg_read(self._h, offset, v), "ipuxcom_reg_read")
        return v[0]

    def reg_write(self, offset: int, value: int) -> None:
        self._check(lib.ipuxcom_reg_write(self._h, offset, value), "ipuxcom_reg_write")

    # -- load
    def load(self, image: Union[Image, str, os.PathLike, bytes],
             bootloader: Union[bytes, np.ndarray, str, os.PathLike], *,
             progress: Union[None, bool, Callable[[LoadProgress], None]] = None,
             timeout: float = 0.0,
             cfg: Union[None, bool, Config, str, os.PathLike, bytes] = None,
             cfg_hsp: str = "clear", init: bool = True) -> dict:
        """The whole session of the record on the attached device (ipuxcom_load()):
        the initialisation, on a card the replay of its config capture, the load.

        @image: an Image, a path or the bytes of an IPUIMG1 file.
        @bootloader: the tile bootloader's ELF or raw bytes, or a path.
        @init: initialise the device first (ipuxcom_dev_init(), as init()
        does: on a card held through ipu_driver its initialisation from
        driver-idle, on the simulator a reset); init=False skips it, and the
        device must then be idle (`ipuxcom load --no-init`).
        @cfg: the config-BAR records replayed after the initialisation
        (`ipuxcom load -c`): a Config, or an IPUCFG1 file's path or bytes.
        On a card it is required, as every load in the record replays the
        card's capture: without it the load is refused (Error, field "cfg")
        before anything reaches the card; cfg=False loads a card without one
        (`--no-config`). On the simulator it is optional.
        @cfg_hsp: what becomes of the config's GS1/GS2 records, "clear"
        (skip them, clear both), "keep-gs2" or "replay" (`--cfg-hsp`).
        @progress: a callable taking LoadProgress after every batch, or
        True for a tqdm bar when tqdm is installed. @timeout: seconds per
        wait (0: the module's defaults). Returns {"syscalls": N}.
        """
        if not isinstance(image, Image):
            image = Image.from_bytes(image) if isinstance(image, (bytes, bytearray)) \
                else Image.open(image)
        if isinstance(bootloader, (str, os.PathLike)):
            with open(fspath(bootloader), "rb") as f:
                bootloader = f.read()
        raw = bytes(memoryview(np.ascontiguousarray(bootloader))
                    if isinstance(bootloader, np.ndarray) else bootloader)
        hsp = lib.ipuxcom_cfg_hsp_parse(cfg_hsp.encode())
        if hsp < 0:
            raise Error(-hsp, f"cfg_hsp {cfg_hsp!r} is not one of 'clear', 'keep-gs2', "
                        "'replay'", "cfg_hsp", None, "invalid argument", "Device.load")
        flags = 0 if init else lib.IPUXCOM_LOAD_F_NO_INIT
        if cfg is False:
            flags |= lib.IPUXCOM_LOAD_F_NO_CFG
            cfg = None
        elif cfg is True:
            raise Error(22, "cfg=True: give the config (a Config, an IPUCFG1 file's path "
                        "or bytes), or cfg=False to load without one", "cfg", None,
                        "invalid argument", "Device.load")
        elif cfg is not None and not isinstance(cfg, Config):
            cfg = Config.parse(cfg) if isinstance(cfg, (bytes, bytearray)) \
                else Config.load(cfg)
        if cfg is None and not flags & lib.IPUXCOM_LOAD_F_NO_CFG and \
                self.query().capabilities & lib.IPUXCOM_CAP_IPU_DRIVER:
            # ipuxcom_load() refuses it too; here in Python's words
            raise Error(22, "cfg: none given; a card load replays the card's config "
                        "capture first (cfg= a Config, an IPUCFG1 file's path or bytes), "
                        "or skips it with cfg=False; nothing was sent to the card",
                        "cfg", None, "invalid argument", "Device.load")
        records = cfg._c() if cfg is not None else None
        bl = new("ipuxcom_bootloader")
        em = new("ipuxcom_errmsg")
        check_file(lib.ipuxcom_bootloader_parse(raw, len(raw), bl, em), em,
                   "ipuxcom_bootloader_parse")
        bar = None
        if progress is True:
            progress, bar = _tqdm_progress()
        try:
            p = new("ipuxcom_load_params")
            p.image = image._h
            p.bootloader = bl.image
            p.bootloader_size = bl.image_size
            p.timeout_ns = int(timeout * 1e9)
            p.flags = flags
            if cfg is not None and len(cfg):
                p.cfg = records
                p.cfg_count = len(cfg)
                p.cfg_hsp = hsp
            handle = None
            if callable(progress):
                cb = _Progress(progress)
                handle = ffi.new_handle(cb)
                p.progress = lib._pyx_load_progress
                p.ctx = handle
            res = new("ipuxcom_load_result")
            rc = lib.ipuxcom_load(self._h, p, res)
            if handle is not None and cb.error is not None:
                raise cb.error
            if rc < 0:
                raise Error(-rc, _str(res.msg) or _str(lib.ipuxcom_errmsg(self._h)), None,
                            None, _str(lib.ipuxcom_strerror(rc)), "ipuxcom_load")
            return dict(syscalls=res.syscalls)
        finally:
            lib.ipuxcom_bootloader_free(bl)
            if bar is not None:
                bar.close()

    # -- data
    def tdi_read(self, tile: int, addr: int, count: int) -> np.ndarray:
        """@count words of physical @tile's SRAM at @addr through TDI (uint32 array)."""
        w = np.zeros(count, dtype=np.uint32)
        done = ffi.new("uint32_t *")
        self._check(lib.ipuxcom_tdi_read_sram(self._h, tile, addr,
                                              ffi.cast("uint32_t *", w.ctypes.data), count, done),
                    "ipuxcom_tdi_read_sram")
        return w

    def tdi_write(self, tile: int, addr: int, words) -> None:
        """Write uint32 @words into physical @tile's SRAM at @addr through TDI
        (needs CAP_SYS_RAWIO)."""
        w = np.ascontiguousarray(words, dtype=np.uint32)
        done = ffi.new("uint32_t *")
        self._check(lib.ipuxcom_tdi_write_sram(self._h, tile, addr,
                                               ffi.cast("uint32_t *", w.ctypes.data), w.size,
                                               done), "ipuxcom_tdi_write_sram")

    def tdi_regs(self, tile: int) -> dict:
        """Physical @tile's TDI registers by name."""
        regs = ffi.new("uint32_t[]", lib.IPUXCOM_TDI_NREGS)
        self._check(lib.ipuxcom_tdi_read_regs(self._h, tile, regs), "ipuxcom_tdi_read_regs")
        return {(_str(lib.ipuxcom_tdi_reg_name(i)) or str(i)): regs[i]
                for i in range(lib.IPUXCOM_TDI_NREGS)}

    # -- host exchange
    def hostx_setup(self, manifest: Manifest, *, timeout: float = 2.0) -> None:
        """Allocate the manifest's host pages for the loaded, running device
        and run the load-completion transition (ipuxcom_hostx_setup())."""
        em = ffi.new("struct ipuxcom_errmsg *")
        rc = lib.ipuxcom_hostx_setup(self._h, manifest._m, int(timeout * 1e9), em)
        check_file(rc, em, "ipuxcom_hostx_setup")

    def hostx_call(self, manifest: Manifest, name: str, inputs=(), *,
                   timeout: float = 2.0) -> List[np.ndarray]:
        """Run call @name: @inputs (arrays or bytes, one per input slice, each
        exactly the slice's size) in, the output slices out as uint8 arrays."""
        call = manifest.calls.get(name)
        bufs = [np.ascontiguousarray(x).view(np.uint8).reshape(-1)
                if isinstance(x, np.ndarray) else np.frombuffer(bytes(x), dtype=np.uint8)
                for x in inputs]
        outs = [np.zeros(n, dtype=np.uint8) for n in (call.outputs if call else ())]
        ib = ffi.new("struct ipuxcom_hostx_buf[]", max(len(bufs), 1))
        ob = ffi.new("struct ipuxcom_hostx_buf[]", max(len(outs), 1))
        for i, b in enumerate(bufs):
            ib[i].data, ib[i].size = ffi.from_buffer(b), b.size
        for i, b in enumerate(outs):
            ob[i].data, ob[i].size = ffi.from_buffer(b), b.size
        em = ffi.new("struct ipuxcom_errmsg *")
        rc = lib.ipuxcom_hostx_call(self._h, manifest._m, name.encode(), ib, len(bufs), ob,
                                    len(outs), int(timeout * 1e9), em)
        check_file(rc, em, "ipuxcom_hostx_call")
        return outs

    def exch_write(self, logical_tile: int, addr: int, data, *, timeout: float = 0.0) -> int:
        """EXPERIMENTAL: write @data (bytes or array, a multiple of 4 bytes,
        <= 64 KiB) at @addr of LOGICAL tile @logical_tile through the exchange
        window (needs CAP_SYS_RAWIO); TILEUPDR as last read."""
        b = np.ascontiguousarray(data).view(np.uint8) if isinstance(data, np.ndarray) \
            else np.frombuffer(bytes(data), dtype=np.uint8)
        t = ffi.new("uint32_t *")
        self._check(lib.ipuxcom_exch_write(self._h, logical_tile, addr, ffi.from_buffer(b),
                                           b.size, int(timeout * 1e9), t), "ipuxcom_exch_write")
        return t[0]


def open(path: Optional[Union[str, os.PathLike]] = None) -> Device:  # noqa: A001
    """Open the device node (default /dev/ipuxcom) read-write. The driver's
    signals are ignored process-wide by the C library when attach() opens a
    card's /dev/ipuN (block_driver_signals())."""
    out = ffi.new("struct ipuxcom **")
    check_errno(lib.ipuxcom_open(fspath(path) if path is not None else ffi.NULL, out),
                "ipuxcom_open")
    return Device(out[0])


@dataclass(frozen=True)
class Event:
    """One event of the module (netlink): type "dev-new", "state", ..."""
    type: str
    dev_id: int
    state: str
    old_state: str
    batch: int
    batches: int
    bytes: int
    reg: int
    value: int
    error: int


class Monitor:
    """The module's events as an iterator: `for e in mon:` waits for each;
    next_event(timeout) returns None after @timeout seconds without one."""

    def __init__(self):
        out = ffi.new("struct ipuxcom_monitor **")
        check_errno(lib.ipuxcom_monitor_open(out), "ipuxcom_monitor_open")
        self._h = out[0]

    def close(self) -> None:
        if self._h is not None:
            lib.ipuxcom_monitor_close(self._h)
            self._h = None

    def __enter__(self) -> "Monitor":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        self.close()

    def fileno(self) -> int:
        return lib.ipuxcom_monitor_fd(self._h)

    def next_event(self, timeout: Optional[float] = None) -> Optional[Event]:
        ev = new("ipuxcom_event")
        ms = -1 if timeout is None else int(timeout * 1000)
        rc = lib.ipuxcom_monitor_next(self._h, ev, ms)
        if rc == -11:      # EAGAIN: none within the timeout
            return None
        check_errno(rc, "ipuxcom_monitor_next")
        st = lib.ipuxcom_dev_state_name
        return Event(_str(lib.ipuxcom_event_name(ev.type)), ev.dev_id, _str(st(ev.state)),
                     _str(st(ev.old_state)), ev.batch, ev.batches, ev.bytes, ev.reg, ev.value,
                     ev.error)

    def __iter__(self) -> Iterator[Event]:
        while True:
            e = self.next_event()
            if e is not None:
                yield e


def events() -> Monitor:
    """Open a monitor of the module's events (an iterator; a context manager)."""
    return Monitor()
