#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What make check leaves of itself in the host's kernel trees, as TAP: a
# manifest of /boot, /lib/modules, DKMS's tree (/var/lib/dkms) and
# /usr/src (its entries, and all of any /usr/src/ipuxcom-*) is taken when
# make check starts (snapshot) and compared with the same trees when it
# ends. Per tree one result, failing with the paths that were added,
# removed or changed (type, size, modification time, link target).
#
# Only one kind of addition is allowed: files of a Debian package that
# make deps installed (dpkg lists them), say /lib/modules/KVER/build of
# linux-headers-KVER; a linux-image-* package's are not (the test VM's
# kernel is unpacked into a cache: scripts/vm-kernel.sh), nor is anything
# no package owns (what depmod or dkms would write).
#
# Usage: selftests/install/host-state.sh snapshot FILE
#        HOST_STATE_BEFORE=FILE selftests/install/host-state.sh   (compare: TAP)
# Environment: HOST_STATE_ROOT  prefix of the trees (default none: the
#   host's; the test of this script points it at a scratch tree)
#   HOST_STATE_DPKG_INFO  dpkg's *.list directory (default /var/lib/dpkg/info)
set -uo pipefail

prefix=${HOST_STATE_ROOT:-}
info=${HOST_STATE_DPKG_INFO:-/var/lib/dpkg/info}
trees="/boot /lib/modules /var/lib/dkms /usr/src"

# manifest: one line per path, "PATH<TAB>WHAT", sorted; WHAT is the type
# and, for a file its size and mtime, for a link its target (a directory's
# mtime changes with any entry, which is reported by itself).
manifest() {
	local t d fmt='%p\t%y\t%s\t%T@\t%l\n'
	for t in $trees; do
		[ -e "$prefix$t" ] || continue
		if [ "$t" = /usr/src ]; then
			# the entries only (a header tree has 20,000 files), but
			# every file of our own DKMS source
			find "$prefix$t/" -mindepth 1 -maxdepth 1 -printf "$fmt"
			for d in "$prefix$t"/ipuxcom-*; do
				[ ! -e "$d" ] || find "$d" -mindepth 1 -printf "$fmt"
			done
		else
			find "$prefix$t/" -mindepth 1 -printf "$fmt"
		fi
	done | awk -F'\t' -v p="$prefix" '{ path = substr($1, length(p) + 1); gsub(/\/\/+/, "/", path)
		what = $2
		if ($2 == "f") what = "f " $3 " bytes, mtime " $4
		else if ($2 == "l") what = "l -> " $5
		print path "\t" what }' | LC_ALL=C sort
}

case ${1:-} in
snapshot)
	[ $# -eq 2 ] || { echo "usage: $0 snapshot FILE" >&2; exit 2; }
	if ! { mkdir -p "$(dirname "$2")" && manifest >"$2.tmp" && mv "$2.tmp" "$2"; }; then
		echo "host-state: cannot list $trees into $2" >&2
		exit 1
	fi
	echo "host-state: $(wc -l <"$2") paths of $trees in $2"
	exit 0
	;;
'' | compare) ;;
*) echo "usage: $0 snapshot FILE | $0 [compare] (HOST_STATE_BEFORE=FILE)" >&2; exit 2 ;;
esac

echo "1..4"
before=${HOST_STATE_BEFORE:-}
if [ -z "$before" ] || [ ! -r "$before" ]; then
	n=0
	for t in $trees; do
		n=$((n + 1))
		echo "not ok $n $t as make check found it: no snapshot '$before' (HOST_STATE_BEFORE; make check takes it when it starts)"
	done
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
manifest >"$tmp/after"

# Each difference as "KIND PATH WHAT": added, removed, changed (before -> after).
LC_ALL=C join -t$'\t' -a1 -a2 -e '' -o 0,1.2,2.2 "$before" "$tmp/after" |
	awk -F'\t' '$2 == "" { print "added\t" $1 "\t" $3; next }
		$3 == "" { print "removed\t" $1 "\t" $2; next }
		$2 != $3 { print "changed\t" $1 "\t" $2 " -> " $3 }' >"$tmp/diff"

# The Debian package that owns each added path, if any ("PATH<TAB>PACKAGE").
awk -F'\t' '$1 == "added" { print $2 }' "$tmp/diff" >"$tmp/added"
: >"$tmp/owners"
if [ -s "$tmp/added" ] && [ -d "$info" ]; then
	# shellcheck disable=SC2016 # an awk program
	find "$info" -name '*.list' -print0 | xargs -0 -r awk -v added="$tmp/added" '
		BEGIN { while ((getline l < added) > 0) want[l] = 1 }
		($0 in want) { pkg = FILENAME; sub(/.*\//, "", pkg); sub(/\.list$/, "", pkg)
			sub(/:.*/, "", pkg); print $0 "\t" pkg }' >"$tmp/owners"
fi

n=0 fail=0
for t in $trees; do
	n=$((n + 1))
	# this tree's differences, each with its owner (or "-")
	awk -F'\t' -v t="$t" 'FILENAME == ARGV[1] { owner[$1] = $2; next }
		index($2, t "/") == 1 { print $1 "\t" $2 "\t" $3 "\t" (($2 in owner) ? owner[$2] : "-") }' \
		"$tmp/owners" "$tmp/diff" >"$tmp/tree"
	bad=$(awk -F'\t' '!($1 == "added" && $4 != "-" && $4 !~ /^linux-image-/)' "$tmp/tree")
	pkgs=$(awk -F'\t' '$1 == "added" && $4 != "-" && $4 !~ /^linux-image-/ { print $4 }' "$tmp/tree" | sort -u | paste -sd' ')
	note=${pkgs:+ (apart from what Debian packages make deps installed: $pkgs)}
	if [ -z "$bad" ]; then
		echo "ok $n $t as make check found it$note"
	else
		fail=1
		echo "not ok $n $t as make check found it: paths differ: $(printf '%s\n' "$bad" | wc -l)$note"
		printf '%s\n' "$bad" | head -n 25 | awk -F'\t' '{ o = ""
			if ($1 == "added") o = ($4 == "-") ? "; no package" : "; package " $4
			print "# " $1 " " $2 " (" $3 o ")" }'
		[ "$(printf '%s\n' "$bad" | wc -l)" -le 25 ] || echo "# ..."
	fi
done
exit "$fail"
