// SPDX-License-Identifier: MIT
/*
 * Description: the export's database msprof_<stamp>.db, read back with
 * the sqlite3 C API.  On the fixture (test_export_fixture.h):
 *  1. --type=db writes the database alone at the PROF dir's top (no
 *     mindstudio_profiler_output), named with a 14-digit stamp;
 *  2. its tables carry CANN's columns in CANN's order; ENUM_API_TYPE has
 *     CANN's nine levels; META_DATA says schema 1.2.0;
 *  3. CANN_API has the 6 calls (connectionId 0..5 in the calls' order,
 *     type 20000, globalTid pid << 32 | tid, ns times); TASK the 3 tasks
 *     with a start and an end (task 4, cut by the window, is not in it);
 *     COMPUTE_TASK_INFO the 2 kernels; STRING_IDS the 8 texts in the
 *     order first met; SESSION_TIME_INFO, NPU_INFO, HOST_INFO;
 *  4. CANN_API JOIN TASK ON connectionId: aclrtLaunchKernel 2 tasks,
 *     aclrtMemcpyAsync 1; TASK JOIN COMPUTE_TASK_INFO ON globalTaskId:
 *     add_custom 1, matmul_custom 1;
 *  5. every TASK time is the model's (xm_tasks_next()), every CANN_API
 *     time the model's (xm_calls_next());
 *  6. the earlier database (msprof_20200101000000.db) and the temporary
 *     one of a killed export (msprof_20200101000001.db.tmp) are removed,
 *     a file not ours (notes.db) stays;
 *  7. --type=text then writes the 5 JSON/CSV files and a new database
 *     that replaces the first: one msprof_*.db, no .tmp.
 */
#include <sqlite3.h>

#include "check.h"
#include "export.h"
#include "export_model.h"
#include "test_export_fixture.h"

/* The one row of @sql as text, "|"-joined (NULL as "NULL"), rows ";"-joined, into @out. */
static const char *query(sqlite3 *db, const char *sql, char *out, size_t size)
{
	sqlite3_stmt *st;
	size_t len = 0;
	int rc, rows = 0;

	out[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(out, size, "error: %s", sqlite3_errmsg(db));
		return out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(st); i++) {
			const char *v = (const char *)sqlite3_column_text(st, i);

			len += snprintf(out + len, size - len, "%s%s", i ? "|" : rows ? ";" : "",
					v ? v : "NULL");
			if (len >= size)
				return out;
		}
		rows++;
	}
	sqlite3_finalize(st);
	return out;
}

#define Q(sql) query(db, sql, buf, sizeof(buf))

static void check_columns(sqlite3 *db)
{
	char buf[1024];

	CHECK_STR(Q("SELECT group_concat(name || ' ' || type, ',') FROM pragma_table_info('TASK')"),
		  "startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,"
		  "globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,"
		  "streamId INTEGER,taskId INTEGER,modelId INTEGER");
	CHECK_STR(Q("SELECT group_concat(name, ',') FROM pragma_table_info('COMPUTE_TASK_INFO')"),
		  "name,globalTaskId,blockNum,mixBlockNum,taskType,opType,inputFormats,"
		  "inputDataTypes,inputShapes,outputFormats,outputDataTypes,outputShapes,attrInfo,"
		  "opState,hf32Eligible,gridDim,blockDim");
	CHECK_STR(Q("SELECT group_concat(name || ' ' || type, ',') FROM pragma_table_info('CANN_API')"),
		  "startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,"
		  "connectionId INTEGER,name INTEGER");
	CHECK_STR(Q("SELECT group_concat(name || ' ' || type, ',') FROM pragma_table_info('STRING_IDS')"),
		  "id INTEGER,value TEXT");
	CHECK_STR(Q("SELECT group_concat(name || ' ' || type, ',') FROM pragma_table_info('ENUM_API_TYPE')"),
		  "id INTEGER,name TEXT");
	CHECK_STR(Q("SELECT group_concat(name || ' ' || type, ',') FROM pragma_table_info('SESSION_TIME_INFO')"),
		  "startTimeNs INTEGER,endTimeNs INTEGER");
	CHECK_STR(Q("SELECT group_concat(name || ' ' || type, ',') FROM pragma_table_info('NPU_INFO')"),
		  "id INTEGER,name TEXT");
	CHECK_STR(Q("SELECT group_concat(name || ' ' || type, ',') FROM pragma_table_info('HOST_INFO')"),
		  "hostUid TEXT,hostName TEXT");
	CHECK_STR(Q("SELECT group_concat(name || ' ' || type, ',') FROM pragma_table_info('META_DATA')"),
		  "name TEXT,value TEXT");
	CHECK_STR(Q("SELECT group_concat(name, ',') FROM pragma_index_info('TaskIndex')"),
		  "startNs,globalTaskId");
}

