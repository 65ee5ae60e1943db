# SPDX-License-Identifier: GPL-2.0-only
#
# ipuxcom top-level build. `make help` lists the targets.
#
# The kernel modules are built by kbuild (see Kbuild) against KDIR, which
# defaults to the newest Debian kernel headers installed in /usr/src
# (linux-headers-amd64: scripts/find-kver.sh). The test VM boots that very
# kernel: Debian's linux-image-KVER of the headers' version, unpacked (never
# installed: the host's /boot and /lib/modules stay as they are) into a
# cache outside the work tree by `make vm-kernel` (scripts/vm-kernel.sh):
# KIMAGE its vmlinuz, KMODDIR its modules (--moddir of mkinitramfs.sh). The
# host's running kernel is not Debian's, so `uname -r` is never used.

KVER ?= $(shell scripts/find-kver.sh 2>/dev/null)
KDIR ?= /usr/src/linux-headers-$(KVER)
VM_KERNEL_DIR = $(shell scripts/vm-kernel.sh --dir $(KVER) 2>/dev/null)
KIMAGE ?= $(VM_KERNEL_DIR)/root/boot/vmlinuz-$(KVER)
KMODDIR ?= $(VM_KERNEL_DIR)/root/lib/modules/$(KVER)

B := build
CC := gcc
AR := ar
PKG_CONFIG ?= pkg-config

# The library version lives in its public header only.
LIB_VERSION := $(shell sed -n 's/^\#define IPUXCOM_LIB_VERSION[[:space:]]*"\(.*\)"/\1/p' \
	libuser/include/ipuxcom.h)
LIB_MAJOR := $(firstword $(subst ., ,$(LIB_VERSION)))

WARN := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wformat=2 \
	-Wstrict-prototypes -Wmissing-prototypes
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g $(WARN) -Iuapi -Ilibuser/include
# What libipuxcom itself links: libmnl (netlink) and libelf (tile ELFs).
DEP_CFLAGS := $(shell $(PKG_CONFIG) --cflags libmnl libelf 2>/dev/null)
DEP_LIBS := $(shell $(PKG_CONFIG) --libs libmnl libelf 2>/dev/null || echo -lmnl -lelf)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer

