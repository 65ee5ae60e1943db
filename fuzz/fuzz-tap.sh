#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run one libFuzzer target for a while and report the run as TAP (plan
# 1..1), so that selftests/run-host-tests.sh and selftests/tap-summary.sh
# count it like any test binary (a crash, a leak, a sanitizer report or a
# timeout is a "not ok" naming the artifact).
#
# Usage: fuzz/fuzz-tap.sh FUZZER SEEDS_DIR [DICT]
# Environment: FUZZ_SECONDS  how long to fuzz (default 4)
# The corpus grows in FUZZER's directory under work/NAME/corpus, crash
# inputs land in work/NAME/artifacts/; the full log is work/NAME/log.
set -u

[ $# -ge 2 ] || { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2; exit 2; }
bin=$1 seeds=$2 dict=${3:-}
secs=${FUZZ_SECONDS:-4}
name=$(basename "$bin")
work=$(dirname "$bin")/work/$name
mkdir -p "$work/corpus" "$work/artifacts"

echo "1..1"
set -- -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$work/artifacts/"
[ -z "$dict" ] || set -- "$@" -dict="$dict"
"$bin" "$@" "$work/corpus" "$seeds" >"$work/log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
cov=$(grep -o 'cov: [0-9]*' "$work/log" | tail -n 1)
if [ "$rc" -eq 0 ]; then
	echo "ok 1 $name: ${secs} s, ${runs:-?} runs, ${cov:-cov: ?}"
	exit 0
fi
grep -E 'ERROR|SUMMARY|Test unit written|==[0-9]+==' "$work/log" | head -n 20 | sed 's/^/# /'
echo "not ok 1 $name: exit status $rc after ${runs:-?} runs; log $work/log, inputs in $work/artifacts/"
exit 1
