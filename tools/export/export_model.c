// SPDX-License-Identifier: MIT
/*
 * Loading one PROF_XXX directory for the export (export_model.h): reads
 * the host API series and every device's task series through the slice
 * reader, keeps a compact copy of each record, reads info.json for the
 * process identity, clock samples and ring counters, then hands over to
 * export_model_join() (export_join.c).
 *
 * Records are copied field by field into the model's own structs, so a
 * newer writer's longer records (hdr.size larger than we know) load fine
 * and a short, damaged record is counted and skipped rather than read past.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/msg.h>
#include <npuprof/prof_control.h>
#include <npuprof/prof_layout.h>
#include <npuprof/slice.h>

#include "export_file.h"
#include "export_model.h"
#include "export_progress.h"
#include "export_outcome.h"
#include "export_sort.h"

/* Make room for @need elements in *@arr (capacity *@cap). Return 0 or -ENOMEM. */
static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 256;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

static int add_call(struct export_model *m, const struct npuprof_rec_api *r)
{
	struct xm_call call, *c = &call;
	int err;

	memset(c, 0, sizeof(*c));
	c->entry_ns = xm_time_u(r->hdr.ts);
	c->exit_ns = r->exit_ts >= r->hdr.ts ? xm_time_u(r->exit_ts) : c->entry_ns;
	if (r->flags & NPUPROF_API_CUT_END) {
		/* the window's end is read after the records: xm_calls_next() */
		c->cut = XM_CUT_END;
		c->exit_ns = (uint64_t)XM_TIME_MAX; /* outer call first among equal entries */
		m->n_calls_cut++;
	}
	c->stream = r->stream;
	c->bytes = r->bytes;
	c->handle = r->handle;
	c->pid = r->pid;
	c->tid = r->tid;
	c->ret = r->ret;
	c->device = r->device;
	c->kind = r->kind;
	c->api = r->api;
	err = xm_names_add(&m->names, r->name, &c->name);
	return err ? err : export_model_add_call(m, c);
}

size_t xm_sort_mem = XM_SORT_MEM;

int xm_sorter_open(size_t rec_size, int (*cmp)(const void *, const void *), int dir_fd,
		   struct xsort **out)
{
	struct xsort_cfg cfg = {
		.rec_size = rec_size,
		.cmp = cmp,
		.mem_bytes = xm_sort_mem,
		.dir_fd = dir_fd,
	};

	return xsort_open(&cfg, out);
}

/* The calls' sorter: the writers read the calls in its order, one pass
 * each (xm_calls_next()). */
/* Note the kernel name of the function handle call @c got, if it got one. */
static int add_func(struct export_model *m, const struct xm_call *c)
{
	if (c->api != NPUPROF_API_RT_BINARY_GET_FUNCTION || c->ret || c->cut || !c->handle ||
	    !c->name)
		return 0;
	if (grow((void **)&m->funcs, &m->cap_funcs, m->n_funcs + 1, sizeof(*m->funcs)))
		return -ENOMEM;
	m->funcs[m->n_funcs++] = (struct xm_func){ c->pid, c->name, c->handle };
	return 0;
}

int export_model_add_call(struct export_model *m, const struct xm_call *c)
{
	int err = add_func(m, c);

	if (err)
		return err;

	if (!m->call_recs &&
	    (err = xm_sorter_open(sizeof(*c), xm_call_cmp, m->tmp_fd, &m->call_recs)))
		return err;
	if (!m->n_calls)
		m->first_call_pid = c->pid;
	err = xsort_add(m->call_recs, c);
	m->n_calls += !err;
	return err;
}

/* Read the join's next STREAM_SYNC wait into it->sync.  Return: 0 or -errno. */
static int sync_step(struct xm_calls *it)
{
	const void *rec;
	int r = xsort_next(it->m->sync_waits, &rec);

	it->sync_more = r == 1;
	if (r == 1)
		memcpy(&it->sync, rec, sizeof(it->sync));
	return r < 0 ? r : 0;
}

int xm_calls_begin(const struct export_model *m, struct xm_calls *it)
{
	int r;

	memset(it, 0, sizeof(*it));
	it->m = m;
	r = m->call_recs ? xsort_rewind(m->call_recs) : 0;
	if (!r && m->sync_waits && !(r = xsort_rewind(m->sync_waits)))
		r = sync_step(it);
	return r;
}

