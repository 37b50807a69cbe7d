// SPDX-License-Identifier: MIT
/*
 * msprof --dynamic=on (see dynamic.h): pick launch or attach mode, set up
 * the run and its capture session, bring each app's server under the
 * prompt, run the prompt, and in launch mode wait for the app.
 *
 * Attach mode opens the session and selects each pid before it connects:
 * a process another msprof already profiles is refused at once, naming
 * that msprof, and its server is never disturbed.  With several pids each
 * one's trouble is named and the others go on.  Launch mode keeps looking
 * for servers the job's other ranks open under their own pids; a job that
 * can have no server (it cannot bind its socket in $HOME) is captured
 * from the kernel side, as attach mode captures a process without one.
 *
 * The capture itself (npuprof.ko rings, BPF uprobes, PROF_XXX writing) is
 * session.h's; starting the job is launch.c's, talking to a server
 * dynprof_client.c's and app mode app_mode.c's.  This file sequences them
 * and words the session's failures.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/acl_trace.h>
#include <npuprof/clock.h>
#include <npuprof/drain.h>
#include <npuprof/writer_probe.h>
#include <dynprof_wire.h>
#include <npuprof/devlog.h>
#include <npuprof/msg.h>
#include <npuprof/name_text.h>
#include <npuprof/npu_backend.h>
#include <npuprof/prof_fs.h>
#include <npuprof/session.h>

#include "cmdloop.h"
#include "dynamic.h"
#include "dynprof_client.h"
#include "error_words.h"
#include "launch.h"
#include "result.h"
#include "server_find.h"

const struct msprof_session_ops msprof_session_ops_real = {
	.start = msprof_session_start,
	.running = npuprof_session_running,
	.stop = npuprof_session_stop,
	.discard = npuprof_session_discard,
	.discard_pid = npuprof_session_discard_pid,
	.remove_pid = npuprof_session_remove_pid,
	.window_dirs = npuprof_session_window_dirs,
	.prof_dir = npuprof_session_prof_dir,
	.error = npuprof_session_error,
	.missing_layers = npuprof_session_missing_layers,
	.submits_missing = npuprof_session_submits_missing,
};

static const char *const task_time_names[] = {
	[MSPROF_TASK_TIME_OFF] = "off",
	[MSPROF_TASK_TIME_L0] = "l0",
	[MSPROF_TASK_TIME_L1] = "l1",
};

char *msprof_params_json(const struct msprof_options *o, pid_t msprof_pid)
{
	const char *on_off[] = { "off", "on" };
	char limit[24] = "";
	json_t *root;
	char *text;

	if (o->storage_limit_mb)
		snprintf(limit, sizeof(limit), "%uMB", o->storage_limit_mb);

	/* paths are bytes: as text, so a path that is not UTF-8 still runs */
	root = json_pack("{s:o, s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:s}",
			 "result_dir", npuprof_name_json(o->output_abs, strlen(o->output_abs)),
			 "profiling_mode", "dynamic",
			 "acl", on_off[!!o->ascendcl],
			 "runtimeApi", on_off[!!o->runtime_api],
			 "taskTime", on_off[o->task_time != MSPROF_TASK_TIME_OFF],
			 "prof_level", task_time_names[o->task_time],
			 "storageLimit", limit,
			 "msprofBinPid", (int)msprof_pid,
			 "devices", "all");
	if (!root)
		return NULL;
	if (o->app_argv && json_object_set_new(root, "app",
					      npuprof_name_json(o->app_argv[0], strlen(o->app_argv[0])))) {
		json_decref(root);
		return NULL;
	}
	text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(root);
	return text;
}

void msprof_warn_untraced(struct msprof_dyn *d)
{
	const char *untraced = npuprof_session_untraced(d->s);
	char words[NPUPROF_ERROR_FUNCS_MAX + 256];

	msprof_warn_missing_layers(d);
	if (!*untraced || d->untraced_warned)
		return;
	d->untraced_warned = 1;
	msprof_untraced_words(untraced, words, sizeof(words));
	npuprof_warn("%s", words);
}

