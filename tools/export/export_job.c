// SPDX-License-Identifier: MIT
/*
 * Job-level table of an export (export_job.h).  Every figure comes from
 * the joined model of one PROF dir: device busy time is the union of its
 * drawn task intervals (streams run concurrently, so a plain sum would
 * count the overlap twice); API time adds up outermost calls only (a call
 * made inside another is already in its caller's time).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <npuprof/record.h>

#include "export_job.h"
#include "export_sort.h"


struct span {
	int64_t start, end;
};

static int cmp_span(const void *pa, const void *pb)
{
	const struct span *a = pa, *b = pb;

	return XM_CMP(a->start, b->start);
}

/* The union of the drawn tasks' [start, end], from a sorter by start. */
static int busy_ns(const struct export_model *m, int64_t *out)
{
	int64_t total = 0, lo = 0, hi = 0;
	const struct xm_task *t;
	struct xsort *s = NULL;
	struct xm_tasks it;
	const void *rec;
	int r, any = 0;

	r = xm_sorter_open(sizeof(struct span), cmp_span, m->tmp_fd, &s);
	if (!r)
		r = xm_tasks_begin(m, &it);
	while (!r && (r = xm_tasks_next(&it, &t)) == 1)
		r = t->drawn ? xsort_add(s, &(struct span){ t->start_ns, t->end_ns }) : 0;
	if (!r)
		r = xsort_rewind(s);
	while (!r && (r = xsort_next(s, &rec)) == 1) {
		const struct span *v = rec;

		r = 0;
		if (!any || v->start > hi) {
			total += hi - lo;
			lo = v->start;
			hi = v->end;
		}
		if (v->end > hi)
			hi = v->end;
		any = 1;
	}
	xsort_close(s);
	*out = total + hi - lo;
	return r;
}

/* Calls come sorted by (pid, tid, entry, outer first). */
static int api_ns(const struct export_model *m, int64_t *out)
{
	int64_t total = 0;
	uint64_t outer_end = 0;
	const struct xm_call *c;
	struct xm_calls it;
	int r = xm_calls_begin(m, &it);

	while (!r && (r = xm_calls_next(&it, &c)) == 1) {
		int new_thread = it.n == 1 || c->tid != it.prev.tid || c->pid != it.prev.pid;

		r = 0;
		if (!xm_call_drawn(c))
			continue; /* cut at an unknown end */
		if (!new_thread && c->entry_ns < outer_end)
			continue; /* inside the outer call */
		total = xm_add_ns(total, (int64_t)(c->exit_ns - c->entry_ns));
		outer_end = c->exit_ns;
	}
	*out = total;
	return r;
}

static int cmp_i64(const void *pa, const void *pb)
{
	return XM_CMP(*(const int64_t *)pa, *(const int64_t *)pb);
}

/*
 * The median gap between one thread's stream synchronize returns, -1 when
 * there is none: the gaps go through a sorter (exact, in bounded memory),
 * read up to the middle one (the upper of two middles).
 */
static int step_ns(const struct export_model *m, int64_t *out)
{
	uint64_t last = 0, n, i;
	const struct xm_call *c;
	struct xsort *s = NULL;
	struct xm_calls it;
	const void *rec;
	int r;

	*out = -1;
	r = xm_sorter_open(sizeof(int64_t), cmp_i64, m->tmp_fd, &s);
	if (!r)
		r = xm_calls_begin(m, &it);
	while (!r && (r = xm_calls_next(&it, &c)) == 1) {
		r = 0;
		if (it.n > 1 && (c->tid != it.prev.tid || c->pid != it.prev.pid))
			last = 0;
		if (c->api != NPUPROF_API_RT_SYNC_STREAM || !xm_call_whole(c))
			continue;
		if (last)
			r = xsort_add(s, &(int64_t){ (int64_t)(c->exit_ns - last) });
		last = c->exit_ns;
	}
	n = r ? 0 : xsort_count(s);
	if (!r && n)
		r = xsort_rewind(s);
	for (i = 0; !r && n && i <= n / 2; i++) {
		r = xsort_next(s, &rec);
		if (r == 1) {
			*out = *(const int64_t *)rec;
			r = 0;
		} else if (!r) {
			r = -EIO; /* fewer than counted: cannot happen */
		}
	}
	xsort_close(s);
	return r;
}

