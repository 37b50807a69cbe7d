/* SPDX-License-Identifier: MIT */
/*
 * The timeline file msprof_<ts>.json: a Chrome trace event array as msprof
 * writes it (msprof.md section 4), for chrome://tracing, Perfetto and
 * MindStudio Insight.
 */
#ifndef MSPROF_EXPORT_TIMELINE_H
#define MSPROF_EXPORT_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#include "export_model.h"

/*
 * msprof's process ids (msprof.md section 4; MSP analysis json_assembler:
 * GetFormatPid): (pid << 10) | (index << 5) | device, where index is the
 * process's sort index (CANN 7, Ascend Hardware 14) and device 31 stands
 * for the host.  The device field has 5 bits, so like msprof this tells
 * apart devices 0..30 only.  msprof computes it in 32 bits; here it has
 * 64, so a pid above 2^22 keeps its high bits.
 */
#define EXPORT_HOST_DEV 31u
#define EXPORT_CANN_SORT 7	/* "CANN": the runtime API calls, on the host */
#define EXPORT_HW_SORT 14	/* "Ascend Hardware": the tasks, one per device */

static inline int64_t export_trace_pid(uint32_t app_pid, uint32_t index, uint32_t dev)
{
	return ((int64_t)app_pid << 10) | (int64_t)((index & 31u) << 5) | (int64_t)(dev & 31u);
}

/* The "CANN" process of @app_pid. */
static inline int64_t export_cann_pid(uint32_t app_pid)
{
	return export_trace_pid(app_pid, EXPORT_CANN_SORT, EXPORT_HOST_DEV);
}

/* The "Ascend Hardware" process of @app_pid's device @dev. */
static inline int64_t export_hw_pid(uint32_t app_pid, uint32_t dev)
{
	return export_trace_pid(app_pid, EXPORT_HW_SORT, dev);
}

/**
 * export_tl_end_ns() - the end time a timeline slice is written with
 * @start_ns: the slice's start, ns (written as "ts")
 * @end_ns:   its end, ns; a value before @start_ns counts as @start_ns
 *
 * A slice is written as "ts" (a string of us with 3 decimals) and "dur"
 * (a number of us).  Readers take those in two ways: Perfetto reads the
 * ts string exactly, while Chrome's trace viewer, Python and pandas parse
 * it into a double, which near today's wall clock (about 1.8e15 us) holds
 * only quarter microseconds.  Written as they are, a task that ends where
 * the next one starts can then seem to end up to 0.25 us after it.
 *
 * The end returned is the latest one, not after @end_ns, for which a
 * double reader's start + dur lands on the very double it gets from
 * parsing that end exactly.  Every reader then sees the same order of
 * starts and ends as the true times: an exact reader sees the returned
 * end itself, a double reader the double nearest to it.  The price is that
 * a slice may be written up to half a double step (125 ns today) shorter;
 * the CSVs keep exact durations.
 *
 * Return: the end to write, ns, in [@start_ns, @end_ns].
 */
int64_t export_tl_end_ns(int64_t start_ns, int64_t end_ns);

/**
 * export_write_timeline() - write the trace of @m to @f
 *
 * One event at a time, formatted into a 1 MiB buffer that goes to @f
 * whole, so the file is never held in memory as one JSON tree.
 *
 * Return: 0; -ENOMEM; the -errno of a failed write to @f (-EIO if none).
 */
int export_write_timeline(const struct export_model *m, FILE *f);

struct export_tl_sketch;

/**
 * export_write_timeline_measured() - export_write_timeline(), and each
 * event's bytes by its anchor time into @sk (export_tl_slice.h)
 */
int export_write_timeline_measured(const struct export_model *m, FILE *f,
				   struct export_tl_sketch *sk);

/**
 * export_write_timeline_sliced() - the trace of @m as @n slices, one per
 * stream of @files: the metadata in each, every other event in the slice
 * of its anchor time among @bounds (@n - 1 times, export_tl_slice.h)
 *
 * Return: as export_write_timeline().
 */
int export_write_timeline_sliced(const struct export_model *m, FILE *const *files,
				 const int64_t *bounds, size_t n);

/**
 * export_tl_events() - the events the timeline of @m writes, for the
 * progress line: calls, drawn and clamped tasks, both ends of each flow
 * (the metadata rows, a few per row kind, are left out so the line stops
 * at 100%)
 */
uint64_t export_tl_events(const struct export_model *m);

#endif /* MSPROF_EXPORT_TIMELINE_H */
