// SPDX-License-Identifier: MIT
/*
 * Description: the producer's position rule (kmod/ring_layout.h, the code
 * npuprof.ko runs) puts each record where the ABI says.  Hand-computed
 * cases: exact fit at the end of the data area (no PAD), a tail that would
 * be left with 8 bytes (all of it becomes a PAD), a tail of exactly a
 * header, a record longer than the tail, a full ring where the PAD would
 * not fit, and consumer positions no reader could have written (ahead of
 * the producer, more than a ring behind).  Then 120000 records of mixed
 * sizes (16, 88, 104 and other odd multiples of 8) over about 2000 laps of
 * a 4 KiB ring, against an independent model of the rule: exact positions
 * and PAD sizes, no PAD under 16 bytes, every case seen, and every record
 * read back by user/ring.c once, in order and intact.
 */
#include "check.h"
#include "memring.h"

#define D 1024 /* data bytes of the hand-computed cases */

/* Expect npuprof_ring_place() to fit @len with @pad bytes of PAD at @off. */
static void expect_slot(uint64_t head, uint64_t cons, uint64_t data_size, uint32_t len,
			uint64_t pad, uint64_t off)
{
	struct npuprof_ring_slot s = { 99, 99, 99, 99 };

	if (!npuprof_ring_place(head, cons, data_size, len, &s)) {
		fprintf(stderr, "head %llu cons %llu len %u: did not fit\n",
			(unsigned long long)head, (unsigned long long)cons, len);
		check_failures++;
		return;
	}
	CHECK_EQ(s.pad, pad);
	CHECK_EQ(s.pad_off, head % data_size);
	CHECK_EQ(s.off, off);
	CHECK_EQ(s.start, head + pad);
}

static int fits(uint64_t head, uint64_t cons, uint32_t len)
{
	struct npuprof_ring_slot s;

	return npuprof_ring_place(head, cons, D, len, &s);
}

static void test_tail_cases(void)
{
	expect_slot(0, 0, D, 88, 0, 0);
	/* 88 bytes left before the end (offset 936), second lap. */
	expect_slot(D + 936, D + 936, D, 88, 0, 936);	 /* exact fit */
	expect_slot(D + 936, D + 936, D, 80, 88, 0);	 /* would leave 8 */
	expect_slot(D + 936, D + 936, D, 72, 0, 936);	 /* leaves 16 */
	expect_slot(D + 936, D + 936, D, 104, 88, 0);	 /* longer than the tail */
	/* 16 bytes left: a bare header fits exactly, anything else pads 16. */
	expect_slot(1008, 1008, D, 16, 0, 1008);
	expect_slot(1008, 1008, D, 24, 16, 0);
	/* 24 left: 16 would leave 8, so it pads too. */
	expect_slot(1000, 1000, D, 16, 24, 0);
	expect_slot(1000, 1000, D, 24, 0, 1000);
	/* A record as long as the whole ring fits an empty ring at offset 0. */
	expect_slot(2 * D, 2 * D, D, D, 0, 0);
	/* The largest record: its PAD still fits a u16 hdr.size. */
	expect_slot((1 << 20) - NPUPROF_RING_MAX_REC - 8, (1 << 20) - NPUPROF_RING_MAX_REC - 8,
		    1 << 20, NPUPROF_RING_MAX_REC, NPUPROF_RING_MAX_REC + 8, 0);
	CHECK(NPUPROF_RING_MAX_REC + 8 <= 0xffff);
}

static void test_full_cases(void)
{
	/* 936 used, 88 free at the end. */
	CHECK(fits(936, 0, 88));      /* exact fit uses all of it */
	CHECK(fits(936, 0, 72));      /* leaves 16 */
	CHECK(!fits(936, 0, 80));     /* needs 88 of PAD + 80 */
	CHECK(!fits(936, 0, 96));
	CHECK(fits(936, 80, 80));     /* once the reader freed 80 more */
	CHECK(!fits(936, 72, 80));
	/* Empty ring, but a record longer than the ring never fits. */
	CHECK(!fits(0, 0, D + 8));
	/* Out of range lengths. */
	CHECK(!fits(0, 0, 8));
	CHECK(!fits(0, 0, 0));
	CHECK(!fits(0, 0, NPUPROF_RING_MAX_REC + 8));
}

static void test_untrusted_consumer(void)
{
	CHECK(fits(5000, 5000, 88));
	CHECK(!fits(5000, 5008, 88));	  /* ahead of the producer */
	CHECK(!fits(5000, UINT64_MAX, 88));
	CHECK(!fits(5000, 5000 - D, 16));	  /* a full ring behind: no room */
	CHECK(!fits(5000, 5000 - D - 8, 16)); /* more than a ring behind */
	CHECK(!fits(5000, 0, 16));
	CHECK_EQ(npuprof_ring_room(5000, 5000 - 24, D), D - 24);
	CHECK_EQ(npuprof_ring_room(5000, 5008, D), 0);
	CHECK_EQ(npuprof_ring_room(5000, 5000 - D - 8, D), 0);
}

/* ---- many laps against a model ---- */

#define LAP_D 4096
#define LAP_N 120000

static const uint16_t lap_sizes[] = { 16, 88, 104, 24, 40, 56, 72, 120, 136, 200, 16, 88 };
#define NSIZES (sizeof(lap_sizes) / sizeof(lap_sizes[0]))

