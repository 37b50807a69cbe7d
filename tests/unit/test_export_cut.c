// SPDX-License-Identifier: MIT
/*
 * Description: tasks the capture window cut are clamped to the window and
 * marked, never invented.  Window [1000250, 1001000] host ns (start_info's
 * and end_info's clocks); device count c = host ns c + 1000000:
 *  - task 1: END at 300 only (started before the window): cut "start",
 *    [1000250, 1000300];
 *  - task 2: SUBMIT 1000800, START at 900 only (ended after the window):
 *    cut "end", [1000900, 1001000];
 *  - task 3: START 400, END 500: drawn, not cut, [1000400, 1000500];
 *  - task 4, on stream 2: END at 200 only, before the window's start:
 *    neither drawn nor cut (no time to clamp it to), although it is the
 *    first life cycle of its stream;
 *  - task 5: SUBMIT only (never started in the window): neither.
 * Nothing was lost, so a half task at an end of its stream is cut
 * (test_export_cut_lost has the rest).  Tasks come in (stream, task id)
 * order: 1, 2, 3, 5, 4.  And with the window's end unknown (no
 * end_info), task 2 is not cut.
 */
#include <fcntl.h>
#include <stdlib.h>

#include "check.h"
#include "export_model.h"
#include "model_tasks.h"

#define OFF 1000000ull

static void rec(struct export_model *m, uint32_t id, uint8_t have, uint64_t dev)
{
	CHECK_EQ(model_add_rec(m, id == 4 ? 2 : 1, id, have, dev, OFF), 0);
}

static void build(struct export_model *m, int64_t window_end)
{
	export_model_init(m, AT_FDCWD);
	m->window_start_ns = 250 + OFF;
	m->window_end_ns = window_end;
	rec(m, 1, XM_HAVE_END, 300);
	rec(m, 2, XM_HAVE_SUBMIT, 800);
	rec(m, 2, XM_HAVE_START, 900);
	rec(m, 3, XM_HAVE_START, 400);
	rec(m, 3, XM_HAVE_END, 500);
	rec(m, 4, XM_HAVE_END, 200);
	rec(m, 5, XM_HAVE_SUBMIT, 700);
	m->samples = calloc(2, sizeof(*m->samples));
	m->n_samples = 2;
	m->samples[0] = (struct xm_sample){ 0, { 0, OFF } };
	m->samples[1] = (struct xm_sample){ 0, { 1000000, 1000000 + OFF } };
	CHECK_EQ(export_model_join(m), 0);
}

int main(void)
{
	static const struct {
		uint8_t drawn, cut;
		int64_t start, end;
	} want[] = {
		{ 0, XM_CUT_START, 250 + OFF, 300 + OFF },
		{ 0, XM_CUT_END, 900 + OFF, 1000 + OFF },
		{ 1, 0, 400 + OFF, 500 + OFF },
		{ 0, 0, 0, 0 },
		{ 0, 0, 0, 0 },
	};
	static const uint32_t order[] = { 1, 2, 3, 5, 4 };
	struct export_model m;
	struct xm_task *t;

	build(&m, 1000 + OFF);
	CHECK_EQ(m.n_tasks, 5);
	CHECK_EQ(m.n_drawn, 1);
	CHECK_EQ(m.n_cut, 2);
	t = model_tasks(&m);
	CHECK(t != NULL);
	for (size_t i = 0; t && i < 5; i++) {
		size_t w = t[i].task_id - 1; /* want[] is by task id */

		CHECK_EQ(t[i].task_id, order[i]);
		CHECK_EQ(t[i].drawn, want[w].drawn);
		CHECK_EQ(t[i].cut, want[w].cut);
		if (!want[w].drawn && !want[w].cut)
			continue; /* their times mean nothing */
		CHECK_EQ(t[i].start_ns, want[w].start);
		CHECK_EQ(t[i].end_ns, want[w].end);
	}
	free(t);
	export_model_free(&m);

	build(&m, 0); /* no end_info: the window's end is unknown */
	CHECK_EQ(m.n_cut, 1);
	t = model_tasks(&m);
	CHECK(t != NULL);
	if (t)
		CHECK_EQ(t[1].cut, 0);
	free(t);
	export_model_free(&m);
	return CHECK_DONE();
}
