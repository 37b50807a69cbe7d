// SPDX-License-Identifier: MIT
/*
 * The dynamic-profiling prompt (see cmdloop.h): command table, dispatch,
 * request/reply exchange, reply wording and the stdin/socket/timer loop.
 *
 * Order matters for complete data: "start" enables our capture before it
 * asks the app to start, and "stop" asks the app to stop (it flushes)
 * before our capture stops, so nothing the app does while collecting falls
 * outside the capture.  Replies use msprof's wording ("dynamic profiling
 * for pid N start success").
 */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <npuprof/acl_trace.h>
#include <npuprof/clock.h>
#include <dynprof_wire.h>
#include <npuprof/msg.h>
#include <npuprof/npu_backend.h>

#include "cmdloop.h"
#include "error_words.h"
#include "result.h"

#define MSPROF_CHECK_INTERVAL_MS 1000 /* how often the loop looks at the app */
#define MSPROF_LINE_MAX 4096

/**
 * struct cmd_def - one prompt command
 * @name: the word typed (or a unique prefix of it)
 * @fn:   runs it; returns MSPROF_CMD_CONTINUE or MSPROF_CMD_QUIT
 * @help: usage line; NULL for short aliases
 */
struct cmd_def {
	const char *name;
	int (*fn)(struct msprof_dyn *d);
	const char *help;
	int ours; /* not in CANN's prompt: never takes a prefix from CANN's */
};

static void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A reply line of the prompt: plain, on stdout, flushed (stdout may be a pipe). */
static void reply(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* Whether @t is still controlled: connected, or captured from the kernel side. */
static int target_live(const struct msprof_target *t)
{
	return t->fd >= 0 || (t->kernel_only && !t->gone);
}

/*
 * What a server would answer, for a process without one (@t->kernel_only):
 * the capture runs from the kernel side whatever the app does, so START
 * succeeds (ALREADY_START while collecting), STOP succeeds after a START
 * (NOT_START otherwise), QUIT succeeds.  Return: 0 with *@status.
 */
static int kernel_only_reply(const struct msprof_target *t, int32_t type, int32_t *status)
{
	if (type == DYNPROF_START_REQ)
		*status = t->collecting ? DYNPROF_ALREADY_START : DYNPROF_SUCCESS;
	else if (type == DYNPROF_STOP_REQ)
		*status = t->collecting ? DYNPROF_SUCCESS : DYNPROF_NOT_START;
	else
		*status = DYNPROF_SUCCESS;
	return 0;
}

static int server_lost(struct msprof_dyn *d, struct msprof_target *t, int why);

static int exchange_server(struct msprof_dyn *d, struct msprof_target *t, int32_t type,
			   int32_t *status);

/*
 * Send {@type, 0} to @t's server and wait for the reply; for a process
 * without one, answer as it would (kernel_only_reply()).  A server lost
 * on the way while its app lives leaves @t captured from the kernel side
 * (server_lost()), answered as such.  Return: 0 with *@status (a reply of
 * another type counts as DYNPROF_FAIL), -ECONNRESET when the server said
 * DISCONNECT_RSQ or closed, -ETIMEDOUT, or another -errno.
 *
 * During a window the connection's last command (renew_idle()) is kept
 * for the STOP: a second START that would take it is answered here, as
 * the app would answer it, and not sent.
 */
static int exchange(struct msprof_dyn *d, struct msprof_target *t, int32_t type, int32_t *status)
{
	int rc;

	if (t->kernel_only && !t->gone)
		return kernel_only_reply(t, type, status);
	rc = exchange_server(d, t, type, status);
	if (rc && server_lost(d, t, rc))
		return kernel_only_reply(t, type, status);
	return rc;
}

/* exchange() with @t's server, no fallback. */
static int exchange_server(struct msprof_dyn *d, struct msprof_target *t, int32_t type,
			   int32_t *status)
{
	uint8_t buf[DYNPROF_MSG_SIZE];
	struct dynprof_msg m;
	int rc;

	if (t->fd < 0)
		return -ENOTCONN;
	if (type == DYNPROF_START_REQ && t->collecting && t->msgs + 1 >= DYNPROF_MAX_MESSAGES) {
		*status = DYNPROF_ALREADY_START;
		return 0;
	}
	dynprof_encode_msg(buf, type, 0);
	rc = dynprof_send_all(t->fd, buf, sizeof(buf), d->cmd_timeout_ms);
	if (rc)
		return rc == -EPIPE ? -ECONNRESET : rc;
	t->msgs++;
	rc = dynprof_recv_all(t->fd, buf, sizeof(buf), d->cmd_timeout_ms);
	if (rc)
		return rc;
	dynprof_decode_msg(buf, &m);
	if (m.type == DYNPROF_DISCONNECT_RSQ)
		return -ECONNRESET;
	*status = m.type == type + 1 ? m.status : DYNPROF_FAIL;
	return 0;
}

/*
 * Words for the session's last failure @rc (error_words.h), in @buf:
 * "/x: No space left on device", or the errno's when none was noted.
 */
static const char *session_why(struct msprof_dyn *d, int rc, pid_t pid, char *buf, size_t size)
{
	const struct npuprof_error *e = d->ops->error(d->s);

	if (e->err)
		msprof_error_words(e, pid, buf, size);
	else
		snprintf(buf, size, "%s", strerror(-rc));
	return buf;
}

int msprof_launcher_alive(struct msprof_dyn *d)
{
	int status;
	pid_t pid;

	if (d->child <= 0)
		return 0;
	/*
	 * msprof is the job's subreaper (launch.c): ranks a launcher left
	 * behind become our children.  The job lives while any child does;
	 * the launched command's own status is kept for the exit status.
	 */
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (pid == d->child) {
			d->child_reaped = 1;
			d->child_status = status;
		}
	}
	return !(pid < 0 && errno == ECHILD);
}

