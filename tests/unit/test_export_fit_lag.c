// SPDX-License-Identifier: MIT
/*
 * Description: a records-based clock fit weighs START and END records
 * alike, also past the pairs it keeps in memory.  Each task's START
 * tracepoint fires 2,000 ns after its device count's time on the line
 * host ns = 1e12 + 21 ns per count, its END tracepoint on time: a fit over
 * all pairs lies 1,000 ns (the mean latency) above the line and places
 * every START and END there.  With 100,000 tasks (200,000 pairs, all
 * kept) and with 300,000 (600,000 pairs: past 262,144 the fit keeps every
 * 2nd, then every 4th task with both its pairs, 150,000 pairs in all)
 * every task lands at exactly line + 1,000 ns.  Keeping every 2nd pair
 * instead kept the STARTs alone (pairs alternate START, END): 2,000 ns.
 */
#include <fcntl.h>

#include "check.h"
#include "export_model.h"

#define DEV0 5000000000ull
#define START_LAG 2000
#define MEAN_LAG 1000

/* Host ns of device count @c on the line. */
static int64_t host_of(uint64_t c)
{
	return 1000000000000ll + 21 * (int64_t)(c - DEV0);
}

static void fit_case(uint32_t n_tasks, size_t want_pairs)
{
	struct export_model m;
	const struct xm_task *t;
	struct xm_tasks it;
	size_t bad = 0;

	export_model_init(&m, AT_FDCWD);
	for (uint32_t i = 0; i < n_tasks; i++) {
		uint64_t s = DEV0 + 100ull * i, e = s + 60;
		struct xm_task r = { .task_id = i, .have = XM_HAVE_START, .start_dev = s };

		r.start_tp_ns = (uint64_t)(host_of(s) + START_LAG);
		CHECK_EQ(export_model_add_task(&m, &r), 0);
		r = (struct xm_task){ .task_id = i, .have = XM_HAVE_END, .end_dev = e };
		r.end_tp_ns = (uint64_t)host_of(e);
		CHECK_EQ(export_model_add_task(&m, &r), 0);
	}
	CHECK_EQ(export_model_join(&m), 0);
	CHECK_EQ(m.n_tasks, n_tasks);
	CHECK_EQ(m.n_devs, 1);
	if (m.n_devs == 1) {
		CHECK_EQ(m.devs[0].clock, XM_CLOCK_RECORDS);
		CHECK_EQ(m.devs[0].fit.n_pairs, want_pairs);
	}
	CHECK_EQ(xm_tasks_begin(&m, &it), 0);
	while (xm_tasks_next(&it, &t) == 1) {
		uint64_t s = DEV0 + 100ull * t->task_id;

		if (t->start_ns != host_of(s) + MEAN_LAG || t->end_ns != host_of(s + 60) + MEAN_LAG) {
			if (!bad)
				fprintf(stderr, "%u tasks: task %u at line %+lld, %+lld ns, want +%d\n",
					n_tasks, t->task_id, (long long)(t->start_ns - host_of(s)),
					(long long)(t->end_ns - host_of(s + 60)), MEAN_LAG);
			bad++;
		}
	}
	CHECK_EQ(it.n, n_tasks);
	CHECK_EQ(bad, 0);
	export_model_free(&m);
}

int main(void)
{
	fit_case(100000, 200000);
	fit_case(300000, 150000);
	return CHECK_DONE();
}
