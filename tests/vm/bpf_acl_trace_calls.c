// SPDX-License-Identifier: MIT
/*
 * Description: the runtime-API capture records every ACL call of a traced
 * process exactly once, in call order, with the right arguments.
 *
 * Attaches to its own pid, makes a known sequence of about 190 ACL calls
 * and checks the records one by one against the list the test kept while
 * calling: API, return value (what the call returned here), device, stream,
 * bytes, copy kind, handle (out-parameters as they stand after the call),
 * op type / kernel name (a launch: its handle's, from the
 * aclrtBinaryGetFunction() before it), pid, tid, entry <= exit, calls not overlapping,
 * nothing lost.  Independent of whether a simulated device exists: a call
 * that fails is recorded with its error code all the same.
 * Runs as root in the test VM (tests/vm/bpf_acl_trace.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>

#include <acl/acl.h>

#include "bpf_test.h"

#define MAX_CALLS 256

static struct npuprof_rec_api want[MAX_CALLS];
static size_t nr_want;

/* Note a call the capture must record; the caller fills the arguments. */
static struct npuprof_rec_api *expect(unsigned int api, aclError ret)
{
	struct npuprof_rec_api *w = &want[nr_want++];

	if (nr_want > MAX_CALLS)
		abort();
	memset(w, 0, sizeof(*w));
	w->api = api;
	w->ret = ret;
	w->device = -1;
	return w;
}

#define H(p) ((__u64)(uintptr_t)(p))

/*
 * Out-parameters are read after the call returned: each call gets its own
 * statement, as the order of evaluation inside one is unspecified.
 */
static void call_setup(aclrtStream *stream, aclrtEvent *event)
{
	aclError ret;

	expect(NPUPROF_API_ACL_INIT, aclInit(NULL));
	expect(NPUPROF_API_RT_SET_DEVICE, aclrtSetDevice(0))->device = 0;
	ret = aclrtCreateStream(stream);
	expect(NPUPROF_API_RT_CREATE_STREAM, ret)->stream = H(*stream);
	ret = aclrtCreateEvent(event);
	expect(NPUPROF_API_RT_CREATE_EVENT, ret)->handle = H(*event);
}

static void call_memory(aclrtStream stream, void **ptrs, int nr_ptrs)
{
	static char src[4096], dst[4096];
	struct npuprof_rec_api *w;
	aclError ret;
	int i;

	for (i = 0; i < nr_ptrs; i++) {
		ptrs[i] = (void *)(uintptr_t)0xdead0000;
		ret = aclrtMalloc(&ptrs[i], 256 * (i + 1), ACL_MEM_MALLOC_HUGE_FIRST);
		w = expect(NPUPROF_API_RT_MALLOC, ret);
		w->bytes = 256 * (i + 1);
		w->handle = H(ptrs[i]);
	}
	for (i = 0; i < 40; i++) {
		ret = aclrtMemcpy(dst, sizeof(dst), src, 64 + i, i % 4);
		w = expect(NPUPROF_API_RT_MEMCPY, ret);
		w->bytes = 64 + i;
		w->kind = i % 4;
	}
	for (i = 0; i < 40; i++) {
		ret = aclrtMemcpyAsync(dst, sizeof(dst), src, 128 + i, 3 - i % 4,
				       stream);
		w = expect(NPUPROF_API_RT_MEMCPY_ASYNC, ret);
		w->bytes = 128 + i;
		w->kind = 3 - i % 4;
		w->stream = H(stream);
	}
}

static void call_ops(aclrtStream stream)
{
	static const char *const ops[] = { "Add", "MatMul", "LayerNorm" };
	struct npuprof_rec_api *w;
	int i;

	for (i = 0; i < 21; i++) {
		const char *op = ops[i % 3];

		w = expect(NPUPROF_API_OP_EXECUTE_V2,
			   aclopExecuteV2(op, 0, NULL, NULL, 0, NULL, NULL, NULL,
					  stream));
		w->stream = H(stream);
		snprintf(w->name, sizeof(w->name), "%s", op);
	}
}

/* A kernel binary for the simulated runtime: one 5 us kernel. */
static const char *write_kernel_file(void)
{
	static const char path[] = "/tmp/bpf_acl_trace_calls.kernels";
	FILE *f = fopen(path, "w");

	if (f) {
		fputs("vector_add_f32 5\n", f);
		fclose(f);
	}
	return path;
}

static void call_kernels(aclrtStream stream)
{
	aclrtBinHandle bin = NULL;
	aclrtFuncHandle fn = (void *)(uintptr_t)0xfeed;
	struct npuprof_rec_api *w;
	aclError ret;
	bool named;
	int i;

	ret = aclrtBinaryLoadFromFile(write_kernel_file(), NULL, &bin);
	expect(NPUPROF_API_RT_BINARY_LOAD_FROM_FILE, ret)->handle = H(bin);
	ret = aclrtBinaryGetFunction(bin, "vector_add_f32", &fn);
	w = expect(NPUPROF_API_RT_BINARY_GET_FUNCTION, ret);
	w->handle = H(fn);
	strcpy(w->name, "vector_add_f32");
	named = ret == ACL_SUCCESS; /* a handle the process made while attached */
	for (i = 0; i < 10; i++) {
		ret = aclrtLaunchKernel(fn, 1, NULL, 0, stream);
		w = expect(NPUPROF_API_RT_LAUNCH_KERNEL, ret);
		w->handle = H(fn);
		w->stream = H(stream);
		if (named)
			strcpy(w->name, "vector_add_f32");
	}
}

