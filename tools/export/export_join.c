// SPDX-License-Identifier: MIT
/*
 * Joining the records of one PROF dir (export_model.h):
 *
 *  1. a device task's SUBMIT, START and END records (keyed by device,
 *     stream, task id) become one task.  Task ids wrap (a real Ascend
 *     task id has 16 bits), so one key may name several tasks: the
 *     records of a key are taken in host time order, and each SUBMIT
 *     (or a START or END past the task's on the device clock) begins the
 *     life cycle of another task (xm_task_fold_next());
 *  2. each device gets a device-count -> host-ns mapping (clock_sync.c)
 *     from the driver's clock samples in info.json, else from its own
 *     START/END records, else the tracepoints' host times are used as is;
 *  3. each task with a SUBMIT record is linked to the API call that
 *     submitted it: the innermost call on the same thread whose
 *     [entry, exit] holds the SUBMIT host time (the driver's submit
 *     tracepoint fires inside the runtime call on the caller's thread);
 *     STREAM_SYNC records are linked to their synchronize call the same way.
 *     On the real Ascend driver the SUBMIT comes from the halSqTaskSend
 *     uprobe, inside the same call, and neither it nor the device log's
 *     START/END carries a name: such a task takes its name from the call
 *     (xm_task_name(): the call's op type; else finish_task() names a
 *     kernel after its aclrtLaunchKernel's function handle, or an
 *     enclosing call's name); a task whose records carry a name keeps it.
 *     Tasks with no SUBMIT (device-only work the device log saw, pid 0)
 *     are kept and counted (export_model.n_unsubmitted); the host
 *     driver's QUEUED and CQE records never reach the fold (the loader
 *     counts them, export_model.c).
 *
 * Nothing of the trace is held in memory for the whole trace: records,
 * calls and tasks flow through external sorters (export_sort.h).  Task
 * records are sorted by task and read twice.  The first pass folds them
 * into tasks, numbers the tasks, fits each device's clock and hands each
 * SUBMIT time with its task's number to the probes' sorter, which already
 * holds the STREAM_SYNC times.  One merge of the calls (in their order)
 * with the probes (by thread and time) finds each probe's call
 * (sweep_calls()): a task's link goes to a sorter by task number, a
 * sync's wait to one by call.  The second pass folds the records again,
 * maps the device times, joins each task with its link and appends it to
 * the spool the writers read (xm_tasks_next()); the calls' pass joins the
 * waits (xm_calls_next()).
 *
 * A task missing START or END keeps what is known and is marked not
 * drawn.  When only the capture window can have cut it (the first life
 * cycle of its stream without START, or the last without END, and no
 * record lost or aged out: clamp_cut()) and the window's edge is known,
 * it takes that edge for its missing end and is marked cut (xm_task.cut).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/record_io.h>

#include "export_model.h"
#include "export_sort.h"

/*
 * START/END pairs of one device a records-based clock fit keeps at most:
 * past this many, the pairs of every 2nd, then every 4th ... task are
 * kept, evenly spread over the capture (4 MiB of pairs; a line through
 * 262,144 points is as good as through all of them).  Whole tasks, not
 * every 2nd pair: pairs come START, END, START, END..., and every 2nd
 * pair would keep the STARTs alone, moving the line by half the
 * difference of the two tracepoints' latencies.
 */
#define XM_FIT_PAIRS (1u << 18)

/* Host ns of a record's tracepoint (of a task: its first record's). */
static uint64_t rec_ns(const struct xm_task *t)
{
	if (t->have & XM_HAVE_SUBMIT)
		return t->submit_ns;
	if (t->have & XM_HAVE_START)
		return t->start_tp_ns;
	return t->end_tp_ns;
}

int xm_task_cmp(const void *pa, const void *pb)
{
	const struct xm_task *a = pa, *b = pb;
	int c;

	c = XM_CMP(a->device, b->device);
	if (!c)
		c = XM_CMP(a->stream, b->stream);
	if (!c)
		c = XM_CMP(a->task_id, b->task_id);
	if (!c)
		c = XM_CMP(rec_ns(a), rec_ns(b));
	if (!c)
		c = XM_CMP(a->have, b->have); /* SUBMIT, START, END */
	return c;
}

