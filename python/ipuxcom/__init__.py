# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""ipuxcom - libipuxcom from Python: exchange plans, schedules, the simulator's
verdict and IPUIMG1 images for a Graphcore C600, as Python objects with
numpy buffers.

SYNOPSIS
    import ipuxcom

    plan = ipuxcom.plan_p2p(0, 5, 70)            # logical ids by default
    plan.send.words, plan.recv.words             # numpy uint32, nine words each
    print(plan)                                  # both rows, disassembled

    s = ipuxcom.schedule([ipuxcom.Transfer(0, 5, 10), ipuxcom.Transfer(1, [6, 7], 20)])
    s.as_array()                                 # a structured array, a row per receiver
    result, mismatches, sim = s.verify()         # the simulator's verdict
    result.hazards                               # [ipuxcom.Hazard, ...]
    sim.trace(), sim.heatmap()                   # SVG pictures (_repr_svg_)

    data = ipuxcom.pack({t: img for t, img in enumerate(images)})
    ipuxcom.Image.from_bytes(data).extract(3)    # numpy uint8

DESCRIPTION
    The package is a thin layer over libipuxcom (libipuxcom(3)) built with
    CFFI in API mode: the C compiler checked every declaration against the
    library's headers. Every call that fails raises ipuxcom.Error carrying
    errno, the message naming the bad argument and value (.message,
    .field: the argument's Python name, e.g. "senders[3]"), the plan error
    code (.code) and the one error explainer's text (.explanation,
    ipuxcom_strerror()). Each Error is also a ValueError, TypeError or
    OSError (InvalidValueError, InvalidTypeError, OperationError).

    Integer arguments are cast as numpy's same_kind rule with range
    checks: integers that fit the C type are taken, floats (even 70.0),
    strings and other objects refused; arrays keep their shape and
    broadcast as numpy broadcasts. The package is typed (py.typed,
    mypy --strict clean).

    Tile ids are logical by default, as in the ipuxcom command; pass
    physical=True for physical ids. Plan rows always carry physical ids.

PLANS (ipuxcom.plan; docs/exchange-plans.md)
    tile(id), tile_map(), physical_id(), logical_id()     the tile numbering
    Timing.default(), Timing.load(path), Timing.from_table(ttm, dirs)
    plan_p2p(sender, receiver, count, wide=False)          -> P2PPlan
    plan_p2p_batch(senders, receivers, counts)             -> (send, recv) S + (9,) arrays
    plan_multicast(sender, receivers, count, src_addr=0x50000, dst_addrs=0x50000)
    plan_serialized(...), plan_relay(...), plan_fanout(...), plan_idle(tile)
    disasm(words), decode(words), encode(op, *fields)
    patch_recv(), patch_recv_restore(), patch_mcast_src(), patch_mcast_dst(),
    patch_index(), patch_send_base()

VERIFIER AND SCHEDULER (ipuxcom.xsim; docs/exchange-verifier.md)
    Simulator(...)   add_program / add_row / add_p2p / add_multicast / fill_idle,
                     declare, sram_write / sram_read, run() -> Result (hazards),
                     actions(), writes(), trace(), heatmap()
    schedule(transfers | pathlib.Path), schedule_text(text) -> Schedule (events,
                     transfers, as_array(), programs(), load(sim), verify(), stagger(step))
    Transfer(sender, receivers, count, src_addr=None, dst_addrs=None)
    demo_sum(), demo_matmul(packed=True)      the notes' two demos, simulated
    Trace, Heatmap   pictures of a phase; notebooks show them as SVG

IMAGES (ipuxcom.image; docs/ipuimg-format.md)
    pack(images), pack_dir(path, elf=False) -> bytes of an IPUIMG1 file
    Image.open(path), Image.from_bytes(data): info, tile(t), extract(t),
    verify(), verify_tile(t), redirect(marker=|target=, report=); crc32(data)
    Manifest.parse(text), Manifest.load(path): host-sync manifests (.ipuhsp)

LOADER FRAMES (ipuxcom.frames; docs/ipuimg-format.md "Secondary-loader frames")
    build_frames(image, first, last, out=None) -> uint8 array, what
        `ipuxcom frames IMG FIRST LAST -o FILE` writes (one buffer per batch)
    decode_frames(data) -> FrameStream: batches, tiles (TileFrames: slot,
        offset, frames, payload, image(size)), checked as LOAD_BATCH does
    frames_per_tile(image_size), frames.size(image, first, last)

IPUCFG1 (ipuxcom.cfg; docs/ipuimg-format.md "IPUCFG1")
    Config.parse(data), Config.load(path), Config([(offset, value), ...]):
        records (CfgRecord: offset, value, register), to_bytes(), save(path),
        blocks() -> [CfgBlock] (`ipuxcom cfg inspect`), as_array()
    reg_name(offset): the register's name in the hardware record's table
        (docs/hardware-record.md HW-REGS)

