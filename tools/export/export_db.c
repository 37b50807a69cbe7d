// SPDX-License-Identifier: MIT
/*
 * The export's database (export_db.h): CANN's tables for the calls and
 * tasks of one PROF dir, written by SQLite (Debian's libsqlite3) into the
 * fd the export made (export_db_fd.c).
 *
 * Every text goes through STRING_IDS: a key map (export_keymap.h) gives
 * each text its id the first time it is met, and the table is written at
 * the end.
 * Texts are API names, task types and kernel / op names: a few thousand
 * at most, whatever the trace's length.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <npuprof/msg.h>
#include <npuprof/record_io.h>

#include "export_db.h"
#include "export_db_fd.h"
#include "export_keymap.h"

/* The version of CANN's schema whose columns the tables below carry. */
#define DB_SCHEMA_MAJOR "1"
#define DB_SCHEMA_MINOR "2"
#define DB_SCHEMA_MICRO "0"

static const char db_schema[] =
	"CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
	"CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);"
	"CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER, endTimeNs INTEGER);"
	"CREATE TABLE NPU_INFO (id INTEGER, name TEXT);"
	"CREATE TABLE HOST_INFO (hostUid TEXT, hostName TEXT);"
	"CREATE TABLE META_DATA (name TEXT, value TEXT);"
	"CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,"
	" connectionId INTEGER, globalTaskId INTEGER, globalPid INTEGER, taskType INTEGER,"
	" contextId INTEGER, streamId INTEGER, taskId INTEGER, modelId INTEGER);"
	"CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER PRIMARY KEY,"
	" blockNum INTEGER, mixBlockNum INTEGER, taskType INTEGER, opType INTEGER,"
	" inputFormats INTEGER, inputDataTypes INTEGER, inputShapes INTEGER,"
	" outputFormats INTEGER, outputDataTypes INTEGER, outputShapes INTEGER,"
	" attrInfo INTEGER, opState INTEGER, hf32Eligible INTEGER, gridDim INTEGER,"
	" blockDim INTEGER);"
	"CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, type INTEGER, globalTid INTEGER,"
	" connectionId INTEGER PRIMARY KEY, name INTEGER);";

/* CANN's ENUM_API_TYPE content. */
static const struct {
	int id;
	const char *name;
} db_api_types[] = {
	{ EXPORT_DB_API_ACL, "acl" },	      { EXPORT_DB_API_MODEL, "model" },
	{ EXPORT_DB_API_NODE, "node" },	      { EXPORT_DB_API_COMMUNICATION, "communication" },
	{ EXPORT_DB_API_RUNTIME, "runtime" }, { EXPORT_DB_API_OP, "op" },
	{ EXPORT_DB_API_QUEUE, "queue" },     { EXPORT_DB_API_TRACE, "trace" },
	{ EXPORT_DB_API_MSTX, "mstx" },
};

#define DB_N_API_TYPES (sizeof(db_api_types) / sizeof(db_api_types[0]))

/* The writer's state: the connection, the model, the texts met so far
 * (STRING_IDS: text i, NUL included, has id i). */
/*
 * @cut: positions (connectionId) of the calls cut by the stop, ascending:
 * they have no CANN_API row (no real end), so a task they submitted gets
 * a NULL connectionId.  A few per capture at most (calls in flight).
 */
struct db_writer {
	sqlite3 *db;
	const struct export_model *m;
	struct xm_keymap s;
	uint64_t *cut;
	size_t n_cut;
};

/*
 * An SQLite result code as -errno: a failed read or write of the file
 * keeps its errno (ENOSPC); another failure is said here, with SQLite's
 * message.
 */
static int db_err(struct db_writer *w, int rc)
{
	int e = export_db_fd_errno(w->db);

	if (rc == SQLITE_NOMEM)
		return -ENOMEM;
	if (e)
		return -e;
	if (rc == SQLITE_FULL)
		return -ENOSPC;
	npuprof_err("SQLite: %s", sqlite3_errmsg(w->db));
	return -EIO;
}

