// SPDX-License-Identifier: MIT
/*
 * P2, the device-log path (bench/p2_devlog.sh): how many records per
 * second npuprof's device-log reader (npuprof/devlog.h) takes from
 * libascend_hal.so's channel 50 and hands on, and the CPU it spends per
 * task (a begin and an end record).
 *
 *   p2_devlog MODE TASKS
 *
 * The HAL is the unit tests' stand-in (tests/unit/fake_ascend_hal.c, built
 * as build/tests/fixtures/libascend_hal.so, found beside this program's
 * build directory and named to the reader by NPUPROF_ASCEND_HAL): a feeder
 * thread, playing the device, queues pre-built 64-byte channel-50 records
 * (struct ascend_stars_log, AI Core tasks of stream 3, the 4-bit running
 * count advancing by one per record) in batches of one read (1024 records)
 * as fast as the reader takes them, keeping at most FEED_AHEAD records
 * queued ahead of what was consumed (the stand-in moves what is left of
 * its queue at every read: a deep queue would charge the reader for that).
 * Stream 3 belongs to this process in a fake /proc (the owner lookup
 * runs as on a host).
 *
 * MODE is who takes the records from the reader's ring:
 *   drain  a real drain (npuprof/drain.h) writing device_0's series into a
 *          PROF directory under $TMPDIR, its writer as configured
 *          (NPUPROF_WRITER), as msprof runs it
 *   count  a thread polling the reader's fd and counting (the reader's
 *          own cost, no files)
 *
 * Output, one line:
 *   records=R tasks=T wall_ns=W cpu_ns=C rec_per_s=X cpu_ns_per_task=Y drops=D gaps=G
 * from the first record queued until the last one was consumed.  cpu_ns
 * is the process's CPU time (reader thread, drain and its writer threads,
 * the stand-in HAL's copies) less the feeder's and the main thread's.
 * drops and gaps are the reader's ring_drops and gaps: both 0 when every
 * record got through.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <npuprof/devlog.h>
#include <npuprof/drain.h>
#include <npuprof/drv/ascend_hal_abi.h>

#include "exe_path.h"

#define BATCH 1024u	 /* records per push: one reader read (64 KiB) */
#define FEED_AHEAD 16384u /* records queued ahead of the consumer, at most */
#define STREAM 3
#define STALL_NS 10000000000ull /* no progress for 10 s: give up */

static void (*hal_push)(int dev, const void *bytes, size_t n, int on_flush);
static uint64_t (*hal_count_now)(void);

static atomic_ulong consumed;

static uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Load build/tests/fixtures/libascend_hal.so (beside build/bench/). 0 or -1. */
static int hal_load(void)
{
	char path[PATH_MAX];
	void *dl;

	if (exe_relative(path, sizeof(path), "../tests/fixtures/libascend_hal.so"))
		return -1;
	dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		fprintf(stderr, "p2_devlog: %s\n", dlerror());
		return -1;
	}
	setenv("NPUPROF_ASCEND_HAL", path, 1);
	*(void **)&hal_push = dlsym(dl, "fakehal_push");
	*(void **)&hal_count_now = dlsym(dl, "fakehal_count_now");
	return hal_push && hal_count_now ? 0 : -1;
}

/* @root/trs_core/ts_inst/dev0-ts0/stream: stream STREAM is this process's. */
static int owner_file(const char *root)
{
	static const char *const dirs[] = { "trs_core", "trs_core/ts_inst",
					    "trs_core/ts_inst/dev0-ts0" };
	char path[PATH_MAX];
	FILE *f;

	for (unsigned int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
	}
	snprintf(path, sizeof(path), "%s/trs_core/ts_inst/dev0-ts0/stream", root);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "id %d pid %d\n", STREAM, (int)getpid());
	return fclose(f) ? -EIO : 0;
}

/* The device: @total records in batches, never more than FEED_AHEAD ahead. */
struct feeder {
	pthread_t thread;
	uint64_t total, cpu_ns;
};