static void check_rows(sqlite3 *db)
{
	char buf[2048];

	CHECK_STR(Q("SELECT id, name FROM ENUM_API_TYPE ORDER BY id"),
		  "5000|runtime;5500|communication;10000|node;15000|model;20000|acl;50001|op;"
		  "50002|queue;50003|trace;50004|mstx");
	CHECK_STR(Q("SELECT id, value FROM STRING_IDS ORDER BY id"),
		  "0|aclrtMemcpyAsync;1|aclrtLaunchKernel;2|aclrtSynchronizeStream;3|aclrtMalloc;"
		  "4|MEMCPY;5|AI_CORE;6|add_custom;7|matmul_custom");
	/* connectionId: the calls' order, (pid, tid, entry); globalTid 4242 << 32 | tid */
	CHECK_STR(Q("SELECT startNs, endNs, type, globalTid, connectionId, name FROM CANN_API"
		    " ORDER BY connectionId"),
		  "1000001000000|1000001004000|20000|18219251273875|0|0;"
		  "1000002000000|1000002002000|20000|18219251273875|1|1;"
		  "1000003000000|1000003006000|20000|18219251273875|2|1;"
		  "1000005000000|1000048500000|20000|18219251273875|3|2;"
		  "1000049000000|1000049001000|20000|18219251273875|4|1;"
		  "1000000100000|1000000103000|20000|18219251273882|5|3");
	CHECK_STR(Q("SELECT * FROM TASK ORDER BY globalTaskId"),
		  "1000010000000|1000014000000|0|0|0|4242|4|NULL|3|1|NULL;"
		  "1000016000000|1000026000000|0|1|1|4242|5|NULL|3|2|NULL;"
		  "1000028000000|1000048000000|0|2|2|4242|5|NULL|3|3|NULL");
	CHECK_STR(Q("SELECT * FROM COMPUTE_TASK_INFO ORDER BY globalTaskId"),
		  "6|1|NULL|NULL|5|6|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL;"
		  "7|2|NULL|NULL|5|7|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL");
	CHECK_STR(Q("SELECT * FROM SESSION_TIME_INFO"), "999990000000|1000051000000");
	CHECK_STR(Q("SELECT * FROM NPU_INFO"), "0|NULL");
	CHECK_STR(Q("SELECT * FROM HOST_INFO"), "NULL|fixture");
	CHECK_STR(Q("SELECT * FROM META_DATA ORDER BY name"),
		  "SCHEMA_VERSION|1.2.0;SCHEMA_VERSION_MAJOR|1;SCHEMA_VERSION_MICRO|0;"
		  "SCHEMA_VERSION_MINOR|2");
}

static void check_joins(sqlite3 *db)
{
	char buf[1024];

	CHECK_STR(Q("SELECT s.value, count(*) FROM CANN_API a JOIN TASK t"
		    " ON a.connectionId = t.connectionId JOIN STRING_IDS s ON s.id = a.name"
		    " GROUP BY s.value ORDER BY s.value"),
		  "aclrtLaunchKernel|2;aclrtMemcpyAsync|1");
	CHECK_STR(Q("SELECT s.value, count(*) FROM TASK t JOIN COMPUTE_TASK_INFO c"
		    " ON c.globalTaskId = t.globalTaskId JOIN STRING_IDS s ON s.id = c.name"
		    " GROUP BY s.value ORDER BY s.value"),
		  "add_custom|1;matmul_custom|1");
	CHECK_STR(Q("SELECT s.value, count(*) FROM TASK t JOIN COMPUTE_TASK_INFO c"
		    " ON c.globalTaskId = t.globalTaskId JOIN STRING_IDS s ON s.id = c.opType"
		    " GROUP BY s.value ORDER BY s.value"),
		  "add_custom|1;matmul_custom|1");
}

