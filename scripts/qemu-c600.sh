#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build (once) a QEMU with the C600 test device (docs/qemu-c600.md):
# Debian's own QEMU source package (the version of the installed
# qemu-system-x86 if apt can fetch it), with selftests/qemu/ipu_c600.c and
# the model (sim/*.[ch], sim/user/*.h) copied into hw/misc/ipu-c600/ and
# hooked into its meson and Kconfig, configured for x86_64-softmmu only.
# Cached outside the work tree:
#
#   CACHE/tree-VERSION/src/     the unpacked source (Debian's patches applied)
#   CACHE/tree-VERSION/build/   its meson build tree, shared by every key of
#                               that source version, so a change of the
#                               device or the model rebuilds a few files only
#   CACHE/tree-VERSION/.configured  written once configure succeeded; a tree
#                               without it is removed and made again
#   CACHE/<key>/qemu-system-x86_64  the binary of this key
#   CACHE/<key>/build.log       the build's output; build-seconds its time
#   CACHE/<key>/.done           written last: the cache entry is complete
#                               (the 4 newest entries are kept)
#
# key: a hash of the QEMU source version, the device source, sim/*.[ch],
# sim/user/*.h and this script. CACHE: $IPUXCOM_QEMU_CACHE, else
# /var/cache/ipuxcom/qemu-c600 if that can be created and written, else
# ${XDG_CACHE_HOME:-$HOME/.cache}/ipuxcom/qemu-c600. One lock (flock) keeps
# two builds apart. The build runs under nice -n 10 with ninja -j2
# (QEMU_C600_JOBS). QEMU_C600_SRC_DIR: a directory holding the source
# package's files (.dsc and tarballs) to use instead of `apt-get source`.
#
# As root, the script first makes sure apt has a deb-src entry for the
# Debian mirror the machine uses (/etc/apt/sources.list.d/ipuxcom-src.sources)
# and the build dependencies are installed.
#
# The binary needs the firmware of Debian's qemu-system-data and seabios
# packages: run it with -L /usr/share/qemu -L /usr/share/seabios.
#
# Usage: scripts/qemu-c600.sh [--dir]
#   last line: QEMU=/path/to/qemu-system-x86_64
#   --dir: print the cache entry's directory only, build nothing.
# Exit status: 0 once the binary is there, 1 if anything failed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
self=$here/$(basename "$0")
device=$top/selftests/qemu/ipu_c600.c
jobs=${QEMU_C600_JOBS:-2}
# Build dependencies beyond deps/packages.txt's (which lists them too).
build_deps="meson ninja-build libglib2.0-dev libpixman-1-dev libfdt-dev flex bison
	python3-venv dpkg-dev pkg-config gcc make xz-utils qemu-system-x86 qemu-system-data seabios"

die() {
	echo "qemu-c600: $*" >&2
	exit 1
}

# shellcheck source=scripts/cache-dir.sh
. "$here/cache-dir.sh"
pick_cache() {
	ipuxcom_cache_dir qemu-c600 "${IPUXCOM_QEMU_CACHE:-}"
}

