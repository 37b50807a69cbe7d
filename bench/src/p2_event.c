// SPDX-License-Identifier: MIT
/*
 * P2 (bench/p2_driver_event.sh): what one driver event costs the CPU that
 * fires it, with a given consumer attached.  One writer thread per CPU
 * listed, each pinned to its CPU, all released at once; each writes
 * "N" to npusim.ko's benchmark hook (/sys/kernel/debug/npusim/bench), which
 * fires npusim_task_end N times in that thread, and times the write.
 *
 *   p2_event MODE N CPU[,CPU...]
 *
 * MODE says what this program attaches before the writers start:
 *   none     nothing (ftrace and perf record are set up around it by the
 *            script, so "none" is also their writer)
 *   npuprof  an npuprof.ko session capturing this process, with a reader
 *            thread draining the rings as they fill (poll() at the
 *            module's watermark, npuprof_kring_consume()), default ring
 *            size of the loaded module
 *   idle     an npuprof.ko session that owns this process (ADD_TGID) but
 *            does not capture: what an attached, idle msprof costs
 *   bpf      bench/bpf/p2_ringbuf.bpf.c on the same tracepoint, one BPF
 *            ring buffer large enough for every record of the run (a
 *            power of two, at least 1 MiB per possible CPU), drained by a
 *            thread in ring_buffer__poll()
 *   bpftask  npuprof's own capture path without npuprof.ko: the task
 *            programs of bpf/acl_trace.bpf.c, loaded and attached by
 *            user/acl_trace.c with npusim's backend (layout and
 *            tracepoint names) as msprof loads them, capturing this
 *            process into the per-CPU BPF ring buffers (each sized for
 *            every record of the run), drained by a thread polling
 *            npuprof_acl_trace_fd() and calling npuprof_acl_trace_consume()
 *
 * Output, one line:
 *   ns_per_event=X max_ns_per_event=Y events=E consumed=C lost=L written=W
 * X is the writers' mean of (write time / N), Y the slowest writer's;
 * consumed is what the reader got, lost and written the consumer's own
 * counters (npuprof and bpftask: summed over CPUs; bpf: written is
 * consumed; none and idle: 0).  A consumer that counts exactly has
 * written == consumed and written + lost == E.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <npuprof/acl_trace.h>
#include <npuprof/drain.h>
#include <npuprof/kring.h>
#include <npuprof/npu_backend.h>
#include <npuprof/npuprof_ioctl.h>
#include <npuprof/record.h>
#include "p2_ringbuf.skel.h"

#define BENCH_HOOK "/sys/kernel/debug/npusim/bench"
/* The driver backend whose tracepoints the hook fires (bpftask). */
#define BENCH_BACKEND "npusim"
#define MAX_WRITERS 64

struct writer {
	pthread_t thread;
	int cpu;
	uint64_t n;
	double ns;
	int err;
};

static pthread_barrier_t start_line;
static atomic_int stop_consumer;
static atomic_ulong consumed;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	char cmd[32];
	cpu_set_t set;
	int fd, len;
	double t0;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	w->err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	fd = open(BENCH_HOOK, O_WRONLY | O_CLOEXEC);
	if (fd < 0 && !w->err)
		w->err = errno;
	len = snprintf(cmd, sizeof(cmd), "%llu", (unsigned long long)w->n);
	pthread_barrier_wait(&start_line);
	if (w->err)
		return NULL;
	t0 = now_ns();
	if (write(fd, cmd, len) != len)
		w->err = errno;
	w->ns = now_ns() - t0;
	close(fd);
	return NULL;
}

/* Run the writers; print their figures.  Return 0 or 1. */
static int run_writers(struct writer *w, int nw)
{
	double sum = 0, max = 0;
	int i, failed = 0;

	pthread_barrier_init(&start_line, NULL, nw);
	for (i = 0; i < nw; i++)
		pthread_create(&w[i].thread, NULL, writer_main, &w[i]);
	for (i = 0; i < nw; i++) {
		pthread_join(w[i].thread, NULL);
		if (w[i].err) {
			fprintf(stderr, "p2_event: writer on CPU %d: %s: %s\n",
				w[i].cpu, BENCH_HOOK, strerror(w[i].err));
			failed = 1;
		}
		sum += w[i].ns / w[i].n;
		if (w[i].ns / w[i].n > max)
			max = w[i].ns / w[i].n;
	}
	pthread_barrier_destroy(&start_line);
	printf("ns_per_event=%.1f max_ns_per_event=%.1f events=%llu ", sum / nw,
	       max, (unsigned long long)w[0].n * nw);
	return failed;
}

