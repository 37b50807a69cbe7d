// SPDX-License-Identifier: MIT
/*
 * A capture session (npuprof/session.h): ties npuprof.ko's rings, the BPF
 * runtime-API capture and the drain to one PROF_XXX directory per process
 * per start/stop, and writes CANN's control files around the data.
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
 * same records in the BPF rings (open_task_path()).  The BPF object then
 * exists for the tasks alone when no API capture is asked for: its tgid
 * filter selects the processes, without resolving their libascendcl.so.
 *
 * info.json carries host/device clock pairs per device, read through the
 * driver's backend (npuprof/npu_backend.h) right after start and right
 * before stop, so the export can map device counts onto the host clock
 * exactly.  A driver without a clock interface gives none, and the export
 * fits the clocks over the task records instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <npuprof/acl_trace.h>
#include <npuprof/clock.h>
#include <npuprof/drain.h>
#include <npuprof/kring.h>
#include <npuprof/loss_json.h>
#include <npuprof/name_text.h>
#include <npuprof/npu_backend.h>
#include <npuprof/prof_fs.h>
#include <npuprof/prof_layout.h>
#include <npuprof/proc_id.h>
#include <npuprof/record.h>
#include <npuprof/session.h>

/*
 * Asked per CPU; a whole number of pages on any kernel, so not rounded
 * (npuprof_acl_trace_ring_size()); info.json "ringBytes" says what was made.
 */
#define SESSION_BPF_RING_BYTES (1u << 20)

_Static_assert(NPUPROF_DRAIN_MAX_ROUTES >= NPUPROF_SESSION_MAX_PIDS,
	       "the drain must route every process of a session");
#define SESSION_MAX_DEVICES 64

#define SESSION_CLOCK_SAMPLES 3 /* pairs read at start and again at stop */

/*
 * Disk space kept for the control files written at stop (end_info,
 * info.json, sample.json): a full disk would otherwise take them with the
 * last slices, and with them the loss counts that say what is missing.
 * The file host/.control_reserve holds it from start to stop; after a
 * crash it stays behind (the export ignores it).
 */
#define SESSION_CONTROL_RESERVE (64u << 10) /* bytes */
#define SESSION_RESERVE_FILE NPUPROF_PROF_HOST_DIR "/.control_reserve"

/* Host/device clock pairs of one device, from the driver. */
struct clock_pairs {
	unsigned int n;
	uint64_t host[2 * SESSION_CLOCK_SAMPLES];
	uint64_t dev[2 * SESSION_CLOCK_SAMPLES];
};

/*
 * The clocks of one capture edge, read together, and the outer bound of
 * the edge: at start, CLOCK_MONOTONIC before the first producer was
 * enabled (no record is older); at stop, after the last was disabled (no
 * record is newer).  mono_ns is the inner bound: at start every event from
 * it on is captured, at stop every event up to it.
 */
struct capture_clocks {
	uint64_t outer_ns;    /* CLOCK_MONOTONIC: no record beyond it */
	uint64_t mono_ns;     /* CLOCK_MONOTONIC: the clock of every record */
	uint64_t mono_raw_ns; /* CLOCK_MONOTONIC_RAW, as CANN records it */
	struct timespec real; /* wall clock */
};

/* One process of the session. */
struct session_member {
	pid_t pid;
	char comm[64];	/* read when added: the app may be gone by stop */
	int rank;	/* RANK from its environment (launchers set it), -1 if none */
	bool in_window; /* has a PROF_XXX directory in the running window */
	bool discard;	/* remove that directory at stop (the app refused) */
	bool leaving;	/* detached during the window: dropped at stop */
	bool followed;	/* joined by following a launcher, for this window only */
	uint64_t dev_started; /* bit d: device_<d>/start_info.<d> is written */
	struct npuprof_proc_id id; /* read when added; start_ticks 0 if unreadable */
	pid_t kpid;	/* the kernel's (host's) pid: @pid unless we run in a pid namespace */
	char prof_dir[PATH_MAX];
	char prof_name[128]; /* PROF_XXX: prof_dir's last component */
	int dir_fd;	/* prof_dir, open while in the window; -1 otherwise */
};