/* Say why @pid cannot be profiled, from the session's last failure. */
static void say_cannot_profile(struct msprof_dyn *d, pid_t pid)
{
	const struct npuprof_error *e = npuprof_session_error(d->s);
	char words[PATH_MAX + 512];
	pid_t owner = 0;

	if (e->stage == NPUPROF_STAGE_MODULE && e->err == -EBUSY && d->s &&
	    !npuprof_session_pid_owner(d->s, pid, &owner) && owner > 0) {
		npuprof_err("cannot profile pid %d: msprof (pid %d) already profiles it: one msprof per process; quit that one first",
			    (int)pid, (int)owner);
		return;
	}
	msprof_error_words(e, pid, words, sizeof(words));
	if (pid > 0)
		npuprof_err("cannot profile pid %d: %s", (int)pid, words);
	else /* the session itself: no process is to blame */
		npuprof_err("cannot profile: %s", words);
}

void msprof_say_task_path(const struct npuprof_task_capture_info *tc, const struct npu_host *h)
{
	const bool kmod = tc->path == NPUPROF_TASK_PATH_KMOD;
	const char *how = kmod ? "found by npuprof.ko" : "in this kernel";
	const struct npu_backend *drv;
	char used[NPU_TP_EVENTS * 80] = "";
	unsigned int i;
	size_t n;

	if (tc->path != NPUPROF_TASK_PATH_KMOD && tc->path != NPUPROF_TASK_PATH_BPF)
		return;
	if (!tc->driver) {
		if (kmod)
			npuprof_info("capturing device tasks through npuprof.ko%s",
				     tc->list_err == -ENOTTY
					     ? " (a module older than this msprof: it does not list its tracepoints)"
					     : "");
		else
			npuprof_info("%s; capturing device tasks through BPF", tc->reason);
		/*
		 * A known driver goes unnamed only when a module older than
		 * ABI 1.3 cannot list its tracepoints: it attaches them anyway.
		 */
		if (h->nr_devices && !h->backend)
			npuprof_warn("the NPU device nodes belong to %s, a driver npuprof has no "
				     "backend for: its tracepoints are unknown, so no device task is "
				     "captured", h->owner[0] ? h->owner : "an unknown module");
		else if (!kmod || !tc->list_err)
			npuprof_warn("no NPU device (/dev/davinci<N>) found: no device task is "
				     "captured");
		return;
	}
	for (i = 0; i < NPU_TP_EVENTS; i++) {
		if (tc->tp_status[i] || !tc->tp_names[i])
			continue;
		n = strlen(used);
		snprintf(used + n, sizeof(used) - n, "%s%s", n ? ", " : "", tc->tp_names[i]);
	}
	if (kmod)
		npuprof_info("capturing device tasks through npuprof.ko: driver %s, tracepoints %s",
			     tc->driver, used[0] ? used : "none");
	else
		npuprof_info("%s; capturing device tasks through BPF: driver %s, tracepoints %s",
			     tc->reason, tc->driver, used[0] ? used : "none");
	/*
	 * A driver whose tracepoints only add queue and completion events
	 * (device_log: the real Ascend driver's trs_chan/trs_core) may lack
	 * them on an older release: a normal outcome, said once.
	 */
	drv = npu_backend_find(tc->driver);
	if (drv && drv->device_log && !used[0]) {
		npuprof_info("driver %s: no trs_chan/trs_core tracepoints %s: no queue or completion "
			     "events (QUEUED/CQE) are recorded", tc->driver, how);
		return;
	}
	for (i = 0; i < NPU_TP_EVENTS; i++) {
		if (!tc->tp_status[i] || !tc->tp_names[i])
			continue; /* attached, or an event the driver has no tracepoint for */
		if (tc->tp_status[i] == -ENOENT)
			npuprof_warn("driver %s: no tracepoint %s %s (driver not loaded?): "
				     "its device task events are not captured",
				     tc->driver, tc->tp_names[i] ? tc->tp_names[i] : "?", how);
		else
			npuprof_warn("driver %s: tracepoint %s: cannot attach (%s): "
				     "its device task events are not captured",
				     tc->driver, tc->tp_names[i] ? tc->tp_names[i] : "?",
				     strerror(-tc->tp_status[i]));
	}
}

/* What msprof last said of each device's log (msprof_say_device_log()). */
static char log_said[NPUPROF_DEVLOG_MAX_DEVICES][192];

