// SPDX-License-Identifier: MIT
/*
 * msprof --dynamic=on (see dynamic.h): launch or attach, connect to the
 * dynamic-profiling server in each app, hand it the parameters, open the
 * capture session, run the prompt, and in launch mode wait for the app.
 *
 * Attach mode opens the session and selects each pid before it connects:
 * a process another msprof already profiles is refused at once, naming
 * that msprof, and its server is never disturbed.  With several pids each
 * one's trouble is named and the others go on.
 *
 * The capture itself (npuprof.ko rings, BPF uprobes, PROF_XXX writing) is
 * session.h's; the socket protocol is dynprof_wire.h's.  This file only
 * sequences them and words their failures.
 */
#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <npuprof/acl_trace.h>
#include <npuprof/clock.h>
#include <dynprof_wire.h>
#include <npuprof/msg.h>
#include <npuprof/name_text.h>
#include <npuprof/npu_backend.h>
#include <npuprof/prof_fs.h>
#include <npuprof/session.h>

#include "cmdloop.h"
#include "dynamic.h"
#include "error_words.h"
#include "result.h"
#include "server_find.h"

const struct msprof_session_ops msprof_session_ops_real = {
	.start = npuprof_session_start,
	.running = npuprof_session_running,
	.stop = npuprof_session_stop,
	.discard = npuprof_session_discard,
	.discard_pid = npuprof_session_discard_pid,
	.remove_pid = npuprof_session_remove_pid,
	.window_dirs = npuprof_session_window_dirs,
	.prof_dir = npuprof_session_prof_dir,
	.error = npuprof_session_error,
	.missing_layers = npuprof_session_missing_layers,
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

/* "exited with status 3" / "was killed by signal 9 (Killed)" */
static void describe_status(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "ended (wait status 0x%x)", status);
}

