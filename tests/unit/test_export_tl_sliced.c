// SPDX-License-Identifier: MIT
/*
 * Description: timeline slicing (export_tl_slice.h) with a test-sized cap
 * and threshold.  The fixture is exported whole, then sliced at 2400
 * bytes per slice: msprof_0_<ts>.json, msprof_1_<ts>.json, ... (no
 * unsliced file), checked by check_tl_slices.py: each at most 2400 bytes
 * and a valid trace alone, the same metadata in each as in the whole
 * file, every flow's s and f in one slice, and the other events of all
 * slices exactly the whole file's.  check_prof.py passes on the sliced
 * export.  With the threshold above the timeline's size nothing is sliced.
 * Skips (77) without python3.
 */
#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

#define CHECKER "../shared/checks/check_prof.py"
#define CAP 2400

static int run(const char *cmd)
{
	int rc = system(cmd);

	if (rc)
		fprintf(stderr, "failed (%d): %s\n", rc, cmd);
	return rc;
}

int main(void)
{
	char root[256], prof[512], whole[2048], cmd[6000];
	struct msprof_export_opts opts = { 0 };
	int saved;

	if (system("python3 -c '' 2>/dev/null"))
		CHECK_SKIP("python3 not available");
	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 1, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	saved = fx_fd_to(1, "/dev/null");
	opts.output = prof;
	CHECK_EQ(msprof_export(&opts), 0);
	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", whole, sizeof(whole)), 1);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s/whole.json'", whole, root);
	CHECK_EQ(run(cmd), 0);

	/* a threshold above the file's size: one whole file still */
	opts.tl_slice_bytes = CAP;
	opts.tl_slice_min = 1 << 20;
	CHECK_EQ(msprof_export(&opts), 0);
	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", whole, sizeof(whole)), 1);

	opts.tl_slice_min = 1;
	CHECK_EQ(msprof_export(&opts), 0);
	fx_fd_back(1, saved);
	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", whole, sizeof(whole)), 0);
	snprintf(cmd, sizeof(cmd),
		 "python3 tests/unit/check_tl_slices.py '%s/mindstudio_profiler_output' %d "
		 "'%s/whole.json' >&2",
		 prof, CAP, root);
	CHECK_EQ(run(cmd), 0);
	if (!access(CHECKER, R_OK)) {
		snprintf(cmd, sizeof(cmd), "python3 " CHECKER " '%s' >&2", prof);
		CHECK_EQ(run(cmd), 0);
	}
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
