/* SPDX-License-Identifier: MIT */
/*
 * What an export prints for a person (export_console.c): the summary of
 * one PROF dir (msprof --export=on with a summary: top ops, API calls,
 * device tasks, clocks, losses, completeness, where the files went), the
 * device clock lines, and the words for a PROF dir with no record.
 */
#ifndef MSPROF_EXPORT_CONSOLE_H
#define MSPROF_EXPORT_CONSOLE_H

#include "export_fileset.h"
#include "export_model.h"

/** export_console_summary() - print @m's summary to stdout; @d: where it went. */
void export_console_summary(const struct export_model *m, const struct export_dest *d);

/**
 * export_console_clocks() - one INFO line per device of @m: how its times
 * were placed on the host clock, and any correction; @base names the PROF dir
 */
void export_console_clocks(const struct export_model *m, const char *base);

/**
 * export_console_no_data() - say that @dir (@base: its name as text) holds
 * no record, and why when its control files and slices tell
 */
void export_console_no_data(const struct export_model *m, const char *dir, const char *base);

#endif /* MSPROF_EXPORT_CONSOLE_H */