/* In the child: set the dynamic-profiling environment and exec the app. */
static void __attribute__((noreturn)) exec_app(const struct msprof_options *o, const char *params,
						pid_t msprof_pid, int gate_fd, int err_fd)
{
	char key[24], go;
	int e, null_fd;
	ssize_t n;

	snprintf(key, sizeof(key), "%d", (int)msprof_pid);
	/* app mode: the parameters only, no in-app server (msprof needs none) */
	if (o->dynamic && (setenv("PROFILING_MODE", "dynamic", 1) ||
			   setenv("DYNAMIC_PROFILING_KEY_PID", key, 1)))
		goto out_report;
	if (setenv("PROFILER_SAMPLECONFIG", params, 1))
		goto out_report;
	/*
	 * Dynamic mode: its own process group, so Ctrl-C at the (msprof)
	 * prompt reaches msprof only (which answers "use quit") and never
	 * kills the job; and the prompt owns stdin, so the app must not eat
	 * the commands.  App mode has no prompt: the app keeps both, as
	 * under CANN's msprof.
	 */
	if (o->dynamic) {
		setpgid(0, 0);
		null_fd = open("/dev/null", O_RDONLY);
		if (null_fd >= 0) {
			dup2(null_fd, STDIN_FILENO);
			if (null_fd != STDIN_FILENO)
				close(null_fd);
		}
	}
	/* msprof follows this process before it may start anything */
	do
		n = read(gate_fd, &go, 1);
	while (n < 0 && errno == EINTR);
	close(gate_fd);
	execvp(o->app_argv[0], o->app_argv);
out_report:
	e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* @cmd as execvp would find it, into @path; 0 or -ENOENT. */
static int which(const char *cmd, char *path, size_t size)
{
	const char *dirs = getenv("PATH"), *p, *end;

	if (strchr(cmd, '/')) {
		snprintf(path, size, "%s", cmd);
		return access(path, X_OK) ? -ENOENT : 0;
	}
	for (p = dirs ? dirs : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		snprintf(path, size, "%.*s/%s", (int)(end - p), *p == ':' || end == p ? "." : p, cmd);
		if (!access(path, X_OK))
			return 0;
	}
	return -ENOENT;
}

/*
 * The library @lib (libascendcl.so, libruntime.so) an ELF program @exe
 * will load: its dynamic loader lists the libraries, those its libraries
 * need too, without running the program when LD_TRACE_LOADED_OBJECTS is
 * set (what ldd does).  0 with @path, or -errno.
 */
static int traced_acl_lib(const char *exe, const char *lib, char *path, size_t size)
{
	char line[PATH_MAX + 64], arrow_text[64], *arrow, *end;
	unsigned char magic[4] = { 0 };
	int fd, pfd[2], rc = -ENOENT;
	FILE *f;
	pid_t pid;

	fd = open(exe, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (read(fd, magic, 4) != 4 || memcmp(magic, "\177ELF", 4)) {
		close(fd);
		return -ENOEXEC; /* a script: its interpreter's libraries say nothing */
	}
	close(fd);
	snprintf(arrow_text, sizeof(arrow_text), "%s => /", lib);
	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], STDOUT_FILENO);
		setenv("LD_TRACE_LOADED_OBJECTS", "1", 1);
		execl(exe, exe, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	f = pid > 0 ? fdopen(pfd[0], "r") : NULL;
	while (f && fgets(line, sizeof(line), f)) {
		/* "\tlibascendcl.so => /x/libascendcl.so (0x...)" */
		arrow = strstr(line, arrow_text);
		end = arrow ? strstr(arrow, " (") : NULL;
		if (rc && end) {
			*end = '\0';
			snprintf(path, size, "%s", arrow + strlen(arrow_text) - 1);
			rc = 0;
		}
	}
	if (f)
		fclose(f);
	else
		close(pfd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return rc;
}

/*
 * Where the launched job's library @lib is, before it runs: what the
 * program itself loads, else the first in LD_LIBRARY_PATH (which the job
 * inherits; a launcher script usually sets up its ranks' path there).
 * Return: 0 with @path, or -ENOENT (found later, at the first mapping).
 */
static int find_job_acl_lib(const struct msprof_options *o, const char *lib, char *path,
			    size_t size)
{
	const char *dirs = getenv("LD_LIBRARY_PATH"), *p, *end;
	char exe[PATH_MAX];

	if (!which(o->app_argv[0], exe, sizeof(exe)) && !traced_acl_lib(exe, lib, path, size))
		return 0;
	for (p = dirs ? dirs : ""; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (end == p)
			continue;
		snprintf(path, size, "%.*s/%s", (int)(end - p), p, lib);
		if (!access(path, R_OK))
			return 0;
	}
	return -ENOENT;
}

/* Once per run: the recorded functions the library lacks, by name. */
static void warn_untraced(struct msprof_dyn *d)
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

/*
 * Put the uprobes on the job's library @lib now.  Return: 1 when placed, or
 * when that library can never be probed (it lacks a function every runtime
 * has: said so); 0 when not (they go on at the first process that maps it).
 */
static int probe_job_file(struct msprof_dyn *d, const struct msprof_options *o,
			  const char *name)
{
	char lib[PATH_MAX], words[PATH_MAX + 512];

	if (find_job_acl_lib(o, name, lib, sizeof(lib)))
		return 0;
	if (npuprof_session_probe_file(d->s, lib)) {
		const struct npuprof_error *e = npuprof_session_error(d->s);

		msprof_error_words(e, 0, words, sizeof(words));
		if (e->stage == NPUPROF_STAGE_SYMBOLS) { /* the words name the file */
			npuprof_warn("%s; runtime API calls are not captured", words);
			return 1; /* the job's processes map it: no use trying each */
		}
		npuprof_warn("cannot place the uprobes on %s (%s): they go on when the job maps its %s",
			     lib, words, name);
		return 0;
	}
	return 1;
}

/*
 * Launch and app mode, before the app runs: put the uprobes on the job's
 * libraries now (libascendcl.so for --ascendcl, libruntime.so for
 * --runtime-api), so its calls are captured from the first.  Return: 1
 * when every one asked for is placed or can never be (probe_job_file()); 0
 * when not (they go on at the first process that maps them).
 */
static int probe_job_lib(const struct msprof_options *o, struct msprof_dyn *d)
{
	int done = 1;

	if (!o->ascendcl && !o->runtime_api)
		return 0;
	if (o->ascendcl)
		done &= probe_job_file(d, o, NPUPROF_ACL_LIB_NAME);
	if (o->runtime_api)
		done &= probe_job_file(d, o, NPUPROF_RUNTIME_LIB_NAME);
	if (done)
		warn_untraced(d);
	return done;
}

/* Before anything starts: the app exists and can be run. */
static int check_runnable(const struct msprof_options *o)
{
	char exe[PATH_MAX];

	if (!which(o->app_argv[0], exe, sizeof(exe)))
		return 0;
	npuprof_err("cannot run %s: %s", o->app_argv[0],
		    strchr(o->app_argv[0], '/') ? "no such executable file"
						: "not found in PATH (give its path)");
	return -ENOENT;
}

/* A forked app that waits at its gate before exec (launch_app()). */
struct launched {
	pid_t pid;
	int gate_fd; /* write a byte (or close) to let it exec */
	int err_fd;  /* close-on-exec pipe: an errno arrives when exec failed */
};

/*
 * Fork the app; it waits at the gate so msprof can follow it before it
 * starts anything.  Return: 0 with *@l, or -errno.
 */
static int launch_app(const struct msprof_options *o, const char *params, struct launched *l)
{
	pid_t msprof_pid = getpid(), pid;
	int efd[2], gfd[2], e;

	if (pipe2(efd, O_CLOEXEC))
		return -errno;
	if (pipe2(gfd, O_CLOEXEC)) {
		e = errno;
		close(efd[0]);
		close(efd[1]);
		return -e;
	}
	/* ranks the launcher leaves behind stay ours: the job ends with its last */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(efd[0]);
		close(efd[1]);
		close(gfd[0]);
		close(gfd[1]);
		npuprof_err("cannot start %s: fork: %s", o->app_argv[0], strerror(e));
		return -e;
	}
	if (pid == 0) {
		close(efd[0]);
		close(gfd[1]);
		exec_app(o, params, msprof_pid, gfd[0], efd[1]);
	}
	close(efd[1]);
	close(gfd[0]);
	*l = (struct launched){ .pid = pid, .gate_fd = gfd[1], .err_fd = efd[0] };
	return 0;
}

/*
 * Open the app's gate and learn whether exec worked (the error pipe closes
 * on exec).  Return: 0, or -errno of a failed exec (the child is reaped).
 */
static int release_app(const struct msprof_options *o, struct launched *l)
{
	ssize_t n;
	int e = 0;

	if (write(l->gate_fd, "g", 1) < 0) {
		/* the child died before exec: its error pipe says why, or EOF */
	}
	close(l->gate_fd);
	do
		n = read(l->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(l->err_fd);
	if (n == (ssize_t)sizeof(e)) {
		waitpid(l->pid, NULL, 0);
		npuprof_err("cannot run %s: %s", o->app_argv[0], strerror(e));
		return -e;
	}
	return 0;
}

/*
 * One connect() to the Unix socket at @path.  A path longer than
 * sun_path's 108 bytes (a container's socket seen through /proc/P/root)
 * is reached through its directory, opened O_PATH: /proc/self/fd/N/<name>.
 * Return: 0 with *@fd, or -errno.
 */
static int connect_unix(const char *path, int *fd)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char dir[MSPROF_SOCKET_PATH_MAX];
	const char *name = strrchr(path, '/');
	int s, e, dfd = -1;

	if (strlen(path) >= sizeof(dir))
		return -ENAMETOOLONG;
	if (strlen(path) < sizeof(addr.sun_path)) {
		strcpy(addr.sun_path, path);
	} else {
		if (!name || name == path)
			return -ENAMETOOLONG;
		snprintf(dir, sizeof(dir), "%.*s", (int)(name - path), path);
		dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			return -errno;
		if ((size_t)snprintf(addr.sun_path, sizeof(addr.sun_path), "/proc/self/fd/%d%s", dfd,
				     name) >= sizeof(addr.sun_path)) {
			close(dfd);
			return -ENAMETOOLONG;
		}
	}
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0) {
		e = errno;
		if (dfd >= 0)
			close(dfd);
		return -e;
	}
	e = connect(s, (struct sockaddr *)&addr, sizeof(addr)) ? errno : 0;
	if (dfd >= 0)
		close(dfd);
	if (e) {
		close(s);
		return -e;
	}
	*fd = s;
	return 0;
}

