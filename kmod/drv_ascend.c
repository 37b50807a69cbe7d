// SPDX-License-Identifier: GPL-2.0
/*
 * Driver backend "ascend" of npuprof.ko: the real Ascend host driver's
 * task tracepoints (include/npuprof/drv/trs_tp.h), which the simulator's
 * ascendsim.ko also fires.  trs_chan:sqe gives NPUPROF_TASK_QUEUED,
 * trs_core:logic_cqe NPUPROF_TASK_CQE; neither names a process, so the
 * record's pid comes from "current" or is 0 (npuprof_task_record_current()).
 * The names are bare words, so only the modules that define them in the
 * real driver and the simulator are trusted to mean these prototypes.
 */
#include <npuprof/drv/trs_tp.h>
#include "npuprof.h"

/* QUEUED: arg is the SQE type; no task type, no device time. */
static void npuprof_ascend_sqe(void *data, TRS_CHAN_SQE_PROBE_PARAMS)
{
	npuprof_task_record_current((uintptr_t)data, inst->devid,
				    sq_trace->stream_id, sq_trace->task_id, 0,
				    0, sq_trace->type);
}

/* CQE: dev_ts is the completion entry's device counter. */
static void npuprof_ascend_logic_cqe(void *data,
				     TRS_CORE_LOGIC_CQE_PROBE_PARAMS)
{
	npuprof_task_record_current((uintptr_t)data, inst->devid,
				    cq_trace->stream_id, cq_trace->task_id, 0,
				    cq_trace->timestamp, cq_trace->sqe_type);
}

static const char *const npuprof_ascend_modules[] = { ASCEND_TP_MODULES,
						      NULL };

const struct npuprof_drv npuprof_drv_ascend = {
	.name = ASCEND_DRV_NAME,
	.tp = {
		[NPUPROF_TP_TASK_QUEUED] = ASCEND_TP_SQE,
		[NPUPROF_TP_TASK_CQE] = ASCEND_TP_LOGIC_CQE,
	},
	.probes = {
		[NPUPROF_TP_TASK_QUEUED] = npuprof_ascend_sqe,
		[NPUPROF_TP_TASK_CQE] = npuprof_ascend_logic_cqe,
	},
	.modules = npuprof_ascend_modules,
};