/* "device 2" or "devices 0, 1, 3": the devices of @dl with @pick set whose text is @text. */
static void devices_with(const struct npuprof_devlog_dev *dl, const bool *pick, unsigned int n,
			 const char *text, char *buf, size_t size)
{
	unsigned int k = 0;
	size_t len;

	for (unsigned int i = 0; i < n; i++)
		k += pick[i] && !strcmp(dl[i].text, text);
	snprintf(buf, size, "device%s", k > 1 ? "s" : "");
	for (unsigned int i = 0, first = 1; i < n; i++) {
		if (!pick[i] || strcmp(dl[i].text, text))
			continue;
		len = strlen(buf);
		snprintf(buf + len, size - len, "%s%d", first ? " " : ", ", dl[i].device);
		first = 0;
	}
}

void msprof_say_device_log(const struct npuprof_session *s)
{
	unsigned int n;
	const struct npuprof_devlog_dev *dl = npuprof_session_device_log(s, &n);

	msprof_say_device_log_of(dl, n);
}

void msprof_say_device_log_of(const struct npuprof_devlog_dev *dl, unsigned int n)
{
	char who[NPUPROF_DEVLOG_MAX_DEVICES * 5];
	bool fresh[NPUPROF_DEVLOG_MAX_DEVICES] = { false };

	n = n < NPUPROF_DEVLOG_MAX_DEVICES ? n : NPUPROF_DEVLOG_MAX_DEVICES;
	for (unsigned int i = 0; i < n; i++) /* not said yet, or said otherwise */
		fresh[i] = dl[i].device >= 0 && dl[i].device < NPUPROF_DEVLOG_MAX_DEVICES &&
			   strcmp(log_said[dl[i].device], dl[i].text);
	for (unsigned int i = 0; i < n; i++) {
		const char *text = dl[i].text;

		if (!fresh[i])
			continue;
		devices_with(dl, fresh, n, text, who, sizeof(who));
		if (dl[i].outcome == NPUPROF_DEVLOG_OWNED)
			npuprof_info("%s: task begin/end from the %s", who, text);
		else
			npuprof_warn("%s: no task begin/end times: %s; host-side timing only "
				     "(submits and API calls)",
				     who, strncmp(text, "none: ", 6) ? text : text + 6);
		for (unsigned int j = n; j-- > i;) {
			if (!fresh[j] || strcmp(dl[j].text, text))
				continue;
			fresh[j] = false;
			snprintf(log_said[dl[j].device], sizeof(log_said[0]), "%s", dl[j].text);
		}
	}
}

int msprof_session_start(struct npuprof_session *s)
{
	int rc = npuprof_session_start(s);

	if (!rc)
		msprof_say_device_log(s);
	return rc;
}

void msprof_say_probe_path(const struct npuprof_session *s)
{
	struct npuprof_acl_probe_path p;
	const char *why;

	if (npuprof_session_probe_path(s, &p))
		return;
	if (p.task_storage)
		why = "";
	else if (p.forced)
		why = " (NPUPROF_BPF_INFLIGHT or NPUPROF_BPF_API_ID set)";
	else if (!p.cookies)
		why = " (task storage goes with BPF cookies, Linux 5.15)";
	else
		why = " (task storage for uprobes needs Linux 5.12 and the kernel's BTF)";
	npuprof_info("uprobes: %s, calls in flight in %s%s, API id %s",
		     /* uprobe_multi goes with task storage, which needs cookies */
		     p.multi			       ? "one uprobe_multi link per library for all functions"
		     : p.task_storage || !p.cookies ? "one link per function (uprobe_multi needs Linux 6.6)"
						    : "one link per function",
		     p.task_storage ? "BPF task storage" : "a BPF hash map", why,
		     p.cookies ? "as BPF cookie"
		     : p.forced ? "from one program per function (NPUPROF_BPF_API_ID=program)"
				: "from one program per function (BPF cookies need Linux 5.15)");
}

