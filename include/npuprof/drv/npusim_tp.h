/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Driver backend "npusim", the simulated NPU driver (sim/driver): its
 * module, device nodes and task tracepoints.  Included only by the npusim
 * backend files (kmod/drv_npusim.c, user/drv_npusim.c) and by the
 * simulator itself, which checks its TP_PROTO against the prototype here.
 *
 * Prototype (TP_PROTO) of all four tracepoints:
 *   u32 tgid, u32 tid    owner of the task (the submitter), not "current"
 *   u32 device           device id (N of /dev/davinciN)
 *   u32 stream           device stream id
 *   u32 task_id          per-device task id, from 1
 *   u32 task_type        enum npuprof_task_type (include/npuprof/record.h)
 *   u64 dev_ts           device clock count at the event
 *   u64 arg              kernel: requested ns; memcpy: bytes; sync: ns waited
 *   const char *name     kernel name, or "" (at most 31 bytes are kept)
 */
#ifndef NPUPROF_DRV_NPUSIM_TP_H
#define NPUPROF_DRV_NPUSIM_TP_H

#include <npuprof/npu_driver.h>

#define NPUSIM_DRV_NAME "npusim"   /* backend name msprof prints */
#define NPUSIM_DRV_MODULE "npusim" /* module owning the device nodes */

#define NPUSIM_TP_TASK_SUBMIT "npusim_task_submit"
#define NPUSIM_TP_TASK_START "npusim_task_start"
#define NPUSIM_TP_TASK_END "npusim_task_end"
#define NPUSIM_TP_STREAM_SYNC "npusim_stream_sync"

/* Parameter list of a probe for these tracepoints, after "void *data". */
#define NPUSIM_TP_PROBE_PARAMS                                          \
	u32 tgid, u32 tid, u32 device, u32 stream, u32 task_id,         \
		u32 task_type, u64 dev_ts, u64 arg, const char *name

/* struct npu_tp_layout initializer of that prototype. */
#define NPUSIM_TP_LAYOUT                                                   \
	{                                                                  \
		.nr_args = 9,                                              \
		.pos = { [NPU_TP_TGID] = 0, [NPU_TP_TID] = 1,              \
			 [NPU_TP_DEVICE] = 2, [NPU_TP_STREAM] = 3,          \
			 [NPU_TP_TASK_ID] = 4, [NPU_TP_TASK_TYPE] = 5,      \
			 [NPU_TP_DEV_TS] = 6, [NPU_TP_ARG] = 7,             \
			 [NPU_TP_NAME] = 8 },                               \
		.bits = { [NPU_TP_TGID] = 32, [NPU_TP_TID] = 32,           \
			  [NPU_TP_DEVICE] = 32, [NPU_TP_STREAM] = 32,       \
			  [NPU_TP_TASK_ID] = 32, [NPU_TP_TASK_TYPE] = 32,   \
			  [NPU_TP_DEV_TS] = 64, [NPU_TP_ARG] = 64,          \
			  [NPU_TP_NAME] = 64 },                             \
	}

#endif /* NPUPROF_DRV_NPUSIM_TP_H */
