// SPDX-License-Identifier: MIT
/*
 * Description: the ring consumer hands out every published record once, in
 * order, skips the PAD records the producer leaves at the end of the data
 * area (also where a record would have left an 8-byte tail), and keeps
 * doing so over many laps of the ring with records of mixed sizes.
 */
#include "check.h"
#include "memring.h"

struct seen {
	uint64_t next_seq; /* expected hdr.ts of the next record */
	uint64_t count;
	uint64_t bad;
};

/* A record whose ts is its sequence number and whose payload bytes are
 * (seq + offset) & 0xff, so a reader can tell torn or stale bytes. */
static void make_rec(uint8_t *buf, uint16_t type, uint16_t size, uint64_t seq)
{
	struct npuprof_rec_hdr *h = (void *)buf;

	h->type = type;
	h->size = size;
	h->cpu = 3;
	h->ts = seq;
	for (unsigned int i = sizeof(*h); i < size; i++)
		buf[i] = (uint8_t)(seq + i);
}

static int check_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct seen *s = ctx;
	const uint8_t *b = (const void *)rec;

	if (rec->ts != s->next_seq || rec->type == NPUPROF_REC_PAD || rec->cpu != 3)
		s->bad++;
	for (unsigned int i = sizeof(*rec); i < rec->size; i++)
		if (b[i] != (uint8_t)(rec->ts + i))
			s->bad++;
	s->next_seq = rec->ts + 1;
	s->count++;
	return 0;
}

/* 9 API records fill 936 of 1024 bytes; the 10th needs an 88-byte PAD. */
static void test_full_pad(void)
{
	struct memring m;
	struct seen s = { 0 };
	uint8_t buf[128];

	CHECK_EQ(memring_init(&m, 1024, 3), 0);
	for (uint64_t i = 0; i < 9; i++) {
		make_rec(buf, NPUPROF_REC_API, sizeof(struct npuprof_rec_api), i);
		CHECK_EQ(memring_write(&m, (void *)buf), 0);
	}
	make_rec(buf, NPUPROF_REC_API, sizeof(struct npuprof_rec_api), 9);
	CHECK_EQ(memring_write(&m, (void *)buf), -ENOSPC); /* 88 + 104 > 88 free */
	CHECK_EQ(npuprof_ring_pending(&m.view), 936);
	CHECK_EQ(npuprof_ring_consume(&m.view, check_rec, &s), 9);
	CHECK_EQ(m.cons.consumer_pos, 936);
	CHECK_EQ(memring_write(&m, (void *)buf), 0);
	CHECK_EQ(m.prod.producer_pos, 936 + 88 + 104);
	CHECK_EQ(npuprof_ring_consume(&m.view, check_rec, &s), 1);
	CHECK_EQ(m.cons.consumer_pos, 936 + 88 + 104);
	CHECK_EQ(npuprof_ring_consume(&m.view, check_rec, &s), 0);
	CHECK_EQ(s.count, 10);
	CHECK_EQ(s.bad, 0);
	CHECK_EQ(m.prod.lost, 1);
	memring_free(&m);
}

/*
 * 9 x 104 = 936 leaves 88 bytes; an 80-byte record there would leave a
 * tail of 8, too short for a header, so the producer pads all 88 bytes and
 * puts the record at offset 0.  The reader skips the PAD and goes on.
 */
static void test_short_tail_pad(void)
{
	struct memring m;
	struct seen s = { 0 };
	uint8_t buf[128];

	CHECK_EQ(memring_init(&m, 1024, 3), 0);
	for (uint64_t i = 0; i < 9; i++) {
		make_rec(buf, NPUPROF_REC_API, 104, i);
		CHECK_EQ(memring_write(&m, (void *)buf), 0);
	}
	CHECK_EQ(npuprof_ring_consume(&m.view, check_rec, &s), 9);
	make_rec(buf, NPUPROF_REC_API, 80, 9);
	CHECK_EQ(memring_write(&m, (void *)buf), 0);
	CHECK_EQ(m.prod.producer_pos, 936 + 88 + 80);
	CHECK_EQ(((struct npuprof_rec_hdr *)(m.data + 936))->type, NPUPROF_REC_PAD);
	CHECK_EQ(((struct npuprof_rec_hdr *)(m.data + 936))->size, 88);
	make_rec(buf, NPUPROF_REC_TASK, sizeof(struct npuprof_rec_task), 10);
	CHECK_EQ(memring_write(&m, (void *)buf), 0);
	CHECK_EQ(m.prod.producer_pos, 936 + 88 + 80 + 88);
	CHECK_EQ(npuprof_ring_consume(&m.view, check_rec, &s), 2);
	CHECK_EQ(m.cons.consumer_pos, 936 + 88 + 80 + 88);
	CHECK_EQ(s.count, 11);
	CHECK_EQ(s.bad, 0);
	memring_free(&m);
}

/* 200000 records of four sizes through a 4 KiB ring: ~2700 laps. */
static void test_many_laps(void)
{
	static const uint16_t sizes[] = { 104, 88, 16, 48, 200 };
	const uint64_t n = 200000;
	struct memring m;
	struct seen s = { 0 };
	uint64_t full = 0, delivered = 0;
	uint8_t buf[256];

	CHECK_EQ(memring_init(&m, 4096, 3), 0);
	for (uint64_t i = 0; i < n;) {
		make_rec(buf, NPUPROF_REC_TASK, sizes[i % 5], i);
		if (memring_write(&m, (void *)buf) == 0) {
			i++;
			continue;
		}
		full++;
		delivered += npuprof_ring_consume(&m.view, check_rec, &s);
	}
	delivered += npuprof_ring_consume(&m.view, check_rec, &s);
	CHECK_EQ(delivered, n);
	CHECK_EQ(s.count, n);
	CHECK_EQ(s.bad, 0);
	CHECK_EQ(m.prod.written, n);
	CHECK_EQ(m.prod.lost, full);
	CHECK(m.cons.consumer_pos / 4096 > 2000);
	CHECK_EQ(m.cons.consumer_pos, m.prod.producer_pos);
	CHECK_EQ(npuprof_ring_pending(&m.view), 0);
	memring_free(&m);
}

int main(void)
{
	test_full_pad();
	test_short_tail_pad();
	test_many_laps();
	return CHECK_DONE();
}
