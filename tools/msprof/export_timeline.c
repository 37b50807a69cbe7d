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
 * so host ns survive exactly; dur is a number of us.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include <npuprof/record.h>

#include "export_csv.h"
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
	char buf[32];

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
				    json_string(c->name));
	if (c->has_sync)
		json_object_set_new(a, "Sync Wait(us)",
				    json_string(export_fmt_us((int64_t)c->sync_wait_ns, buf,
							      sizeof(buf))));
	return a;
}

static int emit_calls(struct tl_writer *w, const struct export_model *m)
{
	int64_t pid = export_trace_pid(m->app_pid, EXPORT_HOST_DEV);
	char buf[32];
	size_t i;
	int err = 0;

	for (i = 0; !err && i < m->n_calls; i++) {
		const struct xm_call *c = &m->calls[i];

		json_t *ev = x_event(xm_api_name(c, buf, sizeof(buf)), pid, c->tid,
				     (int64_t)c->entry_ns, (int64_t)(c->exit_ns - c->entry_ns),
				     call_args(c));

		if (ev)
			json_object_set_new(ev, "cat", json_string("AscendCL"));
		err = emit(w, ev);
	}
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
	char buf[48];
	size_t i;
	int err = 0;

	for (i = 0; !err && i < m->n_tasks; i++) {
		const struct xm_task *t = &m->tasks[i];

		if (!t->drawn)
			continue; /* no invented times for tasks cut by the window */
		err = emit(w, x_event(xm_task_name(m, t, buf, sizeof(buf)),
				      export_trace_pid(m->app_pid, t->device), t->stream, t->start_ns,
				      t->end_ns - t->start_ns, task_args(t)));
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

int export_write_timeline(const struct export_model *m, FILE *f)
{
	struct tl_writer w = { .f = f };
	int err;

	err = emit_host_meta(&w, m);
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
