#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# TAP test of `make vm-shell` (selftests/vm/run-vm.sh --mode shell): boot
# the test VM with its shell on a pipe instead of a terminal, wait for the
# prompt, type `ipuxcom dev` and `exit`, and check that the shell came up,
# listed the simulated devices and that the VM powered off.
#
# Typing waits for the prompt: bytes sent to the serial port before the
# shell opens it are lost when the driver resets the UART's FIFO.
#
# Environment: KIMAGE (the kernel), INITRD (default $B/vm/initramfs.cpio.gz),
# B (build directory, default build), SHELL_CHECK_WAIT (seconds to wait for
# the prompt, default 240).
set -uo pipefail

B=${B:-build}
initrd=${INITRD:-$B/vm/initramfs.cpio.gz}
wait_s=${SHELL_CHECK_WAIT:-240}
here=$(cd "$(dirname "$0")" && pwd)

echo "TAP version 13"
echo "1..3"
if [ ! -r "${KIMAGE:-}" ] || [ ! -r "$initrd" ]; then
	for n in 1 2 3; do
		echo "ok $n vm-shell # SKIP no kernel (KIMAGE='${KIMAGE:-}') or no initramfs ($initrd)"
	done
	exit 0
fi

tmp=$(mktemp -d)
vm=''
cleanup() {
	[ -z "$vm" ] || kill "$vm" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
mkfifo "$tmp/in"
# Held open read-write here, so QEMU never sees end-of-file before we are done.
exec 3<>"$tmp/in"
"$here/run-vm.sh" --kernel "$KIMAGE" --initrd "$initrd" --mode shell \
	--out "$B/results/vm-shell-check" <"$tmp/in" >"$tmp/out" 2>&1 &
vm=$!

prompt=no
for _ in $(seq $((wait_s * 2))); do
	if grep -q 'ipuxcom-vm# ' "$tmp/out"; then
		prompt=yes
		break
	fi
	kill -0 "$vm" 2>/dev/null || break
	sleep 0.5
done
if [ "$prompt" = yes ]; then
	echo "ok 1 vm-shell: the shell's prompt on the console"
	printf 'ipuxcom dev\nexit\n' >&3
else
	echo "not ok 1 vm-shell: no prompt within ${wait_s}s"
	kill "$vm" 2>/dev/null
fi
# The VM powers off after the shell exits; bounded all the same.
for _ in $(seq 240); do
	kill -0 "$vm" 2>/dev/null || break
	sleep 0.5
done
kill "$vm" 2>/dev/null && echo "# the VM did not power off: killed"
wait "$vm"
rc=$?
vm=''
exec 3>&-
# Two simulated devices (their ids are the module's to choose).
if grep -qE '^dev [0-9]+: backend sim state idle' "$tmp/out" &&
	[ "$(grep -cE '^dev [0-9]+: backend sim ' "$tmp/out")" -ge 2 ]; then
	echo "ok 2 vm-shell: ipuxcom dev lists the simulated devices"
else
	echo "not ok 2 vm-shell: ipuxcom dev did not list two devices of backend sim"
fi
if [ "$rc" -eq 0 ] && grep -q 'run-vm: shell passed' "$tmp/out"; then
	echo "ok 3 vm-shell: 'exit' powered the VM off (run-vm.sh exit status 0)"
else
	echo "not ok 3 vm-shell: run-vm.sh exit status $rc"
fi
sed 's/^/# /' "$tmp/out" | tr -d '\r'