/* Launch mode: the launched command still runs and is not itself an app
 * we talk to (a launcher, which may start more ranks). */
static int launcher_running(struct msprof_dyn *d)
{
	for (unsigned int i = 0; i < d->nr_targets; i++)
		if (d->t[i].app_pid == d->child)
			return 0;
	return msprof_launcher_alive(d);
}

/* Connections still open. */
static unsigned int live_targets(const struct msprof_dyn *d)
{
	unsigned int i, n = 0;

	for (i = 0; i < d->nr_targets; i++)
		n += target_live(&d->t[i]);
	return n;
}

/* A --result line could not be written: say so once, count it. */
void msprof_result_error(struct msprof_dyn *d, int err)
{
	npuprof_err("writing the --result file failed: %s; the results of this capture are in the messages above",
		    strerror(-err));
	d->incomplete++; /* the data is saved; its result line is missing */
	fclose(d->result);
	d->result = NULL;
}

/* Once per run: a process whose libascend_hal.so could not be probed. */
static void warn_submits_missing(struct msprof_dyn *d)
{
	pid_t pid;
	int why = 0;

	if (!d->ops || !d->ops->submits_missing || d->submits_warned)
		return;
	pid = d->ops->submits_missing(d->s, &why);
	if (!pid)
		return;
	d->submits_warned = 1;
	if (why == -ENOENT)
		npuprof_warn("pid %d maps no %s: its device tasks have no submit (no pid, thread or API call in the export)",
			     (int)pid, NPUPROF_HAL_LIB_NAME);
	else
		npuprof_warn("cannot probe halSqTaskSend in the %s of pid %d (%s): its device tasks have no submit",
			     NPUPROF_HAL_LIB_NAME, (int)pid, strerror(-why));
}

void msprof_warn_missing_layers(struct msprof_dyn *d)
{
	warn_submits_missing(d);
	if (!d->ops || !d->ops->missing_layers || d->runtime_warned ||
	    !(d->ops->missing_layers(d->s) & NPUPROF_LAYER_RUNTIME))
		return;
	d->runtime_warned = 1;
	npuprof_warn("--runtime-api=on: the app maps no %s: runtime API calls (level Runtime) are not captured",
		     NPUPROF_RUNTIME_LIB_NAME);
}

/*
 * "PROF data saved in ..." for one process, then each way its data is
 * incomplete: records lost by cause, a failed write, control files that
 * could not be written.  Any of them makes the exit status
 * MSPROF_EXIT_INCOMPLETE (unless a worse one applies).
 */
static void saved_line(struct msprof_dyn *d, const struct npuprof_session_result *r)
{
	char lost[160], cpu[160];
	const char *hint = ": free disk space under --output and collect again";

	npuprof_loss_format(&r->loss, lost, sizeof(lost));
	reply("PROF data saved in %s: %llu api records, %llu device task events, %s", r->prof_dir,
	      (unsigned long long)r->api_records, (unsigned long long)r->task_records, lost);
	msprof_warn_missing_layers(d); /* a job that never loaded the runtime */
	for (unsigned int i = 0; i < r->nr_cpu_loss; i++)
		reply("  CPU %u: %s", r->cpu_loss[i].cpu,
		      npuprof_loss_format(&r->cpu_loss[i], cpu, sizeof(cpu)));
	if (r->write_error)
		npuprof_err("writing PROF data in %s failed: %s%s", r->prof_dir,
			    strerror(-r->write_error), r->write_error == -ENOSPC ? hint : "");
	if (r->unwritten[0])
		npuprof_err("could not write %s in %s: %s%s", r->unwritten, r->prof_dir,
			    strerror(-r->unwritten_error), r->unwritten_error == -ENOSPC ? hint : "");
	if (r->write_error || r->unwritten[0] || npuprof_loss_total(&r->loss)) {
		npuprof_warn("the data in %s is incomplete (%s%s); msprof --export=on says why",
			     r->prof_dir, lost,
			     r->write_error || r->unwritten[0] ? ", a write failed" : "");
		d->incomplete++;
	}
}

/*
 * Is the stop's error @rc a write that failed in a saved directory?  That
 * is incomplete data, said per directory (saved_line()), not a failure.
 */
static int write_failure(const struct npuprof_session_result *res, unsigned int n, int rc)
{
	for (unsigned int i = 0; i < n; i++)
		if (!res[i].discarded && res[i].prof_dir[0] &&
		    (res[i].write_error == rc || res[i].unwritten_error == rc))
			return 1;
	return 0;
}

