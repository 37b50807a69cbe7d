// SPDX-License-Identifier: MIT
/*
 * Summary CSVs (export_summary.h): api_statistic, op_summary, op_statistic
 * and task_time, column names as msprof documents them (msprof.md section
 * 4).  Only tasks with both a START and an END (xm_task.drawn) have a
 * duration, so only they appear in the per-task files and the statistics;
 * a task cut by the capture window is counted in the console summary.
 *
 * Times: "Task Start Time(us)" and friends are host CLOCK_MONOTONIC us
 * (device counts mapped by clock_sync.c), the same clock as the timeline.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <npuprof/record_io.h>

#include "export_csv.h"
#include "export_keymap.h"
#include "export_sort.h"
#include "export_summary.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const char *const api_statistic_cols[] = {
	"Device_id", "Level", "API Name", "Time(us)", "Count",
	"Avg(us)",   "Min(us)", "Max(us)", "Variance",
};

static const char *const op_summary_cols[] = {
	"Device_id",	     "Model Name",	   "Model ID",		"Task ID",
	"Stream ID",	     "Infer ID",	   "Op Name",		"OP Type",
	"OP State",	     "Task Type",	   "Task Start Time(us)", "Task Duration(us)",
	"Task Wait Time(us)", "Block Num",	   "HF32 Eligible",	"Mix Block Num",
	"Input Shapes",	     "Input Data Types",   "Input Formats",	"Output Shapes",
	"Output Data Types", "Output Formats",	   "Context ID",	"aiv_time(us)",
	"aicore_time(us)",   "total_cycles",
};

static const char *const op_statistic_cols[] = {
	"Device_id",    "Model Name",   "OP Type",      "Core Type",    "Count",
	"Total Time(us)", "Avg Time(us)", "Min Time(us)", "Max Time(us)", "Ratio(%)",
};

static const char *const task_time_cols[] = {
	"Device_id",	 "kernel_name",	   "kernel_type",    "stream_id",
	"task_id",	 "task_time(us)",  "task_start(us)", "task_stop(us)",
};

static void stat_add(struct xm_stat *s, int64_t ns)
{
	double us = (double)ns / 1000.0, delta;

	if (!s->count || ns < s->min_ns)
		s->min_ns = ns;
	if (!s->count || ns > s->max_ns)
		s->max_ns = ns;
	s->count++;
	s->total_ns = xm_add_ns(s->total_ns, ns);
	delta = us - s->mean_us;
	s->mean_us += delta / (double)s->count;
	s->m2_us += delta * (us - s->mean_us);
}

/* Count, total, avg, min, max in us (the shared middle of the stat rows). */
static void csv_stat(struct csv_writer *w, const struct xm_stat *s, int count_first)
{
	if (count_first)
		csv_u64(w, s->count);
	csv_us(w, s->total_ns);
	if (!count_first)
		csv_u64(w, s->count);
	csv_real(w, s->count ? s->mean_us : 0);
	csv_us(w, s->min_ns);
	csv_us(w, s->max_ns);
}

static int cmp_api_stat(const void *pa, const void *pb)
{
	const struct xm_api_stat *a = pa, *b = pb;
	int c = XM_CMP(b->st.total_ns, a->st.total_ns);

	return c ? c : strcmp(a->name, b->name);
}

int export_api_stats(const struct export_model *m, struct xm_api_stat **out, size_t *n)
{
	struct xm_api_stat *s = NULL;
	const struct xm_call *c;
	struct xm_calls it;
	size_t j, cnt = 0;
	int r = xm_calls_begin(m, &it);

	while (!r && (r = xm_calls_next(&it, &c)) == 1) {
		r = 0;
		if (!xm_call_whole(c))
			continue; /* no return: no duration */
		for (j = 0; j < cnt && s[j].api != c->api; j++)
			;
		if (j == cnt) {
			struct xm_api_stat *p = realloc(s, (cnt + 1) * sizeof(*s));

			if (!p) {
				free(s);
				return -ENOMEM;
			}
			s = p;
			memset(&s[cnt], 0, sizeof(s[cnt]));
			s[cnt].api = c->api;
			s[cnt].name = npuprof_api_name(c->api) ? npuprof_api_name(c->api) : "unknown";
			cnt++;
		}
		stat_add(&s[j].st, (int64_t)(c->exit_ns - c->entry_ns));
	}
	if (r < 0) {
		free(s);
		return r;
	}
	if (cnt)
		qsort(s, cnt, sizeof(*s), cmp_api_stat);
	*out = s;
	*n = cnt;
	return 0;
}

int export_write_api_statistic(const struct export_model *m, FILE *f)
{
	struct xm_api_stat *s;
	struct csv_writer w;
	size_t i, n;
	int err = export_api_stats(m, &s, &n);

	if (!err)
		err = csv_open(&w, f);
	if (err) {
		free(s);
		return err;
	}
	csv_header(&w, api_statistic_cols, ARRAY_LEN(api_statistic_cols));
	for (i = 0; i < n; i++) {
		csv_str(&w, "host");
		csv_str(&w, xm_api_level(s[i].api));
		csv_str(&w, s[i].name);
		csv_stat(&w, &s[i].st, 0);
		csv_real(&w, s[i].st.count ? s[i].st.m2_us / (double)s[i].st.count : 0);
		csv_end_row(&w);
	}
	free(s);
	return csv_close(&w);
}

