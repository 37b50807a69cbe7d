// SPDX-License-Identifier: MIT
/*
 * Description: a device slice whose last zstd frame was cut short (the
 * collector died mid-write) still exports: the tasks of the complete
 * frames are there (MEMCPY and add_custom), the cut frame's records are
 * not, a warning names the series, and msprof_export() returns 0.
 */
#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

int main(void)
{
	char root[256], prof[512], path[2048], errpath[300];
	struct msprof_export_opts opts = { 0 };
	char *csv, *err_text;
	int saved, rc;

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 0, 1)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	/* capture stderr to see the warning */
	snprintf(errpath, sizeof(errpath), "%s/stderr.txt", root);
	saved = fx_stderr_to(errpath);
	opts.output = prof;
	rc = msprof_export(&opts);
	fx_stderr_back(saved);
	CHECK_EQ(rc, 0);
	err_text = fx_slurp(errpath);
	CHECK(err_text && strstr(err_text, "[WARNING]") &&
	      strstr(err_text, "device_0/data/npuprof.task.0.slice_*") &&
	      strstr(err_text, "do not form a whole record"));
	if (err_text)
		fputs(err_text, stderr);
	free(err_text);
	CHECK_EQ(fx_find_output(prof, "task_time_", ".csv", path, sizeof(path)), 1);
	csv = fx_slurp(path);
	CHECK_STR(csv, "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),"
		       "task_start(us),task_stop(us)\n"
		       "0,MEMCPY,MEMCPY,3,1,4000.000,1000010000.000,1000014000.000\n"
		       "0,add_custom,AI_CORE,3,2,10000.000,1000016000.000,1000026000.000\n");
	free(csv);
	fx_rmtree(root);
	return CHECK_DONE();
}
