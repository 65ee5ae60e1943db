# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Loader frames from Python: the notes' known sizes, the bytes equal to
`ipuxcom frames`, build -> decode round trip, and every frame error."""
import errno
import json

import numpy as np
import pytest

import ipuxcom
from ipuxcom import frames as fr
from ipuxcom._core import lib


def _image(n=70, size=300, seed=3):
    rng = np.random.default_rng(seed)
    imgs = {t: rng.integers(0, 256, size, dtype=np.uint8) for t in range(n)}
    return imgs, ipuxcom.Image.from_bytes(ipuxcom.pack(imgs))


@pytest.mark.parametrize("size,frames", [
    (212980, 215),          # the notes' known check [S]: 215 frames, 220,160 bytes
    (1, 17), (0x4134, 17),  # every payload padded to 0x4134 bytes: 17 frames at least
    (0x4135, 17), (17 * 992 + 1, 18), (215 * 992, 215), (215 * 992 + 1, 216),
    (643 * 992, 643),
])
def test_frames_per_tile(size, frames):
    assert ipuxcom.frames_per_tile(size) == frames


def test_frames_per_tile_limits():
    assert fr.MIN_PER_TILE == 17 and fr.MAX_PER_TILE == 643 and fr.FRAME_SIZE == 1024
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.frames_per_tile(0)
    assert e.value.errno == errno.EINVAL and e.value.field == "image_size"
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.frames_per_tile(643 * 992 + 1)
    assert e.value.errno == errno.EFBIG and e.value.field == "image_size"


def test_notes_image_size():
    """A 212,980-byte image is 215 frames, 220,160 bytes per tile [S]."""
    img = ipuxcom.Image.from_bytes(ipuxcom.pack([np.zeros(212980, np.uint8)]))
    buf = ipuxcom.build_frames(img, 0, 0)
    assert buf.size == fr.DESC_AREA + 220160
    s = ipuxcom.decode_frames(buf)
    assert s.frames_per_tile == 215 and s.tiles[0].offset == 0x1000


@pytest.mark.parametrize("first,last", [(0, 0), (60, 69), (5, 9), (0, 69)])
def test_build_equals_command(tool, tmp_path, first, last):
    imgs, img = _image()
    path = tmp_path / "a.ipuimg"
    path.write_bytes(ipuxcom.pack(imgs))
    out = tmp_path / "f.bin"
    rep = json.loads(tool("frames", str(path), str(first), str(last), "-o", str(out), "-j"))
    buf = ipuxcom.build_frames(img, first, last)
    assert buf.dtype == np.uint8 and buf.tobytes() == out.read_bytes()
    s = ipuxcom.decode_frames(out.read_bytes())
    assert len(s.batches) == rep["batches"] and s.size == rep["bytes"] == buf.size
    assert s.frames_per_tile == rep["frames_per_tile"]
    assert sorted(s.tiles) == list(range(first, last + 1))
    assert fr.size(img, first, last) == rep["bytes"]


def test_round_trip():
    imgs, img = _image()
    s = ipuxcom.decode_frames(ipuxcom.build_frames(img, 60, 69))
    assert [(b.index, b.first, b.last, b.offset) for b in s.batches] == \
        [(0, 60, 63, 0), (1, 64, 69, s.batches[0].size)]
    for t, want in s.images(300).items():
        assert np.array_equal(want, imgs[t]) and np.array_equal(want, img.extract(t))
    tf = s.tiles[70 - 6]
    assert tf.slot == 0 and tf.count == 17
    assert not tf.payload[300:].any()                # zero padding
    assert [f.chunk for f in tf.frames] == list(range(17))
    assert {f.tile for f in tf.frames} == {64}
    assert [f.final for f in tf.frames] == [False] * 16 + [True]
    # slots of a batch's tiles: tile 66 is slot 2, the slots before are empty
    assert s.tiles[66].slot == 2 and s.batches[1].tiles.keys() == set(range(64, 70))


def test_build_into_uint32_buffer():
    _, img = _image()
    want = ipuxcom.build_frames(img, 3, 8)
    out = np.full(want.size // 4 + 16, 0xDEADBEEF, dtype=np.uint32)
    got = ipuxcom.build_frames(img, 3, 8, out=out)
    assert got is out                     # out= returns out, as numpy's out= does
    assert out[:want.size // 4].tobytes() == want.tobytes()
    assert (out[want.size // 4:] == 0xDEADBEEF).all()      # bytes beyond untouched
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.build_frames(img, 3, 8, out=np.zeros(16, np.uint32))
    assert e.value.field == "out" and e.value.errno == errno.EINVAL


def test_build_errors():
    _, img = _image(4)
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.build_frames(img, 0, 4)
    assert e.value.field == "last" and "0..3" in e.value.message
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.build_frames(img, 3, 2)
    assert e.value.field == "first"
    other = ipuxcom.Image.from_bytes(ipuxcom.pack([np.zeros(64, np.uint8)], load_base=0x50000))
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.build_frames(other, 0, 0)
    assert e.value.errno == errno.EINVAL and "load base 0x50000" in e.value.message
    assert e.value.function == "ipuxcom_frames_batch_size"


def _put(buf, off, value):
    buf[off:off + 4] = np.frombuffer(np.uint32(value).tobytes(), np.uint8)


# (corruption of a one-batch stream of tiles 0..1, code, field)
_F1 = 0x1000 + 17 * 1024          # tile 1's first frame
CORRUPT = [
    (lambda b: _put(b, 600, 1), "DESC_TAIL", "batches[0].descriptor"),
    (lambda b: _put(b, 12, 16), "DESC_COUNT", "batches[0].descriptor[1].count"),
    (lambda b: _put(b, 12, 644), "DESC_COUNT", "batches[0].descriptor[1].count"),
    (lambda b: _put(b, 8, 0x800), "DESC_OFFSET", "batches[0].descriptor[1].offset"),
    (lambda b: _put(b, 8, _F1 + 2), "DESC_OFFSET", "batches[0].descriptor[1].offset"),
    (lambda b: _put(b, 8, _F1 + 1024), "DESC_OFFSET", "batches[0].descriptor[1].offset"),
    (lambda b: _put(b, _F1 + 3 * 1024, 4), "CHUNK", "batches[0].tiles[1].frames[3].chunk"),
    (lambda b: _put(b, _F1 + 3 * 1024 + 4, 2), "TILE", "batches[0].tiles[1].frames[3].tile"),
    (lambda b: _put(b, _F1 + 8, fr.FLAGS_FINAL), "FLAGS", "batches[0].tiles[1].frames[0].flags"),
    (lambda b: _put(b, _F1 + 16 * 1024 + 8, 0), "FLAGS",
     "batches[0].tiles[1].frames[16].flags"),
    (lambda b: _put(b, _F1 + 12, 1), "RESERVED", "batches[0].tiles[1].frames[0].reserved"),
    (lambda b: b.__setitem__(_F1 + 1023, 0), "TRAILER", "batches[0].tiles[1].frames[0].trailer"),
]


@pytest.mark.parametrize("corrupt,code,field", CORRUPT)
def test_decode_rejects(corrupt, code, field):
    _, img = _image(2)
    buf = ipuxcom.build_frames(img, 0, 1).copy()
    ipuxcom.decode_frames(buf)
    corrupt(buf)
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.decode_frames(buf)
    assert e.value.errno == errno.EBADMSG
    assert e.value.code == "IPUXCOM_FRAME_ERR_" + code and e.value.field == field
    reason = getattr(lib, e.value.code)
    assert fr.error_name(reason) in e.value.message


def test_decode_short_or_empty():
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.decode_frames(b"")
    assert e.value.field == "data"
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.decode_frames(bytes(100))
    assert e.value.field == "batches[0].descriptor"
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.decode_frames(bytes(fr.DESC_AREA))     # no slot used
    assert e.value.code == "IPUXCOM_FRAME_ERR_DESC_COUNT"


def test_decode_file(tmp_path):
    _, img = _image(3)
    p = tmp_path / "f.bin"
    p.write_bytes(ipuxcom.build_frames(img, 0, 2).tobytes())
    s = fr.decode_file(p)
    assert sorted(s.tiles) == [0, 1, 2] and s.size == p.stat().st_size