/* Stop the running capture and say where each process's data is. */
static void finish_capture(struct msprof_dyn *d)
{
	/* the drain may add members of a followed job until it stopped */
	unsigned int i, n = NPUPROF_SESSION_MAX_PIDS;
	uint64_t missed = 0, unrouted = 0;
	struct npuprof_session_result *res = calloc(n, sizeof(*res));
	char why[512];
	int rc;

	if (!res) {
		npuprof_err("stopping the capture: %s", strerror(ENOMEM));
		d->ops->stop(d->s, NULL, 0);
		d->failures++;
		return;
	}
	rc = d->ops->stop(d->s, res, n);
	if (rc && !write_failure(res, n, rc)) {
		npuprof_err("stopping the capture failed: %s", session_why(d, rc, 0, why, sizeof(why)));
		d->incomplete++;
	}
	for (i = 0; i < n; i++) {
		const struct npuprof_session_result *r = &res[i];

		if (r->follow_missed > missed)
			missed = r->follow_missed;
		if (r->unrouted > unrouted)
			unrouted = r->unrouted;
		if (r->discarded || !r->prof_dir[0])
			continue;
		d->saved++;
		saved_line(d, r);
		if (d->result && (rc = msprof_result_saved(d->result, r)))
			msprof_result_error(d, rc);
	}
	if (unrouted) {
		npuprof_warn("%llu records of processes of the job that got no PROF_XXX directory were lost (see the errors above)",
			     (unsigned long long)unrouted);
		d->incomplete++;
	}
	if (missed) {
		npuprof_warn("%llu processes of the job were not captured: a session takes %d processes; profile fewer ranks per msprof",
			     (unsigned long long)missed, NPUPROF_SESSION_MAX_PIDS);
		d->failures++;
	}
	free(res);
}

/*
 * A closed connection usually means the app is exiting: its socket closes
 * a moment before its process is gone.  Give it half a second to tell the
 * two cases apart.
 */
static int app_exiting(struct msprof_dyn *d, const struct msprof_target *t)
{
	int i;

	for (i = 0; i < 5; i++) {
		if (!msprof_app_alive(d, t))
			return 1;
		usleep(100 * 1000);
	}
	return 0;
}

/*
 * A window runs and keeps a directory for at least one process: one of
 * ours, or one the session made for a process of a followed job.
 */
static int window_has_data(struct msprof_dyn *d)
{
	return d->ops->window_dirs(d->s) > 0;
}

static int session_over(struct msprof_dyn *d, int why);

/* Start time of whatever live process @pid names now, 0 when none (or a zombie). */
static unsigned long long proc_start_ticks(pid_t pid)
{
	struct npuprof_proc_stat st;

	if (npuprof_proc_stat_read(pid, NULL, &st) || st.state == 'Z' || st.state == 'X')
		return 0;
	return st.start_ticks;
}

/*
 * The start time of the process @t's pid names now, when that is another
 * than the one attached; else 0.
 */
static unsigned long long reused_pid(const struct msprof_target *t)
{
	unsigned long long now = t->id.start_ticks ? proc_start_ticks(t->app_pid) : 0;

	return now != t->id.start_ticks ? now : 0;
}

/*
 * @t's server was lost while its app lives (@why: -ECONNRESET it closed
 * the connection, -ECONNABORTED connecting again failed, another -errno:
 * an exchange failed).  Capture needs no server: unless
 * --require-server=on, @t goes on from the kernel side, its window's data
 * whole, said once.  Return: 1 when it does, 0 when @t is to be dropped.
 */
static int server_lost(struct msprof_dyn *d, struct msprof_target *t, int why)
{
	char what[128];

	if (d->require_server || t->kernel_only || why == -ESRCH || !msprof_app_alive(d, t) ||
	    (why == -ECONNRESET && app_exiting(d, t)))
		return 0;
	if (why == -ECONNRESET)
		snprintf(what, sizeof(what), "its server closed the connection");
	else if (why == -ECONNABORTED)
		snprintf(what, sizeof(what), "connecting to its server again failed");
	else if (why == -ETIMEDOUT)
		snprintf(what, sizeof(what), "its server did not answer within %d s",
			 d->cmd_timeout_ms / 1000);
	else
		snprintf(what, sizeof(what), "the connection to its server failed: %s", strerror(-why));
	npuprof_warn("pid %d: %s: capturing it from the kernel side only from now on (--require-server=on drops it instead)",
		     (int)t->app_pid, what);
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	t->kernel_only = 1;
	return 1;
}

/*
 * Attach mode: @t's process exited before it collected in any window
 * (@why, for its --result line): asked for and not captured, a failure.
 */
static void never_captured(struct msprof_dyn *d, struct msprof_target *t, const char *why)
{
	int e;

	if (t->windows || t->collecting || d->child > 0)
		return;
	d->failures++;
	if (d->result && (e = msprof_result_failed(d->result, t->app_pid, why)))
		msprof_result_error(d, e);
}

/*
 * @t's app or server went away (@why: -ESRCH exited, -ECONNRESET the
 * server closed the connection, -ECONNABORTED connecting again between
 * windows failed (counted by renew_idle()), anything else: the exchange
 * failed; the caller already said why).  Its data so far stays in the
 * window and is saved at stop.  When it was the last one, save and end
 * the session.
 */
