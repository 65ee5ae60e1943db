#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Boot the ipuxcom test VM (QEMU, TCG: no KVM needed) on an initramfs made by
# selftests/vm/mkinitramfs.sh and judge the run from what selftests/vm/init
# printed on the second serial port.
#
# Usage: selftests/vm/run-vm.sh --kernel VMLINUZ|VMLINUX --initrd INITRD.cpio.gz
#            --mode check|demo|bench|shell --out DIR [--expect "t1 t2 ..."]
#            [--timeout SECONDS (300)] [--test-timeout SECONDS (120)]
#            [--mem MB (2048)] [--append "PARAMS"] [--no-pvh]
#            [--qemu BIN] [--c600]
#
# Every run gets a directory of its own, DIR.runs/YYYYmmdd-HHMMSS-PID, and
# DIR becomes a symbolic link to the newest one (so DIR/tests.tap is always
# the last run's). A failed run's directory is marked FAILED and kept (the
# 20 newest failed runs); of the runs that passed, the 3 newest are kept.
# (A DIR left as a plain directory by an older run-vm.sh is moved into
# DIR.runs/ first.)
#
#   DIR/console.log  first serial port: the kernel console
#   DIR/results.log  second serial port: the test or demo output
#   DIR/qemu.log     QEMU's own messages
#   DIR/monitor.log  what the QEMU monitor answered (see "Hot removal")
#   DIR/tests.tap    (check) every test binary's TAP under "# binary: NAME";
#                    a binary of --expect that never ran, crashed, timed out
#                    or printed fewer results than planned gets a "not ok"
#                    line, and so does the VM itself if it did not reach
#                    IPUXCOM-VM-DONE or the kernel log shows a panic, oops,
#                    BUG, WARNING, hung task or lockdep report
#   DIR/progress.log when (seconds after QEMU started) each step began:
#                    boot, every test binary (IPUXCOM-TEST-BEGIN/END), every
#                    demo or bench command ("$ ...")
#   DIR/durations.txt (check) each test binary's guest run time
#   --timeout        the whole VM run's limit; --test-timeout: each test
#                    binary's (init's ipuxcom_vm.test_timeout). Both are
#                    multiplied by a slowness factor: IPUXCOM_VM_TIMEOUT_SCALE
#                    if set, else measured on the host before the boot (a
#                    fixed sha256 job against its time on an idle 2-CPU
#                    machine of this project's kind, 1 to 6). A limit that
#                    fires says which step was running and for how long.
#   --append         extra kernel parameters (they come last, so e.g.
#                    ipuxcom_vm.test_timeout=30 there wins over --test-timeout)
#   --no-pvh         boot the bzImage as given. By default its xz payload is
#                    unpacked to a plain vmlinux that QEMU starts through its
#                    PVH entry point: TCG would spend some 6 s of a 10 s boot
#                    decompressing the kernel. Falls back to the bzImage if
#                    that is not possible.
#   --qemu BIN       run BIN instead of qemu-system-x86_64, with Debian's
#                    firmware directories (-L /usr/share/qemu
#                    -L /usr/share/seabios): the QEMU of scripts/qemu-c600.sh
#   --c600           (needs a --qemu with the ipu-c600 device) the VM is a
#                    q35 machine with an emulated Intel IOMMU (intel-iommu;
#                    the guest gets intel_iommu=on iommu.passthrough=0, so
#                    device DMA is translated) and a hot-pluggable PCIe root
#                    port rp1 holding "-device ipu-c600,id=c600a"
#                    (docs/qemu-c600.md); edu0 is on a second root port,
#                    rp2 (q35's root bus takes no hotplug), and a
#                    "device_add edu,..." or "device_add ipu-c600,..."
#                    without bus= goes to rp2 or rp1 (rp1 reserves 16 MiB
#                    of memory window, so "device_add ipu-c600,...,
#                    layout=offset" fits). Without --c600 the VM is QEMU's
#                    default pc machine, as always.
#
# The VM also has QEMU's "edu" PCI device (id edu0, 1234:11e8): a
# non-Graphcore function that no test driver binds any more (the ipu_driver
# stand-in binds the QEMU C600, --c600) and that ipuxcom_hw must leave
# alone. With --c600, edu0 is there as well (on root port rp2).
#
# Hot removal: the guest cannot reach the QEMU monitor, so this script
# watches results.log while the VM runs and, for every line
#   IPUXCOM-QEMU-MONITOR device_del ID     or
#   IPUXCOM-QEMU-MONITOR device_add DRIVER,id=ID[,PROP=VALUE...]
# a test prints (ID, DRIVER and the properties, e.g. the C600's layout=:
# letters, digits, "_,=.-" only; nothing else is passed on), sends that
# command to the monitor (HMP, through a pipe
# chardev). The test then waits for the guest to see the change. init
# exports IPUXCOM_QEMU_MONITOR=1 (kernel parameter ipuxcom_vm.monitor=1) so
# that tests know somebody listens.
#
# QEMU's exit status is never trusted: the VM powers itself off after the
# IPUXCOM-VM-DONE marker, and reboots (= exits, -no-reboot) on a panic.
# demo prints results.log, which is the demo's output.
#
# shell mode (`make vm-shell`): the first serial port, the kernel console
# with an interactive shell on it, is this terminal (QEMU's -serial
# mon:stdio: Ctrl-A X quits, Ctrl-A C switches to QEMU's monitor), and
# console.log stays empty; --timeout does not apply (the VM runs until
# the shell exits). Input may come from a pipe or here-document, which is
# how it is tested (selftests/vm/shell-check.sh).
# Exit status: 0 if everything passed, else 1 (2: bad usage).
set -euo pipefail

