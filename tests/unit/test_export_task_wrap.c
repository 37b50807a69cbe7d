// SPDX-License-Identifier: MIT
/*
 * Description: a task id the driver reuses (a real Ascend task id has 16
 * bits and wraps) names one task per life cycle, not one merged task.
 * Device 0, stream 5: task id 7 runs three times and task id 8 once:
 *  - 7 (a): START 100 and END 200 only: submitted before the window;
 *  - 7 (b): SUBMIT 1000, START 1100, END 1300;
 *  - 8:     SUBMIT 1050, START 1300, END 1400;
 *  - 7 (c): SUBMIT 5000, START 5550 whose tracepoint fired late (host
 *    5700, after the END's at 5600), END 5600.
 * Records are added in a shuffled order.  The join gives exactly 4 tasks,
 * in (id, first record) order, with exactly these host times (the clock
 * samples map device count c to host ns c + 1000000, so tracepoint
 * times, here c + 1000000 but for the late START, are not used for
 * placement); the first, cut at its start by the window, has no SUBMIT.
 */
#include <fcntl.h>
#include <stdlib.h>

#include "check.h"
#include "export_model.h"
#include "model_tasks.h"

#define OFF 1000000ull /* host ns = device count + OFF */

static void rec(struct export_model *m, uint32_t id, uint8_t have, uint64_t dev, uint64_t tp)
{
	struct xm_task r = { .device = 0, .stream = 5, .task_id = id, .have = have,
			     .type = NPUPROF_TT_KERNEL };

	if (have == XM_HAVE_SUBMIT)
		r.submit_ns = tp;
	else if (have == XM_HAVE_START)
		r.start_dev = dev, r.start_tp_ns = tp;
	else
		r.end_dev = dev, r.end_tp_ns = tp;
	CHECK_EQ(export_model_add_task(m, &r), 0);
}

int main(void)
{
	static const struct {
		uint32_t id;
		uint8_t have;
		int64_t start, end;
		uint64_t submit;
	} want[] = {
		{ 7, XM_HAVE_START | XM_HAVE_END, 100 + OFF, 200 + OFF, 0 },
		{ 7, XM_HAVE_SUBMIT | XM_HAVE_START | XM_HAVE_END, 1100 + OFF, 1300 + OFF, 1000 + OFF },
		{ 7, XM_HAVE_SUBMIT | XM_HAVE_START | XM_HAVE_END, 5550 + OFF, 5600 + OFF, 5000 + OFF },
		{ 8, XM_HAVE_SUBMIT | XM_HAVE_START | XM_HAVE_END, 1300 + OFF, 1400 + OFF, 1050 + OFF },
	};
	struct export_model m;
	struct xm_task *t;

	export_model_init(&m, AT_FDCWD);
	rec(&m, 7, XM_HAVE_END, 5600, 5600 + OFF);
	rec(&m, 7, XM_HAVE_SUBMIT, 0, 1000 + OFF);
	rec(&m, 8, XM_HAVE_END, 1400, 1400 + OFF);
	rec(&m, 7, XM_HAVE_START, 5550, 5700 + OFF);
	rec(&m, 7, XM_HAVE_END, 200, 200 + OFF);
	rec(&m, 7, XM_HAVE_SUBMIT, 0, 5000 + OFF);
	rec(&m, 8, XM_HAVE_SUBMIT, 0, 1050 + OFF);
	rec(&m, 7, XM_HAVE_START, 1100, 1100 + OFF);
	rec(&m, 7, XM_HAVE_START, 100, 100 + OFF);
	rec(&m, 8, XM_HAVE_START, 1300, 1300 + OFF);
	rec(&m, 7, XM_HAVE_END, 1300, 1300 + OFF);
	m.samples = calloc(2, sizeof(*m.samples));
	m.n_samples = 2;
	m.samples[0] = (struct xm_sample){ 0, { 0, OFF } };
	m.samples[1] = (struct xm_sample){ 0, { 1000000, 1000000 + OFF } };
	CHECK_EQ(export_model_join(&m), 0);
	CHECK_EQ(m.n_tasks, 4);
	CHECK_EQ(m.n_drawn, 4);
	t = model_tasks(&m);
	CHECK(t != NULL);
	for (size_t i = 0; t && i < 4; i++) {
		CHECK_EQ(t[i].task_id, want[i].id);
		CHECK_EQ(t[i].have, want[i].have);
		CHECK_EQ(t[i].drawn, 1);
		CHECK_EQ(t[i].start_ns, want[i].start);
		CHECK_EQ(t[i].end_ns, want[i].end);
		CHECK_EQ(t[i].submit_ns, want[i].submit);
	}
	free(t);
	export_model_free(&m);
	return CHECK_DONE();
}
