#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Extract a few files from Debian's linux-source-6.1 tarball (package
# linux-source-6.1), e.g. the kselftest harness headers or checkpatch.pl.
# They are used at build time and never copied into the repository.
# Usage: scripts/extract-kernel-files.sh DESTDIR PATH-IN-TREE...
set -eu
dest=$1
shift
tarball=
for t in /usr/src/linux-source-6.1.tar.xz /usr/src/linux-source-*.tar.xz; do
	[ -f "$t" ] && { tarball=$t; break; }
done
if [ -z "$tarball" ]; then
	echo "extract-kernel-files: no /usr/src/linux-source-*.tar.xz; install linux-source-6.1 (make deps)" >&2
	exit 1
fi
top=$(basename "$tarball" .tar.xz)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
members=
for p in "$@"; do
	members="$members $top/$p"
done
# shellcheck disable=SC2086
tar -xJf "$tarball" -C "$tmp" $members
mkdir -p "$dest"
for p in "$@"; do
	cp "$tmp/$top/$p" "$dest/"
done
