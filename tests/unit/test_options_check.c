// SPDX-License-Identifier: MIT
/*
 * Description: msprof's mode and conflict checks with its exact texts,
 * --output checked without being created (a usage error leaves no
 * directory behind; prepare creates it), and --pid checked against
 * /proc/<pid> and the process's dynamic-profiling socket (with
 * --require-server=on: in the HOME it was started with; one whose socket
 * path passes sun_path is named with its length).  In launch mode
 * --require-server=on refuses an app whose socket path in our $HOME would
 * pass sun_path (or whose $HOME is missing), before it is launched.
 * NPUPROF_TASK_CAPTURE=yes (found by a new user: it used to fail only after
 * the app was launched, with status 1) is a usage error naming the
 * allowed values; kmod, bpf, auto and empty pass; export ignores it.
 * NPUPROF_WRITER likewise (io_uring, pwrite, auto, empty).
 * --query=on follows msprof's analysis-mode rules: it needs --output (an
 * existing one), and is refused with --export, --dynamic, an app and
 * --result.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "home_child.h"
#include "options.h"
#include "tmpdir.h"

static struct msprof_options o;
static char err[MSPROF_ERR_MAX];
static char tmp[] = "/tmp/test_options_check.XXXXXX";
/* The HOME this process was started with: its server's, were it an app. */
static const char *start_home;

/* Parse then check a NULL-terminated list of words after "msprof". */
static int run(const char *first, ...)
{
	static char *argv[32];
	const char *w;
	int argc = 0, rc;
	va_list ap;

	argv[argc++] = "msprof";
	va_start(ap, first);
	for (w = first; w && argc < 31; w = va_arg(ap, const char *))
		argv[argc++] = (char *)w;
	va_end(ap);
	argv[argc] = NULL;
	rc = msprof_options_parse(argc, argv, &o, err);
	return rc ? rc : msprof_options_check(&o, err);
}

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

#define BAD(msg, ...)                                        \
	do {                                                 \
		CHECK_EQ(run(__VA_ARGS__, NULL), -EINVAL);   \
		CHECK_STR(err, msg);                         \
	} while (0)

static void test_modes(void)
{
	BAD("Argument --dynamic=off, but --pid is set.", "--pid=1");
	BAD("Argument --dynamic=off, but --pid is set.", "--dynamic=off", "--pid=1", "./app");
	BAD("Argument --dynamic=on, but --application/--pid is all empty.", "--dynamic=on");
	BAD("Argument --dynamic=on, can not set --application/--pid at the same time.", "--dynamic=on",
	    "--pid=1", "./app");
	BAD("No valid argument found in --application --dynamic --query --export", "--ascendcl=on");
	BAD("No valid argument found in --application --dynamic --query --export", "--export=off");
	BAD("Argument --dynamic and --delay cannot be configured at the same time.", "--dynamic=on",
	    "--delay=5", "./app");
	BAD("Argument --dynamic and --duration cannot be configured at the same time.", "--dynamic=on",
	    "--duration=5", "./app");
	BAD("Argument --delay is for app mode: give the application to run.", "--delay=5");
	BAD("Argument --duration is for app mode: give the application to run.", "--duration=5");
	BAD("The argument --output is necessary when --export is not empty.", "--export=on");
	BAD("Argument --export=on can not be used with --dynamic or an application: collect first, then run "
	    "msprof --export=on --output=<dir>.",
	    "--export=on", "--dynamic=on", "./app");
	BAD("The argument --output is necessary when --query is not empty.", "--query=on");
	BAD("The argument --query is forbidden when --export is not empty.", "--query=on",
	    "--export=on", "--output=/tmp");
	BAD("Argument --query=on can not be used with --dynamic or an application: collect first, then run "
	    "msprof --query=on --output=<dir>.",
	    "--query=on", "--output=/tmp", "./app");
	BAD("Argument --result is for capture, not with --query.", "--query=on", "--output=/tmp",
	    "--result=/tmp/r.jsonl");
	BAD("No valid argument found in --application --dynamic --query --export", "--query=off");
	/* --check=on names the companion it refuses */
	BAD("Argument --check=on is used alone, not with --pid: msprof --check=on", "--check=on",
	    "--pid=1");
	BAD("Argument --check=on is used alone, not with an application: msprof --check=on",
	    "--check=on", "./app");
	BAD("Argument --check=on is used alone, not with --output: msprof --check=on", "--check=on",
	    "--output=/tmp");
	CHECK_EQ(run("--check=on", NULL), 0);
	CHECK_EQ(run("--query=on", "--output=/tmp", NULL), 0);
	CHECK_EQ(o.query_on, 1);
	BAD("The argument --storage-limit is forbidden when --export is not empty: it limits a collection.",
	    "--export=on", "--output=/tmp", "--storage-limit=200MB");
	BAD("The argument --storage-limit is forbidden when --query is not empty: it limits a collection.",
	    "--query=on", "--output=/tmp", "--storage-limit=200MB");
	/* --help skips the checks: main prints the help and exits 0. */
	CHECK_EQ(run("--help", "--pid=1", NULL), 0);
}