/* A drawn task and its Task Wait Time, as op_summary and task_time list them. */
struct xm_timed {
	struct xm_task t;
	int64_t wait_ns;
};

/* msprof's order of task rows: device, then start, then stream. */
static int cmp_by_start(const void *pa, const void *pb)
{
	const struct xm_task *a = pa, *b = pb; /* the first member of struct xm_timed */
	int c = XM_CMP(a->device, b->device);

	if (!c)
		c = XM_CMP(a->start_ns, b->start_ns);
	if (!c)
		c = XM_CMP(a->stream, b->stream);
	return c;
}

/*
 * The drawn tasks in msprof's order into *@out; ties keep the tasks' own
 * order (the sorter is stable).  Each carries its Task Wait Time: the gap
 * between the end of the previous drawn task on the same device stream
 * and its start (0 for the first).  The tasks come in (device, stream,
 * task id) order, which on an in-order stream is execution order.
 */
static int sort_by_start(const struct export_model *m, struct xsort **out)
{
	struct xm_timed x = { .wait_ns = 0 };
	uint32_t dev = 0, stream = 0;
	int64_t end = 0;
	const struct xm_task *t;
	struct xm_tasks it;
	int any = 0, r;

	r = xm_sorter_open(sizeof(x), cmp_by_start, m->tmp_fd, out);
	if (!r)
		r = xm_tasks_begin(m, &it);
	while (!r && (r = xm_tasks_next(&it, &t)) == 1) {
		r = 0;
		if (!t->drawn)
			continue;
		x.wait_ns = any && dev == t->device && stream == t->stream ? t->start_ns - end : 0;
		any = 1;
		dev = t->device;
		stream = t->stream;
		end = t->end_ns;
		x.t = *t;
		r = xsort_add(*out, &x);
	}
	return r;
}

/*
 * The drawn tasks in msprof's order (struct xm_timed), ready to read from
 * the first: sorted by the first caller of an export (m->by_start, a
 * cache the model owns), rewound for the next.
 * Return: 0; -ENOMEM; -errno of a sorter.
 */
static int tasks_by_start(const struct export_model *m, struct xsort **out)
{
	struct export_model *cache = (struct export_model *)m; /* by_start only */
	int r = 0;

	if (!m->by_start) {
		r = sort_by_start(m, &cache->by_start);
		if (r) {
			xsort_close(cache->by_start);
			cache->by_start = NULL;
			return r;
		}
	}
	*out = m->by_start;
	return xsort_rewind(m->by_start);
}

static void op_summary_row(struct csv_writer *w, const struct export_model *m,
			   const struct xm_task *t, int64_t wait_ns)
{
	char b1[XM_TEXT_LEN], b2[XM_TEXT_LEN], b3[32];

	csv_u64(w, t->device);
	csv_empty(w, 2); /* Model Name, Model ID: no model execution data */
	csv_u64(w, t->task_id);
	csv_u64(w, t->stream);
	csv_empty(w, 1); /* Infer ID */
	csv_str(w, xm_task_name(m, t, b1, sizeof(b1)));
	csv_str(w, xm_op_type(m, t, b2, sizeof(b2)));
	csv_empty(w, 1); /* OP State */
	csv_str(w, xm_task_type(t, b3, sizeof(b3)));
	csv_us(w, t->start_ns);
	csv_us(w, t->end_ns - t->start_ns);
	csv_us(w, wait_ns);
	/* Block Num onwards: not in the records (no launch config, shapes, PMU) */
	csv_empty(w, (unsigned int)(ARRAY_LEN(op_summary_cols) - 13));
	csv_end_row(w);
}

int export_write_op_summary(const struct export_model *m, FILE *f)
{
	struct xsort *s = NULL;
	struct csv_writer w;
	const void *rec;
	int err, r = tasks_by_start(m, &s);

	if (!r)
		r = csv_open(&w, f);
	if (r)
		return r;
	csv_header(&w, op_summary_cols, ARRAY_LEN(op_summary_cols));
	while ((r = xsort_next(s, &rec)) == 1) {
		const struct xm_timed *x = rec;

		if (x->t.type == NPUPROF_TT_KERNEL)
			op_summary_row(&w, m, &x->t, x->wait_ns);
	}
	err = csv_close(&w);
	return r ? r : err;
}

static int cmp_op_stat(const void *pa, const void *pb)
{
	const struct xm_op_stat *a = pa, *b = pb;
	int c = XM_CMP(a->device, b->device);

	if (!c)
		c = XM_CMP(b->st.total_ns, a->st.total_ns);
	return c ? c : strcmp(a->op_type, b->op_type);
}

/*
 * The rows of op_statistic being counted: row i is the one of key i of
 * @keys, (device, op type, core type); @cap rows allocated.
 */
