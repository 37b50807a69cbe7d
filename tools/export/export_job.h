/* SPDX-License-Identifier: MIT */
/*
 * The job-level view of an export: when --output holds the PROF dirs of
 * several processes of one job (one per rank per window), one table per
 * capture window says, per rank, how busy its devices were, how long its
 * API calls took and how long a step took, and which rank is slowest.
 */
#ifndef MSPROF_EXPORT_JOB_H
#define MSPROF_EXPORT_JOB_H

#include <stdint.h>
#include <stdio.h>

#include "export_model.h"

/**
 * struct export_job_row - one PROF dir of the job
 * @start_ns: start of its capture window (start_info), on the export's
 *           clock (wall ns when start_info gives the offset); rows whose
 *           windows start within EXPORT_JOB_WINDOW_NS of the first of a
 *           group share one table (one msprof session's processes share a
 *           start exactly; separate sessions started together are close)
 * @name:    the PROF_XXX dir's name, as text (name_text.h)
 * @pid:     the process
 * @rank:    its rank (RANK from its environment), -1 when unknown
 * @busy_ns: time any of its devices ran a task (union over streams), ns
 * @api_ns:  time its threads spent inside ACL calls (outermost calls), ns
 * @step_ns: its median step, ns: the interval between consecutive returns
 *           of aclrtSynchronizeStream on one thread (a training or
 *           inference step ends with one); -1 with fewer than two
 */
/* Windows that start this close belong to one table: 1 s. */
#define EXPORT_JOB_WINDOW_NS 1000000000ll

struct export_job_row {
	int64_t start_ns;
	char name[96];
	uint32_t pid;
	int rank;
	int64_t busy_ns;
	int64_t api_ns;
	int64_t step_ns;
};

/**
 * export_job_row() - fill @row from a loaded model.  Return: 0; -ENOMEM;
 * -errno of reading the calls or tasks or of a sorter's temporary file.
 */
int export_job_row(const struct export_model *m, struct export_job_row *row);

/**
 * export_job_print() - one table per window that has two or more rows,
 * rows by rank (then pid), and the slowest rank of each: largest median
 * step, or largest device busy time when a step is unknown.  Sorts @rows.
 */
void export_job_print(struct export_job_row *rows, size_t n, FILE *out);

#endif /* MSPROF_EXPORT_JOB_H */
