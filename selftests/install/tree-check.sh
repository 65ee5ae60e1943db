#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The tree stands alone (make check-install, part of make check), as TAP:
#  1. `reuse lint` (Debian's reuse): every file has licence and copyright
#     information, and every licence named has its text in LICENSES/;
#  2. every tracked file carries its own SPDX-License-Identifier line (or a
#     FILE.license sidecar), naming the licence COPYING gives its part of
#     the tree (.reuse/dep5 is COPYING's machine-readable form);
#  3. no file cites what the tree does not contain: the project's private
#     notes (a fact sheet, the design notes, an architecture sketch) are
#     cited through docs/hardware-record.md, never by their own paths. One
#     exception, listed in ALLOWED below: the card lane's test input, the
#     C600 config capture, read from outside the tree (Makefile CARD_CFG,
#     described in docs/testing.md);
#  4. every fact id (HW-...) cited anywhere is defined in
#     docs/hardware-record.md, each defined once, and every design-note
#     section cited as [S "Title"] is one the record lists;
#  5. every path of the tree that a file names (docs/x.md, kmod/x.c, ...)
#     exists, and so does every relative Markdown link of every *.md file.
#
# Usage: selftests/install/tree-check.sh
# Needs a git checkout (it checks the tracked files) and reuse
# (deps/packages.txt).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
# shellcheck source=selftests/install/tap-lib.sh
. "$top/selftests/install/tap-lib.sh"

self=selftests/install/tree-check.sh
record=docs/hardware-record.md
# Citations of things outside the tree (extended regex).
outside='FACTS\.md|ARCHITECTURE\.md|\.\./shared/|shared/(seeds|data|hooks)|seeds/0[0-9][0-9]'
# The one allowed kind: "FILE<TAB>TEXT", TEXT the test input's default path.
ALLOWED=$(printf '%s\t%s\n' \
	Makefile '../shared/data/c600-init.ipucfg' \
	docs/testing.md '../shared/data/c600-init.ipucfg')

echo "1..5"
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	for _ in 1 2 3 4 5; do ok "# SKIP not a git checkout (the checks read the tracked files)"; done
	exit 0
fi
mapfile -t files < <(git ls-files | grep -v '^LICENSES/')
# Files that carry licence information of their own (not a sidecar, not
# .reuse/dep5, which is licence information itself).
mapfile -t licensed < <(printf '%s\n' "${files[@]}" | grep -vE '\.license$|^\.reuse/dep5$')

# 1. reuse lint
if command -v reuse >/dev/null; then
	out=$(reuse lint 2>&1)
	rc=$?
	problems=$([ "$rc" -eq 0 ] || printf '%s\n' "$out" | grep -v '^$' | head -n 80)
else
	problems="reuse is not installed: apt-get install reuse (deps/packages.txt)"
fi
result "reuse lint: licence and copyright information for every file, LICENSES/ complete" "$problems"

