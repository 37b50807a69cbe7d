/* SPDX-License-Identifier: MIT */
/*
 * Description: the simulated NPU driver npusim.ko runs tasks as its ABI and
 * tracepoint contract promise.  Runs as root inside the test VM.
 *
 *   npusim_basic [PATH/npusim.ko]
 *
 * With a path it loads the module itself (devices=2, other parameters at
 * their defaults); without one it expects a freshly loaded npusim.  It
 * checks: task ids per device from 1; STREAM_SYNC waits at least the sum
 * of a stream's task durations; through the ftrace events, exactly one
 * submit/start/end per task with the submitter, stream, type, arg and name,
 * tasks of one stream in order and back to back, streams concurrent, one
 * sync event per sync; the device clock rate (nominal * (1 + drift));
 * error returns; a signal interrupts STREAM_SYNC; closing a file with
 * tasks pending, then unloading the module, is prompt and leaves no kernel
 * warning; with 8-bit task ids, an id that wrapped while its task still
 * runs is not handed out again until that task ends.  Exit 0 pass, 1
 * fail, 77 skip.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "npusim_ioctl.h"
#include "driver_link.h"

#define MS 1000000ULL
#define MAX_TASKS 16
#define TRACE_BUF_SIZE (4 << 20)

/* Module parameters as read back from /sys/module/npusim/parameters. */
struct params {
	uint64_t freq_hz, offset, latency_ns, event_ns;
	int64_t drift_ppm;
	uint64_t bw_mbps;
};

/* One task this test submitted, and what its trace events said. */
struct task {
	uint32_t id, stream, type;
	uint64_t dur_ns, arg;
	const char *name;
	int submits, starts, ends;
	uint64_t submit_ts, start_ts, end_ts;
	long start_line, end_line;
	uint32_t tgid, tid;
};

static struct params prm;
static struct task tasks[MAX_TASKS];
static int ntasks;
static const char *tracefs;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Write a string to a file; 0 or -errno. */
static int write_file(const char *path, const char *s, int flags)
{
	int fd = open(path, O_WRONLY | flags);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		err = -errno;
	close(fd);
	return err;
}

/* Read a number from /sys/module/npusim/parameters/NAME; 0 or -errno. */
static int read_param(const char *name, int64_t *out)
{
	char path[128], buf[64];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/module/npusim/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (!ok)
		return -EIO;
	*out = strtoll(buf, NULL, 10);
	return 0;
}

static int read_params(void)
{
	int64_t v[6];
	const char *names[6] = { "dev_freq_hz", "dev_offset", "drift_ppm",
				 "memcpy_bw_mbps", "memcpy_latency_ns",
				 "event_ns" };

	for (int i = 0; i < 6; i++) {
		int err = read_param(names[i], &v[i]);

		if (err) {
			fprintf(stderr, "npusim: parameter %s: %s\n", names[i],
				strerror(-err));
			return err;
		}
	}
	prm.freq_hz = v[0];
	prm.offset = v[1];
	prm.drift_ppm = v[2];
	prm.bw_mbps = v[3];
	prm.latency_ns = v[4];
	prm.event_ns = v[5];
	return 0;
}

/* Load PATH with PARAMS, unloading a stale npusim first; 0 or -errno. */
static int load_module(const char *path, const char *params)
{
	int fd, err = 0;

	syscall(SYS_delete_module, "npusim", O_NONBLOCK);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params, 0) != 0)
		err = -errno;
	close(fd);
	return err;
}

/* Enable the npusim events and empty the trace buffer; 0 or -errno. */
static int trace_begin(void)
{
	static const char *roots[] = { "/sys/kernel/tracing",
				       "/sys/kernel/debug/tracing" };
	char path[128];

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/npusim/enable",
			 roots[i]);
		if (access(path, W_OK) == 0) {
			tracefs = roots[i];
			break;
		}
	}
	if (!tracefs)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/trace", tracefs);
	if (write_file(path, "", O_TRUNC))
		return -EIO;
	snprintf(path, sizeof(path), "%s/events/npusim/enable", tracefs);
	if (write_file(path, "1", 0))
		return -EIO;
	snprintf(path, sizeof(path), "%s/tracing_on", tracefs);
	return write_file(path, "1", 0);
}

