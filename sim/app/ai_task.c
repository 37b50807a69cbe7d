// SPDX-License-Identifier: MIT
/*
 * Sample AI task for the simulated NPU: main() parses the options
 * (task_options.c) and either launches ranks (task_launch.c) or is one:
 * run_rank() initialises ACL, runs the worker threads (task_worker.c),
 * finalises ACL and prints the one JSON line of counts (task_report.c).
 * Exit status: 0 success, 1 an ACL call failed (stderr names the call, the
 * step and the thread) or, for a launcher, a rank did not exit 0 (stderr
 * names the rank), 2 bad usage.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ai_task.h"

const char *const app_api_names[API_MAX] = {
	[API_INIT] = "aclInit",
	[API_FINALIZE] = "aclFinalize",
	[API_SET_DEVICE] = "aclrtSetDevice",
	[API_RESET_DEVICE] = "aclrtResetDevice",
	[API_CREATE_STREAM] = "aclrtCreateStream",
	[API_DESTROY_STREAM] = "aclrtDestroyStream",
	[API_MALLOC] = "aclrtMalloc",
	[API_FREE] = "aclrtFree",
	[API_MEMCPY] = "aclrtMemcpy",
	[API_MEMCPY_ASYNC] = "aclrtMemcpyAsync",
	[API_BINARY_LOAD] = "aclrtBinaryLoadFromFile",
	[API_GET_FUNCTION] = "aclrtBinaryGetFunction",
	[API_LAUNCH_KERNEL] = "aclrtLaunchKernel",
	[API_OP_EXECUTE] = "aclopExecuteV2",
	[API_CREATE_EVENT] = "aclrtCreateEvent",
	[API_DESTROY_EVENT] = "aclrtDestroyEvent",
	[API_RECORD_EVENT] = "aclrtRecordEvent",
	[API_SYNC_STREAM] = "aclrtSynchronizeStream",
	[API_SYNC_DEVICE] = "aclrtSynchronizeDevice",
};

const char *const app_task_names[TASK_MAX] = {
	[TASK_AI_CORE] = "AI_CORE",
	[TASK_MEMCPY] = "MEMCPY",
	[TASK_EVENT_RECORD] = "EVENT_RECORD",
};

const char *const app_kernel_names[K_MAX] = {
	[K_MATMUL] = "MatMul",
	[K_ADD] = "Add",
	[K_LAYERNORM] = "LayerNorm",
	[K_SOFTMAX] = "Softmax",
	[K_GELU] = "Gelu",
};

/* The built-in kernel binary: name and run time in µs. */
static const char default_kernels[] =
	"# ai_task built-in kernel binary: <kernel_name> <duration_us>\n"
	"MatMul 2000\n"
	"Add 300\n"
	"LayerNorm 500\n"
	"Softmax 700\n"
	"Gelu 400\n";

/* First failure message, for the JSON "error" field. */
static pthread_mutex_t error_lock = PTHREAD_MUTEX_INITIALIZER;
static char first_error[256];

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* CANN's name of the codes the simulated runtime returns. */
static const char *acl_error_name(aclError ret)
{
	static const struct {
		aclError code;
		const char *name;
	} names[] = {
		{ ACL_ERROR_INVALID_PARAM, "ACL_ERROR_INVALID_PARAM" },
		{ ACL_ERROR_REPEAT_INITIALIZE, "ACL_ERROR_REPEAT_INITIALIZE" },
		{ ACL_ERROR_INVALID_FILE, "ACL_ERROR_INVALID_FILE" },
		{ ACL_ERROR_PARSE_FILE, "ACL_ERROR_PARSE_FILE" },
		{ ACL_ERROR_OP_NOT_FOUND, "ACL_ERROR_OP_NOT_FOUND" },
		{ ACL_ERROR_KERNEL_NOT_FOUND, "ACL_ERROR_KERNEL_NOT_FOUND" },
		{ ACL_ERROR_REPEAT_FINALIZE, "ACL_ERROR_REPEAT_FINALIZE" },
		{ ACL_ERROR_BAD_ALLOC, "ACL_ERROR_BAD_ALLOC" },
		{ ACL_ERROR_RT_PARAM_INVALID, "ACL_ERROR_RT_PARAM_INVALID" },
		{ ACL_ERROR_RT_INVALID_DEVICEID, "ACL_ERROR_RT_INVALID_DEVICEID" },
		{ ACL_ERROR_RT_CONTEXT_NULL, "ACL_ERROR_RT_CONTEXT_NULL" },
		{ ACL_ERROR_RT_STREAM_CONTEXT, "ACL_ERROR_RT_STREAM_CONTEXT" },
		{ ACL_ERROR_RT_MEMORY_ALLOCATION, "ACL_ERROR_RT_MEMORY_ALLOCATION" },
		{ ACL_ERROR_RT_NO_DEVICE, "ACL_ERROR_RT_NO_DEVICE (is npusim.ko loaded?)" },
		{ ACL_ERROR_RT_NO_PERMISSION, "ACL_ERROR_RT_NO_PERMISSION" },
		{ ACL_ERROR_RT_NO_STREAM_RESOURCE, "ACL_ERROR_RT_NO_STREAM_RESOURCE" },
		{ ACL_ERROR_RT_STREAM_TASK_FULL, "ACL_ERROR_RT_STREAM_TASK_FULL" },
		{ ACL_ERROR_RT_DRV_INTERNAL_ERROR, "ACL_ERROR_RT_DRV_INTERNAL_ERROR" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].code == ret)
			return names[i].name;
	return "unknown ACL error";
}

