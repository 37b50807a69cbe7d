/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trs_core tracepoint of ascendsim.ko (include/npuprof/drv/trs_tp.h):
 * logic_cqe, a completion queued for user space, with the entry's device
 * counter in the struct (not in the printed text, as in the real one).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM trs_core

#if !defined(ASCENDSIM_TRS_CORE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define ASCENDSIM_TRS_CORE_TRACE_H

#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <npuprof/drv/trs_tp.h>

#define ASCENDSIM_CORE_STR_LEN 24

TRACE_EVENT(logic_cqe,
	TP_PROTO(const char *str, struct trs_id_inst *inst,
		 struct trs_logic_cqe_trace *cq_trace),
	TP_ARGS(str, inst, cq_trace),
	TP_STRUCT__entry(
		__array(char, str, ASCENDSIM_CORE_STR_LEN)
		__field_struct(struct trs_id_inst, inst)
		__field_struct(struct trs_logic_cqe_trace, cq)
		__field(s64, sec)
		__field(long, nsec)
	),
	TP_fast_assign(
		struct timespec64 now;

		ktime_get_ts64(&now);
		strscpy_pad(__entry->str, str, ASCENDSIM_CORE_STR_LEN);
		__entry->inst = *inst;
		__entry->cq = *cq_trace;
		__entry->sec = now.tv_sec;
		__entry->nsec = now.tv_nsec;
	),
	TP_printk("%s: devid=%u;tsid=%u;logic_cqid=%u;head=%u;tail=%u;sqid=%u;sq_head=%u;sqe_type=%u;task_id=%u;stream_id=%u;match=%u;err=%u;%lld.%06ld",
		  __entry->str, __entry->inst.devid, __entry->inst.tsid,
		  __entry->cq.logic_cqid, __entry->cq.head, __entry->cq.tail,
		  __entry->cq.sqid, __entry->cq.sq_head, __entry->cq.sqe_type,
		  __entry->cq.task_id, __entry->cq.stream_id,
		  __entry->cq.match_flag, __entry->cq.errcode, __entry->sec,
		  __entry->nsec / 1000)
);

#endif /* ASCENDSIM_TRS_CORE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trs_core_trace
#include <trace/define_trace.h>
