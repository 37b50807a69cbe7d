// SPDX-License-Identifier: MIT
/*
 * Reader of slice series (format in user/include/prof/npuprof/slice.h): opens
 * <dir>/<series>.slice_<first>, <first + 1>, ... in order (first is 0
 * unless --storage-limit aged older slices out); a missing number with
 * higher ones present is a gap, reported (the records in it are gone)
 * and read past, so newer slices are never dropped silently; it
 * decompresses the
 * concatenated zstd frames of each with one streaming context, and hands
 * out whole records.  A frame holds either records as they are (version 1),
 * one block (version 2, slice_block.h) or one modelled block (version 3,
 * slice_model.h, decoded with the history of the slice's frames before
 * it), decoded back into records here.
 *
 * Records are delivered a frame at a time, once the frame decoded in full
 * and its checksum matched: a frame cut short by a crash or a partial copy
 * delivers nothing and is reported as truncated_bytes, so a reader never
 * sees half of a flush.  A frame zstd rejects is corruption: the read stops
 * with -EBADMSG after the frames before it were delivered.  Where a slice
 * was cut or corrupt, and which slices lack their .done file (or name
 * another size in it), goes into the report, for the export to say why
 * its data is incomplete.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <npuprof/prof_fs.h>
#include <npuprof/prof_layout.h>
#include <npuprof/slice.h>

#include "slice_block.h"
#include "slice_model.h"

struct slice_reader {
	npuprof_rec_fn fn;
	void *ctx;
	struct npuprof_read_report rep;
	ZSTD_DCtx *dctx;
	uint8_t *pend; /* decoded bytes not yet handed out */
	size_t pend_len;
	size_t pend_cap;
	size_t committed; /* bytes of pend that came from complete frames */
	bool want_hdr;	  /* next record must be the slice's stream header */
	uint8_t *in;	  /* compressed input, in_cap bytes */
	size_t in_cap;
	uint8_t *blk;	  /* records decoded from a block */
	size_t blk_cap;
	uint32_t *scratch; /* the block codec's, scratch_cap entries */
	size_t scratch_cap;
	struct slice_coder *coder; /* modelled blocks: the slice's history */
};

static int reader_reserve(struct slice_reader *r)
{
	size_t need = r->pend_len + ZSTD_DStreamOutSize();
	uint8_t *p;

	if (need <= r->pend_cap)
		return 0;
	if (need < 2 * r->pend_cap)
		need = 2 * r->pend_cap;
	p = realloc(r->pend, need);
	if (!p)
		return -ENOMEM;
	r->pend = p;
	r->pend_cap = need;
	return 0;
}

/* The first record of a slice: a stream header with our magic. */
static int reader_check_hdr(struct slice_reader *r, const struct npuprof_rec_hdr *h)
{
	const struct npuprof_rec_stream_hdr *sh = (const void *)h;

	if (h->type != NPUPROF_REC_STREAM_HDR || h->size < sizeof(*sh) ||
	    sh->magic != NPUPROF_STREAM_MAGIC)
		return -EBADMSG;
	if (sh->version > NPUPROF_RECORD_VERSION)
		r->rep.bad_version++;
	r->want_hdr = false;
	return 0;
}

/* Hand out the whole records of @len bytes at @buf; *@pos: bytes taken. */
static int reader_hand_out(struct slice_reader *r, const uint8_t *buf, size_t len, size_t *pos_out)
{
	size_t pos = 0;
	int err = 0;

	while (len - pos >= sizeof(struct npuprof_rec_hdr)) {
		const struct npuprof_rec_hdr *h = (const void *)(buf + pos);

		if (h->size < sizeof(*h) || h->size % NPUPROF_REC_ALIGN)
			return -EBADMSG;
		if (h->size > len - pos)
			break;
		if (r->want_hdr) {
			err = reader_check_hdr(r, h);
			if (err)
				return err;
		}
		err = r->fn(r->ctx, h);
		if (err)
			return err;
		r->rep.records++;
		pos += h->size;
		*pos_out = pos;
	}
	return 0;
}

/* Grow *@buf to @need bytes of @size.  Return: 0, -ENOMEM. */
static int reader_grow(void **buf, size_t *cap, size_t need, size_t size)
{
	void *p;

	if (need <= *cap)
		return 0;
	p = realloc(*buf, need * size);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = need;
	return 0;
}

/* True when the block in pend is a modelled one (version 3 frame). */
static bool reader_modelled(const struct slice_reader *r)
{
	uint16_t version;

	if (r->pend_len < offsetof(struct slice_block_hdr, flags))
		return false;
	memcpy(&version, r->pend + offsetof(struct slice_block_hdr, version), sizeof(version));
	return version >= SLICE_MBLOCK_VERSION;
}

