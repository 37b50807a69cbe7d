// SPDX-License-Identifier: MIT
/*
 * Description: every failure of the capture session that can be provoked
 * on the host names its stage as a value (npuprof_session_error()), with
 * the errno and the object, and the words msprof prints come from those:
 * /dev/npuprof missing -> MODULE (-ENOENT, the device path), --output
 * missing -> OUTPUT at create, --output removed after it was opened ->
 * OUTPUT at start (the PROF_XXX directory), a pid that has exited ->
 * PROCESS (-ESRCH), the same pid added twice, a second start, a stop with
 * no window -> SESSION.  A success leaves the last failure in place (it is
 * the last one), and create's failure is kept for this thread with no
 * session (npuprof_session_error(NULL)).
 */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <npuprof/session.h>

#include "check.h"
#include "dead_pid.h"
#include "error_words.h"
#include "tmpdir.h"

static void check_error(const struct npuprof_error *e, enum npuprof_stage stage, int err,
			const char *object)
{
	CHECK_STR(npuprof_stage_name(e->stage), npuprof_stage_name(stage));
	CHECK_EQ(e->err, err);
	if (object)
		CHECK_STR(e->object, object);
}

static void check_words(const struct npuprof_error *e, pid_t pid, const char *want)
{
	char words[8192];

	msprof_error_words(e, pid, words, sizeof(words));
	CHECK_STR(words, want);
}

/*
 * npuprof.ko's device node missing, with --task-time and the module path
 * asked for (by default the session would capture tasks through BPF):
 * stage MODULE.
 */
static void check_no_module(const char *dir)
{
	struct npuprof_session_opts o = { .output = dir, .task_time = 1,
					  .kdev = "/nonexistent/npuprof",
					  .task_capture = NPUPROF_TASK_CAPTURE_KMOD };
	struct npuprof_session *s = NULL;

	CHECK_EQ(npuprof_session_create(&o, &s), -ENOENT);
	CHECK(s == NULL);
	check_error(npuprof_session_error(NULL), NPUPROF_STAGE_MODULE, -ENOENT,
		    "/nonexistent/npuprof");
	CHECK_STR(npuprof_session_last_error(NULL),
		  "/nonexistent/npuprof: No such file or directory");
	check_words(npuprof_session_error(NULL), 7,
		    "npuprof.ko is not loaded: load it with insmod npuprof.ko (see README)");
}

/* --output that does not exist, opened by the session: stage OUTPUT. */
static void check_no_output(const char *dir)
{
	char missing[256];
	struct npuprof_session_opts o = { .output = missing };
	struct npuprof_session *s = NULL;

	snprintf(missing, sizeof(missing), "%s/missing", dir);
	CHECK_EQ(npuprof_session_create(&o, &s), -ENOENT);
	check_error(npuprof_session_error(NULL), NPUPROF_STAGE_OUTPUT, -ENOENT, missing);
}

/* A session with no producer: the process and window checks. */
static void check_session(const char *dir)
{
	char out[256], words[512];
	struct npuprof_session_opts o = { .output = out };
	struct npuprof_session *s = NULL;
	pid_t gone = dead_pid();

	snprintf(out, sizeof(out), "%s/out", dir);
	CHECK_EQ(mkdir(out, 0700), 0);
	CHECK_EQ(npuprof_session_create(&o, &s), 0);
	if (!s)
		return;
	CHECK_EQ(npuprof_session_error(s)->stage, NPUPROF_STAGE_NONE);
	CHECK_EQ(npuprof_session_add_pid(s, gone), -ESRCH);
	check_error(npuprof_session_error(s), NPUPROF_STAGE_PROCESS, -ESRCH, NULL);
	CHECK_EQ(npuprof_session_error(s)->pid, gone);
	snprintf(words, sizeof(words), "process %d has exited", (int)gone);
	check_words(npuprof_session_error(s), 0, words);

	CHECK_EQ(npuprof_session_add_pid(s, getpid()), 0);
	CHECK_EQ(npuprof_session_error(s)->stage, NPUPROF_STAGE_PROCESS); /* still the last */
	CHECK_EQ(npuprof_session_add_pid(s, getpid()), -EEXIST);
	check_error(npuprof_session_error(s), NPUPROF_STAGE_SESSION, -EEXIST, "");
	CHECK_EQ(npuprof_session_stop(s, NULL, 0), -EINVAL);
	check_error(npuprof_session_error(s), NPUPROF_STAGE_SESSION, -EINVAL, "");
	CHECK_STR(npuprof_session_untraced(s), "");

	/* --output gone since it was opened: its PROF_XXX cannot be made */
	CHECK_EQ(rmdir(out), 0);
	CHECK_EQ(npuprof_session_start(s), -ENOENT);
	check_error(npuprof_session_error(s), NPUPROF_STAGE_OUTPUT, -ENOENT, NULL);
	CHECK(!strncmp(npuprof_session_error(s)->object, out, strlen(out)));
	CHECK(strstr(npuprof_session_error(s)->object, "/PROF_000001_") != NULL);
	CHECK_EQ(npuprof_session_running(s), 0);
	npuprof_session_close(s);
}

int main(void)
{
	char dir[] = "/tmp/test_session_stages.XXXXXX";

	if (!mkdtemp(dir))
		CHECK_SKIP("cannot create a temp dir");
	if (access("/dev/npuprof", F_OK) == 0)
		fprintf(stderr, "note: /dev/npuprof exists; the test names a missing node\n");
	check_no_module(dir);
	check_no_output(dir);
	check_session(dir);
	tmpdir_remove(dir);
	return CHECK_DONE();
}
