#!/bin/bash
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
# DEVICE_TEST_BINS, TOOL_BINS; DEBUG_VM_TIMEOUT (whole VM run, default
# 2700 s) and DEBUG_TEST_TIMEOUT (each test binary, default 900 s), both
# scaled by run-vm.sh's slowness factor; DEBUG_HARNESS_SCALE (default 10):
# each kselftest case's own limit (30 s by default) is multiplied by it
# (the tests run 5 to 20 times slower under KASAN in TCG);
# DEBUG_SOAK_ITERATIONS (default 5): loadreset_test's measured rounds.
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

# ---- 3. the initramfs
selftests/vm/mkinitramfs.sh --kver "$KVER" --moddir "$KMODDIR" --out "$B/debug/initramfs.cpio.gz" \
	--modules "$src/ipuxcom.ko $src/ipuxcom_sim.ko $src/ipuxcom_hw.ko $src/selftests/kmod/ipu_standin.ko" \
	--tool "$TOOL_BINS" --tests "$DEVICE_TEST_BINS" --final selftests/debug/kernel_health.sh
t_build=$(date +%s)

# ---- 4. the VM
# The fuzzer runs a bounded amount under KASAN (20000 ioctls, 30 s
# concurrent: its normal-lane 200000 + 60 s exceed 600 s here); the normal
# lane and `make fuzz-kernel` run the large amounts. loadreset_test runs 5
# measured rounds (DEBUG_SOAK_ITERATIONS; 12.7 s each here): its 100-round
# growth check is the normal lane's, kmemleak's final scan this lane's.
rc=0
selftests/vm/run-vm.sh --kernel "$KIMAGE" --initrd "$B/debug/initramfs.cpio.gz" \
	--mode check --expect "$DEVICE_TESTS kernel_health" --out "$res" --mem 3072 --no-pvh \
	--timeout "${DEBUG_VM_TIMEOUT:-2700}" --test-timeout "${DEBUG_TEST_TIMEOUT:-900}" \
	--append "kasan.fault=panic log_buf_len=8M ipuxcom_vm.harness_scale=${DEBUG_HARNESS_SCALE:-10} ipuxcom_vm.fuzz_ioctls=${DEBUG_FUZZ_IOCTLS:-20000} ipuxcom_vm.fuzz_seconds=${DEBUG_FUZZ_SECONDS:-30} ipuxcom_vm.fuzz_timeout=${DEBUG_FUZZ_TIMEOUT:-1200} ipuxcom_vm.soak_iterations=${DEBUG_SOAK_ITERATIONS:-5}" || rc=$?
t_end=$(date +%s)
echo "check-debug: kernel $((t_kernel - t_start))s (built in $(cat "$(dirname "$KDIR")/build-seconds" 2>/dev/null || echo '?')s when it was built)," \
	"modules + initramfs $((t_build - t_kernel))s, VM $((t_end - t_build))s; total $((t_end - t_start))s"
exit "$rc"
