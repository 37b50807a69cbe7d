/* SPDX-License-Identifier: MIT */
/*
 * The sample AI task (build/bin/ai_task): a training-step-like loop on the
 * simulated NPU through the public ACL API only.  It counts every ACL call
 * it makes and every device task those calls queue, per step and thread,
 * and prints them as one JSON line, so a profiler's output can be checked
 * against exact expected numbers.
 *
 * It runs in one of two forms.  A rank (the default, or --rank=R) is one
 * process that calls aclInit and runs the worker threads; run_rank().  A
 * launcher (--ranks=N) calls no ACL function: like torchrun it starts N
 * rank processes, one per device, and waits for them; launch_ranks() in
 * task_launch.c.
 */
#ifndef SIM_APP_AI_TASK_H
#define SIM_APP_AI_TASK_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include <acl/acl.h>

/* The ACL functions the task calls, in JSON order. */
enum app_api {
	API_INIT,
	API_FINALIZE,
	API_SET_DEVICE,
	API_RESET_DEVICE,
	API_CREATE_STREAM,
	API_DESTROY_STREAM,
	API_MALLOC,
	API_FREE,
	API_MEMCPY,
	API_MEMCPY_ASYNC,
	API_BINARY_LOAD,
	API_GET_FUNCTION,
	API_LAUNCH_KERNEL,
	API_OP_EXECUTE,
	API_CREATE_EVENT,
	API_DESTROY_EVENT,
	API_RECORD_EVENT,
	API_SYNC_STREAM,
	API_SYNC_DEVICE,
	API_MAX
};

/* Device task types, named as msprof's Task Type column. */
enum app_task { TASK_AI_CORE, TASK_MEMCPY, TASK_EVENT_RECORD, TASK_MAX };

/* Kernels the step runs; GELU is the aclopExecuteV2 op. */
enum app_kernel { K_MATMUL, K_ADD, K_LAYERNORM, K_SOFTMAX, K_GELU, K_MAX };

extern const char *const app_api_names[API_MAX];
extern const char *const app_task_names[TASK_MAX];
extern const char *const app_kernel_names[K_MAX];

/* struct counts - calls made (failed ones too) and tasks queued */
struct counts {
	unsigned int api[API_MAX];
	unsigned int tasks[TASK_MAX];
	unsigned int kernels[K_MAX];
};

/* Limits of the options that size arrays; device ids are 0..APP_MAX_DEVICE. */
#define APP_MAX_THREADS 64
#define APP_MAX_DEVICE 63

/* How a launcher starts its ranks: fork only, or fork and exec itself. */
enum spawn_mode { SPAWN_FORK, SPAWN_EXEC };

struct options {
	unsigned int steps;
	unsigned int threads;
	unsigned int streams; /* per thread */
	int device;	      /* thread 0's device; a launcher's rank 0 */
	/* --devices: thread i runs on devices[i % nr_devices]; 0: all on device */
	unsigned int nr_devices;
	int devices[APP_MAX_THREADS];
	unsigned int step_gap_ms;
	unsigned int setup_delay_ms; /* idle after aclInit, before any aclrtSetDevice */
	const char *setup_wait_file; /* then wait for this file to exist; NULL: no wait */
	const char *kernels; /* kernel binary path; NULL: write the default */
	size_t bytes;	     /* H2D and D2H copy size */
	int quiet;
	unsigned int ranks; /* launcher: rank processes to start; 0: be a rank */
	enum spawn_mode spawn;
	int rank;		 /* this process's rank; -1: not part of a job */
	unsigned int world_size; /* ranks in the job; 1 when not part of one */
};

/**
 * struct step_record - one step of one thread
 * @begin_ns: CLOCK_MONOTONIC right before the step's first ACL call
 * @end_ns:   CLOCK_MONOTONIC right after its last call returned
 */
struct step_record {
	unsigned int step;
	uint64_t begin_ns;
	uint64_t end_ns;
	struct counts c;
};

/* struct worker - one thread of the task and what it counted */
struct worker {
	unsigned int idx;
	pid_t tid;
	int device;
	const struct options *opt;
	const char *kernel_path;
	struct counts other; /* setup and teardown */
	struct step_record *steps;
	unsigned int nr_steps;
	int failed;
};

/**
 * parse_options() - fill @opt from argv
 * Return: 0; 1 when --help was printed; -EINVAL after printing what is
 * wrong with which option.
 */
int parse_options(int argc, char **argv, struct options *opt);

/** thread_device() - the device worker thread @idx runs on. */
int thread_device(const struct options *opt, unsigned int idx);

/**
 * rank_argv() - the command line that makes a process rank @rank of
 * launcher @opt, on device opt->device + @rank: "--rank=R --device=D" and
 * every option a rank takes, as parse_options() reads them back.
 * @argv0: the argv[0] to give it.
 * Return: a NULL-terminated array the caller frees with free_argv(), or
 * NULL when out of memory.
 */
char **rank_argv(const struct options *opt, unsigned int rank, const char *argv0);

void free_argv(char **argv);

/**
 * run_rank() - be one rank: aclInit, the worker threads, aclFinalize, and
 * the JSON line on stdout.
 * Return: the exit status, 0 when every call succeeded, else 1.
 */
int run_rank(const struct options *opt);

/**
 * launch_ranks() - start opt->ranks rank processes (opt->spawn says how),
 * forward SIGINT and SIGTERM to them and wait for all; name on stderr
 * each rank that did not exit 0.  Calls no ACL function.
 * @argv0: argv[0], passed on to exec'd ranks.
 * Return: the exit status, 0 when every rank exited 0, else 1.
 */
int launch_ranks(const struct options *opt, const char *argv0);

/** worker_main() - pthread entry: setup, the steps, teardown. */
void *worker_main(void *arg);

/*
 * Set by SIGUSR1: every thread ends after the step it is in, and the JSON
 * line covers the steps run (a soak runs the app until it is done with it).
 */
extern volatile sig_atomic_t app_stop_requested;

/** app_count() - count one call of @api into @c; report a failure.
 * @what: the call as printed ("aclrtLaunchKernel(MatMul)"); @where: "step
 * 3", "setup", ...  Return: 0, or -EIO when @ret is not ACL_SUCCESS. */
int app_count(struct counts *c, enum app_api api, aclError ret, const char *what,
	      const char *where, unsigned int thread);

/** app_sleep_ms() - sleep @ms milliseconds (0: not at all), through signals. */
void app_sleep_ms(unsigned int ms);

/** now_ns() - CLOCK_MONOTONIC in ns. */
uint64_t now_ns(void);

/**
 * print_report() - print the one JSON line to stdout
 * @proc: process-level calls (aclInit, aclFinalize)
 * Return: 0 or -ENOMEM.
 */
int print_report(const struct options *opt, const struct counts *proc,
		 const struct worker *workers, const char *error);

#endif /* SIM_APP_AI_TASK_H */
