/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ipuxcom cfg capture (tools/cfg_capture.c): an IPUCFG1 file from the
 * config-BAR writes the ipuxcom_bar_write tracepoint records. An entry of
 * the cfg object's command table (tools/cfg.c): CFG_CAPTURE_CMD.
 */
#ifndef IPUXCOM_TOOLS_CFG_CAPTURE_H
#define IPUXCOM_TOOLS_CFG_CAPTURE_H

#include "cli.h"

int cfg_capture_run(struct cli_call *call, int argc, char **argv);

#define CFG_CAPTURE_CMD {							\
	.name = "capture",							\
	.takes_dev = true,							\
	.args = "-o FILE -- COMMAND... | start | stop -o FILE",			\
	.summary = "record the config writes a command (or a span) makes as IPUCFG1", \
	.description =								\
		"  capture [--dev ID] -o FILE -- COMMAND [ARGS...]\n"		\
		"  capture start [--dev ID]   ...   capture stop -o FILE\n\n"	\
		"Record, with the kernel's ipuxcom_bar_write tracepoint, every config-BAR\n" \
		"write the module makes to device ID (default 0) and write them, in order,\n" \
		"as an IPUCFG1 file (what '" CLI_PROG " load --config' and CFG_APPLY take).\n" \
		"'-- COMMAND' records while COMMAND runs; 'start' and 'stop -o FILE'\n"	\
		"record between two points of your choosing. Needs root and tracefs\n"	\
		"(/sys/kernel/tracing or /sys/kernel/debug/tracing); uses a tracing\n"	\
		"instance of its own, so other tracing is left alone. Fails, writing\n"	\
		"nothing, if COMMAND fails, no write was recorded, or the trace buffer\n" \
		"lost events. With --json: {\"file\",\"dev\",\"records\"} (start:\n"	\
		"{\"dev\",\"capturing\":true}). See docs/tracing.md.",		\
	.run = cfg_capture_run,							\
}

#endif /* IPUXCOM_TOOLS_CFG_CAPTURE_H */
