// SPDX-License-Identifier: MIT
/*
 * Timeline writer (export_timeline.h): msprof_<ts>.json as a Chrome trace
 * event array.
 *
 *  - process "CANN" (label "CPU", sort index 7), one row per host thread
 *    ("Thread <tid>"), one X event per API call, its CANN level ("AscendCL"
 *    or "Runtime", npuprof_api_level()) as its cat and "level" argument; a
 *    runtime call made inside an ACL call nests under it on its thread; a
 *    call still in flight at the stop ends when the capture was off
 *    (end_info's clockMonotonicDisabled), with args "cut": "end" in place
 *    of its unknown return code;
 *  - process "Ascend Hardware" per device (label "NPU <dev>", sort 14),
 *    one row per stream ("Stream <id>"), one X event per device task that
 *    has a START and an END, placed on the host clock by clock_sync.c, and
 *    per task cut by the capture window: one end is the window's edge
 *    (start_info's or end_info's clock) and args "cut" says which
 *    ("start" or "end"), never a lone begin or end;
 *  - process ids as CANN makes them (export_trace_pid());
 *  - one HostToDevice flow per linked task: "s" at the start of the API
 *    call that submitted it (the innermost one: with the runtime level
 *    captured, the runtime call inside the ACL call, export_join.c), "f"
 *    with "bp":"e" at the task's start.  Chrome
 *    binds a flow end to the slice that encloses its timestamp, so both
 *    ends sit on the start of an X event.
 *
 * ts is a string of us with 3 decimals ("123.456") as msprof writes it,
 * so host ns survive exactly; dur is a number of us, chosen so that readers
 * which parse ts into a double see slices nest as they do
 * (export_tl_end_ns()).
 *
 * Events are formatted by hand into one output buffer (export_out.h),
 * byte for byte as jansson's compact dump of the same object printed them
 * (keys in the order they were added, dur with 15 significant digits);
 * only the outcome's args, one small object, still go through jansson.
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
#include "export_out.h"
#include "export_outcome.h"
#include "export_progress.h"
#include "export_timeline.h"
#include "export_tl_slice.h"

/* dur needs 3 decimals of up to ~1e9 us: 15 digits print it without noise. */
#define TL_REAL_PRECISION 15
#define TL_DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(TL_REAL_PRECISION))

/* One output file: the whole timeline, or one slice of it. */
struct tl_out {
	struct xout o;
	size_t events;
};

/*
 * @anchor: the time that picks the slice of the event being written
 * (export_tl_slice.h), TL_META for metadata, which goes to @meta_to;
 * @sk: when measuring, the sketch that gets each event's bytes.
 */
struct tl_writer {
	struct tl_out *outs;
	size_t n_outs;
	const int64_t *bounds; /* n_outs - 1 slice boundaries */
	int64_t anchor;
	size_t meta_to;
	struct export_tl_sketch *sk;
	struct export_progress *progress; /* events written, or NULL */
	int64_t last_anchor; /* the event being measured */
	uint64_t last_at;    /* where it began */
	int err;
};

#define TL_META INT64_MIN

/* Hand the bytes of the event measured last to the sketch. */
static void measure_last(struct tl_writer *w)
{
	uint64_t now = xout_bytes(&w->outs[0].o);
	int err = 0;

	if (w->last_anchor == TL_META)
		w->sk->meta_bytes += now - w->last_at;
	else
		err = export_tl_sketch_add(w->sk, w->last_anchor, now - w->last_at);
	if (err && !w->err)
		w->err = err;
	w->last_at = now;
}

/* Start an event: the array's "[" or the separator from the last one. */
static struct xout *ev_begin(struct tl_writer *w)
{
	struct tl_out *out = w->outs;

	if (w->progress)
		export_progress_add(w->progress);
	if (w->sk) {
		measure_last(w);
		w->last_anchor = w->anchor;
	}
	if (w->n_outs > 1)
		out += w->anchor == TL_META ? w->meta_to
					    : export_tl_slice_of(w->bounds, w->n_outs, w->anchor);
	if (out->events++)
		XOUT_LIT(&out->o, ",\n");
	else
		XOUT_LIT(&out->o, "[\n");
	return &out->o;
}

/* ,"<key>":<v> for keys that need no escaping (the literals below). */
#define KEY(o, k) XOUT_LIT(o, ",\"" k "\":")

