// SPDX-License-Identifier: MIT
/*
 * Description: the runtime layer (--runtime-api=on, CANN level 5000):
 *   1. both layers asked for: a known sequence of 18 ACL calls (one
 *      thread, a simulated device) gives its 18 ACL records and the 16
 *      records of the rt* calls libascendcl.so made inside them
 *      (SetDevice 1, StreamCreate 1, EventCreate 1, DevMalloc 2,
 *      MemCopySync 1, MemcpyAsync 1, KernelLaunch 1, EventRecord 1,
 *      StreamSynchronize 1, DeviceSynchronize 1, DevFree 2, EventDestroy 1,
 *      StreamDestroy 1, DeviceReset 1; aclInit and aclFinalize none), each
 *      runtime record inside the ACL record of the call that made it, on
 *      the same thread, with its arguments (device, stream, bytes, kind,
 *      handle), nothing lost;
 *   2. the runtime layer alone (--ascendcl=off --runtime-api=on): the same
 *      sequence gives exactly the 16 runtime records;
 *   3. a process that maps no libruntime.so: with both layers asked for,
 *      the attach succeeds and names the runtime layer missing; with the
 *      runtime layer alone it fails with -ENOENT at the library stage,
 *      naming libruntime.so.
 * (The per-function programs of 5.10 count the runtime layer in
 * tests/platform/smoke_amd64_5_10.sh.)  Runs as root in the test VM with
 * npusim.ko loaded.
 */
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <acl/acl.h>
#include <npuprof/record_io.h>

#include "bpf_test.h"

#define H(p) ((__u64)(uintptr_t)(p))

/* What the sequence passed and got back, for the argument checks. */
static struct {
	aclrtStream stream;
	aclrtEvent event;
	void *ptr[2];
} seq;

/* The 18 ACL calls; every one must succeed (a device is there). */
static void make_calls(void)
{
	static char host[4096], dev[4096];

	CHECK_EQ(aclInit(NULL), 0);
	CHECK_EQ(aclrtSetDevice(0), 0);
	CHECK_EQ(aclrtCreateStream(&seq.stream), 0);
	CHECK_EQ(aclrtCreateEvent(&seq.event), 0);
	CHECK_EQ(aclrtMalloc(&seq.ptr[0], 256, ACL_MEM_MALLOC_HUGE_FIRST), 0);
	CHECK_EQ(aclrtMalloc(&seq.ptr[1], 512, ACL_MEM_MALLOC_HUGE_FIRST), 0);
	CHECK_EQ(aclrtMemcpy(dev, sizeof(dev), host, 64, ACL_MEMCPY_HOST_TO_DEVICE), 0);
	CHECK_EQ(aclrtMemcpyAsync(host, sizeof(host), dev, 128, ACL_MEMCPY_DEVICE_TO_HOST,
				  seq.stream), 0);
	CHECK_EQ(aclopExecuteV2("Add", 0, NULL, NULL, 0, NULL, NULL, NULL, seq.stream), 0);
	CHECK_EQ(aclrtRecordEvent(seq.event, seq.stream), 0);
	CHECK_EQ(aclrtSynchronizeStream(seq.stream), 0);
	CHECK_EQ(aclrtSynchronizeDevice(), 0);
	CHECK_EQ(aclrtFree(seq.ptr[0]), 0);
	CHECK_EQ(aclrtFree(seq.ptr[1]), 0);
	CHECK_EQ(aclrtDestroyEvent(seq.event), 0);
	CHECK_EQ(aclrtDestroyStream(seq.stream), 0);
	CHECK_EQ(aclrtResetDevice(0), 0);
	CHECK_EQ(aclFinalize(), 0);
}

