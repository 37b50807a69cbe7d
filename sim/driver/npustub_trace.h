/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of npustub.ko, the simulator built as a second driver
 * (npusim_tp.h).  Names and prototype are those of backend "npustub",
 * include/npuprof/drv/npustub_tp.h; ftrace shows them under
 * /sys/kernel/tracing/events/npustub/.  Unlike npusim's, the prototype
 * puts the device first, narrows the task type, carries signed pids and
 * a NULL name for tasks without one, as another driver might.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM npustub

#if !defined(NPUSTUB_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define NPUSTUB_TRACE_H

#include <linux/tracepoint.h>
#include <linux/string.h>

/* Bytes of the op name kept in a trace record, NUL included. */
#define NPUSTUB_TRACE_NAME_LEN 32

DECLARE_EVENT_CLASS(npustub_task,
	TP_PROTO(u32 dev_id, u32 sq_id, u32 task_id, u16 task_type, s32 pid,
		 s32 tid, const char *op_name, u64 timestamp, u64 info),
	TP_ARGS(dev_id, sq_id, task_id, task_type, pid, tid, op_name,
		timestamp, info),
	TP_STRUCT__entry(
		__field(u32, dev_id)
		__field(u32, sq_id)
		__field(u32, task_id)
		__field(u16, task_type)
		__field(s32, pid)
		__field(s32, tid)
		__field(u64, timestamp)
		__field(u64, info)
		__array(char, op_name, NPUSTUB_TRACE_NAME_LEN)
	),
	TP_fast_assign(
		__entry->dev_id = dev_id;
		__entry->sq_id = sq_id;
		__entry->task_id = task_id;
		__entry->task_type = task_type;
		__entry->pid = pid;
		__entry->tid = tid;
		__entry->timestamp = timestamp;
		__entry->info = info;
		strscpy_pad(__entry->op_name, op_name ? op_name : "",
			    NPUSTUB_TRACE_NAME_LEN);
	),
	TP_printk(
		"dev_id=%u sq_id=%u task_id=%u task_type=%u pid=%d tid=%d timestamp=%llu info=%llu op_name=%s",
		__entry->dev_id, __entry->sq_id, __entry->task_id,
		__entry->task_type, __entry->pid, __entry->tid,
		__entry->timestamp, __entry->info, __entry->op_name)
);

#define NPUSTUB_DEFINE_TASK_EVENT(name)                                      \
	DEFINE_EVENT(npustub_task, name,                                     \
		TP_PROTO(u32 dev_id, u32 sq_id, u32 task_id, u16 task_type, \
			 s32 pid, s32 tid, const char *op_name,             \
			 u64 timestamp, u64 info),                          \
		TP_ARGS(dev_id, sq_id, task_id, task_type, pid, tid,        \
			op_name, timestamp, info))

/* Submit, exec begin and end, and a finished stream sync, as in npusim. */
NPUSTUB_DEFINE_TASK_EVENT(npustub_sq_submit);
NPUSTUB_DEFINE_TASK_EVENT(npustub_task_exec_begin);
NPUSTUB_DEFINE_TASK_EVENT(npustub_task_exec_end);
NPUSTUB_DEFINE_TASK_EVENT(npustub_sq_sync_done);

#endif /* NPUSTUB_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE npustub_trace
#include <trace/define_trace.h>