int export_job_row(const struct export_model *m, struct export_job_row *row)
{
	const char *base = strrchr(m->dir, '/');
	int err;

	memset(row, 0, sizeof(*row));
	base = base ? base + 1 : m->dir;
	npuprof_name_text(row->name, sizeof(row->name), base, strlen(base));
	row->start_ns = m->window_start_ns;
	row->pid = m->app_pid;
	row->rank = m->rank;
	err = api_ns(m, &row->api_ns);
	if (!err)
		err = busy_ns(m, &row->busy_ns);
	if (!err)
		err = step_ns(m, &row->step_ns);
	return err;
}

static int cmp_start(const void *pa, const void *pb)
{
	const struct export_job_row *a = pa, *b = pb;

	return XM_CMP(a->start_ns, b->start_ns);
}

static int cmp_rank(const void *pa, const void *pb)
{
	const struct export_job_row *a = pa, *b = pb;
	int c = XM_CMP((unsigned int)a->rank, (unsigned int)b->rank); /* unknown (-1) last */

	return c ? c : XM_CMP(a->pid, b->pid);
}

static void print_window(const struct export_job_row *r, size_t n, FILE *out)
{
	const struct export_job_row *slow = &r[0], *fast = &r[0];
	int by_step = 1;
	char rank[16];
	size_t i;

	time_t sec = (time_t)(r->start_ns / 1000000000);
	char when[32];
	struct tm tm;

	for (i = 0; i < n; i++)
		by_step &= r[i].step_ns > 0;
	localtime_r(&sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(out, "Job summary: %zu processes in the window of %s\n", n, when);
	fprintf(out, "  (device busy: time any stream of its devices ran a task; API time: its threads\n"
		     "   inside ACL calls, summed; step: median time between stream synchronizes)\n");
	fprintf(out, "  %5s %8s %16s %16s %14s  %s\n", "Rank", "Pid", "Device busy(us)", "API time(us)",
		"Step(us)", "PROF dir");
	for (i = 0; i < n; i++) {
		int64_t key = by_step ? r[i].step_ns : r[i].busy_ns;

		snprintf(rank, sizeof(rank), r[i].rank >= 0 ? "%d" : "-", r[i].rank);
		fprintf(out, "  %5s %8u %16.3f %16.3f ", rank, r[i].pid, (double)r[i].busy_ns / 1e3,
			(double)r[i].api_ns / 1e3);
		if (r[i].step_ns > 0)
			fprintf(out, "%14.3f  %s\n", (double)r[i].step_ns / 1e3, r[i].name);
		else
			fprintf(out, "%14s  %s\n", "-", r[i].name);
		if (key > (by_step ? slow->step_ns : slow->busy_ns))
			slow = &r[i];
		if (key < (by_step ? fast->step_ns : fast->busy_ns))
			fast = &r[i];
	}
	snprintf(rank, sizeof(rank), slow->rank >= 0 ? "rank %d" : "rank unknown", slow->rank);
	if (by_step)
		fprintf(out, "  Slowest: %s (pid %u), median step %.3f us, %.1f%% above the fastest\n",
			rank, slow->pid, (double)slow->step_ns / 1e3,
			100.0 * (double)(slow->step_ns - fast->step_ns) / (double)fast->step_ns);
	else
		fprintf(out, "  Slowest: %s (pid %u), device busy %.3f us (no step time: no repeated stream synchronize)\n",
			rank, slow->pid, (double)slow->busy_ns / 1e3);
}

void export_job_print(struct export_job_row *rows, size_t n, FILE *out)
{
	size_t lo = 0, hi;

	qsort(rows, n, sizeof(*rows), cmp_start);
	for (lo = 0; lo < n; lo = hi) {
		for (hi = lo; hi < n && rows[hi].start_ns - rows[lo].start_ns < EXPORT_JOB_WINDOW_NS; hi++)
			;
		qsort(&rows[lo], hi - lo, sizeof(*rows), cmp_rank);
		if (hi - lo >= 2)
			print_window(&rows[lo], hi - lo, out);
	}
}
