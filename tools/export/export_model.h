/* SPDX-License-Identifier: MIT */
/*
 * The export's view of one PROF_XXX directory: runtime API calls, device
 * tasks (their SUBMIT/START/END records joined into one task each, linked
 * to the API call that submitted them and placed on the host clock), loss
 * counters and the process identity from info.json.  Loaded once by
 * export_model_load(), then read by the timeline and summary writers.
 *
 * All times are host CLOCK_MONOTONIC ns unless a name says "dev" (raw
 * device clock counts).
 */
#ifndef MSPROF_EXPORT_MODEL_H
#define MSPROF_EXPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <npuprof/loss.h>
#include <npuprof/prof_control.h>
#include <npuprof/name_text.h>
#include <npuprof/record.h>
#include <npuprof/slice.h>

#include "clock_sync.h"
#include "export_names.h"

struct xsort;

/* Text of any record name (name_text.h), NUL included: the accessors' @buf. */
#define XM_TEXT_LEN NPUPROF_NAME_TEXT_SIZE(NPUPROF_NAME_LEN)

/**
 * struct xm_call - one runtime API call
 * @entry_ns, @exit_ns: host ns at function entry and return
 * @sync_wait_ns:       ns waited in a stream synchronize inside the call
 *                      (from a STREAM_SYNC record), valid when @has_sync
 * @name:               id of the name field in export_model.names (0: none)
 * @cut:                0 for a whole call; XM_CUT_END for one still in
 *                      flight at the stop (NPUPROF_API_CUT_END): from
 *                      xm_calls_next() on, @exit_ns is when the capture
 *                      was off (end_info's clockMonotonicDisabled: the
 *                      call had not returned when its uprobe stopped
 *                      recording, which was before then; a call may have
 *                      entered after the window's end, clockMonotonic,
 *                      and before that), else the window's end; or
 *                      XM_TIME_MAX with XM_CUT_NO_EDGE when neither is
 *                      known (or is before the entry).  A cut call has
 *                      no return: @ret means nothing, the statistics and
 *                      the database leave it out, the timeline draws it
 *                      clamped and marked (not at all with
 *                      XM_CUT_NO_EDGE).
 * Other fields as in struct npuprof_rec_api.
 */
struct xm_call {
	uint64_t entry_ns;
	uint64_t exit_ns;
	uint64_t stream;
	uint64_t bytes;
	uint64_t handle;
	uint64_t sync_wait_ns;
	uint32_t pid;
	uint32_t tid;
	int32_t ret;
	int32_t device;
	uint32_t kind;
	uint16_t api;
	uint8_t has_sync;
	uint8_t cut;
	uint32_t name;
};

/* Which life-cycle records of a task were seen (struct xm_task.have). */
enum {
	XM_HAVE_SUBMIT = 1,
	XM_HAVE_START = 2,
	XM_HAVE_END = 4,
};