int xm_task_fold_next(const struct xm_task *t, const struct xm_task *rec)
{
	if (!xm_task_same(t, rec))
		return 1;
	switch (rec->have) {
	case XM_HAVE_SUBMIT:
		/* the device log's START, mapped, may come a little early */
		if (t->have == XM_HAVE_START && rec->submit_ns - t->start_tp_ns <= XM_SUBMIT_SLACK_NS)
			return 0;
		return t->have != 0;
	case XM_HAVE_START:
		if (t->have & XM_HAVE_START)
			return rec->start_dev > t->start_dev;
		/* a late START (device count not after the END's) is still this task's */
		return (t->have & XM_HAVE_END) && rec->start_dev > t->end_dev;
	default:
		return (t->have & XM_HAVE_END) && rec->end_dev > t->end_dev;
	}
}

int xm_task_same(const struct xm_task *a, const struct xm_task *b)
{
	return a->device == b->device && a->stream == b->stream && a->task_id == b->task_id;
}

void xm_task_fold(struct xm_task *dst, const struct xm_task *src)
{
	if (src->have & dst->have)
		return;
	dst->have |= src->have;
	if (src->have & XM_HAVE_SUBMIT) {
		dst->submit_ns = src->submit_ns;
		/* the submitter's, not the device log's pid 0 (a START sorted first) */
		dst->pid = src->pid;
		dst->tid = src->tid;
	}
	if (src->have & XM_HAVE_START) {
		dst->start_dev = src->start_dev;
		dst->start_tp_ns = src->start_tp_ns;
	}
	if (src->have & XM_HAVE_END) {
		dst->end_dev = src->end_dev;
		dst->end_tp_ns = src->end_tp_ns;
	}
	if (!dst->name)
		dst->name = src->name;
}

/*
 * The first and the last life cycle run on one (device, stream), by the
 * device's clock: a stream runs its tasks one after the other, so only
 * these two can have a missing START or END that lies outside the
 * capture window (clamp_cut()).  @first and @last are task numbers in
 * the join's order, @first_dev the first task's earliest device count,
 * @last_dev the last task's latest.  Tasks without START and END (a
 * SUBMIT alone) ran nothing and take no part.
 */
struct xm_stream_ends {
	uint32_t device;
	uint32_t stream;
	uint64_t first, last;
	uint64_t first_dev, last_dev;
};

/* The stream ends of every (device, stream), in the join's order. */
struct xm_streams {
	struct xm_stream_ends *v;
	size_t n, cap;
};

/* Note task @i (@t) among its stream's tasks.  Return: 0 or -ENOMEM. */
static int streams_add(struct xm_streams *ss, const struct xm_task *t, uint64_t i)
{
	uint64_t begin = t->have & XM_HAVE_START ? t->start_dev : t->end_dev;
	uint64_t end = t->have & XM_HAVE_END ? t->end_dev : t->start_dev;
	struct xm_stream_ends *e = ss->n ? &ss->v[ss->n - 1] : NULL;

	if (!(t->have & (XM_HAVE_START | XM_HAVE_END)))
		return 0;
	if (e && e->device == t->device && e->stream == t->stream) {
		if (begin < e->first_dev) {
			e->first = i;
			e->first_dev = begin;
		}
		if (end > e->last_dev) {
			e->last = i;
			e->last_dev = end;
		}
		return 0;
	}
	if (ss->n == ss->cap) {
		size_t cap = ss->cap ? 2 * ss->cap : 16;
		void *p = realloc(ss->v, cap * sizeof(*ss->v));

		if (!p)
			return -ENOMEM;
		ss->v = p;
		ss->cap = cap;
	}
	ss->v[ss->n++] = (struct xm_stream_ends){ t->device, t->stream, i, i, begin, end };
	return 0;
}

/*
 * Which window edges task @i (@t) may have been cut by (XM_CUT_START,
 * XM_CUT_END): the first life cycle of its stream may have started before
 * the window, the last may end after it.  @pos: a cursor into @ss that
 * the second pass moves forward, its tasks coming in the same order.
 */
static uint8_t stream_edges(const struct xm_streams *ss, size_t *pos, const struct xm_task *t,
			    uint64_t i)
{
	const struct xm_stream_ends *e;

	while (*pos < ss->n && (ss->v[*pos].device < t->device ||
				(ss->v[*pos].device == t->device && ss->v[*pos].stream < t->stream)))
		(*pos)++;
	if (*pos == ss->n)
		return 0;
	e = &ss->v[*pos];
	if (e->device != t->device || e->stream != t->stream)
		return 0;
	return (e->first == i ? XM_CUT_START : 0) | (e->last == i ? XM_CUT_END : 0);
}

/*
 * Whether every task record the capture produced in its window may be
 * in the data: nothing lost, aged or damaged that could have held one.
 * Records lost count whatever their source (device tasks come through
 * npuprof.ko's rings or, without it, through BPF's); ageing and damage
 * count on the device series, whose slices hold the task records.
 */
