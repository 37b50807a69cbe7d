// SPDX-License-Identifier: MIT
/*
 * Description: device-log records reach the PROF_XXX directory through a
 * real drain, exactly, and what the log lost is counted exactly.  Two
 * devices of the stand-in libascend_hal.so log 500 tasks each (a begin
 * and an end per task, the 4-bit running count advancing by one per
 * record); device 0 also holds 10 more tasks that it hands over only
 * when the stop flushes it; device 1's count jumps twice, by 3 and by 5
 * missing records.  After the stop: device_0/data/npuprof.task.0 holds
 * 510 starts and 510 ends, device_1's series 500 and 500 (all of source
 * NPUPROF_SRC_DEVLOG in their stream headers' place: task records of
 * the device series), the drain's totals say 2020 task records, 8 lost,
 * all 8 as "ring full" on ring 1 (device 1's: no CPU's entry of the
 * per-CPU losses counts them), the rings list devlog rings 0 and 1
 * with their written/lost counters, and the host series ends with one
 * LOST record per device ring.
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "drain_writer.h"
#include "fake_ascend_hal.h"
#include "stars_log.h"
#include "tmpdir.h"
#include <npuprof/devlog.h>
#include <npuprof/slice.h>

struct tally {
	uint64_t start, end, other, lost_recs, lost_lost[2], lost_written[2], wrong_dev;
	uint32_t device;
};

static int count(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct tally *t = ctx;

	if (rec->type == NPUPROF_REC_TASK) {
		const struct npuprof_rec_task *r = (const void *)rec;

		t->start += r->event == NPUPROF_TASK_START;
		t->end += r->event == NPUPROF_TASK_END;
		t->wrong_dev += r->device != t->device;
	} else if (rec->type == NPUPROF_REC_LOST) {
		const struct npuprof_rec_lost *r = (const void *)rec;

		if (r->source == NPUPROF_SRC_DEVLOG && r->cpu < 2) {
			t->lost_recs++;
			t->lost_lost[r->cpu] = r->lost;
			t->lost_written[r->cpu] = r->written;
		}
	} else if (rec->type != NPUPROF_REC_STREAM_HDR) {
		t->other++;
	}
	return 0;
}

/* @tasks begin/end pairs of device @dev, the count skipping @skip[i] after pair @at[i]. */
static void push_tasks(struct fakehal *hal, int dev, unsigned int tasks, int on_flush,
		       unsigned int *cnt, const unsigned int *at, const unsigned int *skip,
		       unsigned int nr_skips)
{
	struct ascend_stars_log r[2];

	for (unsigned int i = 0; i < tasks; i++) {
		uint64_t ts = hal->count_now();

		r[0] = stars_log(0, (*cnt)++, ASCEND_SQE_TYPE_AIC, 3, (uint16_t)i, ts);
		r[1] = stars_log(1, (*cnt)++, ASCEND_SQE_TYPE_AIC, 3, (uint16_t)i, ts + 100);
		hal->push(dev, r, sizeof(r), on_flush);
		for (unsigned int k = 0; k < nr_skips; k++)
			if (at[k] == i)
				*cnt += skip[k];
	}
}

static void read_device(const char *prof, int device, struct tally *t)
{
	struct npuprof_read_report rep;
	char dir[700], series[32];

	memset(t, 0, sizeof(*t));
	t->device = (uint32_t)device;
	snprintf(dir, sizeof(dir), "%s/device_%d/data", prof, device);
	snprintf(series, sizeof(series), "npuprof.task.%d", device);
	CHECK_EQ(npuprof_slice_read_series(dir, series, count, t, &rep), 0);
}

