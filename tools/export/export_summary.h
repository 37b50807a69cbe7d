/* SPDX-License-Identifier: MIT */
/*
 * The summary CSVs of mindstudio_profiler_output/ (msprof.md section 4):
 * api_statistic, op_summary, op_statistic and task_time, with msprof's
 * column names.  Columns we have no data for are left empty, never filled
 * with a guess.  Each writer returns 0, -ENOMEM, or the -errno of a
 * failed write to its stream (rows go to it a 1 MiB buffer at a time).
 */
#ifndef MSPROF_EXPORT_SUMMARY_H
#define MSPROF_EXPORT_SUMMARY_H

#include <stdio.h>

#include "export_model.h"

/**
 * struct xm_stat - count, total and spread of durations
 * @total_ns, @min_ns, @max_ns: ns
 * @mean_us, @m2_us:            running mean and sum of squared
 *                              deviations (Welford), in us
 */
struct xm_stat {
	uint64_t count;
	int64_t total_ns;
	int64_t min_ns;
	int64_t max_ns;
	double mean_us;
	double m2_us;
};

/** struct xm_api_stat - one api_statistic row */
struct xm_api_stat {
	uint16_t api;
	const char *name; /* points into the model or a static table */
	struct xm_stat st;
};

/** struct xm_op_stat - one op_statistic row (device, op type, core type) */
struct xm_op_stat {
	uint32_t device;
	char op_type[XM_TEXT_LEN]; /* text (name_text.h) */
	char core_type[XM_NAME_LEN];
	struct xm_stat st;
};

/**
 * export_api_stats() - per-API statistics, sorted by total time, largest
 * first.  *@out is malloc'ed (free it).  Return: 0; -ENOMEM; -errno of reading the calls.
 */
int export_api_stats(const struct export_model *m, struct xm_api_stat **out, size_t *n);

/**
 * export_op_stats() - per (device, op type) statistics over kernel tasks
 * with a start and an end, sorted by total device time, largest first.
 * *@out is malloc'ed (free it).  Return: 0; -ENOMEM; -errno of reading the
 * tasks (xm_tasks_next()).
 */
int export_op_stats(const struct export_model *m, struct xm_op_stat **out, size_t *n);

int export_write_api_statistic(const struct export_model *m, FILE *f);
int export_write_op_summary(const struct export_model *m, FILE *f);
int export_write_op_statistic(const struct export_model *m, FILE *f);
int export_write_task_time(const struct export_model *m, FILE *f);

#endif /* MSPROF_EXPORT_SUMMARY_H */
