// SPDX-License-Identifier: MIT
/*
 * Backend of the real Ascend host driver (include/npuprof/drv/trs_tp.h),
 * and of the simulator's ascendsim.ko, which presents the same kernel
 * interfaces.  Task begin and end come from the device log (device_log),
 * submits from the halSqTaskSend uprobe; the driver's tracepoints give
 * only QUEUED (trs_chan:sqe) and CQE (trs_core:logic_cqe) records, with
 * no pid (attributed through the stream owners, npuprof/stream_owner.h),
 * and only while the per-device procfs switches are on.  No clock
 * interface in the kernel: clock pairs come from halGetDeviceInfo.
 *
 * Recognition: in the simulator, ascendsim owns /dev/davinci<N>.  On a
 * real host the nodes belong to a module whose name npuprof does not know
 * (the tracepoints live in asdrv_trsbase and asdrv_trs), so the backend is
 * also taken when the owner is unknown and /proc/trs_core exists.
 */
#include <stddef.h>

#include <npuprof/drv/trs_tp.h>
#include <npuprof/npu_backend.h>
#include <npuprof/npuprof_ioctl.h>

static const struct npu_tp_layout ascend_sqe_layout = ASCEND_TP_LAYOUT_SQE;
static const struct npu_tp_layout ascend_logic_cqe_layout = ASCEND_TP_LAYOUT_LOGIC_CQE;

static const char *const ascend_trace_enable[] = { ASCEND_PROC_CHAN_ENABLE,
						   ASCEND_PROC_CORE_ENABLE, NULL };

const struct npu_backend npu_backend_ascend = {
	.name = ASCEND_DRV_NAME,
	.module = ASCEND_DRV_MODULE,
	.tp_names = { [NPUPROF_TP_TASK_QUEUED] = ASCEND_TP_SQE,
		      [NPUPROF_TP_TASK_CQE] = ASCEND_TP_LOGIC_CQE },
	.layout = ASCEND_TP_LAYOUT_SQE,
	.event_layout = { [NPUPROF_TP_TASK_QUEUED] = &ascend_sqe_layout,
			  [NPUPROF_TP_TASK_CQE] = &ascend_logic_cqe_layout },
	.proc_probe = ASCEND_PROC_CORE_DIR,
	.trace_enable = ascend_trace_enable,
	.device_log = 1,
};
