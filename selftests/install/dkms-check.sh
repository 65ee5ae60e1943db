#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# DKMS test (make check-dkms, part of make check), as TAP. DKMS works in
# trees of its own under $B/dkms-check, never in the host's /usr/src,
# /var/lib/dkms or /lib/modules (dkms --sourcetree, --dkmstree,
# --installtree, --no-depmod, --kernelsourcedir KDIR; its module signing key
# and certificate too, which it would otherwise make in /var/lib/dkms):
#   1. `make dkms-source` into the private source tree, then dkms add and
#      build against Debian's headers of KVER (KDIR);
#   2. as root, dkms install into the private install tree (lib/modules/
#      KVER/updates/dkms/), depmod -b there, and modinfo -b resolves
#      ipuxcom, ipuxcom_sim and ipuxcom_hw to those files, built for KVER
#      (dkms install refuses to run as another user, even into a private
#      tree: then these two steps skip and the VM takes the modules dkms
#      built);
#   3. the test VM boots KVER (KIMAGE, its modules KMODDIR: scripts/
#      vm-kernel.sh) with exactly those files (not the tree's build:
#      selftests/vm/mkinitramfs.sh --modules takes their paths) and runs
#      DKMS_CHECK_TESTS;
#   4. dkms remove --all, after which nothing of ipuxcom is left in the
#      private trees, and the host's DKMS tree, /usr/src and /lib/modules
#      have nothing of ipuxcom either.
# selftests/install/host-state.sh checks, for the whole of make check, that
# the host's /boot, /lib/modules and DKMS tree end as they began.
#
# Usage: selftests/install/dkms-check.sh   (make check-dkms sets the environment)
# Environment: KVER, KDIR (its headers), KIMAGE and KMODDIR (the VM's
#   kernel and its module directory), DKMS_VERSION, B (build directory with
#   ipuxcom and tests/device/*), DKMS_CHECK_TESTS (device test names),
#   DKMS_VM_TIMEOUT (seconds for the VM, default 300), MAKE
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
make=${MAKE:-make}
B=${B:-build}
tests=${DKMS_CHECK_TESTS:-abi_test attach_test}
kver=${KVER:-}
kdir=${KDIR:-/usr/src/linux-headers-$kver}
kimage=${KIMAGE:-}
kmoddir=${KMODDIR:-}
version=${DKMS_VERSION:-}
modules="ipuxcom ipuxcom_sim ipuxcom_hw"
out=$top/$B/dkms-check
case $B in /*) out=$B/dkms-check ;; esac
# DKMS's trees, all under $out: the sources (make dkms-source's DESTDIR),
# DKMS's own tree (added and built versions), the install tree (a
# lib/modules of its own, so that depmod -b and modinfo -b can read it)
srctree=$out/src/usr/src
dkmstree=$out/dkms
root=$out/root
insttree=$root/lib/modules
ntests=$(echo "$tests" | wc -w)
# dkms run with the private trees. Signing: sign_file, mok_signing_key and
# mok_certificate are read from /etc/dkms/framework.conf when set there,
# else from the environment; unset, dkms makes its key pair in
# /var/lib/dkms. Here they name files in the private tree (dkms makes the
# pair there: the modules are signed as a user's would be).
pdkms() {
	mok_signing_key=$dkmstree/mok.key mok_certificate=$dkmstree/mok.pub \
		dkms --sourcetree "$srctree" --dkmstree "$dkmstree" --installtree "$insttree" \
		--no-depmod "$@"
}
# pdkms_kver ACTION: dkms ACTION (build, install) of ipuxcom for KVER
# against KDIR, its output in $out/dkms-ACTION.log.
pdkms_kver() {
	pdkms "$1" -m ipuxcom -v "$version" -k "$kver" --kernelsourcedir "$kdir" >"$out/dkms-$1.log" 2>&1
}
asroot=no
[ "$(id -u)" != 0 ] || asroot=yes

n=0 nfail=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); nfail=$((nfail + 1)); echo "not ok $n $*"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
show() { [ -f "$1" ] && tail -n "${2:-30}" "$1" | sed 's/^/# /'; }

# Steps: preconditions, add, build, install, modinfo, VM, one per test,
# dkms remove, nothing left.
echo "1..$((8 + ntests))"

# ------------------------------------------------------------ preconditions
problems=
[ -n "$kver" ] || problems+="KVER is not set (run make check-dkms)"$'\n'
[ -n "$version" ] || problems+="DKMS_VERSION is not set (run make check-dkms)"$'\n'
command -v dkms >/dev/null || problems+="no dkms: apt-get install dkms (deps/packages.txt)"$'\n'
[ -z "$kver" ] || [ -e "$kdir/Makefile" ] ||
	problems+="no $kdir/Makefile: install linux-headers-$kver"$'\n'
[ -r "$kimage" ] || problems+="cannot read the VM's kernel image '$kimage' (make vm-kernel)"$'\n'
[ -r "$kmoddir/modules.dep" ] || problems+="no modules.dep in the VM's module directory '$kmoddir' (make vm-kernel)"$'\n'
for t in $tests; do
	[ -x "$B/tests/device/$t" ] || problems+="$B/tests/device/$t not built"$'\n'
done
[ -x "$B/ipuxcom" ] || problems+="$B/ipuxcom not built"$'\n'
if [ -n "$problems" ]; then
	notok "dkms-check preconditions"
	printf '%s' "$problems" | sed 's/^/# /'
	for what in "dkms add" "dkms build" "dkms install" "modinfo" "VM boot"; do
		skip "$what" "preconditions failed"
	done
	for t in $tests; do skip "VM: $t with the DKMS modules" "preconditions failed"; done
	skip "dkms remove" "preconditions failed"
	skip "nothing left" "preconditions failed"
	exit 1
fi
ok "dkms-check preconditions: dkms $(dkms --version 2>/dev/null | sed 's/^dkms-//'), headers of $kver in $kdir, the VM's kernel $kimage"

# The host's DKMS state, to show at the end that this test left it alone.
host_status() {
	dkms status -m ipuxcom 2>/dev/null
	ls -d /var/lib/dkms/ipuxcom /usr/src/ipuxcom-* 2>/dev/null
	find "/lib/modules/$kver" -name 'ipuxcom*.ko*' 2>/dev/null
}
host_before=$(host_status)

rm -rf "$out"
mkdir -p "$out" "$dkmstree" "$insttree/$kver"

# ------------------------------------------------------------ add, build
t0=$(date +%s)
"$make" -C "$top" --no-print-directory dkms-source DESTDIR="$out/src" >"$out/dkms-source.log" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && pdkms add -m ipuxcom -v "$version" >"$out/dkms-add.log" 2>&1; then
	ok "dkms add ipuxcom/$version (from $srctree/ipuxcom-$version)"
	added=yes
else
	notok "dkms add ipuxcom/$version (make dkms-source: exit status $rc)"
	show "$out/dkms-source.log" 10
	show "$out/dkms-add.log"
	added=no
fi
built=no
if [ "$added" = yes ]; then
	if pdkms_kver build; then
		built=yes
		ok "dkms build ipuxcom/$version for $kver ($(($(date +%s) - t0))s)"
	else
		notok "dkms build ipuxcom/$version for $kver"
		show "$out/dkms-build.log" 15
		echo "# --- $dkmstree/ipuxcom/$version/build/make.log"
		show "$dkmstree/ipuxcom/$version/build/make.log" 40
	fi
else
	skip "dkms build" "dkms add failed"
fi

# ------------------------------------------------------------ install
installed=no
if [ "$built" = no ]; then
	skip "dkms install" "dkms build failed"
elif [ "$asroot" = no ]; then
	skip "dkms install" "not root: dkms install needs root even into a private tree"
elif pdkms_kver install; then
	installed=yes
	ok "dkms install ipuxcom/$version for $kver into $insttree"
else
	notok "dkms install ipuxcom/$version for $kver"
	show "$out/dkms-install.log"
fi

# ------------------------------------------------------------ the modules
# Installed: what modinfo finds in the private tree after depmod; else
# (not root) the modules dkms built, in its tree.
paths=
if [ "$installed" = yes ]; then
	problems=
	depmod=$(command -v depmod || echo /sbin/depmod)
	"$depmod" -b "$root" "$kver" 2>"$out/depmod.log" || problems+="depmod -b $root $kver failed: $(head -n 3 "$out/depmod.log")"$'\n'
	for m in $modules; do
		p=$(modinfo -b "$root" -k "$kver" -n "$m" 2>/dev/null)
		case $p in
		"$insttree/$kver/updates/dkms/$m.ko"*) ;;
		*) problems+="modinfo -b $root -k $kver -n $m: '${p:-not found}', not in $insttree/$kver/updates/dkms/"$'\n' ;;
		esac
		[ -f "$p" ] || continue
		vm=$(modinfo -F vermagic "$p")
		case $vm in "$kver "*) ;; *) problems+="$p: vermagic '$vm', not $kver"$'\n' ;; esac
		paths="$paths $p"
	done
	if [ -z "$problems" ]; then
		ok "modinfo -b (private tree) -k $kver resolves $modules to updates/dkms/, vermagic $kver"
	else
		notok "the DKMS modules in $insttree/$kver"
		printf '%s' "$problems" | sed 's/^/# /'
	fi
elif [ "$built" = yes ]; then
	skip "modinfo" "dkms install skipped (not root): the VM takes the modules dkms built"
	for m in $modules; do
		p=$(find "$dkmstree/ipuxcom/$version/$kver" -path "*/module/$m.ko*" 2>/dev/null | head -n 1)
		[ -z "$p" ] || paths="$paths $p"
	done