/**
 * struct xm_task - one device task, its records joined
 * @submit_ns:   host ns of the SUBMIT tracepoint (XM_HAVE_SUBMIT)
 * @start_dev:   device count at START (XM_HAVE_START)
 * @end_dev:     device count at END (XM_HAVE_END)
 * @start_tp_ns: host ns the START tracepoint fired; until the join maps
 *               the task (export_join.c), which turns it into @start_ns
 * @end_tp_ns:   host ns the END tracepoint fired; until the join, as above
 * @start_ns:    START on the host clock (clock_sync), valid when @drawn
 * @end_ns:      END on the host clock, valid when @drawn
 * @arg:         kernel: requested ns; memcpy: bytes
 * @call_entry_ns: entry of the submitting API call (host ns), when @linked
 * @call_pos:    its position in the calls' order (xm_calls_next(), from
 *               0), when @linked: what the database's connectionId is
 * @call_tid:    its thread, when @linked
 * @call_name:   its name id (export_model.names), when @linked
 * @pid, @tid:   the submitting thread, until the join links the task: then
 *               @call_tid and @call_name take their room
 * @drawn:       1 when both START and END were seen: the task has real
 *               start and end times, the only ones the per-task CSVs list.
 * @cut:         a task cut by the capture window (START before start, or
 *               END after stop: XM_CUT_START, XM_CUT_END) whose other end
 *               was seen, when the window's edge is known (start_info,
 *               end_info): @start_ns or @end_ns is then that edge, and
 *               the timeline draws it clamped to the window and marked.
 *               Only the first or last life cycle of a stream, and only
 *               when no record was lost or aged out (export_join.c
 *               clamp_cut()).  Neither drawn nor cut: only counted.
 * @linked:      1 when the API call that submitted the task was found (the
 *               task carries what the writers need of it: calls are not
 *               held in memory, see xm_calls_next()).  A drawn linked
 *               task has a HostToDevice flow; their ids count 1, 2, ... in
 *               the tasks' order (xm_tasks_next()).
 * @name:        id of the record's name field in export_model.names (0:
 *               none); a kernel whose records carry none, linked to a call
 *               that carries none either (aclrtLaunchKernel, or the
 *               runtime's call inside an ACL one): after the join, the
 *               kernel name of the call's function handle, else the name
 *               of the nearest enclosing call that has one, else 0
 *
 * The export's sorters and spool hold them by the million: fields are
 * packed (tracepoint times share room with the host times made from them,
 * names are ids).
 */
struct xm_task {
	uint64_t submit_ns;
	uint64_t start_dev;
	uint64_t end_dev;
	union {
		uint64_t start_tp_ns;
		int64_t start_ns;
	};
	union {
		uint64_t end_tp_ns;
		int64_t end_ns;
	};
	uint64_t arg;
	uint64_t call_entry_ns;
	uint64_t call_pos;
	union {
		struct {
			uint32_t pid;
			uint32_t tid;
		};
		struct {
			uint32_t call_tid;
			uint32_t call_name;
		};
	};
	uint32_t device;
	uint32_t stream;
	uint32_t task_id;
	uint32_t name;
	uint16_t type;
	uint8_t have;
	uint8_t drawn;
	uint8_t linked;
	uint8_t cut;
};

/* Which end of a task the capture window cut (struct xm_task.cut). */
enum {
	XM_CUT_START = 1, /* started before the window: start_ns is its start */
	XM_CUT_END = 2,	  /* ended after it: end_ns is its end */
	XM_CUT_NO_EDGE = 4, /* calls: cut at the end, which is unknown (xm_call.cut) */
};

/* Whether call @c returned inside the window (its times are both real). */
static inline bool xm_call_whole(const struct xm_call *c)
{
	return !c->cut;
}

/* Whether the timeline draws call @c (whole, or cut at a known edge). */
static inline bool xm_call_drawn(const struct xm_call *c)
{
	return !(c->cut & XM_CUT_NO_EDGE);
}

/* Where a device's host-clock mapping came from. */
enum xm_clock_source {
	XM_CLOCK_NONE = 0,	 /* no START/END on this device */
	XM_CLOCK_RECORDS,	 /* fit over the START/END record pairs */
	XM_CLOCK_INFO_JSON,	 /* fit over info.json clockSamples */
	XM_CLOCK_TRACEPOINT,	 /* no fit: tracepoint host times as they are */
};

/**
 * struct xm_device - one device seen in the data
 * @id:     device id
 * @clock:  how device counts map to host ns
 * @fit:    the fit, valid for XM_CLOCK_RECORDS and XM_CLOCK_INFO_JSON
 */
/*
 * @corrected: drawn tasks whose mapped start fell before their SUBMIT (a
 * fit off by the tracepoints' latency): moved, whole, to start at it, so
 * no task runs before its launch; @max_correction_ns: the largest move.
 */
struct xm_device {
	uint32_t id;
	enum xm_clock_source clock;
	struct clock_fit fit;
	uint64_t corrected;
	int64_t max_correction_ns;
};

