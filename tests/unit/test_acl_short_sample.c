// SPDX-License-Identifier: MIT
/*
 * Description: a BPF ring buffer sample too short to be a record is never
 * dropped silently.  The ring buffer reader's callback of the runtime-API
 * capture (acl_trace_on_sample(), user/acl_trace.c) is fed, on CPU 1's
 * ring, a whole task record (32 bytes), a 6-byte sample (shorter than a
 * record header), a 16-byte sample whose header claims 32 bytes, and a
 * second whole record, through a drain the way the session sets one up
 * for the BPF source.  The drain gets the two whole records; the two
 * others are counted against CPU 1's ring as 22 skipped bytes
 * (npuprof_acl_trace_skipped(); CPU 0: 0) and, as the BPF side counted
 * all four written, as 2 records lost to a decode error, all of CPU 1.
 * Regression: such samples went nowhere with no trace at the consumer:
 * only the drain's decode-error count, with no ring, bytes or warning.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "check.h"
#include "../../user/acl_trace_int.h"
#include <npuprof/drain.h>

/* What the BPF side committed to each ring, as its written counters say. */
static const uint64_t written[2] = { 0, 4 };

/* Feed CPU 1's ring the four samples, once, as libbpf would. */
static long fake_consume(void *obj, npuprof_rec_fn fn, void *ctx)
{
	static bool fed;
	struct npuprof_acl_trace *t = obj;
	struct acl_ring *ring = &t->rings[1];
	struct npuprof_rec_task task = {
		.hdr = { NPUPROF_REC_TASK, sizeof(task), 1, 1 },
	};
	struct npuprof_rec_hdr claims = { NPUPROF_REC_TASK, sizeof(task), 1, 2 };
	char bytes[6] = { 0 };
	long n;

	if (fed)
		return 0;
	fed = true;
	t->fn = fn;
	t->fn_ctx = ctx;
	t->delivered = 0;
	CHECK_EQ(acl_trace_on_sample(ring, &task, sizeof(task)), 0);
	CHECK_EQ(acl_trace_on_sample(ring, bytes, sizeof(bytes)), 0);
	CHECK_EQ(acl_trace_on_sample(ring, &claims, sizeof(claims)), 0);
	task.hdr.ts = 3;
	CHECK_EQ(acl_trace_on_sample(ring, &task, sizeof(task)), 0);
	n = t->delivered;
	t->fn = NULL;
	return n;
}

static int fake_stats(void *obj, unsigned int cpu, uint64_t *w, uint64_t *lost)
{
	(void)obj;
	if (cpu > 1)
		return -ENXIO;
	*w = written[cpu];
	*lost = 0;
	return 0;
}

static int acl_skipped_src(void *obj, unsigned int cpu, uint64_t *bytes)
{
	return npuprof_acl_trace_skipped(obj, cpu, bytes);
}

int main(void)
{
	static struct acl_ring rings[2];
	static struct npuprof_acl_trace t = { .nr_cpus = 2, .rings = rings };
	char prof[] = "/tmp/npuprof-short-sample-XXXXXX";
	struct npuprof_drain_source src = { .name = "bpf", .source = NPUPROF_SRC_BPF,
					    .nr_cpus = 2, .obj = &t, .consume = fake_consume,
					    .stats = fake_stats, .skipped = acl_skipped_src };
	struct npuprof_loss cpu_loss[2];
	struct npuprof_drain_config cfg = { .prof_dir = prof, .flush_ms = 20,
					    .cpu_loss = cpu_loss, .nr_cpu_loss = 2 };
	struct npuprof_drain_stats st;
	struct npuprof_drain *d;
	uint64_t bytes;

	if (!mkdtemp(prof))
		CHECK_SKIP("no temp dir");
	pthread_mutex_init(&t.lock, NULL);
	for (unsigned int cpu = 0; cpu < 2; cpu++)
		rings[cpu] = (struct acl_ring){ .t = &t, .cpu = cpu };
	src.fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	CHECK(src.fd >= 0);

	CHECK_EQ(npuprof_drain_start(&cfg, &src, 1, &d), 0);
	CHECK_EQ(npuprof_drain_stop(d, &st, NULL), 0);

	CHECK_EQ(npuprof_acl_trace_skipped(&t, 1, &bytes), 0);
	CHECK_EQ(bytes, 6 + 16);
	CHECK_EQ(npuprof_acl_trace_skipped(&t, 0, &bytes), 0);
	CHECK_EQ(bytes, 0);
	CHECK_EQ(npuprof_acl_trace_skipped(&t, 2, &bytes), -ENXIO);
	CHECK_EQ(st.records, 2);
	CHECK_EQ(st.task_records, 2);
	CHECK_EQ(st.skipped_bytes, 22);
	CHECK_EQ(st.loss.n[NPUPROF_LOSS_DECODE_ERROR], 2);
	CHECK_EQ(npuprof_loss_total(&st.loss), 2);
	CHECK_EQ(cpu_loss[1].n[NPUPROF_LOSS_DECODE_ERROR], 2);
	CHECK_EQ(npuprof_loss_total(&cpu_loss[0]), 0);
	close(src.fd);
	return CHECK_DONE();
}
