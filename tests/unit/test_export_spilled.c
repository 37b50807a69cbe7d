// SPDX-License-Identifier: MIT
/*
 * Description: the export's memory bound changes nothing it writes.  The
 * fixture PROF dir (nested calls, a STREAM_SYNC, a task cut by the window,
 * a fitted device clock) is exported with the sorters' normal memory,
 * where every sorter stays in memory, and again with room for two records
 * per sorter, where every sorter (task records, calls, probes, links,
 * waits, the tasks' spool, the writers' orders by start, the busy-time
 * spans, the step gaps) spills a run every two records and merges them:
 * the five files and the database are byte-identical, and the PROF dir
 * holds nothing the spills left.
 */
#include "check.h"
#include "export.h"
#include "export_model.h"
#include "test_export_fixture.h"

static const struct {
	const char *prefix, *ext;
} outputs[] = {
	{ "msprof_", ".json" },		{ "api_statistic_", ".csv" }, { "op_summary_", ".csv" },
	{ "op_statistic_", ".csv" },	{ "task_time_", ".csv" },
};

#define N_OUT (sizeof(outputs) / sizeof(outputs[0]))

/* Entries of directory @path, "." and ".." aside; -1 if it cannot be read. */
static int entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

/* The database's bytes, *@len of them (malloc'ed), NULL if not exactly one. */
static char *read_db(const char *prof, size_t *len)
{
	char path[1024], *s;
	struct stat st;
	int tmps;

	if (fx_find_db(prof, path, sizeof(path), &tmps) != 1 || stat(path, &st))
		return NULL;
	*len = (size_t)st.st_size;
	s = fx_slurp(path);
	return s;
}

static void export_into(const char *prof, char *text[N_OUT], char **db, size_t *db_len)
{
	struct msprof_export_opts opts = { .output = prof };

	CHECK_EQ(msprof_export(&opts), 0);
	for (size_t i = 0; i < N_OUT; i++) {
		text[i] = fx_read_output(prof, outputs[i].prefix, outputs[i].ext);
		CHECK(text[i] != NULL);
	}
	*db = read_db(prof, db_len);
	CHECK(*db != NULL);
}

int main(void)
{
	char root[256], prof[512], *in_mem[N_OUT], *spilled[N_OUT], *db_mem, *db_spilled;
	size_t len_mem = 0, len_spilled = 1;

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 1, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	export_into(prof, in_mem, &db_mem, &len_mem);
	xm_sort_mem = 1; /* two records: the least a sorter holds */
	export_into(prof, spilled, &db_spilled, &len_spilled);
	xm_sort_mem = XM_SORT_MEM;
	for (size_t i = 0; i < N_OUT; i++) {
		if (!in_mem[i] || !spilled[i])
			continue;
		CHECK(strlen(in_mem[i]) > 100); /* a header and rows, not just a header */
		if (strcmp(in_mem[i], spilled[i]))
			fprintf(stderr, "%s%s differs when spilled\n", outputs[i].prefix,
				outputs[i].ext);
		CHECK_EQ(strcmp(in_mem[i], spilled[i]), 0);
		free(in_mem[i]);
		free(spilled[i]);
	}
	CHECK_EQ(len_mem, len_spilled);
	CHECK(db_mem && db_spilled && !memcmp(db_mem, db_spilled, len_mem));
	free(db_mem);
	free(db_spilled);
	CHECK_EQ(fx_count_outputs(prof), (int)N_OUT);
	/* host, device_0, the outputs, the database: no run file left */
	CHECK_EQ(entries(prof), 4);
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
