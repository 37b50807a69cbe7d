// SPDX-License-Identifier: MIT
/*
 * P4 on the host (bench/p4_loss.sh host): the loss threshold of the real
 * drain (user/drain.c: io_uring event loop, zstd, PROF_XXX slices) at
 * hardware speed.  The host cannot load npuprof.ko, so a producer thread
 * writes task records into an in-memory ring of the kmod layout
 * (tests/unit/memring.h: the kernel's own placement rule from
 * kmod/ring_layout.h, discard when full, counted in `lost`) of the
 * module's default size, waking the drain as npuprof.ko does: an eventfd
 * poked once the unread bytes reach the default watermark, once per
 * consume (kmod/probes.c, npuprof_session_want_wake()).
 *
 *   [NPUPROF_WRITER=io_uring|pwrite] p4_host OUTPUT_DIR COUNT RATE CPU
 *
 * The producer, pinned to CPU, writes COUNT records of 88 bytes paced at
 * RATE records/s (0: flat out; busy-wait, checked every 64 records, as
 * npusim's hook paces).  The drain runs with the session's defaults: its
 * writer is io_uring, or the one NPUPROF_WRITER forces (pwrite: the
 * fallback writer).  At the end the slices are read back.  Output, one line:
 *   produced=P seconds=S rate=R written=W lost=L exact=E drain_cpu_ns_per_record=C writer=N
 * W records read back from the slices (each task id once, in order), L
 * the loss the drain reports (npuprof_loss_total(), the figure a session
 * reports), E 1 when P - W == L; C the drain's CPU time per record
 * written (process CPU time less the producer's, measured before the
 * read-back: the drain thread and its writer's threads, io_uring's io-wq
 * workers or the pwrite writer thread), which says the rate one free core
 * keeps up with when the machine is shared and the wall-clock threshold
 * is not; N the writer that ran.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <npuprof/drain.h>
#include <npuprof/writer_probe.h>
#include <npuprof/loss.h>
#include <npuprof/slice.h>
#include "../../tests/unit/memring.h"

/* npuprof.ko's defaults: ring_pages=256 of 4 KiB, watermark 64 KiB. */
#define RING_BYTES (256u * 4096u)
#define WATERMARK (64u * 1024u)
#define BATCH 64

struct source {
	struct memring ring;
	int efd;
	atomic_bool wake_sent;
};

struct producer {
	struct source *src;
	unsigned long long count;
	unsigned long long rate;
	int cpu;
	double seconds;
	double cpu_seconds;
	int err;
};

struct readback {
	unsigned long long n;
	unsigned long long next_id;
	unsigned long long bad;
};

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/*
 * As npuprof_poll() then consume: take the pending wake-up, re-arm the
 * producer's, then read the ring.  In that order: re-arming before the
 * eventfd read let a wake-up the producer sent in between be swallowed
 * with wake_sent left set, and the drain then waited for its timer
 * (200 ms) while the ring overflowed (P4 lost up to 70% at 250 k/s).
 */
