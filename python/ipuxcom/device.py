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

import importlib
import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from ._core import (CData, Error, U8Array, U32Array, _str, check_errno, check_file, dcrepr, ffi,
                    fspath, lib, new, read_file, type_error, u32_array, uint, value_error)
from .cfg import Config
from .image import Buffer, Image, Manifest, PathArg, _bytes_view

__all__ = ["LOAD_BATCHES", "block_driver_signals", "DeviceInfo", "devices", "LoadProgress",
           "Device", "open", "Event", "Monitor", "events"]

LOAD_BATCHES: int = int(lib.IPUXCOM_LOAD_BATCHES)


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


def _devinfo(d: CData) -> DeviceInfo:
    return DeviceInfo(int(d.dev_id), _str(lib.ipuxcom_dev_state_name(d.state)),
                      int(d.tile_count), int(d.config_bar_size), int(d.capabilities),
                      _str(d.backend), _str(d.ipu_node), bool(d.attached or d.attached_pid))


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
    """A load's progress after a batch: batches and bytes done of the total."""
    batch: int
    batches: int
    bytes: int
    total: int


ProgressFn = Callable[[LoadProgress], None]


class _Progress:
    def __init__(self, fn: ProgressFn):
        self.fn = fn
        self.error: Optional[BaseException] = None

    def __call__(self, p: LoadProgress) -> None:
        self.fn(p)


@ffi.def_extern()  # type: ignore[misc]
def _pyx_load_progress(ctx: CData, p: CData) -> None:
    fn: _Progress = ffi.from_handle(ctx)
    try:
        fn(LoadProgress(int(p.batch), int(p.batches), int(p.bytes), int(p.total)))
    except BaseException as e:   # raised again after the load
        fn.error = e


def _tqdm_progress() -> Tuple[Optional[ProgressFn], Any]:
    try:
        tqdm = importlib.import_module("tqdm").tqdm   # optional: used if installed
    except ImportError:
        return None, None
    bar = tqdm(total=None, unit="B", unit_scale=True, desc="load")

    def fn(p: LoadProgress) -> None:
        bar.total = p.total
        bar.n = p.bytes
        bar.refresh()
    return fn, bar


