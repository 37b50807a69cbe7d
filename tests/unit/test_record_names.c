// SPDX-License-Identifier: MIT
/*
 * Description: API ids map to the public ACL names and task types to the
 * msprof "Task Type" texts; ids outside the tables give NULL.
 */
#include "check.h"

#include <npuprof/record_io.h>

int main(void)
{
	CHECK(npuprof_api_name(0) == NULL);
	CHECK_STR(npuprof_api_name(NPUPROF_API_ACL_INIT), "aclInit");
	CHECK_STR(npuprof_api_name(NPUPROF_API_RT_MEMCPY_ASYNC), "aclrtMemcpyAsync");
	CHECK_STR(npuprof_api_name(NPUPROF_API_RT_LAUNCH_KERNEL), "aclrtLaunchKernel");
	CHECK_STR(npuprof_api_name(NPUPROF_API_OP_EXECUTE_V2), "aclopExecuteV2");
	CHECK_STR(npuprof_api_name(19), "aclrtBinaryLoadFromFile");
	CHECK(npuprof_api_name(NPUPROF_API_MAX) == NULL);
	CHECK(npuprof_api_name(20) == NULL);
	CHECK(npuprof_api_name(0xffffffffu) == NULL);
	for (unsigned int i = 1; i < NPUPROF_API_MAX; i++)
		CHECK(npuprof_api_name(i) != NULL);

	CHECK_STR(npuprof_task_type_name(NPUPROF_TT_KERNEL), "AI_CORE");
	CHECK_STR(npuprof_task_type_name(NPUPROF_TT_MEMCPY), "MEMCPY");
	CHECK_STR(npuprof_task_type_name(NPUPROF_TT_EVENT_RECORD), "EVENT_RECORD");
	CHECK_STR(npuprof_task_type_name(NPUPROF_TT_SYNC), "STREAM_SYNC");
	CHECK(npuprof_task_type_name(4) == NULL);
	CHECK(npuprof_task_type_name(0xffffffffu) == NULL);
	return CHECK_DONE();
}
