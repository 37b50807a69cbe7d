// SPDX-License-Identifier: MIT
/*
 * Description: msprof's exit status after a dynamic or app mode run
 * (msprof_run_status(), README "Exit status"), one row per outcome: a
 * start that failed with nothing saved is 1, not 0 (--output under /proc);
 * a saved window with a write error is 3, not 0 (a full disk); some
 * processes captured and others not is 4; the launched app's non-zero
 * status wins over all of them.  A --result file that cannot be written
 * while every process was saved is 3 (incomplete), not 4: found by review.
 */
#include <errno.h>
#include <sys/wait.h>

#include "check.h"
#include "cmdloop.h"
#include "dynamic.h"

struct row {
	const char *what;
	int setup_rc;
	unsigned int failures, saved, incomplete;
	pid_t child;
	int child_status; /* wait status, when @child */
	int want;
};

static const struct row rows[] = {
	{ "quit without start", 0, 0, 0, 0, 0, 0, 0 },
	{ "one window saved", 0, 0, 1, 0, 0, 0, 0 },
	{ "setup failed (no module)", -ENOENT, 0, 0, 0, 0, 0, 1 },
	{ "start failed, nothing saved", 0, 0, 0, 1, 0, 0, 1 },
	{ "the only app refused start", 0, 1, 0, 0, 0, 0, 1 },
	{ "saved with a write error", 0, 0, 1, 1, 0, 0, 3 },
	{ "second start failed", 0, 0, 1, 1, 0, 0, 3 },
	{ "one of two pids refused", 0, 1, 1, 0, 0, 0, 4 },
	{ "write error and a refusal", 0, 1, 1, 1, 0, 0, 3 },
	{ "app exited 0, saved", 0, 0, 1, 0, 100, 0, 0 },
	{ "app exited 5", 0, 0, 1, 0, 100, 5 << 8, 5 },
	{ "app killed by 9, write error", 0, 0, 1, 1, 100, 9, 137 },
	{ "app exited 0, setup failed", -EIO, 0, 0, 0, 100, 0, 1 },
};

/* Every process saved, then the --result line failed (a full disk). */
static void test_result_write_failed(void)
{
	struct msprof_dyn d = { .saved = 2, .result = tmpfile() };

	if (!d.result)
		CHECK_SKIP("tmpfile failed");
	msprof_result_error(&d, -ENOSPC);
	CHECK(d.result == NULL);
	CHECK_EQ(d.failures, 0);
	CHECK_EQ(d.incomplete, 1);
	CHECK_EQ(msprof_run_status(&d, 0), MSPROF_EXIT_INCOMPLETE);
}

int main(void)
{
	test_result_write_failed();
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct msprof_dyn d = { .failures = r->failures, .saved = r->saved,
					.incomplete = r->incomplete, .child = r->child,
					.child_reaped = r->child > 0, .child_status = r->child_status };
		int got = msprof_run_status(&d, r->setup_rc);

		if (got != r->want)
			fprintf(stderr, "%s: ", r->what);
		CHECK_EQ(got, r->want);
	}
	return CHECK_DONE();
}
