// SPDX-License-Identifier: MIT
/*
 * What a PROF_XXX directory's control files contain (npuprof/prof_control.h):
 * for start_info/end_info, info.json (host's and a device's) and
 * sample.json, the writer that builds the document from the capture's
 * plain structs and the reader that turns it back into one, next to each
 * other, so a key is named and checked in one place.  Part of the PROF
 * format layer: no recorder header is included here.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/loss_json.h>
#include <npuprof/name_text.h>
#include <npuprof/prof_control.h>
#include <npuprof/prof_fs.h>
#include <npuprof/prof_layout.h>
#include <npuprof/record.h>
#include <npuprof/record_io.h>

/* Every control file: pretty, keys sorted (the order a reader sees). */
#define CTRL_DUMP_FLAGS (JSON_INDENT(2) | JSON_SORT_KEYS)

int npuprof_ctrl_write(int dir_fd, const char *rel, json_t *doc)
{
	char tmp[PATH_MAX];
	int fd, err = 0;

	if (!doc)
		return -ENOMEM;
	fd = npuprof_ctrl_tmp_name(tmp, sizeof(tmp), rel);
	if (!fd)
		fd = npuprof_prof_create(dir_fd, tmp);
	if (fd < 0) {
		err = fd;
	} else {
		errno = 0;
		if (json_dumpfd(doc, fd, CTRL_DUMP_FLAGS))
			err = errno ? -errno : -EIO;
		if (close(fd) && !err)
			err = -errno;
		if (!err)
			err = npuprof_prof_rename_new(dir_fd, tmp, rel);
	}
	json_decref(doc);
	if (err && fd >= 0) /* half a file would read as a damaged one */
		npuprof_prof_unlink(dir_fd, tmp);
	return err;
}

json_t *npuprof_ctrl_load(const char *path, int *err)
{
	int fd = npuprof_prof_open_regular(path);
	json_t *doc;

	*err = fd < 0 ? fd : 0;
	if (fd < 0)
		return NULL;
	doc = json_loadfd(fd, 0, NULL);
	close(fd);
	if (!doc)
		*err = -EBADMSG;
	return doc;
}

/* The integer at @key of @obj into *@v; false when absent or not one. */
static bool get_int(const json_t *obj, const char *key, int64_t *v)
{
	json_t *j = json_object_get(obj, key);

	if (!json_is_integer(j))
		return false;
	*v = json_integer_value(j);
	return true;
}

/* The integer at @key of @obj when > 0, else 0. */
static uint64_t get_count(const json_t *obj, const char *key)
{
	int64_t v;

	return get_int(obj, key, &v) && v > 0 ? (uint64_t)v : 0;
}

const char *npuprof_ctrl_place(const char *host_rel, unsigned int i)
{
	return i == 0 ? host_rel : i == 1 ? host_rel + sizeof(NPUPROF_PROF_HOST_DIR) : NULL;
}

/* ---- start_info / end_info ---- */

/*
 * start_info / end_info: CANN's keys (collectionDate*, collectionTime* as a
 * string of wall-clock us, clockMonotonicRaw) plus clockMonotonic, the
 * capture clock of every record, and clockMonotonicEnabled (start) /
 * clockMonotonicDisabled (end): no record lies outside those two.
 */
