#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Install test (make check-install, part of make check), as TAP:
#   make install into a temporary DESTDIR with PREFIX=/usr, check the file
#   list (headers under INCLUDEDIR/ipuxcom, docs/*.md under
#   PREFIX/share/doc/ipuxcom, every docs/ file the command's --help names
#   among them), the pkg-config file and the exported symbols, build
#   selftests/install/pc_user.c against the installed library with only
#   `pkg-config --cflags --libs libipuxcom` (PKG_CONFIG_SYSROOT_DIR) and run
#   it, shared and static, run the installed command (and one built against
#   the installed libipuxcom.so: --version), import the installed Python
#   package with /usr/bin/python3 and plan with it, create the group from
#   the installed sysusers.d file in a scratch root, then make uninstall and
#   check that no file is left; the same with PREFIX=/opt/ipuxcom,
#   LIBDIR=/opt/ipuxcom/lib64 and INCLUDEDIR=/opt/ipuxcom/inc.
# Needs the library and the command built (make lib tools); touches nothing
# outside its temporary directory.
#
# Usage: selftests/install/install-check.sh
# Environment: MAKE (make), CC (gcc), PKG_CONFIG (pkg-config)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
make=${MAKE:-make} cc=${CC:-gcc} pkgconfig=${PKG_CONFIG:-pkg-config}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$(sed -n 's/^#define IPUXCOM_LIB_VERSION[[:space:]]*"\(.*\)"/\1/p' \
	"$top/libuser/include/ipuxcom.h")
major=${version%%.*}

n=0 nfail=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); nfail=$((nfail + 1)); echo "not ok $n $*"; }
# check NAME CMD...: one result; the command's output only on failure.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$name"
	else
		notok "$name"
		printf '%s\n' "$out" | tail -n 30 | sed 's/^/# /'
	fi
}

# The files `make install` must create for PREFIX=P LIBDIR=L INCLUDEDIR=I
# (relative to DESTDIR, sorted); the system-integration ones do not follow
# PREFIX.
expected_files() {
	local p=$1 l=$2 i=$3 h
	{
		for h in "$top"/libuser/include/*.h; do echo "$i/ipuxcom/${h##*/}"; done
		echo "$i/ipuxcom/linux/ipuxcom.h"
		echo "$i/ipuxcom/linux/ipuxcom_ipu_driver.h"
		for h in "$top"/docs/*.md; do echo "$p/share/doc/ipuxcom/${h##*/}"; done
		echo "$l/libipuxcom.so.$version"
		echo "$l/libipuxcom.so.$major"
		echo "$l/libipuxcom.so"
		echo "$l/libipuxcom.a"
		echo "$l/pkgconfig/libipuxcom.pc"
		echo "$p/bin/ipuxcom"
		echo "$p/share/man/man8/ipuxcom.8"
		echo "$p/share/man/man3/libipuxcom.3"
		echo "$p/share/bash-completion/completions/ipuxcom"
		echo "/lib/udev/rules.d/60-ipuxcom.rules"
		echo "/etc/modprobe.d/ipuxcom.conf"
		echo "/usr/lib/sysusers.d/ipuxcom.conf"
		for h in "$top"/python/ipuxcom/*.py "$top"/python/ipuxcom/py.typed \
			"$top"/python/ipuxcom/_ipuxcom.pyi; do
			echo "$(pydir "$p")/ipuxcom/${h##*/}"
		done
		echo "$(pydir "$p")/ipuxcom/_ipuxcom$("$python" -c \
			'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
	} | LC_ALL=C sort
}

# Where make install puts the Python package for PREFIX (the Makefile's PYTHONDIR).
python=/usr/bin/python3
pydir() {
	if [ "$1" = /usr ]; then
		echo /usr/lib/python3/dist-packages
	else
		echo "$1/lib/python$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')/dist-packages"
	fi
}

