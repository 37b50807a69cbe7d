/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * npuprof's task type (enum npuprof_task_type, npuprof/record.h) of a STARS
 * SQE type (npuprof/drv/ascend_hal_abi.h): one mapping for the two places
 * that meet SQE types, the halSqTaskSend uprobe (bpf/acl_trace.bpf.c) and
 * the device-log reader (user/devlog.c), so a task's submit and its begin
 * and end agree.  An SQE type npuprof has no name for is kept as
 * NPUPROF_TT_SQE_OTHER + the SQE type (the export shows TASK_TYPE_<n>),
 * never taken for a kernel or a copy.
 */
#ifndef NPUPROF_DRV_ASCEND_TASK_TYPE_H
#define NPUPROF_DRV_ASCEND_TASK_TYPE_H

#include <npuprof/drv/ascend_hal_abi.h>
#include <npuprof/record.h>

#define NPUPROF_TT_SQE_OTHER 0x100

static inline __u16 npuprof_sqe_task_type(unsigned int sqe_type)
{
	switch (sqe_type) {
	case ASCEND_SQE_TYPE_AIC:
	case ASCEND_SQE_TYPE_AIV:
		return NPUPROF_TT_KERNEL;
	case ASCEND_SQE_TYPE_SDMA:
		return NPUPROF_TT_MEMCPY;
	case ASCEND_SQE_TYPE_EVENT_RECORD:
		return NPUPROF_TT_EVENT_RECORD;
	default:
		return (__u16)(NPUPROF_TT_SQE_OTHER + (sqe_type & 0x3f));
	}
}

#endif /* NPUPROF_DRV_ASCEND_TASK_TYPE_H */
