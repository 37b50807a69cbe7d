// SPDX-License-Identifier: MIT
/*
 * P4 (bench/p4_loss.sh): one capture window through the real capture
 * path (npuprof_session: npuprof.ko rings at the module's default size,
 * the io_uring + zstd drain, PROF_XXX slices) of this process while a
 * thread pinned to CPU fires COUNT driver events at RATE events/s through
 * npusim.ko's benchmark hook (RATE 0: as fast as it can).
 *
 *   [NPUPROF_WRITER=io_uring|pwrite] p4_loss OUTPUT_DIR COUNT RATE CPU
 *
 * NPUPROF_WRITER chooses the drain's writer (npuprof/drain.h): io_uring,
 * or pwrite, the fallback; host/info.json in DIR says which ran.
 * Output, one line:
 *   produced=P seconds=S rate=R saved=W lost=L prof_dir=DIR
 * P events fired, in S seconds (R = P / S achieved), W task records the
 * session says it saved, L records it says were lost (all causes); the
 * script counts the records in DIR itself and checks P - written = L.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <npuprof/bpf_log.h>
#include <npuprof/loss.h>
#include <npuprof/session.h>

#define BENCH_HOOK "/sys/kernel/debug/npusim/bench"

struct writer {
	unsigned long long count;
	unsigned long long rate;
	int cpu;
	double seconds;
	int err;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	char cmd[64];
	cpu_set_t set;
	int fd, len;
	double t0;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	w->err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	fd = open(BENCH_HOOK, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		w->err = errno;
		return NULL;
	}
	len = snprintf(cmd, sizeof(cmd), "%llu %llu", w->count, w->rate);
	t0 = now_s();
	if (write(fd, cmd, len) != len)
		w->err = errno;
	w->seconds = now_s() - t0;
	close(fd);
	return NULL;
}

static int fail(struct npuprof_session *s, const char *what, int err)
{
	fprintf(stderr, "p4_loss: %s: %s (%s)\n", what, strerror(-err),
		npuprof_session_last_error(s));
	npuprof_session_close(s);
	return 1;
}

int main(int argc, char **argv)
{
	struct npuprof_session_opts opts = { .task_time = 1, .output_fd = -1 };
	struct npuprof_session_result res;
	struct npuprof_session *s = NULL;
	struct writer w = { 0 };
	pthread_t th;
	int ret;

	libbpf_set_print(npuprof_bpf_print_fn()); /* the program's, not the library's */
	if (argc != 5) {
		fprintf(stderr, "usage: p4_loss OUTPUT_DIR COUNT RATE CPU\n");
		return 2;
	}
	opts.output = argv[1];
	w.count = strtoull(argv[2], NULL, 10);
	w.rate = strtoull(argv[3], NULL, 10);
	w.cpu = atoi(argv[4]);
	ret = npuprof_session_create(&opts, &s);
	if (ret)
		return fail(NULL, "session", ret);
	ret = npuprof_session_add_pid(s, getpid());
	if (ret)
		return fail(s, "add pid", ret);
	ret = npuprof_session_start(s);
	if (ret)
		return fail(s, "start", ret);
	pthread_create(&th, NULL, writer_main, &w);
	pthread_join(th, NULL);
	ret = npuprof_session_stop(s, &res, 1);
	if (ret)
		return fail(s, "stop", ret);
	if (w.err) {
		fprintf(stderr, "p4_loss: %s: %s\n", BENCH_HOOK, strerror(w.err));
		npuprof_session_close(s);
		return 1;
	}
	printf("produced=%llu seconds=%.3f rate=%.0f saved=%llu lost=%llu prof_dir=%s\n",
	       w.count, w.seconds, w.count / w.seconds,
	       (unsigned long long)res.task_records,
	       (unsigned long long)npuprof_loss_total(&res.loss), res.prof_dir);
	npuprof_session_close(s);
	return 0;
}