static bool task_records_whole(const struct export_model *m)
{
	if (npuprof_loss_total(&m->loss) || m->write_error || m->bad_records)
		return false;
	for (size_t i = 0; i < m->n_series; i++) {
		const struct npuprof_read_report *r = &m->series[i].rep;

		if (m->series[i].device >= 0 &&
		    (r->first_slice || r->missing || r->cut || r->corrupt || r->done_mismatch ||
		     r->truncated_bytes || r->cut_record_bytes))
			return false;
	}
	return !m->aged.slices;
}

/*
 * A time on a thread that wants the call holding it: a task's SUBMIT
 * (@ref the task's number in the join's order) or a STREAM_SYNC (@ref
 * XM_PROBE_SYNC, @wait_ns its wait).
 */
struct xm_probe {
	uint64_t ts;
	uint32_t pid;
	uint32_t tid;
	uint64_t ref;
	uint64_t wait_ns;
};

#define XM_PROBE_SYNC (1ull << 63)

static int cmp_probe(const void *pa, const void *pb)
{
	const struct xm_probe *a = pa, *b = pb;
	int c = XM_CMP(a->pid, b->pid);

	if (!c)
		c = XM_CMP(a->tid, b->tid);
	if (!c)
		c = XM_CMP(a->ts, b->ts);
	return c;
}

/*
 * What a task needs of the call that submitted it; @ref: the task's
 * number; @fallback_name: the name for a task that carries none when the
 * call carries none either (struct xm_task.name).
 */
struct xm_link {
	uint64_t ref;
	uint64_t call_entry_ns;
	uint64_t call_pos;
	uint32_t call_tid;
	uint32_t call_name;
	uint32_t fallback_name;
	uint32_t pad;
};

static int cmp_link(const void *pa, const void *pb)
{
	return XM_CMP(((const struct xm_link *)pa)->ref, ((const struct xm_link *)pb)->ref);
}

static int cmp_sync_sum(const void *pa, const void *pb)
{
	return XM_CMP(((const struct xm_sync_sum *)pa)->call,
		      ((const struct xm_sync_sum *)pb)->call);
}

static int add_probe(struct export_model *m, const struct xm_probe *p)
{
	int err;

	if (!m->probes && (err = xm_sorter_open(sizeof(*p), cmp_probe, m->tmp_fd, &m->probes)))
		return err;
	return xsort_add(m->probes, p);
}

int export_model_add_task(struct export_model *m, const struct xm_task *t)
{
	int err;

	if (!m->task_recs &&
	    (err = xm_sorter_open(sizeof(*t), xm_task_cmp, m->tmp_fd, &m->task_recs)))
		return err;
	return xsort_add(m->task_recs, t);
}

int export_model_add_sync(struct export_model *m, const struct xm_sync *s)
{
	int err = add_probe(m, &(struct xm_probe){ s->ts_ns, s->pid, s->tid, XM_PROBE_SYNC,
						    s->wait_ns });

	m->n_syncs += !err;
	return err;
}

/*
 * A pass over the sorted task records that folds each task's records into
 * one task (the first record of each kind wins).  @next is the record
 * after the task given last (xsort_next()'s record lives only until the
 * next call), valid while @more.
 */
struct xm_fold {
	struct xsort *recs;
	struct xm_task next;
	int more;
};

static int fold_begin(struct xm_fold *f, struct xsort *recs)
{
	const void *rec;
	int r;

	f->recs = recs;
	f->more = 0;
	if (!recs)
		return 0;
	r = xsort_rewind(recs);
	if (!r && (r = xsort_next(recs, &rec)) == 1)
		memcpy(&f->next, rec, sizeof(f->next));
	f->more = r == 1;
	return r < 0 ? r : 0;
}

/* The next task in *@t.  Return: 1; 0 after the last; -errno of the sorter. */
static int fold_next(struct xm_fold *f, struct xm_task *t)
{
	const void *rec;
	int r;

	if (!f->more)
		return 0;
	*t = f->next;
	while ((r = xsort_next(f->recs, &rec)) == 1) {
		if (xm_task_fold_next(t, rec)) {
			memcpy(&f->next, rec, sizeof(f->next));
			return 1;
		}
		xm_task_fold(t, rec);
	}
	f->more = 0;
	return r < 0 ? r : 1;
}

/*
 * The START/END pairs of one device's tasks, for a fit when info.json has
 * no clock samples of it: past XM_FIT_PAIRS, those of every @stride-th
 * task with pairs (@seen: such tasks so far); @first[i] marks p[i] as the
 * first pair of its task.
 */
