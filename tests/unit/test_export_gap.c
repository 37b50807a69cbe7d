// SPDX-License-Identifier: MIT
/*
 * Description: a slice series with a gap in its numbers is read past the
 * gap, and the gap is named as a reason the data is incomplete.  The
 * fixture's host/data/npuprof.api.slice_1 (3 calls) and its .done are
 * renamed slice_2, so slice_1 is missing between slice_0 and slice_2.
 * The model holds all 6 calls (before the fix the reader stopped at the
 * gap: 3 calls, the newer slice dropped without a word); the host
 * series' report says 1 slice missing, the first slice_1, 2 slices read;
 * and the reasons hold exactly "slice host/data/npuprof.api.slice_1 is
 * missing: its records are not exported; the slices after it are".
 */
#include "check.h"
#include "export_model.h"
#include "test_export_fixture.h"

/* Rename host slice_@from (and its .done) to slice_@to.  Return: 0 or -errno. */
static int move_slice(const char *prof, unsigned int from, unsigned int to)
{
	static const char *const ext[] = { "", ".done" };
	char a[1024], b[1024];

	for (size_t i = 0; i < 2; i++) {
		snprintf(a, sizeof(a), "%s/host/data/npuprof.api.slice_%u%s", prof, from, ext[i]);
		snprintf(b, sizeof(b), "%s/host/data/npuprof.api.slice_%u%s", prof, to, ext[i]);
		if (rename(a, b))
			return -errno;
	}
	return 0;
}

int main(void)
{
	static const char want[] = "slice host/data/npuprof.api.slice_1 is missing: its records are not exported; the slices after it are";
	char root[256], prof[512];
	struct export_model m;
	size_t i, found = 0;

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 0, 0) ||
	    move_slice(prof, 1, 2)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	CHECK_EQ(export_model_load(prof, &m), 0);
	CHECK_EQ(m.n_calls, 6);
	CHECK(m.n_series >= 1);
	if (m.n_series) {
		CHECK_STR(m.series[0].path, "host/data/npuprof.api");
		CHECK_EQ(m.series[0].rep.missing, 1);
		CHECK_EQ(m.series[0].rep.first_missing, 1);
		CHECK_EQ(m.series[0].rep.first_slice, 0);
		CHECK_EQ(m.series[0].rep.slices, 2);
	}
	for (i = 0; i < m.n_reasons; i++)
		found += !strcmp(m.reasons[i], want);
	CHECK_EQ(found, 1);
	if (check_failures)
		for (i = 0; i < m.n_reasons; i++)
			fprintf(stderr, "reason: %s\n", m.reasons[i]);
	export_model_free(&m);
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
