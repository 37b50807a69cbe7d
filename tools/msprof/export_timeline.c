// SPDX-License-Identifier: MIT
/*
 * Timeline writer (export_timeline.h): msprof_<ts>.json as a Chrome trace
 * event array.
 *
 *  - process "CANN" (label "CPU", sort index 7), one row per host thread
 *    ("Thread <tid>"), one X event per runtime API call;
 *  - process "Ascend Hardware" per device (label "NPU <dev>", sort 14),
 *    one row per stream ("Stream <id>"), one X event per device task that
 *    has a START and an END, placed on the host clock by clock_sync.c;
 *  - one HostToDevice flow per linked task: "s" at the start of the API
 *    call that submitted it, "f" with "bp":"e" at the task's start.  Chrome
 *    binds a flow end to the slice that encloses its timestamp, so both
 *    ends sit on the start of an X event.
 *
 * ts is a string of us with 3 decimals ("123.456") as msprof writes it,
 * so host ns survive exactly; dur is a number of us, chosen so that readers
 * which parse ts into a double see slices nest as they do
 * (export_tl_end_ns()).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <npuprof/record.h>

#include "export_csv.h"
#include "export_outcome.h"
#include "export_timeline.h"

/* dur needs 3 decimals of up to ~1e9 us: 15 digits print it without noise. */
#define TL_DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(15))

struct tl_writer {
	FILE *f;
	size_t events;
};

/* Write one event (steals @ev).  Return 0, -ENOMEM (ev NULL) or -EIO. */
static int emit(struct tl_writer *w, json_t *ev)
{
	int err = 0;

	if (!ev)
		return -ENOMEM;
	fputs(w->events++ ? ",\n" : "[\n", w->f);
	if (json_dumpf(ev, w->f, TL_DUMP_FLAGS))
		err = -EIO;
	json_decref(ev);
	return err;
}

static json_t *meta(int64_t pid, int64_t tid, const char *name, json_t *args)
{
	return json_pack("{s:s, s:s, s:I, s:I, s:o}", "name", name, "ph", "M", "pid",
			 (json_int_t)pid, "tid", (json_int_t)tid, "args", args);
}

static int emit_process(struct tl_writer *w, int64_t pid, const char *name, const char *label,
			int sort)
{
	int err;

	err = emit(w, meta(pid, 0, "process_name", json_pack("{s:s}", "name", name)));
	if (!err)
		err = emit(w, meta(pid, 0, "process_labels", json_pack("{s:s}", "labels", label)));
	if (!err)
		err = emit(w, meta(pid, 0, "process_sort_index",
				   json_pack("{s:i}", "sort_index", sort)));
	return err;
}

static int emit_thread(struct tl_writer *w, int64_t pid, uint32_t tid, const char *fmt)
{
	char name[48];
	int err;

	snprintf(name, sizeof(name), fmt, tid);
	err = emit(w, meta(pid, tid, "thread_name", json_pack("{s:s}", "name", name)));
	if (!err)
		err = emit(w, meta(pid, tid, "thread_sort_index",
				   json_pack("{s:I}", "sort_index", (json_int_t)tid)));
	return err;
}

/* "CANN" and a row per host thread that made a call. */
static int emit_host_meta(struct tl_writer *w, const struct export_model *m)
{
	int64_t pid = export_trace_pid(m->app_pid, EXPORT_HOST_DEV);
	size_t i;
	int err = emit_process(w, pid, "CANN", "CPU", 7);

	for (i = 0; !err && i < m->n_calls; i++) /* calls[] is sorted by (pid, tid) */
		if (!i || m->calls[i].tid != m->calls[i - 1].tid)
			err = emit_thread(w, pid, m->calls[i].tid, "Thread %u");
	return err;
}

/* "Ascend Hardware" per device, a row per stream that has a drawn task. */
static int emit_device_meta(struct tl_writer *w, const struct export_model *m)
{
	const struct xm_task *prev = NULL;
	char label[32];
	size_t i;
	int err = 0;

	for (i = 0; !err && i < m->n_devs; i++) {
		snprintf(label, sizeof(label), "NPU %u", m->devs[i].id);
		err = emit_process(w, export_trace_pid(m->app_pid, m->devs[i].id),
				   "Ascend Hardware", label, 14);
	}
	for (i = 0; !err && i < m->n_tasks; i++) { /* sorted by (device, stream) */
		const struct xm_task *t = &m->tasks[i];

		if (!t->drawn)
			continue;
		if (!prev || prev->device != t->device || prev->stream != t->stream)
			err = emit_thread(w, export_trace_pid(m->app_pid, t->device), t->stream,
					  "Stream %u");
		prev = t;
	}
	return err;
}