/* A time as the string "<us>.<3 digits>". */
static void ts_str(struct xout *o, int64_t ns)
{
	xout_char(o, '"');
	xout_us(o, ns);
	xout_char(o, '"');
}

/* {"name":@name,"ph":"M","pid":@pid,"tid":@tid,"args":{ -- args follow. */
static struct xout *meta_begin(struct tl_writer *w, int64_t pid, int64_t tid, const char *name)
{
	struct xout *o = ev_begin(w);

	XOUT_LIT(o, "{\"name\":");
	xout_json_str(o, name);
	XOUT_LIT(o, ",\"ph\":\"M\"");
	KEY(o, "pid");
	xout_i64(o, pid);
	KEY(o, "tid");
	xout_i64(o, tid);
	KEY(o, "args");
	return o;
}

/* A metadata event whose args are {"@key":"@val"}. */
static void meta_str(struct tl_writer *w, int64_t pid, int64_t tid, const char *name,
		     const char *key, const char *val)
{
	struct xout *o = meta_begin(w, pid, tid, name);

	XOUT_LIT(o, "{");
	xout_json_str(o, key);
	xout_char(o, ':');
	xout_json_str(o, val);
	XOUT_LIT(o, "}}");
}

/* A metadata event whose args are {"sort_index":@idx}. */
static void meta_sort(struct tl_writer *w, int64_t pid, int64_t tid, const char *name,
		      int64_t idx)
{
	struct xout *o = meta_begin(w, pid, tid, name);

	XOUT_LIT(o, "{\"sort_index\":");
	xout_i64(o, idx);
	XOUT_LIT(o, "}}");
}

static void emit_process(struct tl_writer *w, int64_t pid, const char *name, const char *label,
			 int sort)
{
	meta_str(w, pid, 0, "process_name", "name", name);
	meta_str(w, pid, 0, "process_labels", "labels", label);
	meta_sort(w, pid, 0, "process_sort_index", sort);
}

/* @what: "Thread" or "Stream"; the row is named "<what> <tid>". */
static void emit_thread(struct tl_writer *w, int64_t pid, uint32_t tid, const char *what)
{
	char name[48];

	snprintf(name, sizeof(name), "%s %u", what, tid);
	meta_str(w, pid, tid, "thread_name", "name", name);
	meta_sort(w, pid, tid, "thread_sort_index", tid);
}

/*
 * Is task @t drawn in the timeline: with its real start and end, or cut by
 * the window and clamped to it (xm_task.cut)?  Flow ids count the linked
 * ones in the tasks' order, in emit_tasks() and emit_flows() alike.
 */
static bool shown(const struct xm_task *t)
{
	return t->drawn || t->cut;
}

/* "CANN" and a row per host thread that made a call. */
static int emit_host_meta(struct tl_writer *w, const struct export_model *m)
{
	int64_t pid = export_cann_pid(m->app_pid);
	const struct xm_call *c;
	struct xm_calls it;
	int r;

	emit_process(w, pid, "CANN", "CPU", EXPORT_CANN_SORT);
	r = xm_calls_begin(m, &it);
	while (!r && (r = xm_calls_next(&it, &c)) == 1) { /* sorted by (pid, tid) */
		r = 0;
		if (it.n == 1 || c->tid != it.prev.tid)
			emit_thread(w, pid, c->tid, "Thread");
	}
	return r;
}

/* "Ascend Hardware" per device, a row per stream that has a shown task. */
static int emit_device_meta(struct tl_writer *w, const struct export_model *m)
{
	uint32_t dev = 0, stream = 0;
	const struct xm_task *t;
	struct xm_tasks it;
	char label[32];
	int r, any = 0;

	for (size_t i = 0; i < m->n_devs; i++) {
		snprintf(label, sizeof(label), "NPU %u", m->devs[i].id);
		emit_process(w, export_hw_pid(m->app_pid, m->devs[i].id), "Ascend Hardware",
			     label, EXPORT_HW_SORT);
	}
	r = xm_tasks_begin(m, &it);
	while (!r && (r = xm_tasks_next(&it, &t)) == 1) { /* sorted by (device, stream) */
		r = 0;
		if (!shown(t))
			continue;
		if (!any || dev != t->device || stream != t->stream)
			emit_thread(w, export_hw_pid(m->app_pid, t->device), t->stream,
				    "Stream");
		any = 1;
		dev = t->device;
		stream = t->stream;
	}
	return r;
}

