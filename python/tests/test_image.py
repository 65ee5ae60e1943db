# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""IPUIMG1 from Python: pack, open, extract, verify round-trip."""
import errno
import zlib

import numpy as np
import pytest

import ipuxcom


def _images(n=16, size=256):
    rng = np.random.default_rng(1)
    base = rng.integers(0, 256, size, dtype=np.uint8)
    out = {}
    for t in range(n):
        img = base.copy()
        img[t % size] ^= 0xFF          # each tile differs a little
        img[:4] = np.frombuffer(np.uint32(t).tobytes(), np.uint8)
        out[t] = img
    return out


def test_pack_roundtrip(tmp_path):
    imgs = _images()
    data = ipuxcom.pack(imgs)
    img = ipuxcom.Image.from_bytes(data)
    assert img.info.tile_count == 16 and img.info.image_size == 256
    assert img.info.load_base == ipuxcom.image.PAYLOAD_BASE and len(img) == 16
    for t, want in imgs.items():
        assert np.array_equal(img.extract(t), want)
        assert img.tile(t).crc32 == zlib.crc32(want.tobytes())
    img.verify()
    f = tmp_path / "x.ipuimg"
    f.write_bytes(data)
    again = ipuxcom.Image.open(f)
    assert again.info == img.info
    # deterministic: the same images pack to the same bytes, list or dict
    assert ipuxcom.pack([imgs[t] for t in range(16)]) == data


def test_pack_dir_equals_pack(tmp_path):
    imgs = _images(8, 64)
    for t, v in imgs.items():
        (tmp_path / f"{t}.bin").write_bytes(v.tobytes())
    assert ipuxcom.pack_dir(tmp_path, tile_count=8) == ipuxcom.pack(imgs)


def test_corrupt_image_raises():
    data = bytearray(ipuxcom.pack(_images()))
    data[-1] ^= 0xFF
    with pytest.raises(ipuxcom.Error) as e:
        img = ipuxcom.Image.from_bytes(bytes(data))
        img.verify()
    assert e.value.errno == errno.EBADMSG and e.value.message


def test_crc32():
    assert ipuxcom.crc32(b"123456789") == 0xCBF43926
    a = np.arange(100, dtype=np.uint8)
    assert ipuxcom.crc32(a) == zlib.crc32(a.tobytes())


ORACLE = ("ipuhsp 1\npage 0 size 4096\npage 1 size 4096\nattach 1 0\n"
          "command page 1 offset 0x0\ncall run id 0 phases 2\ncall read id 1 phases 4\n"
          "call write id 2 phases 4\ninput write page 0 offset 0x40 size 64\n"
          "output read page 0 offset 0x40 size 64\nend\n")


def test_manifest_roundtrip(tmp_path):
    m = ipuxcom.Manifest.parse(ORACLE)
    assert m.pages == [4096, 4096]
    c = m.calls
    assert c["write"].inputs == (64,) and c["read"].outputs == (64,)
    assert c["run"].phases == 2 and c["write"].id == 2
    text = m.format()
    assert ipuxcom.Manifest.parse(text).format() == text
    f = tmp_path / "m.ipuhsp"
    f.write_text(text)
    assert ipuxcom.Manifest.load(f).calls == c


def test_manifest_errors():
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.Manifest.parse(ORACLE.replace("size 64", "size 5000"))
    assert e.value.errno == errno.EBADMSG
    assert e.value.message == "line 9: input slice of 'write' at 0x40+5000 exceeds page 0 (4096 bytes)"


def _elf32(payload: bytes, vaddr: int = 0x4C010, entry: int = 0x4C010) -> bytes:
    """A minimal little-endian ELF32 executable with one PT_LOAD of @payload."""
    import struct
    ehsize, phsize = 52, 32
    off = ehsize + phsize
    eh = (b"\x7fELF" + bytes([1, 1, 1]) + bytes(9)
          + struct.pack("<HHIIIIIHHHHHH", 2, 0, 1, entry, ehsize, 0, 0, ehsize, phsize, 1,
                        40, 0, 0))
    ph = struct.pack("<IIIIIIII", 1, off, vaddr, vaddr, len(payload), len(payload), 5, 4)
    return eh + ph + payload


