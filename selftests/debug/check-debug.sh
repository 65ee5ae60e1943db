#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `make check-debug`: the device tests on a debug kernel (issue 14, part 4).
#   1. scripts/debug-kernel.sh: Debian's linux-source-6.1 with KASAN,
#      lockdep, kmemleak, fault injection, ... (built once, cached outside
#      the work tree)
#   2. the ipuxcom modules and the stand-in, built against that tree from a
#      copy of their sources in $B/debug/src (the work tree's own .ko files,
#      built for the Debian kernel, stay as they are)
#   3. an initramfs with them, every device test (the fuzzer, failnth_test
#      and loadreset_test included) and selftests/debug/kernel_health.sh last
#   4. the VM on that kernel, with kasan.fault=panic and a large log buffer;
#      results in $B/results/debug (run-vm.sh: one directory per run)
#
# Environment (the Makefile sets them): B, DEVICE_TESTS (names),
# DEVICE_TEST_BINS, TOOL_BINS, VM_KMODS (in-tree modules the tests load
# themselves: mkinitramfs.sh --kmods; the debug kernel may lack them);
# DEBUG_VM_TIMEOUT (whole VM run) and DEBUG_TEST_TIMEOUT (each test
# binary; defaults from the amounts below), both scaled by run-vm.sh's
# slowness factor; DEBUG_HARNESS_SCALE (default 10):
# each kselftest case's own limit (30 s by default) is multiplied by it
# (the tests run 5 to 20 times slower under KASAN in TCG);
# DEBUG_SOAK_ITERATIONS (default 5): loadreset_test's measured rounds;
# DEBUG_FUZZ_IOCTLS (default 10^6), DEBUG_FUZZ_SECONDS (30),
# DEBUG_FUZZ_TIMEOUT: the fuzzer's amounts; DEBUG_FAILNTH_BUDGET (seconds,
# default 0: none), DEBUG_FAILNTH_EVERY (0: the first command of each
# kind, 1: every command), DEBUG_FAILNTH_DENSE (64): failnth_test's.
# Exit status: 0 if everything passed.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
B=${B:-build}
res=$B/results/debug
mkdir -p "$B/debug" "$B/results"
t_start=$(date +%s)

# ---- 1. the kernel
echo "check-debug: the debug kernel (scripts/debug-kernel.sh)"
scripts/debug-kernel.sh | tee "$B/debug/kernel.log"
vars=$(tail -n 1 "$B/debug/kernel.log")
case $vars in KDIR=*) ;; *) echo "check-debug: no debug kernel" >&2; exit 1 ;; esac
eval "$vars"
t_kernel=$(date +%s)

# ---- 2. the modules against it
src=$top/$B/debug/src
rm -rf "$src"
mkdir -p "$src"
# The sources only, never the tree's build products: .ci/run runs this
# lane while make check's kbuild may be rewriting them in the tree.
find Kbuild kmod sim uapi selftests/kmod -type f \( \( -name '*.[ch]' ! -name '*.mod.c' \) \
	-o -name Kbuild -o -name Makefile \) -print0 | xargs -0 cp --parents -t "$src"/
echo "check-debug: building the modules against $KDIR"
make -s -C "$KDIR" M="$src" modules
make -s -C "$KDIR" M="$src/selftests/kmod" KBUILD_EXTRA_SYMBOLS="$src/Module.symvers" modules
for m in ipuxcom ipuxcom_sim ipuxcom_hw; do
	vm=$(modinfo -F vermagic "$src/$m.ko")
	case $vm in "$KVER "*) ;; *) echo "check-debug: $m.ko: vermagic '$vm', not $KVER" >&2; exit 1 ;; esac
done

