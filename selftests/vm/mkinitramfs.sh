#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build the gzip'ed newc initramfs the ipuxcom test VM boots (no disk image,
# no root needed, a few seconds):
#
#   selftests/vm/mkinitramfs.sh --kver V --out FILE.cpio.gz \
#       [--modules "ipuxcom.ko ipuxcom_sim.ko ipuxcom_hw.ko"] [--tool "build/ipuxcom ..."] \
#       [--tests "build/tests/device/a_test ..."] [--bench "build/bench/x ..."]
#       [--final "selftests/debug/kernel_health.sh ..."] [--moddir DIR] [--python DIR]
#       [--data "FILE ..."] [--kmods "NAME ..."]
#
#   /init                        selftests/vm/init (busybox sh, PID 1)
#   /bin/busybox + applet links  busybox-static
#   /lib/modules/V/extra/*.ko    --modules (bare names are looked up at the
#                                repository top, where kbuild leaves them;
#                                paths, absolute ones too, are used as given,
#                                e.g. DKMS's /lib/modules/V/updates/dkms/*.ko;
#                                a NAME.ko.xz, .ko.zst or .ko.gz is unpacked
#                                to NAME.ko), plus modules.dep & co from
#                                depmod, so that busybox
#                                `modprobe ipuxcom_sim` pulls ipuxcom
#   /lib/modules/V/kernel/...    --kmods: in-tree modules of the target
#                                kernel that tests load themselves (by
#                                name, through modules.dep: stall_test's
#                                fuse), with their dependencies, unpacked;
#                                a module the kernel has built in needs
#                                nothing, one it lacks is noted (the test
#                                that needs it skips)
#   /bin/NAME                    each program of --tool
#   /demo.sh                     selftests/vm/demo.sh
#   /tests/*                     --tests
#   /bench/*                     --bench (programs for `make bench-vm`)
#   /final/*                     --final: run by init after /tests/* (scripts
#                                are copied as they are; busybox runs them)
#   --moddir DIR                 the target kernel's module directory
#                                (modules.builtin*, modules.dep), default
#                                /lib/modules/V; the Makefile passes that of
#                                the kernel scripts/vm-kernel.sh unpacked,
#                                the debug lane its own (make check-debug)
#   /data/*                      --data: test vectors the tests read, as
#                                they are (the card lane's config capture,
#                                which is not part of the product)
#   --python DIR                 a tree copied to the image's root as it is
#                                (python/vm/vm-files.py: Debian's python3 with
#                                the modules the Python device tests load,
#                                the package in /python)
#   shared libraries             of every dynamic ELF above, at their host path
#
# Empty --modules/--tests lists are allowed (handy to test the VM plumbing);
# a listed file that does not exist is an error.
set -eu

usage() {
	sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'
}
die() {
	echo "mkinitramfs: $*" >&2
	exit 1
}

kver='' out='' modules='' kmods='' tool='' tests='' benches='' finals='' moddir='' python='' data=''
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--*) [ $# -ge 2 ] || die "$1 needs an argument" ;;
	esac
	case $1 in
	--kver) kver=$2 ;;
	--out) out=$2 ;;
	--modules) modules=$2 ;;
	--kmods) kmods=$2 ;;
	--tool) tool=$2 ;;
	--tests) tests=$2 ;;
	--bench) benches=$2 ;;
	--final) finals=$2 ;;
	--moddir) moddir=$2 ;;
	--python) python=$2 ;;
	--data) data=$2 ;;
	*) usage >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$kver" ] || die "--kver is required"