usage() {
	sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'
}
die() {
	echo "run-vm: $*" >&2
	exit 2
}

kernel='' initrd='' mode='' outdir='' expect='' timeout_s=300 mem=2048 extra=''
qemu=qemu-system-x86_64 qemu_fw=() c600=no
test_timeout=120
pvh=yes
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--no-pvh) pvh=no; shift; continue ;;
	--c600) c600=yes; shift; continue ;;
	--*) [ $# -ge 2 ] || die "$1 needs an argument" ;;
	esac
	case $1 in
	--kernel) kernel=$2 ;;
	--initrd) initrd=$2 ;;
	--mode) mode=$2 ;;
	--out) outdir=$2 ;;
	--expect) expect=$2 ;;
	--timeout) timeout_s=$2 ;;
	--test-timeout) test_timeout=$2 ;;
	--mem) mem=$2 ;;
	--append) extra=$2 ;;
	--qemu) qemu=$2 qemu_fw=(-L /usr/share/qemu -L /usr/share/seabios) ;;
	*) usage >&2; exit 2 ;;
	esac
	shift 2
done
[ -r "$kernel" ] || die "--kernel: cannot read '$kernel'"
[ -r "$initrd" ] || die "--initrd: cannot read '$initrd'"
case $mode in check | demo | bench | shell) ;; *) die "--mode must be check, demo, bench or shell" ;; esac
[ -n "$outdir" ] || die "--out is required"
[ -x "$(command -v "$qemu" || true)" ] || die "--qemu: cannot run '$qemu'"

case $timeout_s$test_timeout in *[!0-9]*) die "--timeout and --test-timeout take whole seconds" ;; esac
here=$(cd "$(dirname "$0")" && pwd)

# ------------------------------------------------------------------ run directory
# A fresh directory per run; DIR -> the newest. Nothing of an earlier run,
# failed or not, is ever written over.
outdir=${outdir%/}
runs=$outdir.runs
mkdir -p "$runs"
if [ -d "$outdir" ] && [ ! -L "$outdir" ]; then
	mv "$outdir" "$runs/$(date -r "$outdir" +%Y%m%d-%H%M%S)-old"
