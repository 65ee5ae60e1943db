#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install, through apt-get, the packages of deps/packages.txt that are absent.
# Usage: scripts/deps.sh [--list]   (--list prints the package names only)
set -eu
here=$(dirname "$0")
pkgs=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/../deps/packages.txt")
if [ "${1:-}" = "--list" ]; then
	echo $pkgs
	exit 0
fi
missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done
if [ -z "$missing" ]; then
	echo "deps: all $(echo $pkgs | wc -w) packages present"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: run as root (or: apt-get install$missing)" >&2
	exit 1
fi
echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update
# shellcheck disable=SC2086
apt-get install -y --no-install-recommends $missing
