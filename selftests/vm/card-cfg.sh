#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The card lane's config capture: check that FILE is the C600 capture the
# seed describes ("Direct Attach And Autoloader": IPUCFG1, 2,003 ordered
# config-BAR writes captured from Poplar 3.4 on a C600 with firmware
# 2.7.1), by the SHA-256 the seed gives, before it goes into the card
# VM's initramfs (mkinitramfs.sh --data); HW-CFG-CAPTURE in
# docs/hardware-record.md. It is a test vector kept outside the tree (by
# default next to the repository: the Makefile's CARD_CFG): never
# installed, never copied into the tree (docs/testing.md "The card lane's config").
#
#   selftests/vm/card-cfg.sh FILE
#
# Exit 0 when FILE is that capture; 1, with what is wrong, otherwise.
set -eu

# [S "Direct Attach And Autoloader"]
want=1838395ba3b291696ae9d2b5656725e590ecef419f55eb23cac4aad336b76df0

[ $# -eq 1 ] || { echo "usage: $0 FILE" >&2; exit 2; }
file=$1
if [ ! -f "$file" ]; then
	echo "card-cfg: $file: no such file: the card tests replay the real C600 config" >&2
	echo "card-cfg: capture (c600-init.ipucfg, docs/hardware-record.md HW-CFG-CAPTURE);" >&2
	echo "card-cfg: give its path with 'make CARD_CFG=FILE ...'" >&2
	exit 1
fi
got=$(sha256sum <"$file" | cut -d' ' -f1)
if [ "$got" != "$want" ]; then
	echo "card-cfg: $file: SHA-256 $got" >&2
	echo "card-cfg: is not the seed's C600 capture ($want):" >&2
	echo "card-cfg: the card tests need that very file (CARD_CFG=FILE)" >&2
	exit 1
fi
echo "card-cfg: $file: the seed's C600 capture (SHA-256 ${want%"${want#????????}"}...)"