struct lap {
	uint64_t head;	       /* the model's producer position */
	uint64_t next_seq;     /* next record the reader must see */
	uint64_t delivered;
	uint64_t bad;
	uint64_t exact_fits;   /* records ending exactly at the end */
	uint64_t leaves_16;    /* records leaving a tail of one header */
	uint64_t pads;
	uint64_t pads_for_8;   /* PADs where the record would have left 8 */
	uint64_t pads_short;   /* PADs where the record was longer than the tail */
	uint64_t full_by_pad;  /* record alone fit, PAD + record did not */
	uint64_t pad_min;
};

/* The rule in words: at the offset when it fills the tail or leaves at
 * least a header; else pad the whole tail and start at 0. */
static uint64_t model_pad(uint64_t head, uint32_t len)
{
	uint64_t tail = LAP_D - head % LAP_D;

	return (len == tail || len + 16 <= tail) ? 0 : tail;
}

static void lap_make(uint8_t *buf, uint64_t seq)
{
	struct npuprof_rec_hdr *h = (void *)buf;
	uint16_t size = lap_sizes[((uint32_t)seq * 2654435761u >> 16) % NSIZES];

	h->type = seq % 2 ? NPUPROF_REC_TASK : NPUPROF_REC_API;
	h->size = size;
	h->cpu = 1;
	h->ts = seq;
	for (unsigned int i = sizeof(*h); i < size; i++)
		buf[i] = (uint8_t)(seq * 31 + i);
}

static int lap_check(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct lap *l = ctx;
	uint8_t want[256];

	lap_make(want, l->next_seq);
	if (rec->size != ((struct npuprof_rec_hdr *)want)->size ||
	    memcmp(rec, want, rec->size) != 0)
		l->bad++;
	l->next_seq++;
	l->delivered++;
	return 0;
}

/* Check a successful write against the model and the bytes of its PAD. */
static void lap_verify_write(struct memring *m, struct lap *l, uint32_t len)
{
	uint64_t pad = model_pad(l->head, len);
	uint64_t tail = LAP_D - l->head % LAP_D;
	const struct npuprof_rec_hdr *ph = (const void *)(m->data + l->head % LAP_D);

	if (m->last.pad != pad || m->last.start != l->head + pad ||
	    m->last.off != (l->head + pad) % LAP_D ||
	    m->prod.producer_pos != l->head + pad + len) {
		l->bad++;
		return;
	}
	if (pad) {
		if (ph->type != NPUPROF_REC_PAD || ph->size != pad || ph->cpu != 1 || ph->ts)
			l->bad++;
		l->pads++;
		l->pads_for_8 += tail == len + 8;
		l->pads_short += tail < len;
		if (pad < l->pad_min)
			l->pad_min = pad;
	}
	l->exact_fits += tail == len;
	l->leaves_16 += tail == len + 16;
	l->head += pad + len;
}

static void test_many_laps(void)
{
	struct memring m;
	struct lap l = { .pad_min = UINT64_MAX };
	uint64_t lost = 0, seq = 0;
	uint32_t rng = 1;
	uint8_t buf[256];

	CHECK_EQ(memring_init(&m, LAP_D, 1), 0);
	while (seq < LAP_N) {
		uint32_t len;

		lap_make(buf, seq);
		len = ((struct npuprof_rec_hdr *)buf)->size;
		if (memring_write(&m, (void *)buf) == 0) {
			lap_verify_write(&m, &l, len);
			seq++;
		} else {
			uint64_t room = LAP_D - (l.head - m.cons.consumer_pos);

			lost++;
			l.full_by_pad += len <= room;
			if (m.prod.producer_pos != l.head)
				l.bad++;
			npuprof_ring_consume(&m.view, lap_check, &l);
		}
		/* Read at irregular points so the ring is sometimes nearly full. */
		rng = rng * 1103515245u + 12345u;
		if ((rng >> 16) % 60 == 0)
			npuprof_ring_consume(&m.view, lap_check, &l);
	}
	npuprof_ring_consume(&m.view, lap_check, &l);
	CHECK_EQ(l.bad, 0);
	CHECK_EQ(l.delivered, LAP_N);
	CHECK_EQ(m.prod.written, LAP_N);
	CHECK_EQ(m.prod.lost, lost);
	CHECK_EQ(m.cons.consumer_pos, l.head);
	CHECK_EQ(m.prod.producer_pos, l.head);
	CHECK(l.head / LAP_D > 1500);
	CHECK(l.pad_min >= 16);
	/* Every branch of the rule ran, many times. */
	CHECK(l.exact_fits > 10);
	CHECK(l.pads_for_8 > 10);
	CHECK(l.pads_short > 10);
	CHECK(l.leaves_16 > 10);
	/* With sizes in multiples of 8 there is no third reason to pad. */
	CHECK_EQ(l.pads, l.pads_for_8 + l.pads_short);
	CHECK(l.full_by_pad > 0);
	fprintf(stderr, "laps %llu, pads %llu (tail+8: %llu, short: %llu), exact fits %llu, "
			"tails of 16 %llu, full because of the PAD %llu\n",
		(unsigned long long)(l.head / LAP_D), (unsigned long long)l.pads,
		(unsigned long long)l.pads_for_8, (unsigned long long)l.pads_short,
		(unsigned long long)l.exact_fits, (unsigned long long)l.leaves_16,
		(unsigned long long)l.full_by_pad);
	memring_free(&m);
}

int main(void)
{
	test_tail_cases();
	test_full_cases();
	test_untrusted_consumer();
	test_many_laps();
	return CHECK_DONE();
}
