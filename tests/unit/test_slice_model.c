// SPDX-License-Identifier: MIT
/*
 * Description: the modelled block codec (user/slice_model.c, frame
 * version 3) gives back exactly the records it was given, byte for byte
 * and in order, block after block with the history carried between them:
 * realistic task records of two interleaved streams, records of random
 * bytes under the modelled types and sizes, other types and sizes,
 * adversarial values (timestamps at 0 and UINT64_MAX, going backwards,
 * all equal; device times that overflow the linear prediction; classes
 * beyond the model's rows; all-ones and all-zero records), blocks of one
 * record and blocks cut at random points, plain blocks (no model) between
 * modelled ones, records at an odd address.  A reset encoder and decoder
 * start the next slice alike.  A record needing a 256th group is -E2BIG;
 * a block naming a newer version, flags or an unknown model is -EPROTO;
 * bad group counts, sizes, models, order bytes, present bitmaps or lengths
 * are -EBADMSG.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "recgen.h"
#include "taskgen.h"
#include "../../user/slice_model.h"

#define MAX_RAW (1u << 20)
#define MAX_NR (MAX_RAW / 16)

static uint8_t src[MAX_RAW], dst[MAX_RAW], blk[MAX_RAW + MAX_RAW / 4];
static struct slice_coder *enc, *dec;
static uint64_t rng = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Encode the @nr records noted, @len bytes at @p, as one block; decode, compare. */
static long block_trip(const uint8_t *p, size_t len, uint32_t nr)
{
	uint32_t got = 0;
	long n, raw;

	n = slice_mblock_encode(enc, p, len, blk);
	CHECK(n > 0);
	if (n <= 0)
		return n;
	CHECK(n <= (long)slice_mblock_bound(len, nr));
	raw = slice_mblock_check(blk, (size_t)n, &got);
	CHECK_EQ(raw, (long)len);
	CHECK_EQ(got, nr);
	memset(dst, 0xa5, len);
	CHECK_EQ(slice_mblock_decode(dec, blk, (size_t)n, dst), 0);
	CHECK(memcmp(p, dst, len) == 0);
	return n;
}

/* hdr.size of the record at @p, which need not be aligned. */
static uint16_t load_size(const uint8_t *p)
{
	uint16_t size;

	memcpy(&size, p + offsetof(struct npuprof_rec_hdr, size), sizeof(size));
	return size;
}

/*
 * Encode @len bytes of records at @p as one block, or as several where a
 * record needs a group more than a block holds (as the writer does).
 * Return: bytes of the last block.
 */
static long round_trip_at(const uint8_t *p, size_t len)
{
	size_t start = 0, off = 0;
	uint32_t nr = 0;

	while (off < len) {
		const struct npuprof_rec_hdr *h = (const void *)(p + off);
		int err = slice_coder_note(enc, h);

		if (err == -E2BIG) {
			block_trip(p + start, off - start, nr);
			start = off;
			nr = 0;
			err = slice_coder_note(enc, h);
		}
		CHECK_EQ(err, 0);
		off += load_size(p + off);
		nr++;
	}
	return block_trip(p + start, len - start, nr);
}

static long round_trip(size_t len)
{
	return round_trip_at(src, len);
}

/* Task records of two generators (two streams, two threads) interleaved. */
static size_t fill_tasks(size_t max, struct taskgen g[2])
{
	size_t len = 0;

	while (len + sizeof(struct npuprof_rec_task) <= max) {
		struct npuprof_rec_task t;
		unsigned int k = rnd() % 2;

		taskgen_next(&g[k], &t);
		t.stream = 1 + k;
		t.tid += k;
		memcpy(src + len, &t, sizeof(t));
		len += sizeof(t);
	}
	return len;
}

/* A record of @type and @size with random payload; hdr fields random too. */
static size_t put_random(size_t off, uint16_t type, uint16_t size)
{
	struct npuprof_rec_hdr h = { .type = type, .size = size, .cpu = (uint32_t)rnd(),
				     .ts = rnd() };

	for (size_t i = 0; i < size; i += 8) {
		uint64_t v = rnd();

		memcpy(src + off + i, &v, sizeof(v));
	}
	memcpy(src + off, &h, sizeof(h));
	return size;
}

/* Random mix of modelled and other records, random bytes throughout. */
static size_t fill_random(size_t max)
{
	static const uint16_t sizes[] = { 16, 24, 88, 96, 104, 112, 256 };
	size_t len = 0;

	for (;;) {
		uint16_t size = sizes[rnd() % 7];
		uint16_t type = (uint16_t)(rnd() % 6);

		if (len + size > max)
			return len;
		if (rnd() % 2) /* often exactly a modelled type and size */
			size = type == NPUPROF_REC_TASK ? 88 : type == NPUPROF_REC_API ? 104 : size;
		len += put_random(len, type, size);
	}
}