static long source_consume(void *obj, npuprof_rec_fn fn, void *ctx)
{
	struct source *s = obj;
	uint64_t v;

	if (read(s->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return -errno;
	atomic_store(&s->wake_sent, false);
	return npuprof_ring_consume(&s->ring.view, fn, ctx);
}

static int source_stats(void *obj, unsigned int cpu, uint64_t *written,
			uint64_t *lost)
{
	struct source *s = obj;

	if (cpu)
		return -ENXIO;
	*written = __atomic_load_n(&s->ring.prod.written, __ATOMIC_RELAXED);
	*lost = __atomic_load_n(&s->ring.prod.lost, __ATOMIC_RELAXED);
	return 0;
}

/* Write one record; wake the drain as the probe does. */
static void produce_one(struct source *s, struct npuprof_rec_task *rec)
{
	const struct npuprof_ring_producer *p = &s->ring.prod;
	uint64_t pending;
	bool wake = true; /* a full ring is above any watermark */

	if (!memring_write(&s->ring, &rec->hdr)) {
		pending = p->producer_pos -
			  __atomic_load_n(&s->ring.cons.consumer_pos, __ATOMIC_ACQUIRE);
		wake = pending >= WATERMARK;
	}
	if (wake && !atomic_exchange(&s->wake_sent, true)) {
		uint64_t one = 1;

		(void)!write(s->efd, &one, sizeof(one));
	}
}

static void *producer_main(void *arg)
{
	struct producer *w = arg;
	struct npuprof_rec_task rec = {
		.hdr = { .type = NPUPROF_REC_TASK, .size = sizeof(rec) },
		.pid = (uint32_t)getpid(), .tid = (uint32_t)getpid(),
		.event = NPUPROF_TASK_END, .arg = 10000, .name = "bench_kernel",
	};
	unsigned long long i = 0, due, n;
	cpu_set_t set;
	double t0;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	w->err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	t0 = now_s();
	while (i < w->count) {
		due = w->rate ? (unsigned long long)((now_s() - t0) * w->rate) + 1 :
				w->count;
		/* Ahead of the rate: spin on the clock, as the hook does. */
		for (n = 0; n < BATCH && i < due && i < w->count; n++, i++) {
			rec.hdr.ts = i;
			rec.task_id = (uint32_t)i;
			rec.dev_ts = 50 * i;
			produce_one(w->src, &rec);
		}
	}
	w->seconds = now_s() - t0;
	w->cpu_seconds = clock_s(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

/* Each record once, in the order produced (ts = sequence number). */
static int count_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct readback *rb = ctx;

	if (rec->type != NPUPROF_REC_TASK)
		return 0;
	if (rec->ts < rb->next_id)
		rb->bad++;
	rb->next_id = rec->ts + 1;
	rb->n++;
	return 0;
}

/* Run the producer against the drain; fill @st.  Return 0 or -errno. */
static int run(const char *dir, struct producer *w, struct npuprof_drain_stats *st)
{
	struct npuprof_drain_config cfg = { .prof_dir = dir };
	struct npuprof_drain_source src = {
		.name = "memring", .source = NPUPROF_SRC_KMOD, .fd = w->src->efd,
		.nr_cpus = 1, .obj = w->src, .consume = source_consume,
		.stats = source_stats,
	};
	struct npuprof_drain *d;
	pthread_t th;
	int ret;

	ret = npuprof_drain_start(&cfg, &src, 1, &d);
	if (ret)
		return ret;
	ret = -pthread_create(&th, NULL, producer_main, w);
	if (!ret)
		pthread_join(th, NULL);
	if (!ret && w->err)
		ret = -w->err;
	if (npuprof_drain_stop(d, st, NULL) && !ret)
		ret = st->write_error ? st->write_error : -EIO;
	return ret;
}

int main(int argc, char **argv)
{
	static struct source src;
	struct npuprof_drain_stats st = { 0 };
	struct producer w = { .src = &src };
	struct readback rb = { 0 };
	char data[4096];
	unsigned long long lost;
	double cpu0;
	int ret;

	if (argc != 5) {
		fprintf(stderr, "usage: p4_host OUTPUT_DIR COUNT RATE CPU\n");
		return 2;
	}
	w.count = strtoull(argv[2], NULL, 10);
	w.rate = strtoull(argv[3], NULL, 10);
	w.cpu = atoi(argv[4]);
	src.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (src.efd < 0 || memring_init(&src.ring, RING_BYTES, 0)) {
		fprintf(stderr, "p4_host: eventfd or ring: %s\n", strerror(errno));
		return 1;
	}
	cpu0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	ret = run(argv[1], &w, &st);
	if (ret) {
		fprintf(stderr, "p4_host: %s: %s\n", argv[1], strerror(-ret));
		return 1;
	}
	/* The drain's CPU time: the process's less the producer's. */
	cpu0 = clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu0 - w.cpu_seconds;
	snprintf(data, sizeof(data), "%s/device_0/data", argv[1]);
	ret = npuprof_slice_read_series(data, "npuprof.task.0", count_rec, &rb, NULL);
	if (ret && ret != -ENOENT) {
		fprintf(stderr, "p4_host: reading %s: %s\n", data, strerror(-ret));
		return 1;
	}
	lost = npuprof_loss_total(&st.loss);
	printf("produced=%llu seconds=%.3f rate=%.0f written=%llu lost=%llu exact=%d drain_cpu_ns_per_record=%.1f writer=%s\n",
	       w.count, w.seconds, w.count / w.seconds, rb.n, lost,
	       !rb.bad && w.count - rb.n == lost, rb.n ? cpu0 * 1e9 / rb.n : 0.0,
	       npuprof_writer_name(st.writer));
	memring_free(&src.ring);
	return 0;
}