/* Last written/lost counters of one ring (source, cpu). */
struct xm_ring {
	uint32_t source;
	uint32_t cpu;
	uint64_t written;
	uint64_t lost;
};

/*
 * A kernel function handle a process got from aclrtBinaryGetFunction()
 * (its out-parameter) and the kernel name it asked for: names the tasks of
 * the aclrtLaunchKernel() calls given that handle when the tasks carry no
 * name of their own (export_join.c, xm_link.fallback_name).
 */
struct xm_func {
	uint32_t pid;
	uint32_t name;
	uint64_t handle;
};

/* A STREAM_SYNC record: a synchronize returned at @ts_ns after @wait_ns. */
struct xm_sync {
	uint64_t ts_ns;
	uint64_t wait_ns;
	uint32_t pid;
	uint32_t tid;
};

/* A STREAM_SYNC wait of the call at position @call in calls' order. */
struct xm_sync_sum {
	uint64_t call;
	uint64_t wait_ns;
};

/*
 * What reading one slice series found; @path relative to the PROF dir,
 * @device the device whose tasks it holds, -1 for the host's series.
 */
struct xm_series {
	char path[128];
	int64_t device;
	struct npuprof_read_report rep;
};

/* A host/device clock reading from info.json "clockSamples". */
struct xm_sample {
	uint32_t device;
	struct clock_pair pair;
};

/**
 * struct export_model - everything the writers need from one PROF dir
 * @dir:             the PROF_XXX path (owned)
 * @app_pid:         the profiled process: info.json "pid", else the pid
 *                   of the first API call read, else of the first task
 * @pid_name:        its name (info.json "pid_name") as text (name_text.h),
 *                   "" if unknown
 * @rank:            its rank in the job (info.json "rank", from the
 *                   launcher's RANK), -1 if unknown
 * @names:           the names calls and tasks carry, by id
 * @n_calls:         API calls read; xm_calls_next() gives them sorted by
 *                   (pid, tid, entry_ns, outer call first)
 * @n_tasks:         tasks joined; xm_tasks_next() gives them sorted by
 *                   (device, stream, task_id)
 * @devs:            devices sorted by id
 * @rings:           LOST records, latest per (source, cpu)
 * @lost:            records lost: the total of @loss
 * @loss:            records lost by cause: info.json "lost"; from an
 *                   older writer (no "lost"), ring full from the LOST
 *                   records, else from info.json "rings"
 * @cpu_loss:        info.json "lost" "byCpu", @n_cpu_loss entries
 * @write_error:     info.json "drain" "write_error": a write failed at
 *                   capture (negative errno), 0 if none
 * @aged:            info.json "storageLimit": slices (@aged.slices, their
 *                   @aged.bytes and @aged.records) that --storage-limit
 *                   removed at capture; all 0 when none
 * @series:          what reading each slice series found
 * @reasons:         why the data is incomplete, one sentence each (empty
 *                   for complete data; export_outcome.h)
 * @n_syncs:         STREAM_SYNC records seen
 * @n_drawn:         tasks with START and END
 * @n_cut:           tasks with one of them clamped to the window (xm_task.cut)
 * @n_calls_cut:     calls still in flight at the stop (xm_call.cut), of
 *                   @n_calls
 * @n_linked:        drawn tasks linked to their API call
 * @truncated_bytes: file bytes after the last whole zstd frame of a
 *                   slice (summed over series)
 * @cut_record_bytes: decoded bytes of records the whole frames of a
 *                   slice end inside of (npuprof_read_report)
 * @bad_records:     records shorter than their type's layout, skipped
 * @n_unsubmitted:   tasks with START or END and no SUBMIT record (of
 *                   @n_tasks): work only the device saw (graph replay,
 *                   streams of other processes: the device log holds
 *                   them all), a SUBMIT lost, or a task submitted before
 *                   the window; kept, with no pid, thread or API call
 * @n_queued:        NPUPROF_TASK_QUEUED records (the host driver wrote
 *                   the SQE to the hardware queue): counted, not part of
 *                   a task's life cycle as the export draws it
 * @n_cqe:           NPUPROF_TASK_CQE records (a completion entry came
 *                   back): the same
 * @unknown_events:  task records whose event this reader does not know
 *                   (a newer writer's): skipped
 */
