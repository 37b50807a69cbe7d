// SPDX-License-Identifier: MIT
/*
 * Description: npuprof_acl_trace_attach_pid() refuses what it cannot trace
 * and leaves nothing behind.
 *
 * A pid that no longer exists gives -ESRCH; a live process without
 * libascendcl.so mapped (a child exec'ing /bin/sleep) gives -ENOENT; a
 * process whose libascendcl.so is not an ACL runtime (/bin/sleep with a
 * copy of libz preloaded under that name) gives -ENOEXEC; pid 0 gives
 * -EINVAL; and none of them is recorded afterwards.  Attaching to the
 * same process twice is fine.
 * Runs as root in the test VM (tests/vm/bpf_acl_trace.sh).
 */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>

#include <acl/acl.h>

#include "bpf_test.h"

static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

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

int main(void)
{
	struct npuprof_acl_trace *t = bpf_test_open(64 * 1024);
	struct api_log log = { 0 };
	pid_t pid;

	CHECK_EQ(npuprof_acl_trace_attach_pid(t, dead_pid()), -ESRCH);
	pid = sleeper(NULL);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, pid), -ENOENT);
	kill_sleeper(pid);
	CHECK_EQ(system("mkdir -p " FAKE_DIR " && cp /lib/x86_64-linux-gnu/libz.so.1 "
			FAKE_LIB), 0);
	pid = sleeper(FAKE_LIB);
	CHECK(maps_has(pid, FAKE_LIB));
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, pid), -ENOEXEC);
	kill_sleeper(pid);
	CHECK_EQ(system("rm -rf " FAKE_DIR), 0);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, 0), -EINVAL);
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
