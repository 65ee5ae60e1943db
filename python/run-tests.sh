#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The Python package's tests (python/tests, pytest) as TAP for
# selftests/run-host-tests.sh: one "ok N name" line per test, after
# pytest's own report as "# " comments. Runs Debian's /usr/bin/python3
# (PYTHON) with the package built in the tree (B/python, `make python`),
# whatever python3 comes first on PATH.
#
# Usage: python/run-tests.sh [TESTS...]     (default: python/tests)
# Environment: B (build), PYTHON (/usr/bin/python3), PYTEST_ARGS (more options,
#   e.g. --ignore=python/tests/test_device.py: check-python leaves the VM's out)
# Exit status: pytest's (0: all passed).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
b=${B:-build}
case $b in /*) ;; *) b=$top/$b ;; esac
py=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
IPUXCOM_TAP=$tmp/tap IPUXCOM_TOP=$top IPUXCOM_BUILD=$b PYTHONPATH=$b/python \
	PYTHONDONTWRITEBYTECODE=1 \
	"$py" -m pytest -p no:cacheprovider -q -rfE ${PYTEST_ARGS:-} "${@:-$top/python/tests}" \
	>"$tmp/log" 2>&1 || rc=$?
sed 's/^/# /' "$tmp/log"
if [ -s "$tmp/tap" ]; then
	cat "$tmp/tap"
else
	echo "1..1"
	echo "not ok 1 pytest ran no test (exit status $rc)"
fi
exit "$rc"