static int count_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	(void)ctx;
	(void)rec;
	atomic_fetch_add_explicit(&consumed, 1, memory_order_relaxed);
	return 0;
}

/*
 * A capture path as the drain sees it (user/include/recorder/npuprof/drain.h: fd,
 * nr_cpus, obj, consume, stats), and how to stop its producers.
 */
struct capture {
	struct npuprof_drain_source src;
	void (*stop)(void *obj);
};

static void *capture_reader(void *arg)
{
	const struct npuprof_drain_source *src = arg;
	struct pollfd p = { .fd = src->fd, .events = POLLIN };

	while (!atomic_load(&stop_consumer)) {
		poll(&p, 1, 50);
		src->consume(src->obj, count_rec, NULL);
	}
	return NULL;
}

/*
 * Run the writers while a thread drains @c, stop its producers, read what
 * is left; print the records read and its written and lost counters
 * summed over CPUs.  Return run_writers()'s 0 or 1.
 */
static int run_captured(struct writer *w, int nw, const struct capture *c)
{
	uint64_t written, lost, lost_sum = 0, written_sum = 0;
	pthread_t reader;
	unsigned int cpu;
	int ret;

	pthread_create(&reader, NULL, capture_reader, (void *)&c->src);
	ret = run_writers(w, nw);
	c->stop(c->src.obj);
	atomic_store(&stop_consumer, 1);
	pthread_join(reader, NULL);
	c->src.consume(c->src.obj, count_rec, NULL);
	for (cpu = 0; cpu < c->src.nr_cpus; cpu++)
		if (!c->src.stats(c->src.obj, cpu, &written, &lost)) {
			written_sum += written;
			lost_sum += lost;
		}
	printf("consumed=%lu lost=%llu written=%llu\n", atomic_load(&consumed),
	       (unsigned long long)lost_sum, (unsigned long long)written_sum);
	return ret;
}

static long kring_consume_src(void *obj, npuprof_rec_fn fn, void *ctx)
{
	return npuprof_kring_consume(obj, fn, ctx);
}

static int kring_stats_src(void *obj, unsigned int cpu, uint64_t *written,
			   uint64_t *lost)
{
	return npuprof_kring_stats(obj, cpu, written, lost);
}

static void kring_stop(void *obj)
{
	npuprof_kring_disable(obj);
}

static int run_npuprof(struct writer *w, int nw)
{
	struct npuprof_kring *kr;
	struct capture c;
	int ret;

	ret = npuprof_kring_open(NULL, &kr);
	if (!ret)
		ret = npuprof_kring_add_tgid(kr, getpid());
	if (!ret)
		ret = npuprof_kring_enable(kr);
	if (ret) {
		fprintf(stderr, "p2_event: /dev/npuprof: %s\n", strerror(-ret));
		npuprof_kring_close(kr);
		return 1;
	}
	c = (struct capture){
		.src = { .fd = npuprof_kring_fd(kr),
			 .nr_cpus = npuprof_kring_nr_cpus(kr),
			 .obj = kr,
			 .consume = kring_consume_src,
			 .stats = kring_stats_src },
		.stop = kring_stop,
	};
	ret = run_captured(w, nw, &c);
	npuprof_kring_close(kr);
	return ret;
}

/* A session that owns this process, capture off, for the whole run. */
static int run_idle(struct writer *w, int nw)
{
	struct npuprof_kring *kr;
	int ret;

	ret = npuprof_kring_open(NULL, &kr);
	if (!ret)
		ret = npuprof_kring_add_tgid(kr, getpid());
	if (ret) {
		fprintf(stderr, "p2_event: /dev/npuprof: %s\n", strerror(-ret));
		npuprof_kring_close(kr);
		return 1;
	}
	ret = run_writers(w, nw);
	printf("consumed=0 lost=0 written=0\n");
	npuprof_kring_close(kr);
	return ret;
}