struct export_model {
	char *dir;
	uint32_t app_pid;
	char pid_name[64];
	int rank;
	struct xm_names names;
	size_t n_calls;
	size_t n_tasks;
	struct xm_device *devs;
	size_t n_devs;
	struct xm_ring *rings;
	size_t n_rings;
	uint64_t lost;
	struct npuprof_loss loss;
	struct npuprof_loss *cpu_loss;
	size_t n_cpu_loss;
	int write_error;
	struct {
		uint64_t slices, bytes, records;
	} aged;
	struct xm_series *series;
	size_t n_series;
	char **reasons;
	size_t n_reasons;
	size_t n_syncs;
	size_t n_drawn;
	size_t n_cut;
	size_t n_calls_cut;
	size_t n_linked;
	uint64_t truncated_bytes;
	uint64_t cut_record_bytes;
	uint64_t bad_records;
	size_t n_unsubmitted;
	uint64_t n_queued;
	uint64_t n_cqe;
	uint64_t unknown_events;
	int64_t wall_offset_ns; /* added to every time: monotonic -> wall clock */
	bool driver_clock;      /* info.json driver.clock "driver": samples were due */
	/* info.json "taskTiming": where each device's begin/end came from (malloc'd) */
	struct npuprof_ctrl_timing_read *timing;
	size_t n_timing;
	int64_t window_start_ns; /* start_info's clockMonotonic, then shifted; 0 if none */
	int64_t window_end_ns;	 /* end_info's clockMonotonic, then shifted; 0 if none */
	int64_t capture_off_ns;	 /* end_info's clockMonotonicDisabled, shifted; 0 if none */
	char hostname[64];	 /* info.json "hostname" as text (name_text.h), "" if unknown */
	/* private to the loader and the join */
	struct export_progress *progress; /* records read, or NULL */
	size_t cap_rings;
	int tmp_fd; /* where the sorters spill (export_model_init()) */
	struct xsort *call_recs; /* the calls, sorted; spilled past XM_SORT_MEM */
	struct xsort *sync_waits; /* the join's STREAM_SYNC waits, by call */
	uint32_t first_call_pid; /* pid of the first call read */
	uint32_t first_task_pid; /* pid of the first task in the join's order that has one */
	struct xm_sample *samples;
	size_t n_samples;
	struct xsort *task_recs; /* task records as read, until they are joined */
	struct xsort *probes; /* SUBMIT and STREAM_SYNC times, until they are joined */
	struct xsort *task_store; /* the joined tasks, in (device, stream, task id) order */
	struct xm_func *funcs; /* aclrtBinaryGetFunction() handles: export_model_add_call() */
	size_t n_funcs, cap_funcs;
	/*
	 * The drawn tasks in the per-task CSVs' row order, with their wait
	 * times (export_summary.c): sorted once, by the first writer that
	 * needs it, re-read by the next; freed with the model.
	 */
	struct xsort *by_start;
};

/*
 * Bytes of records each of the export's sorters (task records, calls,
 * probe times, joined tasks, the writers' orders) holds before it sorts
 * them and spills them as a run to a temporary file (export_sort.h): no
 * record, call or task of a trace is held in memory for the whole trace,
 * so the export's memory does not grow with the trace.  At most six
 * sorters are open at once.
 */
#define XM_SORT_MEM (16u << 20)

/* What xm_sorter_open() gives each sorter: XM_SORT_MEM; tests lower it so
 * that every sorter spills. */
