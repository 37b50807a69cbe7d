// SPDX-License-Identifier: MIT
/*
 * Description: a call in flight when the capture stops is written by the
 * stop as one record flagged NPUPROF_API_CUT_END (entry time and
 * arguments, no return), in the capture it began in and never in the next
 * one; a call in flight when the capture starts gives no record; the
 * counters of each capture are exact.
 *
 * A worker thread blocks in aclrtSynchronizeStream() on a stream with a
 * 8 s kernel queued while the main thread:
 *   1. stops the capture, the call returns while stopped: the capture holds
 *      the one aclrtLaunchKernel before it and the sync, cut: its thread,
 *      stream and entry time (before the stop, after the launch), exit_ts
 *      and ret 0;
 *   2. stops, leaves the 5 records of that capture (4 calls, the cut sync)
 *      unconsumed and starts a new one, the call returns inside it: start
 *      discards exactly 5 stale records, and the new capture holds exactly
 *      the 3 aclrtSetDevice calls made in it, none from before it began and
 *      nothing for the sync (its uretprobe was placed after it entered);
 *   3. (control) a sync that starts and ends inside one capture is
 *      recorded whole, not cut.
 * Needs the simulated device (npusim.ko): skips without it.
 * Runs as root in the test VM (tests/vm/bpf_acl_trace.sh), on the task
 * storage path and the hash path (each has its own iterator).
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>

#include <acl/acl.h>

#include "bpf_test.h"

/*
 * Long enough for a stop and a start to happen inside the call: each one
 * removes or places the uprobes, one link per probe on 6.1, which takes
 * seconds under TCG.
 */
#define LONG_US 8000000

static const char kernels[] = "/tmp/bpf_acl_trace_straddle.kernels";

/* The worker: one aclrtSynchronizeStream() per post of @go. */
static struct worker {
	pthread_t thread;
	aclrtStream stream;
	sem_t go, done, ready;
	int quit;
	int inside;	   /* set just before the call */
	pid_t tid;
	aclError set_ret;  /* its aclrtSetDevice(0) */
	aclError sync_ret; /* the last sync */
	uint64_t ret_ns;   /* when the last sync returned */
} w;

static void *worker_main(void *arg)
{
	(void)arg;
	w.tid = (pid_t)syscall(SYS_gettid);
	w.set_ret = aclrtSetDevice(0);
	sem_post(&w.ready);
	for (;;) {
		sem_wait(&w.go);
		if (w.quit)
			break;
		__atomic_store_n(&w.inside, 1, __ATOMIC_SEQ_CST);
		w.sync_ret = aclrtSynchronizeStream(w.stream);
		w.ret_ns = test_now_ns();
		__atomic_store_n(&w.inside, 0, __ATOMIC_SEQ_CST);
		sem_post(&w.done);
	}
	return NULL;
}

/* Thread state letter of the worker from /proc ('S' while it sleeps). */
static char worker_state(void)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)w.tid);
	f = fopen(path, "re");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/* Start a sync in the worker and wait until it sleeps inside the call. */
static void start_blocking_sync(void)
{
	int i;

	sem_post(&w.go);
	for (i = 0; i < 1000; i++) {
		if (__atomic_load_n(&w.inside, __ATOMIC_SEQ_CST)) {
			char st = worker_state();

			if (st == 'S' || st == 'D')
				return;
		}
		usleep(5000);
	}
	fprintf(stderr, "worker never blocked in aclrtSynchronizeStream\n");
	exit(1);
}

static int write_kernels(void)
{
	FILE *f = fopen(kernels, "w");

	if (!f)
		return -1;
	fprintf(f, "long_kernel %d\nshort_kernel 10\n", LONG_US);
	return fclose(f);
}

/* Device setup, done before any capture; skips without a device. */
static void setup(aclrtFuncHandle *lng, aclrtFuncHandle *shrt)
{
	aclrtBinHandle bin = NULL;

	aclInit(NULL);
	if (aclrtSetDevice(0) != ACL_SUCCESS)
		CHECK_SKIP("no simulated NPU device (npusim.ko not loaded)");
	CHECK_EQ(aclrtCreateStream(&w.stream), ACL_SUCCESS);
	CHECK_EQ(write_kernels(), 0);
	CHECK_EQ(aclrtBinaryLoadFromFile(kernels, NULL, &bin), ACL_SUCCESS);
	CHECK_EQ(aclrtBinaryGetFunction(bin, "long_kernel", lng), ACL_SUCCESS);
	CHECK_EQ(aclrtBinaryGetFunction(bin, "short_kernel", shrt), ACL_SUCCESS);
	sem_init(&w.go, 0, 0);
	sem_init(&w.done, 0, 0);
	sem_init(&w.ready, 0, 0);
	CHECK_EQ(pthread_create(&w.thread, NULL, worker_main, NULL), 0);
	sem_wait(&w.ready);
	CHECK_EQ(w.set_ret, ACL_SUCCESS);
}

static void check_totals(struct npuprof_acl_trace *t, uint64_t want_written)
{
	uint64_t written, lost;

	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, want_written);
	CHECK_EQ(lost, 0);
}

