// SPDX-License-Identifier: GPL-2.0
/*
 * Driver backend "npusim" of npuprof.ko: the simulated driver's tracepoint
 * names and a probe with their prototype (include/npuprof/drv/npusim_tp.h)
 * that hands the fields to npuprof_task_record().  tp_attach.c registers
 * the probe on each tracepoint found, with the event as its data.  The
 * only file of npuprof.ko that knows this driver.
 */
#include <npuprof/drv/npusim_tp.h>
#include "npuprof.h"

static void npuprof_npusim_probe(void *data, NPUSIM_TP_PROBE_PARAMS)
{
	npuprof_task_record((uintptr_t)data, tgid, tid, device, stream,
			    task_id, task_type, dev_ts, arg, name);
}

const struct npuprof_drv npuprof_drv_npusim = {
	.name = NPUSIM_DRV_NAME,
	.tp = {
		[NPUPROF_TP_TASK_SUBMIT] = NPUSIM_TP_TASK_SUBMIT,
		[NPUPROF_TP_TASK_START] = NPUSIM_TP_TASK_START,
		[NPUPROF_TP_TASK_END] = NPUSIM_TP_TASK_END,
		[NPUPROF_TP_STREAM_SYNC] = NPUSIM_TP_STREAM_SYNC,
	},
	.probe = npuprof_npusim_probe,
};