# ---- 3. what the VMs run, and the initramfs, one per shard
# By default the full amounts (issue 22): 10^6 fuzzed ioctls in all
# (DEBUG_FUZZ_IOCTLS=N is single_thread_sim's; unprivileged runs N/4, and
# the 32-bit binary a quarter of both: 1.5625 N, plus 30 s concurrent and,
# with a C600, standin_card's N/4; the sum is printed at the end) and
# failnth_test's sweep of
# the first command of each kind in its sequence (DEBUG_FAILNTH_EVERY=1:
# every command), each N until the command runs through (strided past
# DEBUG_FAILNTH_DENSE points), no budget (DEBUG_FAILNTH_BUDGET=0). That
# is hours under KASAN in TCG; .ci/run runs a bounded share (20000
# ioctls, the sweep for 300 s). loadreset_test runs 5
# measured rounds (DEBUG_SOAK_ITERATIONS; 12.7 s each here): its 100-round
# growth check is the normal lane's, kmemleak's final scan this lane's.
fuzz_ioctls=${DEBUG_FUZZ_IOCTLS:-640000}
failnth_budget=${DEBUG_FAILNTH_BUDGET:-0}
# the fuzzer's limit: 20 min, plus its ioctls at 100 a second (173 on an
# idle host; 120 beside a second VM and two builds, where 250 a second
# killed it at 450000 of its 640000, 2026-12-02)
fuzz_timeout=${DEBUG_FUZZ_TIMEOUT:-$((1200 + fuzz_ioctls / 100))}
# each binary's: 15 min, or 10 h for an unbudgeted sweep
if [ "$failnth_budget" = 0 ]; then test_timeout=${DEBUG_TEST_TIMEOUT:-36000}
else test_timeout=${DEBUG_TEST_TIMEOUT:-$((900 + failnth_budget))}; fi
vm_timeout=${DEBUG_VM_TIMEOUT:-$((2700 + fuzz_timeout + (failnth_budget ? failnth_budget : test_timeout)))}
# DEBUG_SHARDS=N (default 1) splits the tests over N VMs run side by side
# (.ci/run: 2; a debug VM keeps about one CPU busy, so beside make check's
# VM and after it the second CPU would idle). Tests go to the shard with
# the least work so far, heaviest first, by the seconds they took here
# (weights below; 30 for the others), each shard ending in kernel_health.
shards=${DEBUG_SHARDS:-1}
weight() {
	case $1 in
	# unbudgeted: 2756 s for the first command of each kind (2026-12-02),
	# hours for every command
	failnth_test)
		# budgeted: the load sweep's budget, then the netlink, close and
		# removal sweeps and the other requests (~500 s beside make check)
		if [ "$failnth_budget" -gt 0 ]; then echo $((failnth_budget + 450))
		elif [ "${DEBUG_FAILNTH_EVERY:-0}" = 0 ]; then echo 2800
		else echo 36000; fi ;;
	# single_thread_sim's 173 ioctls/s, the 32-bit binary's 291 on a
	# quarter; the fixed part measured at CI's 20000 (297 s and 101 s)
	zz_ioctl_fuzz_test) echo $((180 + fuzz_ioctls / 170)) ;;
	zz_ioctl_fuzz_test_compat32) echo $((80 + fuzz_ioctls / 1160)) ;;
	# 5 rounds of 12.7 s (DEBUG_SOAK_ITERATIONS) and the set-up
	loadreset_test) echo $((50 + 13 * ${DEBUG_SOAK_ITERATIONS:-5})) ;;
	# the others as measured in CI's warm run of 2026-12-06 (guest seconds)
	hwseq_test | hoststage_test) echo 210 ;;
	load_test | devinit_test) echo 180 ;;
	events_test) echo 160 ;;
	hostx_test) echo 105 ;;
	stall_test) echo 95 ;;
	load_readback_test) echo 45 ;;
	*) echo 30 ;;
	esac
}
declare -a shard_tests shard_bins shard_load
for ((i = 0; i < shards; i++)); do shard_tests[i]='' shard_bins[i]='' shard_load[i]=0; done
# the tests, heaviest first, with their binaries
read -r -a names <<<"$DEVICE_TESTS"
read -r -a bins <<<"$DEVICE_TEST_BINS"
[ "${#names[@]}" -eq "${#bins[@]}" ] || { echo "check-debug: DEVICE_TESTS and DEVICE_TEST_BINS differ in length" >&2; exit 1; }
order=$(for ((k = 0; k < ${#names[@]}; k++)); do echo "$(weight "${names[k]}") $k"; done | sort -k1,1nr -k2,2n)
while read -r w k; do
	best=0
	for ((i = 1; i < shards; i++)); do
		[ "${shard_load[i]}" -ge "${shard_load[best]}" ] || best=$i
	done
	shard_tests[best]="${shard_tests[best]} ${names[k]}"
	shard_bins[best]="${shard_bins[best]} ${bins[k]}"
	shard_load[best]=$((shard_load[best] + w))
done <<<"$order"
for ((i = 0; i < shards; i++)); do
	selftests/vm/mkinitramfs.sh --kver "$KVER" --moddir "$KMODDIR" --out "$B/debug/initramfs.$i.cpio.gz" \
		--modules "$src/ipuxcom.ko $src/ipuxcom_sim.ko $src/ipuxcom_hw.ko $src/selftests/kmod/ipu_standin.ko" \
		--kmods "${VM_KMODS:-}" \
		--tool "$TOOL_BINS" --tests "${shard_bins[i]# }" --final selftests/debug/kernel_health.sh
done
t_build=$(date +%s)

# ---- 4. the VMs
run_shard() {
	selftests/vm/run-vm.sh --kernel "$KIMAGE" --initrd "$B/debug/initramfs.$1.cpio.gz" \
		--mode check --expect "${shard_tests[$1]# } kernel_health" --out "$2" --mem 3072 --no-pvh \
		--timeout "$vm_timeout" --test-timeout "$test_timeout" \
		--append "kasan.fault=panic log_buf_len=8M ipuxcom_vm.harness_scale=${DEBUG_HARNESS_SCALE:-10} ipuxcom_vm.fuzz_ioctls=$fuzz_ioctls ipuxcom_vm.fuzz_seconds=${DEBUG_FUZZ_SECONDS:-30} ipuxcom_vm.fuzz_timeout=$fuzz_timeout ipuxcom_vm.soak_iterations=${DEBUG_SOAK_ITERATIONS:-5} ipuxcom_vm.failnth_budget=$failnth_budget ipuxcom_vm.failnth_every=${DEBUG_FAILNTH_EVERY:-0} ipuxcom_vm.failnth_dense=${DEBUG_FAILNTH_DENSE:-64}"
}
rc=0
if [ "$shards" -eq 1 ]; then
	run_shard 0 "$res" || rc=$?
else
	# each shard's run in $res-shardN; $res gets their TAP files, joined
	# Each shard boots once the one before it has reached init (or 10 min
	# passed): debug VMs booting side by side on a loaded host have hung
	# in early boot (their second vCPU never started; run-vm.sh's watchdog
	# boots such a VM again, at a cost of minutes).
	declare -a pids
	for ((i = 0; i < shards; i++)); do
		if [ "$i" -gt 0 ]; then
			for ((w = 0; w < 300; w++)); do
				[ "$res-shard$((i - 1))/results.log" -nt "$B/debug/shard$((i - 1)).start" ] &&
					[ -s "$res-shard$((i - 1))/results.log" ] && break
				sleep 2
			done
		fi
		echo "check-debug: shard $i (about ${shard_load[i]} s):${shard_tests[i]}"
		touch "$B/debug/shard$i.start"
		sleep 1
		run_shard "$i" "$res-shard$i" > "$B/debug/shard$i.log" 2>&1 &
		pids[i]=$!
	done
	for ((i = 0; i < shards; i++)); do
		src_rc=0
		wait "${pids[i]}" || src_rc=$?
		sed "s/^/shard $i: /" "$B/debug/shard$i.log"
		[ "$src_rc" -eq 0 ] || rc=$src_rc
	done
	joined=$B/results/debug.runs/$(date +%Y%m%d-%H%M%S)-$$-shards
	mkdir -p "$joined"
	for ((i = 0; i < shards; i++)); do
		cat "$res-shard$i/tests.tap" >>"$joined/tests.tap" 2>/dev/null ||
			printf '# binary: debug-shard%d\nnot ok 1 - shard %d wrote no tests.tap\n' "$i" "$i" >>"$joined/tests.tap"
		echo "shard $i: $(readlink -f "$res-shard$i")" >>"$joined/shards"
	done
	[ ! -d "$res" ] || [ -L "$res" ] || mv "$res" "$joined/old"
	ln -sfn "$(readlink -f "$joined")" "$res"
fi
t_end=$(date +%s)
# every fuzz run's own count (fz_report's "# <run>: N ioctls (" lines)
fuzzed=$(sed -n 's/^# [a-z0-9_ ]*: \([0-9]*\) ioctls (.*/\1/p' "$res/tests.tap" 2>/dev/null |
	awk '{ n += $1; k++ } END { printf "%d in %d runs", n, k }')
echo "check-debug: fuzzed ioctls: $fuzzed"
echo "check-debug: kernel $((t_kernel - t_start))s (built in $(cat "$(dirname "$KDIR")/build-seconds" 2>/dev/null || echo '?')s when it was built)," \
	"modules + initramfs $((t_build - t_kernel))s, VM(s) $((t_end - t_build))s ($shards shard(s)); total $((t_end - t_start))s"
exit "$rc"