# 2. each file's own SPDX line, and the licence COPYING (.reuse/dep5) gives
#    its part of the tree: reuse merges both, so any disagreement shows as
#    more licences than the file's own line names.
if command -v reuse >/dev/null; then
	problems=$(reuse spdx 2>/dev/null | /usr/bin/python3 -c '
import os, re, sys

expr_ids = lambda e: set(re.findall(r"[A-Za-z0-9.+-]+", e)) - {"OR", "AND", "WITH"}
spdx = {}
name = None
for line in sys.stdin:
    if line.startswith("FileName: "):
        name = os.path.normpath(line[10:].strip())
        spdx[name] = set()
    elif line.startswith("LicenseInfoInFile: ") and name:
        spdx[name].add(line.split(": ", 1)[1].strip())
for f in sys.argv[1:]:
    src = f + ".license" if os.path.exists(f + ".license") else f
    with open(src, "rb") as fh:
        head = fh.read(4096).decode("utf-8", "replace")
    m = re.search(r"SPDX-License-Identifier:\s*(.*?)\s*(?:\*/|-->|$)", head, re.M)
    if not m:
        print(f"{f}: no SPDX-License-Identifier line in its first 4096 bytes")
        continue
    own = expr_ids(m.group(1))
    got = spdx.get(os.path.normpath(f))
    if got is None and os.path.basename(f) == "COPYING":
        continue        # reuse takes it for a licence text, not a covered file
    if got is None:
        print(f"{f}: not in reuse'"'"'s SPDX document")
    elif got != own:
        print(f"{f}: its line says {m.group(1)}; with .reuse/dep5 (COPYING): "
              + " ".join(sorted(got)))
' "${licensed[@]}")
else
	problems="reuse is not installed: apt-get install reuse (deps/packages.txt)"
fi
result "every file carries its own SPDX line, and it agrees with COPYING (.reuse/dep5)" "$problems"

# 3. nothing outside the tree is cited, but the listed test input
problems=$(git grep -nE "$outside" -- . ":!$self" ":!LICENSES" |
	while IFS= read -r hit; do
		f=${hit%%:*}
		line=${hit#*:}
		line=${line#*:}
		allowed=0
		while IFS=$'\t' read -r af atext; do
			if [ "$f" = "$af" ] && [[ $line == *"$atext"* ]]; then
				rest=${line//"$atext"/}
				grep -qE "$outside" <<<"$rest" || allowed=1
			fi
		done <<<"$ALLOWED"
		[ "$allowed" -eq 1 ] || echo "$hit (cite $record instead)"
	done)
result "no file cites what the tree does not contain (only the listed test input is read from outside)" "$problems"

# 4. fact ids and design-note sections
problems=$(/usr/bin/python3 - "$record" "${files[@]/#$self/}" <<'EOF'
import re, sys

record, files = sys.argv[1], sys.argv[2:]
text = open(record, encoding="utf-8").read()
defs = re.findall(r"^- \*\*(HW-[A-Z0-9-]+)\*\*|^\| (HW-[A-Z0-9-]+) \||^\*\*(HW-[A-Z0-9-]+)\*\*",
                  text, re.M)
defined = [a or b or c for a, b, c in defs]
for d in sorted({d for d in defined if defined.count(d) > 1}):
    print(f"{record}: {d} is defined more than once")
defined = set(defined)
m = re.search(r"^\*\*\[S\][^\n]*\n(.*?)^\*\*\[RE\]", text, re.M | re.S)
sections = set(re.findall(r'"([^"]+)"', re.sub(r"\s+", " ", m.group(1)))) if m else set()
if not sections:
    print(f"{record}: no design-note sections listed under [S]")
# A citation may break across lines of a comment: join them first.
cont = re.compile(r'\n[ \t]*(?:\*(?!/)|#|//|\.\\"|;)?[ \t]*')
# "HW-OPEN-..." names a family of ids, not one.
idre = re.compile(r"\bHW-[A-Z0-9]+(?:-[A-Z0-9]+)*(?![A-Z0-9-])")
for f in [f for f in files if f] + [record]:
    try:
        body = open(f, encoding="utf-8").read()
    except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
        continue
    for n, line in enumerate(body.split("\n"), 1):
        for i in idre.findall(line):
            if i not in defined:
                print(f"{f}:{n}: {i} is not defined in {record}")
    for s in re.findall(r'\[S "([^"]+)"', cont.sub(" ", body)):
        if s not in sections:
            print(f'{f}: [S "{s}"] is not a section {record} lists')
EOF
)
result "every HW- fact id cited is defined once in $record; every [S \"Section\"] is listed there" "$problems"

# 5. paths of the tree that files name, and Markdown links
problems=$(
	# Paths under the tree's own top-level directories, as a word; globs
	# (x_*.c), placeholders (NAME) and the Linux source tree's own
	# scripts/ and tools/ paths (the kernel's, not this tree's) aside.
	# shellcheck disable=SC2016 # a regular expression, not an expansion
	git grep -onE '(^|[^A-Za-z0-9_./$(-])(\.\./)*(kmod|libuser|sim|selftests|tools|docs|uapi|python|scripts|man|examples|bench|fuzz|deps|udev|\.ci)/[A-Za-z0-9_./-]*\.(c|h|md|sh|py|txt|rules|conf|config|S|ld|[1-8])\b[*]?' \
		-- . ":!LICENSES" ":!$self" |
		sed -E 's/^([^:]*:[0-9]+:)[^A-Za-z.]/\1/' |
		grep -vE '\*$|NAME|:scripts/(spelling\.txt|kconfig/)|:tools/testing/selftests/' |
		while IFS=: read -r f n p; do
			case $p in ../*) q=$(dirname "$f")/$p ;; *) q=$p ;; esac
			[ -e "$q" ] || echo "$f:$n: names $p, which the tree does not contain"
		done
	git ls-files '*.md' | while read -r f; do
		dir=$(dirname "$f")
		grep -oE '\]\([^)#[:space:]]+' "$f" | sed 's/^](//' | grep -vE '^[a-z]+:' |
			while read -r target; do
				[ -e "$dir/$target" ] || echo "$f: link to $target, which the tree does not contain"
			done
	done)
result "every path of the tree that a file names, and every relative Markdown link, exists" "$problems"
[ "$nfail" -eq 0 ]
