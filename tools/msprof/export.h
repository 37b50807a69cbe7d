/* SPDX-License-Identifier: MIT */
/*
 * msprof --export=on: turn PROF_XXX directories into
 * mindstudio_profiler_output/ (timeline JSON and summary CSVs).
 */
#ifndef MSPROF_EXPORT_H
#define MSPROF_EXPORT_H

/**
 * struct msprof_export_opts - export options
 * @output:        a PROF_XXX directory, or a directory holding several
 * @print_summary: 1 to print a short summary per PROF dir after exporting
 *                 (top ops by device time, API call counts, records lost)
 */
struct msprof_export_opts {
	const char *output;
	int print_summary;
};

/**
 * msprof_export() - export every PROF_XXX directory under @opts->output
 *
 * Prints msprof-style progress lines ("Start export data in PROF_....",
 * "Export all data in PROF_.... done.") and a clear message for each
 * problem.  Return: 0 when every PROF dir exported; -ENOENT when none was
 * found; otherwise the first negative errno (other dirs are still tried).
 */
int msprof_export(const struct msprof_export_opts *opts);

#endif /* MSPROF_EXPORT_H */
