# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Secondary-loader frames (ipuxcom_image.h "loader frames", libuser/src/frames.c):
what the loaders read from the transport buffer, built from an IPUIMG1
image by the library, and decoded back into Python objects.

A batch is 64 physical tiles from a multiple of 64. Its buffer is a 4 KiB
descriptor area (64 entries of {u32 byte offset of the tile's first frame,
u32 frame count}, zero after byte 512) and, from 0x1000, each tile's 1 KiB
frames: u32 chunk index, u32 physical tile, u32 flags (0x08000000 on the
final frame), u32 zero, 992 payload bytes (the image, zero padded to at
least 0x4134 bytes), 16 bytes of 0xff. A range of tiles crossing a batch
boundary is one such buffer per batch, one after the other (what
``ipuxcom frames`` writes).

build() uses ipuxcom_frames_build(); decode() checks a stream the way the
module's LOAD_BATCH does (the enum ipuxcom_frame_error reasons), except
that an all-zero descriptor slot is a tile the stream does not carry.
"""
from __future__ import annotations

import errno as _errno
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from ._core import (U8Array, _str, check_file, ffi, lib, new, read_file, type_error, uint,
                    value_error)
from ._core import Error as Error
from .image import Buffer, Image, PathArg, _bytes_view

DESC_AREA: int = int(lib.IPUXCOM_FRAMES_DESC_AREA)
DESC_ENTRIES: int = int(lib.IPUXCOM_FRAMES_DESC_ENTRIES)
FRAME_SIZE: int = int(lib.IPUXCOM_FRAME_SIZE)
FRAME_HEADER: int = int(lib.IPUXCOM_FRAME_HEADER)
FRAME_PAYLOAD: int = int(lib.IPUXCOM_FRAME_PAYLOAD)
FRAME_TRAILER: int = int(lib.IPUXCOM_FRAME_TRAILER)
FLAGS_FINAL: int = int(lib.IPUXCOM_FRAME_FLAGS_FINAL)
MIN_PER_TILE: int = int(lib.IPUXCOM_FRAMES_MIN_PER_TILE)
MAX_PER_TILE: int = int(lib.IPUXCOM_FRAMES_MAX_PER_TILE)
MIN_PAYLOAD: int = int(lib.IPUXCOM_FRAMES_MIN_PAYLOAD)

_REASONS = {int(getattr(lib, n)): n for n in dir(lib) if n.startswith("IPUXCOM_FRAME_ERR_")}


def error_name(reason: int) -> str:
    """The library's text for an enum ipuxcom_frame_error (ipuxcom_frame_error_name)."""
    return _str(lib.ipuxcom_frame_error_name(reason))


def frames_per_tile(image_size: int) -> int:
    """Frames of each tile for an image of @image_size bytes (17..643)."""
    n = ffi.new("uint32_t *")
    em = new("ipuxcom_errmsg")
    rc = lib.ipuxcom_frames_per_tile(uint(image_size, "image_size", "frames_per_tile"), n, em)
    check_file(rc, em, "ipuxcom_frames_per_tile", "image_size")
    return int(n[0])


def _batches(first: int, last: int) -> Iterator[Tuple[int, int]]:
    """(first, last) of each 64-tile batch the range touches, as `ipuxcom frames`."""
    b = first
    while True:
        e = min(b | (DESC_ENTRIES - 1), last)
        yield b, e
        if e == last:
            return
        b = e + 1


def _range_error(img: Image, first: object, last: object, fn: str) -> Tuple[int, int]:
    if not isinstance(img, Image):
        raise type_error(f"img is a {type(img).__name__}, not an ipuxcom.Image", "img", fn)
    f, la = uint(first, "first", fn), uint(last, "last", fn)
    n = img.info.tile_count
    for name, v in (("first", f), ("last", la)):
        if not 0 <= v < n:
            raise value_error(f"{name} tile {v} outside the image's tiles 0..{n - 1}", name,
                              fn)
    if f > la:
        raise value_error(f"first tile {f} after last tile {la}", "first", fn)
    return f, la


def size(img: Image, first: int, last: int) -> int:
    """Bytes of the frames of physical tiles @first..@last (one buffer per batch)."""
    first, last = _range_error(img, first, last, "ipuxcom.frames.size")
    total = 0
    n = ffi.new("size_t *")
    for b, e in _batches(first, last):
        em = new("ipuxcom_errmsg")
        check_file(lib.ipuxcom_frames_batch_size(img._h, b, e, n, em), em,
                   "ipuxcom_frames_batch_size")
        total += int(n[0])
    return total


