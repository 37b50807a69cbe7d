// SPDX-License-Identifier: MIT
/*
 * P3 drain throughput (bench/p3_drain.sh): CPU time per record of the real
 * drain (user/drain.c: ring read, routing, zstd, io_uring writes, slices
 * and .done) fed by producer threads that write realistic device task
 * records (tests/unit/taskgen.h) into in-memory rings of npuprof.ko's
 * layout (tests/unit/memring.h) as fast as the drain takes them.  In the
 * same run, on the same record bytes: zstd level 1 (the library, one
 * ZSTD_compressCCtx per 4 MiB chunk) and a plain read+write copy.
 *
 *   p3_drain DIR RECORDS ROUNDS
 *
 * DIR is a scratch directory on the file system to measure (emptied).
 * Prints key=value lines: per round and metric the CPU ns per record, and
 * the medians; npuprof's bytes per record as written; the raw file is left
 * in DIR/raw.bin for the zstd command-line baseline.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include <npuprof/drain.h>
#include <npuprof/slice.h>

#include "../../tests/unit/memring.h"
#include "../../tests/unit/taskgen.h"

#define NR_RINGS 2
#define RING_BYTES (1u << 20)		/* npuprof.ko's default: 256 pages */
#define WATERMARK (64u << 10)		/* npuprof.ko's default wakeup */
#define CHUNK (4u << 20)		/* baseline buffer size */
#define MAX_ROUNDS 9

/* One CPU's ring, its producer thread and its eventfd wakeups. */
struct prod {
	struct memring ring;
	int efd;
	uint64_t records;
	uint64_t cpu_ns; /* the producer thread's own CPU time */
	pthread_t thr;
};

struct src {
	struct prod p[NR_RINGS];
	int efd;
};

