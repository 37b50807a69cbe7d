// SPDX-License-Identifier: MIT
/*
 * Description: a full ring discards, counts and never corrupts.  With
 * ring_pages=1 (one page of data: 46 records of 88 bytes with 4 KiB
 * pages) and nothing consumed, 200 events from one CPU (on larger pages
 * about 40 more than fit): written + lost == fired, written ==
 * what fits, and the records present are intact and in order.  After
 * consuming, the next records wrap through one PAD and read back whole.
 */
#include "kmod_common.h"

#define TGID 777

struct seen {
	unsigned int records;
	unsigned int bad;
	uint32_t last_task;
	unsigned int last_event;
};

/* Records arrive in firing order: task n's submit, start, end, sync. */
static void on_record(void *ctx, unsigned int cpu,
		      const struct npuprof_rec_hdr *h)
{
	const struct npuprof_rec_task *r = (const void *)h;
	struct seen *s = ctx;
	uint32_t want_task = s->last_event == NPUPROF_TASK_STREAM_SYNC ?
				     s->last_task + 1 : s->last_task;
	unsigned int want_event = s->last_event % 4 + 1;

	(void)cpu;
	s->records++;
	if (h->type != NPUPROF_REC_TASK || h->size != sizeof(*r) ||
	    r->pid != TGID || r->task_id != want_task || r->event != want_event ||
	    r->dev_ts != 1000 + r->task_id || r->arg != 10ull * r->task_id) {
		fprintf(stderr, "record %u: type %u task %u event %u, want task %u event %u\n",
			s->records, h->type, r->task_id, r->event, want_task,
			want_event);
		s->bad++;
	}
	s->last_task = r->task_id;
	s->last_event = r->event;
}

int main(void)
{
	static struct kt_dev d;
	struct seen s = { .last_task = 0, .last_event = NPUPROF_TASK_STREAM_SYNC };
	uint64_t written, lost, fits, fired;
	int cpu;

	kt_require();
	cpu = kt_pin_cpu();
	CHECK(cpu >= 0);
	kt_load_both("ring_pages=1");
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(d.info.page_size, sysconf(_SC_PAGESIZE));
	CHECK_EQ(d.info.data_size, d.info.page_size);
	CHECK_EQ(d.info.region_size, 3 * d.info.page_size);
	fits = d.info.data_size / sizeof(struct npuprof_rec_task);
	/* Whole tasks of 4 events, at least 40 past what fits. */
	fired = fits + 40 > 200 ? (fits + 40) / 4 * 4 : 200;
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, TGID), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_fire(KT_ALL, fired / 4, TGID, TGID, "proc", ""), 0);
	CHECK_EQ(kt_stats_sum(&d, &written, &lost), 0);
	CHECK_EQ(written + lost, fired);
	CHECK_EQ(written, fits);
	CHECK(lost > 0);
	CHECK_EQ(d.ring[cpu].prod->producer_pos, fits * sizeof(struct npuprof_rec_task));
	CHECK_EQ(kt_consume(&d, on_record, &s), (long)fits);
	CHECK_EQ(s.bad, 0);

	/* Room again: 20 more wrap past the end through one PAD record. */
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_fire(KT_ALL, 5, TGID, TGID, "proc", ""), 0);
	CHECK_EQ(kt_stats_sum(&d, &written, &lost), 0);
	CHECK_EQ(written, 20);
	CHECK_EQ(lost, 0);
	s.last_task = fired / 4;
	s.last_event = NPUPROF_TASK_STREAM_SYNC;
	CHECK_EQ(kt_consume(&d, on_record, &s), 20);
	CHECK_EQ(s.bad, 0);
	/* What fit, a PAD to the end (48 bytes on 4 KiB), 20 records from 0. */
	CHECK_EQ(d.ring[cpu].cons->consumer_pos, d.info.data_size + 20 * 88);

	kt_close(&d);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	return CHECK_DONE();
}
