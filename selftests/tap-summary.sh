#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Sum up TAP files written by selftests/run-host-tests.sh and
# selftests/vm/run-vm.sh: one status line per test binary (a block starts at
# a "# binary: NAME" line), then, as the very last line,
#   N passed, N failed, N skipped
# Only top-level result lines count ("ok", "not ok", "ok ... # SKIP"; the
# indented lines of nested TAP are ignored). A missing file counts as one
# failure.
#
# Usage: selftests/tap-summary.sh FILE.tap...
# Exit status: 1 if anything failed or nothing passed, else 0.
set -eu

usage() {
	sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'
}
case ${1:-} in
-h | --help) usage; exit 0 ;;
'') usage >&2; exit 2 ;;
esac

# Missing files are reported here, the others are read by awk.
nmissing=0
for f in "$@"; do
	shift
	if [ -r "$f" ]; then
		set -- "$@" "$f"
	else
		echo "FAIL $f (missing: no such file)"
		nmissing=$((nmissing + 1))
	fi
done
[ $# -gt 0 ] || set -- /dev/null

awk -v failed="$nmissing" '
function flush(  status, detail) {
	if (cur == "")
		return
	if (f[cur] > 0)
		status = "FAIL"
	else if (p[cur] > 0)
		status = "PASS"
	else if (s[cur] > 0)
		status = "SKIP"
	else
		status = "FAIL"
	if (p[cur] + f[cur] + s[cur] == 0) {
		detail = "no results"
		failed++
	} else
		detail = p[cur] " passed, " f[cur] " failed, " s[cur] " skipped"
	if (bad[cur] != "")
		detail = detail ":" bad[cur]
	printf "%-4s %s (%s)\n", status, cur, detail
	cur = ""
}
function start(name) {
	flush()
	cur = name
	p[cur] = f[cur] = s[cur] = 0
	bad[cur] = ""
}
{ sub(/\r$/, "") }
FNR == 1 { flush(); print "== " FILENAME }
/^# binary: / { name = $0; sub(/^# binary: */, "", name); start(name); next }
/^(not )?ok( |$)/ {
	if (cur == "")
		start(FILENAME)
	if ($0 ~ /^not ok/) {
		f[cur]++; failed++
		t = $0; sub(/^not ok *[0-9]* */, "", t)
		if (length(bad[cur]) < 300)
			bad[cur] = bad[cur] " [" t "]"
	} else if ($0 ~ /#[ \t]*[Ss][Kk][Ii][Pp]/) {
		s[cur]++; skipped++
	} else {
		p[cur]++; passed++
	}
}
END {
	flush()
	printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
	exit (failed > 0 || passed == 0) ? 1 : 0
}' "$@"