/* Decode the block in pend into r->blk.  Return: its record bytes, -errno. */
static long reader_decode(struct slice_reader *r)
{
	bool modelled = reader_modelled(r);
	uint32_t nr;
	long raw = modelled ? slice_mblock_check(r->pend, r->pend_len, &nr) :
			      slice_block_check(r->pend, r->pend_len, &nr);

	if (raw == -EPROTO)
		r->rep.bad_version++; /* a newer writer's block: cannot decode it */
	if (raw < 0)
		return -EBADMSG;
	if (reader_grow((void **)&r->blk, &r->blk_cap, (size_t)raw, 1))
		return -ENOMEM;
	if (modelled) {
		if (!r->coder)
			r->coder = slice_coder_new(0, 0);
		if (!r->coder || slice_mblock_decode(r->coder, r->pend, r->pend_len, r->blk))
			return -ENOMEM;
		return raw;
	}
	if (reader_grow((void **)&r->scratch, &r->scratch_cap, nr, sizeof(*r->scratch)))
		return -ENOMEM;
	slice_block_decode(r->pend, r->pend_len, r->scratch, r->blk);
	return raw;
}

/* A version-2 or -3 frame: decode its block and hand out every record of it. */
static int reader_block(struct slice_reader *r)
{
	long raw = reader_decode(r);
	size_t pos = 0;
	int err;

	if (raw < 0)
		return (int)raw;
	err = reader_hand_out(r, r->blk, (size_t)raw, &pos);
	if (!err && pos != (size_t)raw)
		err = -EBADMSG; /* a block holds whole records */
	r->pend_len = r->committed = 0;
	return err;
}

/*
 * Hand out every whole record of a just-completed frame; keep a partial
 * one at the front of pend for the next frame.  A block can only start a
 * frame that follows whole records (the writer never splits one).
 */
static int reader_deliver(struct slice_reader *r)
{
	size_t pos = 0;
	int err;

	if (!r->committed && slice_block_is(r->pend, r->pend_len))
		return reader_block(r);
	err = reader_hand_out(r, r->pend, r->pend_len, &pos);
	if (err)
		return err;
	memmove(r->pend, r->pend + pos, r->pend_len - pos);
	r->pend_len -= pos;
	r->committed = r->pend_len;
	return 0;
}

/*
 * Decode one chunk of compressed input.  *frame_end is advanced to the file
 * offset just past each frame that completed.  Keeps calling zstd while it
 * fills the output, so nothing decoded stays inside the context.
 */
static int reader_feed(struct slice_reader *r, const uint8_t *buf, size_t len,
		       uint64_t file_pos, uint64_t *frame_end)
{
	ZSTD_inBuffer in = { buf, len, 0 };

	for (;;) {
		ZSTD_outBuffer out;
		size_t ret;
		int err;

		if (reader_reserve(r))
			return -ENOMEM;
		out = (ZSTD_outBuffer){ r->pend, r->pend_cap, r->pend_len };
		ret = ZSTD_decompressStream(r->dctx, &out, &in);
		if (ZSTD_isError(ret))
			return -EBADMSG;
		r->pend_len = out.pos;
		if (ret == 0) {
			*frame_end = file_pos + in.pos;
			err = reader_deliver(r);
			if (err)
				return err;
		}
		if (in.pos == in.size && out.pos < out.size)
			return 0;
	}
}

static int reader_slice(struct slice_reader *r, int fd, uint32_t idx)
{
	uint64_t file_pos = 0, frame_end = 0;

	ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
	if (r->coder)
		slice_coder_reset(r->coder); /* a slice decodes on its own */
	r->pend_len = r->committed = 0;
	r->want_hdr = true;
	for (;;) {
		ssize_t n = read(fd, r->in, r->in_cap);
		int err;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		err = reader_feed(r, r->in, (size_t)n, file_pos, &frame_end);
		if (err == -EBADMSG && !r->rep.corrupt) {
			r->rep.corrupt = 1;
			r->rep.corrupt_slice = idx;
			r->rep.corrupt_at = frame_end;
		}
		if (err)
			return err;
		file_pos += (uint64_t)n;
	}
	if (file_pos > frame_end) {
		r->rep.cut = 1;
		r->rep.cut_slice = idx;
		r->rep.cut_at = frame_end;
		r->rep.cut_size = file_pos;
	}
	/* File bytes of a frame cut short; decoded bytes of a record cut short. */
	r->rep.truncated_bytes += file_pos - frame_end;
	r->rep.cut_record_bytes += r->committed;
	return 0;
}