static void call_sync(aclrtStream stream, aclrtEvent event)
{
	struct npuprof_rec_api *w;
	int i;

	for (i = 0; i < 10; i++) {
		w = expect(NPUPROF_API_RT_RECORD_EVENT,
			   aclrtRecordEvent(event, stream));
		w->handle = H(event);
		w->stream = H(stream);
		w = expect(NPUPROF_API_RT_SYNC_STREAM,
			   aclrtSynchronizeStream(stream));
		w->stream = H(stream);
	}
	expect(NPUPROF_API_RT_SYNC_DEVICE, aclrtSynchronizeDevice());
}

static void call_teardown(aclrtStream stream, aclrtEvent event, void **ptrs,
			  int nr_ptrs)
{
	int i;

	for (i = 0; i < nr_ptrs; i++)
		expect(NPUPROF_API_RT_FREE, aclrtFree(ptrs[i]))->handle =
			H(ptrs[i]);
	expect(NPUPROF_API_RT_DESTROY_EVENT, aclrtDestroyEvent(event))->handle =
		H(event);
	expect(NPUPROF_API_RT_DESTROY_STREAM, aclrtDestroyStream(stream))->stream =
		H(stream);
	expect(NPUPROF_API_RT_RESET_DEVICE, aclrtResetDevice(0))->device = 0;
	expect(NPUPROF_API_ACL_FINALIZE, aclFinalize());
}

static void make_calls(void)
{
	aclrtStream stream = NULL;
	aclrtEvent event = NULL;
	void *ptrs[20];

	call_setup(&stream, &event);
	call_memory(stream, ptrs, 20);
	call_ops(stream);
	call_kernels(stream);
	call_sync(stream, event);
	call_teardown(stream, event, ptrs, 20);
}

/* Compare record @i with the call the test made; return mismatches. */
static int check_record(size_t i, const struct npuprof_rec_api *r,
			const struct npuprof_rec_api *w)
{
	int before = check_failures;

	CHECK_EQ(r->api, w->api);
	CHECK_EQ(r->ret, w->ret);
	CHECK_EQ(r->device, w->device);
	CHECK_EQ(r->stream, w->stream);
	CHECK_EQ(r->bytes, w->bytes);
	CHECK_EQ(r->kind, w->kind);
	CHECK_EQ(r->handle, w->handle);
	CHECK_STR(r->name, w->name);
	CHECK_EQ(r->flags, 0);
	if (check_failures != before)
		fprintf(stderr, "record %zu (%s) differs\n", i,
			npuprof_api_name(w->api));
	return check_failures - before;
}

static void check_records(const struct api_log *log, uint64_t start,
			  uint64_t end, unsigned int nr_cpus)
{
	pid_t tid = syscall(SYS_gettid);
	uint64_t prev_exit = start;
	size_t i;

	for (i = 0; i < log->nr && i < nr_want; i++) {
		const struct npuprof_rec_api *r = &log->recs[i];

		CHECK_EQ(r->pid, getpid());
		CHECK_EQ(r->tid, tid);
		CHECK(r->hdr.cpu < nr_cpus);
		CHECK(prev_exit <= r->hdr.ts);
		CHECK(r->hdr.ts <= r->exit_ts);
		CHECK(r->exit_ts <= end);
		prev_exit = r->exit_ts;
		if (check_record(i, r, &want[i]))
			break; /* one mismatch shifts all that follow */
	}
}

/* Calls that returned ACL_SUCCESS: most of them when a device exists. */
static size_t count_success(void)
{
	size_t i, n = 0;

	for (i = 0; i < nr_want; i++)
		n += want[i].ret == ACL_SUCCESS;
	return n;
}

int main(void)
{
	struct npuprof_acl_trace *t = bpf_test_open(256 * 1024);
	struct api_log log = { 0 };
	uint64_t start, end, written, lost;

	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	start = test_now_ns();
	make_calls();
	end = test_now_ns();
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);

	CHECK_EQ(bpf_test_drain(t, &log), nr_want);
	api_log_sort(&log);
	CHECK_EQ(log.nr, nr_want);
	CHECK_EQ(log.bad, 0);
	check_records(&log, start, end, npuprof_acl_trace_nr_cpus(t));
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, nr_want);
	CHECK_EQ(lost, 0);
	printf("%zu calls, %zu records, %zu calls succeeded\n", nr_want,
	       log.nr, count_success());

	npuprof_acl_trace_close(t);
	free(log.recs);
	return CHECK_DONE();
}