LIB_SRCS := $(wildcard libuser/src/*.c)
LIB_HDRS := $(wildcard libuser/include/*.h libuser/src/*.h) uapi/linux/ipuxcom.h \
	uapi/linux/ipuxcom_ipu_driver.h
SIM_SRCS := sim/c600_sim.c sim/c600_sram.c
SIM_HDRS := $(wildcard sim/*.h)
TOOL_SRCS := $(wildcard tools/*.c)
TOOL_HDRS := $(wildcard tools/*.h)

KSFT := $(B)/ksft
KSFT_HDRS := $(KSFT)/kselftest_harness.h $(KSFT)/kselftest.h
# The harness defines non-static functions and compares mixed signedness.
TEST_CFLAGS := $(BASE_CFLAGS) -Wno-missing-prototypes -Wno-sign-compare -I$(KSFT) -Isim -Ikmod -Iselftests/lib

HOST_TESTS := $(patsubst selftests/host/%.c,%,$(wildcard selftests/host/*_test.c))
# Device tests that need no library also run as 32-bit binaries, which
# exercise the module's compat_ioctl path (CONFIG_IA32_EMULATION); built
# with IXT_COMPAT32, the fuzzer leaves out its parts that need the library.
# (The harness casts pointers to intmax_t in EXPECT_*: harmless on 32 bits.)
COMPAT32_TESTS := abi_test attach_test zz_ioctl_fuzz_test
DEVICE_TESTS := $(patsubst selftests/device/%.c,%,$(wildcard selftests/device/*_test.c)) \
	$(addsuffix _compat32,$(COMPAT32_TESTS))

LIB_OBJS := $(patsubst libuser/src/%.c,$(B)/lib/%.o,$(LIB_SRCS))
LIB_PIC_OBJS := $(patsubst libuser/src/%.c,$(B)/lib/pic/%.o,$(LIB_SRCS))
LIB_SAN_OBJS := $(patsubst libuser/src/%.c,$(B)/lib/san/%.o,$(LIB_SRCS))

.PHONY: python check-python vm-python examples bench bench-vm fuzz check-fuzz fuzz-kernel all ci-build debug-build help lib tools modules standin tests host-tests device-tests initramfs \
	check check-host check-vm check-vm-c600 initramfs-c600 qemu-c600 card-tests check-debug ci-summary demo vm-shell deps sparse checkpatch kernel-doc lint clean \
	kver-check vm-kernel

all: lib tools modules examples

help:
	@echo "targets:"
	@echo "  all          library, ipuxcom command and kernel modules (default)"
	@echo "  lib          build/libipuxcom.{a,so} and libipuxcom.pc only;  tools: the ipuxcom"
	@echo "               command (and lib). Both are userspace only: no kernel headers needed"
	@echo "  modules      the kernel modules, against KDIR (needs the kernel's headers)"
	@echo "  vm-kernel    Debian's linux-image-KVER for the test VM, unpacked into a cache"
	@echo "               outside the tree (scripts/vm-kernel.sh; never installed into /boot)"
	@echo "  deps         apt-get install whatever of deps/packages.txt is missing"
	@echo "  demo         deps + build + boot the test VM and run the main job (on the QEMU C600"
	@echo "               through ipuxcom_hw when make qemu-c600 has built it, else the simulator)"
	@echo "  vm-shell     build + boot the test VM with a shell on this terminal: the modules"
	@echo "               loaded, the built tools on PATH ('exit' powers off, Ctrl-A X quits)"
	@echo "  check        deps + build + every test (host, host under ASan+UBSan, VM)"
	@echo "  check-host   host tests only;  check-vm: device tests in the VM only (and the vm-shell check)"
	@echo "  check-debug  device tests, fault-injection sweep (failnth_test), load/reset soak and"
	@echo "               kernel health (kmemleak, lockdep) in the VM on a debug kernel (KASAN,"
	@echo "               lockdep, kmemleak, fault injection) built once from linux-source-6.1"
	@echo "               and cached (scripts/debug-kernel.sh; ~25 min the first time); the"
	@echo "               full amounts (10^6 fuzzed ioctls in all, the fail-nth sweep: hours),"
	@echo "               DEBUG_SHARDS=N VMs side by side (.ci/run: 2, and CI's smaller amounts)"
	@echo "  ci-build     everything check and check-debug compile on the host (debug-build:"
	@echo "               check-debug's part); .ci/run builds them before the lanes run side by side"
	@echo "  check-vm-c600  the card tests (selftests/card/) on the QEMU C600 through ipuxcom_hw"
	@echo "               and the ipu_driver stand-in; part of check"
	@echo "  standin      selftests/kmod/ipu_standin.ko, the test VM's stand-in for ipu_driver"
	@echo "               (never installed: not in Kbuild, install or DKMS)"
	@echo "  lint         make C=1 W=1 modules and standin (sparse) + checkpatch --strict + kernel-doc"
	@echo "  qemu-c600    build (once; cached) Debian's QEMU 7.2 with the ipu-c600 test device"
	@echo "               (scripts/qemu-c600.sh, docs/qemu-c600.md); prints QEMU=path"
	@echo "  bench        build and run the benchmarks (bench/*.c, python/bench/*.py) on the host"
	@echo "  python       the Python package ipuxcom (python/) in build/python, for /usr/bin/python3"
	@echo "  check-python its pytest suite and examples/python/ with /usr/bin/python3, as TAP, with"
	@echo "               mypy --strict on the package and an offline pip install into a venv; part of check"
	@echo "  bench-vm     run the device benchmarks (full load, TDI) in the test VM"
	@echo "  fuzz         run each libFuzzer target (fuzz/*_fuzz.c) for FUZZ_SECONDS (60)"
	@echo "  check-fuzz   the same briefly (FUZZ_CHECK_SECONDS, 4), as TAP; part of check"
	@echo "  fuzz-kernel  the VM running only the ioctl fuzzer, FUZZ_KERNEL_IOCTLS (10^6) and"
	@echo "               FUZZ_KERNEL_SECONDS (600) concurrent; FUZZ_SEED=N repeats a run; with"
	@echo "               the QEMU C600 built, also on the card through ipuxcom_hw (standin_card)"
	@echo "  install      library, headers (INCLUDEDIR/ipuxcom), pkg-config file, command, man"
	@echo "               pages, the Python package (PYTHONDIR, for /usr/bin/python3),"
	@echo "               pages, docs (DOCDIR), bash completion, udev rule, modprobe.d and sysusers.d"
	@echo "               files (DESTDIR, PREFIX=$(PREFIX), LIBDIR, ...); userspace only, no kernel headers"
	@echo "  uninstall    remove what install installed (same variables)"
	@echo "  dkms-install copy the module sources to /usr/src/ipuxcom-$(DKMS_VERSION), dkms add/build/install"
	@echo "  dkms-remove  dkms remove --all, delete /usr/src/ipuxcom-$(DKMS_VERSION)"
	@echo "  check-install  make install into a temporary DESTDIR, build a program with"
	@echo "               pkg-config against it, uninstall; man pages vs --help; part of check"
	@echo "  check-dkms   dkms add/build/install for KVER in private trees (not the host's),"
	@echo "               device tests in the VM with those modules, dkms remove; part of check"
	@echo "  check-kbuild-matrix  build the modules against every Debian 12 kernel-headers"
	@echo "               version and flavour (fetched with apt-get download); not in check"
	@echo "variables: KVER=$(KVER) KDIR=$(KDIR)"
	@echo "           KIMAGE=$(KIMAGE)"

deps:
	@scripts/deps.sh

kver-check:
	@test -n "$(KVER)" || { echo "no Debian kernel with headers found: run 'make deps'" >&2; exit 1; }

vm-kernel: kver-check
	scripts/vm-kernel.sh $(KVER)

# ---------------------------------------------------------------- library
lib: $(B)/libipuxcom.a $(B)/libipuxcom.so.$(LIB_VERSION) $(B)/libipuxcom.pc

$(B)/lib/%.o: libuser/src/%.c $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(DEP_CFLAGS) -fvisibility=hidden -c $< -o $@

$(B)/lib/pic/%.o: libuser/src/%.c $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(DEP_CFLAGS) -fvisibility=hidden -fPIC -c $< -o $@

$(B)/lib/san/%.o: libuser/src/%.c $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(DEP_CFLAGS) $(SAN_FLAGS) -fvisibility=hidden -c $< -o $@

$(B)/libipuxcom.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/libipuxcom-san.a: $(LIB_SAN_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/libipuxcom.so.$(LIB_VERSION): $(LIB_PIC_OBJS) libuser/libipuxcom.map
	$(CC) -shared -Wl,-soname,libipuxcom.so.$(LIB_MAJOR) \
		-Wl,--version-script=libuser/libipuxcom.map -Wl,-z,defs \
		-o $@ $(LIB_PIC_OBJS) $(DEP_LIBS)
	ln -sf libipuxcom.so.$(LIB_VERSION) $(B)/libipuxcom.so.$(LIB_MAJOR)
	ln -sf libipuxcom.so.$(LIB_MAJOR) $(B)/libipuxcom.so

$(B)/libipuxcom.pc: libuser/libipuxcom.pc.in Makefile
	@mkdir -p $(@D)
	sed $(PC_SUBST) $< > $@

# ---------------------------------------------------------------- Python
# The Python package (python/ipuxcom, docs/python.md): CFFI in API mode
# against libuser/include, for Debian's /usr/bin/python3 (never a python3
# that comes first on PATH). The extension links the library's PIC objects
# (libipuxcom-pic.a), so it needs no libipuxcom.so at run time.
PYTHON := /usr/bin/python3
PY_SRCS := $(wildcard python/ipuxcom/*.py)
# PEP 561: the package's annotations (py.typed) and the extension's stub
PY_DATA := python/ipuxcom/py.typed python/ipuxcom/_ipuxcom.pyi
PY_PKG := $(B)/python/ipuxcom
PY_STAMP := $(PY_PKG)/.built

$(B)/libipuxcom-pic.a: $(LIB_PIC_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(PY_STAMP): $(PY_SRCS) $(PY_DATA) python/ipuxcom_build.py $(B)/libipuxcom-pic.a $(LIB_HDRS)
	@mkdir -p $(PY_PKG)
	rm -f $(PY_PKG)/*.py $(PY_PKG)/_ipuxcom*
	$(PYTHON) python/ipuxcom_build.py $(B)/python . $(B)/libipuxcom-pic.a
	cp $(PY_SRCS) $(PY_DATA) $(PY_PKG)/
	rm -f $(PY_PKG)/_ipuxcom.c $(PY_PKG)/_ipuxcom.o
	touch $@

python: $(PY_STAMP)

# ---------------------------------------------------------------- command
tools: $(B)/ipuxcom

# One object per source, linked apart: a compiler cache (ccache, as .ci/run
# uses) caches compilations, never a compile-and-link in one call.
TOOL_OBJS := $(patsubst tools/%.c,$(B)/tools/%.o,$(TOOL_SRCS))

$(B)/tools/%.o: tools/%.c $(TOOL_HDRS) $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -Itools -c -o $@ $<

$(B)/ipuxcom: $(TOOL_OBJS) $(B)/libipuxcom.a
	$(CC) $(BASE_CFLAGS) -o $@ $(TOOL_OBJS) $(B)/libipuxcom.a $(DEP_LIBS)

# ---------------------------------------------------------------- modules
modules: kver-check
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# The test stand-in for Graphcore's ipu_driver (selftests/kmod/): built
# against the same KDIR, with the ipuxcom modules' symbols; shipped only
# into the test VM's initramfs.
STANDIN_DIR := $(CURDIR)/selftests/kmod
STANDIN_KO := selftests/kmod/ipu_standin.ko
STANDIN_KBUILD = -C $(KDIR) M=$(STANDIN_DIR) KBUILD_EXTRA_SYMBOLS=$(CURDIR)/Module.symvers

standin: modules
	$(MAKE) $(STANDIN_KBUILD) modules

sparse: kver-check
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 W=1 modules
	$(MAKE) $(STANDIN_KBUILD) C=2 W=1 modules

CHECKPATCH := $(B)/checkpatch/checkpatch.pl
KERNEL_SRCS = $(wildcard kmod/*.[ch] kmod/sim/*.[ch] kmod/hw/*.[ch] sim/*.[ch]) selftests/kmod/ipu_standin.c \
	uapi/linux/ipuxcom.h uapi/linux/ipuxcom_ipu_driver.h

$(CHECKPATCH):
	scripts/extract-kernel-files.sh $(B)/checkpatch scripts/checkpatch.pl \
		scripts/spelling.txt scripts/const_structs.checkpatch

checkpatch: $(CHECKPATCH)
	$(CHECKPATCH) --strict --no-tree --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,LINUX_VERSION_CODE -f $(KERNEL_SRCS)

# kernel-doc comments (every exported symbol has one) must parse cleanly.
KERNEL_DOC := $(B)/kernel-doc/kernel-doc

$(KERNEL_DOC):
	scripts/extract-kernel-files.sh $(B)/kernel-doc scripts/kernel-doc

kernel-doc: $(KERNEL_DOC)
	perl $(KERNEL_DOC) -none -Werror $(KERNEL_SRCS)

lint: sparse checkpatch kernel-doc

# ---------------------------------------------------------------- tests
# (&: one run makes both, also under make -j)
$(KSFT_HDRS) &:
	scripts/extract-kernel-files.sh $(KSFT) \
		tools/testing/selftests/kselftest_harness.h \
		tools/testing/selftests/kselftest.h

SIM_OBJS := $(patsubst sim/%.c,$(B)/sim/%.o,$(SIM_SRCS))
SIM_SAN_OBJS := $(patsubst sim/%.c,$(B)/sim/san/%.o,$(SIM_SRCS))

$(B)/sim/%.o: sim/%.c $(SIM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -Isim -c $< -o $@

$(B)/sim/san/%.o: sim/%.c $(SIM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -Isim -c $< -o $@

# Test programs are compiled to an object under $(B)/obj/ first and then
# linked (OBJ_OF: the object of the program being made), so that a compiler
# cache can keep the compilations (it never caches a compile-and-link).
OBJ_OF = $(B)/obj/$(patsubst $(B)/%,%,$@).o

TEST_DEPS := $(KSFT_HDRS) $(LIB_HDRS) $(SIM_HDRS) $(wildcard selftests/lib/*.h bench/*.h) \
	$(wildcard kmod/*.h kmod/hw/*.h kmod/hw/user/*.h)

# Host tests: run on the build machine, plain and under ASan+UBSan.
$(B)/tests/host/%: selftests/host/%.c $(TEST_DEPS) $(B)/libipuxcom.a $(SIM_OBJS)
	@mkdir -p $(@D) $(dir $(OBJ_OF))
	$(CC) $(TEST_CFLAGS) -c -o $(OBJ_OF) $<
	$(CC) $(TEST_CFLAGS) -o $@ $(OBJ_OF) $(SIM_OBJS) $(B)/libipuxcom.a $(DEP_LIBS)

$(B)/tests/host-san/%: selftests/host/%.c $(TEST_DEPS) $(B)/libipuxcom-san.a $(SIM_SAN_OBJS)
	@mkdir -p $(@D) $(dir $(OBJ_OF))
	$(CC) $(TEST_CFLAGS) $(SAN_FLAGS) -c -o $(OBJ_OF) $<
	$(CC) $(TEST_CFLAGS) $(SAN_FLAGS) -o $@ $(OBJ_OF) $(SIM_SAN_OBJS) \
		$(B)/libipuxcom-san.a $(DEP_LIBS)

# The hardware backend's register accessors (kmod/hw/hw_regs.c, plain C
# shared with ipuxcom_hw.ko) against a fake config BAR backed by the
# simulator: explicit rules, since the test also compiles that file.
HW_REGS_SRCS := kmod/hw/hw_regs.c
HW_REGS_DEPS := $(HW_REGS_SRCS) $(wildcard kmod/hw/*.h kmod/hw/user/*.h)

$(B)/tests/host/hw_regs_test: selftests/host/hw_regs_test.c $(HW_REGS_DEPS) $(TEST_DEPS) \
		$(SIM_OBJS)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ $< $(HW_REGS_SRCS) $(SIM_OBJS)

$(B)/tests/host-san/hw_regs_test: selftests/host/hw_regs_test.c $(HW_REGS_DEPS) $(TEST_DEPS) \
		$(SIM_SAN_OBJS)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $(SAN_FLAGS) -o $@ $< $(HW_REGS_SRCS) $(SIM_SAN_OBJS)

# Device tests: run in the VM (or on a machine with a card). They link the
# static library; libmnl has no static archive in Debian, so they are
# dynamic and the initramfs builder copies their shared libraries.
# (selftests/lib/ixt_alarm.h scales the harness's per-test time limit on a
# slow kernel: IPUXCOM_TEST_TIMEOUT_SCALE, set in the debug lane's VM.)
DEVICE_TEST_CFLAGS = $(TEST_CFLAGS) -include selftests/lib/ixt_alarm.h

$(B)/tests/device/%: selftests/device/%.c $(TEST_DEPS) $(B)/libipuxcom.a
	@mkdir -p $(@D) $(dir $(OBJ_OF))
	$(CC) $(DEVICE_TEST_CFLAGS) -pthread -c -o $(OBJ_OF) $<
	$(CC) $(DEVICE_TEST_CFLAGS) -pthread -o $@ $(OBJ_OF) $(B)/libipuxcom.a $(DEP_LIBS)

$(B)/tests/device/%_compat32: selftests/device/%.c $(TEST_DEPS)
	@mkdir -p $(@D) $(dir $(OBJ_OF))
	$(CC) $(DEVICE_TEST_CFLAGS) -DIXT_COMPAT32 -Wno-pointer-to-int-cast -m32 -c -o $(OBJ_OF) $<
	$(CC) -m32 -static -pthread -o $@ $(OBJ_OF)

# Card tests (selftests/card/): the hardware path on the QEMU C600
# (docs/qemu-c600.md): ipuxcom_hw.ko and the ipu_driver stand-in, in a VM
# of their own (make check-vm-c600), never next to the simulator.
CARD_TESTS := $(patsubst selftests/card/%.c,%,$(wildcard selftests/card/*_test.c))
CARD_TEST_BINS := $(addprefix $(B)/tests/card/,$(CARD_TESTS))
# Device tests whose subject is the stand-in on the C600 (they skip in the
# simulator's VM, where there is no C600): they run in the card lane too
# (stall_test: its card cases; its simulator cases skip there).
C600_DEVICE_TESTS := standin_test ipudrv_test hw_backend_test stall_test
# Device.load()'s session on the card (python/tests/test_card.py) and the
# Python device tests under the driver's signals (python/tests/test_device.py),
# in the card VM's Python (the same tree as the simulator VM's, make vm-python).
C600_LANE_SCRIPTS := python/vm/python_card_test python/vm/python_test
C600_LANE_TESTS := $(CARD_TESTS) $(C600_DEVICE_TESTS) python_card_test python_test
C600_LANE_BINS := $(CARD_TEST_BINS) $(addprefix $(B)/tests/device/,$(C600_DEVICE_TESTS))

$(B)/tests/card/%: selftests/card/%.c $(TEST_DEPS) $(B)/libipuxcom.a
	@mkdir -p $(@D) $(dir $(OBJ_OF))
	$(CC) $(DEVICE_TEST_CFLAGS) -pthread -c -o $(OBJ_OF) $<
	$(CC) $(DEVICE_TEST_CFLAGS) -pthread -o $@ $(OBJ_OF) $(B)/libipuxcom.a $(DEP_LIBS)

HOST_TEST_BINS := $(addprefix $(B)/tests/host/,$(HOST_TESTS))
HOST_SAN_BINS := $(addprefix $(B)/tests/host-san/,$(HOST_TESTS))
DEVICE_TEST_BINS := $(addprefix $(B)/tests/device/,$(DEVICE_TESTS))

host-tests: $(HOST_TEST_BINS) $(HOST_SAN_BINS)
device-tests: $(DEVICE_TEST_BINS)
card-tests: $(CARD_TEST_BINS)
tests: host-tests device-tests card-tests

# ---------------------------------------------------------------- benchmarks
# Each bench/NAME.c is a program that measures one thing against a baseline
# measured in the same run and prints ratios; `make bench` runs them all.
BENCH_BINS := $(patsubst bench/%.c,$(B)/bench/%,$(wildcard bench/*.c))

$(B)/bench/%: bench/%.c $(wildcard bench/*.h) $(LIB_HDRS) $(B)/libipuxcom.a
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -Ibench -o $@ $< $(B)/libipuxcom.a $(DEP_LIBS)

bench: $(BENCH_BINS) python
	@for b in $(BENCH_BINS); do echo "== $$b"; $$b || exit 1; done
	@echo "== python/bench/p2p_bench.py"; PYTHONPATH=$(B)/python $(PYTHON) python/bench/p2p_bench.py

# The Python suite (python/tests, pytest; the examples in examples/python
# run from there too) as TAP: python/run-tests.sh. 28 s alone; its limit
# (900 s) leaves room for a host busy with the debug lane's VMs.
check-python: python $(B)/ipuxcom
	@mkdir -p $(B)/results
	B=$(B) PYTHON=$(PYTHON) PYTEST_ARGS=--ignore=python/tests/test_device.py \
		TEST_TIMEOUT=900 selftests/run-host-tests.sh $(B)/results/python.tap python/run-tests.sh

# ---------------------------------------------------------------- fuzzing
# libFuzzer targets (clang) for the IPUIMG1, IPUCFG1, .ipuhsp and tile-ELF
# readers: fuzz/NAME_fuzz.c, built with the library sources they exercise
# under -fsanitize=fuzzer,address,undefined. The seed corpus is generated
# (fuzz/gen_seeds.c, fuzz/seed_tile.S) so the tree holds no binaries.
# Each target runs through fuzz/fuzz-tap.sh, which reports it as TAP, under
# selftests/run-host-tests.sh: `make fuzz` for FUZZ_SECONDS each,
# `make check-fuzz` (part of `make check`) for FUZZ_CHECK_SECONDS each.
CLANG ?= clang
FUZZ_SECONDS ?= 60
FUZZ_CHECK_SECONDS ?= 4
FUZZ_NAMES := $(patsubst fuzz/%_fuzz.c,%,$(wildcard fuzz/*_fuzz.c))
FUZZ_LIB_SRCS := $(wildcard libuser/src/image*.c) libuser/src/crc32.c libuser/src/frames.c \
	libuser/src/ipucfg.c libuser/src/hsp_manifest.c libuser/src/error.c \
	libuser/src/plan_error.c libuser/src/struct_size.c
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -O1 -g $(WARN) -Iuapi -Ilibuser/include \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_BINS := $(patsubst %,$(B)/fuzz/%_fuzz,$(FUZZ_NAMES))
FUZZ_RUNNERS := $(addprefix $(B)/fuzz/run/,$(FUZZ_NAMES))

$(B)/fuzz/%_fuzz: fuzz/%_fuzz.c $(FUZZ_LIB_SRCS) $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_LIB_SRCS) $(DEP_LIBS)

# The scheduler's target takes the whole library (the schedule, the verifier, the ISA, the timing).
FUZZ_SCHED_SRCS := $(wildcard libuser/src/*.c)
$(B)/fuzz/sched_fuzz: fuzz/sched_fuzz.c $(FUZZ_SCHED_SRCS) $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_SCHED_SRCS) $(DEP_LIBS)

$(B)/fuzz/gen_seeds: fuzz/gen_seeds.c $(FUZZ_LIB_SRCS) $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -o $@ $< $(FUZZ_LIB_SRCS) $(DEP_LIBS)

$(B)/fuzz/seeds/.done: $(B)/fuzz/gen_seeds fuzz/seed_tile.S fuzz/seed_tile.ld
	rm -rf $(@D) && mkdir -p $(@D)/elf
	$(B)/fuzz/gen_seeds $(@D)
	$(CC) -c fuzz/seed_tile.S -o $(@D)/elf/tile.o
	ld -nostdlib -static -T fuzz/seed_tile.ld -o $(@D)/elf/t.elf $(@D)/elf/tile.o
	rm $(@D)/elf/tile.o
	touch $@

# One argument-free runner per target, for selftests/run-host-tests.sh.
$(B)/fuzz/run/%: $(B)/fuzz/%_fuzz $(B)/fuzz/seeds/.done fuzz/fuzz-tap.sh
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec %s %s %s %s\n' $(CURDIR)/fuzz/fuzz-tap.sh $(CURDIR)/$< \
		$(CURDIR)/$(B)/fuzz/seeds/$* $(CURDIR)/fuzz/$*.dict > $@
	chmod +x $@

fuzz: $(FUZZ_BINS) $(FUZZ_RUNNERS)
	@mkdir -p $(B)/results
	FUZZ_SECONDS=$(FUZZ_SECONDS) TEST_TIMEOUT=$$(($(FUZZ_SECONDS) + 120)) \
		selftests/run-host-tests.sh $(B)/results/fuzz-long.tap $(FUZZ_RUNNERS)

check-fuzz: $(FUZZ_BINS) $(FUZZ_RUNNERS)
	@mkdir -p $(B)/results
	FUZZ_SECONDS=$(FUZZ_CHECK_SECONDS) TEST_TIMEOUT=$$(($(FUZZ_CHECK_SECONDS) + 60)) \
		selftests/run-host-tests.sh $(B)/results/fuzz.tap $(FUZZ_RUNNERS)

# ---------------------------------------------------------------- examples
# examples/NAME.c: programs that show the library in use; the VM's demo
# runs load_demo; check-host runs plan_demo (selftests/host/examples_test.c);
# load_readback needs a device: the VM runs it (selftests/device/load_readback_test.c).
EXAMPLE_BINS := $(patsubst examples/%.c,$(B)/examples/%,$(wildcard examples/*.c))

$(B)/examples/%: examples/%.c $(LIB_HDRS) $(B)/libipuxcom.a
	@mkdir -p $(@D) $(dir $(OBJ_OF))
	$(CC) $(BASE_CFLAGS) -c -o $(OBJ_OF) $<
	$(CC) $(BASE_CFLAGS) -o $@ $(OBJ_OF) $(B)/libipuxcom.a $(DEP_LIBS)

examples: $(EXAMPLE_BINS)

# ---------------------------------------------------------------- test VM
# Benchmarks that need the device run in the VM (make bench-vm).
VM_BENCH_BINS := $(B)/bench/load_bench
VM_INPUTS := modules standin $(B)/ipuxcom $(EXAMPLE_BINS) $(DEVICE_TEST_BINS) $(VM_BENCH_BINS)
# In-tree modules of the guest kernel the device tests load themselves
# (mkinitramfs.sh --kmods): stall_test's FUSE file system.
VM_KMODS := fuse

# The Python device tests (python/tests/test_device.py) run in this VM too,
# as /tests/python_test: the image carries Debian's python3 with only the
# modules they load (python/vm/vm-files.py; docs/python.md has the cost).
VM_PYTHON := $(B)/vm/python-root
VM_PYTHON_TESTS := python_test

$(VM_PYTHON).done: $(PY_STAMP) python/vm/vm-files.py $(wildcard python/tests/*.py)
	$(PYTHON) python/vm/vm-files.py $(VM_PYTHON) . $(B)
	touch $@

vm-python: $(VM_PYTHON).done

initramfs: vm-kernel $(VM_INPUTS) $(VM_PYTHON).done
	selftests/vm/mkinitramfs.sh --kver $(KVER) --moddir $(KMODDIR) --out $(B)/vm/initramfs.cpio.gz \
		--modules "ipuxcom.ko ipuxcom_sim.ko ipuxcom_hw.ko $(STANDIN_KO)" --kmods "$(VM_KMODS)" \
		--tool "$(B)/ipuxcom $(EXAMPLE_BINS)" \
		--tests "$(DEVICE_TEST_BINS) python/vm/python_test" --bench "$(VM_BENCH_BINS)" \
		--python $(VM_PYTHON)

# (examples_test runs the examples that need no card: all are built first)
check-host: $(HOST_TEST_BINS) $(HOST_SAN_BINS) $(B)/ipuxcom $(EXAMPLE_BINS)
	@mkdir -p $(B)/results
	selftests/run-host-tests.sh $(B)/results/host.tap $(HOST_TEST_BINS) $(HOST_SAN_BINS)

# The card lane's VM: no simulator; the stand-in binds the C600 PCI device.
# Every load on the card replays the real C600 config capture, as the
# record's loads do (HW-CFG-CAPTURE, docs/hardware-record.md): a test
# vector kept next to the repository, outside the tree (never installed,
# never copied into the tree), checked
# against the seed's SHA-256 (selftests/vm/card-cfg.sh), in the image as
# /data/c600-init.ipucfg (the tests find it as $$IPUXCOM_CARD_CFG).
CARD_CFG ?= $(CURDIR)/../shared/data/c600-init.ipucfg
C600_INITRAMFS := $(B)/vm/c600-initramfs.cpio.gz
initramfs-c600: vm-kernel modules standin $(B)/ipuxcom $(EXAMPLE_BINS) $(C600_LANE_BINS) \
		$(VM_PYTHON).done
	selftests/vm/card-cfg.sh "$(CARD_CFG)"
	selftests/vm/mkinitramfs.sh --kver $(KVER) --moddir $(KMODDIR) --out $(C600_INITRAMFS) \
		--modules "ipuxcom.ko ipuxcom_sim.ko ipuxcom_hw.ko $(STANDIN_KO)" --kmods "$(VM_KMODS)" \
		--tool "$(B)/ipuxcom $(EXAMPLE_BINS)" \
		--tests "$(C600_LANE_BINS) $(C600_LANE_SCRIPTS)" \
		--data "$(CARD_CFG)" --python $(VM_PYTHON)

# The QEMU with the C600 device, built once from Debian's source and cached
# outside the tree (scripts/qemu-c600.sh; .ci/run starts it in the
# background). Its last line names the binary: QEMU=PATH.
qemu-c600:
	scripts/qemu-c600.sh

# The card tests on the QEMU C600 (a failed QEMU build leaves the TAP file
# missing, which tap-summary.sh counts as a failure). C600_MATRIX: the
# cells of c600_matrix_test (full, pairwise, or L/P/R[/T],...;
# docs/testing.md).
C600_MATRIX ?= full
check-vm-c600: initramfs-c600
	@mkdir -p $(B)/results
	@q=$$(scripts/qemu-c600.sh | sed -n 's/^QEMU=//p' | tail -n 1); \
	if [ -z "$$q" ]; then echo "check-vm-c600: the QEMU C600 did not build"; exit 1; fi; \
	selftests/vm/run-vm.sh --qemu "$$q" --c600 --kernel $(KIMAGE) --initrd $(C600_INITRAMFS) \
		--mode check --expect "$(C600_LANE_TESTS)" --out $(B)/results/vm-c600 \
		--timeout 900 --append "ipuxcom_vm.card=c600 ipuxcom_vm.matrix=$(C600_MATRIX)"

# Then the same VM once more in vm-shell's mode, its shell fed from a pipe
# (selftests/vm/shell-check.sh, ~10 s): after the tests, never next to them.
check-vm: initramfs
	@mkdir -p $(B)/results
	@rc=0; \
	selftests/vm/run-vm.sh --kernel $(KIMAGE) --initrd $(B)/vm/initramfs.cpio.gz \
		--mode check --expect "$(DEVICE_TESTS) $(VM_PYTHON_TESTS)" --out $(B)/results/vm \
		--timeout 600 $(if $(FUZZ_SEED),--append ipuxcom_vm.fuzz_seed=$(FUZZ_SEED)) || rc=1; \
	KIMAGE=$(KIMAGE) B=$(B) selftests/run-host-tests.sh $(B)/results/vm-shell.tap \
		selftests/vm/shell-check.sh || rc=1; \
	exit $$rc

# The ioctl fuzzer (selftests/device/zz_ioctl_fuzz_test.c) runs in check-vm
# with its defaults (200000 ioctls single-threaded, 60 s concurrent);
# fuzz-kernel boots a VM that runs only it, for FUZZ_KERNEL_IOCTLS and
# FUZZ_KERNEL_SECONDS. FUZZ_SEED=N repeats a run (the seed is printed as
# "# seed N"; single-threaded, the same seed gives the same sequence);
# FUZZ_TRACE=1 prints every ioctl (use a small FUZZ_KERNEL_IOCTLS).
FUZZ_KERNEL_IOCTLS ?= 1000000
FUZZ_KERNEL_SECONDS ?= 600
FUZZ_TEST_BIN := $(B)/tests/device/zz_ioctl_fuzz_test $(B)/tests/device/zz_ioctl_fuzz_test_compat32
# guest time: the ioctls at >= 2000/s under TCG, the concurrent run, slack
FUZZ_KERNEL_LIMIT = $$(( $(FUZZ_KERNEL_IOCTLS) * 5 / 4 / 2000 + $(FUZZ_KERNEL_SECONDS) + 300 ))

# With the QEMU C600 built (make qemu-c600), the VM gets the card too and
# the fuzzer's standin_card case runs on it through ipuxcom_hw; else it skips.
fuzz-kernel: vm-kernel modules standin $(FUZZ_TEST_BIN)
	selftests/vm/mkinitramfs.sh --kver $(KVER) --moddir $(KMODDIR) --out $(B)/vm/fuzz-initramfs.cpio.gz \
		--modules "ipuxcom.ko ipuxcom_sim.ko ipuxcom_hw.ko $(STANDIN_KO)" --kmods "$(VM_KMODS)" \
		--tests "$(FUZZ_TEST_BIN)"
	@mkdir -p $(B)/results
	@d=$$(scripts/qemu-c600.sh --dir 2>/dev/null || true); card=''; \
	if [ -n "$$d" ] && [ -f "$$d/.done" ]; then card="--qemu $$d/qemu-system-x86_64 --c600"; \
	else echo "fuzz-kernel: no QEMU C600 built (make qemu-c600): standin_card will skip"; fi; \
	echo selftests/vm/run-vm.sh $$card ...; \
	selftests/vm/run-vm.sh $$card --kernel $(KIMAGE) --initrd $(B)/vm/fuzz-initramfs.cpio.gz \
		--mode check --expect "zz_ioctl_fuzz_test zz_ioctl_fuzz_test_compat32" --out $(B)/results/fuzz-kernel \
		--timeout $$(( $(FUZZ_KERNEL_LIMIT) + 60 )) \
		--append "ipuxcom_vm.fuzz_ioctls=$(FUZZ_KERNEL_IOCTLS) ipuxcom_vm.fuzz_seconds=$(FUZZ_KERNEL_SECONDS) ipuxcom_vm.fuzz_timeout=$(FUZZ_KERNEL_LIMIT)$(if $(FUZZ_SEED), ipuxcom_vm.fuzz_seed=$(FUZZ_SEED))$(if $(FUZZ_TRACE), ipuxcom_vm.fuzz_trace=1)"

# What `make check-debug` compiles on the host (debug-build), and all that
# `make check` and `make check-debug` compile (ci-build): .ci/run makes
# debug-build, starts the debug lane, then makes ci-build, so that the lanes
# never build in the same files at the same time.
DEBUG_BUILD := lib tools examples device-tests
debug-build: $(DEBUG_BUILD)
ci-build: all tests python $(VM_PYTHON).done standin vm-kernel $(VM_BENCH_BINS) $(FUZZ_BINS) $(FUZZ_RUNNERS)

CHECK_TAPS := $(B)/results/host.tap $(B)/results/python.tap $(B)/results/fuzz.tap $(B)/results/install.tap \
	$(B)/results/vm/tests.tap $(B)/results/vm-shell.tap $(B)/results/dkms.tap \
	$(B)/results/vm-c600/tests.tap $(B)/results/host-state.tap
DEBUG_TAP := $(B)/results/debug/tests.tap

# make check leaves the host's /boot, /lib/modules and DKMS tree as it found
# them (only Debian packages that make deps installs add to them): a
# manifest taken first, before make deps, compared last
# (selftests/install/host-state.sh). HOST_STATE_BEFORE: a manifest taken
# earlier instead (.ci/run takes one before it installs anything).
# Each part's wall time is printed ("check: check-vm took 312 s") and, at
# the end, all of them on one line: where a slow run spent its time.
HOST_STATE_BEFORE ?=
HOST_STATE := $(or $(HOST_STATE_BEFORE),$(B)/host-state.before)
check:
	$(if $(HOST_STATE_BEFORE),,selftests/install/host-state.sh snapshot $(HOST_STATE))
	$(MAKE) deps
	$(MAKE) all tests python
	@rc=0; times=''; \
	for part in check-host check-python check-fuzz check-install check-vm check-dkms \
		check-vm-c600; do \
		t0=$$(date +%s); \
		$(MAKE) $$part || rc=1; \
		t=$$(( $$(date +%s) - t0 )); times="$$times $$part=$${t}s"; \
		echo "check: $$part took $$t s"; \
	done; \
	echo "check: parts:$$times"; \
	HOST_STATE_BEFORE=$(HOST_STATE) selftests/run-host-tests.sh $(B)/results/host-state.tap \
		selftests/install/host-state.sh || rc=1; \
	selftests/tap-summary.sh $(CHECK_TAPS) || rc=1; \
	exit $$rc

# The debug-kernel lane (selftests/debug/check-debug.sh). Not part of
# `make check`; .ci/run runs it beside check (after make ci-build), then
# `make ci-summary`.
check-debug: deps
	$(MAKE) $(DEBUG_BUILD)
	B=$(B) DEVICE_TESTS="$(DEVICE_TESTS)" DEVICE_TEST_BINS="$(DEVICE_TEST_BINS)" VM_KMODS="$(VM_KMODS)" \
	TOOL_BINS="$(B)/ipuxcom $(EXAMPLE_BINS)" selftests/debug/check-debug.sh

# Both lanes' results summed up (the last line: N passed, N failed, N skipped).
ci-summary:
	@selftests/tap-summary.sh $(CHECK_TAPS) $(DEBUG_TAP)

bench-vm: initramfs
	selftests/vm/run-vm.sh --kernel $(KIMAGE) --initrd $(B)/vm/initramfs.cpio.gz \
		--mode bench --timeout 900 --out $(B)/results/bench

# On the QEMU C600 through ipuxcom_hw.ko when that QEMU is built (make
# qemu-c600; make check builds it), else on the simulator; the demo's first
# line says which path it took.
demo: deps
	$(MAKE) all initramfs initramfs-c600
	@d=$$(scripts/qemu-c600.sh --dir 2>/dev/null || true); \
	if [ -n "$$d" ] && [ -f "$$d/.done" ]; then \
		echo "demo: the QEMU C600 is built ($$d): the card path"; \
		selftests/vm/run-vm.sh --qemu "$$d/qemu-system-x86_64" --c600 --kernel $(KIMAGE) \
			--initrd $(C600_INITRAMFS) --mode demo --out $(B)/results/demo \
			--append ipuxcom_vm.card=c600; \
	else \
		echo "demo: no QEMU C600 built (make qemu-c600): the simulator path"; \
		selftests/vm/run-vm.sh --kernel $(KIMAGE) --initrd $(B)/vm/initramfs.cpio.gz \
			--mode demo --out $(B)/results/demo; \
	fi

# The demo's VM, interactive: a shell on this terminal (serial console).
vm-shell: initramfs
	selftests/vm/run-vm.sh --kernel $(KIMAGE) --initrd $(B)/vm/initramfs.cpio.gz \
		--mode shell --out $(B)/results/vm-shell

# A guest-side peek/poke of the device's BARs through sysfs (static: put it
# in an initramfs with mkinitramfs.sh --tool).
$(B)/qemu/c600_peek: selftests/qemu/c600_peek.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -static -o $@ $<

clean:
	rm -rf $(B)
	-test -d "$(KDIR)" && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	-test -d "$(KDIR)" && $(MAKE) -C $(KDIR) M=$(STANDIN_DIR) clean

# ---------------------------------------------------------------- install
# `make install` / `make uninstall`, for a user (PREFIX=/usr/local) or a
# packager (DESTDIR=/tmp/stage PREFIX=/usr). The udev rule, modprobe.d and
# sysusers.d files go to the system's directories whatever PREFIX is (udev,
# modprobe and systemd-sysusers read no other place); override UDEVRULESDIR,
# MODPROBEDIR, SYSUSERSDIR if needed. With an empty DESTDIR and as root,
# install also creates the group "ipuxcom" and runs ldconfig. The kernel
# modules are installed with DKMS (`make dkms-install`, below).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
# bash-completion loads completions/NAME on first use of NAME.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
DOCDIR ?= $(PREFIX)/share/doc/ipuxcom
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
UDEVRULESDIR ?= /lib/udev/rules.d
MODPROBEDIR ?= /etc/modprobe.d
SYSUSERSDIR ?= /usr/lib/sysusers.d
INSTALL ?= install

PUBLIC_HDRS = $(wildcard libuser/include/*.h)
# The Python package, for Debian's python3: its dist-packages directory for
# PREFIX=/usr, else PREFIX/lib/python3.N/dist-packages, which Debian's
# python3 searches for PREFIX=/usr/local.
PY_VERSION = $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
PY_EXT = $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
PYTHONDIR ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/python3/dist-packages,$(PREFIX)/lib/python$(PY_VERSION)/dist-packages)
PY_INSTALL = $(notdir $(PY_SRCS) $(PY_DATA)) _ipuxcom$(PY_EXT)
# Our headers in a directory of their own (libipuxcom.pc points -I at it),
# the uapi header beside them as <linux/ipuxcom.h> for ipuxcom.h to find.
PKG_INCLUDEDIR = $(INCLUDEDIR)/ipuxcom
# The documents the command's --help texts and the man pages refer to.
DOCS := $(wildcard docs/*.md)
MAN_PAGES := man/ipuxcom.8 man/libipuxcom.3

# libipuxcom.pc: paths under PREFIX are written relative to ${prefix}, so
# that the file stays right for any PREFIX/LIBDIR/INCLUDEDIR.
pc_path = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
PC_SUBST = -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_path,$(LIBDIR))|' \
	-e 's|@INCLUDEDIR@|$(call pc_path,$(INCLUDEDIR))|' -e 's|@VERSION@|$(LIB_VERSION)|'

.PHONY: install uninstall install-system check-install

install: lib tools python
	$(INSTALL) -d $(DESTDIR)$(PYTHONDIR)/ipuxcom
	$(INSTALL) -m 644 $(addprefix $(PY_PKG)/,$(PY_INSTALL)) $(DESTDIR)$(PYTHONDIR)/ipuxcom/
	$(INSTALL) -d $(DESTDIR)$(PKG_INCLUDEDIR)/linux $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(DOCDIR) \
		$(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(MODPROBEDIR) $(DESTDIR)$(SYSUSERSDIR) \
		$(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 644 $(PUBLIC_HDRS) $(DESTDIR)$(PKG_INCLUDEDIR)/
	$(INSTALL) -m 644 uapi/linux/ipuxcom.h uapi/linux/ipuxcom_ipu_driver.h $(DESTDIR)$(PKG_INCLUDEDIR)/linux/
	$(INSTALL) -m 755 $(B)/libipuxcom.so.$(LIB_VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sfn libipuxcom.so.$(LIB_VERSION) $(DESTDIR)$(LIBDIR)/libipuxcom.so.$(LIB_MAJOR)
	ln -sfn libipuxcom.so.$(LIB_MAJOR) $(DESTDIR)$(LIBDIR)/libipuxcom.so
	$(INSTALL) -m 644 $(B)/libipuxcom.a $(DESTDIR)$(LIBDIR)/
	sed $(PC_SUBST) libuser/libipuxcom.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/libipuxcom.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/libipuxcom.pc
	$(INSTALL) -m 755 $(B)/ipuxcom $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 man/ipuxcom.8 $(DESTDIR)$(MANDIR)/man8/
	$(INSTALL) -m 644 man/libipuxcom.3 $(DESTDIR)$(MANDIR)/man3/
	$(INSTALL) -m 644 tools/completion/ipuxcom.bash $(DESTDIR)$(BASHCOMPDIR)/ipuxcom
	$(INSTALL) -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 644 udev/60-ipuxcom.rules $(DESTDIR)$(UDEVRULESDIR)/
	$(INSTALL) -m 644 modprobe.d/ipuxcom.conf $(DESTDIR)$(MODPROBEDIR)/
	$(INSTALL) -m 644 sysusers.d/ipuxcom.conf $(DESTDIR)$(SYSUSERSDIR)/
	@$(if $(DESTDIR),echo "install: staged in $(DESTDIR): the package creates group ipuxcom (sysusers.d)",$(MAKE) --no-print-directory install-system)

# On the live system: the group of /dev/ipuxcom (systemd-sysusers reads the
# sysusers.d file; groupadd where there is no systemd), the linker cache,
# and udev's rules, applied to a /dev/ipuxcom that already exists.
install-system:
	@if [ "$$(id -u)" != 0 ]; then \
		echo "install: not root: create group ipuxcom (groupadd --system ipuxcom) and run ldconfig yourself"; \
		exit 0; \
	fi; \
	if ! getent group ipuxcom >/dev/null; then \
		if command -v systemd-sysusers >/dev/null; then \
			systemd-sysusers $(SYSUSERSDIR)/ipuxcom.conf; \
		else \
			groupadd --system ipuxcom; \
		fi; \
	fi; \
	getent group ipuxcom >/dev/null || { echo "install: could not create group ipuxcom" >&2; exit 1; }; \
	ldconfig; \
	if udevadm control --reload-rules 2>/dev/null; then \
		udevadm trigger --subsystem-match=misc --sysname-match=ipuxcom 2>/dev/null || true; \
	fi

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PKG_INCLUDEDIR)/,$(notdir $(PUBLIC_HDRS))) \
		$(DESTDIR)$(PKG_INCLUDEDIR)/linux/ipuxcom.h \
		$(DESTDIR)$(PKG_INCLUDEDIR)/linux/ipuxcom_ipu_driver.h \
		$(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS))) \
		$(DESTDIR)$(LIBDIR)/libipuxcom.so.$(LIB_VERSION) \
		$(DESTDIR)$(LIBDIR)/libipuxcom.so.$(LIB_MAJOR) $(DESTDIR)$(LIBDIR)/libipuxcom.so \
		$(DESTDIR)$(LIBDIR)/libipuxcom.a $(DESTDIR)$(PKGCONFIGDIR)/libipuxcom.pc \
		$(DESTDIR)$(BINDIR)/ipuxcom \
		$(DESTDIR)$(MANDIR)/man8/ipuxcom.8 $(DESTDIR)$(MANDIR)/man3/libipuxcom.3 \
		$(DESTDIR)$(BASHCOMPDIR)/ipuxcom \
		$(DESTDIR)$(UDEVRULESDIR)/60-ipuxcom.rules $(DESTDIR)$(MODPROBEDIR)/ipuxcom.conf \
		$(DESTDIR)$(SYSUSERSDIR)/ipuxcom.conf \
		$(addprefix $(DESTDIR)$(PYTHONDIR)/ipuxcom/,$(PY_INSTALL))
	rm -rf $(DESTDIR)$(PYTHONDIR)/ipuxcom/__pycache__
	@rmdir --ignore-fail-on-non-empty $(DESTDIR)$(PKG_INCLUDEDIR)/linux $(DESTDIR)$(PKG_INCLUDEDIR) \
		$(DESTDIR)$(DOCDIR) $(DESTDIR)$(PYTHONDIR)/ipuxcom 2>/dev/null || :
	@$(if $(DESTDIR),:,[ "$$(id -u)" != 0 ] || ldconfig)
	@$(if $(DESTDIR),:,echo "uninstall: group ipuxcom kept (groupdel ipuxcom to remove it)")

# Install test and documentation consistency (TAP), part of `make check`:
# selftests/install/install-check.sh installs into a temporary DESTDIR,
# builds and runs selftests/install/pc_user.c with pkg-config, uninstalls;
# selftests/install/docs-check.sh checks the man pages against every
# object's and command's --help, and modprobe.d/dkms.conf against kmod/;
# selftests/install/exports-check.sh checks the version script against the
# public headers and the built library's exports; links-check.sh the
# Markdown links of README.md and docs/; tree-check.sh that the tree
# stands alone: `reuse lint`, each file's SPDX line against COPYING, no
# citation of anything outside the tree, every HW- fact id cited defined
# in docs/hardware-record.md; host-state-test.sh tests host-state.sh
# (make check's last check, above).
check-install: lib tools
	@mkdir -p $(B)/results
	B=$(B) selftests/run-host-tests.sh $(B)/results/install.tap \
		selftests/install/install-check.sh selftests/install/docs-check.sh \
		selftests/install/exports-check.sh selftests/install/links-check.sh \
		selftests/install/tree-check.sh selftests/install/host-state-test.sh

# ---------------------------------------------------------------- DKMS
# The kernel modules through DKMS, rebuilt for every kernel installed later
# (dkms.conf). dkms-source copies the sources DKMS builds from (Kbuild,
# dkms.conf, kmod/, sim/, uapi/) to $(DESTDIR)/usr/src/ipuxcom-VERSION, the
# version being the library's; dkms-install (root) reinstalls that version
# for KVER (default: the newest Debian kernel with headers, see the top;
# `make dkms-install KVER=$$(uname -r)` for the running one).
DKMS ?= dkms
DKMS_VERSION := $(LIB_VERSION)
DKMS_SRCDIR = /usr/src/ipuxcom-$(DKMS_VERSION)
DKMS_FILES = Kbuild dkms.conf uapi/linux/ipuxcom.h uapi/linux/ipuxcom_ipu_driver.h \
	$(wildcard kmod/*.[ch] kmod/*/*.[ch] kmod/*/*/*.[ch] sim/*.[ch] sim/*/*.[ch])
