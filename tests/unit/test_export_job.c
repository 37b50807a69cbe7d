// SPDX-License-Identifier: MIT
/*
 * Description: the job table of an export.  Two PROF dirs of one window
 * (ranks 1 and 0, given in that order, their start_info 0.4 s apart) and
 * one of a window 1.2 s later:
 *   - device busy is the union over streams: tasks [0,10] and [5,20] us on
 *     two streams and [30,31] us give 21 us, not 26;
 *   - API time counts outermost calls only: a 100 us call holding a 40 us
 *     call, plus a 10 us call on another thread, is 110 us;
 *   - the step is the median gap between aclrtSynchronizeStream returns on
 *     one thread: returns at 1000, 3000, 4000, 7000 us give gaps 2000,
 *     1000, 3000 and a median of 2000 us;
 *   - rows print by rank; the slowest rank is the one with the largest
 *     step, named with how far above the fastest it is; a window with one
 *     PROF dir gets no table.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "export_job.h"
#include "export_sort.h"

#define US 1000

static struct xm_call calls_a[] = {
	{ .entry_ns = 0, .exit_ns = 100 * US, .tid = 1, .api = NPUPROF_API_OP_EXECUTE_V2 },
	{ .entry_ns = 20 * US, .exit_ns = 60 * US, .tid = 1, .api = NPUPROF_API_RT_LAUNCH_KERNEL },
	{ .entry_ns = 500 * US, .exit_ns = 1000 * US, .tid = 1, .api = NPUPROF_API_RT_SYNC_STREAM },
	{ .entry_ns = 2000 * US, .exit_ns = 3000 * US, .tid = 1, .api = NPUPROF_API_RT_SYNC_STREAM },
	{ .entry_ns = 3500 * US, .exit_ns = 4000 * US, .tid = 1, .api = NPUPROF_API_RT_SYNC_STREAM },
	{ .entry_ns = 6000 * US, .exit_ns = 7000 * US, .tid = 1, .api = NPUPROF_API_RT_SYNC_STREAM },
	{ .entry_ns = 5 * US, .exit_ns = 15 * US, .tid = 2, .api = NPUPROF_API_RT_MALLOC },
};

static struct xm_task tasks_a[] = {
	{ .start_ns = 0, .end_ns = 10 * US, .stream = 1, .drawn = 1 },
	{ .start_ns = 5 * US, .end_ns = 20 * US, .stream = 2, .drawn = 1 },
	{ .start_ns = 30 * US, .end_ns = 31 * US, .stream = 1, .drawn = 1 },
	{ .start_ns = 40 * US, .end_ns = 90 * US, .stream = 1, .drawn = 0 }, /* cut: not counted */
};

static struct xm_call calls_b[] = {
	{ .entry_ns = 0, .exit_ns = 1000 * US, .tid = 7, .api = NPUPROF_API_RT_SYNC_STREAM },
	{ .entry_ns = 1000 * US, .exit_ns = 2500 * US, .tid = 7, .api = NPUPROF_API_RT_SYNC_STREAM },
	{ .entry_ns = 2500 * US, .exit_ns = 4000 * US, .tid = 7, .api = NPUPROF_API_RT_SYNC_STREAM },
};

/* 2026-11-30 12:00:00.123 UTC, on the wall clock as the export keeps it */
#define T_WIN1 1796040000123000000ll

/*
 * The START record of @t and, when it is drawn, its END record, with device
 * counts equal to the host times: the fit over them is the identity.
 */
static void add_task(struct export_model *m, const struct xm_task *t, uint32_t id)
{
	struct xm_task r = { .stream = t->stream, .task_id = id, .have = XM_HAVE_START };

	r.start_dev = r.start_tp_ns = (uint64_t)t->start_ns;
	CHECK_EQ(export_model_add_task(m, &r), 0);
	if (!t->drawn)
		return;
	r.have = XM_HAVE_END;
	r.end_dev = r.end_tp_ns = (uint64_t)t->end_ns;
	CHECK_EQ(export_model_add_task(m, &r), 0);
}

static void model(struct export_model *m, const char *dir, uint32_t pid, int rank,
		  struct xm_call *calls, size_t nc, struct xm_task *tasks, size_t nt, int64_t start)
{
	export_model_init(m, AT_FDCWD);
	m->dir = strdup(dir);
	CHECK(m->dir != NULL);
	m->window_start_ns = start;
	m->app_pid = pid;
	m->rank = rank;
	for (size_t i = 0; i < nc; i++)
		CHECK_EQ(export_model_add_call(m, &calls[i]), 0);
	for (size_t i = 0; i < nt; i++)
		add_task(m, &tasks[i], (uint32_t)i);
	CHECK_EQ(export_model_join(m), 0);
	CHECK_EQ(m->n_tasks, nt);
}

/* Free what model() allocated. */
static void unmodel(struct export_model *m)
{
	export_model_free(m);
}

int main(void)
{
	struct export_job_row rows[3];
	struct export_model m;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	setenv("TZ", "UTC", 1);
	tzset();
	/* rank 1 starts 0.4 s after rank 0 (two sessions started together) */
	model(&m, "/o/PROF_000001_20261130120000523_00000101AAAAAAAA", 101, 1, calls_a, 7, tasks_a, 4,
	      T_WIN1 + 400000000);
	CHECK_EQ(export_job_row(&m, &rows[0]), 0);
	CHECK_EQ(rows[0].busy_ns, 21 * US);
	CHECK_EQ(rows[0].api_ns, 110 * US + 500 * US + 1000 * US + 500 * US + 1000 * US);
	CHECK_EQ(rows[0].step_ns, 2000 * US);
	CHECK_EQ(rows[0].rank, 1);
	CHECK_EQ(rows[0].start_ns, T_WIN1 + 400000000);
	unmodel(&m);
	model(&m, "/o/PROF_000001_20261130120000123_00000100BBBBBBBB", 100, 0, calls_b, 3, NULL, 0,
	      T_WIN1);
	CHECK_EQ(export_job_row(&m, &rows[1]), 0);
	CHECK_EQ(rows[1].busy_ns, 0);
	CHECK_EQ(rows[1].step_ns, 1500 * US);
	unmodel(&m);
	/* the next window, 1.2 s later: a table of its own (one row: none) */
	model(&m, "/o/PROF_000001_20261130120001323_00000100CCCCCCCC", 100, 0, calls_b, 1, NULL, 0,
	      T_WIN1 + 1200000000);
	CHECK_EQ(export_job_row(&m, &rows[2]), 0);
	CHECK_EQ(rows[2].step_ns, -1);
	unmodel(&m);

	f = open_memstream(&text, &len);
	if (!f)
		CHECK_SKIP("no memstream");
	export_job_print(rows, 3, f);
	fclose(f);
	CHECK_STR(text,
		  "Job summary: 2 processes in the window of 2026-11-30 12:00:00\n"
		  "  (device busy: time any stream of its devices ran a task; API time: its threads\n"
		  "   inside ACL calls, summed; step: median time between stream synchronizes)\n"
		  "   Rank      Pid  Device busy(us)     API time(us)       Step(us)  PROF dir\n"
		  "      0      100            0.000         4000.000       1500.000  PROF_000001_20261130120000123_00000100BBBBBBBB\n"
		  "      1      101           21.000         3110.000       2000.000  PROF_000001_20261130120000523_00000101AAAAAAAA\n"
		  "  Slowest: rank 1 (pid 101), median step 2000.000 us, 33.3% above the fastest\n");
	free(text);
	return CHECK_DONE();
}