def build(img: Image, first: int, last: int, out: Optional[NDArray[Any]] = None
          ) -> NDArray[Any]:
    """The loader frames of physical tiles @first..@last of @img.

    Returns a uint8 array of size(img, first, last) bytes, byte for byte
    what ``ipuxcom frames IMG FIRST LAST -o FILE`` writes. With @out (a
    writable C-contiguous numpy array of any dtype, e.g. uint8 or uint32,
    of at least that many bytes) the frames are built straight into it
    and @out itself is returned (as numpy's out= does); bytes beyond the
    frames are not touched (``out.view(np.uint8)[:size(...)]`` are the
    frames).
    """
    fn = "ipuxcom.frames.build"
    first, last = _range_error(img, first, last, fn)
    total = size(img, first, last)
    if out is None:
        buf = np.empty(total, dtype=np.uint8)
    else:
        if not isinstance(out, np.ndarray):
            raise type_error(f"out is a {type(out).__name__}, not a numpy array", "out", fn)
        if not out.flags.c_contiguous or not out.flags.writeable:
            raise value_error("out must be a writable C-contiguous numpy array", "out", fn)
        if out.nbytes < total:
            raise value_error(f"out has {out.nbytes} bytes; tiles {first}..{last} need {total}",
                              "out", fn)
        buf = out.reshape(-1).view(np.uint8)[:total]
    pos = 0
    n = ffi.new("size_t *")
    for b, e in _batches(first, last):
        em = new("ipuxcom_errmsg")
        check_file(lib.ipuxcom_frames_batch_size(img._h, b, e, n, em), em,
                   "ipuxcom_frames_batch_size")
        part = buf[pos:pos + n[0]]
        check_file(lib.ipuxcom_frames_build(img._h, b, e, ffi.from_buffer(part), part.size, em),
                   em, "ipuxcom_frames_build")
        pos += int(n[0])
    return buf if out is None else out


@dataclass(frozen=True)
class Frame:
    """One 1 KiB frame: its header words and a view of its 992 payload bytes."""
    chunk: int
    tile: int
    flags: int
    reserved: int
    payload: U8Array = field(repr=False, compare=False)

    @property
    def final(self) -> bool:
        """The tile's last frame (flags 0x08000000)."""
        return self.flags == FLAGS_FINAL


@dataclass(frozen=True)
class TileFrames:
    """A tile's descriptor slot and frames within one batch."""
    tile: int
    slot: int
    offset: int          # byte offset of the first frame within the batch buffer
    frames: List[Frame] = field(repr=False, compare=False)

    @property
    def count(self) -> int:
        """The tile's frames in this batch."""
        return len(self.frames)

    @property
    def payload(self) -> U8Array:
        """The frames' payloads, concatenated (count x 992 bytes, uint8)."""
        if not self.frames:
            return np.empty(0, dtype=np.uint8)
        return np.concatenate([f.payload for f in self.frames])

    def image(self, image_size: int) -> U8Array:
        """The tile's raw image: the first @image_size payload bytes."""
        return self.payload[:image_size]


@dataclass(frozen=True)
class Batch:
    """One batch's transport buffer within a stream."""
    index: int           # batch number: the tiles' physical id // 64
    offset: int          # byte offset of the buffer in the stream
    size: int            # bytes: the descriptor area and every frame
    tiles: Dict[int, TileFrames] = field(repr=False, compare=False)

    @property
    def first(self) -> int:
        """The lowest physical tile the batch carries."""
        return min(self.tiles)

    @property
    def last(self) -> int:
        """The highest physical tile the batch carries."""
        return max(self.tiles)


@dataclass(frozen=True)
class FrameStream:
    """A decoded frame stream: its batches and every tile's frames."""
    batches: List[Batch]

    @property
    def tiles(self) -> Dict[int, TileFrames]:
        """Physical tile -> its frames, over every batch."""
        out: Dict[int, TileFrames] = {}
        for b in self.batches:
            out.update(b.tiles)
        return out

    @property
    def frames_per_tile(self) -> int:
        """Frames of every tile (the library gives each tile the same count)."""
        counts = {t.count for t in self.tiles.values()}
        return counts.pop() if len(counts) == 1 else 0

    @property
    def size(self) -> int:
        """The stream's bytes: every batch's buffer."""
        return sum(b.size for b in self.batches)

    def images(self, image_size: int) -> Dict[int, U8Array]:
        """Physical tile -> its raw image (the first @image_size payload bytes)."""
        return {t: tf.image(image_size) for t, tf in self.tiles.items()}


def _reject(reason: int, where: str, what: str, offset: int) -> Error:
    name = _REASONS.get(reason)
    return Error(_errno.EBADMSG, f"{where}: {error_name(reason)} ({what}, stream offset "
                 f"{offset:#x})", where, name, "",
                 "ipuxcom.frames.decode")


