/* SPDX-License-Identifier: MIT */
/*
 * Which process owns a device stream, from the host driver's own view of
 * its streams: /proc/trs_core/ts_inst/dev<N>-ts<M>/stream (the real Ascend
 * driver's trs_core module, and the simulator's realistic driver).  Task
 * records that carry no pid (the device log's begin/end records, the
 * trs_chan:sqe events a kernel worker fires) are attributed through it.
 *
 * The file is read as text, one stream per line; a line names a stream
 * when it holds the word "id" (or "stream_id") followed by a number and
 * the word "pid" followed by a number, in any order, separated by spaces,
 * '=' or ':' (so "id 3 pid 4242 sq 3", "stream_id=3 pid=4242" both read).
 * Other lines (headers, blank) are skipped.
 */
#ifndef NPUPROF_STREAM_OWNER_H
#define NPUPROF_STREAM_OWNER_H

#include <stdint.h>

struct npuprof_stream_owners;

/**
 * npuprof_stream_owners_new() - an empty table
 * @proc_root: directory holding trs_core/, NULL for "/proc" (tests)
 * Return: the table, NULL on ENOMEM.
 */
struct npuprof_stream_owners *npuprof_stream_owners_new(const char *proc_root);

void npuprof_stream_owners_free(struct npuprof_stream_owners *t);

/**
 * npuprof_stream_owners_load() - (re)read device @device's streams, TS 0
 * Return: streams read (>= 0); -ENOENT when the driver has no such file
 * (an older driver, or not the Ascend driver), other -errno.
 */
int npuprof_stream_owners_load(struct npuprof_stream_owners *t, int device);

/**
 * npuprof_stream_owners_pid() - owner of (@device, @stream) as last read
 * Return: the pid, 0 when unknown.
 */
uint32_t npuprof_stream_owners_pid(const struct npuprof_stream_owners *t, int device,
				   uint32_t stream);

/**
 * npuprof_stream_owners_set() - record (@device, @stream) -> @pid learnt
 * elsewhere (a submit seen by the halSqTaskSend uprobe); @pid 0 forgets.
 * Return: 0, -ENOMEM, -EINVAL for a device or stream out of range.
 */
int npuprof_stream_owners_set(struct npuprof_stream_owners *t, int device, uint32_t stream,
			      uint32_t pid);

/**
 * npuprof_stream_owners_parse_line() - the (stream, pid) a line names
 * Return: 1 and both set, 0 when the line names no stream.
 */
int npuprof_stream_owners_parse_line(const char *line, uint32_t *stream, uint32_t *pid);

#endif /* NPUPROF_STREAM_OWNER_H */
