// SPDX-License-Identifier: MIT
/*
 * P3 drain throughput (bench/p3_drain.sh): CPU time per record of the real
 * drain (user/drain.c: ring read, routing, zstd, io_uring writes, slices
 * and .done) fed by producer threads that write realistic device task
 * records (tests/unit/taskgen.h) into in-memory rings of npuprof.ko's
 * layout (tests/unit/memring.h) as fast as the drain takes them.  In the
 * same run, on the same record bytes: the same drain on the pwrite
 * fallback writer (ppoll and a pwrite(2) writer thread instead of
 * io_uring: enum npuprof_writer), zstd level 1 (the library, one
 * ZSTD_compressCCtx per 4 MiB chunk) and a plain read+write copy.
 *
 * The drain's CPU time is the process's less the producers' and the main
 * thread's: the drain thread plus the threads its I/O engine runs, which
 * getrusage() counts alive or exited (io_uring's io-wq workers, or the
 * pwrite writer thread), so the two writers are charged alike.
 *
 *   p3_drain DIR RECORDS ROUNDS [kmod]
 *
 * With "kmod" (in the VM): the records come from the real capture path
 * instead, npuprof.ko following this process with npusim.ko's benchmark
 * hook (/sys/kernel/debug/npusim/bench) firing RECORDS npusim_task_end
 * events from this thread, pinned to the last CPU, in chunks as fast as
 * the drain takes them; the drain reads the module's rings
 * (npuprof/kring.h) as the session does.  Its figure is per drained
 * record; the baselines run on the records the io_uring drain took, read
 * back from its slices.
 *
 * DIR is a scratch directory on the file system to measure (emptied).
 * Prints key=value lines: per round and metric the CPU ns per record
 * (drain_ns: io_uring, pwrite_ns: the fallback), and the medians;
 * npuprof's bytes per record as written; the raw file is left in
 * DIR/raw.bin for the zstd command-line baseline.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include <glob.h>

#include <npuprof/drain.h>
#include <npuprof/writer_probe.h>
#include <npuprof/kring.h>
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

/*
 * The drain on @writer started (@err 0) and ran that writer (@st, after
 * its stop).  Return: 0, or -1 after saying what went wrong.
 */
static int check_writer(int err, int writer, const struct npuprof_drain_stats *st)
{
	if (err)
		fprintf(stderr, "p3_drain: drain start with the %s writer: %s\n",
			npuprof_writer_name(writer), strerror(-err));
	else if (st && st->writer != writer)
		fprintf(stderr, "p3_drain: asked for the %s writer, the drain ran %s\n",
			npuprof_writer_name(writer), npuprof_writer_name(st->writer));
	else
		return 0;
	return -1;
}

/*
 * One drain run on @writer (enum npuprof_writer, IO_URING or PWRITE).
 * Return: CPU ns per record of the drain, or -1.
 */
static double run_drain(const char *dir, int writer, uint64_t records, uint64_t *file_bytes)
{
	static struct src s;
	char prof[4096];
	struct npuprof_drain_route route = { .pid = 4242 };
	/* P3_ZSTD_LEVEL: try another level than the drain's default */
	struct npuprof_drain_config cfg = { .routes = &route, .nr_routes = 1,
					    .zstd_level = getenv("P3_ZSTD_LEVEL") ?
							  atoi(getenv("P3_ZSTD_LEVEL")) : 0,
					    .writer = writer };
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
		check_writer(err, writer, NULL);
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
	 * drain thread and its engine's (io-wq workers or the writer thread) */
	cpu0 = rusage_ns(RUSAGE_SELF) - cpu0 - prod_ns - (ts_ns(CLOCK_THREAD_CPUTIME_ID) - main0);
	for (int i = 0; i < NR_RINGS; i++)
		memring_free(&s.p[i].ring);
	close(s.efd);
	if (!err && check_writer(0, writer, &st))
		return -1;
	if (err || st.records != records || st.lost) {
		fprintf(stderr, "p3_drain: drain wrote %llu of %llu records (lost %llu, error %d)\n",
			(unsigned long long)st.records, (unsigned long long)records,
			(unsigned long long)st.lost, err);
		return -1;
	}
	*file_bytes = st.file_bytes;
	return (double)cpu0 / (double)records;
}