# The installed package imports with Debian's python3 (not the tree's) and plans.
check_python() {
	local dest=$1 p=$2 got
	got=$(cd / && PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$dest$(pydir "$p") "$python" -c \
		'import ipuxcom; print(ipuxcom.__file__); print(ipuxcom.plan_p2p(0, 5, 1).recv.tile)') ||
		return 1
	[ "$got" = "$dest$(pydir "$p")/ipuxcom/__init__.py
130" ] || { echo "got: $got"; return 1; }
}

# Files and symlinks under DIR, as /paths, sorted.
files_in() {
	(cd "$1" && find . \( -type f -o -type l \) | sed 's|^\.||' | LC_ALL=C sort)
}

check_files() {
	local dest=$1 p=$2 l=$3 i=$4
	diff -u <(expected_files "$p" "$l" "$i") <(files_in "$dest") &&
		[ "$(readlink "$dest$l/libipuxcom.so")" = "libipuxcom.so.$major" ] &&
		[ "$(readlink "$dest$l/libipuxcom.so.$major")" = "libipuxcom.so.$version" ] &&
		[ -x "$dest$p/bin/ipuxcom" ] &&
		[ "$(stat -c %a "$dest$i/ipuxcom/ipuxcom.h")" = 644 ] &&
		[ "$(stat -c %a "$dest$p/share/doc/ipuxcom/ipuimg-format.md")" = 644 ]
}

# pkg-config as a program built against DEST would run it.
pc() {
	local dest=$1 l=$2
	shift 2
	PKG_CONFIG_PATH=$dest$l/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest "$pkgconfig" "$@"
}

check_pc() {
	local dest=$1 p=$2 l=$3 i=$4 got
	got=$(pc "$dest" "$l" --modversion libipuxcom) &&
		{ [ "$got" = "$version" ] || { echo "modversion $got, want $version"; return 1; }; } &&
		got=$(PKG_CONFIG_PATH=$dest$l/pkgconfig "$pkgconfig" --variable=prefix libipuxcom) &&
		{ [ "$got" = "$p" ] || { echo "prefix $got, want $p"; return 1; }; } &&
		got=$(PKG_CONFIG_PATH=$dest$l/pkgconfig "$pkgconfig" --variable=libdir libipuxcom) &&
		{ [ "$got" = "$l" ] || { echo "libdir $got, want $l"; return 1; }; } &&
		got=$(PKG_CONFIG_PATH=$dest$l/pkgconfig "$pkgconfig" --variable=includedir libipuxcom) &&
		{ [ "$got" = "$i" ] || { echo "includedir $got, want $i"; return 1; }; } &&
		got=$(PKG_CONFIG_PATH=$dest$l/pkgconfig "$pkgconfig" --print-requires-private libipuxcom) &&
		{ { echo "$got" | grep -qw libmnl && echo "$got" | grep -qw libelf; } ||
			{ echo "Requires.private: $got, want libmnl and libelf"; return 1; }; } &&
		got=$(pc "$dest" "$l" --cflags --libs libipuxcom) || return 1
	case " $got " in *" -I$dest$i/ipuxcom "*) ;; *) echo "cflags '$got' lack -I$dest$i/ipuxcom"; return 1 ;; esac
	case " $got " in *" -L$dest$l "*) ;; *) echo "libs '$got' lack -L$dest$l"; return 1 ;; esac
}

# Build pc_user.c with the installed library: shared (the default) or
# static (libipuxcom.a, its dependencies still shared: Debian ships no
# static libmnl).
build_user() {
	local dest=$1 l=$2 how=$3 out=$4 flags libs
	flags=$(pc "$dest" "$l" --cflags libipuxcom) || return 1
	if [ "$how" = shared ]; then
		libs=$(pc "$dest" "$l" --libs libipuxcom) || return 1
	else
		libs="$(pc "$dest" "$l" --libs-only-L libipuxcom) -l:libipuxcom.a"
		libs="$libs $(pc "$dest" "$l" --static --libs-only-l libipuxcom | sed 's/-lipuxcom//')"
	fi
	# shellcheck disable=SC2086 # pkg-config output: one flag a word
	"$cc" -std=c11 -Wall -Wextra -Werror $flags -o "$out" "$top/selftests/install/pc_user.c" $libs
}