/* The waits of call it->n summed into it->cur.  Return: 0 or -errno. */
static int join_syncs(struct xm_calls *it)
{
	int r = 0;

	while (!r && it->sync_more && it->sync.call < it->n)
		r = sync_step(it);
	while (!r && it->sync_more && it->sync.call == it->n) {
		it->cur.sync_wait_ns = (uint64_t)xm_add_ns((int64_t)it->cur.sync_wait_ns,
							   (int64_t)it->sync.wait_ns);
		it->cur.has_sync = 1;
		r = sync_step(it);
	}
	return r;
}

int xm_calls_next(struct xm_calls *it, const struct xm_call **c)
{
	const struct export_model *m = it->m;
	const void *rec;
	int r = m->call_recs ? xsort_next(m->call_recs, &rec) : 0;

	if (r != 1)
		return r;
	it->prev = it->cur;
	memcpy(&it->cur, rec, sizeof(it->cur));
	/* both in [-XM_TIME_MAX, XM_TIME_MAX]: the sum cannot overflow */
	it->cur.entry_ns = (uint64_t)xm_time((int64_t)it->cur.entry_ns + m->wall_offset_ns);
	it->cur.exit_ns = (uint64_t)xm_time((int64_t)it->cur.exit_ns + m->wall_offset_ns);
	if (it->cur.cut) {
		int64_t edge = m->capture_off_ns ? m->capture_off_ns : m->window_end_ns;

		if (edge && (uint64_t)edge >= it->cur.entry_ns) {
			it->cur.exit_ns = (uint64_t)edge;
		} else {
			it->cur.exit_ns = (uint64_t)XM_TIME_MAX;
			it->cur.cut |= XM_CUT_NO_EDGE;
		}
	}
	r = join_syncs(it);
	if (r)
		return r;
	it->n++;
	*c = &it->cur;
	return 1;
}

/*
 * One task record becomes one provisional task in the sorter, which gives
 * a task's records back side by side for the join to fold (export_join.c).
 */
static int add_task_event(struct export_model *m, const struct npuprof_rec_task *r)
{
	struct xm_task task, *t = &task;
	int err;

	memset(t, 0, sizeof(*t));
	t->pid = r->pid;
	t->tid = r->tid;
	t->device = r->device;
	t->stream = r->stream;
	t->task_id = r->task_id;
	t->type = r->task_type;
	t->arg = r->arg;
	err = xm_names_add(&m->names, r->name, &t->name);
	if (err)
		return err;
	switch (r->event) {
	case NPUPROF_TASK_SUBMIT:
		t->have = XM_HAVE_SUBMIT;
		t->submit_ns = xm_time_u(r->hdr.ts);
		break;
	case NPUPROF_TASK_START:
		t->have = XM_HAVE_START;
		t->start_dev = r->dev_ts;
		t->start_tp_ns = xm_time_u(r->hdr.ts);
		break;
	case NPUPROF_TASK_END:
		t->have = XM_HAVE_END;
		t->end_dev = r->dev_ts;
		t->end_tp_ns = xm_time_u(r->hdr.ts);
		break;
	case NPUPROF_TASK_QUEUED: /* the host driver's view: counted, not folded */
		m->n_queued++;
		return 0;
	case NPUPROF_TASK_CQE:
		m->n_cqe++;
		return 0;
	default:
		m->unknown_events++; /* an event this reader does not know: skip */
		return 0;
	}
	return export_model_add_task(m, t);
}

static int add_sync(struct export_model *m, const struct npuprof_rec_task *r)
{
	struct xm_sync s = {
		.ts_ns = xm_time_u(r->hdr.ts),
		.wait_ns = xm_time_u(r->arg),
		.pid = r->pid,
		.tid = r->tid,
	};

	return export_model_add_sync(m, &s);
}

/* LOST counters are cumulative: keep the largest per (source, cpu). */
static int add_ring(struct export_model *m, const struct npuprof_rec_lost *r)
{
	struct xm_ring *g;
	size_t i;

	for (i = 0; i < m->n_rings; i++) {
		g = &m->rings[i];
		if (g->source == r->source && g->cpu == r->cpu) {
			if (r->written > g->written)
				g->written = r->written;
			if (r->lost > g->lost)
				g->lost = r->lost;
			return 0;
		}
	}
	if (grow((void **)&m->rings, &m->cap_rings, m->n_rings + 1, sizeof(*g)))
		return -ENOMEM;
	g = &m->rings[m->n_rings++];
	g->source = r->source;
	g->cpu = r->cpu;
	g->written = r->written;
	g->lost = r->lost;
	return 0;
}