static int target_gone(struct msprof_dyn *d, struct msprof_target *t, int why)
{
	int running = d->ops->running(d->s), kept;
	unsigned long long newcomer;

	if (why == -ECONNRESET && app_exiting(d, t))
		why = -ESRCH;
	newcomer = why == -ESRCH ? reused_pid(t) : 0;
	if (newcomer) {
		npuprof_warn("pid %d now belongs to another process (started %llu clock ticks after boot, the attached one at %llu): the attached process has exited; not capturing the new one",
			     (int)t->app_pid, newcomer, (unsigned long long)t->id.start_ticks);
		never_captured(d, t, "its pid now names another process: the process exited before any capture window");
	} else if (why == -ESRCH) {
		reply("%sprocess %d has exited", t->kernel_only ? "" : "server ", (int)t->app_pid);
		never_captured(d, t, "the process exited before any capture window");
	} else if (why == -ECONNRESET) {
		npuprof_warn("server process %d closed the connection (no start within 30 min, or 100 commands on one connection): run msprof again to reconnect",
			     (int)t->app_pid);
	}
	/* The server stops collecting when its connection goes (as CANN's). */
	if (t->collecting && why != -ESRCH && running) {
		npuprof_warn("pid %d stopped collecting when its connection closed: its data of this window ends there",
			     (int)t->app_pid);
		d->incomplete++;
	}
	t->collecting = 0;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	t->gone = why;
	/* ask before it leaves: a start that failed has dropped its directory */
	kept = running && d->ops->prof_dir(d->s, t->app_pid);
	d->ops->remove_pid(d->s, t->app_pid);
	/*
	 * An app that ends, or whose server closes (CANN's does at
	 * aclFinalize), is normal; a lost exchange is not.
	 */
	if (why != -ESRCH && why != -ECONNRESET && why != -ECONNABORTED)
		d->failures++;
	if (live_targets(d) || launcher_running(d)) {
		if (kept)
			reply("the data of pid %d collected so far is saved at stop", (int)t->app_pid);
		return MSPROF_CMD_CONTINUE;
	}
	return session_over(d, why);
}

/* No app left to control (@why: how the last one went): save, end. */
static int session_over(struct msprof_dyn *d, int why)
{
	if (window_has_data(d)) {
		reply("saving the data collected so far");
		finish_capture(d);
	} else if (d->ops->running(d->s)) {
		d->ops->discard(d->s);
	}
	d->gone = why;
	return MSPROF_CMD_QUIT;
}

/* An exchange with @t for command @what failed with @rc. */
static int exchange_failed(struct msprof_dyn *d, struct msprof_target *t, const char *what, int rc)
{
	if (rc == -ETIMEDOUT)
		npuprof_err("no reply from the server for pid %d to %s within %d s", (int)t->app_pid,
			    what, d->cmd_timeout_ms / 1000);
	else if (rc != -ECONNRESET)
		npuprof_err("%s for pid %d: lost the connection: %s", what, (int)t->app_pid,
			    strerror(-rc));
	return target_gone(d, t, rc);
}

/*
 * The server answers DYNPROF_MAX_MESSAGES commands on a connection, then
 * drops it and stops collecting (shared/reference/msprof.md: at most 100
 * messages, 50 windows, per connection); a new connection starts the count
 * again.  It serves one client at a time, so the old connection is closed
 * before the new one is made: else the new one waits in the backlog until
 * the parameters time out.  This runs after every command, between
 * windows only: a connection left without room for a START and its STOP
 * is replaced, so a window never runs on a connection that must be
 * renewed before its STOP.  Return: MSPROF_CMD_CONTINUE, or
 * MSPROF_CMD_QUIT when the renewal failed and @t was the last app.
 */
static int renew_idle(struct msprof_dyn *d, struct msprof_target *t)
{
	unsigned int sent = t->msgs;
	int rc;

	if (t->fd < 0 || t->collecting || !d->reconnect || t->msgs + 2 <= DYNPROF_MAX_MESSAGES)
		return MSPROF_CMD_CONTINUE;
	close(t->fd);
	t->fd = -1;
	t->msgs = 0;
	rc = d->reconnect(d, t);
	if (!rc)
		return MSPROF_CMD_CONTINUE;
	if (!msprof_app_alive(d, t))
		return target_gone(d, t, -ESRCH);
	if (server_lost(d, t, -ECONNABORTED))
		return MSPROF_CMD_CONTINUE;
	npuprof_err("pid %d: connecting to its server again after %u commands failed: %s; its later windows cannot be collected",
		    (int)t->app_pid, sent, strerror(-rc));
	d->incomplete++; /* the run ends short of the windows asked for */
	return target_gone(d, t, -ECONNABORTED);
}

/* renew_idle() for every connected app. */
static int renew_all_idle(struct msprof_dyn *d)
{
	for (unsigned int i = 0; i < d->nr_targets; i++)
		if (renew_idle(d, &d->t[i]) == MSPROF_CMD_QUIT)
			return MSPROF_CMD_QUIT;
	return MSPROF_CMD_CONTINUE;
}

/* What start_one() found. */
enum start_outcome {
	START_COLLECTING, /* the app collects now */
	START_REFUSED,	  /* it refused: its directory of this window is dropped */
	START_GONE,	  /* it is gone, others live */
	START_ALL_GONE,	  /* it was the last app: the session is over */
};

/*
 * A process without a server cannot answer "device not set": what it has
 * set up is read from what it holds open (npu_pid_devices()).  One that
 * has opened no NPU device yet is captured all the same, from its first
 * device call on: say so, as the server's refusal would have.
 */
static void say_if_no_device(const struct msprof_target *t)
{
	uint64_t mask = 0;

	if (!npu_pid_devices(t->app_pid, NULL, &mask) && !mask)
		reply("pid %d has not opened an NPU device yet (no aclrtSetDevice): the capture is armed and records from its first device call",
		      (int)t->app_pid);
}

