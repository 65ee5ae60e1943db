# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""IPUIMG1 images (ipuxcom_image.h, docs/ipuimg-format.md): pack per-tile
raw images or a directory of tile ELFs, open, extract, verify, redirect;
host-sync manifests (.ipuhsp, docs/ipuhsp-format.md)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from ._core import (CData, U8Array, _str, check_file, dcrepr, ffi, fspath, lib, new,
                    type_error, u32_array, uint, value_error)

__all__ = ["TILES", "PAYLOAD_BASE", "Buffer", "crc32", "ImageInfo", "TileRecord",
           "RedirectReport", "Image", "pack", "pack_dir", "HspCall", "Manifest"]

TILES: int = int(lib.IPUXCOM_IMG_TILES)
PAYLOAD_BASE: int = int(lib.IPUXCOM_IMG_PAYLOAD_BASE)

Buffer = Union[bytes, bytearray, memoryview, NDArray[Any]]
"""Bytes, or anything with the buffer protocol (a numpy array's bytes)."""

PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def _bytes_view(data: object, name: str, function: str) -> memoryview:
    """@data's bytes as a flat memoryview (numpy arrays C-contiguous first)."""
    if isinstance(data, np.ndarray):
        data = np.ascontiguousarray(data)
    try:
        return memoryview(data).cast("B")   # type: ignore[arg-type]
    except TypeError:
        raise type_error(f"{name} is a {type(data).__name__}, not bytes nor a buffer", name,
                         function) from None


def crc32(data: Buffer, crc: int = 0) -> int:
    """CRC-32 as zlib's (the CRC of IPUIMG1); chain with @crc."""
    b = _bytes_view(data, "data", "crc32")
    return int(lib.ipuxcom_crc32(uint(crc, "crc", "crc32"), ffi.from_buffer(b), b.nbytes))


def _em() -> CData:
    return new("ipuxcom_errmsg")


def _marker(marker: object, fn: str) -> Tuple[int, int]:
    """The two marker words of Image.redirect(marker=...)."""
    m = u32_array(marker, "marker", fn)
    if m.size != 2:
        raise value_error(f"marker has {m.size} words, not 2", "marker", fn)
    return int(m[0]), int(m[1])


def _take(out: CData, out_len: CData) -> bytes:
    try:
        return bytes(ffi.buffer(out[0], out_len[0]))
    finally:
        lib.free(out[0])


@dataclass(frozen=True, repr=False)
class ImageInfo:
    """An image's header (struct ipuxcom_image_info): addresses and CRCs shown in hex."""
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

    def __repr__(self) -> str:
        return dcrepr(self, ("load_base", "entry", "template_crc32", "meta_crc32"))


@dataclass(frozen=True, repr=False)
class TileRecord:
    """A tile's record in the image (struct ipuxcom_image_tile)."""
    patch_offset: int
    patch_size: int
    crc32: int
    patch_count: int
    patch_data: int

    def __repr__(self) -> str:
        return dcrepr(self, ("crc32",))


class RedirectReport(NamedTuple):
    """What Image.redirect(report=True) did: tiles redirected, the target range."""
    tiles: int
    target_min: int
    target_max: int

    def __repr__(self) -> str:
        return (f"RedirectReport(tiles={self.tiles}, target_min={self.target_min:#x}, "
                f"target_max={self.target_max:#x})")


