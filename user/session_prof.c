// SPDX-License-Identifier: MIT
/*
 * The session's PROF_XXX directories (session_int.h): making one per
 * member and window below --output under a fresh name, the space held
 * back for the control files, removing a discarded one, and writing the
 * control files at start and stop: host/start_info, end_info, info.json,
 * sample.json and each device's start_info.<d>, end_info.<d>,
 * info.json.<d>, sample.json.<d>, from what the session recorded.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <npuprof/loss_json.h>
#include <npuprof/name_text.h>
#include <npuprof/prof_fs.h>
#include <npuprof/prof_layout.h>
#include <npuprof/record.h>

#include "session_int.h"

/*
 * Disk space kept for the control files written at stop (end_info,
 * info.json, sample.json): a full disk would otherwise take them with the
 * last slices, and with them the loss counts that say what is missing.
 * The file host/.control_reserve holds it from start to stop; after a
 * crash it stays behind (the export ignores it).
 */
#define SESSION_CONTROL_RESERVE (64u << 10) /* bytes */

#define SESSION_RESERVE_FILE NPUPROF_PROF_HOST_DIR "/.control_reserve"

/*
 * Write @doc as pretty JSON to the new file <@m's prof_dir>/<rel>; steals
 * @doc.  The file is written under its temporary name and renamed into
 * place (npuprof/prof_layout.h), so it is never seen half-written.  A name
 * already taken (a planted symlink) fails with -EEXIST and is left alone.
 */
static int write_json(struct npuprof_session *s, const struct session_member *m, const char *rel,
		      json_t *doc)
{
	char path[PATH_MAX + 64], tmp[PATH_MAX];
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", m->prof_dir, rel);
	if (!doc)
		return -ENOMEM;
	fd = npuprof_ctrl_tmp_name(tmp, sizeof(tmp), rel);
	if (!fd)
		fd = npuprof_prof_create(m->dir_fd, tmp);
	if (fd < 0) {
		err = fd;
	} else {
		errno = 0;
		if (json_dumpfd(doc, fd, JSON_INDENT(2) | JSON_SORT_KEYS))
			err = errno ? -errno : -EIO;
		if (close(fd) && !err)
			err = -errno;
		if (!err)
			err = npuprof_prof_rename_new(m->dir_fd, tmp, rel);
	}
	json_decref(doc);
	if (err) {
		if (fd >= 0) /* half a file would read as a damaged one */
			npuprof_prof_unlink(m->dir_fd, tmp);
		session_set_error(s, NPUPROF_STAGE_OUTPUT, err, m->pid, path);
	}
	return err;
}

/* Take SESSION_CONTROL_RESERVE bytes for @m's control files, if there are. */
static void reserve_control_space(const struct session_member *m)
{
	int fd = npuprof_prof_create(m->dir_fd, SESSION_RESERVE_FILE);

	if (fd < 0)
		return; /* the stop then writes them without a reserve */
	if (posix_fallocate(fd, 0, SESSION_CONTROL_RESERVE))
		npuprof_prof_unlink(m->dir_fd, SESSION_RESERVE_FILE);
	close(fd);
}

/* Give the reserved space back, right before the control files need it. */
static void release_control_space(const struct session_member *m)
{
	npuprof_prof_unlink(m->dir_fd, SESSION_RESERVE_FILE);
}

/*
 * start_info / end_info: CANN's keys (collectionDate*, collectionTime* as a
 * string of wall-clock us, clockMonotonicRaw) plus clockMonotonic, the
 * capture clock of every record, and clockMonotonicEnabled (start) /
 * clockMonotonicDisabled (end): no record lies outside those two.  All were read together after enabling
 * (start) or before disabling (stop): every event between the two
 * clockMonotonic values is in the data.
 */
