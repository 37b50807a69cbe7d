// SPDX-License-Identifier: MIT
/*
 * Description: summary CSVs roll over at csv_max_rows data rows
 * (export_split.h; msprof's 1,000,000, lowered here).  The fixture's
 * api_statistic has 4 rows, op_summary and op_statistic 2.  At 2 rows
 * per file: api_statistic_<ts>.csv holds the header and rows 1-2,
 * api_statistic_<ts>_1.csv the header and rows 3-4, and no _2; the two
 * CSVs of exactly 2 rows stay one file (no _1).  At 3: api_statistic
 * rows 1-3, then _1 with row 4.  Joined back (headers dropped) the parts
 * are byte for byte the unsplit export.  A re-export without the cut
 * removes every part of the earlier set: 5 files are left.
 */
#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

/* The file <prof>/mindstudio_profiler_output/<prefix><stamp><tail>, or NULL. */
static char *part(const char *prof, const char *prefix, const char *stamp, const char *tail)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/mindstudio_profiler_output/%s%s%s", prof, prefix, stamp,
		 tail);
	return fx_slurp(path);
}

/* The 14-digit stamp of the export in @prof (from its op_summary). */
static void stamp_of(const char *prof, char *stamp)
{
	char path[2048];
	const char *p;

	stamp[0] = '\0';
	if (fx_find_output(prof, "op_summary_", ".csv", path, sizeof(path)) != 1)
		return;
	p = strrchr(path, '/') + 1 + strlen("op_summary_");
	memcpy(stamp, p, 14);
	stamp[14] = '\0';
}

static size_t lines(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* @whole's header line, then @nparts parts with their headers dropped, equal @whole. */
static void check_parts(const char *prof, const char *prefix, const char *stamp, const char *whole,
			unsigned int nparts, const size_t *rows)
{
	const char *body = strchr(whole, '\n') + 1;
	size_t hlen = (size_t)(body - whole), off = 0;
	char tail[32], *p;

	for (unsigned int k = 0; k <= nparts; k++) {
		if (k)
			snprintf(tail, sizeof(tail), "_%u.csv", k);
		else
			snprintf(tail, sizeof(tail), ".csv");
		p = part(prof, prefix, stamp, tail);
		if (k == nparts) {
			CHECK(p == NULL); /* no part past the last */
			free(p);
			break;
		}
		CHECK(p != NULL);
		if (!p)
			return;
		CHECK(!strncmp(p, whole, hlen)); /* its own header */
		CHECK_EQ(lines(p), rows[k] + 1);
		CHECK(!strncmp(p + hlen, body + off, strlen(p + hlen)));
		off += strlen(p + hlen);
		free(p);
	}
	CHECK_EQ(off, strlen(body));
}

int main(void)
{
	char root[256], prof[512], stamp[16], path[2048];
	struct msprof_export_opts opts = { .csv_max_rows = 2 };
	static const size_t two[] = { 2 }, api2[] = { 2, 2 }, api3[] = { 3, 1 };
	char *op, *api, *stat;
	int saved;

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 0, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	saved = fx_fd_to(1, "/dev/null");
	/* the unsplit export, kept in memory */
	opts.output = prof;
	opts.csv_max_rows = 0;
	CHECK_EQ(msprof_export(&opts), 0);
	stamp_of(prof, stamp);
	op = part(prof, "op_summary_", stamp, ".csv");
	api = part(prof, "api_statistic_", stamp, ".csv");
	stat = part(prof, "op_statistic_", stamp, ".csv");
	CHECK(op && api && stat);
	CHECK_EQ(lines(op), 3);
	CHECK_EQ(lines(api), 5);
	CHECK_EQ(lines(stat), 3);

	opts.csv_max_rows = 2;
	CHECK_EQ(msprof_export(&opts), 0);
	stamp_of(prof, stamp);
	if (op && api && stat) {
		check_parts(prof, "op_summary_", stamp, op, 1, two);
		check_parts(prof, "api_statistic_", stamp, api, 2, api2);
		check_parts(prof, "op_statistic_", stamp, stat, 1, two);
	}
	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, sizeof(path)), 1);
	opts.csv_max_rows = 3;
	CHECK_EQ(msprof_export(&opts), 0);
	stamp_of(prof, stamp);
	if (api)
		check_parts(prof, "api_statistic_", stamp, api, 2, api3);

	/* a re-export without the cut removes every part of that set */
	opts.csv_max_rows = 0;
	CHECK_EQ(msprof_export(&opts), 0);
	fx_fd_back(1, saved);
	CHECK_EQ(fx_count_outputs(prof), 5);
	free(op);
	free(api);
	free(stat);
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
