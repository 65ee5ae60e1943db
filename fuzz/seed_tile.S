/* SPDX-License-Identifier: GPL-2.0-only */
/* A tile ELF seed for elf_fuzz: see seed_tile.ld. */
	.section .secondaryLower,"aw",@nobits
	.space 16
	.text
	.globl _start
_start:
	.long 0x12345678, 0x41800003, 0, 0
	.long 0x11111111, 0x22222222, 0x41800003
	.section .data
	.long 0xdeadbeef
	.bss
	.space 32
	.section .note.GNU-stack,"",@progbits