/* connect_unix() for @t, which keeps @path for connecting again. */
static int connect_target(struct msprof_target *t, const char *path)
{
	if (strlen(path) >= sizeof(t->path))
		return -ENAMETOOLONG;
	strcpy(t->path, path);
	return connect_unix(path, &t->fd);
}

/*
 * Launch mode: the app creates $HOME/dynamic_profiling_socket_<msprof pid>
 * in aclInit.  Try every MSPROF_CONNECT_RETRY_MS for up to
 * MSPROF_CONNECT_TIMEOUT_MS while the child lives.  Return: 0 or -errno.
 */
static int connect_launched(const struct msprof_options *o, struct msprof_dyn *d,
			    struct msprof_target *t)
{
	int64_t deadline = npuprof_mono_ms() + MSPROF_CONNECT_TIMEOUT_MS;
	char path[PATH_MAX], how[96];
	int rc;

	for (;;) {
		rc = msprof_socket_find(getuid(), getpid(), path, sizeof(path));
		if (rc == -ENAMETOOLONG) {
			npuprof_err("the socket path %s is too long for a Unix socket: use a shorter $HOME", path);
			return rc;
		}
		if (!rc && !connect_target(t, path))
			return 0;
		if (!msprof_app_alive(d, t)) {
			describe_status(d->child_status, how, sizeof(how));
			npuprof_err("%s (pid %d) %s before it opened the dynamic profiling socket %s: see its own messages above (the socket appears when the app calls aclInit)",
				    o->app_argv[0], (int)d->child, how, path);
			return -ESRCH;
		}
		if (npuprof_mono_ms() >= deadline) {
			npuprof_err("cannot connect to server for pid %d, timeout: no socket %s after %d s: does the app call aclInit?",
				    (int)d->child, path, MSPROF_CONNECT_TIMEOUT_MS / 1000);
			return -ETIMEDOUT;
		}
		usleep(MSPROF_CONNECT_RETRY_MS * 1000);
	}
}

