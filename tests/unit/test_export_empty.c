// SPDX-License-Identifier: MIT
/*
 * Description: exporting nothing fails clearly.  A PROF dir with its
 * folders and control files but no records gives -ENODATA and the
 * "no profiling data in <dir>" message, and writes no output files; a
 * folder with no PROF_* directory gives -ENOENT; a missing --output gives
 * -ENOENT too.
 */
#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

static char *run_capturing_stderr(struct msprof_export_opts *opts, const char *file,
				  int *rc)
{
	int saved = fx_stderr_to(file);

	*rc = msprof_export(opts);
	fx_stderr_back(saved);
	return fx_slurp(file);
}

int main(void)
{
	char root[256], prof[512], errpath[300], none[300];
	struct msprof_export_opts opts = { 0 };
	char *text;
	int rc;

	if (fx_tmpdir(root, sizeof(root))) {
		fprintf(stderr, "cannot make a directory in /tmp\n");
		return 1;
	}
	snprintf(errpath, sizeof(errpath), "%s/stderr.txt", root);
	snprintf(prof, sizeof(prof), "%s/" FX_PROF_NAME, root);
	CHECK_EQ(fx_mkdirs(prof), 0);
	CHECK_EQ(fx_control_files(prof), 0);
	opts.output = prof;
	text = run_capturing_stderr(&opts, errpath, &rc);
	CHECK_EQ(rc, -ENODATA);
	CHECK(text && strstr(text, "[ERROR]") && strstr(text, "no profiling data in ") &&
	      strstr(text, FX_PROF_NAME) && strstr(text, "start/stop window"));
	free(text);
	CHECK(fx_count_outputs(prof) <= 0);

	/* the parent folder: the one PROF dir inside fails, so does the export */
	opts.output = root;
	CHECK_EQ(msprof_export(&opts), -ENODATA);

	/* a folder with no PROF_* dir */
	snprintf(none, sizeof(none), "%s/empty", root);
	mkdir(none, 0755);
	opts.output = none;
	text = run_capturing_stderr(&opts, errpath, &rc);
	CHECK_EQ(rc, -ENOENT);
	CHECK(text && strstr(text, "no PROF_* directory found"));
	free(text);

	snprintf(none, sizeof(none), "%s/missing", root);
	opts.output = none;
	text = run_capturing_stderr(&opts, errpath, &rc);
	CHECK_EQ(rc, -ENOENT);
	free(text);
	fx_rmtree(root);
	return CHECK_DONE();
}
