// SPDX-License-Identifier: MIT
/*
 * Description: API ids map to the names msprof shows (public ACL names at
 * level 20000, CANN's runtime profiling names at level 5000) and to their
 * CANN level and its name; task types map to the msprof "Task Type" texts;
 * ids outside the tables give NULL (level 0).
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
	CHECK_STR(npuprof_api_name(20), "SetDevice");
	CHECK_STR(npuprof_api_name(NPUPROF_API_RTS_KERNEL_LAUNCH), "KernelLaunch");
	CHECK_STR(npuprof_api_name(NPUPROF_API_RTS_MEMCPY), "MemCopySync");
	CHECK_STR(npuprof_api_name(NPUPROF_API_RTS_DEV_MALLOC), "DevMalloc");
	CHECK_STR(npuprof_api_name(33), "EventRecord");
	CHECK_EQ(NPUPROF_API_MAX, 34);
	CHECK(npuprof_api_name(34) == NULL);
	CHECK(npuprof_api_name(0xffffffffu) == NULL);
	for (unsigned int i = 1; i < NPUPROF_API_MAX; i++)
		CHECK(npuprof_api_name(i) != NULL);

	const char *lname = "x";

	CHECK_EQ(npuprof_api_level(NPUPROF_API_ACL_INIT, &lname), 20000);
	CHECK_STR(lname, "AscendCL");
	CHECK_EQ(npuprof_api_level(19, &lname), 20000);
	CHECK_EQ(npuprof_api_level(20, &lname), 5000);
	CHECK_STR(lname, "Runtime");
	CHECK_EQ(npuprof_api_level(NPUPROF_API_RTS_EVENT_RECORD, NULL), 5000);
	CHECK_EQ(npuprof_api_level(0, &lname), 0);
	CHECK(lname == NULL);
	CHECK_EQ(npuprof_api_level(34, &lname), 0);
	CHECK_EQ(npuprof_api_level(0xffffffffu, NULL), 0);
	CHECK(npuprof_level_name(10000) == NULL);
	for (unsigned int i = 1; i < NPUPROF_API_MAX; i++)
		CHECK_EQ(npuprof_api_level(i, NULL), i < 20 ? 20000u : 5000u);

	CHECK_STR(npuprof_task_type_name(NPUPROF_TT_KERNEL), "AI_CORE");
	CHECK_STR(npuprof_task_type_name(NPUPROF_TT_MEMCPY), "MEMCPY");
	CHECK_STR(npuprof_task_type_name(NPUPROF_TT_EVENT_RECORD), "EVENT_RECORD");
	CHECK_STR(npuprof_task_type_name(NPUPROF_TT_SYNC), "STREAM_SYNC");
	CHECK(npuprof_task_type_name(4) == NULL);
	CHECK(npuprof_task_type_name(0xffffffffu) == NULL);
	return CHECK_DONE();
}
