#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build the ipuxcom modules against every kernel-headers version and
# flavour Debian 12 offers, as TAP (make check-kbuild-matrix): one result
# per kernel, "ok" when ipuxcom.ko, ipuxcom_sim.ko and ipuxcom_hw.ko build
# without a compiler or modpost warning (KCFLAGS=-Werror) and carry that
# kernel's vermagic.
#
# The sources are those DKMS builds (make dkms-source), copied per kernel
# under $B/kbuild-matrix/KVER/. Headers installed in /usr/src are used as
# they are; the others are fetched with `apt-get download` (the header
# package, its -common and linux-kbuild packages) and unpacked under
# $B/kheaders/ (reused by later runs), with the one absolute path of the
# flavour's Makefile pointed there. Nothing is installed: 6.12's header
# packages depend on their kernel image, and installing one would change
# the kernel the test VM boots (that of the newest headers installed,
# scripts/find-kver.sh).
#
# Usage: scripts/kbuild-matrix.sh [KVER...]
# Environment:
#   KBUILD_MATRIX  the kernels when no KVER is given: "" (default) = every
#                  installed /usr/src/linux-headers-*-{amd64,cloud-amd64,
#                  rt-amd64}, plus the newest ABI apt knows of each kernel
#                  series (6.1, 6.12, ...) in those three flavours;
#                  "all" = also every older ABI apt knows (much longer)
#   B              build directory (default build)
#   MAKE           make (default make)
# 6.12's headers need pahole (their kbuild makes BTF for modules).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$top/$B ;; esac
make=${MAKE:-make}
flavours='amd64|cloud-amd64|rt-amd64'
cache=$B/kheaders
work=$B/kbuild-matrix
jobs=$(nproc 2>/dev/null || echo 2)

n=0 nfail=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); nfail=$((nfail + 1)); echo "not ok $n $*"; }
# show FILE: its last lines as TAP comments.
show() { tail -n "${2:-25}" "$1" | sed 's/^/# /'; }

# Kernel versions whose headers are installed.
installed() {
	local d
	for d in /usr/src/linux-headers-*; do
		[ -f "$d/Makefile" ] || continue
		d=${d#/usr/src/linux-headers-}
		echo "$d" | grep -qE -- "-($flavours)\$" && echo "$d"
	done
}

# Kernel versions apt knows (linux-headers-VERSION-FLAVOUR packages).
apt_known() {
	apt-cache search --names-only "^linux-headers-[0-9][^ ]*-($flavours)\$" 2>/dev/null |
		awk '{ print $1 }' | sed 's/^linux-headers-//' | grep -E -- "-($flavours)\$"
}

# The newest ABI of each kernel series (6.1, 6.12) among apt_known, in
# every flavour: "6.1.0-57-amd64" is ABI 6.1.0-57 of series 6.1,
# "6.12.117+deb12-rt-amd64" ABI 6.12.117+deb12 of series 6.12.
apt_newest() {
	apt_known | awk -v fl="$flavours" '{ abi = $0; sub("-(" fl ")$", "", abi)
		split(abi, v, "."); print v[1] "." v[2], abi, $0 }' | sort -V -k2,2 |
		awk '{ newest[$1] = $2; line[NR] = $0 }
		END { for (i = 1; i <= NR; i++) { split(line[i], f, " ")
			if (newest[f[1]] == f[2]) print f[3] } }'
}

