// SPDX-License-Identifier: MIT
/*
 * A capture session (npuprof/session.h): ties npuprof.ko's rings, the BPF
 * runtime-API capture and the drain to one PROF_XXX directory per process
 * per start/stop.  This file keeps the session's lifecycle and members
 * (create, add/remove/follow pids, start, stop, close); choosing and
 * opening the device-task path is task_path.c's, the PROF_XXX directories
 * and the control files around the data are session_prof.c's
 * (session_int.h holds what the three share).
 *
 * Several processes share one session: one npuprof.ko session (its rings
 * and tgid set) and one BPF object (its ring buffers, probes and tgid
 * map), so memory and probe cost do not grow with the number of ranks.
 * The drain routes records by pid into each process's directory.
 *
 * Following a launched job (npuprof_session_follow_pid()): both producers
 * add every process the launcher forks to their filters before it runs, so
 * the session does not know the ranks in advance.  The drain asks for a
 * directory at a new pid's first record (session_new_route(), on the drain
 * thread); such a member exists for one window, and a process without a
 * record in the window gets no directory.  @lock guards the member list
 * against that thread while a window runs.
 *
 * Order matters for "no lost window edge": start_info's clock is read
 * after both producers are enabled and the drain runs, so everything
 * after it is captured; at stop end_info's clock is read before the
 * producers are disabled, and the drain is stopped only after both report
 * that no probe is still writing.
 *
 * Device tasks come through npuprof.ko when /dev/npuprof opens; without
 * the module (never loaded, or refused: Secure Boot, lockdown) they come
 * through the BPF object's task programs on the driver's tracepoints, the
 * same records in the BPF rings (task_path.c).  The BPF object then
 * exists for the tasks alone when no API capture is asked for: its tgid
 * filter selects the processes, without resolving their libascendcl.so.
 *
 * info.json carries host/device clock pairs per device, read through the
 * driver's backend (npuprof/npu_backend.h) right after start and right
 * before stop, so the export can map device counts onto the host clock
 * exactly.  A driver without a clock interface gives none, and the export
 * fits the clocks over the task records instead.
 *
 * A driver whose tracepoints never see a task run (backend device_log:
 * the real Ascend driver) has task begin and end read from each device's
 * log by the device-log reader (npuprof/devlog.h), a third drain source:
 * started before the drain and the producers, so the window's first
 * tasks are logged, and stopped with the producers.  Its clock pairs come
 * from libascend_hal.so when the backend has no clock of its own.
 * The real Ascend driver's tracepoints fire only while per-device procfs
 * switches are on, and name no process: a window switches them on and
 * back (npuprof/trace_switch.h, also after a killed predecessor), and the
 * drain gives their records the pid of their stream's owner
 * (npuprof/stream_owner.h, loaded as the window opens).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <npuprof/ascend_hal.h>
#include <npuprof/clock.h>
#include <npuprof/devlog.h>
#include <npuprof/msg.h>

#include "proc_maps.h"
#include "session_int.h"

_Static_assert(NPUPROF_DRAIN_MAX_ROUTES >= NPUPROF_SESSION_MAX_PIDS,
	       "the drain must route every process of a session");

/* The last npuprof_session_create() failure, when there is no session. */
static __thread struct npuprof_error open_error;

static __thread char open_error_text[PATH_MAX * 2];

/* Note a failure of @stage on @what (may be NULL) for process @pid (0: none). */
void session_set_error(struct npuprof_session *s, enum npuprof_stage stage, int err, pid_t pid,
		       const char *what)
{
	npuprof_error_set(&s->error, stage, err, pid, what);
	npuprof_error_words(&s->error, s->error_text, sizeof(s->error_text));
}

/* Note the runtime-API capture's own account of its failure @err. */
void session_set_acl_error(struct npuprof_session *s, int err, pid_t pid)
{
	s->error = *npuprof_acl_trace_error(s->acl);
	if (s->error.stage == NPUPROF_STAGE_NONE)
		s->error.err = err; /* no memory, before any stage */
	if (!s->error.pid)
		s->error.pid = pid;
	npuprof_error_words(&s->error, s->error_text, sizeof(s->error_text));
}

/* A request that does not fit the session's state: @err, and say so. */
static int refuse(struct npuprof_session *s, int err, pid_t pid)
{
	session_set_error(s, NPUPROF_STAGE_SESSION, err, pid, NULL);
	return err;
}

const struct npuprof_error *npuprof_session_error(const struct npuprof_session *s)
{
	return s ? &s->error : &open_error;
}

const char *npuprof_session_last_error(const struct npuprof_session *s)
{
	return s ? s->error_text : open_error_text;
}

const char *npuprof_session_untraced(const struct npuprof_session *s)
{
	return s->untraced;
}

unsigned int npuprof_session_api_layers(const struct npuprof_session *s)
{
	return s->acl && s->api ? s->layers & npuprof_acl_trace_layers(s->acl) : 0;
}

unsigned int npuprof_session_missing_layers(const struct npuprof_session *s)
{
	return (s->layers & ~npuprof_session_api_layers(s)) | s->missing_layers;
}

int npuprof_session_submits(const struct npuprof_session *s)
{
	return s->submits;
}

pid_t npuprof_session_submits_missing(const struct npuprof_session *s, int *why)
{
	if (why)
		*why = s->submits_why;
	return s->submits_missing;
}