/* Adversarial values in modelled records: extremes, repeats, reversals. */
static size_t fill_adversarial(size_t max)
{
	static const uint64_t vals[] = { 0, 1, UINT64_MAX, UINT64_MAX - 1, 1ULL << 63,
					 (1ULL << 63) - 1, 10, 20 };
	size_t len = 0;

	while (len + 104 <= max) {
		int api = rnd() % 3 == 0;
		uint16_t size = api ? 104 : 88;
		uint64_t w[13];

		for (int j = 0; j < 13; j++)
			w[j] = rnd() % 4 ? vals[rnd() % 8] : rnd();
		if (rnd() % 4 == 0)
			memset(w, rnd() % 2 ? 0xff : 0, sizeof(w));
		memcpy(src + len, w, size);
		((struct npuprof_rec_hdr *)(src + len))->type = api ? NPUPROF_REC_API : NPUPROF_REC_TASK;
		((struct npuprof_rec_hdr *)(src + len))->size = size;
		len += size;
	}
	return len;
}

/* Blocks of random lengths over @len bytes of records at src (whole records). */
static void blocks_of(size_t len)
{
	size_t off = 0;

	while (off < len) {
		size_t want = 1 + rnd() % (len - off), end = off;

		while (end < len && end - off < want)
			end += ((const struct npuprof_rec_hdr *)(src + end))->size;
		round_trip_at(src + off, end - off);
		off = end;
	}
}

static void test_realistic(void)
{
	struct taskgen g[2];
	size_t len;

	taskgen_init(&g[0], 1, 0, 0);
	taskgen_init(&g[1], 2, 1, 0);
	slice_coder_reset(enc);
	slice_coder_reset(dec);
	for (int b = 0; b < 8; b++) {
		len = fill_tasks(b % 2 ? 40000 : MAX_RAW, g);
		round_trip(len);
	}
	len = fill_tasks(88, g); /* a block of one record */
	round_trip(len);
}

/* Records at an address that is not 8-aligned (a caller's byte buffer). */
static void test_unaligned(void)
{
	static uint8_t odd[200000 + 1];
	size_t len;

	slice_coder_reset(enc);
	slice_coder_reset(dec);
	len = fill_random(200000);
	memcpy(odd + 1, src, len);
	round_trip_at(odd + 1, len);
}

static void test_random(void)
{
	for (int slice = 0; slice < 4; slice++) {
		slice_coder_reset(enc);
		slice_coder_reset(dec);
		blocks_of(fill_random(200000));
		blocks_of(fill_adversarial(200000));
	}
}

/* Plain and modelled blocks in turn: the history skips the plain ones alike. */
static void test_plain(void)
{
	struct taskgen g[2];

	taskgen_init(&g[0], 5, 0, 0);
	taskgen_init(&g[1], 6, 1, 0);
	slice_coder_reset(enc);
	slice_coder_reset(dec);
	for (int b = 0; b < 6; b++) {
		const struct slice_mblock_group *gr = (const void *)(blk + sizeof(struct slice_mblock_hdr));

		slice_coder_plain(enc, b % 3 == 1);
		round_trip(fill_tasks(30000, g));
		CHECK_EQ(gr[0].model, b % 3 == 1 ? SLICE_MODEL_NONE : SLICE_MODEL_TASK);
	}
	slice_coder_plain(enc, false);
}

/* Constant and reversing timestamps, a device time far off the line. */
static void test_time_edges(void)
{
	struct npuprof_rec_task t = { .hdr = { NPUPROF_REC_TASK, 88, 0, 5 },
				      .event = NPUPROF_TASK_SUBMIT };
	size_t len = 0;

	slice_coder_reset(enc);
	slice_coder_reset(dec);
	for (int i = 0; i < 64; i++) { /* all at ts 5: the quantum falls back to 1 */
		memcpy(src + len, &t, sizeof(t));
		len += sizeof(t);
	}
	round_trip(len);
	len = 0;
	for (int i = 0; i < 64; i++) {
		t.hdr.ts = i % 2 ? UINT64_MAX - (uint64_t)i : (uint64_t)i * 1000;
		t.dev_ts = i % 3 ? (uint64_t)i : UINT64_MAX / 3 * (uint64_t)(i % 5);
		t.event = (uint16_t)(i % 7 ? i % 5 : 0xffff);
		memcpy(src + len, &t, sizeof(t));
		len += sizeof(t);
	}
	round_trip(len);
}

