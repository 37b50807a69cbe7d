// SPDX-License-Identifier: MIT
/*
 * Launching the job (see launch.h), for launch mode (--dynamic=on APP)
 * and app mode alike.
 *
 * The app is forked first and held at a gate, a pipe it reads before it
 * execs: the session follows the child and its uprobes go on the job's
 * libraries while nothing of the job has run yet, and only then is the
 * gate opened.  A second pipe, close-on-exec, carries the errno of an exec
 * that failed, so "cannot run" is told apart from an app that started and
 * exited.  The libraries are found before the job runs by asking the
 * program's dynamic loader for its list (as ldd does), then in
 * LD_LIBRARY_PATH.  A job without a server to wait for is waited for
 * until one of its processes maps the runtime.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <npuprof/acl_trace.h>
#include <npuprof/clock.h>
#include <npuprof/msg.h>
#include <npuprof/proc_id.h>
#include <npuprof/session.h>
#include <npuprof/drv/ascend_hal_abi.h> /* after <linux/types.h>: its types */

#include "dynamic.h"
#include "dynprof_client.h"
#include "error_words.h"
#include "launch.h"

void msprof_describe_status(int status, char *buf, size_t size)
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
 * With device task submits from the halSqTaskSend() uprobe (the host's
 * driver has a device log): put it on the job's libascend_hal.so now,
 * found as its API libraries are, else where the driver package installs
 * it.  Not found or not probed: said, the capture goes on without submits.
 */
static void probe_job_hal(struct msprof_dyn *d, const struct msprof_options *o)
{
	char lib[PATH_MAX], words[PATH_MAX + 512];

	if (!npuprof_session_submits(d->s))
		return;
	if (find_job_acl_lib(o, NPUPROF_HAL_LIB_NAME, lib, sizeof(lib))) {
		snprintf(lib, sizeof(lib), "%s/%s", ASCEND_HAL_LIB_DEFAULT_DIR, NPUPROF_HAL_LIB_NAME);
		if (access(lib, R_OK)) {
			npuprof_warn("%s of the job not found (not loaded by %s, not in LD_LIBRARY_PATH or %s): its device tasks have no submit (no pid, thread or API call)",
				     NPUPROF_HAL_LIB_NAME, o->app_argv[0], ASCEND_HAL_LIB_DEFAULT_DIR);
			return;
		}
	}
	if (npuprof_session_probe_submits_file(d->s, lib)) {
		msprof_error_words(npuprof_session_error(d->s), 0, words, sizeof(words));
		npuprof_warn("cannot probe halSqTaskSend in %s (%s): the job's device tasks have no submit",
			     lib, words);
	}
}

int msprof_probe_job_lib(const struct msprof_options *o, struct msprof_dyn *d)
{
	int done = 1;

	probe_job_hal(d, o);

	if (!o->ascendcl && !o->runtime_api)
		return 0;
	if (o->ascendcl)
		done &= probe_job_file(d, o, NPUPROF_ACL_LIB_NAME);
	if (o->runtime_api)
		done &= probe_job_file(d, o, NPUPROF_RUNTIME_LIB_NAME);
	if (done)
		msprof_warn_untraced(d);
	return done;
}

int msprof_check_runnable(const struct msprof_options *o)
{
	char exe[PATH_MAX];

	if (!which(o->app_argv[0], exe, sizeof(exe)))
		return 0;
	npuprof_err("cannot run %s: %s", o->app_argv[0],
		    strchr(o->app_argv[0], '/') ? "no such executable file"
						: "not found in PATH (give its path)");
	return -ENOENT;
}

int msprof_launch_app(const struct msprof_options *o, const char *params, struct msprof_launched *l)
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
	*l = (struct msprof_launched){ .pid = pid, .gate_fd = gfd[1], .err_fd = efd[0] };
	return 0;
}

int msprof_release_app(const struct msprof_options *o, struct msprof_launched *l)
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

int msprof_app_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return MSPROF_EXIT_FAILURE;
}

void msprof_wait_app(struct msprof_dyn *d)
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
	msprof_describe_status(d->child_status, how, sizeof(how));
	npuprof_warn("the app (pid %d) %s", (int)d->child, how);
}

int msprof_descends_from(pid_t pid, pid_t root)
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

/* The launched job's first process (by pid) that maps libascendcl.so; 0: none. */
static pid_t job_acl_process(pid_t child)
{
	pid_t found = 0;
	struct dirent *de;
	DIR *proc;

	if (npuprof_acl_trace_pid_maps_acl(child))
		return child;
	proc = opendir("/proc");
	if (!proc)
		return 0;
	while (!found && (de = readdir(proc))) {
		pid_t pid = (pid_t)strtol(de->d_name, NULL, 10);

		if (pid > 0 && msprof_descends_from(pid, getpid()) && npuprof_acl_trace_pid_maps_acl(pid))
			found = pid;
	}
	closedir(proc);
	return found;
}

pid_t msprof_wait_job_runtime(const struct msprof_options *o, struct msprof_dyn *d)
{
	int64_t deadline = npuprof_mono_ms() + MSPROF_CONNECT_TIMEOUT_MS;
	struct msprof_target child = { .fd = -1, .app_pid = d->child };
	char how[96];
	pid_t pid;

	for (;;) {
		pid = job_acl_process(d->child);
		if (pid > 0)
			return pid;
		if (!msprof_app_alive(d, &child)) {
			msprof_describe_status(d->child_status, how, sizeof(how));
			npuprof_err("%s (pid %d) %s before any process of it loaded libascendcl.so: see its own messages above",
				    o->app_argv[0], (int)d->child, how);
			return -ESRCH;
		}
		if (npuprof_mono_ms() >= deadline) {
			npuprof_err("%s (pid %d): no process of it loaded libascendcl.so within %d s: does the app use AscendCL?",
				    o->app_argv[0], (int)d->child, MSPROF_CONNECT_TIMEOUT_MS / 1000);
			return -ETIMEDOUT;
		}
		usleep(MSPROF_CONNECT_RETRY_MS * 1000);
	}
}