/* The process that listens on the socket: the app, even behind a wrapper. */
static pid_t peer_pid(int fd, pid_t fallback)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) || cred.pid <= 0)
		return fallback;
	return cred.pid;
}

/*
 * "@path is served by ...": the socket of that name belongs to process
 * @peer, not the app (0: a process outside msprof's pid namespace).
 */
static const char *served_by(const char *path, pid_t peer, char *buf, size_t size)
{
	if (peer)
		snprintf(buf, size, "%s is served by pid %d, another process", path, (int)peer);
	else
		snprintf(buf, size, "%s is served by a process outside msprof's pid namespace", path);
	return buf;
}

/*
 * Why connecting to @pid's server at @path failed (@rc), as CANN's msprof
 * words it; -EADDRINUSE: the socket is served by process @peer.
 */
static void say_connect_failed(pid_t pid, int rc, const char *path, pid_t peer)
{
	char words[PATH_MAX + 96];

	if (rc == -EADDRINUSE && !peer)
		npuprof_err("cannot connect to server for pid %d: %s, not by pid %d", (int)pid,
			    served_by(path, peer, words, sizeof(words)), (int)pid);
	else if (rc == -EADDRINUSE)
		npuprof_err("cannot connect to server for pid %d: %s (a process in another pid namespace with the same pid inside)",
			    (int)pid, served_by(path, peer, words, sizeof(words)));
	else if (rc == -ENOENT)
		npuprof_err("server process %d did not create socket, or process has already exited: no dynamic profiling socket %s (start the app with PROFILING_MODE=dynamic, or attach with --require-server=off)",
			    (int)pid, path);
	else if (rc == -ECONNREFUSED)
		npuprof_err("cannot connect to server for pid %d, maybe server is closed: nothing listens on %s (a stale socket can be removed with rm %s)",
			    (int)pid, path, path);
	else if (rc == -EACCES || rc == -EPERM)
		npuprof_err("cannot connect to server for pid %d: %s: permission denied: run msprof as the app's user or as root",
			    (int)pid, path);
	else
		npuprof_err("cannot connect to server for pid %d: %s: %s", (int)pid, path, strerror(-rc));
}

/*
 * Attach mode: one connect to @pid's socket, its path in @path (@size
 * bytes, for messages).  The socket must be served by @pid itself: one of
 * that name served by another process (*@peer; a process in another pid
 * namespace has the same pid inside) is left alone.  Return: 0, -ESRCH
 * (the process has exited, said here), -EADDRINUSE (another process
 * serves it), or the connect's -errno (not said: the caller decides).
 */
