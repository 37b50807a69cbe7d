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
 *
 * A task missing START or END (cut by the capture window) keeps what is
 * known and is marked not drawn: no time is invented for it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <npuprof/record_io.h>

#include "export_model.h"


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

static int cmp_call(const void *pa, const void *pb)
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

/* Key order of calls[]: is call @c before (pid, tid, ts)? */
static int call_le(const struct xm_call *c, uint32_t pid, uint32_t tid, uint64_t ts)
{
	if (c->pid != pid)
		return c->pid < pid;
	if (c->tid != tid)
		return c->tid < tid;
	return c->entry_ns <= ts;
}

/*
 * The innermost call of (pid, tid) holding @ts, or -1.  @maxexit[i] is the
 * largest exit_ns of the thread's calls up to i: once it is below @ts no
 * earlier call can hold @ts, which bounds the walk back.
 */
static long find_call(const struct export_model *m, const uint64_t *maxexit, uint32_t pid,
		      uint32_t tid, uint64_t ts)
{
	size_t lo = 0, hi = m->n_calls;
	long i;

	while (lo < hi) { /* first call after (pid, tid, ts) */
		size_t mid = lo + (hi - lo) / 2;

		if (call_le(&m->calls[mid], pid, tid, ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = (long)lo - 1; i >= 0; i--) {
		const struct xm_call *c = &m->calls[i];

		if (c->pid != pid || c->tid != tid || maxexit[i] < ts)
			break;
		if (c->exit_ns >= ts)
			return i;
	}
	return -1;
}

static uint64_t *thread_max_exit(const struct export_model *m)
{
	uint64_t *mx = malloc((m->n_calls + 1) * sizeof(*mx));
	size_t i;

	if (!mx)
		return NULL;
	for (i = 0; i < m->n_calls; i++) {
		const struct xm_call *c = &m->calls[i], *p = i ? c - 1 : NULL;
		int same = p && p->pid == c->pid && p->tid == c->tid;

		mx[i] = same && mx[i - 1] > c->exit_ns ? mx[i - 1] : c->exit_ns;
	}
	return mx;
}

static int link_calls(struct export_model *m)
{
	uint64_t *maxexit;
	uint64_t flow = 0;
	size_t i;

	/* a capture may hold tasks and no call (calls NULL): qsort wants an array */
	if (m->n_calls)
		qsort(m->calls, m->n_calls, sizeof(*m->calls), cmp_call);
	maxexit = thread_max_exit(m);
	if (!maxexit)
		return -ENOMEM;
	for (i = 0; i < m->n_tasks; i++) {
		struct xm_task *t = &m->tasks[i];

		if (!(t->have & XM_HAVE_SUBMIT))
			continue;
		t->call = find_call(m, maxexit, t->pid, t->tid, t->submit_ns);
		if (t->call >= 0 && t->drawn) {
			t->flow_id = ++flow;
			m->n_linked++;
		}
	}
	for (i = 0; i < m->n_syncs; i++) {
		const struct xm_sync *s = &m->syncs[i];
		long c = find_call(m, maxexit, s->pid, s->tid, s->ts_ns);

		if (c >= 0) {
			m->calls[c].has_sync = 1;
			m->calls[c].sync_wait_ns = (uint64_t)xm_add_ns((int64_t)m->calls[c].sync_wait_ns,
								 (int64_t)s->wait_ns);
		}
	}
	free(maxexit);
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
	if (t->type == NPUPROF_TT_KERNEL && t->call >= 0 && m->calls[t->call].name)
		return xm_call_name(m, &m->calls[t->call], buf, size);
	return xm_task_type(t, buf, size);
}

const char *xm_op_type(const struct export_model *m, const struct xm_task *t, char *buf,
		       size_t size)
{
	if (t->call >= 0 && m->calls[t->call].name)
		return xm_call_name(m, &m->calls[t->call], buf, size);
	return xm_task_name(m, t, buf, size);
}
