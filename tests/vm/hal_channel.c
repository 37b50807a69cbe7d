/* SPDX-License-Identifier: MIT */
/*
 * Description: the simulated libascend_hal.so (sim/hal/) over npusim.ko:
 * the device log (profiling channel 50) and the channel's refusals, with
 * the tasks the simulated runtime sends through halSqTaskSend.  Runs as
 * root inside the test VM.
 *
 *   hal_channel PATH/npusim.ko          the test
 *   hal_channel start                   (child) halDeviceOpen(0) unless
 *                                       NOCTX is set, prof_drv_start(0,
 *                                       50), print the status, then with
 *                                       HOLD set wait for SIGKILL
 *   hal_channel tasks N ENABLE          (child) N event tasks on device 0,
 *                                       after the profiling-enable task
 *                                       when ENABLE is 1
 *
 * It checks, reloading the module per case: the channel list (50,
 * STARS_SOC_LOG); halGetDeviceInfo's counter, CLOCK_MONOTONIC_RAW pair and
 * frequency, NOT_SUPPORT for another type; 115 without a device context
 * and success after halDeviceOpen; 30 for a second start in one process;
 * -10 from a second process, -12 from one in a pid namespace; a kill -9 of
 * the owner frees the channel; prof_needs_context=0 lifts 115;
 * halProfDataFlush and prof_channel_poll; halSqTaskSend's refusals; for
 * each log_id_packing (plain with 8-bit ids, so the runtime's ids wrap;
 * bit12 and swap with 8201 and 4200 tasks, so the packed high bits are
 * used), exactly one begin and one end per task, in order, with the SQE
 * type, the running 4-bit count, and stream and task id decoded by
 * ascend_stars_log_ids();
 * a buffer too small for a slow reader loses records and the stats file
 * (NPUSIM_HAL_STATS) counts exactly what is missing; a full device ring
 * drops and counts (debugfs devlog_dropped); devlog_scope=enabled
 * holds only the tasks of the processes that sent the enable task (a
 * dynamic window, app mode).
 * Exit 0 pass, 1 fail, 77 skip.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <npusim_hal.h>
#include <runtime/rt.h>

#include "check.h"

#define CH ASCEND_PROF_CHANNEL_STARS_SOC_LOG
#define MAX_RECS 40000

static const char *ko;
static char self[4096];

static int load(const char *params)
{
	int fd, err = 0;

	syscall(SYS_delete_module, "npusim", O_NONBLOCK);
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params, 0) != 0)
		err = -errno;
	close(fd);
	if (err)
		fprintf(stderr, "load %s %s: %s\n", ko, params, strerror(-err));
	return err;
}

static int start_period(uint32_t dev, uint32_t period_ms)
{
	struct ascend_stars_soc_log_config cfg = { .acsq_task = 1, .ffts_context_task = 1 };
	struct ascend_prof_start_para p = {
		.channel_type = ASCEND_PROF_TS_TYPE,
		.sample_period = period_ms,
		.user_data = (uintptr_t)&cfg,
		.user_data_size = sizeof(cfg),
	};

	return prof_drv_start(dev, CH, &p);
}

static int start(uint32_t dev)
{
	return start_period(dev, 20);
}

/* Read channel 50 of device 0 until it says stopped; return records read. */
static int drain(struct ascend_stars_log *recs, int max)
{
	int n = 0, r;

	for (;;) {
		r = prof_channel_read(0, CH, (char *)(recs + n),
				      (uint32_t)((max - n) * ASCEND_STARS_LOG_BYTES));
		if (r == ASCEND_PROF_STOPPED)
			return n;
		if (r < 0) {
			fprintf(stderr, "prof_channel_read: %d\n", r);
			check_failures++;
			return n;
		}
		CHECK_EQ(r % ASCEND_STARS_LOG_BYTES, 0);
		n += r / ASCEND_STARS_LOG_BYTES;
		if (n == max)
			return n;
	}
}

/* Run this program as a child with @argv; its stdout (one line) into @out. */
static pid_t spawn(char *const argv[], char *const envp[], char *out, size_t len, int *rfd)
{
	int p[2];
	pid_t pid;
	ssize_t n;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		execve(self, argv, envp);
		_exit(127);
	}
	close(p[1]);
	n = read(p[0], out, len - 1);
	out[n > 0 ? n : 0] = '\0';
	if (rfd)
		*rfd = p[0];
	else
		close(p[0]);
	return pid;
}

