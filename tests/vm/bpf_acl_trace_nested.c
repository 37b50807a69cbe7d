// SPDX-License-Identifier: MIT
/*
 * Description: ACL calls nested on one thread are recorded as
 * bpf/acl_trace.bpf.c says, with exact counts, on both places the BPF side
 * can keep calls in flight (task storage; the hash map with
 * NPUPROF_BPF_INFLIGHT=hash, which tests/vm/bpf_acl_trace.sh runs too):
 *   1. a function calling another (launch -> free): both recorded, the
 *      inner one inside the outer one, nothing lost;
 *   2. a function recursing into itself (launch -> launch): the inner call
 *      recorded, the outer counted lost, exactly once;
 *   3. launch -> free, then launch -> free inside it: the three inner calls
 *      recorded, the outer launch counted lost once (one slot per function);
 *   4. a call left in flight by a stop (its return probe gone) holds no
 *      slot in the next capture: the same function called inside it then
 *      is recorded and nothing is counted lost;
 *   5. calls of many threads at once, each nested once: all recorded.
 * It also checks which path the loader took: task storage on the kernels
 * that have it for uprobes (5.12+ with BTF), the hash map when asked.
 *
 * The runtime is this program itself: it defines the ACL functions it calls
 * (the four every runtime has, aclrtLaunchKernel() calling the function
 * handle it is given, aclrtFree()) and probes its own executable with
 * npuprof_acl_trace_attach_file(), so the nesting is exact and needs no
 * device.  Runs as root in the test VM (tests/vm/bpf_acl_trace.sh).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include "bpf_test.h"

/* Our own runtime: what a uprobe sees is the symbol, nothing more. */
#define ACL_DEF __attribute__((noipa, used))

ACL_DEF int aclInit(const char *config)
{
	(void)config;
	return 0;
}

ACL_DEF int aclFinalize(void)
{
	return 0;
}

ACL_DEF int aclrtSetDevice(int32_t id)
{
	(void)id;
	return 0;
}

ACL_DEF int aclrtResetDevice(int32_t id)
{
	(void)id;
	return 0;
}

/* Calls @fn (if any) from inside the launch; returns 7, a recognisable code. */
ACL_DEF int aclrtLaunchKernel(void (*fn)(void), uint32_t blocks, void *args,
			      size_t args_size, void *stream)
{
	(void)blocks, (void)args, (void)args_size, (void)stream;
	if (fn)
		fn();
	return 7;
}

ACL_DEF int aclrtFree(void *ptr)
{
	(void)ptr;
	return 0;
}

#define STREAM ((void *)0x5a)
#define PTR_A ((void *)0xa1)
#define PTR_B ((void *)0xb2)

static struct npuprof_acl_trace *t;

static void call_free_a(void)
{
	aclrtFree(PTR_A);
}

static void call_launch_plain(void)
{
	aclrtLaunchKernel(NULL, 1, NULL, 0, STREAM);
}

static void call_free_b(void)
{
	aclrtFree(PTR_B);
}

static void call_free_then_launch(void)
{
	aclrtFree(PTR_A);
	aclrtLaunchKernel(call_free_b, 2, NULL, 0, STREAM);
}

/* Stop and start a capture while the calling launch is in flight. */
static void restart_then_launch(void)
{
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	aclrtLaunchKernel(NULL, 4, NULL, 0, STREAM);
}

/*
 * One capture around @fn: its records, sorted by entry time, in @log; it
 * must hold @records of them and count @lost calls lost.
 */
static void capture(void (*fn)(void), struct api_log *log, size_t records,
		    uint64_t lost)
{
	uint64_t written, got_lost;

	memset(log, 0, sizeof(*log));
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	fn();
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	bpf_test_drain(t, log);
	CHECK_EQ(log->bad, 0);
	bpf_test_totals(t, &written, &got_lost);
	CHECK_EQ(written, log->nr);
	CHECK_EQ(log->nr, records);
	CHECK_EQ(got_lost, lost);
	api_log_sort(log);
}

/* Record @i of @log is a call of @api with @handle, returning @ret. */
static void check_rec(const struct api_log *log, size_t i, unsigned int api,
		      const void *handle, int ret)
{
	const struct npuprof_rec_api *r;

	if (i >= log->nr)
		return; /* the count check said so */
	r = &log->recs[i];
	CHECK_EQ(r->api, api);
	CHECK_EQ(r->handle, (uintptr_t)handle);
	CHECK_EQ(r->ret, ret);
	CHECK_EQ(r->pid, getpid());
	CHECK_EQ(r->stream, (uintptr_t)STREAM * (api == NPUPROF_API_RT_LAUNCH_KERNEL));
	CHECK(r->hdr.ts <= r->exit_ts);
}

/* Record @in lies inside record @out of @log (entry and return). */
static void check_inside(const struct api_log *log, size_t in, size_t out)
{
	const struct npuprof_rec_api *a, *b;

	if (in >= log->nr || out >= log->nr)
		return; /* the count check said so */
	a = &log->recs[in];
	b = &log->recs[out];
	CHECK(b->hdr.ts <= a->hdr.ts && a->exit_ts <= b->exit_ts);
	CHECK_EQ(a->tid, b->tid);
}

