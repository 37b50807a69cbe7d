/* SPDX-License-Identifier: MIT */
/*
 * A capture session: everything between one msprof "start" and "stop" for
 * one process.  Opening a session does the slow, fallible work once
 * (open npuprof.ko's rings, load the BPF programs, attach the uprobes for
 * the pid); start and stop are then quick: create the PROF_XXX directory,
 * enable capture and start the drain; disable, drain the rest and write
 * the control files.
 *
 * PROF_XXX layout follows CANN (shared/reference/msprof.md section 3):
 * PROF_<000001>_<local time to ms>_<pid %08d><8 letters A-R>/ with
 * host/data, device_<id>/data, start_info, end_info, info.json,
 * sample.json.  All functions return 0 or a negative errno and print
 * nothing; the caller words the messages.
 */
#ifndef NPUPROF_SESSION_H
#define NPUPROF_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/**
 * struct npuprof_session_opts - what to collect and where
 * @output:      --output directory (created if missing)
 * @ascendcl:    1 to record AscendCL API calls (--ascendcl)
 * @runtime_api: 1 to record runtime API calls (--runtime-api)
 * @task_time:   1 to record device tasks (--task-time)
 * @params_json: the ProfileParams JSON sent to the app; saved as sample.json
 * @kdev:        npuprof.ko device path, NULL for /dev/npuprof
 */
struct npuprof_session_opts {
	const char *output;
	int ascendcl;
	int runtime_api;
	int task_time;
	const char *params_json;
	const char *kdev;
};

/**
 * struct npuprof_session_result - what one start/stop produced
 * @prof_dir:     path of the PROF_XXX directory
 * @api_records:  runtime API records saved
 * @task_records: device task records saved
 * @lost:         records lost because a ring was full (all CPUs, both sources)
 * @write_error:  first -errno of a write (-ENOSPC: disk full), 0 if none
 */
struct npuprof_session_result {
	char prof_dir[4096];
	uint64_t api_records;
	uint64_t task_records;
	uint64_t lost;
	int write_error;
};

struct npuprof_session;

/**
 * npuprof_session_open() - prepare capture of process @pid
 * Return: 0; -ENOENT when /dev/npuprof is missing (module not loaded)
 * and @task_time is on; -EPERM/-EACCES without root; -ESRCH when @pid is
 * gone; -ENOENT from the BPF side when @pid has no libascendcl.so mapped.
 * On failure nothing stays attached.
 */
int npuprof_session_open(const struct npuprof_session_opts *opts, pid_t pid,
			 struct npuprof_session **out);

/** npuprof_session_start() - new PROF_XXX dir, start_info, enable capture. */
int npuprof_session_start(struct npuprof_session *s);

/** npuprof_session_running() - 1 between start and stop. */
int npuprof_session_running(const struct npuprof_session *s);

/**
 * npuprof_session_stop() - disable capture, drain, write end_info,
 * info.json and sample.json.  @res may be NULL.
 */
int npuprof_session_stop(struct npuprof_session *s, struct npuprof_session_result *res);

/**
 * npuprof_session_discard() - undo a start the app refused: disable
 * capture, stop the drain and remove the new PROF_XXX directory.
 */
int npuprof_session_discard(struct npuprof_session *s);

/** npuprof_session_close() - stop if running, detach, free. NULL is a no-op. */
void npuprof_session_close(struct npuprof_session *s);

/**
 * npuprof_session_last_error() - words for the last failure of @s, e.g.
 * "/dev/npuprof: No such file or directory"; with @s NULL, for the last
 * failed npuprof_session_open() of this thread.
 */
const char *npuprof_session_last_error(const struct npuprof_session *s);

#endif /* NPUPROF_SESSION_H */
