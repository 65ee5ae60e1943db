#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Judge one test binary's run from its TAP output and exit status, and print
# the TAP result lines its own output lacks, so that a crash, a timeout or a
# binary that never ran is counted as a failure by selftests/tap-summary.sh.
# Shared by selftests/run-host-tests.sh and selftests/vm/run-vm.sh.
#
# Usage: selftests/tap-verdict.sh NAME STATUS OUTPUT-FILE
#   STATUS  the exit status, or "missing" (the binary never ran) or "noend"
#           (it started but the VM died or hung before it ended)
# Prints nothing if the output speaks for itself. Exits 1 if the binary
# failed (own "not ok" lines included), else 0.
#
# Rules (top-level TAP lines only; the kselftest harness prints "1..N",
# "ok N name", "not ok N name", "ok N # SKIP reason", "# comments"):
#   missing / noend                  -> not ok
#   exit 124, 137, 143 (timeout)     -> not ok
#   fewer (or more) results than 1..N -> not ok
#   exit status neither 0 nor 4 (KSFT_SKIP) and no "not ok" line,
#   e.g. a signal or a sanitizer report at exit -> not ok
#   no result at all: "1..0" or exit 4 -> ok # SKIP, else not ok
set -eu

usage() {
	sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'
}
case ${1:-} in -h | --help) usage; exit 0 ;; esac
[ $# -eq 3 ] || { usage >&2; exit 2; }
name=$1 status=$2 file=$3

# "plan results failures skip" of the output, as positional parameters.
# shellcheck disable=SC2046
set -- $(awk '
	/^1\.\.[0-9]+/ && plan == "" { plan = $1; sub(/^1\.\./, "", plan)
		if (match($0, /# *[Ss][Kk][Ii][Pp]/)) skip = "skip" }
	/^(not )?ok( |$)/ { n++ }
	/^not ok( |$)/ { f++ }
	END { print (plan == "" ? "none" : plan), n + 0, f + 0, (skip ? skip : "-") }
' "$file" 2>/dev/null || echo none 0 0 -)
plan=$1 n=$2 nfail=$3 planskip=$4
next=$((n + 1))

fail() {
	echo "not ok $next $name # $*"
	exit 1
}

case $status in
missing) fail "missing: the binary did not run (no output at all)" ;;
noend) fail "crash: did not finish (VM died or hung), $n results" ;;
124 | 137 | 143) fail "timeout: killed after its time limit (exit status $status), $n results" ;;
*[!0-9]* | '') fail "internal error: bad status '$status'" ;;
esac

what="exit status $status"
[ "$status" -le 128 ] || what="killed by signal $((status - 128))"
if [ "$n" -eq 0 ] && [ "$nfail" -eq 0 ]; then
	if { [ "$plan" = 0 ] || [ "$planskip" = skip ] || [ "$status" -eq 4 ]; } &&
		{ [ "$status" -eq 0 ] || [ "$status" -eq 4 ]; }; then
		echo "ok 1 $name # SKIP whole binary skipped ($what)"
		exit 0
	fi
	fail "crash: no TAP result ($what)"
fi
if [ "$plan" != none ] && [ "$n" -lt "$plan" ]; then
	fail "crash: only $n of $plan results ($what)"
fi
if [ "$plan" != none ] && [ "$n" -gt "$plan" ]; then
	fail "bad plan: $n results for 1..$plan ($what)"
fi
if [ "$status" -ne 0 ] && [ "$status" -ne 4 ] && [ "$nfail" -eq 0 ]; then
	fail "crash: $what though no result failed (sanitizer report at exit?)"
fi
[ "$nfail" -eq 0 ]