/* Every time in the database is the model's, in the same order. */
static void check_model_times(sqlite3 *db, const char *prof)
{
	const struct xm_task *t;
	const struct xm_call *c;
	struct export_model m;
	struct xm_tasks ti;
	struct xm_calls ci;
	sqlite3_stmt *st;
	size_t rows = 0;

	CHECK_EQ(export_model_load(prof, &m), 0);
	CHECK_EQ(sqlite3_prepare_v2(db, "SELECT startNs, endNs FROM TASK ORDER BY globalTaskId",
				    -1, &st, NULL), SQLITE_OK);
	CHECK_EQ(xm_tasks_begin(&m, &ti), 0);
	while (xm_tasks_next(&ti, &t) == 1) {
		if (!t->drawn)
			continue;
		CHECK_EQ(sqlite3_step(st), SQLITE_ROW);
		CHECK_EQ(sqlite3_column_int64(st, 0), t->start_ns);
		CHECK_EQ(sqlite3_column_int64(st, 1), t->end_ns);
		rows++;
	}
	CHECK_EQ(sqlite3_step(st), SQLITE_DONE);
	CHECK_EQ(rows, 3);
	sqlite3_finalize(st);
	CHECK_EQ(sqlite3_prepare_v2(db, "SELECT startNs, endNs FROM CANN_API ORDER BY connectionId",
				    -1, &st, NULL), SQLITE_OK);
	CHECK_EQ(xm_calls_begin(&m, &ci), 0);
	while (xm_calls_next(&ci, &c) == 1) {
		CHECK_EQ(sqlite3_step(st), SQLITE_ROW);
		CHECK_EQ(sqlite3_column_int64(st, 0), c->entry_ns);
		CHECK_EQ(sqlite3_column_int64(st, 1), c->exit_ns);
	}
	CHECK_EQ(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	export_model_free(&m);
}

static void check_db(const char *path, const char *prof)
{
	sqlite3 *db;
	char buf[512];

	CHECK_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	CHECK_STR(Q("SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master"
		    " WHERE type = 'table' ORDER BY name)"),
		  "CANN_API,COMPUTE_TASK_INFO,ENUM_API_TYPE,HOST_INFO,META_DATA,NPU_INFO,"
		  "SESSION_TIME_INFO,STRING_IDS,TASK");
	CHECK_STR(Q("SELECT (SELECT count(*) FROM CANN_API), (SELECT count(*) FROM TASK),"
		    " (SELECT count(*) FROM COMPUTE_TASK_INFO), (SELECT count(*) FROM STRING_IDS),"
		    " (SELECT count(*) FROM ENUM_API_TYPE), (SELECT count(*) FROM META_DATA)"),
		  "6|3|2|8|9|4");
	check_columns(db);
	check_rows(db);
	check_joins(db);
	check_model_times(db, prof);
	sqlite3_close(db);
}

int main(void)
{
	char root[256], prof[512], first[1024], path[1024], out[1024];
	struct msprof_export_opts opts = { 0 };
	struct stat st;
	int tmps;

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 1, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	/* an earlier export's database, one of an export killed before its
	 * rename, and a file that is not ours */
	for (size_t i = 0; i < 3; i++) {
		static const char *const planted[] = { "msprof_20200101000000.db",
						       "msprof_20200101000001.db.tmp", "notes.db" };

		snprintf(path, sizeof(path), "%s/%s", prof, planted[i]);
		CHECK_EQ(fx_write_file(path, "x", 1), 0);
	}
	opts.output = prof;
	opts.type = MSPROF_EXPORT_DB;
	CHECK_EQ(msprof_export(&opts), 0);
	CHECK(access(path, F_OK) == 0); /* notes.db stays */
	snprintf(out, sizeof(out), "%s/mindstudio_profiler_output", prof);
	CHECK(stat(out, &st) != 0); /* the database alone */
	CHECK_EQ(fx_find_db(prof, first, sizeof(first), &tmps), 1);
	CHECK_EQ(tmps, 0);
	CHECK_EQ(stat(first, &st), 0);
	CHECK_EQ(st.st_mode & 0777, 0640);
	check_db(first, prof);

	opts.type = MSPROF_EXPORT_TEXT;
	CHECK_EQ(msprof_export(&opts), 0);
	CHECK_EQ(fx_count_outputs(prof), 5);
	CHECK_EQ(fx_find_db(prof, path, sizeof(path), &tmps), 1); /* the first is replaced */
	CHECK_EQ(tmps, 0);
	CHECK(strcmp(path, first) != 0);
	check_db(path, prof);
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
