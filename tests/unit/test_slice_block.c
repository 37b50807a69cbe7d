// SPDX-License-Identifier: MIT
/*
 * Description: the slice block codec (user/slice_block.c) gives back
 * exactly the records it was given, byte for byte and in order: mixed
 * record sizes, counts that are and are not multiples of the 8-record
 * tile, one record, realistic task records.  Deltas are per 16-bit lane
 * and all-zero byte planes are left out (exactly those: the block size is
 * checked against planes counted here), and a block written before that
 * (flags 0: word deltas, every plane stored; built here byte by byte)
 * still decodes.  A block with a bad
 * layout count, a bad order index, a present-plane bitmap that disagrees
 * with its length, a short length or a bad record size is -EBADMSG; a
 * newer version or unknown flags is -EPROTO; more than 255 distinct sizes
 * in one block is -E2BIG.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "recgen.h"
#include "taskgen.h"
#include "../../user/slice_block.h"

#define MAX_RECS 5000

static uint8_t src[MAX_RECS * RECGEN_MAX], dst[MAX_RECS * RECGEN_MAX];
static uint8_t blk[MAX_RECS * RECGEN_MAX + 4096];
static uint32_t scratch[MAX_RECS];

/* Encode @nr records of @len bytes at src, decode, compare.  Return: block bytes. */
static long round_trip(size_t len, uint32_t nr)
{
	long n = slice_block_encode(src, len, nr, scratch, blk);
	uint32_t got_nr = 0;
	long raw;

	CHECK(n > 0);
	CHECK(n <= (long)slice_block_bound(len, nr));
	raw = slice_block_check(blk, (size_t)n, &got_nr);
	CHECK_EQ(raw, (long)len);
	CHECK_EQ(got_nr, nr);
	if (raw != (long)len)
		return n;
	memset(dst, 0x5a, len);
	slice_block_decode(blk, (size_t)n, scratch, dst);
	CHECK(memcmp(src, dst, len) == 0);
	return n;
}

static size_t fill_recgen(uint32_t nr, uint64_t first)
{
	size_t len = 0;

	for (uint32_t i = 0; i < nr; i++)
		len += recgen_make(src + len, first + i);
	return len;
}

/*
 * Byte @b of word @j of the delta of record @k of the @size-byte records
 * at @p: per 16-bit lane (@lane16) or per 64-bit word (blocks before
 * SLICE_BLOCK_F_LANE16).
 */
static uint8_t delta_byte(const uint8_t *p, size_t size, uint32_t k, uint32_t j, uint32_t b,
			  bool lane16)
{
	uint64_t w, prev = 0;
	uint16_t lw, lp;

	memcpy(&w, p + k * size + 8 * j, 8);
	if (k)
		memcpy(&prev, p + (k - 1) * size + 8 * j, 8);
	if (!lane16)
		return (uint8_t)((w - prev) >> (8 * b));
	lw = (uint16_t)(w >> (16 * (b / 2)));
	lp = (uint16_t)(prev >> (16 * (b / 2)));
	return (uint8_t)((uint16_t)(lw - lp) >> (8 * (b % 2)));
}

/* Planes of @nr @size-byte records at @p that hold a nonzero byte. */
static uint32_t nonzero_planes(const uint8_t *p, size_t size, uint32_t nr)
{
	uint32_t n = 0;

	for (uint32_t pl = 0; pl < size; pl++) {
		uint8_t any = 0;

		for (uint32_t k = 0; k < nr; k++)
			any |= delta_byte(p, size, k, pl / 8, pl % 8, true);
		n += any != 0;
	}
	return n;
}

/* A flags-0 block (every plane stored, word deltas) of @nr @size-byte records, into blk. */
static size_t dense_block(const uint8_t *p, size_t size, uint32_t nr)
{
	struct slice_block_hdr h = { .magic = SLICE_BLOCK_MAGIC, .version = 1,
				     .nr_records = nr, .nr_layouts = 1 };
	struct slice_block_layout l = { .size = (uint32_t)size, .count = nr };
	size_t len = sizeof(h) + sizeof(l);

	memcpy(blk, &h, sizeof(h));
	memcpy(blk + sizeof(h), &l, sizeof(l));
	for (uint32_t pl = 0; pl < size; pl++)
		for (uint32_t k = 0; k < nr; k++)
			blk[len++] = delta_byte(p, size, k, pl / 8, pl % 8, false);
	return len;
}

/* Blocks of flags 0 (every plane, word deltas), as written before the flags, decode. */
static void dense_reads(size_t size, uint32_t nr)
{
	size_t n = dense_block(src, size, nr);
	uint32_t got;

	CHECK_EQ(slice_block_check(blk, n, &got), (long)(size * nr));
	CHECK_EQ(got, nr);
	memset(dst, 0x5a, size * nr);
	slice_block_decode(blk, n, scratch, dst);
	CHECK(memcmp(src, dst, size * nr) == 0);
}

