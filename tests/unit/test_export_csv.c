// SPDX-License-Identifier: MIT
/*
 * Description: the summary CSVs carry msprof's documented headers and
 * exactly the expected rows: api_statistic (count/total/avg/min/max/
 * population variance per API), op_summary (kernel tasks by start time,
 * host-clock start, duration, wait since the previous task on the stream
 * ended), op_statistic (per op type, ratio of device time) and task_time
 * (every task with a start and an end).  Task 4 (no END) is in none.
 */
#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

#define OP_SUMMARY_TAIL ",,,,,,,,,,,,,"

static const char api_statistic[] =
	"Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n"
	"host,AscendCL,aclrtSynchronizeStream,43500.000,1,43500.000,43500.000,43500.000,0.000\n"
	"host,AscendCL,aclrtLaunchKernel,9.000,3,3.000,1.000,6.000,4.667\n"
	"host,AscendCL,aclrtMemcpyAsync,4.000,1,4.000,4.000,4.000,0.000\n"
	"host,AscendCL,aclrtMalloc,3.000,1,3.000,3.000,3.000,0.000\n";

static const char op_summary[] =
	"Device_id,Model Name,Model ID,Task ID,Stream ID,Infer ID,Op Name,OP Type,OP State,"
	"Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Num,"
	"HF32 Eligible,Mix Block Num,Input Shapes,Input Data Types,Input Formats,"
	"Output Shapes,Output Data Types,Output Formats,Context ID,aiv_time(us),"
	"aicore_time(us),total_cycles\n"
	"0,,,2,3,,add_custom,add_custom,,AI_CORE,1000016000.000,10000.000,2000.000" OP_SUMMARY_TAIL "\n"
	"0,,,3,3,,matmul_custom,matmul_custom,,AI_CORE,1000028000.000,20000.000,2000.000" OP_SUMMARY_TAIL "\n";

static const char op_statistic[] =
	"Device_id,Model Name,OP Type,Core Type,Count,Total Time(us),Avg Time(us),"
	"Min Time(us),Max Time(us),Ratio(%)\n"
	"0,,matmul_custom,AI_CORE,1,20000.000,20000.000,20000.000,20000.000,66.667\n"
	"0,,add_custom,AI_CORE,1,10000.000,10000.000,10000.000,10000.000,33.333\n";

static const char task_time[] =
	"Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),"
	"task_stop(us)\n"
	"0,MEMCPY,MEMCPY,3,1,4000.000,1000010000.000,1000014000.000\n"
	"0,add_custom,AI_CORE,3,2,10000.000,1000016000.000,1000026000.000\n"
	"0,matmul_custom,AI_CORE,3,3,20000.000,1000028000.000,1000048000.000\n";

static void check_file(const char *prof, const char *prefix, const char *want)
{
	char path[2048];
	char *got;

	CHECK_EQ(fx_find_output(prof, prefix, ".csv", path, sizeof(path)), 1);
	got = fx_slurp(path);
	CHECK_STR(got, want);
	free(got);
}

int main(void)
{
	char root[256], prof[512];
	struct msprof_export_opts opts = { 0 };

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 1, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	opts.output = prof;
	CHECK_EQ(msprof_export(&opts), 0);
	check_file(prof, "api_statistic_", api_statistic);
	check_file(prof, "op_summary_", op_summary);
	check_file(prof, "op_statistic_", op_statistic);
	check_file(prof, "task_time_", task_time);
	fx_rmtree(root);
	return CHECK_DONE();
}