run_shared() {
	local dest=$1 l=$2 bin=$3 needed
	needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(libipuxcom[^]]*\)\]/\1/p')
	[ "$needed" = "libipuxcom.so.$major" ] || { echo "NEEDED '$needed', want libipuxcom.so.$major"; return 1; }
	LD_LIBRARY_PATH=$dest$l ldd "$bin" | grep -F "libipuxcom.so.$major => $dest$l/" || return 1
	LD_LIBRARY_PATH=$dest$l "$bin"
}

run_static() {
	local bin=$1
	if readelf -d "$bin" | grep -q 'NEEDED.*libipuxcom'; then
		echo "linked libipuxcom.so, not libipuxcom.a"
		return 1
	fi
	"$bin"
}

# Every dynamic symbol the library defines is ipuxcom_* with the
# LIBIPUXCOM_* version of libuser/libipuxcom.map, and there are some.
check_exports() {
	local so=$1 bad
	objdump -T "$so" | awk '$2 == "g" && $4 != "*UND*" { print $(NF - 1), $NF }' >"$tmp/exports"
	[ -s "$tmp/exports" ] || { echo "no exported symbol"; return 1; }
	bad=$(awk '$2 !~ /^ipuxcom_/ && $2 !~ /^LIBIPUXCOM_/ || $1 !~ /^(\()?LIBIPUXCOM_/' "$tmp/exports")
	[ -z "$bad" ] || { echo "unexpected exports:"; echo "$bad"; return 1; }
	readelf -d "$so" | grep -qF "Library soname: [libipuxcom.so.$major]" ||
		{ echo "soname is not libipuxcom.so.$major"; return 1; }
}

