/* SPDX-License-Identifier: MIT */
/*
 * msprof --query=on --output=DIR: what a capture produced, one row per
 * host and device folder of each PROF_XXX under DIR, in CANN's query
 * columns (msprof.md section 4: msprof.py query).
 */
#ifndef MSPROF_QUERY_H
#define MSPROF_QUERY_H

#include <stdio.h>

/* How msprof_query() prints its rows. */
enum msprof_query_form {
	MSPROF_QUERY_TABLE, /* columns aligned with spaces, for a terminal */
	MSPROF_QUERY_TSV,   /* the same header and rows, fields split by one tab */
};

/**
 * msprof_query() - list the PROF_XXX directories under @output
 * @output:     a PROF_XXX directory, or a folder holding several
 * @out:        where the table goes
 * @form:       MSPROF_QUERY_TABLE or MSPROF_QUERY_TSV
 * @incomplete: out: rows whose control files were missing or damaged
 *              (their unknown columns stay empty; each is a warning)
 *
 * Columns: Job Info, Device ID, Dir Name, Collection Time, Model ID,
 * Iteration Number, Top Time Iteration, Rank ID.  One row for host/ (no
 * Device ID) and one per device_<id>/ of each PROF dir, in name order.
 * Dir Name is the folder's path below @output ("PROF_X/device_0"; just
 * "device_0" when @output is the PROF dir); Collection Time the local
 * time of the folder's start_info ("2026-03-23 03:17:50.944273");
 * Rank ID host/info.json's "rank".  npuprof has no job name, model or
 * iteration data: those columns stay empty (CANN prints NA, N/A).
 *
 * Return: 0; -ENOENT when @output holds no PROF_XXX directory (said); the
 * -errno of reading @output (said).
 */
int msprof_query(const char *output, FILE *out, enum msprof_query_form form,
		 unsigned int *incomplete);

#endif /* MSPROF_QUERY_H */