int main(void)
{
	static const int devs[] = { 0, 1 };
	static const unsigned int at[] = { 100, 300 }, skip[] = { 3, 5 };
	char root[] = "/tmp/npuprof-devlog-drain-XXXXXX", prof[700], dir[760];
	struct npuprof_devlog_opts o = { .devices = devs, .nr_devices = 2 };
	struct npuprof_drain_ring rings[4];
	struct npuprof_loss cpu_loss[2] = { 0 };
	struct npuprof_drain_config cfg = { .prof_dir = prof, .flush_ms = 20, .rings = rings,
					    .nr_rings = 4, .cpu_loss = cpu_loss, .nr_cpu_loss = 2 };
	struct npuprof_read_report rep;
	struct npuprof_drain_stats st;
	struct npuprof_drain_source src;
	struct npuprof_devlog *l;
	struct npuprof_drain *d;
	struct fakehal hal;
	unsigned int cnt0 = 0, cnt1 = 0;
	struct tally t;

	if (fakehal_load(&hal))
		CHECK_SKIP("build/tests/fixtures/libascend_hal.so not built");
	if (!mkdtemp(root))
		CHECK_SKIP("no temp dir");
	o.proc_root = root;
	snprintf(prof, sizeof(prof), "%s/PROF_1", root);
	CHECK_EQ(mkdir(prof, 0750), 0);
	CHECK_EQ(stars_stream_file(root, 0, "id 3 pid 77\n"), 0);
	CHECK_EQ(stars_stream_file(root, 1, "id 3 pid 77\n"), 0);

	CHECK_EQ(npuprof_devlog_start(&o, &l), 0);
	npuprof_devlog_source(l, &src);
	CHECK_EQ(npuprof_drain_start(&cfg, &src, 1, &d), 0);
	push_tasks(&hal, 0, 500, 0, &cnt0, NULL, NULL, 0);
	push_tasks(&hal, 1, 500, 0, &cnt1, at, skip, 2);
	push_tasks(&hal, 0, 10, 1, &cnt0, NULL, NULL, 0);
	CHECK_EQ(npuprof_devlog_stop(l), 0);
	CHECK_EQ(npuprof_drain_stop(d, &st, NULL), 0);

	CHECK_EQ(st.writer, test_drain_writer());
	CHECK_EQ(st.task_records, 2020);
	CHECK_EQ(st.device_records[0], 1020);
	CHECK_EQ(st.device_records[1], 1000);
	CHECK_EQ(st.devices, 3);
	CHECK_EQ(st.lost, 8);
	CHECK_EQ(st.loss.n[NPUPROF_LOSS_RING_FULL], 8);
	CHECK_EQ(st.loss.n[NPUPROF_LOSS_DECODE_ERROR], 0);
	/* ring 1 is device 1, not CPU 1: no CPU lost anything */
	CHECK_EQ(cpu_loss[0].n[NPUPROF_LOSS_RING_FULL], 0);
	CHECK_EQ(cpu_loss[1].n[NPUPROF_LOSS_RING_FULL], 0);
	CHECK_EQ(st.nr_rings, 2);
	CHECK_STR(rings[0].name, "devlog");
	CHECK_EQ(rings[0].source, NPUPROF_SRC_DEVLOG);
	CHECK_EQ(rings[0].cpu, 0);
	CHECK_EQ(rings[0].written, 1020);
	CHECK_EQ(rings[0].lost, 0);
	CHECK_EQ(rings[1].cpu, 1);
	CHECK_EQ(rings[1].written, 1000);
	CHECK_EQ(rings[1].lost, 8);

	read_device(prof, 0, &t);
	CHECK_EQ(t.start, 510);
	CHECK_EQ(t.end, 510);
	CHECK_EQ(t.wrong_dev, 0);
	read_device(prof, 1, &t);
	CHECK_EQ(t.start, 500);
	CHECK_EQ(t.end, 500);
	CHECK_EQ(t.wrong_dev, 0);

	memset(&t, 0, sizeof(t));
	snprintf(dir, sizeof(dir), "%s/host/data", prof);
	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.api", count, &t, &rep), 0);
	CHECK_EQ(t.lost_recs, 2);
	CHECK_EQ(t.lost_written[0], 1020);
	CHECK_EQ(t.lost_lost[0], 0);
	CHECK_EQ(t.lost_written[1], 1000);
	CHECK_EQ(t.lost_lost[1], 8);
	CHECK_EQ(t.other, 0);
	{
		unsigned int n;
		const struct npuprof_devlog_dev *dv = npuprof_devlog_devices(l, &n);

		CHECK_EQ(n, 2);
		CHECK_EQ(dv[0].gaps, 0);
		CHECK_EQ(dv[1].gaps, 8);
		CHECK_EQ(dv[0].unattributed, 0);
	}
	npuprof_devlog_free(l);
	if (!check_failures)
		tmpdir_remove(root);
	return CHECK_DONE();
}
