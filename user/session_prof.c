// SPDX-License-Identifier: MIT
/*
 * The session's PROF_XXX directories (session_int.h): making one per
 * member and window below --output under a fresh name, the space held
 * back for the control files, removing a discarded one, and writing the
 * control files at start and stop: host/start_info, end_info, info.json,
 * sample.json and each device's start_info.<d>, end_info.<d>,
 * info.json.<d>, sample.json.  This file gathers what the session
 * recorded (its clocks, the drain's counts, the rings, the uprobes, the
 * driver); what each file contains and how it is written is
 * npuprof/prof_control.h's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/prof_control.h>
#include <npuprof/prof_fs.h>
#include <npuprof/prof_layout.h>
#include <npuprof/writer_probe.h>

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
 * Write @doc (stolen) to the new control file <@m's prof_dir>/<rel>
 * (npuprof_ctrl_write()); a failure is noted as the session's error.
 */
static int write_json(struct npuprof_session *s, const struct session_member *m, const char *rel,
		      json_t *doc)
{
	char path[PATH_MAX + 64];
	int err;

	if (!doc)
		return -ENOMEM;
	err = npuprof_ctrl_write(m->dir_fd, rel, doc);
	if (err) {
		snprintf(path, sizeof(path), "%s/%s", m->prof_dir, rel);
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
 * start_info / end_info (npuprof_ctrl_edge_json()) of the window's start
 * (@begin 1) or stop (0) at @rel.  All its clocks were read together
 * after enabling (start) or before disabling (stop): every event between
 * the two clockMonotonic values is in the data.
 */
static int write_time_file(struct npuprof_session *s, const struct session_member *m,
			   const char *rel, int begin)
{
	return write_json(s, m, rel, npuprof_ctrl_edge_json(begin ? &s->begin : &s->end, begin));
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
 * Who @m is, as both its info.json documents say: its pid, comm and rank,
 * the host's name (into @host, @size bytes), and its pid in each pid
 * namespace.  Seen from a pid namespace of our own, procfs shows the pids
 * from ours down: the host's (kpid) comes first, the levels between are
 * unknown.
 */
static void member_identity(const struct npuprof_session *s, const struct session_member *m,
			    char *host, size_t size, struct npuprof_ctrl_identity *id)
{
	memset(id, 0, sizeof(*id));
	host[0] = '\0';
	gethostname(host, size - 1);
	id->pid = m->pid;
	id->name = m->comm;
	id->name_len = sizeof(m->comm);
	id->host = host;
	id->host_len = size;
	id->platform = s->host.backend ? s->host.backend->name : "unknown";
	id->start_ticks = m->id.start_ticks;
	if (m->kpid != m->pid || !npuprof_in_host_pid_ns())
		id->ns_pid[id->nr_ns_pid++] = m->kpid;
	for (unsigned int i = 0; i < m->id.nr_nspid && id->nr_ns_pid < NPUPROF_CTRL_NSPID_MAX; i++)
		id->ns_pid[id->nr_ns_pid++] = m->id.nspid[i];
	id->rank = m->rank;
}

/*
 * info.json "driver": the backend that recognised the NPU driver, the
 * module sysfs names as the device nodes' owner, whether the driver gave
 * clock pairs, and the path device tasks took and why, as msprof said at
 * start.
 */
static void driver_facts(const struct npuprof_session *s, struct npuprof_ctrl_driver *d)
{
	const struct npu_backend *b = s->host.backend;

	d->backend = b ? b->name : NULL;
	d->module = s->host.owner;
	d->driver_clock = b && b->clock;
	d->tasks = s->tasks.path == NPUPROF_TASK_PATH_KMOD  ? NPUPROF_CTRL_TASKS_KMOD
		   : s->tasks.path == NPUPROF_TASK_PATH_BPF ? NPUPROF_CTRL_TASKS_BPF
							    : NPUPROF_CTRL_TASKS_NONE;
	d->reason = s->tasks.reason;
	d->timing = s->timing;
	d->nr_timing = s->nr_timing;
	/* the device log's hosts read their pairs through libascend_hal.so */
	for (unsigned int i = 0; b && b->device_log && !d->driver_clock && i < SESSION_MAX_DEVICES; i++)
		d->driver_clock = s->clocks[i].n;
}

/*
 * info.json "drain" of @m: what the drain saved in its directory (@rst),
 * and what the session's shared rings lost or dropped (@st, the stale
 * leftovers dropped at start), shared by the members in the window
 * (@shared, room for every member).
 */
static void drain_facts(const struct npuprof_session *s, const struct npuprof_drain_stats *rst,
			const struct npuprof_drain_stats *st, pid_t *shared,
			struct npuprof_ctrl_drain *d)
{
	*d = (struct npuprof_ctrl_drain){
		.records = rst->records,
		.api_records = rst->api_records,
		.task_records = rst->task_records,
		.raw_bytes = rst->raw_bytes,
		.file_bytes = rst->file_bytes,
		.dropped = rst->dropped,
		.skipped_bytes = st->skipped_bytes,
		.foreign = st->foreign,
		.unrouted = st->unrouted,
		.stale_kmod_bytes = s->stale_bytes,
		.stale_bpf_records = s->acl ? npuprof_acl_trace_stale(s->acl) : 0,
		.write_error = rst->write_error,
		.shared = shared,
		.writer = npuprof_writer_name(st->writer),
	};
	for (unsigned int i = 0; i < s->nr_members; i++)
		if (s->members[i].in_window)
			shared[d->nr_shared++] = s->members[i].pid;
}

/*
 * What info.json says beyond @m's identity: clock pairs, devices with
 * data, the rings' counters (@rings: room for st->nr_rings, as the drain
 * read them at stop) and sizes, the drain's account (@shared: room for
 * every member), losses by cause (npuprof/loss_json.h), the driver,
 * --storage-limit's ageing, how the uprobes worked, the API levels
 * captured, the followed job's misses and the ACL functions the library
 * lacks.
 */
static void info_facts(struct npuprof_session *s, const struct npuprof_drain_stats *rst,
		       const struct npuprof_drain_stats *st, struct npuprof_ctrl_ring *rings,
		       pid_t *shared, struct npuprof_ctrl_info *info)
{
	unsigned int layers = npuprof_session_api_layers(s);
	struct npuprof_acl_probe_path p;

	memset(info, 0, sizeof(*info));
	info->clocks = s->clocks;
	info->nr_clocks = SESSION_MAX_DEVICES;
	info->devices = rst->devices;
	info->has_kmod = s->kring;
	info->has_bpf = s->acl;
	info->has_devlog = s->devlog;
	for (unsigned int i = 0; i < st->nr_rings; i++)
		rings[i] = (struct npuprof_ctrl_ring){ s->rings[i].source, s->rings[i].cpu,
						       s->rings[i].written, s->rings[i].lost };
	info->rings = rings;
	info->nr_rings = st->nr_rings;
	info->kmod_ring_bytes = s->kring ? npuprof_kring_data_size(s->kring) : 0;
	info->bpf_ring_bytes = s->acl ? npuprof_acl_trace_ring_bytes(s->acl) : 0;
	drain_facts(s, rst, st, shared, &info->drain);
	info->loss = &rst->loss;
	info->cpu_loss = s->cpu_loss;
	info->nr_cpu_loss = s->nr_cpu_loss;
	driver_facts(s, &info->driver);
	info->storage_limit = s->opts.storage_limit;
	info->aged_slices = rst->aged_slices;
	info->aged_bytes = rst->aged_bytes;
	info->aged_records = rst->aged_records;
	info->has_uprobes = s->api && s->acl;
	if (info->has_uprobes) {
		npuprof_acl_trace_probe_path(s->acl, &p);
		info->uprobe_multi = p.multi;
		info->task_storage = p.task_storage;
		info->cookies = p.cookies;
		info->forced = p.forced;
	}
	info->level_acl = layers & NPUPROF_LAYER_ACL;
	info->level_runtime = layers & NPUPROF_LAYER_RUNTIME;
	info->has_follow = s->follow;
	info->follow_missed = s->follow ? follow_missed(s) : 0;
	info->untraced = s->untraced;
	info->api_off = s->opts.api_off;
}

static int write_info(struct npuprof_session *s, const struct session_member *m,
		      const struct npuprof_drain_stats *rst, const struct npuprof_drain_stats *st)
{
	struct npuprof_ctrl_ring *rings = calloc(st->nr_rings ? st->nr_rings : 1, sizeof(*rings));
	pid_t shared[NPUPROF_SESSION_MAX_PIDS];
	struct npuprof_ctrl_identity id;
	struct npuprof_ctrl_info info;
	char host[256];
	int err;

	if (!rings)
		return -ENOMEM;
	member_identity(s, m, host, sizeof(host), &id);
	info_facts(s, rst, st, rings, shared, &info);
	err = write_json(s, m, NPUPROF_PROF_INFO_JSON, npuprof_ctrl_info_json(&id, &info));
	free(rings);
	return err;
}

/* sample.json at @rel: the capture's parameters, as msprof handed them. */
static int write_sample(struct npuprof_session *s, const struct session_member *m, const char *rel)
{
	return write_json(s, m, rel, npuprof_ctrl_sample_json(s->params_json));
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
 * info.json.<d>: what is known of device @d (npuprof_ctrl_device_info_json():
 * CANN's keys, its own clock pairs, the driver).
 */
static int write_device_info(struct npuprof_session *s, const struct session_member *m, int d,
			     const char *rel)
{
	struct npuprof_ctrl_identity id;
	struct npuprof_ctrl_driver drv;
	char host[256];
	const struct npuprof_ctrl_clocks *clocks = d < SESSION_MAX_DEVICES ? &s->clocks[d] : NULL;

	member_identity(s, m, host, sizeof(host), &id);
	driver_facts(s, &drv);
	return write_json(s, m, rel, npuprof_ctrl_device_info_json(&id, d, clocks, &drv));
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
