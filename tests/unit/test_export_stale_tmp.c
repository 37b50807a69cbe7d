// SPDX-License-Identifier: MIT
/*
 * Description: the temporary files an export killed before its renames
 * leaves in mindstudio_profiler_output (msprof_<stamp>.json.tmp, ... of a
 * SIGINT or SIGKILL: hundreds of MB for a large capture) go with the next
 * export that completes.  Before the fix they stayed for good: a re-export
 * removed only <prefix><stamp><ext> names.  With two such files planted
 * (msprof_20200101000000.json.tmp, op_summary_20200101000000.csv.tmp)
 * and one that is not ours (notes.json.tmp), an export leaves exactly its
 * 5 files and notes.json.tmp.
 */
#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

int main(void)
{
	static const char *const stale[] = { "msprof_20200101000000.json.tmp",
					     "op_summary_20200101000000.csv.tmp" };
	char root[256], prof[512], path[2048], out[1024];
	struct msprof_export_opts opts = { 0 };

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 1, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	snprintf(out, sizeof(out), "%s/mindstudio_profiler_output", prof);
	CHECK_EQ(mkdir(out, 0750), 0);
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", out, stale[i]);
		CHECK_EQ(fx_write_file(path, "half", 4), 0);
	}
	snprintf(path, sizeof(path), "%s/notes.json.tmp", out);
	CHECK_EQ(fx_write_file(path, "mine\n", 5), 0);
	opts.output = prof;
	CHECK_EQ(msprof_export(&opts), 0);
	CHECK_EQ(fx_count_outputs(prof), 6);
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", out, stale[i]);
		CHECK_EQ(access(path, F_OK), -1);
	}
	snprintf(path, sizeof(path), "%s/notes.json.tmp", out);
	CHECK_EQ(access(path, F_OK), 0);
	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, sizeof(path)), 1);
	fx_rmtree(root);
	return CHECK_DONE();
}
