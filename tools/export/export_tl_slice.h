/* SPDX-License-Identifier: MIT */
/*
 * Timeline slicing (reference msprof.md section 4, "Timeline slicing"): a
 * timeline of at least EXPORT_TL_SLICE_MIN bytes is written as
 * msprof_<n>_<ts>.json, n from 0, each at most the configured size and
 * each a valid trace on its own.
 *
 * The configuration is CANN's msprof_slice.json, with CANN's keys:
 *   {"slice_switch": "on"|"off", "slice_file_size(MB)": N, "strategy": 0|1}
 * read from $NPUPROF_SLICE_CONFIG if set, else from
 * <prefix>/share/npuprof/msprof_slice.json next to the msprof binary
 * (<bindir>/../share/npuprof/).  Without either, or with "slice_switch"
 * off, nothing is sliced (CANN's default in current releases).
 * "slice_file_size(MB)" of 200 or more caps each slice; any other value
 * leaves the size to "strategy": 0 (fewest slices) caps at 1024 MB, 1
 * (slices that open fast) at 200 MB -- our choice, CANN gives no number.
 *
 * How a slice stays valid on its own: every slice gets the metadata
 * (process and thread names, labels, sort indexes, the capture's outcome),
 * and every other event goes to the slice of its anchor time: a call's
 * entry; a task linked to its call, and both ends of their flow, the
 * call's entry; a task without a call, its start.  So a flow's "s" and "f"
 * are in the slice that also holds the call and the task they bind to.
 * Slice boundaries are anchor times chosen from a first, unsliced write:
 * it measures the bytes of every event by anchor (a bounded sketch), and
 * slices are filled to 90% of the cap, the metadata counted in each.
 */
#ifndef MSPROF_EXPORT_TL_SLICE_H
#define MSPROF_EXPORT_TL_SLICE_H

#include <stddef.h>
#include <stdint.h>

/* Never slice a timeline smaller than this (msprof's 200 MB). */
#define EXPORT_TL_SLICE_MIN (200ULL << 20)

/**
 * struct export_tl_slice_cfg - msprof_slice.json as we use it
 * @on:        slice_switch is "on"
 * @cap_bytes: the size each slice stays within
 * @min_bytes: a timeline below this is never sliced (EXPORT_TL_SLICE_MIN;
 *             tests lower it)
 */
struct export_tl_slice_cfg {
	int on;
	uint64_t cap_bytes;
	uint64_t min_bytes;
};

/**
 * export_tl_slice_config() - read msprof_slice.json (see the banner)
 * @cfg:  out; off when no file is found
 * @path: out, may be NULL: the file read, "" when none (PATH_MAX bytes)
 *
 * Return: 0; -EINVAL for a file that is not valid JSON or has a bad value
 * (a message names the file and the key); -errno of reading it.
 */
int export_tl_slice_config(struct export_tl_slice_cfg *cfg, char *path);

/* One anchor time and the bytes of the events at it (up to the next mark). */
struct export_tl_mark {
	int64_t anchor;
	uint64_t bytes;
};

/**
 * struct export_tl_sketch - bytes of the events by anchor time, in at most
 * a bounded number of marks: when full, the marks are sorted and each
 * two neighbours merged (a mark then stands for the anchors from its own
 * up to the next mark's).
 * @meta_bytes: bytes of the metadata (written again in every slice)
 * @total:      bytes of the events measured
 */
struct export_tl_sketch {
	struct export_tl_mark *m;
	size_t n;
	size_t cap;
	uint64_t meta_bytes;
	uint64_t total;
};

/** export_tl_sketch_add() - @bytes of an event at @anchor.  Return: 0 or -ENOMEM. */
int export_tl_sketch_add(struct export_tl_sketch *sk, int64_t anchor, uint64_t bytes);

/**
 * export_tl_sketch_bounds() - slice boundaries for slices of at most
 * @cap_bytes (filled to 90%)
 * @bounds: out, malloc'ed, *@n - 1 anchor times ascending: slice k takes
 *          the anchors in [bounds[k - 1], bounds[k])
 * @n:      out: slices
 *
 * Return: 0; -ENOMEM; -EFBIG when the metadata alone leaves no room.
 */
int export_tl_sketch_bounds(struct export_tl_sketch *sk, uint64_t cap_bytes, int64_t **bounds,
			    size_t *n);

void export_tl_sketch_free(struct export_tl_sketch *sk);

/** export_tl_slice_of() - the slice of @anchor among @n slices. */
size_t export_tl_slice_of(const int64_t *bounds, size_t n, int64_t anchor);

#endif /* MSPROF_EXPORT_TL_SLICE_H */