DKMS_M := -m ipuxcom -v $(DKMS_VERSION)
# Device tests check-dkms runs in the VM with the DKMS-built modules.
DKMS_CHECK_TESTS := abi_test attach_test abi_test_compat32 attach_test_compat32

.PHONY: dkms-source dkms-install dkms-remove check-dkms

dkms-source:
	rm -rf $(DESTDIR)$(DKMS_SRCDIR)
	$(INSTALL) -d $(DESTDIR)$(DKMS_SRCDIR)
	cp --parents $(DKMS_FILES) $(DESTDIR)$(DKMS_SRCDIR)/
	sed -i 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION="$(DKMS_VERSION)"/' \
		$(DESTDIR)$(DKMS_SRCDIR)/dkms.conf

dkms-install: kver-check
	@test -z "$(DESTDIR)" || { echo "dkms-install: not with DESTDIR (use dkms-source)" >&2; exit 1; }
	@command -v $(DKMS) >/dev/null || { echo "dkms-install: no dkms: apt-get install dkms" >&2; exit 1; }
	if [ -n "$$($(DKMS) status $(DKMS_M))" ]; then $(DKMS) remove $(DKMS_M) --all; fi
	$(MAKE) --no-print-directory dkms-source
	$(DKMS) add $(DKMS_M)
	$(DKMS) build $(DKMS_M) -k $(KVER)
	$(DKMS) install $(DKMS_M) -k $(KVER)

