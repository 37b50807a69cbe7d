/* SPDX-License-Identifier: MIT */
/*
 * Slice files: <dir>/<series>.slice_<n>, each a sequence of complete zstd
 * frames whose content is a sequence of records (include/npuprof/record.h)
 * beginning with NPUPROF_REC_STREAM_HDR.  Three frame versions, told apart
 * by the frame's first bytes: version 1 holds the records as they are
 * (one may continue into the next frame); version 2 holds one block of
 * whole records (SLICE_BLOCK_MAGIC, block version 1, user/slice_block.h),
 * grouped by size, delta-coded and split into byte planes; version 3,
 * written since, holds one modelled block (same magic, block version 2,
 * user/slice_model.h): each field stored against a prediction from
 * earlier records of the slice, so a version-3 frame decodes only after
 * the slice's frames before it (each still a whole zstd frame with its
 * checksum: a cut or damaged file still yields every whole frame before
 * the damage).  The reader takes all three, in any mix; <slice>.done holds
 * "filesize:<bytes>\n" once the slice is closed (CANN's file_slice.cpp
 * convention).  The writer side lives in the drain (user/slice_writer.c);
 * this header is the reader, used by the export and the tests.
 */
#ifndef NPUPROF_SLICE_H
#define NPUPROF_SLICE_H

#include <stdint.h>
#include <npuprof/record_io.h>

/**
 * struct npuprof_read_report - what a read found
 * @slices:          slice files read
 * @records:         records delivered (stream headers included)
 * @truncated_bytes: bytes of the slice files after their last whole zstd
 *                   frame (a crash or a cut copy: compressed bytes, as
 *                   the files hold them); 0 for a clean series
 * @cut_record_bytes: decoded bytes of a record that the whole frames of a
 *                   slice end inside of (its rest was never written);
 *                   never counted in @truncated_bytes, which counts file
 *                   bytes
 * @bad_version:     stream headers with a version newer than ours
 * @cut:             1 when a slice ends inside a zstd frame (a crash
 *                   mid-write, or a cut copy): @cut_slice is its index,
 *                   @cut_at the byte where its whole frames end and
 *                   @cut_size its size (the last such slice if several)
 * @corrupt:         1 when zstd rejected a frame: @corrupt_slice is the
 *                   slice, @corrupt_at the byte where that frame starts
 * @not_done:        slices without a <slice>.done file (never closed);
 *                   @first_not_done is the first of them
 * @done_mismatch:   slices whose .done names another size than the file
 *                   has; @mismatch_slice the first, with @mismatch_done
 *                   (the .done's size) and @mismatch_size (the file's)
 * @first_slice:     index of the first slice read: above 0 when older
 *                   slices were aged out (--storage-limit, drain.h)
 * @missing:         slice numbers missing between the first slice and the
 *                   last (removed by hand, or by a drain before ageing
 *                   stopped at a slice it could not remove): the reader
 *                   reads on past each gap; @first_missing the first
 */
struct npuprof_read_report {
	uint64_t slices;
	uint32_t first_slice;
	uint64_t records;
	uint64_t truncated_bytes;
	uint64_t bad_version;
	int cut;
	uint32_t cut_slice;
	uint64_t cut_at;
	uint64_t cut_size;
	int corrupt;
	uint32_t corrupt_slice;
	uint64_t corrupt_at;
	uint64_t not_done;
	uint32_t first_not_done;
	uint64_t done_mismatch;
	uint32_t mismatch_slice;
	uint64_t mismatch_done;
	uint64_t mismatch_size;
	uint64_t missing;
	uint32_t first_missing;
	uint64_t cut_record_bytes; /* last: the layout grows at its end */
};

/**
 * npuprof_slice_read_series() - read <dir>/<series>.slice_0, _1, ... in order
 * @dir:    data directory
 * @series: e.g. "npuprof.api"
 * @fn:     per record
 * @ctx:    for @fn
 * @rep:    filled in, may be NULL
 *
 * Return: 0 (a truncated tail is reported in @rep, not an error);
 * -ENOENT when no slice exists; -EBADMSG when a frame is corrupt (records
 * before it were delivered); -ELOOP or -EINVAL when a slice is a symlink
 * or not a regular file (a FIFO, a device: never read or waited on; see
 * npuprof_prof_open_regular()); or the negative value @fn returned.
 */
int npuprof_slice_read_series(const char *dir, const char *series, npuprof_rec_fn fn,
			      void *ctx, struct npuprof_read_report *rep);

#endif /* NPUPROF_SLICE_H */