# fetch KVER: print the KDIR of KVER's headers, fetching them if needed.
fetch() {
	local kver=$1 root=$cache/root
	if [ -f "/usr/src/linux-headers-$kver/Makefile" ]; then
		echo "/usr/src/linux-headers-$kver"
		return 0
	fi
	if [ -f "$root/usr/src/linux-headers-$kver/.ipuxcom-fixed" ]; then
		echo "$root/usr/src/linux-headers-$kver"
		return 0
	fi
	mkdir -p "$cache/debs" "$root" || return 1
	(
		cd "$cache/debs" || exit 1
		# newest_deb PACKAGE: the newest downloaded .deb of PACKAGE.
		newest_deb() { find . -maxdepth 1 -name "${1}_*.deb" -printf '%f\n' | sort -V | tail -n 1; }
		apt-get download "linux-headers-$kver" >&2 || exit 1
		debs=$(newest_deb "linux-headers-$kver")
		# -common (or -common-rt) and linux-kbuild-X: what the Makefile
		# includes and what scripts/ points to.
		deps=$(dpkg-deb -f "$debs" Depends | tr ',' '\n' | tr '|' '\n' | awk '{ print $1 }' |
			grep -E '^linux-(headers-.*-common.*|kbuild-.*)$' | sort -u)
		for p in $deps; do
			[ -n "$(newest_deb "$p")" ] || apt-get download "$p" >&2 || exit 1
			debs="$debs $(newest_deb "$p")"
		done
		for deb in $debs; do
			dpkg -x "$deb" "$root" || exit 1
		done
	) || return 1
	# The flavour's Makefile is "include /usr/src/linux-headers-X-common/Makefile";
	# everything else is relative (scripts -> ../../lib/linux-kbuild-X/scripts).
	sed -i "s|^include /usr/src/|include $root/usr/src/|" "$root/usr/src/linux-headers-$kver/Makefile" &&
		touch "$root/usr/src/linux-headers-$kver/.ipuxcom-fixed" &&
		echo "$root/usr/src/linux-headers-$kver"
}

# build KVER KDIR LOG: problems on stdout, nothing when the build is clean.
build() {
	local kver=$1 kdir=$2 log=$3 dir src m vermagic
	dir=$work/$kver
	rm -rf "$dir"
	"$make" -C "$top" --no-print-directory -s dkms-source DESTDIR="$dir" >"$log" 2>&1 ||
		{ echo "make dkms-source failed"; return; }
	src=$(echo "$dir"/usr/src/ipuxcom-*)
	if grep -q '^CONFIG_DEBUG_INFO_BTF_MODULES=y' "$kdir/.config" && [ -f "$kdir/vmlinux" ] &&
		! command -v pahole >/dev/null; then
		echo "these headers make BTF for modules, which needs pahole: apt-get install pahole"
		return
	fi
	if ! "$make" -C "$kdir" M="$src" -j"$jobs" KCFLAGS=-Werror modules >>"$log" 2>&1; then
		echo "build failed"
		return
	fi
	if grep -E '(^|[^-])(warning|WARNING):' "$log" | grep -v 'Skipping BTF' >"$dir/warnings"; then
		echo "warnings:"
		cat "$dir/warnings"
		return
	fi
	for m in ipuxcom ipuxcom_sim ipuxcom_hw; do
		[ -f "$src/$m.ko" ] || { echo "$m.ko not built"; continue; }
		vermagic=$(modinfo -F vermagic "$src/$m.ko")
		case $vermagic in "$kver "*) ;; *) echo "$m.ko: vermagic '$vermagic', want $kver" ;; esac
	done
}

if [ $# -gt 0 ]; then
	kvers=$*
else
	case ${KBUILD_MATRIX:-} in
	'') kvers=$({ installed; apt_newest; } | sort -uV) ;;
	all) kvers=$({ installed; apt_known; } | sort -uV) ;;
	*) kvers=$KBUILD_MATRIX ;;
	esac
fi
[ -n "$kvers" ] || { echo "1..1"; echo "not ok 1 no kernel headers installed or known to apt"; exit 1; }
# shellcheck disable=SC2086 # one kernel a word
echo "# kernels:" $kvers
mkdir -p "$work"
for kver in $kvers; do
	log=$work/$kver.log
	t0=$(date +%s)
	if ! kdir=$(fetch "$kver" 2>"$work/$kver.fetch.log"); then
		notok "$kver: headers not installed and not fetched with apt-get download"
		show "$work/$kver.fetch.log" 10
		continue
	fi
	how=installed
	case $kdir in "$cache"/*) how="apt-get download" ;; esac
	problems=$(build "$kver" "$kdir" "$log")
	t=$(($(date +%s) - t0))
	if [ -z "$problems" ]; then
		ok "$kver ($how headers): ipuxcom.ko, ipuxcom_sim.ko, ipuxcom_hw.ko built clean in ${t}s"
	else
		notok "$kver ($how headers, $kdir)"
		printf '%s\n' "$problems" | head -n 20 | sed 's/^/# /'
		[ ! -f "$log" ] || { echo "# --- last lines of $log"; show "$log"; }
	fi
done
echo "1..$n"
[ "$nfail" -eq 0 ]
