// SPDX-License-Identifier: MIT
/*
 * Description: npusim.ko's benchmark hook (/sys/kernel/debug/npusim/bench)
 * fires exactly what it says.  With npuprof.ko capturing this process:
 * "1000" gives exactly 1000 npusim_task_end records with our pid/tid,
 * device 0, stream 0, task ids 1..1000 in order, type kernel, arg 10000,
 * name "bench_kernel" and device times 50 counts apart; "500 100000"
 * (paced to 100k/s) gives 500 more and takes at least 499 / 100000 s;
 * reading the file says "fired 1500"; malformed and out-of-range writes
 * are refused with EINVAL; a signal ends a huge write early with EINTR
 * and the events fired until then still count.  Nothing lost.
 */
#include <signal.h>
#include <sys/time.h>
#include <time.h>
#include "kmod_common.h"

#define BENCH "/sys/kernel/debug/npusim/bench"

struct seen {
	uint64_t n;
	uint32_t last_id;
	uint64_t last_dev_ts;
	unsigned int runs;
	unsigned int bad;
};

static void on_record(void *ctx, unsigned int cpu,
		      const struct npuprof_rec_hdr *h)
{
	const struct npuprof_rec_task *r = (const void *)h;
	struct seen *s = ctx;

	(void)cpu;
	s->n++;
	/* Each write numbers its events from 1. */
	if (r->task_id == 1)
		s->runs++;
	else if (r->task_id != s->last_id + 1 ||
		 r->dev_ts != s->last_dev_ts + 50)
		s->bad++;
	if (h->type != NPUPROF_REC_TASK || r->event != NPUPROF_TASK_END ||
	    r->pid != (uint32_t)getpid() || r->tid != (uint32_t)gettid() ||
	    r->device != 0 || r->stream != 0 ||
	    r->task_type != NPUPROF_TT_KERNEL || r->arg != 10000 ||
	    strcmp(r->name, "bench_kernel"))
		s->bad++;
	s->last_id = r->task_id;
	s->last_dev_ts = r->dev_ts;
}

/* Write @cmd to the hook.  Return 0 or -errno. */
static int bench_write(const char *cmd)
{
	int fd = open(BENCH, O_RDWR | O_CLOEXEC);
	ssize_t n;
	int ret;

	if (fd < 0)
		return -errno;
	n = write(fd, cmd, strlen(cmd));
	ret = n == (ssize_t)strlen(cmd) ? 0 : -errno;
	close(fd);
	return ret;
}

/* The hook's total of fired events, or -1. */
static long long bench_total(void)
{
	char buf[64] = "";
	long long v = -1;
	int fd = open(BENCH, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) > 0)
		sscanf(buf, "fired %lld", &v);
	close(fd);
	return v;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A write far too long to finish, ended by a signal after 100 ms. */
static void check_interrupt(long long before)
{
	struct itimerval it = { .it_value = { 0, 100000 } };
	struct sigaction sa = { .sa_handler = on_alarm }; /* no SA_RESTART */
	long long after;

	CHECK_EQ(sigaction(SIGALRM, &sa, NULL), 0);
	CHECK_EQ(setitimer(ITIMER_REAL, &it, NULL), 0);
	CHECK_EQ(bench_write("4000000000"), -EINTR);
	after = bench_total();
	CHECK(after > before);
	CHECK(after < before + 4000000000LL);
}

int main(void)
{
	static struct kt_dev d;
	static struct seen s;
	const char *ko = kt_first_existing("NPUSIM_KO", "build/kmod/npusim.ko",
					   "sim/driver/npusim.ko");
	uint64_t written, lost;
	double t;

	kt_require();
	if (access(ko, R_OK) != 0)
		CHECK_SKIP("npusim.ko not built");
	kt_unload_all();
	kt_unload("npusim");
	CHECK_EQ(kt_load(kt_npuprof_ko(), NULL), 0);
	CHECK_EQ(kt_load(ko, NULL), 0);
	CHECK(kt_pin_cpu() >= 0);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, getpid()), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);

	CHECK_EQ(bench_write("1000"), 0);
	t = now_s();
	CHECK_EQ(bench_write("500 100000"), 0);
	CHECK(now_s() - t >= 499 / 100000.0);
	CHECK_EQ(bench_total(), 1500);
	CHECK_EQ(kt_consume(&d, on_record, &s), 1500);
	CHECK_EQ(s.bad, 0);
	CHECK_EQ(s.runs, 2);
	CHECK_EQ(s.last_id, 500);
	CHECK_EQ(kt_stats_sum(&d, &written, &lost), 0);
	CHECK_EQ(written, 1500);
	CHECK_EQ(lost, 0);

	CHECK_EQ(bench_write("0"), -EINVAL);
	CHECK_EQ(bench_write("x"), -EINVAL);
	CHECK_EQ(bench_write("4000000001"), -EINVAL);
	CHECK_EQ(bench_write("10 1000000001"), -EINVAL);
	CHECK_EQ(bench_total(), 1500);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);
	check_interrupt(1500);

	kt_close(&d);
	CHECK_EQ(kt_unload("npusim"), 0);
	CHECK_EQ(kt_unload("npuprof"), 0);
	return CHECK_DONE();
}