static int wait_rc(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* A child's prof_drv_start status (env: "NOCTX=1", "NS=1" or none). */
static int child_start(const char *env)
{
	char *argv[] = { "hal_channel", "start", NULL };
	char *envp[] = { (char *)env, NULL };
	char out[64];
	pid_t pid = spawn(argv, env ? envp : argv + 2, out, sizeof(out), NULL);

	CHECK_EQ(wait_rc(pid), 0);
	return atoi(out);
}

static void test_channel_list_and_clock(void)
{
	static struct ascend_prof_channel_list list;
	struct timespec a, b;
	int64_t cnt1, cnt2, raw, freq;

	CHECK_EQ(prof_drv_get_channels(0, &list), 0);
	CHECK_EQ(list.channel_num, 1);
	CHECK_EQ(list.channel[0].channel_id, CH);
	CHECK_STR(list.channel[0].channel_name, "STARS_SOC_LOG");
	CHECK(prof_drv_get_channels(5, &list) != 0);

	CHECK_EQ(halGetDeviceInfo(0, ASCEND_MODULE_TYPE_SYSTEM, ASCEND_INFO_TYPE_SYS_COUNT, &cnt1), 0);
	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	CHECK_EQ(halGetDeviceInfo(0, ASCEND_MODULE_TYPE_SYSTEM, ASCEND_INFO_TYPE_MONOTONIC_RAW, &raw), 0);
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	CHECK_EQ(halGetDeviceInfo(0, ASCEND_MODULE_TYPE_SYSTEM, ASCEND_INFO_TYPE_SYS_COUNT, &cnt2), 0);
	CHECK_EQ(halGetDeviceInfo(0, ASCEND_MODULE_TYPE_SYSTEM, ASCEND_INFO_TYPE_DEV_OSC_FREQUE, &freq), 0);
	CHECK(cnt2 > cnt1);
	CHECK(raw >= a.tv_sec * 1000000000LL + a.tv_nsec);
	CHECK(raw <= b.tv_sec * 1000000000LL + b.tv_nsec);
	CHECK_EQ(freq, 50000000);
	CHECK_EQ(halGetDeviceInfo(0, ASCEND_MODULE_TYPE_SYSTEM, 99, &freq), ASCEND_DRV_ERROR_NOT_SUPPORT);
	CHECK_EQ(halGetDeviceInfo(0, 3, ASCEND_INFO_TYPE_SYS_COUNT, &freq), ASCEND_DRV_ERROR_NOT_SUPPORT);
}

/*
 * A child holding the channel (HOLD=@hold): our start gets @want; then
 * SIGKILL ends the child, and its files give the channel back.
 */
static void refused_by_holder(char *hold, int want)
{
	char *argv[] = { "hal_channel", "start", NULL };
	char *envp[] = { hold, NULL };
	char out[64];
	pid_t pid;
	int rfd;

	pid = spawn(argv, envp, out, sizeof(out), &rfd);
	CHECK_EQ(atoi(out), 0);
	CHECK_EQ(start(0), want);
	kill(pid, SIGKILL);
	CHECK_EQ(wait_rc(pid), 128 + SIGKILL);
	close(rfd);
}

/*
 * Refusals, with this process still without any device file: 115, then
 * halDeviceOpen, start, 30, -10 and -12 from others, stop; a holder in a
 * pid namespace (-13 for us) and one on the host (-10), each killed by
 * SIGKILL, free the channel.
 */
static void test_refusals(void)
{
	CHECK_EQ(start(0), ASCEND_PROF_NO_CP_PROCESS);
	CHECK_EQ(child_start("NOCTX=1"), ASCEND_PROF_NO_CP_PROCESS);
	CHECK_EQ(halDeviceOpen(0, NULL, NULL), 0);
	CHECK_EQ(start(0), 0);
	CHECK_EQ(start(0), ASCEND_DRV_ERROR_STATUS_FAIL);
	CHECK_EQ(child_start(NULL), ASCEND_PROF_CHANNEL_OCCUPIED);
	CHECK_EQ(child_start("NS=1"), ASCEND_PROF_CONTAINER_NOT_PHY);
	CHECK_EQ(prof_stop(0, CH), 0);
	CHECK_EQ(prof_stop(0, CH), ASCEND_PROF_ERROR);

	refused_by_holder("HOLD=NS", ASCEND_PROF_PHY_NOT_CONTAINER);
	refused_by_holder("HOLD=1", ASCEND_PROF_CHANNEL_OCCUPIED);
	CHECK_EQ(start(0), 0);
	CHECK_EQ(prof_stop(0, CH), 0);
	CHECK_EQ(halDeviceClose(0, NULL), 0);
}

/* Queue @n tasks on the default stream (a kernel, then event records) and wait. */
static void run_tasks(int n, int kernel)
{
	static struct rt_kernel_stub k = { .name = "hal_kernel", .duration_ns = 20000 };
	rtEvent_t ev;
	int i;

	CHECK_EQ(rtEventCreate(&ev), 0);
	for (i = 0; i < n; i++) {
		if (kernel && i == 0)
			CHECK_EQ(rtKernelLaunch(&k, 4, NULL, 0, NULL, NULL), 0);
		else
			CHECK_EQ(rtEventRecord(ev, NULL), 0);
	}
	CHECK_EQ(rtStreamSynchronize(NULL), 0);
	CHECK_EQ(rtEventDestroy(ev), 0);
}

/*
 * halSqTaskSend's refusals (the runtime lent device 0's fd, not device 5's):
 * nothing queued.
 */
static void test_sq_errors(void)
{
	struct npusim_sqe q;
	struct ascend_sqe_header *h = (struct ascend_sqe_header *)q.header;
	struct ascend_hal_task_send_info info = {
		.sq_id = 1023, .sqe_addr = (uintptr_t)&q, .sqe_num = 1,
	};

	memset(&q, 0, sizeof(q));
	h->type_lock = ASCEND_SQE_TYPE_EVENT_RECORD;
	h->rt_stream_id = 1023;
	h->task_id = 1;
	CHECK_EQ(halSqTaskSend(5, &info), ASCEND_DRV_ERROR_INVALID_DEVICE);
	CHECK_EQ(halSqTaskSend(0, &info), ASCEND_DRV_ERROR_INVALID_VALUE); /* no such stream */
	h->rt_stream_id = 1022;
	CHECK_EQ(halSqTaskSend(0, &info), ASCEND_DRV_ERROR_INVALID_VALUE); /* header != SQ */
	h->rt_stream_id = 1023;
	h->type_lock = 63;
	CHECK_EQ(halSqTaskSend(0, &info), ASCEND_DRV_ERROR_INVALID_VALUE); /* unknown type */
	info.sqe_num = 0;
	CHECK_EQ(halSqTaskSend(0, &info), ASCEND_DRV_ERROR_INVALID_VALUE);
	CHECK_EQ(halSqTaskSend(0, NULL), ASCEND_DRV_ERROR_INVALID_VALUE);
}

/*
 * With packing @mode and @bits-bit task ids: @n tasks on one stream run in
 * order, so the log is begin, end of task 1, begin, end of task 2, ...:
 * record i is task i / 2 + 1, whose runtime id is that number wrapped to
 * 1..2^bits - 1; every record on one stream, counts running mod 16, type
 * AIC for the first task (a kernel) and EVENT_RECORD after.
 */
static void test_log(const char *mode, unsigned int bits, int n)
{
	static struct ascend_stars_log recs[MAX_RECS];
	uint32_t stream0 = UINT32_MAX, len = 0, max = (1u << bits) - 1;
	struct ascend_prof_poll_info pi = { 0, 0 };
	char params[128];
	int got, i;

	snprintf(params, sizeof(params), "devices=1 prof_stop_ms=10 log_id_packing=%s task_id_bits=%u",
		 mode, bits);
	if (load(params)) {
		check_failures++;
		return;
	}
	CHECK_EQ(rtSetDevice(0), 0);
	CHECK_EQ(start(0), 0);
	run_tasks(n, 1);
	/* every task ended: a flush brings all their records, poll sees them */
	CHECK_EQ(halProfDataFlush(0, CH, &len), 0);
	CHECK_EQ(len, 2U * n * ASCEND_STARS_LOG_BYTES);
	CHECK_EQ(prof_channel_poll(&pi, 1, 1), 1);
	CHECK_EQ(pi.device_id, 0);
	CHECK_EQ(pi.channel_id, CH);
	CHECK_EQ(prof_stop(0, CH), 0);
	got = drain(recs, MAX_RECS);
	CHECK_EQ(got, 2 * n);
	CHECK_EQ(prof_channel_poll(&pi, 1, 0), 0); /* stopped and read */
	for (i = 0; i < got; i++) {
		const struct ascend_stars_log *r = &recs[i];
		uint32_t s, t, type = ASCEND_STARS_TASK_TYPE(r), k = (uint32_t)i / 2;
		uint32_t want_type = k ? ASCEND_SQE_TYPE_EVENT_RECORD : ASCEND_SQE_TYPE_AIC;

		ascend_stars_log_ids(r->stream, r->task, type, 0, &s, &t);
		if (stream0 == UINT32_MAX)
			stream0 = s;
		if (s != stream0 || t != k % max + 1 || ASCEND_STARS_FUNC(r) != (uint32_t)(i & 1) ||
		    ASCEND_STARS_CNT(r) != (uint32_t)(i & 15) || type != want_type || !r->timestamp ||
		    (i && r->timestamp < recs[i - 1].timestamp)) {
			fprintf(stderr, "%s: record %d: stream %u task %u (want %u) func %u cnt %u type %u "
				"(fields %#x %#x)\n", mode, i, s, t, k % max + 1, ASCEND_STARS_FUNC(r),
				ASCEND_STARS_CNT(r), type, r->stream, r->task);
			check_failures++;
			break;
		}
	}
	test_sq_errors();
	CHECK_EQ(rtDeviceReset(0), 0);
	printf("log %s, %u-bit ids: %d tasks, %d records\n", mode, bits, n, got);
}

static unsigned long long device_dropped(void)
{
	unsigned long long v = 0;
	unsigned int dev;
	FILE *f = fopen("/sys/kernel/debug/npusim/devlog_dropped", "re");

	CHECK(f != NULL);
	if (f) {
		CHECK_EQ(fscanf(f, "%u %llu", &dev, &v), 2);
		fclose(f);
	}
	return v;
}

/* A 100-record buffer and a reader that reads only after stop: loss counted exactly. */
static void test_slow_reader(void)
{
	static struct ascend_stars_log recs[MAX_RECS];
	const char *stats = "/tmp/hal_stats";
	unsigned long long delivered = 0, dropped = 0, devdrop;
	unsigned int d, c;
	int n = 400, got;
	FILE *f;

	if (load("devices=1 prof_stop_ms=10 devlog_records=100000")) {
		check_failures++;
		return;
	}
	unlink(stats);
	setenv(NPUSIM_HAL_BUF_ENV, "6400", 1);
	setenv(NPUSIM_HAL_STATS_ENV, stats, 1);
	CHECK_EQ(rtSetDevice(0), 0);
	CHECK_EQ(start(0), 0);
	run_tasks(n, 0);
	CHECK_EQ(prof_stop(0, CH), 0);
	got = drain(recs, MAX_RECS);
	devdrop = device_dropped();
	f = fopen(stats, "re");
	CHECK(f != NULL);
	if (f) {
		CHECK_EQ(fscanf(f, "dev %u channel %u delivered %llu dropped %llu", &d, &c,
				&delivered, &dropped), 4);
		fclose(f);
	}
	printf("slow reader: %d read, stats delivered %llu dropped %llu, device dropped %llu\n",
	       got, delivered, dropped, devdrop);
	CHECK_EQ(got, 100);
	CHECK_EQ(delivered, 100);
	CHECK_EQ(delivered + dropped + devdrop, 2ULL * n);
	unsetenv(NPUSIM_HAL_BUF_ENV);
	unsetenv(NPUSIM_HAL_STATS_ENV);
	CHECK_EQ(rtDeviceReset(0), 0);
}

/*
 * A device ring of 64 records and a 60 s period: the device keeps the first
 * 64 records, drops and counts the rest; the stop's last pull delivers them.
 * With prof_needs_context=0, a start needs no device context.
 */
static void test_device_full(void)
{
	static struct ascend_stars_log recs[MAX_RECS];
	unsigned long long before;
	int n = 100, got;

	if (load("devices=1 prof_stop_ms=10 devlog_records=64 prof_needs_context=0")) {
		check_failures++;
		return;
	}
	/* prof_needs_context=0: a process without a device file may start */
	CHECK_EQ(child_start("NOCTX=1"), 0);
	before = device_dropped();
	CHECK_EQ(rtSetDevice(0), 0);
	CHECK_EQ(start_period(0, 60000), 0);
	run_tasks(n, 0);
	CHECK_EQ(prof_stop(0, CH), 0);
	got = drain(recs, MAX_RECS);
	printf("device full: %d read, device dropped %llu\n", got, device_dropped() - before);
	CHECK_EQ(got, 64);
	CHECK_EQ(device_dropped() - before, 2ULL * n - 64);
	CHECK_EQ(rtDeviceReset(0), 0);
}

/*
 * devlog_scope=enabled: a child that enabled profiling (a dynamic window)
 * is logged, and one launched in app mode (PROFILER_SAMPLECONFIG); ones
 * that did neither are not.
 */
static void test_scope_enabled(void)
{
	static struct ascend_stars_log recs[MAX_RECS];
	char *on[] = { "hal_channel", "tasks", "7", "1", NULL };
	char *off[] = { "hal_channel", "tasks", "5", "0", NULL };
	char *app[] = { "hal_channel", "tasks", "3", "0", NULL };
	char *app_env[] = { "PROFILER_SAMPLECONFIG={}", NULL };
	char *envp[] = { NULL };
	char out[64];
	int got;

	if (load("devices=1 prof_stop_ms=10 devlog_scope=enabled")) {
		check_failures++;
		return;
	}
	CHECK_EQ(halDeviceOpen(0, NULL, NULL), 0);
	CHECK_EQ(start(0), 0);
	CHECK_EQ(wait_rc(spawn(off, envp, out, sizeof(out), NULL)), 0);
	CHECK_EQ(wait_rc(spawn(on, envp, out, sizeof(out), NULL)), 0);
	CHECK_EQ(wait_rc(spawn(off, envp, out, sizeof(out), NULL)), 0);
	CHECK_EQ(wait_rc(spawn(app, app_env, out, sizeof(out), NULL)), 0);
	CHECK_EQ(prof_stop(0, CH), 0);
	got = drain(recs, MAX_RECS);
	printf("scope enabled: %d records\n", got);
	CHECK_EQ(got, 2 * (7 + 3));
	CHECK_EQ(halDeviceClose(0, NULL), 0);
}

/* The child modes. */
static int child(int argc, char **argv)
{
	const char *hold = getenv("HOLD");
	int st;

	if (!strcmp(argv[1], "tasks") && argc == 4) {
		CHECK_EQ(rtSetDevice(0), 0);
		if (atoi(argv[3]))
			rtsimProfilingSwitch(1);
		run_tasks(atoi(argv[2]), 0);
		if (atoi(argv[3]))
			rtsimProfilingSwitch(0);
		CHECK_EQ(rtDeviceReset(0), 0);
		return CHECK_DONE();
	}
	if ((getenv("NS") || (hold && !strcmp(hold, "NS")))) {
		pid_t pid;

		/* The next child is pid 1 of a new pid namespace: a container. */
		if (unshare(CLONE_NEWPID))
			return 3;
		pid = fork();
		if (pid == 0)
			prctl(PR_SET_PDEATHSIG, SIGKILL); /* a SIGKILL of ours ends it too */
		if (pid) {
			if (waitpid(pid, &st, 0) != pid)
				return 3;
			return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
		}
	}
	if (!getenv("NOCTX") && halDeviceOpen(0, NULL, NULL))
		return 3;
	printf("%d\n", start(0));
	fflush(stdout);
	if (hold)
		for (;;)
			pause();
	return 0;
}

int main(int argc, char **argv)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return 1;
	self[n] = '\0';
	if (argc > 1 && (!strcmp(argv[1], "start") || !strcmp(argv[1], "tasks")))
		return child(argc, argv);
	if (geteuid() != 0)
		CHECK_SKIP("needs root (loads npusim.ko)");
	if (argc != 2)
		CHECK_SKIP("usage: hal_channel PATH/npusim.ko");
	ko = argv[1];
	if (load("devices=1 prof_stop_ms=10"))
		return 1;
	test_channel_list_and_clock();
	test_refusals();
	test_log("plain", 8, 600);
	test_log("bit12", 16, 8201);
	test_log("swap", 16, 4200);
	test_slow_reader();
	test_device_full();
	test_scope_enabled();
	syscall(SYS_delete_module, "npusim", O_NONBLOCK);
	printf("%s\n", check_failures ? "FAIL" : "PASS");
	return CHECK_DONE();
}
