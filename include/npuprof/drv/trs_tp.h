/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Driver backend "ascend", the real Ascend host driver's task tracepoints
 * (facts: ../shared/reference/ascend-driver.md section 1), and the
 * simulator's realistic driver ascendsim.ko, which fires the same ones.
 * Included by the ascend backend files (kmod/drv_ascend.c,
 * user/drv_ascend.c) and by the simulator, whose TP_PROTO is checked
 * against the prototypes here.
 *
 * Two trace systems, each event TP_PROTO(const char *str,
 * struct trs_id_inst *inst, struct trs_..._trace *trace):
 *   trs_chan:sqe        "Task Send": an SQE was written to the hardware
 *                       queue (in the submitter's ioctl for a kio SQ; from
 *                       a kernel worker, later, for a uio_t SQ; never for
 *                       a uio_d SQ, whose SQEs user space writes itself)
 *   trs_chan:cqe        a completion entry was fetched or dispatched
 *   trs_core:logic_cqe  "Logic Cq Enque": a completion was queued for user
 *                       space; .timestamp is the entry's device counter
 * Only tasks whose SQE asks for a completion (wr_cqe: event records,
 * place-holders, DVPP) have one.  None of them sees a task start or end.
 * The kernel's tracepoint names are the bare event names ("sqe"), so
 * npuprof.ko also checks the module that defines them.
 *
 * All tracepoints of a device fire only while its switch is on:
 * /proc/trs_chan/dev<N>-ts<M>/trace_enable (trs_chan) and
 * /proc/trs_core/ts_inst/dev<N>-ts<M>/trace_enable (trs_core), mode 0444,
 * written by root with exactly 2 bytes, "1\n" or "0\n"; off at load.
 *
 * The argument structs, all plain 32-bit words but the timestamp, in the
 * driver's member order.
 */
#ifndef NPUPROF_DRV_TRS_TP_H
#define NPUPROF_DRV_TRS_TP_H

#include <linux/types.h>
#include <npuprof/npu_driver.h>

#define ASCEND_DRV_NAME "ascend"      /* backend name msprof prints */
#define ASCEND_DRV_MODULE "ascendsim" /* the simulator's module; the real
				       * driver's node owner has another name */
/* Modules defining the tracepoints: the real driver's two, the simulator. */
#define ASCEND_TP_MODULES "asdrv_trsbase", "asdrv_trs", "ascendsim"

#define ASCEND_TP_SQE "sqe"             /* trs_chan */
#define ASCEND_TP_CQE "cqe"             /* trs_chan */
#define ASCEND_TP_LOGIC_CQE "logic_cqe" /* trs_core */

/* What the driver passes as @str at the fire points npuprof relies on. */
#define ASCEND_TP_STR_TASK_SEND "Task Send"
#define ASCEND_TP_STR_LOGIC_CQ_ENQUE "Logic Cq Enque"

/* Proc files, with %u the device id and TS 0. */
#define ASCEND_PROC_CHAN_ENABLE "trs_chan/dev%u-ts0/trace_enable"
#define ASCEND_PROC_CORE_ENABLE "trs_core/ts_inst/dev%u-ts0/trace_enable"
#define ASCEND_PROC_CORE_DIR "trs_core"

/** struct trs_id_inst - a device's task scheduler instance */
struct trs_id_inst {
	__u32 devid;
	__u32 tsid;
};

/** struct trs_chan_types - a channel's type and sub-type */
struct trs_chan_types {
	__u32 type;
	__u32 sub_type;
};

/**
 * struct trs_chan_sq_trace - argument of trs_chan:sqe
 * @sqid:      hardware submission queue id
 * @status:    queue status word
 * @sq_head:   queue head after the write
 * @sq_tail:   queue tail after the write
 * @chan_id:   channel id
 * @types:     channel type
 * @type:      SQE type (ASCEND_SQE_TYPE_*, drv/ascend_hal_abi.h)
 * @task_id:   the task's id
 * @stream_id: the task's stream
 */
struct trs_chan_sq_trace {
	__u32 sqid;
	__u32 status;
	__u32 sq_head;
	__u32 sq_tail;
	__u32 chan_id;
	struct trs_chan_types types;
	__u32 type;
	__u32 task_id;
	__u32 stream_id;
};

/** struct trs_chan_cq_trace - argument of trs_chan:cqe */
struct trs_chan_cq_trace {
	__u32 cqid;
	__u32 cq_head;
	__u32 round;
	__u32 chan_id;
	struct trs_chan_types types;
	__u32 task_id;
	__u32 sq_id;
	__u32 sq_head;
	__u32 stream_id;
};

/**
 * struct trs_logic_cqe_trace - argument of trs_core:logic_cqe
 * @timestamp: device counter of the completion entry, 0 when the hardware
 *             stamped none
 * The other members: logical CQ, its head and tail, the task, stream, SQ,
 * SQ head, SQE type, whether it matched a waiter, error code and type,
 * whether it was dropped.
 */