static uint64_t ts_ns(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static uint64_t rusage_ns(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ULL +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ULL;
}

static long src_consume(void *obj, npuprof_rec_fn fn, void *ctx)
{
	struct src *s = obj;
	long total = 0;
	uint64_t v;

	if (read(s->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return -errno;
	for (int i = 0; i < NR_RINGS; i++) {
		long n = npuprof_ring_consume(&s->p[i].ring.view, fn, ctx);

		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

static int src_stats(void *obj, unsigned int cpu, uint64_t *written, uint64_t *lost)
{
	struct src *s = obj;

	if (cpu >= NR_RINGS)
		return -ENXIO;
	*written = __atomic_load_n(&s->p[cpu].ring.prod.written, __ATOMIC_RELAXED);
	*lost = __atomic_load_n(&s->p[cpu].ring.prod.lost, __ATOMIC_RELAXED);
	return 0;
}

/*
 * Flat out: write records back to back; wake the drain once a watermark's
 * worth is pending (as npuprof.ko does); when the ring is full, wake it
 * and yield until there is room, so no record is lost and the drain is
 * what limits the rate.
 */
static void *producer(void *arg)
{
	struct prod *p = arg;
	struct taskgen g;
	struct npuprof_rec_task rec;
	uint64_t one = 1, since_wake = 0;

	taskgen_init(&g, p->ring.view.cpu + 1, p->ring.view.cpu, 0);
	for (uint64_t i = 0; i < p->records; i++) {
		taskgen_next(&g, &rec);
		while (npuprof_ring_place(p->ring.prod.producer_pos,
					  __atomic_load_n(&p->ring.cons.consumer_pos, __ATOMIC_ACQUIRE),
					  RING_BYTES, sizeof(rec), &(struct npuprof_ring_slot){ 0 }) == 0) {
			(void)!write(p->efd, &one, sizeof(one));
			since_wake = 0;
			sched_yield();
		}
		memring_write(&p->ring, &rec.hdr);
		since_wake += sizeof(rec);
		if (since_wake >= WATERMARK) {
			(void)!write(p->efd, &one, sizeof(one));
			since_wake = 0;
		}
	}
	(void)!write(p->efd, &one, sizeof(one));
	p->cpu_ns = ts_ns(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

/* Remove the files the drain left in @dir (host/data, one level). */
static void scratch_clean(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/PROF'", dir);
	(void)!system(cmd);
}

/* One drain run.  Return: CPU ns per record of the drain, or -1. */
static double run_drain(const char *dir, uint64_t records, uint64_t *file_bytes)
{
	static struct src s;
	char prof[4096];
	struct npuprof_drain_route route = { .pid = 4242 };
	/* P3_ZSTD_LEVEL: try another level than the drain's default */
	struct npuprof_drain_config cfg = { .routes = &route, .nr_routes = 1,
					    .zstd_level = getenv("P3_ZSTD_LEVEL") ?
							  atoi(getenv("P3_ZSTD_LEVEL")) : 0 };
	struct npuprof_drain_source ds = { .name = "memring", .source = NPUPROF_SRC_KMOD,
					   .nr_cpus = NR_RINGS, .obj = &s,
					   .consume = src_consume, .stats = src_stats };
	struct npuprof_drain_stats st;
	struct npuprof_drain *d;
	uint64_t cpu0, main0, prod_ns = 0;
	int err;

	scratch_clean(dir);
	snprintf(prof, sizeof(prof), "%s/PROF", dir);
	if (mkdir(prof, 0755) && errno != EEXIST)
		return -1;
	route.prof_dir = prof;
	s.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	ds.fd = s.efd;
	for (int i = 0; i < NR_RINGS; i++) {
		if (memring_init(&s.p[i].ring, RING_BYTES, (unsigned int)i))
			return -1;
		s.p[i].efd = s.efd;
		s.p[i].records = records / NR_RINGS + (i < (int)(records % NR_RINGS));
	}
	cpu0 = rusage_ns(RUSAGE_SELF);
	main0 = ts_ns(CLOCK_THREAD_CPUTIME_ID);
	err = npuprof_drain_start(&cfg, &ds, 1, &d);
	if (err) {
		fprintf(stderr, "p3_drain: drain start: %s\n", strerror(-err));
		return -1;
	}
	for (int i = 0; i < NR_RINGS; i++)
		pthread_create(&s.p[i].thr, NULL, producer, &s.p[i]);
	for (int i = 0; i < NR_RINGS; i++) {
		pthread_join(s.p[i].thr, NULL);
		prod_ns += s.p[i].cpu_ns;
	}
	err = npuprof_drain_stop(d, &st, NULL);
	/* the process's CPU time less the producers' and this thread's: the
	 * drain thread and the io_uring workers that did its writes */
	cpu0 = rusage_ns(RUSAGE_SELF) - cpu0 - prod_ns - (ts_ns(CLOCK_THREAD_CPUTIME_ID) - main0);
	for (int i = 0; i < NR_RINGS; i++)
		memring_free(&s.p[i].ring);
	close(s.efd);
	if (err || st.records != records || st.lost) {
		fprintf(stderr, "p3_drain: drain wrote %llu of %llu records (lost %llu, error %d)\n",
			(unsigned long long)st.records, (unsigned long long)records,
			(unsigned long long)st.lost, err);
		return -1;
	}
	*file_bytes = st.file_bytes;
	return (double)cpu0 / (double)records;
}

/* The producers' record bytes, ring by ring in CHUNK pieces, to @fn. */
static int for_each_chunk(uint64_t records, int (*fn)(void *ctx, const void *buf, size_t len),
			  void *ctx)
{
	static uint8_t buf[CHUNK];
	struct npuprof_rec_task rec;

	for (int i = 0; i < NR_RINGS; i++) {
		uint64_t n = records / NR_RINGS + (i < (int)(records % NR_RINGS));
		struct taskgen g;
		size_t len = 0;

		taskgen_init(&g, (uint64_t)i + 1, (uint32_t)i, 0);
		for (uint64_t k = 0; k < n; k++) {
			taskgen_next(&g, &rec);
			memcpy(buf + len, &rec, sizeof(rec));
			len += sizeof(rec);
			if (len + sizeof(rec) > CHUNK || k + 1 == n) {
				int err = fn(ctx, buf, len);

				if (err)
					return err;
				len = 0;
			}
		}
	}
	return 0;
}

struct zstd_run {
	ZSTD_CCtx *cctx;
	void *out;
	size_t cap;
	uint64_t cpu_ns;
	uint64_t out_bytes;
};

static int zstd_chunk(void *ctx, const void *buf, size_t len)
{
	struct zstd_run *z = ctx;
	uint64_t t0 = ts_ns(CLOCK_THREAD_CPUTIME_ID);
	size_t n = ZSTD_compressCCtx(z->cctx, z->out, z->cap, buf, len, 1);

	z->cpu_ns += ts_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	if (ZSTD_isError(n))
		return -EIO;
	z->out_bytes += n;
	return 0;
}

/* zstd -1 through the library on the same bytes: CPU ns per record. */
static double run_zstd(uint64_t records, uint64_t *out_bytes)
{
	struct zstd_run z = { .cctx = ZSTD_createCCtx(), .cap = ZSTD_compressBound(CHUNK) };

	z.out = malloc(z.cap);
	if (!z.cctx || !z.out || for_each_chunk(records, zstd_chunk, &z))
		return -1;
	ZSTD_freeCCtx(z.cctx);
	free(z.out);
	*out_bytes = z.out_bytes;
	return (double)z.cpu_ns / (double)records;
}

static int file_chunk(void *ctx, const void *buf, size_t len)
{
	return write(*(int *)ctx, buf, len) == (ssize_t)len ? 0 : -EIO;
}

/* DIR/raw.bin: the record bytes, for the copy and the zstd CLI. */
static int write_raw(const char *dir, uint64_t records)
{
	char path[4200];
	int fd, err;

	snprintf(path, sizeof(path), "%s/raw.bin", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	err = for_each_chunk(records, file_chunk, &fd);
	close(fd);
	return err;
}

/* read+write of DIR/raw.bin to DIR/copy.bin in 1 MiB pieces: CPU ns per record. */
static double run_copy(const char *dir, uint64_t records)
{
	static uint8_t buf[1u << 20];
	char in[4200], out[4200];
	uint64_t t0;
	int fi, fo;
	ssize_t n;

	snprintf(in, sizeof(in), "%s/raw.bin", dir);
	snprintf(out, sizeof(out), "%s/copy.bin", dir);
	fi = open(in, O_RDONLY | O_CLOEXEC);
	fo = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fi < 0 || fo < 0)
		return -1;
	t0 = ts_ns(CLOCK_THREAD_CPUTIME_ID);
	while ((n = read(fi, buf, sizeof(buf))) > 0)
		if (write(fo, buf, (size_t)n) != n)
			break;
	t0 = ts_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	close(fi);
	close(fo);
	unlink(out);
	return n == 0 ? (double)t0 / (double)records : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	double drain[MAX_ROUNDS], zstd[MAX_ROUNDS], copy[MAX_ROUNDS];
	uint64_t records, file_bytes = 0, zstd_bytes = 0;
	int rounds;

	if (argc != 4) {
		fprintf(stderr, "usage: p3_drain DIR RECORDS ROUNDS\n");
		return 2;
	}
	records = strtoull(argv[2], NULL, 0);
	rounds = atoi(argv[3]);
	if (!records || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "p3_drain: RECORDS must be > 0, ROUNDS 1..%d\n", MAX_ROUNDS);
		return 2;
	}
	if (write_raw(argv[1], records)) {
		fprintf(stderr, "p3_drain: cannot write %s/raw.bin\n", argv[1]);
		return 1;
	}
	/* interleaved, so the machine's load falls on all three alike */
	for (int r = 0; r < rounds; r++) {
		drain[r] = run_drain(argv[1], records, &file_bytes);
		zstd[r] = run_zstd(records, &zstd_bytes);
		copy[r] = run_copy(argv[1], records);
		if (drain[r] < 0 || zstd[r] < 0 || copy[r] < 0)
			return 1;
		printf("round%d drain_ns=%.2f zstd1_ns=%.2f copy_ns=%.2f\n", r, drain[r], zstd[r],
		       copy[r]);
	}
	scratch_clean(argv[1]);
	printf("records=%llu\n", (unsigned long long)records);
	printf("raw_bytes_per_rec=%.2f\n", (double)sizeof(struct npuprof_rec_task));
	printf("drain_bytes_per_rec=%.3f\n", (double)file_bytes / (double)records);
	printf("zstd1_bytes_per_rec=%.3f\n", (double)zstd_bytes / (double)records);
	printf("drain_ns=%.2f\n", median(drain, rounds));
	printf("zstd1_ns=%.2f\n", median(zstd, rounds));
	printf("copy_ns=%.2f\n", median(copy, rounds));
	return 0;
}