static void test_output(void)
{
	char file[128], arg[256], want[4200], deep[160], cwd[4000];
	int fd;

	snprintf(file, sizeof(file), "%s/plain", tmp);
	fd = open(file, O_CREAT | O_WRONLY, 0600);
	CHECK(fd >= 0);
	close(fd);

	snprintf(arg, sizeof(arg), "--output=%s", file);
	snprintf(want, sizeof(want), "Argument --output %s is not a dir.", file);
	BAD(want, "--dynamic=on", arg, "./app");
	snprintf(arg, sizeof(arg), "--output=%s/sub/dir", file);
	snprintf(want, sizeof(want), "Argument --output %s/sub/dir is not a dir.", file);
	BAD(want, "--dynamic=on", arg, "./app");

	/* A missing --output is fine for dynamic mode, and check creates nothing. */
	snprintf(deep, sizeof(deep), "%s/new/deeper", tmp);
	snprintf(arg, sizeof(arg), "--output=%s", deep);
	CHECK_EQ(run("--dynamic=on", arg, "./app", NULL), 0);
	CHECK_STR(o.output_abs, deep);
	CHECK(!exists(deep));

	/* ... but export needs it to exist. */
	snprintf(arg, sizeof(arg), "--output=%s/none", tmp);
	snprintf(want, sizeof(want), "Argument --output %s/none does not exist.", tmp);
	BAD(want, "--export=on", arg);
	BAD(want, "--query=on", arg);
	snprintf(arg, sizeof(arg), "--output=%s", tmp);
	CHECK_EQ(run("--export=on", arg, NULL), 0);

	/* Relative to the current directory; none given = the current directory. */
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK_EQ(run("--dynamic=on", "--output=rel/x", "./app", NULL), 0);
	snprintf(want, sizeof(want), "%s/rel/x", cwd);
	CHECK_STR(o.output_abs, want);
	CHECK_EQ(run("--dynamic=on", "./app", NULL), 0);
	CHECK_STR(o.output_abs, cwd);
}

/* A usage error anywhere on the line: the new --output is not created. */
static void test_no_dir_on_usage_error(void)
{
	char out[160], arg[200];

	snprintf(out, sizeof(out), "%s/must-not-exist", tmp);
	snprintf(arg, sizeof(arg), "--output=%s", out);
	CHECK_EQ(run("--dynamic=on", arg, "--task-time=l3", "./app", NULL), -EINVAL);
	CHECK_EQ(run("--dynamic=on", arg, "--pid=999999999", NULL), -EINVAL);
	CHECK_EQ(run("--dynamic=on", arg, NULL), -EINVAL);
	CHECK_EQ(run(arg, "--delay=0", "./app", NULL), -EINVAL);
	CHECK_EQ(run(arg, "--dynamic=on", "--duration=3", "./app", NULL), -EINVAL);
	CHECK(!exists(out));
}

/* --storage-limit=<N>MB: msprof's range 200..4294967295, in MB (MiB bytes). */
static void test_storage_limit(void)
{
	static const char *const bad[] = { "199MB", "4294967296MB", "200", "200mb", "200 MB",
					   "MB", "-200MB", "200MBx" };
	char arg[64], want[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(arg, sizeof(arg), "--storage-limit=%s", bad[i]);
		snprintf(want, sizeof(want),
			 "Argument --storage-limit: invalid value: %s. Please input <N>MB with N from 200 to 4294967295, e.g. --storage-limit=200MB.",
			 bad[i]);
		BAD(want, "--dynamic=on", arg, "./app");
	}
	CHECK_EQ(run("--storage-limit=200MB", "./app", NULL), 0);
	CHECK_EQ(o.storage_limit_mb, 200);
	CHECK_EQ(run("--dynamic=on", "--storage-limit=4294967295MB", "./app", NULL), 0);
	CHECK_EQ(o.storage_limit_mb, 4294967295u);
	CHECK_EQ(run("--dynamic=on", "./app", NULL), 0);
	CHECK_EQ(o.storage_limit_mb, 0);
}

static pid_t thread_tid;
static int thread_quit[2];

/* A thread of this process that names its tid, then waits to be told to end. */
static void *idle_thread(void *arg)
{
	char c;

	(void)arg;
	__atomic_store_n(&thread_tid, gettid(), __ATOMIC_RELEASE);
	if (read(thread_quit[0], &c, 1) < 0)
		return NULL;
	return NULL;
}