struct trs_logic_cqe_trace {
	__u32 logic_cqid;
	__u32 head;
	__u32 tail;
	__u32 task_id;
	__u32 stream_id;
	__u32 sqid;
	__u32 sq_head;
	__u32 sqe_type;
	__u32 match_flag;
	__u32 errcode;
	__u32 errtype;
	__u32 drop_flag;
	__u64 timestamp;
};

/* Probe parameter lists, after "void *data". */
#define TRS_CHAN_SQE_PROBE_PARAMS                                       \
	const char *str, struct trs_id_inst *inst,                       \
		struct trs_chan_sq_trace *sq_trace
#define TRS_CHAN_CQE_PROBE_PARAMS                                       \
	const char *str, struct trs_id_inst *inst,                       \
		struct trs_chan_cq_trace *cq_trace
#define TRS_CORE_LOGIC_CQE_PROBE_PARAMS                                 \
	const char *str, struct trs_id_inst *inst,                       \
		struct trs_logic_cqe_trace *cq_trace

#define TRS_OFF(type, member) ((unsigned short)__builtin_offsetof(type, member))

/*
 * struct npu_tp_layout of trs_chan:sqe: device from *inst, stream, task
 * id and (as arg) the SQE type from *sq_trace; no pid, no device time.
 */
#define ASCEND_TP_LAYOUT_SQE                                                     \
	{                                                                        \
		.nr_args = 3,                                                    \
		.pos = { [NPU_TP_TGID] = NPU_TP_ABSENT,                          \
			 [NPU_TP_TID] = NPU_TP_ABSENT, [NPU_TP_DEVICE] = 1,       \
			 [NPU_TP_STREAM] = 2, [NPU_TP_TASK_ID] = 2,               \
			 [NPU_TP_TASK_TYPE] = NPU_TP_ABSENT,                      \
			 [NPU_TP_DEV_TS] = NPU_TP_ABSENT, [NPU_TP_ARG] = 2,       \
			 [NPU_TP_NAME] = NPU_TP_ABSENT },                         \
		.bits = { [NPU_TP_DEVICE] = 32, [NPU_TP_STREAM] = 32,            \
			  [NPU_TP_TASK_ID] = 32, [NPU_TP_ARG] = 32 },             \
		.deref = { [NPU_TP_DEVICE] = 1, [NPU_TP_STREAM] = 1,             \
			   [NPU_TP_TASK_ID] = 1, [NPU_TP_ARG] = 1 },              \
		.off = { [NPU_TP_DEVICE] = TRS_OFF(struct trs_id_inst, devid),   \
			 [NPU_TP_STREAM] = TRS_OFF(struct trs_chan_sq_trace,      \
						   stream_id),                    \
			 [NPU_TP_TASK_ID] = TRS_OFF(struct trs_chan_sq_trace,     \
						    task_id),                     \
			 [NPU_TP_ARG] = TRS_OFF(struct trs_chan_sq_trace, type) }, \
	}

/*
 * struct npu_tp_layout of trs_core:logic_cqe: as sqe's, from *cq_trace,
 * and the device time of the completion entry.
 */
#define ASCEND_TP_LAYOUT_LOGIC_CQE                                               \
	{                                                                        \
		.nr_args = 3,                                                    \
		.pos = { [NPU_TP_TGID] = NPU_TP_ABSENT,                          \
			 [NPU_TP_TID] = NPU_TP_ABSENT, [NPU_TP_DEVICE] = 1,       \
			 [NPU_TP_STREAM] = 2, [NPU_TP_TASK_ID] = 2,               \
			 [NPU_TP_TASK_TYPE] = NPU_TP_ABSENT,                      \
			 [NPU_TP_DEV_TS] = 2, [NPU_TP_ARG] = 2,                   \
			 [NPU_TP_NAME] = NPU_TP_ABSENT },                         \
		.bits = { [NPU_TP_DEVICE] = 32, [NPU_TP_STREAM] = 32,            \
			  [NPU_TP_TASK_ID] = 32, [NPU_TP_DEV_TS] = 64,            \
			  [NPU_TP_ARG] = 32 },                                    \
		.deref = { [NPU_TP_DEVICE] = 1, [NPU_TP_STREAM] = 1,             \
			   [NPU_TP_TASK_ID] = 1, [NPU_TP_DEV_TS] = 1,             \
			   [NPU_TP_ARG] = 1 },                                    \
		.off = { [NPU_TP_DEVICE] = TRS_OFF(struct trs_id_inst, devid),   \
			 [NPU_TP_STREAM] = TRS_OFF(struct trs_logic_cqe_trace,    \
						   stream_id),                    \
			 [NPU_TP_TASK_ID] = TRS_OFF(struct trs_logic_cqe_trace,   \
						    task_id),                     \
			 [NPU_TP_DEV_TS] = TRS_OFF(struct trs_logic_cqe_trace,    \
						   timestamp),                    \
			 [NPU_TP_ARG] = TRS_OFF(struct trs_logic_cqe_trace,       \
						sqe_type) },                      \
	}

#endif /* NPUPROF_DRV_TRS_TP_H */