/* The double a reader gets from the "<us>.<3 digits>" text of @ns. */
static double parsed_us(int64_t ns)
{
	char buf[32];

	return strtod(export_fmt_us(ns, buf, sizeof(buf)), NULL);
}

/*
 * Does a double reader's ts + dur (start @start_us, parsed from @start_ns)
 * land on the double it parses from @end_ns?  dur is written from the
 * double (end - start) / 1000, which is exact to its 3 decimals.
 */
static bool ends_agree(double start_us, int64_t start_ns, int64_t end_ns)
{
	return start_us + (double)(end_ns - start_ns) / 1000.0 == parsed_us(end_ns);
}

int64_t export_tl_end_ns(int64_t start_ns, int64_t end_ns)
{
	double start_us, end_us;
	int64_t lo, hi, mid, reach;

	if (end_ns <= start_ns)
		return start_ns;
	start_us = parsed_us(start_ns);
	if (ends_agree(start_us, start_ns, end_ns))
		return end_ns;
	/*
	 * The reader's sum misses by the rounding of start, at most half a
	 * double step, so an end that far (+1 ns) earlier agrees, and the
	 * ends in between go from disagreeing to agreeing once: bisect.  An
	 * end equal to start always agrees (dur 0), the fallback if not.
	 */
	end_us = parsed_us(end_ns);
	reach = (int64_t)ceil((nextafter(end_us, INFINITY) - end_us) * 500.0) + 1;
	lo = end_ns - start_ns > reach ? end_ns - reach : start_ns;
	if (!ends_agree(start_us, start_ns, lo))
		lo = start_ns;
	hi = end_ns;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (ends_agree(start_us, start_ns, mid))
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static json_t *x_event(const char *name, int64_t pid, uint32_t tid, int64_t ts_ns, int64_t dur_ns,
		       json_t *args)
{
	char ts[32];

	return json_pack("{s:s, s:s, s:I, s:I, s:s, s:f, s:o}", "name", name, "ph", "X", "pid",
			 (json_int_t)pid, "tid", (json_int_t)tid, "ts",
			 export_fmt_us(ts_ns, ts, sizeof(ts)), "dur", (double)dur_ns / 1000.0,
			 "args", args);
}

static json_t *call_args(const struct xm_call *c)
{
	json_t *a = json_pack("{s:s, s:i, s:I}", "level", "AscendCL", "Return Code", (int)c->ret,
			      "Thread Id", (json_int_t)c->tid);
	char buf[32], name[XM_TEXT_LEN];

	if (!a)
		return NULL;
	if (c->device >= 0)
		json_object_set_new(a, "Device Id", json_integer(c->device));
	if (c->stream) {
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)c->stream);
		json_object_set_new(a, "Stream", json_string(buf));
	}
	if (c->bytes)
		json_object_set_new(a, "Bytes", json_integer((json_int_t)c->bytes));
	if (c->api == NPUPROF_API_RT_MEMCPY || c->api == NPUPROF_API_RT_MEMCPY_ASYNC)
		json_object_set_new(a, "Memcpy Kind", json_integer(c->kind));
	if (c->name[0])
		json_object_set_new(a, c->api == NPUPROF_API_OP_EXECUTE_V2 ? "Op Type" : "Kernel Name",
				    json_string(xm_call_name(c, name, sizeof(name))));
	if (c->has_sync)
		json_object_set_new(a, "Sync Wait(us)",
				    json_string(export_fmt_us((int64_t)c->sync_wait_ns, buf,
							      sizeof(buf))));
	return a;
}

/*
 * Calls of one thread nest (a call made inside another).  calls[] is in
 * row order, outer call first, so a stack of the written ends of the calls
 * still open keeps every call inside its caller after export_tl_end_ns()
 * has moved ends.
 */
static int emit_calls(struct tl_writer *w, const struct export_model *m)
{
	int64_t pid = export_trace_pid(m->app_pid, EXPORT_HOST_DEV);
	int64_t *open = malloc((m->n_calls ? m->n_calls : 1) * sizeof(*open));
	size_t i, depth = 0;
	char buf[32];
	int err = open ? 0 : -ENOMEM;

	for (i = 0; !err && i < m->n_calls; i++) {
		const struct xm_call *c = &m->calls[i];
		int64_t entry = (int64_t)c->entry_ns, end = (int64_t)c->exit_ns;
		json_t *ev;

		if (i && (c->pid != c[-1].pid || c->tid != c[-1].tid))
			depth = 0;
		while (depth && open[depth - 1] <= entry)
			depth--;
		if (depth && open[depth - 1] < end)
			end = open[depth - 1];
		end = export_tl_end_ns(entry, end);
		open[depth++] = end;
		ev = x_event(xm_api_name(c, buf, sizeof(buf)), pid, c->tid, entry, end - entry,
			     call_args(c));
		if (ev)
			json_object_set_new(ev, "cat", json_string("AscendCL"));
		err = emit(w, ev);
	}
	free(open);
	return err;
}

