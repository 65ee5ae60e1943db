#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# DKMS test (make check-dkms, part of make check), as TAP. As root:
#   1. `make dkms-install` for KVER: the module sources to
#      /usr/src/ipuxcom-VERSION, dkms add, build (against Debian's headers
#      of KVER, /lib/modules/KVER/build) and install;
#   2. modinfo -k KVER resolves ipuxcom, ipuxcom_sim and ipuxcom_hw to
#      DKMS's copies in /lib/modules/KVER/updates/dkms/, built for KVER;
#   3. the test VM boots KVER with exactly those files (not the tree's
#      build: selftests/vm/mkinitramfs.sh --modules takes their paths) and
#      runs DKMS_CHECK_TESTS;
#   4. `make dkms-remove`, after which nothing of ipuxcom is left in DKMS's
#      tree, /usr/src or /lib/modules/KVER.
# Not root: skipped. A DKMS installation of ipuxcom that this test did not
# make is never touched: the test fails and says so. One run at a time
# (a lock: a second run waits up to 15 minutes); a run that was interrupted
# is cleaned up by the next.
#
# Usage: selftests/install/dkms-check.sh   (make check-dkms sets the environment)
# Environment: KVER, KIMAGE (/boot/vmlinuz-KVER), DKMS_VERSION, B (build
#   directory with ipuxcom and tests/device/*), DKMS_CHECK_TESTS (device
#   test names), DKMS_VM_TIMEOUT (seconds for the VM, default 300), MAKE
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
make=${MAKE:-make}
B=${B:-build}
tests=${DKMS_CHECK_TESTS:-abi_test attach_test}
kver=${KVER:-}
kimage=${KIMAGE:-/boot/vmlinuz-$kver}
version=${DKMS_VERSION:-}
modules="ipuxcom ipuxcom_sim ipuxcom_hw"
state=/var/tmp/ipuxcom-dkms-check.state
out=$B/dkms-check
ntests=$(echo "$tests" | wc -w)

n=0 nfail=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); nfail=$((nfail + 1)); echo "not ok $n $*"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
show() { [ -f "$1" ] && tail -n "${2:-30}" "$1" | sed 's/^/# /'; }

# Steps: preconditions, add, build, install, modinfo, VM, one per test,
# dkms-remove, nothing left.
echo "1..$((8 + ntests))"

if [ "$(id -u)" != 0 ]; then
	echo "# dkms add/build/install write /usr/src, /var/lib/dkms and /lib/modules: needs root"
	for _ in $(seq $((8 + ntests))); do n=$((n + 1)); echo "ok $n dkms # SKIP not root"; done
	exit 0
fi

# ------------------------------------------------------------ preconditions
problems=
[ -n "$kver" ] || problems+="KVER is not set (run make check-dkms)"$'\n'
[ -n "$version" ] || problems+="DKMS_VERSION is not set (run make check-dkms)"$'\n'
command -v dkms >/dev/null || problems+="no dkms: apt-get install dkms (deps/packages.txt)"$'\n'
[ -z "$kver" ] || [ -e "/lib/modules/$kver/build/Makefile" ] ||
	problems+="no /lib/modules/$kver/build: install linux-headers-$kver"$'\n'
[ -r "$kimage" ] || problems+="cannot read the kernel image $kimage"$'\n'
for t in $tests; do
	[ -x "$B/tests/device/$t" ] || problems+="$B/tests/device/$t not built"$'\n'
done
[ -x "$B/ipuxcom" ] || problems+="$B/ipuxcom not built"$'\n'
mkdir -p /run/lock && exec 9>/run/lock/ipuxcom-dkms-check.lock
flock -w 900 9 || problems+="another dkms-check held /run/lock/ipuxcom-dkms-check.lock for 15 minutes"$'\n'
if [ -z "$problems" ]; then
	existing=$(dkms status -m ipuxcom 2>/dev/null)
	if [ -n "$existing" ] || [ -e "/usr/src/ipuxcom-$version" ]; then
		if [ -f "$state" ]; then
			echo "# cleaning up after an interrupted run ($(cat "$state"))"
			"$make" -C "$top" --no-print-directory dkms-remove >/dev/null 2>&1
			existing=$(dkms status -m ipuxcom 2>/dev/null)
		fi
		if [ -n "$existing" ] || [ -e "/usr/src/ipuxcom-$version" ]; then
			problems+="DKMS already has ipuxcom, not installed by this test (dkms status:"
			problems+=" ${existing:-none}; /usr/src/ipuxcom-$version): remove it first"
			problems+=" (make dkms-remove), then rerun"$'\n'
		fi
	fi
