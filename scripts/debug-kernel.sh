#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build (once) the debug kernel of `make check-debug`: Debian's
# linux-source-6.1 (/usr/src/linux-source-6.1.tar.xz), x86_64 defconfig plus
# selftests/debug/debug-kernel.config (KASAN, lockdep, kmemleak, fault
# injection, ...), cached outside the work tree under a key made of the
# fragment, the source package's version, the compiler and the recipe
# version (below):
#
#   CACHE/<key>/build/          the kernel tree: KDIR for the modules
#   CACHE/<key>/build/arch/x86/boot/bzImage   what QEMU boots (not the
#                               vmlinux through its PVH entry point: with
#                               KASAN, the PVH path faults on shadow memory
#                               that is not mapped yet, 6.1.192)
#   CACHE/<key>/mods/lib/modules/KVER/   modules_install (modules.builtin...)
#   CACHE/<key>/kver            KVER (kernel.release)
#   CACHE/<key>/build.log       the build's output; build-seconds its time
#   CACHE/<key>/.done           written last: the cache entry is complete
#
# CACHE: $IPUXCOM_DEBUG_CACHE, else /var/cache/ipuxcom/debug-kernel if that
# can be created and written, else ${XDG_CACHE_HOME:-$HOME/.cache}/ipuxcom/debug-kernel.
# The build runs under nice -n 10 with make -j$(nproc) (DEBUG_KERNEL_JOBS).
# A lock (flock) keeps two builds of one key apart; a build that did not
# finish is started again from scratch.
#
# Usage: scripts/debug-kernel.sh [--dir]
#   prints "KDIR=... KVER=... KIMAGE=..." (make variables) as its last line;
#   --dir: print the cache entry's directory only, build nothing.
# Exit status: 0 once the kernel is there, 1 if the build or the config
# check failed (the log says which option is missing).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
fragment=$top/selftests/debug/debug-kernel.config
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}

die() {
	echo "debug-kernel: $*" >&2
	exit 1
}

# shellcheck source=scripts/cache-dir.sh
. "$here/cache-dir.sh"
pick_cache() {
	ipuxcom_cache_dir debug-kernel "${IPUXCOM_DEBUG_CACHE:-}"
}

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
	die "linux-source-6.1 is not installed (apt-get install linux-source-6.1)"
[ -r "$tarball" ] || die "cannot read $tarball"
key=$({
	cat "$fragment"
	echo "linux-source-6.1 $srcver"
	gcc --version | head -n 1
	# the recipe below: bump when it changes what is built
	echo "recipe 1"
} | sha256sum | cut -c1-16)
cache=$(pick_cache)
dir=$cache/$key
if [ "${1:-}" = --dir ]; then
	echo "$dir"
	exit 0
fi

vars() {
	local kver
	kver=$(cat "$dir/kver")
	echo "KDIR=$dir/build KVER=$kver KIMAGE=$dir/build/arch/x86/boot/bzImage" \
		"KMODDIR=$dir/mods/lib/modules/$kver"
}

mkdir -p "$cache"
exec 7>"$cache/$key.lock"
flock 7
if [ -e "$dir/.done" ]; then
	echo "debug-kernel: cached in $dir (built in $(cat "$dir/build-seconds" 2>/dev/null || echo '?')s)"
	vars
	exit 0
fi

rm -rf "$dir"
mkdir -p "$dir"
log=$dir/build.log
jobs=${DEBUG_KERNEL_JOBS:-$(nproc)}
echo "debug-kernel: building linux-source-6.1 $srcver with $(basename "$fragment") in $dir"
echo "debug-kernel: make -j$jobs under nice -n 10; log: $log (this takes a while: ~20-30 min on 2 CPUs)"
t0=$(date +%s)
(
	set -e
	cd "$dir"
	mkdir build
	tar -xJf "$tarball" -C build --strip-components=1
	cd build
	export ARCH=x86_64
	nice -n 10 make -s defconfig
	KCONFIG_CONFIG=.config scripts/kconfig/merge_config.sh -m .config "$fragment"
	nice -n 10 make -s olddefconfig
) >"$log" 2>&1 || { tail -n 40 "$log" >&2; die "configuring failed (log: $log)"; }

# Every option of the fragment must have made it into .config.
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		if ! grep -qxF "$line" "$dir/build/.config"; then
			have=$(grep -E "^(# )?${line%%=*}[= ]" "$dir/build/.config" || echo "absent")
			echo "debug-kernel: config: want $line, have: $have" >&2
			bad=1
		fi
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		if grep -qE "^$opt=[ym]" "$dir/build/.config"; then
			# only build time is at stake: say so, go on
			echo "debug-kernel: config: note: $opt stays enabled (selected by another option)"
		fi
		;;
	esac
done <"$fragment"
[ "$bad" -eq 0 ] || die "the .config lacks options of $fragment (see above; log: $log)"

(
	set -e
	cd "$dir/build"
	export ARCH=x86_64
	nice -n 10 make -j"$jobs" all
	nice -n 10 make -s INSTALL_MOD_PATH="$dir/mods" modules_install
	make -s kernelrelease >"$dir/kver"
) >>"$log" 2>&1 || { tail -n 60 "$log" >&2; die "the build failed (log: $log)"; }
t1=$(date +%s)
echo $((t1 - t0)) >"$dir/build-seconds"
touch "$dir/.done"
echo "debug-kernel: built in $((t1 - t0))s: $dir"
vars
