// SPDX-License-Identifier: MIT
/*
 * Description: the device-log reader decodes channel-50 records as the
 * device packs them, through the stand-in libascend_hal.so.  Device 0's
 * log carries, in this order: an AI Core begin with plain ids (stream 3,
 * task 7); an SDMA end with stream bit 12 (stream 0x5003 -> 3, task 0x0abc
 * -> 0x4abc); an event-record begin with bit 13 (the fields swapped:
 * stream 0x2123/task 0x5003 -> stream 3, task 0x5123); an AI Vector end
 * on stream 9, which no process owns (pid 0); a funcType-2 record
 * (skipped and counted); a place-holder begin, kept with its SQE type as
 * the submit uprobe keeps it (NPUPROF_TT_SQE_OTHER + 3).  Each record written is
 * a NPUPROF_REC_TASK of source ring "cpu" 0 with its exact stream, task
 * id, event, task type, owner pid (4242 from the driver's stream file),
 * raw counter, and host time within 2 ms of when the counter was read.
 * The reader thread delivers them before the stop.  The same records,
 * read back in 100-byte pieces that cut records in two, decode the same.
 * In the runtime's expanded mode a stream field with bit 15 takes its id
 * from the task field (stream 0x8005/task 0x8003 -> stream 3, task
 * 0x8005).  A ring of 16 records given 40 keeps 16 and counts 24 dropped
 * (the stats' lost), never more or fewer.
 */
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "fake_ascend_hal.h"
#include "stars_log.h"
#include "tmpdir.h"
#include <npuprof/clock.h>
#include <npuprof/drv/ascend_task_type.h>
#include <npuprof/devlog.h>

#define MAX_GOT 64

struct got {
	struct npuprof_rec_task r[MAX_GOT];
	unsigned int n;
};

static int collect(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct got *g = ctx;

	CHECK_EQ(rec->type, NPUPROF_REC_TASK);
	CHECK_EQ(rec->size, sizeof(struct npuprof_rec_task));
	if (g->n < MAX_GOT)
		memcpy(&g->r[g->n], rec, sizeof(g->r[0]));
	g->n++;
	return 0;
}

static struct fakehal hal;
static char root[] = "/tmp/npuprof-devlog-XXXXXX";

static void check_rec(const struct npuprof_rec_task *r, uint32_t stream, uint32_t task,
		      int event, int type, uint32_t pid, uint64_t ts, uint64_t mono)
{
	CHECK_EQ(r->stream, stream);
	CHECK_EQ(r->task_id, task);
	CHECK_EQ(r->event, event);
	CHECK_EQ(r->task_type, type);
	CHECK_EQ(r->pid, pid);
	CHECK_EQ(r->tid, 0);
	CHECK_EQ(r->device, 0);
	CHECK_EQ(r->hdr.cpu, 0);
	CHECK_EQ(r->dev_ts, ts);
	CHECK_EQ(r->name[0], 0);
	CHECK(r->hdr.ts + 2000000 > mono && r->hdr.ts < mono + 2000000);
}

/* Push the six records, decode them, check each; @chunk: bytes per read. */
static void run_packed(unsigned int chunk)
{
	static const int devs[] = { 0 };
	struct npuprof_devlog_opts o = { .devices = devs, .nr_devices = 1, .proc_root = root };
	struct ascend_stars_log recs[6];
	struct npuprof_drain_source src;
	const struct npuprof_devlog_dev *d;
	struct npuprof_devlog *l;
	static struct got g;
	uint64_t ts, mono, w = 0, lost = 0;
	unsigned int n;

	hal.reset();
	hal.read_chunk(chunk);
	CHECK_EQ(npuprof_devlog_start(&o, &l), 0);
	mono = npuprof_mono_ns();
	ts = hal.count_now();
	recs[0] = stars_log(0, 0, ASCEND_SQE_TYPE_AIC, 3, 7, ts);
	recs[1] = stars_log(1, 1, ASCEND_SQE_TYPE_SDMA, 0x5003, 0x0abc, ts + 1);
	recs[2] = stars_log(0, 2, ASCEND_SQE_TYPE_EVENT_RECORD, 0x2123, 0x5003, ts + 2);
	recs[3] = stars_log(1, 3, ASCEND_SQE_TYPE_AIV, 9, 1, ts + 3);
	recs[4] = stars_log(2, 4, ASCEND_SQE_TYPE_AIC, 3, 8, ts + 4);
	recs[5] = stars_log(0, 5, ASCEND_SQE_TYPE_PLACE_HOLDER, 3, 9, ts + 5);
	hal.push(0, recs, sizeof(recs), 0);
	npuprof_devlog_source(l, &src);
	CHECK_EQ(src.source, NPUPROF_SRC_DEVLOG);
	CHECK_EQ(src.nr_cpus, 1);
	memset(&g, 0, sizeof(g));
	/* the reader thread delivers them while the window runs */
	for (int i = 0; i < 2000 && g.n < 5; i++) {
		struct timespec ms = { 0, 1000000 };

		src.consume(src.obj, collect, &g);
		nanosleep(&ms, NULL);
	}
	CHECK_EQ(g.n, 5);
	CHECK_EQ(npuprof_devlog_stop(l), 0);
	CHECK_EQ(src.consume(src.obj, collect, &g), 0);
	CHECK_EQ(g.n, 5);
	check_rec(&g.r[0], 3, 7, NPUPROF_TASK_START, NPUPROF_TT_KERNEL, 4242, ts, mono);
	check_rec(&g.r[1], 3, 0x4abc, NPUPROF_TASK_END, NPUPROF_TT_MEMCPY, 4242, ts + 1, mono);
	check_rec(&g.r[2], 3, 0x5123, NPUPROF_TASK_START, NPUPROF_TT_EVENT_RECORD, 4242, ts + 2,
		  mono);
	check_rec(&g.r[3], 9, 1, NPUPROF_TASK_END, NPUPROF_TT_KERNEL, 0, ts + 3, mono);
	/* a place holder keeps its SQE type, as its submit does (ascend_task_type.h) */
	check_rec(&g.r[4], 3, 9, NPUPROF_TASK_START, NPUPROF_TT_SQE_OTHER + ASCEND_SQE_TYPE_PLACE_HOLDER,
		  4242, ts + 5, mono);
	d = npuprof_devlog_devices(l, &n);
	CHECK_EQ(n, 1);
	CHECK_EQ(d[0].outcome, NPUPROF_DEVLOG_OWNED);
	CHECK_STR(d[0].text, "device log (channel 50)");
	CHECK_EQ(d[0].begins, 3);
	CHECK_EQ(d[0].ends, 2);
	CHECK_EQ(d[0].skipped, 1);
	CHECK_EQ(d[0].gaps, 0);
	CHECK_EQ(d[0].unattributed, 1);
	CHECK_EQ(d[0].bytes, sizeof(recs));
	CHECK_EQ(d[0].start_clock.freq_hz, FAKEHAL_FREQ_HZ);
	CHECK(d[0].stop_clock.dev > d[0].start_clock.dev);
	CHECK_EQ(src.stats(src.obj, 0, &w, &lost), 0);
	CHECK_EQ(w, 5);
	CHECK_EQ(lost, 0);
	npuprof_devlog_free(l);
}

