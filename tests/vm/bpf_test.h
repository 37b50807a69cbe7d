/* SPDX-License-Identifier: MIT */
/*
 * Shared parts of the runtime-API capture tests (tests/vm/bpf_*.c), which
 * run as root inside the test VM: open the capture or skip, collect the
 * records a consume hands out, add up the per-CPU counters.
 */
#ifndef NPUPROF_TEST_BPF_TEST_H
#define NPUPROF_TEST_BPF_TEST_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <npuprof/acl_trace.h>
#include <npuprof/bpf_log.h>

#include "check.h"

/* Every record a test consumed, copied, in the order they came. */
struct api_log {
	struct npuprof_rec_api *recs;
	size_t nr, cap;
	unsigned int bad; /* records that were not well-formed API records */
};

/*
 * Room for one more record of @size bytes in the array *@recs holding @nr
 * of *@cap.  Return: 0 or -ENOMEM.
 */
static inline int bpf_test_log_grow(void **recs, size_t *cap, size_t nr, size_t size)
{
	size_t n;
	void *p;

	if (nr < *cap)
		return 0;
	n = *cap ? 2 * *cap : 256;
	p = realloc(*recs, n * size);
	if (!p)
		return -ENOMEM;
	*recs = p;
	*cap = n;
	return 0;
}

/*
 * Append @rec to the array *@recs (@nr of *@cap records of @size bytes) if
 * it is a record of @type and @size, else count it in *@bad.
 * Return: 0 or -ENOMEM.
 */
static inline int bpf_test_log_add(void **recs, size_t *nr, size_t *cap, unsigned int *bad,
				   const struct npuprof_rec_hdr *rec, unsigned int type, size_t size)
{
	if (rec->type != type || rec->size != size) {
		(*bad)++;
		return 0;
	}
	if (bpf_test_log_grow(recs, cap, *nr, size))
		return -ENOMEM;
	memcpy((char *)*recs + (*nr)++ * size, rec, size);
	return 0;
}

static inline int api_log_add(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct api_log *log = ctx;

	return bpf_test_log_add((void **)&log->recs, &log->nr, &log->cap, &log->bad, rec,
				NPUPROF_REC_API, sizeof(*log->recs));
}

static inline int api_log_cmp_ts(const void *a, const void *b)
{
	const struct npuprof_rec_api *x = a, *y = b;

	if (x->hdr.ts != y->hdr.ts)
		return x->hdr.ts < y->hdr.ts ? -1 : 1;
	return 0;
}

/* Records come per CPU ring; a single-threaded caller's order is ts order. */
static inline void api_log_sort(struct api_log *log)
{
	qsort(log->recs, log->nr, sizeof(*log->recs), api_log_cmp_ts);
}

/* Number of records in @log from process @pid. */
static inline size_t api_log_count_pid(const struct api_log *log, pid_t pid)
{
	size_t i, n = 0;

	for (i = 0; i < log->nr; i++)
		n += log->recs[i].pid == (__u32)pid;
	return n;
}

static inline uint64_t test_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * libbpf's print callback is the program's to set (npuprof/bpf_log.h):
 * every test that includes this header sets msprof's, before main().
 */
__attribute__((constructor)) static void bpf_test_set_print(void)
{
	libbpf_set_print(npuprof_bpf_print_fn());
}

/*
 * Fork a child that blocks until one byte arrives on a pipe.  Return: in
 * the parent the child's pid, *@go the write end that starts it; in the
 * child 0, once started (it _exit()s 1 if the pipe closes first).  Exits
 * the test when the pipe or the fork fails.
 */
static inline pid_t bpf_test_fork_waiting(int *go)
{
	int fds[2];
	char c;
	pid_t pid;

	if (pipe(fds) < 0)
		exit(1);
	pid = fork();
	if (pid < 0)
		exit(1);
	if (pid == 0) {
		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(1);
		close(fds[0]);
		return 0;
	}
	close(fds[0]);
	*go = fds[1];
	return pid;
}

/* Open the capture with rings of @ring_bytes, or skip when we may not. */
static inline struct npuprof_acl_trace *bpf_test_open(uint32_t ring_bytes)
{
	struct npuprof_acl_trace *t;
	int err;

	if (geteuid() != 0)
		CHECK_SKIP("needs root (BPF uprobes)");
	err = npuprof_acl_trace_open(ring_bytes, &t);
	if (err == -EPERM || err == -EOPNOTSUPP || err == -ENOSYS)
		CHECK_SKIP("kernel refuses BPF programs here");
	if (err) {
		fprintf(stderr, "npuprof_acl_trace_open: %s\n", strerror(-err));
		exit(1);
	}
	return t;
}

/* Hand @fn every record until the rings are empty; return how many. */
static inline long bpf_test_consume_all(struct npuprof_acl_trace *t, npuprof_rec_fn fn, void *ctx)
{
	long n, total = 0;

	while ((n = npuprof_acl_trace_consume(t, fn, ctx)) > 0)
		total += n;
	CHECK(n == 0);
	return total;
}

/* Consume until the rings are empty; return the number of records. */
static inline long bpf_test_drain(struct npuprof_acl_trace *t, struct api_log *log)
{
	return bpf_test_consume_all(t, api_log_add, log);
}

/* Sum of the written and lost counters over all CPUs. */
static inline void bpf_test_totals(struct npuprof_acl_trace *t, uint64_t *written,
			    uint64_t *lost)
{
	unsigned int cpu;

	*written = *lost = 0;
	for (cpu = 0; cpu < npuprof_acl_trace_nr_cpus(t); cpu++) {
		uint64_t w = 0, l = 0;

		CHECK_EQ(npuprof_acl_trace_stats(t, cpu, &w, &l), 0);
		*written += w;
		*lost += l;
	}
}

#endif /* NPUPROF_TEST_BPF_TEST_H */
