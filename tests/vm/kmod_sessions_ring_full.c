// SPDX-License-Identifier: MIT
/*
 * Description: one session's full ring costs another session nothing.
 * ring_pages=1 (one page: 46 records of 88 bytes with 4 KiB pages), both
 * sessions enabled, pinned to one CPU so both write that CPU's ring of
 * their own.  Ten rounds (more on larger pages, so F overflows) of 40
 * events for session F's tgid (never read) and 40 for session R's tgid
 * (read after each round): on 4 KiB pages F ends with written 46 and lost
 * 354 (and those 46 records of its own to read), R with all 400 records
 * read back in firing order, written 400 and lost 0.
 */
#include "kmod_common.h"

#define TGID_F 6161
#define TGID_R 6262
#define ITER 10 /* iterations of 4 events per round and session */

struct order {
	uint32_t next_task; /* 0: take the next record's */
	unsigned int next_event;
	unsigned int records;
	unsigned int bad;
};

/* Records of R in firing order: a task's submit, start, end, sync. */
static void in_order(void *ctx, unsigned int cpu, const struct npuprof_rec_hdr *h)
{
	const struct npuprof_rec_task *r = (const void *)h;
	struct order *o = ctx;

	(void)cpu;
	if (!o->next_task)
		o->next_task = r->task_id;
	if (h->type != NPUPROF_REC_TASK || r->pid != TGID_R ||
	    r->task_id != o->next_task || r->event != o->next_event) {
		if (o->bad++ < 5)
			fprintf(stderr, "record %u: pid %u task %u event %u, want task %u event %u\n",
				o->records, r->pid, r->task_id, r->event,
				o->next_task, o->next_event);
	}
	o->records++;
	if (o->next_event == NPUPROF_TASK_STREAM_SYNC)
		o->next_task++;
	o->next_event = o->next_event % 4 + 1;
}

static void count_f(void *ctx, unsigned int cpu, const struct npuprof_rec_hdr *h)
{
	(void)cpu;
	if (h->type == NPUPROF_REC_TASK &&
	    ((const struct npuprof_rec_task *)h)->pid == TGID_F)
		(*(unsigned int *)ctx)++;
}

static void open_session(struct kt_dev *d, uint32_t tgid)
{
	CHECK_EQ(kt_open(d), 0);
	CHECK_EQ(d->info.data_size, d->info.page_size);
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_ADD_TGID, tgid), 0);
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_ENABLE, 0), 0);
}

int main(void)
{
	static struct kt_dev full, reader;
	struct order o = { .next_event = NPUPROF_TASK_SUBMIT };
	uint64_t written, lost, fits;
	unsigned int round, rounds, kept = 0;
	long n;

	kt_require();
	CHECK(kt_pin_cpu() >= 0);
	kt_load_both("ring_pages=1");
	open_session(&full, TGID_F);
	open_session(&reader, TGID_R);
	fits = full.info.data_size / sizeof(struct npuprof_rec_task);
	CHECK(full.info.page_size != 4096 || fits == 46);
	rounds = fits / (4 * ITER) + 2 > 10 ? fits / (4 * ITER) + 2 : 10;

	for (round = 0; round < rounds; round++) {
		CHECK_EQ(kt_fire(KT_ALL, ITER, TGID_F, TGID_F, "proc", ""), 0);
		CHECK_EQ(kt_fire(KT_ALL, ITER, TGID_R, TGID_R, "proc", ""), 0);
		o.next_task = 0; /* the stub numbers F's tasks in between */
		n = kt_consume(&reader, in_order, &o);
		CHECK_EQ(n, 4 * ITER);
	}
	CHECK_EQ(kt_ioctl(&full, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_EQ(kt_ioctl(&reader, NPUPROF_IOC_DISABLE, 0), 0);

	CHECK_EQ(kt_stats_sum(&full, &written, &lost), 0);
	CHECK_EQ(written, fits);
	CHECK_EQ(lost, 4 * ITER * rounds - fits);
	CHECK_EQ(kt_stats_sum(&reader, &written, &lost), 0);
	CHECK_EQ(written, 4 * ITER * rounds);
	CHECK_EQ(lost, 0);
	CHECK_EQ(o.records, 4 * ITER * rounds);
	CHECK_EQ(o.bad, 0);
	CHECK_EQ(kt_consume(&reader, in_order, &o), 0);
	CHECK_EQ(kt_consume(&full, count_f, &kept), (long)fits);
	CHECK_EQ(kept, fits);

	kt_close(&full);
	kt_close(&reader);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	return CHECK_DONE();
}
