# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""`pip install ./python` from the source tree (python/pyproject.toml),
offline, into a venv that sees Debian's numpy and cffi (issue 33).

The tree's python/, libuser/ and uapi/ are copied to a scratch directory
first: setuptools builds in place and would leave python/build/ and
python/ipuxcom.egg-info/ in the work tree (they are git-ignored)."""
import json
import os
import re
import shutil
import subprocess

from conftest import BUILD, PYTHON, TOP

PIP_TIMEOUT = 900     # the library's ~45 sources, -O2, one at a time: ~45 s on 2 loaded CPUs


def _run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert r.returncode == 0, f"{cmd}: exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r.stdout


def test_pip_install_offline_into_a_venv(tmp_path, tool):
    src = tmp_path / "src"
    for d in ("python", "libuser", "uapi"):
        shutil.copytree(TOP / d, src / d, ignore=shutil.ignore_patterns(
            "__pycache__", "build", "*.egg-info", "tests", "bench", "vm"))
    venv = tmp_path / "venv"
    _run([PYTHON, "-m", "venv", "--system-site-packages", str(venv)], timeout=300)
    py = venv / "bin" / "python"
    # --isolated: no pip configuration or environment of this machine; --no-index:
    # nothing from the network; no build isolation, no dependencies: Debian's
    # setuptools, cffi and numpy, seen through --system-site-packages
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
    _run([str(py), "-m", "pip", "--isolated", "install", "--no-index", "--no-build-isolation",
          "--no-deps", str(src / "python")], cwd=tmp_path, env=env, timeout=PIP_TIMEOUT)
    show = _run([str(py), "-m", "pip", "--isolated", "show", "-f", "ipuxcom"], env=env,
                timeout=120)
    assert "Name: ipuxcom" in show
    for f in ("ipuxcom/py.typed", "ipuxcom/_ipuxcom.pyi", "ipuxcom/plan.py"):
        assert f in show, show
    # the installed package, not the tree's build: run from elsewhere, no PYTHONPATH
    code = ("import json, ipuxcom, sys\n"
            "p = ipuxcom.plan_p2p(3, 1000, 65)\n"
            "print(json.dumps(dict(file=ipuxcom.__file__, version=ipuxcom.__version__,\n"
            "    prefix=sys.prefix, recv=[f'0x{w:08x}' for w in p.recv.words])))\n")
    got = json.loads(_run([str(py), "-c", code], cwd=tmp_path, env=env, timeout=120))
    assert got["file"].startswith(str(venv)), got["file"]
    j = json.loads(tool("plan", "p2p", "3", "1000", "65", "-j"))
    assert got["recv"] == j["rows"][1]["words"]
    with open(TOP / "libuser" / "include" / "ipuxcom.h") as f:
        assert re.search(r'^#define IPUXCOM_LIB_VERSION\s+"%s"$' % re.escape(got["version"]),
                         f.read(), re.M)
    # what make python built reports the same version
    assert got["version"] == _run([PYTHON, "-c", "import ipuxcom; print(ipuxcom.__version__)"],
                                  env=dict(env, PYTHONPATH=str(BUILD / "python"))).strip()


def test_pip_refuses_a_copy_without_the_library(tmp_path):
    """Outside the source tree (no libuser/), the build says what it needs."""
    src = tmp_path / "python"
    shutil.copytree(TOP / "python", src, ignore=shutil.ignore_patterns(
        "__pycache__", "build", "*.egg-info", "tests", "bench", "vm"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON",
                                                                    "IPUXCOM_SRCDIR"))}
    r = subprocess.run([PYTHON, str(src / "setup.py"), "--version"], cwd=src,
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode != 0
    assert "no libipuxcom sources" in r.stderr and "pip install ./python" in r.stderr
