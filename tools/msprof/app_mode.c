// SPDX-License-Identifier: MIT
/*
 * App mode (see app_mode.h): launch the job with the parameters in its
 * environment and no in-app server, follow every process it starts,
 * and let msprof_app_loop() (cmdloop.c) open and close the one window
 * by --delay and --duration.  When the job's libraries could not be
 * found before it ran, the first of its processes that maps
 * libascendcl.so gets the uprobes.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <npuprof/msg.h>
#include <npuprof/session.h>

#include "app_mode.h"
#include "cmdloop.h"
#include "dynamic.h"
#include "error_words.h"
#include "launch.h"

/*
 * App mode: a process whose library could not be probed because of @e is
 * passed over for now (its library is not mapped yet, or it has exited);
 * anything else (the library's symbols, a refused probe) would fail the
 * same way for every process of the job.
 */
static int probe_retry(const struct npuprof_error *e)
{
	return e->stage == NPUPROF_STAGE_PROCESS ||
	       (e->stage == NPUPROF_STAGE_LIBRARY && e->err == -ENOENT);
}

/*
 * App mode, every 100 ms until done: the first process of the job that
 * maps libascendcl.so gets the uprobes placed on it (its siblings run the
 * same file, and every process of the job is in the filter already).
 */
static int find_acl_lib(struct msprof_dyn *d)
{
	char words[PATH_MAX + 512];
	struct dirent *de;
	DIR *proc = opendir("/proc");

	if (!proc)
		return MSPROF_CMD_CONTINUE;
	while ((de = readdir(proc))) {
		pid_t pid = (pid_t)strtol(de->d_name, NULL, 10);

		if (pid <= 0 || !msprof_descends_from(pid, getpid()))
			continue;
		if (!npuprof_session_probe_pid(d->s, pid)) {
			npuprof_info("runtime API capture: uprobes on the libascendcl.so of pid %d", (int)pid);
			msprof_warn_untraced(d);
			if (npuprof_session_running(d->s))
				npuprof_warn("ACL calls the job made before this were not captured: put the directory of its libascendcl.so in LD_LIBRARY_PATH so msprof finds it before the job starts");
			d->discover = NULL;
			break;
		}
		/* not mapped (yet), or gone: the next process, or later */
		if (probe_retry(npuprof_session_error(d->s)))
			continue;
		msprof_error_words(npuprof_session_error(d->s), pid, words, sizeof(words));
		npuprof_warn("no runtime API capture: %s", words);
		d->discover = NULL;
		break;
	}
	closedir(proc);
	return MSPROF_CMD_CONTINUE;
}

int msprof_app_run(const struct msprof_options *o)
{
	struct msprof_dyn d = { .ops = &msprof_session_ops_real };
	struct msprof_launched l = { .gate_fd = -1, .err_fd = -1 };
	char *params = msprof_begin_run(o, &d), words[PATH_MAX + 512];
	int rc, started = 0;

	if (!params)
		return MSPROF_EXIT_FAILURE;
	rc = msprof_check_runnable(o);
	if (!rc)
		rc = msprof_launch_app(o, params, &l);
	if (rc)
		goto out_free;
	d.child = l.pid;
	rc = msprof_create_session(o, params, &d, l.pid);
	if (!rc)
		rc = npuprof_session_follow_pid(d.s, l.pid);
	if (rc && d.s) {
		msprof_error_words(npuprof_session_error(d.s), l.pid, words, sizeof(words));
		npuprof_err("cannot follow %s (pid %d): %s", o->app_argv[0], (int)l.pid, words);
	}
	if (!rc && !msprof_probe_job_lib(o, &d))
		d.discover = find_acl_lib; /* place them at the first mapping */
	/* no delay: the window opens before the app runs its first instruction */
	if (!rc && !o->delay_s)
		started = !msprof_session_start(d.s);
	if (!rc && !o->delay_s && !started) {
		msprof_error_words(npuprof_session_error(d.s), 0, words, sizeof(words));
		npuprof_err("cannot start the capture: %s", words);
		rc = -EIO;
	}
	if (msprof_release_app(o, &l)) {
		d.child_reaped = 1;
		rc = rc ? rc : -ENOEXEC;
		goto out_close;
	}
	if (rc) {
		npuprof_warn("%s (pid %d) keeps running without profiling", o->app_argv[0], (int)d.child);
		goto out_close;
	}
	if (started)
		printf("collection started\n");
	rc = msprof_app_loop(&d, o->delay_s, o->duration_s, started);
out_close:
	npuprof_session_close(d.s);
	if (d.child > 0 && !d.child_reaped)
		msprof_wait_app(&d);
out_free:
	msprof_end_run(o, &d, params);
	return msprof_run_status(&d, rc);
}