static void launch_free_a(void)
{
	aclrtLaunchKernel(call_free_a, 1, NULL, 0, STREAM);
}

static void launch_launch(void)
{
	aclrtLaunchKernel(call_launch_plain, 1, NULL, 0, STREAM);
}

static void launch_mixed(void)
{
	aclrtLaunchKernel(call_free_then_launch, 1, NULL, 0, STREAM);
}

static void launch_restart(void)
{
	aclrtLaunchKernel(restart_then_launch, 1, NULL, 0, STREAM);
}

static void test_nested_other(void)
{
	struct api_log log;

	capture(launch_free_a, &log, 2, 0);
	check_rec(&log, 0, NPUPROF_API_RT_LAUNCH_KERNEL, (void *)call_free_a, 7);
	check_rec(&log, 1, NPUPROF_API_RT_FREE, PTR_A, 0);
	check_inside(&log, 1, 0);
	free(log.recs);
}

static void test_recursion(void)
{
	struct api_log log;

	capture(launch_launch, &log, 1, 1);
	check_rec(&log, 0, NPUPROF_API_RT_LAUNCH_KERNEL, NULL, 7);
	free(log.recs);
}

static void test_mixed(void)
{
	struct api_log log;

	capture(launch_mixed, &log, 3, 1);
	check_rec(&log, 0, NPUPROF_API_RT_FREE, PTR_A, 0);
	check_rec(&log, 1, NPUPROF_API_RT_LAUNCH_KERNEL, (void *)call_free_b, 7);
	check_rec(&log, 2, NPUPROF_API_RT_FREE, PTR_B, 0);
	check_inside(&log, 2, 1);
	CHECK(log.nr < 2 || log.recs[0].exit_ts <= log.recs[1].hdr.ts);
	free(log.recs);
}

static void test_restart_in_flight(void)
{
	struct api_log log;

	capture(launch_restart, &log, 1, 0);
	check_rec(&log, 0, NPUPROF_API_RT_LAUNCH_KERNEL, NULL, 7);
	free(log.recs);
}

#define THREADS 8
#define ROUNDS 50

static void *thread_main(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < ROUNDS; i++)
		aclrtLaunchKernel(call_free_b, 1, NULL, 0, STREAM);
	return NULL;
}

static void many_threads(void)
{
	pthread_t th[THREADS];
	int i;

	for (i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_create(&th[i], NULL, thread_main, NULL), 0);
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
}

static void test_threads(void)
{
	size_t i, launches = 0, frees = 0;
	struct api_log log;

	capture(many_threads, &log, 2 * THREADS * ROUNDS, 0);
	for (i = 0; i < log.nr; i++) {
		launches += log.recs[i].api == NPUPROF_API_RT_LAUNCH_KERNEL;
		frees += log.recs[i].api == NPUPROF_API_RT_FREE &&
			 log.recs[i].handle == (uintptr_t)PTR_B;
	}
	CHECK_EQ(launches, THREADS * ROUNDS);
	CHECK_EQ(frees, THREADS * ROUNDS);
	free(log.recs);
}

/*
 * Task storage for uprobes: Linux 5.12 and the kernel's BTF; the loader
 * takes it only with BPF cookies (5.15), without which each function has
 * its own hash-path programs.
 */
static int kernel_has_task_storage(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	return (major > 5 || (major == 5 && minor >= 15)) &&
	       access("/sys/kernel/btf/vmlinux", R_OK) == 0;
}

static void check_path(void)
{
	const char *force = getenv("NPUPROF_BPF_INFLIGHT");
	const char *api_id = getenv("NPUPROF_BPF_API_ID");
	int want = (force && strcmp(force, "hash") == 0) ||
				   (api_id && strcmp(api_id, "program") == 0)
			   ? 0
			   : kernel_has_task_storage();

	CHECK_EQ(npuprof_acl_trace_task_storage(t), want);
	printf("calls in flight kept in %s\n",
	       npuprof_acl_trace_task_storage(t) ? "task storage" : "the hash map");
}

int main(void)
{
	int err;

	if (geteuid() != 0)
		CHECK_SKIP("needs root (BPF uprobes)");
	/* follow_pid() puts us in the filter: we map no libascendcl.so */
	err = npuprof_acl_trace_open_follow(1u << 20, &t);
	if (err == -EPERM || err == -EOPNOTSUPP || err == -ENOSYS)
		CHECK_SKIP("kernel refuses BPF programs here");
	if (err) {
		fprintf(stderr, "npuprof_acl_trace_open_follow: %s\n", strerror(-err));
		return 1;
	}
	CHECK_EQ(npuprof_acl_trace_attach_file(t, "/proc/self/exe"), 0);
	CHECK_EQ(npuprof_acl_trace_follow_pid(t, getpid()), 0);
	check_path();
	test_nested_other();
	test_recursion();
	test_mixed();
	test_restart_in_flight();
	test_threads();
	npuprof_acl_trace_close(t);
	return CHECK_DONE();
}