dkms-remove:
	@test -z "$(DESTDIR)" || { echo "dkms-remove: not with DESTDIR" >&2; exit 1; }
	if command -v $(DKMS) >/dev/null && [ -n "$$($(DKMS) status $(DKMS_M))" ]; then \
		$(DKMS) remove $(DKMS_M) --all; fi
	rm -rf $(DKMS_SRCDIR)

# DKMS test, part of `make check`: dkms add, build and (root) install for
# KVER in trees of its own under $(B)/dkms-check (never the host's /usr/src,
# /var/lib/dkms or /lib/modules), the VM booted with the modules DKMS
# installed running DKMS_CHECK_TESTS, dkms remove (selftests/install/dkms-check.sh).
check-dkms: vm-kernel $(B)/ipuxcom $(addprefix $(B)/tests/device/,$(DKMS_CHECK_TESTS))
	@mkdir -p $(B)/results
	KVER=$(KVER) KDIR=$(KDIR) KIMAGE=$(KIMAGE) KMODDIR=$(KMODDIR) B=$(B) DKMS_VERSION=$(DKMS_VERSION) \
	DKMS_CHECK_TESTS="$(DKMS_CHECK_TESTS)" TEST_TIMEOUT=1500 \
		selftests/run-host-tests.sh $(B)/results/dkms.tap selftests/install/dkms-check.sh

# ---------------------------------------------------------------- kernel matrix
# Build the modules (warnings are errors) against every kernel-headers
# version and flavour Debian 12 offers, as TAP: scripts/kbuild-matrix.sh.
# KBUILD_MATRIX: the kernel versions (e.g. "6.1.0-57-amd64 6.12.117+deb12-rt-amd64");
# default: every /usr/src/linux-headers-*-{amd64,cloud-amd64,rt-amd64} plus,
# for each kernel series apt knows (6.1, 6.12), its newest ABI in the three
# flavours; "all": every ABI apt knows. Headers that are not installed are
# fetched with apt-get download and unpacked under $(B)/kheaders (nothing is
# installed: installing 6.12's would pull in its kernel image, and the
# newest headers installed choose the kernel the VM boots). Not part of `make check`
# (downloads ~17 MB and builds ~40 s per kernel).
KBUILD_MATRIX ?=

.PHONY: check-kbuild-matrix

check-kbuild-matrix:
	@mkdir -p $(B)/results
	B=$(B) KBUILD_MATRIX="$(KBUILD_MATRIX)" TEST_TIMEOUT=7200 \
		selftests/run-host-tests.sh $(B)/results/kbuild-matrix.tap scripts/kbuild-matrix.sh