json_t *npuprof_ctrl_edge_json(const struct npuprof_ctrl_edge *e, int begin)
{
	char date[64], us[32];
	struct tm tm;

	localtime_r(&e->real.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(us, sizeof(us), "%llu",
		 (unsigned long long)e->real.tv_sec * 1000000ull + e->real.tv_nsec / 1000);
	return json_pack("{s:s, s:s, s:I, s:I, s:I}",
			 begin ? "collectionDateBegin" : "collectionDateEnd", date,
			 begin ? "collectionTimeBegin" : "collectionTimeEnd", us,
			 "clockMonotonicRaw", (json_int_t)e->mono_raw_ns, "clockMonotonic",
			 (json_int_t)e->mono_ns,
			 begin ? "clockMonotonicEnabled" : "clockMonotonicDisabled",
			 (json_int_t)e->outer_ns);
}

/* A decimal string of us >= 0, nothing after it, into *@us. */
static bool parse_time_us(const json_t *v, int64_t *us)
{
	const char *s = json_string_value(v);
	long long n;
	char *end;

	if (!s)
		return false;
	errno = 0;
	n = strtoll(s, &end, 10);
	if (errno || end == s || *end || n < 0)
		return false;
	*us = n;
	return true;
}

int npuprof_ctrl_edge_read(const char *path, int begin, struct npuprof_ctrl_edge_info *out)
{
	json_t *doc;
	int err;

	memset(out, 0, sizeof(*out));
	doc = npuprof_ctrl_load(path, &err);
	if (!doc)
		return err;
	out->has_mono = get_int(doc, "clockMonotonic", &out->mono_ns);
	out->has_outer = get_int(doc, begin ? "clockMonotonicEnabled" : "clockMonotonicDisabled",
				 &out->outer_ns);
	out->has_time = parse_time_us(
		json_object_get(doc, begin ? "collectionTimeBegin" : "collectionTimeEnd"),
		&out->time_us);
	json_decref(doc);
	return 0;
}

int npuprof_ctrl_edge_read_prof(const char *prof_dir, int begin,
				struct npuprof_ctrl_edge_info *out)
{
	const char *rel, *host_rel = begin ? NPUPROF_PROF_START_INFO : NPUPROF_PROF_END_INFO;
	char path[PATH_MAX];
	int err = -ENOENT;

	for (unsigned int i = 0; err && (rel = npuprof_ctrl_place(host_rel, i)); i++) {
		snprintf(path, sizeof(path), "%s/%s", prof_dir, rel);
		err = npuprof_ctrl_edge_read(path, begin, out);
	}
	return err;
}

/* ---- info.json, info.json.<id> ---- */

/* One entry of "clockSamples": {device, samples: [{hostMonotonicNs, deviceCount}]}. */
static json_t *device_samples(int device, const struct npuprof_ctrl_clocks *c)
{
	json_t *samples = json_array();

	for (unsigned int i = 0; i < c->n && i < NPUPROF_CTRL_CLOCK_PAIRS; i++)
		json_array_append_new(samples, json_pack("{s:I, s:I}", "hostMonotonicNs",
							 (json_int_t)c->host[i], "deviceCount",
							 (json_int_t)c->dev[i]));
	return json_pack("{s:i, s:o}", "device", device, "samples", samples);
}

/* "clockSamples" of every device of @clocks (indexed by id) that has pairs. */
static json_t *clock_samples(const struct npuprof_ctrl_clocks *clocks, unsigned int nr)
{
	json_t *arr = json_array();

	for (unsigned int d = 0; d < nr; d++)
		if (clocks[d].n)
			json_array_append_new(arr, device_samples((int)d, &clocks[d]));
	return arr;
}

/*
 * "rings" of one source: its rings as the drain read them at stop; the
 * device log's rings are devices ("device"), the others CPUs ("cpu").
 */
static json_t *ring_counters(const struct npuprof_ctrl_info *info, int source)
{
	const char *id = source == NPUPROF_SRC_DEVLOG ? "device" : "cpu";
	json_t *arr = json_array();

	for (unsigned int i = 0; i < info->nr_rings; i++) {
		const struct npuprof_ctrl_ring *r = &info->rings[i];

		if (r->source != source)
			continue;
		json_array_append_new(arr, json_pack("{s:i, s:I, s:I}", id, (int)r->cpu,
						     "written", (json_int_t)r->written, "lost",
						     (json_int_t)r->lost));
	}
	return arr;
}

/* "rings": {"<source>": [{cpu, written, lost}]} of the sources there were. */
static json_t *rings_json(const struct npuprof_ctrl_info *info)
{
	json_t *rings = json_object();

	if (info->has_kmod)
		json_object_set_new(rings, "npuprof.ko", ring_counters(info, NPUPROF_SRC_KMOD));
	if (info->has_bpf)
		json_object_set_new(rings, "bpf", ring_counters(info, NPUPROF_SRC_BPF));
	if (info->has_devlog)
		json_object_set_new(rings, "devlog", ring_counters(info, NPUPROF_SRC_DEVLOG));
	return rings;
}

/* "ringBytes": {"<source>": bytes of data of each CPU's ring}, as made. */
static json_t *ring_bytes_json(const struct npuprof_ctrl_info *info)
{
	json_t *o = json_object();

	if (info->has_kmod)
		json_object_set_new(o, "npuprof.ko",
				    json_integer((json_int_t)info->kmod_ring_bytes));
	if (info->has_bpf)
		json_object_set_new(o, "bpf", json_integer((json_int_t)info->bpf_ring_bytes));
	return o;
}

/* "devices": the device ids that got data (device_<id> folders). */
static json_t *data_devices(uint64_t devices)
{
	json_t *arr = json_array();

	for (int d = 0; d < 64; d++)
		if (devices & (1ULL << d))
			json_array_append_new(arr, json_integer(d));
	return arr;
}

/*
 * "drain" (struct npuprof_ctrl_drain).  skippedBytes, foreignRecords,
 * unroutedRecords, staleKmodBytes, staleBpfRecords and the ring counters
 * belong to the session's rings, shared by "sharedWith".
 */
static json_t *drain_json(const struct npuprof_ctrl_drain *d)
{
	json_t *shared = json_array(), *o;

	for (unsigned int i = 0; i < d->nr_shared; i++)
		json_array_append_new(shared, json_integer(d->shared[i]));
	o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:i, s:o}",
			 "records", (json_int_t)d->records, "api_records",
			 (json_int_t)d->api_records, "task_records", (json_int_t)d->task_records,
			 "raw_bytes", (json_int_t)d->raw_bytes, "file_bytes",
			 (json_int_t)d->file_bytes, "dropped", (json_int_t)d->dropped,
			 "skippedBytes", (json_int_t)d->skipped_bytes, "foreignRecords",
			 (json_int_t)d->foreign, "unroutedRecords", (json_int_t)d->unrouted,
			 "staleKmodBytes", (json_int_t)d->stale_kmod_bytes, "staleBpfRecords",
			 (json_int_t)d->stale_bpf_records, "write_error", d->write_error,
			 "sharedWith", shared);
	if (o && d->writer)
		json_object_set_new(o, "writer", json_string(d->writer));
	return o;
}