int msprof_create_session(const struct msprof_options *o, const char *params, struct msprof_dyn *d,
			  pid_t pid)
{
	struct npuprof_session_opts opts = {
		.output = o->output_abs,
		.output_fd = d->out_fd,
		.ascendcl = o->ascendcl && !d->pf.api_off[0],
		.runtime_api = o->runtime_api && !d->pf.api_off[0],
		.task_time = o->task_time != MSPROF_TASK_TIME_OFF,
		.params_json = params,
		.follow = o->app_argv != NULL, /* launch and app mode follow the job */
		.task_capture = d->pf.task_capture,
		.storage_limit = (uint64_t)o->storage_limit_mb << 20,
		.writer = d->writer,
		.api_off = d->pf.api_off,
	};
	int rc = npuprof_session_create(&opts, &d->s);

	if (rc) {
		d->s = NULL;
		say_cannot_profile(d, pid);
		return rc;
	}
	msprof_say_task_path(npuprof_session_task_capture(d->s), npuprof_session_host(d->s));
	msprof_say_probe_path(d->s);
	return 0;
}

static int add_pid(struct msprof_dyn *d, pid_t pid)
{
	int rc = npuprof_session_add_pid(d->s, pid);

	if (rc)
		say_cannot_profile(d, pid);
	else
		msprof_warn_untraced(d);
	return rc;
}

/*
 * Launch mode, the app can have no server: it cannot bind its socket
 * @sock (@why: msprof_launch_socket(); a long or missing $HOME), so CANN's
 * runtime runs on without one.  As attach mode does for a process without
 * one, the job's first process that loads the runtime is captured from
 * the kernel side, said once.
 */
static int launch_kernel_side(const struct msprof_options *o, struct msprof_dyn *d,
			      struct msprof_target *t, const char *sock, int why)
{
	char words[2 * PATH_MAX + 96], said[2 * PATH_MAX + 160];
	pid_t pid = msprof_wait_job_runtime(o, d);

	if (pid < 0)
		return pid;
	t->app_pid = pid;
	t->kernel_only = 1;
	npuprof_proc_id_read(pid, NULL, &t->id);
	snprintf(said, sizeof(said), "%s; a short, writable HOME gives it one",
		 msprof_socket_unbindable(why, sock, words, sizeof(words)));
	msprof_say_kernel_side(pid, said);
	return add_pid(d, pid);
}

/*
 * Launch mode: fork the app held at its gate, open the session and follow
 * the app (so every process it starts is captured from its birth), let it
 * run, connect to the first server (the one that took msprof's key) and
 * place the uprobes through that process.  A session that cannot be had
 * lets the app run unprofiled.  The other ranks' servers are found later
 * (discover_ranks()).  An app that cannot bind its socket (known before
 * it runs) is captured from the kernel side (launch_kernel_side()).
 */
static int set_up_launch(const struct msprof_options *o, const char *params, struct msprof_dyn *d)
{
	struct msprof_target *t = &d->t[0];
	struct msprof_launched l = { .gate_fd = -1, .err_fd = -1 };
	char sock[PATH_MAX];
	int rc, rc2, no_server; /* 0, or why the app cannot bind @sock */

	rc = msprof_check_runnable(o);
	if (rc)
		return rc;
	no_server = msprof_launch_socket(sock, sizeof(sock));
	rc = msprof_launch_app(o, params, &l);
	if (rc)
		return rc;
	d->child = l.pid;
	rc = msprof_create_session(o, params, d, l.pid);
	if (!rc) {
		rc = npuprof_session_follow_pid(d->s, l.pid);
		if (rc) {
			char words[PATH_MAX + 512];

			msprof_error_words(npuprof_session_error(d->s), l.pid, words, sizeof(words));
			npuprof_warn("cannot follow the processes %s starts (%s): only the process that answers first is profiled",
				     o->app_argv[0], words);
			rc = 0;
		} else {
			msprof_probe_job_lib(o, d);
		}
	}
	rc2 = msprof_release_app(o, &l);
	if (rc2) {
		d->child_reaped = 1;
		return rc2;
	}
	if (rc)
		return rc;
	d->nr_targets = 1;
	t->app_pid = d->child;
	if (no_server)
		return launch_kernel_side(o, d, t, sock, no_server);
	rc = msprof_connect_launched(o, d, t);
	if (rc)
		return rc;
	t->app_pid = msprof_peer_pid(t->fd, t->app_pid);
	npuprof_proc_id_read(t->app_pid, NULL, &t->id);
	rc = msprof_send_params(t, params, MSPROF_PARAMS_REPLY_MS);
	if (!rc)
		rc = add_pid(d, t->app_pid);
	return rc;
}

/*
 * Attach mode, @pid has no libascendcl.so mapped: a wrapper (a shell
 * script, a launcher) given instead of the processes it started.  Name
 * those of its descendants that map it (at most 16), so the user can
 * attach to them.
 */