extern size_t xm_sort_mem;

/**
 * xm_sorter_open() - an external sorter (export_sort.h) of the export's
 * records of @rec_size bytes in @cmp order (NULL: a spool), holding
 * xm_sort_mem bytes in memory;
 * its runs spill to an unnamed file (O_TMPFILE) below @dir_fd, the PROF
 * dir the export writes below anyway, so nothing is left there, not even
 * after a crash.  Return: 0 or xsort_open()'s negative errno.
 */
int xm_sorter_open(size_t rec_size, int (*cmp)(const void *, const void *), int dir_fd,
		   struct xsort **out);

/* -1, 0 or 1 as @a is below, equal to or above @b: for qsort comparators. */
#define XM_CMP(a, b) (((a) > (b)) - ((a) < (b)))

/*
 * The range of every time in the model, in ns: [0, XM_TIME_MAX] (2^62 ns,
 * 146 years: past any real monotonic or wall clock).  Times come from
 * files anyone may have damaged, so each is brought into this range where
 * it is read (records, clock fit, wall offset); then no difference of two
 * times overflows, and sums of durations use xm_add_ns().
 */
#define XM_TIME_MAX ((int64_t)1 << 62)

/* @t clamped into [0, XM_TIME_MAX]. */
static inline int64_t xm_time(int64_t t)
{
	return t < 0 ? 0 : t > XM_TIME_MAX ? XM_TIME_MAX : t;
}

/* @t (a raw record time, unsigned) clamped into [0, XM_TIME_MAX]. */
static inline uint64_t xm_time_u(uint64_t t)
{
	return t > (uint64_t)XM_TIME_MAX ? (uint64_t)XM_TIME_MAX : t;
}