class Image:
    """An IPUIMG1 image, checked when opened.

    Image.open(path) or Image.from_bytes(data); .info; .tile(t) the
    record; .extract(t) a tile's raw image (uint8 array, CRC checked);
    .verify() / .verify_tile(t); .redirect(...) a redirected copy (bytes).
    """

    def __init__(self, handle: CData):
        self._h = ffi.gc(handle, lib.ipuxcom_image_free)

    @classmethod
    def open(cls, path: PathArg) -> "Image":
        """Read and check the IPUIMG1 file at @path."""
        out = ffi.new("struct ipuxcom_image **")
        em = _em()
        check_file(lib.ipuxcom_image_open(fspath(path, "path", "Image.open"), out, em), em,
                   "ipuxcom_image_open")
        return cls(out[0])

    @classmethod
    def from_bytes(cls, data: Buffer) -> "Image":
        """Check an IPUIMG1 file's bytes (copied: @data may change afterwards)."""
        b = ffi.from_buffer(_bytes_view(data, "data", "Image.from_bytes"))
        out = ffi.new("struct ipuxcom_image **")
        em = _em()
        check_file(lib.ipuxcom_image_from_buffer(b, len(b), out, em), em,
                   "ipuxcom_image_from_buffer")
        return cls(out[0])

    @property
    def info(self) -> ImageInfo:
        """The image's header: load base, image size, entry, tiles, template, CRCs."""
        i = new("ipuxcom_image_info")
        check_file(lib.ipuxcom_image_get_info(self._h, i), None, "ipuxcom_image_get_info")
        return ImageInfo(*(int(getattr(i, f)) for f in ImageInfo.__dataclass_fields__))

    def tile(self, t: int) -> TileRecord:
        """Physical tile @t's record (its patch and CRC32)."""
        r = new("ipuxcom_image_tile")
        rc = lib.ipuxcom_image_get_tile(self._h, uint(t, "t", "Image.tile"), r)
        check_file(rc, None, "ipuxcom_image_get_tile", "t")
        return TileRecord(*(int(getattr(r, f)) for f in TileRecord.__dataclass_fields__))

    def extract(self, t: int) -> U8Array:
        """Physical tile @t's raw image (image_size bytes), its CRC32 checked."""
        tile = uint(t, "t", "Image.extract")
        buf = np.empty(self.info.image_size, dtype=np.uint8)
        em = _em()
        check_file(lib.ipuxcom_image_extract(self._h, tile, ffi.from_buffer(buf), buf.size, em),
                   em, "ipuxcom_image_extract")
        return buf

    def verify_tile(self, t: int) -> None:
        """Check physical tile @t's image against its CRC32 (raises Error if not)."""
        em = _em()
        check_file(lib.ipuxcom_image_verify_tile(self._h, uint(t, "t", "Image.verify_tile"),
                                                 em), em, "ipuxcom_image_verify_tile")

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
        fn = "Image.redirect"
        spec = new("ipuxcom_redirect_spec")
        if marker is not None:
            m = _marker(marker, fn)
            spec.by_marker = True
            spec.marker[0], spec.marker[1] = m
        elif target is not None:
            spec.target = uint(target, "target", fn)
        else:
            raise value_error("redirect needs marker or target", "marker", fn)
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
    fn = "pack"
    if isinstance(images, Mapping):
        keys = [uint(t, f"images key {t!r}", fn) for t in images]
        n = uint(tile_count, "tile_count", fn) if tile_count is not None else \
            (max(keys) + 1 if keys else 0)
        items: Dict[int, bytes] = {k: bytes(_bytes_view(v, f"images[{k}]", fn))
                                   for k, v in zip(keys, images.values())}
        sizes = {len(v) for v in items.values()}
        if len(sizes) != 1:
            raise value_error(f"images differ in size ({sorted(sizes)} bytes)" if sizes
                              else "no image", "images", fn)
        zero = bytes(sizes.pop())
        bufs = [items.get(t, zero) for t in range(n)]
    else:
        if isinstance(images, (str, bytes, bytearray, memoryview, np.ndarray)):
            raise type_error(f"images is a {type(images).__name__}; give a sequence of "
                             "per-tile images or a dict tile -> image", "images", fn)
        bufs = [bytes(_bytes_view(v, f"images[{i}]", fn)) for i, v in enumerate(images)]
        n = len(bufs)
        if len({len(b) for b in bufs}) != 1:
            raise value_error("images differ in size" if bufs else "no image", "images", fn)
    p = new("ipuxcom_image_pack_params")
    p.tile_count = n
    p.image_size = len(bufs[0]) if bufs else 0
    p.load_base = uint(load_base, "load_base", fn)
    p.entry = p.load_base if entry is None else uint(entry, "entry", fn)
    p.template_tile = lib.IPUXCOM_IMG_TEMPLATE_AUTO if template is None else \
        uint(template, "template", fn)
    keep = [ffi.from_buffer(b) for b in bufs]
    ptrs = ffi.new("void *[]", keep)
    out = ffi.new("void **")
    length = ffi.new("size_t *")
    em = _em()
    check_file(lib.ipuxcom_image_pack_buffers(p, ptrs, out, length, em), em,
               "ipuxcom_image_pack_buffers")
    return _take(out, length)


