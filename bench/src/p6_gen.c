// SPDX-License-Identifier: MIT
/*
 * P6's input: a synthetic PROF_XXX directory of a chosen number of records,
 * in the real layout and written through the drain's own slice writer
 * (user/slice_writer.c), for timing msprof --export=on at sizes no test VM
 * run produces.
 *
 *   p6_gen --records N --out DIR [--threads T] [--cpus C] [--devices D]
 *          [--streams S] [--no-clock-samples] [--seed X]
 *
 * Writes DIR/PROF_000001_<date>_<pid>GENERATE/ with host/{start_info,
 * end_info, info.json, sample.json}, host/data/npuprof.api.slice_*, and
 * device_<d>/data/npuprof.task.<d>.slice_* (.done files by the writer), and
 * prints its path.  The same arguments give the same bytes.
 *
 * The workload: T host threads, thread i driving device i % D.  Each
 * thread launches kernels (aclrtLaunchKernel, every 4th inside an
 * aclopExecuteV2 of the same op), copies (aclrtMemcpyAsync) and
 * synchronizes (aclrtSynchronizeStream, with its STREAM_SYNC record)
 * round-robin over S streams of its device.  Every launch and copy has a
 * SUBMIT inside its API call on the caller's thread, and a START and END
 * from the device's interrupt CPU, with device counts of a 50 MHz clock
 * drifting by 20 ppm and host tracepoint times a few us late.
 *
 * Records reach the series as the drain writes them: API records when the
 * call returns (hdr.ts is the entry), task records when their tracepoint
 * fires, and every 10 ms of simulated time one read of each CPU's ring
 * in turn (CPU 0's records, then CPU 1's, ...) and one zstd frame per
 * series.  So a series is in time order per CPU, not globally, as in a
 * real capture; threads move to another CPU now and then.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <npuprof/record.h>

#include "../../user/slice_writer.h"

#define GEN_PID 4242u
#define GEN_MONO0 1000000000000ull	  /* CLOCK_MONOTONIC ns at the window start */
#define GEN_WALL0_US 1796058739975948ull /* wall clock us at the same instant */
#define GEN_DEV0 123710053838ull	  /* device count at the window start */
#define GEN_DEV_HZ 50000000.0		  /* nominal device clock */
#define GEN_DRIFT 20e-6			  /* device clock runs 20 ppm fast */
#define GEN_TICK_NS 10000000ull		  /* one drain read every 10 ms */
#define GEN_MAX_DEV 8
#define GEN_MAX_THREADS 64
#define GEN_MAX_CPUS 64
#define GEN_MAX_STREAMS 16

/* One record waiting for its drain tick: @vis is when it reaches the ring. */
struct pend {
	uint64_t vis;
	uint64_t seq;
	uint32_t cpu;
	union {
		struct npuprof_rec_hdr hdr;
		struct npuprof_rec_api api;
		struct npuprof_rec_task task;
	} r;
};

struct pend_q {
	struct pend *v;
	size_t n, cap;
};

struct thread {
	uint32_t tid;
	uint32_t cpu;
	uint32_t device;
	uint64_t clock; /* host ns: when its next call starts */
	uint64_t ops;
	uint32_t next_stream;
};

struct gen {
	uint64_t want, made, seq;
	unsigned int threads, cpus, devices, streams;
	int clock_samples;
	uint64_t rng;
	struct thread th[GEN_MAX_THREADS];
	uint64_t busy[GEN_MAX_DEV][GEN_MAX_STREAMS]; /* stream busy until, host ns */
	uint32_t task_id[GEN_MAX_DEV];
	uint64_t written[2][GEN_MAX_CPUS];	     /* [kmod, bpf] records per ring */
	struct pend_q host_q, dev_q[GEN_MAX_DEV];
	struct io_engine *io;
	struct slice_writer *host_w, *dev_w[GEN_MAX_DEV];
	uint64_t end_ns;
};

static const char *const kernels[] = {
	"MatMul",      "Add",	   "Mul",	"Conv2D",   "Relu",	"Softmax",
	"LayerNorm",   "Gelu",	   "Transpose", "Cast",	    "ReduceSum", "BatchMatMul",
	"FlashAttention", "RmsNorm", "RotaryEmb", "AllReduce", "Slice",	"Concat",
	"Gather",      "ScatterNd", "Sub",	"Div",	    "Sqrt",	"Exp",
};

