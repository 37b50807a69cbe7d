// SPDX-License-Identifier: MIT
/*
 * Description: a failure has one plain wording.  The session's log text
 * (npuprof_session_last_error()) and msprof's words for a stage it has no
 * words of its own for (tools/msprof/error_words.c) are the library's
 * npuprof_error_words(): "<object>: <strerror>", or the strerror alone.
 * Checked as exact text for each stage msprof words plainly, and through
 * a real failure: a session created on a missing --output.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <npuprof/session.h>

#include "check.h"
#include "error_words.h"
#include "tmpdir.h"

struct row {
	enum npuprof_stage stage;
	int err;
	const char *object;
	const char *want;
};

static const struct row rows[] = {
	{ NPUPROF_STAGE_NONE, -ENOMEM, "", "Cannot allocate memory" },
	{ NPUPROF_STAGE_SESSION, -EBUSY, "", "Device or resource busy" },
	{ NPUPROF_STAGE_DEVICE, -ENODEV, "/dev/davinci0", "/dev/davinci0: No such device" },
	{ NPUPROF_STAGE_PROCESS, -EINVAL, "process 7", "process 7: Invalid argument" },
	{ NPUPROF_STAGE_BPF_LOAD, -E2BIG, "loading the BPF runtime-API probes",
	  "loading the BPF runtime-API probes: Argument list too long" },
	{ NPUPROF_STAGE_CAPTURE, -EIO, "starting the drain", "starting the drain: Input/output error" },
	{ NPUPROF_STAGE_OUTPUT, -EACCES, "/out/PROF_1", "/out/PROF_1: Permission denied" },
};

static void check_rows(void)
{
	char lib[512], tool[512];
	struct npuprof_error e;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		npuprof_error_set(&e, rows[i].stage, rows[i].err, 0, rows[i].object);
		npuprof_error_words(&e, lib, sizeof(lib));
		msprof_error_words_as(&e, 0, 1, tool, sizeof(tool));
		CHECK_STR(lib, rows[i].want);
		CHECK_STR(tool, lib);
	}
}

/* The session's own text of a failed create, and msprof's words for it. */
static void check_session(const char *dir)
{
	struct npuprof_session_opts o = { 0 };
	struct npuprof_session *s = NULL;
	char missing[512], want[600], tool[600];

	snprintf(missing, sizeof(missing), "%s/missing", dir);
	o.output = missing;
	CHECK_EQ(npuprof_session_create(&o, &s), -ENOENT);
	snprintf(want, sizeof(want), "%s: No such file or directory", missing);
	CHECK_STR(npuprof_session_last_error(NULL), want);
	msprof_error_words(npuprof_session_error(NULL), 0, tool, sizeof(tool));
	CHECK_STR(tool, npuprof_session_last_error(NULL));
}

int main(void)
{
	char dir[] = "/tmp/npuprof-wording-XXXXXX";

	if (!mkdtemp(dir))
		return 1;
	check_rows();
	check_session(dir);
	tmpdir_remove(dir);
	return CHECK_DONE();
}
