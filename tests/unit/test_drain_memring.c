// SPDX-License-Identifier: MIT
/*
 * Description: the drain, fed by a fake source (two in-memory CPU rings
 * behind an eventfd, CPU 1 without a ring) while a producer thread writes
 * K records over about 300 ms, writes exactly those K records: API records
 * to host/data/npuprof.api, device tasks to device_<id>/data/
 * npuprof.task.<id>, each ring's records in its order, followed in the
 * host series by one LOST record per ring carrying the source's counters.
 * Slices rotate, and each .done holds its slice's size.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "drain_writer.h"
#include "memring.h"
#include "tmpdir.h"
#include <npuprof/drain.h>
#include <npuprof/slice.h>

#define K 20000
#define BATCH 64

struct fake {
	struct memring ring[3]; /* CPUs 0 and 2 only */
	int efd;
	uint64_t fake_lost[3];
};

static long fake_consume(void *obj, npuprof_rec_fn fn, void *ctx)
{
	struct fake *f = obj;
	uint64_t v;
	long total = 0;

	if (read(f->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return -errno;
	for (int cpu = 0; cpu < 3; cpu += 2) {
		long n = npuprof_ring_consume(&f->ring[cpu].view, fn, ctx);

		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

static int fake_stats(void *obj, unsigned int cpu, uint64_t *written, uint64_t *lost)
{
	struct fake *f = obj;

	if (cpu == 1 || cpu > 2)
		return -ENXIO;
	*written = __atomic_load_n(&f->ring[cpu].prod.written, __ATOMIC_RELAXED);
	*lost = f->fake_lost[cpu];
	return 0;
}

/* Record i: API when i % 3 == 0, else a task of device i % 3 - 1, on CPU
 * ring (i % 2) * 2; ts = i. */
union rec {
	struct npuprof_rec_api a;
	struct npuprof_rec_task t;
};

static void make(uint64_t i, union rec *r)
{
	memset(r, 0, sizeof(*r));
	if (i % 3 == 0) {
		r->a.hdr = (struct npuprof_rec_hdr){ NPUPROF_REC_API, sizeof(r->a), 0, i };
		r->a.pid = 1000 + (uint32_t)(i % 7);
		r->a.api = 1 + (uint16_t)(i % 19);
		r->a.bytes = i * 3;
	} else {
		r->t.hdr = (struct npuprof_rec_hdr){ NPUPROF_REC_TASK, sizeof(r->t), 0, i };
		r->t.device = (uint32_t)(i % 3 - 1);
		r->t.task_id = (uint32_t)i;
		r->t.arg = i * 5;
	}
	r->a.hdr.cpu = (uint32_t)(i % 2) * 2;
}

static void *producer(void *arg)
{
	struct fake *f = arg;
	uint64_t one = 1;

	for (uint64_t i = 0; i < K; i++) {
		union rec r;

		make(i, &r);
		/* This producer waits for room so the count is exact; the ring's
		 * own lost counter is not what fake_stats reports. */
		while (memring_write(&f->ring[r.a.hdr.cpu], &r.a.hdr))
			usleep(100);
		if (i % BATCH == BATCH - 1) {
			(void)!write(f->efd, &one, sizeof(one));
			usleep(1000);
		}
	}
	(void)!write(f->efd, &one, sizeof(one));
	return NULL;
}

struct readback {
	uint8_t seen[K];
	uint64_t last_ts[3]; /* per CPU, +1 */
	uint64_t count, hdrs, bad, lost_recs;
	long device; /* series being read: -1 host */
	struct npuprof_rec_lost lost[2];
};

static int check_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct readback *rb = ctx;
	union rec want;

	if (rec->type == NPUPROF_REC_STREAM_HDR) {
		rb->hdrs++;
		return 0;
	}
	if (rec->type == NPUPROF_REC_LOST) {
		if (rb->device != -1 || rb->lost_recs >= 2)
			rb->bad++;
		else
			rb->lost[rb->lost_recs] = *(const struct npuprof_rec_lost *)rec;
		rb->lost_recs++;
		return 0;
	}
	if (rec->ts >= K || rb->seen[rec->ts] || (rb->device == -1 && rb->lost_recs)) {
		rb->bad++;
		return 0;
	}
	make(rec->ts, &want);
	if (rec->size != want.a.hdr.size || memcmp(rec, &want, rec->size) ||
	    (rec->type == NPUPROF_REC_API) != (rb->device == -1) ||
	    (rec->type == NPUPROF_REC_TASK && want.t.device != rb->device) ||
	    rec->ts + 1 <= rb->last_ts[rec->cpu])
		rb->bad++;
	rb->last_ts[rec->cpu] = rec->ts + 1;
	rb->seen[rec->ts] = 1;
	rb->count++;
	return 0;
}

/* Sum of slice sizes of a series, each checked against its .done file. */
static uint64_t series_bytes(const char *dir, const char *series, uint64_t slices)
{
	uint64_t sum = 0;

	for (uint64_t i = 0; i < slices; i++) {
		char path[700];
		long long done = -1;
		struct stat sb;
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.slice_%llu", dir, series, (unsigned long long)i);
		CHECK_EQ(stat(path, &sb), 0);
		strcat(path, ".done");
		f = fopen(path, "r");
		CHECK(f != NULL);
		if (f && fscanf(f, "filesize:%lld", &done) != 1)
			done = -1;
		if (f)
			fclose(f);
		CHECK_EQ(done, sb.st_size);
		sum += (uint64_t)sb.st_size;
	}
	return sum;
}

static uint64_t read_series(const char *prof, const char *sub, const char *series,
			    long device, struct readback *rb, uint64_t *bytes)
{
	char dir[600];
	struct npuprof_read_report rep;
	uint64_t before = rb->count;

	snprintf(dir, sizeof(dir), "%s/%s", prof, sub);
	rb->device = device;
	memset(rb->last_ts, 0, sizeof(rb->last_ts));
	CHECK_EQ(npuprof_slice_read_series(dir, series, check_rec, rb, &rep), 0);
	CHECK_EQ(rep.truncated_bytes, 0);
	CHECK(rep.slices >= 2); /* rotated at least once */
	*bytes += series_bytes(dir, series, rep.slices);
	return rb->count - before;
}

int main(void)
{
	static struct fake f = { .fake_lost = { 3, 0, 5 } };
	static struct readback rb;
	char prof[] = "/tmp/npuprof-drain-XXXXXX";
	struct npuprof_drain_source src = { .name = "fake", .source = NPUPROF_SRC_KMOD,
					    .nr_cpus = 3, .obj = &f, .consume = fake_consume,
					    .stats = fake_stats };
	/* small slices (the block encoding packs these records below a byte)
	 * and frames closed every tick: slices rotate within the 300 ms */
	struct npuprof_drain_config cfg = { .prof_dir = prof, .slice_bytes = 2048,
					    .flush_ms = 20, .frame_ms = 20 };
	struct npuprof_drain_stats st;
	struct npuprof_drain *d;
	struct stat sb;
	uint64_t bytes = 0;
	pthread_t thr;

	if (!mkdtemp(prof))
		CHECK_SKIP("no temp dir");
	CHECK_EQ(memring_init(&f.ring[0], 16384, 0), 0);
	CHECK_EQ(memring_init(&f.ring[2], 16384, 2), 0);
	f.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	src.fd = f.efd;
	CHECK_EQ(npuprof_drain_start(&cfg, &src, 1, &d), 0);
	CHECK_EQ(pthread_create(&thr, NULL, producer, &f), 0);
	pthread_join(thr, NULL);
	CHECK_EQ(npuprof_drain_stop(d, &st, NULL), 0);
	CHECK_EQ(st.writer, test_drain_writer());

	CHECK_EQ(st.records, K);
	CHECK_EQ(st.api_records, (K + 2) / 3);
	CHECK_EQ(st.task_records, K - (K + 2) / 3);
	CHECK_EQ(st.lost, 8);
	CHECK_EQ(st.write_error, 0);

	CHECK_EQ(read_series(prof, "host/data", "npuprof.api", -1, &rb, &bytes), (K + 2) / 3);
	CHECK_EQ(read_series(prof, "device_0/data", "npuprof.task.0", 0, &rb, &bytes), (K + 1) / 3);
	CHECK_EQ(read_series(prof, "device_1/data", "npuprof.task.1", 1, &rb, &bytes), K / 3);
	CHECK_EQ(rb.count, K);
	CHECK_EQ(rb.bad, 0);
	CHECK_EQ(bytes, st.file_bytes);
	CHECK(stat(prof, &sb) == 0);

	CHECK_EQ(rb.lost_recs, 2);
	CHECK_EQ(rb.lost[0].cpu, 0);
	CHECK_EQ(rb.lost[0].hdr.cpu, 0);
	CHECK_EQ(rb.lost[0].source, NPUPROF_SRC_KMOD);
	CHECK_EQ(rb.lost[0].written, K / 2);
	CHECK_EQ(rb.lost[0].lost, 3);
	CHECK_EQ(rb.lost[1].cpu, 2);
	CHECK_EQ(rb.lost[1].written, K / 2);
	CHECK_EQ(rb.lost[1].lost, 5);

	if (!check_failures)
		tmpdir_remove(prof);
	else
		fprintf(stderr, "output kept in %s\n", prof);
	memring_free(&f.ring[0]);
	memring_free(&f.ring[2]);
	return CHECK_DONE();
}
