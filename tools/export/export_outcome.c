// SPDX-License-Identifier: MIT
/*
 * Why a PROF_XXX directory's data is incomplete (export_outcome.h).  The
 * reasons are built once, after the model is loaded, in a fixed order:
 * control files, slices (as they were read), records lost, a failed
 * write, devices without task begin/end times, device clocks.  Each is
 * one sentence that names the file, byte, device or count concerned, as
 * text: a path's bytes go through the name rule (npuprof/name_text.h), so
 * a reason is always valid UTF-8 for the JSON metadata and safe on a
 * terminal.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <npuprof/loss_json.h>
#include <npuprof/prof_control.h>
#include <npuprof/prof_layout.h>

#include "export_file.h"
#include "export_csv.h"
#include "export_outcome.h"

/* Add one reason, printf style, as text.  Return: 0 or -ENOMEM. */
static int __attribute__((format(printf, 2, 3))) add_reason(struct export_model *m,
							     const char *fmt, ...)
{
	char **r = realloc(m->reasons, (m->n_reasons + 1) * sizeof(*r));
	char *raw, *text;
	va_list ap;
	size_t size;
	int n;

	if (!r)
		return -ENOMEM;
	m->reasons = r;
	va_start(ap, fmt);
	n = vasprintf(&raw, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	size = NPUPROF_NAME_TEXT_SIZE((size_t)n);
	text = malloc(size);
	if (text)
		npuprof_name_text(text, size, raw, (size_t)n);
	free(raw);
	if (!text)
		return -ENOMEM;
	r[m->n_reasons++] = text;
	return 0;
}

/*
 * A control file: where CANN keeps it (top), where we write it (host/).
 * FILE_REFUSED: something other than a regular file is at one of the two
 * names (a symlink, a FIFO, a device) and was not read.
 */
enum file_state { FILE_MISSING, FILE_REFUSED, FILE_DAMAGED, FILE_OK };

/*
 * The control file @host_rel (NPUPROF_PROF_*) in either of its places
 * (npuprof_ctrl_place()).  @refused: the name refused ("host/info.json"),
 * @err: why (-ELOOP...).
 */
static enum file_state control_file(const struct export_model *m, const char *host_rel,
				    char *refused, size_t size, int *err)
{
	enum file_state state = FILE_MISSING;
	char path[PATH_MAX];
	const char *rel;
	json_t *doc;
	int e;

	for (unsigned int i = 0; (rel = npuprof_ctrl_place(host_rel, i)); i++) {
		snprintf(path, sizeof(path), "%s/%s", m->dir, rel);
		doc = export_load_json(path, &e);
		json_decref(doc);
		if (!e)
			return FILE_OK;
		if (e == -EBADMSG) {
			state = FILE_DAMAGED;
		} else if (e != -ENOENT && state == FILE_MISSING) {
			state = FILE_REFUSED;
			snprintf(refused, size, "%s", rel);
			*err = e;
		}
	}
	return state;
}

static int control_reasons(struct export_model *m)
{
	static const struct {
		const char *host_rel; /* its path below host/ */
		const char *missing;  /* what its absence means */
	} files[] = {
		{ NPUPROF_PROF_END_INFO, "collector stopped abruptly (or could not write it): no end_info" },
		{ NPUPROF_PROF_START_INFO, "no start_info: the window start is unknown, times stay on the monotonic clock" },
		{ NPUPROF_PROF_INFO_JSON, "no info.json: the records lost and the device clock samples are unknown" },
		{ NPUPROF_PROF_SAMPLE_JSON, "no sample.json: the capture parameters are unknown" },
	};
	char refused[64];
	int err = 0, why = 0;

	for (size_t i = 0; !err && i < sizeof(files) / sizeof(files[0]); i++) {
		switch (control_file(m, files[i].host_rel, refused, sizeof(refused), &why)) {
		case FILE_MISSING:
			err = add_reason(m, "%s", files[i].missing);
			break;
		case FILE_REFUSED:
			err = add_reason(m, "%s is %s, not a regular file: not read (%s)", refused,
					 why == -ELOOP ? "a symlink" : "a FIFO, device or directory",
					 files[i].missing);
			break;
		case FILE_DAMAGED:
			err = add_reason(m, "%s is damaged (not valid JSON): it was cut short",
					 npuprof_ctrl_place(files[i].host_rel, 1)); /* its name */
			break;
		case FILE_OK:
			break;
		}
	}
	return err;
}

/* What reading series @x found, one reason per kind. */
static int series_reasons(struct export_model *m, const struct xm_series *x)
{
	const struct npuprof_read_report *r = &x->rep;
	int err = 0;

	if (r->not_done == 1)
		err = add_reason(m, "slice %s.slice_%u has no .done file: it was never closed", x->path,
				 r->first_not_done);
	else if (r->not_done)
		err = add_reason(m, "%llu slices of %s have no .done file, from %s.slice_%u on: they were never closed",
				 (unsigned long long)r->not_done, x->path, x->path, r->first_not_done);
	if (!err && r->missing == 1)
		err = add_reason(m, "slice %s.slice_%u is missing: its records are not exported; the slices after it are",
				 x->path, r->first_missing);
	else if (!err && r->missing)
		err = add_reason(m, "%llu slices of %s are missing, the first %s.slice_%u: their records are not exported; the slices after each gap are",
				 (unsigned long long)r->missing, x->path, x->path, r->first_missing);
	if (!err && r->done_mismatch)
		err = add_reason(m, "slice %s.slice_%u: its .done says %llu bytes, the file has %llu: a cut copy",
				 x->path, r->mismatch_slice, (unsigned long long)r->mismatch_done,
				 (unsigned long long)r->mismatch_size);
	if (!err && r->cut)
		err = add_reason(m, "last slice %s.slice_%u cut at byte %llu: the %llu bytes after its last whole zstd frame are not exported",
				 x->path, r->cut_slice, (unsigned long long)r->cut_at,
				 (unsigned long long)(r->cut_size - r->cut_at));
	if (!err && r->corrupt)
		err = add_reason(m, "slice %s.slice_%u: corrupt zstd frame at byte %llu: no record from there on is exported",
				 x->path, r->corrupt_slice, (unsigned long long)r->corrupt_at);
	/* a record cut short by a cut slice is the cut's, said above */
	if (!err && !r->cut && r->cut_record_bytes)
		err = add_reason(m, "%s: %llu bytes do not form a whole record and are not exported",
				 x->path, (unsigned long long)r->cut_record_bytes);
	return err;
}

/*
 * Devices whose times could not be fitted at all, or whose driver's clock
 * samples, due by info.json, are missing.
 */
static int clock_reasons(struct export_model *m)
{
	int err = 0;

	for (size_t i = 0; !err && i < m->n_devs; i++) {
		const struct xm_device *d = &m->devs[i];

		if (d->clock == XM_CLOCK_TRACEPOINT)
			err = add_reason(m, "device %u: no clock samples and too few task records for a fit, so device times are the tracepoints' host times",
					 d->id);
		else if (d->clock == XM_CLOCK_RECORDS && m->driver_clock)
			err = add_reason(m, "device %u: no clock samples although its driver has a clock read (info.json driver.clock), so device times are placed by a fit over task records instead",
					 d->id);
	}
	return err;
}

/* Does @m hold task records of device @id? */
static bool has_device(const struct export_model *m, uint32_t id)
{
	for (size_t i = 0; i < m->n_devs; i++)
		if (m->devs[i].id == id)
			return true;
	return false;
}

/*
 * Devices whose task begin and end were not captured (info.json
 * "taskTiming"): a device log another process held, the container
 * boundary, no device context, ...; their tasks have host-side times only.
 * A device this dir's process ran nothing on ("notRead": the window's
 * processes held other devices; or no task of it here) loses nothing.
 */
static int timing_reasons(struct export_model *m)
{
	int err = 0;

	for (size_t i = 0; !err && i < m->n_timing; i++) {
		const struct npuprof_ctrl_timing_read *t = &m->timing[i];
		const char *why = t->begin_end;

		if (!t->outcome[0] || !strcmp(t->outcome, "tracepoints") ||
		    !strcmp(t->outcome, "notRead") || !has_device(m, t->device))
			continue;
		if (!strcmp(t->outcome, "deviceLog")) {
			/*
			 * The log was ours and yet none of this process's tasks
			 * began or ended in it: the driver logs only processes
			 * that enabled profiling themselves (ascend-driver.md
			 * 2.3, still open on real hardware).
			 */
			if (m->n_tasks && !m->n_drawn)
				err = add_reason(m, "device %u: its log held no task begin or end of this process (%zu tasks submitted): the driver logs only processes that enabled profiling themselves (started with PROFILING_MODE=dynamic, or profiled by msprof at launch); host-side timing only (submits and API calls)",
						 t->device, m->n_tasks);
			/*
			 * The count wraps every 16 records: a run of 16 or
			 * more lost shows as fewer, so it is a lower bound.
			 */
			if (!err && t->gaps)
				err = add_reason(m, "device %u: at least %llu records of its log are missing (gaps in the log's 4-bit record count, counted as lost; a run of 16 or more shows as fewer)",
						 t->device, (unsigned long long)t->gaps);
			continue;
		}
		if (!strncmp(why, "none: ", 6))
			why += 6;
		err = add_reason(m, "device %u: no task begin/end times (%s): host-side timing only (submits and API calls)",
				 t->device, why[0] ? why : t->outcome);
	}
	return err;
}

const char *export_clock_placement(const struct xm_device *d, char *buf, size_t size)
{
	switch (d->clock) {
	case XM_CLOCK_INFO_JSON:
		snprintf(buf, size, "device %u: device times placed by a fit over %zu clock samples of the driver (info.json)",
			 d->id, d->fit.n_used);
		return "clockSamples";
	case XM_CLOCK_RECORDS:
		snprintf(buf, size, "device %u: device times placed by a fit over %zu task record times (no clock samples in info.json)",
			 d->id, d->fit.n_used);
		return "taskRecordFit";
	case XM_CLOCK_TRACEPOINT:
		snprintf(buf, size, "device %u: device times are the tracepoints' host times (no clock samples, too few task records for a fit)",
			 d->id);
		return "tracepointTimes";
	default:
		return NULL;
	}
}

const char *export_clock_correction(const struct xm_device *d, char *buf, size_t size)
{
	char us[32];

	if (d->clock != XM_CLOCK_INFO_JSON && d->clock != XM_CLOCK_RECORDS)
		return NULL;
	if (!d->corrected) {
		snprintf(buf, size, "device %u: largest correction applied: none (every task starts after its launch)",
			 d->id);
		return buf;
	}
	snprintf(buf, size, "device %u: largest correction applied: %s us (%llu tasks moved to start at their launch)",
		 d->id, export_fmt_us(d->max_correction_ns, us, sizeof(us)),
		 (unsigned long long)d->corrected);
	return buf;
}

/* [{"device", "placement", "pairs"}] of the devices with times. */
static json_t *clocks_json(const struct export_model *m)
{
	json_t *clocks = json_array();
	const char *name;
	char text[200];

	for (size_t i = 0; clocks && i < m->n_devs; i++) {
		const struct xm_device *d = &m->devs[i];

		name = export_clock_placement(d, text, sizeof(text));
		if (name &&
		    json_array_append_new(clocks, json_pack("{s:I, s:s, s:I}", "device", (json_int_t)d->id,
							    "placement", name, "pairs",
							    (json_int_t)(d->clock == XM_CLOCK_TRACEPOINT ?
									 0 : d->fit.n_used)))) {
			json_decref(clocks);
			return NULL;
		}
	}
	return clocks;
}

int export_outcome_reasons(struct export_model *m)
{
	char lost[160];
	int err = control_reasons(m);

	for (size_t i = 0; !err && i < m->n_series; i++)
		err = series_reasons(m, &m->series[i]);
	if (!err && m->bad_records)
		err = add_reason(m, "%llu records shorter than their type's layout were skipped",
				 (unsigned long long)m->bad_records);
	if (!err && npuprof_loss_total(&m->loss))
		err = add_reason(m, "%s", npuprof_loss_format(&m->loss, lost, sizeof(lost)));
	if (!err && m->write_error)
		err = add_reason(m, "a write failed during the capture: %s", strerror(-m->write_error));
	if (!err && m->aged.slices)
		err = add_reason(m, "%llu oldest slices (%llu bytes, %llu records) removed at capture by --storage-limit",
				 (unsigned long long)m->aged.slices, (unsigned long long)m->aged.bytes,
				 (unsigned long long)m->aged.records);
	if (!err)
		err = timing_reasons(m);
	if (!err)
		err = clock_reasons(m);
	return err;
}

json_t *export_outcome_json(const struct export_model *m)
{
	json_t *reasons = json_array();
	json_t *lost = npuprof_loss_report_json(&m->loss, m->cpu_loss, (unsigned int)m->n_cpu_loss);

	for (size_t i = 0; reasons && i < m->n_reasons; i++)
		json_array_append_new(reasons, json_string(m->reasons[i]));
	return json_pack("{s:b, s:o, s:o, s:o}", "complete", !m->n_reasons, "incomplete", reasons,
			 "lost", lost, "clocks", clocks_json(m));
}