fi
rundir=$runs/$(date +%Y%m%d-%H%M%S)-$$
mkdir "$rundir"
ln -sfn "$(basename "$runs")/$(basename "$rundir")" "$outdir"
# Prune: the 3 newest runs that passed, the 20 newest that failed (a run
# still going has neither mark and is left alone).
prune() {
	local d n_ok=0 n_bad=0
	for d in $(ls -1d "$runs"/*/ 2>/dev/null | sort -r); do
		d=${d%/}
		[ "$d" != "$rundir" ] || continue
		if [ -e "$d/PASSED" ]; then
			n_ok=$((n_ok + 1))
			[ "$n_ok" -le 3 ] || rm -rf "$d"
		elif [ -e "$d/FAILED" ]; then
			n_bad=$((n_bad + 1))
			[ "$n_bad" -le 20 ] || rm -rf "$d"
		fi
	done
}
prune
outdir=$rundir
console=$outdir/console.log results=$outdir/results.log tap=$outdir/tests.tap
progress=$outdir/progress.log
tmp=$(mktemp -d)
mon_reader='' mon_watcher=''
cleanup() {
	# the monitor relay's background jobs (see "Hot removal"), if any
	[ -z "$mon_watcher" ] || kill "$mon_watcher" 2>/dev/null || true
	[ -z "$mon_reader" ] || kill "$mon_reader" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# ------------------------------------------------------------------ boot
boot_kernel=$kernel how=bzImage
if [ "$(head -c 4 "$kernel" | od -An -c | tr -d ' ')" = '177ELF' ]; then
	# already a vmlinux (the debug lane's): QEMU starts it through its
	# PVH note
	readelf -n "$kernel" 2>/dev/null | grep -q 'type: (0x00000012)' ||
		die "--kernel: $kernel is an ELF file without a PVH entry point (CONFIG_PVH)"
	how=PVH pvh=no
fi
if [ "$pvh" = yes ]; then
	# The payload is the first xz stream of the bzImage (Debian builds
	# with CONFIG_KERNEL_XZ); QEMU needs the ELF note of the PVH entry
	# point (XEN_ELFNOTE_PHYS32_ENTRY, type 0x12, CONFIG_PVH).
	off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$kernel" | head -n 1 | cut -d: -f1) || true
	if [ -n "$off" ] && tail -c +$((off + 1)) "$kernel" >"$tmp/payload.xz" &&
		xz -dc --single-stream "$tmp/payload.xz" >"$tmp/vmlinux" 2>/dev/null &&
		readelf -n "$tmp/vmlinux" 2>/dev/null | grep 'type: (0x00000012)' >/dev/null; then
		boot_kernel=$tmp/vmlinux how=PVH
	else
		echo "run-vm: cannot unpack $kernel for a PVH boot, booting it as is (slower)"
	fi
fi
# ------------------------------------------------------------------ timeouts
# How much slower than an idle machine this one is right now: a fixed
# sha256 job (0.55 s on an idle 2-CPU machine of the project's kind: its
# CPU time there, measured next to a niced kernel build), the
# median of three, as a factor of 1 to 6 (tenths).
measure_scale() {
	local _ t0 t1 ts=()
	for _ in 1 2 3; do
		t0=$(date +%s%N)
		head -c 160M /dev/zero | sha256sum >/dev/null
		t1=$(date +%s%N)
		ts+=($(((t1 - t0) / 1000000)))
	done
	# median, in ms, against the reference; tenths of a factor
	printf '%s\n' "${ts[@]}" | sort -n | sed -n 2p |
		awk '{ f = int($1 * 10 / 550 + 0.5); if (f < 10) f = 10; if (f > 60) f = 60; print f }'
}
if [ "$mode" = shell ]; then
	scale10=10	# no limit applies: nothing to scale
	scale_how="shell mode"
elif [ -n "${IPUXCOM_VM_TIMEOUT_SCALE:-}" ]; then
	scale10=$(awk -v s="$IPUXCOM_VM_TIMEOUT_SCALE" 'BEGIN { f = int(s * 10 + 0.5); print (f < 1 ? 1 : f) }')
	scale_how="IPUXCOM_VM_TIMEOUT_SCALE"
else
	scale10=$(measure_scale)
	scale_how="measured"
fi
# shell: no limit on the VM; the helpers bounded by it get a week.
[ "$mode" != shell ] || timeout_s=604800
timeout_s=$((timeout_s * scale10 / 10))
test_timeout=$((test_timeout * scale10 / 10))
scale="$((scale10 / 10)).$((scale10 % 10))"

# no_timer_check: under TCG on a loaded host the kernel's boot-time check
# that the IO-APIC timer ticks can miss its window and panic ("timer
# doesn't work through Interrupt-remapped IO-APIC", seen with the C600's
# intel-iommu at a load average of 10); the check is about real chipsets.
append="console=ttyS0 panic=-1 panic_on_warn=1 oops=panic loglevel=4 no_timer_check"
append="$append ipuxcom_vm.mode=$mode ipuxcom_vm.monitor=1 ipuxcom_vm.test_timeout=$test_timeout"
[ "$c600" = no ] || append="$append intel_iommu=on iommu.passthrough=0"
append="$append${extra:+ $extra}"

# Init's first line must come within boot_limit seconds (IPUXCOM_VM_BOOT_LIMIT,
# default 150, x the slowness factor; a debug kernel reaches it in 1.5 to
# 2.5 minutes of wall clock under load). Seen here with debug VMs booting
# side by side on a loaded host: a guest idle for 15 minutes without a
# line, its boot CPU halted in the idle loop and the second still parked
# in SeaBIOS waiting for its start-up IPI (QEMU's "info registers -a").
# Then QEMU quits and the VM boots once more; the hung boot's logs are
# kept as *.hung.
boot_limit=$((${IPUXCOM_VM_BOOT_LIMIT:-150} * scale10 / 10))

# The monitor: a pipe chardev (QEMU opens DIR.in and DIR.out read-write,
# so neither side blocks on open).
mkfifo "$tmp/mon.in" "$tmp/mon.out"
: >"$outdir/monitor.log"
# Keep the fifos open on our side too: QEMU's writes never fill a pipe
# nobody reads, and our commands never block.
exec 8<>"$tmp/mon.out" 9<>"$tmp/mon.in"
# (bounded, like QEMU: it never outlives a run that was killed)
timeout -k 5 "$((timeout_s + boot_limit + 20))" cat <&8 >>"$outdir/monitor.log" &
mon_reader=$!
# Progress: when each step began, in seconds after QEMU started, for the
# message of a timeout (DIR/progress.log; "boot" until init speaks).
progress_re='^(IPUXCOM-TEST-BEGIN |IPUXCOM-TEST-END |IPUXCOM-DEMO-RC=|IPUXCOM-VM-DONE|\$ )'
monitor_watch() {
	local handled=0 steps=0 n line cmd now
	# until QEMU is done, or this script went away without saying so
	while [ ! -e "$tmp/qemu.done" ] && kill -0 $$ 2>/dev/null; do
		sleep 0.2
		now=$((($(date +%s%N) - t0) / 1000000000))
		# a boot that never reaches init: QEMU quits, and it boots again
		if [ "$mode" != shell ] && [ "$now" -gt "$boot_limit" ] && [ ! -s "$results" ] &&
			[ ! -e "$tmp/boot.hung.$attempt" ]; then
			touch "$tmp/boot.hung.$attempt"
			printf 'quit\n' >&9
		fi
		[ -f "$results" ] || continue
		tr -d '\r' <"$results" >"$tmp/watch"
		n=$(grep -cE "$progress_re" "$tmp/watch" || true)
		if [ "$n" -gt "$steps" ]; then
			grep -E "$progress_re" "$tmp/watch" | tail -n +"$((steps + 1))" |
				head -n "$((n - steps))" | sed "s/^/$now /" >>"$progress"
			steps=$n
		fi
		n=$(grep -c '^IPUXCOM-QEMU-MONITOR ' "$tmp/watch" || true)
		[ "$n" -gt "$handled" ] || continue
		grep '^IPUXCOM-QEMU-MONITOR ' "$tmp/watch" |
			tail -n +"$((handled + 1))" | head -n "$((n - handled))" |
			while read -r _ line; do
				case $line in
				"device_del "* | "device_add "*) ;;
				*) echo "run-vm: monitor: refused '$line'" >>"$outdir/monitor.log"; continue ;;
				esac
				cmd=${line#* }
				if ! printf '%s' "$cmd" | grep -qE '^[A-Za-z0-9_,=.-]+$'; then
					echo "run-vm: monitor: refused '$line'" >>"$outdir/monitor.log"
					continue
				fi
				# --c600: a device_add without a bus goes back on its
				# root port (q35's root bus takes no hotplug)
				if [ "$c600" = yes ] && [ "${line#device_add }" != "$line" ]; then
					case $cmd in
					*bus=*) ;;
					edu,*) line="$line,bus=rp2" ;;
					ipu-c600,*) line="$line,bus=rp1" ;;
					esac
				fi
				echo "run-vm: monitor: $line" >>"$outdir/monitor.log"
				printf '%s\n' "$line" >&9
			done
		handled=$n
	done
}
boot_once() {
	# (t0 before the watcher starts: it stamps the steps)
	echo "0 boot" >"$progress"
	t0=$(date +%s%N)
	monitor_watch &
	mon_watcher=$!
	echo "run-vm: booting $kernel ($how, $mode mode, TCG, timeout ${timeout_s}s, each test ${test_timeout}s: slowness factor $scale, $scale_how)"
	echo "run-vm: logs in $outdir"
	qrc=0
	qemu_args=("${qemu_fw[@]}" -accel tcg -m "$mem" -smp 2
		-nodefaults -display none -no-reboot
		-kernel "$boot_kernel" -initrd "$initrd" -append "$append")
	if [ "$c600" = yes ]; then
		# The IOMMU first: it must exist before the devices it translates
		# for. q35's root bus takes no hotplug: every device a test may
		# device_del sits on a root port of its own (ACPI PCI hotplug).
		# rp1's memory window: 16 MiB reserved (the firmware sizes it
		# for the card present at boot), so that a card added later in
		# a layout with larger BARs (layout=offset: 2 + 4 MiB) fits.
		qemu_args+=(-machine q35 -device intel-iommu
			-device pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1,mem-reserve=16M
			-device ipu-c600,id=c600a,bus=rp1
			-device pcie-root-port,id=rp2,bus=pcie.0,chassis=2,slot=2
			-device edu,id=edu0,bus=rp2)
	else
		qemu_args+=(-device edu,id=edu0)
	fi
	qemu_args+=(-chardev pipe,id=mon0,path="$tmp/mon" -mon chardev=mon0,mode=readline)
	if [ "$mode" = shell ]; then
		# The console is this terminal; no time limit (the watcher's and the
		# monitor reader's are bounded by a week instead).
		: >"$console"
		echo "run-vm: shell on this terminal: 'exit' powers the VM off, Ctrl-A X quits QEMU"
		"$qemu" "${qemu_args[@]}" -serial mon:stdio -serial "file:$results" \
			2>"$outdir/qemu.log" || qrc=$?
	else
		timeout -k 10 "$timeout_s" "$qemu" "${qemu_args[@]}" \
			-serial "file:$console" -serial "file:$results" \
			</dev/null >"$outdir/qemu.log" 2>&1 || qrc=$?
	fi
	touch "$tmp/qemu.done"
	wait "$mon_watcher" 2>/dev/null || true
	mon_watcher=''
}
attempt=1
boot_once
if [ -e "$tmp/boot.hung.1" ] && [ ! -s "$results" ]; then
	echo "run-vm: init printed nothing within ${boot_limit}s: the boot hung; booting once more"
	for f in "$console" "$results" "$progress"; do mv "$f" "$f.hung"; done
	rm -f "$tmp/qemu.done"
	attempt=2
	boot_once
fi
kill "$mon_reader" 2>/dev/null || true
wait "$mon_reader" 2>/dev/null || true
mon_reader=''
exec 8<&- 9>&-
t1=$(date +%s%N)
wall=$(((t1 - t0) / 1000000))
wall="$((wall / 1000)).$(printf '%03d' $((wall % 1000)))"

# The kernel console writes "\r\n": parse "\r"-free copies, keep the logs.
touch "$console" "$results"
tr -d '\r' <"$results" >"$tmp/results"
tr -d '\r' <"$console" >"$tmp/console"

# ------------------------------------------------------------------ VM-level problems
problems=()
if grep -qx 'IPUXCOM-VM-DONE' "$tmp/results"; then
	up=$(sed -n 's/^IPUXCOM-VM-UPTIME //p' "$tmp/results" | tail -n 1)
	echo "run-vm: boot to IPUXCOM-VM-DONE: ${wall}s wall clock (guest uptime ${up:-?}s)"
	# The results are complete; only the power-off hung.
	[ "$qrc" -ne 124 ] || echo "run-vm: warning: the VM did not power off, killed after ${timeout_s}s"
elif [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	# Which step ran out of time: the last one progress.log saw begin.
	last=$(tail -n 1 "$progress")
	since=${last%% *} step=${last#* }
	waited=$(((t1 - t0) / 1000000000 - since))
	case $step in
	boot)
		if [ -s "$tmp/results" ]; then
			step="init (before the first test)"
		elif [ -s "$tmp/console" ]; then
			step="boot (kernel started, init never printed; last console line: $(tail -n 1 "$tmp/console" | cut -c1-120))"
		else
			step="boot (no console output at all)"
		fi ;;
	"IPUXCOM-TEST-BEGIN "*) step="test binary ${step#IPUXCOM-TEST-BEGIN }" ;;
	"IPUXCOM-TEST-END "*) step="init, after test binary $(echo "$step" | cut -d' ' -f2)" ;;
	"\$ "*) step="$mode command '${step#\$ }'" ;;
	esac
	problems+=("timeout: the VM was killed after ${timeout_s}s (--timeout x $scale): step: $step, running for ${waited}s")
elif [ -e "$tmp/boot.hung.2" ] && [ ! -s "$tmp/results" ]; then
	problems+=("boot hung twice: init printed nothing within ${boot_limit}s (first boot's logs: *.hung)")
else
	problems+=("no IPUXCOM-VM-DONE marker: the VM stopped after ${wall}s (QEMU exit status $qrc)")
fi
bad_re='Kernel panic|BUG:|WARNING:|Oops|general protection fault|Call Trace|blocked for more than|possible circular locking|inconsistent lock state|suspicious RCU usage'
if grep -qE "$bad_re" "$tmp/console"; then
	first=$(grep -m 1 -E "$bad_re" "$tmp/console")
	problems+=("kernel log: $first")
	echo "run-vm: the kernel log shows trouble:"
	grep -m 20 -nE "$bad_re" "$tmp/console" | sed 's/^/  console.log:/'
fi
if grep -q '^IPUXCOM-MODPROBE-FAILED' "$tmp/results"; then
	problems+=("$(grep -m1 '^IPUXCOM-MODPROBE-FAILED' "$tmp/results")")
fi

failed=0
[ ${#problems[@]} -eq 0 ] || failed=1

# ------------------------------------------------------------------ check: TAP
if [ "$mode" = check ]; then
	# Split results.log into blocks/NAME.out (+ NAME.rc once it ended);
	# blocks/order lists the names as they began.
	mkdir "$tmp/blocks"
	awk -v dir="$tmp/blocks" '
		/^IPUXCOM-TEST-BEGIN / { name = $2; file = dir "/" name ".out"
			printf "" > file; print name > (dir "/order"); next }
		name != "" && /^IPUXCOM-TEST-END / { sub(/^rc=/, "", $3)
			print $3 > (dir "/" name ".rc"); close(file); name = ""; next }
		name != "" { print > file }
	' "$tmp/results"
	touch "$tmp/blocks/order"
	# Binaries that ran, in order, then expected ones that did not.
	names=$(cat "$tmp/blocks/order")
	for e in $expect; do
		grep -qxF "$e" "$tmp/blocks/order" || names="$names $e"
	done
	: >"$tap"
	for name in $names; do
		out=$tmp/blocks/$name.out
		if [ -f "$tmp/blocks/$name.rc" ]; then
			status=$(cat "$tmp/blocks/$name.rc")
		elif [ -f "$out" ]; then
			status=noend
		else
			status=missing out=/dev/null
		fi
		verdict=$("$here/../tap-verdict.sh" "$name" "$status" "$out") || true
		{
			echo "# binary: $name"
			cat "$out"
			[ -z "$verdict" ] || echo "$verdict"
		} >>"$tap"
	done
	# The VM as a whole, so that the summary counts what went wrong
	# outside any test binary.
	if [ ${#problems[@]} -gt 0 ]; then
		echo "# binary: vm"
		n=0
		for p in "${problems[@]}"; do
			n=$((n + 1))
			echo "not ok $n vm # $p"
		done
	fi >>"$tap"
	# time=SECONDS on the END markers (init): DIR/durations.txt
	sed -n 's/^IPUXCOM-TEST-END \([^ ]*\) rc=[0-9]* time=\([0-9.]*\)s$/\2 \1/p' "$tmp/results" \
		>"$outdir/durations.txt"
	if [ -s "$outdir/durations.txt" ]; then
		echo "run-vm: slowest test binaries (guest seconds):" \
			"$(sort -rn "$outdir/durations.txt" | head -n 5 | awk '{ printf "%s %ss, ", $2, $1 }' | sed 's/, $//')"
	fi
	echo "run-vm: TAP in $tap"
	"$here/../tap-summary.sh" "$tap" || failed=1
fi

# ------------------------------------------------------------------ demo
# bench mode runs the VM's /bench programs and is judged like the demo.
if [ "$mode" = demo ] || [ "$mode" = bench ]; then
	cat "$tmp/results"
	if ! grep -qx 'IPUXCOM-DEMO-RC=0' "$tmp/results"; then
		problems+=("demo: no IPUXCOM-DEMO-RC=0")
		failed=1
	fi
fi

if [ "$failed" -ne 0 ]; then
	for p in "${problems[@]}"; do
		echo "run-vm: FAIL: $p"
	done
	# Each failed test case's own output (its "#  RUN" line to its
	# "not ok"), which a tail of the whole log may not reach: CI keeps
	# only what is printed here. Long blocks keep their first 40 and
	# last 80 lines.
	if [ "$mode" = check ] && [ -s "$results" ]; then
		tr -d '\r' <"$results" | awk '
			/^#  RUN / { n = 0 }
			{ buf[++n] = $0 }
			/^not ok [0-9]+ / {
				print "----- output of the failed test case: " $0
				for (i = 1; i <= n; i++)
					if (n <= 120 || i <= 40 || i > n - 80)
						print buf[i]
					else if (i == 41)
						print "[... " n - 120 " lines ...]"
				n = 0
			}'
	fi
	for f in "$console" "$results" "$outdir/qemu.log"; do
		[ -s "$f" ] || continue
		# The demo already printed all of results.log.
		[ "$mode" = check ] || [ "$f" != "$results" ] || continue
		echo "----- last 80 lines of $f"
		tail -n 80 "$f" | tr -d '\r'
	done
	echo "----- end of logs"
	date >"$outdir/FAILED"
	printf '%s\n' "${problems[@]}" >>"$outdir/FAILED"
	echo "run-vm: FAILED (logs kept in $outdir)"
	exit 1
fi
date >"$outdir/PASSED"
echo "run-vm: $mode passed"
