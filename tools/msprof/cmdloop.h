/* SPDX-License-Identifier: MIT */
/*
 * The dynamic-profiling prompt: a {name, fn} command table (start, stop,
 * quit/q, status, help/h; exact or unique-prefix match), the request/reply
 * exchange with the server in each app, the reply wording, and the loop
 * that reads commands from stdin while watching the apps and their sockets.
 *
 * One prompt controls every process of a session (--pid=P1,P2,...): each
 * command goes to every server still connected, each reply names its pid,
 * and a process that exits or whose server leaves is dropped (its data so
 * far is saved) while the others go on.
 *
 * The capture session is reached through struct msprof_session_ops so a
 * unit test can drive the loop against a fake server on a socketpair with
 * fake session calls.
 */
#ifndef MSPROF_CMDLOOP_H
#define MSPROF_CMDLOOP_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <npuprof/proc_id.h>
#include <npuprof/session.h>

#include "preflight.h"

/** struct msprof_session_ops - the session.h calls the loop makes */
struct msprof_session_ops {
	int (*start)(struct npuprof_session *s);
	int (*running)(const struct npuprof_session *s);
	int (*stop)(struct npuprof_session *s, struct npuprof_session_result *res,
		    unsigned int nres);
	int (*discard)(struct npuprof_session *s);
	int (*discard_pid)(struct npuprof_session *s, pid_t pid);
	int (*remove_pid)(struct npuprof_session *s, pid_t pid);
	unsigned int (*window_dirs)(const struct npuprof_session *s);
	const char *(*prof_dir)(const struct npuprof_session *s, pid_t pid);
	const struct npuprof_error *(*error)(const struct npuprof_session *s);
	unsigned int (*missing_layers)(const struct npuprof_session *s); /* NULL: none */
	pid_t (*submits_missing)(const struct npuprof_session *s, int *why); /* NULL: none */
};

/* The real ones: npuprof_session_*() (defined in dynamic.c, so the loop
 * links without the session code in unit tests). */
extern const struct msprof_session_ops msprof_session_ops_real;

/*
 * Longest socket path a target keeps: beyond sun_path's 108 bytes (a
 * container's socket through /proc/P/root) dynprof_client.c connects
 * through the directory's descriptor.
 */
#define MSPROF_SOCKET_PATH_MAX 512

/* Processes one prompt controls (NPUPROF_SESSION_MAX_PIDS). */
#define MSPROF_MAX_TARGETS NPUPROF_SESSION_MAX_PIDS

/**
 * struct msprof_target - one process the prompt controls: the connection
 * to its app's server, or none (@kernel_only)
 * @fd:      connected socket; -1 once it is gone, and always with
 *           @kernel_only
 * @app_pid: the server's process (the app); named in every reply
 * @gone:    0 while connected, else why it ended: 1 quit, -ESRCH (the app
 *           exited), -ECONNRESET (the server left), -ECONNABORTED
 *           (connecting again between windows failed), another -errno
 *           (an exchange failed)
 * @msgs:    commands sent on @fd; the server drops a connection after
 *           DYNPROF_MAX_MESSAGES of them, so the loop reconnects first
 * @collecting: the app collects for us: it accepted a START (or was
 *           collecting already) and has had no STOP since
 * @path:    the server's socket, for connecting again ("" when unknown)
 * @kernel_only: the process has no dynamic-profiling server (or it could
 *           not be reached): it is captured from the kernel side alone
 *           (uprobes, driver tracepoints), and the prompt answers for it
 *           what a server would (kernel_only_reply() in cmdloop.c)
 * @id:      who @app_pid was when it was attached (start time, pids in
 *           its namespaces); a pid that now names another process is
 *           treated as exited, never captured (start_ticks 0: unknown)
 * @windows: capture windows it collected in; an attached process that
 *           exits before any is a process not captured (a failure, with
 *           its --result line)
 */
