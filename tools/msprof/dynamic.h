/* SPDX-License-Identifier: MIT */
/*
 * msprof --dynamic=on: launch an app (or attach to one with --pid),
 * connect to the dynamic-profiling server inside it, open the capture
 * session and run the command prompt (cmdloop.h); and the setup of a
 * capture run that app mode (app_mode.h) shares with it.
 */
#ifndef MSPROF_DYNAMIC_H
#define MSPROF_DYNAMIC_H

#include <stddef.h>
#include <sys/types.h>

#include <npuprof/npu_backend.h>
#include <npuprof/session.h>

#include "options.h"

/**
 * msprof_params_json() - the ProfileParams JSON sent to the app
 * @o:   checked options (output_abs set)
 * @msprof_pid: msprof's own pid (msprofBinPid)
 *
 * Keys follow CANN's ProfileParams field names: result_dir, acl,
 * runtimeApi, taskTime, prof_level, msprofBinPid, ...
 * Return: a malloc'd compact JSON string (caller frees), or NULL when out
 * of memory.
 */
char *msprof_params_json(const struct msprof_options *o, pid_t msprof_pid);

/**
 * msprof_dynamic_run() - the whole of dynamic mode
 *
 * Launch mode forks the app with PROFILING_MODE=dynamic and waits for its
 * socket; attach mode connects once to the socket of each --pid.  Return:
 * the exit status: 0 when the prompt ran and every requested capture
 * succeeded (an app that exits ends its capture normally);
 * MSPROF_EXIT_PARTIAL when some processes could not be reached or failed
 * a command while others were captured; MSPROF_EXIT_FAILURE when no
 * session could be set up (the messages are printed).  In launch mode the
 * app is always waited for before returning.
 */
int msprof_dynamic_run(const struct msprof_options *o);

struct msprof_dyn;

/**
 * msprof_run_status() - the exit status of a dynamic or app mode run
 * (options.h, README "Exit status")
 * @setup_rc: 0, or the -errno with which setting up the run failed
 *
 * In order: the launched app's non-zero status (128 + signal when
 * killed); MSPROF_EXIT_FAILURE when setting up failed, or when a capture
 * was asked for (a start) and nothing was saved; MSPROF_EXIT_INCOMPLETE
 * when a window was saved but known incomplete, or one of several
 * failed; MSPROF_EXIT_PARTIAL when some processes were captured and
 * others not; else 0 (also when no start was ever asked for).
 */
int msprof_run_status(const struct msprof_dyn *d, int setup_rc);

/*
 * What app mode (app_mode.c) and launching (launch.c) share with dynamic
 * mode: the run's setup and its capture session.
 */

/**
 * msprof_begin_run() - what every capture run needs first
 * @d: the run; @d->out_fd and @d->result are set here
 *
 * Refuses a pid namespace msprof cannot capture from, creates --output
 * and proves it writable, finds what a seccomp filter, missing
 * capabilities or a missing npuprof.ko leave of the capture into @d->pf
 * (preflight.h: said once; nothing capturable fails here), chooses the
 * drain's writer (io_uring, or the pwrite fallback where io_uring is
 * refused: said once; io_uring forced there fails here), builds the
 * parameters for the app (without the API levels that cannot be
 * captured) and opens the --result stream.  Return: the ProfileParams JSON (malloc'd; give
 * it back with msprof_end_run()), or NULL after saying what failed.
 */
char *msprof_begin_run(const struct msprof_options *o, struct msprof_dyn *d);

/**
 * msprof_end_run() - undo msprof_begin_run(): free @params, close the
 * --result stream and --output, and remove the directories of --output
 * this run created when they stayed empty
 */
void msprof_end_run(const struct msprof_options *o, struct msprof_dyn *d, char *params);

/**
 * msprof_create_session() - open the capture session, with no process
 * yet, into @d->s, and say at once how it captures (device-task path,
 * uprobes)
 * @params: the ProfileParams JSON, kept in each PROF dir
 * @pid:    the process to name if it fails (0: none)
 *
 * Launch and app mode make the session follow the job.  Return: 0, or
 * the -errno of npuprof_session_create() after saying why, @d->s NULL.
 */
int msprof_create_session(const struct msprof_options *o, const char *params, struct msprof_dyn *d,
			  pid_t pid);

/**
 * msprof_warn_untraced() - once per run, name the recorded functions the
 * probed library lacks; and the layers --runtime-api finds missing
 * (msprof_warn_missing_layers())
 */
void msprof_warn_untraced(struct msprof_dyn *d);

/**
 * msprof_say_task_path() - say once, at start, which path captures device
 * tasks and why (@tc->reason), the driver and the tracepoints in use, and
 * name each driver tracepoint that is missing or could not be attached
 * @tc: npuprof_session_task_capture() of the new session
 * @h:  npuprof_session_host() of it: the devices and their driver
 *
 * Prints [INFO] lines on stdout and [WARNING] lines on stderr
 * (npuprof/msg.h); nothing for a session that captures no device task.
 */
void msprof_say_task_path(const struct npuprof_task_capture_info *tc, const struct npu_host *h);

/**
 * msprof_say_probe_path() - say once, at start, how the runtime-API
 * uprobes work on this kernel (links, where calls in flight are kept, how
 * each probe knows its API) and what a better way needs; info.json's
 * "uprobes" keeps the same.  One [INFO] line on stdout; nothing for a
 * session that places no runtime-API probe.
 */
void msprof_say_probe_path(const struct npuprof_session *s);

/**
 * msprof_say_device_log() - at a window's start, on a host whose driver
 * gives task begin/end only through the device log: where each device's
 * come from, one line per distinct outcome naming its devices ([INFO]
 * "devices 0, 1: task begin/end from the device log (channel 50)", or
 * [WARNING] "device 2: no task begin/end times: <why>; host-side timing
 * only (submits and API calls)").  Each is said once: a later window says
 * only what changed.  Nothing when the session read no device log.
 */
void msprof_say_device_log(const struct npuprof_session *s);

struct npuprof_devlog_dev;

/* msprof_say_device_log() of the @n devices @dl (npuprof/devlog.h). */
void msprof_say_device_log_of(const struct npuprof_devlog_dev *dl, unsigned int n);

/**
 * msprof_session_start() - npuprof_session_start(), then
 * msprof_say_device_log() when the window started (the real
 * msprof_session_ops start).  Return: npuprof_session_start()'s.
 */
int msprof_session_start(struct npuprof_session *s);

#endif /* MSPROF_DYNAMIC_H */