/* Ask @t's app to start. */
static enum start_outcome start_one(struct msprof_dyn *d, struct msprof_target *t)
{
	int32_t status;
	int rc = exchange(d, t, DYNPROF_START_REQ, &status);

	if (rc) {
		d->ops->discard_pid(d->s, t->app_pid);
		return exchange_failed(d, t, "start", rc) == MSPROF_CMD_QUIT ? START_ALL_GONE
									      : START_GONE;
	}
	if (status == DYNPROF_SUCCESS) {
		reply("dynamic profiling for pid %d start success%s", (int)t->app_pid,
		      t->kernel_only ? " (kernel side only)" : "");
		if (t->kernel_only)
			say_if_no_device(t);
		t->collecting = 1;
		t->windows++;
		return START_COLLECTING;
	}
	/* The app is collecting already: our capture matches it, keep it. */
	if (status == DYNPROF_ALREADY_START) {
		t->windows += !t->collecting;
		t->collecting = 1;
		npuprof_warn("dynamic profiling for pid %d already started", (int)t->app_pid);
		return START_COLLECTING;
	}
	d->ops->discard_pid(d->s, t->app_pid);
	d->failures++;
	if (d->result) {
		int e = msprof_result_failed(d->result, t->app_pid,
					     status == DYNPROF_NOT_SET_DEVICE
						     ? "start refused: the app has not set a device yet"
						     : "start refused by the app");
		if (e)
			msprof_result_error(d, e);
	}
	if (status == DYNPROF_NOT_SET_DEVICE)
		npuprof_warn("dynamic profiling device for pid %d has not been set up: start again after the app has called aclrtSetDevice",
			     (int)t->app_pid);
	else
		npuprof_err("dynamic profiling for pid %d start failed (%s)", (int)t->app_pid,
			    dynprof_status_name(status));
	return START_REFUSED;
}

int msprof_cmd_start_one(struct msprof_dyn *d, struct msprof_target *t)
{
	if (start_one(d, t) == START_ALL_GONE)
		return MSPROF_CMD_QUIT;
	return renew_idle(d, t);
}

/*
 * Our capture starts first (one window for every process), then each app
 * is asked; a window no app accepted is dropped whole.
 */
static int cmd_start(struct msprof_dyn *d)
{
	int was_running = d->ops->running(d->s);
	unsigned int i, collecting = 0;
	int rc;

	/* known identity: exited, or its pid now names another process */
	for (i = 0; i < d->nr_targets; i++) {
		struct msprof_target *t = &d->t[i];

		if (target_live(t) && t->id.start_ticks && !msprof_app_alive(d, t) &&
		    target_gone(d, t, -ESRCH) == MSPROF_CMD_QUIT)
			return MSPROF_CMD_QUIT;
	}
	if (!was_running) {
		rc = d->ops->start(d->s);
		if (rc) {
			char why[512];

			if (d->nr_targets == 1)
				npuprof_err("cannot start the capture for pid %d: %s", (int)d->t[0].app_pid,
					    session_why(d, rc, d->t[0].app_pid, why, sizeof(why)));
			else
				npuprof_err("cannot start the capture: %s",
					    session_why(d, rc, 0, why, sizeof(why)));
			d->incomplete++; /* a window asked for and not had */
			return MSPROF_CMD_CONTINUE;
		}
	}
	for (i = 0; i < d->nr_targets; i++) {
		if (!target_live(&d->t[i]))
			continue;
		switch (start_one(d, &d->t[i])) {
		case START_ALL_GONE:
			return MSPROF_CMD_QUIT;
		case START_COLLECTING:
			collecting++;
			break;
		default:
			break;
		}
	}
	if (!was_running && !collecting && d->ops->running(d->s))
		d->ops->discard(d->s);
	return renew_all_idle(d); /* the apps that refused */
}

/* @t's app had stopped collecting on its own before our STOP. */
static void stopped_early(struct msprof_dyn *d, const struct msprof_target *t)
{
	npuprof_warn("pid %d had stopped collecting before the stop: its data of this window may end early",
		     (int)t->app_pid);
	d->incomplete++;
}

static int cmd_stop(struct msprof_dyn *d)
{
	unsigned int i;
	int32_t status;
	int rc, was_collecting;

	for (i = 0; i < d->nr_targets; i++) {
		struct msprof_target *t = &d->t[i];

		if (!target_live(t))
			continue;
		rc = exchange(d, t, DYNPROF_STOP_REQ, &status);
		if (rc) {
			if (exchange_failed(d, t, "stop", rc) == MSPROF_CMD_QUIT)
				return MSPROF_CMD_QUIT;
			continue;
		}
		was_collecting = t->collecting;
		t->collecting = 0;
		if (status == DYNPROF_SUCCESS) {
			reply("dynamic profiling for pid %d stop success", (int)t->app_pid);
		} else if (status == DYNPROF_NOT_START) {
			npuprof_warn("dynamic profiling for pid %d has not started", (int)t->app_pid);
			if (was_collecting && d->ops->running(d->s))
				stopped_early(d, t);
		} else {
			npuprof_err("dynamic profiling for pid %d stop failed (%s)", (int)t->app_pid,
				    dynprof_status_name(status));
			d->failures++;
		}
	}
	/* Whatever the apps say, the user asked to stop: save our capture. */
	if (d->ops->running(d->s))
		finish_capture(d);
	return renew_all_idle(d);
}

