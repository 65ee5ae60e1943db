# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Test setup for the ipuxcom package, and a small TAP reporter.

With IPUXCOM_TAP=FILE (python/run-tests.sh sets it) every test's outcome
is written to FILE as TAP ("1..N", "ok N name", "not ok N name",
"ok N name # SKIP reason"), which selftests/run-host-tests.sh and
tap-summary.sh count like the C tests' kselftest output.
"""
import os
import subprocess
from pathlib import Path

import pytest

TOP = Path(os.environ.get("IPUXCOM_TOP", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ.get("IPUXCOM_BUILD", TOP / "build"))
PYTHON = "/usr/bin/python3"


@pytest.fixture(scope="session")
def tool():
    """Run the in-tree ipuxcom command: tool("plan", "p2p", ...) -> stdout."""
    exe = BUILD / "ipuxcom"
    if not exe.exists():
        pytest.skip(f"{exe} not built (make tools)")

    def run(*args: str) -> str:
        return subprocess.run([str(exe), *args], check=True, capture_output=True,
                              text=True).stdout
    return run


class _Tap:
    def __init__(self, path: str):
        self.path = path
        self.lines = []
        self.n = 0
        self.outcomes = {}

    def pytest_collection_modifyitems(self, items):
        self.total = len(items)

    def pytest_runtest_logreport(self, report):
        nid = report.nodeid.split("::", 1)[-1]
        if report.when == "setup" and report.skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else "skipped"
            self.outcomes[nid] = ("ok", f" # SKIP {reason}")
        elif report.failed:
            self.outcomes[nid] = ("not ok", "")
        elif report.when == "call" and nid not in self.outcomes:
            self.outcomes[nid] = ("ok", " # SKIP " + str(report.longrepr[2])
                                  if report.skipped else "")

    def pytest_sessionfinish(self, session):
        with open(self.path, "w") as f:
            f.write(f"1..{len(self.outcomes)}\n")
            for i, (nid, (st, extra)) in enumerate(self.outcomes.items(), 1):
                f.write(f"{st} {i} {nid}{extra}\n")


def pytest_configure(config):
    path = os.environ.get("IPUXCOM_TAP")
    if path:
        config.pluginmanager.register(_Tap(path), "ipuxcom-tap")