static int write_time_file(struct npuprof_session *s, const struct session_member *m,
			   const char *rel, int begin)
{
	const struct capture_clocks *c = begin ? &s->begin : &s->end;
	char date[64], us[32];
	struct tm tm;

	localtime_r(&c->real.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(us, sizeof(us), "%llu",
		 (unsigned long long)c->real.tv_sec * 1000000ull + c->real.tv_nsec / 1000);
	return write_json(s, m, rel,
			  json_pack("{s:s, s:s, s:I, s:I, s:I}",
				    begin ? "collectionDateBegin" : "collectionDateEnd", date,
				    begin ? "collectionTimeBegin" : "collectionTimeEnd", us,
				    "clockMonotonicRaw", (json_int_t)c->mono_raw_ns,
				    "clockMonotonic", (json_int_t)c->mono_ns,
				    begin ? "clockMonotonicEnabled" : "clockMonotonicDisabled",
				    (json_int_t)c->outer_ns));
}

/* The window is over for @m: its PROF_XXX is no longer written. */
void session_close_prof_dir(struct session_member *m)
{
	if (m->dir_fd >= 0)
		close(m->dir_fd);
	m->dir_fd = -1;
	m->in_window = false;
}

/*
 * Remove @m's PROF_XXX by the name it was made under, below --output's fd,
 * never following a symlink.  Should someone have renamed it away and put
 * something else there, that is what goes: it sits in our PROF_XXX's place.
 */
void session_remove_prof_dir(struct npuprof_session *s, struct session_member *m)
{
	if (m->prof_name[0] && m->dir_fd >= 0)
		npuprof_prof_remove(s->out_fd, m->prof_name);
	session_close_prof_dir(m);
	m->prof_dir[0] = '\0';
	m->prof_name[0] = '\0';
}

void session_remove_prof_dirs(struct npuprof_session *s)
{
	for (unsigned int i = 0; i < s->nr_members; i++)
		session_remove_prof_dir(s, &s->members[i]);
}

/*
 * A new PROF_XXX below --output's fd, held open in @m->dir_fd.  A name
 * that is taken (a directory of another msprof, or a symlink planted at
 * a name guessed from the clock) is never used: the letters are drawn
 * again, PROF_NAME_TRIES times.
 */
#define PROF_NAME_TRIES 8

static int make_prof_name(struct npuprof_session *s, struct session_member *m)
{
	int fd = -EEXIST;

	for (int i = 0; i < PROF_NAME_TRIES && fd == -EEXIST; i++) {
		uint64_t seed = (uint64_t)getpid() ^ ((uint64_t)i << 48);

		fd = npuprof_prof_name_make(m->prof_name, sizeof(m->prof_name), m->pid,
					    &s->begin_real, seed);
		if (!fd)
			fd = npuprof_prof_mkdir_new(s->out_fd, m->prof_name);
	}
	return fd;
}

/*
 * <output>/PROF_XXX/host/data of member @m.  @report: word a failure in
 * s->error (not from the drain thread).
 */
int session_make_prof_dir(struct npuprof_session *s, struct session_member *m, bool report)
{
	int fd, data_fd;

	m->dir_fd = -1;
	fd = make_prof_name(s, m);
	snprintf(m->prof_dir, sizeof(m->prof_dir), "%s/%s", s->output, m->prof_name);
	data_fd = fd < 0 ? fd : npuprof_prof_mkdirs(fd, NPUPROF_PROF_HOST_DATA);
	if (data_fd < 0) {
		if (report)
			session_set_error(s, NPUPROF_STAGE_OUTPUT, data_fd, m->pid, m->prof_dir);
		if (fd >= 0) {
			close(fd);
			npuprof_prof_remove(s->out_fd, m->prof_name);
		}
		m->prof_dir[0] = '\0';
		m->prof_name[0] = '\0';
		return data_fd;
	}
	close(data_fd);
	m->dir_fd = fd;
	m->in_window = true;
	m->discard = false;
	m->dev_started = 0;
	reserve_control_space(m);
	return 0;
}

/* info.json "rings" of one source: its rings as the drain read them at stop. */
static json_t *ring_counters(struct npuprof_session *s, const struct npuprof_drain_stats *st,
			     int source)
{
	json_t *arr = json_array();

	for (unsigned int i = 0; i < st->nr_rings; i++) {
		const struct npuprof_drain_ring *r = &s->rings[i];

		if (r->source != source)
			continue;
		json_array_append_new(arr, json_pack("{s:i, s:I, s:I}", "cpu", (int)r->cpu,
						     "written", (json_int_t)r->written, "lost",
						     (json_int_t)r->lost));
	}
	return arr;
}

/*
 * info.json "ringBytes": {"<source>": bytes of data of each CPU's ring}, as
 * made: npuprof.ko's are its ring_pages times the kernel's page size.
 */
static json_t *ring_bytes_json(struct npuprof_session *s)
{
	json_t *o = json_object();

	if (s->kring)
		json_object_set_new(o, "npuprof.ko",
				    json_integer((json_int_t)npuprof_kring_data_size(s->kring)));
	if (s->acl)
		json_object_set_new(o, "bpf", json_integer(npuprof_acl_trace_ring_bytes(s->acl)));
	return o;
}

/*
 * info.json "clockSamples": [{device, samples: [{hostMonotonicNs,
 * deviceCount}]}] of the devices in @mask (host/info.json: all of them;
 * device_<id>/info.json.<id>: its own).
 */
static json_t *clock_samples(struct npuprof_session *s, uint64_t mask)
{
	json_t *arr = json_array();
	unsigned int i;
	int d;

	for (d = 0; d < SESSION_MAX_DEVICES; d++) {
		struct clock_pairs *c = &s->clocks[d];
		json_t *samples;

		if (!c->n || !(mask & (1ULL << d)))
			continue;
		samples = json_array();
		for (i = 0; i < c->n; i++)
			json_array_append_new(samples, json_pack("{s:I, s:I}", "hostMonotonicNs",
								 (json_int_t)c->host[i], "deviceCount",
								 (json_int_t)c->dev[i]));
		json_array_append_new(arr, json_pack("{s:i, s:o}", "device", d, "samples", samples));
	}
	return arr;
}

/* Device ids that got data: the device_<id> folders the drain made for @rst. */
static json_t *data_devices(const struct npuprof_drain_stats *rst)
{
	json_t *arr = json_array();

	for (int d = 0; d < NPUPROF_DRAIN_MAX_DEVICES; d++)
		if (rst->devices & (1ULL << d))
			json_array_append_new(arr, json_integer(d));
	return arr;
}

/*
 * info.json "drain": what the drain saved in this directory, and every way
 * a record did not make it that is not a ring's "lost": dropped (a series
 * could not take it), skippedBytes (a corrupt ring header), foreignRecords
 * (a pid no directory takes), unroutedRecords (of those, records of the
 * followed job's processes that got no directory: lost),
 * staleKmodBytes/staleBpfRecords (an earlier window's leftovers, dropped
 * at start).  The last five and the ring counters belong to the session's
 * rings, shared by "sharedWith".
 */
static json_t *drain_json(struct npuprof_session *s, const struct npuprof_drain_stats *rst,
			  const struct npuprof_drain_stats *st)
{
	json_t *shared = json_array();

	for (unsigned int i = 0; i < s->nr_members; i++)
		if (s->members[i].in_window)
			json_array_append_new(shared, json_integer(s->members[i].pid));
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:i, s:o}",
			 "records", (json_int_t)rst->records, "api_records",
			 (json_int_t)rst->api_records, "task_records",
			 (json_int_t)rst->task_records, "raw_bytes", (json_int_t)rst->raw_bytes,
			 "file_bytes", (json_int_t)rst->file_bytes, "dropped",
			 (json_int_t)rst->dropped, "skippedBytes", (json_int_t)st->skipped_bytes,
			 "foreignRecords", (json_int_t)st->foreign, "unroutedRecords",
			 (json_int_t)st->unrouted, "staleKmodBytes",
			 (json_int_t)s->stale_bytes, "staleBpfRecords",
			 (json_int_t)(s->acl ? npuprof_acl_trace_stale(s->acl) : 0), "write_error",
			 rst->write_error, "sharedWith", shared);
}