struct xm_pairs {
	struct clock_pair *p;
	uint8_t *first;
	size_t n;
	uint64_t seen, stride;
};

/* Keep the pairs of every other task kept so far: tasks 0, 2s, 4s, ... */
static void pairs_halve(struct xm_pairs *pp)
{
	size_t i, n = 0, task = 0;

	for (i = 0; i < pp->n; i++) {
		task += pp->first[i] && i;
		if (task % 2)
			continue;
		pp->p[n] = pp->p[i];
		pp->first[n++] = pp->first[i];
	}
	pp->n = n;
	pp->stride *= 2;
}

/* The @k (0, 1 or 2) pairs @tp of one task. */
static int pairs_add(struct xm_pairs *pp, const struct clock_pair *tp, size_t k)
{
	if (!k || pp->seen++ % pp->stride)
		return 0;
	while (pp->n + k > XM_FIT_PAIRS)
		pairs_halve(pp);
	if ((pp->seen - 1) % pp->stride)
		return 0;
	if (!pp->p) {
		pp->p = malloc(XM_FIT_PAIRS * sizeof(*pp->p));
		pp->first = malloc(XM_FIT_PAIRS);
		if (!pp->p || !pp->first)
			return -ENOMEM;
	}
	for (size_t i = 0; i < k; i++) {
		pp->first[pp->n] = !i;
		pp->p[pp->n++] = tp[i];
	}
	return 0;
}

/* A new device of the first pass: its id, and a fit over info.json's samples. */
static int device_open(struct export_model *m, uint32_t id, struct xm_pairs *pp)
{
	struct clock_pair *p = malloc((m->n_samples + 1) * sizeof(*p));
	struct xm_device *d = realloc(m->devs, (m->n_devs + 1) * sizeof(*d));
	size_t i, n = 0;

	if (d)
		m->devs = d;
	if (!p || !d) {
		free(p);
		return -ENOMEM;
	}
	d = &m->devs[m->n_devs++];
	memset(d, 0, sizeof(*d));
	d->id = id;
	for (i = 0; i < m->n_samples; i++)
		if (m->samples[i].device == id)
			p[n++] = m->samples[i].pair;
	/*
	 * The driver's clock pairs come first: each reads both clocks in one
	 * call, while a START/END record pairs the device's true event time
	 * with the moment the host saw the interrupt, which lags by a varying
	 * amount.
	 */
	if (!clock_fit_pairs(p, n, &d->fit))
		d->clock = XM_CLOCK_INFO_JSON;
	free(p);
	pp->n = pp->seen = 0;
	pp->stride = 1;
	return 0;
}

/* The device's records' pairs: the fallback for a driver without clock reads. */
static int device_close(struct export_model *m, struct xm_pairs *pp)
{
	struct xm_device *d = &m->devs[m->n_devs - 1];
	int err;

	if (d->clock == XM_CLOCK_INFO_JSON)
		return 0;
	d->clock = pp->seen ? XM_CLOCK_TRACEPOINT : XM_CLOCK_NONE;
	err = clock_fit_pairs(pp->p, pp->n, &d->fit);
	if (!err)
		d->clock = XM_CLOCK_RECORDS;
	return err == -ENOMEM ? err : 0;
}

static int first_task(struct export_model *m, const struct xm_task *t, size_t i,
		      struct xm_pairs *pp)
{
	int err = 0;

	if (!m->n_devs || m->devs[m->n_devs - 1].id != t->device) {
		if (m->n_devs)
			err = device_close(m, pp);
		if (!err)
			err = device_open(m, t->device, pp);
	}
	if (!err && m->devs[m->n_devs - 1].clock != XM_CLOCK_INFO_JSON) {
		struct clock_pair tp[2];
		size_t k = 0;

		if (t->have & XM_HAVE_START)
			tp[k++] = (struct clock_pair){ t->start_dev, t->start_tp_ns };
		if (t->have & XM_HAVE_END)
			tp[k++] = (struct clock_pair){ t->end_dev, t->end_tp_ns };
		err = pairs_add(pp, tp, k);
	}
	if (!err && (t->have & XM_HAVE_SUBMIT))
		err = add_probe(m, &(struct xm_probe){ t->submit_ns, t->pid, t->tid, i, 0 });
	return err;
}

/*
 * The first pass: number the tasks, one xm_device per device id (tasks
 * come sorted by device) with its clock, every SUBMIT to the probes, the
 * ends of every stream to @ss.
 */
