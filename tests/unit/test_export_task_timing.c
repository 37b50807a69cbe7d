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
 * PROF dir incomplete for devices 1-3, which the app never used.
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

/* Reasons of the export of @prof that mention task begin/end; the last in @last. */
static size_t timing_reasons(const char *prof, char *last, size_t size)
{
	struct export_model m;
	size_t n = 0;

	last[0] = 0;
	CHECK_EQ(export_model_load(prof, &m), 0);
	for (size_t i = 0; i < m.n_reasons; i++) {
		if (!strstr(m.reasons[i], "task begin/end"))
			continue;
		n++;
		snprintf(last, size, "%s", m.reasons[i]);
	}
	export_model_free(&m);
	return n;
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
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