#define NR_KERNELS (sizeof(kernels) / sizeof(kernels[0]))

static uint64_t rnd(struct gen *g, uint64_t n)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 7;
	g->rng ^= g->rng << 17;
	return g->rng % n;
}

/* Device count at true host time @ns. */
static uint64_t dev_count(uint64_t ns)
{
	double s = (double)(ns - GEN_MONO0) / 1e9;

	return GEN_DEV0 + (uint64_t)(s * GEN_DEV_HZ * (1.0 + GEN_DRIFT));
}

static int push(struct pend_q *q, const struct pend *p)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 4096;
		struct pend *v = realloc(q->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		q->v = v;
		q->cap = cap;
	}
	q->v[q->n++] = *p;
	return 0;
}

static int cmp_pend(const void *pa, const void *pb)
{
	const struct pend *a = pa, *b = pb;

	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	if (a->vis != b->vis)
		return a->vis < b->vis ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

static int any_busy(struct gen *g)
{
	int busy = slice_writer_busy(g->host_w);

	for (unsigned int d = 0; d < g->devices; d++)
		busy |= slice_writer_busy(g->dev_w[d]);
	return busy;
}

/* Complete every write queued so far (the generator waits; the drain would not). */
static int reap(struct gen *g)
{
	struct io_engine_cqe cqe;
	int err;

	while (io_engine_peek(g->io, &cqe))
		slice_writer_handle_cqe(&cqe);
	while (any_busy(g)) {
		/* submits frames queued while the engine was full */
		err = io_engine_wait(g->io, -1);
		if (err)
			return err;
		while (io_engine_peek(g->io, &cqe))
			slice_writer_handle_cqe(&cqe);
	}
	return 0;
}

/*
 * One drain read: the records of @q visible by @upto, CPU by CPU, each in
 * its ring's order, then one frame.  The rest stay queued.
 */
static int drain_q(struct pend_q *q, struct slice_writer *w, uint64_t upto)
{
	size_t i, keep = 0;
	int err = 0;

	qsort(q->v, q->n, sizeof(*q->v), cmp_pend);
	for (i = 0; i < q->n; i++) {
		if (q->v[i].vis > upto) {
			q->v[keep++] = q->v[i];
			continue;
		}
		if (!err)
			err = slice_writer_append(w, &q->v[i].r.hdr);
	}
	q->n = keep;
	if (!err)
		err = slice_writer_flush(w);
	return err == -EBUSY ? 0 : err;
}

static int drain_tick(struct gen *g, uint64_t upto)
{
	int err = drain_q(&g->host_q, g->host_w, upto);

	for (unsigned int d = 0; !err && d < g->devices; d++)
		err = drain_q(&g->dev_q[d], g->dev_w[d], upto);
	if (!err)
		err = reap(g);
	return err;
}

static int add_api(struct gen *g, struct thread *t, uint16_t api, uint64_t entry, uint64_t exit,
		   uint32_t stream, const char *name, uint64_t bytes)
{
	struct pend p = { .vis = exit, .seq = g->seq++, .cpu = t->cpu };
	struct npuprof_rec_api *r = &p.r.api;

	r->hdr = (struct npuprof_rec_hdr){ NPUPROF_REC_API, sizeof(*r), t->cpu, entry };
	r->exit_ts = exit;
	r->pid = GEN_PID;
	r->tid = t->tid;
	r->api = api;
	r->device = (int32_t)t->device;
	r->kind = api == NPUPROF_API_RT_MEMCPY_ASYNC ? 1 : 0;
	r->stream = stream ? 0x7f0000001000ull + stream * 0x100ull : 0;
	r->bytes = bytes;
	r->handle = api == NPUPROF_API_RT_LAUNCH_KERNEL ? 0x5500000000ull + name[0] * 64ull : 0;
	if (name)
		memcpy(r->name, name, strnlen(name, sizeof(r->name)));
	g->written[1][t->cpu]++;
	g->made++;
	return push(&g->host_q, &p);
}

static int add_task(struct gen *g, struct thread *t, uint16_t event, uint32_t cpu, uint64_t ts,
		    uint64_t dev_ts, uint32_t stream, uint32_t task_id, uint16_t type,
		    uint64_t arg, const char *name)
{
	struct pend p = { .vis = ts, .seq = g->seq++, .cpu = cpu };
	struct npuprof_rec_task *r = &p.r.task;

	r->hdr = (struct npuprof_rec_hdr){ NPUPROF_REC_TASK, sizeof(*r), cpu, ts };
	r->dev_ts = dev_ts;
	r->pid = GEN_PID;
	r->tid = t->tid;
	r->device = t->device;
	r->stream = stream;
	r->task_id = task_id;
	r->event = event;
	r->task_type = type;
	r->arg = arg;
	if (name)
		memcpy(r->name, name, strnlen(name, sizeof(r->name)));
	g->written[0][cpu]++;
	g->made++;
	return push(&g->dev_q[t->device], &p);
}

/* SUBMIT at @submit, then START and END once the stream is free. */
static int add_device_task(struct gen *g, struct thread *t, uint32_t stream, uint64_t submit,
			   uint16_t type, uint64_t dur, uint64_t arg, const char *name)
{
	uint32_t irq_cpu = (t->device * 2 + 1) % g->cpus, id = ++g->task_id[t->device];
	uint64_t *busy = &g->busy[t->device][stream];
	uint64_t start = submit + 2000 + rnd(g, 1000), end;
	int err;

	if (start < *busy + 200)
		start = *busy + 200;
	end = start + dur;
	*busy = end;
	if (end > g->end_ns)
		g->end_ns = end;
	err = add_task(g, t, NPUPROF_TASK_SUBMIT, t->cpu, submit, 0, stream, id, type, arg, name);
	if (!err)
		err = add_task(g, t, NPUPROF_TASK_START, irq_cpu, start + 1500 + rnd(g, 3000),
			       dev_count(start), stream, id, type, arg, name);
	if (!err)
		err = add_task(g, t, NPUPROF_TASK_END, irq_cpu, end + 1500 + rnd(g, 3000),
			       dev_count(end), stream, id, type, arg, name);
	return err;
}

/* aclrtLaunchKernel of a kernel, every 4th inside aclopExecuteV2. */
static int op_launch(struct gen *g, struct thread *t, uint32_t stream)
{
	const char *k = kernels[rnd(g, NR_KERNELS)];
	int wrap = t->ops % 4 == 3;
	uint64_t entry = t->clock + (wrap ? 400 : 0), exit = entry + 1200 + rnd(g, 800);
	uint64_t dur = 3000 + rnd(g, 40000);
	int err;

	err = add_api(g, t, NPUPROF_API_RT_LAUNCH_KERNEL, entry, exit, stream, k, 0);
	if (!err && wrap)
		err = add_api(g, t, NPUPROF_API_OP_EXECUTE_V2, t->clock, exit + 300, stream, k, 0);
	if (!err)
		err = add_device_task(g, t, stream, entry + 700, NPUPROF_TT_KERNEL, dur, dur, k);
	t->clock = exit + (wrap ? 300 : 0) + 500 + rnd(g, 2000);
	return err;
}

static int op_memcpy(struct gen *g, struct thread *t, uint32_t stream)
{
	uint64_t bytes = (1 + rnd(g, 64)) << 16, entry = t->clock, exit = entry + 2000 + rnd(g, 1000);
	int err;

	err = add_api(g, t, NPUPROF_API_RT_MEMCPY_ASYNC, entry, exit, stream, NULL, bytes);
	if (!err)
		err = add_device_task(g, t, stream, entry + 900, NPUPROF_TT_MEMCPY, bytes / 20,
				      bytes, NULL);
	t->clock = exit + 500 + rnd(g, 1000);
	return err;
}

/* aclrtSynchronizeStream: returns when the stream ran dry. */
static int op_sync(struct gen *g, struct thread *t, uint32_t stream)
{
	uint64_t entry = t->clock, done = g->busy[t->device][stream] + 3000, exit;
	int err;

	exit = done > entry + 1000 ? done : entry + 1000;
	err = add_api(g, t, NPUPROF_API_RT_SYNC_STREAM, entry, exit, stream, NULL, 0);
	if (!err)
		err = add_task(g, t, NPUPROF_TASK_STREAM_SYNC, t->cpu, exit - 500, 0, stream, 0,
			       NPUPROF_TT_SYNC, exit - 500 - entry, NULL);
	t->clock = exit + 1000 + rnd(g, 3000);
	return err;
}

static int step(struct gen *g, struct thread *t)
{
	uint32_t stream = t->next_stream;
	int err;

	t->next_stream = (t->next_stream + 1) % g->streams;
	if (t->ops % 32 == 31)
		err = op_sync(g, t, stream);
	else if (t->ops % 8 == 7)
		err = op_memcpy(g, t, stream);
	else
		err = op_launch(g, t, stream);
	if (++t->ops % 1000 == 0)
		t->cpu = (uint32_t)rnd(g, g->cpus); /* the scheduler moved it */
	if (t->clock > g->end_ns)
		g->end_ns = t->clock;
	return err;
}

static struct thread *earliest(struct gen *g)
{
	struct thread *t = &g->th[0];

	for (unsigned int i = 1; i < g->threads; i++)
		if (g->th[i].clock < t->clock)
			t = &g->th[i];
	return t;
}

static int generate(struct gen *g)
{
	uint64_t tick = GEN_MONO0 + GEN_TICK_NS;
	int err = 0;

	while (!err && g->made < g->want) {
		struct thread *t = earliest(g);

		while (!err && t->clock > tick) { /* nothing earlier can come any more */
			err = drain_tick(g, tick);
			tick += GEN_TICK_NS;
		}
		if (!err)
			err = step(g, t);
	}
	if (!err)
		err = drain_tick(g, UINT64_MAX); /* what is still in the rings at stop */
	return err;
}

/* At stop the drain writes one LOST record per ring into the host series. */
static int write_lost(struct gen *g)
{
	static const uint32_t src[2] = { NPUPROF_SRC_KMOD, NPUPROF_SRC_BPF };
	int err = 0;

	for (int s = 0; s < 2; s++) {
		for (uint32_t cpu = 0; !err && cpu < g->cpus; cpu++) {
			struct npuprof_rec_lost r = {
				.hdr = { NPUPROF_REC_LOST, sizeof(r), cpu, g->end_ns + 1000 },
				.source = src[s],
				.cpu = cpu,
				.written = g->written[s][cpu],
			};

			err = slice_writer_append(g->host_w, &r.hdr);
		}
	}
	return err;
}

static int join(const char *a, const char *b, char *out, size_t size)
{
	return snprintf(out, size, "%s/%s", a, b) >= (int)size ? -ENAMETOOLONG : 0;
}

static int write_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;
	int err;

	if (join(dir, name, path, sizeof(path)))
		return -ENAMETOOLONG;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	err = ferror(f) ? -EIO : 0;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/* start_info, end_info, sample.json: as the collector writes them. */
static int write_control(struct gen *g, const char *host)
{
	char buf[1024];
	uint64_t end = g->end_ns + 2000000, end_us = GEN_WALL0_US + (end - GEN_MONO0) / 1000;
	int err;

	snprintf(buf, sizeof(buf),
		 "{\n  \"clockMonotonic\": %llu,\n  \"clockMonotonicEnabled\": %llu,\n"
		 "  \"clockMonotonicRaw\": %llu,\n  \"collectionDateBegin\": \"2026-11-30 17:12:19\",\n"
		 "  \"collectionTimeBegin\": \"%llu\"\n}\n",
		 (unsigned long long)GEN_MONO0, (unsigned long long)GEN_MONO0 - 15000000,
		 (unsigned long long)GEN_MONO0 + 60000, (unsigned long long)GEN_WALL0_US);
	err = write_file(host, "start_info", buf);
	snprintf(buf, sizeof(buf),
		 "{\n  \"clockMonotonic\": %llu,\n  \"clockMonotonicDisabled\": %llu,\n"
		 "  \"clockMonotonicRaw\": %llu,\n  \"collectionDateEnd\": \"2026-11-30 17:12:23\",\n"
		 "  \"collectionTimeEnd\": \"%llu\"\n}\n",
		 (unsigned long long)end, (unsigned long long)end + 30000000,
		 (unsigned long long)end + 14000, (unsigned long long)end_us);
	if (!err)
		err = write_file(host, "end_info", buf);
	if (!err)
		err = write_file(host, "sample.json",
				 "{\n  \"acl\": \"on\",\n  \"devices\": \"all\",\n  \"msprofBinPid\": 4200,\n"
				 "  \"prof_level\": \"l1\",\n  \"profiling_mode\": \"dynamic\",\n"
				 "  \"result_dir\": \"/tmp\",\n  \"runtimeApi\": \"off\",\n"
				 "  \"storageLimit\": \"\",\n  \"taskTime\": \"on\"\n}\n");
	return err;
}

/* Three clock reads at the start and three at the end, per device. */
static void print_samples(struct gen *g, FILE *f)
{
	static const uint64_t at[] = { 600000, 840000, 880000 };

	fprintf(f, "  \"clockSamples\": [");
	for (unsigned int d = 0; g->clock_samples && d < g->devices; d++) {
		fprintf(f, "%s\n    {\"device\": %u, \"samples\": [", d ? "," : "", d);
		for (int i = 0; i < 6; i++) {
			uint64_t ns = i < 3 ? GEN_MONO0 + at[i] + d * 300000 : g->end_ns + at[i - 3];

			fprintf(f, "%s{\"deviceCount\": %llu, \"hostMonotonicNs\": %llu}",
				i ? ", " : "", (unsigned long long)dev_count(ns),
				(unsigned long long)ns);
		}
		fprintf(f, "]}");
	}
	fprintf(f, "\n  ],\n");
}

static void print_rings(struct gen *g, FILE *f)
{
	static const char *const name[2] = { "npuprof.ko", "bpf" };

	fprintf(f, "  \"rings\": {");
	for (int s = 0; s < 2; s++) {
		fprintf(f, "%s\n    \"%s\": [", s ? "," : "", name[s]);
		for (unsigned int c = 0; c < g->cpus; c++)
			fprintf(f, "%s{\"cpu\": %u, \"lost\": 0, \"written\": %llu}", c ? ", " : "",
				c, (unsigned long long)g->written[s][c]);
		fprintf(f, "]");
	}
	fprintf(f, "\n  }\n");
}

static int write_info(struct gen *g, const char *host)
{
	char path[4096];
	FILE *f;
	int err;

	if (join(host, "info.json", path, sizeof(path)))
		return -ENAMETOOLONG;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "{\n");
	print_samples(g, f);
	fprintf(f, "  \"devices\": [");
	for (unsigned int d = 0; d < g->devices; d++)
		fprintf(f, "%s%u", d ? ", " : "", d);
	fprintf(f, "],\n  \"drain\": {\"dropped\": 0, \"records\": %llu, \"write_error\": 0},\n",
		(unsigned long long)g->made);
	fprintf(f, "  \"hostname\": \"p6-gen\",\n  \"lost\": {\"byCpu\": [], \"decode_error\": 0, "
		   "\"ring_full\": 0, \"total\": 0, \"write_error\": 0},\n");
	fprintf(f, "  \"pid\": %u,\n  \"pid_name\": \"p6_gen\",\n  \"platform_version\": \"npusim\",\n"
		   "  \"rank\": 0,\n  \"record_version\": %d,\n", GEN_PID, NPUPROF_RECORD_VERSION);
	print_rings(g, f);
	fprintf(f, "}\n");
	err = ferror(f) ? -EIO : 0;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

static int mkdirs(const char *a, const char *b, char *out, size_t size)
{
	if (join(a, b, out, size))
		return -ENAMETOOLONG;
	if (mkdir(out, 0750) && errno != EEXIST)
		return -errno;
	return 0;
}

static int open_writers(struct gen *g, const char *prof)
{
	struct slice_writer_cfg cfg = { .slice_bytes = 16ull << 20, .zstd_level = 3 };
	char host[4096], data[4096], dev[4096], series[64];
	int err;

	err = mkdirs(prof, "host", host, sizeof(host));
	if (!err)
		err = mkdirs(host, "data", data, sizeof(data));
	cfg.dir = data;
	cfg.series = "npuprof.api";
	cfg.source = NPUPROF_SRC_BPF;
	cfg.device = -1;
	if (!err)
		err = slice_writer_open(g->io, &cfg, &g->host_w);
	for (unsigned int d = 0; !err && d < g->devices; d++) {
		snprintf(series, sizeof(series), "device_%u", d);
		err = mkdirs(prof, series, dev, sizeof(dev));
		if (!err)
			err = mkdirs(dev, "data", data, sizeof(data));
		snprintf(series, sizeof(series), "npuprof.task.%u", d);
		cfg.series = series;
		cfg.source = NPUPROF_SRC_KMOD;
		cfg.device = (int)d;
		if (!err)
			err = slice_writer_open(g->io, &cfg, &g->dev_w[d]);
	}
	return err;
}

static int close_writers(struct gen *g)
{
	int err = slice_writer_close(g->host_w, NULL);

	for (unsigned int d = 0; d < g->devices; d++) {
		int e = slice_writer_close(g->dev_w[d], NULL);

		err = err ? err : e;
	}
	return err;
}

static void usage(void)
{
	fprintf(stderr, "usage: p6_gen --records N --out DIR [--threads T] [--cpus C] [--devices D] [--streams S] [--no-clock-samples] [--seed X]\n");
	exit(2);
}

static void parse(struct gen *g, int argc, char **argv, const char **out)
{
	static const struct option opts[] = {
		{ "records", 1, NULL, 'n' }, { "out", 1, NULL, 'o' },	{ "threads", 1, NULL, 't' },
		{ "cpus", 1, NULL, 'c' },    { "devices", 1, NULL, 'd' }, { "streams", 1, NULL, 's' },
		{ "seed", 1, NULL, 'r' },    { "no-clock-samples", 0, NULL, 'x' }, { 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n': g->want = strtoull(optarg, NULL, 0); break;
		case 'o': *out = optarg; break;
		case 't': g->threads = (unsigned int)atoi(optarg); break;
		case 'c': g->cpus = (unsigned int)atoi(optarg); break;
		case 'd': g->devices = (unsigned int)atoi(optarg); break;
		case 's': g->streams = (unsigned int)atoi(optarg); break;
		case 'r': g->rng = strtoull(optarg, NULL, 0) | 1; break;
		case 'x': g->clock_samples = 0; break;
		default: usage();
		}
	}
	if (!*out || !g->want || !g->threads || g->threads > GEN_MAX_THREADS || !g->cpus ||
	    g->cpus > GEN_MAX_CPUS || !g->devices || g->devices > GEN_MAX_DEV || !g->streams ||
	    g->streams > GEN_MAX_STREAMS)
		usage();
}

int main(int argc, char **argv)
{
	static struct gen g = { .threads = 8, .cpus = 4, .devices = 2, .streams = 4,
				.clock_samples = 1, .rng = 0x9e3779b97f4a7c15ull };
	char prof[4096], host[4096];
	const char *out = NULL;
	int err;

	parse(&g, argc, argv, &out);
	for (unsigned int i = 0; i < g.threads; i++)
		g.th[i] = (struct thread){ .tid = GEN_PID + 1 + i, .cpu = i % g.cpus,
					   .device = i % g.devices, .clock = GEN_MONO0 + 1000000 + i * 777 };
	if (snprintf(prof, sizeof(prof), "%s/PROF_000001_20261130171219285_%08uGENERATE", out,
		     GEN_PID) >= (int)sizeof(prof))
		errno = ENAMETOOLONG;
	else if (!mkdir(prof, 0750) || errno == EEXIST)
		errno = 0;
	if (errno) {
		fprintf(stderr, "p6_gen: %s: %s\n", prof, strerror(errno));
		return 1;
	}
	err = io_engine_open(IO_ENGINE_URING, 64, &g.io);
	if (!err)
		err = open_writers(&g, prof);
	if (!err)
		err = generate(&g);
	if (!err)
		err = write_lost(&g);
	if (!err)
		err = close_writers(&g);
	if (!err)
		err = join(prof, "host", host, sizeof(host));
	if (!err)
		err = write_control(&g, host);
	if (!err)
		err = write_info(&g, host);
	if (err) {
		fprintf(stderr, "p6_gen: writing %s: %s\n", prof, strerror(-err));
		return 1;
	}
	printf("%s\n", prof);
	return 0;
}
