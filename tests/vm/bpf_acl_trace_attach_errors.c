// SPDX-License-Identifier: MIT
/*
 * Description: npuprof_acl_trace_attach_pid() refuses what it cannot trace
 * and leaves nothing behind, and says at which stage
 * (npuprof_acl_trace_error()).
 *
 * A pid that no longer exists gives -ESRCH and pid 0 -EINVAL (stage
 * PROCESS); a live process without libascendcl.so mapped (a child
 * exec'ing /bin/sleep) gives -ENOENT (LIBRARY: library not mapped); a
 * process whose libascendcl.so is not an ACL runtime (/bin/sleep with a
 * copy of libz preloaded under that name) or lacks aclFinalize,
 * aclrtSetDevice and aclrtResetDevice gives -ENOEXEC (SYMBOLS, those
 * functions named: function missing); and none of them is recorded
 * afterwards.  A library that lacks only functions newer runtimes have is
 * attached, the missing ones named by npuprof_acl_trace_untraced().  A
 * library whose aclrtMalloc lies past the end of the file resolves, but
 * the kernel refuses its uprobe at the start: -EINVAL (ATTACH, on that
 * file: attach failed), and the probes already placed on it and on the
 * other library are all removed (as many fds open as before).  Attaching
 * to the same process twice is fine.
 * Runs as root in the test VM (tests/vm/bpf_acl_trace.sh).
 */
#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>

#include <acl/acl.h>

#include "bpf_test.h"
#include "dead_pid.h"

#define FAKE_DIR "/tmp/bpf_acl_trace_attach_errors"
#define FAKE_LIB FAKE_DIR "/libascendcl.so"

/* Does /proc/@pid/maps name @what? */
static int maps_has(pid_t pid, const char *what)
{
	char path[64], line[4096];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, what) != NULL;
	fclose(f);
	return found;
}

/*
 * Copy this process's own libz (linked by the test: -lz; its path differs
 * per architecture, /lib/<multiarch>/) to @dest.  Returns system()'s status.
 */
static int copy_own_libz(const char *dest)
{
	char line[4096], cmd[8192], *path;
	int found = 0;
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		path = strchr(line, '/');
		found = path && strstr(path, "/libz.so.1");
	}
	fclose(f);
	if (!found)
		return -1;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp '%s' %s", FAKE_DIR, path, dest);
	return system(cmd);
}

/*
 * A live /bin/sleep, with @preload (or nothing) preloaded; wait until it
 * has exec'd and mapped what it will map.
 */
static pid_t sleeper(const char *preload)
{
	char env[256];
	char *envp[] = { env, NULL };
	pid_t pid;
	int i;

	snprintf(env, sizeof(env), "LD_PRELOAD=%s", preload ? preload : "");
	pid = fork();
	if (pid == 0) {
		execle("/bin/sleep", "sleep", "30", (char *)NULL, envp);
		_exit(127);
	}
	for (i = 0; i < 500; i++) {
		/* libc is mapped after the preload: everything is then in. */
		if (maps_has(pid, "/sleep") && maps_has(pid, "libc.so"))
			break;
		usleep(10000);
	}
	return pid;
}

static void kill_sleeper(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Put build/tests/fixtures/libacl_@name.so at FAKE_LIB. */
static void place_fixture(const char *name)
{
	char exe[PATH_MAX], cmd[2 * PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	CHECK(n > 0);
	exe[n > 0 ? n : 0] = '\0';
	/* a new file each time: the trace keeps earlier ones open by inode */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && rm -f %s && cp %s/../fixtures/libacl_%s.so %s",
		 FAKE_DIR, FAKE_LIB, dirname(exe), name, FAKE_LIB);
	CHECK_EQ(system(cmd), 0);
}

static void check_stage(const struct npuprof_acl_trace *t, enum npuprof_stage stage, int err,
			pid_t pid, const char *object, const char *functions)
{
	const struct npuprof_error *e = npuprof_acl_trace_error(t);

	CHECK_STR(npuprof_stage_name(e->stage), npuprof_stage_name(stage));
	CHECK_EQ(e->err, err);
	CHECK_EQ(e->pid, pid);
	CHECK_STR(e->object, object);
	CHECK_STR(e->functions, functions);
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

/* The library lacks required functions: refused, named. */
static void check_required_missing(struct npuprof_acl_trace *t)
{
	pid_t pid;

	place_fixture("required");
	pid = sleeper(FAKE_LIB);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, pid), -ENOEXEC);
	check_stage(t, NPUPROF_STAGE_SYMBOLS, -ENOEXEC, pid, FAKE_LIB,
		    "aclFinalize aclrtSetDevice aclrtResetDevice");
	kill_sleeper(pid);
}

