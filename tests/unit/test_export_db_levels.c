// SPDX-License-Identifier: MIT
/*
 * Description: CANN_API.type is each call's CANN level (ENUM_API_TYPE):
 * aclrtLaunchKernel 20000 (acl), the runtime's StreamSynchronize 5000
 * (runtime), and NULL for an API id this build does not know (a record of
 * a newer writer), its name "api_<id>".  Calls of pid 7, tid 8 at 1, 2
 * and 3 us: connectionId 0, 1, 2.
 */
#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include "check.h"
#include "export_db.h"
#include "export_model.h"

int main(void)
{
	static const uint16_t apis[] = { NPUPROF_API_RT_LAUNCH_KERNEL, NPUPROF_API_RTS_STREAM_SYNC,
					 NPUPROF_API_MAX + 7 };
	char path[] = "/tmp/npuprof_db_levels_XXXXXX", got[256] = "", want[256];
	struct export_model m;
	sqlite3_stmt *st;
	sqlite3 *db;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	export_model_init(&m, AT_FDCWD);
	for (size_t i = 0; i < 3; i++) {
		struct xm_call c = { .entry_ns = 1000 * (i + 1), .exit_ns = 1000 * (i + 1) + 500,
				     .pid = 7, .tid = 8, .api = apis[i], .device = -1 };

		CHECK_EQ(export_model_add_call(&m, &c), 0);
	}
	CHECK_EQ(export_model_join(&m), 0);
	CHECK_EQ(export_write_db(&m, fd), 0);
	close(fd);
	export_model_free(&m);

	CHECK_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	CHECK_EQ(sqlite3_prepare_v2(db, "SELECT group_concat(a.connectionId || ':' || s.value || ':'"
				    " || ifnull(a.type, 'NULL') || ':' || a.globalTid, ',')"
				    " FROM CANN_API a JOIN STRING_IDS s ON s.id = a.name",
				    -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(got, sizeof(got), "%s", (const char *)sqlite3_column_text(st, 0));
	snprintf(want, sizeof(want),
		 "0:aclrtLaunchKernel:20000:30064771080,1:StreamSynchronize:5000:30064771080,"
		 "2:api_%u:NULL:30064771080", NPUPROF_API_MAX + 7);
	CHECK_STR(got, want);
	sqlite3_finalize(st);
	sqlite3_close(db);
	unlink(path);
	return CHECK_DONE();
}