static int db_exec(struct db_writer *w, const char *sql)
{
	int rc = sqlite3_exec(w->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : db_err(w, rc);
}

static int db_prepare(struct db_writer *w, const char *sql, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(w->db, sql, -1, st, NULL);

	return rc == SQLITE_OK ? 0 : db_err(w, rc);
}

/* Run the bound statement @st once and make it ready for the next row. */
static int db_step(struct db_writer *w, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_err(w, rc);
}

/* Bind the STRING_IDS id of @text to parameter @i of @st. */
static int bind_text_id(struct db_writer *w, sqlite3_stmt *st, int i, const char *text)
{
	size_t id;
	int err = xm_keymap_get(&w->s, text, strlen(text) + 1, &id, NULL);

	if (!err)
		sqlite3_bind_int64(st, i, (int64_t)id);
	return err;
}

/* @v, or NULL when @v is 0 (a value the capture did not give). */
static void bind_or_null(sqlite3_stmt *st, int i, int64_t v)
{
	if (v)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/*
 * The CANN level of call @c, an ENUM_API_TYPE id (npuprof_api_level():
 * 20000 AscendCL, 5000 runtime), 0 for an API id this build does not know.
 */
static int64_t db_api_type(const struct xm_call *c)
{
	return npuprof_api_level(c->api, NULL);
}

static int write_api_types(struct db_writer *w)
{
	sqlite3_stmt *st;
	size_t i;
	int err = db_prepare(w, "INSERT INTO ENUM_API_TYPE VALUES (?, ?)", &st);

	for (i = 0; !err && i < DB_N_API_TYPES; i++) {
		sqlite3_bind_int(st, 1, db_api_types[i].id);
		sqlite3_bind_text(st, 2, db_api_types[i].name, -1, SQLITE_STATIC);
		err = db_step(w, st);
	}
	sqlite3_finalize(st);
	return err;
}

/* Note call position @pos as cut (positions come ascending). */
static int note_cut_call(struct db_writer *w, uint64_t pos)
{
	uint64_t *p = realloc(w->cut, (w->n_cut + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	w->cut = p;
	w->cut[w->n_cut++] = pos;
	return 0;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return (a > b) - (a < b);
}

/* Whether the call at position @pos has a CANN_API row. */
static bool call_has_row(const struct db_writer *w, uint64_t pos)
{
	return !w->n_cut || !bsearch(&pos, w->cut, w->n_cut, sizeof(*w->cut), cmp_u64);
}

/*
 * CANN_API: one row per call that returned in the window, in the calls'
 * order; connectionId is the call's position among all calls, so the
 * ids of calls cut by the stop are left out.
 */
static int write_calls(struct db_writer *w)
{
	char buf[XM_TEXT_LEN];
	const struct xm_call *c;
	struct xm_calls it;
	sqlite3_stmt *st;
	int r = db_prepare(w, "INSERT INTO CANN_API VALUES (?, ?, ?, ?, ?, ?)", &st);

	if (!r)
		r = xm_calls_begin(w->m, &it);
	while (!r && (r = xm_calls_next(&it, &c)) == 1) {
		if (!xm_call_whole(c)) {
			r = note_cut_call(w, it.n - 1);
			continue;
		}
		sqlite3_bind_int64(st, 1, (int64_t)c->entry_ns);
		sqlite3_bind_int64(st, 2, (int64_t)c->exit_ns);
		bind_or_null(st, 3, db_api_type(c));
		sqlite3_bind_int64(st, 4, (int64_t)((uint64_t)c->pid << 32 | c->tid));
		sqlite3_bind_int64(st, 5, (int64_t)(it.n - 1));
		r = bind_text_id(w, st, 6, xm_api_name(c, buf, sizeof(buf)));
		if (!r)
			r = db_step(w, st);
	}
	sqlite3_finalize(st);
	return r < 0 ? r : 0;
}

/* The TASK row of @t, globalTaskId @gid. */
static int task_row(struct db_writer *w, sqlite3_stmt *st, const struct xm_task *t, int64_t gid)
{
	char buf[XM_TEXT_LEN];

	sqlite3_bind_int64(st, 1, t->start_ns);
	sqlite3_bind_int64(st, 2, t->end_ns);
	sqlite3_bind_int64(st, 3, t->device);
	if (t->linked && call_has_row(w, t->call_pos))
		sqlite3_bind_int64(st, 4, (int64_t)t->call_pos);
	else
		sqlite3_bind_null(st, 4);
	sqlite3_bind_int64(st, 5, gid);
	sqlite3_bind_int64(st, 6, w->m->app_pid);
	sqlite3_bind_int64(st, 8, t->stream);
	sqlite3_bind_int64(st, 9, t->task_id);
	return bind_text_id(w, st, 7, xm_task_type(t, buf, sizeof(buf)));
}

/* The COMPUTE_TASK_INFO row of kernel task @t, globalTaskId @gid. */
static int compute_row(struct db_writer *w, sqlite3_stmt *st, const struct xm_task *t,
		       int64_t gid)
{
	char buf[XM_TEXT_LEN];
	int err;

	sqlite3_bind_int64(st, 2, gid);
	err = bind_text_id(w, st, 1, xm_task_name(w->m, t, buf, sizeof(buf)));
	if (!err)
		err = bind_text_id(w, st, 3, xm_task_type(t, buf, sizeof(buf)));
	if (!err)
		err = bind_text_id(w, st, 4, xm_op_type(w->m, t, buf, sizeof(buf)));
	return err;
}

/* TASK and COMPUTE_TASK_INFO: the drawn tasks, in the tasks' order. */
static int write_tasks(struct db_writer *w)
{
	sqlite3_stmt *task = NULL, *comp = NULL;
	const struct xm_task *t;
	struct xm_tasks it;
	int r = db_prepare(w,
			   "INSERT INTO TASK (startNs, endNs, deviceId, connectionId, globalTaskId,"
			   " globalPid, taskType, streamId, taskId) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
			   &task);

	if (!r)
		r = db_prepare(w,
			       "INSERT INTO COMPUTE_TASK_INFO (name, globalTaskId, taskType, opType)"
			       " VALUES (?, ?, ?, ?)",
			       &comp);
	if (!r)
		r = xm_tasks_begin(w->m, &it);
	while (!r && (r = xm_tasks_next(&it, &t)) == 1) {
		int64_t gid = (int64_t)it.n - 1;

		r = 0;
		if (!t->drawn)
			continue;
		r = task_row(w, task, t, gid);
		if (!r)
			r = db_step(w, task);
		if (!r && t->type == NPUPROF_TT_KERNEL)
			r = compute_row(w, comp, t, gid);
		if (!r && t->type == NPUPROF_TT_KERNEL)
			r = db_step(w, comp);
	}
	sqlite3_finalize(task);
	sqlite3_finalize(comp);
	return r < 0 ? r : 0;
}

/* SESSION_TIME_INFO, NPU_INFO, HOST_INFO and META_DATA. */
static int write_info(struct db_writer *w)
{
	static const char *const meta[][2] = {
		{ "SCHEMA_VERSION", DB_SCHEMA_MAJOR "." DB_SCHEMA_MINOR "." DB_SCHEMA_MICRO },
		{ "SCHEMA_VERSION_MAJOR", DB_SCHEMA_MAJOR },
		{ "SCHEMA_VERSION_MINOR", DB_SCHEMA_MINOR },
		{ "SCHEMA_VERSION_MICRO", DB_SCHEMA_MICRO },
	};
	const struct export_model *m = w->m;
	sqlite3_stmt *st = NULL;
	size_t i;
	int err = db_prepare(w, "INSERT INTO SESSION_TIME_INFO VALUES (?, ?)", &st);

	if (!err) {
		bind_or_null(st, 1, m->window_start_ns);
		bind_or_null(st, 2, m->window_end_ns);
		err = db_step(w, st);
	}
	sqlite3_finalize(st);
	if (!err)
		err = db_prepare(w, "INSERT INTO NPU_INFO (id) VALUES (?)", &st);
	for (i = 0; !err && i < m->n_devs; i++) {
		sqlite3_bind_int64(st, 1, m->devs[i].id);
		err = db_step(w, st);
	}
	sqlite3_finalize(st);
	if (!err)
		err = db_prepare(w, "INSERT INTO HOST_INFO (hostName) VALUES (?)", &st);
	if (!err) {
		if (m->hostname[0])
			sqlite3_bind_text(st, 1, m->hostname, -1, SQLITE_STATIC);
		err = db_step(w, st);
	}
	sqlite3_finalize(st);
	if (!err)
		err = db_prepare(w, "INSERT INTO META_DATA VALUES (?, ?)", &st);
	for (i = 0; !err && i < sizeof(meta) / sizeof(meta[0]); i++) {
		sqlite3_bind_text(st, 1, meta[i][0], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, meta[i][1], -1, SQLITE_STATIC);
		err = db_step(w, st);
	}
	sqlite3_finalize(st);
	return err;
}

static int write_strings(struct db_writer *w)
{
	sqlite3_stmt *st;
	size_t i;
	int err = db_prepare(w, "INSERT INTO STRING_IDS VALUES (?, ?)", &st);

	for (i = 0; !err && i < w->s.n; i++) {
		sqlite3_bind_int64(st, 1, (int64_t)i);
		sqlite3_bind_text(st, 2, w->s.key[i], -1, SQLITE_STATIC);
		err = db_step(w, st);
	}
	sqlite3_finalize(st);
	return err;
}

static int write_all(struct db_writer *w)
{
	int err = db_exec(w, "BEGIN");

	if (!err)
		err = db_exec(w, db_schema);
	if (!err)
		err = write_api_types(w);
	if (!err)
		err = write_calls(w);
	if (!err)
		err = write_tasks(w);
	if (!err)
		err = write_info(w);
	if (!err)
		err = write_strings(w);
	if (!err)
		err = db_exec(w, "CREATE INDEX TaskIndex ON TASK (startNs, globalTaskId)");
	if (!err)
		err = db_exec(w, "COMMIT");
	return err;
}

int export_write_db(const struct export_model *m, int fd)
{
	struct db_writer w = { .m = m };
	int err = export_db_fd_open(fd, &w.db);

	if (err)
		return err;
	err = write_all(&w);
	if (sqlite3_close(w.db) != SQLITE_OK && !err)
		err = -EIO;
	xm_keymap_free(&w.s);
	free(w.cut);
	return err;
}
