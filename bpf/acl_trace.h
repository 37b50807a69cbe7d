/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Layouts shared by the runtime-API capture's BPF side (bpf/acl_trace.bpf.c)
 * and its loader (user/acl_trace.c): the per-CPU producer counters that user
 * space reads and resets, and the sizes of the maps.  The records themselves are in
 * include/npuprof/record.h.
 */
#ifndef NPUPROF_BPF_ACL_TRACE_H
#define NPUPROF_BPF_ACL_TRACE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/*
 * Declared size of the inner ring buffer map, the template libbpf creates
 * the outer map from.  A ring buffer's size must be a power of two and a
 * multiple of the running kernel's page size, or the map, and with it the
 * whole object, fails to load.  The loader sets the template to one page
 * of the running kernel before load, and since the kernel does not compare
 * max_entries of ring buffers in map-in-map, it then creates the real
 * per-CPU rings with the size the caller asked for.  So this value only
 * counts when nothing resizes the template (another loader, bpftool): 64
 * KiB, the largest page size of the machines NPUs sit in (aarch64 with 64
 * KiB pages), is a whole number of pages on 4, 16 and 64 KiB kernels.
 */
#define ACL_TRACE_RING_TEMPLATE_BYTES 65536

/*
 * Most calls that can be in flight (entered, not yet returned) at the same
 * time; a call beyond that is counted missed.
 */
#define ACL_TRACE_MAX_INFLIGHT 8192

/*
 * Most function handle names (aclrtBinaryGetFunction() results, all
 * selected processes together) the BPF side keeps for naming launches;
 * past that the least recently used go.
 */
#define ACL_TRACE_MAX_FUNC_NAMES 65536

/* Most processes the tgid filter holds. */
#define ACL_TRACE_MAX_PIDS 1024

/*
 * Values in the tgid filter (a bit set).  SELECTED: record the process's
 * calls.  FOLLOW: a process it forks joins the filter with the same bits
 * before it runs (threads share the tgid and need nothing).  FORKED: it
 * joined that way.  With following on, every process leaves the filter
 * when it exits, so a later process that reuses the pid is not recorded.
 */
#define ACL_TGID_SELECTED 1
#define ACL_TGID_FOLLOW 2
#define ACL_TGID_FORKED 4

/*
 * SQEs one halSqTaskSend() call gets a record for (bpf/acl_trace.bpf.c,
 * acl_sq_send): a bounded loop for the verifier.  The runtime sends one
 * SQE per call for almost every task; the SQEs of a call past this bound
 * are counted (`sqe_skipped`, and missed), never recorded.
 */
#define ACL_SQ_SEND_MAX_SQES 16


/**
 * struct acl_trace_counters - producer counters of one CPU's ring buffer
 * @written: records committed to the ring buffer
 * @lost:    records dropped because the ring buffer was full (failed
 *           reserve) or the CPU had no ring
 * @missed:  calls that will have no record because their entry state could
 *           not be stored (in-flight map full or busy) or was overwritten
 *           by a later call of the same thread and API
 */
struct acl_trace_counters {
	__u64 written;
	__u64 lost;
	__u64 missed;
};

#endif /* NPUPROF_BPF_ACL_TRACE_H */
