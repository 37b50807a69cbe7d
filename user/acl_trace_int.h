/* SPDX-License-Identifier: MIT */
/*
 * Private to the runtime-API capture (npuprof/acl_trace.h), shared by its
 * three files: acl_trace.c (the BPF object: load, rings, consume, counters,
 * capture generations), uprobe_attach.c (the libraries and their uprobes)
 * and proc_filter.c (the BPF process filter), and by the unit test that feeds the ring
 * callback samples (tests/unit/test_acl_short_sample.c).
 */
#ifndef NPUPROF_ACL_TRACE_INT_H
#define NPUPROF_ACL_TRACE_INT_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <npuprof/acl_trace.h>

#include "../bpf/acl_trace.h"
#include "acl_symbols.h"

struct acl_trace_bpf; /* the generated skeleton, acl_trace.skel.h */
struct bpf_link;
struct bpf_program;

/*
 * One libascendcl.so file: what attach resolved (kept open, the functions
 * found and their offsets) and, while capturing, its probes.
 */
struct acl_lib {
	struct acl_lib *next;
	dev_t dev;
	ino_t ino;
	int fd;		       /* the file, placed probes go through /proc/self/fd */
	char name[PATH_MAX];   /* the file as the process sees it, for errors */
	struct acl_symbols sym; /* the functions found, and those missing */
	bool hal;		/* a libascend_hal.so: sym.offs[0] is halSqTaskSend,
				 * one entry uprobe (acl_sq_send), no cookie */
	unsigned int nr_links;	     /* per-probe links (kernels before 6.6) */
	struct bpf_link *links[2 * ACL_NR_FUNCS];
	int multi_fds[2]; /* uprobe_multi links: entries, returns; -1 if none */
	/*
	 * aclrtBinaryGetFunction()'s entry and return probes (acl_name_enter,
	 * acl_name_exit), placed at attach and kept until the lib is freed,
	 * capture or not; NULL: the file has no such function (or is a HAL).
	 */
	struct bpf_link *name_links[2];
};

/*
 * One CPU's BPF ring buffer as its consumer sees it: the context libbpf
 * hands the sample callback, so that a sample which is not a record is
 * counted against the ring it came from.  The counts run from open; they
 * are written under the lock of struct npuprof_acl_trace and read without
 * it (npuprof_acl_trace_skipped()), hence atomically.
 */
struct acl_ring {
	struct npuprof_acl_trace *t;
	unsigned int cpu;
	uint64_t bad_bytes; /* bytes of samples that were not a record */
};

struct npuprof_acl_trace {
	struct acl_trace_bpf *skel;
	unsigned int nr_cpus;
	uint32_t ring_bytes;	/* of each ring, as made (rounded to pages) */
	int *ring_fds;		/* one BPF_MAP_TYPE_RINGBUF per possible CPU */
	struct acl_ring *rings; /* the consumer's side of each, by CPU */
	struct ring_buffer *rb; /* libbpf reader over all of ring_fds */
	struct acl_lib *libs;
	bool multi;		    /* uprobe_multi links (programs acl_*_multi) */
	bool task_storage;	    /* in-flight calls in task storage, not the hash */
	bool cookies;		    /* API id as BPF cookie, else acl_*_api<ID> programs */
	bool forced;		    /* an NPUPROF_BPF_* variable chose a lesser path */
	unsigned int layers;	    /* enum npuprof_api_layer bits probed */
	unsigned int missing_layers; /* of the last attach: layers with no library */
	bool probed;		    /* capturing: every lib has its probes */
	bool follow;		    /* the fork/exit programs are loaded */
	bool exit_prog;		    /* the exit program is loaded (follow, or BTF) */
	struct bpf_program *cut;    /* acl_cut_task or acl_cut_hash; NULL: no BTF */
	struct bpf_link *fork_link; /* follow: sched_process_fork, then exit */
	struct bpf_link *exit_link;
	bool names_exit_prog;	    /* acl_names_exit is loaded (BTF, for_each) */
	struct bpf_link *names_exit_link;
	bool tasks;		    /* the task programs are loaded */
	bool submits;		    /* acl_sq_send is loaded (opts.submits) */
	bool tasks_attached;	    /* npuprof_acl_trace_attach_tasks() ran */
	struct bpf_link *task_links[NPU_TP_EVENTS]; /* NULL: not attached */
	uint64_t task_miss_base;    /* recursion misses at the last enable */
	uint64_t epoch;	     /* last value written to the BPF side's epoch */
	uint64_t stale;	     /* records discarded for the last enable */
	uint64_t stale_next; /* discarded since then, for the next enable */
	/*
	 * Serialises ring_buffer__consume(): the drain thread consumes while
	 * enable discards, and libbpf's reader is not safe for two consumers.
	 */
	pthread_mutex_t lock;
	/* The current npuprof_acl_trace_consume() call; fn NULL: discard. */
	npuprof_rec_fn fn;
	void *fn_ctx;
	long delivered;
	struct npuprof_error error; /* the last failure (npuprof_acl_trace_error()) */
	/* functions the library of the last attach lacks (npuprof_acl_trace_untraced()) */
	char untraced[NPUPROF_ERROR_FUNCS_MAX];
};

/* Defined in acl_trace.c, each documented above its definition. */
int acl_fail(struct npuprof_acl_trace *t, enum npuprof_stage stage, int err, pid_t pid,
	     const char *object);
int acl_trace_on_sample(void *ctx, void *data, size_t size);

/* Defined in uprobe_attach.c, each documented above its definition. */
struct bpf_program *acl_api_prog(const struct acl_trace_bpf *skel, unsigned int api, int ret);
void acl_lib_free(struct acl_lib *lib);
int acl_trace_probe(struct npuprof_acl_trace *t);
void acl_trace_unprobe(struct npuprof_acl_trace *t);

#endif /* NPUPROF_ACL_TRACE_INT_H */
