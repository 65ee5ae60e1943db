# SPDX-License-Identifier: GPL-2.0
#
# ipuxcom top-level build. `make help` lists the targets.
#
# The kernel modules are built by kbuild (see Kbuild) against KDIR, which
# defaults to the newest Debian kernel that has both its image in /boot and
# its headers in /usr/src: the test VM boots that very kernel. The host's
# running kernel is not Debian's, so `uname -r` is never used.

KVER ?= $(shell scripts/find-kver.sh 2>/dev/null)
KDIR ?= /usr/src/linux-headers-$(KVER)
KIMAGE ?= /boot/vmlinuz-$(KVER)

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
LIB_HDRS := $(wildcard libuser/include/*.h libuser/src/*.h) uapi/linux/ipuxcom.h
SIM_SRCS := sim/c600_sim.c
SIM_HDRS := $(wildcard sim/*.h)
TOOL_SRCS := $(wildcard tools/*.c)
TOOL_HDRS := $(wildcard tools/*.h)

KSFT := $(B)/ksft
KSFT_HDRS := $(KSFT)/kselftest_harness.h $(KSFT)/kselftest.h
# The harness defines non-static functions and compares mixed signedness.
TEST_CFLAGS := $(BASE_CFLAGS) -Wno-missing-prototypes -Wno-sign-compare -I$(KSFT) -Isim -Ikmod -Iselftests/lib

HOST_TESTS := $(patsubst selftests/host/%.c,%,$(wildcard selftests/host/*_test.c))
# Device tests that need no library also run as 32-bit binaries, which
# exercise the module's compat_ioctl path (CONFIG_IA32_EMULATION).
# (The harness casts pointers to intmax_t in EXPECT_*: harmless on 32 bits.)
COMPAT32_TESTS := abi_test attach_test
DEVICE_TESTS := $(patsubst selftests/device/%.c,%,$(wildcard selftests/device/*_test.c)) \
	$(addsuffix _compat32,$(COMPAT32_TESTS))

LIB_OBJS := $(patsubst libuser/src/%.c,$(B)/lib/%.o,$(LIB_SRCS))
LIB_PIC_OBJS := $(patsubst libuser/src/%.c,$(B)/lib/pic/%.o,$(LIB_SRCS))
LIB_SAN_OBJS := $(patsubst libuser/src/%.c,$(B)/lib/san/%.o,$(LIB_SRCS))

.PHONY: examples bench bench-vm fuzz check-fuzz all help lib tools modules tests host-tests device-tests initramfs \
	check check-host check-vm demo deps sparse checkpatch lint clean \
	kver-check

all: lib tools modules examples

help:
	@echo "targets:"
	@echo "  all          library, ipuxcom command and kernel modules (default)"
	@echo "  deps         apt-get install whatever of deps/packages.txt is missing"
	@echo "  demo         deps + build + boot the test VM and run the main job"
	@echo "  check        deps + build + every test (host, host under ASan+UBSan, VM)"
	@echo "  check-host   host tests only;  check-vm: device tests in the VM only"
	@echo "  lint         make C=1 W=1 modules (sparse) + checkpatch --strict"
	@echo "  bench        build and run the benchmarks (bench/*.c) on the host"
	@echo "  bench-vm     run the device benchmarks (full load, TDI) in the test VM"
	@echo "  fuzz         run each libFuzzer target (fuzz/*_fuzz.c) for FUZZ_SECONDS (60)"
	@echo "  check-fuzz   the same briefly (FUZZ_CHECK_SECONDS, 4), as TAP; part of check"
	@echo "variables: KVER=$(KVER) KDIR=$(KDIR)"

deps:
	@scripts/deps.sh

kver-check:
	@test -n "$(KVER)" || { echo "no Debian kernel with headers found: run 'make deps'" >&2; exit 1; }

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
	sed -e 's|@PREFIX@|/usr/local|' -e 's|@VERSION@|$(LIB_VERSION)|' $< > $@

# ---------------------------------------------------------------- command
tools: $(B)/ipuxcom

$(B)/ipuxcom: $(TOOL_SRCS) $(TOOL_HDRS) $(B)/libipuxcom.a
	$(CC) $(BASE_CFLAGS) -Itools -o $@ $(TOOL_SRCS) $(B)/libipuxcom.a $(DEP_LIBS)

# ---------------------------------------------------------------- modules
modules: kver-check
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

sparse: kver-check
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 W=1 modules

CHECKPATCH := $(B)/checkpatch/checkpatch.pl
KERNEL_SRCS = $(wildcard kmod/*.[ch] kmod/sim/*.[ch] kmod/hw/*.[ch] sim/*.[ch]) uapi/linux/ipuxcom.h

$(CHECKPATCH):
	scripts/extract-kernel-files.sh $(B)/checkpatch scripts/checkpatch.pl \
		scripts/spelling.txt scripts/const_structs.checkpatch

checkpatch: $(CHECKPATCH)
	$(CHECKPATCH) --strict --no-tree --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $(KERNEL_SRCS)

lint: sparse checkpatch

# ---------------------------------------------------------------- tests
$(KSFT_HDRS):
	scripts/extract-kernel-files.sh $(KSFT) \
		tools/testing/selftests/kselftest_harness.h \
		tools/testing/selftests/kselftest.h

$(B)/sim/c600_sim.o: $(SIM_SRCS) $(SIM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -Isim -c $< -o $@

$(B)/sim/san/c600_sim.o: $(SIM_SRCS) $(SIM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -Isim -c $< -o $@

TEST_DEPS := $(KSFT_HDRS) $(LIB_HDRS) $(SIM_HDRS) $(wildcard selftests/lib/*.h) \
	$(wildcard kmod/*.h)

# Host tests: run on the build machine, plain and under ASan+UBSan.
$(B)/tests/host/%: selftests/host/%.c $(TEST_DEPS) $(B)/libipuxcom.a $(B)/sim/c600_sim.o
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ $< $(B)/sim/c600_sim.o $(B)/libipuxcom.a $(DEP_LIBS)

$(B)/tests/host-san/%: selftests/host/%.c $(TEST_DEPS) $(B)/libipuxcom-san.a $(B)/sim/san/c600_sim.o
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $(SAN_FLAGS) -o $@ $< $(B)/sim/san/c600_sim.o \
		$(B)/libipuxcom-san.a $(DEP_LIBS)

# Device tests: run in the VM (or on a machine with a card). They link the
# static library; libmnl has no static archive in Debian, so they are
# dynamic and the initramfs builder copies their shared libraries.
$(B)/tests/device/%: selftests/device/%.c $(TEST_DEPS) $(B)/libipuxcom.a
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -pthread -o $@ $< $(B)/libipuxcom.a $(DEP_LIBS)

$(B)/tests/device/%_compat32: selftests/device/%.c $(TEST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -Wno-pointer-to-int-cast -m32 -static -o $@ $<

HOST_TEST_BINS := $(addprefix $(B)/tests/host/,$(HOST_TESTS))
HOST_SAN_BINS := $(addprefix $(B)/tests/host-san/,$(HOST_TESTS))
DEVICE_TEST_BINS := $(addprefix $(B)/tests/device/,$(DEVICE_TESTS))

host-tests: $(HOST_TEST_BINS) $(HOST_SAN_BINS)
device-tests: $(DEVICE_TEST_BINS)
tests: host-tests device-tests

# ---------------------------------------------------------------- benchmarks
# Each bench/NAME.c is a program that measures one thing against a baseline
# measured in the same run and prints ratios; `make bench` runs them all.
BENCH_BINS := $(patsubst bench/%.c,$(B)/bench/%,$(wildcard bench/*.c))

$(B)/bench/%: bench/%.c $(LIB_HDRS) $(B)/libipuxcom.a
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -Ibench -o $@ $< $(B)/libipuxcom.a $(DEP_LIBS)

bench: $(BENCH_BINS)
	@for b in $(BENCH_BINS); do echo "== $$b"; $$b || exit 1; done

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
	libuser/src/ipucfg.c libuser/src/hsp_manifest.c
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -O1 -g $(WARN) -Iuapi -Ilibuser/include \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_BINS := $(patsubst %,$(B)/fuzz/%_fuzz,$(FUZZ_NAMES))
FUZZ_RUNNERS := $(addprefix $(B)/fuzz/run/,$(FUZZ_NAMES))

$(B)/fuzz/%_fuzz: fuzz/%_fuzz.c $(FUZZ_LIB_SRCS) $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_LIB_SRCS) $(DEP_LIBS)

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
# runs load_demo.
EXAMPLE_BINS := $(patsubst examples/%.c,$(B)/examples/%,$(wildcard examples/*.c))

$(B)/examples/%: examples/%.c $(LIB_HDRS) $(B)/libipuxcom.a
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -o $@ $< $(B)/libipuxcom.a $(DEP_LIBS)

examples: $(EXAMPLE_BINS)

# ---------------------------------------------------------------- test VM
# Benchmarks that need the device run in the VM (make bench-vm).
VM_BENCH_BINS := $(B)/bench/load_bench
VM_INPUTS := modules $(B)/ipuxcom $(EXAMPLE_BINS) $(DEVICE_TEST_BINS) $(VM_BENCH_BINS)

initramfs: kver-check $(VM_INPUTS)
	selftests/vm/mkinitramfs.sh --kver $(KVER) --out $(B)/vm/initramfs.cpio.gz \
		--modules "ipuxcom.ko ipuxcom_sim.ko ipuxcom_hw.ko" --tool "$(B)/ipuxcom $(EXAMPLE_BINS)" \
		--tests "$(DEVICE_TEST_BINS)" --bench "$(VM_BENCH_BINS)"

check-host: $(HOST_TEST_BINS) $(HOST_SAN_BINS) $(B)/ipuxcom
	@mkdir -p $(B)/results
	selftests/run-host-tests.sh $(B)/results/host.tap $(HOST_TEST_BINS) $(HOST_SAN_BINS)

check-vm: initramfs
	@mkdir -p $(B)/results
	selftests/vm/run-vm.sh --kernel $(KIMAGE) --initrd $(B)/vm/initramfs.cpio.gz \
		--mode check --expect "$(DEVICE_TESTS)" --out $(B)/results/vm

check: deps
	$(MAKE) all tests
	@rc=0; \
	$(MAKE) check-host || rc=1; \
	$(MAKE) check-fuzz || rc=1; \
	$(MAKE) check-vm || rc=1; \
	selftests/tap-summary.sh $(B)/results/host.tap $(B)/results/fuzz.tap \
		$(B)/results/vm/tests.tap || rc=1; \
	exit $$rc

bench-vm: initramfs
	selftests/vm/run-vm.sh --kernel $(KIMAGE) --initrd $(B)/vm/initramfs.cpio.gz \
		--mode bench --timeout 900 --out $(B)/results/bench

demo: deps
	$(MAKE) all initramfs
	selftests/vm/run-vm.sh --kernel $(KIMAGE) --initrd $(B)/vm/initramfs.cpio.gz \
		--mode demo --out $(B)/results/demo

clean:
	rm -rf $(B)
	-test -d "$(KDIR)" && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