/* @a + @b for sums of ns, saturating at INT64_MAX / INT64_MIN. */
static inline int64_t xm_add_ns(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/**
 * export_model_init() - an empty model whose sorters spill below @tmp_fd
 * @tmp_fd: a directory fd, owned by the model from now on (closed by
 *          export_model_free()), or AT_FDCWD
 *
 * For the loader, and for tests that build a model by hand: then add the
 * records (export_model_add_call(), _add_task(), _add_sync()), set
 * samples[] if any, and call export_model_join().
 */
void export_model_init(struct export_model *m, int tmp_fd);

/**
 * export_model_load() - read and join every record of a PROF dir
 * @prof_dir: the PROF_XXX directory
 * @m:        filled in; free with export_model_free() (also on error)
 *
 * Reads host/data/npuprof.api.* and device_<id>/data/npuprof.task.<id>.*
 * through the slice reader and host/info.json when present.  A truncated
 * or corrupt tail is a warning (printed here, naming the series): the
 * complete records before it are kept.  Times end on the wall clock (ns
 * since the epoch, as msprof's exports) when host/start_info gives the
 * offset; otherwise they stay CLOCK_MONOTONIC ns.
 *
 * Return: 0; -ENODATA when the dir holds no API call and no task record
 * (@m->reasons are filled all the same: why nothing was captured); -ENOMEM; another negative errno when a series can not be read at all.
 */
int export_model_load(const char *prof_dir, struct export_model *m);

struct export_progress;

/**
 * export_model_load_progress() - export_model_load(), counting every
 * record read into @p (export_progress.h), which may be NULL
 */
int export_model_load_progress(const char *prof_dir, struct export_model *m,
			       struct export_progress *p);

/** export_model_free() - free what export_model_load() allocated. */
void export_model_free(struct export_model *m);

/**
 * export_model_join() - join task records, link calls, map device times
 * @m: a model whose calls, task records and STREAM_SYNC records were just
 *     added (export_model_add_*()) and whose samples[] are set
 *
 * Tasks come out on the wall clock when m->wall_offset_ns is set.  Called
 * by export_model_load(); public for tests that build a model by hand.
 * Return: 0; -ENOMEM; -errno of a sorter's temporary file.
 */
int export_model_join(struct export_model *m);

/**
 * export_model_add_task() - add one task record to @m (in any order)
 * @t: one life-cycle record: @t->have holds exactly one XM_HAVE_* bit,
 *     with its fields (submit_ns; start_dev and start_tp_ns; end_dev and
 *     end_tp_ns), pid and tid of the thread, device, stream, task id,
 *     type, arg and name
 *
 * Return: 0; -ENOMEM; -errno of spilling to the temporary file.
 */
int export_model_add_task(struct export_model *m, const struct xm_task *t);

/**
 * export_model_add_sync() - add one STREAM_SYNC record to @m (any order)
 * Return: 0; -ENOMEM; -errno of spilling to the temporary file.
 */
int export_model_add_sync(struct export_model *m, const struct xm_sync *s);

/**
 * struct xm_tasks - a pass over the model's joined tasks in their order
 * @m, @n: private to the pass (@n: tasks given so far)
 */
struct xm_tasks {
	const struct export_model *m;
	size_t n;
};

/**
 * xm_tasks_begin() - start a pass over @m's tasks, from the first
 *
 * Tasks live in a spool (export_sort.h), not an array: one pass at a
 * time.  Return: 0; -errno of reading the spool's file; -ENOMEM.
 */
int xm_tasks_begin(const struct export_model *m, struct xm_tasks *it);

/**
 * xm_tasks_next() - the next task of the pass in *@t, valid until the
 * next call.  Return: 1; 0 after the last; -errno of reading the spool.
 */
int xm_tasks_next(struct xm_tasks *it, const struct xm_task **t);

/*
 * The join's order of task records: (device, stream, task id), then the
 * host ns of the record's tracepoint, then SUBMIT, START, END.  A task id
 * that wrapped names several tasks: their records come one life cycle
 * after the other.
 */
int xm_task_cmp(const void *a, const void *b);

/**
 * xm_task_fold_next() - does record @rec (next in xm_task_cmp() order)
 * begin another task than @t, the records folded so far?  Yes when its
 * key differs, or when it opens a reused task id's next life cycle:
 *  - a SUBMIT, when @t has records (a driver traces a task's SUBMIT
 *    before the device can start it, so SUBMIT comes first in host time),
 *    unless @t is a START alone at most XM_SUBMIT_SLACK_NS before this
 *    one: the device log's START, its device count mapped to host time,
 *    can land a little before the submit uprobe's time of the same task
 *    (a task id comes round again only after 65536 tasks of its stream;
 *    a whole life cycle before the SUBMIT stays a task of its own);
 *  - a START whose device count is past @t's START, or, without one,
 *    past @t's END: START and END are not ordered by their tracepoints'
 *    host times (a START may be delivered late, after its END), but on
 *    the device a stream's next task starts after the last one started
 *    and ended;
 *  - an END whose device count is past @t's END.
 * Any other record folds into @t, where a kind @t has is ignored.
 * So records lost (ring full, aged out) fold two life cycles into one
 * task only when all that is left of the later one are kinds of record
 * the earlier one lacks.  Return: 1 or 0.
 */
int xm_task_fold_next(const struct xm_task *t, const struct xm_task *rec);

/* How early a mapped START may be before its SUBMIT and still fold: ns. */
#define XM_SUBMIT_SLACK_NS 1000000ull

/** xm_task_same() - do @a and @b have the same (device, stream, task id)? */
int xm_task_same(const struct xm_task *a, const struct xm_task *b);

/**
 * xm_task_fold() - fold the record of @src (one life-cycle record, the
 * same task) into @dst; a kind of record @dst already has is ignored:
 * the first in xm_task_cmp() order wins.  A SUBMIT brings its pid and
 * tid (the device log's records have none).
 */
void xm_task_fold(struct xm_task *dst, const struct xm_task *src);

/**
 * struct xm_calls - a pass over the model's calls in their order
 * @cur:  the call xm_calls_next() gave last (times on the model's clock,
 *        its STREAM_SYNC wait joined)
 * @prev: the one before it, valid when @n > 1
 * @n:    calls given so far
 * @m, @sync, @sync_more: private to the pass (the next STREAM_SYNC wait
 *        of the join, while @sync_more)
 */
struct xm_calls {
	const struct export_model *m;
	struct xm_call cur;
	struct xm_call prev;
	size_t n;
	struct xm_sync_sum sync;
	int sync_more;
};

/**
 * xm_calls_begin() - start a pass over @m's calls, from the first
 *
 * Calls live in an external sort (export_sort.h), not an array: one pass
 * at a time.  Return: 0; -errno of reading the sort's run file; -ENOMEM.
 */
int xm_calls_begin(const struct export_model *m, struct xm_calls *it);

/**
 * xm_calls_next() - the next call of the pass, in *@c (it->cur)
 * Return: 1; 0 after the last; -errno of reading the run file.
 */
int xm_calls_next(struct xm_calls *it, const struct xm_call **c);

/**
 * export_model_add_call() - add one API call to @m (in any order)
 *
 * Used by the loader, and by tests that build a model by hand.  A
 * successful aclrtBinaryGetFunction() with a name and a handle also
 * notes that handle's kernel name (struct xm_func).
 * Return: 0; -ENOMEM; -errno of spilling to the temporary file.
 */
int export_model_add_call(struct export_model *m, const struct xm_call *c);

/* The calls' order: (pid, tid, entry_ns), outer call first. */
int xm_call_cmp(const void *a, const void *b);

/** xm_name() - the name (NUL-terminated record bytes) of id @id, "" for 0. */
static inline const char *xm_name(const struct export_model *m, uint32_t id)
{
	return xm_names_get(&m->names, id);
}

/**
 * xm_api_level() - msprof's name of the CANN level of API id @api
 * ("AscendCL", "Runtime": npuprof_api_level()), never NULL: an id of a
 * newer writer counts as AscendCL, the only level before the runtime's
 * (the timeline's cat and "level", api_statistic's "Level")
 */
const char *xm_api_level(unsigned int api);

/** xm_api_name() - public ACL name of a call ("aclrtMemcpy"), never NULL. */
const char *xm_api_name(const struct xm_call *c, char *buf, size_t size);

/*
 * The name fields of calls and tasks hold the bytes the app handed over.
 * Writers never print them directly: the accessors below give their text
 * under the rule of name_text.h, in @buf, which must have XM_TEXT_LEN
 * bytes, or (a name that is printable ASCII, its own text) the name field
 * itself: use the returned pointer, not @buf.
 */

/**
 * xm_call_name() - text of the op type / kernel name a call carried, ""
 * when it carried none.  Returns @buf or the name field.
 */
const char *xm_call_name(const struct export_model *m, const struct xm_call *c, char *buf,
			 size_t size);

/**
 * xm_task_name() - what a task is called in the timeline and CSVs: its
 * kernel name (for a kernel whose records carry none, the halSqTaskSend
 * uprobe's SUBMIT and the device log's START/END: the one the join found,
 * see xm_task.name); else (a kernel) the op type / kernel name of the
 * submitting call; else the task type (MEMCPY, EVENT_RECORD).  Never NULL.
 */
const char *xm_task_name(const struct export_model *m, const struct xm_task *t, char *buf,
			 size_t size);

/** xm_task_type() - msprof "Task Type" text (AI_CORE, MEMCPY...), never NULL. */
const char *xm_task_type(const struct xm_task *t, char *buf, size_t size);

/**
 * xm_op_type() - "OP Type" of a kernel task: the op type or kernel name
 * the submitting call carried, else the task's own name.  Never NULL.
 */
const char *xm_op_type(const struct export_model *m, const struct xm_task *t, char *buf,
		       size_t size);

#endif /* MSPROF_EXPORT_MODEL_H */
