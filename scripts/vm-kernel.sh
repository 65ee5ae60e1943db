#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel the test VM boots (make vm-kernel; the VM targets depend on it):
# Debian's linux-image-KVER package of the same version as the installed
# linux-headers-KVER (the headers the modules are built against), unpacked
# with dpkg-deb -x into a cache outside the work tree. Nothing is
# installed: the host's /boot and /lib/modules stay as they are.
#
#   CACHE/<key>/root/boot/vmlinuz-KVER       what QEMU boots (KIMAGE)
#   CACHE/<key>/root/lib/modules/KVER/       its modules (KMODDIR: fuse.ko
#                                            and the others mkinitramfs.sh
#                                            --kmods copies), with the
#                                            modules.dep that depmod -b made
#   CACHE/<key>/.done                        written last: the entry is complete
#   CACHE/debs/linux-image-KVER_VERSION_amd64.deb   the package, kept
#
# key: linux-image-KVER_VERSION (the Debian version of the headers). The
# package comes from, in this order: CACHE/debs/, apt's own
# /var/cache/apt/archives/, `apt-get download linux-image-KVER=VERSION`
# (Debian's mirror; nothing else is reached). A complete entry or a kept
# .deb is reused, so a second run works offline. The 2 newest entries are
# kept. One lock (flock) keeps two unpackings of a key apart.
#
# CACHE: $IPUXCOM_VM_KERNEL_CACHE, else /var/cache/ipuxcom/vm-kernel if that
# can be created and written, else ${XDG_CACHE_HOME:-$HOME/.cache}/ipuxcom/vm-kernel.
#
# Usage: scripts/vm-kernel.sh [--dir] KVER
#   last line: "KIMAGE=... KMODDIR=..." (make variables);
#   --dir: print the cache entry's directory only, fetch nothing.
# Exit status: 0 once the kernel is unpacked, 1 if anything failed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "vm-kernel: $*" >&2
	exit 1
}

only_dir=no
if [ "${1:-}" = --dir ]; then
	only_dir=yes
	shift
fi
if [ $# -ne 1 ] || [ -z "$1" ]; then
	die "usage: scripts/vm-kernel.sh [--dir] KVER (make vm-kernel sets KVER)"
fi
kver=$1
pkg=linux-image-$kver

# The headers' Debian version is the image's: one source package builds both.
version=$(dpkg-query -W -f='${Version}' "linux-headers-$kver" 2>/dev/null) ||
	die "linux-headers-$kver is not installed: the VM's kernel must match the headers (make deps)"
[ -n "$version" ] || die "linux-headers-$kver has no version in dpkg's database"
# (an epoch's colon is spelled %3a in .deb names, as apt does)
debname=${pkg}_${version/:/%3a}_amd64.deb
key=${pkg}_${version/:/%3a}

# shellcheck source=scripts/cache-dir.sh
. "$here/cache-dir.sh"
cache=$(ipuxcom_cache_dir vm-kernel "${IPUXCOM_VM_KERNEL_CACHE:-}")
dir=$cache/$key
if [ "$only_dir" = yes ]; then
	echo "$dir"
	exit 0
fi

vars() {
	echo "KIMAGE=$dir/root/boot/vmlinuz-$kver KMODDIR=$dir/root/lib/modules/$kver"
}

mkdir -p "$cache/debs" || die "cannot create $cache/debs"
exec 7>"$cache/$key.lock"
flock 7
if [ -e "$dir/.done" ]; then
	echo "vm-kernel: $pkg $version unpacked in $dir"
	vars
	exit 0
fi

# The package: ours, apt's, or downloaded.
deb=$cache/debs/$debname
if [ ! -f "$deb" ] && [ -f "/var/cache/apt/archives/$debname" ]; then
	deb=/var/cache/apt/archives/$debname
fi
if [ ! -f "$deb" ]; then
	echo "vm-kernel: apt-get download $pkg=$version (about 70 MB) into $cache/debs"
	# (as root, apt warns that it downloads unsandboxed: the directory is
	# root's, not its _apt user's)
	(cd "$cache/debs" && apt-get download "$pkg=$version") >&2 ||
		die "apt-get download $pkg=$version failed: offline, or the mirror has a newer version by now (apt-get update && apt-get install linux-headers-amd64 linux-headers-$kver: the image of the headers installed is fetched then), or put $debname into $cache/debs"
	[ -f "$deb" ] || die "apt-get download left no $deb"
fi
got=$(dpkg-deb -f "$deb" Package Version 2>/dev/null | awk '{ print $2 }' | paste -sd' ') || got=
if [ "$got" != "$pkg $version" ]; then
	# (a download cut short: ours goes, so that the next run fetches it again)
	[ "$deb" != "$cache/debs/$debname" ] || rm -f "$deb"
	die "$deb: holds '$got', not '$pkg $version'"
fi

rm -rf "$dir" "$dir.tmp"
mkdir -p "$dir.tmp/root"
dpkg-deb -x "$deb" "$dir.tmp/root" || die "dpkg-deb -x $deb failed"
root=$dir.tmp/root
[ -f "$root/boot/vmlinuz-$kver" ] || die "$deb has no boot/vmlinuz-$kver"
[ -d "$root/lib/modules/$kver/kernel" ] || die "$deb has no lib/modules/$kver/kernel"
# modules.dep & co, which the package's postinst would have made in
# /lib/modules: here, in the unpacked tree (depmod lives in /sbin, which a
# normal user's PATH lacks on Debian)
depmod=$(command -v depmod || echo /sbin/depmod)
"$depmod" -b "$root" -F "$root/boot/System.map-$kver" "$kver" ||
	die "depmod -b $root $kver failed"
[ -s "$root/lib/modules/$kver/modules.dep" ] || die "depmod made no modules.dep in $root/lib/modules/$kver"
echo "$pkg $version from $deb" >"$dir.tmp/source"
mv "$dir.tmp" "$dir"
touch "$dir/.done"
echo "vm-kernel: $pkg $version unpacked in $dir ($(du -sm "$dir" | cut -f1) MB)"

# Keep the 2 newest entries (and their packages), no more.
find "$cache" -mindepth 2 -maxdepth 2 -path "$cache/linux-image-*/.done" -printf '%T@ %h\n' |
	sort -rn | tail -n +3 | while read -r _ old; do
	echo "vm-kernel: removing the older entry $old"
	rm -rf "$old" "$old.lock" "$cache/debs/${old##*/}_amd64.deb"
done
vars