struct npuprof_session {
	struct npuprof_session_opts opts;
	char *output;
	int out_fd; /* --output, open: every PROF_XXX is made below it (prof_fs.h) */
	char *params_json;
	struct session_member members[NPUPROF_SESSION_MAX_PIDS];
	unsigned int nr_members;
	pthread_mutex_t lock; /* members, while the drain may add one */
	bool follow;	      /* a launcher is followed: members come from records */
	uint64_t stale_bytes; /* npuprof.ko bytes an earlier window left, dropped */
	struct npuprof_kring *kring;
	struct npuprof_acl_trace *acl;
	bool api; /* runtime-API capture (uprobes) asked for */
	struct npuprof_task_capture_info tasks;
	struct npuprof_drain *drain;
	struct npuprof_loss *cpu_loss; /* the drain's per-CPU losses */
	unsigned int nr_cpu_loss;
	struct npuprof_drain_ring *rings; /* the drain's ring counters at stop */
	unsigned int nr_rings;
	int running;
	struct npuprof_error error;	       /* the last failure, as values */
	char error_text[PATH_MAX * 2];	       /* the same in words, for logs */
	char untraced[NPUPROF_ERROR_FUNCS_MAX]; /* ACL functions the library lacks */
	unsigned int layers;	     /* enum npuprof_api_layer bits probed */
	unsigned int missing_layers; /* of those, layers a process attached maps no library of */
	struct capture_clocks begin, end;
	struct timespec begin_real;
	struct clock_pairs clocks[SESSION_MAX_DEVICES];
	struct npu_host host; /* the NPU driver and devices, found at create */
};

/* The last npuprof_session_create() failure, when there is no session. */
static __thread struct npuprof_error open_error;
static __thread char open_error_text[PATH_MAX * 2];

/* Note a failure of @stage on @what (may be NULL) for process @pid (0: none). */
static void set_error(struct npuprof_session *s, enum npuprof_stage stage, int err, pid_t pid,
		      const char *what)
{
	npuprof_error_set(&s->error, stage, err, pid, what);
	npuprof_error_words(&s->error, s->error_text, sizeof(s->error_text));
}