[ -n "$out" ] || die "--out is required"

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
orig=$(pwd)
case $out in /*) ;; *) out=$orig/$out ;; esac
hostmods=${moddir:-/lib/modules/$kver}
case $hostmods in /*) ;; *) hostmods=$orig/$hostmods ;; esac
# depmod lives in /sbin, which is not in a normal user's PATH on Debian.
depmod=$(command -v depmod || echo /sbin/depmod)
busybox=$(command -v busybox || echo /bin/busybox)
[ -x "$busybox" ] || die "no busybox: apt-get install busybox-static"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root"
cd "$root"
mkdir -p bin sbin usr/bin usr/sbin dev proc sys tmp run root etc tests \
	"lib/modules/$kver/extra"

# Copy FILE's shared libraries (ldd lists them transitively, the ELF
# interpreter included) to the same paths in the image. ldd fails on static
# binaries: they need nothing.
copy_libs() {
	libs=$(ldd "$1" 2>/dev/null) || return 0
	if printf '%s\n' "$libs" | grep -q 'not found'; then
		die "$1: missing shared libraries: $(printf '%s\n' "$libs" | grep 'not found')"
	fi
	printf '%s\n' "$libs" | awk '$2 == "=>" && $3 ~ /^\// { print $3; next }
		$1 ~ /^\// { print $1 }' |
		while read -r lib; do
			mkdir -p "./${lib%/*}"
			cp -L "$lib" "./$lib"
		done
}

# Install FILE (a host path, relative to the caller's directory) as DEST (an
# image path), with its libraries.
install_elf() {
	case $1 in /*) src=$1 ;; *) src=$orig/$1 ;; esac
	[ -f "$src" ] || die "$1: no such file (not built?)"
	cp "$src" "./$2"
	chmod 755 "./$2"
	copy_libs "$src"
}

# busybox: one binary, every applet a symlink (`--list-full` gives the
# install paths, so nothing on the host is touched, unlike --install).
install_elf "$busybox" bin/busybox
"$busybox" --list-full | while read -r applet; do
	[ -e "./$applet" ] || ln -s /bin/busybox "./$applet"
done
install -m 755 "$here/init" init

printf 'root:x:0:0:root:/root:/bin/sh\n' >etc/passwd
printf 'root:x:0:\n' >etc/group

# Kernel modules. depmod needs modules.builtin* (and modules.order) of the
# target kernel to know which dependencies are built in.
for f in modules.builtin modules.builtin.modinfo modules.builtin.alias.bin \
	modules.builtin.bin modules.order; do
	[ -f "$hostmods/$f" ] && cp "$hostmods/$f" "lib/modules/$kver/"
done
# modname FILE: NAME.ko for FILE NAME.ko, NAME.ko.xz, ... (the image's name).
modname() {
	n=${1##*/}
	echo "${n%.ko*}.ko"
}
ours=
for m in $modules; do
	case $m in
	/*) src=$m ;;
	*/*) src=$orig/$m ;;
	*) src=$top/$m ;;
	esac
	[ -f "$src" ] || die "$src: no such module (run 'make modules')"
	# Installed modules may be compressed (DKMS follows the kernel's
	# CONFIG_MODULE_COMPRESS_*); /init and the tests insmod NAME.ko.
	case $src in
	*.ko.xz) unpack="xz -dc" ;;
	*.ko.zst) unpack="zstd -dc" ;;
	*.ko.gz) unpack="gzip -dc" ;;
	*.ko) unpack="cat" ;;
	*) die "$src: not a kernel module (NAME.ko, NAME.ko.xz, .ko.zst or .ko.gz)" ;;
	esac
	$unpack "$src" >"lib/modules/$kver/extra/$(modname "$m")" || die "$src: cannot unpack"
	ours="$ours $(basename "$(modname "$m")" .ko | tr - _)"
done
# kmod_paths NAME: the target kernel's in-tree module NAME and the modules
# it depends on (its modules.dep line, paths relative to the module
# directory); nothing if the kernel has no such loadable module.
kmod_paths() {
	awk -v want="$1" '{ n = $1; sub(/:$/, "", n); sub(/.*\//, "", n);
		sub(/\.ko.*/, "", n); gsub(/-/, "_", n)
		if (n == want) { sub(/:/, ""); print; exit } }' "$hostmods/modules.dep"
}
# Our modules may need in-tree modules that are not built in (say a crypto
# helper): copy them, with their own dependencies, from the host's tree.
for m in $modules; do
	deps=$(modinfo -F depends "lib/modules/$kver/extra/$(modname "$m")" | tr , ' ')
	for d in $deps; do
		case " $ours " in *" $d "*) continue ;; esac
		paths=$(kmod_paths "$d")
		[ -n "$paths" ] || die "$m needs module $d, not found in $hostmods"
		for p in $paths; do
			mkdir -p "lib/modules/$kver/${p%/*}"
			cp "$hostmods/$p" "lib/modules/$kver/$p"
		done
	done