static int first_pass(struct export_model *m, struct xm_streams *ss)
{
	struct xm_pairs pp = { 0 };
	struct xm_fold f;
	struct xm_task t;
	int r = fold_begin(&f, m->task_recs);

	m->n_tasks = 0;
	while (!r && (r = fold_next(&f, &t)) == 1) {
		if (!m->first_task_pid) /* a device-only task has none */
			m->first_task_pid = t.pid;
		r = streams_add(ss, &t, m->n_tasks);
		if (!r)
			r = first_task(m, &t, m->n_tasks++, &pp);
	}
	if (!r && m->n_devs)
		r = device_close(m, &pp);
	free(pp.p);
	free(pp.first);
	return r;
}

/* Host ns of the device count @dev_ts (tracepoint time @tp_ns without a fit). */
static int64_t map_dev(const struct xm_device *dev, uint64_t dev_ts, uint64_t tp_ns)
{
	if (dev->clock == XM_CLOCK_RECORDS || dev->clock == XM_CLOCK_INFO_JSON)
		return clock_dev_to_host_ns(&dev->fit, dev_ts);
	return (int64_t)tp_ns;
}

/*
 * A task's start mapped before its SUBMIT: the device cannot have run it
 * before it was handed over, so the fit is off there (by the tracepoints'
 * latency, or a drift the line does not follow); move the task, whole,
 * to start at its SUBMIT, and count the move.
 */
static void keep_after_submit(struct xm_device *dev, struct xm_task *t)
{
	int64_t shift;

	if (!(t->have & XM_HAVE_SUBMIT) || t->start_ns >= (int64_t)t->submit_ns)
		return;
	shift = (int64_t)t->submit_ns - t->start_ns;
	t->start_ns += shift;
	t->end_ns += shift;
	dev->corrected++;
	if (shift > dev->max_correction_ns)
		dev->max_correction_ns = shift;
}

/*
 * A task's START and END on the host clock, those it has; a missing one
 * is 0 (the tracepoint time it shared room with is spent) until
 * finish_task() puts the window's edge there.
 */
static void map_task(struct xm_device *dev, struct xm_task *t)
{
	int64_t start = 0, end = 0;

	t->drawn = (t->have & (XM_HAVE_START | XM_HAVE_END)) == (XM_HAVE_START | XM_HAVE_END);
	if (t->have & XM_HAVE_START)
		start = map_dev(dev, t->start_dev, t->start_tp_ns);
	if (t->have & XM_HAVE_END)
		end = map_dev(dev, t->end_dev, t->end_tp_ns);
	t->start_ns = start;
	t->end_ns = end;
	if (t->drawn && t->end_ns < t->start_ns) /* a device clock that ran backwards */
		t->end_ns = t->start_ns;
	if (t->drawn && (dev->clock == XM_CLOCK_RECORDS || dev->clock == XM_CLOCK_INFO_JSON))
		keep_after_submit(dev, t);
}

/*
 * A task with one of START and END that only the capture window can have
 * cut: its missing end becomes the window's edge (times on the model's
 * clock), when known and not beyond the end it has; the timeline shows
 * it clamped to the window and marked, the CSVs leave it out (not
 * @drawn).  @edges (stream_edges()) says which edge may have cut it, 0
 * when task records may be missing (task_records_whole()).  That is:
 *  - cut at the start: an END alone (no SUBMIT either: a task submitted
 *    in the window starts in it), the first life cycle of its stream;
 *  - cut at the end: a START without END, the last life cycle of its
 *    stream.
 * Any other half task lost a record inside the window (or the record
 * was aged out): it is not drawn, only counted, as drawing it to an edge
 * of the window would invent its missing time.
 */
static void clamp_cut(const struct export_model *m, struct xm_task *t, uint8_t edges)
{
	uint8_t have = t->have;

	t->cut = 0;
	if (have == XM_HAVE_END && (edges & XM_CUT_START) && m->window_start_ns &&
	    m->window_start_ns <= t->end_ns) {
		t->start_ns = m->window_start_ns;
		t->cut = XM_CUT_START;
	} else if ((have & (XM_HAVE_START | XM_HAVE_END)) == XM_HAVE_START &&
		   (edges & XM_CUT_END) && m->window_end_ns && m->window_end_ns >= t->start_ns) {
		t->end_ns = m->window_end_ns;
		t->cut = XM_CUT_END;
	}
}

