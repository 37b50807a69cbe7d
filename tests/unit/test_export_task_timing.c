// SPDX-License-Identifier: MIT
/*
 * Description: the export says which devices have no task begin/end
 * times and why, from info.json's "taskTiming": a device of this dir's
 * tasks (the fixture's are on device 0) whose log another process held
 * ("beginEndOutcome" "taken") is one reason, in the capture's own words,
 * "device 0: no task begin/end times (another process collects device
 * 0's log (pid 9, msprof)): host-side timing only (submits and API
 * calls)"; a device read through its log ("deviceLog") or its driver's
 * tracepoints ("tracepoints") is none, and so is a capture without the
 * key.  A device this dir's process ran nothing on is none either, taken
 * or not read ("notRead"): a launch capture on ascendsim called its
 * PROF dir incomplete for devices 1-3, which the app never used.  A
 * device log with gaps in its 4-bit record count ("countGaps") is one
 * more reason, that names the count a lower bound (a HAL buffer that
 * dropped 5578 records showed 662 gaps).
 */
#include "check.h"
#include "export_model.h"
#include "test_export_fixture.h"

#define TAKEN_REASON                                                                   \
	"device 0: no task begin/end times (another process collects device 0's log (pid " \
	"9, msprof)): host-side timing only (submits and API calls)"

/* Rewrite host/info.json with "taskTiming" @timing ("" for no key). */
static int write_info(const char *prof, const char *timing)
{
	char path[1024], text[1024];

	snprintf(path, sizeof(path), "%s/host/info.json", prof);
	snprintf(text, sizeof(text),
		 "{\"pid\": 4242, \"pid_name\": \"ai_task\", \"hostname\": \"fixture\", "
		 "\"devices\": [0], \"record_version\": 1%s%s}\n",
		 timing[0] ? ", \"taskTiming\": " : "", timing);
	return fx_write_file(path, text, strlen(text));
}

/* Reasons of the export of @prof that mention @what; the last in @last. */
static size_t reasons_of(const char *prof, const char *what, char *last, size_t size)
{
	struct export_model m;
	size_t n = 0;

	last[0] = 0;
	CHECK_EQ(export_model_load(prof, &m), 0);
	for (size_t i = 0; i < m.n_reasons; i++) {
		if (!strstr(m.reasons[i], what))
			continue;
		n++;
		snprintf(last, size, "%s", m.reasons[i]);
	}
	export_model_free(&m);
	return n;
}

/* Reasons of the export of @prof that mention task begin/end. */
static size_t timing_reasons(const char *prof, char *last, size_t size)
{
	return reasons_of(prof, "task begin/end", last, size);
}

int main(void)
{
	char root[256], prof[512], last[512];

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 0, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	CHECK_EQ(write_info(prof, "[{\"device\": 1, \"submit\": \"halSqTaskSend uprobe\", "
				  "\"beginEnd\": \"device log (channel 50)\", "
				  "\"beginEndOutcome\": \"deviceLog\"}, "
				  "{\"device\": 0, \"submit\": \"halSqTaskSend uprobe\", "
				  "\"beginEnd\": \"none: another process collects device 0's log "
				  "(pid 9, msprof)\", \"beginEndOutcome\": \"taken\"}, "
				  "{\"device\": 2, \"submit\": \"halSqTaskSend uprobe\", "
				  "\"beginEnd\": \"none: not read (the window's processes hold other devices)\", "
				  "\"beginEndOutcome\": \"notRead\"}, "
				  "{\"device\": 3, \"submit\": \"halSqTaskSend uprobe\", "
				  "\"beginEnd\": \"none: another process collects device 3's log "
				  "(pid 9, msprof)\", \"beginEndOutcome\": \"taken\"}]"),
		 0);
	CHECK_EQ(timing_reasons(prof, last, sizeof(last)), 1);
	CHECK_STR(last, TAKEN_REASON);
	CHECK_EQ(write_info(prof, "[{\"device\": 0, \"submit\": \"driver tracepoints\", "
				  "\"beginEnd\": \"driver tracepoints\", "
				  "\"beginEndOutcome\": \"tracepoints\"}]"),
		 0);
	CHECK_EQ(timing_reasons(prof, last, sizeof(last)), 0);
	CHECK_EQ(write_info(prof, ""), 0);
	CHECK_EQ(timing_reasons(prof, last, sizeof(last)), 0);
	/* gaps in the log's count: a lower bound, said so */
	CHECK_EQ(write_info(prof, "[{\"device\": 0, \"submit\": \"halSqTaskSend uprobe\", "
				  "\"beginEnd\": \"device log (channel 50)\", "
				  "\"beginEndOutcome\": \"deviceLog\", \"deviceLog\": {\"countGaps\": 662}}]"),
		 0);
	CHECK_EQ(reasons_of(prof, "4-bit", last, sizeof(last)), 1);
	CHECK_STR(last, "device 0: at least 662 records of its log are missing (gaps in the log's 4-bit record count, counted as lost; a run of 16 or more shows as fewer)");
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
