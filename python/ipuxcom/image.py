# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""IPUIMG1 images (ipuxcom_image.h, docs/ipuimg-format.md): pack per-tile
raw images or a directory of tile ELFs, open, extract, verify, redirect;
host-sync manifests (.ipuhsp, docs/ipuhsp-format.md)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Dict, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from ._core import Error, _str, check_file, ffi, fspath, lib, new

TILES: int = lib.IPUXCOM_IMG_TILES
PAYLOAD_BASE: int = lib.IPUXCOM_IMG_PAYLOAD_BASE

Buffer = Union[bytes, bytearray, memoryview, np.ndarray]


def crc32(data: Buffer, crc: int = 0) -> int:
    """CRC-32 as zlib's (the CRC of IPUIMG1); chain with @crc."""
    b = memoryview(np.ascontiguousarray(data) if isinstance(data, np.ndarray) else data)
    return lib.ipuxcom_crc32(crc, ffi.from_buffer(b.cast("B")), b.nbytes)


def _em():
    return new("ipuxcom_errmsg")


def _take(out, out_len) -> bytes:
    try:
        return bytes(ffi.buffer(out[0], out_len[0]))
    finally:
        lib.free(out[0])


@dataclass(frozen=True)
class ImageInfo:
    load_base: int
    image_size: int
    entry: int
    tile_count: int
    template_tile: int
    template_crc32: int
    patch_area_size: int
    meta_crc32: int
    file_size: int
    patch_count: int
    patch_data: int
    unpatched_tiles: int
    max_tile_patch_size: int


@dataclass(frozen=True)
class TileRecord:
    patch_offset: int
    patch_size: int
    crc32: int
    patch_count: int
    patch_data: int


class RedirectReport(NamedTuple):
    """What Image.redirect(report=True) did: tiles redirected, the target range."""
    tiles: int
    target_min: int
    target_max: int


class Image:
    """An IPUIMG1 image, checked when opened.

    Image.open(path) or Image.from_bytes(data); .info; .tile(t) the
    record; .extract(t) a tile's raw image (uint8 array, CRC checked);
    .verify() / .verify_tile(t); .redirect(...) a redirected copy (bytes).
    """

    def __init__(self, handle):
        self._h = ffi.gc(handle, lib.ipuxcom_image_free)

    @classmethod
    def open(cls, path: Union[str, os.PathLike]) -> "Image":
        out = ffi.new("struct ipuxcom_image **")
        em = _em()
        check_file(lib.ipuxcom_image_open(fspath(path), out, em), em, "ipuxcom_image_open")
        return cls(out[0])

    @classmethod
    def from_bytes(cls, data: Buffer) -> "Image":
        b = ffi.from_buffer(data)
        out = ffi.new("struct ipuxcom_image **")
        em = _em()
        check_file(lib.ipuxcom_image_from_buffer(b, len(b), out, em), em,
                   "ipuxcom_image_from_buffer")
        return cls(out[0])

    @property
    def info(self) -> ImageInfo:
        i = new("ipuxcom_image_info")
        check_file(lib.ipuxcom_image_get_info(self._h, i), None, "ipuxcom_image_get_info")
        return ImageInfo(*(getattr(i, f) for f in ImageInfo.__dataclass_fields__))

    def tile(self, t: int) -> TileRecord:
        r = new("ipuxcom_image_tile")
        rc = lib.ipuxcom_image_get_tile(self._h, t, r)
        check_file(rc, None, "ipuxcom_image_get_tile")
        return TileRecord(*(getattr(r, f) for f in TileRecord.__dataclass_fields__))

    def extract(self, t: int) -> np.ndarray:
        """Physical tile @t's raw image (image_size bytes), its CRC32 checked."""
        buf = np.empty(self.info.image_size, dtype=np.uint8)
        em = _em()
        check_file(lib.ipuxcom_image_extract(self._h, t, ffi.from_buffer(buf), buf.size, em), em,
                   "ipuxcom_image_extract")
        return buf

    def verify_tile(self, t: int) -> None:
        em = _em()
        check_file(lib.ipuxcom_image_verify_tile(self._h, t, em), em,
                   "ipuxcom_image_verify_tile")

    def verify(self) -> None:
        """Check every tile (raises Error at the first failure)."""
        em = _em()
        check_file(lib.ipuxcom_image_verify(self._h, em), em, "ipuxcom_image_verify")

    def redirect(self, *, marker: Optional[Sequence[int]] = None,
                 target: Optional[int] = None,
                 report: bool = False) -> Union[bytes, Tuple[bytes, "RedirectReport"]]:
        """Every tile's entry redirected (by @marker words, or to @target): the new file.

        With @report=True: (the file, RedirectReport), which says how many
        tiles were redirected and the lowest and highest target address
        (the library's struct ipuxcom_redirect_report, as the command prints it).
        """
        spec = new("ipuxcom_redirect_spec")
        if marker is not None:
            spec.by_marker = True
            spec.marker[0], spec.marker[1] = marker
        elif target is not None:
            spec.target = target
        else:
            raise Error(22, "redirect needs marker or target", "marker", None,
                        "invalid argument", "Image.redirect")
        out = ffi.new("void **")
        n = ffi.new("size_t *")
        rep = new("ipuxcom_redirect_report")
        em = _em()
        check_file(lib.ipuxcom_image_redirect(self._h, spec, out, n, rep, em), em,
                   "ipuxcom_image_redirect")
        data = _take(out, n)
        if report:
            return data, RedirectReport(rep.tiles, rep.target_min, rep.target_max)
        return data

    def __len__(self) -> int:
        return self.info.tile_count

    def __repr__(self) -> str:
        i = self.info
        return (f"<ipuxcom.Image {i.tile_count} tiles x {i.image_size} bytes at "
                f"{i.load_base:#x}, template {i.template_tile}, {i.file_size} bytes>")


