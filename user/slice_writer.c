// SPDX-License-Identifier: MIT
/*
 * Writer of one slice series: records -> a block buffer -> block encoding
 * (slice_model.c, with the history of the slice's earlier blocks) -> one
 * zstd frame per block -> a write at the slice file's offset, through the drain's I/O engine
 * (io_engine.h: io_uring, or pwrite from a writer thread).
 *
 * Design:
 *  - Records are copied into a block buffer (block_bytes, 1 MiB by
 *    default); a full buffer, or a flush, encodes it and compresses it as
 *    one zstd frame in one call: per-record compressor calls cost more
 *    than the compression itself, and the block encoding needs a block.
 *  - Finished frames collect in the output buffer until a flush, or until
 *    they make SLICE_WRITE_BYTES: writes are large (small buffered writes
 *    cost per call, see the anchors) and a crash still loses at most what
 *    came after the last flush.  Frames carry a checksum, so a reader can
 *    tell a torn frame from a good one.
 *  - Each write turns the compressed bytes into a write buffer on the
 *    series' FIFO.  Only the head of the FIFO is in flight: writes of a
 *    series land in order, a file's written size is always a prefix of it,
 *    and the first error stops the rest of the queue (later frames would
 *    leave a hole).  Series are few and flushes are 0.2-1 s apart, so one
 *    write in flight per series costs nothing.
 *  - A buffer lives until its CQE arrived; a short write is resubmitted for
 *    the rest at the advanced offset.
 *  - Rotation happens at frame boundaries: once a slice holds slice_bytes,
 *    it is retired, and the next record opens slice_<n+1> with a new stream
 *    header.  A retired slice is closed, and its .done file written, when
 *    its last write completed.
 *  - .done files are a few bytes and written once per slice, with plain
 *    write(2); the I/O engine carries the record data.
 *  - Each frame remembers how many records of each CPU and type it holds
 *    (runs: the drain reads a ring at a time, so runs are few).  A frame
 *    thrown away, or whose write failed or was cut short, hands those
 *    counts to cfg.lost: a taken record is on disk or counted lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include <npuprof/clock.h>
#include <npuprof/prof_fs.h>
#include <npuprof/prof_layout.h>

#include "slice_model.h"
#include "slice_writer.h"

/* Raw record bytes per block unless the config says otherwise. */
#define SLICE_BLOCK_BYTES (1u << 20)
/* Finished frames queue a write once they make this many bytes. */
#define SLICE_WRITE_BYTES (1u << 20)

/* Failed waits for the CQE of a cancelled write before giving up on it. */
#define SLICE_WAIT_TRIES 8

struct slice_file {
	int fd;
	int dir_fd;	      /* a dup of the writer's: .done may outlive it */
	unsigned int idx;
	uint64_t queued;      /* bytes queued: the final size once written */
	uint64_t written;     /* bytes the kernel confirmed */
	unsigned int pending; /* write buffers not yet completed */
	bool retired;         /* no more frames will be queued to it */
	uint64_t records;     /* records of frames written whole */
	void (*closed)(void *ctx, unsigned int idx, uint64_t bytes, uint64_t records);
	void *ctx;	      /* cfg.lost_ctx, for @closed */
	char path[PATH_MAX];
	char name[NAME_MAX + 1]; /* path's last component */
};

/* Records of one CPU and type in a row, in a frame. */
struct cpu_run {
	uint32_t cpu;
	uint16_t type;
	uint32_t n;
};

/* The records of one frame, as runs of one CPU. */
struct frame_runs {
	struct cpu_run *r;
	size_t n;
	size_t cap;
};

struct slice_buf {
	struct slice_writer *w;
	struct frame_runs runs;
	struct slice_file *f;
	uint8_t *data;
	size_t len;
	size_t done;
	uint64_t off; /* file offset of data[0] */
	struct slice_buf *next;
};

