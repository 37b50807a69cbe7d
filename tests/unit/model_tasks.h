/* SPDX-License-Identifier: MIT */
/*
 * The joined tasks of a model (export_model.h) as an array, for tests that
 * look at them by index or by task id: the export itself streams them.
 */
#ifndef NPUPROF_TEST_MODEL_TASKS_H
#define NPUPROF_TEST_MODEL_TASKS_H

#include <stdlib.h>

#include "export_model.h"

/*
 * Every task of @m in its order, malloc'ed (m->n_tasks entries, at least
 * one allocated); NULL when the pass fails or gives another count.
 */
static inline struct xm_task *model_tasks(const struct export_model *m)
{
	struct xm_task *v = calloc(m->n_tasks + 1, sizeof(*v));
	const struct xm_task *t;
	struct xm_tasks it;
	size_t n = 0;
	int r = v ? xm_tasks_begin(m, &it) : -1;

	while (!r && n <= m->n_tasks && (r = xm_tasks_next(&it, &t)) == 1) {
		if (n < m->n_tasks)
			v[n] = *t;
		n++;
		r = 0;
	}
	if (r || n != m->n_tasks) {
		free(v);
		return NULL;
	}
	return v;
}

/* The task of @m with task id @id, copied into *@out.  Return: 1, or 0 if none. */
static inline int model_task_by_id(const struct export_model *m, uint32_t id, struct xm_task *out)
{
	const struct xm_task *t;
	struct xm_tasks it;
	int r = xm_tasks_begin(m, &it);

	while (!r && (r = xm_tasks_next(&it, &t)) == 1) {
		if (t->task_id == id) {
			*out = *t;
			return 1;
		}
		r = 0;
	}
	return 0;
}

/*
 * Add one life-cycle record (@have: one XM_HAVE_*) of kernel task @id on
 * device 0, stream @stream: device count @dev, its tracepoint at host ns
 * @dev + @off (a SUBMIT: at host ns @dev + @off).  Return: as
 * export_model_add_task().
 */
static inline int model_add_rec(struct export_model *m, uint32_t stream, uint32_t id,
				uint8_t have, uint64_t dev, uint64_t off)
{
	struct xm_task r = { .stream = stream, .task_id = id, .have = have,
			     .type = NPUPROF_TT_KERNEL };

	if (have == XM_HAVE_SUBMIT)
		r.submit_ns = dev + off;
	else if (have == XM_HAVE_START)
		r.start_dev = dev, r.start_tp_ns = dev + off;
	else
		r.end_dev = dev, r.end_tp_ns = dev + off;
	return export_model_add_task(m, &r);
}

#endif
