// SPDX-License-Identifier: MIT
/*
 * Description: the fixture PROF dir and its export pass the project's
 * PROF checker (check_prof.py: layout, .done sizes, control files, Chrome
 * trace shape, paired flows, CSV headers and column counts).  Skips (77)
 * when python3 or the checker is missing.  The checker lives in the
 * shared/ folder beside the repository (../shared from the repo root,
 * where tests/run.sh runs); NPUPROF_CHECK_PROF overrides its path.
 */
#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

#define DEFAULT_CHECKER "../shared/checks/check_prof.py"

int main(void)
{
	const char *checker = getenv("NPUPROF_CHECK_PROF");
	char root[256], prof[512], cmd[1200];
	struct msprof_export_opts opts = { 0 };
	int rc;

	if (!checker)
		checker = DEFAULT_CHECKER;
	if (access(checker, R_OK) || system("python3 -c '' 2>/dev/null"))
		CHECK_SKIP("check_prof.py or python3 not available");
	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 1, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	opts.output = root;
	CHECK_EQ(msprof_export(&opts), 0);
	snprintf(cmd, sizeof(cmd), "python3 '%s' '%s'", checker, root);
	rc = system(cmd);
	CHECK_EQ(rc, 0);
	fx_rmtree(root);
	return CHECK_DONE();
}