# Every docs/NAME.md the command's texts name (tools/*.c: --help and
# messages) is installed in the documentation directory, where a user of
# an installed ipuxcom finds it.
check_docs() {
	local docdir=$1 name missing=
	for name in $(grep -ohE 'docs/[a-z0-9_-]+\.md' "$top"/tools/*.c "$top"/man/*.[0-9] |
		sort -u); do
		[ -f "$docdir/${name#docs/}" ] || missing="$missing $name"
	done
	[ -z "$missing" ] || { echo "named by tools/ or man/ but not installed in $docdir:$missing"; return 1; }
}

check_tool() {
	local out
	out=$("$1" --version) || return 1
	case $out in "ipuxcom $version "*) ;; *) echo "--version: $out"; return 1 ;; esac
	"$1" plan decode 0x40a00005 >/dev/null
}

# The installed bash completion, sourced in a bash of its own, completes
# "ipuxcom dev sh" with the installed command.
check_completion() {
	local comp=$1 tool=$2 got
	got=$(bash -c 'source "$1" && complete -p ipuxcom >/dev/null &&
		COMP_WORDS=("$2" dev sh) COMP_CWORD=2 && _ipuxcom && echo "${COMPREPLY[*]}"' \
		_ "$comp" "$tool") || return 1
	[ "$got" = show ] || { echo "completion of 'ipuxcom dev sh': '$got', want 'show'"; return 1; }
}

# The command built against the installed libipuxcom.so (pkg-config) says
# which library it runs with when that is not the one it was built with:
# a preloaded ipuxcom_version() stands in for a newer library.
check_tool_runtime_version() {
	local dest=$1 l=$2 flags libs out
	flags=$(pc "$dest" "$l" --cflags libipuxcom) || return 1
	libs=$(pc "$dest" "$l" --libs libipuxcom) || return 1
	printf 'const char *ipuxcom_version(void);\nconst char *ipuxcom_version(void) { return "9.8.7"; }\n' \
		>"$tmp/newer.c"
	"$cc" -shared -fPIC -o "$tmp/newer.so" "$tmp/newer.c" || return 1
	# shellcheck disable=SC2086 # pkg-config output: one flag a word
	"$cc" -std=c11 -D_GNU_SOURCE $flags -I"$top/tools" -o "$tmp/ipuxcom-dyn" "$top"/tools/*.c \
		$libs || return 1
	out=$(LD_LIBRARY_PATH=$dest$l "$tmp/ipuxcom-dyn" --version) || return 1
	[ "$out" = "ipuxcom $version (uapi version ${out##*uapi version }" ] ||
		{ echo "same library: '$out'"; return 1; }
	out=$(LD_PRELOAD=$tmp/newer.so LD_LIBRARY_PATH=$dest$l "$tmp/ipuxcom-dyn" --version) ||
		return 1
	case $out in "ipuxcom $version (library 9.8.7, uapi version "*) ;;
	*) echo "newer library: '$out'"; return 1 ;; esac
}

# systemd-sysusers with --root: the group appears in a scratch /etc/group.
check_sysusers() {
	local conf=$1 root=$tmp/sysroot
	rm -rf "$root" && mkdir -p "$root/etc"
	printf 'root:x:0:\n' >"$root/etc/group"
	printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
	systemd-sysusers --root="$root" "$conf" &&
		grep -E '^ipuxcom:x:[0-9]+:$' "$root/etc/group"
}

# run_one DEST PREFIX LIBDIR INCLUDEDIR: install, check, uninstall.
run_one() {
	local dest=$1 p=$2 l=$3 i=$4 vars what
	vars=(DESTDIR="$dest" PREFIX="$p")
	[ "$l" = "$p/lib" ] || vars+=(LIBDIR="$l")
	[ "$i" = "$p/include" ] || vars+=(INCLUDEDIR="$i")
	what="${vars[*]:1}"
	check "make install $what" "$make" -C "$top" --no-print-directory install "${vars[@]}"
	check "$what: exactly the expected files, symlinks and modes" check_files "$dest" "$p" "$l" "$i"
	check "$what: libipuxcom.pc (version, prefix, libdir, includedir, Requires.private, sysroot)" \
		check_pc "$dest" "$p" "$l" "$i"
	check "$what: libipuxcom.so exports only ipuxcom_* at LIBIPUXCOM_* (soname libipuxcom.so.$major)" \
		check_exports "$dest$l/libipuxcom.so.$version"
	check "$what: build pc_user.c with pkg-config --cflags --libs libipuxcom" \
		build_user "$dest" "$l" shared "$tmp/pc_user"
	check "$what: run pc_user against the installed libipuxcom.so.$major" \
		run_shared "$dest" "$l" "$tmp/pc_user"
	check "$what: build pc_user.c with the installed libipuxcom.a" \
		build_user "$dest" "$l" static "$tmp/pc_user_static"
	check "$what: run pc_user linked with libipuxcom.a" run_static "$tmp/pc_user_static"
	check "$what: installed ipuxcom runs (--version, plan decode)" check_tool "$dest$p/bin/ipuxcom"
	check "$what: installed bash completion completes 'ipuxcom dev sh'" \
		check_completion "$dest$p/share/bash-completion/completions/ipuxcom" "$dest$p/bin/ipuxcom"
	check "$what: every docs/*.md the command and man pages name is in share/doc/ipuxcom" \
		check_docs "$dest$p/share/doc/ipuxcom"
	check "$what: ipuxcom linked with libipuxcom.so: --version names a different library's version" \
		check_tool_runtime_version "$dest" "$l"
	check "$what: the installed Python package imports with $python and plans" \
		check_python "$dest" "$p"
	check "make uninstall $what" "$make" -C "$top" --no-print-directory uninstall "${vars[@]}"
	check "$what: uninstall left no file behind" diff -u /dev/null <(files_in "$dest")
}

echo "1..31"
run_one "$tmp/d1" /usr /usr/lib /usr/include
if command -v systemd-sysusers >/dev/null; then
	check "sysusers.d/ipuxcom.conf creates group ipuxcom (systemd-sysusers --root)" \
		check_sysusers "$top/sysusers.d/ipuxcom.conf"
else
	ok "sysusers.d/ipuxcom.conf # SKIP no systemd-sysusers"
fi
run_one "$tmp/d2" /opt/ipuxcom /opt/ipuxcom/lib64 /opt/ipuxcom/inc
[ "$nfail" -eq 0 ]