/*
 * @pid (the kernel's @kpid) joins: probe the halSqTaskSend() of its
 * libascend_hal.so when the session records submits.  Not being able to
 * is no failure of the attach: its tasks then come without SUBMIT
 * records, and the first such process is kept to be said once
 * (npuprof_session_submits_missing()).
 */
static void attach_submits(struct npuprof_session *s, pid_t pid)
{
	int err;

	if (!s->submits || !s->acl)
		return;
	err = npuprof_acl_trace_attach_submits(s->acl, pid);
	if (err && !s->submits_missing) {
		s->submits_missing = pid;
		s->submits_why = err;
	}
}

/* A process attached: keep the layers whose library it does not map. */
static void note_missing_layers(struct npuprof_session *s)
{
	s->missing_layers |= npuprof_acl_trace_missing_layers(s->acl);
}

/*
 * Keep the recorded functions the library just attached lacks (the
 * libraries of one job are one file; a second, different one adds its own).
 */
static void note_untraced(struct npuprof_session *s)
{
	const char *more = npuprof_acl_trace_untraced(s->acl);
	size_t n = strlen(s->untraced);

	if (!*more || strstr(s->untraced, more))
		return;
	snprintf(s->untraced + n, sizeof(s->untraced) - n, "%s%s", n ? " " : "", more);
}

const struct npu_host *npuprof_session_host(const struct npuprof_session *s)
{
	return &s->host;
}

int npuprof_session_running(const struct npuprof_session *s)
{
	return s && s->running;
}

static long kring_consume_src(void *obj, npuprof_rec_fn fn, void *ctx)
{
	return npuprof_kring_consume(obj, fn, ctx);
}

static int kring_stats_src(void *obj, unsigned int cpu, uint64_t *w, uint64_t *l)
{
	return npuprof_kring_stats(obj, cpu, w, l);
}

static int kring_skipped_src(void *obj, unsigned int cpu, uint64_t *bytes)
{
	return npuprof_kring_skipped(obj, cpu, bytes);
}

/*
 * Append SESSION_CLOCK_SAMPLES pairs for every device of the host, when its
 * driver's backend can read the clocks.
 */
static void sample_clocks(struct npuprof_session *s)
{
	const struct npu_backend *b = s->host.backend;
	int (*clock)(int device, uint64_t *host_ns, uint64_t *dev_ts) = b ? b->clock : NULL;
	const struct npuprof_ascend_hal *hal;
	unsigned int k;
	int d, i;

	/* the device log's hosts: libascend_hal.so's pairs, when it loads */
	if (!clock && b && b->device_log && !npuprof_ascend_hal_get(&hal, NULL, 0))
		clock = npuprof_ascend_hal_clock;
	if (!clock)
		return;
	for (k = 0; k < s->host.nr_devices; k++) {
		struct npuprof_ctrl_clocks *c;

		d = s->host.devices[k];
		if (d < 0 || d >= SESSION_MAX_DEVICES)
			continue;
		c = &s->clocks[d];
		for (i = 0; i < SESSION_CLOCK_SAMPLES; i++) {
			if (c->n >= 2 * SESSION_CLOCK_SAMPLES ||
			    clock(d, &c->host[c->n], &c->dev[c->n]))
				break;
			c->n++;
		}
	}
}

static long acl_consume_src(void *obj, npuprof_rec_fn fn, void *ctx)
{
	return npuprof_acl_trace_consume(obj, fn, ctx);
}

static int acl_stats_src(void *obj, unsigned int cpu, uint64_t *w, uint64_t *l)
{
	return npuprof_acl_trace_stats(obj, cpu, w, l);
}

static int acl_skipped_src(void *obj, unsigned int cpu, uint64_t *bytes)
{
	return npuprof_acl_trace_skipped(obj, cpu, bytes);
}

const struct npuprof_task_capture_info *
npuprof_session_task_capture(const struct npuprof_session *s)
{
	return &s->tasks;
}

int npuprof_session_probe_path(const struct npuprof_session *s,
			       struct npuprof_acl_probe_path *p)
{
	if (!s->api || !s->acl)
		return -ENOENT;
	npuprof_acl_trace_probe_path(s->acl, p);
	return 0;
}

/*
 * The job rank of @pid: RANK in its environment, as torchrun, mpirun
 * (through its launcher scripts) and CANN's own samples set it; -1 when
 * absent or unreadable.
 */
static int read_rank(pid_t pid)
{
	char buf[32], *end;
	long v;

	if (npuprof_proc_getenv(pid, "RANK", buf, sizeof(buf)))
		return -1;
	v = strtol(buf, &end, 10);
	return end != buf && !*end && v >= 0 && v < INT32_MAX ? (int)v : -1;
}

/*
 * The kernel ends comm with one newline; the name itself may hold any
 * byte but NUL (a newline too), so only that last one is dropped.
 */
