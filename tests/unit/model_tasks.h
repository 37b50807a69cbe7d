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

#endif