static int on_record(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct export_model *m = ctx;

	if (m->progress)
		export_progress_add(m->progress);

	switch (rec->type) {
	case NPUPROF_REC_API:
		if (rec->size < sizeof(struct npuprof_rec_api))
			break;
		return add_call(m, (const void *)rec);
	case NPUPROF_REC_TASK: {
		const struct npuprof_rec_task *t = (const void *)rec;

		if (rec->size < sizeof(*t))
			break;
		if (t->event == NPUPROF_TASK_STREAM_SYNC)
			return add_sync(m, t);
		return add_task_event(m, t);
	}
	case NPUPROF_REC_LOST:
		if (rec->size < sizeof(struct npuprof_rec_lost))
			break;
		return add_ring(m, (const void *)rec);
	default:
		return 0; /* stream header, pad, or a type from a newer writer */
	}
	m->bad_records++;
	return 0;
}

/*
 * Keep @rep of <@dir>/<@series> (@device's tasks, -1: the host's) for
 * export_outcome_reasons() and the join.
 */
static int note_series(struct export_model *m, const char *dir, const char *series,
		       int64_t device, const struct npuprof_read_report *rep)
{
	size_t len = strlen(m->dir);
	struct xm_series *x = realloc(m->series, (m->n_series + 1) * sizeof(*x));

	if (!x)
		return -ENOMEM;
	m->series = x;
	x = &m->series[m->n_series++];
	if (!strncmp(dir, m->dir, len) && dir[len] == '/')
		dir += len + 1; /* relative to the PROF dir, as people name it */
	snprintf(x->path, sizeof(x->path), "%s/%s", dir, series);
	x->device = device;
	x->rep = *rep;
	return 0;
}

/*
 * Read one series (@device's tasks, -1: the host's).  No slice at all is
 * fine (that kind of data was not collected); a damaged tail keeps what
 * came before it, with a warning.
 */
static int read_series(struct export_model *m, const char *dir, const char *series,
		       int64_t device)
{
	struct npuprof_read_report rep = { 0 };
	int err = npuprof_slice_read_series(dir, series, on_record, m, &rep);
	char text[EXPORT_PATH_TEXT_LEN];

	if (err == -ENOENT)
		return 0;
	if ((!err || err == -EBADMSG) && note_series(m, dir, series, device, &rep))
		return -ENOMEM;
	export_path_text(dir, text, sizeof(text));
	if (err == -EBADMSG) {
		npuprof_warn("%s/%s.slice_*: a zstd frame is corrupt; exported the records before it",
			     text, series);
		err = 0;
	}
	if (err == -ELOOP || err == -EINVAL) {
		npuprof_err("reading %s/%s.slice_*: a slice is a symlink, FIFO or device, not a regular file: refused to read it",
			    text, series);
		return err;
	}
	if (err) {
		npuprof_err("reading %s/%s.slice_*: %s", text, series, strerror(-err));
		return err;
	}
	if (rep.truncated_bytes) {
		npuprof_warn("%s/%s.slice_*: the last slice ends with %llu bytes that do not form a whole record (copy cut short, or the collector stopped abruptly); exported the complete records before them",
			     text, series, (unsigned long long)rep.truncated_bytes);
		m->truncated_bytes += rep.truncated_bytes;
	}
	if (rep.cut_record_bytes) {
		npuprof_warn("%s/%s.slice_*: the whole frames of a slice end inside a record (%llu bytes of it; its rest was never written); exported the complete records before it",
			     text, series, (unsigned long long)rep.cut_record_bytes);
		m->cut_record_bytes += rep.cut_record_bytes;
	}
	if (rep.bad_version)
		npuprof_warn("%s/%s.slice_*: written by a newer npuprof (record version > %d); record types this msprof does not know were skipped",
			     text, series, NPUPROF_RECORD_VERSION);
	return 0;
}

/* Each device's series, in ascending device id order. */
static int read_devices(struct export_model *m)
{
	char data[PATH_MAX], rel[NPUPROF_PROF_SERIES_SIZE], series[NPUPROF_PROF_SERIES_SIZE];
	uint32_t *ids;
	int n = npuprof_prof_devices(m->dir, &ids), err = 0;

	for (int i = 0; !err && i < n; i++) {
		err = npuprof_series_dir(rel, sizeof(rel), ids[i]);
		err = err ? err : npuprof_series_name(series, sizeof(series), ids[i]);
		if (!err && snprintf(data, sizeof(data), "%s/%s", m->dir, rel) >= (int)sizeof(data))
			err = -ENAMETOOLONG;
		if (!err)
			err = read_series(m, data, series, ids[i]);
	}
	free(ids);
	return n < 0 ? n : err;
}

