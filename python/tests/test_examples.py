# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Each examples/python/*.py runs to PASS with Debian's /usr/bin/python3."""
import os
import subprocess

import pytest

from conftest import BUILD, PYTHON, TOP

EXAMPLES = sorted(p.name for p in (TOP / "examples" / "python").glob("*.py"))


@pytest.mark.parametrize("name", EXAMPLES)
def test_example(name, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(BUILD / "python"))
    r = subprocess.run([PYTHON, str(TOP / "examples" / "python" / name), str(tmp_path)],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.rstrip().endswith("PASS")