int msprof_cmd_quit(struct msprof_dyn *d)
{
	unsigned int i;
	int32_t status;
	int rc;

	if (!live_targets(d)) {
		/* a followed job whose servers are all gone may still have data */
		if (d->ops->running(d->s))
			finish_capture(d);
		return MSPROF_CMD_QUIT;
	}
	if (d->ops->running(d->s) && cmd_stop(d) == MSPROF_CMD_QUIT)
		return MSPROF_CMD_QUIT;
	for (i = 0; i < d->nr_targets; i++) {
		struct msprof_target *t = &d->t[i];

		if (!target_live(t))
			continue;
		rc = exchange(d, t, DYNPROF_QUIT_REQ, &status);
		if (rc) {
			if (exchange_failed(d, t, "quit", rc) == MSPROF_CMD_QUIT)
				return MSPROF_CMD_QUIT;
			continue;
		}
		if (status == DYNPROF_SUCCESS)
			reply("dynamic profiling for pid %d quit success", (int)t->app_pid);
		else
			npuprof_err("dynamic profiling for pid %d quit failed (%s)", (int)t->app_pid,
				    dynprof_status_name(status));
		if (t->fd >= 0)
			close(t->fd);
		t->fd = -1;
		t->gone = 1;
	}
	return MSPROF_CMD_QUIT;
}

/* Not in CANN's prompt: which processes this prompt controls, and how. */
static int cmd_status(struct msprof_dyn *d)
{
	int running = d->ops->running(d->s);
	unsigned int i;

	reply("%u process%s, capture %s", d->nr_targets, d->nr_targets == 1 ? "" : "es",
	      running ? "running" : "stopped");
	for (i = 0; i < d->nr_targets; i++) {
		const struct msprof_target *t = &d->t[i];
		const char *dir = d->ops->prof_dir(d->s, t->app_pid);

		if (target_live(t))
			reply("  pid %d: %s, %s%s", (int)t->app_pid,
			      t->kernel_only ? "no server, kernel side only" : "connected",
			      dir ? "capturing into " : running ? "not capturing (refused start)" : "idle",
			      dir ? dir : "");
		else
			reply("  pid %d: gone (%s)", (int)t->app_pid,
			      t->gone == 1 ? "quit" : t->gone == -ESRCH ? "the process exited"
			      : t->gone == -ECONNRESET ? "its server closed the connection"
			      : t->gone == -ECONNABORTED ? "connecting to its server again failed"
			      : strerror(-t->gone));
	}
	return MSPROF_CMD_CONTINUE;
}

static int cmd_help(struct msprof_dyn *d)
{
	(void)d;
	msprof_cmd_usage();
	return MSPROF_CMD_CONTINUE;
}

static const struct cmd_def cmd_defs[] = {
	{ "start", cmd_start, "start: Start a collection in interactive mode.", 0 },
	{ "stop", cmd_stop, "stop: Stop a collection that was started in interactive mode.", 0 },
	{ "quit", msprof_cmd_quit, "quit (q): Stop collection and quit interactive mode.", 0 },
	{ "q", msprof_cmd_quit, NULL, 0 },
	{ "status", cmd_status,
	  "status: List the controlled processes, whether each is capturing, and where to.", 1 },
	{ "help", cmd_help, "help (h): Print this help.", 0 },
	{ "h", cmd_help, NULL, 0 },
};

#define N_CMDS (sizeof(cmd_defs) / sizeof(cmd_defs[0]))

void msprof_cmd_usage(void)
{
	size_t i;

	printf("Usage:\n");
	for (i = 0; i < N_CMDS; i++)
		if (cmd_defs[i].help)
			printf("  %s\n", cmd_defs[i].help);
	fflush(stdout);
}

/*
 * Exact name, else a prefix naming one command (aliases of one function
 * count once).  Return: the command, NULL for none; *@ambiguous set when
 * the prefix fits several.
 */
static const struct cmd_def *find_cmd(const char *word, int *ambiguous)
{
	const struct cmd_def *hit = NULL;
	size_t i, len = strlen(word);

	*ambiguous = 0;
	for (i = 0; i < N_CMDS; i++)
		if (!strcmp(cmd_defs[i].name, word))
			return &cmd_defs[i];
	/* CANN's commands first: "sta" stays "start" beside our "status" */
	for (int ours = 0; ours < 2 && !hit; ours++) {
		for (i = 0; i < N_CMDS; i++) {
			if (cmd_defs[i].ours != ours || strncmp(cmd_defs[i].name, word, len))
				continue;
			if (hit && hit->fn != cmd_defs[i].fn) {
				*ambiguous = 1;
				return NULL;
			}
			hit = &cmd_defs[i];
		}
	}
	return hit;
}

int msprof_cmd_run_line(struct msprof_dyn *d, const char *line)
{
	char word[MSPROF_LINE_MAX];
	const struct cmd_def *cmd;
	size_t len;
	int ambiguous;

	while (isspace((unsigned char)*line))
		line++;
	len = strlen(line);
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	if (!len)
		return MSPROF_CMD_CONTINUE;
	if (len >= sizeof(word))
		len = sizeof(word) - 1;
	memcpy(word, line, len);
	word[len] = '\0';

	cmd = find_cmd(word, &ambiguous);
	if (cmd)
		return cmd->fn(d);
	/* Batch input (not a terminal) says where the bad line is. */
	if (!d->tty && d->lineno)
		npuprof_err("stdin:%lu: %s option -- '%s'", d->lineno, ambiguous ? "ambiguous" : "invalid", word);
	else
		npuprof_err("%s option -- '%s'", ambiguous ? "ambiguous" : "invalid", word);
	msprof_cmd_usage();
	return MSPROF_CMD_CONTINUE;
}

