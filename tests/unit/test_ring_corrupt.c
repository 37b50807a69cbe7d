// SPDX-License-Identifier: MIT
/*
 * Description: a corrupt record header (size 0, size not a multiple of 8,
 * size past the published data, a record running past the end of the data
 * area, a PAD shorter than a header) makes the consumer return -EBADMSG
 * with consumer_pos left at the bad record; the records before it are
 * delivered once.  A callback error also leaves its record in the ring.
 */
#include "check.h"
#include "memring.h"

static int count_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	(void)rec;
	(*(uint64_t *)ctx)++;
	return 0;
}

static int refuse_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	(void)ctx;
	(void)rec;
	return -ENOMEM;
}

/* Two good 88-byte records, then a third whose size field is overwritten. */
static void setup(struct memring *m)
{
	struct npuprof_rec_task t = { .hdr = { .type = NPUPROF_REC_TASK, .size = sizeof(t) } };

	CHECK_EQ(memring_init(m, 1024, 0), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(memring_write(m, &t.hdr), 0);
}

static void check_bad_size(uint16_t bad_size)
{
	struct memring m;
	uint64_t n = 0;

	setup(&m);
	((struct npuprof_rec_hdr *)(m.data + 176))->size = bad_size;
	CHECK_EQ(npuprof_ring_consume(&m.view, count_rec, &n), -EBADMSG);
	CHECK_EQ(n, 2);
	CHECK_EQ(m.cons.consumer_pos, 176);
	/* Reading again neither skips nor repeats anything. */
	CHECK_EQ(npuprof_ring_consume(&m.view, count_rec, &n), -EBADMSG);
	CHECK_EQ(n, 2);
	CHECK_EQ(m.cons.consumer_pos, 176);
	memring_free(&m);
}

/* A record claiming to run past the end of the 1024-byte data area. */
static void check_wrapping_record(void)
{
	struct memring m;
	uint64_t n = 0;

	CHECK_EQ(memring_init(&m, 1024, 0), 0);
	m.cons.consumer_pos = m.prod.producer_pos = 1000;
	((struct npuprof_rec_hdr *)(m.data + 1000))->type = NPUPROF_REC_TASK;
	((struct npuprof_rec_hdr *)(m.data + 1000))->size = 88;
	__atomic_store_n(&m.prod.producer_pos, 1088, __ATOMIC_RELEASE);
	CHECK_EQ(npuprof_ring_consume(&m.view, count_rec, &n), -EBADMSG);
	CHECK_EQ(n, 0);
	CHECK_EQ(m.cons.consumer_pos, 1000);
	memring_free(&m);
}

/* An 8-byte PAD: no producer leaves a tail shorter than a header. */
static void check_short_pad(void)
{
	struct memring m;
	uint64_t n = 0;

	CHECK_EQ(memring_init(&m, 1024, 0), 0);
	m.cons.consumer_pos = m.prod.producer_pos = 1016;
	((struct npuprof_rec_hdr *)(m.data + 1016))->type = NPUPROF_REC_PAD;
	((struct npuprof_rec_hdr *)(m.data + 1016))->size = 8;
	((struct npuprof_rec_hdr *)m.data)->type = NPUPROF_REC_TASK;
	((struct npuprof_rec_hdr *)m.data)->size = 88;
	__atomic_store_n(&m.prod.producer_pos, 1016 + 8 + 88, __ATOMIC_RELEASE);
	CHECK_EQ(npuprof_ring_consume(&m.view, count_rec, &n), -EBADMSG);
	CHECK_EQ(n, 0);
	CHECK_EQ(m.cons.consumer_pos, 1016);
	memring_free(&m);
}

static void check_callback_error(void)
{
	struct memring m;

	setup(&m);
	CHECK_EQ(npuprof_ring_consume(&m.view, refuse_rec, NULL), -ENOMEM);
	CHECK_EQ(m.cons.consumer_pos, 0);
	memring_free(&m);
}

/* producer_pos behind consumer_pos, or more than a ring ahead. */
static void check_bad_positions(void)
{
	struct memring m;
	uint64_t n = 0;

	setup(&m);
	m.cons.consumer_pos = 512;
	CHECK_EQ(npuprof_ring_consume(&m.view, count_rec, &n), -EBADMSG);
	m.cons.consumer_pos = 0;
	m.prod.producer_pos = 2048;
	CHECK_EQ(npuprof_ring_consume(&m.view, count_rec, &n), -EBADMSG);
	CHECK_EQ(n, 0);
	memring_free(&m);
}

int main(void)
{
	check_bad_size(0);
	check_bad_size(84);   /* not a multiple of 8 */
	check_bad_size(8);    /* shorter than a header */
	check_bad_size(96);   /* 176 + 96 > 264 published */
	check_wrapping_record();
	check_short_pad();
	check_callback_error();
	check_bad_positions();
	return CHECK_DONE();
}