/* "storageLimit" (with --storage-limit only): the limit, what ageing removed. */
static json_t *storage_json(const struct npuprof_ctrl_info *info)
{
	return json_pack("{s:I, s:I, s:I, s:I}", "limitBytes", (json_int_t)info->storage_limit,
			 "agedSlices", (json_int_t)info->aged_slices, "agedBytes",
			 (json_int_t)info->aged_bytes, "agedRecords",
			 (json_int_t)info->aged_records);
}

/* "driver" (struct npuprof_ctrl_driver). */
static json_t *driver_json(const struct npuprof_ctrl_driver *d)
{
	const char *path = d->tasks == NPUPROF_CTRL_TASKS_KMOD  ? "npuprof.ko"
			   : d->tasks == NPUPROF_CTRL_TASKS_BPF ? "bpf"
								: NULL;

	return json_pack("{s:o, s:s, s:s, s:{s:o, s:s}}", "backend",
			 d->backend ? json_string(d->backend) : json_null(), "module", d->module,
			 "clock", d->driver_clock ? "driver" : "records", "taskCapture", "path",
			 path ? json_string(path) : json_null(), "reason", d->reason);
}

/* One device's "taskTiming" (struct npuprof_ctrl_timing), with "device" when @with_id. */
static json_t *timing_json(const struct npuprof_ctrl_timing *t, bool with_id)
{
	json_t *o = json_pack("{s:s, s:s, s:s}", "submit", t->submit ? t->submit : "none",
			      "beginEnd", t->begin_end ? t->begin_end : "none",
			      "beginEndOutcome", t->outcome ? t->outcome : "none");

	if (o && with_id)
		json_object_set_new(o, "device", json_integer(t->device));
	if (o && t->has_log)
		json_object_set_new(
			o, "deviceLog",
			json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "begins", (json_int_t)t->begins,
				  "ends", (json_int_t)t->ends, "skipped", (json_int_t)t->skipped,
				  "countGaps", (json_int_t)t->gaps, "ringDrops",
				  (json_int_t)t->ring_drops, "unattributed",
				  (json_int_t)t->unattributed, "outsideWindow",
				  (json_int_t)t->outside));
	return o;
}

/* host/info.json "taskTiming": every device's entry, in order. */
static json_t *timings_json(const struct npuprof_ctrl_driver *d)
{
	json_t *arr = json_array();

	for (unsigned int i = 0; arr && i < d->nr_timing; i++)
		json_array_append_new(arr, timing_json(&d->timing[i], true));
	return arr;
}

