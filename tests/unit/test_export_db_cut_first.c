// SPDX-License-Identifier: MIT
/*
 * Description: a task cut by the capture window anywhere in the tasks'
 * order leaves out that task only.  Before the fix the database's TASK
 * pass stopped at the first task without a start and an end: a capture
 * with 8-bit task ids (e2e launch_mode) had 105 of its 1,059 tasks in
 * TASK.  Here device 0, stream 0 has task 1 with an END only (its START
 * before the window), then tasks 2 and 3 complete, then task 4 with a
 * START only: TASK holds exactly tasks 2 and 3 (globalTaskId 1 and 2, in
 * the tasks' order from 0), with their times, and COMPUTE_TASK_INFO both.
 */
#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include "check.h"
#include "export_db.h"
#include "export_model.h"

#define T0 1000000000000ll

static void add(struct export_model *m, uint32_t id, int have, int64_t start, int64_t end)
{
	struct xm_task r = { .task_id = id, .type = NPUPROF_TT_KERNEL };

	if (have & XM_HAVE_START) {
		r.have = XM_HAVE_START;
		r.start_dev = (uint64_t)start;
		r.start_tp_ns = (uint64_t)(T0 + start);
		CHECK_EQ(export_model_add_task(m, &r), 0);
	}
	if (have & XM_HAVE_END) {
		r.have = XM_HAVE_END;
		r.end_dev = (uint64_t)end;
		r.end_tp_ns = (uint64_t)(T0 + end);
		CHECK_EQ(export_model_add_task(m, &r), 0);
	}
}

int main(void)
{
	char path[] = "/tmp/npuprof_db_cut_XXXXXX";
	struct export_model m;
	sqlite3_stmt *st;
	sqlite3 *db;
	int fd = mkstemp(path), rows = 0;

	CHECK(fd >= 0);
	export_model_init(&m, AT_FDCWD);
	add(&m, 1, XM_HAVE_END, 0, 1000);
	add(&m, 2, XM_HAVE_START | XM_HAVE_END, 2000, 5000);
	add(&m, 3, XM_HAVE_START | XM_HAVE_END, 6000, 9000);
	add(&m, 4, XM_HAVE_START, 10000, 0);
	CHECK_EQ(export_model_join(&m), 0);
	CHECK_EQ(m.n_tasks, 4);
	CHECK_EQ(m.n_drawn, 2);
	CHECK_EQ(export_write_db(&m, fd), 0);
	close(fd);
	export_model_free(&m);

	CHECK_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	CHECK_EQ(sqlite3_prepare_v2(db, "SELECT globalTaskId, taskId, startNs, endNs, connectionId"
				    " FROM TASK ORDER BY globalTaskId", -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		CHECK_EQ(sqlite3_column_int64(st, 0), rows + 1);
		CHECK_EQ(sqlite3_column_int64(st, 1), rows + 2);
		CHECK_EQ(sqlite3_column_int64(st, 2), T0 + (rows ? 6000 : 2000));
		CHECK_EQ(sqlite3_column_int64(st, 3), T0 + (rows ? 9000 : 5000));
		CHECK_EQ(sqlite3_column_type(st, 4), SQLITE_NULL); /* no call: not linked */
		rows++;
	}
	sqlite3_finalize(st);
	CHECK_EQ(rows, 2);
	CHECK_EQ(sqlite3_prepare_v2(db, "SELECT group_concat(globalTaskId) FROM COMPUTE_TASK_INFO",
				    -1, &st, NULL), SQLITE_OK);
	CHECK_EQ(sqlite3_step(st), SQLITE_ROW);
	CHECK_STR((const char *)sqlite3_column_text(st, 0), "1,2");
	sqlite3_finalize(st);
	sqlite3_close(db);
	unlink(path);
	return CHECK_DONE();
}
