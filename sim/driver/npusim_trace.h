/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the simulated NPU driver.  Their names and prototype are
 * those of backend "npusim", include/npuprof/drv/npusim_tp.h (npusim_tp.h
 * checks them): npuprof.ko finds them by name when this module loads, and ftrace shows them under
 * /sys/kernel/tracing/events/npusim/.
 *
 * All four share one class so they have the same prototype and record
 * layout.  tgid/tid name the task's submitter (saved at submit time, since
 * start and end fire from a timer), dev_ts is the device clock at the
 * event, arg is the requested ns (kernel), bytes (memcpy) or ns waited
 * (stream sync).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM npusim

#if !defined(NPUSIM_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define NPUSIM_TRACE_H

#include <linux/tracepoint.h>
#include <linux/string.h>

/* Bytes of the kernel name kept in a trace record, NUL included. */
#define NPUSIM_TRACE_NAME_LEN 32

DECLARE_EVENT_CLASS(npusim_task,
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
		__array(char, name, NPUSIM_TRACE_NAME_LEN)
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
		strscpy_pad(__entry->name, name ? name : "",
			    NPUSIM_TRACE_NAME_LEN);
	),
	TP_printk(
		"tgid=%u tid=%u device=%u stream=%u task_id=%u type=%u dev_ts=%llu arg=%llu name=%s",
		__entry->tgid, __entry->tid, __entry->device,
		__entry->stream, __entry->task_id, __entry->task_type,
		__entry->dev_ts, __entry->arg, __entry->name)
);

/* A task was queued (fired in the SUBMIT ioctl, before it can start). */
DEFINE_EVENT(npusim_task, npusim_task_submit,
	TP_PROTO(u32 tgid, u32 tid, u32 device, u32 stream, u32 task_id,
		 u32 task_type, u64 dev_ts, u64 arg, const char *name),
	TP_ARGS(tgid, tid, device, stream, task_id, task_type, dev_ts, arg,
		name));

/* The device began running a task. */
DEFINE_EVENT(npusim_task, npusim_task_start,
	TP_PROTO(u32 tgid, u32 tid, u32 device, u32 stream, u32 task_id,
		 u32 task_type, u64 dev_ts, u64 arg, const char *name),
	TP_ARGS(tgid, tid, device, stream, task_id, task_type, dev_ts, arg,
		name));

/* The device finished a task. */
DEFINE_EVENT(npusim_task, npusim_task_end,
	TP_PROTO(u32 tgid, u32 tid, u32 device, u32 stream, u32 task_id,
		 u32 task_type, u64 dev_ts, u64 arg, const char *name),
	TP_ARGS(tgid, tid, device, stream, task_id, task_type, dev_ts, arg,
		name));

/* A STREAM_SYNC returned; task_id is the stream's last task, arg ns waited. */
DEFINE_EVENT(npusim_task, npusim_stream_sync,
	TP_PROTO(u32 tgid, u32 tid, u32 device, u32 stream, u32 task_id,
		 u32 task_type, u64 dev_ts, u64 arg, const char *name),
	TP_ARGS(tgid, tid, device, stream, task_id, task_type, dev_ts, arg,
		name));

#endif /* NPUSIM_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE npusim_trace
#include <trace/define_trace.h>