class Device:
    """An open /dev/ipuxcom; a context manager (`with ipuxcom.open() as d:`)."""

    _h: CData = None

    def __init__(self, handle: CData):
        self._h = handle

    # -- lifetime
    def close(self) -> None:
        """Close the file; this releases the attached device."""
        if self._h is not None:
            lib.ipuxcom_close(self._h)
            self._h = None

    def __enter__(self) -> "Device":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def _handle(self, fn: str) -> CData:
        if self._h is None:
            raise Error(9, "device closed", None, None, "", fn)
        return self._h

    def _check(self, rc: int, fn: str) -> int:
        return check_errno(rc, fn, self._h)

    @property
    def fd(self) -> int:
        """The file descriptor of /dev/ipuxcom (for poll())."""
        return int(lib.ipuxcom_fd(self._handle("ipuxcom_fd")))

    # -- module and device
    def info(self) -> Dict[str, int]:
        """The module's version and capabilities (IPUXCOM_IOC_INFO)."""
        i = new("ipuxcom_info")
        self._check(lib.ipuxcom_get_info(self._handle("ipuxcom_get_info"), i),
                    "ipuxcom_get_info")
        return dict(uapi_version=int(i.uapi_version), device_count=int(i.device_count),
                    max_config_bar=int(i.max_config_bar), capabilities=int(i.capabilities))

    def attach(self, dev_id: int = 0) -> DeviceInfo:
        """Bind this file to device @dev_id until it is closed; its description."""
        self._check(lib.ipuxcom_attach(self._handle("ipuxcom_attach"),
                                       uint(dev_id, "dev_id", "Device.attach")),
                    "ipuxcom_attach")
        return self.query()

    def query(self) -> DeviceInfo:
        """The attached device (IPUXCOM_IOC_DEV_QUERY)."""
        d = new("ipuxcom_device_info")
        self._check(lib.ipuxcom_dev_query(self._handle("ipuxcom_dev_query"), d),
                    "ipuxcom_dev_query")
        return _devinfo(d)

    def init(self) -> Dict[str, Any]:
        """ipu_driver's initialisation steps (ipuxcom_dev_init): the report.
        A failure raises Error with the report as its .report attribute."""
        r = new("ipuxcom_init_report")
        rc = lib.ipuxcom_dev_init(self._handle("ipuxcom_dev_init"), r)
        rep: Dict[str, Any] = dict(ipu_driver=bool(r.ipu_driver), ipu_node=_str(r.ipu_node),
                   steps={_str(lib.ipuxcom_init_step_name(s)):
                          _str(lib.ipuxcom_init_status_name(r.status[s]))
                          for s in range(1, len(r.status))},
                   state=_str(lib.ipuxcom_dev_state_name(r.state)), message=_str(r.msg))
        if rc < 0:
            e = Error(-rc, _str(r.msg) or _str(lib.ipuxcom_errmsg(self._h)), None, None,
                      _str(lib.ipuxcom_strerror(rc)), "ipuxcom_dev_init")
            setattr(e, "report", rep)
            raise e
        return rep

    def reset(self) -> str:
        """Reset the attached device; the state it is in afterwards."""
        st = ffi.new("uint32_t *")
        self._check(lib.ipuxcom_reset(self._handle("ipuxcom_reset"), st), "ipuxcom_reset")
        return _str(lib.ipuxcom_dev_state_name(st[0]))

    def reg_read(self, offset: int) -> int:
        """The config-BAR register at byte @offset."""
        v = ffi.new("uint32_t *")
        self._check(lib.ipuxcom_reg_read(self._handle("ipuxcom_reg_read"),
                                         uint(offset, "offset", "Device.reg_read"), v),
                    "ipuxcom_reg_read")
        return int(v[0])

    def reg_write(self, offset: int, value: int) -> None:
        """Write @value to the config-BAR register at byte @offset."""
        fn = "Device.reg_write"
        self._check(lib.ipuxcom_reg_write(self._handle("ipuxcom_reg_write"),
                                          uint(offset, "offset", fn), uint(value, "value", fn)),
                    "ipuxcom_reg_write")

    # -- load
    def load(self, image: Union[Image, PathArg, Buffer],
             bootloader: Union[Buffer, PathArg], *,
             progress: Union[None, bool, ProgressFn] = None,
             timeout: float = 0.0,
             cfg: Union[None, bool, Config, PathArg, Buffer] = None,
             cfg_hsp: str = "clear", init: bool = True) -> Dict[str, int]:
        """The whole session of the record on the attached device (ipuxcom_load()):
        the initialisation, on a card the replay of its config capture, the load.

        @image: an Image, a path (str or os.PathLike) or the bytes of an
        IPUIMG1 file.
        @bootloader: the tile bootloader's ELF or raw bytes (bytes or an
        array), or a path (str or os.PathLike).
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
        fn = "Device.load"
        h = self._handle(fn)
        if isinstance(image, Image):
            img = image
        elif isinstance(image, (str, os.PathLike)):
            img = Image.open(image)
        else:
            img = Image.from_bytes(image)
        if isinstance(bootloader, (str, os.PathLike)):
            # read by _core (in this module, open() is the device's, not Python's)
            raw = read_file(bootloader, "bootloader", fn)
        else:
            raw = bytes(_bytes_view(bootloader, "bootloader", fn))
        if not isinstance(cfg_hsp, str):
            raise type_error(f"cfg_hsp is a {type(cfg_hsp).__name__}, not a str", "cfg_hsp", fn)
        hsp = lib.ipuxcom_cfg_hsp_parse(cfg_hsp.encode())
        if hsp < 0:
            raise Error(-hsp, f"cfg_hsp {cfg_hsp!r} is not one of 'clear', 'keep-gs2', "
                        "'replay'", "cfg_hsp", None, "", fn)
        flags = 0 if init else lib.IPUXCOM_LOAD_F_NO_INIT
        config: Optional[Config]
        if cfg is False:
            flags |= lib.IPUXCOM_LOAD_F_NO_CFG
            config = None
        elif cfg is True:
            raise value_error("cfg=True: give the config (a Config, an IPUCFG1 file's path "
                              "or bytes), or cfg=False to load without one", "cfg", fn)
        elif cfg is None or isinstance(cfg, Config):
            config = cfg
        elif isinstance(cfg, (str, os.PathLike)):
            config = Config.load(cfg)
        else:
            config = Config.parse(cfg)
        if config is None and not flags & lib.IPUXCOM_LOAD_F_NO_CFG and \
                self.query().capabilities & lib.IPUXCOM_CAP_IPU_DRIVER:
            # ipuxcom_load() refuses it too; here in Python's words
            raise value_error("cfg: none given; a card load replays the card's config "
                              "capture first (cfg= a Config, an IPUCFG1 file's path or "
                              "bytes), or skips it with cfg=False; nothing was sent to the "
                              "card", "cfg", fn)
        if timeout < 0:
            raise value_error(f"timeout {timeout} is negative", "timeout", fn)
        records = config._c() if config is not None else None
        bl = new("ipuxcom_bootloader")
        em = new("ipuxcom_errmsg")
        check_file(lib.ipuxcom_bootloader_parse(raw, len(raw), bl, em), em,
                   "ipuxcom_bootloader_parse")
        bar = None
        report: Optional[ProgressFn] = None
        if progress is True:
            report, bar = _tqdm_progress()
        elif callable(progress):
            report = progress
        elif progress not in (None, False):
            raise type_error(f"progress is a {type(progress).__name__}, not a callable nor "
                             "True", "progress", fn)
        try:
            p = new("ipuxcom_load_params")
            p.image = img._h
            p.bootloader = bl.image
            p.bootloader_size = bl.image_size
            p.timeout_ns = int(timeout * 1e9)
            p.flags = flags
            if config is not None and len(config):
                p.cfg = records
                p.cfg_count = len(config)
                p.cfg_hsp = hsp
            handle = None
            cb: Optional[_Progress] = None
            if report is not None:
                cb = _Progress(report)
                handle = ffi.new_handle(cb)
                p.progress = lib._pyx_load_progress
                p.ctx = handle
            res = new("ipuxcom_load_result")
            rc = lib.ipuxcom_load(h, p, res)
            if cb is not None and cb.error is not None:
                raise cb.error
            if rc < 0:
                raise Error(-rc, _str(res.msg) or _str(lib.ipuxcom_errmsg(h)), None,
                            None, _str(lib.ipuxcom_strerror(rc)), "ipuxcom_load")
            return dict(syscalls=int(res.syscalls))
        finally:
            lib.ipuxcom_bootloader_free(bl)
            if bar is not None:
                bar.close()

    # -- data
    def tdi_read(self, tile: int, addr: int, count: int) -> U32Array:
        """@count words of physical @tile's SRAM at @addr through TDI (uint32 array)."""
        fn = "Device.tdi_read"
        n = uint(count, "count", fn)
        w = np.zeros(n, dtype=np.uint32)
        done = ffi.new("uint32_t *")
        self._check(lib.ipuxcom_tdi_read_sram(self._handle(fn), uint(tile, "tile", fn),
                                              uint(addr, "addr", fn),
                                              ffi.cast("uint32_t *", w.ctypes.data), n, done),
                    "ipuxcom_tdi_read_sram")
        return w

    def tdi_write(self, tile: int, addr: int, words: Union[int, Iterable[int], NDArray[Any]]
                  ) -> None:
        """Write uint32 @words into physical @tile's SRAM at @addr through TDI
        (needs CAP_SYS_RAWIO)."""
        fn = "Device.tdi_write"
        w = u32_array(words, "words", fn)
        done = ffi.new("uint32_t *")
        self._check(lib.ipuxcom_tdi_write_sram(self._handle(fn), uint(tile, "tile", fn),
                                               uint(addr, "addr", fn),
                                               ffi.cast("uint32_t *", w.ctypes.data), w.size,
                                               done), "ipuxcom_tdi_write_sram")

    def tdi_regs(self, tile: int) -> Dict[str, int]:
        """Physical @tile's TDI registers by name."""
        fn = "Device.tdi_regs"
        regs = ffi.new("uint32_t[]", lib.IPUXCOM_TDI_NREGS)
        self._check(lib.ipuxcom_tdi_read_regs(self._handle(fn), uint(tile, "tile", fn), regs),
                    "ipuxcom_tdi_read_regs")
        return {(_str(lib.ipuxcom_tdi_reg_name(i)) or str(i)): int(regs[i])
                for i in range(lib.IPUXCOM_TDI_NREGS)}

    # -- host exchange
    def hostx_setup(self, manifest: Manifest, *, timeout: float = 2.0) -> None:
        """Allocate the manifest's host pages for the loaded, running device
        and run the load-completion transition (ipuxcom_hostx_setup())."""
        if not isinstance(manifest, Manifest):
            raise type_error(f"manifest is a {type(manifest).__name__}, not an "
                             "ipuxcom.Manifest", "manifest", "Device.hostx_setup")
        em = ffi.new("struct ipuxcom_errmsg *")
        rc = lib.ipuxcom_hostx_setup(self._handle("Device.hostx_setup"), manifest._m,
                                     int(timeout * 1e9), em)
        check_file(rc, em, "ipuxcom_hostx_setup")

    def hostx_call(self, manifest: Manifest, name: str, inputs: Iterable[Buffer] = (), *,
                   timeout: float = 2.0) -> List[U8Array]:
        """Run call @name: @inputs (arrays or bytes, one per input slice, each
        exactly the slice's size) in, the output slices out as uint8 arrays."""
        fn = "Device.hostx_call"
        if not isinstance(manifest, Manifest):
            raise type_error(f"manifest is a {type(manifest).__name__}, not an "
                             "ipuxcom.Manifest", "manifest", fn)
        if not isinstance(name, str):
            raise type_error(f"name is a {type(name).__name__}, not a str", "name", fn)
        call = manifest.calls.get(name)
        bufs = [np.frombuffer(_bytes_view(x, f"inputs[{i}]", fn), dtype=np.uint8)
                for i, x in enumerate(inputs)]
        outs = [np.zeros(n, dtype=np.uint8) for n in (call.outputs if call else ())]
        ib = ffi.new("struct ipuxcom_hostx_buf[]", max(len(bufs), 1))
        ob = ffi.new("struct ipuxcom_hostx_buf[]", max(len(outs), 1))
        for i, b in enumerate(bufs):
            ib[i].data, ib[i].size = ffi.from_buffer(b), b.size
        for i, b in enumerate(outs):
            ob[i].data, ob[i].size = ffi.from_buffer(b), b.size
        em = ffi.new("struct ipuxcom_errmsg *")
        rc = lib.ipuxcom_hostx_call(self._handle(fn), manifest._m, name.encode(), ib, len(bufs),
                                    ob, len(outs), int(timeout * 1e9), em)
        check_file(rc, em, "ipuxcom_hostx_call")
        return outs

    def exch_write(self, logical_tile: int, addr: int, data: Buffer, *,
                   timeout: float = 0.0) -> int:
        """EXPERIMENTAL: write @data (bytes or array, a multiple of 4 bytes,
        <= 64 KiB) at @addr of LOGICAL tile @logical_tile through the exchange
        window (needs CAP_SYS_RAWIO); TILEUPDR as last read."""
        fn = "Device.exch_write"
        b = np.frombuffer(_bytes_view(data, "data", fn), dtype=np.uint8)
        t = ffi.new("uint32_t *")
        self._check(lib.ipuxcom_exch_write(self._handle(fn),
                                           uint(logical_tile, "logical_tile", fn),
                                           uint(addr, "addr", fn), ffi.from_buffer(b),
                                           b.size, int(timeout * 1e9), t), "ipuxcom_exch_write")
        return int(t[0])