static void say_acl_below(pid_t pid)
{
	char list[16 * 12] = "";
	struct dirent *de;
	unsigned int n = 0;
	size_t len = 0;
	DIR *proc = opendir("/proc");

	if (!proc)
		return;
	while ((de = readdir(proc)) && n < 16) {
		pid_t p = (pid_t)strtol(de->d_name, NULL, 10);

		if (p <= 0 || p == pid || !msprof_descends_from(p, pid) || !npuprof_acl_trace_pid_maps_acl(p))
			continue;
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d", n ? "," : "", (int)p);
		n++;
	}
	closedir(proc);
	if (n)
		npuprof_info("pid %d starts processes that run the ACL runtime: attach to them (--pid=%s)",
			     (int)pid, list);
}

static int is_target(const struct msprof_dyn *d, pid_t pid)
{
	for (unsigned int i = 0; i < d->nr_targets; i++)
		if (d->t[i].app_pid == pid)
			return 1;
	return 0;
}

/*
 * Servers of the launched job that did not take the parameters: each is
 * tried again at most every DISCOVER_RETRY_MS and given up after
 * DISCOVER_TRIES, so one silent server cannot stall the prompt for long
 * (each try waits DISCOVER_REPLY_MS for the reply).
 */
#define DISCOVER_TRIES 3
#define DISCOVER_RETRY_MS 2000
#define DISCOVER_REPLY_MS 2000 /* the prompt waits this long per try */
#define DISCOVER_SLOTS 128

static struct {
	pid_t pid;
	int tries;
	int64_t next_ms;
} discover_failed[DISCOVER_SLOTS];

/* 1 when @pid may be tried now; counts the try. */
static int discover_may_try(pid_t pid)
{
	int64_t now = npuprof_mono_ms();
	int i;

	for (i = 0; i < DISCOVER_SLOTS; i++)
		if (discover_failed[i].pid == pid)
			return discover_failed[i].tries < DISCOVER_TRIES && now >= discover_failed[i].next_ms;
	return 1;
}

/* @pid's server did not answer: try it later, or say it is given up. */
static void discover_note_failure(pid_t pid)
{
	int i, slot = -1;

	for (i = 0; i < DISCOVER_SLOTS && slot < 0; i++)
		if (discover_failed[i].pid == pid || !discover_failed[i].pid)
			slot = i;
	if (slot < 0)
		return;
	discover_failed[slot].pid = pid;
	discover_failed[slot].next_ms = npuprof_mono_ms() + DISCOVER_RETRY_MS;
	if (++discover_failed[slot].tries == DISCOVER_TRIES)
		npuprof_warn("pid %d of the launched job has a dynamic-profiling server that does not answer: not controlled (its data is still captured)",
			     (int)pid);
}

/*
 * Launch mode, every check interval: a process of the launched job that
 * opened a dynamic-profiling server under its own pid (CANN's fallback
 * when the first rank took msprof's key) becomes a target: connected,
 * given the parameters, and asked to start if a window runs.
 * Return: MSPROF_CMD_CONTINUE.
 */
static int discover_ranks(struct msprof_dyn *d)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *proc;

	if (d->child <= 0 || d->child_reaped || d->nr_targets == MSPROF_MAX_TARGETS)
		return MSPROF_CMD_CONTINUE;
	proc = opendir("/proc");
	if (!proc)
		return MSPROF_CMD_CONTINUE;
	while ((de = readdir(proc)) && d->nr_targets < MSPROF_MAX_TARGETS) {
		pid_t pid = (pid_t)strtol(de->d_name, NULL, 10);
		struct msprof_target *t = &d->t[d->nr_targets];

		if (pid <= 0 || is_target(d, pid) || msprof_socket_find(getuid(), pid, path, sizeof(path)) ||
		    !msprof_descends_from(pid, getpid()) || !discover_may_try(pid))
			continue;
		*t = (struct msprof_target){ .fd = -1, .app_pid = pid };
		npuprof_proc_id_read(pid, NULL, &t->id);
		if (msprof_connect_target(t, path))
			continue; /* not listening yet: tried again next time */
		if (msprof_send_params(t, d->params, DISCOVER_REPLY_MS)) {
			msprof_disconnect_quietly(t);
			discover_note_failure(pid); /* listens but does not answer */
			continue;
		}
		d->nr_targets++;
		/* between windows it gets a directory at every start, as the
		 * first rank; during one, the drain makes it one at its first record */
		if (!npuprof_session_running(d->s)) {
			int e = npuprof_session_add_pid(d->s, pid);

			if (e && e != -EEXIST)
				say_cannot_profile(d, pid);
			else if (!e)
				msprof_warn_untraced(d);
		}
		npuprof_info("dynamic profiling now also controls pid %d (a process of the launched job)",
			     (int)pid);
		if (npuprof_session_running(d->s))
			msprof_cmd_start_one(d, t);
	}
	closedir(proc);
	return MSPROF_CMD_CONTINUE;
}

