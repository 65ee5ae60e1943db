/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The notes' sdk_host_tensor oracle [S "Host Tensor Exchange"] as a
 * host-sync manifest (docs/ipuhsp-format.md): two 4 KiB pages attached
 * 1 then 0, callable id at page 1 + 0, a 64-byte tensor at page 0 + 0x40,
 * write/run/read = 4/2/4 GS2 phases. A string literal, so a test can put
 * a comment line in front of it by concatenation.
 */
#ifndef IXT_HSP_ORACLE_H
#define IXT_HSP_ORACLE_H

#define IXT_HSP_ORACLE						\
	"ipuhsp 1\n"						\
	"page 0 size 4096\n"					\
	"page 1 size 4096\n"					\
	"attach 1 0\n"						\
	"command page 1 offset 0x0\n"				\
	"call run id 0 phases 2\n"				\
	"call read id 1 phases 4\n"				\
	"call write id 2 phases 4\n"				\
	"input write page 0 offset 0x40 size 64\n"		\
	"output read page 0 offset 0x40 size 64\n"		\
	"end\n"

#endif /* IXT_HSP_ORACLE_H */