done
# Modules the tests load themselves (--kmods), unpacked: the tests call
# finit_module() on the file modules.dep names, as /init's insmod does.
for k in $kmods; do
	k=$(echo "$k" | tr - _)
	if [ -f "$hostmods/modules.builtin" ] &&
		tr - _ <"$hostmods/modules.builtin" | grep -q "/$k\.ko\$"; then
		continue
	fi
	paths=$(kmod_paths "$k")
	if [ -z "$paths" ]; then
		echo "mkinitramfs: note: kernel $kver has no module $k (the tests that need it skip)" >&2
		continue
	fi
	for p in $paths; do
		case $p in
		*.ko.xz) unpack="xz -dc" ;;
		*.ko.zst) unpack="zstd -dc" ;;
		*.ko.gz) unpack="gzip -dc" ;;
		*) unpack="cat" ;;
		esac
		mkdir -p "lib/modules/$kver/${p%/*}"
		$unpack "$hostmods/$p" >"lib/modules/$kver/${p%.ko*}.ko" || die "$hostmods/$p: cannot unpack"
	done
done
"$depmod" -b "$root" "$kver"

for p in $tool; do
	install_elf "$p" "bin/${p##*/}"
done
cp "$here/demo.sh" demo.sh
mkdir -p bench
for b in $benches; do
	install_elf "$b" "bench/${b##*/}"
done
for t in $tests; do
	[ ! -e "tests/${t##*/}" ] || die "two tests named ${t##*/}"
	install_elf "$t" "tests/${t##*/}"
done
if [ -n "$finals" ]; then
	mkdir -p final
	for t in $finals; do
		case $t in /*) src=$t ;; *) src=$orig/$t ;; esac
		[ -f "$src" ] || die "$t: no such file"
		# a script keeps its name less the extension: the test's name
		n=${t##*/}
		case $(head -c 2 "$src") in '#!') n=${n%.sh} ;; esac
		if head -c 4 "$src" | grep -q ELF; then
			install_elf "$t" "final/$n"
		else
			install -m 755 "$src" "final/$n"
		fi
	done
fi

if [ -n "$data" ]; then
	mkdir -p data
	for d in $data; do
		case $d in /*) src=$d ;; *) src=$orig/$d ;; esac
		[ -f "$src" ] || die "$d: no such file"
		[ ! -e "data/${d##*/}" ] || die "two data files named ${d##*/}"
		cp -L "$src" "data/${d##*/}"
		chmod 444 "data/${d##*/}"
	done
fi

if [ -n "$python" ]; then
	case $python in /*) src=$python ;; *) src=$orig/$python ;; esac
	[ -d "$src" ] || die "$python: no such directory (make vm-python)"
	cp -a "$src/." .
	find "$src" -type f \( -name '*.so' -o -perm -u+x \) | while read -r f; do
		head -c 4 "$f" | grep -q ELF && copy_libs "$f"
	done
fi

# Reproducible archive: fixed owner and timestamps, sorted entries, no gzip
# name/time header.
find . -exec touch -h -d "@${SOURCE_DATE_EPOCH:-0}" {} +
mkdir -p "$(dirname "$out")"
find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --reproducible --quiet |
	gzip -n -9 >"$out.tmp"
mv "$out.tmp" "$out"
echo "mkinitramfs: $out ($(du -k "$out" | cut -f1) KiB;" \
	"modules:${ours:- none}; tests: $(echo "$tests" | wc -w))"