/* Whether /proc/@pid/stat says state Z. */
static int is_zombie(pid_t pid)
{
	char path[64], line[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	return strstr(line, ") Z ") != NULL;
}

/*
 * --pid names a process: one of its threads (whose /proc/<tid> exists
 * too) is refused naming the process, and a zombie as exited.
 */
static void test_pid_not_process(void)
{
	char arg[64], want[256];
	pthread_t th;
	pid_t child;

	CHECK_EQ(pipe(thread_quit), 0);
	CHECK_EQ(pthread_create(&th, NULL, idle_thread, NULL), 0);
	while (!__atomic_load_n(&thread_tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	snprintf(arg, sizeof(arg), "--pid=%d", (int)thread_tid);
	snprintf(want, sizeof(want), "Argument --pid=%d: %d is a thread of process %d: give the process id (--pid=%d).",
		 (int)thread_tid, (int)thread_tid, (int)getpid(), (int)getpid());
	BAD(want, "--dynamic=on", arg);
	CHECK_EQ(write(thread_quit[1], "q", 1), 1);
	pthread_join(th, NULL);

	child = fork();
	if (child == 0)
		_exit(0);
	for (int i = 0; i < 5000 && !is_zombie(child); i++)
		usleep(1000);
	snprintf(arg, sizeof(arg), "--pid=%d", (int)child);
	snprintf(want, sizeof(want),
		 "Argument --pid=%d: the process has exited (a zombie: its parent has not reaped it yet).",
		 (int)child);
	BAD(want, "--dynamic=on", arg);
	waitpid(child, NULL, 0);
}

static void test_pid(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char arg[64], want[512];
	int s;

	setenv("HOME", tmp, 1);
	BAD("Argument --pid=999999999: no such process (/proc/999999999 does not exist).", "--dynamic=on",
	    "--pid=999999999");

	/*
	 * This process exists but has no socket: by default it is captured
	 * from the kernel side (accepted here); --require-server=on refuses
	 * it as CANN's msprof does, naming the socket in the HOME it was
	 * started with (else in msprof's $HOME).
	 */
	snprintf(arg, sizeof(arg), "--pid=%d", (int)getpid());
	CHECK_EQ(run("--dynamic=on", arg, NULL), 0);
	CHECK_EQ(o.pid, getpid());
	CHECK_EQ(o.require_server, 0);
	CHECK_EQ(run("--dynamic=on", arg, "--require-server=off", NULL), 0);
	snprintf(want, sizeof(want),
		 "Argument --pid=%d: no dynamic profiling socket %s/dynamic_profiling_socket_%d: the process was "
		 "not started with PROFILING_MODE=dynamic, or has not called aclInit yet (--require-server=off "
		 "captures it from the kernel side).",
		 (int)getpid(), start_home && start_home[0] == '/' ? start_home : tmp, (int)getpid());
	BAD(want, "--dynamic=on", arg, "--require-server=on");

	/* A plain file of that name is not a socket either. */
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/dynamic_profiling_socket_%d", tmp, (int)getpid());
	close(open(addr.sun_path, O_CREAT | O_WRONLY, 0600));
	BAD(want, "--dynamic=on", arg, "--require-server=on");
	unlink(addr.sun_path);

	s = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK(s >= 0 && !bind(s, (struct sockaddr *)&addr, sizeof(addr)));
	CHECK_EQ(run("--dynamic=on", arg, "--require-server=on", NULL), 0);
	CHECK_EQ(o.pid, getpid());
	CHECK_EQ(o.require_server, 1);

	/* The strict switch is for dynamic mode; its values are named. */
	BAD("Argument --require-server=on is for dynamic mode: give --pid, or the app to launch with --dynamic=on (app mode talks to no server).",
	    "--require-server=on", "./app");
	BAD("Argument --require-server: invalid value: maybe. Please input 'on' or 'off'.", "--dynamic=on", arg,
	    "--require-server=maybe");
	close(s);
	unlink(addr.sun_path);
}

/*
 * Attach mode, --require-server=on, a process started with a HOME whose
 * socket path passes sun_path: its server cannot have bound it, said with
 * the path and its length.
 */
static void test_pid_long_home(void)
{
	char home[128], arg[64], sock[256], want[1024];
	size_t n = (size_t)snprintf(home, sizeof(home), "%s/", tmp);
	pid_t child;

	memset(home + n, 'p', 96 - n);
	home[96] = '\0';
	child = home_child_start(home);
	CHECK(child > 0);
	snprintf(arg, sizeof(arg), "--pid=%d", (int)child);
	n = (size_t)snprintf(sock, sizeof(sock), "%s/dynamic_profiling_socket_%d", home, (int)child);
	snprintf(want, sizeof(want),
		 "Argument --pid=%d: the socket path %s is too long for a Unix socket: %zu bytes, the limit is 107 (--require-server=off captures it from the kernel side).",
		 (int)child, sock, n);
	BAD(want, "--dynamic=on", arg, "--require-server=on");
	CHECK_EQ(run("--dynamic=on", arg, NULL), 0);
	home_child_stop(child);
}

/*
 * Launch mode, --require-server=on: the app would bind its socket in our
 * $HOME, named after our pid; a path past sun_path's 107 bytes, or a
 * $HOME that does not exist, means it can have no server: refused before
 * anything is launched.  A shorter $HOME passes; without the switch the
 * others do too (kernel side).
 */
static void test_launch_server(void)
{
	char home[128], sock[256], want[1024];
	size_t n = (size_t)snprintf(home, sizeof(home), "%s/", tmp);

	memset(home + n, 'h', 96 - n);
	home[96] = '\0';
	setenv("HOME", home, 1);
	n = (size_t)snprintf(sock, sizeof(sock), "%s/dynamic_profiling_socket_%d", home, (int)getpid());
	snprintf(want, sizeof(want),
		 "Argument --require-server=on: the socket path %s is too long for a Unix socket: %zu bytes, the limit is 107, so ./app can have no dynamic-profiling server: set HOME to a short, writable directory, or --require-server=off to capture it from the kernel side.",
		 sock, n);
	BAD(want, "--dynamic=on", "--require-server=on", "./app");
	CHECK_EQ(run("--dynamic=on", "./app", NULL), 0);
	/* a HOME that does not exist: the socket cannot be made there either */
	snprintf(home, sizeof(home), "%s/gone", tmp);
	setenv("HOME", home, 1);
	snprintf(want, sizeof(want),
		 "Argument --require-server=on: the socket %s/dynamic_profiling_socket_%d cannot be created in %s: No such file or directory, so ./app can have no dynamic-profiling server: set HOME to a short, writable directory, or --require-server=off to capture it from the kernel side.",
		 home, (int)getpid(), home);
	BAD(want, "--dynamic=on", "--require-server=on", "./app");
	CHECK_EQ(run("--dynamic=on", "./app", NULL), 0);
	/* a HOME that takes no sockets although root may write there (found
	 * by an attack: it used to pass, and msprof waited for a server that
	 * never came) */
	setenv("HOME", "/proc", 1);
	snprintf(want, sizeof(want),
		 "Argument --require-server=on: the socket /proc/dynamic_profiling_socket_%d cannot be created in /proc: No such file or directory, so ./app can have no dynamic-profiling server: set HOME to a short, writable directory, or --require-server=off to capture it from the kernel side.",
		 (int)getpid());
	BAD(want, "--dynamic=on", "--require-server=on", "./app");
	setenv("HOME", tmp, 1);
	CHECK_EQ(run("--dynamic=on", "--require-server=on", "./app", NULL), 0);
	CHECK_EQ(o.require_server, 1);
}

/*
 * An environment variable msprof checks with its options (@var): @bad is
 * a usage error with @msg, exported data ignores it, each of @ok passes.
 */
static void test_env_choice(const char *var, const char *bad, const char *msg,
			    const char *const *ok, unsigned int nr_ok)
{
	char output[sizeof(tmp) + 16];

	snprintf(output, sizeof(output), "--output=%s", tmp);
	setenv(var, bad, 1);
	BAD(msg, "--dynamic=on", output, "./app");
	CHECK_EQ(run("--export=on", output, NULL), 0);
	for (unsigned int i = 0; i < nr_ok; i++) {
		setenv(var, ok[i], 1);
		CHECK_EQ(run("--dynamic=on", output, "./app", NULL), 0);
	}
	unsetenv(var);
}

static void test_task_capture(void)
{
	static const char *const ok[] = { "kmod", "bpf", "auto", "" };

	test_env_choice("NPUPROF_TASK_CAPTURE", "yes",
			"NPUPROF_TASK_CAPTURE=yes (environment) is not valid: use kmod, bpf or auto.",
			ok, 4);
}

static void test_writer(void)
{
	static const char *const ok[] = { "io_uring", "pwrite", "auto", "" };

	test_env_choice("NPUPROF_WRITER", "uring",
			"NPUPROF_WRITER=uring (environment) is not valid: use io_uring, pwrite or auto.",
			ok, 4);
}

int main(void)
{
	start_home = getenv("HOME");
	if (!mkdtemp(tmp))
		CHECK_SKIP("mkdtemp failed");
	test_modes();
	test_task_capture();
	test_writer();
	test_output();
	test_no_dir_on_usage_error();
	test_storage_limit();
	test_pid();
	test_pid_long_home();
	test_launch_server();
	test_pid_not_process();
	tmpdir_remove(tmp);
	return CHECK_DONE();
}
