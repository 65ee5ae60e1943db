# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Sourced by the scripts that cache expensive builds outside the work tree
# (scripts/debug-kernel.sh, scripts/qemu-c600.sh).
#
# ipuxcom_cache_dir NAME OVERRIDE: prints OVERRIDE if it is set, else
# /var/cache/ipuxcom/NAME if that can be created and written, else
# ${XDG_CACHE_HOME:-$HOME/.cache}/ipuxcom/NAME.
ipuxcom_cache_dir() {
	local name=$1 override=$2 d
	if [ -n "$override" ]; then
		echo "$override"
		return
	fi
	d=/var/cache/ipuxcom/$name
	if mkdir -p "$d" 2>/dev/null && [ -w "$d" ]; then
		echo "$d"
		return
	fi
	echo "${XDG_CACHE_HOME:-$HOME/.cache}/ipuxcom/$name"
}
