/* SPDX-License-Identifier: MIT */
/*
 * The output-file set of one export, written as one transaction
 * (export_fileset.c): mindstudio_profiler_output/ and its files, and the
 * database at the PROF dir's top, each written under a temporary name and
 * renamed into place only once the whole set is written.
 */
#ifndef MSPROF_EXPORT_FILESET_H
#define MSPROF_EXPORT_FILESET_H

#include <limits.h>

#include "export.h"
#include "export_model.h"

/* The folder of the text outputs, below the PROF dir (msprof's name). */
#define EXPORT_OUT_DIR "mindstudio_profiler_output"

/*
 * Where one export writes: the PROF dir and mindstudio_profiler_output
 * (-1 with --type=db), by fd, with their paths as text for messages;
 * @db_name: the database's name, once stamped.
 */
struct export_dest {
	int dirfd;
	const char *dir;
	int outfd;
	const char *out;
	char db_name[NAME_MAX + 1];
};

/**
 * export_fileset_open() - open where one export of @dir writes
 * @dir:     the PROF dir; opened into d->dirfd, never through a symlink at
 *           its own name
 * @db_only: 1 for --type=db: no mindstudio_profiler_output (d->outfd -1)
 * @out:     out: mindstudio_profiler_output's path as text (@size bytes),
 *           made or opened below d->dirfd without following a symlink
 * @d:       in: d->dir, @dir as text for messages; out: the fds
 * Return: 0, or -errno (said here); on error nothing is left open.
 */
int export_fileset_open(const char *dir, int db_only, char *out, size_t size,
			struct export_dest *d);

/**
 * export_fileset_write() - write the whole set of @m into @d
 *
 * The timeline (sliced as msprof_slice.json or @opts says), the summary
 * CSVs (in parts of @opts->csv_max_rows rows) and the database, each
 * first under a .tmp name, then all renamed; only then are the files of
 * an earlier export (and .tmp files of a killed one) removed.  Sets
 * d->db_name.  Return: 0, or -errno (said here): then the earlier set is
 * untouched and no file of this one is left.
 */
int export_fileset_write(const struct export_model *m, struct export_dest *d,
			 const struct msprof_export_opts *opts);

/** export_fileset_close() - close what export_fileset_open() opened. */
void export_fileset_close(struct export_dest *d);

#endif /* MSPROF_EXPORT_FILESET_H */