int app_count(struct counts *c, enum app_api api, aclError ret, const char *what,
	      const char *where, unsigned int thread)
{
	char msg[sizeof(first_error)];

	c->api[api]++;
	if (ret == ACL_SUCCESS)
		return 0;
	snprintf(msg, sizeof(msg), "%s failed with %s (%d) in %s of thread %u", what,
		 acl_error_name(ret), ret, where, thread);
	fprintf(stderr, "ai_task: %s\n", msg);
	pthread_mutex_lock(&error_lock);
	if (!first_error[0])
		memcpy(first_error, msg, sizeof(msg));
	pthread_mutex_unlock(&error_lock);
	return -EIO;
}

/* Write the built-in kernel binary to a temp file; its path into @path. */
static int write_default_kernels(char *path, size_t size)
{
	const char *dir = getenv("TMPDIR");
	size_t len = sizeof(default_kernels) - 1;
	int fd, err = 0;

	snprintf(path, size, "%s/ai_task_kernels.XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		err = -errno;
		fprintf(stderr, "ai_task: %s: cannot create the kernel binary: %s; set TMPDIR or pass --kernels=FILE\n",
			path, strerror(errno));
		return err;
	}
	if (write(fd, default_kernels, len) != (ssize_t)len) {
		err = -EIO;
		fprintf(stderr, "ai_task: %s: cannot write the kernel binary\n", path);
		unlink(path);
	}
	close(fd);
	return err;
}

/* Start one thread per worker and wait for all.  Return: workers failed. */
static int run_workers(struct worker *workers, const struct options *opt, const char *kpath)
{
	pthread_t *tids = calloc(opt->threads, sizeof(*tids));
	unsigned int i, started = 0;
	int failed = 0, err;

	if (!tids)
		return (int)opt->threads;
	for (i = 0; i < opt->threads; i++) {
		workers[i] = (struct worker){ .idx = i, .device = thread_device(opt, i),
					      .opt = opt, .kernel_path = kpath };
		err = pthread_create(&tids[i], NULL, worker_main, &workers[i]);
		if (err) {
			fprintf(stderr, "ai_task: cannot start thread %u: %s\n", i, strerror(err));
			break;
		}
		started++;
	}
	for (i = 0; i < started; i++) {
		pthread_join(tids[i], NULL);
		failed += workers[i].failed;
	}
	free(tids);
	return failed + (int)(opt->threads - started);
}

/* The progress line a rank starts with. */
static void say_start(const struct options *opt)
{
	char where[16 + APP_MAX_THREADS * 4] = "device ";
	unsigned int i;

	if (opt->quiet)
		return;
	if (opt->nr_devices) {
		strcpy(where, "devices ");
		for (i = 0; i < opt->nr_devices; i++)
			snprintf(where + strlen(where), sizeof(where) - strlen(where), "%s%d",
				 i ? "," : "", opt->devices[i]);
	} else {
		snprintf(where + strlen(where), sizeof(where) - strlen(where), "%d", opt->device);
	}
	if (opt->rank >= 0)
		fprintf(stderr, "ai_task: rank %d of %u, pid %d: %u thread(s) x %u step(s) on %s\n",
			opt->rank, opt->world_size, (int)getpid(), opt->threads, opt->steps, where);
	else
		fprintf(stderr, "ai_task: pid %d: %u thread(s) x %u step(s) on %s\n", (int)getpid(),
			opt->threads, opt->steps, where);
}

volatile sig_atomic_t app_stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	app_stop_requested = 1;
}

/* SIGUSR1 ends the steps early; SA_RESTART: no call fails for it. */
static void catch_stop_signal(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
}

int run_rank(const struct options *opt)
{
	struct counts proc = { 0 };
	struct worker *workers;
	char kpath[4096] = "";
	int failed = 1;

	workers = calloc(opt->threads, sizeof(*workers));
	if (!workers || (!opt->kernels && write_default_kernels(kpath, sizeof(kpath)))) {
		free(workers);
		return 1;
	}
	say_start(opt);
	catch_stop_signal();
	if (!app_count(&proc, API_INIT, aclInit(NULL), "aclInit", "setup", 0)) {
		app_sleep_ms(opt->setup_delay_ms);
		/* a test's cue: set devices only once it says so (10 min at most) */
		for (unsigned int n = 0; opt->setup_wait_file && n < 60000 && !app_stop_requested &&
					 access(opt->setup_wait_file, F_OK);
		     n++)
			app_sleep_ms(10);
		failed = run_workers(workers, opt, opt->kernels ? opt->kernels : kpath);
		if (app_count(&proc, API_FINALIZE, aclFinalize(), "aclFinalize", "teardown", 0))
			failed++;
	}
	if (kpath[0])
		unlink(kpath);
	if (print_report(opt, &proc, workers, first_error[0] ? first_error : NULL))
		failed++;
	for (unsigned int i = 0; i < opt->threads; i++)
		free(workers[i].steps);
	free(workers);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct options opt;
	int err;

	err = parse_options(argc, argv, &opt);
	if (err)
		return err > 0 ? 0 : 2;
	if (opt.ranks)
		return launch_ranks(&opt, argv[0]);
	return run_rank(&opt);
}
