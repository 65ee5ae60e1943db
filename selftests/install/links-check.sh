#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Documentation links (make check-install, part of make check), as TAP:
#  - every relative Markdown link of README.md and docs/*.md names a file
#    or directory of the tree;
#  - README.md keeps the two set-up commands (make demo, make check) and
#    links every document of docs/, so that what was moved out of it stays
#    reachable from it.
#
# Usage: selftests/install/links-check.sh
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
# shellcheck source=selftests/install/tap-lib.sh
. "$top/selftests/install/tap-lib.sh"

# broken_links FILE: "FILE: TARGET" for each relative link that names nothing.
broken_links() {
	local f=$1 dir target
	dir=$(dirname "$f")
	grep -oE '\]\([^)#[:space:]]+' "$f" | sed 's/^](//' | grep -vE '^[a-z]+:' |
		while read -r target; do
			[ -e "$dir/$target" ] || echo "$f: $target"
		done
}

docs=(docs/*.md)
echo "1..2"
problems=$(for f in README.md "${docs[@]}"; do broken_links "$f"; done)
result "relative links of README.md and docs/*.md name files of the tree" "$problems"

problems=$(grep -qE '^    make demo ' README.md || echo "README.md lacks '    make demo'"
	grep -qE '^    make check ' README.md || echo "README.md lacks '    make check'"
	for f in "${docs[@]}"; do
		grep -qF "]($f)" README.md || echo "README.md does not link $f"
	done)
result "README.md: the set-up commands, and a link to every docs/*.md" "$problems"
[ "$nfail" -eq 0 ]
