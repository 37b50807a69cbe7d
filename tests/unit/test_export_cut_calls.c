// SPDX-License-Identifier: MIT
/*
 * Description: an API call still in flight at the stop (a record flagged
 * NPUPROF_API_CUT_END: entry time and arguments, exit_ts 0) is drawn
 * ending at the capture window's end, marked, and never counted as a
 * call that returned.  The fixture (test_export_fixture.h) with its
 * aclrtMemcpyAsync (thread 4243, entered at 1 ms, submits task 1) written
 * as cut; the window ends at end_info's clock, 51 ms:
 *  1. timeline: one X "aclrtMemcpyAsync" at 1000001000.000 us, dur 50000
 *     (to 1000051000.000), args "cut": "end" and no "Return Code"; the
 *     calls the thread made after it (launches at 2, 3 and 49 ms, the
 *     sync at 5 ms) are drawn inside it; task 1's HostToDevice flow
 *     still starts at it;
 *  2. api_statistic: no aclrtMemcpyAsync row (no return, no duration),
 *     aclrtLaunchKernel's 3 calls as before; the summary says "and 1 in
 *     flight at the stop";
 *  3. database: CANN_API holds the 5 calls that returned, connectionId 1
 *     to 5 (0, the cut call's position, has no row); TASK's MEMCPY task
 *     has a NULL connectionId, the two kernels 1 and 2;
 *  4. with end_info's clockMonotonicDisabled (the capture off, 52 ms) it
 *     ends there instead: dur 51000 (a call may enter after the window's
 *     end, before the capture is off, and be cut);
 *  5. without end_info (the window's end unknown) the cut call is not
 *     drawn at all and still counted in the summary.
 * ../shared/checks/check_prof.py passes on the first export, when there.
 */
#include <sqlite3.h>

#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

#define HOST_PID (((int64_t)FX_PID << 10) | (7 << 5) | 31) /* CANN: sort index 7, host */

/* The fixture's end_info with the time the capture was off, 52 ms. */
#define END_INFO_OFF                                                                   \
	"{\"collectionDateEnd\": \"2026-01-01 12:00:01\", "                              \
	"\"collectionTimeEnd\": \"1767268801000000\", \"clockMonotonicRaw\": 1000051000000, " \
	"\"clockMonotonic\": 1000051000000, \"clockMonotonicDisabled\": 1000052000000}\n"

static const char *sval(json_t *ev, const char *key)
{
	return json_string_value(json_object_get(ev, key));
}

/* The X event @name on the host row, or NULL; *@n gets how many there are. */
static json_t *host_x(json_t *evs, const char *name, size_t *n)
{
	json_t *ev, *found = NULL;
	size_t i;

	*n = 0;
	json_array_foreach(evs, i, ev)
		if (!strcmp(sval(ev, "ph") ?: "", "X") &&
		    json_integer_value(json_object_get(ev, "pid")) == HOST_PID &&
		    !strcmp(sval(ev, "name") ?: "", name)) {
			found = ev;
			(*n)++;
		}
	return found;
}

/* Export @prof's parent @root; stdout (the summary) into @summary. */
static void export_to(const char *root, const char *summary)
{
	struct msprof_export_opts opts = { .output = root, .print_summary = 1 };
	int saved = fx_fd_to(1, summary);

	CHECK_EQ(msprof_export(&opts), 0);
	fx_fd_back(1, saved);
}

/* @dur_us: the cut call's, 0 when it is not drawn. */
static void check_timeline(const char *prof, double dur_us)
{
	char path[1024];
	json_t *evs, *x, *args, *ev;
	size_t n, i;
	int s_at_memcpy = 0;

	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, sizeof(path)), 1);
	evs = json_load_file(path, 0, NULL);
	CHECK(json_is_array(evs));
	if (!evs)
		return;
	x = host_x(evs, "aclrtMemcpyAsync", &n);
	CHECK_EQ(n, dur_us > 0 ? 1 : 0);
	if (x) {
		args = json_object_get(x, "args");
		CHECK_STR(sval(x, "ts"), "1000001000.000");
		CHECK(json_real_value(json_object_get(x, "dur")) == dur_us);
		CHECK_STR(sval(args, "cut"), "end");
		CHECK(json_object_get(args, "Return Code") == NULL);
		CHECK_EQ(json_integer_value(json_object_get(args, "Thread Id")), FX_TID);
		CHECK_STR(sval(args, "Stream"), "0xabc");
	}
	/* the thread's later calls, whole, inside it */
	host_x(evs, "aclrtLaunchKernel", &n);
	CHECK_EQ(n, 3);
	x = host_x(evs, "aclrtSynchronizeStream", &n);
	CHECK_EQ(n, 1);
	if (x)
		CHECK(json_object_get(json_object_get(x, "args"), "cut") == NULL);
	json_array_foreach(evs, i, ev)
		s_at_memcpy += !strcmp(sval(ev, "ph") ?: "", "s") &&
			       !strcmp(sval(ev, "ts") ?: "", "1000001000.000");
	CHECK_EQ(s_at_memcpy, 1); /* task 1's flow, from the cut call */
	json_decref(evs);
}

