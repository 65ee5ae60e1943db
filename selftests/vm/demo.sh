#!/bin/sh
# The main job of `make demo`, run by the VM's init in demo mode: pack
# 1472 tile images, load them onto the simulated C600, read them back.
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
mkdir -p /tmp/tiles
run ipuxcom info
run ipuxcom dev show
run load_demo write /tmp/tiles /tmp/boot.bin
run ipuxcom image pack --raw /tmp/tiles -o /tmp/demo.ipuimg
run ipuxcom image inspect /tmp/demo.ipuimg
run ipuxcom load /tmp/demo.ipuimg --bootloader /tmp/boot.bin
run ipuxcom dev show --json
run ipuxcom tdi read 1471 0x4c010 8
run load_demo verify /tmp/tiles