def open(path: Optional[PathArg] = None) -> Device:  # noqa: A001
    """Open the device node (default /dev/ipuxcom) read-write. The driver's
    signals are ignored process-wide by the C library when attach() opens a
    card's /dev/ipuN (block_driver_signals()).

    (This is ipuxcom.open; inside this module Python's own is builtins.open.)"""
    out = ffi.new("struct ipuxcom **")
    check_errno(lib.ipuxcom_open(fspath(path, "path", "open") if path is not None
                                 else ffi.NULL, out), "ipuxcom_open")
    return Device(out[0])


@dataclass(frozen=True, repr=False)
class Event:
    """One event of the module (netlink): type "dev-new", "state", ...
    (reg and value shown in hex)."""
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

    def __repr__(self) -> str:
        return dcrepr(self, ("reg", "value"))


class Monitor:
    """The module's events as an iterator: `for e in mon:` waits for each;
    next_event(timeout) returns None after @timeout seconds without one."""

    # a class default, so that close() and __del__ work on a Monitor whose
    # __init__ raised (the module not loaded)
    _h: CData = None

    def __init__(self) -> None:
        out = ffi.new("struct ipuxcom_monitor **")
        check_errno(lib.ipuxcom_monitor_open(out), "ipuxcom_monitor_open")
        self._h = out[0]

    def close(self) -> None:
        """Stop listening; the iterator ends its use here."""
        if self._h is not None:
            lib.ipuxcom_monitor_close(self._h)
            self._h = None

    def __enter__(self) -> "Monitor":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def _handle(self, fn: str) -> CData:
        if self._h is None:
            raise Error(9, "monitor closed", None, None, "", fn)
        return self._h

    def fileno(self) -> int:
        """The netlink socket's descriptor (for select/poll)."""
        return int(lib.ipuxcom_monitor_fd(self._handle("ipuxcom_monitor_fd")))

    def next_event(self, timeout: Optional[float] = None) -> Optional[Event]:
        """The next event; None after @timeout seconds without one (None: wait)."""
        ev = new("ipuxcom_event")
        ms = -1 if timeout is None else int(timeout * 1000)
        rc = lib.ipuxcom_monitor_next(self._handle("ipuxcom_monitor_next"), ev, ms)
        if rc == -11:      # EAGAIN: none within the timeout
            return None
        check_errno(rc, "ipuxcom_monitor_next")
        st = lib.ipuxcom_dev_state_name
        return Event(_str(lib.ipuxcom_event_name(ev.type)), int(ev.dev_id), _str(st(ev.state)),
                     _str(st(ev.old_state)), int(ev.batch), int(ev.batches), int(ev.bytes),
                     int(ev.reg), int(ev.value), int(ev.error))

    def __iter__(self) -> Iterator[Event]:
        while True:
            e = self.next_event()
            if e is not None:
                yield e


def events() -> Monitor:
    """Open a monitor of the module's events (an iterator; a context manager)."""
    return Monitor()