struct msprof_target {
	int fd;
	pid_t app_pid;
	int gone;
	unsigned int msgs;
	int collecting;
	char path[MSPROF_SOCKET_PATH_MAX];
	int kernel_only;
	struct npuprof_proc_id id;
	unsigned int windows;
};

/**
 * struct msprof_dyn - the prompt's state: the apps it controls
 * @t:              the connections, @nr_targets of them
 * @child:          launch mode: the process msprof forked, else 0
 * @child_reaped:   @child has been waited for; @child_status holds its status
 * @child_status:   wait status of @child
 * @ops:            session calls
 * @s:              the capture session (opened by the caller)
 * @tty:            stdin is a terminal: print the "(msprof) " prompt
 * @cmd_timeout_ms: wait for one reply (DYNPROF_COMMAND_TIMEOUT_MS)
 * @lineno:         input lines read, for "stdin:N:" in batch mode
 * @gone:           0, or why the session ended without quit: -ESRCH (the
 *                  last app exited), -ECONNRESET (its server left) or
 *                  -ECONNABORTED (connecting to it again failed)
 * @failures:       requested captures that failed: a process that could
 *                  not be reached, refused a start or a stop, or whose
 *                  connection was lost by a failed exchange
 * @saved:          PROF_XXX directories saved (with or without data)
 * @incomplete:     windows known to miss part of what was asked for: a
 *                  start or a stop of our capture failed, a write failed,
 *                  records were lost, an app stopped collecting in the
 *                  middle of a window (its connection dropped), a
 *                  connection could not be renewed between windows, the
 *                  --result file could not be written.  With @failures
 *                  and @saved, these make the exit status
 *                  (msprof_run_status())
 * @out_fd:         --output, open and proven writable before anything is
 *                  attached (npuprof_prof_output_open()); -1 before
 * @out_made:       directories of --output that this run created
 * @result:         --result stream, NULL when not asked for (result.h)
 * @discover:       optional, called every check interval: may add targets
 *                  (launch mode: the ranks the launched job starts)
 * @params:         the ProfileParams JSON for servers found later
 * @reconnect:      optional: connect @t (whose old connection the loop
 *                  has closed: the server serves one client at a time) to
 *                  @t->path again and send the parameters; 0 with @t->fd
 *                  set, or -errno with @t->fd -1.  The loop calls it
 *                  between windows only, when the server's message limit
 *                  leaves no room for a START and its STOP, so any number
 *                  of windows fit one run
 * @require_server: attach mode, --require-server=on: a process whose
 *                  dynamic-profiling server cannot be reached is refused
 *                  (CANN's behaviour), not captured from the kernel side
 * @untraced_warned: the ACL functions the library lacks have been named
 * @runtime_warned: the warning that the app maps no libruntime.so was given
 * @submits_warned: the warning that a process's libascend_hal.so could not
 *                  be probed (its tasks have no submit) was given
 * @writer:         enum npuprof_writer the preflight chose for the session
 *                  (io_uring refused here: the pwrite fallback)
 * @pf:             what the capture preflight found (preflight.h): the API
 *                  levels left out and why, the device-task path
 */
struct msprof_dyn {
	struct msprof_target t[MSPROF_MAX_TARGETS];
	unsigned int nr_targets;
	pid_t child;
	int child_reaped;
	int child_status;
	const struct msprof_session_ops *ops;
	struct npuprof_session *s;
	int tty;
	int cmd_timeout_ms;
	unsigned long lineno;
	int gone;
	unsigned int failures;
	unsigned int saved;
	unsigned int incomplete;
	int out_fd;
	unsigned int out_made;
	FILE *result;
	int (*discover)(struct msprof_dyn *d);
	const char *params;
	int (*reconnect)(struct msprof_dyn *d, struct msprof_target *t);
	int require_server;
	int untraced_warned;
	int runtime_warned;
	int submits_warned;
	int writer;
	struct msprof_preflight pf;
};