# The source version to build: the installed binary's source package.
srcver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null) || srcver=
[ -n "$srcver" ] || die "qemu-system-x86 is not installed (make deps)"
[ -r "$device" ] || die "cannot read $device"
# What is built is what the key names: a snapshot of the device and the
# model, taken now (an edit during the build goes into the next key).
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/user"
cp "$device" "$top"/sim/*.[ch] "$stage/"
cp "$top"/sim/user/*.h "$stage/user/"
key=$({
	echo "qemu source $srcver"
	cat "$stage/$(basename "$device")"
	cat "$stage"/c600_*.[ch] "$stage"/user/*.h
	cat "$self"
} | sha256sum | cut -c1-16)
cache=$(pick_cache)
dir=$cache/$key
if [ "${1:-}" = --dir ]; then
	echo "$dir"
	exit 0
fi
[ $# -eq 0 ] || die "usage: scripts/qemu-c600.sh [--dir]"

mkdir -p "$cache"
exec 7>"$cache/.lock"
flock 7
if [ -e "$dir/.done" ]; then
	echo "qemu-c600: cached in $dir (built in $(cat "$dir/build-seconds" 2>/dev/null || echo '?')s)"
	echo "QEMU=$dir/qemu-system-x86_64"
	exit 0
fi

# ------------------------------------------------------------------ apt
# deb-src for the mirror of the first deb822 "Types: deb" entry (or the
# first one-line "deb" entry), written once; then the build dependencies.
apt_setup() {
	local src=/etc/apt/sources.list.d/ipuxcom-src.sources f missing p st
	if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		f=$(grep -lsE '^Types:.*\bdeb\b' /etc/apt/sources.list.d/*.sources | head -n 1 || true)
		if [ -n "$f" ]; then
			# every deb stanza of that file, as deb-src
			awk 'BEGIN { RS = ""; ORS = "\n\n" }
				/(^|\n)Types:[^\n]*deb([ \t]|\n|$)/ && !/deb-src/ {
					sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f" >"$src.tmp"
		else
			grep -hsE '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >"$src.tmp" || true
			[ -s "$src.tmp" ] && mv "$src.tmp" /etc/apt/sources.list.d/ipuxcom-src.list
		fi
		if [ -s "$src.tmp" ]; then
			mv "$src.tmp" "$src"
			echo "qemu-c600: added $src (deb-src of $f)"
		fi
		rm -f "$src.tmp"
		apt-get update -qq || die "apt-get update failed"
	fi
	missing=
	for p in $build_deps; do
		st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
		case $st in *" installed") ;; *) missing="$missing $p" ;; esac
	done
	if [ -n "$missing" ]; then
		echo "qemu-c600: installing:$missing"
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing ||
			die "apt-get install failed"
	fi
}
if [ "$(id -u)" = 0 ]; then
	apt_setup
fi
for p in meson ninja dpkg-source; do
	command -v "$p" >/dev/null ||
		die "build dependencies missing (run as root, or: apt-get install $build_deps)"
done

# ------------------------------------------------------------------ the tree
# The device and the model, as they are now, into the tree's hw/misc/ipu-c600/.
copy_device() {
	local mdir=$tree/src/hw/misc/ipu-c600
	mkdir -p "$mdir"
	find "$mdir" -mindepth 1 ! -name meson.build -exec rm -rf {} +
	mkdir -p "$mdir/user"
	cp "$stage"/*.[ch] "$mdir/"
	cp "$stage"/user/*.h "$mdir/user/"
}
tree=$cache/tree-$(printf '%s' "$srcver" | tr -c 'A-Za-z0-9.+-' '_')
rm -rf "$dir"
mkdir -p "$dir"
log=$dir/build.log
: >"$log"
t0=$(date +%s)
if [ ! -e "$tree/.configured" ]; then
	echo "qemu-c600: unpacking and configuring QEMU $srcver in $tree (log: $log)"
	rm -rf "$tree"
	mkdir -p "$tree/dl"
	(
		set -e
		cd "$tree/dl"
		upver=${srcver#*:}
		if [ -n "${QEMU_C600_SRC_DIR:-}" ] && [ -r "$QEMU_C600_SRC_DIR/qemu_$upver.dsc" ]; then
			echo "source package from $QEMU_C600_SRC_DIR"
			dpkg-source -x "$QEMU_C600_SRC_DIR/qemu_$upver.dsc" "$tree/src"
		else
			# the version of the installed binary, else the newest apt knows
			# (deb-src entries whose lists were never fetched: update once)
			apt-get source -q "qemu=$srcver" || apt-get source -q qemu || {
				apt-get update -qq
				apt-get source -q "qemu=$srcver" || apt-get source -q qemu
			}
			d=$(find . -maxdepth 1 -type d -name 'qemu-*' | head -n 1)
			[ -n "$d" ] || { echo "apt-get source left no qemu-* directory"; exit 1; }
			mv "$d" "$tree/src"
		fi
	) >>"$log" 2>&1 || { tail -n 30 "$log" >&2; die "getting the source failed (log: $log)"; }
	rm -rf "$tree/dl"
	(
		set -e
		cd "$tree/src"
		# the hook: a directory of ours under hw/misc, a Kconfig symbol that
		# is on wherever the test devices (edu) are
		echo "subdir('ipu-c600')" >>hw/misc/meson.build
		cat >>hw/misc/Kconfig <<-'EOF'

		config IPU_C600
		    bool
		    default y if TEST_DEVICES
		    depends on PCI && MSI_NONBROKEN
		EOF
		mkdir -p hw/misc/ipu-c600
		cat >hw/misc/ipu-c600/meson.build <<-'EOF'
		softmmu_ss.add(when: 'CONFIG_IPU_C600', if_true: files('ipu_c600.c', 'c600_sim.c', 'c600_sram.c'))
		EOF
		copy_device
		mkdir -p "$tree/build"
		cd "$tree/build"
		nice -n 10 ../src/configure --target-list=x86_64-softmmu \
			--without-default-features --disable-install-blobs --disable-docs \
			--disable-tools
	) >>"$log" 2>&1 || { tail -n 40 "$log" >&2; die "configure failed (log: $log)"; }
	touch "$tree/.configured"
fi

# ------------------------------------------------------------------ build
echo "qemu-c600: building QEMU $srcver with ipu-c600 in $tree/build: ninja -j$jobs under nice -n 10" \
	"(from scratch ~20 min on 2 busy CPUs; after a device or sim/ change seconds); log: $log"
copy_device
(
	set -e
	cd "$tree/build"
	nice -n 10 ninja -j"$jobs" qemu-system-x86_64
) >>"$log" 2>&1 || { grep -E 'error|ipu-c600' "$log" | tail -n 40 >&2; die "the build failed (log: $log)"; }
# QEMU-style C compiled by QEMU's flags: the device must not warn.
if grep -E 'hw/misc/ipu-c600/.*warning' "$log" >&2; then
	die "the device or the model compiled with warnings (log: $log)"
fi
cp "$tree/build/qemu-system-x86_64" "$dir/qemu-system-x86_64"
bin=$dir/qemu-system-x86_64
# What the test VM needs from this binary.
have=$("$bin" -L /usr/share/qemu -L /usr/share/seabios -device help 2>&1)
for d in ipu-c600 edu intel-iommu pcie-root-port; do
	grep -q "name \"$d\"" <<<"$have" || die "the binary lacks device $d"
done
"$bin" -machine help | grep -q '^q35' || die "the binary lacks the q35 machine"
t1=$(date +%s)
echo "$srcver" >"$dir/qemu-version"
echo $((t1 - t0)) >"$dir/build-seconds"
touch "$dir/.done"
# Keep the 4 newest entries (a binary is ~55 MB); trees stay.
# shellcheck disable=SC2012 # (the names are hex digits)
for old in $(ls -1td "$cache"/[0-9a-f]*/ 2>/dev/null | tail -n +5); do
	case $(basename "$old") in
	"$key") ;;
	[0-9a-f][0-9a-f][0-9a-f][0-9a-f]*) rm -rf "$old" ;;
	esac
done
echo "qemu-c600: built in $((t1 - t0))s: $dir"
echo "QEMU=$bin"
