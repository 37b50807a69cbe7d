// SPDX-License-Identifier: MIT
/*
 * Description: which files a re-export removes as an earlier export's,
 * and what it does when every stamp it could take is taken.
 *
 * 1. In mindstudio_profiler_output, an earlier export's CSV part
 *    (op_summary_20200101000000_1.csv), timeline slice
 *    (msprof_3_20200101000000.json) and a killed export's part
 *    (task_time_20200101000000_2.csv.tmp) go; names in a shape we never
 *    write stay: a slice-shaped CSV (op_summary_3_20200101000000.csv)
 *    and a part-shaped timeline (msprof_20200101000000_1.json).  Before
 *    the fix any shape was taken for any file, so those two were deleted.
 * 2. With the database names of the next 70 seconds taken
 *    (msprof_<stamp>.db planted in the PROF dir), the export fails with
 *    -EEXIST and writes nothing.  Before the fix it fell through to a
 *    taken stamp and renamed over that set, mixing two exports.
 */
#include <time.h>

#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

static void plant(const char *dir, const char *name)
{
	char path[2048];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CHECK_EQ(fx_write_file(path, "x", 1), 0);
}

static int present(const char *dir, const char *name)
{
	char path[2048];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

int main(void)
{
	static const char *const gone[] = { "op_summary_20200101000000_1.csv",
					    "msprof_3_20200101000000.json",
					    "task_time_20200101000000_2.csv.tmp" };
	static const char *const kept[] = { "op_summary_3_20200101000000.csv",
					    "msprof_20200101000000_1.json" };
	struct msprof_export_opts opts = { 0 };
	char root[256], prof[512], out[1024], name[64];
	time_t now = time(NULL);
	struct tm tm;

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 1, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	snprintf(out, sizeof(out), "%s/mindstudio_profiler_output", prof);
	CHECK_EQ(mkdir(out, 0750), 0);
	for (size_t i = 0; i < 3; i++)
		plant(out, gone[i]);
	for (size_t i = 0; i < 2; i++)
		plant(out, kept[i]);
	opts.output = prof;
	CHECK_EQ(msprof_export(&opts), 0);
	for (size_t i = 0; i < 3; i++)
		CHECK(!present(out, gone[i]));
	for (size_t i = 0; i < 2; i++)
		CHECK(present(out, kept[i]));
	CHECK_EQ(fx_count_outputs(prof), 5 + 2);

	/* 2: every stamp of the next 70 s taken */
	for (int i = 0; i < 70; i++) {
		time_t t = now + i;

		localtime_r(&t, &tm);
		strftime(name, sizeof(name), "msprof_%Y%m%d%H%M%S.db", &tm);
		if (!present(prof, name))
			plant(prof, name);
	}
	CHECK_EQ(msprof_export(&opts), -EEXIST);
	CHECK_EQ(fx_count_outputs(prof), 5 + 2); /* the first export's set, untouched */
	fx_rmtree(root);
	return CHECK_DONE();
}
