# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The package's surface (issue 33): every public name documented, typed
(py.typed, mypy --strict clean), arrays where objects are arrays, out=
returning out, addresses in hex, schedules as structured arrays, the raw
CFFI library not public."""
import inspect
import json
import os
import shutil
import subprocess
import types
from pathlib import Path

import numpy as np
import pytest

import ipuxcom
from ipuxcom import cfg, device, frames, image, plan, xsim

from conftest import BUILD, TOP

MODULES = [ipuxcom, plan, xsim, image, cfg, frames, device]


def _public_members(cls):
    """(name, object) of @cls's own public methods and properties."""
    for name, attr in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(attr, (classmethod, staticmethod)):
            yield name, attr.__func__
        elif isinstance(attr, property):
            yield name, attr
        elif inspect.isfunction(attr):
            yield name, attr


def _own_doc(obj) -> str:
    doc = obj.__doc__ or ""
    if inspect.isclass(obj) and doc.startswith(obj.__name__ + "("):
        return ""      # dataclass's or namedtuple's generated signature, not a docstring
    return doc.strip()


def test_every_public_name_has_a_docstring():
    missing = []
    seen = set()
    for mod in MODULES:
        assert _own_doc(mod), f"module {mod.__name__}"
        for name in mod.__all__:
            obj = getattr(mod, name)
            if isinstance(obj, types.ModuleType) or id(obj) in seen:
                continue
            seen.add(id(obj))
            if inspect.isclass(obj):
                if not _own_doc(obj):
                    missing.append(f"{mod.__name__}.{name}")
                for m, attr in _public_members(obj):
                    if not (attr.__doc__ or "").strip():
                        missing.append(f"{mod.__name__}.{name}.{m}")
            elif inspect.isfunction(obj) and not _own_doc(obj):
                missing.append(f"{mod.__name__}.{name}")
    assert not missing, f"{len(missing)} public names without a docstring: {missing}"


def test_all_lists_every_public_definition():
    # a public function or class of a module is in its __all__ (what the
    # docstring test walks); the raw CFFI objects are in none
    for mod in MODULES:
        for name, obj in vars(mod).items():
            if name.startswith("_") or isinstance(obj, types.ModuleType):
                continue
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and \
                    getattr(obj, "__module__", "") == mod.__name__:
                assert name in mod.__all__, f"{mod.__name__}.{name} not in __all__"
        assert "lib" not in mod.__all__ and "ffi" not in mod.__all__, mod.__name__
    # issue: the raw CFFI lib was public as ipuxcom.lib
    assert not hasattr(ipuxcom, "lib") and not hasattr(ipuxcom, "ffi")


def test_exception_classes():
    assert issubclass(ipuxcom.InvalidValueError, ipuxcom.Error)
    assert issubclass(ipuxcom.InvalidValueError, ValueError)
    assert issubclass(ipuxcom.InvalidTypeError, TypeError)
    assert issubclass(ipuxcom.OperationError, OSError)
    # Error(errno, ...) picks the subclass from the errno, as OSError(errno, ...) does
    assert type(ipuxcom.Error(22, "x")) is ipuxcom.InvalidValueError
    e = ipuxcom.Error(2, "gone", "path")
    assert type(e) is ipuxcom.OperationError and e.errno == 2 and e.field == "path"
    assert e.explanation == os.strerror(2) and "gone" in str(e)


def test_array_protocol():
    # issue: np.asarray(plan) was a 0-d object array
    p = ipuxcom.plan_p2p(0, 5, 70)
    a = np.asarray(p)
    assert a.shape == (2, 9) and a.dtype == np.uint32
    assert np.array_equal(a[0], p.send.words) and np.array_equal(a[1], p.recv.words)
    assert np.array_equal(np.asarray(p.recv), p.recv.words)
    assert np.asarray(p, dtype=np.int64).dtype == np.int64
    m = ipuxcom.plan_multicast(0, [3, 9], 8)
    assert np.asarray(m).shape == (3, 9) and np.array_equal(np.asarray(m), m.words)
    c = ipuxcom.Config([(0x2068, 0), (0x2070, 5)])
    assert np.array_equal(np.asarray(c), [[0x2068, 0], [0x2070, 5]])