def pack_dir(path: PathArg, *, elf: bool = False,
             tile_count: int = TILES, template: Optional[int] = None,
             load_base: int = PAYLOAD_BASE, entry: int = PAYLOAD_BASE) -> bytes:
    """Pack a directory of N.bin raw images, or with elf=True of t_N.elf tile ELFs."""
    fn = "pack_dir"
    o = new("ipuxcom_image_dir_opts")
    check_file(lib.ipuxcom_image_dir_opts_init(o), None, "ipuxcom_image_dir_opts_init")
    o.tile_count = uint(tile_count, "tile_count", fn)
    if template is not None:
        o.template_tile = uint(template, "template", fn)
    o.load_base, o.entry = uint(load_base, "load_base", fn), uint(entry, "entry", fn)
    out = ffi.new("void **")
    length = ffi.new("size_t *")
    em = _em()
    pack_fn = lib.ipuxcom_image_pack_elf_dir if elf else lib.ipuxcom_image_pack_raw_dir
    check_file(pack_fn(fspath(path, "path", fn), o, out, length, em), em,
               "ipuxcom_image_pack_elf_dir" if elf else "ipuxcom_image_pack_raw_dir")
    return _take(out, length)


# ------------------------------------------------------------------ host-sync manifests


@dataclass(frozen=True)
class HspCall:
    """A host-sync call of a manifest: its id, phases and slice sizes (bytes,
    in manifest order)."""
    name: str
    id: int
    phases: int
    inputs: Tuple[int, ...]
    outputs: Tuple[int, ...]


class Manifest:
    """A host-sync manifest (.ipuhsp), parsed and validated by the library.

    Manifest.parse(text) or Manifest.load(path); .calls (name -> HspCall),
    .pages (sizes), .format() the canonical text. Device.hostx_setup() and
    Device.hostx_call() take it.
    """

    def __init__(self, m: CData):
        self._m = m

    @classmethod
    def parse(cls, text: Union[str, bytes]) -> "Manifest":
        """Parse and validate a manifest's text."""
        if isinstance(text, str):
            b = text.encode()
        elif isinstance(text, (bytes, bytearray, memoryview)):
            b = bytes(text)
        else:
            raise type_error(f"text is a {type(text).__name__}, not str or bytes", "text",
                             "Manifest.parse")
        m = new("ipuxcom_hsp_manifest")
        em = _em()
        check_file(lib.ipuxcom_hsp_parse(b, len(b), m, em), em, "ipuxcom_hsp_parse")
        return cls(m)

    @classmethod
    def load(cls, path: PathArg) -> "Manifest":
        """Read, parse and validate the manifest file at @path."""
        m = new("ipuxcom_hsp_manifest")
        em = _em()
        check_file(lib.ipuxcom_hsp_load(fspath(path, "path", "Manifest.load"), m, em), em,
                   "ipuxcom_hsp_load")
        return cls(m)

    @property
    def pages(self) -> List[int]:
        """The host pages' sizes in bytes."""
        return [int(self._m.page_size[i]) for i in range(self._m.npages)]

    @property
    def calls(self) -> Dict[str, HspCall]:
        """The calls by name."""
        out = {}
        for i in range(self._m.ncalls):
            c = self._m.calls[i]
            sl = [self._m.slices[j] for j in range(self._m.nslices)
                  if self._m.slices[j].call == i]
            out[_str(c.name)] = HspCall(_str(c.name), int(c.id), int(c.phases),
                                        tuple(int(x.size) for x in sl if x.dir == 0),
                                        tuple(int(x.size) for x in sl if x.dir == 1))
        return out

    def format(self) -> str:
        """The canonical .ipuhsp text."""
        text = ffi.new("char **")
        n = ffi.new("size_t *")
        em = _em()
        check_file(lib.ipuxcom_hsp_format(self._m, text, n, em), em, "ipuxcom_hsp_format")
        try:
            return bytes(ffi.string(text[0], n[0])).decode()
        finally:
            lib.free(text[0])

    def __repr__(self) -> str:
        return f"<ipuxcom.Manifest {len(self.pages)} pages, calls {list(self.calls)}>"