int xm_call_cmp(const void *pa, const void *pb)
{
	const struct xm_call *a = pa, *b = pb;
	int c = XM_CMP(a->pid, b->pid);

	if (!c)
		c = XM_CMP(a->tid, b->tid);
	if (!c)
		c = XM_CMP(a->entry_ns, b->entry_ns);
	if (!c)
		c = XM_CMP(b->exit_ns, a->exit_ns); /* outer call first */
	return c;
}

/*
 * A call still open at the sweep's time: its position in calls' order;
 * @kernel: its name, else the kernel name of its function handle
 * (func_name()).
 */
struct xm_open {
	uint64_t pos;
	uint64_t entry_ns;
	uint64_t exit_ns;
	uint32_t tid;
	uint32_t name;
	uint32_t kernel;
};

/*
 * The sweep's state: the calls of one thread (@pid, @tid) that entered by
 * the current time and may still hold it, in calls' order.  Calls of a
 * thread are in (entry, outer first) order, so the innermost call holding
 * a time t is the last one entered by t whose exit is at or after t; a
 * call that ended before t ends before every later time of the thread
 * too, so it leaves the top of the stack for good.
 */
struct xm_sweep {
	const struct export_model *m;
	struct xm_calls calls;
	const struct xm_call *next; /* the next call not pushed, NULL at the end */
	struct xm_open *open;
	size_t depth, cap;
	uint32_t pid, tid;
};

static int cmp_func(const void *pa, const void *pb)
{
	const struct xm_func *a = pa, *b = pb;
	int c = XM_CMP(a->pid, b->pid);

	return c ? c : XM_CMP(a->handle, b->handle);
}

/*
 * The kernel name of launch @c's function handle, as the process's
 * aclrtBinaryGetFunction() gave it (m->funcs, sorted by sweep_calls());
 * 0 for another call or an unknown handle.
 */
static uint32_t func_name(const struct export_model *m, const struct xm_call *c)
{
	struct xm_func key = { .pid = c->pid, .handle = c->handle }, *f;

	if (c->api != NPUPROF_API_RT_LAUNCH_KERNEL || !c->handle || !m->n_funcs)
		return 0;
	f = bsearch(&key, m->funcs, m->n_funcs, sizeof(*f), cmp_func);
	return f ? f->name : 0;
}

static int sweep_push(struct xm_sweep *sw)
{
	const struct xm_call *c = sw->next;

	if (c->pid != sw->pid || c->tid != sw->tid) {
		sw->depth = 0;
		sw->pid = c->pid;
		sw->tid = c->tid;
	}
	/*
	 * Calls on top that ended before @c entered end before every probe
	 * still to come on this thread (c entered by the current probe's
	 * time): sweep_find() would drop them anyway.  Dropped now, the stack
	 * holds the calls still open, not all calls between two probes (or
	 * all calls of a thread without probes).
	 */
	while (sw->depth && sw->open[sw->depth - 1].exit_ns < c->entry_ns)
		sw->depth--;
	if (sw->depth == sw->cap) {
		size_t cap = sw->cap ? 2 * sw->cap : 64;
		void *p = realloc(sw->open, cap * sizeof(*sw->open));

		if (!p)
			return -ENOMEM;
		sw->open = p;
		sw->cap = cap;
	}
	sw->open[sw->depth++] = (struct xm_open){ sw->calls.n - 1, c->entry_ns, c->exit_ns, c->tid,
						  c->name, c->name ? c->name : func_name(sw->m, c) };
	return 0;
}

/*
 * The name for a task with none of its own whose call @o (on top of the
 * sweep's stack) carries none: the kernel of @o's function handle, else
 * the name of the nearest call around it that has one (an ACL call
 * around the runtime call the SUBMIT came from); 0 when none has.
 */
static uint32_t fallback_name(const struct xm_sweep *sw, const struct xm_open *o)
{
	size_t i = (size_t)(o - sw->open) + 1;

	while (i--)
		if (sw->open[i].kernel)
			return sw->open[i].kernel;
	return 0;
}

/* The innermost call of @p's thread holding @p->ts, or NULL. */
static int sweep_find(struct xm_sweep *sw, const struct xm_probe *p, const struct xm_open **found)
{
	int r;

	*found = NULL;
	while (sw->next && (sw->next->pid < p->pid ||
			    (sw->next->pid == p->pid &&
			     (sw->next->tid < p->tid ||
			      (sw->next->tid == p->tid && sw->next->entry_ns <= p->ts))))) {
		r = sweep_push(sw);
		if (r)
			return r;
		r = xm_calls_next(&sw->calls, &sw->next);
		if (r < 0)
			return r;
		if (!r)
			sw->next = NULL;
	}
	if (!sw->depth || sw->pid != p->pid || sw->tid != p->tid)
		return 0;
	while (sw->depth && sw->open[sw->depth - 1].exit_ns < p->ts)
		sw->depth--;
	if (sw->depth)
		*found = &sw->open[sw->depth - 1];
	return 0;
}