DEVICE (ipuxcom.device; needs the kernel module)
    devices() -> the devices the module registered (netlink)
    with ipuxcom.open() as d: d.attach(dev_id); d.load(image, bootloader,
        progress=fn, cfg=Config, cfg_hsp="clear"); d.tdi_read(tile, addr, n) / d.tdi_write(tile, addr, words);
        d.hostx_setup(manifest); d.hostx_call(manifest, name, inputs) -> outputs;
        d.exch_write(...); d.reset()
    with ipuxcom.events() as ev: for e in ev: ...       (netlink events)
    The driver's real-time signals 44..49 are ignored process-wide (where
    still at SIG_DFL) before a card's /dev/ipuN is opened, so every thread
    survives them (libipuxcom(3) "Signals"; block_driver_signals()).

ERRORS
    ipuxcom.Error: errno, message, field, code, explanation, function; raised
    as InvalidValueError (a ValueError), InvalidTypeError (a TypeError) or
    OperationError (an OSError). strerror(rc) is the library's one error
    explainer.

SEE ALSO
    ipuxcom(8), libipuxcom(3), docs/python.md
"""
import numpy as _np

from ._core import Error, InvalidTypeError, InvalidValueError, OperationError
from ._core import _str, lib as _lib, type_error as _type_error, uint as _uint
from .plan import (ROW_WORDS, TILES, Dispatch, FanoutPlan, Insn, P2PPlan, RelayStep, Row,
                   Tile, Timing, decode, disasm, encode, logical_id, patch_index,
                   patch_mcast_dst, patch_mcast_src, patch_recv, patch_recv_restore,
                   patch_send_base, physical_id, plan_fanout, plan_idle, plan_multicast,
                   plan_p2p, plan_p2p_batch, plan_relay, plan_serialized, tile, tile_map)
from .xsim import (Action, DemoMatmul, DemoSum, Hazard, Heatmap, Result, Schedule,
                   ScheduledTransfer, Simulator, Trace, Transfer, demo_matmul, demo_sum,
                   parse_list, schedule, schedule_text, transfer_list)
from .image import HspCall, Image, ImageInfo, Manifest, RedirectReport, crc32, pack, pack_dir
from . import cfg, frames
from .cfg import Block as CfgBlock, Config, Record as CfgRecord, reg_name
from .frames import Batch, Frame, FrameStream, TileFrames, frames_per_tile
from .frames import build as build_frames, decode as decode_frames
from .device import (Device, DeviceInfo, Event, LoadProgress, Monitor, block_driver_signals,
                     devices, events, open)  # noqa: A001 (ipuxcom.open, as the issue asks)

__version__: str = _str(_lib.ipuxcom_version())


def version() -> str:
    """The C library's version ("0.2.0")."""
    return _str(_lib.ipuxcom_version())


def _check_rc(rc: object) -> int:
    """|@rc| of an int argument that C's int holds (either sign)."""
    if isinstance(rc, (int, _np.integer)) and not isinstance(rc, bool):
        return _uint(abs(int(rc)), "rc", "strerror", 31)
    raise _type_error(f"rc is a {type(rc).__name__}, not an integer", "rc", "strerror")


def strerror(rc: int) -> str:
    """The library's one error explainer (ipuxcom_strerror): -E or +E alike."""
    return _str(_lib.ipuxcom_strerror(-_check_rc(rc)))


__all__ = [
    "Error", "InvalidValueError", "InvalidTypeError", "OperationError", "strerror", "version",
    # plans
    "TILES", "ROW_WORDS", "Tile", "tile", "tile_map", "physical_id", "logical_id", "Timing",
    "Row", "P2PPlan", "FanoutPlan", "RelayStep", "Dispatch", "Insn", "plan_p2p",
    "plan_p2p_batch", "plan_multicast", "plan_serialized", "plan_relay", "plan_fanout",
    "plan_idle", "disasm", "decode", "encode", "patch_index", "patch_recv",
    "patch_recv_restore", "patch_mcast_src", "patch_mcast_dst", "patch_send_base",
    # verifier, scheduler, demos, pictures
    "Simulator", "Result", "Hazard", "Action", "Trace", "Heatmap", "Transfer", "Schedule",
    "ScheduledTransfer", "schedule", "schedule_text", "parse_list", "transfer_list", "demo_sum",
    "demo_matmul", "DemoSum", "DemoMatmul",
    # images
    "Image", "ImageInfo", "RedirectReport", "pack", "pack_dir", "crc32", "Manifest", "HspCall",
    # loader frames, IPUCFG1
    "frames", "build_frames", "decode_frames", "frames_per_tile", "FrameStream", "Batch",
    "TileFrames", "Frame", "cfg", "Config", "CfgRecord", "CfgBlock", "reg_name",
    # the device
    "Device", "DeviceInfo", "Event", "LoadProgress", "Monitor", "block_driver_signals",
    "devices", "events", "open",
]
