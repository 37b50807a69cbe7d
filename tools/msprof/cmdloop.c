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
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <npuprof/dynprof_proto.h>
#include <npuprof/msg.h>

#include "cmdloop.h"

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

/*
 * Send {@type, 0} and wait for the reply.  Return: 0 with *@status (a reply
 * of another type counts as DYNPROF_FAIL), -ECONNRESET when the server
 * said DISCONNECT_RSQ or closed, -ETIMEDOUT, or another -errno.
 */
static int exchange(struct msprof_dyn *d, int32_t type, int32_t *status)
{
	uint8_t buf[DYNPROF_MSG_SIZE];
	struct dynprof_msg m;
	int rc;

	if (d->fd < 0)
		return -ENOTCONN;
	dynprof_encode_msg(buf, type, 0);
	rc = dynprof_send_all(d->fd, buf, sizeof(buf), d->cmd_timeout_ms);
	if (rc)
		return rc == -EPIPE ? -ECONNRESET : rc;
	rc = dynprof_recv_all(d->fd, buf, sizeof(buf), d->cmd_timeout_ms);
	if (rc)
		return rc;
	dynprof_decode_msg(buf, &m);
	if (m.type == DYNPROF_DISCONNECT_RSQ)
		return -ECONNRESET;
	*status = m.type == type + 1 ? m.status : DYNPROF_FAIL;
	return 0;
}

/* The session's own words for its last failure ("/x: No space left on
 * device"), else the errno's. */
static const char *session_why(struct msprof_dyn *d, int rc)
{
	const char *why = d->ops->last_error(d->s);

	return why && *why ? why : strerror(-rc);
}

/* Stop the running capture and say where its data is. */
static void finish_capture(struct msprof_dyn *d)
{
	struct npuprof_session_result res;
	int rc;

	memset(&res, 0, sizeof(res));
	rc = d->ops->stop(d->s, &res);
	if (rc)
		npuprof_err("stopping the capture for pid %d failed: %s", (int)d->app_pid,
			    session_why(d, rc));
	if (res.prof_dir[0])
		reply("PROF data saved in %s: %llu api records, %llu device task events, %llu records lost",
		      res.prof_dir, (unsigned long long)res.api_records,
		      (unsigned long long)res.task_records, (unsigned long long)res.lost);
	if (res.write_error)
		npuprof_err("writing PROF data in %s failed: %s%s", res.prof_dir,
			    strerror(-res.write_error),
			    res.write_error == -ENOSPC ? ": free disk space under --output and collect again" : "");
}