/* "uprobes": how the runtime-API probes worked on this kernel. */
static json_t *uprobes_json(const struct npuprof_ctrl_info *info)
{
	return json_pack("{s:s, s:s, s:s, s:b}", "links",
			 info->uprobe_multi ? "uprobe_multi" : "perFunction", "inFlight",
			 info->task_storage ? "taskStorage" : "hash", "apiId",
			 info->cookies ? "cookie" : "program", "forced", info->forced);
}

/* "untracedFunctions": the names in @names (one space between two). */
static json_t *untraced_json(const char *names)
{
	json_t *arr = json_array();
	const char *p = names;
	size_t n;

	while (*p) {
		n = strcspn(p, " ");
		json_array_append_new(arr, json_stringn(p, n));
		p += n + (p[n] == ' ');
	}
	return arr;
}

/* "apiLevels": the CANN levels captured, by msprof's name; [] when none. */
static json_t *api_levels_json(const struct npuprof_ctrl_info *info)
{
	json_t *arr = json_array();

	if (info->level_acl)
		json_array_append_new(arr, json_string(npuprof_level_name(NPUPROF_LEVEL_ACL)));
	if (info->level_runtime)
		json_array_append_new(arr, json_string(npuprof_level_name(NPUPROF_LEVEL_RUNTIME)));
	return arr;
}

