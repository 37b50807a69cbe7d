// SPDX-License-Identifier: MIT
/*
 * msprof --export=on (export.h): for each PROF_XXX directory --output
 * names (npuprof_prof_dirs_find(), user/prof_layout.c), load its records
 * (export_model.c), write the output-file set (export_fileset.c), print
 * what a person reads (export_console.c), and, over several PROF dirs of
 * one job, the job table (export_job.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <npuprof/msg.h>
#include <npuprof/prof_control.h>
#include <npuprof/prof_layout.h>

#include "export.h"
#include "export_console.h"
#include "export_file.h"
#include "export_fileset.h"
#include "export_job.h"
#include "export_model.h"
#include "export_outcome.h"
#include "export_progress.h"
#include "export_timeline.h"

/*
 * Records the capture wrote (info.json "drain" "records"), for the
 * progress line's percentage; 0 when unknown.
 */
static uint64_t info_records(const char *dir)
{
	struct npuprof_ctrl_info_parsed info;
	char path[PATH_MAX];
	uint64_t n;

	snprintf(path, sizeof(path), "%s/" NPUPROF_PROF_INFO_JSON, dir);
	if (npuprof_ctrl_info_read(path, &info))
		return 0;
	n = info.records;
	npuprof_ctrl_info_free(&info);
	return n;
}

/* @row: filled for the job table when not NULL (and the export worked). */
static int export_one(const char *dir, struct msprof_export_opts *opts,
		      struct export_job_row *row)
{
	char text[EXPORT_PATH_TEXT_LEN], base[NPUPROF_NAME_TEXT_SIZE(NAME_MAX)];
	char out[EXPORT_PATH_TEXT_LEN + sizeof(EXPORT_OUT_DIR)];
	struct export_dest d = { .dir = text };
	struct export_progress progress;
	struct export_model m;
	int err;

	export_path_text(dir, text, sizeof(text));
	export_path_text(npuprof_prof_base_name(dir), base, sizeof(base));
	npuprof_info("Start export data in %s.", base);
	export_progress_start(&progress, stderr, base, info_records(dir));
	err = export_model_load_progress(dir, &m, &progress);
	/* then the timeline's events: calls, tasks and flows' two ends (twice when sliced) */
	export_progress_phase(&progress, "timeline events", export_tl_events(&m));
	if (err == -ENODATA)
		export_console_no_data(&m, text, base);
	else if (err)
		npuprof_err("loading %s: %s", text, strerror(-err));
	if (err)
		goto out_free;
	err = export_fileset_open(dir, opts->type == MSPROF_EXPORT_DB, out, sizeof(out), &d);
	if (err)
		goto out_free;
	err = export_fileset_write(&m, &d, opts);
	export_progress_end(&progress);
	m.progress = NULL;
	export_fileset_close(&d);
	if (err)
		goto out_free;
	npuprof_info("Export all data in %s done.", base);
	export_console_clocks(&m, base);
	for (size_t i = 0; i < m.n_reasons; i++)
		npuprof_warn("%s is incomplete: %s", base, m.reasons[i]);
	if (m.n_reasons)
		opts->incomplete++;
	if (opts->print_summary)
		export_console_summary(&m, &d);
	if (row)
		err = export_job_row(&m, row);
out_free:
	export_progress_end(&progress); /* a line still drawn on a failure */
	export_model_free(&m);
	return err;
}

int msprof_prof_dirs(const char *output, char ***dirs, long *n)
{
	char text[EXPORT_PATH_TEXT_LEN];
	int err = npuprof_prof_dirs_find(output, dirs, n);

	if (err)
		npuprof_err("--output=%s: %s", export_path_text(output, text, sizeof(text)),
			    strerror(-err));
	else if (!*n)
		npuprof_err("--output=%s: no PROF_* directory found; give a PROF_XXX directory or the folder that holds them",
			    export_path_text(output, text, sizeof(text)));
	return err ? err : *n ? 0 : -ENOENT;
}

void msprof_prof_dirs_free(char **dirs, long n)
{
	npuprof_prof_dirs_free(dirs, n);
}

int msprof_export(struct msprof_export_opts *opts)
{
	struct export_job_row *rows;
	char **dirs = NULL;
	size_t n_rows = 0;
	long n, i;
	int err, first = 0;

	if (!opts || !opts->output)
		return -EINVAL;
	opts->incomplete = 0;
	opts->exported = 0;
	if (npuprof_prof_dir_is(opts->output)) {
		err = export_one(opts->output, opts, NULL);
		opts->exported = !err;
		return err;
	}
	err = msprof_prof_dirs(opts->output, &dirs, &n);
	if (err) {
		npuprof_prof_dirs_free(dirs, n);
		return err;
	}
	rows = opts->print_summary ? calloc((size_t)n, sizeof(*rows)) : NULL;
	for (i = 0; i < n; i++) {
		err = export_one(dirs[i], opts, rows ? &rows[n_rows] : NULL);
		if (err && !first)
			first = err;
		opts->exported += !err;
		n_rows += rows && !err;
	}
	if (rows)
		export_job_print(rows, n_rows, stdout);
	free(rows);
	npuprof_prof_dirs_free(dirs, n);
	return first;
}
