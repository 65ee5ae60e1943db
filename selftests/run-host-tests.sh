#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Run host test binaries (plain and ASan+UBSan builds) and collect their TAP
# in OUT.tap, each block under a "# binary: <path as given>" line. Output is
# echoed as it comes. A crash, a timeout, a short plan or a nonzero exit with
# no failing result (a sanitizer report at exit) becomes a "not ok" line, see
# selftests/tap-verdict.sh.
#
# Each binary's wall time is printed after it ("# time: 12.3 s") and the
# slowest five at the end: where a slow run spent its time.
#
# Usage: selftests/run-host-tests.sh OUT.tap BIN...
# Environment: TEST_TIMEOUT  seconds per binary (default 300)
# Exit status: 1 if any binary failed (or there was none), else 0.
set -euo pipefail

usage() {
	sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'
}
case ${1:-} in
-h | --help) usage; exit 0 ;;
'') usage >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
out=$1
shift
timeout_s=${TEST_TIMEOUT:-300}

# Sanitizers: any report must make the exit status nonzero (ASan and LSan
# do by default, UBSan thanks to -fno-sanitize-recover); no color codes in
# the TAP file. A caller's own settings win.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1:color=never}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:color=never}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$(dirname "$out")"
: >"$out"

failed=0
: >"$tmp/times"
for bin in "$@"; do
	echo "# binary: $bin"
	rc=0
	t0=$(date +%s.%N)
	if [ -x "$bin" ]; then
		# stdin from /dev/null: a test must never wait for a terminal.
		timeout -k 10 "$timeout_s" "$bin" </dev/null 2>&1 |
			tee "$tmp/output" || rc=${PIPESTATUS[0]}
		status=$rc
	else
		echo "# $bin: not found or not executable"
		: >"$tmp/output"
		status=missing
	fi
	verdict=$("$here/tap-verdict.sh" "$bin" "$status" "$tmp/output") || failed=1
	[ -z "$verdict" ] || echo "$verdict"
	echo "# exit status: $status"
	t=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.1f", a - b }')
	echo "# time: $t s"
	echo "$t $bin" >>"$tmp/times"
	{
		echo "# binary: $bin"
		cat "$tmp/output"
		[ -z "$verdict" ] || echo "$verdict"
	} >>"$out"
done

echo "# slowest: $(sort -rn "$tmp/times" | head -n 5 | awk '{ printf "%s%s %ss", (NR > 1 ? ", " : ""), $2, $1 }')"
echo "# results in $out"
"$here/tap-summary.sh" "$out" || failed=1
exit "$failed"
