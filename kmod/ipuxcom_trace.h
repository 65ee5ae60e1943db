/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoints of ipuxcom.ko: every config-BAR access, HSP mark posts and
 * waits, TDI injections and loader batch kicks. With the kernel's tracing
 * interface (tracefs, events/ipuxcom/) they show exactly what the module
 * did to a device; `ipuxcom cfg capture` turns the bar_write events into
 * an IPUCFG1 file. See docs/tracing.md.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ipuxcom

#if !defined(IPUXCOM_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define IPUXCOM_TRACE_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(ipuxcom_bar_access,
		    TP_PROTO(u32 dev_id, u32 offset, u32 value),
		    TP_ARGS(dev_id, offset, value),
		    TP_STRUCT__entry(__field(u32, dev_id)
				     __field(u32, offset)
				     __field(u32, value)),
		    TP_fast_assign(__entry->dev_id = dev_id;
				   __entry->offset = offset;
				   __entry->value = value;),
		    TP_printk("dev=%u offset=0x%05x value=0x%08x",
			      __entry->dev_id, __entry->offset, __entry->value)
);

DEFINE_EVENT(ipuxcom_bar_access, ipuxcom_bar_write,
	     TP_PROTO(u32 dev_id, u32 offset, u32 value),
	     TP_ARGS(dev_id, offset, value));

DEFINE_EVENT(ipuxcom_bar_access, ipuxcom_bar_read,
	     TP_PROTO(u32 dev_id, u32 offset, u32 value),
	     TP_ARGS(dev_id, offset, value));

TRACE_EVENT(ipuxcom_hsp_mark,
	    TP_PROTO(u32 dev_id, u32 reg, u32 mark, bool wait),
	    TP_ARGS(dev_id, reg, mark, wait),
	    TP_STRUCT__entry(__field(u32, dev_id)
			     __field(u32, reg)
			     __field(u32, mark)
			     __field(bool, wait)),
	    TP_fast_assign(__entry->dev_id = dev_id;
			   __entry->reg = reg;
			   __entry->mark = mark;
			   __entry->wait = wait;),
	    TP_printk("dev=%u reg=0x%04x mark=%u wait=%d",
		      __entry->dev_id, __entry->reg, __entry->mark, __entry->wait)
);

TRACE_EVENT(ipuxcom_wait_done,
	    TP_PROTO(u32 dev_id, u32 offset, u32 last, int ret, u64 ns),
	    TP_ARGS(dev_id, offset, last, ret, ns),
	    TP_STRUCT__entry(__field(u32, dev_id)
			     __field(u32, offset)
			     __field(u32, last)
			     __field(int, ret)
			     __field(u64, ns)),
	    TP_fast_assign(__entry->dev_id = dev_id;
			   __entry->offset = offset;
			   __entry->last = last;
			   __entry->ret = ret;
			   __entry->ns = ns;),
	    TP_printk("dev=%u offset=0x%05x last=0x%08x ret=%d ns=%llu",
		      __entry->dev_id, __entry->offset, __entry->last, __entry->ret, __entry->ns)
);

TRACE_EVENT(ipuxcom_tdi_inject,
	    TP_PROTO(u32 dev_id, u32 tile, u32 context, u32 insn, u32 sts),
	    TP_ARGS(dev_id, tile, context, insn, sts),
	    TP_STRUCT__entry(__field(u32, dev_id)
			     __field(u32, tile)
			     __field(u32, context)
			     __field(u32, insn)
			     __field(u32, sts)),
	    TP_fast_assign(__entry->dev_id = dev_id;
			   __entry->tile = tile;
			   __entry->context = context;
			   __entry->insn = insn;
			   __entry->sts = sts;),
	    TP_printk("dev=%u tile=%u context=%u insn=0x%08x tdi_sts=0x%x",
		      __entry->dev_id, __entry->tile, __entry->context, __entry->insn, __entry->sts)
);

TRACE_EVENT(ipuxcom_load_batch,
	    TP_PROTO(u32 dev_id, u32 batch, u32 frames),
	    TP_ARGS(dev_id, batch, frames),
	    TP_STRUCT__entry(__field(u32, dev_id)
			     __field(u32, batch)
			     __field(u32, frames)),
	    TP_fast_assign(__entry->dev_id = dev_id;
			   __entry->batch = batch;
			   __entry->frames = frames;),
	    TP_printk("dev=%u batch=%u frames=%u",
		      __entry->dev_id, __entry->batch, __entry->frames)
);

#endif /* IPUXCOM_TRACE_H */

/* Out of tree: the header lives next to the sources, not in include/trace. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ipuxcom_trace
#include <trace/define_trace.h>