def test_pack_elf_dir(tmp_path):
    payloads = {t: bytes([t]) * 4 + bytes(range(60)) for t in range(4)}
    for t, p in payloads.items():
        (tmp_path / f"t_{t}.elf").write_bytes(_elf32(p))
    img = ipuxcom.Image.from_bytes(ipuxcom.pack_dir(tmp_path, elf=True, tile_count=4))
    assert img.info.load_base == ipuxcom.image.PAYLOAD_BASE and img.info.image_size == 64
    for t, p in payloads.items():
        assert img.extract(t).tobytes() == p
    (tmp_path / "stray.txt").write_text("x")
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.pack_dir(tmp_path, elf=True, tile_count=4)
    assert "stray" in e.value.message


SYNC3 = 0x41800003          # sync, zone 3 (IPUXCOM_INSN_SYNC_SUPERVISOR)
M0, M1 = 0xFEEDF00D, 0x0BADCAFE


def _redirectable(n=4, size=4096, marker_off=0x400):
    """Tiles whose entry is "nop; sync3" and which carry the marker + sync3 at @marker_off
    (selftests/host/image_redirect_test.c's make_raw)."""
    rng = np.random.default_rng(7)
    out = {}
    for t in range(n):
        w = rng.integers(0, 1 << 32, size // 4, dtype=np.uint32)
        w[0], w[1] = 0x12345678, SYNC3
        w[marker_off // 4:marker_off // 4 + 3] = (M0, M1, SYNC3)
        out[t] = w.view(np.uint8)
    return out


def test_redirect_by_marker_equals_command(tool, tmp_path):
    imgs = _redirectable()
    src = tmp_path / "a.ipuimg"
    src.write_bytes(ipuxcom.pack(imgs))
    out = tmp_path / "r.ipuimg"
    tool("image", "redirect", str(src), "-o", str(out), "--marker", f"{M0:#x},{M1:#x}")
    got = ipuxcom.Image.open(src).redirect(marker=(M0, M1))
    assert got == out.read_bytes()
    r = ipuxcom.Image.from_bytes(got)
    r.verify()
    target = ipuxcom.image.PAYLOAD_BASE + 0x40C     # skips the marker and its sync3
    for t, orig in imgs.items():
        w = r.extract(t).view("<u4")
        assert w[0] == 0x12345678 and w[1] == SYNC3                  # kept
        assert w[2] == 0x19000000 | target and w[3] == 0x43000000    # setzi $m0; br $m0
        assert w[4:].tobytes() == orig.view("<u4")[4:].tobytes()     # nothing else
    # idempotent
    assert ipuxcom.Image.from_bytes(got).redirect(marker=(M0, M1)) == got


def test_redirect_to_target():
    img = ipuxcom.Image.from_bytes(ipuxcom.pack(_redirectable(2)))
    r = ipuxcom.Image.from_bytes(img.redirect(target=0x4C800))
    for t in range(2):
        w = r.extract(t).view("<u4")
        assert w[2] == 0x19000000 | 0x4C800 and w[3] == 0x43000000


def test_redirect_report():
    img = ipuxcom.Image.from_bytes(ipuxcom.pack(_redirectable(3)))
    data, rep = img.redirect(marker=(M0, M1), report=True)
    assert data == img.redirect(marker=(M0, M1))
    target = ipuxcom.image.PAYLOAD_BASE + 0x40C
    assert rep == ipuxcom.RedirectReport(tiles=3, target_min=target, target_max=target)
    _, rep = img.redirect(target=0x4C800, report=True)
    assert (rep.tiles, rep.target_min, rep.target_max) == (3, 0x4C800, 0x4C800)


def test_redirect_errors():
    img = ipuxcom.Image.from_bytes(ipuxcom.pack(_redirectable(2)))
    with pytest.raises(ipuxcom.Error) as e:
        img.redirect()
    assert e.value.field == "marker" and e.value.errno == errno.EINVAL
    with pytest.raises(ipuxcom.Error) as e:
        img.redirect(marker=(1, 2))
    assert e.value.errno == errno.ENOENT and e.value.function == "ipuxcom_image_redirect"
    with pytest.raises(ipuxcom.Error) as e:
        img.redirect(target=0x100000)              # setzi cannot encode it
    assert e.value.errno == errno.ERANGE