/* Records of the sequence per API id, as it must give them. */
static const unsigned int want_runtime[NPUPROF_API_MAX] = {
	[NPUPROF_API_RTS_SET_DEVICE] = 1,     [NPUPROF_API_RTS_STREAM_CREATE] = 1,
	[NPUPROF_API_RTS_EVENT_CREATE] = 1,   [NPUPROF_API_RTS_DEV_MALLOC] = 2,
	[NPUPROF_API_RTS_MEMCPY] = 1,	      [NPUPROF_API_RTS_MEMCPY_ASYNC] = 1,
	[NPUPROF_API_RTS_KERNEL_LAUNCH] = 1,  [NPUPROF_API_RTS_EVENT_RECORD] = 1,
	[NPUPROF_API_RTS_STREAM_SYNC] = 1,    [NPUPROF_API_RTS_DEVICE_SYNC] = 1,
	[NPUPROF_API_RTS_DEV_FREE] = 2,	      [NPUPROF_API_RTS_EVENT_DESTROY] = 1,
	[NPUPROF_API_RTS_STREAM_DESTROY] = 1, [NPUPROF_API_RTS_DEVICE_RESET] = 1,
};

static const unsigned int want_acl[NPUPROF_API_MAX] = {
	[NPUPROF_API_ACL_INIT] = 1,	     [NPUPROF_API_RT_SET_DEVICE] = 1,
	[NPUPROF_API_RT_CREATE_STREAM] = 1,  [NPUPROF_API_RT_CREATE_EVENT] = 1,
	[NPUPROF_API_RT_MALLOC] = 2,	     [NPUPROF_API_RT_MEMCPY] = 1,
	[NPUPROF_API_RT_MEMCPY_ASYNC] = 1,   [NPUPROF_API_OP_EXECUTE_V2] = 1,
	[NPUPROF_API_RT_RECORD_EVENT] = 1,   [NPUPROF_API_RT_SYNC_STREAM] = 1,
	[NPUPROF_API_RT_SYNC_DEVICE] = 1,    [NPUPROF_API_RT_FREE] = 2,
	[NPUPROF_API_RT_DESTROY_EVENT] = 1,  [NPUPROF_API_RT_DESTROY_STREAM] = 1,
	[NPUPROF_API_RT_RESET_DEVICE] = 1,   [NPUPROF_API_ACL_FINALIZE] = 1,
};

/* The ACL function whose call makes runtime call @api. */
static unsigned int caller_of(unsigned int api)
{
	switch (api) {
	case NPUPROF_API_RTS_SET_DEVICE: return NPUPROF_API_RT_SET_DEVICE;
	case NPUPROF_API_RTS_DEVICE_RESET: return NPUPROF_API_RT_RESET_DEVICE;
	case NPUPROF_API_RTS_STREAM_CREATE: return NPUPROF_API_RT_CREATE_STREAM;
	case NPUPROF_API_RTS_STREAM_DESTROY: return NPUPROF_API_RT_DESTROY_STREAM;
	case NPUPROF_API_RTS_STREAM_SYNC: return NPUPROF_API_RT_SYNC_STREAM;
	case NPUPROF_API_RTS_DEVICE_SYNC: return NPUPROF_API_RT_SYNC_DEVICE;
	case NPUPROF_API_RTS_DEV_MALLOC: return NPUPROF_API_RT_MALLOC;
	case NPUPROF_API_RTS_DEV_FREE: return NPUPROF_API_RT_FREE;
	case NPUPROF_API_RTS_MEMCPY: return NPUPROF_API_RT_MEMCPY;
	case NPUPROF_API_RTS_MEMCPY_ASYNC: return NPUPROF_API_RT_MEMCPY_ASYNC;
	case NPUPROF_API_RTS_KERNEL_LAUNCH: return NPUPROF_API_OP_EXECUTE_V2;
	case NPUPROF_API_RTS_EVENT_CREATE: return NPUPROF_API_RT_CREATE_EVENT;
	case NPUPROF_API_RTS_EVENT_DESTROY: return NPUPROF_API_RT_DESTROY_EVENT;
	case NPUPROF_API_RTS_EVENT_RECORD: return NPUPROF_API_RT_RECORD_EVENT;
	default: return 0;
	}
}

static struct npuprof_acl_trace *open_layers(unsigned int layers)
{
	struct npuprof_acl_trace_opts o = { .ring_bytes = 256 * 1024, .layers = layers };
	struct npuprof_acl_trace *t;
	int err = npuprof_acl_trace_open_opts(&o, &t);