fi
if [ -n "$problems" ]; then
	notok "dkms-check preconditions"
	printf '%s' "$problems" | sed 's/^/# /'
	for what in "dkms add" "dkms build" "dkms install" "modinfo" "VM boot"; do
		skip "$what" "preconditions failed"
	done
	for t in $tests; do skip "VM: $t with the DKMS modules" "preconditions failed"; done
	skip "make dkms-remove" "preconditions failed"
	skip "nothing left" "preconditions failed"
	exit 1
fi
ok "dkms-check preconditions: dkms $(dkms --version 2>/dev/null | sed 's/^dkms-//'), headers of $kver, ipuxcom $version not in DKMS"

rm -rf "$out"
mkdir -p "$out"
echo "started $(date -u +%FT%TZ) from $top" >"$state"
# Whatever happens from here, DKMS is left as it was found.
cleanup() {
	[ -f "$state" ] || return 0
	"$make" -C "$top" --no-print-directory dkms-remove >>"$out/cleanup.log" 2>&1
	rm -f "$state"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ------------------------------------------------------------ add, build, install
t0=$(date +%s)
"$make" -C "$top" --no-print-directory dkms-install KVER="$kver" >"$out/dkms-install.log" 2>&1
rc=$?
t1=$(date +%s)
st=$(dkms status -m ipuxcom -v "$version" 2>/dev/null)
echo "# make dkms-install: exit status $rc after $((t1 - t0))s; dkms status: ${st:-nothing}"
built=no installed=no
case $st in *"$kver"*": installed"*) built=yes installed=yes ;; *"$kver"*": built"*) built=yes ;; esac
if [ -n "$st" ]; then
	ok "dkms add ipuxcom/$version (from /usr/src/ipuxcom-$version)"
else
	notok "dkms add ipuxcom/$version"
	show "$out/dkms-install.log"
fi
if [ "$built" = yes ]; then
	ok "dkms build ipuxcom/$version for $kver"
elif [ -n "$st" ]; then
	notok "dkms build ipuxcom/$version for $kver"
	show "$out/dkms-install.log" 15
	echo "# --- /var/lib/dkms/ipuxcom/$version/build/make.log"
	show "/var/lib/dkms/ipuxcom/$version/build/make.log" 40
else
	skip "dkms build" "dkms add failed"
fi
if [ "$installed" = yes ] && [ "$rc" -eq 0 ]; then
	ok "dkms install ipuxcom/$version for $kver"
elif [ "$built" = yes ]; then
	notok "dkms install ipuxcom/$version for $kver (make dkms-install: exit status $rc)"
	show "$out/dkms-install.log"
else
	skip "dkms install" "dkms build failed"
fi

# ------------------------------------------------------------ the installed files
paths=
if [ "$installed" = yes ]; then
	problems=
	for m in $modules; do
		p=$(modinfo -k "$kver" -n "$m" 2>/dev/null)
		case $p in
		"/lib/modules/$kver/updates/dkms/$m.ko"*) ;;
		*) problems+="modinfo -k $kver -n $m: '${p:-not found}', not in /lib/modules/$kver/updates/dkms/"$'\n' ;;
		esac
		[ -f "$p" ] || continue
		vm=$(modinfo -F vermagic "$p")
		case $vm in "$kver "*) ;; *) problems+="$p: vermagic '$vm', not $kver"$'\n' ;; esac
		paths="$paths $p"
	done
	if [ -z "$problems" ]; then
		ok "modinfo -k $kver resolves $modules to updates/dkms/, vermagic $kver"
	else
		notok "the DKMS modules in /lib/modules/$kver"
		printf '%s' "$problems" | sed 's/^/# /'
	fi
else
	skip "modinfo" "dkms install failed"
fi