static void *feeder_main(void *arg)
{
	struct feeder *f = arg;
	static struct ascend_stars_log batch[BATCH];
	struct timespec pause = { 0, 20000 };
	uint64_t cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), sent = 0, ts;
	unsigned int i, n;

	for (i = 0; i < BATCH; i++) {
		memset(&batch[i], 0, sizeof(batch[i]));
		/* funcType 0 begin / 1 end, cnt = i mod 16, SQE type AIC */
		batch[i].word0 = (uint16_t)((i & 1) | (i & 0xf) << 6 | ASCEND_SQE_TYPE_AIC << 10);
		batch[i].stream = STREAM;
		batch[i].task = (uint16_t)(i / 2);
	}
	while (sent < f->total) {
		while (sent - atomic_load_explicit(&consumed, memory_order_relaxed) >= FEED_AHEAD)
			nanosleep(&pause, NULL);
		n = f->total - sent < BATCH ? (unsigned int)(f->total - sent) : BATCH;
		ts = hal_count_now();
		for (i = 0; i < n; i++)
			batch[i].timestamp = ts + i / 2 * 10 + (i & 1) * 5;
		hal_push(0, batch, n * sizeof(batch[0]), 0);
		sent += n;
	}
	f->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	return NULL;
}

/* The reader's source, counting what its consumer takes. */
struct shim {
	struct npuprof_drain_source real;
	npuprof_rec_fn fn;
	void *ctx;
};

static int shim_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct shim *s = ctx;

	atomic_fetch_add_explicit(&consumed, 1, memory_order_relaxed);
	return s->fn ? s->fn(s->ctx, rec) : 0;
}

static long shim_consume(void *obj, npuprof_rec_fn fn, void *ctx)
{
	struct shim *s = obj;

	s->fn = fn;
	s->ctx = ctx;
	return s->real.consume(s->real.obj, shim_rec, s);
}

static int shim_stats(void *obj, unsigned int cpu, uint64_t *written, uint64_t *lost)
{
	struct shim *s = obj;

	return s->real.stats(s->real.obj, cpu, written, lost);
}

static int shim_skipped(void *obj, unsigned int cpu, uint64_t *bytes)
{
	struct shim *s = obj;

	return s->real.skipped(s->real.obj, cpu, bytes);
}

/* count mode's consumer: poll the fd, take everything. */
static atomic_int stop_counter;

static void *counter_main(void *arg)
{
	struct npuprof_drain_source *src = arg;
	struct pollfd p = { .fd = src->fd, .events = POLLIN };

	while (!atomic_load(&stop_counter)) {
		poll(&p, 1, 50);
		src->consume(src->obj, NULL, NULL);
	}
	return NULL;
}

static void rm_tree(const char *dir)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "p2_devlog: could not remove %s\n", dir);
}

