#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Print the newest Debian kernel version whose headers are installed from
# Debian's package (linux-headers-KVER, generic amd64 flavour: what
# linux-headers-amd64 of deps/packages.txt pulls in). The modules are built
# against them, and the test VM boots the same version's kernel, unpacked
# from its package by scripts/vm-kernel.sh (never installed into /boot).
set -eu
best=
for d in /usr/src/linux-headers-*-amd64; do
	[ -f "$d/Makefile" ] || continue
	v=${d#/usr/src/linux-headers-}
	case $v in *-cloud-amd64 | *-rt-amd64) continue ;; esac
	st=$(dpkg-query -W -f='${Status}' "linux-headers-$v" 2>/dev/null || true)
	case $st in *" installed") ;; *) continue ;; esac
	best="$best$v
"
done
[ -n "$best" ] || exit 1
printf '%s' "$best" | sort -V | tail -n 1
