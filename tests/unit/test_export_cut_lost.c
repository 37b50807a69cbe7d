// SPDX-License-Identifier: MIT
/*
 * Description: a half task (START or END missing) is clamped to the
 * capture window only when the window is all that can have cut it: it is
 * the first (END alone, no SUBMIT) or the last (START, no END) life cycle
 * of its (device, stream), and no record was lost or aged out.  Before
 * the fix any END alone was drawn from the window's start and any START
 * alone to the window's end, so a START whose END was lost mid-capture
 * showed as a bar running to the end of the window; and a reused task
 * id whose END and next SUBMIT were lost folded two life cycles into one
 * task spanning both.  Window [1000250, 1001000] host ns; device count c =
 * host ns c + 1000000.  Device 0, stream 1:
 *  - task 1: END 300 only (the stream's first life cycle);
 *  - task 2: START 400, END 500;
 *  - task 3: SUBMIT 550, START 600, its END lost (task 4 runs after it);
 *  - task 4: SUBMIT 700, START 720, END 800;
 *  - task 5: START 900 only (the stream's last life cycle).
 * Stream 2, task id 9 twice: SUBMIT 300, START 310 (END lost), then
 * (SUBMIT lost) START 600, END 650.
 * Nothing lost: task 1 cut "start" [1000250, 1000300], task 5 cut "end"
 * [1000900, 1001000], task 3 neither drawn nor cut, task id 9 two tasks:
 * SUBMIT+START (neither) and [1000600, 1000650] drawn; 4 drawn, 2 cut.
 * One record lost to a full ring, or one slice aged out by
 * --storage-limit: the same but tasks 1 and 5 are not cut either (0 cut).
 */
#include <fcntl.h>
#include <stdlib.h>

#include "check.h"
#include "export_model.h"
#include "model_tasks.h"

#define OFF 1000000ull

enum damage { NONE, LOST, AGED };

static void rec(struct export_model *m, uint32_t stream, uint32_t id, uint8_t have, uint64_t dev)
{
	CHECK_EQ(model_add_rec(m, stream, id, have, dev, OFF), 0);
}

static void build(struct export_model *m, enum damage damage)
{
	export_model_init(m, AT_FDCWD);
	m->window_start_ns = 250 + OFF;
	m->window_end_ns = 1000 + OFF;
	if (damage == LOST)
		m->loss.n[NPUPROF_LOSS_RING_FULL] = 1;
	if (damage == AGED)
		m->aged.slices = 1;
	rec(m, 1, 1, XM_HAVE_END, 300);
	rec(m, 1, 2, XM_HAVE_START, 400);
	rec(m, 1, 2, XM_HAVE_END, 500);
	rec(m, 1, 3, XM_HAVE_SUBMIT, 550);
	rec(m, 1, 3, XM_HAVE_START, 600);
	rec(m, 1, 4, XM_HAVE_SUBMIT, 700);
	rec(m, 1, 4, XM_HAVE_START, 720);
	rec(m, 1, 4, XM_HAVE_END, 800);
	rec(m, 1, 5, XM_HAVE_START, 900);
	rec(m, 2, 9, XM_HAVE_SUBMIT, 300);
	rec(m, 2, 9, XM_HAVE_START, 310);
	rec(m, 2, 9, XM_HAVE_START, 600);
	rec(m, 2, 9, XM_HAVE_END, 650);
	m->samples = calloc(2, sizeof(*m->samples));
	m->n_samples = 2;
	m->samples[0] = (struct xm_sample){ 0, { 0, OFF } };
	m->samples[1] = (struct xm_sample){ 0, { 1000000, 1000000 + OFF } };
	CHECK_EQ(export_model_join(m), 0);
}

static void check(enum damage damage)
{
	static const struct {
		uint32_t id;
		uint8_t have, drawn, cut;
		int64_t start, end;
	} want[] = {
		{ 1, XM_HAVE_END, 0, XM_CUT_START, 250 + OFF, 300 + OFF },
		{ 2, XM_HAVE_START | XM_HAVE_END, 1, 0, 400 + OFF, 500 + OFF },
		{ 3, XM_HAVE_SUBMIT | XM_HAVE_START, 0, 0, 0, 0 },
		{ 4, XM_HAVE_SUBMIT | XM_HAVE_START | XM_HAVE_END, 1, 0, 720 + OFF, 800 + OFF },
		{ 5, XM_HAVE_START, 0, XM_CUT_END, 900 + OFF, 1000 + OFF },
		{ 9, XM_HAVE_SUBMIT | XM_HAVE_START, 0, 0, 0, 0 },
		{ 9, XM_HAVE_START | XM_HAVE_END, 1, 0, 600 + OFF, 650 + OFF },
	};
	struct export_model m;
	struct xm_task *t;

	build(&m, damage);
	CHECK_EQ(m.n_tasks, 7);
	CHECK_EQ(m.n_drawn, 3);
	CHECK_EQ(m.n_cut, damage == NONE ? 2 : 0);
	t = model_tasks(&m);
	CHECK(t != NULL);
	for (size_t i = 0; t && i < 7; i++) {
		uint8_t cut = damage == NONE ? want[i].cut : 0;

		CHECK_EQ(t[i].task_id, want[i].id);
		CHECK_EQ(t[i].have, want[i].have);
		CHECK_EQ(t[i].drawn, want[i].drawn);
		CHECK_EQ(t[i].cut, cut);
		if (!want[i].drawn && !cut)
			continue; /* their times mean nothing */
		CHECK_EQ(t[i].start_ns, want[i].start);
		CHECK_EQ(t[i].end_ns, want[i].end);
	}
	free(t);
	export_model_free(&m);
}

int main(void)
{
	check(NONE);
	check(LOST);
	check(AGED);
	return CHECK_DONE();
}