/* info.json's clock pairs, into m->samples. */
static int take_samples(struct export_model *m, const struct npuprof_ctrl_info_parsed *info)
{
	struct xm_sample *x;

	if (!info->nr_samples)
		return 0;
	x = calloc(info->nr_samples, sizeof(*x));
	if (!x)
		return -ENOMEM;
	for (size_t i = 0; i < info->nr_samples; i++) {
		x[i].device = info->samples[i].device;
		x[i].pair.host_ns = info->samples[i].host_ns;
		x[i].pair.dev_ts = info->samples[i].dev;
	}
	m->samples = x;
	m->n_samples = info->nr_samples;
	return 0;
}

/*
 * info.json (npuprof/prof_control.h) is optional (a copy may lack it;
 * CANN keeps it at the top, we write it under host/): every key is used
 * only when present.  Captured from inside a container, "pid" is the
 * app's own and the records hold the host's numbers: the reader gives the
 * process as its records number it, so pids and thread ids agree.  Its
 * "lost", written since records were counted lost by cause, replaces the
 * ring counters' ring-full count.
 */
static int read_info(struct export_model *m)
{
	struct npuprof_ctrl_info_parsed info;
	int err = npuprof_ctrl_info_read_prof(m->dir, &info);

	if (err)
		return err == -ENOMEM ? err : 0;
	m->app_pid = info.pid;
	snprintf(m->hostname, sizeof(m->hostname), "%s", info.hostname);
	snprintf(m->pid_name, sizeof(m->pid_name), "%s", info.pid_name);
	m->rank = info.rank;
	if (!m->n_rings)
		m->loss.n[NPUPROF_LOSS_RING_FULL] = info.ring_lost;
	m->write_error = info.write_error;
	m->aged.slices = info.aged_slices;
	m->aged.bytes = info.aged_bytes;
	m->aged.records = info.aged_records;
	m->driver_clock = info.driver_clock;
	m->timing = info.timing;
	m->n_timing = info.nr_timing;
	info.timing = NULL;
	if (info.has_loss) { /* else an older writer: the ring counters stand */
		m->loss = info.loss;
		m->cpu_loss = info.cpu_loss;
		m->n_cpu_loss = info.nr_cpu_loss;
		info.cpu_loss = NULL;
	}
	err = take_samples(m, &info);
	npuprof_ctrl_info_free(&info);
	return err;
}

/* Ring full from the LOST records (info.json "lost" replaces it later). */
static void sum_lost(struct export_model *m)
{
	size_t i;

	for (i = 0; i < m->n_rings; i++)
		m->loss.n[NPUPROF_LOSS_RING_FULL] += m->rings[i].lost;
}

/* Wall-clock ns minus @mono_ns, or 0 when @real_us is not a sane us count. */
static int64_t wall_offset(int64_t real_us, int64_t mono_ns)
{
	int64_t ns, offset;

	if (real_us <= 0 || __builtin_mul_overflow(real_us, 1000, &ns) ||
	    __builtin_sub_overflow(ns, mono_ns, &offset) || offset > XM_TIME_MAX ||
	    offset < -XM_TIME_MAX)
		return 0; /* not a wall clock: the times stay monotonic */
	return offset;
}

/*
 * Offset from the capture clock (CLOCK_MONOTONIC) to the wall clock, from
 * start_info, which reads both at the same instant: msprof's timelines
 * and CSVs are in wall-clock us, which lines them up with other tools'
 * traces of the same run.  0 (times stay monotonic) without start_info.
 */
static int64_t read_wall_offset(struct export_model *m)
{
	struct npuprof_ctrl_edge_info e;
	int64_t offset = 0;

	if (npuprof_ctrl_edge_read_prof(m->dir, 1, &e)) /* a refused file: export_outcome.c */
		return 0;
	if (e.has_mono && e.has_time)
		offset = wall_offset(e.time_us, e.mono_ns);
	if (e.has_mono) /* shifted with every other time below */
		m->window_start_ns = xm_time(e.mono_ns);
	return offset;
}