/* Note the runtime-API capture's own account of its failure @err. */
static void set_acl_error(struct npuprof_session *s, int err, pid_t pid)
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
	set_error(s, NPUPROF_STAGE_SESSION, err, pid, NULL);
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
	unsigned int k;
	int d, i;

	if (!b || !b->clock)
		return;
	for (k = 0; k < s->host.nr_devices; k++) {
		struct clock_pairs *c;

		d = s->host.devices[k];
		if (d < 0 || d >= SESSION_MAX_DEVICES)
			continue;
		c = &s->clocks[d];
		for (i = 0; i < SESSION_CLOCK_SAMPLES; i++) {
			if (c->n >= 2 * SESSION_CLOCK_SAMPLES ||
			    b->clock(d, &c->host[c->n], &c->dev[c->n]))
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

/*
 * The task capture mode: @s->opts.task_capture, or when that is AUTO the
 * environment's NPUPROF_TASK_CAPTURE (kmod, bpf, auto; unset: auto).
 * Return: an enum npuprof_task_capture, or -EINVAL for another value.
 */
static int task_capture_mode(struct npuprof_session *s)
{
	const char *env = getenv("NPUPROF_TASK_CAPTURE");
	char what[160];

	if (s->opts.task_capture != NPUPROF_TASK_CAPTURE_AUTO)
		return s->opts.task_capture;
	if (!env || !*env || !strcmp(env, "auto"))
		return NPUPROF_TASK_CAPTURE_AUTO;
	if (!strcmp(env, "kmod"))
		return NPUPROF_TASK_CAPTURE_KMOD;
	if (!strcmp(env, "bpf"))
		return NPUPROF_TASK_CAPTURE_BPF;
	snprintf(what, sizeof(what), "NPUPROF_TASK_CAPTURE=%s: not kmod, bpf or auto", env);
	set_error(s, NPUPROF_STAGE_SESSION, -EINVAL, 0, what);
	return -EINVAL;
}

/*
 * The kernel's lockdown mode into @mode ("integrity", "confidentiality"),
 * or "" when off or unknown: /sys/kernel/security/lockdown names the
 * active mode in brackets.
 */
static void lockdown_mode(char *mode, size_t size)
{
	char text[128], *open_b, *close_b;
	size_t n;
	FILE *f;

	mode[0] = '\0';
	f = fopen("/sys/kernel/security/lockdown", "r");
	if (!f)
		return;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	open_b = strchr(text, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (!close_b || !strncmp(open_b + 1, "none]", 5))
		return;
	*close_b = '\0';
	snprintf(mode, size, "%s", open_b + 1);
}

/*
 * Append to @buf what keeps unsigned modules out, when it applies:
 * "; kernel lockdown: <mode>" and "; Secure Boot" (the SecureBoot EFI
 * variable: 4 bytes of attributes, then 1 when enabled).
 */
static void add_module_barriers(char *buf, size_t size)
{
	unsigned char var[5];
	char mode[64];
	size_t n;
	FILE *f;

	lockdown_mode(mode, sizeof(mode));
	if (mode[0]) {
		n = strlen(buf);
		snprintf(buf + n, size - n, "; kernel lockdown: %s", mode);
	}
	f = fopen("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c", "r");
	if (f) {
		if (fread(var, 1, sizeof(var), f) == sizeof(var) && var[4] == 1) {
			n = strlen(buf);
			snprintf(buf + n, size - n, "; Secure Boot");
		}
		fclose(f);
	}
}

/* Why npuprof.ko is not used: @err of opening its device @dev. */
static void kmod_missing_reason(struct npuprof_session *s, const char *dev, int err)
{
	char *r = s->tasks.reason;
	size_t n;

	if (err == -ENOENT)
		snprintf(r, sizeof(s->tasks.reason), "npuprof.ko not loaded (no %s", dev);
	else
		snprintf(r, sizeof(s->tasks.reason), "npuprof.ko not usable (%s: %s", dev,
			 strerror(-err));
	add_module_barriers(r, sizeof(s->tasks.reason));
	n = strlen(r);
	snprintf(r + n, sizeof(s->tasks.reason) - n, ")");
}

/*
 * npuprof.ko path: which of the driver's tracepoints the module found
 * (NPUPROF_IOC_LIST_TP), as the BPF path reports its attachments.  The
 * driver is the host's backend, or, when sysfs named none, the backend
 * the module found tracepoints of.  A module older than ABI 1.3 lists
 * nothing: tasks.list_err says so and no driver is named.
 */
static void kmod_tracepoints(struct npuprof_session *s)
{
	const struct npu_backend *b = s->host.backend;
	struct npuprof_tp_list list;
	unsigned int i, k;
	int err;

	err = npuprof_kring_list_tp(s->kring, &list);
	if (err) {
		s->tasks.list_err = err;
		return;
	}
	if (!b && list.count)
		b = npu_backend_find(list.tp[0].backend);
	if (!b)
		return;
	s->tasks.driver = b->name;
	for (i = 0; i < NPU_TP_EVENTS; i++) {
		s->tasks.tp_names[i] = b->tp_names[i];
		s->tasks.tp_status[i] = -ENOENT;
		for (k = 0; k < list.count; k++)
			if (!strcmp(list.tp[k].name, b->tp_names[i]))
				s->tasks.tp_status[i] = 0;
	}
}

/*
 * Pick the task path: npuprof.ko's rings if its device opens (AUTO, KMOD),
 * else BPF (AUTO after a missing module, or BPF asked for).  Only picks and
 * opens npuprof.ko; the BPF side is loaded by open_producers().
 */
static int open_task_path(struct npuprof_session *s)
{
	const char *dev = s->opts.kdev ? s->opts.kdev : "/dev/npuprof";
	int mode = task_capture_mode(s), err;

	if (mode < 0)
		return mode;
	if (mode == NPUPROF_TASK_CAPTURE_BPF) {
		s->tasks.path = NPUPROF_TASK_PATH_BPF;
		snprintf(s->tasks.reason, sizeof(s->tasks.reason), "%s",
			 s->opts.task_capture ? "BPF capture asked for" : "NPUPROF_TASK_CAPTURE=bpf");
		return 0;
	}
	err = npuprof_kring_open(s->opts.kdev, &s->kring);
	if (!err) {
		s->tasks.path = NPUPROF_TASK_PATH_KMOD;
		snprintf(s->tasks.reason, sizeof(s->tasks.reason), "npuprof.ko loaded");
		kmod_tracepoints(s);
		return 0;
	}
	if (mode == NPUPROF_TASK_CAPTURE_KMOD || (err != -ENOENT && err != -ENODEV && err != -ENXIO)) {
		set_error(s, NPUPROF_STAGE_MODULE, err, 0, dev);
		return err;
	}
	s->tasks.path = NPUPROF_TASK_PATH_BPF;
	kmod_missing_reason(s, dev, err);
	return 0;
}

/* BPF path: attach the task programs to the driver's tracepoints. */
static int attach_task_programs(struct npuprof_session *s, const struct npu_backend *drv)
{
	int n;

	s->tasks.driver = drv->name;
	memcpy(s->tasks.tp_names, drv->tp_names, sizeof(s->tasks.tp_names));
	n = npuprof_acl_trace_attach_tasks(s->acl, drv->tp_names, s->tasks.tp_status);
	if (n < 0) {
		set_error(s, NPUPROF_STAGE_ATTACH, n, 0, "the BPF task programs");
		return n;
	}
	return 0;
}

/*
 * The known driver whose task tracepoints this kernel has, judged by its
 * submit tracepoint's "__tracepoint_<name>" symbol in /proc/kallsyms (a
 * module's tracepoints are listed there while it is loaded; names only,
 * no address needed).  For a driver sysfs does not name: a device node
 * with no bound parent device (a misc device registered without a parent)
 * has no driver/module link.  The names carry the driver's prefix, so one
 * cannot be taken for another's.  NULL when none is there.
 */
static const struct npu_backend *backend_by_tracepoint(void)
{
	const struct npu_backend *const *list, *found = NULL;
	unsigned int n, i;
	char line[512], sym[256];
	FILE *f;

	list = npu_backend_list(&n);
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %255s", sym) != 1 || strncmp(sym, "__tracepoint_", 13))
			continue;
		for (i = 0; i < n && !found; i++)
			if (list[i]->tp_names[0] && !strcmp(sym + 13, list[i]->tp_names[0]))
				found = list[i];
	}
	fclose(f);
	return found;
}

/*
 * The NPU driver and devices: as npu_host_detect() finds them through
 * sysfs, or, when devices exist but sysfs names no module for them, the
 * known driver whose tracepoints the kernel has.  An unreadable /dev
 * leaves no devices: capture still runs, without clock pairs.
 */
static void find_host(struct npuprof_session *s)
{
	npu_host_detect(&s->host, NULL, NULL);
	if (!s->host.backend && s->host.nr_devices && !s->host.owner[0])
		s->host.backend = backend_by_tracepoint();
}

/*
 * npuprof.ko's rings and the BPF object, shared by every member.  The BPF
 * task programs need the tracepoints of the host's driver (find_host());
 * with none known the BPF path captures no task (and
 * npuprof_session_task_capture() has no driver).
 */
static int open_producers(struct npuprof_session *s)
{
	const struct npu_backend *drv = s->host.backend;
	struct npuprof_acl_trace_opts ao = { .ring_bytes = SESSION_BPF_RING_BYTES,
					     .follow = s->opts.follow };
	bool bpf_tasks;
	int err;

	s->api = s->opts.ascendcl || s->opts.runtime_api;
	s->layers = (s->opts.ascendcl ? NPUPROF_LAYER_ACL : 0) |
		    (s->opts.runtime_api ? NPUPROF_LAYER_RUNTIME : 0);
	ao.layers = s->layers;
	if (s->opts.task_time) {
		err = open_task_path(s);
		if (err)
			return err;
	}
	bpf_tasks = s->tasks.path == NPUPROF_TASK_PATH_BPF && drv;
	if (!s->api && !bpf_tasks)
		return 0;
	if (bpf_tasks)
		ao.task_layout = &drv->layout;
	err = npuprof_acl_trace_open_opts(&ao, &s->acl);
	if (err) {
		char what[NPUPROF_TASK_REASON_LEN + 192], mode[64];
		size_t n;

		snprintf(what, sizeof(what), "%s%s%s", bpf_tasks ? s->tasks.reason : "",
			 bpf_tasks ? ", and loading the BPF task programs failed" : "",
			 s->api ? (bpf_tasks ? " (with the runtime-API probes)"
					     : "loading the BPF runtime-API probes") : "");
		/* lockdown=confidentiality refuses BPF reads of kernel memory */
		lockdown_mode(mode, sizeof(mode));
		n = strlen(what);
		if (!strcmp(mode, "confidentiality"))
			snprintf(what + n, sizeof(what) - n,
				 " (kernel lockdown: confidentiality forbids BPF programs reading kernel memory, which capture needs)");
		set_error(s, NPUPROF_STAGE_BPF_LOAD, err, 0, what);
		return err;
	}
	return bpf_tasks ? attach_task_programs(s, drv) : 0;
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
	char path[64], buf[65536], *p, *end;
	ssize_t n;
	long v;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	for (p = buf; p < buf + n; p += strlen(p) + 1) {
		if (strncmp(p, "RANK=", 5))
			continue;
		v = strtol(p + 5, &end, 10);
		return end != p + 5 && !*end && v >= 0 && v < INT32_MAX ? (int)v : -1;
	}
	return -1;
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

		set_error(s, NPUPROF_STAGE_OUTPUT, err, 0, s->output);
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
		set_error(s, NPUPROF_STAGE_NONE, err, 0, NULL);
		goto out_close;
	}
	find_host(s);
	err = open_producers(s);
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
		set_error(s, NPUPROF_STAGE_PROCESS, err, pid,
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
		set_error(s, NPUPROF_STAGE_PROCESS, -EINVAL, pid, NULL);
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
		set_error(s, NPUPROF_STAGE_PROCESS, -ESRCH, pid, what);
		return -ESRCH;
	}
	err = kernel_pid(s, pid, &kpid, true);
	if (err)
		return err;
	if (s->kring) {
		err = npuprof_kring_add_tgid(s->kring, kpid);
		if (err) {
			set_error(s, NPUPROF_STAGE_MODULE, err, pid, "selecting the process in npuprof.ko");
			return err;
		}
	}
	if (s->acl) {
		/* tasks alone: select the pid, no library to resolve */
		err = s->api ? npuprof_acl_trace_attach_pid_as(s->acl, pid, kpid)
			     : npuprof_acl_trace_select_pid(s->acl, kpid);
		if (err) {
			if (s->api)
				set_acl_error(s, err, pid);
			else
				set_error(s, NPUPROF_STAGE_ATTACH, err, pid,
					  "selecting the process for the BPF task capture");
			if (s->kring)
				npuprof_kring_del_tgid(s->kring, kpid);
			return err;
		}
		note_untraced(s);
		if (s->api)
			note_missing_layers(s);
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
		set_acl_error(s, err, 0);
	else
		note_untraced(s);
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
		set_acl_error(s, err, pid);
	} else {
		note_untraced(s);
		note_missing_layers(s);
	}
	return err;
}

int npuprof_session_follow_pid(struct npuprof_session *s, pid_t pid)
{
	int err = 0;

	if (pid <= 0) {
		set_error(s, NPUPROF_STAGE_PROCESS, -EINVAL, pid, NULL);
		return -EINVAL;
	}
	if (s->running)
		return refuse(s, -EBUSY, pid);
	if (!npuprof_in_host_pid_ns()) { /* the forks' numbers are the kernel's */
		set_error(s, NPUPROF_STAGE_PROCESS, -EOPNOTSUPP, pid,
			  "following a job from a pid namespace of its own");
		return -EOPNOTSUPP;
	}
	if (s->kring) {
		err = npuprof_kring_add_tgid_follow(s->kring, pid);
		if (err) {
			set_error(s, NPUPROF_STAGE_MODULE, err, pid, "following the launched job in npuprof.ko");
			return err;
		}
	}
	if (s->acl) {
		err = npuprof_acl_trace_follow_pid(s->acl, pid);
		if (err) {
			set_error(s, NPUPROF_STAGE_ATTACH, err, pid,
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
		set_error(s, NPUPROF_STAGE_OUTPUT, err, m->pid, path);
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

static void read_capture_clocks(struct capture_clocks *c)
{
	c->mono_ns = npuprof_clock_ns(CLOCK_MONOTONIC);
	c->mono_raw_ns = npuprof_clock_ns(CLOCK_MONOTONIC_RAW);
	clock_gettime(CLOCK_REALTIME, &c->real);
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

static int make_prof_dir(struct npuprof_session *s, struct session_member *m, bool report);
static void drop_window_members(struct npuprof_session *s);
static void start_devices(struct npuprof_session *s, struct session_member *m);

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
	err = make_prof_dir(s, m, false);
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
	s->rings = calloc(s->nr_rings ? s->nr_rings : 1, sizeof(*s->rings));
	return s->cpu_loss && s->rings ? 0 : -ENOMEM;
}

/* One drain for the session, routing each member's records to its dir. */
static int start_drain(struct npuprof_session *s)
{
	struct npuprof_drain_route routes[NPUPROF_SESSION_MAX_PIDS];
	struct npuprof_drain_source srcs[2];
	struct npuprof_drain_config cfg = { .routes = routes,
					    .nr_routes = s->nr_members,
					    .storage_limit = s->opts.storage_limit };
	unsigned int n = 0, i;

	if (alloc_cpu_loss(s))
		return -ENOMEM;
	cfg.cpu_loss = s->cpu_loss;
	cfg.nr_cpu_loss = s->nr_cpu_loss;
	cfg.rings = s->rings;
	cfg.nr_rings = s->nr_rings;

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
		};
	}
	return npuprof_drain_start(&cfg, srcs, n, &s->drain);
}

/*
 * Disable both producers, npuprof.ko first (right after end_info's clock
 * was read), then the uprobes, so the calls that launched the last tasks
 * are still recorded (unless one returns only after the uprobes' grace
 * period).  Returns once neither can still write.
 */
static int disable_producers(struct npuprof_session *s)
{
	int err = 0, e;

	if (s->kring) {
		e = npuprof_kring_disable(s->kring);
		if (e) {
			set_error(s, NPUPROF_STAGE_MODULE, e, 0, "disabling npuprof.ko capture");
			err = e;
		}
	}
	if (s->acl) {
		e = npuprof_acl_trace_enable(s->acl, 0);
		if (e && !err) {
			set_acl_error(s, e, 0);
			err = e;
		}
	}
	return err;
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
			set_acl_error(s, err, 0); /* a refused uprobe: NPUPROF_STAGE_ATTACH */
			return err;
		}
	}
	if (s->kring) {
		err = npuprof_kring_enable(s->kring);
		if (err) {
			set_error(s, NPUPROF_STAGE_MODULE, err, 0, "enabling npuprof.ko capture");
			if (s->acl)
				npuprof_acl_trace_enable(s->acl, 0);
			return err;
		}
	}
	return 0;
}

/* The window is over for @m: its PROF_XXX is no longer written. */
static void close_prof_dir(struct session_member *m)
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
static void remove_prof_dir(struct npuprof_session *s, struct session_member *m)
{
	if (m->prof_name[0] && m->dir_fd >= 0)
		npuprof_prof_remove(s->out_fd, m->prof_name);
	close_prof_dir(m);
	m->prof_dir[0] = '\0';
	m->prof_name[0] = '\0';
}

static void remove_prof_dirs(struct npuprof_session *s)
{
	for (unsigned int i = 0; i < s->nr_members; i++)
		remove_prof_dir(s, &s->members[i]);
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
static int make_prof_dir(struct npuprof_session *s, struct session_member *m, bool report)
{
	int fd, data_fd;

	m->dir_fd = -1;
	fd = make_prof_name(s, m);
	snprintf(m->prof_dir, sizeof(m->prof_dir), "%s/%s", s->output, m->prof_name);
	data_fd = fd < 0 ? fd : npuprof_prof_mkdirs(fd, NPUPROF_PROF_HOST_DATA);
	if (data_fd < 0) {
		if (report)
			set_error(s, NPUPROF_STAGE_OUTPUT, data_fd, m->pid, m->prof_dir);
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
		err = make_prof_dir(s, &s->members[i], true);
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
			set_acl_error(s, err, 0);
			goto out_remove;
		}
	}
	err = start_drain(s);
	if (err) {
		set_error(s, NPUPROF_STAGE_CAPTURE, err, 0, "starting the drain");
		goto out_remove;
	}
	s->begin.outer_ns = npuprof_clock_ns(CLOCK_MONOTONIC);
	err = enable_producers(s);
	if (err)
		goto out_stop_drain;
	read_capture_clocks(&s->begin);
	sample_clocks(s);
	pthread_mutex_lock(&s->lock); /* the drain may add followed members */
	for (i = 0; !err && i < s->nr_members; i++) {
		if (s->members[i].followed) /* theirs are written at stop */
			continue;
		err = write_time_file(s, &s->members[i], NPUPROF_PROF_START_INFO, 1);
		if (!err)
			start_devices(s, &s->members[i]);
	}
	pthread_mutex_unlock(&s->lock);
	if (err)
		goto out_disable;
	s->running = 1;
	return 0;

out_disable:
	disable_producers(s);
out_stop_drain:
	npuprof_drain_stop(s->drain, NULL, NULL);
	s->drain = NULL;
out_remove:
	remove_prof_dirs(s);
	drop_window_members(s);
	return err;
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
		set_error(s, NPUPROF_STAGE_OUTPUT, fd, m->pid, m->prof_dir);
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
static int finish_member(struct npuprof_session *s, struct session_member *m,
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

/* After a window: members that left, or that only the window had, go. */
static void drop_window_members(struct npuprof_session *s)
{
	for (unsigned int i = s->nr_members; i-- > 0;)
		if (s->members[i].leaving || s->members[i].followed)
			drop_member(s, &s->members[i]);
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
	err = disable_producers(s);
	s->end.outer_ns = npuprof_clock_ns(CLOCK_MONOTONIC);
	e = npuprof_drain_stop(s->drain, &st, rst);
	s->drain = NULL;
	s->running = 0;
	if (e && !err) {
		set_error(s, NPUPROF_STAGE_OUTPUT, e, 0, "writing the PROF data");
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
			remove_prof_dir(s, m);
			continue;
		}
		e = finish_member(s, m, route_stats(rst, m->kpid), &st, r);
		err = err ? err : e;
		close_prof_dir(m);
	}
	drop_window_members(s);
	return err;
}

int npuprof_session_discard(struct npuprof_session *s)
{
	if (!s->running)
		return refuse(s, -EINVAL, 0);
	disable_producers(s);
	npuprof_drain_stop(s->drain, NULL, NULL);
	s->drain = NULL;
	s->running = 0;
	remove_prof_dirs(s);
	drop_window_members(s);
	return 0;
}

void npuprof_session_close(struct npuprof_session *s)
{
	if (!s)
		return;
	if (s->running)
		npuprof_session_stop(s, NULL, 0);
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