static void check_statistic(const char *prof, const char *summary)
{
	char *csv = fx_read_output(prof, "api_statistic_", ".csv"), *out = fx_slurp(summary);

	CHECK(csv != NULL);
	if (csv) {
		CHECK(strstr(csv, "aclrtMemcpyAsync") == NULL);
		CHECK(strstr(csv, "aclrtLaunchKernel") != NULL);
	}
	CHECK(out != NULL);
	if (out) {
		CHECK(strstr(out, "API calls: 6 (AscendCL 5, Runtime 0, and 1 in flight at the stop") !=
		      NULL);
		if (check_failures)
			fprintf(stderr, "summary:\n%s", out);
	}
	free(csv);
	free(out);
}

/* Rows of @sql, "|"-joined columns, ";"-joined rows (NULL as "NULL"). */
static const char *rows(sqlite3 *db, const char *sql, char *out, size_t size)
{
	sqlite3_stmt *st;
	size_t len = 0;
	int r = 0;

	out[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return sqlite3_errmsg(db);
	while (sqlite3_step(st) == SQLITE_ROW && len < size) {
		for (int i = 0; i < sqlite3_column_count(st) && len < size; i++) {
			const char *v = (const char *)sqlite3_column_text(st, i);

			len += snprintf(out + len, size - len, "%s%s", i ? "|" : r ? ";" : "",
					v ? v : "NULL");
		}
		r++;
	}
	sqlite3_finalize(st);
	return out;
}

static void check_db(const char *prof)
{
	char path[1024], buf[512];
	sqlite3 *db = NULL;
	int tmps;

	CHECK_EQ(fx_find_db(prof, path, sizeof(path), &tmps), 1);
	CHECK_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	CHECK_STR(rows(db, "SELECT connectionId FROM CANN_API ORDER BY connectionId", buf,
		       sizeof(buf)),
		  "1;2;3;4;5");
	CHECK_STR(rows(db,
		       "SELECT s.value, t.connectionId FROM TASK t JOIN STRING_IDS s"
		       " ON s.id = t.taskType ORDER BY t.startNs",
		       buf, sizeof(buf)),
		  "MEMCPY|NULL;AI_CORE|1;AI_CORE|2");
	sqlite3_close(db);
}

/* ../shared/checks/check_prof.py (or $NPUPROF_CHECK_PROF) passes on @root, when there. */
static void check_prof_passes(const char *root)
{
	const char *checker = getenv("NPUPROF_CHECK_PROF") ?: "../shared/checks/check_prof.py";
	char cmd[1200];

	if (access(checker, R_OK) || system("python3 -c '' 2>/dev/null"))
		return;
	snprintf(cmd, sizeof(cmd), "python3 '%s' '%s' >&2", checker, root);
	CHECK_EQ(system(cmd), 0);
}

int main(void)
{
	char root[256], prof[512], summary[600], path[700];

	fx_cut_api = NPUPROF_API_RT_MEMCPY_ASYNC;
	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 0, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	snprintf(summary, sizeof(summary), "%s/summary.txt", root);
	export_to(root, summary);
	check_prof_passes(root);
	check_timeline(prof, 50000.0);
	check_statistic(prof, summary);
	check_db(prof);

	snprintf(path, sizeof(path), "%s/host/end_info", prof);
	CHECK_EQ(fx_write_file(path, END_INFO_OFF, strlen(END_INFO_OFF)), 0);
	export_to(root, summary);
	check_timeline(prof, 51000.0);

	CHECK_EQ(unlink(path), 0);
	export_to(root, summary);
	check_timeline(prof, 0);
	check_statistic(prof, summary);
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