/*
 * info.json "storageLimit" (with --storage-limit only): the limit in bytes
 * and what ageing removed from this directory: slices (with their .done
 * files), their bytes and the records they held.  The export names them
 * as a reason the data is incomplete.
 */
static json_t *storage_json(const struct npuprof_session *s, const struct npuprof_drain_stats *rst)
{
	return json_pack("{s:I, s:I, s:I, s:I}", "limitBytes", (json_int_t)s->opts.storage_limit,
			 "agedSlices", (json_int_t)rst->aged_slices, "agedBytes",
			 (json_int_t)rst->aged_bytes, "agedRecords", (json_int_t)rst->aged_records);
}

/*
 * Processes of the followed job that a full filter could not take (each
 * producer counts its own; the larger is the number of processes missed).
 */
static uint64_t follow_missed(struct npuprof_session *s)
{
	uint64_t k = 0, b = 0;

	if (s->kring && npuprof_kring_follow_missed(s->kring, &k))
		k = 0;
	if (s->acl)
		b = npuprof_acl_trace_follow_missed(s->acl);
	return k > b ? k : b;
}

/*
 * info.json "lost": this directory's records lost, by cause (write errors
 * its own, ring full and decode errors the shared rings'), and "byCpu"
 * the session's per-CPU losses (every member of "sharedWith"); layout in
 * npuprof/loss_json.h.
 */