/*
 * The window's end: end_info's clockMonotonic (every event up to it is in
 * the data), on the capture clock, into m->window_end_ns; and when the
 * producers were off, end_info's clockMonotonicDisabled (read after the
 * stop), into m->capture_off_ns.  Each 0 when unknown (no end_info:
 * msprof killed; no clockMonotonicDisabled: an older capture).
 */
static void read_window_end(struct export_model *m)
{
	struct npuprof_ctrl_edge_info e;

	npuprof_ctrl_edge_read_prof(m->dir, 0, &e); /* all unknown when it fails */
	m->window_end_ns = e.has_mono ? xm_time(e.mono_ns) : 0;
	m->capture_off_ns = e.has_outer ? xm_time(e.outer_ns) : 0;
}

/* Every record of the host series and each device's, into the sorters. */
static int read_records(struct export_model *m)
{
	char host[PATH_MAX];
	int err;

	if (snprintf(host, sizeof(host), "%s/" NPUPROF_PROF_HOST_DATA, m->dir) >= (int)sizeof(host))
		return -ENAMETOOLONG;
	err = read_series(m, host, NPUPROF_PROF_API_SERIES, -1);
	if (!err)
		err = read_devices(m);
	return err;
}

void export_model_init(struct export_model *m, int tmp_fd)
{
	memset(m, 0, sizeof(*m));
	m->rank = -1;
	m->tmp_fd = tmp_fd;
}

int export_model_load(const char *prof_dir, struct export_model *m)
{
	return export_model_load_progress(prof_dir, m, NULL);
}

int export_model_load_progress(const char *prof_dir, struct export_model *m,
			       struct export_progress *p)
{
	int64_t offset;
	int err, fd;

	/* the sorters spill below the PROF dir, which the export writes below anyway */
	fd = open(prof_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	export_model_init(m, fd < 0 ? AT_FDCWD : fd);
	m->progress = p;
	if (fd < 0)
		return -errno;
	m->dir = strdup(prof_dir);
	if (!m->dir)
		return -ENOMEM;
	err = read_records(m);
	if (err)
		return err;
	sum_lost(m);
	err = read_info(m);
	if (err)
		return err;
	if (!m->n_calls && !m->task_recs) { /* the join counts the tasks: none if no record */
		err = export_outcome_reasons(m); /* a capture cut before its first flush says why */
		return err ? err : -ENODATA;
	}
	m->lost = npuprof_loss_total(&m->loss);
	offset = read_wall_offset(m);
	read_window_end(m);
	/* both in [-XM_TIME_MAX, XM_TIME_MAX]: the sum cannot overflow */
	if (m->window_start_ns)
		m->window_start_ns = xm_time(m->window_start_ns + offset);
	if (m->window_end_ns)
		m->window_end_ns = xm_time(m->window_end_ns + offset);
	if (m->capture_off_ns)
		m->capture_off_ns = xm_time(m->capture_off_ns + offset);
	/* the join moves the tasks' times, xm_calls_next() the calls' */
	m->wall_offset_ns = offset;
	err = export_model_join(m);
	if (err)
		return err;
	if (!m->app_pid) /* the join found the first task */
		m->app_pid = m->n_calls ? m->first_call_pid : m->first_task_pid;
	return export_outcome_reasons(m);
}

void export_model_free(struct export_model *m)
{
	free(m->dir);
	xm_names_free(&m->names);
	xsort_close(m->call_recs);
	xsort_close(m->sync_waits);
	xsort_close(m->task_recs);
	xsort_close(m->probes);
	xsort_close(m->task_store);
	xsort_close(m->by_start);
	free(m->devs);
	free(m->funcs);
	free(m->rings);
	free(m->samples);
	free(m->timing);
	free(m->cpu_loss);
	free(m->series);
	if (m->tmp_fd >= 0)
		close(m->tmp_fd);
	for (size_t i = 0; i < m->n_reasons; i++)
		free(m->reasons[i]);
	free(m->reasons);
	export_model_init(m, AT_FDCWD);
}

int xm_tasks_begin(const struct export_model *m, struct xm_tasks *it)
{
	it->m = m;
	it->n = 0;
	return m->task_store ? xsort_rewind(m->task_store) : 0;
}

int xm_tasks_next(struct xm_tasks *it, const struct xm_task **t)
{
	const void *rec;
	int r = it->m->task_store ? xsort_next(it->m->task_store, &rec) : 0;

	if (r == 1) {
		*t = rec;
		it->n++;
	}
	return r;
}
