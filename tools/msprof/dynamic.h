/* SPDX-License-Identifier: MIT */
/*
 * msprof --dynamic=on: launch an app (or attach to one with --pid),
 * connect to the dynamic-profiling server inside it, open the capture
 * session and run the command prompt (cmdloop.h).
 */
#ifndef MSPROF_DYNAMIC_H
#define MSPROF_DYNAMIC_H

#include <stddef.h>
#include <sys/types.h>

#include <npuprof/npu_backend.h>
#include <npuprof/session.h>

#include "options.h"

/* Wait for PARAMS_RSQ after sending the parameters, ms.  Longer than
 * CANN's 1 s because the test VM runs under software emulation. */
#define MSPROF_PARAMS_REPLY_MS 5000
#define MSPROF_CONNECT_RETRY_MS 100	/* launch mode: between connect tries */
#define MSPROF_CONNECT_TIMEOUT_MS 60000 /* launch mode: give up after */

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
struct msprof_dyn;
int msprof_run_status(const struct msprof_dyn *d, int setup_rc);

/**
 * msprof_app_run() - app mode: msprof APP ARGS (or --application) without
 * --dynamic.  Runs the app with PROFILER_SAMPLECONFIG (no in-app server),
 * follows every process it starts, collects from launch (or --delay
 * seconds later) until the job exits (or for --duration seconds), with no
 * prompt and no stdin, and saves one PROF_XXX per process with records.
 * Return: the app's exit status when it failed (128 + signal when killed),
 * else 0, MSPROF_EXIT_PARTIAL or MSPROF_EXIT_FAILURE as
 * msprof_dynamic_run().
 */
int msprof_app_run(const struct msprof_options *o);

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

#endif /* MSPROF_DYNAMIC_H */