static json_t *lost_json(struct npuprof_session *s, const struct npuprof_drain_stats *rst)
{
	return npuprof_loss_report_json(&rst->loss, s->cpu_loss, s->nr_cpu_loss);
}

/*
 * info.json "driver": the backend that recognised the NPU driver (null when
 * none did), the module sysfs names as the owner of the device nodes, and
 * whether the driver gave clock pairs ("driver") or the export must fit
 * the clocks over the task records ("records"); "taskCapture": the path
 * device tasks took ("npuprof.ko", "bpf", or null when not captured) and
 * why, as msprof said at start.
 */
static json_t *driver_json(const struct npuprof_session *s)
{
	const struct npu_backend *b = s->host.backend;
	const char *path = s->tasks.path == NPUPROF_TASK_PATH_KMOD  ? "npuprof.ko"
			   : s->tasks.path == NPUPROF_TASK_PATH_BPF ? "bpf"
								    : NULL;

	return json_pack("{s:o, s:s, s:s, s:{s:o, s:s}}", "backend",
			 b ? json_string(b->name) : json_null(), "module", s->host.owner, "clock",
			 b && b->clock ? "driver" : "records", "taskCapture", "path",
			 path ? json_string(path) : json_null(), "reason", s->tasks.reason);
}

/*
 * info.json "uprobes": how the runtime-API probes worked on this kernel, as
 * msprof said at start: "links" "uprobe_multi" or "perFunction", "inFlight"
 * "taskStorage" or "hash", "apiId" "cookie" or "program" (one program per
 * function), "forced" true when an NPUPROF_BPF_* variable chose a lesser
 * path than the kernel allows.
 */
static json_t *uprobes_json(const struct npuprof_session *s)
{
	struct npuprof_acl_probe_path p;

	npuprof_acl_trace_probe_path(s->acl, &p);
	return json_pack("{s:s, s:s, s:s, s:b}", "links", p.multi ? "uprobe_multi" : "perFunction",
			 "inFlight", p.task_storage ? "taskStorage" : "hash", "apiId",
			 p.cookies ? "cookie" : "program", "forced", p.forced);
}

/*
 * info.json "untracedFunctions": the recorded ACL functions the profiled
 * libascendcl.so lacks (an older runtime), whose calls are not in the data;
 * absent when it has them all.
 */
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

/*
 * info.json "apiLevels": the CANN levels whose calls were captured, by
 * msprof's name ("AscendCL", "Runtime"): asked for, and a library of that
 * layer found; [] when no API was captured.
 */