	if (err) {
		fprintf(stderr, "npuprof_acl_trace_open_opts: %s\n", strerror(-err));
		exit(1);
	}
	return t;
}

/* One capture of the sequence into @log, sorted; nothing may be lost. */
static void capture(struct npuprof_acl_trace *t, struct api_log *log)
{
	uint64_t written, lost;

	memset(log, 0, sizeof(*log));
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0);
	CHECK_EQ(npuprof_acl_trace_missing_layers(t), 0);
	CHECK_STR(npuprof_acl_trace_untraced(t), "");
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	make_calls();
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	bpf_test_drain(t, log);
	CHECK_EQ(log->bad, 0);
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, log->nr);
	CHECK_EQ(lost, 0);
	api_log_sort(log);
}

/* Every API's record count in @log is @want's. */
static void check_counts(const struct api_log *log, const unsigned int *want_a,
			 const unsigned int *want_b)
{
	unsigned int got[NPUPROF_API_MAX] = { 0 }, api;
	size_t i;

	for (i = 0; i < log->nr; i++)
		if (log->recs[i].api < NPUPROF_API_MAX)
			got[log->recs[i].api]++;
	for (api = 1; api < NPUPROF_API_MAX; api++) {
		unsigned int want = want_a[api] + (want_b ? want_b[api] : 0);

		if (got[api] != want)
			fprintf(stderr, "%s: %u records, want %u\n", npuprof_api_name(api),
				got[api], want);
		CHECK_EQ(got[api], want);
	}
}

/* What the runtime record @r must carry, by its API. */
static void check_runtime_args(const struct npuprof_rec_api *r)
{
	CHECK_EQ(r->ret, 0);
	switch (r->api) {
	case NPUPROF_API_RTS_SET_DEVICE:
	case NPUPROF_API_RTS_DEVICE_RESET:
		CHECK_EQ(r->device, 0);
		break;
	case NPUPROF_API_RTS_STREAM_CREATE:
	case NPUPROF_API_RTS_STREAM_DESTROY:
	case NPUPROF_API_RTS_STREAM_SYNC:
	case NPUPROF_API_RTS_KERNEL_LAUNCH:
		CHECK_EQ(r->stream, H(seq.stream));
		break;
	case NPUPROF_API_RTS_DEV_MALLOC:
		CHECK(r->bytes == 256 || r->bytes == 512);
		CHECK_EQ(r->handle, H(seq.ptr[r->bytes == 512]));
		break;
	case NPUPROF_API_RTS_MEMCPY:
		CHECK_EQ(r->bytes, 64);
		CHECK_EQ(r->kind, ACL_MEMCPY_HOST_TO_DEVICE);
		break;
	case NPUPROF_API_RTS_MEMCPY_ASYNC:
		CHECK_EQ(r->bytes, 128);
		CHECK_EQ(r->kind, ACL_MEMCPY_DEVICE_TO_HOST);
		CHECK_EQ(r->stream, H(seq.stream));
		break;
	case NPUPROF_API_RTS_EVENT_RECORD:
		CHECK_EQ(r->stream, H(seq.stream));
		/* fall through */
	case NPUPROF_API_RTS_EVENT_CREATE:
	case NPUPROF_API_RTS_EVENT_DESTROY:
		CHECK_EQ(r->handle, H(seq.event));
		break;
	}
}

/* Each runtime record lies inside a record of the ACL call that made it. */
static void check_nesting(const struct api_log *log)
{
	size_t i, j;

	for (i = 0; i < log->nr; i++) {
		const struct npuprof_rec_api *r = &log->recs[i];
		int inside = 0;

		if (npuprof_api_level(r->api, NULL) != NPUPROF_LEVEL_RUNTIME)
			continue;
		check_runtime_args(r);
		for (j = 0; j < log->nr; j++) {
			const struct npuprof_rec_api *a = &log->recs[j];

			inside += a->api == caller_of(r->api) && a->tid == r->tid &&
				  a->hdr.ts <= r->hdr.ts && r->exit_ts <= a->exit_ts;
		}
		if (inside != 1)
			fprintf(stderr, "%s at %llu: inside %d calls of its caller\n",
				npuprof_api_name(r->api), (unsigned long long)r->hdr.ts, inside);
		CHECK_EQ(inside, 1);
	}
}