/* Hand what @p asked of call @o (NULL: none, else on @sw's stack) to @links or *@waits. */
static int probe_link(struct export_model *m, struct xsort *links, struct xsort **waits,
		      const struct xm_sweep *sw, const struct xm_probe *p, const struct xm_open *o)
{
	int err;

	if (!o)
		return 0;
	if (p->ref & XM_PROBE_SYNC) {
		if (!*waits && (err = xm_sorter_open(sizeof(struct xm_sync_sum), cmp_sync_sum,
						     m->tmp_fd, waits)))
			return err;
		return xsort_add(*waits, &(struct xm_sync_sum){ o->pos, p->wait_ns });
	}
	return xsort_add(links, &(struct xm_link){ p->ref, o->entry_ns, o->pos, o->tid, o->name,
						   o->name ? 0 : fallback_name(sw, o), 0 });
}

/*
 * One merge of the calls (in their order) and the probes (by thread and
 * time) links each probe to the innermost call of its thread holding its
 * time: tasks' links go to @links (by task number), syncs' waits to
 * m->sync_waits (by call), which xm_calls_next() joins and sums.
 */
static int sweep_calls(struct export_model *m, struct xsort *links)
{
	struct xm_sweep sw = { .m = m };
	struct xsort *waits = NULL;
	const struct xm_open *o;
	const void *rec;
	int r;

	if (!m->probes)
		return 0;
	/* a handle got twice keeps either name: the same function, as a rule */
	if (m->n_funcs) /* qsort's base may not be NULL, even for none */
		qsort(m->funcs, m->n_funcs, sizeof(*m->funcs), cmp_func);
	r = xsort_rewind(m->probes);
	if (!r)
		r = xm_calls_begin(m, &sw.calls);
	if (!r && (r = xm_calls_next(&sw.calls, &sw.next)) == 0)
		sw.next = NULL;
	while (r >= 0 && (r = xsort_next(m->probes, &rec)) == 1) {
		r = sweep_find(&sw, rec, &o);
		if (!r)
			r = probe_link(m, links, &waits, &sw, rec, o);
	}
	free(sw.open);
	if (!r && waits)
		r = xsort_rewind(waits); /* adding ends: the calls' passes read them */
	if (r < 0) {
		xsort_close(waits);
		return r;
	}
	m->sync_waits = waits; /* from now on xm_calls_next() joins them */
	return 0;
}

/*
 * A pass over the links, by task number: @l is the next one, valid while
 * @more.
 */
struct xm_links {
	struct xsort *s;
	struct xm_link l;
	int more;
};

/* Read the next link into it->l.  Return: 0; -errno of the sorter. */
static int links_step(struct xm_links *it)
{
	const void *rec;
	int r = xsort_next(it->s, &rec);

	it->more = r == 1;
	if (r == 1)
		memcpy(&it->l, rec, sizeof(it->l));
	return r < 0 ? r : 0;
}

/* The link of task @i, or NULL; -errno of the sorter in *@err. */
static const struct xm_link *link_of(struct xm_links *it, uint64_t i, int *err)
{
	*err = 0;
	while (it->more && it->l.ref < i && !(*err = links_step(it)))
		;
	return !*err && it->more && it->l.ref == i ? &it->l : NULL;
}

/*
 * A joined task on the model's clock, its call's fields in place; @edges:
 * the window edges that may have cut it (clamp_cut()).
 */
static void finish_task(struct export_model *m, struct xm_task *t, const struct xm_link *l,
			uint8_t edges)
{
	int64_t off = m->wall_offset_ns;

	if (l) {
		/* pid and tid are spent (the probes carried them): the call's take their room */
		t->linked = 1;
		t->call_entry_ns = l->call_entry_ns;
		t->call_pos = l->call_pos;
		t->call_tid = l->call_tid;
		t->call_name = l->call_name;
		/* a kernel whose records carry no name, submitted by a call with none */
		if (!t->name && !t->call_name && t->type == NPUPROF_TT_KERNEL)
			t->name = l->fallback_name;
	}
	/* both in [-XM_TIME_MAX, XM_TIME_MAX]: the sums cannot overflow */
	t->submit_ns = (uint64_t)xm_time((int64_t)t->submit_ns + off);
	t->call_entry_ns = (uint64_t)xm_time((int64_t)t->call_entry_ns + off);
	t->start_ns = xm_time(t->start_ns + off);
	t->end_ns = xm_time(t->end_ns + off);
	clamp_cut(m, t, edges);
	m->n_drawn += t->drawn;
	m->n_cut += t->cut != 0;
	m->n_linked += t->linked && t->drawn;
	m->n_unsubmitted += !(t->have & XM_HAVE_SUBMIT);
}

