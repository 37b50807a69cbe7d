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
 * 2500, 2500, 2500, 2500 and 3 rows; slices of 1 MB from 512 KB); make
 * check-all runs NPUPROF_BIG_TASKS=1000003 with msprof's own (1,000,000
 * rows: parts of 1,000,000 and 3; slices of 200 MB from 200 MB), without
 * check_prof.py (whose flow check is quadratic in a row's events: hours
 * at that size).  Skips (77) without python3.
 */
#include <time.h>

#include "bigprof.h"
#include "check.h"
#include "export.h"

#define CHECKER "../shared/checks/check_prof.py"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Lines of @path (-1 if unreadable); @head gets its first line. */
static long long count_lines(const char *path, char *head, size_t size)
{
	static char buf[1 << 20];
	long long n = 0;
	FILE *f = fopen(path, "r");
	size_t got;

	if (!f)
		return -1;
	if (!fgets(head, (int)size, f))
		head[0] = '\0';
	n = head[0] != '\0';
	while ((got = fread(buf, 1, sizeof(buf), f)))
		for (size_t i = 0; i < got; i++)
			n += buf[i] == '\n';
	fclose(f);
	return n;
}

/* <prefix><stamp>.csv and its parts: @n rows, at most @rows a part. */
static void check_csv_parts(const char *out, const char *prefix, const char *stamp, uint64_t n,
			    uint64_t rows)
{
	char path[2048], head0[4096] = "", head[4096];
	uint64_t k, left = n;

	for (k = 0;; k++) {
		long long lines;

		if (k)
			snprintf(path, sizeof(path), "%s/%s%s_%llu.csv", out, prefix, stamp,
				 (unsigned long long)k);
		else
			snprintf(path, sizeof(path), "%s/%s%s.csv", out, prefix, stamp);
		lines = count_lines(path, k ? head : head0, sizeof(head));
		if (lines < 0)
			break;
		CHECK_EQ(lines - 1, (long long)(left < rows ? left : rows));
		if (k)
			CHECK_STR(head, head0);
		left -= left < rows ? left : rows;
	}
	CHECK_EQ(k, (n + rows - 1) / rows);
	CHECK_EQ(left, 0);
}

/* The stamp of the export in @out, from its api_statistic (never split). */
static void stamp_of(const char *prof, char *stamp)
{
	char path[2048];

	stamp[0] = '\0';
	if (fx_find_output(prof, "api_statistic_", ".csv", path, sizeof(path)) == 1)
		snprintf(stamp, 15, "%s", strrchr(path, '_') + 1);
}

int main(void)
{
	const char *env = getenv("NPUPROF_BIG_TASKS");
	uint64_t n = env ? strtoull(env, NULL, 10) : 10003;
	int full = n >= 1000000;
	struct msprof_export_opts opts = { .csv_max_rows = full ? 0 : 2500,
					   .tl_slice_bytes = full ? 200ull << 20 : 1ull << 20,
					   .tl_slice_min = full ? 0 : 512ull << 10 };
	uint64_t rows = full ? 1000000 : opts.csv_max_rows;
	char root[256], prof[512], out[700], stamp[16], cmd[4000];
	double t0 = now_s(), t1, t2;
	int saved;

	if (system("python3 -c '' 2>/dev/null"))
		CHECK_SKIP("python3 not available");
	if (fx_tmpdir(root, sizeof(root)) || big_build(root, prof, sizeof(prof), n)) {
		fprintf(stderr, "cannot build the big PROF dir in /tmp\n");
		return 1;
	}
	t1 = now_s();
	saved = fx_fd_to(1, "/dev/null");
	opts.output = prof;
	CHECK_EQ(msprof_export(&opts), 0);
	fx_fd_back(1, saved);
	t2 = now_s();
	fprintf(stderr, "%llu tasks: generated in %.1f s, exported in %.1f s\n",
		(unsigned long long)n, t1 - t0, t2 - t1);
	snprintf(out, sizeof(out), "%s/mindstudio_profiler_output", prof);
	stamp_of(prof, stamp);
	check_csv_parts(out, "op_summary_", stamp, n, rows);
	check_csv_parts(out, "task_time_", stamp, n, rows);
	snprintf(cmd, sizeof(cmd), "python3 tests/unit/check_tl_slices.py '%s' %llu =%llu >&2", out,
		 (unsigned long long)opts.tl_slice_bytes, (unsigned long long)(4 * n));
	CHECK_EQ(system(cmd), 0);
	/* check_prof.py's flow check is quadratic in a row's events: small runs only */
	if (!full && !access(CHECKER, R_OK)) {
		snprintf(cmd, sizeof(cmd), "python3 " CHECKER " '%s' >&2", prof);
		CHECK_EQ(system(cmd), 0);
	}
	fprintf(stderr, "checked in %.1f s\n", now_s() - t2);
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