/* msprof_cmd_run_line() results */
enum msprof_cmd_result {
	MSPROF_CMD_CONTINUE = 0, /* read the next command */
	MSPROF_CMD_QUIT = 1,	 /* the session is over (quit, or the server left) */
};

/**
 * msprof_cmd_run_line() - run one input line (trimmed; blank is a no-op)
 *
 * Prints the reply lines.  Return: MSPROF_CMD_CONTINUE or MSPROF_CMD_QUIT.
 */
int msprof_cmd_run_line(struct msprof_dyn *d, const char *line);

/**
 * msprof_cmd_quit() - what "quit" does: stop if capturing, QUIT_REQ.
 * Used for end of input and SIGTERM too.  Return: MSPROF_CMD_QUIT.
 */
int msprof_cmd_quit(struct msprof_dyn *d);

/**
 * msprof_cmd_loop() - read commands from @in_fd until quit or end of input,
 * checking the app about every second
 *
 * SIGTERM and SIGHUP end the session as quit does; a job msprof launched
 * (@d->child) then gets the same signal (it runs in a process group of
 * its own, which the sender did not reach).
 *
 * Return: 0 when the session ended by quit or end of input, -ESRCH when
 * the app exited, -ECONNRESET when the server closed the connection, or
 * the -errno of a failed exchange (-ETIMEDOUT: no reply in time); any
 * running capture is stopped and saved first in every case.
 */
int msprof_cmd_loop(struct msprof_dyn *d, int in_fd);

/**
 * msprof_app_alive() - 1 while @t's app runs (reaps @d->child if it
 * exited), else 0.
 */
int msprof_app_alive(struct msprof_dyn *d, const struct msprof_target *t);

/**
 * msprof_cmd_start_one() - ask @t's app to start while a window runs (a
 * server found in the middle of it).  Return: MSPROF_CMD_CONTINUE, or
 * MSPROF_CMD_QUIT when it was the last app and is gone.
 */
int msprof_cmd_start_one(struct msprof_dyn *d, struct msprof_target *t);

/**
 * msprof_result_error() - a --result line could not be written (@err, a
 * negative errno): say so, count the run incomplete (the data is saved,
 * its result line is missing) and stop writing results.
 */
void msprof_result_error(struct msprof_dyn *d, int err);

/**
 * msprof_app_loop() - app mode: no prompt, stdin left to the app.  Start the window
 * @delay_s seconds after the launch (unless @started: the caller opened it
 * before the app ran), stop it after
 * @duration_s seconds (0: when the job exits), and return once the
 * job (the launched command and every process it left behind) exited and
 * everything is saved.  SIGINT or
 * SIGTERM saves the window, then passes the signal on to the command.
 * @d->discover runs every 100 ms (it places the uprobes).  Return: 0, or
 * -ENODATA when the job ended before the delay (nothing was collected).
 */
int msprof_app_loop(struct msprof_dyn *d, uint32_t delay_s, uint32_t duration_s, int started);

/**
 * msprof_launcher_alive() - 1 while the launched job runs: the command
 * (@d->child) or any process it left (msprof is their subreaper).  Reaps
 * them; @d->child's status lands in @d->child_status.
 */
int msprof_launcher_alive(struct msprof_dyn *d);

/** msprof_cmd_usage() - the command help printed by "help" and on errors. */
void msprof_cmd_usage(void);

/**
 * msprof_warn_missing_layers() - once per run: --runtime-api=on, and the
 * runtime library is not probed or a process maps none (an app that does
 * not load CANN's runtime).  A warning, not an error: the capture goes on
 * at the levels found (a runtime-only attach of such a process fails
 * instead, msprof_error_words()).  Called after every attach and at every
 * saved window.  Also once per run: the first process whose
 * libascend_hal.so could not be probed for task submits
 * (npuprof_session_submits_missing()).
 */
void msprof_warn_missing_layers(struct msprof_dyn *d);

#endif /* MSPROF_CMDLOOP_H */