/* 1 while /proc/<pid> exists and is not a zombie. */
static int proc_alive(pid_t pid)
{
	struct npuprof_proc_stat st;
	int rc = npuprof_proc_stat_read(pid, NULL, &st);

	if (rc == -ESRCH)
		return 0;
	return rc || (st.state != 'Z' && st.state != 'X'); /* unreadable: assume alive */
}

int msprof_app_alive(struct msprof_dyn *d, const struct msprof_target *t)
{
	msprof_launcher_alive(d); /* reaps @d->child when it exited */
	if (d->child > 0 && d->child == t->app_pid)
		return !d->child_reaped;
	/*
	 * Known identity: alive only while the pid still names that process
	 * (not a zombie; a later one given the pid: target_gone() says so).
	 */
	if (t->id.start_ticks) {
		int same = npuprof_proc_id_same(t->app_pid, NULL, &t->id);

		if (same >= 0)
			return same;
	}
	return proc_alive(t->app_pid); /* procfs could not say: as before */
}

static volatile sig_atomic_t got_sigint;
static volatile sig_atomic_t got_sigterm;

static void on_sigint(int sig)
{
	(void)sig;
	got_sigint = 1;
}

static void on_sigterm(int sig)
{
	got_sigterm = sig; /* SIGTERM or SIGHUP, passed on to a launched app */
}

/*
 * Ctrl-C must not kill msprof with a capture running; SIGTERM/SIGHUP end
 * the session as quit does.  No SA_RESTART: poll() returns EINTR and the
 * loop reacts at once.
 */
static void install_signals(struct sigaction old[3])
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_sigint;
	sigaction(SIGINT, &sa, &old[0]);
	sa.sa_handler = on_sigterm;
	sigaction(SIGTERM, &sa, &old[1]);
	sigaction(SIGHUP, &sa, &old[2]);
	got_sigint = 0;
	got_sigterm = 0;
}

static void restore_signals(const struct sigaction old[3])
{
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
	sigaction(SIGHUP, &old[2], NULL);
}

/* @t's socket is readable while no command is pending: a disconnect. */
static int server_event(struct msprof_dyn *d, struct msprof_target *t)
{
	uint8_t buf[DYNPROF_MSG_SIZE];
	struct dynprof_msg m;
	int rc;

	rc = dynprof_recv_all(t->fd, buf, sizeof(buf), DYNPROF_HANDSHAKE_TIMEOUT_MS);
	if (!rc)
		dynprof_decode_msg(buf, &m);
	if (rc || m.type == DYNPROF_DISCONNECT_RSQ)
		return server_lost(d, t, -ECONNRESET) ? MSPROF_CMD_CONTINUE
						       : target_gone(d, t, -ECONNRESET);
	npuprof_warn("unexpected %s from the server for pid %d ignored", dynprof_type_name(m.type),
		     (int)t->app_pid);
	return MSPROF_CMD_CONTINUE;
}

/*
 * Look at every connected app: exited ones are dropped.  Launch mode: let
 * @d->discover find new ones, and end once the launcher exited and no app
 * is left.
 */
static int check_apps(struct msprof_dyn *d)
{
	for (unsigned int i = 0; i < d->nr_targets; i++)
		if (target_live(&d->t[i]) && !msprof_app_alive(d, &d->t[i]) &&
		    target_gone(d, &d->t[i], -ESRCH) == MSPROF_CMD_QUIT)
			return MSPROF_CMD_QUIT;
	if (d->discover && d->discover(d) == MSPROF_CMD_QUIT)
		return MSPROF_CMD_QUIT;
	if (d->child > 0 && !live_targets(d) && !launcher_running(d)) {
		reply("the launched job has exited");
		return session_over(d, -ESRCH);
	}
	return MSPROF_CMD_CONTINUE;
}

/*
 * Run every whole line in @buf (@used bytes); keep the partial tail.
 * @eof: run the tail too.  Return: MSPROF_CMD_QUIT when a command ended
 * the session.
 */
static int run_lines(struct msprof_dyn *d, char *buf, size_t *used, int eof)
{
	char *start = buf, *nl;
	size_t left = *used;
	int res = MSPROF_CMD_CONTINUE;

	while (res == MSPROF_CMD_CONTINUE && (nl = memchr(start, '\n', left))) {
		*nl = '\0';
		d->lineno++;
		res = msprof_cmd_run_line(d, start);
		left -= (size_t)(nl + 1 - start);
		start = nl + 1;
	}
	/* A line longer than the buffer, or the unterminated last line. */
	if (res == MSPROF_CMD_CONTINUE && left && (eof || left == MSPROF_LINE_MAX - 1)) {
		start[left] = '\0';
		d->lineno++;
		res = msprof_cmd_run_line(d, start);
		left = 0;
	}
	memmove(buf, start, left);
	*used = left;
	return res;
}