/* 1: the call straddles stop only. */
static void straddle_stop(struct npuprof_acl_trace *t, aclrtFuncHandle lng)
{
	struct api_log log = { 0 };
	uint64_t stop_ns;

	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	CHECK_EQ(npuprof_acl_trace_stale(t), 0);
	CHECK_EQ(aclrtLaunchKernel(lng, 1, NULL, 0, w.stream), ACL_SUCCESS);
	start_blocking_sync();
	stop_ns = test_now_ns();
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	sem_wait(&w.done);
	CHECK_EQ(w.sync_ret, ACL_SUCCESS);
	CHECK(w.ret_ns > stop_ns); /* else the call did not straddle */
	CHECK_EQ(bpf_test_drain(t, &log), 2);
	CHECK_EQ(log.bad, 0);
	api_log_sort(&log);
	if (log.nr == 2) {
		const struct npuprof_rec_api *launch = &log.recs[0], *sync = &log.recs[1];

		CHECK_EQ(launch->api, NPUPROF_API_RT_LAUNCH_KERNEL);
		CHECK_EQ(launch->flags, 0);
		CHECK(launch->exit_ts >= launch->hdr.ts);
		CHECK_EQ(sync->api, NPUPROF_API_RT_SYNC_STREAM);
		CHECK_EQ(sync->flags, NPUPROF_API_CUT_END);
		CHECK_EQ(sync->tid, w.tid);
		CHECK_EQ(sync->pid, getpid());
		CHECK_EQ(sync->stream, (__u64)(uintptr_t)w.stream);
		CHECK_EQ(sync->exit_ts, 0);
		CHECK_EQ(sync->ret, 0);
		CHECK(sync->hdr.ts > launch->exit_ts);
		CHECK(sync->hdr.ts < stop_ns);
	}
	check_totals(t, 2);
	free(log.recs);
}

/* 2: the call straddles stop and the next start. */
static void straddle_restart(struct npuprof_acl_trace *t, aclrtFuncHandle lng)
{
	struct api_log log = { 0 };
	uint64_t start_ns;
	size_t i;

	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	CHECK_EQ(aclrtLaunchKernel(lng, 1, NULL, 0, w.stream), ACL_SUCCESS);
	for (i = 0; i < 3; i++)
		aclrtSetDevice(0);
	start_blocking_sync();
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	/* The 5 records of that capture (the sync cut) stay unconsumed: start drops them. */
	start_ns = test_now_ns();
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	CHECK_EQ(npuprof_acl_trace_stale(t), 5);
	check_totals(t, 0);
	aclrtSetDevice(0);
	aclrtSetDevice(0);
	sem_wait(&w.done);
	CHECK_EQ(w.sync_ret, ACL_SUCCESS);
	CHECK(w.ret_ns > start_ns); /* else the call did not straddle */
	aclrtSetDevice(0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);

	CHECK_EQ(bpf_test_drain(t, &log), 3);
	CHECK_EQ(log.bad, 0);
	for (i = 0; i < log.nr; i++) {
		CHECK_EQ(log.recs[i].api, NPUPROF_API_RT_SET_DEVICE);
		CHECK_EQ(log.recs[i].flags, 0);
		CHECK_EQ(log.recs[i].tid, getpid());
		CHECK(log.recs[i].hdr.ts > start_ns);
	}
	check_totals(t, 3);
	free(log.recs);
}

/* 3: control: a sync wholly inside one capture is recorded. */
static void sync_inside(struct npuprof_acl_trace *t, aclrtFuncHandle shrt)
{
	struct api_log log = { 0 };

	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	CHECK_EQ(npuprof_acl_trace_stale(t), 0);
	CHECK_EQ(aclrtLaunchKernel(shrt, 1, NULL, 0, w.stream), ACL_SUCCESS);
	sem_post(&w.go);
	sem_wait(&w.done);
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	CHECK_EQ(bpf_test_drain(t, &log), 2);
	api_log_sort(&log);
	if (log.nr == 2) {
		CHECK_EQ(log.recs[0].api, NPUPROF_API_RT_LAUNCH_KERNEL);
		CHECK_EQ(log.recs[1].api, NPUPROF_API_RT_SYNC_STREAM);
		CHECK_EQ(log.recs[1].tid, w.tid);
		CHECK_EQ(log.recs[1].stream, (__u64)(uintptr_t)w.stream);
		CHECK_EQ(log.recs[1].ret, ACL_SUCCESS);
		CHECK_EQ(log.recs[1].flags, 0);
	}
	check_totals(t, 2);
	free(log.recs);
}

int main(void)
{
	struct npuprof_acl_trace *t = bpf_test_open(64 * 1024);
	aclrtFuncHandle lng = NULL, shrt = NULL;

	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0);
	setup(&lng, &shrt);
	straddle_stop(t, lng);
	straddle_restart(t, lng);
	sync_inside(t, shrt);

	w.quit = 1;
	sem_post(&w.go);
	pthread_join(w.thread, NULL);
	npuprof_acl_trace_close(t);
	unlink(kernels);
	return CHECK_DONE();
}
