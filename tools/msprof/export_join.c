// SPDX-License-Identifier: MIT
/*
 * Joining the records of one PROF dir (export_model.h):
 *
 *  1. a device task's SUBMIT, START and END records (keyed by device,
 *     stream, task id) become one task;
 *  2. each device gets a device-count -> host-ns mapping (clock_sync.c)
 *     from the driver's clock samples in info.json, else from its own
 *     START/END records, else the tracepoints' host times are used as is;
 *  3. each task with a SUBMIT record is linked to the API call that
 *     submitted it: the innermost call on the same thread whose
 *     [entry, exit] holds the SUBMIT host time (the driver's submit
 *     tracepoint fires inside the runtime call on the caller's thread);
 *     STREAM_SYNC records are linked to their synchronize call the same way.
 *     Calls are not held in memory: one merge of the sorted calls with the
 *     SUBMIT and STREAM_SYNC times sorted by thread and time does it
 *     (sweep_calls()), and each task keeps what the writers need of its call.
 *
 * A task missing START or END (cut by the capture window) keeps what is
 * known and is marked not drawn: no time is invented for it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/record_io.h>

#include "export_model.h"
#include "export_sort.h"


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
		c = XM_CMP(a->have, b->have); /* SUBMIT, START, END */
	return c;
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
	if (src->have & XM_HAVE_SUBMIT)
		dst->submit_ns = src->submit_ns;
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

static void merge_tasks(struct export_model *m)
{
	size_t i, n = 0;

	if (!m->n_tasks)
		return;
	qsort(m->tasks, m->n_tasks, sizeof(*m->tasks), xm_task_cmp);
	for (i = 1; i < m->n_tasks; i++) {
		if (xm_task_same(&m->tasks[n], &m->tasks[i]))
			xm_task_fold(&m->tasks[n], &m->tasks[i]);
		else
			m->tasks[++n] = m->tasks[i];
	}
	m->n_tasks = n + 1;
}

/*
 * Device @dev's count -> host ns mapping.  The driver's clock pairs in
 * info.json come first: each reads both clocks in one call, while a
 * START/END record pairs the device's true event time with the moment the
 * host saw the interrupt, which lags by a varying amount.  The records'
 * pairs (tasks[lo, hi)) are the fallback for a driver without clock reads.
 */
static int fit_device(struct export_model *m, struct xm_device *dev, size_t lo, size_t hi)
{
	struct clock_pair *p = malloc(2 * (hi - lo + m->n_samples) * sizeof(*p) + 1);
	size_t i, n = 0;
	int err;

	if (!p)
		return -ENOMEM;
	for (i = 0; i < m->n_samples; i++)
		if (m->samples[i].device == dev->id)
			p[n++] = m->samples[i].pair;
	err = clock_fit_pairs(p, n, &dev->fit);
	if (!err) {
		dev->clock = XM_CLOCK_INFO_JSON;
		goto out_free;
	}
	n = 0;
	for (i = lo; i < hi; i++) {
		const struct xm_task *t = &m->tasks[i];

		if (t->have & XM_HAVE_START)
			p[n++] = (struct clock_pair){ t->start_dev, t->start_tp_ns };
		if (t->have & XM_HAVE_END)
			p[n++] = (struct clock_pair){ t->end_dev, t->end_tp_ns };
	}
	dev->clock = n ? XM_CLOCK_TRACEPOINT : XM_CLOCK_NONE;
	err = clock_fit_pairs(p, n, &dev->fit);
	if (!err)
		dev->clock = XM_CLOCK_RECORDS;
	err = err == -ENOMEM ? err : 0;
out_free:
	free(p);
	return err;
}