static void read_comm(pid_t pid, char *buf, size_t size)
{
	char path[64];
	size_t n;
	FILE *f;

	snprintf(buf, size, "unknown");
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	if (!n) {
		snprintf(buf, size, "unknown");
		return;
	}
	if (buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
}

/* --output: the caller's open directory (dup'd), else opened by its path. */
static int open_output(struct npuprof_session *s)
{
	int fd;

	if (s->opts.output_fd > STDERR_FILENO)
		fd = fcntl(s->opts.output_fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	else
		fd = open(s->output, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;

		session_set_error(s, NPUPROF_STAGE_OUTPUT, err, 0, s->output);
		return err;
	}
	s->out_fd = fd;
	return 0;
}

int npuprof_session_create(const struct npuprof_session_opts *opts, struct npuprof_session **out)
{
	struct npuprof_session *s;
	int err;

	npuprof_error_clear(&open_error);
	open_error_text[0] = '\0';
	s = calloc(1, sizeof(*s));
	if (!s) {
		npuprof_error_set(&open_error, NPUPROF_STAGE_NONE, -ENOMEM, 0, NULL);
		npuprof_error_words(&open_error, open_error_text, sizeof(open_error_text));
		return -ENOMEM;
	}
	pthread_mutex_init(&s->lock, NULL);
	s->opts = *opts;
	s->out_fd = -1;
	s->output = strdup(opts->output);
	s->params_json = strdup(opts->params_json ? opts->params_json : "{}");
	if (!s->output || !s->params_json) {
		err = -ENOMEM;
		session_set_error(s, NPUPROF_STAGE_NONE, err, 0, NULL);
		goto out_close;
	}
	session_find_host(s);
	err = session_open_producers(s);
	if (err)
		goto out_close;
	err = open_output(s);
	if (err)
		goto out_close;
	*out = s;
	return 0;

out_close:
	open_error = s->error;
	memcpy(open_error_text, s->error_text, sizeof(open_error_text));
	npuprof_session_close(s);
	return err;
}

static struct session_member *find_member(struct npuprof_session *s, pid_t pid)
{
	for (unsigned int i = 0; i < s->nr_members; i++)
		if (s->members[i].pid == pid)
			return &s->members[i];
	return NULL;
}

/*
 * The kernel's pid of the process this process's pid namespace calls
 * @pid, into *@kpid: @pid itself in the host's namespace; in another (a
 * container), the host's pid through the BPF task iterator, which the
 * filters and every record use.  Return: 0 or -errno (noted as the
 * session's error when @note).
 */
static int kernel_pid(struct npuprof_session *s, pid_t pid, pid_t *kpid, bool note)
{
	int err;

	*kpid = pid;
	if (npuprof_in_host_pid_ns())
		return 0;
	err = s->acl ? npuprof_acl_trace_host_pid(s->acl, pid, kpid) : -EOPNOTSUPP;
	if (err && note)
		session_set_error(s, NPUPROF_STAGE_PROCESS, err, pid,
				  err == -EOPNOTSUPP
					  ? "its host pid: from a pid namespace of its own it is found with a BPF task iterator, which needs the kernel's BTF and the BPF capture (not with --ascendcl=off on npuprof.ko)"
					  : "its host pid (msprof runs in a pid namespace of its own)");
	return err;
}

/* Take @pid out of both producers' filters (what add_pid put in). */
static void detach_pid(struct npuprof_session *s, pid_t pid)
{
	if (s->kring)
		npuprof_kring_del_tgid(s->kring, pid);
	if (s->acl)
		npuprof_acl_trace_detach_pid(s->acl, pid);
}

int npuprof_session_add_pid(struct npuprof_session *s, pid_t pid)
{
	struct session_member *m;
	char what[96];
	pid_t kpid;
	int err;

	if (pid <= 0) {
		session_set_error(s, NPUPROF_STAGE_PROCESS, -EINVAL, pid, NULL);
		return -EINVAL;
	}
	if (s->running)
		return refuse(s, -EBUSY, pid); /* no window runs, so the drain adds no member */
	if (find_member(s, pid))
		return refuse(s, -EEXIST, pid);
	if (s->nr_members == NPUPROF_SESSION_MAX_PIDS)
		return refuse(s, -E2BIG, pid);
	if (kill(pid, 0) && errno == ESRCH) {
		snprintf(what, sizeof(what), "process %d", (int)pid);
		session_set_error(s, NPUPROF_STAGE_PROCESS, -ESRCH, pid, what);
		return -ESRCH;
	}
	err = kernel_pid(s, pid, &kpid, true);
	if (err)
		return err;
	if (s->kring) {
		err = npuprof_kring_add_tgid(s->kring, kpid);
		if (err) {
			session_set_error(s, NPUPROF_STAGE_MODULE, err, pid,
					  "selecting the process in npuprof.ko");
			return err;
		}
	}
	if (s->acl) {
		/* tasks alone: select the pid, no library to resolve */
		err = s->api ? npuprof_acl_trace_attach_pid_as(s->acl, pid, kpid)
			     : npuprof_acl_trace_select_pid(s->acl, kpid);
		if (err) {
			if (s->api)
				session_set_acl_error(s, err, pid);
			else
				session_set_error(s, NPUPROF_STAGE_ATTACH, err, pid,
						  "selecting the process for the BPF task capture");
			if (s->kring)
				npuprof_kring_del_tgid(s->kring, kpid);
			return err;
		}
		note_untraced(s);
		if (s->api)
			note_missing_layers(s);
		attach_submits(s, pid);
	}
	m = &s->members[s->nr_members++];
	memset(m, 0, sizeof(*m));
	m->dir_fd = -1;
	m->pid = pid;
	m->kpid = kpid;
	m->rank = read_rank(pid);
	read_comm(pid, m->comm, sizeof(m->comm));
	npuprof_proc_id_read(pid, NULL, &m->id);
	return 0;
}

static void drop_member(struct npuprof_session *s, struct session_member *m)
{
	unsigned int i = (unsigned int)(m - s->members);

	memmove(m, m + 1, (s->nr_members - i - 1) * sizeof(*m));
	s->nr_members--;
}

/* After a window: members that left, or that only the window had, go. */
static void drop_window_members(struct npuprof_session *s)
{
	for (unsigned int i = s->nr_members; i-- > 0;)
		if (s->members[i].leaving || s->members[i].followed)
			drop_member(s, &s->members[i]);
}

int npuprof_session_remove_pid(struct npuprof_session *s, pid_t pid)
{
	struct session_member *m;
	pid_t kpid = pid;
	int err = 0;

	pthread_mutex_lock(&s->lock);
	m = find_member(s, pid);
	if (m)
		kpid = m->kpid;
	if (!m || m->leaving) {
		err = -ENOENT;
	} else if (s->running && m->in_window) {
		m->leaving = true; /* its data so far is saved at stop */
	} else {
		drop_member(s, m);
	}
	pthread_mutex_unlock(&s->lock);
	if (err)
		return refuse(s, err, pid);
	/* a followed rank keeps its filter entries: they leave at its exit */
	if (!s->follow)
		detach_pid(s, kpid);
	return 0;
}

int npuprof_session_discard_pid(struct npuprof_session *s, pid_t pid)
{
	struct session_member *m;
	int err = 0;

	pthread_mutex_lock(&s->lock);
	m = find_member(s, pid);
	if (!m || !s->running || !m->in_window)
		err = -EINVAL;
	else
		m->discard = true;
	pthread_mutex_unlock(&s->lock);
	return err ? refuse(s, err, pid) : 0;
}

int npuprof_session_probe_file(struct npuprof_session *s, const char *path)
{
	int err;

	if (!s->api)
		return 0;
	err = npuprof_acl_trace_attach_file(s->acl, path);
	if (err)
		session_set_acl_error(s, err, 0);
	else
		note_untraced(s);
	return err;
}

int npuprof_session_probe_submits_file(struct npuprof_session *s, const char *path)
{
	int err;

	if (!s->submits || !s->acl)
		return 0;
	err = npuprof_acl_trace_attach_submits_file(s->acl, path);
	if (err)
		session_set_acl_error(s, err, 0);
	else
		npuprof_ascend_hal_hint(path); /* the job's, for the device log too */
	return err;
}

int npuprof_session_probe_pid(struct npuprof_session *s, pid_t pid)
{
	pid_t kpid;
	int err;

	if (!s->api)
		return 0;
	err = kernel_pid(s, pid, &kpid, true);
	if (err)
		return err;
	err = npuprof_acl_trace_attach_pid_as(s->acl, pid, kpid);
	if (err) {
		session_set_acl_error(s, err, pid);
	} else {
		note_untraced(s);
		note_missing_layers(s);
		attach_submits(s, pid);
	}
	return err;
}

int npuprof_session_follow_pid(struct npuprof_session *s, pid_t pid)
{
	int err = 0;

	if (pid <= 0) {
		session_set_error(s, NPUPROF_STAGE_PROCESS, -EINVAL, pid, NULL);
		return -EINVAL;
	}
	if (s->running)
		return refuse(s, -EBUSY, pid);
	if (!npuprof_in_host_pid_ns()) { /* the forks' numbers are the kernel's */
		session_set_error(s, NPUPROF_STAGE_PROCESS, -EOPNOTSUPP, pid,
				  "following a job from a pid namespace of its own");
		return -EOPNOTSUPP;
	}
	if (s->kring) {
		err = npuprof_kring_add_tgid_follow(s->kring, pid);
		if (err) {
			session_set_error(s, NPUPROF_STAGE_MODULE, err, pid,
					  "following the launched job in npuprof.ko");
			return err;
		}
	}
	if (s->acl) {
		err = npuprof_acl_trace_follow_pid(s->acl, pid);
		if (err) {
			session_set_error(s, NPUPROF_STAGE_ATTACH, err, pid,
					  "following the launched job with BPF (fork and exit tracepoints)");
			if (s->kring)
				npuprof_kring_del_tgid(s->kring, pid);
			return err;
		}
	}
	s->follow = true;
	return 0;
}

int npuprof_session_pid_owner(struct npuprof_session *s, pid_t pid, pid_t *owner)
{
	pid_t kpid;

	*owner = 0;
	if (!s->kring)
		return -ENODEV;
	if (kernel_pid(s, pid, &kpid, false))
		return -ESRCH;
	return npuprof_kring_tgid_owner(s->kring, kpid, owner);
}

unsigned int npuprof_session_window_dirs(const struct npuprof_session *s)
{
	unsigned int i, n = 0;

	if (!s)
		return 0;
	pthread_mutex_lock((pthread_mutex_t *)&s->lock);
	for (i = 0; i < s->nr_members; i++)
		n += s->running && s->members[i].in_window && !s->members[i].discard;
	pthread_mutex_unlock((pthread_mutex_t *)&s->lock);
	return n;
}

const char *npuprof_session_prof_dir(const struct npuprof_session *s, pid_t pid)
{
	const char *dir = NULL;

	if (!s)
		return NULL;
	pthread_mutex_lock((pthread_mutex_t *)&s->lock);
	for (unsigned int i = 0; i < s->nr_members; i++)
		if (s->members[i].pid == pid && s->members[i].in_window &&
		    !s->members[i].discard)
			dir = s->members[i].prof_dir; /* stays until the stop */
	pthread_mutex_unlock((pthread_mutex_t *)&s->lock);
	return dir;
}

static void read_capture_clocks(struct npuprof_ctrl_edge *c)
{
	c->mono_ns = npuprof_clock_ns(CLOCK_MONOTONIC);
	c->mono_raw_ns = npuprof_clock_ns(CLOCK_MONOTONIC_RAW);
	clock_gettime(CLOCK_REALTIME, &c->real);
}

/*
 * The drain met a pid of the followed job with no directory (drain thread):
 * make it a member of this window.  Its start_info is written at stop,
 * when the window's clocks are surely read.
 */
static int session_new_route(void *ctx, uint32_t pid, char *dir, size_t size, int *dir_fd)
{
	struct npuprof_session *s = ctx;
	struct session_member *m;
	int err;

	pthread_mutex_lock(&s->lock);
	if (s->nr_members == NPUPROF_SESSION_MAX_PIDS) {
		pthread_mutex_unlock(&s->lock);
		return -E2BIG;
	}
	m = &s->members[s->nr_members];
	memset(m, 0, sizeof(*m));
	m->pid = (pid_t)pid;
	m->kpid = m->pid; /* following: msprof runs in the host's pid namespace */
	m->rank = read_rank(m->pid);
	read_comm(m->pid, m->comm, sizeof(m->comm));
	npuprof_proc_id_read(m->pid, NULL, &m->id);
	m->followed = true;
	err = session_make_prof_dir(s, m, false);
	if (!err) {
		s->nr_members++;
		snprintf(dir, size, "%s", m->prof_dir);
		*dir_fd = m->dir_fd;
	}
	pthread_mutex_unlock(&s->lock);
	return err;
}

/* A per-CPU loss table as wide as the widest source, and room for every
 * ring's counters (config.rings), made once. */
static int alloc_cpu_loss(struct npuprof_session *s)
{
	unsigned int k = s->kring ? npuprof_kring_nr_cpus(s->kring) : 0;
	unsigned int b = s->acl ? npuprof_acl_trace_nr_cpus(s->acl) : 0;

	if (s->cpu_loss && s->rings)
		return 0;
	free(s->cpu_loss);
	free(s->rings);
	s->nr_cpu_loss = k > b ? k : b;
	s->cpu_loss = calloc(s->nr_cpu_loss ? s->nr_cpu_loss : 1, sizeof(*s->cpu_loss));
	s->nr_rings = k + b;
	if (s->host.backend && s->host.backend->device_log) /* a ring per device */
		s->nr_rings += NPUPROF_DEVLOG_MAX_DEVICES;
	s->rings = calloc(s->nr_rings ? s->nr_rings : 1, sizeof(*s->rings));
	return s->cpu_loss && s->rings ? 0 : -ENOMEM;
}

/*
 * The devices whose log a window reads: those the members hold open, or
 * when none holds one yet (a launched job, before it sets a device) every
 * device of the host.  A device another job uses is left to its owner's
 * profiler whenever we know which ones are ours.
 */
static unsigned int window_devices(struct npuprof_session *s, int *out)
{
	uint64_t held = 0, m;
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->nr_members; i++)
		if (!npu_pid_devices(s->members[i].pid, NULL, &m))
			held |= m;
	for (unsigned int k = 0; k < s->host.nr_devices; k++) {
		int d = s->host.devices[k];

		if (d >= 0 && d < NPUPROF_DEVLOG_MAX_DEVICES && (!held || (held & (1ULL << d))))
			out[n++] = d;
	}
	return n;
}

/*
 * Tell the HAL loader where a member's own libascend_hal.so is (through
 * /proc/<pid>/root, so also for a job in a container): the library of
 * the driver the job talks to, found also when msprof runs without the
 * driver's library path.
 */
static void hint_hal_library(struct npuprof_session *s)
{
	char path[PATH_MAX + 32];
	struct proc_map m;

	for (unsigned int i = 0; i < s->nr_members; i++) {
		if (proc_maps_find(s->members[i].pid, NPUPROF_HAL_LIB_NAME, &m) || m.deleted)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/root%s", (int)s->members[i].pid, m.path);
		npuprof_ascend_hal_hint(path);
		return;
	}
}

/* The window's device-log reader, when the host's driver needs one. */
static int start_devlog(struct npuprof_session *s)
{
	const struct npu_backend *b = s->host.backend;
	int devs[NPUPROF_DEVLOG_MAX_DEVICES];
	struct npuprof_devlog_opts o = { .devices = devs, .windowed = 1 };
	const char *expand;

	npuprof_devlog_free(s->devlog); /* the last window's */
	s->devlog = NULL;
	if (!b || !b->device_log || !s->opts.task_time)
		return 0;
	o.nr_devices = window_devices(s, devs);
	hint_hal_library(s);
	/*
	 * How the log packs stream ids: the runtime's 32k-stream mode, which
	 * a reader outside the app cannot learn from the driver
	 * (ascend-driver.md 4.3, question 7), is said by the environment.
	 */
	expand = getenv("NPUPROF_STREAM_EXPAND");
	o.expanded = expand && !strcmp(expand, "1");
	return npuprof_devlog_start(&o, &s->devlog);
}

/*
 * The driver's tracepoint switches on for the window, when its backend has
 * them (the Ascend driver's trace_enable files) and device tasks are
 * captured; restored at stop, discard, a failed start and close.  Their
 * absence (an older driver) or a refusal is said once per session: no
 * queue or completion records then, the rest of the capture goes on.
 */
static void session_trace_switch_on(struct npuprof_session *s)
{
	const struct npu_backend *b = s->host.backend;
	int n;

	if (!b || !b->trace_enable || !s->opts.task_time || !s->host.nr_devices)
		return;
	n = npuprof_trace_switch_on(&s->trsw, b, s->host.devices, s->host.nr_devices, NULL);
	if (n >= 0 || s->trsw_said)
		return;
	s->trsw_said = true;
	if (n == -ENOENT)
		npuprof_info("driver %s: no tracepoint switches (/proc/trs_chan/dev<N>-ts0/trace_enable): "
			     "no queue or completion events (QUEUED/CQE) are recorded", b->name);
	else
		npuprof_warn("driver %s: cannot switch its tracepoints on (%s; root only): "
			     "no queue or completion events (QUEUED/CQE) are recorded",
			     b->name, strerror(-n));
}

/* The switches back as they were before the window. */
static void session_trace_switch_off(struct npuprof_session *s)
{
	int err = npuprof_trace_switch_restore(&s->trsw);

	if (err)
		npuprof_warn("driver %s: restoring its tracepoint switches failed: %s",
			     s->host.backend ? s->host.backend->name : "?", strerror(-err));
}

/* The stream owners of every device as the window opens (device_log drivers). */
static void load_stream_owners(struct npuprof_session *s)
{
	const struct npu_backend *b = s->host.backend;

	if (!b || !b->device_log)
		return;
	if (!s->owners)
		s->owners = npuprof_stream_owners_new(NULL);
	for (unsigned int i = 0; s->owners && i < s->host.nr_devices; i++)
		npuprof_stream_owners_load(s->owners, s->host.devices[i]);
}

/* One drain for the session, routing each member's records to its dir. */
static int start_drain(struct npuprof_session *s)
{
	struct npuprof_drain_route routes[NPUPROF_SESSION_MAX_PIDS];
	struct npuprof_drain_source srcs[3];
	struct npuprof_drain_config cfg = { .routes = routes,
					    .nr_routes = s->nr_members,
					    .storage_limit = s->opts.storage_limit,
					    .writer = s->opts.writer };
	unsigned int n = 0, i;

	if (alloc_cpu_loss(s))
		return -ENOMEM;
	cfg.cpu_loss = s->cpu_loss;
	cfg.nr_cpu_loss = s->nr_cpu_loss;
	cfg.rings = s->rings;
	cfg.nr_rings = s->nr_rings;
	load_stream_owners(s);
	cfg.owners = s->owners;

	if (s->follow) {
		cfg.new_route = session_new_route;
		cfg.route_ctx = s;
	}

	for (i = 0; i < s->nr_members; i++)
		routes[i] = (struct npuprof_drain_route){ (uint32_t)s->members[i].kpid,
							  s->members[i].prof_dir,
							  s->members[i].dir_fd };

	if (s->kring) {
		srcs[n++] = (struct npuprof_drain_source){
			.name = "npuprof.ko",
			.source = NPUPROF_SRC_KMOD,
			.fd = npuprof_kring_fd(s->kring),
			.nr_cpus = npuprof_kring_nr_cpus(s->kring),
			.obj = s->kring,
			.consume = kring_consume_src,
			.stats = kring_stats_src,
			.skipped = kring_skipped_src,
		};
	}
	if (s->acl) {
		srcs[n++] = (struct npuprof_drain_source){
			.name = "bpf",
			.source = NPUPROF_SRC_BPF,
			.fd = npuprof_acl_trace_fd(s->acl),
			.nr_cpus = npuprof_acl_trace_nr_cpus(s->acl),
			.obj = s->acl,
			.consume = acl_consume_src,
			.stats = acl_stats_src,
			.skipped = acl_skipped_src,
		};
	}
	if (s->devlog)
		npuprof_devlog_source(s->devlog, &srcs[n++]);
	return npuprof_drain_start(&cfg, srcs, n, &s->drain);
}

/*
 * Disable both producers, npuprof.ko first (right after end_info's clock
 * was read), then the uprobes, so the calls that launched the last tasks
 * are still recorded (unless one returns only after the uprobes' grace
 * period), then the device-log reader, which reads what the devices still
 * hold and stops their channels.  Returns once none can still write.  A
 * channel's prof_stop that fails loses nothing already read: it stays in
 * the reader's stop_code, not the session's error.
 */
static int disable_producers(struct npuprof_session *s)
{
	int err = 0, e;

	if (s->kring) {
		e = npuprof_kring_disable(s->kring);
		if (e) {
			session_set_error(s, NPUPROF_STAGE_MODULE, e, 0,
					  "disabling npuprof.ko capture");
			err = e;
		}
	}
	if (s->acl) {
		e = npuprof_acl_trace_enable(s->acl, 0);
		if (e && !err) {
			session_set_acl_error(s, e, 0);
			err = e;
		}
	}
	return err;
}

/*
 * The device log to the window's end at @hi_ns (end_info's clockMonotonic;
 * 0 for a window given up), read to its last record and its channels
 * released.
 */
static void stop_devlog(struct npuprof_session *s, uint64_t hi_ns)
{
	if (!s->devlog)
		return;
	npuprof_devlog_window(s->devlog, s->begin.mono_ns, hi_ns);
	npuprof_devlog_stop(s->devlog);
}

/*
 * Enable both producers, or neither: a failure undoes the first.  The
 * uprobes go first (their enable also waits out an RCU grace period) and
 * npuprof.ko last, right before start_info's clock is read: a device task
 * inside the window then almost always finds the API call that launched
 * it (not when that call entered in the microseconds before the uprobes
 * turned on and submitted after npuprof.ko did).
 */
static int enable_producers(struct npuprof_session *s)
{
	int err;

	if (s->acl) {
		err = npuprof_acl_trace_enable(s->acl, 1);
		if (err) {
			/* a refused uprobe: NPUPROF_STAGE_ATTACH */
			session_set_acl_error(s, err, 0);
			return err;
		}
	}
	if (s->kring) {
		err = npuprof_kring_enable(s->kring);
		if (err) {
			session_set_error(s, NPUPROF_STAGE_MODULE, err, 0,
					  "enabling npuprof.ko capture");
			if (s->acl)
				npuprof_acl_trace_enable(s->acl, 0);
			return err;
		}
	}
	return 0;
}

int npuprof_session_start(struct npuprof_session *s)
{
	unsigned int i;
	int err = 0;

	if (s->running)
		return refuse(s, -EALREADY, 0);
	if (!s->nr_members && !s->follow)
		return refuse(s, -ENOENT, 0);
	memset(s->clocks, 0, sizeof(s->clocks));
	clock_gettime(CLOCK_REALTIME, &s->begin_real);
	for (i = 0; !err && i < s->nr_members; i++)
		err = session_make_prof_dir(s, &s->members[i], true);
	if (err)
		goto out_remove;
	/*
	 * An earlier window's leftovers (a failed start, a drain that gave
	 * up) never open this one: both sources drop them before the drain
	 * runs and could copy them in.
	 */
	if (s->kring)
		s->stale_bytes = npuprof_kring_discard(s->kring);
	if (s->acl) {
		err = npuprof_acl_trace_discard(s->acl);
		if (err) {
			session_set_acl_error(s, err, 0);
			goto out_remove;
		}
	}
	err = start_devlog(s);
	if (err) {
		session_set_error(s, NPUPROF_STAGE_CAPTURE, err, 0, "starting the device-log reader");
		goto out_remove;
	}
	err = start_drain(s);
	if (err) {
		session_set_error(s, NPUPROF_STAGE_CAPTURE, err, 0, "starting the drain");
		goto out_stop_devlog;
	}
	session_trace_switch_on(s);
	s->begin.outer_ns = npuprof_clock_ns(CLOCK_MONOTONIC);
	err = enable_producers(s);
	if (err)
		goto out_stop_drain;
	read_capture_clocks(&s->begin);
	/*
	 * The device log runs already; its begins and ends are the window's
	 * from the moment every producer is on (start_info's clockMonotonic):
	 * a task run while the uprobes were still being placed would have no
	 * submit.  (A record later than this clock read cannot have reached
	 * the reader before the store: the HAL delivers in batches of
	 * milliseconds.)
	 */
	if (s->devlog)
		npuprof_devlog_window(s->devlog, s->begin.mono_ns, UINT64_MAX);
	sample_clocks(s);
	pthread_mutex_lock(&s->lock); /* the drain may add followed members */
	for (i = 0; !err && i < s->nr_members; i++) {
		if (s->members[i].followed) /* theirs are written at stop */
			continue;
		err = session_start_member(s, &s->members[i]);
	}
	pthread_mutex_unlock(&s->lock);
	if (err)
		goto out_disable;
	s->running = 1;
	return 0;

out_disable:
	disable_producers(s);
out_stop_drain:
	stop_devlog(s, 0);
	session_trace_switch_off(s);
	npuprof_drain_stop(s->drain, NULL, NULL);
	s->drain = NULL;
out_stop_devlog:
	npuprof_devlog_free(s->devlog);
	s->devlog = NULL;
out_remove:
	session_remove_prof_dirs(s);
	drop_window_members(s);
	return err;
}

const struct npuprof_devlog_dev *npuprof_session_device_log(const struct npuprof_session *s,
							    unsigned int *n)
{
	*n = 0;
	return s->devlog ? npuprof_devlog_devices(s->devlog, n) : NULL;
}

/* "taskTiming" of one device whose begin/end come from its log (@l, NULL: not read). */
static void log_timing(struct npuprof_ctrl_timing *t, const struct npuprof_devlog_dev *l)
{
	t->submit = "halSqTaskSend uprobe";
	if (!l) {
		t->begin_end = "none: not read (the window's processes hold other devices)";
		t->outcome = "notRead";
		return;
	}
	t->begin_end = l->text;
	t->outcome = npuprof_devlog_outcome_key(l->outcome);
	t->has_log = l->outcome == NPUPROF_DEVLOG_OWNED;
	t->begins = l->begins;
	t->ends = l->ends;
	t->skipped = l->skipped;
	t->gaps = l->gaps;
	t->ring_drops = l->ring_drops;
	t->unattributed = l->unattributed;
	t->outside = l->outside;
}

/*
 * info.json "taskTiming" of every device of the host, at stop: where its
 * submits and its task begin/end came from (the device log's outcome, or
 * the driver's tracepoints).  None without task capture or a known driver.
 */
static void note_task_timing(struct npuprof_session *s)
{
	const struct npu_backend *b = s->host.backend;
	const struct npuprof_devlog_dev *log;
	unsigned int nlog = 0;

	s->nr_timing = 0;
	if (!b || s->tasks.path == NPUPROF_TASK_PATH_NONE)
		return;
	log = npuprof_session_device_log(s, &nlog);
	for (unsigned int k = 0; k < s->host.nr_devices && s->nr_timing < SESSION_MAX_DEVICES; k++) {
		struct npuprof_ctrl_timing *t = &s->timing[s->nr_timing++];
		const struct npuprof_devlog_dev *l = NULL;

		memset(t, 0, sizeof(*t));
		t->device = s->host.devices[k];
		if (!b->device_log) {
			t->submit = t->begin_end = "driver tracepoints";
			t->outcome = "tracepoints";
			continue;
		}
		for (unsigned int i = 0; i < nlog; i++)
			if (log[i].device == t->device)
				l = &log[i];
		log_timing(t, l);
	}
}

/* The drain's stats of @pid's route (zeros when it had none). */
static const struct npuprof_drain_stats *route_stats(const struct npuprof_drain_stats *rst,
						      pid_t pid)
{
	static const struct npuprof_drain_stats none;

	for (unsigned int i = 0; i < NPUPROF_DRAIN_MAX_ROUTES; i++)
		if (rst[i].pid == (uint32_t)pid) /* unused entries have pid 0 */
			return &rst[i];
	return &none;
}

int npuprof_session_stop(struct npuprof_session *s, struct npuprof_session_result *res,
			 unsigned int nres)
{
	struct npuprof_drain_stats st = { 0 }, rst[NPUPROF_DRAIN_MAX_ROUTES];
	unsigned int i;
	int err, e;

	if (!s->running)
		return refuse(s, -EINVAL, 0);
	memset(rst, 0, sizeof(rst));
	sample_clocks(s);
	read_capture_clocks(&s->end);
	/*
	 * The window's end for the device log is end_info's clockMonotonic,
	 * read while every producer is still on: the reader goes on reading
	 * while the uprobes are removed (hundreds of ms), and a task run then
	 * would have no submit.
	 */
	if (s->devlog)
		npuprof_devlog_window(s->devlog, s->begin.mono_ns, s->end.mono_ns);
	err = disable_producers(s);
	s->end.outer_ns = npuprof_clock_ns(CLOCK_MONOTONIC);
	stop_devlog(s, s->end.mono_ns);
	session_trace_switch_off(s);
	e = npuprof_drain_stop(s->drain, &st, rst);
	s->drain = NULL;
	s->running = 0;
	note_task_timing(s);
	if (st.unattributed)
		npuprof_warn("%llu device task record(s) named no process and their stream's "
			     "owner was not found (/proc/trs_core/ts_inst/dev<N>-ts0/stream): kept as "
			     "device-only tasks",
			     (unsigned long long)st.unattributed);
	if (e && !err) {
		session_set_error(s, NPUPROF_STAGE_OUTPUT, e, 0, "writing the PROF data");
		err = e;
	}
	/* the drain has stopped: nothing else touches the members now */
	for (i = 0; i < s->nr_members; i++) {
		struct session_member *m = &s->members[i];
		struct npuprof_session_result *r = res && i < nres ? &res[i] : NULL;

		if (r)
			*r = (struct npuprof_session_result){ .pid = m->pid, .discarded = 1 };
		if (!m->in_window)
			continue;
		if (m->discard) {
			session_remove_prof_dir(s, m);
			continue;
		}
		e = session_finish_member(s, m, route_stats(rst, m->kpid), &st, r);
		err = err ? err : e;
		session_close_prof_dir(m);
	}
	drop_window_members(s);
	return err;
}

int npuprof_session_discard(struct npuprof_session *s)
{
	if (!s->running)
		return refuse(s, -EINVAL, 0);
	disable_producers(s);
	stop_devlog(s, 0);
	session_trace_switch_off(s);
	npuprof_drain_stop(s->drain, NULL, NULL);
	s->drain = NULL;
	s->running = 0;
	session_remove_prof_dirs(s);
	drop_window_members(s);
	return 0;
}

void npuprof_session_close(struct npuprof_session *s)
{
	if (!s)
		return;
	if (s->running)
		npuprof_session_stop(s, NULL, 0);
	npuprof_devlog_free(s->devlog);
	session_trace_switch_off(s); /* a no-op unless a window left them on */
	npuprof_stream_owners_free(s->owners);
	if (s->acl)
		npuprof_acl_trace_close(s->acl);
	if (s->kring)
		npuprof_kring_close(s->kring);
	if (s->out_fd >= 0)
		close(s->out_fd);
	free(s->output);
	free(s->params_json);
	free(s->cpu_loss);
	free(s->rings);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

