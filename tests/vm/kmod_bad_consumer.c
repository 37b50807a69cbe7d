// SPDX-License-Identifier: MIT
/*
 * Description: a consumer position the reader corrupts cannot make the
 * producer write out of place.  consumer_pos set ahead of producer_pos,
 * or more than data_size behind it, makes the ring count as full (every
 * event lost, producer_pos unchanged, no kernel warning) and poll() says
 * so (POLLIN: before, a position ahead read as an empty ring that every
 * lost event woke, poll() never readable); restoring it lets records
 * through again, intact.
 */
#include <poll.h>
#include "kmod_common.h"

#define TGID 31337

struct seen {
	unsigned int records;
	unsigned int bad;
};

static void on_record(void *ctx, unsigned int cpu,
		      const struct npuprof_rec_hdr *h)
{
	const struct npuprof_rec_task *r = (const void *)h;
	struct seen *s = ctx;

	(void)cpu;
	s->records++;
	if (h->type != NPUPROF_REC_TASK || r->pid != TGID ||
	    r->dev_ts != 1000 + r->task_id)
		s->bad++;
}

/* Fire 8 events with consumer_pos forced to @cons; expect all lost. */
static void fire_with_consumer(struct kt_dev *d, int cpu, uint64_t cons)
{
	uint64_t prod = d->ring[cpu].prod->producer_pos;
	struct pollfd pfd = { .fd = d->fd, .events = POLLIN };
	uint64_t written, lost;

	d->ring[cpu].cons->consumer_pos = cons;
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_fire(KT_ALL, 2, TGID, TGID, "proc", ""), 0);
	/* full by the producer's rule, so readable, as its lost events say */
	CHECK_EQ(poll(&pfd, 1, 0), 1);
	CHECK_EQ(pfd.revents, POLLIN);
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_EQ(kt_stats_sum(d, &written, &lost), 0);
	CHECK_EQ(written, 0);
	CHECK_EQ(lost, 8);
	CHECK_EQ(d->ring[cpu].prod->producer_pos, prod);
	d->ring[cpu].cons->consumer_pos = prod;
}

int main(void)
{
	static struct kt_dev d;
	struct seen s = { 0, 0 };
	uint64_t prod;
	int cpu, warnings;

	kt_require();
	cpu = kt_pin_cpu();
	CHECK(cpu >= 0);
	warnings = kt_kernel_warnings();
	kt_load_both("ring_pages=1");
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, TGID), 0);

	/* Put a few records in first so producer_pos is not 0. */
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_fire(KT_ALL, 3, TGID, TGID, "proc", ""), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_EQ(kt_consume(&d, on_record, &s), 12);
	prod = d.ring[cpu].prod->producer_pos;
	CHECK_EQ(prod, 12 * 88);

	fire_with_consumer(&d, cpu, prod + 8);		   /* ahead */
	fire_with_consumer(&d, cpu, prod + (1ull << 40)); /* far ahead */
	fire_with_consumer(&d, cpu, prod - 8 - d.info.data_size); /* > data_size behind */
	fire_with_consumer(&d, cpu, prod + d.info.data_size);	   /* a ring ahead */

	/* Sane again: records flow. */
	kt_window_exact(&d, KT_ALL, 2, TGID, "proc", 8);
	CHECK_EQ(kt_consume(&d, on_record, &s), 8);
	CHECK_EQ(s.records, 20);
	CHECK_EQ(s.bad, 0);

	kt_finish_both(&d, warnings);
	return CHECK_DONE();
}