static int count_bpf_rec(void *ctx, void *data, size_t size)
{
	(void)ctx;
	(void)data;
	(void)size;
	atomic_fetch_add_explicit(&consumed, 1, memory_order_relaxed);
	return 0;
}

static void *bpf_reader(void *arg)
{
	struct ring_buffer *rb = arg;

	while (!atomic_load(&stop_consumer))
		ring_buffer__poll(rb, 50);
	return NULL;
}

/* Sum of the per-CPU `lost` counters. */
static unsigned long long bpf_lost(struct p2_ringbuf_bpf *skel)
{
	int ncpu = libbpf_num_possible_cpus();
	unsigned long long sum = 0;
	__u64 v[1024] = { 0 };
	__u32 zero = 0;
	int i;

	if (ncpu <= 0 || ncpu > 1024 ||
	    bpf_map__lookup_elem(skel->maps.lost, &zero, sizeof(zero), v,
				 sizeof(v[0]) * ncpu, 0))
		return ~0ULL;
	for (i = 0; i < ncpu; i++)
		sum += v[i];
	return sum;
}

/* BPF ring buffer bytes for @records: 8 bytes of header each. */
static __u32 bpf_ring_size(uint64_t records)
{
	uint64_t need = records * (sizeof(struct npuprof_rec_task) + 8);
	uint64_t size = (uint64_t)libbpf_num_possible_cpus() << 20;
	uint64_t p2 = 1 << 20;

	if (need > size)
		size = need;
	while (p2 < size && p2 < (1ULL << 31))
		p2 <<= 1;
	return (__u32)p2;
}

static int bpf_setup(uint64_t records, struct p2_ringbuf_bpf **out)
{
	struct p2_ringbuf_bpf *skel = p2_ringbuf_bpf__open();
	__u32 size = bpf_ring_size(records);
	int ret;

	if (!skel)
		return -errno;
	skel->rodata->target_tgid = getpid();
	ret = bpf_map__set_max_entries(skel->maps.ring, size);
	if (!ret)
		ret = p2_ringbuf_bpf__load(skel);
	if (!ret)
		ret = p2_ringbuf_bpf__attach(skel);
	if (ret) {
		p2_ringbuf_bpf__destroy(skel);
		return ret;
	}
	*out = skel;
	return 0;
}

static int run_bpf(struct writer *w, int nw)
{
	struct p2_ringbuf_bpf *skel = NULL;
	struct ring_buffer *rb;
	pthread_t reader;
	int ret;

	ret = bpf_setup(w[0].n * nw, &skel);
	if (ret) {
		fprintf(stderr, "p2_event: BPF program p2_ringbuf: %s\n",
			strerror(-ret));
		return 1;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.ring), count_bpf_rec,
			      NULL, NULL);
	if (!rb) {
		fprintf(stderr, "p2_event: BPF ring buffer: %s\n",
			strerror(errno));
		p2_ringbuf_bpf__destroy(skel);
		return 1;
	}
	pthread_create(&reader, NULL, bpf_reader, rb);
	ret = run_writers(w, nw);
	p2_ringbuf_bpf__detach(skel);
	atomic_store(&stop_consumer, 1);
	pthread_join(reader, NULL);
	ring_buffer__consume(rb);
	printf("consumed=%lu lost=%llu written=%lu\n", atomic_load(&consumed),
	       bpf_lost(skel), atomic_load(&consumed));
	ring_buffer__free(rb);
	p2_ringbuf_bpf__destroy(skel);
	return ret;
}

static long acl_consume_src(void *obj, npuprof_rec_fn fn, void *ctx)
{
	return npuprof_acl_trace_consume(obj, fn, ctx);
}

/* lost on CPU 0 includes the events the kernel skipped the program for */
static int acl_stats_src(void *obj, unsigned int cpu, uint64_t *written,
			 uint64_t *lost)
{
	return npuprof_acl_trace_stats(obj, cpu, written, lost);
}

static void acl_stop(void *obj)
{
	npuprof_acl_trace_enable(obj, 0);
}