/* A failed connection to @pid's server in the words of a --result line. */
static const char *attach_why(int rc)
{
	switch (rc) {
	case -ESRCH:
		return "the process has exited";
	case -ENOENT:
		return "no dynamic profiling server";
	case -ECONNREFUSED:
		return "the dynamic profiling server does not listen";
	case -ETIMEDOUT:
		return "the dynamic profiling server did not answer";
	case -EADDRINUSE:
		return "its socket name is served by another process";
	default:
		return strerror(-rc);
	}
}

/*
 * Attach mode, one pid: select it, connect, hand over the parameters.
 * On failure @why (@size bytes) says why, for its --result line.
 */
static int attach_one(struct msprof_dyn *d, pid_t pid, const char *params, char *why, size_t size)
{
	struct msprof_target *t = &d->t[d->nr_targets];
	char path[PATH_MAX], params_why[256];
	int rc, at_params = 0;
	pid_t peer = 0;

	*t = (struct msprof_target){ .fd = -1, .app_pid = pid };
	rc = msprof_pid_problem(pid, why, size);
	if (rc) {
		npuprof_err("cannot profile pid %d: %s", (int)pid, why);
		return rc;
	}
	/* who the pid is now: a later start refuses another process under it */
	npuprof_proc_id_read(pid, NULL, &t->id);
	rc = add_pid(d, pid);
	if (rc) {
		const struct npuprof_error *e = npuprof_session_error(d->s);

		if (e->stage == NPUPROF_STAGE_LIBRARY && e->err == -ENOENT)
			say_acl_below(pid);
		msprof_error_words(e, pid, why, size);
		return rc;
	}
	rc = msprof_connect_attached(pid, t, path, sizeof(path), &peer);
	if (!rc) {
		rc = msprof_send_params_why(t, params, MSPROF_PARAMS_REPLY_MS, params_why, sizeof(params_why));
		at_params = rc != 0;
	}
	if (rc && rc != -ESRCH && !d->require_server && npuprof_proc_id_same(pid, NULL, &t->id)) {
		/* capture needs no server: what it would control is ours anyway */
		msprof_say_no_server(pid, rc, path, peer, at_params ? params_why : NULL);
		msprof_disconnect_quietly(t);
		t->kernel_only = 1;
		d->nr_targets++;
		return 0;
	}
	if (rc && rc != -ESRCH && at_params && rc != -EMSGSIZE)
		msprof_say_params_not_taken(pid, params_why);
	if (rc && rc != -ESRCH && !at_params)
		msprof_say_connect_failed(pid, rc, path, peer);
	if (rc) {
		snprintf(why, size, "%s", attach_why(rc));
		msprof_disconnect_quietly(t);
		npuprof_session_remove_pid(d->s, pid);
		return rc;
	}
	d->nr_targets++;
	return 0;
}

/* A --result line for @pid, which has no directory. */
static void note_failed(struct msprof_dyn *d, pid_t pid, const char *why)
{
	int e;

	if (d->result && (e = msprof_result_failed(d->result, pid, why)))
		msprof_result_error(d, e);
}