static void run_expanded(void)
{
	static const int devs[] = { 0 };
	struct npuprof_devlog_opts o = { .devices = devs, .nr_devices = 1, .proc_root = root,
					 .expanded = 1 };
	struct ascend_stars_log r;
	struct npuprof_drain_source src;
	struct npuprof_devlog *l;
	static struct got g;

	hal.reset();
	CHECK_EQ(npuprof_devlog_start(&o, &l), 0);
	r = stars_log(0, 0, ASCEND_SQE_TYPE_AIV, 0x8005, 0x8003, hal.count_now());
	hal.push(0, &r, sizeof(r), 0);
	CHECK_EQ(npuprof_devlog_stop(l), 0);
	npuprof_devlog_source(l, &src);
	memset(&g, 0, sizeof(g));
	CHECK_EQ(src.consume(src.obj, collect, &g), 1);
	CHECK_EQ(g.r[0].stream, 3);
	CHECK_EQ(g.r[0].task_id, 0x8005);
	CHECK_EQ(g.r[0].pid, 4242);
	npuprof_devlog_free(l);
}

static void run_ring_full(void)
{
	static const int devs[] = { 0 };
	struct npuprof_devlog_opts o = { .devices = devs, .nr_devices = 1, .proc_root = root,
					 .ring_records = 16 };
	struct ascend_stars_log recs[40];
	struct npuprof_drain_source src;
	const struct npuprof_devlog_dev *d;
	struct npuprof_devlog *l;
	static struct got g;
	uint64_t w = 0, lost = 0;
	unsigned int n;

	hal.reset();
	for (unsigned int i = 0; i < 40; i++)
		recs[i] = stars_log(0, i, ASCEND_SQE_TYPE_AIC, 3, (uint16_t)i, hal.count_now());
	CHECK_EQ(npuprof_devlog_start(&o, &l), 0);
	npuprof_devlog_source(l, &src);
	hal.push(0, recs, sizeof(recs), 1); /* delivered at the stop's flush, all at once */
	CHECK_EQ(npuprof_devlog_stop(l), 0);
	memset(&g, 0, sizeof(g));
	CHECK_EQ(src.consume(src.obj, collect, &g), 16);
	d = npuprof_devlog_devices(l, &n);
	CHECK_EQ(d[0].ring_drops, 24);
	CHECK_EQ(d[0].begins, 16);
	CHECK_EQ(d[0].gaps, 0);
	CHECK_EQ(src.stats(src.obj, 0, &w, &lost), 0);
	CHECK_EQ(w, 16);
	CHECK_EQ(lost, 24);
	npuprof_devlog_free(l);
}

int main(void)
{
	if (fakehal_load(&hal))
		CHECK_SKIP("build/tests/fixtures/libascend_hal.so not built");
	if (!mkdtemp(root))
		CHECK_SKIP("no temp dir");
	CHECK_EQ(stars_stream_file(root, 0, "stream_id sq_id pid\nid 3 sq 3 pid 4242\n"), 0);
	run_packed(0);
	run_packed(100);
	run_expanded();
	run_ring_full();
	if (!check_failures)
		tmpdir_remove(root);
	return CHECK_DONE();
}
