// SPDX-License-Identifier: MIT
/*
 * Description: the per-task CSVs' row order (device, start, stream) is
 * sorted once per export, not once per CSV.  Before the fix op_summary
 * and task_time each sorted every drawn task again.  On the fixture, with
 * the sorters' normal memory and with room for two records (every run
 * spilled): op_summary builds m->by_start, task_time reads the same one
 * (the pointer is unchanged), and writing both again gives the same bytes
 * (op_summary 2 kernel rows, task_time 3 rows, each after its header).
 */
#include "check.h"
#include "export_model.h"
#include "export_summary.h"
#include "test_export_fixture.h"

typedef int (*writer_fn)(const struct export_model *m, FILE *f);

/* What @fn writes for @m, malloc'ed. */
static char *write_to_mem(const struct export_model *m, writer_fn fn)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK_EQ(fn(m, f), 0);
	fclose(f);
	return text;
}

static int lines(const char *s)
{
	int n = 0;

	while (s && (s = strchr(s, '\n')))
		n++, s++;
	return n;
}

static void check_once(const char *prof)
{
	struct export_model m;
	struct xsort *first;
	char *sum1, *time1, *sum2, *time2;

	CHECK_EQ(export_model_load(prof, &m), 0);
	CHECK(m.by_start == NULL);
	sum1 = write_to_mem(&m, export_write_op_summary);
	first = m.by_start;
	CHECK(first != NULL);
	time1 = write_to_mem(&m, export_write_task_time);
	CHECK(m.by_start == first);
	sum2 = write_to_mem(&m, export_write_op_summary);
	time2 = write_to_mem(&m, export_write_task_time);
	CHECK(m.by_start == first);
	CHECK_EQ(lines(sum1), 1 + 2);
	CHECK_EQ(lines(time1), 1 + 3);
	CHECK_STR(sum2, sum1);
	CHECK_STR(time2, time1);
	free(sum1);
	free(time1);
	free(sum2);
	free(time2);
	export_model_free(&m);
}

int main(void)
{
	char root[256], prof[512];

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 1, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	check_once(prof);
	xm_sort_mem = 1; /* every run spilled: rewinding must still read them all */
	check_once(prof);
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
