#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Print the newest Debian kernel version that has both an image in /boot and
# headers in /usr/src (the kernel the test VM boots and the modules target).
set -eu
best=
for img in /boot/vmlinuz-*; do
	[ -e "$img" ] || continue
	v=${img#/boot/vmlinuz-}
	[ -f "/usr/src/linux-headers-$v/Makefile" ] || continue
	best="$best$v
"
done
[ -n "$best" ] || exit 1
printf '%s' "$best" | sort -V | tail -n 1