def _decode_batch(d: U8Array, pos: int, k: int) -> Batch:
    words = d[pos:pos + DESC_AREA].view("<u4")
    tail = d[pos + DESC_ENTRIES * 8:pos + DESC_AREA]
    bad = np.flatnonzero(tail)
    if bad.size:
        raise _reject(lib.IPUXCOM_FRAME_ERR_DESC_TAIL, f"batches[{k}].descriptor",
                      f"byte {DESC_ENTRIES * 8 + int(bad[0])} is {int(tail[bad[0]]):#x}",
                      pos + DESC_ENTRIES * 8 + int(bad[0]))
    avail = d.size - pos
    extent = DESC_AREA
    base: Optional[int] = None
    tiles: Dict[int, TileFrames] = {}
    for i in range(DESC_ENTRIES):
        off, n = int(words[2 * i]), int(words[2 * i + 1])
        where = f"batches[{k}].descriptor[{i}]"
        if off == 0 and n == 0:
            continue        # a tile this stream does not carry
        if not MIN_PER_TILE <= n <= MAX_PER_TILE:
            raise _reject(lib.IPUXCOM_FRAME_ERR_DESC_COUNT, where + ".count",
                          f"count {n}, not {MIN_PER_TILE}..{MAX_PER_TILE}", pos + 8 * i + 4)
        if off < DESC_AREA or off % 4 or off + n * FRAME_SIZE > avail:
            raise _reject(lib.IPUXCOM_FRAME_ERR_DESC_OFFSET, where + ".offset",
                          f"offset {off:#x} for {n} frames, {avail} bytes left",
                          pos + 8 * i)
        frames = []
        for c in range(n):
            fo = pos + off + c * FRAME_SIZE
            fr = d[fo:fo + FRAME_SIZE]
            chunk, tile, flags, reserved = (int(x) for x in fr[:FRAME_HEADER].view("<u4"))
            fw = f"batches[{k}].tiles[{i}].frames[{c}]"
            if base is None:
                base = tile - i
            if chunk != c:
                raise _reject(lib.IPUXCOM_FRAME_ERR_CHUNK, fw + ".chunk",
                              f"chunk {chunk}, frame {c}", fo)
            if tile != base + i or base % DESC_ENTRIES:
                raise _reject(lib.IPUXCOM_FRAME_ERR_TILE, fw + ".tile",
                              f"tile {tile} in descriptor slot {i}", fo + 4)
            want = FLAGS_FINAL if c == n - 1 else 0
            if flags != want:
                raise _reject(lib.IPUXCOM_FRAME_ERR_FLAGS, fw + ".flags",
                              f"flags {flags:#x}, expected {want:#x}", fo + 8)
            if reserved:
                raise _reject(lib.IPUXCOM_FRAME_ERR_RESERVED, fw + ".reserved",
                              f"reserved {reserved:#x}", fo + 12)
            if not np.all(fr[FRAME_SIZE - FRAME_TRAILER:] == 0xFF):
                raise _reject(lib.IPUXCOM_FRAME_ERR_TRAILER, fw + ".trailer",
                              "trailer bytes not all 0xff", fo + FRAME_SIZE - FRAME_TRAILER)
            frames.append(Frame(chunk, tile, flags, reserved,
                                fr[FRAME_HEADER:FRAME_HEADER + FRAME_PAYLOAD]))
        if base is not None:        # n >= MIN_PER_TILE frames: always set
            tiles[base + i] = TileFrames(base + i, i, off, frames)
        extent = max(extent, off + n * FRAME_SIZE)
    if not tiles:
        raise _reject(lib.IPUXCOM_FRAME_ERR_DESC_COUNT, f"batches[{k}].descriptor",
                      "no descriptor slot is used", pos)
    return Batch((base or 0) // DESC_ENTRIES, pos, extent, tiles)


def decode(data: Buffer) -> FrameStream:
    """Decode and check a frame stream (bytes, a file's contents, a numpy array).

    Batches follow one another; each one ends after its last frame. Every
    used descriptor slot and frame is checked as LOAD_BATCH checks it;
    a failure raises Error (errno EBADMSG) whose .field names the slot or
    frame (``"batches[0].tiles[5].frames[3].flags"``) and whose .code is
    the IPUXCOM_FRAME_ERR_* name. Frames' payloads are views of @data.
    """
    d: U8Array = np.frombuffer(_bytes_view(data, "data", "ipuxcom.frames.decode"),
                               dtype=np.uint8)
    batches: List[Batch] = []
    pos = 0
    while pos < d.size:
        if d.size - pos < DESC_AREA:
            raise Error(_errno.EBADMSG, f"batches[{len(batches)}]: {d.size - pos} bytes, "
                        f"shorter than the {DESC_AREA}-byte descriptor area",
                        f"batches[{len(batches)}].descriptor", None,
                        "", "ipuxcom.frames.decode")
        b = _decode_batch(d, pos, len(batches))
        batches.append(b)
        pos += b.size
    if not batches:
        raise Error(_errno.EBADMSG, "empty frame stream", "data", None,
                    "", "ipuxcom.frames.decode")
    return FrameStream(batches)


def decode_file(path: PathArg) -> FrameStream:
    """decode() of a file's contents (what ``ipuxcom frames ... -o FILE`` wrote)."""
    return decode(read_file(path, "path", "ipuxcom.frames.decode_file"))


__all__ = ["Frame", "TileFrames", "Batch", "FrameStream", "frames_per_tile", "size",
           "build", "decode", "decode_file", "error_name"]