struct slice_writer {
	struct io_engine *io;
	struct slice_writer_cfg cfg; /* dir and series point into names[] */
	char names[2][PATH_MAX];
	int dir_fd; /* cfg.dir, open: slices are made below it (prof_fs.h) */
	ZSTD_CCtx *cctx;
	struct slice_file *cur; /* slice taking frames, NULL between slices */
	unsigned int next_idx;
	uint8_t *raw; /* records of the open block, raw_cap bytes */
	size_t raw_len;
	size_t raw_limit; /* block_bytes: a block ends before passing it */
	uint32_t raw_nr;
	struct slice_coder *coder; /* the slice's block encoder (slice_model.h) */
	uint8_t *blk;	     /* the open block, encoded */
	uint32_t *scratch;   /* version-1 blocks' codec's, one per record */
	bool plain;	     /* the open block: version 1 (see writer_end_block()) */
	uint8_t *out; /* finished frames not yet queued for writing */
	size_t out_len;
	size_t out_cap;
	struct frame_runs open; /* records not yet queued for writing */
	uint64_t open_ns; /* CLOCK_MONOTONIC when the oldest of them was taken */
	struct slice_buf *head; /* write FIFO; the head is in flight */
	struct slice_buf *tail;
	bool head_submitted;
	struct slice_writer_stats st;
};

static void writer_fail(struct slice_writer *w, int err)
{
	if (!w->st.error)
		w->st.error = err;
}

