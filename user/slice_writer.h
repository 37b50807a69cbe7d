/* SPDX-License-Identifier: MIT */
/*
 * Writer of one slice series (<dir>/<series>.slice_<n>, format in
 * user/include/prof/npuprof/slice.h), private to the drain.  Records collect in
 * blocks, each encoded (slice_model.h: version-3 frames) and compressed as
 * one zstd frame; a flush ends the open block and queues the frames as a
 * write on an I/O engine the caller owns and reaps (io_engine.h: io_uring,
 * or the pwrite fallback).  The caller passes every completion to
 * slice_writer_handle_cqe(), which recognises the writes by bit 0 of
 * user_data (SLICE_UDATA_WRITE): other users of the engine must keep that
 * bit clear.
 */
#ifndef NPUPROF_SLICE_WRITER_H
#define NPUPROF_SLICE_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include <npuprof/record.h>

#include "io_engine.h"

/* Bit 0 of a CQE's user_data: the CQE belongs to a slice write. */
#define SLICE_UDATA_WRITE 1ULL
/* user_data of a cancel request for a slice write (bit 0, no buffer). */
#define SLICE_UDATA_CANCEL SLICE_UDATA_WRITE

/**
 * struct slice_writer_cfg - what a series writes and where
 * @dir:         existing directory
 * @series:      file name stem, e.g. "npuprof.api"
 * @slice_bytes: start a new slice once this many compressed bytes went to
 *               the current one (checked at frame boundaries)
 * @zstd_level:  zstd compression level
 * @block_bytes: raw record bytes per block (one zstd frame); 0: 1 MiB
 * @source:      enum npuprof_source, for the stream headers
 * @device:      device id for the stream headers, -1 for host data
 * @lost:        optional: called for records that slice_writer_append()
 *               took (returned 0 for) and that will never be on disk
 *               whole: their frame was thrown away, or its write failed or
 *               was cut short.  @records of type @type (hdr.type) from
 *               the ring of @cpu (hdr.cpu); NPUPROF_REC_LOST records are
 *               not counted.  Called from append, flush, handle_cqe and
 *               close.
 * @closed:      optional: called once per slice when it is closed (its
 *               last write completed, its .done file written): its index,
 *               its bytes on disk and the records of its frames that
 *               reached the disk whole (stream headers and
 *               NPUPROF_REC_LOST records not counted).  Lets the drain age
 *               old slices out (--storage-limit); a slice whose writer was
 *               closed before its last write completed is not reported.
 * @lost_ctx:    passed to @lost and @closed
 */
struct slice_writer_cfg {
	const char *dir;
	const char *series;
	uint64_t slice_bytes;
	int zstd_level;
	uint32_t block_bytes;
	int source;
	int device;
	void (*lost)(void *ctx, uint32_t cpu, uint16_t type, uint64_t records);
	void (*closed)(void *ctx, unsigned int idx, uint64_t bytes, uint64_t records);
	void *lost_ctx;
};

/**
 * struct slice_writer_stats - totals of one series
 * @raw_bytes:  record bytes fed to the compressor, stream headers included
 * @file_bytes: bytes the kernel reported written to slice files
 * @slices:     slice files created
 * @error:      first -errno of a write or file creation, 0 if none
 */
struct slice_writer_stats {
	uint64_t raw_bytes;
	uint64_t file_bytes;
	uint64_t slices;
	int error;
};

struct slice_writer;

/**
 * slice_writer_open() - set up a series; no file exists until the first record
 * @io:   I/O engine for the writes; must outlive the writer
 * @cfg:  copied
 * @out:  the writer
 *
 * Return: 0; -ENOMEM; -errno of opening @cfg->dir.
 */
int slice_writer_open(struct io_engine *io, const struct slice_writer_cfg *cfg,
		      struct slice_writer **out);

/**
 * slice_writer_open_at() - as slice_writer_open(), with @cfg->dir given
 * open as @dir_fd (kept as a dup; @cfg->dir is then only for messages):
 * slices and .done files are made below it as new files, never through a
 * symlink (npuprof/prof_fs.h).  Return: 0; -ENOMEM; -errno of the dup.
 */
int slice_writer_open_at(struct io_engine *io, const struct slice_writer_cfg *cfg, int dir_fd,
			 struct slice_writer **out);

/**
 * slice_writer_append() - copy one record into the open block
 *
 * Opens the next slice (with its NPUPROF_REC_STREAM_HDR) when none is open;
 * ends the block (encodes and compresses it) when it is full, and queues a
 * write when finished frames make 1 MiB or the slice reached slice_bytes.
 *
 * Return: 0 when the record was taken (should its frame be lost later,
 * cfg.lost says so); the series' remembered write error (the record is
 * dropped); -errno from creating the slice file; -ENOMEM.  Every failure
 * is remembered: the open frame is thrown away (its records reported to
 * cfg.lost) and later calls return it.
 */
int slice_writer_append(struct slice_writer *w, const struct npuprof_rec_hdr *rec);

/**
 * slice_writer_flush() - end the open block and queue the frames for writing
 *
 * A no-op when nothing was appended since the last flush.  Rotates to a new
 * slice (on the next record) once the current one holds slice_bytes.
 *
 * Return: 0; the remembered write error; -ENOMEM (remembered, the frame
 * is thrown away); -EBUSY when the I/O engine had no room (not an error: the frame
 * stays queued and goes out with the next write or at close).
 */
int slice_writer_flush(struct slice_writer *w);

/**
 * slice_writer_flush_aged() - slice_writer_flush() once the oldest record
 * taken since the last flush is @max_age_ns old
 * @now_ns: CLOCK_MONOTONIC ns now
 *
 * Lets frames grow while records come slowly (fewer, larger frames are
 * smaller on disk) with the data on disk still at most @max_age_ns plus
 * the caller's period behind.  Return: as slice_writer_flush(); 0 when
 * nothing is due.
 */
int slice_writer_flush_aged(struct slice_writer *w, uint64_t now_ns, uint64_t max_age_ns);

/**
 * slice_writer_handle_cqe() - complete a write if @cqe is one of ours
 *
 * Resubmits the rest of a short write, starts the series' next queued
 * write, and closes a finished slice (writing its .done file).  Also takes
 * the CQEs of cancel requests (SLICE_UDATA_CANCEL) and of writes whose
 * writer was closed before they completed (it frees their buffers).
 *
 * Return: true when the CQE was a slice write or cancel (of any series).
 */
bool slice_writer_handle_cqe(const struct io_engine_cqe *cqe);

/** slice_writer_busy() - true while the series has writes queued or in flight. */
bool slice_writer_busy(const struct slice_writer *w);

/** slice_writer_stats() - totals so far. */
void slice_writer_stats(const struct slice_writer *w, struct slice_writer_stats *st);

/**
 * slice_writer_close() - flush, wait for every write, write .done, free
 * @w:  the writer; freed on return
 * @st: final totals, may be NULL
 *
 * Waits on the engine itself: completions that are not slice writes are consumed and
 * dropped, so call it only when nothing else is pending on the ring that
 * matters (the drain does at stop).  If waiting fails, the write in flight
 * is cancelled and its CQE awaited: its buffer is never freed while the
 * kernel may still read it.  Should waiting keep failing, that one buffer
 * is left to its CQE, which a later slice_writer_handle_cqe() frees; at
 * the drain's stop nothing reaps any more, and it is leaked on purpose.
 *
 * Return: 0, or the series' first write error.
 */
int slice_writer_close(struct slice_writer *w, struct slice_writer_stats *st);

#endif /* NPUPROF_SLICE_WRITER_H */
