#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Exported-symbol check (make check-install, part of make check), as TAP:
# the public headers, the version script and the built library agree, so
# that a new public function cannot ship without a version-script entry:
#  - libuser/libipuxcom.map names each symbol (no wildcard in a global:
#    list) and no symbol twice;
#  - every function declared IPUXCOM_API in libuser/include/*.h is in the
#    map, and the map names nothing the headers do not declare;
#  - libipuxcom.so exports exactly the map's symbols, each at the version
#    node the map puts it in, and the version nodes themselves.
#
# Usage: selftests/install/exports-check.sh
# Environment: B (build directory, default build): reads $B/libipuxcom.so
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
map=libuser/libipuxcom.map
so=${B:-build}/libipuxcom.so

# shellcheck source=selftests/install/tap-lib.sh
. "$top/selftests/install/tap-lib.sh"

echo "1..4"

# "NODE SYMBOL" for each global: entry of the map (comments dropped).
map_entries() {
	sed -e 's|/\*.*\*/||' -e '/\/\*/,/\*\//d' "$map" | awk '
		/^[A-Za-z0-9_.]+[[:space:]]*\{/ { node = $1; sub(/\{.*/, "", node); scope = ""; next }
		/^[[:space:]]*\}/ { scope = ""; next }
		/global:/ { scope = "global"; next }
		/local:/ { scope = "local"; next }
		scope == "global" && NF { s = $1; sub(/;.*/, "", s); if (s != "") print node, s }'
}
entries=$(map_entries)
map_syms=$(printf '%s\n' "$entries" | awk '{ print $2 }' | LC_ALL=C sort)

# Each IPUXCOM_API declaration (preprocessor lines aside): the identifier
# before its first "(".
hdr_syms=$(grep -hv '^#' libuser/include/*.h | tr '\n' ' ' | grep -oE 'IPUXCOM_API[^;(]*\(' |
	grep -oE '[A-Za-z_][A-Za-z0-9_]* *\($' | tr -d ' (' | LC_ALL=C sort)

problems=$(printf '%s\n' "$map_syms" | grep -E '[*?[]' | sed 's/^/wildcard in a global list: /'
	printf '%s\n' "$map_syms" | uniq -d | sed 's/^/listed twice: /')
[ -n "$map_syms" ] || problems="no global symbol in $map"
result "$map lists each exported symbol by name, once" "$problems"

problems=$(LC_ALL=C comm -23 <(printf '%s\n' "$hdr_syms") <(printf '%s\n' "$map_syms") |
		sed "s|^|declared IPUXCOM_API but not in $map (add it to a new version node): |"
	LC_ALL=C comm -13 <(printf '%s\n' "$hdr_syms") <(printf '%s\n' "$map_syms") |
		sed 's/^/in the map but declared in no public header: /')
result "every IPUXCOM_API function of libuser/include is in $map, and only those" "$problems"

if [ ! -e "$so" ]; then
	notok "$so exports the map's symbols # $so not built (make lib)"
	notok "$so: each symbol at its map node"
	exit 1
fi
# "NODE SYMBOL" for each symbol the library defines (version nodes aside).
so_entries=$(objdump -T "$so" | awk '$2 == "g" && $4 != "*UND*" && $NF != $(NF - 1) {
		v = $(NF - 1); gsub(/[()]/, "", v); print v, $NF }' | LC_ALL=C sort)
so_syms=$(printf '%s\n' "$so_entries" | awk '{ print $2 }' | LC_ALL=C sort)
problems=$(LC_ALL=C comm -13 <(printf '%s\n' "$map_syms") <(printf '%s\n' "$so_syms") |
		sed 's/^/exported but not in the map: /'
	LC_ALL=C comm -23 <(printf '%s\n' "$map_syms") <(printf '%s\n' "$so_syms") |
		sed 's/^/in the map but not exported (missing definition?): /')
result "$so exports exactly the symbols of $map" "$problems"

problems=$(LC_ALL=C comm -3 <(printf '%s\n' "$entries" | LC_ALL=C sort) \
	<(printf '%s\n' "$so_entries") |
	awk -F '\t' '{ print ($1 != "" ? "map: " $1 : "library: " $2) }')
result "$so: each symbol at the version node the map gives it" "$problems"
[ "$nfail" -eq 0 ]