/* The double a reader gets from the "<us>.<3 digits>" text of @ns. */
static double parsed_us(int64_t ns)
{
	return export_us_value(ns);
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

/*
 * An X event up to its args: {"name":..,"ph":"X","pid":..,"tid":..,
 * "ts":"..","dur":..,"args":{ -- the args follow.
 */
static struct xout *x_begin(struct tl_writer *w, const char *name, int64_t pid, uint32_t tid,
			    int64_t ts_ns, int64_t dur_ns)
{
	struct xout *o = ev_begin(w);

	XOUT_LIT(o, "{\"name\":");
	xout_json_str(o, name);
	XOUT_LIT(o, ",\"ph\":\"X\"");
	KEY(o, "pid");
	xout_i64(o, pid);
	KEY(o, "tid");
	xout_u64(o, tid);
	KEY(o, "ts");
	ts_str(o, ts_ns);
	KEY(o, "dur");
	xout_json_real(o, (double)dur_ns / 1000.0, TL_REAL_PRECISION);
	XOUT_LIT(o, ",\"args\":{");
	return o;
}

static void call_args(struct xout *o, const struct export_model *m, const struct xm_call *c)
{
	char name[XM_TEXT_LEN];

	XOUT_LIT(o, "\"level\":");
	xout_json_str(o, xm_api_level(c->api));
	if (c->cut) { /* no return, so no return code */
		KEY(o, "cut");
		XOUT_LIT(o, "\"end\"");
	} else {
		KEY(o, "Return Code");
		xout_i64(o, c->ret);
	}
	KEY(o, "Thread Id");
	xout_u64(o, c->tid);
	if (c->device >= 0) {
		KEY(o, "Device Id");
		xout_i64(o, c->device);
	}
	if (c->stream) {
		KEY(o, "Stream");
		xout_char(o, '"');
		xout_hex(o, c->stream);
		xout_char(o, '"');
	}
	if (c->bytes) {
		KEY(o, "Bytes");
		xout_i64(o, (int64_t)c->bytes); /* a json_int_t, as jansson had it */
	}
	if (c->api == NPUPROF_API_RT_MEMCPY || c->api == NPUPROF_API_RT_MEMCPY_ASYNC ||
	    c->api == NPUPROF_API_RTS_MEMCPY || c->api == NPUPROF_API_RTS_MEMCPY_ASYNC) {
		KEY(o, "Memcpy Kind");
		xout_u64(o, c->kind);
	}
	if (c->name) {
		if (c->api == NPUPROF_API_OP_EXECUTE_V2)
			KEY(o, "Op Type");
		else
			KEY(o, "Kernel Name");
		xout_json_str(o, xm_call_name(m, c, name, sizeof(name)));
	}
	if (c->has_sync) {
		KEY(o, "Sync Wait(us)");
		ts_str(o, (int64_t)c->sync_wait_ns);
	}
}

/*
 * Calls of one thread nest (a call made inside another).  Calls come in
 * row order, outer call first, so a stack of the written ends of the calls
 * still open keeps every call inside its caller after export_tl_end_ns()
 * has moved ends.
 */
static int emit_calls(struct tl_writer *w, const struct export_model *m)
{
	int64_t pid = export_cann_pid(m->app_pid);
	int64_t *open = NULL;
	size_t depth = 0, cap = 0;
	const struct xm_call *c;
	struct xm_calls it;
	char buf[32];
	int r = xm_calls_begin(m, &it);

	while (!r && (r = xm_calls_next(&it, &c)) == 1) {
		int64_t entry = (int64_t)c->entry_ns, end = (int64_t)c->exit_ns;
		struct xout *o;

		r = 0;
		if (!xm_call_drawn(c))
			continue; /* cut at an unknown end: only counted */
		if (it.n > 1 && (c->pid != it.prev.pid || c->tid != it.prev.tid))
			depth = 0;
		while (depth && open[depth - 1] <= entry)
			depth--;
		if (depth && open[depth - 1] < end)
			end = open[depth - 1];
		end = export_tl_end_ns(entry, end);
		if (depth == cap) {
			int64_t *p = realloc(open, (cap = cap ? 2 * cap : 64) * sizeof(*open));

			if (!p) {
				r = -ENOMEM;
				break;
			}
			open = p;
		}
		open[depth++] = end;
		w->anchor = entry;
		o = x_begin(w, xm_api_name(c, buf, sizeof(buf)), pid, c->tid, entry, end - entry);
		call_args(o, m, c);
		XOUT_LIT(o, "},\"cat\":");
		xout_json_str(o, xm_api_level(c->api));
		xout_char(o, '}');
	}
	free(open);
	return r;
}

/*
 * @flow_id: the task's HostToDevice flow id, 0 for none (emit_tasks()).
 * A task cut by the window has only the device count of the end it has,
 * and "cut": "start" or "end" says which end is the window's edge.
 */
static void task_args(struct xout *o, const struct xm_task *t, uint64_t flow_id)
{
	char type[32];

	XOUT_LIT(o, "\"Task Type\":");
	xout_json_str(o, xm_task_type(t, type, sizeof(type)));
	KEY(o, "Stream Id");
	xout_u64(o, t->stream);
	KEY(o, "Task Id");
	xout_u64(o, t->task_id);
	if (t->have & XM_HAVE_START) {
		KEY(o, "Device Start(count)");
		xout_i64(o, (int64_t)t->start_dev); /* json_int_t, as jansson had them */
	}
	if (t->have & XM_HAVE_END) {
		KEY(o, "Device End(count)");
		xout_i64(o, (int64_t)t->end_dev);
	}
	if (t->have & XM_HAVE_SUBMIT) {
		KEY(o, "Submit Time(us)");
		ts_str(o, (int64_t)t->submit_ns);
	}
	if (t->type == NPUPROF_TT_MEMCPY) {
		KEY(o, "Bytes");
		xout_i64(o, (int64_t)t->arg);
	}
	if (flow_id) {
		KEY(o, "connection_id");
		xout_i64(o, (int64_t)flow_id);
	}
	if (t->cut) {
		KEY(o, "cut");
		if (t->cut == XM_CUT_START)
			XOUT_LIT(o, "\"start\"");
		else
			XOUT_LIT(o, "\"end\"");
	}
}

static int emit_tasks(struct tl_writer *w, const struct export_model *m)
{
	char buf[XM_TEXT_LEN];
	const struct xm_task *t;
	struct xm_tasks it;
	uint64_t flow = 0;
	int r = xm_tasks_begin(m, &it);

	while (!r && (r = xm_tasks_next(&it, &t)) == 1) {
		struct xout *o;

		r = 0;
		if (!shown(t))
			continue; /* no invented times: cut by a window edge not known */
		flow += t->linked; /* flow ids: shown linked tasks, in the tasks' order */
		w->anchor = t->linked ? (int64_t)t->call_entry_ns : t->start_ns;
		/* tasks of one stream run one after another: none encloses another */
		o = x_begin(w, xm_task_name(m, t, buf, sizeof(buf)),
			    export_hw_pid(m->app_pid, t->device), t->stream, t->start_ns,
			    export_tl_end_ns(t->start_ns, t->end_ns) - t->start_ns);
		task_args(o, t, t->linked ? flow : 0);
		XOUT_LIT(o, "}}");
	}
	return r;
}

/* One end of a HostToDevice flow: @ph "s" or "f". */
static void flow_event(struct tl_writer *w, char ph, uint64_t id, int64_t pid, uint32_t tid,
		       int64_t ts_ns)
{
	struct xout *o = ev_begin(w);

	XOUT_LIT(o, "{\"name\":\"HostToDevice\",\"ph\":\"");
	xout_char(o, ph);
	XOUT_LIT(o, "\",\"cat\":\"HostToDevice\"");
	KEY(o, "id");
	xout_i64(o, (int64_t)id);
	KEY(o, "pid");
	xout_i64(o, pid);
	KEY(o, "tid");
	xout_u64(o, tid);
	KEY(o, "ts");
	ts_str(o, ts_ns);
	if (ph == 'f')
		XOUT_LIT(o, ",\"bp\":\"e\"");
	xout_char(o, '}');
}

static int emit_flows(struct tl_writer *w, const struct export_model *m)
{
	int64_t host = export_cann_pid(m->app_pid);
	const struct xm_task *t;
	struct xm_tasks it;
	uint64_t flow = 0;
	int r = xm_tasks_begin(m, &it);

	while (!r && (r = xm_tasks_next(&it, &t)) == 1) {
		r = 0;
		if (!t->linked || !shown(t))
			continue;
		flow++; /* as emit_tasks() counts them */
		w->anchor = (int64_t)t->call_entry_ns; /* with its call and task */
		flow_event(w, 's', flow, host, t->call_tid, (int64_t)t->call_entry_ns);
		flow_event(w, 'f', flow, export_hw_pid(m->app_pid, t->device), t->stream,
			   t->start_ns);
	}
	return r;
}

/*
 * The capture's outcome as a metadata event of the host process, named
 * "npuprof_capture": trace viewers skip metadata names they do not know,
 * so CANN's tools read the file as before, and a script finds whether the
 * data is complete, why not, and the records lost (export_outcome.h).
 * One small object: jansson dumps its args.
 */
static int emit_outcome(struct tl_writer *w, const struct export_model *m)
{
	json_t *args = export_outcome_json(m);
	char *text = args ? json_dumps(args, TL_DUMP_FLAGS) : NULL;
	struct xout *o;

	json_decref(args);
	if (!text)
		return -ENOMEM;
	o = meta_begin(w, export_cann_pid(m->app_pid), 0, "npuprof_capture");
	xout_str(o, text);
	xout_char(o, '}');
	free(text);
	return 0;
}

/*
 * Every metadata event of the trace: the processes (names, labels, sort
 * indexes) and their rows, as CANN emits them, and the capture's outcome.
 * A file cut into slices that must each read alone calls it once per
 * slice: it writes the same events each time.
 */
static int emit_metadata(struct tl_writer *w, const struct export_model *m)
{
	int err;

	w->anchor = TL_META;
	err = emit_host_meta(w, m);

	if (!err)
		err = emit_outcome(w, m);
	if (!err)
		err = emit_device_meta(w, m);
	return err;
}

/* Every event to @w's outputs, the metadata to each; closes them. */
static int write_all(struct tl_writer *w, const struct export_model *m)
{
	int err = 0, e;

	for (w->meta_to = 0; !err && w->meta_to < w->n_outs; w->meta_to++)
		err = emit_metadata(w, m);
	if (!err)
		err = emit_calls(w, m);
	if (!err)
		err = emit_tasks(w, m);
	if (!err)
		err = emit_flows(w, m);
	if (!err && w->sk) {
		measure_last(w);
		err = w->err;
	}
	for (size_t i = 0; i < w->n_outs; i++) {
		struct tl_out *out = &w->outs[i];

		if (!err && out->events)
			XOUT_LIT(&out->o, "\n]\n");
		else if (!err)
			XOUT_LIT(&out->o, "[]\n");
		e = xout_close(&out->o);
		if (!err)
			err = e;
	}
	return err;
}

int export_write_timeline_measured(const struct export_model *m, FILE *f,
				   struct export_tl_sketch *sk)
{
	struct tl_out out = { .events = 0 };
	struct tl_writer w = { .outs = &out, .n_outs = 1, .sk = sk, .last_anchor = TL_META,
			       .progress = m->progress };
	int err = xout_open(&out.o, f);

	return err ? err : write_all(&w, m);
}

int export_write_timeline(const struct export_model *m, FILE *f)
{
	return export_write_timeline_measured(m, f, NULL);
}

int export_write_timeline_sliced(const struct export_model *m, FILE *const *files,
				 const int64_t *bounds, size_t n)
{
	struct tl_out *outs = calloc(n, sizeof(*outs));
	struct tl_writer w = { .outs = outs, .n_outs = n, .bounds = bounds,
			       .progress = m->progress };
	size_t i;
	int err = outs ? 0 : -ENOMEM;

	for (i = 0; !err && i < n; i++)
		err = xout_open(&outs[i].o, files[i]);
	if (err) {
		while (i--)
			xout_close(&outs[i].o);
		free(outs);
		return err;
	}
	err = write_all(&w, m);
	free(outs);
	return err;
}

uint64_t export_tl_events(const struct export_model *m)
{
	return m->n_calls + m->n_drawn + m->n_cut + 2 * (uint64_t)m->n_linked;
}
