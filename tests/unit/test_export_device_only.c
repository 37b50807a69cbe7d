// SPDX-License-Identifier: MIT
/*
 * Description: a PROF dir with device tasks but no runtime API call (no
 * host slice at all: a capture with --ascendcl=off, or whose API series
 * was lost) exports: task_time lists the three complete tasks with their
 * kernel names, api_statistic is its header alone, msprof_export()
 * returns 0.  fuzz_export found that the join then sorted a NULL array of
 * calls (undefined behaviour, caught by UBSan in asan/ and the fuzzer).
 */
#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

static const char task_time[] =
	"Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),"
	"task_stop(us)\n"
	"0,MEMCPY,MEMCPY,3,1,4000.000,1000010000.000,1000014000.000\n"
	"0,add_custom,AI_CORE,3,2,10000.000,1000016000.000,1000026000.000\n"
	"0,matmul_custom,AI_CORE,3,3,20000.000,1000028000.000,1000048000.000\n";

static const char api_statistic[] =
	"Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n";

/* Remove the fixture's host slices: the API series is gone. */
static int remove_api_series(const char *prof)
{
	static const char *const files[] = { "slice_0", "slice_0.done", "slice_1", "slice_1.done" };
	char path[1024];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/host/data/npuprof.api.%s", prof, files[i]);
		if (unlink(path))
			return -errno;
	}
	return 0;
}

int main(void)
{
	char root[256], prof[512], *tasks, *apis;
	struct msprof_export_opts opts = { 0 };

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 0, 0) ||
	    remove_api_series(prof)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	opts.output = prof;
	CHECK_EQ(msprof_export(&opts), 0);
	tasks = fx_read_output(prof, "task_time_", ".csv");
	apis = fx_read_output(prof, "api_statistic_", ".csv");
	CHECK_STR(tasks, task_time);
	CHECK_STR(apis, api_statistic);
	free(tasks);
	free(apis);
	fx_rmtree(root);
	return CHECK_DONE();
}
