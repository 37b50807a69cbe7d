// SPDX-License-Identifier: MIT
/*
 * Description: a PROF dir as kill -9 of msprof leaves it before the first
 * flush (host/start_info only, no slice at all) exports nothing
 * (-ENODATA, so msprof exits 1) but still says why: stderr is exactly the
 * "no profiling data" line and the three reasons, no end_info, no
 * info.json, no sample.json.
 */
#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

static int build(const char *root, char *prof, size_t size)
{
	int err;

	snprintf(prof, size, "%s/" FX_PROF_NAME, root);
	err = fx_mkdirs(prof);
	return err ? err : fx_killed_control_files(prof);
}

int main(void)
{
	char root[256], prof[512], errpath[300], want[2048];
	struct msprof_export_opts opts = { 0 };
	char *text;
	int saved, rc;

	if (fx_tmpdir(root, sizeof(root)) || build(root, prof, sizeof(prof))) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	snprintf(errpath, sizeof(errpath), "%s/stderr.txt", root);
	opts.output = prof;
	saved = fx_stderr_to(errpath);
	rc = msprof_export(&opts);
	fx_stderr_back(saved);
	CHECK_EQ(rc, -ENODATA);
	snprintf(want, sizeof(want),
		 "[ERROR] npuprof: no profiling data in %s: was the app's device work inside the start/stop window?\n"
		 "[ERROR] npuprof: " FX_PROF_NAME " is incomplete: collector stopped abruptly (or could not write it): no end_info\n"
		 "[ERROR] npuprof: " FX_PROF_NAME " is incomplete: no info.json: the records lost and the device clock samples are unknown\n"
		 "[ERROR] npuprof: " FX_PROF_NAME " is incomplete: no sample.json: the capture parameters are unknown\n",
		 prof);
	text = fx_slurp(errpath);
	CHECK_STR(text ?: "", want);
	free(text);
	CHECK_EQ(fx_count_outputs(prof), -1); /* no mindstudio_profiler_output made */
	if (!check_failures)
		fx_rmtree(root);
	else
		fprintf(stderr, "kept %s\n", root);
	return CHECK_DONE();
}
