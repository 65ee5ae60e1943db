#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The main job of `make demo`, run by the VM's init in demo mode: pack
# 1472 tile images, load them onto the C600 (the QEMU C600 through
# ipuxcom_hw.ko and the ipu_driver stand-in, or the simulator), read them
# back.
# IPUXCOM_DEVICE: the device id for load_demo verify (default 0; the
# ipuxcom command takes the lowest registered device).
# Exits with the first failing command's status.
set -u
run() {
	echo "\$ $*"
	"$@" || {
		rc=$?
		echo "demo: '$*' failed with exit status $rc"
		exit "$rc"
	}
}
# On a card every load replays the card's config capture after the
# initialisation, as the record's loads do: the card VM has the real C600
# capture ($IPUXCOM_CARD_CFG, selftests/vm/init). The simulator needs none.
cfg=''
if [ "${IPUXCOM_CARD:-}" = c600 ]; then
	echo "demo: path: the QEMU C600 PCI device, through ipuxcom_hw.ko and the ipu_driver stand-in"
	cfg=${IPUXCOM_CARD_CFG:-}
	if [ -z "$cfg" ]; then
		echo "demo: no config capture in this image (IPUXCOM_CARD_CFG): a card load needs one"
		exit 1
	fi
else
	echo "demo: path: the simulated C600 (ipuxcom_sim.ko)"
fi
mkdir -p /tmp/tiles
run ipuxcom info
run ipuxcom dev show
run load_demo write /tmp/tiles /tmp/boot.bin
run ipuxcom image pack --raw /tmp/tiles -o /tmp/demo.ipuimg
run ipuxcom image inspect /tmp/demo.ipuimg
# the notes' host-sync oracle: write 64 bytes, copy tile 0 -> 1, read back
cat >/tmp/oracle.ipuhsp <<'HSP'
ipuhsp 1
page 0 size 4096
page 1 size 4096
attach 1 0
command page 1 offset 0x0
call run id 0 phases 2
call read id 1 phases 4
call write id 2 phases 4
input write page 0 offset 0x40 size 64
output read page 0 offset 0x40 size 64
end
HSP
head -c 64 /dev/urandom >/tmp/in.bin
if [ -n "$cfg" ]; then
	run ipuxcom cfg inspect "$cfg"
	run ipuxcom load /tmp/demo.ipuimg --bootloader /tmp/boot.bin --config "$cfg" \
		--hostx /tmp/oracle.ipuhsp write:in=/tmp/in.bin run read:out=/tmp/out.bin
else
	run ipuxcom load /tmp/demo.ipuimg --bootloader /tmp/boot.bin \
		--hostx /tmp/oracle.ipuhsp write:in=/tmp/in.bin run read:out=/tmp/out.bin
fi
run cmp /tmp/in.bin /tmp/out.bin
echo "host exchange: 64 random bytes came back through the device"
run ipuxcom dev show --json
run ipuxcom tdi read 1471 0x4c010 8
run load_demo verify /tmp/tiles "${IPUXCOM_DEVICE:-0}"