/* Attach mode: every --pid that can be reached; the others are named. */
static int set_up_attach(const struct msprof_options *o, const char *params, struct msprof_dyn *d)
{
	char why[PATH_MAX + 512];
	unsigned int i;
	int rc, last = 0;

	rc = msprof_create_session(o, params, d, o->nr_pids == 1 ? o->pids[0] : 0);
	if (rc) {
		for (i = 0; i < o->nr_pids; i++) {
			msprof_error_words(npuprof_session_error(NULL), o->pids[i], why, sizeof(why));
			note_failed(d, o->pids[i], why);
		}
		return rc;
	}
	for (i = 0; i < o->nr_pids; i++) {
		rc = attach_one(d, o->pids[i], params, why, sizeof(why));
		if (!rc)
			continue;
		d->failures++;
		last = rc;
		note_failed(d, o->pids[i], why);
	}
	if (!d->nr_targets)
		return last ? last : -ESRCH;
	if (d->failures)
		npuprof_warn("profiling %u of the %u processes of --pid", d->nr_targets, o->nr_pids);
	return 0;
}

/* "pid 12" or "3 pids: 12 13 14" */
static void describe_targets(const struct msprof_dyn *d, char *buf, size_t size)
{
	size_t n;
	unsigned int i;

	if (d->nr_targets == 1) {
		snprintf(buf, size, "pid %d", (int)d->t[0].app_pid);
		return;
	}
	n = (size_t)snprintf(buf, size, "%u pids:", d->nr_targets);
	for (i = 0; i < d->nr_targets && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, " %d", (int)d->t[i].app_pid);
}

/*
 * --output, before anything is attached: created if missing and proven
 * writable with a probe file (a path under /proc, a read-only or full file
 * system fail here, not at the first start).  The options check created
 * nothing, so a usage error leaves nothing; this run's directories go
 * again at its end when they stayed empty (msprof_end_run()).
 */
static int open_output(const struct msprof_options *o, struct msprof_dyn *d)
{
	char failed[PATH_MAX];
	int fd = npuprof_prof_output_open(o->output_abs, &d->out_made, failed, sizeof(failed));

	if (fd >= 0) {
		d->out_fd = fd;
		return 0;
	}
	if (!strcmp(failed, o->output_abs))
		npuprof_err("--output=%s: cannot write there: %s; nothing was started",
			    o->output[0] ? o->output : o->output_abs, strerror(-fd));
	else
		npuprof_err("--output=%s: cannot create %s: %s; nothing was started",
			    o->output[0] ? o->output : o->output_abs, failed, strerror(-fd));
	return fd;
}

/*
 * Whether msprof may capture from where it runs.  npuprof.ko and the BPF
 * programs number processes as the host's (the initial) pid namespace
 * does.  In a pid namespace of its own (inside a container), attach mode
 * translates each --pid into the host's (the session does); launch and
 * app modes follow the processes a job forks by the kernel's numbers,
 * which msprof cannot see from there: said, and refused; so is attach
 * mode when /proc is not the namespace's own (the pids given would be
 * read in one numbering and selected in another).  Unknown (no
 * /proc/self/ns/pid): the host's.
 */
static int may_capture_here(const struct msprof_options *o)
{
	if (npuprof_in_host_pid_ns())
		return 1;
	if (!o->app_argv && !npuprof_procfs_is_ours()) {
		/* --pid would be read in one numbering and selected in another */
		npuprof_err("msprof runs in a pid namespace of its own, but /proc is another namespace's: mount the namespace's own /proc (unshare --pid --fork --mount-proc), or run msprof on the host");
		return 0;
	}
	if (!o->app_argv)
		return 1;
	npuprof_err("msprof runs in a pid namespace of its own (a container): launching a job needs the host's, as the capture follows its processes by the host's pids; run msprof on the host, or start the job and attach with --pid");
	return 0;
}

/*
 * Which writer the drain gets, found out before anything is launched or
 * attached: where io_uring is refused (a container's default seccomp
 * profile, kernel.io_uring_disabled, RLIMIT_MEMLOCK before 5.12) the
 * capture goes on with the pwrite fallback, said once here with the
 * cause, never as a failure at start.  NPUPROF_WRITER (checked with the
 * options) may choose instead; io_uring forced where it is refused ends
 * the run here, before anything is launched or attached.
 * Return: 0, or the -errno of setting io_uring up when it was forced.
 */
static int choose_writer(struct msprof_dyn *d)
{
	struct npuprof_writer_probe p;
	char words[512];

	npuprof_writer_probe(NPUPROF_WRITER_AUTO, &p);
	d->writer = p.writer;
	if (p.writer == NPUPROF_WRITER_PWRITE)
		npuprof_info("%s", npuprof_writer_words(&p, words, sizeof(words)));
	if (p.writer != NPUPROF_WRITER_IO_URING || !p.error)
		return 0;
	/* forced where it is refused: every start would fail, so none is tried */
	npuprof_err("%s", npuprof_writer_words(&p, words, sizeof(words)));
	return p.error;
}