static int connect_attached(pid_t pid, struct msprof_target *t, char *path, size_t size,
			    pid_t *peer)
{
	char proc[64];
	struct stat st;
	int rc;

	*peer = 0;
	snprintf(proc, sizeof(proc), "/proc/%d", (int)pid);
	if (stat(proc, &st)) {
		npuprof_err("--pid=%d: the process has exited", (int)pid);
		return -ESRCH;
	}
	rc = msprof_socket_find_pid(pid, st.st_uid, path, size);
	if (!rc)
		rc = connect_target(t, path);
	if (rc)
		return rc;
	/* 0: a process our pid namespace cannot see (outside it) */
	*peer = peer_pid(t->fd, 0);
	if (*peer == pid)
		return 0;
	close(t->fd);
	t->fd = -1;
	return -EADDRINUSE;
}

/*
 * Send the 4100-byte parameter block and expect {PARAMS_RSQ, SUCCESS}.
 * What went wrong goes to @why (@size bytes), not printed: the caller
 * either reports it or captures the process from the kernel side and
 * says so in one line.  A parameter block that cannot be encoded (the
 * user's --output too long, -EMSGSIZE) is an error of the command line:
 * printed here, with @why set too.
 */
static int send_params_why(struct msprof_target *d, const char *params, int reply_ms, char *why,
			   size_t size)
{
	static uint8_t block[DYNPROF_PARAMS_SIZE];
	uint8_t buf[DYNPROF_MSG_SIZE];
	struct dynprof_msg m;
	int rc;

	*why = '\0';
	rc = dynprof_encode_params(block, params);
	if (rc) {
		npuprof_err("the profiling parameters are %zu bytes, more than the %d the protocol carries: use a shorter --output",
			    strlen(params), DYNPROF_PARAMS_DATA_LEN - 1);
		snprintf(why, size, "they do not fit the protocol's %d bytes",
			 DYNPROF_PARAMS_DATA_LEN - 1);
		return rc;
	}
	rc = dynprof_send_all(d->fd, block, sizeof(block), DYNPROF_HANDSHAKE_TIMEOUT_MS);
	if (!rc)
		rc = dynprof_recv_all(d->fd, buf, sizeof(buf), reply_ms);
	if (rc == -ETIMEDOUT) {
		snprintf(why, size, "no reply within %d s: another msprof may be connected to it (one user per app at a time)",
			 reply_ms / 1000);
		return rc;
	}
	if (rc) {
		snprintf(why, size, "sending them failed: %s", strerror(-rc));
		return rc;
	}
	dynprof_decode_msg(buf, &m);
	if (m.type != DYNPROF_PARAMS_RSQ || m.status != DYNPROF_SUCCESS) {
		snprintf(why, size, "it answered %s %s", dynprof_type_name(m.type),
			 dynprof_status_name(m.status));
		return -EPROTO;
	}
	return 0;
}

/* The error for @pid's server not taking the parameters, @why from send_params_why(). */
static void say_params_not_taken(pid_t pid, const char *why)
{
	npuprof_err("the dynamic profiling server of pid %d did not take the profiling parameters: %s",
		    (int)pid, why);
}

/* send_params_why(), its failure printed as an error. */
static int send_params(struct msprof_target *d, const char *params, int reply_ms)
{
	char why[256];
	int rc = send_params_why(d, params, reply_ms, why, sizeof(why));

	if (rc && rc != -EMSGSIZE)
		say_params_not_taken(d->app_pid, why);
	return rc;
}

/*
 * d->reconnect: @t's old connection is closed (cmdloop.c renew_idle());
 * connect to its socket again and send the parameters.  A timeout now
 * means another client took the server in between.
 */
