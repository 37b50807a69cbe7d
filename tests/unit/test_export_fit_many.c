// SPDX-License-Identifier: MIT
/*
 * Description: a device without clock samples gets its clock fitted to its
 * own START/END records, in bounded memory.  300,000 tasks give 600,000
 * pairs on an exact line (host ns 1e12 + 21 ns per count, integers all);
 * past 262,144 pairs the pairs of every 2nd, then every 4th task are
 * kept, evenly spread: the fit uses exactly 150,000 pairs (those of
 * 75,000 tasks) and places every task where the line does, to the ns.
 */
#include <fcntl.h>

#include "check.h"
#include "export_model.h"

#define N_TASKS 300000u
#define DEV0 5000000000ull

/* Host ns of device count @c on the line. */
static int64_t host_of(uint64_t c)
{
	return 1000000000000ll + 21 * (int64_t)(c - DEV0);
}

int main(void)
{
	struct export_model m;
	const struct xm_task *t;
	struct xm_tasks it;
	size_t bad = 0;

	export_model_init(&m, AT_FDCWD);
	for (uint32_t i = 0; i < N_TASKS; i++) {
		uint64_t s = DEV0 + 100ull * i, e = s + 60;
		struct xm_task r = { .task_id = i, .have = XM_HAVE_START, .start_dev = s };

		r.start_tp_ns = (uint64_t)host_of(s);
		CHECK_EQ(export_model_add_task(&m, &r), 0);
		r = (struct xm_task){ .task_id = i, .have = XM_HAVE_END, .end_dev = e };
		r.end_tp_ns = (uint64_t)host_of(e);
		CHECK_EQ(export_model_add_task(&m, &r), 0);
	}
	CHECK_EQ(export_model_join(&m), 0);
	CHECK_EQ(m.n_tasks, N_TASKS);
	CHECK_EQ(m.n_drawn, N_TASKS);
	CHECK_EQ(m.n_devs, 1);
	if (m.n_devs == 1) {
		CHECK_EQ(m.devs[0].clock, XM_CLOCK_RECORDS);
		CHECK_EQ(m.devs[0].fit.n_pairs, 150000);
	}
	CHECK_EQ(xm_tasks_begin(&m, &it), 0);
	while (xm_tasks_next(&it, &t) == 1) {
		uint64_t s = DEV0 + 100ull * t->task_id;

		bad += t->start_ns != host_of(s) || t->end_ns != host_of(s + 60);
	}
	CHECK_EQ(it.n, N_TASKS);
	CHECK_EQ(bad, 0);
	export_model_free(&m);
	return CHECK_DONE();
}