/*
 * The parameters the app gets and sample.json keeps: the API levels off
 * when the preflight found they cannot be captured, so sample.json says
 * what the capture holds.
 */
static char *run_params_json(const struct msprof_options *o, const struct msprof_dyn *d)
{
	struct msprof_options eff;

	if (!d->pf.api_off[0])
		return msprof_params_json(o, getpid());
	eff = *o;
	eff.ascendcl = 0;
	eff.runtime_api = 0;
	return msprof_params_json(&eff, getpid());
}

char *msprof_begin_run(const struct msprof_options *o, struct msprof_dyn *d)
{
	char *params;

	d->out_fd = -1;
	if (!may_capture_here(o) || open_output(o, d))
		return NULL;
	if (msprof_preflight_capture(o, &d->pf) || choose_writer(d)) {
		msprof_end_run(o, d, NULL);
		return NULL;
	}
	params = run_params_json(o, d);
	if (!params) {
		npuprof_err("building the profiling parameters: %s", strerror(ENOMEM));
		msprof_end_run(o, d, NULL);
		return NULL;
	}
	if (o->result[0] && !(d->result = msprof_result_open(o->result))) {
		npuprof_err("--result=%s: %s", o->result, strerror(errno));
		msprof_end_run(o, d, params);
		return NULL;
	}
	return params;
}

void msprof_end_run(const struct msprof_options *o, struct msprof_dyn *d, char *params)
{
	free(params);
	if (d->result)
		fclose(d->result);
	d->result = NULL;
	if (d->out_fd >= 0)
		close(d->out_fd);
	d->out_fd = -1;
	npuprof_prof_output_unmake(o->output_abs, d->out_made); /* only if still empty */
}

int msprof_run_status(const struct msprof_dyn *d, int setup_rc)
{
	if (d->child > 0 && d->child_reaped && msprof_app_status(d->child_status))
		return msprof_app_status(d->child_status);
	if (setup_rc)
		return MSPROF_EXIT_FAILURE;
	if ((d->failures || d->incomplete) && !d->saved)
		return MSPROF_EXIT_FAILURE; /* asked for, and nothing saved */
	if (d->incomplete)
		return MSPROF_EXIT_INCOMPLETE;
	return d->failures ? MSPROF_EXIT_PARTIAL : 0;
}

int msprof_dynamic_run(const struct msprof_options *o)
{
	struct msprof_dyn d = {
		.ops = &msprof_session_ops_real,
		.tty = isatty(STDIN_FILENO),
		.cmd_timeout_ms = DYNPROF_COMMAND_TIMEOUT_MS,
	};
	char *params, who[1024];
	unsigned int i;
	int rc;

	for (i = 0; i < MSPROF_MAX_TARGETS; i++)
		d.t[i].fd = -1;
	params = msprof_begin_run(o, &d);
	if (!params)
		return MSPROF_EXIT_FAILURE;
	d.params = params;
	d.reconnect = msprof_reconnect_target;
	d.require_server = o->require_server;
	if (o->app_argv)
		d.discover = discover_ranks;
	rc = o->app_argv ? set_up_launch(o, params, &d) : set_up_attach(o, params, &d);
	if (!rc) {
		describe_targets(&d, who, sizeof(who));
		npuprof_info("dynamic profiling for %s is ready: type start, stop or quit (q)", who);
		msprof_cmd_loop(&d, STDIN_FILENO);
	} else {
		for (i = 0; i < d.nr_targets; i++)
			msprof_disconnect_quietly(&d.t[i]);
		if (d.child && !d.child_reaped)
			npuprof_warn("%s (pid %d) keeps running without profiling", o->app_argv[0], (int)d.child);
	}
	npuprof_session_close(d.s);
	for (i = 0; i < d.nr_targets; i++)
		if (d.t[i].fd >= 0)
			close(d.t[i].fd);
	/* A launch that failed because the app ended has said how already. */
	if (d.child > 0 && !(rc && d.child_reaped))
		msprof_wait_app(&d);
	msprof_end_run(o, &d, params);
	return msprof_run_status(&d, rc);
}
