/* SPDX-License-Identifier: MIT */
/*
 * Deterministic test records for the slice and drain tests: record number
 * @seq has a type, size and payload that depend only on @seq, so a reader
 * can rebuild the expected bytes and compare exactly.  Payload bytes come
 * from a small LCG so zstd cannot squeeze them to nothing.
 */
#ifndef NPUPROF_TEST_RECGEN_H
#define NPUPROF_TEST_RECGEN_H

#include <stdint.h>
#include <string.h>

#include <npuprof/record.h>

#define RECGEN_MAX 128 /* bytes, the largest record recgen_make() builds */

static inline uint32_t recgen_next(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Fill @buf with record @seq: API, TASK (device seq % 3) or LOST by turns.
 * hdr.ts is the sequence number.  Returns the record size. */
static inline uint16_t recgen_make(uint8_t *buf, uint64_t seq)
{
	static const uint16_t types[] = { NPUPROF_REC_API, NPUPROF_REC_TASK, NPUPROF_REC_TASK,
					  NPUPROF_REC_LOST };
	static const uint16_t sizes[] = { sizeof(struct npuprof_rec_api),
					  sizeof(struct npuprof_rec_task),
					  sizeof(struct npuprof_rec_task),
					  sizeof(struct npuprof_rec_lost) };
	struct npuprof_rec_hdr *h = (void *)buf;
	uint32_t s = (uint32_t)seq * 2654435761u;
	unsigned int k = seq % 4;

	memset(buf, 0, RECGEN_MAX);
	for (unsigned int i = sizeof(*h); i < sizes[k]; i++)
		buf[i] = (uint8_t)recgen_next(&s);
	h->type = types[k];
	h->size = sizes[k];
	h->cpu = (uint32_t)(seq % 2);
	h->ts = seq;
	if (h->type == NPUPROF_REC_TASK)
		((struct npuprof_rec_task *)buf)->device = (uint32_t)(seq % 3);
	return h->size;
}

/* 1 when @rec is byte for byte record @seq. */
static inline int recgen_equal(const struct npuprof_rec_hdr *rec, uint64_t seq)
{
	uint8_t want[RECGEN_MAX];
	uint16_t size = recgen_make(want, seq);

	return rec->size == size && memcmp(rec, want, size) == 0;
}

/* What recgen_check() counted of a read back series. */
struct recgen_got {
	uint64_t seq;  /* records seen, each compared with record @seq */
	uint64_t hdrs; /* stream headers seen */
	uint64_t bad;  /* records that were not byte for byte the expected one */
};

/* An npuprof_rec_fn: records must come back as recgen made them, in order. */
static inline int recgen_check(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct recgen_got *g = ctx;

	if (rec->type == NPUPROF_REC_STREAM_HDR) {
		g->hdrs++;
		return 0;
	}
	if (!recgen_equal(rec, g->seq))
		g->bad++;
	g->seq++;
	return 0;
}

#endif /* NPUPROF_TEST_RECGEN_H */