static json_t *api_levels_json(const struct npuprof_session *s)
{
	unsigned int layers = npuprof_session_api_layers(s);
	json_t *arr = json_array();

	if (layers & NPUPROF_LAYER_ACL)
		json_array_append_new(arr, json_string(npuprof_level_name(NPUPROF_LEVEL_ACL)));
	if (layers & NPUPROF_LAYER_RUNTIME)
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

/*
 * "nsPid": the process's pid in each pid namespace, the host's first and
 * the one the app sees last (npuprof/proc_id.h); "pidStartTicks": when it
 * started, which tells it from a later process given the same pid.  Both
 * absent when procfs could not say (the process was gone when added).
 */
static json_t *proc_id_json(const struct session_member *m)
{
	json_t *doc = json_object(), *ns = json_array();

	/*
	 * Seen from a pid namespace of our own: procfs shows the pids from
	 * ours down; the host's comes first (the levels between are unknown).
	 */
	if (ns && (m->kpid != m->pid || !npuprof_in_host_pid_ns()))
		json_array_append_new(ns, json_integer(m->kpid));
	for (unsigned int i = 0; ns && i < m->id.nr_nspid; i++)
		json_array_append_new(ns, json_integer(m->id.nspid[i]));
	if (doc && m->id.start_ticks) {
		json_object_set_new(doc, "pidStartTicks", json_integer((json_int_t)m->id.start_ticks));
		json_object_set(doc, "nsPid", ns);
	}
	json_decref(ns);
	return doc;
}

/*
 * What host/info.json and each device's info.json.<id> begin with: pid,
 * pid_name, hostname, platform_version (CANN's keys), then ours,
 * pidStartTicks and nsPid (proc_id_json()).  Return: a new object, or NULL.
 */
static json_t *info_identity(const struct npuprof_session *s, const struct session_member *m)
{
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	/* the app names itself (prctl PR_SET_NAME): any bytes but NUL */
	return json_join(json_pack("{s:i, s:o, s:o, s:s}", "pid", (int)m->pid, "pid_name",
				   npuprof_name_json(m->comm, sizeof(m->comm)), "hostname",
				   npuprof_name_json(host, sizeof(host)), "platform_version",
				   s->host.backend ? s->host.backend->name : "unknown"),
			 proc_id_json(m));
}

static int write_info(struct npuprof_session *s, const struct session_member *m,
		      const struct npuprof_drain_stats *rst, const struct npuprof_drain_stats *st)
{
	json_t *doc, *rings = json_object();

	if (s->kring)
		json_object_set_new(rings, "npuprof.ko", ring_counters(s, st, NPUPROF_SRC_KMOD));
	if (s->acl)
		json_object_set_new(rings, "bpf", ring_counters(s, st, NPUPROF_SRC_BPF));
	doc = json_join(info_identity(s, m),
			json_pack("{s:i, s:o, s:o, s:o, s:o, s:o}", "record_version",
				  NPUPROF_RECORD_VERSION, "clockSamples", clock_samples(s, ~0ULL),
				  "devices", data_devices(rst), "rings", rings, "drain",
				  drain_json(s, rst, st), "lost", lost_json(s, rst)));
	if (doc)
		json_object_set_new(doc, "driver", driver_json(s));
	if (doc)
		json_object_set_new(doc, "ringBytes", ring_bytes_json(s));
	if (doc && s->opts.storage_limit)
		json_object_set_new(doc, "storageLimit", storage_json(s, rst));
	if (doc && s->api && s->acl)
		json_object_set_new(doc, "uprobes", uprobes_json(s));
	if (doc)
		json_object_set_new(doc, "apiLevels", api_levels_json(s));
	if (doc && m->rank >= 0)
		json_object_set_new(doc, "rank", json_integer(m->rank));
	if (doc && s->follow)
		json_object_set_new(doc, "followMissed", json_integer((json_int_t)follow_missed(s)));
	if (doc && s->untraced[0])
		json_object_set_new(doc, "untracedFunctions", untraced_json(s->untraced));
	return write_json(s, m, NPUPROF_PROF_INFO_JSON, doc);
}

/* sample.json at @rel: the capture's parameters, as msprof handed them. */
static int write_sample(struct npuprof_session *s, const struct session_member *m, const char *rel)
{
	json_error_t jerr;
	json_t *doc = json_loads(s->params_json, 0, &jerr);

	if (!doc)
		doc = json_pack("{s:s}", "params", s->params_json);
	return write_json(s, m, rel, doc);
}

/*
 * Control file @kind of device @d of @m (npuprof/prof_layout.h), its
 * folder made first when the drain has not made it yet.
 */
static int device_ctrl(struct npuprof_session *s, struct session_member *m, int d,
		       enum npuprof_ctrl_file kind, char *rel, size_t size)
{
	char dir[NPUPROF_PROF_SERIES_SIZE];
	int fd = npuprof_device_dir_name(dir, sizeof(dir), (uint32_t)d);

	fd = fd ? fd : npuprof_device_ctrl_name(rel, size, (uint32_t)d, kind);
	fd = fd ? fd : npuprof_prof_mkdirs(m->dir_fd, dir);
	if (fd < 0) {
		session_set_error(s, NPUPROF_STAGE_OUTPUT, fd, m->pid, m->prof_dir);
		return fd;
	}
	close(fd);
	return 0;
}

static int write_device_info(struct npuprof_session *s, const struct session_member *m, int d,
			     const char *rel);

/*
 * Write control file @kind of device @d of @m; its name in @rel (may be
 * NULL) for messages.  Return: 0 or -errno.
 */
static int write_device_file(struct npuprof_session *s, struct session_member *m, int d,
			     enum npuprof_ctrl_file kind, char *rel, size_t size)
{
	char buf[NPUPROF_PROF_SERIES_SIZE];
	int err;

	if (!rel) {
		rel = buf;
		size = sizeof(buf);
	}
	err = device_ctrl(s, m, d, kind, rel, size);
	if (err)
		return err;
	switch (kind) {
	case NPUPROF_CTRL_START_INFO:
		err = write_time_file(s, m, rel, 1);
		if (!err)
			m->dev_started |= 1ULL << d;
		return err;
	case NPUPROF_CTRL_END_INFO:
		return write_time_file(s, m, rel, 0);
	case NPUPROF_CTRL_INFO_JSON:
		return write_device_info(s, m, d, rel);
	case NPUPROF_CTRL_SAMPLE_JSON:
		return write_sample(s, m, rel);
	}
	return -EINVAL;
}

/*
 * At start: start_info.<d> of each device @m holds open (it has set
 * them).  A device it opens later, or whose file failed here, gets its
 * start_info at stop (finish_devices()).
 */
static void start_devices(struct npuprof_session *s, struct session_member *m)
{
	uint64_t open = 0;

	m->dev_started = 0;
	if (npu_pid_devices(m->pid, NULL, &open))
		return;
	for (int d = 0; d < NPU_BACKEND_MAX_DEVICES; d++)
		if (open & (1ULL << d))
			write_device_file(s, m, d, NPUPROF_CTRL_START_INFO, NULL, 0);
}

/*
 * info.json.<d>: what is known of device @d (CANN's keys where they
 * exist: pid, pid_name, hostname, platform_version, devices, DeviceInfo,
 * rank_id) and its own host/device clock pairs ("clockSamples", as in
 * host/info.json).
 */
static int write_device_info(struct npuprof_session *s, const struct session_member *m, int d,
			     const char *rel)
{
	char id[16];
	json_t *doc;

	snprintf(id, sizeof(id), "%d", d);
	doc = json_join(info_identity(s, m),
			json_pack("{s:s, s:[{s:i}], s:o, s:o}", "devices", id, "DeviceInfo", "id",
				  d, "clockSamples", clock_samples(s, 1ULL << d), "driver",
				  driver_json(s)));
	if (doc && m->rank >= 0)
		json_object_set_new(doc, "rank_id", json_integer(m->rank));
	return write_json(s, m, rel, doc);
}

/* Note control file @rel of @res as not written (error @e), if @e. */
static int note_unwritten(struct npuprof_session_result *res, const char *rel, int e)
{
	size_t len;

	if (!e || !res)
		return e;
	if (!res->unwritten_error)
		res->unwritten_error = e;
	len = strlen(res->unwritten);
	snprintf(res->unwritten + len, sizeof(res->unwritten) - len, "%s%s", len ? " " : "", rel);
	return e;
}

/*
 * At stop, each device of @m's window (@devices: those with data, and
 * those open at start): start_info.<d> if start did not write it, then
 * end_info.<d>, info.json.<d> and sample.json.  Return: the first error.
 */
static int finish_devices(struct npuprof_session *s, struct session_member *m,
			  uint64_t devices, struct npuprof_session_result *res)
{
	char rel[NPUPROF_PROF_SERIES_SIZE];
	int err = 0, e;

	for (int d = 0; d < NPUPROF_DRAIN_MAX_DEVICES; d++) {
		if (!(devices & (1ULL << d)))
			continue;
		for (int k = NPUPROF_CTRL_START_INFO; k <= NPUPROF_CTRL_SAMPLE_JSON; k++) {
			if (k == NPUPROF_CTRL_START_INFO && (m->dev_started & (1ULL << d)))
				continue;
			rel[0] = '\0';
			e = note_unwritten(res, rel,
					   write_device_file(s, m, d, k, rel, sizeof(rel)));
			err = err ? err : e;
		}
	}
	return err;
}

/* end_info, info.json, sample.json of @m; its result in @res (may be NULL). */
int session_finish_member(struct npuprof_session *s, struct session_member *m,
			  const struct npuprof_drain_stats *rst,
			  const struct npuprof_drain_stats *st, struct npuprof_session_result *res)
{
	int err = 0, e;

	if (res)
		memset(res, 0, sizeof(*res));
	release_control_space(m);
	if (m->followed) /* made by the drain before the clocks were sure */
		err = note_unwritten(res, NPUPROF_PROF_START_INFO,
				     write_time_file(s, m, NPUPROF_PROF_START_INFO, 1));
	e = note_unwritten(res, NPUPROF_PROF_END_INFO, write_time_file(s, m, NPUPROF_PROF_END_INFO, 0));
	err = err ? err : e;
	e = note_unwritten(res, NPUPROF_PROF_INFO_JSON, write_info(s, m, rst, st));
	err = err ? err : e;
	e = note_unwritten(res, NPUPROF_PROF_SAMPLE_JSON,
			   write_sample(s, m, NPUPROF_PROF_SAMPLE_JSON));
	err = err ? err : e;
	e = finish_devices(s, m, rst->devices | m->dev_started, res);
	err = err ? err : e;
	if (!res)
		return err;
	res->pid = m->pid;
	res->rank = m->rank;
	snprintf(res->prof_dir, sizeof(res->prof_dir), "%s", m->prof_dir);
	res->api_records = rst->api_records;
	res->task_records = rst->task_records;
	res->loss = rst->loss;
	for (unsigned int cpu = 0; cpu < s->nr_cpu_loss; cpu++)
		if (npuprof_loss_total(&s->cpu_loss[cpu]) &&
		    res->nr_cpu_loss < NPUPROF_RESULT_LOSS_CPUS)
			res->cpu_loss[res->nr_cpu_loss++] = s->cpu_loss[cpu];
	res->write_error = rst->write_error;
	res->skipped_bytes = st->skipped_bytes;
	res->start_unix_ns = (int64_t)s->begin.real.tv_sec * 1000000000 + s->begin.real.tv_nsec;
	res->end_unix_ns = (int64_t)s->end.real.tv_sec * 1000000000 + s->end.real.tv_nsec;
	res->follow_missed = s->follow ? follow_missed(s) : 0;
	res->unrouted = st->unrouted;
	return err;
}

int session_start_member(struct npuprof_session *s, struct session_member *m)
{
	int err = write_time_file(s, m, NPUPROF_PROF_START_INFO, 1);

	if (!err)
		start_devices(s, m);
	return err;
}
