/* SPDX-License-Identifier: MIT */
/*
 * Runtime-API capture: loads bpf/acl_trace.bpf.c (CO-RE, through its
 * generated skeleton), attaches uprobes and uretprobes on the ACL functions
 * of the exact libascendcl.so a process has mapped, filters by tgid in the
 * kernel and reads the per-CPU BPF ring buffers.
 * All functions return 0 or a negative errno; none sets errno.
 */
#ifndef NPUPROF_ACL_TRACE_H
#define NPUPROF_ACL_TRACE_H

#include <stdint.h>
#include <sys/types.h>
#include <npuprof/record_io.h>

struct npuprof_acl_trace;

/**
 * npuprof_acl_trace_open() - load the BPF programs and create one ring
 * buffer per possible CPU of @ring_bytes (a power of two >= page size)
 * Return: 0; -EPERM without CAP_BPF/CAP_PERFMON; -errno from libbpf.
 */
int npuprof_acl_trace_open(uint32_t ring_bytes, struct npuprof_acl_trace **out);

/** npuprof_acl_trace_close() - detach everything, free. NULL is a no-op. */
void npuprof_acl_trace_close(struct npuprof_acl_trace *t);

/**
 * npuprof_acl_trace_attach_pid() - trace process @pid
 *
 * Finds the libascendcl.so that /proc/@pid/maps names, opens it through
 * /proc/@pid/root (so a process in a container is found too), attaches the
 * probes to that file once (later pids mapping the same file reuse them)
 * and adds @pid to the tgid filter.
 *
 * Return: 0; -ESRCH when the process is gone; -ENOENT when it has no
 * libascendcl.so mapped; -errno from libbpf.  On failure nothing stays
 * attached for @pid.
 */
int npuprof_acl_trace_attach_pid(struct npuprof_acl_trace *t, pid_t pid);

/** npuprof_acl_trace_detach_pid() - drop @pid from the filter. */
int npuprof_acl_trace_detach_pid(struct npuprof_acl_trace *t, pid_t pid);

/** npuprof_acl_trace_enable() - @on: record (1) or drop (0); resets counters on 1. */
int npuprof_acl_trace_enable(struct npuprof_acl_trace *t, int on);

/** npuprof_acl_trace_fd() - an fd that polls readable when any ring has data. */
int npuprof_acl_trace_fd(const struct npuprof_acl_trace *t);

/** npuprof_acl_trace_consume() - hand all available records to @fn.
 * Return: records delivered or a negative errno. */
long npuprof_acl_trace_consume(struct npuprof_acl_trace *t, npuprof_rec_fn fn, void *ctx);

/** npuprof_acl_trace_nr_cpus() - number of per-CPU rings. */
unsigned int npuprof_acl_trace_nr_cpus(const struct npuprof_acl_trace *t);

/** npuprof_acl_trace_stats() - records written and failed reserves on @cpu. */
int npuprof_acl_trace_stats(struct npuprof_acl_trace *t, unsigned int cpu,
			    uint64_t *written, uint64_t *lost);

#endif /* NPUPROF_ACL_TRACE_H */
