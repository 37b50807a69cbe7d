// SPDX-License-Identifier: MIT
/*
 * One thread of the sample AI task: open its device, create streams,
 * memory, an event and the kernels; run the steps; release everything.
 * Each ACL call is followed by app_count() so the counts are exact, failed
 * calls included, and every device task a successful call queues is
 * counted where it is queued.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ai_task.h"

/* Launched kernels of a step, in order; stream = position % streams. */
static const enum app_kernel step_kernels[] = { K_MATMUL, K_ADD, K_LAYERNORM, K_MATMUL,
						K_SOFTMAX };
#define NR_STEP_KERNELS (sizeof(step_kernels) / sizeof(step_kernels[0]))

/* Kernels looked up in the binary (GELU runs as an op, not from it). */
#define NR_FUNCS K_GELU

#define NUM_BLOCKS 8

struct thread_res {
	aclrtStream *streams;
	void *dev_in, *dev_out;
	void *host_in, *host_out;
	aclrtEvent event;
	aclrtBinHandle bin;
	aclrtFuncHandle funcs[NR_FUNCS];
	int device_set; /* aclrtSetDevice succeeded: teardown resets it */
};

static void count_task(struct counts *c, enum app_task t, int kernel)
{
	c->tasks[t]++;
	if (kernel >= 0)
		c->kernels[kernel]++;
}

/* Setup part 1: device, streams, memory, event.  Return 0 or -EIO. */
static int setup_device(struct worker *w, struct thread_res *r)
{
	struct counts *c = &w->other;
	char what[32];
	unsigned int i;
	int err;

	snprintf(what, sizeof(what), "aclrtSetDevice(%d)", w->device);
	err = app_count(c, API_SET_DEVICE, aclrtSetDevice(w->device), what, "setup", w->idx);
	r->device_set = !err;
	for (i = 0; !err && i < w->opt->streams; i++)
		err = app_count(c, API_CREATE_STREAM, aclrtCreateStream(&r->streams[i]),
				"aclrtCreateStream", "setup", w->idx);
	if (!err)
		err = app_count(c, API_MALLOC,
				aclrtMalloc(&r->dev_in, w->opt->bytes, ACL_MEM_MALLOC_HUGE_FIRST),
				"aclrtMalloc(input)", "setup", w->idx);
	if (!err)
		err = app_count(c, API_MALLOC,
				aclrtMalloc(&r->dev_out, w->opt->bytes, ACL_MEM_MALLOC_HUGE_FIRST),
				"aclrtMalloc(output)", "setup", w->idx);
	if (!err)
		err = app_count(c, API_CREATE_EVENT, aclrtCreateEvent(&r->event),
				"aclrtCreateEvent", "setup", w->idx);
	return err;
}

/* Setup part 2: kernels, and the "weights" copied synchronously. */
static int setup_kernels(struct worker *w, struct thread_res *r)
{
	struct counts *c = &w->other;
	char what[64];
	int err, k;

	err = app_count(c, API_BINARY_LOAD, aclrtBinaryLoadFromFile(w->kernel_path, NULL, &r->bin),
			"aclrtBinaryLoadFromFile", "setup", w->idx);
	for (k = 0; !err && k < NR_FUNCS; k++) {
		snprintf(what, sizeof(what), "aclrtBinaryGetFunction(%s)", app_kernel_names[k]);
		err = app_count(c, API_GET_FUNCTION,
				aclrtBinaryGetFunction(r->bin, app_kernel_names[k], &r->funcs[k]),
				what, "setup", w->idx);
	}
	if (err)
		return err;
	err = app_count(c, API_MEMCPY,
			aclrtMemcpy(r->dev_in, w->opt->bytes, r->host_in, w->opt->bytes,
				    ACL_MEMCPY_HOST_TO_DEVICE),
			"aclrtMemcpy(H2D)", "setup", w->idx);
	if (!err)
		count_task(c, TASK_MEMCPY, -1);
	return err;
}

/* The kernels and the op of one step. */
static int step_compute(struct worker *w, struct thread_res *r, struct counts *c,
			const char *where)
{
	struct { void *in, *out; uint64_t bytes; } args = { r->dev_in, r->dev_out, w->opt->bytes };
	unsigned int i, ns = w->opt->streams;
	char what[64];
	int err = 0;

	for (i = 0; !err && i < NR_STEP_KERNELS; i++) {
		enum app_kernel k = step_kernels[i];

		snprintf(what, sizeof(what), "aclrtLaunchKernel(%s)", app_kernel_names[k]);
		err = app_count(c, API_LAUNCH_KERNEL,
				aclrtLaunchKernel(r->funcs[k], NUM_BLOCKS, &args, sizeof(args),
						  r->streams[i % ns]),
				what, where, w->idx);
		if (!err)
			count_task(c, TASK_AI_CORE, k);
	}
	if (err)
		return err;
	err = app_count(c, API_OP_EXECUTE,
			aclopExecuteV2(app_kernel_names[K_GELU], 0, NULL, NULL, 0, NULL, NULL, NULL,
				       r->streams[NR_STEP_KERNELS % ns]),
			"aclopExecuteV2(Gelu)", where, w->idx);
	if (!err)
		count_task(c, TASK_AI_CORE, K_GELU);
	return err;
}