/* Count one record of @cpu and @type in @fr.  Return: 0 or -ENOMEM. */
static int runs_add(struct frame_runs *fr, uint32_t cpu, uint16_t type)
{
	struct cpu_run *r, *last = fr->n ? &fr->r[fr->n - 1] : NULL;

	if (last && last->cpu == cpu && last->type == type && last->n < UINT32_MAX) {
		fr->r[fr->n - 1].n++;
		return 0;
	}
	if (fr->n == fr->cap) {
		size_t cap = fr->cap ? 2 * fr->cap : 8;

		r = realloc(fr->r, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		fr->r = r;
		fr->cap = cap;
	}
	fr->r[fr->n++] = (struct cpu_run){ .cpu = cpu, .type = type, .n = 1 };
	return 0;
}

/* Hand the records of @fr to cfg.lost and forget them. */
static void runs_lose(const struct slice_writer *w, struct frame_runs *fr)
{
	for (size_t i = 0; w->cfg.lost && i < fr->n; i++)
		w->cfg.lost(w->cfg.lost_ctx, fr->r[i].cpu, fr->r[i].type, fr->r[i].n);
	fr->n = 0;
}

/* "filesize:<n>\n" next to the slice, as CANN's file_slice.cpp does. */
static void file_write_done(const struct slice_file *f)
{
	char name[NAME_MAX + 8], text[48];
	int fd, len;

	npuprof_slice_done_name(name, sizeof(name), f->name); /* fits: see writer_open_file() */
	len = snprintf(text, sizeof(text), "filesize:%llu\n", (unsigned long long)f->written);
	fd = npuprof_prof_create(f->dir_fd, name);
	if (fd < 0)
		return; /* the slice itself stays readable without it */
	if (write(fd, text, (size_t)len) != len)
		unlinkat(f->dir_fd, name, 0); /* a wrong size is worse than none */
	close(fd);
}

/* Close a retired slice once nothing is in flight for it. */
static void file_maybe_finish(struct slice_file *f)
{
	if (!f->retired || f->pending)
		return;
	close(f->fd);
	file_write_done(f);
	if (f->closed)
		f->closed(f->ctx, f->idx, f->written, f->records);
	close(f->dir_fd);
	free(f);
}

static int writer_open_file(struct slice_writer *w)
{
	struct slice_file *f = calloc(1, sizeof(*f));
	/* room left for the name of its .done file */
	size_t room = sizeof(f->name) - (sizeof(NPUPROF_PROF_DONE_SUFFIX) - 1);

	if (!f)
		return -ENOMEM;
	f->idx = w->next_idx;
	if (npuprof_slice_name(f->name, room, w->cfg.series, f->idx) ||
	    snprintf(f->path, sizeof(f->path), "%s/%s", w->cfg.dir, f->name) >= (int)sizeof(f->path)) {
		free(f);
		return -ENAMETOOLONG;
	}
	/* a new file: a name already taken (a planted symlink) is -EEXIST */
	f->fd = npuprof_prof_create(w->dir_fd, f->name);
	f->dir_fd = f->fd < 0 ? -1 : fcntl(w->dir_fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	if (f->dir_fd < 0) {
		int err = f->fd < 0 ? f->fd : -errno;

		if (f->fd >= 0)
			close(f->fd);
		free(f);
		return err;
	}
	f->closed = w->cfg.closed;
	f->ctx = w->cfg.lost_ctx;
	w->next_idx++;
	w->st.slices++;
	w->cur = f;
	slice_coder_reset(w->coder); /* a slice decodes on its own */
	w->plain = false;
	return 0;
}

static void writer_retire_cur(struct slice_writer *w)
{
	struct slice_file *f = w->cur;

	if (!f)
		return;
	w->cur = NULL;
	f->retired = true;
	file_maybe_finish(f);
}

/* Make room for @more bytes of output. */
static int writer_reserve(struct slice_writer *w, size_t more)
{
	size_t need = w->out_len + more;
	uint8_t *p;

	if (need <= w->out_cap)
		return 0;
	if (need < 2 * w->out_cap)
		need = 2 * w->out_cap;
	p = realloc(w->out, need);
	if (!p)
		return -ENOMEM;
	w->out = p;
	w->out_cap = need;
	return 0;
}

/* True while records were taken that no write was queued for yet. */
static bool writer_pending(const struct slice_writer *w)
{
	return w->raw_nr || w->out_len;
}

/*
 * End the open block: encode it and compress it as one whole zstd frame
 * onto w->out.  @full: it ended because it was full (not a flush).
 * Return: 0; -ENOMEM (zstd fails only on allocation here).
 */
static int writer_end_block(struct slice_writer *w, bool full)
{
	ZSTD_inBuffer in = { w->blk, 0, 0 };
	long n;
	size_t left;

	if (!w->raw_nr)
		return 0;
	if (w->plain) {
		n = slice_block_encode(w->raw, w->raw_len, w->raw_nr, w->scratch, w->blk);
		slice_coder_drop(w->coder);
	} else {
		n = slice_mblock_encode(w->coder, w->raw, w->raw_len, w->blk);
	}
	if (n < 0)
		return (int)n; /* cannot happen: append keeps the block valid */
	in.size = (size_t)n;
	do {
		ZSTD_outBuffer out;

		if (writer_reserve(w, ZSTD_compressBound(in.size - in.pos)))
			return -ENOMEM;
		out = (ZSTD_outBuffer){ w->out, w->out_cap, w->out_len };
		left = ZSTD_compressStream2(w->cctx, &out, &in, ZSTD_e_end);
		if (ZSTD_isError(left))
			return -ENOMEM;
		w->out_len = out.pos;
	} while (left != 0);
	w->st.raw_bytes += w->raw_len;
	w->raw_len = 0;
	w->raw_nr = 0;
	/*
	 * Model the next block's records only while blocks end before they
	 * fill: the model costs about as much CPU per record as the rest of
	 * the drain, so it is spent while records come at less than a block
	 * per frame_ms (1 MiB/s by default: a few ms of CPU a second); a
	 * faster series writes version-1 blocks (frame version 2, as before
	 * the model), which the reader takes in any mix.
	 */
	w->plain = full;
	slice_coder_plain(w->coder, full);
	return 0;
}

/* Copy one record into the open block, ending the block first when it
 * would pass block_bytes or need more groups than a block holds.
 * Return: 0, -ENOMEM. */
static int writer_stage(struct slice_writer *w, const struct npuprof_rec_hdr *rec)
{
	int err = 0;

	if (w->raw_nr && w->raw_len + rec->size > w->raw_limit)
		err = writer_end_block(w, true);
	if (!err)
		err = slice_coder_note(w->coder, rec);
	if (err == -E2BIG) {
		err = writer_end_block(w, true);
		if (!err)
			err = slice_coder_note(w->coder, rec);
	}
	if (err)
		return err;
	memcpy(w->raw + w->raw_len, rec, rec->size);
	w->raw_len += rec->size;
	w->raw_nr++;
	return 0;
}

/*
 * A compressor or allocation failure leaves the open frame half built:
 * remember the error (nothing more of this series is written, so no later
 * frame can follow a hole) and throw the partial frame away.
 */
static int writer_abort_frame(struct slice_writer *w, int err)
{
	writer_fail(w, err);
	runs_lose(w, &w->open);
	ZSTD_CCtx_reset(w->cctx, ZSTD_reset_session_only);
	slice_coder_reset(w->coder);
	w->out_len = 0;
	w->raw_len = 0;
	w->raw_nr = 0;
	return err;
}

static int writer_stream_hdr(struct slice_writer *w)
{
	struct npuprof_rec_stream_hdr sh = {
		.hdr = { .type = NPUPROF_REC_STREAM_HDR, .size = sizeof(sh), .ts = npuprof_mono_ns() },
		.magic = NPUPROF_STREAM_MAGIC,
		.version = NPUPROF_RECORD_VERSION,
		.source = (uint16_t)w->cfg.source,
		.slice = w->cur->idx,
		.device = w->cfg.device,
	};

	return writer_stage(w, &sh.hdr);
}

int slice_writer_open(struct io_engine *io, const struct slice_writer_cfg *cfg,
		      struct slice_writer **out)
{
	int fd = open(cfg->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = slice_writer_open_at(io, cfg, fd, out);
	close(fd);
	return err;
}

/* Buffers sized for blocks of raw_limit bytes (at least one largest record). */
static int writer_alloc(struct slice_writer *w)
{
	size_t cap = w->raw_limit > UINT16_MAX ? w->raw_limit : UINT16_MAX;
	uint32_t max_nr = (uint32_t)(cap / sizeof(struct npuprof_rec_hdr));

	w->cctx = ZSTD_createCCtx();
	w->raw = malloc(cap);
	w->blk = malloc(slice_mblock_bound(cap, max_nr));
	w->scratch = malloc(max_nr * sizeof(*w->scratch));
	w->coder = slice_coder_new(cap, max_nr);
	return w->cctx && w->raw && w->blk && w->scratch && w->coder ? 0 : -ENOMEM;
}

/* Everything writer_alloc() and open made, but the queue. */
static void writer_free(struct slice_writer *w)
{
	ZSTD_freeCCtx(w->cctx);
	close(w->dir_fd);
	free(w->raw);
	free(w->blk);
	free(w->scratch);
	slice_coder_free(w->coder);
	free(w->open.r);
	free(w->out);
	free(w);
}

int slice_writer_open_at(struct io_engine *io, const struct slice_writer_cfg *cfg, int dir_fd,
			 struct slice_writer **out)
{
	struct slice_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	w->dir_fd = fcntl(dir_fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	if (w->dir_fd < 0) {
		free(w);
		return -errno;
	}
	w->io = io;
	w->cfg = *cfg;
	snprintf(w->names[0], PATH_MAX, "%s", cfg->dir);
	snprintf(w->names[1], PATH_MAX, "%s", cfg->series);
	w->cfg.dir = w->names[0];
	w->cfg.series = w->names[1];
	w->raw_limit = cfg->block_bytes ? cfg->block_bytes : SLICE_BLOCK_BYTES;
	if (writer_alloc(w)) {
		writer_free(w);
		return -ENOMEM;
	}
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, cfg->zstd_level);
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1);
	*out = w;
	return 0;
}

/* Hand the head of the FIFO to the kernel if it is not there yet. */
static int writer_kick(struct slice_writer *w)
{
	struct slice_buf *b = w->head;
	int err;

	if (!b || w->head_submitted)
		return 0;
	err = io_engine_write(w->io, b->f->fd, b->data + b->done, b->len - b->done,
			      b->off + b->done, (uint64_t)(uintptr_t)b | SLICE_UDATA_WRITE);
	if (err)
		return -EBUSY; /* no room (or no memory) now: kicked again later */
	w->head_submitted = true;
	io_engine_submit(w->io);
	return 0;
}

/* Queue the finished frame in w->out as a write at the end of the slice. */
static int writer_queue_frame(struct slice_writer *w)
{
	struct slice_buf *b = calloc(1, sizeof(*b));

	if (!b)
		return -ENOMEM;
	b->w = w;
	b->f = w->cur;
	b->data = w->out;
	b->len = w->out_len;
	b->off = w->cur->queued;
	b->runs = w->open; /* the frame's records go with its bytes */
	w->open = (struct frame_runs){ 0 };
	w->cur->queued += b->len;
	w->cur->pending++;
	w->out = NULL;
	w->out_len = w->out_cap = 0;
	if (w->tail)
		w->tail->next = b;
	else
		w->head = b;
	w->tail = b;
	return writer_kick(w);
}

int slice_writer_flush(struct slice_writer *w)
{
	int err;

	if (w->st.error) {
		/* the failure came after these records were taken */
		if (writer_pending(w))
			writer_abort_frame(w, w->st.error);
		return w->st.error;
	}
	if (!writer_pending(w))
		return 0;
	err = writer_end_block(w, false);
	if (err)
		return writer_abort_frame(w, err);
	err = writer_queue_frame(w);
	if (err == -ENOMEM)
		return writer_abort_frame(w, err);
	w->open_ns = 0;
	if (w->cur && w->cur->queued >= w->cfg.slice_bytes)
		writer_retire_cur(w);
	return err; /* -EBUSY: queued, kicked again by the next write or close */
}

int slice_writer_append(struct slice_writer *w, const struct npuprof_rec_hdr *rec)
{
	int err;

	if (w->st.error)
		return w->st.error;
	if (!writer_pending(w))
		w->open_ns = npuprof_mono_ns(); /* the frame's first record */
	if (!w->cur) {
		err = writer_open_file(w);
		if (err) {
			writer_fail(w, err);
			return err;
		}
		err = writer_stream_hdr(w);
		if (err)
			return writer_abort_frame(w, err);
	}
	err = writer_stage(w, rec);
	if (!err && rec->type != NPUPROF_REC_LOST)
		err = runs_add(&w->open, rec->cpu, rec->type);
	if (err)
		return writer_abort_frame(w, err);
	/*
	 * Write once finished frames make a large write, and do not let a
	 * slice run far past its size between flushes.  The record is taken
	 * now: should this flush fail, cfg.lost counts it with the rest.
	 */
	if (w->out_len >= SLICE_WRITE_BYTES || w->cur->queued + w->out_len >= w->cfg.slice_bytes)
		slice_writer_flush(w);
	return 0;
}

int slice_writer_flush_aged(struct slice_writer *w, uint64_t now_ns, uint64_t max_age_ns)
{
	if (!w->st.error && (!writer_pending(w) || now_ns - w->open_ns < max_age_ns))
		return 0;
	return slice_writer_flush(w);
}

/*
 * Release a buffer the kernel is done with (or never had).  A frame not
 * written whole is lost, records and all (a buffer whose writer is gone
 * was counted when it was left, see writer_wait_failed()).
 */
static void writer_free_buf(struct slice_buf *b)
{
	if (b->w && b->done < b->len)
		runs_lose(b->w, &b->runs);
	for (size_t i = 0; b->done == b->len && i < b->runs.n; i++)
		b->f->records += b->runs.r[i].n;
	b->f->pending--;
	file_maybe_finish(b->f);
	free(b->runs.r);
	free(b->data);
	free(b);
}

static void writer_pop_head(struct slice_writer *w)
{
	struct slice_buf *b = w->head;

	w->head = b->next;
	if (!w->head)
		w->tail = NULL;
	w->head_submitted = false;
	writer_free_buf(b);
}

/*
 * After a failure nothing more of this series reaches the disk: free every
 * queued buffer, except the one in flight.  The kernel may still read that
 * one, so it stays at the head until its CQE arrives.
 */
static void writer_drop_queue(struct slice_writer *w, int err)
{
	struct slice_buf *b;

	writer_fail(w, err);
	if (w->head_submitted) {
		b = w->head->next;
		w->head->next = NULL;
		w->tail = w->head;
	} else {
		b = w->head;
		w->head = w->tail = NULL;
	}
	while (b) {
		struct slice_buf *next = b->next;

		writer_free_buf(b);
		b = next;
	}
	writer_retire_cur(w);
}

/* The CQE of a write whose writer gave up waiting for it and is gone. */
static void writer_orphan_done(struct slice_buf *b, int res)
{
	if (res > 0)
		b->f->written += (uint64_t)res;
	writer_free_buf(b);
}

bool slice_writer_handle_cqe(const struct io_engine_cqe *cqe)
{
	uint64_t ud = cqe->user_data;
	struct slice_buf *b;
	struct slice_writer *w;
	int res = cqe->res;

	if (!(ud & SLICE_UDATA_WRITE))
		return false;
	if (ud == SLICE_UDATA_CANCEL)
		return true; /* the head's own CQE is what matters */
	b = (struct slice_buf *)(uintptr_t)(ud & ~SLICE_UDATA_WRITE);
	w = b->w;
	if (!w) {
		writer_orphan_done(b, res);
		return true;
	}
	w->head_submitted = false;
	if ((res == -EINTR || res == -EAGAIN) && !w->st.error) {
		writer_kick(w);
		return true;
	}
	if (res <= 0) {
		writer_drop_queue(w, res < 0 ? res : -EIO);
		return true;
	}
	b->done += (size_t)res;
	b->f->written += (uint64_t)res;
	w->st.file_bytes += (uint64_t)res;
	if (w->st.error) {
		/* A failure came while this write was in flight. */
		writer_drop_queue(w, w->st.error);
		return true;
	}
	if (b->done == b->len)
		writer_pop_head(w);
	if (writer_kick(w))
		writer_drop_queue(w, -EBUSY);
	return true;
}

bool slice_writer_busy(const struct slice_writer *w)
{
	return w->head != NULL;
}

void slice_writer_stats(const struct slice_writer *w, struct slice_writer_stats *st)
{
	*st = w->st;
}

/* Ask the kernel to cancel the write in flight; its CQE still comes. */
static void writer_cancel_head(struct slice_writer *w)
{
	if (io_engine_cancel(w->io, (uint64_t)(uintptr_t)w->head | SLICE_UDATA_WRITE,
			     SLICE_UDATA_CANCEL))
		return; /* the write completes on its own, or is orphaned */
	io_engine_submit(w->io);
}

/*
 * Waiting for CQEs failed @tries times in a row.  The series is failed and
 * its queue dropped at once, but the write in flight owns its buffer until
 * its CQE: cancel it and keep waiting.  Only when waiting keeps failing is
 * the buffer left to its CQE (whoever reaps it frees it, see
 * writer_orphan_done()), never freed under the kernel.  At the drain's
 * stop nobody reaps after this, so that one buffer (and its fd) is leaked
 * on purpose: a leak is the price of never writing from freed memory.
 *
 * Return: true when there is nothing left to wait for.
 */
static bool writer_wait_failed(struct slice_writer *w, int err, unsigned int tries)
{
	struct slice_buf *b;

	if (tries == 1) {
		writer_drop_queue(w, err);
		if (w->head)
			writer_cancel_head(w);
	}
	if (!w->head)
		return true;
	if (tries < SLICE_WAIT_TRIES)
		return false;
	b = w->head;
	runs_lose(w, &b->runs); /* never confirmed: counted lost now */
	b->w = NULL;
	b->f->closed = NULL; /* its context goes with the writer */
	w->head = w->tail = NULL;
	w->head_submitted = false;
	return true;
}

/* Reap completions until this series has nothing queued or in flight. */
static void writer_wait_idle(struct slice_writer *w)
{
	unsigned int tries = 0;

	while (w->head) {
		struct io_engine_cqe cqe;
		int err;

		/* A flush that found the engine full left its write unsubmitted. */
		if (!w->head_submitted && writer_kick(w)) {
			writer_drop_queue(w, -EBUSY); /* nothing in flight */
			break;
		}
		err = io_engine_wait(w->io, -1);
		if (err == -EINTR)
			continue;
		if (err) {
			if (writer_wait_failed(w, err, ++tries))
				break;
			continue;
		}
		while (w->head && io_engine_peek(w->io, &cqe))
			slice_writer_handle_cqe(&cqe);
	}
}

int slice_writer_close(struct slice_writer *w, struct slice_writer_stats *st)
{
	int err;

	slice_writer_flush(w); /* a failure is remembered in w->st.error */
	writer_wait_idle(w);
	writer_retire_cur(w);
	err = w->st.error;
	if (st)
		*st = w->st;
	writer_free(w);
	return err;
}
