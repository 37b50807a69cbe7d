// SPDX-License-Identifier: MIT
/*
 * Backend of npustub.ko, the second simulated driver: another tracepoint
 * ABI (include/npuprof/drv/npustub_tp.h) and no clock interface, so the
 * export places its device times by the fit over task records.
 */
#include <stddef.h>

#include <npuprof/drv/npustub_tp.h>
#include <npuprof/npu_backend.h>

const struct npu_backend npu_backend_npustub = {
	.name = NPUSTUB_DRV_NAME,
	.module = NPUSTUB_DRV_MODULE,
	.tp_names = { NPUSTUB_TP_TASK_SUBMIT, NPUSTUB_TP_TASK_START, NPUSTUB_TP_TASK_END,
		      NPUSTUB_TP_STREAM_SYNC },
	.layout = NPUSTUB_TP_LAYOUT,
	.clock = NULL,
};
