// SPDX-License-Identifier: MIT
/*
 * Description: records whose slice series cannot be created are counted
 * as dropped, never as saved.  The PROF directory holds a plain file named
 * device_1, so device_1/data cannot be made; of 90 records (30 API, 30
 * tasks of device 0, 30 of device 1) the drain reports records 60,
 * api_records 30, task_records 30, dropped 30, raw_bytes of the 60 only,
 * write_error -ENOTDIR, and the two good series read back whole.  The 30
 * are lost to a write error, all of CPU 0: loss {0, 30, 0} in the totals
 * and in the per-CPU table (2 entries, CPU 1 empty).
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "check.h"
#include "drain_writer.h"
#include "memring.h"
#include "tmpdir.h"
#include <npuprof/drain.h>
#include <npuprof/slice.h>

#define N 90


static int fake_stats(void *obj, unsigned int cpu, uint64_t *written, uint64_t *lost)
{
	struct memring_src *f = obj;

	if (cpu != 0)
		return -ENXIO;
	*written = f->ring.prod.written;
	*lost = 0;
	return 0;
}

/* Record i: API when i % 3 == 0, else a task of device i % 3 - 1; ts = i. */
static void produce(struct memring *m)
{
	for (uint64_t i = 0; i < N; i++) {
		union {
			struct npuprof_rec_api a;
			struct npuprof_rec_task t;
		} r;

		memset(&r, 0, sizeof(r));
		if (i % 3 == 0) {
			r.a.hdr = (struct npuprof_rec_hdr){ NPUPROF_REC_API, sizeof(r.a), 0, i };
		} else {
			r.t.hdr = (struct npuprof_rec_hdr){ NPUPROF_REC_TASK, sizeof(r.t), 0, i };
			r.t.device = (uint32_t)(i % 3 - 1);
		}
		CHECK_EQ(memring_write(m, &r.a.hdr), 0);
	}
}

struct tally {
	uint64_t api, task, lost, other;
};

static int count_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct tally *t = ctx;

	if (rec->type == NPUPROF_REC_API && rec->ts % 3 == 0)
		t->api++;
	else if (rec->type == NPUPROF_REC_TASK && rec->ts % 3 == 1)
		t->task++;
	else if (rec->type == NPUPROF_REC_LOST)
		t->lost++;
	else if (rec->type != NPUPROF_REC_STREAM_HDR)
		t->other++;
	return 0;
}

int main(void)
{
	static struct memring_src f;
	char prof[] = "/tmp/npuprof-dropped-XXXXXX";
	char path[600];
	struct npuprof_drain_source src = { .name = "fake", .source = NPUPROF_SRC_KMOD,
					    .nr_cpus = 1, .obj = &f, .consume = memring_src_consume,
					    .stats = fake_stats };
	struct npuprof_loss cpu_loss[2];
	struct npuprof_drain_config cfg = { .prof_dir = prof, .flush_ms = 20,
					    .cpu_loss = cpu_loss, .nr_cpu_loss = 2 };
	struct npuprof_drain_stats st;
	struct npuprof_drain *d;
	struct tally t = { 0 };
	uint64_t one = 1;
	int fd;

	if (!mkdtemp(prof))
		CHECK_SKIP("no temp dir");
	snprintf(path, sizeof(path), "%s/device_1", prof);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0640);
	CHECK(fd >= 0);
	close(fd);
	CHECK_EQ(memring_init(&f.ring, 16384, 0), 0);
	produce(&f.ring);
	f.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	src.fd = f.efd;
	CHECK_EQ(write(f.efd, &one, sizeof(one)), sizeof(one));
	CHECK_EQ(npuprof_drain_start(&cfg, &src, 1, &d), 0);
	CHECK_EQ(npuprof_drain_stop(d, &st, NULL), -ENOTDIR);
	CHECK_EQ(st.writer, test_drain_writer());

	CHECK_EQ(st.records, 60);
	CHECK_EQ(st.api_records, 30);
	CHECK_EQ(st.task_records, 30);
	CHECK_EQ(st.dropped, 30);
	CHECK_EQ(st.raw_bytes, 30 * sizeof(struct npuprof_rec_api) +
				       30 * sizeof(struct npuprof_rec_task));
	CHECK_EQ(st.skipped_bytes, 0);
	CHECK_EQ(st.write_error, -ENOTDIR);
	CHECK_EQ(f.ring.cons.consumer_pos, f.ring.prod.producer_pos);
	CHECK_EQ(st.loss.n[NPUPROF_LOSS_RING_FULL], 0);
	CHECK_EQ(st.loss.n[NPUPROF_LOSS_WRITE_ERROR], 30);
	CHECK_EQ(st.loss.n[NPUPROF_LOSS_DECODE_ERROR], 0);
	CHECK_EQ(cpu_loss[0].cpu, 0);
	CHECK_EQ(cpu_loss[0].n[NPUPROF_LOSS_WRITE_ERROR], 30);
	CHECK_EQ(npuprof_loss_total(&cpu_loss[0]), 30);
	CHECK_EQ(cpu_loss[1].cpu, 1);
	CHECK_EQ(npuprof_loss_total(&cpu_loss[1]), 0);

	snprintf(path, sizeof(path), "%s/host/data", prof);
	CHECK_EQ(npuprof_slice_read_series(path, "npuprof.api", count_rec, &t, NULL), 0);
	snprintf(path, sizeof(path), "%s/device_0/data", prof);
	CHECK_EQ(npuprof_slice_read_series(path, "npuprof.task.0", count_rec, &t, NULL), 0);
	CHECK_EQ(t.api, 30);
	CHECK_EQ(t.task, 30);
	CHECK_EQ(t.lost, 1);
	CHECK_EQ(t.other, 0);

	if (!check_failures)
		tmpdir_remove(prof);
	else
		fprintf(stderr, "output kept in %s\n", prof);
	memring_free(&f.ring);
	return CHECK_DONE();
}