/* Read what @in_fd has.  Return: MSPROF_CMD_QUIT at quit or end of input. */
static int read_commands(struct msprof_dyn *d, int in_fd, char *buf, size_t *used)
{
	ssize_t n;

	n = read(in_fd, buf + *used, MSPROF_LINE_MAX - 1 - *used);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return MSPROF_CMD_CONTINUE;
	if (n <= 0) {
		if (n < 0)
			npuprof_err("reading commands from stdin: %s", strerror(errno));
		if (run_lines(d, buf, used, 1) == MSPROF_CMD_QUIT)
			return MSPROF_CMD_QUIT;
		return msprof_cmd_quit(d); /* end of input acts as quit */
	}
	*used += (size_t)n;
	return run_lines(d, buf, used, 0);
}

/* One wait for input, a server event, a signal or the check interval. */
static int loop_once(struct msprof_dyn *d, int in_fd, char *buf, size_t *used, int *prompt)
{
	struct pollfd p[1 + MSPROF_MAX_TARGETS] = { { .fd = in_fd, .events = POLLIN } };
	unsigned int i;
	int n;

	for (i = 0; i < d->nr_targets; i++)
		p[1 + i] = (struct pollfd){ .fd = d->t[i].fd, .events = POLLIN };
	if (d->tty && *prompt) {
		fputs("(msprof) ", stdout);
		fflush(stdout);
		*prompt = 0;
	}
	n = poll(p, 1 + d->nr_targets, MSPROF_CHECK_INTERVAL_MS);
	if (n < 0 && errno != EINTR) {
		npuprof_err("waiting for commands: %s", strerror(errno));
		return msprof_cmd_quit(d);
	}
	if (got_sigterm)
		return msprof_cmd_quit(d);
	if (got_sigint) {
		got_sigint = 0;
		reply("%sUse 'quit' or 'q' to exit dynamic profiling.", d->tty ? "\n" : "");
		*prompt = 1;
	}
	/* fd -1 never has revents; a target closed meanwhile is skipped */
	for (i = 0; n > 0 && i < d->nr_targets; i++)
		if (p[1 + i].revents && d->t[i].fd == p[1 + i].fd &&
		    server_event(d, &d->t[i]) == MSPROF_CMD_QUIT)
			return MSPROF_CMD_QUIT;
	if (n > 0 && p[0].revents) {
		*prompt = 1;
		if (read_commands(d, in_fd, buf, used) == MSPROF_CMD_QUIT)
			return MSPROF_CMD_QUIT;
	}
	return check_apps(d);
}

int msprof_cmd_loop(struct msprof_dyn *d, int in_fd)
{
	static char buf[MSPROF_LINE_MAX];
	struct sigaction old[3];
	size_t used = 0;
	int prompt = 1;

	d->gone = 0;
	install_signals(old);
	while (loop_once(d, in_fd, buf, &used, &prompt) == MSPROF_CMD_CONTINUE)
		;
	restore_signals(old);
	/*
	 * Ended by SIGTERM or SIGHUP (timeout(1), a job scheduler): the data is
	 * saved; a job msprof launched runs in its own process group, so the
	 * signal did not reach it, and msprof would wait for it without end.
	 * Pass it on, as app mode and perf record do.
	 */
	if (got_sigterm && d->child > 0 && !d->child_reaped) {
		npuprof_info("%s: passing it on to the launched app (pid %d)",
			     strsignal(got_sigterm), (int)d->child);
		kill(d->child, got_sigterm);
	}
	return d->gone;
}

/* App mode: open the window, with words for a failure. */
static int app_start(struct msprof_dyn *d)
{
	int rc = d->ops->start(d->s);
	char why[512];

	if (rc) {
		npuprof_err("cannot start the capture: %s", session_why(d, rc, 0, why, sizeof(why)));
		d->incomplete++;
		return rc;
	}
	reply("collection started");
	return 0;
}

/* App mode: pass @sig on to the launched command (it shares our group). */
static void app_signal(struct msprof_dyn *d, int sig)
{
	if (d->child > 0 && !d->child_reaped)
		kill(d->child, sig);
}

int msprof_app_loop(struct msprof_dyn *d, uint32_t delay_s, uint32_t duration_s, int started)
{
	int64_t t0 = npuprof_mono_ms(), start_at = t0 + (int64_t)delay_s * 1000;
	int64_t stop_at = duration_s ? start_at + (int64_t)duration_s * 1000 : INT64_MAX;
	struct sigaction old[3];
	int stopped = 0;

	install_signals(old);
	for (;;) {
		int64_t now = npuprof_mono_ms(), next;

		if (d->discover)
			d->discover(d);
		if (!started && now >= start_at) {
			started = 1;
			stopped = app_start(d) != 0;
		}
		if (started && !stopped && now >= stop_at) {
			stopped = 1;
			reply("collection stopped after --duration=%u s", duration_s);
			finish_capture(d);
		}
		if (got_sigint || got_sigterm) {
			/* the user ends the job: save first, then pass it on */
			int sig = got_sigterm ? (int)got_sigterm : SIGINT;

			got_sigint = got_sigterm = 0;
			if (started && !stopped) {
				stopped = 1;
				reply("interrupted: saving the data collected so far");
				finish_capture(d);
			}
			app_signal(d, sig);
		}
		if (!msprof_launcher_alive(d))
			break;
		next = !started ? start_at : !stopped ? stop_at : INT64_MAX;
		usleep((useconds_t)(next - now < 100 ? (next > now ? next - now : 1) : 100) * 1000);
	}
	restore_signals(old);
	if (!started) {
		npuprof_err("Before delay time, the app process has exited: nothing was collected (--delay=%u s)",
			    delay_s);
		return -ENODATA;
	}
	if (!stopped)
		finish_capture(d);
	return 0;
}