/* An older runtime: attached; what it lacks is named, not fatal. */
static void check_partial(struct npuprof_acl_trace *t)
{
	pid_t pid;

	place_fixture("partial");
	pid = sleeper(FAKE_LIB);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, pid), 0);
	check_stage(t, NPUPROF_STAGE_NONE, 0, 0, "", "");
	CHECK_STR(npuprof_acl_trace_untraced(t),
		  "aclrtCreateStream aclrtDestroyStream aclrtMemcpy aclrtMemcpyAsync "
		  "aclrtLaunchKernel aclrtBinaryGetFunction aclopExecuteV2 aclrtSynchronizeStream "
		  "aclrtSynchronizeDevice aclrtRecordEvent aclrtCreateEvent aclrtDestroyEvent "
		  "aclrtBinaryLoadFromFile");
	CHECK_EQ(npuprof_acl_trace_detach_pid(t, pid), 0);
	kill_sleeper(pid);
}

/*
 * The kernel refuses a uprobe (an offset past the end of the file): the
 * start fails at ATTACH on that file and leaves no probe, on it or on our
 * own library attached after it (placed first: the newest is first).
 */
static void check_attach_refused(void)
{
	struct npuprof_acl_trace *t = bpf_test_open(64 * 1024);
	int fds;
	pid_t pid;

	place_fixture("pastend");
	pid = sleeper(FAKE_LIB);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, pid), 0);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0);
	fds = open_fds();
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), -EINVAL);
	check_stage(t, NPUPROF_STAGE_ATTACH, -EINVAL, 0, FAKE_LIB, "");
	CHECK_EQ(open_fds(), fds);
	kill_sleeper(pid);
	npuprof_acl_trace_close(t);
}

int main(void)
{
	struct npuprof_acl_trace *t = bpf_test_open(64 * 1024);
	struct api_log log = { 0 };
	pid_t pid;

	pid = dead_pid();
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, pid), -ESRCH);
	check_stage(t, NPUPROF_STAGE_PROCESS, -ESRCH, pid, "", "");
	pid = sleeper(NULL);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, pid), -ENOENT);
	check_stage(t, NPUPROF_STAGE_LIBRARY, -ENOENT, pid, "", "");
	kill_sleeper(pid);
	CHECK_EQ(copy_own_libz(FAKE_LIB), 0);
	pid = sleeper(FAKE_LIB);
	CHECK(maps_has(pid, FAKE_LIB));
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, pid), -ENOEXEC);
	check_stage(t, NPUPROF_STAGE_SYMBOLS, -ENOEXEC, pid, FAKE_LIB,
		    "aclInit aclFinalize aclrtSetDevice aclrtResetDevice");
	kill_sleeper(pid);
	check_required_missing(t);
	check_partial(t);
	check_attach_refused();
	CHECK_EQ(system("rm -rf " FAKE_DIR), 0);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, 0), -EINVAL);
	check_stage(t, NPUPROF_STAGE_PROCESS, -EINVAL, 0, "", "");
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	aclrtSetDevice(0);
	CHECK_EQ(bpf_test_drain(t, &log), 0);

	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0);
	aclrtSetDevice(0);
	CHECK_EQ(bpf_test_drain(t, &log), 1);

	npuprof_acl_trace_close(t);
	free(log.recs);
	return CHECK_DONE();
}