/* 255 groups fill a block; the 256th is -E2BIG until the block is encoded. */
static void test_groups_full(void)
{
	struct npuprof_rec_task t = { .hdr = { NPUPROF_REC_TASK, 88, 0, 1 } };
	size_t len = 0;

	slice_coder_reset(enc);
	slice_coder_reset(dec);
	for (uint16_t cls = 0; cls < SLICE_MBLOCK_MAX_GROUPS; cls++) {
		t.event = cls;
		CHECK_EQ(slice_coder_note(enc, &t.hdr), 0);
		memcpy(src + len, &t, sizeof(t));
		len += sizeof(t);
	}
	t.event = SLICE_MBLOCK_MAX_GROUPS;
	CHECK_EQ(slice_coder_note(enc, &t.hdr), -E2BIG);
	CHECK(slice_mblock_encode(enc, src, len, blk) > 0);
	CHECK_EQ(slice_coder_note(enc, &t.hdr), 0);
	CHECK(slice_mblock_encode(enc, (const uint8_t *)&t, sizeof(t), blk) > 0);
	/* records other than the noted ones are refused */
	CHECK_EQ(slice_coder_note(enc, &t.hdr), 0);
	CHECK_EQ(slice_mblock_encode(enc, src, 2 * sizeof(t), blk), -EINVAL);
}

static void test_check(void)
{
	struct taskgen g[2];
	struct slice_mblock_hdr *h = (void *)blk;
	struct slice_mblock_group *gr = (void *)(blk + sizeof(*h));
	uint8_t *seq, seq0;
	size_t len;
	uint32_t nr;
	long n;

	taskgen_init(&g[0], 3, 0, 0);
	taskgen_init(&g[1], 4, 1, 0);
	slice_coder_reset(enc);
	len = fill_tasks(100 * 88, g);
	for (size_t off = 0; off < len; off += 88)
		slice_coder_note(enc, (const void *)(src + off));
	n = slice_mblock_encode(enc, src, len, blk);
	CHECK(h->nr_groups > 1);
	seq = blk + sizeof(*h) + h->nr_groups * sizeof(*gr);
	CHECK_EQ(slice_mblock_check(blk, (size_t)n, &nr), (long)len);
	CHECK_EQ(slice_mblock_check(blk, (size_t)n - 1, &nr), -EBADMSG);
	CHECK_EQ(slice_mblock_check(blk, sizeof(*h) - 1, &nr), -EBADMSG);
	h->version++;
	CHECK_EQ(slice_mblock_check(blk, (size_t)n, &nr), -EPROTO);
	h->version--;
	h->flags = 1;
	CHECK_EQ(slice_mblock_check(blk, (size_t)n, &nr), -EPROTO);
	h->flags = 0;
	gr[0].model = SLICE_MODEL_COUNT;
	CHECK_EQ(slice_mblock_check(blk, (size_t)n, &nr), -EPROTO);
	gr[0].model = SLICE_MODEL_API; /* a task group claiming the API model */
	CHECK_EQ(slice_mblock_check(blk, (size_t)n, &nr), -EBADMSG);
	gr[0].model = SLICE_MODEL_TASK;
	gr[0].count++;
	CHECK_EQ(slice_mblock_check(blk, (size_t)n, &nr), -EBADMSG);
	gr[0].count--;
	gr[0].size = 12;
	CHECK_EQ(slice_mblock_check(blk, (size_t)n, &nr), -EBADMSG);
	gr[0].size = 88;
	seq0 = seq[0];
	seq[0] = (uint8_t)h->nr_groups;
	CHECK_EQ(slice_mblock_check(blk, (size_t)n, &nr), -EBADMSG);
	seq[0] = (uint8_t)((seq0 + 1) % h->nr_groups); /* a group one short, another over */
	CHECK_EQ(slice_mblock_check(blk, (size_t)n, &nr), -EBADMSG);
	seq[0] = seq0;
	blk[n - 1] ^= 1; /* the planes are not checked: it decodes, to other records */
	CHECK_EQ(slice_mblock_check(blk, (size_t)n, &nr), (long)len);
	blk[sizeof(*h) + h->nr_groups * sizeof(*gr) + 100] ^= 0xff; /* a present bitmap */
	CHECK_EQ(slice_mblock_check(blk, (size_t)n, &nr), -EBADMSG);
	slice_mblock_encode(enc, src, 0, blk); /* nothing noted: -EINVAL */
	h->quantum = 0;
	CHECK_EQ(slice_mblock_check(blk, (size_t)n, &nr), -EBADMSG);
}

int main(void)
{
	enc = slice_coder_new(MAX_RAW, MAX_NR);
	dec = slice_coder_new(0, 0);
	if (!enc || !dec)
		CHECK_SKIP("out of memory");
	test_realistic();
	test_random();
	test_plain();
	test_unaligned();
	test_time_edges();
	test_groups_full();
	test_check();
	slice_coder_free(enc);
	slice_coder_free(dec);
	return CHECK_DONE();
}