def test_out_returns_out():
    rows = (np.zeros((2, 9), np.uint32), np.zeros((2, 9), np.uint32))
    got = ipuxcom.plan_p2p_batch([0, 1], [5, 6], 10, out=rows)
    assert got[0] is rows[0] and got[1] is rows[1]
    with pytest.raises(ipuxcom.InvalidValueError) as e:
        ipuxcom.plan_p2p_batch([0, 1], [5, 6], 10, out=(rows[0], rows[0]))
    assert e.value.field == "out"
    img = ipuxcom.Image.from_bytes(ipuxcom.pack([np.arange(20000, dtype=np.uint8)] * 3))
    u32 = np.zeros(ipuxcom.frames.size(img, 0, 2) // 4, np.uint32)
    assert ipuxcom.build_frames(img, 0, 2, out=u32) is u32          # issue: a uint8 view
    assert u32.view(np.uint8).tobytes() == ipuxcom.build_frames(img, 0, 2).tobytes()


def test_hex_reprs_of_addresses():
    t = ipuxcom.Transfer(0, [5, 6], 10, src_addr=0x60000, dst_addrs=[0x50000, 0x50040])
    assert "src_addr=0x60000" in repr(t) and "dst_addrs=[0x50000, 0x50040]" in repr(t)
    st = ipuxcom.schedule([ipuxcom.Transfer(0, 5, 10)]).transfers[0]
    assert "src_addr=0x80000" in repr(st) and "dst_addrs=(0x50000,)" in repr(st)
    assert repr(ipuxcom.CfgRecord(0x2068, 0x10)) == "Record(offset=0x2068, value=0x10)"
    img = ipuxcom.Image.from_bytes(ipuxcom.pack([bytes(64)] * 2))
    assert f"load_base={img.info.load_base:#x}" in repr(img.info)
    sim = ipuxcom.Simulator()
    sim.add_p2p(ipuxcom.plan_p2p(0, 5, 4), 0x60000, 0x50000)
    sim.run()
    send = [a for a in sim.actions() if a.kind == "send"][0]
    assert "value=0x60000" in repr(send)


def test_schedule_as_structured_array(tool, tmp_path):
    xfers = [ipuxcom.Transfer(0, 5, 10), ipuxcom.Transfer(1, [6, 7], 20)]
    s = ipuxcom.schedule(xfers)
    a = s.as_array()
    assert a.dtype == xsim.SCHEDULE_DTYPE and len(a) == 3      # a row per receiver
    assert list(a["transfer"]) == [0, 1, 1]
    assert list(a["receiver"]) == [r for t in s.transfers for r in t.receivers]
    assert list(a["dst_addr"]) == [d for t in s.transfers for d in t.dst_addrs]
    assert list(a["start"]) == [s.transfers[i].start for i in a["transfer"]]
    f = tmp_path / "l.txt"
    f.write_text(ipuxcom.transfer_list(xfers))
    j = json.loads(tool("plan", "schedule", str(f), "-j"))
    assert [t["start"] for t in j["transfers"]] == [int(a["start"][0]), int(a["start"][1])]


def test_py_typed_shipped():
    assert (Path(ipuxcom.__file__).parent / "py.typed").is_file()
    assert (Path(ipuxcom.__file__).parent / "_ipuxcom.pyi").is_file()


def _mypy():
    exe = shutil.which("mypy", path="/usr/bin")
    assert exe, "mypy not installed (make deps: Debian's mypy)"
    return exe


def test_mypy_strict_is_clean():
    """mypy --strict on the package's sources (python/ipuxcom) finds nothing."""
    r = subprocess.run([_mypy(), "--strict", "--cache-dir", str(BUILD / "mypy-cache"),
                        "-p", "ipuxcom"], cwd=TOP / "python", capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0 and "Success: no issues found" in r.stdout, r.stdout + r.stderr


def test_mypy_sees_the_annotations_of_the_built_package(tmp_path):
    """A user's code type-checks against the built package (py.typed): a str
    for a count is reported, the right call is not."""
    user = tmp_path / "user.py"
    user.write_text("import ipuxcom\n"
                    "p = ipuxcom.plan_p2p(0, 5, 70)\n"
                    "n: int = p.count\n"
                    "ipuxcom.plan_p2p(0, 5, 'seventy')\n")
    env = dict(os.environ, MYPYPATH=str(BUILD / "python"))
    r = subprocess.run([_mypy(), "--strict", "--cache-dir", str(BUILD / "mypy-cache"),
                        str(user)], capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 1, r.stdout + r.stderr
    errors = [ln for ln in r.stdout.splitlines() if ": error:" in ln]
    assert len(errors) == 1 and "user.py:4:" in errors[0] and '"str"' in errors[0], r.stdout