/* The ACL calls of one step, H2D copy to stream syncs. */
static int step_calls(struct worker *w, struct thread_res *r, struct counts *c, const char *where)
{
	size_t bytes = w->opt->bytes;
	unsigned int i, ns = w->opt->streams;
	int err;

	err = app_count(c, API_MEMCPY_ASYNC,
			aclrtMemcpyAsync(r->dev_in, bytes, r->host_in, bytes,
					 ACL_MEMCPY_HOST_TO_DEVICE, r->streams[0]),
			"aclrtMemcpyAsync(H2D)", where, w->idx);
	if (err)
		return err;
	count_task(c, TASK_MEMCPY, -1);
	err = step_compute(w, r, c, where);
	if (!err)
		err = app_count(c, API_RECORD_EVENT, aclrtRecordEvent(r->event, r->streams[ns - 1]),
				"aclrtRecordEvent", where, w->idx);
	if (err)
		return err;
	count_task(c, TASK_EVENT_RECORD, -1);
	err = app_count(c, API_MEMCPY_ASYNC,
			aclrtMemcpyAsync(r->host_out, bytes, r->dev_out, bytes,
					 ACL_MEMCPY_DEVICE_TO_HOST, r->streams[0]),
			"aclrtMemcpyAsync(D2H)", where, w->idx);
	if (err)
		return err;
	count_task(c, TASK_MEMCPY, -1);
	for (i = 0; !err && i < ns; i++)
		err = app_count(c, API_SYNC_STREAM, aclrtSynchronizeStream(r->streams[i]),
				"aclrtSynchronizeStream", where, w->idx);
	return err;
}

void app_sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int run_steps(struct worker *w, struct thread_res *r)
{
	char where[32];
	int err = 0;

	while (!err && w->nr_steps < w->opt->steps && !app_stop_requested) {
		struct step_record *s = &w->steps[w->nr_steps];

		if (w->nr_steps)
			app_sleep_ms(w->opt->step_gap_ms);
		s->step = w->nr_steps++;
		snprintf(where, sizeof(where), "step %u", s->step);
		s->begin_ns = now_ns();
		err = step_calls(w, r, &s->c, where);
		s->end_ns = now_ns();
		if (!err && !w->opt->quiet)
			fprintf(stderr, "ai_task: thread %u step %u: %.3f ms\n", w->idx, s->step,
				(double)(s->end_ns - s->begin_ns) / 1e6);
	}
	return err;
}

/* Release what setup got, counting every call; returns -EIO on a failure. */
static int teardown(struct worker *w, struct thread_res *r)
{
	struct counts *c = &w->other;
	unsigned int i;
	int err = 0;

	if (!r->device_set)
		return 0;
	err |= app_count(c, API_SYNC_DEVICE, aclrtSynchronizeDevice(), "aclrtSynchronizeDevice",
			 "teardown", w->idx);
	if (r->dev_in)
		err |= app_count(c, API_FREE, aclrtFree(r->dev_in), "aclrtFree(input)", "teardown",
				 w->idx);
	if (r->dev_out)
		err |= app_count(c, API_FREE, aclrtFree(r->dev_out), "aclrtFree(output)", "teardown",
				 w->idx);
	if (r->event)
		err |= app_count(c, API_DESTROY_EVENT, aclrtDestroyEvent(r->event),
				 "aclrtDestroyEvent", "teardown", w->idx);
	for (i = 0; i < w->opt->streams; i++)
		if (r->streams[i])
			err |= app_count(c, API_DESTROY_STREAM, aclrtDestroyStream(r->streams[i]),
					 "aclrtDestroyStream", "teardown", w->idx);
	err |= app_count(c, API_RESET_DEVICE, aclrtResetDevice(w->device), "aclrtResetDevice",
			 "teardown", w->idx);
	return err ? -EIO : 0;
}

static int alloc_res(struct worker *w, struct thread_res *r)
{
	memset(r, 0, sizeof(*r));
	r->streams = calloc(w->opt->streams, sizeof(*r->streams));
	r->host_in = malloc(w->opt->bytes);
	r->host_out = malloc(w->opt->bytes);
	w->steps = calloc(w->opt->steps, sizeof(*w->steps));
	if (!r->streams || !r->host_in || !r->host_out || !w->steps) {
		fprintf(stderr, "ai_task: thread %u: out of memory for %zu-byte buffers\n", w->idx,
			w->opt->bytes);
		return -ENOMEM;
	}
	memset(r->host_in, 0x5a, w->opt->bytes);
	return 0;
}

static void free_res(struct thread_res *r)
{
	free(r->streams);
	free(r->host_in);
	free(r->host_out);
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct thread_res r;
	int err;

	w->tid = gettid();
	err = alloc_res(w, &r);
	if (!err) {
		err = setup_device(w, &r);
		if (!err)
			err = setup_kernels(w, &r);
		if (!err)
			err = run_steps(w, &r);
		if (teardown(w, &r))
			err = -EIO;
	}
	free_res(&r);
	w->failed = err != 0;
	return NULL;
}