int main(int argc, char **argv)
{
	static const int devs[] = { 0 };
	char root[512], prof[600];
	const char *tmp = getenv("TMPDIR");
	struct npuprof_devlog_opts o = { .devices = devs, .nr_devices = 1 };
	struct npuprof_drain_ring rings[4];
	struct npuprof_loss cpu_loss[1] = { 0 };
	struct npuprof_drain_config cfg = { .prof_dir = prof, .flush_ms = 20, .rings = rings,
					    .nr_rings = 4, .cpu_loss = cpu_loss, .nr_cpu_loss = 1 };
	struct npuprof_drain_stats st;
	struct npuprof_drain *d = NULL;
	struct npuprof_devlog *l;
	const struct npuprof_devlog_dev *dv;
	struct feeder f = { 0 };
	struct shim s = { 0 };
	struct npuprof_drain_source src;
	pthread_t counter;
	uint64_t t0, t1, cpu0, cpu1, main0, main1, last, seen;
	unsigned long long tasks;
	unsigned int n;
	int drain, err, stalled = 0;

	if (argc != 3 || (strcmp(argv[1], "drain") && strcmp(argv[1], "count")) ||
	    (tasks = strtoull(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: p2_devlog drain|count TASKS\n");
		return 2;
	}
	drain = !strcmp(argv[1], "drain");
	if (hal_load()) {
		fprintf(stderr, "p2_devlog: build/tests/fixtures/libascend_hal.so missing or not the stand-in: make tests-unit\n");
		return 1;
	}
	snprintf(root, sizeof(root), "%s/npuprof-p2-devlog-XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		perror("p2_devlog: mkdtemp");
		return 1;
	}
	snprintf(prof, sizeof(prof), "%s/PROF_1", root);
	err = owner_file(root);
	if (!err && mkdir(prof, 0750))
		err = -errno;
	o.proc_root = root;
	if (!err)
		err = npuprof_devlog_start(&o, &l);
	if (err) {
		fprintf(stderr, "p2_devlog: setup: %s\n", strerror(-err));
		rm_tree(root);
		return 1;
	}
	dv = npuprof_devlog_devices(l, &n);
	if (dv[0].outcome != NPUPROF_DEVLOG_OWNED) {
		fprintf(stderr, "p2_devlog: device 0: %s\n", dv[0].text);
		npuprof_devlog_free(l);
		rm_tree(root);
		return 1;
	}
	npuprof_devlog_source(l, &s.real);
	src = s.real;
	src.obj = &s;
	src.consume = shim_consume;
	src.stats = s.real.stats ? shim_stats : NULL;
	src.skipped = s.real.skipped ? shim_skipped : NULL;
	if (drain)
		err = npuprof_drain_start(&cfg, &src, 1, &d);
	else
		err = pthread_create(&counter, NULL, counter_main, &src) ? -EAGAIN : 0;
	if (err) {
		fprintf(stderr, "p2_devlog: %s: %s\n", drain ? "drain" : "thread", strerror(-err));
		npuprof_devlog_free(l);
		rm_tree(root);
		return 1;
	}

	f.total = tasks * 2;
	t0 = clock_ns(CLOCK_MONOTONIC);
	cpu0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	main0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	pthread_create(&f.thread, NULL, feeder_main, &f);
	last = t0;
	seen = 0;
	for (;;) {
		struct timespec pause = { 0, 200000 };
		uint64_t c = atomic_load(&consumed), now;

		if (c >= f.total)
			break;
		now = clock_ns(CLOCK_MONOTONIC);
		if (c != seen) {
			seen = c;
			last = now;
		} else if (now - last > STALL_NS) {
			stalled = 1;
			break;
		}
		nanosleep(&pause, NULL);
	}
	t1 = clock_ns(CLOCK_MONOTONIC);
	main1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	pthread_join(f.thread, NULL);
	cpu1 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);

	npuprof_devlog_stop(l);
	if (drain) {
		err = npuprof_drain_stop(d, &st, NULL);
		if (err)
			fprintf(stderr, "p2_devlog: drain stop: %s\n", strerror(-err));
	} else {
		atomic_store(&stop_counter, 1);
		pthread_join(counter, NULL);
	}
	dv = npuprof_devlog_devices(l, &n);
	{
		uint64_t cpu = cpu1 - cpu0 - f.cpu_ns - (main1 - main0);
		uint64_t recs = atomic_load(&consumed);

		printf("records=%llu tasks=%llu wall_ns=%llu cpu_ns=%llu rec_per_s=%.0f cpu_ns_per_task=%.1f drops=%llu gaps=%llu\n",
		       (unsigned long long)recs, tasks, (unsigned long long)(t1 - t0),
		       (unsigned long long)cpu, (double)recs * 1e9 / (double)(t1 - t0),
		       (double)cpu / (double)(recs / 2 ? recs / 2 : 1),
		       (unsigned long long)dv[0].ring_drops, (unsigned long long)dv[0].gaps);
		if (drain)
			fprintf(stderr, "p2_devlog: drain wrote %llu task records, lost %llu\n",
				(unsigned long long)st.task_records, (unsigned long long)st.lost);
	}
	npuprof_devlog_free(l);
	rm_tree(root);
	if (stalled)
		fprintf(stderr, "p2_devlog: no progress for 10 s at %llu of %llu records\n",
			(unsigned long long)seen, (unsigned long long)f.total);
	return stalled || err ? 1 : 0;
}
