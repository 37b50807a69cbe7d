// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the slice reader (user/slice_reader.c) on fuzzed slice
 * series, npuprof.api.slice_0.. _2 in a tmpfs directory.
 *
 * Input: a mode byte, then up to three slices, each a u16 length and that
 * many bytes.  Mode bit 0 set: the bytes are the file as it is (arbitrary
 * bytes, real slices from the corpus and their mutations: corrupt zstd).
 * Clear: the bytes are decoded records, written as zstd frames split,
 * cut and corrupted as a shape (fuzz_util.h) read before each slice says;
 * with bit 4 set the frames are version 3 (modelled blocks, each coded
 * with the history of the slice's frames before it, slice_model.h) of the
 * whole records the bytes begin with, else version 1 (the bytes as they
 * are).  Bits 1-3: the callback fails at that record (0: never).
 *
 * Properties checked beyond the sanitizers: every record handed out is
 * whole, aligned and (for clean frames) byte-identical to what was
 * written at the same place; each slice starts with a stream header; the
 * report counts what was delivered; a clean series accounts for every
 * decoded byte as delivered or truncated; a callback error comes back.
 */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <npuprof/record.h>
#include <npuprof/record_io.h>
#include <npuprof/slice.h>

#include "fuzz_util.h"
#include "../../user/slice_model.h"

#define MAX_SLICES 3
#define CANCEL_ERR (-ECANCELED)

struct expect {
	const uint8_t *data[MAX_SLICES]; /* decoded bytes, compressed mode */
	size_t len[MAX_SLICES];
	bool clean[MAX_SLICES];		 /* no cut, no flip */
	unsigned int slice;		 /* slice of the next record */
	size_t off;			 /* its offset in data[slice] */
	uint64_t records;
	uint64_t delivered[MAX_SLICES]; /* record bytes per slice */
	unsigned int cancel_at;		/* 1..7: fail at that record */
	bool raw;
	bool modelled;
};

static char dir[PATH_MAX];
static volatile uint8_t sink;
static volatile unsigned long names_known;

static int on_record(void *ctx, const struct npuprof_rec_hdr *h)
{
	struct expect *e = ctx;
	uint8_t sum = 0;

	FUZZ_ASSERT(h->size >= sizeof(*h) && h->size % NPUPROF_REC_ALIGN == 0);
	for (size_t i = 0; i < h->size; i++) /* ASan: all of it is readable */
		sum ^= ((const uint8_t *)h)[i];
	sink = sum;
	/* the names of the ids a record carries: NULL for unknown ones */
	if (h->type == NPUPROF_REC_API && h->size >= sizeof(struct npuprof_rec_api))
		names_known += !!npuprof_api_name(((const struct npuprof_rec_api *)h)->api);
	if (h->type == NPUPROF_REC_TASK && h->size >= sizeof(struct npuprof_rec_task))
		names_known += !!npuprof_task_type_name(((const struct npuprof_rec_task *)h)->task_type);
	e->records++;
	if (e->cancel_at && e->records == e->cancel_at)
		return CANCEL_ERR;
	return 0;
}

/*
 * The reader is done with the current slice: what is left of its decoded
 * bytes is less than a record header, or less than the record it starts.
 */
static bool slice_done(const struct expect *e)
{
	size_t left = e->len[e->slice] - e->off;
	uint16_t size;

	if (left < sizeof(struct npuprof_rec_hdr))
		return true;
	memcpy(&size, e->data[e->slice] + e->off + offsetof(struct npuprof_rec_hdr, size),
	       sizeof(size));
	return size > left;
}

/* Compressed, clean slices: records are the written bytes, in order. */
static int on_record_exact(void *ctx, const struct npuprof_rec_hdr *h)
{
	struct expect *e = ctx;

	while (e->slice < MAX_SLICES && slice_done(e)) {
		e->slice++;
		e->off = 0;
	}
	FUZZ_ASSERT(e->slice < MAX_SLICES);
	if (e->off == 0)
		FUZZ_ASSERT(h->type == NPUPROF_REC_STREAM_HDR &&
			    ((const struct npuprof_rec_stream_hdr *)h)->magic == NPUPROF_STREAM_MAGIC);
	FUZZ_ASSERT(memcmp(h, e->data[e->slice] + e->off, h->size) == 0);
	e->off += h->size;
	e->delivered[e->slice] += h->size;
	return on_record(ctx, h);
}

static void remove_slices(void)
{
	char path[PATH_MAX + 64];

	for (unsigned int i = 0; i < MAX_SLICES; i++) {
		snprintf(path, sizeof(path), "%s/npuprof.api.slice_%u", dir, i);
		unlink(path);
	}
}

/* Bytes of the whole records @data begins with (a record header each). */
static size_t whole_records(const uint8_t *data, size_t len)
{
	size_t pos = 0;

	while (len - pos >= sizeof(struct npuprof_rec_hdr)) {
		uint16_t size;

		memcpy(&size, data + pos + offsetof(struct npuprof_rec_hdr, size), sizeof(size));
		if (size < sizeof(struct npuprof_rec_hdr) || size % NPUPROF_REC_ALIGN ||
		    size > len - pos)
			break;
		pos += size;
	}
	return pos;
}

/* Compressed frames of a modelled slice, growing as they come. */
struct mframes {
	uint8_t *buf;
	size_t len, cap;
};

/* Encode the records noted, @len bytes at @p, as one zstd frame onto @f. */
static void put_mframe(struct slice_coder *c, ZSTD_CCtx *cc, const uint8_t *p, size_t len,
		       uint32_t nr, struct mframes *f)
{
	size_t bound = slice_mblock_bound(len, nr), z;
	uint8_t *blk = malloc(bound);
	long n = blk ? slice_mblock_encode(c, p, len, blk) : -ENOMEM;

	FUZZ_ASSERT(n > 0);
	if (f->cap - f->len < ZSTD_compressBound((size_t)n)) {
		f->cap = 2 * f->cap + ZSTD_compressBound((size_t)n);
		f->buf = realloc(f->buf, f->cap);
		FUZZ_ASSERT(f->buf);
	}
	z = ZSTD_compress2(cc, f->buf + f->len, f->cap - f->len, blk, (size_t)n);
	FUZZ_ASSERT(!ZSTD_isError(z));
	f->len += z;
	free(blk);
}

/*
 * Write @path: the @len bytes of whole records at @data as version-3
 * frames of about shape->chunk bytes (a frame ends early where a block
 * holds no more groups), then cut and flipped as @shape says.
 */
static void write_modelled(const char *path, const uint8_t *data, size_t len,
			   const struct fuzz_slice_shape *shape)
{
	size_t chunk = shape->chunk ? shape->chunk : len + 1, start = 0, pos = 0;
	struct slice_coder *c = slice_coder_new(0, 0);
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	struct mframes f = { 0 };
	uint32_t nr = 0;

	FUZZ_ASSERT(c && cc);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
	while (pos < len) {
		const struct npuprof_rec_hdr *h = (const void *)(data + pos);
		uint16_t size;
		int err;

		memcpy(&size, data + pos + offsetof(struct npuprof_rec_hdr, size), sizeof(size));
		err = nr && pos + size - start > chunk ? -E2BIG : slice_coder_note(c, h);

		if (err == -E2BIG) { /* the frame is full: the record starts the next */
			put_mframe(c, cc, data + start, pos - start, nr, &f);
			start = pos;
			nr = 0;
			continue;
		}
		FUZZ_ASSERT(err == 0);
		pos += size;
		nr++;
	}
	if (nr)
		put_mframe(c, cc, data + start, pos - start, nr, &f);
	f.len -= shape->cut < f.len ? shape->cut : f.len;
	if (shape->flip && f.len)
		f.buf[shape->flip_at % f.len] ^= shape->flip;
	FUZZ_ASSERT(fuzz_write_file(path, f.buf, f.len) == 0);
	free(f.buf);
	ZSTD_freeCCtx(cc);
	slice_coder_free(c);
}

/* Write the slices; return how many. */
static unsigned int write_slices(struct fuzz_in *in, struct expect *e)
{
	char path[PATH_MAX + 64];
	unsigned int n = 0;

	while (n < MAX_SLICES && in->left) {
		struct fuzz_slice_shape shape = { 0 };
		const uint8_t *data;
		size_t len;

		if (!e->raw)
			shape = fuzz_slice_shape(in);
		len = fuzz_section(in, &data);
		snprintf(path, sizeof(path), "%s/npuprof.api.slice_%u", dir, n);
		if (e->modelled)
			len = whole_records(data, len);
		if (e->raw)
			FUZZ_ASSERT(fuzz_write_file(path, data, len) == 0);
		else if (e->modelled)
			write_modelled(path, data, len, &shape);
		else
			FUZZ_ASSERT(fuzz_write_slice(path, data, len, &shape) == 0);
		e->data[n] = data;
		e->len[n] = len;
		e->clean[n] = !e->raw && !shape.cut && !shape.flip;
		n++;
	}
	return n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_mkdtemp(dir, sizeof(dir), "slice");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *buf, size_t size)
{
	struct fuzz_in in = { buf, size };
	struct npuprof_read_report rep;
	struct expect e = { 0 };
	uint8_t mode = fuzz_u8(&in);
	unsigned int n, i;
	bool clean = true;
	int err;

	e.raw = mode & 1;
	e.cancel_at = (mode >> 1) & 7;
	e.modelled = !e.raw && (mode & 0x10);
	remove_slices();
	n = write_slices(&in, &e);
	for (i = 0; i < n; i++)
		clean = clean && e.clean[i];
	err = npuprof_slice_read_series(dir, "npuprof.api", clean ? on_record_exact : on_record, &e,
					&rep);
	if (!n) {
		FUZZ_ASSERT(err == -ENOENT);
		return 0;
	}
	FUZZ_ASSERT(err == 0 || err == -EBADMSG || err == CANCEL_ERR);
	FUZZ_ASSERT(err != CANCEL_ERR || (e.cancel_at && e.records == e.cancel_at));
	FUZZ_ASSERT(rep.records == e.records - (err == CANCEL_ERR));
	FUZZ_ASSERT(rep.slices >= 1 && rep.slices <= n);
	if (err)
		return 0;
	FUZZ_ASSERT(rep.slices == n);
	if (clean) {
		uint64_t total = 0, delivered = 0;

		for (i = 0; i < n; i++) {
			total += e.len[i];
			delivered += e.delivered[i];
		}
		FUZZ_ASSERT(delivered + rep.truncated_bytes == total);
	}
	return 0;
}
