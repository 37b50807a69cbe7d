/* SPDX-License-Identifier: MIT */
/*
 * msprof --export=on: turn PROF_XXX directories into
 * mindstudio_profiler_output/ (timeline JSON and summary CSVs) and
 * msprof_<YYYYmmddHHMMSS>.db at the top of each (export_db.h).
 */
#ifndef MSPROF_EXPORT_H
#define MSPROF_EXPORT_H

#include <stdint.h>

/* --type: what an export writes (msprof's values). */
enum msprof_export_type {
	MSPROF_EXPORT_TEXT = 0, /* timeline JSON, summary CSVs and the database */
	MSPROF_EXPORT_DB,	/* the database alone */
};

/**
 * struct msprof_export_opts - export options
 * @output:        a PROF_XXX directory, or a directory holding several
 * @type:          what to write (--type)
 * @print_summary: 1 to print a short summary per PROF dir after exporting
 *                 (top ops by device time, API call counts, records lost,
 *                 why the data is incomplete)
 * @incomplete:    out: PROF dirs exported whose data is known to be
 *                 incomplete (each reason is printed as a warning and
 *                 kept in the timeline's metadata; export_outcome.h)
 * @exported:      out: PROF dirs whose export was written, complete or
 *                 not: with an error return, above 0 when only some of
 *                 the PROF dirs failed (msprof's exit status 4, partial)
 * @csv_max_rows:  data rows per summary CSV before the next file starts
 *                 (export_split.h); 0: msprof's 1,000,000 (tests set less)
 * @tl_slice_bytes: tests only: slice the timeline into slices of at most
 *                 this many bytes whatever msprof_slice.json says; 0: as
 *                 msprof_slice.json says (export_tl_slice.h)
 * @tl_slice_min:  tests only: with @tl_slice_bytes, slice a timeline of
 *                 at least this many bytes (0: msprof's 200 MB)
 */
struct msprof_export_opts {
	const char *output;
	enum msprof_export_type type;
	int print_summary;
	unsigned int incomplete;
	unsigned int exported;
	uint64_t csv_max_rows;
	uint64_t tl_slice_bytes;
	uint64_t tl_slice_min;
};

/**
 * msprof_export() - export every PROF_XXX directory under @opts->output
 *
 * Prints msprof-style progress lines ("Start export data in PROF_....",
 * "Export all data in PROF_.... done.") and a clear message for each
 * problem; every complete frame of a damaged capture is still exported,
 * and each reason its data is incomplete is a warning.  Return: 0 when
 * every PROF dir exported (see @opts->incomplete); -ENOENT when none was
 * found; otherwise the first negative errno (other dirs are still tried,
 * see @opts->exported).
 */
int msprof_export(struct msprof_export_opts *opts);

/**
 * msprof_prof_dirs() - the PROF_XXX directories --output names: itself
 * when it is one (named PROF_* or holding host/), else its PROF_*
 * subdirectories in name order
 * @dirs: out: malloc'd paths (free with msprof_prof_dirs_free())
 * @n:    out: how many
 * Return: 0; -ENOENT when there is none, -errno of reading @output (both
 * said, naming --output); -ENOMEM.
 */
int msprof_prof_dirs(const char *output, char ***dirs, long *n);

/** msprof_prof_dirs_free() - free what msprof_prof_dirs() gave. */
void msprof_prof_dirs_free(char **dirs, long n);

#endif /* MSPROF_EXPORT_H */
