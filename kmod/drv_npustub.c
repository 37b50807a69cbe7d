// SPDX-License-Identifier: GPL-2.0
/*
 * Driver backend "npustub" of npuprof.ko: the second simulated driver's
 * tracepoint names and a probe with their prototype
 * (include/npuprof/drv/npustub_tp.h).  Its pids are signed and its name
 * may be NULL; npuprof_task_record() takes both as they come (a pid is
 * never negative, NULL records "").
 */
#include <npuprof/drv/npustub_tp.h>
#include "npuprof.h"

static void npuprof_npustub_probe(void *data, NPUSTUB_TP_PROBE_PARAMS)
{
	npuprof_task_record((uintptr_t)data, (u32)pid, (u32)tid, dev_id,
			    sq_id, task_id, task_type, timestamp, info,
			    op_name);
}

const struct npuprof_drv npuprof_drv_npustub = {
	.name = NPUSTUB_DRV_NAME,
	.tp = {
		[NPUPROF_TP_TASK_SUBMIT] = NPUSTUB_TP_TASK_SUBMIT,
		[NPUPROF_TP_TASK_START] = NPUSTUB_TP_TASK_START,
		[NPUPROF_TP_TASK_END] = NPUSTUB_TP_TASK_END,
		[NPUPROF_TP_STREAM_SYNC] = NPUSTUB_TP_STREAM_SYNC,
	},
	.probe = npuprof_npustub_probe,
};
