/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trs_chan tracepoints of ascendsim.ko, the simulator as the real Ascend
 * host driver presents itself (include/npuprof/drv/trs_tp.h has the facts
 * and the argument structs).  Each record keeps the string, the instance,
 * a copy of the queue struct and the host time, as the real ones do.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM trs_chan

#if !defined(ASCENDSIM_TRS_CHAN_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define ASCENDSIM_TRS_CHAN_TRACE_H

#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <npuprof/drv/trs_tp.h>

/* Bytes of the string argument kept, NUL included. */
#define ASCENDSIM_TRACE_STR_LEN 24

TRACE_EVENT(sqe,
	TP_PROTO(const char *str, struct trs_id_inst *inst,
		 struct trs_chan_sq_trace *sq_trace),
	TP_ARGS(str, inst, sq_trace),
	TP_STRUCT__entry(
		__array(char, str, ASCENDSIM_TRACE_STR_LEN)
		__field_struct(struct trs_id_inst, inst)
		__field_struct(struct trs_chan_sq_trace, sq)
		__field(s64, sec)
		__field(long, nsec)
	),
	TP_fast_assign(
		struct timespec64 now;

		ktime_get_ts64(&now);
		strscpy_pad(__entry->str, str, ASCENDSIM_TRACE_STR_LEN);
		__entry->inst = *inst;
		__entry->sq = *sq_trace;
		__entry->sec = now.tv_sec;
		__entry->nsec = now.tv_nsec;
	),
	TP_printk("%s: devid=%u;tsid=%u;chan_id=%u;sqid=%u;sq_head=%u;sq_tail=%u;sqe_type=%u;task_id=%u;stream_id=%u;%lld.%06ld",
		  __entry->str, __entry->inst.devid, __entry->inst.tsid,
		  __entry->sq.chan_id, __entry->sq.sqid, __entry->sq.sq_head,
		  __entry->sq.sq_tail, __entry->sq.type, __entry->sq.task_id,
		  __entry->sq.stream_id, __entry->sec, __entry->nsec / 1000)
);

TRACE_EVENT(cqe,
	TP_PROTO(const char *str, struct trs_id_inst *inst,
		 struct trs_chan_cq_trace *cq_trace),
	TP_ARGS(str, inst, cq_trace),
	TP_STRUCT__entry(
		__array(char, str, ASCENDSIM_TRACE_STR_LEN)
		__field_struct(struct trs_id_inst, inst)
		__field_struct(struct trs_chan_cq_trace, cq)
		__field(s64, sec)
		__field(long, nsec)
	),
	TP_fast_assign(
		struct timespec64 now;

		ktime_get_ts64(&now);
		strscpy_pad(__entry->str, str, ASCENDSIM_TRACE_STR_LEN);
		__entry->inst = *inst;
		__entry->cq = *cq_trace;
		__entry->sec = now.tv_sec;
		__entry->nsec = now.tv_nsec;
	),
	TP_printk("%s: devid=%u;tsid=%u;chan_id=%u;cqid=%u;cq_head=%u;round=%u;sqid=%u;sq_head=%u;task_id=%u;stream_id=%u;%lld.%06ld",
		  __entry->str, __entry->inst.devid, __entry->inst.tsid,
		  __entry->cq.chan_id, __entry->cq.cqid, __entry->cq.cq_head,
		  __entry->cq.round, __entry->cq.sq_id, __entry->cq.sq_head,
		  __entry->cq.task_id, __entry->cq.stream_id, __entry->sec,
		  __entry->nsec / 1000)
);

#endif /* ASCENDSIM_TRS_CHAN_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trs_chan_trace
#include <trace/define_trace.h>