/* A present[] bitmap that disagrees with the block's length. */
static void bad_bitmap(void)
{
	size_t len = fill_recgen(100, 7);
	long n = slice_block_encode(src, len, 100, scratch, blk);
	struct slice_block_hdr *h = (void *)blk;
	uint8_t *present = blk + sizeof(*h) + h->nr_layouts * sizeof(struct slice_block_layout) + 100;
	uint32_t nr, b = 0;

	CHECK_EQ(h->flags, SLICE_BLOCK_F_SPARSE | SLICE_BLOCK_F_LANE16);
	CHECK(present[0] != 0xff); /* some plane of word 0 (type, size) is left out */
	while (present[0] & (1u << b))
		b++;
	present[0] |= (uint8_t)(1u << b); /* claims a plane that is not there */
	CHECK_EQ(slice_block_check(blk, (size_t)n, &nr), -EBADMSG);
	present[0] &= (uint8_t)~(1u << b);
	CHECK_EQ(slice_block_check(blk, (size_t)n, &nr), (long)len);
	present[0] &= (uint8_t)(present[0] - 1); /* drops a plane that is there */
	CHECK_EQ(slice_block_check(blk, (size_t)n, &nr), -EBADMSG);
	CHECK_EQ(slice_block_check(blk, sizeof(*h) + 3 * sizeof(struct slice_block_layout) + 100 + 2,
				   &nr),
		 -EBADMSG); /* cut inside the bitmaps */
}

static void malformed(void)
{
	size_t len = fill_recgen(100, 7);
	long n = slice_block_encode(src, len, 100, scratch, blk);
	struct slice_block_hdr *h = (void *)blk;
	struct slice_block_layout *l = (void *)(blk + sizeof(*h));
	uint8_t *seq = (uint8_t *)(l + h->nr_layouts);
	uint32_t nr;

	CHECK_EQ(h->nr_layouts, 3); /* 104, 88 (two task kinds) and 40 bytes */
	CHECK_EQ(slice_block_check(blk, (size_t)n - 1, &nr), -EBADMSG);
	l[1].count++;
	CHECK_EQ(slice_block_check(blk, (size_t)n, &nr), -EBADMSG);
	l[1].count--;
	l[2].size = 20;
	CHECK_EQ(slice_block_check(blk, (size_t)n, &nr), -EBADMSG);
	l[2].size = 8;
	CHECK_EQ(slice_block_check(blk, (size_t)n, &nr), -EBADMSG);
	slice_block_encode(src, len, 100, scratch, blk);
	seq[3] = 3;
	CHECK_EQ(slice_block_check(blk, (size_t)n, &nr), -EBADMSG);
	seq[3] = seq[4] == 0 ? 1 : 0; /* counts no longer match the order */
	CHECK_EQ(slice_block_check(blk, (size_t)n, &nr), -EBADMSG);
	slice_block_encode(src, len, 100, scratch, blk);
	h->nr_layouts = 0;
	CHECK_EQ(slice_block_check(blk, (size_t)n, &nr), -EBADMSG);
	h->nr_layouts = 3;
	h->version = SLICE_BLOCK_VERSION + 1;
	CHECK_EQ(slice_block_check(blk, (size_t)n, &nr), -EPROTO);
	h->version = SLICE_BLOCK_VERSION;
	h->flags |= 0x8000;
	CHECK_EQ(slice_block_check(blk, (size_t)n, &nr), -EPROTO);
	h->flags &= ~0x8000;
	CHECK_EQ(slice_block_check(blk, (size_t)n, &nr), (long)len);
	CHECK_EQ(slice_block_check(blk, 3, &nr), -EBADMSG);
	CHECK(!slice_block_is(src, len)); /* a record stream is not a block */
}

static void too_many_sizes(void)
{
	size_t len = 0;

	for (uint32_t i = 0; i < 256; i++) {
		struct npuprof_rec_hdr *h = (void *)(src + len);

		memset(h, 0, 16 + 8 * i);
		h->type = NPUPROF_REC_API;
		h->size = (uint16_t)(16 + 8 * i);
		len += h->size;
	}
	CHECK_EQ(slice_block_encode(src, len, 256, scratch, blk), -E2BIG);
	CHECK(round_trip(len - (16 + 8 * 255), 255) > 0);
}

int main(void)
{
	static const uint32_t counts[] = { 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 100, 1001, MAX_RECS };
	struct taskgen g;
	size_t len;
	long n;

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		round_trip(fill_recgen(counts[i], i * 13), counts[i]);

	/* one size only: no order bytes; deltas shrink the block's entropy */
	taskgen_init(&g, 5, 1, 0);
	for (len = 0; len < MAX_RECS * sizeof(struct npuprof_rec_task); len += sizeof(struct npuprof_rec_task))
		taskgen_next(&g, (void *)(src + len));
	n = round_trip(len, MAX_RECS);
	CHECK_EQ(((struct slice_block_hdr *)blk)->nr_layouts, 1);
	CHECK_EQ(n, (long)(sizeof(struct slice_block_hdr) + sizeof(struct slice_block_layout) +
			   sizeof(struct npuprof_rec_task) / 8 +
			   nonzero_planes(src, sizeof(struct npuprof_rec_task), MAX_RECS) *
				   MAX_RECS));
	dense_reads(sizeof(struct npuprof_rec_task), MAX_RECS);
	dense_reads(sizeof(struct npuprof_rec_task), 13);

	/* one record: its deltas are the record itself, zero bytes and all */
	round_trip(sizeof(struct npuprof_rec_task), 1);
	CHECK_EQ(round_trip(sizeof(struct npuprof_rec_task), 1),
		 (long)(sizeof(struct slice_block_hdr) + sizeof(struct slice_block_layout) +
			sizeof(struct npuprof_rec_task) / 8 +
			nonzero_planes(src, sizeof(struct npuprof_rec_task), 1)));

	malformed();
	bad_bitmap();
	too_many_sizes();
	return CHECK_DONE();
}