# ------------------------------------------------------------ the VM, on the DKMS modules
if [ "$(echo "$paths" | wc -w)" -eq 3 ]; then
	echo "# modules:$paths"
	test_bins=
	for t in $tests; do test_bins="$test_bins $B/tests/device/$t"; done
	vmrc=0
	selftests/vm/mkinitramfs.sh --kver "$kver" --out "$out/initramfs.cpio.gz" \
		--modules "${paths# }" --tool "$B/ipuxcom" --tests "${test_bins# }" \
		>"$out/mkinitramfs.log" 2>&1 || vmrc=$?
	if [ "$vmrc" -eq 0 ]; then
		selftests/vm/run-vm.sh --kernel "$kimage" --initrd "$out/initramfs.cpio.gz" \
			--mode check --expect "$tests" --timeout "${DKMS_VM_TIMEOUT:-300}" \
			--out "$out/vm" >"$out/run-vm.log" 2>&1 || vmrc=$?
	fi
	if [ ! -f "$out/vm/tests.tap" ]; then
		notok "VM boot with the DKMS modules (mkinitramfs or run-vm failed, exit status $vmrc)"
		show "$out/mkinitramfs.log" 10
		show "$out/run-vm.log" 30
		for t in $tests; do skip "VM: $t with the DKMS modules" "no VM run"; done
	else
		summary=$(selftests/tap-summary.sh "$out/vm/tests.tap" 2>&1)
		vmline=$(printf '%s\n' "$summary" | grep -E '^(PASS|FAIL|SKIP) +vm ')
		# The image's modules are byte for byte DKMS's (unpacked if DKMS
		# compressed them).
		same=yes
		for p in $paths; do
			m=${p##*/}
			m=${m%.ko*}.ko
			case $p in
			*.xz) want=$(xz -dc "$p" | sha256sum) ;;
			*.zst) want=$(zstd -dc "$p" | sha256sum) ;;
			*.gz) want=$(gzip -dc "$p" | sha256sum) ;;
			*) want=$(sha256sum <"$p") ;;
			esac
			got=$(gzip -dc "$out/initramfs.cpio.gz" |
				cpio -i --quiet --to-stdout "lib/modules/$kver/extra/$m" 2>/dev/null | sha256sum)
			[ "$got" = "$want" ] || { same=no; echo "# initramfs lib/modules/$kver/extra/$m differs from $p"; }
		done
		if [ -z "$vmline" ] && [ "$same" = yes ] && grep -qx 'IPUXCOM-VM-DONE' "$out/vm/results.log"; then
			ok "VM boot on $kver with the DKMS modules, the image's copies identical ($(grep -m1 -o 'boot to IPUXCOM-VM-DONE: [0-9.]*s' "$out/run-vm.log"))"
		else
			notok "VM boot with the DKMS modules: ${vmline:-no IPUXCOM-VM-DONE}"
			show "$out/run-vm.log" 40
		fi
		for t in $tests; do
			line=$(printf '%s\n' "$summary" | grep -E "^(PASS|FAIL|SKIP) +$t ")
			case $line in
			PASS*) ok "VM: $t with the DKMS modules ${line#PASS "$t" }" ;;
			SKIP*) notok "VM: $t with the DKMS modules skipped everything ${line#SKIP "$t" }" ;;
			*)
				notok "VM: $t with the DKMS modules ${line:-did not run}"
				awk -v t="$t" '/^# binary: / { on = ($3 == t) } on' "$out/vm/tests.tap" |
					grep -E '^(not ok|#)' | head -n 20 | sed 's/^/# /'
				;;
			esac
		done
	fi
else
	skip "VM boot" "the DKMS modules are not installed"
	for t in $tests; do skip "VM: $t with the DKMS modules" "no DKMS modules"; done
fi

# ------------------------------------------------------------ remove
if "$make" -C "$top" --no-print-directory dkms-remove >"$out/dkms-remove.log" 2>&1; then
	ok "make dkms-remove (dkms remove ipuxcom/$version --all)"
else
	notok "make dkms-remove"
	show "$out/dkms-remove.log"
fi
problems=
[ -z "$(dkms status -m ipuxcom 2>/dev/null)" ] || problems+="dkms status: $(dkms status -m ipuxcom)"$'\n'
[ ! -e "/var/lib/dkms/ipuxcom" ] || problems+="/var/lib/dkms/ipuxcom exists"$'\n'
[ ! -e "/usr/src/ipuxcom-$version" ] || problems+="/usr/src/ipuxcom-$version exists"$'\n'
left=$(find "/lib/modules/$kver" -name 'ipuxcom*.ko*' 2>/dev/null)
[ -z "$left" ] || problems+="left in /lib/modules/$kver: $left"$'\n'
for m in $modules; do
	! modinfo -k "$kver" -n "$m" >/dev/null 2>&1 || problems+="modinfo -k $kver still finds $m"$'\n'
done
if [ -z "$problems" ]; then
	ok "nothing of ipuxcom left in DKMS, /usr/src or /lib/modules/$kver"
	rm -f "$state"
else
	notok "leftovers after make dkms-remove"
	printf '%s' "$problems" | sed 's/^/# /'
fi
echo "# logs in $out"
[ "$nfail" -eq 0 ]