static int reconnect_target(struct msprof_dyn *d, struct msprof_target *t)
{
	int rc;

	if (!t->path[0])
		return -ENOTCONN; /* no socket name to connect to */
	rc = connect_unix(t->path, &t->fd);
	if (rc)
		return rc;
	rc = send_params(t, d->params, MSPROF_PARAMS_REPLY_MS);
	if (rc) {
		close(t->fd);
		t->fd = -1;
	}
	return rc;
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
	char used[4 * 80] = "";
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
	for (i = 0; i < NPU_TP_EVENTS; i++) {
		if (!tc->tp_status[i])
			continue;
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

/* The capture session, with no process yet.  @pid: for the messages. */
static int create_session(const struct msprof_options *o, const char *params, struct msprof_dyn *d,
			  pid_t pid)
{
	struct npuprof_session_opts opts = {
		.output = o->output_abs,
		.output_fd = d->out_fd,
		.ascendcl = o->ascendcl,
		.runtime_api = o->runtime_api,
		.task_time = o->task_time != MSPROF_TASK_TIME_OFF,
		.params_json = params,
		.follow = o->app_argv != NULL, /* launch and app mode follow the job */
		.storage_limit = (uint64_t)o->storage_limit_mb << 20,
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
		warn_untraced(d);
	return rc;
}

/* After a failed setup: tell the server goodbye so it accepts the next client. */
static void disconnect_quietly(struct msprof_target *t)
{
	uint8_t buf[DYNPROF_MSG_SIZE];

	if (t->fd < 0)
		return;
	dynprof_encode_msg(buf, DYNPROF_QUIT_REQ, 0);
	if (!dynprof_send_all(t->fd, buf, sizeof(buf), DYNPROF_HANDSHAKE_TIMEOUT_MS))
		dynprof_recv_all(t->fd, buf, sizeof(buf), DYNPROF_HANDSHAKE_TIMEOUT_MS);
	close(t->fd);
	t->fd = -1;
}

/* A wait status as a shell gives it: the exit code, or 128 + the signal. */
static int app_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return MSPROF_EXIT_FAILURE;
}

/* Launch mode: the app runs to its end; report how it ended. */
static void wait_app(struct msprof_dyn *d)
{
	char how[96];
	int status;

	if (!d->child_reaped) {
		printf("waiting for app process exit......\n");
		fflush(stdout);
		while (waitpid(d->child, &status, 0) < 0)
			if (errno != EINTR)
				return;
		d->child_reaped = 1;
		d->child_status = status;
	}
	if (WIFEXITED(d->child_status) && WEXITSTATUS(d->child_status) == 0)
		return;
	describe_status(d->child_status, how, sizeof(how));
	npuprof_warn("the app (pid %d) %s", (int)d->child, how);
}

/*
 * Launch mode: fork the app held at its gate, open the session and follow
 * the app (so every process it starts is captured from its birth), let it
 * run, connect to the first server (the one that took msprof's key) and
 * place the uprobes through that process.  A session that cannot be had
 * lets the app run unprofiled.  The other ranks' servers are found later
 * (discover_ranks()).
 */
static int set_up_launch(const struct msprof_options *o, const char *params, struct msprof_dyn *d)
{
	struct msprof_target *t = &d->t[0];
	struct launched l = { .gate_fd = -1, .err_fd = -1 };
	int rc, rc2;

	rc = check_runnable(o);
	if (rc)
		return rc;
	rc = launch_app(o, params, &l);
	if (rc)
		return rc;
	d->child = l.pid;
	rc = create_session(o, params, d, l.pid);
	if (!rc) {
		rc = npuprof_session_follow_pid(d->s, l.pid);
		if (rc) {
			char words[PATH_MAX + 512];

			msprof_error_words(npuprof_session_error(d->s), l.pid, words, sizeof(words));
			npuprof_warn("cannot follow the processes %s starts (%s): only the process that answers first is profiled",
				     o->app_argv[0], words);
			rc = 0;
		} else {
			probe_job_lib(o, d);
		}
	}
	rc2 = release_app(o, &l);
	if (rc2) {
		d->child_reaped = 1;
		return rc2;
	}
	if (rc)
		return rc;
	d->nr_targets = 1;
	t->app_pid = d->child;
	rc = connect_launched(o, d, t);
	if (rc)
		return rc;
	t->app_pid = peer_pid(t->fd, t->app_pid);
	npuprof_proc_id_read(t->app_pid, NULL, &t->id);
	rc = send_params(t, params, MSPROF_PARAMS_REPLY_MS);
	if (!rc)
		rc = add_pid(d, t->app_pid);
	return rc;
}

/* 1 when @pid descends from @root (its parent chain reaches it). */
static int descends_from(pid_t pid, pid_t root)
{
	struct npuprof_proc_stat st;
	int depth;

	for (depth = 0; depth < 32 && pid > 1; depth++) {
		if (npuprof_proc_stat_read(pid, NULL, &st))
			return 0;
		pid = st.ppid;
		if (pid == root)
			return 1;
	}
	return 0;
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

		if (p <= 0 || p == pid || !descends_from(p, pid) || !npuprof_acl_trace_pid_maps_acl(p))
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
		    !descends_from(pid, getpid()) || !discover_may_try(pid))
			continue;
		*t = (struct msprof_target){ .fd = -1, .app_pid = pid };
		npuprof_proc_id_read(pid, NULL, &t->id);
		if (connect_target(t, path))
			continue; /* not listening yet: tried again next time */
		if (send_params(t, d->params, DISCOVER_REPLY_MS)) {
			disconnect_quietly(t);
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
				warn_untraced(d);
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
 * The one line for a process captured without its server: why @pid's
 * server could not be used (@rc at the connect; @params_why: set when it
 * was the parameters, after connecting) and that the kernel side
 * captures it.
 */
static void say_no_server(pid_t pid, int rc, const char *path, pid_t peer, const char *params_why)
{
	char why[PATH_MAX + 128];

	if (params_why) {
		npuprof_info("pid %d: its dynamic profiling server at %s did not take the profiling parameters (%s): capturing it from the kernel side only",
			     (int)pid, path, params_why);
		return;
	}
	if (rc == -ENOENT)
		snprintf(why, sizeof(why), "no socket %s", path);
	else if (rc == -EADDRINUSE)
		served_by(path, peer, why, sizeof(why));
	else if (rc == -EACCES || rc == -EPERM)
		snprintf(why, sizeof(why), "%s: permission denied; run msprof as the app's user or as root to reach it",
			 path);
	else
		snprintf(why, sizeof(why), "%s: %s", path, strerror(-rc));
	npuprof_info("pid %d has no dynamic-profiling server (%s): capturing it from the kernel side only",
		     (int)pid, why);
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
	rc = connect_attached(pid, t, path, sizeof(path), &peer);
	if (!rc) {
		rc = send_params_why(t, params, MSPROF_PARAMS_REPLY_MS, params_why, sizeof(params_why));
		at_params = rc != 0;
	}
	if (rc && rc != -ESRCH && !d->require_server && npuprof_proc_id_same(pid, NULL, &t->id)) {
		/* capture needs no server: what it would control is ours anyway */
		say_no_server(pid, rc, path, peer, at_params ? params_why : NULL);
		disconnect_quietly(t);
		t->kernel_only = 1;
		d->nr_targets++;
		return 0;
	}
	if (rc && rc != -ESRCH && at_params && rc != -EMSGSIZE)
		say_params_not_taken(pid, params_why);
	if (rc && rc != -ESRCH && !at_params)
		say_connect_failed(pid, rc, path, peer);
	if (rc) {
		snprintf(why, size, "%s", attach_why(rc));
		disconnect_quietly(t);
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

	rc = create_session(o, params, d, o->nr_pids == 1 ? o->pids[0] : 0);
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
 * again at its end when they stayed empty (end_run()).
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
 * What every run needs first: --output ready, the parameters for the app
 * (returned, the caller frees them with end_run()) and the --result
 * stream in @d.  Return: NULL after saying what failed.
 */
static void end_run(const struct msprof_options *o, struct msprof_dyn *d, char *params);

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

static char *begin_run(const struct msprof_options *o, struct msprof_dyn *d)
{
	char *params;

	d->out_fd = -1;
	if (!may_capture_here(o) || open_output(o, d))
		return NULL;
	params = msprof_params_json(o, getpid());
	if (!params) {
		npuprof_err("building the profiling parameters: %s", strerror(ENOMEM));
		end_run(o, d, NULL);
		return NULL;
	}
	if (o->result[0] && !(d->result = msprof_result_open(o->result))) {
		npuprof_err("--result=%s: %s", o->result, strerror(errno));
		end_run(o, d, params);
		return NULL;
	}
	return params;
}

static void end_run(const struct msprof_options *o, struct msprof_dyn *d, char *params)
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
	if (d->child > 0 && d->child_reaped && app_status(d->child_status))
		return app_status(d->child_status);
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
	params = begin_run(o, &d);
	if (!params)
		return MSPROF_EXIT_FAILURE;
	d.params = params;
	d.reconnect = reconnect_target;
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
			disconnect_quietly(&d.t[i]);
		if (d.child && !d.child_reaped)
			npuprof_warn("%s (pid %d) keeps running without profiling", o->app_argv[0], (int)d.child);
	}
	npuprof_session_close(d.s);
	for (i = 0; i < d.nr_targets; i++)
		if (d.t[i].fd >= 0)
			close(d.t[i].fd);
	/* A launch that failed because the app ended has said how already. */
	if (d.child > 0 && !(rc && d.child_reaped))
		wait_app(&d);
	end_run(o, &d, params);
	return msprof_run_status(&d, rc);
}

/*
 * App mode: a process whose library could not be probed because of @e is
 * passed over for now (its library is not mapped yet, or it has exited);
 * anything else (the library's symbols, a refused probe) would fail the
 * same way for every process of the job.
 */
static int probe_retry(const struct npuprof_error *e)
{
	return e->stage == NPUPROF_STAGE_PROCESS ||
	       (e->stage == NPUPROF_STAGE_LIBRARY && e->err == -ENOENT);
}

/*
 * App mode, every 100 ms until done: the first process of the job that
 * maps libascendcl.so gets the uprobes placed on it (its siblings run the
 * same file, and every process of the job is in the filter already).
 */
static int find_acl_lib(struct msprof_dyn *d)
{
	char words[PATH_MAX + 512];
	struct dirent *de;
	DIR *proc = opendir("/proc");

	if (!proc)
		return MSPROF_CMD_CONTINUE;
	while ((de = readdir(proc))) {
		pid_t pid = (pid_t)strtol(de->d_name, NULL, 10);

		if (pid <= 0 || !descends_from(pid, getpid()))
			continue;
		if (!npuprof_session_probe_pid(d->s, pid)) {
			npuprof_info("runtime API capture: uprobes on the libascendcl.so of pid %d", (int)pid);
			warn_untraced(d);
			if (npuprof_session_running(d->s))
				npuprof_warn("ACL calls the job made before this were not captured: put the directory of its libascendcl.so in LD_LIBRARY_PATH so msprof finds it before the job starts");
			d->discover = NULL;
			break;
		}
		/* not mapped (yet), or gone: the next process, or later */
		if (probe_retry(npuprof_session_error(d->s)))
			continue;
		msprof_error_words(npuprof_session_error(d->s), pid, words, sizeof(words));
		npuprof_warn("no runtime API capture: %s", words);
		d->discover = NULL;
		break;
	}
	closedir(proc);
	return MSPROF_CMD_CONTINUE;
}

int msprof_app_run(const struct msprof_options *o)
{
	struct msprof_dyn d = { .ops = &msprof_session_ops_real };
	struct launched l = { .gate_fd = -1, .err_fd = -1 };
	char *params = begin_run(o, &d), words[PATH_MAX + 512];
	int rc, started = 0;

	if (!params)
		return MSPROF_EXIT_FAILURE;
	rc = check_runnable(o);
	if (!rc)
		rc = launch_app(o, params, &l);
	if (rc)
		goto out_free;
	d.child = l.pid;
	rc = create_session(o, params, &d, l.pid);
	if (!rc)
		rc = npuprof_session_follow_pid(d.s, l.pid);
	if (rc && d.s) {
		msprof_error_words(npuprof_session_error(d.s), l.pid, words, sizeof(words));
		npuprof_err("cannot follow %s (pid %d): %s", o->app_argv[0], (int)l.pid, words);
	}
	if (!rc && !probe_job_lib(o, &d))
		d.discover = find_acl_lib; /* place them at the first mapping */
	/* no delay: the window opens before the app runs its first instruction */
	if (!rc && !o->delay_s)
		started = !npuprof_session_start(d.s);
	if (!rc && !o->delay_s && !started) {
		msprof_error_words(npuprof_session_error(d.s), 0, words, sizeof(words));
		npuprof_err("cannot start the capture: %s", words);
		rc = -EIO;
	}
	if (release_app(o, &l)) {
		d.child_reaped = 1;
		rc = rc ? rc : -ENOEXEC;
		goto out_close;
	}
	if (rc) {
		npuprof_warn("%s (pid %d) keeps running without profiling", o->app_argv[0], (int)d.child);
		goto out_close;
	}
	if (started)
		printf("collection started\n");
	rc = msprof_app_loop(&d, o->delay_s, o->duration_s, started);
out_close:
	npuprof_session_close(d.s);
	if (d.child > 0 && !d.child_reaped)
		wait_app(&d);
out_free:
	end_run(o, &d, params);
	return msprof_run_status(&d, rc);
}