static void close_connection(struct msprof_dyn *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/*
 * A closed connection usually means the app is exiting: its socket closes
 * a moment before its process is gone.  Give it half a second to tell the
 * two cases apart.
 */
static int app_exiting(struct msprof_dyn *d)
{
	int i;

	for (i = 0; i < 5; i++) {
		if (!msprof_app_alive(d))
			return 1;
		usleep(100 * 1000);
	}
	return 0;
}

/*
 * The app or its server went away (@why: -ESRCH exited, -ECONNRESET the
 * server closed the connection, anything else: the exchange failed and
 * the caller already said why): save what was captured, end the session.
 */
static int server_gone(struct msprof_dyn *d, int why)
{
	if (why == -ECONNRESET && app_exiting(d))
		why = -ESRCH;
	if (why == -ESRCH) {
		reply("server process %d has exited", (int)d->app_pid);
	} else if (why == -ECONNRESET) {
		npuprof_warn("server process %d closed the connection (no start within 30 min, or 100 commands on one connection): run msprof again to reconnect",
			     (int)d->app_pid);
	}
	if (d->ops->running(d->s)) {
		reply("saving the data collected so far");
		finish_capture(d);
	}
	close_connection(d);
	d->gone = why;
	return MSPROF_CMD_QUIT;
}

/* An exchange for command @what failed with @rc. */
static int exchange_failed(struct msprof_dyn *d, const char *what, int rc)
{
	if (rc == -ETIMEDOUT)
		npuprof_err("no reply from the server for pid %d to %s within %d s", (int)d->app_pid,
			    what, d->cmd_timeout_ms / 1000);
	else if (rc != -ECONNRESET)
		npuprof_err("%s for pid %d: lost the connection: %s", what, (int)d->app_pid, strerror(-rc));
	return server_gone(d, rc);
}

static int cmd_start(struct msprof_dyn *d)
{
	int was_running = d->ops->running(d->s);
	int32_t status;
	int rc;

	if (!was_running) {
		rc = d->ops->start(d->s);
		if (rc) {
			npuprof_err("cannot start the capture for pid %d: %s", (int)d->app_pid,
				    session_why(d, rc));
			return MSPROF_CMD_CONTINUE;
		}
	}
	rc = exchange(d, DYNPROF_START_REQ, &status);
	if (rc) {
		if (!was_running)
			d->ops->discard(d->s);
		return exchange_failed(d, "start", rc);
	}
	if (status == DYNPROF_SUCCESS) {
		reply("dynamic profiling for pid %d start success", (int)d->app_pid);
		return MSPROF_CMD_CONTINUE;
	}
	/* The app is collecting already: our capture matches it, keep it. */
	if (status == DYNPROF_ALREADY_START) {
		npuprof_warn("dynamic profiling for pid %d already started", (int)d->app_pid);
		return MSPROF_CMD_CONTINUE;
	}
	if (!was_running)
		d->ops->discard(d->s);
	if (status == DYNPROF_NOT_SET_DEVICE)
		npuprof_warn("dynamic profiling device for pid %d has not been set up: start again after the app has called aclrtSetDevice",
			     (int)d->app_pid);
	else
		npuprof_err("dynamic profiling for pid %d start failed (%s)", (int)d->app_pid,
			    dynprof_status_name(status));
	return MSPROF_CMD_CONTINUE;
}

static int cmd_stop(struct msprof_dyn *d)
{
	int32_t status;
	int rc;

	rc = exchange(d, DYNPROF_STOP_REQ, &status);
	if (rc)
		return exchange_failed(d, "stop", rc);
	if (status == DYNPROF_SUCCESS)
		reply("dynamic profiling for pid %d stop success", (int)d->app_pid);
	else if (status == DYNPROF_NOT_START)
		npuprof_warn("dynamic profiling for pid %d has not started", (int)d->app_pid);
	else
		npuprof_err("dynamic profiling for pid %d stop failed (%s)", (int)d->app_pid,
			    dynprof_status_name(status));
	/* Whatever the app says, the user asked to stop: save our capture. */
	if (d->ops->running(d->s))
		finish_capture(d);
	return MSPROF_CMD_CONTINUE;
}

int msprof_cmd_quit(struct msprof_dyn *d)
{
	int32_t status;
	int rc;

	if (d->fd < 0)
		return MSPROF_CMD_QUIT;
	if (d->ops->running(d->s) && cmd_stop(d) == MSPROF_CMD_QUIT)
		return MSPROF_CMD_QUIT;
	rc = exchange(d, DYNPROF_QUIT_REQ, &status);
	if (rc)
		return exchange_failed(d, "quit", rc);
	if (status == DYNPROF_SUCCESS)
		reply("dynamic profiling for pid %d quit success", (int)d->app_pid);
	else
		npuprof_err("dynamic profiling for pid %d quit failed (%s)", (int)d->app_pid,
			    dynprof_status_name(status));
	close_connection(d);
	return MSPROF_CMD_QUIT;
}

static int cmd_help(struct msprof_dyn *d)
{
	(void)d;
	msprof_cmd_usage();
	return MSPROF_CMD_CONTINUE;
}

static const struct cmd_def cmd_defs[] = {
	{ "start", cmd_start, "start: Start a collection in interactive mode." },
	{ "stop", cmd_stop, "stop: Stop a collection that was started in interactive mode." },
	{ "quit", msprof_cmd_quit, "quit (q): Stop collection and quit interactive mode." },
	{ "q", msprof_cmd_quit, NULL },
	{ "help", cmd_help, "help (h): Print this help." },
	{ "h", cmd_help, NULL },
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
	for (i = 0; i < N_CMDS; i++) {
		if (strncmp(cmd_defs[i].name, word, len))
			continue;
		if (hit && hit->fn != cmd_defs[i].fn) {
			*ambiguous = 1;
			return NULL;
		}
		hit = &cmd_defs[i];
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
	char path[64], buf[512], *paren;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) S ...": comm may hold ')' so take the last one. */
	paren = strrchr(buf, ')');
	if (!paren || paren[1] != ' ')
		return 1;
	return paren[2] != 'Z' && paren[2] != 'X';
}

int msprof_app_alive(struct msprof_dyn *d)
{
	int status;
	pid_t r;

	if (d->child > 0 && !d->child_reaped) {
		r = waitpid(d->child, &status, WNOHANG);
		if (r == d->child) {
			d->child_reaped = 1;
			d->child_status = status;
		}
	}
	if (d->child > 0 && d->child == d->app_pid)
		return !d->child_reaped;
	return proc_alive(d->app_pid);
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
	(void)sig;
	got_sigterm = 1;
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

/* The socket is readable while no command is pending: a disconnect. */
static int server_event(struct msprof_dyn *d)
{
	uint8_t buf[DYNPROF_MSG_SIZE];
	struct dynprof_msg m;
	int rc;

	rc = dynprof_recv_all(d->fd, buf, sizeof(buf), DYNPROF_HANDSHAKE_TIMEOUT_MS);
	if (rc)
		return server_gone(d, -ECONNRESET);
	dynprof_decode_msg(buf, &m);
	if (m.type == DYNPROF_DISCONNECT_RSQ)
		return server_gone(d, -ECONNRESET);
	npuprof_warn("unexpected %s from the server for pid %d ignored", dynprof_type_name(m.type),
		     (int)d->app_pid);
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
	struct pollfd p[2] = { { .fd = in_fd, .events = POLLIN }, { .fd = d->fd, .events = POLLIN } };
	int n;

	if (d->tty && *prompt) {
		fputs("(msprof) ", stdout);
		fflush(stdout);
		*prompt = 0;
	}
	n = poll(p, 2, MSPROF_CHECK_INTERVAL_MS);
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
	if (n > 0 && p[1].revents && server_event(d) == MSPROF_CMD_QUIT)
		return MSPROF_CMD_QUIT;
	if (n > 0 && p[0].revents) {
		*prompt = 1;
		if (read_commands(d, in_fd, buf, used) == MSPROF_CMD_QUIT)
			return MSPROF_CMD_QUIT;
	}
	if (!msprof_app_alive(d))
		return server_gone(d, -ESRCH);
	return MSPROF_CMD_CONTINUE;
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
	return d->gone;
}
