/* SPDX-License-Identifier: MIT */
/*
 * Ageing of old slices under a storage limit (msprof's --storage-limit),
 * private to the drain: which closed slices of one PROF_XXX directory to
 * remove, oldest first, so that its data stays under a byte limit.
 *
 * CANN's collector sorts its raw files into "aging" ones, which may be
 * deleted when the limit nears, and "unaging" ones, which may not
 * (reference: msprof.md section 3).  Here every slice series of the
 * drain is an ageing one (the control files are not slices and never
 * pass through here), and the rules are:
 *  - only closed slices are candidates, in the order they were closed;
 *  - the slice a series closed last is never removed (nor, of course, the
 *    one it is writing): a series always keeps its newest data;
 *  - removal stops as soon as the bytes in use are within the limit;
 *  - a series whose slice could not be removed is aged no more: removing
 *    its later slices would leave a gap in its slice numbers, and a
 *    series on disk is always one run of slices, newest data last.
 * The policy knows no files: the drain unlinks what it is handed.
 */
#ifndef NPUPROF_SLICE_AGE_H
#define NPUPROF_SLICE_AGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * struct slice_age_item - one closed slice
 * @series:  its series (any key the caller tells series apart by)
 * @idx:     its index (<series>.slice_<idx>)
 * @bytes:   its size on disk
 * @records: records in it
 */
struct slice_age_item {
	const void *series;
	unsigned int idx;
	uint64_t bytes;
	uint64_t records;
};

/**
 * struct slice_age - the closed slices of one directory, oldest first
 * @limit:   bytes; 0: no limit (nothing is ever removed)
 * @q:       closed slices still on disk, @n of them, oldest first
 * @slices:  slices removed so far
 * @bytes:   their bytes
 * @records: their records
 */
struct slice_age {
	uint64_t limit;
	struct slice_age_item *q;
	size_t n;
	size_t cap;
	uint64_t slices;
	uint64_t bytes;
	uint64_t records;
};

/**
 * slice_age_closed() - note a slice that was just closed.
 * Return: 0; -ENOMEM (the slice is then never aged).  A no-op without a
 * limit.
 */
int slice_age_closed(struct slice_age *a, const struct slice_age_item *it);

/**
 * slice_age_next() - the next slice to remove while @used bytes are in use
 * @used: bytes of the directory's slices now on disk (closed and open)
 * @out:  the slice to remove; counted as removed on return
 *
 * Return: true with @out filled when @used passes the limit and a slice
 * may go; false when within the limit or when only slices that must stay
 * are left.
 */
bool slice_age_next(struct slice_age *a, uint64_t used, struct slice_age_item *out);

/**
 * slice_age_kept() - the slice slice_age_next() handed out in @it could
 * not be removed: it counts as removed no more, and no slice of its
 * series still queued is handed out again.  The caller stops giving the
 * series' later slices to slice_age_closed(): the series is aged no more.
 */
void slice_age_kept(struct slice_age *a, const struct slice_age_item *it);

/** slice_age_free() - forget the slices (nothing on disk changes). */
void slice_age_free(struct slice_age *a);

#endif /* NPUPROF_SLICE_AGE_H */