#define BENCH_HOOK "/sys/kernel/debug/npusim/bench"

/* Events per hook write, and the most the rings may hold before the next
 * (together 60% of one 1 MiB ring: the drain, not the ring, limits). */
#define HOOK_CHUNK 2048u
#define HOOK_AHEAD 5000u

/* npuprof.ko's rings, counting what the drain took. */
struct ksrc {
	struct npuprof_kring *kr;
	uint64_t consumed; /* atomic: written by the drain thread */
};

static long kring_consume_src(void *obj, npuprof_rec_fn fn, void *ctx)
{
	struct ksrc *k = obj;
	long n = npuprof_kring_consume(k->kr, fn, ctx);

	if (n > 0)
		__atomic_add_fetch(&k->consumed, (uint64_t)n, __ATOMIC_RELEASE);
	return n;
}

static int kring_stats_src(void *obj, unsigned int cpu, uint64_t *written, uint64_t *lost)
{
	return npuprof_kring_stats(((struct ksrc *)obj)->kr, cpu, written, lost);
}

/* This thread onto the last CPU, away from the drain.  Return: 0, -errno. */
static int pin_last_cpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(n > 1 ? (int)n - 1 : 0, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/*
 * Fire @count npusim_task_end events from this thread, HOOK_CHUNK at a
 * time, as fast as the drain takes them (as the host producers wait for
 * room).  Return: 0, -errno.
 */
static int hook_fire(struct ksrc *k, uint64_t count)
{
	int fd = open(BENCH_HOOK, O_WRONLY | O_CLOEXEC);
	uint64_t fired = 0;
	int err = 0;

	if (fd < 0)
		return -errno;
	while (!err && fired < count) {
		uint64_t n = count - fired < HOOK_CHUNK ? count - fired : HOOK_CHUNK;
		char cmd[32];
		int len = snprintf(cmd, sizeof(cmd), "%llu", (unsigned long long)n);

		while (fired - __atomic_load_n(&k->consumed, __ATOMIC_ACQUIRE) > HOOK_AHEAD)
			usleep(50);
		if (write(fd, cmd, (size_t)len) != len)
			err = -errno;
		fired += n;
	}
	close(fd);
	return err;
}

/*
 * One drain of npuprof.ko's rings on @writer while the hook fires @records
 * events.  Return: CPU ns per drained record of the drain (the process's
 * CPU less this thread's, which fires the events), or -1.
 */
static double run_kdrain(const char *dir, int writer, uint64_t records, uint64_t *file_bytes,
			 uint64_t *drained, uint64_t *lost)
{
	char prof[4096];
	struct npuprof_drain_route route = { .pid = (uint32_t)getpid() };
	struct npuprof_drain_config cfg = { .routes = &route, .nr_routes = 1, .writer = writer };
	struct npuprof_drain_source ds = { .name = "npuprof.ko", .source = NPUPROF_SRC_KMOD,
					   .consume = kring_consume_src, .stats = kring_stats_src };
	struct npuprof_drain_stats st;
	struct ksrc k = { 0 };
	struct npuprof_drain *d;
	uint64_t cpu0, main0;
	int err;

	scratch_clean(dir);
	snprintf(prof, sizeof(prof), "%s/PROF", dir);
	if ((mkdir(prof, 0755) && errno != EEXIST) || pin_last_cpu())
		return -1;
	route.prof_dir = prof;
	err = npuprof_kring_open(NULL, &k.kr);
	if (!err)
		err = npuprof_kring_add_tgid(k.kr, getpid());
	if (err) {
		fprintf(stderr, "p3_drain: npuprof.ko: %s\n", strerror(-err));
		npuprof_kring_close(k.kr);
		return -1;
	}
	ds.fd = npuprof_kring_fd(k.kr);
	ds.nr_cpus = npuprof_kring_nr_cpus(k.kr);
	ds.obj = &k;
	cpu0 = rusage_ns(RUSAGE_SELF);
	main0 = ts_ns(CLOCK_THREAD_CPUTIME_ID);
	err = npuprof_drain_start(&cfg, &ds, 1, &d);
	if (err) {
		check_writer(err, writer, NULL);
		npuprof_kring_close(k.kr);
		return -1;
	}
	err = npuprof_kring_enable(k.kr);
	if (!err)
		err = hook_fire(&k, records);
	npuprof_kring_disable(k.kr);
	err = npuprof_drain_stop(d, &st, NULL) ?: err;
	cpu0 = rusage_ns(RUSAGE_SELF) - cpu0 - (ts_ns(CLOCK_THREAD_CPUTIME_ID) - main0);
	npuprof_kring_close(k.kr);
	if (!err && check_writer(0, writer, &st))
		return -1;
	if (err || !st.records) {
		fprintf(stderr, "p3_drain: kmod drain: error %d, %llu records\n", err,
			(unsigned long long)st.records);
		return -1;
	}
	*file_bytes = st.file_bytes;
	*drained = st.records;
	*lost = st.lost;
	return (double)cpu0 / (double)st.records;
}

/* Task records of the slices in DIR/PROF, to the raw file at @fd. */
static int keep_task(void *ctx, const struct npuprof_rec_hdr *h)
{
	if (h->type != NPUPROF_REC_TASK)
		return 0;
	return write(*(int *)ctx, h, h->size) == h->size ? 0 : -EIO;
}

/* DIR/raw.bin: the task records the kmod drain wrote, read back. */
static int write_raw_kdrain(const char *dir)
{
	char pat[4200], path[4200];
	glob_t g;
	int fd, err = 0;

	snprintf(pat, sizeof(pat), "%s/PROF/device_*/data/npuprof.task.*.slice_0", dir);
	snprintf(path, sizeof(path), "%s/raw.bin", dir);
	if (glob(pat, 0, NULL, &g))
		return -ENOENT;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	for (size_t i = 0; fd >= 0 && !err && i < g.gl_pathc; i++) {
		char *slash = strrchr(g.gl_pathv[i], '/');

		*strrchr(slash, '.') = 0; /* the series: cut ".slice_0" */
		*slash = 0;
		err = npuprof_slice_read_series(g.gl_pathv[i], slash + 1, keep_task, &fd, NULL);
	}
	globfree(&g);
	if (fd < 0)
		return -errno;
	close(fd);
	return err;
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

/* DIR/raw.bin in CHUNK pieces (whole records), to @fn. */
static int for_each_file_chunk(const char *dir, int (*fn)(void *ctx, const void *buf, size_t len),
			       void *ctx)
{
	static uint8_t buf[CHUNK / sizeof(struct npuprof_rec_task) * sizeof(struct npuprof_rec_task)];
	char path[4200];
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/raw.bin", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (!err && (n = read(fd, buf, sizeof(buf))) > 0)
		err = fn(ctx, buf, (size_t)n);
	close(fd);
	return err;
}

/* zstd -1 through the library on DIR/raw.bin: CPU ns per record. */
static double run_zstd(const char *dir, uint64_t records, uint64_t *out_bytes)
{
	struct zstd_run z = { .cctx = ZSTD_createCCtx(), .cap = ZSTD_compressBound(CHUNK) };

	z.out = malloc(z.cap);
	if (!z.cctx || !z.out || for_each_file_chunk(dir, zstd_chunk, &z))
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

/*
 * VM: npuprof.ko fed by npusim's hook, drained on @writer; *@records
 * events fired in, the records drained out.  The baselines run on the
 * io_uring drain's records, read back into DIR/raw.bin.
 */
static double round_kmod(const char *dir, int writer, uint64_t *records, uint64_t *file_bytes)
{
	uint64_t fired = *records, lost = 0;
	double ns = run_kdrain(dir, writer, fired, file_bytes, records, &lost);

	if (ns < 0 || (writer == NPUPROF_WRITER_IO_URING && write_raw_kdrain(dir)))
		return -1;
	printf("writer=%s fired=%llu drained=%llu lost=%llu\n", npuprof_writer_name(writer),
	       (unsigned long long)fired, (unsigned long long)*records, (unsigned long long)lost);
	return ns;
}

/*
 * One drain on @writer, from memory rings or (@kmod) npuprof.ko; *@records
 * asked in, drained out.  Return: CPU ns per record, or -1.
 */
static double one_drain(const char *dir, int writer, bool kmod, uint64_t *records,
			uint64_t *file_bytes)
{
	return kmod ? round_kmod(dir, writer, records, file_bytes)
		    : run_drain(dir, writer, *records, file_bytes);
}

int main(int argc, char **argv)
{
	double drain[MAX_ROUNDS], pw[MAX_ROUNDS], zstd[MAX_ROUNDS], copy[MAX_ROUNDS];
	uint64_t records, file_bytes = 0, pw_bytes = 0, zstd_bytes = 0, n = 0, pw_n = 0;
	bool kmod = argc == 5 && !strcmp(argv[4], "kmod");
	int rounds;

	if (argc != 4 && !kmod) {
		fprintf(stderr, "usage: p3_drain DIR RECORDS ROUNDS [kmod]\n");
		return 2;
	}
	records = strtoull(argv[2], NULL, 0);
	rounds = atoi(argv[3]);
	if (!records || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "p3_drain: RECORDS must be > 0, ROUNDS 1..%d\n", MAX_ROUNDS);
		return 2;
	}
	if (!kmod && write_raw(argv[1], records)) {
		fprintf(stderr, "p3_drain: cannot write %s/raw.bin\n", argv[1]);
		return 1;
	}
	/*
	 * Interleaved, so the machine's load falls on all four alike; the two
	 * writers take turns at going first (a cold page cache, a fresh
	 * directory).
	 */
	for (int r = 0; r < rounds; r++) {
		bool pw_first = r % 2;

		n = pw_n = records;
		pw[r] = drain[r] = 0;
		if (pw_first)
			pw[r] = one_drain(argv[1], NPUPROF_WRITER_PWRITE, kmod, &pw_n, &pw_bytes);
		if (pw[r] >= 0)
			drain[r] = one_drain(argv[1], NPUPROF_WRITER_IO_URING, kmod, &n, &file_bytes);
		if (!pw_first && drain[r] >= 0)
			pw[r] = one_drain(argv[1], NPUPROF_WRITER_PWRITE, kmod, &pw_n, &pw_bytes);
		zstd[r] = drain[r] < 0 || pw[r] < 0 ? -1 : run_zstd(argv[1], n, &zstd_bytes);
		copy[r] = zstd[r] < 0 ? -1 : run_copy(argv[1], n);
		if (drain[r] < 0 || pw[r] < 0 || zstd[r] < 0 || copy[r] < 0)
			return 1;
		printf("round%d drain_ns=%.2f pwrite_ns=%.2f zstd1_ns=%.2f copy_ns=%.2f\n", r,
		       drain[r], pw[r], zstd[r], copy[r]);
	}
	scratch_clean(argv[1]);
	printf("records=%llu\n", (unsigned long long)n);
	printf("raw_bytes_per_rec=%.2f\n", (double)sizeof(struct npuprof_rec_task));
	printf("drain_bytes_per_rec=%.3f\n", (double)file_bytes / (double)n);
	printf("pwrite_bytes_per_rec=%.3f\n", (double)pw_bytes / (double)pw_n);
	printf("zstd1_bytes_per_rec=%.3f\n", (double)zstd_bytes / (double)n);
	printf("drain_ns=%.2f\n", median(drain, rounds));
	printf("pwrite_ns=%.2f\n", median(pw, rounds));
	printf("zstd1_ns=%.2f\n", median(zstd, rounds));
	printf("copy_ns=%.2f\n", median(copy, rounds));
	return 0;
}
