/* SPDX-License-Identifier: MIT */
/*
 * Starting the job msprof profiles (launch mode and app mode): find the
 * program, fork it held at a gate so the capture follows it from its first
 * instruction, hand it the profiling environment, put the uprobes on its
 * libraries before it runs, and wait for it at the end.  Private to
 * tools/msprof (launch.c).
 */
#ifndef MSPROF_LAUNCH_H
#define MSPROF_LAUNCH_H

#include <stddef.h>
#include <sys/types.h>

#include "cmdloop.h"
#include "options.h"

/**
 * struct msprof_launched - a forked app held at its gate before exec
 * @pid:     the child
 * @gate_fd: write a byte (or close it) and the child execs the app
 * @err_fd:  read end of a close-on-exec pipe: an errno arrives on it when
 *           the exec failed, end of file when it worked
 */
struct msprof_launched {
	pid_t pid;
	int gate_fd;
	int err_fd;
};

/**
 * msprof_check_runnable() - before anything starts, whether @o's app
 * exists and may be run (a path, or a name found in PATH)
 *
 * Return: 0, or -ENOENT after saying which.
 */
int msprof_check_runnable(const struct msprof_options *o);

/**
 * msprof_launch_app() - fork @o's app, held at its gate so msprof can
 * follow it before it starts anything
 * @params: the ProfileParams JSON (msprof_params_json()), put in the
 *          child's PROFILER_SAMPLECONFIG; with --dynamic=on the child also
 *          gets PROFILING_MODE=dynamic, msprof's pid as its socket key, a
 *          process group of its own and /dev/null as stdin
 *
 * msprof becomes the child subreaper, so ranks a launcher leaves behind
 * stay its children.  Return: 0 with *@l filled, or -errno (a failed fork
 * is said).
 */
int msprof_launch_app(const struct msprof_options *o, const char *params, struct msprof_launched *l);

/**
 * msprof_release_app() - open @l's gate and learn whether the exec worked
 *
 * Closes both of @l's descriptors.  Return: 0, or the -errno of a failed
 * exec (said, and the child reaped).
 */
int msprof_release_app(const struct msprof_options *o, struct msprof_launched *l);

/**
 * msprof_probe_job_lib() - launch and app mode, before the app runs: put
 * the uprobes on the job's libraries (libascendcl.so for --ascendcl,
 * libruntime.so for --runtime-api), so its calls are captured from the
 * first
 *
 * A library is looked for in what the program itself loads, then in
 * LD_LIBRARY_PATH.  Return: 1 when every library asked for is probed, or
 * can never be (it lacks a function every runtime has: said); 0 when one
 * is not (its probes go on at the first process that maps it).  With
 * npuprof_session_submits() also the halSqTaskSend() probe on the job's
 * libascend_hal.so (also looked for where the driver installs it), said
 * when it cannot be placed; that does not change the return.
 */
int msprof_probe_job_lib(const struct msprof_options *o, struct msprof_dyn *d);

/**
 * msprof_wait_app() - launch and app mode: the app runs to its end
 *
 * Unless @d->child was reaped already, says on stdout that msprof waits,
 * waits for it and keeps its status in @d->child_status.  A status other
 * than exit 0 is named in a warning.
 */
void msprof_wait_app(struct msprof_dyn *d);

/**
 * msprof_app_status() - a wait status as a shell gives it: the exit code,
 * or 128 + the signal; MSPROF_EXIT_FAILURE for anything else
 */
int msprof_app_status(int status);

/**
 * msprof_describe_status() - a wait status in words for a message:
 * "exited with status 3", "was killed by signal 9 (Killed)"
 * @buf: out, @size bytes
 */
void msprof_describe_status(int status, char *buf, size_t size);

/**
 * msprof_descends_from() - 1 when @pid descends from @root (its chain of
 * parents, at most 32 deep, reaches it), else 0
 */
int msprof_descends_from(pid_t pid, pid_t root);

/**
 * msprof_wait_job_runtime() - launch mode, the app can have no
 * dynamic-profiling server: wait for the first process of the launched
 * job (@d->child, or one it started) that maps libascendcl.so, the one
 * captured from the kernel side
 *
 * Looks every MSPROF_CONNECT_RETRY_MS for up to MSPROF_CONNECT_TIMEOUT_MS
 * while @d->child lives, as msprof_connect_launched() waits for a socket.
 * Return: the pid, or -errno after saying why (-ESRCH: the app ended
 * first; -ETIMEDOUT).
 */
pid_t msprof_wait_job_runtime(const struct msprof_options *o, struct msprof_dyn *d);

#endif /* MSPROF_LAUNCH_H */