/*
 * The second pass: fold the records again, map each task's device times,
 * join its link, and append it to the spool the writers read; @ss: the
 * stream ends the first pass found.
 */
static int second_pass(struct export_model *m, struct xsort *links, const struct xm_streams *ss)
{
	struct xm_links li = { .s = links };
	bool whole = task_records_whole(m);
	const struct xm_link *l;
	struct xm_fold f;
	struct xm_task t;
	size_t i = 0, dev = 0, pos = 0;
	uint8_t edges;
	int r;

	r = xm_sorter_open(sizeof(t), NULL, m->tmp_fd, &m->task_store);
	if (!r)
		r = xsort_rewind(links);
	if (!r)
		r = links_step(&li);
	if (!r)
		r = fold_begin(&f, m->task_recs);
	while (!r && (r = fold_next(&f, &t)) == 1) {
		while (m->devs[dev].id != t.device) /* the first pass's devices, in order */
			dev++;
		map_task(&m->devs[dev], &t);
		edges = whole ? stream_edges(ss, &pos, &t, i) : 0;
		l = link_of(&li, i++, &r);
		if (!r) {
			finish_task(m, &t, l, edges);
			r = xsort_add(m->task_store, &t);
		}
	}
	return r;
}

int export_model_join(struct export_model *m)
{
	int64_t wall_offset = m->wall_offset_ns;
	struct xm_streams ss = { 0 };
	struct xsort *links = NULL;
	int err = first_pass(m, &ss);

	/* the sweep meets calls and probes on the capture clock, as recorded */
	m->wall_offset_ns = 0;
	if (!err)
		err = xm_sorter_open(sizeof(struct xm_link), cmp_link, m->tmp_fd, &links);
	if (!err)
		err = sweep_calls(m, links);
	m->wall_offset_ns = wall_offset;
	xsort_close(m->probes);
	m->probes = NULL;
	if (!err)
		err = second_pass(m, links, &ss);
	free(ss.v);
	xsort_close(links);
	xsort_close(m->task_recs);
	m->task_recs = NULL;
	return err;
}

const char *xm_api_name(const struct xm_call *c, char *buf, size_t size)
{
	const char *name = npuprof_api_name(c->api);

	if (name)
		return name;
	snprintf(buf, size, "api_%u", c->api);
	return buf;
}

const char *xm_api_level(unsigned int api)
{
	const char *level;

	npuprof_api_level(api, &level);
	return level ? level : npuprof_level_name(NPUPROF_LEVEL_ACL);
}

const char *xm_task_type(const struct xm_task *t, char *buf, size_t size)
{
	const char *name = npuprof_task_type_name(t->type);

	if (name)
		return name;
	snprintf(buf, size, "TASK_TYPE_%u", t->type);
	return buf;
}

/*
 * @name (a record's name field, copied: NUL-terminated) as text.  Printable
 * ASCII is its own text (name_text.h escapes nothing in it): @name itself
 * is returned, without a copy per event; else the text, in @buf.
 */
static const char *name_text(const char *name, char *buf, size_t size)
{
	size_t i;

	for (i = 0; i < NPUPROF_NAME_LEN && name[i] >= 0x20 && name[i] <= 0x7e; i++)
		;
	if (!name[i] && i < size)
		return name;
	npuprof_name_text(buf, size, name, NPUPROF_NAME_LEN);
	return buf;
}

const char *xm_call_name(const struct export_model *m, const struct xm_call *c, char *buf,
			 size_t size)
{
	return name_text(xm_name(m, c->name), buf, size);
}

const char *xm_task_name(const struct export_model *m, const struct xm_task *t, char *buf,
			 size_t size)
{
	if (t->name)
		return name_text(xm_name(m, t->name), buf, size);
	if (t->type == NPUPROF_TT_KERNEL && t->linked && t->call_name)
		return name_text(xm_name(m, t->call_name), buf, size);
	return xm_task_type(t, buf, size);
}

const char *xm_op_type(const struct export_model *m, const struct xm_task *t, char *buf,
		       size_t size)
{
	if (t->linked && t->call_name)
		return name_text(xm_name(m, t->call_name), buf, size);
	return xm_task_name(m, t, buf, size);
}