struct op_rows {
	struct xm_keymap keys;
	struct xm_op_stat *row;
	size_t cap;
};

/* The row of (device, op type, core type), made when new; NULL on -ENOMEM. */
static struct xm_op_stat *op_stat_slot(struct op_rows *r, uint32_t device, const char *op,
				       const char *core)
{
	char key[sizeof(device) + XM_TEXT_LEN + XM_NAME_LEN];
	size_t lo = strnlen(op, XM_TEXT_LEN - 1), lc = strnlen(core, XM_NAME_LEN - 1), i;
	struct xm_op_stat *p;
	int added;

	memcpy(key, &device, sizeof(device));
	memcpy(key + sizeof(device), op, lo);
	key[sizeof(device) + lo] = '\0';
	memcpy(key + sizeof(device) + lo + 1, core, lc);
	if (xm_keymap_get(&r->keys, key, sizeof(device) + lo + 1 + lc, &i, &added))
		return NULL;
	if (!added)
		return &r->row[i];
	if (i == r->cap) {
		p = realloc(r->row, (r->cap ? 2 * r->cap : 64) * sizeof(*p));
		if (!p)
			return NULL;
		r->row = p;
		r->cap = r->cap ? 2 * r->cap : 64;
	}
	p = &r->row[i];
	memset(p, 0, sizeof(*p));
	p->device = device;
	memcpy(p->op_type, op, lo);
	memcpy(p->core_type, core, lc);
	return p;
}

int export_op_stats(const struct export_model *m, struct xm_op_stat **out, size_t *n)
{
	struct op_rows rows = { .row = NULL };
	char b1[XM_TEXT_LEN], b2[32];
	const struct xm_task *t;
	struct xm_op_stat *p;
	struct xm_tasks it;
	int r = xm_tasks_begin(m, &it);

	while (!r && (r = xm_tasks_next(&it, &t)) == 1) {
		r = 0;
		if (!t->drawn || t->type != NPUPROF_TT_KERNEL)
			continue;
		p = op_stat_slot(&rows, t->device, xm_op_type(m, t, b1, sizeof(b1)),
				 xm_task_type(t, b2, sizeof(b2)));
		if (!p)
			r = -ENOMEM;
		else
			stat_add(&p->st, t->end_ns - t->start_ns);
	}
	*n = rows.keys.n;
	xm_keymap_free(&rows.keys);
	if (r) {
		free(rows.row);
		return r;
	}
	if (*n)
		qsort(rows.row, *n, sizeof(*rows.row), cmp_op_stat);
	*out = rows.row;
	return 0;
}

/* Device time of the rows of s[i]'s device, from s[i] on (rows come by device). */
static int64_t device_total(const struct xm_op_stat *s, size_t i, size_t n)
{
	int64_t total = 0;

	for (size_t j = i; j < n && s[j].device == s[i].device; j++)
		total = xm_add_ns(total, s[j].st.total_ns);
	return total;
}

int export_write_op_statistic(const struct export_model *m, FILE *f)
{
	struct xm_op_stat *s;
	struct csv_writer w;
	int64_t dev_total = 0;
	size_t i, n;
	int err = export_op_stats(m, &s, &n);

	if (!err)
		err = csv_open(&w, f);
	if (err) {
		free(s);
		return err;
	}
	csv_header(&w, op_statistic_cols, ARRAY_LEN(op_statistic_cols));
	for (i = 0; i < n; i++) {
		if (!i || s[i].device != s[i - 1].device) /* a device's first row */
			dev_total = device_total(s, i, n);
		csv_u64(&w, s[i].device);
		csv_empty(&w, 1); /* Model Name */
		csv_str(&w, s[i].op_type);
		csv_str(&w, s[i].core_type);
		csv_stat(&w, &s[i].st, 1);
		csv_real(&w, dev_total ? 100.0 * (double)s[i].st.total_ns / (double)dev_total : 0);
		csv_end_row(&w);
	}
	free(s);
	return csv_close(&w);
}

int export_write_task_time(const struct export_model *m, FILE *f)
{
	char b1[XM_TEXT_LEN], b2[32];
	struct xsort *s = NULL;
	struct csv_writer w;
	const void *rec;
	int err, r = tasks_by_start(m, &s);

	if (!r)
		r = csv_open(&w, f);
	if (r)
		return r;
	csv_header(&w, task_time_cols, ARRAY_LEN(task_time_cols));
	while ((r = xsort_next(s, &rec)) == 1) {
		const struct xm_task *t = &((const struct xm_timed *)rec)->t;

		csv_u64(&w, t->device);
		csv_str(&w, xm_task_name(m, t, b1, sizeof(b1)));
		csv_str(&w, xm_task_type(t, b2, sizeof(b2)));
		csv_u64(&w, t->stream);
		csv_u64(&w, t->task_id);
		csv_us(&w, t->end_ns - t->start_ns);
		csv_us(&w, t->start_ns);
		csv_us(&w, t->end_ns);
		csv_end_row(&w);
	}
	err = csv_close(&w);
	return r ? r : err;
}
