# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# TAP helpers shared by the documentation and export checks (sourced).
n=0 nfail=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); nfail=$((nfail + 1)); echo "not ok $n $*"; }
# result NAME PROBLEMS: ok when PROBLEMS is empty, else not ok + them.
result() {
	if [ -z "$2" ]; then
		ok "$1"
	else
		notok "$1"
		printf '%s\n' "$2" | sed -e '/^$/d' -e 's/^/# /'
	fi
}
