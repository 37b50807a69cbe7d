// SPDX-License-Identifier: MIT
/*
 * Description: the slice block codec (user/slice_block.c) gives back
 * exactly the records it was given, byte for byte and in order: mixed
 * record sizes, counts that are and are not multiples of the 8-record
 * tile, one record, realistic task records.  A block with a bad layout
 * count, a bad order index, a short length or a bad record size is
 * -EBADMSG; a newer version or unknown flags is -EPROTO; more than 255
 * distinct sizes in one block is -E2BIG.
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
	h->flags = 1;
	CHECK_EQ(slice_block_check(blk, (size_t)n, &nr), -EPROTO);
	h->flags = 0;
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
	CHECK_EQ(n, (long)(sizeof(struct slice_block_hdr) + sizeof(struct slice_block_layout) + len));

	malformed();
	too_many_sizes();
	return CHECK_DONE();
}