static json_t *task_args(const struct xm_task *t)
{
	char type[32], buf[32];
	json_t *a = json_pack("{s:s, s:I, s:I, s:I, s:I}", "Task Type",
			      xm_task_type(t, type, sizeof(type)), "Stream Id",
			      (json_int_t)t->stream, "Task Id", (json_int_t)t->task_id,
			      "Device Start(count)", (json_int_t)t->start_dev,
			      "Device End(count)", (json_int_t)t->end_dev);

	if (!a)
		return NULL;
	if (t->have & XM_HAVE_SUBMIT)
		json_object_set_new(a, "Submit Time(us)",
				    json_string(export_fmt_us((int64_t)t->submit_ns, buf,
							      sizeof(buf))));
	if (t->type == NPUPROF_TT_MEMCPY)
		json_object_set_new(a, "Bytes", json_integer((json_int_t)t->arg));
	if (t->flow_id)
		json_object_set_new(a, "connection_id", json_integer((json_int_t)t->flow_id));
	return a;
}

static int emit_tasks(struct tl_writer *w, const struct export_model *m)
{
	char buf[XM_TEXT_LEN];
	size_t i;
	int err = 0;

	for (i = 0; !err && i < m->n_tasks; i++) {
		const struct xm_task *t = &m->tasks[i];

		if (!t->drawn)
			continue; /* no invented times for tasks cut by the window */
		/* tasks of one stream run one after another: none encloses another */
		err = emit(w, x_event(xm_task_name(m, t, buf, sizeof(buf)),
				      export_trace_pid(m->app_pid, t->device), t->stream, t->start_ns,
				      export_tl_end_ns(t->start_ns, t->end_ns) - t->start_ns,
				      task_args(t)));
	}
	return err;
}

static json_t *flow_event(const char *ph, uint64_t id, int64_t pid, uint32_t tid, int64_t ts_ns)
{
	char ts[32];
	json_t *ev = json_pack("{s:s, s:s, s:s, s:I, s:I, s:I, s:s}", "name", "HostToDevice",
			       "ph", ph, "cat", "HostToDevice", "id", (json_int_t)id, "pid",
			       (json_int_t)pid, "tid", (json_int_t)tid, "ts",
			       export_fmt_us(ts_ns, ts, sizeof(ts)));

	if (ev && ph[0] == 'f')
		json_object_set_new(ev, "bp", json_string("e"));
	return ev;
}

static int emit_flows(struct tl_writer *w, const struct export_model *m)
{
	int64_t host = export_trace_pid(m->app_pid, EXPORT_HOST_DEV);
	size_t i;
	int err = 0;

	for (i = 0; !err && i < m->n_tasks; i++) {
		const struct xm_task *t = &m->tasks[i];
		const struct xm_call *c;

		if (!t->flow_id)
			continue;
		c = &m->calls[t->call];
		err = emit(w, flow_event("s", t->flow_id, host, c->tid, (int64_t)c->entry_ns));
		if (!err)
			err = emit(w, flow_event("f", t->flow_id,
						 export_trace_pid(m->app_pid, t->device), t->stream,
						 t->start_ns));
	}
	return err;
}

/*
 * The capture's outcome as a metadata event of the host process, named
 * "npuprof_capture": trace viewers skip metadata names they do not know,
 * so CANN's tools read the file as before, and a script finds whether the
 * data is complete, why not, and the records lost (export_outcome.h).
 */
static int emit_outcome(struct tl_writer *w, const struct export_model *m)
{
	json_t *args = export_outcome_json(m);

	if (!args)
		return -ENOMEM;
	return emit(w, meta(export_trace_pid(m->app_pid, EXPORT_HOST_DEV), 0, "npuprof_capture",
			    args));
}

int export_write_timeline(const struct export_model *m, FILE *f)
{
	struct tl_writer w = { .f = f };
	int err;

	err = emit_host_meta(&w, m);
	if (!err)
		err = emit_outcome(&w, m);
	if (!err)
		err = emit_device_meta(&w, m);
	if (!err)
		err = emit_calls(&w, m);
	if (!err)
		err = emit_tasks(&w, m);
	if (!err)
		err = emit_flows(&w, m);
	if (err)
		return err;
	fputs(w.events ? "\n]\n" : "[]\n", f);
	return ferror(f) ? -EIO : 0;
}
