/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace events of the test stub driver: the four tracepoints of driver
 * backend "npusim", include/npuprof/drv/npusim_tp.h, same names and
 * prototype, defined by a module that is not npusim.ko.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM npuprof_tp_stub

#if !defined(NPUPROF_TP_STUB_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define NPUPROF_TP_STUB_TRACE_H

#include <linux/tracepoint.h>
#include "tp_stub_compat.h"

DECLARE_EVENT_CLASS(npuprof_tp_stub_task,
	TP_PROTO(u32 tgid, u32 tid, u32 device, u32 stream, u32 task_id,
		 u32 task_type, u64 dev_ts, u64 arg, const char *name),
	TP_ARGS(tgid, tid, device, stream, task_id, task_type, dev_ts, arg,
		name),
	TP_STRUCT__entry(
		__field(u32, tgid)
		__field(u32, tid)
		__field(u32, device)
		__field(u32, stream)
		__field(u32, task_id)
		__field(u32, task_type)
		__field(u64, dev_ts)
		__field(u64, arg)
		__string(name, name)
	),
	TP_fast_assign(
		__entry->tgid = tgid;
		__entry->tid = tid;
		__entry->device = device;
		__entry->stream = stream;
		__entry->task_id = task_id;
		__entry->task_type = task_type;
		__entry->dev_ts = dev_ts;
		__entry->arg = arg;
		tp_stub_assign_str(name, name);
	),
	TP_printk("tgid=%u tid=%u device=%u stream=%u task_id=%u type=%u dev_ts=%llu arg=%llu name=%s",
		  __entry->tgid, __entry->tid, __entry->device,
		  __entry->stream, __entry->task_id, __entry->task_type,
		  __entry->dev_ts, __entry->arg, __get_str(name))
);

#define NPUPROF_TP_STUB_EVENT(ev)                                              \
	DEFINE_EVENT(npuprof_tp_stub_task, ev,                                 \
		TP_PROTO(u32 tgid, u32 tid, u32 device, u32 stream,            \
			 u32 task_id, u32 task_type, u64 dev_ts, u64 arg,      \
			 const char *name),                                    \
		TP_ARGS(tgid, tid, device, stream, task_id, task_type, dev_ts, \
			arg, name))

NPUPROF_TP_STUB_EVENT(npusim_task_submit);
NPUPROF_TP_STUB_EVENT(npusim_task_start);
NPUPROF_TP_STUB_EVENT(npusim_task_end);
NPUPROF_TP_STUB_EVENT(npusim_stream_sync);

#endif /* NPUPROF_TP_STUB_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE npuprof_tp_stub_trace
#include <trace/define_trace.h>
