// SPDX-License-Identifier: MIT
/*
 * Description: exporting the same PROF dir again replaces the earlier
 * files instead of piling up: after two exports a second apart (different
 * <YYYYmmddHHMMSS> names) mindstudio_profiler_output holds exactly the 5
 * files of the last one, and a file that is not ours is left alone.
 */
#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

int main(void)
{
	char root[256], prof[512], path[2048], first[2048], keep[1100];
	struct msprof_export_opts opts = { 0 };

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 1, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	opts.output = prof;
	CHECK_EQ(msprof_export(&opts), 0);
	CHECK_EQ(fx_count_outputs(prof), 5);
	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", first, sizeof(first)), 1);
	snprintf(keep, sizeof(keep), "%s/mindstudio_profiler_output/README.txt", prof);
	CHECK_EQ(fx_write_file(keep, "mine\n", 5), 0);
	sleep(1);
	CHECK_EQ(msprof_export(&opts), 0);
	CHECK_EQ(fx_count_outputs(prof), 6);
	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, sizeof(path)), 1);
	CHECK(strcmp(path, first) != 0);
	CHECK_EQ(fx_find_output(prof, "api_statistic_", ".csv", path, sizeof(path)), 1);
	CHECK_EQ(fx_find_output(prof, "op_summary_", ".csv", path, sizeof(path)), 1);
	CHECK_EQ(fx_find_output(prof, "op_statistic_", ".csv", path, sizeof(path)), 1);
	CHECK_EQ(fx_find_output(prof, "task_time_", ".csv", path, sizeof(path)), 1);
	CHECK(access(keep, F_OK) == 0);
	fx_rmtree(root);
	return CHECK_DONE();
}