/* Read the whole trace into a malloc'd NUL-terminated buffer. */
static char *trace_read(void)
{
	char path[128], *buf = malloc(TRACE_BUF_SIZE);
	size_t len = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/trace", tracefs);
	fd = open(path, O_RDONLY);
	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while (len < TRACE_BUF_SIZE - 1 &&
	       (n = read(fd, buf + len, TRACE_BUF_SIZE - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	close(fd);
	return buf;
}

static int create_stream(int fd, uint32_t *id)
{
	struct npusim_stream_req req = { 0 };

	if (ioctl(fd, NPUSIM_IOC_STREAM_CREATE, &req))
		return -errno;
	*id = req.stream;
	return 0;
}

/* Submit one task; records it in tasks[] when track is set. */
static int submit(int fd, uint32_t stream, uint32_t type, uint64_t dur_ns,
		  uint64_t bytes, const char *name, bool track)
{
	struct npusim_task_req req = { .stream = stream, .type = type,
				       .duration_ns = dur_ns, .bytes = bytes };
	struct task *t;

	snprintf(req.name, sizeof(req.name), "%s", name);
	if (ioctl(fd, NPUSIM_IOC_SUBMIT, &req))
		return -errno;
	if (!track || ntasks == MAX_TASKS)
		return (int)req.task_id;
	t = &tasks[ntasks++];
	t->id = req.task_id;
	t->stream = stream;
	t->type = type;
	t->name = type == NPUSIM_TASK_KERNEL ? name : "";
	if (type == NPUSIM_TASK_KERNEL) {
		t->dur_ns = dur_ns;
		t->arg = dur_ns;
	} else if (type == NPUSIM_TASK_MEMCPY) {
		t->dur_ns = prm.latency_ns + bytes * 1000 / prm.bw_mbps;
		t->arg = bytes;
	} else {
		t->dur_ns = prm.event_ns;
		t->arg = 0;
	}
	return (int)req.task_id;
}

static int sync_stream(int fd, uint32_t stream)
{
	return ioctl(fd, NPUSIM_IOC_STREAM_SYNC, &stream) ? -errno : 0;
}

/* Device counts for a host interval, as the driver computes them. */
static double dev_counts(uint64_t ns)
{
	return (double)ns * prm.freq_hz * (1e6 + prm.drift_ppm) / 1e15;
}

static struct task *task_by_id(uint32_t id)
{
	for (int i = 0; i < ntasks; i++)
		if (tasks[i].id == id)
			return &tasks[i];
	return NULL;
}

/* Sync events seen: stream, last task id, ns waited. */
struct sync_ev {
	uint32_t stream, task_id, type, tgid;
	uint64_t arg;
};
static struct sync_ev syncs[8];
static int nsyncs;

/* Account one trace line of the npusim events; line is its index. */
static void parse_line(const char *l, long line)
{
	static const char *evs[] = { "npusim_task_submit: ",
				     "npusim_task_start: ", "npusim_task_end: ",
				     "npusim_stream_sync: " };
	unsigned int tgid, tid, dev, stream, id, type;
	unsigned long long ts, arg;
	char name[40] = "";
	const char *p = NULL;
	struct task *t;
	int ev, n;

	for (ev = 0; ev < 4 && !p; ev++)
		p = strstr(l, evs[ev]);
	if (!p)
		return;
	ev--;
	n = sscanf(p + strlen(evs[ev]),
		   "tgid=%u tid=%u device=%u stream=%u task_id=%u type=%u dev_ts=%llu arg=%llu name=%39s",
		   &tgid, &tid, &dev, &stream, &id, &type, &ts, &arg, name);
	CHECK(n >= 8);
	if (n < 8 || dev != 0)
		return;
	if (ev == 3) {
		if (nsyncs < 8)
			syncs[nsyncs] = (struct sync_ev){ stream, id, type,
							  tgid, arg };
		nsyncs++;
		return;
	}
	t = task_by_id(id);
	if (!t) {
		fprintf(stderr, "unexpected task %u in trace: %s\n", id, l);
		check_failures++;
		return;
	}
	CHECK_EQ(stream, t->stream);
	CHECK_EQ(type, t->type);
	CHECK_EQ(arg, t->arg);
	CHECK_STR(name, t->name);
	CHECK_EQ(tgid, getpid());
	CHECK_EQ(tid, gettid());
	if (ev == 0) {
		t->submits++;
		t->submit_ts = ts;
	} else if (ev == 1) {
		t->starts++;
		t->start_ts = ts;
		t->start_line = line;
	} else {
		t->ends++;
		t->end_ts = ts;
		t->end_line = line;
	}
}

static void parse_trace(char *buf)
{
	long line = 0;

	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
		parse_line(l, line++);
}

/* Each task: one event of each kind, times consistent, duration exact. */
static void check_task_events(void)
{
	for (int i = 0; i < ntasks; i++) {
		struct task *t = &tasks[i];
		double want = dev_counts(t->dur_ns);
		double got = (double)(t->end_ts - t->start_ts);

		CHECK_EQ(t->submits, 1);
		CHECK_EQ(t->starts, 1);
		CHECK_EQ(t->ends, 1);
		CHECK(t->submit_ts >= prm.offset);
		CHECK(t->submit_ts <= t->start_ts);
		CHECK(t->start_ts <= t->end_ts);
		CHECK(t->start_line < t->end_line);
		if (got < want - 1.5 || got > want + 1.5) {
			fprintf(stderr, "task %u: %.0f device counts, want %.1f\n",
				t->id, got, want);
			check_failures++;
		}
	}
}

/* Tasks of one stream run in submit order, back to back, one at a time. */
static void check_stream_order(void)
{
	for (int i = 0; i < ntasks; i++) {
		for (int j = i + 1; j < ntasks; j++) {
			struct task *a = &tasks[i], *b = &tasks[j];

			if (a->stream != b->stream)
				continue;
			CHECK(a->end_line < b->start_line);
			CHECK(a->end_ts <= b->start_ts);
		}
	}
	for (int i = 0; i < ntasks; i++) {
		struct task *a = &tasks[i], *b = NULL;

		for (int j = i + 1; j < ntasks && !b; j++)
			if (tasks[j].stream == a->stream)
				b = &tasks[j];
		/* Queued behind a: starts exactly when a ends. */
		if (b && b->submit_ts < a->end_ts)
			CHECK_EQ(b->start_ts, a->end_ts);
	}
}

/* Run two streams of known tasks and check waits, ids and the trace. */
static void test_streams(int fd)
{
	uint32_t sa, sb;
	uint64_t t_a, t_b, sum_a = 0, sum_b = 0, wait_a, wait_b;

	CHECK_EQ(create_stream(fd, &sa), 0);
	CHECK_EQ(create_stream(fd, &sb), 0);
	CHECK_EQ(sa, 0);
	CHECK_EQ(sb, 1);

	t_a = mono_ns();
	CHECK_EQ(submit(fd, sa, NPUSIM_TASK_KERNEL, 20 * MS, 0, "kA1", true), 1);
	t_b = mono_ns();
	CHECK_EQ(submit(fd, sb, NPUSIM_TASK_KERNEL, 40 * MS, 0, "kB1", true), 2);
	CHECK_EQ(submit(fd, sa, NPUSIM_TASK_KERNEL, 30 * MS, 0, "kA2", true), 3);
	CHECK_EQ(submit(fd, sa, NPUSIM_TASK_MEMCPY, 0, 1000000, "cpy", true), 4);
	CHECK_EQ(submit(fd, sb, NPUSIM_TASK_KERNEL, 10 * MS, 0, "kB2", true), 5);
	CHECK_EQ(submit(fd, sa, NPUSIM_TASK_EVENT_RECORD, 0, 0, "", true), 6);
	for (int i = 0; i < ntasks; i++)
		*(tasks[i].stream == sa ? &sum_a : &sum_b) += tasks[i].dur_ns;
	/* 1e6 bytes at 10000 MB/s + 2000 ns latency (default parameters). */
	CHECK_EQ(tasks[3].dur_ns, prm.latency_ns + 1000000 * 1000 / prm.bw_mbps);

	CHECK_EQ(sync_stream(fd, sa), 0);
	wait_a = mono_ns() - t_a;
	CHECK_EQ(sync_stream(fd, sb), 0);
	wait_b = mono_ns() - t_b;
	printf("stream A: %llu ns of tasks, synced after %llu ns\n",
	       (unsigned long long)sum_a, (unsigned long long)wait_a);
	printf("stream B: %llu ns of tasks, synced after %llu ns\n",
	       (unsigned long long)sum_b, (unsigned long long)wait_b);
	CHECK(wait_a >= sum_a);
	CHECK(wait_b >= sum_b);
	/* A second sync on an idle stream returns at once. */
	CHECK_EQ(sync_stream(fd, sb), 0);
}

/* The trace of test_streams(): per-task events, order, concurrency, syncs. */
static void check_trace(void)
{
	char *buf = trace_read();

	CHECK(buf != NULL);
	if (!buf)
		return;
	parse_trace(buf);
	free(buf);
	check_task_events();
	check_stream_order();
	/* Stream B's first task ran while stream A's second was running. */
	CHECK(tasks[1].start_ts < tasks[2].end_ts);
	CHECK(tasks[2].start_ts < tasks[1].end_ts);
	CHECK_EQ(nsyncs, 3);
	if (nsyncs != 3)
		return;
	CHECK_EQ(syncs[0].stream, 0);
	CHECK_EQ(syncs[0].task_id, 6);
	CHECK_EQ(syncs[1].stream, 1);
	CHECK_EQ(syncs[1].task_id, 5);
	CHECK_EQ(syncs[2].task_id, 5);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(syncs[i].type, 3);
		CHECK_EQ(syncs[i].tgid, getpid());
	}
	/* Stream A had ~50 ms to run; B had ~0 left after A's sync. */
	CHECK(syncs[0].arg >= 40 * MS);
}

/* NPUSIM_IOC_CLOCK pairs advance at nominal * (1 + drift) counts per ns. */
static void test_clock(int fd)
{
	struct npusim_clock_req c1, c2;
	uint64_t before = mono_ns(), after;
	double ratio, want;

	CHECK_EQ(ioctl(fd, NPUSIM_IOC_CLOCK, &c1), 0);
	after = mono_ns();
	CHECK(c1.host_ns >= before && c1.host_ns <= after);
	CHECK_EQ(c1.freq_hz, prm.freq_hz);
	CHECK(c1.dev_ts > prm.offset);
	usleep(100000);
	CHECK_EQ(ioctl(fd, NPUSIM_IOC_CLOCK, &c2), 0);
	ratio = (double)(c2.dev_ts - c1.dev_ts) /
		(double)(c2.host_ns - c1.host_ns);
	want = prm.freq_hz * (1.0 + prm.drift_ppm / 1e6) / 1e9;
	printf("device clock: %.9f counts/ns, want %.9f (nominal %.9f)\n",
	       ratio, want, prm.freq_hz / 1e9);
	CHECK(ratio / want - 1 < 1e-3 && ratio / want - 1 > -1e-3);
	/* Tighter: the drift itself shows (1 count in >= 5e6 is 2e-7). */
	CHECK(ratio / want - 1 < 1e-6 && ratio / want - 1 > -1e-6);
}

/* Bad requests fail with the documented errors. */
static void test_errors(int fd)
{
	struct npusim_stream_req sreq = { .flags = 1 };
	struct npusim_task_req treq = { .stream = 0, .type = 7 };
	uint32_t s, bogus = 999;

	CHECK(ioctl(fd, NPUSIM_IOC_STREAM_CREATE, &sreq) == -1 &&
	      errno == EINVAL);
	CHECK(ioctl(fd, NPUSIM_IOC_SUBMIT, &treq) == -1 && errno == EINVAL);
	treq.type = NPUSIM_TASK_KERNEL;
	treq.pad = 1;
	CHECK(ioctl(fd, NPUSIM_IOC_SUBMIT, &treq) == -1 && errno == EINVAL);
	CHECK_EQ(submit(fd, bogus, NPUSIM_TASK_KERNEL, 1000, 0, "x", false),
		 -ENOENT);
	CHECK_EQ(sync_stream(fd, bogus), -ENOENT);
	CHECK(ioctl(fd, NPUSIM_IOC_STREAM_DESTROY, &bogus) == -1 &&
	      errno == ENOENT);
	CHECK(ioctl(fd, _IO(NPUSIM_IOC_MAGIC, 99)) == -1 && errno == ENOTTY);
	/* A destroyed stream is gone; its id is free again. */
	CHECK_EQ(create_stream(fd, &s), 0);
	CHECK_EQ(s, 2);
	CHECK_EQ(ioctl(fd, NPUSIM_IOC_STREAM_DESTROY, &s), 0);
	CHECK_EQ(submit(fd, s, NPUSIM_TASK_KERNEL, 1000, 0, "x", false),
		 -ENOENT);
	CHECK_EQ(create_stream(fd, &s), 0);
	CHECK_EQ(s, 2);
	CHECK_EQ(ioctl(fd, NPUSIM_IOC_STREAM_DESTROY, &s), 0);
}

/*
 * Each device node's parent is platform device npusim.N, bound to the
 * module's platform driver, so the module is named without an ioctl.
 */
static void test_driver_link(unsigned int ndev)
{
	char node[32], want[32], got[64];
	unsigned int i;

	for (i = 0; i < ndev; i++) {
		snprintf(node, sizeof(node), "/dev/davinci%u", i);
		CHECK_EQ(drv_link_name(node, "device/driver/module", got,
				       sizeof(got)), 0);
		CHECK_STR(got, "npusim");
		CHECK_EQ(drv_link_name(node, "device/driver", got,
				       sizeof(got)), 0);
		CHECK_STR(got, "npusim");
		snprintf(want, sizeof(want), "npusim.%u", i);
		CHECK_EQ(drv_link_name(node, "device", got, sizeof(got)), 0);
		CHECK_STR(got, want);
	}
}

/* Task ids are per device: /dev/davinci1 counts from 1 on its own. */
static void test_second_device(void)
{
	int fd = open("/dev/davinci1", O_RDWR | O_CLOEXEC);
	uint32_t s;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_EQ(create_stream(fd, &s), 0);
	CHECK_EQ(s, 0);
	CHECK_EQ(submit(fd, s, NPUSIM_TASK_KERNEL, 1000, 0, "d1", false), 1);
	CHECK_EQ(sync_stream(fd, s), 0);
	close(fd);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * A signal interrupts STREAM_SYNC; then close the file with seconds of
 * tasks queued and running on two streams: close must not wait for them.
 */
static void test_close_pending(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { .tv_usec = 50000 } };
	int fd = open("/dev/davinci0", O_RDWR | O_CLOEXEC);
	uint32_t s1, s2;
	uint64_t t0;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_EQ(create_stream(fd, &s1), 0);
	CHECK_EQ(create_stream(fd, &s2), 0);
	for (int i = 0; i < 5; i++) {
		/* 1 s each: a kernel, and 1e10 bytes at 10000 MB/s. */
		CHECK(submit(fd, s1, NPUSIM_TASK_KERNEL, 1000 * MS, 0, "long",
			     false) > 0);
		CHECK(submit(fd, s2, NPUSIM_TASK_MEMCPY, 0, 10000000000ULL, "",
			     false) > 0);
	}
	sigaction(SIGALRM, &sa, NULL); /* no SA_RESTART */
	setitimer(ITIMER_REAL, &it, NULL);
	t0 = mono_ns();
	CHECK_EQ(sync_stream(fd, s1), -EINTR);
	CHECK(mono_ns() - t0 < 900 * MS);
	t0 = mono_ns();
	close(fd);
	CHECK(mono_ns() - t0 < 500 * MS);
}

/*
 * Reloaded with 8-bit task ids: a 1 s kernel takes id 1 on stream A, 255
 * event tasks on stream B take ids 2..255 and 0; the next task on A
 * wraps to id 1 while the kernel still runs, so its submit returns only
 * once the kernel has ended (it cannot end before 1 s after its submit).
 * Before the fix the submit returned at once and two of A's tasks had
 * id 1 at the same time: their END records could not be told apart.
 */
static void test_id_wrap(const char *path)
{
	uint32_t a, b;
	uint64_t t0;
	int fd, id;

	CHECK_EQ(load_module(path, "devices=1 task_id_bits=8"), 0);
	fd = open("/dev/davinci0", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_EQ(create_stream(fd, &a), 0);
	CHECK_EQ(create_stream(fd, &b), 0);
	t0 = mono_ns();
	CHECK_EQ(submit(fd, a, NPUSIM_TASK_KERNEL, 1000 * MS, 0, "long", false), 1);
	for (int i = 2; i <= 256; i++)
		CHECK_EQ(submit(fd, b, NPUSIM_TASK_EVENT_RECORD, 0, 0, "", false), i & 255);
	id = submit(fd, a, NPUSIM_TASK_KERNEL, MS, 0, "short", false);
	CHECK_EQ(id, 1);
	CHECK(mono_ns() - t0 >= 1000 * MS);
	CHECK_EQ(sync_stream(fd, a), 0);
	CHECK_EQ(sync_stream(fd, b), 0);
	close(fd);
}

/* Unload the module; then the kernel log must show no warning since start. */
static void test_unload(int kmsg)
{
	char rec[2048];
	ssize_t n;

	CHECK_EQ(syscall(SYS_delete_module, "npusim", O_NONBLOCK), 0);
	CHECK(access("/dev/davinci0", F_OK) != 0);
	if (kmsg < 0)
		return;
	/* Records are "prio,seq,time,flags;text"; EPIPE: some were lost. */
	while ((n = read(kmsg, rec, sizeof(rec) - 1)) > 0 ||
	       (n < 0 && errno == EPIPE)) {
		const char *text;

		if (n <= 0)
			continue;
		rec[n] = '\0';
		text = strchr(rec, ';') ? strchr(rec, ';') + 1 : rec;
		if (strstr(text, "WARNING") || strstr(text, "BUG") ||
		    strstr(text, "Oops")) {
			fprintf(stderr, "kernel: %s", text);
			check_failures++;
		}
	}
}

int main(int argc, char **argv)
{
	int fd, err, kmsg;

	if (geteuid() != 0)
		CHECK_SKIP("needs root (load modules, tracefs)");
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);
	if (argc > 1) {
		err = load_module(argv[1], "devices=2");
		if (err) {
			fprintf(stderr, "npusim: cannot load %s: %s\n", argv[1],
				strerror(-err));
			return 1;
		}
	} else if (access("/dev/davinci0", F_OK) != 0) {
		CHECK_SKIP("npusim not loaded and no npusim.ko path given");
	}
	if (read_params())
		return 1;
	err = trace_begin();
	if (err) {
		fprintf(stderr, "tracefs: npusim events: %s\n", strerror(-err));
		check_failures++;
	}
	fd = open("/dev/davinci0", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "/dev/davinci0: %s\n", strerror(errno));
		return 1;
	}
	test_driver_link(argc > 1 ? 2 : 1);
	test_streams(fd);
	if (tracefs)
		check_trace();
	test_clock(fd);
	test_errors(fd);
	close(fd);
	if (argc > 1)
		test_second_device();
	test_close_pending();
	if (argc > 1)
		test_id_wrap(argv[1]);
	test_unload(kmsg);
	printf("%s\n", check_failures ? "FAIL" : "PASS");
	return CHECK_DONE();
}
