#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Test of selftests/install/host-state.sh (make check-install), as TAP: on a
# scratch tree (HOST_STATE_ROOT) with a scratch dpkg database
# (HOST_STATE_DPKG_INFO), that nothing changed passes, and that each kind of
# change fails naming its path: a file no package owns, a linux-image
# package's file, a file removed, a file rewritten, a DKMS source tree in
# /usr/src; while a header package's files pass, named as such.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
hs=$here/host-state.sh
# shellcheck source=selftests/install/tap-lib.sh
. "$here/tap-lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
r=$tmp/root
info=$tmp/info
mkdir -p "$r/boot" "$r/lib/modules/6.1.0-9-amd64/kernel" "$r/var/lib/dkms" "$r/usr/src" "$info"
echo image >"$r/boot/vmlinuz-6.1.0-9-amd64"
echo dep >"$r/lib/modules/6.1.0-9-amd64/modules.dep"
export HOST_STATE_ROOT=$r HOST_STATE_DPKG_INFO=$info HOST_STATE_BEFORE=$tmp/before

# run: host-state.sh's compare, its TAP in $tmp/out, its exit status in $rc.
run() {
	rc=0
	"$hs" >"$tmp/out" 2>&1 || rc=$?
}
# has REGEX: the last run printed a line matching REGEX.
has() { grep -qE -- "$1" "$tmp/out"; }
snap() { "$hs" snapshot "$HOST_STATE_BEFORE" >/dev/null; }
# verdict NAME CHECK...: ok when the function CHECK returns 0, else not ok
# with the run's output.
verdict() {
	local name=$1
	shift
	if "$@"; then
		ok "$name"
	else
		notok "$name (exit status $rc)"
		sed 's/^/# | /' "$tmp/out"
	fi
}

unchanged() {
	[ "$rc" -eq 0 ] && [ "$(grep -c '^ok ' "$tmp/out")" -eq 4 ] && [ "$(head -n 1 "$tmp/out")" = 1..4 ]
}
snap
run
verdict "nothing changed: 4 results, all ok, exit status 0" unchanged

# A header package's files are allowed; a linux-image package's and
# unowned ones are not (depmod's output in /lib/modules, say).
headers_pass() {
	[ "$rc" -eq 0 ] && has '^ok 2 /lib/modules .*linux-headers-6.1.0-10-amd64' && has '^ok 4 /usr/src '
}
mkdir -p "$r/lib/modules/6.1.0-10-amd64"
ln -s /usr/src/linux-headers-6.1.0-10-amd64 "$r/lib/modules/6.1.0-10-amd64/build"
mkdir -p "$r/usr/src/linux-headers-6.1.0-10-amd64"
printf '%s\n' /lib/modules /lib/modules/6.1.0-10-amd64 /lib/modules/6.1.0-10-amd64/build \
	/usr/src/linux-headers-6.1.0-10-amd64 >"$info/linux-headers-6.1.0-10-amd64.list"
run
verdict "files of a linux-headers package pass, the package named" headers_pass

image_fails() {
	[ "$rc" -ne 0 ] && has '^not ok 1 /boot ' &&
		has '^# added /boot/vmlinuz-6.1.0-10-amd64 .*package linux-image-6.1.0-10-amd64\)' &&
		has '^not ok 2 /lib/modules ' &&
		has '^# added /lib/modules/6.1.0-10-amd64/modules.dep .*no package\)' &&
		! has '^# added /lib/modules/6.1.0-10-amd64/build' && has '^ok 3 '
}
echo image >"$r/boot/vmlinuz-6.1.0-10-amd64"
echo /boot/vmlinuz-6.1.0-10-amd64 >"$info/linux-image-6.1.0-10-amd64:amd64.list"
echo dep >"$r/lib/modules/6.1.0-10-amd64/modules.dep"
run
verdict "a linux-image package's /boot file and an unowned modules.dep fail, named" image_fails

changes_fail() {
	[ "$rc" -ne 0 ] && has '^# removed /boot/vmlinuz-6.1.0-9-amd64 ' &&
		has '^# changed /lib/modules/6.1.0-9-amd64/modules.dep \(f 4 bytes.* -> f 9 bytes' &&
		has '^not ok 3 /var/lib/dkms ' && has '^# added /var/lib/dkms/ipuxcom ' &&
		has '^not ok 4 /usr/src ' && has '^# added /usr/src/ipuxcom-0.1.0 ' &&
		has '^# added /usr/src/ipuxcom-0.1.0/dkms.conf '
}
snap
rm "$r/boot/vmlinuz-6.1.0-9-amd64"
echo dep2 >>"$r/lib/modules/6.1.0-9-amd64/modules.dep"
mkdir -p "$r/usr/src/ipuxcom-0.1.0" "$r/var/lib/dkms/ipuxcom"
: >"$r/usr/src/ipuxcom-0.1.0/dkms.conf"
run
verdict "a removed file, a rewritten file and DKMS trees fail, each named" changes_fail

no_snapshot() {
	[ "$rc" -ne 0 ] && [ "$(grep -c '^not ok .*no snapshot' "$tmp/out")" -eq 4 ]
}
rm -f "$HOST_STATE_BEFORE"
run
verdict "no snapshot: every result fails, saying so" no_snapshot
echo "1..$n"
[ "$nfail" -eq 0 ]