static void map_task(const struct xm_device *dev, struct xm_task *t)
{
	t->drawn = (t->have & (XM_HAVE_START | XM_HAVE_END)) == (XM_HAVE_START | XM_HAVE_END);
	if (!t->drawn) {
		t->start_ns = t->end_ns = 0; /* the tracepoint times they shared room with */
		return;
	}
	if (dev->clock == XM_CLOCK_RECORDS || dev->clock == XM_CLOCK_INFO_JSON) {
		t->start_ns = clock_dev_to_host_ns(&dev->fit, t->start_dev);
		t->end_ns = clock_dev_to_host_ns(&dev->fit, t->end_dev);
	} else {
		t->start_ns = (int64_t)t->start_tp_ns;
		t->end_ns = (int64_t)t->end_tp_ns;
	}
	if (t->end_ns < t->start_ns) /* a device clock that ran backwards */
		t->end_ns = t->start_ns;
}

/* One xm_device per device id in tasks[] (sorted by device). */
static int map_devices(struct export_model *m)
{
	size_t lo = 0, hi, i;
	int err;

	while (lo < m->n_tasks) {
		struct xm_device *d;

		for (hi = lo; hi < m->n_tasks && m->tasks[hi].device == m->tasks[lo].device; hi++)
			;
		d = realloc(m->devs, (m->n_devs + 1) * sizeof(*d));
		if (!d)
			return -ENOMEM;
		m->devs = d;
		d = &m->devs[m->n_devs++];
		memset(d, 0, sizeof(*d));
		d->id = m->tasks[lo].device;
		err = fit_device(m, d, lo, hi);
		if (err)
			return err;
		for (i = lo; i < hi; i++) {
			map_task(d, &m->tasks[i]);
			m->n_drawn += m->tasks[i].drawn;
		}
		lo = hi;
	}
	return 0;
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
 * A time on a thread that wants the call holding it: a task's SUBMIT
 * (@ref its index in tasks[]) or a STREAM_SYNC (@ref XM_PROBE_SYNC | its
 * index in syncs[]).
 */
struct xm_probe {
	uint64_t ts;
	uint32_t pid;
	uint32_t tid;
	uint64_t ref;
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

/* A call still open at the sweep's time: its position in calls' order. */
struct xm_open {
	uint64_t pos;
	uint64_t entry_ns;
	uint64_t exit_ns;
	uint32_t tid;
	uint32_t name;
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
	struct xm_calls calls;
	const struct xm_call *next; /* the next call not pushed, NULL at the end */
	struct xm_open *open;
	size_t depth, cap;
	uint32_t pid, tid;
};

static int sweep_push(struct xm_sweep *sw)
{
	const struct xm_call *c = sw->next;

	if (c->pid != sw->pid || c->tid != sw->tid) {
		sw->depth = 0;
		sw->pid = c->pid;
		sw->tid = c->tid;
	}
	if (sw->depth == sw->cap) {
		size_t cap = sw->cap ? 2 * sw->cap : 64;
		void *p = realloc(sw->open, cap * sizeof(*sw->open));

		if (!p)
			return -ENOMEM;
		sw->open = p;
		sw->cap = cap;
	}
	sw->open[sw->depth++] = (struct xm_open){ sw->calls.n - 1, c->entry_ns, c->exit_ns, c->tid,
						  c->name };
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

static int cmp_sync_sum(const void *pa, const void *pb)
{
	const struct xm_sync_sum *a = pa, *b = pb;
	int c = XM_CMP(a->call, b->call);

	return c ? c : XM_CMP(a->wait_ns, b->wait_ns); /* wait_ns: the sync's index here */
}

/* Link what @p asked for to call @o (NULL: none). */
static void probe_link(struct export_model *m, const struct xm_probe *p, const struct xm_open *o,
		       size_t *n_hits)
{
	if (!o)
		return;
	if (p->ref & XM_PROBE_SYNC) {
		/* the sync's index for now: summed in syncs[] order by sum_syncs() */
		m->sync_sums[(*n_hits)++] = (struct xm_sync_sum){ o->pos, p->ref & ~XM_PROBE_SYNC };
	} else {
		struct xm_task *t = &m->tasks[p->ref];

		/* pid and tid are spent (the probes carry them): the call's take their room */
		t->linked = 1;
		t->call_entry_ns = o->entry_ns;
		t->call_tid = o->tid;
		t->call_name = o->name;
	}
}

/* One STREAM_SYNC wait per call: the hits' waits summed in syncs[] order. */
static void sum_syncs(struct export_model *m, size_t n_hits)
{
	size_t i, n = 0;

	if (n_hits)
		qsort(m->sync_sums, n_hits, sizeof(*m->sync_sums), cmp_sync_sum);
	for (i = 0; i < n_hits; i++) {
		uint64_t wait = m->syncs[m->sync_sums[i].wait_ns].wait_ns;

		if (n && m->sync_sums[n - 1].call == m->sync_sums[i].call) {
			m->sync_sums[n - 1].wait_ns =
				(uint64_t)xm_add_ns((int64_t)m->sync_sums[n - 1].wait_ns, (int64_t)wait);
		} else {
			m->sync_sums[n++] = (struct xm_sync_sum){ m->sync_sums[i].call,
								  (uint64_t)xm_add_ns(0, (int64_t)wait) };
		}
	}
	m->n_sync_sums = n;
}

/* Every SUBMIT and STREAM_SYNC time, sorted by (pid, tid, time). */
static int probes(struct export_model *m, int dir_fd, struct xsort **out)
{
	size_t i;
	int err = xm_sorter_open(sizeof(struct xm_probe), cmp_probe, dir_fd, out);

	for (i = 0; !err && i < m->n_tasks; i++) {
		const struct xm_task *t = &m->tasks[i];

		if (t->have & XM_HAVE_SUBMIT)
			err = xsort_add(*out, &(struct xm_probe){ t->submit_ns, t->pid, t->tid, i });
	}
	for (i = 0; !err && i < m->n_syncs; i++) {
		const struct xm_sync *s = &m->syncs[i];

		err = xsort_add(*out, &(struct xm_probe){ s->ts_ns, s->pid, s->tid, XM_PROBE_SYNC | i });
	}
	return err ? err : xsort_rewind(*out);
}

/*
 * One merge of the calls (in their order) and the probes (by thread and
 * time) links each probe to the innermost call of its thread holding its
 * time: tasks copy what the writers need of their call, syncs add their
 * wait to the call's (m->sync_sums).
 */
static int sweep_calls(struct export_model *m, struct xsort *probes_s)
{
	struct xm_sweep sw = { 0 };
	const struct xm_open *o;
	const void *rec;
	size_t n_hits = 0;
	int r;

	m->sync_sums = malloc((m->n_syncs + 1) * sizeof(*m->sync_sums));
	if (!m->sync_sums)
		return -ENOMEM;
	r = xm_calls_begin(m, &sw.calls);
	if (!r && (r = xm_calls_next(&sw.calls, &sw.next)) == 0)
		sw.next = NULL;
	while (r >= 0 && (r = xsort_next(probes_s, &rec)) == 1) {
		r = sweep_find(&sw, rec, &o);
		if (!r)
			probe_link(m, rec, o, &n_hits);
	}
	free(sw.open);
	if (r < 0)
		return r;
	sum_syncs(m, n_hits);
	return 0;
}

static int link_calls(struct export_model *m)
{
	struct xsort *p = NULL;
	size_t i;
	int fd, err;

	fd = open(m->dir ? m->dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = probes(m, fd, &p);
	close(fd);
	if (!err)
		err = sweep_calls(m, p);
	xsort_close(p);
	if (err)
		return err;
	for (i = 0; i < m->n_tasks; i++)
		m->n_linked += m->tasks[i].linked && m->tasks[i].drawn;
	return 0;
}

int export_model_join(struct export_model *m)
{
	int err;

	merge_tasks(m);
	err = map_devices(m);
	if (err)
		return err;
	return link_calls(m);
}

const char *xm_api_name(const struct xm_call *c, char *buf, size_t size)
{
	const char *name = npuprof_api_name(c->api);

	if (name)
		return name;
	snprintf(buf, size, "api_%u", c->api);
	return buf;
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