/*
 * Open npuprof's BPF capture with task programs for @be, per-CPU rings of
 * @ring_bytes, this process selected, the end tracepoint attached (the
 * only one the hook fires), capture on.  0 or -errno.
 */
static int acl_setup(const struct npu_backend *be, uint32_t ring_bytes,
		     struct npuprof_acl_trace **out)
{
	struct npuprof_acl_trace_opts o = {
		.ring_bytes = ring_bytes,
		.task_layout = &be->layout,
	};
	int status[NPU_TP_EVENTS];
	struct npuprof_acl_trace *t;
	int ret;

	ret = npuprof_acl_trace_open_opts(&o, &t);
	if (ret)
		return ret;
	ret = npuprof_acl_trace_attach_tasks(t, be->tp_names, status);
	if (ret >= 0)
		ret = status[NPUPROF_TP_TASK_END];
	if (!ret)
		ret = npuprof_acl_trace_select_pid(t, getpid());
	if (!ret)
		ret = npuprof_acl_trace_enable(t, 1);
	if (ret) {
		npuprof_acl_trace_close(t);
		return ret;
	}
	*out = t;
	return 0;
}

/* Per-CPU ring bytes holding @records on one CPU: a power of two >= 1 MiB. */
static uint32_t acl_ring_bytes(uint64_t records)
{
	uint64_t need = records * (sizeof(struct npuprof_rec_task) + 8);
	uint64_t p2 = 1 << 20;

	while (p2 < need && p2 < (1ULL << 31))
		p2 <<= 1;
	return (uint32_t)p2;
}

static int run_bpftask(struct writer *w, int nw)
{
	const struct npu_backend *be = npu_backend_find(BENCH_BACKEND);
	struct npuprof_acl_trace *t = NULL;
	struct capture c;
	int ret;

	/* each writer is pinned, so one CPU's ring takes one writer's N */
	ret = be ? acl_setup(be, acl_ring_bytes(w[0].n), &t) : -ENOENT;
	if (ret) {
		fprintf(stderr, "p2_event: BPF task capture (%s backend): %s\n",
			BENCH_BACKEND, strerror(-ret));
		return 1;
	}
	c = (struct capture){
		.src = { .fd = npuprof_acl_trace_fd(t),
			 .nr_cpus = npuprof_acl_trace_nr_cpus(t),
			 .obj = t,
			 .consume = acl_consume_src,
			 .stats = acl_stats_src },
		.stop = acl_stop,
	};
	ret = run_captured(w, nw, &c);
	npuprof_acl_trace_close(t);
	return ret;
}

/* "1,3,5" -> writers; return their number, 0 on a bad list. */
static int parse_cpus(const char *list, uint64_t n, struct writer *w)
{
	char *end;
	int nw = 0;
	long cpu;

	while (*list && nw < MAX_WRITERS) {
		cpu = strtol(list, &end, 10);
		if (end == list || cpu < 0 || cpu >= CPU_SETSIZE ||
		    (*end && *end != ','))
			return 0;
		w[nw].cpu = (int)cpu;
		w[nw++].n = n;
		list = *end ? end + 1 : end;
	}
	return *list ? 0 : nw;
}

int main(int argc, char **argv)
{
	static struct writer w[MAX_WRITERS];
	unsigned long long n;
	int nw, ret;

	if (argc != 4 || (n = strtoull(argv[2], NULL, 10)) == 0 ||
	    !(nw = parse_cpus(argv[3], n, w))) {
		fprintf(stderr, "usage: p2_event none|npuprof|idle|bpf|bpftask N CPU[,CPU...]\n");
		return 2;
	}
	if (!strcmp(argv[1], "npuprof"))
		return run_npuprof(w, nw);
	if (!strcmp(argv[1], "idle"))
		return run_idle(w, nw);
	if (!strcmp(argv[1], "bpf"))
		return run_bpf(w, nw);
	if (!strcmp(argv[1], "bpftask"))
		return run_bpftask(w, nw);
	if (strcmp(argv[1], "none")) {
		fprintf(stderr, "p2_event: mode '%s': allowed none, npuprof, idle, bpf, bpftask\n",
			argv[1]);
		return 2;
	}
	ret = run_writers(w, nw);
	printf("consumed=0 lost=0 written=0\n");
	return ret;
}