/* Compare <@path>.done ("filesize:<n>") with the size of the slice @fd. */
static void reader_check_done(struct slice_reader *r, const char *path, int fd, uint32_t idx)
{
	char done[PATH_MAX + 8], text[64];
	unsigned long long size;
	struct stat st;
	ssize_t n;
	int dfd;

	npuprof_slice_done_name(done, sizeof(done), path);
	dfd = npuprof_prof_open_regular(done);
	if (dfd < 0) {
		if (!r->rep.not_done++)
			r->rep.first_not_done = idx;
		return;
	}
	n = read(dfd, text, sizeof(text) - 1);
	close(dfd);
	text[n > 0 ? n : 0] = '\0';
	if (fstat(fd, &st) || sscanf(text, "filesize:%llu", &size) != 1 ||
	    size == (unsigned long long)st.st_size)
		return;
	if (!r->rep.done_mismatch++) {
		r->rep.mismatch_slice = idx;
		r->rep.mismatch_done = size;
		r->rep.mismatch_size = (uint64_t)st.st_size;
	}
}

/*
 * The lowest n >= @from of the <@series>.slice_<n> files in @dir (not
 * .done): the first slice of a series whose oldest were aged out, or the
 * next one past a gap.  Return: 0 with *@first set; -ENOENT when there is
 * none; -errno of opening @dir.
 */
static int reader_next_slice(const char *dir, const char *series, unsigned long from,
			     unsigned int *first)
{
	size_t len = strlen(series), infix = strlen(NPUPROF_PROF_SLICE_INFIX);
	unsigned long best = ULONG_MAX;
	struct dirent *e;
	DIR *dp = opendir(dir);

	if (!dp)
		return -errno;
	while ((e = readdir(dp))) {
		const char *p = e->d_name + len + infix;
		unsigned long n;
		char *end;

		if (strncmp(e->d_name, series, len) ||
		    strncmp(e->d_name + len, NPUPROF_PROF_SLICE_INFIX, infix) || *p < '0' || *p > '9')
			continue;
		n = strtoul(p, &end, 10);
		if (!*end && n >= from && n < best && n <= UINT32_MAX)
			best = n;
	}
	closedir(dp);
	if (best == ULONG_MAX)
		return -ENOENT;
	*first = (unsigned int)best;
	return 0;
}

/*
 * Past slice @idx, missing in a series read from @first: the next slice
 * there is, in *@next, with the gap counted.  Return: 1 with *@next set;
 * 0 at the series' end; -ENOENT when there was no slice at all; -errno.
 */
static int reader_skip_gap(struct slice_reader *r, const char *dir, const char *series,
			   unsigned int first, unsigned int idx, unsigned int *next)
{
	int err = idx > first ? reader_next_slice(dir, series, (unsigned long)idx + 1, next)
			      : -ENOENT;

	if (err == -ENOENT)
		return idx > first ? 0 : -ENOENT;
	if (err)
		return err;
	if (!r->rep.missing)
		r->rep.first_missing = idx;
	r->rep.missing += *next - idx;
	return 1;
}

static int reader_series(struct slice_reader *r, const char *dir, const char *series)
{
	unsigned int first = 0, idx;
	int err = reader_next_slice(dir, series, 0, &first);

	if (err && err != -ENOENT)
		return err;
	r->rep.first_slice = first;
	for (idx = first;;) {
		char path[PATH_MAX], name[NAME_MAX + 1];
		int fd;

		if (npuprof_slice_name(name, sizeof(name), series, idx) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
			return -ENAMETOOLONG;
		fd = npuprof_prof_open_regular(path);
		if (fd == -ENOENT) {
			err = reader_skip_gap(r, dir, series, first, idx, &idx);
			if (err <= 0)
				return err;
			continue; /* at the slice past the gap */
		}
		if (fd < 0)
			return fd;
		r->rep.slices++;
		reader_check_done(r, path, fd, idx);
		err = reader_slice(r, fd, idx);
		close(fd);
		if (err)
			return err;
		idx++;
	}
}

int npuprof_slice_read_series(const char *dir, const char *series, npuprof_rec_fn fn,
			      void *ctx, struct npuprof_read_report *rep)
{
	struct slice_reader r = { .fn = fn, .ctx = ctx };
	int err;

	r.in_cap = ZSTD_DStreamInSize();
	r.in = malloc(r.in_cap);
	r.dctx = ZSTD_createDCtx();
	err = r.in && r.dctx ? reader_series(&r, dir, series) : -ENOMEM;
	ZSTD_freeDCtx(r.dctx);
	free(r.in);
	free(r.pend);
	free(r.blk);
	free(r.scratch);
	slice_coder_free(r.coder);
	if (rep)
		*rep = r.rep;
	return err;
}
