// SPDX-License-Identifier: MIT
/*
 * Description: a folder where some PROF dirs export and others fail is a
 * partial export, not a failure.  With a good PROF dir and one holding
 * control files but no record, msprof_export() returns -ENODATA (the
 * failed one's error) with exported 1, which msprof turns into exit
 * status 4 (partial; before, 1 "nothing exported" although one was); the
 * failed one alone gives exported 0 (status 1); the good one alone gives
 * 0 and exported 1.
 */
#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

int main(void)
{
	char root[256], good[512], empty[600], errpath[300];
	struct msprof_export_opts opts = { 0 };
	int saved;

	if (fx_tmpdir(root, sizeof(root)))
		CHECK_SKIP("cannot make a directory in /tmp");
	snprintf(errpath, sizeof(errpath), "%s/stderr.txt", root);
	CHECK_EQ(fx_build(root, good, sizeof(good), 0, 0), 0);
	snprintf(empty, sizeof(empty), "%s/PROF_000001_20260101120000123_00004343ABCDEFGH", root);
	CHECK_EQ(fx_mkdirs(empty), 0);
	CHECK_EQ(fx_control_files(empty), 0);

	saved = fx_stderr_to(errpath);
	opts.output = root;
	CHECK_EQ(msprof_export(&opts), -ENODATA);
	CHECK_EQ(opts.exported, 1);
	opts.output = empty;
	CHECK_EQ(msprof_export(&opts), -ENODATA);
	CHECK_EQ(opts.exported, 0);
	opts.output = good;
	CHECK_EQ(msprof_export(&opts), 0);
	CHECK_EQ(opts.exported, 1);
	fx_stderr_back(saved);
	fx_rmtree(root);
	return CHECK_DONE();
}
