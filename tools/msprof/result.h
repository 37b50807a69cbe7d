/* SPDX-License-Identifier: MIT */
/*
 * --result=FILE: the machine-readable outcome of a capture, for scripts
 * and cluster launchers (srun, pdsh) that must never parse console text.
 * One JSON object per line, appended as each PROF_XXX directory is saved
 * (or a requested process could not be captured):
 *
 *   {"host": "node7", "pid": 4242, "rank": 0, "prof_dir": "/out/PROF_...",
 *    "start_ns": 1796..., "end_ns": 1796...,       window, Unix ns (wall)
 *    "api_records": 700, "task_records": 1932,
 *    "lost": {"total": 0, "ring_full": 0, "write_error": 0, "decode_error": 0,
 *             "byCpu": []},
 *    "corrupt_bytes": 0, "complete": true, "error": null}
 *
 * "rank" is the process's RANK (its launcher's), null when it has none.
 * "lost" counts records by cause and per CPU, as info.json's "lost"
 * (layout in npuprof/loss_json.h; "byCpu" lists at most
 * NPUPROF_RESULT_LOSS_CPUS CPUs); "corrupt_bytes" are ring bytes
 * skipped after a corrupt record header.  "complete" is true when nothing
 * was lost and every write (data and control files) succeeded; "error"
 * then names the first write that failed.  A process that produced no directory has "prof_dir": null,
 * "complete": false and "error" saying why.  Ring counters belong to the
 * msprof session's rings (shared by its processes).
 */
#ifndef MSPROF_RESULT_H
#define MSPROF_RESULT_H

#include <stdio.h>
#include <sys/types.h>

#include <npuprof/session.h>

/**
 * msprof_result_open() - open @path for appending (created 0640)
 * Return: the stream, or NULL with errno set.
 */
FILE *msprof_result_open(const char *path);

/**
 * msprof_result_saved() - one line for a saved PROF_XXX directory
 * Return: 0, or -EIO when the line could not be written (the caller says so).
 */
int msprof_result_saved(FILE *f, const struct npuprof_session_result *r);

/**
 * msprof_result_failed() - one line for process @pid that has no
 * directory, with @why in words.  Return: 0 or -EIO.
 */
int msprof_result_failed(FILE *f, pid_t pid, const char *why);

#endif /* MSPROF_RESULT_H */
