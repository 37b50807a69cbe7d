// SPDX-License-Identifier: MIT
/*
 * Description: a big generated PROF dir (bigprof.h: N kernel launches
 * written through libnpuprof's slice writer) exported with CSV rollover
 * and timeline slicing.  op_summary and task_time have N rows: their
 * parts hold exactly ROWS, ROWS, ..., the rest, each with the header of
 * part 0; the timeline slices (check_tl_slices.py) each parse alone, stay
 * within the cap, repeat the metadata, keep every flow's two ends
 * together and hold 4N events in all (N calls, N tasks, N flows of two
 * ends); check_prof.py passes on the PROF dir.
 *
 * make check runs N = 10,003 with test-sized limits (ROWS 2,500: parts of
 * 2500, 2500, 2500, 2500 and 3 rows; slices of 1 MB from 512 KB).  make
 * check-all also runs NPUPROF_BIG_TASKS=1000003, which takes msprof's own
 * limits (1,000,000 rows: parts of 1,000,000 and 3; slices of 200 MB from
 * 200 MB), to have that export's slices parsed as JSON (over a minute,
 * 2.6 GB of memory; make check covers the same export with
 * test_export_big_msprof.c, its slices scanned in C), without
 * check_prof.py (whose flow check is quadratic in a row's events: hours
 * at that size).  Skips (77) without python3.
 */
#include "bigexport.h"

#define CHECKER "../shared/checks/check_prof.py"

int main(void)
{
	const char *env = getenv("NPUPROF_BIG_TASKS");
	uint64_t n = env ? strtoull(env, NULL, 10) : 10003;
	int full = n >= 1000000;
	struct msprof_export_opts opts = { .csv_max_rows = full ? 0 : 2500,
					   .tl_slice_bytes = full ? 200ull << 20 : 1ull << 20,
					   .tl_slice_min = full ? 0 : 512ull << 10 };
	uint64_t rows = full ? 1000000 : opts.csv_max_rows;
	struct big_paths p;
	char cmd[4000];
	double t;

	if (system("python3 -c '' 2>/dev/null"))
		CHECK_SKIP("python3 not available");
	if (big_export(n, &opts, &p))
		return 1;
	t = big_now_s();
	big_check_csv_parts(p.out, "op_summary_", p.stamp, n, rows);
	big_check_csv_parts(p.out, "task_time_", p.stamp, n, rows);
	snprintf(cmd, sizeof(cmd), "python3 tests/unit/check_tl_slices.py '%s' %llu =%llu >&2",
		 p.out, (unsigned long long)opts.tl_slice_bytes, (unsigned long long)(4 * n));
	CHECK_EQ(system(cmd), 0);
	/* check_prof.py's flow check is quadratic in a row's events: small runs only */
	if (!full && !access(CHECKER, R_OK)) {
		snprintf(cmd, sizeof(cmd), "python3 " CHECKER " '%s' >&2", p.prof);
		CHECK_EQ(system(cmd), 0);
	}
	fprintf(stderr, "checked in %.1f s\n", big_now_s() - t);
	if (!check_failures)
		fx_rmtree(p.root);
	return CHECK_DONE();
}
