#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Build the Python part of the test VM's initramfs: Debian's python3 with
only the modules the device tests load, as a directory tree to copy in.

Run with /usr/bin/python3 (the Makefile does): it imports the package
(PYTHONPATH: the in-tree build), numpy and cffi's backend, runs pytest on
the device tests (they skip without a device) and on a small suite of a
failing, a skipped and a passing test (so that what pytest loads to
report a failure is there too), then writes every module it loaded under
OUT at its host path: Python sources compiled to sourceless .pyc files
(the image's timestamps are fixed, so a cached .pyc would not match its
source and every import would compile it again), extension modules (but
SKIP's) and
the interpreter copied as they are (mkinitramfs.sh --python copies their
shared libraries). The package and its tests go to OUT/python.

Usage: python/vm/vm-files.py OUT TOP BUILD
Prints the number of files and their bytes.
"""
import os
import py_compile
import shutil
import subprocess
import sys
import tempfile

# Loaded but not needed: hashlib falls back to its built-in digests without
# _hashlib, which would bring libcrypto (4.7 MB) along.
SKIP = {"_hashlib", "_ssl"}

PROBE = r"""
import os, sys, tempfile
import numpy, cffi, ipuxcom, pytest
tests = sys.argv[1]
with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, "test_probe.py"), "w") as f:
        f.write("import pytest\n"
                "def test_fail():\n    assert [1, 2, {'a': 3}] == [1, 2, {'a': 4}]\n"
                "def test_raise():\n    raise ValueError('x')\n"
                "@pytest.mark.skip(reason='r')\ndef test_skip():\n    pass\n"
                "def test_ok(tmp_path):\n    assert tmp_path.exists()\n")
    os.environ["IPUXCOM_TAP"] = os.path.join(d, "tap")
    pytest.main(["-q", "-rfE", "-p", "no:cacheprovider", "--rootdir", d,
                 "-c", os.path.join(tests, "conftest.py"),
                 os.path.join(d, "test_probe.py"), os.path.join(tests, "test_device.py")])
for m in list(sys.modules.values()):
    f = getattr(m, "__file__", None)
    if f:
        print("FILE", os.path.realpath(f))
print("FILE", os.path.realpath(sys.executable))
"""


def main() -> int:
    out, top, build = (os.path.abspath(a) for a in sys.argv[1:4])
    tests = os.path.join(top, "python", "tests")
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"),
               PYTHONDONTWRITEBYTECODE="1", IPUXCOM_DEV_PATH="/nonexistent")
    r = subprocess.run([sys.executable, "-c", PROBE, tests], env=env, capture_output=True,
                       text=True, cwd=tempfile.gettempdir())
    files = sorted({ln[5:] for ln in r.stdout.splitlines() if ln.startswith("FILE ")})
    if not files:
        print(r.stdout, r.stderr, file=sys.stderr)
        return 1
    if os.path.exists(out):
        shutil.rmtree(out)
    n = size = 0
    pkg = os.path.realpath(os.path.join(build, "python"))
    for f in files:
        if f.startswith(pkg + os.sep) or f.startswith(tests) or f.startswith(
                tempfile.gettempdir()):
            continue                    # the package and tests: copied below
        if os.path.basename(f).split(".")[0] in SKIP:
            continue
        dst = out + f
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if f.endswith(".py"):
            dst = dst[:-3] + ".pyc"
            py_compile.compile(f, cfile=dst, dfile=f, doraise=True)
        elif f.endswith(".pyc"):
            continue
        else:
            shutil.copy2(f, dst)
        n += 1
        size += os.path.getsize(dst)
    # /usr/bin/python3 -> the interpreter
    exe = os.path.realpath(sys.executable)
    link = out + "/usr/bin/python3"
    if not os.path.lexists(link):
        os.symlink(os.path.basename(exe), link)
    shutil.copytree(pkg, out + "/python", ignore=shutil.ignore_patterns("__pycache__",
                                                                        ".built"))
    shutil.copytree(tests, out + "/python/tests", ignore=shutil.ignore_patterns("__pycache__"))
    for d, _, fs in os.walk(out + "/python"):
        for x in fs:
            n += 1
            size += os.path.getsize(os.path.join(d, x))
    print(f"vm-files: {n} files, {size} bytes (before shared libraries) in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
