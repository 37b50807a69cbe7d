/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Driver backend "npustub", a second simulated NPU driver: the simulator's
 * device engine (sim/driver built as npustub.ko) behind another tracepoint
 * ABI, as a different driver or driver release would have, and without a
 * clock ioctl, so device times are placed by the export's clock fit.
 * Included only by the npustub backend files and the simulator.
 *
 * Prototype (TP_PROTO) of all four tracepoints, in this order:
 *   u32 dev_id           device id (N of /dev/davinciN)
 *   u32 sq_id            stream id
 *   u32 task_id          per-device task id, from 1
 *   u16 task_type        enum npuprof_task_type
 *   s32 pid, s32 tid     owner of the task (the submitter)
 *   const char *op_name  kernel name, or NULL
 *   u64 timestamp        device clock count at the event
 *   u64 info             kernel: requested ns; memcpy: bytes; sync: ns waited
 */
#ifndef NPUPROF_DRV_NPUSTUB_TP_H
#define NPUPROF_DRV_NPUSTUB_TP_H

#include <npuprof/npu_driver.h>

#define NPUSTUB_DRV_NAME "npustub"
#define NPUSTUB_DRV_MODULE "npustub"

#define NPUSTUB_TP_TASK_SUBMIT "npustub_sq_submit"
#define NPUSTUB_TP_TASK_START "npustub_task_exec_begin"
#define NPUSTUB_TP_TASK_END "npustub_task_exec_end"
#define NPUSTUB_TP_STREAM_SYNC "npustub_sq_sync_done"

#define NPUSTUB_TP_PROBE_PARAMS                                          \
	u32 dev_id, u32 sq_id, u32 task_id, u16 task_type, s32 pid,      \
		s32 tid, const char *op_name, u64 timestamp, u64 info

#define NPUSTUB_TP_LAYOUT                                                  \
	{                                                                  \
		.nr_args = 9,                                              \
		.pos = { [NPU_TP_DEVICE] = 0, [NPU_TP_STREAM] = 1,         \
			 [NPU_TP_TASK_ID] = 2, [NPU_TP_TASK_TYPE] = 3,      \
			 [NPU_TP_TGID] = 4, [NPU_TP_TID] = 5,               \
			 [NPU_TP_NAME] = 6, [NPU_TP_DEV_TS] = 7,            \
			 [NPU_TP_ARG] = 8 },                                \
		.bits = { [NPU_TP_DEVICE] = 32, [NPU_TP_STREAM] = 32,      \
			  [NPU_TP_TASK_ID] = 32, [NPU_TP_TASK_TYPE] = 16,   \
			  [NPU_TP_TGID] = 32, [NPU_TP_TID] = 32,            \
			  [NPU_TP_NAME] = 64, [NPU_TP_DEV_TS] = 64,         \
			  [NPU_TP_ARG] = 64 },                              \
	}

#endif /* NPUPROF_DRV_NPUSTUB_TP_H */