static void test_both_layers(void)
{
	struct npuprof_acl_trace *t = open_layers(NPUPROF_LAYER_ACL | NPUPROF_LAYER_RUNTIME);
	struct api_log log;

	capture(t, &log);
	CHECK_EQ(log.nr, 34);
	check_counts(&log, want_acl, want_runtime);
	check_nesting(&log);
	npuprof_acl_trace_close(t);
	free(log.recs);
}

static void test_runtime_alone(void)
{
	struct npuprof_acl_trace *t = open_layers(NPUPROF_LAYER_RUNTIME);
	struct api_log log;
	size_t i;

	capture(t, &log);
	CHECK_EQ(log.nr, 16);
	check_counts(&log, want_runtime, NULL);
	for (i = 0; i < log.nr; i++)
		check_runtime_args(&log.recs[i]);
	npuprof_acl_trace_close(t);
	free(log.recs);
}

/*
 * A child that maps @lib (NULL: nothing of ours) and waits to be killed:
 * python3 loading it with ctypes, saying "ready" on its stdout once the
 * library is loaded (every segment mapped: a library still being mapped
 * has a first mapping whose range goes away).  Return: its pid, or -1.
 */
static pid_t start_child(const char *lib)
{
	char code[PATH_MAX + 160], buf[8] = "";
	int fds[2];
	pid_t pid;

	snprintf(code, sizeof(code),
		 "import ctypes,sys,time\n%s%s%sprint('ready',flush=True)\ntime.sleep(60)\n",
		 lib ? "ctypes.CDLL('" : "", lib ? lib : "", lib ? "')\n" : "");
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		execlp("python3", "python3", "-c", code, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	if (pid > 0 && read(fds[0], buf, 5) != 5) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(fds[0]);
	return pid;
}

static void stop_child(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Copy build/tests/fixtures/libacl_partial.so to @dst: an ACL library alone. */
static int copy_fixture(const char *dst)
{
	char exe[PATH_MAX], cmd[3 * PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		return -1;
	exe[n] = '\0';
	snprintf(cmd, sizeof(cmd), "mkdir -p /tmp/bpf_rt && cp %s/../fixtures/libacl_partial.so %s",
		 dirname(exe), dst);
	return system(cmd);
}

static void test_missing_runtime(void)
{
	static const char lib[] = "/tmp/bpf_rt/libascendcl.so";
	struct npuprof_acl_trace *both = open_layers(NPUPROF_LAYER_ACL | NPUPROF_LAYER_RUNTIME);
	struct npuprof_acl_trace *rt = open_layers(NPUPROF_LAYER_RUNTIME);
	const struct npuprof_error *e;
	pid_t acl_only, plain;

	CHECK_EQ(copy_fixture(lib), 0);
	acl_only = start_child(lib);
	plain = start_child(NULL);
	CHECK(acl_only > 0 && plain > 0);
	CHECK_EQ(npuprof_acl_trace_attach_pid(both, acl_only), 0);
	CHECK_EQ(npuprof_acl_trace_missing_layers(both), NPUPROF_LAYER_RUNTIME);
	CHECK_EQ(npuprof_acl_trace_attach_pid(rt, plain), -ENOENT);
	e = npuprof_acl_trace_error(rt);
	CHECK_EQ(e->stage, NPUPROF_STAGE_LIBRARY);
	CHECK_EQ(e->pid, plain);
	CHECK_STR(e->object, "libruntime.so");
	stop_child(acl_only);
	stop_child(plain);
	npuprof_acl_trace_close(both);
	npuprof_acl_trace_close(rt);
}

int main(void)
{
	struct npuprof_acl_trace *probe;

	/* root and a kernel that takes our programs, or skip */
	probe = bpf_test_open(64 * 1024);
	npuprof_acl_trace_close(probe);
	if (access("/dev/davinci0", F_OK))
		CHECK_SKIP("no /dev/davinci0: load npusim.ko");
	test_both_layers();
	test_runtime_alone();
	test_missing_runtime();
	return CHECK_DONE();
}
