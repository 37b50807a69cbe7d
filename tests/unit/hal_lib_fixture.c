// SPDX-License-Identifier: MIT
/*
 * A stand-in libascend_hal.so for the submit uprobe's test
 * (tests/vm/bpf_acl_trace_submit.c): it defines halSqTaskSend() with the
 * driver's prototype (include/npuprof/drv/ascend_hal_abi.h) and does
 * nothing, so the test sends SQEs it wrote itself and checks the records
 * the uprobe made of them.  Built as build/tests/fixtures/hal/
 * libascend_hal.so (Makefile, HAL_FIXTURE): the file name is what the
 * capture looks for in a process's maps.
 */
#include <stdint.h>

struct halTaskSendInfo;

int halSqTaskSend(uint32_t dev, struct halTaskSendInfo *info)
{
	(void)dev;
	(void)info;
	return 0;
}