def pack(images: Union[Mapping[int, Buffer], Sequence[Buffer]], *,
         load_base: int = PAYLOAD_BASE, entry: Optional[int] = None,
         template: Optional[int] = None, tile_count: Optional[int] = None) -> bytes:
    """Pack raw per-tile images into an IPUIMG1 file (bytes).

    @images: a dict physical tile -> bytes/ndarray, or a sequence in tile
    order; all the same size. Tiles missing from a dict are zero images.
    @entry defaults to @load_base; @template None lets the packer choose.
    """
    if isinstance(images, Mapping):
        n = tile_count if tile_count is not None else max(images) + 1
        items: Dict[int, bytes] = {t: bytes(memoryview(np.ascontiguousarray(v)
                                                       if isinstance(v, np.ndarray) else v))
                                   for t, v in images.items()}
        sizes = {len(v) for v in items.values()}
        zero = bytes(sizes.pop()) if len(sizes) == 1 else None
        if zero is None:
            raise Error(22, "images differ in size", "images", None, "invalid argument", "pack")
        bufs = [items.get(t, zero) for t in range(n)]
    else:
        bufs = [bytes(memoryview(np.ascontiguousarray(v)) if isinstance(v, np.ndarray) else v)
                for v in images]
        n = len(bufs)
        if len({len(b) for b in bufs}) != 1:
            raise Error(22, "images differ in size", "images", None, "invalid argument", "pack")
    p = new("ipuxcom_image_pack_params")
    p.tile_count = n
    p.image_size = len(bufs[0])
    p.load_base = load_base
    p.entry = load_base if entry is None else entry
    p.template_tile = lib.IPUXCOM_IMG_TEMPLATE_AUTO if template is None else template
    keep = [ffi.from_buffer(b) for b in bufs]
    ptrs = ffi.new("void *[]", keep)
    out = ffi.new("void **")
    length = ffi.new("size_t *")
    em = _em()
    check_file(lib.ipuxcom_image_pack_buffers(p, ptrs, out, length, em), em,
               "ipuxcom_image_pack_buffers")
    return _take(out, length)


def pack_dir(path: Union[str, os.PathLike], *, elf: bool = False,
             tile_count: int = TILES, template: Optional[int] = None,
             load_base: int = PAYLOAD_BASE, entry: int = PAYLOAD_BASE) -> bytes:
    """Pack a directory of N.bin raw images, or with elf=True of t_N.elf tile ELFs."""
    o = new("ipuxcom_image_dir_opts")
    check_file(lib.ipuxcom_image_dir_opts_init(o), None, "ipuxcom_image_dir_opts_init")
    o.tile_count = tile_count
    if template is not None:
        o.template_tile = template
    o.load_base, o.entry = load_base, entry
    out = ffi.new("void **")
    length = ffi.new("size_t *")
    em = _em()
    fn = lib.ipuxcom_image_pack_elf_dir if elf else lib.ipuxcom_image_pack_raw_dir
    check_file(fn(fspath(path), o, out, length, em), em,
               "ipuxcom_image_pack_elf_dir" if elf else "ipuxcom_image_pack_raw_dir")
    return _take(out, length)


# ------------------------------------------------------------------ host-sync manifests


@dataclass(frozen=True)
class HspCall:
    name: str
    id: int
    phases: int
    inputs: tuple     # slice sizes in bytes, in manifest order
    outputs: tuple


class Manifest:
    """A host-sync manifest (.ipuhsp), parsed and validated by the library.

    Manifest.parse(text) or Manifest.load(path); .calls (name -> HspCall),
    .pages (sizes), .format() the canonical text. Device.hostx_setup() and
    Device.hostx_call() take it.
    """

    def __init__(self, m):
        self._m = m

    @classmethod
    def parse(cls, text) -> "Manifest":
        b = text.encode() if isinstance(text, str) else bytes(text)
        m = new("ipuxcom_hsp_manifest")
        em = _em()
        check_file(lib.ipuxcom_hsp_parse(b, len(b), m, em), em, "ipuxcom_hsp_parse")
        return cls(m)

    @classmethod
    def load(cls, path: Union[str, os.PathLike]) -> "Manifest":
        m = new("ipuxcom_hsp_manifest")
        em = _em()
        check_file(lib.ipuxcom_hsp_load(fspath(path), m, em), em, "ipuxcom_hsp_load")
        return cls(m)

    @property
    def pages(self) -> list:
        return [self._m.page_size[i] for i in range(self._m.npages)]

    @property
    def calls(self) -> Dict[str, HspCall]:
        out = {}
        for i in range(self._m.ncalls):
            c = self._m.calls[i]
            sl = [self._m.slices[j] for j in range(self._m.nslices)
                  if self._m.slices[j].call == i]
            out[_str(c.name)] = HspCall(_str(c.name), c.id, c.phases,
                                        tuple(x.size for x in sl if x.dir == 0),
                                        tuple(x.size for x in sl if x.dir == 1))
        return out

    def format(self) -> str:
        """The canonical .ipuhsp text."""
        text = ffi.new("char **")
        n = ffi.new("size_t *")
        em = _em()
        check_file(lib.ipuxcom_hsp_format(self._m, text, n, em), em, "ipuxcom_hsp_format")
        try:
            return ffi.string(text[0], n[0]).decode()
        finally:
            lib.free(text[0])

    def __repr__(self) -> str:
        return f"<ipuxcom.Manifest {len(self.pages)} pages, calls {list(self.calls)}>"
