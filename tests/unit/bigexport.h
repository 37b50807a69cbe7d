/* SPDX-License-Identifier: MIT */
/*
 * The big generated PROF dir (bigprof.h) exported with given limits, and
 * the check of its split summary CSVs, for the tests that export one:
 * test_export_big.c (test-sized limits, its timeline slices checked by
 * check_tl_slices.py) and test_export_big_msprof.c (msprof's limits, its
 * slices scanned in C).
 */
#ifndef NPUPROF_TEST_BIGEXPORT_H
#define NPUPROF_TEST_BIGEXPORT_H

#include <time.h>

#include "bigprof.h"
#include "check.h"
#include "export.h"

/* A monotonic time in seconds, for the phase timings the tests print. */
static inline double big_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Lines of @path (-1 if unreadable); @head gets its first line. */
static inline long long big_count_lines(const char *path, char *head, size_t size)
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

/*
 * <out>/<prefix><stamp>.csv and its parts <prefix><stamp>_<k>.csv: @n
 * data rows in all, @rows in every part but the last, each part with the
 * header of the first.
 */
static inline void big_check_csv_parts(const char *out, const char *prefix, const char *stamp,
				       uint64_t n, uint64_t rows)
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
		lines = big_count_lines(path, k ? head : head0, sizeof(head));
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

/**
 * struct big_paths - where big_export() put things
 * @root:  the temporary directory holding it all (fx_rmtree() it)
 * @prof:  the PROF dir, <root>/FX_PROF_NAME
 * @out:   its mindstudio_profiler_output/
 * @stamp: the export's YYYYmmddHHMMSS, from api_statistic (never split)
 */
struct big_paths {
	char root[256];
	char prof[512];
	char out[700];
	char stamp[16];
};

/*
 * Build a PROF dir of @n tasks under a new temporary directory and export
 * it with @opts (its output set here), msprof's progress lines silenced.
 * Prints how long each step took.  Return: 0, or -1 after a message.
 */
static inline int big_export(uint64_t n, struct msprof_export_opts *opts, struct big_paths *p)
{
	char path[2048];
	double t0 = big_now_s(), t1;
	int saved, err;

	memset(p, 0, sizeof(*p));
	if (fx_tmpdir(p->root, sizeof(p->root)) ||
	    big_build(p->root, p->prof, sizeof(p->prof), n)) {
		fprintf(stderr, "cannot build the big PROF dir in /tmp\n");
		return -1;
	}
	t1 = big_now_s();
	saved = fx_fd_to(1, "/dev/null");
	opts->output = p->prof;
	err = msprof_export(opts);
	fx_fd_back(1, saved);
	fprintf(stderr, "%llu tasks: generated in %.1f s, exported in %.1f s\n",
		(unsigned long long)n, t1 - t0, big_now_s() - t1);
	if (err) {
		fprintf(stderr, "msprof_export(%s) = %d, want 0\n", p->prof, err);
		return -1;
	}
	snprintf(p->out, sizeof(p->out), "%s/mindstudio_profiler_output", p->prof);
	if (fx_find_output(p->prof, "api_statistic_", ".csv", path, sizeof(path)) != 1) {
		fprintf(stderr, "%s: no api_statistic_<stamp>.csv to name the other files by\n",
			p->out);
		return -1;
	}
	snprintf(p->stamp, sizeof(p->stamp), "%.14s", strrchr(path, '_') + 1);
	return 0;
}

#endif /* NPUPROF_TEST_BIGEXPORT_H */