/* @doc with @more's keys added after its own; NULL (both freed) if either is. */
static json_t *json_join(json_t *doc, json_t *more)
{
	if (!more) {
		json_decref(doc);
		return NULL;
	}
	if (json_object_update_new(doc, more)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* "pidStartTicks" and "nsPid", both absent when procfs could not say. */
static json_t *proc_id_json(const struct npuprof_ctrl_identity *id)
{
	json_t *doc = json_object(), *ns = json_array();

	for (unsigned int i = 0; ns && i < id->nr_ns_pid && i < NPUPROF_CTRL_NSPID_MAX; i++)
		json_array_append_new(ns, json_integer(id->ns_pid[i]));
	if (doc && id->start_ticks) {
		json_object_set_new(doc, "pidStartTicks",
				    json_integer((json_int_t)id->start_ticks));
		json_object_set(doc, "nsPid", ns);
	}
	json_decref(ns);
	return doc;
}

/*
 * What host/info.json and each device's info.json.<id> begin with: pid,
 * pid_name, hostname, platform_version (CANN's keys), then ours,
 * pidStartTicks and nsPid.  Return: a new object, or NULL.
 */
static json_t *info_identity(const struct npuprof_ctrl_identity *id)
{
	/* the app names itself (prctl PR_SET_NAME): any bytes but NUL */
	return json_join(json_pack("{s:i, s:o, s:o, s:s}", "pid", (int)id->pid, "pid_name",
				   npuprof_name_json(id->name, id->name_len), "hostname",
				   npuprof_name_json(id->host, id->host_len), "platform_version",
				   id->platform),
			 proc_id_json(id));
}

json_t *npuprof_ctrl_info_json(const struct npuprof_ctrl_identity *id,
			       const struct npuprof_ctrl_info *info)
{
	json_t *doc;

	doc = json_join(info_identity(id),
			json_pack("{s:i, s:o, s:o, s:o, s:o, s:o}", "record_version",
				  NPUPROF_RECORD_VERSION, "clockSamples",
				  clock_samples(info->clocks, info->nr_clocks), "devices",
				  data_devices(info->devices), "rings", rings_json(info), "drain",
				  drain_json(&info->drain), "lost",
				  npuprof_loss_report_json(info->loss, info->cpu_loss,
							   info->nr_cpu_loss)));
	if (doc)
		json_object_set_new(doc, "driver", driver_json(&info->driver));
	if (doc && info->driver.nr_timing)
		json_object_set_new(doc, "taskTiming", timings_json(&info->driver));
	if (doc)
		json_object_set_new(doc, "ringBytes", ring_bytes_json(info));
	if (doc && info->storage_limit)
		json_object_set_new(doc, "storageLimit", storage_json(info));
	if (doc && info->has_uprobes)
		json_object_set_new(doc, "uprobes", uprobes_json(info));
	if (doc)
		json_object_set_new(doc, "apiLevels", api_levels_json(info));
	if (doc && id->rank >= 0)
		json_object_set_new(doc, "rank", json_integer(id->rank));
	if (doc && info->has_follow)
		json_object_set_new(doc, "followMissed",
				    json_integer((json_int_t)info->follow_missed));
	if (doc && info->untraced && info->untraced[0])
		json_object_set_new(doc, "untracedFunctions", untraced_json(info->untraced));
	if (doc && info->api_off && info->api_off[0])
		json_object_set_new(doc, "apiNotCaptured", json_string(info->api_off));
	return doc;
}

/*
 * info.json.<id>: CANN's keys where they exist (pid, pid_name, hostname,
 * platform_version, devices, DeviceInfo, rank_id), the device's own
 * clock pairs and the driver, as in host/info.json.
 */
json_t *npuprof_ctrl_device_info_json(const struct npuprof_ctrl_identity *id, int device,
				      const struct npuprof_ctrl_clocks *clocks,
				      const struct npuprof_ctrl_driver *driver)
{
	json_t *doc, *samples = json_array();
	char text[16];

	snprintf(text, sizeof(text), "%d", device);
	if (samples && clocks && clocks->n)
		json_array_append_new(samples, device_samples(device, clocks));
	doc = json_join(info_identity(id),
			json_pack("{s:s, s:[{s:i}], s:o, s:o}", "devices", text, "DeviceInfo", "id",
				  device, "clockSamples", samples, "driver", driver_json(driver)));
	if (doc && id->rank >= 0)
		json_object_set_new(doc, "rank_id", json_integer(id->rank));
	for (unsigned int i = 0; doc && driver && i < driver->nr_timing; i++)
		if (driver->timing[i].device == device)
			json_object_set_new(doc, "taskTiming", timing_json(&driver->timing[i], false));
	return doc;
}

/* "clockSamples" pairs with integer fields, in file order, into @out. */
static int read_samples(const json_t *info, struct npuprof_ctrl_info_parsed *out)
{
	json_t *devs = json_object_get(info, "clockSamples"), *dev, *s;
	size_t i, j;

	json_array_foreach(devs, i, dev) {
		json_t *id = json_object_get(dev, "device");

		if (!json_is_integer(id))
			continue;
		json_array_foreach(json_object_get(dev, "samples"), j, s) {
			struct npuprof_ctrl_sample *x;
			int64_t h, c;

			if (!get_int(s, "hostMonotonicNs", &h) || !get_int(s, "deviceCount", &c))
				continue;
			x = realloc(out->samples, (out->nr_samples + 1) * sizeof(*x));
			if (!x)
				return -ENOMEM;
			out->samples = x;
			x = &out->samples[out->nr_samples++];
			x->device = (uint32_t)json_integer_value(id);
			x->host_ns = (uint64_t)h;
			x->dev = (uint64_t)c;
		}
	}
	return 0;
}

/*
 * Sum of "lost" > 0 over "rings": {"<source>": [{cpu, written, lost}]},
 * saturated at UINT64_MAX (an edited file must not wrap to 0).
 */
static uint64_t rings_lost(const json_t *info)
{
	json_t *rings = json_object_get(info, "rings"), *arr, *r;
	const char *key;
	uint64_t lost = 0, n;
	size_t i;

	json_object_foreach(rings, key, arr)
		json_array_foreach(arr, i, r) {
			n = get_count(r, "lost");
			lost = n > UINT64_MAX - lost ? UINT64_MAX : lost + n;
		}
	return lost;
}

/*
 * "lost" (npuprof/loss_json.h), written since records were counted lost
 * by cause; an older writer's file has none (@out->has_loss false).
 */
static int read_loss(const json_t *lost, struct npuprof_ctrl_info_parsed *out)
{
	json_t *by_cpu = json_object_get(lost, "byCpu"), *c;
	size_t i;

	if (!json_is_object(lost))
		return 0;
	out->has_loss = true;
	npuprof_loss_from_json(lost, &out->loss);
	if (!json_array_size(by_cpu))
		return 0;
	out->cpu_loss = calloc(json_array_size(by_cpu), sizeof(*out->cpu_loss));
	if (!out->cpu_loss)
		return -ENOMEM;
	json_array_foreach(by_cpu, i, c)
		if (!npuprof_loss_from_json(c, &out->cpu_loss[out->nr_cpu_loss]))
			out->nr_cpu_loss++;
	return 0;
}

/* "pid", or "nsPid"'s first (the host's, as the records number it). */
static uint32_t read_pid(const json_t *info)
{
	json_t *v = json_array_get(json_object_get(info, "nsPid"), 0);
	uint32_t pid = 0;
	int64_t n;

	if (get_int(info, "pid", &n))
		pid = (uint32_t)n;
	if (json_is_integer(v) && json_integer_value(v) > 0 && json_integer_value(v) <= INT32_MAX)
		pid = (uint32_t)json_integer_value(v);
	return pid;
}

/* The string at @key of @obj as text (name_text.h) into @buf; "" if none. */
static void read_name(const json_t *obj, const char *key, char *buf, size_t size)
{
	json_t *v = json_object_get(obj, key);

	buf[0] = '\0';
	if (json_is_string(v)) /* text when we wrote it; a copy may have been edited */
		npuprof_name_text(buf, size, json_string_value(v), json_string_length(v));
}

/* "taskTiming" entries with an integer "device", in file order, into @out. */
static int read_timing(const json_t *info, struct npuprof_ctrl_info_parsed *out)
{
	json_t *arr = json_object_get(info, "taskTiming"), *t;
	size_t i;

	json_array_foreach(arr, i, t) {
		struct npuprof_ctrl_timing_read *x;
		int64_t dev;

		if (!get_int(t, "device", &dev) || dev < 0 || dev > UINT32_MAX)
			continue;
		x = realloc(out->timing, (out->nr_timing + 1) * sizeof(*x));
		if (!x)
			return -ENOMEM;
		out->timing = x;
		x = &out->timing[out->nr_timing++];
		x->device = (uint32_t)dev;
		read_name(t, "beginEndOutcome", x->outcome, sizeof(x->outcome));
		read_name(t, "beginEnd", x->begin_end, sizeof(x->begin_end));
		read_name(t, "submit", x->submit, sizeof(x->submit));
		x->gaps = get_count(json_object_get(t, "deviceLog"), "countGaps");
	}
	return 0;
}

int npuprof_ctrl_info_read(const char *path, struct npuprof_ctrl_info_parsed *out)
{
	json_t *info, *drain, *limit, *v;
	int64_t n;
	int err;

	memset(out, 0, sizeof(*out));
	out->rank = -1;
	info = npuprof_ctrl_load(path, &err);
	if (!info)
		return err;
	out->pid = read_pid(info);
	read_name(info, "hostname", out->hostname, sizeof(out->hostname));
	read_name(info, "pid_name", out->pid_name, sizeof(out->pid_name));
	if (get_int(info, "rank", &n) && n >= 0 && n < INT32_MAX)
		out->rank = (int)n;
	out->ring_lost = rings_lost(info);
	drain = json_object_get(info, "drain");
	out->records = get_count(drain, "records");
	if (get_int(drain, "write_error", &n) && n < 0 && n > -4096)
		out->write_error = (int)n;
	limit = json_object_get(info, "storageLimit");
	out->aged_slices = get_count(limit, "agedSlices");
	out->aged_bytes = get_count(limit, "agedBytes");
	out->aged_records = get_count(limit, "agedRecords");
	v = json_object_get(json_object_get(info, "driver"), "clock");
	out->driver_clock = json_is_string(v) && !strcmp(json_string_value(v), "driver");
	err = read_loss(json_object_get(info, "lost"), out);
	if (!err)
		err = read_samples(info, out);
	if (!err)
		err = read_timing(info, out);
	json_decref(info);
	if (err)
		npuprof_ctrl_info_free(out);
	return err;
}

int npuprof_ctrl_info_read_prof(const char *prof_dir, struct npuprof_ctrl_info_parsed *out)
{
	char path[PATH_MAX];
	const char *rel;
	int err = -ENOENT;

	for (unsigned int i = 0;
	     err && err != -ENOMEM && (rel = npuprof_ctrl_place(NPUPROF_PROF_INFO_JSON, i)); i++) {
		snprintf(path, sizeof(path), "%s/%s", prof_dir, rel);
		err = npuprof_ctrl_info_read(path, out);
	}
	return err;
}

void npuprof_ctrl_info_free(struct npuprof_ctrl_info_parsed *info)
{
	free(info->cpu_loss);
	free(info->samples);
	free(info->timing);
	info->cpu_loss = NULL;
	info->samples = NULL;
	info->timing = NULL;
	info->nr_cpu_loss = 0;
	info->nr_samples = 0;
	info->nr_timing = 0;
}

/* ---- sample.json ---- */

json_t *npuprof_ctrl_sample_json(const char *params_json)
{
	json_error_t jerr;
	json_t *doc = json_loads(params_json, 0, &jerr);

	return doc ? doc : json_pack("{s:s}", "params", params_json);
}