else
	skip "modinfo" "dkms install failed"
fi

# ------------------------------------------------------------ the VM, on the DKMS modules
if [ "$(echo "$paths" | wc -w)" -eq 3 ]; then
	echo "# modules:$paths"
	test_bins=
	for t in $tests; do test_bins="$test_bins $B/tests/device/$t"; done
	vmrc=0
	selftests/vm/mkinitramfs.sh --kver "$kver" --moddir "$kmoddir" --out "$out/initramfs.cpio.gz" \
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
	skip "VM boot" "no DKMS-built modules"
	for t in $tests; do skip "VM: $t with the DKMS modules" "no DKMS modules"; done
fi

# ------------------------------------------------------------ remove
if pdkms remove -m ipuxcom -v "$version" --all >"$out/dkms-remove.log" 2>&1; then
	ok "dkms remove ipuxcom/$version --all"
else
	notok "dkms remove ipuxcom/$version --all"
	show "$out/dkms-remove.log"
fi
problems=
st=$(pdkms status -m ipuxcom 2>/dev/null)
[ -z "$st" ] || problems+="dkms status (private tree): $st"$'\n'
[ ! -e "$dkmstree/ipuxcom" ] || problems+="$dkmstree/ipuxcom exists"$'\n'
left=$(find "$insttree" -name 'ipuxcom*.ko*' 2>/dev/null)
[ -z "$left" ] || problems+="left in $insttree: $left"$'\n'
host_after=$(host_status)
[ "$host_after" = "$host_before" ] ||
	problems+="the host's DKMS state changed: before '${host_before:-nothing}', after '${host_after:-nothing}'"$'\n'
if [ -z "$problems" ]; then
	ok "nothing of ipuxcom left in the private trees; the host's DKMS tree, /usr/src and /lib/modules/$kver untouched (${host_after:-no ipuxcom there})"
else
	notok "leftovers after dkms remove"
	printf '%s' "$problems" | sed 's/^/# /'
fi
echo "# logs in $out"
[ "$nfail" -eq 0 ]
